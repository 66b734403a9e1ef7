/**
 * Test-only pi extension: a scripted model ("faux" provider, model "faux-1") for offline runs.
 *
 * Turn 1 says "Let me ask." (or the text of PI_ASK_TEST_MESSAGE) and calls `ask_user` with the
 * payload in the file named by PI_ASK_TEST_PAYLOAD; turn 2
 * answers with the text "MODEL SAW:" followed by the ask_user tool result's content text
 * exactly as the model receives it (or "MODEL SAW ERROR:" for a tool error).
 *
 * With PI_ASK_TEST_ABORT_FILE set, the turn is aborted (`ctx.abort()`, as pi's Esc does) as
 * soon as that file exists while ask_user runs.
 */

import * as fs from "node:fs";
import { createFauxCore, fauxAssistantMessage, fauxText, fauxToolCall, type TranscriptContext } from "@earendil-works/pi-ai";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

function lastToolResult(context: TranscriptContext) {
	for (let i = context.messages.length - 1; i >= 0; i--) {
		const m = context.messages[i];
		if (m.role === "toolResult") return m;
	}
	return undefined;
}

export default function (pi: ExtensionAPI) {
	const payloadFile = process.env.PI_ASK_TEST_PAYLOAD;
	if (!payloadFile) throw new Error("PI_ASK_TEST_PAYLOAD is not set");
	const payload = JSON.parse(fs.readFileSync(payloadFile, "utf8"));

	const faux = createFauxCore({ api: "faux", provider: "faux", models: [{ id: "faux-1", name: "Faux" }] });
	faux.setResponses([
		fauxAssistantMessage([fauxText(process.env.PI_ASK_TEST_MESSAGE || "Let me ask."), fauxToolCall("ask_user", payload, { id: "call-ask-1" })], {
			stopReason: "toolUse",
		}),
		(context) => {
			const result = lastToolResult(context);
			const text = (result?.content ?? []).map((c) => (c.type === "text" ? c.text : `[${c.type}]`)).join("\n");
			return fauxAssistantMessage(`${result?.isError ? "MODEL SAW ERROR:" : "MODEL SAW:"}\n${text}\nEND OF TURN`);
		},
	]);
	pi.registerProvider("faux", {
		baseUrl: "http://localhost:0",
		apiKey: "faux-key",
		api: "faux",
		streamSimple: faux.streamSimple,
		models: [
			{
				id: "faux-1",
				name: "Faux",
				reasoning: false,
				input: ["text"],
				cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
				contextWindow: 128000,
				maxTokens: 4096,
			},
		],
	});

	const abortFile = process.env.PI_ASK_TEST_ABORT_FILE;
	if (abortFile) {
		pi.on("tool_execution_start", (event, ctx) => {
			if (event.toolName !== "ask_user") return;
			const timer = setInterval(() => {
				if (fs.existsSync(abortFile)) {
					clearInterval(timer);
					ctx.abort();
				}
			}, 50);
			pi.on("tool_execution_end", () => clearInterval(timer));
		});
	}
}

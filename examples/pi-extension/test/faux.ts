/**
 * Test-only pi extension: a scripted model ("faux" provider, model "faux-1") for offline runs.
 *
 * After the user's prompt it says "Let me ask." (or the text of PI_ASK_TEST_MESSAGE) and calls
 * `ask_user` with the payload in the file named by PI_ASK_TEST_PAYLOAD (call ids
 * `call-ask-1`, `call-ask-2`, ... in this process); after a tool result it answers with the
 * text "MODEL SAW:" followed by the ask_user tool result's content text exactly as the model
 * receives it (or "MODEL SAW ERROR:" for a tool error); after a user message that carries
 * answers (the extension's `/ask:replay` and resume offer send one, "I answered ...") it says
 * "MODEL GOT:" and that message's text.
 *
 * With PI_ASK_TEST_EVENTS set, every `ask:started` and `ask:completed` event on `pi.events` is
 * appended to that file as a JSON line `{channel, data}`, as a host (a status line, a notifier)
 * would receive it.
 *
 * `/faux-tree` moves the session's leaf to the newest assistant message with an ask_user call
 * (what choosing that entry in pi's /tree does) and then notifies "TREE DONE".
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

/** The text of a user message's content (a string or text parts). */
function userText(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content.map((c) => (c && typeof c === "object" && (c as { type?: string }).type === "text" ? String((c as { text?: unknown }).text ?? "") : "")).join("");
}

export default function (pi: ExtensionAPI) {
	const payloadFile = process.env.PI_ASK_TEST_PAYLOAD;
	if (!payloadFile) throw new Error("PI_ASK_TEST_PAYLOAD is not set");
	const payload = JSON.parse(fs.readFileSync(payloadFile, "utf8"));

	const faux = createFauxCore({ api: "faux", provider: "faux", models: [{ id: "faux-1", name: "Faux" }] });
	let calls = 0;
	const respond = (context: TranscriptContext) => {
		const last = context.messages[context.messages.length - 1];
		if (last?.role === "toolResult") {
			const result = lastToolResult(context);
			const text = (result?.content ?? []).map((c) => (c.type === "text" ? c.text : `[${c.type}]`)).join("\n");
			return fauxAssistantMessage(`${result?.isError ? "MODEL SAW ERROR:" : "MODEL SAW:"}\n${text}\nEND OF TURN`);
		}
		const said = last?.role === "user" ? userText(last.content) : "";
		if (said.startsWith("I answered") || said.startsWith("pi ended before")) return fauxAssistantMessage(`MODEL GOT:\n${said}\nEND OF TURN`);
		calls += 1;
		return fauxAssistantMessage([fauxText(process.env.PI_ASK_TEST_MESSAGE || "Let me ask."), fauxToolCall("ask_user", payload, { id: `call-ask-${calls}` })], {
			stopReason: "toolUse",
		});
	};
	faux.setResponses(Array.from({ length: 50 }, () => respond));
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

	const eventsFile = process.env.PI_ASK_TEST_EVENTS;
	if (eventsFile) {
		for (const channel of ["ask:started", "ask:completed"]) {
			pi.events.on(channel, (data) => fs.appendFileSync(eventsFile, `${JSON.stringify({ channel, data })}\n`));
		}
	}

	pi.registerCommand("faux-tree", {
		description: "test: move the leaf to the newest ask_user call",
		handler: async (_args, ctx) => {
			const branch = ctx.sessionManager.getBranch();
			const call = [...branch]
				.reverse()
				.find(
					(e) =>
						e.type === "message" &&
						e.message.role === "assistant" &&
						Array.isArray(e.message.content) &&
						e.message.content.some((c) => c.type === "toolCall" && c.name === "ask_user"),
				);
			if (!call) throw new Error("no ask_user call on the branch");
			await ctx.navigateTree(call.id, { summarize: false });
			ctx.ui.notify(`TREE DONE ${ctx.sessionManager.getLeafId() === call.id ? "AT THE CALL" : "ELSEWHERE"}`, "info");
		},
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

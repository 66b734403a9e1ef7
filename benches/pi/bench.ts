/**
 * Benchmark-only pi extension (benches/pi_first_question.py, docs/benchmarks.md): a scripted
 * faux model that alternates an `ask_user` call with a call to `bench_select`, a tool that
 * shows pi's own `ctx.ui.select` dialog with the same question, ROUNDS times each, then ends
 * with the text "BENCH DONE".
 *
 * At every `tool_execution_start` it appends `{tool, t}` (t: epoch milliseconds from
 * `performance.timeOrigin + performance.now()`) to the file BENCH_LOG: the moment the tool
 * call starts. The driver takes the moment its question is on the terminal.
 *
 * Environment: BENCH_LOG (required), BENCH_ROUNDS (default 10).
 */

import * as fs from "node:fs";
import { performance } from "node:perf_hooks";
import { createFauxCore, fauxAssistantMessage, fauxText, fauxToolCall } from "@earendil-works/pi-ai";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";

/** What the question screens show and the driver waits for (in no transcript row). */
export const ASK_MARKER = "first-question-marker-A";
export const SELECT_MARKER = "first-question-marker-B";

const payload = {
	title: "Project setup",
	questions: [
		{
			id: "database",
			label: "Database",
			prompt: "Which database should the project use?",
			options: [
				{ value: "postgres", label: "PostgreSQL", description: `Full relational database. ${ASK_MARKER}` },
				{ value: "sqlite", label: "SQLite", description: "Embedded, minimal setup." },
			],
		},
	],
};

export default function (pi: ExtensionAPI) {
	const log = process.env.BENCH_LOG;
	if (!log) throw new Error("BENCH_LOG is not set");
	const rounds = Number.parseInt(process.env.BENCH_ROUNDS ?? "10", 10);

	pi.registerTool({
		name: "bench_select",
		label: "Bench select",
		description: "Shows pi's own select dialog (benchmark only).",
		parameters: Type.Object({}),
		async execute(_id, _params, signal, _onUpdate, ctx) {
			const choice = await ctx.ui.select(
				"Which database should the project use?",
				[`1. PostgreSQL: Full relational database. ${SELECT_MARKER}`, "2. SQLite: Embedded, minimal setup."],
				{ signal },
			);
			return { content: [{ type: "text", text: choice ?? "cancelled" }], details: {} };
		},
	});

	pi.on("tool_execution_start", (event) => {
		fs.appendFileSync(log, `${JSON.stringify({ tool: event.toolName, t: performance.timeOrigin + performance.now() })}\n`);
	});

	const faux = createFauxCore({ api: "faux", provider: "faux", models: [{ id: "faux-1", name: "Faux" }] });
	const steps = [];
	for (let i = 0; i < rounds; i++) {
		steps.push(fauxAssistantMessage([fauxToolCall("ask_user", payload, { id: `ask-${i}` })], { stopReason: "toolUse" }));
		steps.push(fauxAssistantMessage([fauxToolCall("bench_select", {}, { id: `select-${i}` })], { stopReason: "toolUse" }));
	}
	steps.push(fauxAssistantMessage([fauxText("BENCH DONE")]));
	faux.setResponses(steps);
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
}

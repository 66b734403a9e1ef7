// The contract's source of truth for the tool: eko24ive/pi-ask's tests/ask-tool.test.ts at
// 5d7ccc8 (tag v0.3.0), ported to this extension with a mock `registerTool` as the upstream
// does, each test under the upstream test's name; and the rows its tests/result.test.ts
// expects of `renderResultText`, which is what its `renderResult` draws, through this
// extension's `renderResult`.
//
// What is not ported as written: the upstream's `content` wording ("Needs user input: ask_user
// requires interactive UI.", "1. Goal: What should I optimize for?", "- Speed [speed]",
// "- Type your own [custom]", "duplicate question id \"scope\"") is the binary's text, which the
// tool returns unchanged; the assertions below hold for the binary's wording today and for the
// upstream's, and are to be made exact when the binary writes the upstream's.

import assert from "node:assert/strict";
import test from "node:test";
import { createJiti } from "jiti";
import { extension, tempDir } from "./helpers.mjs";

const jiti = createJiti(import.meta.url);
const ext = await jiti.import(extension);

const noop = () => {
	// intentional test callback
};

/** The tool the extension registers, through a mock `registerTool` (the rest of pi's API as no-ops). */
function registerMockTool() {
	const tools = [];
	ext.default({
		registerTool(tool) {
			tools.push(tool);
		},
		registerFlag: noop,
		registerCommand: noop,
		getFlag: () => undefined,
		getSettings: () => ({}),
		appendEntry: noop,
		on: noop,
		events: { emit: noop, on: () => noop },
	});
	return tools[0];
}

/**
 * A context without a UI (pi's json mode: the binary answers "Needs user input", never the
 * terminal), or pi's TUI, whose `ui.custom` (the hand-over of the terminal) records being called.
 */
function makeCtx(hasUi) {
	const ctx = {
		hasUI: hasUi,
		mode: hasUi ? "tui" : "json",
		cwd: tempDir(),
		uiOpened: 0,
		ui: {
			custom: async () => {
				ctx.uiOpened += 1;
			},
			notify: noop,
		},
	};
	return ctx;
}

function sampleParams() {
	return {
		title: "Clarify next step",
		questions: [
			{
				id: "goal",
				label: "Goal",
				prompt: "What should I optimize for?",
				options: [
					{ value: "speed", label: "Speed" },
					{ value: "safety", label: "Safety" },
				],
			},
		],
	};
}

test("ask tool returns pending questions in non-interactive mode", async () => {
	const tool = registerMockTool();

	const result = await tool.execute("call-1", sampleParams(), undefined, noop, makeCtx(false));

	assert.equal(result.details.cancelled, true);
	assert.deepEqual(result.details.questions, [
		{
			id: "goal",
			label: "Goal",
			prompt: "What should I optimize for?",
			type: "single",
		},
	]);
	assert.deepEqual(result.details.answers, {});
	assert.match(result.content[0].text, /^Needs user input: /);
	assert.match(result.content[0].text, /\n1\. Goal\b.*: What should I optimize for\?\n/);
	assert.match(result.content[0].text, /Speed \[speed\]/);
	assert.match(result.content[0].text, /Safety \[safety\]/);
});

test("ask tool rejects invalid payloads before UI opens", async () => {
	const tool = registerMockTool();
	const ctx = makeCtx(true);

	const result = await tool.execute(
		"call-1",
		{
			title: "Clarify",
			questions: [
				{
					id: "scope",
					prompt: "Pick scope",
					options: [{ value: "small", label: "Small" }],
				},
				{
					id: "scope",
					prompt: "Pick tone",
					options: [{ value: "direct", label: "Direct" }],
				},
			],
		},
		undefined,
		noop,
		ctx,
	);

	assert.equal(ctx.uiOpened, 0, "pi's terminal was not handed over");
	assert.equal(result.details.cancelled, true);
	assert.equal(result.details.questions.length, 0);
	assert.match(result.content[0].text, /question id "scope"/);
	assert.match(result.content[0].text, /duplicate_question_id/);
});

test("ask tool transcript renderers summarize call and cancelled result", () => {
	const tool = registerMockTool();
	const theme = {
		bold: (text) => text,
		fg: (_token, text) => text,
	};

	const callText = tool.renderCall(
		{
			questions: [
				{ label: "Goal", options: [], prompt: "Q?", id: "goal" },
				{ label: "Tone", options: [], prompt: "Q?", id: "tone" },
			],
		},
		theme,
	).text;
	assert.equal(callText, "ask_user 2 question(s) (Goal, Tone)");

	const resultText = tool.renderResult(
		{
			content: [{ type: "text", text: "ignored" }],
			details: {
				cancelled: true,
				questions: [],
				answers: {},
			},
		},
		undefined,
		theme,
	).text;
	assert.equal(resultText, "Cancelled");
});

// tests/result.test.ts at 5d7ccc8: `renderResultText(result)` of each result, here the collapsed
// `renderResult` of the same `details`.

const plain = { bold: (text) => text, fg: (_token, text) => text };

function rendered(details) {
	return registerMockTool().renderResult({ content: [{ type: "text", text: "ignored" }], details }, { expanded: false, isPartial: false }, plain).text;
}

test("summarizeResult formats selected answers", () => {
	const details = {
		cancelled: false,
		questions: [{ id: "style", label: "Style", prompt: "How should I frame it?", type: "single" }],
		answers: { style: { values: ["rich"], labels: ["Rich"], indices: [2] } },
	};
	assert.equal(rendered(details), "✓ Style: Rich");
});

test("summaries include custom text answers", () => {
	const details = {
		cancelled: false,
		questions: [{ id: "notes", label: "Notes", prompt: "Anything else?", type: "single" }],
		answers: { notes: { values: ["Please include examples"], labels: ["Please include examples"], indices: [], customText: "Please include examples" } },
	};
	assert.equal(rendered(details), "✓ Notes: (wrote) Please include examples");
});

test("multi-select summaries include selected options and custom text", () => {
	const details = {
		cancelled: false,
		questions: [{ id: "frameworks", label: "Frameworks", prompt: "Which frameworks?", type: "multi" }],
		answers: { frameworks: { values: ["react", "SolidStart"], labels: ["React", "SolidStart"], indices: [1], customText: "SolidStart" } },
	};
	assert.equal(rendered(details), "✓ Frameworks: React, SolidStart");
});

test("summaries and result text include question and selected option notes", () => {
	const details = {
		cancelled: false,
		questions: [{ id: "framework", label: "Framework", prompt: "Pick a framework", type: "single" }],
		answers: {
			framework: { values: ["vue"], labels: ["Vue"], indices: [2], note: "Need SSR support", optionNotes: { vue: "Team has prior experience" } },
		},
	};
	assert.equal(rendered(details), ["✓ Framework: Vue", "  note: Need SSR support", "  Vue note: Team has prior experience"].join("\n"));
});

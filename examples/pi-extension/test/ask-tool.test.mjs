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

test("question-note-only results still render note content", () => {
	const details = {
		title: "Interview",
		cancelled: false,
		questions: [{ id: "scope", label: "Scope", prompt: "What should we focus on?", type: "single" }],
		answers: { scope: { values: [], labels: [], indices: [], note: "Prefer incremental changes" } },
	};
	assert.equal(rendered(details), "  note: Prefer incremental changes");
});

// The elaborate results of tests/result.test.ts at the upstream's HEAD (0.9.0): `details` as
// its `toAskResult` builds them (the binary's shape), the rows its `renderResultText` draws.

const framework = {
	id: "framework",
	label: "Framework",
	prompt: "Pick a framework",
	type: "single",
	options: [
		{ value: "react", label: "React" },
		{ value: "vue", label: "Vue" },
	],
};
const frameworkQuestions = [{ id: "framework", label: "Framework", prompt: "Pick a framework", type: "single" }];
const instruction =
	"First answer the user's noted clarification directly and concisely using the provided question and option context. Do not treat these notes as final answers. Then re-ask only the affected questions if a choice is still needed afterward. Do not jump straight to a follow-up question unless the note is already resolved.";
const needsClarification = {
	strategy: "refine_only",
	affectedQuestionIds: ["framework"],
	preservedAnswers: {},
	questionStates: { framework: { status: "needs_clarification" } },
};

test("elaborate results include unselected notes in summary and render output", () => {
	const details = {
		cancelled: false,
		mode: "elaborate",
		questions: frameworkQuestions,
		answers: {},
		continuation: needsClarification,
		elaboration: {
			instruction,
			nextAction: "clarify_then_reask",
			items: [
				{ target: { kind: "question" }, question: framework, answered: false, note: "Need SSR support" },
				{
					target: { kind: "option", optionValue: "react" },
					question: framework,
					option: { value: "react", label: "React" },
					selected: false,
					answered: false,
					note: "Legacy codebase",
				},
			],
		},
	};
	assert.equal(
		rendered(details),
		[
			'User asked to elaborate on question "Pick a framework" with note "Need SSR support"',
			'User asked to elaborate on question "Pick a framework" option "React" with note "Legacy codebase"',
		].join("\n"),
	);
});

test("elaborate results keep committed answers alongside elaboration context", () => {
	const answer = { values: ["vue"], labels: ["Vue"], indices: [2], note: "Compare tradeoffs" };
	const details = {
		cancelled: false,
		mode: "elaborate",
		questions: frameworkQuestions,
		answers: { framework: answer },
		continuation: needsClarification,
		elaboration: {
			instruction,
			nextAction: "clarify_then_reask",
			items: [{ target: { kind: "question" }, question: framework, answered: true, answer, note: "Compare tradeoffs" }],
		},
	};
	assert.equal(rendered(details), 'User asked to elaborate on question "Pick a framework" after current answer "Vue" with note "Compare tradeoffs"');
});

test("elaboration summary includes custom answers in note context", () => {
	const answer = { values: ["SolidStart"], labels: ["SolidStart"], indices: [], customText: "SolidStart", note: "Compare tradeoffs" };
	const details = {
		cancelled: false,
		mode: "elaborate",
		questions: frameworkQuestions,
		answers: { framework: answer },
		continuation: needsClarification,
		elaboration: {
			instruction,
			nextAction: "clarify_then_reask",
			items: [{ target: { kind: "question" }, question: framework, answered: true, answer, note: "Compare tradeoffs" }],
		},
	};
	assert.equal(rendered(details), 'User asked to elaborate on question "Pick a framework" after current answer "SolidStart" with note "Compare tradeoffs"');
});

test("elaboration summary includes answered custom text even without notes", () => {
	const text = "teeeel meee whyyyyy";
	const details = {
		cancelled: false,
		mode: "elaborate",
		questions: [{ id: "demo_goal", label: "Goal", prompt: "What kind of ask_user showcase would you like?", type: "single" }],
		answers: { demo_goal: { values: [text], labels: [text], indices: [], customText: text } },
		continuation: { strategy: "refine_only", affectedQuestionIds: [], preservedAnswers: {}, questionStates: { demo_goal: { status: "answered" } } },
		elaboration: { instruction, nextAction: "clarify_then_reask", items: [] },
	};
	assert.equal(rendered(details), 'User asked to elaborate on question "What kind of ask_user showcase would you like?" after current answer "teeeel meee whyyyyy"');
});

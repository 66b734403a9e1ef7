// Unit tests of the extension's helpers, loaded from index.ts with jiti (as pi loads it).

import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "node:test";
import { createJiti } from "jiti";
import { binaryResult, extension, repoRoot, tempDir } from "./helpers.mjs";

const jiti = createJiti(import.meta.url);
const ext = await jiti.import(extension);

/** A theme that marks colours as `<color>text</color>`, so the tests see the structure. */
const theme = {
	fg: (color, text) => `<${color}>${text}</${color}>`,
	bold: (text) => `*${text}*`,
};

function executable(dir, name, body = "#!/bin/sh\necho 'pi-ask 0.6.0'\n") {
	fs.mkdirSync(dir, { recursive: true });
	const file = path.join(dir, name);
	fs.writeFileSync(file, body, { mode: 0o755 });
	return file;
}

/** A Linux x64 glibc host whose packages resolve from `work` (none unless a test adds some). */
function linuxHost(work, repo, extra = {}) {
	return { repoRoot: repo, platform: "linux", arch: "x64", glibc: () => true, resolveFrom: path.join(work, "node_modules", "pi-ask"), ...extra };
}

/** A checkout of the pi-ask repository at `repo` (its Cargo.toml), as findBinary recognizes one. */
function checkout(repo) {
	fs.mkdirSync(repo, { recursive: true });
	fs.writeFileSync(path.join(repo, "Cargo.toml"), '[package]\nname = "pi-ask"\nversion = "0.6.0"\n');
	return repo;
}

/** An installed platform package `name` under `work/node_modules`, with its binary. */
function platformPackage(work, name) {
	const dir = path.join(work, "node_modules", name);
	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name, version: "0.2.0" }));
	return executable(path.join(dir, "bin"), "pi-ask");
}

test("findBinary: PI_ASK_BIN first, then the platform package, then PATH, then the repository's release build", () => {
	const work = tempDir();
	const repo = checkout(path.join(work, "repo"));
	const built = executable(path.join(repo, "target", "release"), "pi-ask");
	const onPath = executable(path.join(work, "bin"), "pi-ask");
	const explicit = executable(path.join(work, "elsewhere"), "my-pi-ask");
	const emptyDir = path.join(work, "empty");
	fs.mkdirSync(emptyDir);
	const host = linuxHost(work, repo);

	assert.deepEqual(ext.findBinary({ PATH: `${emptyDir}:${path.dirname(onPath)}` }, host), { path: onPath, source: "PATH" });
	assert.deepEqual(ext.findBinary({ PATH: emptyDir }, host), { path: built, source: "repository" });
	assert.deepEqual(ext.findBinary({ PI_ASK_BIN: "  ", PATH: emptyDir }, host), { path: built, source: "repository" });

	const packaged = platformPackage(work, "pi-ask-linux-x64-gnu");
	assert.deepEqual(ext.findBinary({ PI_ASK_BIN: explicit, PATH: path.dirname(onPath) }, host), { path: explicit, source: "PI_ASK_BIN" });
	assert.deepEqual(ext.findBinary({ PATH: path.dirname(onPath) }, host), { path: packaged, source: "package" });
	// Another platform's package is passed over.
	assert.deepEqual(ext.findBinary({ PATH: path.dirname(onPath) }, linuxHost(work, repo, { arch: "arm64" })), { path: onPath, source: "PATH" });
	assert.deepEqual(ext.findBinary({ PATH: path.dirname(onPath) }, linuxHost(work, repo, { platform: "darwin" })), { path: onPath, source: "PATH" });
});

test("findBinary: the C library is checked at run time: gnu on glibc (musl when only that is installed), musl on musl", () => {
	const work = tempDir();
	const repo = path.join(work, "repo");
	const musl = platformPackage(work, "pi-ask-linux-arm64-musl");
	const onGlibc = linuxHost(work, repo, { arch: "arm64", glibc: () => true });
	const onMusl = linuxHost(work, repo, { arch: "arm64", glibc: () => false });
	assert.deepEqual(ext.findBinary({ PATH: "" }, onGlibc), { path: musl, source: "package" });
	assert.deepEqual(ext.findBinary({ PATH: "" }, onMusl), { path: musl, source: "package" });
	const gnu = platformPackage(work, "pi-ask-linux-arm64-gnu");
	assert.deepEqual(ext.findBinary({ PATH: "" }, onGlibc), { path: gnu, source: "package" });
	assert.deepEqual(ext.findBinary({ PATH: "" }, onMusl), { path: musl, source: "package" });
	fs.rmSync(path.dirname(path.dirname(musl)), { recursive: true });
	// A gnu build does not run on musl: never chosen there.
	assert.throws(() => ext.findBinary({ PATH: "" }, onMusl), /tried PI_ASK_BIN \(not set\); the npm package pi-ask-linux-arm64-musl \(not installed\)/);
	// The executable bit, when an installer dropped it, is put back.
	fs.chmodSync(gnu, 0o644);
	assert.deepEqual(ext.findBinary({ PATH: "" }, onGlibc), { path: gnu, source: "package" });
});

test("platformPackages and isGlibc", () => {
	assert.deepEqual(ext.platformPackages("linux", "x64", true), ["pi-ask-linux-x64-gnu", "pi-ask-linux-x64-musl"]);
	assert.deepEqual(ext.platformPackages("linux", "x64", false), ["pi-ask-linux-x64-musl"]);
	assert.deepEqual(ext.platformPackages("linux", "arm64", undefined), ["pi-ask-linux-arm64-musl", "pi-ask-linux-arm64-gnu"]);
	assert.deepEqual(ext.platformPackages("darwin", "arm64", undefined), ["pi-ask-darwin-arm64"]);
	assert.deepEqual(ext.platformPackages("darwin", "x64", undefined), ["pi-ask-darwin-x64"]);
	assert.deepEqual(ext.platformPackages("win32", "x64", undefined), []);
	assert.deepEqual(ext.platformPackages("linux", "ia32", true), []);

	assert.equal(ext.isGlibc(() => ({ header: { glibcVersionRuntime: "2.39" } })), true);
	assert.equal(ext.isGlibc(() => ({ header: {} })), false);
	assert.equal(ext.isGlibc(() => undefined), undefined);
	assert.equal(
		ext.isGlibc(() => {
			throw new Error("no report");
		}),
		undefined,
	);
	// This process: a boolean on Linux.
	if (process.platform === "linux") assert.equal(typeof ext.isGlibc(), "boolean");
});

test("findBinary: by default the repository is the one this extension file is in", () => {
	const release = path.join(repoRoot, "target", "release", "pi-ask");
	const emptyDir = tempDir();
	let found;
	try {
		found = ext.findBinary({ PATH: emptyDir });
	} catch (e) {
		assert.ok(e.message.includes(`; ${release}. Build it`), e.message);
		return;
	}
	assert.deepEqual(found, { path: release, source: "repository" });
});

test("findBinary: a clear error, naming what was tried, when nothing is found or PI_ASK_BIN is wrong", () => {
	const work = tempDir();
	const repo = checkout(path.join(work, "repo"));
	const fix =
		"Build it with `cargo build --release` in this checkout, or install it with `cargo install --path .` in the pi-ask repository " +
		"(puts `pi-ask` on PATH), or set PI_ASK_BIN to its path.";
	const built = path.join(repo, "target", "release", "pi-ask");
	assert.throws(() => ext.findBinary({ PATH: work }, linuxHost(work, repo)), {
		message:
			"The pi-ask binary was not found; tried PI_ASK_BIN (not set); the npm packages pi-ask-linux-x64-gnu, pi-ask-linux-x64-musl (not installed); " +
			`\`pi-ask\` on PATH; ${built}. ${fix}`,
	});
	assert.throws(() => ext.findBinary({ PATH: work }, linuxHost(work, repo, { platform: "freebsd" })), {
		message: `The pi-ask binary was not found; tried PI_ASK_BIN (not set); an npm package for freebsd-x64 (none is published); \`pi-ask\` on PATH; ${built}. ${fix}`,
	});
	const notExecutable = path.join(work, "pi-ask");
	fs.writeFileSync(notExecutable, "", { mode: 0o644 });
	assert.throws(() => ext.findBinary({ PI_ASK_BIN: notExecutable, PATH: "" }, linuxHost(work, repo)), {
		message: `PI_ASK_BIN is set to ${JSON.stringify(notExecutable)}, which is not an executable file.`,
	});
	// A non-executable pi-ask on PATH is passed over.
	assert.throws(() => ext.findBinary({ PATH: work }, linuxHost(work, repo)), /was not found/);
});

test("findBinary: installed from npm (no checkout around it), the error says how to get the packaged binary", () => {
	const work = tempDir();
	// A release build where a checkout would have one is not looked at: this is no checkout.
	const notRepo = path.join(work, "project");
	executable(path.join(notRepo, "target", "release"), "pi-ask");
	assert.throws(() => ext.findBinary({ PATH: work }, linuxHost(work, notRepo)), {
		message:
			"The pi-ask binary was not found; tried PI_ASK_BIN (not set); the npm packages pi-ask-linux-x64-gnu, pi-ask-linux-x64-musl (not installed); " +
			"`pi-ask` on PATH. The binary comes with the npm package pi-ask as its optional dependency pi-ask-linux-x64-gnu or pi-ask-linux-x64-musl: " +
			"install pi-ask again with its optional dependencies (`pi install npm:pi-ask`; not npm's --omit=optional), put a pi-ask on PATH " +
			"(`cargo install pi-ask`), or set PI_ASK_BIN to its path.",
	});
	assert.throws(() => ext.findBinary({ PATH: work }, linuxHost(work, notRepo, { platform: "freebsd" })), {
		message:
			"The pi-ask binary was not found; tried PI_ASK_BIN (not set); an npm package for freebsd-x64 (none is published); `pi-ask` on PATH. " +
			"No prebuilt pi-ask is published for freebsd-x64: build one with `cargo install pi-ask` (Rust 1.85 or newer; puts `pi-ask` on PATH), " +
			"or set PI_ASK_BIN to a pi-ask binary.",
	});
});

test("checkBinaryVersion: accepts the minimum and newer, refuses older and non-pi-ask programs", async () => {
	const work = tempDir();
	assert.equal(ext.MIN_BINARY_VERSION, "0.6.0");
	assert.equal(await ext.checkBinaryVersion(executable(work, "a", "#!/bin/sh\necho 'pi-ask 0.6.0'\n")), "0.6.0");
	assert.equal(await ext.checkBinaryVersion(executable(work, "b", "#!/bin/sh\necho 'pi-ask 0.10.2'\n")), "0.10.2");
	const old = executable(work, "c", "#!/bin/sh\necho 'pi-ask 0.0.9'\n");
	await assert.rejects(ext.checkBinaryVersion(old), {
		message: `${old} is pi-ask 0.0.9, which is too old: this extension needs pi-ask ${ext.MIN_BINARY_VERSION} or newer.`,
	});
	// 0.2.x draws on the alternate screen only: no --screen inline.
	const before = executable(work, "e", "#!/bin/sh\necho 'pi-ask 0.2.9'\n");
	await assert.rejects(ext.checkBinaryVersion(before), { message: `${before} is pi-ask 0.2.9, which is too old: this extension needs pi-ask 0.6.0 or newer.` });
	const other = executable(work, "d", "#!/bin/sh\necho 'something else'\nexit 2\n");
	await assert.rejects(ext.checkBinaryVersion(other), {
		message: `${other} does not look like pi-ask: \`--version\` exited with 2 and printed "something else".`,
	});
});

test("compareVersions orders numerically", () => {
	assert.ok(ext.compareVersions("0.10.0", "0.9.9") > 0);
	assert.equal(ext.compareVersions("1.2.3", "1.2.3"), 0);
	assert.ok(ext.compareVersions("0.1.0", "0.1.1") < 0);
});

test("the tool registers with the contract's name, mode and parameters", () => {
	const tools = [];
	ext.default({ registerTool: (t) => tools.push(t), registerFlag() {}, registerCommand() {}, on() {} });
	assert.equal(tools.length, 1);
	const [tool] = tools;
	assert.equal(tool.name, "ask_user");
	assert.equal(tool.executionMode, "sequential");
	assert.equal(tool.parameters, ext.askUserParameters);
	assert.deepEqual(Object.keys(tool.parameters.properties), ["title", "questions"]);
	assert.deepEqual(tool.parameters.required, ["questions"]);
	for (const g of tool.promptGuidelines) assert.match(g, /ask_user/, "every guideline names the tool");
});

test("renderCall: collapsed, the count and the labels; expanded, the title and one line per question", () => {
	const args = {
		title: "Project setup",
		questions: [
			{ id: "db", label: "Database", prompt: "Which database?", options: [{ value: "pg", label: "PostgreSQL" }, { value: "s", label: "SQLite" }] },
			{ id: "ci", prompt: "Which checks\nshould run?", type: "multi", options: [{ value: "l", label: "Lint" }] },
		],
	};
	assert.equal(ext.callText(args, theme), "<toolTitle>*ask_user *</toolTitle><muted>2 question(s)</muted><dim> (Database, Q2)</dim>");
	assert.equal(
		ext.callText(args, theme, true),
		"<toolTitle>*ask_user*</toolTitle> <accent>Project setup</accent><muted> · 2 questions</muted>\n" +
			"  <accent>Database</accent> Which database?<dim> (PostgreSQL / SQLite)</dim>\n" +
			"  <accent>Q2</accent><dim> [multi]</dim> Which checks should run?<dim> (Lint)</dim>",
	);
	// The labels are cut to 50 columns, as the upstream's callLabelTruncateWidth (pi-tui's
	// truncateToWidth, which resets attributes around its "...").
	const many = { questions: Array.from({ length: 9 }, (_, i) => ({ id: `q${i}`, label: `Label${i}` })) };
	assert.equal(
		ext.callText(many, theme),
		"<toolTitle>*ask_user *</toolTitle><muted>9 question(s)</muted><dim> (Label0, Label1, Label2, Label3, Label4, Label5,\x1b[0m...\x1b[0m)</dim>",
	);
	// Partial arguments while the call streams in.
	assert.equal(ext.callText({}, theme), "<toolTitle>*ask_user *</toolTitle><muted>0 question(s)</muted>");
	assert.equal(ext.callText({}, theme, true), "<toolTitle>*ask_user*</toolTitle><muted> · 0 questions</muted>");
	assert.equal(ext.callText({ questions: [{ id: "x" }] }, theme, true), "<toolTitle>*ask_user*</toolTitle><muted> · 1 question</muted>\n  <accent>Q1</accent> ");
});

test("renderCall never throws on arguments that are still streaming in or not the contract's", () => {
	const odd = [
		undefined,
		null,
		{ questions: "no" },
		{ questions: [null, 7, "q", { label: 42, prompt: { a: 1 }, type: 3, options: "x" }, { label: ["a"], options: [null, { label: 9 }, { label: { x: 1 } }] }] },
		{ title: 12, questions: [{ label: "  " }] },
	];
	for (const args of odd) {
		for (const expanded of [false, true]) assert.equal(typeof ext.callText(args, theme, expanded), "string", JSON.stringify(args));
	}
	assert.equal(
		ext.callText({ questions: [{ label: 42 }, { label: "Tone" }] }, theme),
		"<toolTitle>*ask_user *</toolTitle><muted>2 question(s)</muted><dim> (Q1, Tone)</dim>",
	);
	assert.equal(
		ext.callText({ questions: [{ label: 42, prompt: 7, options: [{ label: 9 }, null] }] }, theme, true),
		"<toolTitle>*ask_user*</toolTitle><muted> · 1 question</muted>\n  <accent>Q1</accent> 7<dim> (9)</dim>",
	);
});

const questions = [
	{ id: "db", label: "Database", prompt: "Which database?", type: "single" },
	{ id: "ci", label: "Checks", prompt: "Which checks?", type: "multi" },
	{ id: "name", label: "Name", prompt: "Name?", type: "single" },
	{ id: "own", label: "Own", prompt: "Anything else?", type: "single" },
];

const answered = {
	content: [{ type: "text", text: "ignored" }],
	details: {
		cancelled: false,
		questions,
		answers: {
			db: { values: ["pg"], labels: ["PostgreSQL"], indices: [1], note: "managed, please" },
			ci: {
				values: ["lint", "test", "cargo deny"],
				labels: ["Lint", "Tests", "cargo deny"],
				indices: [1, 2],
				customText: "cargo deny",
				optionNotes: { lint: "clippy only", test: `the fast ones,\nnot the ${"slow ".repeat(20)}ones` },
			},
			own: { values: ["Please include examples"], labels: ["Please include examples"], indices: [], customText: "Please include examples" },
		},
	},
};

test("renderResult collapsed: the upstream's rows, ✓ per answered question, (wrote) for custom text only, note lines", () => {
	assert.equal(
		ext.resultText(answered, false, theme),
		"<success>✓</success> <accent>Database</accent>: PostgreSQL\n" +
			"<muted>  note: managed, please</muted>\n" +
			"<success>✓</success> <accent>Checks</accent>: Lint, Tests, cargo deny\n" +
			"<muted>  Lint note: clippy only</muted>\n" +
			`<muted>  Tests note: the fast ones, not the ${"slow ".repeat(19)}slow ones</muted>\n` +
			"<success>✓</success> <accent>Own</accent>: (wrote) Please include examples",
	);
	// Nothing answered: Submitted.
	assert.equal(ext.resultText({ content: [], details: { cancelled: false, questions, answers: {} } }, false, theme), "<success>Submitted</success>");
});

test("renderResult expanded: every question, custom text in quotes, skipped ones, every note in full", () => {
	assert.equal(
		ext.resultText(answered, true, theme),
		"<success>✓ </success><accent>Database</accent>: PostgreSQL\n    <muted>note: managed, please</muted>\n" +
			"<success>✓ </success><accent>Checks</accent>: Lint, Tests, “cargo deny”\n    <muted>note on Lint: clippy only</muted>\n" +
			`    <muted>note on Tests: the fast ones,\nnot the ${"slow ".repeat(20)}ones</muted>\n` +
			"<dim>– </dim><accent>Name</accent>: <dim>skipped</dim>\n" +
			"<success>✓ </success><accent>Own</accent>: “Please include examples”",
	);
});

test("renderResult of an elaborate result: the person asked to elaborate, and every note, collapsed and expanded", async () => {
	const work = tempDir();
	// The binary's own elaborate result: a note on Style's chosen answer, a note on Svelte (not chosen).
	const answers = path.join(work, "answers.json");
	fs.writeFileSync(
		answers,
		JSON.stringify({
			mode: "elaborate",
			answers: {
				style: { values: ["balanced"], note: "what does balanced leave out?" },
				frameworks: { values: ["react"], optionNotes: { svelte: "is it mature enough?" } },
			},
		}),
	);
	const { code, result } = await binaryResult([path.join(repoRoot, "examples", "implementation-preferences.json"), "--answers", answers]);
	assert.equal(code, 0);
	assert.equal(result.details.mode, "elaborate");
	assert.equal(
		ext.resultText(result, false, theme),
		'<warning>User asked to elaborate on question "How should I frame the next prompt?" after current answer "Balanced" with note "what does balanced leave out?"</warning>\n' +
			'<warning>User asked to elaborate on question "Which frontend frameworks have you used?" option "Svelte" after current answer "React" with note "is it mature enough?"</warning>',
	);
	assert.equal(
		ext.resultText(result, true, theme),
		"<warning>? The user asked to elaborate before answering</warning>\n" +
			"<warning>? </warning><accent>Style</accent>: Balanced\n    <muted>note: what does balanced leave out?</muted>\n" +
			"<warning>? </warning><accent>Frontend</accent>: React\n    <muted>note on Svelte (not chosen): is it mature enough?</muted>",
	);
	// An answer kept, a question skipped, and payload text escaped.
	const kept = {
		...result,
		details: {
			...result.details,
			questions: [...result.details.questions, { id: "deploy", label: "Deploy", prompt: "Where?", type: "single" }, { id: "ci", label: "CI", prompt: "CI?", type: "single" }],
			answers: { ...result.details.answers, deploy: { values: ["docker"], labels: ["Docker\x1b[2J image"], indices: [1] } },
			continuation: { ...result.details.continuation, questionStates: { ...result.details.continuation.questionStates, deploy: { status: "answered" } } },
		},
	};
	assert.deepEqual(ext.resultText(kept, true, theme).split("\n").slice(-2), ["<success>✓ </success><accent>Deploy</accent>: Docker\\e[2J image", "<dim>– </dim><accent>CI</accent>: <dim>skipped</dim>"]);
});

test("renderResult: Cancelled collapsed; dismissed, Needs user input, aborted expanded; tool errors", () => {
	const cancelled = (error) => ({ content: [{ type: "text", text: "t" }], details: { cancelled: true, questions, answers: {}, ...(error ? { error } : {}) } });
	for (const error of [undefined, { code: "no_ui", message: "m" }, { code: "aborted", message: "received SIGTERM" }]) {
		assert.equal(ext.resultText(cancelled(error), false, theme), "<warning>Cancelled</warning>");
	}
	assert.equal(ext.resultText(cancelled(), true, theme), "<warning>✗ The user dismissed the questionnaire</warning>");
	assert.equal(
		ext.resultText(cancelled({ code: "no_ui", message: "m" }), true, theme),
		"<warning>✗ Needs user input: no terminal to ask on; the model got the questions as text</warning>",
	);
	assert.equal(
		ext.resultText(cancelled({ code: "aborted", message: "received SIGTERM" }), true, theme),
		"<warning>✗ Cancelled (aborted): received SIGTERM</warning>",
	);
	assert.equal(ext.resultText({ content: [{ type: "text", text: "PI_ASK_BIN is wrong" }] }, false, theme), "PI_ASK_BIN is wrong");
});

test("renderResult never reads Object.prototype: skipped questions with ids constructor, toString, __proto__, hasOwnProperty", () => {
	const ids = ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf"];
	const details = {
		cancelled: false,
		questions: ids.map((id) => ({ id, label: id, prompt: `${id}?`, type: "single" })),
		answers: JSON.parse('{"toString": {"values": ["a"], "labels": ["A"], "indices": [1]}}'),
	};
	assert.equal(ext.resultText({ content: [], details }, false, theme), "<success>✓</success> <accent>toString</accent>: A");
	assert.equal(
		ext.resultText({ content: [], details }, true, theme),
		[
			"<dim>– </dim><accent>constructor</accent>: <dim>skipped</dim>",
			"<success>✓ </success><accent>toString</accent>: A",
			"<dim>– </dim><accent>__proto__</accent>: <dim>skipped</dim>",
			"<dim>– </dim><accent>hasOwnProperty</accent>: <dim>skipped</dim>",
			"<dim>– </dim><accent>valueOf</accent>: <dim>skipped</dim>",
		].join("\n"),
	);
	// Stored results of another shape are drawn, never thrown on.
	for (const odd of [
		{ cancelled: false, questions: [null, { id: 3 }, { id: "a", label: 5 }], answers: { a: { values: "x", labels: [1, null], optionNotes: { x: 2 } } } },
		{ cancelled: true, questions: [], answers: {}, error: "boom" },
		{ cancelled: false, questions: [{ id: "a", label: "A" }], answers: null },
	]) {
		for (const expanded of [false, true]) assert.equal(typeof ext.resultText({ content: [], details: odd }, expanded, theme), "string");
	}
});

const headlessCtx = (cwd) => ({ mode: "json", cwd, ui: {} });

test("abort: a binary that does not write its own aborted result is killed; the tool returns one", async () => {
	const work = tempDir();
	const started = path.join(work, "started");
	// Ignores SIGTERM, so the extension has to SIGKILL it after the grace period.
	const stubborn = executable(work, "stubborn", `#!/bin/sh\ntrap '' TERM\ntouch ${started}\nwhile :; do sleep 0.1; done\n`);
	const controller = new AbortController();
	const asked = ext.askWithBinary(stubborn, { title: "T", questions: [{ id: "a", prompt: "A?", options: [{ value: "x", label: "X" }] }] }, controller.signal, headlessCtx(work));
	while (!fs.existsSync(started)) await new Promise((r) => setTimeout(r, 20));
	controller.abort();
	const result = await asked;
	assert.deepEqual(result, {
		mode: "headless",
		stderr: "",
		content: [
			{
				type: "text",
				text: 'The questionnaire "T" was ended before the user submitted it (the pi turn was cancelled); no answers were given. Do not assume any answer.',
			},
		],
		details: {
			title: "T",
			cancelled: true,
			questions: [{ id: "a", label: "Q1", prompt: "A?", type: "single" }],
			answers: {},
			error: { code: "aborted", message: "the pi turn was cancelled" },
		},
	});
});

test("abort before the questionnaire opens: the binary is not run", async () => {
	const work = tempDir();
	const never = executable(work, "never", `#!/bin/sh\ntouch ${path.join(work, "ran")}\n`);
	const controller = new AbortController();
	controller.abort();
	const result = await ext.askWithBinary(never, { questions: [{ id: "a", label: "A", prompt: "A?", type: "multi", options: [] }] }, controller.signal, headlessCtx(work));
	assert.equal(result.details.error.code, "aborted");
	assert.deepEqual(result.details.questions, [{ id: "a", label: "A", prompt: "A?", type: "multi" }]);
	assert.equal(fs.existsSync(path.join(work, "ran")), false);
});

test("a binary that writes no result: a tool error with its exit code and stderr", async () => {
	const work = tempDir();
	const failing = executable(work, "failing", "#!/bin/sh\necho 'pi-ask: cannot write the result: disk full' >&2\nexit 4\n");
	await assert.rejects(ext.askWithBinary(failing, { questions: [] }, undefined, headlessCtx(work)), {
		message: "pi-ask exited with code 4 without writing a result: pi-ask: cannot write the result: disk full",
	});
});

test("the version check is not waited for before the questionnaire; a failed check ends it and is the tool error", async () => {
	const work = tempDir();
	const started = path.join(work, "started");
	const termed = path.join(work, "termed");
	// --version answers after 300 ms, saying whether the questionnaire had started by then.
	const stub = executable(
		work,
		"stub",
		`#!/bin/sh
if [ "$1" = "--version" ]; then sleep 0.3; if [ -e ${started} ]; then echo 'pi-ask 0.0.1'; else echo 'pi-ask 0.0.2'; fi; exit 0; fi
trap 'touch ${termed}; exit 143' TERM
touch ${started}
while :; do sleep 0.05; done
`,
	);
	const params = { questions: [{ id: "a", prompt: "A?", options: [{ value: "x", label: "X" }] }] };
	await assert.rejects(ext.askWithBinary(stub, params, undefined, headlessCtx(work), { checkVersion: () => ext.checkBinaryVersion(stub) }), {
		message: `${stub} is pi-ask 0.0.1, which is too old: this extension needs pi-ask ${ext.MIN_BINARY_VERSION} or newer.`,
	});
	assert.ok(fs.existsSync(termed), "the questionnaire was ended with SIGTERM");
});

// The children of this process's main thread (Linux), where Node spawns them.
const childrenFile = `/proc/${process.pid}/task/${process.pid}/children`;

test("the version check is started before the questionnaire, never while it runs", { skip: !fs.existsSync(childrenFile) && "no /proc/PID/task/TID/children here" }, async () => {
	// A child is in pi's process group from fork until its setsid: a version check started
	// while the questionnaire has the terminal would die of a Ctrl+C meant for the questionnaire.
	const work = tempDir();
	const stub = executable(
		work,
		"stub",
		`#!/bin/sh
if [ "$1" = "--version" ]; then echo 'pi-ask 0.6.0'; exit 0; fi
prev=""; for a in "$@"; do if [ "$prev" = "--output" ]; then out="$a"; fi; prev="$a"; done
printf '%s' '{"content":[{"type":"text","text":"t"}],"details":{"cancelled":true,"questions":[],"answers":{}}}' > "$out"
`,
	);
	const children = () => fs.readFileSync(childrenFile, "utf8").trim();
	const before = children();
	let atCheck;
	const result = await ext.askWithBinary(stub, { questions: [] }, undefined, headlessCtx(work), {
		checkVersion: () => {
			atCheck = children();
			return ext.checkBinaryVersion(stub);
		},
	});
	assert.equal(result.content[0].text, "t");
	assert.equal(atCheck, before, "no questionnaire had been started when the version check was");
});

test("--context: the asking assistant text is passed in a file", async () => {
	const work = tempDir();
	const log = path.join(work, "context.log");
	const stub = executable(
		work,
		"stub",
		`#!/bin/sh
prev=""; out=""
for a in "$@"; do
  if [ "$prev" = "--context" ]; then cat "$a" > ${log}; fi
  if [ "$prev" = "--output" ]; then out="$a"; fi
  prev="$a"
done
printf '%s' '{"content":[{"type":"text","text":"t"}],"details":{"cancelled":true,"questions":[],"answers":{}}}' > "$out"
`,
	);
	const result = await ext.askWithBinary(stub, { questions: [] }, undefined, headlessCtx(work), { context: "Which database?\n\nI need to know." });
	assert.equal(result.content[0].text, "t");
	assert.equal(fs.readFileSync(log, "utf8"), "Which database?\n\nI need to know.");
});

test("askingText: the text of the assistant message that made the tool call", () => {
	const message = (content, role = "assistant") => ({ type: "message", message: { role, content } });
	const branch = [
		message([{ type: "text", text: "Earlier." }, { type: "toolCall", id: "call-0", name: "ask_user", arguments: {} }]),
		message([{ type: "text", text: "go" }], "user"),
		message([
			{ type: "thinking", thinking: "hidden" },
			{ type: "text", text: " I need two answers. " },
			{ type: "text", text: "First: the database." },
			{ type: "toolCall", id: "call-1", name: "ask_user", arguments: {} },
		]),
	];
	const sessionManager = { getBranch: () => branch };
	assert.equal(ext.askingText(sessionManager, "call-1"), "I need two answers.\n\nFirst: the database.");
	assert.equal(ext.askingText(sessionManager, "call-0"), "Earlier.");
	assert.equal(ext.askingText(sessionManager, "call-9"), undefined);
	assert.equal(ext.askingText({ getBranch: () => [message([{ type: "toolCall", id: "c", name: "ask_user", arguments: {} }])] }, "c"), undefined);
	assert.equal(ext.askingText(undefined, "c"), undefined);
});

test("answerDialog: each --dialogs request becomes pi's dialog; a dismissed one is cancelled", async () => {
	const calls = [];
	const ui = {
		select: async (title, options, opts) => (calls.push(["select", title, options, opts.timeout]), options[1]),
		input: async (title, placeholder) => (calls.push(["input", title, placeholder]), undefined),
		editor: async (title, prefill) => (calls.push(["editor", title, prefill]), `${prefill}!`),
		confirm: async (title, message) => (calls.push(["confirm", title, message]), true),
	};
	const signal = new AbortController().signal;
	const ask = (request) => ext.answerDialog(JSON.stringify(request), ui, signal);
	assert.deepEqual(await ask({ type: "select", title: "T", options: ["a", "b"], timeout: 5000 }), { value: "b" });
	assert.deepEqual(await ask({ type: "input", title: "I", placeholder: "p" }), { cancelled: true });
	assert.deepEqual(await ask({ type: "editor", title: "E", prefill: "x" }), { value: "x!" });
	assert.deepEqual(await ask({ type: "confirm", title: "C", message: "m" }), { confirmed: true });
	assert.deepEqual(await ask({ type: "unknown" }), { cancelled: true });
	assert.deepEqual(calls, [
		["select", "T", ["a", "b"], 5000],
		["input", "I", "p"],
		["editor", "E", "x"],
		["confirm", "C", "m"],
	]);
});

test("answerDialog: a secret's input (password) says above it that pi's input shows the text", async () => {
	const calls = [];
	const ui = { input: async (title, placeholder) => (calls.push([title, placeholder]), "s3cret") };
	const response = await ext.answerDialog(JSON.stringify({ type: "input", title: "1/1 Token: Type your own", placeholder: "p", password: true }), ui);
	assert.deepEqual(response, { value: "s3cret" });
	assert.deepEqual(calls, [[`1/1 Token: Type your own\n${ext.SECRET_VISIBLE}`, "p"]]);
});

test("renderResult: a secret question's own text is six bullets in both views, other answers as they are", () => {
	const details = {
		cancelled: false,
		questions: [
			{ id: "token", label: "Token", prompt: "Token?", type: "single" },
			{ id: "keys", label: "Keys", prompt: "Keys?", type: "multi" },
			{ id: "name", label: "Name", prompt: "Name?", type: "single" },
		],
		answers: {
			token: { values: ["hunter2"], labels: ["hunter2"], indices: [], customText: "hunter2", note: "rotate it" },
			keys: { values: ["ssh", "gpg-passphrase"], labels: ["SSH", "gpg-passphrase"], indices: [1], customText: "gpg-passphrase" },
			name: { values: ["Ada"], labels: ["Ada"], indices: [], customText: "Ada" },
		},
	};
	const secret = ext.secretIds({ questions: [{ id: "token", secret: true }, { id: "keys", secret: true }, { id: "name", secret: false }] });
	assert.deepEqual([...secret], ["token", "keys"]);
	const bullets = "\u2022".repeat(6);
	assert.equal(
		ext.resultText({ content: [], details }, false, theme, secret),
		`<success>✓</success> <accent>Token</accent>: (wrote) ${bullets}\n<muted>  note: rotate it</muted>\n` +
			`<success>✓</success> <accent>Keys</accent>: SSH, ${bullets}\n<success>✓</success> <accent>Name</accent>: (wrote) Ada`,
	);
	const expanded = ext.resultText({ content: [], details }, true, theme, secret);
	assert.ok(expanded.includes(`<accent>Token</accent>: “${bullets}”`), expanded);
	assert.ok(expanded.includes(`<accent>Keys</accent>: SSH, “${bullets}”`), expanded);
	for (const view of [false, true]) {
		const text = ext.resultText({ content: [], details }, view, theme, secret);
		assert.ok(!text.includes("hunter2") && !text.includes("passphrase"), text);
	}
	// The details themselves are left as they were (the model reads them).
	assert.equal(details.answers.token.customText, "hunter2");
	// An elaborate result's answers too.
	const elaborate = {
		...details,
		mode: "elaborate",
		elaboration: { items: [{ question: { id: "token", prompt: "Token?" }, answer: { values: ["hunter2"], labels: ["hunter2"] }, note: "which one?" }] },
	};
	for (const view of [false, true]) {
		const text = ext.resultText({ content: [], details: elaborate }, view, theme, secret);
		assert.ok(!text.includes("hunter2"), text);
	}
});

test("handOverScreen: a fresh alternate screen with the end of pi's conversation, cut to the width, the cursor under it", () => {
	const above = [
		"\x1b]133;A\x07first line",
		"second line, which is longer than the width",
		"\x1b_Ga=T,f=100;AAAA\x1b\\",
		"thi\x1b_pi:c\x07rd",
		"",
		"",
	];
	const screen = ext.handOverScreen(above, 12, 4);
	const start = "\x1b[?2026h\x1b[?1049h\x1b[0m\x1b[H\x1b[2J";
	assert.ok(screen.startsWith(start), JSON.stringify(screen));
	assert.ok(screen.endsWith("\x1b[?2026l"), JSON.stringify(screen));
	const rows = screen.slice(start.length, -"\x1b[?2026l".length).split("\r\n");
	// Three rows (the window's four less one for the questionnaire), each reset; blank rows at
	// the end dropped, an image row left empty, the semantic-prompt mark and pi's cursor marker gone.
	assert.equal(rows.length, 4);
	assert.equal(rows[3], "");
	const plain = rows.slice(0, 3).map((r) => r.replace(/\x1b\[[0-9;]*m/g, ""));
	assert.deepEqual(plain, ["second line…", "", "third"]);
	assert.ok(rows.slice(0, 3).every((r) => r.endsWith("\x1b[0m")));
	assert.equal(ext.handOverScreen([], 80, 24), `${start}\x1b[?2026l`);
	assert.equal(ext.LEAVE_HAND_OVER_SCREEN, "\x1b[0m\x1b[?1049l");
	// The lines the binary is given (--above): the same, all of them, without the screen's resets.
	assert.deepEqual(ext.handOverLines(above, 12).map((r) => r.replace(/\x1b\[[0-9;]*m/g, "")), ["first line", "second line…", "", "third"]);
	assert.deepEqual(ext.handOverLines(["", ""], 12), []);
});

test("privateFile: a text readable through /dev/fd from its start, with no name", () => {
	const base = tempDir();
	const fd = ext.privateFile("line 1\nline 2", base);
	try {
		assert.deepEqual(fs.readdirSync(base), []);
		assert.equal(fs.readFileSync(`/dev/fd/${fd}`, "utf8"), "line 1\nline 2");
		assert.equal(fs.fstatSync(fd).nlink, 0);
		assert.equal(fs.fstatSync(fd).mode & 0o777, 0o600);
	} finally {
		fs.closeSync(fd);
	}
});

test("binaryUsesPlain: PI_ASK_PLAIN as the binary reads it", () => {
	for (const on of ["1", "true", "YES", " on "]) assert.equal(ext.binaryUsesPlain({ PI_ASK_PLAIN: on }), true, on);
	for (const off of [undefined, "", "0", "no", "off", "maybe"]) assert.equal(ext.binaryUsesPlain({ PI_ASK_PLAIN: off }), false, String(off));
});

test("binaryUsesFullScreen: PI_ASK_SCREEN=full, the person's choice; inline otherwise", () => {
	assert.equal(ext.binaryUsesFullScreen({ PI_ASK_SCREEN: "full" }), true);
	assert.equal(ext.binaryUsesFullScreen({ PI_ASK_SCREEN: "inline" }), false);
	assert.equal(ext.binaryUsesFullScreen({}), false);
});

test("callText and resultText show payload and answer text escaped, never run", () => {
	const evil = "T\x1b]52;c;eA==\x07\x1b[2J\u202eEVIL\x1b]2;PWNED\x07";
	const call = ext.callText(
		{ title: evil, questions: [{ id: "q", label: evil, prompt: evil, type: "single", options: [{ value: "v", label: evil }] }] },
		theme,
	);
	const result = {
		content: [{ type: "text", text: "done" }],
		details: {
			title: evil,
			cancelled: false,
			questions: [{ id: "q", label: evil, prompt: evil, type: "single" }],
			answers: { q: { values: ["v", "own\x07"], labels: [evil, "own\x07"], indices: [1], customText: "own\x07", note: `n${evil}`, optionNotes: { v: evil } } },
		},
	};
	for (const text of [call, ext.resultText(result, false, theme), ext.resultText(result, true, theme)]) {
		assert.ok(!/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]/.test(text), JSON.stringify(text));
		assert.ok(text.includes("\\e]52;c;eA==\\x07\\e[2J\\u{202e}EVIL"), JSON.stringify(text));
	}
	assert.equal(ext.safe("a\tb\nc\x1b[31md\u2066"), "a\tb\nc\\e[31md\\u{2066}");
});

test("privateChannels: the texts are readable through /dev/fd, nothing is left with a name; privateBase takes only a private runtime dir", async () => {
	const base = tempDir();
	const channels = ext.privateChannels(["payload text", "the agent's message"], base);
	assert.deepEqual(fs.readdirSync(base), [], "no folder, file or FIFO left in the base dir");
	for (const [i, text] of ["payload text", "the agent's message"].entries()) {
		assert.equal(fs.readFileSync(`/dev/fd/${channels.files[i]}`, "utf8"), text);
		// Read again from the start: a file, not a stream.
		assert.equal(fs.readFileSync(`/dev/fd/${channels.files[i]}`, "utf8"), text);
		assert.equal(fs.fstatSync(channels.files[i]).nlink, 0);
		assert.equal(fs.fstatSync(channels.files[i]).mode & 0o777, 0o600);
	}
	fs.writeSync(channels.resultWrite, "result");
	fs.closeSync(channels.resultWrite);
	assert.equal(fs.readFileSync(channels.resultRead, "utf8"), "result");
	for (const fd of [...channels.files, channels.resultRead]) fs.closeSync(fd);

	const runtime = tempDir();
	fs.chmodSync(runtime, 0o700);
	assert.equal(ext.privateBase({ XDG_RUNTIME_DIR: runtime }), runtime);
	fs.chmodSync(runtime, 0o755);
	assert.equal(ext.privateBase({ XDG_RUNTIME_DIR: runtime }), os.tmpdir(), "a runtime dir others can read is not used");
	assert.equal(ext.privateBase({ XDG_RUNTIME_DIR: "relative/dir" }), os.tmpdir());
	assert.equal(ext.privateBase({}), os.tmpdir());
});

test("askWithBinary: the binary reads the payload and the context from /dev/fd and writes its result to a pipe; no file is left", async () => {
	const work = tempDir();
	const runtime = tempDir();
	fs.chmodSync(runtime, 0o700);
	const log = path.join(work, "seen.log");
	const stub = executable(
		work,
		"stub",
		`#!/bin/sh
{ echo "payload=$(cat "$1")"; ls "${runtime}" | sed 's/^/left=/'; } > ${log}
prev=""
for a in "$@"; do
  if [ "$prev" = "--context" ]; then echo "context=$(cat "$a")" >> ${log}; fi
  if [ "$prev" = "--output" ]; then out="$a"; fi
  prev="$a"
done
printf '%s' '{"content":[{"type":"text","text":"t"}],"details":{"cancelled":true,"questions":[],"answers":{}}}' > "$out"
`,
	);
	const saved = process.env.XDG_RUNTIME_DIR;
	process.env.XDG_RUNTIME_DIR = runtime;
	try {
		const result = await ext.askWithBinary(stub, { questions: [{ id: "a" }] }, undefined, headlessCtx(work), { context: "Which one?" });
		assert.equal(result.content[0].text, "t");
	} finally {
		if (saved === undefined) delete process.env.XDG_RUNTIME_DIR;
		else process.env.XDG_RUNTIME_DIR = saved;
	}
	assert.deepEqual(fs.readFileSync(log, "utf8").trim().split("\n"), ['payload={"questions":[{"id":"a"}]}', "context=Which one?"]);
	assert.deepEqual(fs.readdirSync(runtime), []);
});

test("regularHandOver: from pi's cursor to the row under the conversation, erasing below; resumed with the rows the questions scrolled", () => {
	let restored;
	const state = {
		previousLines: ["c0", "c1", "c2", "c3", "c4", "footer1", "footer2"],
		previousWidth: 80,
		previousHeight: 10,
		cursorRow: 6,
		hardwareCursorRow: 6,
		maxLinesRendered: 7,
		previousViewportTop: 0,
	};
	const tui = { mode: "regular", terminal: { rows: 10, columns: 80 }, captureRenderState: () => state, restoreRenderState: (s) => (restored = s) };
	const hand = ext.regularHandOver(tui, 5);
	assert.equal(hand.start, "\x1b[0m\x1b[1A\r\x1b[J");
	// The questions scrolled the screen by 3 rows: their top (the cursor) is on row 2 now.
	assert.equal(hand.resume(2), true);
	assert.deepEqual(restored, {
		...state,
		previousLines: ["c0", "c1", "c2", "c3", "c4"],
		cursorRow: 4,
		hardwareCursorRow: 5,
		previousViewportTop: 3,
	});
	// No answer to the cursor query, or a row below where the questions began: pi draws itself whole.
	restored = undefined;
	assert.equal(hand.resume(undefined), false);
	assert.equal(hand.resume(6), false);
	assert.equal(restored, undefined);
	// Not regular mode, or no render state: the hand-over screen instead.
	assert.equal(ext.regularHandOver({ ...tui, mode: "fullscreen" }, 5), undefined);
	assert.equal(ext.regularHandOver({ mode: "regular", terminal: tui.terminal }, 5), undefined);
	// The conversation's end on the window's top row: no row to start under it without erasing from the top.
	assert.equal(ext.regularHandOver({ ...tui, captureRenderState: () => ({ ...state, previousViewportTop: 5 }) }, 5), undefined);
});

test("endingOf, unansweredCall and latestPayload read what a session holds", () => {
	assert.equal(ext.endingOf(undefined), "error");
	assert.equal(ext.endingOf({ content: [], details: { cancelled: false, questions: [], answers: {} } }), "submitted");
	assert.equal(ext.endingOf({ content: [], details: { cancelled: true, questions: [], answers: {} } }), "dismissed");
	assert.equal(ext.endingOf({ content: [], details: { cancelled: true, questions: [], answers: {}, error: { code: "timeout", message: "m" } } }), "timeout");

	const call = (id, title) => ({ type: "message", message: { role: "assistant", content: [{ type: "text", text: "ask" }, { type: "toolCall", name: "ask_user", id, arguments: { title, questions: [] } }] } });
	const result = (id) => ({ type: "message", message: { role: "toolResult", toolCallId: id, toolName: "ask_user" } });
	const offered = (id) => ({ type: "custom", customType: "ask:offered", data: { toolCallId: id } });
	const kept = (id, title) => ({ type: "custom", customType: "ask:payload", data: { version: 1, source: "tool", toolCallId: id, params: { title, questions: [] } } });
	const session = (branch) => ({ getBranch: () => branch });
	assert.deepEqual(ext.unansweredCall(session([call("a", "A")])), { toolCallId: "a", params: { title: "A", questions: [] } });
	assert.equal(ext.unansweredCall(session([call("a", "A"), result("a")])), undefined);
	assert.equal(ext.unansweredCall(session([call("a", "A"), offered("a")])), undefined);
	// Only the newest call counts.
	assert.equal(ext.unansweredCall(session([call("a", "A"), call("b", "B"), result("b")])), undefined);
	assert.equal(ext.unansweredCall(session([])), undefined);
	assert.equal(ext.unansweredCall({ getBranch: () => { throw new Error("no session"); } }), undefined);

	assert.deepEqual(ext.latestPayload(session([call("a", "A"), result("a"), kept("b", "B")])), { toolCallId: "b", params: { title: "B", questions: [] } });
	assert.deepEqual(ext.latestPayload(session([kept("b", "B"), call("a", "A")])), { toolCallId: "a", params: { title: "A", questions: [] } });
	assert.equal(ext.latestPayload(session([{ type: "message", message: { role: "user", content: "hi" } }])), undefined);
});

/** Whether process `pid` is still alive (not a zombie either: a stub's children are reaped by init). */
function alive(pid) {
	try {
		process.kill(pid, 0);
	} catch {
		return false;
	}
	try {
		return !/^\S+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, "utf8"));
	} catch {
		return false;
	}
}

/** Waits for the file `file` to hold a pid and returns it. */
async function pidIn(file) {
	for (;;) {
		const text = fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim() : "";
		if (/^\d+$/.test(text)) return Number(text);
		await new Promise((r) => setTimeout(r, 20));
	}
}

/** A binary that never answers: it writes its pid to `pidFile` for each run and ignores SIGTERM. */
function neverAnswers(work, pidFile) {
	return executable(work, "never-answers", `#!/bin/sh\ntrap '' TERM\necho $$ > ${pidFile}\nwhile :; do sleep 0.1; done\n`);
}

const oneQuestion = { title: "T", questions: [{ id: "a", prompt: "A?", options: [{ value: "x", label: "X" }] }] };

test("a binary that never answers the --no-input check: killed (SIGTERM, then SIGKILL) after the time limit, a tool error, pi's terminal never handed over", { timeout: 40_000 }, async () => {
	const work = tempDir();
	const pidFile = path.join(work, "pid");
	const stub = neverAnswers(work, pidFile);
	let handedOver = 0;
	const ctx = { mode: "tui", cwd: work, ui: { custom: async () => void handedOver++ } };
	const started = Date.now();
	await assert.rejects(ext.askWithBinary(stub, oneQuestion, undefined, ctx), {
		message: `pi-ask did not check the payload (\`--no-input\`) within 10 s and was killed: ${stub} is not a working pi-ask.`,
	});
	const took = Date.now() - started;
	assert.ok(took >= 10_000 && took < 16_000, `${took} ms`);
	assert.equal(handedOver, 0);
	assert.equal(alive(await pidIn(pidFile)), false, "the check was killed");
});

test("pi's abort during the --no-input check kills it at once (SIGTERM, then SIGKILL): the aborted result, no hand-over", { timeout: 40_000 }, async () => {
	const work = tempDir();
	const pidFile = path.join(work, "pid");
	const stub = neverAnswers(work, pidFile);
	let handedOver = 0;
	const ctx = { mode: "tui", cwd: work, ui: { custom: async () => void handedOver++ } };
	const controller = new AbortController();
	const asked = ext.askWithBinary(stub, oneQuestion, controller.signal, ctx);
	const pid = await pidIn(pidFile);
	const started = Date.now();
	controller.abort();
	const result = await asked;
	assert.ok(Date.now() - started < 5_000);
	assert.deepEqual(result.details.error, { code: "aborted", message: "the pi turn was cancelled before the questionnaire opened" });
	assert.equal(handedOver, 0);
	assert.equal(alive(pid), false);
});

test("a run with no one to ask (no terminal, scripted answers) that never ends: killed after its time limit, a tool error", { timeout: 40_000 }, async () => {
	const work = tempDir();
	const pidFile = path.join(work, "pid");
	const stub = neverAnswers(work, pidFile);
	assert.equal(ext.HEADLESS_TIMEOUT_MS, 60_000);
	await assert.rejects(ext.askWithBinary(stub, oneQuestion, undefined, headlessCtx(work), { headlessTimeoutMs: 500 }), {
		message: `pi-ask gave no result within 0.5 s with no one to ask (headless) and was killed: ${stub} is not a working pi-ask.`,
	});
	assert.equal(alive(await pidIn(pidFile)), false);
});

test("the version check: killed after its time limit (a tool error), and killed on pi's abort, which it never delays", { timeout: 40_000 }, async () => {
	const work = tempDir();
	const pidFile = path.join(work, "pid");
	const stub = neverAnswers(work, pidFile);
	const started = Date.now();
	await assert.rejects(ext.checkBinaryVersion(stub), {
		message: `${stub} does not look like pi-ask: \`--version\` gave no answer within 10 s (it was killed).`,
	});
	assert.ok(Date.now() - started < 16_000);
	assert.equal(alive(await pidIn(pidFile)), false);
	// Beside a questionnaire that pi aborts: the aborted result at once, the check killed too.
	fs.rmSync(pidFile);
	const questionnaire = path.join(work, "questionnaire");
	const both = executable(
		work,
		"both",
		`#!/bin/sh
if [ "$1" = "--version" ]; then trap '' TERM; echo $$ > ${pidFile}; while :; do sleep 0.1; done; fi
trap 'exit 143' TERM
touch ${questionnaire}
while :; do sleep 0.05; done
`,
	);
	const controller = new AbortController();
	const asked = ext.askWithBinary(both, oneQuestion, controller.signal, headlessCtx(work), { checkVersion: (signal) => ext.checkBinaryVersion(both, signal) });
	const pid = await pidIn(pidFile);
	while (!fs.existsSync(questionnaire)) await new Promise((r) => setTimeout(r, 20));
	const aborted = Date.now();
	controller.abort();
	const result = await asked;
	assert.ok(Date.now() - aborted < 2_000, `${Date.now() - aborted} ms`);
	assert.equal(result.details.error.code, "aborted");
	const deadline = Date.now() + 5_000;
	while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
	assert.equal(alive(pid), false, "the version check was killed");
});

test("a broken binary's output reaches the tool error escaped and cut", async () => {
	const work = tempDir();
	// Not JSON: escape sequences, a C1 control, 5000 characters.
	const prefix = "\x1b]0;owned\x07\x1b[2J\u009b31m";
	const junk = `${prefix}${"x".repeat(5000)}`;
	fs.writeFileSync(path.join(work, "junk"), junk);
	const writesJunk = executable(
		work,
		"writes-junk",
		`#!/bin/sh
prev=""; for a in "$@"; do if [ "$prev" = "--output" ]; then out="$a"; fi; prev="$a"; done
cat ${path.join(work, "junk")} > "$out"
cat ${path.join(work, "junk")} >&2
exit 1
`,
	);
	const escaped = `\\e]0;owned\\x07\\e[2J\\x9b31m`;
	const shown = `${escaped}${"x".repeat(2000 - escaped.length)}`;
	const cut = junk.length - prefix.length - (2000 - escaped.length);
	await assert.rejects(ext.askWithBinary(writesJunk, oneQuestion, undefined, headlessCtx(work)), {
		message: `pi-ask wrote a result that is not JSON: ${shown}… (${cut} more characters cut)`,
	});
	// Nothing written, the same on stderr.
	const silent = executable(work, "silent", `#!/bin/sh\ncat ${path.join(work, "junk")} >&2\nexit 1\n`);
	await assert.rejects(ext.askWithBinary(silent, oneQuestion, undefined, headlessCtx(work)), {
		message: `pi-ask exited with code 1 without writing a result: ${shown}… (${cut} more characters cut)`,
	});
	assert.equal(ext.quotedOutput("short\nlines\x1b[0m"), "short\nlines\\e[0m");
	assert.equal(ext.quotedOutput("é".repeat(10), 4), "éééé… (6 more characters cut)");
});

test("interruptedResult: pi ended by a signal, not the person; a resumed session offers the call again", () => {
	const result = ext.interruptedResult(oneQuestion, "SIGTERM");
	assert.deepEqual(result, {
		content: [
			{ type: "text", text: 'pi ended (SIGTERM) while the questionnaire "T" was up, before the user answered; no answers were given. Do not assume any answer.' },
		],
		details: { title: "T", cancelled: true, questions: [{ id: "a", label: "Q1", prompt: "A?", type: "single" }], answers: {}, error: { code: "interrupted", message: "pi ended (SIGTERM)" } },
	});
	assert.equal(ext.endingOf(result), "interrupted");
	const call = { type: "message", message: { role: "assistant", content: [{ type: "toolCall", name: "ask_user", id: "a", arguments: oneQuestion }] } };
	const stored = (details) => ({ type: "message", message: { role: "toolResult", toolCallId: "a", toolName: "ask_user", details } });
	const session = (branch) => ({ getBranch: () => branch });
	assert.deepEqual(ext.unansweredCall(session([call, stored(result.details)])), { toolCallId: "a", params: oneQuestion });
	// pi's abort (Esc) is the person's: not offered.
	const aborted = { ...result.details, error: { code: "aborted", message: "received SIGTERM" } };
	assert.equal(ext.unansweredCall(session([call, stored(aborted)])), undefined);
});

test("unansweredCall: /tree back to a call answered on another branch does not offer it; the offer is made once in the whole session", () => {
	const call = { type: "message", id: "c", message: { role: "assistant", content: [{ type: "toolCall", name: "ask_user", id: "a", arguments: oneQuestion }] } };
	const answer = { type: "message", id: "r", message: { role: "toolResult", toolCallId: "a", toolName: "ask_user", details: { cancelled: false } } };
	const offered = { type: "custom", customType: "ask:offered", data: { toolCallId: "a" } };
	// The leaf is the call itself: its result is on the branch no more.
	assert.equal(ext.unansweredCall({ getBranch: () => [call], getEntries: () => [call, answer] }), undefined);
	assert.equal(ext.unansweredCall({ getBranch: () => [call], getEntries: () => [call, offered] }), undefined);
	assert.deepEqual(ext.unansweredCall({ getBranch: () => [call], getEntries: () => [call] }), { toolCallId: "a", params: oneQuestion });
});

test("the lifeline: with a binary that takes --lifeline-fd, it reads end-of-file on fd 7 once the run's end is closed, never data", async () => {
	const work = tempDir();
	const log = path.join(work, "lifeline.log");
	// --help lists the flag; the run reports its arguments and what fd 7 is, then reads it to its end.
	const stub = executable(
		work,
		"takes-lifeline",
		`#!/bin/sh
if [ "$1" = "--help" ]; then printf 'Options:\\n      --lifeline-fd <N>\\n          The caller is gone\\n'; exit 0; fi
prev=""; for a in "$@"; do if [ "$prev" = "--output" ]; then out="$a"; fi; if [ "$prev" = "--lifeline-fd" ]; then fd="$a"; fi; prev="$a"; done
echo "fd=$fd $(readlink /proc/$$/fd/7 | cut -c1-7)" > ${log}
printf '%s' '{"content":[{"type":"text","text":"t"}],"details":{"cancelled":true,"questions":[],"answers":{}}}' > "$out"
`,
	);
	assert.equal(await ext.binaryTakesLifeline(stub), true);
	assert.equal(await ext.binaryTakesLifeline(executable(work, "old", "#!/bin/sh\necho 'Usage: pi-ask [OPTIONS]'\n")), false);
	const result = await ext.askWithBinary(stub, oneQuestion, undefined, headlessCtx(work), { lifeline: () => ext.binaryTakesLifeline(stub) });
	assert.equal(result.content[0].text, "t");
	assert.equal(fs.readFileSync(log, "utf8"), "fd=7 socket:\n");
	// Without it (an older binary): no flag, no fd 7.
	await ext.askWithBinary(stub, oneQuestion, undefined, headlessCtx(work), { lifeline: async () => false });
	assert.equal(fs.readFileSync(log, "utf8"), "fd= \n");
});

test("answerRequest: an ask:submit is the binary's answer request (docs/elsewhere.md), or why it cannot be one", async () => {
	const answers = { database: { values: ["sqlite"], note: "n" } };
	const submit = (response, from) => ({ version: 1, requestId: "r", flowId: "f", response, ...(from ? { from } : {}) });
	assert.deepEqual(ext.answerRequest(submit({ kind: "answer", answers }), "id-1"), {
		request: { id: "id-1", from: "pi events", action: "submit", answers },
	});
	assert.deepEqual(ext.answerRequest(submit({ kind: "answer", mode: "elaborate", answers }, "phone"), "id-1"), {
		request: { id: "id-1", from: "phone", action: "elaborate", answers },
	});
	assert.deepEqual(ext.answerRequest(submit({ kind: "cancel" }), "id-1"), { request: { id: "id-1", from: "pi events", action: "cancel" } });
	assert.deepEqual(ext.answerRequest(submit({ kind: "approve" }), "id-1"), { problem: '`response.kind` is "answer" or "cancel"' });
	assert.deepEqual(ext.answerRequest(submit({ kind: "answer", mode: "later", answers }), "id-1"), { problem: '`response.mode` is "submit" or "elaborate"' });
	assert.deepEqual(ext.answerRequest(submit({ kind: "answer", answers: [] }), "id-1"), {
		problem: "`response.answers` must be an object of answers by question id",
	});
	assert.deepEqual(ext.answerRequest({ version: 1, requestId: "r", flowId: "f" }, "id-1"), { problem: "`response` must be an object" });
	// The channel is used only with a binary whose --help lists --answer-socket-file.
	const work = tempDir();
	const takes = executable(work, "takes", "#!/bin/sh\nprintf 'Options:\\n      --answer-socket-file <FILE>\\n'\n");
	assert.equal(await ext.binaryTakesAnswerChannel(takes), true);
	assert.equal(await ext.binaryTakesAnswerChannel(executable(work, "old", "#!/bin/sh\necho 'Usage: pi-ask [OPTIONS]'\n")), false);
});

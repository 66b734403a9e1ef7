// End-to-end tests: the real pi, offline, with the faux model calling ask_user, and the
// pi-ask binary under test behind the extension. No terminal here (every process runs in its
// own session): the interactive TUI is tested in a pty by tests/pi_extension.rs.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";
import {
	bin,
	binaryResult,
	extDir,
	fauxExtension,
	modelSaw,
	payload,
	PROCESS_TIMEOUT_MS,
	piArgs,
	piCli,
	piEnv,
	run,
	sessionEntries,
	tempDir,
	toolResultOf,
	writeJson,
} from "./helpers.mjs";

/** Runs `pi -p go` with the payload; returns pi's output and the stored ask_user tool result. */
async function printRun(work, thePayload, extraEnv = {}, extraArgs = []) {
	const payloadFile = writeJson(work, "payload.json", thePayload);
	const sessionDir = path.join(work, "sessions");
	const out = await run(process.execPath, piArgs(sessionDir, ...extraArgs, "-p", "go"), {
		cwd: work,
		env: piEnv(work, { PI_ASK_TEST_PAYLOAD: payloadFile, ...extraEnv }),
	});
	assert.equal(out.code, 0, `pi -p failed:\n${out.stdout}\n${out.stderr}`);
	return { out, payloadFile, toolResult: toolResultOf(sessionEntries(sessionDir)) };
}

test("print mode with PI_ASK_ANSWERS: the model sees the binary's content, the session stores its details", async () => {
	const work = tempDir();
	const answersFile = writeJson(work, "answers.json", {
		answers: {
			database: "sqlite",
			checks: { values: ["lint", "test"], customText: "cargo deny", note: "keep CI under 10 minutes" },
		},
	});
	const payloadFile = writeJson(work, "expected-payload.json", payload);
	const expected = await binaryResult([payloadFile, "--answers", answersFile], { cwd: work });
	assert.equal(expected.code, 0, `the binary did not submit: ${JSON.stringify(expected.result)} ${expected.stderr}`);
	assert.equal(expected.result.details.cancelled, false);
	assert.deepEqual(expected.result.details.answers.database.values, ["sqlite"]);

	const { out, toolResult } = await printRun(work, payload, { PI_ASK_ANSWERS: answersFile });
	const text = expected.result.content[0].text;
	assert.equal(out.stdout.trim(), modelSaw(text));
	assert.deepEqual(toolResult.content, expected.result.content);
	assert.deepEqual(toolResult.details, expected.result.details);
	assert.equal(toolResult.isError, false);
});

test("print mode with PI_ASK_ANSWERS is reproducible: two runs store the same result", async () => {
	const work = tempDir();
	const answersFile = writeJson(work, "answers.json", { answers: { database: "postgres", checks: ["fmt"] } });
	const a = await printRun(fs.mkdtempSync(path.join(work, "a-")), payload, { PI_ASK_ANSWERS: answersFile });
	const b = await printRun(fs.mkdtempSync(path.join(work, "b-")), payload, { PI_ASK_ANSWERS: answersFile });
	assert.equal(a.out.stdout, b.out.stdout);
	assert.deepEqual(a.toolResult.details, b.toolResult.details);
	assert.deepEqual(a.toolResult.details.answers.checks.values, ["fmt"]);
});

test("print mode without a terminal: the model sees the binary's Needs user input content", async () => {
	const work = tempDir();
	const payloadFile = writeJson(work, "expected-payload.json", payload);
	const expected = await binaryResult([payloadFile], { cwd: work });
	assert.equal(expected.code, 3);
	const text = expected.result.content[0].text;
	assert.match(text, /^Needs user input: ask_user requires interactive UI\.\nReason: no interactive terminal is available\.\n/);

	const { out, toolResult } = await printRun(work, payload);
	assert.equal(out.stdout.trim(), modelSaw(text));
	assert.deepEqual(toolResult.content, expected.result.content);
	assert.deepEqual(toolResult.details, expected.result.details);
	assert.equal(toolResult.details.error.code, "no_ui");
});

test("json mode: the Needs user input result, saying why in pi's terms, never the terminal", async () => {
	const work = tempDir();
	const payloadFile = writeJson(work, "expected-payload.json", payload);
	const expected = await binaryResult([payloadFile, "--no-input-reason", "pi is running in json mode"], { cwd: work });
	assert.equal(expected.code, 3);
	const text = expected.result.content[0].text;
	assert.match(text, /^Needs user input: ask_user requires interactive UI\.\nReason: pi is running in json mode\.\n/);
	assert.doesNotMatch(text, /--no-input/);

	const sessionDir = path.join(work, "sessions");
	const out = await run(process.execPath, piArgs(sessionDir, "--mode", "json", "go"), {
		cwd: work,
		env: piEnv(work, { PI_ASK_TEST_PAYLOAD: writeJson(work, "payload.json", payload) }),
	});
	assert.equal(out.code, 0, out.stderr);
	const toolResult = toolResultOf(sessionEntries(sessionDir));
	assert.deepEqual(toolResult.content, expected.result.content);
	assert.deepEqual(toolResult.details, expected.result.details);
	const events = out.stdout.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
	const end = events.find((e) => e.type === "tool_execution_end" && e.toolName === "ask_user");
	assert.deepEqual(end.result.details, expected.result.details);
});

/** The dialog methods whose extension_ui_request waits for an extension_ui_response. */
const DIALOGS = ["select", "input", "editor", "confirm"];

/**
 * Runs pi in RPC mode, sends one prompt, and collects events until the agent ends. `answer`
 * gives the response fields (`{value}`, `{confirmed}`, `{cancelled: true}`) for each dialog
 * request, as a client such as an editor would (nothing is answered when it returns nothing).
 */
function rpcRun(work, env, answer = () => ({ cancelled: true }), extraArgs = []) {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, piArgs(path.join(work, "sessions"), "--mode", "rpc", ...extraArgs), {
			cwd: work,
			env,
			detached: true,
			stdio: ["pipe", "pipe", "pipe"],
		});
		const events = [];
		let buffer = "";
		let stderr = "";
		const timer = setTimeout(() => {
			child.kill("SIGKILL");
			reject(new Error(`pi --mode rpc timed out; events: ${JSON.stringify(events)}; stderr: ${stderr}`));
		}, PROCESS_TIMEOUT_MS);
		child.stderr.on("data", (d) => (stderr += d));
		child.stdout.on("data", (d) => {
			buffer += d;
			let nl = buffer.indexOf("\n");
			while (nl >= 0) {
				const line = buffer.slice(0, nl).replace(/\r$/, "");
				buffer = buffer.slice(nl + 1);
				nl = buffer.indexOf("\n");
				if (!line.trim()) continue;
				const event = JSON.parse(line);
				events.push(event);
				if (event.type === "extension_ui_request" && DIALOGS.includes(event.method)) {
					const response = answer(event);
					if (response) child.stdin.write(`${JSON.stringify({ type: "extension_ui_response", id: event.id, ...response })}\n`);
				}
				if (event.type === "agent_end") child.stdin.end();
			}
		});
		child.on("error", reject);
		child.on("close", (code) => {
			clearTimeout(timer);
			resolve({ code, events, stderr });
		});
		child.stdin.write(`${JSON.stringify({ id: "req-1", type: "prompt", message: "go" })}\n`);
	});
}

/** examples/database.json: one single-select question, PostgreSQL or SQLite. */
const databasePayload = JSON.parse(fs.readFileSync(path.join(extDir, "..", "database.json"), "utf8"));

/** The ask_user tool_execution_end event and the dialogs pi's client was asked to show. */
function rpcToolEnd(events, stderr) {
	const end = events.find((e) => e.type === "tool_execution_end" && e.toolName === "ask_user");
	assert.ok(end, `no ask_user tool_execution_end event; stderr: ${stderr}`);
	assert.equal(end.isError, false, JSON.stringify(end.result));
	const dialogs = events.filter((e) => e.type === "extension_ui_request" && DIALOGS.includes(e.method));
	return { end, dialogs };
}

test("RPC mode: a bridge extension answers from elsewhere through the events while pi's dialog is up", async () => {
	const work = tempDir();
	const expected = await binaryResult(
		[writeJson(work, "expected-payload.json", databasePayload), "--answers", writeJson(work, "answers.json", { answers: { database: "sqlite" } })],
		{ cwd: work },
	);
	const log = path.join(work, "bridge.jsonl");
	const env = piEnv(work, {
		PI_ASK_TEST_PAYLOAD: writeJson(work, "payload.json", databasePayload),
		PI_ASK_TEST_BRIDGE_LOG: log,
		PI_ASK_TEST_BRIDGE_RESPONSE: JSON.stringify({ kind: "answer", answers: { database: { values: ["sqlite"] } } }),
	});
	// The client never answers its dialog: the bridge does.
	const { events, stderr } = await rpcRun(work, env, () => undefined, ["-e", path.join(extDir, "test", "bridge.ts")]);
	const { end, dialogs } = rpcToolEnd(events, stderr);
	assert.deepEqual(end.result.content, expected.result.content);
	assert.deepEqual(end.result.details, expected.result.details);
	assert.equal(dialogs.length, 1);
	const bridged = fs.readFileSync(log, "utf8").trim().split("\n").map((l) => JSON.parse(l));
	assert.deepEqual(
		bridged.map((e) => e.channel),
		["ask:started", "ask:submit-result"],
	);
	assert.deepEqual(bridged[1].data, { version: 1, requestId: "bridge-call-ask-1", flowId: "call-ask-1", ok: true });
});

test("RPC mode: a bridge's unknown value is refused with the binary's problems, and the person still answers", async () => {
	const work = tempDir();
	const log = path.join(work, "bridge.jsonl");
	const env = piEnv(work, {
		PI_ASK_TEST_PAYLOAD: writeJson(work, "payload.json", databasePayload),
		PI_ASK_TEST_BRIDGE_LOG: log,
		PI_ASK_TEST_BRIDGE_RESPONSE: JSON.stringify({ kind: "answer", answers: { database: { values: ["mysql"] } } }),
	});
	// The dialogs are answered only once the bridge was told.
	const told = () => fs.existsSync(log) && fs.readFileSync(log, "utf8").includes("ask:submit-result");
	const pick = (event, text) => ({ value: event.options.find((o) => o.includes(text)) });
	const { events, stderr } = await rpcRun(
		work,
		env,
		(event) => {
			const deadline = Date.now() + 10_000;
			while (!told() && Date.now() < deadline) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
			return event.title.includes("Review answers") ? pick(event, "1. Submit") : pick(event, "PostgreSQL");
		},
		["-e", path.join(extDir, "test", "bridge.ts")],
	);
	const { end } = rpcToolEnd(events, stderr);
	assert.equal(end.result.content[0].text, "Q1: PostgreSQL");
	const result = fs.readFileSync(log, "utf8").trim().split("\n").map((l) => JSON.parse(l))[1].data;
	assert.equal(result.ok, false);
	assert.equal(result.error, "invalid_answer");
	assert.equal(
		result.message,
		'answers.database.values[0]: question "database" has no option with value "mysql"; valid values: "postgres", "sqlite" (or a position 1..2) [unknown_option]',
	);
});

test("RPC mode: the binary asks through pi's dialogs; picking SQLite gives Q1: SQLite", async () => {
	const work = tempDir();
	const expected = await binaryResult(
		[writeJson(work, "expected-payload.json", databasePayload), "--answers", writeJson(work, "answers.json", { answers: { database: "sqlite" } })],
		{ cwd: work },
	);
	assert.equal(expected.code, 0);

	const env = piEnv(work, { PI_ASK_TEST_PAYLOAD: writeJson(work, "payload.json", databasePayload) });
	const pick = (event, text) => ({ value: event.options.find((o) => o.includes(text)) });
	const { events, stderr } = await rpcRun(work, env, (event) =>
		event.title.includes("Review answers") ? pick(event, "1. Submit") : pick(event, "SQLite"),
	);
	const response = events.find((e) => e.type === "response" && e.id === "req-1");
	assert.equal(response?.success, true, stderr);
	const { end, dialogs } = rpcToolEnd(events, stderr);
	assert.equal(end.result.content[0].text, "Q1: SQLite");
	assert.deepEqual(end.result.content, expected.result.content);
	assert.deepEqual(end.result.details, expected.result.details);
	// The question, then the review: two select dialogs, with the rows the binary chose.
	assert.deepEqual(
		dialogs.map((d) => [d.method, d.title, d.options]),
		[
			[
				"select",
				"1/1 Q1 (choose one)\nWhich database should the project use?",
				[
					"( ) 1. PostgreSQL — Full relational database with production tooling.",
					"( ) 2. SQLite — Embedded database with minimal setup.",
					"( ) 3. Type your own…",
					"Note on this question…",
					"Note on an option…",
					"Next: review →",
				],
			],
			["select", "Review answers", ["1/1 Q1 → SQLite", "1. Submit", "2. Elaborate", "3. Cancel", "Note on a question…"]],
		],
	);
	const last = events.find((e) => e.type === "agent_end").messages.at(-1);
	assert.deepEqual(last.content, [{ type: "text", text: modelSaw(expected.result.content[0].text) }]);
});

test("RPC mode: cancelling the dialogs gives the dismissed result", async () => {
	const work = tempDir();
	const expected = await binaryResult(
		[writeJson(work, "expected-payload.json", payload), "--answers", writeJson(work, "answers.json", { cancelled: true })],
		{ cwd: work },
	);
	assert.equal(expected.code, 1);
	assert.match(expected.result.content[0].text, /^User cancelled the ask flow$/);

	// Answer the first question, then Esc at the second: the flow asks first (an answer would
	// be lost), and yes cancels.
	const env = piEnv(work, { PI_ASK_TEST_PAYLOAD: writeJson(work, "payload.json", payload) });
	let selects = 0;
	const { events, stderr } = await rpcRun(work, env, (event) => {
		if (event.method === "confirm") return { confirmed: true };
		selects++;
		return selects === 1 ? { value: event.options.find((o) => o.includes("SQLite")) } : { cancelled: true };
	});
	const { end, dialogs } = rpcToolEnd(events, stderr);
	assert.deepEqual(end.result.content, expected.result.content);
	assert.deepEqual(end.result.details, expected.result.details);
	assert.deepEqual(
		dialogs.map((d) => [d.method, d.title]),
		[
			["select", "Project setup\n1/2 Database (choose one)\nWhich database should the project use?"],
			["select", "Project setup\n2/2 Q2 (choose any)\nWhich checks should CI run?"],
			["confirm", "Cancel and discard your answers?"],
		],
	);
});

test("RPC mode: pi's abort while a dialog is open ends the binary with the aborted result", async () => {
	const work = tempDir();
	const abortFile = path.join(work, "abort");
	const env = piEnv(work, { PI_ASK_TEST_PAYLOAD: writeJson(work, "payload.json", payload), PI_ASK_TEST_ABORT_FILE: abortFile });
	// The client leaves the first dialog open; test/faux.ts then aborts the turn (ctx.abort()).
	const { events, stderr } = await rpcRun(work, env, () => {
		fs.writeFileSync(abortFile, "");
		return undefined;
	});
	const end = events.find((e) => e.type === "tool_execution_end" && e.toolName === "ask_user");
	assert.ok(end, `no ask_user tool_execution_end event; stderr: ${stderr}`);
	assert.deepEqual(end.result.details.error, { code: "aborted", message: "received SIGTERM" });
	assert.deepEqual(end.result.details.answers, {});
});

test("RPC mode with PI_ASK_ANSWERS: scripted answers, no terminal", async () => {
	const work = tempDir();
	const answersFile = writeJson(work, "answers.json", { answers: { database: "postgres" } });
	const payloadFile = writeJson(work, "expected-payload.json", payload);
	const expected = await binaryResult([payloadFile, "--answers", answersFile], { cwd: work });
	assert.equal(expected.code, 0);

	const { events, stderr } = await rpcRun(
		work,
		piEnv(work, { PI_ASK_TEST_PAYLOAD: writeJson(work, "payload.json", payload), PI_ASK_ANSWERS: answersFile }),
	);
	const end = events.find((e) => e.type === "tool_execution_end" && e.toolName === "ask_user");
	assert.ok(end, stderr);
	assert.deepEqual(end.result.content, expected.result.content);
	assert.deepEqual(end.result.details, expected.result.details);
});

test("an invalid payload: the binary's invalid_payload result reaches the model unchanged", async () => {
	const work = tempDir();
	const bad = {
		questions: [
			{ id: "a", prompt: "First?", options: [{ value: "x", label: "X" }] },
			{ id: "a", prompt: "Second?", options: [{ value: "x", label: "X" }, { value: "x", label: "Y" }] },
		],
	};
	const payloadFile = writeJson(work, "expected-payload.json", bad);
	const expected = await binaryResult([payloadFile], { cwd: work });
	assert.equal(expected.code, 2);
	assert.equal(expected.result.details.error.code, "invalid_payload");

	const { out, toolResult } = await printRun(work, bad);
	assert.equal(out.stdout.trim(), modelSaw(expected.result.content[0].text));
	assert.deepEqual(toolResult.details, expected.result.details);
});

test("no binary: a clear tool error", async () => {
	const work = tempDir();
	const missing = path.join(work, "no-such-pi-ask");
	const { out, toolResult } = await printRun(work, payload, { PI_ASK_BIN: missing });
	const message = `PI_ASK_BIN is set to ${JSON.stringify(missing)}, which is not an executable file.`;
	assert.equal(out.stdout.trim(), modelSaw(message, true));
	assert.equal(toolResult.isError, true);
});

test("a binary that is too old: a clear tool error", async () => {
	const work = tempDir();
	const old = path.join(work, "old-pi-ask");
	fs.writeFileSync(old, '#!/bin/sh\necho "pi-ask 0.0.9"\n', { mode: 0o755 });
	const { out, toolResult } = await printRun(work, payload, { PI_ASK_BIN: old });
	const message = `${old} is pi-ask 0.0.9, which is too old: this extension needs pi-ask 0.6.0 or newer.`;
	assert.equal(out.stdout.trim(), modelSaw(message, true));
	assert.equal(toolResult.isError, true);
});

test("the binary under test is the one cargo built", () => {
	assert.ok(fs.existsSync(bin), `${bin} does not exist: run cargo build, or set PI_ASK_BIN`);
});

test("pi install: the installed package provides ask_user without -e", async () => {
	const work = tempDir();
	const env = piEnv(work, { PI_ASK_TEST_PAYLOAD: writeJson(work, "payload.json", payload) });
	const install = await run(process.execPath, [piCli, "install", extDir], { cwd: work, env });
	assert.equal(install.code, 0, install.stdout + install.stderr);
	const settings = JSON.parse(fs.readFileSync(path.join(env.PI_CODING_AGENT_DIR, "settings.json"), "utf8"));
	assert.equal(settings.packages.length, 1);

	const expected = await binaryResult([writeJson(work, "expected-payload.json", payload)], { cwd: work });
	const args = [piCli, "--offline", "--no-session", "-e", fauxExtension, "--provider", "faux", "--model", "faux-1", "-p", "go"];
	const out = await run(process.execPath, args, { cwd: work, env });
	assert.equal(out.code, 0, out.stderr);
	assert.equal(out.stdout.trim(), modelSaw(expected.result.content[0].text));
});

/**
 * A stand-in binary that records its arguments and working directory, then writes a fixed
 * result to `--output`: shows how the extension runs the binary in each mode.
 */
function recordingBinary(dir) {
	const file = path.join(dir, "recording-pi-ask");
	const log = path.join(dir, "calls.log");
	fs.writeFileSync(
		file,
		`#!/bin/sh
if [ "$1" = "--version" ]; then echo "pi-ask 0.6.0"; exit 0; fi
{ echo "cwd=$(pwd)"; for a in "$@"; do echo "arg=$a"; done; echo "PI_ASK_ANSWERS=\${PI_ASK_ANSWERS:-}"; } > "${log}"
out=""; prev=""
for a in "$@"; do
  if [ "$prev" = "--output" ]; then out="$a"; fi
  if [ "$prev" = "--context" ]; then printf 'context=%s\n' "$(cat "$a")" >> "${log}"; fi
  prev="$a"
done
printf '%s' '{"content":[{"type":"text","text":"recorded"}],"details":{"cancelled":true,"questions":[],"answers":{}}}' > "$out"
exit 3
`,
		{ mode: 0o755 },
	);
	return { file, calls: () => fs.readFileSync(log, "utf8").trim().split("\n") };
}

/** The recorded call: its arguments, working directory, PI_ASK_ANSWERS and the context file's text. */
function shape(calls) {
	const args = calls.filter((l) => l.startsWith("arg=")).map((l) => l.slice(4));
	return {
		cwd: calls.find((l) => l.startsWith("cwd=")).slice(4),
		args,
		answers: calls.find((l) => l.startsWith("PI_ASK_ANSWERS=")),
		context: calls.find((l) => l.startsWith("context="))?.slice(8),
	};
}

test("how the binary is run: --output, --cwd pi's cwd, --context the asking text; --dialogs in RPC mode, a reason for no input in json mode", async () => {
	const work = fs.realpathSync(tempDir());
	const fake = recordingBinary(work);
	const env = piEnv(work, { PI_ASK_BIN: fake.file, PI_ASK_TEST_PAYLOAD: writeJson(work, "payload.json", payload) });
	// test/faux.ts says "Let me ask." with its ask_user call. The payload and that text are
	// unlinked files the binary opens as /dev/fd/3 and /dev/fd/5; the result goes to a pipe.
	const expectedArgs = ["/dev/fd/3", "--output", "/dev/fd/4", "--cwd", work, "--context", "/dev/fd/5"];
	const call = (args, answers = "") => ({ cwd: work, args, answers: `PI_ASK_ANSWERS=${answers}`, context: "Let me ask." });

	// Print mode without a terminal: the binary itself reports the missing terminal.
	let out = await run(process.execPath, piArgs(null, "-p", "go"), { cwd: work, env });
	assert.equal(out.stdout.trim(), modelSaw("recorded"), out.stderr);
	assert.deepEqual(shape(fake.calls()), call(expectedArgs));

	// json mode: never the terminal; the reason in pi's terms.
	out = await run(process.execPath, piArgs(null, "--mode", "json", "go"), { cwd: work, env });
	assert.equal(out.code, 0, out.stderr);
	assert.deepEqual(shape(fake.calls()), call([...expectedArgs, "--no-input-reason", "pi is running in json mode"]));

	// RPC mode: never the terminal; pi's dialogs.
	const rpc = await rpcRun(work, env);
	assert.ok(rpc.events.some((e) => e.type === "tool_execution_end"), rpc.stderr);
	assert.deepEqual(shape(fake.calls()), call([...expectedArgs, "--dialogs"]));

	// Scripted answers: the binary reads PI_ASK_ANSWERS itself, in any mode.
	out = await run(process.execPath, piArgs(null, "--mode", "json", "go"), { cwd: work, env: { ...env, PI_ASK_ANSWERS: "answers.json" } });
	assert.equal(out.code, 0, out.stderr);
	assert.deepEqual(shape(fake.calls()), call(expectedArgs, "answers.json"));
});

test("a malformed call reaches the binary: the model reads its problem list, not pi's schema error", async () => {
	const work = tempDir();
	// An unknown property, a blank id and no options: pi's schema lets it through.
	const bad = { title: "Setup", questions: [{ id: " ", prompt: "Which database?", multiSelect: true }] };
	const expected = await binaryResult([writeJson(work, "expected-payload.json", bad)], { cwd: work });
	assert.equal(expected.code, 2);
	assert.equal(expected.result.details.error.code, "invalid_payload");
	const codes = expected.result.details.error.problems.map((p) => p.code);
	assert.ok(codes.length >= 2, JSON.stringify(codes));

	const { out, toolResult } = await printRun(work, bad);
	assert.equal(out.stdout.trim(), modelSaw(expected.result.content[0].text));
	assert.doesNotMatch(out.stdout, /Validation failed for tool/);
	assert.deepEqual(toolResult.details, expected.result.details);
	assert.equal(toolResult.isError, false);
});

test("a broken PI_ASK_ANSWERS file fails the run: its problems on stderr, an error result, exit 2", async () => {
	const work = tempDir();
	const answersFile = writeJson(work, "answers.json", { answers: { database: "nosuch" } });
	const payloadFile = writeJson(work, "payload.json", payload);
	const sessionDir = path.join(work, "sessions");
	const out = await run(process.execPath, piArgs(sessionDir, "-p", "go"), {
		cwd: work,
		env: piEnv(work, { PI_ASK_TEST_PAYLOAD: payloadFile, PI_ASK_ANSWERS: answersFile }),
	});
	assert.equal(out.code, 2, `${out.stdout}\n${out.stderr}`);
	const problem = 'answers.database: question "database" has no option with value "nosuch"; valid values: "postgres", "sqlite" (or a position 1..2) [unknown_option]';
	assert.equal(out.stderr, `pi-ask: invalid answers file ${answersFile}: 1 problem\n  ${problem}\n`);
	const toolResult = toolResultOf(sessionEntries(sessionDir));
	assert.equal(toolResult.isError, true);
	const text =
		`ask_user answers every call from the file PI_ASK_ANSWERS=${answersFile}, which cannot be used (1 problem):\n- ${problem}\n` +
		"This is a problem of this run's setup, not of your call: do not call ask_user again; stop and report that the answers file must be fixed.";
	assert.deepEqual(toolResult.content, [{ type: "text", text }]);
	assert.equal(toolResult.details.error.code, "invalid_answers");
	assert.equal(out.stdout.trim(), modelSaw(text, true));
	// A missing file too.
	const missing = path.join(work, "no-such-answers.json");
	const again = await run(process.execPath, piArgs(null, "-p", "go"), {
		cwd: work,
		env: piEnv(work, { PI_ASK_TEST_PAYLOAD: payloadFile, PI_ASK_ANSWERS: missing }),
	});
	assert.equal(again.code, 2, again.stderr);
	assert.equal(again.stderr, `pi-ask: cannot read the answers file ${missing}: No such file or directory\n`);
	assert.match(again.stdout, /^MODEL SAW ERROR:\nask_user answers every call from the file PI_ASK_ANSWERS=/);
});

test("ask:started and ask:completed on pi.events: the flow's id, its questions, how it ended", async () => {
	const work = tempDir();
	const eventsFile = path.join(work, "events.jsonl");
	const answersFile = writeJson(work, "answers.json", { answers: { database: "sqlite" } });
	const events = () => fs.readFileSync(eventsFile, "utf8").trim().split("\n").map((l) => JSON.parse(l));
	// The questions as details.questions lists them, with their options' values (what a bridge answers with).
	const questions = [
		{
			id: "database",
			label: "Database",
			prompt: "Which database should the project use?",
			type: "single",
			options: [
				{ value: "postgres", label: "PostgreSQL", description: "Full relational database." },
				{ value: "sqlite", label: "SQLite", description: "Embedded, minimal setup." },
			],
		},
		{
			id: "checks",
			label: "Q2",
			prompt: "Which checks should CI run?",
			type: "multi",
			options: [
				{ value: "lint", label: "Linting" },
				{ value: "fmt", label: "Formatting" },
				{ value: "test", label: "Tests" },
			],
		},
	];
	await printRun(work, payload, { PI_ASK_ANSWERS: answersFile, PI_ASK_TEST_EVENTS: eventsFile });
	const [started, completed] = events();
	assert.equal(typeof started.data.createdAt, "number");
	delete started.data.createdAt;
	assert.deepEqual(
		[started, completed],
		[
			{
				channel: "ask:started",
				data: { version: 1, id: "call-ask-1", flowId: "call-ask-1", toolCallId: "call-ask-1", source: "tool", title: "Project setup", questions },
			},
			{ channel: "ask:completed", data: { id: "call-ask-1", source: "tool", ending: "submitted", answered: ["database"] } },
		],
	);
	// No terminal: the Needs user input result ends it.
	fs.rmSync(eventsFile);
	await printRun(fs.mkdtempSync(path.join(work, "b-")), payload, { PI_ASK_TEST_EVENTS: eventsFile });
	assert.deepEqual(events()[1], { channel: "ask:completed", data: { id: "call-ask-1", source: "tool", ending: "no_ui", answered: [] } });
	// No binary: a tool error, and no one was asked.
	fs.rmSync(eventsFile);
	await printRun(fs.mkdtempSync(path.join(work, "c-")), payload, { PI_ASK_TEST_EVENTS: eventsFile, PI_ASK_BIN: path.join(work, "none") });
	assert.equal(fs.existsSync(eventsFile), false);
	// A binary killed: started, then ended with an error.
	const killed = path.join(work, "killed-pi-ask");
	fs.writeFileSync(killed, '#!/bin/sh\nif [ "$1" = "--version" ]; then echo "pi-ask 0.6.0"; exit 0; fi\nkill -9 $$\n', { mode: 0o755 });
	await printRun(fs.mkdtempSync(path.join(work, "d-")), payload, { PI_ASK_TEST_EVENTS: eventsFile, PI_ASK_BIN: killed });
	assert.deepEqual(events().map((e) => [e.channel, e.data.ending]), [["ask:started", undefined], ["ask:completed", "error"]]);
});

test("the payload is kept as the session's own entry; /ask:replay opens it again and sends the answers as the user's message", async () => {
	const work = tempDir();
	const sessionDir = path.join(work, "sessions");
	const payloadFile = writeJson(work, "payload.json", payload);
	const eventsFile = path.join(work, "events.jsonl");
	const first = await run(process.execPath, piArgs(sessionDir, "-p", "go"), {
		cwd: work,
		env: piEnv(work, { PI_ASK_TEST_PAYLOAD: payloadFile, PI_ASK_ANSWERS: writeJson(work, "a.json", { answers: { database: "postgres" } }) }),
	});
	assert.equal(first.code, 0, first.stderr);
	const kept = sessionEntries(sessionDir).filter((e) => e.type === "custom" && e.customType === "ask:payload");
	assert.deepEqual(
		kept.map((e) => e.data),
		[{ version: 1, source: "tool", toolCallId: "call-ask-1", params: payload }],
	);
	// No payload files anywhere: the session holds it.
	const replayAnswers = writeJson(work, "b.json", { answers: { database: "sqlite", checks: ["test"] } });
	const expected = await binaryResult([payloadFile, "--answers", replayAnswers], { cwd: work });
	const replay = await run(process.execPath, piArgs(sessionDir, "--continue", "-p", "/ask:replay"), {
		cwd: work,
		env: piEnv(work, { PI_ASK_TEST_PAYLOAD: payloadFile, PI_ASK_ANSWERS: replayAnswers, PI_ASK_TEST_EVENTS: eventsFile }),
	});
	assert.equal(replay.code, 0, replay.stderr);
	const message = `I answered your last ask_user form again:\n\n${expected.result.content[0].text}`;
	assert.equal(replay.stdout.trim(), `MODEL GOT:\n${message}\nEND OF TURN`);
	const entries = sessionEntries(sessionDir);
	const users = entries.filter((e) => e.type === "message" && e.message.role === "user");
	assert.deepEqual(users[users.length - 1].message.content, [{ type: "text", text: message }]);
	const started = fs.readFileSync(eventsFile, "utf8").trim().split("\n").map((l) => JSON.parse(l));
	assert.equal(started[0].data.source, "replay");
	assert.match(started[0].data.id, /^replay-call-ask-1-/);
	assert.equal(started[1].data.ending, "submitted");
});

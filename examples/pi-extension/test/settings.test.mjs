// The settings of ask_user from pi (plain mode, screen, bell, timeout, escape delay): pi's flags
// (`--ask-plain` and the like), the "piAsk" object of pi's settings, the binary's environment
// variables. Unit tests of the parsing, the parsing checked against the binary's own, and the
// real pi (print mode, no terminal) passing them to a binary that reports its environment. The
// real binary's plain mode and timeout in pi's terminal are tested by tests/pi_extension.rs.

import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";
import { createJiti } from "jiti";
import { bin, extension, modelSaw, payload, piArgs, piEnv, run, sessionEntries, tempDir, toolResultOf, writeJson } from "./helpers.mjs";

const jiti = createJiti(import.meta.url);
const ext = await jiti.import(extension);

/** resolveAskSettings with flags by name, pi's settings object and an environment. */
function resolve({ flags = {}, settings, env = {} } = {}) {
	return ext.resolveAskSettings({ flag: (name) => flags[name], settings, env });
}

test("parseTimeout takes seconds and durations as the binary does, and says what it takes", () => {
	const seconds = (v) => ext.parseTimeout(v).seconds;
	assert.equal(seconds("90"), 90);
	assert.equal(seconds(" 30s "), 30);
	assert.equal(seconds("2m"), 120);
	assert.equal(seconds("1m30s"), 90);
	assert.equal(seconds("1h"), 3600);
	assert.equal(seconds("500ms"), 0.5);
	assert.equal(seconds("2.5"), 2.5);
	assert.equal(seconds("0"), 0);
	assert.equal(seconds(120), 120);
	assert.deepEqual(ext.parseTimeout(" 2m "), { text: "2m", seconds: 120 });
	for (const bad of ["abc", "", "  ", "1x", "2 m", "-1", "1.2.3", "s", "1e3", true, null, {}]) {
		assert.throws(() => ext.parseTimeout(bad), /number of seconds|too long/, JSON.stringify(bad));
	}
	assert.throws(() => ext.parseTimeout("-5s"), /0 or more/);
	assert.throws(() => ext.parseTimeout("99999999999999999999h"), /too long/);
	assert.throws(() => ext.parseTimeout("0.0000000001"), /shorter than a millisecond/);
	assert.throws(() => ext.parseTimeout("0.5ms"), /shorter than a millisecond/);
	assert.equal(seconds("1ms"), 0.001);
});

test("parseSwitch, parseScreen and parseEscDelay take the values the binary does", () => {
	for (const on of [true, "1", "true", " Yes ", "on", 1]) assert.equal(ext.parseSwitch(on), true, String(on));
	for (const off of [false, "0", "false", "no", "OFF", 0]) assert.equal(ext.parseSwitch(off), false, String(off));
	for (const bad of ["2", "maybe", "", null, {}]) assert.throws(() => ext.parseSwitch(bad), /true or false/);
	assert.equal(ext.parseScreen("inline"), "inline");
	assert.equal(ext.parseScreen(" FULL "), "full");
	for (const bad of ["half", "", 1, true]) assert.throws(() => ext.parseScreen(bad), /inline or full/);
	assert.equal(ext.parseEscDelay("100"), 100);
	assert.equal(ext.parseEscDelay(0), 0);
	assert.equal(ext.parseEscDelay(" 25 "), 25);
	assert.equal(ext.parseEscDelay(10000), 10000);
	for (const bad of ["fast", "1.5", "-1", "", 2.5, true]) assert.throws(() => ext.parseEscDelay(bad), /whole number of milliseconds/);
	assert.throws(() => ext.parseEscDelay("10001"), /at most 10000/);
});

test("resolveAskSettings: pi's flag, then pi's settings, then the environment; each value's source", () => {
	const env = { PI_ASK_PLAIN: "1", PI_ASK_SCREEN: "full", PI_ASK_BELL: "0", PI_ASK_TIMEOUT: "5", PI_ASK_ESCDELAY: "80" };
	assert.deepEqual(resolve({ env }), {
		settings: { plain: true, screen: "full", bell: false, timeout: "5", escDelay: 80 },
		from: { plain: "PI_ASK_PLAIN", screen: "PI_ASK_SCREEN", bell: "PI_ASK_BELL", timeout: "PI_ASK_TIMEOUT", escDelay: "PI_ASK_ESCDELAY" },
		problems: [],
	});
	const settings = { theme: "dark", piAsk: { plain: false, screen: "inline", timeout: "30s", escDelay: 120 } };
	assert.deepEqual(resolve({ settings, env }), {
		settings: { plain: false, screen: "inline", bell: false, timeout: "30s", escDelay: 120 },
		from: {
			plain: "piAsk.plain in pi's settings",
			screen: "piAsk.screen in pi's settings",
			bell: "PI_ASK_BELL",
			timeout: "piAsk.timeout in pi's settings",
			escDelay: "piAsk.escDelay in pi's settings",
		},
		problems: [],
	});
	const flags = { "ask-plain": true, "ask-screen": "full", "ask-no-bell": true, "ask-timeout": "2m", "ask-escdelay": "200" };
	assert.deepEqual(resolve({ flags, settings, env }).settings, { plain: true, screen: "full", bell: false, timeout: "2m", escDelay: 200 });
	assert.equal(resolve({ flags, settings, env }).from.timeout, "--ask-timeout");
	// Boolean flags left at their default (false) choose nothing; nor do empty variables.
	const unset = { "ask-plain": false, "ask-no-bell": false };
	assert.deepEqual(resolve({ flags: unset, env: { PI_ASK_PLAIN: "", PI_ASK_TIMEOUT: " " } }), { settings: {}, from: {}, problems: [] });
	assert.deepEqual(resolve({ settings: { piAsk: { bell: true } }, env: { PI_ASK_BELL: "0" } }).settings, { bell: true });
	assert.deepEqual(resolve({ settings: { piAsk: null } }), { settings: {}, from: {}, problems: [] });
});

test("resolveAskSettings: every value that cannot be used is a problem naming its source and value", () => {
	const resolved = resolve({
		flags: { "ask-timeout": "soon" },
		settings: { piAsk: { screen: "half", bel: false, escDelay: "fast" } },
		env: { PI_ASK_PLAIN: "maybe", PI_ASK_TIMEOUT: "1" },
	});
	assert.deepEqual(resolved.settings, {});
	assert.deepEqual(resolved.problems, [
		"piAsk.bel in pi's settings is not a setting of ask_user (plain, screen, bell, timeout, escDelay, notify, notifyCommand, autoSubmit).",
		'PI_ASK_PLAIN is "maybe", which cannot be used: it is true or false (or 1 or 0).',
		"piAsk.screen in pi's settings is \"half\", which cannot be used: it is inline or full.",
		'--ask-timeout is "soon", which cannot be used: it is a number of seconds or a duration such as 30s, 2m or 1m30s (0: no timeout).',
		"piAsk.escDelay in pi's settings is \"fast\", which cannot be used: it is a whole number of milliseconds, e.g. 100.",
	]);
	assert.deepEqual(resolve({ settings: { piAsk: "plain" } }).problems, [
		'piAsk in pi\'s settings is "plain": it is an object such as {"timeout": "2m"}.',
	]);
	const text = ext.settingsProblemText(resolved.problems);
	assert.match(text, /^ask_user cannot use the settings chosen for it: piAsk\.bel /);
	assert.match(text, /\/ask-settings shows what is in force\.$/);
});

test("settingsEnv gives the binary its variables; settingsReport shows values and sources", () => {
	assert.deepEqual(ext.settingsEnv({}), {});
	assert.deepEqual(ext.settingsEnv({ plain: true, screen: "full", bell: false, timeout: "2m", escDelay: 0 }), {
		PI_ASK_PLAIN: "1",
		PI_ASK_SCREEN: "full",
		PI_ASK_BELL: "0",
		PI_ASK_TIMEOUT: "2m",
		PI_ASK_ESCDELAY: "0",
	});
	assert.deepEqual(ext.settingsEnv({ plain: false, bell: true }), { PI_ASK_PLAIN: "0", PI_ASK_BELL: "1" });
	assert.equal(
		ext.settingsReport(resolve({ flags: { "ask-timeout": "0" }, settings: { piAsk: { plain: true } } })),
		[
			"ask_user settings",
			"plain: on (piAsk.plain in pi's settings)",
			"screen: inline (default)",
			"bell: on (default)",
			"timeout: 0 (none) (--ask-timeout)",
			"escDelay: 50 ms, 100 over ssh (default)",
			"notify: bell (default)",
			"notifyCommand: none (default)",
			"autoSubmit: off (default)",
		].join("\n"),
	);
	assert.match(ext.settingsReport(resolve({ env: { PI_ASK_SCREEN: "half" } })), /\n\nask_user cannot use the settings chosen for it: PI_ASK_SCREEN is "half"/);
});

test("notify, notifyCommand and autoSubmit reach the binary as its variables", () => {
	const resolved = resolve({ settings: { piAsk: { notify: "OSC9, bell", notifyCommand: "notify-send x", autoSubmit: "yes" } } });
	assert.deepEqual(resolved.problems, []);
	assert.deepEqual(ext.settingsEnv(resolved.settings), {
		PI_ASK_NOTIFY: "osc9,bell",
		PI_ASK_NOTIFY_COMMAND: "notify-send x",
		PI_ASK_AUTO_SUBMIT: "1",
	});
	assert.deepEqual(resolve({ flags: { "ask-auto-submit": true, "ask-notify": "osc777" } }).settings, { notify: "osc777", autoSubmit: true });
	assert.deepEqual(resolve({ settings: { piAsk: { notify: "pager" } } }).problems, [
		"piAsk.notify in pi's settings is \"pager\", which cannot be used: it is one or more of bell, osc9, osc777, command, none, separated by commas.",
	]);
});

test("parseTimeout and the binary agree on what a timeout is", async () => {
	const work = tempDir();
	const payloadFile = writeJson(work, "payload.json", payload);
	for (const value of ["90", "30s", "2m", "1m30s", "500ms", "2.5", ".5", "+3", "1m30", "0", "abc", "1x", "2 m", "-1", "1.2.3", "s", "1e3", "5-", "0.0000000001", "0.5ms", "1ms"]) {
		let extensionTakesIt = true;
		try {
			ext.parseTimeout(value);
		} catch {
			extensionTakesIt = false;
		}
		// --no-input: exit 3 ("Needs user input") when the timeout was read, 2 when refused.
		const out = await run(bin, [payloadFile, "--no-input"], { env: { ...process.env, PI_ASK_TIMEOUT: value } });
		assert.ok(out.code === 2 || out.code === 3, `${value}: exit ${out.code} ${out.stderr}`);
		assert.equal(extensionTakesIt, out.code === 3, `${JSON.stringify(value)}: the extension ${extensionTakesIt ? "takes" : "refuses"} it, the binary exits ${out.code}: ${out.stderr}`);
	}
});

test("the extension registers the eight flags, /ask-settings and a startup check", async () => {
	const flags = {};
	const commands = {};
	const handlers = {};
	let settings = { piAsk: { timeout: "2m" } };
	ext.default({
		registerTool() {},
		registerFlag: (name, options) => (flags[name] = options),
		registerCommand: (name, options) => (commands[name] = options),
		on: (event, handler) => (handlers[event] = handler),
		getFlag: (name) => (name === "ask-plain" ? true : flags[name]?.default),
		getSettings: () => settings,
	});
	assert.deepEqual(
		Object.fromEntries(Object.entries(flags).map(([name, o]) => [name, [o.type, o.default]])),
		{
			"ask-plain": ["boolean", false],
			"ask-screen": ["string", undefined],
			"ask-no-bell": ["boolean", false],
			"ask-timeout": ["string", undefined],
			"ask-escdelay": ["string", undefined],
			"ask-notify": ["string", undefined],
			"ask-notify-command": ["string", undefined],
			"ask-auto-submit": ["boolean", false],
		},
	);
	const notes = [];
	const ctx = { ui: { notify: (text, level) => notes.push([level, text]) } };
	await commands["ask-settings"].handler("", ctx);
	assert.equal(notes.length, 1);
	assert.equal(notes[0][0], "info");
	assert.match(notes[0][1], /^ask_user settings\nplain: on \(--ask-plain\)\n/);
	assert.match(notes[0][1], /\ntimeout: 2m \(piAsk\.timeout in pi's settings\)\n/);
	// pi starting with a bad setting: a warning; a good one: nothing.
	handlers.session_start({}, ctx);
	assert.equal(notes.length, 1);
	settings = { piAsk: { timeout: "soon" } };
	handlers.session_start({}, ctx);
	assert.equal(notes[1][0], "warning");
	assert.match(notes[1][1], /^ask_user cannot use the settings chosen for it: piAsk\.timeout in pi's settings is "soon"/);
});

// ---------------------------------------------------------------------------------------------
// The real pi: flags and settings reach the binary.
// ---------------------------------------------------------------------------------------------

/** A stand-in binary whose result reports the settings variables it was started with. */
function envReportingBinary(work) {
	const file = path.join(work, "pi-ask-env");
	fs.writeFileSync(
		file,
		`#!/bin/sh
if [ "$1" = "--version" ]; then echo "pi-ask 0.6.0"; exit 0; fi
out=
while [ $# -gt 0 ]; do
	if [ "$1" = "--output" ]; then out="$2"; fi
	shift
done
printf '{"content":[{"type":"text","text":"PLAIN=%s SCREEN=%s BELL=%s TIMEOUT=%s ESCDELAY=%s"}],"details":{"cancelled":true,"questions":[],"answers":{}}}' \\
	"\${PI_ASK_PLAIN-unset}" "\${PI_ASK_SCREEN-unset}" "\${PI_ASK_BELL-unset}" "\${PI_ASK_TIMEOUT-unset}" "\${PI_ASK_ESCDELAY-unset}" > "$out"
`,
		{ mode: 0o755 },
	);
	return file;
}

/** `pi [args] -p go` with pi's settings `settings` (when given) in its agent dir. */
async function piWith(work, { args = [], settings, env = {} } = {}) {
	const payloadFile = writeJson(work, "payload.json", payload);
	const sessionDir = path.join(work, "sessions");
	const theEnv = piEnv(work, { PI_ASK_TEST_PAYLOAD: payloadFile, ...env });
	for (const name of ["PI_ASK_PLAIN", "PI_ASK_SCREEN", "PI_ASK_BELL", "PI_ASK_TIMEOUT", "PI_ASK_ESCDELAY"]) {
		if (!(name in env)) delete theEnv[name];
	}
	if (settings) {
		fs.mkdirSync(theEnv.PI_CODING_AGENT_DIR, { recursive: true });
		writeJson(theEnv.PI_CODING_AGENT_DIR, "settings.json", settings);
	}
	const out = await run(process.execPath, piArgs(sessionDir, ...args, "-p", "go"), { cwd: work, env: theEnv });
	assert.equal(out.code, 0, `pi -p failed:\n${out.stdout}\n${out.stderr}`);
	return { out, toolResult: toolResultOf(sessionEntries(sessionDir)) };
}

test("pi: the flags, pi's settings and the environment reach the binary, the flag first", async () => {
	const work = tempDir();
	const { out } = await piWith(work, {
		args: ["--ask-plain", "--ask-timeout", "2m"],
		settings: { piAsk: { screen: "full", bell: false, timeout: "30s", escDelay: 120 } },
		env: { PI_ASK_BIN: envReportingBinary(work), PI_ASK_TIMEOUT: "5", PI_ASK_ESCDELAY: "80" },
	});
	assert.equal(out.stdout.trim(), modelSaw("PLAIN=1 SCREEN=full BELL=0 TIMEOUT=2m ESCDELAY=120"));
	// Nothing chosen: the binary's environment is pi's.
	const plain = tempDir();
	const none = await piWith(plain, { env: { PI_ASK_BIN: envReportingBinary(plain) } });
	assert.equal(none.out.stdout.trim(), modelSaw("PLAIN=unset SCREEN=unset BELL=unset TIMEOUT=unset ESCDELAY=unset"));
});

test("pi: a setting that cannot be used is a tool error that says which and why; nothing is asked", async () => {
	const work = tempDir();
	const { out, toolResult } = await piWith(work, {
		args: ["--ask-timeout", "soon"],
		settings: { piAsk: { screen: "half" } },
		env: { PI_ASK_BIN: envReportingBinary(work) },
	});
	assert.equal(toolResult.isError, true);
	const text = toolResult.content[0].text;
	assert.match(text, /^ask_user cannot use the settings chosen for it: /);
	assert.match(text, /piAsk\.screen in pi's settings is "half", which cannot be used: it is inline or full\./);
	assert.match(text, /--ask-timeout is "soon", which cannot be used: it is a number of seconds or a duration such as 30s/);
	assert.equal(out.stdout.trim(), modelSaw(text, true));
});

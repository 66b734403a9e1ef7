// Shared helpers for the extension's tests: run the real pi (npm @earendil-works/pi-coding-agent)
// offline with the faux model of test/faux.ts, in a temporary HOME and agent dir, and run the
// pi-ask binary directly for the expected results.

import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

export const extDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const repoRoot = path.resolve(extDir, "..", "..");
export const piCli = path.join(extDir, "node_modules", "@earendil-works", "pi-coding-agent", "dist", "cli.js");
export const fauxExtension = path.join(extDir, "test", "faux.ts");
export const extension = path.join(extDir, "index.ts");

/** The binary under test: PI_ASK_BIN (cargo test passes its debug build), else target/debug. */
export const bin = process.env.PI_ASK_BIN || path.join(repoRoot, "target", "debug", "pi-ask");

/** Upper bound for one process in these tests; nothing here should take more than seconds. */
export const PROCESS_TIMEOUT_MS = 60_000;

/** A fresh temporary directory, removed when the test process exits. */
export function tempDir(prefix = "pi-ask-ext-") {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
	process.on("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
	return dir;
}

/** Writes `value` as JSON to `dir/name` and returns the path. */
export function writeJson(dir, name, value) {
	const file = path.join(dir, name);
	fs.writeFileSync(file, JSON.stringify(value, null, 2));
	return file;
}

/**
 * An environment for pi: a temporary HOME and agent dir (nothing touches the real user
 * config), offline, no colour, the binary under test, and `extra` on top. PI_ASK_ANSWERS from
 * the outer environment is dropped unless given in `extra`.
 */
export function piEnv(work, extra = {}) {
	const home = path.join(work, "home");
	fs.mkdirSync(home, { recursive: true });
	const env = { ...process.env };
	delete env.PI_ASK_ANSWERS;
	delete env.PI_ASK_TEST_ABORT_FILE;
	return {
		...env,
		HOME: home,
		PI_CODING_AGENT_DIR: path.join(home, ".pi", "agent"),
		PI_OFFLINE: "1",
		NO_COLOR: "1",
		PI_ASK_BIN: bin,
		...extra,
	};
}

/**
 * Runs a process in its own session (`detached`: no controlling terminal, like CI), feeds it
 * `input`, and resolves with its exit code and output; kills it after `timeoutMs`.
 */
export function run(cmd, args, { env, cwd, input, timeoutMs = PROCESS_TIMEOUT_MS } = {}) {
	return new Promise((resolve, reject) => {
		const child = spawn(cmd, args, { env, cwd, detached: true, stdio: ["pipe", "pipe", "pipe"] });
		let stdout = "";
		let stderr = "";
		let timedOut = false;
		const timer = setTimeout(() => {
			timedOut = true;
			try {
				process.kill(-child.pid, "SIGKILL");
			} catch {
				child.kill("SIGKILL");
			}
		}, timeoutMs);
		child.stdout.on("data", (d) => (stdout += d));
		child.stderr.on("data", (d) => (stderr += d));
		child.on("error", (e) => {
			clearTimeout(timer);
			reject(e);
		});
		child.on("close", (code, signal) => {
			clearTimeout(timer);
			if (timedOut) reject(new Error(`${cmd} ${args.join(" ")} timed out after ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
			else resolve({ code, signal, stdout, stderr });
		});
		child.stdin.on("error", () => {});
		child.stdin.end(input ?? "");
	});
}

/** The pi arguments for an offline run with the faux model and the extension under test. */
export function piArgs(sessionDir, ...rest) {
	return [
		piCli,
		"--offline",
		...(sessionDir ? ["--session-dir", sessionDir] : ["--no-session"]),
		"--no-extensions",
		"--no-skills",
		"--no-prompt-templates",
		"--no-context-files",
		"-e",
		fauxExtension,
		"-e",
		extension,
		"--provider",
		"faux",
		"--model",
		"faux-1",
		...rest,
	];
}

/** The entries of the only session file in `sessionDir`. */
export function sessionEntries(sessionDir) {
	const files = fs.readdirSync(sessionDir).filter((f) => f.endsWith(".jsonl"));
	if (files.length !== 1) throw new Error(`expected one session file in ${sessionDir}, found ${files.join(", ")}`);
	return fs
		.readFileSync(path.join(sessionDir, files[0]), "utf8")
		.split("\n")
		.filter((l) => l.trim())
		.map((l) => JSON.parse(l));
}

/** The ask_user tool result message stored in a session. */
export function toolResultOf(entries) {
	const found = entries.filter((e) => e.type === "message" && e.message.role === "toolResult" && e.message.toolName === "ask_user");
	if (found.length !== 1) throw new Error(`expected one ask_user tool result, found ${found.length}`);
	return found[0].message;
}

/** What the faux model prints on its second turn after seeing a tool result with `text`. */
export function modelSaw(text, isError = false) {
	return `${isError ? "MODEL SAW ERROR:" : "MODEL SAW:"}\n${text}\nEND OF TURN`;
}

/** Runs the binary directly (no terminal) and returns its exit code and parsed result. */
export async function binaryResult(args, opts = {}) {
	const out = await run(bin, args, opts);
	let result;
	try {
		result = JSON.parse(out.stdout);
	} catch {
		throw new Error(`pi-ask ${args.join(" ")} printed no result (exit ${out.code}): ${out.stdout}${out.stderr}`);
	}
	return { code: out.code, result, stderr: out.stderr };
}

/** The payload used by most tests: two questions, single and multi. */
export const payload = {
	title: "Project setup",
	questions: [
		{
			id: "database",
			label: "Database",
			prompt: "Which database should the project use?",
			options: [
				{ value: "postgres", label: "PostgreSQL", description: "Full relational database." },
				{ value: "sqlite", label: "SQLite", description: "Embedded, minimal setup." },
			],
		},
		{
			id: "checks",
			prompt: "Which checks should CI run?",
			type: "multi",
			options: [
				{ value: "lint", label: "Linting" },
				{ value: "fmt", label: "Formatting" },
				{ value: "test", label: "Tests" },
			],
		},
	],
};

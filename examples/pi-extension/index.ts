/**
 * pi-ask for pi: registers the `ask_user` tool and answers it with the `pi-ask` binary.
 *
 * The model calls `ask_user` with a payload of clarifying questions (docs/contract.md,
 * "Input"); the binary asks the person in the terminal and returns `{content, details}`
 * (contract "Output"), which this tool hands back to pi unchanged.
 *
 * How the binary is run depends on pi's mode (`ctx.mode`):
 * - `PI_ASK_ANSWERS` set: the binary answers from that file (scripted, reproducible; any mode);
 * - interactive TUI (`tui`): pi's TUI is stopped with its screen kept as it is and the binary
 *   draws its questions inline under pi's conversation: in regular mode on the normal screen,
 *   whose scrollback keeps the conversation (`regularHandOver`), in fullscreen mode on a
 *   hand-over screen (`handOverScreen`); then pi's TUI comes back and draws its next frame (an
 *   invalid payload is answered before any of this, `--no-input`);
 * - print mode (`pi -p`) with a terminal: the binary asks on the terminal directly;
 * - print mode without a terminal: the binary's "Needs user input" result (no terminal);
 * - RPC mode: `--dialogs`: the binary asks through pi's dialogs (`ctx.ui.select`, `input`,
 *   `editor`, `confirm`), which the client shows; this file only relays the requests;
 * - json mode: `--no-input-reason "pi is running in json mode"`: the "Needs user input"
 *   result, whose reason the model reads in pi's terms (the client owns any terminal).
 *
 * The payload and the assistant text that made the call (`--context`) reach the binary as
 * unlinked private files, its result through a pipe (`privateChannels`): nothing is left on
 * disk however the run ends. Each questionnaire is announced on `pi.events` (`ask:started`,
 * `ask:completed`) and its payload kept in the session (`ask:payload`); `/ask:replay` opens the
 * latest again, and a session resumed with an unanswered call offers it again once. Another
 * extension may answer a questionnaire that is up from elsewhere: `ask:submit` (answers by option
 * value, as eko24ive/pi-ask's remote events) is forwarded to the binary's answer channel
 * (`--answer-socket-file`, docs/elsewhere.md) and told in `ask:submit-result`. An answers
 * file (`PI_ASK_ANSWERS`) that cannot be used fails the run: stderr, an error result, exit 2.
 * The parameters hold the contract's shape, not its rules: the binary reports every problem.
 *
 * The binary's version check is started just before the first questionnaire and not waited for
 * (it never delays the first question); it is never started while a questionnaire runs. A binary
 * killed on the terminal (SIGKILL) or ending without a result cannot restore the terminal:
 * this extension does (cursor shown, `stty sane`, its alternate screen left) before pi gets it
 * back.
 *
 * The person's settings (plain mode, screen, bell, timeout, escape delay) come from pi's flags
 * (`--ask-plain` and the like), the "piAsk" object of pi's settings, or the binary's variables,
 * validated here (`resolveAskSettings`) and set on the binary's environment; `/ask-settings`
 * shows them.
 *
 * pi's abort (Esc, a cancelled turn) terminates the binary: the result is then the cancelled
 * result with `details.error.code` `aborted`, or `interrupted` when pi itself is ending on
 * SIGTERM or SIGHUP (a resumed session offers that call again). Every run of the binary is
 * bounded: the `--no-input` check, `--version`, `--help` and a run with no one to ask by a time
 * limit, a questionnaire by pi's abort; each is killed (SIGTERM, then SIGKILL). The questionnaire gets a lifeline
 * (`--lifeline-fd`, when the binary's `--help` lists it): it ends with pi, however pi ends.
 * Tool errors only when no result exists: no binary, a binary too old or not answering, or one
 * that wrote nothing (its output quoted escaped and cut).
 *
 * The binary is found via `PI_ASK_BIN`, else the installed platform package (the npm package
 * `pi-ask`'s optional dependency for this OS, CPU and C library), else `pi-ask` on PATH, else,
 * in a checkout of the repository, its `target/release/pi-ask` (this file lives in
 * `examples/pi-extension/`). The error when none is found says what to do where this file was
 * installed from: a checkout, the npm package, or a platform with no published binary.
 */

import { spawn, spawnSync, type ChildProcess, type StdioOptions } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { type Component, CURSOR_MARKER, Text, truncateToWidth, visibleWidth } from "@earendil-works/pi-tui";
import { type Static, Type } from "typebox";

/**
 * The oldest binary this extension works with: 0.6.0 takes a question's `secret` (which the
 * tool's schema offers the model; an older binary refuses the field); 0.5.0 took `--above` (which the fullscreen
 * hand-over passes, so the binary draws pi's conversation above the questions again after a
 * resize); 0.4.0 took `--no-transcript` (which the regular-mode hand-over passes) and drew the
 * compact screens; 0.3.0 drew inline
 * (`--screen inline`, and the help line's "^C dismiss" and peek key); before it,
 * `--output`, `--cwd`, `--no-input`, and the exit codes of 0.2.0 (130 for Ctrl+C/SIGINT,
 * 128 + the signal for SIGTERM/SIGHUP/SIGQUIT, each with a result written).
 */
export const MIN_BINARY_VERSION = "0.6.0";

/** How long `pi-ask --version` (and `--help`) may take before the binary is considered broken. */
const VERSION_TIMEOUT_MS = 10_000;
/** How long the `--no-input` check of a payload may take (no person in it: reading and validating). */
const CHECK_TIMEOUT_MS = 10_000;
/**
 * How long a run with no one to ask may take (scripted answers, the "Needs user input" result):
 * reading, validating and answering, an answers file up to 17 times the payload's bound.
 */
export const HEADLESS_TIMEOUT_MS = 60_000;
/** After SIGTERM (an abort, a time limit), how long the binary gets to end before SIGKILL. */
const KILL_GRACE_MS = 3_000;
/** After the binary exited, how long what it left running may hold its pipes open. */
const LATE_OUTPUT_MS = 1_000;
/** The most of a broken binary's output quoted in a tool error, in characters. */
const MAX_QUOTED_OUTPUT = 2_000;

// ---------------------------------------------------------------------------------------------
// Parameters: the contract's "Input" loosened, as the contract's project does since its v0.4.0.
// ---------------------------------------------------------------------------------------------

/*
 * pi validates a call against these parameters before the tool runs, and answers a call that
 * fails with its own generic error. So they hold only the shape the model is shown (the same
 * properties and types as `pi-ask schema input`; a test compares them) and no rule: no
 * `pattern`, no `minItems`, no `additionalProperties: false`, no enum, nothing required but
 * `questions`. Every rule is checked by the binary, whose invalid_payload result lists each
 * problem with its JSON path, code and a did-you-mean, which the model reads and can fix.
 */

const optionSchema = Type.Object({
	value: Type.Optional(Type.String({ description: "Required. Stable machine value returned in the answers; unique within the question." })),
	label: Type.Optional(Type.String({ description: "Required. Short text shown to the user." })),
	description: Type.Optional(Type.String({ description: "One-line explanation shown under the label." })),
	preview: Type.Optional(
		Type.String({
			description: "Preview text (code, a layout, a config snippet) shown for the option; required on every option of a preview question.",
		}),
	),
	recommended: Type.Optional(
		Type.Boolean({ description: "true: the option you recommend; it is marked and highlighted first, never preselected." }),
	),
});

const questionSchema = Type.Object({
	id: Type.Optional(Type.String({ description: "Required. Unique id of the question within this call; answers are keyed by it." })),
	label: Type.Optional(Type.String({ description: "Short tab label (1-3 words); defaults to Q1, Q2, ..." })),
	prompt: Type.Optional(Type.String({ description: "Required. The full question shown to the user." })),
	type: Type.Optional(
		Type.String({
			description:
				'"single" (default): one option or the user\'s own text; "multi": any number of options; "preview": one option, each with preview text.',
		}),
	),
	required: Type.Optional(Type.Boolean({ description: "Metadata only; never blocks submission. Default false." })),
	secret: Type.Optional(
		Type.Boolean({
			description: "true: the user's own typed answer is secret (a token, a password): masked on screen, never echoed; you still get it in the result. Default false.",
		}),
	),
	options: Type.Optional(Type.Array(optionSchema, { description: "Required. The choices, at least one; 2-5 is best." })),
});

/** The `ask_user` parameters (TypeBox): the contract's input shape, its rules left to the binary. */
export const askUserParameters = Type.Object({
	title: Type.Optional(Type.String({ description: "Optional title of the questionnaire." })),
	questions: Type.Array(questionSchema, { description: "The questions, at least one; group related questions in one call." }),
});

export type AskUserParams = Static<typeof askUserParameters>;

/** One `{type: "text"}` content item of a result. */
export interface TextContent {
	type: "text";
	text: string;
}

/** `details` of a result (contract "Output"), plus pi-ask's `error` on cancelled results. */
export interface AskUserDetails {
	title?: string;
	cancelled: boolean;
	questions: Array<{ id: string; label: string; prompt: string; type: "single" | "multi" | "preview" }>;
	answers: Record<
		string,
		{
			values: string[];
			labels: string[];
			indices: number[];
			customText?: string;
			note?: string;
			optionNotes?: Record<string, string>;
		}
	>;
	error?: { code: string; message: string; problems?: unknown[] };
	/** `elaborate` when the person asked about their notes instead of submitting; absent on a submit. */
	mode?: "elaborate";
	/** An elaborate result's questions to re-ask and answers to keep (docs/contract.md). */
	continuation?: unknown;
	/** An elaborate result's notes, each with its question and options, and the instruction (docs/contract.md). */
	elaboration?: unknown;
}

/** A result as the binary writes it: `{content, details}`. */
export interface AskUserResult {
	content: TextContent[];
	details: AskUserDetails;
}

// ---------------------------------------------------------------------------------------------
// Finding the binary.
// ---------------------------------------------------------------------------------------------

/** Where the binary was found, and how. */
export interface BinaryLocation {
	path: string;
	source: "PI_ASK_BIN" | "package" | "PATH" | "repository";
}

function isExecutableFile(file: string): boolean {
	try {
		if (!fs.statSync(file).isFile()) return false;
		fs.accessSync(file, fs.constants.X_OK);
		return true;
	} catch {
		return false;
	}
}

/** The directory of this file (jiti, which loads extensions, provides `import.meta.url`). */
function extensionDir(): string {
	return path.dirname(fileURLToPath(import.meta.url));
}

/**
 * Whether this Linux process runs on glibc: Node's diagnostic report has
 * `header.glibcVersionRuntime` only there (Node's documented way to tell glibc from musl).
 * `undefined` when the report cannot be had.
 */
export function isGlibc(getReport: () => unknown = () => process.report?.getReport()): boolean | undefined {
	try {
		const header = (getReport() as { header?: { glibcVersionRuntime?: unknown } } | undefined)?.header;
		if (!header) return undefined;
		return typeof header.glibcVersionRuntime === "string";
	} catch {
		return undefined;
	}
}

/**
 * The npm packages that may carry the binary for this platform, best first: one per
 * platform (`pi-ask-<os>-<cpu>[-<libc>]`, the optional dependencies of `pi-ask`). On Linux the
 * C library is checked at run time, since not every package manager honours `libc` and both
 * may be installed: on glibc the gnu build, then the (static) musl one; on musl only the musl
 * build; when the C library is unknown, musl first (it runs on either).
 */
export function platformPackages(platform: string, arch: string, glibc: boolean | undefined): string[] {
	if (arch !== "x64" && arch !== "arm64") return [];
	if (platform === "darwin") return [`pi-ask-darwin-${arch}`];
	if (platform !== "linux") return [];
	const gnu = `pi-ask-linux-${arch}-gnu`;
	const musl = `pi-ask-linux-${arch}-musl`;
	if (glibc === true) return [gnu, musl];
	if (glibc === false) return [musl];
	return [musl, gnu];
}

/** How {@link findBinary} sees the host; the defaults are this process's. */
export interface BinaryHost {
	/** The checkout whose `target/release/pi-ask` is the last resort. */
	repoRoot?: string;
	platform?: string;
	arch?: string;
	/** Whether the C library is glibc (see {@link isGlibc}); asked only on Linux. */
	glibc?: () => boolean | undefined;
	/** The directory the platform packages are resolved from (Node's module resolution). */
	resolveFrom?: string;
}

/** The `bin/pi-ask` of the installed package `name`, resolved as `import` would from `from`. */
function packageBinary(name: string, from: string): string | undefined {
	try {
		const manifest = createRequire(path.join(from, "index.ts")).resolve(`${name}/package.json`);
		return path.join(path.dirname(manifest), "bin", "pi-ask");
	} catch {
		return undefined;
	}
}

/**
 * Finds the binary, in this order: `PI_ASK_BIN` (which must then be an executable file); the
 * installed platform package (`pi-ask-linux-x64-gnu` and the like, the optional dependencies
 * of the npm package `pi-ask`); `pi-ask` on PATH; `<repository>/target/release/pi-ask` when
 * this file is in a checkout of the repository. Throws an Error that names what was tried and
 * says how to fix it where this file was installed from.
 */
export function findBinary(env: NodeJS.ProcessEnv = process.env, host: BinaryHost = {}): BinaryLocation {
	const fromEnv = env.PI_ASK_BIN?.trim();
	if (fromEnv) {
		if (isExecutableFile(fromEnv)) return { path: path.resolve(fromEnv), source: "PI_ASK_BIN" };
		throw new Error(`PI_ASK_BIN is set to ${JSON.stringify(fromEnv)}, which is not an executable file.`);
	}
	const platform = host.platform ?? process.platform;
	const arch = host.arch ?? process.arch;
	const glibc = platform === "linux" ? (host.glibc ?? cachedGlibc)() : undefined;
	const packages = platformPackages(platform, arch, glibc);
	const from = host.resolveFrom ?? extensionDir();
	for (const name of packages) {
		const file = packageBinary(name, from);
		if (!file || !fs.existsSync(file)) continue;
		// Some installers drop the executable bit of package files.
		if (!isExecutableFile(file)) {
			try {
				fs.chmodSync(file, 0o755);
			} catch {}
		}
		if (isExecutableFile(file)) return { path: file, source: "package" };
	}
	for (const dir of (env.PATH ?? "").split(path.delimiter)) {
		if (!dir) continue;
		const candidate = path.join(dir, "pi-ask");
		if (isExecutableFile(candidate)) return { path: candidate, source: "PATH" };
	}
	const repoRoot = host.repoRoot ?? path.resolve(extensionDir(), "..", "..");
	const checkout = isCheckout(repoRoot);
	const built = path.join(repoRoot, "target", "release", "pi-ask");
	if (checkout && isExecutableFile(built)) return { path: built, source: "repository" };
	const tried = [
		"PI_ASK_BIN (not set)",
		packages.length > 0
			? `the npm package${packages.length > 1 ? "s" : ""} ${packages.join(", ")} (not installed)`
			: `an npm package for ${platform}-${arch} (none is published)`,
		"`pi-ask` on PATH",
		...(checkout ? [built] : []),
	];
	// What to do depends on where this extension was installed from: a checkout of the pi-ask
	// repository (`pi -e ./examples/pi-extension/index.ts`) builds the binary; the npm package
	// brings it as an optional dependency, unless the platform has none.
	const fix = checkout
		? "Build it with `cargo build --release` in this checkout, or install it with `cargo install --path .` in the pi-ask repository " +
			"(puts `pi-ask` on PATH), or set PI_ASK_BIN to its path."
		: packages.length > 0
			? `The binary comes with the npm package pi-ask as its optional dependency ${packages.join(" or ")}: install pi-ask again ` +
				"with its optional dependencies (`pi install npm:pi-ask`; not npm's --omit=optional), put a pi-ask on PATH " +
				"(`cargo install pi-ask`), or set PI_ASK_BIN to its path."
			: `No prebuilt pi-ask is published for ${platform}-${arch}: build one with \`cargo install pi-ask\` (Rust 1.85 or newer; ` +
				"puts `pi-ask` on PATH), or set PI_ASK_BIN to a pi-ask binary.";
	throw new Error(`The pi-ask binary was not found; tried ${tried.join("; ")}. ${fix}`);
}

/**
 * Whether `root` is a checkout of the pi-ask repository (this file in its
 * `examples/pi-extension/`), not an installed package: its Cargo.toml names the pi-ask crate.
 */
function isCheckout(root: string): boolean {
	try {
		return /^name = "pi-ask"$/m.test(fs.readFileSync(path.join(root, "Cargo.toml"), "utf8"));
	} catch {
		return false;
	}
}

let glibcCache: { value: boolean | undefined } | undefined;
function cachedGlibc(): boolean | undefined {
	glibcCache ??= { value: isGlibc() };
	return glibcCache.value;
}

/** Compares dotted versions numerically: negative when `a < b`. */
export function compareVersions(a: string, b: string): number {
	const pa = a.split(".").map((n) => Number.parseInt(n, 10) || 0);
	const pb = b.split(".").map((n) => Number.parseInt(n, 10) || 0);
	for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
		const d = (pa[i] ?? 0) - (pb[i] ?? 0);
		if (d !== 0) return d;
	}
	return 0;
}

/** What {@link runProbe} saw of one short run of the binary. */
interface ProbeOutcome {
	code: number | null;
	stdout: string;
	stderr: string;
	/** Whether it ran out of time and was killed. */
	timedOut: boolean;
	/** Whether `signal` fired and it was killed. */
	aborted: boolean;
	error?: Error;
}

/** How long an `ask:submit` waits for the binary to say its answer channel (it does as it starts). */
const CHANNEL_WAIT_MS = 5_000;

/** The most of a probe's stdout and stderr kept, each. */
const MAX_PROBE_OUTPUT = 64 * 1024;

/**
 * Runs `<bin> args` without a terminal for a short answer (`--version`, `--help`), in its own
 * session (detached: a Ctrl+C or SIGINT meant for a questionnaire never reaches it), and kills
 * its process group when it takes longer than `timeoutMs` or `signal` fires: SIGTERM, then
 * SIGKILL after {@link KILL_GRACE_MS}. Resolves once it has ended (what it left running may
 * hold its pipes for {@link LATE_OUTPUT_MS} more); keeps {@link MAX_PROBE_OUTPUT} of each stream.
 */
function runProbe(bin: string, args: string[], timeoutMs: number, signal?: AbortSignal): Promise<ProbeOutcome> {
	return new Promise((resolve) => {
		let stdout = "";
		let stderr = "";
		let timedOut = false;
		let aborted = false;
		let error: Error | undefined;
		let child: ChildProcess;
		try {
			child = spawn(bin, args, { stdio: ["ignore", "pipe", "pipe"], detached: true });
		} catch (e) {
			resolve({ code: null, stdout, stderr, timedOut, aborted, error: e as Error });
			return;
		}
		const stop = stopper(child, true);
		const onAbort = () => {
			aborted = true;
			stop.kill();
		};
		const timer = setTimeout(() => {
			timedOut = true;
			stop.kill();
		}, timeoutMs);
		child.stdout?.on("data", (d) => {
			if (stdout.length < MAX_PROBE_OUTPUT) stdout += d;
		});
		child.stderr?.on("data", (d) => {
			if (stderr.length < MAX_PROBE_OUTPUT) stderr += d;
		});
		child.on("error", (e) => {
			error = e;
		});
		child.on("exit", () => stop.exited());
		child.on("close", (code) => {
			clearTimeout(timer);
			stop.done();
			signal?.removeEventListener("abort", onAbort);
			resolve({ code, stdout, stderr, timedOut, aborted, error });
		});
		if (signal?.aborted) onAbort();
		else signal?.addEventListener("abort", onAbort, { once: true });
	});
}

/**
 * How a child of the extension is ended: `kill()` sends SIGTERM (to its process group when
 * `group`: it was started detached), then SIGKILL after {@link KILL_GRACE_MS}; `exited()`, on
 * its exit, gives what it left running {@link LATE_OUTPUT_MS} to let go of its pipes, then
 * closes them (the child's `close` comes then); `done()` clears the timers.
 */
function stopper(child: ChildProcess, group: boolean): { kill: () => void; exited: () => void; done: () => void } {
	let killTimer: NodeJS.Timeout | undefined;
	let lateTimer: NodeJS.Timeout | undefined;
	let gone = false;
	const send = (sig: NodeJS.Signals) => {
		if (group && child.pid !== undefined) {
			try {
				process.kill(-child.pid, sig);
				return;
			} catch {
				// the group is gone: the child alone
			}
		}
		if (!gone) child.kill(sig);
	};
	return {
		kill() {
			if (killTimer || gone) return;
			send("SIGTERM");
			killTimer = setTimeout(() => send("SIGKILL"), KILL_GRACE_MS);
		},
		exited() {
			gone = true;
			lateTimer ??= setTimeout(() => {
				for (const stream of child.stdio) stream?.destroy();
			}, LATE_OUTPUT_MS);
		},
		done() {
			if (killTimer) clearTimeout(killTimer);
			if (lateTimer) clearTimeout(lateTimer);
		},
	};
}

/**
 * `text` (a binary's output) fit for a tool error: escaped as {@link safe} escapes it (no
 * control character but newline and tab, so no escape sequence) and cut to `max` characters,
 * with how many were cut.
 */
export function quotedOutput(text: string, max = MAX_QUOTED_OUTPUT): string {
	let out = "";
	let used = 0;
	for (const c of text.slice(0, max + 1)) {
		const shown = safe(c);
		if (out.length + shown.length > max) break;
		out += shown;
		used += c.length;
	}
	const rest = text.length - used;
	return rest > 0 ? `${out}… (${rest} more characters cut)` : out;
}

/** The key of a binary's cached answers: its path and modification time (a rebuilt binary is asked again). */
function binaryKey(bin: string): string {
	try {
		return `${bin}:${fs.statSync(bin).mtimeMs}`;
	} catch {
		return bin;
	}
}

const checkedVersions = new Map<string, string>();

/**
 * Runs `<bin> --version` and throws when it fails, takes longer than {@link VERSION_TIMEOUT_MS}
 * (it is killed), or is older than {@link MIN_BINARY_VERSION}. Killed when `signal` fires (then
 * it throws too; the caller has an aborted result to give).
 */
export async function checkBinaryVersion(bin: string, signal?: AbortSignal): Promise<string> {
	const key = binaryKey(bin);
	const known = checkedVersions.get(key);
	if (known) return known;
	const { code, stdout, stderr, timedOut, aborted, error } = await runProbe(bin, ["--version"], VERSION_TIMEOUT_MS, signal);
	if (aborted) throw new Error("the version check was cancelled");
	if (timedOut) throw new Error(`${bin} does not look like pi-ask: \`--version\` gave no answer within ${VERSION_TIMEOUT_MS / 1000} s (it was killed).`);
	const match = /^pi-ask (\d+\.\d+\.\d+)/m.exec(stdout);
	if (code !== 0 || !match) {
		const printed = (stdout + stderr + (error ? String(error) : "")).trim();
		throw new Error(`${bin} does not look like pi-ask: \`--version\` exited with ${code} and printed "${quotedOutput(printed, 200)}".`);
	}
	const version = match[1];
	if (compareVersions(version, MIN_BINARY_VERSION) < 0) {
		throw new Error(`${bin} is pi-ask ${version}, which is too old: this extension needs pi-ask ${MIN_BINARY_VERSION} or newer.`);
	}
	checkedVersions.set(key, version);
	return version;
}

/** The binary's `--help`, asked once per binary (path and modification time) for the flags it lists. */
const helps = new Map<string, Promise<{ code: number | null; stdout: string; aborted: boolean }>>();

/** The binary's `--help` ({@link runProbe}, with the version check's time limit); one that was aborted is asked again next time. */
function binaryHelp(bin: string, signal?: AbortSignal): Promise<{ code: number | null; stdout: string; aborted: boolean }> {
	const key = binaryKey(bin);
	let help = helps.get(key);
	if (!help) {
		help = runProbe(bin, ["--help"], VERSION_TIMEOUT_MS, signal).then(({ code, stdout, aborted }) => {
			if (aborted) helps.delete(key);
			return { code, stdout, aborted };
		});
		helps.set(key, help);
	}
	return help;
}

const lifelines = new Map<string, boolean>();

/**
 * Whether the binary takes `--lifeline-fd N` (docs/interactive.md, "The caller's lifeline"):
 * its `--help` lists the flag. A binary built before the flag (its version may be the same) would
 * refuse it (a usage error, no questionnaire), so it is passed only when listed. Asked once per
 * binary (path and modification time), before any questionnaire, with the version check's
 * time limit; false when `--help` fails.
 */
export async function binaryTakesLifeline(bin: string, signal?: AbortSignal): Promise<boolean> {
	const key = binaryKey(bin);
	const known = lifelines.get(key);
	if (known !== undefined) return known;
	const { code, stdout, aborted } = await binaryHelp(bin, signal);
	if (aborted) return false;
	const takes = code === 0 && /(^|\s)--lifeline-fd\b/m.test(stdout);
	lifelines.set(key, takes);
	return takes;
}

const answerChannels = new Map<string, boolean>();

/**
 * Whether the binary has an answer channel it can say on a descriptor (`--answer-socket-file`,
 * docs/elsewhere.md): its `--help` lists the flag, as for {@link binaryTakesLifeline} (the same
 * `--help` run).
 */
export async function binaryTakesAnswerChannel(bin: string, signal?: AbortSignal): Promise<boolean> {
	const key = binaryKey(bin);
	const known = answerChannels.get(key);
	if (known !== undefined) return known;
	const { code, stdout, aborted } = await binaryHelp(bin, signal);
	if (aborted) return false;
	const takes = code === 0 && /(^|\s)--answer-socket-file\b/m.test(stdout);
	answerChannels.set(key, takes);
	return takes;
}

/** How long {@link sendAnswerRequest} waits for the channel's reply (the binary's own bound is 10 s). */
const ANSWER_REPLY_MS = 15_000;

/** The answer channel's reply (docs/elsewhere.md "The reply"). */
export interface AnswerReply {
	status: "ok" | "invalid" | "stale" | "already_answered" | "busy";
	message?: string;
	problems?: Array<{ code: string; path: string; message: string }>;
}

/**
 * Sends one answer request (an answers document with `id`, `action`, `from`) to the answer
 * channel at `socket` and resolves with its reply; rejects when the socket cannot be reached
 * (the questions are no longer asked) or no reply comes within {@link ANSWER_REPLY_MS}.
 */
export function sendAnswerRequest(socket: string, request: unknown): Promise<AnswerReply> {
	return new Promise((resolve, reject) => {
		const conn = net.createConnection(socket);
		const chunks: Buffer[] = [];
		const timer = setTimeout(() => conn.destroy(new Error("the answer channel did not reply in time")), ANSWER_REPLY_MS);
		conn.on("connect", () => conn.end(JSON.stringify(request)));
		conn.on("data", (d: Buffer) => chunks.push(d));
		conn.on("error", (e) => {
			clearTimeout(timer);
			reject(e);
		});
		conn.on("close", () => {
			clearTimeout(timer);
			try {
				resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")) as AnswerReply);
			} catch {
				reject(new Error("the answer channel closed without a reply"));
			}
		});
	});
}

// ---------------------------------------------------------------------------------------------
// Choosing how to run it.
// ---------------------------------------------------------------------------------------------

/** Whether a controlling terminal can be opened, the same test the binary makes. */
export function terminalAvailable(): boolean {
	try {
		fs.closeSync(fs.openSync("/dev/tty", "r+"));
		return true;
	} catch {
		return false;
	}
}

/** How one run of the binary ended. */
interface RunOutcome {
	exitCode: number | null;
	signal: NodeJS.Signals | null;
	/** The spawn error, when the binary could not be started. */
	error?: Error;
	/** Whether pi's abort signal fired while it ran (the child was terminated). */
	aborted: boolean;
	/** Whether it ran out of its time limit (the child was terminated). */
	timedOut: boolean;
	/** Captured stderr (headless runs only; on a terminal it goes to the terminal). */
	stderr: string;
	/** What the binary wrote to its `--output` ({@link RESULT_FD}); empty when it wrote nothing. */
	result: string;
}

/**
 * The binary's file descriptors for what it reads and writes besides the terminal: the
 * payload and the asking text are files nobody else can read, unlinked before it starts
 * ({@link privateFiles}), which it opens as `/dev/fd/N`; its result comes back on a pipe.
 * Nothing is left in a folder when pi, the binary or the terminal goes away.
 */
const PAYLOAD_FD = 3;
const RESULT_FD = 4;
const CONTEXT_FD = 5;
/** The hand-over screen's lines (`--above`), in pi's fullscreen mode. */
const ABOVE_FD = 6;
/**
 * The lifeline (`--lifeline-fd`): one end of a socket pair whose other end only pi holds and
 * never writes, so the binary reads its end-of-file when pi is gone, however pi ended (a
 * SIGKILL, an out-of-memory kill); it then restores the terminal and exits.
 */
export const LIFELINE_FD = 7;
/**
 * Where the binary says its answer channel (`--answer-socket-file /dev/fd/8`): one JSON line
 * `{answerSocket, answerId}` on a pipe only pi reads (docs/elsewhere.md).
 */
export const ANSWER_FD = 8;

/** The binary's answer channel, as it says it on {@link ANSWER_FD}. */
export interface AnswerChannel {
	/** The socket `pi-ask answer` (or {@link sendAnswerRequest}) writes to. */
	socket: string;
	/** The questionnaire's id, which a request names. */
	id: string;
}
/** The most of pi's conversation passed with `--above`: its last lines, more than any window's rows. */
const ABOVE_MAX_LINES = 1000;
/** The most of a result read from the binary (a result is bounded by the payload's bound and the answers'). */
const MAX_RESULT_BYTES = 256 * 1024 * 1024;

/**
 * Spawns the binary and resolves when it has closed. On `signal` abort, or after `timeoutMs`,
 * the child gets SIGTERM (on abort it then writes a cancelled result with `error.code`
 * `aborted`), and SIGKILL after {@link KILL_GRACE_MS}; `detached` starts it in its own session
 * (no terminal: the signals go to its process group). The `channels` ({@link privateChannels})
 * are the child's descriptors: the first file as {@link PAYLOAD_FD}, the second (when there is
 * one) as {@link CONTEXT_FD}, the pipe's write end as {@link RESULT_FD}, whose text is the
 * outcome's `result`, and `above` (when set) as {@link ABOVE_FD}. With `lifeline`, a socket as
 * {@link LIFELINE_FD} and `--lifeline-fd` with it: this end stays open, unwritten, until the
 * child has closed. Use the channels for one run.
 */
function runBinary(
	bin: string,
	args: string[],
	opts: {
		cwd: string;
		stdio: "inherit" | ["ignore" | "pipe", "ignore" | "pipe", "pipe"];
		channels: PrivateChannels;
		signal?: AbortSignal;
		onSpawn?: (child: ChildProcess) => void;
		env?: NodeJS.ProcessEnv;
		timeoutMs?: number;
		detached?: boolean;
		lifeline?: boolean;
		/** Called with the answer channel the binary says on {@link ANSWER_FD} (`--answer-socket-file`). */
		answerChannel?: (channel: AnswerChannel) => void;
	},
): Promise<RunOutcome> {
	return new Promise((resolve) => {
		let child: ChildProcess;
		let aborted = false;
		let timedOut = false;
		let stderr = "";
		const result: Buffer[] = [];
		let resultBytes = 0;
		const { channels } = opts;
		const { closed } = channels;
		const base: StdioOptions = opts.stdio === "inherit" ? ["inherit", "inherit", "inherit"] : opts.stdio;
		const later: (number | "ignore" | "pipe")[] = [];
		const beyond = opts.lifeline || !!opts.answerChannel;
		if (channels.files[1] !== undefined || channels.above !== undefined || beyond) later.push(channels.files[1] ?? "ignore");
		if (channels.above !== undefined || beyond) later.push(channels.above ?? "ignore");
		if (beyond) later.push(opts.lifeline ? "pipe" : "ignore");
		if (opts.answerChannel) later.push("pipe");
		const stdio = [...(base as unknown[]), channels.files[0] ?? "ignore", channels.resultWrite, ...later] as StdioOptions;
		let runArgs = opts.lifeline ? [...args, "--lifeline-fd", String(LIFELINE_FD)] : args;
		if (opts.answerChannel) runArgs = [...runArgs, "--answer-socket-file", `/dev/fd/${ANSWER_FD}`];
		try {
			child = spawn(bin, runArgs, { cwd: opts.cwd, stdio, env: opts.env ?? process.env, detached: opts.detached ?? false });
		} catch (error) {
			resolve({ exitCode: null, signal: null, error: error as Error, aborted: false, timedOut: false, stderr, result: "" });
			return;
		}
		const stop = stopper(child, opts.detached ?? false);
		const onAbort = () => {
			aborted = true;
			stop.kill();
		};
		const timer =
			opts.timeoutMs !== undefined
				? setTimeout(() => {
						timedOut = true;
						stop.kill();
					}, opts.timeoutMs)
				: undefined;
		// The lifeline: read (nothing comes), never written, closed with the child.
		const lifeline = (child.stdio as unknown[])[LIFELINE_FD] as net.Socket | null | undefined;
		lifeline?.on("error", () => {});
		lifeline?.resume();
		// The answer channel's line: read once, the rest drained.
		const said = opts.answerChannel ? ((child.stdio as unknown[])[ANSWER_FD] as net.Socket | null | undefined) : undefined;
		if (said && opts.answerChannel) {
			said.on("error", () => {});
			const told = opts.answerChannel;
			createInterface({ input: said }).once("line", (line) => {
				try {
					const v = JSON.parse(line) as { answerSocket?: unknown; answerId?: unknown };
					if (typeof v.answerSocket === "string" && typeof v.answerId === "string") told({ socket: v.answerSocket, id: v.answerId });
				} catch {
					// Not the binary's line: no channel.
				}
			});
		}
		// The child has its own write end now: with ours closed, the pipe ends when it does.
		closed.add(channels.resultWrite);
		fs.closeSync(channels.resultWrite);
		const pipe = new net.Socket({ fd: channels.resultRead, readable: true, writable: false });
		closed.add(channels.resultRead); // the socket closes it
		let pipeDone = false;
		let exited: { exitCode: number | null; signal: NodeJS.Signals | null } | undefined;
		let spawnError: Error | undefined;
		let lateTimer: NodeJS.Timeout | undefined;
		const finish = () => {
			if (!exited || !pipeDone) return;
			stop.done();
			if (timer) clearTimeout(timer);
			if (lateTimer) clearTimeout(lateTimer);
			opts.signal?.removeEventListener("abort", onAbort);
			resolve({ ...exited, error: spawnError, aborted, timedOut, stderr, result: Buffer.concat(result).toString("utf8") });
		};
		pipe.on("data", (d: Buffer) => {
			resultBytes += d.length;
			if (resultBytes <= MAX_RESULT_BYTES) result.push(d);
		});
		pipe.on("error", () => {});
		pipe.on("close", () => {
			pipeDone = true;
			finish();
		});
		child.stderr?.on("data", (d) => {
			if (stderr.length < 64 * 1024) stderr += d;
		});
		child.on("error", (e) => {
			spawnError = e;
		});
		// A process the binary left behind could hold its pipes open: not for long.
		child.on("exit", () => {
			stop.exited();
			lateTimer ??= setTimeout(() => pipe.destroy(), LATE_OUTPUT_MS);
		});
		child.on("close", (exitCode, sig) => {
			exited = { exitCode, signal: sig };
			lateTimer ??= setTimeout(() => pipe.destroy(), LATE_OUTPUT_MS);
			finish();
		});
		if (opts.signal?.aborted) onAbort();
		else opts.signal?.addEventListener("abort", onAbort, { once: true });
		opts.onSpawn?.(child);
	});
}

/**
 * The folder the private files are written in for the moment before they are unlinked: the
 * user's runtime directory (`XDG_RUNTIME_DIR`: the user's own, mode 0700, memory only, emptied
 * at logout) when it is one, else the temporary directory.
 */
export function privateBase(env: NodeJS.ProcessEnv = process.env): string {
	const runtime = env.XDG_RUNTIME_DIR;
	if (runtime && path.isAbsolute(runtime)) {
		try {
			const meta = fs.statSync(runtime);
			if (meta.isDirectory() && (meta.mode & 0o077) === 0 && (typeof process.getuid !== "function" || meta.uid === process.getuid())) return runtime;
		} catch {
			// not there: the temporary directory
		}
	}
	return os.tmpdir();
}

/** What {@link privateChannels} opens: the files' descriptors and the result pipe's two ends. */
export interface PrivateChannels {
	/** Read-only descriptors of the files holding the texts, in order. */
	files: number[];
	/** The pipe's write end, the binary's {@link RESULT_FD}. */
	resultWrite: number;
	/** The pipe's read end (non-blocking), where the result is read. */
	resultRead: number;
	/** The descriptors already closed (or handed to a stream that closes them). */
	closed: Set<number>;
	/** A file the hand-over adds ({@link privateFile}), the binary's {@link ABOVE_FD}. */
	above?: number;
}

/**
 * Files holding `texts` and a pipe for the result, none of which has a name any more: in a new
 * 0700 folder (`pi-ask-XXXXXX` in {@link privateBase}) each text is written as a 0600 file
 * and opened, a FIFO (`mkfifo`, mode 0600) is opened at both ends, then each is unlinked and
 * the folder removed, before this returns (synchronously, but for `mkfifo`: nothing but a kill
 * in these few milliseconds can leave them on disk). The binary opens them as `/dev/fd/N`,
 * which gives a file from its start, or the pipe. A plain Node pipe would not do: Node's
 * `"pipe"` is a socket, which cannot be opened by path. Close every descriptor with
 * {@link closeChannels}.
 */
export function privateChannels(texts: readonly string[], base = privateBase()): PrivateChannels {
	const dir = fs.mkdtempSync(path.join(base, "pi-ask-"));
	const opened: number[] = [];
	try {
		const files = texts.map((text, i) => writeUnlinked(dir, String(i), text, opened));
		const fifo = path.join(dir, "result");
		const made = spawnSync("mkfifo", ["-m", "600", fifo], { stdio: "ignore", timeout: 5_000 });
		if (made.status !== 0) throw new Error(`cannot make a pipe for the result with mkfifo (${made.error?.message ?? `exit ${made.status}`})`);
		const resultRead = fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
		opened.push(resultRead);
		const resultWrite = fs.openSync(fifo, fs.constants.O_WRONLY);
		opened.push(resultWrite);
		fs.unlinkSync(fifo);
		return { files, resultWrite, resultRead, closed: new Set() };
	} catch (error) {
		for (const fd of opened) fs.closeSync(fd);
		throw error;
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

/**
 * Writes `text` to a new 0600 file `name` in `dir`, opens it, unlinks it and returns its
 * descriptor (also pushed on `opened`), whose offset is at the file's start.
 */
function writeUnlinked(dir: string, name: string, text: string, opened: number[]): number {
	const file = path.join(dir, name);
	const fd = fs.openSync(file, "wx+", 0o600);
	opened.push(fd);
	const bytes = Buffer.from(text, "utf8");
	// At position 0, leaving the descriptor's offset at the start.
	fs.writeSync(fd, bytes, 0, bytes.length, 0);
	fs.unlinkSync(file);
	return fd;
}

/**
 * A file holding `text` that has no name any more, as {@link privateChannels} makes them (a
 * 0600 file in a new 0700 folder, both gone before this returns): its read-only descriptor.
 */
export function privateFile(text: string, base = privateBase()): number {
	const dir = fs.mkdtempSync(path.join(base, "pi-ask-"));
	const opened: number[] = [];
	try {
		return writeUnlinked(dir, "0", text, opened);
	} catch (error) {
		for (const fd of opened) fs.closeSync(fd);
		throw error;
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

/** Closes what {@link privateChannels} opened and is still open here. */
function closeChannels(channels: PrivateChannels): void {
	const { closed } = channels;
	for (const fd of [...channels.files, channels.resultWrite, channels.resultRead, ...(channels.above !== undefined ? [channels.above] : [])]) {
		if (closed.has(fd)) continue;
		closed.add(fd);
		try {
			fs.closeSync(fd);
		} catch {}
	}
}

/**
 * Makes pi ignore SIGINT and SIGQUIT until the returned release function is called. While the
 * binary owns the terminal, the terminal is in cooked mode between prompts, so a Ctrl+C (or
 * Ctrl+\) sends the signal to pi's whole process group and, with no listener, would kill pi;
 * the binary handles it itself (the questionnaire is cancelled). Release only after the child
 * has closed: the listeners are removed in a `setImmediate`, so a signal still being delivered
 * is caught too.
 */
function ignoreTerminalSignals(): () => void {
	const ignore = () => {};
	const signals = ["SIGINT", "SIGQUIT"] as const;
	for (const s of signals) process.on(s, ignore);
	return () =>
		setImmediate(() => {
			for (const s of signals) process.removeListener(s, ignore);
		});
}

/** The part of Node's internal TTY handle of `process.stdin` used by {@link holdStdin}. */
interface StdinHandle {
	reading?: boolean;
	readStart?: () => number;
	readStop?: () => number;
}

/**
 * Stops pi's reads of the terminal until the returned release function is called.
 *
 * pi's `tui.stop()` only pauses `process.stdin`, and a paused Node stream still reads the
 * terminal into its buffer (until 16 KiB are buffered). While the binary owns the terminal,
 * pi and the binary would both read it, and every key the binary is not blocked on at that
 * moment (e.g. one typed just after a prompt is drawn) would go to pi instead. So the TTY
 * handle's reading is stopped here, the way Node's own `Socket.pause()` does it for its
 * buffered mode, and restarted on release, after `tui.start()` has resumed the stream.
 * Without such a handle (not a TTY, another runtime) this does nothing.
 */
function holdStdin(): () => void {
	const handle = (process.stdin as unknown as { _handle?: StdinHandle })._handle;
	if (!handle?.reading || typeof handle.readStop !== "function" || typeof handle.readStart !== "function") {
		return () => {};
	}
	handle.readStop();
	handle.reading = false;
	return () => {
		// tui.start() resumed the stream; Node restarts the handle itself only when the stream
		// had no read pending, so restart it here if it is still stopped.
		if (!handle.reading && !process.stdin.destroyed) {
			handle.reading = true;
			handle.readStart?.();
		}
	};
}

/**
 * What the binary's own restore writes when it ends (src/terminal.rs): attributes reset,
 * bracketed paste off, cursor visible; and the alternate screen left when it drew there
 * (`--screen full`).
 */
export const TERMINAL_RESET = "\x1b[0m\x1b[?2004l\x1b[?25h";
const LEAVE_ALTERNATE_SCREEN = "\x1b[?1049l";

/**
 * Whether the binary will draw on its own alternate screen: `PI_ASK_SCREEN=full`, which the
 * binary reads itself (`--screen`); otherwise it draws inline, at the cursor.
 */
export function binaryUsesFullScreen(env: NodeJS.ProcessEnv = process.env): boolean {
	return env.PI_ASK_SCREEN === "full";
}

/** Whether the binary will ask in plain mode (`PI_ASK_PLAIN`, which it reads itself; `--ask-plain` sets it). */
export function binaryUsesPlain(env: NodeJS.ProcessEnv = process.env): boolean {
	const value = env.PI_ASK_PLAIN;
	if (value === undefined || value.trim() === "") return false;
	try {
		return parseSwitch(value);
	} catch {
		return false;
	}
}

/**
 * Puts the terminal back after a binary that could not restore it itself (killed by a
 * signal, e.g. SIGKILL, or ended without a result): {@link TERMINAL_RESET} on `/dev/tty`
 * (and the alternate screen left, when the binary drew there: `leaveAlternateScreen`), and
 * `stty sane` for the modes it left (raw mode, echo off), before the terminal goes back to
 * pi. Only on that path: a binary that ends normally has restored everything already.
 */
function restoreTerminal(leaveAlternateScreen: boolean): void {
	let fd: number | undefined;
	try {
		fd = fs.openSync("/dev/tty", "r+");
		fs.writeSync(fd, TERMINAL_RESET + (leaveAlternateScreen ? LEAVE_ALTERNATE_SCREEN : "\r\n"));
		spawnSync("stty", ["sane"], { stdio: [fd, "ignore", "ignore"], timeout: 2_000 });
	} catch {
		// No terminal: nothing to restore.
	} finally {
		if (fd !== undefined) fs.closeSync(fd);
	}
}

// ---------------------------------------------------------------------------------------------
// Handing pi's terminal over in the TUI.
// ---------------------------------------------------------------------------------------------

/**
 * The component `ctx.ui.custom` shows while the binary runs, in place of pi's editor, as pi
 * shows its own dialogs: under the conversation. It draws nothing on pi's screen; only while
 * {@link linesAbove} reads pi's document is it one marker line, which finds the lines above it.
 */
class QuestionnairePlace implements Component {
	private readonly mark = `pi-ask:questionnaire:${process.pid}:${Date.now().toString(36)}`;
	private marking = false;

	render(_width: number): string[] {
		return this.marking ? [this.mark] : [];
	}

	invalidate(): void {}

	/**
	 * pi's document above this component at the terminal's width (none when it is not found):
	 * pi's components in order (the conversation down to the ask_user call, pi's status lines,
	 * then this one in the editor's place), each drawn as regular mode draws them. Not
	 * `tui.render()`: in fullscreen mode that is the layout, whose transcript has no height
	 * outside a frame.
	 */
	linesAbove(tui: { children: readonly Component[]; terminal: { columns: number } }): string[] {
		const width = Math.max(1, tui.terminal.columns);
		const lines: string[] = [];
		this.marking = true;
		try {
			for (const child of tui.children) {
				const rendered = child.render(width);
				const at = rendered.findIndex((line) => line.includes(this.mark));
				if (at >= 0) return [...lines, ...rendered.slice(0, at)];
				lines.push(...rendered);
			}
		} catch {
			// A component that cannot be drawn outside pi's frame: nothing above.
		} finally {
			this.marking = false;
		}
		return [];
	}
}

/** pi's semantic-prompt marks (OSC 133), which a terminal would take for a new shell prompt. */
const OSC133 = /\x1b\]133;[ABC](?:\x07|\x1b\\)/g;
/** Kitty or iTerm2 image lines: not copied to the hand-over screen. */
const IMAGE_LINE = /\x1b_G|\x1b\]1337;File=/;

/**
 * The lines of the hand-over screen: `above` (pi's conversation as pi draws it, see
 * {@link QuestionnairePlace}) without pi's semantic-prompt marks and cursor marker, image lines
 * blank, each cut to `columns`, the empty lines at the end dropped.
 */
export function handOverLines(above: readonly string[], columns: number): string[] {
	const width = Math.max(1, columns);
	const lines = above.map((line) => (IMAGE_LINE.test(line) ? "" : truncateToWidth(line.replace(OSC133, "").replaceAll(CURSOR_MARKER, ""), width, "…")));
	while (lines.length > 0 && visibleWidth(lines[lines.length - 1]) === 0) lines.pop();
	return lines;
}

/**
 * The hand-over screen: a fresh alternate screen showing the end of `above`'s lines
 * ({@link handOverLines}) at `columns`, at most `rows - 1` of them, with the cursor on the row under it,
 * where the binary draws its questionnaire inline. The binary is given the same lines
 * (`--above`), and draws their end above the questions again after a resize (the alternate
 * screen has no history: a smaller window drops its top rows) or when its block gets shorter.
 *
 * Why not the normal screen: there the questionnaire would go either under the shell's lines
 * (fullscreen pi, whose conversation is on its alternate screen) or under pi's frame in
 * regular mode, whose render state would then be wrong: pi could only redraw by clearing the
 * screen and the scrollback, the shell's lines from before pi with them, and every question
 * would leave its lines between pi's. On this screen both of pi's screens stay as pi left
 * them; {@link LEAVE_HAND_OVER_SCREEN} brings back pi's screen and cursor, and pi's next frame
 * is an ordinary update.
 */
export function handOverScreen(above: readonly string[], columns: number, rows: number): string {
	return screenOf(handOverLines(above, columns), rows);
}

/** The hand-over screen showing the end of `lines` ({@link handOverLines}) in `rows` rows. */
function screenOf(lines: readonly string[], rows: number): string {
	let out = "\x1b[?2026h\x1b[?1049h\x1b[0m\x1b[H\x1b[2J";
	for (const line of lines.slice(-Math.max(0, rows - 1))) out += `${line}\x1b[0m\r\n`;
	return `${out}\x1b[?2026l`;
}

/** Leaves the hand-over screen: pi's screen again, its cursor where pi left it. */
export const LEAVE_HAND_OVER_SCREEN = `\x1b[0m${LEAVE_ALTERNATE_SCREEN}`;

/** pi-tui's regular-mode render state (`TuiMainScreen.captureRenderState`), as far as it is used here. */
interface RegularRenderState {
	previousLines: string[];
	previousWidth: number;
	previousHeight: number;
	cursorRow: number;
	hardwareCursorRow: number;
	maxLinesRendered: number;
	previousViewportTop: number;
}

/** The part of pi-tui's regular-mode TUI (`TuiMainScreen`) the regular hand-over uses. */
interface RegularTui {
	mode?: string;
	terminal: { rows: number; columns: number };
	captureRenderState?: () => RegularRenderState;
	restoreRenderState?: (state: RegularRenderState) => void;
}

/**
 * The hand-over in pi's regular mode, on the normal screen: the questionnaire goes right under
 * pi's conversation (`aboveCount` lines of pi's document, down to the tool's place), so the
 * terminal's scrollback keeps the whole conversation readable while the questions are up and
 * a terminal that rewraps on resize (tmux, VTE, kitty) keeps it above them.
 *
 * `start` moves the cursor from where pi left it to the row under the conversation and erases
 * pi's rows below it (its editor and footer, which are not in the scrollback). The binary
 * draws there, leaving nothing (`--no-transcript`): it ends with the cursor at the top of
 * what it drew, which is the row under the conversation, however far the questions scrolled it
 * up. `resume(row)`, given that row ({@link cursorRow}), sets pi's render state to the
 * conversation ending on the row above it, so pi's next frame is an ordinary update (the
 * scrollback, the shell's lines from before pi in it, stays); it returns false when that
 * cannot be (no row, or one below where the questionnaire started), and pi then draws itself
 * whole. `undefined` when pi is not in regular mode or its state cannot be read.
 */
export function regularHandOver(tui: RegularTui, aboveCount: number): { start: string; resume: (row: number | undefined) => boolean } | undefined {
	if (tui.mode !== "regular" || typeof tui.captureRenderState !== "function" || typeof tui.restoreRenderState !== "function") return undefined;
	const state = tui.captureRenderState();
	const rows = tui.terminal.rows;
	const from = state.hardwareCursorRow - state.previousViewportTop;
	const to = aboveCount - state.previousViewportTop;
	if (aboveCount <= 0 || aboveCount > state.previousLines.length || to < 1 || to >= rows || from < 0 || from >= rows) return undefined;
	let start = "\x1b[0m";
	if (to < from) start += `\x1b[${from - to}A`;
	else if (to > from) start += `\x1b[${to - from}B`;
	start += "\r\x1b[J";
	const restore = tui.restoreRenderState.bind(tui);
	return {
		start,
		resume(row) {
			if (row === undefined || row > to || row < 0) return false;
			const scrolled = to - row;
			restore({
				...state,
				previousLines: state.previousLines.slice(0, aboveCount),
				cursorRow: aboveCount - 1,
				hardwareCursorRow: aboveCount,
				previousViewportTop: state.previousViewportTop + scrolled,
			});
			return true;
		},
	};
}

/**
 * The cursor's row on the terminal (0-based), asked with a cursor position report (`ESC[6n`)
 * on `/dev/tty` while pi's TUI is stopped (its reading of the terminal held); `undefined` when
 * no answer comes within a second. The terminal is read raw, without echo, for that moment,
 * then put back as it was.
 */
export function cursorRow(): number | undefined {
	let fd: number | undefined;
	try {
		fd = fs.openSync("/dev/tty", "r+");
		const saved = spawnSync("stty", ["-g"], { stdio: [fd, "pipe", "ignore"], timeout: 2_000 }).stdout?.toString().trim();
		if (!saved) return undefined;
		spawnSync("stty", ["raw", "-echo", "min", "0", "time", "1"], { stdio: [fd, "ignore", "ignore"], timeout: 2_000 });
		try {
			fs.writeSync(fd, "\x1b[6n");
			const buffer = Buffer.alloc(256);
			let got = "";
			const deadline = Date.now() + 1_000;
			while (Date.now() < deadline) {
				const n = fs.readSync(fd, buffer, 0, buffer.length, null);
				if (n <= 0) continue;
				got += buffer.toString("latin1", 0, n);
				const report = /\x1b\[(\d+);(\d+)R/.exec(got);
				if (report) return Number(report[1]) - 1;
				if (got.length > 4096) return undefined;
			}
			return undefined;
		} finally {
			spawnSync("stty", [saved], { stdio: [fd, "ignore", "ignore"], timeout: 2_000 });
		}
	} catch {
		return undefined;
	} finally {
		if (fd !== undefined) fs.closeSync(fd);
	}
}

/** Whether a run on the terminal ended without the binary's own restore having run. */
function endedWithoutRestore(outcome: RunOutcome): boolean {
	return outcome.signal !== null || outcome.result.trim() === "";
}

/**
 * The text of the assistant message whose tool call `toolCallId` is running, when the session
 * has it: what the model said when it asked (the binary shows it with its peek key).
 */
export function askingText(sessionManager: Pick<ExtensionContext["sessionManager"], "getBranch"> | undefined, toolCallId: string): string | undefined {
	let branch: unknown[];
	try {
		branch = sessionManager?.getBranch() ?? [];
	} catch {
		return undefined;
	}
	for (let i = branch.length - 1; i >= 0; i--) {
		const entry = branch[i] as { type?: string; message?: { role?: string; content?: unknown } };
		if (entry.type !== "message" || entry.message?.role !== "assistant" || !Array.isArray(entry.message.content)) continue;
		const content = entry.message.content as Array<{ type?: string; id?: string; text?: unknown }>;
		if (!content.some((c) => c.type === "toolCall" && c.id === toolCallId)) continue;
		const text = content
			.filter((c) => c.type === "text" && typeof c.text === "string")
			.map((c) => (c.text as string).trim())
			.filter(Boolean)
			.join("\n\n");
		return text || undefined;
	}
	return undefined;
}

/** The line over a secret's input dialog: pi's `ui.input` has no hidden mode (pi 1.6). */
export const SECRET_VISIBLE = "(pi's input shows what you type: make sure no one is watching)";

/** The dialog methods of pi's UI that `pi-ask --dialogs` asks for (docs/dialogs.md). */
export type DialogUI = Pick<ExtensionContext["ui"], "select" | "input" | "editor" | "confirm">;

/** A dialog response line for the binary: `{value}`, `{confirmed}` or `{cancelled: true}`. */
type DialogResponse = { value: string } | { confirmed: boolean } | { cancelled: true };

/**
 * Shows one request of `pi-ask --dialogs` (a JSON line) with pi's own dialog and returns the
 * response. Nothing is decided here: the binary's flow says what to ask and what an answer
 * means. A dismissed dialog (Esc, the abort signal, the timeout) is `{cancelled: true}`.
 */
export async function answerDialog(line: string, ui: DialogUI, signal?: AbortSignal): Promise<DialogResponse> {
	const request = JSON.parse(line) as {
		type?: string;
		title?: string;
		options?: string[];
		placeholder?: string;
		prefill?: string;
		message?: string;
		timeout?: number;
		password?: boolean;
	};
	const title = request.title ?? "";
	const opts = { signal, ...(typeof request.timeout === "number" ? { timeout: request.timeout } : {}) };
	const text = (value: string | undefined): DialogResponse => (value === undefined ? { cancelled: true } : { value });
	switch (request.type) {
		case "select":
			return text(await ui.select(title, request.options ?? [], opts));
		case "input":
			// pi's input dialog cannot hide what is typed: a secret (`password`) is said so above it.
			return text(await ui.input(request.password === true ? `${title}\n${SECRET_VISIBLE}` : title, request.placeholder, opts));
		case "editor":
			return text(await ui.editor(title, request.prefill));
		case "confirm":
			return { confirmed: await ui.confirm(title, request.message ?? "", opts) };
		default:
			return { cancelled: true };
	}
}

/**
 * Relays the requests the binary writes on its stdout (`--dialogs`) to pi's dialogs, one at a
 * time, and writes each response on its stdin. A dialog that fails is answered as cancelled.
 */
function relayDialogs(child: ChildProcess, ui: DialogUI, signal?: AbortSignal): void {
	const { stdout, stdin } = child;
	if (!stdout || !stdin) return;
	stdin.on("error", () => {}); // the binary ended (abort): nothing more to answer
	// A dialog still open when the binary ends (answered from elsewhere) is closed.
	const ended = new AbortController();
	child.on("exit", () => ended.abort());
	const dialogSignal = signal ? AbortSignal.any([signal, ended.signal]) : ended.signal;
	let queue = Promise.resolve();
	createInterface({ input: stdout }).on("line", (line) => {
		if (!line.trim()) return;
		queue = queue.then(async () => {
			let response: DialogResponse;
			try {
				response = await answerDialog(line, ui, dialogSignal);
			} catch {
				response = { cancelled: true };
			}
			if (!stdin.destroyed) stdin.write(`${JSON.stringify(response)}\n`);
		});
	});
}

/**
 * The normalized question list of `details.questions` (label fallback Q1.., type single), for
 * the aborted result the extension writes itself. The parameters are not validated here (the
 * binary does that): anything that is not a question object is left out.
 */
function questionSummaries(params: AskUserParams): AskUserDetails["questions"] {
	const types = ["single", "multi", "preview"] as const;
	return argQuestions(params).map(({ q, i }) => ({
		id: String(q.id ?? ""),
		label: text(q.label) ?? `Q${i + 1}`,
		prompt: String(q.prompt ?? ""),
		type: types.find((t) => t === q.type) ?? "single",
	}));
}

/** The cancelled result for an aborted flow, when the binary could not write its own. */
function abortedResult(params: AskUserParams, message: string): AskUserResult {
	const title = text(params.title) ? ` ${JSON.stringify(params.title?.trim())}` : "";
	return {
		content: [
			{
				type: "text",
				text: `The questionnaire${title} was ended before the user submitted it (${message}); no answers were given. Do not assume any answer.`,
			},
		],
		details: {
			...(params.title !== undefined ? { title: params.title } : {}),
			cancelled: true,
			questions: questionSummaries(params),
			answers: {},
			error: { code: "aborted", message },
		},
	};
}

/**
 * The result of a call whose questionnaire was up when pi itself was ended by `signal` (SIGTERM,
 * SIGHUP sent to pi): not the person's cancel. `error.code` `interrupted`; a resumed session
 * offers the call again ({@link unansweredCall}).
 */
export function interruptedResult(params: AskUserParams, signal: string): AskUserResult {
	const title = text(params.title) ? ` ${JSON.stringify(params.title?.trim())}` : "";
	return {
		content: [
			{
				type: "text",
				text: `pi ended (${signal}) while the questionnaire${title} was up, before the user answered; no answers were given. Do not assume any answer.`,
			},
		],
		details: {
			...(params.title !== undefined ? { title: params.title } : {}),
			cancelled: true,
			questions: questionSummaries(params),
			answers: {},
			error: { code: INTERRUPTED, message: `pi ended (${signal})` },
		},
	};
}

/** `error.code` of {@link interruptedResult}. */
export const INTERRUPTED = "interrupted";

/** The signals on which pi shuts down (its handlers end the session, aborting a running turn). */
const PI_ENDING_SIGNALS = ["SIGTERM", "SIGHUP"] as const;

/**
 * Notes which of {@link PI_ENDING_SIGNALS} reached pi until `release()`. Listens only to a signal
 * pi has a handler for: a listener alone would keep Node from ending on it.
 */
function watchPiEnding(): { signal: () => NodeJS.Signals | undefined; release: () => void } {
	let got: NodeJS.Signals | undefined;
	const listeners: Array<[NodeJS.Signals, () => void]> = [];
	for (const sig of PI_ENDING_SIGNALS) {
		if (process.listenerCount(sig) === 0) continue;
		const note = () => {
			got ??= sig;
		};
		process.on(sig, note);
		listeners.push([sig, note]);
	}
	return {
		signal: () => got,
		release: () => {
			for (const [sig, note] of listeners) process.removeListener(sig, note);
		},
	};
}

function isResult(value: unknown): value is AskUserResult {
	const v = value as AskUserResult | undefined;
	return !!v && Array.isArray(v.content) && typeof v.details === "object" && v.details !== null;
}

function parseResult(text: string): AskUserResult | undefined {
	if (text.trim() === "") return undefined;
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		throw new Error(`pi-ask wrote a result that is not JSON: ${quotedOutput(text)}`);
	}
	if (!isResult(parsed)) throw new Error(`pi-ask wrote a result that is not {content, details}: ${quotedOutput(text)}`);
	return parsed;
}

/** The ways the binary can be run, see the file comment. */
export type RunMode = "scripted" | "tui" | "terminal" | "dialogs" | "headless";

/** What {@link askWithBinary} may do besides asking. */
export interface AskOptions {
	/**
	 * Checks that the binary is usable ({@link checkBinaryVersion}). Called just before the
	 * questionnaire is started, which does not wait for it: it never delays the first question,
	 * and its process is never started while the questionnaire has the terminal (a Ctrl+C then
	 * signals pi's whole process group, and a child not yet in its own session would die of it).
	 * When it fails, the questionnaire is ended (SIGTERM), or not started, and its error is the
	 * tool error.
	 */
	checkVersion?: (signal?: AbortSignal) => Promise<unknown>;
	/**
	 * Whether the binary takes `--lifeline-fd` ({@link binaryTakesLifeline}): asked before the
	 * questionnaire starts (beside the `--no-input` check in pi's TUI); when true, every run of
	 * the questionnaire gets the lifeline ({@link LIFELINE_FD}).
	 */
	lifeline?: (signal?: AbortSignal) => Promise<boolean>;
	/**
	 * The answer channel (docs/elsewhere.md): `takes` says whether the binary has one
	 * ({@link binaryTakesAnswerChannel}), asked before the questionnaire starts; when it does,
	 * an interactive run says it (`--answer-socket-file`) and `said` gets it.
	 */
	answerChannel?: { takes: (signal?: AbortSignal) => Promise<boolean>; said: (channel: AnswerChannel) => void };
	/** The assistant's text that asked ({@link askingText}): passed with `--context FILE`. */
	context?: string;
	/**
	 * The person's settings from pi ({@link resolveAskSettings}), validated: set on the binary's
	 * environment ({@link settingsEnv}) over pi's own.
	 */
	settings?: AskSettings;
	/** The time limit of a run with no one to ask, in ms; default {@link HEADLESS_TIMEOUT_MS}. */
	headlessTimeoutMs?: number;
}

/** How pi's mode reads in the model's "Needs user input" text (`--no-input-reason`). */
const NO_UI_REASON: Partial<Record<ExtensionContext["mode"], string>> = {
	json: "pi is running in json mode",
};

/**
 * Asks the payload with the binary at `bin` and returns its result unchanged, with how it was
 * run and what the binary wrote on stderr when that was not the terminal. The payload and
 * the asking text reach the binary as unlinked private files ({@link privateFiles}), its
 * result through a pipe: nothing of them is on disk while it runs or after. In pi's TUI an
 * invalid payload is answered without handing the terminal over. Throws (a tool error) only
 * when the binary could not be run, is not usable, or wrote no result.
 */
export async function askWithBinary(
	bin: string,
	params: AskUserParams,
	signal: AbortSignal | undefined,
	ctx: Pick<ExtensionContext, "mode" | "cwd" | "ui">,
	opts: AskOptions = {},
): Promise<AskUserResult & { mode: RunMode; stderr: string }> {
	if (signal?.aborted) {
		return { ...abortedResult(params, "the pi turn was cancelled before the questionnaire opened"), mode: "headless", stderr: "" };
	}
	// pi ending by a signal meanwhile (its shutdown aborts this turn) makes the result an
	// interrupted one, which a resumed session offers again.
	const ending = watchPiEnding();
	try {
		return await askWatched(bin, params, signal, ctx, opts, ending.signal);
	} finally {
		ending.release();
	}
}

/** {@link askWithBinary} with `piEnding`, the signal that is ending pi, if one came. */
async function askWatched(
	bin: string,
	params: AskUserParams,
	signal: AbortSignal | undefined,
	ctx: Pick<ExtensionContext, "mode" | "cwd" | "ui">,
	opts: AskOptions,
	piEnding: () => NodeJS.Signals | undefined,
): Promise<AskUserResult & { mode: RunMode; stderr: string }> {
	/** The result when pi's abort came before the questionnaire opened. */
	const cancelledBeforeOpening = () => {
		const ended = piEnding();
		const result = ended ? interruptedResult(params, ended) : abortedResult(params, "the pi turn was cancelled before the questionnaire opened");
		return { ...result, mode: "headless" as const, stderr: "" };
	};
	// Synchronous on purpose, up to the spawn: these take microseconds, while pi's libuv
	// threadpool (which async fs calls queue on) can be busy with pi's own work for hundreds
	// of milliseconds on a first call, which would delay the first question.
	const cwd = ctx.cwd;
	const env = opts.settings ? { ...process.env, ...settingsEnv(opts.settings) } : process.env;
	const payloadText = JSON.stringify(params);
	const fdArgs = (withContext: boolean) => [
		`/dev/fd/${PAYLOAD_FD}`,
		"--output",
		`/dev/fd/${RESULT_FD}`,
		"--cwd",
		cwd,
		...(withContext ? ["--context", `/dev/fd/${CONTEXT_FD}`] : []),
	];
	// Asked before the questionnaire, beside the check below.
	const lifeline = opts.lifeline?.(signal).catch(() => false) ?? Promise.resolve(false);
	const answerable = opts.answerChannel?.takes(signal).catch(() => false) ?? Promise.resolve(false);
	// In pi's TUI an invalid payload is answered before pi's screen is handed over: the binary
	// checks it without a terminal (`--no-input`, in a session of its own, within
	// CHECK_TIMEOUT_MS), and its invalid_payload result is the answer.
	if (ctx.mode === "tui" && !process.env.PI_ASK_ANSWERS) {
		const checkChannels = privateChannels([payloadText]);
		let check: RunOutcome;
		try {
			check = await runBinary(bin, [...fdArgs(false), "--no-input"], {
				cwd,
				stdio: ["ignore", "ignore", "pipe"],
				channels: checkChannels,
				signal,
				env,
				timeoutMs: CHECK_TIMEOUT_MS,
				detached: true,
			});
		} finally {
			closeChannels(checkChannels);
		}
		if (signal?.aborted) return cancelledBeforeOpening();
		if (check.timedOut) {
			throw new Error(
				`pi-ask did not check the payload (\`--no-input\`) within ${CHECK_TIMEOUT_MS / 1000} s and was killed: ${bin} is not a working pi-ask.`,
			);
		}
		if (check.exitCode === 2) {
			let invalid: AskUserResult | undefined;
			try {
				invalid = parseResult(check.result);
			} catch {
				invalid = undefined;
			}
			if (invalid?.details.error?.code === "invalid_payload") return { ...invalid, mode: "headless", stderr: check.stderr };
		}
	}
	const withLifeline = await lifeline;
	const answerChannel = (await answerable) ? opts.answerChannel?.said : undefined;
	if (signal?.aborted) return cancelledBeforeOpening();
	const channels = privateChannels(opts.context ? [payloadText, opts.context] : [payloadText]);
	try {
		const baseArgs = fdArgs(!!opts.context);
		// The version check is started now, before the questionnaire, and runs beside it (see
		// AskOptions.checkVersion); a failure ends the questionnaire.
		let questionnaire: ChildProcess | undefined;
		let versionError: unknown;
		const versionCheck = opts.checkVersion?.(signal).then(
			() => {},
			(e) => {
				versionError = e;
				questionnaire?.kill("SIGTERM");
			},
		);
		const onSpawn = (child: ChildProcess) => {
			questionnaire = child;
			if (versionError) child.kill("SIGTERM");
		};
		// Without a terminal: scripted answers (the binary reads PI_ASK_ANSWERS itself), or the
		// "Needs user input" result; `--no-input-reason` also where a terminal exists but is
		// not ours, with pi's mode as the reason (the model reads it).
		const headless = async (mode: RunMode, noInputReason?: string) => ({
			mode,
			outcome: await runBinary(bin, noInputReason ? [...baseArgs, "--no-input-reason", noInputReason] : baseArgs, {
				cwd,
				stdio: ["ignore", "ignore", "pipe"],
				channels,
				signal,
				onSpawn,
				env,
				lifeline: withLifeline,
				timeoutMs: opts.headlessTimeoutMs ?? HEADLESS_TIMEOUT_MS,
			}),
		});

		let run: { mode: RunMode; outcome: RunOutcome };
		if (process.env.PI_ASK_ANSWERS) {
			run = await headless("scripted");
		} else if (ctx.mode === "tui") {
			// The questionnaire goes under pi's conversation, as pi's own dialogs do, on the
			// hand-over screen (handOverScreen); with screen "full", the person's choice
			// (--ask-screen, piAsk.screen, PI_ASK_SCREEN), on the binary's own alternate screen
			// instead.
			const fullScreen = binaryUsesFullScreen(env);
			const args = fullScreen ? baseArgs : [...baseArgs, "--screen", "inline"];
			let tuiRun: Promise<RunOutcome> | undefined;
			await ctx.ui.custom<void>((tui, _theme, _keybindings, done) => {
				const place = new QuestionnairePlace();
				const handOver = async (): Promise<RunOutcome> => {
					// pi puts the returned component in its editor's place once this factory
					// has returned; wait for that, so what is above it is the conversation.
					await new Promise<void>((resolve) => setImmediate(resolve));
					// Regular mode: pi's screen brought up to date first, so that what it shows,
					// its render state and the lines above this place are the same.
					if (!fullScreen && tui.mode === "regular") tui.renderNow();
					const above = fullScreen ? [] : place.linesAbove(tui);
					// Regular mode: under pi's conversation on the normal screen, whose
					// scrollback keeps the whole conversation readable while the questions are
					// up (regularHandOver); fullscreen mode: the hand-over screen.
					// Plain mode leaves its lines (it has no cursor control): the hand-over screen.
					const regular = fullScreen || binaryUsesPlain(env) ? undefined : regularHandOver(tui, above.length);
					const releaseSignals = ignoreTerminalSignals();
					let releaseStdin = () => {};
					let onHandOverScreen = false;
					let outcome: RunOutcome | undefined;
					try {
						// Both of pi's screens stay as pi left them (in regular mode its cursor
						// too), so pi's next frame is an ordinary update of what it drew.
						tui.stop({ preserveScreen: true });
						releaseStdin = holdStdin();
						if (regular) tui.terminal.write(regular.start);
						else if (!fullScreen) {
							// The binary is given the same lines, to draw their end above the questions
							// again after a resize (without them should the file fail).
							const lines = handOverLines(above, tui.terminal.columns);
							try {
								channels.above = privateFile(lines.slice(-ABOVE_MAX_LINES).join("\n"));
							} catch {
								channels.above = undefined;
							}
							tui.terminal.write(screenOf(lines, tui.terminal.rows));
							onHandOverScreen = true;
						}
						// Regular mode: the binary leaves nothing (a binary without the flag says so
						// and ends, rather than leaving its lines where pi draws next); the
						// hand-over screen: the binary owns it, pi's lines above the questions.
						const runArgs = regular ? [...args, "--no-transcript"] : channels.above !== undefined ? [...args, "--above", `/dev/fd/${ABOVE_FD}`] : args;
						outcome = await runBinary(bin, runArgs, { cwd, stdio: "inherit", channels, signal, onSpawn, env, lifeline: withLifeline, answerChannel });
						// A killed binary left its modes behind: put them back first.
						if (endedWithoutRestore(outcome)) restoreTerminal(fullScreen);
						return outcome;
					} finally {
						try {
							if (onHandOverScreen) tui.terminal.write(LEAVE_HAND_OVER_SCREEN);
							// Regular mode: pi's render state made to match its conversation above
							// the cursor, where the binary left it; else (no answer to the cursor
							// query, a killed binary) pi draws itself again whole.
							const resumed = regular && outcome && !endedWithoutRestore(outcome) ? regular.resume(cursorRow()) : !regular;
							tui.start();
							releaseStdin();
							// Not requestRender(): one pi requested before it stopped stays pending
							// in pi-tui 1.6 (nothing would be drawn until a key), and a forced one
							// clears regular mode's scrollback, the shell's lines from before pi
							// with it. renderNow() draws pi's next frame at once.
							tui.renderNow(!resumed);
						} finally {
							releaseSignals();
						}
					}
				};
				tuiRun = handOver();
				// pi's dialog ends however the hand-over did; an error is the tool's (below).
				tuiRun.then(
					() => done(undefined),
					() => done(undefined),
				);
				return place;
			});
			// The factory is always called in the TUI; should it not be, ask nothing.
			run = tuiRun ? { mode: "tui", outcome: await tuiRun } : await headless("headless", "pi's terminal could not be handed over");
		} else if (ctx.mode === "print" && terminalAvailable()) {
			// Print mode on a terminal: the binary asks there; pi only waits.
			const releaseSigint = ignoreTerminalSignals();
			try {
				const outcome = await runBinary(bin, baseArgs, { cwd, stdio: "inherit", channels, signal, onSpawn, env, lifeline: withLifeline, answerChannel });
				if (endedWithoutRestore(outcome)) restoreTerminal(binaryUsesFullScreen(env));
				run = { mode: "terminal", outcome };
			} finally {
				releaseSigint();
			}
		} else if (ctx.mode === "print") {
			// Print mode without a terminal: the binary reports that itself.
			run = await headless("headless");
		} else if (ctx.mode === "rpc") {
			// RPC mode: the client owns the screen; the binary asks through pi's dialogs.
			const outcome = await runBinary(bin, [...baseArgs, "--dialogs"], {
				cwd,
				stdio: ["pipe", "pipe", "pipe"],
				channels,
				signal,
				env,
				lifeline: withLifeline,
				answerChannel,
				onSpawn: (child) => {
					relayDialogs(child, ctx.ui, signal);
					onSpawn(child);
				},
			});
			run = { mode: "dialogs", outcome };
		} else {
			// json mode: no one to ask; the client owns the terminal, if there is one.
			run = await headless("headless", NO_UI_REASON[ctx.mode] ?? `pi is running in ${ctx.mode} mode`);
		}

		// After an abort the version check is being killed: its outcome does not matter.
		if (!signal?.aborted) {
			await versionCheck;
			if (versionError) throw versionError;
		}

		const { outcome } = run;
		if (outcome.timedOut) {
			const limit = (opts.headlessTimeoutMs ?? HEADLESS_TIMEOUT_MS) / 1000;
			throw new Error(`pi-ask gave no result within ${limit} s with no one to ask (${run.mode}) and was killed: ${bin} is not a working pi-ask.`);
		}
		const piEnded = outcome.aborted ? piEnding() : undefined;
		let result: AskUserResult | undefined;
		try {
			result = parseResult(outcome.result);
		} catch (error) {
			if (!piEnded) throw error;
		}
		if (piEnded && (!result || result.details.cancelled)) {
			return { ...interruptedResult(params, piEnded), mode: run.mode, stderr: outcome.stderr };
		}
		if (outcome.aborted && result?.details.error?.code !== "aborted") {
			return { ...abortedResult(params, "the pi turn was cancelled"), mode: run.mode, stderr: outcome.stderr };
		}
		if (result) return { ...result, mode: run.mode, stderr: outcome.stderr };
		if (outcome.error) throw new Error(`pi-ask could not be started (${bin}): ${outcome.error.message}`);
		const how = outcome.signal ? `was killed by ${outcome.signal}` : `exited with code ${outcome.exitCode}`;
		const stderr = outcome.stderr.trim();
		throw new Error(`pi-ask ${how} without writing a result${stderr ? `: ${quotedOutput(stderr)}` : ""}`);
	} finally {
		closeChannels(channels);
	}
}

// ---------------------------------------------------------------------------------------------
// Settings from pi: plain mode, screen, bell, timeout, escape delay, notifications, auto-submit.
// ---------------------------------------------------------------------------------------------

/**
 * How the person wants to be asked, each left out when nothing chose it (the binary's default).
 * Validated: {@link settingsEnv} hands them to the binary as its environment variables.
 */
export interface AskSettings {
	/** Numbered lines instead of the terminal front end (`PI_ASK_PLAIN`). */
	plain?: boolean;
	/** Where the questions are drawn in pi's TUI (`PI_ASK_SCREEN`). */
	screen?: "inline" | "full";
	/** Whether the bell rings when the first question appears (`PI_ASK_BELL`). */
	bell?: boolean;
	/** Idle time before the questionnaire ends, as the binary reads it: `90`, `30s`, `2m` (`PI_ASK_TIMEOUT`). */
	timeout?: string;
	/** Milliseconds an Esc waits for the rest of an escape sequence (`PI_ASK_ESCDELAY`). */
	escDelay?: number;
	/** How to notify once when the questions wait: `bell`, `osc9`, `osc777`, `command`, `none`, by commas (`PI_ASK_NOTIFY`). */
	notify?: string;
	/** A shell command run when the questions wait (`PI_ASK_NOTIFY_COMMAND`). */
	notifyCommand?: string;
	/** Submit on reaching the review when every question is answered and no note was written (`PI_ASK_AUTO_SUBMIT`). */
	autoSubmit?: boolean;
}

type SettingName = keyof AskSettings;
const SETTING_NAMES: readonly SettingName[] = ["plain", "screen", "bell", "timeout", "escDelay", "notify", "notifyCommand", "autoSubmit"];

/** The key of pi's settings (`~/.pi/agent/settings.json`, `.pi/settings.json`) read here. */
export const SETTINGS_KEY = "piAsk";

/** pi's CLI flags of this extension (`pi.registerFlag`), one a setting. */
export const ASK_FLAGS = {
	plain: { name: "ask-plain", type: "boolean", description: "ask_user: ask with numbered lines (plain mode, no escape sequences)" },
	screen: { name: "ask-screen", type: "string", description: "ask_user: where the questions appear: inline (under pi's conversation) or full (a screen of their own)" },
	bell: { name: "ask-no-bell", type: "boolean", description: "ask_user: do not ring the bell when the first question appears" },
	timeout: { name: "ask-timeout", type: "string", description: "ask_user: end the questionnaire after this long without a key: seconds, or 30s, 2m (0: never)" },
	escDelay: { name: "ask-escdelay", type: "string", description: "ask_user: milliseconds an Esc waits for the rest of an escape sequence (0-10000)" },
	notify: { name: "ask-notify", type: "string", description: "ask_user: how to notify when the questions wait: bell, osc9, osc777, command, none (by commas)" },
	notifyCommand: { name: "ask-notify-command", type: "string", description: "ask_user: a shell command run when the questions wait (ASK_NOTIFY_EVENT, ASK_NOTIFY_TITLE, ASK_NOTIFY_MESSAGE)" },
	autoSubmit: { name: "ask-auto-submit", type: "boolean", description: "ask_user: submit at once on reaching the review when every question is answered and no note was written" },
} as const satisfies Record<SettingName, { name: string; type: "boolean" | "string"; description: string }>;

/** The binary's environment variable of each setting. */
export const SETTING_ENV: Readonly<Record<SettingName, string>> = {
	plain: "PI_ASK_PLAIN",
	screen: "PI_ASK_SCREEN",
	bell: "PI_ASK_BELL",
	timeout: "PI_ASK_TIMEOUT",
	escDelay: "PI_ASK_ESCDELAY",
	notify: "PI_ASK_NOTIFY",
	notifyCommand: "PI_ASK_NOTIFY_COMMAND",
	autoSubmit: "PI_ASK_AUTO_SUBMIT",
};

/** The longest escape delay the binary uses (src/keys/mod.rs `MAX_ESCAPE_DELAY`). */
const MAX_ESCDELAY_MS = 10_000;

/** `true`/`false`, or the words the binary takes for them (`1`/`0`, yes/no, on/off). */
export function parseSwitch(value: unknown): boolean {
	if (typeof value === "boolean") return value;
	const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim().toLowerCase() : undefined;
	if (text !== undefined) {
		if (["1", "true", "yes", "on"].includes(text)) return true;
		if (["0", "false", "no", "off"].includes(text)) return false;
	}
	throw new Error("it is true or false (or 1 or 0)");
}

/** `inline` or `full` (any case). */
export function parseScreen(value: unknown): "inline" | "full" {
	const text = typeof value === "string" ? value.trim().toLowerCase() : undefined;
	if (text === "inline" || text === "full") return text;
	throw new Error("it is inline or full");
}

/**
 * A timeout as the binary reads `--timeout` (src/cli.rs `parse_timeout`): a number of seconds,
 * 0 or more, fractions allowed, or numbers with units `ms`, `s`, `m`, `h` (`1m30s`); 0 means no
 * timeout, and a time above 0 is at least a millisecond. Returns its text for the binary and its seconds. A JSON number is taken as seconds.
 */
export function parseTimeout(value: unknown): { text: string; seconds: number } {
	const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : undefined;
	const why = "it is a number of seconds or a duration such as 30s, 2m or 1m30s (0: no timeout)";
	if (text === undefined || text === "") throw new Error(why);
	const scales: Record<string, number> = { "": 1, s: 1, ms: 0.001, m: 60, h: 3600 };
	let seconds = 0;
	for (const part of text.matchAll(/([0-9.+-]*)([^0-9.]*)/g)) {
		if (part[0] === "") continue;
		const [, numberText, unit] = part;
		const number = numberText === "" ? Number.NaN : Number(numberText);
		if (!Number.isFinite(number) || !(unit in scales)) throw new Error(why);
		if (number < 0) throw new Error("it is a number of seconds, 0 or more (0: no timeout)");
		seconds += number * scales[unit];
	}
	if (!Number.isFinite(seconds) || seconds >= 2 ** 64) throw new Error("it is too long");
	// Above 0 but rounding to nothing would mean "no timeout", its opposite.
	if (seconds > 0 && seconds < 0.001) throw new Error("it is shorter than a millisecond: the timeout is 1ms or more (0: no timeout)");
	return { text, seconds };
}

/** The notification channels as the binary reads `--notify` (src/notify.rs): `bell`, `osc9`, `osc777`, `command`, `none`, by commas. */
export function parseNotify(value: unknown): string {
	const text = typeof value === "string" ? value.trim().toLowerCase() : undefined;
	const channels = ["bell", "osc9", "osc777", "command", "none"];
	const why = `it is one or more of ${channels.join(", ")}, separated by commas`;
	if (text === undefined || text === "") throw new Error(why);
	const parts = text.split(",").map((p) => p.trim());
	if (parts.some((p) => !channels.includes(p))) throw new Error(why);
	return parts.join(",");
}

/** A shell command line, not blank. */
export function parseCommand(value: unknown): string {
	if (typeof value !== "string" || value.trim() === "") throw new Error("it is a shell command line");
	return value;
}

/** A whole number of milliseconds, 0 to 10000. */
export function parseEscDelay(value: unknown): number {
	const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : undefined;
	if (text === undefined || !/^\d+$/.test(text)) throw new Error("it is a whole number of milliseconds, e.g. 100");
	const ms = Number(text);
	if (ms > MAX_ESCDELAY_MS) throw new Error(`it is at most ${MAX_ESCDELAY_MS} milliseconds (10 s)`);
	return ms;
}

/** Where the settings come from, best first: pi's flags, pi's settings, the environment. */
export interface SettingsSources {
	/** `pi.getFlag` of each of {@link ASK_FLAGS}, by its name. */
	flag: (name: string) => unknown;
	/** `pi.getSettings()` (global and project settings merged by pi); only {@link SETTINGS_KEY} is read. */
	settings: unknown;
	/** The environment the binary would otherwise read. */
	env: NodeJS.ProcessEnv;
}

/** The settings in force, where each came from, and what could not be used. */
export interface ResolvedSettings {
	settings: AskSettings;
	/** Where each chosen setting came from, e.g. `--ask-timeout`, `piAsk.timeout in pi's settings`, `PI_ASK_TIMEOUT`. */
	from: Partial<Record<SettingName, string>>;
	/** One sentence per value that cannot be used; empty when all are fine. */
	problems: string[];
}

/**
 * The settings for the questionnaire, each from the first of: pi's CLI flag (`--ask-plain`,
 * `--ask-screen`, `--ask-no-bell`, `--ask-timeout`, `--ask-escdelay`), pi's settings
 * (`"piAsk": {"plain", "screen", "bell", "timeout", "escDelay"}`, the project's over the
 * global, as pi merges them), the binary's environment variable (`PI_ASK_PLAIN` and the like;
 * empty counts as unset). A value that cannot be used is a problem (named with its source and
 * value), never a default in its place; so are unknown keys under `piAsk`.
 */
export function resolveAskSettings(sources: SettingsSources): ResolvedSettings {
	const settings: AskSettings = {};
	const from: ResolvedSettings["from"] = {};
	const problems: string[] = [];
	const parsers: { [K in SettingName]: (value: unknown) => AskSettings[K] } = {
		plain: parseSwitch,
		screen: parseScreen,
		bell: parseSwitch,
		timeout: (value) => parseTimeout(value).text,
		escDelay: parseEscDelay,
		notify: parseNotify,
		notifyCommand: parseCommand,
		autoSubmit: parseSwitch,
	};
	let piSettings: Record<string, unknown> = {};
	const raw = (sources.settings as Record<string, unknown> | undefined)?.[SETTINGS_KEY];
	if (raw !== undefined && raw !== null) {
		if (typeof raw === "object" && !Array.isArray(raw)) {
			piSettings = raw as Record<string, unknown>;
			for (const key of Object.keys(piSettings)) {
				if (!(SETTING_NAMES as readonly string[]).includes(key)) {
					problems.push(`${SETTINGS_KEY}.${key} in pi's settings is not a setting of ask_user (${SETTING_NAMES.join(", ")}).`);
				}
			}
		} else {
			problems.push(`${SETTINGS_KEY} in pi's settings is ${JSON.stringify(raw)}: it is an object such as {"timeout": "2m"}.`);
		}
	}
	const take = <K extends SettingName>(name: K, source: string, value: unknown): boolean => {
		try {
			settings[name] = parsers[name](value);
			from[name] = source;
		} catch (error) {
			problems.push(`${source} is ${JSON.stringify(value)}, which cannot be used: ${(error as Error).message}.`);
		}
		return true;
	};
	for (const name of SETTING_NAMES) {
		const flag = ASK_FLAGS[name];
		const flagValue = sources.flag(flag.name);
		if (flag.type === "boolean" ? flagValue === true : typeof flagValue === "string") {
			// --ask-no-bell is the one flag that says "off".
			take(name, `--${flag.name}`, name === "bell" ? false : flagValue);
			continue;
		}
		const setting = piSettings[name];
		if (setting !== undefined && setting !== null) {
			take(name, `${SETTINGS_KEY}.${name} in pi's settings`, setting);
			continue;
		}
		const envValue = sources.env[SETTING_ENV[name]];
		if (envValue !== undefined && envValue.trim() !== "") take(name, SETTING_ENV[name], envValue);
	}
	return { settings, from, problems };
}

/** The binary's environment variables for `settings` (each one chosen; the rest left as they are). */
export function settingsEnv(settings: AskSettings): Record<string, string> {
	const env: Record<string, string> = {};
	if (settings.plain !== undefined) env.PI_ASK_PLAIN = settings.plain ? "1" : "0";
	if (settings.screen !== undefined) env.PI_ASK_SCREEN = settings.screen;
	if (settings.bell !== undefined) env.PI_ASK_BELL = settings.bell ? "1" : "0";
	if (settings.timeout !== undefined) env.PI_ASK_TIMEOUT = settings.timeout;
	if (settings.escDelay !== undefined) env.PI_ASK_ESCDELAY = String(settings.escDelay);
	if (settings.notify !== undefined) env.PI_ASK_NOTIFY = settings.notify;
	if (settings.notifyCommand !== undefined) env.PI_ASK_NOTIFY_COMMAND = settings.notifyCommand;
	if (settings.autoSubmit !== undefined) env.PI_ASK_AUTO_SUBMIT = settings.autoSubmit ? "1" : "0";
	return env;
}

/** The tool error (and startup warning) for settings that cannot be used. */
export function settingsProblemText(problems: readonly string[]): string {
	return (
		`ask_user cannot use the settings chosen for it: ${problems.join(" ")} ` +
		`Fix the flag (pi --help lists them), the "${SETTINGS_KEY}" object in pi's settings (~/.pi/agent/settings.json or .pi/settings.json) ` +
		"or the environment variable; /ask-settings shows what is in force."
	);
}

/** What `/ask-settings` shows: each setting, its value and where it came from, and any problems. */
export function settingsReport(resolved: ResolvedSettings): string {
	const { settings, from } = resolved;
	const shown: Record<SettingName, string> = {
		plain: settings.plain === undefined ? "off (default)" : settings.plain ? "on" : "off",
		screen: settings.screen ?? "inline (default)",
		bell: settings.bell === undefined ? "on (default)" : settings.bell ? "on" : "off",
		timeout: settings.timeout === undefined ? "none (default)" : parseTimeout(settings.timeout).seconds === 0 ? `${settings.timeout} (none)` : settings.timeout,
		escDelay: settings.escDelay === undefined ? "50 ms, 100 over ssh (default)" : `${settings.escDelay} ms`,
		notify: settings.notify ?? "bell (default)",
		notifyCommand: settings.notifyCommand ?? "none (default)",
		autoSubmit: settings.autoSubmit === undefined ? "off (default)" : settings.autoSubmit ? "on" : "off",
	};
	const lines = SETTING_NAMES.map((name) => `${name}: ${shown[name]}${from[name] ? ` (${from[name]})` : ""}`);
	if (resolved.problems.length > 0) lines.push("", settingsProblemText(resolved.problems));
	return `ask_user settings\n${lines.join("\n")}`;
}

// ---------------------------------------------------------------------------------------------
// Transcript rendering.
// ---------------------------------------------------------------------------------------------

type Theme = Parameters<NonNullable<Parameters<ExtensionAPI["registerTool"]>[0]["renderCall"]>>[1];

/**
 * `text` safe to draw in pi's terminal, as the binary draws payload text (its
 * `sanitize::for_terminal`): C0 and C1 controls but newline and tab, DEL, and bidirectional
 * controls become visible escapes (`\e`, `\x07`, `\u{202e}`), so a payload, a pasted answer
 * or a file name never sets the title, writes the clipboard or clears the screen.
 */
export function safe(text: string): string {
	return String(text).replace(
		/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g,
		(c) => {
			const code = c.codePointAt(0) ?? 0;
			if (code === 0x1b) return "\\e";
			if (code < 0x100) return `\\x${code.toString(16).padStart(2, "0")}`;
			return `\\u{${code.toString(16)}}`;
		},
	);
}

function oneLine(text: unknown, max = 80): string {
	const flat = safe(String(text ?? "")).replace(/\s+/g, " ").trim();
	return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** `value` when it is a string with a non-blank character, else `undefined` (arguments stream in, and may be anything). */
function text(value: unknown): string | undefined {
	return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

/** A plain object's own property `key`, never one of Object.prototype's (`constructor`, `__proto__`, `toString`). */
function own<T>(record: unknown, key: unknown): T | undefined {
	if (!record || typeof record !== "object" || typeof key !== "string") return undefined;
	return Object.hasOwn(record, key) ? ((record as Record<string, T>)[key] ?? undefined) : undefined;
}

/** The questions of (possibly partial) call arguments: the array's objects, in order, with their positions. */
function argQuestions(args: unknown): Array<{ q: Record<string, unknown>; i: number }> {
	const questions = (args as { questions?: unknown } | undefined)?.questions;
	if (!Array.isArray(questions)) return [];
	return questions.flatMap((q, i) => (q && typeof q === "object" ? [{ q: q as Record<string, unknown>, i }] : []));
}

/** The width the collapsed call row's label list is cut to (the upstream's `callLabelTruncateWidth`). */
const CALL_LABELS_WIDTH = 50;

/**
 * The call row. Collapsed, as the contract's project renders it: `ask_user 2 question(s)
 * (Goal, Tone)` (each question's label, or Q1, Q2, ...). Expanded: the title, the number of
 * questions and one line per question with its type and options.
 */
export function callText(args: unknown, theme: Theme, expanded = false): string {
	const questions = Array.isArray((args as { questions?: unknown } | undefined)?.questions)
		? ((args as { questions: unknown[] }).questions as unknown[])
		: [];
	const entries = argQuestions(args);
	const labelOf = (q: Record<string, unknown>, i: number) => (text(q.label) ? oneLine(q.label, 40) : `Q${i + 1}`);
	if (!expanded) {
		let row = theme.fg("toolTitle", theme.bold("ask_user ")) + theme.fg("muted", `${questions.length} question(s)`);
		const labels = entries.map(({ q, i }) => labelOf(q, i)).join(", ");
		if (labels) row += theme.fg("dim", ` (${truncateToWidth(labels, CALL_LABELS_WIDTH)})`);
		return row;
	}
	const title = (args as { title?: unknown } | undefined)?.title;
	let row = theme.fg("toolTitle", theme.bold("ask_user"));
	if (text(title)) row += ` ${theme.fg("accent", oneLine(title, 60))}`;
	row += theme.fg("muted", ` · ${questions.length} question${questions.length === 1 ? "" : "s"}`);
	for (const { q, i } of entries) {
		const kind = q.type !== undefined && q.type !== "single" ? theme.fg("dim", ` [${oneLine(q.type, 20)}]`) : "";
		const options = Array.isArray(q.options)
			? q.options.map((o) => (o && typeof o === "object" ? (o as { label?: unknown }).label : undefined)).filter((l) => l !== undefined && l !== null && l !== "")
			: [];
		row += `\n  ${theme.fg("accent", labelOf(q, i))}${kind} ${oneLine(q.prompt ?? "", 70)}`;
		if (options.length) row += theme.fg("dim", ` (${oneLine(options.map((l) => String(l)).join(" / "), 60)})`);
	}
	return row;
}

/** One answer of `details.answers` as a renderer may use it, or `undefined` when it is not one. */
interface ShownAnswer {
	values: string[];
	labels: string[];
	indices: number[];
	customText?: string;
	note?: string;
	optionNotes: Array<[string, string]>;
}

/** `details.answers[id]`, read defensively: own properties only, arrays of strings, notes as strings. */
function answerOf(answers: unknown, id: unknown): ShownAnswer | undefined {
	const raw = own<Record<string, unknown>>(answers, id);
	if (!raw || typeof raw !== "object") return undefined;
	const strings = (v: unknown) => (Array.isArray(v) ? v.map((x) => String(x ?? "")) : []);
	const notes = raw.optionNotes && typeof raw.optionNotes === "object" ? Object.entries(raw.optionNotes as Record<string, unknown>) : [];
	return {
		values: strings(raw.values),
		labels: strings(raw.labels),
		indices: Array.isArray(raw.indices) ? raw.indices.filter((n): n is number => typeof n === "number") : [],
		customText: typeof raw.customText === "string" ? raw.customText : undefined,
		note: typeof raw.note === "string" && raw.note !== "" ? raw.note : undefined,
		optionNotes: notes.filter((e): e is [string, string] => typeof e[1] === "string" && e[1] !== ""),
	};
}

/** The questions of `details`, each with a string id and label (a stored result may be anything). */
function detailQuestions(details: unknown): Array<{ id: string; label: string }> {
	const questions = (details as { questions?: unknown } | undefined)?.questions;
	if (!Array.isArray(questions)) return [];
	return questions.flatMap((q, i) =>
		q && typeof q === "object" && typeof (q as { id?: unknown }).id === "string"
			? [{ id: (q as { id: string }).id, label: text((q as { label?: unknown }).label) ?? `Q${i + 1}` }]
			: [],
	);
}

/**
 * The result row. Collapsed, as the contract's project renders it (its `renderResultText`):
 * `Cancelled` for any cancelled result; else one `✓ Label: Label, Label` line per answered
 * question (`✓ Label: (wrote) text` when the answer is only custom text), its note on a line
 * `  note: …` (shown for a question answered with a note only too) and each chosen option's
 * note on a line `  Vue note: …`; `Submitted` when nothing was answered. An elaborate result:
 * see {@link elaborateText}. Expanded: how the flow ended (dismissed, Needs user input, aborted,
 * timeout, an invalid payload), or every question with its answer (custom text in quotes) or
 * `skipped`, and every note in full, one a line. Payload and answer text is escaped
 * ({@link safe}); a stored result of any shape is drawn, never thrown on.
 */
export function resultText(
	result: { content?: Array<{ type: string; text?: string }>; details?: unknown },
	expanded: boolean,
	theme: Theme,
	secret: ReadonlySet<string> = new Set(),
): string {
	if (secret.size > 0) result = { ...result, details: maskSecrets(result.details, secret) };
	const details = result.details as (Partial<AskUserDetails> & Record<string, unknown>) | undefined;
	if (!details || typeof details !== "object" || !Array.isArray(details.questions)) {
		const first = (Array.isArray(result.content) ? result.content : []).find((c) => c?.type === "text");
		return safe(first?.text ?? "");
	}
	const questions = detailQuestions(details);
	if (details.cancelled) {
		if (!expanded) return theme.fg("warning", "Cancelled");
		const error = details.error && typeof details.error === "object" ? details.error : undefined;
		if (!error) return theme.fg("warning", "✗ The user dismissed the questionnaire");
		if (error.code === "no_ui") return theme.fg("warning", "✗ Needs user input: no terminal to ask on; the model got the questions as text");
		return theme.fg("warning", `✗ Cancelled (${oneLine(error.code, 40)}): ${oneLine(error.message, 100)}`);
	}
	if (details.mode === "elaborate") return elaborateText(details, questions, expanded, theme);
	const lines: string[] = [];
	for (const q of questions) {
		const answer = answerOf(details.answers, q.id);
		const label = oneLine(q.label, 60);
		const answered = !!answer && answer.labels.some((l) => l !== "");
		if (!expanded) {
			if (!answer) continue;
			if (answered) {
				const wrote = answer.indices.length === 0 && !!answer.customText ? "(wrote) " : "";
				lines.push(`${theme.fg("success", "✓")} ${theme.fg("accent", label)}: ${wrote}${answer.labels.map((l) => oneLine(l, 200)).join(", ")}`);
			}
			// A question with only a note still shows it (the upstream's "question-note-only" row).
			if (answer.note) lines.push(theme.fg("muted", `  note: ${oneLine(answer.note, 200)}`));
			answer.values.forEach((value, i) => {
				const note = answer.optionNotes.find(([v]) => v === value)?.[1];
				if (note) lines.push(theme.fg("muted", `  ${oneLine(answer.labels[i] || value, 60)} note: ${oneLine(note, 200)}`));
			});
			continue;
		}
		let line: string;
		if (answer && answered) {
			const shown = answer.labels.map((l, i) =>
				answer.customText !== undefined && i === answer.labels.length - 1 && answer.values[i] === answer.customText ? `“${oneLine(l, 60)}”` : oneLine(l, 60),
			);
			line = `${theme.fg("success", "✓ ")}${theme.fg("accent", label)}: ${shown.join(", ")}`;
		} else {
			line = `${theme.fg("dim", "– ")}${theme.fg("accent", label)}: ${theme.fg("dim", "skipped")}`;
		}
		const notes: string[] = [];
		if (answer?.note) notes.push(`note: ${answer.note}`);
		for (const [value, note] of answer?.optionNotes ?? []) {
			const i = answer?.values.indexOf(value) ?? -1;
			notes.push(`note on ${i >= 0 && answer?.labels[i] ? answer.labels[i] : value}: ${note}`);
		}
		for (const note of notes) line += `\n    ${theme.fg("muted", safe(note))}`;
		lines.push(line);
	}
	if (!expanded && lines.length === 0) return theme.fg("success", "Submitted");
	return lines.join("\n");
}

/** How a secret answer is shown in the rows: six bullets, whatever its length (as pi-ask shows it). */
export const SECRET_SHOWN = "\u2022".repeat(6);

/** The ids of the call's secret questions (`secret: true` in its arguments; anything else is none). */
export function secretIds(args: unknown): Set<string> {
	const questions = (args as { questions?: unknown } | undefined)?.questions;
	if (!Array.isArray(questions)) return new Set();
	return new Set(
		questions.flatMap((q) =>
			q && typeof q === "object" && (q as { secret?: unknown }).secret === true && typeof (q as { id?: unknown }).id === "string" ? [(q as { id: string }).id] : [],
		),
	);
}

/**
 * `details` with the custom text of each question in `secret` shown as {@link SECRET_SHOWN}: in
 * its answer (`customText`, and the value and label it adds) and in the answers an elaborate
 * result's notes were written after. A copy; `details` of any shape is left as it is.
 */
function maskSecrets(details: unknown, secret: ReadonlySet<string>): unknown {
	if (!details || typeof details !== "object") return details;
	const copy = { ...(details as Record<string, unknown>) };
	const mask = (texts: unknown, custom: string) => (Array.isArray(texts) ? texts.map((t) => (t === custom ? SECRET_SHOWN : t)) : texts);
	const customs = new Map<string, string>();
	if (copy.answers && typeof copy.answers === "object") {
		const answers: Record<string, unknown> = {};
		for (const [id, raw] of Object.entries(copy.answers as Record<string, unknown>)) {
			const custom = (raw as { customText?: unknown } | null)?.customText;
			if (!secret.has(id) || typeof custom !== "string" || !raw || typeof raw !== "object") {
				answers[id] = raw;
				continue;
			}
			customs.set(id, custom);
			const answer = raw as Record<string, unknown>;
			answers[id] = { ...answer, customText: SECRET_SHOWN, values: mask(answer.values, custom), labels: mask(answer.labels, custom) };
		}
		copy.answers = answers;
	}
	const elaboration = copy.elaboration as { items?: unknown } | undefined;
	if (elaboration && typeof elaboration === "object" && Array.isArray(elaboration.items)) {
		const items = elaboration.items.map((raw) => {
			const item = raw as Record<string, unknown> | null;
			const id = (item?.question as { id?: unknown } | undefined)?.id;
			const custom = typeof id === "string" ? customs.get(id) : undefined;
			const answer = item?.answer as Record<string, unknown> | undefined;
			if (!item || custom === undefined || !answer || typeof answer !== "object") return raw;
			return { ...item, answer: { ...answer, labels: mask(answer.labels, custom), values: mask(answer.values, custom) } };
		});
		copy.elaboration = { ...elaboration, items };
	}
	return copy;
}

/** One item of `details.elaboration.items` as the rows use it (a stored result may be anything). */
interface ShownElaboration {
	questionId: string;
	prompt: string;
	/** The option's label (its value when it has none) for an option's note; none for a question's. */
	option?: string;
	/** Whether that option is chosen. */
	selected: boolean;
	/** The question's answer labels when the note was written. */
	answer: string[];
	note: string;
}

/** `details.elaboration.items`, read defensively: items with a string note and a question object. */
function elaborationItems(details: Record<string, unknown>): ShownElaboration[] {
	const items = (details.elaboration as { items?: unknown } | undefined)?.items;
	if (!Array.isArray(items)) return [];
	return items.flatMap((raw) => {
		const item = raw as Record<string, unknown> | null;
		const question = item?.question as Record<string, unknown> | undefined;
		if (!item || typeof item.note !== "string" || !question || typeof question !== "object") return [];
		const target = item.target as { kind?: unknown; optionValue?: unknown } | undefined;
		const option = item.option as { label?: unknown; value?: unknown } | undefined;
		const optionName = target?.kind === "option" ? (text(option?.label) ?? text(option?.value) ?? text(target.optionValue)) : undefined;
		const labels = (item.answer as { labels?: unknown } | undefined)?.labels;
		return [
			{
				questionId: String(question.id ?? ""),
				prompt: String(question.prompt ?? ""),
				option: optionName,
				selected: item.selected === true,
				answer: Array.isArray(labels) ? labels.map((l) => String(l ?? "")).filter((l) => l !== "") : [],
				note: item.note,
			},
		];
	});
}

/** `value` in double quotes as the upstream quotes it (JSON), on one line, escaped ({@link safe}), cut to `max`. */
function quoted(value: string, max: number): string {
	const flat = value.replace(/\s+/g, " ").trim();
	return safe(JSON.stringify(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat));
}

/**
 * The rows of an elaborate result (`details.mode` `elaborate`: the person asked about notes
 * instead of submitting). Collapsed, as the contract's project draws it: one line per note,
 * `User asked to elaborate on question "…" option "…" after current answer "…" with note "…"`
 * (without notes, one per answered question, `… after current answer "…"`). Expanded: a line
 * saying so, then every question: `?` for one to be asked again (its current answer, each of its
 * notes in full, a note on an option not chosen marked so), `✓` for an answer kept, `–` skipped.
 */
function elaborateText(details: Record<string, unknown>, questions: Array<{ id: string; label: string }>, expanded: boolean, theme: Theme): string {
	const items = elaborationItems(details);
	if (!expanded) {
		const after = (labels: string[]) => (labels.length > 0 ? ` after current answer ${quoted(labels.join(", "), 200)}` : "");
		const lines = items.map(
			(item) =>
				`User asked to elaborate on question ${quoted(item.prompt, 200)}${item.option !== undefined ? ` option ${quoted(item.option, 60)}` : ""}${after(item.answer)} with note ${quoted(item.note, 200)}`,
		);
		if (lines.length === 0) {
			const all = (details.questions as unknown[]).flatMap((q) => (q && typeof q === "object" ? [q as { id?: unknown; prompt?: unknown }] : []));
			for (const q of all) {
				const answer = answerOf(details.answers, q.id);
				if (answer && answer.labels.length > 0) lines.push(`User asked to elaborate on question ${quoted(String(q.prompt ?? ""), 200)}${after(answer.labels)}`);
			}
		}
		if (lines.length === 0) lines.push("User asked for elaboration based on notes");
		return lines.map((line) => theme.fg("warning", line)).join("\n");
	}
	const states = (details.continuation as { questionStates?: unknown } | undefined)?.questionStates;
	const lines = [theme.fg("warning", "? The user asked to elaborate before answering")];
	for (const q of questions) {
		const answer = answerOf(details.answers, q.id);
		const label = theme.fg("accent", oneLine(q.label, 60));
		const shown = answer && answer.labels.some((l) => l !== "") ? answer.labels.map((l) => oneLine(l, 60)).join(", ") : undefined;
		const notes = items.filter((item) => item.questionId === q.id);
		const again = notes.length > 0 || own<{ status?: unknown }>(states, q.id)?.status === "needs_clarification";
		let line: string;
		if (again) line = `${theme.fg("warning", "? ")}${label}: ${shown ?? theme.fg("dim", "no answer yet")}`;
		else if (shown !== undefined) line = `${theme.fg("success", "✓ ")}${label}: ${shown}`;
		else line = `${theme.fg("dim", "– ")}${label}: ${theme.fg("dim", "skipped")}`;
		for (const item of notes) {
			const on = item.option === undefined ? "note" : `note on ${item.option}${item.selected ? "" : " (not chosen)"}`;
			line += `\n    ${theme.fg("muted", safe(`${on}: ${item.note}`))}`;
		}
		lines.push(line);
	}
	return lines.join("\n");
}

// ---------------------------------------------------------------------------------------------
// The extension.
// ---------------------------------------------------------------------------------------------

const DESCRIPTION = `Ask the user clarifying questions in an interactive terminal questionnaire and wait for the answers.
Use it when the implementation depends on the user's preferences or on requirements you do not know, instead of guessing.
Each question has an id, a prompt, and options ({value, label, description?}); the user picks options (single: one, multi: any) or types their own answer, can add notes, reviews, and submits or cancels.
type "preview" shows each option's preview text (code, a layout, a config file) and needs preview on every option.
The result lists each answer by question id with the chosen values and labels, any custom text and notes; unanswered questions are omitted.
If the user cancels, or no terminal is available ("Needs user input"), no answers are given: do not assume any.`;

// ---------------------------------------------------------------------------------------------
// Events for hosts, the session's ask entries, a broken answers file.
// ---------------------------------------------------------------------------------------------

/** The `pi.events` channel on which a questionnaire's start is announced ({@link AskStartedEvent}). */
export const ASK_STARTED = "ask:started";
/** The `pi.events` channel on which a questionnaire's end is announced ({@link AskCompletedEvent}). */
export const ASK_COMPLETED = "ask:completed";

/** Where a questionnaire came from: the model's `ask_user` call, `/ask:replay`, or the offer made on resuming a session. */
export type AskSource = "tool" | "replay" | "resume";

/** The `pi.events` channel on which another extension answers a questionnaire that is up ({@link AskSubmitEvent}). */
export const ASK_SUBMIT = "ask:submit";
/** The `pi.events` channel on which a submit's outcome is told ({@link AskSubmitResultEvent}). */
export const ASK_SUBMIT_RESULT = "ask:submit-result";

/** A question of {@link AskStartedEvent}: as `details.questions` lists it, with its options' values. */
export type AskStartedQuestion = AskUserDetails["questions"][number] & {
	options: Array<{ value: string; label: string; description?: string }>;
};

/**
 * `ask:started`, emitted on `pi.events` when the person is about to be asked (the binary is
 * started): `id` is the flow's id (the tool call's id for `ask_user`; the same in its
 * `ask:completed`), also as `flowId` (eko24ive/pi-ask's remote events: a bridge answers with
 * it, {@link ASK_SUBMIT}), `questions` the questions as `details.questions` lists them, each
 * with its options' values and labels.
 */
export interface AskStartedEvent {
	version: 1;
	id: string;
	flowId: string;
	toolCallId?: string;
	source: AskSource;
	title?: string;
	questions: AskStartedQuestion[];
	createdAt: number;
}

/** One answer of {@link AskSubmitEvent}, by option value: the `--answers` format's answer object. */
export interface AskRemoteAnswer {
	values?: string[];
	customText?: string;
	note?: string;
	optionNotes?: Record<string, string>;
}

/**
 * `ask:submit`, emitted by another extension in the same pi process to answer the
 * questionnaire `flowId` from elsewhere (eko24ive/pi-ask's `submit`): answers by question id
 * and option value, `mode` `submit` (the default) or `elaborate`; or an explicit cancel. The
 * answers replace any the person gave; they are checked as an answers file (docs/elsewhere.md).
 */
export interface AskSubmitEvent {
	version: 1;
	requestId: string;
	flowId: string;
	/** Who answers, for the questionnaire's last line (`answered from elsewhere: FROM`); default "pi events". */
	from?: string;
	response: { kind: "answer"; mode?: "submit" | "elaborate"; answers: Record<string, AskRemoteAnswer> } | { kind: "cancel" };
}

/** `ask:submit-result`: how a submit went (eko24ive/pi-ask's `submit-result`). */
export type AskSubmitResultEvent =
	| { version: 1; requestId: string; flowId: string; ok: true }
	| {
			version: 1;
			requestId: string;
			flowId: string;
			ok: false;
			error: "flow_not_found" | "invalid_request" | "invalid_answer";
			message: string;
	  };

/**
 * The answer request for the binary's channel that a submit stands for (docs/elsewhere.md "The
 * request"), or why it cannot be one.
 */
export function answerRequest(event: AskSubmitEvent, channelId: string): { request: unknown } | { problem: string } {
	const response = event.response as { kind?: unknown; mode?: unknown; answers?: unknown } | undefined;
	const from = typeof event.from === "string" && event.from.trim() ? event.from : "pi events";
	if (!response || typeof response !== "object") return { problem: "`response` must be an object" };
	if (response.kind === "cancel") return { request: { id: channelId, from, action: "cancel" } };
	if (response.kind !== "answer") return { problem: '`response.kind` is "answer" or "cancel"' };
	if (response.mode !== undefined && response.mode !== "submit" && response.mode !== "elaborate") {
		return { problem: '`response.mode` is "submit" or "elaborate"' };
	}
	if (!response.answers || typeof response.answers !== "object" || Array.isArray(response.answers)) {
		return { problem: "`response.answers` must be an object of answers by question id" };
	}
	return { request: { id: channelId, from, action: response.mode ?? "submit", answers: response.answers } };
}

/** The questions of {@link AskStartedEvent}: `details.questions`' list, with each question's options (value, label, description). */
function startedQuestions(params: AskUserParams): AskStartedQuestion[] {
	const entries = argQuestions(params);
	return questionSummaries(params).map((summary, n) => {
		const q = entries[n]?.q ?? {};
		const options = Array.isArray(q.options) ? (q.options as unknown[]) : [];
		return {
			...summary,
			options: options.flatMap((o) => {
				if (typeof o === "string") return o.trim() ? [{ value: o.trim(), label: o.trim() }] : [];
				if (!o || typeof o !== "object") return [];
				const option = o as { value?: unknown; label?: unknown; description?: unknown };
				const label = text(option.label)?.trim();
				const value = text(option.value)?.trim() ?? label;
				if (!value) return [];
				const description = text(option.description)?.trim();
				return [{ value, label: label ?? value, ...(description ? { description } : {}) }];
			}),
		};
	});
}

/**
 * How a questionnaire ended, in `ask:completed`: `submitted`; `dismissed` (Esc, Cancel,
 * Ctrl+C); otherwise the result's `details.error.code` (`timeout`, `aborted`, `no_ui`,
 * `invalid_payload`, `invalid_answers`, `terminal_lost`, ...), or `error` when there is no
 * result (a tool error: no binary, a killed one).
 */
export type AskEnding = "submitted" | "dismissed" | "error" | (string & {});

/** `ask:completed`, emitted on `pi.events` when that questionnaire has ended. */
export interface AskCompletedEvent {
	id: string;
	source: AskSource;
	ending: AskEnding;
	/** The ids of the questions answered (for `submitted`, and the answers a timeout kept). */
	answered: string[];
}

/** How a result ended ({@link AskEnding}). */
export function endingOf(result: AskUserResult | undefined): AskEnding {
	const details = result?.details;
	if (!details) return "error";
	if (!details.cancelled) return "submitted";
	return typeof details.error?.code === "string" ? details.error.code : "dismissed";
}

/** The custom entry type of the payloads kept in the session (`pi.appendEntry`), one per questionnaire. */
export const ASK_PAYLOAD_ENTRY = "ask:payload";
/** The custom entry type that records that an unanswered call was offered again on resuming (once per call). */
export const ASK_OFFERED_ENTRY = "ask:offered";

/** The data of an {@link ASK_PAYLOAD_ENTRY} entry. */
export interface AskPayloadEntry {
	version: 1;
	source: AskSource;
	/** The `ask_user` call the payload came from (for `replay` and `resume`: the call replayed). */
	toolCallId?: string;
	params: AskUserParams;
}

type Branch = ReturnType<ExtensionContext["sessionManager"]["getBranch"]>;
type SessionView = Pick<ExtensionContext["sessionManager"], "getBranch"> & Partial<Pick<ExtensionContext["sessionManager"], "getEntries">>;

/** The branch's entries, or none when the session cannot give them. */
function branchOf(sessionManager: SessionView | undefined): Branch {
	try {
		return sessionManager?.getBranch() ?? [];
	} catch {
		return [];
	}
}

/** The `ask_user` tool calls of an entry (an assistant message), with their ids and arguments. */
function askCalls(entry: unknown): Array<{ id: string; params: AskUserParams }> {
	const e = entry as { type?: string; message?: { role?: string; content?: unknown } };
	if (e?.type !== "message" || e.message?.role !== "assistant" || !Array.isArray(e.message.content)) return [];
	return (e.message.content as Array<{ type?: string; name?: string; id?: unknown; arguments?: unknown }>).flatMap((c) =>
		c?.type === "toolCall" && c.name === "ask_user" && typeof c.id === "string" && c.arguments && typeof c.arguments === "object"
			? [{ id: c.id, params: c.arguments as AskUserParams }]
			: [],
	);
}

function customData<T>(entry: unknown, customType: string): T | undefined {
	const e = entry as { type?: string; customType?: string; data?: unknown };
	return e?.type === "custom" && e.customType === customType && e.data && typeof e.data === "object" ? (e.data as T) : undefined;
}

/**
 * The payload `/ask:replay` re-opens: the newest on the branch of the payloads kept as the
 * session's entries ({@link ASK_PAYLOAD_ENTRY}) and the `ask_user` calls' own arguments (a
 * session written before the entries were kept), with the call it came from.
 */
export function latestPayload(sessionManager: SessionView | undefined): { params: AskUserParams; toolCallId?: string } | undefined {
	const branch = branchOf(sessionManager);
	for (let i = branch.length - 1; i >= 0; i--) {
		const kept = customData<AskPayloadEntry>(branch[i], ASK_PAYLOAD_ENTRY);
		if (kept && kept.version === 1 && kept.params && Array.isArray(kept.params.questions)) return { params: kept.params, toolCallId: kept.toolCallId };
		const calls = askCalls(branch[i]);
		if (calls.length > 0) return { params: calls[calls.length - 1].params, toolCallId: calls[calls.length - 1].id };
	}
	return undefined;
}

/**
 * The newest `ask_user` call of the branch when it has no result (pi ended while it ran: an ssh
 * drop, a closed terminal), or only an interrupted one ({@link interruptedResult}: pi ended by
 * SIGTERM or SIGHUP), and was not offered again yet ({@link ASK_OFFERED_ENTRY}); else `undefined`.
 * Only the newest call of the branch counts; its result and the offer are looked for in the
 * whole session, so `/tree` back to a call answered on another branch does not offer it.
 */
export function unansweredCall(sessionManager: SessionView | undefined): { params: AskUserParams; toolCallId: string } | undefined {
	const branch = branchOf(sessionManager);
	let everything: readonly unknown[] = branch;
	try {
		everything = sessionManager?.getEntries?.() ?? branch;
	} catch {
		// the branch alone
	}
	const answered = new Set<string>();
	const offered = new Set<string>();
	for (const entry of everything) {
		const e = entry as { type?: string; message?: { role?: string; toolCallId?: unknown; details?: { error?: { code?: unknown } } } };
		if (e?.type === "message" && e.message?.role === "toolResult" && typeof e.message.toolCallId === "string" && e.message.details?.error?.code !== INTERRUPTED) {
			answered.add(e.message.toolCallId);
		}
		const mark = customData<{ toolCallId?: unknown }>(entry, ASK_OFFERED_ENTRY);
		if (typeof mark?.toolCallId === "string") offered.add(mark.toolCallId);
	}
	for (let i = branch.length - 1; i >= 0; i--) {
		const calls = askCalls(branch[i]);
		if (calls.length === 0) continue;
		const newest = calls[calls.length - 1];
		return answered.has(newest.id) || offered.has(newest.id) ? undefined : { params: newest.params, toolCallId: newest.id };
	}
	return undefined;
}

/**
 * The user message that carries the answers of a questionnaire asked outside a tool call
 * (`/ask:replay`, the offer on resuming): what it was and the result's content, as the model
 * reads a tool result.
 */
export function answersMessage(source: Exclude<AskSource, "tool">, result: AskUserResult): string {
	const content = result.content.map((c) => c.text).join("\n");
	const why =
		source === "resume"
			? "pi ended before I could answer your last ask_user call, so it got no answers. I answered its questions now:"
			: "I answered your last ask_user form again:";
	return `${why}\n\n${content}`;
}

/**
 * The tool error for an answers file (`PI_ASK_ANSWERS`) that cannot be used: a problem of the
 * run's setup, which the model cannot fix by calling again. Each problem as the binary lists it.
 */
export function answersFileProblemText(file: string, details: AskUserDetails): string {
	const problems = Array.isArray(details.error?.problems) ? (details.error.problems as Array<{ path?: unknown; message?: unknown; code?: unknown }>) : [];
	const lines = problems.map((p) => `- ${p.path ? `${String(p.path)}: ` : ""}${String(p.message ?? "")}${p.code ? ` [${String(p.code)}]` : ""}`);
	return (
		`ask_user answers every call from the file PI_ASK_ANSWERS=${file}, which cannot be used (${problems.length} problem${problems.length === 1 ? "" : "s"}):\n` +
		`${lines.join("\n")}\n` +
		"This is a problem of this run's setup, not of your call: do not call ask_user again; stop and report that the answers file must be fixed."
	);
}

/** The exit code pi ends with after an answers file could not be used (the binary's for an invalid answers file). */
export const ANSWERS_FILE_EXIT_CODE = 2;

/**
 * Registers the `ask_user` tool, its flags, the `/ask-settings` and `/ask:replay` commands, and
 * the offer of an unanswered call on starting or resuming a session.
 */
export default function piAsk(pi: ExtensionAPI): void {
	// The person's settings (plain mode, screen, bell, timeout, escape delay): pi's flags for one
	// run, the "piAsk" object of pi's settings for every run, read at each call.
	for (const flag of Object.values(ASK_FLAGS)) {
		if (flag.type === "boolean") pi.registerFlag(flag.name, { description: flag.description, type: "boolean", default: false });
		else pi.registerFlag(flag.name, { description: flag.description, type: "string" });
	}
	const currentSettings = (): ResolvedSettings => {
		let settings: unknown;
		try {
			settings = pi.getSettings();
		} catch {
			settings = undefined;
		}
		return resolveAskSettings({ flag: (name) => pi.getFlag(name), settings, env: process.env });
	};
	pi.on("session_start", (_event, ctx) => {
		const { problems } = currentSettings();
		if (problems.length > 0) ctx.ui.notify(settingsProblemText(problems), "warning");
		offerUnanswered(ctx);
	});
	pi.on("session_tree", (_event, ctx) => offerUnanswered(ctx));

	/** Runs one questionnaire, announced on `pi.events` and its payload kept in the session. */
	const ask = async (
		source: AskSource,
		id: string,
		params: AskUserParams,
		signal: AbortSignal | undefined,
		ctx: ExtensionContext,
		toolCallId: string | undefined,
	): Promise<AskUserResult & { mode: RunMode; stderr: string }> => {
		const { settings, problems } = currentSettings();
		if (problems.length > 0) throw new Error(settingsProblemText(problems));
		const bin = findBinary();
		try {
			pi.appendEntry<AskPayloadEntry>(ASK_PAYLOAD_ENTRY, { version: 1, source, ...(toolCallId ? { toolCallId } : {}), params });
		} catch {
			// A session that keeps no entries (--no-session keeps them in memory): nothing to replay later.
		}
		const started: AskStartedEvent = {
			version: 1,
			id,
			flowId: id,
			...(toolCallId ? { toolCallId } : {}),
			source,
			...(typeof params.title === "string" ? { title: params.title } : {}),
			questions: startedQuestions(params),
			createdAt: Date.now(),
		};
		// Answers from elsewhere (ask:submit) wait for the binary's channel.
		const flow: Flow = { waiting: [] };
		flows.set(id, flow);
		emit(ASK_STARTED, started);
		let result: (AskUserResult & { mode: RunMode; stderr: string }) | undefined;
		try {
			result = await askWithBinary(bin.path, params, signal, ctx, {
				checkVersion: (signal) => checkBinaryVersion(bin.path, signal),
				lifeline: (signal) => binaryTakesLifeline(bin.path, signal),
				answerChannel: {
					takes: (signal) => binaryTakesAnswerChannel(bin.path, signal),
					said: (channel) => {
						flow.channel = channel;
						for (const wake of flow.waiting.splice(0)) wake();
					},
				},
				context: toolCallId ? askingText(ctx.sessionManager, toolCallId) : undefined,
				settings,
			});
			return result;
		} finally {
			flows.delete(id);
			flow.ended = true;
			for (const wake of flow.waiting.splice(0)) wake();
			const answered = result ? Object.keys(result.details.answers ?? {}) : [];
			emit(ASK_COMPLETED, { id, source, ending: endingOf(result), answered } satisfies AskCompletedEvent);
		}
	};
	const emit = (channel: string, data: unknown) => {
		try {
			pi.events?.emit(channel, data);
		} catch {
			// A listener's error is the listener's.
		}
	};

	/** The questionnaires up now, by flow id: the binary's answer channel once it said it. */
	interface Flow {
		channel?: AnswerChannel;
		ended?: boolean;
		waiting: Array<() => void>;
	}
	const flows = new Map<string, Flow>();
	/** The channel of `flow`, waited for a little (the binary says it as it starts). */
	const channelOf = (flow: Flow): Promise<AnswerChannel | undefined> =>
		flow.channel || flow.ended
			? Promise.resolve(flow.channel)
			: new Promise((resolve) => {
					const timer = setTimeout(() => resolve(flow.channel), CHANNEL_WAIT_MS);
					flow.waiting.push(() => {
						clearTimeout(timer);
						resolve(flow.channel);
					});
				});
	// ask:submit from another extension: forwarded to the binary's channel, told in ask:submit-result.
	pi.events?.on?.(ASK_SUBMIT, (data) => {
		void (async () => {
			const event = (data ?? {}) as AskSubmitEvent;
			const requestId = typeof event.requestId === "string" ? event.requestId : "";
			const flowId = typeof event.flowId === "string" ? event.flowId : "";
			const fail = (error: "flow_not_found" | "invalid_request" | "invalid_answer", message: string) =>
				emit(ASK_SUBMIT_RESULT, { version: 1, requestId, flowId, ok: false, error, message } satisfies AskSubmitResultEvent);
			if (!flowId) return fail("invalid_request", "`flowId` must name the questionnaire (ask:started's flowId)");
			const flow = flows.get(flowId);
			if (!flow) return fail("flow_not_found", `no questionnaire ${JSON.stringify(flowId)} is up`);
			const channel = await channelOf(flow);
			if (!channel) {
				return fail("flow_not_found", `questionnaire ${JSON.stringify(flowId)} takes no answers from elsewhere (it ended, or its pi-ask has no answer channel)`);
			}
			const made = answerRequest(event, channel.id);
			if ("problem" in made) return fail("invalid_request", made.problem);
			let reply: AnswerReply;
			try {
				reply = await sendAnswerRequest(channel.socket, made.request);
			} catch (error) {
				return fail("flow_not_found", `questionnaire ${JSON.stringify(flowId)} is no longer up: ${(error as Error).message}`);
			}
			switch (reply.status) {
				case "ok":
					return emit(ASK_SUBMIT_RESULT, { version: 1, requestId, flowId, ok: true } satisfies AskSubmitResultEvent);
				case "invalid":
					return fail(
						"invalid_answer",
						(reply.problems ?? []).map((p) => `${p.path ? `${p.path}: ` : ""}${p.message} [${p.code}]`).join("\n") || (reply.message ?? "invalid"),
					);
				case "busy":
					return fail("invalid_request", reply.message ?? "the questionnaire was busy: try again");
				default:
					return fail("flow_not_found", reply.message ?? `questionnaire ${JSON.stringify(flowId)} was answered already`);
			}
		})();
	});

	/**
	 * Asks outside a tool call (`/ask:replay`, the offer on resuming): the text of the user's
	 * message that carries the answers ({@link answersMessage}), or `undefined` (and a
	 * notification) when there are none.
	 */
	const answersFor = async (source: Exclude<AskSource, "tool">, found: { params: AskUserParams; toolCallId?: string }, ctx: ExtensionContext) => {
		const id = `${source}-${found.toolCallId ?? "form"}-${Date.now().toString(36)}`;
		let result: AskUserResult;
		try {
			result = await ask(source, id, found.params, undefined, ctx, found.toolCallId);
		} catch (error) {
			ctx.ui.notify(`ask_user: ${(error as Error).message}`, "error");
			return undefined;
		}
		if (result.details.cancelled) {
			ctx.ui.notify(`ask_user: the questionnaire ended without answers (${endingOf(result)}); nothing was sent.`, "info");
			return undefined;
		}
		return answersMessage(source, result);
	};

	/** Sends the answers as the user's message; with `waitForIdle` (a command), waits for the turn it starts. */
	const sendAnswers = async (text: string, ctx: ExtensionContext, waitForIdle?: () => Promise<void>) => {
		if (ctx.isIdle()) pi.sendUserMessage(text);
		else pi.sendUserMessage(text, { deliverAs: "followUp" });
		// A command waits for the turn it started (print mode would end before it otherwise).
		if (waitForIdle) {
			await new Promise<void>((resolve) => setImmediate(resolve));
			await waitForIdle();
		}
	};

	/**
	 * The offer being made ({@link offerUnanswered}): its answers' message once settled. An
	 * input that comes meanwhile (`pi --continue "go on"`) `claims` it: waits for it and carries
	 * its answers first, so no new turn starts before the person has answered or declined.
	 */
	let offer: { answers: Promise<string | undefined>; claimed: boolean } | undefined;

	/**
	 * On starting or resuming a session (and after /tree): when the newest ask_user call of the
	 * branch has no result ({@link unansweredCall}), offers it again, once (an
	 * {@link ASK_OFFERED_ENTRY} entry records it before asking, so a second resume does not
	 * offer it again). Not awaited: pi's start goes on while the offer is up; a prompt waits
	 * for it (the `input` handler below).
	 */
	function offerUnanswered(ctx: ExtensionContext): void {
		if (!ctx.hasUI || offer) return;
		const found = unansweredCall(ctx.sessionManager);
		if (!found) return;
		try {
			pi.appendEntry(ASK_OFFERED_ENTRY, { toolCallId: found.toolCallId });
		} catch {
			return;
		}
		const asking = async () => {
			const labels = questionSummaries(found.params).map((q) => q.label).join(", ");
			const yes = await ctx.ui.confirm(
				"Unanswered questions",
				`pi ended while the agent's questions (${safe(labels)}) were up, so the agent got no answers. Answer them now? Your answers are sent as your message.`,
			);
			return yes ? await answersFor("resume", found, ctx) : undefined;
		};
		const current = {
			claimed: false,
			answers: asking().catch((error) => {
				try {
					ctx.ui.notify(`ask_user: ${(error as Error).message}`, "error");
				} catch {}
				return undefined;
			}),
		};
		offer = current;
		void current.answers.then(async (text) => {
			offer = undefined;
			if (text === undefined || current.claimed) return;
			try {
				await sendAnswers(text, ctx);
			} catch (error) {
				try {
					ctx.ui.notify(`ask_user: ${(error as Error).message}`, "error");
				} catch {}
			}
		});
	}

	pi.on("input", async (event) => {
		const current = offer;
		if (!current) return;
		current.claimed = true;
		const text = await current.answers;
		if (text === undefined) return;
		return { action: "transform", text: `${text}\n\n${event.text}`, images: event.images };
	});

	pi.registerCommand("ask:replay", {
		description: "Open the latest ask_user form of this branch again and send its answers as your message",
		handler: async (_args, ctx) => {
			const found = latestPayload(ctx.sessionManager);
			if (!found) {
				ctx.ui.notify("No ask_user form on this branch to replay.", "warning");
				return;
			}
			const text = await answersFor("replay", found, ctx);
			if (text !== undefined) await sendAnswers(text, ctx, () => ctx.waitForIdle());
		},
	});
	pi.registerCommand("ask-settings", {
		description: "Show the ask_user settings in force (plain, screen, bell, timeout, escape delay) and where each comes from",
		handler: async (_args, ctx) => {
			const resolved = currentSettings();
			ctx.ui.notify(settingsReport(resolved), resolved.problems.length > 0 ? "warning" : "info");
		},
	});

	pi.registerTool({
		name: "ask_user",
		label: "Ask user",
		description: DESCRIPTION,
		promptSnippet: "Ask the user grouped clarifying questions (options, free-form answers, notes) and wait for the answers",
		promptGuidelines: [
			"Use ask_user when requirements are ambiguous or the user's preference materially changes the implementation; do not guess, and do not ask in plain text what ask_user can ask.",
			"Group related questions into one ask_user call (1-4 questions) rather than several calls; give each question a short label (1-3 words) and 2-5 options with a description each.",
			'In ask_user, use type "single" (the default) unless several options can genuinely apply together; only then use type "multi".',
			'In ask_user, use type "preview" when the choice is between pieces of code, layouts or config snippets: put the snippet in each option\'s preview.',
			"After ask_user returns, continue the task using the answers explicitly (values, custom text and notes); if ask_user was cancelled or says Needs user input, do not assume answers: ask in plain text or proceed without those choices and say so.",
		],
		parameters: askUserParameters,
		executionMode: "sequential",

		async execute(toolCallId, params, signal, _onUpdate, ctx) {
			// A setting that cannot be used is the tool error: the questionnaire never runs
			// otherwise than the person chose.
			const result = await ask("tool", toolCallId, params, signal, ctx, toolCallId);
			const { content, details } = result;
			// An answers file that cannot be used fails the run loudly: the problems on stderr
			// (in pi's TUI, a notification), an error result, and pi's exit code.
			const answersFile = process.env.PI_ASK_ANSWERS;
			if (result.mode === "scripted" && answersFile && details.error?.code === "invalid_answers") {
				const said = result.stderr.trim() || `pi-ask: ${answersFileProblemText(answersFile, details)}`;
				if (ctx.mode === "tui") ctx.ui.notify(said, "error");
				else {
					process.stderr.write(`${said}\n`);
					process.exitCode = ANSWERS_FILE_EXIT_CODE;
				}
				return { content: [{ type: "text" as const, text: answersFileProblemText(answersFile, details) }], details, isError: true };
			}
			return { content, details };
		},

		renderCall(args, theme, context) {
			const row = (context?.lastComponent as Text | undefined) ?? new Text("", 0, 0);
			row.setText(callText(args, theme, context?.expanded ?? false));
			return row;
		},

		renderResult(result, options, theme, context) {
			const row = (context?.lastComponent as Text | undefined) ?? new Text("", 0, 0);
			row.setText(options?.isPartial ? theme.fg("muted", "Waiting for the user's answers…") : resultText(result, options?.expanded ?? false, theme, secretIds(context?.args)));
			return row;
		},
	});
}

#!/usr/bin/env node
// `pi-ask` on the command line from the npm package (`npx pi-ask --version`, or a global
// install): runs the prebuilt binary of the platform package that npm installed beside this
// package, as esbuild's and biome's launchers do. The platform packages are this package's
// optional dependencies (`pi-ask-<os>-<cpu>[-<libc>]`), chosen as the extension chooses them
// (index.ts, `platformPackages`): on Linux the C library is checked at run time, since not
// every package manager honours `libc`. `PI_ASK_BIN`, when set, names the binary instead.
//
// The binary gets this process's arguments, standard streams and environment; its exit code
// is this one's, and a binary ended by a signal ends this process with the same signal. With
// no binary (none installed, or none published for this platform) it says what is missing on
// stderr and exits with 127, as a shell's "command not found" (126: found, cannot be run).
// While the binary runs, SIGINT and SIGQUIT are left to it (a Ctrl+C at the terminal reaches
// both; pi-ask answers it with its dismissed result), and SIGTERM and SIGHUP are passed on.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as os from "node:os";
import * as path from "node:path";

const PLATFORMS = ["linux-x64-gnu", "linux-x64-musl", "linux-arm64-gnu", "linux-arm64-musl", "darwin-x64", "darwin-arm64"];

function isGlibc() {
	try {
		return typeof process.report.getReport().header.glibcVersionRuntime === "string";
	} catch {
		return undefined;
	}
}

/** The platform packages that may hold this host's binary, best first (as index.ts). */
function platformPackages(platform, arch) {
	if (arch !== "x64" && arch !== "arm64") return [];
	if (platform === "darwin") return [`pi-ask-darwin-${arch}`];
	if (platform !== "linux") return [];
	const glibc = isGlibc();
	const gnu = `pi-ask-linux-${arch}-gnu`;
	const musl = `pi-ask-linux-${arch}-musl`;
	if (glibc === true) return [gnu, musl];
	if (glibc === false) return [musl];
	return [musl, gnu];
}

function isExecutableFile(file) {
	try {
		fs.accessSync(file, fs.constants.X_OK);
		return fs.statSync(file).isFile();
	} catch {
		return false;
	}
}

/** Ends with `message` on stderr and no result: 127 as a shell's "command not found", or 126. */
function fail(message, code = 127) {
	process.stderr.write(`pi-ask (npm launcher): ${message}\n`);
	process.exit(code);
}

function findBinary() {
	const fromEnv = process.env.PI_ASK_BIN?.trim();
	if (fromEnv) {
		if (isExecutableFile(fromEnv)) return fromEnv;
		fail(`PI_ASK_BIN is set to ${JSON.stringify(fromEnv)}, which is not an executable file.`);
	}
	const { platform, arch } = process;
	const packages = platformPackages(platform, arch);
	if (packages.length === 0) {
		fail(
			`there is no prebuilt pi-ask binary for ${platform}-${arch}; the npm packages hold one for ` +
				`${PLATFORMS.join(", ")}. Build it from source with \`cargo install pi-ask\` (Rust 1.85 or newer) ` +
				"and run that pi-ask, or set PI_ASK_BIN to a pi-ask binary.",
		);
	}
	const require = createRequire(import.meta.url);
	for (const name of packages) {
		let file;
		try {
			file = path.join(path.dirname(require.resolve(`${name}/package.json`)), "bin", "pi-ask");
		} catch {
			continue;
		}
		if (!fs.existsSync(file)) continue;
		// Some installers drop the executable bit of package files.
		if (!isExecutableFile(file)) {
			try {
				fs.chmodSync(file, 0o755);
			} catch {}
		}
		if (isExecutableFile(file)) return file;
	}
	fail(
		`the pi-ask binary for ${platform}-${arch} is not installed: it comes in the npm package ` +
			`${packages.join(" or ")}, an optional dependency of pi-ask, and none was found. Install pi-ask again ` +
			"with optional dependencies (not with --omit=optional or --no-optional), or set PI_ASK_BIN to a pi-ask binary.",
	);
}

const binary = findBinary();
const child = spawn(binary, process.argv.slice(2), { stdio: "inherit" });
const passOn = (signal) => () => {
	try {
		child.kill(signal);
	} catch {}
};
const handlers = {
	SIGINT: () => {},
	SIGQUIT: () => {},
	SIGTERM: passOn("SIGTERM"),
	SIGHUP: passOn("SIGHUP"),
};
for (const [signal, handler] of Object.entries(handlers)) process.on(signal, handler);
child.on("error", (error) => fail(`could not run ${binary}: ${error.message}`, 126));
child.on("exit", (code, signal) => {
	for (const [name, handler] of Object.entries(handlers)) process.off(name, handler);
	if (signal) {
		// The shell's convention, should the signal not end this process.
		process.exitCode = 128 + (os.constants.signals[signal] ?? 0);
		process.kill(process.pid, signal);
	} else process.exit(code ?? 1);
});

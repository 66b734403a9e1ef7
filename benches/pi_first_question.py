#!/usr/bin/env python3
"""Tool call to first question in the real pi: ask_user (pi-ask) next to pi's own select.

Runs pi's interactive TUI (the pinned pi of examples/pi-extension, on Node >= 22.19 from
scripts/node22) in a 30x100 pseudo-terminal with benches/pi/bench.ts as the model: it
alternates an `ask_user` call (the extension under test runs pi-ask) with a `bench_select`
call (pi's own `ctx.ui.select` dialog showing the same question), ROUNDS times each. For every
call the time is taken from the tool call starting (pi's `tool_execution_start`, logged by
bench.ts) to the read after which the question's marker text is on the terminal; Esc then
closes the question and the next call follows. The first call of each kind is reported apart
(it pays for loading code, and before 0.2.0 for pi-ask's version check).

    benches/pi_first_question.py [--runs 3] [--rounds 10] [--bin target/release/pi-ask]
                                 [--extension examples/pi-extension/index.ts]

Needs: `npm ci` in examples/pi-extension (cargo test does it), a release build of pi-ask
(`cargo build --release --bin pi-ask`), Python 3 (standard library only). Prints a Markdown
table; docs/benchmarks.md has the figures.
"""

import argparse
import fcntl
import json
import os
import pty
import select
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXT_DIR = os.path.join(ROOT, "examples", "pi-extension")
PI_CLI = os.path.join(EXT_DIR, "node_modules", "@earendil-works", "pi-coding-agent", "dist", "cli.js")
BENCH_EXT = os.path.join(ROOT, "benches", "pi", "bench.ts")
ASK_MARKER = b"first-question-marker-A"
SELECT_MARKER = b"first-question-marker-B"
TIMEOUT_S = 60


def node22():
    """The path of a Node >= 22.19 (scripts/node22 --install)."""
    out = subprocess.run(
        ["bash", os.path.join(ROOT, "scripts", "node22"), "--install"],
        check=True, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL,
    )
    return out.stdout.decode().strip()


class Pty:
    """pi in a pseudo-terminal: every byte it writes, with the time each read returned."""

    def __init__(self, argv, env, cwd, rows=30, cols=100):
        pid, fd = pty.fork()
        if pid == 0:
            os.chdir(cwd)
            os.execve(argv[0], argv, env)
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.pid, self.fd = pid, fd
        self.buf = bytearray()
        self.pos = 0

    def wait_for(self, needle):
        """Reads until `needle` appears after the last match; returns the time (epoch ms)
        of the read that completed it."""
        deadline = time.monotonic() + TIMEOUT_S
        while True:
            at = self.buf.find(needle, max(0, self.pos - len(needle)))
            if at >= 0 and at + len(needle) > self.pos:
                self.pos = at + len(needle)
                return self.last_read
            if time.monotonic() > deadline:
                raise TimeoutError(f"no {needle!r}; last output: {bytes(self.buf[-2000:])!r}")
            ready, _, _ = select.select([self.fd], [], [], 1.0)
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:
                    chunk = b""
                self.last_read = time.time() * 1000.0
                if not chunk:
                    raise EOFError(f"pi ended before {needle!r}: {bytes(self.buf[-2000:])!r}")
                self.buf += chunk

    def send(self, data):
        os.write(self.fd, data)

    def finish(self):
        deadline = time.monotonic() + TIMEOUT_S
        while time.monotonic() < deadline:
            done, _ = os.waitpid(self.pid, os.WNOHANG)
            if done:
                return
            ready, _, _ = select.select([self.fd], [], [], 0.2)
            if ready:
                try:
                    os.read(self.fd, 65536)
                except OSError:
                    pass
        os.kill(self.pid, 9)
        os.waitpid(self.pid, 0)


def one_run(node, args):
    """One pi process: ROUNDS ask_user and bench_select calls; returns [(tool, ms), ...]."""
    with tempfile.TemporaryDirectory(prefix="pi-ask-bench-") as work:
        home = os.path.join(work, "home")
        os.makedirs(home)
        log = os.path.join(work, "calls.jsonl")
        env = {
            "PATH": os.path.dirname(node) + os.pathsep + os.environ.get("PATH", ""),
            "HOME": home,
            "PI_CODING_AGENT_DIR": os.path.join(home, ".pi", "agent"),
            "PI_OFFLINE": "1",
            "PI_ASK_BIN": os.path.abspath(args.bin),
            "BENCH_LOG": log,
            "BENCH_ROUNDS": str(args.rounds),
            "TERM": "xterm-256color",
            "NO_COLOR": "1",
        }
        argv = [node, PI_CLI, "--offline", "--no-session", "-ne", "-ns", "-np", "-nc",
                "-e", BENCH_EXT, "-e", os.path.abspath(args.extension),
                "--provider", "faux", "--model", "faux-1", "go"]
        p = Pty(argv, env, work)
        shown = []
        try:
            for _ in range(args.rounds):
                for tool, marker in (("ask_user", ASK_MARKER), ("bench_select", SELECT_MARKER)):
                    shown.append((tool, p.wait_for(marker)))
                    time.sleep(0.05)  # let the screen settle, then Esc closes the question
                    p.send(b"\x1b")
            p.wait_for(b"BENCH DONE")
            time.sleep(0.1)
            p.send(b"\x04")
        finally:
            p.finish()
        with open(log) as f:
            calls = [json.loads(line) for line in f if line.strip()]
        calls = [c for c in calls if c["tool"] in ("ask_user", "bench_select")]
        if [c["tool"] for c in calls] != [s[0] for s in shown]:
            raise RuntimeError(f"calls {calls} do not match the questions shown {shown}")
        return [(tool, t - c["t"]) for (tool, t), c in zip(shown, calls)]


def cell(values):
    return f"{statistics.median(values):.1f} ({min(values):.1f}–{max(values):.1f})"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3, help="pi processes (default 3)")
    ap.add_argument("--rounds", type=int, default=10, help="calls of each tool per process (default 10)")
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "pi-ask"))
    ap.add_argument("--extension", default=os.path.join(EXT_DIR, "index.ts"))
    args = ap.parse_args()
    if not os.path.exists(PI_CLI):
        sys.exit(f"{PI_CLI} is missing: run `npm ci` in {EXT_DIR}")
    node = node22()
    first = {"ask_user": [], "bench_select": []}
    later = {"ask_user": [], "bench_select": []}
    for run in range(args.runs):
        seen = set()
        for tool, ms in one_run(node, args):
            (later if tool in seen else first)[tool].append(ms)
            seen.add(tool)
        print(f"run {run + 1}/{args.runs} done", file=sys.stderr)
    load = open("/proc/loadavg").read().split()[:3] if os.path.exists("/proc/loadavg") else ["?"] * 3
    print(f"pi-ask: {subprocess.run([args.bin, '--version'], stdout=subprocess.PIPE).stdout.decode().strip()}, "
          f"extension: {os.path.relpath(os.path.abspath(args.extension), ROOT)}, "
          f"{args.runs} pi runs x {args.rounds} calls of each; load average {' '.join(load)}")
    print()
    print("| call | ask_user (pi-ask) ms | pi's ctx.ui.select ms | ratio |")
    print("|---|---|---|---|")
    for name, data in (("first call", first), ("later calls", later)):
        a, s = data["ask_user"], data["bench_select"]
        ratio = statistics.median(a) / statistics.median(s)
        print(f"| {name} | {cell(a)} | {cell(s)} | {ratio:.2f}x |")


if __name__ == "__main__":
    main()

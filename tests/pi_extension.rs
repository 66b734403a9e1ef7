//! The pi extension (`examples/pi-extension/`) against the real pi (npm
//! `@mariozechner/pi-coding-agent`, pinned in the extension's lockfile) with pi-ai's faux model:
//! no network, no real model. Needs Node >= 20.6 and npm; `npm ci` runs here when the
//! extension's `node_modules` is missing (`.ci/run` does it up front).
//!
//! - `node_tests`: the extension's node tests (`examples/pi-extension/test/*.test.mjs`): print,
//!   json and RPC mode, scripted answers, errors, `pi install`, unit tests of the helpers; run
//!   with this build of the binary as `PI_ASK_BIN`.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// `npm ci` downloads pi and its dependencies once: a few minutes at most.
const NPM_TIMEOUT: Duration = Duration::from_secs(600);
/// The whole node test run (about a dozen pi runs of a few seconds each).
const NODE_TESTS_TIMEOUT: Duration = Duration::from_secs(600);

fn ext_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/pi-extension")
}

/// The binary under test, as the extension's `PI_ASK_BIN`.
fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_pi-ask")
}

/// Runs `cmd` with stdout and stderr in a temporary file, killing it after `timeout`. Returns
/// whether it succeeded and everything it printed.
fn run_bounded(mut cmd: Command, timeout: Duration) -> (bool, String) {
    let log = tempfile::NamedTempFile::new().expect("temporary log file");
    let out = File::options().append(true).open(log.path()).unwrap();
    let err = out.try_clone().unwrap();
    let what = format!("{cmd:?}");
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err)
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {what}: {e}"));
    let deadline = Instant::now() + timeout;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let text = std::fs::read_to_string(log.path()).unwrap_or_default();
    match status {
        Some(s) => (s.success(), text),
        None => (false, format!("{text}\n{what} timed out after {timeout:?}")),
    }
}

/// Checks node and installs the extension's npm dependencies once per test binary.
fn setup() {
    static SETUP: OnceLock<Result<(), String>> = OnceLock::new();
    let result = SETUP.get_or_init(|| {
        let version = Command::new("node")
            .arg("--version")
            .output()
            .map_err(|e| {
                format!("node is needed for the pi extension tests (Node >= 20.6): {e}")
            })?;
        let version = String::from_utf8_lossy(&version.stdout).trim().to_string();
        let parts: Vec<u32> = version
            .trim_start_matches('v')
            .split('.')
            .map(|n| n.parse().unwrap_or(0))
            .collect();
        if parts.len() < 2 || (parts[0], parts[1]) < (20, 6) {
            return Err(format!(
                "the pi extension tests need Node >= 20.6, found {version}"
            ));
        }
        let dir = ext_dir();
        if !dir
            .join("node_modules/@mariozechner/pi-coding-agent/package.json")
            .exists()
        {
            let mut npm = Command::new("npm");
            npm.args(["ci", "--no-audit", "--no-fund"])
                .current_dir(&dir);
            let (ok, out) = run_bounded(npm, NPM_TIMEOUT);
            if !ok {
                return Err(format!("npm ci in {} failed:\n{out}", dir.display()));
            }
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

/// The node test files, in name order.
fn node_test_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(ext_dir().join("test"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".test.mjs"))
        .collect();
    files.sort();
    files
}

#[test]
fn node_tests() {
    setup();
    let files = node_test_files();
    assert!(files.len() >= 2, "no node test files found: {files:?}");
    let mut node = Command::new("node");
    node.args(["--test", "--test-concurrency=1", "--test-reporter=tap"])
        .args(&files)
        .current_dir(ext_dir())
        .env("PI_ASK_BIN", bin())
        .env_remove("PI_ASK_ANSWERS");
    let (ok, out) = run_bounded(node, NODE_TESTS_TIMEOUT);
    assert!(ok, "the pi extension's node tests failed:\n{out}");
    // Every test ran and none was skipped or left as todo.
    assert!(out.contains("\n# fail 0"), "{out}");
    assert!(
        out.contains("\n# skipped 0") && out.contains("\n# todo 0"),
        "{out}"
    );
}

//! Shared helpers for the scripted-mode CLI tests: run `pi-ask` with no terminal and no
//! stdin, with files written to a temp folder, and read the result JSON.

#![allow(dead_code)]

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

/// The repository root (where `examples/` is).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A file under `examples/`.
pub fn example(name: &str) -> PathBuf {
    root().join("examples").join(name)
}

/// A temp folder to write payloads and answers files into.
pub struct Dir(pub TempDir);

impl Dir {
    pub fn new() -> Self {
        Dir(tempfile::tempdir().expect("temp dir"))
    }

    /// Writes `text` to `name` in the folder and returns its path.
    pub fn file(&self, name: &str, text: &str) -> PathBuf {
        let path = self.0.path().join(name);
        std::fs::write(&path, text).expect("write fixture");
        path
    }

    /// Writes a JSON value to `name` and returns its path.
    pub fn json(&self, name: &str, value: &Value) -> PathBuf {
        self.file(name, &serde_json::to_string_pretty(value).unwrap())
    }

    pub fn path(&self) -> &Path {
        self.0.path()
    }
}

/// The finished run: exit code, parsed stdout, stderr.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// stdout as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "stdout is not JSON ({e}): {:?}\nstderr: {}",
                self.stdout, self.stderr
            )
        })
    }

    /// `details` of the result.
    pub fn details(&self) -> Value {
        self.json()["details"].clone()
    }

    /// The one `content` text.
    pub fn text(&self) -> String {
        let v = self.json();
        assert_eq!(
            v["content"].as_array().map(Vec::len),
            Some(1),
            "one content item"
        );
        assert_eq!(v["content"][0]["type"], "text");
        v["content"][0]["text"].as_str().unwrap().to_string()
    }
}

/// A `pi-ask` command with a clean environment: no PI_ASK_* variables, no stdin.
pub fn pi_ask() -> Command {
    let mut cmd = Command::cargo_bin("pi-ask").unwrap();
    cmd.env_remove("PI_ASK_ANSWERS")
        .env_remove("PI_ASK_MAX_PAYLOAD_BYTES")
        .env_remove("PI_ASK_TIMEOUT")
        .env_remove("PI_ASK_NOTIFY")
        .env_remove("PI_ASK_NOTIFY_COMMAND")
        .env_remove("PI_ASK_AUTO_SUBMIT")
        .write_stdin("")
        .timeout(std::time::Duration::from_secs(60));
    cmd
}

/// Runs `pi-ask` with `args` and collects the outcome.
pub fn run(args: &[&std::ffi::OsStr]) -> Run {
    run_cmd(pi_ask().args(args))
}

/// Collects the outcome of a prepared command.
pub fn run_cmd(cmd: &mut Command) -> Run {
    let out = cmd.output().expect("pi-ask runs");
    Run {
        code: out.status.code().expect("exited, not killed by a signal"),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    }
}

/// `pi-ask PAYLOAD --answers ANSWERS`.
pub fn answer(payload: &Path, answers: &Path) -> Run {
    run(&[
        payload.as_os_str(),
        "--answers".as_ref(),
        answers.as_os_str(),
    ])
}

/// `pi-ask PAYLOAD --answers FILE` with the payload and answers given as JSON values.
pub fn answer_json(payload: &Value, answers: &Value) -> Run {
    let dir = Dir::new();
    let p = dir.json("payload.json", payload);
    let a = dir.json("answers.json", answers);
    answer(&p, &a)
}

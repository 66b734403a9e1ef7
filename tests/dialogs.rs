//! `pi-ask --dialogs` (docs/dialogs.md), the real binary over pipes: requests on stdout,
//! responses on stdin, the result in `--output`; the flow itself is unit tested in
//! src/frontend/dialogs.rs.

use crate::scripted_support::example;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Duration;

/// The binary with `--dialogs --output RESULT` on `examples/database.json`, in its own
/// session (no controlling terminal), stdin and stdout piped.
struct Dialogs {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    result: std::path::PathBuf,
    _dir: tempfile::TempDir,
}

impl Dialogs {
    fn start() -> Dialogs {
        let dir = tempfile::tempdir().unwrap();
        let result = dir.path().join("result.json");
        let mut cmd = Command::new("setsid");
        cmd.arg("-w")
            .arg(env!("CARGO_BIN_EXE_pi-ask"))
            .arg(example("database.json"))
            .args(["--dialogs", "--output"])
            .arg(&result)
            .env_remove("PI_ASK_ANSWERS")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Dialogs {
            child,
            stdin,
            stdout,
            result,
            _dir: dir,
        }
    }

    /// The next request line.
    fn request(&mut self) -> Value {
        let mut line = String::new();
        self.stdout.read_line(&mut line).unwrap();
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{line:?}: {e}"))
    }

    fn respond(&mut self, response: Value) {
        writeln!(self.stdin, "{response}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The exit code, what is left on stdout, and the result.
    fn finish(mut self) -> (i32, String, Value) {
        drop(self.stdin);
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut self.stdout, &mut rest).unwrap();
        let status = self.child.wait().unwrap();
        let result = std::fs::read_to_string(&self.result).unwrap();
        (
            status.code().unwrap(),
            rest,
            serde_json::from_str(&result).unwrap(),
        )
    }
}

#[test]
fn picking_sqlite_submits_it() {
    let mut d = Dialogs::start();
    let first = d.request();
    assert_eq!(first["type"], "select");
    let sqlite = first["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o.as_str().unwrap().contains("SQLite"))
        .unwrap()
        .clone();
    d.respond(json!({ "value": sqlite }));
    let review = d.request();
    assert_eq!(review["title"], "Review your answers");
    d.respond(json!({"value": "Submit"}));
    let (code, rest, result) = d.finish();
    assert_eq!((code, rest.as_str()), (0, ""));
    assert_eq!(
        result["content"][0]["text"],
        "User submitted the questionnaire:\n- Q1 (database): SQLite [sqlite]"
    );
}

#[test]
fn the_client_closing_its_input_is_terminal_lost() {
    let mut d = Dialogs::start();
    d.request();
    let (code, rest, result) = d.finish();
    assert_eq!((code, rest.as_str()), (1, ""));
    assert_eq!(
        result["details"]["error"],
        json!({"code": "terminal_lost", "message": "the dialog client closed its input"})
    );
}

#[test]
fn sigterm_while_a_dialog_is_open_writes_the_aborted_result() {
    let mut d = Dialogs::start();
    d.request();
    // setsid (not a group leader here) made pi-ask itself the leader of a new session.
    std::thread::sleep(Duration::from_millis(100));
    let pid = d.child.id() as i32;
    // SAFETY: kill with the session's process group (setsid made pi-ask its leader) and SIGTERM.
    unsafe { libc::kill(-pid, libc::SIGTERM) };
    let (code, rest, result) = d.finish();
    assert_eq!((code, rest.as_str()), (143, ""));
    assert_eq!(
        result["details"]["error"],
        json!({"code": "aborted", "message": "received SIGTERM"})
    );
}

#[test]
fn dialogs_need_output() {
    let out = Command::new(env!("CARGO_BIN_EXE_pi-ask"))
        .arg(example("database.json"))
        .arg("--dialogs")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--output <FILE>"));
    assert!(out.stdout.is_empty());
}

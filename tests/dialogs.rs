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
        Dialogs::start_with(&example("database.json"), &[])
    }

    /// The binary with `--dialogs` on `payload`, with `extra` arguments.
    fn start_with(payload: &std::path::Path, extra: &[&str]) -> Dialogs {
        let dir = tempfile::tempdir().unwrap();
        let result = dir.path().join("result.json");
        let mut cmd = Command::new("setsid");
        cmd.arg("-w")
            .arg(env!("CARGO_BIN_EXE_pi-ask"))
            .arg(payload)
            .args(extra)
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
    assert_eq!(
        review,
        json!({"type": "select", "title": "Review answers", "options": [
            "1/1 Q1 \u{2192} SQLite", "1. Submit", "2. Elaborate", "3. Cancel",
            "Note on a question\u{2026}"]})
    );
    d.respond(json!({"value": "1. Submit"}));
    let (code, rest, result) = d.finish();
    assert_eq!((code, rest.as_str()), (0, ""));
    assert_eq!(result["content"][0]["text"], "Q1: SQLite");
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
    // The session's process group: setsid made pi-ask its leader.
    nix::sys::signal::killpg(
        nix::unistd::Pid::from_raw(pid),
        nix::sys::signal::Signal::SIGTERM,
    )
    .expect("SIGTERM");
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

/// The other systems' example payloads (examples/dialects/) through `--dialogs`, answered as a
/// person would (option 1 of each question, or "Atlas" where there are no options, then
/// Submit), give exactly the result the same answers give from an answers file: in the
/// contract's format and in the payload's own.
#[test]
fn every_dialect_example_runs_through_dialogs_in_both_result_formats() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for (name, own) in [
        ("mickyyy68-minimal", Some("mickyyy68")),
        ("mickyyy68", Some("mickyyy68")),
        ("yishan", Some("yishan")),
        ("claude-code", Some("claude-code")),
        ("pi-questionnaire", None),
    ] {
        let payload = root.join("examples/dialects").join(format!("{name}.json"));
        // The answers file of that person, from the normalized questions.
        let report = Command::new(env!("CARGO_BIN_EXE_pi-ask"))
            .args(["validate", "--json"])
            .arg(&payload)
            .output()
            .unwrap();
        let report: Value = serde_json::from_slice(&report.stdout).unwrap();
        let mut answers = serde_json::Map::new();
        for q in report["payload"]["questions"].as_array().unwrap() {
            let entry = if q["options"].as_array().is_some_and(|o| !o.is_empty()) {
                json!(1)
            } else {
                json!({"customText": "Atlas"})
            };
            answers.insert(q["id"].as_str().unwrap().to_string(), entry);
        }
        let dir = tempfile::tempdir().unwrap();
        let answers_file = dir.path().join("answers.json");
        std::fs::write(&answers_file, json!({"answers": answers}).to_string()).unwrap();
        for format in [None, own] {
            let args: Vec<&str> = format.map_or_else(Vec::new, |f| vec!["--result-format", f]);
            let expected_out = dir.path().join("expected.json");
            let status = Command::new(env!("CARGO_BIN_EXE_pi-ask"))
                .arg(&payload)
                .args(&args)
                .arg("--answers")
                .arg(&answers_file)
                .arg("--output")
                .arg(&expected_out)
                .status()
                .unwrap();
            assert_eq!(status.code(), Some(0), "{name}");
            let expected: Value =
                serde_json::from_str(&std::fs::read_to_string(&expected_out).unwrap()).unwrap();

            let mut d = Dialogs::start_with(&payload, &args);
            let mut seen = std::collections::HashSet::new();
            loop {
                let mut line = String::new();
                if d.stdout.read_line(&mut line).unwrap() == 0 {
                    break;
                }
                let request: Value = serde_json::from_str(&line).unwrap();
                let response = match request["type"].as_str().unwrap() {
                    "select" => {
                        let options: Vec<&str> = request["options"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|o| o.as_str().unwrap())
                            .collect();
                        let title = request["title"].as_str().unwrap().to_string();
                        let first_visit = seen.insert(title);
                        let pick = options
                            .iter()
                            .find(|o| **o == "1. Submit")
                            .or_else(|| {
                                first_visit
                                    .then(|| {
                                        options.iter().find(|o| {
                                            o.starts_with("( ) 1.") || o.starts_with("[ ] 1.")
                                        })
                                    })
                                    .flatten()
                            })
                            .or_else(|| {
                                options
                                    .iter()
                                    .find(|o| o.contains(". Type your own") && first_visit)
                            })
                            .or_else(|| options.iter().find(|o| o.starts_with("Next")))
                            .unwrap_or_else(|| panic!("{name}: nothing to pick in {request}"));
                        json!({"value": pick})
                    }
                    "input" | "editor" => json!({"value": "Atlas"}),
                    "confirm" => json!({"confirmed": true}),
                    other => panic!("{name}: request {other}"),
                };
                d.respond(response);
            }
            let (code, rest, result) = d.finish();
            assert_eq!((code, rest.as_str()), (0, ""), "{name} {format:?}");
            assert_eq!(result, expected, "{name} {format:?}");
        }
    }
}

impl Dialogs {
    /// Waits at most `limit` for the exit (killing pi-ask and panicking after it); returns
    /// the exit code, what is left on stdout and the result. stdin stays open: the client is
    /// still there, it just does not answer.
    fn exit_within(mut self, limit: Duration) -> (i32, String, Value) {
        let start = std::time::Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if start.elapsed() > limit {
                let _ = self.child.kill();
                let _ = self.child.wait();
                panic!("pi-ask did not exit within {limit:?}");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut self.stdout, &mut rest).unwrap();
        let result = std::fs::read_to_string(&self.result).unwrap();
        drop(self.stdin);
        (
            status.code().unwrap(),
            rest,
            serde_json::from_str(&result).unwrap(),
        )
    }
}

#[test]
fn the_timeout_holds_when_the_client_never_answers() {
    // The client reads the first request and never answers (nothing, then half a line):
    // --timeout 1 still ends the flow after a second, as a timeout (exit 124).
    for half in ["", "{\"value\": \"( ) 2"] {
        let mut d = Dialogs::start_with(&example("database.json"), &["--timeout", "1"]);
        let first = d.request();
        let ms = first["timeout"].as_u64().unwrap();
        assert!((900..=1000).contains(&ms), "{first}");
        write!(d.stdin, "{half}").unwrap();
        d.stdin.flush().unwrap();
        let (code, rest, result) = d.exit_within(Duration::from_secs(10));
        assert_eq!((code, rest.as_str()), (124, ""));
        assert_eq!(
            result["details"]["error"],
            json!({"code": "timeout", "message": "no key for 1 second"})
        );
    }
}

/// A client that opened stdout but does not read it, and a request larger than a pipe holds
/// (a 500 KB preview): the write filled the pipe and waited for good, past `--timeout`. It
/// is bounded by the time left now: the flow times out (exit 124).
#[test]
fn the_timeout_holds_when_the_client_does_not_read_a_large_request() {
    let dir = tempfile::tempdir().unwrap();
    let payload = dir.path().join("big-preview.json");
    let preview = "x".repeat(500_000);
    std::fs::write(
        &payload,
        json!({"questions": [{"id": "q", "prompt": "Which?", "type": "preview", "options": [
            {"value": "a", "label": "A", "preview": preview},
            {"value": "b", "label": "B", "preview": "y"}]}]})
        .to_string(),
    )
    .unwrap();
    let d = Dialogs::start_with(&payload, &["--timeout", "2"]);
    let start = std::time::Instant::now();
    let (code, _rest, result) = d.exit_within(Duration::from_secs(10));
    assert_eq!(code, 124);
    assert!(start.elapsed() >= Duration::from_millis(1500));
    assert_eq!(
        result["details"]["error"],
        json!({"code": "timeout", "message": "no key for 2 seconds"})
    );
}

#[test]
fn a_request_timeout_is_at_most_what_node_set_timeout_takes() {
    // 30 days: more than 2^31-1 ms, which Node's setTimeout (pi's RPC client) fires at once.
    let mut d = Dialogs::start_with(&example("database.json"), &["--timeout", "2592000"]);
    let first = d.request();
    assert_eq!(first["timeout"], json!(2_147_483_647u64), "{first}");
    d.respond(json!({"cancelled": true}));
    let (code, _, result) = d.finish();
    assert_eq!(code, 1);
    assert_eq!(result["details"]["cancelled"], json!(true));
}

#[test]
fn a_response_line_over_the_limit_is_refused_and_one_the_input_ends_in_is_terminal_lost() {
    // --max-payload-bytes bounds a response line: one over it is read to its end, dropped,
    // and the same request comes again saying why.
    let mut d = Dialogs::start_with(&example("database.json"), &["--max-payload-bytes", "2000"]);
    let first = d.request();
    writeln!(d.stdin, "{{\"value\": \"{}\"}}", "x".repeat(5000)).unwrap();
    d.stdin.flush().unwrap();
    let mut again = first.clone();
    again["title"] = json!(format!(
        "The last reply was more than 2000 bytes (--max-payload-bytes) and was not taken; \
         try again.\n{}",
        first["title"].as_str().unwrap()
    ));
    assert_eq!(d.request(), again);
    let sqlite = first["options"][1].clone();
    d.respond(json!({ "value": sqlite }));
    assert_eq!(d.request()["title"], "Review answers");
    d.respond(json!({"value": "1. Submit"}));
    let (code, rest, result) = d.finish();
    assert_eq!((code, rest.as_str()), (0, ""));
    assert_eq!(result["content"][0]["text"], "Q1: SQLite");
    // A line over the limit that the input ends in: the client went away; the message names
    // the limit, not the text.
    let mut d = Dialogs::start_with(&example("database.json"), &["--max-payload-bytes", "2000"]);
    d.request();
    write!(d.stdin, "{{\"value\": \"{}\"}}", "x".repeat(5000)).unwrap();
    let (code, rest, result) = d.finish();
    assert_eq!((code, rest.as_str()), (1, ""));
    let message = "the dialog client sent a response of more than 2000 bytes (--max-payload-bytes)";
    assert_eq!(
        result["details"]["error"],
        json!({"code": "terminal_lost", "message": message})
    );
    assert!(
        result.to_string().len() < 2000,
        "the value is not repeated: {result}"
    );
    // Within the limit, a value that is not an option is named by its size too.
    let mut d = Dialogs::start();
    d.request();
    d.respond(json!({"value": "y".repeat(300)}));
    let (code, _, result) = d.finish();
    assert_eq!(code, 1);
    assert_eq!(
        result["details"]["error"]["message"],
        json!("the dialog client sent a value of 300 bytes, which is not an option of the select")
    );
}

/// A 4 MiB custom text: its reply is over the line limit (4 MiB by default) and refused, the
/// flow going on; one that fits is shown cut in every row (the review's, its Type your own
/// row), so each row can still be chosen, and the answer keeps the whole text.
#[test]
fn a_4_mib_custom_text_is_refused_then_one_that_fits_is_shown_cut_and_kept_whole() {
    const LIMIT: usize = 4 * 1024 * 1024;
    let row = |request: &Value, starts: &str| -> Value {
        request["options"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o.as_str().unwrap().starts_with(starts))
            .unwrap_or_else(|| panic!("no row {starts:?}"))
            .clone()
    };
    // Every row offered fits a reply within the limit, and 400 columns.
    let short_rows = |request: &Value| {
        for option in request["options"].as_array().unwrap() {
            let reply = json!({ "value": option }).to_string();
            assert!(reply.len() <= LIMIT, "{} bytes", reply.len());
            // (Every character of these rows is one column wide.)
            let columns = option.as_str().unwrap().chars().count();
            assert!(columns <= 400, "{columns} columns");
        }
    };
    let mut d = Dialogs::start();
    let first = d.request();
    d.respond(json!({"value": row(&first, "( ) 3. Type your own")}));
    let input = d.request();
    assert_eq!(input["type"], "input");
    d.respond(json!({ "value": "y".repeat(LIMIT) }));
    let mut again = input.clone();
    again["title"] = json!(format!(
        "The last reply was more than 4194304 bytes (--max-payload-bytes) and was not taken; \
         try again.\n{}",
        input["title"].as_str().unwrap()
    ));
    assert_eq!(d.request(), again);
    let text = "z".repeat(LIMIT - 64);
    d.respond(json!({ "value": text }));
    let review = d.request();
    assert_eq!(review["title"], "Review answers");
    short_rows(&review);
    let question = row(&review, "1/1 Q1 \u{2192} \u{201c}zzz");
    assert!(
        question.as_str().unwrap().ends_with("z\u{2026}"),
        "{question}"
    );
    d.respond(json!({ "value": question }));
    let asked = d.request();
    short_rows(&asked);
    d.respond(json!({"value": row(&asked, "(\u{2022}) 3. Type your own\u{2026} \u{201c}zzz")}));
    let editor = d.request();
    assert_eq!(
        (&editor["type"], editor["prefill"].as_str().map(str::len)),
        (&json!("editor"), Some(LIMIT - 64))
    );
    d.respond(json!({"cancelled": true}));
    let asked = d.request();
    d.respond(json!({"value": row(&asked, "Next: review")}));
    assert_eq!(d.request()["title"], "Review answers");
    d.respond(json!({"value": "1. Submit"}));
    let (code, rest, result) = d.finish();
    assert_eq!((code, rest.as_str()), (0, ""));
    assert_eq!(
        result["details"]["answers"]["database"]["customText"],
        json!(text)
    );
}

//! The plain front end end to end: the real binary in a pty with `TERM=dumb` (or `--plain`),
//! typing lines as a person would. Every run checks that not one ESC byte reached the
//! terminal, and reads the result from `--output FILE` (the pty is the child's stdout too).
//! Every wait has a timeout, so a hang fails the test instead of blocking CI.
//!
//! These tests use the pty harness (tests/common/pty.rs) on the stream, not the screen: plain
//! mode is a stream of lines, and the tests check the stream itself (every byte, for ESC;
//! "the same prompt again" after a bad line), which a parsed screen cannot show. The pty is
//! 80x24 with echo on, and stderr goes to it too, as in a shell.

use crate::common::pty::{Options, Session};
use serde_json::{json, Value};
use std::process::Command;

/// One pi-ask run in a pty, with everything it has drawn so far.
struct Run {
    session: Session,
    output: std::path::PathBuf,
}

impl Run {
    /// Starts pi-ask on `payload` with `TERM` set to `term` (removed when `None`) and `args`.
    fn start(payload: &Value, term: Option<&str>, args: &[&str]) -> Run {
        Run::start_with(payload, term, args, false)
    }

    /// [`Run::start`]; with `piped`, the payload comes on stdin from a file (`pi-ask - <
    /// payload.json`, through `sh`), so stdin is not the terminal.
    fn start_with(payload: &Value, term: Option<&str>, args: &[&str], piped: bool) -> Run {
        let dir = tempfile::tempdir().unwrap();
        let payload_path = dir.path().join("payload.json");
        std::fs::write(&payload_path, payload.to_string()).unwrap();
        let output = dir.path().join("result.json");
        let bin = env!("CARGO_BIN_EXE_pi-ask");
        let mut cmd = if piped {
            let mut sh = Command::new("sh");
            sh.arg("-c")
                .arg("exec \"$0\" - \"$@\" < \"$PAYLOAD\"")
                .arg(bin)
                .env("PAYLOAD", &payload_path);
            sh
        } else {
            let mut direct = Command::new(bin);
            direct.arg(&payload_path);
            direct
        };
        cmd.arg("--output").arg(&output).args(args);
        let mut opts = Options {
            rows: 24,
            cols: 80,
            env: vec![("CLICOLOR_FORCE".into(), "1".into())],
            env_remove: vec!["NO_COLOR".into()],
            stderr_to_pty: true,
            ..Options::default()
        };
        match term {
            Some(t) => opts.env.push(("TERM".into(), t.into())),
            None => opts.env_remove.push("TERM".into()),
        };
        let session = Session::spawn_command(cmd, dir, output.clone(), opts);
        Run { session, output }
    }

    fn screen(&self) -> String {
        self.session.output_text()
    }

    /// Waits until `text` has been drawn (15 s at most).
    fn expect(&mut self, text: &str) {
        self.session.expect(text);
    }

    /// Waits for `prompt`, then types `line` and Enter.
    fn answer(&mut self, prompt: &str, line: &str) {
        self.expect(prompt);
        self.session.send(&format!("{line}\r"));
    }

    /// Waits for the end; returns the exit code, the result and the whole screen, after
    /// checking that no ESC byte was written.
    fn finish(mut self) -> (i32, Value, String) {
        let status = self.session.wait_eof();
        let code = status
            .code()
            .unwrap_or_else(|| panic!("pi-ask did not exit normally: {status:?}"));
        let screen = self.screen();
        assert!(
            !self.session.output().contains(&0x1b),
            "an escape byte reached the terminal:\n{screen}"
        );
        let text = std::fs::read_to_string(&self.output).expect("the result file");
        (code, serde_json::from_str(&text).unwrap(), screen)
    }
}

fn single() -> Value {
    json!({"questions": [{"id": "db", "label": "Database", "prompt": "Which database?",
        "options": [
            {"value": "pg", "label": "PostgreSQL", "description": "Relational"},
            {"value": "sqlite", "label": "SQLite"}]}]})
}

fn three() -> Value {
    json!({"title": "Project setup", "questions": [
        {"id": "scope", "label": "Scope", "prompt": "What should the change cover?", "required": true,
         "options": [{"value": "be", "label": "Backend only"}, {"value": "full", "label": "Full stack"}]},
        {"id": "fw", "label": "Frontend", "prompt": "Which framework?",
         "options": [{"value": "react", "label": "React"}, {"value": "vue", "label": "Vue"}]},
        {"id": "feat", "label": "Features", "prompt": "Which features?", "type": "multi",
         "options": [{"value": "auth", "label": "Auth"}, {"value": "billing", "label": "Billing"},
                     {"value": "search", "label": "Search"}]}]})
}

fn questions(payload: &Value) -> Value {
    Value::Array(
        payload["questions"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .map(|(i, q)| {
                let label = q
                    .get("label")
                    .cloned()
                    .unwrap_or(json!(format!("Q{}", i + 1)));
                json!({"id": q["id"], "label": label, "prompt": q["prompt"],
                       "type": q.get("type").cloned().unwrap_or(json!("single"))})
            })
            .collect(),
    )
}

#[test]
fn single_question_with_a_number() {
    let mut run = Run::start(&single(), Some("dumb"), &[]);
    run.expect("1/1 Database (choose one)\r\nWhich database?\r\n ( ) 1. PostgreSQL\r\n        Relational\r\n ( ) 2. SQLite\r\n ( ) 3. Type your own\u{2026}\r\n");
    run.answer("1/1> ", "2");
    run.expect("Saved: SQLite\r\n");
    run.expect("\r\nReview answers\r\n#1 Database\r\n     \u{2192} SQLite\r\n\r\n  1. Submit\r\n  2. Elaborate\r\n     ask the agent to elaborate on your notes, keeping the answers\r\n  3. Cancel\r\n");
    run.answer("review> ", "");
    let (code, result, screen) = run.finish();
    assert_eq!(code, 0);
    assert_eq!(
        result,
        json!({
            "content": [{"type": "text", "text":
                "Database: SQLite"}],
            "details": {
                "cancelled": false,
                "questions": questions(&single()),
                "answers": {"db": {"values": ["sqlite"], "labels": ["SQLite"], "indices": [2]}}
            }
        })
    );
    assert!(screen.ends_with("review> \r\nSubmitted.\r\n"), "{screen}");
}

#[test]
fn multi_question_with_two_numbers_and_custom_text() {
    let payload = json!({"questions": [{"id": "feat", "label": "Features",
        "prompt": "Which features?", "type": "multi",
        "options": [{"value": "auth", "label": "Auth"}, {"value": "billing", "label": "Billing"},
                    {"value": "search", "label": "Search"}]}]});
    let mut run = Run::start(&payload, Some("dumb"), &[]);
    // The last question's move-on row says where it goes.
    run.expect(
        " [ ] 3. Search\r\n [ ] 4. Type your own\u{2026}\r\n        Next: review \u{2192}\r\n",
    );
    run.answer("1/1> ", "1,3 > Audit log");
    run.expect("Saved: Auth, Search, “Audit log”\r\n");
    run.answer("review> ", "submit");
    let (code, result, _) = run.finish();
    assert_eq!(code, 0);
    assert_eq!(
        result["details"]["answers"],
        json!({"feat": {"values": ["auth", "search", "Audit log"],
                        "labels": ["Auth", "Search", "Audit log"], "indices": [1, 3],
                        "customText": "Audit log"}})
    );
    assert_eq!(
        result["content"][0]["text"],
        "Features: Auth, Search, Audit log"
    );
}

#[test]
fn preview_question_prints_previews_and_takes_custom_text() {
    let payload = json!({"questions": [{"id": "layout", "prompt": "Pick a layout", "type": "preview",
        "options": [
            {"value": "side", "label": "Sidebar", "preview": "+---+------+\n| S | main |\n+---+------+"},
            {"value": "top", "label": "Top bar", "description": "One row", "preview": "+--------+\n|  top   |\n+--------+"}]}]});
    let mut run = Run::start(&payload, Some("dumb"), &[]);
    run.expect(
        "1/1 Q1 (choose one, previews below)\r\nPick a layout\r\n ( ) 1. Sidebar\r\n        | +---+------+\r\n        | | S | main |\r\n        | +---+------+\r\n ( ) 2. Top bar\r\n        One row\r\n        | +--------+\r\n        | |  top   |\r\n        | +--------+\r\n ( ) 3. Type your own\u{2026}\r\n",
    );
    run.answer("1/1> ", "> my own");
    run.expect("Saved: “my own”\r\n");
    run.expect("#1 Q1\r\n     \u{2192} \u{201c}my own\u{201d}\r\n");
    // `#1` re-opens the question; choosing 2 replaces the custom text
    run.answer("review> ", "#1");
    run.expect(" (\u{2022}) 3. Type your own\u{2026} \u{201c}my own\u{201d}\r\nCurrent answer: \u{201c}my own\u{201d}\r\n");
    run.answer("1/1> ", "2");
    run.answer("review> ", "");
    let (code, result, screen) = run.finish();
    assert_eq!(code, 0);
    assert!(screen.contains("Type your own"), "{screen}");
    assert_eq!(
        result["details"],
        json!({"cancelled": false, "questions": questions(&payload),
               "answers": {"layout": {"values": ["top"], "labels": ["Top bar"], "indices": [2]}}})
    );
}

#[test]
fn windows_line_endings_are_line_breaks_and_a_lone_cr_is_shown() {
    let payload = json!({"questions": [{"id": "layout", "prompt": "Pick a layout\r\nfor the app",
        "type": "preview", "options": [
            {"value": "side", "label": "Sidebar", "description": "Left\r\nrail",
             "preview": "+--+\r\n|S |\r\n+--+\r\n"},
            {"value": "top", "label": "Top bar", "preview": "top\rbar"}]}]});
    let mut run = Run::start(&payload, Some("dumb"), &[]);
    // every `\r\n` below is the terminal's own line ending (the pty's `\n` -> `\r\n`)
    run.expect(
        "1/1 Q1 (choose one, previews below)\r\nPick a layout\r\nfor the app\r\n ( ) 1. Sidebar\r\n        Left\r\n        rail\r\n        | +--+\r\n        | |S |\r\n        | +--+\r\n ( ) 2. Top bar\r\n        | top\\x0dbar\r\n",
    );
    run.answer("1/1> ", "1");
    run.answer("review> ", "");
    let (code, result, screen) = run.finish();
    assert_eq!(code, 0);
    assert_eq!(screen.matches("\\x0d").count(), 1, "{screen}");
    assert!(!screen.contains("\r\r"), "{screen}");
    // the result keeps the payload's text byte for byte
    assert_eq!(
        result["details"],
        json!({"cancelled": false, "questions": questions(&payload),
               "answers": {"layout": {"values": ["side"], "labels": ["Sidebar"], "indices": [1]}}})
    );
    assert_eq!(
        result["details"]["questions"][0]["prompt"],
        "Pick a layout\r\nfor the app"
    );
}

#[test]
fn back_notes_and_review_reopen() {
    let mut run = Run::start(&three(), Some("dumb"), &[]);
    run.expect("Project setup\r\n=============\r\n");
    run.answer("1/3> ", "1");
    run.answer("2/3> ", "<");
    run.expect("Current answer: Backend only\r\n");
    run.answer("1/3> ", "note: keep the API stable");
    run.expect("Note on this question saved.\r\n");
    run.answer("1/3> ", "");
    run.answer("2/3> ", "vue");
    run.answer("3/3> ", "note 2: Stripe only");
    run.expect("Note on Billing saved.\r\n");
    run.answer("3/3> ", "2 3");
    run.expect("#3 Features\r\n     \u{2192} Billing\r\n       Note: Stripe only\r\n     \u{2192} Search\r\n");
    // Re-open question 2 from the review; answering it returns to the review.
    run.answer("review> ", "#2");
    run.expect(" (\u{2022}) 2. Vue\r\n");
    run.expect("Current answer: Vue\r\n");
    run.answer("2/3> ", "> Svelte");
    run.expect("\r\nReview answers\r\n#1 Scope (required)\r\n       Note: keep the API stable\r\n     \u{2192} Backend only\r\n\r\n#2 Frontend\r\n     \u{2192} \u{201c}Svelte\u{201d}\r\n");
    run.answer("review> ", "");
    let (code, result, _) = run.finish();
    assert_eq!(code, 0);
    assert_eq!(
        result["details"]["answers"],
        json!({
            "scope": {"values": ["be"], "labels": ["Backend only"], "indices": [1],
                      "note": "keep the API stable"},
            "fw": {"values": ["Svelte"], "labels": ["Svelte"], "indices": [], "customText": "Svelte"},
            "feat": {"values": ["billing", "search"], "labels": ["Billing", "Search"],
                     "indices": [2, 3], "optionNotes": {"billing": "Stripe only"}}
        })
    );
}

#[test]
fn bad_entry_and_help_keep_the_same_prompt() {
    let mut run = Run::start(&single(), Some("dumb"), &[]);
    run.answer("1/1> ", "9");
    run.expect("Not understood: there is no option 9: choose a number from 1 to 2\r\n1/1> ");
    run.session.send("mysql\r");
    // (Wrapped between words at the pty's 80 columns.)
    run.expect("Not understood: not an option: type a number from 1 to 2, or \"> your own answer\"\r\n(? for help)\r\n1/1> ");
    run.session.send("?\r");
    run.expect(
        "How to answer (type one line, then Enter):\r\n  2              choose option 2\r\n",
    );
    run.expect("  ?              this help\r\n1/1> ");
    run.session.send("PostgreSQL\r");
    run.answer("review> ", "?");
    run.expect("At the review:\r\n");
    run.answer("review> ", "7");
    run.expect("Not understood: there is no action 7: choose a number from 1 to 3\r\n");
    run.answer("review> ", "#7");
    run.expect("Not understood: there is no question 7: type #1\r\n");
    run.answer("review> ", "");
    let (code, result, _) = run.finish();
    assert_eq!(code, 0);
    assert_eq!(
        result["details"]["answers"],
        json!({"db": {"values": ["pg"], "labels": ["PostgreSQL"], "indices": [1]}})
    );
}

#[test]
fn required_unanswered_is_flagged_and_confirmed() {
    let mut run = Run::start(&three(), Some("dumb"), &[]);
    run.answer("1/3> ", "");
    run.answer("2/3> ", "1");
    run.answer("3/3> ", "");
    run.expect("#1 Scope (required)\r\n     \u{2192} unanswered\r\n");
    run.answer("review> ", "");
    run.answer(
        "Unanswered required questions: Scope.\r\nSubmit anyway? [y/N] ",
        "",
    );
    run.expect("No, go back to the review.\r\n");
    run.answer("review> ", "submit");
    run.answer("Submit anyway? [y/N] ", "y");
    let (code, result, _) = run.finish();
    assert_eq!(code, 0);
    assert_eq!(result["details"]["cancelled"], json!(false));
    assert_eq!(
        result["details"]["answers"],
        json!({"fw": {"values": ["react"], "labels": ["React"], "indices": [1]}})
    );
}

#[test]
fn eof_on_the_terminal_cancels() {
    let mut run = Run::start(&three(), Some("dumb"), &[]);
    run.answer("1/3> ", "1");
    run.expect("2/3> ");
    run.session.send("\x04"); // Ctrl+D at the start of a line: end of input
    let (code, result, screen) = run.finish();
    assert_eq!(code, 1);
    assert_eq!(
        result["details"],
        json!({
            "title": "Project setup",
            "cancelled": true,
            "questions": questions(&three()),
            "answers": {},
            "error": {"code": "terminal_lost",
                      "message": "end of input on the terminal (Ctrl+D or hang-up)"}
        })
    );
    assert!(
        screen.ends_with("End of input: the questionnaire was cancelled.\r\n"),
        "{screen}"
    );
}

#[test]
fn type_your_own_is_the_number_after_the_options() {
    let mut run = Run::start(&single(), Some("dumb"), &[]);
    run.answer("1/1> ", "3");
    run.answer("Type your own> ", "DuckDB");
    run.expect("Saved: \u{201c}DuckDB\u{201d}\r\n");
    run.expect("#1 Database\r\n     \u{2192} \u{201c}DuckDB\u{201d}\r\n");
    run.answer("review> ", "1");
    let (code, result, screen) = run.finish();
    assert_eq!(code, 0);
    assert_eq!(
        result["details"]["answers"],
        json!({"db": {"values": ["DuckDB"], "labels": ["DuckDB"], "indices": [],
                      "customText": "DuckDB"}})
    );
    assert!(screen.ends_with("review> 1\r\nSubmitted.\r\n"), "{screen}");
}

#[test]
fn cancel_at_the_review_asks_first_then_dismisses() {
    let mut run = Run::start(&single(), Some("dumb"), &[]);
    run.answer("1/1> ", "1");
    run.answer("review> ", "cancel");
    run.answer("Cancel and discard your answers? [y/N] ", "y");
    run.expect("Cancelled: the answers were not sent.\r\n");
    let (code, result, _) = run.finish();
    assert_eq!(code, 1);
    assert_eq!(result["content"][0]["text"], "User cancelled the ask flow");
    assert_eq!(result["details"]["cancelled"], json!(true));
    assert_eq!(result["details"]["answers"], json!({}));
    assert!(result["details"].get("error").is_none());
}

#[test]
fn unset_term_and_plain_flag_pick_plain_mode() {
    for (term, args) in [
        (None, &[][..]),
        (Some(""), &[][..]),
        (Some("xterm-256color"), &["--plain"][..]),
    ] {
        let mut run = Run::start(&single(), term, args);
        run.answer("1/1> ", "1");
        run.answer("review> ", "");
        let (code, result, _) = run.finish();
        assert_eq!(code, 0, "TERM={term:?} {args:?}");
        assert_eq!(result["details"]["answers"]["db"]["values"], json!(["pg"]));
    }
}

#[test]
fn hostile_payload_text_is_shown_not_run() {
    let payload = json!({"title": "T\u{1b}]52;c;Zm9v\u{7}", "questions": [{"id": "q",
        "label": "L\u{1b}[2J", "prompt": "P\u{1b}[31mred\u{202e}",
        "options": [{"value": "v", "label": "O\u{9b}1m", "description": "D\u{1b}]8;;http://x\u{1b}\\"}]}]});
    let mut run = Run::start(&payload, Some("dumb"), &[]);
    run.expect("T\\e]52;c;Zm9v\\x07\r\n");
    run.expect("1/1 L\\e[2J (choose one)\r\nP\\e[31mred\\u{202e}\r\n ( ) 1. O\\x9b1m\r\n        D\\e]8;;http://x\\e\\\r\n");
    run.answer("1/1> ", "1");
    run.answer("review> ", "");
    let (code, result, _) = run.finish();
    assert_eq!(code, 0);
    // The result keeps the original text.
    assert_eq!(
        result["details"]["answers"]["q"]["labels"],
        json!(["O\u{9b}1m"])
    );
}

#[test]
fn sigterm_aborts_without_escape_sequences() {
    let mut run = Run::start(&single(), Some("dumb"), &[]);
    run.expect("1/1> ");
    run.session.signal(libc::SIGTERM);
    let (code, result, screen) = run.finish();
    assert_eq!(code, 143);
    assert_eq!(
        result["details"]["error"],
        json!({"code": "aborted", "message": "received SIGTERM"})
    );
    // The half-typed prompt line is ended, so the shell prompt starts on its own line.
    assert!(screen.ends_with("1/1> \r\n"), "{screen:?}");
    assert_eq!(result["details"]["answers"], json!({}));
}

#[test]
fn ctrl_c_dismisses_without_escape_sequences() {
    let mut run = Run::start(&single(), Some("dumb"), &[]);
    run.answer("1/1> ", "1");
    run.expect("review> ");
    run.session.send("\x03"); // Ctrl+C: the terminal sends SIGINT
    let (code, result, _) = run.finish();
    assert_eq!(code, 130);
    assert_eq!(result["details"]["cancelled"], json!(true));
    assert_eq!(result["details"]["answers"], json!({}));
    assert!(result["details"].get("error").is_none(), "{result}");
}

#[test]
fn lines_come_from_the_terminal_not_from_stdin() {
    // stdin is the payload file; the answers are typed on the terminal.
    let mut run = Run::start_with(&single(), Some("dumb"), &[], true);
    run.answer("1/1> ", "2");
    run.answer("review> ", "");
    let (code, result, _) = run.finish();
    assert_eq!(code, 0);
    assert_eq!(
        result["details"]["answers"]["db"]["values"],
        json!(["sqlite"])
    );
}

#[test]
fn auto_submit_submits_when_the_last_answer_reaches_the_review() {
    let mut run = Run::start(&single(), Some("dumb"), &["--auto-submit"]);
    run.answer("1/1> ", "2");
    let (code, result, screen) = run.finish();
    assert_eq!(code, 0);
    assert!(!screen.contains("review> "), "{screen}");
    assert_eq!(result["content"][0]["text"], "Database: SQLite");
}

#[test]
fn a_notification_command_runs_once_when_the_questions_wait_and_no_bell_rings() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("notified.txt");
    let command = format!(
        "printf '%s|%s|%s' \"$ASK_NOTIFY_EVENT\" \"$ASK_NOTIFY_TITLE\" \"$ASK_NOTIFY_MESSAGE\" >> '{}'",
        file.display()
    );
    let mut run = Run::start(
        &single(),
        Some("dumb"),
        &["--notify", "command", "--notify-command", &command],
    );
    run.expect("1/1> ");
    let start = std::time::Instant::now();
    while !file.exists() && start.elapsed() < std::time::Duration::from_secs(5) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    run.session.send("1\r");
    run.answer("review> ", "");
    let (code, _, screen) = run.finish();
    assert_eq!(code, 0);
    assert!(!screen.contains('\x07'), "the command alone rings no bell");
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "question.waiting|pi ask|Question waiting: Database"
    );
}

#[test]
fn the_bell_is_the_default_notification_and_none_turns_it_off() {
    for (args, bells) in [(&[][..], 1), (&["--notify", "none"][..], 0)] {
        let mut run = Run::start(&single(), Some("dumb"), args);
        run.answer("1/1> ", "1");
        run.answer("review> ", "");
        let (code, _, screen) = run.finish();
        assert_eq!(code, 0);
        assert_eq!(screen.matches('\x07').count(), bells, "{args:?}");
    }
}

#[test]
fn every_term_the_editor_cannot_drive_picks_plain_mode_in_any_case() {
    // rustyline's unsupported terminals: its editor would read stdin and print its prompt on
    // stdout there.
    for term in ["emacs", "cons25", "DUMB", "Emacs", "CONS25", " dumb "] {
        let mut opts = Options {
            rows: 24,
            cols: 80,
            stdout_to_file: true,
            stderr_to_pty: true,
            ..Options::default()
        };
        opts.env.push(("TERM".into(), term.into()));
        let mut s = Session::spawn_with(&single().to_string(), &[], opts);
        s.expect("1/1> ");
        s.send("> caf\r");
        s.expect("review> ");
        s.send("\r");
        let code = s.wait_eof().code();
        assert_eq!(code, Some(0), "TERM={term:?}");
        assert!(!s.output().contains(&0x1b), "TERM={term:?}: an escape byte");
        let stdout = std::fs::read_to_string(s.dir().join("stdout.txt")).unwrap();
        let result: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| {
            panic!("TERM={term:?}: stdout is not only the result ({e}): {stdout:?}")
        });
        assert_eq!(
            result["details"]["answers"]["db"]["values"],
            json!(["caf"]),
            "TERM={term:?}"
        );
    }
}

/// A note on an option not chosen: the review shows it as going only with Elaborate, Submit
/// asks first with Elaborate offered (`e`), and the last lines say what was asked.
#[test]
fn a_note_on_an_option_not_chosen_shows_in_the_review_and_submit_asks_first() {
    let mut run = Run::start(&single(), Some("dumb"), &[]);
    run.answer("1/1> ", "note 1: what would it cost?");
    run.expect("Note on PostgreSQL saved.\r\n");
    run.answer("1/1> ", "2");
    run.expect("\r\nReview answers\r\n#1 Database\r\n     \u{2192} SQLite\r\n       Note on PostgreSQL (only with Elaborate): what would it cost?\r\n\r\n  1. Submit\r\n");
    run.answer("review> ", "");
    run.answer(
        "Submit without 1 note on an option you did not choose? [y/N/e] ",
        "e",
    );
    let (code, result, screen) = run.finish();
    assert_eq!(code, 0);
    assert_eq!(result["details"]["mode"], json!("elaborate"));
    assert!(
        screen.ends_with(
            "[y/N/e] e\r\n? Database \u{b7} asked about PostgreSQL: what would it cost?\r\nElaboration requested.\r\n"
        ),
        "{screen}"
    );
}

#[test]
fn long_lines_wrap_between_words_at_the_window_width() {
    let dir = tempfile::tempdir().unwrap();
    let payload = dir.path().join("payload.json");
    std::fs::write(
        &payload,
        include_str!("../examples/implementation-preferences.json"),
    )
    .unwrap();
    let output = dir.path().join("result.json");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pi-ask"));
    cmd.arg(&payload).arg("--output").arg(&output);
    let opts = Options {
        rows: 40,
        cols: 50,
        env: vec![("TERM".into(), "dumb".into())],
        stderr_to_pty: true,
        ..Options::default()
    };
    let mut s = Session::spawn_command(cmd, dir, output, opts);
    s.expect("1/2> ");
    s.send("?\r");
    s.expect("  ?              this help\r\n1/2> ");
    s.send("cancel\r");
    s.wait_eof();
    let text = s.output_text().replace("\r\n", "\n");
    // A hint: rows end between words, within 50 columns.
    assert!(
        text.contains(
            "Type a number, or 4 (Type your own) or \"> text\";\nEnter keeps the current \
             answer, < goes back, ?\nshows help.\n"
        ),
        "{text}"
    );
    // A description keeps its indent; the help's table its second column.
    assert!(
        text.contains("        A more descriptive prompt with extra\n        detail.\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "  name           choose the option with this value\n                 or label\n"
        ),
        "{text}"
    );
    assert!(text.lines().all(|l| l.chars().count() <= 50), "{text}");
}

#[test]
fn lines_piped_to_questions_on_the_terminal_are_said_to_be_unread() {
    for term in ["dumb", "xterm-256color"] {
        let dir = tempfile::tempdir().unwrap();
        let payload = dir.path().join("q.json");
        std::fs::write(&payload, single().to_string()).unwrap();
        let output = dir.path().join("result.json");
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg("printf '1\\n' | \"$0\" \"$1\" --output \"$2\"")
            .arg(env!("CARGO_BIN_EXE_pi-ask"))
            .arg(&payload)
            .arg(&output);
        let opts = Options {
            env: vec![
                ("TERM".into(), term.into()),
                ("PI_ASK_SCREEN".into(), "inline".into()),
            ],
            stderr_to_pty: true,
            ..Options::default()
        };
        let mut s = Session::spawn_command(cmd, dir, output, opts);
        s.expect(
            "pi-ask: piped lines are not read; answer here, or pass them with --answers FILE\r\n",
        );
        // The piped `1` answered nothing: the question waits for the terminal's answer.
        if term == "dumb" {
            s.expect("1/1> ");
            s.send("2\r");
            s.expect("review> ");
        } else {
            s.wait_for("Which database?");
            s.send("2");
            s.wait_for("Review answers");
        }
        s.send("\r");
        let (code, result) = s.finish();
        assert_eq!(code, 0, "{term}");
        assert_eq!(
            result.unwrap()["details"]["answers"]["db"]["indices"],
            json!([2]),
            "{term}"
        );
    }
    // Not said when stdin is the payload, nor when nothing was piped.
    let (_, _, screen) = {
        let mut run = Run::start_with(&single(), Some("dumb"), &[], true);
        run.answer("1/1> ", "1");
        run.answer("review> ", "");
        run.finish()
    };
    assert!(!screen.contains("piped lines"), "{screen}");
}

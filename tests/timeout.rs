//! `--timeout SECONDS` in a real terminal (the pty harness of tests/common/): no key for that
//! long ends the flow with `cancelled: true`, `details.error.code` `timeout` and the answers
//! given so far, exit 124; an open editor's draft is saved as Esc saves it; ticks are kept;
//! plain mode counts down in one line; a recorded timeout replays as the same timeout.

use crate::common::pty::{Options, Session};
use crate::scripted_support::{answer, example, Dir};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

const PREFS: &str = include_str!("../examples/implementation-preferences.json");
const DOWN: &str = "\x1b[B";
/// A question's hint line in a short `--timeout`: the countdown.
const COUNTDOWN: &str = "without an answer: press any key";
/// Question 1's last row.
const STYLE_LAST: &str = "( ) 4. Type your own…\n";
/// Question 2's last row.
const FRONTEND_LAST: &str = "     Next: review →\n";
/// Question 1's prompt line.
const STYLE: &str = "1/2 Style · How should I frame the next prompt?:";
/// Question 2's prompt line.
const FRONTEND: &str = "2/2 Frontend · Which frontend frameworks have you used?:";
/// The custom-text editor's hint line, the first of its block.
const ANSWER_EDITOR: &str = "Type your own · Enter submit · Esc close";
/// The question note editor's hint line.
const NOTE_EDITOR: &str = "Note on this question · Enter save · Esc close";
/// An empty custom-text editor is reading keys: rustyline draws its placeholder.
const ANSWER_READY: &str = "\n> Type answer...";
/// An empty note editor is reading keys.
const NOTE_READY: &str = "\n> Add a note...";

/// `details.questions` of examples/implementation-preferences.json.
fn prefs_questions() -> Value {
    json!([
        {"id": "style", "label": "Style", "prompt": "How should I frame the next prompt?", "type": "single"},
        {"id": "frameworks", "label": "Frontend", "prompt": "Which frontend frameworks have you used?", "type": "multi"}
    ])
}

/// The whole timeout result of examples/implementation-preferences.json after `seconds`, with
/// `answers`, the transcript lines `lines` and the closing sentence `last`.
fn timed_out(seconds: &str, answers: Value, lines: &str, last: &str) -> Value {
    json!({
        "content": [{"type": "text", "text": format!(
            "The questionnaire \"Implementation preferences\" timed out before the user \
             submitted it (no key for {seconds} seconds). The answers given so far:\n{lines}\n{last}"
        )}],
        "details": {
            "title": "Implementation preferences",
            "cancelled": true,
            "questions": prefs_questions(),
            "answers": answers,
            "error": {"code": "timeout", "message": format!("no key for {seconds} seconds")}
        }
    })
}

const FRONTEND_OPEN: &str = "Still open: Frontend (frameworks). Go on with the answers given; \
     do not assume an answer for it: ask the user in plain text if you need it.";

/// Waits for the exit; returns the exit code, the result, and how long after `since` the
/// program exited.
fn finish(s: &mut Session, since: Instant) -> (i32, Value, Duration) {
    let (code, result) = s.finish();
    let took = since.elapsed();
    (code, result.expect("a result"), took)
}

#[test]
fn two_seconds_without_a_key_end_the_flow_keeping_the_answered_question() {
    let mut s = Session::spawn(PREFS, &["--timeout", "2"]);
    s.wait_all(&[STYLE, STYLE_LAST]);
    // Taken before the key is sent: a test thread held up after it cannot shorten the time.
    let last_key = Instant::now();
    s.send("2");
    s.wait_all(&[FRONTEND, FRONTEND_LAST]);
    // The countdown replaces the hint line, under the question.
    let screen = s.wait_for("Closing in 1 s without an answer: press any key");
    assert!(
        screen.contains("     Next: review →\nClosing in 1 s without an answer: press any key"),
        "{screen}"
    );
    let (code, result, took) = finish(&mut s, last_key);
    assert_eq!(code, 124, "{}", s.stderr());
    assert!(
        took < Duration::from_secs(3),
        "ended {took:?} after the last key"
    );
    assert!(
        took >= Duration::from_millis(1900),
        "ended {took:?} after the last key"
    );
    assert_eq!(
        result,
        timed_out(
            "2",
            json!({"style": {"values": ["balanced"], "labels": ["Balanced"], "indices": [2]}}),
            "Style: Balanced\nFrontend: (no answer)",
            FRONTEND_OPEN
        )
    );
}

#[test]
fn an_open_editor_is_saved_as_custom_text_when_the_time_runs_out() {
    let mut s = Session::spawn(PREFS, &["--timeout", "3"]);
    s.wait_all(&[STYLE, STYLE_LAST]);
    for _ in 0..3 {
        s.send(DOWN);
    }
    s.wait_for("> ( ) 4. Type your own…");
    s.send("\r");
    s.wait_all(&[COUNTDOWN, STYLE, ANSWER_READY]);
    s.send("Sol");
    s.wait_for("\n> Sol");
    let last_key = Instant::now();
    // The countdown replaces the editor's hint line after its name; the editor keeps its line
    // and cursor.
    let screen = s.wait_for("Type your own · Closing in 1 s without an answer: press any key");
    assert!(
        screen.starts_with(&format!(
            "Implementation preferences\nType your own · Closing in 1 s without an answer: press any key\n{STYLE}\n"
        )),
        "{screen}"
    );
    assert!(
        screen.ends_with("\n> ( ) 4. Type your own\n> Sol"),
        "{screen}"
    );
    let (code, result, took) = finish(&mut s, last_key);
    assert_eq!(code, 124, "{}", s.stderr());
    assert!(
        took < Duration::from_secs(4),
        "ended {took:?} after the last key"
    );
    assert_eq!(
        result,
        timed_out(
            "3",
            json!({"style": {"values": ["Sol"], "labels": ["Sol"], "indices": [], "customText": "Sol"}}),
            "Style: Sol\nFrontend: (no answer)",
            FRONTEND_OPEN
        )
    );
    // The terminal is given back as it was.
    assert!(!s.alternate_screen());
    assert!(s.cursor_visible());
}

#[test]
fn a_key_in_an_editor_starts_the_time_again() {
    let mut s = Session::spawn(PREFS, &["--timeout", "2"]);
    s.wait_all(&[STYLE, STYLE_LAST]);
    s.send("N");
    s.wait_all(&[COUNTDOWN, STYLE, NOTE_READY]);
    // A key every 0.8 s for 3 s: longer than the timeout, and the editor stays open.
    let mut last_key = Instant::now();
    for c in ["a", "b", "c", "d"] {
        std::thread::sleep(Duration::from_millis(800));
        // Before the key is sent: a test thread held up after it cannot shorten the time.
        last_key = Instant::now();
        s.send(c);
    }
    s.wait_for("\n> abcd");
    let (code, result, took) = finish(&mut s, last_key);
    assert_eq!(code, 124, "{}", s.stderr());
    assert!(
        took >= Duration::from_millis(1900),
        "ended {took:?} after the last key"
    );
    assert_eq!(
        result["details"]["answers"],
        json!({"style": {"values": [], "labels": [], "indices": [], "note": "abcd"}})
    );
}

#[test]
fn ticks_on_a_multi_question_are_kept() {
    let mut s = Session::spawn(PREFS, &["--timeout", "3"]);
    s.wait_all(&[STYLE, STYLE_LAST]);
    s.send("1");
    s.wait_all(&[FRONTEND, FRONTEND_LAST]);
    s.send("1");
    s.wait_for("[x] 1. React");
    s.send("3");
    s.wait_for("[x] 3. Svelte");
    let (code, result, _) = finish(&mut s, Instant::now());
    assert_eq!(code, 124, "{}", s.stderr());
    assert_eq!(
        result,
        timed_out(
            "3",
            json!({
                "style": {"values": ["minimal"], "labels": ["Minimal"], "indices": [1]},
                "frameworks": {"values": ["react", "svelte"], "labels": ["React", "Svelte"], "indices": [1, 3]}
            }),
            "Style: Minimal\nFrontend: React, Svelte",
            "Every question was answered, but the user did not submit."
        )
    );
}

#[test]
fn plain_mode_counts_down_in_one_line_and_discards_a_half_typed_line() {
    let dir = tempfile::tempdir().unwrap();
    let payload = dir.path().join("payload.json");
    std::fs::write(&payload, PREFS).unwrap();
    let output = dir.path().join("result.json");
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_pi-ask"));
    cmd.arg(&payload)
        .arg("--output")
        .arg(&output)
        .arg("--plain");
    let opts = Options {
        // The variable the pi extension passes through.
        env: vec![("PI_ASK_TIMEOUT".into(), "3".into())],
        ..Options::default()
    };
    let mut s = Session::spawn_command(cmd, dir, output.clone(), opts);
    s.expect("1/2> ");
    s.send("2\r");
    s.expect("2/2> ");
    s.expect("\r\nClosing in 3 s without an answer: type a line to keep going.\r\n2/2> ");
    // Half a line, never ended with Enter.
    s.send("1,3");
    s.expect("\r\nTimed out (no key for 3 seconds): answers kept.\r\n");
    let status = s.wait_eof();
    assert_eq!(status.code(), Some(124));
    assert!(!s.output().contains(&0x1b), "{}", s.output_text());
    let result: Value = serde_json::from_str(&std::fs::read_to_string(&output).unwrap()).unwrap();
    assert_eq!(
        result,
        timed_out(
            "3",
            json!({"style": {"values": ["balanced"], "labels": ["Balanced"], "indices": [2]}}),
            "Style: Balanced\nFrontend: (no answer)",
            FRONTEND_OPEN
        )
    );
}

/// Plain mode: a line half typed when the time runs out is discarded with the run; it never
/// reaches the shell that reads the terminal next (`read` there gets only what follows).
#[test]
fn plain_mode_leaves_no_half_typed_line_to_the_shell() {
    let dir = tempfile::tempdir().unwrap();
    let payload = dir.path().join("payload.json");
    std::fs::write(&payload, PREFS).unwrap();
    let output = dir.path().join("result.json");
    let mut cmd = std::process::Command::new("sh");
    cmd.arg("-c")
        .arg("\"$0\" \"$1\" --plain --timeout 2 --output \"$2\"; echo \"rc=$?\"; read x; echo \"shell read [$x]\"")
        .arg(env!("CARGO_BIN_EXE_pi-ask"))
        .arg(&payload)
        .arg(&output);
    let mut s = Session::spawn_command(cmd, dir, output, Options::default());
    s.expect("1/2> ");
    s.expect("without an answer: type a line to keep going.\r\n1/2> ");
    s.send("ls");
    s.expect("rc=124\r\n");
    s.send("pwd\r");
    s.expect("shell read [pwd]");
}

#[test]
fn a_recorded_timeout_replays_as_the_same_timeout() {
    let recorded = timed_out(
        "30",
        json!({
            "style": {"values": ["balanced"], "labels": ["Balanced"], "indices": [2], "note": "short"},
            "frameworks": {"values": ["react", "Qwik"], "labels": ["React", "Qwik"], "indices": [1],
                           "customText": "Qwik"}
        }),
        "Style: Balanced\nStyle note: short\nFrontend: React, Qwik",
        "Every question was answered, but the user did not submit.",
    );
    let dir = Dir::new();
    let file = dir.json("recorded.json", &recorded);
    let run = answer(&example("implementation-preferences.json"), &file);
    assert_eq!(run.code, 124, "{}", run.stderr);
    assert_eq!(run.json(), recorded);
    // Its details alone replay the same way.
    let file = dir.json("details.json", &recorded["details"]);
    let run = answer(&example("implementation-preferences.json"), &file);
    assert_eq!((run.code, run.json()), (124, recorded.clone()));
    // So does the same timeout written in the yishan and Claude Code formats.
    for format in ["yishan", "claude-code"] {
        let run = crate::scripted_support::run(&[
            example("implementation-preferences.json").as_os_str(),
            "--answers".as_ref(),
            file.as_os_str(),
            "--result-format".as_ref(),
            format.as_ref(),
        ]);
        assert_eq!(run.code, 124, "{format}: {}", run.stderr);
        let other = dir.json(&format!("{format}.json"), &run.json());
        let again = answer(&example("implementation-preferences.json"), &other);
        assert_eq!(
            (again.code, again.json()),
            (124, recorded.clone()),
            "{format}"
        );
    }
}

/// With a timeout the editors run on a thread of their own: their keys mean what they mean
/// without one.
#[test]
fn editors_with_a_timeout_keep_their_keys() {
    // Ctrl+C in an editor dismisses.
    let mut s = Session::spawn(PREFS, &["--timeout", "30"]);
    s.wait_all(&[STYLE, STYLE_LAST]);
    s.send("N");
    s.wait_all(&[NOTE_EDITOR, NOTE_READY]);
    s.send("x");
    s.wait_for("\n> x");
    s.send("\x03");
    let (code, result) = s.finish();
    assert_eq!(code, 130);
    assert_eq!(result.unwrap()["details"]["answers"], json!({}));
    // Esc keeps the draft, Enter saves, a paste stays in the editor, then submit.
    let mut s = Session::spawn(PREFS, &["--timeout", "30"]);
    s.wait_all(&[STYLE, STYLE_LAST]);
    for _ in 0..3 {
        s.send(DOWN);
    }
    s.wait_for("> ( ) 4. Type your own…");
    s.send("\r");
    s.wait_all(&[ANSWER_EDITOR, ANSWER_READY]);
    s.send("\x1b[200~a\nb\x1b[201~");
    s.wait_for("\n> a");
    s.send("\x1b");
    s.wait_all(&["> (•) 4. Type your own… “a↵ b”", "· ? keys"]);
    s.send("\t");
    s.wait_all(&[FRONTEND, FRONTEND_LAST]);
    s.send("\t");
    s.wait_all(&["Review answers", "> 1. Submit"]);
    s.send("\r");
    let (code, result) = s.finish();
    assert_eq!(code, 0, "{}", s.stderr());
    assert_eq!(
        result.unwrap()["details"]["answers"]["style"]["customText"],
        json!("a\nb")
    );
}

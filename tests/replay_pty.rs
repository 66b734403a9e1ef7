//! Replay of results produced by a person's key presses in a real terminal (the pty harness
//! in tests/common/): the recorded result, fed back as `--answers`, gives identical details.

use crate::common::pty::Session;
use crate::scripted_support::{answer, example, Dir};
use serde_json::{json, Value};

const PREFS: &str = include_str!("../examples/implementation-preferences.json");

/// Replays `result` against examples/implementation-preferences.json and checks that the
/// whole result (details and content) comes back identical.
fn assert_replays(result: &Value) {
    let dir = Dir::new();
    let recorded = dir.json("recorded.json", result);
    let run = answer(&example("implementation-preferences.json"), &recorded);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(&run.details(), &result["details"]);
    assert_eq!(&run.json(), result);
}

#[test]
fn a_plain_mode_session_with_notes_and_custom_text_replays() {
    let mut s = Session::spawn(PREFS, &["--plain"]);
    s.wait_for("1/2> ");
    s.send("note: keep it short\r");
    s.wait_for("Note on this question saved.");
    s.send("2\r");
    s.wait_for("2/2> ");
    s.send("note 1: daily at work\r");
    s.wait_for("Note on React saved.");
    s.send("1,3 > Qwik\r");
    s.wait_for("review> ");
    s.send("\r");
    let (code, result) = s.finish();
    assert_eq!(code, 0, "{}", s.stderr());
    let result = result.expect("a result");
    assert_eq!(
        result["details"]["answers"],
        json!({
            "style": {"values": ["balanced"], "labels": ["Balanced"], "indices": [2], "note": "keep it short"},
            "frameworks": {"values": ["react", "svelte", "Qwik"], "labels": ["React", "Svelte", "Qwik"],
                           "indices": [1, 3], "customText": "Qwik", "optionNotes": {"react": "daily at work"}}
        })
    );
    assert_replays(&result);
}

#[test]
fn a_terminal_session_replays() {
    let mut s = Session::spawn(PREFS, &[]);
    s.wait_for("1/2 Style");
    s.send("\x1b[B");
    s.wait_for("> ( ) 2. Balanced");
    s.send("\r");
    s.wait_for("2/2 Frontend");
    s.send("\r");
    s.wait_all(&["Review answers", "> 1. Submit"]);
    s.send("\r");
    let (code, result) = s.finish();
    assert_eq!(code, 0, "{}", s.stderr());
    let result = result.expect("a result");
    assert_eq!(
        result["details"]["answers"],
        json!({"style": {"values": ["balanced"], "labels": ["Balanced"], "indices": [2]}})
    );
    assert_replays(&result);
}

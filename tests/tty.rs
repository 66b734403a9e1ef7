//! The terminal front end driven in a pty (tests/common/pty.rs): each test asserts the exact
//! result JSON and exit code.

mod common;

use common::pty::Session;
use serde_json::{json, Value};

const PREFS: &str = include_str!("../examples/implementation-preferences.json");

/// `details.questions` of examples/implementation-preferences.json.
fn prefs_questions() -> Value {
    json!([
        {"id": "style", "label": "Style", "prompt": "How should I frame the next prompt?", "type": "single"},
        {"id": "frameworks", "label": "Frontend", "prompt": "Which frontend frameworks have you used?", "type": "multi"}
    ])
}

const DOWN: &str = "\x1b[B";
const UP: &str = "\x1b[A";

#[test]
fn single_select_then_skip_and_submit() {
    let mut s = Session::spawn(PREFS, &[]);
    let screen = s.wait_for("1/2 Style");
    assert!(screen.contains("Implementation preferences"), "{screen}");
    assert!(
        screen.contains("How should I frame the next prompt?"),
        "{screen}"
    );
    assert!(
        screen.contains("A short, direct question with few options."),
        "{screen}"
    );
    assert!(screen.contains("Type your own…"), "{screen}");
    s.send(DOWN);
    s.wait_for("› ( ) 2. Balanced");
    s.send("\r");
    s.wait_for("2/2 Frontend");
    s.send("\r");
    let screen = s.wait_for("Review your answers");
    assert!(screen.contains("✓ 1/2 Style: Balanced"), "{screen}");
    assert!(screen.contains("· 2/2 Frontend: no answer"), "{screen}");
    assert!(screen.contains("› Submit"), "{screen}");
    s.send("\r");
    let (code, result) = s.finish();
    assert_eq!(code, 0);
    let result = result.expect("a result");
    assert_eq!(
        result["details"],
        json!({
            "title": "Implementation preferences",
            "cancelled": false,
            "questions": prefs_questions(),
            "answers": {
                "style": {"values": ["balanced"], "labels": ["Balanced"], "indices": [2]}
            }
        })
    );
    assert!(s.cursor_visible());
    assert!(!s.alternate_screen());
}

#[test]
fn sigterm_at_a_prompt_aborts() {
    let mut s = Session::spawn(PREFS, &[]);
    s.wait_for("1/2 Style");
    s.send(UP);
    s.wait_for("›     Next →");
    s.signal(libc::SIGTERM);
    let (code, result) = s.finish();
    assert_eq!(code, 1);
    let result = result.expect("a result");
    assert_eq!(result["details"]["cancelled"], json!(true));
    assert_eq!(result["details"]["answers"], json!({}));
    assert_eq!(result["details"]["questions"], prefs_questions());
    assert_eq!(
        result["details"]["error"],
        json!({"code": "aborted", "message": "received SIGTERM"})
    );
    assert!(s.cursor_visible());
    assert!(!s.alternate_screen());
}

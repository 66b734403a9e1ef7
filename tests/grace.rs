//! The grace period of the first question (docs/interactive.md "Keys"): keys typed before the
//! first frame, or within `PI_ASK_KEY_GRACE` milliseconds after it, never answer; a key after
//! it does; `PI_ASK_KEY_GRACE=0` acts at once. In the full-screen and inline placements and in
//! plain mode (a line completed within the grace after the first prompt), each in a pty
//! (tests/common/pty.rs, whose default environment turns the grace off).

use crate::common::pty::{Options, Session};
use serde_json::json;
use std::time::{Duration, Instant};

const PREFS: &str = include_str!("../examples/implementation-preferences.json");

/// The grace these tests ask for: long enough that a key sent at once after the first frame
/// is seen lands within it on a loaded machine.
const GRACE_MS: u64 = 1500;

fn options(screen: &str, grace_ms: u64) -> Options {
    Options {
        env: vec![
            ("PI_ASK_SCREEN".into(), screen.into()),
            ("PI_ASK_KEY_GRACE".into(), grace_ms.to_string()),
        ],
        ..Options::default()
    }
}

/// `details.answers.style` of the run, once it has ended.
fn style(s: &mut Session) -> serde_json::Value {
    let (code, result) = s.finish();
    assert_eq!(code, 0, "stderr: {}", s.stderr());
    result.expect("a result")["details"]["answers"]["style"].clone()
}

fn chosen(value: &str, label: &str, index: u64) -> serde_json::Value {
    json!({"values": [value], "labels": [label], "indices": [index]})
}

#[test]
fn keys_before_and_within_the_grace_do_not_answer_and_a_key_after_it_does() {
    for screen in ["full", "inline"] {
        let mut s = Session::spawn_with(PREFS, &[], options(screen, GRACE_MS));
        // Typed before the first frame.
        s.send("3");
        s.wait_for("1. Minimal");
        let seen = Instant::now();
        // Typed just after it: Rich, then Enter.
        s.send("3");
        s.send("\r");
        let sent = seen.elapsed();
        assert!(sent < Duration::from_millis(GRACE_MS), "{screen}: {sent:?}");
        std::thread::sleep(Duration::from_millis(GRACE_MS + 100).saturating_sub(seen.elapsed()));
        // Still the first question, nothing chosen; the key after the grace answers it.
        let shown = s.screen();
        assert!(shown.contains("1/2 Style"), "{screen}: {shown}");
        assert!(!shown.contains("2/2 Frontend"), "{screen}: {shown}");
        s.send("2");
        s.wait_for("2/2 Frontend");
        s.send("\t");
        s.wait_for("> 1. Submit");
        s.send("\r");
        assert_eq!(style(&mut s), chosen("balanced", "Balanced", 2), "{screen}");
    }
}

#[test]
fn a_grace_of_zero_acts_on_the_first_key_at_once() {
    for screen in ["full", "inline"] {
        let mut s = Session::spawn_with(PREFS, &[], options(screen, 0));
        s.wait_for("1. Minimal");
        s.send("3");
        s.wait_for("2/2 Frontend");
        s.send("\t");
        s.wait_for("> 1. Submit");
        s.send("\r");
        assert_eq!(style(&mut s), chosen("rich", "Rich", 3), "{screen}");
    }
}

#[test]
fn plain_mode_drops_a_line_completed_within_the_grace_after_the_first_prompt() {
    let mut s = Session::spawn_with(PREFS, &["--plain"], options("full", GRACE_MS));
    s.expect("1/2> ");
    let seen = Instant::now();
    s.send("3\r");
    s.expect("3\r\n");
    assert!(seen.elapsed() < Duration::from_millis(GRACE_MS));
    // Dropped: the prompt again, the question still open.
    s.expect("1/2> ");
    std::thread::sleep(Duration::from_millis(GRACE_MS + 100).saturating_sub(seen.elapsed()));
    s.send("2\r");
    s.expect("2/2> ");
    s.send("\r");
    s.expect("review> ");
    s.send("\r");
    assert_eq!(style(&mut s), chosen("balanced", "Balanced", 2));
    // With the grace off, the same line answers.
    let mut s = Session::spawn_with(PREFS, &["--plain"], options("full", 0));
    s.expect("1/2> ");
    s.send("3\r");
    s.expect("2/2> ");
    s.send("\r");
    s.expect("review> ");
    s.send("\r");
    assert_eq!(style(&mut s), chosen("rich", "Rich", 3));
}

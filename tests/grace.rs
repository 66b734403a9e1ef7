//! The grace period of the first question (docs/interactive.md "Keys"): keys typed before the
//! first frame, or within `PI_ASK_KEY_GRACE` milliseconds after it, never answer, nor does the
//! rest of their burst (a key within the grace of a dropped key); a key after it does;
//! `PI_ASK_KEY_GRACE=0` acts at once. In the full-screen and inline placements (a first
//! question without options too) and in plain mode (a line completed within the grace after
//! the first prompt), each in a pty (tests/common/pty.rs, whose default environment turns the
//! grace off).

use crate::common::pty::{Options, Session};
use serde_json::json;
use std::time::{Duration, Instant};

const PREFS: &str = include_str!("../examples/implementation-preferences.json");

/// The grace these tests ask for: long enough that a key sent at once after the first frame
/// is seen lands within it on a loaded machine.
const GRACE_MS: u64 = 1500;

/// What a test waits after its last dropped key before it types a key that must answer: the
/// grace, and room for a loaded machine.
const AFTER_THE_BURST: Duration = Duration::from_millis(GRACE_MS + 500);

/// The grace of the burst tests, longer for room on both sides: the first key of a burst
/// comes [`BURST_FIRST`] after the first frame is seen (well within the grace), the next one
/// [`BURST_GAP`] after it (past the grace's first length, well within a length of that key).
const BURST_GRACE_MS: u64 = 3000;
const BURST_FIRST: Duration = Duration::from_millis(1000);
const BURST_GAP: Duration = Duration::from_millis(2200);
const AFTER_A_BURST: Duration = Duration::from_millis(BURST_GRACE_MS + 500);

/// The line that says keys were dropped (src/ui/words.rs `KEYS_IGNORED`).
const IGNORED: &str = "Keys typed as the question appeared were ignored: type again";

/// Sleeps until `at` after `from`.
fn sleep_until(from: Instant, at: Duration) {
    std::thread::sleep(at.saturating_sub(from.elapsed()));
}

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
        // Dropped, and said so.
        s.wait_for(IGNORED);
        sleep_until(seen, sent + AFTER_THE_BURST);
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
    // Dropped: said once, the prompt again, the question still open.
    s.expect(&format!("{IGNORED}.\r\n1/2> "));
    sleep_until(seen, AFTER_THE_BURST);
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

/// A selection key within the grace and Enter after the grace's first length but within a
/// length of that key: one burst, dropped whole (the Enter never chooses the highlighted
/// option); the key after the burst answers.
#[test]
fn a_burst_that_starts_within_the_grace_is_dropped_whole() {
    for screen in ["full", "inline"] {
        let mut s = Session::spawn_with(PREFS, &[], options(screen, BURST_GRACE_MS));
        s.wait_for("1. Minimal");
        let seen = Instant::now();
        // "3" well within the grace, Enter past its first length, within a length of "3".
        sleep_until(seen, BURST_FIRST);
        s.send("3");
        let sent = seen.elapsed();
        s.wait_for(IGNORED);
        sleep_until(seen, sent + BURST_GAP);
        s.send("\r");
        sleep_until(seen, sent + BURST_GAP + AFTER_A_BURST);
        let shown = s.screen();
        assert!(shown.contains("1/2 Style"), "{screen}: {shown}");
        s.send("2");
        s.wait_for("2/2 Frontend");
        s.send("\t");
        s.wait_for("> 1. Submit");
        s.send("\r");
        assert_eq!(style(&mut s), chosen("balanced", "Balanced", 2), "{screen}");
    }
}

/// A first question without options opens its editor by itself: the editor takes keys only
/// once a burst that started within the grace is over, so none of its keys is typed in it
/// (with `--auto-submit`, none is submitted).
#[test]
fn a_burst_never_reaches_the_editor_of_a_first_question_without_options() {
    let payload = r#"{"question": "Name the project?"}"#;
    for screen in ["full", "inline"] {
        let mut s =
            Session::spawn_with(payload, &["--auto-submit"], options(screen, BURST_GRACE_MS));
        s.wait_for("Name the project?");
        let seen = Instant::now();
        sleep_until(seen, BURST_FIRST);
        s.send("y");
        let sent = seen.elapsed();
        s.wait_for(IGNORED);
        sleep_until(seen, sent + BURST_GAP);
        s.send("x\r");
        // The editor takes keys once the burst is over: nothing of it was typed in it.
        sleep_until(seen, sent + BURST_GAP + AFTER_A_BURST);
        let shown = s.screen();
        assert!(shown.contains("> Type answer..."), "{screen}: {shown}");
        s.send("Atlas\r");
        let (code, result) = s.finish();
        assert_eq!(code, 0, "{screen}: {}", s.stderr());
        assert_eq!(
            result.expect("a result")["details"]["answers"],
            json!({"q1": {"values": ["Atlas"], "labels": ["Atlas"], "indices": [], "customText": "Atlas"}}),
            "{screen}"
        );
    }
}

/// Plain mode: a line within the grace and the next one within a grace of it are one burst,
/// both dropped (the second never answers the first question); a line after it answers.
#[test]
fn plain_mode_drops_a_burst_of_lines_whole() {
    let mut s = Session::spawn_with(PREFS, &["--plain"], options("full", BURST_GRACE_MS));
    s.expect("1/2> ");
    let seen = Instant::now();
    sleep_until(seen, BURST_FIRST);
    s.send("3\r");
    let sent = seen.elapsed();
    s.expect(&format!("{IGNORED}.\r\n1/2> "));
    sleep_until(seen, sent + BURST_GAP);
    s.send("1\r");
    s.expect("1\r\n1/2> ");
    sleep_until(seen, sent + BURST_GAP + AFTER_A_BURST);
    s.send("2\r");
    s.expect("2/2> ");
    s.send("\r");
    s.expect("review> ");
    s.send("\r");
    assert_eq!(style(&mut s), chosen("balanced", "Balanced", 2));
}

/// A key whose first bytes come within the grace and the rest after it (an arrow key split
/// across reads, a UTF-8 character, a paste: common over ssh) is one key of the burst,
/// dropped whole: no part of it is acted on or typed as text. The escape delay is set long so
/// the split sequence is still one sequence when its rest comes.
#[test]
fn a_key_split_across_the_graces_end_is_dropped_whole() {
    let payload = r#"{"question": "Name the project?"}"#;
    let parts: [(&[u8], &[u8]); 3] = [
        (b"\x1b", b"[B"),
        (b"\xc3", b"\xa9"),
        (b"\x1b[200~abc", b"def\x1b[201~"),
    ];
    for (head, tail) in parts {
        let mut opts = options("inline", BURST_GRACE_MS);
        opts.env.push(("PI_ASK_ESCDELAY".into(), "2500".into()));
        let mut s = Session::spawn_with(payload, &["--auto-submit"], opts);
        s.wait_for("Name the project?");
        let seen = Instant::now();
        // The head well within the grace (it ends 3 s after the first frame at the latest),
        // the tail past its end.
        sleep_until(seen, Duration::from_millis(2500));
        s.send_bytes(head);
        sleep_until(seen, Duration::from_millis(3400));
        s.send_bytes(tail);
        sleep_until(seen, Duration::from_millis(3400) + AFTER_A_BURST);
        let shown = s.screen();
        assert!(shown.contains("> Type answer..."), "{head:?}: {shown}");
        s.send("Atlas\r");
        let (code, result) = s.finish();
        assert_eq!(code, 0, "{head:?}: {}", s.stderr());
        assert_eq!(
            result.expect("a result")["details"]["answers"],
            json!({"q1": {"values": ["Atlas"], "labels": ["Atlas"], "indices": [], "customText": "Atlas"}}),
            "{head:?}"
        );
    }
}

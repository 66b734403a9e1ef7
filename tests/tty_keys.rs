//! The terminal front end's keyboard on a real terminal (docs/interactive.md): the
//! real binary in a pty (tests/common/pty.rs) reading its own keys. Every escape sequence the
//! key reader supports, split at each byte with a 3 ms gap, moves and never cancels; SS3
//! arrows, paging, digits, notes, moving between questions, type-ahead, Ctrl+Z / `fg` from a
//! shell, the empty-editor keys, the bell, peeking and resizing. Each test asserts the exact
//! result JSON and exit code. The fake-terminal unit tests of the same keys are in
//! src/frontend/tty/tests/ and src/keys/tests.rs; screens and keys: docs/interactive.md.

use crate::common::pty::{Options, Session, SHELL_PROMPT};
use serde_json::{json, Value};
use std::time::Duration;

const PREFS: &str = include_str!("../examples/implementation-preferences.json");

const DOWN: &str = "\x1b[B";
const UP: &str = "\x1b[A";
const RIGHT: &str = "\x1b[C";
const LEFT: &str = "\x1b[D";
const TAB: &str = "\t";
const SHIFT_TAB: &str = "\x1b[Z";
const CTRL_Z: &str = "\x1a";
const PEEK: &str = "\x1d";
const ESC: &str = "\x1b";
const CTRL_C: &str = "\x03";
/// rustyline: delete from the cursor to the start of the line.
const CTRL_U: &str = "\x15";
/// The gap between the bytes of a split sequence.
const GAP: Duration = Duration::from_millis(3);
/// pi-ask's default escape delay: a gap this long really is an Esc.
const ESCAPE_DELAY: Duration = Duration::from_millis(50);
/// The end of a question's or the review's hint line, the block's last line: the whole block
/// is drawn.
const HINT: &str = "· ? keys";
/// Question 1's prompt line (SimpleTheme: no colour).
const STYLE: &str = "1/2 Style · How should I frame the next prompt?:";
/// Question 2's prompt line.
const FRONTEND: &str = "2/2 Frontend · Which frontend frameworks have you used?:";
/// The review's title.
const REVIEW: &str = "Review answers";
/// The custom-text editor's hint line, the first of its block.
const ANSWER_EDITOR: &str = "Type your own · Enter submit · Esc close";
/// The question note editor's hint line.
const QUESTION_NOTE_EDITOR: &str = "Note on this question · Enter save · Esc close";
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

/// The whole result of an implementation-preferences flow.
fn prefs_result(cancelled: bool, answers: Value, text: &str) -> Value {
    json!({
        "content": [{"type": "text", "text": text}],
        "details": {
            "title": "Implementation preferences",
            "cancelled": cancelled,
            "questions": prefs_questions(),
            "answers": answers
        }
    })
}

/// The result of a submitted implementation-preferences flow: `answers`, and the lines of the
/// text (the contract's summary; "User submitted the ask flow" first when `answers` is empty).
fn prefs_submitted(answers: Value, lines: &[&str]) -> Value {
    let mut text = lines.join("\n");
    if answers == json!({}) {
        text = format!("User submitted the ask flow\n{text}");
    }
    prefs_result(false, answers, &text)
}

const STYLE_SKIPPED: &str = "Style: (no answer)";
const FRONTEND_SKIPPED: &str = "Frontend: (no answer)";

/// The result of a dismissed implementation-preferences flow (Esc, Ctrl+C).
fn prefs_dismissed() -> Value {
    prefs_result(true, json!({}), "User cancelled the ask flow")
}

/// The 60-option list: question 1 picks one of "Option 1".."Option 60", question 2 a size.
fn long_list() -> String {
    let options: Vec<Value> = (1..=60)
        .map(|i| json!({"value": format!("o{i}"), "label": format!("Option {i}")}))
        .collect();
    json!({
        "title": "Long list",
        "questions": [
            {"id": "pick", "label": "Pick", "prompt": "Pick one of sixty", "type": "single", "options": options},
            {"id": "size", "label": "Size", "prompt": "Which size?", "type": "single", "options": [
                {"value": "s", "label": "Small"},
                {"value": "m", "label": "Medium"},
                {"value": "l", "label": "Large"}
            ]}
        ]
    })
    .to_string()
}

/// The whole result of a submitted long-list flow.
fn long_submitted(answers: Value, text: &str) -> Value {
    json!({
        "content": [{"type": "text", "text": text}],
        "details": {
            "title": "Long list",
            "cancelled": false,
            "questions": [
                {"id": "pick", "label": "Pick", "prompt": "Pick one of sixty", "type": "single"},
                {"id": "size", "label": "Size", "prompt": "Which size?", "type": "single"}
            ],
            "answers": answers
        }
    })
}

/// Waits for the program's exit; asserts its code, the exact result and that the terminal is
/// restored (cursor visible, main screen).
fn assert_finished(s: &mut Session, code: i32, expected: Value) {
    let (got, result) = s.finish();
    assert_eq!(got, code, "exit code; stderr: {}", s.stderr());
    assert_eq!(result.expect("a result"), expected);
    assert!(s.cursor_visible(), "cursor hidden at exit");
    assert!(!s.alternate_screen(), "still on the alternate screen");
}

/// The review's lines on `screen`: from its title to its last action, `3. Cancel`.
fn review_lines(screen: &str) -> Vec<&str> {
    let lines: Vec<&str> = screen.lines().collect();
    let start = lines
        .iter()
        .position(|l| *l == REVIEW)
        .unwrap_or_else(|| panic!("no review: {screen}"));
    let end = lines
        .iter()
        .position(|l| l.ends_with("3. Cancel"))
        .unwrap_or_else(|| panic!("no actions: {screen}"));
    lines[start..=end].to_vec()
}

/// The highlighted line of `screen` (the one starting with `>`).
fn highlighted(screen: &str) -> Option<&str> {
    screen.lines().find(|l| l.starts_with('>'))
}

/// Waits until a line of the screen is exactly `line`; returns the screen.
fn wait_line(s: &mut Session, line: &str) -> String {
    s.wait_until(&format!("the line {line:?}"), |screen| {
        screen.lines().any(|l| l == line)
    })
}

/// Waits until the highlighted line is exactly `line`; returns the screen.
fn wait_highlight(s: &mut Session, line: &str) -> String {
    s.wait_until(&format!("the highlight on {line:?}"), |screen| {
        highlighted(screen) == Some(line)
    })
}

/// A split sequence's bytes may have been further apart than the escape delay (a busy
/// machine preempted the test): its ESC really was an Esc, so the run proves nothing.
#[derive(Debug)]
struct Stalled(Duration);

/// Runs `scenario` (which spawns its own session) again when it stalled, at most 5 times.
fn retrying_stalls(scenario: impl Fn() -> Result<(), Stalled>) {
    let mut stalls = Vec::new();
    for _ in 0..5 {
        match scenario() {
            Ok(()) => return,
            Err(Stalled(gap)) => stalls.push(gap),
        }
    }
    panic!("the machine stalled in every run (longest gaps {stalls:?}, escape delay 50 ms)");
}

/// Sends `key` split at each byte, [`GAP`] apart (see [`Stalled`]).
fn send_split(s: &mut Session, key: &str) -> Result<(), Stalled> {
    let longest = s.send_split(key, GAP);
    if longest >= ESCAPE_DELAY {
        return Err(Stalled(longest));
    }
    Ok(())
}

/// Sends `key` split at each byte, then waits until the highlight is exactly `line`.
fn split_moves(s: &mut Session, key: &str, line: &str) -> Result<String, Stalled> {
    send_split(s, key)?;
    Ok(wait_highlight(s, line))
}

/// The long list's question 1 with its last row, Type your own (option N+1), highlighted.
const TYPE_OWN_61: &str = "> ( ) 61. Type your own…";

/// The highlighted row of the long list's question 1 on option `i`.
fn option_row(i: usize) -> String {
    format!("> ( ) {i:>2}. Option {i}")
}

/// Regression (fresh-user pass): with a 25 ms escape delay, an arrow whose bytes came 11 to
/// 31 ms apart through tmux on a loaded machine cancelled the questionnaire. The default is
/// 50 ms: bytes 30 ms apart still make one key.
#[test]
fn an_arrow_split_30_ms_apart_still_moves() {
    retrying_stalls(|| {
        let mut s = Session::spawn(&long_list(), &[]);
        s.wait_all(&["1/2 Pick", "? keys [1/3]", &option_row(1)]);
        for (key, row) in [("\x1b[B", 2), ("\x1bOB", 3), ("\x1b[A", 2)] {
            let longest = s.send_split(key, Duration::from_millis(30));
            if longest >= ESCAPE_DELAY {
                return Err(Stalled(longest));
            }
            wait_highlight(&mut s, &option_row(row));
        }
        s.send("\r");
        s.wait_all(&["2/2 Size", "> ( ) 1. Small"]);
        s.send("\x03");
        let (code, _) = s.finish();
        assert_eq!(code, 130);
        Ok(())
    });
}

#[test]
fn every_split_sequence_moves_and_never_cancels() {
    retrying_stalls(|| {
        let mut s = Session::spawn(&long_list(), &[]);
        s.wait_all(&["1/2 Pick", "? keys [1/3]", &option_row(1)]);
        // Arrows, CSI and SS3.
        split_moves(&mut s, "\x1b[B", &option_row(2))?;
        split_moves(&mut s, "\x1bOB", &option_row(3))?;
        split_moves(&mut s, "\x1b[A", &option_row(2))?;
        split_moves(&mut s, "\x1bOA", &option_row(1))?;
        // Every form of End (the last row: Type your own), then of Home.
        for (end, home) in [
            ("\x1b[F", "\x1b[H"),
            ("\x1b[4~", "\x1b[1~"),
            ("\x1b[8~", "\x1b[7~"),
            ("\x1bOF", "\x1bOH"),
        ] {
            let screen = split_moves(&mut s, end, TYPE_OWN_61)?;
            assert!(screen.contains("? keys [3/3]"), "{end:?}: {screen}");
            let screen = split_moves(&mut s, home, &option_row(1))?;
            assert!(screen.contains("? keys [1/3]"), "{home:?}: {screen}");
        }
        // PageDown, PageUp (a page holds 26 rows at 30x100).
        let screen = split_moves(&mut s, "\x1b[6~", &option_row(27))?;
        assert!(screen.contains("? keys [2/3]"), "{screen}");
        let screen = split_moves(&mut s, "\x1b[5~", &option_row(1))?;
        assert!(screen.contains("? keys [1/3]"), "{screen}");
        // Between the questions: Tab (kitty, modifyOtherKeys), Shift+Tab, → and ← (CSI, SS3).
        for (next, back) in [
            ("\x1b[9u", "\x1b[Z"),
            ("\x1b[27;1;9~", "\x1b[D"),
            ("\x1b[C", "\x1bOD"),
            ("\x1bOC", "\x1b[Z"),
        ] {
            send_split(&mut s, next)?;
            s.wait_all(&["2/2 Size", "> ( ) 1. Small"]);
            send_split(&mut s, back)?;
            s.wait_all(&["1/2 Pick", &option_row(1)]);
        }
        // Enter (kitty, modifyOtherKeys) chooses the highlighted option.
        split_moves(&mut s, "\x1b[B", &option_row(2))?;
        send_split(&mut s, "\x1b[13u")?;
        s.wait_all(&["2/2 Size", "> ( ) 1. Small"]);
        split_moves(&mut s, "\x1bOB", "> ( ) 2. Medium")?;
        send_split(&mut s, "\x1b[27;1;13~")?;
        s.wait_all(&[REVIEW, "> 1. Submit", HINT]);
        send_split(&mut s, "\x1b[13u")?;
        assert_finished(
            &mut s,
            0,
            long_submitted(
                json!({
                    "pick": {"values": ["o2"], "labels": ["Option 2"], "indices": [2]},
                    "size": {"values": ["m"], "labels": ["Medium"], "indices": [2]}
                }),
                "Pick: Option 2\nSize: Medium",
            ),
        );
        Ok(())
    });
}

#[test]
fn split_kitty_and_modify_other_keys_esc_cancel_leaving_nothing_behind() {
    retrying_stalls(|| {
        let mut s = Session::spawn(PREFS, &[]);
        s.wait_all(&[STYLE, "> ( ) 1. Minimal", HINT]);
        // An answer, so that Esc asks first: the rest of the sequence read as keys would
        // show (a `2` would say yes).
        s.send("1");
        s.wait_all(&[FRONTEND, "> [ ] 1. React", HINT]);
        send_split(&mut s, "\x1b[27u")?;
        s.wait_all(&["Cancel and discard your answers?", "> No, keep answering"]);
        s.send("\r");
        s.wait_all(&["2/2 Frontend", "> [ ] 1. React"]);
        // The modifyOtherKeys form.
        send_split(&mut s, "\x1b[27;1;27~")?;
        s.wait_for("> No, keep answering");
        s.send(DOWN);
        s.wait_for("> Yes, discard the answers and cancel");
        s.send("\r");
        assert_finished(&mut s, 1, prefs_dismissed());
        Ok(())
    });
}

#[test]
fn split_kitty_and_modify_other_keys_ctrl_c_dismiss() {
    for ctrl_c in ["\x1b[99;5u", "\x1b[27;5;99~"] {
        retrying_stalls(|| {
            let mut s = Session::spawn(PREFS, &[]);
            s.wait_all(&[STYLE, "> ( ) 1. Minimal", HINT]);
            s.send("1");
            s.wait_all(&[FRONTEND, "> [ ] 1. React", HINT]);
            send_split(&mut s, ctrl_c)?;
            assert_finished(&mut s, 130, prefs_dismissed());
            Ok(())
        });
    }
}

#[test]
fn split_arrows_in_an_editor_edit_the_text_or_leave_it_empty() {
    retrying_stalls(|| {
        let mut s = Session::spawn(PREFS, &[]);
        s.wait_all(&[STYLE, "> ( ) 1. Minimal", HINT]);
        for _ in 0..3 {
            s.send(DOWN);
        }
        wait_highlight(&mut s, "> ( ) 4. Type your own…");
        s.send("\r");
        s.wait_all(&[ANSWER_EDITOR, ANSWER_READY]);
        s.send("ab");
        s.wait_for("\n> ab");
        // With text: the arrows move the cursor (a typed character shows where).
        send_split(&mut s, "\x1b[D")?;
        s.send("X");
        s.wait_for("\n> aXb");
        send_split(&mut s, "\x1bOD")?;
        s.send("Y");
        s.wait_for("\n> aYXb");
        // Ctrl+E Ctrl+U: the editor empty again, where ↓ leaves it (Type your own is the last
        // row: the highlight stays on it, as the source's `moveOption` stops there).
        s.send("\x05\x15");
        s.wait_for(ANSWER_READY);
        send_split(&mut s, "\x1b[B")?;
        let screen = wait_highlight(&mut s, "> ( ) 4. Type your own…");
        assert!(!screen.contains(ANSWER_EDITOR), "{screen}");
        s.send("\r");
        s.wait_all(&[ANSWER_EDITOR, ANSWER_READY]);
        // ↑ (SS3) out of the empty editor: one row up.
        send_split(&mut s, "\x1bOA")?;
        wait_highlight(&mut s, "> ( ) 3. Rich");
        s.send(TAB);
        s.wait_all(&[FRONTEND, HINT]);
        s.send(TAB);
        s.wait_for("> 1. Submit");
        s.send("\r");
        assert_finished(
            &mut s,
            0,
            prefs_submitted(json!({}), &[STYLE_SKIPPED, FRONTEND_SKIPPED]),
        );
        Ok(())
    });
}

#[test]
fn ss3_arrows_page_down_home_and_end_in_a_long_list() {
    let mut s = Session::spawn(&long_list(), &[]);
    s.wait_all(&["1/2 Pick", "? keys [1/3]", &option_row(1)]);
    s.send("\x1bOB");
    wait_highlight(&mut s, &option_row(2));
    s.send("\x1bOB");
    wait_highlight(&mut s, &option_row(3));
    s.send("\x1bOA");
    wait_highlight(&mut s, &option_row(2));
    // PageDown: the next page (26 rows at 30x100), the highlight a page further.
    s.send("\x1b[6~");
    let screen = wait_highlight(&mut s, &option_row(28));
    let hint = screen.lines().find(|l| l.starts_with("↑↓ move"));
    assert_eq!(
        hint,
        Some(
            "↑↓ move · Enter choose · n note · Esc cancel · ^C dismiss · ^] context · ? keys [2/3]"
        ),
        "{screen}"
    );
    assert!(screen.contains("  ( ) 27. Option 27"), "{screen}");
    assert!(!screen.contains("Option 26"), "{screen}");
    s.send("\x1b[6~");
    let screen = wait_highlight(&mut s, &option_row(54));
    assert!(screen.contains("? keys [3/3]"), "{screen}");
    // End: the last row, Type your own (option N+1); Home: the first.
    s.send("\x1b[F");
    wait_highlight(&mut s, TYPE_OWN_61);
    s.send("\x1b[H");
    let screen = wait_highlight(&mut s, &option_row(1));
    assert!(screen.contains("? keys [1/3]"), "{screen}");
    s.send("\x1b[4~");
    wait_highlight(&mut s, TYPE_OWN_61);
    s.send(UP);
    wait_highlight(&mut s, &option_row(60));
    s.send("\r");
    s.wait_all(&["2/2 Size", "> ( ) 1. Small"]);
    s.send(TAB);
    s.wait_for("> 1. Submit");
    s.send("\r");
    assert_finished(
        &mut s,
        0,
        long_submitted(
            json!({"pick": {"values": ["o60"], "labels": ["Option 60"], "indices": [60]}}),
            "Pick: Option 60\nSize: (no answer)",
        ),
    );
}

#[test]
fn digits_choose_tick_and_reopen_and_a_ticks_all_or_none() {
    let mut s = Session::spawn(PREFS, &[]);
    s.wait_all(&[STYLE, "> ( ) 1. Minimal", HINT]);
    // Single: 2 chooses option 2 and goes on.
    s.send("2");
    s.wait_all(&[FRONTEND, "> [ ] 1. React", HINT]);
    // Multi: a ticks all, then none.
    s.send("a");
    s.wait_all(&["> [x] 1. React", "  [x] 2. Vue", "  [x] 3. Svelte"]);
    s.send("a");
    s.wait_all(&["> [ ] 1. React", "  [ ] 2. Vue", "  [ ] 3. Svelte"]);
    // Digits tick and untick, and never submit.
    s.send("1");
    s.wait_all(&["> [x] 1. React", "  [ ] 3. Svelte"]);
    s.send("3");
    s.wait_all(&["  [x] 1. React", "> [x] 3. Svelte"]);
    s.send("1");
    let screen = s.wait_all(&["> [ ] 1. React", "  [x] 3. Svelte"]);
    assert!(screen.contains(FRONTEND), "{screen}");
    // Enter confirms.
    s.send("\r");
    let review = |style: &'static str| {
        vec![
            REVIEW,
            "  Style",
            style,
            "",
            "  Frontend",
            "     → Svelte",
            "",
            "> 1. Submit",
            "  2. Elaborate",
            "     ask the agent to elaborate on your notes, keeping the answers",
            "  3. Cancel",
        ]
    };
    let screen = s.wait_all(&[REVIEW, "> 1. Submit", HINT]);
    assert_eq!(review_lines(&screen), review("     → Balanced"));
    // On the review, a digit arms its action: the first 1 does not submit.
    s.send("1");
    s.wait_for("\nPress 1 again to submit · ↑↓ move");
    // Style re-opened on its answer; 3 chooses Rich and comes back.
    s.send(UP);
    s.send(UP);
    wait_highlight(&mut s, "> Style");
    s.send("\r");
    s.wait_all(&[STYLE, "> (•) 2. Balanced", HINT]);
    s.send("3");
    let screen = s.wait_all(&[REVIEW, "> 1. Submit", HINT]);
    assert_eq!(review_lines(&screen), review("     → Rich"));
    assert!(!screen.contains("Press 1 again"), "{screen}");
    // 1 twice submits.
    s.send("1");
    s.wait_for("Press 1 again to submit");
    s.send("1");
    assert_finished(
        &mut s,
        0,
        prefs_submitted(
            json!({
                "style": {"values": ["rich"], "labels": ["Rich"], "indices": [3]},
                "frameworks": {"values": ["svelte"], "labels": ["Svelte"], "indices": [3]}
            }),
            &["Style: Rich", "Frontend: Svelte"],
        ),
    );
}

#[test]
fn n_writes_the_highlighted_options_note_and_shift_n_the_questions() {
    let mut s = Session::spawn(PREFS, &[]);
    s.wait_all(&[STYLE, "> ( ) 1. Minimal", HINT]);
    s.send(DOWN);
    wait_highlight(&mut s, "> ( ) 2. Balanced");
    s.send("n");
    // The question stays under the editor's hint line, the note's option highlighted.
    let screen = s.wait_all(&["Note on Balanced · Enter save · Esc close", NOTE_READY]);
    assert!(screen.contains("\n> ( ) 2. Balanced\n"), "{screen}");
    s.send("why balanced");
    s.wait_for("\n> why balanced");
    s.send("\r");
    let screen = s.wait_all(&["> ( ) 2. Balanced", HINT]);
    assert!(
        screen.contains("\n         note: why balanced\n"),
        "{screen}"
    );
    s.send("N");
    s.wait_all(&[QUESTION_NOTE_EDITOR, NOTE_READY]);
    s.send("keep it short");
    s.wait_for("\n> keep it short");
    s.send("\r");
    let screen = s.wait_all(&[&format!("{STYLE}\n  Note: keep it short\n"), HINT]);
    assert_eq!(highlighted(&screen), Some("> ( ) 2. Balanced"), "{screen}");
    s.send("\r");
    s.wait_all(&[FRONTEND, "> [ ] 1. React", HINT]);
    // A question note without an answer.
    s.send("N");
    s.wait_all(&[QUESTION_NOTE_EDITOR, NOTE_READY]);
    s.send("none of these");
    s.wait_for("\n> none of these");
    s.send("\r");
    s.wait_all(&[&format!("{FRONTEND}\n  Note: none of these\n"), HINT]);
    s.send(TAB);
    let screen = s.wait_all(&[REVIEW, "> 1. Submit", HINT]);
    // Notes before the answer; the option note under its option.
    assert_eq!(
        review_lines(&screen),
        [
            REVIEW,
            "  Style",
            "       Note: keep it short",
            "     → Balanced",
            "       Note: why balanced",
            "",
            "  Frontend",
            "       Note: none of these",
            "",
            "> 1. Submit",
            "  2. Elaborate",
            "     ask the agent to elaborate on your notes, keeping the answers",
            "  3. Cancel",
        ]
    );
    s.send("\r");
    assert_finished(
        &mut s,
        0,
        prefs_submitted(
            json!({
                "style": {
                    "values": ["balanced"], "labels": ["Balanced"], "indices": [2],
                    "note": "keep it short",
                    "optionNotes": {"balanced": "why balanced"}
                },
                "frameworks": {"values": [], "labels": [], "indices": [], "note": "none of these"}
            }),
            &[
                "Style: Balanced",
                "Style note: keep it short",
                "Style / Balanced note: why balanced",
                FRONTEND_SKIPPED,
                "Frontend note: none of these",
            ],
        ),
    );
}

#[test]
fn tab_shift_tab_and_arrows_move_between_questions_keeping_ticks() {
    let mut s = Session::spawn(PREFS, &[]);
    s.wait_all(&[STYLE, "> ( ) 1. Minimal", HINT]);
    s.send(TAB);
    s.wait_all(&[FRONTEND, "> [ ] 1. React", HINT]);
    s.send(" ");
    s.wait_for("> [x] 1. React");
    s.send(SHIFT_TAB);
    s.wait_all(&[STYLE, "> ( ) 1. Minimal", HINT]);
    s.send(RIGHT);
    s.wait_all(&[FRONTEND, "> [x] 1. React", HINT]);
    s.send(LEFT);
    let screen = s.wait_all(&[STYLE, "> ( ) 1. Minimal", HINT]);
    assert!(!screen.contains("(•)"), "nothing chosen: {screen}");
    s.send(TAB);
    s.wait_all(&[FRONTEND, "> [x] 1. React", HINT]);
    s.send(TAB);
    let screen = s.wait_all(&[REVIEW, "> 1. Submit", HINT]);
    assert_eq!(
        review_lines(&screen),
        [
            REVIEW,
            "  Style",
            "     → unanswered",
            "",
            "  Frontend",
            "     → React",
            "",
            "> 1. Submit",
            "  2. Elaborate",
            "     ask the agent to elaborate on your notes, keeping the answers",
            "  3. Cancel",
        ]
    );
    // ← on the review: back to the last question, its ticks kept.
    s.send(LEFT);
    s.wait_all(&[FRONTEND, "> [x] 1. React", HINT]);
    s.send(RIGHT);
    s.wait_for("> 1. Submit");
    s.send("\r");
    assert_finished(
        &mut s,
        0,
        prefs_submitted(
            json!({"frameworks": {"values": ["react"], "labels": ["React"], "indices": [1]}}),
            &[STYLE_SKIPPED, "Frontend: React"],
        ),
    );
}

#[test]
fn keys_typed_before_the_first_screen_never_answer() {
    // The keys must reach the terminal before pi-ask takes it over: their echo (the terminal
    // is still in its cooked mode then, which echoes ESC as `^[`) proves it. A run where the
    // test was too slow to type before the program started is retried.
    for _ in 0..5 {
        let mut s = Session::spawn(PREFS, &[]);
        s.send(&format!("looks good\r{DOWN}"));
        // The first frame written (a late arrival may have answered already: no screen to
        // wait for then).
        s.expect("? keys");
        if !s.output_text().contains("looks good\r\n^[[B") {
            continue;
        }
        let screen = s.wait_all(&[STYLE, HINT]);
        assert_eq!(highlighted(&screen), Some("> ( ) 1. Minimal"), "{screen}");
        assert!(!screen.contains("(•)"), "{screen}");
        assert!(!screen.contains("looks good"), "{screen}");
        s.send(TAB);
        s.wait_all(&[FRONTEND, "> [ ] 1. React", HINT]);
        s.send(TAB);
        let screen = s.wait_all(&[REVIEW, "> 1. Submit", HINT]);
        assert_eq!(
            review_lines(&screen)[1..3],
            ["  Style", "     → unanswered"]
        );
        s.send("\r");
        assert_finished(
            &mut s,
            0,
            prefs_submitted(json!({}), &[STYLE_SKIPPED, FRONTEND_SKIPPED]),
        );
        return;
    }
    panic!("the keys never reached the terminal before pi-ask started");
}

/// Starts pi-ask in the shell of `s` on the implementation preferences and waits for its
/// first screen.
fn start_in_shell(s: &mut Session) -> String {
    s.wait_for(SHELL_PROMPT.trim_end());
    s.send("pi-ask payload.json --output result.json\r");
    s.wait_all(&[STYLE, "> ( ) 1. Minimal", HINT])
}

/// Waits until the shell shows its prompt again after Ctrl+Z stopped pi-ask: the job's
/// `Stopped` line and the prompt on the main screen, exactly (the questionnaire left nothing
/// there), the cursor visible.
fn wait_stopped(s: &mut Session) {
    let screen = s.wait_until("the shell's prompt after Stopped", |screen| {
        screen.contains("Stopped") && screen.trim_end().ends_with(SHELL_PROMPT.trim_end())
    });
    assert!(!s.alternate_screen(), "still on the alternate screen");
    assert!(
        s.cursor_visible(),
        "the cursor is hidden at the shell's prompt"
    );
    assert_eq!(
        screen.trim_end(),
        "shell$ pi-ask payload.json --output result.json\n\
         \n\
         [1]+  Stopped                 pi-ask payload.json --output result.json\n\
         shell$"
    );
}

/// Ends the shell of `s` after pi-ask exited with `code`; asserts the exact result.
fn exit_shell(s: &mut Session, code: i32, expected: Value) {
    s.wait_until("the shell's prompt", |screen| {
        screen.trim_end().ends_with(SHELL_PROMPT.trim_end())
    });
    s.send("echo \"pi-ask exited with $?\"\r");
    s.wait_for(&format!("pi-ask exited with {code}\n"));
    s.send("exit\r");
    assert_finished(s, 0, expected);
}

#[test]
fn ctrl_z_and_fg_from_a_shell_keep_the_flow_and_its_answers() {
    let mut s = Session::spawn_shell(PREFS, Options::default());
    start_in_shell(&mut s);
    s.send("2");
    s.wait_all(&[FRONTEND, "> [ ] 1. React", HINT]);
    s.send(" ");
    let before = s.wait_all(&[FRONTEND, "> [x] 1. React", HINT]);
    s.send(CTRL_Z);
    wait_stopped(&mut s);
    s.send("fg\r");
    // The questionnaire whole again, on the alternate screen, no shell text on it.
    s.wait_until("the questionnaire as it was", |screen| screen == before);
    assert!(s.alternate_screen(), "not on the alternate screen");
    assert!(!s.cursor_visible(), "the cursor shows at a menu");
    s.send("\r");
    s.wait_all(&[REVIEW, "> 1. Submit", HINT]);
    s.send("\r");
    exit_shell(
        &mut s,
        0,
        prefs_submitted(
            json!({
                "style": {"values": ["balanced"], "labels": ["Balanced"], "indices": [2]},
                "frameworks": {"values": ["react"], "labels": ["React"], "indices": [1]}
            }),
            &["Style: Balanced", "Frontend: React"],
        ),
    );
}

#[test]
fn ctrl_z_in_an_editor_keeps_the_draft() {
    let mut s = Session::spawn_shell(PREFS, Options::default());
    start_in_shell(&mut s);
    s.send("N");
    s.wait_all(&[QUESTION_NOTE_EDITOR, NOTE_READY]);
    s.send("half a thought");
    s.wait_for("\n> half a thought");
    s.send(CTRL_Z);
    wait_stopped(&mut s);
    s.send("fg\r");
    let screen = s.wait_all(&[QUESTION_NOTE_EDITOR, STYLE, "\n> half a thought"]);
    assert!(s.alternate_screen(), "not on the alternate screen");
    assert!(!screen.contains("Stopped"), "{screen}");
    assert!(!screen.contains(SHELL_PROMPT.trim_end()), "{screen}");
    s.send(" more");
    s.wait_for("\n> half a thought more");
    s.send("\r");
    s.wait_all(&[&format!("{STYLE}\n  Note: half a thought more\n"), HINT]);
    s.send(TAB);
    s.wait_all(&[FRONTEND, HINT]);
    s.send(TAB);
    s.wait_for("> 1. Submit");
    s.send("\r");
    exit_shell(
        &mut s,
        0,
        prefs_submitted(
            json!({"style": {"values": [], "labels": [], "indices": [], "note": "half a thought more"}}),
            &[
                STYLE_SKIPPED,
                "Style note: half a thought more",
                FRONTEND_SKIPPED,
            ],
        ),
    );
}

#[test]
fn an_empty_editor_lets_down_tab_and_left_navigate() {
    let mut s = Session::spawn(PREFS, &[]);
    s.wait_all(&[STYLE, "> ( ) 1. Minimal", HINT]);
    for _ in 0..2 {
        s.send(DOWN);
    }
    wait_highlight(&mut s, "> ( ) 3. Rich");
    s.send("n");
    s.wait_all(&["Note on Rich · Enter save · Esc close", NOTE_READY]);
    // ↓ in the empty editor: closed, the highlight on the next row.
    s.send(DOWN);
    let screen = wait_highlight(&mut s, "> ( ) 4. Type your own…");
    assert!(!screen.contains("Note on Rich"), "{screen}");
    s.send("\r");
    s.wait_all(&[ANSWER_EDITOR, ANSWER_READY]);
    // Tab: the next question.
    s.send(TAB);
    s.wait_all(&[FRONTEND, "> [ ] 1. React", HINT]);
    for _ in 0..3 {
        s.send(DOWN);
    }
    wait_highlight(&mut s, "> [ ] 4. Type your own…");
    s.send("\r");
    s.wait_all(&[ANSWER_EDITOR, ANSWER_READY]);
    // ←: the previous question, where it was left.
    s.send(LEFT);
    s.wait_all(&[STYLE, "> ( ) 4. Type your own…", HINT]);
    s.send("1");
    s.wait_all(&[FRONTEND, HINT]);
    s.send(TAB);
    s.wait_for("> 1. Submit");
    s.send("\r");
    assert_finished(
        &mut s,
        0,
        prefs_submitted(
            json!({"style": {"values": ["minimal"], "labels": ["Minimal"], "indices": [1]}}),
            &["Style: Minimal", FRONTEND_SKIPPED],
        ),
    );
}

#[test]
fn an_editor_with_text_keeps_tab_and_the_arrows() {
    let mut s = Session::spawn(PREFS, &[]);
    s.wait_all(&[STYLE, "> ( ) 1. Minimal", HINT]);
    for _ in 0..3 {
        s.send(DOWN);
    }
    wait_highlight(&mut s, "> ( ) 4. Type your own…");
    s.send("\r");
    s.wait_all(&[ANSWER_EDITOR, ANSWER_READY]);
    s.send("ab");
    s.wait_for("\n> ab");
    // Each key is followed by a character: it lands in the editor only if the editor stayed.
    s.send(LEFT);
    s.send("X");
    wait_line(&mut s, "> aXb");
    s.send(RIGHT);
    s.send("c");
    wait_line(&mut s, "> aXbc");
    s.send(TAB);
    s.send("d");
    wait_line(&mut s, "> aXbcd");
    s.send(SHIFT_TAB);
    s.send("e");
    wait_line(&mut s, "> aXbcde");
    s.send(DOWN);
    s.send(UP);
    s.send("f");
    let screen = wait_line(&mut s, "> aXbcdef");
    assert!(screen.contains(ANSWER_EDITOR), "{screen}");
    s.send("\r");
    skip_frontend_and_submit_custom_style(&mut s, "aXbcdef");
}

/// From the answer editor's Enter on Style: Frontend skipped, submitted from the review; the
/// result has `text` as Style's custom text.
fn skip_frontend_and_submit_custom_style(s: &mut Session, text: &str) {
    s.wait_all(&[FRONTEND, HINT]);
    s.send(TAB);
    s.wait_for("> 1. Submit");
    s.send("\r");
    assert_finished(
        s,
        0,
        prefs_submitted(
            json!({"style": {"values": [text], "labels": [text], "indices": [], "customText": text}}),
            &[&format!("Style: {text}"), FRONTEND_SKIPPED],
        ),
    );
}

#[test]
fn ctrl_s_then_ctrl_q_in_an_editor_leave_the_text_as_typed_and_enter_saves() {
    let mut s = Session::spawn(PREFS, &[]);
    s.wait_all(&[STYLE, "> ( ) 1. Minimal", HINT]);
    s.send("4");
    s.wait_all(&[ANSWER_EDITOR, ANSWER_READY]);
    s.send("abc");
    s.wait_for("\n> abc");
    // Ctrl+S (the habit that freezes a terminal), Ctrl+Q (the one that thaws it), then Enter.
    s.send("\x13");
    s.send("d");
    wait_line(&mut s, "> abcd");
    s.send("\x11");
    s.send("\r");
    skip_frontend_and_submit_custom_style(&mut s, "abcd");
}

/// How many BEL bytes (0x07) `bytes` holds.
fn bells(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == 0x07).count()
}

/// Answers Minimal, skips Frontend and submits; asserts the result (from `--output`, or from
/// stdout when the session sends stdout to a file).
fn minimal_and_submit(s: &mut Session) {
    s.send("1");
    s.wait_all(&[FRONTEND, HINT]);
    s.send(TAB);
    s.wait_for("> 1. Submit");
    s.send("\r");
    assert_finished(
        s,
        0,
        prefs_submitted(
            json!({"style": {"values": ["minimal"], "labels": ["Minimal"], "indices": [1]}}),
            &["Style: Minimal", FRONTEND_SKIPPED],
        ),
    );
}

#[test]
fn the_bell_rings_once_on_the_terminal_and_never_on_stdout() {
    let mut s = Session::spawn_with(
        PREFS,
        &[],
        Options {
            stdout_to_file: true,
            ..Options::default()
        },
    );
    s.wait_all(&[STYLE, HINT]);
    s.expect("\x07");
    assert_eq!(bells(&s.output()), 1, "{:?}", s.output_text());
    minimal_and_submit(&mut s);
    assert_eq!(bells(&s.output()), 1, "{:?}", s.output_text());
    let stdout = std::fs::read(s.dir().join("stdout.txt")).expect("stdout");
    assert_eq!(bells(&stdout), 0, "{:?}", String::from_utf8_lossy(&stdout));
}

#[test]
fn no_bell_with_the_flag_or_pi_ask_bell_0() {
    let quiet = |args: &[&str], env: &[(&str, &str)]| {
        let opts = Options {
            env: env
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            ..Options::default()
        };
        let mut s = Session::spawn_with(PREFS, args, opts);
        s.wait_all(&[STYLE, HINT]);
        minimal_and_submit(&mut s);
        assert_eq!(bells(&s.output()), 0, "{:?}", s.output_text());
    };
    quiet(&["--no-bell"], &[]);
    quiet(&[], &[("PI_ASK_BELL", "0")]);
    // As the other switches read it (it rang on for anything but `0`).
    quiet(&[], &[("PI_ASK_BELL", "off")]);
}

#[test]
fn peek_shows_the_context_until_the_next_key_which_does_nothing_else() {
    let dir = tempfile::tempdir().expect("temp dir");
    let context = dir.path().join("context.txt");
    std::fs::write(
        &context,
        "I will refactor the parser.\nWhich style should the next prompt have?\n",
    )
    .expect("write the context");
    // The file's last line break ends its last line: no empty line after it.
    let peeked = "Implementation preferences\n\
                  The agent's message · lines 1-2 of 2\n\
                  │ I will refactor the parser.\n\
                  │ Which style should the next prompt have?\n\
                  ↑↓ scroll · Esc back · ^C dismiss";
    let mut s = Session::spawn(PREFS, &["--context", context.to_str().unwrap()]);
    let before = s.wait_all(&[STYLE, "> ( ) 1. Minimal", HINT]);
    s.send(PEEK);
    let screen = s.wait_for("The agent's message · lines");
    assert_eq!(screen.trim_end(), peeked);
    // Enter only ends the peek: nothing is chosen.
    s.send("\r");
    s.wait_until("the question as it was", |screen| screen == before);
    // From an editor: the key that ends the peek is not typed, the draft is kept.
    s.send("N");
    s.wait_all(&[QUESTION_NOTE_EDITOR, NOTE_READY]);
    s.send("draft");
    s.wait_for("\n> draft");
    s.send(PEEK);
    let screen = s.wait_for("The agent's message · lines");
    assert_eq!(screen.trim_end(), peeked);
    s.send("z");
    s.wait_all(&[QUESTION_NOTE_EDITOR, "\n> draft"]);
    s.send("!");
    s.wait_for("\n> draft!");
    s.send("\r");
    s.wait_all(&[&format!("{STYLE}\n  Note: draft!\n"), HINT]);
    s.send(DOWN);
    wait_highlight(&mut s, "> ( ) 2. Balanced");
    s.send("\r");
    s.wait_all(&[FRONTEND, HINT]);
    s.send(TAB);
    s.wait_for("> 1. Submit");
    s.send("\r");
    assert_finished(
        &mut s,
        0,
        prefs_submitted(
            json!({"style": {"values": ["balanced"], "labels": ["Balanced"], "indices": [2], "note": "draft!"}}),
            &["Style: Balanced", "Style note: draft!", FRONTEND_SKIPPED],
        ),
    );
}

#[test]
fn peek_without_context_shows_the_screen_underneath() {
    let mut s = Session::spawn_shell(PREFS, Options::default());
    s.wait_for(SHELL_PROMPT.trim_end());
    s.send("echo the shell was here\r");
    // The prompt after the echo: a command sent before it would be echoed in cooked mode.
    s.wait_until("the prompt after the echo", |screen| {
        screen.trim_end().ends_with("the shell was here\nshell$")
    });
    let before = start_in_shell(&mut s);
    s.send(PEEK);
    let screen = s.wait_for("the shell was here\n");
    assert!(!s.alternate_screen(), "still on the alternate screen");
    assert_eq!(
        screen.trim_end(),
        "shell$ echo the shell was here\n\
         the shell was here\n\
         shell$ pi-ask payload.json --output result.json"
    );
    // Enter only ends the peek: the questionnaire is back as it was, nothing chosen.
    s.send("\r");
    s.wait_until("the question as it was", |screen| screen == before);
    assert!(s.alternate_screen(), "not on the alternate screen");
    s.send("3");
    s.wait_all(&[FRONTEND, HINT]);
    s.send(TAB);
    s.wait_for("> 1. Submit");
    s.send("\r");
    exit_shell(
        &mut s,
        0,
        prefs_submitted(
            json!({"style": {"values": ["rich"], "labels": ["Rich"], "indices": [3]}}),
            &["Style: Rich", FRONTEND_SKIPPED],
        ),
    );
}

#[test]
fn a_resize_lays_the_screen_out_at_once() {
    let mut s = Session::spawn(PREFS, &[]);
    let wide = s.wait_all(&["Implementation preferences", STYLE, HINT]);
    // Short and narrow: cut lines, a page of the options; no key sent.
    s.set_window_size(10, 40);
    let narrow = s.wait_until("the screen laid out at 10x40", |screen| {
        screen.contains("? keys [1/2]")
    });
    assert_eq!(
        narrow,
        "Implementation preferences\n\
         1/2 Style · How should I frame the…:\n\
         > ( ) 1. Minimal\n\
         \x20        A short, direct question with…\n\
         \x20 ( ) 2. Balanced\n\
         \x20        A standard prompt with a bit …\n\
         \x20 ( ) 3. Rich\n\
         \x20        A more descriptive prompt wit…\n\
         ↑↓ move · Enter choose · ? keys [1/2]"
    );
    s.set_window_size(30, 100);
    s.wait_until("the screen laid out at 30x100", |screen| screen == wide);
    // At the review too, and the next key is not lost.
    s.send("1");
    s.wait_all(&[FRONTEND, HINT]);
    s.send(TAB);
    let review = s.wait_all(&[REVIEW, "> 1. Submit", HINT]);
    s.set_window_size(12, 40);
    s.wait_until("the review laid out at 12x40", |screen| {
        screen != review && screen.contains("> 1. Submit") && screen.contains("? keys")
    });
    s.send("\r");
    assert_finished(
        &mut s,
        0,
        prefs_submitted(
            json!({"style": {"values": ["minimal"], "labels": ["Minimal"], "indices": [1]}}),
            &["Style: Minimal", FRONTEND_SKIPPED],
        ),
    );
}

// The contract's keyboard as its source of truth has it: one test per keyboard assertion of
// eko24ive/pi-ask v0.3.0 `tests/state.test.ts`, `tests/input.test.ts` and
// `tests/render-submit.test.ts`, named after the upstream test, played with keys on the real
// binary in a pty. (The upstream's typing-mode navigation tests are
// `an_empty_editor_lets_down_tab_and_left_navigate` and
// `an_editor_with_text_keeps_tab_and_the_arrows` above; deselecting an option keeps its note:
// tests/tty.rs `option_note_dropped_on_deselect_and_restored_on_reselect`.)

/// The upstream tests' `sampleParams()`.
const INTERVIEW: &str = r#"{"title": "Interview", "questions": [
    {"id": "lang", "label": "Language", "prompt": "What language?", "options": [
        {"value": "py", "label": "Python"}, {"value": "ts", "label": "TypeScript"}]},
    {"id": "fe", "label": "Frontend", "prompt": "Which frameworks?", "type": "multi", "options": [
        {"value": "react", "label": "React"}, {"value": "vue", "label": "Vue"}]}
]}"#;
/// [`INTERVIEW`]'s prompt lines.
const LANG: &str = "1/2 Language · What language?:";
const FE: &str = "2/2 Frontend · Which frameworks?:";

/// `details.questions` of [`INTERVIEW`].
fn interview_questions() -> Value {
    json!([
        {"id": "lang", "label": "Language", "prompt": "What language?", "type": "single"},
        {"id": "fe", "label": "Frontend", "prompt": "Which frameworks?", "type": "multi"}
    ])
}

/// A payload of one question `q1` with `prompt`, options `(value, label)` and `type`.
fn one_question(prompt: &str, kind: &str, options: &[(&str, &str)]) -> String {
    let options: Vec<Value> = options
        .iter()
        .map(|(value, label)| json!({"value": value, "label": label}))
        .collect();
    json!({"questions": [{"id": "q1", "prompt": prompt, "type": kind, "options": options}]})
        .to_string()
}

/// Waits for the exit; asserts the exit code and that the terminal is restored; returns the
/// result's `details`.
fn finished_details(s: &mut Session, code: i32) -> Value {
    let (got, result) = s.finish();
    assert_eq!(got, code, "exit code; stderr: {}", s.stderr());
    assert!(s.cursor_visible(), "cursor hidden at exit");
    assert!(!s.alternate_screen(), "still on the alternate screen");
    result.expect("a result")["details"].clone()
}

/// The review with Submit highlighted; its lines.
fn wait_review_lines(s: &mut Session) -> Vec<String> {
    let screen = s.wait_all(&[REVIEW, "> 1. Submit", HINT]);
    review_lines(&screen)
        .into_iter()
        .map(String::from)
        .collect()
}

#[test]
fn upstream_single_select_number_shortcut_stores_answer_and_advances_to_next_tab() {
    let mut s = Session::spawn(INTERVIEW, &[]);
    s.wait_all(&[LANG, "> ( ) 1. Python", HINT]);
    s.send("2");
    let screen = s.wait_all(&[FE, "> [ ] 1. React", HINT]);
    assert!(!screen.contains(LANG), "{screen}");
    s.send(TAB);
    assert_eq!(
        wait_review_lines(&mut s)[1..3],
        ["  Language", "     → TypeScript"]
    );
    s.send("\r");
    assert_eq!(
        finished_details(&mut s, 0),
        json!({
            "title": "Interview", "cancelled": false, "questions": interview_questions(),
            "answers": {"lang": {"values": ["ts"], "labels": ["TypeScript"], "indices": [2]}}
        })
    );
}

#[test]
fn upstream_single_select_space_toggles_the_active_option_without_advancing() {
    let mut s = Session::spawn(INTERVIEW, &[]);
    s.wait_all(&[LANG, "> ( ) 1. Python", HINT]);
    s.send(" ");
    let screen = s.wait_all(&[LANG, "> (•) 1. Python", HINT]);
    assert!(!screen.contains(FE), "{screen}");
    // The selection is an answer: the review shows it.
    s.send(SHIFT_TAB);
    assert_eq!(
        wait_review_lines(&mut s)[1..3],
        ["  Language", "     → Python"]
    );
    s.send(TAB);
    s.wait_all(&[LANG, "> (•) 1. Python", HINT]);
    // A second Space deselects, still on the question.
    s.send(" ");
    let screen = s.wait_all(&[LANG, "> ( ) 1. Python", HINT]);
    assert!(!screen.contains("(•)"), "{screen}");
    s.send(SHIFT_TAB);
    assert_eq!(
        wait_review_lines(&mut s)[1..3],
        ["  Language", "     → unanswered"]
    );
    s.send("\r");
    assert_eq!(
        finished_details(&mut s, 0),
        json!({"title": "Interview", "cancelled": false, "questions": interview_questions(), "answers": {}})
    );
}

#[test]
fn upstream_multi_select_space_toggles_current_option_and_enter_advances_to_submit() {
    let mut s = Session::spawn(INTERVIEW, &[]);
    s.wait_all(&[LANG, HINT]);
    s.send("1");
    s.wait_all(&[FE, "> [ ] 1. React", HINT]);
    s.send(" ");
    s.wait_all(&[FE, "> [x] 1. React", HINT]);
    s.send(DOWN);
    s.wait_for("> [ ] 2. Vue");
    s.send(" ");
    s.wait_all(&["  [x] 1. React", "> [x] 2. Vue"]);
    // Enter goes on to the review; nothing is submitted yet.
    s.send("\r");
    assert_eq!(
        wait_review_lines(&mut s),
        [
            REVIEW,
            "  Language",
            "     → Python",
            "",
            "  Frontend",
            "     → React",
            "     → Vue",
            "",
            "> 1. Submit",
            "  2. Elaborate",
            "     ask the agent to elaborate on your notes, keeping the answers",
            "  3. Cancel",
        ]
    );
    s.send("\r");
    assert_eq!(
        finished_details(&mut s, 0)["answers"],
        json!({
            "lang": {"values": ["py"], "labels": ["Python"], "indices": [1]},
            "fe": {"values": ["react", "vue"], "labels": ["React", "Vue"], "indices": [1, 2]}
        })
    );
}

#[test]
fn upstream_selecting_other_enters_input_mode_and_custom_submit_stores_typed_answer() {
    let mut s = Session::spawn(&one_question("Other?", "single", &[("a", "A")]), &[]);
    let screen = s.wait_all(&["Other?:", HINT]);
    assert!(screen.contains("\n  ( ) 2. Type your own…\n"), "{screen}");
    // Type your own is option N+1: its digit opens its editor.
    s.send("2");
    let screen = s.wait_all(&[ANSWER_EDITOR, ANSWER_READY]);
    assert_eq!(
        screen.lines().collect::<Vec<_>>(),
        [
            ANSWER_EDITOR,
            "Other?:",
            "  ( ) 1. A",
            "> ( ) 2. Type your own",
            "> Type answer..."
        ]
    );
    s.send("my custom answer");
    wait_line(&mut s, "> my custom answer");
    s.send("\r");
    assert_eq!(
        wait_review_lines(&mut s)[1..3],
        ["  Q1", "     → “my custom answer”"]
    );
    s.send("\r");
    assert_eq!(
        finished_details(&mut s, 0)["answers"],
        json!({"q1": {
            "values": ["my custom answer"], "labels": ["my custom answer"], "indices": [],
            "customText": "my custom answer"
        }})
    );
}

#[test]
fn upstream_escape_saves_typed_custom_answer_without_advancing() {
    let mut s = Session::spawn(&one_question("Other?", "single", &[("a", "A")]), &[]);
    s.wait_all(&["Other?:", HINT]);
    s.send("2");
    s.wait_all(&[ANSWER_EDITOR, ANSWER_READY]);
    s.send("my draft answer");
    wait_line(&mut s, "> my draft answer");
    s.send(ESC);
    let screen = s.wait_all(&["> (•) 2. Type your own… “my draft answer”", HINT]);
    assert!(screen.starts_with("Other?:\n"), "{screen}");
    assert!(!screen.contains(ANSWER_EDITOR), "{screen}");
    s.send(TAB);
    assert_eq!(
        wait_review_lines(&mut s)[1..3],
        ["  Q1", "     → “my draft answer”"]
    );
    s.send("\r");
    assert_eq!(
        finished_details(&mut s, 0)["answers"],
        json!({"q1": {
            "values": ["my draft answer"], "labels": ["my draft answer"], "indices": [],
            "customText": "my draft answer"
        }})
    );
}

#[test]
fn upstream_multi_select_keeps_existing_selections_when_leaving_custom_input_empty() {
    let payload = one_question(
        "Pick frameworks",
        "multi",
        &[("react", "React"), ("vue", "Vue"), ("svelte", "Svelte")],
    );
    let mut s = Session::spawn(&payload, &[]);
    s.wait_all(&["Pick frameworks:", HINT]);
    s.send(DOWN);
    s.wait_for("> [ ] 2. Vue");
    s.send(" ");
    s.wait_for("> [x] 2. Vue");
    s.send(DOWN);
    s.wait_for("> [ ] 3. Svelte");
    s.send(" ");
    s.wait_for("> [x] 3. Svelte");
    s.send("4");
    s.wait_all(&[ANSWER_EDITOR, ANSWER_READY]);
    s.send("   ");
    s.send(ESC);
    let screen = s.wait_all(&["> [ ] 4. Type your own…", HINT]);
    assert!(
        screen.contains("  [x] 2. Vue\n  [x] 3. Svelte\n"),
        "{screen}"
    );
    s.send(TAB);
    assert_eq!(
        wait_review_lines(&mut s)[1..4],
        ["  Q1", "     → Vue", "     → Svelte"]
    );
    s.send("\r");
    assert_eq!(
        finished_details(&mut s, 0)["answers"],
        json!({"q1": {"values": ["vue", "svelte"], "labels": ["Vue", "Svelte"], "indices": [2, 3]}})
    );
}

#[test]
fn upstream_empty_custom_draft_clears_the_stored_answer_but_preserves_notes() {
    let mut s = Session::spawn(&one_question("Other?", "single", &[("a", "A")]), &[]);
    s.wait_all(&["Other?:", HINT]);
    s.send("N");
    s.wait_all(&[QUESTION_NOTE_EDITOR, NOTE_READY]);
    s.send("question note");
    wait_line(&mut s, "> question note");
    s.send("\r");
    s.wait_all(&["Other?:\n  Note: question note\n", HINT]);
    s.send("2");
    s.wait_all(&[ANSWER_EDITOR, ANSWER_READY]);
    s.send("my answer");
    wait_line(&mut s, "> my answer");
    s.send(ESC);
    s.wait_all(&["> (•) 2. Type your own… “my answer”", HINT]);
    // The draft emptied to spaces and kept with Esc clears the answer; the note stays.
    s.send("2");
    wait_line(&mut s, "> my answer");
    s.send(CTRL_U);
    s.wait_for(ANSWER_READY);
    s.send("   ");
    s.send(ESC);
    let screen = s.wait_all(&[
        "Other?:\n  Note: question note\n",
        "> ( ) 2. Type your own…\n",
    ]);
    assert!(!screen.contains("my answer"), "{screen}");
    s.send(TAB);
    assert_eq!(
        wait_review_lines(&mut s)[1..3],
        ["  Q1", "       Note: question note"]
    );
    s.send("\r");
    assert_eq!(
        finished_details(&mut s, 0)["answers"],
        json!({"q1": {"values": [], "labels": [], "indices": [], "note": "question note"}})
    );
}

#[test]
fn upstream_tab_navigation_wraps_including_submit_tab() {
    let mut s = Session::spawn(INTERVIEW, &[]);
    s.wait_all(&[LANG, "> ( ) 1. Python", HINT]);
    // Shift+Tab on the first question: the review.
    s.send(SHIFT_TAB);
    wait_review_lines(&mut s);
    // Tab on the review: the first question.
    s.send(TAB);
    s.wait_all(&[LANG, "> ( ) 1. Python", HINT]);
    s.send(TAB);
    s.wait_all(&[FE, HINT]);
    s.send(TAB);
    wait_review_lines(&mut s);
    s.send(TAB);
    s.wait_all(&[LANG, HINT]);
    s.send(SHIFT_TAB);
    wait_review_lines(&mut s);
    s.send("\r");
    assert_eq!(
        finished_details(&mut s, 0),
        json!({"title": "Interview", "cancelled": false, "questions": interview_questions(), "answers": {}})
    );
}

#[test]
fn upstream_tab_navigation_works_with_a_single_question() {
    let mut s = Session::spawn(&one_question("Q?", "single", &[("a", "A")]), &[]);
    s.wait_all(&["Q?:", "> ( ) 1. A", HINT]);
    s.send(SHIFT_TAB);
    assert_eq!(
        wait_review_lines(&mut s),
        [
            REVIEW,
            "  Q1",
            "     → unanswered",
            "",
            "> 1. Submit",
            "  2. Elaborate",
            "     ask the agent to elaborate on your notes, keeping the answers",
            "  3. Cancel"
        ]
    );
    s.send(TAB);
    s.wait_all(&["Q?:", "> ( ) 1. A", HINT]);
    s.send(TAB);
    wait_review_lines(&mut s);
    s.send("\r");
    assert_eq!(finished_details(&mut s, 0)["answers"], json!({}));
}

/// Also upstream `tests/state.test.ts` "dismissFlow cancels the tool even from editing modes".
#[test]
fn upstream_ctrl_c_dismisses_the_flow_from_both_navigation_and_editing_modes() {
    let payload = one_question("Question?", "single", &[("a", "A")]);
    // Navigation; the custom-text editor (2: Type your own); the question note's editor.
    for open in ["", "2", "N"] {
        let mut s = Session::spawn(&payload, &[]);
        s.wait_all(&["Question?:", HINT]);
        if !open.is_empty() {
            s.send(open);
            s.wait_until("an editor", |screen| {
                screen.ends_with(ANSWER_READY) || screen.ends_with(NOTE_READY)
            });
            s.send("typed");
            wait_line(&mut s, "> typed");
        }
        s.send(CTRL_C);
        let details = finished_details(&mut s, 130);
        assert_eq!(details["cancelled"], json!(true), "{open:?}");
        assert_eq!(details["answers"], json!({}), "{open:?}");
        assert_eq!(details.get("error"), None, "{open:?}");
    }
}

#[test]
fn upstream_escape_cancels_from_main_flow_but_only_exits_input_and_note_modes_when_editing() {
    let mut s = Session::spawn(&one_question("Q?", "single", &[("a", "A")]), &[]);
    s.wait_all(&["Q?:", HINT]);
    s.send("2");
    s.wait_all(&[ANSWER_EDITOR, ANSWER_READY]);
    s.send(ESC);
    s.wait_all(&["Q?:", "> ( ) 2. Type your own…", HINT]);
    s.send("N");
    s.wait_all(&[QUESTION_NOTE_EDITOR, NOTE_READY]);
    s.send(ESC);
    let screen = s.wait_all(&["Q?:", "> ( ) 2. Type your own…", HINT]);
    assert!(!screen.contains("Note"), "{screen}");
    // Esc on the question: cancel (nothing to lose: at once).
    s.send(ESC);
    let details = finished_details(&mut s, 1);
    assert_eq!(details["cancelled"], json!(true));
    assert_eq!(details["answers"], json!({}));
}

#[test]
fn upstream_note_shortcuts_use_n_for_option_notes_and_shift_n_for_question_notes() {
    let mut s = Session::spawn(&one_question("Question?", "single", &[("a", "A")]), &[]);
    s.wait_all(&["Question?:", "> ( ) 1. A", HINT]);
    s.send("n");
    s.wait_all(&["Note on A · Enter save · Esc close", NOTE_READY]);
    s.send("on a");
    wait_line(&mut s, "> on a");
    s.send("\r");
    s.wait_all(&["> ( ) 1. A\n         note: on a\n", HINT]);
    s.send("N");
    let screen = s.wait_all(&[QUESTION_NOTE_EDITOR, NOTE_READY]);
    // The question note's editor right under the prompt (upstream render-question.test.ts
    // "open question note renders inline label and editor").
    assert_eq!(
        screen.lines().collect::<Vec<_>>(),
        [QUESTION_NOTE_EDITOR, "Question?:", "> Add a note..."]
    );
    s.send("on q");
    wait_line(&mut s, "> on q");
    s.send("\r");
    s.wait_all(&["Question?:\n  Note: on q\n", HINT]);
    s.send(TAB);
    // A's note is kept but, A not chosen, shown as going only with Elaborate; Submit asks
    // first, and yes submits without it.
    assert_eq!(
        wait_review_lines(&mut s),
        [
            REVIEW,
            "  Q1",
            "       Note: on q",
            "       Note on A (only with Elaborate): on a",
            "",
            "> 1. Submit",
            "  2. Elaborate",
            "     ask the agent to elaborate on your notes, keeping the answers",
            "  3. Cancel"
        ]
    );
    s.send("\r");
    s.wait_for("Submit without 1 note on an option you did not choose?");
    s.send("y");
    assert_eq!(
        finished_details(&mut s, 0)["answers"],
        json!({"q1": {"values": [], "labels": [], "indices": [], "note": "on q"}})
    );
}

#[test]
fn upstream_submit_screen_uses_shorter_action_labels_without_extra_prompt_text() {
    let payload = json!({"questions": [{"id": "q1", "label": "Single",
        "prompt": "Pick one primary demo style.", "options": [{"value": "code", "label": "Code demo"}]}]});
    let mut s = Session::spawn(&payload.to_string(), &[]);
    s.wait_all(&["Pick one primary demo style.:", HINT]);
    s.send(TAB);
    let screen = s.wait_all(&[REVIEW, "> 1. Submit", HINT]);
    assert_eq!(
        screen.lines().collect::<Vec<_>>(),
        [
            REVIEW,
            "  Single",
            "     → unanswered",
            "",
            "> 1. Submit",
            "  2. Elaborate",
            "     ask the agent to elaborate on your notes, keeping the answers",
            "  3. Cancel",
            "↑↓ move · Enter choose · ← back · Esc cancel · ^C dismiss · ^] context · ? keys",
        ]
    );
    // A digit arms its action; the same digit again runs it.
    s.send("3");
    s.wait_all(&["> 3. Cancel", "\nPress 3 again to cancel · "]);
    s.send("3");
    let details = finished_details(&mut s, 1);
    assert_eq!(details["cancelled"], json!(true));
    assert_eq!(details["answers"], json!({}));
}

/// `2` and Enter typed in one burst at the review (typed ahead for a question gone by) never
/// elaborate: the Enter of the burst leaves Elaborate armed; an Enter pressed on its own after
/// it runs it, as Enter runs the highlighted action.
#[test]
fn two_and_enter_in_one_burst_at_the_review_do_not_elaborate() {
    let mut s = Session::spawn(PREFS, &[]);
    s.wait_all(&[STYLE, "> ( ) 1. Minimal", HINT]);
    s.send(SHIFT_TAB);
    s.wait_all(&[REVIEW, "> 1. Submit", HINT]);
    s.send("2\r");
    s.wait_all(&["> 2. Elaborate", "\nPress 2 again to elaborate · "]);
    // Still there: ↓ moves to Cancel (had the Enter elaborated, the run would be over).
    s.send(DOWN);
    s.wait_all(&["> 3. Cancel", HINT]);
    s.send(UP);
    s.wait_all(&["> 2. Elaborate", HINT]);
    s.send("2");
    s.wait_all(&["> 2. Elaborate", "\nPress 2 again to elaborate · "]);
    s.send("\r");
    let details = finished_details(&mut s, 0);
    assert_eq!(details["mode"], json!("elaborate"), "{details}");
}

/// A digit that chooses at a single-select question and moves on, with Enter in the same
/// burst (`1` Enter, a person's habit): the Enter is the choice's own, dropped, never acted on
/// by the next question (where it would go on to the review); the keys after it act there.
#[test]
fn a_digit_and_enter_in_one_burst_answer_only_the_question_shown() {
    let mut s = Session::spawn(PREFS, &[]);
    s.wait_all(&[STYLE, "> ( ) 1. Minimal", HINT]);
    s.send("1\r2\t");
    wait_review_lines(&mut s);
    s.send("\r");
    assert_eq!(
        finished_details(&mut s, 0)["answers"],
        json!({
            "style": {"values": ["minimal"], "labels": ["Minimal"], "indices": [1]},
            "frameworks": {"values": ["vue"], "labels": ["Vue"], "indices": [2]}
        })
    );
}

/// On a question of 12 options, `1` `2` Enter typed in one go choose option 12 (the `1` waits
/// for the next digit), and the Enter, the number's own, never answers the next question.
#[test]
fn one_two_enter_chooses_option_12_and_nothing_on_the_next_question() {
    let options: Vec<Value> = (1..=12)
        .map(|i| json!({"value": format!("o{i}"), "label": format!("Option {i}")}))
        .collect();
    let payload = json!({"questions": [
        {"id": "many", "label": "Many", "prompt": "Which of twelve?", "options": options},
        {"id": "few", "label": "Few", "prompt": "Which of two?", "options": [
            {"value": "a", "label": "Alpha"}, {"value": "b", "label": "Beta"}]}
    ]})
    .to_string();
    let mut s = Session::spawn(&payload, &[]);
    s.wait_all(&["1/2 Many · Which of twelve?:", HINT]);
    s.send("12\r");
    s.wait_all(&["2/2 Few · Which of two?:", "> ( ) 1. Alpha", HINT]);
    s.send(TAB);
    wait_review_lines(&mut s);
    s.send("\r");
    assert_eq!(
        finished_details(&mut s, 0)["answers"],
        json!({"many": {"values": ["o12"], "labels": ["Option 12"], "indices": [12]}})
    );
}

/// On a question of 12 options the key list (`?`) names every number (`1-13`), and a digit
/// that waits for a second one shows it in place of the hint line until the wait ends (the
/// bytes written are looked at: the line is up for 400 ms only).
#[test]
fn a_waiting_digit_shows_on_the_hint_line_and_the_key_list_names_1_to_13() {
    let options: Vec<Value> = (1..=12)
        .map(|i| json!({"value": format!("o{i}"), "label": format!("Option {i}")}))
        .collect();
    let payload = json!({"questions": [
        {"id": "many", "label": "Many", "prompt": "Which of twelve?", "options": options}
    ]})
    .to_string();
    let mut s = Session::spawn(&payload, &[]);
    s.wait_all(&["Which of twelve?:", HINT]);
    s.send("?");
    s.wait_for("\u{2502} 1-13     choose option 1-12; 13: Type your own\n");
    s.send("\x1b");
    s.wait_all(&["Which of twelve?:", HINT]);
    s.send("1");
    s.wait_for("1\u{2026} Enter chooses option 1, or type the next digit (10-13)");
    // However long it waits nothing is chosen: the line stays until Enter chooses option 1.
    std::thread::sleep(std::time::Duration::from_millis(800));
    s.wait_for("1\u{2026} Enter chooses option 1, or type the next digit (10-13)");
    s.send("\r");
    let lines = wait_review_lines(&mut s);
    assert_eq!(
        lines[1..3],
        ["  Many", "     \u{2192} Option 1"],
        "{lines:?}"
    );
}

/// `q` at a question is a letter like the others no key has: a word typed there (`quince`)
/// starts the filter and never cancels the flow (Esc does); `q` still cancels at the review.
#[test]
fn a_word_starting_with_q_at_a_question_filters_and_never_cancels() {
    let mut s = Session::spawn(PREFS, &[]);
    s.wait_all(&[STYLE, "> ( ) 1. Minimal", HINT]);
    s.send("quince");
    wait_line(&mut s, "> quince");
    s.send("\x15rich\r");
    s.wait_all(&["Filter “rich”: 1 of 3 options", "> ( ) 3. Rich", HINT]);
    s.send("\r");
    s.wait_all(&[FRONTEND, "> [ ] 1. React", HINT]);
    s.send("q");
    wait_line(&mut s, "> q");
    s.send("\x1b\x1b");
    s.wait_all(&[FRONTEND, "> [ ] 1. React", HINT]);
    s.send(TAB);
    wait_review_lines(&mut s);
    s.send("q");
    s.wait_all(&["Cancel and discard your answers?:", "> No, keep answering"]);
    s.send("y");
    let details = finished_details(&mut s, 1);
    assert_eq!(details["cancelled"], json!(true), "{details}");
}

/// A word typed at a list in one burst is the filter's text whole, though its first letter is
/// a key's (`a` ticks all, `n` opens a note, `v` the pager): `angular` filters and neither
/// ticks nor writes a note; `vue` filters to Vue; `jj` still moves twice. A key's letter
/// alone still acts.
#[test]
fn a_word_starting_with_a_keys_letter_filters_whole() {
    let mut s = Session::spawn(PREFS, &[]);
    s.wait_all(&[STYLE, "> ( ) 1. Minimal", HINT]);
    // A key repeated in one burst (held down) is no word: `jj` moves twice.
    s.send("jj");
    wait_highlight(&mut s, "> ( ) 3. Rich");
    s.send("2");
    s.wait_all(&[FRONTEND, "> [ ] 1. React", HINT]);
    s.send("angular");
    wait_line(&mut s, "> angular");
    s.send("\r");
    s.wait_all(&["Filter \u{201c}angular\u{201d}: no option matches", HINT]);
    s.send(ESC);
    let screen = s.wait_all(&[FRONTEND, "  [ ] 1. React", "  [ ] 3. Svelte", HINT]);
    assert!(!screen.contains("note:"), "{screen}");
    assert!(!screen.contains("[x]"), "{screen}");
    s.send("vue");
    wait_line(&mut s, "> vue");
    s.send("\r");
    s.wait_all(&[
        "Filter \u{201c}vue\u{201d}: 1 of 3 options",
        "> [ ] 2. Vue",
        HINT,
    ]);
    s.send(" ");
    s.wait_all(&["> [x] 2. Vue", HINT]);
    s.send("\r");
    let lines = wait_review_lines(&mut s);
    assert_eq!(
        lines[4..7],
        ["  Frontend", "     \u{2192} Vue", ""],
        "{lines:?}"
    );
    s.send("\r");
    assert_finished(
        &mut s,
        0,
        prefs_submitted(
            json!({
                "style": {"values": ["balanced"], "labels": ["Balanced"], "indices": [2]},
                "frameworks": {"values": ["vue"], "labels": ["Vue"], "indices": [2]}
            }),
            &["Style: Balanced", "Frontend: Vue"],
        ),
    );
}

/// Elaborate (the contract's project since v0.4.0): 2 arms it on the review, 2 again ends the
/// flow asking the agent to answer the notes first, the answers kept.
#[test]
fn two_twice_on_the_review_elaborates_on_the_notes_keeping_the_answers() {
    let mut s = Session::spawn(INTERVIEW, &[]);
    s.wait_all(&[LANG, "> ( ) 1. Python", HINT]);
    s.send("N");
    s.wait_all(&[QUESTION_NOTE_EDITOR, NOTE_READY]);
    s.send("why not Go?");
    wait_line(&mut s, "> why not Go?");
    s.send("\r");
    s.wait_all(&[&format!("{LANG}\n  Note: why not Go?\n"), HINT]);
    s.send("1");
    s.wait_all(&[FE, "> [ ] 1. React", HINT]);
    s.send(" ");
    s.wait_all(&[FE, "> [x] 1. React", HINT]);
    s.send(TAB);
    wait_review_lines(&mut s);
    s.send("2");
    s.wait_all(&["> 2. Elaborate", "\nPress 2 again to elaborate · "]);
    s.send("2");
    let (code, result) = s.finish();
    assert_eq!(code, 0, "exit code; stderr: {}", s.stderr());
    assert!(s.cursor_visible(), "cursor hidden at exit");
    assert!(!s.alternate_screen(), "still on the alternate screen");
    // The upstream result (src/state/result.ts, src/result-format.ts): only the noted question
    // needs clarification; the answer without a note is preserved.
    let answer =
        json!({"values": ["py"], "labels": ["Python"], "indices": [1], "note": "why not Go?"});
    let react = json!({"values": ["react"], "labels": ["React"], "indices": [1]});
    assert_eq!(
        result.expect("a result"),
        json!({
            "content": [{"type": "text", "text": "User asked to elaborate on question \"What language?\" after current answer \"Python\" with note \"why not Go?\"\n\
                Keep these answers:\nFrontend: React\nRe-ask: Language (lang)\n\
                Answer the user's notes above first, then call ask_user again with only the \
                questions to re-ask (if a choice is still needed), keeping the answers above."}],
            "details": {
                "title": "Interview", "cancelled": false, "mode": "elaborate",
                "questions": interview_questions(),
                "answers": {"lang": answer, "fe": react},
                "continuation": {
                    "strategy": "refine_only", "affectedQuestionIds": ["lang"], "preservedAnswers": {"fe": react},
                    "questionStates": {"lang": {"status": "needs_clarification"}, "fe": {"status": "answered"}}
                },
                "elaboration": {
                    "instruction": "First answer the user's noted clarification directly and concisely using the provided question and option context. Do not treat these notes as final answers. Then re-ask only the affected questions if a choice is still needed afterward. Do not jump straight to a follow-up question unless the note is already resolved.",
                    "nextAction": "clarify_then_reask",
                    "items": [{
                        "target": {"kind": "question"},
                        "question": {
                            "id": "lang", "label": "Language", "prompt": "What language?", "type": "single",
                            "options": [{"value": "py", "label": "Python"}, {"value": "ts", "label": "TypeScript"}]
                        },
                        "answered": true, "answer": answer, "note": "why not Go?"
                    }]
                }
            }
        })
    );
}

#[test]
fn upstream_submit_screen_renders_indented_notes_before_answer_and_separates_questions() {
    let payload = json!({"questions": [
        {"id": "q1", "label": "Single", "prompt": "Pick one primary demo style.",
         "options": [{"value": "code", "label": "Code demo"}]},
        {"id": "q2", "label": "Multi", "prompt": "Pick any extra things to include.",
         "options": [{"value": "extra", "label": "Extra"}]}
    ]});
    let mut s = Session::spawn(&payload.to_string(), &[]);
    let single = "1/2 Single · Pick one primary demo style.:";
    s.wait_all(&[single, HINT]);
    s.send("N");
    s.wait_all(&[QUESTION_NOTE_EDITOR, NOTE_READY]);
    s.send("Question note");
    wait_line(&mut s, "> Question note");
    s.send("\r");
    s.wait_all(&[single, "  Note: Question note", HINT]);
    s.send("1");
    s.wait_all(&["2/2 Multi · Pick any extra things to include.:", HINT]);
    s.send(SHIFT_TAB);
    s.wait_all(&[single, "> (•) 1. Code demo", HINT]);
    s.send("n");
    s.wait_all(&["Note on Code demo · Enter save", NOTE_READY]);
    s.send("Option note");
    wait_line(&mut s, "> Option note");
    s.send("\r");
    s.wait_all(&["         note: Option note", HINT]);
    s.send(TAB);
    s.wait_all(&["2/2 Multi · Pick any extra things to include.:", HINT]);
    s.send("N");
    s.wait_all(&[QUESTION_NOTE_EDITOR, NOTE_READY]);
    s.send("Second note");
    wait_line(&mut s, "> Second note");
    s.send("\r");
    s.wait_all(&["  Note: Second note", HINT]);
    s.send(TAB);
    // Labels, no prompts; notes indented under a `Note:` label, the question's before the
    // answer; a blank line between questions.
    assert_eq!(
        wait_review_lines(&mut s),
        [
            REVIEW,
            "  Single",
            "       Note: Question note",
            "     → Code demo",
            "       Note: Option note",
            "",
            "  Multi",
            "       Note: Second note",
            "",
            "> 1. Submit",
            "  2. Elaborate",
            "     ask the agent to elaborate on your notes, keeping the answers",
            "  3. Cancel",
        ]
    );
    s.send("1");
    s.wait_for("Press 1 again to submit");
    s.send("1");
    assert_eq!(
        finished_details(&mut s, 0)["answers"],
        json!({
            "q1": {"values": ["code"], "labels": ["Code demo"], "indices": [1],
                   "note": "Question note", "optionNotes": {"code": "Option note"}},
            "q2": {"values": [], "labels": [], "indices": [], "note": "Second note"}
        })
    );
}

#[test]
fn upstream_submit_screen_renders_multi_select_option_notes_under_their_related_answers() {
    let payload = json!({"questions": [{"id": "q1", "label": "Multi", "prompt": "Pick extras",
        "type": "multi", "options": [
            {"value": "follow-up", "label": "Follow-up action"},
            {"value": "docs", "label": "Docs demo"}]}]});
    let mut s = Session::spawn(&payload.to_string(), &[]);
    s.wait_all(&["Pick extras:", HINT]);
    s.send("1");
    s.wait_for("> [x] 1. Follow-up action");
    s.send("n");
    s.wait_all(&["Note on Follow-up action · Enter save", NOTE_READY]);
    s.send("First note");
    wait_line(&mut s, "> First note");
    s.send("\r");
    s.wait_all(&["     note: First note", HINT]);
    s.send("2");
    s.wait_for("> [x] 2. Docs demo");
    s.send("n");
    s.wait_all(&["Note on Docs demo · Enter save", NOTE_READY]);
    s.send("Second note");
    wait_line(&mut s, "> Second note");
    s.send("\r");
    s.wait_all(&["     note: Second note", HINT]);
    s.send("\r");
    assert_eq!(
        wait_review_lines(&mut s),
        [
            REVIEW,
            "  Multi",
            "     → Follow-up action",
            "       Note: First note",
            "     → Docs demo",
            "       Note: Second note",
            "",
            "> 1. Submit",
            "  2. Elaborate",
            "     ask the agent to elaborate on your notes, keeping the answers",
            "  3. Cancel",
        ]
    );
    s.send("\r");
    assert_eq!(
        finished_details(&mut s, 0)["answers"],
        json!({"q1": {
            "values": ["follow-up", "docs"], "labels": ["Follow-up action", "Docs demo"],
            "indices": [1, 2],
            "optionNotes": {"follow-up": "First note", "docs": "Second note"}
        }})
    );
}

/// The editors read keys through the one reader: the kitty and xterm modifyOtherKeys forms of
/// Ctrl+W, Ctrl+A, Esc and Ctrl+C mean in an editor what they mean at a menu, no stray bytes
/// typed (docs/interactive.md, "The line editor").
#[test]
fn kitty_and_modify_other_keys_forms_edit_in_an_editor() {
    let mut s = Session::spawn(&one_question("Other?", "single", &[("a", "A")]), &[]);
    s.wait_all(&["Other?:", HINT]);
    s.send("2");
    s.wait_all(&[ANSWER_EDITOR, ANSWER_READY]);
    s.send("abc def");
    wait_line(&mut s, "> abc def");
    // Ctrl+W (kitty), Ctrl+A (modifyOtherKeys), then X.
    s.send("\x1b[119;5u");
    wait_line(&mut s, "> abc ");
    s.send("\x1b[27;5;97~X");
    wait_line(&mut s, "> Xabc ");
    // Ctrl+Backspace as tmux's extended keys send it: a Backspace.
    s.send("\x1b[127;5u");
    wait_line(&mut s, "> abc ");
    // Alt+B (kitty: Alt+b) and End: the cursor moves, the text stays; then `d`.
    s.send("\x1b[98;3u\x1b[Fd");
    wait_line(&mut s, "> abc d");
    // Esc (kitty) closes the editor, the draft kept.
    s.send("\x1b[27u");
    s.wait_all(&["> (•) 2. Type your own… “abc d”", HINT]);
    // Ctrl+C (kitty) in an editor dismisses.
    s.send("2");
    wait_line(&mut s, "> abc d");
    s.send("\x1b[99;5u");
    let details = finished_details(&mut s, 130);
    assert_eq!(details["cancelled"], json!(true));
}

/// Keys that come with an editor's Enter in one burst (a fast typist, a laggy link) go to the
/// next screen, in order, as at the menus.
#[test]
fn keys_after_an_editors_enter_in_one_burst_go_to_the_next_screen() {
    let mut s = Session::spawn(PREFS, &[]);
    s.wait_all(&[STYLE, HINT]);
    // Type your own on Style, "hi", Enter; on Frontend: tick 1 and 2, Tab to the review.
    s.send("4hi\r12\t");
    wait_review_lines(&mut s);
    s.send("\r");
    assert_eq!(
        finished_details(&mut s, 0)["answers"],
        json!({
            "style": {"values": ["hi"], "labels": ["hi"], "indices": [], "customText": "hi"},
            "frameworks": {"values": ["react", "vue"], "labels": ["React", "Vue"], "indices": [1, 2]}
        })
    );
}

/// A paste taller than the rows the block has scrolls inside the editor's rows: the block's
/// top stays in the window, and the text is saved whole.
#[test]
fn a_tall_paste_stays_in_the_editors_rows() {
    let mut s = Session::spawn_with(
        &one_question("Other?", "single", &[("a", "A")]),
        &[],
        Options {
            rows: 12,
            cols: 60,
            ..Options::default()
        },
    );
    s.wait_all(&["Other?:", HINT]);
    s.send("2");
    s.wait_all(&[ANSWER_EDITOR, ANSWER_READY]);
    let text: Vec<String> = (1..=40).map(|i| format!("line {i}")).collect();
    s.send(&format!("\x1b[200~{}\x1b[201~", text.join("\n")));
    let screen = s.wait_for("\n  line 40");
    // The editor's hint line and the question are still on screen, the text's last rows
    // under the marker of the rows out of view.
    assert_eq!(
        screen.lines().collect::<Vec<_>>(),
        [
            ANSWER_EDITOR,
            "Other?:",
            "  ( ) 1. A",
            "> ( ) 2. Type your own",
            "\u{2191} 36 more lines",
            "  line 37",
            "  line 38",
            "  line 39",
            "  line 40"
        ]
    );
    s.send("\r");
    s.wait_all(&[REVIEW, HINT]);
    s.send("\r");
    assert_eq!(
        finished_details(&mut s, 0)["answers"]["q1"]["customText"],
        json!(text.join("\n"))
    );
}

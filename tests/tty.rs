//! The terminal front end driven in a pty (tests/common/pty.rs): each test asserts the exact
//! result JSON and exit code. Screens and keys: docs/interactive.md.

use crate::common::pty::Session;
use serde_json::{json, Value};

const PREFS: &str = include_str!("../examples/implementation-preferences.json");
const CONFIG: &str = include_str!("../examples/config-preview.json");

const DOWN: &str = "\x1b[B";
const UP: &str = "\x1b[A";
const ESC: &str = "\x1b";
const CTRL_C: &str = "\x03";
const TAB: &str = "\t";
const LEFT: &str = "\x1b[D";
const SHIFT_TAB: &str = "\x1b[Z";
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
/// An empty custom-text editor is reading keys: rustyline draws its placeholder.
const ANSWER_READY: &str = "\n> Type answer...";
/// An empty note editor is reading keys.
const NOTE_READY: &str = "\n> Add a note...";
/// rustyline: delete from the cursor to the start of the line.
const CTRL_U: &str = "\x15";

/// `details.questions` of examples/implementation-preferences.json.
fn prefs_questions() -> Value {
    json!([
        {"id": "style", "label": "Style", "prompt": "How should I frame the next prompt?", "type": "single"},
        {"id": "frameworks", "label": "Frontend", "prompt": "Which frontend frameworks have you used?", "type": "multi"}
    ])
}

/// `details` of a submitted implementation-preferences flow with these answers.
fn prefs_submitted(answers: Value) -> Value {
    json!({
        "title": "Implementation preferences",
        "cancelled": false,
        "questions": prefs_questions(),
        "answers": answers
    })
}

/// Asserts a dismissed result (Esc, Cancel: exit 1; Ctrl+C, SIGINT: exit 130), no answers, no
/// error.
fn assert_dismissed(s: &mut Session, exit: i32) {
    let (code, result) = s.finish();
    assert_eq!(code, exit);
    let result = result.expect("a result");
    assert_eq!(
        result["details"],
        json!({
            "title": "Implementation preferences",
            "cancelled": true,
            "questions": prefs_questions(),
            "answers": {}
        })
    );
    assert!(result["content"][0]["text"]
        .as_str()
        .unwrap()
        .starts_with("User cancelled the ask flow"));
    assert_restored(s);
}

/// The terminal is back: cursor visible, original screen.
fn assert_restored(s: &Session) {
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

/// Waits for the review with Submit highlighted; returns its lines (see [`review_lines`]).
fn wait_review(s: &mut Session) -> Vec<String> {
    let screen = s.wait_all(&[REVIEW, "> 1. Submit", HINT]);
    review_lines(&screen)
        .into_iter()
        .map(String::from)
        .collect()
}

/// Submits from the review (Submit is highlighted when it opens) and returns `details`.
fn submit(s: &mut Session) -> Value {
    s.wait_for("> 1. Submit");
    s.send("\r");
    let (code, result) = s.finish();
    assert_eq!(code, 0, "stderr: {}", s.stderr());
    assert_restored(s);
    result.expect("a result")["details"].clone()
}

/// Sends `keys` `times` times, waiting for `until` after the last one.
fn press(s: &mut Session, keys: &str, times: usize, until: &str) {
    for _ in 0..times {
        s.send(keys);
    }
    s.wait_for(until);
}

#[test]
fn single_select_then_skip_and_submit() {
    let mut s = Session::spawn(PREFS, &[]);
    let screen = s.wait_all(&[STYLE, HINT]);
    // Compact: the prompt, the options with their descriptions, Type your own, the hint line;
    // no rows for notes (n, N) nor a Next row on a single-select question.
    assert_eq!(
        screen.lines().collect::<Vec<_>>(),
        [
            "Implementation preferences",
            STYLE,
            "> ( ) 1. Minimal",
            "         A short, direct question with few options.",
            "  ( ) 2. Balanced",
            "         A standard prompt with a bit more context.",
            "  ( ) 3. Rich",
            "         A more descriptive prompt with extra detail.",
            "  ( ) 4. Type your own…",
            "↑↓ move · Enter choose · n note · Esc cancel · ^C dismiss · ^] context · ? keys",
        ],
        "{screen}"
    );
    press(&mut s, DOWN, 1, "> ( ) 2. Balanced");
    s.send("\r");
    let screen = s.wait_all(&[FRONTEND, HINT]);
    assert!(screen.contains("\n     Next: review →\n"), "{screen}");
    // Enter on an option of a multi-select question goes on, skipping it.
    s.send("\r");
    assert_eq!(
        wait_review(&mut s),
        [
            REVIEW,
            "  Style",
            "     → Balanced",
            "",
            "  Frontend",
            "     → unanswered",
            "",
            "> 1. Submit",
            "  2. Elaborate",
            "     ask the agent to elaborate on your notes, keeping the answers",
            "  3. Cancel",
        ]
    );
    let details = submit(&mut s);
    assert_eq!(
        details,
        prefs_submitted(json!({
            "style": {"values": ["balanced"], "labels": ["Balanced"], "indices": [2]}
        }))
    );
}

#[test]
fn multi_select_two_options_and_custom_text() {
    let mut s = Session::spawn(PREFS, &[]);
    s.wait_all(&[STYLE, HINT]);
    s.send("\r");
    s.wait_all(&["> [ ] 1. React", HINT]);
    s.send(" ");
    s.wait_all(&["> [x] 1. React", HINT]);
    press(&mut s, DOWN, 1, "> [ ] 2. Vue");
    s.send(" ");
    s.wait_for("> [x] 2. Vue");
    press(&mut s, DOWN, 2, "> [ ] 4. Type your own…");
    s.send("\r");
    let screen = s.wait_all(&[ANSWER_EDITOR, ANSWER_READY]);
    // The editor's block: its hint line, the question with the edited row highlighted (Type
    // your own without its "…"), the editor's row.
    assert_eq!(
        screen.lines().collect::<Vec<_>>(),
        [
            "Implementation preferences",
            ANSWER_EDITOR,
            FRONTEND,
            "  [x] 1. React",
            "     Most popular UI library",
            "  [x] 2. Vue",
            "     Progressive framework for building UIs",
            "  [ ] 3. Svelte",
            "     Compiler-based approach",
            "> [ ] 4. Type your own",
            "     Next: review →",
            "> Type answer...",
        ],
        "{screen}"
    );
    s.send("Solid");
    s.wait_for("\n> Solid");
    s.send("\r");
    // Saved on a multi-select question: it stays, the custom row ticked with its text; Tab
    // goes on.
    let screen = s.wait_all(&["> [x] 4. Type your own… “Solid”", HINT]);
    assert!(screen.contains("\n  [x] 1. React\n"), "{screen}");
    assert!(screen.contains("\n  [x] 2. Vue\n"), "{screen}");
    assert!(!screen.contains(ANSWER_EDITOR), "{screen}");
    // Space on the custom row unticks it and ticks it again, keeping the text.
    s.send(" ");
    s.wait_all(&["> [ ] 4. Type your own… “Solid”", HINT]);
    s.send(" ");
    s.wait_all(&["> [x] 4. Type your own… “Solid”", HINT]);
    s.send(TAB);
    assert_eq!(
        wait_review(&mut s),
        [
            REVIEW,
            "  Style",
            "     → Minimal",
            "",
            "  Frontend",
            "     → React",
            "     → Vue",
            "     → “Solid”",
            "",
            "> 1. Submit",
            "  2. Elaborate",
            "     ask the agent to elaborate on your notes, keeping the answers",
            "  3. Cancel",
        ]
    );
    let details = submit(&mut s);
    assert_eq!(
        details,
        prefs_submitted(json!({
            "style": {"values": ["minimal"], "labels": ["Minimal"], "indices": [1]},
            "frameworks": {
                "values": ["react", "vue", "Solid"],
                "labels": ["React", "Vue", "Solid"],
                "indices": [1, 2],
                "customText": "Solid"
            }
        }))
    );
}

#[test]
fn preview_question_shows_the_highlighted_preview() {
    let mut s = Session::spawn(CONFIG, &[]);
    let screen = s.wait_all(&[
        "1/2 Log format · Which log format should the service write?:",
        HINT,
    ]);
    // The preview wraps to the columns right of its margin: nothing is cut.
    assert_eq!(
        screen
            .lines()
            .filter(|l| l.starts_with("         │ "))
            .collect::<Vec<_>>(),
        [
            r#"         │ {"ts":"2026-11-29T10:15:00Z","level":"info","msg":"server started","port":8080}"#,
            r#"         │ {"ts":"2026-11-29T10:15:02Z","level":"warn","msg":"slow request","path":"/api/items","ms"#,
            r#"         │ ":912}"#,
        ],
        "{screen}"
    );
    // Type your own: the row after the options.
    assert!(
        screen.contains("\n  ( ) 3. Pretty text\n         Coloured, aligned text for local development.\n  ( ) 4. Type your own…\n"),
        "{screen}"
    );
    s.send(DOWN);
    let screen = s.wait_for("│ ts=2026-11-29T10:15:00Z level=info");
    assert!(
        !screen.contains("│ {\"ts\""),
        "only the highlighted preview: {screen}"
    );
    // v shows the highlighted option's whole preview.
    s.send("v");
    let screen = s.wait_all(&[
        "Preview of logfmt · lines 1-2 of 2\n",
        "↑↓ scroll · Esc back",
    ]);
    assert!(
        screen.contains(
            "\n│ ts=2026-11-29T10:15:02Z level=warn msg=\"slow request\" path=/api/items ms=912\n"
        ),
        "{screen}"
    );
    s.send("q");
    s.wait_all(&["> ( ) 2. logfmt", HINT]);
    s.send("\r");
    s.wait_all(&["2/2 Level · What should the default log level be?:", HINT]);
    s.send("\r");
    assert_eq!(
        wait_review(&mut s),
        [
            REVIEW,
            "  Log format",
            "     → logfmt",
            "",
            "  Level",
            "     → info",
            "",
            "> 1. Submit",
            "  2. Elaborate",
            "     ask the agent to elaborate on your notes, keeping the answers",
            "  3. Cancel",
        ]
    );
    let details = submit(&mut s);
    assert_eq!(
        details["answers"],
        json!({
            "log_format": {"values": ["logfmt"], "labels": ["logfmt"], "indices": [2]},
            "log_level": {"values": ["info"], "labels": ["info"], "indices": [1]}
        })
    );
}

#[test]
fn every_line_of_a_long_preview_is_reachable() {
    let lines: Vec<String> = (1..=60)
        .map(|i| format!("line {i} of the long preview"))
        .collect();
    let payload = json!({
        "questions": [{
            "id": "layout", "prompt": "Pick a layout", "type": "preview",
            "options": [
                {"value": "a", "label": "Alpha", "preview": lines.join("\n")},
                {"value": "b", "label": "Beta", "preview": "short"}
            ]
        }]
    });
    let mut s = Session::spawn_with(
        &payload.to_string(),
        &[],
        crate::common::pty::Options {
            rows: 24,
            cols: 80,
            ..Default::default()
        },
    );
    let screen = s.wait_all(&["Pick a layout:", HINT]);
    // Half of what the menu (Alpha, Beta, Type your own) leaves of 24 rows: 7 lines and the
    // line that says how many more.
    assert!(screen.contains("│ line 1 of the long preview"), "{screen}");
    assert!(screen.contains("│ line 7 of the long preview"), "{screen}");
    assert!(!screen.contains("line 8 of"), "{screen}");
    assert!(
        screen.contains("│ … 53 more lines: v shows the whole preview"),
        "{screen}"
    );
    assert!(!screen.contains("line 60 of"), "{screen}");
    s.send("v");
    let screen = s.wait_all(&[
        "Preview of Alpha · lines 1-21 of 60 · more ↓\n",
        "↑↓ scroll · Esc back",
    ]);
    assert!(screen.contains("│ line 21 of the long preview"), "{screen}");
    s.send("\x1b[F"); // End
    let screen = s.wait_all(&[
        "Preview of Alpha · lines 40-60 of 60 · more ↑\n",
        "↑↓ scroll · Esc back",
    ]);
    assert!(screen.contains("│ line 60 of the long preview"), "{screen}");
    s.send("q");
    s.wait_all(&["> ( ) 1. Alpha", HINT]);
    s.send("\r");
    let details = submit(&mut s);
    assert_eq!(
        details["answers"],
        json!({"layout": {"values": ["a"], "labels": ["Alpha"], "indices": [1]}})
    );
}

#[test]
fn back_keeps_answers_and_preselects_them() {
    let mut s = Session::spawn(PREFS, &[]);
    s.wait_all(&[STYLE, HINT]);
    press(&mut s, DOWN, 1, "> ( ) 2. Balanced");
    s.send("\r");
    s.wait_all(&["> [ ] 1. React", HINT]);
    s.send(" ");
    s.wait_all(&["> [x] 1. React", HINT]);
    // Shift+Tab goes back to the previous question.
    s.send(SHIFT_TAB);
    let screen = s.wait_all(&[STYLE, HINT]);
    assert!(screen.contains("> (•) 2. Balanced"), "{screen}");
    press(&mut s, DOWN, 1, "> ( ) 3. Rich");
    s.send("\r");
    let screen = s.wait_all(&[FRONTEND, HINT]);
    assert!(
        screen.contains("> [x] 1. React"),
        "the tick was kept: {screen}"
    );
    s.send("\r");
    let details = submit(&mut s);
    assert_eq!(
        details,
        prefs_submitted(json!({
            "style": {"values": ["rich"], "labels": ["Rich"], "indices": [3]},
            "frameworks": {"values": ["react"], "labels": ["React"], "indices": [1]}
        }))
    );
}

#[test]
fn review_reopens_a_question_and_changes_its_answer() {
    let mut s = Session::spawn(PREFS, &[]);
    s.wait_all(&[STYLE, HINT]);
    s.send("\r");
    s.wait_all(&["> [ ] 1. React", HINT]);
    s.send(" ");
    s.wait_all(&["> [x] 1. React", HINT]);
    s.send("\r");
    let review = |style: &'static str| {
        vec![
            REVIEW,
            "  Style",
            style,
            "",
            "  Frontend",
            "     → React",
            "",
            "> 1. Submit",
            "  2. Elaborate",
            "     ask the agent to elaborate on your notes, keeping the answers",
            "  3. Cancel",
        ]
    };
    assert_eq!(wait_review(&mut s), review("     → Minimal"));
    // Up from Submit: the last question's row, then the first's.
    press(&mut s, UP, 2, "> Style");
    s.send("\r");
    s.wait_all(&["> (•) 1. Minimal", HINT]);
    press(&mut s, DOWN, 2, "> ( ) 3. Rich");
    s.send("\r");
    // Answering a re-opened question goes back to the review.
    assert_eq!(wait_review(&mut s), review("     → Rich"));
    let details = submit(&mut s);
    assert_eq!(
        details,
        prefs_submitted(json!({
            "style": {"values": ["rich"], "labels": ["Rich"], "indices": [3]},
            "frameworks": {"values": ["react"], "labels": ["React"], "indices": [1]}
        }))
    );
}

#[test]
fn esc_in_the_editor_returns_to_the_options_keeping_the_draft() {
    let mut s = Session::spawn(PREFS, &[]);
    s.wait_all(&[STYLE, HINT]);
    press(&mut s, DOWN, 3, "> ( ) 4. Type your own…");
    s.send("\r");
    s.wait_all(&[ANSWER_EDITOR, ANSWER_READY]);
    s.send("my draft");
    s.wait_for("\n> my draft");
    s.send(ESC);
    let screen = s.wait_all(&["> (•) 4. Type your own… “my draft”", HINT]);
    assert!(screen.contains(STYLE), "{screen}");
    assert!(!screen.contains(ANSWER_EDITOR), "{screen}");
    // Re-opening the editor shows the draft.
    s.send("\r");
    s.wait_all(&[ANSWER_EDITOR, "\n> my draft"]);
    s.send(ESC);
    s.wait_all(&["> (•) 4. Type your own… “my draft”", HINT]);
    s.send(TAB);
    s.wait_all(&[FRONTEND, HINT]);
    s.send("\r");
    assert_eq!(
        wait_review(&mut s),
        [
            REVIEW,
            "  Style",
            "     → “my draft”",
            "",
            "  Frontend",
            "     → unanswered",
            "",
            "> 1. Submit",
            "  2. Elaborate",
            "     ask the agent to elaborate on your notes, keeping the answers",
            "  3. Cancel",
        ]
    );
    let details = submit(&mut s);
    assert_eq!(
        details,
        prefs_submitted(json!({
            "style": {"values": ["my draft"], "labels": ["my draft"], "indices": [], "customText": "my draft"}
        }))
    );
}

#[test]
fn esc_without_answers_cancels_at_once() {
    let mut s = Session::spawn(PREFS, &[]);
    s.wait_all(&[STYLE, HINT]);
    s.send(ESC);
    assert_dismissed(&mut s, 1);
}

#[test]
fn esc_with_answers_asks_before_cancelling() {
    let mut s = Session::spawn(PREFS, &[]);
    s.wait_all(&[STYLE, HINT]);
    s.send("\r");
    s.wait_all(&[FRONTEND, HINT]);
    s.send(ESC);
    let screen = s.wait_all(&[
        "Cancel and discard your answers?",
        "Yes, discard the answers and cancel",
    ]);
    assert_eq!(
        screen.lines().collect::<Vec<_>>(),
        [
            "Implementation preferences",
            "Cancel and discard your answers?:",
            "> No, keep answering",
            "  Yes, discard the answers and cancel",
            "↑↓ move · Enter choose · Esc back · ^C dismiss · ^] context",
        ],
        "{screen}"
    );
    s.send("\r");
    s.wait_all(&["> [ ] 1. React", HINT]);
    s.send(ESC);
    s.wait_all(&[
        "Cancel and discard your answers?",
        "Yes, discard the answers and cancel",
    ]);
    press(&mut s, DOWN, 1, "> Yes, discard the answers and cancel");
    s.send("\r");
    assert_dismissed(&mut s, 1);
}

#[test]
fn ctrl_c_in_an_editor_dismisses_without_saving() {
    let mut s = Session::spawn(PREFS, &[]);
    s.wait_all(&[STYLE, HINT]);
    s.send("\r");
    s.wait_all(&[FRONTEND, HINT]);
    press(&mut s, DOWN, 3, "> [ ] 4. Type your own…");
    s.send("\r");
    s.wait_all(&[ANSWER_EDITOR, ANSWER_READY]);
    s.send("never saved");
    s.wait_for("> never saved");
    s.send(CTRL_C);
    assert_dismissed(&mut s, 130);
}

#[test]
fn ctrl_c_at_a_question_dismisses() {
    let mut s = Session::spawn(PREFS, &[]);
    s.wait_all(&[STYLE, HINT]);
    s.send("\r");
    s.wait_all(&["> [ ] 1. React", HINT]);
    s.send(CTRL_C);
    assert_dismissed(&mut s, 130);
}

#[test]
fn question_and_option_notes_written_edited_cleared() {
    let mut s = Session::spawn(PREFS, &[]);
    s.wait_all(&[STYLE, HINT]);
    // Question note (Shift+N): write.
    s.send("N");
    let screen = s.wait_all(&["Note on this question · Enter save · Esc close", NOTE_READY]);
    assert!(screen.contains(STYLE), "{screen}");
    s.send("first note");
    s.wait_for("\n> first note");
    s.send("\r");
    s.wait_all(&[&format!("{STYLE}\n  Note: first note\n"), HINT]);
    // Edit it.
    s.send("N");
    s.wait_all(&["Note on this question · Enter save", "\n> first note"]);
    s.send(CTRL_U);
    s.wait_for(NOTE_READY);
    s.send("edited note");
    s.wait_for("\n> edited note");
    s.send("\r");
    s.wait_all(&[&format!("{STYLE}\n  Note: edited note\n"), HINT]);
    // Option note (n) on the highlighted Balanced: write.
    press(&mut s, DOWN, 1, "> ( ) 2. Balanced");
    s.send("n");
    s.wait_all(&["Note on Balanced · Enter save · Esc close", NOTE_READY]);
    s.send("why balanced");
    s.wait_for("\n> why balanced");
    s.send("\r");
    s.wait_all(&[
        "> ( ) 2. Balanced\n         A standard prompt with a bit more context.\n         note: why balanced\n",
        HINT,
    ]);
    s.send("\r");
    s.wait_all(&[FRONTEND, HINT]);
    s.send("\r");
    let review = |note: Option<&'static str>, option_note: &'static str| {
        let mut lines = vec![REVIEW, "  Style"];
        lines.extend(note);
        lines.extend([
            "     → Balanced",
            option_note,
            "",
            "  Frontend",
            "     → unanswered",
            "",
            "> 1. Submit",
            "  2. Elaborate",
            "     ask the agent to elaborate on your notes, keeping the answers",
            "  3. Cancel",
        ]);
        lines
    };
    // The question note before the answer, the option note under its option.
    assert_eq!(
        wait_review(&mut s),
        review(
            Some("       Note: edited note"),
            "       Note: why balanced"
        )
    );
    // Option note: edit it from the review (Enter re-opens the question, n on the option).
    press(&mut s, UP, 2, "> Style");
    s.send("\r");
    s.wait_all(&["> (•) 2. Balanced", HINT]);
    s.send("n");
    s.wait_all(&["Note on Balanced · Enter save", "\n> why balanced"]);
    s.send(" and cheap");
    s.wait_for("\n> why balanced and cheap");
    s.send("\r");
    s.wait_all(&["         note: why balanced and cheap\n", HINT]);
    s.send("\r");
    assert_eq!(
        wait_review(&mut s),
        review(
            Some("       Note: edited note"),
            "       Note: why balanced and cheap"
        )
    );
    // Question note: clear it from the review (N on its row, an empty save).
    press(&mut s, UP, 2, "> Style");
    s.send("N");
    s.wait_all(&[
        "Note on this question · Style · Enter save · Esc close",
        "\n> edited note",
    ]);
    s.send(CTRL_U);
    s.wait_for(NOTE_READY);
    s.send("\r");
    // The highlight stays on Style's row.
    let screen = s.wait_all(&[REVIEW, "> Style", HINT]);
    let mut expected = review(None, "       Note: why balanced and cheap");
    expected[1] = "> Style";
    let submit_row = expected.iter().position(|l| *l == "> 1. Submit").unwrap();
    expected[submit_row] = "  1. Submit";
    assert_eq!(review_lines(&screen), expected);
    press(&mut s, DOWN, 2, "> 1. Submit");
    let details = submit(&mut s);
    assert_eq!(
        details,
        prefs_submitted(json!({
            "style": {
                "values": ["balanced"], "labels": ["Balanced"], "indices": [2],
                "optionNotes": {"balanced": "why balanced and cheap"}
            }
        }))
    );
}

#[test]
fn option_note_dropped_on_deselect_and_restored_on_reselect() {
    let mut s = Session::spawn(PREFS, &[]);
    s.wait_all(&[STYLE, HINT]);
    s.send("\r");
    s.wait_all(&["> [ ] 1. React", HINT]);
    s.send(" ");
    s.wait_all(&["> [x] 1. React", HINT]);
    s.send("n");
    s.wait_all(&["Note on React · Enter save · Esc close", NOTE_READY]);
    s.send("used it at work");
    s.wait_for("\n> used it at work");
    s.send("\r");
    // The question is shown again on the row it was left.
    s.wait_all(&[
        "> [x] 1. React\n     Most popular UI library\n     note: used it at work\n",
        HINT,
    ]);
    s.send("\r");
    let frontend = |answer: &[&'static str]| {
        let mut lines = vec![REVIEW, "  Style", "     → Minimal", "", "  Frontend"];
        lines.extend(answer);
        lines.extend([
            "",
            "> 1. Submit",
            "  2. Elaborate",
            "     ask the agent to elaborate on your notes, keeping the answers",
            "  3. Cancel",
        ]);
        lines
    };
    let noted = ["     → React", "       Note: used it at work"];
    assert_eq!(wait_review(&mut s), frontend(&noted));
    // Deselect React: its note leaves the answer and shows as going only with Elaborate.
    press(&mut s, UP, 1, "> Frontend");
    s.send("\r");
    s.wait_all(&["> [x] 1. React", HINT]);
    s.send(" ");
    s.wait_all(&["> [ ] 1. React", HINT]);
    s.send("\r");
    assert_eq!(
        wait_review(&mut s),
        frontend(&[
            "     → unanswered",
            "       Note on React (only with Elaborate): used it at work"
        ])
    );
    // Select it again: the note is back.
    press(&mut s, UP, 1, "> Frontend");
    s.send("\r");
    s.wait_all(&["> [ ] 1. React", HINT]);
    s.send(" ");
    s.wait_all(&["> [x] 1. React", HINT]);
    s.send("\r");
    assert_eq!(wait_review(&mut s), frontend(&noted));
    let details = submit(&mut s);
    assert_eq!(
        details,
        prefs_submitted(json!({
            "style": {"values": ["minimal"], "labels": ["Minimal"], "indices": [1]},
            "frameworks": {
                "values": ["react"], "labels": ["React"], "indices": [1],
                "optionNotes": {"react": "used it at work"}
            }
        }))
    );
}

#[test]
fn multi_line_paste_stays_in_one_answer() {
    let mut s = Session::spawn(PREFS, &[]);
    s.wait_all(&[STYLE, HINT]);
    press(&mut s, DOWN, 3, "> ( ) 4. Type your own…");
    s.send("\r");
    s.wait_all(&[ANSWER_EDITOR, ANSWER_READY]);
    s.send("\x1b[200~a\nb\nc\x1b[201~");
    s.wait_until("the pasted lines", |screen| {
        screen.contains("> a\nb\nc") || screen.contains("> a\n  b\n  c")
    });
    s.send("\r");
    let screen = s.wait_all(&[FRONTEND, HINT]);
    assert!(screen.contains("> [ ] 1. React"), "{screen}");
    assert!(!screen.contains("[x]"), "{screen}");
    s.send("\r");
    assert_eq!(wait_review(&mut s)[2], "     → “a↵ b↵ c”");
    let details = submit(&mut s);
    assert_eq!(
        details,
        prefs_submitted(json!({
            "style": {"values": ["a\nb\nc"], "labels": ["a\nb\nc"], "indices": [], "customText": "a\nb\nc"}
        }))
    );
}

#[test]
fn required_question_unanswered_asks_before_submitting() {
    let payload = json!({
        "questions": [{
            "id": "db", "label": "Database", "prompt": "Which database?", "required": true,
            "options": [{"value": "pg", "label": "PostgreSQL"}]
        }]
    });
    let mut s = Session::spawn(&payload.to_string(), &[]);
    s.wait_all(&["1/1 Database (required) · Which database?:", HINT]);
    // Tab moves on without an answer.
    s.send(TAB);
    assert_eq!(
        wait_review(&mut s),
        [
            REVIEW,
            "  Database (required)",
            "     → unanswered",
            "",
            "> 1. Submit",
            "  2. Elaborate",
            "     ask the agent to elaborate on your notes, keeping the answers",
            "  3. Cancel",
        ]
    );
    s.send("\r");
    let confirm = |no: bool| {
        vec![
            "Submit anyway?:",
            "Unanswered required questions: Database.",
            if no {
                "> No, go back to the review"
            } else {
                "  No, go back to the review"
            },
            if no { "  Yes, submit" } else { "> Yes, submit" },
            "↑↓ move · Enter choose · Esc back · ^C dismiss · ^] context",
        ]
    };
    let screen = s.wait_all(&["Submit anyway?", "> No, go back to the review"]);
    assert_eq!(
        screen.lines().collect::<Vec<_>>(),
        confirm(true),
        "{screen}"
    );
    s.send("\r");
    wait_review(&mut s);
    s.send("\r");
    s.wait_all(&["Submit anyway?", "> No, go back to the review"]);
    let screen = {
        s.send(DOWN);
        s.wait_for("> Yes, submit")
    };
    assert_eq!(
        screen.lines().collect::<Vec<_>>(),
        confirm(false),
        "{screen}"
    );
    s.send("\r");
    let (code, result) = s.finish();
    assert_eq!(code, 0);
    assert_restored(&s);
    assert_eq!(
        result.expect("a result")["details"],
        json!({
            "cancelled": false,
            "questions": [{"id": "db", "label": "Database", "prompt": "Which database?", "type": "single"}],
            "answers": {}
        })
    );
}

fn assert_aborted_by_sigterm(s: &mut Session) {
    let (code, result) = s.finish();
    assert_eq!(code, 143);
    let result = result.expect("a result");
    assert_eq!(
        result["details"],
        json!({
            "title": "Implementation preferences",
            "cancelled": true,
            "questions": prefs_questions(),
            "answers": {},
            "error": {"code": "aborted", "message": "received SIGTERM"}
        })
    );
    assert_restored(s);
}

#[test]
fn sigterm_at_a_prompt_aborts() {
    let mut s = Session::spawn(PREFS, &[]);
    s.wait_all(&[STYLE, HINT]);
    s.send(UP);
    s.wait_for("> ( ) 4. Type your own…");
    s.signal(libc::SIGTERM);
    assert_aborted_by_sigterm(&mut s);
}

#[test]
fn sigterm_in_an_editor_aborts() {
    let mut s = Session::spawn(PREFS, &[]);
    s.wait_all(&[STYLE, HINT]);
    press(&mut s, DOWN, 3, "> ( ) 4. Type your own…");
    s.send("\r");
    s.wait_all(&[ANSWER_EDITOR, ANSWER_READY]);
    s.send("half typed");
    s.wait_for("> half typed");
    s.signal(libc::SIGTERM);
    assert_aborted_by_sigterm(&mut s);
}

#[test]
fn wide_text_is_cut_to_the_width_and_leaves_no_ghost_lines() {
    let payload = json!({
        "title": "\u{1b}]52;c;Zm9v\u{7} clipboard",
        "questions": [{
            "id": "w", "label": "日本語ラベル", "prompt": "選んでください \u{1b}[2J",
            "options": [
                {"value": "a", "label": "とても長いオプションのラベルです。これは端末の幅を超えるほど長いテキストです。",
                 "description": "説明文もとても長いです。説明文もとても長いです。説明文もとても長いです。"},
                {"value": "b", "label": "🎉 Party", "description": "emoji"}
            ]
        }]
    });
    let mut s = Session::spawn_with(
        &payload.to_string(),
        &[],
        crate::common::pty::Options {
            rows: 24,
            cols: 40,
            ..Default::default()
        },
    );
    let first = s.wait_all(&["選んでください \\e[2J:", HINT]);
    // Escape sequences from the payload are shown, not run.
    assert!(first.contains("\\e]52;c;Zm9v\\x07 clipboard"), "{first}");
    assert!(first.contains("選んでください \\e[2J"), "{first}");
    // Each label is one line, cut with "…" keeping its end; the highlighted option's
    // description wraps (between characters: CJK has no spaces), each row within the width.
    let lines: Vec<&str> = first.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("> ( ) 1. とても長い"))
        .expect("option 1");
    assert_eq!(
        lines[at], "> ( ) 1. とても長いオプショ … トです。",
        "{first}"
    );
    assert_eq!(
        lines[at + 1..at + 4],
        [
            "         説明文もとても長いです。説明文",
            "         もとても長いです。説明文もとて",
            "         も長いです。",
        ],
        "{first}"
    );
    assert!(lines[at + 4].starts_with("  ( ) 2. 🎉 Party"), "{first}");
    s.send(DOWN);
    s.wait_for("> ( ) 2. 🎉 Party");
    s.send(UP);
    let back = s.wait_for("> ( ) 1. とても長い");
    assert_eq!(back, first, "moving left stale lines behind");
    s.send("\r");
    assert_eq!(
        wait_review(&mut s),
        [
            REVIEW,
            "  日本語ラベル",
            // The long label's first row, then how to see the rest (the review never cuts an
            // answer without saying so).
            "     → とても長いオプション … トです。",
            "     cut in the middle · v shows all",
            "",
            "> 1. Submit",
            "  2. Elaborate",
            "     ask the agent to elaborate on you…",
            "  3. Cancel",
        ]
    );
    s.send("\r");
    let (code, result) = s.finish();
    assert_eq!(code, 0);
    assert_eq!(
        result.expect("a result")["details"]["answers"],
        json!({"w": {"values": ["a"], "labels": ["とても長いオプションのラベルです。これは端末の幅を超えるほど長いテキストです。"], "indices": [1]}})
    );
}

#[test]
fn stdout_carries_only_the_result_json() {
    let mut s = Session::spawn_with(
        PREFS,
        &[],
        crate::common::pty::Options {
            stdout_to_file: true,
            ..Default::default()
        },
    );
    s.wait_all(&[STYLE, HINT]);
    press(&mut s, DOWN, 3, "> ( ) 4. Type your own…");
    s.send("\r");
    s.wait_all(&[ANSWER_EDITOR, ANSWER_READY]);
    s.send("typed");
    s.wait_for("\n> typed");
    s.send("\r");
    s.wait_all(&[FRONTEND, HINT]);
    s.send("\r");
    let details = submit(&mut s);
    assert_eq!(
        details,
        prefs_submitted(json!({
            "style": {"values": ["typed"], "labels": ["typed"], "indices": [], "customText": "typed"}
        }))
    );
    let stdout = std::fs::read_to_string(s.dir().join("stdout.txt")).unwrap();
    assert!(stdout.starts_with("{\n"), "{stdout:?}");
    assert!(stdout.ends_with("}\n"), "{stdout:?}");
    assert!(!stdout.contains('\u{1b}'), "{stdout:?}");
}

#[test]
fn sighup_and_sigquit_abort_with_their_names() {
    for (signal, name, exit) in [
        (libc::SIGHUP, "SIGHUP", 129),
        (libc::SIGQUIT, "SIGQUIT", 131),
    ] {
        let mut s = Session::spawn(PREFS, &[]);
        s.wait_all(&[STYLE, HINT]);
        s.send("\r");
        s.wait_all(&[FRONTEND, HINT]);
        s.signal(signal);
        let (code, result) = s.finish();
        assert_eq!(code, exit, "{name}");
        assert_eq!(
            result.expect("a result")["details"]["error"],
            json!({"code": "aborted", "message": format!("received {name}")})
        );
        assert_restored(&s);
    }
}

#[test]
fn not_cancelling_returns_to_the_same_row() {
    let mut s = Session::spawn(PREFS, &[]);
    s.wait_all(&[STYLE, HINT]);
    s.send("\r");
    s.wait_all(&[FRONTEND, HINT]);
    s.send(LEFT);
    s.wait_all(&["> (•) 1. Minimal", HINT]);
    press(&mut s, DOWN, 2, "> ( ) 3. Rich");
    s.send(ESC);
    s.wait_all(&[
        "Cancel and discard your answers?",
        "Yes, discard the answers and cancel",
    ]);
    s.send("\r");
    let screen = s.wait_all(&["> ( ) 3. Rich", HINT]);
    assert!(screen.contains("  (•) 1. Minimal"), "{screen}");
    s.send(CTRL_C);
    assert_dismissed(&mut s, 130);
}

#[test]
fn ctrl_c_in_the_preview_pager_dismisses() {
    let mut s = Session::spawn(CONFIG, &[]);
    s.wait_all(&["1/2 Log format", HINT]);
    s.send("v");
    s.wait_all(&["Preview of JSON lines · lines 1-", "↑↓ scroll · Esc back"]);
    s.send(CTRL_C);
    let (code, result) = s.finish();
    assert_eq!(code, 130);
    let details = &result.expect("a result")["details"];
    assert_eq!(details["cancelled"], json!(true));
    assert_eq!(details["answers"], json!({}));
    assert_eq!(details.get("error"), None);
    assert_restored(&s);
}

#[test]
fn option_note_saved_with_esc_and_cleared_by_an_empty_save() {
    let mut s = Session::spawn(PREFS, &[]);
    s.wait_all(&[STYLE, "> ( ) 1. Minimal", HINT]);
    s.send("n");
    s.wait_all(&["Note on Minimal · Enter save · Esc close", NOTE_READY]);
    s.send("temporary");
    s.wait_for("\n> temporary");
    // Esc saves the draft.
    s.send(ESC);
    s.wait_all(&[
        "> ( ) 1. Minimal\n         A short, direct question with few options.\n         note: temporary\n",
        HINT,
    ]);
    s.send("n");
    s.wait_all(&["Note on Minimal · Enter save", "\n> temporary"]);
    s.send(CTRL_U);
    s.wait_for(NOTE_READY);
    s.send("\r");
    let screen = s.wait_all(&["> ( ) 1. Minimal", HINT]);
    assert!(!screen.contains("note: temporary"), "{screen}");
    s.send("\r");
    s.wait_all(&[FRONTEND, HINT]);
    s.send("\r");
    assert_eq!(
        wait_review(&mut s),
        [
            REVIEW,
            "  Style",
            "     → Minimal",
            "",
            "  Frontend",
            "     → unanswered",
            "",
            "> 1. Submit",
            "  2. Elaborate",
            "     ask the agent to elaborate on your notes, keeping the answers",
            "  3. Cancel",
        ]
    );
    let details = submit(&mut s);
    assert_eq!(
        details,
        prefs_submitted(json!({
            "style": {"values": ["minimal"], "labels": ["Minimal"], "indices": [1]}
        }))
    );
}

#[test]
fn sigint_from_outside_dismisses() {
    let mut s = Session::spawn(PREFS, &[]);
    s.wait_all(&[STYLE, HINT]);
    s.send("\r");
    s.wait_all(&[FRONTEND, HINT]);
    s.signal(libc::SIGINT);
    assert_dismissed(&mut s, 130);
}

/// Regression: rustyline leaves a SIGWINCH handler behind, and console turned the
/// interrupted key read into a dismissal, so resizing after any editor lost every answer.
#[test]
fn resizing_after_an_editor_keeps_the_flow_and_its_answers() {
    let mut s = Session::spawn(PREFS, &[]);
    s.wait_all(&[STYLE, HINT]);
    press(&mut s, DOWN, 3, "> ( ) 4. Type your own…");
    s.send("\r");
    s.wait_all(&[ANSWER_EDITOR, ANSWER_READY]);
    s.send("kept");
    s.wait_for("\n> kept");
    s.send(ESC);
    s.wait_all(&["> (•) 4. Type your own… “kept”", HINT]);
    s.set_window_size(24, 90);
    std::thread::sleep(std::time::Duration::from_millis(200));
    s.set_window_size(30, 100);
    std::thread::sleep(std::time::Duration::from_millis(200));
    s.send(TAB);
    s.wait_all(&[FRONTEND, HINT]);
    s.send("\r");
    wait_review(&mut s);
    let details = submit(&mut s);
    assert_eq!(
        details,
        prefs_submitted(json!({
            "style": {"values": ["kept"], "labels": ["kept"], "indices": [], "customText": "kept"}
        }))
    );
}

/// Regression: dialoguer's paging panicked below 3 rows; the flow waits for room (keys do
/// nothing meanwhile), comes back as soon as the window is larger, and keeps its answers.
#[test]
fn a_two_row_window_waits_for_room_instead_of_failing() {
    let mut s = Session::spawn(PREFS, &[]);
    s.wait_all(&[STYLE, HINT]);
    s.set_window_size(2, 60);
    s.wait_for("Window too small");
    s.send(DOWN);
    // Time for the key to be read (and do nothing) before the window grows.
    std::thread::sleep(std::time::Duration::from_millis(500));
    s.set_window_size(30, 100);
    s.wait_all(&["> ( ) 1. Minimal", HINT]);
    s.send("\r");
    s.wait_all(&[FRONTEND, HINT]);
    s.send("\r");
    wait_review(&mut s);
    let details = submit(&mut s);
    assert_eq!(
        details,
        prefs_submitted(json!({
            "style": {"values": ["minimal"], "labels": ["Minimal"], "indices": [1]}
        }))
    );
}

#[test]
fn a_context_that_cannot_be_used_is_one_line_on_stderr_and_the_questions_go_on() {
    // A FIFO no one writes to (it blocked start-up), a folder, a file over the limit (the
    // payload's, --max-payload-bytes) and a missing file: each is refused at once, with what
    // is wrong and where, and the questionnaire is asked without it.
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("context.fifo");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
    let large = dir.path().join("large.md");
    std::fs::write(&large, "x".repeat(5001)).unwrap();
    let exact = dir.path().join("exact.md");
    std::fs::write(&exact, "y".repeat(5000)).unwrap();
    let cases = [
        (
            fifo,
            "it is not a regular file (a FIFO, a pipe, a socket or a device)",
        ),
        (dir.path().to_path_buf(), "it is a folder"),
        (large, "it is larger than 5000 bytes (--max-payload-bytes)"),
        (dir.path().join("missing.md"), "No such file or directory"),
    ];
    for (path, why) in cases {
        let path = path.to_str().unwrap();
        let mut s = Session::spawn(PREFS, &["--context", path, "--max-payload-bytes", "5000"]);
        s.wait_for("1. Minimal");
        // The peek says why (under pi, stderr is a pipe the person does not see).
        s.send("\x1d");
        s.wait_for("The agent's message cannot be shown: --context");
        s.send("x");
        s.wait_for("1. Minimal");
        s.send(CTRL_C);
        assert_dismissed(&mut s, 130);
        assert_eq!(
            s.stderr(),
            format!("pi-ask: cannot use --context {path}: {why}; going on without it\n")
        );
    }
    // A file of exactly the limit is shown.
    let mut s = Session::spawn(
        PREFS,
        &[
            "--context",
            exact.to_str().unwrap(),
            "--max-payload-bytes",
            "5000",
        ],
    );
    s.wait_for("1. Minimal");
    s.send("\x1d");
    s.wait_for("yyyyyyyyyy");
    s.send("x");
    s.wait_for("1. Minimal");
    s.send(CTRL_C);
    assert_dismissed(&mut s, 130);
    assert_eq!(s.stderr(), "");
}

#[test]
fn a_byte_that_is_not_utf8_in_an_editor_becomes_a_replacement_character() {
    let mut s = Session::spawn(PREFS, &[]);
    s.wait_all(&[STYLE, HINT]);
    s.send("4");
    s.wait_all(&[ANSWER_EDITOR, ANSWER_READY]);
    // A byte that starts no character (an 8-bit Meta key, a stray byte in a paste).
    s.send("caf");
    s.wait_for("> caf");
    s.send_bytes(b"\xff");
    // (vt100 leaves U+FFFD out of its screen: read it in the bytes drawn.)
    s.expect("> caf\u{fffd}");
    s.send("e\r");
    s.wait_all(&[FRONTEND, HINT]);
    s.send("4");
    s.wait_all(&[ANSWER_EDITOR, ANSWER_READY]);
    // é from a Latin-1 terminal: the start of a character that the next key does not go on;
    // that key is read on its own (Enter saves).
    s.send("caf");
    s.wait_for("> caf");
    s.send_bytes(b"\xe9");
    s.send("\r");
    s.expect("Type your own\u{2026} \u{201c}caf\u{fffd}\u{201d}");
    // Saved on a multi-select question: it stays, the custom row ticked; Tab: the review.
    s.wait_for("[x] 4. Type your own");
    s.send(TAB);
    s.wait_all(&[REVIEW, "3. Cancel"]);
    let details = submit(&mut s);
    assert_eq!(
        details,
        prefs_submitted(json!({
            "style": {"values": ["caf\u{fffd}e"], "labels": ["caf\u{fffd}e"], "indices": [], "customText": "caf\u{fffd}e"},
            "frameworks": {"values": ["caf\u{fffd}"], "labels": ["caf\u{fffd}"], "indices": [], "customText": "caf\u{fffd}"}
        }))
    );
}

/// A run of PREFS with the Type your own editor of its first question (Style) open.
fn style_editor_open() -> Session {
    let mut s = Session::spawn(PREFS, &[]);
    s.wait_all(&[STYLE, HINT]);
    s.send("4");
    s.wait_all(&[ANSWER_EDITOR, ANSWER_READY]);
    s
}

/// At the second question (Frontend): Tab to the review, submit; the result's details.
fn submit_from_frontend(s: &mut Session) -> Value {
    s.wait_all(&[FRONTEND, HINT]);
    s.send(TAB);
    s.wait_all(&[REVIEW, "3. Cancel"]);
    submit(s)
}

/// A paste with a byte that is not UTF-8 in it keeps all of it, U+FFFD for that byte
/// (docs/interactive.md, "The line editor").
#[test]
fn a_byte_that_is_not_utf8_in_a_paste_keeps_what_came_before_it() {
    let mut s = style_editor_open();
    s.send("x");
    s.wait_for("> x");
    s.send_bytes(b"\x1b[200~abc\x9bdef\x1b[201~");
    s.expect("> xabc\u{fffd}def");
    s.send("y\r");
    let details = submit_from_frontend(&mut s);
    assert_eq!(
        details["answers"]["style"]["customText"],
        json!("xabc\u{fffd}defy"),
        "{details}"
    );
}

/// A control string in a paste (OSC through BEL or ST; DCS, APC, PM, SOS through ST) is
/// dropped whole, and one that never ends takes the rest of the paste; the text around them
/// is kept (docs/interactive.md, "The line editor").
#[test]
fn control_strings_in_a_paste_are_dropped_whole() {
    let mut s = style_editor_open();
    s.send_bytes(b"\x1b[200~r\x1b]0;title\x07s\x1b[201~");
    s.send_bytes(b"\x1b[200~1\x1b]8;;http://x\x1b\\2\x1bPq#0\x1b\\3\x1b_a\x07b\x1b\\");
    s.send_bytes(b"4\x1b^pm\x1b\\5\x1bXsos\x1b\\6\x1b[201~");
    s.send_bytes(b"\x1b[200~7\x1b]0;never ended\x1b[201~");
    s.send("8\r");
    let details = submit_from_frontend(&mut s);
    assert_eq!(
        details["answers"]["style"]["customText"],
        json!("rs12345678"),
        "{details}"
    );
}

/// A paste start whose end never comes (a link that dropped it) ends after a quiet spell: in
/// the editor the next key ends it (and is its last), the key after that acts; at a list the
/// paste is the filter's text and the keys after the spell act at once. Before, every key,
/// Ctrl+C and Esc too, was taken as pasted text for good.
#[test]
fn a_paste_whose_end_never_comes_ends_after_a_quiet_spell() {
    let quiet = std::time::Duration::from_millis(2_300);
    // In the editor.
    let mut s = style_editor_open();
    s.send_bytes(b"\x1b[200~abc");
    std::thread::sleep(quiet);
    s.send("x");
    s.expect("> abcx");
    s.send("y\r");
    let details = submit_from_frontend(&mut s);
    assert_eq!(
        details["answers"]["style"]["customText"],
        json!("abcxy"),
        "{details}"
    );
    // At a list: the paste is the filter's text, then Down goes into the filtered list.
    let mut s = Session::spawn(PREFS, &[]);
    s.wait_all(&[STYLE, HINT]);
    s.send_bytes(b"\x1b[200~Bal");
    std::thread::sleep(quiet);
    s.send(DOWN);
    s.wait_all(&["Filter \u{201c}Bal\u{201d}: 1 of", "> ( ) 2. Balanced"]);
    s.send("\x03");
    assert_eq!(s.finish().0, 130);
}

/// Waits until `path` exists (15 s at most).
fn wait_for_file(path: &std::path::Path) {
    let start = std::time::Instant::now();
    while !path.exists() {
        assert!(
            start.elapsed() < crate::common::pty::TIMEOUT,
            "{} never came",
            path.display()
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[test]
fn two_runs_on_one_terminal_ask_one_after_the_other_and_leave_it_as_it_was() {
    use crate::common::pty::Options;
    let payload = r#"{"questions": [{"id": "db", "prompt": "Which database?", "options": [
        {"value": "pg", "label": "PostgreSQL"}, {"value": "lite", "label": "SQLite"}]}]}"#;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("q.json"), payload).unwrap();
    let (a, b) = (dir.path().join("a.json"), dir.path().join("b.json"));
    // No job control: both runs are in the terminal's foreground.
    let mut cmd = std::process::Command::new("sh");
    cmd.arg("-c")
        .arg("\"$0\" q.json --output a.json & \"$0\" q.json --output b.json; wait")
        .arg(env!("CARGO_BIN_EXE_pi-ask"));
    let opts = Options {
        cwd: Some(dir.path().to_path_buf()),
        ..Options::default()
    };
    let output = dir.path().join("none.json");
    let mut s = Session::spawn_command(cmd, tempfile::tempdir().unwrap(), output, opts);
    for _ in 0..2 {
        s.wait_all(&["Which database?", "SQLite"]);
        s.send("\r");
        s.wait_for(REVIEW);
        s.send("\r");
        // One run ends before the other asks.
        let start = std::time::Instant::now();
        while !(a.exists() || b.exists()) {
            assert!(start.elapsed() < crate::common::pty::TIMEOUT, "no result");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        if a.exists() && b.exists() {
            break;
        }
        s.wait_gone(REVIEW);
    }
    wait_for_file(&a);
    wait_for_file(&b);
    let status = s.wait_eof();
    assert_eq!(status.code(), Some(0));
    for path in [&a, &b] {
        let result: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        assert_eq!(
            result["details"]["answers"],
            json!({"db": {"values": ["pg"], "labels": ["PostgreSQL"], "indices": [1]}}),
            "{}",
            path.display()
        );
    }
    assert!(s.cooked(), "the terminal was left in raw mode");
}

#[test]
fn a_run_waiting_for_the_terminal_times_out_as_a_run_without_a_key() {
    use crate::common::pty::Options;
    let payload = r#"{"questions": [{"id": "db", "prompt": "Which database?", "options": [
        {"value": "pg", "label": "PostgreSQL"}, {"value": "lite", "label": "SQLite"}]}]}"#;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("q.json"), payload).unwrap();
    let mut cmd = std::process::Command::new("sh");
    cmd.arg("-c")
        .arg(
            "\"$0\" q.json --output a.json & sleep 1; \
             \"$0\" q.json --output b.json --timeout 1; echo $? > b.code; wait",
        )
        .arg(env!("CARGO_BIN_EXE_pi-ask"));
    let opts = Options {
        cwd: Some(dir.path().to_path_buf()),
        ..Options::default()
    };
    let output = dir.path().join("none.json");
    let mut s = Session::spawn_command(cmd, tempfile::tempdir().unwrap(), output, opts);
    s.wait_all(&["Which database?", "SQLite"]);
    // The second run waits for the first, which is asking, and gives up after its timeout.
    wait_for_file(&dir.path().join("b.code"));
    let code = std::fs::read_to_string(dir.path().join("b.code")).unwrap();
    assert_eq!(code.trim(), "124");
    let b: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("b.json")).unwrap()).unwrap();
    assert_eq!(b["details"]["error"]["code"], "timeout");
    assert_eq!(b["details"]["answers"], json!({}));
    assert!(!dir.path().join("a.json").exists());
    // The first is still asking.
    s.send("\r");
    s.wait_for(REVIEW);
    s.send("\r");
    wait_for_file(&dir.path().join("a.json"));
    assert_eq!(s.wait_eof().code(), Some(0));
    assert!(s.cooked(), "the terminal was left in raw mode");
}

/// A note on an option not chosen (docs/interactive.md "Review"): the review shows it under
/// the question, marked as going only with Elaborate; Submit asks first, Elaborate offered;
/// No goes back, Elaborate from the confirmation sends the note.
#[test]
fn a_note_on_an_option_not_chosen_shows_in_the_review_and_submit_asks_first() {
    let mut s = Session::spawn(PREFS, &[]);
    s.wait_all(&[STYLE, HINT]);
    s.send("n");
    s.wait_all(&["Note on Minimal · Enter save · Esc close", NOTE_READY]);
    s.send("too terse?");
    s.wait_for("\n> too terse?");
    s.send("\r");
    s.wait_all(&["note: too terse?", HINT]);
    s.send("2");
    s.wait_all(&[FRONTEND, HINT]);
    s.send("\r");
    assert_eq!(
        wait_review(&mut s),
        [
            REVIEW,
            "  Style",
            "     → Balanced",
            "       Note on Minimal (only with Elaborate): too terse?",
            "",
            "  Frontend",
            "     → unanswered",
            "",
            "> 1. Submit",
            "  2. Elaborate",
            "     ask the agent to elaborate on your notes, keeping the answers",
            "  3. Cancel",
        ]
    );
    s.send("\r");
    let screen = s.wait_all(&[
        "Submit without 1 note on an option you did not choose?",
        "Esc back",
    ]);
    let lines: Vec<&str> = screen.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains("Submit without 1 note"))
        .unwrap();
    assert_eq!(
        lines[at + 1..at + 4],
        [
            "> No, go back to the review",
            "  Yes, submit without it",
            "  Elaborate: send the note to the agent",
        ],
        "{screen}"
    );
    s.send("\r");
    s.wait_all(&[REVIEW, "> 1. Submit", HINT]);
    s.send("\r");
    s.wait_for("> No, go back to the review");
    press(&mut s, DOWN, 2, "> Elaborate: send the note to the agent");
    s.send("\r");
    let (code, result) = s.finish();
    assert_eq!(code, 0, "stderr: {}", s.stderr());
    let details = &result.expect("a result")["details"];
    assert_eq!(details["mode"], json!("elaborate"));
    assert_eq!(
        details["elaboration"]["items"][0]["note"],
        json!("too terse?")
    );
    assert_eq!(
        details["answers"],
        json!({"style": {"values": ["balanced"], "labels": ["Balanced"], "indices": [2]}})
    );
}

/// `n` on the Type your own row notes the question (docs/interactive.md "Notes"): the note
/// goes with the typed answer instead of being attached to option 1 and dropped.
#[test]
fn n_on_the_type_your_own_row_notes_the_question() {
    let mut s = Session::spawn(PREFS, &[]);
    s.wait_all(&[STYLE, HINT]);
    press(&mut s, DOWN, 3, "> ( ) 4. Type your own…");
    s.send("n");
    s.wait_all(&["Note on this question · Enter save · Esc close", NOTE_READY]);
    s.send("mine reads better");
    s.wait_for("\n> mine reads better");
    s.send("\r");
    s.wait_all(&[&format!("{STYLE}\n  Note: mine reads better\n"), HINT]);
    s.send("\r");
    s.wait_all(&[ANSWER_EDITOR, ANSWER_READY]);
    s.send("Terse");
    s.wait_for("\n> Terse");
    s.send("\r");
    s.wait_all(&[FRONTEND, HINT]);
    s.send("\r");
    wait_review(&mut s);
    let details = submit(&mut s);
    assert_eq!(
        details["answers"],
        json!({"style": {"values": ["Terse"], "labels": ["Terse"], "indices": [],
                         "customText": "Terse", "note": "mine reads better"}})
    );
}

/// An escape sequence in a paste is dropped whole, its final byte too (`x ESC[0m y` is `xy`).
#[test]
fn an_escape_sequence_in_a_paste_is_dropped_with_its_final_byte() {
    let mut s = style_editor_open();
    s.send_bytes(b"\x1b[200~x\x1b[0my\x1b[1;31mz\x1b[201~");
    s.expect("> xyz");
    s.send("\r");
    let details = submit_from_frontend(&mut s);
    assert_eq!(
        details["answers"]["style"]["customText"],
        json!("xyz"),
        "{details}"
    );
}

//! The inline region's defects of 0.3.0, each as a person met it (docs/interactive.md
//! "Placement"): a dropped link, a partial line before the run, a changed answer out of
//! reach, a resize with an editor open, a long title, compactness, digits on other pages, a
//! long prompt. Real pty (tests/common/pty.rs), real tmux where rewrap and scrollback matter.

use crate::common::pty::{Options, Session, SHELL_PROMPT};
use crate::common::tmux::{tmux, tmux_available, tmux_session, tmux_wait};
use serde_json::{json, Value};

const PREFS: &str = include_str!("../examples/implementation-preferences.json");
const DATABASE: &str = include_str!("../examples/database.json");

fn inline(rows: u16, cols: u16) -> Options {
    Options {
        rows,
        cols,
        env: vec![("PI_ASK_SCREEN".into(), "inline".into())],
        ..Options::default()
    }
}

/// The screen's lines, trailing spaces trimmed, blank lines dropped.
fn lines(screen: &str) -> Vec<String> {
    screen
        .lines()
        .map(|l| l.trim_end().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn a_killed_run_leaves_its_whole_frame_with_the_prompt_under_it_and_the_cursor_visible() {
    let mut s = Session::spawn_shell(PREFS, inline(24, 80));
    s.wait_for(SHELL_PROMPT);
    s.send("pi-ask payload.json --output result.json; echo after\r");
    s.wait_for("? keys");
    let pid = crate::pi_tmux::descendant_named(s.pid(), "pi-ask");
    kill_9(pid);
    let screen = s.wait_until("the prompt after the kill", |screen| {
        screen.contains("after") && screen.trim_end().ends_with(SHELL_PROMPT.trim_end())
    });
    let all = lines(&screen);
    let hint = all
        .iter()
        .position(|l| l.ends_with("? keys"))
        .expect("the hint line");
    let after = all
        .iter()
        .position(|l| l == "after")
        .expect("the shell's line");
    assert!(hint < after, "{screen}");
    assert_eq!(all[hint - 1], "  ( ) 4. Type your own\u{2026}", "{screen}");
    assert!(all.iter().any(|l| l.starts_with("1/2 Style")), "{screen}");
    assert!(s.cursor_visible(), "the cursor is hidden after the kill");
    s.send("exit\r");
    s.wait_eof();
}

/// SIGKILL to `pid`, through the `kill` command.
fn kill_9(pid: i32) {
    let status = std::process::Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
}

#[test]
fn a_partial_line_before_the_run_is_kept() {
    let mut s = Session::spawn_shell(PREFS, inline(24, 80));
    s.wait_for(SHELL_PROMPT);
    s.send("printf 'progress: 42%% done'; pi-ask payload.json --output result.json\r");
    let screen = s.wait_for("? keys");
    // Rows as shown: the spaces written after the partial line wrapped to the next row.
    let all: Vec<String> = s.rows().into_iter().filter(|r| !r.is_empty()).collect();
    let at = all
        .iter()
        .position(|l| l == "progress: 42% done")
        .unwrap_or_else(|| panic!("the partial line is gone:\n{screen}"));
    assert_eq!(all[at + 1], "Implementation preferences", "{screen}");
    s.send("1");
    s.wait_for("2/2 Frontend");
    s.send("\t");
    s.wait_for("1. Submit");
    s.send("\r");
    let screen = s.wait_until("the transcript", |screen| {
        screen.contains("✔ Submitted") && screen.trim_end().ends_with(SHELL_PROMPT.trim_end())
    });
    let all: Vec<String> = s.rows().into_iter().filter(|r| !r.is_empty()).collect();
    let at = all
        .iter()
        .position(|l| l == "progress: 42% done")
        .unwrap_or_else(|| panic!("{screen}"));
    assert_eq!(
        all[at + 1..at + 5],
        [
            "Implementation preferences",
            "Style: Minimal",
            "Frontend: no answer",
            "✔ Submitted"
        ],
        "{screen}"
    );
    s.send("exit\r");
    assert_eq!(s.finish().0, 0);
}

#[test]
fn a_question_of_the_database_example_takes_seven_rows_like_dialoguers_select() {
    let mut s = Session::spawn_with(DATABASE, &[], inline(24, 80));
    let screen = s.wait_for("? keys");
    assert_eq!(
        lines(&screen),
        [
            "Which database should the project use?:",
            "> ( ) 1. PostgreSQL",
            "         Full relational database with production tooling.",
            "  ( ) 2. SQLite",
            "         Embedded database with minimal setup.",
            "  ( ) 3. Type your own\u{2026}",
            // Inline without --context Ctrl+] has nothing to show: no `^] context`.
            "\u{2191}\u{2193} move \u{b7} Enter choose \u{b7} n note \u{b7} Esc cancel \u{b7} ^C dismiss \u{b7} ? keys",
        ],
        "{screen}"
    );
    s.send("\x03");
    assert_eq!(s.finish().0, 130);
}

#[test]
fn inline_with_a_context_the_hint_offers_the_peek_and_ctrl_bracket_shows_the_message() {
    let dir = tempfile::tempdir().unwrap();
    let context = dir.path().join("message.md");
    std::fs::write(&context, "Which database fits a small team?\n").unwrap();
    let context = context.to_str().unwrap();
    let mut s = Session::spawn_with(DATABASE, &["--context", context], inline(24, 80));
    let screen = s.wait_for("? keys");
    assert_eq!(
        lines(&screen).last().map(String::as_str),
        Some("\u{2191}\u{2193} move \u{b7} Enter choose \u{b7} n note \u{b7} Esc cancel \u{b7} ^C dismiss \u{b7} ^] context \u{b7} ? keys"),
        "{screen}"
    );
    s.send("\x1d");
    s.wait_for("Which database fits a small team?");
    s.send("\x03");
    assert_eq!(s.finish().0, 130);
}

/// A payload of one single-select question with `n` options, its prompt `prompt`.
fn options_payload(n: usize, prompt: &str) -> String {
    let options: Vec<Value> = (1..=n)
        .map(|i| json!({"value": format!("o{i}"), "label": format!("Option {i}")}))
        .collect();
    json!({"questions": [{"id": "q", "prompt": prompt, "options": options}]}).to_string()
}

#[test]
fn a_digit_chooses_its_option_whatever_page_is_shown() {
    let payload = options_payload(12, "Pick");
    let mut s = Session::spawn_with(&payload, &[], inline(8, 20));
    let first = s.wait_for("Option 1");
    assert!(!first.contains("Option 9"), "{first}");
    s.send("9");
    s.wait_for("1. Submit");
    s.send("\r");
    let (code, result) = s.finish();
    assert_eq!(code, 0);
    assert_eq!(
        result.unwrap()["details"]["answers"],
        json!({"q": {"values": ["o9"], "labels": ["Option 9"], "indices": [9]}})
    );
}

#[test]
fn a_long_prompt_wraps_into_the_rows_the_block_has_free() {
    let prompt = "Which of these should the release notes lead with, given that the audience is \
                  mostly people upgrading from the previous major version and reading on phones?";
    let payload = options_payload(2, prompt);
    let mut s = Session::spawn_with(&payload, &[], inline(14, 80));
    let screen = s.wait_for("? keys");
    let all = lines(&screen);
    assert_eq!(
        all[0], "Which of these should the release notes lead with, given that the audience",
        "{screen}"
    );
    assert_eq!(
        all[1], "  is mostly people upgrading from the previous major version and reading on",
        "{screen}"
    );
    assert_eq!(all[2], "  phones?:", "{screen}");
    assert_eq!(all[3], "> ( ) 1. Option 1", "{screen}");
    s.send("\x03");
    assert_eq!(s.finish().0, 130);
}

#[test]
fn an_answer_changed_after_its_line_went_out_of_reach_ends_in_order() {
    let questions: Vec<Value> = (1..=12)
        .map(|i| {
            json!({"id": format!("q{i}"), "label": format!("Question {i}"), "prompt": format!("Pick {i}"),
                   "options": [{"value": "a", "label": "Alpha"}, {"value": "b", "label": "Beta"}]})
        })
        .collect();
    let payload = json!({"questions": questions}).to_string();
    let mut s = Session::spawn_with(&payload, &[], inline(24, 80));
    for i in 1..=12 {
        s.wait_for(&format!("{i}/12 Question {i}"));
        s.send("1");
    }
    s.wait_for("1. Submit");
    // Home: question 1's row; Enter re-opens it; 2 chooses Beta and returns to the review.
    s.send("\x1b[H\r");
    s.wait_for("1/12 Question 1");
    s.send("2");
    s.wait_for("1. Submit");
    s.send("\r");
    let (code, _) = s.finish();
    assert_eq!(code, 0);
    let mut everything: Vec<String> = s
        .scrollback()
        .into_iter()
        .filter(|l| !l.is_empty())
        .collect();
    everything.extend(lines(&s.screen()));
    let mut expected: Vec<String> = vec!["Question 1: Beta".into()];
    expected.extend((2..=12).map(|i| format!("Question {i}: Alpha")));
    expected.push("✔ Submitted".into());
    assert_eq!(
        everything[everything.len() - 13..],
        expected[..],
        "{everything:#?}"
    );
    assert!(
        everything.iter().all(|l| !l.contains("? keys")),
        "{everything:#?}"
    );
}

/// Starts `payload` in a tmux pane of `cols` x `rows` (manual window size); the socket name.
fn in_tmux(payload: &str, cols: u16, rows: u16, tag: &str) -> Option<(String, tempfile::TempDir)> {
    if !tmux_available("region") {
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("q.json"), payload).unwrap();
    let socket = format!("pi-ask-region-{tag}-{}", std::process::id());
    let command = format!(
        "cd {} && printf 'before\\n' && NO_COLOR=1 PI_ASK_SCREEN=inline {} q.json --output r.json; sleep 60",
        dir.path().display(),
        env!("CARGO_BIN_EXE_pi-ask")
    );
    tmux_session(&socket, cols, rows, &command);
    Some((socket, dir))
}

/// At the first question of the preferences payload in tmux: `open` opens an editor (its
/// `mark` shows), `draft` is typed, the window becomes `cols` x `rows`, Enter saves.
fn a_draft_through_a_resize(
    socket: &str,
    open: &str,
    mark: &str,
    draft: &str,
    cols: u16,
    rows: u16,
) {
    tmux_wait(socket, "the first question", |p| p.contains("? keys"));
    tmux(socket, &["send-keys", "-t", "t", open]);
    tmux_wait(socket, "the editor", |p| p.contains(mark));
    tmux(socket, &["send-keys", "-t", "t", "-l", draft]);
    tmux_wait(socket, "the draft", |p| p.contains(&format!("> {draft}")));
    let (cols, rows) = (cols.to_string(), rows.to_string());
    tmux(
        socket,
        &["resize-window", "-t", "t", "-x", &cols, "-y", &rows],
    );
    std::thread::sleep(std::time::Duration::from_millis(400));
    tmux(socket, &["send-keys", "-t", "t", "Enter"]);
}

#[test]
fn a_resize_with_an_editor_open_leaves_nothing_in_the_scrollback() {
    let Some((socket, _dir)) = in_tmux(PREFS, 80, 24, "editor") else {
        return;
    };
    // The window grows while the editor is open.
    a_draft_through_a_resize(&socket, "N", "Add a note...", "why", 100, 30);
    tmux_wait(&socket, "the question again", |p| p.contains("  Note: why"));
    tmux(&socket, &["send-keys", "-t", "t", "Tab", "Tab"]);
    tmux_wait(&socket, "the review", |p| p.contains("1. Submit"));
    tmux(&socket, &["send-keys", "-t", "t", "Enter"]);
    let pane = tmux_wait(&socket, "the transcript", |p| p.contains("✔ Submitted"));
    tmux(&socket, &["kill-server"]);
    assert_eq!(
        lines(&pane),
        [
            "before",
            "Implementation preferences",
            "Style: no answer (+ note)",
            "Frontend: no answer",
            "✔ Submitted"
        ],
        "{pane}"
    );
}

/// A resize with an editor open lays the block out again at once, the editor in it with its
/// draft and cursor (it kept the old layout until the editor closed: the title, the hint and
/// the prompt went off the top while the rows under the editor stayed empty, and tmux's
/// rewrap cut the descriptions mid-word); typing goes on in the same editor.
#[test]
fn a_resize_with_an_editor_open_lays_the_block_out_again_at_once() {
    let Some((socket, dir)) = in_tmux(PREFS, 80, 24, "relayout") else {
        return;
    };
    open_type_your_own(&socket);
    tmux(&socket, &["send-keys", "-t", "t", "-l", "abc"]);
    tmux_wait(&socket, "the draft", |p| p.contains("> abc"));
    tmux(
        &socket,
        &["resize-window", "-t", "t", "-x", "40", "-y", "24"],
    );
    let expected = [
        "Implementation preferences",
        // What the editor edits is cut, never its keys.
        "Type your o… · Enter submit · Esc close",
        "1/2 Style · How should I frame the",
        "  next prompt?:",
        "  ( ) 1. Minimal",
        "         A short, direct question with…",
        "  ( ) 2. Balanced",
        "         A standard prompt with a bit …",
        "  ( ) 3. Rich",
        "         A more descriptive prompt wit…",
        "> ( ) 4. Type your own",
        "> abc",
    ];
    let start = std::time::Instant::now();
    loop {
        let shown = visible(&socket);
        if shown.ends_with(&expected.map(String::from)) {
            break;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(15),
            "{shown:#?}"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    // The terminal's cursor is at the editing position, after the draft (`> abc`).
    let at = tmux(
        &socket,
        &["display-message", "-p", "-t", "t", "#{cursor_x}"],
    );
    assert_eq!(at.trim(), "5");
    // Back to 80 columns: laid out again there too; the draft goes on.
    tmux(
        &socket,
        &["resize-window", "-t", "t", "-x", "80", "-y", "24"],
    );
    tmux_wait(&socket, "the block at 80 columns", |_| {
        visible(&socket)
            .iter()
            .any(|l| l == "Type your own · Enter submit · Esc close")
    });
    tmux(&socket, &["send-keys", "-t", "t", "-l", "d"]);
    tmux_wait(&socket, "the draft", |p| p.contains("> abcd"));
    tmux(&socket, &["send-keys", "-t", "t", "Enter"]);
    tmux_wait(&socket, "the second question", |p| {
        p.contains("2/2 Frontend")
    });
    tmux(&socket, &["send-keys", "-t", "t", "Tab"]);
    let (pane, ours) = submit_from_the_review(&socket);
    assert_eq!(
        ours[ours.len() - 4..],
        [
            "Implementation preferences",
            "Style: “abcd”",
            "Frontend: no answer",
            "✔ Submitted"
        ],
        "{pane}"
    );
    let result: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("r.json")).unwrap()).unwrap();
    assert_eq!(result["details"]["answers"]["style"]["customText"], "abcd");
}

/// A shrink then a regrow (the width the same) with an editor open, its draft on three rows
/// (a pasted line break): the question reads as before the shrink, title and hint once, while
/// the editor is open and after it closes (the title was lost until it closed, and a draft on
/// several rows left stale copies of the title and the hint for good).
#[test]
fn a_shrink_then_a_regrow_with_an_editor_open_shows_the_question_as_before() {
    let Some((socket, _dir)) = in_tmux(PREFS, 80, 24, "edregrow") else {
        return;
    };
    open_type_your_own(&socket);
    tmux(&socket, &["send-keys", "-t", "t", "-l", "pre "]);
    tmux(&socket, &["set-buffer", "a\nb\nc"]);
    tmux(&socket, &["paste-buffer", "-p", "-t", "t"]);
    tmux(&socket, &["send-keys", "-t", "t", "-l", " post"]);
    tmux_wait(&socket, "the draft", |p| p.contains("c post"));
    let before = visible(&socket);
    assert_eq!(
        before[..2],
        ["before", "Implementation preferences"],
        "{before:#?}"
    );
    tmux(
        &socket,
        &["resize-window", "-t", "t", "-x", "80", "-y", "10"],
    );
    tmux_wait(&socket, "the block at 10 rows", |_| {
        visible(&socket)
            .first()
            .is_some_and(|l| l.starts_with("Type your own"))
    });
    back_to_80x24_as_before(&socket, &before);
    tmux(&socket, &["send-keys", "-t", "t", "Escape"]);
    let pane = tmux_wait(&socket, "the question with the answer", |p| {
        p.contains("c post”")
    });
    let ours = lines(&pane);
    assert_eq!(
        ours.iter()
            .filter(|l| *l == "Implementation preferences")
            .count(),
        1,
        "{pane}"
    );
    assert!(
        !ours.iter().any(|l| l.starts_with("Type your own ·")),
        "{pane}"
    );
    tmux(&socket, &["kill-server"]);
}

/// A shrink with an editor open pushes the block's top rows into tmux's history (the cursor's
/// row stays): the run ends with its whole final transcript under them, in order.
/// The note editor open on the database question: Enter saves (the question shows `mark`),
/// Enter goes on to the review, Enter submits. Asserts the transcript; the result.
fn save_the_note_and_submit(socket: &str, dir: &std::path::Path, mark: &str) -> Value {
    save_the_note_and_submit_past(socket, dir, mark, &[])
}

/// [`save_the_note_and_submit`] where a shrink left `pushed` rows of the block in tmux's
/// history, above the transcript (rows tmux pushed before pi-ask could hear of the resize).
fn save_the_note_and_submit_past(
    socket: &str,
    dir: &std::path::Path,
    mark: &str,
    pushed: &[&str],
) -> Value {
    tmux(socket, &["send-keys", "-t", "t", "Enter"]);
    tmux_wait(socket, "the question again", |p| p.contains(mark));
    tmux(socket, &["send-keys", "-t", "t", "Enter"]);
    tmux_wait(socket, "the review", |p| p.contains("1. Submit"));
    tmux(socket, &["send-keys", "-t", "t", "Enter"]);
    let pane = tmux_wait(socket, "the transcript", |p| p.contains("✔ Submitted"));
    let result = dir.join("r.json");
    let start = std::time::Instant::now();
    while !result.exists() && start.elapsed() < std::time::Duration::from_secs(10) {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    tmux(socket, &["kill-server"]);
    let mut expected = vec!["before"];
    expected.extend(pushed);
    expected.extend([
        "Which database should the project use?: PostgreSQL (+ note)",
        "✔ Submitted",
    ]);
    assert_eq!(lines(&pane), expected, "{pane}");
    serde_json::from_str(&std::fs::read_to_string(&result).unwrap()).unwrap()
}

/// At the review: `1` twice submits; the pane (history too) and its lines, once the run ended.
fn submit_from_the_review(socket: &str) -> (String, Vec<String>) {
    tmux_wait(socket, "the review", |p| p.contains("1. Submit"));
    tmux(socket, &["send-keys", "-t", "t", "1"]);
    tmux_wait(socket, "the second press", |p| p.contains("again"));
    tmux(socket, &["send-keys", "-t", "t", "1"]);
    let pane = tmux_wait(socket, "the transcript", |p| p.contains("✔ Submitted"));
    tmux(socket, &["kill-server"]);
    let ours = lines(&pane);
    (pane, ours)
}

#[test]
fn a_shrink_with_an_editor_open_ends_with_the_whole_transcript_in_order() {
    let Some((socket, _dir)) = in_tmux(PREFS, 80, 24, "shrink") else {
        return;
    };
    a_draft_through_a_resize(&socket, "4", "Enter submit", "draft text", 50, 12);
    tmux_wait(&socket, "the second question", |p| {
        p.contains("2/2 Frontend")
    });
    tmux(&socket, &["send-keys", "-t", "t", "Tab"]);
    let (pane, ours) = submit_from_the_review(&socket);
    assert_eq!(
        ours[ours.len().saturating_sub(4)..],
        [
            "Implementation preferences",
            "Style: \u{201c}draft text\u{201d}",
            "Frontend: no answer",
            "✔ Submitted"
        ],
        "{pane}"
    );
}

#[test]
fn an_editor_closed_in_a_smaller_window_then_a_regrow_end_with_the_whole_transcript_in_order() {
    let Some((socket, _dir)) = in_tmux(PREFS, 80, 24, "regrow") else {
        return;
    };
    tmux_wait(&socket, "the first question", |p| p.contains("? keys"));
    tmux(&socket, &["send-keys", "-t", "t", "2"]);
    tmux_wait(&socket, "the second question", |p| {
        p.contains("2/2 Frontend")
    });
    let draft = "Solid and a fairly long custom answer text to wrap";
    // The editor closes (Enter) in the smaller window: rows of the block went to tmux's
    // history with the lines above them.
    a_draft_through_a_resize(&socket, "4", "Enter submit", draft, 40, 12);
    std::thread::sleep(std::time::Duration::from_millis(400));
    tmux(
        &socket,
        &["resize-window", "-t", "t", "-x", "80", "-y", "24"],
    );
    std::thread::sleep(std::time::Duration::from_millis(400));
    tmux(&socket, &["send-keys", "-t", "t", "End", "Enter"]);
    let (pane, ours) = submit_from_the_review(&socket);
    assert_eq!(
        ours[ours.len().saturating_sub(4)..],
        [
            "Implementation preferences".to_string(),
            "Style: Balanced".to_string(),
            format!("Frontend: \u{201c}{draft}\u{201d}"),
            "✔ Submitted".to_string()
        ],
        "{pane}"
    );
}

/// The pane's visible rows (no history), trailing spaces trimmed, blank rows dropped.
fn visible(socket: &str) -> Vec<String> {
    lines(&tmux(socket, &["capture-pane", "-p", "-t", "t"]))
}

/// At the preferences payload's first question: its Type your own editor opened (`4`).
fn open_type_your_own(socket: &str) {
    tmux_wait(socket, "the first question", |p| p.contains("? keys"));
    tmux(socket, &["send-keys", "-t", "t", "4"]);
    tmux_wait(socket, "the editor", |p| p.contains("Enter submit"));
}

/// The window back to 80x24: within 3 s the visible rows are `before` again.
fn back_to_80x24_as_before(socket: &str, before: &[String]) {
    tmux(
        socket,
        &["resize-window", "-t", "t", "-x", "80", "-y", "24"],
    );
    let start = std::time::Instant::now();
    while visible(socket) != before && start.elapsed() < std::time::Duration::from_secs(3) {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert_eq!(visible(socket), before);
}

#[test]
fn a_shrink_then_a_regrow_at_a_question_shows_the_question_as_before() {
    let Some((socket, _dir)) = in_tmux(PREFS, 80, 24, "pullback") else {
        return;
    };
    tmux_wait(&socket, "the first question", |p| p.contains("? keys"));
    let before = visible(&socket);
    assert_eq!(
        before[..2],
        ["before", "Implementation preferences"],
        "{before:#?}"
    );
    // The title and the block's first rows go to tmux's history; tmux pulls them back when
    // the window grows again, above the block drawn in the small window.
    tmux(
        &socket,
        &["resize-window", "-t", "t", "-x", "80", "-y", "8"],
    );
    tmux_wait(&socket, "the question at 8 rows", |p| p.contains("[1/"));
    back_to_80x24_as_before(&socket, &before);
    tmux(&socket, &["send-keys", "-t", "t", "2"]);
    tmux_wait(&socket, "the second question", |p| {
        p.contains("2/2 Frontend")
    });
    // React, then the Done row's Enter.
    tmux(&socket, &["send-keys", "-t", "t", "1", "End", "Enter"]);
    let (pane, ours) = submit_from_the_review(&socket);
    let transcript: Vec<&str> = ours
        .iter()
        .map(String::as_str)
        .filter(|l| !l.starts_with("before") && !l.is_empty())
        .collect();
    assert_eq!(
        transcript[transcript.len().saturating_sub(4)..],
        [
            "Implementation preferences",
            "Style: Balanced",
            "Frontend: React",
            "✔ Submitted"
        ],
        "{pane}"
    );
    assert_eq!(
        ours.iter()
            .filter(|l| *l == "Implementation preferences")
            .count(),
        1,
        "{pane}"
    );
}

#[test]
fn a_shrink_and_a_regrow_at_the_review_of_a_tall_payload_leave_the_transcript_once() {
    let questions: Vec<Value> = (1..=12)
        .map(|i| {
            json!({"id": format!("q{i}"), "label": format!("Q{i}"), "prompt": format!("Question {i}?"),
                "options": [{"value": "a", "label": format!("Alpha{i}")}, {"value": "b", "label": "Beta"}]})
        })
        .collect();
    let payload = json!({"title": "Tall payload", "questions": questions}).to_string();
    let Some((socket, _dir)) = in_tmux(&payload, 80, 24, "tall") else {
        return;
    };
    for i in 1..=12 {
        tmux_wait(&socket, "the next question", |p| {
            p.contains(&format!("{i}/12 Q{i}"))
        });
        tmux(&socket, &["send-keys", "-t", "t", "Enter"]);
    }
    tmux_wait(&socket, "the review", |p| p.contains("1. Submit"));
    // The first answers' lines went out of reach as the review was drawn; the shrink pushes
    // the rest and the review's top rows into tmux's history, and the regrow pulls them back.
    tmux(
        &socket,
        &["resize-window", "-t", "t", "-x", "80", "-y", "12"],
    );
    std::thread::sleep(std::time::Duration::from_millis(400));
    tmux(
        &socket,
        &["resize-window", "-t", "t", "-x", "80", "-y", "24"],
    );
    std::thread::sleep(std::time::Duration::from_millis(400));
    let (pane, ours) = submit_from_the_review(&socket);
    let mut expected = vec!["Tall payload".to_string()];
    // The payload gives each question its label (`Q1`, ...): that names it, not the prompt.
    expected.extend((1..=12).map(|i| format!("Q{i}: Alpha{i}")));
    expected.push("✔ Submitted".to_string());
    let start = ours
        .iter()
        .position(|l| l == "Tall payload")
        .expect("the title");
    assert_eq!(ours[start..start + expected.len()], expected[..], "{pane}");
    assert_eq!(
        ours.iter().filter(|l| *l == "Tall payload").count(),
        1,
        "{pane}"
    );
}

#[test]
fn quick_resizes_through_other_widths_with_keys_between_never_draw_over_the_shells_lines() {
    if !tmux_available("region") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("q.json"), PREFS).unwrap();
    let socket = format!("pi-ask-region-quick-{}", std::process::id());
    let command = format!(
        "cd {} && seq 100 && NO_COLOR=1 PI_ASK_SCREEN=inline {} q.json --output r.json; sleep 60",
        dir.path().display(),
        env!("CARGO_BIN_EXE_pi-ask")
    );
    tmux_session(&socket, 80, 24, &command);
    tmux_wait(&socket, "the first question", |p| p.contains("? keys"));
    tmux(&socket, &["send-keys", "-t", "t", "Down", "Enter"]);
    tmux_wait(&socket, "the second question", |p| {
        p.contains("2/2 Frontend")
    });
    // Each resize pushes and pulls rows at its own width before pi-ask draws again.
    for _ in 0..2 {
        for (x, y) in [
            ("40", "10"),
            ("120", "30"),
            ("30", "12"),
            ("80", "8"),
            ("100", "20"),
            ("80", "24"),
        ] {
            tmux(&socket, &["resize-window", "-t", "t", "-x", x, "-y", y]);
            tmux(&socket, &["send-keys", "-t", "t", "Down"]);
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }
    std::thread::sleep(std::time::Duration::from_millis(800));
    let pane = tmux(&socket, &["capture-pane", "-p", "-S", "-", "-t", "t"]);
    tmux(&socket, &["kill-server"]);
    let numbers: Vec<String> = pane
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty() && l.chars().all(|c| c.is_ascii_digit()))
        .map(str::to_string)
        .collect();
    let expected: Vec<String> = (1..=100).map(|n| n.to_string()).collect();
    assert_eq!(numbers, expected, "{pane}");
}

#[test]
fn a_long_title_stays_one_line_and_growing_the_window_twice_leaves_it_once() {
    let title = "A".repeat(150);
    let payload = json!({"title": title, "questions": [
        {"id": "q", "label": "Pick", "prompt": "P".repeat(170), "options": [{"value": "a", "label": "A"}]}]})
    .to_string();
    let Some((socket, _dir)) = in_tmux(&payload, 80, 24, "title") else {
        return;
    };
    tmux_wait(&socket, "the question", |p| p.contains("? keys"));
    tmux(
        &socket,
        &["resize-window", "-t", "t", "-x", "120", "-y", "24"],
    );
    std::thread::sleep(std::time::Duration::from_millis(400));
    tmux(&socket, &["send-keys", "-t", "t", "Down"]);
    std::thread::sleep(std::time::Duration::from_millis(300));
    tmux(
        &socket,
        &["resize-window", "-t", "t", "-x", "140", "-y", "30"],
    );
    std::thread::sleep(std::time::Duration::from_millis(400));
    tmux(&socket, &["send-keys", "-t", "t", "Up"]);
    tmux_wait(&socket, "the question at 140 columns", |p| {
        p.contains("> ( ) 1. A")
    });
    tmux(&socket, &["send-keys", "-t", "t", "C-c"]);
    let pane = tmux_wait(&socket, "the transcript", |p| p.contains("Dismissed"));
    tmux(&socket, &["kill-server"]);
    let titles = pane.lines().filter(|l| l.starts_with("AAAA")).count();
    assert_eq!(titles, 1, "{pane}");
    assert_eq!(
        pane.lines().filter(|l| l.contains("PPPP")).count(),
        0,
        "{pane}"
    );
}

#[test]
fn the_peek_opens_at_the_end_of_a_long_message_and_scrolls_to_its_start() {
    let dir = tempfile::tempdir().unwrap();
    let context = dir.path().join("context.txt");
    let message: Vec<String> = (1..=44).map(|i| format!("message line {i}")).collect();
    std::fs::write(&context, message.join("\n")).unwrap();
    let mut s = Session::spawn_with(
        PREFS,
        &["--context", context.to_str().unwrap()],
        inline(30, 100),
    );
    let question = s.wait_for("? keys");
    s.send("\x1d");
    let peek = s.wait_for("message line 44");
    // The end first (where the agent's question is), with a marker for what is above; the
    // pager takes the rows the question's block had, no more (the block never grows under the
    // agent's message).
    assert_eq!(
        lines(&peek).len(),
        lines(&question).len(),
        "{question}\n{peek}"
    );
    assert!(
        peek.contains("The agent's message · lines 38-44 of 44 · more ↑"),
        "{peek}"
    );
    assert!(!peek.contains("message line 37\n"), "{peek}");
    // Home: the start; every line can be reached.
    s.send("\x1b[H");
    let top = s.wait_for("message line 1\n");
    assert!(top.contains("lines 1-7 of 44 · more ↓"), "{top}");
    assert!(top.contains("message line 7\n"), "{top}");
    assert!(!top.contains("message line 8\n"), "{top}");
    s.send("\x1b[F");
    s.wait_for("lines 38-44 of 44");
    // Esc returns to the question, which is drawn again above nothing stale.
    s.send("\x1b");
    let back = s.wait_for("? keys");
    assert!(!back.contains("message line"), "{back}");
    s.send("\x03");
    assert_eq!(s.finish().0, 130);
}

#[test]
fn a_short_timeout_keeps_which_question_is_up_in_view() {
    let mut s = Session::spawn_with(PREFS, &["--timeout", "5"], inline(24, 80));
    let screen = s.wait_for("Closing in");
    let all = lines(&screen);
    assert_eq!(all[0], "Implementation preferences", "{screen}");
    assert!(
        all[1].starts_with("1/2 Style · How should I frame"),
        "{screen}"
    );
    assert!(all.last().unwrap().starts_with("Closing in "), "{screen}");
    assert_eq!(s.finish().0, 124);
}

#[test]
fn a_recommended_option_is_marked_and_highlighted_first_never_chosen() {
    let payload = json!({"questions": [{"id": "db", "prompt": "Which database?", "options": [
        {"value": "pg", "label": "PostgreSQL"},
        {"value": "lite", "label": "SQLite", "recommended": true}]}]})
    .to_string();
    let mut s = Session::spawn_with(&payload, &[], inline(24, 80));
    let screen = s.wait_for("? keys");
    let all = lines(&screen);
    assert_eq!(all[1], "  ( ) 1. PostgreSQL", "{screen}");
    assert_eq!(all[2], "> ( ) 2. SQLite (Recommended)", "{screen}");
    // Nothing is chosen until a key says so: the review shows it unanswered.
    s.send("\t");
    let review = s.wait_for("1. Submit");
    assert!(review.contains("→ unanswered"), "{review}");
    s.send("\x1b[Z");
    s.wait_for("> ( ) 2. SQLite (Recommended)");
    s.send("\r");
    s.wait_for("1. Submit");
    s.send("\r");
    let (code, result) = s.finish();
    assert_eq!(code, 0);
    assert_eq!(
        result.unwrap()["details"]["answers"]["db"]["values"],
        json!(["lite"])
    );
}

/// The lines of [`above_screen`]'s file: 20 plain ones, then one that tries every escape it
/// can (a colour, then a title, a clear, cursor moves, C1 controls) and reads "last line".
fn above_lines() -> Vec<String> {
    let mut lines: Vec<String> = (1..=20).map(|i| format!("above line {i:02}")).collect();
    lines.push(
        "\x1b[31mlast\x1b[0m \x1b]0;pwned\x07\x1b[2J\x1b[5A\x1b[1;1H\u{9b}2J\u{85}line\x1b]8;;https://x\x1b\\"
            .to_string(),
    );
    lines
}

/// How a caller shows [`above_lines`] before it runs pi-ask: a fresh alternate screen, the
/// lines as text (the last one as it reads), the cursor under them.
fn above_screen() -> String {
    let mut out = "\x1b[?1049h\x1b[H\x1b[2J".to_string();
    for line in &above_lines()[..20] {
        out.push_str(line);
        out.push_str("\r\n");
    }
    out.push_str("last line\r\n");
    out
}

/// The issue "in pi's fullscreen mode the agent's message is gone from above the questions
/// after a resize": on an alternate screen (no history) showing lines, `--above` draws the end
/// of them again right above the questions after the window shrank and grew back; the hostile
/// line is drawn as its text and its colour, nothing else of it reaching the terminal.
#[test]
fn the_lines_above_come_back_above_the_questions_after_a_shrink_and_a_regrow() {
    if !tmux_available("region") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("q.json"), PREFS).unwrap();
    std::fs::write(dir.path().join("screen.txt"), above_screen()).unwrap();
    std::fs::write(dir.path().join("above.txt"), above_lines().join("\n")).unwrap();
    let socket = format!("pi-ask-region-above-{}", std::process::id());
    let command = format!(
        "cd {} && cat screen.txt && PI_ASK_SCREEN=inline {} q.json --above above.txt --output r.json; sleep 60",
        dir.path().display(),
        env!("CARGO_BIN_EXE_pi-ask")
    );
    tmux_session(&socket, 80, 24, &command);
    let screen = || tmux(&socket, &["capture-pane", "-p", "-t", "t"]);
    let expected: Vec<String> = above_lines()[..20]
        .iter()
        .cloned()
        .chain(["last line".to_string()])
        .collect();
    // From the screen's top to the title: the end of the lines, in order.
    let above_the_questions = |screen: &str| -> Vec<String> {
        let rows: Vec<String> = screen.lines().map(|l| l.trim_end().to_string()).collect();
        let title = rows
            .iter()
            .position(|l| l == "Implementation preferences")
            .unwrap_or_else(|| panic!("no title:\n{screen}"));
        rows[..title].to_vec()
    };
    tmux_wait(&socket, "the first question", |p| p.contains("? keys"));
    let first = screen();
    let shown = above_the_questions(&first);
    assert!(shown.len() >= 10, "{first}");
    assert_eq!(
        shown[..],
        expected[expected.len() - shown.len()..],
        "{first}"
    );
    // Smaller: the alternate screen drops its top rows.
    tmux(
        &socket,
        &["resize-window", "-t", "t", "-x", "80", "-y", "12"],
    );
    tmux_wait(&socket, "the question at 12 rows", |p| {
        p.lines().count() <= 12 && p.contains("? keys")
    });
    std::thread::sleep(std::time::Duration::from_millis(400));
    // Back to its size: the same lines above the questions as at first.
    tmux(
        &socket,
        &["resize-window", "-t", "t", "-x", "80", "-y", "24"],
    );
    std::thread::sleep(std::time::Duration::from_millis(400));
    let again = tmux_wait(&socket, "the lines above again", |p| {
        p.lines()
            .next()
            .is_some_and(|l| l.starts_with("above line"))
    });
    assert_eq!(above_the_questions(&again), shown, "{first}\n{again}");
    // The hostile line: its text in red, no title set, nothing cleared or moved.
    let coloured = tmux(&socket, &["capture-pane", "-p", "-e", "-t", "t"]);
    assert!(
        coloured
            .lines()
            .any(|l| l.starts_with("\x1b[31mlast\x1b[39m line")),
        "{coloured:?}"
    );
    let title = tmux(
        &socket,
        &["display-message", "-p", "-t", "t", "#{pane_title}"],
    );
    assert!(!title.contains("pwned"), "{title}");
    tmux(&socket, &["send-keys", "-t", "t", "C-c"]);
    std::thread::sleep(std::time::Duration::from_millis(300));
    tmux(&socket, &["kill-server"]);
}

#[test]
fn lines_above_that_cannot_be_used_are_one_line_on_stderr_and_full_screen_never_reads_them() {
    let dir = tempfile::tempdir().unwrap();
    let large = dir.path().join("large.txt");
    std::fs::write(&large, "x".repeat(5001)).unwrap();
    for (path, why) in [
        (large, "it is larger than 5000 bytes (--max-payload-bytes)"),
        (dir.path().to_path_buf(), "it is a folder"),
    ] {
        let path = path.to_str().unwrap();
        let args = ["--above", path, "--max-payload-bytes", "5000"];
        let mut s = Session::spawn_with(PREFS, &args, inline(24, 80));
        let screen = s.wait_for("? keys");
        assert_eq!(lines(&screen)[0], "Implementation preferences", "{screen}");
        s.send("\x03");
        assert_eq!(s.finish().0, 130);
        assert_eq!(
            s.stderr(),
            format!("pi-ask: cannot use --above {path}: {why}; going on without it\n")
        );
    }
    let missing = dir.path().join("missing.txt");
    let args = ["--above", missing.to_str().unwrap(), "--screen", "full"];
    let mut s = Session::spawn_with(PREFS, &args, Options::default());
    s.wait_for("? keys");
    s.send("\x03");
    assert_eq!(s.finish().0, 130);
    assert_eq!(s.stderr(), "");
}

/// `seq 40` pasted (`paste-buffer -p`: bracketed) into PostgreSQL's note editor of the database
/// example at 80x24, (the window shrunk to `shrink` while the draft is open,) Enter saves,
/// Enter chooses, Enter submits: the block never leaves the window, nothing of it is left in
/// tmux's history, and the note is exactly what was pasted.
fn a_long_paste_in_a_note(tag: &str, shrink: Option<(u16, u16)>) {
    let Some((socket, dir)) = in_tmux(DATABASE, 80, 24, tag) else {
        return;
    };
    tmux_wait(&socket, "the question", |p| p.contains("? keys"));
    tmux(&socket, &["send-keys", "-t", "t", "n"]);
    tmux_wait(&socket, "the note editor", |p| p.contains("Add a note..."));
    let seq: Vec<String> = (1..=40).map(|i| i.to_string()).collect();
    tmux(&socket, &["set-buffer", &seq.join("\n")]);
    tmux(&socket, &["paste-buffer", "-p", "-t", "t"]);
    let pane = tmux_wait(&socket, "the paste's last rows", |p| p.contains("\n  40"));
    // The paste scrolls in the editor's rows: its last rows under a marker of the rest.
    let block = [
        "before",
        "Note on PostgreSQL · Enter save · Esc close",
        "Which database should the project use?:",
        "> ( ) 1. PostgreSQL",
        "         Full relational database with production tooling.",
        "  ( ) 2. SQLite",
        "         Embedded database with minimal setup.",
        "  ( ) 3. Type your own…",
        "\u{2191} 36 more lines",
        "  37",
        "  38",
        "  39",
        "  40",
    ];
    assert_eq!(lines(&pane), block, "{pane}");
    let history = |socket: &str| tmux(socket, &["display", "-p", "-t", "t", "#{history_size}"]);
    assert_eq!(history(&socket).trim(), "0", "{pane}");
    if let Some((x, y)) = shrink {
        let (x, y) = (x.to_string(), y.to_string());
        tmux(&socket, &["resize-window", "-t", "t", "-x", &x, "-y", &y]);
        std::thread::sleep(std::time::Duration::from_millis(400));
        let pane = tmux(&socket, &["capture-pane", "-p", "-S", "-", "-t", "t"]);
        // Laid out again for the smaller window, within it, the paste's last rows kept. The
        // 13 rows were taller than 12: tmux pushed their top into its history before pi-ask
        // could hear of the resize (at most 2 rows; docs/interactive.md "Placement").
        let shown = lines(&pane);
        assert_eq!(shown.last().map(String::as_str), Some("  40"), "{pane}");
        let pushed: usize = history(&socket).trim().parse().unwrap();
        assert!(pushed <= 2, "{pushed} rows in the history: {pane}");
    }
    // Nothing of the block stays above the transcript (the terminal's cursor at the editing
    // position, on the paste's last row, tmux pushed one row less: the row under the block).
    let result = save_the_note_and_submit_past(&socket, dir.path(), "note: 1↵ 2↵ 3↵", &[]);
    assert_eq!(
        result["details"]["answers"]["database"]["optionNotes"]["postgres"],
        json!(seq.join("\n"))
    );
}

/// Ctrl+_ (undo) right after a paste takes the whole paste back, in one step.
#[test]
fn undo_after_a_paste_takes_the_whole_paste() {
    let Some((socket, dir)) = in_tmux(DATABASE, 80, 24, "paste-undo") else {
        return;
    };
    tmux_wait(&socket, "the question", |p| p.contains("? keys"));
    tmux(&socket, &["send-keys", "-t", "t", "n"]);
    tmux_wait(&socket, "the note editor", |p| p.contains("Add a note..."));
    tmux(&socket, &["send-keys", "-t", "t", "-l", "see: "]);
    let seq: Vec<String> = (1..=40).map(|i| i.to_string()).collect();
    tmux(&socket, &["set-buffer", &seq.join("\n")]);
    tmux(&socket, &["paste-buffer", "-p", "-t", "t"]);
    tmux_wait(&socket, "the paste", |p| p.contains("\n  40"));
    tmux(&socket, &["send-keys", "-t", "t", "C-_"]);
    tmux(&socket, &["send-keys", "-t", "t", "-l", "ok"]);
    tmux_wait(&socket, "the paste undone", |p| p.contains("> see: ok"));
    let result = save_the_note_and_submit(&socket, dir.path(), "note: see: ok");
    assert_eq!(
        result["details"]["answers"]["database"]["optionNotes"]["postgres"],
        json!("see: ok")
    );
}

#[test]
fn a_long_paste_in_a_note_stays_in_the_window_and_is_saved_whole() {
    a_long_paste_in_a_note("paste", None);
}

#[test]
fn a_long_paste_stays_in_the_window_when_it_shrinks_with_the_draft_open() {
    a_long_paste_in_a_note("paste-shrink", Some((80, 12)));
}

#[test]
fn a_long_paste_stays_in_the_window_when_it_narrows_with_the_draft_open() {
    // Narrower too: tmux rewraps a row by the widest text it held unless it was erased from
    // its left ("  ( ) 3. Type your own…" is drawn over the question's 79-column hint line).
    a_long_paste_in_a_note("paste-narrow", Some((60, 12)));
}

/// About 1,500 characters of words typed (`send-keys -l`, in five chunks: keys, not a paste)
/// into PostgreSQL's note editor of the database example at 80x12: the text scrolls in the
/// editor's rows as it is typed; the block stays in the window (nothing goes up into tmux's
/// history), and the note saved is every character typed.
#[test]
fn a_long_typed_note_scrolls_and_keeps_the_block_in_the_window() {
    let Some((socket, dir)) = in_tmux(DATABASE, 80, 12, "typed") else {
        return;
    };
    tmux_wait(&socket, "the question", |p| p.contains("? keys"));
    tmux(&socket, &["send-keys", "-t", "t", "n"]);
    tmux_wait(&socket, "the note editor", |p| p.contains("Add a note..."));
    let words: Vec<String> = (1..400).map(|i| format!("w{i}")).collect();
    let typed = &words.join(" ")[..1500];
    for chunk in typed.as_bytes().chunks(300) {
        let chunk = std::str::from_utf8(chunk).unwrap();
        tmux(&socket, &["send-keys", "-t", "t", "-l", chunk]);
    }
    let tail = |from: usize, to: usize| {
        (from..=to)
            .map(|i| format!("w{i}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let top = [
        "before",
        "Note on PostgreSQL · Enter save · Esc close",
        "Which database should the project use?:",
        "> ( ) 1. PostgreSQL",
        "         Full relational database with production tooling.",
        "  ( ) 2. SQLite",
        "         Embedded database with minimal setup.",
    ];
    // The text scrolls in the editor's rows: its last rows under a marker of the rest.
    let pane = tmux_wait(&socket, "the typed note's tail", |p| {
        lines(p)
            .last()
            .is_some_and(|l| l.ends_with(&format!("{} w32", tail(319, 321))))
    });
    let shown = lines(&pane);
    assert_eq!(shown[..top.len()], top, "{pane}");
    assert!(
        shown[top.len()].starts_with("\u{2191} ") && shown[top.len()].ends_with(" more lines"),
        "{pane}"
    );
    assert_eq!(shown.len(), 11, "{pane}");
    let history = tmux(&socket, &["display", "-p", "-t", "t", "#{history_size}"]);
    // Nothing in the history: the block kept within the window, the shell's `before` too.
    assert_eq!(history.trim(), "0", "{pane}");
    let result = save_the_note_and_submit(&socket, dir.path(), "note: w1 w2 w3");
    assert_eq!(
        result["details"]["answers"]["database"]["optionNotes"]["postgres"],
        json!(typed)
    );
}

/// A tmux server (and a GNU screen session in it) ended when dropped, a failed test too.
struct Ends {
    socket: String,
    screen: Option<String>,
}

impl Drop for Ends {
    fn drop(&mut self) {
        if let Some(name) = &self.screen {
            let _ = std::process::Command::new("screen")
                .args(["-S", name, "-X", "quit"])
                .status();
        }
        tmux(&self.socket, &["kill-server"]);
    }
}

/// In tmux at 80x24, `wrapper` running `sh -c SCRIPT` (`printf 'before\n'`, then pi-ask on the
/// preferences payload), in a folder of its own; `None` without tmux.
fn wrapped_in_tmux(wrapper: &str, tag: &str) -> Option<(String, tempfile::TempDir)> {
    if !tmux_available(tag) {
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("q.json"), PREFS).unwrap();
    let socket = format!("pi-ask-region-{tag}-{}", std::process::id());
    let script = format!(
        "cd {} && printf 'before\\n' && NO_COLOR=1 PI_ASK_SCREEN=inline {} q.json --output r.json; sleep 60",
        dir.path().display(),
        env!("CARGO_BIN_EXE_pi-ask")
    );
    tmux_session(&socket, 80, 24, &format!("{wrapper} sh -c \"{script}\""));
    Some((socket, dir))
}

/// The window becomes `cols` wide (24 rows); waits until the visible rows end with `last`.
fn narrowed_to(socket: &str, cols: u16, last: &str) -> Vec<String> {
    let cols = cols.to_string();
    tmux(
        socket,
        &["resize-window", "-t", "t", "-x", &cols, "-y", "24"],
    );
    let start = std::time::Instant::now();
    loop {
        let shown = visible(socket);
        if shown.last().is_some_and(|l| l == last) {
            return shown;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(5),
            "{}\n-- with the history:\n{}",
            shown.join("\n"),
            tmux(socket, &["capture-pane", "-p", "-S", "-", "-t", "t"])
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

const HINT_80: &str = "↑↓ move · Enter choose · n note · Esc cancel · ^C dismiss · ? keys";
const HINT_60: &str = "↑↓ move · Enter choose · n note · Esc cancel · ? keys";
const HINT_50: &str = "↑↓ move · Enter choose · n note · ? keys";

/// Over ssh only `TERM` comes (here tmux without `TMUX`): a narrower window left the title
/// twice on the screen and in the final transcript (a terminal pi-ask could not name was taken
/// for one that keeps its rows, as xterm does, while tmux, VTE, iTerm2 and the rest rewrap).
#[test]
fn a_narrower_window_over_ssh_leaves_the_title_once() {
    let Some((socket, dir)) = wrapped_in_tmux(
        "env -u TMUX -u TERM_PROGRAM TERM=xterm-256color SSH_CONNECTION='10.0.0.1 5 10.0.0.2 22'",
        "ssh",
    ) else {
        return;
    };
    let _ends = Ends {
        socket: socket.clone(),
        screen: None,
    };
    tmux_wait(&socket, "the first question", |p| p.contains("? keys"));
    narrowed_to(&socket, 60, HINT_60);
    // With the history: tmux may push `before` up, never a second title.
    let pane = tmux(&socket, &["capture-pane", "-p", "-S", "-", "-t", "t"]);
    assert_eq!(
        lines(&pane)[..3],
        [
            "before",
            "Implementation preferences",
            "1/2 Style · How should I frame the next prompt?:"
        ],
        "{pane}"
    );
    tmux(&socket, &["send-keys", "-t", "t", "C-c"]);
    let pane = tmux_wait(&socket, "the transcript", |p| p.contains("Dismissed"));
    assert_eq!(
        lines(&pane),
        [
            "before",
            "Implementation preferences",
            "Style: no answer",
            "Frontend: no answer",
            "✘ Dismissed (Ctrl+C): the answers were not sent"
        ],
        "{pane}"
    );
    drop(dir);
}

/// GNU screen rewraps a narrower window's rows and joins them again when it widens, even
/// under text written over them: 80 to 50 columns left the title twice, and back to 80 a stale
/// hint line under the block.
#[test]
fn gnu_screen_narrower_then_wider_leaves_the_block_once() {
    if !crate::common::screen::screen_available("gnu_screen_narrower_then_wider") {
        return;
    }
    let name = format!("pi-ask-region-screen-{}", std::process::id());
    let Some((socket, dir)) = wrapped_in_tmux(
        &format!("env -u TMUX screen -c /dev/null -S {name}"),
        "screen",
    ) else {
        return;
    };
    let _ends = Ends {
        socket: socket.clone(),
        screen: Some(name),
    };
    tmux_wait(&socket, "the first question", |p| p.contains("? keys"));
    let before = visible(&socket);
    let shown = narrowed_to(&socket, 50, HINT_50);
    assert_eq!(
        shown
            .iter()
            .filter(|l| *l == "Implementation preferences")
            .count(),
        1,
        "{}",
        shown.join("\n")
    );
    let shown = narrowed_to(&socket, 80, HINT_80);
    drop(dir);
    // The block as before, once, with nothing under it (screen may keep `before` in its
    // history: its rewrap took rows).
    let block: Vec<&String> = before.iter().filter(|l| *l != "before").collect();
    assert_eq!(shown.iter().collect::<Vec<_>>(), block);
}

//! The inline placement (the default, docs/interactive.md "Placement") in a pty
//! (tests/common/pty.rs): what stays on the terminal after each ending (the title, one line
//! per question, how it ended, and nothing else), the lines printed before the run, the
//! escape sequences it never writes, small windows, a start on the last row, Ctrl+Z / `fg`,
//! stdout captured by the shell, colour on and off.

use crate::common::pty::{Options, Session, SHELL_PROMPT};
use crate::common::tmux::{tmux, tmux_available, tmux_session, tmux_wait};
use serde_json::json;

const PREFS: &str = include_str!("../examples/implementation-preferences.json");
const DOWN: &str = "\x1b[B";
const ESC: &str = "\x1b";

fn inline(rows: u16, cols: u16) -> Options {
    Options {
        rows,
        cols,
        env: vec![("PI_ASK_SCREEN".into(), "inline".into())],
        ..Options::default()
    }
}

/// The escape sequences an inline run must never write: the alternate screen, clearing the
/// screen, absolute cursor positions, scroll regions, saving and restoring the cursor.
fn forbidden(bytes: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(bytes);
    let mut found = Vec::new();
    let mut rest: &str = &text;
    while let Some(i) = rest.find('\x1b') {
        let seq = &rest[i + 1..];
        if seq.starts_with('7') || seq.starts_with('8') {
            found.push(format!("ESC {}", &seq[..1]));
        }
        if let Some(body) = seq.strip_prefix('[') {
            let end = body
                .find(|c: char| ('\x40'..='\x7e').contains(&c))
                .unwrap_or(body.len().saturating_sub(1));
            let (params, fin) = (&body[..end], body[end..].chars().next().unwrap_or(' '));
            let bad = match fin {
                'H' | 'f' | 'r' | 's' | 'u' => true,
                'J' => params == "2" || params == "3",
                'h' | 'l' => params.contains("1049") || params.contains("47"),
                'A' | 'B' | 'C' | 'D' => params == "0",
                _ => false,
            };
            if bad {
                found.push(format!("ESC[{params}{fin}"));
            }
        }
        rest = &rest[i + 1..];
    }
    found
}

/// The screen's non-empty lines, trailing spaces trimmed.
fn lines(screen: &str) -> Vec<String> {
    screen
        .lines()
        .map(|l| l.trim_end().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

/// Everything the terminal holds after the run: the scrollback, then the screen, non-empty
/// lines only.
fn left_behind(s: &Session) -> Vec<String> {
    let mut everything: Vec<String> = s
        .scrollback()
        .into_iter()
        .filter(|l| !l.is_empty())
        .collect();
    everything.extend(lines(&s.screen()));
    everything
}

/// Opens the custom-text editor of the first question, which has `options` options: Type
/// your own is option `options + 1`, and its digit opens the editor.
fn open_own_answer(s: &mut Session, options: usize) {
    s.send(&(options + 1).to_string());
    s.wait_for("Type your own · ");
}

/// The lines after the one that starts with `marker` (the typed command line).
fn after(screen: &str, marker: &str) -> Vec<String> {
    let all = lines(screen);
    let at = all
        .iter()
        .position(|l| l.starts_with(marker))
        .unwrap_or_else(|| panic!("{marker:?} not on screen:\n{screen}"));
    all[at + 1..].to_vec()
}

#[test]
fn lines_before_the_run_stay_and_a_submit_leaves_only_the_transcript() {
    let mut s = Session::spawn_shell(PREFS, inline(30, 100));
    s.wait_for(SHELL_PROMPT);
    s.send("printf 'one\\ntwo\\n'; pi-ask payload.json --output result.json\r");
    s.wait_for("1/2 Style");
    s.send("2");
    s.wait_for("2/2 Frontend");
    s.send(" ");
    s.wait_for("[x] 1. React");
    s.send("\r");
    s.wait_for("Review answers");
    s.send("\r");
    let screen = s.wait_until("the shell prompt after the transcript", |screen| {
        screen.contains("✔ Submitted") && screen.trim_end().ends_with(SHELL_PROMPT.trim_end())
    });
    assert_eq!(
        after(&screen, "shell$ printf"),
        [
            "one",
            "two",
            "Implementation preferences",
            "Style: Balanced",
            "Frontend: React",
            "✔ Submitted",
            "shell$"
        ],
        "{screen}"
    );
    assert!(s.scrollback().is_empty(), "{:?}", s.scrollback());
    assert_eq!(forbidden(&s.output()), Vec::<String>::new());
    s.send("exit\r");
    let (code, result) = s.finish();
    assert_eq!(code, 0);
    assert_eq!(
        result.unwrap()["details"]["answers"],
        json!({
            "style": {"values": ["balanced"], "labels": ["Balanced"], "indices": [2]},
            "frameworks": {"values": ["react"], "labels": ["React"], "indices": [1]}
        })
    );
}

/// Runs the flow inline, ends it with `end`, and returns the screen's lines after the exit.
fn ended(args: &[&str], end: impl FnOnce(&mut Session)) -> (i32, Vec<String>, Vec<u8>) {
    let mut s = Session::spawn_with(PREFS, args, inline(30, 100));
    // (With --timeout 3 the countdown stands in the block's top line.)
    s.wait_for("1. Minimal");
    s.send("3");
    s.wait_for("1. React");
    end(&mut s);
    let (code, _) = s.finish();
    (code, lines(&s.screen()), s.output())
}

#[test]
fn esc_ctrl_c_sigterm_and_a_timeout_each_leave_the_transcript_and_how_it_ended() {
    let (code, screen, raw) = ended(&[], |s| {
        s.send(ESC);
        s.wait_for("Cancel and discard your answers?");
        s.send(DOWN);
        s.wait_for("> Yes, discard");
        s.send("\r");
    });
    assert_eq!(code, 1);
    assert_eq!(
        screen,
        [
            "Implementation preferences",
            "Style: Rich",
            "Frontend: no answer",
            "✘ Cancelled: the answers were not sent"
        ]
    );
    assert_eq!(forbidden(&raw), Vec::<String>::new());

    let (code, screen, _) = ended(&[], |s| s.send("\x03"));
    assert_eq!(code, 130);
    assert_eq!(
        screen,
        [
            "Implementation preferences",
            "Style: Rich",
            "Frontend: no answer",
            "✘ Dismissed (Ctrl+C): the answers were not sent"
        ]
    );

    let (code, screen, _) = ended(&[], |s| s.signal(libc::SIGTERM));
    assert_eq!(code, 143);
    assert_eq!(
        screen,
        [
            "Implementation preferences",
            "Style: Rich",
            "Frontend: no answer",
            "✘ Aborted by SIGTERM: the answers were not sent"
        ]
    );

    let (code, screen, _) = ended(&["--timeout", "3"], |_| {});
    assert_eq!(code, 124);
    assert_eq!(
        screen,
        [
            "Implementation preferences",
            "Style: Rich",
            "Frontend: no answer",
            "✘ Timed out (no key for 3 seconds): answers kept"
        ]
    );
}

#[test]
fn starting_on_the_last_row_leaves_no_frame_in_the_scrollback() {
    // 10 rows: the blocks are held to 8 rows, so the title and Style's line scroll out of the
    // cursor's reach under the review (in 12 rows the compact blocks leave them in reach).
    let mut s = Session::spawn_shell(PREFS, inline(10, 80));
    s.wait_for(SHELL_PROMPT);
    s.send("seq 1 40; pi-ask payload.json --output result.json\r");
    s.wait_for("1/2 Style");
    s.send(DOWN);
    s.wait_for("> ( ) 2. Balanced");
    s.send("\r");
    s.wait_for("2/2 Frontend");
    s.send("\t");
    s.wait_for("Review answers");
    // Back to the first question from the review (↑ ↑ from Submit, Enter), then the review
    // again.
    s.send("\x1b[A\x1b[A\r");
    s.wait_for("1/2 Style");
    s.send("1");
    s.wait_for("Review answers");
    s.send("\r");
    s.wait_until("the shell prompt after the transcript", |screen| {
        screen.contains("✔ Submitted") && screen.trim_end().ends_with(SHELL_PROMPT.trim_end())
    });
    let everything = left_behind(&s);
    let from = everything
        .iter()
        .rposition(|l| l == "40")
        .expect("the shell's lines");
    let ours: Vec<&str> = everything[from + 1..]
        .iter()
        .map(String::as_str)
        .filter(|l| !l.is_empty())
        .collect();
    // No frame is left. The first transcript lines went out of reach in 10 rows before the
    // first answer changed: the whole final transcript follows them, in question order, so
    // the last lines are the answers once each.
    assert_eq!(
        ours,
        [
            "Implementation preferences",
            "Style: Balanced",
            "Implementation preferences",
            "Style: Minimal",
            "Frontend: no answer",
            "✔ Submitted",
            "shell$"
        ],
        "{everything:#?}"
    );
    assert_eq!(forbidden(&s.output()), Vec::<String>::new());
    s.send("exit\r");
    let (code, _) = s.finish();
    assert_eq!(code, 0);
}

#[test]
fn a_window_of_20x8_pages_inside_the_block_and_leaves_only_the_transcript() {
    let mut s = Session::spawn_with(PREFS, &[], inline(8, 20));
    let first = s.wait_for("1/2 Style");
    assert!(lines(&first).len() <= 7, "{first}");
    s.send("\x1b[6~");
    s.send("\r");
    s.wait_for("2/2 Frontend");
    s.send("\t");
    let review = s.wait_for("Review answers");
    assert!(lines(&review).len() <= 8, "{review}");
    s.send("\r");
    let (code, result) = s.finish();
    assert_eq!(code, 0);
    assert!(result.is_some());
    let screen = lines(&s.screen());
    assert_eq!(
        screen.last().map(String::as_str),
        Some("✔ Submitted"),
        "{screen:?}"
    );
    let mut everything = s.scrollback();
    everything.extend(screen);
    assert!(
        everything
            .iter()
            .all(|l| !l.contains("( )") && !l.contains("move")),
        "{everything:#?}"
    );
    assert_eq!(forbidden(&s.output()), Vec::<String>::new());
}

#[test]
fn ctrl_z_and_fg_twice_erase_and_draw_the_block_again() {
    let mut s = Session::spawn_shell(PREFS, inline(30, 100));
    s.wait_for(SHELL_PROMPT);
    s.send("pi-ask payload.json --output result.json\r");
    s.wait_for("1/2 Style");
    for time in 1..=2 {
        s.send("\x1a");
        let stopped = s.wait_until("stopped", |screen| {
            screen.matches("Stopped").count() == time
        });
        assert!(!stopped.contains("( ) 1. Minimal"), "{stopped}");
        s.send("fg\r");
        s.wait_for("( ) 1. Minimal");
    }
    s.send("1");
    s.wait_for("2/2 Frontend");
    s.send("\t");
    s.wait_for("Review answers");
    s.send("\r");
    let screen = s.wait_until("the transcript", |screen| screen.contains("✔ Submitted"));
    assert!(!screen.contains("( )"), "{screen}");
    assert!(screen.contains("Style: Minimal"), "{screen}");
    s.send("exit\r");
    let (code, _) = s.finish();
    assert_eq!(code, 0);
}

/// After Ctrl+Z and `fg`, the shell's lines separate what the run left before the stop from
/// what comes after: the run ends with its whole final transcript under them, in order.
#[test]
fn after_ctrl_z_and_fg_the_whole_transcript_ends_the_run_in_order() {
    let mut s = Session::spawn_shell(PREFS, inline(30, 100));
    s.wait_for(SHELL_PROMPT);
    s.send("pi-ask payload.json --output result.json\r");
    s.wait_for("1/2 Style");
    s.send("1");
    s.wait_for("2/2 Frontend");
    s.send("\x1a");
    s.wait_until("stopped", |screen| screen.contains("Stopped"));
    s.send("fg\r");
    s.wait_for("2/2 Frontend");
    s.send("\t");
    s.wait_for("Review answers");
    s.send("\r");
    let screen = s.wait_until("the transcript", |screen| screen.contains("✔ Submitted"));
    let lines: Vec<&str> = screen.lines().map(str::trim_end).collect();
    let fg = lines
        .iter()
        .rposition(|l| l.ends_with("fg"))
        .expect("the fg line");
    let after: Vec<&str> = lines[fg + 1..]
        .iter()
        .copied()
        // The shell's own lines: the job it brought back, its next prompt.
        .filter(|l| {
            !l.is_empty()
                && !l.starts_with("pi-ask payload.json")
                && !l.starts_with(SHELL_PROMPT.trim_end())
        })
        .collect();
    assert_eq!(
        after,
        [
            "Implementation preferences",
            "Style: Minimal",
            "Frontend: no answer",
            "\u{2714} Submitted",
        ],
        "{screen}"
    );
    s.send("exit\r");
    let (code, _) = s.finish();
    assert_eq!(code, 0);
}

#[test]
fn stdout_captured_by_the_shell_gets_only_the_result() {
    let mut s = Session::spawn_shell(PREFS, inline(30, 100));
    s.wait_for(SHELL_PROMPT);
    s.send("x=$(pi-ask payload.json); printf '%s' \"$x\" > result.json\r");
    s.wait_for("1/2 Style");
    s.send("1");
    s.wait_for("2/2 Frontend");
    s.send("\t");
    s.wait_for("Review answers");
    s.send("\r");
    let screen = s.wait_until("the transcript", |screen| {
        screen.contains("✔ Submitted") && screen.trim_end().ends_with(SHELL_PROMPT.trim_end())
    });
    assert!(screen.contains("Style: Minimal"), "{screen}");
    s.send("exit\r");
    let (code, result) = s.finish();
    assert_eq!(code, 0);
    assert_eq!(
        result.unwrap()["details"]["answers"]["style"]["values"],
        json!(["minimal"])
    );
}

#[test]
fn colour_on_uses_dialoguers_colorful_theme_and_no_color_the_simple_one() {
    let mut opts = inline(30, 100);
    opts.env_remove.push("NO_COLOR".into());
    let mut s = Session::spawn_with(PREFS, &[], opts);
    let screen = s.wait_for("1/2 Style");
    assert!(screen.contains("❯ ( ) 1. Minimal"), "{screen}");
    assert!(
        screen.contains("? 1/2 Style · How should I frame the next prompt? ›"),
        "{screen}"
    );
    s.send("2");
    s.wait_for("2/2 Frontend");
    s.send("\x03");
    let (code, _) = s.finish();
    assert_eq!(code, 130);
    // Ctrl+C sent nothing: the answer loses its green tick in the transcript left behind.
    assert!(s.screen().contains("- Style · Balanced"), "{}", s.screen());
    assert!(!s.screen().contains("✔ Style"), "{}", s.screen());
    let raw = String::from_utf8_lossy(&s.output()).into_owned();
    assert!(raw.contains("\x1b[32m"), "no colour written");
    assert!(
        raw.contains("\x1b[2m- Style · Balanced"),
        "not dim: {raw:?}"
    );

    let mut s = Session::spawn_with(PREFS, &[], inline(30, 100));
    let screen = s.wait_for("1/2 Style");
    assert!(screen.contains("> ( ) 1. Minimal"), "{screen}");
    s.send("\x03");
    s.finish();
    let raw = String::from_utf8_lossy(&s.output()).into_owned();
    assert!(
        !raw.contains("\x1b[32m") && !raw.contains("\x1b[36m"),
        "colour written"
    );
}

#[test]
fn a_width_shrink_in_tmux_lays_the_block_out_once_on_screen() {
    if !tmux_available("inline") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("q.json"), PREFS).unwrap();
    let socket = format!("pi-ask-inline-{}", std::process::id());
    let command = format!(
        "cd {} && printf 'before\\n' && LANG=C.UTF-8 NO_COLOR=1 PI_ASK_SCREEN=inline {} q.json --output r.json; sleep 60",
        dir.path().display(),
        env!("CARGO_BIN_EXE_pi-ask")
    );
    tmux_session(&socket, 100, 20, &command);
    tmux_wait(&socket, "the first question", |p| {
        p.contains("( ) 1. Minimal")
    });
    // Narrower: tmux rewraps the rows at once; the next frame lays the block out again.
    tmux(
        &socket,
        &["resize-window", "-t", "t", "-x", "40", "-y", "20"],
    );
    std::thread::sleep(std::time::Duration::from_millis(400));
    tmux(&socket, &["send-keys", "-t", "t", "Down"]);
    tmux_wait(&socket, "the highlight on Balanced", |p| {
        p.contains("> ( ) 2. Balanced")
    });
    // tmux keeps the cursor's row when it rewraps, so the rows the block's lines grew by above
    // the cursor go into its history (docs/interactive.md "Placement"); the screen has the
    // block once.
    let pane = tmux(&socket, &["capture-pane", "-p", "-t", "t"]);
    let count = |needle: &str| pane.lines().filter(|l| l.contains(needle)).count();
    assert_eq!(count("1. Minimal"), 1, "{pane}");
    assert_eq!(count("↑↓"), 1, "{pane}");
    tmux(&socket, &["send-keys", "-t", "t", "Enter"]);
    tmux_wait(&socket, "the second question", |p| {
        p.contains("2/2 Frontend")
    });
    tmux(&socket, &["send-keys", "-t", "t", "Tab"]);
    tmux_wait(&socket, "the review", |p| p.contains("Review answers"));
    tmux(&socket, &["send-keys", "-t", "t", "Enter"]);
    tmux_wait(&socket, "the transcript", |p| p.contains("✔ Submitted"));
    // The visible screen (not the history: rows tmux pushed there while rewrapping stay as
    // they were) ends with the transcript, once.
    let screen = tmux(&socket, &["capture-pane", "-p", "-t", "t"]);
    tmux(&socket, &["kill-server"]);
    let ours: Vec<&str> = screen
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty())
        .collect();
    assert!(
        ours.ends_with(&[
            "Implementation preferences",
            "Style: Balanced",
            "Frontend: no answer",
            "✔ Submitted"
        ]) || ours.ends_with(&["Style: Balanced", "Frontend: no answer", "✔ Submitted"]),
        "{screen}"
    );
    assert_eq!(
        ours.iter().filter(|l| l.contains("Balanced")).count(),
        1,
        "{screen}"
    );
}

/// A question whose prompt and options are wider than 70 columns.
const LONG: &str = r#"{"title": "Long labels", "questions": [{"id": "a", "label": "Deployment", "prompt": "Which deployment strategy should the rollout of the new payment service use across all the regions we run in today?", "options": [{"value": "blue", "label": "Blue-green with a full standby fleet kept warm in every region"}, {"value": "canary", "label": "Canary releases starting at one percent of traffic then ramping"}, {"value": "rolling", "label": "Rolling updates one availability zone at a time"}]}]}"#;

/// tmux's width-and-height change at once (100x20 to 70x14) pushes the region's top into its
/// history; the cursor position query tells the region so, and it gives its title up there
/// instead of drawing it again at the screen's top: the title is in tmux's history and on the
/// screen once in all, and the run ends with the answer under it.
#[test]
fn a_width_and_height_change_in_tmux_leaves_the_title_once() {
    if !tmux_available("inline") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("q.json"), LONG).unwrap();
    let socket = format!("pi-ask-inline-wh-{}", std::process::id());
    let command = format!(
        "cd {} && printf 'before\\n' && LANG=C.UTF-8 NO_COLOR=1 PI_ASK_KEY_GRACE=0 PI_ASK_SCREEN=inline {} q.json --output r.json; sleep 60",
        dir.path().display(),
        env!("CARGO_BIN_EXE_pi-ask")
    );
    tmux_session(&socket, 100, 20, &command);
    tmux_wait(&socket, "the question", |p| p.contains("? keys"));
    tmux(
        &socket,
        &["resize-window", "-t", "t", "-x", "70", "-y", "14"],
    );
    // The frame for 70 columns: the option's label is cut to the width, keeping its end.
    tmux_wait(&socket, "the frame for 70 columns", |p| {
        p.contains("full standby … region (v: whole text)")
    });
    tmux(&socket, &["send-keys", "-t", "t", "Enter"]);
    tmux_wait(&socket, "the review", |p| p.contains("Review answers"));
    tmux(&socket, &["send-keys", "-t", "t", "Enter"]);
    let pane = tmux_wait(&socket, "the transcript", |p| p.contains("✔ Submitted"));
    tmux(&socket, &["kill-server"]);
    let ours: Vec<&str> = pane
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(
        ours.iter().filter(|l| **l == "Long labels").count(),
        1,
        "{pane}"
    );
    assert!(
        ours.ends_with(&[
            "Deployment: Blue-green with a full standby fleet kept … every region",
            "✔ Submitted"
        ]),
        "{pane}"
    );
    let answer: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("r.json")).unwrap()).unwrap();
    assert_eq!(
        answer["details"]["answers"]["a"]["values"],
        json!(["blue"]),
        "{answer}"
    );
}

/// GNU screen 4.09 (in a tmux window, so the window can be resized) made narrower and shorter
/// at once (100x20 to 70x14) rewraps the rows, drops the top ones (the title among them) and
/// puts the cursor near the screen's top: the region's top is the screen's top row, and a row
/// deleted there goes into screen's history. Making that row new inserts a row instead, so no
/// copy of the block's rows is left: the title and the answer once each, nothing of the block.
#[test]
fn a_width_and_height_change_in_gnu_screen_leaves_no_copy_of_the_block() {
    use crate::common::screen::screen_available;
    if !tmux_available("inline") || !screen_available("inline") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("q.json"), LONG).unwrap();
    std::fs::write(dir.path().join("screenrc"), "").unwrap();
    let id = std::process::id();
    let (socket, name) = (
        format!("pi-ask-inline-scr-{id}"),
        format!("pi-ask-scr-{id}"),
    );
    // Only GNU screen's own variables: not taken for tmux's.
    let command = format!(
        "cd {dir} && unset TMUX TERM_PROGRAM && printf 'before\\n' && LANG=C.UTF-8 NO_COLOR=1 PI_ASK_KEY_GRACE=0 PI_ASK_SCREEN=inline {bin} q.json --output r.json; sleep 60",
        dir = dir.path().display(),
        bin = env!("CARGO_BIN_EXE_pi-ask")
    );
    let rc = dir.path().join("screenrc");
    let screen = format!(
        "screen -U -c {} -S {name} bash -c \"{command}\"",
        rc.display()
    );
    tmux_session(&socket, 100, 20, &screen);
    let copy = dir.path().join("copy.txt");
    let everything = || {
        let _ = std::fs::remove_file(&copy);
        std::process::Command::new("screen")
            .args(["-S", &name, "-X", "hardcopy", "-h", copy.to_str().unwrap()])
            .status()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(100));
        String::from_utf8_lossy(&std::fs::read(&copy).unwrap_or_default()).into_owned()
    };
    tmux_wait(&socket, "the question", |p| p.contains("? keys"));
    tmux(
        &socket,
        &["resize-window", "-t", "t", "-x", "70", "-y", "14"],
    );
    tmux_wait(&socket, "the frame for 70 columns", |p| {
        p.contains("full standby … region (v: whole text)")
    });
    tmux(&socket, &["send-keys", "-t", "t", "Enter"]);
    tmux_wait(&socket, "the review", |p| p.contains("Review answers"));
    tmux(&socket, &["send-keys", "-t", "t", "Enter"]);
    tmux_wait(&socket, "the transcript", |p| p.contains("✔ Submitted"));
    let text = everything();
    std::process::Command::new("screen")
        .args(["-S", &name, "-X", "quit"])
        .status()
        .unwrap();
    tmux(&socket, &["kill-server"]);
    let ours: Vec<&str> = text
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty())
        .collect();
    // What GNU screen kept (it dropped the rows above the block's last ones, "before" and the
    // title among them), then the final transcript: nothing of the block anywhere. (Its
    // hardcopy keeps one byte of a character that is not ASCII: the ASCII is what counts.)
    assert_eq!(ours.len(), 3, "{text}");
    assert_eq!(ours[0], "Long labels", "{text}");
    assert!(
        ours[1].starts_with("Deployment: Blue-green with a full standby fleet kept ")
            && ours[1].ends_with(" every region"),
        "{text}"
    );
    assert!(ours[2].ends_with(" Submitted"), "{text}");
    let answer: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("r.json")).unwrap()).unwrap();
    assert_eq!(
        answer["details"]["answers"]["a"]["values"],
        json!(["blue"]),
        "{answer}"
    );
}

#[test]
fn a_long_completion_list_stays_inside_the_block_and_leaves_nothing() {
    let tree = tempfile::tempdir().unwrap();
    for i in 0..60 {
        std::fs::write(tree.path().join(format!("note{i:02}.md")), "").unwrap();
    }
    let payload = r#"{"title": "Files", "questions": [{"id": "f", "label": "File", "prompt": "Which file?", "options": [{"value": "none", "label": "None"}]}]}"#;
    let mut opts = inline(14, 60);
    opts.env
        .push(("PI_ASK_INDEX_WAIT_MS".into(), "10000".into()));
    let mut s = Session::spawn_with(payload, &["--cwd", tree.path().to_str().unwrap()], opts);
    s.wait_for("Which file?");
    open_own_answer(&mut s, 1);
    s.send("see @note");
    s.wait_for("> see @note");
    s.send("\t");
    // The best 20 matches, in rustyline's columns, under the editor line.
    let listed = s.wait_for("note03.md  note07.md");
    // The block and the list fit the window: the header is still on screen.
    assert!(listed.contains("Which file?"), "{listed}");
    assert!(lines(&listed).len() <= 14, "{listed}");
    s.send("0");
    s.wait_gone("note03.md  note07.md");
    s.send("7\t");
    s.wait_for("> see @note07.md ");
    s.send("\r");
    s.wait_for("Review answers");
    s.send("\r");
    let (code, result) = s.finish();
    assert_eq!(code, 0);
    assert_eq!(
        result.unwrap()["details"]["answers"]["f"]["customText"],
        json!("see @note07.md")
    );
    let everything = left_behind(&s);
    let ours: Vec<&str> = everything.iter().map(String::as_str).collect();
    assert_eq!(
        ours,
        ["Files", "File: “see @note07.md”", "✔ Submitted"],
        "{everything:#?}"
    );
    assert_eq!(forbidden(&s.output()), Vec::<String>::new());
}

#[test]
fn gnu_screen_with_its_default_settings_keeps_only_the_transcript_in_its_scrollback() {
    use crate::common::screen::{screen_available, Screen};
    if !screen_available("inline") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("q.json"), PREFS).unwrap();
    let name = format!("pi-ask-inline-{}", std::process::id());
    let command = format!(
        "cd {} && seq 1 40 && LANG=C.UTF-8 NO_COLOR=1 PI_ASK_SCREEN=inline {} q.json --output r.json; sleep 60",
        dir.path().display(),
        env!("CARGO_BIN_EXE_pi-ask")
    );
    let screen = Screen::start(&name, dir.path(), true, &[], &["bash", "-c", &command]);
    let wait = |what: &str, ok: &dyn Fn(&str) -> bool| -> String { screen.wait(what, true, ok) };
    wait("the first question", &|t| t.contains("( ) 1. Minimal"));
    screen.stuff("2");
    wait("the second question", &|t| t.contains("2/2 Frontend"));
    screen.stuff(" ");
    wait("a tick", &|t| t.contains("[x] 1. React"));
    screen.stuff("\r");
    wait("the review", &|t| t.contains("Review answers"));
    // ↑ ↑ from Submit: question 1's row; Enter re-opens it.
    screen.stuff("\x1b[A\x1b[A\r");
    wait("the first question again", &|t| {
        t.lines().any(|l| l.starts_with("1/2 Style")) && !t.contains("Review answers")
    });
    screen.stuff("\r");
    wait("the review again", &|t| t.contains("Review answers"));
    screen.stuff("\r");
    let text = wait("the transcript", &|t| t.contains(" Submitted"));
    screen.quit();
    let ours: Vec<&str> = text
        .lines()
        .map(str::trim_end)
        .skip_while(|l| *l != "40")
        .skip(1)
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(
        ours[..3],
        [
            "Implementation preferences",
            "Style: Balanced",
            "Frontend: React"
        ],
        "{text}"
    );
    assert!(ours.len() == 4 && ours[3].ends_with(" Submitted"), "{text}");
    // No blank screens: nothing but the shell's lines before ours.
    let blank_run = text
        .lines()
        .collect::<Vec<_>>()
        .windows(3)
        .position(|w| w.iter().all(|l| l.trim().is_empty()));
    let before_ours = text.find("Implementation preferences").unwrap();
    assert!(
        blank_run
            .is_none_or(|i| text.lines().take(i).map(|l| l.len() + 1).sum::<usize>() > before_ours),
        "{text}"
    );
}

#[test]
fn a_multi_line_paste_and_the_countdown_in_an_editor_keep_the_block_in_place() {
    let mut s = Session::spawn_with(PREFS, &["--timeout", "4"], inline(16, 60));
    s.wait_for("1. Minimal");
    // "Type your own…": four rows down (three options, then the action rows).
    open_own_answer(&mut s, 3);
    s.send("\x1b[200~first line\nsecond line\nthird\x1b[201~");
    s.wait_for("third");
    // No key now: the countdown runs in the block's top line, then the flow times out with
    // the draft saved.
    s.wait_for("Closing in");
    let (code, result) = s.finish();
    assert_eq!(code, 124);
    assert_eq!(
        result.unwrap()["details"]["answers"]["style"]["customText"],
        json!("first line\nsecond line\nthird")
    );
    let everything = left_behind(&s);
    let ours: Vec<&str> = everything.iter().map(String::as_str).collect();
    assert_eq!(
        ours,
        [
            "Implementation preferences",
            "Style: “first line↵ second line↵ third”",
            "Frontend: no answer",
            "✘ Timed out (no key for 4 seconds): answers kept"
        ],
        "{everything:#?}"
    );
    assert_eq!(forbidden(&s.output()), Vec::<String>::new());
}

#[test]
fn the_peek_shows_the_context_inside_the_block_or_says_where_the_message_is() {
    let dir = tempfile::tempdir().unwrap();
    let context = dir.path().join("context.txt");
    std::fs::write(&context, "I need two answers before I change the schema.").unwrap();
    let mut s = Session::spawn_with(
        PREFS,
        &["--context", context.to_str().unwrap()],
        inline(20, 80),
    );
    s.wait_for("1. Minimal");
    s.send("\x1d");
    let peek = s.wait_for("I need two answers before I change the schema.");
    assert!(
        peek.contains("The agent's message \u{b7} lines 1-1 of 1"),
        "{peek}"
    );
    assert!(!peek.contains("1. Minimal"), "{peek}");
    s.send("x");
    s.wait_for("1. Minimal");
    s.send("\x03");
    let (code, _) = s.finish();
    assert_eq!(code, 130);
    assert!(!s.screen().contains("schema"), "{}", s.screen());

    let mut s = Session::spawn_with(PREFS, &[], inline(20, 80));
    s.wait_for("1. Minimal");
    s.send("\x1d");
    s.wait_for("No context was given");
    s.send("x");
    s.wait_for("1. Minimal");
    s.send("\x03");
    s.finish();
    assert_eq!(forbidden(&s.output()), Vec::<String>::new());
}

#[test]
fn a_timeout_in_an_editor_and_ctrl_z_in_an_editor_keep_the_lines_before_the_run() {
    // The timeout gives the editor up with its line never ended: the end frame starts on it.
    let mut s = Session::spawn_shell(PREFS, inline(24, 80));
    s.wait_for(SHELL_PROMPT);
    s.send("seq 1 100; pi-ask payload.json --output result.json --timeout 3\r");
    s.wait_for("1. Minimal");
    s.send("1");
    s.wait_for("1. React");
    s.send("N");
    s.wait_for("Note on this question");
    s.send("x");
    s.wait_until("the transcript", |screen| {
        screen.contains("Timed out") && screen.trim_end().ends_with(SHELL_PROMPT.trim_end())
    });
    let everything = left_behind(&s);
    let at = everything
        .iter()
        .position(|l| l == "100")
        .expect("100 is kept");
    assert_eq!(
        everything[at..at + 5],
        [
            "100",
            "Implementation preferences",
            "Style: Minimal",
            "Frontend: no answer (+ note)",
            "✘ Timed out (no key for 3 seconds): answers kept"
        ],
        "{everything:#?}"
    );
    s.send("exit\r");
    assert_eq!(s.finish().0, 124);

    // Ctrl+Z in an editor erases the block like Ctrl+Z at a question; `fg` opens the editor
    // again with its draft under the shell's lines.
    let mut s = Session::spawn_shell(PREFS, inline(24, 80));
    s.wait_for(SHELL_PROMPT);
    s.send("seq 1 100; pi-ask payload.json --output result.json\r");
    s.wait_for("1. Minimal");
    s.send("N");
    s.wait_for("Note on this question");
    s.send("why");
    s.wait_for("> why");
    s.send("\x1a");
    let stopped = s.wait_for("Stopped");
    assert!(!stopped.contains("Enter save"), "{stopped}");
    assert!(!stopped.contains("1. Minimal"), "{stopped}");
    s.send("fg\r");
    s.wait_for("> why");
    s.send("\r");
    s.wait_for("↑↓ move");
    s.send("\t");
    s.wait_for("2/2 Frontend");
    s.send("\t");
    s.wait_for("Review answers");
    s.send("\r");
    s.wait_until("the transcript", |screen| {
        screen.contains("✔ Submitted") && screen.trim_end().ends_with(SHELL_PROMPT.trim_end())
    });
    let everything = left_behind(&s);
    assert!(
        everything
            .iter()
            .all(|l| !l.contains("Enter save") && !l.contains("1. Minimal")),
        "{everything:#?}"
    );
    assert!(everything.contains(&"100".to_string()), "{everything:#?}");
    assert!(
        everything.contains(&"Style: no answer (+ note)".to_string()),
        "{everything:#?}"
    );
    s.send("exit\r");
    assert_eq!(s.finish().0, 0);
}

#[test]
fn hostile_file_names_never_reach_the_terminal_raw_when_completed() {
    let tree = tempfile::tempdir().unwrap();
    let names = [
        "notes\u{1b}]52;c;cHduZWQ=\u{7}\u{1b}]2;PWNED\u{7}.txt",
        "notes\u{1b}[2Jclear.txt",
        "notes\u{9b}31mc1\u{202e}.txt",
    ];
    for name in names {
        std::fs::write(tree.path().join(name), "").unwrap();
    }
    let payload = r#"{"questions": [{"id": "f", "label": "File", "prompt": "Which file?", "options": [{"value": "none", "label": "None"}]}]}"#;
    let mut opts = inline(24, 100);
    opts.env
        .push(("PI_ASK_INDEX_WAIT_MS".into(), "10000".into()));
    let mut s = Session::spawn_with(payload, &["--cwd", tree.path().to_str().unwrap()], opts);
    s.wait_for("Which file?");
    open_own_answer(&mut s, 1);
    // The list: each name escaped.
    s.send("@notes");
    s.wait_for("> @notes");
    s.send("\t");
    s.wait_for("\\e]52;c;cHduZWQ=");
    // One candidate: inserted as the file's real name, drawn without its controls.
    s.send("clear\t");
    s.wait_for("clear.txt");
    s.send("\r");
    s.wait_for("Review answers");
    s.send("\r");
    let (code, result) = s.finish();
    assert_eq!(code, 0);
    assert_eq!(
        result.unwrap()["details"]["answers"]["f"]["customText"],
        json!("@notes\u{1b}[2Jclear.txt")
    );
    let raw = String::from_utf8_lossy(&s.output()).into_owned();
    for bad in ["\u{1b}]52", "\u{1b}]2;", "\u{1b}[2J", "\u{9b}", "\u{202e}"] {
        if let Some(i) = raw.find(bad) {
            panic!(
                "{bad:?} reached the terminal: {:?}",
                &raw[raw[..i].char_indices().rev().nth(120).map_or(0, |(j, _)| j)
                    ..(i + 20).min(raw.len())]
            );
        }
    }
}

#[test]
fn a_stop_from_outside_then_fg_puts_raw_mode_back_and_draws_the_block_again() {
    let mut s = Session::spawn_shell(PREFS, inline(30, 100));
    s.wait_for(SHELL_PROMPT);
    s.send("pi-ask payload.json --output result.json\r");
    s.wait_for("1. Minimal");
    let child = std::process::Command::new("pgrep")
        .args(["-P", &s.pid().to_string(), "pi-ask"])
        .output()
        .expect("pgrep runs");
    let pid: i32 = String::from_utf8_lossy(&child.stdout)
        .trim()
        .parse()
        .expect("the pi-ask under the shell");
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(pid),
        nix::sys::signal::Signal::SIGSTOP,
    )
    .expect("SIGSTOP");
    s.wait_for("Stopped");
    s.send("fg\r");
    s.wait_until("the block again under fg", |screen| {
        // Only once `fg` is on the screen: the block from before the stop is above it.
        screen
            .rsplit_once("shell$ fg")
            .is_some_and(|(_, after)| after.contains("1. Minimal"))
    });
    // One key, no Enter: raw mode is back.
    s.send("2");
    s.wait_for("2/2 Frontend");
    s.send("\x03");
    s.wait_until("the transcript", |screen| {
        screen.contains("Dismissed (Ctrl+C)")
    });
    s.send("exit\r");
    assert_eq!(s.finish().0, 130);
}

#[test]
fn a_pasted_control_character_is_drawn_escaped_and_kept_in_the_answer() {
    let mut s = Session::spawn_with(PREFS, &["--no-bell"], inline(24, 100));
    s.wait_for("1. Minimal");
    open_own_answer(&mut s, 3);
    s.send("\x1b[200~bell\u{7} csi\u{9b}31m bs\u{8} del\u{7f} rtl\u{202e}end\x1b[201~");
    // A control character is drawn as a visible escape (`text::for_terminal`); the C1 CSI
    // starts a sequence, dropped with its final byte.
    s.wait_for("bell\\x07 csi bs\\x08 del\\x7f rtl\\u{202e}end");
    s.send("\r");
    s.wait_for("2/2 Frontend");
    s.send("\t");
    s.wait_for("Review answers");
    s.send("\r");
    let (code, result) = s.finish();
    assert_eq!(code, 0);
    // The paste's own bytes are kept, but the sequence.
    assert_eq!(
        result.unwrap()["details"]["answers"]["style"]["customText"],
        json!("bell\u{7} csi bs\u{8} del\u{7f} rtl\u{202e}end")
    );
    let raw = String::from_utf8_lossy(&s.output()).into_owned();
    for bad in ['\u{7}', '\u{9b}', '\u{8}', '\u{7f}', '\u{202e}'] {
        assert!(!raw.contains(bad), "{bad:?} reached the terminal");
    }
}

/// An elaborate ending leaves what the person asked, one line per note, in place of the
/// answer lines of the questions with notes (docs/interactive.md "Placement"): nothing reads
/// like a submit.
#[test]
fn an_elaborate_ending_leaves_one_line_per_note_asked() {
    let mut s = Session::spawn_with(PREFS, &[], inline(30, 100));
    s.wait_for("1. Minimal");
    s.send("n");
    s.wait_all(&[
        "Note on Minimal · Enter save · Esc close",
        "\n> Add a note...",
    ]);
    s.send("too terse?");
    s.wait_for("\n> too terse?");
    s.send("\r");
    s.wait_for("note: too terse?");
    s.send("3");
    s.wait_for("1. React");
    s.send("N");
    s.wait_all(&["Note on this question · Enter save", "\n> Add a note..."]);
    s.send("which ones count?");
    s.wait_for("\n> which ones count?");
    s.send("\r");
    s.wait_for("Note: which ones count?");
    s.send("\r");
    s.wait_for("> 1. Submit");
    s.send(DOWN);
    s.wait_for("> 2. Elaborate");
    s.send("\r");
    let (code, result) = s.finish();
    assert_eq!(code, 0);
    assert_eq!(result.unwrap()["details"]["mode"], json!("elaborate"));
    assert_eq!(
        lines(&s.screen()),
        [
            "Implementation preferences",
            "? Style · asked about Minimal: too terse?",
            "? Frontend · asked: which ones count?",
            "✔ Elaboration requested"
        ]
    );
    assert_eq!(forbidden(&s.output()), Vec::<String>::new());
}

/// A cursor position report already in the input when the window shrinks (xterm's Shift+F3
/// is `ESC[1;2R`; here `ESC[2;1R`, "row 2", sent with the resize) is not the answer to the
/// query after the resize: the block is drawn once, under the shell's lines, not a second
/// time below a first copy left at the row the fake report named. Whether the report comes
/// before the query or while it is out depends on timing; the unit tests
/// `a_cursor_report_waiting_before_the_query_is_not_its_answer` (src/keys) and
/// `a_told_row_the_resize_cannot_give_is_no_answer` (the region) hold each case every time.
#[test]
fn a_cursor_report_waiting_with_a_resize_is_not_the_answer() {
    if !tmux_available("inline") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("q.json"), PREFS).unwrap();
    let socket = format!("pi-ask-inline-cpr-{}", std::process::id());
    let command = format!(
        "cd {} && for i in $(seq 1 20); do echo shell line $i; done && LANG=C.UTF-8 NO_COLOR=1 PI_ASK_KEY_GRACE=0 PI_ASK_SCREEN=inline {} q.json --output r.json; sleep 60",
        dir.path().display(),
        env!("CARGO_BIN_EXE_pi-ask")
    );
    tmux_session(&socket, 100, 30, &command);
    tmux_wait(&socket, "the question", |p| p.contains("? keys"));
    tmux(
        &socket,
        &[
            "resize-window",
            "-t",
            "t",
            "-x",
            "100",
            "-y",
            "26",
            ";",
            "send-keys",
            "-t",
            "t",
            "-H",
            "1b",
            "5b",
            "32",
            "3b",
            "31",
            "52",
        ],
    );
    // A key after the resize: its frame is drawn once the resize's is.
    tmux(&socket, &["send-keys", "-t", "t", "Down"]);
    let pane = tmux_wait(&socket, "the frame after Down", |p| {
        p.contains("> ( ) 2. Balanced")
    });
    tmux(&socket, &["send-keys", "-t", "t", "Escape"]);
    tmux(&socket, &["kill-server"]);
    let count = |what: &str| pane.lines().filter(|l| l.contains(what)).count();
    assert_eq!(count("1. Minimal"), 1, "{pane}");
    assert_eq!(count("shell line 20"), 1, "{pane}");
    assert_eq!(count("? keys"), 1, "{pane}");
}

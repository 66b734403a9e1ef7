//! The bottom text layer in real terminals (src/text/): widths as tmux counts them, in the
//! editor too (rustyline's `WcWidth` mode), and the ASCII look of a terminal whose locale is
//! not UTF-8 (a pty under `LC_ALL=C`, GNU screen under `LANG=C`).

use serde_json::json;
use std::process::Command;
use std::time::{Duration, Instant};

/// Whether `program` runs; in CI it must (.ci/run installs tmux and GNU screen).
fn installed(program: &str, version_flag: &str) -> bool {
    if Command::new(program).arg(version_flag).output().is_ok() {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "{program} is needed in CI"
    );
    eprintln!("text: {program} is not installed: its test is skipped");
    false
}

/// Runs `tmux -L socket ARGS` (no configuration file) and returns its stdout.
fn tmux(socket: &str, args: &[&str]) -> String {
    let out = Command::new("tmux")
        .args(["-L", socket, "-f", "/dev/null"])
        .args(args)
        .output()
        .expect("tmux runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Polls `probe` until `ok` holds of what it returns (15 s at most).
fn wait_until(what: &str, probe: impl Fn() -> String, ok: impl Fn(&str) -> bool) -> String {
    let start = Instant::now();
    loop {
        let text = probe();
        if ok(&text) {
            return text;
        }
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "timed out waiting for {what}:\n{text}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A text-only question (yishan's format, no options): its editor opens at once.
fn text_only_payload() -> String {
    json!({"question": "What should the release be called?"}).to_string()
}

#[test]
fn the_editor_places_its_cursor_where_tmux_draws_wide_graphemes() {
    if !installed("tmux", "-V") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("q.json"), text_only_payload()).unwrap();
    let socket = format!("pi-ask-text-{}", std::process::id());
    let command = format!(
        "cd {} && LANG=C.UTF-8 NO_COLOR=1 PI_ASK_SCREEN=inline {} q.json --output r.json; sleep 60",
        dir.path().display(),
        env!("CARGO_BIN_EXE_pi-ask")
    );
    tmux(
        &socket,
        &[
            "-u",
            "new-session",
            "-d",
            "-x",
            "80",
            "-y",
            "20",
            "-s",
            "t",
            &command,
        ],
    );
    let pane = || tmux(&socket, &["capture-pane", "-p", "-t", "t"]);
    let cursor = || {
        tmux(
            &socket,
            &["display-message", "-p", "-t", "t", "#{cursor_x}"],
        )
    };
    wait_until("the question", pane, |p| {
        p.contains("What should the release be called?")
    });
    std::thread::sleep(Duration::from_millis(300));
    // 👍🏽 is four columns in tmux; the editor must count four too, or its redraw after an
    // insert in the middle puts the cursor two columns short.
    tmux(
        &socket,
        &["send-keys", "-t", "t", "-l", "\u{1f44d}\u{1f3fd}ab"],
    );
    wait_until("the typed text", pane, |p| {
        p.contains("\u{1f44d}\u{1f3fd}ab")
    });
    tmux(&socket, &["send-keys", "-t", "t", "Left"]);
    tmux(&socket, &["send-keys", "-t", "t", "-l", "X"]);
    let shown = wait_until("the insert", pane, |p| p.contains("\u{1f44d}\u{1f3fd}aXb"));
    let line = shown
        .lines()
        .find(|l| l.contains("aXb"))
        .unwrap()
        .to_string();
    // "> " then 4 + 2 columns: the cursor sits on the `b`.
    let x = wait_until("the cursor", cursor, |x| x.trim() == "8");
    tmux(&socket, &["kill-server"]);
    assert_eq!(line.trim_end(), "> \u{1f44d}\u{1f3fd}aXb", "{shown}");
    assert_eq!(x.trim(), "8");
}

#[test]
fn wide_graphemes_in_a_description_never_break_the_redraw_in_tmux() {
    if !installed("tmux", "-V") {
        return;
    }
    // Each of these is wider in tmux than its Unicode width (text::width's figures): a row
    // counted narrower than tmux draws it wraps, and every redraw after it lands a row off.
    let wide = "\u{1f44d}\u{1f3fd}\u{3164}\u{ffa0}\u{ad}\u{231a}\u{fe0e}".repeat(12);
    let payload = json!({"questions": [
        {"id": "pick", "prompt": "Pick a letter", "options": [
            {"value": "a", "label": "Alpha", "description": format!("first {wide}")},
            {"value": "b", "label": "Beta", "description": format!("second {wide}")},
            {"value": "c", "label": "Gamma"}]}]});
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("q.json"), payload.to_string()).unwrap();
    let socket = format!("pi-ask-text-rows-{}", std::process::id());
    let command = format!(
        "cd {} && LANG=C.UTF-8 NO_COLOR=1 PI_ASK_SCREEN=inline {} q.json --output r.json; sleep 60",
        dir.path().display(),
        env!("CARGO_BIN_EXE_pi-ask")
    );
    tmux(
        &socket,
        &[
            "-u",
            "new-session",
            "-d",
            "-x",
            "60",
            "-y",
            "24",
            "-s",
            "t",
            &command,
        ],
    );
    let history = || tmux(&socket, &["capture-pane", "-p", "-S", "-", "-t", "t"]);
    wait_until("the question", history, |p| p.contains("Gamma"));
    for key in ["Down", "Down", "Up", "Down"] {
        tmux(&socket, &["send-keys", "-t", "t", key]);
        std::thread::sleep(Duration::from_millis(150));
    }
    let pane = wait_until("the redraws", history, |p| p.contains("Gamma"));
    tmux(&socket, &["kill-server"]);
    for label in ["Alpha", "Beta", "Gamma"] {
        let rows = pane.lines().filter(|l| l.contains(label)).count();
        assert_eq!(rows, 1, "{label} on {rows} rows:\n{pane}");
    }
}

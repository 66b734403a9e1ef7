//! The bottom text layer in real terminals (src/text/): widths as tmux counts them, in the
//! editor too (rustyline's `WcWidth` mode), and the ASCII look of a terminal whose locale is
//! not UTF-8 (a pty under `LC_ALL=C`, GNU screen under `LANG=C`).

use serde_json::json;
use std::process::Command;
use std::time::{Duration, Instant};

/// Runs `tmux -L socket ARGS` (no configuration file) and returns its stdout.
fn tmux(socket: &str, args: &[&str]) -> String {
    let out = Command::new("tmux")
        .env("PI_ASK_KEY_GRACE", "0")
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

/// Starts pi-ask on `payload` (inline, no colour, a UTF-8 locale) in a new tmux server
/// `socket`, in a window of `cols` x `rows` named `t`; returns the folder it runs in.
fn pi_ask_in_tmux(socket: &str, payload: &str, cols: u16, rows: u16) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("q.json"), payload).unwrap();
    let command = format!(
        "cd {} && LANG=C.UTF-8 NO_COLOR=1 PI_ASK_SCREEN=inline {} q.json --output r.json; sleep 60",
        dir.path().display(),
        env!("CARGO_BIN_EXE_pi-ask")
    );
    let (cols, rows) = (cols.to_string(), rows.to_string());
    tmux(
        socket,
        &[
            "-u",
            "new-session",
            "-d",
            "-x",
            &cols,
            "-y",
            &rows,
            "-s",
            "t",
            &command,
        ],
    );
    dir
}

/// A text-only question (yishan's format, no options): its editor opens at once.
fn text_only_payload() -> String {
    json!({"question": "What should the release be called?"}).to_string()
}

#[test]
fn the_editor_draws_its_cursor_where_tmux_draws_wide_graphemes() {
    if !crate::common::installed("tmux", "-V", "text") {
        return;
    }
    let socket = format!("pi-ask-text-{}", std::process::id());
    let _dir = pi_ask_in_tmux(&socket, &text_only_payload(), 80, 20);
    let pane = || tmux(&socket, &["capture-pane", "-p", "-t", "t"]);
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
    // The terminal's own cursor sits on the `b` (put at the editing position, where input
    // methods and screen readers follow it), no reverse-video cell drawn: 2 columns of the
    // prompt, 4 of 👍🏽, 2 of `aX`.
    let row = shown
        .lines()
        .position(|l| l.contains("aXb"))
        .unwrap()
        .to_string();
    let at = || {
        tmux(
            &socket,
            &[
                "display-message",
                "-p",
                "-t",
                "t",
                "#{cursor_x},#{cursor_y}",
            ],
        )
    };
    let start = std::time::Instant::now();
    let mut x = at();
    while x.trim() != format!("8,{row}") && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(50));
        x = at();
    }
    let styled = tmux(&socket, &["capture-pane", "-p", "-e", "-t", "t"]);
    tmux(&socket, &["kill-server"]);
    assert_eq!(line.trim_end(), "> \u{1f44d}\u{1f3fd}aXb", "{shown}");
    assert_eq!(x.trim(), format!("8,{row}"), "{shown}");
    assert!(!styled.contains("\x1b[7m"), "{styled:?}");
}

#[test]
fn wide_graphemes_in_a_description_never_break_the_redraw_in_tmux() {
    if !crate::common::installed("tmux", "-V", "text") {
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
    let socket = format!("pi-ask-text-rows-{}", std::process::id());
    let _dir = pi_ask_in_tmux(&socket, &payload.to_string(), 60, 24);
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

/// A payload whose text is not ASCII: an accented letter, CJK, an arrow, and U+06DB (UTF-8
/// DB 9B: CSI to an 8-bit terminal).
fn non_ascii_payload() -> String {
    json!({"title": "R\u{e9}sum\u{e9} \u{2192} plan", "questions": [
        {"id": "drink", "label": "Boisson", "prompt": "Caf\u{e9} ou th\u{e9}?",
         "options": [
            {"value": "cafe", "label": "Caf\u{e9}", "description": "\u{65e5}\u{672c} \u{6db} \u{2014} fort"},
            {"value": "the", "label": "Th\u{e9} \u{2192} vert"}]},
        {"id": "extra", "label": "Extras", "prompt": "Na\u{ef}ve extras", "type": "multi",
         "options": [{"value": "milk", "label": "Lait \u{2714}"}, {"value": "sugar", "label": "Sucre"}]}]})
    .to_string()
}

#[test]
fn a_c_locale_gets_ascii_only_payload_text_escaped_and_the_answers_kept() {
    use crate::common::pty::{Options, Session};
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pi-ask"));
    let dir = tempfile::tempdir().unwrap();
    let payload = dir.path().join("payload.json");
    std::fs::write(&payload, non_ascii_payload()).unwrap();
    // No --output: the result JSON is written to the terminal too.
    cmd.arg(&payload).args(["--screen", "inline"]);
    let opts = Options {
        env: vec![("LC_ALL".into(), "C".into())],
        stderr_to_pty: true,
        ..Options::default()
    };
    let output = dir.path().join("none.json");
    let mut s = Session::spawn_command(cmd, dir, output, opts);
    // Payload text is escaped, pi-ask's own glyphs are ASCII.
    let screen = s.wait_all(&["Caf\\u{e9} ou th\\u{e9}?", "Th\\u{e9} -> vert"]);
    assert!(screen.contains("R\\u{e9}sum\\u{e9} -> plan"), "{screen}");
    // Punctuation in its ASCII spelling.
    assert!(
        screen.contains("\\u{65e5}\\u{672c} \\u{6db} -- fort"),
        "{screen}"
    );
    assert!(screen.contains("( ) 1. Caf\\u{e9}"), "{screen}");
    // The note editor on the first option: a typed `é` is drawn as `?` and kept.
    s.send("n");
    s.wait_for("Note on Caf\\u{e9}");
    std::thread::sleep(Duration::from_millis(200));
    s.send("tr\u{e8}s bien");
    s.wait_for("> tr?s bien");
    s.send("\r");
    s.wait_gone("> tr?s bien");
    s.send("1");
    s.wait_for("Na\\u{ef}ve extras");
    s.send(" ");
    s.wait_for("[x] 1. Lait +");
    s.send("\t");
    s.wait_for("Review answers");
    s.send("\r");
    let (code, _) = s.finish();
    assert_eq!(code, 0);
    let raw = s.output();
    let high: Vec<(usize, u8)> = raw
        .iter()
        .copied()
        .enumerate()
        .filter(|(_, b)| *b >= 0x80)
        .collect();
    assert!(
        high.is_empty(),
        "{} bytes from 0x80 up, first at {:?}: {}",
        high.len(),
        high.first(),
        String::from_utf8_lossy(&raw)
    );
    // The result on the terminal: ASCII JSON escapes, the same strings.
    let text = String::from_utf8_lossy(&raw).replace("\r\n", "\n");
    let at = text
        .rfind("{\n  \"content\"")
        .expect("the result on the terminal");
    let result: serde_json::Value = serde_json::Deserializer::from_str(&text[at..])
        .into_iter()
        .next()
        .unwrap()
        .unwrap();
    let answers = &result["details"]["answers"];
    assert_eq!(answers["drink"]["labels"], json!(["Caf\u{e9}"]));
    assert_eq!(
        answers["drink"]["optionNotes"],
        json!({"cafe": "tr\u{e8}s bien"})
    );
    assert_eq!(answers["extra"]["labels"], json!(["Lait \u{2714}"]));
}

#[test]
fn gnu_screen_under_lang_c_shows_a_single_select_questions_options() {
    use crate::common::screen::{screen_available, Screen};
    if !screen_available("text") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("q.json"), non_ascii_payload()).unwrap();
    let name = format!("pi-ask-text-{}", std::process::id());
    let command = format!(
        "cd {} && NO_COLOR=1 PI_ASK_SCREEN=inline {} q.json --output r.json; sleep 60",
        dir.path().display(),
        env!("CARGO_BIN_EXE_pi-ask")
    );
    // screen in the C locale, without -U: an 8-bit terminal.
    let screen = Screen::start(
        &name,
        dir.path(),
        false,
        &[("LANG", "C")],
        &["bash", "-c", &command],
    );
    let hardcopy = || screen.hardcopy(false);
    let shown = wait_until("the question", hardcopy, |t| {
        t.contains("Caf\\u{e9} ou th\\u{e9}?")
    });
    let shown = if shown.contains("Th\\u{e9} -> vert") {
        shown
    } else {
        wait_until("the options", hardcopy, |t| t.contains("Th\\u{e9} -> vert"))
    };
    screen.stuff("2");
    let next = wait_until("the second question", hardcopy, |t| {
        t.contains("Na\\u{ef}ve extras")
    });
    screen.quit();
    for option in ["1. Caf\\u{e9}", "2. Th\\u{e9} -> vert"] {
        assert_eq!(
            shown.lines().filter(|l| l.contains(option)).count(),
            1,
            "{option}:\n{shown}"
        );
    }
    assert!(
        next.contains("1. Lait +") && next.contains("2. Sucre"),
        "{next}"
    );
}

#[test]
fn a_label_of_a_million_zero_width_spaces_is_cut_on_every_redraw() {
    use crate::common::pty::{Options, Session};
    // 3.9 MB of no width: every line drawn is cut by bytes as well as columns.
    let label = format!("Alpha{}", "\u{200b}".repeat(1_300_000));
    let payload = json!({"questions": [{"id": "pick", "prompt": "Pick one", "options": [
        {"value": "a", "label": label}, {"value": "b", "label": "Beta"}]}]})
    .to_string();
    let mut s = Session::spawn_with(
        &payload,
        &[],
        Options {
            env: vec![("PI_ASK_SCREEN".into(), "inline".into())],
            ..Options::default()
        },
    );
    s.wait_all(&["Pick one", "Beta"]);
    for key in ["\x1b[B", "\x1b[A", "\x1b[B", "\x1b[A"] {
        s.send(key);
        std::thread::sleep(Duration::from_millis(100));
    }
    s.send("\x1b[B");
    s.wait_for("> ( ) 2. Beta");
    s.send("\r");
    s.wait_for("Review answers");
    s.send("\r");
    let (code, result) = s.finish();
    assert_eq!(code, 0);
    assert_eq!(
        result.unwrap()["details"]["answers"]["pick"]["values"],
        json!(["b"])
    );
    // Five keys and the ending: a few screens' worth of bytes, not megabytes.
    let written = s.output().len();
    assert!(written < 200_000, "{written} bytes written");
}

#[test]
fn plain_mode_and_messages_in_a_c_locale_are_ascii_too() {
    use crate::common::pty::{Options, Session};
    let payload = json!({"questions": [{"id": "drink", "label": "Boisson",
        "prompt": "Caf\u{e9} \u{2192} th\u{e9}?", "options": [
            {"value": "cafe", "label": "Caf\u{e9}", "description": "\u{6db} \u{201d}"},
            {"value": "the", "label": "Th\u{e9}"}]}]})
    .to_string();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("payload.json");
    std::fs::write(&path, payload).unwrap();
    let output = dir.path().join("result.json");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pi-ask"));
    cmd.arg(&path).arg("--output").arg(&output);
    let opts = Options {
        env: vec![
            ("LC_ALL".into(), "C".into()),
            ("TERM".into(), "dumb".into()),
        ],
        stderr_to_pty: true,
        ..Options::default()
    };
    let mut s = Session::spawn_command(cmd, dir, output, opts);
    s.expect("Caf\\u{e9} -> th\\u{e9}?");
    s.expect("1/1> ");
    s.send("1\r");
    s.expect("review> ");
    s.send("\r");
    let status = s.wait_eof();
    assert_eq!(status.code(), Some(0));
    let raw = s.output();
    assert!(
        raw.iter().all(|b| *b < 0x80),
        "{}",
        String::from_utf8_lossy(&raw)
    );
    let text = String::from_utf8_lossy(&raw);
    assert!(text.contains("\\u{6db} \""), "{text}");
    // A message on stderr names a path as ASCII.
    let out = Command::new(env!("CARGO_BIN_EXE_pi-ask"))
        .arg("caf\u{e9}-\u{6db}.json")
        .env("LC_ALL", "C")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        out.stderr.iter().all(|b| *b < 0x80),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("caf\\u{e9}-\\u{6db}.json"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `pi-ask validate --json` run in a pty under `env`: its exit code and what reached the
/// terminal (the report, its `\r\n` made `\n`).
fn validate_json_on_a_terminal(payload: &str, env: Vec<(String, String)>) -> (i32, Vec<u8>) {
    use crate::common::pty::{Options, Session};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("payload.json");
    std::fs::write(&path, payload).unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pi-ask"));
    cmd.args(["validate", "--json"]).arg(&path);
    let opts = Options {
        env,
        stderr_to_pty: true,
        ..Options::default()
    };
    let output = dir.path().join("none.json");
    let mut s = Session::spawn_command(cmd, dir, output, opts);
    let status = s.wait_eof();
    let text = String::from_utf8_lossy(&s.output()).replace("\r\n", "\n");
    (status.code().unwrap_or(-1), text.into_bytes())
}

#[test]
fn validate_json_on_a_terminal_runs_no_c1_control_and_no_bidi_override_of_the_payload() {
    // U+009D (OSC as a C1 control) and U+202E (right-to-left override) in a label: the
    // report on a terminal escapes them, as the result does (src/output.rs).
    let label = "x\u{9d}0;PWNED\u{7} \u{202e}txt.exe Caf\u{e9}";
    let payload = json!({"questions": [{"id": "q", "prompt": "Pick",
        "options": [{"value": "a", "label": label}]}]})
    .to_string();
    let (code, raw) = validate_json_on_a_terminal(&payload, Vec::new());
    assert_eq!(code, 0);
    let text = String::from_utf8(raw).unwrap();
    assert!(!text.contains(['\u{9d}', '\u{202e}']), "{text}");
    assert!(
        text.contains(r"x\u009d0;PWNED\u0007 \u202etxt.exe Café"),
        "{text}"
    );
    let report: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        report["payload"]["questions"][0]["options"][0]["label"],
        label
    );
    // Under a C locale: ASCII only, the same strings.
    let (code, raw) = validate_json_on_a_terminal(&payload, vec![("LC_ALL".into(), "C".into())]);
    assert_eq!(code, 0);
    assert!(
        raw.iter().all(|b| *b < 0x80),
        "{}",
        String::from_utf8_lossy(&raw)
    );
    let report: serde_json::Value = serde_json::from_slice(&raw).unwrap();
    assert_eq!(
        report["payload"]["questions"][0]["options"][0]["label"],
        label
    );
}

#[test]
fn no_locale_at_all_draws_the_payloads_text_as_it_is() {
    use crate::common::pty::{Options, Session};
    // `docker exec -it` in an image with no locale: `env -i TERM=xterm pi-ask q.json`.
    let dir = tempfile::tempdir().unwrap();
    let payload = json!({"questions": [{"id": "lang", "label": "\u{65e5}\u{672c}\u{8a9e}",
        "prompt": "\u{3069}\u{308c}\u{306b}\u{3057}\u{307e}\u{3059}\u{304b}?", "options": [
            {"value": "ja", "label": "\u{65e5}\u{672c}\u{8a9e}"},
            {"value": "ar", "label": "\u{645}\u{631}\u{62d}\u{628}\u{627}"}]}]})
    .to_string();
    std::fs::write(dir.path().join("q.json"), payload).unwrap();
    let output = dir.path().join("r.json");
    let mut cmd = Command::new("env");
    cmd.args(["-i", "TERM=xterm", "PI_ASK_KEY_GRACE=0"])
        .arg(env!("CARGO_BIN_EXE_pi-ask"))
        .arg(dir.path().join("q.json"))
        .arg("--output")
        .arg(&output);
    let mut s = Session::spawn_command(cmd, dir, output, Options::default());
    let screen = s.wait_all(&[
        "\u{3069}\u{308c}\u{306b}\u{3057}\u{307e}\u{3059}\u{304b}?",
        "1. \u{65e5}\u{672c}\u{8a9e}",
        "2. \u{645}\u{631}\u{62d}\u{628}\u{627}",
    ]);
    assert!(!screen.contains("\\u{"), "{screen}");
    s.send("2");
    s.wait_for("Review answers");
    s.send("\r");
    let (code, result) = s.finish();
    assert_eq!(code, 0);
    assert_eq!(
        result.unwrap()["details"]["answers"]["lang"]["values"],
        json!(["ar"])
    );
    // The transcript left behind is readable too.
    let text = s.output_text();
    assert!(
        text.contains("\u{645}\u{631}\u{62d}\u{628}\u{627}") && !text.contains("\\u{"),
        "{text}"
    );
}

#[test]
fn gnu_screen_under_lc_all_c_gets_no_c1_byte() {
    use crate::common::screen::{screen_available, Screen};
    if !screen_available("text") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("q.json"), non_ascii_payload()).unwrap();
    let name = format!("pi-ask-text-lcall-{}", std::process::id());
    // screen under LC_ALL=C, without -U: an 8-bit terminal. What pi-ask writes is kept too
    // (`script` between them), to read its bytes.
    let command = format!(
        "cd {} && NO_COLOR=1 PI_ASK_SCREEN=inline script -qfec '{} q.json --output r.json' raw.txt; sleep 60",
        dir.path().display(),
        env!("CARGO_BIN_EXE_pi-ask")
    );
    let screen = Screen::start(
        &name,
        dir.path(),
        false,
        &[("LC_ALL", "C")],
        &["bash", "-c", &command],
    );
    let shown = screen.wait("the question", false, |t| {
        t.contains("Caf\\u{e9} ou th\\u{e9}?") && t.contains("Th\\u{e9} -> vert")
    });
    screen.stuff("2");
    screen.wait("the second question", false, |t| {
        t.contains("Na\\u{ef}ve extras")
    });
    screen.quit();
    assert!(shown.contains("( ) 1. Caf\\u{e9}"), "{shown}");
    let raw = std::fs::read(dir.path().join("raw.txt")).unwrap();
    let c1: Vec<u8> = raw
        .iter()
        .copied()
        .filter(|b| (0x80..=0x9f).contains(b))
        .collect();
    assert!(c1.is_empty(), "{c1:?}: {}", String::from_utf8_lossy(&raw));
    assert!(String::from_utf8_lossy(&raw).contains("Na\\u{ef}ve extras"));
}

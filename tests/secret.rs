//! Secret answers (`"secret": true`, docs/contract.md "What pi-ask adds"): typed and pasted in
//! the terminal's editor, in plain mode, kept out of every byte written to the terminal and of
//! tmux's scrollback, and carried by the result.

use crate::common::pty::{Options, Session};
use crate::common::tmux::{tmux, tmux_available, tmux_session, tmux_wait};
use serde_json::{json, Value};

/// Six bullets: how a secret answer is shown.
const SHOWN: &str = "\u{2022}\u{2022}\u{2022}\u{2022}\u{2022}\u{2022}";

/// A secret question (one option, Type your own second) and an ordinary one.
fn payload() -> Value {
    json!({"title": "Access", "questions": [
        {"id": "token", "label": "Token", "prompt": "Your API token?", "secret": true,
         "options": [{"value": "skip", "label": "Skip for now"}]},
        {"id": "env", "label": "Env", "prompt": "Which environment?",
         "options": [{"value": "dev", "label": "Dev"}, {"value": "prod", "label": "Prod"}]}]})
}

/// The text typed, then pasted, and the answer they make.
const TYPED: &str = "hunter2-typed";
const PASTED: &str = "-pasted-tail";

fn assert_absent(what: &str, text: &str) {
    for part in ["hunter2", "pasted-tail"] {
        assert!(!text.contains(part), "{part:?} in {what}:\n{text}");
    }
}

fn assert_carried(result: &Value) {
    let answer = format!("{TYPED}{PASTED}");
    assert_eq!(
        result["details"]["answers"]["token"]["customText"],
        json!(answer)
    );
    let content = result["content"][0]["text"].as_str().unwrap();
    assert!(content.contains(&answer), "{content}");
}

#[test]
fn a_secret_typed_and_pasted_inline_is_masked_everywhere_and_in_the_result() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("editor-ran");
    let opts = Options {
        env: vec![
            ("PI_ASK_SCREEN".into(), "inline".into()),
            ("EDITOR".into(), format!("touch {}", marker.display())),
        ],
        ..Options::default()
    };
    let mut s = Session::spawn_with(&payload().to_string(), &[], opts);
    // A secret question not yet answered opens its masked editor at once, under its list.
    s.wait_for("1. Skip for now");
    let screen = s.wait_for("Type your own · ");
    // No external editor for a secret: it would write the text to a file.
    assert!(!screen.contains("Ctrl+G"), "{screen}");
    s.send(TYPED);
    s.wait_for(&format!("> {}", "\u{2022}".repeat(TYPED.len())));
    s.send("\x07");
    s.send(&format!("\x1b[200~{PASTED}\x1b[201~"));
    let all = TYPED.len() + PASTED.len();
    s.wait_for(&format!("> {}", "\u{2022}".repeat(all)));
    s.send("\r");
    s.wait_for("2/2 Env");
    s.send("1");
    let review = s.wait_for("Review answers");
    assert!(review.contains(SHOWN), "{review}");
    s.send("\r");
    let (code, result) = s.finish();
    assert_eq!(code, 0);
    assert_carried(&result.unwrap());
    assert_absent("the terminal's bytes", &s.output_text());
    let screen = s.screen();
    assert!(screen.contains(&format!("Token: {SHOWN}")), "{screen}");
    assert!(!marker.exists(), "the external editor ran");
}

#[test]
fn a_secret_leaves_nothing_in_tmux_scrollback() {
    if !tmux_available("secret") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("q.json"), payload().to_string()).unwrap();
    let socket = format!("pi-ask-secret-{}", std::process::id());
    let command = format!(
        "cd {} && LANG=C.UTF-8 NO_COLOR=1 PI_ASK_SCREEN=inline {} q.json --output r.json; sleep 60",
        dir.path().display(),
        env!("CARGO_BIN_EXE_pi-ask")
    );
    tmux_session(&socket, 80, 24, &command);
    tmux_wait(&socket, "the first question", |p| {
        p.contains("1. Skip for now")
    });
    tmux_wait(&socket, "the editor", |p| p.contains("Type your own · "));
    tmux(&socket, &["send-keys", "-t", "t", "-l", TYPED]);
    let typed = "\u{2022}".repeat(TYPED.len());
    tmux_wait(&socket, "the masked text", |p| p.contains(&typed));
    // A paste, as tmux pastes a buffer into a program that asked for bracketed paste.
    tmux(&socket, &["set-buffer", "-b", "secret", "--", PASTED]);
    tmux(&socket, &["paste-buffer", "-p", "-b", "secret", "-t", "t"]);
    let all = "\u{2022}".repeat(TYPED.len() + PASTED.len());
    tmux_wait(&socket, "the masked paste", |p| p.contains(&all));
    tmux(&socket, &["send-keys", "-t", "t", "Enter"]);
    tmux_wait(&socket, "the second question", |p| p.contains("2/2 Env"));
    tmux(&socket, &["send-keys", "-t", "t", "1"]);
    tmux_wait(&socket, "the review", |p| p.contains("Review answers"));
    tmux(&socket, &["send-keys", "-t", "t", "Enter"]);
    let pane = tmux_wait(&socket, "the transcript", |p| p.contains("✔ Submitted"));
    // The result file is written as the run ends, after its last line.
    let written = tmux_wait(&socket, "the result file", |_| {
        dir.path().join("r.json").exists()
    });
    tmux(&socket, &["kill-server"]);
    assert_absent("tmux's history", &pane);
    assert_absent("tmux's history", &written);
    assert!(pane.contains(&format!("Token: {SHOWN}")), "{pane}");
    let result: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("r.json")).unwrap()).unwrap();
    assert_carried(&result);
}

#[test]
fn plain_mode_reads_a_secret_without_echo_and_echoes_again_after() {
    let opts = Options {
        stderr_to_pty: true,
        ..Options::default()
    };
    let mut s = Session::spawn_with(&payload().to_string(), &["--plain"], opts);
    s.expect("What you type for this question is not shown.");
    s.expect("1/2> ");
    assert!(!s.cooked(), "the echo is on at a secret question");
    s.send("2\r");
    s.expect("Type your own> ");
    s.send(&format!("{TYPED}{PASTED}\r"));
    s.expect(&format!("Saved: {SHOWN}"));
    s.expect("2/2> ");
    // The next question's lines are echoed again.
    assert!(s.cooked(), "the echo stays off after the secret question");
    s.send("1\r");
    s.expect("review> ");
    s.send("\r");
    let (code, result) = s.finish();
    assert_eq!(code, 0);
    assert_carried(&result.unwrap());
    assert_absent("the terminal's bytes", &s.output_text());
}

/// Plain mode at a secret question, its echo off, ended from outside: a signal, Ctrl+C, end of
/// input or the timeout; every ending puts the echo back.
#[test]
fn plain_mode_puts_the_echo_back_on_every_ending() {
    type End = fn(&mut Session);
    let endings: [(&str, &[&str], End, i32); 4] = [
        ("SIGTERM", &[], |s| s.signal(15), 143),
        ("Ctrl+C", &[], |s| s.send("\x03"), 130),
        ("Ctrl+D", &[], |s| s.send("\x04"), 1),
        ("--timeout", &["--timeout", "2"], |_| {}, 124),
    ];
    for (what, args, end, expected) in endings {
        let mut args = args.to_vec();
        args.push("--plain");
        let mut s = Session::spawn_with(&payload().to_string(), &args, Options::default());
        s.expect("1/2> ");
        assert!(!s.cooked(), "{what}: the echo is on at a secret question");
        end(&mut s);
        let (code, _) = s.finish();
        assert_eq!(code, expected, "{what}: {}", s.output_text());
        assert!(s.cooked(), "{what}: the echo was not put back");
    }
}

/// On a terminal whose locale is not UTF-8 the mask is `*`, and the answer `******`.
#[test]
fn on_an_ascii_terminal_a_secret_is_masked_with_stars() {
    let opts = Options {
        env: vec![
            ("PI_ASK_SCREEN".into(), "inline".into()),
            ("LANG".into(), "C".into()),
        ],
        ..Options::default()
    };
    let mut s = Session::spawn_with(&payload().to_string(), &[], opts);
    s.wait_for("1. Skip for now");
    s.wait_for("Type your own - ");
    s.send(TYPED);
    s.wait_for(&format!("> {}", "*".repeat(TYPED.len())));
    s.send(&format!("\x1b[200~{PASTED}\x1b[201~\r"));
    s.wait_for("2/2 Env");
    s.send("1");
    s.wait_for("Review answers");
    s.send("\r");
    let (code, result) = s.finish();
    assert_eq!(code, 0);
    assert_carried(&result.unwrap());
    assert_absent("the terminal's bytes", &s.output_text());
    assert!(
        !s.output().iter().any(|&b| b >= 0x80),
        "a byte from 0x80 up was written"
    );
    let screen = s.screen();
    assert!(screen.contains("Token: ******"), "{screen}");
}

#[test]
fn a_secret_question_may_have_no_options_and_its_editor_opens_at_once() {
    // A token has nothing to choose: `options: []` is a text-only secret question (any other
    // question still needs an option: `no_options`). The editor is open at once, masked.
    let payload = json!({"questions": [
        {"id": "token", "label": "Token", "prompt": "Your API token?", "secret": true,
         "options": []}]});
    let opts = Options {
        env: vec![("PI_ASK_SCREEN".into(), "inline".into())],
        ..Options::default()
    };
    let mut s = Session::spawn_with(&payload.to_string(), &[], opts);
    s.wait_for("Your API token?");
    s.send(TYPED);
    s.wait_for(&format!("> {}", "\u{2022}".repeat(TYPED.len())));
    s.send("\r");
    s.wait_for("Review answers");
    s.send("\r");
    let (code, result) = s.finish();
    assert_eq!(code, 0);
    let result = result.unwrap();
    assert_eq!(
        result["details"]["answers"]["token"],
        json!({"values": [TYPED], "labels": [TYPED], "indices": [], "customText": TYPED})
    );
    assert_absent("the terminal's bytes", &s.output_text());
}

/// A token typed at once at a secret question (by hand or a password manager's auto-type) goes
/// into its masked editor, open at once: `npm_…` is no note, its letters no filter (both are
/// drawn in clear). Back at the list (Esc), a letter no key has and a paste open the masked
/// editor again, never the filter; with the editor empty ↑ reaches the options.
#[test]
fn a_token_typed_or_pasted_at_a_secret_question_only_ever_goes_to_its_masked_editor() {
    let opts = || Options {
        env: vec![("PI_ASK_SCREEN".into(), "inline".into())],
        ..Options::default()
    };
    let bullets = |n: usize| format!("> {}", "\u{2022}".repeat(n));
    let mut s = Session::spawn_with(&payload().to_string(), &[], opts());
    s.wait_for("Type your own · ");
    s.send("npm_hunter2");
    s.wait_for(&bullets(11));
    // Esc keeps the draft and shows the list, where no character is a key: `x`, `n` (a
    // note elsewhere) and `1` (option 1 elsewhere), each typed alone, are the secret's, and
    // a secret typed again starts afresh (never added to a draft nobody can see).
    let list = "\u{2191}\u{2193} move \u{b7} Enter choose \u{b7} Esc cancel";
    for typed in ["x", "n", "1"] {
        s.send("\x1b");
        s.wait_for(list);
        s.send(typed);
        s.wait_for(&bullets(1));
    }
    s.send("\x1b");
    s.wait_for(list);
    s.send(&format!("\x1b[200~{PASTED}\x1b[201~"));
    s.wait_for(&bullets(PASTED.len()));
    s.send("Z");
    s.wait_for(&bullets(PASTED.len() + 1));
    s.send("\r");
    s.wait_for("2/2 Env");
    s.send("1");
    s.wait_for("Review answers");
    s.send("\r");
    let (code, result) = s.finish();
    assert_eq!(code, 0);
    let result = result.unwrap();
    assert_eq!(
        result["details"]["answers"]["token"]["customText"],
        json!(format!("{PASTED}Z"))
    );
    assert_eq!(
        result["details"]["answers"]["token"].get("optionNotes"),
        None
    );
    assert_absent("the terminal's bytes", &s.output_text());

    // With the editor empty, ↑ goes to the options: the first is chosen with Enter.
    let mut s = Session::spawn_with(&payload().to_string(), &[], opts());
    s.wait_for("Type your own · ");
    s.send("\x1b[A");
    s.wait_for("Enter choose");
    s.send("\r");
    s.wait_for("2/2 Env");
    s.send("\x03");
    s.finish();
}

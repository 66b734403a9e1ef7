//! Command-line habits people bring from gum, fzf and git: a mistyped subcommand is named, a
//! duration takes a unit, an environment variable's bad value is reported by its name and
//! only where the command uses it, `/` filters at a question.

use crate::common::pty::{Options, Session};
use assert_cmd::Command;
use predicates::prelude::*;

const PREFS: &str = include_str!("../examples/implementation-preferences.json");

fn pi_ask(dir: &std::path::Path) -> Command {
    let mut cmd = Command::cargo_bin("pi-ask").unwrap();
    cmd.current_dir(dir)
        .env_remove("PI_ASK_TIMEOUT")
        .env_remove("PI_ASK_SCREEN")
        .env_remove("PI_ASK_ANSWERS");
    cmd
}

fn payload_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("q.json"), PREFS).unwrap();
    dir
}

#[test]
fn a_mistyped_subcommand_is_named_and_version_points_to_the_flag() {
    let dir = payload_dir();
    pi_ask(dir.path())
        .args(["valdiate", "q.json"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(
            "there is no file named valdiate and no such subcommand: did you mean `pi-ask validate`?",
        ));
    pi_ask(dir.path())
        .arg("version")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("run `pi-ask --version`"));
    // A file of that name is a payload, as always.
    std::fs::write(dir.path().join("valdiate"), PREFS).unwrap();
    pi_ask(dir.path())
        .args(["valdiate", "--no-input"])
        .assert()
        .code(3);
}

#[test]
fn cwd_must_be_a_folder() {
    let dir = payload_dir();
    pi_ask(dir.path())
        .args(["q.json", "--no-input", "--cwd", "nope"])
        .assert()
        .code(2)
        .stdout("")
        .stderr("pi-ask: --cwd \"nope\": No such file or directory\n");
    pi_ask(dir.path())
        .args(["q.json", "--no-input", "--cwd", "q.json"])
        .assert()
        .code(2)
        .stdout("")
        .stderr("pi-ask: --cwd \"q.json\": it is not a folder\n");
    pi_ask(dir.path())
        .args(["q.json", "--no-input", "--cwd", "."])
        .assert()
        .code(3);
}

#[test]
fn a_timeout_takes_seconds_or_a_duration() {
    let dir = payload_dir();
    for timeout in ["30s", "2m", "1.5", "500ms", "1m30s"] {
        pi_ask(dir.path())
            .args(["q.json", "--no-input", "--timeout", timeout])
            .assert()
            .code(3);
    }
    pi_ask(dir.path())
        .args(["q.json", "--timeout", "30x"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("30x"));
}

#[test]
fn an_environment_variable_is_named_and_read_only_where_it_is_used() {
    let dir = payload_dir();
    // validate has no use for them.
    pi_ask(dir.path())
        .args(["validate", "q.json"])
        .env("PI_ASK_TIMEOUT", "abc")
        .env("PI_ASK_SCREEN", "sideways")
        .assert()
        .code(0);
    pi_ask(dir.path())
        .args(["q.json", "--no-input"])
        .env("PI_ASK_TIMEOUT", "abc")
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::starts_with(
            "pi-ask: PI_ASK_TIMEOUT=\"abc\" cannot be used: ",
        ));
    pi_ask(dir.path())
        .args(["q.json", "--no-input"])
        .env("PI_ASK_SCREEN", "sideways")
        .assert()
        .code(2)
        .stderr("pi-ask: PI_ASK_SCREEN=\"sideways\" cannot be used: it is inline or full\n");
    // A value with an escape is quoted once, in the notation of everything pi-ask draws.
    pi_ask(dir.path())
        .args(["q.json", "--no-input"])
        .env("PI_ASK_TIMEOUT", "a\x1bb")
        .assert()
        .code(2)
        .stderr(
            "pi-ask: PI_ASK_TIMEOUT=\"a\\eb\" cannot be used: \"a\\eb\" is not a number of \
             seconds or a duration such as 30s or 2m (0: no timeout)\n",
        );
    // The command line wins over the variable.
    pi_ask(dir.path())
        .args(["q.json", "--no-input", "--timeout", "5"])
        .env("PI_ASK_TIMEOUT", "abc")
        .assert()
        .code(3);
    pi_ask(dir.path())
        .args(["q.json", "--no-input", "--timeout", "30s"])
        .env("PI_ASK_TIMEOUT", "2m")
        .assert()
        .code(3);
}

#[test]
fn pi_ask_plain_chooses_plain_mode() {
    let mut s = Session::spawn_with(
        PREFS,
        &[],
        Options {
            env: vec![("PI_ASK_PLAIN".into(), "1".into())],
            ..Options::default()
        },
    );
    s.expect("1/2 Style");
    s.expect("1/2> ");
    s.send("\x03");
    let (code, _) = s.finish();
    assert_eq!(code, 130);
    let raw = String::from_utf8_lossy(&s.output()).into_owned();
    assert!(
        !raw.contains("\x1b["),
        "plain mode wrote an escape sequence"
    );
}

#[test]
fn slash_at_a_question_opens_the_filter() {
    let mut s = Session::spawn_with(
        PREFS,
        &[],
        Options {
            env: vec![("PI_ASK_SCREEN".into(), "inline".into())],
            ..Options::default()
        },
    );
    s.wait_for("1. Minimal");
    s.send("/");
    s.wait_for("Filter options by label");
    s.send("rich\r");
    s.wait_for("Filter “rich”: 1 of 3 options (Esc clears)");
    // Esc clears the filter, the highlight kept on Rich; nothing is cancelled.
    s.send("\x1b");
    let screen = s.wait_until("the filter cleared", |screen| !screen.contains("Filter “"));
    assert!(screen.contains("> ( ) 3. Rich"), "{screen}");
    assert!(screen.contains("1. Minimal"), "{screen}");
    s.send("/");
    s.wait_for("Filter options by label");
    s.send("rich\r");
    s.wait_for("Filter “rich”: 1 of 3 options");
    s.send("\r");
    s.wait_for("2/2 Frontend");
    s.send("\x03");
    let (code, _) = s.finish();
    assert_eq!(code, 130);
}

#[test]
fn escape_delay_sets_how_long_an_esc_waits() {
    let mut s = Session::spawn_with(PREFS, &["--escape-delay", "600"], Options::default());
    s.wait_for("> ( ) 1. Minimal");
    // The arrow's bytes 200 ms apart: one Down with 600 ms, an Esc (cancel) with the default.
    s.send_split("\x1b[B", std::time::Duration::from_millis(200));
    s.wait_for("> ( ) 2. Balanced");
    s.send("\x03");
    assert_eq!(s.finish().0, 130);
}

#[test]
fn a_setting_that_is_not_utf8_is_named_and_refused() {
    use std::os::unix::ffi::OsStrExt;
    let dir = payload_dir();
    let bytes = std::ffi::OsStr::from_bytes(b"30\xff");
    for name in [
        "PI_ASK_TIMEOUT",
        "PI_ASK_SCREEN",
        "PI_ASK_PLAIN",
        "PI_ASK_MAX_PAYLOAD_BYTES",
    ] {
        pi_ask(dir.path())
            .args(["q.json", "--no-input"])
            .env(name, bytes)
            .assert()
            .code(2)
            .stdout("")
            .stderr(format!(
                "pi-ask: {name}=\"30\u{fffd}\" cannot be used: it is not UTF-8 text\n"
            ));
    }
    // validate has no use for them; the command line wins.
    pi_ask(dir.path())
        .args(["validate", "q.json"])
        .env("PI_ASK_TIMEOUT", bytes)
        .assert()
        .code(0);
    pi_ask(dir.path())
        .args(["q.json", "--no-input", "--timeout", "5"])
        .env("PI_ASK_TIMEOUT", bytes)
        .assert()
        .code(3);
}

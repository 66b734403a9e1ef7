//! Shared helpers for integration tests. `pty`: drive the real binary in a pseudo-terminal;
//! `tmux`: real tmux; `screen`: real GNU screen.
//! [`say`]: one line to the person running the tests, past the test harness's capture.

pub mod pty;
pub mod screen;
pub mod tmux;

use std::io::Write;

/// Writes `line` to the real stderr, where `cargo test` shows it even for a passing test
/// (`println!` and `eprintln!` in a test are captured and shown only on failure).
pub fn say(line: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// Whether `program` runs (`program version_flag`); without it a test is skipped (`who` says
/// which, on stderr), and in CI (`CI` set) it fails instead: `.ci/run` installs what the tests
/// drive (tmux, GNU screen).
pub fn installed(program: &str, version_flag: &str, who: &str) -> bool {
    if std::process::Command::new(program)
        .arg(version_flag)
        .output()
        .is_ok()
    {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "{program} is needed in CI"
    );
    eprintln!("{who}: {program} is not installed: the test is skipped");
    false
}

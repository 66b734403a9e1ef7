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

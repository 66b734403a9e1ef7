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

/// Waits (up to 15 s) until process `pid` handles `signal` (its bit in `SigCgt` of
/// `/proc/PID/status`): a signal sent before then would end it by the default action, not
/// through pi-ask's own ending. Panics when it never does.
pub fn wait_until_handled(pid: u32, signal: i32) {
    let bit = 1u64 << (signal - 1);
    let start = std::time::Instant::now();
    loop {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        let caught = status
            .lines()
            .find_map(|l| l.strip_prefix("SigCgt:"))
            .and_then(|hex| u64::from_str_radix(hex.trim(), 16).ok());
        if caught.is_some_and(|mask| mask & bit != 0) {
            return;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(15),
            "process {pid} never handled signal {signal}"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// Sends `signal` (`libc::SIGTERM`, ...) to process `pid`, or to process group `-pid` when
/// `pid` is negative (as kill(2)); panics when it cannot be sent.
pub fn send_signal(pid: i32, signal: i32) {
    let signal = nix::sys::signal::Signal::try_from(signal).expect("a signal number");
    let sent = if pid < 0 {
        nix::sys::signal::killpg(nix::unistd::Pid::from_raw(-pid), signal)
    } else {
        nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), signal)
    };
    sent.expect("kill");
}

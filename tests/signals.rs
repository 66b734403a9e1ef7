//! Signals at every phase (docs/exit-codes.md "Signals"): SIGTERM, SIGHUP, SIGQUIT and SIGINT
//! end the run with a result from the first instruction, while the payload is still being
//! read; SIGUSR1, SIGUSR2 and SIGALRM are ignored; a terminal that goes away while stdout and
//! stderr are that terminal ends the run, never hangs it.

use crate::common::pty::{Options, Session};
use serde_json::Value;
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const PREFS: &str = include_str!("../examples/implementation-preferences.json");

fn send(pid: u32, signal: nix::sys::signal::Signal) {
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid as i32), signal).expect("kill");
}

/// Runs `pi-ask -` reading a pipe that never writes, sends `signal` once it is waiting, and
/// returns the exit code and the result on stdout.
fn signalled_while_reading(signal: nix::sys::signal::Signal) -> (i32, Value) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pi-ask"))
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("pi-ask runs");
    // The write end stays open and silent: pi-ask waits for the payload.
    let _silent = child.stdin.take();
    std::thread::sleep(Duration::from_millis(300));
    send(child.id(), signal);
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    let status = child.wait().unwrap();
    let code = status
        .code()
        .expect("an exit code, not death by the signal");
    (
        code,
        serde_json::from_str(&out).expect("a result on stdout"),
    )
}

#[test]
fn terminating_signals_while_the_payload_is_read_give_a_result() {
    use nix::sys::signal::Signal;
    for (signal, code, error) in [
        (Signal::SIGTERM, 143, Some("aborted")),
        (Signal::SIGHUP, 129, Some("aborted")),
        (Signal::SIGQUIT, 131, Some("aborted")),
        (Signal::SIGINT, 130, None),
    ] {
        let (got, result) = signalled_while_reading(signal);
        assert_eq!(got, code, "{signal:?}");
        assert_eq!(result["details"]["cancelled"], true, "{signal:?}");
        assert_eq!(
            result["details"]["questions"],
            serde_json::json!([]),
            "{signal:?}"
        );
        assert_eq!(
            result["details"]["error"]["code"].as_str(),
            error,
            "{signal:?}: {result}"
        );
    }
}

#[test]
fn usr1_usr2_and_alrm_are_ignored_while_asking() {
    let mut s = Session::spawn_with(
        PREFS,
        &[],
        Options {
            env: vec![("PI_ASK_SCREEN".into(), "inline".into())],
            ..Options::default()
        },
    );
    s.wait_for("1. Minimal");
    for signal in [libc::SIGUSR1, libc::SIGUSR2, libc::SIGALRM] {
        s.signal(signal);
    }
    std::thread::sleep(Duration::from_millis(200));
    s.send("2");
    s.wait_for("2/2 Frontend");
    s.send("\x03");
    let (code, result) = s.finish();
    assert_eq!(code, 130);
    assert_eq!(result.unwrap()["details"]["cancelled"], true);
}

#[test]
fn closing_the_terminal_while_stdout_and_stderr_are_it_ends_the_run() {
    if Command::new("tmux").arg("-V").output().is_err() {
        assert!(std::env::var_os("CI").is_none(), "tmux is needed in CI");
        eprintln!("signals: tmux is not installed: the closed-pane test is skipped");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("q.json"), PREFS).unwrap();
    let socket = format!("pi-ask-signals-{}", std::process::id());
    let tmux = |args: &[&str]| {
        let out = Command::new("tmux")
            .args(["-L", &socket, "-f", "/dev/null"])
            .args(args)
            .output()
            .expect("tmux runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    // A second window keeps the server up once the first pane is killed.
    tmux(&[
        "new-session",
        "-d",
        "-s",
        "t",
        "-x",
        "80",
        "-y",
        "24",
        "sleep 60",
    ]);
    let command = format!(
        "cd {} && exec {} q.json",
        dir.path().display(),
        env!("CARGO_BIN_EXE_pi-ask")
    );
    tmux(&["new-window", "-t", "t", &command]);
    let start = Instant::now();
    let pid: u32 = loop {
        let panes = tmux(&["list-panes", "-t", "t:1", "-F", "#{pane_pid}"]);
        if let Ok(pid) = panes.trim().parse() {
            let screen = tmux(&["capture-pane", "-p", "-t", "t:1"]);
            if screen.contains("1. Minimal") {
                break pid;
            }
        }
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "pi-ask never drew: {:?} {:?}",
            tmux(&["list-windows", "-t", "t"]),
            tmux(&["capture-pane", "-p", "-t", "t:1"])
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    tmux(&["kill-pane", "-t", "t:1"]);
    let gone = Instant::now();
    let alive = || {
        std::path::Path::new(&format!("/proc/{pid}")).exists()
            && !std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .is_ok_and(|s| s.split_whitespace().nth(2) == Some("Z"))
    };
    while alive() && gone.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(50));
    }
    let hung = alive();
    if hung {
        send(pid, nix::sys::signal::Signal::SIGKILL);
    }
    tmux(&["kill-server"]);
    assert!(
        !hung,
        "pi-ask was still running 5 s after its terminal closed"
    );
}

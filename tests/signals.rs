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
    crate::common::wait_until_handled(child.id(), signal as i32);
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
    if !crate::common::tmux::tmux_available("signals") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("q.json"), PREFS).unwrap();
    let socket = format!("pi-ask-signals-{}", std::process::id());
    let tmux = |args: &[&str]| {
        let out = Command::new("tmux")
            .env("PI_ASK_KEY_GRACE", "0")
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
    // Under load the session may not take a window yet: ask until it has two.
    let asked = Instant::now();
    loop {
        tmux(&["new-window", "-t", "t", &command]);
        let windows = tmux(&["list-windows", "-t", "t"]);
        if windows.lines().count() >= 2 || asked.elapsed() > Duration::from_secs(10) {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
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

/// Where the run asks.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Placement {
    /// The full-screen layout.
    Full,
    /// Inline at the cursor.
    Inline,
    /// Plain mode (`--plain`): lines.
    Plain,
    /// The free-form answer editor (rustyline) of the first question, full screen.
    Editor,
}

/// Starts pi-ask in a pty with `args` in `placement`, lets its first screen draw, stops
/// reading the terminal (the output of a stalled ssh link), and sends 3000 `j` keys (in the
/// editor and in plain mode, `x`), so pi-ask's writes to the terminal block.
fn stalled_in(placement: Placement, args: &[&str]) -> Session {
    let screen = if placement == Placement::Inline {
        "inline"
    } else {
        "full"
    };
    // The result on stdout (a file, as pi reads a pipe), never delayed by the terminal.
    let opts = Options {
        env: vec![("PI_ASK_SCREEN".into(), screen.into())],
        stdout_to_file: true,
        ..Options::default()
    };
    let mut args = args.to_vec();
    if placement == Placement::Plain {
        args.push("--plain");
    }
    let mut s = Session::spawn_with(PREFS, &args, opts);
    let key = match placement {
        Placement::Plain => {
            s.expect("1/2> ");
            "x"
        }
        Placement::Editor => {
            s.wait_for("How should I frame the next prompt?");
            s.send("\x1b[B\x1b[B\x1b[B");
            s.wait_for("> ( ) 4. Type your own…");
            s.send("\r");
            // the empty editor's placeholder: rustyline is reading keys
            s.wait_for("\n> Type answer...");
            "x"
        }
        Placement::Full | Placement::Inline => {
            // (With a short timeout the countdown takes the title's row.)
            s.wait_for("How should I frame the next prompt?");
            "j"
        }
    };
    s.stop_reading();
    std::thread::sleep(Duration::from_millis(100));
    for _ in 0..30 {
        s.send(&key.repeat(100));
        std::thread::sleep(Duration::from_millis(10));
    }
    std::thread::sleep(Duration::from_millis(300));
    s
}

/// Waits at most `within` for the run to exit; its exit code and result.
fn ended_within(s: &mut Session, within: Duration, case: &str) -> (i32, Value) {
    let start = Instant::now();
    while !s.output_file_written() || !s.exited() {
        assert!(
            start.elapsed() < within,
            "{case}: no result within {within:?} of the end (stderr: {})",
            s.stderr()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    s.resume_reading();
    let (code, result) = s.finish();
    (code, result.expect("a result"))
}

#[test]
fn every_signal_ends_the_run_with_a_result_when_the_terminal_takes_no_output() {
    use nix::sys::signal::Signal;
    for placement in [
        Placement::Full,
        Placement::Inline,
        Placement::Plain,
        Placement::Editor,
    ] {
        for (signal, code) in [(Signal::SIGTERM, 143), (Signal::SIGHUP, 129)] {
            let mut s = stalled_in(placement, &[]);
            s.signal(signal as i32);
            let case = format!("{placement:?} {signal:?}");
            let (got, result) = ended_within(&mut s, Duration::from_secs(1), &case);
            assert_eq!(got, code, "{placement:?} {signal:?}");
            assert_eq!(
                result["details"]["error"]["message"],
                format!("received {}", signal.as_str()),
                "{placement:?} {signal:?}"
            );
        }
    }
}

#[test]
fn a_timeout_ends_the_run_with_a_result_when_the_terminal_takes_no_output() {
    for placement in [
        Placement::Full,
        Placement::Inline,
        Placement::Plain,
        Placement::Editor,
    ] {
        let mut s = stalled_in(placement, &["--timeout", "2"]);
        // The time runs from the last key read: two seconds, then at most one more.
        let case = format!("{placement:?}");
        let (code, result) = ended_within(&mut s, Duration::from_secs(3), &case);
        assert_eq!(code, 124, "{placement:?}");
        assert_eq!(
            result["details"]["error"]["code"], "timeout",
            "{placement:?}"
        );
        assert_eq!(result["details"]["cancelled"], true, "{placement:?}");
        if placement == Placement::Editor {
            // The draft read so far is kept, as Esc keeps it.
            let text = result["details"]["answers"]["style"]["customText"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            assert!(
                !text.is_empty() && text.chars().all(|c| c == 'x'),
                "{text:?}"
            );
        }
    }
}

#[test]
fn a_signal_ends_the_run_when_stdout_is_the_terminal_that_takes_no_output() {
    // The result goes to stdout, the pty itself: it cannot be written, the run ends anyway.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("q.json"), PREFS).unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pi-ask"));
    cmd.arg("q.json");
    let opts = Options {
        cwd: Some(dir.path().to_path_buf()),
        ..Options::default()
    };
    let mut s = Session::spawn_command(cmd, dir, "none.json".into(), opts);
    s.wait_for("How should I frame the next prompt?");
    s.stop_reading();
    for _ in 0..30 {
        s.send(&"j".repeat(100));
        std::thread::sleep(Duration::from_millis(10));
    }
    std::thread::sleep(Duration::from_millis(300));
    s.signal(libc::SIGTERM);
    let start = Instant::now();
    // The signal's ending gives such a terminal 800 ms; the margin is for a loaded machine.
    while !s.exited() {
        assert!(start.elapsed() < Duration::from_secs(3), "still running");
        std::thread::sleep(Duration::from_millis(10));
    }
    s.resume_reading();
    assert_eq!(s.wait_eof().code(), Some(143));
}

/// GNU screen's `quit` closes the terminal before it sends SIGHUP, so pi-ask read EOF first and
/// ended `terminal_lost` (exit 1); the hang-up on its way now ends it as the hang-up it is:
/// `aborted` "received SIGHUP" (docs/exit-codes.md: the first ending wins).
#[test]
fn gnu_screen_quit_ends_the_run_as_a_hang_up() {
    use crate::common::screen::{screen_available, Screen};
    if !screen_available("signals") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("q.json"), PREFS).unwrap();
    let name = format!("pi-ask-signals-{}", std::process::id());
    let result = dir.path().join("r.json");
    let screen = Screen::start(
        &name,
        dir.path(),
        true,
        &[],
        &["bash", "--norc", "--noprofile", "-i"],
    );
    std::thread::sleep(Duration::from_millis(300));
    // Typed at an interactive shell, as a person runs it: pi-ask is its foreground job.
    screen.stuff(&format!(
        "cd {} && NO_COLOR=1 PI_ASK_SCREEN=inline {} q.json --output r.json\n",
        dir.path().display(),
        env!("CARGO_BIN_EXE_pi-ask")
    ));
    screen.wait("the first question", false, |t| t.contains("1. Minimal"));
    // Past the first frame's idle work, so the signal watch's thread runs.
    std::thread::sleep(Duration::from_millis(200));
    screen.quit();
    let start = Instant::now();
    let written = loop {
        let text = std::fs::read_to_string(&result).unwrap_or_default();
        if let Ok(value) = serde_json::from_str::<Value>(&text) {
            break value;
        }
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "no result: {text:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(written["details"]["error"]["code"], "aborted", "{written}");
    assert!(
        written["details"]["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("SIGHUP")),
        "{written}"
    );
}

/// A result larger than a pipe holds, on a pipe nobody reads (`pi-ask … > >(sleep 30)`): a
/// SIGTERM's result cannot be written. Before, the run waited on the pipe as long as it
/// stayed open, and meanwhile took keys and drew "Submitted" while its result said aborted.
/// Now no key is acted on once the signal came, and the run ends 3 s later with 143, the
/// farewell in place of the block and the terminal's modes put back.
#[test]
fn a_signal_whose_result_a_pipe_does_not_take_ends_the_run_and_no_key_acts_after_it() {
    let dir = tempfile::tempdir().unwrap();
    let prompt = "word ".repeat(30_000);
    let payload = serde_json::json!({"questions": [{"id": "q", "prompt": prompt,
        "options": [{"value": "a", "label": "A"}, {"value": "b", "label": "B"}]}]});
    std::fs::write(dir.path().join("big.json"), payload.to_string()).unwrap();
    let mut cmd = Command::new("bash");
    cmd.arg("-c").arg(format!(
        "exec {} big.json --screen inline > >(sleep 30)",
        env!("CARGO_BIN_EXE_pi-ask")
    ));
    let opts = Options {
        cwd: Some(dir.path().to_path_buf()),
        ..Options::default()
    };
    let mut s = Session::spawn_command(cmd, dir, "none.json".into(), opts);
    s.wait_for("1. A");
    s.signal(libc::SIGTERM);
    let start = Instant::now();
    // A and then the review's Submit, twice: nothing of it may be acted on.
    s.send("1");
    std::thread::sleep(Duration::from_millis(200));
    s.send("11");
    while !s.exited() {
        assert!(start.elapsed() < Duration::from_secs(8), "still running");
        std::thread::sleep(Duration::from_millis(20));
    }
    let took = start.elapsed();
    let screen = s.screen();
    assert_eq!(s.wait_eof().code(), Some(143));
    assert!(took >= Duration::from_millis(2500), "{took:?}");
    assert!(!screen.contains("Submitted"), "{screen}");
    assert!(!screen.contains("Review"), "{screen}");
    // The farewell in place of the block, as at any signal's ending.
    assert!(
        screen.contains("Aborted by SIGTERM: the answers were not sent"),
        "{screen}"
    );
    assert!(!screen.contains("1. A"), "{screen}");
}

/// As the terminal front end above, plain mode: once a SIGTERM came no line is acted on
/// (the review and its Submit are never printed), and the run ends 3 s later with 143.
#[test]
fn in_plain_mode_no_line_acts_after_a_signal_whose_result_a_pipe_does_not_take() {
    let dir = tempfile::tempdir().unwrap();
    let prompt = "word ".repeat(30_000);
    let payload = serde_json::json!({"questions": [{"id": "q", "prompt": prompt,
        "options": [{"value": "a", "label": "A"}, {"value": "b", "label": "B"}]}]});
    std::fs::write(dir.path().join("big.json"), payload.to_string()).unwrap();
    let mut cmd = Command::new("bash");
    cmd.arg("-c").arg(format!(
        "exec {} big.json --plain > >(sleep 30)",
        env!("CARGO_BIN_EXE_pi-ask")
    ));
    let opts = Options {
        cwd: Some(dir.path().to_path_buf()),
        ..Options::default()
    };
    let mut s = Session::spawn_command(cmd, dir, "none.json".into(), opts);
    s.wait_for("1/1>");
    s.signal(libc::SIGTERM);
    let start = Instant::now();
    s.send("1\r");
    std::thread::sleep(Duration::from_millis(200));
    s.send("1\r");
    while !s.exited() {
        assert!(start.elapsed() < Duration::from_secs(8), "still running");
        std::thread::sleep(Duration::from_millis(20));
    }
    let screen = s.screen();
    assert_eq!(s.wait_eof().code(), Some(143));
    assert!(!screen.contains("Submit"), "{screen}");
    assert!(!screen.contains("Review"), "{screen}");
}

/// A caller killed with SIGKILL, no lifeline: the shell takes the terminal back, and the run
/// left behind writes nothing more on it when it ends (its read fails once the person types
/// at the prompt). Before, it wrote its whole final transcript over the shell's prompt and
/// the command typed there.
#[test]
fn a_run_whose_caller_was_killed_writes_nothing_over_the_shells_prompt() {
    use crate::common::tmux::{tmux, tmux_available, tmux_session, tmux_wait};
    if !tmux_available("signals") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().display().to_string();
    std::fs::write(
        dir.path().join("q.json"),
        r#"{"title":"Orphan check","questions":[{"id":"a","prompt":"Pick one?",
            "options":[{"value":"x","label":"X"},{"value":"y","label":"Y"}]},
            {"id":"b","prompt":"And another?","options":[{"value":"z","label":"Z"}]}]}"#,
    )
    .unwrap();
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_pi-ask"))
        .parent()
        .unwrap()
        .display()
        .to_string();
    let socket = format!("pi-ask-orphan-{}", std::process::id());
    let shell = format!(
        "cd {d} && exec env -i PATH={bin}:/usr/bin:/bin HOME={d} TERM=tmux-256color \
         LANG=C.UTF-8 NO_COLOR=1 PI_ASK_SCREEN=inline PI_ASK_KEY_GRACE=0 PS1='$ ' \
         bash --norc --noprofile"
    );
    tmux_session(&socket, 80, 24, &shell);
    let keys = |keys: &[&str]| {
        let mut args = vec!["send-keys", "-t", "t"];
        args.extend_from_slice(keys);
        tmux(&socket, &args);
    };
    tmux_wait(&socket, "the shell", |p| p.trim_end().ends_with('$'));
    keys(&[
        "-l",
        &format!("sh -c 'pi-ask q.json --output {d}/r.json; true'"),
    ]);
    keys(&["Enter"]);
    tmux_wait(&socket, "the first question", |p| p.contains("Pick one?"));
    keys(&["-l", "1"]);
    tmux_wait(&socket, "the second question", |p| {
        p.contains("And another?")
    });
    // The caller: the sh whose command line names this folder.
    let pid_of = |first: &[u8]| {
        std::fs::read_dir("/proc")
            .unwrap()
            .flatten()
            .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
            .find(|pid| {
                let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
                let args: Vec<&[u8]> = cmdline.split(|b| *b == 0).collect();
                args.first().is_some_and(|a| a.ends_with(first))
                    && args
                        .iter()
                        .any(|a| a.windows(d.len()).any(|w| w == d.as_bytes()))
            })
    };
    let caller = pid_of(b"sh").expect("the caller");
    let run = pid_of(b"pi-ask").expect("the run");
    crate::common::send_signal(caller, libc::SIGKILL);
    tmux_wait(&socket, "the shell's prompt back", |p| {
        p.contains("Killed") && p.trim_end().ends_with('$')
    });
    keys(&["-l", "echo typed-at-the-prompt"]);
    keys(&["Enter"]);
    tmux_wait(&socket, "the command's output", |p| {
        p.lines().any(|l| l.trim_end() == "typed-at-the-prompt")
    });
    // The run ends (its terminal failed), and writes nothing.
    let started = std::time::Instant::now();
    while std::path::Path::new(&format!("/proc/{run}/cmdline")).exists()
        && started.elapsed() < std::time::Duration::from_secs(10)
    {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    let pane = tmux(&socket, &["capture-pane", "-p", "-t", "t"]);
    tmux(&socket, &["kill-server"]);
    let rows: Vec<&str> = pane.lines().map(str::trim_end).collect();
    let typed = rows
        .iter()
        .position(|r| *r == "$ echo typed-at-the-prompt")
        .unwrap_or_else(|| panic!("the command line was written over:\n{pane}"));
    assert_eq!(rows[typed + 1], "typed-at-the-prompt", "{pane}");
    assert_eq!(rows[typed + 2], "$", "{pane}");
    assert!(
        rows[typed + 3..].iter().all(|r| r.is_empty()),
        "written after the prompt:\n{pane}"
    );
}

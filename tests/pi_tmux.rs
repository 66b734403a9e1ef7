//! The pi extension in the real pi (npm `@earendil-works/pi-coding-agent` 1.6, the faux model
//! of `examples/pi-extension/test/faux.ts`) inside tmux: a real terminal with a scrollback, an
//! alternate screen and rewrapping on resize, in both of pi's TUI modes (`--tui-mode
//! fullscreen`, pi's default, and `regular`), with the binary's inline placement.
//!
//! A shell prints lines, then starts pi with the prompt "go"; the faux model says
//! [`SAYS`] and calls `ask_user`. While the questions are up, the agent's message is on the
//! screen above them; afterwards pi draws itself again whole, the shell's lines from before pi
//! are still in the scrollback (regular mode), and the scrollback holds one copy of pi's frame
//! (its footer), nothing of the questionnaire and no "Waiting for the user's answers…" row;
//! pi's transcript row shows an option's note.
//!
//! Needs tmux; without it these tests are skipped with one line, except in CI (`CI` set), where
//! they fail. Skipped with the other pi tests ([`skipped`]).

use crate::common::say;
use crate::pi_extension::{ext_dir, setup, skipped};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// What the faux model says before it calls `ask_user` (PI_ASK_TEST_MESSAGE).
const SAYS: &str = "Before I write the prompt I need two choices from you.";
/// Printed by the shell before pi starts; must stay in regular mode's scrollback.
const SHELL_LINE: &str = "SHELL LINE FROM BEFORE PI";
/// The end of pi's footer row (the model's name): one per copy of pi's frame.
const FOOTER_END: &str = "faux-1";
/// The prompts of examples/implementation-preferences.json: on the screen only while that
/// question is up (pi's collapsed call row shows the labels).
const Q1: &str = "How should I frame the next prompt?";
const Q2: &str = "Which frontend frameworks have you used?";
/// pi's collapsed call row for that payload.
const CALL_ROW: &str = "ask_user 2 question(s) (Style, Frontend)";
/// How long any one wait may take: pi starts in a few seconds.
const WAIT: Duration = Duration::from_secs(40);

/// Whether tmux is missing here (a skip, said once), failing instead in CI.
fn no_tmux() -> bool {
    if Command::new("tmux").arg("-V").output().is_ok() {
        return false;
    }
    assert!(std::env::var_os("CI").is_none(), "tmux is needed in CI");
    static SAID: std::sync::OnceLock<()> = std::sync::OnceLock::new();
    SAID.get_or_init(|| say("pi_tmux: tmux is not installed: the pi-in-tmux tests are skipped"));
    true
}

/// pi in a tmux window (100x30 unless said) of its own tmux server (socket), started from a
/// shell.
struct PiInTmux {
    socket: String,
    _dir: tempfile::TempDir,
}

/// How [`PiInTmux::start_with`] starts pi.
struct Run<'a> {
    /// The window's columns and rows.
    size: (u16, u16),
    /// What the faux model says before its call.
    says: &'a str,
    /// The temporary directory pi and the binary are given (`TMPDIR`), `XDG_RUNTIME_DIR` unset.
    tmpdir: Option<&'a Path>,
    /// pi keeps its session, and once it has ended (however it ended), `pi --continue` runs in
    /// the same terminal; the shell runs each as a job of its own (`set -m`), as an interactive
    /// shell does, and prints `PI2 EXITED <status>` after the second.
    and_continue: bool,
}

impl Default for Run<'_> {
    fn default() -> Self {
        Run {
            size: (100, 30),
            says: SAYS,
            tmpdir: None,
            and_continue: false,
        }
    }
}

impl PiInTmux {
    /// Starts a shell that prints [`SHELL_LINE`] three times and runs pi in `mode`
    /// ("fullscreen" or "regular") with [`SAYS`] and examples/implementation-preferences.json.
    fn start(name: &str, mode: &str) -> PiInTmux {
        PiInTmux::start_with(name, mode, Run::default())
    }

    /// [`PiInTmux::start`] with another window size, message or temporary directory.
    fn start_with(name: &str, mode: &str, run: Run) -> PiInTmux {
        let node = setup();
        let dir = tempfile::tempdir().expect("temp dir");
        let home = dir.path().join("home");
        std::fs::create_dir_all(&home).unwrap();
        let payload =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/implementation-preferences.json");
        let ext = ext_dir();
        let q = |p: &Path| shell_quote(&p.to_string_lossy());
        let script = dir.path().join("run.sh");
        let pi_command = |last: &str| {
            format!(
                "node {} --offline {} -ne -ns -np -nc -e {} -e {} --provider faux --model faux-1 --tui-mode {mode} {last}",
                q(&ext.join("node_modules/@earendil-works/pi-coding-agent/dist/cli.js")),
                if run.and_continue {
                    format!("--session-dir {}", q(&dir.path().join("sessions")))
                } else {
                    "--no-session".to_string()
                },
                q(&ext.join("test/faux.ts")),
                q(&ext.join("index.ts")),
            )
        };
        let lines = [
            if run.and_continue { "set -m" } else { "" }.to_string(),
            "unset PI_ASK_SCREEN PI_ASK_ANSWERS PI_ASK_TIMEOUT NO_COLOR".to_string(),
            format!(
                "export PATH={}",
                shell_quote(&node.path_env.to_string_lossy())
            ),
            format!(
                "export HOME={} PI_CODING_AGENT_DIR={}/.pi/agent PI_OFFLINE=1",
                q(&home),
                q(&home)
            ),
            format!(
                "export PI_ASK_BIN={}",
                shell_quote(env!("CARGO_BIN_EXE_pi-ask"))
            ),
            format!(
                "export PI_ASK_TEST_PAYLOAD={} PI_ASK_TEST_MESSAGE={}",
                q(&payload),
                shell_quote(run.says)
            ),
            match run.tmpdir {
                Some(tmp) => format!("export TMPDIR={}; unset XDG_RUNTIME_DIR", q(tmp)),
                None => String::new(),
            },
            format!("for i in 1 2 3; do echo \"{SHELL_LINE} $i\"; done"),
            pi_command("go"),
            "echo \"PI EXITED $?\"".to_string(),
            if run.and_continue {
                format!("{}; echo \"PI2 EXITED $?\"", pi_command("--continue"))
            } else {
                String::new()
            },
            "exec sleep 600".to_string(),
        ];
        std::fs::write(&script, lines.join("\n") + "\n").unwrap();
        let socket = format!("pi-ask-{name}-{}", std::process::id());
        let pi = PiInTmux { socket, _dir: dir };
        let cwd = pi._dir.path().to_string_lossy().to_string();
        let (columns, rows) = (run.size.0.to_string(), run.size.1.to_string());
        pi.tmux(&[
            "new-session",
            "-d",
            "-x",
            &columns,
            "-y",
            &rows,
            "-s",
            "t",
            "-c",
            &cwd,
            "bash",
            "--noprofile",
            "--norc",
            &script.to_string_lossy(),
        ]);
        pi
    }

    /// Runs `tmux -L socket -f /dev/null ARGS` and returns its stdout.
    fn tmux(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            // Keys typed right after the first frame act at once (the grace is off).
            .env("PI_ASK_KEY_GRACE", "0")
            .args(["-L", &self.socket, "-f", "/dev/null"])
            .args(args)
            .output()
            .expect("tmux runs");
        assert!(
            out.status.success(),
            "tmux {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// The visible screen, one line per row.
    fn screen(&self) -> String {
        self.tmux(&["capture-pane", "-p", "-t", "t"])
    }

    /// The normal screen's scrollback and the screen (on the alternate screen, the screen
    /// shown is the alternate one: quit pi first to see its scrollback).
    fn history(&self) -> String {
        self.tmux(&["capture-pane", "-p", "-S", "-", "-t", "t"])
    }

    /// Waits until the screen contains `text`; returns the screen.
    fn wait_for(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if screen.contains(text) {
                return screen;
            }
            assert!(
                start.elapsed() < WAIT,
                "no {text:?} on the screen within {WAIT:?}:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "t"];
        args.extend_from_slice(keys);
        self.tmux(&args);
    }

    /// Whether the pane shows the alternate screen.
    fn alternate_screen(&self) -> bool {
        self.tmux(&["display-message", "-p", "-t", "t", "#{alternate_on}"])
            .trim()
            == "1"
    }

    /// Answers the questionnaire: Minimal, nothing on Frontend, Submit.
    fn answer(&self) {
        self.wait_for(Q1);
        self.keys(&["Enter"]);
        self.wait_for(Q2);
        self.keys(&["Enter"]);
        self.wait_for("Review");
        self.keys(&["Enter"]);
    }

    /// Waits until the screen differs from `before`; returns it.
    fn wait_for_change(&self, before: &str) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if screen != before {
                return screen;
            }
            assert!(
                start.elapsed() < WAIT,
                "the screen did not change:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Quits pi (Ctrl+D on its empty editor) and waits for the shell's line after it.
    fn quit(&self) {
        self.keys(&["C-d"]);
        let start = Instant::now();
        while !self.history().contains("PI EXITED 0") {
            assert!(
                start.elapsed() < WAIT,
                "pi did not quit:\n{}",
                self.history()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        assert!(!self.alternate_screen());
    }
}

impl Drop for PiInTmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "-f", "/dev/null", "kill-server"])
            .output();
    }
}

fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// Whether `text` has the rows `rows`, one after another, each as pi draws it (its padding
/// trimmed).
fn has_rows(text: &str, rows: &[&str]) -> bool {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    lines.windows(rows.len()).any(|w| w == rows)
}

/// The rows of `text` that contain `what`.
fn rows_with<'a>(text: &'a str, what: &str) -> Vec<&'a str> {
    text.lines().filter(|l| l.contains(what)).collect()
}

/// While the questions are up: the agent's message and pi's call row above them.
fn assert_message_above_the_questions(pi: &PiInTmux) {
    let screen = pi.wait_for(Q1);
    let said = screen
        .find(SAYS)
        .unwrap_or_else(|| panic!("the agent's message is not on the screen:\n{screen}"));
    let call = screen
        .find(CALL_ROW)
        .unwrap_or_else(|| panic!("pi's call row is not on the screen:\n{screen}"));
    assert!(said < call && call < screen.find(Q1).unwrap(), "{screen}");
}

/// What pi's scrollback and screen may hold after the questionnaire: one copy of pi's frame
/// (its footer), pi's transcript rows for the call, nothing of the questionnaire itself.
fn assert_one_clean_copy_of_pi(history: &str) {
    assert_eq!(rows_with(history, FOOTER_END).len(), 1, "{history}");
    assert_eq!(rows_with(history, SAYS).len(), 1, "{history}");
    assert_eq!(rows_with(history, CALL_ROW).len(), 1, "{history}");
    for left in [Q1, Q2, "Review", "Waiting for the user's answers"] {
        assert!(
            !history.contains(left),
            "{left:?} was left behind:\n{history}"
        );
    }
}

#[test]
fn tmux_fullscreen_pi_shows_the_agents_message_above_the_questions() {
    if skipped() || no_tmux() {
        return;
    }
    let pi = PiInTmux::start("full", "fullscreen");
    assert_message_above_the_questions(&pi);
    // A note on the option Minimal (n opens its editor), then the answers.
    let before = pi.screen();
    pi.keys(&["n"]);
    pi.wait_for_change(&before);
    pi.keys(&["-l", "keep it short"]);
    pi.wait_for("keep it short");
    pi.keys(&["Enter"]);
    // The saved note's row: the editor has closed (a key sent while it closes is lost).
    pi.wait_for("note: keep it short");
    pi.answer();
    let screen = pi.wait_for("END OF TURN");
    assert!(pi.alternate_screen(), "pi is fullscreen again:\n{screen}");
    // pi's transcript row (not expanded) shows the option's note on a line of its own.
    assert!(
        has_rows(
            &screen,
            &["✓ Style: Minimal", "Minimal note: keep it short"]
        ),
        "{screen}"
    );
    assert_one_clean_copy_of_pi(&screen);
    pi.quit();
    // The normal screen: the shell's lines, then what pi prints when it quits (its
    // transcript and frame, once); nothing from the questionnaire.
    let history = pi.history();
    assert_eq!(rows_with(&history, SHELL_LINE).len(), 3, "{history}");
    assert_one_clean_copy_of_pi(&history);
}

#[test]
fn tmux_regular_pi_shows_the_agents_message_and_keeps_the_shells_lines() {
    if skipped() || no_tmux() {
        return;
    }
    let pi = PiInTmux::start("regular", "regular");
    assert_message_above_the_questions(&pi);
    // Ctrl+C dismisses the questionnaire; pi goes on.
    pi.keys(&["C-c"]);
    let screen = pi.wait_for("END OF TURN");
    assert!(!pi.alternate_screen(), "{screen}");
    assert!(has_rows(&screen, &[CALL_ROW, "Cancelled"]), "{screen}");
    let history = pi.history();
    assert_eq!(
        rows_with(&history, SHELL_LINE).len(),
        3,
        "the shell's lines are gone:\n{history}"
    );
    assert_one_clean_copy_of_pi(&history);
    pi.quit();
}

/// A resize while the questions are up leaves no piece of pi's frame behind: in regular mode
/// pi redraws itself whole at the new width (clearing the scrollback, as it does on any
/// resize); in fullscreen mode the normal screen never had any of it.
#[test]
fn tmux_a_resize_during_the_questionnaire_leaves_no_stray_frame() {
    if skipped() || no_tmux() {
        return;
    }
    for mode in ["regular", "fullscreen"] {
        let pi = PiInTmux::start(&format!("resize-{mode}"), mode);
        pi.wait_for(Q1);
        pi.tmux(&["resize-window", "-t", "t", "-x", "80", "-y", "24"]);
        pi.wait_for(Q1);
        pi.answer();
        let screen = pi.wait_for("END OF TURN");
        assert!(
            has_rows(&screen, &["✓ Style: Minimal"]),
            "{mode}:\n{screen}"
        );
        if mode == "regular" {
            assert_one_clean_copy_of_pi(&pi.history());
        }
        pi.quit();
        let history = pi.history();
        assert_one_clean_copy_of_pi(&history);
        if mode == "fullscreen" {
            assert_eq!(rows_with(&history, SHELL_LINE).len(), 3, "{history}");
        }
    }
}

/// The binary killed (SIGKILL) with its questions up: no restore of its own; the extension
/// puts the terminal back and pi draws itself again, in both modes (whole, in regular mode).
#[test]
fn tmux_a_killed_binary_leaves_pi_whole() {
    if skipped() || no_tmux() {
        return;
    }
    for mode in ["regular", "fullscreen"] {
        let pi = PiInTmux::start(&format!("kill-{mode}"), mode);
        pi.wait_for(Q1);
        let pane_pid: i32 = pi
            .tmux(&["display-message", "-p", "-t", "t", "#{pane_pid}"])
            .trim()
            .parse()
            .unwrap();
        let binary = descendant_named(pane_pid, "pi-ask");
        nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(binary),
            nix::sys::signal::Signal::SIGKILL,
        )
        .expect("SIGKILL");
        let screen = pi.wait_for("END OF TURN");
        assert!(
            screen.contains("pi-ask was killed by SIGKILL without writing a result"),
            "{mode}:\n{screen}"
        );
        assert_eq!(
            pi.alternate_screen(),
            mode == "fullscreen",
            "{mode}:\n{screen}"
        );
        if mode == "regular" {
            // Where a killed binary left its rows is not known: pi draws itself whole, which
            // clears the scrollback (the shell's lines with it, as any resize of regular-mode
            // pi does) and leaves one copy of pi and nothing of the questionnaire.
            let history = pi.history();
            assert_eq!(rows_with(&history, SHELL_LINE).len(), 0, "{history}");
            assert_one_clean_copy_of_pi(&history);
        }
        // pi's editor still takes keys.
        pi.quit();
    }
}

/// The pid of the process named `name` among the descendants of `root` (from /proc), waiting
/// up to a few seconds for it.
pub(crate) fn descendant_named(root: i32, name: &str) -> i32 {
    let start = Instant::now();
    loop {
        let mut procs = Vec::new();
        for entry in std::fs::read_dir("/proc").unwrap().flatten() {
            let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
                continue;
            };
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
                continue;
            };
            let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else {
                continue;
            };
            let ppid: i32 = stat[close + 1..]
                .split_whitespace()
                .nth(1)
                .and_then(|p| p.parse().ok())
                .unwrap_or(0);
            procs.push((pid, ppid, stat[open + 1..close].to_string()));
        }
        let mut family = vec![root];
        let mut grew = true;
        while grew {
            grew = false;
            for (pid, ppid, _) in &procs {
                if family.contains(ppid) && !family.contains(pid) {
                    family.push(*pid);
                    grew = true;
                }
            }
        }
        // The extension's version check (`pi-ask --version`) is not the questionnaire; nor is
        // a process whose arguments cannot be read: one that just ended (the version check,
        // found in /proc a moment before its exit, was taken for it and killed in its place).
        let version_check = |pid: &i32| {
            let args = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            args.is_empty() || args.split(|&b| b == 0).any(|arg| arg == b"--version")
        };
        if let Some((pid, _, _)) = procs
            .iter()
            .find(|(pid, _, comm)| comm == name && family.contains(pid) && !version_check(pid))
        {
            return *pid;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "no {name} under {root}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A message of 44 lines, the question at its end (a markdown list, one row a line).
fn long_message() -> String {
    let mut text: Vec<String> = (1..=43)
        .map(|i| format!("- Line {i:02} of the agent's message."))
        .collect();
    text.push("- Line 44: which style, and which frameworks?".to_string());
    text.join("\n")
}

/// Asserts that `history` holds each line of [`long_message`] once, in order, before `then`.
fn assert_whole_message_before(history: &str, then: &str) {
    let mut at = 0;
    for i in 1..=44 {
        let line = if i == 44 {
            "Line 44: which style, and which frameworks?".to_string()
        } else {
            format!("Line {i:02} of the agent's message.")
        };
        assert_eq!(rows_with(history, &line).len(), 1, "{line:?}:\n{history}");
        let found = history[at..]
            .find(&line)
            .unwrap_or_else(|| panic!("{line:?} out of order:\n{history}"));
        at += found;
    }
    assert!(
        history[at..].contains(then),
        "{then:?} after the message:\n{history}"
    );
}

/// The issue "the earlier conversation cannot be read while the questions are up": in regular
/// mode the terminal's scrollback holds pi's whole conversation while the questions are up (a
/// 44-line message, each line once, the call row under it, the questions under that), at
/// 100x30 and at 80x24, on the first question and on the second; afterwards one copy of pi and
/// nothing of the questionnaire.
#[test]
fn tmux_regular_pi_keeps_the_whole_conversation_in_the_scrollback_while_asking() {
    if skipped() || no_tmux() {
        return;
    }
    let message = long_message();
    for size in [(100, 30), (80, 24)] {
        let pi = PiInTmux::start_with(
            &format!("scroll-{}x{}", size.0, size.1),
            "regular",
            Run {
                size,
                says: &message,
                ..Run::default()
            },
        );
        pi.wait_for(Q1);
        let history = pi.history();
        assert_whole_message_before(&history, CALL_ROW);
        assert!(history.find(CALL_ROW) < history.find(Q1), "{history}");
        assert_eq!(rows_with(&history, SHELL_LINE).len(), 3, "{history}");
        pi.keys(&["Enter"]);
        pi.wait_for(Q2);
        let history = pi.history();
        assert_whole_message_before(&history, Q2);
        assert!(!history.contains(Q1), "{history}");
        pi.keys(&["Enter"]);
        pi.wait_for("Review");
        pi.keys(&["Enter"]);
        pi.wait_for("END OF TURN");
        let history = pi.history();
        assert_whole_message_before(&history, "END OF TURN");
        assert_eq!(rows_with(&history, SHELL_LINE).len(), 3, "{history}");
        assert_eq!(rows_with(&history, FOOTER_END).len(), 1, "{history}");
        assert_eq!(rows_with(&history, CALL_ROW).len(), 1, "{history}");
        for left in [Q1, Q2, "Review", "Waiting for the user's answers"] {
            assert!(
                !history.contains(left),
                "{left:?} was left behind:\n{history}"
            );
        }
        pi.quit();
    }
}

/// The issue "after shrinking the window and growing it back, the agent's message and the call
/// row vanish": in regular mode they are above the questions again once the window has its
/// size back (the terminal rewraps the normal screen and gives rows back from the scrollback).
#[test]
fn tmux_regular_pi_shows_the_message_above_the_questions_again_after_a_resize() {
    if skipped() || no_tmux() {
        return;
    }
    let pi = PiInTmux::start("regrow", "regular");
    assert_message_above_the_questions(&pi);
    pi.tmux(&["resize-window", "-t", "t", "-x", "80", "-y", "12"]);
    std::thread::sleep(Duration::from_millis(600));
    pi.wait_for(Q1);
    pi.tmux(&["resize-window", "-t", "t", "-x", "100", "-y", "30"]);
    std::thread::sleep(Duration::from_millis(600));
    assert_message_above_the_questions(&pi);
    pi.answer();
    pi.wait_for("END OF TURN");
    pi.quit();
}

/// The issue "closing the terminal mid-questionnaire leaves a pi-ask-XXXXXX folder": the payload,
/// the agent's message and the result are never in a file with a name, while the questions are
/// up nor after the terminal went away (the tmux server killed: SIGHUP to pi and the binary).
#[test]
fn tmux_killing_the_terminal_leaves_nothing_in_the_temp_dir() {
    if skipped() || no_tmux() {
        return;
    }
    for mode in ["regular", "fullscreen"] {
        let tmp = tempfile::tempdir().unwrap();
        let pi = PiInTmux::start_with(
            &format!("hup-{mode}"),
            mode,
            Run {
                tmpdir: Some(tmp.path()),
                ..Run::default()
            },
        );
        pi.wait_for(Q1);
        let pane_pid: i32 = pi
            .tmux(&["display-message", "-p", "-t", "t", "#{pane_pid}"])
            .trim()
            .parse()
            .unwrap();
        let binary = descendant_named(pane_pid, "pi-ask");
        let ours = |tmp: &Path| -> Vec<String> {
            std::fs::read_dir(tmp)
                .unwrap()
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with("pi-ask-"))
                .collect()
        };
        // While asking: the answer channel's folder alone, holding its socket alone (the
        // payload, the message and the result are in no named file).
        let asking = ours(tmp.path());
        assert_eq!(asking.len(), 1, "{mode}: while asking: {asking:?}");
        let held: Vec<String> = std::fs::read_dir(tmp.path().join(&asking[0]))
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(held, ["answer.sock"], "{mode}: while asking");
        let _ = Command::new("tmux")
            .args(["-L", &pi.socket, "-f", "/dev/null", "kill-server"])
            .output();
        let start = Instant::now();
        while std::path::Path::new(&format!("/proc/{binary}")).exists() {
            assert!(
                start.elapsed() < WAIT,
                "{mode}: the binary outlived its terminal"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        std::thread::sleep(Duration::from_millis(300));
        assert_eq!(
            ours(tmp.path()),
            Vec::<String>::new(),
            "{mode}: after the terminal went away"
        );
    }
}

/// At 80x24 the message scrolled off on question 2: the agent's message and pi's call row are
/// above the questions on both questions at 80x24, in both TUI modes (the compact screens leave
/// the room).
#[test]
fn tmux_at_80x24_the_message_stays_above_the_second_question() {
    if skipped() || no_tmux() {
        return;
    }
    for mode in ["regular", "fullscreen"] {
        let pi = PiInTmux::start_with(
            &format!("small-{mode}"),
            mode,
            Run {
                size: (80, 24),
                ..Run::default()
            },
        );
        assert_message_above_the_questions(&pi);
        pi.keys(&["Enter"]);
        let screen = pi.wait_for(Q2);
        let (said, call, q2) = (screen.find(SAYS), screen.find(CALL_ROW), screen.find(Q2));
        assert!(
            said.is_some() && said < call && call < q2,
            "{mode}:\n{screen}"
        );
        pi.keys(&["Enter"]);
        pi.wait_for("Review");
        pi.keys(&["Enter"]);
        pi.wait_for("END OF TURN");
        pi.quit();
    }
}

/// The issue "in fullscreen mode the agent's message and the call row are gone from above the
/// questions after a resize": the hand-over screen has no history, so a smaller window drops
/// its top rows; the binary (`--above`) draws the end of pi's conversation above the questions
/// again, so once the window has its size back the rows above the question are what they were
/// (a 44-line message: its last line, then the call row, then the question).
#[test]
fn tmux_fullscreen_pi_shows_the_message_above_the_questions_again_after_a_resize() {
    if skipped() || no_tmux() {
        return;
    }
    let message = long_message();
    let pi = PiInTmux::start_with(
        "full-regrow",
        "fullscreen",
        Run {
            says: &message,
            ..Run::default()
        },
    );
    const LAST: &str = "Line 44: which style, and which frameworks?";
    // The rows from the screen's top down to the question's, pi's padding trimmed.
    let above_the_question = |screen: &str| -> Vec<String> {
        let rows: Vec<String> = screen.lines().map(|l| l.trim().to_string()).collect();
        let q = rows
            .iter()
            .position(|l| l.contains(Q1))
            .unwrap_or_else(|| panic!("no question:\n{screen}"));
        rows[..q].to_vec()
    };
    let first = pi.wait_for(Q1);
    let before = above_the_question(&first);
    let (last, call) = (
        before.iter().position(|l| l.contains(LAST)),
        before.iter().position(|l| l.contains(CALL_ROW)),
    );
    assert!(last.is_some() && last < call, "{first}");
    pi.tmux(&["resize-window", "-t", "t", "-x", "100", "-y", "15"]);
    std::thread::sleep(Duration::from_millis(600));
    let small = pi.wait_for(Q1);
    assert!(small.lines().count() <= 15, "{small}");
    pi.tmux(&["resize-window", "-t", "t", "-x", "100", "-y", "30"]);
    std::thread::sleep(Duration::from_millis(600));
    let again = pi.wait_for(Q1);
    assert_eq!(above_the_question(&again), before, "{first}\n{again}");
    pi.answer();
    let screen = pi.wait_for("END OF TURN");
    assert!(pi.alternate_screen(), "{screen}");
    assert!(has_rows(&screen, &["✓ Style: Minimal"]), "{screen}");
    pi.quit();
    let history = pi.history();
    assert_eq!(rows_with(&history, FOOTER_END).len(), 1, "{history}");
    assert_eq!(rows_with(&history, CALL_ROW).len(), 1, "{history}");
    for left in [Q1, Q2, "Review"] {
        assert!(
            !history.contains(left),
            "{left:?} was left behind:\n{history}"
        );
    }
}

/// The parent of process `pid` (from /proc).
fn parent_of(pid: i32) -> i32 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("the process runs");
    let close = stat.rfind(')').unwrap();
    stat[close + 1..]
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap()
}

/// Whether process `pid` runs (a zombie does not: it holds nothing).
fn running(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        let close = stat.rfind(')').unwrap_or(0);
        stat[close + 1..].split_whitespace().next() != Some("Z")
    })
}

/// The pids of every running `pi-ask` process on the machine.
fn every_pi_ask() -> Vec<i32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().to_string_lossy().parse::<i32>().ok())
        .filter(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/comm")).is_ok_and(|c| c.trim() == "pi-ask")
                && running(*pid)
        })
        .collect()
}

/// pi killed with SIGKILL (an out-of-memory kill, `kill -9`) while the questions are up: the
/// binary ends with it (the extension's lifeline, `--lifeline-fd`), and in the same terminal
/// `pi --continue` offers the unanswered questions, whose questionnaire is up and answered at
/// once: no orphan pi-ask is left (in `ps`), and none holds the terminal's lock. In both TUI
/// modes, with the shell's job control (pi a job of its own, as in an interactive shell).
#[test]
fn tmux_kill_9_of_pi_then_continue_in_the_same_terminal_answers_at_once() {
    if skipped() || no_tmux() {
        return;
    }
    for mode in ["fullscreen", "regular"] {
        let pi = PiInTmux::start_with(
            &format!("kill9-{mode}"),
            mode,
            Run {
                and_continue: true,
                ..Run::default()
            },
        );
        pi.wait_for(Q1);
        let pane_pid: i32 = pi
            .tmux(&["display-message", "-p", "-t", "t", "#{pane_pid}"])
            .trim()
            .parse()
            .unwrap();
        let binary = descendant_named(pane_pid, "pi-ask");
        let node = parent_of(binary);
        nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(node),
            nix::sys::signal::Signal::SIGKILL,
        )
        .expect("SIGKILL to pi");
        let start = Instant::now();
        while running(binary) {
            if start.elapsed() > Duration::from_secs(10) {
                // Not left behind by a failing test (it would outlive the tmux server too).
                let screen = pi.screen();
                let _ = nix::sys::signal::kill(
                    nix::unistd::Pid::from_raw(binary),
                    nix::sys::signal::Signal::SIGKILL,
                );
                panic!("{mode}: pi-ask {binary} outlived pi (killed by SIGKILL):\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        // The binary's result had no reader left (pi read it through a FIFO): nothing is said
        // about it on the person's terminal.
        assert!(
            !pi.history().contains("pi-ask: cannot write"),
            "{mode}:\n{}",
            pi.history()
        );
        // The same terminal: the resumed session offers the questions; they are up at once.
        pi.wait_for("Answer them now?");
        pi.keys(&["Enter"]);
        pi.answer();
        pi.wait_for("MODEL GOT:");
        assert!(every_pi_ask().iter().all(|p| *p != binary), "{mode}");
        pi.keys(&["C-d"]);
        let start = Instant::now();
        while !pi.history().contains("PI2 EXITED 0") {
            assert!(
                start.elapsed() < WAIT,
                "{mode}: pi did not quit:\n{}",
                pi.history()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        // Nothing of either run is left.
        let family: Vec<i32> = every_pi_ask()
            .into_iter()
            .filter(|p| {
                *p == binary
                    || std::fs::read_to_string(format!("/proc/{p}/environ"))
                        .is_ok_and(|e| e.contains(&pi.socket))
            })
            .collect();
        assert_eq!(family, Vec::<i32>::new(), "{mode}");
    }
}

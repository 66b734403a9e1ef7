//! A stop from outside while an editor is open (`kill -TSTP`, `kill -STOP`, then `fg` in the
//! shell; docs/interactive.md "Placement"), in real tmux with a real bash: after `fg` the
//! terminal is in the editor's raw mode and the block and the editor are drawn again at the
//! cursor, under the shell's lines, as after Ctrl+Z; the run ends with its whole final
//! transcript under them.

use crate::common::tmux::{tmux, tmux_available, tmux_wait};
use serde_json::{json, Value};

const PREFS: &str = include_str!("../examples/implementation-preferences.json");

/// The first question's block with its editor open (the editor's own row not included), in
/// the simple theme (`NO_COLOR`).
const BLOCK: [&str; 9] = [
    "Type your own · Enter submit · Esc close",
    "1/2 Style · How should I frame the next prompt?:",
    "  ( ) 1. Minimal",
    "         A short, direct question with few options.",
    "  ( ) 2. Balanced",
    "         A standard prompt with a bit more context.",
    "  ( ) 3. Rich",
    "         A more descriptive prompt with extra detail.",
    "> ( ) 4. Type your own",
];

/// A tmux pane (80 x 30) running bash with job control in a folder holding `q.json`.
struct Pane {
    socket: String,
    dir: tempfile::TempDir,
}

impl Pane {
    fn start(tag: &str) -> Option<Pane> {
        if !tmux_available("stops") {
            return None;
        }
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("q.json"), PREFS).unwrap();
        let bin = std::path::Path::new(env!("CARGO_BIN_EXE_pi-ask"))
            .parent()
            .unwrap()
            .display()
            .to_string();
        let socket = format!("pi-ask-stops-{tag}-{}", std::process::id());
        let shell = format!(
            "env -i PATH={bin}:/usr/bin:/bin HOME={home} TERM=tmux-256color LANG=C.UTF-8 \
             NO_COLOR=1 PI_ASK_SCREEN=inline PI_ASK_KEY_GRACE=0 PS1='$ ' bash --norc --noprofile",
            home = dir.path().display()
        );
        let start = dir.path().display().to_string();
        tmux(
            &socket,
            &[
                "new-session",
                "-d",
                "-x",
                "80",
                "-y",
                "30",
                "-s",
                "t",
                "-c",
                &start,
                &shell,
            ],
        );
        tmux(&socket, &["set", "-g", "window-size", "manual"]);
        Some(Pane { socket, dir })
    }

    /// Waits for the shell, then types `command` and Enter.
    fn run(&self, command: &str) {
        tmux_wait(&self.socket, "the shell", |p| p.trim_end().ends_with('$'));
        self.text(command);
        self.keys(&["Enter"]);
    }

    /// [`Pane::run`] of a pi-ask command, then waits for its first question.
    fn ask(&self, command: &str) {
        self.run(command);
        tmux_wait(&self.socket, "the first question", |p| {
            p.contains("1/2 Style")
        });
    }

    /// Ctrl+Z, then waits for the shell's Stopped line and its prompt.
    fn suspend(&self) {
        self.keys(&["C-z"]);
        tmux_wait(&self.socket, "the shell's Stopped line", |p| {
            p.contains("Stopped") && p.trim_end().ends_with('$')
        });
    }

    /// At the first question: 2 chooses Balanced; waits for the second question.
    fn answer_the_first(&self) {
        self.text("2");
        tmux_wait(&self.socket, "the second question", |p| {
            p.contains("2/2 Frontend")
        });
    }

    /// From the first question: Balanced, nothing on the second, submitted from the review;
    /// checks the result file.
    fn answer_and_submit(&self) {
        self.answer_the_first();
        self.keys(&["Enter"]);
        tmux_wait(&self.socket, "the review", |p| p.contains("Review answers"));
        self.text("11");
        tmux_wait(&self.socket, "the shell", |p| {
            p.contains("Submitted") && p.trim_end().ends_with('$')
        });
        assert_eq!(
            result_in(self)["details"]["answers"],
            json!({"style": {"values": ["balanced"], "labels": ["Balanced"], "indices": [2]}})
        );
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "t"];
        args.extend_from_slice(keys);
        tmux(&self.socket, &args);
    }

    fn text(&self, text: &str) {
        tmux(&self.socket, &["send-keys", "-t", "t", "-l", text]);
    }

    /// The visible rows, trailing spaces trimmed, the blank rows at the bottom dropped.
    fn visible(&self) -> Vec<String> {
        rows(&tmux(&self.socket, &["capture-pane", "-p", "-t", "t"]))
    }

    /// The cursor's (column, row) in the pane.
    fn cursor(&self) -> (usize, usize) {
        let at = tmux(
            &self.socket,
            &[
                "display-message",
                "-p",
                "-t",
                "t",
                "#{cursor_x} #{cursor_y}",
            ],
        );
        let mut at = at.split_whitespace().map(|n| n.parse().unwrap());
        (at.next().unwrap(), at.next().unwrap())
    }

    /// Waits until the visible rows satisfy `ok`; them.
    fn wait_visible(&self, what: &str, ok: impl Fn(&[String]) -> bool) -> Vec<String> {
        let start = std::time::Instant::now();
        loop {
            let rows = self.visible();
            if ok(&rows) {
                return rows;
            }
            assert!(
                start.elapsed() < std::time::Duration::from_secs(15),
                "timed out waiting for {what}:\n{}",
                rows.join("\n")
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }

    /// [`Pane::ask`] of `command`, the first question answered, then Ctrl+Z.
    fn answered_then_suspended(&self, command: &str) {
        self.ask(command);
        self.answer_the_first();
        self.suspend();
    }

    /// `clear`, then `commands`, then `jobs`: the visible rows once `listed` (a marker of its
    /// own: the suspend's `Stopped` line may be on the screen until `clear` runs).
    fn jobs_after(&self, commands: &str) -> Vec<String> {
        self.run(&format!("clear; {commands}; jobs; echo listed"));
        self.wait_visible("the jobs list", |rows| rows.iter().any(|l| l == "listed"))
    }

    /// pi-ask's process id (the pane's shell's child).
    fn pi_ask(&self) -> i32 {
        let shell = tmux(
            &self.socket,
            &["display-message", "-p", "-t", "t", "#{pane_pid}"],
        );
        crate::pi_tmux::descendant_named(shell.trim().parse().unwrap(), "pi-ask")
    }
}

impl Drop for Pane {
    fn drop(&mut self) {
        tmux(&self.socket, &["kill-server"]);
    }
}

/// Lines trimmed at their end, the blank ones at the end dropped.
fn rows(text: &str) -> Vec<String> {
    let mut rows: Vec<String> = text.lines().map(|l| l.trim_end().to_string()).collect();
    while rows.last().is_some_and(|l| l.is_empty()) {
        rows.pop();
    }
    rows
}

/// `signal` (`TSTP`, `STOP`) from another shell while the Type your own editor holds a draft
/// (with `narrow`, the window then becomes 60 columns wide), `fg`, more typing and ← in the
/// editor drawn again, Enter, then the review's Submit: the exact screen after `fg` and after
/// the typing, the result and the whole history.
fn an_outside_stop_with_the_editor_open(signal: &str, args: &str, narrow: bool) {
    let Some(pane) = Pane::start(&format!("{}-{}-{}", signal, args.len(), narrow)) else {
        return;
    };
    let command = format!("pi-ask q.json{args} > r.json");
    pane.ask(&command);
    pane.text("4");
    tmux_wait(&pane.socket, "the editor", |p| p.contains("Enter submit"));
    pane.text("draft text");
    tmux_wait(&pane.socket, "the draft", |p| p.contains("> draft text"));
    let pid = pane.pi_ask().to_string();
    let killed = std::process::Command::new("kill")
        .args([&format!("-{signal}"), &pid])
        .status()
        .unwrap();
    assert!(killed.success());
    tmux_wait(&pane.socket, "the shell's Stopped line", |p| {
        p.contains("Stopped") && p.trim_end().ends_with('$')
    });
    if narrow {
        // Every row is narrower than 60 columns: nothing rewraps.
        tmux(
            &pane.socket,
            &["resize-window", "-t", "t", "-x", "60", "-y", "30"],
        );
        std::thread::sleep(std::time::Duration::from_millis(300));
    }
    pane.text("fg");
    pane.keys(&["Enter"]);
    let job = format!("pi-ask q.json{args} > r.json");
    let stopped = format!("[1]+  Stopped                 {job}");
    let mut expected: Vec<String> =
        vec![format!("$ {command}"), "Implementation preferences".into()];
    expected.extend(BLOCK.iter().map(|l| l.to_string()));
    // The editor's rows are the block's; the terminal's cursor was at the editing position,
    // after the draft: the shell's line starts under it. After `fg` the block is drawn again
    // under the shell's lines, as at a menu (the title, given up with the rows above, is left
    // in the final transcript).
    expected.extend([
        "> draft text".into(),
        stopped.clone(),
        "$ fg".into(),
        job.clone(),
    ]);
    expected.extend(BLOCK.iter().map(|l| l.to_string()));
    expected.push("> draft text".into());
    let shown = pane.wait_visible("the block drawn again", |rows| {
        rows.len() == expected.len() && rows.last().is_some_and(|l| l == "> draft text")
    });
    assert_eq!(shown, expected, "{}", shown.join("\n"));
    // And it stays so: a resize while stopped is not laid out again over the shell's lines
    // (where the block is now, only the editor's closing tells).
    std::thread::sleep(std::time::Duration::from_millis(400));
    let later = pane.visible();
    assert_eq!(later, expected, "{}", later.join("\n"));
    // The terminal's cursor is at the editing position, after the draft.
    assert_eq!(pane.cursor(), (12, expected.len() - 1));

    // The editor reads in its raw mode: the letters go in, ← moves the cursor, nothing echoes.
    pane.text("XY");
    pane.keys(&["Left"]);
    pane.text("Z");
    let last = expected.len() - 1;
    expected[last] = "> draft textXZY".into();
    let shown = pane.wait_visible("the typing", |rows| {
        rows.last().is_some_and(|l| l == "> draft textXZY")
    });
    assert_eq!(shown, expected, "{}", shown.join("\n"));
    // After the Z (← moved back over the Y).
    assert_eq!(pane.cursor(), (14, last));

    pane.keys(&["Enter"]);
    tmux_wait(&pane.socket, "the second question", |p| {
        p.contains("2/2 Frontend")
    });
    pane.keys(&["Tab"]);
    tmux_wait(&pane.socket, "the review", |p| p.contains("Review answers"));
    pane.keys(&["Enter"]);
    let history = tmux_wait(&pane.socket, "the transcript", |p| {
        p.contains("✔ Submitted") && p.trim_end().ends_with('$')
    });
    let result: Value =
        serde_json::from_str(&std::fs::read_to_string(pane.dir.path().join("r.json")).unwrap())
            .unwrap();
    assert_eq!(
        result["details"]["answers"],
        json!({
            "style": {
                "values": ["draft textXZY"],
                "labels": ["draft textXZY"],
                "indices": [],
                "customText": "draft textXZY"
            }
        })
    );
    // What the run left before the stop stays above the shell's lines; the whole final
    // transcript comes under them, in order, then the shell's prompt.
    let mut whole: Vec<String> = expected[..expected.len() - BLOCK.len() - 1].to_vec();
    whole.extend(
        [
            "Implementation preferences",
            "Style: “draft textXZY”",
            "Frontend: no answer",
            "✔ Submitted",
            "$",
        ]
        .map(String::from),
    );
    assert_eq!(rows(&history), whole, "{history}");
}

#[test]
fn after_an_outside_sigtstp_with_the_editor_open_fg_draws_it_again_in_raw_mode() {
    an_outside_stop_with_the_editor_open("TSTP", "", false);
}

#[test]
fn after_an_outside_sigstop_with_the_editor_open_fg_draws_it_again_in_raw_mode() {
    an_outside_stop_with_the_editor_open("STOP", "", false);
}

/// A narrower window after the stop: the block comes back right under the shell's lines (a
/// row of spaces as wide as the old window would have wrapped into a blank row).
#[test]
fn after_an_outside_sigstop_and_a_narrowing_fg_draws_the_editor_right_under_the_shell() {
    an_outside_stop_with_the_editor_open("STOP", "", true);
}

/// With `--timeout` the editor runs on a thread of its own (src/frontend/tty/backend.rs).
#[test]
fn after_an_outside_sigstop_with_the_timed_editor_open_fg_draws_it_again_in_raw_mode() {
    an_outside_stop_with_the_editor_open("STOP", " --timeout 120", false);
}

/// A stop from outside longer than `--timeout` with the editor open: `fg` starts the time
/// again, as after Ctrl+Z, so the run does not time out the moment it is continued.
#[test]
fn a_stop_longer_than_the_timeout_with_the_editor_open_starts_the_time_again() {
    let Some(pane) = Pane::start("long") else {
        return;
    };
    // Six seconds a step: under a loaded CI, four were once too few between two keys.
    pane.ask("pi-ask q.json --timeout 6 > r.json");
    pane.text("4");
    // The countdown shows from the start (six seconds): the editor's own hint is awaited.
    tmux_wait(&pane.socket, "the editor", |p| {
        p.contains("Type your own \u{b7} Closing in")
    });
    pane.text("draft text");
    tmux_wait(&pane.socket, "the draft", |p| p.contains("> draft text"));
    let pid = pane.pi_ask().to_string();
    let killed = std::process::Command::new("kill")
        .args(["-STOP", &pid])
        .status()
        .unwrap();
    assert!(killed.success());
    tmux_wait(&pane.socket, "the shell's Stopped line", |p| {
        p.contains("Stopped") && p.trim_end().ends_with('$')
    });
    std::thread::sleep(std::time::Duration::from_secs(7));
    pane.text("fg");
    pane.keys(&["Enter"]);
    // The draft's row under `$ fg` (the one from before the stop is above it).
    pane.wait_visible("the editor drawn again", |rows| {
        let fg = rows.iter().rposition(|l| l == "$ fg");
        let draft = rows.iter().rposition(|l| l == "> draft text");
        fg.zip(draft).is_some_and(|(fg, draft)| fg < draft)
    });
    pane.text("XY");
    pane.keys(&["Enter"]);
    tmux_wait(&pane.socket, "the second question", |p| {
        p.contains("2/2 Frontend")
    });
    pane.keys(&["Tab"]);
    tmux_wait(&pane.socket, "the review", |p| p.contains("Review answers"));
    pane.keys(&["Enter"]);
    tmux_wait(&pane.socket, "the end", |p| {
        p.trim_end().ends_with('$') && p.contains("Frontend: no answer")
    });
    let result: Value =
        serde_json::from_str(&std::fs::read_to_string(pane.dir.path().join("r.json")).unwrap())
            .unwrap();
    assert_eq!(result["details"]["cancelled"], false, "{result}");
    assert_eq!(
        result["details"]["answers"]["style"]["customText"],
        "draft textXY"
    );
}

/// Plain mode, Ctrl+Z at a prompt, then `fg`: the prompt is printed again under the shell's
/// lines, and the line typed there answers the question.
#[test]
fn in_plain_mode_fg_after_ctrl_z_prints_the_prompt_again() {
    let Some(pane) = Pane::start("plain") else {
        return;
    };
    pane.run("pi-ask --plain q.json > r.json");
    tmux_wait(&pane.socket, "the first prompt", |p| {
        p.trim_end().ends_with("1/2>")
    });
    pane.suspend();
    pane.text("fg");
    pane.keys(&["Enter"]);
    let shown = pane.wait_visible("the prompt again", |rows| {
        rows.last().is_some_and(|l| l == "1/2>")
    });
    let at = shown.iter().position(|l| l == "$ fg").expect("fg");
    assert_eq!(
        shown[at..],
        ["$ fg", "pi-ask --plain q.json > r.json", "1/2>"],
        "{}",
        shown.join("\n")
    );
    pane.text("2");
    pane.keys(&["Enter"]);
    tmux_wait(&pane.socket, "the second prompt", |p| {
        p.trim_end().ends_with("2/2>")
    });
    pane.keys(&["Enter"]);
    tmux_wait(&pane.socket, "the review", |p| {
        p.trim_end().ends_with("review>")
    });
    pane.text("1");
    pane.keys(&["Enter"]);
    tmux_wait(&pane.socket, "the shell", |p| {
        p.contains("Submitted") && p.trim_end().ends_with('$')
    });
    let result: Value =
        serde_json::from_str(&std::fs::read_to_string(pane.dir.path().join("r.json")).unwrap())
            .unwrap();
    assert_eq!(
        result["details"]["answers"],
        json!({"style": {"values": ["balanced"], "labels": ["Balanced"], "indices": [2]}})
    );
}

/// `shown` has the job's `state` line (`Exit 143`, `Running`) and no row holding any of
/// `absent`: the run wrote nothing on the shell's terminal.
fn assert_job_state(shown: &[String], state: &str, absent: &[&str]) {
    assert!(
        shown.iter().any(|l| l.contains(state)),
        "{}",
        shown.join("\n")
    );
    assert!(
        !shown.iter().any(|l| absent.iter().any(|a| l.contains(a))),
        "{}",
        shown.join("\n")
    );
}

/// The result file `r.json` in the pane's folder.
fn result_in(pane: &Pane) -> Value {
    serde_json::from_str(&std::fs::read_to_string(pane.dir.path().join("r.json")).unwrap()).unwrap()
}

/// A run started as a background job (`&`) draws nothing and waits to be brought to the
/// foreground: `--timeout` ends it with its result (before, it stopped on SIGTTOU for good),
/// and so does `kill` (bash sends SIGTERM, and SIGCONT to a stopped job).
#[test]
fn a_background_job_waits_for_the_foreground_and_a_timeout_or_a_kill_ends_it() {
    let Some(pane) = Pane::start("background") else {
        return;
    };
    pane.run("pi-ask q.json --timeout 1 > r.json & wait $!; echo code=$?");
    let shown = pane.wait_visible("the timeout's exit", |rows| {
        rows.iter().any(|l| l.starts_with("code="))
    });
    assert!(
        shown.iter().any(|l| l == "code=124"),
        "{}",
        shown.join("\n")
    );
    assert!(
        !shown.iter().any(|l| l.contains("1/2 Style")),
        "{}",
        shown.join("\n")
    );
    assert_eq!(
        result_in(&pane)["details"]["error"]["code"],
        json!("timeout")
    );
    // The kill once the run handles SIGTERM (before, the default action would end it), and a
    // marker of its own: `code=124` may still be on the screen until `clear` runs.
    pane.run("clear; pi-ask q.json > r.json &");
    crate::common::wait_until_handled(pane.pi_ask() as u32, libc::SIGTERM);
    pane.run("kill %1; wait $!; echo killed=$?");
    let shown = pane.wait_visible("the kill's exit", |rows| {
        rows.iter().any(|l| l.starts_with("killed="))
    });
    assert!(
        shown.iter().any(|l| l == "killed=143"),
        "{}",
        shown.join("\n")
    );
    assert_eq!(
        result_in(&pane)["details"]["error"]["code"],
        json!("aborted")
    );
}

/// `fg` brings a run started in the background to the foreground, where it asks as usual.
#[test]
fn a_background_job_asks_once_it_is_brought_to_the_foreground() {
    let Some(pane) = Pane::start("foreground") else {
        return;
    };
    pane.run("pi-ask q.json > r.json &");
    std::thread::sleep(std::time::Duration::from_millis(500));
    let shown = pane.visible();
    assert!(
        !shown
            .iter()
            .any(|l| l.contains("Stopped") || l.contains("1/2 Style")),
        "{}",
        shown.join("\n")
    );
    pane.text("fg");
    pane.keys(&["Enter"]);
    tmux_wait(&pane.socket, "the first question", |p| {
        p.contains("1/2 Style")
    });
    pane.answer_and_submit();
}

/// SIGTERM while pi-ask is stopped by Ctrl+Z, then `fg`: the run ends as the signal says
/// (143, `aborted`) and leaves only its final transcript; the block is not drawn again first
/// (it was, and stayed above the transcript).
#[test]
fn sigterm_while_suspended_then_fg_leaves_only_the_transcript() {
    let Some(pane) = Pane::start("term-stopped") else {
        return;
    };
    pane.answered_then_suspended("pi-ask q.json > r.json");
    pane.text("clear; kill -TERM $(jobs -p %1); fg; echo code=$?");
    pane.keys(&["Enter"]);
    // bash writes the echo and its prompt apart: both are awaited.
    let shown = pane.wait_visible("the exit", |rows| {
        rows.iter().any(|l| l.starts_with("code=")) && rows.last().is_some_and(|l| l == "$")
    });
    let at = shown
        .iter()
        .position(|l| l == "pi-ask q.json > r.json")
        .unwrap_or_else(|| panic!("fg's line:\n{}", shown.join("\n")));
    assert_eq!(
        shown[at + 1..],
        [
            "Implementation preferences",
            "Style: Balanced",
            "Frontend: no answer",
            "✘ Aborted by SIGTERM: the answers were not sent",
            "code=143",
            "$"
        ],
        "{}",
        shown.join("\n")
    );
    assert_eq!(
        result_in(&pane)["details"]["error"]["code"],
        json!("aborted")
    );
}

/// Ctrl+Z, then `kill %1` (SIGTERM, and SIGCONT to the stopped job, which stays in the
/// background): the run ends with its result (143, `aborted`) and never stops again; it
/// writes nothing on the terminal, which the shell has (it stopped on SIGTTOU for good).
#[test]
fn kill_of_a_suspended_run_ends_it_with_its_result() {
    let Some(pane) = Pane::start("kill-suspended") else {
        return;
    };
    pane.answered_then_suspended("pi-ask q.json > r.json");
    // bash's `wait` could still see the job stopped: its end is read from `jobs`.
    let shown = pane.jobs_after("kill %1; sleep 1");
    assert_job_state(&shown, "Exit 143", &["2/2 Frontend", "Aborted"]);
    assert_eq!(
        result_in(&pane)["details"]["error"]["code"],
        json!("aborted")
    );
}

/// Ctrl+Z, then `bg`, and no `fg`: `--timeout` runs from the continue, and ends the run in
/// the background with its result (124, `timeout`, the answer given kept), writing nothing on
/// the shell's terminal (it waited for `fg` for good).
#[test]
fn a_suspended_run_sent_to_the_background_times_out_there() {
    let Some(pane) = Pane::start("bg-timeout") else {
        return;
    };
    pane.answered_then_suspended("pi-ask q.json --timeout 2 > r.json");
    let shown = pane.jobs_after("bg; sleep 4");
    assert_job_state(&shown, "Exit 124", &["2/2 Frontend", "Style", "Timed"]);
    let result = result_in(&pane);
    assert_eq!(result["details"]["error"]["code"], json!("timeout"));
    assert_eq!(
        result["details"]["answers"],
        json!({"style": {"values": ["balanced"], "labels": ["Balanced"], "indices": [2]}})
    );
}

/// Ctrl+Z, then `bg`: the run waits in the background drawing nothing (it stopped again on
/// SIGTTOU, and `fg` then drew the question twice); `fg` asks once, as after Ctrl+Z.
#[test]
fn a_suspended_run_sent_to_the_background_asks_once_at_fg() {
    let Some(pane) = Pane::start("bg-fg") else {
        return;
    };
    pane.ask("pi-ask q.json > r.json");
    pane.suspend();
    let shown = pane.jobs_after("bg; sleep 0.5");
    assert_job_state(&shown, "Running", &["1/2"]);
    pane.text("clear; fg");
    pane.keys(&["Enter"]);
    tmux_wait(&pane.socket, "the first question", |p| {
        p.contains("1/2 Style")
    });
    let shown = pane.visible();
    assert_eq!(
        shown.iter().filter(|l| l.contains("1/2 Style")).count(),
        1,
        "{}",
        shown.join("\n")
    );
    pane.answer_and_submit();
}

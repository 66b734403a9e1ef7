//! The pi extension (`examples/pi-extension/`) against the real pi (npm
//! `@earendil-works/pi-coding-agent`, pinned in the extension's lockfile) with pi-ai's faux
//! model: no network, no real model. pi 1.6 needs Node >= 22.19: `scripts/node22 --install`
//! finds one (`PI_ASK_NODE`, `node` on PATH) or installs the npm registry's `node-linux-<arch>`
//! package into `target/node22/` (not in git), as `.ci/run` does; every node, npm and pi
//! process here runs with that Node first on PATH. `npm ci` runs here when the extension's
//! `node_modules` is missing or older than its lockfile (`.ci/run` does it up front).
//! Without `node` on PATH, or with `PI_ASK_SKIP_PI_TESTS=1`, every test here passes at
//! once and one line on stderr says they were skipped and why; with `CI` set (`.ci/run`)
//! they always run, and a Node that cannot be found or installed fails them ([`skipped`]).
//!
//! - `node_tests`: the extension's node tests (`examples/pi-extension/test/*.test.mjs`): print,
//!   json and RPC mode, scripted answers, errors, `pi install`, unit tests of the helpers; run
//!   with this build of the binary as `PI_ASK_BIN`;
//! - `tui_*`: pi's interactive TUI in a pty (tests/common/pty.rs): the faux model calls
//!   `ask_user`, the binary's questionnaire takes over the terminal, keys answer it (or Ctrl+C,
//!   SIGINT or pi's abort end it), pi's TUI comes back and the next turn sees the result.

use crate::common::pty::{Options, Session};
use crate::common::say;
use serde_json::{json, Value};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// `npm ci` downloads pi and its dependencies once: a few minutes at most.
const NPM_TIMEOUT: Duration = Duration::from_secs(600);
/// The whole node test run (about a dozen pi runs of a few seconds each).
const NODE_TESTS_TIMEOUT: Duration = Duration::from_secs(600);

pub(crate) fn ext_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/pi-extension")
}

/// The binary under test, as the extension's `PI_ASK_BIN`.
fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_pi-ask")
}

/// Runs `cmd` with stdout and stderr in a temporary file, killing it after `timeout`. Returns
/// whether it succeeded and everything it printed.
pub(crate) fn run_bounded(mut cmd: Command, timeout: Duration) -> (bool, String) {
    let log = tempfile::NamedTempFile::new().expect("temporary log file");
    let out = File::options().append(true).open(log.path()).unwrap();
    let err = out.try_clone().unwrap();
    let what = format!("{cmd:?}");
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err)
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {what}: {e}"));
    let deadline = Instant::now() + timeout;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let text = std::fs::read_to_string(log.path()).unwrap_or_default();
    match status {
        Some(s) => (s.success(), text),
        None => (false, format!("{text}\n{what} timed out after {timeout:?}")),
    }
}

/// Whether an environment switch is on: set, not empty, not `0` or `false`.
fn switch(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| !v.is_empty() && v != "0" && v != "false")
}

/// Whether the pi tests are skipped here, saying why in one line (once): with
/// `PI_ASK_SKIP_PI_TESTS=1`, or without `node` on PATH outside CI (`CI` set, as `.ci/run`
/// runs: there they always run, and [`setup`] fails them when Node cannot be had).
pub(crate) fn skipped() -> bool {
    static SKIP: OnceLock<Option<&'static str>> = OnceLock::new();
    let why = SKIP.get_or_init(|| {
        if switch("PI_ASK_SKIP_PI_TESTS") {
            return Some("PI_ASK_SKIP_PI_TESTS is set");
        }
        let has_node = Command::new("node")
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok();
        if !has_node && !switch("CI") {
            return Some(
                "node is not on PATH (the pi extension tests need Node and npm; CI runs them)",
            );
        }
        None
    });
    if let Some(why) = why {
        static SAID: OnceLock<()> = OnceLock::new();
        SAID.get_or_init(|| say(&format!("pi_extension: skipped: {why}")));
    }
    why.is_some()
}

/// A Node >= 22.19 (pi 1.6 needs it), found or installed by `scripts/node22 --install`, and
/// the `PATH` with its directory first (so npm and anything pi starts use it too).
pub(crate) struct Node {
    pub(crate) bin: PathBuf,
    pub(crate) path_env: std::ffi::OsString,
}

/// Finds (or installs) Node 22 and installs the extension's npm dependencies, once per test
/// binary.
pub(crate) fn setup() -> &'static Node {
    static SETUP: OnceLock<Result<Node, String>> = OnceLock::new();
    let result = SETUP.get_or_init(|| {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/node22");
        // Its line announcing a download goes straight to the terminal running the tests.
        let found = Command::new("bash")
            .arg(&script)
            .arg("--install")
            .stdin(Stdio::null())
            .stderr(Stdio::inherit())
            .output()
            .map_err(|e| format!("cannot run {}: {e}", script.display()))?;
        if !found.status.success() {
            return Err(
                "the pi extension tests need Node >= 22.19 (pi 1.6): scripts/node22 said why above"
                    .to_string(),
            );
        }
        let bin = PathBuf::from(String::from_utf8_lossy(&found.stdout).trim());
        let mut dirs = vec![bin.parent().unwrap().to_path_buf()];
        dirs.extend(std::env::split_paths(
            &std::env::var_os("PATH").unwrap_or_default(),
        ));
        let path_env = std::env::join_paths(dirs).map_err(|e| e.to_string())?;
        let dir = ext_dir();
        if npm_install_needed(&dir) {
            // Straight to the terminal (not captured by the test harness): a newcomer's first
            // `cargo test` downloads this, and should know why it waits.
            let _ = std::io::Write::write_all(
                &mut std::io::stderr(),
                b"pi_extension: npm ci in examples/pi-extension: downloading pi 1.6 and its \
                  dependencies (a few hundred MB), once\n",
            );
            let mut npm = Command::new("npm");
            npm.args(["ci", "--no-audit", "--no-fund"])
                .current_dir(&dir)
                .env("PATH", &path_env);
            let (ok, out) = run_bounded(npm, NPM_TIMEOUT);
            if !ok {
                return Err(format!("npm ci in {} failed:\n{out}", dir.display()));
            }
        }
        Ok(Node { bin, path_env })
    });
    match result {
        Ok(node) => node,
        Err(e) => panic!("{e}"),
    }
}

/// A `node` command with Node 22 (see [`setup`]).
fn node_command() -> Command {
    let node = setup();
    let mut cmd = Command::new(&node.bin);
    cmd.env("PATH", &node.path_env)
        // Keys typed right after the first frame act at once (the grace is off).
        .env("PI_ASK_KEY_GRACE", "0");
    cmd
}

/// Whether `node_modules` is missing or older than the committed lockfile (npm writes
/// `node_modules/.package-lock.json` at the end of every install).
fn npm_install_needed(dir: &Path) -> bool {
    let modified = |p: PathBuf| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    match (
        modified(dir.join("package-lock.json")),
        modified(dir.join("node_modules/.package-lock.json")),
    ) {
        (Some(lock), Some(installed)) => lock > installed,
        _ => true,
    }
}

/// The node test files, in name order.
fn node_test_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(ext_dir().join("test"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".test.mjs"))
        .collect();
    files.sort();
    files
}

#[test]
fn node_tests() {
    if skipped() {
        return;
    }
    let files = node_test_files();
    assert!(files.len() >= 2, "no node test files found: {files:?}");
    let mut node = node_command();
    node.args(["--test", "--test-concurrency=1", "--test-reporter=tap"])
        .args(&files)
        .current_dir(ext_dir())
        .env("PI_ASK_BIN", bin())
        .env_remove("PI_ASK_ANSWERS");
    let (ok, out) = run_bounded(node, NODE_TESTS_TIMEOUT);
    assert!(ok, "the pi extension's node tests failed:\n{out}");
    // Every test ran and none was skipped or left as todo.
    assert!(out.contains("\n# fail 0"), "{out}");
    assert!(
        out.contains("\n# skipped 0") && out.contains("\n# todo 0"),
        "{out}"
    );
}

/// examples/implementation-preferences.json: a single and a multi question.
const PREFS: &str = include_str!("../examples/implementation-preferences.json");

const DOWN: &str = "\x1b[B";
/// The prompts of examples/implementation-preferences.json: on the screen only while that
/// question is up (pi's collapsed call row shows the labels).
const Q1: &str = "How should I frame the next prompt?";
const Q2: &str = "Which frontend frameworks have you used?";

/// Whether `screen` has a row that is `row` once pi's padding is trimmed (a collapsed result
/// row such as `Cancelled`).
fn has_row(screen: &str, row: &str) -> bool {
    screen.lines().any(|l| l.trim() == row)
}

/// `details.questions` of examples/implementation-preferences.json.
fn prefs_questions() -> Value {
    json!([
        {"id": "style", "label": "Style", "prompt": "How should I frame the next prompt?", "type": "single"},
        {"id": "frameworks", "label": "Frontend", "prompt": "Which frontend frameworks have you used?", "type": "multi"}
    ])
}

/// pi's interactive TUI in a 30x100 pty: offline, the faux model, the extension under test,
/// a temporary HOME, agent dir and session dir, and the prompt "go" already sent.
struct PiTui {
    session: Session,
    sessions: PathBuf,
}

impl PiTui {
    fn start(payload: &str, env: &[(&str, &str)]) -> PiTui {
        PiTui::start_with(payload, env, &["go"])
    }

    /// [`PiTui::start`] with other final arguments, e.g. `["-p", "go"]` for print mode.
    fn start_with(payload: &str, env: &[(&str, &str)], last_args: &[&str]) -> PiTui {
        PiTui::start_in(payload, env, last_args, None)
    }

    /// [`PiTui::start_with`] with pi running in `project` (default: a temporary folder).
    fn start_in(
        payload: &str,
        env: &[(&str, &str)],
        last_args: &[&str],
        project: Option<&Path>,
    ) -> PiTui {
        PiTui::start_at(None, payload, env, last_args, project)
    }

    /// [`PiTui::start_in`] with HOME, the payload and the session dir in `base` (default: the
    /// run's own temporary folder), so that a later run there continues the session.
    fn start_at(
        base: Option<&Path>,
        payload: &str,
        env: &[(&str, &str)],
        last_args: &[&str],
        project: Option<&Path>,
    ) -> PiTui {
        let dir = tempfile::tempdir().expect("temp dir");
        let base = base.unwrap_or(dir.path()).to_path_buf();
        let payload_file = base.join("payload.json");
        std::fs::write(&payload_file, payload).unwrap();
        let home = base.join("home");
        std::fs::create_dir_all(&home).unwrap();
        let sessions = base.join("sessions");
        let ext = ext_dir();
        let mut cmd = node_command();
        cmd.arg(ext.join("node_modules/@earendil-works/pi-coding-agent/dist/cli.js"))
            .arg("--offline")
            .arg("--session-dir")
            .arg(&sessions)
            .args(["-ne", "-ns", "-np", "-nc", "-e"])
            .arg(ext.join("test/faux.ts"))
            .arg("-e")
            .arg(ext.join("index.ts"))
            .args(["--provider", "faux", "--model", "faux-1"]);
        // The bridge that answers from elsewhere (test/bridge.ts), when given its response.
        if env.iter().any(|(k, _)| *k == "PI_ASK_TEST_BRIDGE_RESPONSE") {
            cmd.arg("-e").arg(ext.join("test/bridge.ts"));
        }
        cmd.args(last_args);
        let mut opts = Options {
            cwd: project.map(Path::to_path_buf),
            ..Options::default()
        };
        let home_s = home.to_string_lossy().to_string();
        opts.env = vec![
            ("HOME".into(), home_s.clone()),
            ("PI_CODING_AGENT_DIR".into(), format!("{home_s}/.pi/agent")),
            ("PI_OFFLINE".into(), "1".into()),
            ("PI_ASK_BIN".into(), bin().into()),
            (
                "PI_ASK_TEST_PAYLOAD".into(),
                payload_file.to_string_lossy().into(),
            ),
        ];
        opts.env
            .extend(env.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        let output = dir.path().join("unused-result.json");
        PiTui {
            session: Session::spawn_command(cmd, dir, output, opts),
            sessions,
        }
    }

    /// The entries of pi's session file.
    fn entries(&self) -> Vec<Value> {
        let files: Vec<PathBuf> = std::fs::read_dir(&self.sessions)
            .expect("pi wrote a session directory")
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
            .collect();
        assert_eq!(files.len(), 1, "{files:?}");
        std::fs::read_to_string(&files[0])
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    /// The stored messages with `role`, in order.
    fn messages(&self, role: &str) -> Vec<Value> {
        self.entries()
            .into_iter()
            .filter(|e| e["type"] == "message" && e["message"]["role"] == role)
            .map(|e| e["message"].clone())
            .collect()
    }

    /// The one stored ask_user tool result.
    fn tool_result(&self) -> Value {
        let results = self.messages("toolResult");
        assert_eq!(results.len(), 1, "{results:?}");
        assert_eq!(results[0]["toolName"], "ask_user");
        results[0].clone()
    }

    /// Asserts that the model's second turn saw exactly the tool result's content.
    fn assert_model_saw_the_content(&self) {
        let result = self.tool_result();
        let text = result["content"][0]["text"].as_str().unwrap().to_string();
        let last = self.messages("assistant").pop().unwrap();
        assert_eq!(
            last["content"],
            json!([{"type": "text", "text": format!("MODEL SAW:\n{text}\nEND OF TURN")}])
        );
    }

    /// pi is still running and its editor takes keys: Ctrl+D on the empty editor quits it.
    fn quit(mut self) {
        self.session.send("\x04");
        let (code, _) = self.session.finish();
        assert_eq!(
            code,
            0,
            "pi did not quit cleanly:\n{}",
            self.session.screen()
        );
    }
}

#[test]
fn tui_answer_the_questionnaire_and_pi_continues() {
    if skipped() {
        return;
    }
    let mut pi = PiTui::start(PREFS, &[]);
    let s = &mut pi.session;
    s.wait_for(Q1);
    s.send(DOWN);
    s.wait_for("> ( ) 2. Balanced");
    s.send("\r");
    s.wait_for(Q2);
    s.send(" ");
    s.wait_for("> [x] 1. React");
    s.send("\r");
    let screen = s.wait_all(&["Review answers", "> 1. Submit"]);
    assert!(screen.contains("\n  Frontend\n     → React\n"), "{screen}");
    s.send("\r");
    // pi's TUI is back: the transcript shows the call, the answers and the next turn.
    let screen = s.wait_for("END OF TURN");
    assert!(
        screen.contains("ask_user 2 question(s) (Style, Frontend)"),
        "{screen}"
    );
    assert!(screen.contains("✓ Style: Balanced"), "{screen}");
    assert!(screen.contains("✓ Frontend: React"), "{screen}");
    // The model's turn: what the model saw, the contract's summary.
    let lines: Vec<&str> = screen.lines().map(str::trim).collect();
    assert!(
        lines.windows(4).any(|w| w
            == [
                "MODEL SAW:",
                "Style: Balanced",
                "Frontend: React",
                "END OF TURN"
            ]),
        "{screen}"
    );
    assert!(!screen.contains("Review answers"), "{screen}");

    let result = pi.tool_result();
    assert_eq!(result["isError"], json!(false));
    assert_eq!(
        result["details"],
        json!({
            "title": "Implementation preferences",
            "cancelled": false,
            "questions": prefs_questions(),
            "answers": {
                "style": {"values": ["balanced"], "labels": ["Balanced"], "indices": [2]},
                "frameworks": {"values": ["react"], "labels": ["React"], "indices": [1]}
            }
        })
    );
    pi.assert_model_saw_the_content();
    pi.quit();
}

#[test]
fn tui_a_bridge_extension_answers_the_questionnaire_through_the_events() {
    if skipped() {
        return;
    }
    let log = tempfile::NamedTempFile::new().unwrap();
    let log_path = log.path().to_string_lossy().to_string();
    let response = json!({"kind": "answer", "answers": {
        "style": {"values": ["balanced"]}, "frameworks": {"values": ["react"]}}})
    .to_string();
    let mut pi = PiTui::start(
        PREFS,
        &[
            ("PI_ASK_TEST_BRIDGE_RESPONSE", &response),
            ("PI_ASK_TEST_BRIDGE_LOG", &log_path),
        ],
    );
    // No key is pressed: the bridge answers, and pi's next turn sees the answers.
    let screen = pi.session.wait_for("END OF TURN");
    assert!(screen.contains("✓ Style: Balanced"), "{screen}");
    assert!(screen.contains("✓ Frontend: React"), "{screen}");
    let result = pi.tool_result();
    assert_eq!(result["isError"], json!(false));
    assert_eq!(
        result["details"],
        json!({
            "title": "Implementation preferences",
            "cancelled": false,
            "questions": prefs_questions(),
            "answers": {
                "style": {"values": ["balanced"], "labels": ["Balanced"], "indices": [2]},
                "frameworks": {"values": ["react"], "labels": ["React"], "indices": [1]}
            }
        })
    );
    let told: Vec<Value> = std::fs::read_to_string(log.path())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(told.len(), 2, "{told:?}");
    assert_eq!(told[0]["channel"], "ask:started");
    assert_eq!(told[0]["data"]["flowId"], "call-ask-1");
    assert_eq!(
        told[0]["data"]["questions"][0]["options"][1],
        json!({"value": "balanced", "label": "Balanced",
            "description": "A standard prompt with a bit more context."})
    );
    assert_eq!(
        told[1],
        json!({"channel": "ask:submit-result", "data": {"version": 1,
            "requestId": "bridge-call-ask-1", "flowId": "call-ask-1", "ok": true}})
    );
    pi.assert_model_saw_the_content();
    pi.quit();
}

/// The result of a questionnaire the user dismissed: no answers, no error.
fn dismissed_details() -> Value {
    json!({
        "title": "Implementation preferences",
        "cancelled": true,
        "questions": prefs_questions(),
        "answers": {}
    })
}

#[test]
fn tui_ctrl_c_in_the_questionnaire_cancels_it_and_pi_survives() {
    if skipped() {
        return;
    }
    let mut pi = PiTui::start(PREFS, &[]);
    let s = &mut pi.session;
    s.wait_for(Q1);
    s.send("\x03");
    let screen = s.wait_for("END OF TURN");
    assert!(has_row(&screen, "Cancelled"), "{screen}");
    assert_eq!(pi.tool_result()["details"], dismissed_details());
    pi.assert_model_saw_the_content();
    pi.quit();
}

#[test]
fn tui_sigint_to_pi_while_the_questionnaire_runs_does_not_kill_pi() {
    if skipped() {
        return;
    }
    // A Ctrl+C typed while the terminal is in cooked mode (between prompts) sends SIGINT to the
    // whole foreground process group: pi and the binary. pi must ignore it.
    let mut pi = PiTui::start(PREFS, &[]);
    let s = &mut pi.session;
    s.wait_for(Q1);
    crate::common::send_signal(-s.pid(), libc::SIGINT);
    let screen = s.wait_for("END OF TURN");
    assert!(has_row(&screen, "Cancelled"), "{screen}");
    assert_eq!(pi.tool_result()["details"], dismissed_details());
    pi.quit();
}

#[test]
fn tui_sigquit_to_pi_while_the_questionnaire_runs_does_not_kill_pi() {
    if skipped() {
        return;
    }
    // Ctrl+\ in cooked mode: SIGQUIT to the group. The binary aborts the questionnaire; pi,
    // which gets Ctrl+\ as a key in its own raw-mode TUI, must not die of it either.
    let mut pi = PiTui::start(PREFS, &[]);
    let s = &mut pi.session;
    s.wait_for(Q1);
    crate::common::send_signal(-s.pid(), libc::SIGQUIT);
    let screen = s.wait_for("END OF TURN");
    assert!(has_row(&screen, "Cancelled"), "{screen}");
    assert_eq!(
        pi.tool_result()["details"]["error"],
        json!({"code": "aborted", "message": "received SIGQUIT"})
    );
    pi.quit();
}

#[test]
fn tui_abort_terminates_the_questionnaire_with_an_aborted_result() {
    if skipped() {
        return;
    }
    let flag = tempfile::tempdir().unwrap();
    let abort_file = flag.path().join("abort");
    let mut pi = PiTui::start(
        PREFS,
        &[("PI_ASK_TEST_ABORT_FILE", abort_file.to_str().unwrap())],
    );
    let s = &mut pi.session;
    s.wait_for(Q1);
    // test/faux.ts calls ctx.abort() (what pi's Esc does) once this file exists.
    std::fs::write(&abort_file, "").unwrap();
    let screen = s.wait_for("Operation aborted");
    assert!(has_row(&screen, "Cancelled"), "{screen}");
    let result = pi.tool_result();
    assert_eq!(
        result["details"],
        json!({
            "title": "Implementation preferences",
            "cancelled": true,
            "questions": prefs_questions(),
            "answers": {},
            "error": {"code": "aborted", "message": "received SIGTERM"}
        })
    );
    // The turn was aborted: the model's next turn is stored as aborted, with no text.
    let assistant = pi.messages("assistant");
    assert_eq!(assistant.len(), 2, "{assistant:?}");
    assert_eq!(assistant[1]["stopReason"], "aborted", "{assistant:?}");
    assert_eq!(assistant[1]["content"], json!([]), "{assistant:?}");
    pi.quit();
}

#[test]
fn print_mode_on_a_terminal_asks_there() {
    if skipped() {
        return;
    }
    let mut pi = PiTui::start_with(PREFS, &[], &["-p", "go"]);
    let s = &mut pi.session;
    s.wait_for(Q1);
    s.send("\r");
    s.wait_for(Q2);
    s.send(DOWN);
    s.wait_for("> [ ] 2. Vue");
    s.send(" ");
    s.wait_for("> [x] 2. Vue");
    s.send("\r");
    s.wait_all(&["Review answers", "> 1. Submit"]);
    s.send("\r");
    let screen = s.wait_for("END OF TURN");
    assert!(
        screen.lines().any(|l| l.trim() == "Frontend: Vue"),
        "{screen}"
    );
    let (code, _) = s.finish();
    assert_eq!(code, 0);
    assert_eq!(
        pi.tool_result()["details"]["answers"],
        json!({
            "style": {"values": ["minimal"], "labels": ["Minimal"], "indices": [1]},
            "frameworks": {"values": ["vue"], "labels": ["Vue"], "indices": [2]}
        })
    );
    pi.assert_model_saw_the_content();
}

#[test]
fn print_mode_sigint_while_asking_cancels_the_questionnaire_not_pi() {
    if skipped() {
        return;
    }
    let mut pi = PiTui::start_with(PREFS, &[], &["-p", "go"]);
    let s = &mut pi.session;
    s.wait_for(Q1);
    crate::common::send_signal(-s.pid(), libc::SIGINT);
    s.wait_for("END OF TURN");
    let (code, _) = s.finish();
    assert_eq!(code, 0);
    assert_eq!(pi.tool_result()["details"], dismissed_details());
    pi.assert_model_saw_the_content();
}

#[test]
fn tui_at_completion_lists_the_files_of_pis_working_directory() {
    if skipped() {
        return;
    }
    let project = tempfile::tempdir().unwrap();
    for rel in ["src/widget_factory.rs", "src/main.rs", "README.md"] {
        let path = project.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, "").unwrap();
    }
    let payload = r#"{"questions":[{"id":"file","prompt":"Which file should change?","options":[{"value":"none","label":"None"}]}]}"#;
    let mut pi = PiTui::start_in(
        payload,
        // a loaded machine must not turn the first Tab into a partial list
        &[("PI_ASK_INDEX_WAIT_MS", "10000")],
        &["go"],
        Some(project.path()),
    );
    let s = &mut pi.session;
    // The Type your own row is on the questionnaire's screen only (pi's transcript shows the
    // prompt too).
    s.wait_for("  ( ) 2. Type your own…");
    s.send(DOWN);
    s.wait_for("> ( ) 2. Type your own…");
    s.send("\r");
    s.wait_for("\n> Type answer...");
    s.send("use @widget_f");
    s.wait_for("> use @widget_f");
    s.send("\t");
    s.wait_for("> use @src/widget_factory.rs ");
    s.send("please");
    s.wait_for("> use @src/widget_factory.rs please");
    s.send("\r");
    s.wait_all(&["Review answers", "> 1. Submit"]);
    s.send("\r");
    s.wait_for("END OF TURN");
    let text = "use @src/widget_factory.rs please";
    assert_eq!(
        pi.tool_result()["details"]["answers"],
        json!({"file": {"values": [text], "labels": [text], "indices": [], "customText": text}})
    );
    pi.assert_model_saw_the_content();
    pi.quit();
}

/// The normal (not alternate) screen of a 30x100 terminal after `raw`, scrollback first, as
/// a terminal shows it once the alternate screen is left: what stays in the person's
/// scrollback. Trailing blank lines dropped.
fn main_screen_lines(raw: &[u8]) -> Vec<String> {
    let n = |v: u16| std::num::NonZeroU16::new(v).unwrap();
    let mut parser = vt100::Parser::new(n(30), n(100), usize::MAX);
    parser.process(raw);
    parser.process(b"\x1b[?1049l");
    let screen = parser.screen_mut();
    screen.set_scrollback(usize::MAX);
    let back = screen.scrollback();
    let mut lines = Vec::new();
    let mut offset = back;
    while offset > 0 {
        screen.set_scrollback(offset);
        let take = offset.min(30);
        lines.extend(
            screen
                .rows(0, 100)
                .take(take)
                .map(|r| r.trim_end().to_string()),
        );
        offset -= take;
    }
    screen.set_scrollback(0);
    lines.extend(screen.rows(0, 100).map(|r| r.trim_end().to_string()));
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

/// The pid of pi's process `name` (the questionnaire, not the version check): see
/// [`crate::pi_tmux::descendant_named`].
fn child_named(parent: i32, name: &str) -> i32 {
    crate::pi_tmux::descendant_named(parent, name)
}

#[test]
fn tui_no_pi_frame_is_left_in_the_scrollback() {
    // pi 1.6 runs fullscreen (the alternate screen): a plain tui.stop() would print its frame
    // onto the normal screen, a copy of its bottom bar ("faux-1") per ask_user call.
    let mut pi = PiTui::start(PREFS, &[]);
    let s = &mut pi.session;
    s.wait_for(Q1);
    s.send("\x03");
    s.wait_for("END OF TURN");
    assert!(s.alternate_screen(), "pi is fullscreen again");
    let normal = main_screen_lines(&s.output());
    assert!(normal.iter().all(|l| l.is_empty()), "{normal:#?}");
    pi.quit();
}

#[test]
fn tui_regular_mode_hands_the_terminal_over_too() {
    let mut pi = PiTui::start_with(PREFS, &[], &["--tui-mode", "regular", "go"]);
    let s = &mut pi.session;
    s.wait_for(Q1);
    s.send("\r");
    s.wait_for(Q2);
    s.send("\r");
    s.wait_all(&["Review answers", "> 1. Submit"]);
    s.send("\r");
    let screen = s.wait_for("END OF TURN");
    assert!(!s.alternate_screen(), "{screen}");
    assert!(screen.contains("✓ Style: Minimal"), "{screen}");
    pi.assert_model_saw_the_content();
    pi.quit();
}

/// Kills the binary with SIGKILL while its first question is up: no result, no restore of
/// its own. Returns the screen once pi's next turn has ended.
fn kill_the_binary(pi: &mut PiTui) -> String {
    let s = &mut pi.session;
    s.wait_for(Q1);
    assert!(s.alternate_screen());
    let child = child_named(s.pid(), "pi-ask");
    crate::common::send_signal(child, libc::SIGKILL);
    let screen = s.wait_for("END OF TURN");
    assert!(screen.contains("MODEL SAW ERROR:"), "{screen}");
    assert!(
        screen.contains("pi-ask was killed by SIGKILL without writing a result"),
        "{screen}"
    );
    assert!(!screen.contains(Q1), "{screen}");
    assert_eq!(pi.tool_result()["isError"], json!(true));
    screen
}

/// pi quits on Ctrl+D; the terminal is left as a shell needs it: the normal screen, the
/// cursor shown.
fn quit_and_check_the_terminal(mut pi: PiTui) {
    pi.session.send("\x04");
    let (code, _) = pi.session.finish();
    assert_eq!(code, 0, "{}", pi.session.screen());
    assert!(!pi.session.alternate_screen(), "{}", pi.session.screen());
    assert!(pi.session.cursor_visible());
}

#[test]
fn tui_sigkill_of_the_binary_gives_pi_back_its_screen() {
    // Regular mode: pi draws on the normal screen, so the binary's alternate screen must be
    // left for it (and the cursor shown) before pi starts again.
    let mut pi = PiTui::start_with(PREFS, &[], &["--tui-mode", "regular", "go"]);
    kill_the_binary(&mut pi);
    assert!(!pi.session.alternate_screen(), "{}", pi.session.screen());
    quit_and_check_the_terminal(pi);
    // Fullscreen (the default): pi's own alternate screen, redrawn whole.
    let mut pi = PiTui::start(PREFS, &[]);
    kill_the_binary(&mut pi);
    assert!(pi.session.alternate_screen());
    quit_and_check_the_terminal(pi);
}

#[test]
fn print_mode_sigkill_of_the_binary_restores_the_terminal() {
    let mut pi = PiTui::start_with(PREFS, &[], &["-p", "go"]);
    let screen = kill_the_binary(&mut pi);
    assert!(!pi.session.alternate_screen(), "{screen}");
    assert!(pi.session.cursor_visible());
    let (code, _) = pi.session.finish();
    assert_eq!(code, 0);
}

/// Settings from pi: `--ask-plain`, one of the extension's flags (`pi.registerFlag`), reaches
/// the binary: in print mode on a terminal it asks in plain mode, numbered lines typed as
/// answers.
#[test]
fn print_mode_the_ask_plain_flag_gives_plain_mode() {
    if skipped() {
        return;
    }
    let mut pi = PiTui::start_with(PREFS, &[], &["--ask-plain", "-p", "go"]);
    let s = &mut pi.session;
    s.expect(
        "1/2 Style (choose one)\r\nHow should I frame the next prompt?\r\n ( ) 1. Minimal\r\n",
    );
    s.expect("1/2> ");
    s.send("2\r");
    s.expect("Saved: Balanced\r\n");
    s.expect("2/2> ");
    s.send("1,3\r");
    s.expect("Saved: React, Svelte\r\n");
    s.expect("review> ");
    s.send("\r");
    s.wait_for("END OF TURN");
    let (code, _) = s.finish();
    assert_eq!(code, 0);
    assert_eq!(
        pi.tool_result()["details"]["answers"],
        json!({
            "style": {"values": ["balanced"], "labels": ["Balanced"], "indices": [2]},
            "frameworks": {"values": ["react", "svelte"], "labels": ["React", "Svelte"], "indices": [1, 3]}
        })
    );
    pi.assert_model_saw_the_content();
}

/// Settings from pi: `"piAsk": {"timeout": "1s"}` in pi's settings.json reaches the binary:
/// in pi's TUI the questionnaire ends after a second without a key, and pi goes on with the
/// timeout result.
#[test]
fn tui_the_timeout_in_pis_settings_ends_the_questionnaire() {
    if skipped() {
        return;
    }
    let agent = tempfile::tempdir().unwrap();
    std::fs::write(
        agent.path().join("settings.json"),
        json!({"piAsk": {"timeout": "1s"}}).to_string(),
    )
    .unwrap();
    let agent_dir = agent.path().to_str().unwrap();
    let mut pi = PiTui::start(PREFS, &[("PI_CODING_AGENT_DIR", agent_dir)]);
    let s = &mut pi.session;
    s.wait_for(Q1);
    let screen = s.wait_for("END OF TURN");
    assert!(has_row(&screen, "Cancelled"), "{screen}");
    let result = pi.tool_result();
    assert_eq!(
        result["details"]["error"],
        json!({"code": "timeout", "message": "no key for 1 second"})
    );
    assert_eq!(result["details"]["answers"], json!({}));
    pi.assert_model_saw_the_content();
    pi.quit();
}

/// What the extension offers when a session continues with an unanswered ask_user call.
const OFFER: &str = "Answer them now?";
/// The first line of the user's message that carries the answers given on resuming.
const RESUMED: &str = "pi ended before I could answer your last ask_user call, so it got no answers. I answered its questions now:";

/// Yes to the offer of an unanswered call, then Balanced, nothing on Frontend, Submit; waits for
/// the model's turn on the answers ("MODEL GOT:") and returns the user's last message.
fn answer_the_offer(pi: &mut PiTui, mode: &str) -> String {
    let s = &mut pi.session;
    s.wait_for(OFFER);
    s.send("\r");
    s.wait_for(Q1);
    s.send(DOWN);
    s.wait_for("Balanced");
    s.send("\r");
    s.wait_for(Q2);
    s.send("\r");
    s.wait_for("Review");
    s.send("\r");
    let screen = s.wait_for("END OF TURN");
    assert!(screen.contains("MODEL GOT:"), "{mode}:\n{screen}");
    let users = pi.messages("user");
    users.last().unwrap()["content"][0]["text"]
        .as_str()
        .unwrap()
        .to_string()
}

/// pi killed (its whole process group, SIGKILL: an ssh drop, a closed terminal) while the
/// questions are up leaves a session whose newest ask_user call has no result; `pi --continue`
/// offers those questions again, once: answered, they go to the model as the user's message;
/// the next `pi --continue` does not offer them again.
#[test]
fn tui_a_resumed_session_offers_an_unanswered_call_again_once() {
    if skipped() {
        return;
    }
    let base = tempfile::tempdir().unwrap();
    let project = base.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    let start =
        |args: &[&str]| PiTui::start_at(Some(base.path()), PREFS, &[], args, Some(&project));
    for mode in ["fullscreen", "regular"] {
        let _ = std::fs::remove_dir_all(base.path().join("sessions"));
        let mut pi = start(&["--tui-mode", mode, "go"]);
        pi.session.wait_for(Q1);
        crate::common::send_signal(-pi.session.pid(), libc::SIGKILL);
        let _ = pi.session.finish();
        assert_eq!(pi.messages("toolResult"), Vec::<Value>::new(), "{mode}");

        let mut pi = start(&["--tui-mode", mode, "--continue"]);
        let last = answer_the_offer(&mut pi, mode);
        assert!(
            last == format!("{RESUMED}\n\nStyle: Balanced\nFrontend: (no answer)"),
            "{mode}: {last}"
        );
        let offered: Vec<Value> = pi
            .entries()
            .into_iter()
            .filter(|e| e["type"] == "custom" && e["customType"] == "ask:offered")
            .map(|e| e["data"].clone())
            .collect();
        assert_eq!(offered, vec![json!({"toolCallId": "call-ask-1"})], "{mode}");
        pi.quit();

        // Once: the next run does not offer it again.
        let mut pi = start(&["--tui-mode", mode, "--continue"]);
        let s = &mut pi.session;
        s.wait_for("MODEL GOT:");
        std::thread::sleep(Duration::from_millis(1500));
        assert!(!s.screen().contains(OFFER), "{mode}:\n{}", s.screen());
        pi.quit();
    }
}

/// Skipped questions whose ids are names of Object.prototype (`constructor`, `toString`,
/// `__proto__`, `hasOwnProperty`): pi's transcript draws the extension's rows for them (the
/// renderers read only the answers' own properties; they threw, and pi fell back to raw text).
#[test]
fn tui_the_rows_of_questions_named_like_object_prototype_are_drawn() {
    if skipped() {
        return;
    }
    let ids = ["constructor", "toString", "__proto__", "hasOwnProperty"];
    let questions: Vec<Value> = ids
        .iter()
        .map(|id| json!({"id": id, "label": format!("L-{id}"), "prompt": format!("{id}?"), "options": [{"value": "a", "label": "A"}]}))
        .collect();
    let payload = json!({ "questions": questions }).to_string();
    let answers = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(answers.path(), r#"{"answers": {"toString": "a"}}"#).unwrap();
    let mut pi = PiTui::start(
        &payload,
        &[("PI_ASK_ANSWERS", answers.path().to_str().unwrap())],
    );
    let s = &mut pi.session;
    let screen = s.wait_for("END OF TURN");
    assert!(
        has_row(
            &screen,
            "ask_user 4 question(s) (L-constructor, L-toString, L-__proto__, L-hasOw...)"
        ),
        "{screen}"
    );
    assert!(has_row(&screen, "✓ L-toString: A"), "{screen}");
    let result = pi.tool_result();
    assert_eq!(
        result["details"]["answers"],
        json!({"toString": {"values": ["a"], "labels": ["A"], "indices": [1]}})
    );
    pi.quit();
}

/// pi ended by SIGTERM or SIGHUP sent to pi alone (a process manager, `kill`, a session
/// manager) while the questions are up: pi shuts down (its turn aborted), the call is recorded
/// as interrupted, not as the person's cancel, and `pi --continue` offers it again, in both TUI
/// modes.
#[test]
fn tui_sigterm_or_sighup_to_pi_alone_records_an_interrupted_call_that_resume_offers() {
    if skipped() {
        return;
    }
    for (mode, signal, name) in [
        ("fullscreen", libc::SIGTERM, "SIGTERM"),
        ("regular", libc::SIGHUP, "SIGHUP"),
        ("regular", libc::SIGTERM, "SIGTERM"),
        ("fullscreen", libc::SIGHUP, "SIGHUP"),
    ] {
        let base = tempfile::tempdir().unwrap();
        // `--continue` continues the newest session of pi's working directory.
        let project = base.path().join("project");
        std::fs::create_dir_all(&project).unwrap();
        let start =
            |args: &[&str]| PiTui::start_at(Some(base.path()), PREFS, &[], args, Some(&project));
        let mut pi = start(&["--tui-mode", mode, "go"]);
        pi.session.wait_for(Q1);
        crate::common::send_signal(pi.session.pid(), signal);
        let _ = pi.session.finish();
        let result = pi.tool_result();
        assert_eq!(
            result["details"]["error"],
            json!({"code": "interrupted", "message": format!("pi ended ({name})")}),
            "{mode} {name}"
        );
        assert_eq!(
            result["content"][0]["text"],
            format!("pi ended ({name}) while the questionnaire \"Implementation preferences\" was up, before the user answered; no answers were given. Do not assume any answer."),
        );

        let mut pi = start(&["--tui-mode", mode, "--continue"]);
        let last = answer_the_offer(&mut pi, mode);
        assert_eq!(
            last,
            format!("{RESUMED}\n\nStyle: Balanced\nFrontend: (no answer)"),
            "{mode} {name}"
        );
        pi.quit();
    }
}

/// `pi --continue "go on"` with an unanswered call: the offer comes first, and the prompt waits
/// for it: the answers and the prompt go to the model as one message, before any new turn (the
/// faux model would call ask_user again on "go on" alone), in both TUI modes.
#[test]
fn tui_continue_with_a_prompt_offers_the_unanswered_call_before_the_new_turn() {
    if skipped() {
        return;
    }
    for mode in ["fullscreen", "regular"] {
        let base = tempfile::tempdir().unwrap();
        // `--continue` continues the newest session of pi's working directory.
        let project = base.path().join("project");
        std::fs::create_dir_all(&project).unwrap();
        let start =
            |args: &[&str]| PiTui::start_at(Some(base.path()), PREFS, &[], args, Some(&project));
        let mut pi = start(&["--tui-mode", mode, "go"]);
        pi.session.wait_for(Q1);
        crate::common::send_signal(-pi.session.pid(), libc::SIGKILL);
        let _ = pi.session.finish();

        let mut pi = start(&["--tui-mode", mode, "--continue", "go on"]);
        let last = answer_the_offer(&mut pi, mode);
        assert_eq!(
            last,
            format!("{RESUMED}\n\nStyle: Balanced\nFrontend: (no answer)\n\ngo on"),
            "{mode}"
        );
        // The prompt started no turn of its own: one call, from the first run.
        let calls: Vec<Value> = pi
            .messages("assistant")
            .into_iter()
            .filter(|m| m["stopReason"] == "toolUse")
            .collect();
        assert_eq!(calls.len(), 1, "{mode}: {calls:?}");
        let users: Vec<Value> = pi
            .messages("user")
            .into_iter()
            .map(|m| m["content"][0]["text"].clone())
            .collect();
        assert_eq!(users.len(), 2, "{mode}: {users:?}");
        pi.quit();
    }
}

/// `/tree` back to an answered ask_user call (the leaf on the call, its result on the branch
/// no more) does not offer it again as if pi had ended there.
#[test]
fn tui_tree_to_an_answered_call_does_not_offer_it() {
    if skipped() {
        return;
    }
    let mut pi = PiTui::start(PREFS, &[]);
    let s = &mut pi.session;
    s.wait_for(Q1);
    s.send("\r");
    s.wait_for(Q2);
    s.send("\r");
    s.wait_for("Review");
    s.send("\r");
    s.wait_for("END OF TURN");
    // test/faux.ts's /faux-tree: the leaf moved to the call (pi's /tree), then a notification.
    s.send("/faux-tree");
    s.wait_for("/faux-tree");
    s.send("\r");
    let screen = s.wait_for("TREE DONE");
    // An offer is recorded (ask:offered, a new leaf under the call) before it is shown, within
    // pi's session_tree event, which pi awaits before the command goes on.
    let offered = pi
        .entries()
        .into_iter()
        .filter(|e| e["type"] == "custom" && e["customType"] == "ask:offered")
        .count();
    assert_eq!(offered, 0, "{screen}");
    assert!(!screen.contains(OFFER), "{screen}");
    assert!(screen.contains("TREE DONE AT THE CALL"), "{screen}");
    pi.quit();
}

/// An elaborate result in pi's transcript: the collapsed row says that the person asked to
/// elaborate, with the note (on an option not chosen), as the contract's project draws it; it
/// read as a submit (`✓ Q1: SQLite`).
#[test]
fn tui_an_elaborate_result_reads_as_the_person_asking() {
    if skipped() {
        return;
    }
    let payload = include_str!("../examples/database.json");
    let answers = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(
        answers.path(),
        r#"{"mode": "elaborate", "answers": {"database": {"values": ["sqlite"], "optionNotes": {"postgres": "ops?"}}}}"#,
    )
    .unwrap();
    let mut pi = PiTui::start(
        payload,
        &[("PI_ASK_ANSWERS", answers.path().to_str().unwrap())],
    );
    let screen = pi.session.wait_for("END OF TURN");
    // pi wraps the row at the window's width (100 columns): its text, joined.
    let joined = screen.lines().map(str::trim).collect::<Vec<_>>().join(" ");
    // The result row: between the call row and the model's next turn (which repeats `content`).
    let row = joined
        .split_once("ask_user 1 question(s) (Q1)")
        .and_then(|(_, after)| after.split_once("MODEL SAW:"))
        .map(|(row, _)| row.trim())
        .unwrap_or_else(|| panic!("{screen}"));
    assert_eq!(
        row,
        r#"User asked to elaborate on question "Which database should the project use?" option "PostgreSQL" after current answer "SQLite" with note "ops?""#,
        "{screen}"
    );
    assert!(!screen.contains("✓ Q1"), "{screen}");
    assert_eq!(pi.tool_result()["details"]["mode"], "elaborate");
    pi.quit();
}

/// What a model reads of an elaborate result, as pi delivers it (a provider gets the tool
/// result's `content`, never `details`): the note first in the contract's project's words,
/// then the answers to keep, the questions to re-ask and what to do.
#[test]
fn tui_a_model_reads_the_answers_to_keep_of_an_elaborate_result() {
    if skipped() {
        return;
    }
    let payload = r#"{"questions": [
        {"id": "db", "label": "Database", "prompt": "Which database should the service use?",
         "options": [{"value": "postgres", "label": "Postgres"}, {"value": "sqlite", "label": "SQLite"}]},
        {"id": "checks", "label": "Checks", "type": "multi", "prompt": "Which checks run in CI?",
         "options": [{"value": "lint", "label": "Lint"}, {"value": "tests", "label": "Tests"},
                     {"value": "bench", "label": "Benchmarks"}]},
        {"id": "deploy", "label": "Deploy", "prompt": "How is it deployed?",
         "options": [{"value": "docker", "label": "Docker image"}, {"value": "vm", "label": "VM"}]}]}"#;
    let answers = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(
        answers.path(),
        r#"{"mode": "elaborate", "answers": {
            "db": {"values": ["sqlite"], "optionNotes": {"postgres": "what would Postgres cost us in ops work?"}},
            "checks": {"values": ["lint", "tests"]},
            "deploy": {"values": ["docker"]}}}"#,
    )
    .unwrap();
    let mut pi = PiTui::start(
        payload,
        &[("PI_ASK_ANSWERS", answers.path().to_str().unwrap())],
    );
    pi.session.wait_for("END OF TURN");
    let result = pi.tool_result();
    assert_eq!(
        result["content"],
        json!([{"type": "text", "text":
            "User asked to elaborate on question \"Which database should the service use?\" \
             option \"Postgres\" after current answer \"SQLite\" with note \"what would Postgres \
             cost us in ops work?\"\n\
             Keep these answers:\n\
             Checks: Lint, Tests\n\
             Deploy: Docker image\n\
             Re-ask: Database (db)\n\
             Answer the user's notes above first, then call ask_user again with only the \
             questions to re-ask (if a choice is still needed), keeping the answers above."}])
    );
    pi.assert_model_saw_the_content();
    pi.quit();
}

/// A secret question's answer (`"secret": true`): pi's transcript row shows it as six bullets,
/// and the result pi stores (and the model reads) carries it.
#[test]
fn tui_the_row_of_a_secret_answer_is_masked() {
    if skipped() {
        return;
    }
    let payload = json!({"questions": [
        {"id": "token", "label": "Token", "prompt": "Your API token?", "secret": true,
         "options": [{"value": "skip", "label": "Skip"}]},
        {"id": "env", "label": "Env", "prompt": "Which environment?",
         "options": [{"value": "dev", "label": "Dev"}]}]})
    .to_string();
    let answers = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(
        answers.path(),
        r#"{"answers": {"token": {"customText": "hunter2-token"}, "env": "dev"}}"#,
    )
    .unwrap();
    let mut pi = PiTui::start(
        &payload,
        &[("PI_ASK_ANSWERS", answers.path().to_str().unwrap())],
    );
    let s = &mut pi.session;
    let screen = s.wait_for("END OF TURN");
    let bullets = "\u{2022}".repeat(6);
    assert!(
        has_row(&screen, &format!("✓ Token: (wrote) {bullets}")),
        "{screen}"
    );
    assert!(has_row(&screen, "✓ Env: Dev"), "{screen}");
    // The row never shows it (the faux model's turn below repeats what the model read).
    let rows = screen.split("MODEL SAW:").next().unwrap();
    assert!(!rows.contains("hunter2"), "{rows}");
    let result = pi.tool_result();
    assert_eq!(
        result["details"]["answers"]["token"]["customText"],
        json!("hunter2-token")
    );
    assert!(result["content"][0]["text"]
        .as_str()
        .unwrap()
        .contains("hunter2-token"));
    pi.quit();
}

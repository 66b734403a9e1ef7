//! Ctrl+G in an editor: the draft in `$VISUAL` / `$EDITOR` (docs/interactive.md "The line
//! editor"), in a pty with a real program as the editor; and the run's children (the editor,
//! the notification command) ending with it, with no descriptor of pi-ask's
//! (docs/interactive.md "Ending from outside").

use crate::common::pty::{Options, Session};
use serde_json::json;

const PREFS: &str = include_str!("../examples/implementation-preferences.json");

/// An executable shell script `name` in `dir` with `body` after its `#!/bin/sh` line.
fn script(dir: &std::path::Path, name: &str, body: &str) -> std::path::PathBuf {
    let script = dir.join(name);
    std::fs::write(&script, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::process::Command::new("chmod")
        .args(["+x", script.to_str().unwrap()])
        .status()
        .unwrap();
    script
}

/// pi-ask on the preferences payload at 100x24, inline, with `$EDITOR` the recording editor
/// in `dir` (and no `$VISUAL`): it records the file it was given (its path, mode and text) in
/// `dir`, then writes two lines into it.
fn with_recording_editor(dir: &std::path::Path) -> Session {
    let body = format!(
        "printf '%s' \"$1\" > '{d}/path'\nstat -c %a \"$1\" > '{d}/mode'\ncat \"$1\" > '{d}/draft'\nprintf 'first line\\nsecond line\\n' > \"$1\"",
        d = dir.display()
    );
    with_editor(&script(dir, "editor.sh", &body))
}

/// pi-ask on the preferences payload at 100x24, inline, with `$EDITOR` the program `script`
/// (and no `$VISUAL`).
fn with_editor(script: &std::path::Path) -> Session {
    let mut opts = Options {
        rows: 24,
        cols: 100,
        env: vec![
            ("PI_ASK_SCREEN".into(), "inline".into()),
            ("EDITOR".into(), script.display().to_string()),
        ],
        ..Options::default()
    };
    opts.env_remove.push("VISUAL".into());
    Session::spawn_with(PREFS, &[], opts)
}

#[test]
fn ctrl_g_writes_the_answer_in_the_editor_on_a_private_file_removed_after() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = with_recording_editor(dir.path());
    s.wait_for("? keys");
    s.send("4");
    s.wait_for("Type your own · Enter submit · Esc close · ^G editor");
    s.send("dra");
    s.wait_for("> dra");
    s.send("\x07");
    // The editor's text is the answer, saved as Enter saves it: the next question.
    let result = submitted_from_the_second_question(&mut s);
    assert_eq!(
        result["details"]["answers"]["style"],
        json!({"values": ["first line\nsecond line"], "labels": ["first line\nsecond line"],
               "indices": [], "customText": "first line\nsecond line"})
    );
    let read = |name: &str| std::fs::read_to_string(dir.path().join(name)).unwrap();
    // A text file's final line break: an editor that appends starts a line of its own.
    assert_eq!(read("draft"), "dra\n");
    assert_eq!(read("mode").trim(), "600");
    assert!(
        !std::path::Path::new(&read("path")).exists(),
        "the file is left"
    );
}

#[test]
fn ctrl_g_without_an_editor_says_so_and_keeps_the_draft() {
    let mut opts = Options {
        rows: 24,
        cols: 100,
        env: vec![("PI_ASK_SCREEN".into(), "inline".into())],
        ..Options::default()
    };
    opts.env_remove.extend(["VISUAL".into(), "EDITOR".into()]);
    let mut s = Session::spawn_with(PREFS, &[], opts);
    s.wait_for("? keys");
    s.send("4");
    s.wait_for("Type your own · Enter submit · Esc close\n");
    s.send("dra\x07");
    the_draft_is_kept_and_submitted(
        &mut s,
        "Type your own · Ctrl+G: set $VISUAL or $EDITOR to write this in your editor",
    );
}

/// After Ctrl+G on the draft `dra`: the editor's hint says `notice`, the draft is there, and
/// `ft` Enter then Submit give the answer `draft`.
fn the_draft_is_kept_and_submitted(s: &mut Session, notice: &str) {
    s.wait_for(notice);
    s.wait_for("> dra");
    s.send("ft\r");
    let result = submitted_from_the_second_question(s);
    assert_eq!(result["details"]["answers"]["style"]["customText"], "draft");
}

/// At the second question (once it shows): Tab to the review, Submit; the result (exit 0).
fn submitted_from_the_second_question(s: &mut Session) -> serde_json::Value {
    s.wait_for("2/2 Frontend");
    s.send("\t");
    s.wait_for("1. Submit");
    s.send("\r");
    let (code, result) = s.finish();
    assert_eq!(code, 0);
    result.expect("a result")
}

#[test]
fn ctrl_g_hands_a_tall_paste_to_the_editor_whole() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = with_recording_editor(dir.path());
    s.wait_for("? keys");
    s.send("4");
    s.wait_for("^G editor");
    let seq: Vec<String> = (1..=40).map(|i| i.to_string()).collect();
    s.send(&format!("a \x1b[200~{}\x1b[201~ b", seq.join("\r")));
    // The paste's last rows in the editor's rows, the rows above out of view.
    s.wait_for("\n  40 b");
    s.send("\x07");
    s.wait_for("2/2 Frontend");
    s.send("\x03");
    let _ = s.finish();
    let draft = std::fs::read_to_string(dir.path().join("draft")).unwrap();
    assert_eq!(draft, format!("a {} b\n", seq.join("\n")));
}

/// pi-ask on the preferences payload at 100x24 with `$EDITOR` a script that fills its file
/// with `bytes` bytes of `x` (and no `$VISUAL`).
fn with_filling_editor(dir: &std::path::Path, bytes: usize) -> Session {
    let body = format!("head -c {bytes} /dev/zero | tr '\\0' x > \"$1\"");
    with_editor(&script(dir, "fill.sh", &body))
}

/// The editor's file is read back whole up to what an editor holds (16 MiB; it was cut at
/// 1 MiB without a word), and a longer one keeps the draft and says why.
#[test]
fn ctrl_g_reads_back_up_to_16_mib_and_keeps_the_draft_past_it() {
    let dir = tempfile::tempdir().unwrap();
    let two_mib = 2 * 1024 * 1024;
    let mut s = with_filling_editor(dir.path(), two_mib);
    s.wait_for("? keys");
    s.send("4");
    s.wait_for("^G editor");
    s.send("\x07");
    let result = submitted_from_the_second_question(&mut s);
    let text = result["details"]["answers"]["style"]["customText"]
        .as_str()
        .map(str::len);
    assert_eq!(text, Some(two_mib));
    let dir = tempfile::tempdir().unwrap();
    let mut s = with_filling_editor(dir.path(), 16 * 1024 * 1024 + 1);
    s.wait_for("? keys");
    s.send("4");
    s.wait_for("^G editor");
    s.send("dra\x07");
    the_draft_is_kept_and_submitted(
        &mut s,
        "The editor's text is longer than 16 MiB: the draft is kept",
    );
}

/// `$EDITOR` a script that records in `dir` the file it was given (`path`), then the process
/// id of what stays (`pid`, written once the script is `sleep` itself: it execs it), which
/// ignores SIGINT (as an editor in raw mode never sees Ctrl+C as a signal) and SIGHUP (the
/// pty's hang-up as pi-ask, its session's leader here, exits) and sleeps 30 s.
fn sleeping_editor(dir: &std::path::Path) -> std::path::PathBuf {
    let body = format!(
        "printf '%s' \"$1\" > '{d}/path'\ntrap '' INT HUP\necho $$ > '{d}/pid.new'\nmv '{d}/pid.new' '{d}/pid'\nexec sleep 30",
        d = dir.display()
    );
    script(dir, "sleeping.sh", &body)
}

/// Options for pi-ask at 100x24, inline, with `$EDITOR` the program `editor` (no `$VISUAL`).
fn editor_options(editor: &std::path::Path) -> Options {
    let mut opts = Options {
        rows: 24,
        cols: 100,
        env: vec![
            ("PI_ASK_SCREEN".into(), "inline".into()),
            ("EDITOR".into(), editor.display().to_string()),
        ],
        ..Options::default()
    };
    opts.env_remove.push("VISUAL".into());
    opts
}

/// At the first question: the line editor on `dra`, then Ctrl+G.
fn open_the_external_editor(s: &mut Session) {
    s.wait_for("4. Type your own");
    s.send("4");
    s.send("dra");
    s.wait_for("\n> dra");
    s.send("\x07");
}

/// The process id the sleeping editor recorded in `dir` (see [`sleeping_editor`]), once that
/// process is `sleep` and sleeps (its loader's files closed; waits up to 15 s).
fn editor_pid(dir: &std::path::Path) -> i32 {
    let start = std::time::Instant::now();
    loop {
        let pid = std::fs::read_to_string(dir.join("pid")).ok();
        if let Some(pid) = pid.and_then(|p| p.trim().parse::<i32>().ok()) {
            let read = |what: &str| {
                std::fs::read_to_string(format!("/proc/{pid}/{what}")).unwrap_or_default()
            };
            if read("comm").trim() == "sleep" && read("wchan").contains("nanosleep") {
                return pid;
            }
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(15),
            "the editor never started"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// Whether process `pid` still runs (a zombie does not).
fn alive(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| {
            s.rsplit_once(')')
                .map(|(_, rest)| rest.trim_start().to_string())
        })
        .is_some_and(|rest| !rest.starts_with('Z'))
}

/// Process `pid` is gone within 5 s (else it is killed and the test fails).
fn assert_gone(pid: i32, what: &str) {
    let start = std::time::Instant::now();
    while alive(pid) && start.elapsed() < std::time::Duration::from_secs(5) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    if alive(pid) {
        let _ = nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(pid),
            nix::sys::signal::Signal::SIGKILL,
        );
        panic!("{what} outlived pi-ask");
    }
}

/// The external editor's file (recorded by [`sleeping_editor`]) is gone.
fn assert_file_removed(dir: &std::path::Path) {
    let path = std::fs::read_to_string(dir.join("path")).unwrap();
    assert!(path.contains("pi-ask-"), "{path}");
    assert!(
        !std::path::Path::new(&path).exists(),
        "the editor's file {path} is left"
    );
}

/// What every ending with the external editor open leaves: the editor ended, its file removed.
fn ends_with_the_editor_open(
    args: &[&str],
    end: impl FnOnce(&mut Session),
) -> (i32, serde_json::Value) {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Session::spawn_with(PREFS, args, editor_options(&sleeping_editor(dir.path())));
    open_the_external_editor(&mut s);
    let editor = editor_pid(dir.path());
    end(&mut s);
    let (code, result) = s.finish();
    assert_gone(editor, "the external editor");
    assert_file_removed(dir.path());
    (code, result.expect("a result"))
}

#[test]
fn sigterm_with_the_external_editor_open_ends_it_and_removes_its_file() {
    let (code, result) = ends_with_the_editor_open(&[], |s| {
        crate::common::wait_until_handled(s.pid() as u32, libc::SIGTERM);
        s.signal(libc::SIGTERM);
    });
    assert_eq!(code, 143);
    assert_eq!(result["details"]["error"]["code"], "aborted");
}

#[test]
fn ctrl_c_with_the_external_editor_open_ends_it_and_removes_its_file() {
    // The terminal is the editor's, cooked: Ctrl+C is SIGINT to the foreground process group.
    let (code, result) = ends_with_the_editor_open(&[], |s| s.send("\x03"));
    assert_eq!(code, 130);
    assert_eq!(result["details"]["cancelled"], true);
}

#[test]
fn the_timeout_counts_while_the_external_editor_is_open() {
    let start = std::time::Instant::now();
    let (code, result) = ends_with_the_editor_open(&["--timeout", "3"], |_| {});
    assert_eq!(code, 124);
    assert!(start.elapsed() < std::time::Duration::from_secs(15));
    // The draft the editor was given is kept, as a timeout keeps a line editor's.
    assert_eq!(result["details"]["error"]["code"], "timeout");
    assert_eq!(result["details"]["answers"]["style"]["customText"], "dra");
}

/// The descriptors process `pid` has open: (number, what it points to), by number.
fn descriptors(pid: i32) -> Vec<(i32, String)> {
    let mut fds: Vec<(i32, String)> = std::fs::read_dir(format!("/proc/{pid}/fd"))
        .unwrap()
        .flatten()
        .filter_map(|e| {
            let n = e.file_name().to_str()?.parse().ok()?;
            let to = std::fs::read_link(e.path()).ok()?;
            Some((n, to.display().to_string()))
        })
        .collect();
    fds.sort();
    fds
}

/// pi-ask started with descriptor 5 open on a file (as a caller may leave one open), through
/// `sh -c 'exec 5<FILE; exec pi-ask ...'`, with `opts` and `args` after the payload and
/// `--output`.
fn with_descriptor_5(opts: Options, args: &[&str]) -> Session {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("payload.json"), PREFS).unwrap();
    std::fs::write(dir.path().join("secret"), "secret").unwrap();
    let output = dir.path().join("result.json");
    let mut cmd = std::process::Command::new("sh");
    cmd.arg("-c")
        .arg("exec 5<\"$0\"; exec \"$@\"")
        .arg(dir.path().join("secret"))
        .arg(env!("CARGO_BIN_EXE_pi-ask"))
        .arg(dir.path().join("payload.json"))
        .arg("--output")
        .arg(&output)
        .args(args);
    Session::spawn_command(cmd, dir, output, opts)
}

#[test]
fn the_external_editor_gets_the_terminal_and_no_other_descriptor() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = with_descriptor_5(editor_options(&sleeping_editor(dir.path())), &[]);
    open_the_external_editor(&mut s);
    let editor = editor_pid(dir.path());
    // pi-ask itself holds the caller's descriptor 5.
    let own = descriptors(s.pid());
    assert!(
        own.iter().any(|(n, to)| *n == 5 && to.ends_with("secret")),
        "{own:?}"
    );
    let fds = descriptors(editor);
    let numbers: Vec<i32> = fds.iter().map(|(n, _)| *n).collect();
    assert_eq!(numbers, [0, 1, 2], "{fds:?}");
    // The terminal, as pi-ask opened it.
    assert!(fds.iter().all(|(_, to)| to == "/dev/tty"), "{fds:?}");
    s.signal(libc::SIGTERM);
    let (code, _) = s.finish();
    assert_eq!(code, 143);
    assert_gone(editor, "the external editor");
}

#[test]
fn an_editor_that_leaves_a_fifo_for_its_file_keeps_the_draft_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let editor = script(dir.path(), "fifo.sh", "rm -f \"$1\"\nmkfifo \"$1\"");
    let mut s = Session::spawn_with(PREFS, &[], editor_options(&editor));
    s.wait_for("? keys");
    s.send("4");
    s.wait_for("^G editor");
    s.send("dra\x07");
    the_draft_is_kept_and_submitted(
        &mut s,
        "The editor left no regular file to read: the draft is kept",
    );
}

#[test]
fn the_notification_command_gets_no_descriptor_of_pi_asks_and_ends_with_a_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().display();
    let command = format!("echo $$ > '{d}/pid.new'; mv '{d}/pid.new' '{d}/pid'; exec sleep 30");
    let mut s = with_descriptor_5(
        Options::default(),
        &["--notify", "command", "--notify-command", &command],
    );
    s.wait_for("? keys");
    let command = editor_pid(dir.path());
    let fds = descriptors(command);
    assert_eq!(
        fds,
        [
            (0, "/dev/null".to_string()),
            (1, "/dev/null".to_string()),
            (2, "/dev/null".to_string())
        ]
    );
    crate::common::wait_until_handled(s.pid() as u32, libc::SIGTERM);
    s.signal(libc::SIGTERM);
    let (code, _) = s.finish();
    assert_eq!(code, 143);
    assert_gone(command, "the notification command");
}

/// The processes of process group `group` still running (zombies left out), from /proc.
fn in_group(group: i32) -> Vec<i32> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            let Some((_, rest)) = stat.rsplit_once(')') else {
                return false;
            };
            let fields: Vec<&str> = rest.split_whitespace().collect();
            fields.len() > 2 && fields[0] != "Z" && fields[2] == group.to_string()
        })
        .collect()
}

/// What a notification command leaves in the background (`sleep 300 &`, the shell exits at
/// once and is reaped) is ended with the run, at its own end (exit 0) and at a SIGTERM (143):
/// nothing of the command's process group is left once pi-ask exits.
#[test]
fn what_the_notification_command_leaves_in_the_background_ends_with_the_run() {
    let payload = include_str!("../examples/database.json");
    for sigterm in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().display();
        let command = format!("sleep 300 & echo $$ $! > '{d}/pid.new'; mv '{d}/pid.new' '{d}/pid'");
        let mut s = Session::spawn_with(
            payload,
            &["--auto-submit", "--notify-command", &command],
            Options::default(),
        );
        s.wait_for("PostgreSQL");
        let start = std::time::Instant::now();
        let (group, sleep) = loop {
            let ids = std::fs::read_to_string(dir.path().join("pid")).unwrap_or_default();
            let ids: Vec<i32> = ids
                .split_whitespace()
                .filter_map(|n| n.parse().ok())
                .collect();
            if let [group, sleep] = ids[..] {
                break (group, sleep);
            }
            assert!(start.elapsed() < std::time::Duration::from_secs(4));
            std::thread::sleep(std::time::Duration::from_millis(10));
        };
        // The shell is gone (reaped by pi-ask), its background sleep runs under pi-ask.
        while alive(group) {
            assert!(start.elapsed() < std::time::Duration::from_secs(4));
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert_eq!(
            in_group(group),
            [sleep],
            "the sleep runs in the command's group"
        );
        let code = if sigterm {
            crate::common::wait_until_handled(s.pid() as u32, libc::SIGTERM);
            s.signal(libc::SIGTERM);
            s.finish().0
        } else {
            s.send("\r");
            s.finish().0
        };
        assert!(
            start.elapsed() < std::time::Duration::from_secs(5),
            "ended by the run, not by the 5 s bound"
        );
        assert_eq!(code, if sigterm { 143 } else { 0 }, "{}", s.stderr());
        let left = in_group(group);
        for &pid in &left {
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(pid),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
        assert!(left.is_empty(), "left running after the run: {left:?}");
    }
}

/// A title and three questions, as the new-user trial's `secret.json` (its token not secret):
/// 1 answers the first two (EU, No token yet), 2 opens the third's Type your own.
const DEPLOY: &str = r#"{"title":"Deploy setup","questions":[
 {"id":"region","label":"Region","prompt":"Which region?","type":"single",
  "options":[{"value":"eu","label":"EU"},{"value":"us","label":"US"}]},
 {"id":"token","label":"API token","prompt":"Paste the deploy token","type":"single",
  "options":[{"value":"none","label":"No token yet"}]},
 {"id":"notes","label":"Notes","prompt":"Anything else?","type":"single",
  "options":[{"value":"no","label":"Nothing"}]}]}"#;

/// A folder holding `q.json` (DEPLOY) and `editor.sh`, which writes `note from the editor`
/// into its file and nothing on the terminal.
fn deploy_folder() -> tempfile::TempDir {
    deploy_folder_with("")
}

/// [`deploy_folder`], its editor running `first` (a shell command) before it writes.
fn deploy_folder_with(first: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("q.json"), DEPLOY).unwrap();
    let body = format!("{first}\nprintf 'note from the editor\\n' > \"$1\"");
    script(dir.path(), "editor.sh", &body);
    dir
}

/// Lines trimmed at their end, the blank ones dropped.
fn text_rows(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.trim_end().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

/// In real tmux (80x24) with bash in `dir` ([`deploy_folder`]) and `$EDITOR` its
/// `editor.sh`: `pi-ask q.json --output r.json ARGS`, the first two questions answered, the
/// third's Type your own written in the editor (Ctrl+G), then `end` at the review (with the
/// tmux socket); the whole history once the shell's prompt is back under `ending`, rows
/// trimmed, the blank ones dropped. `None` without tmux.
fn deploy_in_tmux(
    dir: &std::path::Path,
    args: &str,
    end: impl FnOnce(&str),
    ending: &str,
) -> Option<Vec<String>> {
    use crate::common::tmux::{tmux, tmux_available, tmux_session, tmux_wait};
    if !tmux_available("external_editor") {
        return None;
    }
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_pi-ask"))
        .parent()
        .unwrap()
        .display()
        .to_string();
    let socket = format!("pi-ask-ctrl-g-{}-{}", args.len(), std::process::id());
    let shell = format!(
        "cd {d} && exec env -i PATH={bin}:/usr/bin:/bin HOME={d} TERM=tmux-256color \
         LANG=C.UTF-8 NO_COLOR=1 PI_ASK_SCREEN=inline PI_ASK_KEY_GRACE=0 \
         EDITOR={d}/editor.sh PS1='$ ' bash --norc --noprofile",
        d = dir.display()
    );
    tmux_session(&socket, 80, 24, &shell);
    let keys = |keys: &[&str]| {
        let mut args = vec!["send-keys", "-t", "t"];
        args.extend_from_slice(keys);
        tmux(&socket, &args);
    };
    let wait = |what: &str, marker: &str| {
        tmux_wait(&socket, what, |p| p.contains(marker));
    };
    tmux_wait(&socket, "the shell", |p| p.trim_end().ends_with('$'));
    keys(&["-l", &format!("pi-ask q.json --output r.json{args}")]);
    keys(&["Enter"]);
    wait("the first question", "Which region?");
    keys(&["-l", "1"]);
    wait("the second question", "Paste the deploy token");
    keys(&["-l", "1"]);
    wait("the third question", "Anything else?");
    keys(&["-l", "2"]);
    wait("the editor", "^G editor");
    keys(&["C-g"]);
    wait("the review", "Review answers");
    end(&socket);
    let history = tmux_wait(&socket, "the shell after the run", |p| {
        p.contains(ending) && p.trim_end().ends_with('$')
    });
    tmux(&socket, &["kill-server"]);
    Some(text_rows(&history))
}

/// The transcript after the command line `command`, each line once, then the prompt.
fn deploy_transcript(command: &str, ending: &str) -> Vec<String> {
    [
        &format!("$ {command}"),
        "Deploy setup",
        "Region: EU",
        "API token: No token yet",
        "Notes: “note from the editor”",
        ending,
        "$",
    ]
    .map(str::to_string)
    .to_vec()
}

/// After Ctrl+G the run ends with each transcript line once in tmux's history: the editor
/// gave the cursor back under the lines, so they stay where they are (they were written
/// again under themselves: `Deploy setup`, `Region: EU`, `API token: No token yet` twice).
#[test]
fn after_ctrl_g_in_tmux_the_history_holds_each_transcript_line_once() {
    let dir = deploy_folder();
    let submit = |socket: &str| {
        crate::common::tmux::tmux(socket, &["send-keys", "-t", "t", "Enter"]);
    };
    let Some(history) = deploy_in_tmux(dir.path(), "", submit, "Submitted") else {
        return;
    };
    assert_eq!(
        history,
        deploy_transcript("pi-ask q.json --output r.json", "✔ Submitted")
    );
    let result: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("r.json")).unwrap()).unwrap();
    assert_eq!(
        result["details"]["answers"]["notes"]["customText"],
        "note from the editor"
    );
}

/// An editor that writes on the terminal (not on the alternate screen) leaves the cursor
/// under what it wrote: the lines above are no longer the region's, and the run ends with the
/// whole final transcript under the editor's line.
#[test]
fn after_ctrl_g_an_editor_that_wrote_on_the_terminal_is_followed_by_the_whole_transcript() {
    let dir = deploy_folder_with("echo saved by the editor");
    let submit = |socket: &str| {
        crate::common::tmux::tmux(socket, &["send-keys", "-t", "t", "Enter"]);
    };
    let Some(history) = deploy_in_tmux(dir.path(), "", submit, "Submitted") else {
        return;
    };
    let mut expected = deploy_transcript("pi-ask q.json --output r.json", "✔ Submitted");
    let before = ["Deploy setup", "Region: EU", "API token: No token yet"];
    let written = [&before[..], &["saved by the editor"]].concat();
    expected.splice(1..1, written.iter().map(|l| l.to_string()));
    assert_eq!(history, expected);
}

/// The same when the answer channel ends the run after Ctrl+G (docs/elsewhere.md), with the
/// answers given at the terminal.
#[test]
fn after_ctrl_g_an_answer_from_elsewhere_leaves_each_transcript_line_once() {
    let dir = deploy_folder();
    let d = dir.path().to_path_buf();
    let answer = |_: &str| {
        let found: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(d.join("s.json")).unwrap()).unwrap();
        let request = json!({"id": found["answerId"], "from": "phone", "answers": {
            "region": "eu", "token": "none", "notes": {"customText": "note from the editor"}}});
        std::fs::write(d.join("request.json"), request.to_string()).unwrap();
        let sent = std::process::Command::new(env!("CARGO_BIN_EXE_pi-ask"))
            .arg("answer")
            .arg(found["answerSocket"].as_str().unwrap())
            .arg(d.join("request.json"))
            .output()
            .unwrap();
        assert_eq!(sent.status.code(), Some(0), "{sent:?}");
    };
    let args = " --answer-socket-file s.json";
    let ending = "✔ Submitted (answered from elsewhere: phone)";
    let Some(history) = deploy_in_tmux(dir.path(), args, answer, ending) else {
        return;
    };
    assert_eq!(
        history,
        deploy_transcript(&format!("pi-ask q.json --output r.json{args}"), ending)
    );
}

/// In GNU screen (its default settings) too: each transcript line once in its history.
#[test]
fn after_ctrl_g_in_gnu_screen_the_history_holds_each_transcript_line_once() {
    use crate::common::screen::{screen_available, Screen};
    if !screen_available("external_editor") {
        return;
    }
    let dir = deploy_folder();
    let command = format!(
        "cd {d} && echo before && LANG=C.UTF-8 NO_COLOR=1 PI_ASK_SCREEN=inline EDITOR={d}/editor.sh \
         {bin} q.json --output r.json; sleep 60",
        d = dir.path().display(),
        bin = env!("CARGO_BIN_EXE_pi-ask")
    );
    let name = format!("pi-ask-ctrl-g-{}", std::process::id());
    let screen = Screen::start(&name, dir.path(), true, &[], &["bash", "-c", &command]);
    let wait = |what: &str, marker: &str| screen.wait(what, true, |t| t.contains(marker));
    wait("the first question", "Which region?");
    screen.stuff("1");
    wait("the second question", "Paste the deploy token");
    screen.stuff("1");
    wait("the third question", "Anything else?");
    screen.stuff("2");
    wait("the editor", "^G editor");
    screen.stuff("\x07");
    wait("the review", "Review answers");
    screen.stuff("\r");
    let text = wait("the transcript", " Submitted");
    screen.quit();
    // The hardcopy writes a character past U+00FF as its low byte: the quotes and ✔ are
    // left out of the comparison.
    let ours: Vec<String> = text_rows(&text)
        .into_iter()
        .skip_while(|l| l != "before")
        .skip(1)
        .map(|l| l.chars().filter(|c| !c.is_control()).collect())
        .collect();
    assert_eq!(
        ours[..4],
        [
            "Deploy setup",
            "Region: EU",
            "API token: No token yet",
            "Notes: note from the editor"
        ],
        "{text}"
    );
    assert!(ours.len() == 5 && ours[4].ends_with(" Submitted"), "{text}");
}

/// A SIGTERM while the external editor is open ends the run under the lines written before
/// it: the erased block's rows are not gone up again (the shell's earlier lines and the
/// transcript's were erased, up to 9 rows).
#[test]
fn a_sigterm_while_the_external_editor_is_open_keeps_the_lines_above() {
    use crate::common::tmux::{tmux, tmux_available, tmux_session, tmux_wait};
    if !tmux_available("external_editor") {
        return;
    }
    let dir = deploy_folder_with(": > opened; sleep 30");
    let d = dir.path().display().to_string();
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_pi-ask"))
        .parent()
        .unwrap()
        .display()
        .to_string();
    let socket = format!("pi-ask-ctrl-g-term-{}", std::process::id());
    let shell = format!(
        "cd {d} && exec env -i PATH={bin}:/usr/bin:/bin HOME={d} TERM=tmux-256color \
         LANG=C.UTF-8 NO_COLOR=1 PI_ASK_SCREEN=inline PI_ASK_KEY_GRACE=0 \
         EDITOR={d}/editor.sh PS1='$ ' bash --norc --noprofile"
    );
    tmux_session(&socket, 80, 24, &shell);
    let keys = |keys: &[&str]| {
        let mut args = vec!["send-keys", "-t", "t"];
        args.extend_from_slice(keys);
        tmux(&socket, &args);
    };
    tmux_wait(&socket, "the shell", |p| p.trim_end().ends_with('$'));
    keys(&["-l", &format!("seq 1 5; pi-ask q.json --output {d}/r.json")]);
    keys(&["Enter"]);
    tmux_wait(&socket, "the first question", |p| {
        p.contains("Which region?")
    });
    keys(&["-l", "1"]);
    tmux_wait(&socket, "the second question", |p| {
        p.contains("Paste the deploy token")
    });
    keys(&["-l", "1"]);
    tmux_wait(&socket, "the third question", |p| {
        p.contains("Anything else?")
    });
    keys(&["-l", "2"]);
    tmux_wait(&socket, "the editor", |p| p.contains("^G editor"));
    keys(&["C-g"]);
    let opened = dir.path().join("opened");
    let started = std::time::Instant::now();
    while !opened.exists() && started.elapsed() < std::time::Duration::from_secs(20) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(opened.exists(), "the editor did not start");
    // This run's pi-ask: the one whose command line names this folder's result file.
    let wanted = format!("{d}/r.json");
    let pid = std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .find(|pid| {
            let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            let args: Vec<&[u8]> = cmdline.split(|b| *b == 0).collect();
            args.first().is_some_and(|a| a.ends_with(b"pi-ask"))
                && args.contains(&wanted.as_bytes())
        })
        .expect("the run's pi-ask");
    crate::common::send_signal(pid, libc::SIGTERM);
    let history = tmux_wait(&socket, "the shell after the run", |p| {
        p.contains("Aborted by SIGTERM") && p.trim_end().ends_with('$')
    });
    tmux(&socket, &["kill-server"]);
    let rows = text_rows(&history);
    let command = format!("$ seq 1 5; pi-ask q.json --output {d}/r.json");
    let at = rows.iter().position(|r| *r == command).expect(&history);
    // The shell's lines are all kept, the transcript under them. (Under load the title was
    // once written twice here: the ending one row short; noted, not yet found.)
    assert_eq!(
        rows[at..at + 7],
        [command.as_str(), "1", "2", "3", "4", "5", "Deploy setup"].map(str::to_string),
        "{history}"
    );
    assert!(
        rows[at + 7..]
            .iter()
            .any(|r| r == "✘ Aborted by SIGTERM: the answers were not sent"),
        "{history}"
    );
}

/// The editor's file is made where no other user can swap it (the answer channel's rule):
/// in `$XDG_RUNTIME_DIR` when it is the user's alone; with only a `$TMPDIR` others can write
/// to (not sticky), Ctrl+G says so and runs nothing, the draft kept.
#[test]
fn ctrl_g_makes_its_file_only_where_no_other_user_can_swap_it() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let open = dir.path().join("open");
    std::fs::create_dir(&open).unwrap();
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o777)).unwrap();
    let own = dir.path().join("own");
    std::fs::create_dir(&own).unwrap();
    std::fs::set_permissions(&own, std::fs::Permissions::from_mode(0o700)).unwrap();
    let body = format!(
        "printf '%s' \"$1\" > '{d}/path'\nprintf 'edited\\n' > \"$1\"",
        d = dir.path().display()
    );
    let editor = script(dir.path(), "editor.sh", &body);
    let spawn = |runtime: Option<&std::path::Path>| {
        let mut opts = Options {
            rows: 24,
            cols: 100,
            env: vec![
                ("PI_ASK_SCREEN".into(), "inline".into()),
                ("EDITOR".into(), editor.display().to_string()),
                ("TMPDIR".into(), open.display().to_string()),
            ],
            ..Options::default()
        };
        opts.env_remove.push("VISUAL".into());
        match runtime {
            Some(r) => opts
                .env
                .push(("XDG_RUNTIME_DIR".into(), r.display().to_string())),
            None => opts.env_remove.push("XDG_RUNTIME_DIR".into()),
        }
        Session::spawn_with(PREFS, &[], opts)
    };
    // Only the open $TMPDIR: refused, nothing runs, the draft stays.
    let mut s = spawn(None);
    s.wait_for("? keys");
    s.send("4");
    s.wait_for("^G editor");
    s.send("dra\x07");
    s.wait_for("no folder is safe for the editor's file");
    assert!(!dir.path().join("path").exists(), "the editor ran");
    assert!(s.screen().contains("> dra"), "{}", s.screen());
    s.send("\x03");
    s.finish();
    // The user's own runtime folder: the file is made there.
    let mut s = spawn(Some(&own));
    s.wait_for("? keys");
    s.send("4");
    s.wait_for("^G editor");
    s.send("dra\x07");
    s.wait_for("2/2 Frontend");
    let path = std::fs::read_to_string(dir.path().join("path")).unwrap();
    let folder = std::path::Path::new(&path).parent().unwrap().to_path_buf();
    assert!(
        folder.parent() == Some(std::fs::canonicalize(&own).unwrap().as_path()),
        "{path}"
    );
    s.send("\x03");
    s.finish();
    assert!(!folder.exists(), "{} is left", folder.display());
}

/// What the editor leaves next to its file (vim's swap file, kept when vim is ended by
/// `--timeout` or a signal, holds the draft) goes with the file's own folder.
#[test]
fn what_the_editor_leaves_beside_its_file_goes_with_it_after_a_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let body = format!(
        "printf '%s' \"$1\" > '{d}/path'\ncp \"$1\" \"$(dirname \"$1\")/.answer.txt.swp\"\nsleep 30",
        d = dir.path().display()
    );
    let editor = script(dir.path(), "editor.sh", &body);
    let mut opts = Options {
        rows: 24,
        cols: 100,
        env: vec![
            ("PI_ASK_SCREEN".into(), "inline".into()),
            ("EDITOR".into(), editor.display().to_string()),
        ],
        ..Options::default()
    };
    opts.env_remove.push("VISUAL".into());
    let mut s = Session::spawn_with(PREFS, &["--timeout", "4"], opts);
    s.wait_for("1. Minimal");
    s.send("4");
    s.wait_for("> Type answer");
    s.send("secretdraft\x07");
    let (code, _) = s.finish();
    assert_eq!(code, 124);
    let path = std::fs::read_to_string(dir.path().join("path")).unwrap();
    let folder = std::path::Path::new(&path).parent().unwrap();
    assert!(!folder.exists(), "{} is left", folder.display());
}

/// What an editor may leave on the terminal as it exits or is ended: the DEC line-drawing
/// charset, mouse reporting (SGR), a hidden cursor, no autowrap, application cursor keys,
/// reverse screen (written to `/dev/tty`).
const EDITOR_MODES: &str =
    r"printf '\033(0\033[?1000h\033[?1006h\033[?25l\033[?7l\033[?1h\033[?5h' > /dev/tty";

/// Every part of the reset pi-ask writes after an external editor.
const EDITOR_RESET: [&str; 10] = [
    "\x1b[?1000l",
    "\x1b[?1002l",
    "\x1b[?1003l",
    "\x1b[?1006l",
    "\x1b[?1015l",
    "\x1b[?1l",
    "\x1b[?7h",
    "\x1b[?5l",
    "\x1b(B",
    "\x1b[?25h",
];

/// `bytes` (what pi-ask and the editor wrote) after the editor's [`EDITOR_MODES`], up to the
/// end if `to` is none, else up to the first `to` after them; each part of the reset is in it,
/// and the pty's screen reports neither the mouse nor application cursor keys.
fn assert_reset_after_the_editor(s: &Session, to: Option<&str>) {
    let out = s.output_text();
    let at = out.rfind("\x1b[?5h").expect("the editor's modes") + 5;
    let after = &out[at..];
    let after = match to {
        Some(to) => &after[..after.find(to).expect("the end marker")],
        None => after,
    };
    for part in EDITOR_RESET {
        assert!(after.contains(part), "{part:?} not written in {after:?}");
    }
}

#[test]
fn an_editor_that_leaves_modes_on_has_them_reset_after_it_and_at_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let editor = script(
        dir.path(),
        "modes.sh",
        &format!("{EDITOR_MODES}\nprintf 'edited\\n' > \"$1\""),
    );
    let mut s = with_editor(&editor);
    open_the_external_editor(&mut s);
    s.wait_for("2/2 Frontend");
    // Back from the editor, before the next key: its modes are reset.
    assert_reset_after_the_editor(&s, Some("2/2 Frontend"));
    assert_eq!(s.mouse_or_application_cursor(), (false, false));
    assert!(s.screen().contains("2/2 Frontend"));
    let result = submitted_from_the_second_question(&mut s);
    assert_eq!(
        result["details"]["answers"]["style"]["customText"],
        "edited"
    );
    assert_eq!(s.mouse_or_application_cursor(), (false, false));
    assert!(s.cursor_visible());
}

/// pi-ask ended by `end` while an editor that set [`EDITOR_MODES`] sleeps: the editor ended,
/// the reset written after it, no mouse reporting or application cursor keys left, the cursor
/// visible; the exit code and the result.
fn ended_with_modes_on(args: &[&str], end: impl FnOnce(&mut Session)) -> (i32, serde_json::Value) {
    let dir = tempfile::tempdir().unwrap();
    let body = format!(
        "{EDITOR_MODES}\ntrap '' INT HUP\necho $$ > '{d}/pid.new'\nmv '{d}/pid.new' '{d}/pid'\nexec sleep 30",
        d = dir.path().display()
    );
    let editor = script(dir.path(), "modes_sleeping.sh", &body);
    let mut s = Session::spawn_with(PREFS, args, editor_options(&editor));
    open_the_external_editor(&mut s);
    let pid = editor_pid(dir.path());
    // The editor's modes reach the pty's screen (its reader may still be parsing them).
    let start = std::time::Instant::now();
    while s.mouse_or_application_cursor() != (true, true) {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(15),
            "no editor modes"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    end(&mut s);
    let (code, result) = s.finish();
    assert_gone(pid, "the external editor");
    assert_reset_after_the_editor(&s, None);
    assert_eq!(s.mouse_or_application_cursor(), (false, false));
    assert!(s.cursor_visible());
    (code, result.expect("a result"))
}

#[test]
fn the_timeout_ending_an_editor_that_left_modes_on_resets_them() {
    let (code, result) = ended_with_modes_on(&["--timeout", "3"], |_| {});
    assert_eq!(code, 124);
    assert_eq!(result["details"]["error"]["code"], "timeout");
}

#[test]
fn a_sigterm_ending_an_editor_that_left_modes_on_resets_them() {
    let (code, result) = ended_with_modes_on(&[], |s| {
        crate::common::wait_until_handled(s.pid() as u32, libc::SIGTERM);
        s.signal(libc::SIGTERM);
    });
    assert_eq!(code, 143);
    assert_eq!(result["details"]["error"]["code"], "aborted");
}

//! Answering from elsewhere (docs/elsewhere.md): the answer channel of a run that asks, and
//! `pi-ask answer`, its client, run from another process as a bridge would: the exact result
//! and transcript line, refused answers leaving the questions up, the race with a key at the
//! terminal, the socket gone after every ending.

use crate::common::pty::{Options, Session, TIMEOUT};
use crate::common::tmux::{tmux, tmux_available, tmux_session, tmux_wait};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const PAYLOAD: &str = r#"{"title": "Setup", "questions": [{"id": "scope", "prompt": "Which scope?",
    "options": [{"value": "all", "label": "All"}, {"value": "some", "label": "Some"}]}]}"#;

/// `details.questions` of [`PAYLOAD`].
fn questions() -> Value {
    json!([{"id": "scope", "label": "Q1", "prompt": "Which scope?", "type": "single"}])
}

/// The result of [`PAYLOAD`] answered `value` (`Some`'s position 2, `All`'s 1).
fn answered(value: &str) -> Value {
    let (label, index) = match value {
        "all" => ("All", 1),
        _ => ("Some", 2),
    };
    json!({
        "content": [{"type": "text", "text": format!("Q1: {label}")}],
        "details": {"title": "Setup", "cancelled": false, "questions": questions(),
            "answers": {"scope": {"values": [value], "labels": [label], "indices": [index]}}}
    })
}

/// The socket and the id `--print-answer-socket` said in `stderr` (the file), once it did.
fn channel_in(stderr: &Path) -> (PathBuf, String) {
    let start = Instant::now();
    loop {
        let text = std::fs::read_to_string(stderr).unwrap_or_default();
        if let Some(line) = text.lines().find(|l| l.starts_with("{\"answerSocket\"")) {
            let v: Value = serde_json::from_str(line).unwrap();
            return (
                PathBuf::from(v["answerSocket"].as_str().unwrap()),
                v["answerId"].as_str().unwrap().to_string(),
            );
        }
        assert!(start.elapsed() < TIMEOUT, "no answer channel said: {text}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Runs `pi-ask answer SOCKET -` with `request` on stdin: (exit code, stdout, stderr).
fn answer(socket: &Path, request: &Value) -> (i32, String, String) {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_pi-ask"))
        .arg("answer")
        .arg(socket)
        .arg("-")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(request.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `pi-ask answer ARGS`: (exit code, stdout, stderr).
fn answer_with(args: &[&std::ffi::OsStr]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pi-ask"))
        .arg("answer")
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The reply to a questions request on the channel of [`PAYLOAD`] whose id is `id`: the
/// normalized questions as a bridge needs them (ids, option values and labels).
fn questions_reply(id: &str) -> Value {
    json!({"status": "questions", "id": id, "title": "Setup", "questions": [{"id": "scope",
        "label": "Q1", "prompt": "Which scope?", "type": "single", "required": false,
        "options": [{"value": "all", "label": "All"}, {"value": "some", "label": "Some"}]}]})
}

/// `pi-ask PAYLOAD --print-answer-socket ARGS` in a pty (inline), its channel once the
/// question is up.
fn asking(args: &[&str], env: &[(&str, &str)]) -> (Session, PathBuf, String) {
    let mut all = vec!["--print-answer-socket"];
    all.extend_from_slice(args);
    let mut env: Vec<(String, String)> = env
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    env.push(("PI_ASK_SCREEN".into(), "inline".into()));
    let mut s = Session::spawn_with(
        PAYLOAD,
        &all,
        Options {
            rows: 20,
            env,
            ..Options::default()
        },
    );
    if !args.contains(&"--plain") {
        s.wait_all(&["Which scope?", "2. Some"]);
    }
    let (socket, id) = channel_in(&s.dir().join("stderr.txt"));
    (s, socket, id)
}

/// The socket and its folder are gone.
fn gone(socket: &Path) {
    assert!(!socket.exists(), "{} is still there", socket.display());
    assert!(
        !socket.parent().unwrap().exists(),
        "{} is still there",
        socket.parent().unwrap().display()
    );
}

#[test]
fn a_tmux_run_is_answered_from_another_shell() {
    if !tmux_available("a_tmux_run_is_answered_from_another_shell") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("q.json"), PAYLOAD).unwrap();
    let sock = format!("pi-ask-elsewhere-{}", std::process::id());
    let command = format!(
        "cd {} && env PI_ASK_SCREEN=inline NO_COLOR=1 LANG=C.UTF-8 {} q.json \
         --print-answer-socket --output result.json 2> err.txt; echo $? > code.txt; sleep 30",
        dir.path().display(),
        env!("CARGO_BIN_EXE_pi-ask")
    );
    tmux_session(&sock, 80, 12, &command);
    // The server goes with the test, however it ends.
    struct Server(String);
    impl Drop for Server {
        fn drop(&mut self) {
            tmux(&self.0, &["kill-server"]);
        }
    }
    let server = Server(sock.clone());
    tmux_wait(&sock, "the question", |p| p.contains("2. Some"));
    let (socket, id) = channel_in(&dir.path().join("err.txt"));
    let request = json!({"id": id, "from": "phone", "answers": {"scope": "some"}});
    let (code, stdout, stderr) = answer(&socket, &request);
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert_eq!(
        serde_json::from_str::<Value>(&stdout).unwrap(),
        json!({"status": "ok"})
    );
    let pane = tmux_wait(&sock, "the transcript", |p| p.contains("Submitted"));
    let lines: Vec<&str> = pane
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(
        lines,
        [
            "Setup",
            "Which scope?: Some",
            "✔ Submitted (answered from elsewhere: phone)"
        ]
    );
    let start = Instant::now();
    while !dir.path().join("code.txt").exists() {
        assert!(start.elapsed() < TIMEOUT, "pi-ask did not exit");
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(server);
    let code = std::fs::read_to_string(dir.path().join("code.txt")).unwrap();
    assert_eq!(code.trim(), "0");
    let result: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("result.json")).unwrap())
            .unwrap();
    assert_eq!(result, answered("some"));
    gone(&socket);
}

#[test]
fn invalid_remote_answers_leave_the_questions_up_and_return_the_problems() {
    let (mut s, socket, id) = asking(&[], &[]);
    let before = s.screen();
    let refused = [
        (
            json!({"id": id, "answers": {"scope": "everything"}}),
            "pi-ask: invalid answers file on stdin: 1 problem\n  answers.scope: question \
             \"scope\" has no option with value \"everything\"; valid values: \"all\", \"some\" \
             (or a position 1..2) [unknown_option]\n",
            "invalid",
        ),
        (
            json!({"id": id, "answers": {"scop": "all"}}),
            "pi-ask: invalid answers file on stdin: 1 problem\n  answers.scop: the payload has \
             no question with id \"scop\"; did you mean \"scope\"? question ids: \"scope\" \
             [unknown_question]\n",
            "invalid",
        ),
        (
            json!({"id": "0123456789abcdef-1", "answers": {"scope": "all"}}),
            "pi-ask: the answers were not taken: \"0123456789abcdef-1\" is not the id of the \
             questions waiting: the request is for another ask\n",
            "stale",
        ),
    ];
    for (request, said, status) in refused {
        let (code, stdout, stderr) = answer(&socket, &request);
        assert_eq!((code, stderr.as_str()), (2, said), "{request}");
        let reply: Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(reply["status"], json!(status), "{reply}");
    }
    // The questions are still up, as they were; the person answers them.
    assert_eq!(s.screen(), before);
    s.send("\r");
    s.wait_for("Submit");
    s.send("\r");
    let (code, result) = s.finish();
    assert_eq!((code, result), (0, Some(answered("all"))));
    gone(&socket);
}

#[test]
fn a_remote_answer_and_a_local_enter_together_yield_exactly_one_result() {
    let (mut s, socket, id) = asking(&[], &[]);
    // At the review, Enter submits All.
    s.send("\r");
    s.wait_for("Submit");
    let request = json!({"id": id, "answers": {"scope": "some"}});
    let remote = std::thread::spawn(move || answer(&socket, &request));
    s.send("\r");
    let (code, stdout, stderr) = remote.join().unwrap();
    let (exit, result) = s.finish();
    assert_eq!(exit, 0);
    let result = result.expect("one result");
    if code == 0 {
        // The channel won: its answers, its line; the key came too late.
        assert_eq!(result, answered("some"));
        assert_eq!(stdout.trim(), "{\n  \"status\": \"ok\"\n}");
        assert!(s
            .screen()
            .contains("(answered from elsewhere: the answer channel)"));
    } else {
        // The key won: the channel's client was told.
        assert_eq!(code, 1, "{stderr}");
        assert_eq!(result, answered("all"));
        assert!(
            stderr.contains("the questions were answered already")
                || stderr.contains("no questions take answers"),
            "{stderr}"
        );
        assert!(!s.screen().contains("answered from elsewhere"));
    }
}

#[test]
fn the_socket_is_gone_after_a_cancel_a_dismissal_and_sigterm() {
    // A cancel from elsewhere: the cancelled result, exit 1.
    let (mut s, socket, id) = asking(&[], &[]);
    let (code, _, _) = answer(&socket, &json!({"id": id, "action": "cancel"}));
    assert_eq!(code, 0);
    let (exit, result) = s.finish();
    assert_eq!(exit, 1);
    assert_eq!(result.unwrap()["details"]["cancelled"], json!(true));
    assert!(s
        .screen()
        .contains("Cancelled: the answers were not sent (answered from elsewhere"));
    gone(&socket);
    // Ctrl+C at the terminal; then the channel's client finds nothing.
    let (mut s, socket, id) = asking(&[], &[]);
    s.send("\x03");
    assert_eq!(s.finish().0, 130);
    gone(&socket);
    let (code, _, stderr) = answer(&socket, &json!({"id": id, "answers": {}}));
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.starts_with("pi-ask: no questions take answers on "),
        "{stderr}"
    );
    // SIGTERM.
    let (mut s, socket, _) = asking(&[], &[]);
    crate::common::wait_until_handled(s.pid() as u32, libc::SIGTERM);
    s.signal(libc::SIGTERM);
    assert_eq!(s.finish().0, 143);
    gone(&socket);
}

#[test]
fn plain_mode_takes_an_answer_from_elsewhere() {
    let (mut s, socket, id) = asking(&["--plain"], &[]);
    s.expect("1/1>");
    let request = json!({"id": id, "from": "chat bot", "answers": {"scope": 2}});
    assert_eq!(answer(&socket, &request).0, 0);
    s.expect("Submitted (answered from elsewhere: chat bot).");
    let (code, result) = s.finish();
    assert_eq!((code, result), (0, Some(answered("some"))));
    gone(&socket);
}

#[test]
fn the_questions_request_answers_with_the_normalized_questions() {
    let (mut s, socket, id) = asking(&[], &[]);
    // The channel's folder holds the socket alone: the questions are in no file.
    let names: Vec<String> = std::fs::read_dir(socket.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["answer.sock"]);
    // Either order of the flag; the questions stay up, untouched.
    for args in [
        ["--questions".as_ref(), socket.as_os_str()],
        [socket.as_os_str(), "--questions".as_ref()],
    ] {
        let (code, stdout, stderr) = answer_with(&args);
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(stderr, "");
        assert_eq!(
            serde_json::from_str::<Value>(&stdout).unwrap(),
            questions_reply(&id)
        );
    }
    // A FILE besides --questions is refused by the command line.
    let (code, _, stderr) =
        answer_with(&["--questions".as_ref(), socket.as_os_str(), "-".as_ref()]);
    assert_eq!(code, 2, "{stderr}");
    // The id the reply carries answers the questions.
    let (code, _, stderr) = answer(&socket, &json!({"id": id, "answers": {"scope": "all"}}));
    assert_eq!(code, 0, "{stderr}");
    s.expect("Submitted (answered from elsewhere: the answer channel)");
    assert_eq!(s.finish(), (0, Some(answered("all"))));
    gone(&socket);
    let (code, stdout, stderr) = answer_with(&["--questions".as_ref(), socket.as_os_str()]);
    assert_eq!((code, stdout.as_str()), (1, ""), "{stderr}");
    assert!(
        stderr.starts_with("pi-ask: no questions take answers on "),
        "{stderr}"
    );
}

#[test]
fn the_notification_command_gets_the_socket_and_the_id() {
    let command = format!(
        "{{ printf '%s|%s|%s|' \"$ASK_ANSWER_SOCKET\" \"$ASK_ANSWER_ID\" \
         \"${{ASK_ANSWER_QUESTIONS-unset}}\"; '{}' answer --questions \"$ASK_ANSWER_SOCKET\"; }} \
         > notified.tmp && mv notified.tmp notified.txt",
        env!("CARGO_BIN_EXE_pi-ask")
    );
    let (mut s, socket, id) = asking(&["--notify-command", &command], &[]);
    let path = s.dir().join("notified.txt");
    let start = Instant::now();
    while !path.exists() {
        assert!(start.elapsed() < TIMEOUT, "the command did not run");
        std::thread::sleep(Duration::from_millis(20));
    }
    // The questions as a bridge gets them: asked on the socket (no file names them).
    let said = std::fs::read_to_string(&path).unwrap();
    let (head, reply) = said.rsplit_once('|').unwrap();
    assert_eq!(head, format!("{}|{id}|unset", socket.display()));
    assert_eq!(
        serde_json::from_str::<Value>(reply).unwrap(),
        questions_reply(&id)
    );
    s.send("\x03");
    assert_eq!(s.finish().0, 130);
}

#[test]
fn the_dialogs_take_an_answer_from_elsewhere_and_say_the_channel_to_a_file() {
    // --dialogs (pi's RPC mode): a select is open on the client, which never answers.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("q.json"), PAYLOAD).unwrap();
    let said = dir.path().join("channel.json");
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_pi-ask"))
        .current_dir(dir.path())
        .args(["q.json", "--dialogs", "--output", "result.json"])
        .arg("--answer-socket-file")
        .arg(&said)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let line = loop {
        let text = std::fs::read_to_string(&said).unwrap_or_default();
        if text.ends_with('\n') {
            break text;
        }
        assert!(start.elapsed() < TIMEOUT, "no channel said");
        std::thread::sleep(Duration::from_millis(20));
    };
    let v: Value = serde_json::from_str(&line).unwrap();
    let socket = PathBuf::from(v["answerSocket"].as_str().unwrap());
    let request = json!({"id": v["answerId"], "answers": {"scope": "all"}});
    assert_eq!(answer(&socket, &request).0, 0);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    // Only the dialog request went to stdout; nothing was said on stderr.
    let requests = String::from_utf8(out.stdout).unwrap();
    assert_eq!(requests.lines().count(), 1, "{requests}");
    assert_eq!(String::from_utf8(out.stderr).unwrap(), "");
    let result: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("result.json")).unwrap())
            .unwrap();
    assert_eq!(result, answered("all"));
    gone(&socket);
}

/// `pi-ask q.json --dialogs --output r.json ARGS` in `dir` with `env`, its stdin closed (the
/// run ends at once): its stderr.
fn dialogs_run(dir: &Path, args: &[&std::ffi::OsStr], env: &[(&str, &Path)]) -> String {
    std::fs::write(dir.join("q.json"), PAYLOAD).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pi-ask"))
        .current_dir(dir)
        .args(["q.json", "--dialogs", "--output", "r.json"])
        .args(args)
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A folder of mode `mode` in `dir`.
fn folder(dir: &Path, name: &str, mode: u32) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let at = dir.join(name);
    std::fs::create_dir(&at).unwrap();
    std::fs::set_permissions(&at, std::fs::Permissions::from_mode(mode)).unwrap();
    std::fs::canonicalize(at).unwrap()
}

#[test]
fn the_channel_is_made_only_in_a_folder_no_other_user_can_write_to() {
    let dir = tempfile::tempdir().unwrap();
    let open = folder(dir.path(), "open", 0o777);
    let own = folder(dir.path(), "own", 0o700);
    // A runtime folder others can write to: the temporary folder, when it is safe.
    let said = dialogs_run(
        dir.path(),
        &["--print-answer-socket".as_ref()],
        &[("XDG_RUNTIME_DIR", &open), ("TMPDIR", &own)],
    );
    let line = said
        .lines()
        .find(|l| l.starts_with("{\"answerSocket\""))
        .unwrap();
    let v: Value = serde_json::from_str(line).unwrap();
    assert!(
        Path::new(v["answerSocket"].as_str().unwrap()).starts_with(&own),
        "{said}"
    );
    // Neither is safe: no channel, said, and the run goes on.
    let said = dialogs_run(
        dir.path(),
        &["--print-answer-socket".as_ref()],
        &[("XDG_RUNTIME_DIR", &open), ("TMPDIR", &open)],
    );
    let open = open.display();
    assert_eq!(
        said,
        format!(
            "pi-ask: cannot open the answer channel: no safe folder for its socket: \
             XDG_RUNTIME_DIR: {open} could be written by another user (its owner or mode); \
             the temporary folder: {open} could be written by another user (its owner or \
             mode); going on without it\n"
        )
    );
    assert!(!said.contains("answerSocket"));
}

#[test]
fn the_socket_file_is_never_a_link_or_file_another_user_planted() {
    if !nix::unistd::geteuid().is_root() {
        return; // another user's link needs root to make
    }
    let dir = tempfile::tempdir().unwrap();
    let shared = folder(dir.path(), "shared", 0o1777);
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    let link = shared.join("said");
    std::os::unix::fs::symlink(&victim, &link).unwrap();
    std::os::unix::fs::lchown(&link, Some(65534), Some(65534)).unwrap();
    let planted = shared.join("planted");
    std::fs::write(&planted, "").unwrap();
    std::os::unix::fs::lchown(&planted, Some(65534), Some(65534)).unwrap();
    let said = dialogs_run(
        dir.path(),
        &["--answer-socket-file".as_ref(), link.as_os_str()],
        &[],
    );
    assert_eq!(
        said,
        format!(
            "pi-ask: cannot write --answer-socket-file {0}: the symbolic link {0} is in a \
             sticky world-writable folder and belongs neither to you nor to the folder's owner\n",
            link.display()
        )
    );
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    let said = dialogs_run(
        dir.path(),
        &["--answer-socket-file".as_ref(), planted.as_os_str()],
        &[],
    );
    assert_eq!(
        said,
        format!(
            "pi-ask: cannot write --answer-socket-file {0}: the file {0} is in a sticky \
             world-writable folder and belongs neither to you nor to the folder's owner\n",
            planted.display()
        )
    );
    assert_eq!(std::fs::read_to_string(&planted).unwrap(), "");
    // The user's own new file there is written, 0600.
    let own = shared.join("own");
    dialogs_run(
        dir.path(),
        &["--answer-socket-file".as_ref(), own.as_os_str()],
        &[],
    );
    assert!(std::fs::read_to_string(&own)
        .unwrap()
        .starts_with("{\"answerSocket\""));
}

#[test]
fn pi_ask_answer_sends_nothing_to_another_users_socket() {
    let tools = ["/usr/bin/setpriv", "/usr/bin/python3"];
    if !nix::unistd::geteuid().is_root() || !tools.iter().all(|t| Path::new(t).exists()) {
        return; // another user's listener needs root to start
    }
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    // The other user must reach the folder.
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let open = folder(dir.path(), "open", 0o777);
    let socket = open.join("answer.sock");
    let got = open.join("got");
    let server = "import socket,sys\ns=socket.socket(socket.AF_UNIX)\ns.bind(sys.argv[1])\n\
        s.listen(1)\nopen(sys.argv[1]+'.ready','w').close()\nc,_=s.accept()\nd=b''\n\
        while True:\n    b=c.recv(65536)\n    if not b: break\n    d+=b\n\
        open(sys.argv[2],'w').write(str(len(d)))\n";
    let mut child = std::process::Command::new("/usr/bin/setpriv")
        .args([
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
            "/usr/bin/python3",
            "-c",
        ])
        .arg(server)
        .arg(&socket)
        .arg(&got)
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !open.join("answer.sock.ready").exists() {
        assert!(
            start.elapsed() < TIMEOUT,
            "the other user's listener did not start"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let (code, out, err) = answer(&socket, &json!({"id": "x", "answers": {"scope": "all"}}));
    assert_eq!(code, 1);
    assert_eq!(out, "");
    assert_eq!(
        err,
        format!(
            "pi-ask: the answers were not sent to {}: the process listening there is another \
             user's (user id 65534): nothing was sent\n",
            socket.display()
        )
    );
    child.wait().unwrap();
    assert_eq!(std::fs::read_to_string(&got).unwrap(), "0");
}

#[test]
fn idle_connections_do_not_hold_the_channel_and_a_request_is_taken_at_once() {
    let (mut s, socket, id) = asking(&["--plain"], &[]);
    s.expect("1/1>");
    // Two local processes connect and send nothing (or one byte), and stay.
    let _idle = std::os::unix::net::UnixStream::connect(&socket).unwrap();
    let mut slow = std::os::unix::net::UnixStream::connect(&socket).unwrap();
    std::io::Write::write_all(&mut slow, b"{").unwrap();
    let start = Instant::now();
    let request = json!({"id": id, "from": "bridge", "answers": {"scope": 2}});
    let (code, out, _) = answer(&socket, &request);
    assert_eq!(code, 0);
    assert_eq!(
        serde_json::from_str::<Value>(&out).unwrap(),
        json!({"status": "ok"})
    );
    // Served beside them, not after their time.
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    s.expect("Submitted (answered from elsewhere: bridge).");
    let (code, result) = s.finish();
    assert_eq!((code, result), (0, Some(answered("some"))));
}

/// On the terminal the channel opens once the first question is up (the first prompt comes
/// first: docs/benchmarks.md, figure 1): `--answer-socket-file` is written then, and the
/// channel answers; a file that cannot be written is said on stderr only once the questions
/// end, never over them.
#[test]
fn on_the_terminal_the_socket_file_is_written_once_the_question_is_up_and_a_failure_said_at_the_end(
) {
    let options = || Options {
        rows: 20,
        env: vec![("PI_ASK_SCREEN".into(), "inline".into())],
        ..Options::default()
    };
    let mut s = Session::spawn_with(PAYLOAD, &["--answer-socket-file", "said.json"], options());
    s.wait_all(&["Which scope?", "2. Some"]);
    let path = s.dir().join("said.json");
    let start = Instant::now();
    let said = loop {
        match std::fs::read_to_string(&path) {
            Ok(text) if text.ends_with('\n') => break text,
            _ => assert!(start.elapsed() < TIMEOUT, "no socket file written"),
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let line: Value = serde_json::from_str(said.trim_end()).unwrap();
    let socket = PathBuf::from(line["answerSocket"].as_str().unwrap());
    let id = line["answerId"].as_str().unwrap().to_string();
    let request = json!({"id": id, "answers": {"scope": "some"}});
    assert_eq!(answer(&socket, &request).0, 0);
    let (code, result) = s.finish();
    assert_eq!((code, result), (0, Some(answered("some"))));

    let mut s = Session::spawn_with(
        PAYLOAD,
        &["--answer-socket-file", "gone/said.json"],
        options(),
    );
    s.wait_all(&["Which scope?", "2. Some"]);
    let stderr = s.dir().join("stderr.txt");
    // The channel opened with the first frame: nothing is said while the question is up.
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(std::fs::read_to_string(&stderr).unwrap_or_default(), "");
    s.send("\x1b");
    assert_eq!(s.finish().0, 1);
    assert_eq!(
        std::fs::read_to_string(&stderr).unwrap(),
        "pi-ask: cannot write --answer-socket-file gone/said.json: No such file or directory\n"
    );
}

/// While the external editor is open (Ctrl+G) the questions take no answer: a request is told
/// `busy` after its 10 seconds, and why; once the editor has closed, the next one is taken.
#[test]
fn a_request_while_the_external_editor_is_open_is_told_busy_and_why() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().display();
    // The editor says it runs, then waits for `close` and leaves `typed` in its file.
    let editor = dir.path().join("waiting.sh");
    std::fs::write(
        &editor,
        format!(
            "#!/bin/sh\ntouch '{d}/running'\nwhile [ ! -f '{d}/close' ]; do sleep 0.05; done\n\
             printf typed > \"$1\"\n"
        ),
    )
    .unwrap();
    std::process::Command::new("chmod")
        .args(["+x", editor.to_str().unwrap()])
        .status()
        .unwrap();
    let path = editor.display().to_string();
    let (mut s, socket, id) = asking(&[], &[("EDITOR", &path), ("VISUAL", &path)]);
    s.send("3");
    s.wait_for("Type your own \u{b7} Enter submit");
    s.send("\x07");
    let start = Instant::now();
    while !dir.path().join("running").exists() {
        assert!(start.elapsed() < TIMEOUT, "the editor did not start");
        std::thread::sleep(Duration::from_millis(20));
    }
    let request = json!({"id": id, "answers": {"scope": "some"}});
    let (code, stdout, stderr) = answer(&socket, &request);
    assert_eq!(code, 1, "{stdout}{stderr}");
    let why = "the questions did not take the answers within 10 s: an external editor is open \
               at the terminal (the questions take answers again once it closes): try again";
    assert_eq!(
        serde_json::from_str::<Value>(&stdout).unwrap(),
        json!({"status": "busy", "message": why})
    );
    assert_eq!(
        stderr.trim_end(),
        format!("pi-ask: the answers were not taken: {why}")
    );
    // The editor closes: its text is saved (the review shows it); the request is taken now.
    std::fs::write(dir.path().join("close"), "").unwrap();
    s.wait_for("\u{2192} \u{201c}typed\u{201d}");
    let (code, stdout, stderr) = answer(&socket, &request);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let (exit, result) = s.finish();
    assert_eq!(exit, 0);
    assert_eq!(result.expect("a result"), answered("some"));
}

/// A request the channel refuses while it is still being written (larger than its limit, or
/// a ninth connection at once) is told why: the reply is read although the write failed,
/// never "no questions take answers", and the questions stay up.
#[test]
fn a_request_refused_while_it_is_written_is_told_why() {
    let (mut s, socket, id) = asking(&["--plain"], &[]);
    s.expect("1/1>");
    // Larger than the channel's limit (4 MiB plus 16 times the payload, plus 4096), smaller
    // than `pi-ask answer`'s own: refused as invalid, the limit named (exit 2).
    let limit = 4 * 1024 * 1024 + 16 * PAYLOAD.len() + 4096;
    let request = json!({"id": id, "answers": {"scope": {"customText": "a".repeat(6_000_000)}}});
    let (code, stdout, stderr) = answer(&socket, &request);
    assert_eq!(
        (code, stderr.as_str()),
        (
            2,
            format!(
                "pi-ask: the answers were not taken: the request is larger than {limit} bytes\n"
            )
            .as_str()
        )
    );
    assert_eq!(
        serde_json::from_str::<Value>(&stdout).unwrap(),
        json!({"status": "invalid", "message": "the answers have 1 problem: the questions are \
            still up", "problems": [{"code": "answers_too_large", "path": "",
            "message": format!("the request is larger than {limit} bytes")}]})
    );
    // Eight connections that send a byte and wait: the ninth is told busy, and why (exit 1).
    let held: Vec<_> = (0..8)
        .map(|_| {
            let mut c = std::os::unix::net::UnixStream::connect(&socket).unwrap();
            std::io::Write::write_all(&mut c, b"{").unwrap();
            c
        })
        .collect();
    let request = json!({"id": id, "from": "bridge", "answers": {"scope": "all"}});
    let why = "8 requests are being served at once: try again";
    let (code, stdout, stderr) = answer(&socket, &request);
    assert_eq!(
        (code, stderr.as_str()),
        (
            1,
            format!("pi-ask: the answers were not taken: {why}\n").as_str()
        )
    );
    assert_eq!(
        serde_json::from_str::<Value>(&stdout).unwrap(),
        json!({"status": "busy", "message": why})
    );
    drop(held);
    // The questions were up all along: the next request is taken.
    let start = Instant::now();
    loop {
        let (code, stdout, stderr) = answer(&socket, &request);
        if code == 0 {
            break;
        }
        // The held connections' threads end within their reading time.
        assert!(start.elapsed() < TIMEOUT, "{code} {stdout}{stderr}");
        std::thread::sleep(Duration::from_millis(100));
    }
    s.expect("Submitted (answered from elsewhere: bridge).");
    let (code, result) = s.finish();
    assert_eq!((code, result), (0, Some(answered("all"))));
}

/// `bash -c SCRIPT` in `dir`, `$P` the binary, stdin closed: (exit code, stdout, stderr).
fn bash_in(dir: &Path, script: &str, stdin: &str) -> (i32, String, String) {
    use std::io::Write;
    let mut child = std::process::Command::new("bash")
        .current_dir(dir)
        .args(["-c", script])
        .env("P", env!("CARGO_BIN_EXE_pi-ask"))
        .env_remove("PI_ASK_ANSWERS")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `--answer-socket-file` never writes into the result's stream or an input: stdout (a pipe
/// here, as a caller reading the result has it; `/dev/stdout` is its link), stdin, the
/// payload or the lifeline is a usage error (exit 2), before anything is asked. A link to
/// another descriptor's pipe is said as such.
#[test]
fn the_socket_file_is_never_the_results_stream_or_an_input() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("q.json"), PAYLOAD).unwrap();
    let refused = |file: &str, why: &str| {
        format!("pi-ask: --answer-socket-file {file} cannot be used: {why}\n")
    };
    let stdout = "it is stdout, where the result goes (descriptor 1)";
    let cases = [
        (
            "$P q.json --no-input --answer-socket-file /dev/fd/1 < /dev/null",
            "",
            refused("/dev/fd/1", stdout),
        ),
        (
            "$P q.json --no-input --answer-socket-file /dev/stdout < /dev/null",
            "",
            refused("/dev/stdout", stdout),
        ),
        (
            "$P - --no-input --answer-socket-file /dev/fd/0",
            PAYLOAD,
            refused("/dev/fd/0", "it is stdin (descriptor 0)"),
        ),
        (
            "$P q.json --no-input --answer-socket-file q.json < /dev/null",
            "",
            refused("q.json", "it is the payload's file"),
        ),
        (
            "exec 3< <(exec 2>/dev/null; sleep 5); $P q.json --no-input --lifeline-fd 3 \
             --answer-socket-file /dev/fd/3 < /dev/null",
            "",
            refused("/dev/fd/3", "it is the lifeline (--lifeline-fd 3)"),
        ),
    ];
    for (script, stdin, said) in cases {
        assert_eq!(
            bash_in(dir.path(), script, stdin),
            (2, String::new(), said),
            "{script}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(dir.path().join("q.json")).unwrap(),
        PAYLOAD
    );
    // `/dev/null` takes the line and is fine; a link to stderr's pipe is named a link.
    let (code, _, err) = bash_in(
        dir.path(),
        "$P q.json --no-input --answer-socket-file /dev/null < /dev/null",
        "",
    );
    assert_eq!((code, err.as_str()), (3, ""));
    let (_, _, err) = bash_in(
        dir.path(),
        "$P q.json --dialogs --output r.json --answer-socket-file /dev/stderr < /dev/null",
        "",
    );
    assert_eq!(
        err,
        "pi-ask: cannot write --answer-socket-file /dev/stderr: it is a link to a \
         descriptor's pipe or socket, not to a file: name the descriptor as /dev/fd/N\n"
    );
}

/// The channel's line escapes the characters a terminal would act on (C1 controls,
/// bidirectional overrides) as `\uXXXX`, on stderr (`--print-answer-socket`, the terminal
/// when a person runs pi-ask) and in the socket file: the same JSON value, never raw.
#[test]
fn the_socket_line_escapes_c1_and_bidi_characters_of_the_path() {
    let dir = tempfile::tempdir().unwrap();
    let odd = folder(dir.path(), "t-\u{9b}31m-\u{202e}-d", 0o700);
    let said = dialogs_run(
        dir.path(),
        &[
            "--print-answer-socket".as_ref(),
            "--answer-socket-file".as_ref(),
            "said.json".as_ref(),
        ],
        &[("XDG_RUNTIME_DIR", &odd), ("TMPDIR", &odd)],
    );
    let line = said
        .lines()
        .find(|l| l.starts_with("{\"answerSocket\""))
        .unwrap_or_else(|| panic!("no line: {said}"));
    assert!(
        !said.contains('\u{9b}') && !said.contains('\u{202e}'),
        "{said}"
    );
    let shown = odd
        .display()
        .to_string()
        .replace('\u{9b}', "\\u009b")
        .replace('\u{202e}', "\\u202e");
    assert!(
        line.starts_with(&format!("{{\"answerSocket\":\"{shown}/pi-ask-")),
        "{line}"
    );
    let v: Value = serde_json::from_str(line).unwrap();
    assert!(
        Path::new(v["answerSocket"].as_str().unwrap()).starts_with(&odd),
        "{v}"
    );
    let file = std::fs::read_to_string(dir.path().join("said.json")).unwrap();
    assert_eq!(file, format!("{line}\n"));
}

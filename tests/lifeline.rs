//! Ending from outside: the caller's lifeline (`--lifeline-fd`, the parent's death) in every
//! phase, and the bounded wait for another run's terminal (docs/interactive.md, "Ending from
//! outside").
//!
//! The pty's session leader is [`DRIVER`], a small Python program that stands in for a shell
//! and a caller such as pi: a subreaper (so pi-ask's exit status is seen after its caller
//! died), which starts a process that holds the terminal's lock when asked to, then the caller,
//! which starts pi-ask with a lifeline and is killed by the test (SIGKILL, as an OOM kill or
//! `kill -9` of pi), and after it all a second run on the same terminal.

use crate::common::pty::{Options, Session, TIMEOUT};
use serde_json::{json, Value};
use std::path::Path;
use std::time::{Duration, Instant};

/// The driver (see the module notes). Its one argument is a JSON plan:
/// `ask` (pi-ask's arguments after the binary), `lifeline` (`pipe`, `socket`, `grandchild`:
/// a pipe whose write end a grandchild keeps open too; absent: pi-ask is started without a
/// caller in between), `holder` (`foreground`, `background`, `orphan`: a `flock` on the
/// terminal's device in the driver's process group, in a group of its own, or in a group whose
/// leader is gone), `stop_holder`, `stdout_pipe` (pi-ask's stdout a pipe only the caller
/// reads), `raw` (the terminal in raw mode first, as a holder leaves it), `fifo` (a FIFO made
/// first), `read_fifo` (the caller holds that FIFO open for reading, as pi its result's), `job`
/// (the caller is a foreground job of its own, as under a shell, and once the test writes the
/// file `leave` it gives the terminal back to the driver's group and exits normally, with
/// `job_modes`: after setting modes of its own, as a shell's line editor does), `then` (a second pi-ask's arguments, run once the first and its caller are gone and
/// the test wrote the file `go`), `direct` (the driver is the caller itself, as pi started from
/// a shell: no subreaper, nothing after), `kill_flock` (the `flock` of a `foreground` or
/// `background` holder killed and reaped at once: its command keeps the lock, and
/// `/proc/locks` names a pid that is gone), `unshare` (pi-ask run in a pid namespace of its
/// own, where the holder is not seen), `modes` (the terminal's modes written to `modes.before`
/// before pi-ask starts and to `modes.after` once it ended, without a lifeline).
/// It writes `pi-ask.pid`, `caller.pid`, `holder.pid`, `grandchild.pid`, `exit.PID` (the exit
/// code of each process it or the caller reaped) and `then.code`, each file whole at once.
const DRIVER: &str = r#"
import ctypes, json, os, signal, socket, subprocess, sys, termios, time, tty

plan = json.loads(sys.argv[1])
binary = sys.argv[2]
def note(name, value):
    with open(name + '.tmp', 'w') as f:
        f.write(str(value))
    os.rename(name + '.tmp', name)
def wait_for(name):
    while not os.path.exists(name):
        time.sleep(0.01)
# Ctrl+C in cooked mode reaches the whole foreground group: the driver goes on.
signal.signal(signal.SIGINT, lambda *a: None)
direct = plan.get('direct')
if not direct:
    ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
if plan.get('raw'):
    tty.setraw(0)
device = os.ttyname(0)
holder = plan.get('holder')
lock = ['flock', '-x', device, 'sh', '-c',
        'echo $$ > holder.child; echo $PPID > holder.tmp; mv holder.tmp holder.pid; exec sleep 30']
if plan.get('fifo'):
    os.mkfifo(plan['fifo'])
if holder == 'foreground':
    held = subprocess.Popen(lock)
elif holder == 'background':
    held = subprocess.Popen(lock, process_group=0)
elif holder == 'orphan':
    # Its group's leader (sh) exits at once: the holder is the caller's orphan.
    subprocess.run(['sh', '-c', '"$@" &', 'sh'] + lock, process_group=0)
if holder:
    wait_for('holder.pid')
    if plan.get('stop_holder'):
        os.kill(int(open('holder.pid').read()), signal.SIGSTOP)
        time.sleep(0.1)
    if plan.get('kill_flock'):
        held.kill()
        held.wait()
ask = [binary] + plan['ask']
if plan.get('unshare'):
    ask = ['unshare', '-p', '-f', '--mount-proc'] + ask
if plan.get('modes'):
    note('modes.before', termios.tcgetattr(0))
lifeline = plan.get('lifeline')
if lifeline:
    if direct or os.fork() == 0:
        keep = []
        if lifeline == 'socket':
            ours, theirs = socket.socketpair()
            fd = ours.fileno()
            keep.append(theirs)
        else:
            fd, w = os.pipe()
            keep.append(w)
        out = subprocess.PIPE if plan.get('stdout_pipe') else None
        if plan.get('read_fifo'):
            reader = os.open(plan['fifo'], os.O_RDONLY | os.O_NONBLOCK)
        job = plan.get('job')
        if job:
            shell = os.getpgrp()
            signal.signal(signal.SIGTTOU, signal.SIG_IGN)
            os.setpgid(0, 0)
            os.tcsetpgrp(0, os.getpid())
            signal.signal(signal.SIGTTOU, signal.SIG_DFL)
        child = subprocess.Popen(ask + ['--lifeline-fd', str(fd)], pass_fds=(fd,), stdout=out)
        os.close(fd)
        if lifeline == 'grandchild':
            grandchild = subprocess.Popen(['sleep', '30'], pass_fds=(w,))
            note('grandchild.pid', grandchild.pid)
        note('pi-ask.pid', child.pid)
        note('caller.pid', os.getpid())
        if job:
            wait_for('leave')
            os.tcsetpgrp(0, shell)
            if plan.get('job_modes'):
                signal.signal(signal.SIGTTOU, signal.SIG_IGN)
                modes = tty.tcgetattr(0)
                modes[3] |= tty.ISIG
                tty.tcsetattr(0, tty.TCSANOW, modes)
            os._exit(9)
        note('exit.%d' % child.pid, child.wait())
        os._exit(0)
else:
    note('pi-ask.pid', subprocess.Popen(ask).pid)
    note('caller.pid', os.getpid())
asked = int(open('pi-ask.pid').read()) if os.path.exists('pi-ask.pid') else None
while True:
    try:
        pid, status = os.wait()
    except ChildProcessError:
        break
    if plan.get('modes') and pid == asked:
        note('modes.after', termios.tcgetattr(0))
    if not os.path.exists('exit.%d' % pid):
        note('exit.%d' % pid, os.waitstatus_to_exitcode(status))
    if asked is None and os.path.exists('pi-ask.pid'):
        asked = int(open('pi-ask.pid').read())
    if asked is not None and os.path.exists('exit.%d' % asked):
        # The first run is over: the holder and a grandchild go too.
        for name in ('holder.pid', 'holder.child', 'grandchild.pid'):
            if os.path.exists(name):
                try:
                    os.kill(int(open(name).read()), signal.SIGKILL)
                except ProcessLookupError:
                    pass
if plan.get('then'):
    wait_for('go')
    note('then.code', subprocess.run([binary] + plan['then']).returncode)
"#;

/// One question.
const FIRST: &str = r#"{"questions": [{"id": "db", "prompt": "Which database?", "options": [
    {"value": "pg", "label": "PostgreSQL"}, {"value": "lite", "label": "SQLite"}]}]}"#;

/// Another, for the second run on the same terminal.
const SECOND: &str = r#"{"questions": [{"id": "go", "prompt": "Second run here?", "options": [
    {"value": "yes", "label": "Yes"}, {"value": "no", "label": "No"}]}]}"#;

/// Starts [`DRIVER`] with `plan` in a pty, in a folder holding `first.json` and `second.json`;
/// `env` for pi-ask (the placement, `PI_ASK_TERMINAL_WAIT`).
fn drive(plan: Value, env: &[(&str, &str)]) -> Session {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("first.json"), FIRST).unwrap();
    std::fs::write(dir.path().join("second.json"), SECOND).unwrap();
    std::fs::write(dir.path().join("driver.py"), DRIVER).unwrap();
    let mut cmd = std::process::Command::new("python3");
    cmd.arg("driver.py")
        .arg(plan.to_string())
        .arg(env!("CARGO_BIN_EXE_pi-ask"));
    let opts = Options {
        cwd: Some(dir.path().to_path_buf()),
        env: env
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        ..Options::default()
    };
    let output = dir.path().join("first-result.json");
    Session::spawn_command(cmd, dir, output, opts)
}

/// Waits for the file `name` in `dir`, written whole by the driver; its text.
fn wait_for_file(dir: &Path, name: &str) -> String {
    let path = dir.join(name);
    let start = Instant::now();
    while !path.exists() {
        assert!(start.elapsed() < TIMEOUT, "{name} never came");
        std::thread::sleep(Duration::from_millis(10));
    }
    std::fs::read_to_string(path).unwrap()
}

fn pid_in(dir: &Path, name: &str) -> i32 {
    wait_for_file(dir, name).trim().parse().unwrap()
}

fn result_in(dir: &Path, name: &str) -> Value {
    serde_json::from_str(&wait_for_file(dir, name)).unwrap()
}

/// Whether process `pid` still exists (a zombie not yet reaped counts as gone).
fn alive(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit_once(')')
            .is_some_and(|(_, rest)| !rest.trim_start().starts_with('Z'))
    })
}

/// Kills the caller with SIGKILL and waits for pi-ask's exit; its exit code and how long it
/// took after the kill.
fn kill_the_caller(s: &Session) -> (i32, Duration) {
    let caller = pid_in(s.dir(), "caller.pid");
    let asked = pid_in(s.dir(), "pi-ask.pid");
    crate::common::wait_until_handled(asked as u32, libc::SIGUSR2);
    let killed = Instant::now();
    crate::common::send_signal(caller, libc::SIGKILL);
    let code = wait_for_file(s.dir(), &format!("exit.{asked}"));
    let took = killed.elapsed();
    assert!(!alive(asked), "pi-ask {asked} is still there");
    (code.trim().parse().unwrap(), took)
}

/// The second run asks at once on the same terminal (no lock left behind) and is answered.
fn the_second_run_asks_at_once(s: &mut Session) {
    std::fs::write(s.dir().join("go"), "").unwrap();
    let start = Instant::now();
    s.wait_all(&["Second run here?", "Yes"]);
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "the second run waited"
    );
    s.send("\r");
    s.wait_for("Review answers");
    s.send("\r");
    assert_eq!(wait_for_file(s.dir(), "then.code"), "0");
    let second = result_in(s.dir(), "second-result.json");
    assert_eq!(second["details"]["answers"]["go"]["values"], json!(["yes"]));
}

fn the_caller_ended(result: &Value, caller: i32) {
    assert_eq!(result["details"]["cancelled"], json!(true));
    assert_eq!(result["details"]["error"]["code"], json!("terminal_lost"));
    let message = result["details"]["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with(&format!("the caller (pid {caller}) ended")),
        "{message}"
    );
}

fn ask(result: &str) -> Vec<String> {
    ["first.json", "--output", result]
        .iter()
        .map(|s| s.to_string())
        .collect()
}

fn then() -> Vec<String> {
    ask("second-result.json")
        .into_iter()
        .map(|a| a.replace("first.json", "second.json"))
        .collect()
}

#[test]
fn the_caller_killed_while_asking_ends_the_run_as_a_lost_terminal() {
    // Inline, a pipe: the modes back, nothing drawn over the shell (no farewell).
    let mut s = drive(
        json!({"ask": ask("first-result.json"), "lifeline": "pipe", "then": then()}),
        &[("PI_ASK_SCREEN", "inline")],
    );
    s.wait_all(&["Which database?", "SQLite"]);
    assert!(!s.cooked());
    let caller = pid_in(s.dir(), "caller.pid");
    let (code, took) = kill_the_caller(&s);
    assert_eq!(code, 1);
    assert!(took < Duration::from_secs(2), "{took:?}");
    let result = result_in(s.dir(), "first-result.json");
    the_caller_ended(&result, caller);
    assert_eq!(result["details"]["questions"][0]["id"], json!("db"));
    assert!(s.cooked(), "the terminal was left in raw mode");
    let screen = s.screen();
    assert!(
        !screen.contains("not sent"),
        "a farewell was drawn:\n{screen}"
    );
    the_second_run_asks_at_once(&mut s);
}

#[test]
fn a_caller_killed_in_a_shell_leaves_no_run_and_no_lock_behind() {
    // As pi killed with SIGKILL from an interactive shell: the shell takes its terminal back,
    // pi-ask (in the dead caller's process group) ends without a word, and the next run in
    // the same terminal asks at once.
    let mut s = Session::spawn_shell(
        FIRST,
        Options {
            env: vec![("PI_ASK_SCREEN".into(), "inline".into())],
            ..Options::default()
        },
    );
    std::fs::write(s.dir().join("driver.py"), DRIVER).unwrap();
    std::fs::write(s.dir().join("second.json"), SECOND).unwrap();
    s.wait_for(crate::common::pty::SHELL_PROMPT);
    let plan = json!({"ask": ["payload.json", "--output", "result.json"], "lifeline": "pipe",
                      "direct": true});
    s.send(&format!("python3 driver.py '{plan}' pi-ask\r"));
    s.wait_all(&["Which database?", "SQLite"]);
    let caller = pid_in(s.dir(), "caller.pid");
    let asked = pid_in(s.dir(), "pi-ask.pid");
    crate::common::wait_until_handled(asked as u32, libc::SIGUSR2);
    crate::common::send_signal(caller, libc::SIGKILL);
    the_caller_ended(&result_in(s.dir(), "result.json"), caller);
    let start = Instant::now();
    while alive(asked) {
        assert!(
            start.elapsed() < Duration::from_secs(2),
            "pi-ask {asked} is still there"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    s.wait_for("Killed");
    s.send("pi-ask second.json --output second-result.json\r");
    let start = Instant::now();
    s.wait_all(&["Second run here?", "Yes"]);
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "the second run waited"
    );
    s.send("\r");
    s.wait_for("Review answers");
    s.send("\r");
    let second = result_in(s.dir(), "second-result.json");
    assert_eq!(second["details"]["answers"]["go"]["values"], json!(["yes"]));
    s.send("exit\r");
    s.finish();
}

#[test]
fn a_socket_lifeline_ends_the_full_screen_run() {
    // Node's spawn gives a socket pair for stdio[3] = 'pipe'.
    let mut s = drive(
        json!({"ask": ask("first-result.json"), "lifeline": "socket", "then": then()}),
        &[],
    );
    s.wait_all(&["Which database?", "SQLite"]);
    assert!(s.alternate_screen());
    let caller = pid_in(s.dir(), "caller.pid");
    let (code, took) = kill_the_caller(&s);
    assert_eq!(code, 1);
    assert!(took < Duration::from_secs(2), "{took:?}");
    the_caller_ended(&result_in(s.dir(), "first-result.json"), caller);
    assert!(s.cooked(), "the terminal was left in raw mode");
    assert!(!s.alternate_screen());
    the_second_run_asks_at_once(&mut s);
}

#[test]
fn the_parents_death_ends_the_run_when_a_grandchild_keeps_the_lifeline_open() {
    // Only the kernel's parent-death signal tells: the pipe's write end lives on.
    let mut s = drive(
        json!({"ask": ask("first-result.json"), "lifeline": "grandchild", "then": then()}),
        &[("PI_ASK_SCREEN", "inline")],
    );
    s.wait_all(&["Which database?", "SQLite"]);
    let grandchild = pid_in(s.dir(), "grandchild.pid");
    let caller = pid_in(s.dir(), "caller.pid");
    let (code, took) = kill_the_caller(&s);
    assert_eq!(code, 1);
    assert!(took < Duration::from_secs(2), "{took:?}");
    // The driver ends the grandchild once the run is over and then notes its exit: alive,
    // or its exit noted within a moment (a zombie between the two counts as neither; a
    // loaded machine may take seconds to schedule the driver).
    let noted = Instant::now();
    while !(alive(grandchild) || s.dir().join(format!("exit.{grandchild}")).exists())
        && noted.elapsed() < Duration::from_secs(15)
    {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(alive(grandchild) || s.dir().join(format!("exit.{grandchild}")).exists());
    let result = result_in(s.dir(), "first-result.json");
    assert_eq!(
        result["details"]["error"]["message"],
        json!(format!("the caller (pid {caller}) ended"))
    );
    the_caller_ended(&result, caller);
    assert!(s.cooked(), "the terminal was left in raw mode");
    the_second_run_asks_at_once(&mut s);
}

#[test]
fn the_caller_killed_while_plain_mode_or_the_dialogs_ask() {
    for front_end in ["--plain", "--dialogs"] {
        let mut args = ask("first-result.json");
        args.push(front_end.to_string());
        let mut s = drive(
            json!({"ask": args, "lifeline": "pipe", "then": then()}),
            &[],
        );
        // Plain mode's numbered lines; the dialogs' first request (JSON on stdout).
        s.expect("Which database?");
        let caller = pid_in(s.dir(), "caller.pid");
        let (code, took) = kill_the_caller(&s);
        assert_eq!(code, 1, "{front_end}");
        assert!(took < Duration::from_secs(2), "{front_end}: {took:?}");
        the_caller_ended(&result_in(s.dir(), "first-result.json"), caller);
        assert!(s.cooked(), "{front_end}: the terminal was left in raw mode");
        the_second_run_asks_at_once(&mut s);
    }
}

#[test]
fn a_result_for_a_dead_callers_stdout_pipe_ends_the_run_at_once() {
    // stdout is a pipe to the caller, gone with it (EPIPE): nobody is left to tell, exit 1
    // as the lifeline's end says, nothing on stderr.
    the_results_reader_gone_with_the_caller(
        json!({"ask": ["first.json"], "lifeline": "pipe", "stdout_pipe": true}),
    );
}

/// Runs [`DRIVER`]'s `plan` inline and kills the caller, who was the result's reader: exit 1
/// within 2 s, the terminal's modes back, nothing on stderr.
fn the_results_reader_gone_with_the_caller(plan: Value) {
    let mut s = drive(plan, &[("PI_ASK_SCREEN", "inline")]);
    s.wait_all(&["Which database?", "SQLite"]);
    let (code, took) = kill_the_caller(&s);
    assert_eq!(code, 1);
    assert!(took < Duration::from_secs(2), "{took:?}");
    assert!(s.cooked(), "the terminal was left in raw mode");
    assert_eq!(s.stderr(), "");
    s.finish();
}

#[test]
fn a_result_for_a_dead_callers_fifo_ends_the_run_without_a_word() {
    // As under pi: the result goes to a FIFO the caller reads (`--output /dev/fd/4`), and the
    // caller is killed: its reader is gone with it, no signal came. Exit 1, nothing on stderr.
    the_results_reader_gone_with_the_caller(
        json!({"ask": ["first.json", "--output", "result.fifo"], "lifeline": "socket",
               "fifo": "result.fifo", "read_fifo": true}),
    );
}

#[test]
fn the_caller_killed_while_the_payload_is_read_from_a_fifo() {
    let mut s = drive(
        json!({"ask": ["payload.fifo", "--output", "first-result.json"], "lifeline": "pipe",
               "fifo": "payload.fifo"}),
        &[],
    );
    let caller = pid_in(s.dir(), "caller.pid");
    let asked = pid_in(s.dir(), "pi-ask.pid");
    // Blocked opening the FIFO (nobody writes it).
    let start = Instant::now();
    while !std::fs::read_to_string(format!("/proc/{asked}/wchan"))
        .is_ok_and(|w| w == "wait_for_partner")
    {
        assert!(start.elapsed() < TIMEOUT, "pi-ask never waited on the FIFO");
        std::thread::sleep(Duration::from_millis(10));
    }
    let (code, _) = kill_the_caller(&s);
    assert_eq!(code, 1);
    let result = result_in(s.dir(), "first-result.json");
    the_caller_ended(&result, caller);
    assert_eq!(result["details"]["questions"], json!([]));
    s.finish();
}

#[test]
fn the_caller_killed_while_waiting_for_another_runs_terminal() {
    let mut s = drive(
        json!({"ask": ask("first-result.json"), "lifeline": "pipe", "holder": "foreground",
               "then": then()}),
        &[("PI_ASK_TERMINAL_WAIT", "30")],
    );
    let caller = pid_in(s.dir(), "caller.pid");
    let asked = pid_in(s.dir(), "pi-ask.pid");
    // Waiting: the holder is asking, so nothing is said.
    std::thread::sleep(Duration::from_millis(500));
    assert!(alive(asked));
    let (code, took) = kill_the_caller(&s);
    assert_eq!(code, 1);
    assert!(took < Duration::from_secs(2), "{took:?}");
    the_caller_ended(&result_in(s.dir(), "first-result.json"), caller);
    assert!(!s.output_text().contains("held by"));
    the_second_run_asks_at_once(&mut s);
}

#[test]
fn esc_ends_the_wait_for_an_orphaned_holder() {
    // The terminal in raw mode, as an orphan leaves it: Esc is read at once.
    let mut s = drive(
        json!({"ask": ask("first-result.json"), "holder": "orphan", "raw": true}),
        &[],
    );
    let holder = pid_in(s.dir(), "holder.pid");
    let asked = pid_in(s.dir(), "pi-ask.pid");
    s.expect(&format!(
        "pi-ask: this terminal is held by pid {holder} (flock), orphaned: its caller is gone. \
         Waiting up to 10 seconds; Esc or Ctrl+C stops waiting."
    ));
    s.send("\x1b");
    assert_eq!(wait_for_file(s.dir(), &format!("exit.{asked}")), "1");
    let result = result_in(s.dir(), "first-result.json");
    assert_eq!(result["details"]["cancelled"], json!(true));
    assert_eq!(result["details"].get("error"), None);
    assert_eq!(
        result["content"][0]["text"],
        json!("User cancelled the ask flow")
    );
    s.finish();
}

#[test]
fn ctrl_c_ends_the_wait_for_a_stopped_holder() {
    let mut s = drive(
        json!({"ask": ask("first-result.json"), "holder": "background", "stop_holder": true,
               "raw": true}),
        &[],
    );
    let holder = pid_in(s.dir(), "holder.pid");
    let asked = pid_in(s.dir(), "pi-ask.pid");
    s.expect(&format!(
        "pi-ask: this terminal is held by pid {holder} (flock), stopped. Waiting up to 10 \
         seconds;"
    ));
    s.send("\x03");
    assert_eq!(wait_for_file(s.dir(), &format!("exit.{asked}")), "130");
    let result = result_in(s.dir(), "first-result.json");
    assert_eq!(result["details"]["cancelled"], json!(true));
    assert_eq!(result["details"].get("error"), None);
    s.finish();
}

#[test]
fn ctrl_c_in_cooked_mode_ends_the_wait_as_sigint() {
    let mut s = drive(
        json!({"ask": ask("first-result.json"), "holder": "background", "modes": true}),
        &[],
    );
    let asked = pid_in(s.dir(), "pi-ask.pid");
    s.expect("pi-ask: this terminal is held by pid ");
    crate::common::wait_until_handled(asked as u32, libc::SIGINT);
    s.send("\x03");
    assert_eq!(wait_for_file(s.dir(), &format!("exit.{asked}")), "130");
    // The signal's ending put back the modes the wait found.
    the_modes_are_as_before(&s);
    s.finish();
}

#[test]
fn a_holder_that_asks_is_waited_for_past_the_bound_then_the_run_asks() {
    // A person answers the holder: its time does not count towards PI_ASK_TERMINAL_WAIT.
    let mut s = drive(
        json!({"ask": ask("first-result.json"), "holder": "foreground"}),
        &[("PI_ASK_TERMINAL_WAIT", "1")],
    );
    let asked = pid_in(s.dir(), "pi-ask.pid");
    std::thread::sleep(Duration::from_millis(2500));
    assert!(alive(asked), "the run gave up while the holder asked");
    // The holder asks: nothing was written over its screen.
    assert!(!s.output_text().contains("held by"), "{}", s.screen());
    // The holder ends (flock and the command holding its descriptor): the run asks.
    for name in ["holder.child", "holder.pid"] {
        // The holder may end with its child before its own kill comes: ESRCH is fine.
        let _ = nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(pid_in(s.dir(), name)),
            nix::sys::signal::Signal::SIGKILL,
        );
    }
    s.wait_all(&["Which database?", "SQLite"]);
    s.send("\x1b");
    assert_eq!(wait_for_file(s.dir(), &format!("exit.{asked}")), "1");
    let result = result_in(s.dir(), "first-result.json");
    assert_eq!(result["details"]["cancelled"], json!(true));
    assert_eq!(result["details"].get("error"), None);
    s.finish();
}

#[test]
fn the_wait_for_a_holder_that_does_not_ask_gives_up_after_its_bound() {
    let mut s = drive(
        json!({"ask": ask("first-result.json"), "holder": "background", "modes": true}),
        &[("PI_ASK_TERMINAL_WAIT", "1")],
    );
    let holder = pid_in(s.dir(), "holder.pid");
    let asked = pid_in(s.dir(), "pi-ask.pid");
    let start = Instant::now();
    assert_eq!(wait_for_file(s.dir(), &format!("exit.{asked}")), "1");
    assert!(start.elapsed() < Duration::from_secs(3));
    let result = result_in(s.dir(), "first-result.json");
    assert_eq!(result["details"]["error"]["code"], json!("terminal_busy"));
    assert_eq!(
        result["details"]["error"]["message"],
        json!(format!(
            "the terminal is busy: another run (pid {holder} (flock)) held it for 1 second \
             without asking, the longest a run waits"
        ))
    );
    assert_eq!(result["details"]["questions"][0]["id"], json!("db"));
    the_modes_are_as_before(&s);
    s.finish();
}

/// The terminal's modes after pi-ask ended are those before it started (plan `modes`).
fn the_modes_are_as_before(s: &Session) {
    assert_eq!(
        wait_for_file(s.dir(), "modes.after"),
        wait_for_file(s.dir(), "modes.before")
    );
}

#[test]
fn esc_alone_ends_the_wait_in_a_cooked_terminal_and_the_modes_are_put_back() {
    // A cooked terminal, as a shell leaves it: the wait reads Esc alone, echoes nothing.
    let mut s = drive(
        json!({"ask": ask("first-result.json"), "holder": "background", "modes": true}),
        &[],
    );
    let asked = pid_in(s.dir(), "pi-ask.pid");
    s.expect("Waiting up to 10 seconds; Esc or Ctrl+C stops waiting.");
    s.send("typed");
    let sent = Instant::now();
    s.send("\x1b");
    assert_eq!(wait_for_file(s.dir(), &format!("exit.{asked}")), "1");
    assert!(
        sent.elapsed() < Duration::from_secs(3),
        "{:?}",
        sent.elapsed()
    );
    let result = result_in(s.dir(), "first-result.json");
    assert_eq!(result["details"]["cancelled"], json!(true));
    assert_eq!(result["details"].get("error"), None);
    assert!(!s.output_text().contains("typed"), "{}", s.output_text());
    assert!(!s.output_text().contains("^["), "{}", s.output_text());
    the_modes_are_as_before(&s);
    s.finish();
}

#[test]
fn a_signal_ends_the_wait_with_the_modes_put_back() {
    let mut s = drive(
        json!({"ask": ask("first-result.json"), "holder": "background", "modes": true}),
        &[],
    );
    let asked = pid_in(s.dir(), "pi-ask.pid");
    s.expect("Waiting up to 10 seconds; Esc or Ctrl+C stops waiting.");
    crate::common::send_signal(asked, libc::SIGTERM);
    assert_eq!(wait_for_file(s.dir(), &format!("exit.{asked}")), "143");
    the_modes_are_as_before(&s);
    s.finish();
}

#[test]
fn a_terminal_wait_of_0_waits_for_a_holder_that_asks_only() {
    // 0: no wait for a holder that does not ask.
    let mut s = drive(
        json!({"ask": ask("first-result.json"), "holder": "background"}),
        &[("PI_ASK_TERMINAL_WAIT", "0")],
    );
    let holder = pid_in(s.dir(), "holder.pid");
    let asked = pid_in(s.dir(), "pi-ask.pid");
    assert_eq!(wait_for_file(s.dir(), &format!("exit.{asked}")), "1");
    let result = result_in(s.dir(), "first-result.json");
    assert_eq!(
        result["details"]["error"]["message"],
        json!(format!(
            "the terminal is busy: another run (pid {holder} (flock)) held it for 0 seconds \
             without asking, the longest a run waits"
        ))
    );
    s.finish();
    // A holder that asks is waited for all the same.
    let mut s = drive(
        json!({"ask": ask("first-result.json"), "holder": "foreground"}),
        &[("PI_ASK_TERMINAL_WAIT", "0")],
    );
    let asked = pid_in(s.dir(), "pi-ask.pid");
    std::thread::sleep(Duration::from_millis(1500));
    assert!(alive(asked), "the run gave up while the holder asked");
    for name in ["holder.child", "holder.pid"] {
        // The holder may end with its child before its own kill comes: ESRCH is fine.
        let _ = nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(pid_in(s.dir(), name)),
            nix::sys::signal::Signal::SIGKILL,
        );
    }
    s.wait_all(&["Which database?", "SQLite"]);
    s.send("\x1b");
    assert_eq!(wait_for_file(s.dir(), &format!("exit.{asked}")), "1");
    s.finish();
}

#[test]
fn a_holder_whose_flock_is_gone_is_named_by_its_descriptor() {
    // `flock DEV cmd`, the flock killed: cmd keeps the lock; /proc/locks names the dead pid.
    let mut s = drive(
        json!({"ask": ask("first-result.json"), "holder": "background", "kill_flock": true}),
        &[],
    );
    let child = pid_in(s.dir(), "holder.child");
    let asked = pid_in(s.dir(), "pi-ask.pid");
    s.expect(&format!(
        "pi-ask: this terminal is held by pid {child} (sleep), orphaned: its caller is gone. \
         Waiting up to 10 seconds; Esc or Ctrl+C stops waiting."
    ));
    s.send("\x1b");
    assert_eq!(wait_for_file(s.dir(), &format!("exit.{asked}")), "1");
    let result = result_in(s.dir(), "first-result.json");
    assert_eq!(result["details"].get("error"), None);
    s.finish();
}

#[test]
fn a_holder_that_cannot_be_seen_counts_as_one_that_does_not_ask() {
    // In a pid namespace of its own the run does not see the holder (a stopped one): it
    // writes nothing (the holder might ask) but gives up after PI_ASK_TERMINAL_WAIT.
    let can = std::process::Command::new("unshare")
        .args(["-p", "-f", "--mount-proc", "true"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !can {
        eprintln!("skipped: unshare -p cannot be used here");
        return;
    }
    let mut s = drive(
        json!({"ask": ask("first-result.json"), "holder": "background", "stop_holder": true,
               "unshare": true, "modes": true}),
        &[("PI_ASK_TERMINAL_WAIT", "1")],
    );
    let asked = pid_in(s.dir(), "pi-ask.pid");
    let start = Instant::now();
    assert_eq!(wait_for_file(s.dir(), &format!("exit.{asked}")), "1");
    assert!(
        start.elapsed() < Duration::from_secs(4),
        "{:?}",
        start.elapsed()
    );
    let result = result_in(s.dir(), "first-result.json");
    assert_eq!(result["details"]["error"]["code"], json!("terminal_busy"));
    assert_eq!(
        result["details"]["error"]["message"],
        json!(
            "the terminal is busy: another process held it for 1 second, and pi-ask cannot \
             tell which or whether it asks (it is not seen in /proc), the longest a run waits"
        )
    );
    assert!(!s.output_text().contains("held by"), "{}", s.output_text());
    the_modes_are_as_before(&s);
    s.finish();
}

#[test]
fn a_lifeline_descriptor_that_cannot_be_used_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("q.json"), FIRST).unwrap();
    let run = |args: &[&str], env: &[(&str, &str)]| {
        let mut cmd = assert_cmd::Command::cargo_bin("pi-ask").unwrap();
        cmd.current_dir(dir.path())
            .arg("q.json")
            .args(args)
            .arg("--no-input");
        for (k, v) in env {
            cmd.env(k, v);
        }
        let out = cmd.output().unwrap();
        (
            out.status.code(),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    assert_eq!(
        run(&["--lifeline-fd", "47"], &[]),
        (
            Some(2),
            String::new(),
            "pi-ask: --lifeline-fd 47 (PI_ASK_LIFELINE_FD) cannot be used: descriptor 47: it is \
             not open\n"
                .into()
        )
    );
    assert_eq!(
        run(&[], &[("PI_ASK_LIFELINE_FD", "1")]),
        (
            Some(2),
            String::new(),
            "pi-ask: --lifeline-fd 1 (PI_ASK_LIFELINE_FD) cannot be used: descriptor 1: \
             descriptors 0, 1 and 2 are the standard streams\n"
                .into()
        )
    );
    assert_eq!(
        run(&[], &[("PI_ASK_LIFELINE_FD", "three")]),
        (
            Some(2),
            String::new(),
            "pi-ask: PI_ASK_LIFELINE_FD=\"three\" cannot be used: it is a descriptor number\n"
                .into()
        )
    );
    assert_eq!(
        run(&[], &[("PI_ASK_TERMINAL_WAIT", "soon")]).0,
        Some(2),
        "PI_ASK_TERMINAL_WAIT is read as --timeout is"
    );
    // Empty is unset, as for PI_ASK_TIMEOUT: the run goes on without a lifeline.
    let (code, out, err) = run(&[], &[("PI_ASK_LIFELINE_FD", ""), ("PI_ASK_TIMEOUT", "")]);
    assert_eq!(code, Some(3), "{err}");
    assert!(out.contains("\"code\": \"no_ui\""), "{out}");
    assert_eq!(run(&[], &[("PI_ASK_LIFELINE_FD", " ")]).0, Some(3));
    // The flag wins over the variable.
    let (code, out, _) = run(&["--lifeline-fd", "47"], &[("PI_ASK_LIFELINE_FD", "three")]);
    assert_eq!((code, out), (Some(2), String::new()));
}

/// A caller that floods its lifeline: a socket pair, written as fast as it goes for 2 s while
/// pi-ask waits for its payload on stdin; prints pi-ask's CPU time over those 2 s (utime +
/// stime, in seconds), then closes its end and prints pi-ask's exit code.
const FLOODER: &str = r#"
import os, socket, subprocess, sys, threading, time
ours, theirs = socket.socketpair()
r, w = os.pipe()
child = subprocess.Popen([sys.argv[1], '-', '--lifeline-fd', str(ours.fileno())],
                         pass_fds=(ours.fileno(),), stdin=r, stdout=subprocess.PIPE)
ours.close(); os.close(r)
stop = False
def flood():
    chunk = b'x' * 65536
    while not stop:
        try:
            theirs.send(chunk)
        except OSError:
            break
threading.Thread(target=flood, daemon=True).start()
def cpu():
    fields = open('/proc/%d/stat' % child.pid).read().rsplit(')', 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')
time.sleep(0.3)
start = cpu()
time.sleep(2)
print(cpu() - start, flush=True)
stop = True
theirs.shutdown(socket.SHUT_RDWR)
theirs.close()
print(child.wait(timeout=10))
"#;

#[test]
fn a_flooded_lifeline_costs_little_cpu() {
    let out = std::process::Command::new("python3")
        .args(["-c", FLOODER, env!("CARGO_BIN_EXE_pi-ask")])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines.len(),
        2,
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let cpu: f64 = lines[0].parse().unwrap();
    // Read without pauses, the flood cost about 1.7 s of CPU in 2 s.
    assert!(cpu < 0.4, "pi-ask used {cpu} s of CPU in 2 s of flood");
    // Its end is still told: the run ends as a lost terminal.
    assert_eq!(lines[1], "1");
}

#[test]
fn a_lifeline_that_is_a_standard_streams_pipe_is_refused() {
    // `(...; cat q.json; ...) | pi-ask - --lifeline-fd 3 3<&0`: both would read the payload's
    // pipe, and the lifeline ate it (the run ended as a lost terminal).
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("q.json"), FIRST).unwrap();
    let out = std::process::Command::new("sh")
        .current_dir(dir.path())
        .args([
            "-c",
            "(sleep 0.3; cat q.json; sleep 1) | \"$0\" - --no-input --lifeline-fd 3 3<&0",
            env!("CARGO_BIN_EXE_pi-ask"),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "");
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "pi-ask: --lifeline-fd 3 (PI_ASK_LIFELINE_FD) cannot be used: descriptor 3: it is the \
         same pipe, FIFO or socket as stdin (descriptor 0)\n"
    );
}

#[test]
fn a_lifeline_whose_end_pi_ask_would_hold_itself_is_refused() {
    // The payload's own pipe as the lifeline (`pi-ask /dev/fd/3 --lifeline-fd 3`): the
    // lifeline ate the payload and the run ended as a lost terminal, the caller alive.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("q.json"), FIRST).unwrap();
    let refused = |script: &str| {
        let out = std::process::Command::new("bash")
            .current_dir(dir.path())
            .args(["-c", script, env!("CARGO_BIN_EXE_pi-ask")])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{script}");
        assert_eq!(String::from_utf8(out.stdout).unwrap(), "");
        String::from_utf8(out.stderr).unwrap()
    };
    assert_eq!(
        refused("exec 3< <(sleep 0.3; cat q.json; sleep 1); \"$0\" /dev/fd/3 --no-input --lifeline-fd 3"),
        "pi-ask: --lifeline-fd 3 (PI_ASK_LIFELINE_FD) cannot be used: descriptor 3: it is the \
         payload's own pipe or FIFO: the lifeline would eat the payload\n"
    );
    // The pipe's write end inherited too (a caller that did not make it close-on-exec): its
    // end of file would never come.
    assert_eq!(
        refused(
            "mkfifo f; exec 5<>f; exec 3<f; exec 4>f; exec 5<&-; \
             \"$0\" q.json --no-input --lifeline-fd 3"
        ),
        "pi-ask: --lifeline-fd 3 (PI_ASK_LIFELINE_FD) cannot be used: descriptor 3: pi-ask \
         holds its write end itself (descriptor 4), so its end would never come: pass the \
         write end close-on-exec\n"
    );
}

/// Starts a run in a caller that is a foreground job of its own ([`DRIVER`]'s `job`), lets the
/// caller give the terminal back and exit normally (with `job_modes`: after setting modes of
/// its own), and waits for pi-ask's exit (1, the caller's end).
fn a_job_that_exits_normally(job_modes: bool) -> Session {
    let mut s = drive(
        json!({"ask": ask("first-result.json"), "lifeline": "pipe", "job": true,
               "job_modes": job_modes}),
        &[("PI_ASK_SCREEN", "inline")],
    );
    s.wait_all(&["Which database?", "SQLite"]);
    assert!(!s.cooked());
    let caller = pid_in(s.dir(), "caller.pid");
    let asked = pid_in(s.dir(), "pi-ask.pid");
    crate::common::wait_until_handled(asked as u32, libc::SIGUSR2);
    std::fs::write(s.dir().join("leave"), "").unwrap();
    assert_eq!(wait_for_file(s.dir(), &format!("exit.{asked}")), "1");
    the_caller_ended(&result_in(s.dir(), "first-result.json"), caller);
    s
}

#[test]
fn a_caller_that_exits_normally_leaves_no_raw_modes_in_the_shell() {
    // The shell took its terminal back before pi-ask's end: pi-ask is in the background, and
    // the modes are still its raw modes, which a shell such as bash would keep.
    let mut s = a_job_that_exits_normally(false);
    assert!(s.cooked(), "the terminal was left in raw mode");
    s.finish();
}

#[test]
fn modes_the_shell_set_after_a_caller_exited_stay() {
    let mut s = a_job_that_exits_normally(true);
    assert!(!s.cooked(), "pi-ask put its modes back over the shell's");
    s.finish();
}

#[test]
fn the_answer_channel_is_gone_when_the_caller_is_killed() {
    // docs/elsewhere.md: the socket and its folder go with every ending, the lifeline's too.
    let mut args = ask("first-result.json");
    args.push("--print-answer-socket".into());
    let mut s = drive(json!({"ask": args, "lifeline": "pipe"}), &[]);
    s.wait_all(&["Which database?", "SQLite"]);
    let stderr = s.dir().join("stderr.txt");
    let start = Instant::now();
    let socket = loop {
        let text = std::fs::read_to_string(&stderr).unwrap_or_default();
        if let Some(line) = text.lines().find(|l| l.starts_with("{\"answerSocket\"")) {
            let v: Value = serde_json::from_str(line).unwrap();
            break std::path::PathBuf::from(v["answerSocket"].as_str().unwrap());
        }
        assert!(start.elapsed() < TIMEOUT, "no answer channel said: {text}");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(socket.exists());
    let (code, _) = kill_the_caller(&s);
    assert_eq!(code, 1);
    assert!(!socket.exists(), "{} is still there", socket.display());
    assert!(!socket.parent().unwrap().exists());
}

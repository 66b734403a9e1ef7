//! What a run starts or creates that must not outlive it: the processes it starts (the
//! external editor, the notification command) and the files it is writing (the external
//! editor's temporary file, the result's temporary file). Every ending of the run ends them
//! ([`clean_up`]): the normal end (src/run.rs), a signal's ending and the exit after a
//! deadline (src/terminal.rs, through [`exit`]), a panic (src/main.rs).
//!
//! - [`spawn_shell`]: `/bin/sh -c` started with `posix_spawn`, given only the descriptors
//!   meant for it (0, 1 and 2: the terminal or `/dev/null`); every other descriptor open in
//!   pi-ask, those it inherited from its caller too, is closed in the child. The signal mask
//!   is emptied and SIGPIPE set back to its default, as `std::process::Command` does.
//! - [`Child::try_wait`], [`Child::end`], [`end_children`]: a child is reaped only here, under
//!   one lock, so a process id that is signalled is never one the system gave to another
//!   process. Ending one is SIGTERM (an editor puts the terminal back), a grace of
//!   [`GRACE`], then SIGKILL, each bounded: to its process group when it has one of its own,
//!   else to it and the processes under it (the external editor stays in pi-ask's process
//!   group, the terminal's foreground one, so that it can read the terminal and Ctrl+Z stops
//!   it with the run). pi-ask is the subreaper of what its children leave (Linux), so the
//!   end of the run also ends what they left in its process group (`ed`, which outlives the
//!   `sh -c` that a Ctrl+C ended); children it had before it started one (a shell's
//!   `> >(tee log)` before `exec pi-ask`) are not its to end.
//! - A child started in a process group of its own (the notification command) is ended with
//!   its whole group, also once the child itself is gone ([`Child::end`], [`end_children`]):
//!   what it left in the background (`sh -c 'paplay bell.oga &'`) stays in its group, and,
//!   pi-ask being their subreaper, under pi-ask ([`members`]); a group is signalled only while
//!   a process under pi-ask is in it, so never another user's or another run's group.
//! - [`on_exit`]: a file to remove and a line to say on stderr should the run end before the
//!   work it guards is [`OnExit::settle`]d (a result half written: docs/exit-codes.md
//!   "Signals").

use nix::sys::signal::{SigSet, Signal};
use nix::sys::wait::{waitpid, WaitPidFlag, WaitStatus};
use nix::unistd::Pid;
use std::ffi::{CString, OsStr};
use std::fs::File;
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long a child has, after SIGTERM, to end on its own before SIGKILL; and how long pi-ask
/// then waits for it to be gone.
pub const GRACE: Duration = Duration::from_millis(500);

/// How often a wait for a child looks again.
const POLL: Duration = Duration::from_millis(10);

/// A started child process, to be waited for ([`Child::try_wait`]) or ended ([`Child::end`]).
#[derive(Debug)]
pub struct Child {
    pid: Pid,
    /// It leads a process group of its own (its id is `pid`).
    own_group: bool,
}

/// A child still running (not reaped yet).
#[derive(Debug, Clone, Copy)]
struct Running {
    pid: Pid,
    /// It leads a process group of its own: signalled as a group.
    own_group: bool,
}

static CHILDREN: Mutex<Vec<Running>> = Mutex::new(Vec::new());
/// The process groups of the children started in a group of their own, kept once the child
/// is reaped, until nothing of the group is left ([`members`]).
static GROUPS: Mutex<Vec<Pid>> = Mutex::new(Vec::new());
/// Set by [`end_children`]: the run is ending, no child starts any more.
static ENDED: AtomicBool = AtomicBool::new(false);

fn children() -> std::sync::MutexGuard<'static, Vec<Running>> {
    CHILDREN.lock().unwrap_or_else(|e| e.into_inner())
}

fn groups() -> std::sync::MutexGuard<'static, Vec<Pid>> {
    GROUPS.lock().unwrap_or_else(|e| e.into_inner())
}

/// What a child's standard stream is.
#[derive(Debug)]
pub enum Stream<'a> {
    /// This open file (a `/dev/tty` descriptor).
    File(&'a File),
    /// `/dev/null`.
    Null,
}

/// Starts `/bin/sh -c script sh args...` with `env` added to pi-ask's environment, `streams`
/// as its stdin, stdout and stderr and no other descriptor, in a process group of its own
/// when `own_group` (else in pi-ask's), and registers it so that every ending of the run ends
/// it ([`end_children`]).
///
/// Errors: the shell could not be started, an argument holds a NUL byte, or the run is
/// ending ([`end_children`] was called: what starts then would outlive it).
pub fn spawn_shell(
    script: &str,
    args: &[&OsStr],
    env: &[(&str, &str)],
    streams: [Stream<'_>; 3],
    own_group: bool,
) -> io::Result<Child> {
    use nix::fcntl::OFlag;
    use nix::spawn::{posix_spawn, PosixSpawnAttr, PosixSpawnFileActions, PosixSpawnFlags};
    use nix::sys::stat::Mode;
    let c = |bytes: &[u8]| {
        CString::new(bytes).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))
    };
    let mut argv = vec![c(b"sh")?, c(b"-c")?, c(script.as_bytes())?, c(b"sh")?];
    for arg in args {
        argv.push(c(arg.as_bytes())?);
    }
    let mut envp = Vec::new();
    for (key, value) in std::env::vars_os() {
        if env.iter().any(|(k, _)| OsStr::new(k) == key) {
            continue;
        }
        let mut pair = key.as_bytes().to_vec();
        pair.push(b'=');
        pair.extend_from_slice(value.as_bytes());
        envp.push(c(&pair)?);
    }
    for (key, value) in env {
        envp.push(c(format!("{key}={value}").as_bytes())?);
    }
    let mut actions = PosixSpawnFileActions::init()?;
    for (fd, stream) in (0..).zip(&streams) {
        match stream {
            Stream::File(file) => actions.add_dup2(file.as_raw_fd(), fd)?,
            Stream::Null => actions.add_open(fd, "/dev/null", OFlag::O_RDWR, Mode::empty())?,
        }
    }
    // Every other descriptor closed.
    for fd in open_descriptors().into_iter().filter(|&fd| fd > 2) {
        actions.add_close(fd)?;
    }
    let mut attr = PosixSpawnAttr::init()?;
    let mut flags =
        PosixSpawnFlags::POSIX_SPAWN_SETSIGMASK | PosixSpawnFlags::POSIX_SPAWN_SETSIGDEF;
    if own_group {
        flags |= PosixSpawnFlags::POSIX_SPAWN_SETPGROUP;
        attr.set_pgroup(Pid::from_raw(0))?;
    }
    attr.set_flags(flags)?;
    attr.set_sigmask(&SigSet::empty())?;
    let mut defaults = SigSet::empty();
    defaults.add(Signal::SIGPIPE);
    attr.set_sigdefault(&defaults)?;
    // What the child leaves running when it ends (an editor's helper) is pi-ask's to end.
    note_inherited();
    #[cfg(target_os = "linux")]
    let _ = nix::sys::prctl::set_child_subreaper(true);
    let mut running = children();
    // The run is ending: a child started now would outlive it.
    if ENDED.load(Ordering::SeqCst) {
        return Err(io::Error::other("the run is ending"));
    }
    let pid = posix_spawn(c"/bin/sh", &actions, &attr, &argv, &envp)?;
    running.push(Running { pid, own_group });
    if own_group {
        groups().push(pid);
    }
    Ok(Child { pid, own_group })
}

/// The descriptors open in this process: those `/dev/fd` lists (`/proc/self/fd` on Linux;
/// 0 to 1023 when it cannot be read) that are still open once the listing is done (its own
/// descriptor is closed by then, and macOS's `posix_spawn` fails on a close of one that is
/// not open).
fn open_descriptors() -> Vec<i32> {
    let listed: Vec<i32> = match std::fs::read_dir("/dev/fd") {
        Ok(dir) => dir
            .flatten()
            .filter_map(|e| e.file_name().to_str()?.parse().ok())
            .collect(),
        Err(_) => (0..1024).collect(),
    };
    listed
        .into_iter()
        .filter(|fd| std::fs::metadata(format!("/dev/fd/{fd}")).is_ok())
        .collect()
}

impl Child {
    /// Whether it ended, without waiting: `Some(true)` when it exited with status 0,
    /// `Some(false)` when it failed, was killed or was ended by [`end_children`]; `None`
    /// while it runs.
    pub fn try_wait(&self) -> Option<bool> {
        let mut running = children();
        let Some(at) = running.iter().position(|r| r.pid == self.pid) else {
            return Some(false);
        };
        match waitpid(self.pid, Some(WaitPidFlag::WNOHANG)) {
            Ok(WaitStatus::StillAlive) => None,
            Ok(WaitStatus::Exited(_, code)) => {
                running.remove(at);
                Some(code == 0)
            }
            Ok(WaitStatus::Signaled(..)) | Err(_) => {
                running.remove(at);
                Some(false)
            }
            // Stopped or continued: still there.
            Ok(_) => None,
        }
    }

    /// Whether anything of its process group still runs (it, or what it left there), when
    /// it has a group of its own ([`members`]); else whether it runs.
    pub fn group_running(&self) -> bool {
        if !self.own_group {
            return children().iter().any(|r| r.pid == self.pid);
        }
        !members(self.pid).is_empty()
    }

    /// Ends it (SIGTERM, then SIGKILL after [`GRACE`]) and waits for it, a bounded while;
    /// with a process group of its own, the whole group, even once it is gone itself
    /// ([`end_group`]).
    pub fn end(self) {
        let running = children().iter().find(|r| r.pid == self.pid).copied();
        if let Some(running) = running {
            end_one(running);
        }
        if self.own_group {
            end_group(self.pid);
        }
    }
}

/// The processes still running in the run's process group `group` (one of [`GROUPS`]): those
/// under pi-ask (its children and theirs, orphans it took as their subreaper included) whose
/// group it is. Zombies are left out, and those of pi-ask's that it did not register are
/// reaped on the way (an orphan of the group that ended). A group of which no process is left
/// is forgotten: its id may be given to another. Empty without procfs.
fn members(group: Pid) -> Vec<Pid> {
    let me = nix::unistd::getpid();
    // Under the lock: a registered child is reaped only by `try_wait` and `reaped`.
    let running = children();
    let procs = processes();
    for p in procs
        .iter()
        .filter(|p| p.zombie && p.ppid == me && p.pgrp == group)
    {
        if !running.iter().any(|r| r.pid == p.pid) {
            let _ = waitpid(p.pid, Some(WaitPidFlag::WNOHANG));
        }
    }
    let mut found: Vec<Pid> = under(me, &procs)
        .into_iter()
        .filter(|&pid| procs.iter().any(|p| p.pid == pid && p.pgrp == group))
        .collect();
    // A registered leader not reaped yet is still the group's.
    if let Some(r) = running.iter().find(|r| r.pid == group) {
        if !found.contains(&r.pid) {
            found.push(r.pid);
        }
    }
    drop(running);
    if found.is_empty() {
        groups().retain(|&g| g != group);
    }
    found
}

/// Sends `sig` to the run's process group `group` while a process of it is still under
/// pi-ask ([`members`]): a group's id is not given to another group while one of its
/// processes lives. Returns whether it had any.
fn signal_group(group: Pid, sig: Signal) -> bool {
    if members(group).is_empty() {
        return false;
    }
    let _ = nix::sys::signal::killpg(group, sig);
    true
}

/// Ends what is left of the run's process group `group`: SIGTERM, a grace of [`GRACE`], then
/// SIGKILL, each wait bounded.
fn end_group(group: Pid) {
    for sig in [Signal::SIGTERM, Signal::SIGKILL] {
        if !signal_group(group, sig) {
            return;
        }
        let deadline = Instant::now() + GRACE;
        while !members(group).is_empty() && Instant::now() < deadline {
            std::thread::sleep(POLL);
        }
    }
}

/// Ends every child still running ([`Child::end`]), all at once, what they left in
/// pi-ask's process group (what the external editor started, its orphans included: pi-ask is
/// their subreaper; [`strays`]) and what is left of the process groups of their own
/// ([`members`]), their children gone or not: the run is ending.
pub fn end_children() {
    let registered: Vec<Running> = {
        let running = children();
        ENDED.store(true, Ordering::SeqCst);
        running.clone()
    };
    let strays = strays(&registered);
    let own_groups: Vec<Pid> = groups().clone();
    if registered.is_empty() && strays.is_empty() && own_groups.is_empty() {
        return;
    }
    let all_gone = || {
        registered.iter().all(|r| reaped(r.pid))
            && strays.iter().all(|&p| stray_gone(p))
            && own_groups.iter().all(|&g| members(g).is_empty())
    };
    for sig in [Signal::SIGTERM, Signal::SIGKILL] {
        for r in &registered {
            signal(*r, sig);
        }
        for &group in &own_groups {
            signal_group(group, sig);
        }
        for &pid in &strays {
            if !stray_gone(pid) {
                let _ = nix::sys::signal::kill(pid, sig);
            }
        }
        let deadline = Instant::now() + GRACE;
        while !all_gone() && Instant::now() < deadline {
            std::thread::sleep(POLL);
        }
    }
}

/// [`Child::end`] for one.
fn end_one(r: Running) {
    for sig in [Signal::SIGTERM, Signal::SIGKILL] {
        signal(r, sig);
        let deadline = Instant::now() + GRACE;
        while !reaped(r.pid) && Instant::now() < deadline {
            std::thread::sleep(POLL);
        }
        if reaped(r.pid) {
            return;
        }
    }
}

/// Sends `sig` to a running child: to its process group when it has its own, else to it and
/// the processes under it. Under the lock, the child not reaped yet: its id is still its own.
fn signal(r: Running, sig: Signal) {
    use nix::sys::signal::{kill, killpg};
    let running = children();
    if !running.iter().any(|x| x.pid == r.pid) {
        return;
    }
    if r.own_group {
        let _ = killpg(r.pid, sig);
        return;
    }
    for pid in under(r.pid, &processes()) {
        let _ = kill(pid, sig);
    }
    let _ = kill(r.pid, sig);
}

/// Whether the child `pid` is gone: reaped now (under the lock) or before.
fn reaped(pid: Pid) -> bool {
    let mut running = children();
    let Some(at) = running.iter().position(|r| r.pid == pid) else {
        return true;
    };
    match waitpid(pid, Some(WaitPidFlag::WNOHANG)) {
        Ok(WaitStatus::Exited(..)) | Ok(WaitStatus::Signaled(..)) | Err(_) => {
            running.remove(at);
            true
        }
        Ok(_) => false,
    }
}

/// A process as `/proc/<pid>/stat` gives it.
#[derive(Debug, Clone, Copy)]
struct Proc {
    pid: Pid,
    ppid: Pid,
    pgrp: Pid,
    /// A zombie: ended, not reaped yet.
    zombie: bool,
}

/// Reads a `/proc/<pid>/stat` line: after the command name in parentheses (which may hold
/// anything, a `)` too), state, ppid, pgrp.
#[cfg(test)]
fn parse_stat(pid: Pid, line: &str) -> Option<Proc> {
    proc_of(pid, crate::proc_stat::Stat::parse(line)?)
}

/// `pid`'s [`Proc`] from its [`crate::proc_stat::Stat`].
fn proc_of(pid: Pid, stat: crate::proc_stat::Stat) -> Option<Proc> {
    Some(Proc {
        pid,
        ppid: Pid::from_raw(i32::try_from(stat.ppid).ok()?),
        pgrp: Pid::from_raw(i32::try_from(stat.pgrp).ok()?),
        zombie: stat.state == 'Z',
    })
}

/// The process `pid`, from procfs; `None` when it is gone or there is no procfs.
fn process(pid: Pid) -> Option<Proc> {
    proc_of(pid, crate::proc_stat::Stat::of(pid)?)
}

/// Every process procfs lists (at most 65536 are looked at); none without procfs.
fn processes() -> Vec<Proc> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .take(65536)
        .filter_map(|p| process(Pid::from_raw(p)))
        .collect()
}

/// The processes under `root` in `procs` (its children, theirs, ...), zombies left out.
fn under(root: Pid, procs: &[Proc]) -> Vec<Pid> {
    let mut found = vec![root];
    let mut at = 0;
    while at < found.len() {
        let parent = found[at];
        for p in procs {
            if p.ppid == parent && !p.zombie && !found.contains(&p.pid) {
                found.push(p.pid);
            }
        }
        at += 1;
    }
    found.remove(0);
    found
}

/// The children pi-ask had before it started one of its own: started by what ran before it in
/// the same process (a shell's `> >(tee log)`, then `exec pi-ask`); never ended by it.
static INHERITED: Mutex<Option<Vec<Pid>>> = Mutex::new(None);

/// Notes pi-ask's children now as [`INHERITED`], once (before its first child starts).
fn note_inherited() {
    let mut inherited = INHERITED.lock().unwrap_or_else(|e| e.into_inner());
    if inherited.is_none() {
        let me = nix::unistd::getpid();
        let procs = processes();
        let children = procs.iter().filter(|p| p.ppid == me).map(|p| p.pid);
        *inherited = Some(children.collect());
    }
}

/// What the run's children left in pi-ask's process group, but for the `registered` children
/// themselves: the processes under them, and those under pi-ask that it neither started nor
/// inherited (orphans it took as their subreaper), with the processes under those.
fn strays(registered: &[Running]) -> Vec<Pid> {
    let me = nix::unistd::getpid();
    let group = nix::unistd::getpgrp();
    // Nothing started: nothing left.
    let Some(inherited) = INHERITED.lock().unwrap_or_else(|e| e.into_inner()).clone() else {
        return Vec::new();
    };
    let procs = processes();
    let roots = procs.iter().filter(|p| {
        p.ppid == me
            && !p.zombie
            && !inherited.contains(&p.pid)
            && !registered.iter().any(|r| r.pid == p.pid)
    });
    let mut found: Vec<Pid> = Vec::new();
    for root in roots.map(|p| p.pid) {
        found.push(root);
        found.extend(under(root, &procs));
    }
    for r in registered.iter().filter(|r| !r.own_group) {
        found.extend(under(r.pid, &procs));
    }
    found.sort();
    found.dedup();
    found
        .into_iter()
        .filter(|&pid| procs.iter().any(|p| p.pid == pid && p.pgrp == group))
        .collect()
}

/// Whether a stray process is gone (a zombie of pi-ask's, it is reaped).
fn stray_gone(pid: Pid) -> bool {
    match process(pid) {
        None => true,
        Some(p) if p.zombie => {
            if p.ppid == nix::unistd::getpid() {
                let _ = waitpid(pid, Some(WaitPidFlag::WNOHANG));
            }
            true
        }
        Some(_) => false,
    }
}

/// What the exit does for a piece of work not settled yet ([`on_exit`]).
struct Pending {
    id: u64,
    /// A file to remove.
    remove: Option<PathBuf>,
    /// `remove` is a folder of this run's own, removed with all in it.
    tree: bool,
    /// The file's device and inode: removed only while the path is still that file.
    same: Option<(u64, u64)>,
    /// A line to say on stderr.
    say: Option<String>,
}

static PENDING: Mutex<Vec<Pending>> = Mutex::new(Vec::new());
/// Set once [`clean_up`] ran: nothing is settled after it.
static CLEANED: AtomicBool = AtomicBool::new(false);
static NEXT: AtomicU64 = AtomicU64::new(0);

fn pending() -> std::sync::MutexGuard<'static, Vec<Pending>> {
    PENDING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Should the run end before the returned guard is settled or dropped, the exit removes
/// `remove` (a file, or a folder emptied by the entries before it) and says `say` on stderr (already in the terminal's words, as `terminal::say`
/// writes it).
pub fn on_exit(remove: Option<PathBuf>, say: Option<String>) -> OnExit {
    let id = NEXT.fetch_add(1, Ordering::SeqCst);
    pending().push(Pending {
        id,
        remove,
        say,
        same: None,
        tree: false,
    });
    OnExit { id }
}

/// [`on_exit`] for a file or folder this run made at `path`, whose device and inode are
/// `same`: removed only while `path` is still that file (never another's put in its place).
pub fn on_exit_if_same(path: PathBuf, same: (u64, u64)) -> OnExit {
    let id = NEXT.fetch_add(1, Ordering::SeqCst);
    pending().push(Pending {
        id,
        remove: Some(path),
        say: None,
        same: Some(same),
        tree: false,
    });
    OnExit { id }
}

/// [`on_exit_if_same`] for a folder this run made for a child (the external editor's), removed
/// with all the child left in it (vim's swap file): its device and inode `same`, never
/// another's folder put in its place; links in it are removed, never followed.
pub fn on_exit_tree(path: PathBuf, same: (u64, u64)) -> OnExit {
    let id = NEXT.fetch_add(1, Ordering::SeqCst);
    pending().push(Pending {
        id,
        remove: Some(path),
        say: None,
        same: Some(same),
        tree: true,
    });
    OnExit { id }
}

/// A piece of work the exit knows of ([`on_exit`]); dropping it tells the exit to leave it.
#[derive(Debug)]
#[must_use = "dropping it at once tells the exit to do nothing"]
pub struct OnExit {
    id: u64,
}

impl OnExit {
    /// Runs `last` (a rename that completes the work) unless the exit has begun, which then
    /// removed the file and said why; `None` then. The exit waits for `last` to return.
    pub fn settle<T>(self, last: impl FnOnce() -> T) -> Option<T> {
        let mut pending = pending();
        if CLEANED.load(Ordering::SeqCst) {
            return None;
        }
        let done = last();
        pending.retain(|p| p.id != self.id);
        Some(done)
    }
}

impl Drop for OnExit {
    fn drop(&mut self) {
        pending().retain(|p| p.id != self.id);
    }
}

/// Ends every child still running ([`end_children`]), removes every file not settled and says
/// what it was for ([`on_exit`]). Called by every ending of the run; never fails.
pub fn clean_up() {
    end_children();
    let mut pending = pending();
    CLEANED.store(true, Ordering::SeqCst);
    for p in pending.drain(..) {
        if let Some(path) = p.remove.as_ref().filter(|path| still_same(path, p.same)) {
            if p.tree {
                let _ = std::fs::remove_dir_all(path);
            } else {
                // A folder (the answer channel's, emptied by its socket's entry before it).
                let _ = std::fs::remove_file(path).or_else(|_| std::fs::remove_dir(path));
            }
        }
        if let Some(line) = &p.say {
            crate::terminal::say(line);
        }
    }
}

/// Whether `path` is still the file of device and inode `same` (`None`: any file).
pub fn still_same(path: &Path, same: Option<(u64, u64)>) -> bool {
    use std::os::unix::fs::MetadataExt;
    same.is_none_or(|(dev, ino)| {
        std::fs::symlink_metadata(path).is_ok_and(|m| m.dev() == dev && m.ino() == ino)
    })
}

/// [`clean_up`], then exits the process with `code`.
pub fn exit(code: i32) -> ! {
    clean_up();
    std::process::exit(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stat_line_gives_the_state_the_parent_and_the_group() {
        // A command name may hold spaces and parentheses: the fields come after the last `)`.
        let p = parse_stat(Pid::from_raw(42), "42 (vi (x) y) Z 7 9 9 34816").unwrap();
        assert_eq!((p.ppid.as_raw(), p.pgrp.as_raw(), p.zombie), (7, 9, true));
        assert!(parse_stat(Pid::from_raw(42), "42 (vi) S").is_none());
    }

    #[test]
    fn the_processes_under_one_are_found_through_their_parents() {
        let p = |pid, ppid, zombie| Proc {
            pid: Pid::from_raw(pid),
            ppid: Pid::from_raw(ppid),
            pgrp: Pid::from_raw(1),
            zombie,
        };
        let procs = [
            p(2, 1, false),
            p(3, 2, false),
            p(4, 3, false),
            p(5, 1, false),
            p(6, 2, true),
        ];
        assert_eq!(
            under(Pid::from_raw(2), &procs),
            [Pid::from_raw(3), Pid::from_raw(4)]
        );
    }

    #[test]
    fn a_child_gets_only_the_descriptors_meant_for_it_and_ends_when_told() {
        // An open descriptor of this process (close-on-exec or not, it is not passed on).
        let _open = File::open("/dev/null").unwrap();
        let child = spawn_shell(
            "exec sleep 30",
            &[],
            &[],
            [Stream::Null, Stream::Null, Stream::Null],
            true,
        )
        .unwrap();
        let read = |what: &str| std::fs::read_to_string(format!("/proc/{}/{what}", child.pid));
        let start = Instant::now();
        // Once it sleeps, the loader's files are closed.
        while !read("wchan").is_ok_and(|w| w.contains("nanosleep")) {
            assert!(start.elapsed() < Duration::from_secs(10));
            std::thread::sleep(POLL);
        }
        let mut fds: Vec<i32> = std::fs::read_dir(format!("/proc/{}/fd", child.pid))
            .unwrap()
            .flatten()
            .filter_map(|e| e.file_name().to_str()?.parse().ok())
            .collect();
        fds.sort();
        assert_eq!(fds, [0, 1, 2]);
        assert_eq!(child.try_wait(), None);
        let started = Instant::now();
        let pid = child.pid;
        child.end();
        assert!(started.elapsed() < GRACE);
        assert!(process(pid).is_none(), "reaped");
    }
}

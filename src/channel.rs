//! The answer channel (docs/elsewhere.md): while a front end asks, a Unix socket in a folder
//! only the user can enter takes one answer request at a time from the user's own processes,
//! so the questions can be answered from elsewhere (a phone through a bridge, another shell,
//! pi's events). Never a network port.
//!
//! The folder is made only in a base folder no other user can write to ([`base_allowed`]),
//! and removed only while it is still the one made. The listener runs on a thread of its own:
//! it accepts each connection at once and serves it on a thread of its own (at most
//! [`AT_ONCE`]): checks the peer's user ([`peer_allowed`]), reads one document of at most the
//! answers file's size within [`SEND_TIME`], and puts it, once the slot is free, in the one
//! slot the front end takes it from ([`Channel::take`], which drops a request whose client
//! has gone), waking the front end's wait, all within [`CONNECTION_TIME`]. A questions request
//! (`"action": "questions"`, [`crate::contract::questions_request`]) it answers itself with the
//! normalized questions, which are never written to a file. The front end decides on it in its own
//! loop (so the person at the terminal and the channel race fairly: one event at a time) and
//! replies ([`Request::reply`]); a request still waiting when the questions end is told
//! [`Status::AlreadyAnswered`]. The socket and its folder are removed when the channel is
//! dropped, and by every other ending of the run (`leftovers::on_exit`: signals, the
//! lifeline, a panic).

use crate::contract::Problem;
use serde::{Deserialize, Serialize};
use std::io::{self, Read, Write};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::SeqCst};
use std::sync::{mpsc, Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// The variable that gives the notification command the socket's path.
pub const SOCKET_ENV: &str = "ASK_ANSWER_SOCKET";
/// The variable that gives the notification command the questionnaire's id.
pub const ID_ENV: &str = "ASK_ANSWER_ID";
/// How long one connection may take: sending its document, and waiting for the verdict
/// (the questions take it at their next event; an external editor open holds them).
/// Counted from the connection's accept, which comes at once (connections are served side by
/// side, at most [`AT_ONCE`]).
pub const CONNECTION_TIME: Duration = Duration::from_secs(10);
/// How long a connection may take to send its whole request (to the end of its writing),
/// from its accept: one that sends nothing, or too slowly, is cut, so an idle local process
/// cannot hold the channel.
pub const SEND_TIME: Duration = Duration::from_secs(2);
/// How long `pi-ask answer` waits for the reply after it connects: longer than
/// [`CONNECTION_TIME`], so the channel always replies first, and a request is never taken once
/// its client has given up.
pub const CLIENT_WAIT: Duration = Duration::from_secs(12);
/// How many connections are served at once; one more is told [`Status::Busy`].
const AT_ONCE: usize = 8;
/// The socket's name in its folder.
const SOCKET_NAME: &str = "answer.sock";
/// What the transcript line names when the request gave no `from`.
pub const DEFAULT_FROM: &str = "the answer channel";

/// What the channel replies to a request: one JSON document, then the connection closes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(title = "pi-ask answer reply (the answer channel)")]
pub struct Reply {
    /// How the request went.
    pub status: Status,
    /// What went wrong, in words (every status but `ok` and `questions`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// `invalid`: every problem, as an answers file's (same codes and paths).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<Problem>,
    /// `questions`: the questionnaire's id, for the answer request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// `questions`: the payload's title, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// `questions`: the normalized questions, as `pi-ask validate --json` gives them (ids,
    /// labels, prompts, types, option values and labels).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub questions: Option<serde_json::Value>,
}

/// How an answer request went (a reply's `status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Taken: the questions ended with these answers.
    Ok,
    /// Not taken: the request has problems; the questions are still up, untouched.
    Invalid,
    /// Not taken: its `id` is another questionnaire's (an earlier ask).
    Stale,
    /// Not taken: the questions were answered already (at the terminal, or by another request).
    AlreadyAnswered,
    /// Not taken: the questions did not take it within [`CONNECTION_TIME`] (try again).
    Busy,
    /// The reply to a questions request (`"action": "questions"`): the questions waiting, with
    /// `id`, `title` and `questions`.
    Questions,
}

impl Reply {
    /// A reply of `status` saying `message`.
    pub fn new(status: Status, message: impl Into<String>) -> Reply {
        Reply {
            message: Some(message.into()),
            ..Reply::bare(status)
        }
    }

    fn bare(status: Status) -> Reply {
        Reply {
            status,
            message: None,
            problems: Vec::new(),
            id: None,
            title: None,
            questions: None,
        }
    }

    /// The reply to a request that was taken.
    pub fn ok() -> Reply {
        Reply::bare(Status::Ok)
    }

    /// The reply to a questions request: the questionnaire `id` and the normalized `payload`'s
    /// title and questions.
    pub fn questions(id: &str, payload: &crate::contract::Payload) -> Reply {
        Reply {
            id: Some(id.to_string()),
            title: payload.title.clone(),
            questions: serde_json::to_value(&payload.questions).ok(),
            ..Reply::bare(Status::Questions)
        }
    }

    /// The reply to a request with `problems`.
    pub fn invalid(problems: Vec<Problem>) -> Reply {
        let n = crate::contract::problem_count(&problems);
        Reply {
            message: Some(format!(
                "the answers have {n} problem{}: the questions are still up",
                if n == 1 { "" } else { "s" }
            )),
            problems,
            ..Reply::bare(Status::Invalid)
        }
    }

    /// The reply once the questions are answered.
    pub fn already_answered() -> Reply {
        Reply::new(
            Status::AlreadyAnswered,
            "the questions were answered already",
        )
    }
}

/// One document a client sent, for the front end to decide on.
#[derive(Debug)]
pub struct Request {
    /// The document, UTF-8 (invalid bytes replaced), at most the channel's limit.
    pub text: String,
    reply: mpsc::Sender<Reply>,
    /// Which request this is (the listener's count).
    number: u64,
    /// The client's connection, looked at for whether it is still there.
    client: Option<UnixStream>,
    /// The end of its [`CONNECTION_TIME`].
    until: Instant,
}

impl Request {
    /// Whether its client is gone (closed its end) or its time is over: such a request is
    /// never taken.
    fn gone(&self) -> bool {
        use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
        use std::os::fd::AsFd;
        if Instant::now() >= self.until {
            return true;
        }
        let Some(client) = &self.client else {
            return false;
        };
        let mut fds = [PollFd::new(client.as_fd(), PollFlags::empty())];
        matches!(poll(&mut fds, PollTimeout::ZERO), Ok(n) if n > 0)
            && fds[0]
                .revents()
                .is_some_and(|r| r.intersects(PollFlags::POLLHUP | PollFlags::POLLERR))
    }

    /// Sends the verdict to the client.
    pub fn reply(self, reply: Reply) {
        let _ = self.reply.send(reply);
    }
}

/// What the listener and the front end share.
struct Shared {
    slot: Mutex<Slot>,
    /// Told when the slot empties (taken, or given up) or the channel closes.
    taken: Condvar,
    /// The questionnaire's id.
    id: String,
    /// The reply to a questions request ([`Reply::questions`]).
    questions: Reply,
    /// How many connections are being served (from their accept to their reply sent).
    serving: AtomicUsize,
    /// The next request's number.
    next: AtomicU64,
}

#[derive(Default)]
struct Slot {
    /// The questions ended: nothing more is taken.
    closed: bool,
    pending: Option<Request>,
    /// Called when a request arrives: wakes the front end's wait.
    wake: Option<Box<dyn Fn() + Send>>,
    /// Why the questions cannot take a request now ([`Channel::hold`]), said in a `busy`
    /// reply.
    held: Option<&'static str>,
}

/// The open channel: the socket listened on, its folder, the questionnaire's id.
pub struct Channel {
    socket: PathBuf,
    dir: PathBuf,
    /// The channel's folder, open: the socket is removed through it, wherever it was moved.
    dir_fd: std::os::fd::OwnedFd,
    /// The folder's and the socket's device and inode: removed only while still theirs.
    dir_id: (u64, u64),
    socket_id: (u64, u64),
    shared: Arc<Shared>,
    /// The listener's thread: its last reply is waited for, a little, when the channel closes.
    thread: Option<std::thread::JoinHandle<()>>,
    _on_exit: [crate::leftovers::OnExit; 2],
}

/// How long closing the channel waits for the listener to send its last reply.
const LAST_REPLY: Duration = Duration::from_secs(1);

impl std::fmt::Debug for Channel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Channel")
            .field("socket", &self.socket)
            .field("id", &self.shared.id)
            .finish()
    }
}

/// Whether a folder whose owner is `uid` and mode `mode` may hold the channel's folder of a
/// process running as `me`, so that no other user can rename the channel's folder away and put
/// their own in its place: `$XDG_RUNTIME_DIR` (`runtime`) must be the user's and writable by
/// no one else; the temporary folder, and every folder above either, must be the user's or
/// root's and writable by no one else unless it is sticky (as `/tmp`: there only a file's
/// owner may rename it).
pub fn base_allowed(uid: u32, mode: u32, me: u32, runtime: bool) -> bool {
    let others_write = mode & 0o022 != 0;
    let sticky = mode & 0o1000 != 0;
    if runtime {
        uid == me && !others_write
    } else {
        (uid == me || uid == 0) && (!others_write || sticky)
    }
}

/// `dir` with its links resolved, when it and every folder above it pass [`base_allowed`]
/// (the folders above as the temporary folder).
///
/// Errors: why not, in words naming the folder.
fn usable_base(dir: &Path, runtime: bool) -> Result<PathBuf, String> {
    use std::os::unix::fs::MetadataExt;
    let me = nix::unistd::geteuid().as_raw();
    let shown = || crate::text::for_terminal(&dir.display().to_string()).into_owned();
    let real = std::fs::canonicalize(dir).map_err(|e| format!("{}: {e}", shown()))?;
    for (n, at) in real.ancestors().enumerate() {
        let meta = std::fs::symlink_metadata(at).map_err(|e| format!("{}: {e}", shown()))?;
        if n == 0 && !meta.is_dir() {
            return Err(format!("{} is not a folder", shown()));
        }
        if !base_allowed(meta.uid(), meta.mode(), me, runtime && n == 0) {
            return Err(format!(
                "{} could be written by another user (its owner or mode)",
                crate::text::for_terminal(&at.display().to_string())
            ));
        }
    }
    Ok(real)
}

/// The folder where pi-ask makes what no other user may swap or read (the answer channel's
/// folder, the external editor's file): `$XDG_RUNTIME_DIR` if usable, else the system's
/// temporary folder if usable (`usable_base`: no other user can write to it or a folder
/// above, unless sticky).
///
/// Errors: neither is, in words (`no safe folder: …`).
pub fn private_base() -> Result<PathBuf, String> {
    base_dir_of(std::env::var_os("XDG_RUNTIME_DIR"), &std::env::temp_dir())
}

/// The folder the channel's own folder is made in ([`usable_base`]): `runtime`
/// (`$XDG_RUNTIME_DIR`, when set and not empty) if usable, else `temp` (the system's
/// temporary folder) if usable.
///
/// Errors: neither is, in words.
fn base_dir_of(runtime: Option<std::ffi::OsString>, temp: &Path) -> Result<PathBuf, String> {
    let runtime = runtime.filter(|d| !d.is_empty()).map(PathBuf::from);
    let mut why = Vec::new();
    if let Some(dir) = runtime {
        match usable_base(&dir, true) {
            Ok(dir) => return Ok(dir),
            Err(e) => why.push(format!("XDG_RUNTIME_DIR: {e}")),
        }
    }
    match usable_base(temp, false) {
        Ok(dir) => Ok(dir),
        Err(e) => {
            why.push(format!("the temporary folder: {e}"));
            Err(format!("no safe folder: {}", why.join("; ")))
        }
    }
}

/// The id of the questionnaire a run asks (docs/elsewhere.md "The id"): a hash of the
/// normalized payload (`payload_json`), the process id and the time the run started, in hex:
/// another run, or the same questions asked again, has another.
pub fn questionnaire_id(payload_json: &str, pid: u32, started: std::time::SystemTime) -> String {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    payload_json.hash(&mut hasher);
    let nanos = started
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    nanos.hash(&mut hasher);
    pid.hash(&mut hasher);
    format!("{:016x}-{pid}", hasher.finish())
}

/// Whether a peer whose user is `peer_uid` may use the channel of a process running as
/// `own_uid`: only the same user.
pub fn peer_allowed(peer_uid: u32, own_uid: u32) -> bool {
    peer_uid == own_uid
}

/// The user of the process at the other end of `stream` (`SO_PEERCRED`; `LOCAL_PEERCRED` on
/// the BSDs and macOS).
///
/// Errors: the system would not tell.
pub fn peer_uid(stream: &UnixStream) -> io::Result<u32> {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        let cred = nix::sys::socket::getsockopt(stream, nix::sys::socket::sockopt::PeerCredentials)
            .map_err(io::Error::from)?;
        Ok(cred.uid())
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    {
        let (uid, _) = nix::unistd::getpeereid(stream).map_err(io::Error::from)?;
        Ok(uid.as_raw())
    }
}

impl Channel {
    /// Opens the channel of the questionnaire `id` asking the normalized `payload`: a folder
    /// `pi-ask-XXXXXX` of mode 0700 in the user's runtime folder (or the temporary one), the
    /// socket `answer.sock` in it (nothing else: the questions are served on the socket, never
    /// written to a file), and the listener's thread. A document is at most `limit` bytes.
    ///
    /// Errors: the folder, the socket or the thread could not be made.
    pub fn open(id: String, limit: u64, payload: &crate::contract::Payload) -> io::Result<Channel> {
        let base = private_base().map_err(|why| {
            io::Error::other(why.replacen("no safe folder", "no safe folder for its socket", 1))
        })?;
        Channel::open_in(&base, id, limit, payload)
    }

    /// [`Channel::open`] in the folder `base` (checked by the caller): the folder is made
    /// without following links, then checked through its descriptor (the user's, 0700, a
    /// folder).
    ///
    /// Errors: as [`Channel::open`].
    fn open_in(
        base: &Path,
        id: String,
        limit: u64,
        payload: &crate::contract::Payload,
    ) -> io::Result<Channel> {
        use nix::fcntl::{openat, OFlag};
        use nix::sys::stat::{fchmod, fstat, fstatat, Mode};
        use std::os::unix::fs::PermissionsExt;
        let me = nix::unistd::geteuid().as_raw();
        let base_fd = nix::fcntl::open(
            base,
            OFlag::O_DIRECTORY | OFlag::O_RDONLY | OFlag::O_CLOEXEC,
            Mode::empty(),
        )?;
        // mkdir makes a new folder or fails: it never follows a link put at the name.
        let dir = tempfile::Builder::new()
            .prefix("pi-ask-")
            .permissions(std::fs::Permissions::from_mode(0o700))
            .tempdir_in(base)?
            .keep();
        let name = dir.file_name().map(PathBuf::from).unwrap_or_default();
        let opened = openat(
            &base_fd,
            &name,
            OFlag::O_DIRECTORY | OFlag::O_NOFOLLOW | OFlag::O_RDONLY | OFlag::O_CLOEXEC,
            Mode::empty(),
        );
        let dir_fd = opened.inspect_err(|_| remove_if_same(&base_fd, &name, None, true))?;
        // Made 0700 whatever the umask, through the descriptor; checked, as the socket's only
        // guard besides the peer's user.
        let checked = fchmod(&dir_fd, Mode::from_bits_truncate(0o700))
            .and_then(|()| fstat(&dir_fd))
            .map_err(io::Error::from)
            .and_then(|st| {
                let ours = st.st_uid == me && st.st_mode & 0o7777 == 0o700;
                let folder = st.st_mode & nix::libc::S_IFMT == nix::libc::S_IFDIR;
                if ours && folder {
                    Ok(file_id(&st))
                } else {
                    Err(io::Error::other("its folder is not the user's alone"))
                }
            });
        let dir_id = match checked {
            Ok(id) => id,
            Err(e) => {
                remove_if_same(&base_fd, &name, None, true);
                return Err(e);
            }
        };
        let socket = dir.join(SOCKET_NAME);
        let listener = match UnixListener::bind(&socket) {
            Ok(l) => l,
            Err(e) => {
                remove_if_same(&base_fd, &name, Some(dir_id), true);
                return Err(e);
            }
        };
        let socket_id = fstatat(
            &dir_fd,
            SOCKET_NAME,
            nix::fcntl::AtFlags::AT_SYMLINK_NOFOLLOW,
        )
        .map(|st| file_id(&st))
        .unwrap_or_default();
        // Removed by every ending of the run while they are still these (the socket first,
        // then its folder), never another's put in their place.
        let on_exit = [
            crate::leftovers::on_exit_if_same(socket.clone(), socket_id),
            crate::leftovers::on_exit_if_same(dir.clone(), dir_id),
        ];
        let shared = Arc::new(Shared {
            slot: Mutex::new(Slot::default()),
            taken: Condvar::new(),
            questions: Reply::questions(&id, payload),
            id,
            serving: Default::default(),
            next: Default::default(),
        });
        let listening = Arc::clone(&shared);
        let started = std::thread::Builder::new()
            .name("answer channel".into())
            .spawn(move || {
                // Off the first frame's path: the socket already takes connections.
                sweep_stale(&base_fd, me);
                drop(base_fd);
                listen(listener, listening, me, limit)
            });
        let mut channel = Channel {
            socket,
            dir,
            dir_fd,
            dir_id,
            socket_id,
            shared,
            thread: None,
            _on_exit: on_exit,
        };
        channel.thread = Some(started?);
        Ok(channel)
    }

    /// The socket's path.
    pub fn socket(&self) -> &Path {
        &self.socket
    }

    /// The questionnaire's id.
    pub fn id(&self) -> &str {
        &self.shared.id
    }

    /// Calls `wake` whenever a request arrives (and at once when one waits already): the
    /// front end's wait ends, and it takes the request ([`Channel::take`]).
    pub fn on_arrival(&self, wake: impl Fn() + Send + 'static) {
        let mut slot = self.lock();
        if slot.pending.is_some() {
            wake();
        }
        slot.wake = Some(Box::new(wake));
    }

    /// The request waiting, if one does.
    /// A request whose client is gone, or whose time is over, is dropped instead (never
    /// taken: its client was, or will be, told it was not).
    pub fn take(&self) -> Option<Request> {
        let request = self.lock().pending.take();
        self.shared.taken.notify_all();
        request.filter(|r| !r.gone())
    }

    /// The questions cannot take a request while `why` is set (in words, a clause: `an
    /// external editor is open at the terminal`); `None`: they can again. A request they do
    /// not take within [`CONNECTION_TIME`] meanwhile is told why in its `busy` reply.
    pub fn hold(&self, why: Option<&'static str>) {
        self.lock().held = why;
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Slot> {
        self.shared.slot.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// What [`Channel::hold`] says while the terminal front end's external editor is open
/// (Ctrl+G).
pub const HELD_BY_EDITOR: &str =
    "an external editor is open at the terminal (the questions take answers again once it closes)";

impl Drop for Channel {
    /// The questions ended: a request still waiting is told they were answered, nothing more
    /// is taken, and the socket and its folder are removed.
    fn drop(&mut self) {
        let pending = {
            let mut slot = self.lock();
            slot.closed = true;
            slot.wake = None;
            slot.pending.take()
        };
        self.shared.taken.notify_all();
        if let Some(request) = pending {
            request.reply(Reply::already_answered());
        }
        // Only while they are still this run's: another's put in their place stays.
        remove_if_same(
            &self.dir_fd,
            Path::new(SOCKET_NAME),
            Some(self.socket_id),
            false,
        );
        if let (Some(base), Some(name)) = (self.dir.parent(), self.dir.file_name()) {
            if let Ok(base) = nix::fcntl::open(
                base,
                nix::fcntl::OFlag::O_DIRECTORY | nix::fcntl::OFlag::O_CLOEXEC,
                nix::sys::stat::Mode::empty(),
            ) {
                remove_if_same(&base, Path::new(name), Some(self.dir_id), true);
            }
        }
        // The reply to the request that ended the questions is on its way: the run's exit
        // must not cut it off (bounded: a client still sending is not waited for long).
        if let Some(thread) = self.thread.take() {
            let start = Instant::now();
            let serving = || self.shared.serving.load(SeqCst) > 0;
            while serving() && !thread.is_finished() && start.elapsed() < LAST_REPLY {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
    }
}

/// Removes `name` in the folder `dir` (a folder when `folder`) if it is still the file of
/// device and inode `same` (`None`: whatever it is), never following a link.
fn remove_if_same(
    dir: &impl std::os::fd::AsFd,
    name: &Path,
    same: Option<(u64, u64)>,
    folder: bool,
) {
    use nix::unistd::{unlinkat, UnlinkatFlags};
    let at = nix::sys::stat::fstatat(dir, name, nix::fcntl::AtFlags::AT_SYMLINK_NOFOLLOW);
    let still = at.is_ok_and(|st| same.is_none_or(|s| s == file_id(&st)));
    if still {
        let flag = if folder {
            UnlinkatFlags::RemoveDir
        } else {
            UnlinkatFlags::NoRemoveDir
        };
        let _ = unlinkat(dir, name, flag);
    }
}

/// How old a channel's folder must be before another run may take it for stale: 60 s.
const STALE_AFTER: Duration = Duration::from_secs(60);

/// At most this many entries of the base folder are looked at, and this many stale folders
/// removed, by one run ([`sweep_stale`]): 10,000 and 32.
const SWEEP_LOOKS: usize = 10_000;
const SWEEP_REMOVES: usize = 32;

/// Removes the channels a run killed with SIGKILL left in the base folder `base` (nothing else
/// can remove them): a folder `pi-ask-XXXXXX` of the user `me`, mode 0700, older than
/// [`STALE_AFTER`], holding only `answer.sock`, a socket no one listens on (a connection is
/// refused), or nothing at all (a run killed while it swept, or before its socket was made).
/// Anything else, or anything that changes meanwhile, is left; every step goes
/// through descriptors and never follows a link; bounded by [`SWEEP_LOOKS`] and
/// [`SWEEP_REMOVES`]. Errors are ignored: the sweep is a courtesy.
fn sweep_stale(base: &std::os::fd::OwnedFd, me: u32) {
    use nix::fcntl::{openat, AtFlags, OFlag};
    use nix::sys::stat::{fstatat, Mode};
    use std::os::fd::AsRawFd;
    use std::os::unix::ffi::OsStrExt;
    // The folders are listed through their descriptors (`/proc/self/fd/N`), never by a path
    // another could change.
    let by_fd =
        |fd: &std::os::fd::OwnedFd| PathBuf::from(format!("/proc/self/fd/{}", fd.as_raw_fd()));
    let Ok(listing) = std::fs::read_dir(by_fd(base)) else {
        return;
    };
    let now = std::time::SystemTime::now();
    let old_enough = |st: &nix::sys::stat::FileStat| {
        let mtime = std::time::UNIX_EPOCH + Duration::from_secs(st.st_mtime.max(0) as u64);
        now.duration_since(mtime)
            .is_ok_and(|age| age >= STALE_AFTER)
    };
    let names: Vec<std::ffi::OsString> = listing
        .take(SWEEP_LOOKS)
        .flatten()
        .map(|e| e.file_name())
        .filter(|n| {
            let n = n.as_bytes();
            n.len() == "pi-ask-".len() + 6 && n.starts_with(b"pi-ask-")
        })
        .collect();
    let mut removed = 0;
    for name in names {
        if removed >= SWEEP_REMOVES {
            break;
        }
        let name = Path::new(&name);
        let Ok(st) = fstatat(base, name, AtFlags::AT_SYMLINK_NOFOLLOW) else {
            continue;
        };
        let folder = st.st_mode & nix::libc::S_IFMT == nix::libc::S_IFDIR;
        if !folder || st.st_uid != me || st.st_mode & 0o7777 != 0o700 || !old_enough(&st) {
            continue;
        }
        let Ok(dir_fd) = openat(
            base,
            name,
            OFlag::O_DIRECTORY | OFlag::O_NOFOLLOW | OFlag::O_RDONLY | OFlag::O_CLOEXEC,
            Mode::empty(),
        ) else {
            continue;
        };
        let Ok(inner) = std::fs::read_dir(by_fd(&dir_fd)) else {
            continue;
        };
        let entries: Vec<Vec<u8>> = inner
            .take(4)
            .flatten()
            .map(|e| e.file_name().as_bytes().to_vec())
            .collect();
        if entries.is_empty() {
            // Left empty by a run killed while it swept, or between its folder and its
            // socket: nothing in it to check.
            remove_if_same(base, name, Some(file_id(&st)), true);
            removed += 1;
            continue;
        }
        if entries != [SOCKET_NAME.as_bytes()] {
            continue;
        }
        let Ok(sock) = fstatat(&dir_fd, SOCKET_NAME, AtFlags::AT_SYMLINK_NOFOLLOW) else {
            continue;
        };
        let is_socket = sock.st_mode & nix::libc::S_IFMT == nix::libc::S_IFSOCK;
        if !is_socket || sock.st_uid != me || !old_enough(&sock) {
            continue;
        }
        // No one listens: the run that made it is gone. (A run between bind and listen is
        // younger than STALE_AFTER.) Asked without waiting: a listener whose queue is full
        // (a stopped run) answers "try again", never holds the sweep, and is left.
        let path = by_fd(&dir_fd).join(SOCKET_NAME);
        if !nobody_listens(&path) {
            continue;
        }
        remove_if_same(&dir_fd, Path::new(SOCKET_NAME), Some(file_id(&sock)), false);
        remove_if_same(base, name, Some(file_id(&st)), true);
        removed += 1;
    }
}

/// Whether a connection to the socket at `path` is refused (no one listens on it), asked
/// without blocking: any other answer (taken, in progress, a full queue) is someone's.
fn nobody_listens(path: &Path) -> bool {
    use nix::sys::socket::{connect, socket, AddressFamily, SockFlag, SockType, UnixAddr};
    let Ok(fd) = socket(
        AddressFamily::Unix,
        SockType::Stream,
        SockFlag::SOCK_NONBLOCK | SockFlag::SOCK_CLOEXEC,
        None,
    ) else {
        return false;
    };
    let Ok(addr) = UnixAddr::new(path) else {
        return false;
    };
    use std::os::fd::AsRawFd;
    matches!(
        connect(fd.as_raw_fd(), &addr),
        Err(nix::errno::Errno::ECONNREFUSED)
    )
}

/// A file's device and inode (their types differ between systems).
#[allow(clippy::unnecessary_cast)]
fn file_id(st: &nix::sys::stat::FileStat) -> (u64, u64) {
    (st.st_dev as u64, st.st_ino as u64)
}

/// How often the listener looks whether the channel was closed.
const LOOK_AGAIN: Duration = Duration::from_millis(100);

/// The listener's thread: accepts each connection at once and serves it on a thread of its
/// own (at most [`AT_ONCE`]), until the channel closes.
fn listen(listener: UnixListener, shared: Arc<Shared>, own_uid: u32, limit: u64) {
    use std::os::fd::AsFd;
    let closed = || shared.slot.lock().unwrap_or_else(|e| e.into_inner()).closed;
    while !closed() {
        let mut fds = [nix::poll::PollFd::new(
            listener.as_fd(),
            nix::poll::PollFlags::POLLIN,
        )];
        let ready = nix::poll::poll(&mut fds, nix::poll::PollTimeout::from(100u16)).unwrap_or(0);
        if ready <= 0 {
            continue;
        }
        shared.serving.fetch_add(1, SeqCst);
        let Ok((mut stream, _)) = listener.accept() else {
            shared.serving.fetch_sub(1, SeqCst);
            std::thread::sleep(LOOK_AGAIN);
            continue;
        };
        if shared.serving.load(SeqCst) > AT_ONCE {
            let _ = stream.set_write_timeout(Some(LOOK_AGAIN));
            send_reply(&mut stream, &busy(Busy::AtOnce));
            shared.serving.fetch_sub(1, SeqCst);
            continue;
        }
        let serving = Arc::clone(&shared);
        let spawned = std::thread::Builder::new()
            .name("answer request".into())
            .spawn(move || {
                serve(stream, &serving, own_uid, limit);
                serving.serving.fetch_sub(1, SeqCst);
            });
        if spawned.is_err() {
            shared.serving.fetch_sub(1, SeqCst);
        }
    }
}

/// Why a request is told `busy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Busy {
    /// [`AT_ONCE`] connections are served already.
    AtOnce,
    /// Another request waited to be decided for the whole of this one's time.
    Another,
    /// The questions did not take it in time; why, when the front end said ([`Channel::hold`]).
    NotTaken(Option<&'static str>),
}

/// The reply to a request not taken, saying why ([`Busy`]) and to try again
/// (docs/elsewhere.md "The reply").
fn busy(why: Busy) -> Reply {
    let secs = CONNECTION_TIME.as_secs();
    let message = match why {
        Busy::AtOnce => format!("{AT_ONCE} requests are being served at once: try again"),
        Busy::Another => "another request is being decided: try again".to_string(),
        Busy::NotTaken(Some(held)) => {
            format!("the questions did not take the answers within {secs} s: {held}: try again")
        }
        Busy::NotTaken(None) => {
            format!("the questions did not take the answers within {secs} s: try again")
        }
    };
    Reply::new(Status::Busy, message)
}

/// Writes `reply` and a newline, then closes the connection.
fn send_reply(stream: &mut UnixStream, reply: &Reply) {
    let mut bytes = serde_json::to_vec(reply).unwrap_or_default();
    bytes.push(b'\n');
    let _ = stream.write_all(&bytes);
    let _ = stream.shutdown(std::net::Shutdown::Both);
}

/// One connection: the peer's user checked, one document read within [`SEND_TIME`], and the
/// front end's verdict sent back (or, for a questions request, the questions at once), all
/// within [`CONNECTION_TIME`].
fn serve(mut stream: UnixStream, shared: &Shared, own_uid: u32, limit: u64) {
    let accepted = Instant::now();
    let until = accepted + CONNECTION_TIME;
    if !peer_uid(&stream).is_ok_and(|uid| peer_allowed(uid, own_uid)) {
        // Another user's process: not a word.
        return;
    }
    let _ = stream.set_write_timeout(Some(CONNECTION_TIME));
    let reply = match read_document(&mut stream, limit, accepted + SEND_TIME) {
        Err(reply) => *reply,
        Ok(text) => match crate::contract::questions_request(&text, &shared.id) {
            None => verdict(text, stream.try_clone().ok(), shared, until),
            Some(asked) => questions(asked, shared),
        },
    };
    send_reply(&mut stream, &reply);
}

/// Reads the document: up to the end of the client's writing, at most `limit` bytes, before
/// `until`.
///
/// Errors: the reply that says why not (too large, too slow).
fn read_document(
    stream: &mut UnixStream,
    limit: u64,
    until: Instant,
) -> Result<String, Box<Reply>> {
    let mut bytes = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(Box::new(invalid(
                crate::contract::ProblemCode::UnreadableAnswers,
                format!(
                    "the request did not come within {} s (end the writing side when done)",
                    SEND_TIME.as_secs()
                ),
            )));
        }
        let _ = stream.set_read_timeout(Some(left));
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                bytes.extend_from_slice(&buf[..n]);
                if bytes.len() as u64 > limit {
                    return Err(Box::new(invalid(
                        crate::contract::ProblemCode::AnswersTooLarge,
                        format!("the request is larger than {limit} bytes"),
                    )));
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) => {}
            Err(e) => {
                return Err(Box::new(invalid(
                    crate::contract::ProblemCode::UnreadableAnswers,
                    format!("the request could not be read: {e}"),
                )))
            }
        }
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

fn invalid(code: crate::contract::ProblemCode, message: String) -> Reply {
    Reply::invalid(vec![Problem::new(code, "", message)])
}

/// The reply to a questions request that was `asked` (checked): the questions while they are
/// up; a refusal as the front end would say it.
fn questions(asked: Result<(), crate::contract::RequestRefusal>, shared: &Shared) -> Reply {
    use crate::contract::RequestRefusal;
    match asked {
        Err(RequestRefusal::Stale(why)) => Reply::new(Status::Stale, why),
        Err(RequestRefusal::Problems(problems)) => Reply::invalid(problems),
        Ok(()) if shared.slot.lock().unwrap_or_else(|e| e.into_inner()).closed => {
            Reply::already_answered()
        }
        Ok(()) => shared.questions.clone(),
    }
}

/// Hands `text` (from `client`) to the front end once the slot is free and waits for its
/// verdict, all until `until`.
fn verdict(text: String, client: Option<UnixStream>, shared: &Shared, until: Instant) -> Reply {
    let (tx, rx) = mpsc::channel();
    let number = shared.next.fetch_add(1, SeqCst);
    {
        let mut slot = shared.slot.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if slot.closed {
                return Reply::already_answered();
            }
            if slot.pending.is_none() {
                break;
            }
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return busy(Busy::Another);
            }
            slot = shared
                .taken
                .wait_timeout(slot, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        slot.pending = Some(Request {
            text,
            reply: tx,
            number,
            client,
            until,
        });
        if let Some(wake) = &slot.wake {
            wake();
        }
    }
    match rx.recv_timeout(until.saturating_duration_since(Instant::now())) {
        Ok(reply) => reply,
        // Dropped without a verdict: the questions ended.
        Err(mpsc::RecvTimeoutError::Disconnected) => Reply::already_answered(),
        Err(mpsc::RecvTimeoutError::Timeout) => {
            let mut slot = shared.slot.lock().unwrap_or_else(|e| e.into_inner());
            if slot.pending.as_ref().is_some_and(|r| r.number == number) {
                slot.pending = None;
                shared.taken.notify_all();
                return busy(Busy::NotTaken(slot.held));
            }
            drop(slot);
            // Taken meanwhile: its verdict comes at once.
            rx.recv().unwrap_or_else(|_| Reply::already_answered())
        }
    }
}

/// `pi-ask answer`'s side: sends `document` to the channel at `socket` and returns its reply.
/// The process listening on `socket` must be the user's own ([`peer_uid`]): nothing is sent to
/// another user's.
///
/// Errors: the socket cannot be reached (the questions are no longer asked there); it is
/// another user's process (`PermissionDenied`, naming the user id); no reply came within
/// [`CLIENT_WAIT`] (`TimedOut`: the request was not taken, the channel never takes a request
/// after its client's wait); the reply is not one pi-ask writes.
pub fn send(socket: &Path, document: &[u8]) -> io::Result<Reply> {
    let mut stream = UnixStream::connect(socket)?;
    let until = Instant::now() + CLIENT_WAIT;
    let uid = peer_uid(&stream)?;
    if !peer_allowed(uid, nix::unistd::geteuid().as_raw()) {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!(
                "the process listening there is another user's (user id {uid}): nothing was sent"
            ),
        ));
    }
    stream.set_write_timeout(Some(CLIENT_WAIT))?;
    // A channel that refuses the request (too large, busy) replies and closes while the
    // document is still being written: the write fails, and the reply is still read.
    let written = stream.write_all(document);
    if let Err(e) = written {
        if !refused_while_writing(&e) {
            return Err(timed_out(e));
        }
        return match read_reply(&mut stream, until) {
            Ok(reply) if !reply.is_empty() => parse_reply(&reply),
            _ => Err(e),
        };
    }
    stream.shutdown(std::net::Shutdown::Write)?;
    let reply = read_reply(&mut stream, until).map_err(timed_out)?;
    if reply.is_empty() {
        return Err(io::Error::new(
            io::ErrorKind::ConnectionAborted,
            "the channel closed without a reply (another user's process is not answered)",
        ));
    }
    parse_reply(&reply)
}

/// A wait that ran out, in the client's words ("no reply within 12 s", `TimedOut`); any other
/// error as it is.
fn timed_out(e: io::Error) -> io::Error {
    if matches!(
        e.kind(),
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
    ) {
        io::Error::new(
            io::ErrorKind::TimedOut,
            format!("no reply within {} s", CLIENT_WAIT.as_secs()),
        )
    } else {
        e
    }
}

/// Whether a failed write is the channel's closing after its reply (`EPIPE`, `ECONNRESET`).
fn refused_while_writing(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::BrokenPipe | io::ErrorKind::ConnectionReset
    )
}

/// The channel's reply on `stream`: its bytes until the end (at most 16 MiB), before
/// `until`. A reset after some bytes ends the reply (the channel closed with the rest of a
/// refused request unread).
///
/// Errors: no reply before `until` (`TimedOut`); the connection failed before any byte.
fn read_reply(stream: &mut UnixStream, until: Instant) -> io::Result<Vec<u8>> {
    let mut reply = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(timed_out(io::ErrorKind::TimedOut.into()));
        }
        stream.set_read_timeout(Some(left))?;
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) if reply.len() + n > 1 << 24 => break,
            Ok(n) => reply.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if refused_while_writing(&e) && !reply.is_empty() => break,
            Err(e) => return Err(e),
        }
    }
    Ok(reply)
}

/// The channel's reply read from its bytes.
///
/// Errors: not a reply pi-ask writes (`InvalidData`).
fn parse_reply(reply: &[u8]) -> io::Result<Reply> {
    serde_json::from_slice(reply).map_err(|e| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("the channel's reply is not one pi-ask writes: {e}"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn payload() -> crate::contract::Payload {
        crate::contract::parse_payload(
            r#"{"title": "Setup", "questions": [{"id": "scope", "prompt": "Which scope?",
                "options": [{"value": "all", "label": "All"}]}]}"#,
        )
        .unwrap()
    }

    /// What the listener and a front end share, with no socket.
    fn shared() -> Shared {
        Shared {
            slot: Mutex::new(Slot::default()),
            taken: Condvar::new(),
            id: "id".into(),
            questions: Reply::ok(),
            serving: AtomicUsize::new(0),
            next: AtomicU64::new(0),
        }
    }

    #[test]
    fn a_busy_reply_says_why_the_request_was_not_taken() {
        let soon = || Instant::now() + Duration::from_millis(50);
        let message = |r: Reply| (r.status, r.message.unwrap_or_default());
        let shared = shared();
        // Not taken in time, the front end saying nothing.
        assert_eq!(
            message(verdict("{}".into(), None, &shared, soon())),
            (
                Status::Busy,
                "the questions did not take the answers within 10 s: try again".into()
            )
        );
        // Not taken while the external editor is open: it says so.
        shared.slot.lock().unwrap().held = Some(HELD_BY_EDITOR);
        assert_eq!(
            message(verdict("{}".into(), None, &shared, soon())),
            (
                Status::Busy,
                "the questions did not take the answers within 10 s: an external editor is open \
                 at the terminal (the questions take answers again once it closes): try again"
                    .into()
            )
        );
        // Another request waits to be decided the whole time.
        let (tx, _rx) = mpsc::channel();
        shared.slot.lock().unwrap().pending = Some(Request {
            text: "{}".into(),
            reply: tx,
            number: 99,
            client: None,
            until: Instant::now() + Duration::from_secs(60),
        });
        assert_eq!(
            message(verdict("{}".into(), None, &shared, soon())),
            (
                Status::Busy,
                "another request is being decided: try again".into()
            )
        );
        assert_eq!(
            message(busy(Busy::AtOnce)),
            (
                Status::Busy,
                "8 requests are being served at once: try again".into()
            )
        );
    }

    #[test]
    fn only_the_same_user_may_answer() {
        assert!(peer_allowed(1000, 1000));
        assert!(!peer_allowed(1001, 1000));
        assert!(!peer_allowed(0, 1000));
        // The peer of a real socket is this process's user.
        let (a, _b) = UnixStream::pair().unwrap();
        let me = nix::unistd::geteuid().as_raw();
        assert_eq!(peer_uid(&a).unwrap(), me);
        assert!(peer_allowed(peer_uid(&a).unwrap(), me));
        assert!(!peer_allowed(peer_uid(&a).unwrap(), me + 1));
    }

    #[test]
    fn the_folder_is_the_users_alone_and_gone_when_the_channel_is() {
        use std::os::unix::fs::PermissionsExt;
        let channel = Channel::open("id".into(), 1000, &payload()).unwrap();
        let dir = channel.socket().parent().unwrap().to_path_buf();
        let mode = std::fs::metadata(&dir).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
        // The socket alone: nothing of the payload is in a file.
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["answer.sock"]);
        drop(channel);
        assert!(!dir.exists());
    }

    #[test]
    fn a_request_waits_for_the_front_ends_verdict_and_a_closed_channel_says_answered() {
        let channel = Channel::open("id".into(), 1000, &payload()).unwrap();
        let socket = channel.socket().to_path_buf();
        let (woke_tx, woke) = mpsc::channel();
        channel.on_arrival(move || {
            let _ = woke_tx.send(());
        });
        let client = std::thread::spawn({
            let socket = socket.clone();
            move || send(&socket, b"{\"x\": 1}").unwrap()
        });
        woke.recv_timeout(Duration::from_secs(5)).unwrap();
        let request = channel.take().unwrap();
        assert_eq!(request.text, "{\"x\": 1}");
        request.reply(Reply::ok());
        assert_eq!(client.join().unwrap(), Reply::ok());
        // Too large: refused by the listener, the front end never sees it.
        let big = vec![b' '; 2000];
        assert_eq!(send(&socket, &big).unwrap().status, Status::Invalid);
        // One waiting when the questions end is told they were answered.
        let client = std::thread::spawn({
            let socket = socket.clone();
            move || send(&socket, b"{}").unwrap()
        });
        woke.recv_timeout(Duration::from_secs(5)).unwrap();
        drop(channel);
        assert_eq!(client.join().unwrap(), Reply::already_answered());
        assert!(send(&socket, b"{}").is_err());
    }

    #[test]
    fn the_listener_answers_a_questions_request_itself() {
        let channel = Channel::open("q-1".into(), 1000, &payload()).unwrap();
        let socket = channel.socket().to_path_buf();
        // No front end takes requests: the listener replies on its own, at once.
        let reply = send(&socket, br#"{"action": "questions"}"#).unwrap();
        assert_eq!(
            serde_json::to_value(&reply).unwrap(),
            serde_json::json!({"status": "questions", "id": "q-1", "title": "Setup",
                "questions": [{"id": "scope", "label": "Q1", "prompt": "Which scope?",
                    "type": "single", "required": false,
                    "options": [{"value": "all", "label": "All"}]}]})
        );
        let reply = send(&socket, br#"{"id": "q-1", "action": "questions"}"#).unwrap();
        assert_eq!(reply.status, Status::Questions);
        let reply = send(&socket, br#"{"id": "q-0", "action": "questions"}"#).unwrap();
        assert_eq!(reply.status, Status::Stale);
        let reply = send(&socket, br#"{"action": "questions", "answers": {}}"#).unwrap();
        assert_eq!(reply.status, Status::Invalid);
        assert_eq!(reply.problems[0].path, "answers");
        assert!(channel.take().is_none());
        drop(channel);
        assert!(send(&socket, br#"{"action": "questions"}"#).is_err());
    }

    fn folder(mode: u32) -> tempfile::TempDir {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(mode)).unwrap();
        dir
    }

    #[test]
    fn a_base_folder_others_can_write_to_is_refused_unless_sticky() {
        let me = 1000;
        assert!(base_allowed(me, 0o40700, me, true));
        assert!(!base_allowed(me, 0o40777, me, true));
        assert!(!base_allowed(me, 0o41777, me, true));
        assert!(!base_allowed(0, 0o40700, me, true));
        assert!(base_allowed(0, 0o41777, me, false));
        assert!(base_allowed(me, 0o40755, me, false));
        assert!(!base_allowed(0, 0o40777, me, false));
        assert!(!base_allowed(me, 0o40770, me, false));
        assert!(!base_allowed(1001, 0o40755, me, false));
        let open = folder(0o777);
        let sticky = folder(0o1777);
        let own = folder(0o700);
        let real = |d: &tempfile::TempDir| std::fs::canonicalize(d.path()).unwrap();
        // A world-writable runtime folder: the temporary one instead; a world-writable
        // temporary folder that is not sticky: no channel.
        let runtime = Some(open.path().as_os_str().to_owned());
        assert_eq!(
            base_dir_of(runtime.clone(), sticky.path()),
            Ok(real(&sticky))
        );
        assert_eq!(base_dir_of(None, own.path()), Ok(real(&own)));
        let refused = base_dir_of(runtime, open.path()).unwrap_err();
        assert!(
            refused.contains("could be written by another user"),
            "{refused}"
        );
        let runtime = Some(own.path().as_os_str().to_owned());
        assert_eq!(base_dir_of(runtime, open.path()), Ok(real(&own)));
        // The channel opens in a sticky one.
        let channel = Channel::open_in(&real(&sticky), "id".into(), 1000, &payload()).unwrap();
        assert!(channel.socket().starts_with(real(&sticky)));
    }

    #[test]
    fn a_swapped_folder_is_not_removed() {
        let base = folder(0o700);
        let channel = Channel::open_in(base.path(), "id".into(), 1000, &payload()).unwrap();
        let dir = channel.socket().parent().unwrap().to_path_buf();
        let moved = base.path().join("moved");
        std::fs::rename(&dir, &moved).unwrap();
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join("answer.sock"), "theirs").unwrap();
        drop(channel);
        // The other folder and its file stay; this run's socket went, through its folder.
        assert_eq!(
            std::fs::read_to_string(dir.join("answer.sock")).unwrap(),
            "theirs"
        );
        assert!(!moved.join("answer.sock").exists());
        // And every other ending of the run leaves them too.
        let channel = Channel::open_in(base.path(), "id".into(), 1000, &payload()).unwrap();
        let dir = channel.socket().parent().unwrap().to_path_buf();
        let moved = base.path().join("moved-2");
        std::fs::rename(&dir, &moved).unwrap();
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join("answer.sock"), "theirs").unwrap();
        let swapped_socket = dir.join("answer.sock");
        // What the exit removes: only paths still this run's.
        assert!(!crate::leftovers::still_same(
            &swapped_socket,
            Some(channel.socket_id)
        ));
        assert!(!crate::leftovers::still_same(&dir, Some(channel.dir_id)));
        drop(channel);
        assert!(swapped_socket.exists());
    }

    #[test]
    fn a_channel_a_killed_run_left_is_removed_by_the_next_run_and_nothing_else() {
        use std::os::unix::fs::PermissionsExt;
        let base = folder(0o700);
        let old = nix::sys::time::TimeSpec::new(1_000_000_000, 0);
        let age = |path: &Path| {
            nix::sys::stat::utimensat(
                nix::fcntl::AT_FDCWD,
                path,
                &old,
                &old,
                nix::sys::stat::UtimensatFlags::NoFollowSymlink,
            )
            .unwrap();
        };
        // A folder as a channel leaves it: 0700, `answer.sock` in it.
        let make = |name: &str, listening: bool, extra: bool, aged: bool| {
            let dir = base.path().join(name);
            std::fs::create_dir(&dir).unwrap();
            std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
            let listener = UnixListener::bind(dir.join(SOCKET_NAME)).unwrap();
            if extra {
                std::fs::write(dir.join("note"), "mine").unwrap();
            }
            if aged {
                age(&dir.join(SOCKET_NAME));
                age(&dir);
            }
            (dir, listening.then_some(listener))
        };
        let (stale, _) = make("pi-ask-AAAAAA", false, false, true);
        let (live, _listener) = make("pi-ask-BBBBBB", true, false, true);
        let (young, _) = make("pi-ask-CCCCCC", false, false, false);
        let (other, _) = make("pi-ask-DDDDDD", false, true, true);
        let (named, _) = make("pi-ask-stale-one", false, false, true);
        // Empty folders: an old one (a sweep killed between the socket and its folder) goes,
        // a young one (a run between its folder and its socket) stays.
        let (empty, young_empty) = (
            base.path().join("pi-ask-EEEEEE"),
            base.path().join("pi-ask-FFFFFF"),
        );
        for dir in [&empty, &young_empty] {
            std::fs::create_dir(dir).unwrap();
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)).unwrap();
        }
        age(&empty);
        // A live listener whose queue is full (a stopped run others knocked on): a blocking
        // connect would wait for good, and the channel would never answer.
        let full = base.path().join("pi-ask-GGGGGG");
        std::fs::create_dir(&full).unwrap();
        std::fs::set_permissions(&full, std::fs::Permissions::from_mode(0o700)).unwrap();
        let full_listener = {
            use nix::sys::socket::{
                bind, listen, socket, AddressFamily, Backlog, SockFlag, SockType, UnixAddr,
            };
            let fd = socket(
                AddressFamily::Unix,
                SockType::Stream,
                SockFlag::SOCK_CLOEXEC,
                None,
            )
            .unwrap();
            bind(
                std::os::fd::AsRawFd::as_raw_fd(&fd),
                &UnixAddr::new(&full.join(SOCKET_NAME)).unwrap(),
            )
            .unwrap();
            listen(&fd, Backlog::new(0).unwrap()).unwrap();
            fd
        };
        let mut queued = Vec::new();
        for _ in 0..4 {
            let fd = nix::sys::socket::socket(
                nix::sys::socket::AddressFamily::Unix,
                nix::sys::socket::SockType::Stream,
                nix::sys::socket::SockFlag::SOCK_NONBLOCK,
                None,
            )
            .unwrap();
            let _ = nix::sys::socket::connect(
                std::os::fd::AsRawFd::as_raw_fd(&fd),
                &nix::sys::socket::UnixAddr::new(&full.join(SOCKET_NAME)).unwrap(),
            );
            queued.push(fd);
        }
        age(&full.join(SOCKET_NAME));
        age(&full);
        let channel = Channel::open_in(base.path(), "id".into(), 1000, &payload()).unwrap();
        // The channel answers at once all the same.
        let reply = send(channel.socket(), br#"{"action": "questions"}"#).unwrap();
        assert_eq!(reply.status, Status::Questions);
        assert!(full.join(SOCKET_NAME).exists());
        drop((full_listener, queued));
        // Only the killed run's channel went (by the listener's thread, first): no one
        // listened, it was old, it held only the socket.
        let swept = Instant::now();
        while stale.exists() && swept.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(10));
        }
        while empty.exists() && swept.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(!stale.exists());
        assert!(!empty.exists());
        assert!(young_empty.exists());
        for kept in [&live, &young, &other, &named] {
            assert!(kept.join(SOCKET_NAME).exists(), "{kept:?}");
        }
        assert!(channel.socket().exists());
    }

    #[test]
    fn a_silent_client_is_cut_and_does_not_hold_the_channel() {
        let channel = Channel::open("id".into(), 1000, &payload()).unwrap();
        let socket = channel.socket().to_path_buf();
        let started = Instant::now();
        let mut silent = UnixStream::connect(&socket).unwrap();
        // Another request is served meanwhile.
        let reply = send(&socket, br#"{"action": "questions"}"#).unwrap();
        assert_eq!(reply.status, Status::Questions);
        assert!(started.elapsed() < SEND_TIME);
        let mut reply = String::new();
        silent.read_to_string(&mut reply).unwrap();
        let waited = started.elapsed();
        assert!(waited >= SEND_TIME && waited < SEND_TIME + Duration::from_secs(2));
        let reply: Reply = serde_json::from_str(&reply).unwrap();
        assert_eq!(reply.status, Status::Invalid);
        assert_eq!(
            reply.problems[0].message,
            "the request did not come within 2 s (end the writing side when done)"
        );
    }

    #[test]
    fn a_request_whose_client_is_gone_is_never_taken() {
        let channel = Channel::open("id".into(), 1000, &payload()).unwrap();
        let (woke_tx, woke) = mpsc::channel();
        channel.on_arrival(move || {
            let _ = woke_tx.send(());
        });
        let mut client = UnixStream::connect(channel.socket()).unwrap();
        client.write_all(b"{}").unwrap();
        client.shutdown(std::net::Shutdown::Write).unwrap();
        woke.recv_timeout(Duration::from_secs(5)).unwrap();
        drop(client);
        assert!(channel.take().is_none());
        // A client still waiting is taken.
        let socket = channel.socket().to_path_buf();
        let waiting = std::thread::spawn(move || send(&socket, b"{}").unwrap());
        woke.recv_timeout(Duration::from_secs(5)).unwrap();
        channel.take().unwrap().reply(Reply::ok());
        assert_eq!(waiting.join().unwrap(), Reply::ok());
    }
}

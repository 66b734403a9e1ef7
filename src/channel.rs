//! The answer channel (docs/elsewhere.md): while a front end asks, a Unix socket in a folder
//! only the user can enter takes one answer request at a time from the user's own processes,
//! so the questions can be answered from elsewhere (a phone through a bridge, another shell,
//! pi's events). Never a network port.
//!
//! The listener runs on a thread of its own: it accepts a connection, checks the peer's user
//! ([`peer_allowed`]), reads one document of at most the answers file's size within
//! [`CONNECTION_TIME`], and puts it in the one slot the front end takes it from
//! ([`Channel::take`]), waking the front end's wait. A questions request
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
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// The variable that gives the notification command the socket's path.
pub const SOCKET_ENV: &str = "ASK_ANSWER_SOCKET";
/// The variable that gives the notification command the questionnaire's id.
pub const ID_ENV: &str = "ASK_ANSWER_ID";
/// How long one connection may take: sending its document, and waiting for the verdict
/// (the questions take it at their next event; an external editor open holds them).
pub const CONNECTION_TIME: Duration = Duration::from_secs(10);
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
}

impl Request {
    /// Sends the verdict to the client.
    pub fn reply(self, reply: Reply) {
        let _ = self.reply.send(reply);
    }
}

/// What the listener and the front end share.
struct Shared {
    slot: Mutex<Slot>,
    /// The questionnaire's id.
    id: String,
    /// The reply to a questions request ([`Reply::questions`]).
    questions: Reply,
    /// The listener is serving a connection (from its accept to its reply sent).
    serving: std::sync::atomic::AtomicBool,
}

#[derive(Default)]
struct Slot {
    /// The questions ended: nothing more is taken.
    closed: bool,
    pending: Option<Request>,
    /// Called when a request arrives: wakes the front end's wait.
    wake: Option<Box<dyn Fn() + Send>>,
}

/// The open channel: the socket listened on, its folder, the questionnaire's id.
pub struct Channel {
    socket: PathBuf,
    dir: PathBuf,
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

/// The folder the channel's own folder is made in: `$XDG_RUNTIME_DIR` when it is a folder
/// of the user's, else the system's temporary folder.
fn base_dir() -> PathBuf {
    use std::os::unix::fs::MetadataExt;
    if let Some(dir) = std::env::var_os("XDG_RUNTIME_DIR").filter(|d| !d.is_empty()) {
        let dir = PathBuf::from(dir);
        if std::fs::metadata(&dir)
            .is_ok_and(|m| m.is_dir() && m.uid() == nix::unistd::geteuid().as_raw())
        {
            return dir;
        }
    }
    std::env::temp_dir()
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
        use std::os::unix::fs::PermissionsExt;
        let only_the_user = std::fs::Permissions::from_mode(0o700);
        let dir = tempfile::Builder::new()
            .prefix("pi-ask-")
            .permissions(only_the_user.clone())
            .tempdir_in(base_dir())?
            .keep();
        // Made 0700 whatever the umask; checked, as the socket's only guard besides the peer's
        // user.
        if let Err(e) = std::fs::set_permissions(&dir, only_the_user) {
            let _ = std::fs::remove_dir(&dir);
            return Err(e);
        }
        let socket = dir.join(SOCKET_NAME);
        // Removed by every ending of the run; the socket goes first, then its folder.
        let on_exit = [
            crate::leftovers::on_exit(Some(socket.clone()), None),
            crate::leftovers::on_exit(Some(dir.clone()), None),
        ];
        let listener = match UnixListener::bind(&socket) {
            Ok(l) => l,
            Err(e) => {
                let _ = std::fs::remove_dir(&dir);
                return Err(e);
            }
        };
        let shared = Arc::new(Shared {
            slot: Mutex::new(Slot::default()),
            questions: Reply::questions(&id, payload),
            id,
            serving: Default::default(),
        });
        let listening = Arc::clone(&shared);
        let own_uid = nix::unistd::geteuid().as_raw();
        let started = std::thread::Builder::new()
            .name("answer channel".into())
            .spawn(move || listen(listener, &listening, own_uid, limit));
        let mut channel = Channel {
            socket,
            dir,
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
    pub fn take(&self) -> Option<Request> {
        self.lock().pending.take()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Slot> {
        self.shared.slot.lock().unwrap_or_else(|e| e.into_inner())
    }
}

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
        if let Some(request) = pending {
            request.reply(Reply::already_answered());
        }
        let _ = std::fs::remove_file(&self.socket);
        let _ = std::fs::remove_dir(&self.dir);
        // The reply to the request that ended the questions is on its way: the run's exit
        // must not cut it off (bounded: a client still sending is not waited for long).
        if let Some(thread) = self.thread.take() {
            let start = Instant::now();
            let serving = || {
                self.shared
                    .serving
                    .load(std::sync::atomic::Ordering::SeqCst)
            };
            while serving() && !thread.is_finished() && start.elapsed() < LAST_REPLY {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
    }
}

/// How often the listener looks whether the channel was closed.
const LOOK_AGAIN: Duration = Duration::from_millis(100);

/// The listener's thread: one connection at a time until the channel closes.
fn listen(listener: UnixListener, shared: &Shared, own_uid: u32, limit: u64) {
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
        use std::sync::atomic::Ordering::SeqCst;
        shared.serving.store(true, SeqCst);
        let Ok((stream, _)) = listener.accept() else {
            shared.serving.store(false, SeqCst);
            std::thread::sleep(LOOK_AGAIN);
            continue;
        };
        serve(stream, shared, own_uid, limit);
        shared.serving.store(false, SeqCst);
    }
}

/// One connection: the peer's user checked, one document read, and the front end's verdict
/// sent back (or, for a questions request, the questions at once), all within
/// [`CONNECTION_TIME`].
fn serve(mut stream: UnixStream, shared: &Shared, own_uid: u32, limit: u64) {
    let until = Instant::now() + CONNECTION_TIME;
    if !peer_uid(&stream).is_ok_and(|uid| peer_allowed(uid, own_uid)) {
        // Another user's process: not a word.
        return;
    }
    let _ = stream.set_write_timeout(Some(CONNECTION_TIME));
    let reply = match read_document(&mut stream, limit, until) {
        Err(reply) => *reply,
        Ok(text) => match crate::contract::questions_request(&text, &shared.id) {
            None => verdict(text, shared, until),
            Some(asked) => questions(asked, shared),
        },
    };
    let mut bytes = serde_json::to_vec(&reply).unwrap_or_default();
    bytes.push(b'\n');
    let _ = stream.write_all(&bytes);
    let _ = stream.shutdown(std::net::Shutdown::Both);
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
                    CONNECTION_TIME.as_secs()
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

/// Hands `text` to the front end and waits for its verdict until `until`.
fn verdict(text: String, shared: &Shared, until: Instant) -> Reply {
    let (tx, rx) = mpsc::channel();
    {
        let mut slot = shared.slot.lock().unwrap_or_else(|e| e.into_inner());
        if slot.closed {
            return Reply::already_answered();
        }
        slot.pending = Some(Request { text, reply: tx });
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
            if slot.pending.take().is_some() {
                return Reply::new(
                    Status::Busy,
                    "the questions did not take the answers in time: try again",
                );
            }
            drop(slot);
            // Taken meanwhile: its verdict comes at once.
            rx.recv().unwrap_or_else(|_| Reply::already_answered())
        }
    }
}

/// `pi-ask answer`'s side: sends `document` to the channel at `socket` and returns its reply.
///
/// Errors: the socket cannot be reached (the questions are no longer asked there), or the
/// reply could not be read within [`CONNECTION_TIME`] and a little more.
pub fn send(socket: &Path, document: &[u8]) -> io::Result<Reply> {
    let mut stream = UnixStream::connect(socket)?;
    let wait = CONNECTION_TIME + Duration::from_secs(2);
    stream.set_write_timeout(Some(wait))?;
    stream.set_read_timeout(Some(wait))?;
    stream.write_all(document)?;
    stream.shutdown(std::net::Shutdown::Write)?;
    let mut reply = Vec::new();
    stream.take(1 << 24).read_to_end(&mut reply)?;
    if reply.is_empty() {
        return Err(io::Error::new(
            io::ErrorKind::ConnectionAborted,
            "the channel closed without a reply (another user's process is not answered)",
        ));
    }
    serde_json::from_slice(&reply).map_err(|e| {
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
}

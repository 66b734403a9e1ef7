//! The caller's lifeline (`--lifeline-fd N`, `PI_ASK_LIFELINE_FD`): the run ends when the
//! process that started it is gone, however it went (docs/interactive.md, "Ending from
//! outside").
//!
//! Two ways tell, either is enough:
//!
//! - the descriptor the caller passed open (the read end of a pipe, a FIFO, or one end of a
//!   socket pair, as Node's `spawn` gives for `stdio[3] = 'pipe'`): its end of file, or an
//!   error reading it, means every writer is gone. Bytes read from it are ignored, at most one
//!   read every [`FLOOD_PAUSE`] while they come (a caller that keeps writing costs next to no
//!   CPU). One thread blocks reading it ([`Lifeline::watch`]). A descriptor whose end could
//!   never come (a FIFO pi-ask would hold a writer of, a datagram socket, a socket that is not
//!   connected) or that is a standard stream's file is refused ([`Lifeline::take`]).
//! - on Linux, the kernel's parent-death signal ([`ask_the_kernel`]: `PR_SET_PDEATHSIG` with
//!   [`crate::terminal::LIFELINE_SIGNAL`]), which also tells when the descriptor is kept open by
//!   another process (a child of the caller that outlives it). That signal ends the run only
//!   when the parent is no longer the one pi-ask started under ([`parent_changed`]).
//!
//! The ending itself is the signal watch's (`crate::terminal::lifeline_ended`): one result,
//! `terminal_lost`, exit 1, the terminal's modes put back without drawing.

use std::fs::File;
use std::io::{self, Read};
use std::os::fd::RawFd;
use std::sync::OnceLock;
use std::time::Duration;

/// The parent pi-ask started under, noted at the start of `main` ([`note_the_parent`]).
static PARENT: OnceLock<u32> = OnceLock::new();

/// Notes the parent process, as early as possible (the start of `main`): a parent that dies
/// later is told from it ([`parent_changed`]).
pub fn note_the_parent() {
    PARENT.get_or_init(std::os::unix::process::parent_id);
}

/// The parent pi-ask started under (the caller, as far as pi-ask can tell).
pub fn the_parent() -> u32 {
    *PARENT.get_or_init(std::os::unix::process::parent_id)
}

/// Whether the parent pi-ask started under is gone: pi-ask was given to another (init or a
/// subreaper).
pub fn parent_changed() -> bool {
    std::os::unix::process::parent_id() != the_parent()
}

/// How long the watcher waits before reading a socket again that was set non-blocking by
/// whoever made it (a `recv` that would block returns at once there).
const NONBLOCKING_RETRY: Duration = Duration::from_millis(50);

/// How long the watcher waits after a read that brought bytes before it reads again: a caller
/// that floods its lifeline is read at most 64 KiB per pause, and the end of file is told at
/// most this much late (after what was written before it is read). docs/interactive.md, "The
/// caller's lifeline".
pub const FLOOD_PAUSE: Duration = Duration::from_millis(25);

/// How much one read of the lifeline takes at most.
const READ_SIZE: usize = 64 * 1024;

/// The caller's lifeline descriptor, checked ([`Lifeline::take`]) and not yet watched.
#[derive(Debug)]
pub struct Lifeline {
    /// The descriptor number the caller gave.
    fd: RawFd,
    /// How it is read.
    source: Source,
}

#[derive(Debug)]
enum Source {
    /// A socket, read with `recv` on the descriptor itself (a socket cannot be opened by path).
    Socket,
    /// A pipe or a FIFO, opened again through `/proc/self/fd/N` (a read end of its own).
    Pipe(File),
}

impl Lifeline {
    /// Checks the descriptor `fd` the caller passed open and makes it the run's lifeline.
    ///
    /// Errors (a usage error, exit 2; the words follow "descriptor N: "): one of the standard
    /// streams (0, 1, 2), or the same pipe, FIFO or socket as one of them (stdin's pipe would
    /// be read by both, the payload lost); not open; open for writing only; not a pipe, a FIFO
    /// or a connected stream socket (a file or a terminal would end the run at once, or never);
    /// a FIFO open for writing too (pi-ask would hold a writer itself: no end of file); a
    /// datagram socket (no end of file either); a pipe without `/proc`.
    pub fn take(fd: u32) -> Result<Lifeline, String> {
        use nix::errno::Errno;
        use nix::sys::socket::{recv, MsgFlags};
        if fd <= 2 {
            return Err("descriptors 0, 1 and 2 are the standard streams".into());
        }
        let Ok(raw) = RawFd::try_from(fd) else {
            return Err("it is not open".into());
        };
        let mut byte = [0u8; 1];
        match recv(raw, &mut byte, MsgFlags::MSG_PEEK | MsgFlags::MSG_DONTWAIT) {
            Err(Errno::EBADF) => return Err("it is not open".into()),
            Err(Errno::ENOTSOCK) => {}
            // A listening or unconnected socket has no other end to lose.
            Err(Errno::ENOTCONN | Errno::EINVAL) => {
                return Err("it is a socket that is not connected".into())
            }
            // A socket: data, its end, or nothing yet.
            Ok(_) | Err(_) => {
                if access_mode(raw) == Some(O_WRONLY) {
                    return Err("it is not open for reading".into());
                }
                check_socket(raw)?;
                not_a_standard_stream(raw)?;
                return Ok(Lifeline {
                    fd: raw,
                    source: Source::Socket,
                });
            }
        }
        let mode = access_mode(raw);
        if mode == Some(O_WRONLY) {
            return Err("it is not open for reading".into());
        }
        let path = format!("/proc/self/fd/{raw}");
        let kind = std::fs::metadata(&path).map_err(|e| match e.kind() {
            io::ErrorKind::NotFound => "it is not open (or /proc is not mounted)".to_string(),
            _ => crate::contract::without_os_error(&e.to_string()).to_string(),
        })?;
        if !std::os::unix::fs::FileTypeExt::is_fifo(&kind.file_type()) {
            return Err("it is not a pipe, a FIFO or a socket".into());
        }
        // Held open for writing by pi-ask itself (`exec 3<>fifo`): its end of file never comes.
        if mode == Some(O_RDWR) {
            return Err(
                "it is a FIFO open for writing too: pi-ask would hold a writer itself, so its \
                 end would never come"
                    .into(),
            );
        }
        not_a_standard_stream(raw)?;
        Ok(Lifeline {
            fd: raw,
            source: Source::Pipe(open_for_reading(&path)?),
        })
    }

    /// Starts the thread that reads the lifeline until its end (end of file, or an error:
    /// the other end is gone), ignoring what it reads, then calls `ended` with why, in the
    /// words of the result's message ("the caller (pid 4242) ended: end of file on its
    /// lifeline, descriptor 3").
    ///
    /// Errors: the thread could not be started.
    pub fn watch(self, ended: impl FnOnce(String) + Send + 'static) -> io::Result<()> {
        std::thread::Builder::new()
            .name("pi-ask-lifeline".into())
            .spawn(move || {
                let how = match self.source {
                    Source::Socket => read_socket(self.fd),
                    Source::Pipe(file) => read_pipe(file),
                };
                ended(format!(
                    "the caller (pid {}) ended: {how} on its lifeline, descriptor {}",
                    the_parent(),
                    self.fd
                ));
            })?;
        Ok(())
    }
}

/// The access mode `O_WRONLY` in a descriptor's flags (`O_ACCMODE`).
const O_WRONLY: u32 = 0o1;
/// The access mode `O_RDWR`.
const O_RDWR: u32 = 0o2;

/// The descriptor's access mode (`O_RDONLY` 0, [`O_WRONLY`], [`O_RDWR`]) as
/// `/proc/self/fdinfo/FD` gives its flags (what `fcntl(F_GETFL)` returns, read without
/// borrowing a descriptor pi-ask does not own); `None` when it cannot tell.
fn access_mode(fd: RawFd) -> Option<u32> {
    let info = std::fs::read_to_string(format!("/proc/self/fdinfo/{fd}")).ok()?;
    info.lines()
        .find_map(|line| line.strip_prefix("flags:"))
        .and_then(|flags| u32::from_str_radix(flags.trim(), 8).ok())
        .map(|flags| flags & 0o3)
}

/// Refuses a socket whose end pi-ask could not tell: one with no peer (a listening socket, an
/// unconnected UDP socket: `getpeername` fails), or one that is not a stream (a datagram
/// socket pair, a connected UDP socket: no end of file comes when the peer closes).
/// `accept` tells the kind without changing anything on a connected socket: `EINVAL` for a
/// stream (or sequenced-packet) socket, which is not listening, `EOPNOTSUPP` for a datagram
/// one (`getsockopt(SO_TYPE)` would need a borrowed descriptor, which takes `unsafe`).
fn check_socket(fd: RawFd) -> Result<(), String> {
    use nix::errno::Errno;
    use nix::sys::socket::{accept4, getpeername, SockFlag, SockaddrStorage};
    if getpeername::<SockaddrStorage>(fd).is_err() {
        return Err("it is a socket that is not connected".into());
    }
    match accept4(fd, SockFlag::SOCK_CLOEXEC | SockFlag::SOCK_NONBLOCK) {
        Err(Errno::EOPNOTSUPP) => {
            Err("it is a datagram socket: the end of its peer is never told".into())
        }
        _ => Ok(()),
    }
}

/// How many of pi-ask's own descriptors [`not_written_by_us`] looks through for a
/// writer of the lifeline's pipe.
const MAX_DESCRIPTORS_LOOKED_AT: usize = 4096;

/// The device and inode of what pi-ask's descriptor `fd` is open on (`/proc/self/fd`);
/// `None` when it is not open or there is no `/proc`.
pub(crate) fn file_of(fd: RawFd) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(format!("/proc/self/fd/{fd}"))
        .ok()
        .map(|m| (m.dev(), m.ino()))
}

/// Refuses a descriptor that is the same pipe, FIFO or socket as stdin, stdout or stderr
/// (compared by device and inode, as `/proc/self/fd` gives them): with the payload on stdin
/// both would read the same pipe, and the lifeline would eat the payload.
fn not_a_standard_stream(fd: RawFd) -> Result<(), String> {
    let Some(ours) = file_of(fd) else {
        return Ok(());
    };
    for (standard, name) in [(0, "stdin"), (1, "stdout"), (2, "stderr")] {
        if file_of(standard) == Some(ours) {
            return Err(format!(
                "it is the same pipe, FIFO or socket as {name} (descriptor {standard})"
            ));
        }
    }
    Ok(())
}

/// Refuses a pipe or FIFO whose write end pi-ask itself was given on another descriptor (a
/// caller that left it inheritable): its end of file would never come. Checked by the run
/// ([`crate::run::run`]) beside [`Lifeline::take`], which a process holding both ends (a
/// test) may call.
///
/// Errors: the words follow "descriptor N: ", as [`Lifeline::take`]'s.
pub fn not_written_by_us(fd: u32) -> Result<(), String> {
    let Ok(fd) = RawFd::try_from(fd) else {
        return Ok(());
    };
    let Some(ours) = file_of(fd) else {
        return Ok(());
    };
    let Ok(listing) = std::fs::read_dir("/proc/self/fd") else {
        return Ok(());
    };
    for other in listing
        .flatten()
        .take(MAX_DESCRIPTORS_LOOKED_AT)
        .filter_map(|e| e.file_name().to_str()?.parse::<RawFd>().ok())
        .filter(|&other| other > 2 && other != fd)
    {
        if file_of(other) == Some(ours) && matches!(access_mode(other), Some(O_WRONLY | O_RDWR)) {
            return Err(format!(
                "pi-ask holds its write end itself (descriptor {other}), so its end would \
                 never come: pass the write end close-on-exec"
            ));
        }
    }
    Ok(())
}

/// Refuses the payload's own file as the lifeline (`pi-ask /dev/fd/3 --lifeline-fd 3`, or
/// a FIFO payload that is also the lifeline): both would read it, and the lifeline would eat
/// the payload. `payload` is the payload's path as given (`-` is stdin, checked by
/// [`Lifeline::take`]).
///
/// Errors: the words follow "descriptor N: ", as [`Lifeline::take`]'s.
pub fn not_the_payload(fd: u32, payload: &std::path::Path) -> Result<(), String> {
    use std::os::unix::fs::MetadataExt;
    let Ok(fd) = RawFd::try_from(fd) else {
        return Ok(());
    };
    let Some(ours) = file_of(fd) else {
        return Ok(());
    };
    if payload.as_os_str() == "-" {
        return Ok(());
    }
    match std::fs::metadata(payload) {
        Ok(m) if (m.dev(), m.ino()) == ours => {
            Err("it is the payload's own pipe or FIFO: the lifeline would eat the payload".into())
        }
        _ => Ok(()),
    }
}

/// A read end of the pipe or FIFO at `path` (`/proc/self/fd/N`), opened without waiting for
/// a writer (opening a FIFO's read end would wait), then made blocking for the watcher.
fn open_for_reading(path: &str) -> Result<File, String> {
    use nix::fcntl::{fcntl, FcntlArg, OFlag};
    use std::os::unix::fs::OpenOptionsExt;
    let why = |e: io::Error| crate::contract::without_os_error(&e.to_string()).to_string();
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(OFlag::O_NONBLOCK.bits())
        .open(path)
        .map_err(why)?;
    let flags = fcntl(&file, FcntlArg::F_GETFL).map_err(|e| why(e.into()))?;
    let flags = OFlag::from_bits_truncate(flags) - OFlag::O_NONBLOCK;
    fcntl(&file, FcntlArg::F_SETFL(flags)).map_err(|e| why(e.into()))?;
    Ok(file)
}

/// Reads a pipe until its end, pausing [`FLOOD_PAUSE`] after each read that brought bytes;
/// how it ended ("end of file", or the error).
fn read_pipe(mut file: File) -> String {
    let mut buf = vec![0u8; READ_SIZE];
    loop {
        match file.read(&mut buf) {
            Ok(0) => return "end of file".into(),
            Ok(_) => std::thread::sleep(FLOOD_PAUSE),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return crate::contract::without_os_error(&e.to_string()).to_string(),
        }
    }
}

/// Reads a socket until its end, pausing [`FLOOD_PAUSE`] after each read that brought bytes;
/// how it ended ("end of file", or the error).
fn read_socket(fd: RawFd) -> String {
    use nix::errno::Errno;
    use nix::sys::socket::{recv, MsgFlags};
    let mut buf = vec![0u8; READ_SIZE];
    loop {
        match recv(fd, &mut buf, MsgFlags::empty()) {
            Ok(0) => return "end of file".into(),
            Ok(_) => std::thread::sleep(FLOOD_PAUSE),
            Err(Errno::EINTR) => {}
            Err(Errno::EAGAIN) => std::thread::sleep(NONBLOCKING_RETRY),
            Err(e) => {
                let e = io::Error::from(e).to_string();
                return crate::contract::without_os_error(&e).to_string();
            }
        }
    }
}

/// Whether the reader of the result is gone, as it is with the caller: the FIFO or pipe at
/// `path` (`/dev/fd/4`) has no process that holds it open for reading (opening it to write
/// fails with `ENXIO`), or, for stdout (`None` or `-`), its pipe has no reader or its socket's
/// peer closed (`poll` tells `POLLERR` or `POLLHUP`). A result that cannot be written then
/// ends the run as the lifeline's end says, without a word (docs/interactive.md, "The
/// caller's lifeline"). `false` when it cannot tell (a file, a terminal).
pub fn the_results_reader_is_gone(path: Option<&std::path::Path>) -> bool {
    use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
    use std::os::fd::AsFd;
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
    match path {
        None => {}
        Some(p) if p == std::path::Path::new("-") => {}
        Some(p) => {
            if !std::fs::metadata(p).is_ok_and(|m| m.file_type().is_fifo()) {
                return false;
            }
            let opened = std::fs::OpenOptions::new()
                .write(true)
                .custom_flags(nix::fcntl::OFlag::O_NONBLOCK.bits())
                .open(p);
            return opened.is_err_and(|e| e.raw_os_error() == Some(nix::libc::ENXIO));
        }
    }
    let stdout = io::stdout();
    let mut fds = [PollFd::new(stdout.as_fd(), PollFlags::POLLOUT)];
    poll(&mut fds, PollTimeout::ZERO).is_ok_and(|_| {
        fds[0]
            .revents()
            .is_some_and(|r| r.intersects(PollFlags::POLLERR | PollFlags::POLLHUP))
    })
}

/// Asks the kernel to send [`crate::terminal::LIFELINE_SIGNAL`] when the parent dies (Linux's
/// `PR_SET_PDEATHSIG`; elsewhere the descriptor alone tells). Call it once the signal watch
/// takes that signal. Returns false when the parent is already gone (it died before the
/// request could count): the caller ends the run at once.
pub fn ask_the_kernel() -> bool {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        let _ = nix::sys::prctl::set_pdeathsig(nix::sys::signal::Signal::SIGUSR2);
    }
    !parent_changed()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::OpenOptionsExt;

    #[test]
    fn the_descriptor_must_be_open_readable_and_a_pipe_or_a_socket() {
        assert_eq!(
            Lifeline::take(1).unwrap_err(),
            "descriptors 0, 1 and 2 are the standard streams"
        );
        assert_eq!(Lifeline::take(999_999).unwrap_err(), "it is not open");
        let (read, write) = nix::unistd::pipe().unwrap();
        assert_eq!(
            Lifeline::take(write.as_raw_fd() as u32).unwrap_err(),
            "it is not open for reading"
        );
        let file = tempfile::tempfile().unwrap();
        assert_eq!(
            Lifeline::take(file.as_raw_fd() as u32).unwrap_err(),
            "it is not a pipe, a FIFO or a socket"
        );
        // A pipe: its end comes when the write end closes.
        let lifeline = Lifeline::take(read.as_raw_fd() as u32).unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        lifeline.watch(move |why| tx.send(why).unwrap()).unwrap();
        nix::unistd::write(&write, b"ignored").unwrap();
        assert!(rx.recv_timeout(Duration::from_millis(200)).is_err());
        drop(write);
        let why = rx.recv_timeout(Duration::from_secs(5)).unwrap();
        assert!(
            why.ends_with(&format!(
                "ended: end of file on its lifeline, descriptor {}",
                read.as_raw_fd()
            )),
            "{why}"
        );
    }

    #[test]
    fn a_descriptor_whose_end_never_comes_is_refused() {
        // A FIFO open for reading and writing (`exec 3<>fifo`): pi-ask would hold a writer.
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o600)).unwrap();
        let both = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&fifo)
            .unwrap();
        assert_eq!(
            Lifeline::take(both.as_raw_fd() as u32).unwrap_err(),
            "it is a FIFO open for writing too: pi-ask would hold a writer itself, so its end \
             would never come"
        );
        // Its read end alone is a lifeline.
        let read = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(nix::fcntl::OFlag::O_NONBLOCK.bits())
            .open(&fifo)
            .unwrap();
        assert!(Lifeline::take(read.as_raw_fd() as u32).is_ok());
        // Datagram sockets: a pair, a connected UDP socket; an unconnected one has no peer.
        let datagram = "it is a datagram socket: the end of its peer is never told";
        let (ours, _theirs) = std::os::unix::net::UnixDatagram::pair().unwrap();
        assert_eq!(
            Lifeline::take(ours.as_raw_fd() as u32).unwrap_err(),
            datagram
        );
        let udp = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
        assert_eq!(
            Lifeline::take(udp.as_raw_fd() as u32).unwrap_err(),
            "it is a socket that is not connected"
        );
        udp.connect("127.0.0.1:9").unwrap();
        assert_eq!(
            Lifeline::take(udp.as_raw_fd() as u32).unwrap_err(),
            datagram
        );
        // A connected TCP socket is a stream: its peer's close is an end of file.
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let tcp = std::net::TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (peer, _) = listener.accept().unwrap();
        assert!(Lifeline::take(tcp.as_raw_fd() as u32).is_ok());
        // Nothing was accepted from the listener meanwhile, nor from the stream.
        listener.set_nonblocking(true).unwrap();
        assert!(listener.accept().is_err());
        drop(peer);
    }

    #[test]
    fn a_flood_is_read_with_pauses_and_its_end_still_told() {
        let (read, write) = nix::unistd::pipe().unwrap();
        let lifeline = Lifeline::take(read.as_raw_fd() as u32).unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        lifeline.watch(move |why| tx.send(why).unwrap()).unwrap();
        // 64 KiB a read, one read a pause: 1 MiB takes 16 reads, at least 16 pauses.
        let start = std::time::Instant::now();
        let chunk = vec![b'x'; 64 * 1024];
        for _ in 0..16 {
            nix::unistd::write(&write, &chunk).unwrap();
        }
        drop(write);
        let why = rx.recv_timeout(Duration::from_secs(5)).unwrap();
        assert!(why.contains("end of file on its lifeline"), "{why}");
        let took = start.elapsed();
        assert!(took >= FLOOD_PAUSE * 14, "{took:?}");
        assert!(took < Duration::from_secs(3), "{took:?}");
    }

    #[test]
    fn a_socket_ends_when_its_peer_closes() {
        let (ours, theirs) = std::os::unix::net::UnixStream::pair().unwrap();
        let lifeline = Lifeline::take(ours.as_raw_fd() as u32).unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        lifeline.watch(move |why| tx.send(why).unwrap()).unwrap();
        std::io::Write::write_all(&mut &theirs, b"x").unwrap();
        assert!(rx.recv_timeout(Duration::from_millis(200)).is_err());
        drop(theirs);
        let why = rx.recv_timeout(Duration::from_secs(5)).unwrap();
        assert!(why.contains("end of file on its lifeline"), "{why}");
        drop(ours);
        let listening = std::os::unix::net::UnixListener::bind(
            tempfile::tempdir().unwrap().path().join("socket"),
        )
        .unwrap();
        assert_eq!(
            Lifeline::take(listening.as_raw_fd() as u32).unwrap_err(),
            "it is a socket that is not connected"
        );
    }
}

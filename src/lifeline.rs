//! The caller's lifeline (`--lifeline-fd N`, `PI_ASK_LIFELINE_FD`): the run ends when the
//! process that started it is gone, however it went (docs/interactive.md, "Ending from
//! outside").
//!
//! Two ways tell, either is enough:
//!
//! - the descriptor the caller passed open (the read end of a pipe, a FIFO, or one end of a
//!   socket pair, as Node's `spawn` gives for `stdio[3] = 'pipe'`): its end of file, or an
//!   error reading it, means every writer is gone. Bytes read from it are ignored. One thread
//!   blocks reading it ([`Lifeline::watch`]).
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
    /// streams (0, 1, 2); not open; open for writing only; not a pipe, a FIFO or a connected
    /// socket (a file or a terminal would end the run at once, or never); a pipe without
    /// `/proc`.
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
                if written_only(raw) {
                    return Err("it is not open for reading".into());
                }
                return Ok(Lifeline {
                    fd: raw,
                    source: Source::Socket,
                });
            }
        }
        if written_only(raw) {
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

/// Whether `/proc/self/fdinfo/FD` says the descriptor is open for writing only (`false` when
/// it cannot tell).
fn written_only(fd: RawFd) -> bool {
    let Ok(info) = std::fs::read_to_string(format!("/proc/self/fdinfo/{fd}")) else {
        return false;
    };
    info.lines()
        .find_map(|line| line.strip_prefix("flags:"))
        .and_then(|flags| u32::from_str_radix(flags.trim(), 8).ok())
        .is_some_and(|flags| flags & 0o3 == 0o1)
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

/// Reads a pipe until its end; how it ended ("end of file", or the error).
fn read_pipe(mut file: File) -> String {
    let mut buf = [0u8; 512];
    loop {
        match file.read(&mut buf) {
            Ok(0) => return "end of file".into(),
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return crate::contract::without_os_error(&e.to_string()).to_string(),
        }
    }
}

/// Reads a socket until its end; how it ended ("end of file", or the error).
fn read_socket(fd: RawFd) -> String {
    use nix::errno::Errno;
    use nix::sys::socket::{recv, MsgFlags};
    let mut buf = [0u8; 512];
    loop {
        match recv(fd, &mut buf, MsgFlags::empty()) {
            Ok(0) => return "end of file".into(),
            Ok(_) | Err(Errno::EINTR) => {}
            Err(Errno::EAGAIN) => std::thread::sleep(NONBLOCKING_RETRY),
            Err(e) => {
                let e = io::Error::from(e).to_string();
                return crate::contract::without_os_error(&e).to_string();
            }
        }
    }
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

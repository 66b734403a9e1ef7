//! The real terminal: byte-wise reads of `/dev/tty` with a timeout, woken by window resizes,
//! and the raw-mode guard.

use super::{ByteSource, Input};
use nix::sys::termios::{self, FlushArg, OutputFlags, SetArg, SpecialCharacterIndices, Termios};
use signal_hook::consts::{SIGCONT, SIGWINCH};
use signal_hook::SigId;
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::{AsFd, BorrowedFd};
use std::os::unix::net::UnixStream;
use std::time::{Duration, Instant};

/// The terminal as a [`ByteSource`]: waits with `poll` (`select` on macOS, where `poll` does
/// not work on terminals) and reads exactly one byte per `read(2)`, so no byte after a key is
/// taken from the terminal. Optionally also waits on a wake pipe that a `SIGWINCH` handler
/// writes to, so that a window resize ends the wait as [`Input::Resize`].
///
/// An interrupted wait or read (`EINTR`) is retried for the time that is left.
#[derive(Debug)]
pub struct TtySource {
    tty: File,
    wake: Option<Wake>,
    /// `tty` is non-blocking: a byte can be read without a wait first.
    nonblocking: bool,
}

/// The read end of a wake pipe, and the signal handler that writes to it (if this source
/// installed one).
#[derive(Debug)]
struct Wake {
    read: UnixStream,
    handler: Option<SigId>,
    /// The `SIGCONT` handler writing to the same pipe, and the one setting [`CONTINUED`].
    continued: Vec<SigId>,
}

/// Set when the process was continued (`SIGCONT`: `fg` after Ctrl+Z or after an outside
/// `SIGSTOP`); read and cleared by [`take_continued`].
static CONTINUED: std::sync::LazyLock<std::sync::Arc<std::sync::atomic::AtomicBool>> =
    std::sync::LazyLock::new(Default::default);

/// Whether the process was continued (`SIGCONT`) since the last call: the terminal's modes may
/// have been changed meanwhile (a shell puts its own back when a job stops, and an outside
/// `SIGSTOP` gave pi-ask no chance to put them back itself).
pub fn take_continued() -> bool {
    CONTINUED.swap(false, std::sync::atomic::Ordering::SeqCst)
}

/// Whether a continue (`SIGCONT`) came that [`take_continued`] has not taken yet: the wake it
/// gives the reader may come after a wait that the stop made run out.
pub fn continued_pending() -> bool {
    CONTINUED.load(std::sync::atomic::Ordering::SeqCst)
}

/// The write end of the terminal reader's wake (a clone): [`wake_the_reader`] writes to it.
static WAKE_WRITER: std::sync::Mutex<Option<UnixStream>> = std::sync::Mutex::new(None);

/// Ends the terminal reader's wait as a resize does (an answer came on the answer channel:
/// src/channel.rs); nothing when no reader with a resize wake was opened.
pub fn wake_the_reader() {
    if let Some(w) = WAKE_WRITER
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .as_ref()
    {
        let _ = (&*w).write(&[0]);
    }
}

impl TtySource {
    /// A source reading `tty` (normally `/dev/tty`; any readable file descriptor works, which
    /// the tests use). Put it in raw mode first ([`RawMode`]), or bytes come only line by line.
    pub fn new(tty: File) -> TtySource {
        // Non-blocking, so the rest of a sequence is read without a wait first (a wait still
        // comes first when nothing is there); a file that cannot be made so is waited on
        // before every byte.
        let nonblocking = set_nonblocking(&tty).is_ok();
        TtySource {
            tty,
            wake: None,
            nonblocking,
        }
    }

    /// A source reading `/dev/tty`.
    ///
    /// Errors: no controlling terminal (`ENXIO`), or it cannot be opened.
    pub fn open() -> io::Result<TtySource> {
        Ok(TtySource::new(crate::terminal::open_tty_nonblocking()?))
    }

    /// The same source, also woken when the window is resized: installs a `SIGWINCH` handler
    /// (signal-hook's self-pipe, next to any other handler of the signal) that writes to a
    /// socket pair this source waits on. The handler is removed when the source is dropped.
    /// A resize is reported once however many signals came before the next read.
    ///
    /// The handler runs on whichever thread the signal is delivered to, so a reading thread
    /// that blocks `SIGWINCH` (see `terminal::keep_resizes_from_interrupting_reads`) is still
    /// woken as long as another thread takes the signal.
    ///
    /// Errors: the socket pair or the handler could not be made.
    pub fn with_resize_wake(self) -> io::Result<TtySource> {
        let (read, write) = UnixStream::pair()?;
        let mut source = self.with_wake(read)?;
        let again = write.try_clone()?;
        *WAKE_WRITER.lock().unwrap_or_else(|e| e.into_inner()) = Some(write.try_clone()?);
        let handler = signal_hook::low_level::pipe::register(SIGWINCH, write)?;
        // `fg` after a stop wakes the reader too (as a resize: the screen is drawn again),
        // with [`take_continued`] saying why.
        let flag = signal_hook::flag::register(SIGCONT, std::sync::Arc::clone(&CONTINUED))?;
        let woken = signal_hook::low_level::pipe::register(SIGCONT, again)?;
        if let Some(wake) = source.wake.as_mut() {
            wake.handler = Some(handler);
            wake.continued = vec![flag, woken];
        }
        Ok(source)
    }

    /// The same source, also woken when anything is written to the other end of `wake` (each
    /// wake is reported as [`Input::Resize`]). [`TtySource::with_resize_wake`] uses it with a
    /// `SIGWINCH` handler; tests write to it themselves.
    ///
    /// Errors: `wake` cannot be made non-blocking.
    pub fn with_wake(mut self, wake: UnixStream) -> io::Result<TtySource> {
        wake.set_nonblocking(true)?;
        self.drop_wake();
        self.wake = Some(Wake {
            read: wake,
            handler: None,
            continued: Vec::new(),
        });
        Ok(self)
    }

    /// The terminal file this source reads (for [`RawMode::enable`] and [`flush_input`]).
    pub fn tty(&self) -> &File {
        &self.tty
    }

    fn drop_wake(&mut self) {
        if let Some(wake) = self.wake.take() {
            for id in wake.handler.into_iter().chain(wake.continued) {
                signal_hook::low_level::unregister(id);
            }
        }
    }

    fn drain_wake(&mut self) {
        if let Some(wake) = self.wake.as_mut() {
            let mut buf = [0u8; 64];
            while matches!(wake.read.read(&mut buf), Ok(n) if n > 0) {}
        }
    }
}

impl Drop for TtySource {
    fn drop(&mut self) {
        self.drop_wake();
    }
}

impl ByteSource for TtySource {
    fn read_byte(&mut self, timeout: Option<Duration>) -> io::Result<Input> {
        // A bounded wait is the rest of a sequence (or a countdown's tick): the byte has
        // usually come with the first, so it is read at once, without a poll first.
        if timeout.is_some() && self.nonblocking {
            let mut byte = [0u8; 1];
            if let Ok(1) = (&self.tty).read(&mut byte) {
                return Ok(Input::Byte(byte[0]));
            }
        }
        let deadline = timeout.and_then(|t| Instant::now().checked_add(t));
        loop {
            let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
            let wake = self.wake.as_ref().map(|w| w.read.as_fd());
            let ready = match wait(self.tty.as_fd(), wake, left) {
                Ok(ready) => ready,
                Err(nix::errno::Errno::EINTR) => continue,
                Err(e) => return Err(e.into()),
            };
            if ready.wake {
                self.drain_wake();
                return Ok(Input::Resize);
            }
            if ready.tty {
                let mut byte = [0u8; 1];
                match (&self.tty).read(&mut byte) {
                    Ok(0) => {
                        return Err(io::Error::new(
                            io::ErrorKind::UnexpectedEof,
                            "the terminal closed (read 0 bytes)",
                        ))
                    }
                    Ok(_) => return Ok(Input::Byte(byte[0])),
                    Err(e)
                        if matches!(
                            e.kind(),
                            io::ErrorKind::Interrupted | io::ErrorKind::WouldBlock
                        ) => {}
                    Err(e) => return Err(e),
                }
            }
            // Without a deadline (no timeout, or one past the end of time) the wait goes on.
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return Ok(Input::TimedOut);
            }
        }
    }

    fn discard_input(&mut self) -> io::Result<()> {
        flush_input(&self.tty)
    }
}

/// Waits at most `timeout` until `fd` can be read (or hung up: the read then tells); returns
/// whether it can. An interrupted wait (`EINTR`) returns `false`: the caller waits again for
/// the time left. Plain mode waits for a typed line with it (`--timeout`); in the terminal's
/// canonical mode a line can be read only once Enter completes it.
///
/// Errors: the wait itself failed.
pub fn wait_readable(fd: &impl AsFd, timeout: Duration) -> io::Result<bool> {
    match wait(fd.as_fd(), None, Some(timeout)) {
        Ok(ready) => Ok(ready.tty),
        Err(nix::errno::Errno::EINTR) => Ok(false),
        Err(e) => Err(e.into()),
    }
}

/// A wake for a wait that must notice `fg` after a stop (`SIGCONT`): plain mode waits for a
/// typed line on the terminal and on this, so it prints its prompt again on the line the
/// shell left. The handler (signal-hook's self-pipe) is removed when the value is dropped.
#[derive(Debug)]
pub struct ContinueWake {
    read: UnixStream,
    handler: SigId,
}

impl ContinueWake {
    /// Installs the `SIGCONT` handler.
    ///
    /// Errors: the socket pair or the handler could not be made.
    pub fn new() -> io::Result<ContinueWake> {
        let (read, write) = UnixStream::pair()?;
        read.set_nonblocking(true)?;
        let handler = signal_hook::low_level::pipe::register(SIGCONT, write)?;
        Ok(ContinueWake { read, handler })
    }

    /// Waits at most `timeout` until `fd` can be read or the process is continued:
    /// (readable, continued). Every continue since the last call counts once.
    ///
    /// Errors: the wait itself failed.
    pub fn wait(&self, fd: &impl AsFd, timeout: Duration) -> io::Result<(bool, bool)> {
        let ready = match wait(fd.as_fd(), Some(self.read.as_fd()), Some(timeout)) {
            Ok(ready) => ready,
            Err(nix::errno::Errno::EINTR) => Ready {
                tty: false,
                wake: false,
            },
            Err(e) => return Err(e.into()),
        };
        // Drained: every continue since the last call counts once.
        let mut continued = ready.wake;
        let mut buf = [0u8; 16];
        while let Ok(1..) = (&self.read).read(&mut buf) {
            continued = true;
        }
        Ok((ready.tty, continued))
    }
}

impl Drop for ContinueWake {
    fn drop(&mut self) {
        signal_hook::low_level::unregister(self.handler);
    }
}

/// Sets `O_NONBLOCK` on `file`'s open file description (the non-blocking `/dev/tty`, shared with the frame writer).
fn set_nonblocking(file: &File) -> nix::Result<()> {
    use nix::fcntl::{fcntl, FcntlArg, OFlag};
    let flags = OFlag::from_bits_truncate(fcntl(file, FcntlArg::F_GETFL)?);
    fcntl(file, FcntlArg::F_SETFL(flags | OFlag::O_NONBLOCK)).map(|_| ())
}

/// Which of the waited-on descriptors are ready.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Ready {
    tty: bool,
    wake: bool,
}

/// Milliseconds for `poll`, rounded up (so a wait never ends early and spins), capped.
#[cfg(not(target_os = "macos"))]
fn poll_timeout(left: Option<Duration>) -> nix::poll::PollTimeout {
    use nix::poll::PollTimeout;
    match left {
        None => PollTimeout::NONE,
        Some(d) => {
            let ms = d.as_nanos().div_ceil(1_000_000);
            PollTimeout::try_from(ms).unwrap_or(PollTimeout::MAX)
        }
    }
}

/// Waits until `tty` or `wake` can be read (or the terminal hung up), at most `left`.
#[cfg(not(target_os = "macos"))]
fn wait(
    tty: BorrowedFd<'_>,
    wake: Option<BorrowedFd<'_>>,
    left: Option<Duration>,
) -> nix::Result<Ready> {
    use nix::poll::{poll, PollFd, PollFlags};
    let mut fds = vec![PollFd::new(tty, PollFlags::POLLIN)];
    if let Some(w) = wake {
        fds.push(PollFd::new(w, PollFlags::POLLIN));
    }
    poll(&mut fds, poll_timeout(left))?;
    // POLLHUP, POLLERR and POLLNVAL count as ready: the read then reports what happened.
    let ready = |fd: &PollFd| fd.revents().is_some_and(|r| !r.is_empty());
    Ok(Ready {
        tty: ready(&fds[0]),
        wake: fds.get(1).is_some_and(ready),
    })
}

/// [`wait`] with `select`, for macOS, where `poll` on a terminal fails. Also built for the
/// unit tests elsewhere, so it is tested on Linux too.
#[cfg(any(target_os = "macos", test))]
fn wait_select(
    tty: BorrowedFd<'_>,
    wake: Option<BorrowedFd<'_>>,
    left: Option<Duration>,
) -> nix::Result<Ready> {
    use nix::sys::select::{select, FdSet, FD_SETSIZE};
    use nix::sys::time::{TimeVal, TimeValLike};
    use std::os::fd::AsRawFd;
    let fits = |fd: BorrowedFd<'_>| usize::try_from(fd.as_raw_fd()).is_ok_and(|n| n < FD_SETSIZE);
    if !fits(tty) || !wake.is_none_or(fits) {
        return Err(nix::errno::Errno::EBADF);
    }
    let mut read = FdSet::new();
    read.insert(tty);
    if let Some(w) = wake {
        read.insert(w);
    }
    // Rounded up to the microsecond, capped at a day (select refuses huge times).
    let mut time = left.map(|d| {
        let us = d.as_nanos().div_ceil(1_000).min(86_400_000_000);
        TimeVal::microseconds(i64::try_from(us).unwrap_or(i64::MAX))
    });
    select(None, &mut read, None, None, time.as_mut())?;
    Ok(Ready {
        tty: read.contains(tty),
        wake: wake.is_some_and(|w| read.contains(w)),
    })
}

#[cfg(target_os = "macos")]
fn wait(
    tty: BorrowedFd<'_>,
    wake: Option<BorrowedFd<'_>>,
    left: Option<Duration>,
) -> nix::Result<Ready> {
    wait_select(tty, wake, left)
}

/// The raw modes made from `found`: `cfmakeraw` (no echo, no line editing, no signal keys, so
/// Ctrl+C and Ctrl+Z arrive as bytes; 8-bit input, no CR/NL translation of input), one byte
/// per read (`VMIN` 1, `VTIME` 0), but output processing kept (`OPOST`, `ONLCR`), so a `\n`
/// written by anything still starts a new line at column 0. Pure; [`RawMode::enable`] applies
/// it.
pub fn raw_modes(found: &Termios) -> Termios {
    let mut raw = found.clone();
    termios::cfmakeraw(&mut raw);
    raw.output_flags
        .insert(OutputFlags::OPOST | OutputFlags::ONLCR);
    raw.control_chars[SpecialCharacterIndices::VMIN as usize] = 1;
    raw.control_chars[SpecialCharacterIndices::VTIME as usize] = 0;
    raw
}

/// While alive, the terminal is in raw mode ([`raw_modes`]); dropping it puts back the modes
/// it found (not the modes from before the whole run: `terminal::save_modes` and
/// `terminal::restore` look after those). Guards can nest; each puts back what it found.
#[derive(Debug)]
#[must_use = "raw mode ends when the guard is dropped"]
pub struct RawMode {
    tty: File,
    found: Termios,
    /// Whether [`RawMode::restore`] put the modes back already.
    restored: bool,
}

impl RawMode {
    /// Switches `tty` (normally `/dev/tty`) to raw mode at once (`TCSANOW`; queued input
    /// stays: see [`flush_input`]).
    ///
    /// Errors: `tty` is not a terminal (`ENOTTY`), or its descriptor cannot be duplicated for
    /// the guard.
    pub fn enable(tty: &File) -> io::Result<RawMode> {
        let found = termios::tcgetattr(tty)?;
        let tty = tty.try_clone()?;
        termios::tcsetattr(&tty, SetArg::TCSANOW, &raw_modes(&found))?;
        Ok(RawMode {
            tty,
            found,
            restored: false,
        })
    }

    /// Switches the terminal to raw mode again, keeping the modes to put back: after the
    /// process was stopped from outside and continued, the shell may have put its own modes
    /// back.
    ///
    /// Errors: the terminal's modes could not be read or set.
    pub fn again(&self) -> io::Result<()> {
        let now = termios::tcgetattr(&self.tty)?;
        termios::tcsetattr(&self.tty, SetArg::TCSANOW, &raw_modes(&now)).map_err(io::Error::from)
    }

    /// The modes found by [`RawMode::enable`], which the guard puts back.
    pub fn found(&self) -> &Termios {
        &self.found
    }

    /// Puts the found modes back now and reports whether that worked (dropping the guard does
    /// the same and ignores errors).
    ///
    /// Errors: `tcsetattr` failed (the terminal went away, say).
    pub fn restore(mut self) -> io::Result<()> {
        self.restored = true;
        termios::tcsetattr(&self.tty, SetArg::TCSANOW, &self.found).map_err(io::Error::from)
    }
}

impl Drop for RawMode {
    fn drop(&mut self) {
        if !self.restored {
            let _ = termios::tcsetattr(&self.tty, SetArg::TCSANOW, &self.found);
        }
    }
}

/// Discards the terminal's queued input (`tcflush(TCIFLUSH)`): bytes typed but not read yet.
/// [`super::KeyReader::discard_type_ahead`] also empties the decoder.
///
/// Errors: `tty` is not a terminal (`ENOTTY`).
pub fn flush_input(tty: &impl AsFd) -> io::Result<()> {
    termios::tcflush(tty, FlushArg::TCIFLUSH).map_err(io::Error::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keys::{Event, Key, KeyReader, SystemClock};
    use nix::pty::openpty;
    use nix::sys::termios::LocalFlags;
    use std::io::Write;
    use std::os::fd::OwnedFd;

    /// A pty: the terminal side (what pi-ask reads) and the other side (what a person types).
    fn pty() -> (File, File) {
        let p = openpty(None, None).unwrap();
        (File::from(p.slave), File::from(p.master))
    }

    /// A socket pair as a "terminal" without termios, for the wait and read logic.
    fn pipe_source() -> (TtySource, UnixStream) {
        let (a, b) = UnixStream::pair().unwrap();
        (TtySource::new(File::from(OwnedFd::from(a))), b)
    }

    #[test]
    fn raw_modes_switch_off_echo_lines_and_signals_but_keep_output_newlines() {
        let (tty, _other) = pty();
        let found = termios::tcgetattr(&tty).unwrap();
        let raw = raw_modes(&found);
        for flag in [
            LocalFlags::ECHO,
            LocalFlags::ICANON,
            LocalFlags::ISIG,
            LocalFlags::IEXTEN,
        ] {
            assert!(!raw.local_flags.contains(flag), "{flag:?}");
        }
        assert!(raw
            .output_flags
            .contains(OutputFlags::OPOST | OutputFlags::ONLCR));
        assert_eq!(raw.control_chars[SpecialCharacterIndices::VMIN as usize], 1);
        assert_eq!(
            raw.control_chars[SpecialCharacterIndices::VTIME as usize],
            0
        );
    }

    #[test]
    fn the_raw_mode_guard_puts_back_what_it_found() {
        let (tty, _other) = pty();
        let before = termios::tcgetattr(&tty).unwrap();
        assert!(before.local_flags.contains(LocalFlags::ICANON));
        {
            let _raw = RawMode::enable(&tty).unwrap();
            let now = termios::tcgetattr(&tty).unwrap();
            assert!(!now.local_flags.contains(LocalFlags::ICANON));
            assert!(!now.local_flags.contains(LocalFlags::ISIG));
            // Nested: the inner guard puts back raw mode, not the cooked modes.
            let inner = RawMode::enable(&tty).unwrap();
            assert!(!inner.found().local_flags.contains(LocalFlags::ICANON));
            inner.restore().unwrap();
            let now = termios::tcgetattr(&tty).unwrap();
            assert!(!now.local_flags.contains(LocalFlags::ICANON));
        }
        let after = termios::tcgetattr(&tty).unwrap();
        assert_eq!(after.local_flags, before.local_flags);
        assert_eq!(after.input_flags, before.input_flags);
        assert_eq!(after.output_flags, before.output_flags);
    }

    #[test]
    fn raw_mode_on_something_that_is_not_a_terminal_fails() {
        let (source, _other) = pipe_source();
        assert!(RawMode::enable(source.tty()).is_err());
    }

    #[test]
    fn keys_typed_on_a_raw_pty_are_read_one_byte_at_a_time() {
        let (tty, mut other) = pty();
        let _raw = RawMode::enable(&tty).unwrap();
        let mut source = TtySource::new(tty.try_clone().unwrap());
        other.write_all(b"\x03\x1b[Ax").unwrap();
        let mut reader = KeyReader::new(source_by_ref(&mut source), SystemClock, ms(25));
        assert_eq!(reader.next(None).unwrap(), Event::Key(Key::Ctrl('c')));
        assert_eq!(reader.next(None).unwrap(), Event::Key(Key::Up));
        // The `x` is still in the terminal: the reader read only what the keys needed.
        drop(reader);
        let mut rest = [0u8; 8];
        assert_eq!((&tty).read(&mut rest).unwrap(), 1);
        assert_eq!(rest[0], b'x');
    }

    #[test]
    fn flushing_input_discards_type_ahead() {
        let (tty, mut other) = pty();
        let _raw = RawMode::enable(&tty).unwrap();
        other.write_all(b"looks good\r").unwrap();
        let mut source = TtySource::new(tty.try_clone().unwrap());
        // Wait until the pty has passed the bytes on, then flush them.
        assert_eq!(source.read_byte(Some(ms(2000))).unwrap(), Input::Byte(b'l'));
        source.discard_input().unwrap();
        assert_eq!(
            source.read_byte(Some(Duration::ZERO)).unwrap(),
            Input::TimedOut
        );
        other.write_all(b"1").unwrap();
        assert_eq!(source.read_byte(Some(ms(2000))).unwrap(), Input::Byte(b'1'));
    }

    #[test]
    fn nothing_to_read_is_a_timeout() {
        let (mut source, _other) = pipe_source();
        assert_eq!(
            source.read_byte(Some(Duration::ZERO)).unwrap(),
            Input::TimedOut
        );
        let start = Instant::now();
        assert_eq!(source.read_byte(Some(ms(5))).unwrap(), Input::TimedOut);
        assert!(start.elapsed() >= ms(5));
    }

    #[test]
    fn a_closed_terminal_is_unexpected_eof() {
        let (mut source, other) = pipe_source();
        drop(other);
        let err = source.read_byte(None).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof);
    }

    #[test]
    fn a_write_to_the_wake_pipe_is_one_resize() {
        let (source, mut other) = pipe_source();
        let (wake_read, mut wake_write) = UnixStream::pair().unwrap();
        let mut source = source.with_wake(wake_read).unwrap();
        wake_write.write_all(b"XXX").unwrap();
        assert_eq!(source.read_byte(None).unwrap(), Input::Resize);
        assert_eq!(
            source.read_byte(Some(Duration::ZERO)).unwrap(),
            Input::TimedOut
        );
        other.write_all(b"k").unwrap();
        assert_eq!(source.read_byte(None).unwrap(), Input::Byte(b'k'));
    }

    #[test]
    fn sigwinch_wakes_the_reader_as_a_resize() {
        let (source, _other) = pipe_source();
        let mut source = source.with_resize_wake().unwrap();
        signal_hook::low_level::raise(SIGWINCH).unwrap();
        assert_eq!(source.read_byte(Some(ms(2000))).unwrap(), Input::Resize);
        drop(source);
    }

    #[test]
    fn select_waits_like_poll() {
        let (source, mut other) = pipe_source();
        let (wake_read, mut wake_write) = UnixStream::pair().unwrap();
        let tty = source.tty().as_fd();
        let wake = Some(wake_read.as_fd());
        let none = Ready {
            tty: false,
            wake: false,
        };
        assert_eq!(wait_select(tty, wake, Some(Duration::ZERO)).unwrap(), none);
        assert_eq!(wait_select(tty, wake, Some(ms(2))).unwrap(), none);
        other.write_all(b"a").unwrap();
        let got = wait_select(tty, wake, None).unwrap();
        assert_eq!(
            got,
            Ready {
                tty: true,
                wake: false
            }
        );
        wake_write.write_all(b"X").unwrap();
        let got = wait_select(tty, None, Some(ms(2000))).unwrap();
        assert_eq!(
            got,
            Ready {
                tty: true,
                wake: false
            }
        );
        let got = wait_select(tty, wake, Some(ms(2000))).unwrap();
        assert_eq!(
            got,
            Ready {
                tty: true,
                wake: true
            }
        );
        #[cfg(not(target_os = "macos"))]
        assert_eq!(wait(tty, wake, Some(ms(2000))).unwrap(), got);
    }

    #[test]
    fn poll_timeouts_round_up() {
        #[cfg(not(target_os = "macos"))]
        {
            use nix::poll::PollTimeout;
            assert_eq!(poll_timeout(None), PollTimeout::NONE);
            assert_eq!(poll_timeout(Some(Duration::ZERO)), PollTimeout::ZERO);
            assert_eq!(
                poll_timeout(Some(Duration::from_micros(1))),
                PollTimeout::from(1u8)
            );
            assert_eq!(poll_timeout(Some(Duration::MAX)), PollTimeout::MAX);
        }
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// Reads through a borrowed source, so a test can look at the terminal afterwards.
    fn source_by_ref(source: &mut TtySource) -> impl ByteSource + '_ {
        struct ByRef<'a>(&'a mut TtySource);
        impl ByteSource for ByRef<'_> {
            fn read_byte(&mut self, timeout: Option<Duration>) -> io::Result<Input> {
                self.0.read_byte(timeout)
            }
        }
        ByRef(source)
    }
}

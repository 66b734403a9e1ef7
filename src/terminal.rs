//! The controlling terminal (`/dev/tty`) for the interactive front ends: opening it, always
//! restoring it, and ending the flow cleanly on signals.
//!
//! Everything a person sees is drawn on `/dev/tty`, never on stdout (stdout carries only the
//! result JSON). The pieces, all small:
//!
//! - [`open_term`]: a `console::Term` on `/dev/tty`, for the window size (keys are read by
//!   `crate::keys`, frames written by the terminal front end).
//! - [`RestoreGuard`]: while alive it owns the screen; on drop (every exit, panics included,
//!   since release builds keep unwinding) it calls [`restore`]: the terminal modes saved
//!   before the flow started are put back (raw mode off), bracketed paste is switched off, the
//!   cursor is made visible and, when the guard switched to the alternate screen, the
//!   person's original screen comes back, so no drawn line is left behind.
//! - [`suspend_job`]: Ctrl+Z: the terminal given back and the process group stopped, as a
//!   shell job; [`discard_typeahead`]: keys typed before the first prompt never answer it.
//! - [`write_tty`]: every write to the terminal goes out at once, without blocking, as far as
//!   the terminal takes it; what it does not take is queued for one writer thread, so a
//!   terminal that takes no output (an ssh link that stalls, a console frozen by a selection)
//!   blocks no other thread; [`drain_tty`] and [`flush_tty`] wait for it, a short while at
//!   most.
//! - [`claim_terminal`]: one run at a time on a terminal, so the modes saved are its own; the
//!   wait for another run is bounded and says who holds it (`holder`).
//! - [`SignalWatch`]: while asking, SIGTERM, SIGHUP and SIGQUIT end the flow with a cancelled
//!   result whose `details.error.code` is `aborted` (exit 128 + the signal), and SIGINT
//!   outside the front end's own Ctrl+C handling dismisses it like Ctrl+C (exit 130); the end
//!   of the caller's lifeline (`crate::lifeline`, [`lifeline_ended`]) ends it as a lost
//!   terminal (exit 1), putting back only the terminal's modes. A
//!   watcher thread writes the result through the callback it was given first, then restores
//!   the terminal (bounded, as every write to it), and exits the process. The normal finish
//!   path calls [`claim_result`] before writing, so exactly one of the two writes the result.
//!
//! A front end uses it like this (src/run.rs starts the watch for every interactive front end):
//!
//! ```ignore
//! let term = crate::terminal::open_term()?;
//! let _screen = crate::terminal::RestoreGuard::new(true); // alternate screen on
//! flow(&term); // frames on `term`
//! // `_screen` drops here (or during a panic): the terminal is back as it was.
//! ```

use nix::sys::signal::{SigSet, Signal};
use nix::sys::termios::{self, FlushArg, SetArg, Termios};
use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

mod holder;

/// Switches the alternate screen on (xterm private mode 1049) and homes the cursor.
const ENTER_ALT_SCREEN: &str = "\x1b[?1049h\x1b[H\x1b[2J";
/// Switches the alternate screen off; the person's original screen comes back.
const LEAVE_ALT_SCREEN: &str = "\x1b[?1049l";
/// Bracketed paste off, cursor visible, attributes reset.
const RESET_MODES: &str = "\x1b[?2004l\x1b[?25h\x1b[0m";
/// What an external editor may leave on that pi-ask never uses, put back: mouse reporting off
/// (X10/normal, button-event, any-event, SGR and urxvt encodings), normal cursor keys (`?1l`),
/// autowrap on (`?7h`), normal (not reverse) screen (`?5l`), the ASCII charset in G0
/// (`ESC(B`), and the cursor visible (a frame drawn after hides it again when it should).
const EDITOR_RESET: &str =
    "\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l\x1b[?1l\x1b[?7h\x1b[?5l\x1b(B\x1b[?25h";

/// How long the watcher lets the front end handle a SIGINT itself (console raises SIGINT
/// when it reads Ctrl+C, and the prompt then returns an `Interrupted` error the front end
/// turns into a dismissal) before it dismisses the flow on its own.
const SIGINT_GRACE: Duration = Duration::from_millis(400);

/// The terminal modes saved before the flow, restored by [`restore`].
struct Saved {
    tty: File,
    termios: Termios,
}

static SAVED: Mutex<Option<Saved>> = Mutex::new(None);
/// Whether a [`RestoreGuard`] switched to the alternate screen and has not left it yet.
static ALT_SCREEN: AtomicBool = AtomicBool::new(false);
/// Why a run ends outside the front end's own loop, for [`say_farewell`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Departure {
    /// This signal (SIGINT: a dismissal; SIGTERM, SIGHUP, SIGQUIT: an abort).
    Signal(i32),
    /// A panic.
    Panic,
}

/// What the inline terminal front end leaves when the run ends outside its own loop (a
/// signal, a panic): the bytes that put the final transcript, ending with a line saying why,
/// in place of its live region ([`set_farewell`]).
pub type Farewell = Box<dyn Fn(Departure) -> String + Send>;

static FAREWELL: Mutex<Option<Farewell>> = Mutex::new(None);

/// Sets (or clears) what [`say_farewell`] writes. The inline terminal front end keeps it up
/// to date after every frame and clears it when it writes its own final transcript.
pub fn set_farewell(farewell: Option<Farewell>) {
    *FAREWELL.lock().unwrap_or_else(|e| e.into_inner()) = farewell;
}

/// Writes the final transcript for `ending` in place of the inline front end's live region,
/// once; nothing when no front end set one ([`set_farewell`]). Never fails.
pub fn say_farewell(departure: Departure) {
    let farewell = FAREWELL.lock().unwrap_or_else(|e| e.into_inner()).take();
    if let Some(farewell) = farewell {
        let bytes = farewell(departure);
        let bytes = crate::text::terminal_charset().guard(&bytes).into_owned();
        let _ = write_tty(bytes.as_bytes());
    }
}

/// Most bytes waiting for a terminal that takes no output before [`write_tty`] gives up on
/// it (16 MiB: thousands of frames).
pub const MAX_PENDING_BYTES: usize = 16 * 1024 * 1024;

/// The writer thread writes in pieces of this many bytes, noting its progress after each.
const WRITE_PIECE: usize = 4096;

/// A terminal that took no byte for this long takes no output ([`drain_tty`] stops waiting).
pub const STALLED_AFTER: Duration = Duration::from_millis(150);

/// How long the end of a run waits for what is still to be written to the terminal
/// ([`flush_tty`]): a terminal that takes no output holds the result up no longer.
const END_DRAIN: Duration = Duration::from_millis(400);

/// The bytes on their way to the terminal: written at once, without blocking, while nothing
/// waits before them; the rest by one writer thread, in order, so no other thread ever blocks
/// on a terminal that takes no output (an ssh link that stalls, a console frozen by a
/// selection).
#[derive(Default)]
struct Outgoing {
    /// `/dev/tty` opened non-blocking, for the writes made at once (its own open file
    /// description: the flag reaches no other program's).
    direct: Option<File>,
    /// Bytes not handed to the writer yet.
    pending: Vec<u8>,
    /// Bytes the writer is writing now.
    writing: usize,
    /// When the writer last got on: took bytes or wrote a piece of them.
    progress: Option<Instant>,
    /// Why the terminal cannot be written, once a write failed.
    failed: Option<(io::ErrorKind, String)>,
    /// Whether the writer thread runs.
    started: bool,
}

struct Writer {
    state: Mutex<Outgoing>,
    /// Signalled when bytes are queued (for the writer) and when they are written (for
    /// [`drain_tty`]).
    changed: std::sync::Condvar,
}

static WRITER: Writer = Writer {
    state: Mutex::new(Outgoing {
        direct: None,
        pending: Vec::new(),
        writing: 0,
        progress: None,
        failed: None,
        started: false,
    }),
    changed: std::sync::Condvar::new(),
};

impl Writer {
    fn lock(&self) -> std::sync::MutexGuard<'_, Outgoing> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The writer thread: takes what is pending, writes it, again, until a write fails.
    fn run(&self, mut tty: File) {
        loop {
            let bytes = {
                let mut state = self.lock();
                while state.pending.is_empty() {
                    state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
                }
                let bytes = std::mem::take(&mut state.pending);
                state.writing = bytes.len();
                state.progress = Some(Instant::now());
                bytes
            };
            // In pieces, so a slow terminal is told from one that takes nothing.
            let mut written = Ok(());
            for piece in bytes.chunks(WRITE_PIECE) {
                written = tty.write_all(piece).and_then(|()| tty.flush());
                if written.is_err() {
                    break;
                }
                self.lock().progress = Some(Instant::now());
            }
            let mut state = self.lock();
            state.writing = 0;
            if let Err(e) = written {
                state.failed = Some((e.kind(), e.to_string()));
                state.pending = Vec::new();
                drop(state);
                self.changed.notify_all();
                return;
            }
            drop(state);
            self.changed.notify_all();
        }
    }
}

/// Writes `bytes` to `/dev/tty` and returns at once: as much as the terminal takes now is
/// written on the calling thread (a non-blocking write, when nothing queued waits before it),
/// the rest is queued for the writer thread, which writes everything in the order given.
/// Every write to the terminal goes through it (frames, the transcript, the restoring
/// sequences, plain mode's lines); rustyline's editors write on their own, so [`drain_tty`]
/// comes first.
///
/// Errors: no terminal; an earlier write failed (the terminal went away: that error); or more
/// than [`MAX_PENDING_BYTES`] are waiting (the terminal takes no output).
pub fn write_tty(bytes: &[u8]) -> io::Result<()> {
    let mut state = WRITER.lock();
    if let Some((kind, why)) = &state.failed {
        return Err(io::Error::new(*kind, why.clone()));
    }
    let mut bytes = bytes;
    if state.pending.is_empty() && state.writing == 0 {
        match write_now(&mut state, bytes) {
            Ok(taken) if taken == bytes.len() => return Ok(()),
            Ok(taken) => bytes = &bytes[taken..],
            Err(e) => {
                state.failed = Some((e.kind(), e.to_string()));
                return Err(e);
            }
        }
    }
    if !state.started {
        let tty = open_tty()?;
        std::thread::Builder::new()
            .name("pi-ask-terminal".into())
            .spawn(move || WRITER.run(tty))?;
        state.started = true;
    }
    if state.pending.len() + state.writing + bytes.len() > MAX_PENDING_BYTES {
        return Err(io::Error::new(
            io::ErrorKind::TimedOut,
            "the terminal takes no output",
        ));
    }
    state.pending.extend_from_slice(bytes);
    drop(state);
    WRITER.changed.notify_all();
    Ok(())
}

/// Writes what the terminal takes of `bytes` without waiting; how many bytes it took.
///
/// Errors: the terminal cannot be opened or went away.
fn write_now(state: &mut Outgoing, bytes: &[u8]) -> io::Result<usize> {
    if state.direct.is_none() {
        state.direct = Some(open_tty_nonblocking()?);
    }
    let Some(tty) = state.direct.as_mut() else {
        return Ok(0);
    };
    let mut taken = 0;
    while taken < bytes.len() {
        match tty.write(&bytes[taken..]) {
            Ok(0) => break,
            Ok(n) => taken += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
            Err(e) => return Err(e),
        }
    }
    Ok(taken)
}

/// Waits at most `within` until every byte queued by [`write_tty`] is written (or writing
/// failed); whether nothing is left to write. A terminal that took nothing for
/// [`STALLED_AFTER`] is not waited for any longer.
pub fn drain_tty(within: Duration) -> bool {
    let deadline = Instant::now() + within;
    let mut state = WRITER.lock();
    loop {
        if state.failed.is_some() {
            return true;
        }
        if state.pending.is_empty() && state.writing == 0 {
            return true;
        }
        let now = Instant::now();
        let stalled = state.writing > 0
            && state
                .progress
                .is_some_and(|at| now.duration_since(at) >= STALLED_AFTER);
        if now >= deadline || stalled {
            return false;
        }
        let wait = (deadline - now).min(STALLED_AFTER);
        state = WRITER
            .changed
            .wait_timeout(state, wait)
            .unwrap_or_else(|e| e.into_inner())
            .0;
    }
}

/// Waits a short while at most (400 ms) for what is still to be written to the terminal, as a
/// run ends: before the terminal is restored, before the result is written (stdout may be
/// the same terminal), before the process exits. Whether everything was written.
pub fn flush_tty() -> bool {
    drain_tty(END_DRAIN)
}

/// `/dev/tty` through [`write_tty`], as an `io::Write` (plain mode's lines): a write queues,
/// a flush returns at once.
#[derive(Debug, Clone, Copy, Default)]
pub struct TtyOut;

impl Write for TtyOut {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        write_tty(buf)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Writes `line` and a newline on stderr, ignoring a failure: stderr may be the terminal that
/// just went away, and a message must never end the thread that writes the result.
pub fn say(line: &str) {
    // In the terminal's charset: ASCII only when the locale is not UTF-8 (`text::charset`).
    let line = crate::text::terminal_charset().write(line);
    let mut err = io::stderr().lock();
    let _ = writeln!(err, "{line}");
    let _ = err.flush();
}

/// Whether no front end has drawn on the terminal yet (see [`set_quiet`]).
static QUIET: AtomicBool = AtomicBool::new(false);

/// Tells [`restore`] and the signal watch that nothing has been drawn on the terminal yet
/// (`true`: the payload is being read, or no front end uses the terminal): then they write
/// nothing to it. src/run.rs sets it at the start and clears it when an interactive front end
/// starts.
pub fn set_quiet(on: bool) {
    QUIET.store(on, Ordering::SeqCst);
}

/// Whether an external editor was started during the run (see [`editor_starts`]).
static EDITOR_RAN: AtomicBool = AtomicBool::new(false);

/// Tells [`restore`] that an external editor (Ctrl+G) is about to get the terminal: from
/// then on every ending also writes the editor's reset (mouse reporting off, normal cursor
/// keys, autowrap, normal screen, ASCII charset, cursor visible), since an editor ended by
/// `--timeout` or a signal, or one that exits with its modes changed, would leave them to the
/// shell (docs/interactive.md, "Ending from outside").
pub fn editor_starts() {
    EDITOR_RAN.store(true, Ordering::SeqCst);
}

/// After the external editor returned (however it ended): the editor's reset (see
/// [`editor_starts`]) written, in the foreground and never in plain or quiet mode (a dumb
/// terminal would print it), as [`restore`] writes its own. Never fails (a terminal that
/// went away needs no reset).
pub fn editor_returned() {
    if in_the_foreground() && !PLAIN.load(Ordering::SeqCst) && !QUIET.load(Ordering::SeqCst) {
        let _ = write_tty(EDITOR_RESET.as_bytes());
    }
}

/// Whether the plain front end is asking (see [`set_plain`]).
static PLAIN: AtomicBool = AtomicBool::new(false);

/// Tells [`restore`] that the plain front end owns the terminal: it then writes no escape
/// sequence at all (a dumb terminal would print them) and only puts the saved modes back.
/// src/run.rs sets it before the signal watch starts.
pub fn set_plain(on: bool) {
    PLAIN.store(on, Ordering::SeqCst);
}

/// `/dev/tty` for reading and writing, in blocking mode: a new descriptor (`dup`) of the one
/// open file description this run made at its first call, since opening a terminal costs
/// several times as much as a `dup`.
///
/// Errors: no controlling terminal (`ENXIO`), or it cannot be opened.
pub fn open_tty() -> io::Result<File> {
    static TTY: Mutex<Option<File>> = Mutex::new(None);
    shared_tty(&TTY, OpenOptions::new().read(true).write(true))
}

/// [`open_tty`] in non-blocking mode (`O_NONBLOCK`), for the frame writer and the key reader,
/// apart from the blocking one: the mode belongs to the open file description, which every
/// `dup` shares.
///
/// Errors: as [`open_tty`].
pub fn open_tty_nonblocking() -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    static TTY: Mutex<Option<File>> = Mutex::new(None);
    let flags = nix::fcntl::OFlag::O_NONBLOCK.bits();
    shared_tty(
        &TTY,
        OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags(flags),
    )
}

/// A `dup` of the `/dev/tty` in `cache`, opened with `options` the first time.
fn shared_tty(cache: &Mutex<Option<File>>, options: &OpenOptions) -> io::Result<File> {
    let mut tty = cache.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(file) = tty.as_ref() {
        return file.try_clone();
    }
    let file = options.open("/dev/tty")?;
    let copy = file.try_clone()?;
    *tty = Some(file);
    Ok(copy)
}

/// A `console::Term` that draws on `/dev/tty` (never stdout). Keys are read by console from
/// stdin when stdin is a terminal, otherwise from `/dev/tty`. Also saves the terminal modes
/// for [`restore`] (see [`save_modes`]).
///
/// Errors: as [`open_tty`].
pub fn open_term() -> io::Result<console::Term> {
    save_modes();
    let read = open_tty()?;
    let write = open_tty()?;
    Ok(console::Term::read_write_pair(read, write))
}

/// The lock that makes this run the only pi-ask asking on its terminal, held to the exit.
static CLAIM: Mutex<Option<nix::fcntl::Flock<File>>> = Mutex::new(None);

/// How often [`claim_terminal`] tries again while another run holds the terminal.
const CLAIM_RETRY: Duration = Duration::from_millis(50);

/// How long a run waits for another run that holds its terminal and does not ask on it
/// (stopped, orphaned, in the background), or that cannot be told, when no `--timeout` is
/// given (`PI_ASK_TERMINAL_WAIT` changes it; 0: no wait for such a holder): then it gives up
/// with `terminal_busy`.
pub const TERMINAL_WAIT: Duration = Duration::from_secs(10);

/// How long a run waits in all for another run that asks on its terminal (a person answers
/// it: `sh -c 'pi-ask a & pi-ask b'` asks one after the other) when no `--timeout` is given:
/// then it gives up with `terminal_busy`. Time the holder asks does not count towards
/// [`TERMINAL_WAIT`].
pub const ASKING_HOLDER_WAIT: Duration = Duration::from_secs(30 * 60);

/// How [`claim_terminal`] ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// This run holds the terminal now (or there is no lock to take).
    Held,
    /// `--timeout` passed while waiting (for the foreground, or for another run).
    TimedOut,
    /// The wait's bound passed while another run held the terminal (no `--timeout`); who
    /// held it and how long was waited, the `terminal_busy` result's message.
    Busy(String),
    /// Esc while waiting: the person does not want to wait.
    Dismissed,
    /// Ctrl+C while waiting (read as a key; in cooked mode it is SIGINT, the signal watch's).
    Interrupted,
}

/// Waits until this run is in the foreground of its terminal and no other pi-ask asks on it,
/// then holds it for the rest of the run (an exclusive `flock` on the terminal's device, which
/// the exit gives up), so two runs on one terminal (`sh -c 'pi-ask a & pi-ask b'`, or two tool
/// calls at once) ask one after the other and each saves the modes the terminal had before it,
/// not the other's raw mode. Call it before anything that saves the terminal's modes
/// ([`save_modes`]).
///
/// A run started as a background job (its process group is not the terminal's foreground
/// one: `pi-ask q.json &`, or a caller that gave it a process group of its own) would stop at
/// its first change of the terminal's modes (SIGTTOU) or read of it (SIGTTIN), where neither
/// `--timeout` nor a signal could end it. It waits here instead, the signal watch running,
/// until it is brought to the foreground (`fg`), drawing nothing; `timeout` bounds that wait.
///
/// Waiting for another run (docs/interactive.md, "Ending from outside": two runs on one terminal) lasts `timeout`
/// ([`Claim::TimedOut`]); without one, `busy` of the time the holder does not ask or cannot
/// be told (0: no wait for such a holder), and [`ASKING_HOLDER_WAIT`] in all
/// ([`Claim::Busy`]). When the holder is not asking (stopped, orphaned, in the background:
/// [`holder::Standing`]) the wait says once on the terminal who holds it and reads the keys
/// typed, the terminal in non-canonical mode without echo meanwhile ([`WaitModes`]: the
/// modes found are put back on every way out): Esc ([`Claim::Dismissed`]) and Ctrl+C
/// ([`Claim::Interrupted`], or SIGINT) end it. While the holder asks, or may ask (it cannot
/// be told), its keys and its screen are its own: the wait reads and writes nothing.
///
/// Without a device to lock (no `/proc/self/stat`, or the terminal's device is not found under
/// `/dev`) it returns [`Claim::Held`] once in the foreground.
pub fn claim_terminal(timeout: Option<Duration>, busy: Duration) -> Claim {
    use nix::fcntl::{Flock, FlockArg};
    let start = Instant::now();
    let mut stat = own_stat();
    if stat.is_some_and(|s| s.in_the_background()) {
        // Waiting may take long: signals must end it.
        let _ = watch_now();
        if !wait_for_the_foreground(timeout.and_then(|w| start.checked_add(w))) {
            return Claim::TimedOut;
        }
        stat = own_stat();
    }
    let Some(mut device) = stat.and_then(|s| terminal_device(s.tty)) else {
        return Claim::Held;
    };
    let mut wait = LockWait::default();
    // The time the holder did not ask, or could not be told: what `busy` bounds.
    let mut stuck = Duration::ZERO;
    let mut last = Instant::now();
    loop {
        match Flock::lock(device, FlockArg::LockExclusiveNonblock) {
            Ok(lock) => {
                *CLAIM.lock().unwrap_or_else(|e| e.into_inner()) = Some(lock);
                return Claim::Held;
            }
            Err((file, nix::errno::Errno::EWOULDBLOCK)) => device = file,
            // Locks are not supported there: go on as before.
            Err(_) => return Claim::Held,
        }
        if wait
            .looked
            .is_none_or(|at| at.elapsed() >= HOLDER_LOOK_EVERY)
        {
            wait.holder = holder::Holder::of(&device, wait.holder.as_ref().map(|h| h.pid));
            wait.looked = Some(Instant::now());
            wait.unknown_looks = if wait.holder.is_some() {
                0
            } else {
                wait.unknown_looks.saturating_add(1)
            };
        }
        let now = own_stat();
        let tpgid = now.map_or(-1, |s| s.tpgid);
        let standing = holder::Standing::of(wait.holder.as_ref(), tpgid);
        if standing != holder::Standing::Asking {
            stuck += last.elapsed();
        }
        last = Instant::now();
        match timeout {
            Some(timeout) if start.elapsed() >= timeout => return Claim::TimedOut,
            Some(_) => {}
            // `busy` 0: no wait for a holder that does not ask; one that asks is waited for.
            // Not known at one look may be a lock given up as it was looked for: two looks.
            None if stuck >= busy
                && (standing == holder::Standing::NotAsking
                    || standing == holder::Standing::Unknown && wait.unknown_looks >= 2) =>
            {
                return Claim::Busy(busy_message(wait.holder.as_ref(), busy));
            }
            None if start.elapsed() >= ASKING_HOLDER_WAIT => {
                return Claim::Busy(format!(
                    "the terminal is busy: {} asked on it for {}, the longest a run waits",
                    holder_named(wait.holder.as_ref()),
                    result_seconds(ASKING_HOLDER_WAIT)
                ));
            }
            None => {}
        }
        // Waiting may take long: signals must end it.
        let _ = watch_now();
        // A holder that asks, or may ask, has the keys and the screen; sent to the background
        // meanwhile, a read would stop this run (SIGTTIN): it only waits.
        if standing != holder::Standing::NotAsking || now.is_some_and(|s| s.in_the_background()) {
            wait.modes = None;
            std::thread::sleep(CLAIM_RETRY);
            continue;
        }
        if wait.modes.is_none() {
            wait.modes = WaitModes::set();
        }
        if !wait.said {
            wait.said = true;
            let left = match timeout {
                Some(timeout) => timeout.saturating_sub(start.elapsed()),
                None => busy.saturating_sub(stuck),
            };
            say_waiting(wait.holder.as_ref(), left);
        }
        match wait.key(CLAIM_RETRY) {
            Some(holder::WaitKey::Esc) => return Claim::Dismissed,
            Some(holder::WaitKey::CtrlC) => return Claim::Interrupted,
            None => {}
        }
    }
}

/// `another run (pid 4242 (pi-ask), stopped)`, or `another run` when the holder is not known.
fn holder_named(holder: Option<&holder::Holder>) -> String {
    holder.map_or_else(
        || "another run".to_string(),
        |h| format!("another run ({})", h.describe()),
    )
}

/// The `terminal_busy` message after `busy` of a holder that does not ask, or that cannot be
/// told.
fn busy_message(holder: Option<&holder::Holder>, busy: Duration) -> String {
    match holder {
        Some(_) => format!(
            "the terminal is busy: {} held it for {} without asking, the longest a run waits",
            holder_named(holder),
            result_seconds(busy)
        ),
        None => format!(
            "the terminal is busy: another process held it for {}, and pi-ask cannot tell \
             which or whether it asks (it is not seen in /proc), the longest a run waits",
            result_seconds(busy)
        ),
    }
}

/// The terminal's modes while the waiting line is shown ([`claim_terminal`], a holder that
/// does not ask): canonical mode and echo off, so Esc is read alone and typing leaves no
/// trace; Ctrl+C is SIGINT as before (or read as a key when the modes found have `ISIG` off),
/// and Ctrl+Z is off (stopped so, the run would leave the shell these modes). The modes found
/// are put back when the value is dropped (every return of the wait) and by [`restore`]
/// meanwhile (a signal's or the lifeline's ending): they are the saved modes until then.
struct WaitModes {
    tty: File,
    /// The modes found.
    found: Termios,
    /// The modes set.
    set: Termios,
    /// Whether the modes found are [`SAVED`]'s, to be cleared again (nothing was saved yet).
    saved_here: bool,
}

impl WaitModes {
    /// Sets the waiting modes; `None` (nothing changed) without a terminal or when it refuses.
    fn set() -> Option<WaitModes> {
        use termios::{LocalFlags, SpecialCharacterIndices as Cc};
        let tty = open_tty().ok()?;
        let found = termios::tcgetattr(&tty).ok()?;
        let mut set = found.clone();
        set.local_flags
            .remove(LocalFlags::ICANON | LocalFlags::ECHO | LocalFlags::ECHONL);
        set.control_chars[Cc::VMIN as usize] = 1;
        set.control_chars[Cc::VTIME as usize] = 0;
        // _POSIX_VDISABLE.
        set.control_chars[Cc::VSUSP as usize] = 0;
        let mut saved = SAVED.lock().unwrap_or_else(|e| e.into_inner());
        let saved_here = saved.is_none();
        if saved_here {
            *saved = Some(Saved {
                tty: tty.try_clone().ok()?,
                termios: found.clone(),
            });
        }
        if termios::tcsetattr(&tty, SetArg::TCSANOW, &set).is_err() {
            if saved_here {
                *saved = None;
            }
            return None;
        }
        Some(WaitModes {
            tty,
            found,
            set,
            saved_here,
        })
    }
}

impl Drop for WaitModes {
    /// Puts the modes found back, unless another process set its own since (the holder,
    /// continued, takes the terminal) or the shell has the terminal (this run is in the
    /// background now).
    fn drop(&mut self) {
        use termios::SpecialCharacterIndices as Cc;
        let mut saved = SAVED.lock().unwrap_or_else(|e| e.into_inner());
        let ours = termios::tcgetattr(&self.tty).is_ok_and(|now| {
            now.local_flags == self.set.local_flags
                && now.control_chars[Cc::VSUSP as usize]
                    == self.set.control_chars[Cc::VSUSP as usize]
        });
        if ours && in_the_foreground() {
            let _ = termios::tcsetattr(&self.tty, SetArg::TCSANOW, &self.found);
        }
        if self.saved_here {
            *saved = None;
        }
    }
}

/// How often [`claim_terminal`] looks again who holds the terminal and how it stands.
const HOLDER_LOOK_EVERY: Duration = Duration::from_millis(500);

/// What [`claim_terminal`] knows while it waits for another run.
#[derive(Default)]
struct LockWait {
    /// The holder, as last looked up (`None`: not known).
    holder: Option<holder::Holder>,
    /// When it was looked up.
    looked: Option<Instant>,
    /// How many looks in a row found no holder.
    unknown_looks: u32,
    /// Whether the waiting line was written.
    said: bool,
    /// Bytes typed and not yet told apart ([`holder::wait_key`]).
    typed: Vec<u8>,
    /// The terminal's modes while the waiting line is shown; put back when dropped.
    modes: Option<WaitModes>,
}

impl LockWait {
    /// Waits at most `within` for keys on the terminal and reads them (in the modes
    /// [`WaitModes`] set); the key that ends the wait, if one came.
    fn key(&mut self, within: Duration) -> Option<holder::WaitKey> {
        let Ok(mut tty) = open_tty_nonblocking() else {
            std::thread::sleep(within);
            return None;
        };
        if !crate::keys::wait_readable(&tty, within).unwrap_or(false) {
            // Nothing more came: a lone Esc is Esc.
            return holder::wait_key(&std::mem::take(&mut self.typed), true);
        }
        let mut buf = [0u8; 256];
        match tty.read(&mut buf) {
            Ok(n) if n > 0 => self.typed.extend_from_slice(&buf[..n]),
            _ => return None,
        }
        // Bytes of one sequence come together; an Esc alone waits for the escape delay.
        let more = crate::keys::wait_readable(&tty, crate::keys::escape_delay()).unwrap_or(false);
        let key = holder::wait_key(&self.typed, !more);
        if key.is_some() || !more || self.typed.len() > 64 {
            self.typed.clear();
        }
        key
    }
}

/// `10 seconds`, `1.5 seconds`, `1 second`.
fn result_seconds(time: Duration) -> String {
    crate::result::timeout_message(time)
        .trim_start_matches("no key for ")
        .to_string()
}

/// The one line a run waiting for another run's terminal writes on it (from the column
/// where the cursor is: a raw-mode terminal needs `\r`).
fn say_waiting(holder: Option<&holder::Holder>, left: Duration) {
    let who = holder.map_or_else(|| "another run".to_string(), holder::Holder::describe);
    let line = format!(
        "\r\npi-ask: this terminal is held by {who}. Waiting up to {}; Esc or Ctrl+C stops \
         waiting.\r\n",
        result_seconds(Duration::from_secs(left.as_secs_f64().ceil() as u64))
    );
    let line = crate::text::terminal_charset().write(&line);
    let _ = write_tty(line.as_bytes());
}

/// What `/proc/self/stat` says of this process and its terminal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ProcStat {
    /// Its process group.
    pgrp: i64,
    /// Its controlling terminal's device number (0: none).
    tty: u64,
    /// The foreground process group of that terminal (-1: none).
    tpgid: i64,
}

impl ProcStat {
    /// Reads a `/proc/<pid>/stat` line: after the command name in parentheses (which may hold
    /// anything, a `)` too), state, ppid, pgrp, session, tty_nr, tpgid.
    #[cfg(test)]
    fn parse(line: &str) -> Option<ProcStat> {
        ProcStat::from(crate::proc_stat::Stat::parse(line)?)
    }

    /// The fields of a whole line ([`crate::proc_stat::Stat`]); `None` when it stops before
    /// the terminal's foreground group.
    fn from(stat: crate::proc_stat::Stat) -> Option<ProcStat> {
        Some(ProcStat {
            pgrp: stat.pgrp,
            tty: stat.tty?,
            tpgid: stat.tpgid?,
        })
    }

    /// Whether the process has a terminal whose foreground process group is another one.
    fn in_the_background(&self) -> bool {
        self.tty != 0 && self.tpgid > 0 && self.tpgid != self.pgrp
    }
}

/// This process's [`ProcStat`]; `None` without procfs.
fn own_stat() -> Option<ProcStat> {
    ProcStat::from(crate::proc_stat::Stat::of("self")?)
}

/// The controlling terminal's own device (`/dev/pts/3`), opened for reading: `/dev/tty` is
/// one device for every terminal, so it cannot be locked for one. Found by its device number
/// `rdev` ([`ProcStat::tty`]) among the standard streams' terminals, `/dev/pts/*` and
/// `/dev/tty*`.
fn terminal_device(rdev: u64) -> Option<File> {
    use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt};
    if rdev == 0 {
        return None;
    }
    let streams = (0..3).filter_map(|fd| std::fs::read_link(format!("/proc/self/fd/{fd}")).ok());
    // Listed only when no standard stream is the terminal (a folder read is costly).
    let listed = |dir: &'static str, prefix: &'static str| {
        std::iter::once(dir)
            .flat_map(std::fs::read_dir)
            .flatten()
            .flatten()
            .filter(move |e| e.file_name().to_string_lossy().starts_with(prefix))
            .map(|e| e.path())
    };
    let path = streams
        .chain(listed("/dev/pts", ""))
        .chain(listed("/dev", "tty"))
        .find(|path| {
            std::fs::metadata(path)
                .is_ok_and(|m| m.file_type().is_char_device() && m.rdev() == rdev)
        })?;
    OpenOptions::new()
        .read(true)
        .custom_flags(nix::fcntl::OFlag::O_NOCTTY.bits() | nix::fcntl::OFlag::O_NONBLOCK.bits())
        .open(path)
        .ok()
}

/// Saves the current modes of `/dev/tty` for [`restore`], once (later calls keep the first
/// saved modes, taken before any prompt switched to raw mode). Does nothing without a
/// terminal.
pub fn save_modes() {
    let mut saved = SAVED.lock().unwrap_or_else(|e| e.into_inner());
    if saved.is_some() {
        return;
    }
    let Ok(tty) = open_tty() else { return };
    if let Ok(termios) = termios::tcgetattr(&tty) {
        *saved = Some(Saved { tty, termios });
    }
}

/// Puts the terminal back as it was before the flow: the saved modes (raw mode off, echo
/// on), bracketed paste off, cursor visible, the external editor's reset when one ran
/// ([`editor_starts`]), and the original screen when the alternate screen is in use. Safe to
/// call more than once and from any thread; never fails (a terminal that went away needs no
/// restoring). In plain mode ([`set_plain`]) it writes
/// nothing, only the modes are put back. In the background (a run that timed out there after
/// a stop and `bg`) the terminal is its foreground job's: nothing of pi-ask's is on it.
pub fn restore() {
    if !in_the_foreground() {
        return;
    }
    let mut out = String::from(RESET_MODES);
    if EDITOR_RAN.load(Ordering::SeqCst) {
        out.push_str(EDITOR_RESET);
    }
    if ALT_SCREEN.swap(false, Ordering::SeqCst) {
        out.push_str(LEAVE_ALT_SCREEN);
    }
    if PLAIN.load(Ordering::SeqCst) || QUIET.load(Ordering::SeqCst) {
        out.clear();
    }
    // What is still to be written goes first, for a short while at most: a terminal that
    // takes no output never holds the run up (what it missed is lost with it).
    if !out.is_empty() {
        let _ = write_tty(out.as_bytes());
    }
    flush_tty();
    // Once more: the shell takes its terminal back as its job ends (the caller gone, its
    // lifeline ended a moment before), and then the modes are its own.
    if !in_the_foreground() {
        return;
    }
    let saved = SAVED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(s) = saved.as_ref() {
        // Typed-ahead input (the rest of a paste, keys pressed while exiting) is
        // discarded, so it never lands in the shell after pi-ask ends. Neither call waits
        // for output to drain.
        let _ = termios::tcflush(&s.tty, FlushArg::TCIFLUSH);
        let _ = termios::tcsetattr(&s.tty, SetArg::TCSANOW, &s.termios);
    }
}

/// Ctrl+Z in raw mode: gives the terminal back as a shell job stops (the saved modes, cursor
/// visible, the person's screen), stops the whole process group with SIGTSTP (as pi and
/// shells do: stopping only pi-ask would leave a parent waiting in the foreground), and, once
/// continued (`fg`), switches back to the alternate screen. The caller puts its own modes
/// back (raw mode) and redraws everything.
pub fn suspend_job() {
    let alternate = ALT_SCREEN.load(Ordering::SeqCst);
    restore();
    let _ = nix::sys::signal::kill(nix::unistd::Pid::from_raw(0), nix::sys::signal::SIGTSTP);
    if alternate && write_tty(ENTER_ALT_SCREEN.as_bytes()).is_ok() {
        ALT_SCREEN.store(true, Ordering::SeqCst);
    }
}

/// Discards what was typed on `/dev/tty` and not read yet: keys typed before the first screen
/// never answer a question (docs/interactive.md, \"Keys\").
pub fn discard_typeahead() {
    if let Ok(tty) = open_tty() {
        let _ = termios::tcflush(&tty, FlushArg::TCIFLUSH);
    }
}

/// Discards what was typed on `/dev/tty` and not read as a run ends (a half-typed line, keys
/// typed while it ended): it never reaches the shell or the program that reads the terminal
/// next (docs/interactive.md, "Type-ahead"). The terminal front end's [`restore`] does the
/// same; plain mode, which restores nothing, calls this. Only in the foreground (a flush
/// from the background would stop the process, SIGTTOU).
pub fn discard_pending_input() {
    if in_the_foreground() {
        discard_typeahead();
    }
}

/// Owns the screen while a front end asks; restores the terminal when dropped (see
/// [`restore`]), including while a panic unwinds.
#[derive(Debug)]
#[must_use = "the terminal is restored when the guard is dropped"]
pub struct RestoreGuard {
    _private: (),
}

impl RestoreGuard {
    /// Saves the terminal modes and, when `alternate_screen` is true, switches to the
    /// alternate screen so whatever the flow draws disappears when it ends.
    pub fn new(alternate_screen: bool) -> Self {
        save_modes();
        if alternate_screen && write_tty(ENTER_ALT_SCREEN.as_bytes()).is_ok() {
            ALT_SCREEN.store(true, Ordering::SeqCst);
        }
        RestoreGuard { _private: () }
    }
}

impl Drop for RestoreGuard {
    fn drop(&mut self) {
        if std::thread::panicking() {
            say_farewell(Departure::Panic);
        }
        set_farewell(None);
        restore();
    }
}

/// Nobody has claimed the result yet; no watch is running.
const IDLE: u8 = 0;
/// A [`SignalWatch`] is running; the result is not claimed.
const ARMED: u8 = 1;
/// The normal finish path claimed the result.
const FINISHED: u8 = 2;
/// The watcher thread claimed the result and is ending the process.
const SIGNALLED: u8 = 3;

static STATE: AtomicU8 = AtomicU8::new(IDLE);

/// Signals that are received and ignored while the signal watch runs (their default would end
/// the process with no result): SIGUSR1, SIGUSR2, SIGALRM.
pub const IGNORED: [i32; 3] = [
    signal_hook::consts::SIGUSR1,
    signal_hook::consts::SIGUSR2,
    signal_hook::consts::SIGALRM,
];

/// The terminating signals, in the order that decides between signals the watcher finds
/// already received together; [`RECEIVED`] is indexed by position in it.
const TERMINATING: [i32; 3] = [SIGTERM, SIGHUP, SIGQUIT];

/// Whether each of [`TERMINATING`] has arrived. Set inside the signal handler itself
/// (signal-hook's safe flag action), before an interrupted read returns to the front end, so
/// the normal finish path can see that the watcher thread is about to end the flow.
static RECEIVED: [AtomicBool; 3] = [
    AtomicBool::new(false),
    AtomicBool::new(false),
    AtomicBool::new(false),
];

/// Whether a terminating signal (SIGTERM, SIGHUP, SIGQUIT) has arrived, or the caller's
/// lifeline ended ([`lifeline_ended`]): either way the signal watch ends the run.
pub fn terminating_received() -> bool {
    RECEIVED.iter().any(|r| r.load(Ordering::SeqCst)) || LIFELINE_ENDED.load(Ordering::SeqCst)
}

/// The signal that tells the watch the caller's lifeline ended: the kernel's parent-death
/// signal (`crate::lifeline::ask_the_kernel`), and the wake [`lifeline_ended`] sends. SIGUSR2
/// from anyone else, while the parent is the one pi-ask started under, is ignored as before.
pub const LIFELINE_SIGNAL: i32 = signal_hook::consts::SIGUSR2;

/// Whether the run has a lifeline (`--lifeline-fd`): then [`LIFELINE_SIGNAL`] with a changed
/// parent ends it.
static LIFELINE_GIVEN: AtomicBool = AtomicBool::new(false);
/// Whether the caller's lifeline ended; why, in [`LIFELINE_WHY`].
static LIFELINE_ENDED: AtomicBool = AtomicBool::new(false);
/// Why the caller's lifeline ended, the result's message ("the caller (pid 4242) ended").
static LIFELINE_WHY: Mutex<Option<String>> = Mutex::new(None);

/// Records that the caller's lifeline ended (`why` becomes the `terminal_lost` result's
/// message, the first one kept) and wakes the signal watch, which ends the run as a lost
/// terminal: the result written where it goes, the terminal's modes put back without drawing
/// (nothing in the background), exit 1. Without a running watch (its handlers could not be
/// set up) the modes are put back and the process exits 1 at once, with no result.
pub fn lifeline_ended(why: String) {
    record_the_lifeline_end(why);
    if STATE.load(Ordering::SeqCst) == IDLE {
        restore();
        crate::leftovers::exit(crate::exit_codes::ExitCode::Cancelled.code());
    }
    let _ = watch_now();
    let _ = nix::sys::signal::kill(nix::unistd::Pid::this(), Signal::SIGUSR2);
}

/// Whether the caller's lifeline ended ([`lifeline_ended`], or the kernel's word).
pub fn the_caller_is_gone() -> bool {
    LIFELINE_ENDED.load(Ordering::SeqCst)
}

fn record_the_lifeline_end(why: String) {
    let mut slot = LIFELINE_WHY.lock().unwrap_or_else(|e| e.into_inner());
    slot.get_or_insert(why);
    LIFELINE_ENDED.store(true, Ordering::SeqCst);
}

/// Whether the lifeline ended: [`lifeline_ended`] said so, or (for [`LIFELINE_SIGNAL`] from
/// the kernel) the run has a lifeline and its parent is no longer the one it started under.
fn lifeline_over() -> bool {
    if LIFELINE_ENDED.load(Ordering::SeqCst) {
        return true;
    }
    if LIFELINE_GIVEN.load(Ordering::SeqCst) && crate::lifeline::parent_changed() {
        let parent = crate::lifeline::the_parent();
        record_the_lifeline_end(format!("the caller (pid {parent}) ended"));
        return true;
    }
    false
}

/// How a run is ended from outside its own loop, for the signal watch's `finish`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outside {
    /// This signal: SIGTERM, SIGHUP, SIGQUIT (an abort), SIGINT (a dismissal).
    Signal(i32),
    /// The caller's lifeline ended ([`lifeline_ended`]); why: a lost terminal's message.
    CallerGone(String),
}

impl Outside {
    /// The exit code of the ending: 128 + the signal, or 1 (a lost terminal).
    fn code(&self) -> i32 {
        match self {
            Outside::Signal(signal) => 128 + signal,
            Outside::CallerGone(_) => crate::exit_codes::ExitCode::Cancelled.code(),
        }
    }

    /// The ending now, for the `signal` the watch woke on: a terminating signal received
    /// wins (the order of [`TERMINATING`]), then the lifeline's end, then `signal` itself.
    fn now(signal: i32) -> Outside {
        if let Some(first) = first_terminating() {
            return Outside::Signal(first);
        }
        if LIFELINE_ENDED.load(Ordering::SeqCst) {
            let why = LIFELINE_WHY
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .clone();
            return Outside::CallerGone(why.unwrap_or_else(|| "the caller ended".into()));
        }
        Outside::Signal(signal)
    }
}

/// After the terminal went away (EOF or an I/O error on it): waits at most `within` for a
/// terminating signal on its way, and when one comes, leaves the result to the signal watch
/// (this never returns then). GNU screen's `quit` closes the terminal before it sends SIGHUP:
/// the run ends as the hang-up it is, 129 (docs/exit-codes.md: the first ending wins).
pub fn await_a_hang_up(within: std::time::Duration) {
    let start = std::time::Instant::now();
    while start.elapsed() < within {
        if terminating_received() {
            claim_result();
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

/// The terminating signal that ends the flow: the watcher wakes on the first one, so this is
/// it unless several arrived within the same instant, when [`TERMINATING`]'s order decides.
fn first_terminating() -> Option<i32> {
    TERMINATING
        .iter()
        .zip(&RECEIVED)
        .find(|(_, r)| r.load(Ordering::SeqCst))
        .map(|(&s, _)| s)
}

/// Claims the right to write the result, for the normal finish path (src/run.rs). Returns
/// normally when this caller may write it; when a signal already claimed it, it never
/// returns: the watcher thread is writing the result and will exit the process.
pub fn claim_result() {
    loop {
        let now = STATE.load(Ordering::SeqCst);
        // A terminating signal interrupts the front end's read (console even turns the
        // interrupted read into a dismissal); the watcher thread will write the `aborted`
        // result (started now if it was not yet), so step aside.
        if now == SIGNALLED || (now == ARMED && terminating_received()) {
            let _ = watch_now();
            loop {
                std::thread::park();
            }
        }
        if STATE
            .compare_exchange(now, FINISHED, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
        {
            return;
        }
    }
}

/// Before the terminal is taken back after a stop (`fg`, or a continue from outside): when a
/// terminating signal came while pi-ask was stopped (`kill %1` sends SIGTERM, then SIGCONT),
/// the signal watch's thread ends the run (the farewell, the modes, the result), so this
/// thread sets no mode and draws nothing more: it never returns then. Returns at once
/// otherwise.
pub fn yield_to_a_pending_signal() {
    let now = STATE.load(Ordering::SeqCst);
    if now == SIGNALLED || (now == ARMED && terminating_received()) {
        // The watch's thread ends the run: started now if it was not yet (it starts after
        // the first frame).
        let _ = watch_now();
        loop {
            std::thread::park();
        }
    }
}

/// Whether this process may take its terminal: it is in the terminal's foreground process
/// group, or it has no terminal, or it cannot tell (no procfs). A background job that sets the
/// terminal's modes or reads it is stopped (SIGTTOU, SIGTTIN).
pub fn in_the_foreground() -> bool {
    !own_stat().is_some_and(|s| s.in_the_background())
}

/// Before the terminal is taken (at the start, and again after a stop): while the run is in
/// the background (started with `&`, or continued there with `bg` or `kill -CONT` once the
/// shell took the terminal back), waits, drawing nothing, until it is brought to the
/// foreground (`fg`); setting raw mode there would stop it (SIGTTOU) where no signal could end
/// it. A terminating signal meanwhile is left to the signal watch
/// ([`yield_to_a_pending_signal`]). Returns false when `until` passed first (`None`: never).
pub fn wait_for_the_foreground(until: Option<Instant>) -> bool {
    loop {
        yield_to_a_pending_signal();
        if in_the_foreground() {
            return true;
        }
        if until.is_some_and(|u| Instant::now() >= u) {
            return false;
        }
        std::thread::sleep(CLAIM_RETRY);
    }
}

/// Keeps SIGWINCH (a window resize) from interrupting this thread's blocking reads.
///
/// console turns an interrupted key read into SIGINT plus an `Interrupted` error, which is
/// indistinguishable from Ctrl+C; rustyline leaves a SIGWINCH handler installed after an
/// editor closes, so without this a resize after any editor dismissed the flow. Blocking
/// SIGWINCH on the thread that reads keys leaves it to the signal watch's thread, which
/// unblocks it ([`watch_now`], from the first frame on; a resize before it waits for it),
/// where handlers such as rustyline's still run; the front end re-reads the size at the next
/// key. Call it on the reading thread after
/// [`SignalWatch::start`].
pub fn keep_resizes_from_interrupting_reads() {
    let mut set = SigSet::empty();
    set.add(Signal::SIGWINCH);
    let _ = set.thread_block();
}

/// The name of a watched signal: `SIGTERM`, `SIGHUP`, `SIGQUIT` or `SIGINT`.
pub fn signal_name(signal: i32) -> &'static str {
    match signal {
        SIGTERM => "SIGTERM",
        SIGHUP => "SIGHUP",
        SIGQUIT => "SIGQUIT",
        SIGINT => "SIGINT",
        _ => "a signal",
    }
}

/// Watches SIGTERM, SIGHUP, SIGQUIT and SIGINT while a front end asks.
///
/// When one arrives (for SIGINT: and the front end has not finished within a short grace
/// period, since console turns a typed Ctrl+C into SIGINT plus an `Interrupted` error the
/// front end handles itself), the watcher thread claims the result (see [`claim_result`]),
/// calls `finish(Outside::Signal(signal))`, which must write the result and return the exit
/// code, then leaves the farewell and calls [`restore`] (both bounded: a terminal that takes
/// no output cannot hold the result up), and exits the process with that code. When the
/// result goes to stdout and stdout is a terminal, the terminal is given back first (as at a
/// normal end) and the process exits after 800 ms whatever that terminal does.
///
/// The caller's lifeline ends the run the same way ([`Outside::CallerGone`], exit 1): its
/// reader thread starts with the watch's, and its end, or [`LIFELINE_SIGNAL`] once the parent
/// changed, wakes the watch; no farewell is drawn then, only the modes are put back.
///
/// The watch lasts until the process exits (dropping the value does not stop it): a signal
/// that arrives after the flow ended but before the result is written must still end in
/// exactly one result, and [`claim_result`] decides which side writes it.
pub struct SignalWatch {
    _private: (),
}

impl SignalWatch {
    /// Starts watching: the handlers at once, the thread at [`watch_now`] (and with it the
    /// reader of the caller's `lifeline`, when one is given). `finish` gets how the run ends
    /// ([`Outside`]: the signal number, `SIGTERM`, ... (see [`signal_name`]), or the lifeline's
    /// end) and returns the process exit code after writing the result; `result_on_stdout`
    /// says that it writes it on stdout (not into a file).
    ///
    /// Errors: the signal handlers or the thread could not be set up.
    pub fn start<F>(
        result_on_stdout: bool,
        lifeline: Option<crate::lifeline::Lifeline>,
        finish: F,
    ) -> io::Result<SignalWatch>
    where
        F: FnOnce(Outside) -> i32 + Send + 'static,
    {
        // The modes are saved once the run holds the terminal (claim_terminal): saved now they
        // could be another run's raw mode. Until then a signal puts back nothing.
        for (signal, flag) in TERMINATING.iter().zip(&RECEIVED) {
            signal_hook::flag::register(*signal, flag)?;
        }
        // SIGUSR1, SIGUSR2 and SIGALRM mean nothing to pi-ask: the watch takes them too, and
        // drops them, so they cannot end it with no result.
        let [usr1, usr2, alrm] = IGNORED;
        let mut signals = signal_hook::iterator::Signals::new([
            SIGTERM, SIGHUP, SIGQUIT, SIGINT, usr1, usr2, alrm,
        ])?;
        let _ = STATE.compare_exchange(IDLE, ARMED, Ordering::SeqCst, Ordering::SeqCst);
        LIFELINE_GIVEN.store(lifeline.is_some(), Ordering::SeqCst);
        let watcher: Box<dyn FnOnce() + Send> = Box::new(move || {
            // The lifeline's reader wakes this thread when the caller is gone.
            if let Some(lifeline) = lifeline {
                let _ = lifeline.watch(lifeline_ended);
            }
            // One signal decides: either the normal path finishes, or this thread does.
            let decides = |s: &i32| match *s {
                LIFELINE_SIGNAL => lifeline_over(),
                s => !IGNORED.contains(&s),
            };
            if let Some(signal) = signals.forever().find(decides) {
                // A terminating signal wins over a SIGINT delivered with it (console
                // raises SIGINT when a signal interrupts its key read), and over the
                // lifeline's end.
                let outside = Outside::now(signal);
                if outside == Outside::Signal(SIGINT) && finished_within(SIGINT_GRACE) {
                    return;
                }
                // Once seen, the first terminating signal is kept (a later read could
                // differ only if one came again); otherwise one may have come meanwhile.
                let outside = match outside {
                    Outside::Signal(SIGINT) => Outside::now(SIGINT),
                    outside => outside,
                };
                if STATE
                    .compare_exchange(ARMED, SIGNALLED, Ordering::SeqCst, Ordering::SeqCst)
                    .is_err()
                {
                    // The normal path is writing the result: it has a while to finish (a
                    // pipe read slowly), then the run ends as the signal says.
                    exit_after(RESULT_WRITE_DEADLINE, outside.code(), Leaving::Modes);
                    return;
                }
                // The run's children (the external editor) end before the terminal is
                // restored and the result written (src/leftovers.rs).
                crate::leftovers::end_children();
                // The result first: nothing the terminal does can hold it up. When
                // stdout is a terminal (most likely this one) the result comes after the
                // terminal is given back, as at a normal end (on the alternate screen it
                // would vanish), and should that terminal take no output the run still
                // ends after a while.
                let code = if result_on_stdout && io::IsTerminal::is_terminal(&io::stdout()) {
                    exit_after(EXIT_DEADLINE, outside.code(), Leaving::Nothing);
                    leave_terminal(&outside);
                    finish(outside)
                } else if matches!(outside, Outside::CallerGone(_)) {
                    // The caller is gone: its shell takes the terminal back at once (and may
                    // keep the modes it finds then), so the modes go back first; nothing is
                    // drawn, nothing holds the result up.
                    exit_after(RESULT_WRITE_DEADLINE, outside.code(), Leaving::Nothing);
                    leave_terminal(&outside);
                    finish(outside)
                } else {
                    // A pipe or a FIFO nobody reads holds the write up: the run ends anyway,
                    // leaving the terminal as after the write (the farewell, the modes).
                    exit_after(
                        RESULT_WRITE_DEADLINE,
                        outside.code(),
                        Leaving::Farewell(outside.clone()),
                    );
                    let code = finish(outside.clone());
                    leave_terminal(&outside);
                    code
                };
                crate::leftovers::exit(code);
            }
        });
        *WATCHER.lock().unwrap_or_else(|e| e.into_inner()) = Some(watcher);
        Ok(SignalWatch { _private: () })
    }
}

/// The signal watch's thread, until [`watch_now`] starts it.
static WATCHER: Mutex<Option<Box<dyn FnOnce() + Send>>> = Mutex::new(None);

/// Starts the thread of the [`SignalWatch`] (once; nothing without a watch). The handlers are
/// in place from [`SignalWatch::start`] on, so a signal that comes earlier is acted on as
/// soon as the thread runs. The run starts it before anything that may wait (a payload on a
/// pipe, another run holding the terminal, a front end other than the terminal's); the
/// terminal front end starts it right after its first frame, so the first prompt does not
/// wait for a thread (docs/benchmarks.md, figure 1).
///
/// Errors: the thread could not be started (the run goes on without it).
pub fn watch_now() -> io::Result<()> {
    let Some(watcher) = WATCHER.lock().unwrap_or_else(|e| e.into_inner()).take() else {
        return Ok(());
    };
    std::thread::Builder::new()
        .name("pi-ask-signals".into())
        .spawn(|| {
            // The thread that reads keys blocks SIGWINCH
            // ([`keep_resizes_from_interrupting_reads`]) and this one inherits its mask: it
            // takes resizes for the process, so their handlers run.
            let mut set = SigSet::empty();
            set.add(Signal::SIGWINCH);
            let _ = set.thread_unblock();
            // Its writes (the result on a terminal stdout) never stop the process when it
            // ends in the background with `stty tostop` set: a stopped process writes nothing.
            let mut ttou = SigSet::empty();
            ttou.add(Signal::SIGTTOU);
            let _ = ttou.thread_block();
            watcher();
        })?;
    Ok(())
}

/// What a signal's ending leaves on the terminal (bounded, as every write to it): the end of
/// a half-typed plain prompt line, the farewell, the terminal restored. The lifeline's end
/// only puts the modes back: the caller is gone, the shell may own the screen now.
fn leave_terminal(outside: &Outside) {
    // Once: the exit after a result write that took too long may come as the write ends.
    static LEFT: AtomicBool = AtomicBool::new(false);
    if LEFT.swap(true, Ordering::SeqCst) {
        return;
    }
    // In the background (continued there after a stop, which gave the terminal back) the
    // terminal is its foreground job's: nothing of pi-ask's is on it to leave or restore.
    // Only pi-ask's raw modes, left by a caller that exited normally, are taken back.
    if !in_the_foreground() {
        if matches!(outside, Outside::CallerGone(_)) {
            take_back_our_modes();
        }
        return;
    }
    let Outside::Signal(signal) = *outside else {
        restore();
        // The shell may have taken its terminal back between restore's two looks.
        take_back_our_modes();
        return;
    };
    if PLAIN.load(Ordering::SeqCst) && !QUIET.load(Ordering::SeqCst) {
        // End the half-typed prompt line, as a shell does on Ctrl+C.
        let _ = write_tty(b"\n");
    }
    say_farewell(Departure::Signal(signal));
    restore();
}

/// At the lifeline's end, in the background: a caller that exited normally (not by a signal)
/// while pi-ask asked left pi-ask there with its raw modes on the terminal, and bash keeps the
/// modes a job leaves when it exits normally (its prompt and every later command would run
/// in them). When the terminal's modes are still exactly the raw modes pi-ask set (the
/// terminal front end's, `crate::keys::raw_modes` of the saved ones), the saved modes go back,
/// and nothing else (no flush, nothing drawn); SIGTTOU is blocked on this thread, so the
/// kernel allows the change from the background. Any other modes are the shell's own (or the
/// line editor's, which is not told apart) and stay. docs/interactive.md, "The caller's
/// lifeline".
fn take_back_our_modes() {
    let saved = SAVED.lock().unwrap_or_else(|e| e.into_inner());
    let Some(s) = saved.as_ref() else { return };
    let Ok(now) = termios::tcgetattr(&s.tty) else {
        return;
    };
    if !same_modes(&now, &crate::keys::raw_modes(&s.termios)) {
        return;
    }
    let mut ttou = SigSet::empty();
    ttou.add(Signal::SIGTTOU);
    let _ = ttou.thread_block();
    let _ = termios::tcsetattr(&s.tty, SetArg::TCSANOW, &s.termios);
}

/// Whether two sets of terminal modes are the same: the flags and the control characters.
fn same_modes(a: &Termios, b: &Termios) -> bool {
    a.input_flags == b.input_flags
        && a.output_flags == b.output_flags
        && a.control_flags == b.control_flags
        && a.local_flags == b.local_flags
        && a.control_chars == b.control_chars
}

/// How long a signal's ending may take when stdout is a terminal that takes no output.
const EXIT_DEADLINE: Duration = Duration::from_millis(800);

/// How long a result may take to be written after a terminating signal, to a pipe or a FIFO
/// that is read slowly or not at all: then the run ends with the signal's exit code, the
/// result cut short or not written (docs/exit-codes.md "Signals").
const RESULT_WRITE_DEADLINE: Duration = Duration::from_secs(3);

/// What the exit after a deadline ([`exit_after`]) leaves on the terminal first (bounded,
/// as every write to it).
#[derive(Debug, Clone)]
enum Leaving {
    /// Nothing: the terminal takes no output.
    Nothing,
    /// The modes put back ([`restore`]): an ending whose own restoring may not have run.
    Modes,
    /// As the ending from outside leaves it ([`leave_terminal`]: the farewell, the modes).
    Farewell(Outside),
}

/// Exits the process with `code` after `after`, from a thread of its own, leaving the
/// terminal as `leaving` says first.
fn exit_after(after: Duration, code: i32, leaving: Leaving) {
    let _ = std::thread::Builder::new()
        .name("pi-ask-exit".into())
        .spawn(move || {
            std::thread::sleep(after);
            match leaving {
                Leaving::Nothing => {}
                Leaving::Modes => restore(),
                Leaving::Farewell(outside) => leave_terminal(&outside),
            }
            crate::leftovers::exit(code);
        });
}

/// Whether the normal finish path claims the result within `grace`.
fn finished_within(grace: Duration) -> bool {
    let start = Instant::now();
    while start.elapsed() < grace {
        if STATE.load(Ordering::SeqCst) == FINISHED {
            return true;
        }
        if terminating_received() {
            return false;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    STATE.load(Ordering::SeqCst) == FINISHED
}

impl std::fmt::Debug for SignalWatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SignalWatch")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proc_stat_gives_the_process_group_the_terminal_and_its_foreground_group() {
        // A command name may hold spaces and parentheses: the fields come after the last `)`.
        let line = "4242 (pi (ask) x) S 4000 4242 4000 34816 4100 4194560 1 0 0 0";
        let stat = ProcStat::parse(line).unwrap();
        assert_eq!(
            stat,
            ProcStat {
                pgrp: 4242,
                tty: 34816,
                tpgid: 4100
            }
        );
        assert!(stat.in_the_background());
        assert!(!ProcStat {
            tpgid: 4242,
            ..stat
        }
        .in_the_background());
        // No terminal (tty 0, tpgid -1): nothing to wait for.
        assert!(!ProcStat {
            tty: 0,
            tpgid: -1,
            ..stat
        }
        .in_the_background());
        assert_eq!(ProcStat::parse("4242 (pi-ask) S 1 2"), None);
    }

    #[test]
    fn signal_names() {
        assert_eq!(signal_name(SIGTERM), "SIGTERM");
        assert_eq!(signal_name(SIGHUP), "SIGHUP");
        assert_eq!(signal_name(SIGQUIT), "SIGQUIT");
        assert_eq!(signal_name(SIGINT), "SIGINT");
        assert_eq!(signal_name(signal_hook::consts::SIGUSR1), "a signal");
    }
}

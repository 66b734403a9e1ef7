//! What the terminal front end needs from a terminal, as a trait: its size, the time,
//! writing frames, the next key or resize, the external editor, suspending like a shell job,
//! showing the screen underneath. [`TtyBackend`] is the real `/dev/tty`; `FakeBackend` (fake.rs)
//! plays a terminal from a list of events on a fake clock, for unit tests and fuzzing the
//! whole input path without a terminal.
//!
//! ## A terminal that takes no output
//!
//! Every write goes through `terminal::write_tty`, which queues the bytes for one writer
//! thread and returns at once, so a terminal that stops taking output (an ssh link that
//! stalls, a console frozen by a selection) never blocks the front end: keys are still read,
//! `--timeout` still counts, and the run ends with its result.

use crate::frontend::timeout::Deadline;
use crate::keys::{Event, KeyReader, RawMode, SystemClock, TtySource};
use std::io;
use std::time::{Duration, Instant};

mod size;
use size::WindowSize;

/// How a run of the external editor ended ([`Backend::run_editor_command`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditorRun {
    /// It exited, with status 0 (`true`) or not (failed, killed, not started).
    Exited(bool),
    /// `--timeout` ran out while it was open: it was ended (`leftovers::Child::end`).
    TimedOut,
}

/// How often the wait for the external editor looks at it and at its file.
const EDITOR_POLL: Duration = Duration::from_millis(20);

/// A terminal for the front end.
pub trait Backend {
    /// (rows, columns) now.
    fn size(&self) -> (usize, usize);
    /// The time now (the fake terminal's own clock in tests).
    fn now(&self) -> Instant;
    /// Writes `bytes` in one write and flushes.
    ///
    /// Errors: the terminal could not be written.
    fn write(&mut self, bytes: &str) -> io::Result<()>;
    /// The next key or resize; `Event::Timeout` when nothing came within `timeout`.
    ///
    /// Errors: the terminal went away (`UnexpectedEof`) or failed.
    fn event(&mut self, timeout: Option<Duration>) -> io::Result<Event>;
    /// How the terminal treats its rows on a resize, as the region models it: whether it
    /// rewraps them ([`super::region::reflows`]) and whether it pulls rows back from its
    /// history when the window grows taller ([`super::region::pulls_back`]); judged from the
    /// environment. The fake terminal says what it is: its vt100 screen rewraps nothing, and
    /// the rows it pulls back are told by the cursor's row ([`Backend::cursor_row`]).
    fn resize_traits(&self) -> (bool, bool) {
        let env = |name: &str| std::env::var(name).ok();
        (super::region::reflows(env), super::region::pulls_back(env))
    }
    /// Whether more input is there already, read or not (typed ahead, a burst, a paste's
    /// keys): the loop may leave a frame undrawn until it has read it. The fake terminal says
    /// no.
    fn input_pending(&self) -> bool {
        false
    }
    /// Whether the run still has the terminal (its foreground process group): a run whose
    /// caller died and whose shell took the terminal back writes nothing more on it
    /// (docs/interactive.md "The caller's lifeline"). The fake terminal says yes.
    fn in_the_foreground(&self) -> bool {
        true
    }
    /// Waits at most `within` for input, reading none; returns at once when some is there.
    /// A terminal without a clock of its own (the fake) does not wait.
    fn idle(&mut self, within: Duration) {
        let _ = within;
    }
    /// Whether the process was stopped from outside and continued since the last call (the
    /// terminal is set up again already): the screen must be drawn again where the cursor is.
    fn take_continued(&mut self) -> bool {
        false
    }
    /// Whether a continue after a stop came that no event has told yet (the stop may have made
    /// the `--timeout` clock run out: the continue starts it again first).
    fn continue_pending(&self) -> bool {
        false
    }
    /// Asks the terminal where the cursor is (`ESC[6n`) and waits at most
    /// [`CURSOR_QUERY_WAIT`] for the answer: the cursor's row from the screen's top, from 0.
    /// `None` when no answer came in time, and on a terminal that is not asked (the fake). Keys
    /// and resizes read while waiting come next from [`Backend::event`], in order.
    ///
    /// Errors: the terminal could not be written or read.
    fn cursor_row(&mut self) -> io::Result<Option<usize>> {
        Ok(None)
    }
    /// Gives the terminal back to the shell and stops the process group, as Ctrl+Z does to a
    /// shell job; returns when continued, with the screen to be drawn whole (`true`). Continued
    /// in the background (`bg`), it waits for the foreground (`fg`) at most `wait` (`--timeout`,
    /// counted from the continue; `None`: as long as it takes): `false` when that ran out, the
    /// terminal then the shell's, and nothing more is written to it.
    ///
    /// Errors: the terminal could not be set up again.
    fn suspend(&mut self, wait: Option<Duration>) -> io::Result<bool>;
    /// Hands the terminal, cooked, to `command` (a shell command line: `$VISUAL` or `$EDITOR`)
    /// run on the file `path`, waits for it, and sets the terminal up again. With `deadline`
    /// (`--timeout`), the time counts on while it runs, a change to the file (a save) counting
    /// as a key: when it runs out the command is ended ([`EditorRun::TimedOut`]). The fake
    /// terminal runs nothing (`EditorRun::Exited(false)`).
    ///
    /// Errors: the terminal could not be set up again.
    fn run_editor_command(
        &mut self,
        command: &str,
        path: &std::path::Path,
        deadline: Option<Deadline>,
    ) -> io::Result<EditorRun> {
        let _ = (command, path, deadline);
        Ok(EditorRun::Exited(false))
    }
    /// Shows the screen underneath the questionnaire (`true`) or the questionnaire's own
    /// screen again (`false`, to be drawn whole).
    ///
    /// Errors: the terminal could not be written.
    fn show_main_screen(&mut self, show: bool) -> io::Result<()>;
    /// The flow is over: clear what was drawn (the terminal is restored when dropped).
    fn finish(&mut self);
}

/// The longest wait for the answer to a cursor position query ([`Backend::cursor_row`]):
/// a terminal answers at once, one over ssh within a round trip; one that does not answer at
/// all (a few old ones) costs this much after each resize, and the frame is then placed as
/// the region models it (docs/interactive.md, "Placement").
pub const CURSOR_QUERY_WAIT: Duration = Duration::from_millis(200);

/// Bracketed paste on: a paste at a menu arrives as one `Key::Paste`, never as keystrokes.
const PASTE_ON: &str = "\x1b[?2004h";

/// The controlling terminal: raw mode from the first screen to the end, the alternate screen,
/// keys through [`crate::keys`].
pub struct TtyBackend {
    term: console::Term,
    keys: KeyReader<TtySource, SystemClock>,
    /// Raw mode, from the first screen to the end (`None` while suspended).
    raw: Option<RawMode>,
    placement: super::Placement,
    /// Continued after an outside stop, not told to the front end yet.
    continued: bool,
    /// The time ran out while the run waited in the background after a stop: the terminal is
    /// the shell's, nothing is written to it ([`Backend::suspend`]).
    in_the_background: bool,
    /// The window's size as last read: read again only after a resize or a continue (a key
    /// asked for it three times, two system calls each).
    size: WindowSize,
    /// Keys and resizes read while waiting for a cursor position answer, to act on first.
    early: std::collections::VecDeque<Event>,
    _screen: crate::terminal::RestoreGuard,
}

impl TtyBackend {
    /// Opens `/dev/tty`: saves its modes, switches to the alternate screen and raw mode,
    /// discards type-ahead (keys typed before the first screen never answer), and turns
    /// bracketed paste on.
    ///
    /// Errors: no controlling terminal, or it cannot be set up.
    pub fn open(placement: super::Placement) -> io::Result<Self> {
        let term = crate::terminal::open_term()?;
        let screen = crate::terminal::RestoreGuard::new(placement == super::Placement::Full);
        crate::terminal::keep_resizes_from_interrupting_reads();
        let mut keys = KeyReader::open_tty()?;
        let raw = RawMode::enable(keys.source().tty())?;
        keys.discard_type_ahead()?;
        crate::terminal::write_tty(PASTE_ON.as_bytes())?;
        Ok(TtyBackend {
            term,
            keys,
            raw: Some(raw),
            placement,
            continued: false,
            in_the_background: false,
            size: WindowSize::watched()?,
            early: std::collections::VecDeque::new(),
            _screen: screen,
        })
    }
}

impl Backend for TtyBackend {
    fn size(&self) -> (usize, usize) {
        self.size.get(|| {
            let (rows, cols) = self.term.size();
            (rows as usize, cols as usize)
        })
    }

    fn now(&self) -> Instant {
        Instant::now()
    }

    fn write(&mut self, bytes: &str) -> io::Result<()> {
        if self.in_the_background {
            return Ok(());
        }
        // The text layer writes ASCII on a terminal whose locale is not UTF-8; this guard
        // keeps any glyph it missed from sending a byte from 0x80 up (`text::Charset::guard`).
        let bytes = crate::text::terminal_charset().guard(bytes);
        crate::terminal::write_tty(bytes.as_bytes())
    }

    fn event(&mut self, timeout: Option<Duration>) -> io::Result<Event> {
        let event = match self.early.pop_front() {
            Some(event) => event,
            None => self.keys.next(timeout)?,
        };
        // A signal's ending owns the run from here (its result may take a while to write, to
        // a pipe read slowly): no key is acted on, nothing more is drawn ("Submitted" was).
        crate::terminal::yield_to_a_pending_signal();
        if event == Event::Resize {
            self.size.forget();
        }
        if event == Event::Resize && crate::keys::take_continued() {
            crate::terminal::wait_for_the_foreground(None);
            // Continued after a stop pi-ask did not make (`kill -STOP`, then `fg`): raw mode
            // and bracketed paste again, as after Ctrl+Z.
            if let Some(raw) = &self.raw {
                raw.again()?;
            }
            self.write(PASTE_ON)?;
            self.continued = true;
        }
        Ok(event)
    }

    fn in_the_foreground(&self) -> bool {
        crate::terminal::in_the_foreground()
    }

    fn input_pending(&self) -> bool {
        !self.early.is_empty()
            || !self.keys.is_idle()
            || crate::keys::wait_readable(self.keys.source().tty(), Duration::ZERO).unwrap_or(false)
    }

    fn idle(&mut self, within: Duration) {
        if self.keys.is_idle() && self.early.is_empty() {
            let _ = crate::keys::wait_readable(self.keys.source().tty(), within);
        }
    }

    fn take_continued(&mut self) -> bool {
        std::mem::take(&mut self.continued)
    }

    fn cursor_row(&mut self) -> io::Result<Option<usize>> {
        if self.in_the_background {
            return Ok(None);
        }
        // A report already waiting (typed, pasted, Shift+F3) is not the answer: what came is
        // read first, its keys kept for after.
        self.keys.read_pending(&mut self.early)?;
        crate::terminal::write_tty(b"\x1b[6n")?;
        let answer = self
            .keys
            .cursor_report(CURSOR_QUERY_WAIT, &mut self.early)?;
        Ok(answer.map(|(row, _)| usize::from(row.max(1)) - 1))
    }

    fn continue_pending(&self) -> bool {
        crate::keys::continued_pending()
    }

    fn suspend(&mut self, wait: Option<Duration>) -> io::Result<bool> {
        if let Some(raw) = self.raw.take() {
            raw.restore()?;
        }
        crate::terminal::suspend_job();
        // Our own stop: the wake that `fg` gives is no outside stop. The SIGCONT handler may
        // run on another thread a moment after this one goes on: its mark is waited for (a
        // little), so it is never taken later for a stop from outside (which starts the region
        // again below the block just drawn).
        let waited = std::time::Instant::now();
        while !crate::keys::take_continued() && waited.elapsed() < Duration::from_millis(200) {
            std::thread::sleep(Duration::from_millis(2));
        }
        let until = wait.and_then(|w| std::time::Instant::now().checked_add(w));
        if !crate::terminal::wait_for_the_foreground(until) {
            self.in_the_background = true;
            return Ok(false);
        }
        self.raw = Some(RawMode::enable(self.keys.source().tty())?);
        self.write(PASTE_ON)?;
        Ok(true)
    }

    fn run_editor_command(
        &mut self,
        command: &str,
        path: &std::path::Path,
        deadline: Option<Deadline>,
    ) -> io::Result<EditorRun> {
        use crate::leftovers::Stream;
        // What was queued for the terminal goes first; the editor gets it cooked.
        crate::terminal::flush_tty();
        if let Some(raw) = self.raw.take() {
            raw.restore()?;
        }
        // From here every ending also resets what an editor may leave on.
        crate::terminal::editor_starts();
        // In pi-ask's process group, the terminal's foreground one (so that it can read the
        // terminal, and Ctrl+Z stops it with the run), with the terminal as its streams and
        // no other descriptor; every ending of the run ends it (src/leftovers.rs).
        let started = crate::terminal::open_tty().and_then(|tty| {
            let t = || Stream::File(&tty);
            crate::leftovers::spawn_shell(
                &format!("{command} \"$1\""),
                &[path.as_os_str()],
                &[],
                [t(), t(), t()],
                false,
            )
        });
        let run = match started {
            Ok(child) => wait_for_editor(child, path, deadline),
            Err(_) => EditorRun::Exited(false),
        };
        // A signal's ending ended the editor and owns the run from here: nothing is set up.
        crate::terminal::yield_to_a_pending_signal();
        // What the editor left on (mouse reporting, cursor keys, ...) is put back.
        crate::terminal::editor_returned();
        self.raw = Some(RawMode::enable(self.keys.source().tty())?);
        self.write(PASTE_ON)?;
        Ok(run)
    }

    fn show_main_screen(&mut self, show: bool) -> io::Result<()> {
        self.write(if show {
            "\x1b[?1049l\x1b[?25l"
        } else {
            "\x1b[?1049h"
        })
    }

    fn finish(&mut self) {
        // Inline, the front end has left its transcript already.
        if self.placement == super::Placement::Full {
            let _ = self.write("\x1b[H\x1b[2J");
        }
    }
}

impl<B: Backend + ?Sized> Backend for &mut B {
    fn size(&self) -> (usize, usize) {
        (**self).size()
    }

    fn in_the_foreground(&self) -> bool {
        (**self).in_the_foreground()
    }

    fn now(&self) -> Instant {
        (**self).now()
    }

    fn write(&mut self, bytes: &str) -> io::Result<()> {
        (**self).write(bytes)
    }

    fn event(&mut self, timeout: Option<Duration>) -> io::Result<Event> {
        (**self).event(timeout)
    }

    fn idle(&mut self, within: Duration) {
        (**self).idle(within)
    }

    fn input_pending(&self) -> bool {
        (**self).input_pending()
    }

    fn resize_traits(&self) -> (bool, bool) {
        (**self).resize_traits()
    }

    fn take_continued(&mut self) -> bool {
        (**self).take_continued()
    }

    fn cursor_row(&mut self) -> io::Result<Option<usize>> {
        (**self).cursor_row()
    }

    fn continue_pending(&self) -> bool {
        (**self).continue_pending()
    }

    fn suspend(&mut self, wait: Option<Duration>) -> io::Result<bool> {
        (**self).suspend(wait)
    }

    fn show_main_screen(&mut self, show: bool) -> io::Result<()> {
        (**self).show_main_screen(show)
    }

    fn run_editor_command(
        &mut self,
        command: &str,
        path: &std::path::Path,
        deadline: Option<Deadline>,
    ) -> io::Result<EditorRun> {
        (**self).run_editor_command(command, path, deadline)
    }

    fn finish(&mut self) {
        (**self).finish()
    }
}

/// Waits for the external editor `child` editing `path`; with `deadline`, a change to the
/// file (its length, time or inode) starts the time again, and when it runs out the editor is
/// ended.
fn wait_for_editor(
    child: crate::leftovers::Child,
    path: &std::path::Path,
    mut deadline: Option<Deadline>,
) -> EditorRun {
    use std::os::unix::fs::MetadataExt;
    let stamp = || {
        std::fs::symlink_metadata(path)
            .ok()
            .map(|m| (m.len(), m.mtime(), m.mtime_nsec(), m.ino()))
    };
    let mut last = deadline.and_then(|_| stamp());
    loop {
        if let Some(ok) = child.try_wait() {
            return EditorRun::Exited(ok);
        }
        if let Some(d) = &mut deadline {
            let now = Instant::now();
            let seen = stamp();
            if seen != last {
                last = seen;
                d.reset(now);
            }
            if d.is_past(now) {
                child.end();
                return EditorRun::TimedOut;
            }
        }
        std::thread::sleep(EDITOR_POLL);
    }
}

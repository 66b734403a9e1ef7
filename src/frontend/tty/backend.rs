//! What the terminal front end needs from a terminal, as a trait: its size, the time,
//! writing frames, the next key or resize, a line editor, suspending like a shell job,
//! showing the screen underneath. [`TtyBackend`] is the real `/dev/tty`; [`FakeBackend`]
//! plays a terminal from a list of events on a fake clock, for unit tests and fuzzing the
//! whole input path without a terminal.
//!
//! ## Editors and `--timeout`
//!
//! rustyline blocks in its own read until a key closes the editor: it has no timeout, and
//! nothing from outside makes it return (with its `signal-hook` feature only SIGWINCH reaches
//! it, and it redraws and reads on; other signals are retried). So with a timeout the real
//! terminal runs each editor on a thread of its own ([`editor::edit_line_watched`]) and waits
//! for it on a channel, at most as long as [`Backend::edit`] is told: the editor's key
//! handlers send every key (so the front end starts the time again and clears its
//! countdown at once) and its helper records the draft at every change of the line. When
//! the time is up, the front end gives the editor up ([`Backend::abandon_edit`]): it takes
//! the watched draft, saves it as Esc would, and ends the flow. The editor's thread stays
//! blocked in its read until the process exits right after, which is safe because nothing
//! else reads the terminal any more (the flow is over; the terminal is restored, its input
//! flushed, and the result written by the main thread, exactly once as always), and the
//! thread owns nothing the exit needs. Without a timeout the editor runs on the calling
//! thread, as it always did.

use crate::complete::AtCompleter;
use crate::editor::{self, Edit, Watch};
use crate::keys::{Event, Key, KeyReader, RawMode, SystemClock, TtySource};
use std::collections::VecDeque;
use std::io;
use std::sync::{mpsc, Arc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// What waiting on an editor gave ([`Backend::edit`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditWait {
    /// The editor closed.
    Closed(Edit),
    /// The wait ended with the editor still open: a key was typed in it (at `last_key`), or
    /// the time to wait passed (`last_key` is `None`).
    Open {
        /// When the last key since the previous wait was typed.
        last_key: Option<Instant>,
    },
}

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
    /// Edits one line (`prompt`, prefilled with `initial`) at the cursor, and waits at most
    /// `wait` (`None`: as long as it takes) for the editor to close. When an editor is open
    /// already (the previous call gave [`EditWait::Open`]), it goes on waiting for that one
    /// (`prompt` and `initial` are not used).
    ///
    /// Errors: the terminal failed.
    fn edit(
        &mut self,
        prompt: &str,
        initial: &str,
        completer: &AtCompleter,
        wait: Option<Duration>,
    ) -> io::Result<EditWait>;
    /// Gives up the open editor (the time ran out) and returns its draft; the flow must end
    /// next (on the terminal, the editor's thread is left reading until the process exits).
    fn abandon_edit(&mut self) -> String;
    /// Whether the process was stopped from outside and continued since the last call (the
    /// terminal is set up again already; the screen must be drawn again where the cursor is).
    fn take_continued(&mut self) -> bool {
        false
    }
    /// The open editor's text before its cursor (with a timeout, where the editor is
    /// watched); empty when unknown.
    fn editor_cursor(&self) -> String {
        String::new()
    }
    /// Gives the terminal back to the shell and stops the process group, as Ctrl+Z does to a
    /// shell job; returns when continued, with the screen to be drawn whole.
    ///
    /// Errors: the terminal could not be set up again.
    fn suspend(&mut self) -> io::Result<()>;
    /// Shows the screen underneath the questionnaire (`true`) or the questionnaire's own
    /// screen again (`false`, to be drawn whole).
    ///
    /// Errors: the terminal could not be written.
    fn show_main_screen(&mut self, show: bool) -> io::Result<()>;
    /// The flow is over: clear what was drawn (the terminal is restored when dropped).
    fn finish(&mut self);
}

/// Bracketed paste on: a paste at a menu arrives as one `Key::Paste`, never as keystrokes.
const PASTE_ON: &str = "\x1b[?2004h";

/// The controlling terminal: raw mode from the first screen to the end, the alternate screen,
/// keys through [`crate::keys`], rustyline editors.
pub struct TtyBackend {
    out: std::fs::File,
    term: console::Term,
    keys: KeyReader<TtySource, SystemClock>,
    /// Raw mode, from the first screen to the end (`None` while suspended).
    raw: Option<RawMode>,
    /// The editor open on its own thread (only with a timeout), between waits.
    editor: Option<OpenEditor>,
    placement: super::Placement,
    /// Continued after an outside stop, not told to the front end yet.
    continued: bool,
    _screen: crate::terminal::RestoreGuard,
}

/// An editor running on its own thread ([`editor::edit_line_watched`]).
struct OpenEditor {
    /// Its keys and its outcome.
    events: mpsc::Receiver<FromEditor>,
    /// Its draft.
    watch: Arc<Watch>,
    /// The thread, to pass a panic on.
    thread: JoinHandle<()>,
}

/// What the editor's thread sends.
enum FromEditor {
    /// A key was typed, at this time.
    Key(Instant),
    /// The editor closed.
    Closed(io::Result<Edit>),
}

impl TtyBackend {
    /// Opens an editor on a thread of its own (see the module notes).
    fn open_editor(
        &mut self,
        prompt: &str,
        initial: &str,
        completer: &AtCompleter,
    ) -> io::Result<()> {
        let (send, events) = mpsc::channel();
        let keys = send.clone();
        let watch = Watch::new(move || {
            let _ = keys.send(FromEditor::Key(Instant::now()));
        });
        let (prompt, initial) = (prompt.to_string(), initial.to_string());
        let (completer, watched) = (completer.clone(), Arc::clone(&watch));
        let thread = std::thread::Builder::new()
            .name("pi-ask-editor".into())
            .spawn(move || {
                let edit = editor::edit_line_watched(&prompt, &initial, completer, watched);
                let _ = send.send(FromEditor::Closed(edit));
            })?;
        self.editor = Some(OpenEditor {
            events,
            watch,
            thread,
        });
        Ok(())
    }

    /// Waits for the open editor at most `wait` (`None`: until it closes).
    fn wait_editor(&mut self, wait: Option<Duration>) -> io::Result<EditWait> {
        let Some(open) = &self.editor else {
            return Err(io::Error::other("no editor is open"));
        };
        let got = match wait {
            None => open.events.recv().map_err(|_| ()),
            Some(wait) => match open.events.recv_timeout(wait) {
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    return Ok(EditWait::Open { last_key: None })
                }
                other => other.map_err(|_| ()),
            },
        };
        match got {
            Ok(FromEditor::Key(at)) => Ok(EditWait::Open { last_key: Some(at) }),
            Ok(FromEditor::Closed(edit)) => {
                self.editor = None;
                // rustyline switches bracketed paste off when it ends.
                self.write(PASTE_ON)?;
                edit.map(EditWait::Closed)
            }
            Err(()) => {
                // The thread ended without an outcome: it panicked; pass the panic on (the
                // panic handler of main writes the `internal` result).
                let open = self.editor.take().expect("an open editor");
                match open.thread.join() {
                    Err(panic) => std::panic::resume_unwind(panic),
                    Ok(()) => Err(io::Error::other("the editor ended without an outcome")),
                }
            }
        }
    }
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
        let mut out = crate::terminal::open_tty()?;
        io::Write::write_all(&mut out, PASTE_ON.as_bytes())?;
        Ok(TtyBackend {
            out,
            term,
            keys,
            raw: Some(raw),
            editor: None,
            placement,
            continued: false,
            _screen: screen,
        })
    }
}

impl Backend for TtyBackend {
    fn size(&self) -> (usize, usize) {
        let (rows, cols) = self.term.size();
        (rows as usize, cols as usize)
    }

    fn now(&self) -> Instant {
        Instant::now()
    }

    fn write(&mut self, bytes: &str) -> io::Result<()> {
        io::Write::write_all(&mut self.out, bytes.as_bytes())?;
        io::Write::flush(&mut self.out)
    }

    fn event(&mut self, timeout: Option<Duration>) -> io::Result<Event> {
        let event = self.keys.next(timeout)?;
        if event == Event::Resize && crate::keys::take_continued() {
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

    fn take_continued(&mut self) -> bool {
        std::mem::take(&mut self.continued)
    }

    fn edit(
        &mut self,
        prompt: &str,
        initial: &str,
        completer: &AtCompleter,
        wait: Option<Duration>,
    ) -> io::Result<EditWait> {
        if self.editor.is_none() {
            if wait.is_none() {
                // No timeout: on this thread.
                let edit = editor::edit_line(prompt, initial, Some(completer.clone()));
                // rustyline switches bracketed paste off when it ends.
                self.write(PASTE_ON)?;
                return edit.map(EditWait::Closed);
            }
            self.open_editor(prompt, initial, completer)?;
        }
        self.wait_editor(wait)
    }

    fn editor_cursor(&self) -> String {
        let before = self.editor.as_ref().map(|open| open.watch.before_cursor());
        before.unwrap_or_default()
    }

    fn abandon_edit(&mut self) -> String {
        // The thread is left blocked in rustyline's read (see the module notes).
        self.editor
            .take()
            .map(|open| open.watch.draft())
            .unwrap_or_default()
    }

    fn suspend(&mut self) -> io::Result<()> {
        if let Some(raw) = self.raw.take() {
            raw.restore()?;
        }
        crate::terminal::suspend_job();
        // Our own stop: the wake that `fg` gives is no outside stop.
        crate::keys::take_continued();
        self.raw = Some(RawMode::enable(self.keys.source().tty())?);
        self.write(PASTE_ON)
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

/// A terminal played from a list of events: keys and resizes come from the list, editors type
/// the keys that follow (Enter saves, Esc keeps the draft, Ctrl+C dismisses; in an empty
/// editor ↑ ↓ Tab Shift+Tab ← → navigate), the screen is kept as lines from the escape
/// sequences the front end writes. When the events run out the terminal is gone
/// (`UnexpectedEof`).
///
/// Time stands still but for [`Event::Timeout`]: the wait the front end asked for passed
/// with no key, so the clock ([`FakeBackend::now`]) moves on by that wait, at a menu and in
/// an editor alike. Keys take no time.
#[derive(Debug)]
pub struct FakeBackend {
    /// (rows, columns); a `Resize` event takes the next size from `sizes`.
    pub size: (usize, usize),
    /// Sizes for the `Resize` events, in order.
    pub sizes: VecDeque<(usize, usize)>,
    /// What is still to come.
    pub events: VecDeque<Event>,
    /// The screen's lines as last drawn.
    pub lines: Vec<String>,
    /// Every byte written.
    pub written: String,
    /// How often the job was suspended.
    pub suspends: usize,
    /// The clock: it moves only at an [`Event::Timeout`].
    pub now: Instant,
    /// The cursor's row.
    pub row: usize,
    /// The text of an editor still open between waits.
    pub editing: Option<String>,
}

impl Default for FakeBackend {
    fn default() -> Self {
        FakeBackend {
            size: (0, 0),
            sizes: VecDeque::new(),
            events: VecDeque::new(),
            lines: Vec::new(),
            written: String::new(),
            suspends: 0,
            now: Instant::now(),
            row: 0,
            editing: None,
        }
    }
}

impl FakeBackend {
    /// A `rows` x `cols` terminal that will receive `events`.
    pub fn new(rows: usize, cols: usize, events: impl IntoIterator<Item = Event>) -> Self {
        FakeBackend {
            size: (rows, cols),
            events: events.into_iter().collect(),
            ..FakeBackend::default()
        }
    }

    /// An [`Event::Timeout`] came for a wait of `wait`: the clock moves on by it.
    fn waited(&mut self, wait: Option<Duration>) {
        if let Some(wait) = wait {
            self.now += wait;
        }
    }

    /// The screen as text, one line per row, trailing blank rows dropped.
    pub fn screen(&self) -> String {
        let mut lines = self.lines.clone();
        while lines.last().is_some_and(|l| l.is_empty()) {
            lines.pop();
        }
        lines.join("\n")
    }

    /// Applies what the front end writes, as a terminal with no bottom would: text, CR, LF,
    /// `ESC[r;cH`, `ESC[nA` / `ESC[nB` (up, down), `ESC[nC`, `ESC[K` (which erases a row only
    /// when nothing was written on it since the cursor came to its left), `ESC[J` (the rows
    /// below), `ESC[2J` (all), and ESC 7 / ESC 8 around a line written while an editor is open.
    fn interpret(&mut self, bytes: &str) {
        let mut at_start = true;
        let mut rest = bytes;
        let mut saved = self.row;
        loop {
            let stop = rest.find(['\x1b', '\r', '\n']).unwrap_or(rest.len());
            let text = &rest[..stop];
            if !text.is_empty() && text != "\x07" {
                self.put(self.row, text);
                at_start = false;
            }
            let Some(c) = rest[stop..].chars().next() else {
                break;
            };
            let tail = &rest[stop + c.len_utf8()..];
            match c {
                '\r' => {
                    at_start = true;
                    rest = tail;
                    continue;
                }
                '\n' => {
                    self.row += 1;
                    at_start = true;
                    rest = tail;
                    continue;
                }
                _ => {}
            }
            let Some(body) = tail.strip_prefix('[') else {
                match tail.chars().next() {
                    Some('7') => saved = self.row,
                    Some('8') => self.row = saved,
                    _ => {}
                }
                rest = tail.get(1..).unwrap_or("");
                at_start = true;
                continue;
            };
            let end = body
                .find(|c: char| c.is_ascii_alphabetic())
                .unwrap_or(body.len().saturating_sub(1));
            let (params, final_byte) = (&body[..end], body[end..].chars().next());
            let n = params.parse::<usize>().unwrap_or(1).max(1);
            match final_byte {
                Some('H') => {
                    self.row = params
                        .split(';')
                        .next()
                        .and_then(|r| r.parse::<usize>().ok())
                        .map_or(0, |r| r.saturating_sub(1));
                    at_start = true;
                }
                Some('A') => self.row = self.row.saturating_sub(n),
                Some('B') => self.row += n,
                Some('C') => at_start = false,
                Some('J') if params == "2" => self.lines.clear(),
                Some('J') => {
                    let keep = if at_start { self.row } else { self.row + 1 };
                    self.lines.truncate(keep);
                }
                Some('K') if at_start => {
                    if let Some(line) = self.lines.get_mut(self.row) {
                        line.clear();
                    }
                }
                _ => {}
            }
            rest = &body[(end + 1).min(body.len())..];
        }
    }

    fn put(&mut self, row: usize, text: &str) {
        if self.lines.len() <= row {
            self.lines.resize(row + 1, String::new());
        }
        self.lines[row] = text.to_string();
    }

    fn next(&mut self) -> io::Result<Event> {
        self.events
            .pop_front()
            .ok_or_else(|| io::Error::new(io::ErrorKind::UnexpectedEof, "no more input"))
    }
}

impl Backend for FakeBackend {
    fn size(&self) -> (usize, usize) {
        self.size
    }

    fn now(&self) -> Instant {
        self.now
    }

    fn write(&mut self, bytes: &str) -> io::Result<()> {
        self.written.push_str(bytes);
        self.interpret(bytes);
        Ok(())
    }

    fn event(&mut self, timeout: Option<Duration>) -> io::Result<Event> {
        let event = self.next()?;
        match event {
            Event::Resize => {
                if let Some(size) = self.sizes.pop_front() {
                    self.size = size;
                }
            }
            Event::Timeout => self.waited(timeout),
            Event::Key(_) => {}
        }
        Ok(event)
    }

    fn edit(
        &mut self,
        _prompt: &str,
        initial: &str,
        _: &AtCompleter,
        wait: Option<Duration>,
    ) -> io::Result<EditWait> {
        let mut text = self.editing.take().unwrap_or_else(|| initial.to_string());
        let shown = |text: &str| format!("{_prompt}{text}");
        loop {
            let line = shown(&text);
            let closed = match self.next()? {
                Event::Timeout if wait.is_some() => {
                    self.waited(wait);
                    self.editing = Some(text);
                    return Ok(EditWait::Open { last_key: None });
                }
                Event::Key(Key::Enter) => Edit::Saved(text),
                Event::Key(Key::Esc) => Edit::Closed(text),
                Event::Key(Key::Ctrl('c')) => Edit::Interrupted,
                Event::Key(Key::Ctrl('d')) if text.is_empty() => Edit::Closed(String::new()),
                Event::Key(Key::Ctrl('z')) => Edit::Suspended(text),
                Event::Key(Key::Ctrl(']')) => Edit::Peek(text),
                Event::Key(key @ (Key::Up | Key::Down | Key::Tab | Key::BackTab))
                | Event::Key(key @ (Key::Left | Key::Right))
                    if text.is_empty() =>
                {
                    Edit::Navigate(key)
                }
                event => {
                    match &event {
                        Event::Key(Key::Char(c)) => text.push(*c),
                        Event::Key(Key::Paste(p)) => text.push_str(p),
                        Event::Key(Key::Backspace) => {
                            text.pop();
                        }
                        _ => {}
                    }
                    if wait.is_some() && matches!(event, Event::Key(_)) {
                        // A key in an editor with a timeout: the front end hears of it.
                        self.editing = Some(text);
                        return Ok(EditWait::Open {
                            last_key: Some(self.now),
                        });
                    }
                    continue;
                }
            };
            // rustyline leaves its line on the screen and ends it with a line feed.
            self.put(self.row, &line);
            self.row += 1;
            return Ok(EditWait::Closed(closed));
        }
    }

    fn abandon_edit(&mut self) -> String {
        self.editing.take().unwrap_or_default()
    }

    fn editor_cursor(&self) -> String {
        self.editing.clone().unwrap_or_default()
    }

    fn suspend(&mut self) -> io::Result<()> {
        self.suspends += 1;
        Ok(())
    }

    fn show_main_screen(&mut self, _show: bool) -> io::Result<()> {
        Ok(())
    }

    fn finish(&mut self) {}
}

impl<B: Backend + ?Sized> Backend for &mut B {
    fn size(&self) -> (usize, usize) {
        (**self).size()
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

    fn edit(
        &mut self,
        prompt: &str,
        initial: &str,
        completer: &AtCompleter,
        wait: Option<Duration>,
    ) -> io::Result<EditWait> {
        (**self).edit(prompt, initial, completer, wait)
    }

    fn abandon_edit(&mut self) -> String {
        (**self).abandon_edit()
    }

    fn take_continued(&mut self) -> bool {
        (**self).take_continued()
    }

    fn editor_cursor(&self) -> String {
        (**self).editor_cursor()
    }

    fn suspend(&mut self) -> io::Result<()> {
        (**self).suspend()
    }

    fn show_main_screen(&mut self, show: bool) -> io::Result<()> {
        (**self).show_main_screen(show)
    }

    fn finish(&mut self) {
        (**self).finish()
    }
}

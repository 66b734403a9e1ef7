//! What the terminal front end needs from a terminal, as a trait: its size, writing frames,
//! the next key or resize, a line editor, suspending like a shell job, showing the screen
//! underneath. [`TtyBackend`] is the real `/dev/tty`; [`FakeBackend`] plays a terminal from a
//! list of events, for unit tests and fuzzing the whole input path without a terminal.

use crate::complete::AtCompleter;
use crate::editor::{self, Edit};
use crate::keys::{Event, Key, KeyReader, RawMode, SystemClock, TtySource};
use std::collections::VecDeque;
use std::io;
use std::time::Duration;

/// A terminal for the front end.
pub trait Backend {
    /// (rows, columns) now.
    fn size(&self) -> (usize, usize);
    /// Writes `bytes` in one write and flushes.
    ///
    /// Errors: the terminal could not be written.
    fn write(&mut self, bytes: &str) -> io::Result<()>;
    /// The next key or resize; `Event::Timeout` when nothing came within `timeout`.
    ///
    /// Errors: the terminal went away (`UnexpectedEof`) or failed.
    fn event(&mut self, timeout: Option<Duration>) -> io::Result<Event>;
    /// Edits one line (`prompt`, prefilled with `initial`) at the cursor.
    ///
    /// Errors: the terminal failed.
    fn edit(&mut self, prompt: &str, initial: &str, completer: &AtCompleter) -> io::Result<Edit>;
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
    _screen: crate::terminal::RestoreGuard,
}

impl TtyBackend {
    /// Opens `/dev/tty`: saves its modes, switches to the alternate screen and raw mode,
    /// discards type-ahead (keys typed before the first screen never answer), and turns
    /// bracketed paste on.
    ///
    /// Errors: no controlling terminal, or it cannot be set up.
    pub fn open() -> io::Result<Self> {
        let term = crate::terminal::open_term()?;
        let screen = crate::terminal::RestoreGuard::new(true);
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
            _screen: screen,
        })
    }
}

impl Backend for TtyBackend {
    fn size(&self) -> (usize, usize) {
        let (rows, cols) = self.term.size();
        (rows as usize, cols as usize)
    }

    fn write(&mut self, bytes: &str) -> io::Result<()> {
        io::Write::write_all(&mut self.out, bytes.as_bytes())?;
        io::Write::flush(&mut self.out)
    }

    fn event(&mut self, timeout: Option<Duration>) -> io::Result<Event> {
        self.keys.next(timeout)
    }

    fn edit(&mut self, prompt: &str, initial: &str, completer: &AtCompleter) -> io::Result<Edit> {
        let edit = editor::edit_line(prompt, initial, Some(completer.clone()));
        // rustyline switches bracketed paste off when it ends.
        self.write(PASTE_ON)?;
        edit
    }

    fn suspend(&mut self) -> io::Result<()> {
        if let Some(raw) = self.raw.take() {
            raw.restore()?;
        }
        crate::terminal::suspend_job();
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
        let _ = self.write("\x1b[H\x1b[2J");
    }
}

/// A terminal played from a list of events: keys and resizes come from the list, editors type
/// the keys that follow (Enter saves, Esc keeps the draft, Ctrl+C dismisses; in an empty
/// editor ↑ ↓ Tab Shift+Tab ← → navigate), the screen is kept as lines from the escape
/// sequences the front end writes. When the events run out the terminal is gone
/// (`UnexpectedEof`).
#[derive(Debug, Default)]
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

    /// The screen as text, one line per row, trailing blank rows dropped.
    pub fn screen(&self) -> String {
        let mut lines = self.lines.clone();
        while lines.last().is_some_and(|l| l.is_empty()) {
            lines.pop();
        }
        lines.join("\n")
    }

    /// Applies the escape sequences the front end writes: clear, `ESC[r;cH` moves, `ESC[K`
    /// (which erases a row only when nothing was written on it since the move).
    fn interpret(&mut self, bytes: &str) {
        let mut row = 0usize;
        let mut at_start = true;
        let mut rest = bytes;
        loop {
            let (text, tail) = match rest.find('\x1b') {
                Some(i) => (&rest[..i], Some(&rest[i + 1..])),
                None => (rest, None),
            };
            if !text.is_empty() && text != "\x07" {
                self.put(row, text);
                at_start = false;
            }
            let Some(tail) = tail else { break };
            let Some(body) = tail.strip_prefix('[') else {
                rest = tail;
                continue;
            };
            let end = body
                .find(|c: char| c.is_ascii_alphabetic())
                .unwrap_or(body.len().saturating_sub(1));
            let (params, final_byte) = (&body[..end], body[end..].chars().next());
            match final_byte {
                Some('H') => {
                    row = params
                        .split(';')
                        .next()
                        .and_then(|r| r.parse::<usize>().ok())
                        .map_or(0, |r| r.saturating_sub(1));
                    at_start = true;
                }
                Some('J') => self.lines.clear(),
                Some('K') if at_start => {
                    if let Some(line) = self.lines.get_mut(row) {
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

    fn write(&mut self, bytes: &str) -> io::Result<()> {
        self.written.push_str(bytes);
        self.interpret(bytes);
        Ok(())
    }

    fn event(&mut self, _timeout: Option<Duration>) -> io::Result<Event> {
        let event = self.next()?;
        if event == Event::Resize {
            if let Some(size) = self.sizes.pop_front() {
                self.size = size;
            }
        }
        Ok(event)
    }

    fn edit(&mut self, _prompt: &str, initial: &str, _: &AtCompleter) -> io::Result<Edit> {
        let mut text = initial.to_string();
        loop {
            match self.next()? {
                Event::Key(Key::Enter) => return Ok(Edit::Saved(text)),
                Event::Key(Key::Esc) => return Ok(Edit::Closed(text)),
                Event::Key(Key::Ctrl('c')) => return Ok(Edit::Interrupted),
                Event::Key(Key::Ctrl('d')) if text.is_empty() => {
                    return Ok(Edit::Closed(String::new()))
                }
                Event::Key(Key::Ctrl('z')) => return Ok(Edit::Suspended(text)),
                Event::Key(Key::Ctrl(']')) => return Ok(Edit::Peek(text)),
                Event::Key(key @ (Key::Up | Key::Down | Key::Tab | Key::BackTab))
                | Event::Key(key @ (Key::Left | Key::Right))
                    if text.is_empty() =>
                {
                    return Ok(Edit::Navigate(key))
                }
                Event::Key(Key::Char(c)) => text.push(c),
                Event::Key(Key::Paste(p)) => text.push_str(&p),
                Event::Key(Key::Backspace) => {
                    text.pop();
                }
                _ => {}
            }
        }
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

    fn write(&mut self, bytes: &str) -> io::Result<()> {
        (**self).write(bytes)
    }

    fn event(&mut self, timeout: Option<Duration>) -> io::Result<Event> {
        (**self).event(timeout)
    }

    fn edit(&mut self, prompt: &str, initial: &str, completer: &AtCompleter) -> io::Result<Edit> {
        (**self).edit(prompt, initial, completer)
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

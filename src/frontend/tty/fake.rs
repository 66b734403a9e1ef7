//! A terminal played from a list of events on a fake clock ([`FakeBackend`]), for unit tests
//! and fuzzing the whole input path without a terminal.

use super::backend::{Backend, EditWait};
use crate::complete::AtCompleter;
use crate::editor::Edit;
use crate::keys::{Event, Key};
use std::collections::VecDeque;
use std::io;
use std::time::{Duration, Instant};

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

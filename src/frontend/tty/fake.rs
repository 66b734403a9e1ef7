//! A terminal played from a list of events on a fake clock ([`FakeBackend`]), for unit tests
//! and fuzzing the whole input path without a terminal. Built with `cfg(test)` and with the
//! `fake-terminal` feature (the fuzz crate's), which brings in `vt100`.
//!
//! ## The screen
//!
//! What the front end writes goes into a [`vt100`] screen of the window's rows and columns with
//! a scrollback, so a test asserts the exact rows a person sees ([`FakeBackend::visible`]),
//! what went into the scrollback ([`FakeBackend::scrollback`]), and where the cursor is. Text
//! printed before the run ([`FakeBackend::print`]: a shell prompt, a partial line) is on the
//! screen when the run starts.
//!
//! **Widths are tmux's.** vt100 counts columns with unicode-width, per code point, and widens
//! a cell when a zero-width character joins it and unicode-width's string width says so; tmux
//! 3.3a (the one the real-terminal tests run) counts with the C library's `wcwidth` and joins
//! differently: `👍🏽` is 4 columns (the skin tone is a character of its own), `⌚︎` 2 (VS15 does
//! not narrow it), U+3164 2, U+FFA0 and U+00AD 1 (unicode-width: 0), `❤️` 1 (VS16 does not
//! widen it), the code points its `wcwidth` does not know 0, and after a zero-width joiner the
//! next non-ASCII character joins the cell before (`👨‍👩` 2). vt100 has no hook for widths, so
//! the fake changes what it is given instead: each character whose columns differ (by tmux's
//! table in `fake/widths.rs`, measured from the real tmux by `fake/tmux_widths.py` over every
//! code point to U+3FFFF and U+E0000-U+E0FFF), every zero-width character, and every character
//! after a joiner is written to vt100 as a private stand-in that vt100 draws exactly as wide as
//! tmux draws the original (zero: an unassigned default-ignorable code point, which joins the
//! cell before and never widens it; one: plane 15 private use; two: an unassigned plane 3 code
//! point); every row read back maps the stand-ins to the characters they stand for. So the
//! cursor moves, wraps and scrolls where tmux's does, and the text reads as written. (tmux
//! drops the code points it does not know; the fake keeps them, zero columns wide, in the
//! cell before, so a test can see them.)
//!
//! **Resizes** (an [`Event::Resize`] takes the next of [`FakeBackend::sizes`]) resize the vt100
//! screen: a shorter window first drops blank rows below the cursor and then pushes rows off
//! the top into the scrollback, a taller one pulls them back, as tmux does; but rows are cut or
//! padded to the new width, never rewrapped as tmux rewraps them. The pty tests in real tmux
//! cover rewrapping.
//!
//! ## The clock
//!
//! One fake clock ([`FakeBackend::now`], [`FakeBackend::elapsed`]) for keys and timeouts: each event comes a gap after the one before ([`FakeBackend::timed`]; none with
//! [`FakeBackend::new`]). A wait for a key that ends before the next event is due moves the
//! clock by the wait and gives [`Event::Timeout`]; an event moves the clock to when it is due. A scripted [`Event::Timeout`] is a wait
//! that passes with no key: the clock moves by the wait the front end asked for (without a
//! wait, the front end is told of a timeout and no time passes). When the events run out the
//! terminal is gone, or (with [`FakeBackend::idle_at_end`]) every wait passes with no key, as
//! when a person stops typing, so `--timeout` ends the run. Nothing sleeps.
//!
//! ## Stale rows
//!
//! Inline, the front end draws a live region (the live block, and transcript lines it may
//! still rewrite) with relative moves, and leaves only its transcript. The fake records who last
//! changed each row (rows that scrolled off the top count on, so a row keeps its number), where
//! each of the front end's writes went (from the highest row its cursor reached to the lowest
//! row it left text on), and every cursor move the screen cut short. [`FakeBackend::stale_rows`] lists what is wrong:
//!
//! - a cursor-up or cursor-down that could not go as far as asked: the front end reached for a
//!   row that is gone, so what it drew there is in the scrollback, stale;
//! - a live block taller than the window's rows less one: from the highest row the next write
//!   changes (a transcript line it writes again as it was is not the block), down to the
//!   lowest row the write before left text on, not counted across a resize;
//! - a row below the cursor when the run ends that is not blank, or text right of the cursor
//!   on its row (the live block was not erased);
//! - a row that held text before the run and holds other text now (the run drew over the
//!   shell's output, or a partial line), allowing for rows cut by a narrower window.
//!
//! So after a run, the scrollback and the rows above the cursor hold what was printed before
//! the run and the lines the front end left, nothing else; [`FakeBackend::left`] gives them for
//! a test to assert exactly. [`FakeBackend::block_fits`] is the first two points alone.

mod backend;
mod checks;
mod term;
mod widths;

use crate::keys::{Clock, Event, ManualClock};
use std::collections::VecDeque;
use std::fmt::Write as _;
use std::io;
use std::time::{Duration, Instant};
use term::{Term, Writer};

/// A terminal played from a list of events on a fake clock, with a vt100 screen (see the
/// module notes). When the events run out the terminal is gone (`UnexpectedEof`).
#[derive(Debug)]
pub struct FakeBackend {
    /// (rows, columns); a `Resize` event takes the next size from `sizes`.
    pub size: (usize, usize),
    /// Sizes for the `Resize` events, in order.
    pub sizes: VecDeque<(usize, usize)>,
    /// What is still to come, each after a gap since the event before.
    pub events: VecDeque<(Duration, Event)>,
    /// Every byte the front end wrote.
    pub written: String,
    /// How often the job was suspended.
    pub suspends: usize,
    /// After each stop the job is continued in the background (`bg`) and brought to the
    /// foreground (`fg`) this long after, on the fake clock (`None`: `fg` at once).
    pub background_after_stop: Option<Duration>,
    /// How much of `written` there was when a stop's wait in the background ran out (after
    /// it, the real terminal writes nothing).
    pub written_when_left: Option<usize>,
    /// When the events run out: waits pass with no key, as when a person stops typing (`true`),
    /// or the terminal is gone (`false`, the default; a wait for ever is gone too).
    pub idle_at_end: bool,
    clock: ManualClock,
    started: Instant,
    /// When the last event came (the next one's gap counts from it).
    last_event: Instant,
    term: Term,
    /// Rows with text when the front end first wrote (absolute row, text).
    before: Option<Vec<(usize, String)>>,
    /// The narrowest window since the run started.
    narrowest: usize,
    /// Where each front-end write ends in `written`.
    write_ends: Vec<usize>,
}

/// What came within a wait.
enum Next {
    Event(Event),
    /// The wait passed first.
    Waited,
}

impl Default for FakeBackend {
    /// A 24x80 terminal with no events.
    fn default() -> Self {
        FakeBackend::new(24, 80, [])
    }
}

impl FakeBackend {
    /// A `rows` x `cols` terminal that will receive `events`, all at once (no gaps).
    pub fn new(rows: usize, cols: usize, events: impl IntoIterator<Item = Event>) -> Self {
        FakeBackend::timed(rows, cols, events.into_iter().map(|e| (Duration::ZERO, e)))
    }

    /// A `rows` x `cols` terminal that will receive `events`, each `gap` after the one before
    /// (the first `gap` after the start).
    pub fn timed(
        rows: usize,
        cols: usize,
        events: impl IntoIterator<Item = (Duration, Event)>,
    ) -> Self {
        let clock = ManualClock::new();
        let started = clock.now();
        FakeBackend {
            size: (rows, cols),
            sizes: VecDeque::new(),
            events: events.into_iter().collect(),
            written: String::new(),
            suspends: 0,
            background_after_stop: None,
            written_when_left: None,
            idle_at_end: false,
            clock,
            started,
            last_event: started,
            term: Term::new(rows, cols),
            before: None,
            narrowest: cols,
            write_ends: Vec::new(),
        }
    }

    /// The clock (a handle on the same time: advancing it moves the terminal's clock).
    pub fn clock(&self) -> ManualClock {
        self.clock.clone()
    }

    /// The time now on the fake clock.
    pub fn now(&self) -> Instant {
        self.clock.now()
    }

    /// Time passed on the fake clock since the terminal was made.
    pub fn elapsed(&self) -> Duration {
        self.clock.now() - self.started
    }

    /// Prints `text` before the run (a shell's output, a partial line without a newline), as
    /// a program before pi-ask would; not in [`FakeBackend::written`]. `\n` is a new line.
    pub fn print(&mut self, text: &str) {
        self.term.write(&text.replace('\n', "\r\n"), Writer::Before);
    }

    /// The visible rows, top first, each without trailing blanks.
    pub fn visible(&self) -> Vec<String> {
        self.term.visible()
    }

    /// The screen as text, one line per row, trailing blank rows dropped.
    pub fn screen(&self) -> String {
        let mut lines = self.visible();
        while lines.last().is_some_and(|l| l.is_empty()) {
            lines.pop();
        }
        lines.join("\n")
    }

    /// The rows that scrolled off the top, oldest first, each without trailing blanks.
    pub fn scrollback(&mut self) -> Vec<String> {
        self.term.scrollback()
    }

    /// The cursor (row, column), 0-based.
    pub fn cursor(&self) -> (usize, usize) {
        self.term.cursor()
    }

    /// Whether the cursor is shown (no `ESC[?25l` in force).
    pub fn cursor_visible(&self) -> bool {
        !self.term.screen().hide_cursor()
    }

    /// How often the bell rang (BEL written).
    pub fn bells(&self) -> usize {
        self.term.bells()
    }

    /// OSC strings the terminal was sent (window titles, clipboard, others), in order.
    pub fn osc(&self) -> &[String] {
        self.term.osc()
    }

    /// What is left above the cursor: the scrollback, the rows above the cursor's row, and its
    /// row up to the cursor when that holds text (what was printed before the run, then the
    /// front end's transcript, when nothing is stale).
    pub fn left(&mut self) -> Vec<String> {
        let mut rows = self.scrollback();
        let visible = self.visible();
        let (row, col) = self.cursor();
        rows.extend(visible.iter().take(row).cloned());
        let (_, cols) = self.term.size();
        let upto = self
            .term
            .screen()
            .rows(0, u16::try_from(col.min(cols)).unwrap_or(0));
        if let Some(text) = upto.into_iter().nth(row) {
            let text = self.term.read_back(text.trim_end());
            if !text.is_empty() {
                rows.push(text);
            }
        }
        rows
    }

    /// Every absolute row: the scrollback then the screen.
    fn all_rows(&mut self) -> Vec<String> {
        let mut rows = self.scrollback();
        rows.extend(self.visible());
        rows
    }

    /// The next event within `wait` (`None`: however long it takes).
    fn next(&mut self, wait: Option<Duration>) -> io::Result<Next> {
        let Some((gap, event)) = self.events.front().cloned() else {
            if let (true, Some(wait)) = (self.idle_at_end, wait) {
                self.clock.advance(wait);
                return Ok(Next::Waited);
            }
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "no more input",
            ));
        };
        let now = self.clock.now();
        if event == Event::Timeout {
            self.events.pop_front();
            if let Some(wait) = wait {
                self.clock.advance(wait);
            }
            self.last_event = self.clock.now();
            return Ok(Next::Waited);
        }
        let due = (self.last_event + gap).max(now);
        if let Some(wait) = wait {
            if now + wait < due {
                self.clock.advance(wait);
                return Ok(Next::Waited);
            }
        }
        self.clock.set(due);
        self.last_event = due;
        self.events.pop_front();
        if event == Event::Resize {
            if let Some(size) = self.sizes.pop_front() {
                self.size = size;
            }
            self.term.resize(self.size.0, self.size.1);
            self.narrowest = self.narrowest.min(self.size.1);
        }
        Ok(Next::Event(event))
    }
}

#[cfg(test)]
mod tests;

//! The key reader over a byte source and a clock, and the fake source and clock for tests and
//! fuzzing.

use super::{escape_delay, Decoder, Key, TtySource};
use std::cell::Cell;
use std::collections::VecDeque;
use std::io;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// What a [`ByteSource`] read gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    /// One byte from the terminal.
    Byte(u8),
    /// The window was resized (the source's wake pipe was written).
    Resize,
    /// Nothing came within the timeout.
    TimedOut,
}

/// The most bytes [`KeyReader::read_pending`] reads before a cursor position query: what is
/// left of a longer paste stays unread for the keys after it.
pub const MAX_READ_BEFORE_QUERY: usize = 4096;

/// Where the bytes of keys come from, one at a time.
pub trait ByteSource {
    /// Waits at most `timeout` (`None`: as long as it takes; `Some(Duration::ZERO)`: only
    /// what is there already) for one byte and returns it, without reading past it.
    /// [`Input::TimedOut`] when nothing came in time (a source may also return it a little
    /// early; the reader then waits again); [`Input::Resize`] when a resize ended the wait.
    ///
    /// Errors: the source's read errors; [`io::ErrorKind::UnexpectedEof`] when the source
    /// ended (the terminal read 0 bytes).
    fn read_byte(&mut self, timeout: Option<Duration>) -> io::Result<Input>;

    /// Discards the bytes that came but were not read yet (type-ahead). The default does
    /// nothing.
    ///
    /// Errors: as the source's discard call.
    fn discard_input(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The time, as the reader sees it.
pub trait Clock {
    /// The current time.
    fn now(&self) -> Instant;
}

/// The real clock: [`Instant::now`].
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Instant {
        Instant::now()
    }
}

/// A clock that moves only when told; clones share the time. For tests and fuzzing, with a
/// [`ScriptedSource`] that moves it as bytes arrive.
#[derive(Debug, Clone)]
pub struct ManualClock(Rc<Cell<Instant>>);

impl ManualClock {
    /// A clock standing at [`Instant::now`].
    pub fn new() -> ManualClock {
        ManualClock(Rc::new(Cell::new(Instant::now())))
    }

    /// Moves the time forward by `by`.
    pub fn advance(&self, by: Duration) {
        self.0.set(self.0.get() + by);
    }

    /// Sets the time (it may go backwards; the reader does not expect that).
    pub fn set(&self, to: Instant) {
        self.0.set(to);
    }
}

impl Default for ManualClock {
    fn default() -> Self {
        ManualClock::new()
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Instant {
        self.0.get()
    }
}

/// A fake terminal: inputs that arrive at scripted times on a [`ManualClock`]. Reading waits
/// by moving the clock, so nothing sleeps. For tests and fuzzing.
///
/// Each input arrives a gap after the one before (the first: after the clock's time when the
/// source was made). [`ByteSource::read_byte`] returns an input that has arrived at once; one
/// that arrives within the timeout moves the clock to its arrival; otherwise the clock moves
/// by the timeout and the read gives [`Input::TimedOut`]. With no input left, a read without
/// a timeout fails with [`io::ErrorKind::UnexpectedEof`] (the terminal went away).
#[derive(Debug)]
pub struct ScriptedSource {
    clock: ManualClock,
    items: VecDeque<(Instant, Input)>,
    /// When the last scripted input arrives.
    last: Instant,
    consumed: usize,
}

impl ScriptedSource {
    /// An empty script on `clock` (the source moves it; pass a clone of the reader's clock).
    pub fn new(clock: &ManualClock) -> ScriptedSource {
        ScriptedSource {
            clock: clock.clone(),
            items: VecDeque::new(),
            last: clock.now(),
            consumed: 0,
        }
    }

    /// Adds `input`, arriving `gap` after the input before.
    pub fn push(&mut self, gap: Duration, input: Input) -> &mut Self {
        self.last += gap;
        self.items.push_back((self.last, input));
        self
    }

    /// Adds `bytes`: the first `gap` after the input before, the others with it.
    pub fn push_bytes(&mut self, gap: Duration, bytes: &[u8]) -> &mut Self {
        for (i, &b) in bytes.iter().enumerate() {
            self.push(if i == 0 { gap } else { Duration::ZERO }, Input::Byte(b));
        }
        self
    }

    /// How many inputs were read (or discarded) so far.
    pub fn consumed(&self) -> usize {
        self.consumed
    }

    /// How many inputs are left.
    pub fn remaining(&self) -> usize {
        self.items.len()
    }
}

impl ByteSource for ScriptedSource {
    fn read_byte(&mut self, timeout: Option<Duration>) -> io::Result<Input> {
        let now = self.clock.now();
        // `None`: no limit (no timeout, or one past the end of time).
        let limit = timeout.and_then(|t| now.checked_add(t));
        match self.items.front() {
            Some(&(at, input)) if limit.is_none_or(|l| at <= l) => {
                if at > now {
                    self.clock.set(at);
                }
                self.items.pop_front();
                self.consumed += 1;
                Ok(input)
            }
            _ => match limit {
                None => Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "the scripted terminal has no more input",
                )),
                Some(l) => {
                    self.clock.set(l);
                    Ok(Input::TimedOut)
                }
            },
        }
    }

    fn discard_input(&mut self) -> io::Result<()> {
        let now = self.clock.now();
        while self.items.front().is_some_and(|&(at, _)| at <= now) {
            self.items.pop_front();
            self.consumed += 1;
        }
        Ok(())
    }
}

/// What [`KeyReader::next`] gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// A key.
    Key(Key),
    /// The window was resized: read the new size and draw again.
    Resize,
    /// No key within the timeout the caller gave.
    Timeout,
}

/// Reads keys: bytes from a [`ByteSource`], decoded by a [`Decoder`] with the time from a
/// [`Clock`].
///
/// It reads one byte at a time and stops at the byte that completes a key, so the bytes after
/// it stay in the terminal (for the external editor that takes over, say). Only when one byte
/// completes several keys (a broken sequence, ESC ESC: see [`Decoder`]) does it hold decoded
/// keys it has not returned yet, and while an ESC waits it holds that; [`KeyReader::is_idle`]
/// tells.
#[derive(Debug)]
pub struct KeyReader<S, C = SystemClock> {
    source: S,
    clock: C,
    decoder: Decoder,
}

impl KeyReader<TtySource, SystemClock> {
    /// The reader of the real terminal: `/dev/tty` ([`TtySource::open`]) woken by window
    /// resizes ([`TtySource::with_resize_wake`]), the system clock, and the escape delay of
    /// the environment ([`escape_delay`]). Raw mode is the caller's ([`super::RawMode`]).
    ///
    /// Errors: no controlling terminal, or the `SIGWINCH` handler could not be installed.
    pub fn open_tty() -> io::Result<Self> {
        let source = TtySource::open()?.with_resize_wake()?;
        Ok(KeyReader::new(source, SystemClock, escape_delay()))
    }
}

impl<S: ByteSource, C: Clock> KeyReader<S, C> {
    /// A reader of `source` that waits `delay` for the rest of an escape sequence.
    pub fn new(source: S, clock: C, delay: Duration) -> Self {
        KeyReader::with_decoder(source, clock, Decoder::new(delay))
    }

    /// A reader with a decoder set up by the caller (for instance a small paste chunk).
    pub fn with_decoder(source: S, clock: C, decoder: Decoder) -> Self {
        KeyReader {
            source,
            clock,
            decoder,
        }
    }

    /// Waits for the next key, at most `timeout` (`None`: as long as it takes;
    /// `Some(Duration::ZERO)`: only what is there already).
    ///
    /// Returns [`Event::Key`], [`Event::Resize`] when the window was resized (an incomplete
    /// sequence stays pending and goes on at the next call), or [`Event::Timeout`] when no key
    /// was complete within `timeout`. A lone ESC becomes [`Key::Esc`] only once the escape
    /// delay has passed, so an Esc can come up to that long after it was pressed.
    ///
    /// Errors: the source's (an interrupted wait is retried by [`TtySource`]);
    /// [`io::ErrorKind::UnexpectedEof`] when the terminal is gone. The bytes of an incomplete
    /// sequence at that point are dropped.
    pub fn next(&mut self, timeout: Option<Duration>) -> io::Result<Event> {
        let until = timeout.and_then(|t| self.clock.now().checked_add(t));
        loop {
            if let Some(key) = self.decoder.next_key() {
                return Ok(Event::Key(key));
            }
            let now = self.clock.now();
            let mut wait = match (timeout, until) {
                (None, _) => None,
                (Some(_), Some(u)) => Some(u.saturating_duration_since(now)),
                // A timeout past the end of time.
                (Some(t), None) => Some(t),
            };
            if let Some(deadline) = self.decoder.deadline() {
                let left = deadline.saturating_duration_since(now);
                wait = Some(wait.map_or(left, |w| w.min(left)));
            }
            match self.source.read_byte(wait)? {
                Input::Byte(b) => {
                    // The wait ended at the deadline at the latest, so the byte came in time
                    // however late this thread ran; a delay of 0 still takes what is there.
                    let mut at = self.clock.now();
                    if let Some(deadline) = self.decoder.deadline() {
                        at = at.min(deadline);
                    }
                    self.decoder.feed(b, at);
                }
                Input::Resize => return Ok(Event::Resize),
                Input::TimedOut => {
                    // Nothing came up to now: what timed out by now is over.
                    let now = self.clock.now();
                    self.decoder.expire(now);
                    if let Some(key) = self.decoder.next_key() {
                        return Ok(Event::Key(key));
                    }
                    if until.is_some_and(|u| now >= u) {
                        return Ok(Event::Timeout);
                    }
                }
            }
        }
    }

    /// Reads what already came and was not read yet, without waiting (up to
    /// [`MAX_READ_BEFORE_QUERY`] bytes): the keys decoded from it and the resizes are pushed
    /// to `early`, in order, and a cursor position report in it is swallowed, as one nobody
    /// asked for. Call it just before writing a cursor position query (`ESC[6n`): a report
    /// already waiting (typed, pasted, or xterm's Shift+F3 `ESC[1;2R`) is then never taken
    /// for its answer ([`KeyReader::cursor_report`]).
    ///
    /// Errors: as [`KeyReader::next`].
    pub fn read_pending(&mut self, early: &mut VecDeque<Event>) -> io::Result<()> {
        self.decoder.expect_cursor_report(false);
        for _ in 0..MAX_READ_BEFORE_QUERY {
            match self.source.read_byte(Some(Duration::ZERO))? {
                Input::Byte(b) => {
                    let at = self.clock.now();
                    self.decoder.feed(b, at);
                }
                Input::Resize => {
                    while let Some(key) = self.decoder.next_key() {
                        early.push_back(Event::Key(key));
                    }
                    early.push_back(Event::Resize);
                }
                Input::TimedOut => break,
            }
        }
        while let Some(key) = self.decoder.next_key() {
            early.push_back(Event::Key(key));
        }
        Ok(())
    }

    /// Waits at most `within` for the answer to a cursor position query (`ESC[6n`) the caller
    /// has just written, and returns it: (row, column), each from 1; `None` when none came in
    /// time (the terminal does not answer, or the link is slow). The keys and resizes that
    /// come before the answer are pushed to `early`, in order, for the caller to act on
    /// next: nothing typed meanwhile is lost or reordered; the bytes after the answer stay
    /// unread. A late answer is swallowed like any other reply.
    ///
    /// Errors: as [`KeyReader::next`].
    pub fn cursor_report(
        &mut self,
        within: Duration,
        early: &mut VecDeque<Event>,
    ) -> io::Result<Option<(u16, u16)>> {
        self.decoder.expect_cursor_report(true);
        let until = self.clock.now().checked_add(within);
        let answer = loop {
            while let Some(key) = self.decoder.next_key() {
                early.push_back(Event::Key(key));
            }
            if let Some(at) = self.decoder.take_cursor_report() {
                break Some(at);
            }
            let now = self.clock.now();
            let Some(left) = until.map(|u| u.saturating_duration_since(now)) else {
                break None;
            };
            if left.is_zero() {
                break None;
            }
            let wait = match self.decoder.deadline() {
                Some(d) => left.min(d.saturating_duration_since(now)),
                None => left,
            };
            match self.source.read_byte(Some(wait)) {
                Ok(Input::Byte(b)) => {
                    let mut at = self.clock.now();
                    if let Some(deadline) = self.decoder.deadline() {
                        at = at.min(deadline);
                    }
                    self.decoder.feed(b, at);
                }
                Ok(Input::Resize) => early.push_back(Event::Resize),
                Ok(Input::TimedOut) => self.decoder.expire(self.clock.now()),
                Err(e) => {
                    self.decoder.expect_cursor_report(false);
                    return Err(e);
                }
            }
        };
        self.decoder.expect_cursor_report(false);
        Ok(answer)
    }

    /// Discards type-ahead: the bytes that came but were not read yet, and whatever the
    /// decoder holds (decoded keys not returned, an incomplete sequence, a paste in progress).
    /// Call it just before the first screen is drawn, so keys typed before it never answer.
    ///
    /// Errors: as [`ByteSource::discard_input`] (for [`TtySource`]: `tcflush`).
    pub fn discard_type_ahead(&mut self) -> io::Result<()> {
        self.decoder.reset();
        self.source.discard_input()
    }

    /// Whether the reader holds no byte and no key: everything after the last key returned is
    /// still in the terminal.
    pub fn is_idle(&self) -> bool {
        self.decoder.is_idle()
    }

    /// The decoder (to look at what it holds).
    pub fn decoder(&self) -> &Decoder {
        &self.decoder
    }

    /// The byte source.
    pub fn source(&self) -> &S {
        &self.source
    }

    /// The byte source, to change.
    pub fn source_mut(&mut self) -> &mut S {
        &mut self.source
    }

    /// The clock.
    pub fn clock(&self) -> &C {
        &self.clock
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn reader() -> (KeyReader<ScriptedSource, ManualClock>, ManualClock) {
        let clock = ManualClock::new();
        let source = ScriptedSource::new(&clock);
        (KeyReader::new(source, clock.clone(), ms(25)), clock)
    }

    #[test]
    fn a_key_that_is_there_comes_at_once() {
        let (mut r, clock) = reader();
        let start = clock.now();
        r.source_mut().push_bytes(ms(0), b"a");
        assert_eq!(r.next(None).unwrap(), Event::Key(Key::Char('a')));
        assert_eq!(clock.now(), start);
    }

    #[test]
    fn the_reader_waits_for_a_late_key_and_the_clock_moves_to_it() {
        let (mut r, clock) = reader();
        let start = clock.now();
        r.source_mut().push_bytes(ms(5000), b"\r");
        assert_eq!(r.next(None).unwrap(), Event::Key(Key::Enter));
        assert_eq!(clock.now(), start + ms(5000));
    }

    #[test]
    fn no_key_within_the_timeout_is_a_timeout_at_the_timeout() {
        let (mut r, clock) = reader();
        let start = clock.now();
        r.source_mut().push_bytes(ms(300), b"x");
        assert_eq!(r.next(Some(ms(100))).unwrap(), Event::Timeout);
        assert_eq!(clock.now(), start + ms(100));
        assert_eq!(r.next(Some(ms(100))).unwrap(), Event::Timeout);
        assert_eq!(r.next(Some(ms(100))).unwrap(), Event::Key(Key::Char('x')));
        assert_eq!(clock.now(), start + ms(300));
        assert_eq!(r.next(Some(Duration::ZERO)).unwrap(), Event::Timeout);
    }

    #[test]
    fn a_zero_timeout_takes_what_is_there() {
        let (mut r, _) = reader();
        r.source_mut().push_bytes(ms(0), b"\x1b[B");
        assert_eq!(r.next(Some(Duration::ZERO)).unwrap(), Event::Key(Key::Down));
    }

    #[test]
    fn a_lone_esc_is_the_esc_key_after_the_delay() {
        let (mut r, clock) = reader();
        let start = clock.now();
        r.source_mut().push_bytes(ms(0), b"\x1b");
        assert_eq!(r.next(None).unwrap(), Event::Key(Key::Esc));
        assert_eq!(clock.now(), start + ms(25));
    }

    #[test]
    fn a_timeout_shorter_than_the_delay_leaves_the_esc_pending() {
        let (mut r, _) = reader();
        r.source_mut().push_bytes(ms(0), b"\x1b");
        r.source_mut().push_bytes(ms(20), b"[A");
        assert_eq!(r.next(Some(ms(10))).unwrap(), Event::Timeout);
        assert!(r.decoder().is_pending());
        assert_eq!(r.next(Some(ms(10))).unwrap(), Event::Key(Key::Up));
    }

    #[test]
    fn a_timeout_at_the_deadline_gives_the_esc_not_a_timeout() {
        let (mut r, _) = reader();
        r.source_mut().push_bytes(ms(0), b"\x1b");
        assert_eq!(r.next(Some(ms(25))).unwrap(), Event::Key(Key::Esc));
    }

    #[test]
    fn a_resize_is_an_event_and_a_pending_sequence_goes_on_after_it() {
        let (mut r, _) = reader();
        r.source_mut()
            .push_bytes(ms(0), b"\x1b[")
            .push(ms(3), Input::Resize)
            .push_bytes(ms(3), b"C");
        assert_eq!(r.next(None).unwrap(), Event::Resize);
        assert_eq!(r.next(None).unwrap(), Event::Key(Key::Right));
    }

    #[test]
    fn the_end_of_input_is_unexpected_eof() {
        let (mut r, _) = reader();
        r.source_mut().push_bytes(ms(0), b"q");
        assert_eq!(r.next(None).unwrap(), Event::Key(Key::Char('q')));
        let err = r.next(None).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof);
    }

    #[test]
    fn the_reader_stops_at_the_byte_that_completes_a_key() {
        let (mut r, _) = reader();
        r.source_mut().push_bytes(ms(0), b"\x1b[Bxyz");
        assert_eq!(r.next(None).unwrap(), Event::Key(Key::Down));
        assert_eq!(r.source().consumed(), 3);
        assert!(r.is_idle());
        assert_eq!(r.next(None).unwrap(), Event::Key(Key::Char('x')));
        assert_eq!(r.source().consumed(), 4);
    }

    #[test]
    fn discarding_type_ahead_drops_what_came_and_keeps_what_comes_later() {
        let (mut r, _) = reader();
        r.source_mut()
            .push_bytes(ms(0), b"looks good\r")
            .push_bytes(ms(500), b"2");
        r.discard_type_ahead().unwrap();
        assert_eq!(r.next(None).unwrap(), Event::Key(Key::Char('2')));
    }

    #[test]
    fn discarding_type_ahead_drops_a_pending_sequence_too() {
        let (mut r, _) = reader();
        r.source_mut()
            .push_bytes(ms(0), b"\x1b[")
            .push_bytes(ms(40), b"x");
        assert_eq!(r.next(Some(ms(1))).unwrap(), Event::Timeout);
        r.discard_type_ahead().unwrap();
        assert!(r.is_idle());
        assert_eq!(r.next(None).unwrap(), Event::Key(Key::Char('x')));
    }

    #[test]
    fn a_huge_timeout_waits_like_none() {
        let (mut r, _) = reader();
        r.source_mut().push_bytes(ms(10_000), b"z");
        assert_eq!(
            r.next(Some(Duration::MAX)).unwrap(),
            Event::Key(Key::Char('z'))
        );
    }

    #[test]
    fn the_cursor_report_comes_with_the_keys_before_it_kept_in_order() {
        let (mut r, clock) = reader();
        let start = clock.now();
        r.source_mut()
            .push_bytes(ms(1), b"ab\x1b[")
            .push(ms(1), Input::Resize)
            .push_bytes(ms(2), b"B\x1b[12;1Rc\r");
        let mut early = VecDeque::new();
        assert_eq!(r.cursor_report(ms(200), &mut early).unwrap(), Some((12, 1)));
        assert_eq!(
            Vec::from(early),
            [
                Event::Key(Key::Char('a')),
                Event::Key(Key::Char('b')),
                Event::Resize,
                Event::Key(Key::Down),
            ]
        );
        assert_eq!(clock.now(), start + ms(4));
        // What came after the answer is still unread, and read as keys.
        assert_eq!(r.next(None).unwrap(), Event::Key(Key::Char('c')));
        assert_eq!(r.next(None).unwrap(), Event::Key(Key::Enter));
    }

    #[test]
    fn no_cursor_report_within_the_bound_is_none_and_a_late_one_is_swallowed() {
        let (mut r, clock) = reader();
        let start = clock.now();
        r.source_mut()
            .push_bytes(ms(150), b"x")
            .push_bytes(ms(300), b"\x1b[3;4Ry");
        let mut early = VecDeque::new();
        assert_eq!(r.cursor_report(ms(200), &mut early).unwrap(), None);
        assert_eq!(clock.now(), start + ms(200));
        assert_eq!(Vec::from(early), [Event::Key(Key::Char('x'))]);
        assert_eq!(r.next(None).unwrap(), Event::Key(Key::Char('y')));
    }

    #[test]
    fn a_cursor_report_waiting_before_the_query_is_not_its_answer() {
        let (mut r, clock) = reader();
        // Already there as the query is written: a key, Shift+F3 (`ESC[1;2R`, a report's
        // shape), a resize, another key.
        r.source_mut()
            .push_bytes(ms(0), b"a\x1b[1;2R")
            .push(ms(0), Input::Resize)
            .push_bytes(ms(0), b"b")
            .push_bytes(ms(5), b"\x1b[20;1R");
        let mut early = VecDeque::new();
        r.read_pending(&mut early).unwrap();
        assert_eq!(
            Vec::from(early.clone()),
            [
                Event::Key(Key::Char('a')),
                Event::Resize,
                Event::Key(Key::Char('b'))
            ]
        );
        let start = clock.now();
        // The answer is the report that came after the query.
        assert_eq!(r.cursor_report(ms(200), &mut early).unwrap(), Some((20, 1)));
        assert_eq!(clock.now(), start + ms(5));
        assert_eq!(early.len(), 3);
    }

    #[test]
    fn reading_before_the_query_stops_at_its_bound() {
        let (mut r, _) = reader();
        let many = vec![b'x'; MAX_READ_BEFORE_QUERY + 1];
        r.source_mut().push_bytes(ms(0), &many);
        let mut early = VecDeque::new();
        r.read_pending(&mut early).unwrap();
        assert_eq!(early.len(), MAX_READ_BEFORE_QUERY);
        assert_eq!(r.source().remaining(), 1);
    }

    #[test]
    fn an_unasked_cursor_report_or_ctrl_f3_is_no_key_and_no_report() {
        let (mut r, _) = reader();
        r.source_mut().push_bytes(ms(0), b"\x1b[1;5R\x1b[7;9Rz");
        assert_eq!(r.next(None).unwrap(), Event::Key(Key::Char('z')));
        assert_eq!(r.decoder.take_cursor_report(), None);
    }
}

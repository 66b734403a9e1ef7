//! The pure byte-to-key decoder: no I/O, the time of each byte is passed in.

use super::{Key, MAX_ESCAPE_DELAY, PASTE_IDLE};
use std::collections::VecDeque;
use std::mem;
use std::time::{Duration, Instant};

/// The most bytes of one escape sequence the decoder keeps (ESC included). A longer sequence
/// cannot be a key: it is swallowed to its end without being kept.
pub const MAX_SEQUENCE: usize = 128;

/// The default most bytes of a paste kept before a [`Key::Paste`] is handed out: 1 MiB.
pub const DEFAULT_PASTE_CHUNK: usize = 1 << 20;

/// The smallest paste chunk [`Decoder::with_paste_chunk`] accepts.
const MIN_PASTE_CHUNK: usize = 4;

const ESC: u8 = 0x1b;
const BEL: u8 = 0x07;
/// The end of a bracketed paste.
const PASTE_END: &[u8] = b"\x1b[201~";

/// Where the decoder is inside the byte stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Between keys.
    Ground,
    /// Inside a UTF-8 character (`buf`: its bytes so far, after an ESC when `alt`).
    Utf8 { alt: bool },
    /// After an ESC (`buf`: the ESC).
    Esc,
    /// Inside `ESC [` (`buf`: the sequence so far).
    Csi,
    /// Inside `ESC O` (`buf`: the sequence so far).
    Ss3,
    /// Inside an OSC, DCS or APC string (`buf`: the sequence so far).
    Str,
    /// An ESC inside a string: `\` ends it (`buf`: the sequence so far, that ESC last).
    StrEsc,
    /// After X10 mouse `ESC [ M`: this many raw bytes still belong to it.
    Mouse(u8),
    /// After Linux console `ESC [ [`: one more byte (the function key) belongs to it.
    ConsoleFn,
    /// A sequence longer than [`MAX_SEQUENCE`], swallowed to its end without keeping it.
    Overlong(Long),
    /// Inside a bracketed paste (`buf`: the pasted bytes not handed out yet).
    Paste,
}

/// What kind of overlong sequence is being swallowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Long {
    /// CSI or SS3: up to a final byte.
    Csi,
    /// A string: up to BEL or `ESC \`.
    Str,
    /// A string whose last byte was ESC.
    StrEsc,
}

/// How a complete CSI or SS3 sequence ends up.
enum Done {
    Key(Key),
    Swallow,
    PasteStart,
    Mouse,
    ConsoleFn,
}

/// Turns the terminal's bytes into [`Key`]s, with an escape timeout.
///
/// Feed it every byte with the time it was read ([`Decoder::feed`]) and take the keys out with
/// [`Decoder::next_key`]; a byte gives zero, one or (after a broken sequence) several keys.
/// While an escape sequence or a UTF-8 character is incomplete, [`Decoder::deadline`] says
/// when it times out; call [`Decoder::expire`] with the current time when nothing came by
/// then. [`Decoder::feed`] expires first by itself.
///
/// The timeout rules, with `delay` the escape delay ([`super::escape_delay`]):
///
/// - The deadline is `delay` after the last byte of the incomplete sequence, so a sequence
///   whose bytes come a little apart (ssh, slow links) still decodes, however long it is. A
///   byte that comes at the deadline still counts.
/// - An ESC followed by nothing within the delay is [`Key::Esc`]; whatever comes later is
///   ordinary input (ESC, a pause, then `[B` is `Esc`, `Char('[')`, `Char('B')`).
/// - An ESC followed within the delay by a printable character that does not start a sequence
///   is [`Key::Alt`] of it at once. `[`, `O`, `]`, `P` and `_` start a sequence; if the
///   sequence does not complete (the delay passes, or a byte comes that cannot continue it),
///   the ESC and that character are `Alt` of it and the rest of its bytes are decoded again as
///   ordinary input: ESC, `[`, a pause is `Alt('[')`; `ESC [ 1 ;` and a pause is `Alt('[')`,
///   `Char('1')`, `Char(';')`. A sequence broken this way never gives `Esc`, so a split arrow
///   key never cancels anything.
/// - ESC ESC is `Esc`, and the second ESC starts anew. ESC followed by a control byte is that
///   byte's key (the Alt is dropped: ESC CR is `Enter`), but ESC 0x7f or 0x08 is Alt+Backspace.
/// - An incomplete UTF-8 character gives one U+FFFD when it times out or a byte comes that
///   cannot continue it (which is then decoded on its own).
/// - A bracketed paste lasts until `ESC[201~`, or until no byte came for [`PASTE_IDLE`]: then
///   what it gathered is handed out as if its end had come (an end that never comes would
///   take every key after it as pasted text).
/// - A sequence longer than [`MAX_SEQUENCE`] bytes is swallowed to its end; if it times out
///   first, it is dropped.
///
/// The decoder keeps at most [`MAX_SEQUENCE`] bytes of a sequence, or the paste chunk size
/// plus 4 bytes of a paste ([`Decoder::buffered_len`]).
#[derive(Debug, Clone)]
pub struct Decoder {
    delay: Duration,
    paste_chunk: usize,
    state: State,
    /// The bytes of the incomplete sequence, character or paste.
    buf: Vec<u8>,
    /// When the last byte of the incomplete sequence came.
    last: Option<Instant>,
    /// Decoded keys not taken yet.
    keys: VecDeque<Key>,
    /// Whether the paste in progress was handed out in part already.
    chunked: bool,
    /// Bytes to decode (again); empty between calls.
    work: VecDeque<u8>,
    /// A cursor position query is outstanding: the next `ESC[row;colR` is its answer.
    expect_report: bool,
    /// The answer to the outstanding query, not taken yet: (row, column), from 1.
    report: Option<(u16, u16)>,
}

impl Decoder {
    /// A decoder that waits `delay` for the rest of an escape sequence (cut to
    /// [`MAX_ESCAPE_DELAY`], 10 s), with pastes handed out in chunks of at most
    /// [`DEFAULT_PASTE_CHUNK`] bytes.
    pub fn new(delay: Duration) -> Decoder {
        Decoder {
            delay: delay.min(MAX_ESCAPE_DELAY),
            paste_chunk: DEFAULT_PASTE_CHUNK,
            state: State::Ground,
            buf: Vec::new(),
            last: None,
            keys: VecDeque::new(),
            chunked: false,
            work: VecDeque::new(),
            expect_report: false,
            report: None,
        }
    }

    /// Whether a cursor position query (`ESC[6n`) is outstanding. While it is, the first
    /// `ESC[row;colR` is its answer ([`Decoder::take_cursor_report`]), in order with the keys
    /// around it; otherwise that sequence is swallowed like any other reply (it is also F3
    /// with modifiers in legacy encodings, `ESC[1;5R`, so it is never taken for an answer
    /// nobody asked for).
    pub fn expect_cursor_report(&mut self, outstanding: bool) {
        self.expect_report = outstanding;
        if !outstanding {
            self.report = None;
        }
    }

    /// The answer to the outstanding cursor position query, once it came: (row, column), each
    /// from 1 (as the terminal writes them, cut to 65535). Taking it ends the query.
    pub fn take_cursor_report(&mut self) -> Option<(u16, u16)> {
        let report = self.report.take();
        if report.is_some() {
            self.expect_report = false;
        }
        report
    }

    /// The same decoder with pastes handed out in chunks of at most `bytes` bytes (at least 4;
    /// smaller values are raised to 4): a longer paste gives several [`Key::Paste`] in a row,
    /// each cut between characters. For tests and fuzzing; the default is 1 MiB.
    pub fn with_paste_chunk(mut self, bytes: usize) -> Decoder {
        self.paste_chunk = bytes.max(MIN_PASTE_CHUNK);
        self
    }

    /// The escape delay this decoder waits.
    pub fn delay(&self) -> Duration {
        self.delay
    }

    /// Decodes one byte that came at `now`. A byte that comes at the [`Decoder::deadline`] or
    /// before continues the incomplete sequence; one that comes after it first expires it
    /// (see [`Decoder::expire`]). The keys it completes are taken with [`Decoder::next_key`].
    pub fn feed(&mut self, byte: u8, now: Instant) {
        if self.deadline().is_some_and(|d| now > d) {
            self.expire(now);
        }
        self.work.push_back(byte);
        self.drain(now);
    }

    /// [`Decoder::feed`] for each of `bytes`, all read at `now`.
    pub fn feed_all(&mut self, bytes: &[u8], now: Instant) {
        for &b in bytes {
            self.feed(b, now);
        }
    }

    /// Ends whatever timed out at `now`, when no byte came up to it: the incomplete sequence
    /// if its [`Decoder::deadline`] is at or before `now`. A lone ESC becomes [`Key::Esc`], a
    /// broken sequence `Alt` and ordinary input, an incomplete UTF-8 character U+FFFD (see
    /// [`Decoder`]). Afterwards the deadline is `None` or after `now`.
    pub fn expire(&mut self, now: Instant) {
        while let Some(deadline) = self.deadline() {
            if now < deadline {
                break;
            }
            let at = self.last.unwrap_or(now);
            self.break_pending(None);
            self.drain(at);
        }
    }

    /// When the incomplete escape sequence or UTF-8 character times out: the escape delay
    /// after its last byte ([`PASTE_IDLE`] inside a paste). A byte that comes up to this
    /// instant still continues it. `None` when nothing waits (between keys).
    pub fn deadline(&self) -> Option<Instant> {
        match self.state {
            State::Ground => None,
            State::Paste => self.last.map(|t| t + PASTE_IDLE),
            _ => self.last.map(|t| t + self.delay),
        }
    }

    /// The next decoded key, oldest first; `None` when there is none yet.
    pub fn next_key(&mut self) -> Option<Key> {
        self.keys.pop_front()
    }

    /// Whether an incomplete escape sequence or UTF-8 character waits (it has a deadline).
    pub fn is_pending(&self) -> bool {
        self.deadline().is_some()
    }

    /// Whether the decoder is inside a bracketed paste (after `ESC[200~`, before `ESC[201~`).
    pub fn in_paste(&self) -> bool {
        self.state == State::Paste
    }

    /// Whether the decoder holds nothing: no byte of an incomplete key and no decoded key.
    /// Then every byte after the last key taken is still unread.
    pub fn is_idle(&self) -> bool {
        self.state == State::Ground && self.keys.is_empty()
    }

    /// How many bytes the decoder holds: at most [`MAX_SEQUENCE`] for a sequence, or the paste
    /// chunk size plus 4 inside a paste.
    pub fn buffered_len(&self) -> usize {
        self.buf.len() + self.work.len()
    }

    /// Forgets everything held: incomplete sequences, a paste in progress, and decoded keys
    /// not taken yet.
    pub fn reset(&mut self) {
        self.state = State::Ground;
        self.buf.clear();
        self.last = None;
        self.keys.clear();
        self.chunked = false;
        self.work.clear();
        self.expect_report = false;
        self.report = None;
    }

    /// Decodes the bytes in `work`, each read at `now`.
    fn drain(&mut self, now: Instant) {
        while let Some(b) = self.work.pop_front() {
            self.step(b, now);
        }
    }

    /// Ends the incomplete sequence or character (see [`Decoder`] for what it gives). Its
    /// remaining bytes, then `redo` (the byte that could not continue it), are put first in
    /// `work` to be decoded as ordinary input.
    fn break_pending(&mut self, redo: Option<u8>) {
        let state = mem::replace(&mut self.state, State::Ground);
        let buf = mem::take(&mut self.buf);
        self.last = None;
        if let Some(b) = redo {
            self.work.push_front(b);
        }
        match state {
            State::Paste => {
                // A paste whose end did not come: what it gathered, as if it had.
                let text = String::from_utf8_lossy(&buf).into_owned();
                if !text.is_empty() || !self.chunked {
                    self.keys.push_back(Key::Paste(text));
                }
                self.chunked = false;
            }
            State::Ground | State::Overlong(_) => {}
            State::Esc => self.keys.push_back(Key::Esc),
            State::Utf8 { alt } => self.keys.push_back(if alt {
                Key::Alt(char::REPLACEMENT_CHARACTER)
            } else {
                Key::Char(char::REPLACEMENT_CHARACTER)
            }),
            State::Csi | State::Ss3 | State::Str | State::StrEsc | State::Mouse(_) => {
                self.keys.push_back(Key::Alt(char::from(buf[1])));
                for &b in buf[2..].iter().rev() {
                    self.work.push_front(b);
                }
            }
            State::ConsoleFn => {
                self.keys.push_back(Key::Alt('['));
                self.work.push_front(b'[');
            }
        }
        // The buffer keeps its capacity for the next sequence.
        self.buf = buf;
        self.buf.clear();
    }

    /// Starts a sequence (or character) whose first byte `b` came at `now`.
    fn begin(&mut self, state: State, b: u8, now: Instant) {
        self.state = state;
        self.buf.clear();
        self.buf.push(b);
        self.last = Some(now);
    }

    /// Adds `b`, read at `now`, to the incomplete sequence; past [`MAX_SEQUENCE`] bytes the
    /// sequence goes on as `long` without being kept.
    fn push(&mut self, b: u8, now: Instant, long: Long) {
        self.last = Some(now);
        if self.buf.len() >= MAX_SEQUENCE {
            self.buf.clear();
            self.state = State::Overlong(long);
        } else {
            self.buf.push(b);
        }
    }

    /// Ends the sequence: no key.
    fn finish(&mut self) {
        self.state = State::Ground;
        self.buf.clear();
        self.last = None;
    }

    /// Ends the sequence with `key`.
    fn finish_with(&mut self, key: Key) {
        self.finish();
        self.keys.push_back(key);
    }

    fn step(&mut self, b: u8, now: Instant) {
        match self.state {
            State::Ground => self.ground(b, now),
            State::Utf8 { alt } => self.utf8(b, now, alt),
            State::Esc => self.after_esc(b, now),
            State::Csi => match b {
                0x20..=0x3f => self.push(b, now, Long::Csi),
                0x40..=0x7e => {
                    let fin = b;
                    if let Some(at) = self.cursor_report(fin) {
                        self.report = Some(at);
                        self.expect_report = false;
                        self.finish();
                        return;
                    }
                    let done = csi(&self.buf[2..], fin);
                    self.complete(done, b, now);
                }
                _ => self.break_pending(Some(b)),
            },
            State::Ss3 => match b {
                0x30..=0x3f => self.push(b, now, Long::Csi),
                0x40..=0x7e => {
                    let done = ss3(&self.buf[2..], b);
                    self.complete(done, b, now);
                }
                _ => self.break_pending(Some(b)),
            },
            State::Str => match b {
                BEL => self.finish(),
                ESC => {
                    self.push(b, now, Long::StrEsc);
                    if self.state == State::Str {
                        self.state = State::StrEsc;
                    }
                }
                _ => self.push(b, now, Long::Str),
            },
            State::StrEsc => {
                if b == b'\\' {
                    self.finish();
                } else {
                    // ESC not followed by `\` ends the string and starts a new sequence.
                    self.begin(State::Esc, ESC, now);
                    self.after_esc(b, now);
                }
            }
            State::Mouse(left) => {
                self.last = Some(now);
                self.buf.push(b);
                if left <= 1 {
                    self.finish();
                } else {
                    self.state = State::Mouse(left - 1);
                }
            }
            State::ConsoleFn => match b {
                0x40..=0x7e => self.finish(),
                _ => self.break_pending(Some(b)),
            },
            State::Overlong(long) => {
                self.last = Some(now);
                match (long, b) {
                    (Long::Csi, 0x20..=0x3f) => {}
                    (Long::Csi, 0x40..=0x7e) => self.finish(),
                    (Long::Csi, _) => {
                        self.finish();
                        self.work.push_front(b);
                    }
                    (Long::Str, BEL) => self.finish(),
                    (Long::Str, ESC) => self.state = State::Overlong(Long::StrEsc),
                    (Long::Str, _) => {}
                    (Long::StrEsc, b'\\') => self.finish(),
                    (Long::StrEsc, _) => {
                        self.begin(State::Esc, ESC, now);
                        self.after_esc(b, now);
                    }
                }
            }
            State::Paste => {
                self.last = Some(now);
                self.paste(b);
            }
        }
    }

    /// The answer to an outstanding cursor position query, when the CSI sequence in `buf` with
    /// final byte `fin` is one: `ESC [ row ; col R`.
    fn cursor_report(&self, fin: u8) -> Option<(u16, u16)> {
        if fin != b'R' || !self.expect_report || self.report.is_some() {
            return None;
        }
        let body = &self.buf[2..];
        let mut parts = body.split(|&b| b == b';');
        let mut num = || -> Option<u16> {
            let n = parts.next()?;
            if n.is_empty() || n.len() > 10 || !n.iter().all(u8::is_ascii_digit) {
                return None;
            }
            let v = n
                .iter()
                .fold(0u64, |acc, &d| acc * 10 + u64::from(d - b'0'));
            Some(u16::try_from(v).unwrap_or(u16::MAX))
        };
        let (row, col) = (num()?, num()?);
        parts.next().is_none().then_some((row, col))
    }

    /// Acts on a complete CSI or SS3 sequence whose final byte `b` came at `now`.
    fn complete(&mut self, done: Done, b: u8, now: Instant) {
        match done {
            Done::Key(key) => self.finish_with(key),
            Done::Swallow => self.finish(),
            Done::PasteStart => {
                self.finish();
                self.state = State::Paste;
                self.last = Some(now);
                self.chunked = false;
            }
            Done::Mouse => {
                self.push(b, now, Long::Csi);
                self.state = State::Mouse(3);
            }
            Done::ConsoleFn => {
                self.push(b, now, Long::Csi);
                self.state = State::ConsoleFn;
            }
        }
    }

    fn ground(&mut self, b: u8, now: Instant) {
        match b {
            ESC => self.begin(State::Esc, b, now),
            0x80..=0xff => match utf8_len(b) {
                Some(_) => self.begin(State::Utf8 { alt: false }, b, now),
                None => self.keys.push_back(Key::Char(char::REPLACEMENT_CHARACTER)),
            },
            _ => self.keys.extend(ascii_key(b)),
        }
    }

    fn after_esc(&mut self, b: u8, now: Instant) {
        match b {
            b'[' => {
                self.push(b, now, Long::Csi);
                self.state = State::Csi;
            }
            b'O' => {
                self.push(b, now, Long::Csi);
                self.state = State::Ss3;
            }
            b']' | b'P' | b'_' => {
                self.push(b, now, Long::Str);
                self.state = State::Str;
            }
            ESC => {
                self.keys.push_back(Key::Esc);
                self.begin(State::Esc, b, now);
            }
            0x20..=0x7e => self.finish_with(Key::Alt(char::from(b))),
            0x80..=0xff => match utf8_len(b) {
                Some(_) => {
                    self.push(b, now, Long::Csi);
                    self.state = State::Utf8 { alt: true };
                }
                None => self.finish_with(Key::Alt(char::REPLACEMENT_CHARACTER)),
            },
            // Alt+Backspace: the line editors' backward-kill-word.
            0x7f | 0x08 => self.finish_with(Key::Alt('\u{7f}')),
            // Another control byte after ESC: its own key, the Alt dropped.
            _ => {
                self.finish();
                self.keys.extend(ascii_key(b));
            }
        }
    }

    fn utf8(&mut self, b: u8, now: Instant, alt: bool) {
        let start = usize::from(alt);
        let char_bytes = &self.buf[start..];
        if !utf8_continues(char_bytes, b) {
            self.break_pending(Some(b));
            return;
        }
        self.buf.push(b);
        self.last = Some(now);
        let char_bytes = &self.buf[start..];
        if Some(char_bytes.len()) == utf8_len(char_bytes[0]) {
            let c = std::str::from_utf8(char_bytes)
                .ok()
                .and_then(|s| s.chars().next())
                .unwrap_or(char::REPLACEMENT_CHARACTER);
            self.finish();
            // C1 control characters are not keys.
            if !c.is_control() {
                self.keys
                    .push_back(if alt { Key::Alt(c) } else { Key::Char(c) });
            }
        }
    }

    fn paste(&mut self, b: u8) {
        self.buf.push(b);
        if self.buf.ends_with(PASTE_END) {
            let end = self.buf.len() - PASTE_END.len();
            let text = String::from_utf8_lossy(&self.buf[..end]).into_owned();
            // A paste handed out in chunks has no empty last chunk.
            if text.is_empty() && self.chunked {
                self.finish();
            } else {
                self.finish_with(Key::Paste(text));
            }
        } else if self.buf.len() >= self.paste_chunk + PASTE_END.len() - 1 {
            // Keep the last bytes, which may be the start of the end marker, and cut between
            // characters.
            let cut = char_boundary(&self.buf, self.buf.len() - (PASTE_END.len() - 1));
            let text = String::from_utf8_lossy(&self.buf[..cut]).into_owned();
            self.buf.drain(..cut);
            self.keys.push_back(Key::Paste(text));
            self.chunked = true;
        }
    }
}

/// The key of a byte below 0x80 on its own; `None` for ESC (a sequence) and bytes above.
fn ascii_key(b: u8) -> Option<Key> {
    Some(match b {
        b'\r' | b'\n' => Key::Enter,
        b'\t' => Key::Tab,
        0x7f | 0x08 => Key::Backspace,
        0x00 => Key::Ctrl(' '),
        0x01..=0x1a => Key::Ctrl(char::from(b'a' + b - 1)),
        0x1c => Key::Ctrl('\\'),
        0x1d => Key::Ctrl(']'),
        0x1e => Key::Ctrl('^'),
        0x1f => Key::Ctrl('_'),
        0x20..=0x7e => Key::Char(char::from(b)),
        _ => return None,
    })
}

/// How many bytes a UTF-8 character with this first byte has; `None` if no valid character
/// starts with it.
fn utf8_len(lead: u8) -> Option<usize> {
    match lead {
        0xc2..=0xdf => Some(2),
        0xe0..=0xef => Some(3),
        0xf0..=0xf4 => Some(4),
        _ => None,
    }
}

/// Whether `b` can follow `so_far` (a valid incomplete UTF-8 character) in valid UTF-8.
fn utf8_continues(so_far: &[u8], b: u8) -> bool {
    let range = match (so_far.len(), so_far[0]) {
        (1, 0xe0) => 0xa0..=0xbf,
        (1, 0xed) => 0x80..=0x9f,
        (1, 0xf0) => 0x90..=0xbf,
        (1, 0xf4) => 0x80..=0x8f,
        _ => 0x80..=0xbf,
    };
    range.contains(&b)
}

/// `at`, or the start of the UTF-8 character that `at` would cut (within the 3 bytes before
/// it), so that `bytes[..cut]` and `bytes[cut..]` decode lossily to the same text as `bytes`.
fn char_boundary(bytes: &[u8], at: usize) -> usize {
    for back in 1..=3.min(at) {
        let i = at - back;
        if let Some(len) = utf8_len(bytes[i]) {
            return if len > back { i } else { at };
        }
        if bytes[i] & 0xc0 != 0x80 {
            break;
        }
    }
    at
}

/// The numbers of one `;`-separated CSI parameter field: `code:alt:...`. Missing or empty
/// numbers are `None`; numbers saturate.
fn field(params: &[u8], index: usize) -> Vec<Option<u32>> {
    let Some(f) = params.split(|&b| b == b';').nth(index) else {
        return Vec::new();
    };
    f.split(|&b| b == b':')
        .map(|n| {
            if n.is_empty() {
                None
            } else {
                Some(n.iter().fold(0u32, |acc, &d| {
                    acc.saturating_mul(10).saturating_add(u32::from(d - b'0'))
                }))
            }
        })
        .collect()
}

/// The first number of parameter field `index`, or `default`.
fn number(params: &[u8], index: usize, default: u32) -> u32 {
    field(params, index)
        .first()
        .copied()
        .flatten()
        .unwrap_or(default)
}

/// The meaning of a complete CSI sequence with parameter and intermediate bytes `body`
/// (between `ESC [` and the final byte) and final byte `fin`.
fn csi(body: &[u8], fin: u8) -> Done {
    if body.is_empty() {
        match fin {
            b'M' => return Done::Mouse,
            b'[' => return Done::ConsoleFn,
            _ => {}
        }
    }
    // Private (`<`, `=`, `>`, `?`) and intermediate bytes: replies and mouse reports.
    if !body.iter().all(|b| matches!(b, b'0'..=b';')) {
        return Done::Swallow;
    }
    let key = match fin {
        b'A' | b'a' => Key::Up,
        b'B' | b'b' => Key::Down,
        b'C' | b'D' => sideways(fin, number(body, 1, 1)),
        // rxvt's Shift+→ / Shift+←.
        b'c' => Key::Right,
        b'd' => Key::Left,
        b'H' => Key::Home,
        b'F' => Key::End,
        b'Z' => Key::BackTab,
        b'~' => return tilde(body),
        b'u' => return kitty(body),
        _ => return Done::Swallow,
    };
    Done::Key(key)
}

/// `ESC [ n ~` keys, and modifyOtherKeys `ESC [ 27 ; mods ; code ~`.
fn tilde(body: &[u8]) -> Done {
    if body == b"200" {
        return Done::PasteStart;
    }
    let key = match number(body, 0, 0) {
        1 | 7 => Key::Home,
        4 | 8 => Key::End,
        2 => Key::Insert,
        3 => Key::Delete,
        5 => Key::PageUp,
        6 => Key::PageDown,
        27 => {
            let code = number(body, 2, 0);
            return code_key(code, None, number(body, 1, 1));
        }
        _ => return Done::Swallow,
    };
    Done::Key(key)
}

/// kitty keyboard protocol `ESC [ code[:shifted] ; mods[:event] ; text u`.
fn kitty(body: &[u8]) -> Done {
    let code = field(body, 0);
    let mods = field(body, 1);
    // Event 3 is a key release.
    if mods.get(1).copied().flatten() == Some(3) {
        return Done::Swallow;
    }
    let Some(Some(key)) = code.first().copied() else {
        return Done::Swallow;
    };
    let shifted = code.get(1).copied().flatten();
    code_key(key, shifted, mods.first().copied().flatten().unwrap_or(1))
}

/// The key of a kitty / modifyOtherKeys key code (a Unicode code point, `shifted` the code with
/// Shift when the terminal reports it) with modifiers `mods` (1 + bits: 1 Shift, 2 Alt,
/// 4 Ctrl; the others are ignored).
fn code_key(code: u32, shifted: Option<u32>, mods: u32) -> Done {
    let bits = mods.saturating_sub(1);
    let (shift, alt, ctrl) = (bits & 1 != 0, bits & 2 != 0, bits & 4 != 0);
    let key = match code {
        27 => Key::Esc,
        13 => Key::Enter,
        9 if shift => Key::BackTab,
        9 => Key::Tab,
        127 | 8 if alt => Key::Alt('\u{7f}'),
        127 | 8 => Key::Backspace,
        _ => {
            let Some(c) = char::from_u32(code) else {
                return Done::Swallow;
            };
            // Control characters, and kitty's functional keys (private use area).
            if c.is_control() || ('\u{e000}'..='\u{f8ff}').contains(&c) {
                return Done::Swallow;
            }
            if ctrl {
                match c {
                    'a'..='z' | 'A'..='Z' => Key::Ctrl(c.to_ascii_lowercase()),
                    '[' => Key::Esc,
                    ' ' | '@' => Key::Ctrl(' '),
                    '\\' | ']' | '^' | '_' => Key::Ctrl(c),
                    _ => return Done::Swallow,
                }
            } else {
                let c = if shift {
                    shifted
                        .and_then(char::from_u32)
                        .filter(|s| !s.is_control())
                        .unwrap_or_else(|| upper(c))
                } else {
                    c
                };
                if alt {
                    Key::Alt(c)
                } else {
                    Key::Char(c)
                }
            }
        }
    };
    Done::Key(key)
}

/// `c` in upper case when that is one character, else `c`.
fn upper(c: char) -> char {
    let mut up = c.to_uppercase();
    match (up.next(), up.next()) {
        (Some(u), None) => u,
        _ => c,
    }
}

/// → (`fin` `C`) or ← (`D`) with the xterm modifier number `mods` (1 + bits: 1 Shift, 2 Alt,
/// 4 Ctrl, 8 Meta): Ctrl wins over Alt and Meta (Ctrl+Alt+← is `CtrlLeft`), Shift is dropped.
fn sideways(fin: u8, mods: u32) -> Key {
    let bits = mods.saturating_sub(1);
    let right = fin == b'C';
    match (bits & 4 != 0, bits & (2 | 8) != 0, right) {
        (true, _, true) => Key::CtrlRight,
        (true, _, false) => Key::CtrlLeft,
        (false, true, true) => Key::AltRight,
        (false, true, false) => Key::AltLeft,
        (false, false, true) => Key::Right,
        (false, false, false) => Key::Left,
    }
}

/// The meaning of a complete SS3 sequence `ESC O params fin`.
fn ss3(params: &[u8], fin: u8) -> Done {
    if !params.iter().all(|b| matches!(b, b'0'..=b';')) {
        return Done::Swallow;
    }
    let key = match fin {
        b'A' | b'a' => Key::Up,
        b'B' | b'b' => Key::Down,
        // `ESC O 5 D` and the like: the modifiers are the last number.
        b'C' | b'D' => {
            let mods = params
                .split(|&b| b == b';')
                .next_back()
                .map_or(1, |n| number(n, 0, 1));
            sideways(fin, mods)
        }
        // rxvt's Ctrl+→ / Ctrl+←.
        b'c' => Key::CtrlRight,
        b'd' => Key::CtrlLeft,
        b'H' => Key::Home,
        b'F' => Key::End,
        b'M' => Key::Enter,
        b'I' => Key::Tab,
        // The application keypad.
        b'p'..=b'y' => Key::Char(char::from(b'0' + (fin - b'p'))),
        b'j' => Key::Char('*'),
        b'k' => Key::Char('+'),
        b'l' => Key::Char(','),
        b'm' => Key::Char('-'),
        b'n' => Key::Char('.'),
        b'o' => Key::Char('/'),
        b'X' => Key::Char('='),
        _ => return Done::Swallow,
    };
    Done::Key(key)
}

//! The fake terminal's screen: a [`vt100`] screen with a scrollback, tmux's widths, and a
//! record of who last changed each row (see the notes of the parent module).

use super::widths::TMUX_WIDTHS;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::num::NonZeroU16;
use unicode_width::UnicodeWidthChar as _;

/// Rows the vt100 scrollback keeps; older rows are kept as text by [`Hooks`].
const SCROLLBACK: usize = 2_000;

/// Who last changed a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Writer {
    /// Printed before the run ([`super::FakeBackend::print`]).
    Before,
    /// The front end's write number `n` (from 0).
    Frame(usize),
}

/// What vt100 reports besides the screen: rows dropped off the scrollback, bells, titles and
/// sequences it does not know.
#[derive(Debug, Default)]
struct Hooks {
    /// Rows dropped off the top of the scrollback (stand-in text).
    dropped: Vec<String>,
    bells: usize,
    /// Window titles and icon names set (OSC 0 / 1 / 2), and other OSC strings.
    osc: Vec<String>,
}

impl vt100::Callbacks for Hooks {
    fn audible_bell(&mut self, _: &mut vt100::Screen) {
        self.bells += 1;
    }

    fn set_window_title(&mut self, _: &mut vt100::Screen, title: &[u8]) {
        self.osc
            .push(format!("title {}", String::from_utf8_lossy(title)));
    }

    fn set_window_icon_name(&mut self, _: &mut vt100::Screen, name: &[u8]) {
        self.osc
            .push(format!("icon {}", String::from_utf8_lossy(name)));
    }

    fn copy_to_clipboard(&mut self, _: &mut vt100::Screen, _: &[u8], data: &[u8]) {
        self.osc
            .push(format!("clipboard {}", String::from_utf8_lossy(data)));
    }

    fn unhandled_osc(&mut self, _: &mut vt100::Screen, params: &[&[u8]]) {
        let params: Vec<_> = params.iter().map(|p| String::from_utf8_lossy(p)).collect();
        self.osc.push(params.join(";"));
    }

    fn on_scroll(&mut self, row: vt100::capture::RowContents<'_>, _: bool) {
        let mut formatted = String::new();
        let mut state = vt100::capture::BasicFormattedCaptureState::new();
        let _ = row.write_formatted_basic(&mut formatted, &mut state);
        let plain: String = vt100::capture::basic_formatted_to_plain(&formatted).collect();
        self.dropped.push(plain.trim_end().to_string());
    }
}

/// The columns tmux gives `c` (0 for a character it combines or drops), for `c` from U+00A0.
pub(super) fn tmux_width(c: char) -> usize {
    let cp = u32::from(c);
    let i = TMUX_WIDTHS.partition_point(|&(start, _)| start <= cp);
    i.checked_sub(1)
        .map_or(1, |i| usize::from(TMUX_WIDTHS[i].1))
}

/// The columns vt100 gives `c` on its own (as its `Screen::text` computes them).
fn vt100_width(c: char) -> usize {
    c.width().unwrap_or(1).min(2)
}

/// Stand-ins: private characters that vt100 draws with the columns tmux gives the characters
/// they stand for. Zero: unassigned default-ignorable code points (vt100 appends them to the
/// cell before and never widens it for them); one: plane 15 private use; two: unassigned
/// plane 3 code points.
const POOLS: [(u32, u32); 3] = [(0xE01F0, 0xE0FFF), (0xF0000, 0xFFFFD), (0x32400, 0x3FFFD)];

fn in_pool(c: char) -> bool {
    let cp = u32::from(c);
    POOLS.iter().any(|&(lo, hi)| (lo..=hi).contains(&cp))
}

/// The characters written in place of others, both ways.
#[derive(Debug, Default)]
struct Standins {
    to: HashMap<(char, usize), char>,
    from: HashMap<char, char>,
    used: [u32; 3],
}

impl Standins {
    /// The stand-in for `c` drawn `width` columns wide.
    fn get(&mut self, c: char, width: usize) -> char {
        if let Some(&s) = self.to.get(&(c, width)) {
            return s;
        }
        let (lo, hi) = POOLS[width];
        let cp = lo + self.used[width];
        // Past the pool (thousands of distinct characters) the last stand-in is shared, and
        // reads back as the first character it stood for.
        let s = char::from_u32(cp.min(hi)).unwrap_or('?');
        self.used[width] += u32::from(cp < hi);
        self.to.insert((c, width), s);
        self.from.entry(s).or_insert(c);
        s
    }

    /// `text` (vt100's) with every stand-in read back.
    fn read_back(&self, text: &str) -> String {
        if !text.chars().any(in_pool) {
            return text.to_string();
        }
        text.chars()
            .map(|c| self.from.get(&c).copied().unwrap_or(c))
            .collect()
    }
}

/// A cursor move that could not go as far as asked: the row it wanted is not on the screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Clamp {
    /// The front end's write number (from 0).
    pub write: usize,
    /// The sequence (`ESC[5A`).
    pub sequence: String,
    /// The cursor's row before it (0-based).
    pub row: usize,
}

/// The screen model.
pub(super) struct Term {
    parser: vt100::Parser<Hooks>,
    standins: Standins,
    /// The last character written was a zero-width joiner (tmux joins the next non-ASCII
    /// character to the cell before).
    joiner: bool,
    /// Who last changed each absolute row (rows scrolled off the top count on).
    pub writers: Vec<Writer>,
    /// The front end's writes so far.
    pub writes: usize,
    /// Cursor moves that were cut short.
    pub clamps: Vec<Clamp>,
    /// Where each front-end write that moved or changed something drew.
    pub frames: Vec<FrameSpan>,
    resized: bool,
}

/// Where one front-end write drew (absolute rows: rows scrolled off the top count on).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct FrameSpan {
    /// The write's number (from 0).
    pub write: usize,
    /// The highest row its cursor reached.
    pub top: usize,
    /// The lowest row it left text on.
    pub bottom: usize,
    /// The highest row it changed (`None`: none).
    pub first_changed: Option<usize>,
    /// The window's rows then.
    pub rows: usize,
    /// A resize came between the write before and this one.
    pub after_resize: bool,
}

impl std::fmt::Debug for Term {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Term")
            .field("size", &self.size())
            .field("cursor", &self.cursor())
            .field("visible", &self.visible())
            .finish_non_exhaustive()
    }
}

fn nz(n: usize) -> NonZeroU16 {
    NonZeroU16::new(u16::try_from(n.clamp(1, 500)).unwrap_or(500)).unwrap_or(NonZeroU16::MIN)
}

impl Term {
    pub fn new(rows: usize, cols: usize) -> Self {
        Term {
            parser: vt100::Parser::new_with_callbacks(
                nz(rows),
                nz(cols),
                SCROLLBACK,
                Hooks::default(),
            ),
            standins: Standins::default(),
            joiner: false,
            writers: Vec::new(),
            writes: 0,
            clamps: Vec::new(),
            frames: Vec::new(),
            resized: false,
        }
    }

    pub fn screen(&self) -> &vt100::Screen {
        self.parser.screen()
    }

    pub fn size(&self) -> (usize, usize) {
        let (rows, cols) = self.screen().size();
        (usize::from(rows.get()), usize::from(cols.get()))
    }

    /// Rows scrolled off the top of the screen so far (kept in the scrollback).
    pub fn scrolled(&self) -> usize {
        self.parser.callbacks().dropped.len() + self.screen().scrollback_len()
    }

    /// The cursor (row, column), 0-based.
    pub fn cursor(&self) -> (usize, usize) {
        let (row, col) = self.screen().cursor_position();
        (usize::from(row), usize::from(col))
    }

    pub fn bells(&self) -> usize {
        self.parser.callbacks().bells
    }

    pub fn osc(&self) -> &[String] {
        &self.parser.callbacks().osc
    }

    /// The visible rows, trailing blanks cut.
    pub fn visible(&self) -> Vec<String> {
        let (_, cols) = self.screen().size();
        self.screen()
            .rows(0, cols.get())
            .map(|row| self.standins.read_back(row.trim_end()))
            .collect()
    }

    /// The scrollback's rows, oldest first, trailing blanks cut.
    pub fn scrollback(&mut self) -> Vec<String> {
        let mut lines: Vec<String> = self
            .parser
            .callbacks()
            .dropped
            .iter()
            .map(|l| self.standins.read_back(l))
            .collect();
        let (rows, cols) = self.size();
        let screen = self.parser.screen_mut();
        let mut left = screen.scrollback_len();
        let mut raw = Vec::new();
        while left > 0 {
            screen.set_scrollback(left);
            let take = left.min(rows);
            raw.extend(
                screen
                    .rows(0, nz(cols).get())
                    .take(take)
                    .map(|r| r.trim_end().to_string()),
            );
            left -= take;
        }
        screen.set_scrollback(0);
        lines.extend(raw.iter().map(|l| self.standins.read_back(l)));
        lines
    }

    /// Resizes the screen (vt100 cuts or pads rows; it does not rewrap them).
    pub fn resize(&mut self, rows: usize, cols: usize) {
        if self.size() != (rows, cols) {
            self.parser.set_size(nz(rows), nz(cols));
            self.resized = true;
        }
    }

    /// `text` in the characters vt100 is given: tmux's widths by stand-ins (see the notes of
    /// the parent module).
    fn substitute(&mut self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        for c in text.chars() {
            if c.is_ascii() || u32::from(c) < 0xA0 {
                out.push(c);
                self.joiner = false;
                continue;
            }
            let width = if self.joiner { 0 } else { tmux_width(c) };
            self.joiner = c == '\u{200D}';
            // vt100 draws no U+FFFD (tmux: one column).
            if width > 0 && vt100_width(c) == width && !in_pool(c) && c != '\u{FFFD}' {
                out.push(c);
            } else {
                out.push(self.standins.get(c, width));
            }
        }
        out
    }

    /// The visible rows as vt100 holds them (stand-ins not read back), for comparing.
    fn raw_rows(&self) -> Vec<String> {
        let (_, cols) = self.screen().size();
        self.screen().rows(0, cols.get()).collect()
    }

    fn absolute_cursor(&self) -> usize {
        self.scrolled() + self.cursor().0
    }

    /// Writes `bytes` to the screen as `writer` (a front-end write, the editor's echo, or
    /// text before the run), recording cut-short moves and which rows changed.
    pub fn write(&mut self, bytes: &str, writer: Writer) {
        let before_rows = self.raw_rows();
        let before_base = self.scrolled();
        let start = self.absolute_cursor();
        let mut top = start;
        let text = self.substitute(bytes);
        let mut rest = text.as_str();
        // Each escape sequence is applied on its own, so the cursor is known before and after it.
        while !rest.is_empty() {
            let first = rest.chars().next().map_or(0, char::len_utf8);
            let (chunk, tail) = match rest[first..].find('\x1b') {
                Some(i) => rest.split_at(i + first),
                None => (rest, ""),
            };
            let (sequence, text) = split_sequence(chunk);
            if let Some(seq) = sequence {
                self.check_move(seq, writer);
                self.parser.process(seq.as_bytes());
                top = top.min(self.absolute_cursor());
            }
            if !text.is_empty() {
                self.parser.process(text.as_bytes());
            }
            rest = tail;
        }
        // Rows changed: compare with what was there (a row that scrolled off since is compared
        // with its text in the scrollback).
        let base = self.scrolled();
        let after = self.raw_rows();
        let scrolled_rows = self.scrolled_raw(before_base, base);
        let mut changed = Vec::new();
        for abs in before_base..base + after.len() {
            let now = if abs < base {
                scrolled_rows.get(abs - before_base).map(String::as_str)
            } else {
                after.get(abs - base).map(String::as_str)
            };
            let was = before_rows.get(abs - before_base).map(String::as_str);
            let trim = |s: Option<&str>| s.unwrap_or("").trim_end().to_string();
            if trim(now) != trim(was) {
                changed.push((abs, !trim(now).is_empty()));
            }
        }
        if self.writers.len() < base + after.len() {
            self.writers.resize(base + after.len(), Writer::Before);
        }
        // The lowest row this write left text on (rows it erased are no longer drawn).
        let mut bottom = None;
        for &(abs, drawn) in &changed {
            self.writers[abs] = writer;
            if drawn {
                bottom = Some(abs);
            }
        }
        let bottom = bottom.unwrap_or(start.min(top));
        match writer {
            Writer::Frame(n) if !changed.is_empty() || top != start => {
                let (rows, _) = self.size();
                self.frames.push(FrameSpan {
                    write: n,
                    top,
                    bottom,
                    first_changed: changed.first().map(|&(abs, _)| abs),
                    rows,
                    after_resize: std::mem::take(&mut self.resized),
                });
            }
            _ => {}
        }
    }

    /// The scrollback's raw rows for absolute rows `from..to` (those still kept).
    fn scrolled_raw(&mut self, from: usize, to: usize) -> Vec<String> {
        if to <= from {
            return Vec::new();
        }
        let dropped = self.parser.callbacks().dropped.len();
        let (rows, cols) = self.size();
        let screen = self.parser.screen_mut();
        let len = screen.scrollback_len();
        let mut out = Vec::new();
        for abs in from..to {
            if abs < dropped {
                out.push(String::new());
                continue;
            }
            // Row `abs - dropped` of the scrollback, shown at the top with offset len - that.
            let offset = len - (abs - dropped);
            screen.set_scrollback(offset);
            out.push(screen.rows(0, nz(cols).get()).next().unwrap_or_default());
        }
        let _ = rows;
        screen.set_scrollback(0);
        out
    }

    /// Records a cursor-up or cursor-down (`CSI n A/B/E/F`) that the screen cuts short.
    fn check_move(&mut self, seq: &str, writer: Writer) {
        let Some(body) = seq.strip_prefix("\x1b[") else {
            return;
        };
        let Some(last) = body.chars().last() else {
            return;
        };
        let params = &body[..body.len() - last.len_utf8()];
        if !params.bytes().all(|b| b.is_ascii_digit()) {
            return;
        }
        let n = params.parse::<usize>().unwrap_or(1).max(1);
        let (row, _) = self.cursor();
        let (rows, _) = self.size();
        let cut = match last {
            'A' | 'F' => n > row,
            'B' | 'E' => row + n > rows - 1,
            _ => false,
        };
        if cut {
            let write = match writer {
                Writer::Frame(n) => n,
                Writer::Before => 0,
            };
            self.clamps.push(Clamp {
                write,
                sequence: seq.replace('\x1b', "ESC"),
                row,
            });
        }
    }

    /// Reads a row's raw text back.
    pub fn read_back(&self, raw: &str) -> String {
        self.standins.read_back(raw)
    }
}

/// Splits `chunk` (which starts with ESC, or is text) into its leading escape sequence and the
/// text after it.
fn split_sequence(chunk: &str) -> (Option<&str>, &str) {
    let Some(after) = chunk.strip_prefix('\x1b') else {
        return (None, chunk);
    };
    let end = match after.as_bytes().first() {
        Some(b'[') => after[1..]
            .find(|c: char| ('\x40'..='\x7e').contains(&c))
            .map_or(after.len(), |i| i + 2),
        // OSC / DCS / APC / PM / SOS: up to BEL or ST (the ESC of ST starts the next chunk).
        Some(b']' | b'P' | b'_' | b'^' | b'X') => after.find('\x07').map_or(after.len(), |i| i + 1),
        Some(_) => after.chars().next().map_or(0, char::len_utf8),
        None => 0,
    };
    let (seq, text) = chunk.split_at(1 + end);
    (Some(seq), text)
}

/// A screen's rows as one string for a message.
pub(super) fn show(rows: &[String]) -> String {
    let mut out = String::new();
    for (i, row) in rows.iter().enumerate() {
        let _ = writeln!(out, "{i:>3}|{row}");
    }
    out
}

//! The screen: where frames go and how a change is written, for the two placements
//! (docs/interactive.md "Placement"). A frame is a list of lines, each already fitted to the
//! width; the next frame rewrites only the lines that changed, in one write.
//!
//! - [`Placement::Inline`] (the default): the frame is drawn at the cursor on the normal
//!   screen, below what was there, with relative moves only (CR, LF, cursor up / down, erase
//!   in line, erase below). The frame is the *live region*: the transcript lines that can
//!   still be reached, then the live block. Between frames the cursor is parked at the left
//!   of the live block's top row (or at an editor's row), so a terminal that rewraps rows
//!   below the cursor on a resize leaves the rows above it alone. Cursor-up cannot enter the
//!   scrollback: the block keeps within the window's rows less one ([`Screen::budget`]), and
//!   lines of the live region that may have scrolled out of reach are given up
//!   ([`Screen::unreachable`]): the caller keeps them as they are and draws below them. An
//!   erase-below is never written at the left of the region's top row (tmux copies rows
//!   erased from row 0, column 0 into its scrollback).
//! - [`Placement::Full`]: the alternate screen, each frame line `i` at row `i + 1`, addressed
//!   absolutely; the terminal's own screen comes back at the end.

use std::fmt::Write as _;
#[cfg(test)]
use std::io::{self, Write};

/// Where the questionnaire is drawn (`--screen`, `PI_ASK_SCREEN`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Placement {
    /// At the cursor on the normal screen, leaving a transcript.
    #[default]
    Inline,
    /// On the alternate screen; nothing is left when it ends.
    Full,
}

/// Where the cursor goes after a frame: hidden, or shown at a row and column (0-based), for a
/// line editor drawn there next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Cursor {
    /// Hidden (menus, pagers).
    Hidden,
    /// Visible at (row, column), 0-based.
    At(usize, usize),
}

/// One screen: its lines from the top, and the cursor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Frame {
    /// The lines, each already fitted to the width (no line breaks inside).
    pub lines: Vec<String>,
    /// The cursor after drawing.
    pub cursor: Cursor,
    /// Inline, with the cursor hidden: the row it is parked on (the live block's top).
    pub park: usize,
}

impl Frame {
    /// A frame of `lines` with the cursor hidden (parked at the top).
    pub fn new(lines: Vec<String>) -> Self {
        Frame {
            lines,
            cursor: Cursor::Hidden,
            park: 0,
        }
    }
}

/// What is on the terminal now, to draw the next frame as a difference.
#[derive(Debug, Default)]
pub(super) struct Screen {
    placement: Placement,
    /// The last frame drawn, `None` when it must be drawn whole.
    shown: Option<Frame>,
    /// Inline: the row of the live region the cursor is on (column 0).
    at: usize,
    /// Inline: the lowest row of the live region the terminal has (drawn, or made by an
    /// editor's line feeds); rows down to it exist, so cursor-down reaches them.
    bottom: usize,
    /// Inline: whether the cursor is hidden now.
    hidden: bool,
}

/// `ESC[nA` / `ESC[nB` for a move of `from` to `to` rows (never a zero count: xterm reads
/// `ESC[0A` as one row).
fn vertical(out: &mut String, from: usize, to: usize) {
    if to < from {
        let _ = write!(out, "\x1b[{}A", from - to);
    } else if to > from {
        let _ = write!(out, "\x1b[{}B", to - from);
    }
}

impl Screen {
    /// A screen for `placement`, nothing drawn yet.
    pub fn new(placement: Placement) -> Self {
        Screen {
            placement,
            ..Screen::default()
        }
    }

    /// The placement.
    pub fn placement(&self) -> Placement {
        self.placement
    }

    /// Rows the live block may take in a window of `rows` rows: all of them on the alternate
    /// screen, one less inline (the cursor must reach the block's top from any row of it).
    pub fn budget(&self, rows: usize) -> usize {
        match self.placement {
            Placement::Full => rows.max(1),
            Placement::Inline => rows.saturating_sub(1).max(1),
        }
    }

    /// The next draw redraws everything (after an editor, a suspend, a resize, a peek).
    pub fn invalidate(&mut self) {
        self.shown = None;
    }

    /// The bytes that turn the shown screen into `frame` (empty when nothing changed).
    pub fn diff(&self, frame: &Frame) -> String {
        match self.placement {
            Placement::Full => self.diff_full(frame),
            Placement::Inline => self.diff_inline(frame),
        }
    }

    fn diff_full(&self, frame: &Frame) -> String {
        let mut out = String::new();
        let old = self.shown.as_ref();
        let full = old.is_none();
        if full {
            out.push_str("\x1b[H\x1b[2J");
        }
        let old_lines = old.map_or(&[][..], |f| f.lines.as_slice());
        let rows = frame.lines.len().max(old_lines.len());
        for row in 0..rows {
            let new = frame.lines.get(row);
            if !full && old_lines.get(row) == new {
                continue;
            }
            match new {
                Some(line) if full && line.is_empty() => {}
                Some(line) => {
                    let _ = write!(out, "\x1b[{};1H{line}\x1b[K", row + 1);
                }
                None => {
                    let _ = write!(out, "\x1b[{};1H\x1b[K", row + 1);
                }
            }
        }
        let cursor_moved = old.map(|f| f.cursor) != Some(frame.cursor);
        if !out.is_empty() || cursor_moved {
            match frame.cursor {
                Cursor::Hidden => out.push_str("\x1b[?25l"),
                Cursor::At(row, col) => {
                    let _ = write!(out, "\x1b[{};{}H\x1b[?25h", row + 1, col + 1);
                }
            }
        }
        out
    }

    /// Inline: from the parked cursor, rewrite the changed lines with relative moves, make
    /// rows with line feeds past the lowest one the terminal has, erase the rows no longer
    /// used, then park the cursor (the region's top, or the editor's row).
    fn diff_inline(&self, frame: &Frame) -> String {
        let mut out = String::new();
        let old = self.shown.as_ref();
        let old_lines = old.map_or(&[][..], |f| f.lines.as_slice());
        let mut at = self.at;
        let mut bottom = self.bottom;
        // To the left of `row`, making rows with line feeds past the lowest one there is.
        let go = |out: &mut String, at: &mut usize, bottom: &mut usize, row: usize| {
            if row > *bottom {
                vertical(out, *at, *bottom);
                for _ in *bottom..row {
                    out.push_str("\r\n");
                }
                *bottom = row;
            } else {
                vertical(out, *at, row);
                out.push('\r');
            }
            *at = row;
        };
        let mut wrote = false;
        for (row, line) in frame.lines.iter().enumerate() {
            if old.is_some() && old_lines.get(row) == Some(line) {
                continue;
            }
            go(&mut out, &mut at, &mut bottom, row);
            out.push_str(line);
            out.push_str("\x1b[K");
            wrote = true;
        }
        let n = frame.lines.len();
        if old.is_none() && n > 0 && !(n == 1 && frame.lines[0].is_empty()) {
            // Drawn whole (after a resize, an editor, `fg`): whatever the terminal has under
            // the last line (rows it rewrapped, an old taller block) goes, erased from the end
            // of that line (never the left of the region's top row, which tmux would copy into
            // its scrollback).
            out.push_str("\x1b[J");
            wrote = true;
        }
        // Rows the terminal has below a shorter frame: erased, from the left of the first one.
        let stale = if old.is_some() {
            old_lines.len() > n
        } else {
            n == 0
        };
        if stale && bottom >= n.max(1) {
            go(&mut out, &mut at, &mut bottom, n.max(1));
            out.push_str("\x1b[J");
            wrote = true;
        }
        if n == 0 && (old.is_none() || !old_lines.is_empty()) {
            go(&mut out, &mut at, &mut bottom, 0);
            out.push_str("\x1b[K");
            wrote = true;
        }
        let (park, show) = match frame.cursor {
            Cursor::Hidden => ((frame.park, 0), false),
            Cursor::At(row, col) => ((row, col), true),
        };
        let cursor_changed = old.map(|f| (f.cursor, f.park)) != Some((frame.cursor, frame.park))
            || show == self.hidden;
        if wrote || cursor_changed {
            go(&mut out, &mut at, &mut bottom, park.0);
            if park.1 > 0 {
                let _ = write!(out, "\x1b[{}C", park.1);
            }
            out.push_str(if show { "\x1b[?25h" } else { "\x1b[?25l" });
        }
        out
    }

    /// Notes that `frame` is on the screen now (after writing [`Screen::diff`]'s bytes).
    pub fn remember(&mut self, frame: Frame) {
        if self.placement == Placement::Inline {
            let (park, show) = match frame.cursor {
                Cursor::Hidden => (frame.park, false),
                Cursor::At(row, _) => (row, true),
            };
            self.bottom = self.bottom.max(frame.lines.len().saturating_sub(1));
            self.at = park;
            self.hidden = !show;
        }
        self.shown = Some(frame);
    }

    /// Inline: an editor ran on row `row` of the live region and left the cursor `down` rows
    /// under it, at the left (rustyline ends a line with a line feed); the region is to be
    /// drawn whole next.
    pub fn editor_closed(&mut self, row: usize, down: usize) {
        self.at = row + down;
        self.bottom = self.bottom.max(self.at);
        self.hidden = false;
        self.shown = None;
    }

    /// Inline: how many lines at the top of the live region may be out of the cursor's reach
    /// in a window of `rows` rows (the region may have started on the window's last row, so
    /// only the `rows - 1` rows above the lowest row are sure to be on screen). The caller
    /// gives them up ([`Screen::forget_top`]); 0 on the alternate screen.
    pub fn unreachable(&self, rows: usize) -> usize {
        match self.placement {
            Placement::Full => 0,
            Placement::Inline => (self.bottom + 1).saturating_sub(rows.max(1)),
        }
    }

    /// Inline: the top `count` lines of the live region stay as they are on the terminal and
    /// are no longer part of it (the transcript above the region).
    pub fn forget_top(&mut self, count: usize) {
        if count == 0 {
            return;
        }
        self.at = self.at.saturating_sub(count);
        self.bottom = self.bottom.saturating_sub(count);
        if let Some(frame) = &mut self.shown {
            frame.lines.drain(..count.min(frame.lines.len()));
            frame.cursor = match frame.cursor {
                Cursor::At(row, col) => Cursor::At(row.saturating_sub(count), col),
                hidden => hidden,
            };
            frame.park = frame.park.saturating_sub(count);
        }
    }

    /// Inline: the row of the live region the cursor is parked on.
    pub fn parked(&self) -> usize {
        self.at
    }

    /// Inline: a screen whose cursor is parked `at` rows under the live region's top, nothing
    /// known of what is drawn (for [`Screen::finish`] from a signal).
    pub fn from_parked(at: usize) -> Screen {
        Screen {
            placement: Placement::Inline,
            at,
            bottom: at,
            ..Screen::default()
        }
    }

    /// Inline: a new live region starts at the cursor (after a resize or `fg`): nothing above
    /// it is reached again, nothing below it is known.
    pub fn restart_here(&mut self) {
        self.at = 0;
        self.bottom = 0;
        self.shown = None;
    }

    /// Inline: the bytes that leave `lines` (the final transcript) as the region's content,
    /// the cursor at the left of the row under them and visible, the rest of the region
    /// erased; afterwards nothing is live. On the alternate screen: clear it (the terminal's
    /// own screen comes back when the alternate screen is left).
    pub fn finish(&mut self, lines: &[String]) -> String {
        if self.placement == Placement::Full {
            self.shown = None;
            return "\x1b[H\x1b[2J".to_string();
        }
        let mut frame = Frame::new(lines.to_vec());
        frame.cursor = Cursor::At(lines.len(), 0);
        let mut out = self.diff_inline(&frame);
        // At the left of the row under the lines (never the region's top row): whatever the
        // region had below them goes.
        out.push_str("\x1b[J\x1b[?25h");
        *self = Screen::new(Placement::Inline);
        out
    }

    /// Draws `frame` on `out` in one write (nothing when the screen already shows it).
    ///
    /// Errors: the terminal could not be written.
    #[cfg(test)]
    pub fn draw(&mut self, out: &mut impl Write, frame: Frame) -> io::Result<()> {
        let bytes = self.diff(&frame);
        if !bytes.is_empty() {
            out.write_all(bytes.as_bytes())?;
            out.flush()?;
        }
        self.remember(frame);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(lines: &[&str]) -> Frame {
        Frame::new(lines.iter().map(|l| l.to_string()).collect())
    }

    fn full() -> Screen {
        Screen::new(Placement::Full)
    }

    #[test]
    fn the_first_frame_is_drawn_whole_in_one_piece() {
        let s = full();
        assert_eq!(
            s.diff(&frame(&["a", "", "c"])),
            "\x1b[H\x1b[2J\x1b[1;1Ha\x1b[K\x1b[3;1Hc\x1b[K\x1b[?25l"
        );
    }

    #[test]
    fn a_key_rewrites_only_the_changed_lines() {
        let mut s = full();
        let mut sink = Vec::new();
        s.draw(&mut sink, frame(&["head", "› one", "  two"]))
            .unwrap();
        assert_eq!(
            s.diff(&frame(&["head", "  one", "› two"])),
            "\x1b[2;1H  one\x1b[K\x1b[3;1H› two\x1b[K\x1b[?25l"
        );
        // Nothing changed: nothing is written.
        assert_eq!(s.diff(&frame(&["head", "› one", "  two"])), "");
    }

    #[test]
    fn rows_no_longer_used_are_erased() {
        let mut s = full();
        s.draw(&mut Vec::new(), frame(&["a", "b", "c"])).unwrap();
        assert_eq!(
            s.diff(&frame(&["a"])),
            "\x1b[2;1H\x1b[K\x1b[3;1H\x1b[K\x1b[?25l"
        );
    }

    #[test]
    fn the_cursor_is_placed_for_an_editor() {
        let mut s = full();
        s.draw(&mut Vec::new(), frame(&["a"])).unwrap();
        let mut f = frame(&["a"]);
        f.cursor = Cursor::At(3, 0);
        assert_eq!(s.diff(&f), "\x1b[4;1H\x1b[?25h");
    }

    #[test]
    fn invalidate_redraws_everything() {
        let mut s = full();
        s.draw(&mut Vec::new(), frame(&["a"])).unwrap();
        s.invalidate();
        assert_eq!(
            s.diff(&frame(&["a"])),
            "\x1b[H\x1b[2J\x1b[1;1Ha\x1b[K\x1b[?25l"
        );
    }

    #[test]
    fn inline_draws_below_the_cursor_with_line_feeds_and_parks_at_the_top() {
        let mut s = Screen::new(Placement::Inline);
        let bytes = s.diff(&frame(&["a", "b", "c"]));
        assert_eq!(
            bytes,
            "\ra\x1b[K\r\nb\x1b[K\r\nc\x1b[K\x1b[J\x1b[2A\r\x1b[?25l"
        );
        s.remember(frame(&["a", "b", "c"]));
        // A key: one line rewritten, relative moves only.
        assert_eq!(
            s.diff(&frame(&["a", "B", "c"])),
            "\x1b[1B\rB\x1b[K\x1b[1A\r\x1b[?25l"
        );
        // A shorter frame: the rows under it erased from the left of row 1, never row 0.
        s.remember(frame(&["a", "B", "c"]));
        assert_eq!(
            s.diff(&frame(&["x"])),
            "\rx\x1b[K\x1b[1B\r\x1b[J\x1b[1A\r\x1b[?25l"
        );
    }

    #[test]
    fn inline_never_writes_absolute_moves_or_clears() {
        let mut s = Screen::new(Placement::Inline);
        let mut all = String::new();
        for f in [
            frame(&["t", "q", "1", "2"]),
            frame(&["t"]),
            frame(&["t", "q", "1", "2", "3", "4"]),
        ] {
            all.push_str(&s.diff(&f));
            s.remember(f);
        }
        s.invalidate();
        all.push_str(&s.diff(&frame(&["t", "q"])));
        s.remember(frame(&["t", "q"]));
        all.push_str(&s.finish(&["t".into(), "done".into()]));
        for bad in [
            "H", "2J", "\x1b7", "\x1b8", "[s", "[u", "?1049", "[0A", "[0B", "r",
        ] {
            let hits = all.match_indices(bad).filter(|(i, _)| {
                // only inside escape sequences
                all[..*i]
                    .rfind('\x1b')
                    .is_some_and(|e| !all[e..*i].contains(['\r', '\n']))
                    && all[..*i].ends_with(|c: char| c == '[' || c.is_ascii_digit() || c == '\x1b')
            });
            assert_eq!(hits.count(), 0, "{bad:?} in {all:?}");
        }
        assert!(all.ends_with("\x1b[?25h"));
    }

    #[test]
    fn inline_finish_leaves_the_transcript_and_the_cursor_under_it() {
        let mut s = Screen::new(Placement::Inline);
        s.draw(&mut Vec::new(), frame(&["title", "q", "o1", "o2"]))
            .unwrap();
        let bytes = s.finish(&["title".into(), "✔ q · a".into(), "✔ Submitted".into()]);
        assert_eq!(
            bytes,
            "\x1b[1B\r✔ q · a\x1b[K\x1b[1B\r✔ Submitted\x1b[K\x1b[1B\r\x1b[J\r\x1b[?25h\x1b[J\x1b[?25h"
        );
    }

    #[test]
    fn lines_that_may_have_scrolled_away_are_given_up() {
        let mut s = Screen::new(Placement::Inline);
        s.draw(&mut Vec::new(), frame(&["1", "2", "3", "4", "5"]))
            .unwrap();
        assert_eq!(s.unreachable(10), 0);
        assert_eq!(s.unreachable(3), 2);
        s.forget_top(2);
        // The region is now "3", "4", "5": the next frame starts at "3".
        assert_eq!(s.diff(&frame(&["3", "4", "5"])), "");
        s.editor_closed(2, 2);
        assert_eq!(s.unreachable(4), 1);
    }
}

//! Frames: a whole screen as lines, drawn in one write; the next frame rewrites only the
//! lines that changed, in one write (issue 11 "Frames").
//!
//! The flow runs on the alternate screen, so a frame is addressed by absolute rows: line `i`
//! of a frame is row `i + 1`. Lines come fitted to the width ([`crate::frontend::layout::fit`]);
//! a changed line is written as `ESC[row;1H` + text + `ESC[K` (erase the rest of the row), and
//! rows the new frame no longer uses are erased. A size change, or anything else that drew on
//! the screen (an editor, a pager's own clear), forces a full redraw ([`Screen::invalidate`]).

use std::fmt::Write as _;
#[cfg(test)]
use std::io::{self, Write};

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
}

impl Frame {
    /// A frame of `lines` with the cursor hidden.
    pub fn new(lines: Vec<String>) -> Self {
        Frame {
            lines,
            cursor: Cursor::Hidden,
        }
    }
}

/// What is on the terminal now, to draw the next frame as a difference.
#[derive(Debug, Default)]
pub(super) struct Screen {
    /// The last frame drawn, `None` when the screen must be drawn whole.
    shown: Option<Frame>,
}

impl Screen {
    /// The next draw redraws everything (after an editor, a suspend, a resize, a peek).
    pub fn invalidate(&mut self) {
        self.shown = None;
    }

    /// The bytes that turn the shown screen into `frame` (empty when nothing changed).
    pub fn diff(&self, frame: &Frame) -> String {
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

    /// Notes that `frame` is on the screen now (after writing [`Screen::diff`]'s bytes).
    pub fn remember(&mut self, frame: Frame) {
        self.shown = Some(frame);
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

    #[test]
    fn the_first_frame_is_drawn_whole_in_one_piece() {
        let s = Screen::default();
        assert_eq!(
            s.diff(&frame(&["a", "", "c"])),
            "\x1b[H\x1b[2J\x1b[1;1Ha\x1b[K\x1b[3;1Hc\x1b[K\x1b[?25l"
        );
    }

    #[test]
    fn a_key_rewrites_only_the_changed_lines() {
        let mut s = Screen::default();
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
        let mut s = Screen::default();
        s.draw(&mut Vec::new(), frame(&["a", "b", "c"])).unwrap();
        assert_eq!(
            s.diff(&frame(&["a"])),
            "\x1b[2;1H\x1b[K\x1b[3;1H\x1b[K\x1b[?25l"
        );
    }

    #[test]
    fn the_cursor_is_placed_for_an_editor() {
        let mut s = Screen::default();
        s.draw(&mut Vec::new(), frame(&["a"])).unwrap();
        let mut f = frame(&["a"]);
        f.cursor = Cursor::At(3, 0);
        assert_eq!(s.diff(&f), "\x1b[4;1H\x1b[?25h");
    }

    #[test]
    fn invalidate_redraws_everything() {
        let mut s = Screen::default();
        s.draw(&mut Vec::new(), frame(&["a"])).unwrap();
        s.invalidate();
        assert_eq!(
            s.diff(&frame(&["a"])),
            "\x1b[H\x1b[2J\x1b[1;1Ha\x1b[K\x1b[?25l"
        );
    }
}

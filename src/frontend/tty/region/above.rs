//! The region on a screen it owns (`--above FILE`): the lines another program left above the
//! questions, drawn again above the transcript and the block in every frame, each row at its
//! place (the module notes of [`super`]).

use super::{Block, Line, Placement, Region, Transcript};
use crate::text::{fit_styled, keep_sgr, width_of};
use std::fmt::Write as _;

/// The most lines of `--above` kept: its last ones, more than any window has rows.
pub const MAX_ABOVE_LINES: usize = 1000;

/// Lines another program left on the screen above the questions (`--above FILE`), to draw
/// again above them: the file's last [`MAX_ABOVE_LINES`] lines, each made safe by
/// [`keep_sgr`] (its colours kept, every other escape or control sequence dropped; with no
/// colour, its colours too), fitted to the window's width by their text when drawn.
#[derive(Debug, Default, Clone)]
pub struct Above {
    lines: Vec<String>,
    /// The columns of `fitted`.
    cols: usize,
    /// The last lines fitted to `cols`, the last one first.
    fitted: Vec<String>,
}

impl Above {
    /// The lines of `text` (`\n` or `\r\n` between them), drawn in colour when `colour`.
    pub fn new(text: &str, colour: bool) -> Self {
        let all: Vec<&str> = text.lines().collect();
        let lines = all[all.len().saturating_sub(MAX_ABOVE_LINES)..]
            .iter()
            .map(|line| {
                let safe = keep_sgr(line);
                if colour {
                    safe.into_owned()
                } else {
                    console::strip_ansi_codes(&safe).into_owned()
                }
            })
            .collect();
        Above {
            lines,
            cols: 0,
            fitted: Vec::new(),
        }
    }

    /// The last `n` lines (all when fewer), each cut to `cols` columns ([`fit_styled`]).
    fn tail(&mut self, n: usize, cols: usize) -> Vec<String> {
        let n = n.min(self.lines.len());
        if self.cols != cols {
            self.fitted.clear();
            self.cols = cols;
        }
        while self.fitted.len() < n {
            let line = &self.lines[self.lines.len() - 1 - self.fitted.len()];
            self.fitted.push(fit_styled(line, cols));
        }
        self.fitted[..n].iter().rev().cloned().collect()
    }
}

impl Region {
    /// Inline: the region owns the screen from its top, which shows `above` ([`Above`]), and
    /// draws the end of those lines above the transcript in every frame. Nothing on the
    /// alternate screen.
    pub fn with_above(mut self, above: Option<Above>) -> Self {
        if self.placement == Placement::Inline {
            self.above = above;
        }
        self
    }

    /// Whether the region owns the screen from its top ([`Region::with_above`]).
    pub(in crate::frontend::tty) fn owns_screen(&self) -> bool {
        self.above.is_some()
    }

    /// A frame on the screen the region owns: from the top, the end of the lines above that
    /// fits, the transcript lines not given up that fit, the block; the cursor at the left of
    /// the row under the block. Rows are written with absolute moves, only those that changed
    /// (all of them after a resize, an editor or a stop); a row a line fills is not erased
    /// after it (an erase there would take the last column).
    pub(super) fn draw_owned(
        &mut self,
        transcript: &Transcript,
        block: &Block,
        rows: usize,
        cols: usize,
    ) -> String {
        let room = rows.saturating_sub(1).max(1);
        let mut block_lines = block.lines.clone();
        let budget = self.budget(rows);
        if block_lines.len() > budget {
            block_lines.drain(..block_lines.len() - budget);
        }
        let live: Vec<&Line> = transcript
            .iter()
            .filter(|l| !self.given.contains(&l.entry))
            .collect();
        let fit = live.len().min(room.saturating_sub(block_lines.len()));
        let live = &live[live.len() - fit..];
        let mut lines: Vec<String> = live.iter().map(|l| l.text.clone()).collect();
        lines.extend(block_lines);
        let free = room.saturating_sub(lines.len());
        let mut screen = match self.above.as_mut() {
            Some(above) => above.tail(free, cols.max(1)),
            None => Vec::new(),
        };
        screen.extend(lines.iter().cloned());
        let old = self.screen.take();
        let whole = old.is_none();
        let old = old.unwrap_or_default();
        let mut out = String::new();
        for (row, line) in screen.iter().enumerate() {
            if !whole && old.get(row) == Some(line) {
                continue;
            }
            let _ = write!(out, "\x1b[{};1H{line}", row + 1);
            if width_of(&console::strip_ansi_codes(line)) < cols {
                out.push_str("\x1b[K");
            }
        }
        let n = screen.len();
        if whole {
            let _ = write!(out, "\x1b[{};1H\x1b[J", n + 1);
        } else {
            for (row, line) in old.iter().enumerate().skip(n) {
                if !line.is_empty() {
                    let _ = write!(out, "\x1b[{};1H\x1b[K", row + 1);
                }
            }
            if !out.is_empty() {
                let _ = write!(out, "\x1b[{};1H", n + 1);
            }
        }
        self.fresh = false;
        self.at = lines.len();
        self.exists = self.at;
        self.dirty = self.at;
        self.shown = lines.into_iter().map(Some).collect();
        self.live = live.iter().map(|l| l.entry).collect();
        self.screen = Some(screen);
        out
    }
}

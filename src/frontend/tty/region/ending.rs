//! How the region ends: the final transcript in its place, or nothing (`--no-transcript`).

use super::{vertical, Entry, Placement, Region, Transcript};
use crate::frontend::tty::screen_width;

/// The bytes that put `lines` in place of an inline region whose cursor rests `at` rows under
/// its top (at the left): up to the top, each line, then everything under the last one erased
/// (after its text), and the cursor at the left of the row under them, visible. Used for
/// every ending, from the front end and from a signal or a panic.
pub(in crate::frontend::tty) fn finish_bytes(at: usize, lines: &[String]) -> String {
    let mut out = String::new();
    vertical(&mut out, at, 0);
    out.push('\r');
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            out.push_str("\r\n");
        }
        out.push_str(line);
        out.push_str("\x1b[K");
    }
    out.push_str("\x1b[J");
    if !lines.is_empty() {
        out.push_str("\r\n");
    }
    out.push_str("\x1b[?25h");
    out
}

impl Region {
    /// The lines the final transcript `lines` leaves in the region: the ones not given up,
    /// or all of them when a line given up no longer says what it should (or was left above
    /// the shell's lines by a stop: [`super::SEPARATED`]).
    pub fn final_lines(given_up: &Transcript, lines: &Transcript) -> Vec<String> {
        let given: std::collections::HashMap<Entry, &str> =
            given_up.iter().map(|l| (l.entry, l.key.as_str())).collect();
        let stale = lines
            .iter()
            .any(|l| given.get(&l.entry).is_some_and(|k| *k != l.key));
        lines
            .iter()
            .filter(|l| stale || !given.contains_key(&l.entry))
            .map(|l| l.text.clone())
            .collect()
    }

    /// How far up the region's top is from the cursor, at most the rows a cursor-up can go
    /// in a window of `rows` (an editor that failed under a resize left the region's rows
    /// unknown).
    fn reachable(&self, rows: usize) -> usize {
        self.at().min(rows.saturating_sub(1))
    }

    /// The bytes that erase the region and leave the cursor at its top (`--no-transcript`: a
    /// caller draws there next); on the alternate screen, a clear.
    pub fn erase(&mut self, rows: usize) -> String {
        if self.placement == Placement::Full {
            self.full = None;
            return "\x1b[H\x1b[2J".to_string();
        }
        let out = if self.fresh {
            String::new()
        } else {
            finish_bytes(self.reachable(rows), &[])
        };
        *self = Region::new(Placement::Inline, self.reflows);
        self.fresh = false;
        out
    }

    /// The bytes that end the run: inline, `lines` (the final transcript) in place of the
    /// region ([`Region::final_lines`], [`finish_bytes`]); on the alternate screen, a clear.
    pub fn finish(&mut self, lines: &Transcript, rows: usize) -> String {
        if self.placement == Placement::Full {
            self.full = None;
            return "\x1b[H\x1b[2J".to_string();
        }
        let lines = Region::final_lines(&self.given_up, lines);
        let out = if self.fresh && lines.is_empty() {
            String::new()
        } else {
            let mut out = String::new();
            if self.fresh {
                out.push_str(&" ".repeat(screen_width().max(1)));
                out.push_str("\r\x1b[K");
            }
            out.push_str(&finish_bytes(self.reachable(rows), &lines));
            out
        };
        *self = Region::new(Placement::Inline, self.reflows);
        self.fresh = false;
        out
    }
}

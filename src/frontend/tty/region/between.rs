//! What happens to the region between frames, when the terminal changed under it: the window
//! was resized, the run was stopped and started again.

use super::{Placement, Region, Transcript};
use console::measure_text_width;

impl Region {
    /// The window is now `cols` columns and `rows` rows (it was `old_cols`): the region's top
    /// is where its rows are now (rewrapped when the terminal rewraps), the next frame is drawn
    /// whole from there. Lines pushed out of the cursor's reach are given up as they are. On a
    /// screen the region owns ([`Region::with_above`]), the next frame is drawn whole.
    pub fn resized(&mut self, old_cols: usize, cols: usize, rows: usize, transcript: &Transcript) {
        self.resized_at(old_cols, cols, rows, transcript, None);
    }

    /// Whether a resize is better placed knowing the cursor's row ([`Region::resized_at`]):
    /// inline under the shell's lines (not on the alternate screen, nor on a screen the region
    /// owns, where every row is drawn at its place).
    pub fn wants_cursor_row(&self) -> bool {
        self.placement == Placement::Inline && !self.owns_screen()
    }

    /// [`Region::resized`], with the cursor's row after the resize when the terminal told it
    /// (`cursor`: from the screen's top, from 0; a cursor position query). When the window
    /// got shorter, the rows above the cursor on the screen bound how far up the region's top
    /// can be: lines the model puts higher went into the terminal's history with the resize
    /// (GNU screen keeps its bottom rows, tmux pushes the top ones as it rewraps and shortens
    /// at once) and are given up, not drawn again at the screen's top as if still there.
    ///
    /// When the cursor's row before the resize is known too ([`Region::cursor_told`]), a
    /// taller window of the same width that moved the cursor down `k` rows pulled `k` rows of
    /// the terminal's history back above the region (tmux, GNU screen and vt100 do): as
    /// many of the region's own lines that went there are its own again
    /// ([`Region::pull_back`]), and none where none came back. Without both rows,
    /// [`super::pulls_back`] decides whether a taller window pulled rows back, as many as it
    /// grew. The cursor's move says nothing of a rewrap: tmux and GNU screen keep the cursor's
    /// row when a narrower window rewraps the rows above it, pushing the top ones into the
    /// history, as a terminal that does not rewrap keeps it (docs/interactive.md
    /// "Placement").
    pub fn resized_at(
        &mut self,
        old_cols: usize,
        cols: usize,
        rows: usize,
        transcript: &Transcript,
        cursor: Option<usize>,
    ) {
        if self.placement == Placement::Full {
            self.full = None;
            return;
        }
        if self.owns_screen() {
            // Every row again: what a smaller window dropped off the top comes back.
            self.screen = None;
            self.at = self.at.min(rows.saturating_sub(1));
            return;
        }
        let cursor = cursor.filter(|&now| self.could_be_at(now, old_cols, cols, rows));
        let cols = cols.max(1);
        let grown = rows.saturating_sub(self.rows);
        let shorter = rows < self.rows;
        self.rows = rows;
        if cols != old_cols {
            // tmux rewraps its history too, and a few resizes between two frames (each pushing
            // and pulling rows at its own width) leave too little known to take rows back
            // safely: taking too many would draw over the shell's lines.
            self.forget_pushed();
        }
        let reflows = self.reflows && cols < old_cols;
        let rows_of = |row: usize| match self.shown.get(row) {
            Some(Some(l)) if reflows => measure_text_width(l).max(1).div_ceil(cols),
            _ => 1,
        };
        // The cursor at an editor's editing position: the rows above it, and those of the
        // block under it (the old frame's, rewrapped), which the next frame draws over.
        let (cursor_row, cursor_col) = self.parked.take().unwrap_or((self.at, 0));
        // The rows the cursor moved down on the screen (both rows known).
        let moved = cursor
            .zip(self.screen_at.take())
            .map(|(now, before)| now.saturating_sub(before));
        let above: Vec<usize> = (0..cursor_row).map(rows_of).collect();
        let (into_row, under) = if cursor_row < self.at {
            let into = if reflows { cursor_col / cols } else { 0 };
            let under: usize = (cursor_row..self.at).map(rows_of).sum();
            (into, under.saturating_sub(into))
        } else {
            (0, 0)
        };
        let mut reach = rows.saturating_sub(1).max(1);
        // Only a shorter window is taken to push rows into the history by itself. tmux and
        // GNU screen also push the top rows when a narrower window rewraps those above the
        // cursor (they keep the cursor's row), but the widths may count more rows than the
        // terminal made (an editor's rows, text drawn over), and a line still on the screen
        // would be given up and drawn over.
        if let Some(row) = cursor.filter(|_| shorter) {
            reach = reach.min(row);
        }
        let mut up: usize = above.iter().sum::<usize>() + into_row;
        // Rows pulled back from the history at the same width, as the cursor's move tells
        // them (a rewrap moves it too: then the region's pushed lines are forgotten).
        let pulled = match moved {
            Some(moved) => moved.min(grown),
            None if self.pulls_back => grown,
            None => 0,
        };
        let mut lost = 0;
        while up > reach && lost < above.len() && above[lost] <= up - reach {
            up -= above[lost];
            lost += 1;
        }
        // Never above the screen's top: a cursor-up stops there (the model counts more rows
        // than the terminal made, or the terminal pulled rows back above the cursor).
        let up = up.min(reach).min(cursor.unwrap_or(usize::MAX));
        // Rows of the block went out of reach with the lines: the terminal keeps them under
        // those lines (tmux pushes the top rows into its history), so the lines are separated
        // from the rest of the transcript.
        let block_lost = lost > self.live.len();
        if cols == old_cols {
            self.note_pushed(lost, transcript);
        }
        for entry in self.live.drain(..lost.min(self.live.len())) {
            if let Some(line) = transcript.iter().find(|l| l.entry == entry) {
                self.given.insert(line.entry);
                self.given_up.push(line.clone());
            }
        }
        if block_lost {
            self.separate_given_up();
        }
        let room = rows.saturating_sub(1).saturating_sub(up);
        let up = up + self.pull_back(pulled.min(room), cols);
        // The old block's rows under the cursor: unknown, drawn over or erased; no more than
        // the screen has under the cursor's row (a shorter window may cut them off).
        let below = rows
            .saturating_sub(1)
            .saturating_sub(cursor.unwrap_or(up).min(rows));
        let under = under.min(below);
        self.shown = vec![None; up + under];
        self.at = up;
        self.exists = up + under;
        self.dirty = up + under;
        self.screen_at = cursor;
    }

    /// Whether the cursor can be on row `now` (from the screen's top, from 0) after the window
    /// went from `self.rows` to `rows` rows: a told row it cannot be on is no answer (a
    /// report typed or pasted as the query was out, xterm's Shift+F3 `ESC[1;2R`), and the
    /// resize is placed as without one. At the same width, with the row before known
    /// ([`Region::cursor_told`]), the cursor moves up by no more than the rows the window lost
    /// (the top rows pushed into the history); a rewrap may move it anywhere.
    fn could_be_at(&self, now: usize, old_cols: usize, cols: usize, rows: usize) -> bool {
        let lost = self.rows.saturating_sub(rows);
        now < rows.max(1)
            && (cols != old_cols || self.screen_at.is_none_or(|before| now + lost >= before))
    }

    /// Inline: whatever was drawn stays as the terminal has it, and the region starts again at
    /// the cursor (after `fg`, or a stop from outside): nothing above is written again. On a
    /// screen the region owns ([`Region::with_above`]), the next frame is drawn whole.
    pub fn restart(&mut self, transcript: &Transcript) {
        if self.placement == Placement::Full {
            self.full = None;
            return;
        }
        if self.owns_screen() {
            // The screen is the region's: drawn whole again.
            self.screen = None;
            return;
        }
        for entry in self.live.drain(..) {
            if let Some(line) = transcript.iter().find(|l| l.entry == entry) {
                self.given.insert(line.entry);
                self.given_up.push(line.clone());
            }
        }
        // The shell's lines come under everything drawn so far.
        self.forget_pushed();
        self.parked = None;
        self.screen_at = None;
        self.separate_given_up();
        self.shown.clear();
        self.at = 0;
        self.exists = 0;
        self.dirty = 0;
        self.fresh = true;
    }

    /// Another program had the terminal between two frames (the external editor), inline
    /// with the block erased first: the cursor rested under the transcript lines.
    /// `in_place`: it came back to that row in a window of the same size, so the program drew
    /// on the alternate screen, or drew nothing: every line is where the region left it, and
    /// the region goes on as it was (the next frame draws the block under the lines; the run
    /// ends with them in place, each line once). Otherwise the program's rows may be under
    /// the lines, or took their place: the region starts again at the cursor
    /// ([`Region::restart`]), and the run ends with the whole final transcript there. On the
    /// alternate screen, and on a screen the region owns, the next frame is drawn whole.
    pub fn handed_back(&mut self, transcript: &Transcript, in_place: bool) {
        if !in_place || self.placement == Placement::Full || self.owns_screen() {
            self.restart(transcript);
        }
    }

    /// The region's top `lines` lines (of the transcript lines live, then the block's rows)
    /// go above the window's top, into the terminal's history: kept, with the lines given up
    /// before the first of them, for a terminal that pulls rows back when the window grows
    /// ([`Region::resized_at`]).
    pub(super) fn note_pushed(&mut self, lines: usize, transcript: &Transcript) {
        if lines == 0 {
            return;
        }
        if self.pushed.len() + lines > super::PUSHED_MAX {
            self.forget_pushed();
            return;
        }
        if self.pushed.is_empty() {
            self.given_up_before = Some(self.given_up.clone());
        }
        for row in 0..lines {
            let line = self
                .live
                .get(row)
                .and_then(|entry| transcript.iter().find(|l| l.entry == *entry))
                .cloned();
            let width = match (&line, self.shown.get(row)) {
                (Some(line), _) => crate::text::drawn_width(&line.text),
                (None, Some(Some(text))) => crate::text::drawn_width(text),
                _ => 0,
            };
            self.pushed.push(super::Pushed { line, width });
        }
    }

    /// The history's newest rows are no longer known to be the region's.
    fn forget_pushed(&mut self) {
        self.pushed.clear();
        self.given_up_before = None;
    }

    /// The window grew, its width the same, and the terminal pulled `grown` rows, the newest
    /// of its history, back above the region's top (as the cursor's move told, or as many as
    /// the window grew in tmux: [`super::pulls_back`]), each line on the rows it takes at
    /// `cols` columns: as many of the region's own pushed lines as came back whole are the
    /// region's again, the newest first, so the next frame writes over their stale text (a
    /// block drawn before a shrink). Their transcript lines are live again, drawn in place;
    /// once no pushed row of a block is left in the history, the lines given up are as they
    /// were before they went (no longer separated). Returns the rows taken back.
    fn pull_back(&mut self, grown: usize, cols: usize) -> usize {
        let reflows = self.reflows;
        let rows_of = |p: &super::Pushed| {
            if reflows {
                p.width.max(1).div_ceil(cols.max(1))
            } else {
                1
            }
        };
        let (mut back, mut taken) = (0, 0);
        for p in self.pushed.iter().rev() {
            if back + rows_of(p) > grown {
                break;
            }
            back += rows_of(p);
            taken += 1;
        }
        if taken == 0 {
            return 0;
        }
        let returned = self.pushed.split_off(self.pushed.len() - taken);
        for line in returned.iter().rev().filter_map(|p| p.line.as_ref()) {
            self.live.insert(0, line.entry);
            self.given.remove(&line.entry);
            self.given_up.retain(|l| l.entry != line.entry);
        }
        // No stale row of a block left in the history: the lines given up read on, in order,
        // into the region, as they were before any went (separated or not).
        if self.pushed.iter().all(|p| p.line.is_some()) {
            if let Some(before) = &self.given_up_before {
                let mut lines = before.clone();
                lines.extend(self.pushed.iter().filter_map(|p| p.line.clone()));
                self.given = lines.iter().map(|l| l.entry).collect();
                self.given_up = lines;
            }
            if self.pushed.is_empty() {
                self.given_up_before = None;
            }
        }
        back
    }
}

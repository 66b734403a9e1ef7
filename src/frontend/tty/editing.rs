//! The open editor in the loop: waiting for it (on its own thread when a timeout runs), the
//! `--timeout` countdown over its block while it is open, what its closing does, the rows it
//! took, and a timeout that gives it up with its draft kept.

use super::layers::{Outcome, Overlay};
use super::{term_width, Backend, Placement, Session};
use crate::editor::{Edit, Edited};
use crate::flow::Command;
use crate::frontend::tty::EditWait;
use crate::text::fit;
use std::io;
use std::time::{Duration, Instant};

/// The prompt of every editor.
pub(super) const EDITOR_PROMPT: &str = "> ";

/// How long an editor must have had no key before the countdown is written over the block
/// (inline), so its thread has drawn the key and its cursor is where its draft says.
const EDITOR_QUIET: Duration = Duration::from_millis(60);

/// An editor that is open (its thread reads keys) between waits.
#[derive(Debug, Clone, Copy)]
pub(super) struct OpenEditor {
    /// The window's size when it opened.
    size: (usize, usize),
    /// When its last key came (the countdown waits until it is quiet).
    key_at: Option<Instant>,
    /// The countdown is written over the block's top line.
    counting: bool,
}

/// Rows an editor's line takes on a terminal `cols` wide, as rustyline lays it out: `prompt`
/// then `text`, wrapped at the width, a line feed starting a row; the row of its end, plus the
/// line feed rustyline writes when the editor closes.
pub(super) fn editor_rows(prompt: &str, text: &str, cols: usize) -> usize {
    editor_cursor_at(prompt, text, cols).0 + 1
}

/// Where the cursor of an editor is, as (row, column) from the start of its prompt, when the
/// text before it is `before` (rustyline's layout at `cols` columns).
pub(super) fn editor_cursor_at(prompt: &str, before: &str, cols: usize) -> (usize, usize) {
    crate::text::editor_cursor(prompt, before, cols)
}

impl<B: Backend> Session<'_, B> {
    /// No key came for `--timeout`: an open editor's draft is kept as Esc would keep it, then
    /// the flow times out, keeping the answers given so far.
    pub(super) fn time_out(&mut self) -> io::Result<()> {
        if let Some(open) = self.editor.take() {
            let (rows, cols) = self.io.size();
            let before = self.io.editor_cursor();
            let row = editor_cursor_at(EDITOR_PROMPT, &before, cols).0;
            let draft = self.io.abandon_edit();
            self.drawn_again();
            let t = self.transcript(None);
            self.region.editor_closed(row, &t, rows);
            if open.size != (rows, cols) {
                // The window changed while the editor had it: the region's top is found again.
                self.region.resized(open.size.1, cols, rows, &t);
                self.cols = cols;
            }
            self.record.keep(&self.region, self.cols);
            if let Some(Overlay::Editor(e)) = self.screens.overlays.last_mut() {
                let outcome = e.closed(Edit::TimedOut(draft));
                self.outcome(outcome)?;
            }
        }
        let why = self.deadline.map(|d| d.message()).unwrap_or_default();
        self.apply(Command::TimeOut(why))
    }

    /// Runs the top editor until it closes or the wait ends; with `--timeout`, writes the
    /// countdown over the block's top line in its last seconds, the editor's cursor kept.
    pub(super) fn edit(&mut self, wait: Option<Duration>) -> io::Result<()> {
        let Some(Overlay::Editor(editor)) = self.screens.overlays.last() else {
            return Ok(());
        };
        let initial = editor.initial.clone();
        let placeholder = editor.placeholder();
        let size = self.io.size();
        let mut open = self.editor.unwrap_or(OpenEditor {
            size,
            key_at: None,
            counting: false,
        });
        let mut again = String::new();
        if self.editor.is_none() {
            let (rows, cols) = size;
            self.completer
                .set_list_room(rows.saturating_sub(self.region.at() + 2), cols);
            self.completer.set_placeholder(placeholder);
            again = self.again_after_stop(rows, cols);
        }
        let mut wait = wait;
        if let Some(at) = open.key_at {
            let quiet = (at + EDITOR_QUIET).saturating_duration_since(self.io.now());
            wait = Some(wait.map_or(quiet, |w| w.min(quiet)));
        }
        let above = self.region.at();
        match self.io.edit(
            EDITOR_PROMPT,
            &initial,
            above,
            &again,
            &self.completer,
            wait,
        )? {
            EditWait::Closed(edited) => {
                self.editor = None;
                self.key_came();
                self.editor_closed(open.size, edited)
            }
            EditWait::Open { last_key } => {
                if let (Some(deadline), Some(at)) = (&mut self.deadline, last_key) {
                    deadline.reset(at);
                }
                let now = self.io.now();
                // Inline, the top row is found from the editor's cursor, which its thread moves
                // as it draws a key: nothing is written until it has been quiet a moment.
                if last_key.is_some() && self.region.placement() == Placement::Inline {
                    open.key_at = Some(now);
                }
                self.editor = Some(open);
                if self.deadline.is_some_and(|d| d.is_past(now)) {
                    return Ok(());
                }
                if open
                    .key_at
                    .is_some_and(|at| now.saturating_duration_since(at) < EDITOR_QUIET)
                {
                    return Ok(());
                }
                open.key_at = None;
                self.editor_countdown(open, now)
            }
        }
    }

    /// The countdown written over an open editor's block (its hint line), or the hint put back
    /// when a key came.
    fn editor_countdown(&mut self, mut open: OpenEditor, now: Instant) -> io::Result<()> {
        let (rows, cols) = self.io.size();
        if (rows, cols) != open.size {
            // The window changed under the editor: the block is laid out again for it and
            // drawn over the old one's rows, the editor under it; where the terminal cannot
            // (the fake), nothing is written over it until it closes.
            if rows >= super::MIN_ROWS && self.draw_above_editor(open.size.1, rows, cols, now)? {
                open.size = (rows, cols);
                open.counting = self.countdown(now).is_some();
            }
            self.editor = Some(open);
            return Ok(());
        }
        let width = term_width(cols);
        let status = self.countdown(now).map(|l| fit(&l, width));
        if status.is_none() && !open.counting {
            self.editor = Some(open);
            return Ok(());
        }
        let block = self.screens.render(
            &self.flow,
            &self.look,
            width,
            self.region.budget(rows),
            status.as_deref(),
        );
        let line = block.lines.first().cloned().unwrap_or_default();
        open.counting = self.countdown(now).is_some();
        self.editor = Some(open);
        let bytes = match self.region.placement() {
            Placement::Full => {
                let row = 1 + usize::from(self.flow.payload().title.is_some());
                format!("\x1b7\x1b[{row};1H{line}\x1b[K\x1b8")
            }
            Placement::Inline => {
                let before = self.io.editor_cursor();
                let (row, col) = editor_cursor_at(EDITOR_PROMPT, &before, cols);
                let up = self.block_rows + row;
                let mut out = format!("\x1b[{up}A\r{line}\x1b[K\x1b[{up}B\r");
                if col > 0 {
                    out.push_str(&format!("\x1b[{col}C"));
                }
                out
            }
        };
        self.io.write(&bytes)
    }

    /// The window is now `rows` x `cols` (it was `old_cols` wide) with an editor open: the
    /// region's top found where the terminal put it (rewrapped), the block laid out again and
    /// drawn from there through the editor, which draws itself under it; whether it was
    /// (the region, the block and the transcript's width are then the new ones).
    fn draw_above_editor(
        &mut self,
        old_cols: usize,
        rows: usize,
        cols: usize,
        now: Instant,
    ) -> io::Result<bool> {
        // The rows of the editor's line under its first, down to its cursor, are the
        // terminal's to keep in the window: the block has the rows above them.
        let before = self.io.editor_cursor();
        let below = editor_cursor_at(EDITOR_PROMPT, &before, cols).0;
        let rows = rows.saturating_sub(below).max(super::MIN_ROWS);
        let t = self.transcript(None);
        let mut region = self.region.clone();
        region.resized(old_cols, cols, rows, &t);
        let previous = std::mem::replace(&mut self.region, region);
        let old_cols = std::mem::replace(&mut self.cols, cols);
        self.record.update_all(&self.flow, &self.look, cols);
        // The transcript again: the resize gave lines up, or took them back (tmux).
        let t = self.transcript(None);
        let block = self.frame(now, rows, cols);
        let bytes = self.region.draw(&t, &block, rows, cols);
        let drawn = std::mem::replace(&mut self.drawn, block);
        let previous_again = self.again.take();
        let again = self.again_after_stop(rows, cols);
        if !self.io.draw_above_editor(&bytes, &again)? {
            self.region = previous;
            self.drawn = drawn;
            self.again = previous_again;
            self.cols = old_cols;
            self.record.update_all(&self.flow, &self.look, old_cols);
            return Ok(false);
        }
        self.block_rows = self.drawn.lines.len();
        self.record.keep(&self.region, self.cols);
        self.completer
            .set_list_room(rows.saturating_sub(self.region.at() + 2), cols);
        Ok(true)
    }

    /// What a stop from outside with the editor about to open draws, in a window of `rows` x
    /// `cols`: the region started again at the cursor (the rule of `fg` after a stop,
    /// `Region::restart_at_the_left`), then the editor's block, the cursor left on the
    /// editor's row. The region it leaves is kept ([`Session::drawn_again`]).
    fn again_after_stop(&mut self, rows: usize, cols: usize) -> String {
        let t = self.transcript(None);
        let mut region = self.region.clone();
        region.restart_at_the_left(&t);
        let bytes = region.draw(&t, &self.drawn, rows, cols);
        self.again = Some(region);
        bytes
    }

    /// The editor closed or was given up: when a stop from outside drew its block again under
    /// the shell's lines ([`Backend::take_continued`]), the region is the one that drawing left
    /// ([`Session::again_after_stop`]).
    fn drawn_again(&mut self) {
        let again = self.again.take();
        if let (true, Some(region)) = (self.io.take_continued(), again) {
            self.region = region;
        }
    }

    /// An editor closed: the rows its line took (as shown: a folded paste as its marker), then
    /// what its closing does.
    fn editor_closed(&mut self, opened: (usize, usize), edited: Edited) -> io::Result<()> {
        self.drawn_again();
        let (rows, cols) = self.io.size();
        let Edited { edit, shown } = edited;
        let t = self.transcript(None);
        self.region
            .editor_closed(editor_rows(EDITOR_PROMPT, &shown, cols), &t, rows);
        if opened != (rows, cols) {
            self.region.resized(opened.1, cols, rows, &t);
            self.cols = cols;
            self.record.update_all(&self.flow, &self.look, cols);
        }
        self.record.keep(&self.region, self.cols);
        let suspend = matches!(edit, Edit::Suspended(_));
        let peek = matches!(edit, Edit::Peek(_));
        if let Edit::External(draft) = &edit {
            let draft = draft.clone();
            return self.external_editor(draft);
        }
        let outcome = match self.screens.overlays.last_mut() {
            Some(Overlay::Editor(e)) => e.closed(edit),
            _ => Outcome::Stay,
        };
        self.outcome(outcome)?;
        if suspend {
            self.suspend()?;
        } else if peek {
            self.peek()?;
        }
        Ok(())
    }

    /// Ctrl+G in an editor: the draft in `$VISUAL` / `$EDITOR` on a private temporary file
    /// (0600, removed after), the block erased first and drawn again after; the text it leaves
    /// is saved as Enter saves it (one final line break dropped). Without an editor set, or
    /// when it fails, the editor opens again on the draft and its hint says why. `--timeout`
    /// counts on while it is open (a save counts as a key): when it runs out, the editor is
    /// ended and the flow times out with its text kept as a draft.
    fn external_editor(&mut self, draft: String) -> io::Result<()> {
        let notice = |s: &mut Self, notice: &'static str, draft: String| {
            if let Some(Overlay::Editor(e)) = s.screens.overlays.last_mut() {
                e.notice = Some(notice);
                e.initial = draft;
            }
        };
        let Some(command) = crate::editor::external_editor() else {
            notice(self, crate::ui::words::NO_EXTERNAL_EDITOR, draft);
            return Ok(());
        };
        let (rows, cols) = self.io.size();
        let t = self.transcript(None);
        if self.region.placement() == Placement::Inline {
            let bytes = self
                .region
                .draw(&t, &super::region::Block::default(), rows, cols);
            self.io.write(&bytes)?;
        }
        self.region.restart(&t);
        let edited = edit_in(&mut self.io, &command, &draft, self.deadline)?;
        let text = match edited {
            External::TimedOut(text) => {
                // As a timeout with the line editor open: its text kept as Esc keeps it.
                if let Some(Overlay::Editor(e)) = self.screens.overlays.last_mut() {
                    let outcome = e.closed(Edit::TimedOut(text));
                    self.outcome(outcome)?;
                }
                return self.time_out();
            }
            External::Kept(why) => {
                self.key_came();
                notice(self, why, draft);
                return Ok(());
            }
            External::Text(text) => text,
        };
        self.key_came();
        let outcome = match self.screens.overlays.last_mut() {
            Some(Overlay::Editor(e)) => e.closed(Edit::Saved(text)),
            _ => Outcome::Stay,
        };
        self.outcome(outcome)
    }
}

/// What the external editor gave ([`edit_in`]).
#[derive(Debug, Clone, PartialEq, Eq)]
enum External {
    /// Its text, to be saved as Enter saves it.
    Text(String),
    /// The editor's notice of why the draft is kept.
    Kept(&'static str),
    /// `--timeout` ran out while it was open: the text it left (or the draft, when its file
    /// cannot be read), to be kept as a timeout keeps a draft.
    TimedOut(String),
}

/// Runs `command` on a private temporary file (0600, in `$TMPDIR`) holding `draft`, with
/// `deadline` counting on while it runs ([`Backend::run_editor_command`]); the text it leaves
/// ([`read_back`]), or the editor's notice of why the draft is kept: it failed, or what it left
/// cannot be read. The file is removed whatever happens, a signal's ending too
/// (`leftovers::on_exit`).
fn edit_in<B: Backend>(
    io: &mut B,
    command: &str,
    draft: &str,
    deadline: Option<crate::frontend::timeout::Deadline>,
) -> io::Result<External> {
    use std::io::Write;
    let failed = External::Kept(crate::ui::words::EXTERNAL_EDITOR_FAILED);
    let mut file = match tempfile::Builder::new()
        .prefix("pi-ask-")
        .suffix(".txt")
        .tempfile()
    {
        Ok(f) => f,
        Err(_) => return Ok(failed),
    };
    let _removed = crate::leftovers::on_exit(Some(file.path().to_path_buf()), None);
    if file
        .write_all(draft.as_bytes())
        .and_then(|_| file.flush())
        .is_err()
    {
        return Ok(failed);
    }
    match io.run_editor_command(command, file.path(), deadline)? {
        super::EditorRun::Exited(true) => Ok(match read_back(file.path()) {
            Ok(text) => External::Text(text),
            Err(why) => External::Kept(why),
        }),
        super::EditorRun::Exited(false) => Ok(failed),
        super::EditorRun::TimedOut => Ok(External::TimedOut(
            read_back(file.path()).unwrap_or_else(|_| draft.to_string()),
        )),
    }
}

/// The text the external editor left at `path`: invalid UTF-8 as U+FFFD, one final line break
/// dropped. Only a regular file is read (an editor that put a FIFO there cannot hold the run
/// up: it is opened without blocking, looked at first), and only up to what an editor holds
/// (`limits::MAX_EDITOR_TEXT_BYTES`, never cut: a cut would lose the end without a word).
///
/// Errors: the editor's notice of why the draft is kept instead.
fn read_back(path: &std::path::Path) -> Result<String, &'static str> {
    use crate::ui::words::{EXTERNAL_EDITOR_FAILED, EXTERNAL_EDITOR_NOT_A_FILE};
    use std::os::unix::fs::OpenOptionsExt;
    if !std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file()) {
        return Err(EXTERNAL_EDITOR_NOT_A_FILE);
    }
    let flags = nix::fcntl::OFlag::O_NONBLOCK | nix::fcntl::OFlag::O_NOFOLLOW;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(flags.bits())
        .open(path)
        .map_err(|_| EXTERNAL_EDITOR_FAILED)?;
    // Swapped between the look and the open: the open file itself decides.
    let meta = file.metadata().map_err(|_| EXTERNAL_EDITOR_FAILED)?;
    if !meta.is_file() {
        return Err(EXTERNAL_EDITOR_NOT_A_FILE);
    }
    let limit = crate::limits::MAX_EDITOR_TEXT_BYTES as u64;
    let bytes = match crate::contract::read_at_most(file, meta.len(), limit) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => return Err(crate::ui::words::EXTERNAL_EDITOR_TOO_LONG),
        Err(_) => return Err(EXTERNAL_EDITOR_FAILED),
    };
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let text = text.strip_suffix('\n').unwrap_or(&text);
    Ok(text.strip_suffix('\r').unwrap_or(text).to_string())
}

//! The open editor in the loop: its keys (from the one reader, through the editors' key map),
//! what its closing does, `@` completion, the live filter, the external editor (Ctrl+G) as a
//! step of the loop, and a timeout that keeps its draft.

use super::layers::{Outcome, Overlay};
use super::overlay::{Edit, Target};
use super::{Backend, Placement, Session};
use crate::flow::Command;
use crate::keys::Key;
use crate::ui::line_editor::Outcome as Step;
use std::io;

impl<B: Backend> Session<'_, B> {
    /// No key came for `--timeout`: an open editor's draft is kept as Esc would keep it, then
    /// the flow times out, keeping the answers given so far.
    pub(super) fn time_out(&mut self) -> io::Result<()> {
        if let Some(Overlay::Editor(e)) = self.screens.overlays.last_mut() {
            let draft = e.line.text().to_string();
            let outcome = e.closed(Edit::TimedOut(draft));
            self.outcome(outcome)?;
        }
        let why = self.deadline.map(|d| d.message()).unwrap_or_default();
        self.apply(Command::TimeOut(why))
    }

    /// A key in the open editor: the editing keys change its text (the filter's options narrow
    /// with it); the others close it, suspend, peek, complete or open the external editor.
    /// In a window too small to show the editor only Ctrl+C and Ctrl+Z act.
    pub(super) fn editor_key(&mut self, key: Key) -> io::Result<()> {
        if self.io.size().0 < super::MIN_ROWS && !matches!(key, Key::Ctrl('c' | 'z')) {
            return Ok(());
        }
        let Some(Overlay::Editor(e)) = self.screens.overlays.last_mut() else {
            return Ok(());
        };
        let notice = e.notice.take();
        e.listing.clear();
        e.candidates.clear();
        let step = match (e.target, &key) {
            // ↓ in the filter's editor goes into the filtered list, the filter kept.
            (Target::Filter(_), Key::Down) if !e.line.text().trim().is_empty() => Step::Save,
            _ => e.line.on(&key),
        };
        if matches!(step, Step::Save | Step::Close) {
            // Closing it is answered by what the notice said (a note past the notes' budget:
            // closed again, it is dropped).
            e.notice = notice;
        }
        let target = e.target;
        if matches!(step, Step::Edited | Step::Moved) && e.line.spec().complete {
            // What completion says at the cursor; typing `@` starts the index's walk, and each
            // key after it narrows the matches the next Tab lists. A text with no `@` before
            // the cursor has nothing to say (no walk of the whole text at each key).
            let (line, pos) = (e.line.text(), e.line.pos());
            e.status = match line.get(..pos) {
                Some(before) if before.contains('@') => status(self.completer.hint_at(line, pos)),
                _ => None,
            };
        }
        let text = || e.line.text().to_string();
        let edit = match step {
            Step::Edited => {
                if let Target::Filter(q) = target {
                    // The live filter: the options narrow with every key.
                    let filter = Some(text().trim().to_string()).filter(|t| !t.is_empty());
                    self.screens.set_filter(&self.flow, &self.look, q, filter);
                }
                return Ok(());
            }
            Step::Moved | Step::Nothing => return Ok(()),
            Step::Save => Edit::Saved(text()),
            Step::Close => Edit::Closed(text()),
            Step::Dismiss => Edit::Interrupted,
            Step::Suspend => return self.suspend(),
            Step::Peek => return self.peek(),
            Step::External => {
                let draft = text();
                return self.external_editor(draft);
            }
            Step::Complete => {
                self.complete();
                return Ok(());
            }
            Step::Navigate(key) => Edit::Navigate(key),
        };
        let outcome = e.closed(edit);
        if let (Target::Filter(q), Outcome::Filter(_, None)) = (target, &outcome) {
            // Esc clears the filter the keys set.
            self.screens.set_filter(&self.flow, &self.look, q, None);
        }
        self.outcome(outcome)
    }

    /// Tab in an editor: the `@` reference before the cursor completed as far as its
    /// candidates agree ([`crate::complete::AtCompleter::candidates`]), the candidates listed
    /// under the editor when there are several.
    fn complete(&mut self) {
        let Some(Overlay::Editor(e)) = self.screens.overlays.last_mut() else {
            return;
        };
        let (line, pos) = (e.line.text(), e.line.pos());
        let Some(found) = self.completer.candidates(line, pos) else {
            return;
        };
        let elected = match found.pairs.as_slice() {
            [only] => only.replacement.clone(),
            _ => found.elected.clone(),
        };
        let offered: Vec<String> = found.pairs.iter().map(|p| p.replacement.clone()).collect();
        if let Some((text, cursor)) =
            crate::complete::insertion(line, pos, found.start, &elected, &offered)
        {
            e.line.set_line(&text, cursor);
        }
        e.status = status(self.completer.hint_at(e.line.text(), e.line.pos()));
        if found.pairs.len() > 1 {
            e.candidates = found.pairs.into_iter().map(|p| p.display).collect();
            self.lay_out_listing(true);
        }
    }

    /// The candidates the last Tab found, listed in the rows the block can give them at the
    /// window's size now (after a Tab, and again after a resize); with no room, a count on the
    /// editor's line (`status`: after a Tab only, so a resize never adds it twice).
    pub(super) fn lay_out_listing(&mut self, status: bool) {
        let (rows, cols) = self.io.size();
        let room = (self.region.budget(rows) / 3).min(super::overlay::MAX_LISTED);
        let Some(Overlay::Editor(e)) = self.screens.overlays.last_mut() else {
            return;
        };
        if e.candidates.len() < 2 {
            return;
        }
        let listed = crate::complete::list_rows(&e.candidates, room, super::term_width(cols) + 1);
        if room == 0 {
            e.listing.clear();
            if status {
                let said = e.status.take().unwrap_or_default();
                e.status = Some(said + &listed);
            }
        } else {
            e.listing = listed.lines().skip(1).map(str::to_string).collect();
        }
    }

    /// Ctrl+G in an editor: the draft in `$VISUAL` / `$EDITOR` on a private temporary file
    /// (0600, removed after), the block erased first and drawn again after (inline, under the
    /// transcript lines where they were when the cursor comes back to its row:
    /// [`super::region::Region::handed_back`]); the text it leaves
    /// is saved as Enter saves it (one final line break dropped). Without an editor set, or
    /// when it fails, the editor stays open on the draft and its hint says why. `--timeout`
    /// counts on while it is open (a save counts as a key): when it runs out, the editor is
    /// ended and the flow times out with its text kept as a draft.
    fn external_editor(&mut self, draft: String) -> io::Result<()> {
        let notice = |s: &mut Self, notice: &'static str| {
            if let Some(Overlay::Editor(e)) = s.screens.overlays.last_mut() {
                e.notice = Some(notice);
            }
        };
        let Some(command) = crate::editor::external_editor() else {
            notice(self, crate::ui::words::NO_EXTERNAL_EDITOR);
            return Ok(());
        };
        let size = self.io.size();
        let t = self.transcript(None);
        // Inline, where the cursor rests under the transcript lines, the block erased.
        let left_at = if self.region.placement() == Placement::Inline {
            let bytes = self
                .region
                .draw(&t, &super::region::Block::default(), size.0, size.1);
            self.io.write(&bytes)?;
            // A signal while the editor runs ends from here, not from the erased block's top.
            self.record.keep(&self.region, size.1);
            self.io.cursor_row()?
        } else {
            None
        };
        // Meanwhile no request from elsewhere is taken: one not taken in time is told why.
        let hold = |s: &Self, why| {
            if let Some(channel) = &s.channel {
                channel.hold(why);
            }
        };
        hold(self, Some(crate::channel::HELD_BY_EDITOR));
        let edited = edit_in(&mut self.io, &command, &draft, self.deadline);
        hold(self, None);
        let edited = edited?;
        // Back at the row it left in a window of the same size: the editor drew on the
        // alternate screen (or nothing), the lines above are where they were.
        let back_at = match left_at {
            Some(_) => self.io.cursor_row()?,
            None => None,
        };
        let in_place = left_at.is_some() && back_at == left_at && self.io.size() == size;
        self.region.handed_back(&t, in_place);
        let text = match edited {
            External::TimedOut(text) => {
                // As a timeout with the line editor open: its text kept as Esc keeps it.
                if let Some(Overlay::Editor(e)) = self.screens.overlays.last_mut() {
                    e.line.set_text(&text);
                }
                return self.time_out();
            }
            External::Kept(why) => {
                self.key_came();
                notice(self, why);
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

/// Completion's status in the terminal's charset (`indexing…` is `indexing...` in ASCII).
fn status(hint: Option<String>) -> Option<String> {
    hint.map(|h| crate::text::terminal_charset().write(&h).into_owned())
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

/// Runs `command` on a private temporary file (0600, `answer.txt` in a folder of its own,
/// 0700, made in `$XDG_RUNTIME_DIR` or `$TMPDIR` when no other user could swap it there:
/// `channel::private_base`) holding `draft`, with `deadline` counting on while it runs
/// ([`Backend::run_editor_command`]); the text it leaves ([`read_back`]), or the editor's
/// notice of why the draft is kept: it failed, or what it left cannot be read. The folder goes
/// with all the editor put in it (vim's swap file, which a vim ended by `--timeout` or a signal
/// keeps, holding the draft) whatever happens, a signal's ending too
/// (`leftovers::on_exit_tree`).
fn edit_in<B: Backend>(
    io: &mut B,
    command: &str,
    draft: &str,
    deadline: Option<crate::frontend::timeout::Deadline>,
) -> io::Result<External> {
    use std::io::Write;
    use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
    let failed = External::Kept(crate::ui::words::EXTERNAL_EDITOR_FAILED);
    let Ok(base) = crate::channel::private_base() else {
        return Ok(External::Kept(
            crate::ui::words::EXTERNAL_EDITOR_NO_SAFE_FOLDER,
        ));
    };
    let Ok(dir) = tempfile::Builder::new().prefix("pi-ask-").tempdir_in(base) else {
        return Ok(failed);
    };
    let Ok(meta) = std::fs::symlink_metadata(dir.path()) else {
        return Ok(failed);
    };
    let _removed =
        crate::leftovers::on_exit_tree(dir.path().to_path_buf(), (meta.dev(), meta.ino()));
    let path = dir.path().join("answer.txt");
    let mut file = match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&path)
    {
        Ok(f) => f,
        Err(_) => return Ok(failed),
    };
    // A text file ends with a line break (an editor that appends starts a line of its own);
    // one final line break is dropped when it is read back.
    if file
        .write_all(draft.as_bytes())
        .and_then(|_| file.write_all(b"\n"))
        .and_then(|_| file.flush())
        .is_err()
    {
        return Ok(failed);
    }
    drop(file);
    match io.run_editor_command(command, &path, deadline)? {
        super::EditorRun::Exited(true) => Ok(match read_back(&path) {
            Ok(text) => External::Text(text),
            Err(why) => External::Kept(why),
        }),
        super::EditorRun::Exited(false) => Ok(failed),
        super::EditorRun::TimedOut => Ok(External::TimedOut(
            read_back(&path).unwrap_or_else(|_| draft.to_string()),
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

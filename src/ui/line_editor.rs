//! The line editor as a UI-free component (docs/interactive.md "The line editor"): what an
//! editor is asked to edit ([`EditorSpec`]), its state ([`LineEditor`]), what a key does to it
//! ([`LineEditor::on`] -> [`Outcome`]) and how it lays out in the rows it has
//! ([`LineEditor::view`] -> [`View`]). Nothing here reads input or writes to a terminal.
//!
//! The text and its cursor are rustyline's `LineBuffer`, so the editing rules (graphemes,
//! Emacs words, kills, transposes) are rustyline's; the keys come from our reader
//! (`crate::keys`) through the editors' key map (`ui::keymap::EDITOR`), so every key form the
//! reader decodes means the same in an editor as at a menu. rustyline's `Changeset` (its undo)
//! cannot be made outside rustyline (its constructor and `undo` are crate-private), so undo is
//! ours: every change the buffer reports to its `ChangeListener` is recorded, one group per key
//! (a run of typed letters and digits is one group, as in rustyline), and undone in reverse. The
//! kill ring is ours too, fed by the same listener while a kill runs.
//!
//! A paste ([`Key::Paste`]) goes in with one step; escape sequences and control strings in it
//! are dropped whole ([`PasteFilter`]), a line break of any kind is `\n`.

use crate::keys::Key;
use crate::text::{for_terminal, width_of};
use crate::ui::keymap::{edit_action, EditAction};
use crate::ui::words;
use rustyline::line_buffer::{ChangeListener, DeleteListener, Direction, LineBuffer};
use rustyline::{At, Word};
use std::collections::VecDeque;

/// What an editor edits (the hint, the placeholder and what its closing does follow from it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditorKind {
    /// A question's custom text (Type your own).
    Answer,
    /// A question's or an option's note.
    Note,
    /// A question's option filter.
    Filter,
}

/// One editor request: everything the front end needs to open an editor, in one value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditorSpec {
    /// What is edited.
    pub kind: EditorKind,
    /// The text it opens with (the cursor at its end).
    pub initial: String,
    /// The prompt before the text's first row (`> `).
    pub prompt: &'static str,
    /// Shown while the text is empty (`Type answer...`).
    pub placeholder: &'static str,
    /// Whether Tab completes an `@` path.
    pub complete: bool,
    /// Whether Ctrl+G (Ctrl+X Ctrl+E) may open the external editor.
    pub external: bool,
    /// Whether the text is drawn masked: one `•` per character (`*` on an ASCII terminal,
    /// `text::Glyph::Bullet`).
    pub masked: bool,
    /// The most rows the editor may take on the screen (at least 1).
    pub rows: usize,
    /// The most bytes the text may hold (`limits::MAX_EDITOR_TEXT_BYTES`).
    pub max_bytes: usize,
}

impl EditorSpec {
    /// An editor of `kind` opening with `initial`, with that kind's placeholder, completion
    /// for answers and notes, the external editor allowed but for the filter, 5 rows.
    pub fn new(kind: EditorKind, initial: impl Into<String>) -> EditorSpec {
        let placeholder = match kind {
            EditorKind::Answer => words::ANSWER_PLACEHOLDER,
            EditorKind::Note => words::NOTE_PLACEHOLDER,
            EditorKind::Filter => "",
        };
        EditorSpec {
            kind,
            initial: initial.into(),
            prompt: "> ",
            placeholder,
            complete: kind != EditorKind::Filter,
            external: kind != EditorKind::Filter,
            masked: false,
            rows: 5,
            max_bytes: crate::limits::MAX_EDITOR_TEXT_BYTES,
        }
    }
}

/// What a key did to an editor; the front end acts on everything but [`Outcome::Edited`],
/// [`Outcome::Moved`] and [`Outcome::Nothing`], which only need a draw (or none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The text changed.
    Edited,
    /// Only the cursor moved.
    Moved,
    /// Nothing changed (a key at an edge, a key the editors do not use).
    Nothing,
    /// Enter: save the text ([`LineEditor::text`]).
    Save,
    /// Esc, or Ctrl+D in an empty editor: close, keeping the text as a draft.
    Close,
    /// Ctrl+C: dismiss the whole flow.
    Dismiss,
    /// Ctrl+Z: suspend like a shell job.
    Suspend,
    /// Ctrl+]: peek at the agent's message.
    Peek,
    /// Ctrl+G or Ctrl+X Ctrl+E with the external editor allowed: write the text there
    /// ([`LineEditor::set_text`] with what comes back).
    External,
    /// Tab with completion on and some text: complete the word before the cursor
    /// ([`LineEditor::before_cursor`], then [`LineEditor::set_line`]).
    Complete,
    /// ↑ ↓ ← → Tab Shift+Tab in an empty editor: leave it and do what the key does on the
    /// screen under it (the contract's "Editing flow").
    Navigate(Key),
}

/// One row of an editor's view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Row {
    /// A row of the text, prompt or indent included, safe to draw.
    Text(String),
    /// The prompt and the placeholder (an empty text); the front end dims the placeholder,
    /// which starts after the prompt.
    Placeholder(String),
    /// How many rows of the text are out of view above (`↑ 3 more lines`).
    Above(String),
    /// How many rows of the text are out of view below.
    Below(String),
}

impl Row {
    /// The row's text.
    pub fn as_str(&self) -> &str {
        match self {
            Row::Text(s) | Row::Placeholder(s) | Row::Above(s) | Row::Below(s) => s,
        }
    }
}

/// An editor laid out in its rows: at most the rows asked, the cursor's (row, column) in them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct View {
    /// The rows, top first.
    pub rows: Vec<Row>,
    /// The cursor: an index into `rows` and a column.
    pub cursor: (usize, usize),
    /// The cursor's byte offset in its row's text (the row's length at the end of a row).
    pub cursor_byte: usize,
}

/// How many undo groups an editor keeps (the oldest go first).
const MAX_UNDO: usize = 1000;
/// How many kills the ring keeps.
const MAX_KILLS: usize = 8;

/// One change the buffer reported.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Change {
    Insert {
        idx: usize,
        text: String,
    },
    Delete {
        idx: usize,
        text: String,
    },
    Replace {
        idx: usize,
        old: String,
        new: String,
    },
}

/// The kill ring: the last kills, the newest last. Consecutive kills join one entry (forward
/// kills append, backward kills prepend), as in readline.
#[derive(Debug, Default)]
struct KillRing {
    entries: VecDeque<String>,
    /// The next kill joins the newest entry.
    joining: bool,
}

impl KillRing {
    fn killed(&mut self, text: &str, dir: Direction) {
        match self.entries.back_mut() {
            Some(last) if self.joining => match dir {
                Direction::Forward => last.push_str(text),
                Direction::Backward => last.insert_str(0, text),
            },
            _ => {
                if self.entries.len() == MAX_KILLS {
                    self.entries.pop_front();
                }
                self.entries.push_back(text.to_string());
                self.joining = true;
            }
        }
    }
}

/// The listener the buffer reports to during one key: every change recorded for undo, and
/// deletions given to the kill ring while a kill runs.
struct Recorder<'a> {
    changes: &'a mut Vec<Change>,
    kills: Option<&'a mut KillRing>,
}

impl DeleteListener for Recorder<'_> {
    fn delete(&mut self, idx: usize, string: &str, dir: Direction) {
        if string.is_empty() {
            return;
        }
        self.changes.push(Change::Delete {
            idx,
            text: string.to_string(),
        });
        if let Some(kills) = self.kills.as_deref_mut() {
            kills.killed(string, dir);
        }
    }
}

impl ChangeListener for Recorder<'_> {
    fn insert_char(&mut self, idx: usize, c: char) {
        self.insert_str(idx, c.encode_utf8(&mut [0; 4]));
    }

    fn insert_str(&mut self, idx: usize, string: &str) {
        if !string.is_empty() {
            self.changes.push(Change::Insert {
                idx,
                text: string.to_string(),
            });
        }
    }

    fn replace(&mut self, idx: usize, old: &str, new: &str) {
        self.changes.push(Change::Replace {
            idx,
            old: old.to_string(),
            new: new.to_string(),
        });
    }
}

/// A listener that records nothing (undoing).
struct Quiet;

impl DeleteListener for Quiet {
    fn delete(&mut self, _: usize, _: &str, _: Direction) {}
}

impl ChangeListener for Quiet {
    fn insert_char(&mut self, _: usize, _: char) {}
    fn insert_str(&mut self, _: usize, _: &str) {}
    fn replace(&mut self, _: usize, _: &str, _: &str) {}
}

/// Where a [`PasteFilter`] is in the pasted text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Paste {
    #[default]
    Text,
    /// After a CR (a LF next is the same line break).
    Cr,
    /// After ESC.
    Esc,
    /// Inside a CSI, to its final byte.
    Csi,
    /// Inside a control string: an OSC (`osc`) to BEL or ST, a DCS, SOS, PM or APC to ST.
    Str { osc: bool },
    /// An ESC inside a control string (`\` ends it).
    StrEsc { osc: bool },
}

/// Drops escape sequences and control strings from pasted text, whole: a CSI (`ESC [`, C1
/// U+009B) through its final byte (0x40-0x7E), an OSC (`ESC ]`, U+009D) through BEL or ST
/// (`ESC \`, U+009C) as xterm ends it, a DCS (`ESC P`), SOS (`ESC X`), PM (`ESC ^`) or APC
/// (`ESC _`) string, or their C1 forms, through ST (ECMA-48), any other `ESC c` pair. CR LF and a lone CR become `\n`; the rest is kept as it came
/// (the reader has made bytes that are not UTF-8 U+FFFD already). The state carries over from
/// one [`Key::Paste`] chunk to the next.
#[derive(Debug, Clone, Default)]
pub struct PasteFilter {
    state: Paste,
}

impl PasteFilter {
    /// Appends what of `input` is kept to `out`.
    pub fn push(&mut self, input: &str, out: &mut String) {
        for c in input.chars() {
            self.state = match (self.state, c) {
                (Paste::Text | Paste::Cr, '\u{1b}') => Paste::Esc,
                (Paste::Text | Paste::Cr, '\u{9b}') => Paste::Csi,
                (Paste::Text | Paste::Cr, '\u{9d}') => Paste::Str { osc: true },
                (Paste::Text | Paste::Cr, '\u{90}' | '\u{98}' | '\u{9e}' | '\u{9f}') => {
                    Paste::Str { osc: false }
                }
                (Paste::Cr, '\n') => Paste::Text,
                (Paste::Text | Paste::Cr, '\r') => {
                    out.push('\n');
                    Paste::Cr
                }
                (Paste::Text | Paste::Cr, c) => {
                    out.push(c);
                    Paste::Text
                }
                (Paste::Esc, '[') => Paste::Csi,
                (Paste::Esc, ']') => Paste::Str { osc: true },
                (Paste::Esc, 'P' | 'X' | '^' | '_') => Paste::Str { osc: false },
                (Paste::Esc, '\u{1b}') => Paste::Esc,
                (Paste::Esc, _) => Paste::Text,
                (Paste::Csi, '\u{20}'..='\u{3f}') => Paste::Csi,
                (Paste::Csi, _) => Paste::Text,
                (Paste::Str { osc } | Paste::StrEsc { osc }, c) => match c {
                    '\u{9c}' => Paste::Text,
                    '\u{7}' if osc => Paste::Text,
                    '\\' if self.state == (Paste::StrEsc { osc }) => Paste::Text,
                    '\u{1b}' => Paste::StrEsc { osc },
                    _ => Paste::Str { osc },
                },
            };
        }
    }

    /// The filter at the end of a paste: a sequence left open there ends with it.
    pub fn end(&mut self) {
        self.state = Paste::Text;
    }
}

/// `text` with its escape sequences and control strings dropped ([`PasteFilter`]), as one
/// whole paste.
pub fn sanitize_paste(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    PasteFilter::default().push(text, &mut out);
    out
}

/// An open line editor: its request, its text and cursor, its undo and kill ring.
pub struct LineEditor {
    spec: EditorSpec,
    line: LineBuffer,
    /// Finished undo groups, the newest last.
    undo: VecDeque<Vec<Change>>,
    /// The last key typed a letter or digit: the next one joins its undo group.
    typing: bool,
    kills: KillRing,
    /// Ctrl+X came: Ctrl+E next opens the external editor.
    ctrl_x: bool,
    paste: PasteFilter,
    /// Text was left out of a paste or a key (the text is full).
    full: bool,
    /// The first text row in view (kept from one view to the next).
    top: std::cell::Cell<usize>,
    /// The column ↑ / ↓ keep (in characters), from the first of a run of them: a shorter
    /// line on the way does not move the cursor left for good.
    goal: Option<usize>,
}

impl std::fmt::Debug for LineEditor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LineEditor")
            .field("kind", &self.spec.kind)
            .field("line", &self.line)
            .finish_non_exhaustive()
    }
}

impl LineEditor {
    /// An editor for `spec`, its text `spec.initial` (cut to `spec.max_bytes` at a character
    /// boundary), the cursor at its end.
    pub fn new(spec: EditorSpec) -> LineEditor {
        let mut initial = spec.initial.as_str();
        if initial.len() > spec.max_bytes {
            initial = &initial[..floor_boundary(initial, spec.max_bytes)];
        }
        let mut line = LineBuffer::with_capacity(initial.len());
        line.insert_str(0, initial, &mut Quiet);
        line.set_pos(initial.len());
        LineEditor {
            spec,
            line,
            undo: VecDeque::new(),
            typing: false,
            kills: KillRing::default(),
            ctrl_x: false,
            paste: PasteFilter::default(),
            full: false,
            top: std::cell::Cell::new(0),
            goal: None,
        }
    }

    /// The request it was opened with.
    pub fn spec(&self) -> &EditorSpec {
        &self.spec
    }

    /// The text.
    pub fn text(&self) -> &str {
        self.line.as_str()
    }

    /// The cursor's byte position in the text.
    pub fn pos(&self) -> usize {
        self.line.pos()
    }

    /// The text before the cursor.
    pub fn before_cursor(&self) -> &str {
        &self.line.as_str()[..self.line.pos()]
    }

    /// Whether text was left out since the last call because the editor was full.
    pub fn take_full(&mut self) -> bool {
        std::mem::take(&mut self.full)
    }

    /// What `key` does: the editing keys change the text through the `LineBuffer`, the
    /// others are handed back as an [`Outcome`].
    pub fn on(&mut self, key: &Key) -> Outcome {
        let paste = matches!(key, Key::Paste(_));
        if !paste {
            self.paste.end();
        }
        let typed = matches!(key, Key::Char(c) if c.is_alphanumeric());
        let action = edit_action(key);
        if !matches!(action, Some(EditAction::Up | EditAction::Down)) {
            self.goal = None;
        }
        if std::mem::take(&mut self.ctrl_x) && *key == Key::Ctrl('e') {
            return self.external();
        }
        let kill = matches!(
            action,
            Some(
                EditAction::KillToEnd
                    | EditAction::KillToStart
                    | EditAction::KillBigWordBack
                    | EditAction::KillWordBack
                    | EditAction::KillWordForward
            )
        );
        if !kill {
            self.kills.joining = false;
        }
        let join = typed && self.typing;
        self.typing = typed;
        let empty = self.line.is_empty();
        if empty
            && matches!(
                key,
                Key::Up | Key::Down | Key::Left | Key::Right | Key::Tab | Key::BackTab
            )
        {
            return Outcome::Navigate(key.clone());
        }
        let mut changes = Vec::new();
        let before = self.line.pos();
        let outcome = match (key, action) {
            (Key::Char(c), _) => {
                let mut buf = [0; 4];
                self.insert(&*c.encode_utf8(&mut buf), &mut changes)
            }
            (Key::Paste(text), _) => {
                let mut clean = String::new();
                self.paste.push(text, &mut clean);
                if self.spec.kind == EditorKind::Filter {
                    // The filter is one line: a pasted line break is a space.
                    clean = clean.replace('\n', " ");
                }
                self.insert(&clean, &mut changes)
            }
            (_, None) => Outcome::Nothing,
            (_, Some(action)) => self.act(action, &mut changes),
        };
        if !changes.is_empty() {
            self.record(changes, join);
        }
        match outcome {
            Outcome::Nothing if self.line.pos() != before => Outcome::Moved,
            outcome => outcome,
        }
    }

    /// An editing action, its changes recorded in `changes`.
    fn act(&mut self, action: EditAction, changes: &mut Vec<Change>) -> Outcome {
        let mut cl = Recorder {
            changes,
            kills: None,
        };
        let edited = |done: bool| {
            if done {
                Outcome::Edited
            } else {
                Outcome::Nothing
            }
        };
        let moved = |done: bool| {
            if done {
                Outcome::Moved
            } else {
                Outcome::Nothing
            }
        };
        match action {
            EditAction::Save => Outcome::Save,
            EditAction::Close => Outcome::Close,
            EditAction::Dismiss => Outcome::Dismiss,
            EditAction::Suspend => Outcome::Suspend,
            EditAction::Peek => Outcome::Peek,
            EditAction::External => self.external(),
            EditAction::Prefix => {
                self.ctrl_x = true;
                Outcome::Nothing
            }
            EditAction::Complete if self.spec.complete => Outcome::Complete,
            EditAction::Complete | EditAction::Back => Outcome::Nothing,
            EditAction::Left => moved(self.line.move_backward(1)),
            EditAction::Right => moved(self.line.move_forward(1)),
            EditAction::WordLeft => moved(self.line.move_to_prev_word(Word::Emacs, 1)),
            EditAction::WordRight => {
                moved(self.line.move_to_next_word(At::AfterEnd, Word::Emacs, 1))
            }
            EditAction::Home => moved(self.line.move_home()),
            EditAction::End => moved(self.line.move_end()),
            EditAction::Up => moved(self.line_up_down(false)),
            EditAction::Down => moved(self.line_up_down(true)),
            EditAction::Backspace => edited(self.line.backspace(1, &mut cl)),
            EditAction::Delete => edited(self.line.delete(1, &mut cl).is_some()),
            EditAction::DeleteOrClose if self.line.is_empty() => Outcome::Close,
            EditAction::DeleteOrClose => edited(self.line.delete(1, &mut cl).is_some()),
            EditAction::Transpose => edited(self.line.transpose_chars(&mut cl)),
            EditAction::Undo => edited(self.undo_once()),
            EditAction::Yank => {
                let Some(text) = self.kills.entries.back().cloned() else {
                    return Outcome::Nothing;
                };
                self.insert(&text, changes)
            }
            EditAction::KillToEnd
            | EditAction::KillToStart
            | EditAction::KillBigWordBack
            | EditAction::KillWordBack
            | EditAction::KillWordForward => {
                cl.kills = Some(&mut self.kills);
                let done = match action {
                    EditAction::KillToEnd => self.line.kill_line(&mut cl),
                    EditAction::KillToStart => self.line.discard_line(&mut cl),
                    EditAction::KillBigWordBack => {
                        self.line.delete_prev_word(Word::Big, 1, &mut cl)
                    }
                    EditAction::KillWordBack => self.line.delete_prev_word(Word::Emacs, 1, &mut cl),
                    _ => self.line.delete_word(At::AfterEnd, Word::Emacs, 1, &mut cl),
                };
                edited(done)
            }
        }
    }

    /// Ctrl+G: the external editor when allowed.
    fn external(&mut self) -> Outcome {
        if self.spec.external {
            Outcome::External
        } else {
            Outcome::Nothing
        }
    }

    /// Inserts `text` at the cursor (what fits in `max_bytes`, cut at a character boundary),
    /// the cursor after it.
    fn insert(&mut self, text: &str, changes: &mut Vec<Change>) -> Outcome {
        let room = self.spec.max_bytes.saturating_sub(self.line.len());
        let text = if text.len() > room {
            self.full = true;
            &text[..floor_boundary(text, room)]
        } else {
            text
        };
        if text.is_empty() {
            return Outcome::Nothing;
        }
        let pos = self.line.pos();
        let mut cl = Recorder {
            changes,
            kills: None,
        };
        self.line.insert_str(pos, text, &mut cl);
        self.line.set_pos(pos + text.len());
        Outcome::Edited
    }

    /// Keeps one key's changes as an undo group (joining the last when `join`).
    fn record(&mut self, changes: Vec<Change>, join: bool) {
        match self.undo.back_mut() {
            Some(last) if join => last.extend(changes),
            _ => {
                if self.undo.len() == MAX_UNDO {
                    self.undo.pop_front();
                }
                self.undo.push_back(changes);
            }
        }
    }

    /// Undoes the newest group; whether there was one.
    fn undo_once(&mut self) -> bool {
        let Some(group) = self.undo.pop_back() else {
            return false;
        };
        for change in group.into_iter().rev() {
            match change {
                Change::Insert { idx, text } => {
                    self.line.delete_range(idx..idx + text.len(), &mut Quiet);
                    self.line.set_pos(idx);
                }
                Change::Delete { idx, text } => {
                    self.line.insert_str(idx, &text, &mut Quiet);
                    self.line.set_pos(idx + text.len());
                }
                Change::Replace { idx, old, new } => {
                    self.line.replace(idx..idx + new.len(), &old, &mut Quiet);
                }
            }
        }
        true
    }

    /// The cursor to the goal column (in characters; the cursor's own at the first ↑ / ↓ of a
    /// run) of the line below (`down`) or above, or that line's end when it is shorter, in a
    /// text of several lines; whether there was one.
    fn line_up_down(&mut self, down: bool) -> bool {
        let text = self.line.as_str();
        let pos = self.line.pos();
        let start = text[..pos].rfind('\n').map_or(0, |i| i + 1);
        let column = *self
            .goal
            .get_or_insert_with(|| text[start..pos].chars().count());
        let (from, to) = if down {
            let Some(end) = text[pos..].find('\n').map(|i| pos + i) else {
                return false;
            };
            let to = text[end + 1..]
                .find('\n')
                .map_or(text.len(), |i| end + 1 + i);
            (end + 1, to)
        } else {
            if start == 0 {
                return false;
            }
            let from = text[..start - 1].rfind('\n').map_or(0, |i| i + 1);
            (from, start - 1)
        };
        let target = text[from..to]
            .char_indices()
            .nth(column)
            .map_or(to, |(i, _)| from + i);
        self.line.set_pos(target);
        true
    }

    /// Replaces the whole text with `text` and puts the cursor at byte `pos` (a completion:
    /// the line `crate::complete::insertion` made), as one undo group; nothing when `text`
    /// would not fit or `pos` is not a character boundary of it.
    pub fn set_line(&mut self, text: &str, pos: usize) {
        if text.len() > self.spec.max_bytes || !text.is_char_boundary(pos) {
            return;
        }
        let mut changes = Vec::new();
        let all = 0..self.line.len();
        self.line.replace(
            all,
            text,
            &mut Recorder {
                changes: &mut changes,
                kills: None,
            },
        );
        self.line.set_pos(pos);
        self.record(changes, false);
        self.typing = false;
    }

    /// Replaces the whole text (what the external editor wrote), the cursor at its end, as one
    /// undo group; a text longer than `max_bytes` is cut at a character boundary.
    pub fn set_text(&mut self, text: &str) {
        let text = &text[..floor_boundary(text, self.spec.max_bytes)];
        let mut changes = Vec::new();
        let all = 0..self.line.len();
        self.line.replace(
            all,
            text,
            &mut Recorder {
                changes: &mut changes,
                kills: None,
            },
        );
        self.record(changes, false);
        self.typing = false;
    }

    /// The editor laid out `width` columns wide in at most `rows` rows (and
    /// [`EditorSpec::rows`]): the prompt, then the text wrapped at the width (a line break
    /// starts a row; rows after the first are indented as wide as the prompt), each character
    /// drawn safe ([`crate::text::for_terminal`]), masked ones as `•`. When the text takes more
    /// rows, the view follows the cursor (its first row is kept while the cursor is in view)
    /// and a row above and below says how many rows are out of view (with 3 rows or more).
    pub fn view(&self, width: usize, rows: usize) -> View {
        let height = rows.min(self.spec.rows).max(1);
        let prompt = self.spec.prompt;
        let indent = " ".repeat(width_of(prompt));
        if self.line.is_empty() {
            self.top.set(0);
            let row = format!("{prompt}{}", self.spec.placeholder);
            return View {
                rows: vec![Row::Placeholder(crate::text::fit(&row, width))],
                cursor: (0, width_of(prompt).min(width.saturating_sub(1))),
                cursor_byte: prompt.len(),
            };
        }
        let (starts, cursor) = self.breaks(width);
        let mut top = self.top.get();
        let total = starts.len();
        let (mut above, mut below) = (false, false);
        let shown;
        if total > height {
            // The markers take a row each (with 3 rows or more); the text rows in view follow
            // the cursor and stay put while it is in view.
            let markers = height >= 3;
            let frame = |top: usize| {
                let above = markers && top > 0;
                let mut shown = height - usize::from(above);
                let below = markers && top + shown < total;
                shown -= usize::from(below);
                (above, shown, below)
            };
            for _ in 0..4 {
                let (_, s, _) = frame(top);
                let mut next = top.min(total - s);
                if cursor.0 < next {
                    next = cursor.0;
                } else if cursor.0 >= next + s {
                    next = cursor.0 + 1 - s;
                }
                if next == top {
                    break;
                }
                top = next;
            }
            (above, shown, below) = frame(top);
        } else {
            top = 0;
            shown = total;
        }
        self.top.set(top);
        let mut out = Vec::with_capacity(height);
        if above {
            out.push(Row::Above(words::editor_rows_above(top)));
        }
        let mut cursor_byte = 0;
        let pos = self.line.pos();
        for i in top..top + shown {
            let (line, at) = self.row(&starts, i, width, pos);
            let lead = if i == 0 { prompt } else { indent.as_str() };
            if i == cursor.0 {
                cursor_byte = lead.len() + at;
            }
            out.push(Row::Text(format!("{lead}{line}")));
        }
        if below {
            out.push(Row::Below(words::editor_rows_below(total - top - shown)));
        }
        let row = cursor.0 - top + usize::from(above);
        View {
            rows: out,
            cursor: (row, cursor.1 + width_of(prompt)),
            cursor_byte,
        }
    }

    /// Where each of the text's rows starts (a byte offset; rows wrapped `width` columns wide
    /// less the prompt's, a line break starting a row) and the cursor's (row, column). Only
    /// widths are counted here, with no row built: [`LineEditor::row`] builds the rows in
    /// view, so a key in a long text costs one pass over it, not a drawn copy of it.
    fn breaks(&self, width: usize) -> (Vec<usize>, (usize, usize)) {
        let avail = width.saturating_sub(width_of(self.spec.prompt)).max(1);
        let text = self.line.as_str();
        let pos = self.line.pos();
        let mut starts = vec![0];
        let mut col = 0;
        let mut cursor = None;
        for (i, g) in unicode_segmentation::UnicodeSegmentation::grapheme_indices(text, true) {
            if g == "\n" || g == "\r\n" {
                if i >= pos && cursor.is_none() {
                    cursor = Some((starts.len() - 1, col));
                }
                starts.push(i + g.len());
                col = 0;
                continue;
            }
            let w = self.drawn_width(g, col, avail);
            if col + w > avail && col > 0 {
                starts.push(i);
                col = 0;
            }
            if i >= pos && cursor.is_none() {
                cursor = Some((starts.len() - 1, col));
            }
            col += w;
        }
        let cursor = match cursor {
            Some(c) => c,
            None if col >= avail => {
                starts.push(text.len());
                (starts.len() - 1, 0)
            }
            None => (starts.len() - 1, col),
        };
        (starts, cursor)
    }

    /// How grapheme `g` is drawn at column `col` of a row `avail` columns wide: masked as `•`
    /// (`*` in ASCII: the editor's rows are not written through the layout), a tab as spaces
    /// to the next multiple of 8 (within the row), anything else safe
    /// ([`crate::text::for_terminal`]).
    fn drawn<'a>(&self, g: &'a str, col: usize, avail: usize) -> std::borrow::Cow<'a, str> {
        if self.spec.masked {
            std::borrow::Cow::Borrowed(
                crate::text::terminal_charset().glyph(crate::text::Glyph::Bullet),
            )
        } else if g == "\t" {
            std::borrow::Cow::Owned(" ".repeat((8 - col % 8).min(avail.saturating_sub(col)).max(1)))
        } else {
            for_terminal(g)
        }
    }

    /// The columns of [`LineEditor::drawn`], without building it for a printable ASCII
    /// character (one column).
    fn drawn_width(&self, g: &str, col: usize, avail: usize) -> usize {
        match g.as_bytes() {
            [b] if !self.spec.masked && (0x20..0x7f).contains(b) => 1,
            _ => width_of(&self.drawn(g, col, avail)),
        }
    }

    /// Row `row` of the text (of [`LineEditor::breaks`]'s `starts`) as drawn, and the byte
    /// offset in it of the text's byte `pos` when that falls in the row (its end when at it).
    fn row(&self, starts: &[usize], row: usize, width: usize, pos: usize) -> (String, usize) {
        let avail = width.saturating_sub(width_of(self.spec.prompt)).max(1);
        let text = self.line.as_str();
        let start = starts[row];
        let end = starts.get(row + 1).copied().unwrap_or(text.len());
        let mut out = String::new();
        let mut at = None;
        let mut col = 0;
        for (i, g) in
            unicode_segmentation::UnicodeSegmentation::grapheme_indices(&text[start..end], true)
        {
            if g == "\n" || g == "\r\n" {
                if start + i >= pos && at.is_none() {
                    at = Some(out.len());
                }
                break;
            }
            if start + i >= pos && at.is_none() {
                at = Some(out.len());
            }
            let drawn = self.drawn(g, col, avail);
            col += width_of(&drawn);
            out.push_str(&drawn);
        }
        let at = at.unwrap_or(out.len());
        (out, at)
    }
}

/// The largest character boundary of `text` at or before `n`.
fn floor_boundary(text: &str, n: usize) -> usize {
    if n >= text.len() {
        return text.len();
    }
    (0..=n)
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0)
}

#[cfg(test)]
#[path = "line_editor_tests.rs"]
mod tests;

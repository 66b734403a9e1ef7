//! The small components: the line editor ([`Editor`]: what it edits, its hint, its rows, what
//! its closing does), the pager ([`Pager`]: a preview, a whole text, the key list, the agent's
//! message) and the confirmations ([`Confirm`]).

use super::layers::{Cx, Outcome};
use crate::flow::Command;
use crate::keys::Key;
use crate::text::for_terminal;
use crate::text::{fit, width_of, wrap, wrap_words};
use crate::ui::keymap::{self, Action};
use crate::ui::line_editor::{EditorKind, EditorSpec, LineEditor, Row};
use crate::ui::words::{self, Confirmation};
use std::cell::{Cell, RefCell};

/// What an editor edits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Target {
    /// Question `q`'s custom text (Type your own).
    CustomText(usize),
    /// Question `q`'s note.
    Note(usize),
    /// The note of option `o` of question `q`.
    OptionNote(usize, usize),
    /// Question `q`'s option filter.
    Filter(usize),
}

impl Target {
    /// The command that saves `text` (Enter), or keeps it as a draft (`saved` false: Esc, a
    /// timeout); `None` for the filter, which is no answer.
    fn command(self, text: String, saved: bool) -> Option<Command> {
        Some(match self {
            Target::CustomText(_) if saved => Command::SaveCustomText(text),
            Target::CustomText(_) => Command::DraftCustomText(text),
            Target::Note(question) => Command::SetNote { question, text },
            Target::OptionNote(question, option) => Command::SetOptionNote {
                question,
                option,
                text,
            },
            Target::Filter(_) => return None,
        })
    }
}

/// How an editor was closed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Edit {
    /// Enter: save this text (an empty text clears; the flow decides).
    Saved(String),
    /// Esc, Ctrl+D in an empty editor: closed with this draft.
    Closed(String),
    /// Ctrl+C: dismiss the whole flow; the draft is not saved.
    Interrupted,
    /// ↑ ↓ Tab Shift+Tab ← → in an empty editor: leave it and move (the contract's "Editing
    /// flow": when the editor is empty these keys navigate without Esc first).
    Navigate(Key),
    /// No key came for the `--timeout` time: the flow times out; this draft is kept as Esc
    /// keeps it.
    TimedOut(String),
}

/// The prompt of every editor.
pub(super) const EDITOR_PROMPT: &str = "> ";

/// The most rows an `@` completion's list takes under the editor.
pub(super) const MAX_LISTED: usize = 5;

/// An open line editor: what it edits, its hint, the editing component
/// ([`crate::ui::line_editor::LineEditor`]) and what its closing does.
#[derive(Debug)]
pub(super) struct Editor {
    /// What it edits.
    pub target: Target,
    /// What the hint line calls it.
    what: String,
    /// The text, its cursor, undo and kill ring.
    pub line: Box<LineEditor>,
    /// A notice shown in the hint line in place of the keys (the external editor's).
    pub notice: Option<&'static str>,
    /// The rows of the candidates the last Tab listed (`crate::complete::list_rows`), shown
    /// under the editor until the next key.
    pub listing: Vec<String>,
    /// The names the last Tab listed, to lay `listing` out again at another width.
    pub candidates: Vec<String>,
    /// What `@` completion says after the text (`  indexing… N files`, why it gave up).
    pub status: Option<String>,
}

impl Editor {
    /// An editor of `target`, called `what`, opening with `initial`.
    pub fn new(target: Target, what: String, initial: String) -> Self {
        let kind = match target {
            Target::CustomText(_) => EditorKind::Answer,
            Target::Note(_) | Target::OptionNote(..) => EditorKind::Note,
            Target::Filter(_) => EditorKind::Filter,
        };
        let spec = EditorSpec {
            prompt: EDITOR_PROMPT,
            ..EditorSpec::new(kind, initial)
        };
        Editor {
            target,
            what,
            line: Box::new(LineEditor::new(spec)),
            notice: None,
            listing: Vec::new(),
            candidates: Vec::new(),
            status: None,
        }
    }

    /// The same editor for a secret (a question's `"secret": true`): its text drawn masked,
    /// no `@` completion, no external editor (it would write the text to a file).
    pub fn secret(mut self) -> Self {
        let spec = EditorSpec {
            masked: true,
            complete: false,
            external: false,
            ..self.line.spec().clone()
        };
        self.line = Box::new(LineEditor::new(spec));
        self
    }

    /// The editor's hint line: what it edits and its keys (or the countdown).
    pub fn hint(&self, cx: &Cx<'_, '_>) -> String {
        let what = crate::text::one_line(&self.what).into_owned();
        if let Some(status) = cx.status {
            // What is edited stays in view; the countdown takes the keys' place.
            return fit(&format!("{what} \u{b7} {status}"), cx.width);
        }
        let keys = match self.target {
            Target::CustomText(_) => words::ANSWER_EDITOR_HINT,
            Target::Note(_) | Target::OptionNote(..) => words::NOTE_EDITOR_HINT,
            Target::Filter(_) => words::FILTER_EDITOR_HINT,
        };
        let external = self
            .line
            .spec()
            .external
            .then(crate::editor::external_editor)
            .flatten();
        let keys = match (self.notice, self.target, external) {
            (Some(notice), _, _) => notice.to_string(),
            (None, Target::Filter(_), _) | (None, _, None) => keys.to_string(),
            (None, _, Some(_)) => format!("{keys} \u{b7} {}", words::EXTERNAL_EDITOR_HINT),
        };
        cx.look.editor_hint(&what, &keys, cx.width)
    }

    /// The rows the editor needs at most in a block of `height` rows: its text's (up to
    /// [`crate::ui::line_editor::EditorSpec::rows`], at most half the rows under the hint line),
    /// and the candidates listed.
    pub fn rows(&self, height: usize, width: usize) -> usize {
        let room = height.saturating_sub(1);
        (room / 2).clamp(1, self.line.spec().rows)
            + self.listing.len().min(MAX_LISTED)
            + self.status_rows(width)
    }

    /// The rows completion's status takes under the text: none when it is short enough to go
    /// after it, else up to 2.
    fn status_rows(&self, width: usize) -> usize {
        match &self.status {
            Some(status) if width_of(status) > width / 2 => 2,
            _ => 0,
        }
    }

    /// The editor's rows, `width` columns wide and at most `rows` rows: its text in view,
    /// completion's status after the last row of text, the placeholder and the markers of rows
    /// out of view dim; then the candidates the last Tab listed. With the editing position:
    /// the index of its row in them and its column. With `cell`, the cursor is also drawn as
    /// a reverse-video cell (where the terminal's own cursor cannot be put there).
    pub fn render(
        &self,
        look: &crate::ui::view::Look,
        width: usize,
        rows: usize,
        cell: bool,
    ) -> (Vec<String>, (usize, usize)) {
        let listed = self.listing.len().min(rows.saturating_sub(1));
        let status_rows = self.status_rows(width).min(rows.saturating_sub(listed + 1));
        let view = self
            .line
            .view(width, rows.saturating_sub(listed + status_rows).max(1));
        let last_text = view.rows.iter().rposition(|r| matches!(r, Row::Text(_)));
        let mut out = Vec::with_capacity(rows);
        let mut below = Vec::new();
        let mut cursor = (0, view.cursor.1);
        for (i, row) in view.rows.iter().enumerate() {
            if i == view.cursor.0 {
                cursor.0 = out.len();
            }
            let text = match row {
                Row::Text(text) => {
                    let mut text = text.clone();
                    if let (Some(status), Some(true)) = (&self.status, last_text.map(|l| l == i)) {
                        // After the text when it fits (the cursor's cell on its first
                        // blank), else on rows of its own under it.
                        if width_of(&text) + width_of(status) <= width {
                            text.push_str(status);
                        } else if status_rows == 0 {
                            text = fit(&format!("{text}{status}"), width);
                        } else {
                            below = wrap(status.trim_start(), width.saturating_sub(2).max(1));
                        }
                    }
                    if i == view.cursor.0 && cell {
                        with_cursor(&text, view.cursor_byte)
                    } else {
                        text
                    }
                }
                Row::Placeholder(text) => {
                    let at = view.cursor_byte.min(text.len());
                    let (prompt, rest) = text.split_at(at);
                    let mut rest = rest.chars();
                    let first = rest.next().map_or(" ".to_string(), String::from);
                    let rest: String = rest.collect();
                    let hint = if rest.is_empty() {
                        String::new()
                    } else {
                        look.hint(&rest, width)
                    };
                    if cell {
                        format!("{prompt}\x1b[7m{}\x1b[27m{hint}", look.hint(&first, width))
                    } else {
                        format!("{prompt}{}{hint}", look.hint(&first, width))
                    }
                }
                Row::Above(text) | Row::Below(text) => look.hint(text, width),
            };
            out.push(text);
            if !below.is_empty() {
                let room = status_rows;
                out.extend(
                    below
                        .drain(..)
                        .take(room)
                        .map(|l| look.hint(&format!("  {l}"), width)),
                );
            }
        }
        for line in self.listing.iter().take(listed) {
            out.push(look.hint(line, width));
        }
        (out, cursor)
    }

    /// What the editor's closing does (the contract's "Editing flow"): Enter saves, Esc keeps
    /// the draft, Ctrl+C dismisses, a timeout keeps the draft then times the flow out (the
    /// loop applies the timeout); an empty editor left with ↑ ↓ Tab Shift+Tab ← → keeps the
    /// empty draft and moves as those keys do on the screen under it. The filter's editor sets
    /// the filter it has (Enter) or clears it (Esc).
    pub fn closed(&mut self, edit: Edit) -> Outcome {
        let (text, saved, then) = match edit {
            Edit::Saved(text) => (text, true, None),
            Edit::Closed(text) | Edit::TimedOut(text) => (text, false, None),
            Edit::Interrupted => {
                return Outcome::Close {
                    apply: Some(Command::Interrupt),
                    then: None,
                }
            }
            Edit::Navigate(key) => {
                let then = match key {
                    Key::Up => Action::StepUp,
                    Key::Down => Action::StepDown,
                    Key::Tab | Key::Right => Action::NextQuestion,
                    _ => Action::PrevQuestion,
                };
                (String::new(), false, Some(then))
            }
        };
        if let Target::Filter(q) = self.target {
            let text = text.trim();
            let keep = saved || then == Some(Action::StepDown);
            return Outcome::Filter(q, (keep && !text.is_empty()).then(|| text.to_string()));
        }
        Outcome::Close {
            apply: self.target.command(text, saved),
            then,
        }
    }
}

/// `row` with the character at byte `at` (a space at the row's end) in reverse video: the
/// editor's cursor.
fn with_cursor(row: &str, at: usize) -> String {
    let at = at.min(row.len());
    let (before, rest) = row.split_at(at);
    let cell = unicode_segmentation::UnicodeSegmentation::graphemes(rest, true)
        .next()
        .unwrap_or(" ");
    let after = &rest[cell.len().min(rest.len())..];
    format!("{before}\x1b[7m{cell}\x1b[27m{after}")
}

/// `text`'s lines within `width` columns, each wrapped between words ([`wrap_words`]): its
/// first row at the line's own indent (its leading blanks), the rows after it two columns
/// further in.
fn hanging_rows(text: &str, width: usize) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.split('\n') {
        let content = line.trim_start_matches(' ');
        let lead = line.len() - content.len();
        let room = width.saturating_sub(lead + 2).max(1);
        for (i, row) in wrap_words(content, room).into_iter().enumerate() {
            let indent = if i == 0 { lead } else { lead + 2 };
            out.push(format!("{}{row}", " ".repeat(indent)));
        }
    }
    out
}

/// A pager over a text: every line reachable, a position in the title.
#[derive(Debug)]
pub(super) struct Pager {
    title: String,
    text: String,
    /// The first line shown; `None`: not placed yet.
    top: Cell<Option<usize>>,
    /// Opens at the end (the agent's message: its question is at the end).
    from_end: bool,
    /// The text wrapped, for a width.
    wrapped: RefCell<Option<(usize, Vec<String>)>>,
    /// Lines a page holds, as last drawn.
    page: Cell<usize>,
    /// Rows it may take at most (`None`: the block's budget).
    rows: Option<usize>,
    /// Wrapped between words ([`crate::text::wrap_words`]), not at any character.
    prose: bool,
    /// Wrapped between words, each line's rows after its first two columns further in than
    /// it ([`hanging_rows`]).
    hanging: bool,
}

impl Pager {
    /// A pager titled `title` over `text`, at its start or its end (`from_end`).
    pub fn new(title: String, text: String, from_end: bool) -> Self {
        Pager {
            title,
            text,
            top: Cell::new(None),
            from_end,
            wrapped: RefCell::new(None),
            page: Cell::new(1),
            rows: None,
            prose: false,
            hanging: false,
        }
    }

    /// The text is indented lines of prose (the review's `Every answer`): each line wrapped
    /// between words, its rows after the first two columns further in than it
    /// ([`hanging_rows`]), so a wrapped row never reads as a line of its own.
    pub fn hanging(mut self) -> Self {
        self.hanging = true;
        self
    }

    /// The text is prose (an option's whole text): wrapped between words, as the prompt is;
    /// a preview or a file keeps every character where it is.
    pub fn prose(mut self) -> Self {
        self.prose = true;
        self
    }

    /// The pager takes at most `rows` rows (at least 4): opened over the screen of an agent's
    /// questions, it never grows the block, so what is above it (the agent's message on a
    /// screen with no scrollback) stays in view.
    pub fn at_most(mut self, rows: usize) -> Self {
        self.rows = Some(rows.max(4));
        self
    }

    /// The text's lines wrapped at `width`; the text's last line break ends its last line
    /// (a file's final newline is no empty line of its own).
    fn lines(&self, width: usize) -> std::cell::Ref<'_, Vec<String>> {
        let stale = self.wrapped.borrow().as_ref().map(|(w, _)| *w) != Some(width);
        if stale {
            let text = self.text.strip_suffix('\n').unwrap_or(&self.text);
            let text = text.strip_suffix('\r').unwrap_or(text);
            let (text, width_in) = (for_terminal(text), width.saturating_sub(2).max(1));
            *self.wrapped.borrow_mut() = Some((
                width,
                match (self.hanging, self.prose) {
                    (true, _) => hanging_rows(&text, width_in),
                    (false, true) => wrap_words(&text, width_in),
                    (false, false) => wrap(&text, width_in),
                },
            ));
        }
        std::cell::Ref::map(self.wrapped.borrow(), |w| {
            &w.as_ref().expect("wrapped above").1
        })
    }

    /// The pager's lines within `cx.height` rows: the title with the position, the page, the
    /// hint (or the countdown).
    pub fn render(&self, cx: &Cx<'_, '_>) -> Vec<String> {
        let lines = self.lines(cx.width);
        let rows = self.rows.map_or(cx.height, |r| r.min(cx.height));
        let height = rows.saturating_sub(2).max(1);
        self.page.set(height);
        let max_top = lines.len().saturating_sub(height);
        let top = match self.top.get() {
            Some(top) => top.min(max_top),
            None if self.from_end => max_top,
            None => 0,
        };
        self.top.set(Some(top));
        let end = (top + height).min(lines.len());
        let more = match (top > 0, end < lines.len()) {
            (true, true) => " \u{b7} more \u{2191}\u{2193}",
            (true, false) => " \u{b7} more \u{2191}",
            (false, true) => " \u{b7} more \u{2193}",
            (false, false) => "",
        };
        let title = crate::text::one_line(&self.title).into_owned();
        let position = format!(
            "lines {}-{end} of {}{more}",
            (top + 1).min(end.max(1)),
            lines.len()
        );
        let mut out = vec![cx
            .look
            .heading(&heading(&title, &position, cx.width), cx.width)];
        out.extend(
            lines[top..end]
                .iter()
                .map(|l| fit(&format!("\u{2502} {l}"), cx.width)),
        );
        out.push(match cx.status {
            Some(status) => fit(status, cx.width),
            None => cx.look.hint(
                &keymap::hint_line(keymap::PAGER, &[], "", cx.width, cx.quiet),
                cx.width,
            ),
        });
        out
    }

    /// What `action` does: scroll, or close (any key it does not use closes it too).
    pub fn on(&mut self, action: Option<Action>) -> Outcome {
        let top = self.top.get().unwrap_or(0);
        let page = self.page.get().max(1);
        let new = match action {
            Some(Action::Up) => top.saturating_sub(1),
            Some(Action::Down) => top + 1,
            Some(Action::PageUp) => top.saturating_sub(page),
            Some(Action::PageDown) => top + page,
            Some(Action::First) => 0,
            Some(Action::Last) => usize::MAX / 2,
            _ => return Outcome::close(),
        };
        self.top.set(Some(new));
        Outcome::Stay
    }
}

/// A pager's heading within `width` columns: `title · position`; when that is too wide the
/// title is cut first, then the position, so where the page is stays in view.
fn heading(title: &str, position: &str, width: usize) -> String {
    let full = format!("{title} \u{b7} {position}");
    let room = width.saturating_sub(width_of(position) + 3);
    if width_of(&full) <= width {
        full
    } else if room >= 6 {
        format!("{} \u{b7} {position}", fit(title, room))
    } else {
        fit(position, width)
    }
}

/// A yes / no confirmation: "no" first and highlighted, then yes, then Elaborate when the
/// confirmation offers it; Esc means no.
#[derive(Debug)]
pub(super) struct Confirm {
    words: Confirmation,
    /// A line under the title (which required questions are unanswered).
    detail: Option<String>,
    /// The highlighted row: 0 no, 1 yes, 2 Elaborate.
    at: usize,
}

impl Confirm {
    /// A confirmation of `words`, with a `detail` line.
    pub fn new(words: Confirmation, detail: Option<String>) -> Self {
        Confirm {
            words,
            detail,
            at: 0,
        }
    }

    /// How many rows it offers.
    fn rows(&self) -> usize {
        if self.words.elaborate.is_some() {
            3
        } else {
            2
        }
    }

    /// Its lines: the title, the detail, no, yes, Elaborate when offered, the hint.
    pub fn render(&self, cx: &Cx<'_, '_>) -> Vec<String> {
        let mut lines = vec![cx.look.prompt(&self.words.title, cx.width)];
        if let Some(detail) = &self.detail {
            lines.push(fit(&crate::text::one_line(detail), cx.width));
        }
        lines.push(cx.look.select_item(self.words.no, self.at == 0, cx.width));
        lines.push(cx.look.select_item(self.words.yes, self.at == 1, cx.width));
        if let Some(elaborate) = self.words.elaborate {
            lines.push(cx.look.select_item(elaborate, self.at == 2, cx.width));
        }
        lines.push(match cx.status {
            Some(status) => fit(status, cx.width),
            None => cx.look.hint(
                &keymap::hint_line(keymap::CONFIRM, &[], "", cx.width, cx.quiet),
                cx.width,
            ),
        });
        lines
    }

    /// What `action` does.
    pub fn on(&mut self, action: Action) -> Outcome {
        let rows = self.rows();
        match action {
            Action::Down => {
                self.at = (self.at + 1) % rows;
                Outcome::Stay
            }
            Action::Up => {
                self.at = (self.at + rows - 1) % rows;
                Outcome::Stay
            }
            Action::Confirm if self.at == 1 => Outcome::Apply(Command::Confirm),
            Action::Confirm if self.at == 2 => Outcome::Apply(Command::Elaborate),
            Action::Yes => Outcome::Apply(Command::Confirm),
            Action::Confirm | Action::No | Action::Cancel => Outcome::Apply(Command::Deny),
            _ => Outcome::Stay,
        }
    }
}

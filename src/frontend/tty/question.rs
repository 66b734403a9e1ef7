//! The question component: a question of the screen model ([`crate::ui::question`]) drawn as
//! a dialoguer-style prompt and menu, its highlight, page and filter, and what its actions
//! do. Compact like dialoguer's `Select`: the prompt (with `1/2 Label` before it when there
//! are several questions), a `Note:` line when the question has a note, the options (a
//! description and an option note dim under their option), Type your own, Next (multi-select),
//! and one hint line generated from the key map.

use super::layers::{Cx, Outcome, Overlay};
use super::menu::Menu;
use super::overlay::{Editor, Pager, Target};
use crate::contract::QuestionType;
use crate::flow::Command;
use crate::text::one_line;
use crate::ui::keymap::Action;
use crate::ui::question::{self as model, Row, Rows};
use crate::ui::words;
use std::cell::{Cell, RefCell};

mod render;

/// How the question is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    /// Its menu, with the hint line.
    Menu,
    /// Over an editor of this row (its label as the editor's): no hint line.
    Editing(Row),
    /// Only the prompt (over a question note's editor).
    Prompt,
    /// Its options as the filter being typed narrows them, the highlight kept: no hint line
    /// (over the filter's editor).
    Filtering,
}

/// A hint line as drawn: for the width, the page counter, (Type your own highlighted, a
/// filter set), the line.
type HintMemo = (usize, String, (bool, bool), String);

/// One question's component; it lives as long as the flow, so a question shown again opens
/// where it was left.
#[derive(Debug)]
pub(super) struct QuestionPrompt {
    /// The question (0-based).
    pub q: usize,
    /// The highlighted row.
    active: usize,
    /// Rows a page holds, as last drawn.
    per_page: Cell<usize>,
    /// The filter, and the options it shows.
    filter: Option<(String, Vec<usize>)>,
    /// The highlight was set from the answer (the first time the question is shown).
    placed: bool,
    /// A text-only question's editor opened once by itself.
    pub opened: bool,
    /// Whether an option has a description, and whether one has a note: each option then
    /// takes that many more rows. Known once (the note's: until a note changes,
    /// [`QuestionPrompt::notes_changed`]), so a key never scans 100,000 options.
    rows_per_option: Cell<Option<(bool, bool)>>,
    /// A preview question's longest preview in rows, for the (columns, cap) it was measured
    /// at: the previews never change, so a key never wraps every option's preview again.
    preview_rows: Cell<Option<((usize, usize), usize)>>,
    /// The hint line as last drawn, for the width and page counter it was drawn for: it
    /// depends on nothing else (the question's key map and the look stay), and laying it out
    /// is a fifth of a key's work (docs/benchmarks.md, figure 2).
    hint: RefCell<Option<HintMemo>>,
    /// The prompt's rows as last drawn, for the width and the rows they had: they depend on
    /// nothing else (the payload and the look stay).
    prompt: RefCell<Option<PromptRows>>,
    /// The options of the last frame, as drawn.
    drawn: RefCell<Vec<DrawnOption>>,
}

/// An option's lines as drawn (its item line, its description and option note under it), and
/// what they were drawn for.
#[derive(Debug)]
pub(super) struct DrawnOption {
    option: usize,
    width: usize,
    active: bool,
    chosen: bool,
    note: Option<String>,
    lines: Vec<String>,
}

impl DrawnOption {
    /// Whether these lines are the option's at `width`, highlighted or not, chosen or not, with
    /// this option note.
    fn is(&self, width: usize, active: bool, chosen: bool, note: Option<&str>) -> bool {
        self.width == width
            && self.active == active
            && self.chosen == chosen
            && self.note.as_deref() == note
    }
}

/// A prompt's rows, for the (width, rows) they were laid out for.
type PromptRows = ((usize, usize), Vec<String>);

impl QuestionPrompt {
    /// Question `q`'s component.
    pub fn new(q: usize) -> Self {
        QuestionPrompt {
            q,
            active: 0,
            per_page: Cell::new(1),
            filter: None,
            placed: false,
            opened: false,
            rows_per_option: Cell::new(None),
            preview_rows: Cell::new(None),
            hint: RefCell::new(None),
            prompt: RefCell::new(None),
            drawn: RefCell::new(Vec::new()),
        }
    }

    fn rows<'a>(&'a self, cx: &Cx<'_, '_>) -> Rows<'a> {
        let question = &cx.flow.payload().questions[self.q];
        Rows::of(question, self.filter.as_ref().map(|(_, s)| s.as_slice()))
    }

    /// Shown again: the highlight on its answer the first time, where it was left after.
    pub fn enter(&mut self, cx: &Cx<'_, '_>) {
        if self.placed {
            return;
        }
        self.placed = true;
        let answers = cx.flow.answers();
        let rows = self.rows(cx);
        let question = &cx.flow.payload().questions[self.q];
        let row = match answers.selected(self.q).first() {
            Some(&o) => Row::Option(o),
            None if answers.custom_text(self.q).is_some()
                && question.kind != QuestionType::Multi =>
            {
                Row::TypeOwn
            }
            // The recommended option is highlighted first (never chosen).
            None => Row::Option(question.first_highlighted()),
        };
        self.active = rows.index_of(row).unwrap_or(0);
    }

    /// The highlighted row.
    pub fn active_row(&self, cx: &Cx<'_, '_>) -> Option<Row> {
        let rows = self.rows(cx);
        (!rows.is_empty()).then(|| rows.get(self.active.min(rows.len() - 1)))
    }

    /// An option note of the question changed: whether one has a note is found again.
    pub fn notes_changed(&self) {
        self.rows_per_option.set(None);
    }

    /// Sets the filter (`None`: every option).
    pub fn set_filter(&mut self, cx: &Cx<'_, '_>, filter: Option<String>) {
        let question = &cx.flow.payload().questions[self.q];
        self.filter = filter.map(|f| {
            let shown = model::filtered(question, &f);
            (f, shown)
        });
        self.active = 0;
    }

    /// The filter's text.
    pub fn filter_text(&self) -> Option<&str> {
        self.filter.as_ref().map(|(f, _)| f.as_str())
    }

    /// What `action` does here.
    pub fn on(&mut self, action: Action, cx: &Cx<'_, '_>) -> Outcome {
        if action == Action::Cancel && self.filter.is_some() {
            // Esc clears a filter first, as in fzf and gum's pickers, the highlighted option
            // kept; then it cancels.
            let kept = self.active_row(cx);
            self.set_filter(cx, None);
            if let Some(i) = kept.and_then(|row| self.rows(cx).index_of(row)) {
                self.active = i;
            }
            return Outcome::Stay;
        }
        let payload = cx.flow.payload();
        let question = &payload.questions[self.q];
        let answers = cx.flow.answers();
        let multi = question.kind == QuestionType::Multi;
        let rows = self.rows(cx);
        let len = rows.len().max(1);
        let per_page = self.per_page.get().max(1);
        let mut menu = Menu::new(len, per_page, self.active);
        let q = self.q;
        let outcome = match action {
            Action::Up => {
                menu.up();
                Outcome::Stay
            }
            Action::Down => {
                menu.down();
                Outcome::Stay
            }
            Action::StepUp => {
                if menu.active > 0 {
                    menu.up();
                }
                Outcome::Stay
            }
            Action::StepDown => {
                if menu.active + 1 < len {
                    menu.down();
                }
                Outcome::Stay
            }
            Action::PageUp => {
                menu.page_up();
                Outcome::Stay
            }
            Action::PageDown => {
                menu.page_down();
                Outcome::Stay
            }
            Action::First => {
                menu.go(0);
                Outcome::Stay
            }
            Action::Last => {
                menu.go(len - 1);
                Outcome::Stay
            }
            Action::Number(d) => match model::digit_row(question, &rows, d) {
                None => Outcome::Stay,
                Some(row) => {
                    if let Some(i) = rows.index_of(row) {
                        menu.go(i);
                    }
                    match row {
                        Row::Option(o) if multi => Outcome::Apply(Command::Toggle(o)),
                        Row::Option(o) => Outcome::Apply(Command::Choose(o)),
                        _ => self.open_custom(cx),
                    }
                }
            },
            Action::Toggle => match rows.is_empty().then_some(Row::Next).or(self.active_row(cx)) {
                Some(Row::Option(o)) if multi => Outcome::Apply(Command::Toggle(o)),
                Some(Row::Option(o)) => {
                    let selected = answers.is_selected(q, o).unwrap_or(false);
                    Outcome::Apply(Command::SetSelection(if selected {
                        vec![]
                    } else {
                        vec![o]
                    }))
                }
                // A multi-select custom row with saved text ticks or unticks, its text kept.
                Some(Row::TypeOwn) if cx.flow.custom_row_toggles(q) => {
                    Outcome::Apply(Command::ToggleCustom)
                }
                Some(Row::TypeOwn) => self.open_custom(cx),
                _ => Outcome::Stay,
            },
            Action::Confirm => match rows.is_empty().then_some(Row::Next).or(self.active_row(cx)) {
                Some(Row::Option(_)) | Some(Row::Next) if multi => Outcome::Apply(Command::Next),
                Some(Row::Option(o)) => Outcome::Apply(Command::Choose(o)),
                Some(Row::TypeOwn) => self.open_custom(cx),
                _ => Outcome::Apply(Command::Next),
            },
            Action::ToggleAll | Action::Invert if multi => {
                let shown: Vec<usize> = (0..rows.options())
                    .filter_map(|i| match rows.get(i) {
                        Row::Option(o) => Some(o),
                        _ => None,
                    })
                    .collect();
                let ticked = |o: usize| answers.is_selected(q, o).unwrap_or(false);
                let all = shown.iter().all(|&o| ticked(o));
                // The ticks of hidden options are kept (the model's `Rows` are sorted).
                let mut selection: Vec<usize> = answers
                    .selected(q)
                    .into_iter()
                    .filter(|o| shown.binary_search(o).is_err())
                    .collect();
                match action {
                    Action::Invert => selection.extend(shown.iter().filter(|&&o| !ticked(o))),
                    _ if !all => selection.extend(shown),
                    _ => {}
                }
                selection.sort_unstable();
                Outcome::Apply(Command::SetSelection(selection))
            }
            // At a secret question a letter no key has is the secret's first (a token typed
            // or auto-typed at once), never the filter's, which is drawn in clear: Type your
            // own's masked editor opens with it.
            // A secret typed again starts afresh: added to a draft nobody can see, it would be
            // sent wrong unseen (a masked secret shows six bullets whatever its length).
            Action::Type(c) if question.secret && question.allows_custom_text() => {
                let mut outcome = self.open_custom(cx);
                if let Outcome::Open(Overlay::Editor(e)) = &mut outcome {
                    e.line.set_text(&c.to_string());
                }
                return outcome;
            }
            // Where typed text goes (a paste at the list): a secret question's masked editor,
            // empty (as a secret typed again), else the filter's.
            Action::TypeOwn if question.secret => {
                let mut outcome = self.open_custom(cx);
                if let Outcome::Open(Overlay::Editor(e)) = &mut outcome {
                    e.line.set_text("");
                }
                return outcome;
            }
            Action::TypeOwn => return self.on(Action::Filter, cx),
            // A letter no key has: the filter opens with it typed (its text so far kept).
            Action::Type(c) if !question.options.is_empty() => {
                let mut text = self.filter_text().unwrap_or("").to_string();
                text.push(c);
                let outcome = Outcome::Open(Overlay::Editor(Editor::new(
                    Target::Filter(q),
                    words::FILTER.to_string(),
                    text.clone(),
                )));
                self.set_filter(cx, Some(text));
                return outcome;
            }
            // `n` on a row that is no option (Type your own, Next) notes the question: a note
            // on the typed answer is the question's note (docs/interactive.md "Notes").
            Action::OptionNote | Action::QuestionNote => match (action, self.active_row(cx)) {
                (Action::OptionNote, Some(Row::Option(o))) => {
                    let label = one_line(&question.options[o].label).into_owned();
                    let initial = answers.option_note(q, o).unwrap_or("").to_string();
                    Outcome::Open(Overlay::Editor(Editor::new(
                        Target::OptionNote(q, o),
                        words::option_note(&label),
                        initial,
                    )))
                }
                _ => {
                    let initial = answers.note(q).unwrap_or("").to_string();
                    Outcome::Open(Overlay::Editor(Editor::new(
                        Target::Note(q),
                        words::QUESTION_NOTE.to_string(),
                        initial,
                    )))
                }
            },
            Action::NextQuestion => Outcome::Apply(Command::Next),
            Action::PrevQuestion if q == 0 => Outcome::Apply(Command::Review),
            Action::PrevQuestion => Outcome::Apply(Command::Back),
            Action::Cancel => Outcome::Apply(Command::Cancel),
            Action::Filter if !question.options.is_empty() => {
                let initial = self.filter_text().unwrap_or("").to_string();
                Outcome::Open(Overlay::Editor(Editor::new(
                    Target::Filter(q),
                    words::FILTER.to_string(),
                    initial,
                )))
            }
            Action::View => match self.active_row(cx) {
                Some(Row::Option(o)) => {
                    let text = model::full_text(payload, answers, q, o);
                    Outcome::Open(Overlay::Pager(match question.kind {
                        QuestionType::Preview => Pager::new(
                            words::preview_title(&one_line(&question.options[o].label)),
                            text,
                            false,
                        ),
                        _ => Pager::new(words::full_text_title(o + 1), text, false).prose(),
                    }))
                }
                _ => Outcome::Stay,
            },
            Action::Keys => Outcome::Open(Overlay::Pager(Pager::new(
                words::KEYS_TITLE.to_string(),
                model::key_list(question).join("\n"),
                false,
            ))),
            _ => Outcome::Stay,
        };
        self.active = menu.active;
        outcome
    }

    /// The custom-text editor, opened on Type your own.
    fn open_custom(&mut self, cx: &Cx<'_, '_>) -> Outcome {
        let question = &cx.flow.payload().questions[self.q];
        if !question.allows_custom_text() {
            return Outcome::Stay;
        }
        if let Some(i) = self.rows(cx).index_of(Row::TypeOwn) {
            self.active = i;
        }
        let initial = cx
            .flow
            .answers()
            .custom_text(self.q)
            .unwrap_or("")
            .to_string();
        let editor = Editor::new(
            Target::CustomText(self.q),
            words::TYPE_OWN.to_string(),
            initial,
        );
        Outcome::Open(Overlay::Editor(if question.secret {
            editor.secret()
        } else {
            editor
        }))
    }

    /// Opens the custom-text editor of a text-only question, or of a secret question not yet
    /// answered, by itself, once.
    pub fn auto_open(&mut self, cx: &Cx<'_, '_>) -> Option<Outcome> {
        let question = &cx.flow.payload().questions[self.q];
        // A secret question with options opens its masked editor too, the first time and
        // while unanswered: a token typed at once goes there, never to the list's keys (its
        // `n` would open a note, its letters the filter, both drawn in clear). With the
        // editor empty, ↑ / ↓ move to the options and Esc shows the list.
        let unanswered = || {
            let answers = cx.flow.answers();
            answers.selected(self.q).is_empty() && answers.custom_text(self.q).is_none()
        };
        let opens = question.is_text_only() || (question.secret && unanswered());
        if self.opened || !opens || !question.allows_custom_text() {
            return None;
        }
        self.opened = true;
        Some(self.open_custom(cx))
    }
}

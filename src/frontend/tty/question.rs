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
use crate::text::{fit, wrap_head, wrap_words, wrapped_len};
use crate::text::{for_terminal, one_line};
use crate::ui::keymap::{self, Action};
use crate::ui::question::{self as model, Row, Rows};
use crate::ui::words;
use std::cell::{Cell, RefCell};

/// How the question is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    /// Its menu, with the hint line.
    Menu,
    /// Over an editor of this row (its label as the editor's): no hint line.
    Editing(Row),
    /// Only the prompt (over a question note's editor).
    Prompt,
}

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
    /// The hint line as last drawn, for the width and page counter it was drawn for: it
    /// depends on nothing else (the question's key map and the look stay), and laying it out
    /// is a fifth of a key's work (docs/benchmarks.md, figure 2).
    hint: RefCell<Option<(usize, String, String)>>,
}

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
            hint: RefCell::new(None),
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

    /// The block's lines in `mode`, within `cx.height` rows.
    pub fn render(&self, cx: &Cx<'_, '_>, mode: Mode) -> Vec<String> {
        let payload = cx.flow.payload();
        let answers = cx.flow.answers();
        let question = &payload.questions[self.q];
        let (look, width) = (cx.look, cx.width);
        let rows = self.rows(cx);
        let multi = question.kind == QuestionType::Multi;
        let preview = question.kind == QuestionType::Preview;
        // Lines under the prompt that always show.
        let mut fixed: Vec<String> = Vec::new();
        if let Some(note) = model::note_line(answers, self.q) {
            fixed.push(look.hint(&format!("  {note}"), width));
        }
        if let Some((f, shown)) = &self.filter {
            fixed.push(look.hint(
                &words::filter_line(f, shown.len(), question.options.len()),
                width,
            ));
        }
        let hint_rows = usize::from(mode == Mode::Menu);
        let (has_desc, has_note) = match self.rows_per_option.get() {
            Some(known) => known,
            None => {
                let known = (
                    question.options.iter().any(|o| o.description.is_some()),
                    (0..question.options.len()).any(|o| answers.option_note(self.q, o).is_some()),
                );
                self.rows_per_option.set(Some(known));
                known
            }
        };
        let per_item = 1 + usize::from(has_desc) + usize::from(has_note);
        let prompt = for_terminal(&model::prompt_text(payload, self.q)).into_owned();
        let prompt_width = width.saturating_sub(4).max(1);
        let context = question.context.as_deref().map(for_terminal);
        let menu_rows = if mode == Mode::Prompt { 0 } else { rows.len() };
        // The rows the menu needs in full, and at least (three rows, or all of them).
        let preview_h = if preview && mode != Mode::Prompt {
            self.preview_height(cx, rows.len() * per_item)
        } else {
            0
        };
        let menu_need = menu_rows * per_item + preview_h;
        let menu_min = menu_rows.min(3) * per_item + preview_h;
        let room = cx.height.saturating_sub(fixed.len() + hint_rows);
        // The prompt wraps into the rows the menu leaves free, and keeps three at least when the
        // menu can page instead.
        let prompt_max = room
            .saturating_sub(menu_need)
            .max(3.min(room.saturating_sub(menu_min)))
            .max(1);
        // A long label would leave no room for the prompt itself: when the place alone needs
        // more than the rows the prompt has, it is cut to half a line.
        let prompt = match model::place(payload, self.q) {
            Some(place)
                if wrap_words(&format!("{} \u{b7}", for_terminal(&place)), prompt_width).len()
                    > prompt_max =>
            {
                format!(
                    "{} \u{b7} {}",
                    fit(&for_terminal(&place), (prompt_width / 2).max(4)),
                    for_terminal(&question.prompt)
                )
            }
            _ => prompt,
        };
        let (mut lines, prompt_rows) =
            prompt_lines(&prompt, context.as_deref(), prompt_width, prompt_max);
        // The prompt's frame (`? … ›`, `…:`) around all its rows: the theme's prefix before
        // the first, its suffix after the last (the context's rows come after it).
        let framed = look.prompt("\u{1}", width);
        let (prefix, suffix) = framed.split_once('\u{1}').unwrap_or(("", ""));
        let reset = if prefix.contains('\u{1b}') {
            "\u{1b}[0m"
        } else {
            ""
        };
        for (i, line) in lines.iter_mut().enumerate() {
            let text = if i == 0 {
                format!("{prefix}{line}")
            } else {
                fit(&format!("  {line}"), width)
            };
            *line = match (i + 1 == prompt_rows, i == 0) {
                (true, _) => format!("{text}{suffix}"),
                (false, true) => format!("{text}{reset}"),
                (false, false) => text,
            };
        }
        lines.extend(fixed);
        if mode == Mode::Prompt {
            return lines;
        }
        let avail = cx
            .height
            .saturating_sub(lines.len() + hint_rows + preview_h)
            .max(1);
        let per_page = (avail / per_item).max(1).min(rows.len().max(1));
        self.per_page.set(per_page);
        let active = match mode {
            Mode::Editing(row) => rows.index_of(row).unwrap_or(self.active),
            _ => self.active,
        };
        let menu = Menu::new(rows.len(), per_page, active);
        let to_review = cx.flow.next_is_review(self.q);
        let indent = " ".repeat(
            look.item_indent()
                + if multi { 0 } else { 4 }
                + model::number(question, Row::Option(0)).len()
                + 1,
        );
        for i in menu.visible() {
            if rows.is_empty() {
                break;
            }
            let row = rows.get(i);
            let is_active = i == menu.active;
            let editing = mode == Mode::Editing(row);
            let text = model::row_text(payload, answers, self.q, row, editing, to_review);
            let chosen = model::is_chosen(answers, self.q, row);
            lines.push(match (row, multi) {
                (Row::Next, _) => look.select_item(&text, is_active, width),
                (_, true) => look.multi_select_item(&text, chosen, is_active, width),
                (_, false) => {
                    let mark = if chosen { "(\u{2022})" } else { "( )" };
                    look.select_item(&[mark, " ", &text].concat(), is_active, width)
                }
            });
            for detail in model::detail_lines(payload, answers, self.q, row) {
                lines.push(look.hint(&format!("{indent}{detail}"), width));
            }
            if let (true, true, Row::Option(o)) = (preview, is_active, row) {
                lines.extend(self.preview_lines(cx, o, &indent, preview_h));
            }
        }
        if mode == Mode::Menu {
            let page = if menu.pages() > 1 {
                format!("[{}/{}]", menu.page() + 1, menu.pages())
            } else {
                String::new()
            };
            lines.push(match cx.status {
                Some(status) => fit(status, width),
                None => self.hint_line(cx, page),
            });
        }
        lines
    }

    /// The hint line under the menu at `cx.width`, with the `page` counter.
    fn hint_line(&self, cx: &Cx<'_, '_>, page: String) -> String {
        let mut memo = self.hint.borrow_mut();
        if let Some((w, p, line)) = memo.as_ref() {
            if *w == cx.width && *p == page {
                return line.clone();
            }
        }
        let question = &cx.flow.payload().questions[self.q];
        let map = model::keymap(question);
        let line = cx
            .look
            .hint(&keymap::hint_line(map, &[], &page, cx.width), cx.width);
        *memo = Some((cx.width, page, line.clone()));
        line
    }

    /// Rows the highlighted option's preview may take: as much as the longest needs, up to
    /// half of what the menu leaves.
    fn preview_height(&self, cx: &Cx<'_, '_>, menu_rows: usize) -> usize {
        let question = &cx.flow.payload().questions[self.q];
        let free = cx.height.saturating_sub(menu_rows + 3);
        let cap = (free / 2).max(2);
        let w = self.preview_width(cx);
        let mut longest = 0;
        for o in &question.options {
            longest = longest.max(wrapped_len(
                &for_terminal(o.preview.as_deref().unwrap_or("")),
                w,
                cap + 1,
            ));
            if longest > cap {
                break;
            }
        }
        longest.min(cap)
    }

    /// The columns a preview line has: the width less the description's indent and `│ `.
    fn preview_width(&self, cx: &Cx<'_, '_>) -> usize {
        let question = &cx.flow.payload().questions[self.q];
        let indent = cx.look.item_indent() + 4 + model::number(question, Row::Option(0)).len() + 1;
        cx.width.saturating_sub(indent + 2).max(1)
    }

    fn preview_lines(
        &self,
        cx: &Cx<'_, '_>,
        option: usize,
        indent: &str,
        height: usize,
    ) -> Vec<String> {
        let o = &cx.flow.payload().questions[self.q].options[option];
        let text = for_terminal(o.preview.as_deref().unwrap_or(""));
        let w = self.preview_width(cx);
        let total = wrapped_len(&text, w, usize::MAX);
        let shown = if total > height {
            height.saturating_sub(1)
        } else {
            total
        };
        let mut lines: Vec<String> = wrap_head(&text, w, shown)
            .into_iter()
            .map(|l| fit(&format!("{indent}\u{2502} {l}"), cx.width))
            .collect();
        if total > shown {
            lines.push(cx.look.hint(
                &format!("{indent}\u{2502} {}", words::preview_more(total - shown)),
                cx.width,
            ));
        }
        lines
    }

    /// What `action` does here.
    pub fn on(&mut self, action: Action, cx: &Cx<'_, '_>) -> Outcome {
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
            Action::Number(d) => match model::digit_row(question, d) {
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
            Action::ToggleAll if multi => {
                let shown: Vec<usize> = (0..rows.options())
                    .filter_map(|i| match rows.get(i) {
                        Row::Option(o) => Some(o),
                        _ => None,
                    })
                    .collect();
                let all = shown
                    .iter()
                    .all(|&o| answers.is_selected(q, o).unwrap_or(false));
                let mut selection: Vec<usize> = answers
                    .selected(q)
                    .into_iter()
                    .filter(|o| !shown.contains(o))
                    .collect();
                if !all {
                    selection.extend(shown);
                }
                selection.sort_unstable();
                Outcome::Apply(Command::SetSelection(selection))
            }
            Action::OptionNote if !question.options.is_empty() => {
                let o = match self.active_row(cx) {
                    Some(Row::Option(o)) => o,
                    _ => 0,
                };
                let label = one_line(&question.options[o].label).into_owned();
                let initial = answers.option_note(q, o).unwrap_or("").to_string();
                Outcome::Open(Overlay::Editor(Editor::new(
                    Target::OptionNote(q, o),
                    words::option_note(&label),
                    initial,
                )))
            }
            Action::QuestionNote => {
                let initial = answers.note(q).unwrap_or("").to_string();
                Outcome::Open(Overlay::Editor(Editor::new(
                    Target::Note(q),
                    words::QUESTION_NOTE.to_string(),
                    initial,
                )))
            }
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
                    let title = match question.kind {
                        QuestionType::Preview => {
                            words::preview_title(&one_line(&question.options[o].label))
                        }
                        _ => words::full_text_title(o + 1),
                    };
                    Outcome::Open(Overlay::Pager(Pager::new(
                        title,
                        model::full_text(payload, answers, q, o),
                        false,
                    )))
                }
                _ => Outcome::Stay,
            },
            Action::Keys => Outcome::Open(Overlay::Pager(Pager::new(
                words::KEYS_TITLE.to_string(),
                keymap::key_list(model::keymap(question)).join("\n"),
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
        Outcome::Open(Overlay::Editor(Editor::new(
            Target::CustomText(self.q),
            words::TYPE_OWN.to_string(),
            initial,
        )))
    }

    /// Opens the custom-text editor of a text-only question by itself, once.
    pub fn auto_open(&mut self, cx: &Cx<'_, '_>) -> Option<Outcome> {
        let question = &cx.flow.payload().questions[self.q];
        if self.opened || !question.is_text_only() || !question.allows_custom_text() {
            return None;
        }
        self.opened = true;
        Some(self.open_custom(cx))
    }
}

/// The prompt's lines (then the question's context, docs/dialects.md), word-wrapped at `width`,
/// at most `max` (the last cut with `…` when more would follow), and how many of them are the
/// prompt's.
fn prompt_lines(
    prompt: &str,
    context: Option<&str>,
    width: usize,
    max: usize,
) -> (Vec<String>, usize) {
    let mut lines = wrap_words(prompt, width);
    let prompt_rows = lines.len();
    if let Some(context) = context {
        lines.extend(wrap_words(context, width));
    }
    if lines.len() > max {
        lines.truncate(max);
        let last = lines.pop().unwrap_or_default();
        lines.push(fit(&format!("{last}\u{2026}"), width));
    }
    let prompt_rows = prompt_rows.min(lines.len());
    (lines, prompt_rows)
}

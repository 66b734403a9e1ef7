//! The question screen: the options, the action rows under them, the keys that act on them,
//! and what the rows open (the custom-text and note editors, the option picker, the filter,
//! the pagers).

use super::screen::Frame;
use super::{help_line, Backend, Input, Menu, Tty};
use crate::contract::{QuestionOption, QuestionType};
use crate::editor::Edit;
use crate::flow::{Command, Screen};
use crate::frontend::layout::{fit, quote, width_of, wrap_head, wrapped_len};
use crate::frontend::view;
use crate::keys::Key;
use crate::sanitize::{for_terminal, one_line};
use std::io;

/// An action row under a question's options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Action {
    TypeOwn,
    ViewPreview,
    NoteQuestion,
    NoteOption,
    Back,
    Next,
    /// "Full text…": the uncut title, label, prompt and one option's text in the pager.
    FullText,
    /// "Filter options…": edit the question's filter text.
    Filter,
    /// "Clear the filter": show every option again.
    ClearFilter,
}

/// Whether `option` matches the filter `needle` (already lowercased): its label, value or
/// description contains it, ignoring case.
fn matches_filter(option: &QuestionOption, needle: &str) -> bool {
    let has = |t: &str| {
        if t.is_ascii() && needle.is_ascii() {
            t.to_ascii_lowercase().contains(needle)
        } else {
            t.to_lowercase().contains(needle)
        }
    };
    has(&option.label) || has(&option.value) || option.description.as_deref().is_some_and(has)
}

/// The lines of rows drawn, by (row, highlighted).
type DrawnRows = std::collections::HashMap<(usize, bool), Vec<String>>;

/// One question screen laid out at the current size: computed when the screen is shown (and
/// after a resize or an editor), not at every key.
struct View {
    q: usize,
    /// Rows drawn already, by (row, highlighted), for the answers of `Tty::revision`: a key
    /// that moves the highlight formats two rows, not the page.
    drawn: std::cell::RefCell<(u64, DrawnRows)>,
    actions: Vec<Action>,
    /// The options the filter shows, by original index; `None` without a filter.
    shown: Option<Vec<usize>>,
    /// How many options are shown.
    m: usize,
    /// Header lines, and the filter line when there is a filter.
    header: Vec<String>,
    help: &'static str,
    per_page: usize,
    num_w: usize,
    preview_w: usize,
    preview_h: usize,
    is_multi: bool,
    is_preview: bool,
    filter: Option<String>,
}

impl View {
    /// The original option index of shown row `row` (below `m`).
    fn orig(&self, row: usize) -> usize {
        self.shown.as_ref().map_or(row, |v| v[row])
    }

    /// The row that shows original option `option`, if shown.
    fn row_of(&self, option: usize) -> Option<usize> {
        match &self.shown {
            Some(v) => v.binary_search(&option).ok(),
            None => Some(option),
        }
    }

    fn rows(&self) -> usize {
        self.m + self.actions.len()
    }
}

impl<B: Backend> Tty<'_, B> {
    fn actions(&self, q: usize) -> Vec<Action> {
        let question = &self.flow.payload().questions[q];
        let mut actions = Vec::new();
        if question.allows_custom_text() {
            actions.push(Action::TypeOwn);
        }
        if question.kind == QuestionType::Preview {
            actions.push(Action::ViewPreview);
        }
        actions.push(Action::NoteQuestion);
        if !question.is_text_only() {
            actions.push(Action::NoteOption);
        }
        if q > 0 {
            actions.push(Action::Back);
        }
        actions.push(Action::Next);
        actions
    }

    /// Lines the preview of the highlighted option may take under it.
    fn preview_height(&self, header: usize) -> usize {
        let free = self.rows().saturating_sub(header + 4);
        (free / 2).max(3).min(free.saturating_sub(1)).max(1)
    }

    /// Lays question `q` out at the current size.
    fn question_view(&self, q: usize) -> View {
        let payload = self.flow.payload();
        let question = &payload.questions[q];
        let n = question.options.len();
        let mut actions = self.actions(q);
        let (mut header, head_cut) = self.header_lines(Some(q));
        let width = self.width();
        let filter = self.filters[q].clone();
        let shown: Option<Vec<usize>> = filter.as_ref().map(|f| {
            let needle = f.to_lowercase();
            (0..n)
                .filter(|&i| matches_filter(&question.options[i], &needle))
                .collect()
        });
        let m = shown.as_ref().map_or(n, Vec::len);
        if let Some(f) = &filter {
            let line = match m {
                0 => format!("Filter {}: no option matches", quote(f)),
                _ => format!("Filter {}: {m} of {n} options", quote(f)),
            };
            header.push(fit(&line, width));
        }
        let is_multi = question.kind == QuestionType::Multi;
        let is_preview = question.kind == QuestionType::Preview;
        let num_w = n.to_string().len();
        let preview_w = width.saturating_sub(num_w + 10);
        let preview_h = if is_preview {
            // As much room as the longest preview needs, up to half the free screen.
            let cap = self.preview_height(header.len());
            let mut longest = 0;
            for o in &question.options {
                let text = for_terminal(o.preview.as_deref().unwrap_or(""));
                longest = longest.max(wrapped_len(&text, preview_w, cap));
                if longest >= cap {
                    break;
                }
            }
            longest
        } else {
            0
        };
        // Paging: each option takes its label line, a description line and a note line when
        // any option has them; the action rows add one separator line.
        let has_desc = question.options.iter().any(|o| o.description.is_some());
        let has_note = (0..n).any(|i| self.flow.answers().option_note(q, i).is_some());
        // "Full text…" when the header or any option's label or description is cut.
        let cut = head_cut
            || question.options.iter().any(|o| {
                width_of(&one_line(&o.label)) + num_w + 8 > width
                    || o.description
                        .as_deref()
                        .is_some_and(|d| width_of(&one_line(d)) + num_w + 8 > width)
            });
        if cut && n > 0 {
            let at = actions.len() - 1;
            actions.insert(at, Action::FullText);
        }
        let per_item = 1 + usize::from(has_desc) + usize::from(has_note);
        let avail = self
            .rows()
            .saturating_sub(header.len() + 3 + if is_preview { preview_h + 1 } else { 0 });
        // Everything (options, separator, action rows) fits: no paging; otherwise options
        // can be filtered.
        let fits = n * per_item + actions.len() < avail;
        if !fits || filter.is_some() {
            actions.push(Action::Filter);
        }
        if filter.is_some() {
            actions.push(Action::ClearFilter);
        }
        let rows = m + actions.len();
        let max_length = if m * per_item + actions.len() < avail {
            rows
        } else {
            (avail / per_item).max(1)
        };
        // The most used keys first, Ctrl+C's meaning and the peek key within 80 columns: the
        // line is cut at the window's width.
        let help = if is_multi {
            "↑↓ move · Space/1-9 tick · Enter done · Esc cancel · ^C dismiss · ^] context · a all · n/N note · ←→ question"
        } else {
            "↑↓ move · Enter/1-9 choose · n/N note · Esc cancel · ^C dismiss · ^] context · ←→ question"
        };
        View {
            q,
            drawn: Default::default(),
            actions,
            shown,
            m,
            header,
            help,
            per_page: max_length.min(self.rows().saturating_sub(2)).max(1),
            num_w,
            preview_w,
            preview_h,
            is_multi,
            is_preview,
            filter,
        }
    }

    /// The lines of option row `row` (a shown option): label, description, note, and under
    /// the highlighted option of a preview question, its preview.
    fn option_lines(&self, view: &View, row: usize, active: bool) -> Vec<String> {
        let q = view.q;
        let width = self.width();
        let state = self.flow.answers();
        let option_index = view.orig(row);
        let option = &self.flow.payload().questions[q].options[option_index];
        let selected = state.is_selected(q, option_index).unwrap_or(false);
        let num_w = view.num_w;
        let text = format!("{:>num_w$}. {}", option_index + 1, one_line(&option.label));
        let mut lines = vec![if view.is_multi {
            self.look.multi_select_item(&text, selected, active, width)
        } else {
            let mark = if selected { "(•)" } else { "( )" };
            self.look
                .select_item(&format!("{mark} {text}"), active, width)
        }];
        let indent = " ".repeat(num_w + 8);
        if let Some(d) = &option.description {
            lines.push(self.look.hint(&format!("{indent}{}", one_line(d)), width));
        }
        if let Some(note) = state.option_note(q, option_index) {
            lines.push(
                self.look
                    .hint(&format!("{indent}note: {}", one_line(note)), width),
            );
        }
        if active && view.is_preview {
            let text = for_terminal(option.preview.as_deref().unwrap_or(""));
            // Only the lines shown are wrapped; the rest are just counted.
            let total = wrapped_len(&text, view.preview_w, usize::MAX);
            let shown = if total > view.preview_h {
                view.preview_h.saturating_sub(1)
            } else {
                total
            };
            for line in wrap_head(&text, view.preview_w, shown) {
                lines.push(fit(&format!("{indent}│ {line}"), width));
            }
            if total > shown {
                lines.push(fit(
                    &format!(
                        "{indent}│ … {} more lines: choose “View full preview…”",
                        total - shown
                    ),
                    width,
                ));
            }
        }
        lines
    }

    /// The lines of action row `row` (at or after `m`), with the separator before the first.
    fn action_lines(&self, view: &View, row: usize, active: bool) -> Vec<String> {
        let q = view.q;
        let width = self.width();
        let state = self.flow.answers();
        let label = match view.actions[row - view.m] {
            Action::TypeOwn => match state.custom_text(q) {
                Some(t) => format!("Type your own… (now {})", quote(t)),
                None => "Type your own…".to_string(),
            },
            Action::ViewPreview => "View full preview…".to_string(),
            Action::NoteQuestion => match state.note(q) {
                Some(t) => format!("Note on this question… (now {})", quote(t)),
                None => "Note on this question…".to_string(),
            },
            Action::NoteOption => "Note on an option…".to_string(),
            Action::Back => "← Back".to_string(),
            Action::Next => view::next_label(&self.flow, q, false).to_string(),
            Action::FullText => "Full text…".to_string(),
            Action::Filter => match &view.filter {
                Some(f) => format!("Filter options… (now {})", quote(f)),
                None => "Filter options…".to_string(),
            },
            Action::ClearFilter => "Clear the filter".to_string(),
        };
        let line = self
            .look
            .select_item(&format!("    {label}"), active, width);
        if row == view.m {
            vec![fit(&format!("      {}", "─".repeat(24)), width), line]
        } else {
            vec![line]
        }
    }

    /// The whole question screen with `menu`'s page.
    fn question_frame(&self, view: &View, menu: &Menu) -> Frame {
        let mut lines = view.header.clone();
        lines.push(help_line(view.help, menu, self.width()));
        let mut drawn = view.drawn.borrow_mut();
        if drawn.0 != self.revision {
            *drawn = (self.revision, Default::default());
        }
        if drawn.1.len() > 4 * menu.per_page + 8 {
            drawn.1.clear();
        }
        for row in menu.visible() {
            let active = row == menu.active;
            let row_lines = drawn.1.entry((row, active)).or_insert_with(|| {
                if row < view.m {
                    self.option_lines(view, row, active)
                } else {
                    self.action_lines(view, row, active)
                }
            });
            lines.extend(row_lines.iter().cloned());
        }
        Frame::new(lines)
    }

    /// The row a question opens on: where it was left, else its answer.
    fn default_row(&self, view: &View) -> usize {
        let q = view.q;
        let state = self.flow.answers();
        self.highlight[q].unwrap_or_else(|| {
            if state.custom_text(q).is_some() && !view.is_multi {
                view.m
            } else {
                let first = state.selected(q).first().copied().unwrap_or(0);
                view.row_of(first).unwrap_or(0)
            }
        })
    }

    /// One visit of question `q`: keys until one leaves the screen (or a resize lays it out
    /// again).
    pub(super) fn question(&mut self, q: usize) -> io::Result<()> {
        // A text-only question (no options, docs/dialects.md): the editor opens as the
        // question is entered; after Esc or an empty Enter the action rows show.
        let question = &self.flow.payload().questions[q];
        if question.is_text_only() && question.allows_custom_text() && self.highlight[q].is_none() {
            self.highlight[q] = Some(0);
            return self.type_own(q);
        }
        let view = self.question_view(q);
        let mut menu = Menu::new(view.rows(), view.per_page, self.default_row(&view));
        loop {
            let frame = self.question_frame(&view, &menu);
            let key = match self.input(frame)? {
                Input::Key(key) => key,
                Input::Relayout => {
                    self.highlight[q] = Some(menu.active);
                    return Ok(());
                }
                Input::Ended => return Ok(()),
            };
            if self.question_key(&view, &mut menu, key)? {
                return Ok(());
            }
        }
    }

    /// Acts on one key at a question; `true` when the screen is left (or must be laid out
    /// again).
    fn question_key(&mut self, view: &View, menu: &mut Menu, key: Key) -> io::Result<bool> {
        let q = view.q;
        let active = menu.active;
        match key {
            Key::Up | Key::Char('k') => menu.up(),
            Key::Down | Key::Char('j') => menu.down(),
            Key::PageUp => menu.page_up(),
            Key::PageDown => menu.page_down(),
            Key::Home if view.m > 0 => menu.go(0),
            Key::End if view.m > 0 => menu.go(view.m - 1),
            Key::Tab | Key::Right => {
                self.highlight[q] = None;
                self.apply(Command::Next)?;
                return Ok(true);
            }
            Key::BackTab | Key::Left if q > 0 => {
                self.highlight[q] = None;
                self.apply(Command::Back)?;
                return Ok(true);
            }
            Key::Esc | Key::Char('q') => {
                // Back on this row if the person does not cancel.
                self.highlight[q] = Some(active);
                self.apply(Command::Cancel)?;
                return Ok(true);
            }
            Key::Char(d @ '1'..='9') => {
                let option = d as usize - '1' as usize;
                let Some(row) = view.row_of(option) else {
                    return Ok(false);
                };
                if row >= view.m || !menu.visible().contains(&row) {
                    return Ok(false);
                }
                menu.go(row);
                return self.choose_row(view, row, false);
            }
            Key::Char(' ') if active < view.m => return self.choose_row(view, active, false),
            Key::Char('a') if view.is_multi => {
                let state = self.flow.answers();
                let shown: Vec<usize> = (0..view.m).map(|r| view.orig(r)).collect();
                let all = shown
                    .iter()
                    .all(|&o| state.is_selected(q, o).unwrap_or(false));
                let mut selection: Vec<usize> = state
                    .selected(q)
                    .into_iter()
                    .filter(|o| view.row_of(*o).is_none())
                    .collect();
                if !all {
                    selection.extend(shown);
                }
                self.apply(Command::SetSelection(selection))?;
            }
            Key::Char('n') if view.m > 0 => {
                let option = view.orig(if active < view.m { active } else { 0 });
                self.highlight[q] = Some(active);
                self.edit_option_note(q, option)?;
                return Ok(true);
            }
            // `/` filters, as in fzf, less and inquire.
            Key::Char('/') if view.m > 0 || view.filter.is_some() => {
                self.highlight[q] = Some(active);
                self.run_action(view, Action::Filter)?;
                return Ok(true);
            }
            Key::Char('N') => {
                self.highlight[q] = Some(active);
                self.note_question(q)?;
                return Ok(true);
            }
            Key::Enter => return self.choose_row(view, active, true),
            Key::Char(' ') if !view.is_multi => return self.choose_row(view, active, true),
            _ => {}
        }
        Ok(false)
    }

    /// Enter (`enter`), Space or a digit on `row`: chooses an option (single, preview: and
    /// moves on), ticks it (multi, Space or digit), confirms the ticks (multi, Enter), or runs
    /// an action row (Enter). `true` when the screen is left.
    fn choose_row(&mut self, view: &View, row: usize, enter: bool) -> io::Result<bool> {
        let q = view.q;
        if row < view.m {
            let option = view.orig(row);
            if view.is_multi && !enter {
                self.apply(Command::Toggle(option))?;
                return Ok(false);
            }
            self.highlight[q] = Some(row);
            if view.is_multi {
                self.apply(Command::Next)?;
            } else {
                self.apply(Command::Choose(option))?;
            }
            return Ok(true);
        }
        self.highlight[q] = Some(row);
        self.run_action(view, view.actions[row - view.m])?;
        Ok(true)
    }

    /// Runs an action row of question `view.q`.
    fn run_action(&mut self, view: &View, action: Action) -> io::Result<()> {
        let q = view.q;
        match action {
            // Leaving the question: it re-opens on its answer, not on this row.
            Action::Next => {
                self.highlight[q] = None;
                self.apply(Command::Next)
            }
            Action::Back => {
                self.highlight[q] = None;
                self.apply(Command::Back)
            }
            Action::TypeOwn => self.type_own(q),
            Action::NoteQuestion => self.note_question(q),
            Action::NoteOption => {
                if let Some(option) = self.pick_option(q, "Note on which option?")? {
                    self.edit_option_note(q, option)?;
                }
                Ok(())
            }
            Action::Filter => {
                let initial = self.filters[q].clone().unwrap_or_default();
                let what = "Filter options by label, value or description (empty Enter: all)";
                match self.edit(Some(q), &[], what, &initial)? {
                    Edit::Interrupted => self.apply(Command::Interrupt),
                    // A filter is no answer: nothing to keep.
                    Edit::TimedOut(_) => self.time_out(),
                    Edit::Saved(text) | Edit::Closed(text) => {
                        let text = text.trim();
                        self.filters[q] = (!text.is_empty()).then(|| text.to_string());
                        self.highlight[q] = None;
                        Ok(())
                    }
                    _ => Ok(()),
                }
            }
            Action::ClearFilter => {
                self.filters[q] = None;
                self.highlight[q] = None;
                Ok(())
            }
            Action::FullText => {
                if let Some(option) = self.pick_option(q, "Full text of which option?")? {
                    let text = self.full_text(q, option);
                    self.pager(&format!("Full text of option {}", option + 1), &text)?;
                }
                Ok(())
            }
            Action::ViewPreview => {
                if let Some(option) =
                    self.pick_option(q, "View the full preview of which option?")?
                {
                    let o = &self.flow.payload().questions[q].options[option];
                    self.pager(
                        &format!("Preview of {}", one_line(&o.label)),
                        o.preview.as_deref().unwrap_or(""),
                    )?;
                    self.highlight[q] = view.row_of(option);
                }
                Ok(())
            }
        }
    }

    /// What stays on screen above an editor of question `view.q`: its options as they are
    /// drawn, from the page of the highlighted row, with option `marked` (a note's option)
    /// highlighted.
    fn editor_context(&self, view: &View, marked: Option<usize>) -> Vec<String> {
        let active = marked
            .and_then(|o| view.row_of(o))
            .unwrap_or_else(|| self.highlight[view.q].unwrap_or(0));
        let start = (active / view.per_page) * view.per_page;
        let mut lines = Vec::new();
        for row in start.min(view.m)..view.m {
            let mut option =
                self.option_lines(view, row, Some(row) == marked.and_then(|o| view.row_of(o)));
            option.truncate(1);
            lines.extend(option);
            if lines.len() > 200 {
                break;
            }
        }
        lines
    }

    /// Applies an editor's outcome for question `q` opened from `row`: Enter through `save`,
    /// Esc through `draft`, Ctrl+C dismisses; an empty editor left with ↑ ↓ keeps the empty
    /// draft and moves the highlight, with Tab / Shift+Tab / ← / → it moves between questions
    /// (the contract, "Editing flow"); `--timeout` saves the draft through `draft`, as Esc does,
    /// then times the flow out.
    fn after_edit(
        &mut self,
        q: usize,
        row: usize,
        edit: Edit,
        save: impl FnOnce(String) -> Command,
        draft: impl FnOnce(String) -> Command,
    ) -> io::Result<()> {
        match edit {
            Edit::Saved(text) => self.apply(save(text)),
            Edit::Closed(text) | Edit::Suspended(text) | Edit::Peek(text) => {
                self.apply(draft(text))
            }
            Edit::Interrupted => self.apply(Command::Interrupt),
            Edit::TimedOut(text) => {
                self.apply(draft(text))?;
                self.time_out()
            }
            Edit::Navigate(key) => {
                self.apply(draft(String::new()))?;
                // The keys do what they do on the screen the editor was opened from: at the
                // question, move the highlight or change the question; at the review (a note
                // editor opened from it), ← / Shift+Tab go back to the last question and the
                // rest do nothing.
                let at_question = self.flow.screen() == Screen::Question(q);
                match key {
                    Key::Up if at_question => self.highlight[q] = Some(row.saturating_sub(1)),
                    Key::Down if at_question => self.highlight[q] = Some(row + 1),
                    Key::Tab | Key::Right if at_question => {
                        self.highlight[q] = None;
                        self.apply(Command::Next)?;
                    }
                    Key::BackTab | Key::Left if at_question && q > 0 => {
                        self.highlight[q] = None;
                        self.apply(Command::Back)?;
                    }
                    Key::BackTab | Key::Left if self.flow.screen() == Screen::Review => {
                        self.apply(Command::Back)?;
                    }
                    _ => {}
                }
                Ok(())
            }
        }
    }

    /// Opens the editor for question `q`'s custom text: Enter saves it (and goes on when
    /// there is text), Esc keeps the draft; the question stays on screen above it.
    fn type_own(&mut self, q: usize) -> io::Result<()> {
        let initial = self.flow.answers().custom_text(q).unwrap_or("").to_string();
        let view = self.question_view(q);
        let context = self.editor_context(&view, None);
        let edit = self.edit(Some(q), &context, "Your own answer", &initial)?;
        let row = self.highlight[q].unwrap_or(view.m);
        self.after_edit(
            q,
            row,
            edit,
            Command::SaveCustomText,
            Command::DraftCustomText,
        )
    }

    /// Everything about a question and one of its options, uncut, for the "Full text…"
    /// pager: title, label, prompt, then the option's label, description and note.
    fn full_text(&self, q: usize, option: usize) -> String {
        let question = &self.flow.payload().questions[q];
        let o = &question.options[option];
        let mut text = String::new();
        if let Some(title) = &self.flow.payload().title {
            text.push_str(&format!("{title}\n\n"));
        }
        text.push_str(&format!(
            "{}/{} {}\n{}\n\n{}. {}\n",
            q + 1,
            self.flow.payload().questions.len(),
            question.label,
            match &question.context {
                Some(context) => format!("{}\n\n{context}", question.prompt),
                None => question.prompt.clone(),
            },
            option + 1,
            o.label
        ));
        if let Some(d) = &o.description {
            text.push_str(&format!("{d}\n"));
        }
        if let Some(note) = self.flow.answers().option_note(q, option) {
            text.push_str(&format!("note: {note}\n"));
        }
        text
    }

    /// Opens the editor for question `q`'s note; Enter and Esc both save it.
    pub(super) fn note_question(&mut self, q: usize) -> io::Result<()> {
        let initial = self.flow.answers().note(q).unwrap_or("").to_string();
        let view = self.question_view(q);
        let context = self.editor_context(&view, None);
        let edit = self.edit(Some(q), &context, "Note on this question", &initial)?;
        let row = self.highlight[q].unwrap_or(0);
        let note = |text| Command::SetNote { question: q, text };
        self.after_edit(q, row, edit, note, note)
    }

    /// Opens the editor for the note of option `option` of question `q`; Enter and Esc both
    /// save it.
    pub(super) fn edit_option_note(&mut self, q: usize, option: usize) -> io::Result<()> {
        let label = one_line(&self.flow.payload().questions[q].options[option].label).into_owned();
        let initial = self
            .flow
            .answers()
            .option_note(q, option)
            .unwrap_or("")
            .to_string();
        let view = self.question_view(q);
        let context = self.editor_context(&view, Some(option));
        let edit = self.edit(
            Some(q),
            &context,
            &format!("Note on option {label}"),
            &initial,
        )?;
        let row = view.row_of(option).unwrap_or(0);
        let note = |text| Command::SetOptionNote {
            question: q,
            option,
            text,
        };
        self.after_edit(q, row, edit, note, note)
    }

    /// A menu of the question's options (with their notes) and "← Back"; `None` for back/Esc.
    pub(super) fn pick_option(&mut self, q: usize, what: &str) -> io::Result<Option<usize>> {
        let n = self.flow.payload().questions[q].options.len();
        let num_w = n.to_string().len();
        let render = |t: &Self, row: usize, active: bool| {
            if row == n {
                return vec![t.look.select_item("← Back", active, t.width())];
            }
            let question = &t.flow.payload().questions[q];
            let mut text = format!(
                "{:>num_w$}. {}",
                row + 1,
                one_line(&question.options[row].label)
            );
            if let Some(note) = t.flow.answers().option_note(q, row) {
                text.push_str(&format!("  (note {})", quote(note)));
            }
            vec![t.look.select_item(&text, active, t.width())]
        };
        let default = self
            .flow
            .answers()
            .selected(q)
            .first()
            .copied()
            .unwrap_or(0);
        let picked = self.pick(
            Some(q),
            Some(what),
            "↑↓ move · Enter choose · Esc back",
            n + 1,
            default,
            &render,
        )?;
        Ok(picked.filter(|&row| row < n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filter_matches_label_value_or_description_ignoring_case() {
        let option = |label: &str, description: Option<&str>| QuestionOption {
            value: "v1".to_string(),
            label: label.to_string(),
            description: description.map(str::to_string),
            preview: None,
            recommended: false,
        };
        assert!(matches_filter(&option("CAFÉ bar", None), "é"));
        assert!(matches_filter(&option("Café", None), "café"));
        assert!(matches_filter(&option("日本 10", None), "日本"));
        assert!(matches_filter(&option("x", Some("Fast ENGINE")), "engine"));
        assert!(matches_filter(&option("x", None), "v1"));
        assert!(!matches_filter(&option("Option 4", Some("d")), "option 42"));
    }
}

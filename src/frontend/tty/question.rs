//! The question screen: the options, the action rows under them, and what the rows open
//! (the custom-text and note editors, the option picker, the filter, the pagers).

use super::{again, is_resized, term_width, to_io, RowTheme, Tty};
use crate::contract::{QuestionOption, QuestionType};
use crate::editor::Edit;
use crate::flow::Command;
use crate::frontend::layout::{fit, quote, width_of, wrap_head, wrapped_len};
use crate::sanitize::{for_terminal, one_line};
use dialoguer::MultiSelect;
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

impl Tty<'_> {
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

    /// One question screen: one choice, applied to the flow.
    pub(super) fn question(&mut self, q: usize) -> io::Result<()> {
        let payload = self.flow.payload();
        let question = &payload.questions[q];
        // A text-only question (no options, docs/dialects.md): the editor opens as the
        // question is entered; after Esc or an empty Enter the action rows show.
        if question.is_text_only() && question.allows_custom_text() && self.highlight[q].is_none() {
            self.highlight[q] = Some(0);
            return self.type_own(q);
        }
        let n = question.options.len();
        let mut actions = self.actions(q);
        let (_, head_cut) = self.header_lines(Some(q));
        let mut header = self.header(Some(q))?;
        let width = self.width();
        // The filter ("Filter options…"): the options shown, by their original index.
        let filter = self.filters[q].clone();
        let shown: Option<Vec<usize>> = filter.as_ref().map(|f| {
            let needle = f.to_lowercase();
            (0..n)
                .filter(|&i| matches_filter(&question.options[i], &needle))
                .collect()
        });
        let m = shown.as_ref().map_or(n, Vec::len);
        let orig = |row: usize| shown.as_ref().map_or(row, |v| v[row]);
        if let Some(f) = &filter {
            let line = match m {
                0 => format!("Filter {}: no option matches", quote(f)),
                _ => format!("Filter {}: {m} of {n} options", quote(f)),
            };
            self.term.write_line(&fit(&line, width))?;
            header += 1;
        }
        let is_multi = question.kind == QuestionType::Multi;
        let is_preview = question.kind == QuestionType::Preview;
        let preview_w = width.saturating_sub(n.to_string().len() + 10);
        let preview_h = if is_preview {
            // As much room as the longest preview needs, up to half the free screen.
            let cap = self.preview_height(header);
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
        let last = q + 1 == payload.questions.len();

        // Paging: each option takes its label line, a description line and a note line when
        // any option has them; the action rows add one separator line.
        let has_desc = question.options.iter().any(|o| o.description.is_some());
        let has_note = (0..n).any(|i| self.flow.answers().option_note(q, i).is_some());
        let num_w = n.to_string().len();
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
            .saturating_sub(header + 3 + if is_preview { preview_h + 1 } else { 0 });
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

        let state = self.flow.answers();
        let term = &self.term;
        let render = |row: usize, checked: Option<bool>, active: bool| -> String {
            // The width now, so rows stay one line each after the window is narrowed.
            let width = term_width(term).min(width.max(10));
            let cursor = if active { "›" } else { " " };
            if row < m {
                let row = orig(row);
                let option = &question.options[row];
                let mark = match checked {
                    Some(true) => "[x]",
                    Some(false) => "[ ]",
                    None if state.is_selected(q, row).unwrap_or(false) => "(•)",
                    None => "( )",
                };
                let mut lines = vec![fit(
                    &format!(
                        "{cursor} {mark} {:>num_w$}. {}",
                        row + 1,
                        one_line(&option.label)
                    ),
                    width,
                )];
                let indent = " ".repeat(num_w + 8);
                if let Some(d) = &option.description {
                    lines.push(fit(&format!("{indent}{}", one_line(d)), width));
                }
                if let Some(note) = state.option_note(q, row) {
                    lines.push(fit(&format!("{indent}note: {}", one_line(note)), width));
                }
                if active && is_preview {
                    let text = option.preview.as_deref().unwrap_or("");
                    let text = for_terminal(text);
                    // Only the lines shown are wrapped; the rest are just counted.
                    let total = wrapped_len(&text, preview_w, usize::MAX);
                    let shown = if total > preview_h {
                        preview_h.saturating_sub(1)
                    } else {
                        total
                    };
                    for line in wrap_head(&text, preview_w, shown) {
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
                return lines.join("\n");
            }
            let action = actions[row - m];
            let label = match action {
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
                Action::Next if last => "Next: review →".to_string(),
                Action::Next => "Next →".to_string(),
                Action::FullText => "Full text…".to_string(),
                Action::Filter => match &filter {
                    Some(f) => format!("Filter options… (now {})", quote(f)),
                    None => "Filter options…".to_string(),
                },
                Action::ClearFilter => "Clear the filter".to_string(),
            };
            let line = fit(&format!("{cursor}     {label}"), width);
            if row == m {
                format!(
                    "{}\n{line}",
                    fit(&format!("      {}", "─".repeat(24)), width)
                )
            } else {
                line
            }
        };

        let default = self.highlight[q].unwrap_or_else(|| {
            if state.custom_text(q).is_some() && !is_multi {
                m
            } else {
                let first = state.selected(q).first().copied().unwrap_or(0);
                match &shown {
                    Some(v) => v.binary_search(&first).unwrap_or(0),
                    None => first,
                }
            }
        });
        let chosen = if is_multi {
            let help =
                "↑↓ move · Space toggle · Enter confirm or run the row · ←→ page · Esc cancel";
            // dialoguer's MultiSelect keeps the ticks: lay out again in place.
            let theme = RowTheme::new(&self.term, help, &render, false);
            let picked = self.with_room(|| {
                MultiSelect::with_theme(&theme)
                    .with_prompt("-")
                    .report(false)
                    .items_checked((0..rows).map(|i| {
                        (
                            i.to_string(),
                            i < m && state.is_selected(q, orig(i)).unwrap_or(false),
                        )
                    }))
                    .max_length(max_length)
                    .interact_on_opt(&self.term)
                    .map_err(to_io)
            });
            let picked = match picked {
                // Too small for a moment: show the question again (its ticks as saved).
                Err(e) if is_resized(&e) => return Ok(()),
                other => other?,
            };
            match picked {
                None => None,
                Some(ticked) => {
                    let mut options: Vec<usize> =
                        ticked.into_iter().filter(|&i| i < m).map(orig).collect();
                    if let Some(v) = &shown {
                        // Options hidden by the filter keep their ticks.
                        options.extend(
                            state
                                .selected(q)
                                .into_iter()
                                .filter(|o| v.binary_search(o).is_err()),
                        );
                    }
                    let row = theme.last_active.get().unwrap_or(0);
                    drop(theme);
                    self.apply(Command::SetSelection(options))?;
                    // Enter on an option row confirms the question.
                    Some(if row < m {
                        m + actions.iter().position(|&a| a == Action::Next).unwrap_or(0)
                    } else {
                        row
                    })
                }
            }
        } else {
            let help = "↑↓ move · Enter choose · ←→ page · Esc cancel · Ctrl+C dismiss";
            match self.select(help, rows, default, max_length, &render) {
                Err(e) if is_resized(&e) => {
                    // Lay the screen out again at the new size, on the same row.
                    self.highlight[q] = self.last_row.get().or(Some(default));
                    return Ok(());
                }
                other => other?,
            }
        };
        let Some(row) = chosen else {
            // Esc: come back to the row the cursor was on if the person does not cancel.
            self.highlight[q] = if is_multi {
                None
            } else {
                self.last_row.get().or(Some(default))
            };
            return self.apply(Command::Cancel);
        };
        self.highlight[q] = Some(row);
        if row < m {
            return self.apply(Command::Choose(orig(row)));
        }
        match actions[row - m] {
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
            Action::NoteOption => self.note_option(q),
            Action::Filter => {
                let initial = self.filters[q].clone().unwrap_or_default();
                let what = "Filter options by label, value or description (empty Enter: all)";
                match self.edit(Some(q), what, &initial)? {
                    Edit::Saved(text) | Edit::Closed(text) => {
                        let text = text.trim();
                        self.filters[q] = (!text.is_empty()).then(|| text.to_string());
                        self.highlight[q] = None;
                        Ok(())
                    }
                    Edit::Interrupted => self.apply(Command::Dismiss),
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
                    let o = &question.options[option];
                    self.pager(
                        &format!("Preview of {}", one_line(&o.label)),
                        o.preview.as_deref().unwrap_or(""),
                    )?;
                    self.highlight[q] = Some(option);
                }
                Ok(())
            }
        }
    }

    /// "Type your own…": the editor for question `q`'s custom text; Enter saves it, Esc keeps
    /// the draft.
    fn type_own(&mut self, q: usize) -> io::Result<()> {
        let initial = self.flow.answers().custom_text(q).unwrap_or("").to_string();
        match self.edit(Some(q), "Your own answer", &initial)? {
            Edit::Saved(text) => self.apply(Command::SaveCustomText(text)),
            Edit::Closed(draft) => self.apply(Command::DraftCustomText(draft)),
            Edit::Interrupted => self.apply(Command::Dismiss),
        }
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
        let edit = self.edit(Some(q), "Note on this question", &initial)?;
        self.apply_edit(edit, |text| Command::SetNote { question: q, text })
    }

    /// Picks an option of question `q`, then opens the editor for its note.
    pub(super) fn note_option(&mut self, q: usize) -> io::Result<()> {
        let Some(option) = self.pick_option(q, "Note on which option?")? else {
            return Ok(());
        };
        let label = one_line(&self.flow.payload().questions[q].options[option].label).into_owned();
        let initial = self
            .flow
            .answers()
            .option_note(q, option)
            .unwrap_or("")
            .to_string();
        let edit = self.edit(Some(q), &format!("Note on option {label}"), &initial)?;
        self.apply_edit(edit, |text| Command::SetOptionNote {
            question: q,
            option,
            text,
        })
    }

    /// A menu of the question's options (with their notes) and "← Back"; `None` for back/Esc.
    fn pick_option(&self, q: usize, what: &str) -> io::Result<Option<usize>> {
        again(|| self.pick_option_once(q, what))
    }

    fn pick_option_once(&self, q: usize, what: &str) -> io::Result<Option<usize>> {
        let question = &self.flow.payload().questions[q];
        let n = question.options.len();
        let header = self.header(Some(q))?;
        let width = self.width();
        self.term.write_line(&fit(what, width))?;
        let state = self.flow.answers();
        let num_w = n.to_string().len();
        let render = |row: usize, _: Option<bool>, active: bool| {
            let cursor = if active { "›" } else { " " };
            if row == n {
                return fit(&format!("{cursor} ← Back"), width);
            }
            let mut text = format!(
                "{cursor} {:>num_w$}. {}",
                row + 1,
                one_line(&question.options[row].label)
            );
            if let Some(note) = state.option_note(q, row) {
                text.push_str(&format!("  (note {})", quote(note)));
            }
            fit(&text, width)
        };
        let default = state.selected(q).first().copied().unwrap_or(0);
        let max = self.rows().saturating_sub(header + 4);
        let picked = self.select(
            "↑↓ move · Enter choose · Esc back",
            n + 1,
            default,
            max,
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
        };
        assert!(matches_filter(&option("CAFÉ bar", None), "é"));
        assert!(matches_filter(&option("Café", None), "café"));
        assert!(matches_filter(&option("日本 10", None), "日本"));
        assert!(matches_filter(&option("x", Some("Fast ENGINE")), "engine"));
        assert!(matches_filter(&option("x", None), "v1"));
        assert!(!matches_filter(&option("Option 4", Some("d")), "option 42"));
    }
}

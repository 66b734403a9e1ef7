//! The review screen: every question with its answer and notes; re-open, notes, submit,
//! cancel. Which questions are unanswered and `required`, and what submit and cancel do,
//! is the flow's ([`crate::flow`]).

use super::{again, is_resized, term_width, Tty};
use crate::flow::Command;
use crate::frontend::layout::{answer_parts, fit, quote};
use crate::sanitize::one_line;
use std::io;

/// A review-menu row after the questions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ReviewAction {
    Submit,
    NoteQuestion,
    NoteOption,
    Cancel,
}

const REVIEW_ACTIONS: [ReviewAction; 4] = [
    ReviewAction::Submit,
    ReviewAction::NoteQuestion,
    ReviewAction::NoteOption,
    ReviewAction::Cancel,
];

impl Tty<'_> {
    /// A question's answer and its note lines for the review
    /// ([`AnswerState::summary`](crate::answers::AnswerState::summary)): selected labels and the
    /// quoted custom text, or "no answer" ("(required)" when it is); notes under it.
    fn summary(&self, q: usize) -> (String, Vec<String>) {
        let question = &self.flow.payload().questions[q];
        let summary = self.flow.answers().summary(self.flow.payload(), q);
        let parts = answer_parts(&summary, quote);
        let line = match (parts.is_empty(), question.required) {
            (false, _) => parts.join(", "),
            (true, true) => "no answer (required)".to_string(),
            (true, false) => "no answer".to_string(),
        };
        let mut notes = Vec::new();
        if let Some(note) = summary.note {
            notes.push(format!("note: {}", one_line(note)));
        }
        for (option, note) in &summary.option_notes {
            notes.push(format!(
                "note on {}: {}",
                one_line(&option.label),
                one_line(note)
            ));
        }
        (line, notes)
    }

    /// The review menu: one choice, applied to the flow.
    pub(super) fn review(&mut self) -> io::Result<()> {
        let nq = self.flow.payload().questions.len();
        let header = self.header(None)?;
        let width = self.width();
        let missing = self.flow.unanswered_required();
        let summaries: Vec<(String, Vec<String>)> = (0..nq)
            .map(|q| {
                let question = &self.flow.payload().questions[q];
                let mark = if self.flow.answers().is_answered(q) {
                    "✓"
                } else if question.required {
                    "!"
                } else {
                    "·"
                };
                let (summary, mut notes) = self.summary(q);
                if notes.len() > 3 {
                    let more = notes.len() - 2;
                    notes.truncate(2);
                    notes.push(format!("… {more} more notes"));
                }
                (
                    format!(
                        "{mark} {}/{nq} {}: {}",
                        q + 1,
                        one_line(&question.label),
                        summary
                    ),
                    notes,
                )
            })
            .collect();
        let per_item = 1 + summaries.iter().map(|(_, n)| n.len()).max().unwrap_or(0);
        let max_length = (self.rows().saturating_sub(header + 4) / per_item).max(1);
        let term = &self.term;
        let render = |row: usize, _: Option<bool>, active: bool| -> String {
            let width = term_width(term).min(width.max(10));
            let cursor = if active { "›" } else { " " };
            if row < nq {
                let (line, notes) = &summaries[row];
                let mut lines = vec![fit(&format!("{cursor} {line}"), width)];
                for note in notes {
                    lines.push(fit(&format!("        {note}"), width));
                }
                return lines.join("\n");
            }
            let label = match REVIEW_ACTIONS[row - nq] {
                ReviewAction::Submit if missing.is_empty() => "Submit".to_string(),
                ReviewAction::Submit => format!(
                    "Submit ({} required question{} unanswered)",
                    missing.len(),
                    if missing.len() == 1 { "" } else { "s" }
                ),
                ReviewAction::NoteQuestion => "Note on a question…".to_string(),
                ReviewAction::NoteOption => "Note on an option…".to_string(),
                ReviewAction::Cancel => "Cancel".to_string(),
            };
            let line = fit(&format!("{cursor} {label}"), width);
            if row == nq {
                format!("{}\n{line}", fit(&format!("  {}", "─".repeat(24)), width))
            } else {
                line
            }
        };
        let help = "↑↓ move · Enter open a question or choose · Esc cancel";
        let picked = match self.select(help, nq + REVIEW_ACTIONS.len(), nq, max_length, &render) {
            Err(e) if is_resized(&e) => return Ok(()),
            other => other?,
        };
        let Some(row) = picked else {
            return self.apply(Command::Cancel);
        };
        if row < nq {
            return self.apply(Command::Open(row));
        }
        match REVIEW_ACTIONS[row - nq] {
            ReviewAction::Submit => self.apply(Command::Submit),
            ReviewAction::Cancel => self.apply(Command::Cancel),
            ReviewAction::NoteQuestion => match self.pick_question("Note on which question?")? {
                Some(q) => self.note_question(q),
                None => Ok(()),
            },
            ReviewAction::NoteOption => {
                match self.pick_question("Note on an option of which question?")? {
                    Some(q) => self.note_option(q),
                    None => Ok(()),
                }
            }
        }
    }

    /// "Submit anyway?" when required questions are unanswered
    /// ([`Flow::unanswered_required`](crate::flow::Flow::unanswered_required)).
    pub(super) fn confirm_submit(&mut self) -> io::Result<()> {
        let payload = self.flow.payload();
        let nq = payload.questions.len();
        let names: Vec<String> = self
            .flow
            .unanswered_required()
            .iter()
            .map(|&q| format!("{}/{nq} {}", q + 1, one_line(&payload.questions[q].label)))
            .collect();
        let yes = self.confirm(
            None,
            &format!(
                "Unanswered required questions: {}. Submit anyway?",
                names.join(", ")
            ),
            "Yes, submit anyway",
            "No, back to the review",
        )?;
        self.apply(if yes { Command::Confirm } else { Command::Deny })
    }

    /// A menu of the questions and "← Back"; `None` for back/Esc.
    fn pick_question(&self, what: &str) -> io::Result<Option<usize>> {
        again(|| self.pick_question_once(what))
    }

    fn pick_question_once(&self, what: &str) -> io::Result<Option<usize>> {
        let nq = self.flow.payload().questions.len();
        let header = self.header(None)?;
        let width = self.width();
        self.term.write_line(&fit(what, width))?;
        let render = |row: usize, _: Option<bool>, active: bool| {
            let cursor = if active { "›" } else { " " };
            if row == nq {
                return fit(&format!("{cursor} ← Back"), width);
            }
            let question = &self.flow.payload().questions[row];
            let note = match self.flow.answers().note(row) {
                Some(n) => format!("  (note {})", quote(n)),
                None => String::new(),
            };
            fit(
                &format!(
                    "{cursor} {}/{nq} {}{note}",
                    row + 1,
                    one_line(&question.label)
                ),
                width,
            )
        };
        let max = self.rows().saturating_sub(header + 4);
        let picked = self.select("↑↓ move · Enter choose · Esc back", nq + 1, 0, max, &render)?;
        Ok(picked.filter(|&row| row < nq))
    }
}

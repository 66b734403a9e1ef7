//! The review screen: every question with its answer and notes; re-open, notes, submit,
//! cancel. Which questions are unanswered and `required`, and what submit and cancel do,
//! is the flow's ([`crate::flow`]).

use super::screen::Frame;
use super::{help_line, Backend, Input, Menu, Tty};
use crate::flow::Command;
use crate::frontend::view;
use crate::keys::Key;
use crate::text::one_line;
use crate::text::{fit, quote};
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

impl<B: Backend> Tty<'_, B> {
    /// The review menu: keys until one leaves it, applied to the flow.
    pub(super) fn review(&mut self) -> io::Result<()> {
        let nq = self.flow.payload().questions.len();
        let (header, _) = self.header_lines(None);
        let width = self.width();
        let missing = self.flow.unanswered_required();
        let summaries: Vec<(String, Vec<String>)> = (0..nq)
            .map(|q| {
                let (payload, answers) = (self.flow.payload(), self.flow.answers());
                let mark = view::review_mark(payload, answers, q);
                let mut notes = view::note_lines(payload, answers, q);
                if notes.len() > 3 {
                    let more = notes.len() - 2;
                    notes.truncate(2);
                    notes.push(format!("… {more} more notes"));
                }
                (
                    format!("{mark} {}", view::review_line(payload, answers, q)),
                    notes,
                )
            })
            .collect();
        let per_item = 1 + summaries.iter().map(|(_, n)| n.len()).max().unwrap_or(0);
        let per_page = (self.rows().saturating_sub(header.len() + 2) / per_item).max(1);
        let look = std::rc::Rc::clone(&self.look);
        let render = |row: usize, active: bool| -> Vec<String> {
            if row < nq {
                let (line, notes) = &summaries[row];
                let mut lines = vec![look.select_item(line, active, width)];
                for note in notes {
                    lines.push(look.hint(&format!("        {note}"), width));
                }
                return lines;
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
            let line = look.select_item(&label, active, width);
            if row == nq {
                vec![fit(&format!("  {}", "─".repeat(24)), width), line]
            } else {
                vec![line]
            }
        };
        let help = "↑↓ move · Enter choose · 1-9 open question · ← back · Esc cancel · ^C dismiss · ^] context";
        let mut menu = Menu::new(nq + REVIEW_ACTIONS.len(), per_page, nq);
        let row = loop {
            let mut lines = header.clone();
            lines.push(help_line(help, &menu, width));
            for row in menu.visible() {
                lines.extend(render(row, row == menu.active));
            }
            let key = match self.input(Frame::new(lines))? {
                Input::Key(key) => key,
                Input::Relayout | Input::Ended => return Ok(()),
            };
            match key {
                Key::Up | Key::Char('k') => menu.up(),
                Key::Down | Key::Char('j') => menu.down(),
                Key::PageUp => menu.page_up(),
                Key::PageDown => menu.page_down(),
                Key::Home => menu.go(0),
                Key::End => menu.go(menu.len - 1),
                Key::Char(d @ '1'..='9') if (d as usize - '1' as usize) < nq => {
                    return self.apply(Command::Open(d as usize - '1' as usize));
                }
                Key::BackTab | Key::Left => return self.apply(Command::Back),
                Key::Esc | Key::Char('q') => return self.apply(Command::Cancel),
                Key::Enter | Key::Char(' ') => break menu.active,
                _ => {}
            }
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
                    Some(q) => match self.pick_option(q, "Note on which option?")? {
                        Some(option) => self.edit_option_note(q, option),
                        None => Ok(()),
                    },
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
        match yes {
            Some(yes) => self.apply(if yes { Command::Confirm } else { Command::Deny }),
            None => Ok(()),
        }
    }

    /// A menu of the questions (with their notes) and "← Back"; `None` for back/Esc.
    fn pick_question(&mut self, what: &str) -> io::Result<Option<usize>> {
        let nq = self.flow.payload().questions.len();
        let render = |t: &Self, row: usize, active: bool| {
            if row == nq {
                return vec![t.look.select_item("← Back", active, t.width())];
            }
            let question = &t.flow.payload().questions[row];
            let note = match t.flow.answers().note(row) {
                Some(n) => format!("  (note {})", quote(n)),
                None => String::new(),
            };
            vec![t.look.select_item(
                &format!("{}/{nq} {}{note}", row + 1, one_line(&question.label)),
                active,
                t.width(),
            )]
        };
        let picked = self.pick(
            None,
            Some(what),
            "↑↓ move · Enter choose · Esc back",
            nq + 1,
            0,
            &render,
        )?;
        Ok(picked.filter(|&row| row < nq))
    }
}

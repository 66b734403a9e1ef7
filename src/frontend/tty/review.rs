//! The review component: the screen model's review ([`crate::ui::review`]) as a menu: each
//! question's lines (its label is the row that re-opens it), then the numbered actions. A
//! digit runs an action on its second press (upstream `doublePressReviewShortcuts`), so a
//! stray digit never submits. What submit and cancel do is the flow's.

use super::layers::{Cx, Outcome, Overlay};
use super::overlay::{Editor, Pager, Target};
use crate::flow::Command;
use crate::text::fit;
use crate::ui::keymap::{self, Action};
use crate::ui::review::{self as model, LineKind, ReviewAction, ACTIONS};
use crate::ui::words;

/// The review's state: the highlighted item (questions, then actions) and a digit pressed once.
#[derive(Debug, Default)]
pub(super) struct Review {
    /// The highlighted item: a question (below the question count) or an action after them;
    /// `None`: Submit (the review opens on it).
    active: Option<usize>,
    /// The action whose digit was pressed once.
    armed: Option<ReviewAction>,
}

impl Review {
    fn active(&self, n: usize) -> usize {
        self.active.unwrap_or(n)
    }

    /// Opened again: on Submit.
    pub fn enter(&mut self) {
        self.active = None;
        self.armed = None;
    }

    /// The review's lines within `cx.height` rows: the title, the questions around the
    /// highlighted one, the actions, the hint.
    pub fn render(&self, cx: &Cx<'_, '_>) -> Vec<String> {
        let payload = cx.flow.payload();
        let answers = cx.flow.answers();
        let n = payload.questions.len();
        let active = self.active(n);
        let (look, width) = (cx.look, cx.width);
        let mut lines = vec![look.heading(words::REVIEW_TITLE, width)];
        let fixed = 1 + 1 + ACTIONS.len() + 1;
        let room = cx.height.saturating_sub(fixed);
        // The questions shown: from the first that lets the highlighted (or the last) one show.
        let target = active.min(n.saturating_sub(1));
        let block = |q: usize| model::question_lines(payload, answers, q);
        let height = |q: usize| block(q).len() + usize::from(q + 1 < n);
        let mut first = target;
        let mut used = height(target).min(room);
        while first > 0 && used + height(first - 1) <= room {
            first -= 1;
            used += height(first);
        }
        let mut body: Vec<String> = Vec::new();
        let mut shown_end = first;
        for q in first..n {
            let mut lines_q: Vec<String> = block(q)
                .into_iter()
                .map(|line| {
                    let text = format!("{}{}", " ".repeat(line.indent), line.text);
                    match line.kind {
                        LineKind::Label => look.select_item(text.trim_start(), q == active, width),
                        LineKind::Answer => fit(&format!("  {text}"), width),
                        LineKind::Note | LineKind::Unanswered | LineKind::UnchosenNote => {
                            look.hint(&format!("  {text}"), width)
                        }
                    }
                })
                .collect();
            if q + 1 < n {
                lines_q.push(String::new());
            }
            // The blank line after a question may fall off the end.
            let needs = lines_q.len() - usize::from(q + 1 < n);
            if body.len() + needs > room && q != first {
                break;
            }
            body.extend(lines_q);
            shown_end = q + 1;
        }
        body.truncate(room);
        lines.extend(body);
        // The row before the actions says what is out of view, if anything is.
        lines.push(match words::review_more(first, n - shown_end) {
            Some(more) => look.hint(&format!("  {more}"), width),
            None => String::new(),
        });
        for (i, action) in ACTIONS.iter().enumerate() {
            lines.push(look.select_item(&action.numbered(), active == n + i, width));
        }
        let prefix: Vec<String> = self
            .armed
            .map(|a| words::press_again(a.number(), a.label()))
            .into_iter()
            .collect();
        let prefix: Vec<&str> = prefix.iter().map(String::as_str).collect();
        lines.push(match cx.status {
            Some(status) => fit(status, width),
            None => look.hint(
                &keymap::hint_line(keymap::REVIEW, &prefix, "", width, cx.quiet),
                width,
            ),
        });
        lines
    }

    /// What `action` does.
    pub fn on(&mut self, action: Action, cx: &Cx<'_, '_>) -> Outcome {
        let n = cx.flow.payload().questions.len();
        let items = n + ACTIONS.len();
        let active = self.active(n);
        let armed = self.armed.take();
        let run = ReviewAction::command;
        match action {
            Action::Up => self.active = Some((active + items - 1) % items),
            Action::Down => self.active = Some((active + 1) % items),
            Action::StepUp => self.active = Some(active.saturating_sub(1)),
            Action::StepDown => self.active = Some((active + 1).min(items - 1)),
            Action::First => self.active = Some(0),
            Action::Last => self.active = Some(items - 1),
            Action::Number(d) => {
                if let Some(a) = ReviewAction::numbered_as(d) {
                    self.active = Some(n + d - 1);
                    if armed == Some(a) {
                        return Outcome::Apply(run(a));
                    }
                    self.armed = Some(a);
                }
            }
            Action::Confirm if active < n => return Outcome::Apply(Command::Open(active)),
            Action::Confirm => return Outcome::Apply(run(ACTIONS[active - n])),
            Action::QuestionNote if active < n => {
                let initial = cx.flow.answers().note(active).unwrap_or("").to_string();
                let what = words::question_note_of(&model::label(cx.flow.payload(), active));
                return Outcome::Open(Overlay::Editor(Editor::new(
                    Target::Note(active),
                    what,
                    initial,
                )));
            }
            Action::PrevQuestion => return Outcome::Apply(Command::Back),
            Action::NextQuestion => return Outcome::Apply(Command::First),
            Action::Cancel => return Outcome::Apply(Command::Cancel),
            Action::Keys => {
                return Outcome::Open(Overlay::Pager(Pager::new(
                    words::KEYS_TITLE.to_string(),
                    keymap::key_list(keymap::REVIEW).join("\n"),
                    false,
                )))
            }
            _ => {}
        }
        Outcome::Stay
    }
}

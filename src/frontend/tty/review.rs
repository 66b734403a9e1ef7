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

/// The fewest rows of a review that shows Elaborate's description under it (in fewer, the
/// row goes to the questions).
const DESCRIBED_FROM: usize = 14;

/// The review's state: the highlighted item (questions, then actions) and a digit pressed once.
#[derive(Debug, Default)]
pub(super) struct Review {
    /// The highlighted item: a question (below the question count) or an action after them;
    /// `None`: Submit (the review opens on it).
    active: Option<usize>,
    /// The action whose digit was pressed once.
    armed: Option<ReviewAction>,
    /// That digit came in a burst with the next key (typed ahead): an Enter of the same burst
    /// does not run the action (`2` Enter typed for a question gone by never elaborates).
    armed_in_burst: bool,
}

impl Review {
    fn active(&self, n: usize) -> usize {
        self.active.unwrap_or(n)
    }

    /// Opened again: on Submit.
    pub fn enter(&mut self) {
        self.active = None;
        self.armed = None;
        self.armed_in_burst = false;
    }

    /// The review's lines within `cx.height` rows: the title, the questions around the
    /// highlighted one filling the rows they have (a question taller than them folded,
    /// [`model::folded_lines`]), the row saying what is out of view, the actions (Elaborate
    /// with its description under it), the hint.
    pub fn render(&self, cx: &Cx<'_, '_>) -> Vec<String> {
        let payload = cx.flow.payload();
        let answers = cx.flow.answers();
        let n = payload.questions.len();
        let active = self.active(n);
        let (look, width) = (cx.look, cx.width);
        let mut lines = vec![look.heading(words::REVIEW_TITLE, width)];
        // Elaborate's description takes a row when the window has rows to spare.
        let described = cx.height >= DESCRIBED_FROM;
        let descriptions = ACTIONS.iter().filter(|a| a.description().is_some()).count();
        let fixed = 1 + 1 + ACTIONS.len() + descriptions * usize::from(described) + 1;
        let room = cx.height.saturating_sub(fixed);
        // Each question's lines with the blank line after it (all but the last), as drawn.
        let block = |q: usize| -> (Vec<String>, bool) {
            let mut folded = false;
            // The lines are drawn two columns in (the highlight's).
            let lines = model::folded_lines(payload, answers, q, room, width.saturating_sub(2));
            let mut out: Vec<String> = lines
                .into_iter()
                .map(|line| {
                    let text = format!("{}{}", " ".repeat(line.indent), line.text);
                    match line.kind {
                        LineKind::Label => look.select_item(text.trim_start(), q == active, width),
                        LineKind::Answer => fit(&format!("  {text}"), width),
                        LineKind::More => {
                            folded = true;
                            look.hint(&format!("  {text}"), width)
                        }
                        LineKind::Note | LineKind::Unanswered | LineKind::UnchosenNote => {
                            look.hint(&format!("  {text}"), width)
                        }
                    }
                })
                .collect();
            if q + 1 < n {
                out.push(String::new());
            }
            (out, folded)
        };
        // The highlighted question (or the last, on an action the highlight was moved to)
        // first; whole questions above it while they fit; then those below, the last one
        // shown perhaps cut; then the end of the one above, so the rows are filled. As it
        // opens (on Submit, nothing moved yet) the review shows its top: the first question's
        // label, never the tail of its answers.
        let target = match self.active {
            None => 0,
            Some(_) => active.min(n.saturating_sub(1)),
        };
        let mut folded = false;
        let mut body: Vec<String> = Vec::new();
        let (mut first, mut end) = (target, target);
        if n > 0 {
            let (mut t, f) = block(target);
            folded |= f;
            t.truncate(room);
            body = t;
            end = target + 1;
            let mut pending_above: Option<(Vec<String>, bool)> = None;
            while first > 0 {
                let (b, f) = block(first - 1);
                if body.len() + b.len() > room {
                    pending_above = Some((b, f));
                    break;
                }
                folded |= f;
                first -= 1;
                body.splice(0..0, b);
            }
            while end < n && body.len() < room {
                let (mut b, f) = block(end);
                folded |= f;
                // A question cut at the bottom counts as below: the row before the actions
                // says there is more (its blank line alone is no cut).
                let cut = b.len() - usize::from(end + 1 < n) > room - body.len();
                b.truncate(room - body.len());
                body.extend(b);
                if cut {
                    break;
                }
                end += 1;
            }
            // The tail of the question above (its label out of view: counted above).
            if let Some((b, f)) = pending_above.filter(|_| body.len() < room) {
                folded |= f;
                let take = room - body.len();
                let from = b.len() - take.min(b.len());
                body.splice(0..0, b[from..].iter().cloned());
            }
        }
        lines.extend(body);
        // The row before the actions says what is out of view, if anything is.
        lines.push(match words::review_more(first, n - end) {
            Some(more) => look.hint(&format!("  {more}"), width),
            None => String::new(),
        });
        for (i, action) in ACTIONS.iter().enumerate() {
            lines.push(look.select_item(&action.numbered(), active == n + i, width));
            if let Some(description) = action.description().filter(|_| described) {
                let indent = " ".repeat(look.item_indent() + 3);
                lines.push(look.hint(&format!("{indent}{description}"), width));
            }
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
                &keymap::hint_line(&model::hint_map(folded), &prefix, "", width, cx.quiet),
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
                    self.armed_in_burst = cx.typed_ahead;
                }
            }
            // Enter in the same burst as the digit that armed the action (typed ahead, not
            // pressed after reading `Press 2 again`): the action stays armed, not run.
            Action::Confirm if armed.is_some() && self.armed_in_burst => {
                self.armed = armed;
                self.armed_in_burst = cx.typed_ahead;
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
            Action::View => {
                let payload = cx.flow.payload();
                return Outcome::Open(Overlay::Pager(
                    Pager::new(
                        words::REVIEW_ALL_TITLE.to_string(),
                        model::all_lines(payload, cx.flow.answers()),
                        false,
                    )
                    .hanging(),
                ));
            }
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

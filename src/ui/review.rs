//! The review's model: what it says of each question and which actions it offers, as the
//! upstream's submit screen has it (eko24ive/pi-ask v0.3.0 `src/ui/render-submit.ts`,
//! `tests/render-submit.test.ts`): each question's label; its question note under a `Note:`
//! label before its answer; each chosen option on a line of its own (`→ Code demo`) with that
//! option's note under it when there are several or notes (else `→ A, B` on one line); `→
//! unanswered` for a question with neither; no prompts; then the numbered actions (`1. Submit`,
//! `2. Elaborate`, `3. Cancel`). Every front end draws these lines.

use super::words;
use crate::answers::AnswerState;
use crate::contract::Payload;
use crate::text::one_line;
use crate::text::quote;

pub use crate::flow::ReviewAction;

/// The review's actions, in order (the flow's: Submit, Elaborate, Cancel).
pub const ACTIONS: [ReviewAction; 3] = ReviewAction::ALL;

/// An action's words.
pub fn action_label(action: ReviewAction) -> &'static str {
    match action {
        ReviewAction::Submit => words::SUBMIT,
        ReviewAction::Elaborate => words::ELABORATE,
        ReviewAction::Cancel => words::CANCEL,
    }
}

/// An action's number (1-based) and words: `1. Submit`.
pub fn numbered(action: ReviewAction) -> String {
    format!("{}. {}", number(action), action_label(action))
}

/// An action's number (1-based), the digit that runs it.
pub fn number(action: ReviewAction) -> usize {
    ACTIONS.iter().position(|a| *a == action).unwrap_or(0) + 1
}

/// The action with number `n` (1-based).
pub fn numbered_as(n: usize) -> Option<ReviewAction> {
    n.checked_sub(1).and_then(|i| ACTIONS.get(i)).copied()
}

/// What a review line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineKind {
    /// The question's label (the row that re-opens it).
    Label,
    /// A note (`Note: …`): the question's, or the option's above it.
    Note,
    /// An answer (`→ …`).
    Answer,
    /// `→ unanswered`.
    Unanswered,
}

/// One line the review shows of a question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// What it is.
    pub kind: LineKind,
    /// Its indent in columns (upstream: label 1, answers 3, notes 5).
    pub indent: usize,
    /// Its text, one line, payload text made one line.
    pub text: String,
}

/// The review's lines of question `q`, the label first.
pub fn question_lines(payload: &Payload, answers: &AnswerState, q: usize) -> Vec<Line> {
    let question = &payload.questions[q];
    let line = |kind, indent, text: String| Line { kind, indent, text };
    let mut lines = vec![line(LineKind::Label, 1, label(payload, q))];
    let note = |text: &str| {
        line(
            LineKind::Note,
            5,
            format!("{} {}", words::NOTE_LABEL, one_line(text)),
        )
    };
    let summary = answers.summary(payload, q);
    if summary.options.is_empty() && summary.custom_text.is_none() && summary.note.is_none() {
        lines.push(line(LineKind::Unanswered, 3, words::UNANSWERED.to_string()));
        return lines;
    }
    if let Some(n) = summary.note {
        lines.push(note(n));
    }
    let mut labels: Vec<(String, Option<&str>)> = summary
        .options
        .iter()
        .map(|(i, o)| (one_line(&o.label).into_owned(), answers.option_note(q, *i)))
        .collect();
    if let Some(text) = summary.custom_text {
        labels.push((quote(text), None));
    }
    let individually = labels.len() > 1 || labels.iter().any(|(_, n)| n.is_some());
    if individually {
        for (label, option_note) in labels {
            lines.push(line(LineKind::Answer, 3, format!("\u{2192} {label}")));
            if let Some(n) = option_note {
                lines.push(note(n));
            }
        }
    } else if let Some((label, _)) = labels.first() {
        lines.push(line(LineKind::Answer, 3, format!("\u{2192} {label}")));
    }
    let _ = question;
    lines
}

/// The review's name of question `q`: its label, `(required)` after a required one.
pub fn label(payload: &Payload, q: usize) -> String {
    let question = &payload.questions[q];
    let required = if question.required { " (required)" } else { "" };
    format!("{}{required}", one_line(&question.label))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Upstream `tests/render-submit.test.ts`, "submit screen renders indented notes before
    /// answer and separates questions" and "… multi-select option notes under their related
    /// answers": the lines and their order.
    #[test]
    fn notes_come_before_the_answer_and_option_notes_under_theirs() {
        let p = crate::contract::parse_payload(
            r#"{"questions":[
                {"id":"q1","label":"Single","prompt":"Pick one primary demo style.","options":[{"value":"code","label":"Code demo"}]},
                {"id":"q2","label":"Multi","prompt":"Pick extras","type":"multi","options":[
                    {"value":"follow-up","label":"Follow-up action"},{"value":"docs","label":"Docs demo"}]},
                {"id":"q3","label":"Skipped","prompt":"?","options":[{"value":"a","label":"A"}]}]}"#,
        )
        .unwrap();
        let mut a = AnswerState::new(&p);
        a.set_note(0, "Question note").unwrap();
        a.select(0, 0).unwrap();
        a.set_option_note(0, 0, "Option note").unwrap();
        a.select(1, 0).unwrap();
        a.select(1, 1).unwrap();
        a.set_option_note(1, 0, "First note").unwrap();
        let texts = |q| -> Vec<String> {
            question_lines(&p, &a, q)
                .into_iter()
                .map(|l| format!("{}{}", " ".repeat(l.indent), l.text))
                .collect()
        };
        assert_eq!(
            texts(0),
            [
                " Single",
                "     Note: Question note",
                "   \u{2192} Code demo",
                "     Note: Option note"
            ]
        );
        assert_eq!(
            texts(1),
            [
                " Multi",
                "   \u{2192} Follow-up action",
                "     Note: First note",
                "   \u{2192} Docs demo"
            ]
        );
        assert_eq!(texts(2), [" Skipped", "   \u{2192} unanswered"]);
        assert_eq!(numbered(ReviewAction::Submit), "1. Submit");
        assert_eq!(numbered(ReviewAction::Elaborate), "2. Elaborate");
        assert_eq!(numbered(ReviewAction::Cancel), "3. Cancel");
        assert_eq!(numbered_as(3), Some(ReviewAction::Cancel));
        assert_eq!(numbered_as(4), None);
    }
}

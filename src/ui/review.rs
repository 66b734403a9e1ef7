//! The review's model: what it says of each question and which actions it offers, as the
//! upstream's submit screen has it (eko24ive/pi-ask v0.3.0 `src/ui/render-submit.ts`,
//! `tests/render-submit.test.ts`): each question's label; its question note under a `Note:`
//! label before its answer; each chosen option on a line of its own (`→ Code demo`) with that
//! option's note under it when there are several or notes (else `→ A, B` on one line); `→
//! unanswered` for a question with neither; no prompts; then the numbered actions (`1. Submit`,
//! `2. Elaborate`, `3. Cancel`). Every front end draws these lines.

use super::keymap::{self, Action, Binding};
use super::words::{self, Confirmation};
use crate::answers::AnswerState;
use crate::contract::Payload;
use crate::flow::{Flow, Screen};
use crate::text::one_line;

pub use crate::flow::ReviewAction;

/// The review's actions, in order (the flow's: Submit, Elaborate, Cancel).
pub const ACTIONS: [ReviewAction; 3] = ReviewAction::ALL;

/// What the review's actions say: the flow owns which there are and what each does
/// ([`ReviewAction::command`]); their words are the screen model's.
impl ReviewAction {
    /// The action's words (upstream `SUBMIT_CHOICES`, and Elaborate since v0.4.0).
    pub fn label(self) -> &'static str {
        match self {
            ReviewAction::Submit => words::SUBMIT,
            ReviewAction::Elaborate => words::ELABORATE,
            ReviewAction::Cancel => words::CANCEL,
        }
    }

    /// The action's number (1-based), the digit that runs it.
    pub fn number(self) -> usize {
        ACTIONS.iter().position(|a| *a == self).unwrap_or(0) + 1
    }

    /// The action's number and words: `1. Submit`.
    pub fn numbered(self) -> String {
        format!("{}. {}", self.number(), self.label())
    }

    /// The action with number `n` (1-based).
    pub fn numbered_as(n: usize) -> Option<ReviewAction> {
        n.checked_sub(1).and_then(|i| ACTIONS.get(i)).copied()
    }

    /// The action a line-based front end's typed word names: its words in any case (`submit`,
    /// `Cancel`).
    pub fn named(word: &str) -> Option<ReviewAction> {
        ACTIONS
            .iter()
            .find(|a| a.label().eq_ignore_ascii_case(word.trim()))
            .copied()
    }

    /// The line the review shows under the action, as an option's description: Elaborate's
    /// ([`ReviewAction::describe`]); Submit and Cancel say what they do.
    pub fn description(self) -> Option<&'static str> {
        (self == ReviewAction::Elaborate).then(|| self.describe())
    }

    /// What the action does, in a help text's words.
    pub fn describe(self) -> &'static str {
        match self {
            ReviewAction::Submit => {
                "submit the answers (asks first when a required question is unanswered)"
            }
            ReviewAction::Elaborate => {
                "ask the agent to elaborate on your notes, keeping the answers"
            }
            ReviewAction::Cancel => "cancel (asks first when answers or notes would be lost)",
        }
    }
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
    /// What a folded question does not show (`+ 15 more · v shows all`, [`folded_lines`]).
    More,
    /// `→ unanswered`.
    Unanswered,
    /// A note on an option not chosen: only Elaborate sends it.
    UnchosenNote,
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
    let unchosen: Vec<Line> = (0..question.options.len())
        .filter(|&o| !answers.is_selected(q, o).unwrap_or(false))
        .filter_map(|o| {
            let text = answers.option_note(q, o)?;
            let label = one_line(&question.options[o].label);
            Some(line(
                LineKind::UnchosenNote,
                5,
                words::unchosen_note(&label, &one_line(text)),
            ))
        })
        .collect();
    let summary = answers.summary(payload, q);
    if summary.options.is_empty() && summary.custom_text.is_none() && summary.note.is_none() {
        lines.push(line(LineKind::Unanswered, 3, words::UNANSWERED.to_string()));
        lines.extend(unchosen);
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
        labels.push((
            super::view::shown_custom_text(&payload.questions[q], text),
            None,
        ));
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
    lines.extend(unchosen);
    lines
}

/// [`question_lines`] within `rows` rows (2 at least) of `width` columns (a line's indent
/// included): each answer or note that does not fit its row whole (a long text, or one of
/// several lines: shown on one line, [`one_line`], while that fits) cut to its first row,
/// between words ([`rows_of`]) (a one-line answer, a label, cut keeping its end,
/// [`crate::text::fit_keeping_end`]), with a [`LineKind::More`]
/// line under it saying how many lines are not shown and that `v` shows them all; then all
/// the lines when they fit, else the first `rows - 1` and a [`LineKind::More`] line saying how
/// many answers (or lines) are not shown and that `v` shows them all ([`all_lines`]), so no
/// answer is cut or hidden without a word.
pub fn folded_lines(
    payload: &Payload,
    answers: &AnswerState,
    q: usize,
    rows: usize,
    width: usize,
) -> Vec<Line> {
    let mut lines = Vec::new();
    for line in question_lines(payload, answers, q) {
        let cut = matches!(
            line.kind,
            LineKind::Answer | LineKind::Note | LineKind::UnchosenNote
        );
        let room = width.saturating_sub(line.indent);
        // No character takes less than a column per 4 bytes: a longer text never fits.
        let fits =
            line.text.len() <= room.saturating_mul(4) && crate::text::width_of(&line.text) <= room;
        if !cut || fits {
            lines.push(line);
            continue;
        }
        if line.kind == LineKind::Answer && !line.text.contains(LINE_BREAK) {
            // A one-line answer (a label) keeps its end: two long labels that differ only
            // there stay apart; `v` shows it whole.
            lines.push(Line {
                text: crate::text::fit_keeping_end(&line.text, room),
                ..line
            });
            lines.push(Line {
                kind: LineKind::More,
                indent: line.indent,
                text: words::REVIEW_CUT.to_string(),
            });
            continue;
        }
        let (first, more) = first_row_and_more(&line.text, room);
        let more = Line {
            kind: LineKind::More,
            indent: line.indent,
            text: words::review_folded(0, more.max(1)),
        };
        lines.push(Line {
            text: first,
            ..line
        });
        lines.push(more);
    }
    let rows = rows.max(2);
    if lines.len() <= rows {
        return lines;
    }
    let hidden = lines.split_off(rows - 1);
    let answers = hidden.iter().filter(|l| l.kind == LineKind::Answer).count();
    let hidden: Vec<Line> = hidden
        .into_iter()
        .filter(|l| l.kind != LineKind::More)
        .collect();
    lines.push(Line {
        kind: LineKind::More,
        indent: 3,
        text: words::review_folded(answers, hidden.len()),
    });
    lines
}

/// Every question's [`question_lines`], whole, a blank line between questions: what `v` at
/// the review shows when a question is folded or an answer cut ([`folded_lines`]). A text of
/// several lines (an answer, a note) has each of its lines on a line of its own, indented two
/// more than its first (the pager wraps each between words, under its own start).
pub fn all_lines(payload: &Payload, answers: &AnswerState) -> String {
    let mut text = String::new();
    for q in 0..payload.questions.len() {
        if q > 0 {
            text.push('\n');
        }
        for line in question_lines(payload, answers, q) {
            for (i, part) in line.text.split(LINE_BREAK).enumerate() {
                let indent = if i == 0 { line.indent } else { line.indent + 2 };
                text.push_str(&" ".repeat(indent));
                text.push_str(part);
                text.push('\n');
            }
        }
    }
    text
}

/// How a line break shows in a text made one line ([`one_line`]): `↵ `.
const LINE_BREAK: &str = "\u{21b5} ";

/// How much of a long review line is wrapped to count its rows ([`first_row_and_more`]).
const ROWS_COUNTED_IN: usize = 64 * 1024;

/// A review line's first row within `width` columns ([`rows_of`]) and how many rows more it
/// takes: counted exactly in its first [`ROWS_COUNTED_IN`] bytes, one a line after them (a
/// pasted log of megabytes costs no more a frame than 64 KiB).
fn first_row_and_more(text: &str, width: usize) -> (String, usize) {
    let mut cut = text.len().min(ROWS_COUNTED_IN);
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let (counted, rest) = text.split_at(cut);
    let rows = rows_of(counted, width);
    let more = rows.len().saturating_sub(1) + rest.matches(LINE_BREAK).count();
    (rows.into_iter().next().unwrap_or_default(), more)
}

/// A review line's `text` as rows of `width` columns: each of its lines (split where
/// [`one_line`] joined them) wrapped between words ([`crate::text::wrap_words`]), or between
/// characters ([`crate::text::wrap`]) when a word longer than the row would leave its first
/// row less than half full (`→` alone before a long label in a script without spaces).
fn rows_of(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    text.split(LINE_BREAK)
        .flat_map(|line| {
            let rows = crate::text::wrap_words(line, width);
            match rows.first() {
                Some(first) if rows.len() > 1 && crate::text::width_of(first) * 2 < width => {
                    crate::text::wrap(line, width)
                }
                _ => rows,
            }
        })
        .collect()
}

/// The review of question `q` on one row, for a front end whose rows are one line each
/// (dialogs): the question's number (`1/3`, so no two rows are alike and none reads like an
/// action), then its [`question_lines`] joined, an answer after a space and a note after
/// ` · `: `2/3 Multi → Follow-up action · Note: First note → Docs demo`.
pub fn question_row(payload: &Payload, answers: &AnswerState, q: usize) -> String {
    let mut row = format!("{}/{}", q + 1, payload.questions.len());
    for line in question_lines(payload, answers, q) {
        row.push_str(
            if matches!(line.kind, LineKind::Note | LineKind::UnchosenNote) {
                " \u{b7} "
            } else {
                " "
            },
        );
        row.push_str(&line.text);
    }
    row
}

/// The confirmation the flow asks now, with the line over it: the cancel confirmation, or the
/// submit one: [`words::confirm_submit_without_notes`] (Elaborate offered) when notes on
/// options not chosen would be lost, else [`words::CONFIRM_SUBMIT`]; under
/// [`words::unanswered_required`] (the unanswered required questions by label) when there are
/// any. `None` when the flow is not at a confirmation.
pub fn confirmation(flow: &Flow<'_>) -> Option<(Confirmation, Option<String>)> {
    match flow.screen() {
        Screen::ConfirmCancel { .. } => Some((words::CONFIRM_CANCEL, None)),
        Screen::ConfirmSubmit => {
            let payload = flow.payload();
            let names: Vec<String> = flow
                .unanswered_required()
                .into_iter()
                .map(|q| one_line(&payload.questions[q].label).into_owned())
                .collect();
            let notes = flow.unchosen_notes().len();
            let words = match notes {
                0 => words::CONFIRM_SUBMIT,
                n => words::confirm_submit_without_notes(n),
            };
            let detail = (!names.is_empty()).then(|| words::unanswered_required(&names));
            Some((words, detail))
        }
        Screen::Question(_) | Screen::Review => None,
    }
}

/// The bindings the review's hint line names: [`keymap::REVIEW`], where `v` says `v all`
/// when a question shown is folded ([`folded_lines`]).
pub fn hint_map(folded: bool) -> std::borrow::Cow<'static, [Binding]> {
    if !folded {
        return std::borrow::Cow::Borrowed(keymap::REVIEW);
    }
    std::borrow::Cow::Owned(
        keymap::REVIEW
            .iter()
            .map(|b| match b.action {
                Action::View => Binding {
                    hint: words::REVIEW_ALL_HINT,
                    ..*b
                },
                _ => *b,
            })
            .collect(),
    )
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
    use crate::flow::Command;

    #[test]
    fn the_confirmation_is_the_flows_with_the_unanswered_required_questions_over_it() {
        let p = crate::contract::parse_payload(
            r#"{"questions":[
                {"id":"a","label":"Scope","prompt":"?","required":true,"options":[{"value":"x","label":"X"}]},
                {"id":"b","label":"Name","prompt":"?","required":true,"options":[{"value":"y","label":"Y"}]}]}"#,
        )
        .unwrap();
        let mut flow = Flow::new(&p);
        assert_eq!(confirmation(&flow), None);
        flow.apply(Command::Choose(0)).unwrap();
        flow.apply(ReviewAction::Cancel.command()).unwrap();
        assert_eq!(confirmation(&flow), Some((words::CONFIRM_CANCEL, None)));
        flow.apply(Command::Deny).unwrap();
        flow.apply(Command::Next).unwrap();
        flow.apply(ReviewAction::Submit.command()).unwrap();
        assert_eq!(
            confirmation(&flow),
            Some((
                words::CONFIRM_SUBMIT,
                Some("Unanswered required questions: Name.".to_string())
            ))
        );
    }

    #[test]
    fn notes_on_options_not_chosen_come_last_marked_as_going_only_with_elaborate() {
        let p = crate::contract::parse_payload(
            r#"{"questions":[{"id":"db","label":"Database","prompt":"?","options":[
                {"value":"pg","label":"Postgres"},{"value":"lite","label":"SQLite"}]}]}"#,
        )
        .unwrap();
        let mut flow = Flow::new(&p);
        flow.apply(Command::SetOptionNote {
            question: 0,
            option: 0,
            text: "what would Postgres cost\nus?".into(),
        })
        .unwrap();
        let texts = |flow: &Flow| -> Vec<String> {
            question_lines(&p, flow.answers(), 0)
                .into_iter()
                .map(|l| format!("{}{}", " ".repeat(l.indent), l.text))
                .collect()
        };
        let note =
            "     Note on Postgres (only with Elaborate): what would Postgres cost\u{21b5} us?";
        assert_eq!(texts(&flow), [" Database", "   \u{2192} unanswered", note]);
        flow.apply(Command::Choose(1)).unwrap();
        assert_eq!(texts(&flow), [" Database", "   \u{2192} SQLite", note]);
        flow.apply(ReviewAction::Submit.command()).unwrap();
        assert_eq!(
            confirmation(&flow),
            Some((words::confirm_submit_without_notes(1), None))
        );
        assert_eq!(
            words::confirm_submit_without_notes(2).title,
            "Submit without 2 notes on options you did not choose?"
        );
    }

    #[test]
    fn a_pasted_log_of_a_megabyte_is_cut_to_its_first_row_counting_its_lines() {
        // 20,000 lines of 52 bytes: counted exactly in the first 64 KiB, a line a row after.
        let line = "word ".repeat(10) + "end\n";
        let text = one_line(&line.repeat(20_000)).into_owned();
        assert!(text.len() > 1_000_000);
        let (first, more) = first_row_and_more(&text, 70);
        assert_eq!(first, line.trim_end());
        assert_eq!(more, 20_000);
        // (The last line break leaves an empty line after it.)
        let (first, more) = first_row_and_more("short\u{21b5} second", 70);
        assert_eq!((first.as_str(), more), ("short", 1));
    }

    #[test]
    fn a_long_answer_is_folded_saying_how_many_more_and_the_key() {
        let options: Vec<String> = (1..=30)
            .map(|i| format!(r#"{{"value":"p{i}","label":"pkg-{i}"}}"#))
            .collect();
        let p = crate::contract::parse_payload(&format!(
            r#"{{"questions":[{{"id":"m","label":"Packages","prompt":"?","type":"multi","options":[{}]}}]}}"#,
            options.join(",")
        ))
        .unwrap();
        let mut a = AnswerState::new(&p);
        for o in 0..30 {
            a.select(0, o).unwrap();
        }
        let texts: Vec<String> = folded_lines(&p, &a, 0, 17, 80)
            .into_iter()
            .map(|l| format!("{}{}", " ".repeat(l.indent), l.text))
            .collect();
        assert_eq!(texts.len(), 17);
        assert_eq!(texts[15], "   \u{2192} pkg-15");
        assert_eq!(texts[16], "   + 15 more \u{b7} v shows all");
        assert_eq!(folded_lines(&p, &a, 0, 31, 80).len(), 31);
        let all = all_lines(&p, &a);
        assert!(all.ends_with("   \u{2192} pkg-30\n"), "{all}");
        assert_eq!(all.lines().count(), 31);
    }

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
        let rows: Vec<String> = (0..3).map(|q| question_row(&p, &a, q)).collect();
        assert_eq!(
            rows,
            [
                "1/3 Single \u{b7} Note: Question note \u{2192} Code demo \u{b7} Note: Option note",
                "2/3 Multi \u{2192} Follow-up action \u{b7} Note: First note \u{2192} Docs demo",
                "3/3 Skipped \u{2192} unanswered"
            ]
        );
        assert_eq!(ReviewAction::Submit.numbered(), "1. Submit");
        assert_eq!(ReviewAction::Elaborate.numbered(), "2. Elaborate");
        assert_eq!(ReviewAction::Cancel.numbered(), "3. Cancel");
        assert_eq!(ReviewAction::named(" CANCEL "), Some(ReviewAction::Cancel));
        assert_eq!(ReviewAction::named("2"), None);
        assert_eq!(ReviewAction::numbered_as(3), Some(ReviewAction::Cancel));
        assert_eq!(ReviewAction::numbered_as(4), None);
    }
}

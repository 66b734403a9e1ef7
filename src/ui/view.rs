//! The view layer every front end shares: what a question's answer, the review, a transcript
//! line and an ending say, written once (terminal in both placements, plain, dialogs), and
//! the look of the terminal's lines (dialoguer's themes, docs/interactive.md "Look").
//!
//! Words: [`answer_text`] (a question's summary: labels, then the quoted custom text, or
//! "no answer"), [`note_lines`], [`transcript_line`], [`ending_words`]. Look: [`Look`],
//! built once per run from [`colour_wanted`]: dialoguer's `ColorfulTheme` when colour is on,
//! `SimpleTheme` when it is off. Text is fitted to the width as plain text first and styled
//! after, so no cut lands inside an escape sequence.

use crate::answers::AnswerState;
use crate::contract::{Payload, Question};
use crate::frontend::layout::{fit, width_of};
use crate::result::Ending;
use crate::sanitize::one_line;
use console::{style, Style};
use dialoguer::theme::{ColorfulTheme, SimpleTheme, Theme};

pub use crate::frontend::layout::quote;

/// What question `q` has for an answer, in one line: the selected options' labels in option
/// order, then the custom text quoted (contract "Output rules": custom text last); `None`
/// when it has none (a note alone is no answer). Used by the review, the transcript lines,
/// plain mode and dialogs.
pub fn answer_text(payload: &Payload, answers: &AnswerState, q: usize) -> Option<String> {
    let summary = answers.summary(payload, q);
    let mut parts: Vec<String> = summary
        .options
        .iter()
        .map(|(_, o)| one_line(&o.label).into_owned())
        .collect();
    if let Some(text) = summary.custom_text {
        parts.push(quote(text));
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// [`answer_text`], or "no answer" ("no answer (required)" for a `required` question).
pub fn summary_text(payload: &Payload, answers: &AnswerState, q: usize) -> String {
    answer_text(payload, answers, q).unwrap_or_else(|| {
        if payload.questions[q].required {
            "no answer (required)".to_string()
        } else {
            "no answer".to_string()
        }
    })
}

/// Question `q`'s notes, one line each: `note: …` for the question note, then `note on
/// Label: …` for each selected option's note, in option order.
pub fn note_lines(payload: &Payload, answers: &AnswerState, q: usize) -> Vec<String> {
    let summary = answers.summary(payload, q);
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
    notes
}

/// The name a transcript line gives question `q`: its label, or its prompt when the payload
/// gave no label (the label is then the contract's `Q1`, `Q2`, … fallback).
pub fn transcript_name(question: &Question, q: usize) -> String {
    if question.label == format!("Q{}", q + 1) {
        one_line(&question.prompt).into_owned()
    } else {
        one_line(&question.label).into_owned()
    }
}

/// How a run ended, in the last transcript line's words: `Submitted`, `Cancelled`, …
pub fn ending_words(ending: &Ending) -> (bool, String) {
    match ending {
        Ending::Submitted(_) => (true, "Submitted".into()),
        Ending::Dismissed => (false, "Cancelled: no answers were given".into()),
        Ending::Interrupted => (false, "Dismissed (Ctrl+C): no answers were given".into()),
        Ending::Aborted { signal } => (
            false,
            format!(
                "Aborted by {}: no answers were given",
                crate::terminal::signal_name(*signal)
            ),
        ),
        Ending::TimedOut { why, .. } => (false, format!("Timed out ({why}): answers kept")),
        Ending::TerminalLost(_) => (false, "The terminal was lost: no answers were given".into()),
        Ending::Internal(_) => (false, "Stopped by an internal error".into()),
        Ending::NoUi(_) | Ending::InvalidPayload(_) | Ending::InvalidAnswers(_) => {
            (false, "Not asked".into())
        }
    }
}

/// Whether the terminal front end draws in colour: `NO_COLOR` (set, not empty) turns it off,
/// `CLICOLOR_FORCE` (set, not `0`) on, `CLICOLOR=0` off; otherwise colour is on when
/// `/dev/tty` is a terminal and `TERM` is not `dumb` (stderr is not asked: under pi it is a
/// pipe).
pub fn colour_wanted(env: impl Fn(&str) -> Option<String>, tty_is_terminal: bool) -> bool {
    let set = |name: &str| env(name).filter(|v| !v.is_empty());
    if set("NO_COLOR").is_some() {
        return false;
    }
    if set("CLICOLOR_FORCE").is_some_and(|v| v != "0") {
        return true;
    }
    if set("CLICOLOR").is_some_and(|v| v == "0") {
        return false;
    }
    tty_is_terminal && env("TERM").is_none_or(|t| t != "dumb")
}

/// The look of the terminal front end's lines: dialoguer's `ColorfulTheme` (colour on) or
/// `SimpleTheme` (colour off) for the prompt, item, ticked / unticked, active and collapsed
/// answer lines. Every method takes plain text and a width, fits the text to it, then styles.
pub struct Look {
    colour: bool,
    colorful: ColorfulTheme,
    /// `ColorfulTheme` with the error mark for a collapsed question with no answer.
    unanswered: ColorfulTheme,
    /// Columns the item prefixes take: (select item, multi-select item).
    prefix: (usize, usize),
}

impl std::fmt::Debug for Look {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Look")
            .field("colour", &self.colour)
            .finish()
    }
}

impl Default for Look {
    fn default() -> Self {
        Look::new(false)
    }
}

impl Look {
    /// A look with colour on (`ColorfulTheme`) or off (`SimpleTheme`). Colour also needs
    /// `console`'s stderr colours on (dialoguer's styles are `for_stderr`): the terminal
    /// front end sets them from [`colour_wanted`].
    pub fn new(colour: bool) -> Look {
        let colorful = ColorfulTheme::default();
        let unanswered = ColorfulTheme {
            success_prefix: colorful.error_prefix.clone(),
            values_style: colorful.hint_style.clone(),
            ..ColorfulTheme::default()
        };
        let mut look = Look {
            colour,
            colorful,
            unanswered,
            prefix: (0, 0),
        };
        look.prefix = (
            width_of(&console::strip_ansi_codes(&look.item("", false))),
            width_of(&console::strip_ansi_codes(
                &look.multi_item("", false, false),
            )),
        );
        look
    }

    /// Whether colour is on.
    pub fn colour(&self) -> bool {
        self.colour
    }

    fn theme(&self) -> &dyn Theme {
        if self.colour {
            &self.colorful
        } else {
            &SimpleTheme
        }
    }

    /// A select item (`❯ text` / `> text`), `text` fitted to `width` less the prefix.
    pub fn select_item(&self, text: &str, active: bool, width: usize) -> String {
        self.item(&fit(text, width.saturating_sub(self.prefix.0)), active)
    }

    fn item(&self, text: &str, active: bool) -> String {
        let mut out = String::new();
        let _ = self
            .theme()
            .format_select_prompt_item(&mut out, text, active);
        out
    }

    /// A multi-select item (`✔ text` / `> [x] text`), `text` fitted to `width` less the prefix.
    pub fn multi_select_item(
        &self,
        text: &str,
        checked: bool,
        active: bool,
        width: usize,
    ) -> String {
        self.multi_item(
            &fit(text, width.saturating_sub(self.prefix.1)),
            checked,
            active,
        )
    }

    fn multi_item(&self, text: &str, checked: bool, active: bool) -> String {
        let mut out = String::new();
        let _ = self
            .theme()
            .format_multi_select_prompt_item(&mut out, text, checked, active);
        out
    }

    /// Columns before a select item's text (the description lines under it align there).
    pub fn item_indent(&self) -> usize {
        self.prefix.0
    }

    /// A prompt line (`? text ›` / `text:`), `text` fitted to what is left of `width`.
    pub fn prompt(&self, text: &str, width: usize) -> String {
        let room = width.saturating_sub(if self.colour { 4 } else { 1 });
        let mut out = String::new();
        let _ = self.theme().format_prompt(&mut out, &fit(text, room));
        out
    }

    /// A question collapsed into one transcript line, dialoguer's answered form: `✔ Style ·
    /// Balanced` (colour) or `Style: Balanced`; with no answer `✘ Style · no answer`. The
    /// answer is cut first, then the name, so both fit `width`.
    pub fn collapsed(&self, name: &str, answer: Option<&str>, width: usize) -> String {
        match answer {
            Some(answer) => self.collapsed_as(name, answer, true, width),
            None => self.collapsed_as(name, "no answer", false, width),
        }
    }

    /// [`Look::collapsed`] for a question with no answer, saying `words` (`no answer (+
    /// note)`): the error mark, as with no answer at all.
    pub fn unanswered(&self, name: &str, words: &str, width: usize) -> String {
        self.collapsed_as(name, words, false, width)
    }

    fn collapsed_as(&self, name: &str, value: &str, answered: bool, width: usize) -> String {
        // "✔ " + name + " · " + value, or name + ": " + value.
        let frame = if self.colour { 5 } else { 2 };
        let name = fit(name, (width.saturating_sub(frame) * 2 / 3).max(8));
        let value = fit(value, width.saturating_sub(frame + width_of(&name)).max(1));
        let theme: &dyn Theme = match (self.colour, answered) {
            (false, _) => &SimpleTheme,
            (true, true) => &self.colorful,
            (true, false) => &self.unanswered,
        };
        let mut out = String::new();
        let _ = theme.format_input_prompt_selection(&mut out, &name, &value);
        out
    }

    /// A line of less weight (help, descriptions, notes): dim when colour is on.
    pub fn hint(&self, text: &str, width: usize) -> String {
        let text = fit(text, width);
        if self.colour {
            style(text).for_stderr().dim().to_string()
        } else {
            text
        }
    }

    /// A header line (the title, the question's number and label): bold when colour is on.
    pub fn heading(&self, text: &str, width: usize) -> String {
        let text = fit(text, width);
        if self.colour {
            Style::new().for_stderr().bold().apply_to(text).to_string()
        } else {
            text
        }
    }

    /// The last transcript line: how the run ended (`✔ Submitted`, `✘ Cancelled: …`).
    pub fn ending(&self, ending: &Ending, width: usize) -> String {
        let (ok, words) = ending_words(ending);
        let text = fit(&words, width.saturating_sub(2));
        match (self.colour, ok) {
            (false, true) => format!("✔ {text}"),
            (false, false) => format!("✘ {text}"),
            (true, true) => format!("{} {}", self.colorful.success_prefix, text),
            (true, false) => format!("{} {}", self.colorful.error_prefix, text),
        }
    }
}

/// Question `q` collapsed into its transcript line ([`Look::collapsed`]): its name
/// ([`transcript_name`]), its answer ([`answer_text`]) and, when it has notes, `(+ N notes)`.
pub fn transcript_line(
    look: &Look,
    payload: &Payload,
    answers: &AnswerState,
    q: usize,
    width: usize,
) -> String {
    let name = transcript_name(&payload.questions[q], q);
    let notes = note_lines(payload, answers, q).len();
    let answer = answer_text(payload, answers, q).map(|a| match notes {
        0 => a,
        n => format!("{a} (+ {})", plural_notes(n)),
    });
    match (answer, notes) {
        (Some(a), _) => look.collapsed(&name, Some(&a), width),
        (None, 0) => look.collapsed(&name, None, width),
        (None, n) => look.unanswered(&name, &format!("no answer (+ {})", plural_notes(n)), width),
    }
}

/// "note" or "N notes".
fn plural_notes(n: usize) -> String {
    if n == 1 {
        "note".to_string()
    } else {
        format!("{n} notes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::parse_payload;
    use crate::flow::{Command, Flow};
    use serde_json::json;

    fn payload() -> Payload {
        parse_payload(
            &json!({"title": "T", "questions": [
                {"id": "s", "label": "Style", "prompt": "How?", "required": true,
                 "options": [{"value": "a", "label": "Terse"}, {"value": "b", "label": "Rich"}]},
                {"id": "m", "prompt": "Which ones?", "type": "multi",
                 "options": [{"value": "x", "label": "X"}, {"value": "y", "label": "Y"}]}]})
            .to_string(),
        )
        .unwrap()
    }

    #[test]
    fn the_summary_is_labels_then_quoted_custom_text_or_no_answer() {
        let p = payload();
        let mut flow = Flow::new(&p);
        assert_eq!(summary_text(&p, flow.answers(), 0), "no answer (required)");
        assert_eq!(summary_text(&p, flow.answers(), 1), "no answer");
        flow.apply(Command::Choose(1)).unwrap();
        flow.apply(Command::Toggle(1)).unwrap();
        flow.apply(Command::Toggle(0)).unwrap();
        flow.apply(Command::SaveCustomText("mine".into())).unwrap();
        assert_eq!(summary_text(&p, flow.answers(), 0), "Rich");
        assert_eq!(summary_text(&p, flow.answers(), 1), "X, Y, “mine”");
    }

    #[test]
    fn transcript_lines_in_both_themes() {
        let p = payload();
        let mut flow = Flow::new(&p);
        flow.apply(Command::Choose(0)).unwrap();
        flow.apply(Command::SetNote {
            question: 0,
            text: "why".into(),
        })
        .unwrap();
        let plain = Look::new(false);
        assert_eq!(
            transcript_line(&plain, &p, flow.answers(), 0, 80),
            "Style: Terse (+ note)"
        );
        // No label given: the prompt names the question.
        assert_eq!(
            transcript_line(&plain, &p, flow.answers(), 1, 80),
            "Which ones?: no answer"
        );
        console::set_colors_enabled_stderr(false);
        let colour = Look::new(true);
        assert_eq!(
            console::strip_ansi_codes(&transcript_line(&colour, &p, flow.answers(), 0, 80)),
            "✔ Style · Terse (+ note)"
        );
        assert_eq!(
            console::strip_ansi_codes(&transcript_line(&colour, &p, flow.answers(), 1, 80)),
            "✘ Which ones? · no answer"
        );
    }

    #[test]
    fn items_are_fitted_before_they_are_styled() {
        let look = Look::new(false);
        assert_eq!(look.select_item("abcdefghij", true, 8), "> abcde…");
        assert_eq!(
            look.multi_select_item("abcdefghij", true, false, 10),
            "  [x] abc…"
        );
        let hearts = "Love ❤️".repeat(30);
        let line = look.select_item(&hearts, false, 31);
        assert!(width_of(&line) <= 31, "{line}");
    }

    #[test]
    fn colour_follows_no_color_clicolor_and_the_terminal() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert!(colour_wanted(env(&[("TERM", "xterm")]), true));
        assert!(!colour_wanted(env(&[("TERM", "xterm")]), false));
        assert!(!colour_wanted(env(&[("NO_COLOR", "1")]), true));
        assert!(colour_wanted(env(&[("NO_COLOR", "")]), true));
        assert!(!colour_wanted(env(&[("CLICOLOR", "0")]), true));
        assert!(colour_wanted(env(&[("CLICOLOR_FORCE", "1")]), false));
        assert!(!colour_wanted(env(&[("TERM", "dumb")]), true));
    }
}

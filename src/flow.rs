//! The questionnaire flow: a pure state machine that every front end drives (terminal, plain,
//! scripted). It owns which screen is current, moving between questions, re-opening a
//! question from the review and returning there, the review, the required-question warning,
//! whether a cancel must be confirmed, and how the flow ends. The answers themselves are an
//! [`AnswerState`] inside it, which owns every output rule of the contract.
//!
//! A front end turns input into a [`Command`], calls [`Flow::apply`], and draws
//! [`Flow::screen`]; it never decides where to go or what counts. Each command is applied all
//! or nothing: on `Err` neither the screen nor the answers changed. When
//! [`Flow::ending`] is `Some`, the flow is over and [`Flow::into_ending`] gives the
//! [`Ending`] that `result::conclude` turns into the result and the exit code.
//!
//! The moves (docs/interactive.md, docs/plain-mode.md):
//! - questions are walked in order: moving on from the last question, or from a question
//!   re-opened from the review, shows the review;
//! - Back goes to the previous question (there is none before the first); Back at the review
//!   goes to the last question, and moving on from there walks forward again;
//! - Submit at the review asks first ([`Screen::ConfirmSubmit`]) when a `required` question is
//!   unanswered (`required` never blocks, contract "Input rules") or when a note on an option
//!   not chosen would be lost ([`Flow::unchosen_notes`]: only Elaborate sends it); Elaborate
//!   is offered there too;
//! - Elaborate at the review ends the flow at once: the person wants the agent to answer their
//!   notes first ([`Ending::Elaborated`]; the review's actions are [`ReviewAction::ALL`]);
//! - with `--auto-submit` ([`Flow::with_auto_submit`]), reaching the review with every
//!   question answered and no note written submits at once (the contract's project's
//!   `autoSubmitWhenAnsweredWithoutNotes`);
//! - on a multi-select question, saving custom text stays on the question with the custom row
//!   ticked, and Space on a custom row with saved text ticks or unticks it
//!   ([`Command::ToggleCustom`]) without opening the editor (the contract's project v0.8.1);
//! - Cancel (Esc) asks first ([`Screen::ConfirmCancel`]) when an answer or a note would be
//!   lost, otherwise the flow is dismissed; Dismiss (a typed or scripted cancel) ends it
//!   without asking; Interrupt (Ctrl+C) ends it at once, everywhere;
//! - TimeOut (no key for the `--timeout` time) ends it at once, everywhere, keeping the
//!   answers given so far: a front end first saves an open editor's draft as Esc would.

use crate::answers::{AnswerError, AnswerState};
use crate::contract::Payload;
use crate::result::Ending;
use std::fmt;

/// Where the flow is: what a front end draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Screen {
    /// A question (0-based index).
    Question(usize),
    /// The review: every question with its answer; submit or cancel.
    Review,
    /// "Cancel and discard your answers?", asked over `from`; no returns there.
    ConfirmCancel {
        /// The screen the cancel came from.
        from: Place,
    },
    /// "Unanswered required questions: …. Submit anyway?" ([`Flow::unanswered_required`]), or
    /// "Submit without 1 note on an option you did not choose?" ([`Flow::unchosen_notes`]);
    /// no returns to the review, Elaborate ends the flow as at the review.
    ConfirmSubmit,
}

/// A screen a confirmation returns to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// A question (0-based index).
    Question(usize),
    /// The review.
    Review,
}

impl From<Place> for Screen {
    fn from(place: Place) -> Self {
        match place {
            Place::Question(q) => Screen::Question(q),
            Place::Review => Screen::Review,
        }
    }
}

/// The review's actions, in the order they are offered (the contract's project since v0.4.0:
/// Submit, Elaborate, Cancel; keys 1, 2, 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReviewAction {
    /// Submit the answers ([`Command::Submit`]).
    Submit,
    /// Ask the agent to elaborate on the notes ([`Command::Elaborate`]).
    Elaborate,
    /// Cancel ([`Command::Cancel`]).
    Cancel,
}

impl ReviewAction {
    /// Every action, in the review's order.
    pub const ALL: [ReviewAction; 3] = [
        ReviewAction::Submit,
        ReviewAction::Elaborate,
        ReviewAction::Cancel,
    ];

    /// The command it sends.
    pub fn command(self) -> Command {
        match self {
            ReviewAction::Submit => Command::Submit,
            ReviewAction::Elaborate => Command::Elaborate,
            ReviewAction::Cancel => Command::Cancel,
        }
    }
}

/// What a person (or an answers file) asks for. Question and option indices are 0-based.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Choose an option of the current question and move on (Enter on an option). On
    /// single-select and preview questions it replaces the answer; on multi-select it ticks it.
    Choose(usize),
    /// Tick or untick an option of the current question; stays on the question.
    Toggle(usize),
    /// Replace the current question's selection (a multi-select question's ticks); stays.
    SetSelection(Vec<usize>),
    /// A whole answer to the current question, then move on: the new selection when given
    /// (replacing it), then the custom text when given (empty clears it).
    Answer {
        /// The options to select, replacing the selection.
        options: Option<Vec<usize>>,
        /// Custom text to save; empty clears it.
        custom_text: Option<String>,
    },
    /// Enter in the custom-text editor: save the text (ticking the custom row); on
    /// single-select and preview questions move on when there is custom text now, stay when it
    /// was cleared (empty); on multi-select always stay, so more options can be ticked.
    SaveCustomText(String),
    /// Space on the custom row of a multi-select question with saved custom text: tick or
    /// untick it, keeping the text ([`AnswerState::custom_row_toggles`]; elsewhere the custom
    /// row opens the editor and this is refused with `NoCustomText`). Stays.
    ToggleCustom,
    /// Esc in the custom-text editor: save the draft and stay on the question.
    DraftCustomText(String),
    /// Clear the current question's selection and custom text; its notes stay.
    ClearAnswer,
    /// Save a question's note (empty clears it); any question, from a question or the review.
    SetNote {
        /// The question.
        question: usize,
        /// The note text.
        text: String,
    },
    /// Save an option's note (empty clears it); only notes of selected options reach the
    /// result. Any question, from a question or the review.
    SetOptionNote {
        /// The question.
        question: usize,
        /// The option.
        option: usize,
        /// The note text.
        text: String,
    },
    /// Move on without changing the answer (the review after the last question).
    Next,
    /// The previous question; at the review, the last question.
    Back,
    /// Open a question: from the review, moving on from it returns to the review.
    Open(usize),
    /// Go to the review.
    Review,
    /// The first question, walking forward from it (Tab at the review: the questions and
    /// the review wrap around, upstream `moveTab`).
    First,
    /// Submit: asks first when a required question is unanswered or a note on an option not
    /// chosen would be lost.
    Submit,
    /// Elaborate, at the review or the submit confirmation: end the flow asking the agent to
    /// answer the notes first ([`Ending::Elaborated`]); never asks first.
    Elaborate,
    /// Esc: cancel, asking first when answers or notes would be lost; at a confirmation, no.
    Cancel,
    /// Yes at a confirmation.
    Confirm,
    /// No at a confirmation.
    Deny,
    /// Dismiss the flow without asking (plain mode's `cancel`, a scripted cancel).
    Dismiss,
    /// Ctrl+C: dismiss the flow at once, whatever is on screen (exit 130).
    Interrupt,
    /// No key for the `--timeout` time: end the flow at once, whatever is on screen, keeping
    /// the answers given so far (`timeout`, exit 124). The text says what happened, e.g. "no
    /// key for 30 seconds" ([`crate::result::timeout_message`]).
    TimeOut(String),
}

/// A command the flow refused; nothing changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FlowError {
    /// The answer rules refused it (e.g. two options on a single-select question).
    Answer(AnswerError),
    /// Back on the first question.
    FirstQuestion,
    /// The command does not apply to the current screen (e.g. Confirm with nothing to
    /// confirm, an answer while the review is shown).
    NotHere(Screen),
    /// The flow has already ended.
    Ended,
}

impl fmt::Display for FlowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FlowError::Answer(e) => e.fmt(f),
            FlowError::FirstQuestion => f.write_str("this is the first question"),
            FlowError::NotHere(screen) => write!(f, "not possible at {screen:?}"),
            FlowError::Ended => f.write_str("the questionnaire has ended"),
        }
    }
}

impl std::error::Error for FlowError {}

impl From<AnswerError> for FlowError {
    fn from(e: AnswerError) -> Self {
        FlowError::Answer(e)
    }
}

/// How the person ended the flow (the flow's own endings; a front end adds the ones from
/// outside, such as a lost terminal).
#[derive(Debug, Clone, PartialEq, Eq)]
enum End {
    Submitted,
    Elaborated,
    Dismissed,
    Interrupted,
    /// No key for the timeout; what happened.
    TimedOut(String),
}

/// The questionnaire's state: the current screen, the answers, and the ending once reached.
#[derive(Debug, Clone)]
pub struct Flow<'p> {
    payload: &'p Payload,
    answers: AnswerState,
    screen: Screen,
    /// A question was opened from the review: moving on returns there.
    back_to_review: bool,
    /// `--auto-submit`: reaching the review with everything answered and no note submits.
    auto_submit: bool,
    end: Option<End>,
}

impl<'p> Flow<'p> {
    /// A new flow at the first question with no answers.
    pub fn new(payload: &'p Payload) -> Self {
        Flow {
            payload,
            answers: AnswerState::new(payload),
            screen: Screen::Question(0),
            back_to_review: false,
            auto_submit: false,
            end: None,
        }
    }

    /// The flow with `--auto-submit` on or off (off by default): when on, reaching the review
    /// with every question answered and no note written (no question note, no option note)
    /// submits at once, as the contract's project's `autoSubmitWhenAnsweredWithoutNotes`.
    pub fn with_auto_submit(mut self, on: bool) -> Self {
        self.auto_submit = on;
        self
    }

    /// Whether the review would submit at once now ([`Flow::with_auto_submit`]): it is on,
    /// every question is answered and no question has a note.
    pub fn auto_submits(&self) -> bool {
        self.auto_submit
            && (0..self.payload.questions.len())
                .all(|q| self.answers.is_answered(q) && !self.answers.has_notes(q))
    }

    /// The payload being asked.
    pub fn payload(&self) -> &'p Payload {
        self.payload
    }

    /// The answers so far.
    pub fn answers(&self) -> &AnswerState {
        &self.answers
    }

    /// The current screen.
    pub fn screen(&self) -> Screen {
        self.screen
    }

    /// Whether the flow has ended (submitted, dismissed, interrupted or timed out).
    pub fn is_over(&self) -> bool {
        self.end.is_some()
    }

    /// The ending once the flow is over; `None` while it runs.
    pub fn ending(&self) -> Option<Ending> {
        self.end.as_ref().map(|end| match end {
            End::Submitted => Ending::Submitted(self.answers.clone()),
            End::Elaborated => Ending::Elaborated(self.answers.clone()),
            End::Dismissed => Ending::Dismissed,
            End::Interrupted => Ending::Interrupted,
            End::TimedOut(why) => Ending::TimedOut {
                answers: self.answers.clone(),
                why: why.clone(),
            },
        })
    }

    /// The ending, consuming the flow (no copy of the answers). `None` while it runs.
    pub fn into_ending(self) -> Option<Ending> {
        match self.end? {
            End::Submitted => Some(Ending::Submitted(self.answers)),
            End::Elaborated => Some(Ending::Elaborated(self.answers)),
            End::Dismissed => Some(Ending::Dismissed),
            End::Interrupted => Some(Ending::Interrupted),
            End::TimedOut(why) => Some(Ending::TimedOut {
                answers: self.answers,
                why,
            }),
        }
    }

    /// Whether Space on question `q`'s custom row ticks or unticks it (a multi-select question
    /// with saved custom text: send [`Command::ToggleCustom`]) rather than opening the editor.
    pub fn custom_row_toggles(&self, q: usize) -> bool {
        self.answers.custom_row_toggles(q)
    }

    /// Whether question `q` is the last one.
    pub fn is_last(&self, q: usize) -> bool {
        q + 1 == self.payload.questions.len()
    }

    /// Whether moving on from a question shows the review (the last question, or a question
    /// re-opened from the review).
    pub fn next_is_review(&self, q: usize) -> bool {
        self.back_to_review || self.is_last(q)
    }

    /// The `required` questions without an answer (a note alone is no answer), in order: the
    /// required-question warning of the review.
    pub fn unanswered_required(&self) -> Vec<usize> {
        (0..self.payload.questions.len())
            .filter(|&q| self.payload.questions[q].required && !self.answers.is_answered(q))
            .collect()
    }

    /// The notes on options not chosen, as (question, option) in question and option order:
    /// only Elaborate sends them (contract "Output rules": `optionNotes` holds selected
    /// options' notes), so Submit asks first when there are any.
    pub fn unchosen_notes(&self) -> Vec<(usize, usize)> {
        let mut notes = Vec::new();
        for (q, question) in self.payload.questions.iter().enumerate() {
            for o in 0..question.options.len() {
                if self.answers.option_note(q, o).is_some()
                    && !self.answers.is_selected(q, o).unwrap_or(false)
                {
                    notes.push((q, o));
                }
            }
        }
        notes
    }

    /// Whether Submit asks first now ([`Screen::ConfirmSubmit`]): a required question is
    /// unanswered or a note on an option not chosen would be lost.
    pub fn submit_asks(&self) -> bool {
        !self.unanswered_required().is_empty() || !self.unchosen_notes().is_empty()
    }

    /// Whether cancelling now would lose something typed or chosen: an answer, a note (on an
    /// option not chosen too: Elaborate would send it), or custom text (unticked too).
    pub fn cancel_loses_input(&self) -> bool {
        (0..self.payload.questions.len()).any(|q| {
            self.answers.answer(self.payload, q).is_some()
                || self.answers.has_notes(q)
                || self.answers.custom_text(q).is_some()
        })
    }

    /// Applies one command, all or nothing.
    ///
    /// Errors: [`FlowError::Answer`] when the answer rules refuse it, [`FlowError::NotHere`]
    /// when it does not apply to the current screen, [`FlowError::FirstQuestion`],
    /// [`FlowError::Ended`]. On error nothing changed.
    pub fn apply(&mut self, command: Command) -> Result<(), FlowError> {
        self.apply_command(command)?;
        if self.end.is_none() && self.screen == Screen::Review && self.auto_submits() {
            self.end = Some(End::Submitted);
        }
        Ok(())
    }

    fn apply_command(&mut self, command: Command) -> Result<(), FlowError> {
        if self.end.is_some() {
            return Err(FlowError::Ended);
        }
        let here = self.screen;
        let not_here = || FlowError::NotHere(here);
        match command {
            Command::Dismiss => self.end = Some(End::Dismissed),
            Command::Interrupt => self.end = Some(End::Interrupted),
            Command::TimeOut(why) => self.end = Some(End::TimedOut(why)),
            Command::SetNote { question, text } => {
                self.at_question_or_review()?;
                self.answers.set_note(question, &text)?;
            }
            Command::SetOptionNote {
                question,
                option,
                text,
            } => {
                self.at_question_or_review()?;
                self.answers.set_option_note(question, option, &text)?;
            }
            Command::Choose(option) => {
                let q = self.question()?;
                self.answers.select(q, option)?;
                self.move_on(q);
            }
            Command::Toggle(option) => {
                let q = self.question()?;
                self.answers.toggle(q, option)?;
            }
            Command::SetSelection(options) => {
                let q = self.question()?;
                self.answers.set_selection(q, &options)?;
            }
            Command::Answer {
                options,
                custom_text,
            } => {
                let q = self.question()?;
                self.answers
                    .set_answer(q, options.as_deref(), custom_text.as_deref())?;
                self.move_on(q);
            }
            Command::SaveCustomText(text) => {
                let q = self.question()?;
                self.answers.set_custom_text(q, &text)?;
                let several = self.payload.questions[q].kind.takes_several();
                if self.answers.custom_text(q).is_some() && !several {
                    self.move_on(q);
                }
            }
            Command::ToggleCustom => {
                let q = self.question()?;
                self.answers.toggle_custom(q)?;
            }
            Command::DraftCustomText(text) => {
                let q = self.question()?;
                self.answers.set_custom_text(q, &text)?;
            }
            Command::ClearAnswer => {
                let q = self.question()?;
                self.answers.clear_answer(q)?;
            }
            Command::Next => {
                let q = self.question()?;
                self.move_on(q);
            }
            Command::Back => match here {
                Screen::Question(0) => return Err(FlowError::FirstQuestion),
                Screen::Question(q) => self.screen = Screen::Question(q - 1),
                Screen::Review => {
                    self.back_to_review = false;
                    self.screen = Screen::Question(self.payload.questions.len() - 1);
                }
                _ => return Err(not_here()),
            },
            Command::Open(q) => {
                self.at_question_or_review()?;
                if q >= self.payload.questions.len() {
                    return Err(AnswerError::NoSuchQuestion(q).into());
                }
                if here == Screen::Review {
                    self.back_to_review = true;
                }
                self.screen = Screen::Question(q);
            }
            Command::Review => {
                self.at_question_or_review()?;
                self.screen = Screen::Review;
            }
            Command::First => {
                self.at_question_or_review()?;
                self.back_to_review = false;
                self.screen = Screen::Question(0);
            }
            Command::Submit => {
                self.at_question_or_review()?;
                if self.submit_asks() {
                    self.screen = Screen::ConfirmSubmit;
                } else {
                    self.end = Some(End::Submitted);
                }
            }
            Command::Elaborate => match here {
                Screen::Review | Screen::ConfirmSubmit => self.end = Some(End::Elaborated),
                _ => return Err(not_here()),
            },
            Command::Cancel => match here {
                Screen::Question(q) => self.cancel(Place::Question(q)),
                Screen::Review => self.cancel(Place::Review),
                Screen::ConfirmCancel { from } => self.screen = from.into(),
                Screen::ConfirmSubmit => self.screen = Screen::Review,
            },
            Command::Confirm => match here {
                Screen::ConfirmCancel { .. } => self.end = Some(End::Dismissed),
                Screen::ConfirmSubmit => self.end = Some(End::Submitted),
                _ => return Err(not_here()),
            },
            Command::Deny => match here {
                Screen::ConfirmCancel { from } => self.screen = from.into(),
                Screen::ConfirmSubmit => self.screen = Screen::Review,
                _ => return Err(not_here()),
            },
        }
        Ok(())
    }

    /// The question whose answer or notes `command` may change, applied now: the one it
    /// names (notes), else the current question for the commands that answer it.
    pub fn touched(&self, command: &Command) -> Option<usize> {
        match command {
            Command::SetNote { question, .. } | Command::SetOptionNote { question, .. } => {
                Some(*question)
            }
            Command::Choose(_)
            | Command::Toggle(_)
            | Command::SetSelection(_)
            | Command::Answer { .. }
            | Command::SaveCustomText(_)
            | Command::DraftCustomText(_)
            | Command::ToggleCustom
            | Command::ClearAnswer => match self.screen {
                Screen::Question(q) => Some(q),
                _ => None,
            },
            _ => None,
        }
    }

    /// [`Flow::apply`] for a command a front end only sends where it applies: a refusal is a
    /// bug in that front end, described for an `internal` ending.
    ///
    /// Errors: "the flow refused a command: …".
    pub fn apply_sent(&mut self, command: Command) -> Result<(), String> {
        self.apply(command)
            .map_err(|e| format!("the flow refused a command: {e}"))
    }

    /// The current question, or `NotHere`.
    fn question(&self) -> Result<usize, FlowError> {
        match self.screen {
            Screen::Question(q) => Ok(q),
            other => Err(FlowError::NotHere(other)),
        }
    }

    fn at_question_or_review(&self) -> Result<(), FlowError> {
        match self.screen {
            Screen::Question(_) | Screen::Review => Ok(()),
            other => Err(FlowError::NotHere(other)),
        }
    }

    fn move_on(&mut self, q: usize) {
        self.screen = if self.next_is_review(q) {
            Screen::Review
        } else {
            Screen::Question(q + 1)
        };
    }

    fn cancel(&mut self, from: Place) {
        if self.cancel_loses_input() {
            self.screen = Screen::ConfirmCancel { from };
        } else {
            self.end = Some(End::Dismissed);
        }
    }
}

#[cfg(test)]
mod tests {
    //! One test per flow rule (docs/interactive.md, docs/plain-mode.md, docs/contract-notes.md)
    //! and per ending, with no terminal.
    use super::*;
    use crate::contract::parse_payload;
    use serde_json::json;

    fn payload() -> Payload {
        parse_payload(
            &json!({"questions": [
                {"id": "s", "prompt": "Single?", "required": true, "options": [
                    {"value": "a", "label": "A"}, {"value": "b", "label": "B"}]},
                {"id": "m", "prompt": "Multi?", "type": "multi", "options": [
                    {"value": "x", "label": "X"}, {"value": "y", "label": "Y"}]},
                {"id": "p", "prompt": "Preview?", "type": "preview", "options": [
                    {"value": "p1", "label": "P1", "preview": "one"}]}
            ]})
            .to_string(),
        )
        .unwrap()
    }

    fn run(flow: &mut Flow, commands: Vec<Command>) {
        for c in commands {
            flow.apply(c.clone())
                .unwrap_or_else(|e| panic!("{c:?} at {:?}: {e}", flow.screen()));
        }
    }

    fn answers(flow: &Flow) -> serde_json::Value {
        serde_json::to_value(flow.answers().answers(flow.payload())).unwrap()
    }

    #[test]
    fn questions_are_walked_in_order_then_the_review() {
        let p = payload();
        let mut f = Flow::new(&p);
        assert_eq!(f.screen(), Screen::Question(0));
        run(&mut f, vec![Command::Choose(1)]);
        assert_eq!(f.screen(), Screen::Question(1));
        run(&mut f, vec![Command::Next, Command::Next]);
        assert_eq!(f.screen(), Screen::Review);
    }

    #[test]
    fn back_goes_to_the_previous_question_and_not_before_the_first() {
        let p = payload();
        let mut f = Flow::new(&p);
        assert_eq!(f.apply(Command::Back), Err(FlowError::FirstQuestion));
        run(&mut f, vec![Command::Next, Command::Back]);
        assert_eq!(f.screen(), Screen::Question(0));
    }

    #[test]
    fn a_question_reopened_from_the_review_returns_to_the_review() {
        let p = payload();
        let mut f = Flow::new(&p);
        run(
            &mut f,
            vec![Command::Review, Command::Open(0), Command::Choose(0)],
        );
        assert_eq!(f.screen(), Screen::Review);
        // Back from a re-opened question, then on: still the review.
        run(&mut f, vec![Command::Open(1), Command::Back, Command::Next]);
        assert_eq!(f.screen(), Screen::Review);
        // Back at the review walks forward again from the last question.
        run(&mut f, vec![Command::Back]);
        assert_eq!(f.screen(), Screen::Question(2));
        run(&mut f, vec![Command::Back, Command::Next]);
        assert_eq!(f.screen(), Screen::Question(2));
    }

    #[test]
    fn single_custom_text_clears_the_option_and_moves_on() {
        let p = payload();
        let mut f = Flow::new(&p);
        run(&mut f, vec![Command::Choose(0), Command::Back]);
        run(&mut f, vec![Command::SaveCustomText("  mine ".into())]);
        assert_eq!(f.screen(), Screen::Question(1));
        assert_eq!(
            answers(&f),
            json!({"s": {"values": ["mine"], "labels": ["mine"], "indices": [], "customText": "mine"}})
        );
    }

    #[test]
    fn empty_custom_text_clears_it_and_stays() {
        let p = payload();
        let mut f = Flow::new(&p);
        run(&mut f, vec![Command::DraftCustomText("draft".into())]);
        assert_eq!(f.screen(), Screen::Question(0));
        assert_eq!(f.answers().custom_text(0), Some("draft"));
        run(&mut f, vec![Command::SaveCustomText(" ".into())]);
        assert_eq!(f.screen(), Screen::Question(0));
        assert_eq!(answers(&f), json!({}));
    }

    #[test]
    fn an_answer_is_applied_all_or_nothing() {
        let p = payload();
        let mut f = Flow::new(&p);
        run(&mut f, vec![Command::Choose(0), Command::Back]);
        let refused = f.apply(Command::Answer {
            options: Some(vec![0, 1]),
            custom_text: Some("x".into()),
        });
        assert_eq!(
            refused,
            Err(FlowError::Answer(AnswerError::TooManyOptions {
                question: 0
            }))
        );
        assert_eq!(f.screen(), Screen::Question(0));
        assert_eq!(f.answers().selected(0), vec![0]);
        // An option past the last is refused whole, custom text included.
        run(&mut f, vec![Command::Open(2)]);
        assert!(f
            .apply(Command::Answer {
                options: Some(vec![5]),
                custom_text: Some("x".into())
            })
            .is_err());
        assert_eq!(f.answers().selected(2), Vec::<usize>::new());
        assert_eq!(f.answers().custom_text(2), None);
    }

    #[test]
    fn multi_answers_keep_option_order_and_custom_text_last() {
        let p = payload();
        let mut f = Flow::new(&p);
        run(
            &mut f,
            vec![
                Command::Next,
                Command::Answer {
                    options: Some(vec![1, 0]),
                    custom_text: Some("W".into()),
                },
            ],
        );
        assert_eq!(
            answers(&f)["m"],
            json!({"values": ["x", "y", "W"], "labels": ["X", "Y", "W"], "indices": [1, 2], "customText": "W"})
        );
    }

    #[test]
    fn clearing_an_answer_keeps_its_notes() {
        let p = payload();
        let mut f = Flow::new(&p);
        run(
            &mut f,
            vec![
                Command::Next,
                Command::SetSelection(vec![0]),
                Command::SetNote {
                    question: 1,
                    text: "q note".into(),
                },
                Command::SetOptionNote {
                    question: 1,
                    option: 0,
                    text: "x note".into(),
                },
                Command::ClearAnswer,
            ],
        );
        assert_eq!(
            answers(&f),
            json!({"m": {"values": [], "labels": [], "indices": [], "note": "q note"}})
        );
        // The option note comes back with its option.
        run(&mut f, vec![Command::Toggle(0)]);
        assert_eq!(answers(&f)["m"]["optionNotes"], json!({"x": "x note"}));
    }

    #[test]
    fn option_notes_count_in_the_answers_only_for_selected_options_but_cancel_asks_first() {
        let p = payload();
        let mut f = Flow::new(&p);
        run(
            &mut f,
            vec![
                Command::Review,
                Command::SetOptionNote {
                    question: 1,
                    option: 1,
                    text: "n".into(),
                },
            ],
        );
        assert_eq!(answers(&f), json!({}));
        // Not in the answers, but Elaborate would send it: cancelling asks first.
        assert!(f.cancel_loses_input());
        run(&mut f, vec![Command::Cancel]);
        assert_eq!(
            f.screen(),
            Screen::ConfirmCancel {
                from: Place::Review
            }
        );
    }

    #[test]
    fn submit_with_a_note_on_an_option_not_chosen_asks_first_and_offers_elaborate() {
        let p = payload();
        let mut f = Flow::new(&p);
        run(
            &mut f,
            vec![
                Command::SetOptionNote {
                    question: 0,
                    option: 1,
                    text: "what would B cost?".into(),
                },
                Command::Choose(0),
                Command::Review,
            ],
        );
        assert_eq!(f.unchosen_notes(), vec![(0, 1)]);
        run(&mut f, vec![Command::Submit]);
        assert_eq!(f.screen(), Screen::ConfirmSubmit);
        run(&mut f, vec![Command::Deny]);
        assert_eq!(f.screen(), Screen::Review);
        // Elaborate from the confirmation sends the note.
        run(&mut f, vec![Command::Submit, Command::Elaborate]);
        match f.into_ending() {
            Some(Ending::Elaborated(state)) => {
                assert_eq!(state.option_note(0, 1), Some("what would B cost?"))
            }
            other => panic!("{other:?}"),
        }
        // Yes submits without it; choosing the noted option instead asks nothing.
        let mut f = Flow::new(&p);
        let note = Command::SetOptionNote {
            question: 0,
            option: 1,
            text: "n".into(),
        };
        run(
            &mut f,
            vec![note.clone(), Command::Choose(0), Command::Review],
        );
        run(&mut f, vec![Command::Submit, Command::Confirm]);
        assert!(matches!(f.ending(), Some(Ending::Submitted(_))));
        let mut f = Flow::new(&p);
        run(&mut f, vec![note, Command::Choose(1), Command::Review]);
        assert!(f.unchosen_notes().is_empty());
        run(&mut f, vec![Command::Submit]);
        assert!(matches!(f.ending(), Some(Ending::Submitted(_))));
    }

    #[test]
    fn a_note_alone_is_kept_but_is_not_an_answer() {
        let p = payload();
        let mut f = Flow::new(&p);
        run(
            &mut f,
            vec![
                Command::SetNote {
                    question: 0,
                    text: "later".into(),
                },
                Command::Review,
            ],
        );
        assert_eq!(f.unanswered_required(), vec![0]);
        assert_eq!(
            answers(&f),
            json!({"s": {"values": [], "labels": [], "indices": [], "note": "later"}})
        );
        assert!(f.cancel_loses_input());
    }

    #[test]
    fn submit_warns_about_unanswered_required_questions_and_never_refuses() {
        let p = payload();
        let mut f = Flow::new(&p);
        run(&mut f, vec![Command::Review, Command::Submit]);
        assert_eq!(f.screen(), Screen::ConfirmSubmit);
        run(&mut f, vec![Command::Deny]);
        assert_eq!(f.screen(), Screen::Review);
        run(&mut f, vec![Command::Submit, Command::Cancel]);
        assert_eq!(f.screen(), Screen::Review);
        run(&mut f, vec![Command::Submit, Command::Confirm]);
        assert!(matches!(f.into_ending(), Some(Ending::Submitted(_))));
    }

    #[test]
    fn submit_with_required_questions_answered_ends_at_once() {
        let p = payload();
        let mut f = Flow::new(&p);
        run(
            &mut f,
            vec![Command::Choose(1), Command::Review, Command::Submit],
        );
        match f.into_ending() {
            Some(Ending::Submitted(state)) => assert_eq!(state.selected(0), vec![1]),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn cancel_with_nothing_to_lose_dismisses_at_once() {
        let p = payload();
        let mut f = Flow::new(&p);
        run(&mut f, vec![Command::Cancel]);
        assert_eq!(f.ending(), Some(Ending::Dismissed));
    }

    #[test]
    fn cancel_that_would_lose_answers_is_confirmed_first() {
        let p = payload();
        let mut f = Flow::new(&p);
        run(
            &mut f,
            vec![Command::Next, Command::Toggle(1), Command::Cancel],
        );
        assert_eq!(
            f.screen(),
            Screen::ConfirmCancel {
                from: Place::Question(1)
            }
        );
        // No (or Esc again) returns to where the cancel came from, answers intact.
        run(&mut f, vec![Command::Deny]);
        assert_eq!(f.screen(), Screen::Question(1));
        run(
            &mut f,
            vec![Command::Review, Command::Cancel, Command::Cancel],
        );
        assert_eq!(f.screen(), Screen::Review);
        run(&mut f, vec![Command::Cancel, Command::Confirm]);
        assert_eq!(f.ending(), Some(Ending::Dismissed));
    }

    #[test]
    fn interrupt_ends_at_once_everywhere() {
        let p = payload();
        for prefix in [
            vec![],
            vec![Command::Review],
            vec![Command::Choose(0), Command::Cancel],
            vec![Command::Review, Command::Submit],
        ] {
            let mut f = Flow::new(&p);
            run(&mut f, prefix);
            run(&mut f, vec![Command::Interrupt]);
            assert_eq!(f.ending(), Some(Ending::Interrupted));
        }
    }

    #[test]
    fn dismiss_ends_at_once_everywhere() {
        let p = payload();
        for prefix in [
            vec![],
            vec![Command::Review],
            vec![Command::Choose(0), Command::Cancel],
            vec![Command::Review, Command::Submit],
        ] {
            let mut f = Flow::new(&p);
            run(&mut f, prefix);
            run(&mut f, vec![Command::Dismiss]);
            assert_eq!(f.ending(), Some(Ending::Dismissed));
            assert_eq!(f.apply(Command::Next), Err(FlowError::Ended));
        }
    }

    #[test]
    fn a_timeout_ends_at_once_everywhere_and_keeps_the_answers() {
        let p = payload();
        for prefix in [
            vec![],
            vec![Command::Review],
            vec![Command::Toggle(1), Command::Cancel],
            vec![Command::Review, Command::Cancel],
        ] {
            let mut f = Flow::new(&p);
            run(&mut f, vec![Command::Choose(1)]);
            run(&mut f, prefix);
            run(
                &mut f,
                vec![Command::TimeOut("no key for 2 seconds".into())],
            );
            assert!(f.is_over());
            assert_eq!(f.apply(Command::Next), Err(FlowError::Ended));
            match f.ending() {
                Some(Ending::TimedOut { answers, why }) => {
                    assert_eq!(answers.selected(0), vec![1]);
                    assert_eq!(why, "no key for 2 seconds");
                }
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn a_timeout_keeps_ticks_and_a_saved_draft() {
        let p = payload();
        let mut f = Flow::new(&p);
        run(
            &mut f,
            vec![
                Command::Next,
                Command::Toggle(0),
                Command::Toggle(1),
                // What a front end sends for an open editor before timing out.
                Command::DraftCustomText("half a thought".into()),
                Command::TimeOut("no key for 9 seconds".into()),
            ],
        );
        match f.into_ending() {
            Some(Ending::TimedOut { answers, .. }) => assert_eq!(
                serde_json::to_value(answers.answers(&p)).unwrap(),
                json!({"m": {"values": ["x", "y", "half a thought"], "labels": ["X", "Y", "half a thought"],
                    "indices": [1, 2], "customText": "half a thought"}})
            ),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn elaborate_at_the_review_ends_the_flow_without_asking() {
        let p = payload();
        let mut f = Flow::new(&p);
        // Not on a question: only the review offers it.
        assert_eq!(
            f.apply(Command::Elaborate),
            Err(FlowError::NotHere(Screen::Question(0)))
        );
        // The required question is unanswered: Elaborate does not warn, Submit would.
        run(
            &mut f,
            vec![
                Command::SetNote {
                    question: 1,
                    text: "why?".into(),
                },
                Command::Review,
                Command::Elaborate,
            ],
        );
        match f.into_ending() {
            Some(Ending::Elaborated(state)) => assert_eq!(state.note(1), Some("why?")),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            ReviewAction::ALL,
            [
                ReviewAction::Submit,
                ReviewAction::Elaborate,
                ReviewAction::Cancel
            ]
        );
        assert_eq!(ReviewAction::Elaborate.command(), Command::Elaborate);
    }

    #[test]
    fn multi_custom_text_stays_on_the_question_ticked_and_space_toggles_it() {
        let p = payload();
        let mut f = Flow::new(&p);
        run(
            &mut f,
            vec![Command::Next, Command::SaveCustomText("Solid".into())],
        );
        assert_eq!(f.screen(), Screen::Question(1));
        assert!(f.answers().is_custom_ticked(1));
        run(&mut f, vec![Command::ToggleCustom]);
        assert_eq!(f.screen(), Screen::Question(1));
        assert_eq!(answers(&f), json!({}));
        assert_eq!(f.answers().custom_text(1), Some("Solid"));
        run(&mut f, vec![Command::Toggle(0), Command::ToggleCustom]);
        assert_eq!(
            answers(&f)["m"],
            json!({"values": ["x", "Solid"], "labels": ["X", "Solid"], "indices": [1], "customText": "Solid"})
        );
        // Single-select: saving moves on; the custom row has nothing to toggle.
        run(&mut f, vec![Command::Back]);
        assert_eq!(
            f.apply(Command::ToggleCustom),
            Err(FlowError::Answer(AnswerError::NoCustomText { question: 0 }))
        );
        run(&mut f, vec![Command::SaveCustomText("mine".into())]);
        assert_eq!(f.screen(), Screen::Question(1));
    }

    #[test]
    fn auto_submit_submits_on_reaching_the_review_with_everything_answered_and_no_note() {
        let p = payload();
        let all = || {
            vec![
                Command::Choose(0),
                Command::SetSelection(vec![1]),
                Command::Next,
            ]
        };
        // Off by default: the review is shown.
        let mut f = Flow::new(&p);
        run(&mut f, all());
        assert_eq!(f.screen(), Screen::Question(2));
        run(&mut f, vec![Command::Choose(0)]);
        assert_eq!(f.screen(), Screen::Review);
        assert!(!f.is_over());
        // On: choosing the last answer reaches the review and submits.
        let mut f = Flow::new(&p).with_auto_submit(true);
        run(&mut f, all());
        run(&mut f, vec![Command::Choose(0)]);
        assert!(matches!(f.ending(), Some(Ending::Submitted(_))));
        // A note, even on an unselected option, keeps the review.
        let mut f = Flow::new(&p).with_auto_submit(true);
        run(&mut f, all());
        run(
            &mut f,
            vec![
                Command::SetOptionNote {
                    question: 1,
                    option: 0,
                    text: "hm".into(),
                },
                Command::Choose(0),
            ],
        );
        assert_eq!(f.screen(), Screen::Review);
        // Clearing the note at the review submits.
        run(
            &mut f,
            vec![Command::SetOptionNote {
                question: 1,
                option: 0,
                text: "".into(),
            }],
        );
        assert!(matches!(f.ending(), Some(Ending::Submitted(_))));
        // An unanswered question keeps the review.
        let mut f = Flow::new(&p).with_auto_submit(true);
        run(&mut f, vec![Command::Review]);
        assert_eq!(f.screen(), Screen::Review);
    }

    #[test]
    fn commands_off_their_screen_change_nothing() {
        let p = payload();
        let mut f = Flow::new(&p);
        assert_eq!(
            f.apply(Command::Confirm),
            Err(FlowError::NotHere(Screen::Question(0)))
        );
        run(&mut f, vec![Command::Review]);
        assert_eq!(
            f.apply(Command::Choose(0)),
            Err(FlowError::NotHere(Screen::Review))
        );
        assert_eq!(
            f.apply(Command::Open(3)),
            Err(FlowError::Answer(AnswerError::NoSuchQuestion(3)))
        );
        assert_eq!(f.screen(), Screen::Review);
        assert_eq!(answers(&f), json!({}));
    }
}

//! Results in the caller's shape (`--result-format`, docs/dialects.md): the contract's result,
//! built once by [`super::conclude`], turned into the result another system's caller expects.
//! A separate step after `conclude`, so every rule and ending stays in one place.
//!
//! Every format keeps the envelope `{content, details}` of a pi tool result: `content` is the
//! same transcript text as the contract's, `details` is the format's own shape:
//! - mickyyy68/pi-ask (its README, "Result contract"): [`MickyyyDetails`];
//! - @yishan-io/pi-ask (its README, "Result details"): [`YishanDetails`], one object per
//!   question, an array when there are several;
//! - Claude Code AskUserQuestion: [`ClaudeCodeDetails`], answers keyed by question text.
//!
//! Notes and option notes go where a format has a place (Claude Code's `annotations` take the
//! question note); everything else goes into an added `notes` object keyed by question id, so
//! nothing is lost and a recorded result replays (`contract::answers_file`). An elaborate
//! result (docs/contract.md "What pi-ask adds") adds `mode: "elaborate"`, which the format's
//! reader ignores, and gives every note of `details.elaboration` (on options not chosen and
//! questions not answered too): it replays as the same Elaborate. The label-keyed
//! formats (yishan, Claude Code) add `exactAnswers` by question id for every answer whose
//! labels would replay as another answer, so every recorded result replays exactly.

use crate::contract::{
    claude_code_keys, replays_by_label, replays_joined, Details, ErrorCode, ErrorInfo, Mode,
    Payload, Problem, ProblemCode, Question, QuestionType, Target, ToolResult,
};
use crate::contract::{Answer, ContentItem};
use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The shape a result is written in (`--result-format`, docs/dialects.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ResultFormat {
    /// The ask_user contract's `{content, details}`.
    #[default]
    Contract,
    /// mickyyy68/pi-ask's `details`.
    Mickyyy68,
    /// @yishan-io/pi-ask's `details`.
    Yishan,
    /// Claude Code AskUserQuestion's output.
    ClaudeCode,
}

/// A result in another format: the contract's `content` and the format's `details`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Enveloped<D> {
    /// The same transcript text as the contract's result.
    #[schemars(length(min = 1, max = 1))]
    pub content: Vec<ContentItem>,
    /// The format's own details.
    pub details: D,
}

/// The notes of one question where a format has no place for them: the question note and
/// the notes of selected options by option value (`notes` keyed by question id); of every
/// option in an elaborate result.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[serde(rename_all = "camelCase")]
pub struct QuestionNotes {
    /// The question note.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Notes of selected options (of any option in an elaborate result), by option value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub option_notes: Option<IndexMap<String, String>>,
}

/// mickyyy68/pi-ask's result details (its README, "Result contract"), plus `mode` and
/// `notes`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MickyyyDetails {
    /// One entry per answered question, in question order (an answer is an option or custom
    /// text; skipped questions are left out).
    pub answers: Vec<MickyyyAnswer>,
    /// True when no answers were submitted.
    pub cancelled: bool,
    /// `"elaborate"` when the person chose Elaborate (the contract's `details.mode`); absent
    /// for a submission.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<Mode>,
    /// Why there are no answers, when it was not the person's own dismissal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<MickyyyError>,
    /// Question and option notes by question id (mickyyy68/pi-ask has no notes).
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub notes: IndexMap<String, QuestionNotes>,
}

/// One answered question of a mickyyy68/pi-ask result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[serde(rename_all = "camelCase")]
pub struct MickyyyAnswer {
    /// The question id.
    pub question_id: String,
    /// The question text (the contract's prompt).
    pub question: String,
    /// The selected options in option order, then the custom text.
    pub selections: Vec<Selection>,
}

/// One selection: an option, or the custom text as both value and label (`custom: true`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Selection {
    /// The option value, or the custom text.
    pub value: String,
    /// The option label, or the custom text.
    pub label: String,
    /// Whether this is the person's own text.
    pub custom: bool,
}

/// A mickyyy68/pi-ask error: the seed's code where one matches, the contract's message and
/// problems.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MickyyyError {
    /// The seed's code.
    pub code: MickyyyErrorCode,
    /// The contract's `details.error.message`.
    pub message: String,
    /// The contract's problems, for invalid input.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<Problem>,
}

/// mickyyy68/pi-ask's error codes (its README, "Result contract"), and `invalid_payload` for
/// input it has no code for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum MickyyyErrorCode {
    NoUi,
    Aborted,
    NoQuestions,
    TooManyQuestions,
    TooFewOptions,
    TooManyOptions,
    EmptyQuestion,
    EmptyQuestionId,
    EmptyHeader,
    HeaderTooLong,
    EmptyOptionLabel,
    LabelTooLong,
    EmptyOptionValue,
    DuplicateQuestionId,
    DuplicateOptionValue,
    ReservedLabel,
    InvalidPayload,
}

impl MickyyyErrorCode {
    /// The seed's code for a contract error: the first problem's when the seed has one
    /// (`empty_prompt` is its `empty_question`, a blank header its `empty_header`), else
    /// `invalid_payload`; `no_ui`; `aborted` for every other ending from outside
    /// (`aborted`, `terminal_lost`, `terminal_busy`, `timeout`, `internal`: the seed has no code for a timeout,
    /// and `aborted` is the nearest; the answers given so far are kept in `answers` all the same).
    pub fn of(error: &ErrorInfo) -> Self {
        use MickyyyErrorCode as M;
        match error.code {
            ErrorCode::NoUi => M::NoUi,
            ErrorCode::Aborted
            | ErrorCode::TerminalLost
            | ErrorCode::TerminalBusy
            | ErrorCode::Timeout
            | ErrorCode::Internal => M::Aborted,
            ErrorCode::InvalidAnswers => M::InvalidPayload,
            ErrorCode::InvalidPayload => match error.problems.first().map(|p| p.code) {
                Some(ProblemCode::NoQuestions) => M::NoQuestions,
                Some(ProblemCode::TooManyQuestions) => M::TooManyQuestions,
                Some(ProblemCode::TooFewOptions | ProblemCode::NoOptions) => M::TooFewOptions,
                Some(ProblemCode::TooManyOptions) => M::TooManyOptions,
                Some(ProblemCode::EmptyPrompt) => M::EmptyQuestion,
                Some(ProblemCode::EmptyQuestionId) => M::EmptyQuestionId,
                Some(ProblemCode::BlankLabel) => M::EmptyHeader,
                Some(ProblemCode::HeaderTooLong) => M::HeaderTooLong,
                Some(ProblemCode::EmptyOptionLabel) => M::EmptyOptionLabel,
                Some(ProblemCode::LabelTooLong) => M::LabelTooLong,
                Some(ProblemCode::EmptyOptionValue) => M::EmptyOptionValue,
                Some(ProblemCode::DuplicateQuestionId) => M::DuplicateQuestionId,
                Some(ProblemCode::DuplicateOptionValue) => M::DuplicateOptionValue,
                Some(ProblemCode::ReservedLabel) => M::ReservedLabel,
                _ => M::InvalidPayload,
            },
        }
    }
}

/// @yishan-io/pi-ask's result details for one question (its README, "Result details"), plus
/// `mode`, `error` and `notes`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[serde(rename_all = "camelCase")]
pub struct YishanDetails {
    /// The question text; `null` when the payload could not be read.
    #[schemars(required, extend("x-pi-ask-null" = true))]
    pub question: Option<String>,
    /// The context shown with the question, or `null`.
    #[schemars(required, extend("x-pi-ask-null" = true))]
    pub context: Option<String>,
    /// The options as shown.
    pub options: Vec<YishanOption>,
    /// The chosen option's title or the text typed; a list (options in order, text last) for
    /// a multi-select question; `null` when not answered.
    #[schemars(required, extend("x-pi-ask-null" = true))]
    pub response: Option<YishanResponse>,
    /// True when no answers were submitted.
    pub cancelled: bool,
    /// `"elaborate"` when the person chose Elaborate (the contract's `details.mode`); absent
    /// for a submission.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<Mode>,
    /// Why no terminal could ask (`no_ui`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unavailable_reason: Option<String>,
    /// The contract's error for any other ending from outside or invalid input.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorInfo>,
    /// This question's notes, keyed by its id.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub notes: IndexMap<String, QuestionNotes>,
    /// This question's answer, keyed by its id, when `response` would replay as another
    /// ([`ExactAnswer`]).
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub exact_answers: IndexMap<String, ExactAnswer>,
}

/// A yishan option: its title (the label) and description.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct YishanOption {
    /// The label.
    pub title: String,
    /// The description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// A yishan response: one title or text, or a list for a multi-select question.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum YishanResponse {
    /// A single-select answer: the option's title, or the text typed.
    One(String),
    /// A multi-select answer: titles in option order, then the text typed.
    Many(Vec<String>),
}

/// yishan's `details`: one object, or an array when there are several questions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum YishanResult {
    /// One question.
    One(Box<YishanDetails>),
    /// Several questions, in order.
    Many(Vec<YishanDetails>),
}

/// Claude Code AskUserQuestion's output: the questions, answers keyed by question text, and
/// `annotations` with the question notes; plus `notes`, `cancelled`, `mode` and `error`,
/// which it does not have.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClaudeCodeDetails {
    /// The questions as asked.
    pub questions: Vec<ClaudeCodeQuestion>,
    /// The answer of each answered question, keyed by its text (a text asked twice is keyed
    /// `text [id]` the second time): the option label, the text typed, or several joined
    /// with `", "`.
    pub answers: IndexMap<String, String>,
    /// Question notes, keyed like `answers`.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub annotations: IndexMap<String, Annotation>,
    /// Option notes by question id.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub notes: IndexMap<String, QuestionNotes>,
    /// The answers, by question id, whose `answers` text would replay as another answer
    /// ([`ExactAnswer`]).
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    #[serde(rename = "exactAnswers")]
    pub exact_answers: IndexMap<String, ExactAnswer>,
    /// True when no answers were submitted.
    pub cancelled: bool,
    /// `"elaborate"` when the person chose Elaborate (the contract's `details.mode`); absent
    /// for a submission.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<Mode>,
    /// Why there are no answers, when it was not the person's own dismissal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorInfo>,
}

/// One question of a Claude Code result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[serde(rename_all = "camelCase")]
pub struct ClaudeCodeQuestion {
    /// The question text.
    pub question: String,
    /// The short header (the label).
    pub header: String,
    /// The options.
    pub options: Vec<ClaudeCodeOption>,
    /// Whether several options could be chosen.
    pub multi_select: bool,
}

/// One option of a Claude Code question.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClaudeCodeOption {
    /// The label.
    pub label: String,
    /// The description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// A Claude Code annotation: the question note.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Annotation {
    /// The question note.
    pub notes: String,
}

/// An answer in the answers file's form, added by the label-keyed formats (yishan, Claude
/// Code) where the labels would replay as another answer: options labelled alike, a label
/// that is others joined with `", "`, custom text that is an option's label
/// (docs/dialects.md "Replay").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[serde(rename_all = "camelCase")]
pub struct ExactAnswer {
    /// The chosen options' values, in option order.
    pub values: Vec<String>,
    /// The custom text, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub custom_text: Option<String>,
}

/// `answer` of `question` as an [`ExactAnswer`] when what the format wrote of it replays as
/// another answer (`replayed`: the options by position and the custom text it gives back);
/// `None` when it replays as itself.
fn exact_answer(
    answer: &Answer,
    question: &Question,
    replayed: (Vec<usize>, Option<String>),
) -> Option<ExactAnswer> {
    let options: Vec<usize> = answer.indices.iter().map(|i| i - 1).collect();
    if replayed == (options.clone(), answer.custom_text.clone()) {
        return None;
    }
    Some(ExactAnswer {
        values: options
            .iter()
            .filter_map(|&o| question.options.get(o).map(|o| o.value.clone()))
            .collect(),
        custom_text: answer.custom_text.clone(),
    })
}

/// `result` in `format`; `payload` gives what the contract's result does not carry (options,
/// context). The contract's own format is `result` itself.
pub fn render(result: &ToolResult, format: ResultFormat, payload: Option<&Payload>) -> Value {
    let content = result.content.clone();
    let value = match format {
        ResultFormat::Contract => serde_json::to_value(result),
        ResultFormat::Mickyyy68 => serde_json::to_value(Enveloped {
            content,
            details: mickyyy68(&result.details),
        }),
        ResultFormat::Yishan => serde_json::to_value(Enveloped {
            content,
            details: yishan(&result.details, payload),
        }),
        ResultFormat::ClaudeCode => serde_json::to_value(Enveloped {
            content,
            details: claude_code(&result.details, payload),
        }),
    };
    value.expect("results always serialize")
}

/// The notes of an answer that a format has no place for; `None` when there are none.
fn notes_of(answer: &Answer, question_note: bool) -> Option<QuestionNotes> {
    let notes = QuestionNotes {
        note: answer.note.clone().filter(|_| question_note),
        option_notes: answer.option_notes.clone(),
    };
    (notes != QuestionNotes::default()).then_some(notes)
}

/// The notes of question `id` a format writes, with the question note when `question_note`:
/// in an elaborate result every note of `details.elaboration` (on options not chosen and on
/// questions not answered too, which `answers` leaves out), else [`notes_of`] its answer.
fn question_notes(details: &Details, id: &str, question_note: bool) -> Option<QuestionNotes> {
    let Some(elaboration) = &details.elaboration else {
        return details
            .answers
            .get(id)
            .and_then(|a| notes_of(a, question_note));
    };
    let mut notes = QuestionNotes::default();
    for item in elaboration.items.iter().filter(|i| i.question.id == id) {
        match &item.target {
            Target::Question if question_note => notes.note = Some(item.note.clone()),
            Target::Question => {}
            Target::Option { option_value } => {
                notes
                    .option_notes
                    .get_or_insert_with(IndexMap::new)
                    .insert(option_value.clone(), item.note.clone());
            }
        }
    }
    (notes != QuestionNotes::default()).then_some(notes)
}

/// The question note of question `id`: in an elaborate result from `details.elaboration`
/// (a question not answered has one too), else from its answer.
fn question_note<'d>(details: &'d Details, id: &str) -> Option<&'d str> {
    match &details.elaboration {
        Some(elaboration) => elaboration
            .items
            .iter()
            .find(|i| i.question.id == id && i.target == Target::Question)
            .map(|i| i.note.as_str()),
        None => details.answers.get(id).and_then(|a| a.note.as_deref()),
    }
}

/// The selections of an answer: options in option order, then the custom text.
fn selections(answer: &Answer) -> Vec<Selection> {
    let n = answer.indices.len();
    let mut out: Vec<Selection> = answer.values[..n]
        .iter()
        .zip(&answer.labels[..n])
        .map(|(value, label)| Selection {
            value: value.clone(),
            label: label.clone(),
            custom: false,
        })
        .collect();
    if let Some(text) = &answer.custom_text {
        out.push(Selection {
            value: text.clone(),
            label: text.clone(),
            custom: true,
        });
    }
    out
}

fn mickyyy68(details: &Details) -> MickyyyDetails {
    let mut out = MickyyyDetails {
        answers: Vec::new(),
        cancelled: details.cancelled,
        error: details.error.as_ref().map(|e| MickyyyError {
            code: MickyyyErrorCode::of(e),
            message: e.message.clone(),
            problems: e.problems.clone(),
        }),
        notes: IndexMap::new(),
        mode: details.mode,
    };
    for q in &details.questions {
        if let Some(notes) = question_notes(details, &q.id, true) {
            out.notes.insert(q.id.clone(), notes);
        }
        let Some(answer) = details.answers.get(&q.id) else {
            continue;
        };
        let selections = selections(answer);
        if !selections.is_empty() {
            out.answers.push(MickyyyAnswer {
                question_id: q.id.clone(),
                question: q.prompt.clone(),
                selections,
            });
        }
    }
    out
}

fn yishan(details: &Details, payload: Option<&Payload>) -> YishanResult {
    let (unavailable_reason, error) = match &details.error {
        Some(e) if e.code == ErrorCode::NoUi => (Some(e.message.clone()), None),
        other => (None, other.clone()),
    };
    let one = |q: usize| -> YishanDetails {
        let summary = &details.questions[q];
        let question = payload.and_then(|p| p.questions.get(q));
        let answer = details.answers.get(&summary.id);
        let labels = answer.map_or(&[][..], |a| &a.labels[..]);
        let response = match labels {
            [] => None,
            [one] if summary.kind != QuestionType::Multi => Some(YishanResponse::One(one.clone())),
            many => Some(YishanResponse::Many(many.to_vec())),
        };
        let mut notes = IndexMap::new();
        if let Some(n) = question_notes(details, &summary.id, true) {
            notes.insert(summary.id.clone(), n);
        }
        let mut exact_answers = IndexMap::new();
        if let (Some(answer), Some(question)) = (answer, question) {
            let replayed = replays_by_label(question, labels.iter().map(String::as_str));
            if let Some(exact) = exact_answer(answer, question, replayed) {
                exact_answers.insert(summary.id.clone(), exact);
            }
        }
        YishanDetails {
            question: Some(summary.prompt.clone()),
            context: question.and_then(|q| q.context.clone()),
            options: question.map_or_else(Vec::new, |q| {
                q.options
                    .iter()
                    .map(|o| YishanOption {
                        title: o.label.clone(),
                        description: o.description.clone(),
                    })
                    .collect()
            }),
            response,
            cancelled: details.cancelled,
            mode: details.mode,
            unavailable_reason: unavailable_reason.clone(),
            error: error.clone(),
            notes,
            exact_answers,
        }
    };
    match details.questions.len() {
        // No payload could be read: one object saying why.
        0 => YishanResult::One(Box::new(YishanDetails {
            question: None,
            context: None,
            options: Vec::new(),
            response: None,
            cancelled: details.cancelled,
            mode: details.mode,
            unavailable_reason: unavailable_reason.clone(),
            error: error.clone(),
            notes: IndexMap::new(),
            exact_answers: IndexMap::new(),
        })),
        1 => YishanResult::One(Box::new(one(0))),
        n => YishanResult::Many((0..n).map(one).collect()),
    }
}

fn claude_code(details: &Details, payload: Option<&Payload>) -> ClaudeCodeDetails {
    let keys = claude_code_keys(details.questions.iter().map(|q| (&*q.id, &*q.prompt)));
    let mut out = ClaudeCodeDetails {
        questions: Vec::new(),
        answers: IndexMap::new(),
        annotations: IndexMap::new(),
        notes: IndexMap::new(),
        exact_answers: IndexMap::new(),
        cancelled: details.cancelled,
        mode: details.mode,
        error: details.error.clone(),
    };
    for (q, (summary, key)) in details.questions.iter().zip(keys).enumerate() {
        let question = payload.and_then(|p| p.questions.get(q));
        out.questions.push(ClaudeCodeQuestion {
            question: summary.prompt.clone(),
            header: summary.label.clone(),
            options: question.map_or_else(Vec::new, |q| {
                q.options
                    .iter()
                    .map(|o| ClaudeCodeOption {
                        label: o.label.clone(),
                        description: o.description.clone(),
                    })
                    .collect()
            }),
            multi_select: summary.kind == QuestionType::Multi,
        });
        if let Some(note) = question_note(details, &summary.id) {
            out.annotations.insert(
                key.clone(),
                Annotation {
                    notes: note.to_string(),
                },
            );
        }
        if let Some(notes) = question_notes(details, &summary.id, false) {
            out.notes.insert(summary.id.clone(), notes);
        }
        let Some(answer) = details.answers.get(&summary.id) else {
            continue;
        };
        if !answer.labels.is_empty() {
            let joined = answer.labels.join(", ");
            if let Some(question) = question {
                let replayed = replays_joined(question, &joined);
                if let Some(exact) = exact_answer(answer, question, replayed) {
                    out.exact_answers.insert(summary.id.clone(), exact);
                }
            }
            out.answers.insert(key, joined);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    //! Each format's result for each ending, as whole JSON values.
    use super::*;
    use crate::answers::AnswerState;
    use crate::contract::parse_payload_as;
    use crate::contract::InputFormat;
    use crate::result::{conclude, Ending};
    use serde_json::json;

    fn payload() -> Payload {
        parse_payload_as(
            &json!({"title": "Setup", "questions": [
                {"id": "db", "label": "Database", "prompt": "Which database?", "options": [
                    {"value": "pg", "label": "PostgreSQL", "description": "Relational."},
                    {"value": "lite", "label": "SQLite"}]},
                {"id": "fw", "prompt": "Which frameworks?", "type": "multi", "options": [
                    {"value": "react", "label": "React"}, {"value": "vue", "label": "Vue"}]},
                {"id": "name", "prompt": "Name?", "allowOther": true, "options": []}
            ]})
            .to_string(),
            InputFormat::Auto,
            false,
        )
        .payload
        .unwrap()
    }

    fn answered(p: &Payload) -> ToolResult {
        let mut st = AnswerState::new(p);
        st.select(0, 1).unwrap();
        st.set_note(0, "for now").unwrap();
        st.set_selection(1, &[0, 1]).unwrap();
        st.set_custom_text(1, "Solid").unwrap();
        st.set_option_note(1, 1, "v3").unwrap();
        st.set_custom_text(2, "Atlas").unwrap();
        conclude(&Ending::Submitted(st), Some(p)).0
    }

    #[test]
    fn the_contract_format_is_the_result_itself() {
        let p = payload();
        let r = answered(&p);
        assert_eq!(
            render(&r, ResultFormat::Contract, Some(&p)),
            serde_json::to_value(&r).unwrap()
        );
    }

    #[test]
    fn mickyyy68_answers_are_selections_and_notes_go_to_notes() {
        let p = payload();
        let r = answered(&p);
        let v = render(&r, ResultFormat::Mickyyy68, Some(&p));
        assert_eq!(v["content"], serde_json::to_value(&r.content).unwrap());
        assert_eq!(
            v["details"],
            json!({
                "answers": [
                    {"questionId": "db", "question": "Which database?",
                     "selections": [{"value": "lite", "label": "SQLite", "custom": false}]},
                    {"questionId": "fw", "question": "Which frameworks?", "selections": [
                        {"value": "react", "label": "React", "custom": false},
                        {"value": "vue", "label": "Vue", "custom": false},
                        {"value": "Solid", "label": "Solid", "custom": true}]},
                    {"questionId": "name", "question": "Name?",
                     "selections": [{"value": "Atlas", "label": "Atlas", "custom": true}]}
                ],
                "cancelled": false,
                "notes": {"db": {"note": "for now"}, "fw": {"optionNotes": {"vue": "v3"}}}
            })
        );
    }

    #[test]
    fn yishan_gives_one_object_per_question() {
        let p = payload();
        let v = render(&answered(&p), ResultFormat::Yishan, Some(&p));
        assert_eq!(
            v["details"],
            json!([
                {"question": "Which database?", "context": null,
                 "options": [{"title": "PostgreSQL", "description": "Relational."}, {"title": "SQLite"}],
                 "response": "SQLite", "cancelled": false, "notes": {"db": {"note": "for now"}}},
                {"question": "Which frameworks?", "context": null,
                 "options": [{"title": "React"}, {"title": "Vue"}],
                 "response": ["React", "Vue", "Solid"], "cancelled": false,
                 "notes": {"fw": {"optionNotes": {"vue": "v3"}}}},
                {"question": "Name?", "context": null, "options": [], "response": "Atlas",
                 "cancelled": false}
            ])
        );
    }

    #[test]
    fn claude_code_keys_answers_by_question_text() {
        let p = payload();
        let v = render(&answered(&p), ResultFormat::ClaudeCode, Some(&p));
        assert_eq!(
            v["details"],
            json!({
                "questions": [
                    {"question": "Which database?", "header": "Database", "options": [
                        {"label": "PostgreSQL", "description": "Relational."}, {"label": "SQLite"}],
                     "multiSelect": false},
                    {"question": "Which frameworks?", "header": "Q2",
                     "options": [{"label": "React"}, {"label": "Vue"}], "multiSelect": true},
                    {"question": "Name?", "header": "Q3", "options": [], "multiSelect": false}
                ],
                "answers": {"Which database?": "SQLite", "Which frameworks?": "React, Vue, Solid",
                            "Name?": "Atlas"},
                "annotations": {"Which database?": {"notes": "for now"}},
                "notes": {"fw": {"optionNotes": {"vue": "v3"}}},
                "cancelled": false
            })
        );
    }

    #[test]
    fn endings_without_answers_in_each_format() {
        let p = payload();
        let no_ui = conclude(&Ending::NoUi("no terminal".into()), Some(&p)).0;
        let v = render(&no_ui, ResultFormat::Mickyyy68, Some(&p));
        assert_eq!(
            v["details"],
            json!({"answers": [], "cancelled": true,
                   "error": {"code": "no_ui", "message": "no terminal; no answers were collected"}})
        );
        let v = render(&no_ui, ResultFormat::Yishan, Some(&p));
        assert_eq!(
            v["details"][0]["unavailableReason"],
            "no terminal; no answers were collected"
        );
        assert_eq!(v["details"][0]["response"], Value::Null);
        let lost = conclude(&Ending::TerminalLost("EOF".into()), Some(&p)).0;
        let v = render(&lost, ResultFormat::Mickyyy68, Some(&p));
        assert_eq!(
            v["details"]["error"],
            json!({"code": "aborted", "message": "EOF"})
        );
        let v = render(&lost, ResultFormat::ClaudeCode, Some(&p));
        assert_eq!(v["details"]["answers"], json!({}));
        assert_eq!(v["details"]["cancelled"], true);
        assert_eq!(v["details"]["error"]["code"], "terminal_lost");
    }

    #[test]
    fn a_timeout_keeps_the_answers_given_in_each_format() {
        let p = payload();
        let mut st = AnswerState::new(&p);
        st.select(0, 1).unwrap();
        st.set_note(0, "for now").unwrap();
        let ending = Ending::TimedOut {
            answers: st,
            why: "no key for 30 seconds".into(),
        };
        let r = conclude(&ending, Some(&p)).0;
        let error = json!({"code": "timeout", "message": "no key for 30 seconds"});
        assert_eq!(
            render(&r, ResultFormat::Mickyyy68, Some(&p))["details"],
            json!({
                "answers": [{"questionId": "db", "question": "Which database?",
                    "selections": [{"value": "lite", "label": "SQLite", "custom": false}]}],
                "cancelled": true,
                "error": {"code": "aborted", "message": "no key for 30 seconds"},
                "notes": {"db": {"note": "for now"}}
            })
        );
        assert_eq!(
            render(&r, ResultFormat::Yishan, Some(&p))["details"],
            json!([
                {"question": "Which database?", "context": null,
                 "options": [{"title": "PostgreSQL", "description": "Relational."}, {"title": "SQLite"}],
                 "response": "SQLite", "cancelled": true, "error": error,
                 "notes": {"db": {"note": "for now"}}},
                {"question": "Which frameworks?", "context": null,
                 "options": [{"title": "React"}, {"title": "Vue"}],
                 "response": null, "cancelled": true, "error": error},
                {"question": "Name?", "context": null, "options": [], "response": null,
                 "cancelled": true, "error": error}
            ])
        );
        let v = render(&r, ResultFormat::ClaudeCode, Some(&p));
        assert_eq!(
            (
                &v["details"]["answers"],
                &v["details"]["annotations"],
                &v["details"]["cancelled"],
                &v["details"]["error"]
            ),
            (
                &json!({"Which database?": "SQLite"}),
                &json!({"Which database?": {"notes": "for now"}}),
                &json!(true),
                &error
            )
        );
        // Every format keeps the contract's transcript.
        for format in [
            ResultFormat::Mickyyy68,
            ResultFormat::Yishan,
            ResultFormat::ClaudeCode,
        ] {
            assert_eq!(
                render(&r, format, Some(&p))["content"],
                serde_json::to_value(&r.content).unwrap()
            );
        }
    }

    /// Elaborate: `mode` in each format, and every note (on an option not chosen, on a
    /// question not answered) where the format keeps notes; the answers are the committed ones.
    #[test]
    fn an_elaborate_result_keeps_its_mode_and_every_note_in_each_format() {
        let p = payload();
        let mut st = AnswerState::new(&p);
        st.select(0, 1).unwrap();
        st.set_option_note(0, 0, "cost?").unwrap();
        st.set_note(2, "which name?").unwrap();
        let r = conclude(&Ending::Elaborated(st), Some(&p)).0;
        assert_eq!(
            render(&r, ResultFormat::Mickyyy68, Some(&p))["details"],
            json!({
                "answers": [{"questionId": "db", "question": "Which database?",
                    "selections": [{"value": "lite", "label": "SQLite", "custom": false}]}],
                "cancelled": false,
                "mode": "elaborate",
                "notes": {"db": {"optionNotes": {"pg": "cost?"}}, "name": {"note": "which name?"}}
            })
        );
        let v = render(&r, ResultFormat::Yishan, Some(&p));
        assert_eq!(
            (&v["details"][0]["mode"], &v["details"][0]["notes"]),
            (
                &json!("elaborate"),
                &json!({"db": {"optionNotes": {"pg": "cost?"}}})
            )
        );
        assert_eq!(
            (
                &v["details"][2]["mode"],
                &v["details"][2]["notes"],
                &v["details"][2]["response"]
            ),
            (
                &json!("elaborate"),
                &json!({"name": {"note": "which name?"}}),
                &Value::Null
            )
        );
        let v = render(&r, ResultFormat::ClaudeCode, Some(&p));
        assert_eq!(
            (
                &v["details"]["answers"],
                &v["details"]["annotations"],
                &v["details"]["notes"],
                &v["details"]["mode"]
            ),
            (
                &json!({"Which database?": "SQLite"}),
                &json!({"Name?": {"notes": "which name?"}}),
                &json!({"db": {"optionNotes": {"pg": "cost?"}}}),
                &json!("elaborate")
            )
        );
        // A submission has no mode in any format.
        for format in [
            ResultFormat::Mickyyy68,
            ResultFormat::Yishan,
            ResultFormat::ClaudeCode,
        ] {
            assert!(!render(&answered(&p), format, Some(&p))
                .to_string()
                .contains("\"mode\""));
        }
    }

    #[test]
    fn an_invalid_payload_uses_the_seeds_code_of_its_first_problem() {
        let err = parse_payload_as(
            r#"{"questions": [{"question": " ", "options": [{"label": "A"}]}]}"#,
            InputFormat::Auto,
            false,
        )
        .payload
        .unwrap_err();
        let r = conclude(&Ending::InvalidPayload(err), None).0;
        let v = render(&r, ResultFormat::Mickyyy68, None);
        assert_eq!(v["details"]["error"]["code"], "empty_question");
        let v = render(&r, ResultFormat::Yishan, None);
        assert_eq!(v["details"]["question"], Value::Null);
        assert_eq!(v["details"]["error"]["code"], "invalid_payload");
    }
}

//! The `ask_user` contract: the payload a caller sends and the result pi-ask prints.
//!
//! Field names and shapes follow `docs/contract.md` (sections "Input" and "Output") exactly.
//! [`parse_payload`] turns payload text into a normalized, validated [`Payload`]; the result
//! types serialize to the JSON the contract's "Output" section gives.
//!
//! Both inputs are read here: the payload ([`read_payload`], [`parse_payload`]; `validate.rs`
//! and `rules.rs`) and the `--answers` file ([`read_answers`], [`parse_answers`];
//! `answers_file.rs`), with one JSON walker toolkit (`json.rs`: bounded reading, paths, the
//! unknown-field and typo rule) and one [`Problem`] type whose codes are [`ProblemCode`].
//!
//! Payloads in other systems' formats (mickyyy68/pi-ask, Claude Code, @yishan-io/pi-ask, pi's
//! example questionnaire; docs/dialects.md) are read by [`parse_payload_as`] into the same
//! normalized [`Payload`], through the same walker and input rules (`dialects/`).

mod answers_file;
mod codes;
mod dialects;
mod duplicates;
mod fast;
mod fields;
mod json;
mod rules;
mod validate;

pub use answers_file::{
    parse_answer_request, parse_answers, parse_answers_value, questions_request, read_answers,
    AnswerEntry, AnswerRequest, AnswersFile, RequestRefusal, QUESTIONS_ACTION,
};
pub use codes::{ErrorCode, ProblemCode};
pub use dialects::{
    claude_code_keys, parse_payload_as, parse_value_as, replays_by_label, replays_joined, Dialect,
    InputFormat, Reading,
};
pub use fields::{synopsis, InputOption, InputPayload, InputQuestion};
pub use json::{answers_size_limit, closest, REPLAY_FACTOR};
pub use json::{malformed_json, reading_problem_for_people, Input};
pub(crate) use json::{quoted, read_at_most, without_os_error};
pub use validate::{display_path, parse_payload, parse_payload_value, read_payload, PayloadError};

/// The field names the validator knows, for the schema drift tests in `crate::schema`.
#[cfg(test)]
pub(crate) mod validate_fields {
    pub(crate) use super::fields::{OPTION_FIELDS, PAYLOAD_FIELDS, QUESTION_FIELDS};
}

/// The field names the other formats' readers know, for the schema drift tests in
/// `crate::schema`.
#[cfg(test)]
pub(crate) mod dialect_fields {
    pub(crate) use super::dialects::{
        PI_QUESTION_FIELDS, QUESTIONS_DOCUMENT_FIELDS, QUESTIONS_OPTION_FIELDS,
        QUESTIONS_QUESTION_FIELDS, YISHAN_FIELDS, YISHAN_OPTION_FIELDS,
    };
}

/// The field names the answers-file checker knows, for the schema drift tests in
/// `crate::schema`.
#[cfg(test)]
pub(crate) mod answers_fields {
    pub(crate) use super::answers_file::{
        DOCUMENT_FIELDS, ENTRY_FIELDS, REQUEST_FIELDS, RESULT_FIELDS,
    };
}

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The kind of a question (contract "Input": `type`, default `single`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum QuestionType {
    /// One option, or custom text instead.
    Single,
    /// Any number of options, plus optional custom text appended last.
    Multi,
    /// One option, shown with its preview text; no custom text.
    Preview,
}

impl QuestionType {
    /// The contract's spelling: `single`, `multi` or `preview`.
    pub fn as_str(self) -> &'static str {
        match self {
            QuestionType::Single => "single",
            QuestionType::Multi => "multi",
            QuestionType::Preview => "preview",
        }
    }

    /// Whether the question takes several options (multi-select); single-select and preview
    /// questions take one (contract "Output rules").
    pub fn takes_several(self) -> bool {
        self == QuestionType::Multi
    }

    /// How to answer, in words for people and the calling model: `choose one`, `choose any`,
    /// `choose one, previews below` (docs/plain-mode.md; also the "Needs user input" listing).
    pub fn instruction(self) -> &'static str {
        match self {
            QuestionType::Single => "choose one",
            QuestionType::Multi => "choose any",
            QuestionType::Preview => "choose one, previews below",
        }
    }
}

/// A validated, normalized payload: every input rule holds and every default is filled in.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Payload {
    /// Optional questionnaire title, as given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// At least one question, in the caller's order.
    pub questions: Vec<Question>,
}

/// One normalized question.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Question {
    /// Unique, non-blank id, trimmed (contract "Input rules"; the upstream's normalize).
    pub id: String,
    /// The given label, trimmed, or `Q1`, `Q2`, ... by 1-based position (contract "Input
    /// rules").
    pub label: String,
    /// Whether the payload gave the label (`false`: [`Question::label`] is the `Q1`, `Q2`,
    /// ... fallback, even when a payload's own label reads the same). Not serialized.
    #[serde(skip)]
    pub label_given: bool,
    /// Non-blank prompt text, trimmed.
    pub prompt: String,
    /// `single` unless given.
    #[serde(rename = "type")]
    pub kind: QuestionType,
    /// Metadata only: never blocks submission. `false` unless given.
    pub required: bool,
    /// The custom text is secret (`"secret": true`; docs/contract.md "What pi-ask adds"):
    /// every view shows it as [`crate::ui::view::shown_custom_text`] gives it, the editor
    /// masks it, plain mode reads it without echo; the result carries it. Serialized only
    /// when true.
    #[serde(skip_serializing_if = "is_false")]
    pub secret: bool,
    /// Whether the caller allows an answer in the person's own words: `false` only from
    /// @yishan-io/pi-ask's `allowFreeform: false` or pi's questionnaire `allowOther: false`
    /// (docs/dialects.md); always `true` in the contract's own format. Serialized only when
    /// `false`. Whether a question takes custom text is [`Question::allows_custom_text`].
    #[serde(rename = "allowFreeform", skip_serializing_if = "is_true")]
    pub allow_freeform: bool,
    /// Text shown with the question (@yishan-io/pi-ask's `context`); `None` in the
    /// contract's own format.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
    /// The options, values unique within the question. At least one in the contract's own
    /// format; another format may give none when custom text is allowed: a text-only question
    /// ([`Question::is_text_only`]).
    pub options: Vec<QuestionOption>,
}

fn is_true(b: &bool) -> bool {
    *b
}

impl Question {
    /// The name screens and notices give the question: its label, or its prompt when the
    /// payload gave no label (the `Q1`, `Q2`, ... fallback names nothing).
    pub fn name(&self) -> &str {
        if self.label_given {
            &self.label
        } else {
            &self.prompt
        }
    }

    /// Whether the question takes custom text, the "Type your own" answer: the one rule every
    /// front end, the answer state, the answers file and the question listing ask. Every
    /// question does, preview questions too (the contract's project since v0.6.0: "all
    /// questions get an internal Type your own option"; docs/contract.md "What pi-ask adds"),
    /// except a question whose caller turned free text off ([`Question::allow_freeform`]).
    pub fn allows_custom_text(&self) -> bool {
        self.allow_freeform
    }

    /// The option a front end highlights first: the first option marked `recommended`, else
    /// the first (0). Highlighting never selects: a recommended option is never preselected
    /// (docs/contract.md "What pi-ask adds").
    pub fn first_highlighted(&self) -> usize {
        self.options.iter().position(|o| o.recommended).unwrap_or(0)
    }

    /// Whether the question has no options, so its only answer is custom text (a yishan
    /// question without `options`, docs/dialects.md): the terminal opens the editor at once,
    /// plain mode takes the typed line as the answer.
    pub fn is_text_only(&self) -> bool {
        self.options.is_empty()
    }

    /// How to answer, in words: [`QuestionType::instruction`], or `answer in your own words`
    /// for a text-only question.
    pub fn instruction(&self) -> &'static str {
        if self.is_text_only() {
            "answer in your own words"
        } else {
            self.kind.instruction()
        }
    }
}

/// One option of a question.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct QuestionOption {
    /// Stable machine value, unique within its question; trimmed.
    pub value: String,
    /// Text shown to the person; trimmed.
    pub label: String,
    /// Optional one-line explanation shown under the label; trimmed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Optional preview text, as given (its indentation is content); required on every
    /// option of a `preview` question.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preview: Option<String>,
    /// The caller recommends this option (`"recommended": true`): front ends mark it and
    /// highlight it first ([`Question::first_highlighted`]), never preselect it. Serialized
    /// only when true.
    #[serde(default, skip_serializing_if = "is_false")]
    pub recommended: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// The whole tool result: `{content, details}` (contract "Output").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ToolResult {
    /// Exactly one text item, written for the calling model's transcript.
    #[schemars(length(min = 1, max = 1))]
    pub content: Vec<ContentItem>,
    /// Machine-readable answers.
    pub details: Details,
}

/// One `content` item: `{type: "text", text}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ContentItem {
    /// Always `"text"`.
    #[serde(rename = "type")]
    #[schemars(extend("const" = "text"))]
    pub kind: String,
    /// The text.
    pub text: String,
}

impl ContentItem {
    /// A `{type: "text", text}` item. Control characters, escape sequences and bidirectional
    /// controls in `text` (from the payload, typed or pasted text, a path) are written as
    /// visible escapes (`\e`, `\x07`, `\u{202e}`; line breaks and tabs kept), as every screen
    /// shows them: a caller that prints `content` (a TUI showing the tool's result, a log)
    /// never runs them. `details` keeps every string as it was (docs/interactive.md "The line
    /// editor").
    pub fn text(text: impl Into<String>) -> Self {
        let text = text.into();
        let text = match crate::text::for_terminal(&text) {
            std::borrow::Cow::Borrowed(_) => text,
            std::borrow::Cow::Owned(escaped) => escaped,
        };
        ContentItem {
            kind: "text".to_string(),
            text,
        }
    }
}

/// `details` of a result (contract "Output"), plus `error` when the flow did not run to a
/// submission for a reason other than the person's dismissal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Details {
    /// The payload's title, when it had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// True when the person dismissed the flow, no UI was available, or the payload was invalid.
    pub cancelled: bool,
    /// `"elaborate"` when the person chose Elaborate at the review; absent otherwise, so a
    /// submitted result is exactly the v0.3.0 contract's (docs/contract.md "What pi-ask
    /// adds": Elaborate, from the contract's project v0.4.0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<Mode>,
    /// Normalized metadata of every question, in payload order (empty for an invalid payload).
    pub questions: Vec<QuestionSummary>,
    /// Answers by question id, in question order; unanswered questions are omitted. In an
    /// elaborate result only committed answers (an option or custom text): note-only
    /// questions are in `elaboration.items`.
    pub answers: IndexMap<String, Answer>,
    /// How the next ask should go on (elaborate results only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub continuation: Option<Continuation>,
    /// What the person asked to have elaborated (elaborate results only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elaboration: Option<Elaboration>,
    /// Why there are no answers, when it was not the person's own dismissal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorInfo>,
}

/// `details.mode`: how a completed flow ended. Only `elaborate` is ever written (a submitted
/// result has no `mode`, as in the v0.3.0 contract); `submit` is read back from results of
/// the contract's later versions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// A normal submission.
    Submit,
    /// The person asked the agent to elaborate on their notes before deciding.
    Elaborate,
}

/// `details.continuation` of an elaborate result (the contract's project, "Output rules"):
/// the next ask refines this one rather than starting over.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Continuation {
    /// Always `"refine_only"`.
    #[schemars(extend("const" = "refine_only"))]
    pub strategy: String,
    /// The questions with a note (question or option note): the only ones to revisit.
    pub affected_question_ids: Vec<String>,
    /// Committed answers of questions without notes: keep them, do not ask again.
    pub preserved_answers: IndexMap<String, Answer>,
    /// Every question's state, by id.
    pub question_states: IndexMap<String, QuestionState>,
}

/// One entry of `continuation.questionStates`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct QuestionState {
    /// `answered`, `needs_clarification` (it has a note) or `unanswered`.
    pub status: QuestionStatus,
}

/// `continuation.questionStates[id].status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum QuestionStatus {
    /// A committed answer and no note.
    Answered,
    /// A question note or an option note.
    NeedsClarification,
    /// Neither.
    Unanswered,
}

/// `details.elaboration` of an elaborate result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Elaboration {
    /// What the agent should do first (the contract's project's words,
    /// `result::ELABORATION_INSTRUCTION`).
    pub instruction: String,
    /// Always `"clarify_then_reask"`.
    pub next_action: String,
    /// Every question note and every option note (unselected options too), in question
    /// order, a question's note before its option notes (in option order).
    pub items: Vec<ElaborationItem>,
}

/// One note to elaborate on, with its whole question so references like "above" make sense.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ElaborationItem {
    /// What the note is on.
    pub target: Target,
    /// The normalized question with every option.
    pub question: ElaborationQuestion,
    /// The noted option (option notes only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub option: Option<QuestionOption>,
    /// Whether the noted option is selected (option notes only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selected: Option<bool>,
    /// Whether the question has a committed answer (an option or custom text).
    pub answered: bool,
    /// The committed answer, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<Answer>,
    /// The note.
    pub note: String,
}

/// `elaboration.items[].target`: `{kind: "question"}` or `{kind: "option", optionValue}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Target {
    /// A question note.
    Question,
    /// An option note.
    Option {
        /// The option's value.
        #[serde(rename = "optionValue")]
        option_value: String,
    },
}

/// `elaboration.items[].question`: the question's metadata and every option.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ElaborationQuestion {
    /// Question id.
    pub id: String,
    /// Normalized label.
    pub label: String,
    /// Prompt text.
    pub prompt: String,
    /// Normalized type.
    #[serde(rename = "type")]
    pub kind: QuestionType,
    /// Every option, in order.
    pub options: Vec<QuestionOption>,
}

impl From<&Question> for ElaborationQuestion {
    fn from(q: &Question) -> Self {
        ElaborationQuestion {
            id: q.id.clone(),
            label: q.label.clone(),
            prompt: q.prompt.clone(),
            kind: q.kind,
            options: q.options.clone(),
        }
    }
}

/// `details.questions[]`: `{id, label, prompt, type}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct QuestionSummary {
    /// Question id.
    pub id: String,
    /// Normalized label (given or `Qn`).
    pub label: String,
    /// Prompt text.
    pub prompt: String,
    /// Normalized type.
    #[serde(rename = "type")]
    pub kind: QuestionType,
}

impl From<&Question> for QuestionSummary {
    fn from(q: &Question) -> Self {
        QuestionSummary {
            id: q.id.clone(),
            label: q.label.clone(),
            prompt: q.prompt.clone(),
            kind: q.kind,
        }
    }
}

/// One answered question (contract "Output" and "Output rules").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "camelCase")]
pub struct Answer {
    /// Selected option values in option order, then the custom text (multi) or only the custom
    /// text (single).
    pub values: Vec<String>,
    /// Labels parallel to `values`; the custom text is its own label.
    pub labels: Vec<String>,
    /// 1-based positions of the selected options as rendered; custom text has no index.
    #[schemars(inner(range(min = 1)))]
    pub indices: Vec<usize>,
    /// The free-form answer, when saved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub custom_text: Option<String>,
    /// The question-level note, when written; may exist without a selection.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Notes of selected options only, by option value, in option order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub option_notes: Option<IndexMap<String, String>>,
}

/// `details.error`: a stable machine code, a sentence, and for input errors every problem.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ErrorInfo {
    /// Stable snake_case code, e.g. `invalid_payload`, `no_ui`, `aborted` (see docs/exit-codes.md).
    pub code: ErrorCode,
    /// One sentence a model or person can act on.
    pub message: String,
    /// Every problem found, for `invalid_payload` and `invalid_answers`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<Problem>,
    /// `"invalid_input"` for `invalid_payload` and `invalid_answers`: the contract's project's
    /// error shape since v0.4.0, beside `code`, so callers written against either read it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("const" = "invalid_input"))]
    pub kind: Option<String>,
    /// The problems as that project gives them: `{path, message}` each, in the same order as
    /// `problems`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub issues: Vec<Issue>,
}

/// `details.error.issues[]`: one problem as the contract's project writes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Issue {
    /// JSON path, as in [`Problem::path`].
    pub path: String,
    /// What is wrong, as in [`Problem::message`].
    pub message: String,
}

impl ErrorInfo {
    /// An error without problems: `code` and a `message` sentence.
    pub fn new(code: ErrorCode, message: &str) -> Self {
        ErrorInfo {
            code,
            message: message.to_string(),
            problems: Vec::new(),
            kind: None,
            issues: Vec::new(),
        }
    }

    /// The error for unusable input (`code` is `invalid_payload` or `invalid_answers`):
    /// "invalid ask_user payload: N problems; fix them and call again" (or "invalid answers
    /// file: ..."), with every problem.
    pub fn for_input(code: ErrorCode, problems: Vec<Problem>) -> Self {
        let n = problem_count(&problems);
        let issues = problems
            .iter()
            .map(|p| Issue {
                path: p.path.clone(),
                message: p.message.clone(),
            })
            .collect();
        ErrorInfo {
            code,
            message: format!(
                "invalid {}: {n} problem{}; fix {} and call again",
                Self::input_name(code),
                if n == 1 { "" } else { "s" },
                if n == 1 { "it" } else { "them" }
            ),
            problems,
            kind: Some("invalid_input".to_string()),
            issues,
        }
    }

    /// What the input of an input error is called in its message.
    fn input_name(code: ErrorCode) -> &'static str {
        match code {
            ErrorCode::InvalidAnswers => "answers file",
            _ => "ask_user payload",
        }
    }

    /// For people: the message as a sentence, then [`ErrorInfo::problem_lines`].
    pub fn describe(&self, bullet: &str) -> String {
        let mut text = String::new();
        let mut chars = self.message.chars();
        if let Some(first) = chars.next() {
            text.extend(first.to_uppercase());
            text.push_str(chars.as_str());
        }
        text.push('.');
        text.push_str(&self.problem_lines(bullet));
        text
    }

    /// One line per problem, each starting with a newline: `\n{bullet}{path}: {message}
    /// [{code}]`. A problem of the whole document is at "payload" or "answers file".
    pub fn problem_lines(&self, bullet: &str) -> String {
        let document = match self.code {
            ErrorCode::InvalidAnswers => "answers file",
            _ => "payload",
        };
        let mut text = String::new();
        for p in &self.problems {
            let path = if p.path.is_empty() { document } else { &p.path };
            text.push_str(&format!("\n{bullet}{path}: {} [{}]", p.message, p.code));
        }
        text
    }
}

/// One input problem: a stable snake_case code, the JSON path where it is, and a sentence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Problem {
    /// Stable snake_case code, e.g. `duplicate_option_value` (see docs/exit-codes.md).
    pub code: ProblemCode,
    /// JSON path such as `questions[1].options[0].value`; empty for the document itself.
    pub path: String,
    /// What is wrong and how to fix it.
    pub message: String,
}

impl Problem {
    /// A problem with the given code, path and message.
    pub fn new(code: ProblemCode, path: impl Into<String>, message: impl Into<String>) -> Self {
        Problem {
            code,
            path: path.into(),
            message: message.into(),
        }
    }
}

/// Keeps the first [`MAX_PROBLEMS`](crate::limits::MAX_PROBLEMS) of `problems` (in the order
/// given) and, when there were more, one last `too_many_problems` problem at the document
/// (path `""`) counting the others. A `too_many_problems` problem already in the list (from an
/// earlier call) is taken out and its count added, so a checker may call this as it goes to
/// keep its list short, and again on the whole list. Used for every payload and answers
/// document (docs/exit-codes.md "Problem codes").
pub fn cap_problems(problems: &mut Vec<Problem>) {
    let mut more = 0;
    problems.retain(|p| match more_problems(p) {
        Some(n) => {
            more += n;
            false
        }
        None => true,
    });
    let max = crate::limits::MAX_PROBLEMS;
    if problems.len() > max {
        more += problems.len() - max;
        problems.truncate(max);
    }
    if more > 0 {
        problems.push(Problem::new(
            ProblemCode::TooManyProblems,
            "",
            format!("{MORE_PREFIX}{more}{MORE_SUFFIX}"),
        ));
    }
}

/// How many problems `problems` stands for: each one, plus the ones a `too_many_problems`
/// problem counts.
pub fn problem_count(problems: &[Problem]) -> usize {
    problems.iter().map(|p| more_problems(p).unwrap_or(1)).sum()
}

/// The `too_many_problems` message around its count.
const MORE_PREFIX: &str = "… and ";
const MORE_SUFFIX: &str = " more problems like these; fix the ones above and check again";

/// The count of a `too_many_problems` problem written by [`cap_problems`].
fn more_problems(p: &Problem) -> Option<usize> {
    if p.code != ProblemCode::TooManyProblems {
        return None;
    }
    let count = p
        .message
        .strip_prefix(MORE_PREFIX)?
        .strip_suffix(MORE_SUFFIX)?;
    Some(count.parse().unwrap_or(0))
}

#[cfg(test)]
mod cap_tests {
    use super::*;

    fn numbered(range: std::ops::Range<usize>) -> Vec<Problem> {
        range
            .map(|i| Problem::new(ProblemCode::WrongType, format!("a[{i}]"), "x"))
            .collect()
    }

    #[test]
    fn a_capped_list_capped_again_counts_every_problem_once() {
        let mut problems = numbered(0..250);
        cap_problems(&mut problems);
        assert_eq!(problems.len(), 101);
        assert_eq!(problem_count(&problems), 250);
        problems.extend(numbered(250..260));
        cap_problems(&mut problems);
        assert_eq!(problems[..100], numbered(0..100)[..]);
        assert_eq!(
            problems[100],
            Problem::new(
                ProblemCode::TooManyProblems,
                "",
                "… and 160 more problems like these; fix the ones above and check again"
            )
        );
        let mut few = numbered(0..100);
        cap_problems(&mut few);
        assert_eq!(few, numbered(0..100));
    }
}

//! JSON Schemas of the other payload formats (docs/dialects.md), as their callers write them.
//! The readers in `contract::dialects` walk the same field names; unit tests in `crate::schema`
//! check that the lists agree. A schema cannot say what the rules check (unique ids, values
//! defaulted from labels, ...); `pi-ask validate --input-format FORMAT` does.

use super::InputOption;
use crate::contract::QuestionType;
use schemars::JsonSchema;
use serde::Deserialize;

/// A mickyyy68/pi-ask payload (its README, "Input schema"), also Claude Code's AskUserQuestion
/// input. Their own limits (1-4 questions, 2-5 or 2-4 options, header length) are not in the
/// schema: pi-ask asks anyway unless `--strict`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "mickyyy68/pi-ask payload")]
pub struct QuestionsPayload {
    /// The questions, in order; at least one.
    #[schemars(length(min = 1))]
    pub questions: Vec<QuestionsQuestion>,
}

/// One question of a mickyyy68/pi-ask or Claude Code payload.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct QuestionsQuestion {
    /// Unique id; defaults to `q1`, `q2`, ... by position.
    #[serde(default)]
    #[schemars(regex(pattern = r"\S"))]
    pub id: Option<String>,
    /// Short tab label; defaults to `Q1`, `Q2`, ...
    #[serde(default)]
    #[schemars(regex(pattern = r"\S"))]
    pub header: Option<String>,
    /// The question text; not blank.
    #[schemars(regex(pattern = r"\S"))]
    pub question: String,
    /// Several options may be chosen; defaults to false.
    #[serde(default)]
    pub multi_select: Option<bool>,
    /// The options; values (or labels) unique. None: a question answered in words.
    pub options: Vec<QuestionsOption>,
}

/// One option of a mickyyy68/pi-ask or Claude Code question.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct QuestionsOption {
    /// Stable value; defaults to the trimmed label.
    #[serde(default)]
    #[schemars(regex(pattern = r"\S"))]
    pub value: Option<String>,
    /// Text shown; not blank.
    #[schemars(regex(pattern = r"\S"))]
    pub label: String,
    /// Shown under the label; not blank when given.
    #[serde(default)]
    #[schemars(regex(pattern = r"\S"))]
    pub description: Option<String>,
}

/// A @yishan-io/pi-ask payload: one question (its README, "Parameters").
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[schemars(title = "@yishan-io/pi-ask payload")]
pub struct YishanPayload {
    /// The question; not blank.
    #[schemars(regex(pattern = r"\S"))]
    pub question: String,
    /// Shown with the question; not blank when given.
    #[serde(default)]
    #[schemars(regex(pattern = r"\S"))]
    pub context: Option<String>,
    /// The options; defaults to none (a question answered in words).
    #[serde(default)]
    pub options: Option<Vec<YishanInputOption>>,
    /// Several options may be chosen; defaults to false.
    #[serde(default)]
    pub allow_multiple: Option<bool>,
    /// An answer in the person's own words is allowed; defaults to true.
    #[serde(default)]
    pub allow_freeform: Option<bool>,
}

/// A yishan option: its title, or `{title, description?}`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum YishanInputOption {
    /// The title alone.
    Title(#[schemars(regex(pattern = r"\S"))] String),
    /// A title and a description.
    Object(YishanOptionObject),
}

/// `{title, description?}`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct YishanOptionObject {
    /// Text shown, and the option's value; not blank.
    #[schemars(regex(pattern = r"\S"))]
    pub title: String,
    /// Shown under the title; not blank when given.
    #[serde(default)]
    #[schemars(regex(pattern = r"\S"))]
    pub description: Option<String>,
}

/// pi's example questionnaire (examples/extensions/questionnaire.ts in the pi package): the
/// contract's payload plus `allowOther`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "pi questionnaire payload")]
pub struct PiPayload {
    /// Optional questionnaire title.
    #[serde(default)]
    pub title: Option<String>,
    /// The questions; at least one; ids unique.
    #[schemars(length(min = 1))]
    pub questions: Vec<PiQuestion>,
}

/// One question of pi's example questionnaire.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PiQuestion {
    /// Unique id; not blank.
    #[schemars(regex(pattern = r"\S"))]
    pub id: String,
    /// Short label; defaults to Q1, Q2, ...
    #[serde(default)]
    #[schemars(regex(pattern = r"\S"))]
    pub label: Option<String>,
    /// The question text; not blank.
    #[schemars(regex(pattern = r"\S"))]
    pub prompt: String,
    /// `single` (the default), `multi` or `preview`.
    #[serde(default, rename = "type")]
    pub kind: Option<QuestionType>,
    /// Metadata only; defaults to false.
    #[serde(default)]
    pub required: Option<bool>,
    /// "Type something" is offered; defaults to true.
    #[serde(default)]
    pub allow_other: Option<bool>,
    /// The options; none only when `allowOther` is not false (answered in words).
    pub options: Vec<InputOption>,
}

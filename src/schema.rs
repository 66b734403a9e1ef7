//! JSON Schemas (draft 2020-12) of the payload, the result and the answers file, generated
//! from Rust types with schemars so they cannot drift from the code (`pi-ask schema`).
//!
//! - input: [`InputPayload`], the payload as a caller writes it (contract "Input"; optional
//!   fields optional, unknown fields refused), defined once with its fields in
//!   `contract::fields`; a test compares it with the committed
//!   `tests/fixtures/schema/input.schema.json`, so a change to it is deliberate.
//! - output: [`ToolResult`], the result pi-ask prints.
//! - answers: [`AnswersFile`], the `--answers` file (docs/answers.md).
//!
//! The other formats (docs/dialects.md; `pi-ask schema input|output --format FORMAT`) have
//! their own input schemas (`schema/formats.rs`) and output schemas (the types of
//! `crate::result::formats`); the answers file accepts each format's result.
//!
//! A schema cannot say everything the checks do (unique ids and values, "a single-select
//! question takes one option", option values known to the payload); `pi-ask validate` and the
//! run itself check those.

mod formats;

pub use formats::{
    PiPayload, PiQuestion, QuestionsOption, QuestionsPayload, QuestionsQuestion, YishanInputOption,
    YishanOptionObject, YishanPayload,
};

pub use crate::contract::{InputOption, InputPayload, InputQuestion};

use crate::contract::{
    ContentItem, Continuation, Dialect, Elaboration, ErrorInfo, Mode, QuestionSummary, ToolResult,
};
use crate::result::formats::{ClaudeCodeDetails, Enveloped, MickyyyDetails, YishanResult};
use indexmap::IndexMap;
use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema};
use serde::Deserialize;
use serde_json::Value;

/// Which schema `pi-ask schema` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Which {
    /// The ask_user payload (contract "Input").
    Input,
    /// The result `{content, details}` (contract "Output").
    Output,
    /// The `--answers` file.
    Answers,
    /// What `pi-ask answer` sends to the answer channel: an answers document with the
    /// questionnaire's `id`, `action` and `from`; or a questions request.
    AnswerRequest,
    /// What the answer channel replies.
    AnswerReply,
}

/// An answer request (docs/elsewhere.md "The request"): the answers document of `--answers`
/// with what the channel needs besides. The channel reads it with the answers file's parser.
/// A questions request is `{"action": "questions"}`, its `id` optional.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(title = "pi-ask answer request (the answer channel)")]
#[schemars(extend(
    "additionalProperties" = false,
    "anyOf" = [
        {"required": ["id", "answers"]},
        {"required": ["id", "cancelled"]},
        {"required": ["id", "action"]},
        {"required": ["action"], "properties": {"action": {"const": "questions"}}}
    ]
))]
pub struct AnswerRequest {
    /// The questionnaire's id (`ASK_ANSWER_ID`, `--print-answer-socket`); another's is
    /// refused as `stale`. Required but in a questions request.
    #[serde(default)]
    pub id: Option<String>,
    /// What to do: `submit` (the default), `elaborate` (as `"mode": "elaborate"`) or `cancel`
    /// (as `"cancelled": true`).
    #[serde(default)]
    pub action: Option<RequestAction>,
    /// Who answers, for the transcript line (`Submitted (answered from elsewhere: FROM)`);
    /// one line, cut at 40 characters.
    #[serde(default)]
    pub from: Option<String>,
    /// The answers document, as in an answers file.
    #[serde(flatten)]
    pub document: AnswersDocument,
}

/// An answer request's `action`.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RequestAction {
    /// Submit the answers.
    Submit,
    /// Ask the agent to elaborate (the notes are questions).
    Elaborate,
    /// Cancel: the answers are not sent.
    Cancel,
    /// Answer nothing: reply with the questions waiting (`status` `questions`).
    Questions,
}

/// An `--answers` file: answers by question id, a scripted dismissal, or a recorded result
/// (or its `details`) to replay (docs/answers.md).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
#[schemars(title = "pi-ask answers file")]
pub enum AnswersFile {
    /// A whole recorded result; its `details` are replayed.
    Result(RecordedResult),
    /// Answers by question id (or the `details` of a recorded result).
    Document(AnswersDocument),
    /// A result in another format, or its `details`.
    OtherFormat(OtherResult),
}

/// A recorded result in another format (`--result-format`), or its `details`: replayed to
/// the same answers.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum OtherResult {
    /// mickyyy68/pi-ask.
    Mickyyy68(Enveloped<MickyyyDetails>),
    /// mickyyy68/pi-ask's `details`.
    Mickyyy68Details(MickyyyDetails),
    /// @yishan-io/pi-ask.
    Yishan(Enveloped<YishanResult>),
    /// @yishan-io/pi-ask's `details`: one question's, or an array.
    YishanDetails(YishanResult),
    /// Claude Code AskUserQuestion.
    ClaudeCode(Enveloped<ClaudeCodeDetails>),
    /// Claude Code's `details`.
    ClaudeCodeDetails(ClaudeCodeDetails),
}

/// A recorded result `{content, details}` used as an answers file.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RecordedResult {
    /// Ignored when replaying.
    #[serde(default)]
    pub content: Option<Vec<ContentItem>>,
    /// The answers to replay.
    pub details: AnswersDocument,
}

/// `{"answers": {...}}`, `{"cancelled": true}`, or a result's `details`. At least one of
/// `answers` and `cancelled` is required.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(extend("anyOf" = [{"required": ["answers"]}, {"required": ["cancelled"]}]))]
pub struct AnswersDocument {
    /// Answers by question id; questions left out stay unanswered.
    #[serde(default)]
    pub answers: Option<IndexMap<String, AnswerEntry>>,
    /// `true` scripts a dismissal: the dismissed result, exit 1.
    #[serde(default)]
    pub cancelled: Option<bool>,
    /// `"elaborate"` ends with Elaborate at the review instead of Submit (option notes may
    /// then be on unselected options); `"submit"` (the default) submits.
    #[serde(default)]
    pub mode: Option<Mode>,
    /// Ignored (a recorded result carries it).
    #[serde(default)]
    pub title: Option<String>,
    /// Ignored (a recorded result carries it).
    #[serde(default)]
    pub questions: Option<Vec<QuestionSummary>>,
    /// Ignored (a recorded elaborate result carries it).
    #[serde(default)]
    pub continuation: Option<Continuation>,
    /// The notes of a recorded elaborate result: each item's note is replayed on its question
    /// or option.
    #[serde(default)]
    pub elaboration: Option<Elaboration>,
    /// Ignored (a recorded result may carry it).
    #[serde(default)]
    pub error: Option<ErrorInfo>,
}

/// The answer of one question.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum AnswerEntry {
    /// One option, by value or position.
    One(OptionRef),
    /// Options by value or position; they are kept in the question's option order.
    Many(Vec<OptionRef>),
    /// The full form, also the shape of a recorded answer.
    Full(AnswerObject),
}

/// An option named by its value, or by its 1-based position as a number or `"#N"`. A value
/// that is literally `"#2"` wins over the position.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum OptionRef {
    /// The option's value, or `"#N"`.
    Value(String),
    /// The option's 1-based position.
    Position(#[schemars(range(min = 1))] u64),
}

/// `{values?, customText?, note?, optionNotes?}`, or a recorded answer (its `labels` and
/// `indices` are ignored; when the last of `values` equals `customText` it is the custom text).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AnswerObject {
    /// Selected options; at most one on single-select and preview questions.
    #[serde(default)]
    pub values: Option<Vec<OptionRef>>,
    /// Free-form answer; not on preview questions; on single-select not with an option.
    #[serde(default)]
    #[schemars(regex(pattern = r"\S"))]
    pub custom_text: Option<String>,
    /// Question-level note; may stand alone.
    #[serde(default)]
    #[schemars(regex(pattern = r"\S"))]
    pub note: Option<String>,
    /// Notes of selected options, by option value (or `"#N"`).
    #[serde(default)]
    pub option_notes: Option<IndexMap<String, String>>,
    /// Ignored (a recorded answer carries it).
    #[serde(default)]
    pub labels: Option<Vec<String>>,
    /// Ignored (a recorded answer carries it).
    #[serde(default)]
    pub indices: Option<Vec<u64>>,
}

fn generate<T: JsonSchema>() -> Schema {
    let mut schema = SchemaSettings::draft2020_12()
        .into_generator()
        .into_root_schema_for::<T>();
    if let Some(obj) = schema.as_object_mut() {
        obj.values_mut().for_each(drop_null);
    }
    schema
}

/// The keyword that marks a field whose `null` is meant (yishan's `question`, `context`,
/// `response`): [`drop_null`] keeps it there and removes the keyword.
pub(crate) const KEEP_NULL: &str = "x-pi-ask-null";

/// Removes the `null` that schemars allows for `Option` fields: pi-ask never writes `null`
/// (absent fields are left out) and its parsers refuse it; except where [`KEEP_NULL`] marks
/// a `null` the format writes.
fn drop_null(value: &mut Value) {
    match value {
        Value::Object(obj) if obj.contains_key(KEEP_NULL) => {
            obj.remove(KEEP_NULL);
            obj.values_mut().for_each(drop_null);
        }
        Value::Object(obj) => {
            if obj.get("default") == Some(&Value::Null) {
                obj.remove("default");
            }
            if let Some(Value::Array(types)) = obj.get_mut("type") {
                types.retain(|t| t != "null");
                if types.len() == 1 {
                    let only = types.remove(0);
                    obj.insert("type".to_string(), only);
                }
            }
            for key in ["anyOf", "oneOf"] {
                if let Some(Value::Array(alts)) = obj.get_mut(key) {
                    alts.retain(|a| a.get("type").and_then(Value::as_str) != Some("null"));
                    if alts.len() == 1 {
                        let only = alts.remove(0);
                        obj.remove(key);
                        if let (Value::Object(only), false) = (only, obj.contains_key("$ref")) {
                            for (k, v) in only {
                                obj.entry(k).or_insert(v);
                            }
                        }
                    }
                }
            }
            obj.values_mut().for_each(drop_null);
        }
        Value::Array(items) => items.iter_mut().for_each(drop_null),
        _ => {}
    }
}

/// The JSON Schema for `which`, in the contract's own format.
pub fn schema(which: Which) -> Schema {
    match which {
        Which::Input => generate::<InputPayload>(),
        Which::Output => generate::<ToolResult>(),
        Which::Answers => generate::<AnswersFile>(),
        Which::AnswerRequest => generate::<AnswerRequest>(),
        Which::AnswerReply => generate::<crate::channel::Reply>(),
    }
}

/// The JSON Schema for `which` in `format` (docs/dialects.md). The answers file has one
/// schema for every format.
///
/// Errors: pi's example questionnaire has no result format of its own.
pub fn schema_for(which: Which, format: Dialect) -> Result<Schema, String> {
    let titled = |mut schema: Schema, title: &str| {
        schema.insert("title".to_string(), Value::String(title.to_string()));
        schema
    };
    Ok(match (which, format) {
        (_, Dialect::Contract)
        | (Which::Answers | Which::AnswerRequest | Which::AnswerReply, _) => schema(which),
        (Which::Input, Dialect::Mickyyy68) => generate::<QuestionsPayload>(),
        (Which::Input, Dialect::ClaudeCode) => titled(
            generate::<QuestionsPayload>(),
            "Claude Code AskUserQuestion payload",
        ),
        (Which::Input, Dialect::Yishan) => generate::<YishanPayload>(),
        (Which::Input, Dialect::PiQuestionnaire) => generate::<PiPayload>(),
        (Which::Output, Dialect::Mickyyy68) => titled(
            generate::<Enveloped<MickyyyDetails>>(),
            "pi-ask result (mickyyy68/pi-ask format)",
        ),
        (Which::Output, Dialect::Yishan) => titled(
            generate::<Enveloped<YishanResult>>(),
            "pi-ask result (@yishan-io/pi-ask format)",
        ),
        (Which::Output, Dialect::ClaudeCode) => titled(
            generate::<Enveloped<ClaudeCodeDetails>>(),
            "pi-ask result (Claude Code AskUserQuestion format)",
        ),
        (Which::Output, Dialect::PiQuestionnaire) => {
            return Err(
                "pi's example questionnaire has no result format of its own: its callers read the contract's result (`--format contract`)"
                    .to_string(),
            )
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Property names of `definition` (root when `None`) in a schema.
    fn properties(schema: &Schema, definition: Option<&str>) -> Vec<String> {
        let v = schema.as_value();
        let obj = match definition {
            None => v,
            Some(d) => &v["$defs"][d],
        };
        let mut keys: Vec<String> = obj["properties"]
            .as_object()
            .unwrap_or_else(|| panic!("no properties in {definition:?}: {obj}"))
            .keys()
            .cloned()
            .collect();
        keys.sort();
        keys
    }

    fn sorted(list: &[&str]) -> Vec<String> {
        let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
        v.sort();
        v
    }

    #[test]
    fn input_schema_matches_the_validator_fields() {
        use crate::contract::validate_fields as f;
        let s = schema(Which::Input);
        assert_eq!(properties(&s, None), sorted(f::PAYLOAD_FIELDS));
        assert_eq!(
            properties(&s, Some("InputQuestion")),
            sorted(f::QUESTION_FIELDS)
        );
        assert_eq!(
            properties(&s, Some("InputOption")),
            sorted(f::OPTION_FIELDS)
        );
        assert_eq!(s.as_value()["additionalProperties"], Value::Bool(false));
        assert_eq!(s.as_value()["required"], serde_json::json!(["questions"]));
        assert_eq!(
            s.as_value()["$defs"]["InputQuestion"]["required"],
            serde_json::json!(["id", "prompt", "options"])
        );
    }

    #[test]
    fn other_input_schemas_match_their_readers_fields() {
        use crate::contract::dialect_fields as f;
        use crate::contract::validate_fields as c;
        for format in [Dialect::Mickyyy68, Dialect::ClaudeCode] {
            let s = schema_for(Which::Input, format).unwrap();
            assert_eq!(properties(&s, None), sorted(f::QUESTIONS_DOCUMENT_FIELDS));
            assert_eq!(
                properties(&s, Some("QuestionsQuestion")),
                sorted(f::QUESTIONS_QUESTION_FIELDS)
            );
            assert_eq!(
                properties(&s, Some("QuestionsOption")),
                sorted(f::QUESTIONS_OPTION_FIELDS)
            );
        }
        let s = schema_for(Which::Input, Dialect::Yishan).unwrap();
        assert_eq!(properties(&s, None), sorted(f::YISHAN_FIELDS));
        assert_eq!(
            properties(&s, Some("YishanOptionObject")),
            sorted(f::YISHAN_OPTION_FIELDS)
        );
        let s = schema_for(Which::Input, Dialect::PiQuestionnaire).unwrap();
        assert_eq!(properties(&s, None), sorted(c::PAYLOAD_FIELDS));
        assert_eq!(
            properties(&s, Some("PiQuestion")),
            sorted(f::PI_QUESTION_FIELDS)
        );
        assert_eq!(
            properties(&s, Some("InputOption")),
            sorted(c::OPTION_FIELDS)
        );
    }

    #[test]
    fn every_format_has_an_output_schema_but_pi_questionnaire() {
        for &format in Dialect::ALL {
            let got = schema_for(Which::Output, format);
            assert_eq!(got.is_err(), format == Dialect::PiQuestionnaire, "{format}");
            if let Ok(s) = got {
                assert_eq!(properties(&s, None), vec!["content", "details"], "{format}");
                assert!(!s.as_value().to_string().contains(KEEP_NULL), "{format}");
            }
        }
        assert_eq!(
            schema_for(Which::Answers, Dialect::Yishan).unwrap(),
            schema(Which::Answers)
        );
    }

    #[test]
    fn answers_schema_matches_the_answers_parser_fields() {
        use crate::contract::answers_fields as sc;
        let s = schema(Which::Answers);
        assert_eq!(
            properties(&s, Some("AnswersDocument")),
            sorted(sc::DOCUMENT_FIELDS)
        );
        assert_eq!(
            properties(&s, Some("RecordedResult")),
            sorted(sc::RESULT_FIELDS)
        );
        assert_eq!(
            properties(&s, Some("AnswerObject")),
            sorted(sc::ENTRY_FIELDS)
        );
    }

    #[test]
    fn the_answer_request_is_an_answers_document_and_the_channels_fields() {
        use crate::contract::answers_fields as sc;
        let s = schema(Which::AnswerRequest);
        let mut fields: Vec<&str> = sc::DOCUMENT_FIELDS.to_vec();
        fields.extend(sc::REQUEST_FIELDS);
        assert_eq!(properties(&s, None), sorted(&fields));
        let reply = schema(Which::AnswerReply);
        assert_eq!(
            properties(&reply, None),
            sorted(&["status", "message", "problems", "id", "title", "questions"])
        );
        let statuses = serde_json::to_value(&reply).unwrap();
        assert_eq!(
            statuses["$defs"]["Status"]["oneOf"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v["const"].as_str().unwrap_or_default().to_string())
                .collect::<Vec<_>>(),
            [
                "ok",
                "invalid",
                "stale",
                "already_answered",
                "busy",
                "questions"
            ]
        );
    }

    #[test]
    fn output_schema_names_the_contract_fields() {
        let s = schema(Which::Output);
        assert_eq!(properties(&s, None), vec!["content", "details"]);
        assert_eq!(
            properties(&s, Some("Answer")),
            sorted(&[
                "values",
                "labels",
                "indices",
                "customText",
                "note",
                "optionNotes"
            ])
        );
        assert_eq!(
            properties(&s, Some("Details")),
            sorted(&[
                "title",
                "cancelled",
                "mode",
                "questions",
                "answers",
                "continuation",
                "elaboration",
                "error"
            ])
        );
    }
}

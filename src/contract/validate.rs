//! Payload parsing, normalization and validation (contract "Input rules").
//!
//! The payload is parsed to a JSON value first, then walked by hand so that every problem is
//! reported at once with a stable code and its JSON path, and unknown fields are reported (with
//! the nearest known field) instead of being dropped.

use super::json::{self, join_path as join, kind_of, malformed_json, Alias, Shape};
use super::rules::{self, Field, RawOption, RawPayload, RawQuestion};
use super::{Payload, Problem, ProblemCode};
use serde_json::{Map, Value};
use std::fmt;
use std::path::Path;

/// Why a payload was refused: every problem found, ordered by where they are (see `finish`).
#[derive(Debug, Clone, PartialEq)]
pub struct PayloadError {
    /// The payload's `title` when it was a string, so an error result can still carry it.
    pub title: Option<String>,
    /// Never empty.
    pub problems: Vec<Problem>,
}

impl fmt::Display for PayloadError {
    /// The same sentence and problem lines as the result's `content` (`ErrorInfo::describe`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let error =
            super::ErrorInfo::for_input(super::ErrorCode::InvalidPayload, self.problems.clone());
        writeln!(f, "{}", error.describe("  "))
    }
}

impl std::error::Error for PayloadError {}

/// A problem path for people: `payload` for the document itself, else the path as given.
pub fn display_path(path: &str) -> &str {
    if path.is_empty() {
        "payload"
    } else {
        path
    }
}

/// Reads at most `limit` bytes of payload from `path` (`-` for stdin).
///
/// Errors: a `payload_too_large`, `unreadable_payload` or `malformed_json` (empty, not
/// UTF-8) problem (path: the document).
pub fn read_payload(path: &Path, limit: u64) -> Result<String, Problem> {
    json::read_limited(path, limit, json::Input::Payload)
}

/// Parses payload text (JSON) into a normalized [`Payload`].
///
/// Errors: malformed JSON gives one `malformed_json` problem with line and column; otherwise
/// every violated input rule gives one problem (codes listed in `docs/contract-notes.md`).
pub fn parse_payload(text: &str) -> Result<Payload, PayloadError> {
    // Well-formed payloads take the typed fast path (fast.rs); the walker reads the rest.
    if let Some(raw) = super::fast::read(text) {
        let title = match &raw.title {
            Field::Given(t) => Some(t.clone()),
            _ => None,
        };
        return finish(raw, Vec::new()).map_err(|problems| PayloadError { title, problems });
    }
    let value: Value = serde_json::from_str(text).map_err(|e| PayloadError {
        title: None,
        problems: vec![malformed_json(&e)],
    })?;
    parse_payload_value(&value)
}

pub(crate) const PAYLOAD_FIELDS: &[&str] = &["title", "questions"];
pub(crate) const QUESTION_FIELDS: &[&str] =
    &["id", "label", "prompt", "type", "required", "options"];
pub(crate) const OPTION_FIELDS: &[&str] = &["value", "label", "description", "preview"];

/// The payload object.
const PAYLOAD: Shape = Shape {
    known: PAYLOAD_FIELDS,
    noun: "the payload",
    aliases: |field| match field {
        "question" | "prompts" | "items" => Some(Alias::Field("questions")),
        "header" | "label" | "name" => Some(Alias::Field("title")),
        _ => None,
    },
};

/// A question object.
const QUESTION: Shape = Shape {
    known: QUESTION_FIELDS,
    noun: "a question",
    aliases: |field| match field {
        "question" | "text" | "message" | "prompt_text" => Some(Alias::Field("prompt")),
        "header" | "title" | "name" => Some(Alias::Field("label")),
        "multiSelect" | "multi_select" | "multiple" | "allowMultiple" => {
            Some(Alias::Advice("use `type: \"multi\"` instead"))
        }
        "choices" | "answers" | "items" => Some(Alias::Field("options")),
        _ => None,
    },
};

/// An option object.
const OPTION: Shape = Shape {
    known: OPTION_FIELDS,
    noun: "an option",
    aliases: |field| match field {
        "title" | "name" | "text" => Some(Alias::Field("label")),
        "id" | "key" => Some(Alias::Field("value")),
        "desc" | "detail" | "details" | "hint" => Some(Alias::Field("description")),
        _ => None,
    },
};

/// Reads the structure of a payload value: reports unknown fields and wrong JSON types, and
/// hands every field over to the input rules (`rules.rs`) as given, missing or invalid.
struct Walker {
    problems: Vec<Problem>,
}

impl Walker {
    fn push(&mut self, code: ProblemCode, path: impl Into<String>, message: impl Into<String>) {
        self.problems.push(Problem::new(code, path, message));
    }

    fn unknown_fields(&mut self, obj: &Map<String, Value>, shape: &Shape, base: &str) {
        json::unknown_fields(obj, shape, base, &mut self.problems);
    }

    /// A field of the expected JSON type, read by `read`; `Invalid` (reported) otherwise.
    fn field<T>(
        &mut self,
        obj: &Map<String, Value>,
        key: &str,
        base: &str,
        expected: &str,
        read: impl FnOnce(&mut Self, &Value) -> Option<T>,
    ) -> Field<T> {
        let Some(v) = obj.get(key) else {
            return Field::Missing;
        };
        match read(self, v) {
            Some(t) => Field::Given(t),
            None => {
                self.push(
                    ProblemCode::WrongType,
                    join(base, key),
                    format!("`{key}` must be {expected}, not {}", kind_of(v)),
                );
                Field::Invalid
            }
        }
    }

    fn string(&mut self, obj: &Map<String, Value>, key: &str, base: &str) -> Field<String> {
        self.field(obj, key, base, "a string", |_, v| {
            v.as_str().map(str::to_string)
        })
    }

    /// An array whose items are read by `item` (`None` for an item that is not an object,
    /// reported by `item`).
    fn array<T>(
        &mut self,
        obj: &Map<String, Value>,
        key: &str,
        base: &str,
        mut item: impl FnMut(&mut Self, &Value, String) -> Option<T>,
    ) -> Field<Vec<Option<T>>> {
        let path = join(base, key);
        self.field(obj, key, base, "an array", |w, v| {
            let items = v.as_array()?;
            Some(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, v)| item(w, v, format!("{path}[{i}]")))
                    .collect(),
            )
        })
    }

    fn object<'v>(
        &mut self,
        v: &'v Value,
        path: &str,
        what: &str,
    ) -> Option<&'v Map<String, Value>> {
        let obj = v.as_object();
        if obj.is_none() {
            self.push(
                ProblemCode::WrongType,
                path,
                format!("{what} must be an object, not {}", kind_of(v)),
            );
        }
        obj
    }

    fn question(&mut self, v: &Value, base: String) -> Option<RawQuestion> {
        let obj = self.object(v, &base, "a question")?;
        self.unknown_fields(obj, &QUESTION, &base);
        Some(RawQuestion {
            id: self.string(obj, "id", &base),
            label: self.string(obj, "label", &base),
            prompt: self.string(obj, "prompt", &base),
            kind: self.field(
                obj,
                "type",
                &base,
                "the string \"single\", \"multi\" or \"preview\"",
                |_, v| v.as_str().map(str::to_string),
            ),
            required: self.field(obj, "required", &base, "true or false", |_, v| v.as_bool()),
            options: self.array(obj, "options", &base, Walker::option),
        })
    }

    fn option(&mut self, v: &Value, base: String) -> Option<RawOption> {
        let obj = self.object(
            v,
            &base,
            "an option (like {\"value\": \"...\", \"label\": \"...\"})",
        )?;
        self.unknown_fields(obj, &OPTION, &base);
        Some(RawOption {
            value: self.string(obj, "value", &base),
            label: self.string(obj, "label", &base),
            description: self.string(obj, "description", &base),
            preview: self.string(obj, "preview", &base),
        })
    }
}

/// Validates and normalizes an already-parsed payload value. See [`parse_payload`].
pub fn parse_payload_value(value: &Value) -> Result<Payload, PayloadError> {
    let mut w = Walker {
        problems: Vec::new(),
    };
    let Some(obj) = value.as_object() else {
        return Err(PayloadError {
            title: None,
            problems: vec![Problem::new(
                ProblemCode::WrongType,
                "",
                format!(
                    "the payload must be a JSON object like {{\"questions\": [...]}}, not {}",
                    kind_of(value)
                ),
            )],
        });
    };
    w.unknown_fields(obj, &PAYLOAD, "");
    let raw = RawPayload {
        title: w.string(obj, "title", ""),
        questions: w.array(obj, "questions", "", Walker::question),
    };
    let title = match &raw.title {
        Field::Given(t) => Some(t.clone()),
        _ => None,
    };
    finish(raw, w.problems).map_err(|problems| PayloadError { title, problems })
}

/// Runs the input rules after the reader's own `problems`, and puts all problems in
/// document order (payload fields, then each question, its fields before its options).
pub(super) fn finish(raw: RawPayload, mut problems: Vec<Problem>) -> Result<Payload, Vec<Problem>> {
    match rules::normalize(raw, &mut problems) {
        Some(payload) => Ok(payload),
        None => {
            problems.sort_by_cached_key(|p| document_order(&p.path));
            Err(problems)
        }
    }
}

/// A sort key in document order: per path segment the field's rank in the contract's
/// field order (unknown names after the known ones), then its array indices, so
/// `title` < `questions[0].id` < `questions[0].options[1].value` < `questions[1]`.
fn document_order(path: &str) -> Vec<usize> {
    const ORDER: &[&str] = &[
        "title",
        "questions",
        "id",
        "label",
        "prompt",
        "type",
        "required",
        "options",
        "value",
        "description",
        "preview",
    ];
    let mut key = Vec::new();
    for segment in path.split('.').filter(|s| !s.is_empty()) {
        let (name, rest) = segment.split_once('[').unwrap_or((segment, ""));
        if !name.is_empty() {
            key.push(ORDER.iter().position(|k| *k == name).unwrap_or(ORDER.len()));
        }
        key.extend(
            rest.split('[')
                .filter_map(|part| part.split(']').next()?.parse::<usize>().ok()),
        );
    }
    key
}

#[cfg(test)]
mod tests {
    //! One test per input rule of the contract ("Input rules"), plus the problem codes pi-ask
    //! adds (unknown fields, wrong types, malformed JSON).
    use super::*;
    use crate::contract::QuestionType;
    use serde_json::json;

    fn problems(v: serde_json::Value) -> Vec<(ProblemCode, String)> {
        parse_payload_value(&v)
            .unwrap_err()
            .problems
            .into_iter()
            .map(|p| (p.code, p.path))
            .collect()
    }

    fn q(extra: serde_json::Value) -> serde_json::Value {
        let mut base =
            json!({"id": "q", "prompt": "Pick?", "options": [{"value": "a", "label": "A"}]});
        for (k, v) in extra.as_object().unwrap() {
            base[k] = v.clone();
        }
        base
    }

    fn pair(code: ProblemCode, path: &str) -> Vec<(ProblemCode, String)> {
        vec![(code, path.to_string())]
    }

    #[test]
    fn at_least_one_question_is_required() {
        assert_eq!(
            problems(json!({"questions": []})),
            pair(ProblemCode::NoQuestions, "questions")
        );
        assert_eq!(
            problems(json!({})),
            pair(ProblemCode::MissingField, "questions")
        );
    }

    #[test]
    fn id_and_prompt_must_be_non_empty_after_trimming() {
        assert_eq!(
            problems(json!({"questions": [q(json!({"id": "  "}))]})),
            pair(ProblemCode::EmptyQuestionId, "questions[0].id")
        );
        assert_eq!(
            problems(json!({"questions": [q(json!({"prompt": "\t"}))]})),
            pair(ProblemCode::EmptyPrompt, "questions[0].prompt")
        );
    }

    #[test]
    fn every_question_needs_an_option() {
        assert_eq!(
            problems(json!({"questions": [q(json!({"options": []}))]})),
            pair(ProblemCode::NoOptions, "questions[0].options")
        );
    }

    #[test]
    fn question_ids_are_unique() {
        assert_eq!(
            problems(json!({"questions": [q(json!({})), q(json!({}))]})),
            pair(ProblemCode::DuplicateQuestionId, "questions[1].id")
        );
    }

    #[test]
    fn option_values_are_unique_within_a_question() {
        let opts = json!([{"value": "a", "label": "A"}, {"value": "b", "label": "B"}, {"value": "a", "label": "C"}]);
        assert_eq!(
            problems(json!({"questions": [q(json!({"options": opts}))]})),
            pair(
                ProblemCode::DuplicateOptionValue,
                "questions[0].options[2].value"
            )
        );
        // The same value in two questions is fine.
        assert!(
            parse_payload_value(&json!({"questions": [q(json!({})), q(json!({"id": "r"}))]}))
                .is_ok()
        );
    }

    #[test]
    fn optional_fields_must_not_be_blank() {
        assert_eq!(
            problems(json!({"questions": [q(json!({"label": " "}))]})),
            pair(ProblemCode::BlankLabel, "questions[0].label")
        );
        let opts = json!([{"value": "a", "label": "A", "description": "", "preview": "  "}]);
        assert_eq!(
            problems(json!({"questions": [q(json!({"options": opts}))]})),
            vec![
                (
                    ProblemCode::BlankDescription,
                    "questions[0].options[0].description".to_string()
                ),
                (
                    ProblemCode::BlankPreview,
                    "questions[0].options[0].preview".to_string()
                ),
            ]
        );
    }

    #[test]
    fn label_falls_back_to_q_and_position() {
        let p = parse_payload_value(
            &json!({"questions": [q(json!({"label": "First"})), q(json!({"id": "r"}))]}),
        )
        .unwrap();
        assert_eq!(p.questions[0].label, "First");
        assert_eq!(p.questions[1].label, "Q2");
    }

    #[test]
    fn type_defaults_to_single_and_required_to_false() {
        let p = parse_payload_value(&json!({"questions": [q(json!({}))]})).unwrap();
        assert_eq!(p.questions[0].kind, QuestionType::Single);
        assert!(!p.questions[0].required);
        let p = parse_payload_value(
            &json!({"questions": [q(json!({"type": "multi", "required": true}))]}),
        )
        .unwrap();
        assert_eq!(p.questions[0].kind, QuestionType::Multi);
        assert!(p.questions[0].required);
    }

    #[test]
    fn preview_questions_need_preview_text_on_every_option() {
        let opts =
            json!([{"value": "a", "label": "A", "preview": "x"}, {"value": "b", "label": "B"}]);
        assert_eq!(
            problems(json!({"questions": [q(json!({"type": "preview", "options": opts}))]})),
            pair(
                ProblemCode::MissingPreview,
                "questions[0].options[1].preview"
            )
        );
    }

    #[test]
    fn unknown_type_is_named() {
        assert_eq!(
            problems(json!({"questions": [q(json!({"type": "checkbox"}))]})),
            pair(ProblemCode::InvalidType, "questions[0].type")
        );
    }

    #[test]
    fn unknown_fields_suggest_the_nearest_known_field() {
        let err =
            parse_payload_value(&json!({"questions": [q(json!({"question": "x", "optons": []}))]}))
                .unwrap_err();
        let msgs: Vec<_> = err
            .problems
            .iter()
            .map(|p| (p.path.as_str(), p.message.as_str()))
            .collect();
        assert_eq!(
            msgs,
            vec![
                (
                    "questions[0].question",
                    "`question` is not a field of a question; did you mean `prompt`?"
                ),
                (
                    "questions[0].optons",
                    "`optons` is not a field of a question; did you mean `options`?"
                ),
            ]
        );
    }

    #[test]
    fn option_value_and_label_are_required_and_non_empty() {
        let opts =
            json!([{"label": "A"}, {"value": "b", "label": ""}, {"value": " ", "label": "C"}]);
        assert_eq!(
            problems(json!({"questions": [q(json!({"options": opts}))]})),
            vec![
                (
                    ProblemCode::MissingField,
                    "questions[0].options[0].value".to_string()
                ),
                (
                    ProblemCode::EmptyOptionLabel,
                    "questions[0].options[1].label".to_string()
                ),
                (
                    ProblemCode::EmptyOptionValue,
                    "questions[0].options[2].value".to_string()
                ),
            ]
        );
    }

    #[test]
    fn wrong_types_are_reported_with_their_path() {
        assert_eq!(problems(json!([1])), pair(ProblemCode::WrongType, ""));
        assert_eq!(
            problems(
                json!({"title": 3, "questions": [q(json!({"required": "yes", "options": "a"}))]})
            ),
            vec![
                (ProblemCode::WrongType, "title".to_string()),
                (ProblemCode::WrongType, "questions[0].required".to_string()),
                (ProblemCode::WrongType, "questions[0].options".to_string()),
            ]
        );
    }

    #[test]
    fn all_problems_are_reported_at_once() {
        let v = json!({"questions": [
            {"id": "", "prompt": "", "options": []},
            {"id": "b", "prompt": "ok", "options": [{"value": "v", "label": "L"}, {"value": "v", "label": ""}]}
        ]});
        assert_eq!(problems(v).len(), 5);
    }

    #[test]
    fn malformed_json_gives_line_and_column() {
        let err = parse_payload("{\n  \"questions\": [,]\n}").unwrap_err();
        assert_eq!(err.problems.len(), 1);
        assert_eq!(err.problems[0].code, ProblemCode::MalformedJson);
        assert!(
            err.problems[0]
                .message
                .starts_with("not valid JSON at line 2, column 17:"),
            "{}",
            err.problems[0].message
        );
    }

    #[test]
    fn values_are_kept_exactly_as_given() {
        let p = parse_payload_value(
            &json!({"title": " T ", "questions": [q(json!({"id": " q1 ", "prompt": " P "}))]}),
        )
        .unwrap();
        assert_eq!(p.title.as_deref(), Some(" T "));
        assert_eq!(p.questions[0].id, " q1 ");
        assert_eq!(p.questions[0].prompt, " P ");
    }
}

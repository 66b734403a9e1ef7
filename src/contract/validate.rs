//! Payload parsing, normalization and validation (contract "Input rules").
//!
//! The payload is parsed to a JSON value first, then walked by hand so that every problem is
//! reported at once with a stable code and its JSON path, and unknown fields are reported (with
//! the nearest known field) instead of being dropped.

use super::fields::{OPTION_FIELDS, PAYLOAD_FIELDS, QUESTION_FIELDS};
use super::json::{self, join_path as join, kind_of, malformed_json, Alias, Shape};
use super::rules::{self, Field, RawOption, RawPayload, RawQuestion, Spelling};
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
    if let Some(parsed) = parse_fast(text) {
        return parsed;
    }
    let value: Value = serde_json::from_str(text).map_err(|e| PayloadError {
        title: None,
        problems: vec![malformed_json(&e)],
    })?;
    parse_payload_value(&value)
}

/// The typed fast path (fast.rs): `None` when `text` is not a well-formed contract payload
/// (the walker must read it).
pub(super) fn parse_fast(text: &str) -> Option<Result<Payload, PayloadError>> {
    let raw = super::fast::read(text)?;
    let title = match &raw.title {
        Field::Given(t) => Some(t.clone()),
        _ => None,
    };
    Some(
        finish(raw, &rules::CONTRACT, Vec::new())
            .map_err(|problems| PayloadError { title, problems }),
    )
}

/// The payload object.
pub(super) const PAYLOAD: Shape = Shape {
    known: PAYLOAD_FIELDS,
    noun: "the payload",
    aliases: |field| match field {
        "question" | "prompts" | "items" => Some(Alias::Field("questions")),
        "header" | "label" | "name" => Some(Alias::Field("title")),
        _ => None,
    },
};

/// A question object.
pub(super) const QUESTION: Shape = Shape {
    known: QUESTION_FIELDS,
    noun: "a question",
    aliases: |field| match field {
        "question" | "text" | "message" | "prompt_text" => Some(Alias::Field("prompt")),
        "header" | "title" | "name" => Some(Alias::Field("label")),
        "isSecret" | "is_secret" | "password" | "masked" => Some(Alias::Field("secret")),
        "multiSelect" | "multi_select" | "multiple" | "allowMultiple" => {
            Some(Alias::Advice("use `type: \"multi\"` instead"))
        }
        "choices" | "answers" | "items" => Some(Alias::Field("options")),
        _ => None,
    },
};

/// An option object.
pub(super) const OPTION: Shape = Shape {
    known: OPTION_FIELDS,
    noun: "an option",
    aliases: |field| match field {
        "title" | "name" | "text" => Some(Alias::Field("label")),
        "id" | "key" => Some(Alias::Field("value")),
        "desc" | "detail" | "details" | "hint" => Some(Alias::Field("description")),
        _ => None,
    },
};

/// How a format gives the question type.
#[derive(Debug, Clone, Copy)]
pub(super) enum KindField {
    /// The contract's `type`: `"single"`, `"multi"` or `"preview"`.
    Type,
    /// A boolean that makes the question multi-select (`multiSelect`, `allowMultiple`).
    Multi(&'static str),
}

/// A payload format as the walker reads it: its objects (for the unknown-field rule), the
/// fields only some formats have, and its [`Spelling`] (for the input rules). The contract's
/// own is [`CONTRACT`]; the others are in `dialects`.
pub(super) struct Format {
    /// Field names and defaults, for the input rules.
    pub spelling: Spelling,
    /// The top-level object (for a format whose document is the one question, that question).
    pub document: Shape,
    /// A question object.
    pub question: Shape,
    /// An option object.
    pub option: Shape,
    /// The questionnaire title.
    pub title: Option<&'static str>,
    /// How the question type is given.
    pub kind: KindField,
    /// The `required` flag.
    pub required: Option<&'static str>,
    /// Options may have `preview` text.
    pub preview: bool,
    /// Options may be bare strings (yishan's `options: string[]`).
    pub bare_options: bool,
    /// An option as an example for messages.
    pub option_example: &'static str,
}

/// The contract's own format (docs/contract.md "Input").
pub(super) const CONTRACT: Format = Format {
    spelling: rules::CONTRACT,
    document: PAYLOAD,
    question: QUESTION,
    option: OPTION,
    title: Some("title"),
    kind: KindField::Type,
    required: Some("required"),
    preview: true,
    bare_options: false,
    option_example: "{\"value\": \"...\", \"label\": \"...\"}",
};

/// Reads the structure of a payload value: reports unknown fields and wrong JSON types, and
/// hands every field over to the input rules (`rules.rs`) as given, missing or invalid.
struct Walker<'f> {
    format: &'f Format,
    problems: Vec<Problem>,
}

impl Walker<'_> {
    fn push(&mut self, code: ProblemCode, path: impl Into<String>, message: impl Into<String>) {
        self.problems.push(Problem::new(code, path, message));
        self.keep_few();
    }

    /// Keeps the list short as it grows (`cap_problems` on the problems so far, in document
    /// order): a payload of a million bad options holds a few hundred problems at most.
    fn keep_few(&mut self) {
        if self.problems.len() > 2 * crate::limits::MAX_PROBLEMS {
            sort_problems(&mut self.problems, &self.format.spelling);
            super::cap_problems(&mut self.problems);
        }
    }

    fn unknown_fields(&mut self, obj: &Map<String, Value>, shape: &Shape, base: &str) {
        json::unknown_fields(obj, shape, base, &mut self.problems);
        self.keep_few();
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

    fn boolean(&mut self, obj: &Map<String, Value>, key: &str, base: &str) -> Field<bool> {
        self.field(obj, key, base, "true or false", |_, v| v.as_bool())
    }

    /// The string field `key` when the format has it, else `Missing`.
    fn string_if(
        &mut self,
        obj: &Map<String, Value>,
        key: Option<&str>,
        base: &str,
    ) -> Field<String> {
        key.map_or(Field::Missing, |k| self.string(obj, k, base))
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
        let object = json::object(v, path, what, &mut self.problems);
        self.keep_few();
        object
    }

    fn question(&mut self, v: &Value, base: String) -> Option<RawQuestion> {
        let obj = self.object(v, &base, "a question")?;
        let shape = &self.format.question;
        self.unknown_fields(obj, shape, &base);
        Some(self.question_fields(obj, &base))
    }

    /// The fields of a question object (already checked for unknown fields).
    fn question_fields(&mut self, obj: &Map<String, Value>, base: &str) -> RawQuestion {
        let f = self.format;
        let s = &f.spelling;
        RawQuestion {
            id: self.string_if(obj, s.id.map(|n| n.0), base),
            label: self.string_if(obj, s.label.map(|n| n.0), base),
            prompt: self.string(obj, s.prompt.0, base),
            kind: match f.kind {
                KindField::Type => self.field(
                    obj,
                    s.kind,
                    base,
                    "the string \"single\", \"multi\" or \"preview\"",
                    |_, v| v.as_str().map(str::to_string),
                ),
                KindField::Multi(key) => match self.boolean(obj, key, base) {
                    Field::Given(multi) => {
                        Field::Given(if multi { "multi" } else { "single" }.to_string())
                    }
                    Field::Missing => Field::Missing,
                    Field::Invalid => Field::Invalid,
                },
            },
            required: f
                .required
                .map_or(Field::Missing, |k| self.boolean(obj, k, base)),
            secret: if f.question.known.contains(&"secret") {
                self.boolean(obj, "secret", base)
            } else {
                Field::Missing
            },
            freeform: s
                .freeform
                .map_or(Field::Missing, |k| self.boolean(obj, k, base)),
            context: self.string_if(obj, s.context.map(|n| n.0), base),
            options: self.array(obj, s.options, base, Walker::option),
        }
    }

    fn option(&mut self, v: &Value, base: String) -> Option<RawOption> {
        let f = self.format;
        if let (true, Some(label)) = (f.bare_options, v.as_str()) {
            return Some(RawOption {
                value: Field::Missing,
                label: Field::Given(label.to_string()),
                description: Field::Missing,
                preview: Field::Missing,
                recommended: Field::Missing,
                bare: true,
            });
        }
        let what = format!(
            "an option (like {}{})",
            f.option_example,
            if f.bare_options { " or a string" } else { "" }
        );
        let obj = self.object(v, &base, &what)?;
        self.unknown_fields(obj, &f.option, &base);
        let s = &f.spelling;
        Some(RawOption {
            value: self.string_if(obj, s.value.map(|n| n.0), &base),
            label: self.string(obj, s.option_label.0, &base),
            description: self.string(obj, "description", &base),
            preview: self.string_if(obj, f.preview.then_some("preview"), &base),
            recommended: if f.option.known.contains(&"recommended") {
                self.boolean(obj, "recommended", &base)
            } else {
                Field::Missing
            },
            bare: false,
        })
    }
}

/// Validates and normalizes an already-parsed payload value. See [`parse_payload`].
pub fn parse_payload_value(value: &Value) -> Result<Payload, PayloadError> {
    parse_value_as(value, &CONTRACT)
}

/// Validates and normalizes a payload value read as `format`: its structure by the walker,
/// then the input rules (`rules.rs`) with the format's spelling.
pub(super) fn parse_value_as(value: &Value, format: &Format) -> Result<Payload, PayloadError> {
    let mut w = Walker {
        format,
        problems: Vec::new(),
    };
    let Some(obj) = value.as_object() else {
        let like = match format.spelling.questions {
            Some(key) => format!("{{\"{key}\": [...]}}"),
            None => format!("{{\"{}\": \"...\"}}", format.spelling.prompt.0),
        };
        return Err(PayloadError {
            title: None,
            problems: vec![Problem::new(
                ProblemCode::WrongType,
                "",
                format!(
                    "the payload must be a JSON object like {like}, not {}",
                    kind_of(value)
                ),
            )],
        });
    };
    w.unknown_fields(obj, &format.document, "");
    let title = w.string_if(obj, format.title, "");
    let questions = match format.spelling.questions {
        Some(key) => w.array(obj, key, "", Walker::question),
        None => Field::Given(vec![Some(w.question_fields(obj, ""))]),
    };
    let raw = RawPayload { title, questions };
    let title = match &raw.title {
        Field::Given(t) => Some(t.clone()),
        _ => None,
    };
    finish(raw, &format.spelling, w.problems).map_err(|problems| PayloadError { title, problems })
}

/// Runs the input rules after the reader's own `problems`, and puts all problems in
/// document order (payload fields, then each question, its fields before its options), the
/// first [`MAX_PROBLEMS`](crate::limits::MAX_PROBLEMS) of them (`cap_problems`).
pub(super) fn finish(
    raw: RawPayload,
    spelling: &Spelling,
    mut problems: Vec<Problem>,
) -> Result<Payload, Vec<Problem>> {
    match rules::normalize(raw, spelling, &mut problems) {
        Some(payload) => Ok(payload),
        None => {
            sort_problems(&mut problems, spelling);
            super::cap_problems(&mut problems);
            Err(problems)
        }
    }
}

/// Puts problems in document order for a format's field order (see [`document_order`]),
/// a `too_many_problems` problem last (it counts the ones after those listed).
pub(super) fn sort_problems(problems: &mut [Problem], spelling: &Spelling) {
    problems.sort_by_cached_key(|p| {
        (
            p.code == ProblemCode::TooManyProblems,
            document_order(&p.path, spelling.order),
        )
    });
}

/// A sort key in document order: per path segment the field's rank in the contract's
/// field order (`order`; unknown names after the known ones), then its array indices, so
/// `title` < `questions[0].id` < `questions[0].options[1].value` < `questions[1]`.
fn document_order(path: &str, order: &[&str]) -> Vec<usize> {
    let mut key = Vec::new();
    for segment in path.split('.').filter(|s| !s.is_empty()) {
        let (name, rest) = segment.split_once('[').unwrap_or((segment, ""));
        if !name.is_empty() {
            key.push(order.iter().position(|k| *k == name).unwrap_or(order.len()));
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
    fn text_is_trimmed_but_the_title_and_previews_are_kept_as_given() {
        let p = parse_payload_value(&json!({"title": " T ", "questions": [
            {"id": " q1 ", "label": " L ", "prompt": " P ", "type": "preview", "options": [
                {"value": " v ", "label": " V ", "description": " d ", "preview": "  +--+\n"}]}]}))
        .unwrap();
        assert_eq!(p.title.as_deref(), Some(" T "));
        let q = &p.questions[0];
        assert_eq!(
            (q.id.as_str(), q.label.as_str(), q.prompt.as_str()),
            ("q1", "L", "P")
        );
        let o = &q.options[0];
        assert_eq!(
            (o.value.as_str(), o.label.as_str(), o.description.as_deref()),
            ("v", "V", Some("d"))
        );
        assert_eq!(o.preview.as_deref(), Some("  +--+\n"));
    }

    #[test]
    fn ids_and_values_equal_after_trimming_are_duplicates() {
        let got = problems(json!({"questions": [
            q(json!({"id": "scope", "options": [{"value": "small", "label": "A"}, {"value": " small", "label": "B"}]})),
            q(json!({"id": " scope "}))]}));
        assert_eq!(
            got,
            vec![
                (
                    ProblemCode::DuplicateOptionValue,
                    "questions[0].options[1].value".to_string()
                ),
                (
                    ProblemCode::DuplicateQuestionId,
                    "questions[1].id".to_string()
                ),
            ]
        );
    }

    #[test]
    fn recommended_is_a_boolean_kept_on_its_option() {
        let p = parse_payload_value(&json!({"questions": [q(json!({"options": [
            {"value": "a", "label": "A"}, {"value": "b", "label": "B", "recommended": true}]}))]}))
        .unwrap();
        assert_eq!(
            serde_json::to_value(&p.questions[0].options).unwrap(),
            json!([{"value": "a", "label": "A"}, {"value": "b", "label": "B", "recommended": true}])
        );
        assert_eq!(p.questions[0].first_highlighted(), 1);
        assert_eq!(
            problems(json!({"questions": [q(json!({"options": [
                {"value": "a", "label": "A", "recommended": "yes"}]}))]})),
            vec![(
                ProblemCode::WrongType,
                "questions[0].options[0].recommended".to_string()
            )]
        );
    }

    #[test]
    fn secret_is_a_boolean_kept_on_its_question() {
        let p = parse_payload(
            r#"{"questions": [{"id": "t", "prompt": "Token?", "secret": true,
                "options": [{"value": "skip", "label": "Skip"}]}]}"#,
        )
        .unwrap();
        assert!(p.questions[0].secret);
        assert_eq!(
            serde_json::to_value(&p.questions[0]).unwrap()["secret"],
            json!(true)
        );
        let p = parse_payload_value(&json!({"questions": [q(json!({}))]})).unwrap();
        assert!(!p.questions[0].secret);
        assert_eq!(
            serde_json::to_value(&p.questions[0]).unwrap().get("secret"),
            None
        );
        assert_eq!(
            problems(json!({"questions": [q(json!({"secret": "yes"}))]})),
            vec![(ProblemCode::WrongType, "questions[0].secret".to_string())]
        );
        // A secret question may have no options (a text-only question); others may not.
        let p = parse_payload_value(
            &json!({"questions": [{"id": "t", "prompt": "Token?", "secret": true, "options": []}]}),
        )
        .unwrap();
        assert!(p.questions[0].options.is_empty());
        assert_eq!(
            problems(
                json!({"questions": [{"id": "t", "prompt": "Token?", "secret": false,
                "options": []}]})
            ),
            vec![(ProblemCode::NoOptions, "questions[0].options".to_string())]
        );
        // Codex's spelling is pointed at ours.
        let e =
            parse_payload_value(&json!({"questions": [q(json!({"isSecret": true}))]})).unwrap_err();
        assert_eq!(e.problems[0].code, ProblemCode::UnknownField);
        assert!(
            e.problems[0].message.contains("`secret`"),
            "{}",
            e.problems[0].message
        );
    }
}

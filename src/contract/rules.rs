//! The input rules of the contract ("Input rules"), in one place.
//!
//! Both ways of reading a payload end here: the typed fast path (`fast.rs`, for well-formed
//! payloads) and the JSON walker (`validate.rs`, which also reports unknown fields and wrong
//! types). Each hands over a [`RawPayload`]: every field as given, missing, or already
//! reported as malformed. [`normalize`] checks every rule, records every problem, fills in the
//! defaults and returns the [`Payload`] when there is no problem.

use super::{Payload, Problem, ProblemCode, Question, QuestionOption, QuestionType};
use std::collections::HashMap;

/// One field as read from the payload.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Field<T> {
    /// Absent from its object.
    Missing,
    /// Present but malformed (wrong JSON type); already reported by the reader.
    Invalid,
    /// Present with the right JSON type.
    Given(T),
}

impl<T> Field<T> {
    /// `Given` for `Some`, `Missing` for `None`.
    pub(super) fn from_option(v: Option<T>) -> Self {
        v.map_or(Field::Missing, Field::Given)
    }

    fn given(&self) -> Option<&T> {
        match self {
            Field::Given(v) => Some(v),
            _ => None,
        }
    }
}

/// A payload as read, before the input rules.
#[derive(Debug)]
pub(super) struct RawPayload {
    pub title: Field<String>,
    /// `None` entries were not objects (already reported).
    pub questions: Field<Vec<Option<RawQuestion>>>,
}

/// A question as read, before the input rules.
#[derive(Debug)]
pub(super) struct RawQuestion {
    pub id: Field<String>,
    pub label: Field<String>,
    pub prompt: Field<String>,
    pub kind: Field<String>,
    pub required: Field<bool>,
    /// `None` entries were not objects (already reported).
    pub options: Field<Vec<Option<RawOption>>>,
}

/// An option as read, before the input rules.
#[derive(Debug)]
pub(super) struct RawOption {
    pub value: Field<String>,
    pub label: Field<String>,
    pub description: Field<String>,
    pub preview: Field<String>,
}

fn blank(s: &str) -> bool {
    s.trim().is_empty()
}

/// Checks every input rule on `raw`, appending one problem per broken rule to `problems`.
/// Returns the normalized payload (label `Qn`, type `single`, required `false` filled in)
/// only when `problems` is empty afterwards, so problems the reader found also refuse it.
pub(super) fn normalize(raw: RawPayload, problems: &mut Vec<Problem>) -> Option<Payload> {
    let title = match raw.title {
        Field::Given(t) => Some(t),
        _ => None,
    };
    let mut questions = Vec::new();
    match raw.questions {
        Field::Missing => problems.push(Problem::new(
            ProblemCode::MissingField,
            "questions",
            "`questions` is missing: give an array with at least one question",
        )),
        Field::Invalid => {}
        Field::Given(items) if items.is_empty() => problems.push(Problem::new(
            ProblemCode::NoQuestions,
            "questions",
            "at least one question is required",
        )),
        Field::Given(items) => {
            let mut ids = Unique::new(
                "question id",
                "ids must be unique",
                ProblemCode::DuplicateQuestionId,
                items.len(),
            );
            for (i, q) in items.iter().enumerate() {
                if let Some(id) = q.as_ref().and_then(|q| q.id.given()) {
                    let path = || format!("questions[{i}].id");
                    ids.check(id, path, "questions[{}]", i, problems);
                }
            }
            drop(ids);
            questions.reserve_exact(items.len());
            for (i, item) in items.into_iter().enumerate() {
                let Some(q) = item else { continue };
                if let Some(q) = question(q, i, problems) {
                    questions.push(q);
                }
            }
        }
    }
    problems.is_empty().then_some(Payload { title, questions })
}

/// Finds repeated values; reports each repeat at its own path, naming the first use.
struct Unique<'a> {
    what: &'static str,
    rule: &'static str,
    code: ProblemCode,
    first: HashMap<&'a str, usize>,
}

impl<'a> Unique<'a> {
    fn new(what: &'static str, rule: &'static str, code: ProblemCode, capacity: usize) -> Self {
        Unique {
            what,
            rule,
            code,
            first: HashMap::with_capacity(capacity),
        }
    }

    /// `first_path` is a template where `{}` stands for the index of the first use.
    fn check(
        &mut self,
        value: &'a str,
        path: impl FnOnce() -> String,
        first_path: &str,
        index: usize,
        problems: &mut Vec<Problem>,
    ) {
        if blank(value) {
            return;
        }
        if let Some(first) = self.first.get(value) {
            problems.push(Problem::new(
                self.code,
                path(),
                format!(
                    "{} {value:?} is already used by {}; {}",
                    self.what,
                    first_path.replace("{}", &first.to_string()),
                    self.rule
                ),
            ));
        } else {
            self.first.insert(value, index);
        }
    }
}

/// A required string field that must be non-empty after trimming.
fn required_text(
    field: Field<String>,
    path: impl FnOnce() -> String,
    what: &str,
    key: &str,
    empty_code: ProblemCode,
    problems: &mut Vec<Problem>,
) -> Option<String> {
    match field {
        Field::Missing => {
            problems.push(Problem::new(
                ProblemCode::MissingField,
                path(),
                format!("{what} is missing: add a non-empty `{key}` string"),
            ));
            None
        }
        Field::Invalid => None,
        Field::Given(s) if blank(&s) => {
            problems.push(Problem::new(
                empty_code,
                path(),
                format!("{what} must not be empty or only whitespace"),
            ));
            None
        }
        Field::Given(s) => Some(s),
    }
}

/// An optional string field that must not be blank when provided. `Err` when it broke a rule
/// or was malformed.
fn optional_text(
    field: Field<String>,
    path: impl FnOnce() -> String,
    what: &str,
    key: &str,
    blank_code: ProblemCode,
    problems: &mut Vec<Problem>,
) -> Result<Option<String>, ()> {
    match field {
        Field::Missing => Ok(None),
        Field::Invalid => Err(()),
        Field::Given(s) if blank(&s) => {
            problems.push(Problem::new(
                blank_code,
                path(),
                format!("{what} must not be blank when provided: give text or leave `{key}` out"),
            ));
            Err(())
        }
        Field::Given(s) => Ok(Some(s)),
    }
}

fn question(q: RawQuestion, index: usize, problems: &mut Vec<Problem>) -> Option<Question> {
    let before = problems.len();
    let base = format!("questions[{index}]");
    let at = |key: &'static str| {
        let base = &base;
        move || format!("{base}.{key}")
    };
    let id = required_text(
        q.id,
        at("id"),
        "the question id",
        "id",
        ProblemCode::EmptyQuestionId,
        problems,
    );
    let label = optional_text(
        q.label,
        at("label"),
        "the question label",
        "label",
        ProblemCode::BlankLabel,
        problems,
    );
    let prompt = required_text(
        q.prompt,
        at("prompt"),
        "the question prompt",
        "prompt",
        ProblemCode::EmptyPrompt,
        problems,
    );
    let kind = match &q.kind {
        Field::Missing | Field::Invalid => QuestionType::Single,
        Field::Given(s) => match s.as_str() {
            "single" => QuestionType::Single,
            "multi" => QuestionType::Multi,
            "preview" => QuestionType::Preview,
            other => {
                problems.push(Problem::new(
                    ProblemCode::InvalidType,
                    format!("{base}.type"),
                    format!("type {other:?} is not one of \"single\", \"multi\", \"preview\""),
                ));
                QuestionType::Single
            }
        },
    };
    let required = q.required.given().copied().unwrap_or(false);

    let options_path = format!("{base}.options");
    let mut options = Vec::new();
    match q.options {
        Field::Missing => problems.push(Problem::new(
            ProblemCode::MissingField,
            options_path,
            "`options` is missing: give an array with at least one option",
        )),
        Field::Invalid => {}
        Field::Given(items) if items.is_empty() => problems.push(Problem::new(
            ProblemCode::NoOptions,
            options_path,
            "a question needs at least one option",
        )),
        Field::Given(items) => {
            let mut values = Unique::new(
                "option value",
                "values must be unique within a question",
                ProblemCode::DuplicateOptionValue,
                items.len(),
            );
            let first_path = format!("{options_path}[{{}}]");
            for (j, o) in items.iter().enumerate() {
                if let Some(v) = o.as_ref().and_then(|o| o.value.given()) {
                    let path = || format!("{options_path}[{j}].value");
                    values.check(v, path, &first_path, j, problems);
                }
            }
            drop(values);
            options.reserve_exact(items.len());
            for (j, item) in items.into_iter().enumerate() {
                let Some(o) = item else { continue };
                if let Some(o) = option(o, kind, &options_path, j, problems) {
                    options.push(o);
                }
            }
        }
    }
    if problems.len() != before {
        return None;
    }
    Some(Question {
        id: id?,
        label: label.ok()?.unwrap_or_else(|| format!("Q{}", index + 1)),
        prompt: prompt?,
        kind,
        required,
        options,
    })
}

fn option(
    o: RawOption,
    kind: QuestionType,
    options_path: &str,
    index: usize,
    problems: &mut Vec<Problem>,
) -> Option<QuestionOption> {
    let before = problems.len();
    let at = |key: &'static str| move || format!("{options_path}[{index}].{key}");
    let has_preview = !matches!(o.preview, Field::Missing);
    let value = required_text(
        o.value,
        at("value"),
        "the option value",
        "value",
        ProblemCode::EmptyOptionValue,
        problems,
    );
    let label = required_text(
        o.label,
        at("label"),
        "the option label",
        "label",
        ProblemCode::EmptyOptionLabel,
        problems,
    );
    let description = optional_text(
        o.description,
        at("description"),
        "the option description",
        "description",
        ProblemCode::BlankDescription,
        problems,
    );
    let preview = optional_text(
        o.preview,
        at("preview"),
        "the option preview",
        "preview",
        ProblemCode::BlankPreview,
        problems,
    );
    if kind == QuestionType::Preview && !has_preview {
        problems.push(Problem::new(
            ProblemCode::MissingPreview,
            at("preview")(),
            "every option of a preview question needs `preview` text",
        ));
    }
    if problems.len() != before {
        return None;
    }
    Some(QuestionOption {
        value: value?,
        label: label?,
        description: description.ok()?,
        preview: preview.ok()?,
    })
}

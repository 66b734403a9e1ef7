//! The input rules of the contract ("Input rules"), in one place.
//!
//! Both ways of reading a payload end here: the typed fast path (`fast.rs`, for well-formed
//! payloads) and the JSON walker (`validate.rs`, which also reports unknown fields and wrong
//! types). Each hands over a [`RawPayload`]: every field as given, missing, or already
//! reported as malformed. [`normalize`] checks every rule, records every problem, fills in the
//! defaults and returns the [`Payload`] when there is no problem.
//!
//! The other payload formats (docs/dialects.md; readers in `dialects`) are read by the same
//! walker into the same raw fields and checked by these same rules: a [`Spelling`] says how a
//! format names each field (for paths and messages) and which defaults it has (ids `q1`, `q2`,
//! values from labels, no options for a text-only question).

use super::json::join_path;
use super::{Payload, Problem, ProblemCode, Question, QuestionOption, QuestionType};
use std::collections::HashMap;

/// A field's key in a format and what it is called in messages: `("prompt", "the question
/// prompt")`.
pub(super) type Name = (&'static str, &'static str);

/// How a payload format spells the contract's fields, and which defaults it has. The
/// contract's own spelling is [`CONTRACT`]; the other formats' are in `dialects`.
#[derive(Debug)]
pub(super) struct Spelling {
    /// The questions array; `None` when the document is itself the one question (yishan).
    pub questions: Option<&'static str>,
    /// The question id; `None` when the format has none (yishan: always `q1`).
    pub id: Option<Name>,
    /// Ids default to `q1`, `q2`, ... by position when absent (mickyyy68/pi-ask).
    pub id_default: bool,
    /// The question label (the contract's `label`, mickyyy68's `header`).
    pub label: Option<Name>,
    /// The question text.
    pub prompt: Name,
    /// The key of the question type, for an unknown type's path.
    pub kind: &'static str,
    /// The key of the free-text switch (`allowFreeform`, `allowOther`), for messages.
    pub freeform: Option<&'static str>,
    /// The context text shown with the question (yishan).
    pub context: Option<Name>,
    /// The options array.
    pub options: &'static str,
    /// Absent options are `[]` (yishan) instead of a missing field.
    pub options_default: bool,
    /// A question may have no options when it takes custom text (a text-only question); the
    /// contract's own format keeps its at-least-one-option rule.
    pub text_only: bool,
    /// The option value; `None` when the format has none (its label is the value).
    pub value: Option<Name>,
    /// Values default to the trimmed label when absent (its README).
    pub value_default: bool,
    /// The option label.
    pub option_label: Name,
    /// Field names in document order, for sorting problems (`validate::document_order`).
    pub order: &'static [&'static str],
}

/// The contract's own spelling (docs/contract.md "Input").
pub(super) const CONTRACT: Spelling = Spelling {
    questions: Some("questions"),
    id: Some(("id", "the question id")),
    id_default: false,
    label: Some(("label", "the question label")),
    prompt: ("prompt", "the question prompt"),
    kind: "type",
    freeform: None,
    context: None,
    options: "options",
    options_default: false,
    text_only: false,
    value: Some(("value", "the option value")),
    value_default: false,
    option_label: ("label", "the option label"),
    order: &super::fields::ORDER,
};

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
    /// `secret` (the contract's format only; `Missing` elsewhere).
    pub secret: Field<bool>,
    /// The caller's free-text switch (`allowFreeform`, `allowOther`); `Missing` in the
    /// contract's own format.
    pub freeform: Field<bool>,
    /// Text shown with the question; `Missing` in the contract's own format.
    pub context: Field<String>,
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
    /// `recommended` (the contract's format only; `Missing` elsewhere).
    pub recommended: Field<bool>,
    /// The option was a bare string (yishan's `options: string[]`): its label is the item.
    pub bare: bool,
}

fn blank(s: &str) -> bool {
    s.trim().is_empty()
}

/// Checks every input rule on `raw`, appending one problem per broken rule to `problems`.
/// Returns the normalized payload (label `Qn`, type `single`, required `false` filled in)
/// only when `problems` is empty afterwards, so problems the reader found also refuse it.
pub(super) fn normalize(
    raw: RawPayload,
    spelling: &Spelling,
    problems: &mut Vec<Problem>,
) -> Option<Payload> {
    // A title of only whitespace is no title: nothing to show as a heading.
    let title = match raw.title {
        Field::Given(t) if !t.trim().is_empty() => Some(t),
        _ => None,
    };
    let key = spelling.questions.unwrap_or("questions");
    let mut questions = Vec::new();
    match raw.questions {
        Field::Missing => problems.push(Problem::new(
            ProblemCode::MissingField,
            key,
            format!("`{key}` is missing: give an array with at least one question"),
        )),
        Field::Invalid => {}
        Field::Given(items) if items.is_empty() => problems.push(Problem::new(
            ProblemCode::NoQuestions,
            key,
            "at least one question is required",
        )),
        Field::Given(mut items) => {
            // Ids q1, q2, ... where the format has them by default (its README).
            let mut generated = vec![false; items.len()];
            if spelling.id_default {
                for (i, q) in items.iter_mut().enumerate() {
                    if let Some(q) = q.as_mut().filter(|q| q.id == Field::Missing) {
                        q.id = Field::Given(format!("q{}", i + 1));
                        generated[i] = true;
                    }
                }
            }
            let mut ids = Unique::new(
                "question id",
                "ids must be unique",
                ProblemCode::DuplicateQuestionId,
                items.len(),
            );
            let first_path = question_base(spelling, "{}");
            for (i, q) in items.iter().enumerate() {
                if let Some(id) = q.as_ref().and_then(|q| q.id.given()) {
                    let path = || {
                        let base = question_base(spelling, &i.to_string());
                        match spelling.id {
                            Some((id_key, _)) if !generated[i] => join_path(&base, id_key),
                            _ => base,
                        }
                    };
                    ids.check(id.trim(), path, &first_path, i, problems);
                }
            }
            drop(ids);
            questions.reserve_exact(items.len());
            for (i, item) in items.into_iter().enumerate() {
                let Some(q) = item else { continue };
                if let Some(q) = question(q, i, spelling, problems) {
                    questions.push(q);
                }
            }
        }
    }
    problems.is_empty().then_some(Payload { title, questions })
}

/// The path of question `index` (a number, or `{}` for a template): `questions[0]`, or the
/// document itself when it is the one question.
fn question_base(spelling: &Spelling, index: &str) -> String {
    match spelling.questions {
        Some(key) => format!("{key}[{index}]"),
        None => String::new(),
    }
}

/// Finds repeated values (compared trimmed, as they are kept); reports each repeat at its own
/// path in the contract's project's words (`duplicate question id "scope"`), naming the
/// first use.
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
                    "duplicate {} {}: {} already uses it; {}",
                    self.what,
                    crate::text::quoted(value),
                    first_path.replace("{}", &first.to_string()),
                    self.rule
                ),
            ));
        } else {
            self.first.insert(value, index);
        }
    }
}

/// A required string field that must be non-empty after trimming; kept trimmed (the
/// contract's project's normalize trims ids, prompts, option values and labels).
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
        Field::Given(s) => Some(trimmed(s)),
    }
}

/// `s` without leading and trailing whitespace, reusing it when there is none.
fn trimmed(s: String) -> String {
    if s.trim().len() == s.len() {
        s
    } else {
        s.trim().to_string()
    }
}

/// An optional string field that must not be blank when provided; kept trimmed (labels,
/// descriptions, context), except a preview's text, kept as given (use [`optional_raw`]).
/// `Err` when it broke a rule or was malformed.
fn optional_text(
    field: Field<String>,
    path: impl FnOnce() -> String,
    what: &str,
    key: &str,
    blank_code: ProblemCode,
    problems: &mut Vec<Problem>,
) -> Result<Option<String>, ()> {
    optional_raw(field, path, what, key, blank_code, problems).map(|s| s.map(trimmed))
}

/// [`optional_text`] keeping the text as given: a preview's indentation and line breaks are
/// its content.
fn optional_raw(
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

fn question(
    q: RawQuestion,
    index: usize,
    spelling: &Spelling,
    problems: &mut Vec<Problem>,
) -> Option<Question> {
    let before = problems.len();
    let base = question_base(spelling, &index.to_string());
    let at = |key: &'static str| {
        let base = &base;
        move || join_path(base, key)
    };
    // Formats without an id field always have a generated one (normalize).
    let (id_key, id_what) = spelling.id.unwrap_or(("id", "the question id"));
    let id = required_text(
        q.id,
        at(id_key),
        id_what,
        id_key,
        ProblemCode::EmptyQuestionId,
        problems,
    );
    let label = match spelling.label {
        Some((key, what)) => optional_text(
            q.label,
            at(key),
            what,
            key,
            ProblemCode::BlankLabel,
            problems,
        ),
        None => Ok(None),
    };
    let (prompt_key, prompt_what) = spelling.prompt;
    let prompt = required_text(
        q.prompt,
        at(prompt_key),
        prompt_what,
        prompt_key,
        ProblemCode::EmptyPrompt,
        problems,
    );
    let context = match spelling.context {
        Some((key, what)) => optional_text(
            q.context,
            at(key),
            what,
            key,
            ProblemCode::BlankContext,
            problems,
        ),
        None => Ok(None),
    };
    let kind = match &q.kind {
        Field::Missing | Field::Invalid => QuestionType::Single,
        Field::Given(s) => match s.as_str() {
            "single" => QuestionType::Single,
            "multi" => QuestionType::Multi,
            "preview" => QuestionType::Preview,
            other => {
                problems.push(Problem::new(
                    ProblemCode::InvalidType,
                    at(spelling.kind)(),
                    format!(
                        "type {} is not one of \"single\", \"multi\", \"preview\"",
                        crate::text::quoted(other)
                    ),
                ));
                QuestionType::Single
            }
        },
    };
    let required = q.required.given().copied().unwrap_or(false);
    let secret = q.secret.given().copied().unwrap_or(false);
    let allow_freeform = q.freeform.given().copied().unwrap_or(true);
    // A question without options is a text-only question where the format allows it, or it
    // is secret (a token has no options to offer), and the question takes custom text.
    let text_only_ok =
        (spelling.text_only || secret) && allow_freeform && kind != QuestionType::Preview;

    let options_key = spelling.options;
    let options_path = at(options_key)();
    let mut options = Vec::new();
    let items = match q.options {
        Field::Missing if spelling.options_default => Field::Given(Vec::new()),
        other => other,
    };
    match items {
        Field::Missing => problems.push(Problem::new(
            ProblemCode::MissingField,
            options_path,
            format!("`{options_key}` is missing: give an array with at least one option"),
        )),
        Field::Invalid => {}
        Field::Given(items) if items.is_empty() && !text_only_ok => {
            let message = match spelling.freeform {
                Some(key) if spelling.text_only && !allow_freeform => format!(
                    "a question with `{key}: false` needs at least one option: give options, or allow free text"
                ),
                _ => "a question needs at least one option".to_string(),
            };
            problems.push(Problem::new(ProblemCode::NoOptions, options_path, message));
        }
        Field::Given(mut items) => {
            // Values default to the trimmed label (its README); a label the rules refuse
            // leaves the value out (the label's problem is reported).
            let mut generated = vec![false; items.len()];
            if spelling.value_default {
                for (j, o) in items.iter_mut().enumerate() {
                    let Some(o) = o.as_mut().filter(|o| o.value == Field::Missing) else {
                        continue;
                    };
                    o.value = match o.label.given().map(|l| l.trim()) {
                        Some(l) if !l.is_empty() => Field::Given(l.to_string()),
                        _ => Field::Invalid,
                    };
                    generated[j] = true;
                }
            }
            let mut values = Unique::new(
                if spelling.value.is_some() {
                    "option value"
                } else {
                    "option"
                },
                if spelling.value.is_some() {
                    "values must be unique within a question"
                } else {
                    "options must be unique within a question"
                },
                ProblemCode::DuplicateOptionValue,
                items.len(),
            );
            let first_path = format!("{options_path}[{{}}]");
            for (j, o) in items.iter().enumerate() {
                if let Some(o) = o.as_ref() {
                    if let Some(v) = o.value.given() {
                        let path = || {
                            let option = format!("{options_path}[{j}]");
                            let key = match spelling.value {
                                Some((key, _)) if !generated[j] => key,
                                _ => spelling.option_label.0,
                            };
                            if o.bare {
                                option
                            } else {
                                join_path(&option, key)
                            }
                        };
                        values.check(v.trim(), path, &first_path, j, problems);
                    }
                }
            }
            drop(values);
            options.reserve_exact(items.len());
            for (j, item) in items.into_iter().enumerate() {
                let Some(o) = item else { continue };
                if let Some(o) = option(o, kind, spelling, &options_path, j, problems) {
                    options.push(o);
                }
            }
        }
    }
    if problems.len() != before {
        return None;
    }
    let label = label.ok()?;
    Some(Question {
        id: id?,
        label_given: label.is_some(),
        label: label.unwrap_or_else(|| format!("Q{}", index + 1)),
        prompt: prompt?,
        kind,
        required,
        secret,
        allow_freeform,
        context: context.ok()?,
        options,
    })
}

fn option(
    o: RawOption,
    kind: QuestionType,
    spelling: &Spelling,
    options_path: &str,
    index: usize,
    problems: &mut Vec<Problem>,
) -> Option<QuestionOption> {
    let before = problems.len();
    // Paths are spelled only for a problem: most options have none.
    let base = || format!("{options_path}[{index}]");
    let at = |key: &'static str| move || join_path(&base(), key);
    let has_preview = !matches!(o.preview, Field::Missing);
    // Formats without a value field: the label is the value (filled in by `question`).
    let (value_key, value_what) = spelling.value.unwrap_or(spelling.option_label);
    let value = required_text(
        o.value,
        at(value_key),
        value_what,
        value_key,
        ProblemCode::EmptyOptionValue,
        problems,
    );
    let (label_key, label_what) = spelling.option_label;
    let label_path = || {
        if o.bare {
            base()
        } else {
            join_path(&base(), label_key)
        }
    };
    let label = required_text(
        o.label,
        label_path,
        label_what,
        label_key,
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
    let preview = optional_raw(
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
            "preview questions require preview text for every option: add `preview` text to this option, or use type \"single\"",
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
        recommended: o.recommended.given().copied().unwrap_or(false),
    })
}

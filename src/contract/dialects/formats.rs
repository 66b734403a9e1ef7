//! How the walker (`validate.rs`) reads each other payload format: its objects and field
//! names, and its [`Spelling`] for the input rules (`rules.rs`). Every rule is the contract's;
//! only the names, the defaults and the text-only question differ (docs/dialects.md).

use super::super::json::{Alias, Shape};
use super::super::rules::{Spelling, CONTRACT as CONTRACT_SPELLING};
use super::super::validate::{Format, KindField, OPTION, PAYLOAD, QUESTION};

/// Top-level fields of a mickyyy68/pi-ask or Claude Code payload (its README, "Input schema").
pub(crate) const QUESTIONS_DOCUMENT_FIELDS: &[&str] = &["questions"];
/// Question fields of a mickyyy68/pi-ask or Claude Code payload.
pub(crate) const QUESTIONS_QUESTION_FIELDS: &[&str] =
    &["id", "header", "question", "multiSelect", "options"];
/// Option fields of a mickyyy68/pi-ask or Claude Code payload.
pub(crate) const QUESTIONS_OPTION_FIELDS: &[&str] = &["value", "label", "description"];

/// The fields of a @yishan-io/pi-ask payload, which is one question (its README, "Parameters").
pub(crate) const YISHAN_FIELDS: &[&str] = &[
    "question",
    "context",
    "options",
    "allowMultiple",
    "allowFreeform",
];
/// The fields of a @yishan-io/pi-ask option object (it may also be a bare string).
pub(crate) const YISHAN_OPTION_FIELDS: &[&str] = &["title", "description"];

/// Question fields of pi's example questionnaire: the contract's plus `allowOther`
/// (examples/extensions/questionnaire.ts in the pi package).
pub(crate) const PI_QUESTION_FIELDS: &[&str] = &[
    "id",
    "label",
    "prompt",
    "type",
    "required",
    "allowOther",
    "options",
];

/// mickyyy68/pi-ask (its README) and Claude Code's AskUserQuestion: `{questions: [{id?, header?,
/// question, multiSelect?, options: [{value?, label, description?}]}]}`. Ids default to `q1`,
/// `q2`, ...; `header` is the label (`Q1`, ... when absent); values default to the trimmed
/// label; no options is a text-only question.
pub(crate) const QUESTIONS: Format = Format {
    spelling: Spelling {
        questions: Some("questions"),
        id: Some(("id", "the question id")),
        id_default: true,
        label: Some(("header", "the question header")),
        prompt: ("question", "the question text"),
        kind: "multiSelect",
        freeform: None,
        context: None,
        options: "options",
        options_default: false,
        text_only: true,
        value: Some(("value", "the option value")),
        value_default: true,
        option_label: ("label", "the option label"),
        order: &[
            "questions",
            "id",
            "header",
            "question",
            "multiSelect",
            "options",
            "value",
            "label",
            "description",
        ],
    },
    document: Shape {
        known: QUESTIONS_DOCUMENT_FIELDS,
        noun: "the payload",
        aliases: |field| match field {
            "question" | "items" | "prompts" => Some(Alias::Field("questions")),
            _ => None,
        },
    },
    question: Shape {
        known: QUESTIONS_QUESTION_FIELDS,
        noun: "a question",
        aliases: |field| match field {
            "prompt" | "text" | "message" => Some(Alias::Field("question")),
            "label" | "title" | "name" => Some(Alias::Field("header")),
            "multiselect" | "multi_select" | "multiple" | "allowMultiple" => {
                Some(Alias::Field("multiSelect"))
            }
            "type" => Some(Alias::Advice(
                "use `multiSelect: true` for a multi-select question",
            )),
            "choices" | "answers" | "items" => Some(Alias::Field("options")),
            _ => None,
        },
    },
    option: Shape {
        known: QUESTIONS_OPTION_FIELDS,
        noun: "an option",
        aliases: |field| match field {
            "title" | "name" | "text" => Some(Alias::Field("label")),
            "id" | "key" => Some(Alias::Field("value")),
            "desc" | "detail" | "details" | "hint" => Some(Alias::Field("description")),
            _ => None,
        },
    },
    title: None,
    kind: KindField::Multi("multiSelect"),
    required: None,
    preview: false,
    bare_options: false,
    option_example: "{\"label\": \"...\"}",
};

/// The one question of a @yishan-io/pi-ask payload, also its top-level object.
const YISHAN_QUESTION: Shape = Shape {
    known: YISHAN_FIELDS,
    noun: "the payload",
    aliases: |field| match field {
        "prompt" | "text" | "message" => Some(Alias::Field("question")),
        "multiSelect" | "multiple" | "multi" => Some(Alias::Field("allowMultiple")),
        "allowOther" | "freeform" | "allowCustom" => Some(Alias::Field("allowFreeform")),
        "choices" | "items" => Some(Alias::Field("options")),
        "description" | "details" => Some(Alias::Field("context")),
        _ => None,
    },
};

/// @yishan-io/pi-ask (its README): one question `{question, context?, options?: string[] |
/// {title, description?}[], allowMultiple?, allowFreeform?}`. Its id is `q1`; an option's
/// value is its trimmed title; `options` defaults to `[]`, a text-only question unless
/// `allowFreeform` is false.
pub(crate) const YISHAN: Format = Format {
    spelling: Spelling {
        questions: None,
        id: None,
        id_default: true,
        label: None,
        prompt: ("question", "the question"),
        kind: "allowMultiple",
        freeform: Some("allowFreeform"),
        context: Some(("context", "the context")),
        options: "options",
        options_default: true,
        text_only: true,
        value: None,
        value_default: true,
        option_label: ("title", "the option title"),
        order: &[
            "question",
            "context",
            "allowMultiple",
            "allowFreeform",
            "options",
            "title",
            "description",
        ],
    },
    document: YISHAN_QUESTION,
    question: YISHAN_QUESTION,
    option: Shape {
        known: YISHAN_OPTION_FIELDS,
        noun: "an option",
        aliases: |field| match field {
            "label" | "name" | "text" | "value" => Some(Alias::Field("title")),
            "desc" | "detail" | "details" | "hint" => Some(Alias::Field("description")),
            _ => None,
        },
    },
    title: None,
    kind: KindField::Multi("allowMultiple"),
    required: None,
    preview: false,
    bare_options: true,
    option_example: "{\"title\": \"...\"}",
};

/// pi's example questionnaire (examples/extensions/questionnaire.ts in the pi package): the
/// contract's shape plus `allowOther` per question (default true), read as `allowFreeform`.
/// A question may have no options when `allowOther` is not false (text-only).
pub(crate) const PI_QUESTIONNAIRE: Format = Format {
    spelling: Spelling {
        freeform: Some("allowOther"),
        text_only: true,
        order: &[
            "title",
            "questions",
            "id",
            "label",
            "prompt",
            "type",
            "required",
            "allowOther",
            "options",
            "value",
            "description",
            "preview",
        ],
        ..CONTRACT_SPELLING
    },
    document: PAYLOAD,
    question: Shape {
        known: PI_QUESTION_FIELDS,
        noun: "a question",
        aliases: |field| match field {
            "allowFreeform" | "allowCustom" | "freeform" => Some(Alias::Field("allowOther")),
            other => (QUESTION.aliases)(other),
        },
    },
    option: OPTION,
    ..super::super::validate::CONTRACT
};

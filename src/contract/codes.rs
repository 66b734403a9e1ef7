//! The stable codes of a result: `details.error.code` ([`ErrorCode`]) and, for input errors,
//! `details.error.problems[].code`. Both are public interfaces callers script against
//! (docs/exit-codes.md); each code is spelled once, here, in `snake_case`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::fmt;

/// `details.error.code`: why a result carries no answers although the person did not dismiss
/// the flow, or, for [`ErrorCode::Timeout`], why it carries only the answers given so far
/// (docs/exit-codes.md, "details.error").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The payload broke an input rule or was not JSON (exit 2).
    InvalidPayload,
    /// The `--answers` file could not be applied (exit 2).
    InvalidAnswers,
    /// No terminal could be opened and no answers file was given (exit 3).
    NoUi,
    /// The flow was ended from outside: SIGTERM, SIGHUP, SIGQUIT, the caller's abort (exit 1).
    Aborted,
    /// The terminal went away while asking: EOF or an I/O error on the tty, or the caller's
    /// lifeline ended (exit 1).
    TerminalLost,
    /// Another run held the terminal for as long as a run waits for it (exit 1).
    TerminalBusy,
    /// No key came for the `--timeout` time: the answers given so far are kept (exit 124).
    Timeout,
    /// A bug in pi-ask: a panic or a broken internal invariant (exit 5).
    Internal,
}

impl ErrorCode {
    /// Every code, in the order docs/exit-codes.md lists them.
    pub const ALL: &'static [ErrorCode] = &[
        ErrorCode::InvalidPayload,
        ErrorCode::InvalidAnswers,
        ErrorCode::NoUi,
        ErrorCode::Aborted,
        ErrorCode::TerminalLost,
        ErrorCode::TerminalBusy,
        ErrorCode::Timeout,
        ErrorCode::Internal,
    ];

    /// The code as written in the result, e.g. `"no_ui"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidPayload => "invalid_payload",
            ErrorCode::InvalidAnswers => "invalid_answers",
            ErrorCode::NoUi => "no_ui",
            ErrorCode::Aborted => "aborted",
            ErrorCode::TerminalLost => "terminal_lost",
            ErrorCode::TerminalBusy => "terminal_busy",
            ErrorCode::Timeout => "timeout",
            ErrorCode::Internal => "internal",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `details.error.problems[].code`: what is wrong with one place of an input, the payload
/// (`invalid_payload`) or the answers file (`invalid_answers`). The codes shared by both inputs
/// (`malformed_json`, `wrong_type`, `unknown_field`, `missing_field`) mean the same in both
/// (docs/exit-codes.md, "Problem codes"; docs/answers.md, "Errors").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ProblemCode {
    /// The input is not JSON, not UTF-8, or empty; the message gives line and column.
    MalformedJson,
    /// The payload is larger than `--max-payload-bytes`, refused before parsing.
    PayloadTooLarge,
    /// The payload file or stdin could not be read.
    UnreadablePayload,
    /// The answers file could not be read (missing, a folder, no permission).
    UnreadableAnswers,
    /// The answers file is larger than `--max-payload-bytes` plus 16 times the payload's size
    /// (`answers_size_limit`, docs/answers.md "Replay").
    AnswersTooLarge,
    /// A field has the wrong JSON type (`null` included).
    WrongType,
    /// A field the format does not have; the message names the nearest known one.
    UnknownField,
    /// A required field is absent (payload), or neither `answers` nor `cancelled` is given (answers file).
    MissingField,
    /// The payload's `questions` array is empty.
    NoQuestions,
    /// A question id is empty after trimming.
    EmptyQuestionId,
    /// A prompt is empty after trimming.
    EmptyPrompt,
    /// A question label is given but blank.
    BlankLabel,
    /// A question `type` is not `single`, `multi` or `preview`.
    InvalidType,
    /// A question's `options` array is empty.
    NoOptions,
    /// A question id is used by an earlier question.
    DuplicateQuestionId,
    /// An option value is empty after trimming.
    EmptyOptionValue,
    /// An option label is empty after trimming.
    EmptyOptionLabel,
    /// An option value is used by an earlier option of the question.
    DuplicateOptionValue,
    /// An option description is given but blank.
    BlankDescription,
    /// An option preview is given but blank.
    BlankPreview,
    /// An option of a preview question has no preview.
    MissingPreview,
    /// A question's `context` (@yishan-io/pi-ask) is given but blank.
    BlankContext,
    /// The payload fits no known format (docs/dialects.md): it was read as the contract's and
    /// this problem names the closest other format.
    UnknownFormat,
    /// mickyyy68/pi-ask and Claude Code ask 1 to 4 questions (its README); a refusal only under
    /// `--strict`, else a `validate` warning.
    TooManyQuestions,
    /// Fewer than 2 options where mickyyy68/pi-ask or Claude Code wants 2 (its README);
    /// `--strict` only.
    TooFewOptions,
    /// More than 5 options (mickyyy68/pi-ask) or 4 (Claude Code); `--strict` only.
    TooManyOptions,
    /// A `header` longer than 16 characters (mickyyy68/pi-ask) or 12 (Claude Code);
    /// `--strict` only.
    HeaderTooLong,
    /// An option label longer than 60 characters (mickyyy68/pi-ask); `--strict` only.
    LabelTooLong,
    /// An option label the format reserves for its own rows (`Write my own answer…`,
    /// `Continue →`; Claude Code's `Other`); `--strict` only.
    ReservedLabel,
    /// An object has the same key twice: the last value is used, as `JSON.parse` does (the
    /// contract's project reads payloads so); a `validate` warning, a refusal under `--strict`.
    DuplicateKey,
    /// An answer for a question id the payload does not have.
    UnknownQuestion,
    /// An option value or position the question does not have.
    UnknownOption,
    /// More than one option, or an option and custom text, on a single-select or preview question.
    TooManyValues,
    /// Custom text on a question that takes none: a preview question, or one whose caller
    /// turned free text off (`allowFreeform: false`, `allowOther: false`).
    CustomTextNotAllowed,
    /// An option note for an option that is not selected.
    OptionNoteNotSelected,
    /// Custom text, a note or an option note that is empty or only whitespace.
    BlankText,
    /// A new or longer note past the notes' budget: a question's notes weigh notes × (1 +
    /// its context units + its notes' units), units of 128 bytes (`answers::note_weight`),
    /// 20,000 at most over all questions (`limits::MAX_NOTE_WEIGHT`), since an elaborate
    /// result repeats a question, its options and its notes with each note (docs/answers.md
    /// "The notes' budget").
    TooManyNotes,
    /// The last problem of a document with more than [`crate::limits::MAX_PROBLEMS`]
    /// problems: the first ones are listed, this one (path: the document) counts the rest
    /// (`contract::cap_problems`).
    TooManyProblems,
}

impl ProblemCode {
    /// Every code: reading an input, the ones both inputs share, the payload's input rules
    /// (the other formats' own limits last), then the answers file's checks.
    pub const ALL: &'static [ProblemCode] = &[
        ProblemCode::MalformedJson,
        ProblemCode::PayloadTooLarge,
        ProblemCode::UnreadablePayload,
        ProblemCode::UnreadableAnswers,
        ProblemCode::AnswersTooLarge,
        ProblemCode::WrongType,
        ProblemCode::UnknownField,
        ProblemCode::MissingField,
        ProblemCode::NoQuestions,
        ProblemCode::EmptyQuestionId,
        ProblemCode::EmptyPrompt,
        ProblemCode::BlankLabel,
        ProblemCode::InvalidType,
        ProblemCode::NoOptions,
        ProblemCode::DuplicateQuestionId,
        ProblemCode::EmptyOptionValue,
        ProblemCode::EmptyOptionLabel,
        ProblemCode::DuplicateOptionValue,
        ProblemCode::BlankDescription,
        ProblemCode::BlankPreview,
        ProblemCode::MissingPreview,
        ProblemCode::BlankContext,
        ProblemCode::UnknownFormat,
        ProblemCode::TooManyQuestions,
        ProblemCode::TooFewOptions,
        ProblemCode::TooManyOptions,
        ProblemCode::HeaderTooLong,
        ProblemCode::LabelTooLong,
        ProblemCode::ReservedLabel,
        ProblemCode::DuplicateKey,
        ProblemCode::UnknownQuestion,
        ProblemCode::UnknownOption,
        ProblemCode::TooManyValues,
        ProblemCode::CustomTextNotAllowed,
        ProblemCode::OptionNoteNotSelected,
        ProblemCode::BlankText,
        ProblemCode::TooManyNotes,
        ProblemCode::TooManyProblems,
    ];

    /// The code as written in a problem, e.g. `"unknown_field"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ProblemCode::MalformedJson => "malformed_json",
            ProblemCode::PayloadTooLarge => "payload_too_large",
            ProblemCode::UnreadablePayload => "unreadable_payload",
            ProblemCode::UnreadableAnswers => "unreadable_answers",
            ProblemCode::AnswersTooLarge => "answers_too_large",
            ProblemCode::WrongType => "wrong_type",
            ProblemCode::UnknownField => "unknown_field",
            ProblemCode::MissingField => "missing_field",
            ProblemCode::NoQuestions => "no_questions",
            ProblemCode::EmptyQuestionId => "empty_question_id",
            ProblemCode::EmptyPrompt => "empty_prompt",
            ProblemCode::BlankLabel => "blank_label",
            ProblemCode::InvalidType => "invalid_type",
            ProblemCode::NoOptions => "no_options",
            ProblemCode::DuplicateQuestionId => "duplicate_question_id",
            ProblemCode::EmptyOptionValue => "empty_option_value",
            ProblemCode::EmptyOptionLabel => "empty_option_label",
            ProblemCode::DuplicateOptionValue => "duplicate_option_value",
            ProblemCode::BlankDescription => "blank_description",
            ProblemCode::BlankPreview => "blank_preview",
            ProblemCode::MissingPreview => "missing_preview",
            ProblemCode::BlankContext => "blank_context",
            ProblemCode::UnknownFormat => "unknown_format",
            ProblemCode::TooManyQuestions => "too_many_questions",
            ProblemCode::TooFewOptions => "too_few_options",
            ProblemCode::TooManyOptions => "too_many_options",
            ProblemCode::HeaderTooLong => "header_too_long",
            ProblemCode::LabelTooLong => "label_too_long",
            ProblemCode::ReservedLabel => "reserved_label",
            ProblemCode::DuplicateKey => "duplicate_key",
            ProblemCode::UnknownQuestion => "unknown_question",
            ProblemCode::UnknownOption => "unknown_option",
            ProblemCode::TooManyValues => "too_many_values",
            ProblemCode::CustomTextNotAllowed => "custom_text_not_allowed",
            ProblemCode::OptionNoteNotSelected => "option_note_not_selected",
            ProblemCode::BlankText => "blank_text",
            ProblemCode::TooManyNotes => "too_many_notes",
            ProblemCode::TooManyProblems => "too_many_problems",
        }
    }
}

impl fmt::Display for ProblemCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_codes_serialize_as_their_names() {
        for &code in ErrorCode::ALL {
            assert_eq!(
                serde_json::to_value(code).unwrap(),
                serde_json::Value::String(code.as_str().to_string())
            );
            assert_eq!(code.to_string(), code.as_str());
        }
    }

    #[test]
    fn problem_codes_serialize_as_their_names() {
        for &code in ProblemCode::ALL {
            assert_eq!(
                serde_json::to_value(code).unwrap(),
                serde_json::Value::String(code.as_str().to_string())
            );
            assert_eq!(
                serde_json::from_value::<ProblemCode>(code.as_str().into()).unwrap(),
                code
            );
            assert_eq!(code.to_string(), code.as_str());
        }
        let mut names: Vec<&str> = ProblemCode::ALL.iter().map(|c| c.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(
            names.len(),
            ProblemCode::ALL.len(),
            "a code is listed twice"
        );
    }

    /// The names a type's JSON Schema allows (`enum`, or `const` of each `oneOf` arm).
    fn schema_names<T: JsonSchema>() -> Vec<String> {
        fn collect(v: &serde_json::Value, out: &mut Vec<String>) {
            match v {
                serde_json::Value::Object(m) => {
                    for (k, v) in m {
                        match (k.as_str(), v) {
                            ("const", serde_json::Value::String(s)) => out.push(s.clone()),
                            ("enum", serde_json::Value::Array(items)) => out.extend(
                                items.iter().filter_map(|i| i.as_str().map(str::to_string)),
                            ),
                            _ => collect(v, out),
                        }
                    }
                }
                serde_json::Value::Array(items) => items.iter().for_each(|i| collect(i, out)),
                _ => {}
            }
        }
        let mut out = Vec::new();
        collect(schemars::schema_for!(T).as_value(), &mut out);
        out.sort();
        out
    }

    fn sorted(names: impl Iterator<Item = &'static str>) -> Vec<String> {
        let mut v: Vec<String> = names.map(str::to_string).collect();
        v.sort();
        v
    }

    #[test]
    fn all_lists_every_variant() {
        assert_eq!(
            schema_names::<ProblemCode>(),
            sorted(ProblemCode::ALL.iter().map(|c| c.as_str()))
        );
        assert_eq!(
            schema_names::<ErrorCode>(),
            sorted(ErrorCode::ALL.iter().map(|c| c.as_str()))
        );
    }

    #[test]
    fn every_code_is_documented() {
        let docs = include_str!("../../docs/exit-codes.md");
        let missing: Vec<&str> = ProblemCode::ALL
            .iter()
            .map(|c| c.as_str())
            .chain(ErrorCode::ALL.iter().map(|c| c.as_str()))
            .filter(|name| !docs.contains(&format!("`{name}`")))
            .collect();
        assert!(missing.is_empty(), "not in docs/exit-codes.md: {missing:?}");
    }
}

//! The other `ask_user` payload formats (docs/dialects.md): mickyyy68/pi-ask (its README),
//! Claude Code's AskUserQuestion, @yishan-io/pi-ask (its README) and pi's example
//! questionnaire. Each is read by the same walker and checked by the same input rules as the
//! contract's own format (`formats.rs` says how each names its fields), so every rule, front
//! end and result works on the normalized [`Payload`].
//!
//! Detection (`--input-format auto`, [`detect`]): a payload whose fields all belong to the
//! contract is the contract; otherwise the first format whose fields it fits (pi's
//! questionnaire, Claude Code, mickyyy68/pi-ask, yishan); a payload that fits none is read as
//! the contract's, and an `unknown_format` problem names the closest format.
//!
//! mickyyy68/pi-ask's and Claude Code's own limits (`limits.rs`) are warnings, refusals only
//! under `--strict`. A result written in another format (`result::formats`) is read back as an
//! answers file by `replay.rs`.

mod formats;
mod limits;
mod replay;

pub(super) use replay::replay;

#[cfg(test)]
pub(crate) use formats::{
    PI_QUESTION_FIELDS, QUESTIONS_DOCUMENT_FIELDS, QUESTIONS_OPTION_FIELDS,
    QUESTIONS_QUESTION_FIELDS, YISHAN_FIELDS, YISHAN_OPTION_FIELDS,
};

use super::json::malformed_json;
use super::validate::{self, sort_problems, Format, CONTRACT};
use super::{Payload, PayloadError, Problem, ProblemCode};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;

/// Which format a payload is read as (`--input-format`, docs/dialects.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum InputFormat {
    /// Detect it: the contract's when its fields fit, else the first other format they fit.
    #[default]
    Auto,
    /// The ask_user contract's own format.
    Contract,
    /// mickyyy68/pi-ask's payloads.
    Mickyyy68,
    /// @yishan-io/pi-ask's payloads: one question.
    Yishan,
    /// Claude Code's AskUserQuestion.
    ClaudeCode,
    /// pi's example questionnaire: the contract's shape plus `allowOther`.
    PiQuestionnaire,
}

/// A payload format (docs/dialects.md); serialized as its `--input-format` name.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, clap::ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum Dialect {
    /// The ask_user contract's own format.
    Contract,
    /// mickyyy68/pi-ask's payloads.
    Mickyyy68,
    /// @yishan-io/pi-ask's payloads: one question.
    Yishan,
    /// Claude Code's AskUserQuestion.
    ClaudeCode,
    /// pi's example questionnaire (examples/extensions/questionnaire.ts in the pi package).
    PiQuestionnaire,
}

impl Dialect {
    /// Every format, in detection order after the contract.
    pub const ALL: &'static [Dialect] = &[
        Dialect::Contract,
        Dialect::PiQuestionnaire,
        Dialect::ClaudeCode,
        Dialect::Mickyyy68,
        Dialect::Yishan,
    ];

    /// The `--input-format` name: `contract`, `mickyyy68`, `yishan`, `claude-code`,
    /// `pi-questionnaire`.
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::Contract => "contract",
            Dialect::Mickyyy68 => "mickyyy68",
            Dialect::Yishan => "yishan",
            Dialect::ClaudeCode => "claude-code",
            Dialect::PiQuestionnaire => "pi-questionnaire",
        }
    }

    /// The system's name for people: `mickyyy68/pi-ask`, `Claude Code AskUserQuestion`, ...
    pub fn title(self) -> &'static str {
        match self {
            Dialect::Contract => "the ask_user contract",
            Dialect::Mickyyy68 => "mickyyy68/pi-ask",
            Dialect::Yishan => "@yishan-io/pi-ask",
            Dialect::ClaudeCode => "Claude Code AskUserQuestion",
            Dialect::PiQuestionnaire => "pi's example questionnaire",
        }
    }

    /// How the walker reads this format.
    fn format(self) -> &'static Format {
        match self {
            Dialect::Contract => &CONTRACT,
            Dialect::Mickyyy68 | Dialect::ClaudeCode => &formats::QUESTIONS,
            Dialect::Yishan => &formats::YISHAN,
            Dialect::PiQuestionnaire => &formats::PI_QUESTIONNAIRE,
        }
    }

    /// The fields that tell this format apart, for the `unknown_format` hint.
    fn telltale(self) -> &'static str {
        match self {
            Dialect::Contract => "`questions[].prompt`, `type`",
            Dialect::Mickyyy68 | Dialect::ClaudeCode => {
                "`questions[].question`, `header`, `multiSelect`"
            }
            Dialect::Yishan => "one `question` with `options`, `allowMultiple`, `allowFreeform`",
            Dialect::PiQuestionnaire => "`questions[].allowOther`",
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<Dialect> for InputFormat {
    fn from(d: Dialect) -> Self {
        match d {
            Dialect::Contract => InputFormat::Contract,
            Dialect::Mickyyy68 => InputFormat::Mickyyy68,
            Dialect::Yishan => InputFormat::Yishan,
            Dialect::ClaudeCode => InputFormat::ClaudeCode,
            Dialect::PiQuestionnaire => InputFormat::PiQuestionnaire,
        }
    }
}

/// A payload read in some format: the format it was read as, the normalized payload or every
/// problem, and the warnings (the format's own limits, when not `--strict`).
#[derive(Debug, Clone, PartialEq)]
pub struct Reading {
    /// The format the payload was read as (detected, or as asked).
    pub format: Dialect,
    /// The normalized payload, or why it was refused.
    pub payload: Result<Payload, PayloadError>,
    /// Limits of the format that the payload breaks but pi-ask does not need (mickyyy68/pi-ask's
    /// 1-4 questions, 2-5 options, ...), and keys given twice (`duplicate_key`): refusals under
    /// `--strict`, else only reported by `pi-ask validate`. In document order.
    pub warnings: Vec<Problem>,
}

/// Parses payload text in `format` (`Auto`: detected); `strict` turns the format's own limits
/// into problems. See [`Reading`].
pub fn parse_payload_as(text: &str, format: InputFormat, strict: bool) -> Reading {
    if matches!(format, InputFormat::Auto | InputFormat::Contract) {
        // A well-formed contract payload: the typed fast path, no detection needed.
        if let Some(payload) = super::validate::parse_fast(text) {
            return Reading {
                format: Dialect::Contract,
                payload,
                warnings: Vec::new(),
            };
        }
    }
    match serde_json::from_str::<Value>(text) {
        // The typed path refuses a repeated key; here the last value is used, and said.
        Ok(value) => read_value(
            &value,
            format,
            strict,
            super::duplicates::duplicate_keys(text, super::duplicates::IN_A_PAYLOAD),
        ),
        Err(e) => Reading {
            format: match format {
                InputFormat::Auto => Dialect::Contract,
                other => dialect_of(other),
            },
            payload: Err(PayloadError {
                title: None,
                problems: vec![malformed_json(&e)],
            }),
            warnings: Vec::new(),
        },
    }
}

/// [`parse_payload_as`] on an already-parsed JSON value.
pub fn parse_value_as(value: &Value, format: InputFormat, strict: bool) -> Reading {
    read_value(value, format, strict, Vec::new())
}

/// [`parse_value_as`] with `more` warnings of the text it was parsed from (its repeated keys),
/// which `strict` turns into problems as the format's limits.
fn read_value(value: &Value, format: InputFormat, strict: bool, more: Vec<Problem>) -> Reading {
    let (dialect, hint) = match format {
        InputFormat::Auto => match detect(value) {
            Detection::Fits(d) => (d, None),
            Detection::Unknown { closest } => (Dialect::Contract, Some(closest)),
        },
        other => (dialect_of(other), None),
    };
    let mut payload = validate::parse_value_as(value, dialect.format());
    let spelling = &dialect.format().spelling;
    if let (Some(closest), Err(err)) = (hint, &mut payload) {
        if closest != Dialect::Contract {
            err.problems.insert(0, unknown_format(closest));
            super::cap_problems(&mut err.problems);
        }
    }
    let mut warnings = limits::check(value, dialect);
    warnings.extend(more);
    sort_problems(&mut warnings, spelling);
    super::cap_problems(&mut warnings);
    if strict && !warnings.is_empty() {
        let mut all = std::mem::take(&mut warnings);
        payload = match payload {
            Ok(p) => Err(PayloadError {
                title: p.title,
                problems: Vec::new(),
            }),
            Err(e) => Err(e),
        };
        if let Err(e) = &mut payload {
            e.problems.append(&mut all);
            sort_problems(&mut e.problems, spelling);
            super::cap_problems(&mut e.problems);
        }
    }
    Reading {
        format: dialect,
        payload,
        warnings,
    }
}

fn dialect_of(format: InputFormat) -> Dialect {
    match format {
        InputFormat::Auto | InputFormat::Contract => Dialect::Contract,
        InputFormat::Mickyyy68 => Dialect::Mickyyy68,
        InputFormat::Yishan => Dialect::Yishan,
        InputFormat::ClaudeCode => Dialect::ClaudeCode,
        InputFormat::PiQuestionnaire => Dialect::PiQuestionnaire,
    }
}

pub use replay::{replays_by_label, replays_joined};

/// The keys of Claude Code's `answers` (and `annotations`) for questions given as (id,
/// prompt), unique: the question text; for a text an earlier key already is, `text [id]`;
/// when that is taken too (a question whose text is `Pick [b]`), `text [id] [2]`, `[3]`, ...
/// Results (`result::formats`) and their replay (the answers file) key by this one rule.
pub fn claude_code_keys<'a>(questions: impl Iterator<Item = (&'a str, &'a str)>) -> Vec<String> {
    let mut taken = std::collections::HashSet::new();
    questions
        .map(|(id, prompt)| {
            let key = std::iter::once(prompt.to_string())
                .chain(std::iter::once(format!("{prompt} [{id}]")))
                .chain((2..).map(|n| format!("{prompt} [{id}] [{n}]")))
                .find(|key| !taken.contains(key))
                .expect("an endless list of keys has a free one");
            taken.insert(key.clone());
            key
        })
        .collect()
}

/// The `unknown_format` problem: the payload fits no format; `closest` is named.
fn unknown_format(closest: Dialect) -> Problem {
    Problem::new(
        ProblemCode::UnknownFormat,
        "",
        format!(
            "the payload fits no known format, so it was checked as the contract's (below); it \
             is closest to {} ({}): pass `--input-format {}` to check it as that format",
            closest.title(),
            closest.telltale(),
            closest.as_str()
        ),
    )
}

/// What detection found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Detection {
    /// Every field of the payload belongs to this format.
    Fits(Dialect),
    /// No format fits; this one knows the most of its fields.
    Unknown {
        /// The format with the most known and fewest unknown fields.
        closest: Dialect,
    },
}

/// Which format `value` is in: the first of [`Dialect::ALL`] whose fields it fits (Claude Code
/// only when every question has `header` and `multiSelect` and no `id` or option `value` is
/// given, as Claude Code always writes; mickyyy68/pi-ask otherwise), else the closest.
pub(crate) fn detect(value: &Value) -> Detection {
    if !value.is_object() {
        return Detection::Fits(Dialect::Contract);
    }
    let mut best = (Dialect::Contract, i64::MIN);
    for &d in Dialect::ALL {
        // Claude Code and mickyyy68/pi-ask share one shape: Claude Code only when it looks
        // like what Claude Code writes.
        if d == Dialect::ClaudeCode && !looks_like_claude_code(value) {
            continue;
        }
        let fit = Fit::of(value, d.format());
        if fit.unknown == 0 {
            return Detection::Fits(d);
        }
        let score = fit.known as i64 - fit.unknown as i64;
        if score > best.1 {
            best = (d, score);
        }
    }
    Detection::Unknown { closest: best.0 }
}

/// Claude Code writes `header` and `multiSelect` on every question, and never `id` or an
/// option `value`.
fn looks_like_claude_code(value: &Value) -> bool {
    let Some(questions) = value.get("questions").and_then(Value::as_array) else {
        return false;
    };
    !questions.is_empty()
        && questions.iter().all(|q| {
            q.get("header").is_some()
                && q.get("multiSelect").is_some()
                && q.get("id").is_none()
                && q.get("options")
                    .and_then(Value::as_array)
                    .is_none_or(|os| os.iter().all(|o| o.get("value").is_none()))
        })
}

/// How many of a payload's field names a format knows, at every level it reads.
#[derive(Debug, Default)]
struct Fit {
    known: usize,
    unknown: usize,
}

impl Fit {
    fn of(value: &Value, format: &Format) -> Fit {
        let mut fit = Fit::default();
        let Some(root) = value.as_object() else {
            return fit;
        };
        let question = |fit: &mut Fit, q: &serde_json::Map<String, Value>| {
            fit.count(q.keys(), format.question.known);
            if let Some(options) = q.get(format.spelling.options).and_then(Value::as_array) {
                for o in options {
                    match o {
                        Value::Object(o) => fit.count(o.keys(), format.option.known),
                        Value::String(_) if format.bare_options => fit.known += 1,
                        _ => {}
                    }
                }
            }
        };
        match format.spelling.questions {
            Some(key) => {
                fit.count(root.keys(), format.document.known);
                if let Some(items) = root.get(key).and_then(Value::as_array) {
                    for q in items.iter().filter_map(Value::as_object) {
                        question(&mut fit, q);
                    }
                }
            }
            None => question(&mut fit, root),
        }
        fit
    }

    fn count<'a>(&mut self, keys: impl Iterator<Item = &'a String>, known: &[&str]) {
        for k in keys {
            if known.contains(&k.as_str()) {
                self.known += 1;
            } else {
                self.unknown += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    //! One test per normalization rule of each format (docs/dialects.md), detection, and the
    //! formats' own limits.
    use super::*;
    use serde_json::json;

    fn read(v: Value) -> Reading {
        parse_value_as(&v, InputFormat::Auto, false)
    }

    fn payload(v: Value) -> (Dialect, Value) {
        let r = read(v);
        let p = r.payload.unwrap_or_else(|e| panic!("{e}"));
        (r.format, serde_json::to_value(p).unwrap())
    }

    fn problems(v: Value, format: InputFormat) -> Vec<(ProblemCode, String)> {
        parse_value_as(&v, format, false)
            .payload
            .unwrap_err()
            .problems
            .into_iter()
            .map(|p| (p.code, p.path))
            .collect()
    }

    fn pair(code: ProblemCode, path: &str) -> Vec<(ProblemCode, String)> {
        vec![(code, path.to_string())]
    }

    #[test]
    fn mickyyy68_ids_labels_and_values_default_as_the_seed_says() {
        // mickyyy68/pi-ask\'s README, "Minimal example": no id, no header, values given.
        let (format, p) = payload(json!({"questions": [{
        "question": "Which database should the project use?",
        "options": [
            {"value": "postgres", "label": "PostgreSQL", "description": "Full."},
            {"label": "  SQLite "}
        ]}]}));
        // The label is trimmed as every label is (the contract's project's normalize).
        assert_eq!(format, Dialect::Mickyyy68);
        assert_eq!(
            p,
            json!({"questions": [{"id": "q1", "label": "Q1",
                "prompt": "Which database should the project use?", "type": "single",
                "required": false, "options": [
                    {"value": "postgres", "label": "PostgreSQL", "description": "Full."},
                    {"value": "SQLite", "label": "SQLite"}]}]})
        );
    }

    #[test]
    fn mickyyy68_header_is_the_label_and_multiselect_the_type() {
        let (_, p) = payload(json!({"questions": [
            {"id": "language", "header": "Language", "question": "Which?",
             "options": [{"value": "ts", "label": "TypeScript"}, {"value": "py", "label": "Python"}]},
            {"question": "Features?", "multiSelect": true,
             "options": [{"value": "auth", "label": "Auth"}, {"value": "api", "label": "API"}]}
        ]}));
        let q = &p["questions"];
        assert_eq!(
            (&q[0]["id"], &q[0]["label"]),
            (&json!("language"), &json!("Language"))
        );
        assert_eq!(
            (&q[1]["id"], &q[1]["label"], &q[1]["type"]),
            (&json!("q2"), &json!("Q2"), &json!("multi"))
        );
    }

    #[test]
    fn a_generated_id_may_collide_with_a_given_one() {
        let opts = json!([{"label": "A"}, {"label": "B"}]);
        assert_eq!(
            problems(
                json!({"questions": [{"id": "q2", "question": "x", "options": opts},
                                     {"question": "y", "options": opts}]}),
                InputFormat::Auto
            ),
            pair(ProblemCode::DuplicateQuestionId, "questions[1]")
        );
    }

    #[test]
    fn defaulted_values_must_be_unique_and_are_reported_at_the_label() {
        assert_eq!(
            problems(
                json!({"questions": [{"question": "x", "options": [{"label": "A"}, {"label": " A"}]}]}),
                InputFormat::Auto
            ),
            pair(
                ProblemCode::DuplicateOptionValue,
                "questions[0].options[1].label"
            )
        );
    }

    #[test]
    fn mickyyy68_rules_speak_its_field_names() {
        let got = parse_value_as(
            &json!({"questions": [{"header": " ", "question": "", "options": [{"label": ""}, {"value": "", "label": "B"}]}]}),
            InputFormat::Mickyyy68,
            false,
        )
        .payload
        .unwrap_err()
        .problems;
        let got: Vec<(ProblemCode, &str, &str)> = got
            .iter()
            .map(|p| (p.code, p.path.as_str(), p.message.as_str()))
            .collect();
        assert_eq!(
            got,
            vec![
                (ProblemCode::BlankLabel, "questions[0].header",
                 "the question header must not be blank when provided: give text or leave `header` out"),
                (ProblemCode::EmptyPrompt, "questions[0].question",
                 "the question text must not be empty or only whitespace"),
                (ProblemCode::EmptyOptionLabel, "questions[0].options[0].label",
                 "the option label must not be empty or only whitespace"),
                (ProblemCode::EmptyOptionValue, "questions[0].options[1].value",
                 "the option value must not be empty or only whitespace"),
            ]
        );
    }

    #[test]
    fn no_options_is_a_text_only_question_outside_the_contract() {
        let (_, p) = payload(json!({"questions": [{"question": "Anything else?", "options": []}]}));
        assert_eq!(p["questions"][0]["options"], json!([]));
        // The contract's own format keeps its at-least-one-option rule.
        assert_eq!(
            problems(
                json!({"questions": [{"id": "q", "prompt": "p", "options": []}]}),
                InputFormat::Auto
            ),
            pair(ProblemCode::NoOptions, "questions[0].options")
        );
    }

    #[test]
    fn yishan_one_question_with_string_or_object_options() {
        // @yishan-io/pi-ask\'s README, "Example".
        let (format, p) = payload(json!({
            "question": "Which environment should we use?",
            "context": "We need one target for the next deployment.",
            "options": [{"title": "staging"}, {"title": "production", "description": "Customer-facing"}],
            "allowMultiple": false,
            "allowFreeform": true
        }));
        assert_eq!(format, Dialect::Yishan);
        assert_eq!(
            p,
            json!({"questions": [{"id": "q1", "label": "Q1", "prompt": "Which environment should we use?",
                "context": "We need one target for the next deployment.", "type": "single",
                "required": false, "options": [
                    {"value": "staging", "label": "staging"},
                    {"value": "production", "label": "production", "description": "Customer-facing"}]}]})
        );
        let (_, p) =
            payload(json!({"question": "Which?", "options": ["a", " b "], "allowMultiple": true}));
        assert_eq!(
            p["questions"][0]["options"],
            json!([{"value": "a", "label": "a"}, {"value": "b", "label": "b"}])
        );
        assert_eq!(p["questions"][0]["type"], "multi");
    }

    #[test]
    fn yishan_options_default_to_none_a_text_only_question() {
        let (_, p) = payload(json!({"question": "What should the release be called?"}));
        assert_eq!(p["questions"][0]["options"], json!([]));
        assert!(p["questions"][0].get("allowFreeform").is_none());
    }

    #[test]
    fn yishan_allow_freeform_false_turns_custom_text_off() {
        let r = read(json!({"question": "Which?", "options": ["a", "b"], "allowFreeform": false}));
        let q = &r.payload.unwrap().questions[0];
        assert!(!q.allow_freeform);
        assert!(!q.allows_custom_text());
        // Without options and without free text nothing could be answered.
        assert_eq!(
            problems(
                json!({"question": "Which?", "allowFreeform": false}),
                InputFormat::Auto
            ),
            pair(ProblemCode::NoOptions, "options")
        );
    }

    #[test]
    fn yishan_rules_speak_its_field_names() {
        assert_eq!(
            problems(
                json!({"question": "q", "context": " ", "options": ["a", "", {"title": "a"}, 3]}),
                InputFormat::Yishan
            ),
            vec![
                (ProblemCode::BlankContext, "context".to_string()),
                (ProblemCode::EmptyOptionLabel, "options[1]".to_string()),
                (
                    ProblemCode::DuplicateOptionValue,
                    "options[2].title".to_string()
                ),
                (ProblemCode::WrongType, "options[3]".to_string()),
            ]
        );
        assert_eq!(
            problems(json!({"context": "c"}), InputFormat::Yishan),
            pair(ProblemCode::MissingField, "question")
        );
    }

    #[test]
    fn pi_questionnaire_allow_other_is_allow_freeform() {
        let (format, p) = payload(json!({"questions": [
            {"id": "scope", "prompt": "Scope?", "allowOther": false,
             "options": [{"value": "a", "label": "A"}]},
            {"id": "name", "prompt": "Name?", "options": []}
        ]}));
        assert_eq!(format, Dialect::PiQuestionnaire);
        assert_eq!(p["questions"][0]["allowFreeform"], false);
        assert_eq!(p["questions"][1]["options"], json!([]));
        assert_eq!(
            problems(
                json!({"questions": [{"id": "s", "prompt": "p", "allowOther": false, "options": []}]}),
                InputFormat::Auto
            ),
            pair(ProblemCode::NoOptions, "questions[0].options")
        );
    }

    #[test]
    fn detection_prefers_the_contract_then_the_first_format_that_fits() {
        let d = |v: Value| detect(&v);
        assert_eq!(d(json!({})), Detection::Fits(Dialect::Contract));
        assert_eq!(d(json!([1])), Detection::Fits(Dialect::Contract));
        assert_eq!(
            d(json!({"questions": [{"id": "a", "prompt": "p", "options": []}]})),
            Detection::Fits(Dialect::Contract)
        );
        assert_eq!(
            d(
                json!({"questions": [{"id": "a", "prompt": "p", "allowOther": true, "options": []}]})
            ),
            Detection::Fits(Dialect::PiQuestionnaire)
        );
        assert_eq!(
            d(
                json!({"questions": [{"question": "q", "header": "H", "multiSelect": false,
                "options": [{"label": "A", "description": "d"}]}]})
            ),
            Detection::Fits(Dialect::ClaudeCode)
        );
        // An id or a value is mickyyy68/pi-ask's; so is a question without header.
        assert_eq!(
            d(
                json!({"questions": [{"id": "x", "question": "q", "header": "H", "multiSelect": false, "options": []}]})
            ),
            Detection::Fits(Dialect::Mickyyy68)
        );
        assert_eq!(
            d(json!({"questions": [{"question": "q", "options": []}]})),
            Detection::Fits(Dialect::Mickyyy68)
        );
        assert_eq!(
            d(json!({"question": "q"})),
            Detection::Fits(Dialect::Yishan)
        );
        assert_eq!(
            d(json!({"question": "q", "optons": []})),
            Detection::Unknown {
                closest: Dialect::Yishan
            }
        );
        assert_eq!(
            d(json!({"questions": [{"id": "q", "promt": "p"}]})),
            Detection::Unknown {
                closest: Dialect::Contract
            }
        );
    }

    #[test]
    fn an_unknown_shape_gets_the_contracts_problems_and_a_hint() {
        let r = read(json!({"questions": [{"question": "q", "choices": []}]}));
        assert_eq!(r.format, Dialect::Contract);
        let problems = r.payload.unwrap_err().problems;
        assert_eq!(problems[0].code, ProblemCode::UnknownFormat);
        assert!(
            problems[0].message.contains("closest to mickyyy68/pi-ask")
                && problems[0].message.contains("`--input-format mickyyy68`"),
            "{}",
            problems[0].message
        );
        // Then the contract's own problems.
        let rest: Vec<(ProblemCode, &str)> = problems[1..]
            .iter()
            .map(|p| (p.code, p.path.as_str()))
            .collect();
        assert_eq!(
            rest,
            vec![
                (ProblemCode::MissingField, "questions[0].id"),
                (ProblemCode::MissingField, "questions[0].prompt"),
                (ProblemCode::MissingField, "questions[0].options"),
                (ProblemCode::UnknownField, "questions[0].question"),
                (ProblemCode::UnknownField, "questions[0].choices"),
            ]
        );
        // A typo in a contract payload gets no hint.
        let r = read(
            json!({"questions": [{"id": "q", "promt": "p", "options": [{"value": "a", "label": "A"}]}]}),
        );
        assert!(r
            .payload
            .unwrap_err()
            .problems
            .iter()
            .all(|p| p.code != ProblemCode::UnknownFormat));
    }

    #[test]
    fn a_forced_format_reads_the_payload_as_that_format() {
        let contract = json!({"questions": [{"id": "a", "prompt": "p", "options": [{"value": "v", "label": "V"}]}]});
        let got = problems(contract.clone(), InputFormat::Mickyyy68);
        assert_eq!(
            got,
            vec![
                (
                    ProblemCode::MissingField,
                    "questions[0].question".to_string()
                ),
                (ProblemCode::UnknownField, "questions[0].prompt".to_string()),
            ]
        );
        let r = parse_value_as(&contract, InputFormat::PiQuestionnaire, false);
        assert_eq!(r.format, Dialect::PiQuestionnaire);
        assert!(r.payload.is_ok());
    }

    fn six_options() -> Value {
        json!((1..=6)
            .map(|i| json!({"label": format!("Option {i}")}))
            .collect::<Vec<_>>())
    }

    #[test]
    fn the_seeds_limits_are_warnings_unless_strict() {
        let v = json!({"questions": [
            {"header": "A header that is far too long", "question": "q", "options": six_options()},
            {"question": "r", "options": [{"label": "Write my own answer..."}, {"label": "x".repeat(61)}]}
        ]});
        let r = parse_value_as(&v, InputFormat::Auto, false);
        assert_eq!(r.format, Dialect::Mickyyy68);
        assert!(r.payload.is_ok());
        let warnings: Vec<(ProblemCode, &str)> = r
            .warnings
            .iter()
            .map(|p| (p.code, p.path.as_str()))
            .collect();
        assert_eq!(
            warnings,
            vec![
                (ProblemCode::HeaderTooLong, "questions[0].header"),
                (ProblemCode::TooManyOptions, "questions[0].options"),
                (ProblemCode::ReservedLabel, "questions[1].options[0].label"),
                (ProblemCode::LabelTooLong, "questions[1].options[1].label"),
            ]
        );
        let strict = parse_value_as(&v, InputFormat::Auto, true);
        assert!(strict.warnings.is_empty());
        assert_eq!(strict.payload.unwrap_err().problems, r.warnings);
    }

    #[test]
    fn claude_code_has_its_own_limits() {
        let v = json!({"questions": [
            {"header": "Thirteen chrs", "question": "q", "multiSelect": false,
             "options": [{"label": "A", "description": "a"}, {"label": "Other", "description": "o"},
                         {"label": "C", "description": "c"}, {"label": "D", "description": "d"},
                         {"label": "E", "description": "e"}]},
            {"header": "H", "question": "r", "multiSelect": true, "options": [{"label": "A", "description": "a"}]},
            {"header": "H", "question": "s", "multiSelect": true, "options": [{"label": "A", "description": "a"}, {"label": "B", "description": "b"}]},
            {"header": "H", "question": "t", "multiSelect": true, "options": [{"label": "A", "description": "a"}, {"label": "B", "description": "b"}]},
            {"header": "H", "question": "u", "multiSelect": true, "options": [{"label": "A", "description": "a"}, {"label": "B", "description": "b"}]}
        ]});
        let r = parse_value_as(&v, InputFormat::Auto, false);
        assert_eq!(r.format, Dialect::ClaudeCode);
        let codes: Vec<ProblemCode> = r.warnings.iter().map(|p| p.code).collect();
        assert_eq!(
            codes,
            vec![
                ProblemCode::TooManyQuestions,
                ProblemCode::HeaderTooLong,
                ProblemCode::TooManyOptions,
                ProblemCode::ReservedLabel,
                ProblemCode::TooFewOptions,
            ]
        );
    }

    #[test]
    fn text_input_goes_through_the_fast_path_for_the_contract() {
        let text = r#"{"questions": [{"id": "q", "prompt": "p", "options": [{"value": "a", "label": "A"}]}]}"#;
        let r = parse_payload_as(text, InputFormat::Auto, false);
        assert_eq!(r.format, Dialect::Contract);
        assert_eq!(r.payload, super::super::parse_payload(text));
        let r = parse_payload_as("{", InputFormat::Yishan, false);
        assert_eq!(r.format, Dialect::Yishan);
        assert_eq!(
            r.payload.unwrap_err().problems[0].code,
            ProblemCode::MalformedJson
        );
    }
}

//! The limits mickyyy68/pi-ask (its README, "Input schema") and Claude Code's AskUserQuestion
//! put on a payload that pi-ask itself does not need: 1 to 4 questions, 2 to 5 (Claude Code:
//! 2 to 4) options, a short header, labels of at most 60 characters (mickyyy68/pi-ask), and
//! labels reserved for the tools' own rows. A payload breaking them still runs; `pi-ask
//! validate` reports them as warnings, and `--strict` refuses them with the seed's codes.

use super::super::json::quoted;
use super::super::{Problem, ProblemCode};
use super::Dialect;
use serde_json::Value;

/// One format's limits.
struct Limits {
    max_questions: usize,
    min_options: usize,
    max_options: usize,
    max_header: usize,
    max_label: Option<usize>,
    /// Labels the tool uses for its own rows, compared trimmed and ignoring case (`...` is
    /// read as `…`).
    reserved: &'static [&'static str],
}

/// mickyyy68/pi-ask (its README): 1-4 questions, 2-5 options, header <= 16, label <= 60;
/// `Write my own answer…` and `Continue →` are its own rows.
const MICKYYY68: Limits = Limits {
    max_questions: 4,
    min_options: 2,
    max_options: 5,
    max_header: 16,
    max_label: Some(60),
    reserved: &["Write my own answer…", "Continue →"],
};

/// Claude Code's AskUserQuestion: 1-4 questions, 2-4 options, header <= 12; `Other` is its own
/// row.
const CLAUDE_CODE: Limits = Limits {
    max_questions: 4,
    min_options: 2,
    max_options: 4,
    max_header: 12,
    max_label: None,
    reserved: &["Other"],
};

fn normalized(label: &str) -> String {
    label.trim().replace("...", "…").to_lowercase()
}

/// Every limit of `dialect` that `value` breaks, with the seed's codes; empty for formats
/// without such limits. Only values of the right JSON type are looked at (a wrong type is the
/// input rules' problem).
pub(super) fn check(value: &Value, dialect: Dialect) -> Vec<Problem> {
    let limits = match dialect {
        Dialect::Mickyyy68 => MICKYYY68,
        Dialect::ClaudeCode => CLAUDE_CODE,
        _ => return Vec::new(),
    };
    let who = dialect.title();
    let mut out = Vec::new();
    let Some(questions) = value.get("questions").and_then(Value::as_array) else {
        return out;
    };
    if questions.len() > limits.max_questions {
        out.push(Problem::new(
            ProblemCode::TooManyQuestions,
            "questions",
            format!(
                "{who} asks 1 to {} questions at a time; this payload has {}",
                limits.max_questions,
                questions.len()
            ),
        ));
    }
    // Compared with every label: made once.
    let reserved: Vec<(&str, String)> = limits
        .reserved
        .iter()
        .map(|r| (*r, normalized(r)))
        .collect();
    for (i, q) in questions.iter().enumerate() {
        let base = format!("questions[{i}]");
        if let Some(header) = q.get("header").and_then(Value::as_str) {
            let n = header.chars().count();
            if n > limits.max_header {
                out.push(Problem::new(
                    ProblemCode::HeaderTooLong,
                    format!("{base}.header"),
                    format!(
                        "{who} takes headers of at most {} characters; this one has {n}",
                        limits.max_header
                    ),
                ));
            }
        }
        let Some(options) = q.get("options").and_then(Value::as_array) else {
            continue;
        };
        let n = options.len();
        if n < limits.min_options || n > limits.max_options {
            out.push(Problem::new(
                if n < limits.min_options {
                    ProblemCode::TooFewOptions
                } else {
                    ProblemCode::TooManyOptions
                },
                format!("{base}.options"),
                format!(
                    "{who} takes {} to {} options per question; this question has {n}",
                    limits.min_options, limits.max_options
                ),
            ));
        }
        for (j, o) in options.iter().enumerate() {
            let Some(label) = o.get("label").and_then(Value::as_str) else {
                continue;
            };
            let path = || format!("{base}.options[{j}].label");
            let chars = label.chars().count();
            if let Some(max) = limits.max_label.filter(|&max| chars > max) {
                out.push(Problem::new(
                    ProblemCode::LabelTooLong,
                    path(),
                    format!("{who} takes labels of at most {max} characters; this one has {chars}"),
                ));
            }
            let label_normalized = normalized(label);
            if let Some((reserved, _)) = reserved.iter().find(|(_, r)| *r == label_normalized) {
                out.push(Problem::new(
                    ProblemCode::ReservedLabel,
                    path(),
                    format!(
                        "{} is reserved by {who} for its own row ({}); choose another label",
                        quoted(label),
                        quoted(reserved)
                    ),
                ));
            }
        }
    }
    out
}

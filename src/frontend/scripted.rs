//! The scripted front end: answers from a file (`--answers FILE` or `PI_ASK_ANSWERS`), no
//! terminal at all (docs/answers.md).
//!
//! The file is read, parsed and checked whole against the payload by the contract
//! ([`crate::contract::parse_answers`]); only when it has no problem at all is it applied to
//! the [`AnswerState`] by [`apply`], through the same calls the interactive front ends make,
//! so every output rule of the contract holds and nothing is ever half-applied.

use crate::answers::{AnswerError, AnswerState};
use crate::contract::{parse_answers, read_answers, AnswersFile, Payload, Problem, ToolResult};
use crate::exit_codes::ExitCode;
use crate::result;
use std::path::Path;

/// Applies every entry of `file` to `state` with the answer-state calls a person's key
/// presses would make (select, save custom text, save notes). On an error `state` is left
/// untouched.
///
/// Errors: only when the answers were checked against another payload.
pub fn apply(file: &AnswersFile, state: &mut AnswerState) -> Result<(), AnswerError> {
    let mut next = state.clone();
    for e in &file.entries {
        next.clear(e.question)?;
        next.set_selection(e.question, &e.options)?;
        if let Some(text) = &e.custom_text {
            next.set_custom_text(e.question, text)?;
        }
        if let Some(note) = &e.note {
            next.set_note(e.question, note)?;
        }
        for (option, note) in &e.option_notes {
            next.set_option_note(e.question, *option, note)?;
        }
    }
    *state = next;
    Ok(())
}

/// The result for an answers file that could not be used: `invalid_answers`, exit 2.
pub fn invalid_answers(payload: &Payload, problems: Vec<Problem>) -> (ToolResult, ExitCode) {
    let res = result::invalid_input(
        crate::contract::ErrorCode::InvalidAnswers,
        "answers file",
        payload.title.clone(),
        Some(payload),
        problems,
    );
    (res, ExitCode::Invalid)
}

/// Answers `payload` from the file at `path` (at most `limit` bytes; `-` for stdin) and
/// returns the result and exit code: the submitted result (exit 0), the dismissed one for a
/// scripted `cancelled: true` (exit 1), or `invalid_answers` with every problem (exit 2, also
/// printed on stderr). `state` gets the answers only when the whole file is valid.
pub fn answer_from_file(
    payload: &Payload,
    state: &mut AnswerState,
    path: &Path,
    limit: u64,
) -> (ToolResult, ExitCode) {
    let parsed = read_answers(path, limit)
        .map_err(|p| vec![p])
        .and_then(|text: String| parse_answers(&text, payload));
    let scripted = match parsed {
        Ok(s) => s,
        Err(problems) => {
            let n = problems.len();
            eprintln!(
                "pi-ask: invalid answers file {}: {n} problem{}",
                path.display(),
                if n == 1 { "" } else { "s" }
            );
            for p in &problems {
                let at = if p.path.is_empty() {
                    "answers file"
                } else {
                    &p.path
                };
                eprintln!("  {at}: {} [{}]", p.message, p.code);
            }
            return invalid_answers(payload, problems);
        }
    };
    if scripted.cancelled {
        return (result::dismissed(payload), ExitCode::Cancelled);
    }
    if let Err(e) = apply(&scripted, state) {
        return (
            result::internal(
                Some(payload),
                &format!("applying checked answers failed: {e}"),
            ),
            ExitCode::Internal,
        );
    }
    (result::submitted(payload, state), ExitCode::Submitted)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::{parse_payload, AnswerEntry};

    fn payload() -> Payload {
        parse_payload(
            r#"{"questions": [
              {"id": "style", "prompt": "Style?", "options": [
                {"value": "minimal", "label": "Minimal"}, {"value": "rich", "label": "Rich"}]}
            ]}"#,
        )
        .unwrap()
    }

    #[test]
    fn apply_is_all_or_nothing() {
        let p = payload();
        let mut state = AnswerState::new(&p);
        let s = AnswersFile {
            cancelled: false,
            entries: vec![
                AnswerEntry {
                    question: 0,
                    options: vec![0],
                    ..AnswerEntry::default()
                },
                AnswerEntry {
                    question: 7,
                    ..AnswerEntry::default()
                },
            ],
        };
        assert!(apply(&s, &mut state).is_err());
        assert_eq!(state, AnswerState::new(&p));
    }
}

//! The scripted front end: answers from a file (`--answers FILE` or `PI_ASK_ANSWERS`), no
//! terminal at all (docs/answers.md).
//!
//! The file is read, parsed and checked whole against the payload by the contract
//! ([`crate::contract::parse_answers`]); only when it has no problem at all does it drive the
//! [`Flow`], with the commands a person's keys would give (open the question, answer it, write
//! its notes, submit), so every flow and answer rule holds and nothing is ever half-applied.

use crate::contract::{parse_answers, read_answers, AnswersFile};
use crate::flow::{Command, Flow, Screen};
use crate::result::Ending;
use std::path::Path;

/// Answers the flow from the file at `path` (at most `limit` bytes; `-` for stdin): see
/// [`drive`]. A file with any problem is applied not at all: [`Ending::InvalidAnswers`] with
/// every problem.
pub fn answer_from_file(flow: Flow<'_>, path: &Path, limit: u64) -> Ending {
    let payload = flow.payload();
    let parsed = read_answers(path, limit)
        .map_err(|p| vec![p])
        .and_then(|text| parse_answers(&text, payload));
    match parsed {
        Ok(file) => drive(flow, &file),
        Err(problems) => Ending::InvalidAnswers(problems),
    }
}

/// Drives `flow` with a checked answers file: each entry opens its question and sets its
/// answer and notes, then the flow is submitted (an answers file confirms the
/// required-question warning), or dismissed for a scripted `cancelled: true`.
///
/// Ends [`Ending::Internal`] when the flow refuses a command: only when the file was checked
/// against another payload.
pub fn drive(mut flow: Flow<'_>, file: &AnswersFile) -> Ending {
    let mut commands = Vec::new();
    if file.cancelled {
        commands.push(Command::Dismiss);
    } else {
        for e in &file.entries {
            commands.push(Command::Open(e.question));
            commands.push(Command::Answer {
                options: Some(e.options.clone()),
                custom_text: e.custom_text.clone(),
            });
            if let Some(note) = &e.note {
                commands.push(Command::SetNote {
                    question: e.question,
                    text: note.clone(),
                });
            }
            for (option, note) in &e.option_notes {
                commands.push(Command::SetOptionNote {
                    question: e.question,
                    option: *option,
                    text: note.clone(),
                });
            }
        }
        commands.push(Command::Submit);
    }
    for command in commands {
        if let Err(e) = flow.apply(command) {
            return Ending::Internal(format!("applying checked answers failed: {e}"));
        }
    }
    if flow.screen() == Screen::ConfirmSubmit {
        let _ = flow.apply(Command::Confirm);
    }
    flow.into_ending().unwrap_or_else(|| {
        Ending::Internal("the answers file did not end the questionnaire".to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::{parse_payload, AnswerEntry, Payload};
    use serde_json::json;

    fn payload() -> Payload {
        parse_payload(
            &json!({"questions": [
              {"id": "style", "prompt": "Style?", "required": true, "options": [
                {"value": "minimal", "label": "Minimal"}, {"value": "rich", "label": "Rich"}]},
              {"id": "fw", "prompt": "Frameworks?", "type": "multi", "options": [
                {"value": "react", "label": "React"}, {"value": "vue", "label": "Vue"}]}
            ]})
            .to_string(),
        )
        .unwrap()
    }

    fn answers(ending: &Ending, p: &Payload) -> serde_json::Value {
        match ending {
            Ending::Submitted(state) => serde_json::to_value(state.answers(p)).unwrap(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn entries_are_applied_in_file_order_and_submitted_despite_required_ones() {
        let p = payload();
        let file = parse_answers(
            r#"{"answers": {"fw": {"values": ["vue", "react"], "customText": "Solid",
                "note": "n", "optionNotes": {"vue": "v3"}}}}"#,
            &p,
        )
        .unwrap();
        assert_eq!(
            answers(&drive(Flow::new(&p), &file), &p),
            json!({"fw": {"values": ["react", "vue", "Solid"], "labels": ["React", "Vue", "Solid"],
                "indices": [1, 2], "customText": "Solid", "note": "n", "optionNotes": {"vue": "v3"}}})
        );
    }

    #[test]
    fn a_scripted_cancel_dismisses() {
        let p = payload();
        let file = parse_answers(r#"{"cancelled": true}"#, &p).unwrap();
        assert_eq!(drive(Flow::new(&p), &file), Ending::Dismissed);
    }

    #[test]
    fn an_entry_the_flow_refuses_is_internal_and_nothing_is_submitted() {
        let p = payload();
        let file = AnswersFile {
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
        assert_eq!(
            drive(Flow::new(&p), &file),
            Ending::Internal("applying checked answers failed: there is no question 8".into())
        );
    }
}

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
/// required-question warning), ended with Elaborate at the review for `"mode": "elaborate"`
/// ([`AnswersFile::elaborate`]), or dismissed for a scripted `cancelled: true`. A recorded
/// timeout ([`AnswersFile::timed_out`]) applies its entries and times out with the recorded
/// message, so it replays as the same timeout. `--auto-submit` does not apply: the file says
/// how the flow ends.
///
/// Ends [`Ending::Internal`] when the flow refuses a command: only when the file was checked
/// against another payload.
pub fn drive(flow: Flow<'_>, file: &AnswersFile) -> Ending {
    match apply(flow, file) {
        Ok(flow) => flow.into_ending().unwrap_or_else(|| {
            Ending::Internal("the answers file did not end the questionnaire".to_string())
        }),
        Err(why) => Ending::Internal(why),
    }
}

/// [`drive`], the ended flow returned (the answer channel's front ends keep it for their
/// transcript).
///
/// Errors: the flow refused a command (the file was checked against another payload), in
/// words.
pub fn apply<'p>(flow: Flow<'p>, file: &AnswersFile) -> Result<Flow<'p>, String> {
    let mut flow = flow.with_auto_submit(false);
    let mut commands = Vec::new();
    if file.cancelled && file.timed_out.is_none() {
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
        match &file.timed_out {
            Some(why) => commands.push(Command::TimeOut(why.clone())),
            None if file.elaborate => commands.extend([Command::Review, Command::Elaborate]),
            None => commands.push(Command::Submit),
        }
    }
    for command in commands {
        if let Err(e) = flow.apply(command) {
            return Err(format!("applying checked answers failed: {e}"));
        }
    }
    if flow.screen() == Screen::ConfirmSubmit {
        let _ = flow.apply(Command::Confirm);
    }
    Ok(flow)
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
    fn a_recorded_timeout_replays_as_the_same_timeout() {
        let p = payload();
        let recorded = json!({"details": {"cancelled": true,
            "answers": {"fw": {"values": ["vue"], "labels": ["Vue"], "indices": [2], "note": "n"}},
            "error": {"code": "timeout", "message": "no key for 30 seconds"}}});
        let file = parse_answers(&recorded.to_string(), &p).unwrap();
        assert_eq!(file.timed_out.as_deref(), Some("no key for 30 seconds"));
        match drive(Flow::new(&p), &file) {
            Ending::TimedOut { answers, why } => {
                assert_eq!(why, "no key for 30 seconds");
                assert_eq!(
                    serde_json::to_value(answers.answers(&p)).unwrap(),
                    json!({"fw": {"values": ["vue"], "labels": ["Vue"], "indices": [2], "note": "n"}})
                );
            }
            other => panic!("{other:?}"),
        }
        // Another error, or none, is a dismissal; a timeout without a message gets one.
        for (error, ending) in [
            (
                json!({"code": "aborted", "message": "received SIGTERM"}),
                Ending::Dismissed,
            ),
            (json!(null), Ending::Dismissed),
        ] {
            let doc = json!({"cancelled": true, "answers": {}, "error": error});
            let file = parse_answers(&doc.to_string(), &p).unwrap();
            assert_eq!(drive(Flow::new(&p), &file), ending);
        }
        let doc = json!({"cancelled": true, "answers": {}, "error": {"code": "timeout"}});
        let file = parse_answers(&doc.to_string(), &p).unwrap();
        assert_eq!(file.timed_out.as_deref(), Some("no key before the timeout"));
    }

    #[test]
    fn an_entry_the_flow_refuses_is_internal_and_nothing_is_submitted() {
        let p = payload();
        let file = AnswersFile {
            cancelled: false,
            timed_out: None,
            elaborate: false,
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

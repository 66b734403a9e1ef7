//! Fuzz target: payload parsing and validation (`pi_ask::contract::parse_payload`), then every
//! result built from it. Properties: nothing panics; an accepted payload holds every contract
//! input rule; a refused one has at least one problem; every result serializes. The same
//! text read in any format (`parse_payload_as`, docs/dialects.md) never panics, and its
//! results render in every result format.

#![no_main]

use libfuzzer_sys::fuzz_target;
use pi_ask::answers::AnswerState;
use pi_ask::contract::{parse_payload, parse_payload_as, InputFormat, QuestionType};
use pi_ask::result::formats::{render, ResultFormat};
use pi_ask::result::{self, Ending};
use pi_ask::output;
use std::collections::HashSet;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for strict in [false, true] {
        let reading = parse_payload_as(text, InputFormat::Auto, strict);
        let payload = reading.payload.as_ref().ok();
        let ending = match &reading.payload {
            Ok(p) => Ending::Submitted(AnswerState::new(p)),
            Err(e) => Ending::InvalidPayload(e.clone()),
        };
        let res = result::conclude(&ending, payload).0;
        for format in [ResultFormat::Mickyyy68, ResultFormat::Yishan, ResultFormat::ClaudeCode] {
            output::to_json(&render(&res, format, payload));
        }
    }
    match parse_payload(text) {
        Ok(payload) => {
            assert!(!payload.questions.is_empty());
            let mut ids = HashSet::new();
            for q in &payload.questions {
                assert!(!q.id.trim().is_empty() && !q.prompt.trim().is_empty());
                assert!(!q.label.trim().is_empty());
                assert!(ids.insert(q.id.as_str()), "duplicate id accepted");
                assert!(!q.options.is_empty());
                let mut values = HashSet::new();
                for o in &q.options {
                    assert!(values.insert(o.value.as_str()), "duplicate value accepted");
                    if q.kind == QuestionType::Preview {
                        assert!(o.preview.is_some(), "preview option without preview");
                    }
                    for text in [&o.description, &o.preview].into_iter().flatten() {
                        assert!(!text.trim().is_empty(), "blank optional field accepted");
                    }
                }
            }
            for ending in [
                Ending::Submitted(AnswerState::new(&payload)),
                Ending::Dismissed,
                Ending::NoUi("fuzz".to_string()),
                Ending::TimedOut {
                    answers: AnswerState::new(&payload),
                    why: "no key for 1 second".to_string(),
                },
            ] {
                output::to_json(&result::conclude(&ending, Some(&payload)).0);
            }
        }
        Err(err) => {
            assert!(!err.problems.is_empty());
            let _ = err.to_string();
            output::to_json(&result::conclude(&Ending::InvalidPayload(err), None).0);
        }
    }
});

//! Fuzz target: payload parsing and validation (`pi_ask::contract::parse_payload`), then every
//! result built from it. Properties: nothing panics; an accepted payload holds every contract
//! input rule; a refused one has at least one problem; every result serializes.

#![no_main]

use libfuzzer_sys::fuzz_target;
use pi_ask::answers::AnswerState;
use pi_ask::contract::{parse_payload, QuestionType};
use pi_ask::result::{self, Ending};
use pi_ask::output;
use std::collections::HashSet;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
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

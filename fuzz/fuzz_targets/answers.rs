//! Fuzz target: answers-file parsing and checking (`pi_ask::contract::parse_answers`)
//! against fixed payloads. The first byte picks the payload, the rest is the answers file.
//! Properties: nothing panics; checked answers always apply to the payload's answer state; the
//! submitted (or timed-out) result, replayed as an answers file, gives the same ending with
//! the same answers again. Answers are applied by the scripted front end driving the flow, as
//! in the real program.

#![no_main]

use libfuzzer_sys::fuzz_target;
use pi_ask::contract::{parse_answers, parse_payload, Payload, QuestionType};
use pi_ask::flow::Flow;
use pi_ask::frontend::scripted;
use pi_ask::output;
use pi_ask::result::{self, Ending};
use std::sync::OnceLock;

const PAYLOADS: &[&str] = &[
    include_str!("../../examples/implementation-preferences.json"),
    include_str!("../../examples/config-preview.json"),
    include_str!("../../examples/database.json"),
    include_str!("../../examples/language-features.json"),
];

fn payloads() -> &'static [Payload] {
    static P: OnceLock<Vec<Payload>> = OnceLock::new();
    P.get_or_init(|| PAYLOADS.iter().map(|t| parse_payload(t).unwrap()).collect())
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let payload = &payloads()[pick as usize % PAYLOADS.len()];
    let answers = match parse_answers(text, payload) {
        Ok(a) => a,
        Err(problems) => {
            assert!(!problems.is_empty());
            output::to_json(&result::conclude(&Ending::InvalidAnswers(problems), Some(payload)).0);
            return;
        }
    };
    for e in &answers.entries {
        let q = &payload.questions[e.question];
        assert!(
            e.options.windows(2).all(|w| w[0] < w[1]),
            "options not ascending"
        );
        if q.kind != QuestionType::Multi {
            assert!(e.options.len() + usize::from(e.custom_text.is_some()) <= 1);
        }
        if q.kind == QuestionType::Preview {
            assert!(e.custom_text.is_none());
        }
    }
    let ending = scripted::drive(Flow::new(payload), &answers);
    let state = match &ending {
        Ending::Dismissed if answers.cancelled && answers.timed_out.is_none() => return,
        Ending::Submitted(state) if !answers.cancelled => state,
        // A recorded timeout replays as a timeout with its answers.
        Ending::TimedOut { answers: state, .. } if answers.timed_out.is_some() => state,
        other => panic!("checked answers ended as {other:?}"),
    };
    // Replaying the result gives the same ending with the same answers.
    let recorded = output::to_json(&result::conclude(&ending, Some(payload)).0);
    let replay = parse_answers(&recorded, payload)
        .unwrap_or_else(|p| panic!("a result with answers does not replay: {p:?}\n{recorded}"));
    match (&ending, scripted::drive(Flow::new(payload), &replay)) {
        (Ending::Submitted(_), Ending::Submitted(again))
        | (Ending::TimedOut { .. }, Ending::TimedOut { answers: again, .. }) => assert_eq!(
            again.answers(payload),
            state.answers(payload),
            "replay differs\n{recorded}"
        ),
        (_, other) => panic!("a replayed result ended as {other:?}\n{recorded}"),
    }
});

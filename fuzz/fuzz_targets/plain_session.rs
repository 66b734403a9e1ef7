//! Fuzz target: the plain front end's whole flow (`pi_ask::frontend::plain::run` driving a `Flow`) over typed
//! lines, on fixed payloads (one with hostile text). The first byte picks the payload, the
//! rest is what the person types. Properties: nothing panics, the flow always ends (every
//! input ends in EOF at worst), and no control character other than newline and tab reaches
//! the terminal: no ESC, no C1, whatever the payload or the typed lines hold.

#![no_main]

use libfuzzer_sys::fuzz_target;
use pi_ask::contract::{parse_payload, Payload};
use pi_ask::flow::Flow;
use pi_ask::frontend::plain;
use pi_ask::{output, result};
use std::sync::OnceLock;

const PAYLOADS: &[&str] = &[
    include_str!("../../examples/implementation-preferences.json"),
    include_str!("../../examples/config-preview.json"),
    include_str!("../seeds/payload/hostile.json"),
];

fn payloads() -> &'static [Payload] {
    static P: OnceLock<Vec<Payload>> = OnceLock::new();
    P.get_or_init(|| PAYLOADS.iter().map(|t| parse_payload(t).unwrap()).collect())
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, typed)) = data.split_first() else {
        return;
    };
    let payload = &payloads()[pick as usize % PAYLOADS.len()];
    let mut screen = Vec::new();
    let ending = plain::run(Flow::new(payload), typed, &mut screen);
    let screen = String::from_utf8(screen).expect("the screen is UTF-8");
    if let Some(c) = screen.chars().find(|&c| {
        c != '\n'
            && c != '\t'
            && (c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'))
    }) {
        panic!("control character {c:?} reached the terminal:\n{screen}");
    }
    let (res, _) = result::conclude(&ending, Some(payload));
    output::to_json(&res);
});

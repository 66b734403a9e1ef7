//! Fuzz target: the terminal front end's whole input path without a terminal. Random bytes with
//! random gaps go through the key reader (`pi_ask::keys`, a scripted source on a manual clock,
//! so gaps cost no time) and the keys, each at the time the reader gave it, with random resizes,
//! drive the real front end (`pi_ask::frontend::tty::drive`) on the fake terminal
//! (`FakeBackend`: a vt100 screen with tmux's widths and a scrollback, one fake clock for keys
//! and timeouts), the line editors included: they are the front end's own components, so the
//! keys, pastes and resizes reach them as they reach the menus.
//!
//! Properties: nothing panics; the flow always ends in a valid ending for the input
//! (submitted, elaborated, dismissed, interrupted, a lost terminal when the input runs out, or with
//! `--timeout` timed out once it runs out), never an internal error; a submitted or timed-out result replays through
//! `--answers` to the same answers; no OSC string (window title, clipboard) reaches the
//! terminal. Inline, also: none of the sequences the inline placement never writes
//! (alternate screen, clear screen, absolute moves, saved cursor, scroll regions, zero-count
//! moves), and nothing stale (`FakeBackend::stale_rows`: every cursor move reached its row, the
//! live block kept within the window's rows less one, nothing left below the cursor, the
//! text printed before the run kept). (That the real terminal's modes are
//! put back is checked by the pty tests.)
//!
//! Input: byte 0 picks the payload (bits 0-1), text printed before the run (bit 2: a line,
//! bit 3: a partial line without a newline), `--timeout 3` (bit 6) and the full placement
//! (bit 7); byte 1 the window size; then pairs (gap, byte): a gap byte of 255 is a resize (the
//! next byte picks the new size), otherwise a gap of `gap % 40` ms before `byte` (the escape
//! delay is 25 ms here, so both sides of it are hit).

#![no_main]

use libfuzzer_sys::fuzz_target;
use pi_ask::contract::{parse_answers, parse_payload, Payload};
use pi_ask::flow::Flow;
use pi_ask::frontend::tty::{drive, FakeBackend, Placement};
use pi_ask::frontend::{scripted, AskOptions};
use pi_ask::keys::{Clock, Event, Input, KeyReader, ManualClock, ScriptedSource};
use pi_ask::output;
use pi_ask::result::{self, Ending};
use std::sync::OnceLock;
use std::time::Duration;

const PAYLOADS: &[&str] = &[
    include_str!("../../examples/implementation-preferences.json"),
    include_str!("../../examples/config-preview.json"),
    include_str!("../../examples/database.json"),
    include_str!("../seeds/payload/hostile.json"),
];

fn payloads() -> &'static [Payload] {
    static P: OnceLock<Vec<Payload>> = OnceLock::new();
    P.get_or_init(|| PAYLOADS.iter().map(|t| parse_payload(t).unwrap()).collect())
}

/// A window size from one byte: 2..=41 rows, 10..=137 columns.
fn size(b: u8) -> (usize, usize) {
    (2 + usize::from(b % 40), 10 + usize::from(b / 2))
}

fuzz_target!(|data: &[u8]| {
    let [pick, first_size, rest @ ..] = data else {
        return;
    };
    let payload = &payloads()[usize::from(*pick) % PAYLOADS.len()];
    let clock = ManualClock::new();
    let mut source = ScriptedSource::new(&clock);
    let mut sizes = Vec::new();
    let mut pairs = rest.chunks_exact(2);
    for pair in &mut pairs {
        if pair[0] == 255 {
            source.push(Duration::from_millis(1), Input::Resize);
            sizes.push(size(pair[1]));
        } else {
            source.push_bytes(Duration::from_millis(u64::from(pair[0] % 40)), &[pair[1]]);
        }
    }
    let mut reader = KeyReader::new(source, clock.clone(), Duration::from_millis(25));
    let mut events = Vec::new();
    let mut last = clock.now();
    // The reader ends with UnexpectedEof once the script is read (pending keys come first).
    while let Ok(event) = reader.next(None) {
        if event != Event::Timeout {
            let now = clock.now();
            events.push((now - last, event));
            last = now;
        }
    }
    let (rows, cols) = size(*first_size);
    let mut backend = FakeBackend::timed(rows, cols, events);
    backend.sizes = sizes.into();
    // With `--timeout`, the person stops typing when the input runs out: the time runs out.
    backend.idle_at_end = pick & 0x40 != 0;
    if pick & 0x04 != 0 {
        backend.print("$ pi-ask q.json\n");
    }
    if pick & 0x08 != 0 {
        backend.print("progress: 42% done");
    }
    let opts = AskOptions {
        cwd: ".".into(),
        context: Some("the agent's message".into()),
        timeout: (pick & 0x40 != 0).then(|| Duration::from_secs(3)),
        placement: if pick & 0x80 != 0 {
            Placement::Full
        } else {
            Placement::Inline
        },
        ..AskOptions::default()
    };
    let ending = drive(Flow::new(payload), &mut backend, &opts);
    if opts.placement == Placement::Inline {
        if let Some(bad) = forbidden(&backend.written) {
            panic!("the inline placement wrote {bad:?}");
        }
        let stale = backend.stale_rows();
        if !stale.is_empty() {
            panic!("stale rows after {ending:?}:\n{}", backend.report(&stale));
        }
    }
    assert!(backend.osc().is_empty(), "OSC strings reached the terminal: {:?}", backend.osc());
    let state = match &ending {
        Ending::Submitted(state) => Some(state),
        Ending::TimedOut { answers, .. } if opts.timeout.is_some() => Some(answers),
        Ending::TerminalLost(why) if opts.timeout.is_some() => {
            panic!("the input ran out with --timeout and the terminal was lost: {why}")
        }
        // Elaborate on the review: an elaborate result, not an answers file.
        Ending::Elaborated(_) => None,
        Ending::Dismissed | Ending::Interrupted | Ending::TerminalLost(_) => None,
        Ending::Internal(why) => panic!("the front end sent a command the flow refused: {why}"),
        other => panic!("the terminal front end ended as {other:?}"),
    };
    let (res, _) = result::conclude(&ending, Some(payload));
    let recorded = output::to_json(&res);
    if let Some(state) = state {
        // The result replays through `--answers` to the same answers.
        let replay = parse_answers(&recorded, payload)
            .unwrap_or_else(|p| panic!("the result does not replay: {p:?}\n{recorded}"));
        match scripted::drive(Flow::new(payload), &replay) {
            Ending::Submitted(again) | Ending::TimedOut { answers: again, .. } => assert_eq!(
                again.answers(payload),
                state.answers(payload),
                "replay differs\n{recorded}"
            ),
            other => panic!("the replayed result ended as {other:?}\n{recorded}"),
        }
    }
});

/// The first escape sequence in `written` that the inline placement never writes.
fn forbidden(written: &str) -> Option<String> {
    let mut rest = written;
    while let Some(i) = rest.find('\x1b') {
        let seq = &rest[i + 1..];
        if seq.starts_with('7') || seq.starts_with('8') {
            return Some(format!("ESC {}", &seq[..1]));
        }
        if let Some(body) = seq.strip_prefix('[') {
            let end = body
                .find(|c: char| ('\x40'..='\x7e').contains(&c))
                .unwrap_or(body.len());
            let params = &body[..end];
            let bad = match body[end..].chars().next() {
                Some('H' | 'f' | 'r' | 's' | 'u') => true,
                Some('J') => params == "2" || params == "3",
                Some('h' | 'l') => params.contains("1049") || params == "?47",
                Some('A' | 'B' | 'C' | 'D') => params == "0",
                _ => false,
            };
            if bad {
                return Some(format!("ESC[{}", &body[..(end + 1).min(body.len())]));
            }
        }
        rest = &rest[i + 1..];
    }
    None
}

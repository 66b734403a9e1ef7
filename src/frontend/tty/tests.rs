//! The terminal front end's keyboard against a fake terminal (no pty): each key of the
//! contract's keyboard (seed 000 "Keyboard behavior") with its exact result. The real
//! terminal is tested in tests/tty.rs and tests/tty_keys.rs.

use super::*;
use crate::contract::parse_payload;
use crate::keys::Event;
use serde_json::{json, Value};

const PREFS: &str = include_str!("../../../examples/implementation-preferences.json");

fn key(k: Key) -> Event {
    Event::Key(k)
}

fn chars(text: &str) -> Vec<Event> {
    text.chars().map(|c| key(Key::Char(c))).collect()
}

fn opts() -> AskOptions {
    AskOptions {
        cwd: ".".into(),
        context: None,
        bell: false,
    }
}

/// Runs the flow of `payload` on a 30x100 fake terminal with `events`; returns the ending's
/// answers (or the ending itself when not submitted) and the last screen.
fn session(payload: &str, events: Vec<Event>) -> (Result<Value, Ending>, String) {
    session_sized(payload, events, 30, 100)
}

fn session_sized(
    payload: &str,
    events: Vec<Event>,
    rows: usize,
    cols: usize,
) -> (Result<Value, Ending>, String) {
    let p = parse_payload(payload).unwrap();
    let mut backend = FakeBackend::new(rows, cols, events);
    let ending = {
        let backend = &mut backend;
        drive(Flow::new(&p), backend, &opts())
    };
    let answers = match ending {
        Ending::Submitted(state) => Ok(serde_json::to_value(state.answers(&p)).unwrap()),
        other => Err(other),
    };
    (answers, backend.screen())
}

fn submitted(answers: Value) -> Result<Value, Ending> {
    Ok(answers)
}

#[test]
fn digits_choose_on_single_and_tick_on_multi_never_submitting() {
    let mut events = chars("2");
    events.extend(chars("13"));
    events.push(key(Key::Enter)); // confirms the ticks: the review
    events.push(key(Key::Enter)); // Submit
    let (answers, _) = session(PREFS, events);
    assert_eq!(
        answers,
        submitted(json!({
            "style": {"values": ["balanced"], "labels": ["Balanced"], "indices": [2]},
            "frameworks": {"values": ["react", "svelte"], "labels": ["React", "Svelte"], "indices": [1, 3]}
        }))
    );
}

#[test]
fn digits_on_the_review_reopen_that_question() {
    let mut events = vec![key(Key::Tab), key(Key::Tab)];
    events.extend(chars("1")); // review: re-open question 1
    events.extend(chars("3")); // choose option 3: back to the review
    events.push(key(Key::Enter));
    let (answers, _) = session(PREFS, events);
    assert_eq!(
        answers,
        submitted(json!({"style": {"values": ["rich"], "labels": ["Rich"], "indices": [3]}}))
    );
}

#[test]
fn n_and_shift_n_write_the_option_note_and_the_question_note() {
    let mut events = vec![key(Key::Down), key(Key::Char('n'))];
    events.extend(chars("why"));
    events.push(key(Key::Enter));
    events.push(key(Key::Char('N')));
    events.extend(chars("later"));
    events.push(key(Key::Enter));
    events.push(key(Key::Char(' '))); // the highlight stayed on option 2: choose it
    events.extend([key(Key::Tab), key(Key::Enter)]);
    let (answers, _) = session(PREFS, events);
    assert_eq!(
        answers,
        submitted(
            json!({"style": {"values": ["balanced"], "labels": ["Balanced"], "indices": [2],
            "note": "later", "optionNotes": {"balanced": "why"}}})
        )
    );
}

#[test]
fn tab_and_arrows_move_between_questions_keeping_ticks() {
    let mut events = vec![key(Key::Right)]; // question 2 without choosing
    events.push(key(Key::Char(' '))); // tick React
    events.push(key(Key::BackTab)); // back to question 1, ticks kept
    events.push(key(Key::Left)); // no question before the first: nothing
    events.push(key(Key::Char('1')));
    events.push(key(Key::Tab)); // question 2 → the review
    events.push(key(Key::Enter));
    let (answers, _) = session(PREFS, events);
    assert_eq!(
        answers,
        submitted(json!({
            "style": {"values": ["minimal"], "labels": ["Minimal"], "indices": [1]},
            "frameworks": {"values": ["react"], "labels": ["React"], "indices": [1]}
        }))
    );
}

#[test]
fn a_ticks_all_then_none() {
    let mut events = vec![key(Key::Tab), key(Key::Char('a'))];
    let (answers, _) = session(PREFS, {
        let mut e = events.clone();
        e.extend([key(Key::Enter), key(Key::Enter)]);
        e
    });
    assert_eq!(
        answers.unwrap()["frameworks"]["values"],
        json!(["react", "vue", "svelte"])
    );
    events.extend([key(Key::Char('a')), key(Key::Enter), key(Key::Enter)]);
    let (answers, _) = session(PREFS, events);
    assert_eq!(answers, submitted(json!({})));
}

#[test]
fn home_end_and_page_keys_reach_every_option_of_a_long_list() {
    let options: Vec<Value> = (1..=60)
        .map(|i| json!({"value": format!("o{i}"), "label": format!("Option {i}")}))
        .collect();
    let payload =
        json!({"questions": [{"id": "q", "prompt": "Pick", "options": options}]}).to_string();
    let (answers, screen) = session_sized(
        &payload,
        vec![key(Key::PageDown), key(Key::PageDown)],
        12,
        60,
    );
    assert!(matches!(answers, Err(Ending::TerminalLost(_))));
    assert!(screen.contains("[Page 3/"), "{screen}");
    let (answers, _) = session_sized(
        &payload,
        vec![key(Key::End), key(Key::Enter), key(Key::Enter)],
        12,
        60,
    );
    assert_eq!(answers.unwrap()["q"]["values"], json!(["o60"]));
    let (answers, _) = session_sized(
        &payload,
        vec![
            key(Key::End),
            key(Key::Home),
            key(Key::Enter),
            key(Key::Enter),
        ],
        12,
        60,
    );
    assert_eq!(answers.unwrap()["q"]["values"], json!(["o1"]));
}

#[test]
fn esc_asks_before_discarding_answers_and_ctrl_c_interrupts() {
    let (answers, screen) = session(PREFS, vec![key(Key::Char('1')), key(Key::Esc)]);
    assert!(matches!(answers, Err(Ending::TerminalLost(_))));
    assert!(
        screen.contains("Cancel and discard your answers?"),
        "{screen}"
    );
    let (answers, _) = session(
        PREFS,
        vec![
            key(Key::Char('1')),
            key(Key::Esc),
            key(Key::Down),
            key(Key::Enter),
        ],
    );
    assert_eq!(answers, Err(Ending::Dismissed));
    let (answers, _) = session(PREFS, vec![key(Key::Char('q'))]);
    assert_eq!(answers, Err(Ending::Dismissed));
    let (answers, _) = session(PREFS, vec![key(Key::Down), key(Key::Ctrl('c'))]);
    assert_eq!(answers, Err(Ending::Interrupted));
}

#[test]
fn an_empty_editor_navigates_without_esc() {
    // "Type your own…" is the row under the three options; ↓ from the empty editor goes on.
    // ↑ from the first option wraps round to the action rows (3 options + 4 actions).
    let mut events = vec![key(Key::Up), key(Key::Up), key(Key::Up), key(Key::Up)];
    events.push(key(Key::Enter)); // "Type your own…"
    events.push(key(Key::Tab)); // empty editor: Tab goes to the next question
    events.extend([key(Key::Tab), key(Key::Enter)]);
    let (answers, _) = session(PREFS, events);
    assert_eq!(answers, submitted(json!({})));
    // With text, Tab stays in the editor (the fake editor ignores it) and Enter saves.
    let mut events = vec![
        key(Key::Down),
        key(Key::Down),
        key(Key::Down),
        key(Key::Enter),
    ];
    events.extend(chars("mine"));
    events.extend([
        key(Key::Tab),
        key(Key::Enter),
        key(Key::Tab),
        key(Key::Enter),
    ]);
    let (answers, _) = session(PREFS, events);
    assert_eq!(
        answers,
        submitted(
            json!({"style": {"values": ["mine"], "labels": ["mine"], "indices": [], "customText": "mine"}})
        )
    );
}

#[test]
fn a_paste_at_a_menu_is_not_keystrokes() {
    let (answers, screen) = session(PREFS, vec![key(Key::Paste("1\r\r".into()))]);
    assert!(matches!(answers, Err(Ending::TerminalLost(_))));
    assert!(screen.contains("1/2 Style"), "{screen}");
}

#[test]
fn ctrl_z_suspends_and_the_screen_comes_back_whole() {
    let p = parse_payload(PREFS).unwrap();
    let mut backend = FakeBackend::new(30, 100, vec![key(Key::Ctrl('z'))]);
    let ending = drive(Flow::new(&p), &mut backend, &opts());
    assert!(matches!(ending, Ending::TerminalLost(_)));
    assert_eq!(backend.suspends, 1);
    // Drawn twice in full: the first screen and after the suspend.
    assert_eq!(backend.written.matches("\x1b[2J").count(), 2);
}

#[test]
fn a_resize_lays_the_screen_out_again_at_once() {
    let p = parse_payload(PREFS).unwrap();
    let mut backend = FakeBackend::new(30, 100, vec![Event::Resize]);
    backend.sizes.push_back((8, 20));
    let _ = drive(Flow::new(&p), &mut backend, &opts());
    let screen = backend.screen();
    assert!(screen.starts_with("1/2 Style\n"), "{screen}");
    assert!(screen.lines().all(|l| l.chars().count() <= 19), "{screen}");
}

#[test]
fn the_bell_rings_once_on_the_first_screen() {
    let p = parse_payload(PREFS).unwrap();
    let mut backend = FakeBackend::new(30, 100, vec![key(Key::Down), key(Key::Down)]);
    let _ = drive(
        Flow::new(&p),
        &mut backend,
        &AskOptions {
            bell: true,
            ..opts()
        },
    );
    assert_eq!(backend.written.matches('\x07').count(), 1);
}

#[test]
fn a_key_rewrites_only_the_changed_lines() {
    let p = parse_payload(PREFS).unwrap();
    let mut backend = FakeBackend::new(30, 100, vec![key(Key::Down)]);
    let _ = drive(Flow::new(&p), &mut backend, &opts());
    let after_first = backend
        .written
        .rsplit("\x1b[2J")
        .next()
        .unwrap()
        .to_string();
    let down = after_first.split("\x1b[?25l").nth(1).unwrap();
    // Two rows change: the old highlight and the new one.
    assert_eq!(down.matches("\x1b[K").count(), 2, "{down:?}");
}

#[test]
fn the_peek_key_shows_the_context_until_the_next_key() {
    let p = parse_payload(PREFS).unwrap();
    let mut backend = FakeBackend::new(30, 100, vec![key(Key::Ctrl(']')), key(Key::Enter)]);
    let _ = drive(
        Flow::new(&p),
        &mut backend,
        &AskOptions {
            context: Some("Which style do you want?".into()),
            ..opts()
        },
    );
    assert!(backend.written.contains("Which style do you want?"));
    // The key that ended the peek chose nothing: the first question is still up.
    assert!(
        backend.screen().contains("1/2 Style"),
        "{}",
        backend.screen()
    );
}

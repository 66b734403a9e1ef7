//! The terminal front end's keyboard against a fake terminal (no pty): each key of the
//! contract's keyboard (the contract, "Keyboard behavior") with its exact result. The real
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
        notify: crate::notify::Settings {
            channels: Vec::new(),
            command: None,
        },
        timeout: None,
        placement: Placement::Full,
        ..AskOptions::default()
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
fn digits_on_the_review_run_an_action_on_the_second_press_only() {
    // Upstream `doublePressReviewShortcuts`: a first digit arms its action, a second press of
    // the same digit runs it; another digit arms another.
    let mut events = vec![key(Key::Tab), key(Key::Tab)];
    events.extend(chars("1"));
    let (answers, screen) = session(PREFS, events.clone());
    assert!(
        matches!(answers, Err(Ending::TerminalLost(_))),
        "{answers:?}"
    );
    assert!(screen.contains("Press 1 again to submit"), "{screen}");
    events.extend(chars("21"));
    let (answers, _) = session(PREFS, events.clone());
    assert!(
        matches!(answers, Err(Ending::TerminalLost(_))),
        "{answers:?}"
    );
    events.extend(chars("1"));
    let (answers, _) = session(PREFS, events);
    assert_eq!(answers, submitted(json!({})));
    // A question is re-opened by Enter on its row: ↑ ↑ from Submit reach question 1.
    let mut events = vec![
        key(Key::Tab),
        key(Key::Tab),
        key(Key::Up),
        key(Key::Up),
        key(Key::Enter),
    ];
    events.extend(chars("3")); // choose option 3: back to the review, on Submit
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
    // The highlight stayed on option 2: Space selects it and stays; Tab Tab: the review.
    events.push(key(Key::Char(' ')));
    events.extend([key(Key::Tab), key(Key::Tab), key(Key::Enter)]);
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
fn tab_and_arrows_move_between_questions_keeping_ticks_and_wrap_over_the_review() {
    let mut events = vec![key(Key::Right)]; // question 2 without choosing
    events.push(key(Key::Char(' '))); // tick React
    events.push(key(Key::BackTab)); // back to question 1, ticks kept
    events.push(key(Key::Left)); // before the first question: the review (upstream `moveTab`)
    events.push(key(Key::Tab)); // after the review: the first question
    events.push(key(Key::Char('1'))); // choose Minimal: question 2
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
    assert!(screen.contains("[3/"), "{screen}");
    // End: the last row, Type your own; the option above it is option 60.
    let (answers, _) = session_sized(
        &payload,
        vec![
            key(Key::End),
            key(Key::Up),
            key(Key::Enter),
            key(Key::Enter),
        ],
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
    // "Type your own…" is the row under the three options: ↑ from the first option wraps
    // round to it.
    let mut events = vec![key(Key::Up)];
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
    assert!(
        screen.starts_with("Implementation pre\u{2026}\n1/2 Style"),
        "{screen}"
    );
    assert!(screen.lines().all(|l| l.chars().count() <= 19), "{screen}");
    assert!(screen.lines().count() <= 7, "{screen}");
}

#[test]
fn the_bell_rings_once_on_the_first_screen() {
    let p = parse_payload(PREFS).unwrap();
    let mut backend = FakeBackend::new(30, 100, vec![key(Key::Down), key(Key::Down)]);
    let _ = drive(
        Flow::new(&p),
        &mut backend,
        &AskOptions {
            notify: crate::notify::Settings::default(),
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

/// Runs the flow of `payload` with `--timeout` `seconds` on a 30x100 fake terminal; returns
/// the ending and the terminal (its clock says how much time passed).
fn timed_session(payload: &str, events: Vec<Event>, seconds: u64) -> (Ending, FakeBackend) {
    let p = parse_payload(payload).unwrap();
    let mut backend = FakeBackend::new(30, 100, events);
    let ending = drive(
        Flow::new(&p),
        &mut backend,
        &AskOptions {
            timeout: Some(std::time::Duration::from_secs(seconds)),
            ..opts()
        },
    );
    (ending, backend)
}

/// The answers of a timed-out ending, and its message.
fn timed_out(ending: Ending) -> (Value, String) {
    let p = parse_payload(PREFS).unwrap();
    match ending {
        Ending::TimedOut { answers, why } => {
            (serde_json::to_value(answers.answers(&p)).unwrap(), why)
        }
        other => panic!("{other:?}"),
    }
}

fn timeouts(n: usize) -> Vec<Event> {
    vec![Event::Timeout; n]
}

#[test]
fn no_key_for_the_timeout_ends_the_flow_keeping_the_answers_and_ticks() {
    let mut events = chars("21");
    // 20 s until the countdown, then one wait per second shown.
    events.extend(timeouts(11));
    let (ending, backend) = timed_session(PREFS, events, 30);
    assert!(backend.elapsed() >= std::time::Duration::from_secs(30));
    assert_eq!(
        timed_out(ending),
        (
            json!({
                "style": {"values": ["balanced"], "labels": ["Balanced"], "indices": [2]},
                "frameworks": {"values": ["react"], "labels": ["React"], "indices": [1]}
            }),
            "no key for 30 seconds".to_string()
        )
    );
    for s in 1..=10 {
        let line = format!("Closing in {s} s without an answer: press any key");
        assert!(backend.written.contains(&line), "{line}");
    }
    assert!(!backend.written.contains("Closing in 11 s"));
}

#[test]
fn the_countdown_replaces_the_top_line_and_a_key_puts_it_back() {
    // 12 s: the countdown starts after 2 s; a key at 9 s left starts the time again.
    let mut events = timeouts(2);
    events.push(key(Key::Down));
    let (ending, backend) = timed_session(PREFS, events.clone(), 12);
    // The events ran out before the time did: the key started it again.
    assert!(matches!(ending, Ending::TerminalLost(_)), "{ending:?}");
    assert!(backend.written.contains("Closing in 9 s without an answer"));
    let screen = backend.screen();
    assert!(
        screen.starts_with("Implementation preferences\n1/2 Style"),
        "{screen}"
    );
    assert!(screen.ends_with("\u{2191}\u{2193} move \u{b7} Enter choose \u{b7} n note \u{b7} Esc cancel \u{b7} ^C dismiss \u{b7} ^] context \u{b7} ? keys"), "{screen}");
    // With the countdown shown, the hint line is the countdown: which question is up stays
    // in view.
    let (_, shown) = timed_session(PREFS, timeouts(1), 12);
    let screen = shown.screen();
    assert!(
        screen.starts_with("Implementation preferences\n1/2 Style"),
        "{screen}"
    );
    assert!(
        screen.ends_with("\nClosing in 10 s without an answer: press any key"),
        "{screen}"
    );
    // 2 + 1 + 11 waits: 3 s, then the whole 12 s again.
    events.extend(timeouts(11));
    let (ending, backend) = timed_session(PREFS, events, 12);
    assert_eq!(timed_out(ending).1, "no key for 12 seconds");
    let took = backend.elapsed();
    assert!(took >= std::time::Duration::from_secs(15), "{took:?}");
}

#[test]
fn an_open_editor_times_out_with_its_draft_saved_as_esc_saves_it() {
    // Type your own… on the first question, "Sol", then nothing for 5 s.
    let mut events = vec![
        key(Key::Down),
        key(Key::Down),
        key(Key::Down),
        key(Key::Enter),
    ];
    events.extend(chars("Sol"));
    events.extend(timeouts(5));
    let (ending, backend) = timed_session(PREFS, events, 5);
    assert_eq!(
        timed_out(ending).0,
        json!({"style": {"values": ["Sol"], "labels": ["Sol"], "indices": [], "customText": "Sol"}})
    );
    // The countdown is written over the editor's hint line (under the title), the editor's
    // cursor kept.
    assert!(backend
        .written
        .contains("\x1b7\x1b[2;1HType your own \u{b7} Closing in 1 s without an answer: press any key\x1b[K\x1b8"));
}

#[test]
fn a_note_editor_times_out_with_its_note_saved() {
    let mut events = chars("N");
    events.extend(chars("later"));
    events.extend(timeouts(3));
    let (ending, _) = timed_session(PREFS, events, 3);
    assert_eq!(
        timed_out(ending).0,
        json!({"style": {"values": [], "labels": [], "indices": [], "note": "later"}})
    );
}

#[test]
fn a_key_in_an_editor_starts_the_time_again_and_clears_the_countdown() {
    // 12 s: the countdown shows from 2 s in; a key in the editor at 10 s left puts the top
    // line back.
    let mut events = chars("N");
    events.extend(timeouts(1));
    events.extend(chars("x"));
    let (ending, backend) = timed_session(PREFS, events, 12);
    assert!(matches!(ending, Ending::TerminalLost(_)), "{ending:?}");
    assert!(
        backend.written.ends_with(
            "\x1b7\x1b[2;1HNote on this question \u{b7} Closing in 10 s without an answer: press any key\x1b[K\x1b8\
         \x1b7\x1b[2;1HNote on this question \u{b7} Enter save \u{b7} Esc close\x1b[K\x1b8"
        ),
        "{:?}",
        backend.written
    );
}

#[test]
fn a_peek_shows_the_countdown_in_its_hint_line() {
    let p = parse_payload(PREFS).unwrap();
    let mut backend = FakeBackend::new(30, 100, vec![key(Key::Ctrl(']')), Event::Timeout]);
    let _ = drive(
        Flow::new(&p),
        &mut backend,
        &AskOptions {
            context: Some("Which style do you want?".into()),
            timeout: Some(std::time::Duration::from_secs(15)),
            ..opts()
        },
    );
    assert_eq!(
        backend.screen(),
        "Implementation preferences\nThe agent's message \u{b7} lines 1-1 of 1\n\u{2502} Which style do you want?\nClosing in 10 s without an answer: press any key"
    );
}

#[test]
fn without_a_timeout_waits_never_end() {
    let mut events = timeouts(3);
    events.push(key(Key::Char('1')));
    events.extend(timeouts(2));
    let (answers, _) = session(PREFS, events);
    assert!(
        matches!(answers, Err(Ending::TerminalLost(_))),
        "{answers:?}"
    );
}

#[test]
fn home_and_end_at_the_review_reach_the_first_and_last_rows() {
    // Tab Tab: the review, on Submit; End: Cancel (nothing to lose: dismissed at once).
    let (answers, _) = session(
        PREFS,
        vec![key(Key::Tab), key(Key::Tab), key(Key::End), key(Key::Enter)],
    );
    assert_eq!(answers, Err(Ending::Dismissed));
    // Home: question 1, which Enter re-opens; 2 chooses "Balanced" and returns to the review.
    let (answers, _) = session(
        PREFS,
        vec![
            key(Key::Tab),
            key(Key::Tab),
            key(Key::Home),
            key(Key::Enter),
            key(Key::Char('2')),
            key(Key::Enter),
        ],
    );
    assert_eq!(
        answers,
        submitted(
            json!({"style": {"values": ["balanced"], "labels": ["Balanced"], "indices": [2]}})
        )
    );
}

/// Runs `payload` inline on a `rows` x `cols` fake terminal with `events`; returns the ending
/// and everything written.
fn inline_session(payload: &str, events: Vec<Event>, rows: usize, cols: usize) -> (Ending, String) {
    let p = parse_payload(payload).unwrap();
    let mut backend = FakeBackend::new(rows, cols, events);
    let ending = drive(
        Flow::new(&p),
        &mut backend,
        &AskOptions {
            placement: Placement::Inline,
            ..opts()
        },
    );
    (ending, backend.written)
}

#[test]
fn an_editor_in_a_window_of_three_rows_keeps_the_block_within_two() {
    // Found by the tty_session fuzz target: the note editor's header did not fit, and the
    // editor's row was taken for below the block's top.
    let mut events = vec![key(Key::Char('N'))];
    events.extend(chars("why"));
    events.push(key(Key::Enter));
    events.push(key(Key::Ctrl('c')));
    let (ending, written) = inline_session(PREFS, events, 3, 10);
    assert_eq!(ending, Ending::Interrupted);
    assert!(!written.contains("\x1b[H") && !written.contains("\x1b[2J"));
}

#[test]
fn inline_leaves_the_transcript_on_the_fake_terminal() {
    let mut events = chars("2");
    events.push(key(Key::Tab));
    events.push(key(Key::Enter));
    let p = parse_payload(PREFS).unwrap();
    let mut backend = FakeBackend::new(30, 100, events);
    let ending = drive(
        Flow::new(&p),
        &mut backend,
        &AskOptions {
            placement: Placement::Inline,
            ..opts()
        },
    );
    assert!(matches!(ending, Ending::Submitted(_)));
    assert_eq!(
        backend.screen(),
        "Implementation preferences\nStyle: Balanced\nFrontend: no answer\n✔ Submitted"
    );
}

#[test]
fn tab_and_arrows_in_an_empty_note_editor_opened_from_the_review_never_end_the_flow() {
    // Found by the tty_session fuzz target: Tab there sent Next at the review (`internal`).
    for (nav, after) in [
        // Tab, →: the first question; Tab Tab back to the review, on Submit.
        (
            Key::Tab,
            vec![key(Key::Tab), key(Key::Tab), key(Key::Enter)],
        ),
        (
            Key::Right,
            vec![key(Key::Tab), key(Key::Tab), key(Key::Enter)],
        ),
        // ↓: from question 2's row to Submit.
        (Key::Down, vec![key(Key::Enter)]),
        // ←: back to the last question; Tab returns to the review.
        (Key::Left, vec![key(Key::Tab), key(Key::Enter)]),
    ] {
        let mut events = vec![key(Key::Tab), key(Key::Tab)]; // to the review, on Submit
        events.push(key(Key::Up)); // question 2's row
        events.push(key(Key::Char('N'))); // its note editor, empty
        events.push(key(nav.clone()));
        events.extend(after);
        let (answers, screen) = session(PREFS, events);
        assert_eq!(answers, submitted(json!({})), "{nav:?}\n{screen}");
    }
}

#[test]
fn inline_with_leave_nothing_erases_what_it_drew_and_parks_the_cursor_where_it_started() {
    let mut events = chars("2");
    events.push(key(Key::Tab));
    events.push(key(Key::Enter));
    let p = parse_payload(PREFS).unwrap();
    let mut backend = FakeBackend::new(30, 100, events);
    let ending = drive(
        Flow::new(&p),
        &mut backend,
        &AskOptions {
            placement: Placement::Inline,
            leave_nothing: true,
            ..opts()
        },
    );
    assert!(matches!(ending, Ending::Submitted(_)));
    assert_eq!(backend.screen(), "");
    assert_eq!(backend.cursor(), (0, 0));
    assert!(backend.written.ends_with("\x1b[?25h"));
}

#[test]
fn no_at_a_cancel_asked_over_the_review_returns_to_cancel_not_submit() {
    // 1: an answer (so Esc asks first); Tab: the review; End: 3. Cancel; Enter: the
    // confirmation; n: back, the highlight still on Cancel; Enter, y: cancelled.
    let mut events = chars("1");
    events.extend([
        key(Key::Tab),
        key(Key::End),
        key(Key::Enter),
        key(Key::Char('n')),
    ]);
    events.extend([key(Key::Enter), key(Key::Char('y'))]);
    let (answers, _) = session(PREFS, events);
    assert_eq!(answers, Err(Ending::Dismissed));
}

#[test]
fn a_question_without_options_offers_only_the_keys_it_has() {
    let payload = r#"{"question": "Name the release?"}"#;
    let p = crate::contract::parse_payload_as(payload, crate::contract::InputFormat::Auto, false)
        .payload
        .unwrap();
    let mut backend = FakeBackend::new(30, 100, vec![key(Key::Esc)]);
    let _ = drive(Flow::new(&p), &mut backend, &opts());
    // The editor opened by itself; Esc closed it: the question's hint line.
    let screen = backend.screen();
    assert!(
        screen.ends_with("Enter answer \u{b7} N note \u{b7} Esc cancel \u{b7} ^C dismiss \u{b7} ^] context \u{b7} ? keys"),
        "{screen}"
    );
}

/// Runs `PREFS` inline with 30 lines above on a 16x60 fake terminal with `events`, leaving
/// nothing; the rows left (the lines above as the last frame drew them) and the last write.
fn above_session(events: Vec<Event>) -> (Vec<String>, String) {
    let above: String = (1..=30).map(|i| format!("above {i:02}\n")).collect();
    let p = parse_payload(PREFS).unwrap();
    let mut backend = FakeBackend::new(16, 60, events);
    backend.sizes.push_back((6, 60));
    backend.sizes.push_back((16, 60));
    let _ = drive(
        Flow::new(&p),
        &mut backend,
        &AskOptions {
            placement: Placement::Inline,
            above: Some(above),
            leave_nothing: true,
            ..opts()
        },
    );
    let mut rows = backend.visible();
    while rows.last().is_some_and(|r| r.is_empty()) {
        rows.pop();
    }
    (rows, backend.written)
}

#[test]
fn inline_with_lines_above_draws_their_end_in_the_rows_the_block_leaves() {
    let lines =
        |from: usize| -> Vec<String> { (from..=30).map(|i| format!("above {i:02}")).collect() };
    // Question 1 takes 10 rows with the title: 5 lines above fill the 15 rows.
    let (rows, _) = above_session(vec![]);
    assert_eq!(rows, lines(26));
    // Question 2 takes more, with Style's line: fewer lines above; back on question 1, a
    // shorter block: more again.
    let (rows, _) = above_session(vec![key(Key::Enter)]);
    assert_eq!(rows, lines(28));
    let (rows, _) = above_session(vec![key(Key::Enter), key(Key::Left)]);
    assert_eq!(rows, lines(26));
    // Smaller, then the size back: the same lines above as at first.
    // 6 rows: the block and the title take the 5 the cursor's row leaves; the size back: the
    // same lines above as at first, every row written again.
    let (rows, written) = above_session(vec![Event::Resize, Event::Resize]);
    assert_eq!(rows, lines(26));
    assert_eq!(
        written.matches("\x1b[1;1Habove 26\x1b[K").count(),
        2,
        "{written:?}"
    );
    assert_eq!(
        written
            .matches("\x1b[1;1HImplementation preferences\x1b[K")
            .count(),
        1,
        "{written:?}"
    );
}

const DATABASE: &str = include_str!("../../../examples/database.json");

/// `seq 40`, as a paste gives it.
fn seq40() -> String {
    (1..=40)
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The database example inline on a 24x80 fake terminal: `n` opens PostgreSQL's note, `paste`
/// is pasted, (a resize to `resize`,) Enter saves, Enter chooses, Enter submits.
fn long_paste_run(
    paste: &str,
    resize: Option<(usize, usize)>,
) -> (Result<Value, Ending>, FakeBackend) {
    long_paste_run_in((24, 80), paste, resize)
}

/// [`long_paste_run`] in a window of `size` (rows, columns).
fn long_paste_run_in(
    size: (usize, usize),
    paste: &str,
    resize: Option<(usize, usize)>,
) -> (Result<Value, Ending>, FakeBackend) {
    note_run_in(size, vec![key(Key::Paste(paste.to_string()))], resize)
}

/// PostgreSQL's note of the database example, given `keys` (then a `resize`), saved and
/// submitted in a window of `size` (rows, columns).
fn note_run_in(
    size: (usize, usize),
    keys: Vec<Event>,
    resize: Option<(usize, usize)>,
) -> (Result<Value, Ending>, FakeBackend) {
    let p = parse_payload(DATABASE).unwrap();
    let mut events = vec![key(Key::Char('n'))];
    events.extend(keys);
    if resize.is_some() {
        events.push(Event::Resize);
    }
    events.extend([key(Key::Enter), key(Key::Enter), key(Key::Enter)]);
    let mut backend = FakeBackend::new(size.0, size.1, events);
    backend.sizes.extend(resize);
    backend.print("$ pi-ask q.json\n");
    let ending = drive(
        Flow::new(&p),
        &mut backend,
        &AskOptions {
            placement: Placement::Inline,
            ..opts()
        },
    );
    let answers = match ending {
        Ending::Submitted(state) => Ok(serde_json::to_value(state.answers(&p)).unwrap()),
        other => Err(other),
    };
    (answers, backend)
}

#[test]
fn a_long_paste_in_a_note_is_folded_into_a_marker_and_saved_whole() {
    let (answers, mut fake) = long_paste_run(&seq40(), None);
    assert_eq!(
        answers,
        submitted(json!({"database": {
            "values": ["postgres"], "labels": ["PostgreSQL"], "indices": [1],
            "optionNotes": {"postgres": seq40()}
        }}))
    );
    fake.assert_no_stale_rows();
    assert_eq!(
        fake.left(),
        [
            "$ pi-ask q.json",
            "Which database should the project use?: PostgreSQL (+ note)",
            "✔ Submitted"
        ]
    );
}

#[test]
fn a_long_paste_stays_folded_in_a_window_that_shrinks_under_it() {
    let (answers, mut fake) = long_paste_run(&seq40(), Some((12, 60)));
    assert_eq!(
        answers.unwrap()["database"]["optionNotes"]["postgres"],
        json!(seq40())
    );
    fake.assert_no_stale_rows();
    assert_eq!(fake.left().last().map(String::as_str), Some("✔ Submitted"));
}

#[test]
fn a_short_paste_keeps_its_lines_in_the_editor_when_they_fit() {
    let (answers, mut fake) = long_paste_run("a\nb\nc", None);
    assert_eq!(
        answers.unwrap()["database"]["optionNotes"]["postgres"],
        json!("a\nb\nc")
    );
    fake.assert_no_stale_rows();
}

#[test]
fn pastes_of_every_length_keep_the_block_in_windows_of_every_size() {
    let pastes = [
        "a".to_string(),
        "a\nb\nc".to_string(),
        (1..=10)
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join("\n"),
        seq40(),
        "x".repeat(500),
        "y".repeat(5000),
    ];
    for size in [(24, 80), (12, 80), (10, 40), (9, 30), (16, 20)] {
        for paste in &pastes {
            let (answers, mut fake) = long_paste_run_in(size, paste, None);
            assert_eq!(
                answers.unwrap()["database"]["optionNotes"]["postgres"],
                json!(paste),
                "{size:?}"
            );
            fake.assert_no_stale_rows();
        }
    }
}

#[test]
fn the_review_in_a_short_window_says_how_many_questions_are_out_of_view() {
    let questions: Vec<String> = (1..=6)
        .map(|i| {
            format!(r#"{{"id":"q{i}","label":"Topic {i}","prompt":"Which {i}?","options":[{{"value":"a","label":"A"}}]}}"#)
        })
        .collect();
    let payload = format!(r#"{{"questions":[{}]}}"#, questions.join(","));
    let p = parse_payload(&payload).unwrap();
    // Shift+Tab on the first question: the review, on Submit (the last questions show);
    // Home: the first question.
    let events = vec![key(Key::BackTab), key(Key::Home), key(Key::Char('\u{3}'))];
    let mut backend = FakeBackend::new(12, 40, events);
    drive(Flow::new(&p), &mut backend, &opts());
    let written = &backend.written;
    assert!(written.contains("\u{2191} 4 more above"), "{written:?}");
    assert!(written.contains("\u{2193} 4 more below"), "{written:?}");
}

#[test]
fn typed_text_taller_than_the_editor_keeps_the_block_in_windows_of_every_size() {
    let typed: String = (1..400).map(|i| format!("w{i} ")).collect::<String>()[..1500].into();
    for size in [(24, 80), (12, 80), (10, 40), (9, 30), (16, 20)] {
        let keys = typed.chars().map(|c| key(Key::Char(c))).collect();
        let (answers, mut fake) = note_run_in(size, keys, None);
        assert_eq!(
            answers.unwrap()["database"]["optionNotes"]["postgres"],
            json!(typed),
            "{size:?}"
        );
        fake.assert_no_stale_rows();
        assert_eq!(fake.left().last().map(String::as_str), Some("✔ Submitted"));
    }
}

#[test]
fn question_mark_on_the_review_lists_its_keys() {
    let p = parse_payload(PREFS).unwrap();
    // Shift+Tab: the review; `?`: its key list, which a key closes; Ctrl+C ends.
    let events = vec![
        key(Key::BackTab),
        key(Key::Char('?')),
        key(Key::Char('\u{3}')),
    ];
    let mut backend = FakeBackend::new(30, 100, events);
    drive(Flow::new(&p), &mut backend, &opts());
    let written = &backend.written;
    assert!(
        written.contains(crate::ui::words::KEYS_TITLE),
        "{written:?}"
    );
    assert!(
        written.contains("1-3      an action; press twice to run it"),
        "{written:?}"
    );
}

#[test]
fn on_a_multi_select_type_your_own_row_the_hint_says_enter_edits() {
    // Question 2 (multi): 4 opens Type your own's editor; Enter saves "Solid" and stays there,
    // where Enter opens the editor again (upstream `activateCustomOption`).
    let mut events = vec![key(Key::Char('2')), key(Key::Char('4'))];
    events.extend(chars("Solid"));
    events.push(key(Key::Enter));
    let (_, screen) = session(PREFS, events.clone());
    assert!(
        screen.contains("> [x] 4. Type your own\u{2026} \u{201c}Solid\u{201d}"),
        "{screen}"
    );
    assert!(
        screen.ends_with("\u{2191}\u{2193} move \u{b7} Space tick \u{b7} Enter edit \u{b7} n note \u{b7} Esc cancel \u{b7} ^C dismiss \u{b7} ^] context \u{b7} ? keys"),
        "{screen}"
    );
    // On the Next row it is done again, and Enter goes on to the review.
    events.push(key(Key::Down));
    let (_, screen) = session(PREFS, events.clone());
    assert!(
        screen.ends_with("\u{2191}\u{2193} move \u{b7} Space tick \u{b7} Enter done \u{b7} n note \u{b7} Esc cancel \u{b7} ^C dismiss \u{b7} ^] context \u{b7} ? keys"),
        "{screen}"
    );
    events.extend([key(Key::Enter), key(Key::Char('1')), key(Key::Char('1'))]);
    let (ending, _) = session(PREFS, events);
    assert_eq!(
        ending.unwrap()["frameworks"],
        json!({"values": ["Solid"], "labels": ["Solid"], "indices": [], "customText": "Solid"})
    );
}

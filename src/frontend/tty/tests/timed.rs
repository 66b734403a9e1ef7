//! The `--timeout` countdown and endings against the fake terminal.

use super::*;

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
    // The countdown takes the editor's hint line (under the title), drawn as every frame.
    assert!(backend.written.contains(
        "\x1b[2;1HType your own \u{b7} Closing in 1 s without an answer: press any key\x1b[K"
    ));
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
            "\x1b[2;1HNote on this question \u{b7} Closing in 10 s without an answer: press any key\x1b[K\x1b[4;3H\x1b[?25h\
             \x1b[2;1HNote on this question \u{b7} Enter save \u{b7} Esc close\x1b[K\
             \x1b[4;1H> x\x1b[K\x1b[4;4H\x1b[?25h"
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

/// Runs PREFS with `--timeout 30`: "2" answers the first question, then Ctrl+Z, and `bg` keeps
/// the job in the background `background` before `fg` (the events then run out).
fn stopped_then_background_for(background: std::time::Duration) -> (Ending, FakeBackend) {
    let p = parse_payload(PREFS).unwrap();
    let mut events = chars("2");
    events.push(key(Key::Ctrl('z')));
    let mut backend = FakeBackend::new(30, 100, events);
    backend.background_after_stop = Some(background);
    let ending = drive(
        Flow::new(&p),
        &mut backend,
        &AskOptions {
            timeout: Some(std::time::Duration::from_secs(30)),
            ..opts()
        },
    );
    (ending, backend)
}

#[test]
fn after_a_stop_and_bg_the_timeout_runs_from_the_continue_and_ends_the_flow_there() {
    let (ending, backend) = stopped_then_background_for(std::time::Duration::from_secs(3600));
    assert_eq!(backend.suspends, 1);
    // The time ran out 30 s after the continue, in the background, before `fg`.
    assert_eq!(backend.elapsed(), std::time::Duration::from_secs(30));
    assert_eq!(
        timed_out(ending),
        (
            json!({"style": {"values": ["balanced"], "labels": ["Balanced"], "indices": [2]}}),
            "no key for 30 seconds".to_string()
        )
    );
    assert!(backend.written_when_left.is_some());
    // `fg` within the time: the flow goes on (until the events run out).
    let (ending, backend) = stopped_then_background_for(std::time::Duration::from_secs(29));
    assert!(matches!(ending, Ending::TerminalLost(_)), "{ending:?}");
    assert_eq!(backend.written_when_left, None);
}

/// The grace of the first question (docs/interactive.md "Keys over ssh, tmux and slow
/// links"): a key 100 ms after the first frame is dropped, one 300 ms after that answers; the
/// bell still rings at once; with no grace the first key answers.
#[test]
fn a_key_within_the_grace_after_the_first_frame_is_not_acted_on() {
    let p = parse_payload(PREFS).unwrap();
    let ms = std::time::Duration::from_millis;
    let mut events = vec![
        (ms(100), key(Key::Char('3'))),
        (ms(300), key(Key::Char('2'))),
    ];
    events.extend([Key::Tab, Key::Enter].map(|k| (ms(0), key(k))));
    for (grace, style) in [(250, "balanced"), (0, "rich")] {
        let mut backend = FakeBackend::timed(30, 100, events.clone());
        let ending = drive(
            Flow::new(&p),
            &mut backend,
            &AskOptions {
                key_grace: ms(grace),
                notify: crate::notify::Settings::new(None, false, None).unwrap(),
                ..opts()
            },
        );
        let answers = match ending {
            Ending::Submitted(state) => serde_json::to_value(state.answers(&p)).unwrap(),
            other => panic!("{other:?}"),
        };
        assert_eq!(answers["style"]["values"][0], json!(style), "grace {grace}");
        assert_eq!(backend.bells(), 1, "grace {grace}");
    }
}

/// Runs `payload` with a grace of 250 ms, each key this many milliseconds after the one before
/// it (the first: after the first frame).
fn grace_session(
    payload: &str,
    events: &[(u64, Key)],
    placement: Placement,
) -> (Ending, FakeBackend) {
    let p = crate::contract::parse_payload_as(payload, crate::contract::InputFormat::Auto, false)
        .payload
        .unwrap();
    let ms = std::time::Duration::from_millis;
    let events: Vec<_> = events
        .iter()
        .map(|(at, k)| (ms(*at), key(k.clone())))
        .collect();
    let mut backend = FakeBackend::timed(30, 100, events);
    let ending = drive(
        Flow::new(&p),
        &mut backend,
        &AskOptions {
            key_grace: ms(250),
            placement,
            ..opts()
        },
    );
    (ending, backend)
}

/// A selection key dropped by the grace and the Enter right after it: the whole burst is
/// dropped (the Enter never chooses the highlighted option); a line says keys were ignored
/// until a key is acted on.
#[test]
fn a_burst_that_starts_within_the_grace_is_dropped_whole() {
    for placement in [Placement::Inline, Placement::Full] {
        // "2" at 200 ms, Enter at 300 ms, then "3" 300 ms later and Submit.
        let events = [
            (200, Key::Char('2')),
            (100, Key::Enter),
            (300, Key::Char('3')),
            (0, Key::Tab),
            (0, Key::Enter),
        ];
        let (ending, _) = grace_session(PREFS, &events, placement);
        let p = parse_payload(PREFS).unwrap();
        let answers = match ending {
            Ending::Submitted(state) => serde_json::to_value(state.answers(&p)).unwrap(),
            other => panic!("{other:?}"),
        };
        assert_eq!(
            answers["style"],
            json!({"values": ["rich"], "labels": ["Rich"], "indices": [3]}),
            "{placement:?}"
        );
        // The line shows from the dropped key until the next key acted on (on the alternate
        // screen the last frame stays when the keys run out).
        let (_, backend) = grace_session(PREFS, &events[..2], placement);
        let ignored = crate::ui::words::KEYS_IGNORED;
        assert!(backend.written.contains(ignored), "{placement:?}");
        if placement == Placement::Full {
            let screen = backend.screen();
            assert!(screen.ends_with(ignored), "{screen}");
            let (_, backend) = grace_session(PREFS, &events[..3], placement);
            let screen = backend.screen();
            assert!(screen.contains("2/2 Frontend"), "{screen}");
            assert!(!screen.contains(ignored), "{screen}");
        }
    }
}

/// A first question without options opens its editor by itself: keys within the grace, and
/// the rest of their burst, never reach it; the editor opens once the burst is over.
#[test]
fn the_grace_holds_back_the_editor_of_a_first_question_without_options() {
    let payload = r#"{"question": "Name the project?"}"#;
    for placement in [Placement::Inline, Placement::Full] {
        // "y" Enter at 50 ms, "x" at 250 ms, Enter at 270 ms: all one burst; "Atlas" Enter
        // 300 ms later answers.
        let mut events = vec![(50, Key::Char('y')), (0, Key::Enter), (200, Key::Char('x'))];
        events.push((20, Key::Enter));
        events.push((300, Key::Char('A')));
        events.extend("tlas".chars().map(|c| (0, Key::Char(c))));
        events.push((0, Key::Enter));
        // The review, then Submit.
        events.push((0, Key::Enter));
        let (ending, backend) = grace_session(payload, &events, placement);
        let p =
            crate::contract::parse_payload_as(payload, crate::contract::InputFormat::Auto, false)
                .payload
                .unwrap();
        let answers = match &ending {
            Ending::Submitted(state) => serde_json::to_value(state.answers(&p)).unwrap(),
            other => panic!("{placement:?}: {other:?}\n{}", backend.screen()),
        };
        assert_eq!(
            answers,
            json!({"q1": {"values": ["Atlas"], "labels": ["Atlas"], "indices": [], "customText": "Atlas"}}),
            "{placement:?}"
        );
    }
}

/// A digit that chose and moved on, then Enter at a person's pace (`2`, 150 ms, Enter): the
/// Enter is the choice's own confirmation, dropped within twice the grace (500 ms), never
/// acted on by the next question nobody has read yet; an Enter after that acts.
#[test]
fn an_enter_at_a_persons_pace_after_a_digit_that_chose_is_that_choices_own() {
    for placement in [Placement::Inline, Placement::Full] {
        let at_pace = [(400, Key::Char('2')), (150, Key::Enter)];
        let (ending, backend) = grace_session(PREFS, &at_pace, placement);
        assert!(matches!(ending, Ending::TerminalLost(_)), "{ending:?}");
        let written = &backend.written;
        assert!(
            written.contains("2/2 Frontend"),
            "{placement:?}: {written:?}"
        );
        assert!(
            !written.contains("Review answers"),
            "{placement:?}: {written:?}"
        );
        let later = [(400, Key::Char('2')), (600, Key::Enter)];
        let (_, backend) = grace_session(PREFS, &later, placement);
        assert!(backend.written.contains("Review answers"), "{placement:?}");
    }
}

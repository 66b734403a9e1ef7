//! The terminal front end's keyboard against a fake terminal (no pty): each key of the
//! contract's keyboard (the contract, "Keyboard behavior") with its exact result. The real
//! terminal is tested in tests/tty.rs and tests/tty_keys.rs.

mod inline;
mod layout;
mod timed;

use super::*;
use crate::contract::parse_payload;
use crate::keys::Event;
use serde_json::{json, Value};

const PREFS: &str = include_str!("../../../../examples/implementation-preferences.json");

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
    // End: the last row, Type your own; the option above it is option 60. Home: option 1.
    for (then, chosen) in [(Key::Up, "o60"), (Key::Home, "o1")] {
        let events = vec![key(Key::End), key(then), key(Key::Enter), key(Key::Enter)];
        let (answers, _) = session_sized(&payload, events, 12, 60);
        assert_eq!(answers.unwrap()["q"]["values"], json!([chosen]));
    }
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
    let (answers, _) = session(PREFS, vec![key(Key::Esc)]);
    assert_eq!(answers, Err(Ending::Dismissed));
    // `q` at a question is a letter: it starts the filter, it cancels nothing.
    let (answers, screen) = session(PREFS, vec![key(Key::Char('q'))]);
    assert!(
        matches!(answers, Err(Ending::TerminalLost(_))),
        "{answers:?}"
    );
    assert!(screen.lines().any(|l| l == "> q"), "{screen}");
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

/// An open editor is a component like the others: a resize lays it out again at once, its
/// draft kept (the fake terminal could not draw over an editor's rows until it closed).
#[test]
fn a_resize_with_an_editor_open_lays_it_out_again_at_once() {
    let p = parse_payload(PREFS).unwrap();
    let mut events = vec![key(Key::Char('4'))];
    events.extend(chars("abc"));
    events.push(Event::Resize);
    let mut backend = FakeBackend::new(30, 100, events);
    backend.sizes.push_back((12, 30));
    let _ = drive(Flow::new(&p), &mut backend, &opts());
    let screen = backend.screen();
    assert!(
        screen
            .starts_with("Implementation preferences\nType your own \u{b7} Enter submit\u{2026}\n"),
        "{screen}"
    );
    assert_eq!(screen.lines().last(), Some("> abc"), "{screen}");
    assert!(screen.lines().all(|l| l.chars().count() <= 29), "{screen}");
}

/// ↑ / ↓ out of an empty editor move the highlight as the source's `moveOption`: they stop at
/// the first and last rows (they wrapped round, from Type your own to the first option).
#[test]
fn arrows_out_of_an_empty_editor_stop_at_the_first_and_last_rows() {
    // Type your own (the last row) opened and left with ↓: the highlight stays on it.
    let (_, screen) = session(PREFS, vec![key(Key::Char('4')), key(Key::Down)]);
    assert!(screen.contains("\n> ( ) 4. Type your own"), "{screen}");
    // A note on the first option left with ↑: the highlight stays on the first.
    let (_, screen) = session(PREFS, vec![key(Key::Char('n')), key(Key::Up)]);
    assert!(screen.contains("\n> ( ) 1. Minimal"), "{screen}");
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

#[test]
fn the_review_in_a_short_window_says_how_many_questions_are_out_of_view() {
    let questions: Vec<String> = (1..=6)
        .map(|i| {
            format!(r#"{{"id":"q{i}","label":"Topic {i}","prompt":"Which {i}?","options":[{{"value":"a","label":"A"}}]}}"#)
        })
        .collect();
    let payload = format!(r#"{{"questions":[{}]}}"#, questions.join(","));
    let p = parse_payload(&payload).unwrap();
    // Shift+Tab on the first question: the review, on Submit (its top shows: the first
    // questions); ↑: the last question (the last ones show); Home: the first question.
    let events = vec![
        key(Key::BackTab),
        key(Key::Up),
        key(Key::Home),
        key(Key::Char('\u{3}')),
    ];
    let mut backend = FakeBackend::new(12, 40, events);
    drive(Flow::new(&p), &mut backend, &opts());
    let written = &backend.written;
    assert!(written.contains("\u{2191} 4 more above"), "{written:?}");
    assert!(written.contains("\u{2193} 4 more below"), "{written:?}");
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

#[test]
fn a_note_past_the_budget_keeps_the_editor_open_saying_so_then_drops_it() {
    // 1000 short options: 124 units of context, so a note of one byte weighs 1 + 124 + the
    // notes' units and 157 fit (157 × 127 of the 20,000).
    let options: Vec<Value> = (0..1000)
        .map(|i| json!({"value": format!("v{i}"), "label": format!("L{i}")}))
        .collect();
    let payload =
        json!({"questions": [{"id": "q", "prompt": "P", "type": "multi", "options": options}]})
            .to_string();
    let mut events = Vec::new();
    for _ in 0..157 {
        events.extend([key(Key::Char('n')), key(Key::Char('x')), key(Key::Enter)]);
        events.push(key(Key::Down));
    }
    events.push(key(Key::Char('n')));
    events.extend(chars("one more"));
    events.push(key(Key::Enter));
    let (ending, screen) = session(&payload, events.clone());
    // The editor is open again on the text, its hint saying why.
    assert!(
        screen.contains(crate::ui::words::TOO_MANY_NOTES_NOTICE),
        "{screen}"
    );
    assert!(screen.contains("one more"), "{screen}");
    assert!(matches!(ending, Err(Ending::TerminalLost(_))), "{ending:?}");
    // Enter again drops it, as the hint said; Elaborate sends the 157 notes.
    events.extend([key(Key::Enter), key(Key::Tab), key(Key::Char('2'))]);
    events.push(key(Key::Char('2')));
    let (ending, screen) = session(&payload, events);
    let Err(Ending::Elaborated(state)) = ending else {
        panic!("{ending:?}\n{screen}");
    };
    assert_eq!(state.option_note(0, 156), Some("x"));
    assert_eq!(state.option_note(0, 157), None);
}

#[test]
fn a_custom_text_past_the_notes_budget_keeps_the_editor_open_saying_so() {
    // Two options, a note on the question and on option 1 (ticked): a custom text of 1 MB would make
    // each note repeat it 4 times (2 × (1 + 1 + 31,251)), past the 20,000; a short one fits.
    let payload = json!({"questions": [{"id": "q", "prompt": "P", "type": "multi",
        "options": [{"value": "a", "label": "A"}, {"value": "b", "label": "B"}]}]})
    .to_string();
    let mut events = vec![key(Key::Char('N'))];
    events.extend(chars("why"));
    events.extend([key(Key::Enter), key(Key::Char('n'))]);
    events.extend(chars("this"));
    events.extend([key(Key::Enter), key(Key::Char(' ')), key(Key::Char('3'))]);
    events.push(key(Key::Paste("z".repeat(1_000_000))));
    events.push(key(Key::Enter));
    let (ending, screen) = session(&payload, events.clone());
    assert!(
        screen.contains(crate::ui::words::TOO_MANY_NOTES_NOTICE),
        "{screen}"
    );
    assert!(matches!(ending, Err(Ending::TerminalLost(_))), "{ending:?}");
    // Enter again drops it; a short text is then taken and sent with both notes.
    events.extend([key(Key::Enter), key(Key::Char('3'))]);
    events.extend(chars("mine"));
    events.extend([key(Key::Enter), key(Key::Tab), key(Key::Char('1'))]);
    events.push(key(Key::Char('1')));
    let (ending, screen) = session(&payload, events);
    assert_eq!(
        ending.unwrap_or_else(|e| panic!("{e:?}\n{screen}"))["q"],
        json!({"values": ["a", "mine"], "labels": ["A", "mine"], "indices": [1],
            "customText": "mine", "note": "why", "optionNotes": {"a": "this"}})
    );
}

#[test]
fn with_a_filter_set_a_digit_acts_only_on_a_row_it_shows() {
    let fruit = |kind: &str| {
        format!(
            r#"{{"questions":[{{"id":"f","prompt":"Which?","type":"{kind}","options":[
                {{"value":"apple","label":"Apple"}},{{"value":"banana","label":"Banana"}},
                {{"value":"grape","label":"Grape"}}]}}]}}"#
        )
    };
    let filtered = |then: &str| {
        let mut events = chars("/grape");
        events.push(key(Key::Enter));
        events.extend(chars(then));
        events
    };
    // Single-select: `1` names Apple, which the filter hides: nothing; Tab, Enter: submitted
    // without an answer. `3` is Grape's own number, shown: chosen.
    let mut events = filtered("1");
    let (ending, screen) = session(&fruit("single"), events.clone());
    assert!(matches!(ending, Err(Ending::TerminalLost(_))), "{ending:?}");
    assert!(screen.contains("> ( ) 3. Grape"), "{screen}");
    assert!(!screen.contains("Apple"), "{screen}");
    events.extend([key(Key::Tab), key(Key::Enter)]);
    assert_eq!(session(&fruit("single"), events).0, submitted(json!({})));
    let mut events = filtered("3");
    events.push(key(Key::Enter));
    assert_eq!(
        session(&fruit("single"), events).0,
        submitted(json!({"f": {"values": ["grape"], "labels": ["Grape"], "indices": [3]}}))
    );
    // Multi-select: `2` (Banana, hidden) ticks nothing, `3` ticks Grape.
    let mut events = filtered("23");
    events.extend([key(Key::Enter), key(Key::Enter)]);
    assert_eq!(
        session(&fruit("multi"), events).0,
        submitted(json!({"f": {"values": ["grape"], "labels": ["Grape"], "indices": [3]}}))
    );
}

/// 30 options all ticked (`a`), then a short question: the review of both.
fn thirty_ticked(then: Vec<Event>) -> (Result<Value, Ending>, String) {
    let options: Vec<Value> = (1..=30)
        .map(|i| json!({"value": format!("p{i}"), "label": format!("pkg-{i}")}))
        .collect();
    let payload = json!({"questions": [
        {"id": "m", "label": "Packages", "prompt": "Which?", "type": "multi", "options": options},
        {"id": "s", "label": "Style", "prompt": "How?", "options": [{"value": "a", "label": "A"}]}
    ]})
    .to_string();
    let mut events = vec![key(Key::Char('a')), key(Key::Enter), key(Key::Tab)];
    events.extend(then);
    session_sized(&payload, events, 24, 80)
}

#[test]
fn the_review_folds_a_long_answer_saying_so_and_fills_its_rows() {
    // With the highlight on the last question (and on Submit again after it): the end of the
    // long answer fills the rows above it (no empty rows), the fold says how many more and
    // the key.
    let tail: String = (3..=14)
        .map(|i| format!("     \u{2192} pkg-{i}\n"))
        .collect();
    let up_down = vec![key(Key::Up), key(Key::Down)];
    for (then, style) in [(up_down, "  Style"), (vec![key(Key::Up)], "> Style")] {
        let (_, screen) = thirty_ticked(then);
        assert_eq!(
            screen,
            format!(
                "Review answers\n{tail}     + 16 more \u{b7} v shows all\n\n{style}\n     \u{2192} unanswered\n  \u{2191} 1 more above\n{}  2. Elaborate\n     ask the agent to elaborate on your notes, keeping the answers\n  3. Cancel\n\u{2191}\u{2193} move \u{b7} Enter choose \u{b7} v all \u{b7} \u{2190} back \u{b7} Esc cancel \u{b7} ^C dismiss \u{b7} ? keys",
                if style == "  Style" { "> 1. Submit\n" } else { "  1. Submit\n" }
            )
        );
    }
    // `v` shows every answer, whole.
    let mut then = vec![key(Key::Char('v'))];
    then.extend([key(Key::End)]);
    let (_, screen) = thirty_ticked(then);
    assert!(screen.starts_with("Every answer"), "{screen}");
    assert!(screen.contains("\u{2192} pkg-30\n"), "{screen}");
    assert!(screen.contains("\u{2192} unanswered"), "{screen}");
}

#[test]
fn the_review_opens_at_its_top_with_the_first_questions_label() {
    // As it opens (on Submit, nothing moved): the first question's label heads it, its long
    // answer folded under it; the question below is counted, none above.
    let head: String = (1..=14)
        .map(|i| format!("     \u{2192} pkg-{i}\n"))
        .collect();
    let (_, screen) = thirty_ticked(vec![]);
    assert_eq!(
        screen,
        format!(
            "Review answers\n  Packages\n{head}     + 16 more \u{b7} v shows all\n  \u{2193} 1 more below\n> 1. Submit\n  2. Elaborate\n     ask the agent to elaborate on your notes, keeping the answers\n  3. Cancel\n\u{2191}\u{2193} move \u{b7} Enter choose \u{b7} v all \u{b7} \u{2190} back \u{b7} Esc cancel \u{b7} ^C dismiss \u{b7} ? keys"
        )
    );
}

#[test]
fn the_filters_hint_line_fits_80_columns_whole() {
    let (_, screen) = session_sized(&twelve(), vec![key(Key::Char('/'))], 24, 80);
    assert_eq!(
        screen.lines().next(),
        Some("Filter options by label, value or description \u{b7} Enter/\u{2193} the list \u{b7} Esc clear"),
        "{screen}"
    );
}

/// A single-select question of 12 options (`opt-1` … `opt-12`; Type your own is 13).
fn twelve_single() -> String {
    let options: Vec<Value> = (1..=12)
        .map(|i| json!({"value": format!("o{i}"), "label": format!("opt-{i}")}))
        .collect();
    json!({"questions": [{"id": "s", "prompt": "Which?", "options": options}]}).to_string()
}

#[test]
fn two_digits_choose_option_12_and_a_digit_alone_waits_for_enter() {
    let chose = |i: usize| {
        submitted(
            json!({"s": {"values": [format!("o{i}")], "labels": [format!("opt-{i}")], "indices": [i]}}),
        )
    };
    // `1` `2`: option 12 at once (no longer number starts with 12); Enter at the review submits.
    let mut events = chars("12");
    events.push(key(Key::Enter));
    assert_eq!(session(&twelve_single(), events).0, chose(12));
    // `1` `0`: option 10.
    let mut events = chars("10");
    events.push(key(Key::Enter));
    assert_eq!(session(&twelve_single(), events).0, chose(10));
    // `1` `3`: Type your own's editor.
    let (_, screen) = session(&twelve_single(), chars("13"));
    assert!(screen.starts_with("Type your own"), "{screen}");
    // `1`, then no key for a long while: nothing is chosen (the hint says Enter chooses);
    // a `3` then still makes 13.
    let p = parse_payload(&twelve_single()).unwrap();
    let events = vec![
        key(Key::Char('1')),
        Event::Timeout,
        Event::Timeout,
        key(Key::Char('3')),
    ];
    let mut backend = FakeBackend::new(30, 100, events);
    let _ = drive(Flow::new(&p), &mut backend, &opts());
    let screen = backend.screen();
    assert!(screen.starts_with("Type your own"), "{screen}");
    // `1`, a while, Enter: option 1; the Enter is the number's own (the review is shown, not
    // submitted).
    let events = vec![key(Key::Char('1')), Event::Timeout, key(Key::Enter)];
    let (ending, screen) = session(&twelve_single(), events);
    assert!(matches!(ending, Err(Ending::TerminalLost(_))), "{ending:?}");
    assert!(
        screen.contains("\u{2192} opt-1") && screen.contains("> 1. Submit"),
        "{screen}"
    );
    // `1` ↓: the number is dropped, nothing chosen; ↓ moves on the question.
    let (_, screen) = session(&twelve_single(), vec![key(Key::Char('1')), key(Key::Down)]);
    assert!(screen.contains("> ( )  2. opt-2"), "{screen}");
    assert!(!screen.contains("Review answers"), "{screen}");
    // `1` Esc: taken back; Enter then chooses the highlighted option 1 as usual.
    let (_, screen) = session(&twelve_single(), vec![key(Key::Char('1')), key(Key::Esc)]);
    assert!(!screen.contains("1\u{2026} Enter"), "{screen}");
    // `3` chooses at once (no option number starts with 3 but 3).
    let mut events = chars("3");
    events.push(key(Key::Enter));
    assert_eq!(session(&twelve_single(), events).0, chose(3));
}

#[test]
fn a_digit_that_waits_for_a_second_one_shows_it_on_the_hint_line() {
    // `1` on 12 options (Type your own is 13): the hint line says the digit typed, what Enter
    // does and the numbers a digit more makes, while the number waits.
    let (_, screen) = session(&twelve_single(), chars("1"));
    assert_eq!(
        screen.lines().last(),
        Some("1\u{2026} Enter chooses option 1, or type the next digit (10-13)"),
        "{screen}"
    );
    assert!(screen.contains("> ( )  1. opt-1"), "{screen}");
    // On a multi-select question Enter ticks.
    let (_, screen) = session(&twelve(), chars("1"));
    assert_eq!(
        screen.lines().last(),
        Some("1\u{2026} Enter ticks option 1, or type the next digit (10-13)"),
        "{screen}"
    );
    // 200 options: `1` `2` still waits (120-129 go on from it); the line shows both digits.
    let options: Vec<Value> = (1..=200)
        .map(|i| json!({"value": format!("o{i}"), "label": format!("opt-{i}")}))
        .collect();
    let many = json!({"questions": [{"id": "s", "prompt": "Which?", "options": options}]});
    let (_, screen) = session(&many.to_string(), chars("12"));
    assert_eq!(
        screen.lines().last(),
        Some("12\u{2026} Enter chooses option 12, or type the next digit (120-129)"),
        "{screen}"
    );
    // The number waits however long (nothing is chosen that Enter did not confirm); Esc
    // takes it back, nothing chosen, and the hint line is the keys' again.
    let mut events = chars("1");
    events.extend([Event::Timeout, Event::Timeout]);
    let (_, screen) = session(&twelve_single(), events.clone());
    assert!(screen.ends_with("(10-13)"), "{screen}");
    events.push(key(Key::Esc));
    let (_, screen) = session(&twelve_single(), events);
    assert!(screen.contains("> ( )  1. opt-1"), "{screen}");
    assert!(
        screen
            .lines()
            .last()
            .unwrap()
            .starts_with("\u{2191}\u{2193} move"),
        "{screen}"
    );
}

#[test]
fn the_key_list_names_every_option_number_above_9() {
    let (_, screen) = session(&twelve_single(), chars("?"));
    assert!(
        screen.contains("\u{2502} 1-13     choose option 1-12; 13: Type your own\n"),
        "{screen}"
    );
    let (_, screen) = session(&twelve(), chars("?"));
    assert!(
        screen.contains("\u{2502} 1-13     tick option 1-12; 13: Type your own\n"),
        "{screen}"
    );
}

/// One question (`Details`, one option) answered with a pasted text of three lines and a
/// question note of one long line, then `then` at the review; on a 30x60 terminal.
fn cut_answers(then: Vec<Event>) -> String {
    let payload = json!({"questions": [{"id": "d", "label": "Details", "prompt": "Anything?",
        "options": [{"value": "a", "label": "A"}]}]})
    .to_string();
    let mut events = vec![key(Key::Char('N'))];
    events.push(key(Key::Paste(
        "A note long enough that it cannot fit on one row of the review at sixty columns".into(),
    )));
    events.extend([key(Key::Enter), key(Key::Char('2'))]);
    events.push(key(Key::Paste(
        "line one of the pasted log\nline two of the pasted log\nline three".into(),
    )));
    events.push(key(Key::Enter));
    events.extend(then);
    session_sized(&payload, events, 30, 60).1
}

#[test]
fn the_review_offers_v_under_an_answer_or_a_note_it_cuts() {
    // The note and the answer are cut to their first row between words, each with the row
    // that says how many lines more and that `v` shows them; the hint names `v all`.
    let screen = cut_answers(vec![]);
    assert_eq!(
        screen,
        "Review answers\n  Details\n       Note: A note long enough that it cannot fit on one\n       \
         + 1 more line \u{b7} v shows all\n     \u{2192} \u{201c}line one of the pasted log\n     \
         + 2 more lines \u{b7} v shows all\n\n> 1. Submit\n  2. Elaborate\n     ask the agent to \
         elaborate on your notes, keeping the\u{2026}\n  3. Cancel\n\u{2191}\u{2193} move \u{b7} Enter \
         choose \u{b7} v all \u{b7} \u{2190} back \u{b7} ? keys"
    );
}

#[test]
fn the_every_answer_pager_wraps_between_words_under_each_lines_start() {
    // Each line of the text on a row of its own, the long note wrapped between words, every
    // row after a line's first two columns in from it.
    let screen = cut_answers(vec![key(Key::Char('v'))]);
    assert_eq!(
        screen,
        "Every answer \u{b7} lines 1-6 of 6\n\u{2502}  Details\n\u{2502}      Note: A note long \
         enough that it cannot fit on one\n\u{2502}        row of the review at sixty columns\n\
         \u{2502}    \u{2192} \u{201c}line one of the pasted log\n\u{2502}      line two of the pasted \
         log\n\u{2502}      line three\u{201d}\n\u{2191}\u{2193} scroll \u{b7} Esc back \u{b7} ^C dismiss"
    );
}

/// A multi-select question of 12 options (`opt-1` … `opt-11`, then `banana`).
fn twelve() -> String {
    let mut options: Vec<Value> = (1..=11)
        .map(|i| json!({"value": format!("o{i}"), "label": format!("opt-{i}")}))
        .collect();
    options.push(json!({"value": "banana", "label": "banana"}));
    json!({"questions": [{"id": "m", "prompt": "Which?", "type": "multi", "options": options}]})
        .to_string()
}

#[test]
fn a_word_typed_at_a_list_goes_to_the_filter_and_ticks_nothing() {
    // `banana` has `a` (all) and `n` (note) in it: its `b` opens the filter, the rest is typed
    // there (fzf); Enter goes into the filtered list; Enter, Enter: done, submitted.
    let mut events = chars("banana");
    let (_, screen) = session(&twelve(), events.clone());
    assert!(screen.contains("banana"), "{screen}");
    events.push(key(Key::Enter));
    let (_, screen) = session(&twelve(), events.clone());
    assert!(
        screen.contains("Filter \u{201c}banana\u{201d}: 1 of 12 options"),
        "{screen}"
    );
    assert!(screen.contains("> [ ] 12. banana"), "{screen}");
    events.extend([key(Key::Enter), key(Key::Enter)]);
    assert_eq!(session(&twelve(), events).0, submitted(json!({})));
}

#[test]
fn a_paste_at_a_list_is_the_filters_text_and_ticks_nothing() {
    // `banana` pasted (its `a` would tick all, its `n` open a note): the filter opens with it,
    // escape sequences in it dropped (fzf takes a paste for its query).
    let mut events = vec![key(Key::Paste("ban\u{1b}[31mana".into()))];
    let (_, screen) = session(&twelve(), events.clone());
    assert!(
        screen.contains("Filter \u{201c}banana\u{201d}: 1 of 12 options"),
        "{screen}"
    );
    events.push(key(Key::Enter));
    let (_, screen) = session(&twelve(), events.clone());
    assert!(screen.contains("> [ ] 12. banana"), "{screen}");
    events.extend([key(Key::Char(' ')), key(Key::Enter), key(Key::Enter)]);
    assert_eq!(
        session(&twelve(), events).0.unwrap()["m"]["values"],
        json!(["banana"])
    );
}

#[test]
fn a_long_multi_select_names_a_and_i_in_its_hint_and_i_inverts() {
    let (_, screen) = session(&twelve(), vec![]);
    assert!(
        screen.ends_with("\u{2191}\u{2193} move \u{b7} Space tick \u{b7} Enter done \u{b7} a all \u{b7} i invert \u{b7} n note \u{b7} Esc cancel \u{b7} ^C dismiss \u{b7} ? keys"),
        "{screen}"
    );
    // Space ticks opt-1; `i` unticks it and ticks the 11 others.
    let events = vec![
        key(Key::Char(' ')),
        key(Key::Char('i')),
        key(Key::Enter),
        key(Key::Enter),
    ];
    let (ending, _) = session(&twelve(), events);
    assert_eq!(
        ending.unwrap()["m"]["indices"],
        json!([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
    );
}

#[test]
fn a_question_cut_at_the_reviews_bottom_counts_as_below() {
    // Highlight on the first question (`Home`): the 30 answers of the second are cut at the
    // bottom, and the row before the actions says one question is below.
    let options: Vec<Value> = (1..=30)
        .map(|i| json!({"value": format!("p{i}"), "label": format!("pkg-{i}")}))
        .collect();
    let payload = json!({"questions": [
        {"id": "s", "label": "Style", "prompt": "How?", "options": [{"value": "a", "label": "A"}]},
        {"id": "m", "label": "Packages", "prompt": "Which?", "type": "multi", "options": options}
    ]})
    .to_string();
    let events = vec![
        key(Key::Tab),
        key(Key::Char('a')),
        key(Key::Enter),
        key(Key::Home),
    ];
    let (_, screen) = session_sized(&payload, events, 24, 80);
    let lines: Vec<&str> = screen.lines().collect();
    assert_eq!(lines[1], "> Style", "{screen}");
    assert_eq!(lines[4], "  Packages", "{screen}");
    assert_eq!(lines[17], "  \u{2193} 1 more below", "{screen}");
}

/// Under a filter the hint line says what Esc does there: it clears the filter (a second Esc
/// cancels); without one, Esc cancels.
#[test]
fn the_hint_under_a_filter_says_esc_clears_it() {
    let mut events = chars("/bal");
    events.push(key(Key::Enter));
    let (_, screen) = session(PREFS, events);
    let hint = screen.lines().last().unwrap_or_default();
    assert!(hint.contains("Esc clear filter"), "{screen}");
    assert!(!hint.contains("Esc cancel"), "{screen}");
    assert!(screen.contains("2. Balanced"), "{screen}");
    assert!(!screen.contains("1. Minimal"), "{screen}");
    // Esc clears it: every option again, and Esc cancels.
    let mut events = chars("/bal");
    events.push(key(Key::Enter));
    events.push(key(Key::Esc));
    let (_, screen) = session(PREFS, events);
    let hint = screen.lines().last().unwrap_or_default();
    assert!(hint.contains("Esc cancel"), "{screen}");
    assert!(screen.contains("1. Minimal"), "{screen}");
}

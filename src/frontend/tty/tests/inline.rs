//! The inline placement against the fake terminal: the transcript, lines above, pastes and typed
//! text in windows of every size.

use super::*;

/// Runs `payload` inline on a `rows` x `cols` fake terminal with `events`; returns the ending
/// and everything written.
/// The test options ([`opts`]), inline.
fn inline_opts() -> AskOptions {
    AskOptions {
        placement: Placement::Inline,
        ..opts()
    }
}

/// 2 (Balanced), Tab to the review, Enter to submit: PREFS on a 30x100 fake terminal with
/// `options`; the terminal after.
fn balanced_and_submitted(options: &AskOptions) -> FakeBackend {
    let mut events = chars("2");
    events.push(key(Key::Tab));
    events.push(key(Key::Enter));
    let p = parse_payload(PREFS).unwrap();
    let mut backend = FakeBackend::new(30, 100, events);
    let ending = drive(Flow::new(&p), &mut backend, options);
    assert!(matches!(ending, Ending::Submitted(_)), "{ending:?}");
    backend
}

fn inline_session(payload: &str, events: Vec<Event>, rows: usize, cols: usize) -> (Ending, String) {
    let p = parse_payload(payload).unwrap();
    let mut backend = FakeBackend::new(rows, cols, events);
    let ending = drive(Flow::new(&p), &mut backend, &inline_opts());
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
    let backend = balanced_and_submitted(&inline_opts());
    assert_eq!(
        backend.screen(),
        "Implementation preferences\nStyle: Balanced\nFrontend: no answer\n✔ Submitted"
    );
}

#[test]
fn a_transcript_line_of_many_ticked_options_says_how_many_it_does_not_show() {
    // 30 ticked (`a`), Enter: the review; Enter: submitted. The line names the labels that
    // fit in 79 columns and counts the others.
    let options: Vec<Value> = (1..=30)
        .map(|i| json!({"value": format!("p{i}"), "label": format!("pkg-{i}")}))
        .collect();
    let payload = json!({"questions": [
        {"id": "m", "label": "Packages", "prompt": "Which?", "type": "multi", "options": options}
    ]})
    .to_string();
    let events = vec![key(Key::Char('a')), key(Key::Enter), key(Key::Enter)];
    let p = parse_payload(&payload).unwrap();
    let mut backend = FakeBackend::new(24, 80, events);
    let ending = drive(Flow::new(&p), &mut backend, &inline_opts());
    assert!(matches!(ending, Ending::Submitted(_)), "{ending:?}");
    assert_eq!(
        backend.screen(),
        "Packages: pkg-1, pkg-2, pkg-3, pkg-4, pkg-5, pkg-6, pkg-7, pkg-8 \u{2026} +22 more\n\u{2714} Submitted"
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
    let backend = balanced_and_submitted(&AskOptions {
        leave_nothing: true,
        ..inline_opts()
    });
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
            above: Some(above),
            leave_nothing: true,
            ..inline_opts()
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

const DATABASE: &str = include_str!("../../../../examples/database.json");

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
    let ending = drive(Flow::new(&p), &mut backend, &inline_opts());
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
fn after_ctrl_c_the_transcript_marks_the_answers_as_not_sent() {
    // In colour a sent answer has the green tick; one Ctrl+C kept from the caller has `-`.
    let options = AskOptions {
        colour: true,
        ..inline_opts()
    };
    let run = |last: Key| {
        let p = parse_payload(PREFS).unwrap();
        let events = vec![key(Key::Char('2')), key(last), key(Key::Enter)];
        let mut backend = FakeBackend::new(30, 100, events);
        let ending = drive(Flow::new(&p), &mut backend, &options);
        (ending, backend.screen())
    };
    let (ending, screen) = run(Key::Ctrl('c'));
    assert_eq!(ending, Ending::Interrupted);
    assert_eq!(
        screen,
        "Implementation preferences\n- Style \u{b7} Balanced\n\u{2718} Frontend \u{b7} no answer\n\u{2718} Dismissed (Ctrl+C): the answers were not sent"
    );
    // Submitted (Tab: the review, Enter: Submit): the tick.
    let (ending, screen) = run(Key::Tab);
    assert!(matches!(ending, Ending::Submitted(_)), "{ending:?}");
    assert!(
        screen.contains("\u{2714} Style \u{b7} Balanced"),
        "{screen}"
    );
}

#[test]
fn with_the_lines_above_drawn_the_key_list_takes_the_rows_the_block_may_have() {
    // pi's way: `--context` and `--above`. The key list (`?`) of question 1 shows whole in
    // 30 rows, not held to the 10 rows the question took.
    let above: String = (1..=30).map(|i| format!("above {i:02}\n")).collect();
    let p = parse_payload(PREFS).unwrap();
    let mut backend = FakeBackend::new(30, 100, vec![key(Key::Char('?'))]);
    let _ = drive(
        Flow::new(&p),
        &mut backend,
        &AskOptions {
            above: Some(above),
            context: Some("Which style do you want?".into()),
            ..inline_opts()
        },
    );
    let n = crate::ui::keymap::key_list(crate::ui::keymap::SINGLE).len();
    let written = &backend.written;
    assert!(
        written.contains(&format!("Keys \u{b7} lines 1-{n} of {n}\x1b")),
        "{written:?}"
    );
}

/// Found by the tty_session fuzz target (its `paste_resize` seed): a long paste in a note
/// editor in a window of 2 rows, then 7x12: the shell's line above the run stays. The window
/// grows taller and narrower at once; vt100 pulls the shell's line and the title back from its
/// history and rewraps nothing. The region took the fake for a terminal that rewraps (the
/// environment's guess) and counted the block's wide row on three rows, so it drew over the
/// shell's line; the fake terminal now says it rewraps nothing ([`Backend::resize_traits`]).
#[test]
fn a_long_paste_then_a_resize_keeps_the_shells_line() {
    let digits: String = "0123456789".repeat(30);
    let mut events = vec![key(Key::Char('n')), key(Key::Paste(digits))];
    events.push(Event::Resize);
    events.extend([Key::Enter, Key::Char('1'), Key::Tab, Key::Enter].map(key));
    let p = parse_payload(PREFS).unwrap();
    let mut backend = FakeBackend::new(2, 30, events);
    backend.sizes = [(7, 12)].into();
    backend.print("$ pi-ask q.json\n");
    let ending = drive(Flow::new(&p), &mut backend, &inline_opts());
    assert!(matches!(ending, Ending::Submitted(_)), "{ending:?}");
    backend.assert_no_stale_rows();
}

/// Found by the tty_session fuzz target: four resizes in a row (22x20, 27x82, 33x85, 32x85,
/// 35x26) at the preview question, then keys. The region took its top 31 rows up from a
/// cursor 14 rows under the screen's top (vt100 brought scrollback rows back as the window
/// grew; older than this branch): the cursor's row now bounds it (the fake terminal answers
/// the cursor position query as a terminal does).
#[test]
fn four_resizes_in_a_row_at_a_preview_question_leave_nothing_stale() {
    let mut events = vec![Event::Resize; 4];
    events.extend([Key::Char('\u{fffd}'), Key::Enter, Key::Char('\u{fffd}')].map(key));
    let p = parse_payload(include_str!("../../../../examples/config-preview.json")).unwrap();
    let mut backend = FakeBackend::new(22, 20, events);
    backend.sizes = [(27, 82), (33, 85), (32, 85), (35, 26)].into();
    let _ = drive(Flow::new(&p), &mut backend, &inline_opts());
    backend.assert_no_stale_rows();
}

/// A window made shorter at the same width pushes the block's top rows into the fake
/// terminal's history; made taller again, vt100 pulls them back above the block, as xterm,
/// tmux and GNU screen do. The cursor moved down as many rows: the region takes its rows back
/// and draws over them, so no stale row of the question is left above the final transcript.
#[test]
fn rows_pulled_back_by_a_taller_window_are_drawn_over() {
    let events = [Event::Resize, Event::Resize]
        .into_iter()
        .chain([Key::Char('2'), Key::Tab, Key::Enter].map(key));
    let p = parse_payload(PREFS).unwrap();
    let mut backend = FakeBackend::new(24, 60, events);
    backend.sizes = [(6, 60), (24, 60)].into();
    backend.print("$ pi-ask q.json\n");
    let ending = drive(Flow::new(&p), &mut backend, &inline_opts());
    assert!(matches!(ending, Ending::Submitted(_)), "{ending:?}");
    backend.assert_no_stale_rows();
    assert_eq!(
        backend.left(),
        [
            "$ pi-ask q.json",
            "Implementation preferences",
            "Style: Balanced",
            "Frontend: no answer",
            "✔ Submitted"
        ]
    );
}

/// Found by the tty_session fuzz target (a note editor open, the window made 20 rows with the
/// cursor on the last): a shorter window cuts off the block's rows under an editor's cursor
/// with the screen's rows under it, so the region counts no more rows under the cursor than
/// the screen has. It reached down for a row that was gone and drew over the shell's lines
/// (also on 64da6c2).
#[test]
fn a_shorter_window_cuts_the_rows_under_an_editors_cursor() {
    let events = [key(Key::Char('n')), Event::Resize]
        .into_iter()
        .chain([Key::Char('x'), Key::Enter, Key::Esc].map(key));
    let p = parse_payload(PREFS).unwrap();
    let mut backend = FakeBackend::new(30, 60, events);
    backend.print(&"$ seq 1 20\n".repeat(20));
    backend.sizes = [(21, 60)].into();
    let _ = drive(Flow::new(&p), &mut backend, &inline_opts());
    backend.assert_no_stale_rows();
}

/// The tty_session fuzz target's session for `data` (fuzz/fuzz_targets/tty_session.rs),
/// inline: the backend after the run.
fn fuzz_session(data: &[u8]) -> FakeBackend {
    use crate::keys::{Input, KeyReader, ManualClock, ScriptedSource};
    use std::time::Duration;
    let size = |b: u8| (2 + usize::from(b % 40), 10 + usize::from(b / 2));
    let payloads = [
        include_str!("../../../../examples/implementation-preferences.json"),
        include_str!("../../../../examples/config-preview.json"),
        include_str!("../../../../examples/database.json"),
    ];
    let (pick, first, rest) = (data[0], data[1], &data[2..]);
    let p = parse_payload(payloads[usize::from(pick) % 4]).unwrap();
    let clock = ManualClock::new();
    let mut source = ScriptedSource::new(&clock);
    let mut sizes = std::collections::VecDeque::new();
    for pair in rest.chunks_exact(2) {
        if pair[0] == 255 {
            source.push(Duration::from_millis(1), Input::Resize);
            sizes.push_back(size(pair[1]));
        } else {
            source.push_bytes(Duration::from_millis(u64::from(pair[0] % 40)), &[pair[1]]);
        }
    }
    let mut reader = KeyReader::new(source, clock.clone(), Duration::from_millis(25));
    let mut events = Vec::new();
    let mut last = crate::keys::Clock::now(&clock);
    while let Ok(event) = reader.next(None) {
        if event != Event::Timeout {
            let now = crate::keys::Clock::now(&clock);
            events.push((now - last, event));
            last = now;
        }
    }
    let (rows, cols) = size(first);
    let mut backend = FakeBackend::timed(rows, cols, events);
    backend.sizes = sizes;
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
        ..inline_opts()
    };
    let _ = drive(Flow::new(&p), &mut backend, &opts);
    backend
}

/// Found by the tty_session fuzz target: 70 resizes (32x25 to 17x137, then the same size, then
/// 18x38) between keys, the shell's lines above the run (`--timeout 3`). At 38 columns the
/// region counted its wide lines on more rows, as a terminal that rewraps makes them, and drew
/// over the shell's two lines: vt100 rewraps nothing ([`Backend::resize_traits`]).
#[test]
fn many_resizes_between_keys_keep_the_shells_lines() {
    let hex = "4c1e0032383838383838383838".to_string()
        + &"ff".repeat(70)
        + "383838383838802c0a0000680065006c006c006e000d0009000d";
    let data: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect();
    fuzz_session(&data).assert_no_stale_rows();
}

//! The terminal front end on small windows and with long text (tests/common/pty.rs): long
//! labels, prompts and descriptions, CJK text, long option lists (paging and filtering),
//! long previews, and resizing. Every test asserts the exact result and that the screen and
//! the scrollback hold no repeated frames or ghost lines.

use crate::common::pty::{Options, Session};
use serde_json::{json, Value};

const DOWN: &str = "\x1b[B";
const UP: &str = "\x1b[A";
/// rustyline: delete from the cursor to the start of the line.
const CTRL_U: &str = "\x15";

fn size(rows: u16, cols: u16) -> Options {
    Options {
        rows,
        cols,
        ..Default::default()
    }
}

/// No non-empty line appears twice on the screen (a repeated frame or a ghost line would).
fn assert_no_repeats(screen: &str) {
    let lines: Vec<&str> = screen.lines().filter(|l| !l.trim().is_empty()).collect();
    for (i, a) in lines.iter().enumerate() {
        assert!(
            !lines[i + 1..].contains(a),
            "line {a:?} appears twice:\n{screen}"
        );
    }
}

/// The flow ended cleanly: exit code, terminal restored, nothing left in the scrollback or
/// on the main screen.
fn finish(s: &mut Session) -> (i32, Value) {
    let (code, result) = s.finish();
    assert!(s.cursor_visible(), "cursor hidden at exit");
    assert!(!s.alternate_screen(), "still on the alternate screen");
    assert_eq!(s.scrollback(), Vec::<String>::new(), "scrollback");
    assert_eq!(s.screen().trim(), "", "main screen");
    (code, result.expect("a result"))
}

const LABEL_80: &str =
    "Choose the storage engine for the event log of the new billing service, please!!";

/// The 400-character description of option 2: forty numbered ten-character words.
fn description_400() -> String {
    (1..=40)
        .map(|i| format!("word{i:03}.. "))
        .collect::<String>()[..400]
        .to_string()
}

/// A payload with an 80-character label, a long prompt and title, 60 options (a CJK label,
/// a 400-character description, an 80-character option label), then a preview question
/// whose first option has a 60-line preview.
fn long_payload() -> String {
    let mut options = vec![
        json!({"value": "cjk", "label": "日本語のラベル：とても長いオプションのラベルです", "description": "漢字の説明"}),
        json!({"value": "long", "label": "Long description", "description": description_400()}),
        json!({"value": "wide", "label": LABEL_80}),
    ];
    for i in 4..=60 {
        options.push(json!({"value": format!("o{i}"), "label": format!("Option {i}"), "description": format!("Description {i}")}));
    }
    let preview: Vec<String> = (1..=60).map(|i| format!("preview line {i}")).collect();
    json!({
        "title": "Project setup for the new service, with a title long enough to be cut",
        "questions": [
            {"id": "engine", "label": LABEL_80,
             "prompt": "Which storage engine should the event log use? It must keep every event for seven years and replay them in order.",
             "options": options},
            {"id": "layout", "label": "Layout", "prompt": "Pick a layout", "type": "preview",
             "options": [
                {"value": "a", "label": "Alpha", "preview": preview.join("\n")},
                {"value": "b", "label": "Beta", "preview": "short"}
             ]}
        ]
    })
    .to_string()
}

/// Presses `key` until `target` is on the screen (waiting for each render); at most 100 times.
fn move_to(s: &mut Session, key: &str, target: &str) -> String {
    for _ in 0..100 {
        let before = s.screen();
        if before.contains(target) {
            return before;
        }
        s.send(key);
        s.wait_until(
            &format!("a render after moving towards {target:?}"),
            |now| now != before,
        );
    }
    panic!("{target:?} not reached:\n{}", s.screen());
}

/// The editor is reading keys: its empty prompt line is drawn.
fn wait_editor(s: &mut Session) {
    s.wait_until("the editor's prompt", |screen| {
        screen.lines().any(|l| l.starts_with(">"))
    });
}

/// A pager's heading on `screen` (`Title · lines A-B of T · more ↓`, the title cut first when
/// narrow): its first line, last line and line count.
fn pager_position(screen: &str) -> Option<(usize, usize, usize)> {
    let head = screen
        .lines()
        .find(|l| !l.starts_with('│') && l.contains("lines ") && l.contains(" of "))?;
    let figures = &head[head.rfind("lines ")? + "lines ".len()..];
    let (range, total) = figures.split_once(" of ")?;
    let (a, b) = range.split_once('-')?;
    let total: String = total.chars().take_while(char::is_ascii_digit).collect();
    Some((a.parse().ok()?, b.parse().ok()?, total.parse().ok()?))
}

/// Reads a pager from its first line to its last, paging with Space; returns every text
/// line (without the "│ " margin), in order.
fn read_pager(s: &mut Session, title: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    loop {
        let screen = s.wait_until(&format!("the pager of {title}"), |screen| {
            pager_position(screen).is_some() && screen.contains("↑↓ scroll")
        });
        let (a, b, total) = pager_position(&screen).expect("the pager's position");
        let body: Vec<String> = screen
            .lines()
            .filter(|l| l.starts_with('│'))
            .map(|l| {
                l.trim_start_matches('│')
                    .trim_start_matches(' ')
                    .to_string()
            })
            .collect();
        assert_eq!(body.len(), b - a + 1, "{screen}");
        for (i, line) in body.into_iter().enumerate() {
            if a + i > lines.len() {
                lines.push(line);
            }
        }
        if b == total {
            return lines;
        }
        s.send(" ");
        s.wait_until("the next page", |now| {
            pager_position(now).is_some_and(|(first, _, _)| first != a)
        });
    }
}

/// Text with all whitespace removed (pager lines are cut at any column, and the screen
/// drops trailing spaces).
fn squeeze(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

/// The long-text flow at one window size: every piece of text reachable, a choice made
/// after filtering, a 60-line preview read to its end, exact result, no repeated lines.
fn long_text_flow(rows: u16, cols: u16) {
    let mut s = Session::spawn_with(&long_payload(), &[], size(rows, cols));
    // A page holds two options at 20x8, three at 40x12 (61 rows with Type your own).
    let pages = if rows == 8 { 31 } else { 21 };
    let first = s.wait_all(&[
        "1/2 Ch",
        &format!("? keys [1/{pages}]"),
        "> ( )  1. 日本語の",
        "          漢字の説",
    ]);
    let lines: Vec<&str> = first.lines().collect();
    // The question stays answerable: the title, the place, the prompt, the first option and
    // the hint line all show.
    assert!(
        lines[0].starts_with("Project setup") && lines[0].ends_with('…'),
        "{first}"
    );
    // The long label is cut to half a line when it would not fit on the first row, so the
    // prompt starts there; the prompt is cut at a word, with "…".
    assert!(lines[1].starts_with("1/2 Ch"), "{first}");
    assert!(lines[1].contains("… · Whic"), "{first}");
    let at = lines
        .iter()
        .position(|l| l.starts_with("> ( )  1. 日本語の"))
        .unwrap_or_else(|| panic!("{first}"));
    assert!(lines[at - 1].ends_with("…:"), "{first}");
    let shown: Vec<&str> = lines[1..at].iter().map(|l| l.trim()).collect();
    // The prompt's frame (SimpleTheme's ":") ends its last row.
    let shown = shown.join(" ");
    assert!(shown.contains(" · Whic"), "{first}");
    let shown = shown.trim_end_matches(':');
    let shown = &shown[shown.find(" · ").unwrap() + " · ".len()..];
    let shown = shown.strip_suffix('…').unwrap_or_else(|| panic!("{first}"));
    let prompt = "Which storage engine should the event log use? It must keep every event for seven years and replay them in order.";
    assert!(prompt.starts_with(shown), "{shown:?}: {first}");
    // The long label is cut keeping its end (`日本語のラベル：と … ベルです`).
    assert!(lines[at].contains('…'), "{first}");
    assert!(lines[at + 1].starts_with("          漢字の説"), "{first}");
    assert!(
        lines
            .last()
            .unwrap()
            .ends_with(&format!("? keys [1/{pages}]")),
        "{first}"
    );
    assert_no_repeats(&first);

    // Full text of option 2 (v): the title, the whole label and prompt, 400-character
    // description.
    let screen = move_to(&mut s, DOWN, "> ( )  2. Long des");
    assert_no_repeats(&screen);
    s.send("v");
    let text = squeeze(&read_pager(&mut s, "Full text of option 2").concat());
    for part in [
        "Project setup for the new service, with a title long enough to be cut",
        LABEL_80,
        "Which storage engine should the event log use? It must keep every event for seven years and replay them in order.",
        "2. Long description",
        &description_400(),
    ] {
        assert!(text.contains(&squeeze(part)), "{part:?} not in the pager: {text}");
    }
    s.send("q");
    s.wait_for("> ( )  2. Long des");

    // Filter the 60 options (/), choose the one match: its original position is the answer.
    s.send("/");
    s.wait_for("Filter options by");
    wait_editor(&mut s);
    s.send("OPTION 42");
    s.wait_for("> OPTION 42");
    s.send("\r");
    let screen = s.wait_all(&["Filter “OPTION 42”", "> ( ) 42. Option 42"]);
    if cols >= 40 {
        assert!(
            screen.contains("Filter “OPTION 42”: 1 of 60 options"),
            "{screen}"
        );
    }
    assert!(!screen.contains(" 1. "), "{screen}");
    assert_no_repeats(&screen);
    s.send("\r");

    // The 60-line preview: every line reachable in the pager.
    let screen = s.wait_all(&["2/2 La", "> ( ) 1. Alpha"]);
    assert!(screen.contains("│ "), "{screen}");
    assert_no_repeats(&screen);
    s.send("v");
    let preview = read_pager(&mut s, "Preview of Alpha");
    let want: Vec<String> = (1..=60).map(|i| format!("preview line {i}")).collect();
    assert_eq!(squeeze(&preview.concat()), squeeze(&want.concat()));
    s.send("q");
    s.wait_for("> ( ) 1. Alpha");
    s.send("\r");

    let screen = s.wait_all(&["Review answers", "> 1. Submit"]);
    assert_no_repeats(&screen);
    s.send("\r");
    let (code, result) = finish(&mut s);
    assert_eq!(code, 0);
    assert_eq!(
        result["details"]["answers"],
        json!({
            "engine": {"values": ["o42"], "labels": ["Option 42"], "indices": [42]},
            "layout": {"values": ["a"], "labels": ["Alpha"], "indices": [1]}
        })
    );
}

#[test]
fn long_text_everything_reachable_at_20x8() {
    long_text_flow(8, 20);
}

#[test]
fn long_text_everything_reachable_at_40x12() {
    long_text_flow(12, 40);
}

/// 60 options, two with "日本", two with an accented "é" (one upper case).
fn filter_payload() -> String {
    let options: Vec<Value> = (1..=60)
        .map(|i| {
            let label = match i {
                10 | 20 => format!("日本 {i}"),
                30 => "Café".to_string(),
                31 => "CAFÉ bar".to_string(),
                _ => format!("Option {i}"),
            };
            json!({"value": format!("o{i}"), "label": label})
        })
        .collect();
    json!({"questions": [{"id": "m", "prompt": "Pick some", "type": "multi", "options": options}]})
        .to_string()
}

/// Opens the filter's editor (/) and saves `text` as the filter.
fn set_filter(s: &mut Session, text: &str) {
    s.send("/");
    s.wait_for("Filter options by");
    wait_editor(s);
    s.send(CTRL_U);
    s.send(text);
    s.wait_until("the filter text", |screen| {
        screen
            .lines()
            .any(|l| l.trim_end() == format!("> {text}").trim_end())
    });
    s.send("\r");
    s.wait_until("the filter's editor closed", |screen| {
        !screen.contains("Filter options by")
    });
}

#[test]
fn filtering_keeps_original_positions_and_ticks() {
    let mut s = Session::spawn_with(&filter_payload(), &[], size(12, 40));
    s.wait_all(&["Pick some:", "> [ ]  1. Option 1"]);
    s.send(" ");
    s.wait_for("> [x]  1. Option 1");

    // Non-ASCII filter text.
    set_filter(&mut s, "日本");
    let screen = s.wait_all(&[
        "Filter “日本”: 2 of 60 options",
        "> [ ] 10. 日本 10",
        "  [ ] 20. 日本 20",
    ]);
    assert!(!screen.contains("Option"), "{screen}");
    assert_no_repeats(&screen);
    s.send(" ");
    s.wait_for("> [x] 10. 日本 10");

    // Clearing the filter (an empty one) keeps the ticks.
    set_filter(&mut s, "");
    let screen = s.wait_for("> [x]  1. Option 1");
    assert!(!screen.contains("Filter “"), "{screen}");

    // Case-insensitive, accented: "É" finds "Café" and "CAFÉ bar".
    set_filter(&mut s, "É");
    s.wait_all(&[
        "Filter “É”: 2 of 60 options",
        "> [ ] 30. Café",
        "  [ ] 31. CAFÉ bar",
    ]);
    s.send(DOWN);
    s.wait_for("> [ ] 31. CAFÉ bar");
    s.send(" ");
    s.wait_for("> [x] 31. CAFÉ bar");
    // Esc clears the filter (it cancels nothing), the highlight kept on its option.
    s.send("\x1b");
    let screen = s.wait_until("the filter cleared", |screen| !screen.contains("Filter “"));
    assert!(screen.contains("> [x] 31. CAFÉ bar"), "{screen}");
    assert!(screen.contains("  [ ] 32. "), "{screen}");
    set_filter(&mut s, "É");
    s.wait_for("> [ ] 30. Café");

    // No match: only Type your own and Next; an empty filter shows every option again.
    set_filter(&mut s, "zzz");
    let screen = s.wait_all(&["Filter “zzz”: no option matches", "Type your own…"]);
    assert_eq!(
        screen.lines().collect::<Vec<_>>(),
        [
            "Pick some:",
            "Filter “zzz”: no option matches",
            "> [ ] 61. Type your own…",
            "      Next: review →",
            "↑↓ move · Space tick · ? keys",
        ],
        "{screen}"
    );
    set_filter(&mut s, "");
    let screen = s.wait_for("> [x]  1. Option 1");
    assert!(!screen.contains("Filter “"), "{screen}");

    s.send("\r");
    let screen = s.wait_all(&["Review answers", "> 1. Submit"]);
    assert!(
        screen.contains("\n     → Option 1\n     → 日本 10\n     → CAFÉ bar\n"),
        "{screen}"
    );
    s.send("\r");
    let (code, result) = finish(&mut s);
    assert_eq!(code, 0);
    assert_eq!(
        result["details"]["answers"],
        json!({"m": {"values": ["o1", "o10", "o31"], "labels": ["Option 1", "日本 10", "CAFÉ bar"], "indices": [1, 10, 31]}})
    );
}

#[test]
fn resizing_redraws_at_the_next_key() {
    let mut s = Session::spawn_with(&long_payload(), &[], size(12, 40));
    s.wait_all(&["? keys [1/21]", "> ( )  1. 日本語の"]);

    // Narrower and shorter: the next key lays the screen out for 20x8.
    s.set_window_size(8, 20);
    s.send(DOWN);
    let screen = s.wait_all(&["? keys [1/31]", "> ( )  2. Long des", "          word0"]);
    assert_eq!(
        screen,
        "Project setup for …\n\
         1/2 Ch… · Whic…:\n\
         \x20 ( )  1. 日本語の…\n\
         \x20         漢字の説…\n\
         > ( )  2. Long des…\n\
         \x20         word001.…\n\
         ? keys [1/31]"
    );
    assert_no_repeats(&screen);

    // Wider and taller: whole labels come back.
    s.set_window_size(30, 100);
    s.send(DOWN);
    let screen = s.wait_for(&format!("> ( )  3. {LABEL_80}"));
    assert!(
        screen.starts_with(
            "Project setup for the new service, with a title long enough to be cut\n1/2 "
        ),
        "{screen}"
    );
    assert_no_repeats(&screen);
    s.send("\r");
    s.wait_all(&["2/2 Layout", "> ( ) 1. Alpha"]);
    s.send("\r");
    s.wait_all(&["Review answers", "> 1. Submit"]);
    s.send("\r");
    let (code, result) = finish(&mut s);
    assert_eq!(code, 0);
    assert_eq!(
        result["details"]["answers"],
        json!({
            "engine": {"values": ["wide"], "labels": [LABEL_80], "indices": [3]},
            "layout": {"values": ["a"], "labels": ["Alpha"], "indices": [1]}
        })
    );
}

/// The lines of `screen` from the one starting with `first`, `n` of them.
fn lines_from(screen: &str, first: &str, n: usize) -> Vec<String> {
    let lines: Vec<&str> = screen.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with(first))
        .unwrap_or_else(|| panic!("no line starts with {first:?}:\n{screen}"));
    lines[at..(at + n).min(lines.len())]
        .iter()
        .map(|l| l.trim_end().to_string())
        .collect()
}

#[test]
fn windows_line_endings_are_line_breaks_and_a_lone_cr_is_shown() {
    let payload = json!({"questions": [{"id": "layout", "label": "Layout",
        "prompt": "Pick a layout\r\nfor the app", "type": "preview",
        "options": [
            {"value": "a", "label": "Alpha", "description": "Left\r\nrail",
             "preview": "+--+\r\n|A |\r\n+--+"},
            {"value": "b", "label": "Beta", "preview": "top\rbar"}]}]});
    let mut s = Session::spawn_with(&payload.to_string(), &[], size(24, 60));
    let screen = s.wait_all(&["> ( ) 1. Alpha", "· ? keys"]);
    assert_eq!(
        lines_from(&screen, "Pick a layout", 2),
        ["Pick a layout", "  for the app:"],
        "{screen}"
    );
    // the highlighted option's description is whole, its line break a row's end; the preview
    // is three lines
    assert_eq!(
        lines_from(&screen, "> ( ) 1. Alpha", 7),
        [
            "> ( ) 1. Alpha",
            "         Left",
            "         rail",
            "         │ +--+",
            "         │ |A |",
            "         │ +--+",
            "  ( ) 2. Beta",
        ],
        "{screen}"
    );
    assert!(!screen.contains("\\x0d"), "{screen}");
    // a lone carriage return stays visible
    s.send(DOWN);
    let screen = s.wait_for("> ( ) 2. Beta");
    assert_eq!(
        lines_from(&screen, "> ( ) 2. Beta", 2),
        ["> ( ) 2. Beta", "         │ top\\x0dbar"],
        "{screen}"
    );
    // not highlighted, the description is one row, its line break folded
    assert_eq!(
        lines_from(&screen, "  ( ) 1. Alpha", 2),
        ["  ( ) 1. Alpha", "         Left↵ rail"],
        "{screen}"
    );
    // the pager (v) shows the same lines
    s.send(UP);
    s.wait_for("> ( ) 1. Alpha");
    s.send("v");
    assert_eq!(
        read_pager(&mut s, "Preview of Alpha"),
        ["+--+", "|A |", "+--+"]
    );
    s.send("q");
    s.wait_all(&["> ( ) 1. Alpha", "· ? keys"]);
    s.send("\r");
    s.wait_all(&["Review answers", "> 1. Submit"]);
    s.send("\r");
    let (code, result) = finish(&mut s);
    assert_eq!(code, 0);
    // the result keeps the payload's text byte for byte
    assert_eq!(
        result["details"],
        json!({"cancelled": false,
               "questions": [{"id": "layout", "label": "Layout",
                              "prompt": "Pick a layout\r\nfor the app", "type": "preview"}],
               "answers": {"layout": {"values": ["a"], "labels": ["Alpha"], "indices": [1]}}})
    );
}

/// The filter is live: the options narrow with every key typed in its editor, ↓ goes into the
/// filtered list, Esc in the editor clears the filter.
#[test]
fn the_filter_narrows_the_options_as_it_is_typed() {
    let mut s = Session::spawn_with(&filter_payload(), &[], size(12, 40));
    s.wait_all(&["Pick some:", "> [ ]  1. Option 1"]);
    s.send("/");
    s.wait_for("Filter options by");
    s.send("caf");
    // No Enter: the editor is still open, the options already narrowed.
    let screen = s.wait_all(&["Filter “caf”: 2 of 60 options", "30. Café", "31. CAFÉ bar"]);
    assert!(screen.contains("Filter options by"), "{screen}");
    assert!(!screen.contains("Option 1"), "{screen}");
    s.send("\x7f\x7f");
    s.wait_for("Filter “c”: ");
    s.send("af");
    s.wait_for("Filter “caf”: 2 of 60 options");
    // ↓ goes into the list, the filter kept.
    s.send(DOWN);
    let screen = s.wait_until("the editor closed", |screen| {
        !screen.contains("Filter options by")
    });
    assert!(screen.contains("Filter “caf”: 2 of 60 options"), "{screen}");
    assert!(screen.contains("> [ ] 30. Café"), "{screen}");
    // Esc in the filter's editor clears it.
    s.send("/");
    s.wait_for("Filter options by");
    s.send("\x1b");
    let screen = s.wait_until("the filter cleared", |screen| {
        !screen.contains("Filter options by") && !screen.contains("Filter “")
    });
    assert!(screen.contains("Option 1"), "{screen}");
}

/// A resize with an editor open lays it out again at once, the text kept.
#[test]
fn a_resize_with_an_editor_open_lays_it_out_again_at_once() {
    let mut s = Session::spawn_with(&filter_payload(), &[], size(12, 60));
    s.wait_all(&["Pick some:", "> [ ]  1. Option 1"]);
    s.send("N");
    s.wait_for("> Add a note...");
    s.send("abc");
    s.wait_until("the text", |screen| screen.lines().any(|l| l == "> abc"));
    s.set_window_size(10, 30);
    // No key: the hint line is fitted to the new width (vt100 only cuts the old one).
    let screen = s.wait_until("the editor laid out again", |screen| {
        screen.lines().any(|l| l == "Note on this question · Ente…")
    });
    assert!(screen.lines().any(|l| l == "> abc"), "{screen}");
    s.send("d\r");
    s.wait_for("Note: abcd");
}

//! How a question's block uses the rows it has (docs/interactive.md "Layout"): the prompt takes
//! the rows the menu leaves, the highlighted option's description the rows the page leaves.

use super::*;

/// A question whose prompt has `lines` lines, over the database example's two options.
fn long_prompt(prompt: &str) -> String {
    json!({"questions": [{"id": "db", "prompt": prompt, "options": [
        {"value": "postgres", "label": "PostgreSQL",
         "description": "Full relational database with production tooling."},
        {"value": "sqlite", "label": "SQLite",
         "description": "Embedded database with minimal setup."}]}]})
    .to_string()
}

#[test]
fn a_long_prompt_takes_every_row_the_menu_leaves() {
    // 80x14: the block has 13 rows; the menu needs 5 (Type your own has no description), the
    // hint one: the prompt 7, where it had 5 and a row stayed empty.
    let prompt: Vec<String> = (1..=12).map(|i| format!("Prompt line {i}")).collect();
    let (_, screen) = session_sized(&long_prompt(&prompt.join("\n")), Vec::new(), 14, 80);
    let lines: Vec<&str> = screen.lines().collect();
    assert_eq!(
        lines[..9],
        [
            "Prompt line 1",
            "  Prompt line 2",
            "  Prompt line 3",
            "  Prompt line 4",
            "  Prompt line 5",
            "  Prompt line 6",
            "  Prompt line 7\u{2026}:",
            "> ( ) 1. PostgreSQL",
            "         Full relational database with production tooling.",
        ],
        "{screen}"
    );
    assert_eq!(lines.len(), 13, "{screen}");
    // 30x10: the prompt wraps on two rows, where it was cut to one.
    let (_, screen) = session_sized(
        &long_prompt("Which database should the project use for its data?"),
        Vec::new(),
        10,
        30,
    );
    let lines: Vec<&str> = screen.lines().collect();
    assert_eq!(
        lines[..3],
        [
            "Which database should the",
            "  project use for its data?:",
            "> ( ) 1. PostgreSQL",
        ],
        "{screen}"
    );
}

#[test]
fn the_highlighted_options_description_is_shown_whole_in_the_rows_left() {
    let long = "A description that goes on well past the width of the window, so that it \
                has to be wrapped between words over several rows to be read whole.";
    let payload = json!({"questions": [{"id": "m", "type": "multi", "prompt": "Pick",
        "options": [
            {"value": "a", "label": "Alpha", "description": long},
            {"value": "b", "label": "Beta", "description": long}]}]})
    .to_string();
    let (_, screen) = session_sized(&payload, Vec::new(), 20, 60);
    assert_eq!(
        screen,
        "Pick:\n\
         > [ ] 1. Alpha\n\
         \x20    A description that goes on well past the width of the\n\
         \x20    window, so that it has to be wrapped between words\n\
         \x20    over several rows to be read whole.\n\
         \x20 [ ] 2. Beta\n\
         \x20    A description that goes on well past the width of the…\n\
         \x20 [ ] 3. Type your own…\n\
         \x20    Next: review →\n\
         ↑↓ move · Space tick · Enter done · n note · ? keys"
    );
    // The highlight moves: Beta's whole, Alpha's one row.
    let (_, screen) = session_sized(&payload, vec![key(Key::Down)], 20, 60);
    assert!(
        screen.contains(
            "  [ ] 1. Alpha\n     A description that goes on well past the width of the…\n\
             > [ ] 2. Beta\n     A description that goes on well past the width of the\n"
        ),
        "{screen}"
    );
    // Rows for two of its rows: cut, and the last says how to see it whole.
    let (_, screen) = session_sized(&payload, Vec::new(), 8, 60);
    assert!(
        screen.contains(
            "> [ ] 1. Alpha\n     A description that goes on well past the width of the\n     \
             window, so that it has to be wrapped \u{2026} (v: whole text)\n  [ ] 2. Beta\n"
        ),
        "{screen}"
    );
}

#[test]
fn the_whole_text_pager_wraps_between_words() {
    let payload = json!({"questions": [{"id": "m", "prompt": "Pick", "options": [
        {"value": "a", "label": "Alpha", "description": "Wrapping inside words is hard \
         to read: every row of this description should end where a word ends."}]}]})
    .to_string();
    let (_, screen) = session_sized(&payload, vec![key(Key::Char('v'))], 20, 40);
    assert!(
        screen.contains(
            "\u{2502} 1. Alpha\n\u{2502} Wrapping inside words is hard to\n\u{2502} read: every \
             row of this description\n\u{2502} should end where a word ends.\n"
        ),
        "{screen}"
    );
}

/// Two long labels that differ only at their end: the same example as
/// /work/team/t31/long.json's options.
fn twin_labels() -> String {
    let label = |end: &str| {
        format!(
            "This is a very long option label that keeps going well past the width of an \
             eighty column terminal so it must wrap or be cut somewhere sensible ({end})"
        )
    };
    json!({"questions": [{"id": "l", "label": "Long labels", "prompt": "Which?", "options": [
        {"value": "a", "label": label("A")}, {"value": "b", "label": label("B")},
        {"value": "c", "label": "Short"}]}]})
    .to_string()
}

#[test]
fn long_labels_that_differ_at_their_end_stay_apart_and_the_highlighted_one_offers_v() {
    let (_, screen) = session_sized(&twin_labels(), vec![key(Key::Down)], 24, 80);
    let lines: Vec<&str> = screen.lines().collect();
    assert_eq!(
        lines[..5],
        [
            "Which?:",
            "  ( ) 1. This is a very long option label that keeps going well … sensible (A)",
            "> ( ) 2. This is a very long option label that … sensible (B) (v: whole text)",
            "  ( ) 3. Short",
            "  ( ) 4. Type your own…",
        ],
        "{screen}"
    );
    // The note editor's title is cut, not its keys.
    let (_, screen) = session_sized(
        &twin_labels(),
        vec![key(Key::Down), key(Key::Char('n'))],
        24,
        80,
    );
    assert_eq!(
        screen.lines().next(),
        Some("Note on This is a very long option … sensible (B) · Enter save · Esc close"),
        "{screen}"
    );
    // The review keeps the end of the answer (the transcript line: `ui::view`'s tests).
    let (_, screen) = session_sized(&twin_labels(), chars("2"), 24, 80);
    let lines: Vec<&str> = screen.lines().collect();
    assert_eq!(
        lines[..4],
        [
            "Review answers",
            "  Long labels",
            "     → This is a very long option label that keeps going well … sensible (B)",
            "     cut in the middle · v shows all",
        ],
        "{screen}"
    );
}

#[test]
fn end_on_a_long_list_shows_a_full_last_page() {
    // 1000 options and Type your own by 5 a page: the last page was Type your own alone.
    let options: Vec<Value> = (1..=1000)
        .map(|i| json!({"value": format!("o{i}"), "label": format!("Option {i}")}))
        .collect();
    let payload = json!({"questions": [{"id": "o", "prompt": "Pick", "options": options}]});
    let (_, screen) = session_sized(&payload.to_string(), vec![key(Key::End)], 8, 60);
    assert_eq!(
        screen,
        "Pick:\n\
         \x20 ( )  997. Option 997\n\
         \x20 ( )  998. Option 998\n\
         \x20 ( )  999. Option 999\n\
         \x20 ( ) 1000. Option 1000\n\
         > ( ) 1001. Type your own…\n\
         ↑↓ move · Enter choose · n note · ? keys [201/201]"
    );
}

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

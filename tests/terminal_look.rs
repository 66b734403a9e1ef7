//! What the terminal can show, read from the bytes pi-ask writes (docs/interactive.md "Look"):
//! no colour code to a terminal without colours, no 256-colour code to one with 8 or 16, and
//! the highlighted row of every screen marked by more than colour.

use crate::common::pty::{Options, Session};
use serde_json::json;

/// Every parameter of every SGR sequence (`ESC [ … m`) in `raw`, in order (none: 0).
fn sgr_params(raw: &[u8]) -> Vec<Vec<u32>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i + 1 < raw.len() {
        if raw[i] == 0x1b && raw[i + 1] == b'[' {
            let start = i + 2;
            let mut j = start;
            while j < raw.len() && (raw[j].is_ascii_digit() || raw[j] == b';') {
                j += 1;
            }
            if j < raw.len() && raw[j] == b'm' {
                let params = std::str::from_utf8(&raw[start..j]).unwrap();
                out.push(params.split(';').map(|p| p.parse().unwrap_or(0)).collect());
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// Whether an SGR parameter list sets a colour (foreground or background, any palette).
fn sets_colour(params: &[u32]) -> bool {
    params
        .iter()
        .any(|p| matches!(p, 30..=39 | 40..=49 | 90..=97 | 100..=107))
}

/// Whether an SGR parameter list writes a 256-colour or direct colour (`38;5;n`, `48;2;…`).
fn extended_colour(params: &[u32]) -> bool {
    params.windows(2).any(|w| matches!(w, [38 | 48, 5 | 2]))
}

/// A multi-select question and a single-select one, with descriptions.
fn payload() -> String {
    json!({"questions": [
        {"id": "tools", "label": "Tools", "prompt": "Which tools?", "type": "multi", "options": [
            {"value": "a", "label": "Alpha", "description": "first"},
            {"value": "b", "label": "Beta", "description": "second"}]},
        {"id": "db", "label": "Database", "prompt": "Which database?", "options": [
            {"value": "p", "label": "Postgres"}, {"value": "s", "label": "SQLite"}]}]})
    .to_string()
}

/// pi-ask on [`payload`] in a pty under `TERM=term`, colour not turned off.
fn spawn(term: &str) -> Session {
    Session::spawn_with(
        &payload(),
        &[],
        Options {
            env: vec![("TERM".into(), term.into())],
            env_remove: vec!["NO_COLOR".into(), "COLORTERM".into()],
            ..Options::default()
        },
    )
}

/// Walks every screen: the multi-select (↓ to Beta), the single-select (↓ to SQLite), the
/// review; submits. Returns the screens seen.
fn walk(s: &mut Session, multi_row: &str, single_row: &str, review_row: &str) -> Vec<String> {
    let mut seen = vec![s.wait_for("Which tools?")];
    s.send("\x1b[B");
    seen.push(s.wait_for(multi_row));
    s.send(" \r");
    s.wait_for("Which database?");
    s.send("\x1b[B");
    seen.push(s.wait_for(single_row));
    s.send("\t");
    seen.push(s.wait_for(review_row));
    s.send("\r");
    let (code, result) = s.finish();
    assert_eq!(code, 0);
    assert_eq!(
        result.unwrap()["details"]["answers"]["tools"]["values"],
        json!(["b"])
    );
    seen
}

#[test]
fn a_monochrome_terminal_gets_no_colour_code_and_sees_every_highlight() {
    for term in ["xterm-mono", "vt100"] {
        let mut s = spawn(term);
        walk(&mut s, "> [ ] 2. Beta", "> ( ) 2. SQLite", "> 1. Submit");
        let colours: Vec<Vec<u32>> = sgr_params(&s.output())
            .into_iter()
            .filter(|p| sets_colour(p))
            .collect();
        assert!(colours.is_empty(), "{term}: {colours:?}");
    }
}

#[test]
fn an_8_colour_terminal_gets_no_256_colour_code_and_a_marked_multi_select_row() {
    let mut s = spawn("xterm");
    walk(
        &mut s,
        "\u{276f} \u{2b1a} 2. Beta",
        "\u{276f} ( ) 2. SQLite",
        "\u{276f} 1. Submit",
    );
    let params = sgr_params(&s.output());
    assert!(params.iter().any(|p| sets_colour(p)), "{params:?}");
    let extended: Vec<&Vec<u32>> = params.iter().filter(|p| extended_colour(p)).collect();
    assert!(extended.is_empty(), "{extended:?}");
}

#[test]
fn a_256_colour_terminal_keeps_its_grey_and_marks_the_multi_select_row() {
    let mut s = spawn("xterm-256color");
    let seen = walk(
        &mut s,
        "\u{276f} \u{2b1a} 2. Beta",
        "\u{276f} ( ) 2. SQLite",
        "\u{276f} 1. Submit",
    );
    // The row not highlighted: no mark, the tick where it was.
    assert!(seen[1].contains("\n  \u{2b1a} 1. Alpha"), "{}", seen[1]);
    let params = sgr_params(&s.output());
    assert!(params.iter().any(|p| extended_colour(p)), "{params:?}");
}

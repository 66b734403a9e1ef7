//! What the line editors need from the environment: whether the terminal can be driven at all
//! (else the plain front end asks), and the external editor (`$VISUAL` / `$EDITOR`) for
//! Ctrl+G. The editor itself is a component of the terminal front end's one loop
//! (`crate::ui::line_editor`, drawn and fed by `frontend::tty`).

/// The terminals the front end cannot drive (rustyline's `UNSUPPORTED_TERM` list, compared
/// without regard to case): no cursor movement to rely on.
const UNDRIVABLE_TERMS: [&str; 3] = ["dumb", "cons25", "emacs"];

/// Whether the editor cannot drive a terminal of this `TERM` (surrounding blanks ignored):
/// unset, empty, or one of rustyline's unsupported terminals in any case. The plain front
/// end asks there instead (`frontend::wants_plain`).
pub fn cannot_drive(term: Option<&str>) -> bool {
    match term.map(str::trim) {
        None | Some("") => true,
        Some(term) => UNDRIVABLE_TERMS
            .iter()
            .any(|known| known.eq_ignore_ascii_case(term)),
    }
}

/// The external editor for long answers and notes: `$VISUAL`, else `$EDITOR` (the first set
/// and not blank), as a shell command line; `None` when neither is set.
pub fn external_editor() -> Option<String> {
    ["VISUAL", "EDITOR"]
        .iter()
        .filter_map(|name| std::env::var(name).ok())
        .find(|v| !v.trim().is_empty())
}

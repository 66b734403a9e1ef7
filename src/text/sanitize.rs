//! Making payload and typed text safe to draw on a terminal.
//!
//! Text from a payload was written by a model that may have read hostile content. Before it
//! reaches the terminal, C0/C1 control characters (except newline and tab), escape-initiated
//! sequences (CSI, OSC including OSC 52 and OSC 8, DCS, APC, ...) and bidirectional overrides
//! and isolates are replaced by visible escapes: `\e`, `\x07`, `\u{202e}`. A Windows line
//! ending (`\r\n`) is a line break like `\n`; a `\r` anywhere else stays visible (`\x0d`).
//! The result JSON always keeps the original strings; only what is drawn is changed.

use std::borrow::Cow;

/// Whether `c` must not reach the terminal as-is (newline and tab are safe).
pub fn is_unsafe(c: char) -> bool {
    match c {
        '\n' | '\t' => false,
        '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' => true,
        // Bidirectional embeddings/overrides and isolates, plus marks that reorder text.
        '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{61c}' => {
            true
        }
        // Line/paragraph separators move the cursor on some terminals.
        '\u{2028}' | '\u{2029}' => true,
        _ => false,
    }
}

/// `text` with every unsafe character shown as a visible escape; borrowed when nothing changes.
///
/// ESC becomes `\e`, other C0/C1 controls `\xNN`, and Unicode format characters `\u{NNNN}`,
/// so `"\x1b]52;c;Zm9v\x07"` is drawn as `\e]52;c;Zm9v\x07` and never interpreted. The `\r`
/// of a `\r\n` is dropped, so Windows line endings are line breaks wherever text is drawn
/// (every front end, wrap and pager takes its text from here); a lone `\r` is `\x0d`.
pub fn for_terminal(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\r' && chars.peek() == Some(&'\n') {
            // CRLF: the `\n` that follows is the line break.
            continue;
        }
        if !is_unsafe(c) {
            out.push(c);
        } else if c == '\u{1b}' {
            out.push_str("\\e");
        } else if (c as u32) < 0x100 {
            out.push_str(&format!("\\x{:02x}", c as u32));
        } else {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        }
    }
    Cow::Owned(out)
}

/// An editor's line as it may be drawn: every control character shown as one visible
/// symbol of one column (`␇` for BEL, `␡` for DEL, `�` for a C1 control), so nothing of it
/// reaches the terminal and the line takes the columns the editor counts for it (rustyline,
/// in its Unicode width mode, set by `crate::editor`, counts one column for a control
/// character). An ESC and what rustyline takes as its sequence (the next character, or a CSI's
/// parameters and final byte) count no column, and a bidirectional control neither: those are
/// left out. Newlines and tabs stay (the editor lays them out). The text saved is the line
/// itself.
pub fn for_editor(line: &str) -> Cow<'_, str> {
    if !line.chars().any(is_unsafe) {
        return Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len() + 8);
    // rustyline's escape state: 0 none, 1 after ESC, 2 in a CSI's parameters.
    let mut esc = 0u8;
    for c in line.chars() {
        match esc {
            1 => {
                esc = if c == '[' { 2 } else { 0 };
                continue;
            }
            2 => {
                if !(c == ';' || c.is_ascii_digit()) {
                    esc = 0;
                }
                continue;
            }
            _ => {}
        }
        match c {
            '\u{1b}' => esc = 1,
            c if !is_unsafe(c) => out.push(c),
            '\u{0}'..='\u{1f}' => out.push(char::from_u32(0x2400 + c as u32).unwrap_or('\u{fffd}')),
            '\u{7f}' => out.push('\u{2421}'),
            c if unicode_width::UnicodeWidthStr::width(c.encode_utf8(&mut [0; 4]) as &str) == 0 => {
            }
            _ => out.push('\u{fffd}'),
        }
    }
    Cow::Owned(out)
}

/// [`for_terminal`], with newlines and tabs also escaped: for one-line places (labels, menu
/// rows) where a line break would break the layout.
pub fn one_line(text: &str) -> Cow<'_, str> {
    let safe = for_terminal(text);
    if !safe.contains(['\n', '\t', '\r']) {
        return safe;
    }
    Cow::Owned(safe.replace('\n', "\u{21b5} ").replace('\t', " "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_borrowed() {
        assert!(matches!(for_terminal("React — 日本 🎉"), Cow::Borrowed(_)));
    }

    #[test]
    fn escape_sequences_are_shown_not_run() {
        assert_eq!(for_terminal("a\x1b]52;c;Zm9v\x07b"), "a\\e]52;c;Zm9v\\x07b");
        assert_eq!(for_terminal("\x1b[2J"), "\\e[2J");
        assert_eq!(for_terminal("\u{9b}31m"), "\\x9b31m");
        assert_eq!(for_terminal("x\u{202e}y\u{2066}"), "x\\u{202e}y\\u{2066}");
    }

    #[test]
    fn windows_line_endings_are_line_breaks_and_a_lone_cr_stays_visible() {
        assert_eq!(for_terminal("a\r\nb\tc"), "a\nb\tc");
        assert_eq!(for_terminal("one\r\ntwo\r\n"), "one\ntwo\n");
        assert_eq!(for_terminal("a\rb"), "a\\x0db");
        assert_eq!(for_terminal("a\r"), "a\\x0d");
        assert_eq!(for_terminal("a\r\r\nb"), "a\\x0d\nb");
        assert_eq!(for_terminal("a\n\rb"), "a\n\\x0db");
        assert_eq!(for_terminal("\r\n\x1b[2J\r\n"), "\n\\e[2J\n");
        // one-line places fold the break like any other
        assert_eq!(one_line("a\r\nb"), "a\u{21b5} b");
        assert_eq!(one_line("a\rb"), "a\\x0db");
    }

    #[test]
    fn one_line_folds_newlines() {
        assert_eq!(one_line("a\nb\tc"), "a\u{21b5} b c");
    }

    #[test]
    fn an_editor_line_draws_no_control_character() {
        assert_eq!(for_editor("plain text"), "plain text");
        assert!(matches!(for_editor("plain"), Cow::Borrowed(_)));
        assert_eq!(for_editor("a\u{1b}[2Jb"), "ab");
        assert_eq!(for_editor("a\u{1b}]52;c;eA==\u{7}b"), "a52;c;eA==\u{2407}b");
        assert_eq!(
            for_editor("x\u{9b}31m\u{202e}y\u{8}\u{7f}\ttab\nline"),
            "x\u{fffd}31my\u{2408}\u{2421}\ttab\nline"
        );
        // Each shown character takes the columns the editor counts for the one it stands for.
        for c in ['\u{7}', '\u{8}', '\u{7f}', '\u{9b}', '\u{202e}'] {
            let text = c.to_string();
            assert_eq!(
                unicode_width::UnicodeWidthStr::width(for_editor(&text).as_ref()),
                unicode_width::UnicodeWidthStr::width(text.as_str()),
                "{c:?}"
            );
        }
    }
}

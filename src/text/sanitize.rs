//! Making payload and typed text safe to draw on a terminal.
//!
//! Text from a payload was written by a model that may have read hostile content. Before it
//! reaches the terminal, C0/C1 control characters (except newline and tab), escape-initiated
//! sequences (CSI, OSC including OSC 52 and OSC 8, DCS, APC, ...), bidirectional overrides
//! and isolates, and the invisible characters that hide text or make two names look alike
//! (U+200B, U+2060 to U+2064, U+FEFF) are replaced by visible escapes: `\e`, `\x07`,
//! `\u{202e}`, `\u{200b}`. The joiners U+200C and U+200D stay: scripts and emoji need them. A Windows line
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
        // Invisible: a zero width space, a word joiner, invisible operators, a BOM.
        '\u{200b}' | '\u{2060}'..='\u{2064}' | '\u{feff}' => true,
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
        if is_unsafe(c) {
            push_escape(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// The visible escape of `c` in [`for_terminal`]'s notation: `\e` for ESC, `\xNN` below
/// U+0100, `\u{NNNN}` above.
fn push_escape(out: &mut String, c: char) {
    use std::fmt::Write as _;
    let _ = match c {
        '\u{1b}' => write!(out, "\\e"),
        c if (c as u32) < 0x100 => write!(out, "\\x{:02x}", c as u32),
        c => write!(out, "\\u{{{:x}}}", c as u32),
    };
}

/// `text` quoted on one line for a message to a person (an error, a problem, a report):
/// `"…"`, with a `"` or `\` in it after a backslash and every character [`for_terminal`]
/// escapes, line breaks and tabs too, in its notation: `a<ESC>b<LF>` is `"a\eb\x0a"`. Every
/// message that quotes payload, file, environment or command-line text quotes it so (the
/// result's JSON then holds the message as JSON).
pub fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if c == '\n' || c == '\t' || is_unsafe(c) => push_escape(&mut out, c),
            c => out.push(c),
        }
    }
    out.push('"');
    out
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

/// Longest SGR sequence kept by [`keep_sgr`], in bytes (a 24-bit foreground and background
/// with attributes take about 40); a longer one is dropped.
pub const MAX_SGR_BYTES: usize = 64;

/// One line of another program's rendering (pi's conversation, drawn by pi-tui) made safe to
/// draw: its SGR sequences (`ESC [ params m`, params digits, `;` and `:` only, at most
/// [`MAX_SGR_BYTES`]) kept, and everything else that is not text dropped whole: any other CSI
/// (cursor moves, erases, modes), OSC (titles, OSC 8 links, OSC 52), DCS, SOS, PM and APC
/// strings up to their ST or BEL (or the line's end), other escapes with what they take, the
/// 8-bit forms of them all (U+009B, U+009D, ...), every other C0/C1 control character, DEL,
/// bidirectional controls and the line separators ([`is_unsafe`]). A tab is one space. Borrowed
/// when nothing changes.
pub fn keep_sgr(line: &str) -> Cow<'_, str> {
    if !line.chars().any(|c| is_unsafe(c) || c == '\t') {
        return Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(c) = rest.chars().next() {
        let after = &rest[c.len_utf8()..];
        rest = match c {
            '\u{1b}' => {
                let mut next = after.chars();
                match next.next() {
                    Some('[') => csi(&after[1..], &mut out),
                    Some(']' | 'P' | 'X' | '^' | '_') => string_end(&after[1..]),
                    // nF escapes: intermediates, then one final byte.
                    Some('\u{20}'..='\u{2f}') => {
                        let from =
                            after.trim_start_matches(|c: char| ('\u{20}'..='\u{2f}').contains(&c));
                        match from.chars().next() {
                            Some(f @ '\u{30}'..='\u{7e}') => &from[f.len_utf8()..],
                            _ => from,
                        }
                    }
                    Some('\u{30}'..='\u{7e}') => &after[1..],
                    _ => after,
                }
            }
            '\u{9b}' => csi_dropped(after),
            '\u{90}' | '\u{98}' | '\u{9d}' | '\u{9e}' | '\u{9f}' => string_end(after),
            '\t' => {
                out.push(' ');
                after
            }
            c if is_unsafe(c) || c == '\n' => after,
            c => {
                out.push(c);
                after
            }
        };
    }
    Cow::Owned(out)
}

/// After `ESC [`: the sequence's parameters, intermediates and final byte; an SGR kept in
/// `out`, anything else dropped. A sequence cut short (a character that cannot be in it) is
/// dropped up to that character. The rest of the line after it.
fn csi<'a>(after: &'a str, out: &mut String) -> &'a str {
    let params_end = after
        .find(|c: char| !('\u{30}'..='\u{3f}').contains(&c))
        .unwrap_or(after.len());
    let inter_end = params_end
        + after[params_end..]
            .find(|c: char| !('\u{20}'..='\u{2f}').contains(&c))
            .unwrap_or(after.len() - params_end);
    match after[inter_end..].chars().next() {
        Some(f @ '\u{40}'..='\u{7e}') => {
            let params = &after[..params_end];
            if f == 'm'
                && inter_end == params_end
                && params.len() + 3 <= MAX_SGR_BYTES
                && params
                    .chars()
                    .all(|c| c.is_ascii_digit() || c == ';' || c == ':')
            {
                out.push_str("\x1b[");
                out.push_str(params);
                out.push('m');
            }
            &after[inter_end + 1..]
        }
        _ => &after[inter_end..],
    }
}

/// After an 8-bit CSI (U+009B): the sequence dropped, as [`csi`] reads it.
fn csi_dropped(after: &str) -> &str {
    let mut sink = String::new();
    csi(after, &mut sink)
}

/// After the start of an OSC, DCS, SOS, PM or APC string: the rest of the line after its end
/// (ST as `ESC \\` or U+009C, or BEL), or nothing when it does not end on the line.
fn string_end(after: &str) -> &str {
    for (i, c) in after.char_indices() {
        match c {
            '\u{7}' | '\u{9c}' => return &after[i + c.len_utf8()..],
            '\u{1b}' if after[i + 1..].starts_with('\\') => return &after[i + 2..],
            _ => {}
        }
    }
    ""
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_text_is_one_line_in_the_notation_of_for_terminal() {
        assert_eq!(quoted("scope"), "\"scope\"");
        assert_eq!(
            quoted("a\x1b]0;t\x07\r\n\t\"\\\u{9b}\u{202e}é"),
            r#""a\e]0;t\x07\x0d\x0a\x09\"\\\x9b\u{202e}é""#
        );
    }

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
        // Names that would look alike show what tells them apart; joiners stay.
        assert_eq!(for_terminal("a\u{200b}"), "a\\u{200b}");
        assert_eq!(
            for_terminal("\u{feff}a\u{2060}b\u{2064}"),
            "\\u{feff}a\\u{2060}b\\u{2064}"
        );
        assert_eq!(
            for_terminal("\u{1f469}\u{200d}\u{1f4bb}"),
            "\u{1f469}\u{200d}\u{1f4bb}"
        );
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
    fn another_programs_line_keeps_its_colours_and_nothing_else() {
        assert!(matches!(keep_sgr("plain \u{65e5}"), Cow::Borrowed(_)));
        assert_eq!(
            keep_sgr("\x1b[1;38;2;10;20;30mbold\x1b[0m \x1b[38:5:1mx\x1b[m"),
            "\x1b[1;38;2;10;20;30mbold\x1b[0m \x1b[38:5:1mx\x1b[m"
        );
        // Cursor moves, erases, modes, private SGR-like sequences: dropped.
        assert_eq!(
            keep_sgr("a\x1b[2J\x1b[10;1Hb\x1b[?25l\x1b[>4mc\x1b[1 md\x1b[3Ae"),
            "abcde"
        );
        // OSC (title, link, clipboard), APC (pi's cursor marker), DCS, up to BEL or ST.
        assert_eq!(
            keep_sgr("\x1b]0;title\x07a\x1b]8;;https://x\x1b\\link\x1b]8;;\x1b\\\x1b_pi:c\x07b\x1bPq#0\x1b\\c"),
            "alinkbc"
        );
        assert_eq!(keep_sgr("a\x1b]52;c;Zm9v"), "a");
        // Other escapes, 8-bit controls, C0, DEL, bidi; a tab is a space.
        assert_eq!(
            keep_sgr(
                "a\x1b7b\x1bcc\x1b(Bd\u{9b}2Je\u{9d}0;t\u{9c}f\u{85}\u{7}\u{8}\u{7f}\r\u{202e}g\th"
            ),
            "abcdefg h"
        );
        // A long SGR is dropped; an unfinished one at the end too.
        let long = format!("\x1b[{}mx\x1b[3", "1;".repeat(40));
        assert_eq!(keep_sgr(&long), "x");
    }
}

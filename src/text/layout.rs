//! Pure text layout for the front ends: display widths, cutting a line to fit, wrapping
//! prose and previews, counting wrapped lines without wrapping them all, quoting. No
//! terminal: every function takes text and widths in display columns and is unit-tested here.

use super::sanitize::{for_terminal, one_line};
use std::fmt::Write as _;
use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthStr;

/// Display columns of `text`, counted per grapheme (ASCII by bytes; CJK and emoji two, an
/// emoji presentation sequence such as `❤️` two, combining marks none).
pub fn width_of(text: &str) -> usize {
    if text.is_ascii() {
        text.len()
    } else {
        text.graphemes(true).map(UnicodeWidthStr::width).sum()
    }
}

/// `text` cut to `width` display columns (with "…"), so no line wraps. Combining marks
/// stay with their letter.
pub fn fit(text: &str, width: usize) -> String {
    if width_of(text) <= width {
        return text.to_string();
    }
    let budget = width.saturating_sub(1);
    if text.is_ascii() {
        return format!("{}…", &text[..budget]);
    }
    let mut out = String::new();
    let mut used = 0;
    for g in text.graphemes(true) {
        let w = g.width();
        if used + w > budget {
            break;
        }
        out.push_str(g);
        used += w;
    }
    out.push('…');
    out
}

/// `text` (already safe to draw) wrapped to `width` display columns, line breaks kept.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut out = Vec::new();
    for line in text.split('\n') {
        let line = line.replace('\t', "    ");
        if line.is_ascii() {
            // One column per byte: cut by bytes.
            if line.is_empty() {
                out.push(String::new());
            }
            for chunk in line.as_bytes().chunks(width) {
                out.push(String::from_utf8_lossy(chunk).into_owned());
            }
            continue;
        }
        if width_of(&line) <= width {
            out.push(line);
            continue;
        }
        let mut cur = String::new();
        let mut cur_w = 0;
        for g in line.graphemes(true) {
            let w = g.width();
            if cur_w + w > width && !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
                cur_w = 0;
            }
            cur.push_str(g);
            cur_w += w;
        }
        out.push(cur);
    }
    out
}

/// `text` (already safe to draw) wrapped to `width` display columns between words, like
/// prose; a word longer than a line is broken. For prompts; previews keep [`wrap`], which
/// keeps every character (code, aligned columns) as it is.
pub fn wrap_words(text: &str, width: usize) -> Vec<String> {
    let options = textwrap::Options::new(width.max(1)).break_words(true);
    text.split('\n')
        .flat_map(|line| {
            let line = line.replace('\t', "    ");
            let wrapped: Vec<String> = textwrap::wrap(&line, &options)
                .into_iter()
                .map(|l| l.into_owned())
                .collect();
            if wrapped.is_empty() {
                vec![String::new()]
            } else {
                wrapped
            }
        })
        .collect()
}

/// The first `max` lines of [`wrap`]`(text, width)`, wrapping no more than needed.
pub fn wrap_head(text: &str, width: usize, max: usize) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.split('\n') {
        if out.len() >= max {
            break;
        }
        out.extend(wrap(line, width));
    }
    out.truncate(max);
    out
}

/// How many lines [`wrap`] makes of `text` at `width`, counting no further than `cap`.
pub fn wrapped_len(text: &str, width: usize, cap: usize) -> usize {
    let width = width.max(1);
    let mut n = 0;
    for line in text.split('\n') {
        if n >= cap {
            break;
        }
        n += if line.is_ascii() && !line.contains('\t') {
            line.len().div_ceil(width).max(1)
        } else {
            wrap(line, width).len()
        };
    }
    n.min(cap)
}

/// Quoted one-line text for rows: `“text”`.
pub fn quote(text: &str) -> String {
    format!("\u{201c}{}\u{201d}", one_line(text))
}

/// `text` made safe for the terminal, every line prefixed with `prefix`, ending in a newline
/// (one empty line for empty text).
pub fn indented(text: &str, prefix: &str) -> String {
    let safe = for_terminal(text);
    let mut s = String::with_capacity(safe.len() + prefix.len() * 4);
    for line in safe.lines() {
        let _ = writeln!(s, "{prefix}{line}");
    }
    if s.is_empty() {
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use console::measure_text_width;

    #[test]
    fn wrap_breaks_by_display_width() {
        assert_eq!(wrap("abcdef", 4), vec!["abcd", "ef"]);
        assert_eq!(wrap("日本語です", 4), vec!["日本", "語で", "す"]);
        assert_eq!(wrap("a\nb", 4), vec!["a", "b"]);
        assert_eq!(wrap("a\n\nb", 4), vec!["a", "", "b"]);
        assert_eq!(wrap("abcd", 4), vec!["abcd"]);
        assert_eq!(wrap("é日本", 3), vec!["é日", "本"]);
    }

    #[test]
    fn prompts_wrap_between_words() {
        assert_eq!(
            wrap_words("Which frontend frameworks have you used?", 20),
            vec!["Which frontend", "frameworks have you", "used?"]
        );
        assert_eq!(wrap_words("abcdefghij", 4), vec!["abcd", "efgh", "ij"]);
        assert_eq!(wrap_words("a\n\nb", 4), vec!["a", "", "b"]);
        assert_eq!(
            wrap_words("日本語の 質問です", 6),
            vec!["日本語", "の", "質問で", "す"]
        );
    }

    #[test]
    fn wrapped_len_matches_wrap_up_to_the_cap() {
        for text in ["abcdef", "日本語です", "a\n\nb", "", "x\ty", "abcd\né日本"] {
            assert_eq!(wrapped_len(text, 4, 100), wrap(text, 4).len(), "{text:?}");
        }
        assert_eq!(wrapped_len("a\nb\nc\nd", 4, 2), 2);
        assert_eq!(
            wrap_head("abcdefgh\nij\nkl", 3, 4),
            vec!["abc", "def", "gh", "ij"]
        );
        assert_eq!(wrap_head("a", 3, 0), Vec::<String>::new());
    }

    #[test]
    fn combining_marks_and_emoji_are_measured_by_display_width() {
        // "é" as e + U+0301 takes one column; the mark stays with its letter.
        let decomposed = "e\u{301}e\u{301}e\u{301}e\u{301}";
        assert_eq!(width_of(decomposed), 4);
        assert_eq!(
            wrap(decomposed, 2),
            vec!["e\u{301}e\u{301}", "e\u{301}e\u{301}"]
        );
        assert_eq!(
            fit(&format!("{decomposed}x"), 4),
            "e\u{301}e\u{301}e\u{301}…"
        );
        // Emoji take two columns.
        assert_eq!(width_of("🎉🎉🎉"), 6);
        assert_eq!(fit("🎉🎉🎉", 5), "🎉🎉…");
        assert_eq!(wrap("🎉🎉🎉", 5), vec!["🎉🎉", "🎉"]);
    }

    #[test]
    fn indented_prefixes_every_line_and_shows_escapes() {
        assert_eq!(indented("a\nb", "  | "), "  | a\n  | b\n");
        assert_eq!(indented("", "x"), "\n");
        assert_eq!(indented("b\x1b[2Jb", ""), "b\\e[2Jb\n");
    }

    #[test]
    fn windows_line_endings_wrap_and_indent_as_line_breaks() {
        // Callers pass text through `for_terminal`, which makes `\r\n` a line break.
        let text = for_terminal("one\r\ntwo\r\nthree\rx\r\n");
        assert_eq!(wrap(&text, 20), vec!["one", "two", "three\\x0dx", ""]);
        assert_eq!(wrap_head(&text, 20, 2), vec!["one", "two"]);
        assert_eq!(wrapped_len(&text, 20, 100), 4);
        assert_eq!(wrap_words(&for_terminal("a b\r\nc"), 20), vec!["a b", "c"]);
        assert_eq!(
            indented("one\r\ntwo\rx\r\n", "  | "),
            "  | one\n  | two\\x0dx\n"
        );
    }

    #[test]
    fn fit_cuts_by_display_width() {
        assert_eq!(fit("日本語です", 5), "日本…");
        assert_eq!(measure_text_width(&fit("日本語です", 5)), 5);
        assert_eq!(fit("short", 10), "short");
    }
}

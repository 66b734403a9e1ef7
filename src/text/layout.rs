//! Pure text layout for the front ends: cutting a line to fit, wrapping prose and previews,
//! counting wrapped lines without wrapping them all, quoting. No terminal: every function
//! takes text and widths in display columns ([`super::width`]) and is unit-tested here.
//!
//! Every line these functions return keeps within its width in columns AND within
//! [`line_byte_budget`] bytes, and no grapheme in it is longer than
//! [`super::width::MAX_GRAPHEME_BYTES`], so no drawn line is longer than a screenful whatever
//! the text (a million zero-width spaces are cut like a million letters).

use super::charset::{terminal_charset, Charset, Glyph};
use super::sanitize::{for_terminal, one_line};
use super::width::{cap_grapheme, grapheme_width, graphemes, line_byte_budget, width_of_in};
#[cfg(test)]
use super::width::{width_of, MAX_GRAPHEME_BYTES};
use std::fmt::Write as _;
use unicode_segmentation::UnicodeSegmentation;

/// The drawn pieces of `line`: each grapheme (cut to [`MAX_GRAPHEME_BYTES`]) with its width.
fn cells(line: &str) -> impl Iterator<Item = (&str, usize)> {
    graphemes(line).map(|g| {
        let g = cap_grapheme(g);
        (g, grapheme_width(g))
    })
}

/// Whether `text` is drawn whole within `width` columns and its byte budget.
fn fits(text: &str, width: usize) -> bool {
    if text.is_ascii() {
        return text.len() <= width;
    }
    let budget = line_byte_budget(width);
    let (mut used, mut bytes) = (0usize, 0usize);
    for g in graphemes(text) {
        used += grapheme_width(g);
        bytes += g.len();
        if used > width || bytes > budget || cap_grapheme(g).len() < g.len() {
            return false;
        }
    }
    true
}

/// `text` cut to `width` display columns and its byte budget (with "…"), so no line wraps.
/// Combining marks stay with their letter. In the terminal's charset
/// ([`terminal_charset`]): see [`fit_in`].
pub fn fit(text: &str, width: usize) -> String {
    fit_in(text, width, terminal_charset())
}

/// [`fit`] in `charset`: in ASCII, the ASCII spelling of `text` ([`Charset::write`]) cut,
/// with `...` (`.` under four columns).
pub fn fit_in(text: &str, width: usize, charset: Charset) -> String {
    let text = charset.write(text);
    if fits(&text, width) {
        return text.into_owned();
    }
    let ellipsis = match charset.glyph(Glyph::Ellipsis) {
        e if e.len() >= width && charset == Charset::Ascii => ".",
        e => e,
    };
    let room = width.saturating_sub(width_of_in(ellipsis, charset));
    if text.is_ascii() {
        return format!("{}{ellipsis}", &text[..room.min(text.len())]);
    }
    let budget = line_byte_budget(width) - ellipsis.len();
    let mut out = String::new();
    let mut used = 0;
    for (g, w) in cells(&text) {
        if used + w > room || out.len() + g.len() > budget {
            break;
        }
        out.push_str(g);
        used += w;
    }
    out.push_str(ellipsis);
    out
}

/// Columns under which [`fit_keeping_end_in`] cuts at the end as [`fit_in`] does: too few for
/// a start and an end that both read (an item's mark and number take 8 of them).
const KEEPING_END_FROM: usize = 32;

/// `text` within `width` columns keeping its end: whole when it fits; else its start, ` … `
/// and its last words (within a quarter of `width`; the last characters when no word starts
/// there), the start cut between words too when one ends in its second half, so two long texts that differ only at their end stay apart
/// (`This is a very long option label … sensible (A)`). Under 32 columns, [`fit_in`]. In
/// `charset` (ASCII: ` ... `); within [`line_byte_budget`] bytes.
pub fn fit_keeping_end_in(text: &str, width: usize, charset: Charset) -> String {
    let written = charset.write(text);
    if fits(&written, width) || width < KEEPING_END_FROM {
        return fit_in(&written, width, charset);
    }
    let ellipsis = charset.glyph(Glyph::Ellipsis);
    let tail_room = width / 4;
    // The end: the last characters within a quarter of the width (and its byte budget), from
    // the first word starting in them.
    let mut start = written.len();
    let mut used = 0;
    for (i, c) in written.char_indices().rev() {
        let w = super::width::char_width(c);
        if used + w > tail_room || written.len() - i > line_byte_budget(tail_room) {
            break;
        }
        used += w;
        start = i;
    }
    let mut tail = &written[start..];
    if let Some(blank) = tail.find(' ') {
        if !tail[blank..].trim().is_empty() {
            tail = tail[blank..].trim_start();
        }
    }
    // No combining mark without its letter.
    tail = tail.trim_start_matches(|c| super::width::char_width(c) == 0);
    let tail_width = width_of_in(tail, charset);
    let head_room = width.saturating_sub(tail_width + 2);
    let head = fit_in(&written, head_room, charset);
    let mut head = head.strip_suffix(ellipsis).unwrap_or(&head);
    // Between words when the cut falls in one and a word ends in the head's second half.
    let in_a_word = written
        .get(head.len()..)
        .is_some_and(|rest| !rest.starts_with(' '));
    if let Some(blank) = head.rfind(' ').filter(|b| in_a_word && *b > head.len() / 2) {
        head = &head[..blank];
    }
    let head = head.trim_end();
    format!("{head} {ellipsis} {tail}")
}

/// [`fit_keeping_end_in`] in the terminal's charset.
pub fn fit_keeping_end(text: &str, width: usize) -> String {
    fit_keeping_end_in(text, width, terminal_charset())
}

/// A line of SGR sequences and text (as [`super::sanitize::keep_sgr`] leaves it) cut to
/// `width` display columns by its text only, its colours kept; in the terminal's charset
/// ([`fit_styled_in`]).
pub fn fit_styled(line: &str, width: usize) -> String {
    fit_styled_in(line, width, terminal_charset())
}

/// [`fit_styled`] in `charset`. A line wider than `width` is cut with "…" (ASCII `...`), unless
/// what does not fit is only spaces (another program's padding to its own width), which is cut
/// without one. The text keeps within [`line_byte_budget`] bytes and so do its SGR sequences
/// (later ones are dropped); a line that has any ends with `ESC[0m`, so no colour reaches the
/// next line or an erase after it.
pub fn fit_styled_in(line: &str, width: usize, charset: Charset) -> String {
    let width = width.max(1);
    let budget = line_byte_budget(width);
    let ellipsis = match charset.glyph(Glyph::Ellipsis) {
        e if e.len() >= width && charset == Charset::Ascii => ".",
        e => e,
    };
    let room = width.saturating_sub(width_of_in(ellipsis, charset));
    // The pieces: SGR sequences, and text in the charset.
    let mut pieces: Vec<(bool, std::borrow::Cow<'_, str>)> = Vec::new();
    let mut rest = line;
    while !rest.is_empty() {
        if rest.starts_with("\x1b[") {
            let end = rest.find('m').map_or(rest.len(), |i| i + 1);
            pieces.push((true, rest[..end].into()));
            rest = &rest[end..];
        } else {
            let end = rest.find('\x1b').unwrap_or(rest.len());
            let end = if end == 0 { 1 } else { end };
            pieces.push((false, charset.write(&rest[..end])));
            rest = &rest[end..];
        }
    }
    let mut out = String::new();
    let (mut used, mut bytes, mut sgr_bytes) = (0usize, 0usize, 0usize);
    // Where `out` stood before the first grapheme that leaves no room for the ellipsis.
    let mut cut: Option<usize> = None;
    let mut styled = false;
    // The piece and the byte in it where the text stopped fitting.
    let mut overflow: Option<(usize, usize)> = None;
    'pieces: for (i, (is_sgr, piece)) in pieces.iter().enumerate() {
        if *is_sgr {
            if sgr_bytes + piece.len() <= budget {
                sgr_bytes += piece.len();
                out.push_str(piece);
                styled = true;
            }
            continue;
        }
        let mut offset = 0;
        for g in piece.graphemes(true) {
            let shown = cap_grapheme(g);
            let w = grapheme_width(shown);
            if used + w > width || bytes + shown.len() > budget {
                overflow = Some((i, offset));
                break 'pieces;
            }
            if used + w > room && cut.is_none() {
                cut = Some(out.len());
            }
            out.push_str(shown);
            used += w;
            bytes += shown.len();
            offset += g.len();
        }
    }
    if let Some((i, offset)) = overflow {
        // What did not fit: only spaces (looked at up to the byte budget), or text.
        let left = pieces[i].1[offset..].chars().chain(
            pieces[i + 1..]
                .iter()
                .filter(|(is_sgr, _)| !is_sgr)
                .flat_map(|(_, p)| p.chars()),
        );
        if !left.take(budget).all(|c| c == ' ') {
            if let Some(at) = cut {
                // The text from the cut dropped, the SGR sequences in it kept.
                let tail = sgr_only(&out[at..]);
                out.truncate(at);
                out.push_str(&tail);
            }
            out.push_str(ellipsis);
        }
    }
    if styled {
        out.push_str("\x1b[0m");
    }
    out
}

/// The SGR sequences of `s` (text and SGR sequences only), its text left out.
fn sgr_only(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        if rest.starts_with("\x1b[") {
            let end = rest.find('m').map_or(rest.len(), |i| i + 1);
            out.push_str(&rest[..end]);
            rest = &rest[end..];
        } else {
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// Appends the lines of one `line` (no `\n`, tabs already spaces) wrapped to `width`
/// columns and its byte budget to `out`, until `out` has `max` lines.
fn wrap_line(line: &str, width: usize, max: usize, out: &mut Vec<String>) {
    if out.len() >= max {
        return;
    }
    if line.is_ascii() {
        // One column per byte: cut by bytes.
        if line.is_empty() {
            out.push(String::new());
        }
        for chunk in line.as_bytes().chunks(width) {
            if out.len() >= max {
                return;
            }
            out.push(String::from_utf8_lossy(chunk).into_owned());
        }
        return;
    }
    if fits(line, width) {
        out.push(line.to_string());
        return;
    }
    let budget = line_byte_budget(width);
    let mut cur = String::new();
    let mut cur_w = 0;
    for (g, w) in cells(line) {
        if (cur_w + w > width || cur.len() + g.len() > budget) && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
            cur_w = 0;
            if out.len() >= max {
                return;
            }
        }
        cur.push_str(g);
        cur_w += w;
    }
    out.push(cur);
}

/// `text` (already safe to draw) wrapped to `width` display columns, line breaks kept; in
/// the terminal's charset ([`wrap_in`]).
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    wrap_in(text, width, terminal_charset())
}

/// [`wrap`] in `charset`: in ASCII, the ASCII spelling of `text` ([`Charset::write`]).
pub fn wrap_in(text: &str, width: usize, charset: Charset) -> Vec<String> {
    let text = charset.write(text);
    let width = width.max(1);
    let mut out = Vec::new();
    for line in text.split('\n') {
        wrap_line(&line.replace('\t', "    "), width, usize::MAX, &mut out);
    }
    out
}

/// A piece of a line for word wrapping: a word (or a piece of a long one) and the spaces
/// after it, with their widths; a piece's width counts its bytes too (one column per
/// [`super::width::BYTES_PER_COLUMN`]), so a run of zero-width characters still fills lines.
#[derive(Debug)]
struct Piece<'a> {
    word: &'a str,
    spaces: &'a str,
    width: usize,
}

impl textwrap::core::Fragment for Piece<'_> {
    fn width(&self) -> f64 {
        self.width as f64
    }
    fn whitespace_width(&self) -> f64 {
        self.spaces.len() as f64
    }
    fn penalty_width(&self) -> f64 {
        0.0
    }
}

/// The width a word piece takes in word wrapping: its columns, or its bytes per
/// [`super::width::BYTES_PER_COLUMN`] when that is more.
fn piece_width(word: &str) -> usize {
    width_of_in(word, Charset::Utf8).max(word.len().div_ceil(super::width::BYTES_PER_COLUMN))
}

/// `text` (already safe to draw) wrapped to `width` display columns between words, like
/// prose; a word longer than a line is broken. For prompts; previews keep [`wrap`], which
/// keeps every character (code, aligned columns) as it is. Lines are laid out by
/// textwrap's first-fit algorithm (its words: ASCII spaces, and each wide character of CJK
/// text: [`wide_parts`]; trailing spaces dropped) over the widths of [`super::width`]. In the terminal's charset ([`wrap_words_in`]).
pub fn wrap_words(text: &str, width: usize) -> Vec<String> {
    wrap_words_in(text, width, terminal_charset())
}

/// [`wrap_words`] in `charset`: in ASCII, the ASCII spelling of `text` ([`Charset::write`]).
pub fn wrap_words_in(text: &str, width: usize, charset: Charset) -> Vec<String> {
    let text = charset.write(text);
    let width = width.max(1);
    let mut out = Vec::new();
    for line in text.split('\n') {
        let line = line.replace('\t', "    ");
        let line = super::width::capped(&line);
        if fits(&line, width) {
            out.push(line.trim_end_matches(' ').to_string());
            continue;
        }
        let mut pieces = Vec::new();
        for word in textwrap::WordSeparator::AsciiSpace.find_words(&line) {
            for (part, spaces) in wide_parts(word.word, word.whitespace) {
                split_word(part, spaces, width, &mut pieces);
            }
        }
        let lines = textwrap::wrap_algorithms::wrap_first_fit(&pieces, &[width as f64]);
        for line in lines {
            let mut s = String::new();
            for (i, p) in line.iter().enumerate() {
                s.push_str(p.word);
                if i + 1 < line.len() {
                    s.push_str(p.spaces);
                }
            }
            out.push(s);
        }
        if pieces.is_empty() {
            out.push(String::new());
        }
    }
    out
}

/// Characters no line starts with (closing brackets and punctuation of CJK text, the
/// prolonged sound mark): kept on the line before, as the line-breaking rules of Japanese
/// (kinsoku) and Chinese have it.
const NO_LINE_START: &str =
    "、。，．,.)）」』】〕〉》］｝!！?？:：;；ー々ゝゞヽヾっゃゅょッャュョ…";

/// `word` (with `spaces` after it) in the parts a line may break between: CJK text has no
/// spaces, and a line may break between any two of its wide characters (UAX #14), except
/// before a [`NO_LINE_START`] character; a run of narrow characters stays one part. The last
/// part carries `spaces`.
fn wide_parts<'a>(word: &'a str, spaces: &'a str) -> Vec<(&'a str, &'a str)> {
    if word.is_ascii() {
        return vec![(word, spaces)];
    }
    let mut parts = Vec::new();
    let (mut start, mut last_wide) = (0, false);
    for (i, g) in word.grapheme_indices(true) {
        let wide = grapheme_width(g) >= 2;
        let closing = g.chars().next().is_some_and(|c| NO_LINE_START.contains(c));
        if i > start && (wide || last_wide) && !closing {
            parts.push((&word[start..i], ""));
            start = i;
        }
        last_wide = wide;
    }
    parts.push((&word[start..], spaces));
    parts
}

/// Pushes `word` (with `spaces` after it) as pieces of at most `width` ([`piece_width`]).
fn split_word<'a>(word: &'a str, spaces: &'a str, width: usize, pieces: &mut Vec<Piece<'a>>) {
    let w = piece_width(word);
    if w <= width {
        pieces.push(Piece {
            word,
            spaces,
            width: w,
        });
        return;
    }
    let budget = line_byte_budget(width);
    let (mut start, mut cols, mut bytes) = (0usize, 0usize, 0usize);
    for (i, g) in word.grapheme_indices(true) {
        let gw = grapheme_width(g);
        if (cols + gw > width || bytes + g.len() > budget) && i > start {
            pieces.push(Piece {
                word: &word[start..i],
                spaces: "",
                width: width.min(piece_width(&word[start..i])),
            });
            start = i;
            cols = 0;
            bytes = 0;
        }
        cols += gw;
        bytes += g.len();
    }
    pieces.push(Piece {
        word: &word[start..],
        spaces,
        width: width.min(piece_width(&word[start..])),
    });
}

/// The first `max` lines of [`wrap`]`(text, width)`, wrapping no more than needed.
pub fn wrap_head(text: &str, width: usize, max: usize) -> Vec<String> {
    let text = terminal_charset().write(text);
    let width = width.max(1);
    let mut out = Vec::new();
    for line in text.split('\n') {
        if out.len() >= max {
            break;
        }
        wrap_line(&line.replace('\t', "    "), width, max, &mut out);
    }
    out
}

/// How many lines [`wrap`] makes of `text` at `width`, counting no further than `cap`.
pub fn wrapped_len(text: &str, width: usize, cap: usize) -> usize {
    let text = terminal_charset().write(text);
    let width = width.max(1);
    let mut n = 0;
    for line in text.split('\n') {
        if n >= cap {
            break;
        }
        n += if line.is_ascii() && !line.contains('\t') {
            line.len().div_ceil(width).max(1)
        } else {
            let mut lines = Vec::new();
            wrap_line(&line.replace('\t', "    "), width, cap - n, &mut lines);
            lines.len()
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

    #[test]
    fn a_cut_keeping_its_end_tells_texts_apart_that_differ_at_their_end() {
        let label = |end: &str| {
            format!("This is a very long option label that keeps going well past the width of an eighty column terminal so it must wrap or be cut somewhere sensible ({end})")
        };
        let a = fit_keeping_end_in(&label("A"), 60, Charset::Utf8);
        assert_eq!(
            a,
            "This is a very long option label that keeps \u{2026} sensible (A)"
        );
        assert!(width_of(&a) <= 60, "{a}");
        assert_ne!(a, fit_keeping_end_in(&label("B"), 60, Charset::Utf8));
        assert_eq!(
            fit_keeping_end_in(&label("A"), 40, Charset::Ascii),
            "This is a very long option label ... (A)"
        );
        // Whole when it fits; at its end under 32 columns; no word in the end: its characters.
        assert_eq!(fit_keeping_end_in("Short", 20, Charset::Utf8), "Short");
        assert_eq!(
            fit_keeping_end_in(&label("A"), 15, Charset::Utf8),
            "This is a very\u{2026}"
        );
        let word = "x".repeat(100);
        let cut = fit_keeping_end_in(&word, 32, Charset::Utf8);
        assert_eq!(
            cut,
            format!("{} \u{2026} {}", "x".repeat(21), "x".repeat(8))
        );
        assert_eq!(width_of(&cut), 32);
    }
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
            vec!["日本語", "の 質", "問です"]
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

    #[test]
    fn lines_are_cut_by_bytes_as_well_as_columns() {
        // 200,000 zero-width spaces: no columns, 600 kB (tests/text.rs draws 1.3M).
        let label = "\u{200b}".repeat(200_000);
        let cut = fit(&label, 80);
        assert!(cut.len() <= line_byte_budget(80), "{}", cut.len());
        assert!(cut.ends_with('…'));
        assert!(wrap_head(&label, 80, 3)
            .iter()
            .all(|l| l.len() <= line_byte_budget(80)));
        assert_eq!(wrap_head(&label, 80, 3).len(), 3);
        assert_eq!(wrapped_len(&label, 80, 5), 5);
        let words = wrap_words(&format!("Pick {label} one"), 80);
        assert!(words.iter().all(|l| l.len() <= line_byte_budget(80)));
        assert_eq!(words.first().map(String::as_str), Some("Pick"));
        assert!(words.last().is_some_and(|l| l.ends_with(" one")));
        // A letter under a thousand combining marks is one grapheme: cut inside it.
        let zalgo = format!("a{}b", "\u{301}".repeat(1000));
        // (`a` and 31 two-byte marks: 63 bytes; then `b` and the `…`.)
        assert_eq!(fit(&zalgo, 10), format!("a{}b…", "\u{301}".repeat(31)));
        assert_eq!(MAX_GRAPHEME_BYTES, 64);
        assert!(wrap(&zalgo, 10)
            .iter()
            .all(|l| l.len() <= MAX_GRAPHEME_BYTES + 1));
        assert!(wrap_words(&zalgo, 10)
            .iter()
            .all(|l| l.len() <= MAX_GRAPHEME_BYTES + 1));
    }

    #[test]
    fn lines_are_cut_at_the_widths_tmux_draws() {
        // 👍🏽 is 4 columns in tmux (text::width's figures).
        let thumbs = "\u{1f44d}\u{1f3fd}";
        assert_eq!(fit(&thumbs.repeat(3), 9), format!("{}…", thumbs.repeat(2)));
        assert_eq!(
            wrap(&thumbs.repeat(3), 8),
            vec![thumbs.repeat(2), thumbs.to_string()]
        );
        assert_eq!(fit("\u{3164}\u{3164}x", 4), "\u{3164}…");
        assert_eq!(fit("\u{ad}\u{ad}\u{ad}", 2), "\u{ad}…");
        assert_eq!(fit("\u{231a}\u{fe0e}ab", 3), "\u{231a}\u{fe0e}…");
        assert_eq!(
            wrap_words("\u{2764}\u{fe0f} \u{2764}\u{fe0f}", 4),
            vec!["\u{2764}\u{fe0f}", "\u{2764}\u{fe0f}"]
        );
    }

    #[test]
    fn words_wrap_as_textwrap_wraps_ascii() {
        for text in [
            "Which frontend frameworks have you used?",
            "  leading spaces and   runs  of spaces ",
            "averyveryverylongwordindeed and more",
            "",
            " ",
            "a b c d e f g h i j k l m n o p",
            "trailing   ",
        ] {
            for width in [1, 3, 7, 12, 40] {
                let ours = wrap_words(text, width);
                let theirs: Vec<String> =
                    textwrap::wrap(text, textwrap::Options::new(width).break_words(true))
                        .into_iter()
                        .map(|l| l.into_owned())
                        .collect();
                let theirs = if theirs.is_empty() {
                    vec![String::new()]
                } else {
                    theirs
                };
                assert_eq!(ours, theirs, "{text:?} at {width}");
            }
        }
    }

    #[test]
    fn a_styled_line_is_cut_by_its_text_and_keeps_its_colours() {
        let utf8 = Charset::Utf8;
        assert_eq!(fit_styled_in("plain", 10, utf8), "plain");
        assert_eq!(
            fit_styled_in("\x1b[1mbold\x1b[0m text", 20, utf8),
            "\x1b[1mbold\x1b[0m text\x1b[0m"
        );
        // Cut with the ellipsis; the colour after the cut kept, the line reset at its end.
        assert_eq!(
            fit_styled_in("\x1b[31mabcdef\x1b[32mghij", 6, utf8),
            "\x1b[31mabcde\x1b[32m\u{2026}\x1b[0m"
        );
        assert_eq!(
            fit_styled_in("\u{65e5}\u{672c}\u{8a9e}x", 5, utf8),
            "\u{65e5}\u{672c}\u{2026}"
        );
        // Padding to another width is cut without an ellipsis.
        assert_eq!(
            fit_styled_in(&format!("\x1b[44mtext{}\x1b[0m", " ".repeat(96)), 10, utf8),
            "\x1b[44mtext      \x1b[0m"
        );
        assert_eq!(fit_styled_in("abcdefgh", 4, Charset::Ascii), "a...");
        assert_eq!(fit_styled_in("caf\u{e9}", 20, Charset::Ascii), "caf\\u{e9}");
        // Bounded: a million zero-width spaces and SGR sequences take a screenful at most.
        let huge = format!("{}{}", "\x1b[1m".repeat(10_000), "\u{200b}".repeat(100_000));
        let cut = fit_styled_in(&huge, 10, utf8);
        assert!(cut.len() <= 2 * line_byte_budget(10) + 10, "{}", cut.len());
        assert!(width_of(&console::strip_ansi_codes(&cut)) <= 10);
    }
}

#[cfg(test)]
mod cjk_tests {
    use super::*;

    /// Japanese has no spaces: a prompt wraps between its characters, filling each line, and
    /// no line starts with a closing mark (`。`, `？`, `ー`); Latin words stay whole.
    #[test]
    fn japanese_wraps_between_characters_and_no_line_starts_with_a_closing_mark() {
        let text =
            "どの言語を使いますか？とても長い説明文がここに入ります。折り返しを確認するためです。";
        let lines = wrap_words_in(text, 20, Charset::Utf8);
        assert_eq!(
            lines,
            [
                "どの言語を使います",
                "か？とても長い説明文",
                "がここに入ります。折",
                "り返しを確認するため",
                "です。"
            ]
        );
        assert_eq!(
            wrap_words_in("日本語のtest文 and English words", 12, Charset::Utf8),
            ["日本語のtest", "文 and", "English", "words"]
        );
    }
}

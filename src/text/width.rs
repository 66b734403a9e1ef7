//! Display widths as terminals count them, and the bounds every drawn line keeps.
//!
//! Terminals (tmux, GNU screen, xterm, the Linux console) give each code point its `wcwidth`
//! and mostly do not shape graphemes, so a grapheme takes the sum of its code points' widths:
//! `👍🏽` (a skin-tone modifier) is 4 columns in tmux, `⌚︎` (VS15) 2. Others (kitty, WezTerm,
//! iTerm2) draw a grapheme in its Unicode width: `❤️` (VS16) 2. [`grapheme_width`] takes the
//! larger of the two, so a line is never wider on any of them than counted (a line counted too
//! narrow wraps and breaks every redraw; one counted a column too wide only leaves it blank).
//! Per code point, [`char_width`] follows `unicode-width` except for the three default-ignorable
//! code points terminals draw (U+00AD soft hyphen 1, U+3164 Hangul filler 2, U+FFA0 halfwidth
//! Hangul filler 1). The figures in the tests were read from tmux 3.3a's `#{cursor_x}`.
//!
//! The line editor (src/ui/line_editor.rs) lays its text out with the same widths.
//!
//! Widths alone do not bound a line: zero-width characters take none (a label of a million
//! U+200B is 3 MB of no width) and a grapheme may carry any number of combining marks. So a
//! line laid out here also keeps within [`line_byte_budget`] bytes, and a grapheme is cut to
//! its first [`MAX_GRAPHEME_BYTES`] bytes ([`capped`]).

use std::borrow::Cow;
use unicode_segmentation::UnicodeSegmentation;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// The graphemes of `text`, exactly as `text.graphemes(true)` gives them, with ASCII text
/// between them taken a byte at a time: a boundary always falls between two ASCII characters
/// (but CR LF), so only the characters around non-ASCII ones go through the segmenter. Most
/// lines drawn are ASCII with a few glyphs (`›`, `·`), and this keeps their layout per key
/// cheap (docs/benchmarks.md, figure 2).
pub fn graphemes(text: &str) -> Graphemes<'_> {
    Graphemes {
        text,
        at: 0,
        slow: None,
    }
}

/// The iterator of [`graphemes`].
pub struct Graphemes<'a> {
    text: &'a str,
    /// Where the next grapheme starts (outside the segmenter's run).
    at: usize,
    /// The segmenter's run: where it started, and its iterator.
    slow: Option<(usize, unicode_segmentation::GraphemeIndices<'a>)>,
}

impl Graphemes<'_> {
    /// Whether the grapheme at byte `i` is the one ASCII character there, followed by ASCII
    /// or the end (so `i + 1` is a boundary).
    fn quick_at(&self, i: usize) -> bool {
        let bytes = self.text.as_bytes();
        i < bytes.len()
            && bytes[i].is_ascii()
            && bytes[i] != b'\r'
            && bytes.get(i + 1).is_none_or(u8::is_ascii)
    }
}

impl<'a> Iterator for Graphemes<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        loop {
            if let Some((base, run)) = &mut self.slow {
                let base = *base;
                let Some((i, g)) = run.next() else {
                    self.slow = None;
                    self.at = self.text.len();
                    return None;
                };
                let end = base + i + g.len();
                if self.quick_at(end) || end >= self.text.len() {
                    self.slow = None;
                    self.at = end;
                }
                return Some(g);
            }
            if self.at >= self.text.len() {
                return None;
            }
            if self.quick_at(self.at) {
                let g = &self.text[self.at..self.at + 1];
                self.at += 1;
                return Some(g);
            }
            self.slow = Some((self.at, self.text[self.at..].grapheme_indices(true)));
        }
    }
}

/// Most bytes of one grapheme that are drawn; the rest of a longer one (a letter under
/// hundreds of combining marks) is left out. The longest emoji sequences in use (a family
/// with skin tones, a subdivision flag) take about 40.
pub const MAX_GRAPHEME_BYTES: usize = 64;

/// Bytes a drawn line may take per column of its width ([`line_byte_budget`]): room for
/// emoji sequences (about 20 a column), not for runs of zero-width characters.
pub const BYTES_PER_COLUMN: usize = 32;

/// Most bytes a line of `width` columns may take: [`BYTES_PER_COLUMN`] per column (at least
/// one column's worth).
pub fn line_byte_budget(width: usize) -> usize {
    width.max(1).saturating_mul(BYTES_PER_COLUMN)
}

/// Columns terminals give the code point `c` on its own (`wcwidth`): `unicode-width`'s
/// figure, except U+00AD and U+FFA0 (1) and U+3164 (2), which tmux and glibc draw and
/// `unicode-width` counts as default-ignorable (0). Control characters count 0 (they never
/// reach the terminal as-is: `text::sanitize`).
pub fn char_width(c: char) -> usize {
    match c {
        '\u{ad}' | '\u{ffa0}' => 1,
        '\u{3164}' => 2,
        _ => c.width().unwrap_or(0),
    }
}

/// Columns of one grapheme on any terminal: the larger of its Unicode width and the sum of
/// its code points' [`char_width`]s (`👍🏽` 4, `⌚︎` 2, `❤️` 2, `e` + U+0301 1, U+200B 0). An
/// ASCII control character counts 1 (as `unicode-width` counts it in a string).
pub fn grapheme_width(g: &str) -> usize {
    let mut chars = g.chars();
    match (chars.next(), chars.next()) {
        (None, _) => 0,
        (Some(c), None) if c.is_ascii() => 1,
        (Some(c), None) => c.width().unwrap_or(1).max(char_width(c)),
        _ => g.width().max(g.chars().map(char_width).sum()),
    }
}

/// Display columns of `text` as the terminal's charset writes it ([`width_of_in`] of
/// `text::terminal_charset`).
pub fn width_of(text: &str) -> usize {
    width_of_in(text, super::charset::terminal_charset())
}

/// Display columns of `text` as `charset` writes it: in UTF-8 the sum of its graphemes'
/// [`grapheme_width`]s (ASCII by bytes); in ASCII the length of what it writes
/// (`text::Charset::write`), as the layout lays that out.
pub fn width_of_in(text: &str, charset: super::charset::Charset) -> usize {
    if text.is_ascii() {
        text.len()
    } else if charset == super::charset::Charset::Ascii {
        charset.write(text).len()
    } else {
        graphemes(text).map(grapheme_width).sum()
    }
}

/// Display columns of a line the front end drew: its text outside escape sequences (a CSI
/// sequence `ESC [` … final byte, or ESC and the character after it), as [`width_of`] counts
/// them. Cheaper than stripping the line first: the region compares a changed row's width
/// with the old one's at every key.
pub fn drawn_width(line: &str) -> usize {
    let mut total = 0;
    let mut rest = line;
    while let Some(i) = rest.find('\x1b') {
        total += width_of(&rest[..i]);
        let after = &rest[i + 1..];
        let skip = match after.strip_prefix('[') {
            Some(csi) => csi
                .bytes()
                .position(|b| (0x40..=0x7e).contains(&b))
                .map_or(after.len(), |p| p + 2),
            None => after.chars().next().map_or(0, char::len_utf8),
        };
        rest = &after[skip..];
    }
    total + width_of(rest)
}

/// `text` with every grapheme longer than [`MAX_GRAPHEME_BYTES`] cut to its first code points
/// within that bound; borrowed when none is.
pub fn capped(text: &str) -> Cow<'_, str> {
    if text.len() <= MAX_GRAPHEME_BYTES || text.is_ascii() {
        return Cow::Borrowed(text);
    }
    if !graphemes(text).any(|g| g.len() > MAX_GRAPHEME_BYTES) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len().min(1 << 16));
    for g in graphemes(text) {
        out.push_str(cap_grapheme(g));
    }
    Cow::Owned(out)
}

/// The grapheme `g` cut to its first code points within [`MAX_GRAPHEME_BYTES`].
pub(crate) fn cap_grapheme(g: &str) -> &str {
    if g.len() <= MAX_GRAPHEME_BYTES {
        return g;
    }
    let mut end = MAX_GRAPHEME_BYTES;
    while !g.is_char_boundary(end) {
        end -= 1;
    }
    &g[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Columns tmux 3.3a moved its cursor for each text (printed after an `a` in a fresh
    /// `tmux -L w -f /dev/null` session, `#{cursor_x}` less one), and what pi-ask counts: the
    /// same, or more where another terminal draws the grapheme wider (never less).
    const TMUX: &[(&str, usize, usize)] = &[
        ("\u{1f44d}\u{1f3fd}", 4, 4),       // 👍🏽 thumbs up, skin tone
        ("\u{1f44b}\u{1f3ff}", 4, 4),       // 👋🏿
        ("\u{231a}\u{fe0e}", 2, 2),         // ⌚︎ watch, VS15
        ("\u{231a}", 2, 2),                 // ⌚
        ("\u{3164}", 2, 2),                 // Hangul filler
        ("\u{ffa0}", 1, 1),                 // halfwidth Hangul filler
        ("\u{ad}", 1, 1),                   // soft hyphen
        ("\u{ad}\u{ad}", 2, 2),             // two soft hyphens
        ("\u{115f}", 2, 2),                 // Hangul choseong filler
        ("\u{1160}", 0, 0),                 // Hangul jungseong filler
        ("\u{1100}\u{1161}\u{11a8}", 2, 2), // conjoining jamo
        ("\u{2764}\u{fe0f}", 1, 2),         // ❤️: 2 in kitty, WezTerm
        ("\u{2764}", 1, 1),                 // ❤
        ("e\u{301}", 1, 1),                 // e, combining acute
        ("\u{200b}", 0, 0),                 // zero width space
        ("\u{200d}", 0, 0),                 // zero width joiner
        ("\u{2060}", 0, 0),                 // word joiner
        ("\u{feff}", 0, 0),                 // BOM
        ("\u{fe0f}", 0, 0),                 // VS16 alone
        ("\u{e0001}", 0, 0),                // language tag
        ("\u{65e5}", 2, 2),                 // 日
        ("\u{ff21}", 2, 2),                 // fullwidth A
        ("\u{1f1ef}\u{1f1f5}", 2, 2),       // 🇯🇵
        ("\u{1f1ef}", 1, 1),                // one regional indicator
        ("\u{31}\u{fe0f}\u{20e3}", 1, 2),   // 1️⃣ keycap
        ("\u{2e3a}", 1, 1),                 // two-em dash
        ("\u{e9}", 1, 1),                   // é
        ("\u{a0}", 1, 1),                   // no-break space
        // tmux 3.3a joins emoji ZWJ sequences (2); screen and xterm do not (6).
        ("\u{1f468}\u{200d}\u{1f469}\u{200d}\u{1f467}", 2, 6),
    ];

    /// A drawn line's width leaves its escape sequences out, as console's measure does.
    #[test]
    fn drawn_widths_leave_escape_sequences_out() {
        for line in [
            "plain",
            "\x1b[1m\u{276f} ( ) 1. Minimal\x1b[0m",
            "\x1b[38;5;8m\u{2191}\u{2193} move \u{b7} Enter choose\x1b[0m",
            "caf\u{e9} \u{65e5}\u{672c} \x1b[2mdim\x1b[22m",
            "\x1b[K",
            "",
        ] {
            assert_eq!(
                drawn_width(line),
                console::measure_text_width(line),
                "{line:?}"
            );
        }
        assert_eq!(drawn_width("ab\x1b"), 2);
        assert_eq!(drawn_width("ab\x1b[31"), 2);
    }

    /// [`graphemes`] gives exactly the segmenter's graphemes, whatever mix of ASCII and
    /// other text (combining marks after ASCII, CR LF, ZWJ sequences, flags, controls).
    #[test]
    fn quick_graphemes_are_the_segmenters() {
        let pieces = [
            "a",
            "b",
            " ",
            "\r",
            "\n",
            "\t",
            "\u{301}",
            "\u{200d}",
            "\u{1f468}",
            "\u{1f3fd}",
            "\u{1f1e9}",
            "\u{1f1ea}",
            "\u{fe0f}",
            "\u{fe0e}",
            "\u{e9}",
            "\u{4e2d}",
            "\u{1b}",
            "\u{0915}\u{094d}",
            "\u{600}",
            "\u{a0}",
            "\u{ad}",
            "\u{3164}",
            "\u{b7}",
            "\u{203a}",
        ];
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..20_000 {
            let mut text = String::new();
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let len = (seed % 12) as usize;
            let mut s = seed;
            for _ in 0..len {
                text.push_str(pieces[(s % pieces.len() as u64) as usize]);
                s = s
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407)
                    >> 3;
            }
            let quick: Vec<&str> = graphemes(&text).collect();
            let slow: Vec<&str> = text.graphemes(true).collect();
            assert_eq!(quick, slow, "{text:?}");
        }
        assert_eq!(
            graphemes("ab\u{301}c\r\nd").collect::<Vec<_>>(),
            ["a", "b\u{301}", "c", "\r\n", "d"]
        );
    }

    #[test]
    fn widths_are_never_narrower_than_tmux_draws_them() {
        for &(text, tmux, ours) in TMUX {
            assert_eq!(width_of(text), ours, "{text:?}");
            assert!(ours >= tmux, "{text:?}");
        }
        assert_eq!(width_of("a\u{1f44d}\u{1f3fd}b"), 6);
        assert_eq!(width_of("\u{200b}".repeat(1000).as_str()), 0);
    }

    #[test]
    fn a_grapheme_is_cut_to_its_byte_bound() {
        let zalgo = format!("a{}", "\u{301}".repeat(1000));
        let cut = capped(&zalgo);
        assert!(cut.len() <= MAX_GRAPHEME_BYTES, "{}", cut.len());
        assert!(cut.starts_with("a\u{301}"));
        assert_eq!(width_of(&cut), 1);
        assert!(matches!(capped("plain \u{65e5}"), Cow::Borrowed(_)));
        let family = "\u{1f469}\u{1f3fd}\u{200d}\u{1f469}\u{1f3fd}\u{200d}\u{1f467}\u{1f3fd}\u{200d}\u{1f466}\u{1f3fd}";
        assert!(matches!(capped(family), Cow::Borrowed(_)));
        assert_eq!(line_byte_budget(80), 2560);
        assert_eq!(line_byte_budget(0), 32);
    }
}

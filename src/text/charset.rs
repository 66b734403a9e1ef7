//! What the terminal can show: UTF-8, or ASCII only when the locale names another charset.
//!
//! A terminal in an 8-bit locale reads the bytes 0x80-0x9F as C1 controls: the last byte of
//! `”` (E2 80 9D) is OSC, of `✘` (E2 9C 98) SOS, and a payload's U+06DB (DB 9B) CSI. So when
//! the locale names a charset that is not UTF-8 ([`Charset::from_locale`]; no locale at all
//! names none: UTF-8) pi-ask writes ASCII only: its own glyphs from the ASCII column of
//! [`TABLE`] (`>`, `[x]`, `(*)`, `<- ->`, `...`), typographic
//! [`PUNCTUATION`] in its usual ASCII spelling (`—` as `--`), and every other character
//! escaped as `\u{e9}` (the spelling `text::sanitize` gives a bidirectional control),
//! so no byte from 0x80 up reaches such a terminal ([`Charset::write`]).
//!
//! The charset is decided once at start from the environment ([`set_terminal_charset`], by
//! `main`) and read where text is laid out and written: `text::layout` lays out the ASCII
//! spelling of a line ([`Charset::write`] first), the editors draw ASCII, `terminal::say`,
//! the plain front end and the terminal's backend write it, and the look picks its glyphs by
//! it.

use std::borrow::Cow;
use std::sync::atomic::{AtomicBool, Ordering};

/// What the terminal can show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Charset {
    /// UTF-8: every character as it is.
    #[default]
    Utf8,
    /// ASCII only: glyphs in their ASCII spelling, every other non-ASCII character escaped.
    Ascii,
}

/// One of pi-ask's own glyphs, spelled per charset in [`TABLE`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Glyph {
    /// `←→` / `<- ->`: the keys between questions.
    LeftRight,
    /// `↑↓` / `Up/Down`: the keys that move the highlight (`^v` read as Ctrl+V).
    UpDown,
    /// `…` / `...`: text cut short, a row that opens more.
    Ellipsis,
    /// `❯` / `>`: the active item (dialoguer's colourful theme).
    Pointer,
    /// `›` / `>`: after a prompt (dialoguer's colourful theme).
    PromptSuffix,
    /// `✔` / `+`: done, answered (an ending, a collapsed question; `v` is a key).
    Tick,
    /// `✘` / `x`: not done, no answer.
    Cross,
    /// `✓` / `+`: the review's mark of an answered question.
    Answered,
    /// `·` / `-`: between a name and its value, between hints.
    Dot,
    /// `✔` / `[x]`: a ticked multi-select item (dialoguer's colourful theme).
    Checked,
    /// `⬚` / `[ ]`: an unticked multi-select item (dialoguer's colourful theme).
    Unchecked,
    /// `•` / `*`: the chosen single-select option's mark, `(•)`.
    Bullet,
    /// `←` / `<-`: back.
    Left,
    /// `→` / `->`: next.
    Right,
    /// `↑` / `Up`.
    Up,
    /// `↓` / `Down` (`v` is a key).
    Down,
    /// `│` / `|`: the rule before preview and pager lines.
    Bar,
    /// `─` / `-`: a horizontal rule.
    Rule,
    /// `“` / `"`: before quoted text.
    QuoteOpen,
    /// `”` / `"`: after quoted text.
    QuoteClose,
    /// `↵` / `\n`: a line break folded into one line.
    LineBreak,
    /// `�` / `?`: a character that cannot be shown (the editor's line separator).
    Replacement,
}

/// Every glyph of pi-ask's own, in UTF-8 and in ASCII: the one place they are spelled.
/// [`Charset::write`] turns each UTF-8 spelling into the ASCII one (the first row that
/// matches: pairs before their parts).
pub const TABLE: &[(Glyph, &str, &str)] = &[
    (Glyph::LeftRight, "\u{2190}\u{2192}", "<- ->"),
    (Glyph::UpDown, "\u{2191}\u{2193}", "Up/Down"),
    (Glyph::Ellipsis, "\u{2026}", "..."),
    (Glyph::Pointer, "\u{276f}", ">"),
    (Glyph::PromptSuffix, "\u{203a}", ">"),
    (Glyph::Tick, "\u{2714}", "+"),
    (Glyph::Cross, "\u{2718}", "x"),
    (Glyph::Answered, "\u{2713}", "+"),
    (Glyph::Dot, "\u{b7}", "-"),
    (Glyph::Checked, "\u{2714}", "[x]"),
    (Glyph::Unchecked, "\u{2b1a}", "[ ]"),
    (Glyph::Bullet, "\u{2022}", "*"),
    (Glyph::Left, "\u{2190}", "<-"),
    (Glyph::Right, "\u{2192}", "->"),
    (Glyph::Up, "\u{2191}", "Up"),
    (Glyph::Down, "\u{2193}", "Down"),
    (Glyph::Bar, "\u{2502}", "|"),
    (Glyph::Rule, "\u{2500}", "-"),
    (Glyph::QuoteOpen, "\u{201c}", "\""),
    (Glyph::QuoteClose, "\u{201d}", "\""),
    (Glyph::LineBreak, "\u{21b5}", "\\n"),
    (Glyph::Replacement, "\u{fffd}", "?"),
];

/// Typographic punctuation and spaces a payload often holds, with their usual ASCII spelling
/// (as iconv's `//TRANSLIT` gives them): [`Charset::write`] writes these, not an escape, so
/// `a — b` reads `a -- b` as pi-ask's own `“`/`”` read `"`. Letters and every other symbol
/// stay escaped: no look-alike letter stands in for what the payload says.
pub const PUNCTUATION: &[(char, &str)] = &[
    ('\u{a0}', " "),
    ('\u{ab}', "<<"),
    ('\u{bb}', ">>"),
    ('\u{ad}', "-"),
    ('\u{2002}', " "),
    ('\u{2003}', " "),
    ('\u{2009}', " "),
    ('\u{202f}', " "),
    ('\u{2010}', "-"),
    ('\u{2011}', "-"),
    ('\u{2012}', "-"),
    ('\u{2013}', "-"),
    ('\u{2014}', "--"),
    ('\u{2015}', "--"),
    ('\u{2018}', "'"),
    ('\u{2019}', "'"),
    ('\u{201a}', ","),
    ('\u{201e}', "\""),
    ('\u{2032}', "'"),
    ('\u{2033}', "\""),
    ('\u{2039}', "<"),
    ('\u{2212}', "-"),
];

impl Charset {
    /// The charset of a locale given as the values of `LC_ALL`, `LC_CTYPE` and `LANG`: the
    /// first set and not empty decides (POSIX's precedence).
    /// UTF-8 when its codeset (after the `.`, before any `@`; or the whole value, as macOS's
    /// `LC_CTYPE=UTF-8`) is `UTF-8` or `utf8` in any case; ASCII when it names another
    /// (`C`, `POSIX`, `en_US`, `en_US.ISO-8859-1`). None set at all (`docker exec`, `env -i`,
    /// ssh without `SendEnv LANG`) names no charset: UTF-8, as the terminals of today are
    /// (docs/interactive.md "A terminal that is not UTF-8").
    pub fn from_locale(lc_all: Option<&str>, lc_ctype: Option<&str>, lang: Option<&str>) -> Self {
        let Some(locale) = [lc_all, lc_ctype, lang]
            .into_iter()
            .flatten()
            .find(|v| !v.is_empty())
        else {
            return Charset::Utf8;
        };
        let name = locale.split('@').next().unwrap_or("");
        let codeset = name.rsplit('.').next().unwrap_or("");
        let codeset: String = codeset
            .chars()
            .filter(|c| *c != '-' && *c != '_')
            .flat_map(char::to_lowercase)
            .collect();
        if codeset == "utf8" {
            Charset::Utf8
        } else {
            Charset::Ascii
        }
    }

    /// [`Charset::from_locale`] of the environment `env` gives (`std::env::var` in `main`).
    pub fn from_env(env: impl Fn(&str) -> Option<String>) -> Self {
        let (all, ctype, lang) = (env("LC_ALL"), env("LC_CTYPE"), env("LANG"));
        Charset::from_locale(all.as_deref(), ctype.as_deref(), lang.as_deref())
    }

    /// How `glyph` is spelled in this charset ([`TABLE`]).
    pub fn glyph(self, glyph: Glyph) -> &'static str {
        let row = TABLE
            .iter()
            .find(|(g, _, _)| *g == glyph)
            .expect("every glyph has a row");
        match self {
            Charset::Utf8 => row.1,
            Charset::Ascii => row.2,
        }
    }

    /// `text` as this charset writes it: as it is in UTF-8; in ASCII, each of pi-ask's glyphs
    /// in its ASCII spelling, the [`PUNCTUATION`] in theirs, and every other non-ASCII
    /// character escaped as `\u{e9}`.
    /// Borrowed when nothing changes.
    pub fn write(self, text: &str) -> Cow<'_, str> {
        if self == Charset::Utf8 || text.is_ascii() {
            return Cow::Borrowed(text);
        }
        let mut out = String::with_capacity(text.len() + 8);
        let mut rest = text;
        while let Some(c) = rest.chars().next() {
            if c.is_ascii() {
                out.push(c);
                rest = &rest[1..];
            } else if let Some((_, utf8, ascii)) =
                TABLE.iter().find(|(_, utf8, _)| rest.starts_with(utf8))
            {
                out.push_str(ascii);
                rest = &rest[utf8.len()..];
            } else if let Some((_, ascii)) = PUNCTUATION.iter().find(|(p, _)| *p == c) {
                out.push_str(ascii);
                rest = &rest[c.len_utf8()..];
            } else {
                out.push_str(&format!("\\u{{{:x}}}", c as u32));
                rest = &rest[c.len_utf8()..];
            }
        }
        Cow::Owned(out)
    }

    /// The last guard of a writer to the terminal: `text` unchanged in UTF-8; in ASCII each
    /// non-ASCII character left (one the layout did not write in ASCII) as `?` in each column
    /// it takes, so the frame keeps its widths and no byte from 0x80 up is written.
    pub fn guard(self, text: &str) -> Cow<'_, str> {
        if self == Charset::Utf8 || text.is_ascii() {
            return Cow::Borrowed(text);
        }
        let mut out = String::with_capacity(text.len());
        for c in text.chars() {
            if c.is_ascii() {
                out.push(c);
            } else {
                for _ in 0..super::width::char_width(c) {
                    out.push('?');
                }
            }
        }
        Cow::Owned(out)
    }
}

/// An [`io::Write`](std::io::Write) that writes what it is given as its charset writes it
/// ([`Charset::write`]): the plain front end's terminal. Bytes that are not UTF-8 are written
/// as `?`; a character split between two writes is written whole with the second.
#[derive(Debug)]
pub struct CharsetWriter<W> {
    inner: W,
    charset: Charset,
    pending: Vec<u8>,
}

impl<W: std::io::Write> CharsetWriter<W> {
    /// A writer to `inner` in `charset`.
    pub fn new(inner: W, charset: Charset) -> Self {
        CharsetWriter {
            inner,
            charset,
            pending: Vec::new(),
        }
    }
}

impl<W: std::io::Write> std::io::Write for CharsetWriter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.charset == Charset::Utf8 {
            return self.inner.write(buf);
        }
        self.pending.extend_from_slice(buf);
        let mut out = String::new();
        let mut rest: &[u8] = &self.pending;
        loop {
            match std::str::from_utf8(rest) {
                Ok(text) => {
                    out.push_str(&self.charset.write(text));
                    rest = &[];
                    break;
                }
                Err(e) => {
                    let (good, bad) = rest.split_at(e.valid_up_to());
                    out.push_str(&self.charset.write(std::str::from_utf8(good).unwrap_or("")));
                    match e.error_len() {
                        Some(n) => {
                            out.push('?');
                            rest = &bad[n..];
                        }
                        // An unfinished character: kept for the next write.
                        None => {
                            rest = bad;
                            break;
                        }
                    }
                }
            }
        }
        let keep = rest.to_vec();
        self.pending = keep;
        self.inner.write_all(out.as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Whether the terminal's charset is ASCII ([`set_terminal_charset`]); UTF-8 until set.
static ASCII: AtomicBool = AtomicBool::new(false);

/// Sets the charset every terminal write and layout uses, once at start (`main`, from
/// [`Charset::from_env`]). Tests of the layout pass a charset instead.
pub fn set_terminal_charset(charset: Charset) {
    ASCII.store(charset == Charset::Ascii, Ordering::Relaxed);
}

/// The charset set by [`set_terminal_charset`] (UTF-8 until then).
pub fn terminal_charset() -> Charset {
    if ASCII.load(Ordering::Relaxed) {
        Charset::Ascii
    } else {
        Charset::Utf8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_locale_variable_set_decides() {
        let utf8 = Charset::Utf8;
        let ascii = Charset::Ascii;
        assert_eq!(Charset::from_locale(None, None, Some("en_US.UTF-8")), utf8);
        assert_eq!(Charset::from_locale(None, None, Some("C.utf8")), utf8);
        assert_eq!(
            Charset::from_locale(None, None, Some("de_DE.utf-8@euro")),
            utf8
        );
        assert_eq!(Charset::from_locale(None, Some("UTF-8"), None), utf8);
        // No locale at all names no charset: UTF-8; one that names another is ASCII.
        assert_eq!(Charset::from_locale(None, None, None), utf8);
        assert_eq!(Charset::from_locale(Some(""), Some(""), Some("")), utf8);
        assert_eq!(Charset::from_locale(None, None, Some("C")), ascii);
        assert_eq!(Charset::from_locale(None, None, Some("POSIX")), ascii);
        assert_eq!(Charset::from_locale(None, None, Some("en_US")), ascii);
        assert_eq!(
            Charset::from_locale(None, None, Some("en_US.ISO-8859-1")),
            ascii
        );
        assert_eq!(Charset::from_locale(None, None, Some("ja_JP.eucJP")), ascii);
        assert_eq!(Charset::from_locale(None, None, Some("fr_FR@utf8")), ascii);
        // LC_ALL over LC_CTYPE over LANG; empty is not set.
        assert_eq!(
            Charset::from_locale(Some("C"), Some("en_US.UTF-8"), Some("en_US.UTF-8")),
            ascii
        );
        assert_eq!(
            Charset::from_locale(Some(""), Some("C"), Some("en_US.UTF-8")),
            ascii
        );
        assert_eq!(
            Charset::from_locale(Some(""), Some(""), Some("en_US.UTF-8")),
            utf8
        );
        assert_eq!(
            Charset::from_locale(None, Some("en_US.UTF-8"), Some("C")),
            utf8
        );
        let env = |vars: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                vars.iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert_eq!(Charset::from_env(env(&[("LANG", "C.UTF-8")])), utf8);
        assert_eq!(
            Charset::from_env(env(&[("LANG", "C.UTF-8"), ("LC_ALL", "C")])),
            ascii
        );
        assert_eq!(Charset::from_env(env(&[])), utf8);
        assert_eq!(Charset::from_env(env(&[("LC_ALL", "C")])), ascii);
        assert_eq!(Charset::from_env(env(&[("LANG", "C")])), ascii);
    }

    #[test]
    fn ascii_writes_glyphs_in_ascii_and_escapes_the_rest() {
        let ascii = Charset::Ascii;
        assert_eq!(
            ascii.write("\u{2191}\u{2193} move \u{b7} \u{2190}\u{2192} question"),
            "Up/Down move - <- -> question"
        );
        assert_eq!(ascii.write("Type your own\u{2026}"), "Type your own...");
        assert_eq!(ascii.write("(\u{2022}) Next \u{2192}"), "(*) Next ->");
        assert_eq!(ascii.write("\u{201c}caf\u{e9}\u{201d}"), "\"caf\\u{e9}\"");
        assert_eq!(ascii.write("\u{6db}\u{65e5}"), "\\u{6db}\\u{65e5}");
        // Punctuation in its ASCII spelling, as the glyphs; letters escaped.
        assert_eq!(
            ascii.write("a \u{2014} b \u{2013} \u{2018}c\u{2019}\u{a0}\u{ab}\u{c9}\u{bb}"),
            "a -- b - 'c' <<\\u{c9}>>"
        );
        assert_eq!(ascii.write("\u{1f44d}"), "\\u{1f44d}");
        assert!(matches!(ascii.write("plain"), Cow::Borrowed(_)));
        assert!(matches!(Charset::Utf8.write("caf\u{e9}"), Cow::Borrowed(_)));
        // No byte from 0x80 up, whatever the text.
        let all: String = (0x80..0x3000).filter_map(char::from_u32).collect();
        assert!(ascii.write(&all).is_ascii());
    }

    #[test]
    fn the_guard_keeps_widths_and_the_writer_keeps_split_characters() {
        assert_eq!(Charset::Ascii.guard("a\u{65e5}b\u{301}\u{2192}"), "a??b?");
        assert!(matches!(Charset::Utf8.guard("\u{65e5}"), Cow::Borrowed(_)));
        use std::io::Write as _;
        let mut w = CharsetWriter::new(Vec::new(), Charset::Ascii);
        let bytes = "caf\u{e9} \u{2192} \u{6db}".as_bytes();
        w.write_all(&bytes[..4]).unwrap();
        w.write_all(&bytes[4..]).unwrap();
        w.write_all(b"\xff!").unwrap();
        assert_eq!(
            String::from_utf8(w.inner).unwrap(),
            "caf\\u{e9} -> \\u{6db}?!"
        );
    }

    #[test]
    fn every_punctuation_mark_has_an_ascii_spelling_and_is_no_glyph() {
        for (c, ascii) in PUNCTUATION {
            assert!(
                !c.is_ascii() && ascii.is_ascii() && !ascii.is_empty(),
                "{c:?}"
            );
            assert!(
                !TABLE.iter().any(|(_, utf8, _)| utf8.starts_with(*c)),
                "{c:?}"
            );
        }
    }

    #[test]
    fn every_glyph_has_an_ascii_spelling() {
        for (glyph, utf8, ascii) in TABLE {
            assert!(ascii.is_ascii() && !ascii.is_empty(), "{glyph:?}");
            assert!(!utf8.is_ascii(), "{glyph:?}");
            assert_eq!(Charset::Utf8.glyph(*glyph), *utf8);
            assert_eq!(Charset::Ascii.glyph(*glyph), *ascii);
        }
        assert_eq!(Charset::Ascii.glyph(Glyph::Checked), "[x]");
        assert_eq!(Charset::Ascii.glyph(Glyph::LeftRight), "<- ->");
    }
}

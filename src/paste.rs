//! A long paste or a too tall typed text in an editor, folded (docs/interactive.md "The line
//! editor"): rustyline lays out every line break of its text as a row and cannot scroll, so a
//! text taller than the rows under the block would push the block up past the window's top,
//! into the terminal's history.
//!
//! A paste of more than [`MAX_UNFOLDED_LINES`] lines or [`MAX_UNFOLDED_CHARS`] characters, or
//! one that would make the editor's text taller than its room, goes into the editor as one
//! marker, `[paste #1 +40 lines]` (`[paste #2 1205 chars]` for one long line), as pi's own
//! editor does; the text saved has the paste in its place, byte for byte. Backspace right
//! after a marker takes it whole ([`Pastes::marker_before`]); a marker edited otherwise is no
//! longer one: it stays as the text it became (undo brings it back, and the paste with it). An editor opening on a text that would not fit gets the whole text as one marker
//! the same way.
//!
//! Typed text is folded the same way ([`Pastes::type_in`]): a key whose text would make the
//! line too tall folds the beginning of the text before the cursor into one marker,
//! `[text #3 1234 chars]`, and keeps the rest of it, the key's text and the text after the
//! cursor as they are. A marker in the folded beginning (a paste, an earlier fold) stays a
//! marker inside the new one's text: expanding is nested, each marker standing only for
//! markers made before it, so it always ends.
//!
//! No terminal here: the caller says whether a line fits ([`Pastes::insert`]).

use crate::limits::{MAX_EDITOR_PASTE_BYTES, MAX_EDITOR_TEXT_BYTES};
use crate::ui::words;

/// Why a paste was cut (its marker says which limit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    /// At [`MAX_EDITOR_PASTE_BYTES`], the most one paste keeps.
    Paste,
    /// Where the editor's text reached [`MAX_EDITOR_TEXT_BYTES`].
    Full,
}

/// Most lines a paste is inserted with as they are (pi's editor folds more).
pub const MAX_UNFOLDED_LINES: usize = 10;

/// Most characters a paste is inserted with as they are (pi's editor folds more).
pub const MAX_UNFOLDED_CHARS: usize = 1000;

/// The pastes and typed beginnings folded in one editor: each marker and the text it stands
/// for (marker `#n` is entry `n - 1`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pastes {
    folded: Vec<Folded>,
}

/// One marker and what it stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Folded {
    marker: String,
    /// The paste, or the typed text as the editor showed it (markers in it are markers).
    text: String,
    /// A typed text's markers stand for their texts; a paste's text is never read for markers.
    typed: bool,
    /// The text's size, every marker in it expanded.
    size: Size,
}

/// A text's size: bytes, characters and line breaks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Size {
    bytes: usize,
    chars: usize,
    breaks: usize,
    /// The text ends with a line break (it ends its last line, it starts none).
    ends_with_break: bool,
}

impl Size {
    fn of(text: &str) -> Size {
        Size {
            bytes: text.len(),
            chars: text.chars().count(),
            breaks: text.bytes().filter(|&b| b == b'\n').count(),
            ends_with_break: text.ends_with('\n'),
        }
    }

    fn and(self, other: Size) -> Size {
        Size {
            bytes: self.bytes + other.bytes,
            chars: self.chars + other.chars,
            breaks: self.breaks + other.breaks,
            ends_with_break: if other.bytes == 0 {
                self.ends_with_break
            } else {
                other.ends_with_break
            },
        }
    }

    /// The lines a marker counts: `seq 30` with its last newline is 30 lines, not 31.
    fn lines(self) -> usize {
        (self.breaks + usize::from(!self.ends_with_break)).max(1)
    }
}

/// What a key that types text does to the editor's line ([`Pastes::type_in`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Typing {
    /// The key does what it does: the line with its text fits.
    AsIs,
    /// The line becomes `before` and `after`, the cursor between them: `before` a marker for
    /// the beginning of the text before the cursor, the rest of it and the key's text;
    /// `after` the text after the cursor, as it was (or one marker for it, when it would not
    /// fit even beside a marker).
    Folded { before: String, after: String },
    /// The key is dropped: the text folded would be longer than a paste may be
    /// ([`MAX_EDITOR_PASTE_BYTES`]).
    Dropped,
}

impl Pastes {
    /// What goes into the editor's `line` at byte `pos` for the pasted `text`: the text itself
    /// when it is short and the line with it `fits` (the caller's measure of the editor's
    /// rows), else a new marker for it. A text holding what could read as a marker
    /// (`[paste #`, `[text #`) is always folded, so every marker in the line is one of ours.
    pub fn insert(
        &mut self,
        line: &str,
        pos: usize,
        text: &str,
        fits: impl Fn(&str) -> bool,
    ) -> String {
        let pos = floor_char_boundary(line, pos);
        let short = text.split('\n').count() <= MAX_UNFOLDED_LINES
            && text.chars().count() <= MAX_UNFOLDED_CHARS
            && !text.contains(words::PASTE_MARKER_START)
            && !text.contains(words::TEXT_MARKER_START);
        if short && fits(&format!("{}{text}{}", &line[..pos], &line[pos..])) {
            return text.to_string();
        }
        self.fold(text, None)
    }

    /// What an editor opening on `text` shows: the text, or one marker for all of it when it
    /// would be folded as a paste into an empty line ([`Pastes::insert`]).
    pub fn initial(&mut self, text: &str, fits: impl Fn(&str) -> bool) -> String {
        if text.is_empty() {
            return String::new();
        }
        self.insert("", 0, text, fits)
    }

    /// [`Pastes::insert`] for a paste that was cut (`cut`, at a limit): then always one
    /// marker, which says so, even for no text at all (the editor's text was full).
    pub fn insert_pasted(
        &mut self,
        line: &str,
        pos: usize,
        text: &str,
        cut: Option<Cut>,
        fits: impl Fn(&str) -> bool,
    ) -> String {
        match cut {
            Some(_) => self.fold(text, cut),
            None => self.insert(line, pos, text, fits),
        }
    }

    /// `text` as one new marker; `cut`: the limit the paste was cut at, which the marker says.
    fn fold(&mut self, text: &str, cut: Option<Cut>) -> String {
        let size = Size::of(text);
        let (id, lines) = (self.folded.len() + 1, size.lines());
        let mib = |bytes: usize| bytes / (1024 * 1024);
        let marker = match cut {
            Some(Cut::Paste) => {
                words::cut_paste_marker(id, lines, size.chars, mib(MAX_EDITOR_PASTE_BYTES))
            }
            Some(Cut::Full) => {
                words::full_paste_marker(id, lines, size.chars, mib(MAX_EDITOR_TEXT_BYTES))
            }
            None => words::paste_marker(id, lines, size.chars),
        };
        self.folded.push(Folded {
            marker: marker.clone(),
            text: text.to_string(),
            typed: false,
            size,
        });
        marker
    }

    /// What typing `typed` at byte `pos` of the editor's `line` does, when the line with it
    /// would not `fits` (the caller's measure, as for [`Pastes::insert`]): the beginning of
    /// the text before the cursor (with `typed`) is folded into a new marker, as little of it
    /// as keeps the line fitting with room for as much again as is kept after the marker (the
    /// line would fit with that rest twice), cut at a whitespace when one is in the first half
    /// of that rest; the text after the cursor stays. Never cut inside a marker or a
    /// grapheme, so the line stands for the same text, character for character, before and
    /// after. When not even a marker for all of the text before the cursor leaves room for
    /// the text after it, that text is folded into a marker of its own too.
    pub fn type_in(
        &mut self,
        line: &str,
        pos: usize,
        typed: &str,
        fits: impl Fn(&str) -> bool,
    ) -> Typing {
        let pos = floor_char_boundary(line, pos);
        let (before, after) = line.split_at(pos);
        let text = format!("{before}{typed}");
        if fits(&format!("{text}{after}")) {
            return Typing::AsIs;
        }
        let all = self.folded.len();
        // The line with text[..cut] folded, the rest of it once or twice.
        let shown = |cut: usize, times: usize| {
            let size = self.measure(&text[..cut], all);
            let marker = words::text_marker(all + 1, size.lines(), size.chars);
            format!("{marker}{}{after}", text[cut..].repeat(times))
        };
        let whole = format!("{text}{after}");
        let cuts = self.cuts(&whole, text.len());
        let Some(&cut) = cuts.get(cuts.partition_point(|&cut| !fits(&shown(cut, 2)))) else {
            // Both sides folded, if both may be; all of it in one marker when a marker goes
            // across the cursor.
            let (text, after) = if cuts.last() == Some(&text.len()) {
                (text.as_str(), after)
            } else {
                (whole.as_str(), "")
            };
            let sizes = self
                .measure(text, all)
                .bytes
                .max(self.measure(after, all).bytes);
            if sizes > MAX_EDITOR_PASTE_BYTES {
                return Typing::Dropped;
            }
            let before = self.fold_typed(text).unwrap_or_default();
            let after = if after.is_empty() {
                String::new()
            } else {
                self.fold_typed(after).unwrap_or_default()
            };
            return Typing::Folded { before, after };
        };
        let rest = &text[cut..];
        let cut = rest
            .char_indices()
            .take_while(|&(i, _)| i <= rest.len() / 2)
            .find(|&(_, c)| c.is_whitespace())
            .map(|(i, _)| cut + i)
            .filter(|&at| cuts.binary_search(&at).is_ok() && fits(&shown(at, 1)))
            .unwrap_or(cut);
        match self.fold_typed(&text[..cut]) {
            Some(marker) => Typing::Folded {
                before: format!("{marker}{}", &text[cut..]),
                after: after.to_string(),
            },
            None => Typing::Dropped,
        }
    }

    /// A new marker for the typed `text` (as shown, markers in it); `None` when what it
    /// stands for is longer than [`MAX_EDITOR_PASTE_BYTES`].
    fn fold_typed(&mut self, text: &str) -> Option<String> {
        let size = self.measure(text, self.folded.len());
        if size.bytes > MAX_EDITOR_PASTE_BYTES {
            return None;
        }
        let marker = words::text_marker(self.folded.len() + 1, size.lines(), size.chars);
        self.folded.push(Folded {
            marker: marker.clone(),
            text: text.to_string(),
            typed: true,
            size,
        });
        Some(marker)
    }

    /// Where the first `upto` bytes of `line` may be cut for a fold: every grapheme boundary
    /// after the line's start, up to `upto` (included), but inside a marker of the line.
    fn cuts(&self, line: &str, upto: usize) -> Vec<usize> {
        let markers = self.markers(line);
        crate::text::width::graphemes(&line[..upto])
            .scan(0, |end, g| {
                *end += g.len();
                Some(*end)
            })
            .filter(|cut| !markers.iter().any(|m| m.start < *cut && *cut < m.end))
            .collect()
    }

    /// Where each marker of `line` is (byte ranges).
    fn markers(&self, line: &str) -> Vec<std::ops::Range<usize>> {
        let mut markers = Vec::new();
        let mut at = 0;
        while let Some((plain, n, _)) = self.first_marker(&line[at..], self.folded.len()) {
            let start = at + plain.len();
            at = start + self.folded[n].marker.len();
            markers.push(start..at);
        }
        markers
    }

    /// The size of what `text` stands for, its markers among the first `below` expanded.
    /// Bytes of the text `line` stands for, its markers expanded, without building it.
    pub fn expanded_len(&self, line: &str) -> usize {
        self.measure(line, self.folded.len()).bytes
    }

    fn measure(&self, text: &str, below: usize) -> Size {
        let mut size = Size::default();
        let mut rest = text;
        while let Some((plain, n, after)) = self.first_marker(rest, below) {
            size = size.and(Size::of(plain)).and(self.folded[n].size);
            rest = after;
        }
        size.and(Size::of(rest))
    }

    /// The first marker in `text` of one of the first `below` folds: the text before it, its
    /// fold's index, the text after it.
    fn first_marker<'t>(&self, text: &'t str, below: usize) -> Option<(&'t str, usize, &'t str)> {
        let mut from = 0;
        while let Some(at) = text[from..].find('[') {
            let at = from + at;
            let rest = &text[at..];
            if let Some(n) = self.marker_at(rest, below) {
                return Some((&text[..at], n, &rest[self.folded[n].marker.len()..]));
            }
            from = at + 1;
        }
        None
    }

    /// The index of the fold among the first `below` whose marker `text` starts with.
    fn marker_at(&self, text: &str, below: usize) -> Option<usize> {
        let number = text
            .strip_prefix(words::PASTE_MARKER_START)
            .or_else(|| text.strip_prefix(words::TEXT_MARKER_START))?;
        let digits = number
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(number.len());
        let n: usize = number[..digits].parse().ok()?;
        let n = n.checked_sub(1).filter(|&n| n < below)?;
        let folded = self.folded.get(n)?;
        text.starts_with(folded.marker.as_str()).then_some(n)
    }

    /// How many bytes the marker right before byte `pos` of `line` has, when one of ours ends
    /// there: Backspace takes it whole, rather than one character, which left the rest as
    /// plain text that was saved as such (the paste lost but for undo).
    pub fn marker_before(&self, line: &str, pos: usize) -> Option<usize> {
        let before = line.get(..pos)?;
        self.folded
            .iter()
            .find(|f| before.ends_with(&f.marker))
            .map(|f| f.marker.len())
    }

    /// The text the editor's `line` stands for: every marker in it replaced by its text, left
    /// to right, and every marker in a typed fold's text by its own (a paste's text is never
    /// read for markers; a fold's text only for the markers made before it).
    pub fn expand(&self, line: &str) -> String {
        if self.folded.is_empty() {
            return line.to_string();
        }
        let mut out = String::with_capacity(self.measure(line, self.folded.len()).bytes);
        // What is left to write, the next piece last; each with the folds it may name.
        let mut todo = vec![(line, self.folded.len())];
        while let Some((text, below)) = todo.pop() {
            let Some((plain, n, after)) = self.first_marker(text, below) else {
                out.push_str(text);
                continue;
            };
            out.push_str(plain);
            todo.push((after, below));
            let folded = &self.folded[n];
            if folded.typed {
                todo.push((&folded.text, n));
            } else {
                out.push_str(&folded.text);
            }
        }
        out
    }
}

/// `pos` moved back to a character boundary of `line` (and within it).
fn floor_char_boundary(line: &str, pos: usize) -> usize {
    let mut pos = pos.min(line.len());
    while !line.is_char_boundary(pos) {
        pos -= 1;
    }
    pos
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seq(n: usize) -> String {
        (1..=n)
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn forty_lines_fold_into_one_marker_and_expand_back_byte_for_byte() {
        let mut p = Pastes::default();
        let shown = p.insert("ab", 1, &seq(40), |_| true);
        assert_eq!(shown, "[paste #1 +40 lines]");
        let line = format!("a{shown}b");
        assert_eq!(p.expand(&line), format!("a{}b", seq(40)));
    }

    #[test]
    fn a_paste_ending_in_a_newline_counts_its_lines_not_its_breaks() {
        let mut p = Pastes::default();
        let thirty = format!("{}\n", seq(30));
        let shown = p.insert("", 0, &thirty, |_| true);
        assert_eq!(shown, "[paste #1 +30 lines]");
        assert_eq!(p.expand(&shown), thirty);
    }

    #[test]
    fn a_short_paste_goes_in_as_it_is_when_it_fits() {
        let mut p = Pastes::default();
        assert_eq!(p.insert("", 0, "a\nb\nc", |_| true), "a\nb\nc");
        assert_eq!(p.insert("", 0, &seq(10), |_| true), seq(10));
        assert_eq!(p.expand("a\nb\nc"), "a\nb\nc");
    }

    #[test]
    fn a_short_paste_that_would_not_fit_the_room_is_folded_too() {
        let mut p = Pastes::default();
        let shown = p.insert("x", 1, "a\nb\nc", |line| line.split('\n').count() <= 2);
        assert_eq!(shown, "[paste #1 +3 lines]");
        assert_eq!(p.expand(&format!("x{shown}")), "xa\nb\nc");
    }

    #[test]
    fn one_long_line_is_counted_in_characters() {
        let mut p = Pastes::default();
        let long = "é".repeat(1001);
        assert_eq!(p.insert("", 0, &long, |_| true), "[paste #1 1001 chars]");
        assert_eq!(p.expand("[paste #1 1001 chars]"), long);
    }

    #[test]
    fn markers_are_numbered_and_each_expands_to_its_own_paste() {
        let mut p = Pastes::default();
        let one = p.insert("", 0, &seq(11), |_| true);
        let two = p.insert("", 0, &seq(12), |_| true);
        assert_eq!(two, "[paste #2 +12 lines]");
        assert_eq!(
            p.expand(&format!("{two} and {one}")),
            format!("{} and {}", seq(12), seq(11))
        );
    }

    #[test]
    fn an_edited_marker_and_a_pasted_marker_text_stay_as_they_are() {
        let mut p = Pastes::default();
        let one = p.insert("", 0, &seq(40), |_| true);
        assert_eq!(p.expand("[paste #1 +40 line"), "[paste #1 +40 line");
        // A paste that reads like a marker is folded, so its text is never taken for one.
        let fake = p.insert("", 0, "[paste #1 +40 lines]", |_| true);
        assert_eq!(fake, "[paste #2 20 chars]");
        assert_eq!(
            p.expand(&format!("{fake}{one}")),
            format!("[paste #1 +40 lines]{}", seq(40))
        );
    }

    #[test]
    fn a_long_initial_text_opens_as_one_marker() {
        let mut p = Pastes::default();
        assert_eq!(p.initial("", |_| true), "");
        assert_eq!(p.initial("why", |_| true), "why");
        let shown = p.initial(&seq(40), |_| true);
        assert_eq!(shown, "[paste #1 +40 lines]");
        assert_eq!(p.expand(&format!("{shown}!")), format!("{}!", seq(40)));
    }

    fn folded(before: &str, after: &str) -> Typing {
        Typing::Folded {
            before: before.into(),
            after: after.into(),
        }
    }

    /// Whether a line fits 40 characters (a stand-in for the editor's rows).
    fn forty(line: &str) -> bool {
        line.chars().count() <= 40
    }

    /// `text` typed one character at a time at the end of `line`, as the editor applies each
    /// key; every line it passes through fits.
    fn type_all(p: &mut Pastes, line: &str, text: &str, fits: fn(&str) -> bool) -> String {
        let mut line = line.to_string();
        for c in text.chars() {
            match p.type_in(&line, line.len(), &c.to_string(), fits) {
                Typing::AsIs => line.push(c),
                Typing::Folded { before, after } => line = before + &after,
                Typing::Dropped => {}
            }
            assert!(fits(&line), "{line:?}");
        }
        line
    }

    #[test]
    fn typing_past_the_room_folds_the_beginning_and_keeps_the_rest_as_typed() {
        let mut p = Pastes::default();
        let typed = "the quick brown fox jumps over the lazy dog";
        let line = type_all(&mut p, "", &typed[..40], forty);
        assert_eq!(line, &typed[..40]);
        // The 41st character: the first 30 folded (the rest fits twice), cut at a space.
        assert_eq!(
            p.type_in(&line, line.len(), "d", forty),
            folded("[text #1 30 chars] the lazy d", "")
        );
        let line = type_all(&mut Pastes::default(), "", typed, forty);
        assert_eq!(line, "[text #1 30 chars] the lazy dog");
        let mut p = Pastes::default();
        let line = type_all(&mut p, "", typed, forty);
        assert_eq!(p.expand(&line), typed);
        assert_eq!(p.expand(&format!("{line}!")), format!("{typed}!"));
    }

    #[test]
    fn a_long_typed_text_is_folded_again_and_again_and_expands_exactly() {
        let mut p = Pastes::default();
        let typed: String = (0..500).map(|i| format!("w{i} ")).collect();
        let line = type_all(&mut p, "", &typed, forty);
        assert!(line.starts_with("[text #"), "{line}");
        assert_eq!(p.expand(&line), typed);
        // Each fold names the one before it, never a later one.
        assert!(p.folded.len() > 100, "{}", p.folded.len());
        assert_eq!(p.folded[0].text, "w0 w1 w2 w3 w4 w5 w6 w7 w8 w9 w10");
        assert_eq!(p.folded[0].marker, "[text #1 33 chars]");
        let second = &p.folded[1];
        assert_eq!(
            second.marker,
            format!("[text #2 {} chars]", second.size.chars)
        );
        assert_eq!(
            second.text,
            format!("[text #1 33 chars]{}", &typed[33..second.size.bytes])
        );
    }

    #[test]
    fn typing_in_the_middle_folds_before_the_cursor_and_keeps_what_is_after_it() {
        let line = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN";
        let mut p = Pastes::default();
        let head = p.type_in(line, 35, "X", forty);
        assert_eq!(head, folded("[text #1 28 chars]CDEFGHIX", "JKLMN"));
        let shown = "[text #1 28 chars]CDEFGHIXJKLMN";
        assert_eq!(p.expand(shown), "abcdefghijklmnopqrstuvwxyzABCDEFGHIXJKLMN");
        // Near the start the text after the cursor leaves no room beside a marker: it is
        // folded too, the cursor between the two markers.
        let mut p = Pastes::default();
        assert_eq!(
            p.type_in(line, 5, "X", forty),
            folded("[text #1 6 chars]", "[text #2 35 chars]")
        );
        assert_eq!(
            p.expand("[text #1 6 chars]Y[text #2 35 chars]"),
            "abcdeXYfghijklmnopqrstuvwxyzABCDEFGHIJKLMN"
        );
    }

    #[test]
    fn a_paste_and_an_earlier_fold_stay_markers_inside_a_fold() {
        let mut p = Pastes::default();
        let pasted = p.insert("", 0, &seq(40), forty);
        assert_eq!(pasted, "[paste #1 +40 lines]");
        let line = type_all(&mut p, &pasted, " and then some more words typed", forty);
        // The paste marker is never cut: it went into the fold whole.
        assert_eq!(line, "[text #2 +40 lines] more words typed");
        assert_eq!(p.folded[1].text, "[paste #1 +40 lines] and then some");
        assert_eq!(
            p.expand(&line),
            format!("{} and then some more words typed", seq(40))
        );
        let line = type_all(&mut p, &line, " and more and more", forty);
        assert_eq!(line, "[text #3 +40 lines] and more and more");
        assert_eq!(p.folded[2].text, "[text #2 +40 lines] more words typed");
        assert_eq!(
            p.expand(&line),
            format!(
                "{} and then some more words typed and more and more",
                seq(40)
            )
        );
    }

    #[test]
    fn a_marker_the_key_completes_across_the_cursor_is_never_cut() {
        let mut p = Pastes::default();
        assert_eq!(p.insert("", 0, &seq(40), forty), "[paste #1 +40 lines]");
        let line = format!("{}[paste #1 +40 lies]", "x".repeat(25));
        let typing = p.type_in(&line, line.len() - 3, "n", forty);
        assert_eq!(typing, folded("[text #2 +40 lines]", ""));
        assert_eq!(
            p.expand("[text #2 +40 lines]"),
            format!("{}{}", "x".repeat(25), seq(40))
        );
    }

    #[test]
    fn a_fold_is_never_cut_inside_a_grapheme() {
        let mut p = Pastes::default();
        let line = "e\u{301}".repeat(20);
        let head = p.type_in(&line, line.len(), "x", forty);
        let kept = "e\u{301}".repeat(5);
        assert_eq!(head, folded(&format!("[text #1 30 chars]{kept}x"), ""));
        assert_eq!(
            p.expand(&format!("[text #1 30 chars]{kept}x")),
            format!("{line}x")
        );
    }

    #[test]
    fn a_typed_marker_of_a_later_fold_is_text_in_an_earlier_one() {
        let mut p = Pastes::default();
        // Typed as text: the marker the fold is about to get.
        let typed = "[text #1 30 chars] [text #1 30 chars] [text #1 30 chars] end";
        let line = type_all(&mut p, "", typed, forty);
        assert_eq!(p.expand(&line), typed);
    }

    #[test]
    fn a_paste_cut_at_the_limit_says_so_in_its_marker_and_keeps_what_came() {
        let mut p = Pastes::default();
        // Even a short paste is one marker when it was cut: the marker is what says so.
        let shown = p.insert_pasted("x", 1, "a\nb", Some(Cut::Paste), |_| true);
        assert_eq!(shown, "[paste #1 +2 lines, cut at 4 MiB]");
        assert_eq!(p.expand(&format!("x{shown}y")), "xa\nby");
        // Not cut: as any paste.
        assert_eq!(p.insert_pasted("", 0, "ab", None, |_| true), "ab");
        // Cut where the editor's text is full: it says so, also with nothing kept.
        let full = p.insert_pasted("", 0, "c", Some(Cut::Full), |_| true);
        assert_eq!(full, "[paste #2 1 chars, cut at 16 MiB in all]");
        let nothing = p.insert_pasted("", 0, "", Some(Cut::Full), |_| true);
        assert_eq!(nothing, "[paste #3 0 chars, cut at 16 MiB in all]");
        assert_eq!(p.expand(&format!("{full}{nothing}")), "c");
        // What a line stands for is measured without building it.
        let line = format!("x{shown}y{full}");
        assert_eq!(p.expanded_len(&line), p.expand(&line).len());
        assert_eq!(p.expanded_len(&line), "xa\nbyc".len());
    }

    #[test]
    fn a_fold_longer_than_a_paste_may_be_drops_the_key() {
        let mut p = Pastes::default();
        let big = "a".repeat(MAX_EDITOR_PASTE_BYTES - 10);
        let pasted = p.insert("", 0, &big, forty);
        assert_eq!(pasted, format!("[paste #1 {} chars]", big.len()));
        let typed = "b".repeat(40);
        let line = type_all(&mut p, &pasted, &typed, forty);
        let saved = p.expand(&line);
        assert!(
            saved.len() <= MAX_EDITOR_PASTE_BYTES + 40,
            "{}",
            saved.len()
        );
        assert_eq!(p.type_in(&line, line.len(), "b", forty), Typing::Dropped);
        assert_eq!(
            saved,
            format!("{big}{}", "b".repeat(saved.len() - big.len()))
        );
    }
    #[test]
    fn the_marker_before_the_cursor_is_found_whole() {
        let mut pastes = Pastes::default();
        let seq: Vec<String> = (1..=40).map(|i| i.to_string()).collect();
        let marker = pastes.insert("see: ", 5, &seq.join("\n"), |_| true);
        assert_eq!(marker, "[paste #1 +40 lines]");
        let line = format!("see: {marker}");
        assert_eq!(pastes.marker_before(&line, line.len()), Some(20));
        assert_eq!(pastes.marker_before(&line, line.len() - 1), None);
        assert_eq!(pastes.marker_before(&line, 5), None);
        // A byte inside a character is no position.
        assert_eq!(pastes.marker_before("é", 1), None);
    }
}

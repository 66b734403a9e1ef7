//! A long paste in an editor, folded (docs/interactive.md "The line editor"): rustyline lays
//! out every line break of its text as a row and cannot scroll, so a text taller than the rows
//! under the block would push the block up past the window's top, into the terminal's history.
//! A paste of more than [`MAX_UNFOLDED_LINES`] lines or [`MAX_UNFOLDED_CHARS`] characters, or
//! one that would make the editor's text taller than its room, goes into the editor as one
//! marker, `[paste #1 +40 lines]` (`[paste #2 1205 chars]` for one long line), as pi's own
//! editor does; the text saved has the paste in its place, byte for byte. A marker that was
//! edited is no longer one: it stays as the text it became (undo brings it back, and the paste
//! with it). An editor opening on a text that would not fit gets the whole text as one marker
//! the same way.
//!
//! No terminal here: the caller says whether a line fits ([`Pastes::insert`]).

use crate::ui::words;

/// Most lines a paste is inserted with as they are (pi's editor folds more).
pub const MAX_UNFOLDED_LINES: usize = 10;

/// Most characters a paste is inserted with as they are (pi's editor folds more).
pub const MAX_UNFOLDED_CHARS: usize = 1000;

/// The pastes folded in one editor: each marker and the text it stands for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pastes {
    folded: Vec<(String, String)>,
}

impl Pastes {
    /// What goes into the editor's `line` at byte `pos` for the pasted `text`: the text itself
    /// when it is short and the line with it `fits` (the caller's measure of the editor's
    /// rows), else a new marker for it. A text holding what could read as a marker
    /// (`[paste #`) is always folded, so every marker in the line is one of ours.
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
            && !text.contains(words::PASTE_MARKER_START);
        if short && fits(&format!("{}{text}{}", &line[..pos], &line[pos..])) {
            return text.to_string();
        }
        self.fold(text)
    }

    /// What an editor opening on `text` shows: the text, or one marker for all of it when it
    /// would be folded as a paste into an empty line ([`Pastes::insert`]).
    pub fn initial(&mut self, text: &str, fits: impl Fn(&str) -> bool) -> String {
        if text.is_empty() {
            return String::new();
        }
        self.insert("", 0, text, fits)
    }

    /// A new marker for `text`.
    fn fold(&mut self, text: &str) -> String {
        let marker = words::paste_marker(
            self.folded.len() + 1,
            text.split('\n').count(),
            text.chars().count(),
        );
        self.folded.push((marker.clone(), text.to_string()));
        marker
    }

    /// The text the editor's `line` stands for: every marker in it in one pass, left to
    /// right, replaced by its paste (a paste's own text is never read for markers).
    pub fn expand(&self, line: &str) -> String {
        if self.folded.is_empty() {
            return line.to_string();
        }
        let mut out = String::with_capacity(line.len());
        let mut rest = line;
        while let Some(at) = rest.find(words::PASTE_MARKER_START) {
            out.push_str(&rest[..at]);
            rest = &rest[at..];
            match self
                .folded
                .iter()
                .find(|(m, _)| rest.starts_with(m.as_str()))
            {
                Some((marker, text)) => {
                    out.push_str(text);
                    rest = &rest[marker.len()..];
                }
                None => {
                    out.push_str(words::PASTE_MARKER_START);
                    rest = &rest[words::PASTE_MARKER_START.len()..];
                }
            }
        }
        out.push_str(rest);
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
}

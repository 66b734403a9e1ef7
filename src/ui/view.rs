//! The view layer every front end shares: what a question's answer, the review, a transcript
//! line and an ending say, written once (terminal in both placements, plain, dialogs), and
//! the look of the terminal's lines (dialoguer's themes, docs/interactive.md "Look").
//!
//! Words: [`answer_text`] (a question's summary: labels, then the quoted custom text, or
//! "no answer"), [`note_lines`], [`transcript_line`], [`ending_words`]. Look: [`Look`],
//! built once per run from [`colour_wanted`]: dialoguer's `ColorfulTheme` when colour is on,
//! `SimpleTheme` when it is off. Text is fitted to the width as plain text first and styled
//! after, so no cut lands inside an escape sequence.

use crate::answers::AnswerState;
use crate::contract::{Payload, Question};
use crate::result::Ending;
use crate::text::one_line;
use crate::text::{Charset, Glyph};
use crate::ui::words;
use console::{style, Style};
use dialoguer::theme::{ColorfulTheme, SimpleTheme, Theme};
use std::sync::atomic::{AtomicBool, Ordering};

pub use crate::text::quote;

/// What question `q` has for an answer, in one line: the selected options' labels in option
/// order, then the custom text quoted (contract "Output rules": custom text last); `None`
/// when it has none (a note alone is no answer). Used by the review, the transcript lines,
/// plain mode and dialogs.
pub fn answer_text(payload: &Payload, answers: &AnswerState, q: usize) -> Option<String> {
    let parts = answer_parts(payload, answers, q);
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// The parts of [`answer_text`], one per selected option and the custom text last.
fn answer_parts(payload: &Payload, answers: &AnswerState, q: usize) -> Vec<String> {
    let summary = answers.summary(payload, q);
    let mut parts: Vec<String> = summary
        .options
        .iter()
        .map(|(_, o)| one_line(&o.label).into_owned())
        .collect();
    if let Some(text) = summary.custom_text {
        parts.push(shown_custom_text(&payload.questions[q], text));
    }
    parts
}

/// What a secret answer looks like wherever it is shown: six bullets, whatever its length
/// (`******` on an ASCII terminal, [`Glyph::Bullet`]).
pub const SECRET_SHOWN: &str = "\u{2022}\u{2022}\u{2022}\u{2022}\u{2022}\u{2022}";

/// What `question`'s custom text looks like when shown (the one function every view uses:
/// transcript lines, the review, a row's `Type your own… “draft”`, the summaries, plain
/// mode, dialogs): one line, quoted ([`quote`]), or
/// [`SECRET_SHOWN`] for a secret question (`"secret": true`, docs/contract.md "What pi-ask
/// adds").
pub fn shown_custom_text(question: &Question, text: &str) -> String {
    if question.secret {
        SECRET_SHOWN.to_string()
    } else {
        quote(text)
    }
}

/// [`answer_text`], or "no answer" ("no answer (required)" for a `required` question).
pub fn summary_text(payload: &Payload, answers: &AnswerState, q: usize) -> String {
    answer_text(payload, answers, q).unwrap_or_else(|| {
        if payload.questions[q].required {
            "no answer (required)".to_string()
        } else {
            "no answer".to_string()
        }
    })
}

/// Question `q`'s notes, one line each: `note: …` for the question note, then `note on
/// Label: …` for each selected option's note, in option order.
pub fn note_lines(payload: &Payload, answers: &AnswerState, q: usize) -> Vec<String> {
    let summary = answers.summary(payload, q);
    let mut notes = Vec::new();
    if let Some(note) = summary.note {
        notes.push(format!("note: {}", one_line(note)));
    }
    for (option, note) in &summary.option_notes {
        notes.push(format!(
            "note on {}: {}",
            one_line(&option.label),
            one_line(note)
        ));
    }
    notes
}

/// What question `q`'s notes asked, as an elaborate ending sends them (`details.elaboration`,
/// [`crate::result::elaboration`]): the question note (`asked: …`), then each option's note,
/// chosen or not, in option order (`asked about Postgres: …`); one line each.
pub fn asked_lines(payload: &Payload, answers: &AnswerState, q: usize) -> Vec<String> {
    let question = &payload.questions[q];
    let mut lines: Vec<String> = answers
        .note(q)
        .map(|note| words::asked(None, &one_line(note)))
        .into_iter()
        .collect();
    for (o, option) in question.options.iter().enumerate() {
        if let Some(note) = answers.option_note(q, o) {
            lines.push(words::asked(
                Some(&one_line(&option.label)),
                &one_line(note),
            ));
        }
    }
    lines
}

/// The name a transcript line gives question `q`: its label, or its prompt when the payload
/// gave no label (the label is then the contract's `Q1`, `Q2`, … fallback).
pub fn transcript_name(question: &Question) -> String {
    one_line(question.name()).into_owned()
}

/// How a run ended, in the last transcript line's words: `Submitted`, `Cancelled`, …
pub fn ending_words(ending: &Ending) -> (bool, String) {
    match ending {
        Ending::Submitted(_) => (true, "Submitted".into()),
        Ending::Elaborated(_) => (true, "Elaboration requested".into()),
        Ending::Dismissed => (false, "Cancelled: the answers were not sent".into()),
        Ending::Interrupted => (
            false,
            "Dismissed (Ctrl+C): the answers were not sent".into(),
        ),
        Ending::Aborted { signal } => (
            false,
            format!(
                "Aborted by {}: the answers were not sent",
                crate::terminal::signal_name(*signal)
            ),
        ),
        Ending::TimedOut { why, .. } => (false, format!("Timed out ({why}): answers kept")),
        Ending::TerminalLost(_) => (
            false,
            "The terminal was lost: the answers were not sent".into(),
        ),
        Ending::Internal(_) => (false, "Stopped by an internal error".into()),
        Ending::NoUi(_)
        | Ending::TerminalBusy(_)
        | Ending::InvalidPayload(_)
        | Ending::InvalidAnswers(_) => (false, "Not asked".into()),
    }
}

/// Whether the answers went to the caller at `ending` (a submit, an elaborate ending, a
/// timeout's kept answers); `false` where [`ending_words`] says they were not sent (Esc,
/// Ctrl+C, a signal, the terminal lost, an internal error). The transcript marks the
/// questions of such an ending as not sent ([`transcript_line`]).
pub fn answers_sent(ending: &Ending) -> bool {
    !matches!(
        ending,
        Ending::Dismissed
            | Ending::Interrupted
            | Ending::Aborted { .. }
            | Ending::TerminalLost(_)
            | Ending::Internal(_)
    )
}

/// [`ending_words`], for questions answered from elsewhere (`from`: who answered, through the
/// answer channel: docs/elsewhere.md): `Submitted (answered from elsewhere: ntfy)`.
pub fn ending_words_from(ending: &Ending, from: Option<&str>) -> (bool, String) {
    let (ok, words) = ending_words(ending);
    match from {
        Some(from) => (ok, format!("{words} {}", words::from_elsewhere(from))),
        None => (ok, words),
    }
}

/// Whether the terminal front end draws in colour: `NO_COLOR` (set, not empty) turns it off,
/// `CLICOLOR_FORCE` (set, not `0`) on, `CLICOLOR=0` off; otherwise colour is on when
/// `/dev/tty` is a terminal and `TERM` names one with colours ([`Palette::of_terminal`]: not
/// `dumb`, `vt100`, `xterm-mono`) (stderr is not asked: under pi it is a pipe).
pub fn colour_wanted(env: impl Fn(&str) -> Option<String>, tty_is_terminal: bool) -> bool {
    let set = |name: &str| env(name).filter(|v| !v.is_empty());
    if set("NO_COLOR").is_some() {
        return false;
    }
    if set("CLICOLOR_FORCE").is_some_and(|v| v != "0") {
        return true;
    }
    if set("CLICOLOR").is_some_and(|v| v == "0") {
        return false;
    }
    tty_is_terminal && Palette::of_env(env) != Palette::Mono
}

/// The colours a terminal shows, as its name says (docs/interactive.md "Look"); terminfo's
/// naming: a `-mono` or `-m` suffix is a monochrome entry, `256color` or `direct` one with
/// 256 colours or more.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Palette {
    /// None: `dumb`, the DEC terminals (`vt100`, `vt220`, …), `*-mono`, `*-m`.
    Mono,
    /// The 8 or 16 basic colours (`xterm`, `linux`, `screen`, `ansi`, TERM unset): no
    /// 256-colour code is written.
    Basic,
    /// 256 colours or more: `TERM` with `256color`, `direct`, `truecolor` or `24bit` in it,
    /// a terminal known to have them (`alacritty`, `xterm-kitty`, `xterm-ghostty`, `foot`,
    /// `wezterm`), or `COLORTERM=truecolor` / `24bit`.
    Full,
}

impl Palette {
    /// The palette of a terminal named `term` (`TERM`), with `colorterm` (`COLORTERM`).
    pub fn of_terminal(term: Option<&str>, colorterm: Option<&str>) -> Palette {
        let term = term.unwrap_or("").to_ascii_lowercase();
        let base = term.split('+').next().unwrap_or("");
        let dec = base
            .strip_prefix("vt")
            .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()));
        let mono = base == "dumb"
            || base.ends_with("-mono")
            || base.ends_with("-m")
            || base.contains("-m-")
            || (dec && !base.contains("color"));
        if mono {
            return Palette::Mono;
        }
        let full = ["256color", "direct", "truecolor", "24bit"]
            .iter()
            .any(|w| term.contains(w))
            || [
                "alacritty",
                "xterm-kitty",
                "xterm-ghostty",
                "foot",
                "wezterm",
            ]
            .iter()
            .any(|t| base == *t || base.starts_with(&format!("{t}-")))
            || colorterm.is_some_and(|c| matches!(c, "truecolor" | "24bit"));
        if full {
            Palette::Full
        } else {
            Palette::Basic
        }
    }

    /// [`Palette::of_terminal`] of the environment `env` gives (`TERM`, `COLORTERM`).
    pub fn of_env(env: impl Fn(&str) -> Option<String>) -> Palette {
        Palette::of_terminal(env("TERM").as_deref(), env("COLORTERM").as_deref())
    }
}

/// Whether the look may write 256-colour codes ([`set_palette`]); yes until set.
static BASIC_COLOURS: AtomicBool = AtomicBool::new(false);

/// Sets the palette the look's colours follow, once at start (`run`, from [`Palette::of_env`]):
/// with [`Palette::Basic`] (or [`Palette::Mono`] with colour forced) the grey of hints and
/// separators is written as faint text (SGR 2), not as 256-colour grey (`38;5;8`).
pub fn set_palette(palette: Palette) {
    BASIC_COLOURS.store(palette != Palette::Full, Ordering::Relaxed);
}

/// Whether only the basic colours may be written ([`set_palette`]).
fn basic_colours() -> bool {
    BASIC_COLOURS.load(Ordering::Relaxed)
}

/// The placeholder text a theme's line is formatted around once, to learn its frame.
const FRAMED: &str = "\u{1}";

/// The look of the terminal front end's lines: dialoguer's `ColorfulTheme` (colour on) or
/// `SimpleTheme` (colour off) for the prompt, item, ticked / unticked, active and collapsed
/// answer lines. Every method takes plain text and a width, fits the text to it, then styles.
pub struct Look {
    colour: bool,
    /// What the terminal can show: ASCII glyphs in the themes and lines when not UTF-8.
    charset: Charset,
    colorful: ColorfulTheme,
    /// `ColorfulTheme` with the error mark for a collapsed question with no answer.
    unanswered: ColorfulTheme,
    /// Columns the item prefixes take: (select item, multi-select item).
    prefix: (usize, usize),
    /// What the theme writes before and after a select item's text, by `active`; the theme's
    /// own output for a placeholder text, split there (a key draws every item, and the
    /// theme's styling costs more than the rest of the row).
    item_frames: [(String, String); 2],
    /// The same for a multi-select item, by `checked * 2 + active`.
    multi_frames: [(String, String); 4],
}

impl std::fmt::Debug for Look {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Look")
            .field("colour", &self.colour)
            .finish()
    }
}

impl Default for Look {
    fn default() -> Self {
        Look::new(false)
    }
}

impl Look {
    /// A look with colour on (`ColorfulTheme`) or off (`SimpleTheme`). Colour also needs
    /// `console`'s stderr colours on (dialoguer's styles are `for_stderr`): the terminal
    /// front end sets them from [`colour_wanted`]. In the terminal's charset
    /// ([`crate::text::terminal_charset`]).
    pub fn new(colour: bool) -> Look {
        Look::with_charset(colour, crate::text::terminal_charset())
    }

    /// [`Look::new`] in `charset`: in ASCII, `ColorfulTheme` with the ASCII glyphs of
    /// [`crate::text::charset::TABLE`] (`?`, `>`, `v`, `x`, `-`, `[x]`, `[ ]`); `SimpleTheme`
    /// is ASCII already.
    pub fn with_charset(colour: bool, charset: Charset) -> Look {
        Look::with_palette(colour, charset, basic_colours())
    }

    /// [`Look::with_charset`] with only the basic colours (`basic`, [`set_palette`]) or not.
    fn with_palette(colour: bool, charset: Charset, basic: bool) -> Look {
        let colorful = colorful_theme(charset, basic);
        let unanswered = ColorfulTheme {
            success_prefix: colorful.error_prefix.clone(),
            values_style: colorful.hint_style.clone(),
            ..colorful_theme(charset, basic)
        };
        let mut look = Look {
            colour,
            charset,
            colorful,
            unanswered,
            prefix: (0, 0),
            item_frames: Default::default(),
            multi_frames: Default::default(),
        };
        let split = |framed: String| match framed.split_once(FRAMED) {
            Some((before, after)) => (before.to_string(), after.to_string()),
            None => (framed, String::new()),
        };
        for active in [false, true] {
            let mut out = String::new();
            let _ = look
                .theme()
                .format_select_prompt_item(&mut out, FRAMED, active);
            look.item_frames[usize::from(active)] = split(out);
            for checked in [false, true] {
                let mut out = String::new();
                let _ = look
                    .theme()
                    .format_multi_select_prompt_item(&mut out, FRAMED, checked, active);
                let (before, after) = split(out);
                look.multi_frames[usize::from(checked) * 2 + usize::from(active)] =
                    (look.multi_mark(active) + &before, after);
            }
        }
        look.prefix = (
            crate::text::width_of_in(&console::strip_ansi_codes(&look.item("", false)), charset),
            crate::text::width_of_in(
                &console::strip_ansi_codes(&look.multi_item("", false, false)),
                charset,
            ),
        );
        look
    }

    /// Whether colour is on.
    pub fn colour(&self) -> bool {
        self.colour
    }

    /// What the terminal can show.
    pub fn charset(&self) -> Charset {
        self.charset
    }

    /// `text` cut to `width` columns in this terminal's charset ([`crate::text::fit_in`]).
    pub fn fit(&self, text: &str, width: usize) -> String {
        crate::text::fit_in(text, width, self.charset)
    }

    /// How `glyph` is spelled on this terminal.
    pub fn glyph(&self, glyph: Glyph) -> &'static str {
        self.charset.glyph(glyph)
    }

    fn theme(&self) -> &dyn Theme {
        if self.colour {
            &self.colorful
        } else {
            &SimpleTheme
        }
    }

    /// `text` within `width` columns keeping its end ([`crate::text::fit_keeping_end_in`]): how
    /// an item, an answer or what an editor edits is cut, so two long labels that differ only
    /// at their end stay apart in the list, the review, the transcript and an editor's title.
    pub fn fit_keeping_end(&self, text: &str, width: usize) -> String {
        crate::text::fit_keeping_end_in(text, width, self.charset)
    }

    /// An item's `text` for a row of `room` columns: [`Look::fit_keeping_end`]; when it is cut
    /// and `offer_view` (the highlighted option, whose `v` shows it whole), with
    /// [`words::DESCRIPTION_MORE`] after it, as a cut description has, while the row has room
    /// to say it.
    pub fn item_text(&self, text: &str, room: usize, offer_view: bool) -> String {
        let width = |s: &str| crate::text::width_of_in(s, self.charset);
        let more = words::DESCRIPTION_MORE;
        if width(text) <= room || !offer_view || room < 3 * width(more) {
            return self.fit_keeping_end(text, room);
        }
        format!("{}{more}", self.fit_keeping_end(text, room - width(more)))
    }

    /// Columns before an item's text: a select item's (`❯ `), or a multi-select item's with
    /// its tick (`❯ ✔ `) when `multi`.
    pub fn item_prefix(&self, multi: bool) -> usize {
        match multi {
            true => self.prefix.1,
            false => self.prefix.0,
        }
    }

    /// An editor's hint line: what it edits, then its `keys`, within `width` columns; what it
    /// edits is cut (keeping its end) so the keys stay whole while 12 columns are left for it.
    pub fn editor_hint(&self, what: &str, keys: &str, width: usize) -> String {
        let width_in = |s: &str| crate::text::width_of_in(s, self.charset);
        let keys_width = width_in(keys) + 3;
        let line = match width.checked_sub(keys_width).filter(|room| *room >= 12) {
            Some(room) if width_in(what) > room => {
                format!("{} \u{b7} {keys}", self.fit_keeping_end(what, room))
            }
            _ => format!("{what} \u{b7} {keys}"),
        };
        self.hint(&line, width)
    }

    /// A select item (`❯ text` / `> text`), `text` fitted to `width` less the prefix, keeping
    /// its end ([`Look::fit_keeping_end`]).
    pub fn select_item(&self, text: &str, active: bool, width: usize) -> String {
        self.item(
            &self.fit_keeping_end(text, width.saturating_sub(self.prefix.0)),
            active,
        )
    }

    fn item(&self, text: &str, active: bool) -> String {
        let (before, after) = &self.item_frames[usize::from(active)];
        [before.as_str(), text, after].concat()
    }

    /// A multi-select item (`❯ ✔ text` / `> [x] text`), `text` fitted to `width` less the prefix.
    pub fn multi_select_item(
        &self,
        text: &str,
        checked: bool,
        active: bool,
        width: usize,
    ) -> String {
        self.multi_item(
            &self.fit_keeping_end(text, width.saturating_sub(self.prefix.1)),
            checked,
            active,
        )
    }

    fn multi_item(&self, text: &str, checked: bool, active: bool) -> String {
        let (before, after) = &self.multi_frames[usize::from(checked) * 2 + usize::from(active)];
        [before.as_str(), text, after].concat()
    }

    /// What comes before a multi-select item's tick: with colour, `❯ ` on the highlighted row
    /// and two spaces on the others (the theme marks the row by colour alone, which a
    /// monochrome terminal cannot show); without colour nothing (`SimpleTheme` writes `> `).
    fn multi_mark(&self, active: bool) -> String {
        match (self.colour, active) {
            (false, _) => String::new(),
            (true, true) => format!("{} ", self.colorful.active_item_prefix),
            (true, false) => "  ".to_string(),
        }
    }

    /// Columns before a select item's text (the description lines under it align there).
    pub fn item_indent(&self) -> usize {
        self.prefix.0
    }

    /// A prompt line (`? text ›` / `text:`), `text` fitted to what is left of `width`.
    pub fn prompt(&self, text: &str, width: usize) -> String {
        let room = width.saturating_sub(if self.colour { 4 } else { 1 });
        let mut out = String::new();
        let _ = self.theme().format_prompt(&mut out, &self.fit(text, room));
        out
    }

    /// A prompt of several lines (each fitted to `width` less 4): the theme's mark before the
    /// first (`? `), its end after the last (` ›`, or `:` without colour), the lines between
    /// indented by two columns.
    pub fn prompt_lines(&self, lines: &[String], width: usize) -> Vec<String> {
        if lines.len() <= 1 {
            return lines.iter().map(|l| self.prompt(l, width)).collect();
        }
        let mut sample = String::new();
        let _ = self.theme().format_prompt(&mut sample, "\u{1}");
        let (pre, post) = sample.split_once('\u{1}').unwrap_or(("", ""));
        let bold = |t: &str| match self.colour {
            true => Style::new().for_stderr().bold().apply_to(t).to_string(),
            false => t.to_string(),
        };
        let last = lines.len() - 1;
        lines
            .iter()
            .enumerate()
            .map(|(i, line)| match i {
                0 => format!("{pre}{line}{}", if self.colour { "\x1b[0m" } else { "" }),
                i if i == last => format!("  {}{post}", bold(line)),
                _ => format!("  {}", bold(line)),
            })
            .collect()
    }

    /// A question collapsed into one transcript line, dialoguer's answered form: `✔ Style ·
    /// Balanced` (colour) or `Style: Balanced`; with no answer `✘ Style · no answer`. The
    /// answer is cut first, then the name, so both fit `width`.
    pub fn collapsed(&self, name: &str, answer: Option<&str>, width: usize) -> String {
        match answer {
            Some(answer) => self.collapsed_as(name, answer, true, width),
            None => self.collapsed_as(name, "no answer", false, width),
        }
    }

    /// [`Look::collapsed`] for a question with no answer, saying `words` (`no answer (+
    /// note)`): the error mark, as with no answer at all.
    pub fn unanswered(&self, name: &str, words: &str, width: usize) -> String {
        self.collapsed_as(name, words, false, width)
    }

    /// A collapsed question whose answer was not sent ([`answers_sent`]): `- Style · Terse`,
    /// dim, where a sent one has the green tick; without colour as [`Look::collapsed`] (which
    /// has no tick there).
    pub fn not_sent(&self, name: &str, answer: &str, width: usize) -> String {
        if !self.colour {
            return self.collapsed_as(name, answer, true, width);
        }
        let dot = self.glyph(Glyph::Dot);
        let text = self.fit(&format!("- {name} {dot} {answer}"), width);
        style(text).for_stderr().dim().to_string()
    }

    /// A question the person asked about instead of answering (an elaborate ending), one
    /// line per note ([`asked_lines`]): `? Database · asked about Postgres: …`, the `?` in
    /// the prompt's colour; fitted to `width` as plain text first.
    pub fn asked(&self, name: &str, words: &str, width: usize) -> String {
        let dot = self.glyph(Glyph::Dot);
        let text = self.fit(&format!("? {name} {dot} {words}"), width);
        match text.strip_prefix('?') {
            Some(rest) if self.colour => format!("{}{rest}", self.colorful.prompt_prefix),
            _ => text,
        }
    }

    /// The columns the answer has on a transcript line of question `name` within `width`
    /// ([`Look::collapsed`], or [`Look::not_sent`] when not `sent`).
    pub fn answer_room(&self, name: &str, width: usize, sent: bool) -> usize {
        if self.colour && !sent {
            // "- " + name + " · " + answer, fitted whole.
            let frame = 2 + 1 + crate::text::width_of_in(self.glyph(Glyph::Dot), self.charset) + 1;
            return width
                .saturating_sub(frame + crate::text::width_of_in(name, self.charset))
                .max(1);
        }
        self.fitted_name(name, width).1
    }

    /// A question's name on its collapsed line within `width`, and the columns left for its
    /// answer: the name takes two thirds (8 columns at least) but always leaves the answer one,
    /// so the whole line stays within `width`.
    fn fitted_name(&self, name: &str, width: usize) -> (String, usize) {
        // "✔ " + name + " · " + value, or name + ": " + value.
        let frame = if self.colour { 5 } else { 2 };
        let room = width.saturating_sub(frame);
        let name = self.fit(
            name,
            (room * 2 / 3).max(8).min(room.saturating_sub(1)).max(1),
        );
        let left = width
            .saturating_sub(frame + crate::text::width_of_in(&name, self.charset))
            .max(1);
        (name, left)
    }

    /// An answer of `parts` (the options' labels, the custom text: [`answer_text`]'s) and
    /// `suffix` (` (+ 2 notes)`) within `room` columns: whole when it fits; else as many parts
    /// as fit and how many are not shown (`a, b, c … +27 more`), the first part cut when even
    /// it does not fit (`Kubern… +29 more`); the suffix is dropped before the count is. No
    /// answer of several parts is cut without saying how many are left out while there is
    /// room for the count.
    pub fn fit_answers(&self, parts: &[String], suffix: &str, room: usize) -> String {
        let width = |s: &str| crate::text::width_of_in(s, self.charset);
        let whole = format!("{}{suffix}", parts.join(", "));
        if width(&whole) <= room {
            return whole;
        }
        let ellipsis = self.glyph(Glyph::Ellipsis);
        let suffixes: &[&str] = if suffix.is_empty() {
            &[""]
        } else {
            &[suffix, ""]
        };
        let n = parts.len();
        for suffix in suffixes {
            let tail = |shown: usize| format!(" {ellipsis} +{} more{suffix}", n - shown);
            // The most parts that fit before the count of the others: once they do not, more
            // never do (each part adds 2 columns at least, the count loses 1 at most).
            let (mut shown, mut used) = (0, 0);
            for (k, part) in parts.iter().enumerate().take(n - 1) {
                used += width(part) + if k > 0 { 2 } else { 0 };
                if used + width(&tail(k + 1)) > room {
                    break;
                }
                shown = k + 1;
            }
            if shown > 0 {
                return format!("{}{}", parts[..shown].join(", "), tail(shown));
            }
            let tail = match parts.len() {
                1 => suffix.to_string(),
                n => format!(" +{} more{suffix}", n - 1),
            };
            if let Some(left) = room.checked_sub(width(&tail)).filter(|l| *l >= 2) {
                return format!("{}{tail}", self.fit_keeping_end(&parts[0], left));
            }
        }
        self.fit(&whole, room)
    }

    fn collapsed_as(&self, name: &str, value: &str, answered: bool, width: usize) -> String {
        let (name, left) = self.fitted_name(name, width);
        let value = self.fit(value, left);
        let theme: &dyn Theme = match (self.colour, answered) {
            (false, _) => &SimpleTheme,
            (true, true) => &self.colorful,
            (true, false) => &self.unanswered,
        };
        let mut out = String::new();
        let _ = theme.format_input_prompt_selection(&mut out, &name, &value);
        out
    }

    /// A line of less weight (help, descriptions, notes): dim when colour is on.
    pub fn hint(&self, text: &str, width: usize) -> String {
        let text = self.fit(text, width);
        if self.colour {
            style(text).for_stderr().dim().to_string()
        } else {
            text
        }
    }

    /// A header line (the title, the question's number and label): bold when colour is on.
    pub fn heading(&self, text: &str, width: usize) -> String {
        let text = self.fit(text, width);
        if self.colour {
            Style::new().for_stderr().bold().apply_to(text).to_string()
        } else {
            text
        }
    }

    /// The last transcript line: how the run ended (`✔ Submitted`, `✘ Cancelled: …`).
    pub fn ending(&self, ending: &Ending, width: usize) -> String {
        self.ending_from(ending, None, width)
    }

    /// [`Look::ending`] for questions answered from elsewhere by `from`
    /// ([`ending_words_from`]).
    pub fn ending_from(&self, ending: &Ending, from: Option<&str>, width: usize) -> String {
        let (ok, words) = ending_words_from(ending, from);
        let text = self.fit(&words, width.saturating_sub(2));
        match (self.colour, ok) {
            (false, true) => format!("{} {text}", self.glyph(Glyph::Tick)),
            (false, false) => format!("{} {text}", self.glyph(Glyph::Cross)),
            (true, true) => format!("{} {}", self.colorful.success_prefix, text),
            (true, false) => format!("{} {}", self.colorful.error_prefix, text),
        }
    }
}

/// dialoguer's `ColorfulTheme`, its glyphs spelled in `charset`; with only the `basic` colours
/// ([`set_palette`]), its grey (256-colour `38;5;8`) written faint instead.
fn colorful_theme(charset: Charset, basic: bool) -> ColorfulTheme {
    let theme = ColorfulTheme::default();
    if charset == Charset::Utf8 && !basic {
        return theme;
    }
    let grey = |text: &str| match basic {
        true => style(text.to_string()).for_stderr().dim(),
        false => style(text.to_string()).for_stderr().black().bright(),
    };
    let grey_style = match basic {
        true => Style::new().for_stderr().dim(),
        false => Style::new().for_stderr().black().bright(),
    };
    // The styles are dialoguer 0.12's defaults (a StyledObject's text cannot be swapped).
    ColorfulTheme {
        prompt_prefix: style("?".to_string()).for_stderr().yellow(),
        prompt_suffix: grey(charset.glyph(Glyph::PromptSuffix)),
        success_prefix: style(charset.glyph(Glyph::Tick).to_string())
            .for_stderr()
            .green(),
        success_suffix: grey(charset.glyph(Glyph::Dot)),
        hint_style: grey_style,
        error_prefix: style(charset.glyph(Glyph::Cross).to_string())
            .for_stderr()
            .red(),
        active_item_prefix: style(charset.glyph(Glyph::Pointer).to_string())
            .for_stderr()
            .green(),
        checked_item_prefix: style(charset.glyph(Glyph::Checked).to_string())
            .for_stderr()
            .green(),
        unchecked_item_prefix: style(charset.glyph(Glyph::Unchecked).to_string())
            .for_stderr()
            .magenta(),
        picked_item_prefix: style(charset.glyph(Glyph::Pointer).to_string())
            .for_stderr()
            .green(),
        ..theme
    }
}

/// Question `q` collapsed into its transcript line ([`Look::collapsed`]): its name
/// ([`transcript_name`]), its answer ([`answer_text`]) and, when it has notes, `(+ N notes)`;
/// `sent`: whether the answer went to the caller ([`answers_sent`]; else [`Look::not_sent`]).
pub fn transcript_line(
    look: &Look,
    payload: &Payload,
    answers: &AnswerState,
    q: usize,
    width: usize,
    sent: bool,
) -> String {
    let name = transcript_name(&payload.questions[q]);
    let notes = note_lines(payload, answers, q).len();
    let parts = answer_parts(payload, answers, q);
    let suffix = match notes {
        0 => String::new(),
        n => format!(" (+ {})", plural_notes(n)),
    };
    let answer = (!parts.is_empty())
        .then(|| look.fit_answers(&parts, &suffix, look.answer_room(&name, width, sent)));
    match (answer, notes) {
        (Some(a), _) if !sent => look.not_sent(&name, &a, width),
        (Some(a), _) => look.collapsed(&name, Some(&a), width),
        (None, 0) => look.collapsed(&name, None, width),
        (None, n) => look.unanswered(&name, &format!("no answer (+ {})", plural_notes(n)), width),
    }
}

/// "note" or "N notes".
fn plural_notes(n: usize) -> String {
    if n == 1 {
        "note".to_string()
    } else {
        format!("{n} notes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::parse_payload;
    use crate::flow::{Command, Flow};
    use serde_json::json;

    /// Items drawn from the theme's frame are byte for byte what the theme writes itself.
    #[test]
    fn items_are_the_themes_own_lines() {
        for colour in [false, true] {
            for charset in [Charset::Utf8, Charset::Ascii] {
                let look = Look::with_charset(colour, charset);
                for text in ["", "1. Terse", "( ) caf\u{e9} \u{2026}", "\u{1b}[31mx"] {
                    for active in [false, true] {
                        let mut own = String::new();
                        let _ = look
                            .theme()
                            .format_select_prompt_item(&mut own, text, active);
                        assert_eq!(look.item(text, active), own);
                        for checked in [false, true] {
                            let mut own = String::new();
                            let _ = look
                                .theme()
                                .format_multi_select_prompt_item(&mut own, text, checked, active);
                            let own = look.multi_mark(active) + &own;
                            assert_eq!(look.multi_item(text, checked, active), own);
                        }
                    }
                }
            }
        }
    }

    fn payload() -> Payload {
        parse_payload(
            &json!({"title": "T", "questions": [
                {"id": "s", "label": "Style", "prompt": "How?", "required": true,
                 "options": [{"value": "a", "label": "Terse"}, {"value": "b", "label": "Rich"}]},
                {"id": "m", "prompt": "Which ones?", "type": "multi",
                 "options": [{"value": "x", "label": "X"}, {"value": "y", "label": "Y"}]}]})
            .to_string(),
        )
        .unwrap()
    }

    #[test]
    fn a_cut_answer_keeps_its_end_in_the_transcript_line() {
        let label = |end: &str| {
            format!("This is a very long option label that keeps going well past the width of an eighty column terminal so it must wrap or be cut somewhere sensible ({end})")
        };
        let p = parse_payload(
            &json!({"questions": [{"id": "l", "label": "Long labels", "prompt": "Which?",
                "options": [{"value": "a", "label": label("A")}, {"value": "b", "label": label("B")}]}]})
            .to_string(),
        )
        .unwrap();
        let mut flow = Flow::new(&p);
        flow.apply(Command::Choose(1)).unwrap();
        let look = Look::with_charset(true, Charset::Utf8);
        let line = transcript_line(&look, &p, flow.answers(), 0, 79, true);
        assert_eq!(
            console::strip_ansi_codes(&line),
            "\u{2714} Long labels \u{b7} This is a very long option label that keeps \u{2026} sensible (B)"
        );
    }

    #[test]
    fn a_secret_custom_text_is_six_bullets_in_every_view_and_stars_in_ascii() {
        let p = parse_payload(
            &json!({"questions": [{"id": "t", "label": "Token", "prompt": "Token?", "secret": true,
                "type": "multi", "options": [{"value": "a", "label": "A"}]}]})
            .to_string(),
        )
        .unwrap();
        let mut flow = Flow::new(&p);
        flow.apply(Command::Toggle(0)).unwrap();
        flow.apply(Command::SaveCustomText("hunter2 and more".into()))
            .unwrap();
        assert_eq!(
            summary_text(&p, flow.answers(), 0),
            format!("A, {SECRET_SHOWN}")
        );
        let row = crate::ui::question::row_text(
            &p,
            flow.answers(),
            0,
            crate::ui::question::Row::TypeOwn,
            false,
            false,
        );
        assert!(row.ends_with(SECRET_SHOWN), "{row}");
        let review = crate::ui::review::question_lines(&p, flow.answers(), 0);
        assert!(
            review.iter().all(|l| !format!("{l:?}").contains("hunter2")),
            "{review:?}"
        );
        assert_eq!(flow.answers().custom_text(0), Some("hunter2 and more"));
        assert_eq!(Charset::Ascii.write(SECRET_SHOWN), "******");
    }

    #[test]
    fn the_summary_is_labels_then_quoted_custom_text_or_no_answer() {
        let p = payload();
        let mut flow = Flow::new(&p);
        assert_eq!(summary_text(&p, flow.answers(), 0), "no answer (required)");
        assert_eq!(summary_text(&p, flow.answers(), 1), "no answer");
        flow.apply(Command::Choose(1)).unwrap();
        flow.apply(Command::Toggle(1)).unwrap();
        flow.apply(Command::Toggle(0)).unwrap();
        flow.apply(Command::SaveCustomText("mine".into())).unwrap();
        assert_eq!(summary_text(&p, flow.answers(), 0), "Rich");
        assert_eq!(summary_text(&p, flow.answers(), 1), "X, Y, “mine”");
    }

    #[test]
    fn an_ascii_look_draws_only_ascii_in_both_themes() {
        let p = payload();
        let mut flow = Flow::new(&p);
        flow.apply(Command::Choose(0)).unwrap();
        console::set_colors_enabled_stderr(false);
        let plain = Look::with_charset(false, Charset::Ascii);
        let colour = Look::with_charset(true, Charset::Ascii);
        let strip = |s: String| console::strip_ansi_codes(&s).into_owned();
        assert_eq!(plain.select_item("Caf\u{e9}", true, 80), "> Caf\\u{e9}");
        assert_eq!(
            strip(colour.select_item("Caf\u{e9}", true, 80)),
            "> Caf\\u{e9}"
        );
        // (dialoguer's colourful multi-select marks the active item by its colour alone: the
        // look adds `>`.)
        assert_eq!(
            strip(colour.multi_select_item("X", true, false, 80)),
            "  [x] X"
        );
        assert_eq!(
            strip(colour.multi_select_item("X", false, true, 80)),
            "> [ ] X"
        );
        assert_eq!(plain.multi_select_item("X", true, true, 80), "> [x] X");
        assert_eq!(strip(colour.prompt("How?", 80)), "? How? >");
        assert_eq!(
            strip(transcript_line(&colour, &p, flow.answers(), 0, 80, true)),
            "+ Style - Terse"
        );
        assert_eq!(
            strip(transcript_line(&colour, &p, flow.answers(), 1, 80, true)),
            "x Which ones? - no answer"
        );
        assert_eq!(
            plain.ending(&Ending::Dismissed, 80),
            "x Cancelled: the answers were not sent"
        );
        assert_eq!(
            plain.hint("a \u{2190}\u{2192} b \u{2026}", 80),
            "a <- -> b ..."
        );
        assert_eq!(plain.fit("abcdefghij", 8), "abcde...");
        assert_eq!(plain.glyph(Glyph::UpDown), "Up/Down");
        assert_eq!(colour.item_indent(), 2);
    }

    #[test]
    fn custom_text_is_shown_alike_on_every_screen() {
        let p = parse_payload(
            r#"{"questions":[{"id":"q","label":"Q","prompt":"?","options":[{"value":"a","label":"A"}]}]}"#,
        )
        .unwrap();
        let mut flow = Flow::new(&p);
        flow.apply(Command::SaveCustomText("two\nlines".into()))
            .unwrap();
        let shown = shown_custom_text(&p.questions[0], "two\nlines");
        assert_eq!(shown, "\u{201c}two\u{21b5} lines\u{201d}");
        let a = flow.answers();
        assert_eq!(answer_text(&p, a, 0).as_deref(), Some(shown.as_str()));
        let review = crate::ui::review::question_lines(&p, a, 0);
        assert_eq!(review[1].text, format!("\u{2192} {shown}"));
        let row = crate::ui::question::row_text(
            &p,
            a,
            0,
            crate::ui::question::Row::TypeOwn,
            false,
            false,
        );
        assert!(row.ends_with(&format!(" {shown}")), "{row}");
    }

    #[test]
    fn transcript_lines_in_both_themes() {
        let p = payload();
        let mut flow = Flow::new(&p);
        flow.apply(Command::Choose(0)).unwrap();
        flow.apply(Command::SetNote {
            question: 0,
            text: "why".into(),
        })
        .unwrap();
        let plain = Look::new(false);
        assert_eq!(
            transcript_line(&plain, &p, flow.answers(), 0, 80, true),
            "Style: Terse (+ note)"
        );
        // No label given: the prompt names the question.
        assert_eq!(
            transcript_line(&plain, &p, flow.answers(), 1, 80, true),
            "Which ones?: no answer"
        );
        console::set_colors_enabled_stderr(false);
        let colour = Look::new(true);
        assert_eq!(
            console::strip_ansi_codes(&transcript_line(&colour, &p, flow.answers(), 0, 80, true)),
            "✔ Style · Terse (+ note)"
        );
        assert_eq!(
            console::strip_ansi_codes(&transcript_line(&colour, &p, flow.answers(), 1, 80, true)),
            "✘ Which ones? · no answer"
        );
        // A label the payload gave names the question, even one that reads as the fallback.
        let mut given = payload();
        given.questions[0].label = "Q1".into();
        assert_eq!(
            transcript_line(&plain, &given, flow.answers(), 0, 80, true),
            "Q1: Terse (+ note)"
        );
    }

    #[test]
    fn a_transcript_line_cut_says_how_many_answers_it_does_not_show() {
        let options: Vec<serde_json::Value> = (1..=30)
            .map(|i| json!({"value": format!("v{i}"), "label": format!("Tool {i}")}))
            .collect();
        let p = parse_payload(
            &json!({"questions": [{"id": "t", "label": "Tools", "prompt": "Which?",
                "type": "multi", "options": options}]})
            .to_string(),
        )
        .unwrap();
        let mut flow = Flow::new(&p);
        for o in 0..30 {
            flow.apply(Command::Toggle(o)).unwrap();
        }
        flow.apply(Command::SetNote {
            question: 0,
            text: "why".into(),
        })
        .unwrap();
        let plain = Look::new(false);
        let line = |width| transcript_line(&plain, &p, flow.answers(), 0, width, true);
        assert_eq!(
            line(60),
            "Tools: Tool 1, Tool 2, Tool 3, Tool 4 \u{2026} +26 more (+ note)"
        );
        // Narrower: the notes go before the count; then the first label is cut.
        assert_eq!(line(24), "Tools: Tool 1 \u{2026} +29 more");
        assert_eq!(line(20), "Tools: Too\u{2026} +29 more");
        // Colour, and a line not sent (dim, `- Tools · …`), count the same way.
        console::set_colors_enabled_stderr(false);
        let colour = Look::new(true);
        assert_eq!(
            console::strip_ansi_codes(&transcript_line(&colour, &p, flow.answers(), 0, 60, true)),
            "\u{2714} Tools \u{b7} Tool 1, Tool 2, Tool 3, Tool 4 \u{2026} +26 more (+ note)"
        );
        assert_eq!(
            console::strip_ansi_codes(&transcript_line(&colour, &p, flow.answers(), 0, 60, false)),
            "- Tools \u{b7} Tool 1, Tool 2, Tool 3, Tool 4 \u{2026} +26 more (+ note)"
        );
        // 100,000 parts: one pass, as many as fit.
        let many: Vec<String> = (1..=100_000).map(|i| format!("o{i}")).collect();
        assert_eq!(
            plain.fit_answers(&many, "", 30),
            "o1, o2, o3, o4 \u{2026} +99996 more"
        );
        // In ASCII the ellipsis is three dots.
        let ascii = Look::with_charset(false, Charset::Ascii);
        assert_eq!(
            transcript_line(&ascii, &p, flow.answers(), 0, 60, true),
            "Tools: Tool 1, Tool 2, Tool 3, Tool 4 ... +26 more (+ note)"
        );
    }

    #[test]
    fn an_elaborate_ending_says_what_each_note_asked() {
        let p = payload();
        let mut flow = Flow::new(&p);
        flow.apply(Command::SetNote {
            question: 0,
            text: "why?".into(),
        })
        .unwrap();
        flow.apply(Command::SetOptionNote {
            question: 0,
            option: 1,
            text: "and this?".into(),
        })
        .unwrap();
        let asked = asked_lines(&p, flow.answers(), 0);
        assert_eq!(asked, ["asked: why?", "asked about Rich: and this?"]);
        assert_eq!(
            Look::new(false).asked("Style", &asked[1], 80),
            "? Style \u{b7} asked about Rich: and this?"
        );
        console::set_colors_enabled_stderr(false);
        assert_eq!(
            console::strip_ansi_codes(&Look::new(true).asked("Style", &asked[1], 20)),
            "? Style \u{b7} asked abo\u{2026}"
        );
    }

    #[test]
    fn items_are_fitted_before_they_are_styled() {
        let look = Look::new(false);
        assert_eq!(look.select_item("abcdefghij", true, 8), "> abcde…");
        assert_eq!(
            look.multi_select_item("abcdefghij", true, false, 10),
            "  [x] abc…"
        );
        let hearts = "Love ❤️".repeat(30);
        let line = look.select_item(&hearts, false, 31);
        assert!(crate::text::width_of(&line) <= 31, "{line}");
    }

    #[test]
    fn colour_follows_no_color_clicolor_and_the_terminal() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert!(colour_wanted(env(&[("TERM", "xterm")]), true));
        assert!(!colour_wanted(env(&[("TERM", "xterm")]), false));
        assert!(!colour_wanted(env(&[("NO_COLOR", "1")]), true));
        assert!(colour_wanted(env(&[("NO_COLOR", "")]), true));
        assert!(!colour_wanted(env(&[("CLICOLOR", "0")]), true));
        assert!(colour_wanted(env(&[("CLICOLOR_FORCE", "1")]), false));
        assert!(!colour_wanted(env(&[("TERM", "dumb")]), true));
        assert!(!colour_wanted(env(&[("TERM", "xterm-mono")]), true));
        assert!(!colour_wanted(env(&[("TERM", "vt100")]), true));
        assert!(colour_wanted(
            env(&[("TERM", "vt100"), ("CLICOLOR_FORCE", "1")]),
            true
        ));
    }

    #[test]
    fn the_palette_follows_the_terminals_name() {
        let of =
            |term: Option<&str>, colorterm: Option<&str>| Palette::of_terminal(term, colorterm);
        for mono in [
            "dumb",
            "vt100",
            "vt220",
            "VT102",
            "xterm-mono",
            "ansi-m",
            "linux-m1",
        ] {
            let want = match mono {
                "linux-m1" => Palette::Basic,
                _ => Palette::Mono,
            };
            assert_eq!(of(Some(mono), None), want, "{mono}");
        }
        for basic in [
            "xterm",
            "linux",
            "screen",
            "ansi",
            "rxvt",
            "xterm-color",
            "vt100-color",
        ] {
            assert_eq!(of(Some(basic), None), Palette::Basic, "{basic}");
        }
        assert_eq!(of(None, None), Palette::Basic);
        for full in [
            "xterm-256color",
            "tmux-256color",
            "screen.xterm-256color",
            "xterm-direct",
            "alacritty",
            "xterm-kitty",
            "foot-extra",
            "wezterm",
        ] {
            assert_eq!(of(Some(full), None), Palette::Full, "{full}");
        }
        assert_eq!(of(Some("xterm"), Some("truecolor")), Palette::Full);
        assert_eq!(of(Some("xterm"), Some("yes")), Palette::Basic);
    }

    #[test]
    fn basic_colours_write_no_256_colour_code_and_every_multi_select_row_has_a_mark() {
        // The theme's grey, styled whatever console's switch says (other tests turn it off).
        let greys = |basic: bool| {
            let theme = colorful_theme(Charset::Utf8, basic);
            [
                theme.prompt_suffix.clone().force_styling(true).to_string(),
                theme.success_suffix.clone().force_styling(true).to_string(),
                theme
                    .hint_style
                    .clone()
                    .force_styling(true)
                    .apply_to("x")
                    .to_string(),
            ]
        };
        for grey in greys(true) {
            assert!(grey.starts_with("\x1b[2m"), "{grey:?}");
        }
        for grey in greys(false) {
            assert!(grey.starts_with("\x1b[38;5;8m"), "{grey:?}");
        }
        let full = Look::with_palette(true, Charset::Utf8, false);
        let strip = |s: String| console::strip_ansi_codes(&s).into_owned();
        assert_eq!(
            strip(full.multi_select_item("Alpha", false, true, 80)),
            "\u{276f} \u{2b1a} Alpha"
        );
        assert_eq!(
            strip(full.multi_select_item("Beta", true, false, 80)),
            "  \u{2714} Beta"
        );
    }
}

#[cfg(test)]
mod narrow_tests {
    use super::*;

    /// Found by the tty_session fuzz target: at 10 columns the line `Log for…: …` took 11 (the
    /// name kept 8 columns and the value 1 whatever the width) and wrapped.
    #[test]
    fn a_collapsed_line_stays_within_any_width() {
        let look = Look::with_charset(false, crate::text::Charset::Utf8);
        for width in 4..=12 {
            let line = look.collapsed("Log format for the service", Some("JSON lines"), width);
            assert!(
                crate::text::width_of(&console::strip_ansi_codes(&line)) <= width,
                "{width}: {line:?}"
            );
        }
        assert_eq!(look.collapsed("Log format", Some("JSON"), 9), "Log f…: …");
        assert_eq!(
            look.collapsed("Log format", Some("JSON"), 14),
            "Log for…: JSON"
        );
    }
}

//! The full terminal front end: dialoguer prompts and rustyline editors on `/dev/tty`
//! (docs/interactive.md describes the screens and keys).
//!
//! The flow walks the questions in order, one screen each, then shows the review menu:
//!
//! - `single` and `preview` questions are a dialoguer `Select`, `multi` questions a
//!   `MultiSelect` (Space toggles, Enter confirms). Preview questions show the highlighted
//!   option's preview under it, sized to the terminal, and a "View full preview…" row opens a
//!   pager where every line is reachable.
//! - Under the options come action rows (dialoguer has no custom keys): "Type your own…"
//!   (non-preview questions), "Note on this question…", "Note on an option…", "← Back",
//!   "Next →". In a `MultiSelect`, Enter on an action row runs it (the ticks are kept).
//!   "Full text…" (when some text on the screen was cut) opens a pager with the uncut title,
//!   label, prompt and one option's text; "Filter options…" / "Clear the filter" (when the
//!   options do not fit on one page) show only the options matching a filter text, keeping
//!   their original positions (the result's `indices`).
//! - Short windows (under 14 rows) get a compact header so the options stay on screen; a
//!   resized window is laid out again at the next key (a `Select` ends with [`Resized`] and
//!   its screen is drawn anew on the same row).
//! - Free-form answers and notes use [`crate::editor`]: Enter saves (and, for an answer,
//!   moves on), Esc saves the draft and returns to the question, Ctrl+C dismisses the flow.
//! - The review menu lists every question with its answer and notes, re-opens any of them,
//!   edits notes, and submits (asking to confirm when `required` questions are unanswered;
//!   never refusing) or cancels.
//! - Esc at a question or in the review cancels the flow (asking to confirm when answers would
//!   be lost); Ctrl+C anywhere dismisses it at once.
//!
//! Every payload string is drawn through [`crate::sanitize`], and every drawn line is cut to
//! the terminal width by display width, so wide text leaves no ghost lines. Items are handed
//! to dialoguer as short row numbers and drawn by a [`Theme`] from the payload, so only the
//! visible page is ever formatted (fast with 100,000 options) and dialoguer's own line
//! arithmetic never sees wide text. The flow runs on the alternate screen, which
//! [`crate::terminal::RestoreGuard`] leaves on every exit.
//!
//! Answer rules all live in [`AnswerState`]; this module only turns choices into calls on it.

use super::{AskOptions, Outcome};
use crate::answers::AnswerState;
use crate::complete::AtCompleter;
use crate::contract::{Payload, Question, QuestionType};
use crate::editor::{self, Edit};
use crate::sanitize::{for_terminal, one_line};
use crate::terminal;
use console::{measure_text_width, Key, Term};
use dialoguer::theme::Theme;
use dialoguer::{MultiSelect, Select};
use std::cell::Cell;
use std::fmt;
use std::io;

/// Asks every question on the terminal, then shows the review; returns how the flow ended.
///
/// Ends with [`Outcome::Submitted`] (Submit in the review), [`Outcome::Dismissed`] (Esc and
/// confirm, Cancel, Ctrl+C) or [`Outcome::Aborted`] with `terminal_lost` when the terminal
/// fails. The terminal is restored before it returns.
pub fn ask(payload: &Payload, state: &mut AnswerState, opts: &AskOptions) -> Outcome {
    let term = match terminal::open_term() {
        Ok(t) => t,
        Err(e) => {
            return Outcome::Aborted {
                code: crate::contract::ErrorCode::TerminalLost,
                message: format!("cannot open the terminal: {e}"),
            }
        }
    };
    let _screen = terminal::RestoreGuard::new(true);
    terminal::quiet_input();
    terminal::keep_resizes_from_interrupting_reads();
    let mut flow = Flow {
        payload,
        state,
        term,
        highlight: vec![None; payload.questions.len()],
        last_row: Cell::new(None),
        completer: AtCompleter::new(opts.cwd.clone()),
        filters: vec![None; payload.questions.len()],
    };
    let outcome = flow.run();
    let _ = flow.term.clear_screen();
    match outcome {
        Ok(outcome) => outcome,
        Err(e) if e.kind() == io::ErrorKind::Interrupted => Outcome::Dismissed,
        Err(e) => Outcome::Aborted {
            code: crate::contract::ErrorCode::TerminalLost,
            message: format!("the terminal failed: {e}"),
        },
    }
}

/// The fewest rows a dialoguer prompt can be drawn in (its paging needs 3).
const MIN_ROWS: u16 = 3;

/// Columns kept free after a help line for dialoguer's " [Page 12/345] ".
const PAGE_INFO: usize = 16;

/// An action row under a question's options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Action {
    TypeOwn,
    ViewPreview,
    NoteQuestion,
    NoteOption,
    Back,
    Next,
    /// "Full text…": the uncut title, label, prompt and one option's text in the pager.
    FullText,
    /// "Filter options…": edit the question's filter text.
    Filter,
    /// "Clear the filter": show every option again.
    ClearFilter,
}

/// A review-menu row after the questions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ReviewAction {
    Submit,
    NoteQuestion,
    NoteOption,
    Cancel,
}

const REVIEW_ACTIONS: [ReviewAction; 4] = [
    ReviewAction::Submit,
    ReviewAction::NoteQuestion,
    ReviewAction::NoteOption,
    ReviewAction::Cancel,
];

/// Where the flow goes after a screen.
enum Step {
    Question(usize),
    Review,
    Done(Outcome),
}

struct Flow<'a> {
    payload: &'a Payload,
    state: &'a mut AnswerState,
    term: Term,
    /// The row to highlight when a question is shown again.
    highlight: Vec<Option<usize>>,
    /// The row the cursor was on when the last `Select` ended (also on Esc).
    last_row: Cell<Option<usize>>,
    /// `@` completion in every editor, rooted at `--cwd`; one file index per flow.
    completer: AtCompleter,
    /// Each question's option filter ("Filter options…"), `None` when all options show.
    filters: Vec<Option<String>>,
}

/// A dialoguer theme that draws rows from a callback: dialoguer is given row numbers as
/// item texts, the callback turns a row number into its (possibly multi-line) text.
struct RowTheme<'r> {
    help: String,
    render: &'r dyn Fn(usize, Option<bool>, bool) -> String,
    last_active: Cell<Option<usize>>,
    /// The terminal and its size (rows, columns) when the screen was laid out.
    term: &'r Term,
    size: (u16, u16),
    /// Set when a render finds the window resized; with `restart`, that render fails (at
    /// the highlighted row, after noting it) so the caller lays the screen out again.
    resized: Cell<bool>,
    restart: bool,
}

impl RowTheme<'_> {
    fn item(
        &self,
        f: &mut dyn fmt::Write,
        text: &str,
        checked: Option<bool>,
        active: bool,
    ) -> fmt::Result {
        let row = text.parse().unwrap_or(0);
        if active {
            self.last_active.set(Some(row));
        }
        if !self.resized.get() && self.term.size() != self.size {
            self.resized.set(true);
        }
        if active && self.restart && self.resized.get() {
            return Err(fmt::Error);
        }
        f.write_str(&(self.render)(row, checked, active))
    }
}

impl Theme for RowTheme<'_> {
    fn format_select_prompt(&self, f: &mut dyn fmt::Write, _: &str) -> fmt::Result {
        f.write_str(&self.help)
    }

    fn format_multi_select_prompt(&self, f: &mut dyn fmt::Write, _: &str) -> fmt::Result {
        f.write_str(&self.help)
    }

    fn format_select_prompt_item(
        &self,
        f: &mut dyn fmt::Write,
        text: &str,
        active: bool,
    ) -> fmt::Result {
        self.item(f, text, None, active)
    }

    fn format_multi_select_prompt_item(
        &self,
        f: &mut dyn fmt::Write,
        text: &str,
        checked: bool,
        active: bool,
    ) -> fmt::Result {
        self.item(f, text, Some(checked), active)
    }
}

/// Columns a drawn line may use: the terminal width less one (a line that fills the last
/// column makes some terminals wrap), at least 10.
fn term_width(term: &Term) -> usize {
    (term.size().1 as usize).saturating_sub(1).max(10)
}

/// `text` cut to `width` display columns (with "…"), so no line wraps. Combining marks
/// stay with their letter.
fn fit(text: &str, width: usize) -> String {
    if width_of(text) <= width {
        return text.to_string();
    }
    let budget = width.saturating_sub(1);
    if text.is_ascii() {
        return format!("{}…", &text[..budget]);
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = measure_text_width(c.encode_utf8(&mut [0; 4]));
        if used + w > budget {
            break;
        }
        out.push(c);
        used += w;
    }
    out.push('…');
    out
}

/// `text` (already safe to draw) wrapped to `width` display columns, line breaks kept.
fn wrap(text: &str, width: usize) -> Vec<String> {
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
        if measure_text_width(&line) <= width {
            out.push(line);
            continue;
        }
        let mut cur = String::new();
        let mut cur_w = 0;
        for c in line.chars() {
            let w = measure_text_width(c.encode_utf8(&mut [0; 4]));
            if cur_w + w > width && !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
                cur_w = 0;
            }
            cur.push(c);
            cur_w += w;
        }
        out.push(cur);
    }
    out
}

/// `text` (already safe to draw) wrapped to `width` display columns between words, like
/// prose; a word longer than a line is broken. For prompts; previews keep [`wrap`], which
/// keeps every character (code, aligned columns) as it is.
fn wrap_words(text: &str, width: usize) -> Vec<String> {
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
fn wrap_head(text: &str, width: usize, max: usize) -> Vec<String> {
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
fn wrapped_len(text: &str, width: usize, cap: usize) -> usize {
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
fn quote(text: &str) -> String {
    format!("\u{201c}{}\u{201d}", one_line(text))
}

/// The error a `Select` ends with when the window was resized while it was up: the screen
/// is laid out again at the new size (see [`RowTheme`]).
#[derive(Debug)]
struct Resized;

impl fmt::Display for Resized {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the terminal was resized")
    }
}

impl std::error::Error for Resized {}

fn is_resized(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|i| i.is::<Resized>())
}

/// Whether `option` matches the filter `needle` (already lowercased): its label, value or
/// description contains it, ignoring case.
fn matches_filter(option: &crate::contract::QuestionOption, needle: &str) -> bool {
    let has = |t: &str| {
        if t.is_ascii() && needle.is_ascii() {
            t.to_ascii_lowercase().contains(needle)
        } else {
            t.to_lowercase().contains(needle)
        }
    };
    has(&option.label) || has(&option.value) || option.description.as_deref().is_some_and(has)
}

/// Display columns of `text` (ASCII counted by bytes).
fn width_of(text: &str) -> usize {
    if text.is_ascii() {
        text.len()
    } else {
        measure_text_width(text)
    }
}

/// Runs a screen `f` again (laid out at the new size) each time it ends with [`Resized`].
fn again<T>(mut f: impl FnMut() -> io::Result<T>) -> io::Result<T> {
    loop {
        match f() {
            Err(e) if is_resized(&e) => continue,
            other => return other,
        }
    }
}

fn to_io(e: dialoguer::Error) -> io::Error {
    match e {
        dialoguer::Error::IO(e) => e,
    }
}

impl Flow<'_> {
    /// Runs a dialoguer prompt once the window has the 3 rows dialoguer needs (it panics
    /// below that): until then a one-line notice waits for a key. A panic inside the prompt
    /// (the window shrank while it was up) becomes [`Resized`], so the screen is laid out
    /// again instead of the flow ending.
    fn with_room<T>(&self, prompt: impl FnOnce() -> io::Result<T>) -> io::Result<T> {
        while self.term.size().0 < MIN_ROWS {
            let _ = self.term.clear_screen();
            let _ = self.term.write_str(&fit(
                "Window too small: enlarge it, then press a key",
                self.width(),
            ));
            self.term.read_key()?;
        }
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(prompt)) {
            Ok(result) => result,
            Err(_) => Err(io::Error::other(Resized)),
        }
    }

    fn run(&mut self) -> io::Result<Outcome> {
        let mut step = Step::Question(0);
        let mut from_review = false;
        loop {
            step = match step {
                Step::Question(q) => {
                    let next = self.question(q)?;
                    match next {
                        Step::Question(n) if n > q && from_review => Step::Review,
                        other => other,
                    }
                }
                Step::Review => {
                    from_review = true;
                    self.review()?
                }
                Step::Done(outcome) => return Ok(outcome),
            };
        }
    }

    fn width(&self) -> usize {
        term_width(&self.term)
    }

    fn rows(&self) -> usize {
        (self.term.size().0 as usize).max(5)
    }

    /// Whether the screen is short (under 14 rows): headers then drop the title and the
    /// blank line and keep the prompt to one line, so the options stay on screen. The full
    /// title and prompt are in the "Full text…" pager.
    fn compact(&self) -> bool {
        self.rows() < 14
    }

    /// The header lines (title, progress marker and label, prompt, blank line) at the
    /// current size, and whether any of that text was cut to fit.
    fn header_lines(&self, q: Option<usize>) -> (Vec<String>, bool) {
        let width = self.width();
        let compact = self.compact();
        let mut lines = Vec::new();
        let mut cut = false;
        if let Some(title) = &self.payload.title {
            let title = one_line(title);
            cut |= compact || width_of(&title) > width;
            if !compact {
                lines.push(fit(&title, width));
            }
        }
        match q {
            Some(q) => {
                let question = &self.payload.questions[q];
                let n = self.payload.questions.len();
                let required = if question.required { " (required)" } else { "" };
                let marker = format!("{}/{} {}{required}", q + 1, n, one_line(&question.label));
                cut |= width_of(&marker) > width;
                lines.push(fit(&marker, width));
                let max_prompt = if compact { 1 } else { (self.rows() / 4).max(1) };
                let mut prompt = wrap_words(&for_terminal(&question.prompt), width);
                if prompt.len() > max_prompt {
                    cut = true;
                    prompt.truncate(max_prompt);
                    let last = prompt.pop().unwrap_or_default();
                    prompt.push(fit(&format!("{last}…"), width));
                }
                lines.extend(prompt);
            }
            None => lines.push("Review your answers".to_string()),
        }
        if !compact {
            lines.push(String::new());
        }
        (lines, cut)
    }

    /// Clears the screen and draws the title and, for a question, its progress marker and
    /// prompt (see [`Flow::header_lines`]). Returns the number of lines drawn.
    fn header(&self, q: Option<usize>) -> io::Result<usize> {
        self.term.clear_screen()?;
        let (lines, _) = self.header_lines(q);
        for line in &lines {
            self.term.write_line(line)?;
        }
        Ok(lines.len())
    }

    /// A `Select` over `rows` rows drawn by `render`; `None` on Esc or `q`.
    fn select(
        &self,
        help: &str,
        rows: usize,
        default: usize,
        max_length: usize,
        render: &dyn Fn(usize, Option<bool>, bool) -> String,
    ) -> io::Result<Option<usize>> {
        let theme = RowTheme {
            help: fit(help, self.width().saturating_sub(PAGE_INFO)),
            render,
            last_active: Cell::new(None),
            term: &self.term,
            size: self.term.size(),
            resized: Cell::new(false),
            restart: true,
        };
        let picked = self.with_room(|| {
            Select::with_theme(&theme)
                .with_prompt("-")
                .report(false)
                .items((0..rows).map(|i| i.to_string()))
                .default(default.min(rows.saturating_sub(1)))
                .max_length(max_length.max(1))
                .interact_on_opt(&self.term)
                .map_err(to_io)
        });
        self.last_row.set(theme.last_active.get());
        match picked {
            Err(_) if theme.resized.get() => Err(io::Error::other(Resized)),
            other => other,
        }
    }

    /// Asks a yes/no question as a two-row menu; Esc means no.
    fn confirm(&self, q: Option<usize>, question: &str, yes: &str, no: &str) -> io::Result<bool> {
        again(|| self.confirm_once(q, question, yes, no))
    }

    fn confirm_once(
        &self,
        q: Option<usize>,
        question: &str,
        yes: &str,
        no: &str,
    ) -> io::Result<bool> {
        let header = self.header(q)?;
        self.term
            .write_line(&fit(&one_line(question), self.width()))?;
        let width = self.width();
        let render = |row: usize, _: Option<bool>, active: bool| {
            let label = if row == 0 { no } else { yes };
            fit(
                &format!("{} {label}", if active { "›" } else { " " }),
                width,
            )
        };
        let max = self.rows().saturating_sub(header + 3);
        Ok(self.select("↑↓ move · Enter choose · Esc back", 2, 0, max, &render)? == Some(1))
    }

    /// Whether anything would be lost by cancelling now.
    fn has_input(&self) -> bool {
        (0..self.payload.questions.len()).any(|q| self.state.answer(self.payload, q).is_some())
    }

    /// Esc at a question or the review: cancel, asking first when answers would be lost.
    fn cancel(&self, q: Option<usize>) -> io::Result<bool> {
        if !self.has_input() {
            return Ok(true);
        }
        self.confirm(
            q,
            "Cancel and discard your answers?",
            "Yes, discard the answers and cancel",
            "No, keep answering",
        )
    }

    fn actions(&self, q: usize) -> Vec<Action> {
        let question = &self.payload.questions[q];
        let mut actions = Vec::new();
        if question.kind.allows_custom_text() {
            actions.push(Action::TypeOwn);
        }
        if question.kind == QuestionType::Preview {
            actions.push(Action::ViewPreview);
        }
        actions.push(Action::NoteQuestion);
        actions.push(Action::NoteOption);
        if q > 0 {
            actions.push(Action::Back);
        }
        actions.push(Action::Next);
        actions
    }

    /// Lines the preview of the highlighted option may take under it.
    fn preview_height(&self, header: usize) -> usize {
        let free = self.rows().saturating_sub(header + 4);
        (free / 2).max(3).min(free.saturating_sub(1)).max(1)
    }

    /// One question screen; returns where to go next.
    fn question(&mut self, q: usize) -> io::Result<Step> {
        let payload = self.payload;
        let question = &payload.questions[q];
        let n = question.options.len();
        let mut actions = self.actions(q);
        let (_, head_cut) = self.header_lines(Some(q));
        let mut header = self.header(Some(q))?;
        let width = self.width();
        // The filter ("Filter options…"): the options shown, by their original index.
        let filter = self.filters[q].clone();
        let shown: Option<Vec<usize>> = filter.as_ref().map(|f| {
            let needle = f.to_lowercase();
            (0..n)
                .filter(|&i| matches_filter(&question.options[i], &needle))
                .collect()
        });
        let m = shown.as_ref().map_or(n, Vec::len);
        let orig = |row: usize| shown.as_ref().map_or(row, |v| v[row]);
        if let Some(f) = &filter {
            let line = match m {
                0 => format!("Filter {}: no option matches", quote(f)),
                _ => format!("Filter {}: {m} of {n} options", quote(f)),
            };
            self.term.write_line(&fit(&line, width))?;
            header += 1;
        }
        let is_multi = question.kind == QuestionType::Multi;
        let is_preview = question.kind == QuestionType::Preview;
        let preview_w = width.saturating_sub(n.to_string().len() + 10);
        let preview_h = if is_preview {
            // As much room as the longest preview needs, up to half the free screen.
            let cap = self.preview_height(header);
            let mut longest = 0;
            for o in &question.options {
                let text = for_terminal(o.preview.as_deref().unwrap_or(""));
                longest = longest.max(wrapped_len(&text, preview_w, cap));
                if longest >= cap {
                    break;
                }
            }
            longest
        } else {
            0
        };
        let last = q + 1 == payload.questions.len();

        // Paging: each option takes its label line, a description line and a note line when
        // any option has them; the action rows add one separator line.
        let has_desc = question.options.iter().any(|o| o.description.is_some());
        let has_note = (0..n).any(|i| self.state.option_note(q, i).is_some());
        let num_w = n.to_string().len();
        // "Full text…" when the header or any option's label or description is cut.
        let cut = head_cut
            || question.options.iter().any(|o| {
                width_of(&one_line(&o.label)) + num_w + 8 > width
                    || o.description
                        .as_deref()
                        .is_some_and(|d| width_of(&one_line(d)) + num_w + 8 > width)
            });
        if cut {
            let at = actions.len() - 1;
            actions.insert(at, Action::FullText);
        }
        let per_item = 1 + usize::from(has_desc) + usize::from(has_note);
        let avail = self
            .rows()
            .saturating_sub(header + 3 + if is_preview { preview_h + 1 } else { 0 });
        // Everything (options, separator, action rows) fits: no paging; otherwise options
        // can be filtered.
        let fits = n * per_item + actions.len() < avail;
        if !fits || filter.is_some() {
            actions.push(Action::Filter);
        }
        if filter.is_some() {
            actions.push(Action::ClearFilter);
        }
        let rows = m + actions.len();
        let max_length = if m * per_item + actions.len() < avail {
            rows
        } else {
            (avail / per_item).max(1)
        };

        let state = &*self.state;
        let term = &self.term;
        let render = |row: usize, checked: Option<bool>, active: bool| -> String {
            // The width now, so rows stay one line each after the window is narrowed.
            let width = term_width(term).min(width.max(10));
            let cursor = if active { "›" } else { " " };
            if row < m {
                let row = orig(row);
                let option = &question.options[row];
                let mark = match checked {
                    Some(true) => "[x]",
                    Some(false) => "[ ]",
                    None if state.is_selected(q, row).unwrap_or(false) => "(•)",
                    None => "( )",
                };
                let mut lines = vec![fit(
                    &format!(
                        "{cursor} {mark} {:>num_w$}. {}",
                        row + 1,
                        one_line(&option.label)
                    ),
                    width,
                )];
                let indent = " ".repeat(num_w + 8);
                if let Some(d) = &option.description {
                    lines.push(fit(&format!("{indent}{}", one_line(d)), width));
                }
                if let Some(note) = state.option_note(q, row) {
                    lines.push(fit(&format!("{indent}note: {}", one_line(note)), width));
                }
                if active && is_preview {
                    let text = option.preview.as_deref().unwrap_or("");
                    let text = for_terminal(text);
                    // Only the lines shown are wrapped; the rest are just counted.
                    let total = wrapped_len(&text, preview_w, usize::MAX);
                    let shown = if total > preview_h {
                        preview_h.saturating_sub(1)
                    } else {
                        total
                    };
                    for line in wrap_head(&text, preview_w, shown) {
                        lines.push(fit(&format!("{indent}│ {line}"), width));
                    }
                    if total > shown {
                        lines.push(fit(
                            &format!(
                                "{indent}│ … {} more lines: choose “View full preview…”",
                                total - shown
                            ),
                            width,
                        ));
                    }
                }
                return lines.join("\n");
            }
            let action = actions[row - m];
            let label = match action {
                Action::TypeOwn => match state.custom_text(q) {
                    Some(t) => format!("Type your own… (now {})", quote(t)),
                    None => "Type your own…".to_string(),
                },
                Action::ViewPreview => "View full preview…".to_string(),
                Action::NoteQuestion => match state.note(q) {
                    Some(t) => format!("Note on this question… (now {})", quote(t)),
                    None => "Note on this question…".to_string(),
                },
                Action::NoteOption => "Note on an option…".to_string(),
                Action::Back => "← Back".to_string(),
                Action::Next if last => "Next: review →".to_string(),
                Action::Next => "Next →".to_string(),
                Action::FullText => "Full text…".to_string(),
                Action::Filter => match &filter {
                    Some(f) => format!("Filter options… (now {})", quote(f)),
                    None => "Filter options…".to_string(),
                },
                Action::ClearFilter => "Clear the filter".to_string(),
            };
            let line = fit(&format!("{cursor}     {label}"), width);
            if row == m {
                format!(
                    "{}\n{line}",
                    fit(&format!("      {}", "─".repeat(24)), width)
                )
            } else {
                line
            }
        };

        let default = self.highlight[q].unwrap_or_else(|| {
            if state.custom_text(q).is_some() && !is_multi {
                m
            } else {
                let first = state.selected(q).first().copied().unwrap_or(0);
                match &shown {
                    Some(v) => v.binary_search(&first).unwrap_or(0),
                    None => first,
                }
            }
        });
        let chosen = if is_multi {
            let help =
                "↑↓ move · Space toggle · Enter confirm or run the row · ←→ page · Esc cancel";
            let theme = RowTheme {
                help: fit(help, width.saturating_sub(PAGE_INFO)),
                render: &render,
                last_active: Cell::new(None),
                term: &self.term,
                size: self.term.size(),
                resized: Cell::new(false),
                // dialoguer's MultiSelect keeps the ticks: lay out again in place.
                restart: false,
            };
            let picked = self.with_room(|| {
                MultiSelect::with_theme(&theme)
                    .with_prompt("-")
                    .report(false)
                    .items_checked((0..rows).map(|i| {
                        (
                            i.to_string(),
                            i < m && state.is_selected(q, orig(i)).unwrap_or(false),
                        )
                    }))
                    .max_length(max_length)
                    .interact_on_opt(&self.term)
                    .map_err(to_io)
            });
            let picked = match picked {
                // Too small for a moment: show the question again (its ticks as saved).
                Err(e) if is_resized(&e) => return Ok(Step::Question(q)),
                other => other?,
            };
            match picked {
                None => None,
                Some(ticked) => {
                    let mut options: Vec<usize> =
                        ticked.into_iter().filter(|&i| i < m).map(orig).collect();
                    if let Some(v) = &shown {
                        // Options hidden by the filter keep their ticks.
                        options.extend(
                            state
                                .selected(q)
                                .into_iter()
                                .filter(|o| v.binary_search(o).is_err()),
                        );
                    }
                    let row = theme.last_active.get().unwrap_or(0);
                    drop(theme);
                    self.state
                        .set_selection(q, &options)
                        .map_err(io::Error::other)?;
                    // Enter on an option row confirms the question.
                    Some(if row < m {
                        m + actions.iter().position(|&a| a == Action::Next).unwrap_or(0)
                    } else {
                        row
                    })
                }
            }
        } else {
            let help = "↑↓ move · Enter choose · ←→ page · Esc cancel · Ctrl+C dismiss";
            match self.select(help, rows, default, max_length, &render) {
                Err(e) if is_resized(&e) => {
                    // Lay the screen out again at the new size, on the same row.
                    self.highlight[q] = self.last_row.get().or(Some(default));
                    return Ok(Step::Question(q));
                }
                other => other?,
            }
        };
        let Some(row) = chosen else {
            // Esc: come back to the row the cursor was on if the person does not cancel.
            self.highlight[q] = if is_multi {
                None
            } else {
                self.last_row.get().or(Some(default))
            };
            return Ok(if self.cancel(Some(q))? {
                Step::Done(Outcome::Dismissed)
            } else {
                Step::Question(q)
            });
        };
        self.highlight[q] = Some(row);
        let next = if last {
            Step::Review
        } else {
            Step::Question(q + 1)
        };
        if row < m {
            self.state.select(q, orig(row)).map_err(io::Error::other)?;
            return Ok(next);
        }
        match actions[row - m] {
            // Leaving the question: it re-opens on its answer, not on this row.
            Action::Next => {
                self.highlight[q] = None;
                Ok(next)
            }
            Action::Back => {
                self.highlight[q] = None;
                Ok(Step::Question(q.saturating_sub(1)))
            }
            Action::TypeOwn => {
                let initial = self.state.custom_text(q).unwrap_or("").to_string();
                match self.edit(Some(q), "Your own answer", &initial)? {
                    Edit::Saved(text) => {
                        self.state
                            .set_custom_text(q, &text)
                            .map_err(io::Error::other)?;
                        if self.state.custom_text(q).is_some() {
                            Ok(next)
                        } else {
                            Ok(Step::Question(q))
                        }
                    }
                    Edit::Closed(draft) => {
                        self.state
                            .set_custom_text(q, &draft)
                            .map_err(io::Error::other)?;
                        Ok(Step::Question(q))
                    }
                    Edit::Interrupted => Ok(Step::Done(Outcome::Dismissed)),
                }
            }
            Action::NoteQuestion => self
                .note_question(q)
                .map(|s| s.unwrap_or(Step::Question(q))),
            Action::NoteOption => self.note_option(q).map(|s| s.unwrap_or(Step::Question(q))),
            Action::Filter => {
                let initial = self.filters[q].clone().unwrap_or_default();
                let what = "Filter options by label, value or description (empty Enter: all)";
                match self.edit(Some(q), what, &initial)? {
                    Edit::Saved(text) | Edit::Closed(text) => {
                        let text = text.trim();
                        self.filters[q] = (!text.is_empty()).then(|| text.to_string());
                        self.highlight[q] = None;
                        Ok(Step::Question(q))
                    }
                    Edit::Interrupted => Ok(Step::Done(Outcome::Dismissed)),
                }
            }
            Action::ClearFilter => {
                self.filters[q] = None;
                self.highlight[q] = None;
                Ok(Step::Question(q))
            }
            Action::FullText => {
                if let Some(option) = self.pick_option(q, "Full text of which option?")? {
                    let text = self.full_text(q, option);
                    self.pager(&format!("Full text of option {}", option + 1), &text)?;
                }
                Ok(Step::Question(q))
            }
            Action::ViewPreview => {
                if let Some(option) =
                    self.pick_option(q, "View the full preview of which option?")?
                {
                    let o = &question.options[option];
                    self.pager(
                        &format!("Preview of {}", one_line(&o.label)),
                        o.preview.as_deref().unwrap_or(""),
                    )?;
                    self.highlight[q] = Some(option);
                }
                Ok(Step::Question(q))
            }
        }
    }

    /// Everything about a question and one of its options, uncut, for the "Full text…"
    /// pager: title, label, prompt, then the option's label, description and note.
    fn full_text(&self, q: usize, option: usize) -> String {
        let question = &self.payload.questions[q];
        let o = &question.options[option];
        let mut text = String::new();
        if let Some(title) = &self.payload.title {
            text.push_str(&format!("{title}\n\n"));
        }
        text.push_str(&format!(
            "{}/{} {}\n{}\n\n{}. {}\n",
            q + 1,
            self.payload.questions.len(),
            question.label,
            question.prompt,
            option + 1,
            o.label
        ));
        if let Some(d) = &o.description {
            text.push_str(&format!("{d}\n"));
        }
        if let Some(note) = self.state.option_note(q, option) {
            text.push_str(&format!("note: {note}\n"));
        }
        text
    }

    /// Opens the editor for the question note. `Some(Done)` when dismissed.
    fn note_question(&mut self, q: usize) -> io::Result<Option<Step>> {
        let initial = self.state.note(q).unwrap_or("").to_string();
        match self.edit(Some(q), "Note on this question", &initial)? {
            Edit::Saved(text) | Edit::Closed(text) => {
                self.state.set_note(q, &text).map_err(io::Error::other)?;
                Ok(None)
            }
            Edit::Interrupted => Ok(Some(Step::Done(Outcome::Dismissed))),
        }
    }

    /// Picks an option, then opens the editor for its note. `Some(Done)` when dismissed.
    fn note_option(&mut self, q: usize) -> io::Result<Option<Step>> {
        let Some(option) = self.pick_option(q, "Note on which option?")? else {
            return Ok(None);
        };
        let label = one_line(&self.payload.questions[q].options[option].label).into_owned();
        let initial = self.state.option_note(q, option).unwrap_or("").to_string();
        match self.edit(Some(q), &format!("Note on option {label}"), &initial)? {
            Edit::Saved(text) | Edit::Closed(text) => {
                self.state
                    .set_option_note(q, option, &text)
                    .map_err(io::Error::other)?;
                Ok(None)
            }
            Edit::Interrupted => Ok(Some(Step::Done(Outcome::Dismissed))),
        }
    }

    /// A menu of the question's options (with their notes) and "← Back"; `None` for back/Esc.
    fn pick_option(&self, q: usize, what: &str) -> io::Result<Option<usize>> {
        again(|| self.pick_option_once(q, what))
    }

    fn pick_option_once(&self, q: usize, what: &str) -> io::Result<Option<usize>> {
        let question = &self.payload.questions[q];
        let n = question.options.len();
        let header = self.header(Some(q))?;
        let width = self.width();
        self.term.write_line(&fit(what, width))?;
        let state = &*self.state;
        let num_w = n.to_string().len();
        let render = |row: usize, _: Option<bool>, active: bool| {
            let cursor = if active { "›" } else { " " };
            if row == n {
                return fit(&format!("{cursor} ← Back"), width);
            }
            let mut text = format!(
                "{cursor} {:>num_w$}. {}",
                row + 1,
                one_line(&question.options[row].label)
            );
            if let Some(note) = state.option_note(q, row) {
                text.push_str(&format!("  (note {})", quote(note)));
            }
            fit(&text, width)
        };
        let default = state.selected(q).first().copied().unwrap_or(0);
        let max = self.rows().saturating_sub(header + 4);
        let picked = self.select(
            "↑↓ move · Enter choose · Esc back",
            n + 1,
            default,
            max,
            &render,
        )?;
        Ok(picked.filter(|&row| row < n))
    }

    /// Draws the editor screen and edits `initial`.
    fn edit(&self, q: Option<usize>, what: &str, initial: &str) -> io::Result<Edit> {
        self.header(q)?;
        let width = self.width();
        self.term.write_line(&fit(&one_line(what), width))?;
        self.term.write_line(&fit(
            "Enter save · empty Enter clear · Esc close (keeps the draft) · Ctrl+C dismiss",
            width,
        ))?;
        self.term.show_cursor()?;
        editor::edit_line("> ", initial, Some(self.completer.clone()))
    }

    /// A full-screen pager over `text`: every line reachable.
    fn pager(&self, title: &str, text: &str) -> io::Result<()> {
        let mut top = 0usize;
        self.term.hide_cursor()?;
        let text = for_terminal(text);
        let mut wrapped: Option<(usize, Vec<String>)> = None;
        loop {
            let width = self.width();
            // Wrap again only when the window width changed.
            if wrapped.as_ref().map(|(w, _)| *w) != Some(width) {
                wrapped = Some((width, wrap(&text, width.saturating_sub(2))));
            }
            let lines = wrapped.as_ref().map(|(_, l)| l.as_slice()).unwrap_or(&[]);
            let height = self.rows().saturating_sub(3).max(1);
            let max_top = lines.len().saturating_sub(height);
            top = top.min(max_top);
            self.term.clear_screen()?;
            let end = (top + height).min(lines.len());
            self.term.write_line(&fit(
                &format!("lines {}-{} of {} · {title}", top + 1, end, lines.len()),
                width,
            ))?;
            for line in &lines[top..end] {
                self.term.write_line(&fit(&format!("│ {line}"), width))?;
            }
            for _ in end - top..height {
                self.term.write_line("")?;
            }
            self.term.write_str(&fit(
                "↑↓ scroll · Space/b page · Home/End · q/Esc/Enter back",
                width,
            ))?;
            self.term.flush()?;
            match self.term.read_key()? {
                Key::ArrowDown | Key::Char('j') => top = (top + 1).min(max_top),
                Key::ArrowUp | Key::Char('k') => top = top.saturating_sub(1),
                Key::PageDown | Key::Char(' ') => top = (top + height).min(max_top),
                Key::PageUp | Key::Char('b') => top = top.saturating_sub(height),
                Key::Home | Key::Char('g') => top = 0,
                Key::End | Key::Char('G') => top = max_top,
                Key::Escape | Key::Enter | Key::Char('q') => break,
                _ => {}
            }
        }
        self.term.show_cursor()?;
        Ok(())
    }

    /// A short summary of a question's answer for the review.
    fn summary(&self, q: usize) -> String {
        let question = &self.payload.questions[q];
        let mut parts: Vec<String> = self
            .state
            .selected(q)
            .into_iter()
            .map(|i| one_line(&question.options[i].label).into_owned())
            .collect();
        if let Some(t) = self.state.custom_text(q) {
            parts.push(quote(t));
        }
        if parts.is_empty() {
            if question.required {
                "no answer (required)".to_string()
            } else {
                "no answer".to_string()
            }
        } else {
            parts.join(", ")
        }
    }

    /// Note lines shown under a question in the review.
    fn note_lines(&self, q: usize) -> Vec<String> {
        let question = &self.payload.questions[q];
        let mut lines = Vec::new();
        if let Some(note) = self.state.note(q) {
            lines.push(format!("note: {}", one_line(note)));
        }
        for i in self.state.selected(q) {
            if let Some(note) = self.state.option_note(q, i) {
                lines.push(format!(
                    "note on {}: {}",
                    one_line(&question.options[i].label),
                    one_line(note)
                ));
            }
        }
        lines
    }

    fn unanswered_required(&self) -> Vec<usize> {
        (0..self.payload.questions.len())
            .filter(|&q| self.payload.questions[q].required && !self.state.is_answered(q))
            .collect()
    }

    /// The review menu; returns where to go next.
    fn review(&mut self) -> io::Result<Step> {
        let nq = self.payload.questions.len();
        let header = self.header(None)?;
        let width = self.width();
        let missing = self.unanswered_required();
        let summaries: Vec<(String, Vec<String>)> = (0..nq)
            .map(|q| {
                let question: &Question = &self.payload.questions[q];
                let mark = if self.state.is_answered(q) {
                    "✓"
                } else if question.required {
                    "!"
                } else {
                    "·"
                };
                let mut notes = self.note_lines(q);
                if notes.len() > 3 {
                    let more = notes.len() - 2;
                    notes.truncate(2);
                    notes.push(format!("… {more} more notes"));
                }
                (
                    format!(
                        "{mark} {}/{nq} {}: {}",
                        q + 1,
                        one_line(&question.label),
                        self.summary(q)
                    ),
                    notes,
                )
            })
            .collect();
        let per_item = 1 + summaries.iter().map(|(_, n)| n.len()).max().unwrap_or(0);
        let max_length = (self.rows().saturating_sub(header + 4) / per_item).max(1);
        let term = &self.term;
        let render = |row: usize, _: Option<bool>, active: bool| -> String {
            let width = term_width(term).min(width.max(10));
            let cursor = if active { "›" } else { " " };
            if row < nq {
                let (line, notes) = &summaries[row];
                let mut lines = vec![fit(&format!("{cursor} {line}"), width)];
                for note in notes {
                    lines.push(fit(&format!("        {note}"), width));
                }
                return lines.join("\n");
            }
            let label = match REVIEW_ACTIONS[row - nq] {
                ReviewAction::Submit if missing.is_empty() => "Submit".to_string(),
                ReviewAction::Submit => format!(
                    "Submit ({} required question{} unanswered)",
                    missing.len(),
                    if missing.len() == 1 { "" } else { "s" }
                ),
                ReviewAction::NoteQuestion => "Note on a question…".to_string(),
                ReviewAction::NoteOption => "Note on an option…".to_string(),
                ReviewAction::Cancel => "Cancel".to_string(),
            };
            let line = fit(&format!("{cursor} {label}"), width);
            if row == nq {
                format!("{}\n{line}", fit(&format!("  {}", "─".repeat(24)), width))
            } else {
                line
            }
        };
        let help = "↑↓ move · Enter open a question or choose · Esc cancel";
        let picked = match self.select(help, nq + REVIEW_ACTIONS.len(), nq, max_length, &render) {
            Err(e) if is_resized(&e) => return Ok(Step::Review),
            other => other?,
        };
        let Some(row) = picked else {
            return Ok(if self.cancel(None)? {
                Step::Done(Outcome::Dismissed)
            } else {
                Step::Review
            });
        };
        if row < nq {
            return Ok(Step::Question(row));
        }
        match REVIEW_ACTIONS[row - nq] {
            ReviewAction::Submit => {
                if missing.is_empty() {
                    return Ok(Step::Done(Outcome::Submitted));
                }
                let names: Vec<String> = missing
                    .iter()
                    .map(|&q| {
                        format!(
                            "{}/{nq} {}",
                            q + 1,
                            one_line(&self.payload.questions[q].label)
                        )
                    })
                    .collect();
                let ok = self.confirm(
                    None,
                    &format!(
                        "Unanswered required questions: {}. Submit anyway?",
                        names.join(", ")
                    ),
                    "Yes, submit anyway",
                    "No, back to the review",
                )?;
                Ok(if ok {
                    Step::Done(Outcome::Submitted)
                } else {
                    Step::Review
                })
            }
            ReviewAction::Cancel => Ok(if self.cancel(None)? {
                Step::Done(Outcome::Dismissed)
            } else {
                Step::Review
            }),
            ReviewAction::NoteQuestion => {
                let Some(q) = self.pick_question("Note on which question?")? else {
                    return Ok(Step::Review);
                };
                Ok(self.note_question(q)?.unwrap_or(Step::Review))
            }
            ReviewAction::NoteOption => {
                let Some(q) = self.pick_question("Note on an option of which question?")? else {
                    return Ok(Step::Review);
                };
                Ok(self.note_option(q)?.unwrap_or(Step::Review))
            }
        }
    }

    /// A menu of the questions and "← Back"; `None` for back/Esc.
    fn pick_question(&self, what: &str) -> io::Result<Option<usize>> {
        again(|| self.pick_question_once(what))
    }

    fn pick_question_once(&self, what: &str) -> io::Result<Option<usize>> {
        let nq = self.payload.questions.len();
        let header = self.header(None)?;
        let width = self.width();
        self.term.write_line(&fit(what, width))?;
        let render = |row: usize, _: Option<bool>, active: bool| {
            let cursor = if active { "›" } else { " " };
            if row == nq {
                return fit(&format!("{cursor} ← Back"), width);
            }
            let question = &self.payload.questions[row];
            let note = match self.state.note(row) {
                Some(n) => format!("  (note {})", quote(n)),
                None => String::new(),
            };
            fit(
                &format!(
                    "{cursor} {}/{nq} {}{note}",
                    row + 1,
                    one_line(&question.label)
                ),
                width,
            )
        };
        let max = self.rows().saturating_sub(header + 4);
        let picked = self.select("↑↓ move · Enter choose · Esc back", nq + 1, 0, max, &render)?;
        Ok(picked.filter(|&row| row < nq))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn filter_matches_label_value_or_description_ignoring_case() {
        let option = |label: &str, description: Option<&str>| crate::contract::QuestionOption {
            value: "v1".to_string(),
            label: label.to_string(),
            description: description.map(str::to_string),
            preview: None,
        };
        assert!(matches_filter(&option("CAFÉ bar", None), "é"));
        assert!(matches_filter(&option("Café", None), "café"));
        assert!(matches_filter(&option("日本 10", None), "日本"));
        assert!(matches_filter(&option("x", Some("Fast ENGINE")), "engine"));
        assert!(matches_filter(&option("x", None), "v1"));
        assert!(!matches_filter(&option("Option 4", Some("d")), "option 42"));
    }

    #[test]
    fn fit_cuts_by_display_width() {
        assert_eq!(fit("日本語です", 5), "日本…");
        assert_eq!(measure_text_width(&fit("日本語です", 5)), 5);
        assert_eq!(fit("short", 10), "short");
    }
}

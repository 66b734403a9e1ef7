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
//! Where to go next and every answer rule live in the [`Flow`]: this module turns choices
//! into [`Command`]s and draws [`Flow::screen`]. The files: this one (the loop, dialoguer
//! plumbing, headers, confirmations, editors), `question.rs`, `review.rs`, `pager.rs`; pure
//! text layout is in `super::layout`.

mod pager;
mod question;
mod review;

use super::layout::{fit, width_of, wrap_words};
use super::AskOptions;
use crate::complete::AtCompleter;
use crate::editor::{self, Edit};
use crate::flow::{Command, Flow, FlowError, Place, Screen};
use crate::result::Ending;
use crate::sanitize::{for_terminal, one_line};
use crate::terminal;
use console::Term;
use dialoguer::theme::Theme;
use dialoguer::Select;
use std::cell::Cell;
use std::fmt;
use std::io;

/// Asks every question on the terminal, then shows the review; returns how the flow ended.
///
/// Ends as the flow ends (Submit in the review; Esc and confirm, Cancel, Ctrl+C), with
/// [`Ending::TerminalLost`] when the terminal fails, or [`Ending::Internal`] when the flow
/// refuses a command this front end sent (a bug). The terminal is restored before it returns.
pub fn ask(flow: Flow<'_>, opts: &AskOptions) -> Ending {
    let term = match terminal::open_term() {
        Ok(t) => t,
        Err(e) => return Ending::TerminalLost(format!("cannot open the terminal: {e}")),
    };
    let _screen = terminal::RestoreGuard::new(true);
    terminal::quiet_input();
    terminal::keep_resizes_from_interrupting_reads();
    let n = flow.payload().questions.len();
    let mut tty = Tty {
        flow,
        term,
        highlight: vec![None; n],
        last_row: Cell::new(None),
        completer: AtCompleter::new(opts.cwd.clone()),
        filters: vec![None; n],
    };
    let ran = tty.run();
    let _ = tty.term.clear_screen();
    match ran {
        Ok(()) => tty.flow.into_ending().unwrap_or_else(|| {
            Ending::Internal("the terminal front end stopped before the flow ended".into())
        }),
        Err(e) if e.get_ref().is_some_and(|i| i.is::<FlowError>()) => {
            Ending::Internal(format!("the flow refused a command: {e}"))
        }
        Err(e) if e.kind() == io::ErrorKind::Interrupted => Ending::Dismissed,
        Err(e) => Ending::TerminalLost(format!("the terminal failed: {e}")),
    }
}

/// The fewest rows a dialoguer prompt can be drawn in (its paging needs 3).
const MIN_ROWS: u16 = 3;

/// Columns kept free after a help line for dialoguer's " [Page 12/345] ".
const PAGE_INFO: usize = 16;

/// The terminal front end's state: the flow, and what only the screen needs.
struct Tty<'p> {
    flow: Flow<'p>,
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

impl<'r> RowTheme<'r> {
    /// A theme for a prompt drawn now on `term`, with `help` cut to fit beside dialoguer's
    /// page counter. `restart`: a resize ends the prompt (see [`Resized`]).
    fn new(
        term: &'r Term,
        help: &str,
        render: &'r dyn Fn(usize, Option<bool>, bool) -> String,
        restart: bool,
    ) -> Self {
        RowTheme {
            help: fit(help, term_width(term).saturating_sub(PAGE_INFO)),
            render,
            last_active: Cell::new(None),
            term,
            size: term.size(),
            resized: Cell::new(false),
            restart,
        }
    }

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

impl Tty<'_> {
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

    /// Shows the flow's screens until it ends.
    fn run(&mut self) -> io::Result<()> {
        while !self.flow.is_over() {
            match self.flow.screen() {
                Screen::Question(q) => self.question(q)?,
                Screen::Review => self.review()?,
                Screen::ConfirmSubmit => self.confirm_submit()?,
                Screen::ConfirmCancel { from } => {
                    let q = match from {
                        Place::Question(q) => Some(q),
                        Place::Review => None,
                    };
                    let yes = self.confirm(
                        q,
                        "Cancel and discard your answers?",
                        "Yes, discard the answers and cancel",
                        "No, keep answering",
                    )?;
                    self.apply(if yes { Command::Confirm } else { Command::Deny })?;
                }
            }
        }
        Ok(())
    }

    /// Applies a command; the flow refusing one this front end sent is a bug, reported as
    /// an [`io::Error`] wrapping the [`FlowError`] ([`ask`] turns it into `internal`).
    fn apply(&mut self, command: Command) -> io::Result<()> {
        self.flow.apply(command).map_err(io::Error::other)
    }

    /// Applies what an editor for `save` returned: the text saved (Enter) or the draft kept
    /// (Esc) through `save`, or a dismissal (Ctrl+C).
    fn apply_edit(&mut self, edit: Edit, save: impl FnOnce(String) -> Command) -> io::Result<()> {
        match edit {
            Edit::Saved(text) | Edit::Closed(text) => self.apply(save(text)),
            Edit::Interrupted => self.apply(Command::Dismiss),
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
        if let Some(title) = &self.flow.payload().title {
            let title = one_line(title);
            cut |= compact || width_of(&title) > width;
            if !compact {
                lines.push(fit(&title, width));
            }
        }
        match q {
            Some(q) => {
                let question = &self.flow.payload().questions[q];
                let n = self.flow.payload().questions.len();
                let required = if question.required { " (required)" } else { "" };
                let marker = format!("{}/{} {}{required}", q + 1, n, one_line(&question.label));
                cut |= width_of(&marker) > width;
                lines.push(fit(&marker, width));
                let max_prompt = if compact { 1 } else { (self.rows() / 4).max(1) };
                // The prompt, then the context (docs/dialects.md) when the question has one.
                let texts = std::iter::once(&question.prompt).chain(&question.context);
                for text in texts {
                    let mut prompt = wrap_words(&for_terminal(text), width);
                    if prompt.len() > max_prompt {
                        cut = true;
                        prompt.truncate(max_prompt);
                        let last = prompt.pop().unwrap_or_default();
                        prompt.push(fit(&format!("{last}…"), width));
                    }
                    lines.extend(prompt);
                }
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
        let theme = RowTheme::new(&self.term, help, render, true);
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
}

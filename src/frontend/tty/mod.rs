//! The full terminal front end: its own key reader and frames on `/dev/tty`, rustyline editors
//! (docs/interactive.md describes the screens and keys).
//!
//! The flow walks the questions in order, one screen each, then shows the review menu:
//!
//! - A question screen lists the options (`( )`/`(•)` on single and preview questions, `[ ]`/
//!   `[x]` on multi), then action rows: "Type your own…" (when the question takes custom
//!   text), "View full preview…" (preview questions), "Note on this question…", "Note on an
//!   option…", "← Back", "Next →", and when needed "Full text…", "Filter options…", "Clear
//!   the filter". Nothing depends on knowing a key: every key has a row.
//! - The contract's keyboard (the contract, "Keyboard behavior"): ↑ ↓ (j k) move, PageUp /
//!   PageDown page, Home / End jump to the first / last option, `1`..`9` choose (single,
//!   preview) or tick (multi) the option shown with that number on this page, Space ticks
//!   (multi) or chooses, `a` ticks all / none, Enter confirms or runs the row, `n` edits the
//!   highlighted option's note, `N` the question's, Tab / → the next question, Shift+Tab / ←
//!   the previous one, Esc (q) cancels (asking first when answers would be lost), Ctrl+C
//!   dismisses at once, Ctrl+Z suspends like a shell job, Ctrl+] peeks at what the
//!   questionnaire hides (`--context`, or the screen underneath).
//! - Editors ([`crate::editor`]): Enter saves, Esc keeps the draft, Ctrl+C dismisses; in an
//!   empty editor ↑ ↓ move the highlight and Tab / Shift+Tab / ← / → change the question
//!   (the contract, "Editing flow"). The question stays on screen above the editor.
//! - The review lists every question with its answer and notes, re-opens any of them (Enter,
//!   or its number), edits notes, and submits (asking first when `required` questions are
//!   unanswered; never refusing) or cancels.
//!
//! Keys come from [`crate::keys`]: one key at a time, escape sequences waited for (split
//! sequences over ssh never become Esc), the terminal in raw mode from the first screen to
//! the end, type-ahead from before the first screen discarded. Screens are [`screen::Frame`]s:
//! drawn in one write, a key rewrites only the lines that changed. A resize lays the screen
//! out again at once.
//!
//! Every payload string is drawn through `crate::sanitize`, and every line is cut to the
//! width by display width, so wide text leaves no ghost lines; only the visible page is ever
//! formatted (fast with 100,000 options). The flow runs on the alternate screen, which
//! [`crate::terminal::RestoreGuard`] leaves on every exit.
//!
//! Where to go next and every answer rule live in the [`Flow`]: this module turns keys into
//! [`Command`]s and draws [`Flow::screen`]. The files: this one (the loop, events, headers,
//! confirmations, editors), `backend.rs` (the terminal itself, or a fake one for tests and
//! fuzzing), `screen.rs` (frames), `menu.rs` (highlight and pages), `question.rs`,
//! `review.rs`, `pager.rs`; pure text layout is in `super::layout`.

mod backend;
mod fake;
mod menu;
mod pager;
mod question;
mod review;
mod screen;

pub use backend::{Backend, EditWait, TtyBackend};
pub use fake::FakeBackend;
pub use screen::Placement;

use super::layout::{fit, width_of, wrap, wrap_words};
use super::timeout::{countdown_line, Deadline};
use super::view::{self, Look};
use super::AskOptions;
use crate::complete::AtCompleter;
use crate::editor::Edit;
use crate::flow::{Command, Flow, FlowError, Place, Screen};
use crate::keys::{Event, Key};
use crate::result::Ending;
use crate::sanitize::{for_terminal, one_line};
use menu::Menu;
use screen::{Cursor, Frame};
use std::io;
use std::sync::{Arc, Mutex};

/// Asks every question on the terminal, then shows the review; returns how the flow ended.
///
/// Ends as the flow ends (Submit in the review; Esc and confirm, Cancel; Ctrl+C), with
/// [`Ending::TerminalLost`] when the terminal cannot be opened or fails, or
/// [`Ending::Internal`] when the flow refuses a command this front end sent (a bug). The
/// terminal is restored before it returns.
pub fn ask(flow: Flow<'_>, opts: &AskOptions) -> Ending {
    let backend = match TtyBackend::open(opts.placement) {
        Ok(b) => b,
        Err(e) => return Ending::TerminalLost(format!("cannot open the terminal: {e}")),
    };
    drive(flow, backend, opts)
}

/// Runs the flow on `backend` (the terminal, or a [`FakeBackend`] in tests and fuzzing) and
/// returns how it ended; see [`ask`].
pub fn drive<B: Backend>(flow: Flow<'_>, backend: B, opts: &AskOptions) -> Ending {
    let n = flow.payload().questions.len();
    let mut tty = Tty {
        flow,
        io: backend,
        screen: screen::Screen::new(opts.placement),
        look: std::rc::Rc::new(Look::new(opts.colour)),
        left: vec![false; n],
        frozen: Frozen::default(),
        transcript_memo: None,
        farewell_key: None,
        abandoned_row: None,
        revision: 0,
        live: Vec::new(),
        finals: Arc::new(Mutex::new(Vec::new())),
        finals_revision: 0,
        highlight: vec![None; n],
        filters: vec![None; n],
        completer: AtCompleter::new(opts.cwd.clone()),
        context: opts.context.clone(),
        bell: opts.bell,
        leave_nothing: opts.leave_nothing,
        deadline: None,
    };
    tty.deadline = opts.timeout.map(|t| Deadline::new(t, tty.io.now()));
    let ran = tty.run();
    crate::terminal::set_farewell(None);
    let ending = match ran {
        Ok(()) => tty.flow.ending().unwrap_or_else(|| {
            Ending::Internal("the terminal front end stopped before the flow ended".into())
        }),
        Err(e) if e.get_ref().is_some_and(|i| i.is::<FlowError>()) => {
            Ending::Internal(format!("the flow refused a command: {e}"))
        }
        Err(e) => Ending::TerminalLost(format!("the terminal failed: {e}")),
    };
    tty.leave(&ending);
    tty.io.finish();
    ending
}

/// A line of the transcript above the live block (inline placement).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Entry {
    /// The payload's title.
    Title,
    /// A question collapsed into its answer line.
    Question(usize),
    /// How the run ended.
    End,
}

/// Transcript lines given up to the scrollback, by entry: each is drawn again only when its
/// text changed.
#[derive(Debug, Default)]
struct Frozen {
    title: Option<String>,
    questions: std::collections::HashMap<usize, Vec<String>>,
    end: Option<String>,
    /// How many lines were given up (changes whenever one is).
    count: usize,
}

impl Frozen {
    fn contains(&self, (entry, text): &(Entry, String)) -> bool {
        match entry {
            Entry::Title => self.title.as_ref() == Some(text),
            Entry::Question(q) => self.questions.get(q).is_some_and(|l| l.contains(text)),
            Entry::End => self.end.as_ref() == Some(text),
        }
    }

    fn extend(&mut self, entries: impl IntoIterator<Item = (Entry, String)>) {
        for (entry, text) in entries {
            self.count += 1;
            match entry {
                Entry::Title => self.title = Some(text),
                Entry::Question(q) => self.questions.entry(q).or_default().push(text),
                Entry::End => self.end = Some(text),
            }
        }
    }
}

/// What the transcript above the block depends on: every question's line (by identity), how
/// many questions were left, how many lines were given up, the screen, the width.
type TranscriptKey = (usize, usize, usize, Screen, usize);

/// Rows an editor's line takes on a terminal `cols` wide, as rustyline lays it out: `prompt`
/// then `text`, wrapped at the width, a line feed starting a row; the row of its end, plus the
/// line feed rustyline writes when the editor closes.
fn editor_rows(prompt: &str, text: &str, cols: usize) -> usize {
    editor_cursor_at(prompt, text, cols).0 + 1
}

/// The fewest rows a screen is drawn in; below it a notice waits for a larger window.
const MIN_ROWS: usize = 3;

/// Columns kept free after a help line for " [Page 12/345] ".
const PAGE_INFO: usize = 16;

/// How a peek (Ctrl+]) ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Peeked {
    /// A key (not acted on), a resize, or the `--timeout` countdown starting: back to the
    /// questionnaire.
    Back,
    /// Ctrl+C: dismiss the flow.
    Interrupted,
}

/// What a screen gets from [`Tty::input`].
enum Input {
    /// A key for the screen to handle.
    Key(Key),
    /// The window changed size, or the screen must be laid out again: return and come back.
    Relayout,
    /// The flow ended (Ctrl+C, `--timeout`): return.
    Ended,
}

/// The terminal front end's state: the flow, and what only the screen needs.
struct Tty<'p, B> {
    flow: Flow<'p>,
    io: B,
    screen: screen::Screen,
    /// The theme of every line drawn (dialoguer's, by colour).
    look: std::rc::Rc<Look>,
    /// Which questions were left at least once: they have a transcript line.
    left: Vec<bool>,
    /// Transcript lines given up to the scrollback (inline): drawn, out of reach, kept as
    /// they are; an entry with the same text is not drawn again.
    frozen: Frozen,
    /// The last [`Tty::transcript`] while the run goes on, and what it depended on.
    transcript_memo: Option<(TranscriptKey, Vec<(Entry, String)>)>,
    /// What the farewell last set depended on (it is set again only when that changes).
    farewell_key: Option<(usize, usize)>,
    /// The row of an editor's cursor under its first row, when the timeout gave the editor
    /// up (its line was never ended).
    abandoned_row: Option<usize>,
    /// Counts the commands applied: what a screen drew for the answers of one count is
    /// drawn again as it was.
    revision: u64,
    /// The transcript lines at the top of the live region now (inline).
    live: Vec<(Entry, String)>,
    /// Every question's transcript line as it is now: the final transcript when the run
    /// ends, from a signal too ([`crate::terminal::set_farewell`]).
    finals: Arc<Mutex<Vec<String>>>,
    /// Counts the changes of [`Tty::finals`] (what the transcript above the block depends on).
    finals_revision: usize,
    /// The row to highlight when a question is shown again.
    highlight: Vec<Option<usize>>,
    /// Each question's option filter ("Filter options…"), `None` when all options show.
    filters: Vec<Option<String>>,
    /// `@` completion in every editor, rooted at `--cwd`; one file index per flow.
    completer: AtCompleter,
    /// The text the peek key shows (`--context FILE`).
    context: Option<String>,
    /// Ring the bell when the first screen appears (`--no-bell`, `PI_ASK_BELL=0` turn it off).
    bell: bool,
    /// Inline: the final transcript is not left; the region is erased ([`AskOptions::leave_nothing`]).
    leave_nothing: bool,
    /// When the flow times out (`--timeout`); every key starts the time again.
    deadline: Option<Deadline>,
}

impl<B: Backend> Tty<'_, B> {
    /// Shows the flow's screens until it ends.
    fn run(&mut self) -> io::Result<()> {
        // Every question's line is made after the first screen is drawn (`farewell`), not
        // before: the first screen comes first.
        while !self.flow.is_over() {
            let screen = self.flow.screen();
            match screen {
                Screen::Question(q) => {
                    self.question(q)?;
                    if self.flow.screen() != screen || self.flow.is_over() {
                        self.left[q] = true;
                    }
                }
                Screen::Review => self.review()?,
                Screen::ConfirmSubmit => self.confirm_submit()?,
                Screen::ConfirmCancel { from } => {
                    let q = match from {
                        Place::Question(q) => Some(q),
                        Place::Review => None,
                    };
                    match self.confirm(
                        q,
                        "Cancel and discard your answers?",
                        "Yes, discard the answers and cancel",
                        "No, keep answering",
                    )? {
                        Some(yes) => {
                            self.apply(if yes { Command::Confirm } else { Command::Deny })?
                        }
                        None => continue,
                    }
                }
            }
        }
        Ok(())
    }

    /// Applies a command; the flow refusing one this front end sent is a bug, reported as
    /// an [`io::Error`] wrapping the [`FlowError`] ([`drive`] turns it into `internal`).
    fn apply(&mut self, command: Command) -> io::Result<()> {
        // The question whose answer or notes the command may change: its transcript line is
        // made again (one line a key, however many questions there are).
        let touched = match &command {
            Command::SetNote { question, .. } | Command::SetOptionNote { question, .. } => {
                Some(*question)
            }
            Command::Next
            | Command::Back
            | Command::Open(_)
            | Command::Review
            | Command::Submit
            | Command::Cancel
            | Command::Confirm
            | Command::Deny
            | Command::Dismiss
            | Command::Interrupt
            | Command::TimeOut(_) => None,
            _ => match self.flow.screen() {
                Screen::Question(q) => Some(q),
                _ => None,
            },
        };
        self.flow.apply(command).map_err(io::Error::other)?;
        self.revision += 1;
        if let Some(q) = touched {
            self.update_final(q);
        }
        Ok(())
    }

    /// Every question's transcript line, again (at the first screen, after a resize, at the
    /// end).
    fn update_finals(&mut self) {
        if self.screen.placement() != Placement::Inline {
            return;
        }
        let width = self.width();
        let payload = self.flow.payload();
        let lines = (0..payload.questions.len())
            .map(|q| view::transcript_line(&self.look, payload, self.flow.answers(), q, width))
            .collect();
        *self.finals.lock().unwrap_or_else(|e| e.into_inner()) = lines;
        self.finals_revision += 1;
    }

    /// Question `q`'s transcript line, again (after a command that may change its answer).
    fn update_final(&mut self, q: usize) {
        if self.screen.placement() != Placement::Inline {
            return;
        }
        let line = view::transcript_line(
            &self.look,
            self.flow.payload(),
            self.flow.answers(),
            q,
            self.width(),
        );
        let mut finals = self.finals.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(old) = finals.get_mut(q) {
            if *old != line {
                *old = line;
                self.finals_revision += 1;
            }
        }
    }

    /// The transcript entries above the live block now: the title, then the line of every
    /// question left so far that comes before the current one (all of them at the review);
    /// at the end, every question and how it ended.
    fn transcript(&mut self, ending: Option<&Ending>) -> Vec<(Entry, String)> {
        if ending.is_some() || self.flow.is_over() {
            return self.transcript_now(ending);
        }
        let key = (
            self.finals_revision,
            self.left.iter().filter(|&&l| l).count(),
            self.frozen.count,
            self.flow.screen(),
            self.width(),
        );
        if let Some((k, entries)) = &self.transcript_memo {
            if *k == key {
                return entries.clone();
            }
        }
        let entries = self.transcript_now(None);
        self.transcript_memo = Some((key, entries.clone()));
        entries
    }

    fn transcript_now(&self, ending: Option<&Ending>) -> Vec<(Entry, String)> {
        let payload = self.flow.payload();
        let finals = self.finals.lock().unwrap_or_else(|e| e.into_inner());
        let width = self.width();
        let mut entries = Vec::new();
        if let Some(title) = &payload.title {
            entries.push((Entry::Title, self.look.heading(&one_line(title), width)));
        }
        let before = match ending.is_some() || self.flow.is_over() {
            true => payload.questions.len(),
            false => match self.flow.screen() {
                Screen::Question(q)
                | Screen::ConfirmCancel {
                    from: Place::Question(q),
                } => q,
                _ => payload.questions.len(),
            },
        };
        for q in 0..before {
            if self.left[q] || ending.is_some() {
                let line = finals.get(q).cloned().unwrap_or_default();
                entries.push((Entry::Question(q), line));
            }
        }
        if let Some(ending) = ending {
            entries.push((Entry::End, self.look.ending(ending, width)));
        }
        entries.retain(|e| !self.frozen.contains(e));
        entries
    }

    /// The live region for `block`: inline, the transcript above it; the block alone on the
    /// alternate screen. Remembers the transcript part ([`Tty::live`]).
    fn compose(&mut self, block: Frame) -> Frame {
        if self.screen.placement() != Placement::Inline {
            return block;
        }
        self.live = self.transcript(None);
        let top = self.live.len();
        let mut lines: Vec<String> = self.live.iter().map(|(_, l)| l.clone()).collect();
        lines.extend(block.lines);
        Frame {
            lines,
            cursor: match block.cursor {
                Cursor::At(row, col) => Cursor::At(row + top, col),
                Cursor::Hidden => Cursor::Hidden,
            },
            park: block.park + top,
        }
    }

    /// Draws `block` (composed with the transcript) as a difference, then gives up the lines
    /// that may be out of reach now, and keeps what a signal would leave up to date.
    fn draw(&mut self, mut block: Frame) -> io::Result<()> {
        // The block keeps within the budget whatever the window (a window of 3 rows has no
        // room for an editor's header): lines above an editor's row go first, then the bottom.
        let budget = self.rows();
        let cursor_row = match block.cursor {
            Cursor::At(row, _) => Some(row),
            Cursor::Hidden => None,
        };
        let height = block.lines.len().max(cursor_row.map_or(0, |r| r + 1));
        if height > budget {
            let cut = cursor_row.map_or(0, |r| (r + 1).saturating_sub(budget));
            block.lines.drain(..cut.min(block.lines.len()));
            block.lines.truncate(budget);
            if let Cursor::At(row, col) = block.cursor {
                block.cursor = Cursor::At(row - cut, col);
            }
            block.park = block.park.min(budget.saturating_sub(1));
        }
        let frame = self.compose(block);
        let bytes = self.screen.diff(&frame);
        if !bytes.is_empty() {
            self.io.write(&bytes)?;
        }
        self.screen.remember(frame);
        self.settle();
        Ok(())
    }

    /// Gives up to the scrollback the lines of the live region that may be out of reach.
    fn settle(&mut self) {
        let gone = self.screen.unreachable(self.window_rows());
        if gone > 0 {
            let entries = gone.min(self.live.len());
            self.frozen.extend(self.live.drain(..entries));
            self.screen.forget_top(gone);
        }
        self.farewell();
    }

    /// What a signal or a panic leaves: the final transcript in place of the live region.
    /// Set again only when the region moves or lines are given up; the question lines are read
    /// when the signal comes (they are shared).
    fn farewell(&mut self) {
        if self.screen.placement() != Placement::Inline {
            return;
        }
        if self.finals_revision == 0 {
            self.update_finals();
        }
        let park = self.screen.parked();
        let key = (park, self.frozen.count);
        if self.farewell_key == Some(key) {
            return;
        }
        self.farewell_key = Some(key);
        let width = self.width();
        let title = self.flow.payload().title.as_deref().map(one_line);
        let head = title
            .map(|title| (Entry::Title, self.look.heading(&title, width)))
            .filter(|entry| !self.frozen.contains(entry))
            .map(|(_, line)| line);
        let frozen = self.frozen.questions.clone();
        let finals = Arc::clone(&self.finals);
        let colour = self.look.colour();
        let leave_nothing = self.leave_nothing;
        crate::terminal::set_farewell(Some(Box::new(move |departure| {
            if leave_nothing {
                return screen::Screen::from_parked(park).finish(&[]);
            }
            let ending = match departure {
                crate::terminal::Departure::Signal(signal_hook::consts::SIGINT) => {
                    Ending::Interrupted
                }
                crate::terminal::Departure::Signal(signal) => Ending::Aborted { signal },
                crate::terminal::Departure::Panic => Ending::Internal("a panic".into()),
            };
            let finals = finals.lock().unwrap_or_else(|e| e.into_inner());
            let mut lines: Vec<String> = head.iter().cloned().collect();
            lines.extend(finals.iter().enumerate().filter_map(|(q, line)| {
                let given_up = frozen.get(&q).is_some_and(|l| l.contains(line));
                (!given_up).then(|| line.clone())
            }));
            lines.push(Look::new(colour).ending(&ending, width));
            screen::Screen::from_parked(park).finish(&lines)
        })));
    }

    /// Ends the run on the terminal: inline, the final transcript (title, every question's
    /// answer, how it ended) replaces the live region and the cursor goes under it; with
    /// `leave_nothing`, the live region is erased and the cursor left at its top.
    fn leave(&mut self, ending: &Ending) {
        if self.screen.placement() != Placement::Inline {
            return;
        }
        self.update_finals();
        let lines: Vec<String> = if self.leave_nothing {
            Vec::new()
        } else {
            let mut frozen_free = self.transcript(Some(ending));
            frozen_free.drain(..).map(|(_, l)| l).collect()
        };
        let bytes = self.screen.finish(&lines);
        let _ = self.io.write(&bytes);
    }

    /// Draws `frame` (or the too-small notice) and waits for the next key. Handles what every
    /// screen shares: Ctrl+C (the flow is interrupted: [`Input::Ended`]), Ctrl+Z (suspend,
    /// then the same frame again), Ctrl+] (peek until the next key), a resize
    /// ([`Input::Relayout`]), the bell on the first screen, and `--timeout`: in its last
    /// seconds the countdown replaces the frame's top line, any key starts the time again, and
    /// when it is up the flow times out ([`Input::Ended`]).
    fn input(&mut self, frame: Frame) -> io::Result<Input> {
        loop {
            let now = self.io.now();
            if self.deadline.is_some_and(|d| d.is_past(now)) {
                self.time_out()?;
                return Ok(Input::Ended);
            }
            let rows = self.window_rows();
            let mut shown = if rows < MIN_ROWS {
                Frame::new(vec![fit("Window too small: enlarge it", self.width())])
            } else {
                frame.clone()
            };
            if let Some(line) = self.countdown(now) {
                match shown.lines.first_mut() {
                    Some(top) => *top = line,
                    None => shown.lines.push(line),
                }
            }
            self.draw(shown)?;
            if std::mem::take(&mut self.bell) {
                self.io.write("\x07")?;
            }
            let wait = self.deadline.and_then(|d| d.wait(now));
            let key = match self.io.event(wait)? {
                Event::Resize => {
                    if self.io.take_continued() {
                        self.continued();
                    } else {
                        self.resized();
                    }
                    return Ok(Input::Relayout);
                }
                Event::Timeout => continue,
                Event::Key(key) => key,
            };
            self.key_came();
            match key {
                Key::Ctrl('c') => {
                    self.apply(Command::Interrupt)?;
                    return Ok(Input::Ended);
                }
                Key::Ctrl('z') => {
                    self.suspend()?;
                    return Ok(Input::Relayout);
                }
                Key::Ctrl(']') => {
                    match self.peek()? {
                        Peeked::Back => {}
                        Peeked::Interrupted => {
                            self.apply(Command::Interrupt)?;
                            return Ok(Input::Ended);
                        }
                    }
                    return Ok(Input::Relayout);
                }
                _ if rows < MIN_ROWS => continue,
                key => return Ok(Input::Key(key)),
            }
        }
    }

    /// The window changed size: the block is drawn again whole. Inline, the transcript lines
    /// above it stay as the terminal rewrapped them (they are given up), and the block starts
    /// again at the cursor, parked at its top.
    fn resized(&mut self) {
        self.update_finals();
        self.restart_at_cursor();
    }

    /// Inline: the live region starts again at the cursor (after a resize, `fg`, or a resize
    /// under an editor): the transcript lines drawn so far stay where the terminal has them,
    /// given up; on the alternate screen the next frame is drawn whole.
    fn restart_at_cursor(&mut self) {
        if self.screen.placement() == Placement::Inline {
            let live = std::mem::take(&mut self.live);
            self.frozen.extend(live);
            self.screen.restart_here();
            self.farewell_key = None;
        }
        self.screen.invalidate();
    }

    /// Continued after a stop from outside (`kill -STOP`, then `fg`): the block could not be
    /// erased before, and the shell wrote under it; it is left as it is and drawn again where
    /// the cursor is now, as after `fg` from Ctrl+Z. The time of `--timeout` starts again.
    fn continued(&mut self) {
        self.restart_at_cursor();
        self.key_came();
    }

    /// Ctrl+Z: inline, the live block is erased first (the transcript stays), the cursor
    /// under the transcript; after `fg` the block is drawn again where the cursor is then.
    fn suspend(&mut self) -> io::Result<()> {
        if self.screen.placement() == Placement::Inline {
            let mut empty = Frame::new(Vec::new());
            empty.cursor = Cursor::At(0, 0);
            self.draw(empty)?;
        }
        self.restart_at_cursor();
        crate::terminal::set_farewell(None);
        self.io.suspend()?;
        // Back with `fg`: the time starts again from there.
        self.key_came();
        Ok(())
    }

    /// A key came: the time of `--timeout` starts again.
    fn key_came(&mut self) {
        let now = self.io.now();
        if let Some(deadline) = &mut self.deadline {
            deadline.reset(now);
        }
    }

    /// The countdown line for the header at `now`, in the last seconds of `--timeout`.
    fn countdown(&self, now: std::time::Instant) -> Option<String> {
        let seconds = self.deadline?.countdown(now)?;
        Some(fit(&countdown_line(seconds), self.width()))
    }

    /// No key came for `--timeout`: the flow times out, keeping the answers given so far.
    fn time_out(&mut self) -> io::Result<()> {
        let why = self.deadline.map(|d| d.message()).unwrap_or_default();
        self.apply(Command::TimeOut(why))
    }

    /// Shows, until the next key, what the questionnaire hides: the `--context` text when
    /// given, otherwise the screen underneath (the main screen). The key is not acted on,
    /// but Ctrl+C still dismisses ([`Peeked::Interrupted`]: the caller interrupts the flow).
    /// With `--timeout`, the questionnaire comes back by itself when its countdown starts.
    fn peek(&mut self) -> io::Result<Peeked> {
        let inline = self.screen.placement() == Placement::Inline;
        let width = self.width();
        let height = self.rows().saturating_sub(1).max(1);
        match self.context.clone() {
            Some(text) => {
                let mut lines = vec![self
                    .look
                    .heading("Context (the agent's message) · any key returns", width)];
                lines.extend(wrap(&for_terminal(&text), width).into_iter().take(height));
                self.draw(Frame::new(lines))?;
            }
            None if inline => {
                let lines = vec![
                    self.look.heading("No context was given · any key returns", width),
                    fit(
                        "The agent's message, when it wrote one, is above the questions: scroll back to read it.",
                        width,
                    ),
                ];
                self.draw(Frame::new(lines))?;
            }
            None => self.io.show_main_screen(true)?,
        }
        let wait = self.deadline.and_then(|d| d.wait(self.io.now()));
        let event = self.io.event(wait)?;
        if self.context.is_none() && !inline {
            self.io.show_main_screen(false)?;
        }
        if event == Event::Resize {
            self.resized();
        }
        self.screen.invalidate();
        Ok(match event {
            Event::Key(key) => {
                self.key_came();
                if key == Key::Ctrl('c') {
                    Peeked::Interrupted
                } else {
                    Peeked::Back
                }
            }
            Event::Resize | Event::Timeout => Peeked::Back,
        })
    }

    fn width(&self) -> usize {
        term_width(self.io.size().1)
    }

    /// Rows the live block may take ([`screen::Screen::budget`]: the window's, less one
    /// inline); the one place the window's height is read for layout.
    fn rows(&self) -> usize {
        self.screen.budget(self.window_rows())
    }

    /// The window's height in rows: the one place it is read.
    fn window_rows(&self) -> usize {
        self.io.size().0
    }

    /// Whether the screen is short (under 14 rows): headers then drop the title and the
    /// blank line and keep the prompt to one line, so the options stay on screen. The full
    /// title and prompt are in the "Full text…" pager.
    fn compact(&self) -> bool {
        self.rows() < 14
    }

    /// The header lines (title, progress marker and label, prompt, context, blank line) at
    /// the current size, and whether any of that text was cut to fit.
    fn header_lines(&self, q: Option<usize>) -> (Vec<String>, bool) {
        let width = self.width();
        let compact = self.compact();
        let mut lines = Vec::new();
        let mut cut = false;
        if let Some(title) = &self.flow.payload().title {
            let title = one_line(title);
            cut |= compact || width_of(&title) > width;
            // Inline, the title heads the transcript above the block.
            if !compact && self.screen.placement() == Placement::Full {
                lines.push(self.look.heading(&title, width));
            }
        }
        match q {
            Some(q) => {
                let question = &self.flow.payload().questions[q];
                let n = self.flow.payload().questions.len();
                let required = if question.required { " (required)" } else { "" };
                let marker = format!("{}/{} {}{required}", q + 1, n, one_line(&question.label));
                cut |= width_of(&marker) > width;
                lines.push(self.look.heading(&marker, width));
                let max_prompt = if compact { 1 } else { (self.rows() / 4).max(1) };
                // The prompt, then the context (docs/dialects.md) when the question has one.
                let texts = std::iter::once(&question.prompt).chain(&question.context);
                for (i, text) in texts.enumerate() {
                    // Room for the theme's prompt marks on the first line.
                    let mut prompt = wrap_words(&for_terminal(text), width.saturating_sub(4));
                    if prompt.len() > max_prompt {
                        cut = true;
                        prompt.truncate(max_prompt);
                        let last = prompt.pop().unwrap_or_default();
                        prompt.push(fit(&format!("{last}…"), width.saturating_sub(4)));
                    }
                    if i == 0 {
                        if let Some(first) = prompt.first_mut() {
                            *first = self.look.prompt(first, width);
                        }
                    }
                    lines.extend(prompt);
                }
            }
            None => lines.push(self.look.heading("Review your answers", width)),
        }
        if !compact {
            lines.push(String::new());
        }
        (lines, cut)
    }

    /// A small menu under a header: `items` rows drawn by `render(row, active)`, a help line;
    /// returns the row chosen with Enter (or its number), `None` for Esc / q / back, or when
    /// the flow ended (Ctrl+C) or the window changed (the caller shows its screen again).
    fn pick(
        &mut self,
        q: Option<usize>,
        what: Option<&str>,
        help: &str,
        items: usize,
        default: usize,
        render: &dyn Fn(&Self, usize, bool) -> Vec<String>,
    ) -> io::Result<Option<usize>> {
        loop {
            let (mut lines, _) = self.header_lines(q);
            let width = self.width();
            if let Some(what) = what {
                lines.push(fit(&one_line(what), width));
            }
            let per_page = self.rows().saturating_sub(lines.len() + 1).max(1);
            let mut menu = Menu::new(items, per_page, default);
            loop {
                let mut frame = lines.clone();
                frame.push(help_line(help, &menu, width));
                for row in menu.visible() {
                    frame.extend(render(self, row, row == menu.active));
                }
                match self.input(Frame::new(frame))? {
                    Input::Ended => return Ok(None),
                    Input::Relayout => break,
                    Input::Key(key) => match key {
                        Key::Up | Key::Char('k') => menu.up(),
                        Key::Down | Key::Char('j') => menu.down(),
                        Key::PageUp => menu.page_up(),
                        Key::PageDown => menu.page_down(),
                        Key::Home => menu.go(0),
                        Key::End => menu.go(items.saturating_sub(1)),
                        Key::Enter | Key::Char(' ') => return Ok(Some(menu.active)),
                        Key::Char(d @ '1'..='9') => {
                            let row = d as usize - '1' as usize;
                            if menu.visible().contains(&row) {
                                return Ok(Some(row));
                            }
                        }
                        Key::Esc | Key::Char('q') | Key::Left | Key::BackTab => return Ok(None),
                        _ => {}
                    },
                }
            }
        }
    }

    /// Asks a yes/no question as a two-row menu ("no" first and highlighted); Esc means no.
    /// `None` when the flow ended meanwhile (Ctrl+C).
    fn confirm(
        &mut self,
        q: Option<usize>,
        question: &str,
        yes: &str,
        no: &str,
    ) -> io::Result<Option<bool>> {
        let render = |t: &Self, row: usize, active: bool| {
            let label = if row == 0 { no } else { yes };
            vec![t.look.select_item(label, active, t.width())]
        };
        let picked = self.pick(
            q,
            Some(question),
            "↑↓ move · Enter choose · Esc back",
            2,
            0,
            &render,
        )?;
        if self.flow.is_over() {
            return Ok(None);
        }
        Ok(Some(picked == Some(1)))
    }

    /// The editor screen for `initial`: the header and, as far as the window allows, what the
    /// question shows (`context` lines, e.g. its options, with the one a note is for marked),
    /// then `what`, the help line and the editor line. The editor line keeps its place on a
    /// short window (the context lines give way first). Ctrl+Z and Ctrl+] in the editor
    /// suspend or peek, then the editor comes back with its draft. With `--timeout`, an
    /// editor left without a key for that long gives [`Edit::TimedOut`] with its draft (the
    /// caller saves it as Esc would, then the flow times out).
    fn edit(
        &mut self,
        q: Option<usize>,
        context: &[String],
        what: &str,
        initial: &str,
    ) -> io::Result<Edit> {
        let mut initial = initial.to_string();
        loop {
            let (mut lines, _) = self.header_lines(q);
            let width = self.width();
            let room = self.rows().saturating_sub(lines.len() + 3);
            lines.extend(context.iter().take(room).cloned());
            lines.push(fit(&one_line(what), width));
            lines.push(fit(
                "Enter save · empty Enter clear · Esc close (keeps the draft) · Ctrl+C dismiss",
                width,
            ));
            let row = lines.len();
            let top = lines[0].clone();
            let countdown = self.countdown(self.io.now());
            if let Some(line) = &countdown {
                lines[0].clone_from(line);
            }
            let mut frame = Frame::new(lines);
            frame.cursor = Cursor::At(row, 0);
            self.draw(frame)?;
            if std::mem::take(&mut self.bell) {
                self.io.write("\x07")?;
            }
            // `@` completion lists its candidates under the editor line, inside the budget.
            let (rows, cols) = (self.rows(), self.io.size().1);
            self.completer
                .set_list_room(rows.saturating_sub(row + 2), cols);
            // The editor's row in the live region (the transcript above the block counts).
            let region_row = match self.screen.placement() {
                Placement::Inline => self.screen.parked(),
                Placement::Full => row,
            };
            // The block's top in the live region (what `draw` kept of it above the editor).
            let block_top = region_row.saturating_sub(row.min(self.rows().saturating_sub(1)));
            let size = self.io.size();
            let edit = self.run_editor(&initial, &top, countdown.is_some(), block_top)?;
            // The editor drew on the screen and ended its line: the next frame is drawn whole,
            // from the rows it took.
            let text = match &edit {
                Edit::Saved(t)
                | Edit::Closed(t)
                | Edit::Suspended(t)
                | Edit::Peek(t)
                | Edit::TimedOut(t) => t.as_str(),
                Edit::Navigate(_) | Edit::Interrupted => "",
            };
            match self.screen.placement() {
                // The window changed while the editor had it: the terminal may have rewrapped
                // the block, so nothing above the cursor is known; the block starts again
                // under the editor's line (what was drawn stays, nothing before it is erased).
                Placement::Inline if self.io.size() != size => {
                    self.abandoned_row = None;
                    self.restart_at_cursor();
                    self.settle();
                }
                Placement::Inline => {
                    // An editor given up by the timeout never ended its line: the cursor is
                    // still on it.
                    let down = match self.abandoned_row.take() {
                        Some(row) => row,
                        None => editor_rows(EDITOR_PROMPT, text, self.io.size().1),
                    };
                    self.screen.editor_closed(region_row, down);
                    self.settle();
                }
                Placement::Full => self.screen.invalidate(),
            }
            match edit {
                Edit::Suspended(draft) => {
                    self.suspend()?;
                    initial = draft;
                }
                Edit::Peek(draft) => {
                    if self.peek()? == Peeked::Interrupted {
                        return Ok(Edit::Interrupted);
                    }
                    initial = draft;
                }
                other => return Ok(other),
            }
        }
    }

    /// Runs the editor until it closes; with `--timeout`, until no key came in it for that
    /// long ([`Edit::TimedOut`] with the draft). In the last seconds the countdown is written
    /// over the top line (`top`, put back when a key comes; `counting`: the countdown is
    /// there already), the editor's cursor kept.
    fn run_editor(
        &mut self,
        initial: &str,
        top: &str,
        mut counting: bool,
        block_top: usize,
    ) -> io::Result<Edit> {
        // Inline, the top row is found from the editor's cursor, which its thread moves as it
        // draws a key: nothing is written until it has been quiet a moment.
        let inline = self.screen.placement() == Placement::Inline;
        let mut key_at: Option<std::time::Instant> = None;
        loop {
            let now = self.io.now();
            let mut wait = self.deadline.and_then(|d| d.wait(now));
            if let Some(at) = key_at {
                let quiet = (at + EDITOR_QUIET).saturating_duration_since(now);
                wait = Some(wait.map_or(quiet, |w| w.min(quiet)));
            }
            let last_key = match self
                .io
                .edit(EDITOR_PROMPT, initial, &self.completer, wait)?
            {
                EditWait::Closed(edit) => {
                    self.key_came();
                    return Ok(edit);
                }
                EditWait::Open { last_key } => last_key,
            };
            if let (Some(deadline), Some(at)) = (&mut self.deadline, last_key) {
                deadline.reset(at);
            }
            let now = self.io.now();
            if inline && last_key.is_some() {
                key_at = Some(now);
            }
            if self.deadline.is_some_and(|d| d.is_past(now)) {
                let before = self.io.editor_cursor();
                self.abandoned_row =
                    Some(editor_cursor_at(EDITOR_PROMPT, &before, self.io.size().1).0);
                return Ok(Edit::TimedOut(self.io.abandon_edit()));
            }
            if key_at.is_some_and(|at| now.saturating_duration_since(at) < EDITOR_QUIET) {
                continue;
            }
            key_at = None;
            let line = match self.countdown(now) {
                Some(line) => line,
                None if counting => top.to_string(),
                None => continue,
            };
            counting = line != top;
            // The block's top row, written in one write from the editor's cursor and back to
            // it, so it never splits one of the editor's own.
            let bytes = match self.screen.placement() {
                Placement::Full => format!("\x1b7\x1b[1;1H{line}\x1b[K\x1b8"),
                Placement::Inline => {
                    let before = self.io.editor_cursor();
                    let (row, col) = editor_cursor_at(EDITOR_PROMPT, &before, self.io.size().1);
                    let up = self.screen.parked() + row - block_top;
                    let mut out = format!("\x1b[{up}A\r{line}\x1b[K\x1b[{up}B\r");
                    if col > 0 {
                        out.push_str(&format!("\x1b[{col}C"));
                    }
                    out
                }
            };
            self.io.write(&bytes)?;
        }
    }
}

/// How long an editor must have had no key before the countdown is written over the block
/// (inline), so its thread has drawn the key and its cursor is where its draft says.
const EDITOR_QUIET: std::time::Duration = std::time::Duration::from_millis(60);

/// The prompt of every editor.
const EDITOR_PROMPT: &str = "> ";

/// Where the cursor of an editor is, as (row, column) from the start of its prompt, when the
/// text before it is `before` (rustyline's layout at `cols` columns).
fn editor_cursor_at(prompt: &str, before: &str, cols: usize) -> (usize, usize) {
    use unicode_segmentation::UnicodeSegmentation;
    let cols = cols.max(1);
    let (mut row, mut col) = (0usize, 0usize);
    for g in prompt.graphemes(true).chain(before.graphemes(true)) {
        if g == "\n" {
            row += 1;
            col = 0;
            continue;
        }
        let w = if g == "\t" { 8 - col % 8 } else { width_of(g) };
        col += w;
        if col > cols {
            row += 1;
            col = w;
        }
    }
    if col == cols {
        row += 1;
        col = 0;
    }
    (row, col)
}

/// Columns a drawn line may use: the width less one (a line that fills the last column makes
/// some terminals wrap), at least 10.
fn term_width(cols: usize) -> usize {
    cols.saturating_sub(1).max(10)
}

/// The help line: `help` cut to leave room for the page counter, then the page counter. The
/// last few are kept: a key that stays on the page draws the same line again.
fn help_line(help: &str, menu: &Menu, width: usize) -> String {
    type Memo = Vec<((usize, usize, usize, usize), String)>;
    thread_local! {
        static MEMO: std::cell::RefCell<Memo> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let key = (
        help.as_ptr() as usize,
        help.len(),
        width,
        menu.page() * 1_000_003 + menu.pages(),
    );
    if let Some(line) = MEMO.with(|m| {
        m.borrow()
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, l)| l.clone())
    }) {
        return line;
    }
    let info = menu.page_info();
    let line = if info.is_empty() {
        fit(help, width)
    } else {
        fit(
            &format!("{}{info}", fit(help, width.saturating_sub(PAGE_INFO))),
            width,
        )
    };
    MEMO.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= 8 {
            m.remove(0);
        }
        m.push((key, line.clone()));
    });
    line
}
#[cfg(test)]
mod tests;

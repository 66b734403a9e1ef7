//! The terminal front end: the screen model ([`crate::ui`]) drawn inline at the cursor (or on
//! the alternate screen), keys from our own reader, rustyline editors (docs/interactive.md
//! describes the screens and keys).
//!
//! One loop ([`Session::run`]) over one event stream: keys and resizes from the terminal,
//! the open editor's closing and keys (the editor on its own thread when a timeout runs),
//! the `--timeout` clock. What every screen shares is handled here once: Ctrl+C dismisses,
//! Ctrl+Z suspends like a shell job, Ctrl+] peeks at the agent's message, the bell rings on
//! the first frame, the countdown takes the hint line's place in the last seconds, a resize
//! lays the block out again. The screens are components with their own state (`question.rs`,
//! `review.rs`, `overlay.rs`: `on(action) -> Outcome`, `render(cx) -> lines`); the region
//! (`region.rs`) owns what is on the terminal: the block and the transcript above it. Where to
//! go next and every answer rule are the [`Flow`]'s: this module maps keys to actions through
//! the key maps ([`crate::ui::keymap`]) and actions to [`Command`]s.

mod backend;
#[cfg(any(test, feature = "fake-terminal"))]
mod fake;
mod layers;
mod menu;
mod overlay;
mod question;
mod region;
mod review;

pub use backend::{Backend, EditWait, TtyBackend};
#[cfg(any(test, feature = "fake-terminal"))]
pub use fake::FakeBackend;
pub use region::Placement;

use super::timeout::{countdown_line, Deadline};
use super::AskOptions;
use crate::complete::AtCompleter;
use crate::editor::Edit;
use crate::flow::{Command, Flow, FlowError, Place, Screen};
use crate::frontend::layout::{fit, width_of};
use crate::keys::{Event, Key};
use crate::result::Ending;
use crate::sanitize::one_line;
use crate::ui::keymap::{self, Action};
use crate::ui::question::Row;
use crate::ui::view::{self, Look};
use crate::ui::words;
use layers::{Cx, Outcome, Overlay};
use overlay::{Confirm, Pager, Target};
use question::{Mode, QuestionPrompt};
use region::{Block, Entry, Line, Region, Transcript};
use review::Review;
use std::io;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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
    let reflows = region::reflows(|name| std::env::var(name).ok());
    let mut s = Session {
        questions: (0..n).map(QuestionPrompt::new).collect(),
        review: Review::default(),
        confirm: None,
        overlays: Vec::new(),
        shown: None,
        left: vec![false; n],
        lines: Vec::new(),
        farewell: Arc::new(Mutex::new(Farewell::default())),
        region: region::Region::new(opts.placement, reflows),
        look: Look::new(opts.colour),
        completer: AtCompleter::new(opts.cwd.clone()),
        context: opts.context.clone(),
        bell: opts.bell,
        deadline: None,
        cols: 0,
        block_rows: 0,
        editor: None,
        flow,
        io: backend,
    };
    s.deadline = opts.timeout.map(|t| Deadline::new(t, s.io.now()));
    let ran = s.run();
    crate::terminal::set_farewell(None);
    let ending = match ran {
        Ok(()) => s.flow.ending().unwrap_or_else(|| {
            Ending::Internal("the terminal front end stopped before the flow ended".into())
        }),
        Err(e) if e.get_ref().is_some_and(|i| i.is::<FlowError>()) => {
            Ending::Internal(format!("the flow refused a command: {e}"))
        }
        Err(e) => Ending::TerminalLost(format!("the terminal failed: {e}")),
    };
    s.leave(&ending);
    s.io.finish();
    ending
}

/// The fewest rows a screen is drawn in; below it a notice waits for a larger window.
const MIN_ROWS: usize = 3;

/// The prompt of every editor.
const EDITOR_PROMPT: &str = "> ";

/// How long an editor must have had no key before the countdown is written over the block
/// (inline), so its thread has drawn the key and its cursor is where its draft says.
const EDITOR_QUIET: Duration = Duration::from_millis(60);

/// What a signal or a panic needs to leave the final transcript (it runs on another thread):
/// kept current by the loop.
#[derive(Debug, Default)]
struct Farewell {
    /// Whether the region is inline and has drawn.
    active: bool,
    title: Option<Line>,
    questions: Vec<Line>,
    given_up: Transcript,
    at: usize,
    width: usize,
    colour: bool,
}

/// An editor that is open (its thread reads keys) between waits.
#[derive(Debug, Clone, Copy)]
struct OpenEditor {
    /// The window's size when it opened.
    size: (usize, usize),
    /// When its last key came (the countdown waits until it is quiet).
    key_at: Option<Instant>,
    /// The countdown is written over the block's top line.
    counting: bool,
}

/// The terminal front end's state.
struct Session<'p, B> {
    flow: Flow<'p>,
    io: B,
    region: Region,
    look: Look,
    /// Each question's component (its highlight, page and filter).
    questions: Vec<QuestionPrompt>,
    review: Review,
    /// The confirmation shown, when the flow asks one.
    confirm: Option<Confirm>,
    /// Editors and pagers open over the screen.
    overlays: Vec<Overlay>,
    /// The flow's screen the components were set up for.
    shown: Option<Screen>,
    /// Which questions were left at least once: they have a transcript line.
    left: Vec<bool>,
    /// Each question's transcript line (made after the first frame).
    lines: Vec<Line>,
    farewell: Arc<Mutex<Farewell>>,
    /// `@` completion in every editor, rooted at `--cwd`.
    completer: AtCompleter,
    /// What the peek shows (`--context FILE`).
    context: Option<String>,
    /// Ring the bell at the first frame.
    bell: bool,
    deadline: Option<Deadline>,
    /// The columns the last frame was laid out for.
    cols: usize,
    /// The rows of the last block (an editor's block: the rows above the editor).
    block_rows: usize,
    editor: Option<OpenEditor>,
}

/// Columns a drawn line may use: the width less one (a line that fills the last column makes
/// some terminals wrap), at least 10.
fn term_width(cols: usize) -> usize {
    cols.saturating_sub(1).max(10)
}

/// The terminal's width for a region that must lay out before it has a size.
fn screen_width() -> usize {
    80
}

/// Rows an editor's line takes on a terminal `cols` wide, as rustyline lays it out: `prompt`
/// then `text`, wrapped at the width, a line feed starting a row; the row of its end, plus the
/// line feed rustyline writes when the editor closes.
fn editor_rows(prompt: &str, text: &str, cols: usize) -> usize {
    editor_cursor_at(prompt, text, cols).0 + 1
}

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

impl<B: Backend> Session<'_, B> {
    /// Shows the flow's screens until it ends.
    fn run(&mut self) -> io::Result<()> {
        while !self.flow.is_over() {
            self.sync();
            let now = self.io.now();
            if self.deadline.is_some_and(|d| d.is_past(now)) {
                self.time_out()?;
                continue;
            }
            if self.editor.is_none() {
                if let Some(outcome) = self.auto_open() {
                    self.outcome(outcome)?;
                    continue;
                }
                self.draw(now)?;
            }
            let wait = self.deadline.and_then(|d| d.wait(now));
            if matches!(self.overlays.last(), Some(Overlay::Editor(_))) {
                self.edit(wait)?;
            } else {
                self.event(wait)?;
            }
        }
        Ok(())
    }

    /// Sets the components up for the flow's screen when it changed: overlays close, the
    /// question left gets its transcript line, the new screen is entered.
    fn sync(&mut self) {
        let screen = self.flow.screen();
        if self.shown == Some(screen) {
            return;
        }
        if let Some(Screen::Question(q)) = self.shown {
            self.left[q] = true;
        }
        self.shown = Some(screen);
        self.overlays.clear();
        self.confirm = None;
        match screen {
            Screen::Question(q) => {
                let cx = cx(&self.flow, &self.look, 80, 24, None);
                self.questions[q].enter(&cx);
            }
            Screen::Review => self.review.enter(),
            Screen::ConfirmCancel { .. } => {
                self.confirm = Some(Confirm::new(words::CONFIRM_CANCEL, None))
            }
            Screen::ConfirmSubmit => {
                let payload = self.flow.payload();
                let names: Vec<String> = self
                    .flow
                    .unanswered_required()
                    .into_iter()
                    .map(|q| one_line(&payload.questions[q].label).into_owned())
                    .collect();
                self.confirm = Some(Confirm::new(
                    words::CONFIRM_SUBMIT,
                    Some(words::unanswered_required(&names)),
                ));
            }
        }
    }

    /// A text-only question (docs/dialects.md) opens its editor as it is entered, once.
    fn auto_open(&mut self) -> Option<Outcome> {
        let Screen::Question(q) = self.flow.screen() else {
            return None;
        };
        if !self.overlays.is_empty() {
            return None;
        }
        let cx = cx(&self.flow, &self.look, 80, 24, None);
        self.questions[q].auto_open(&cx)
    }

    /// The countdown line at `now`, in the last seconds of `--timeout`.
    fn countdown(&self, now: Instant) -> Option<String> {
        let seconds = self.deadline?.countdown(now)?;
        Some(countdown_line(seconds))
    }

    /// The block the top component draws now.
    fn render(&self, width: usize, height: usize, status: Option<&str>) -> Block {
        let cx = cx(&self.flow, &self.look, width, height, status);
        match self.overlays.last() {
            Some(Overlay::Pager(p)) => Block {
                lines: p.render(&cx),
                editor: false,
            },
            Some(Overlay::Editor(e)) => {
                let mut lines = vec![e.hint(&cx)];
                let under = Cx {
                    height: height.saturating_sub(2).max(1),
                    status: None,
                    ..cx
                };
                let at_review = self.flow.screen() == Screen::Review;
                lines.extend(match e.target {
                    Target::CustomText(q) => {
                        self.questions[q].render(&under, Mode::Editing(Row::TypeOwn))
                    }
                    Target::OptionNote(q, o) => {
                        self.questions[q].render(&under, Mode::Editing(Row::Option(o)))
                    }
                    Target::Note(_) if at_review => Vec::new(),
                    Target::Note(q) | Target::Filter(q) => {
                        self.questions[q].render(&under, Mode::Prompt)
                    }
                });
                Block {
                    lines,
                    editor: true,
                }
            }
            None => Block {
                lines: match self.flow.screen() {
                    Screen::Question(q) => self.questions[q].render(&cx, Mode::Menu),
                    Screen::Review => self.review.render(&cx),
                    Screen::ConfirmCancel { .. } | Screen::ConfirmSubmit => self
                        .confirm
                        .as_ref()
                        .map(|c| c.render(&cx))
                        .unwrap_or_default(),
                },
                editor: false,
            },
        }
    }

    /// The transcript above the block now: the title, then the line of every question left
    /// so far that comes before the current one (all of them at the review); at the end,
    /// every question and how it ended.
    fn transcript(&self, ending: Option<&Ending>) -> Transcript {
        let payload = self.flow.payload();
        let width = term_width(self.cols.max(1));
        let mut lines = Vec::new();
        if let Some(title) = &payload.title {
            let title = one_line(title);
            lines.push(Line {
                entry: Entry::Title,
                text: self.look.heading(&title, width),
                key: title.into_owned(),
            });
        }
        let before = match (ending, self.flow.screen()) {
            (Some(_), _) => payload.questions.len(),
            (
                None,
                Screen::Question(q)
                | Screen::ConfirmCancel {
                    from: Place::Question(q),
                },
            ) => q,
            _ => payload.questions.len(),
        };
        for q in 0..before.min(self.lines.len()) {
            if self.left[q] || ending.is_some() {
                lines.push(self.lines[q].clone());
            }
        }
        if let Some(ending) = ending {
            let (_, words) = view::ending_words(ending);
            lines.push(Line {
                entry: Entry::End,
                text: self.look.ending(ending, width),
                key: words,
            });
        }
        lines
    }

    /// Question `q`'s transcript line, as drawn and as it says.
    fn line_of(&self, q: usize) -> Line {
        let (payload, answers) = (self.flow.payload(), self.flow.answers());
        let width = term_width(self.cols.max(1));
        Line {
            entry: Entry::Question(q),
            text: view::transcript_line(&self.look, payload, answers, q, width),
            key: view::transcript_line(&Look::default(), payload, answers, q, usize::MAX / 4),
        }
    }

    /// Every question's transcript line again (the first frame, a resize).
    fn update_lines(&mut self) {
        if self.region.placement() != Placement::Inline {
            return;
        }
        self.lines = (0..self.flow.payload().questions.len())
            .map(|q| self.line_of(q))
            .collect();
        let mut f = self.farewell.lock().unwrap_or_else(|e| e.into_inner());
        f.questions = self.lines.clone();
    }

    /// Draws the top component's block under the transcript.
    fn draw(&mut self, now: Instant) -> io::Result<()> {
        let (rows, cols) = self.io.size();
        if self.cols == 0 {
            self.cols = cols;
        }
        let width = term_width(cols);
        let status = self.countdown(now).map(|l| fit(&l, width));
        let block = if rows < MIN_ROWS {
            Block {
                lines: vec![fit(words::TOO_SMALL, width)],
                editor: false,
            }
        } else if self.region.placement() == Placement::Full {
            // On the alternate screen the title heads the screen (inline it is the
            // transcript's first line).
            let title = self
                .flow
                .payload()
                .title
                .as_deref()
                .map(|t| self.look.heading(&one_line(t), width));
            let height = self.region.budget(rows) - usize::from(title.is_some());
            let mut block = self.render(width, height.max(1), status.as_deref());
            block.lines.splice(0..0, title);
            block
        } else {
            self.render(width, self.region.budget(rows), status.as_deref())
        };
        self.block_rows = block.lines.len();
        let transcript = self.transcript(None);
        let bytes = self.region.draw(&transcript, &block, rows, cols);
        if !bytes.is_empty() {
            self.io.write(&bytes)?;
        }
        if std::mem::take(&mut self.bell) {
            self.io.write("\x07")?;
        }
        if self.lines.is_empty() && !self.left.is_empty() {
            // Every question's line is made after the first frame: the first frame comes first.
            self.update_lines();
            self.set_farewell();
        }
        self.keep_farewell();
        Ok(())
    }

    /// Sets what a signal or a panic leaves (once; [`Session::keep_farewell`] keeps it current).
    fn set_farewell(&mut self) {
        if self.region.placement() != Placement::Inline {
            return;
        }
        {
            let mut f = self.farewell.lock().unwrap_or_else(|e| e.into_inner());
            f.active = true;
            f.colour = self.look.colour();
            f.title = self
                .transcript(None)
                .into_iter()
                .find(|l| l.entry == Entry::Title);
        }
        let shared = Arc::clone(&self.farewell);
        crate::terminal::set_farewell(Some(Box::new(move |departure| {
            let f = shared.lock().unwrap_or_else(|e| e.into_inner());
            if !f.active {
                return String::new();
            }
            let ending = match departure {
                crate::terminal::Departure::Signal(signal_hook::consts::SIGINT) => {
                    Ending::Interrupted
                }
                crate::terminal::Departure::Signal(signal) => Ending::Aborted { signal },
                crate::terminal::Departure::Panic => Ending::Internal("a panic".into()),
            };
            let mut lines: Transcript = f.title.iter().cloned().collect();
            lines.extend(f.questions.iter().cloned());
            let (_, words) = view::ending_words(&ending);
            lines.push(Line {
                entry: Entry::End,
                text: Look::new(f.colour).ending(&ending, f.width),
                key: words,
            });
            region::finish_bytes(f.at, &Region::final_lines(&f.given_up, &lines))
        })));
    }

    /// Keeps what a signal leaves current: where the cursor is, what was given up.
    fn keep_farewell(&mut self) {
        let mut f = self.farewell.lock().unwrap_or_else(|e| e.into_inner());
        f.at = self.region.at();
        f.width = term_width(self.cols.max(1));
        let given = self.region.given_up();
        if f.given_up.len() != given.len() {
            f.given_up = given.clone();
        }
    }

    /// Ends the run on the terminal: inline, the final transcript (title, every question's
    /// answer, how it ended) replaces the region and the cursor goes under it.
    fn leave(&mut self, ending: &Ending) {
        if let Ok(mut f) = self.farewell.lock() {
            f.active = false;
        }
        if self.region.placement() == Placement::Full {
            // The backend leaves the alternate screen ([`Backend::finish`]).
            return;
        }
        self.update_lines();
        let lines = self.transcript(Some(ending));
        let bytes = self.region.finish(&lines);
        let _ = self.io.write(&bytes);
    }

    /// Applies a command; the flow refusing one this front end sent is a bug, reported as an
    /// [`io::Error`] wrapping the [`FlowError`] ([`drive`] turns it into `internal`).
    fn apply(&mut self, command: Command) -> io::Result<()> {
        let touched = self.flow.touched(&command);
        self.flow.apply(command).map_err(io::Error::other)?;
        if let (Some(q), false) = (touched, self.lines.is_empty()) {
            let line = self.line_of(q);
            if self.lines[q] != line {
                self.lines[q] = line.clone();
                let mut f = self.farewell.lock().unwrap_or_else(|e| e.into_inner());
                if let Some(l) = f.questions.get_mut(q) {
                    *l = line;
                }
            }
        }
        Ok(())
    }

    /// Does what an outcome asks.
    fn outcome(&mut self, outcome: Outcome) -> io::Result<()> {
        match outcome {
            Outcome::Stay => {}
            Outcome::Apply(command) => self.apply(command)?,
            Outcome::Open(overlay) => self.overlays.push(overlay),
            Outcome::Close { apply, then } => {
                self.overlays.pop();
                if let Some(command) = apply {
                    self.apply(command)?;
                }
                if let (Some(action), false) = (then, self.flow.is_over()) {
                    self.sync();
                    let outcome = self.screen_action(action);
                    self.outcome(outcome)?;
                }
            }
            Outcome::Filter(q, filter) => {
                self.overlays.pop();
                let cx = cx(&self.flow, &self.look, 80, 24, None);
                self.questions[q].set_filter(&cx, filter);
            }
        }
        Ok(())
    }

    /// The key map of what is shown.
    fn keymap(&self) -> &'static [keymap::Binding] {
        match (self.overlays.last(), self.flow.screen()) {
            (Some(_), _) => keymap::PAGER,
            (None, Screen::Question(q)) => {
                crate::ui::question::keymap(&self.flow.payload().questions[q])
            }
            (None, Screen::Review) => keymap::REVIEW,
            (None, _) => keymap::CONFIRM,
        }
    }

    /// What `action` does on the screen (not an overlay).
    fn screen_action(&mut self, action: Action) -> Outcome {
        let (rows, cols) = self.io.size();
        let cx = cx(
            &self.flow,
            &self.look,
            term_width(cols),
            self.region.budget(rows),
            None,
        );
        match self.flow.screen() {
            Screen::Question(q) => self.questions[q].on(action, &cx),
            Screen::Review => self.review.on(action, &cx),
            Screen::ConfirmCancel { .. } | Screen::ConfirmSubmit => match &mut self.confirm {
                Some(c) => c.on(action),
                None => Outcome::Stay,
            },
        }
    }

    /// Waits for the next key or resize and acts on it.
    fn event(&mut self, wait: Option<Duration>) -> io::Result<()> {
        match self.io.event(wait)? {
            Event::Timeout => Ok(()),
            Event::Resize => {
                if self.io.take_continued() {
                    let t = self.transcript(None);
                    self.region.restart(&t);
                    self.key_came();
                } else {
                    self.resized();
                }
                Ok(())
            }
            Event::Key(key) => {
                self.key_came();
                self.key(key)
            }
        }
    }

    /// Acts on a key at a menu or a pager.
    fn key(&mut self, key: Key) -> io::Result<()> {
        let action = keymap::action(self.keymap(), &key);
        match action {
            Some(Action::Dismiss) => return self.apply(Command::Interrupt),
            Some(Action::Suspend) => return self.suspend(),
            Some(Action::Peek) if self.overlays.is_empty() => return self.peek(),
            _ => {}
        }
        if self.io.size().0 < MIN_ROWS {
            return Ok(());
        }
        let outcome = match self.overlays.last_mut() {
            Some(Overlay::Pager(p)) => p.on(action),
            Some(Overlay::Editor(_)) => Outcome::Stay,
            None => match action {
                Some(action) => self.screen_action(action),
                None => Outcome::Stay,
            },
        };
        self.outcome(outcome)
    }

    /// The window changed size: the block is laid out again and drawn whole.
    fn resized(&mut self) {
        let (rows, cols) = self.io.size();
        let t = self.transcript(None);
        self.region.resized(self.cols, cols, rows, &t);
        self.cols = cols;
        self.update_lines();
    }

    /// Ctrl+Z: inline, the block is erased first (the transcript stays), the cursor under the
    /// transcript; after `fg` the block is drawn again where the cursor is then.
    fn suspend(&mut self) -> io::Result<()> {
        let (rows, cols) = self.io.size();
        let t = self.transcript(None);
        if self.region.placement() == Placement::Inline {
            let bytes = self.region.draw(&t, &Block::default(), rows, cols);
            self.io.write(&bytes)?;
        }
        self.region.restart(&t);
        self.keep_farewell();
        self.io.suspend()?;
        self.key_came();
        Ok(())
    }

    /// Ctrl+]: the agent's message (`--context`) in a pager that opens at its end; without
    /// it, inline, where the message is; on the alternate screen, the screen underneath until
    /// a key.
    fn peek(&mut self) -> io::Result<()> {
        match (&self.context, self.region.placement()) {
            (Some(text), _) => {
                let pager = Pager::new(words::PEEK_TITLE.to_string(), text.clone(), true);
                self.overlays.push(Overlay::Pager(pager));
            }
            (None, Placement::Inline) => {
                let pager = Pager::new(
                    words::PEEK_TITLE.to_string(),
                    words::PEEK_NONE.to_string(),
                    false,
                );
                self.overlays.push(Overlay::Pager(pager));
            }
            (None, Placement::Full) => {
                self.io.show_main_screen(true)?;
                let now = self.io.now();
                let event = self.io.event(self.deadline.and_then(|d| d.wait(now)))?;
                self.io.show_main_screen(false)?;
                let (rows, cols) = self.io.size();
                self.region.resized(cols, cols, rows, &Vec::new());
                if event == Event::Key(Key::Ctrl('c')) {
                    self.apply(Command::Interrupt)?;
                } else if matches!(event, Event::Key(_)) {
                    self.key_came();
                }
            }
        }
        Ok(())
    }

    /// A key came: the time of `--timeout` starts again.
    fn key_came(&mut self) {
        let now = self.io.now();
        if let Some(deadline) = &mut self.deadline {
            deadline.reset(now);
        }
    }

    /// No key came for `--timeout`: an open editor's draft is kept as Esc would keep it, then
    /// the flow times out, keeping the answers given so far.
    fn time_out(&mut self) -> io::Result<()> {
        if self.editor.take().is_some() {
            let (rows, cols) = self.io.size();
            let before = self.io.editor_cursor();
            let row = editor_cursor_at(EDITOR_PROMPT, &before, cols).0;
            let draft = self.io.abandon_edit();
            let t = self.transcript(None);
            self.region.editor_closed(row, &t, rows);
            self.keep_farewell();
            if let Some(Overlay::Editor(e)) = self.overlays.last_mut() {
                let outcome = e.closed(Edit::TimedOut(draft));
                self.outcome(outcome)?;
            }
        }
        let why = self.deadline.map(|d| d.message()).unwrap_or_default();
        self.apply(Command::TimeOut(why))
    }

    /// Runs the top editor until it closes or the wait ends; with `--timeout`, writes the
    /// countdown over the block's top line in its last seconds, the editor's cursor kept.
    fn edit(&mut self, wait: Option<Duration>) -> io::Result<()> {
        let Some(Overlay::Editor(editor)) = self.overlays.last() else {
            return Ok(());
        };
        let initial = editor.initial.clone();
        let placeholder = editor.placeholder();
        let size = self.io.size();
        let mut open = self.editor.unwrap_or(OpenEditor {
            size,
            key_at: None,
            counting: false,
        });
        if self.editor.is_none() {
            let (rows, cols) = size;
            self.completer
                .set_list_room(rows.saturating_sub(self.region.at() + 2), cols);
            self.completer.set_placeholder(placeholder);
        }
        let mut wait = wait;
        if let Some(at) = open.key_at {
            let quiet = (at + EDITOR_QUIET).saturating_duration_since(self.io.now());
            wait = Some(wait.map_or(quiet, |w| w.min(quiet)));
        }
        match self
            .io
            .edit(EDITOR_PROMPT, &initial, &self.completer, wait)?
        {
            EditWait::Closed(edit) => {
                self.editor = None;
                self.key_came();
                self.editor_closed(open.size, edit)
            }
            EditWait::Open { last_key } => {
                if let (Some(deadline), Some(at)) = (&mut self.deadline, last_key) {
                    deadline.reset(at);
                }
                let now = self.io.now();
                // Inline, the top row is found from the editor's cursor, which its thread moves
                // as it draws a key: nothing is written until it has been quiet a moment.
                if last_key.is_some() && self.region.placement() == Placement::Inline {
                    open.key_at = Some(now);
                }
                self.editor = Some(open);
                if self.deadline.is_some_and(|d| d.is_past(now)) {
                    return Ok(());
                }
                if open
                    .key_at
                    .is_some_and(|at| now.saturating_duration_since(at) < EDITOR_QUIET)
                {
                    return Ok(());
                }
                open.key_at = None;
                self.editor_countdown(open, now)
            }
        }
    }

    /// The countdown written over an open editor's block (its hint line), or the hint put back
    /// when a key came.
    fn editor_countdown(&mut self, mut open: OpenEditor, now: Instant) -> io::Result<()> {
        let (rows, cols) = self.io.size();
        let width = term_width(cols);
        let status = self.countdown(now).map(|l| fit(&l, width));
        if status.is_none() && !open.counting {
            self.editor = Some(open);
            return Ok(());
        }
        let block = self.render(width, self.region.budget(rows), status.as_deref());
        let line = block.lines.first().cloned().unwrap_or_default();
        open.counting = self.countdown(now).is_some();
        self.editor = Some(open);
        let bytes = match self.region.placement() {
            Placement::Full => {
                let row = 1 + usize::from(self.flow.payload().title.is_some());
                format!("\x1b7\x1b[{row};1H{line}\x1b[K\x1b8")
            }
            Placement::Inline => {
                let before = self.io.editor_cursor();
                let (row, col) = editor_cursor_at(EDITOR_PROMPT, &before, cols);
                let up = self.block_rows + row;
                let mut out = format!("\x1b[{up}A\r{line}\x1b[K\x1b[{up}B\r");
                if col > 0 {
                    out.push_str(&format!("\x1b[{col}C"));
                }
                out
            }
        };
        self.io.write(&bytes)
    }

    /// An editor closed: the rows it took, then what its closing does.
    fn editor_closed(&mut self, opened: (usize, usize), edit: Edit) -> io::Result<()> {
        let (rows, cols) = self.io.size();
        let text = match &edit {
            Edit::Saved(t)
            | Edit::Closed(t)
            | Edit::Suspended(t)
            | Edit::Peek(t)
            | Edit::TimedOut(t) => t.as_str(),
            Edit::Navigate(_) | Edit::Interrupted => "",
        };
        let t = self.transcript(None);
        self.region
            .editor_closed(editor_rows(EDITOR_PROMPT, text, cols), &t, rows);
        if opened != (rows, cols) {
            self.region.resized(opened.1, cols, rows, &t);
            self.cols = cols;
            self.update_lines();
        }
        self.keep_farewell();
        let suspend = matches!(edit, Edit::Suspended(_));
        let peek = matches!(edit, Edit::Peek(_));
        let outcome = match self.overlays.last_mut() {
            Some(Overlay::Editor(e)) => e.closed(edit),
            _ => Outcome::Stay,
        };
        self.outcome(outcome)?;
        if suspend {
            self.suspend()?;
        } else if peek {
            self.peek()?;
        }
        Ok(())
    }
}

/// A [`Cx`] for `width` x `height`.
fn cx<'a, 'p>(
    flow: &'a Flow<'p>,
    look: &'a Look,
    width: usize,
    height: usize,
    status: Option<&'a str>,
) -> Cx<'a, 'p> {
    Cx {
        flow,
        look,
        width,
        height,
        status,
    }
}

#[cfg(test)]
mod tests;

//! The terminal front end: the screen model ([`crate::ui`]) drawn inline at the cursor (or on
//! the alternate screen), keys from our own reader, the line editors as components
//! (docs/interactive.md describes the screens and keys).
//!
//! One loop ([`Session::run`]) over one event stream: keys (an open editor's too) and
//! resizes from the terminal, the `--timeout` clock. What every screen shares is handled here once: Ctrl+C dismisses,
//! Ctrl+Z suspends like a shell job, Ctrl+] peeks at the agent's message, the bell rings on
//! the first frame, the countdown takes the hint line's place in the last seconds, a resize
//! lays the block out again. The screens are components with their own state (`question.rs`,
//! `review.rs`, `overlay.rs`: `on(action) -> Outcome`, `render(cx) -> lines`; an editor is
//! `crate::ui::line_editor` under `overlay::Editor`, its keys in `editing.rs`); the region
//! (`region.rs`) owns what is on the terminal: the block, the transcript above it, and the
//! lines another program left above that (`--above`). Where to
//! go next and every answer rule are the [`Flow`]'s: this module maps keys to actions through
//! the key maps ([`crate::ui::keymap`]) and actions to [`Command`]s.

mod aside;
mod backend;
mod editing;
#[cfg(any(test, feature = "fake-terminal"))]
mod fake;
mod layers;
mod menu;
mod overlay;
mod question;
mod region;
mod review;
mod screens;
mod transcript;

pub use backend::{Backend, EditorRun, TtyBackend};
#[cfg(any(test, feature = "fake-terminal"))]
pub use fake::FakeBackend;
pub use region::Placement;

use super::timeout::{countdown_line, Deadline};
use super::AskOptions;
use crate::complete::AtCompleter;
use crate::flow::{Command, Flow, FlowError, Screen};
use crate::keys::{Event, Key};
use crate::result::Ending;
use crate::text::fit;
use crate::text::one_line;
use crate::ui::keymap::{self, Action};
use crate::ui::view::Look;
use crate::ui::words;
use layers::{Outcome, Overlay};
use overlay::Pager;
use region::{Block, Region, Transcript};
use screens::Screens;
use std::io;
use std::time::{Duration, Instant};
use transcript::Record;

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
    let (reflows, pulls_back) = backend.resize_traits();
    let mut s = Session {
        screens: Screens::new(n),
        record: Record::new(n),
        region: region::Region::new(opts.placement, reflows)
            .with_pull_back(pulls_back)
            .with_above(
                opts.above
                    .as_deref()
                    .map(|text| region::Above::new(text, opts.colour)),
            ),
        look: Look::new(opts.colour),
        completer: AtCompleter::new(opts.cwd.clone()),
        context: opts.context.clone(),
        notify: Some(opts.notify.clone()),
        leave_nothing: opts.leave_nothing,
        grace: super::grace::Grace::new(opts.key_grace),
        ignored_said: false,
        deadline: None,
        cols: 0,
        block_rows: 0,
        drawn: Block::default(),
        channel: opts.channel.clone(),
        open_channel: opts.open_channel.clone(),
        choice_claims_enter: None,
        number: None,
        letter: None,
        flow,
        io: backend,
    };
    if let Some(channel) = &s.channel {
        // An answer from elsewhere ends the wait for a key ([`Session::take_from_elsewhere`]).
        channel.on_arrival(crate::keys::wake_the_reader);
    }
    s.screens.cell_cursor = !s.region.shows_cursor();
    s.screens.quiet = crate::ui::keymap::quiet_globals(
        opts.context.is_some(),
        opts.placement == Placement::Inline,
    );
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

/// How long after the first frame, without a key, the work that waits for it is done
/// ([`Session::after_the_first_frame`]).
const IDLE_AFTER: Duration = Duration::from_millis(15);

/// What [`Session::apply_note`] did with a note an editor saves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Refused {
    /// Applied: the answer rules took it.
    No,
    /// One too many: the note editor stays open on the text, its hint saying so.
    Kept,
    /// One too many again, the hint shown: the editor closes without it.
    Dropped,
}

/// How long a key's letter read with more input behind it waits for that input's key
/// ([`crate::ui::keymap::may_begin_a_word`]): the key is there already, so this bounds only a
/// read that brings no key (the rest of an escape sequence still coming).
const LETTER_WAIT: Duration = Duration::from_millis(100);

/// The fewest rows a screen is drawn in; below it a notice waits for a larger window.
const MIN_ROWS: usize = 3;

/// The terminal front end's state: the flow, the terminal, what is on it, the screens.
struct Session<'p, B> {
    flow: Flow<'p>,
    io: B,
    region: Region,
    look: Look,
    screens: Screens,
    record: Record,
    /// `@` completion in every editor, rooted at `--cwd`.
    completer: AtCompleter,
    /// What the peek shows (`--context FILE`).
    context: Option<String>,
    /// How to notify that the questions wait, at the first frame (`--notify`).
    notify: Option<crate::notify::Settings>,
    /// Inline: the run ends leaving nothing ([`AskOptions::leave_nothing`]).
    leave_nothing: bool,
    /// Keys within this grace after the first frame are not acted on
    /// ([`AskOptions::key_grace`]).
    grace: super::grace::Grace,
    /// The line saying keys were dropped by the grace was shown and a key came after it.
    ignored_said: bool,
    deadline: Option<Deadline>,
    /// The columns the last frame was laid out for.
    cols: usize,
    /// The rows of the last block.
    block_rows: usize,
    /// The last block drawn.
    drawn: Block,
    /// The answer channel (src/channel.rs): a request is decided on at each event.
    channel: Option<std::sync::Arc<crate::channel::Channel>>,
    /// Opens the answer channel once the first frame is up ([`AskOptions::open_channel`]).
    open_channel: Option<super::ChannelOpener>,
    /// A digit chose an option and moved on: an Enter next, in the same burst or until this
    /// time, is that choice's own confirmation ([`Session::enter_of_a_choice`]).
    choice_claims_enter: Option<Instant>,
    /// The option number typed so far, which may go on: it waits for Enter (which chooses it)
    /// or a digit more, as the hint line says ([`Session::number_waiting`]), however long.
    number: Option<usize>,
    /// A key's letter read with more input right behind it, which may begin a word
    /// ([`crate::ui::keymap::may_begin_a_word`]), and when the wait for the next key ends
    /// ([`LETTER_WAIT`]).
    letter: Option<(char, Instant)>,
}

/// The number of a digit key (`0` to `9`).
fn digit(key: &Key) -> Option<usize> {
    match key {
        Key::Char(c) => c.to_digit(10).map(|d| d as usize),
        _ => None,
    }
}

/// Columns a drawn line may use: the width less one (a line that fills the last column makes
/// some terminals wrap), at least 1.
fn term_width(cols: usize) -> usize {
    cols.saturating_sub(1).max(1)
}

/// The terminal's width for a region that must lay out before it has a size.
fn screen_width() -> usize {
    80
}

impl<B: Backend> Session<'_, B> {
    /// Shows the flow's screens until it ends.
    fn run(&mut self) -> io::Result<()> {
        while !self.flow.is_over() {
            self.sync();
            let now = self.io.now();
            if self.deadline.is_some_and(|d| d.is_past(now)) {
                if self.io.continue_pending() {
                    // A stop from outside ran the clock out: its continue starts it again
                    // (docs/interactive.md "Timeout").
                    self.event(Some(Duration::ZERO))?;
                    continue;
                }
                self.time_out()?;
                continue;
            }
            if let Some((letter, _)) = self.letter.take_if(|(_, at)| *at <= now) {
                // No key came behind it: it was a key.
                self.act_on_letter(letter, false)?;
                continue;
            }
            if let Some(outcome) = self.screens.auto_open(&self.flow, &self.look) {
                self.outcome(outcome)?;
                continue;
            }
            // Keys typed into an editor in a burst (a fast typist, a paste's keys, a link that
            // delivers late) are read first and drawn once.
            let burst = self.screens.editing() && self.record.ready() && self.io.input_pending();
            if !burst {
                self.draw(now)?;
            }
            let wait = match (
                self.deadline.and_then(|d| d.wait(now)),
                self.letter.map(|(_, at)| at.saturating_duration_since(now)),
            ) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            if let Some(left) = self.grace.left(now) {
                // The grace of the first question: keys are read and dropped, resizes and the
                // clock still count.
                self.after_the_first_frame();
                self.event_in_the_grace(wait.map_or(left, |w| w.min(left)))?;
                continue;
            }
            if !self.record.ready() {
                self.io.idle(wait.map_or(IDLE_AFTER, |w| w.min(IDLE_AFTER)));
                self.after_the_first_frame();
                self.event(wait)?;
            } else {
                self.event(wait)?;
            }
        }
        Ok(())
    }

    /// Notifies once that the questions wait (the bell, OSC 9 / 777, a command: `--notify`),
    /// naming the question shown.
    fn notify_waiting(&mut self, notify: &crate::notify::Settings) -> io::Result<()> {
        let payload = self.flow.payload();
        let q = match self.flow.screen() {
            Screen::Question(q) => q,
            _ => 0,
        };
        let mut notice = crate::notify::Notice::question_waiting(
            payload.title.as_deref(),
            &payload.questions[q],
        );
        if let Some(c) = &self.channel {
            notice = notice.with_channel(c);
        }
        let bytes = notify.when_waiting(&notice, true);
        if bytes.is_empty() {
            return Ok(());
        }
        self.io.write(&String::from_utf8_lossy(&bytes))
    }

    /// Sets the screens up for the flow's screen; the question left gets its line.
    fn sync(&mut self) {
        if let Some(q) = self.screens.sync(&self.flow, &self.look) {
            self.record.left(q);
        }
    }

    /// The transcript above the block now.
    fn transcript(&self, ending: Option<&Ending>) -> Transcript {
        let given_up = |e| self.region.is_given_up(e);
        self.record
            .transcript(&self.flow, &self.look, self.cols, ending, &given_up)
    }

    /// What `action` does on the screen under the overlays.
    fn screen_action(&mut self, action: Action) -> Outcome {
        let (rows, cols) = self.io.size();
        let (width, height) = (term_width(cols), self.region.budget(rows));
        let typed_ahead = self.io.input_pending();
        self.screens
            .screen_action(&self.flow, &self.look, action, (width, height), typed_ahead)
    }

    /// The countdown line at `now`, in the last seconds of `--timeout`.
    fn countdown(&self, now: Instant) -> Option<String> {
        let seconds = self.deadline?.countdown(now)?;
        Some(countdown_line(seconds))
    }

    /// Draws the top component's block under the transcript.
    fn draw(&mut self, now: Instant) -> io::Result<()> {
        let (rows, cols) = self.io.size();
        if self.cols == 0 {
            self.cols = cols;
        }
        let block = self.frame(now, rows, cols);
        self.block_rows = block.lines.len();
        let transcript = self.transcript(None);
        let bytes = self.region.draw(&transcript, &block, rows, cols);
        self.drawn = block;
        if !bytes.is_empty() {
            self.io.write(&bytes)?;
        }
        if let Some(notify) = self.notify.take() {
            // The first frame is up: the grace of the first question runs from here; the
            // answer channel opens (the notification's command is told it); the
            // notification comes at once.
            self.grace.start(now);
            if let Some(open) = self.open_channel.take() {
                self.channel = (open.0)(self.flow.payload());
                if let Some(channel) = &self.channel {
                    channel.on_arrival(crate::keys::wake_the_reader);
                }
            }
            self.notify_waiting(&notify)?;
            if self.region.wants_cursor_row() {
                // Where the frame left the cursor, asked once it is drawn (keys read while
                // waiting come next): a resize compares it with the row after.
                let row = self.io.cursor_row()?;
                self.region.cursor_told(row);
            }
        }
        self.record.keep(&self.region, self.cols);
        Ok(())
    }

    /// The top component's block in a window of `rows` x `cols`, within the region's budget
    /// (its top lines go first), the countdown over it at `now`.
    fn frame(&self, now: Instant, rows: usize, cols: usize) -> Block {
        let width = term_width(cols);
        let status = self
            .number_waiting()
            .or_else(|| self.countdown(now))
            .or_else(|| self.keys_ignored().map(str::to_string))
            .map(|l| fit(&l, width));
        let block = if rows < MIN_ROWS {
            Block {
                lines: vec![fit(words::TOO_SMALL, width)],
                ..Block::default()
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
            let mut block = self.screens.render(
                &self.flow,
                &self.look,
                width,
                height.max(1),
                status.as_deref(),
            );
            let titled = usize::from(title.is_some());
            block.lines.splice(0..0, title);
            block.cursor = block.cursor.map(|(row, col)| (row + titled, col));
            block
        } else {
            self.screens.render(
                &self.flow,
                &self.look,
                width,
                self.region.budget(rows),
                status.as_deref(),
            )
        };
        // The block within the budget (its top goes first): the rows drawn are the rows the
        // countdown over an editor counts.
        let mut block = block;
        let budget = self.region.budget(rows);
        if block.lines.len() > budget {
            let cut = block.lines.len() - budget;
            block.lines.drain(..cut);
            block.cursor = block
                .cursor
                .and_then(|(row, col)| Some((row.checked_sub(cut)?, col)));
        }
        block
    }

    /// What waits for the first frame to be up and for the first key or a short while without
    /// one ([`IDLE_AFTER`]), so the first prompt comes first (docs/benchmarks.md, figure 1):
    /// the signal watch's thread, every question's transcript line, what a signal leaves.
    fn after_the_first_frame(&mut self) {
        if self.record.ready() {
            return;
        }
        let _ = crate::terminal::watch_now();
        self.record.update_all(&self.flow, &self.look, self.cols);
        if self.region.placement() == Placement::Inline {
            let title = self
                .record
                .transcript(&self.flow, &self.look, self.cols, None, &|_| false)
                .into_iter()
                .find(|l| l.entry == region::Entry::Title);
            self.record
                .set_farewell(title, self.look.colour(), self.leave_nothing);
        }
        self.record.keep(&self.region, self.cols);
    }

    /// Ends the run on the terminal: inline, the final transcript (title, every question's
    /// answer, how it ended) replaces the region and the cursor goes under it; with
    /// `leave_nothing` the region is erased and the cursor left at its top.
    fn leave(&mut self, ending: &Ending) {
        self.record.stop();
        if !self.io.in_the_foreground() {
            // The shell has the terminal back (the caller died): nothing over its prompt.
            return;
        }
        if self.region.placement() == Placement::Full {
            // The backend leaves the alternate screen ([`Backend::finish`]).
            return;
        }
        let bytes = if self.leave_nothing {
            self.region.erase(self.io.size().0)
        } else {
            self.record.update_all(&self.flow, &self.look, self.cols);
            let lines =
                self.record
                    .transcript(&self.flow, &self.look, self.cols, Some(ending), &|_| false);
            self.region.finish(&lines, self.io.size().0)
        };
        let _ = self.io.write(&bytes);
    }

    /// Applies a command; the flow refusing one this front end sent is a bug, reported as an
    /// [`io::Error`] wrapping the [`FlowError`] ([`drive`] turns it into `internal`).
    fn apply(&mut self, command: Command) -> io::Result<()> {
        self.try_apply(command).map_err(io::Error::other)
    }

    /// [`Session::apply`], the flow's refusal returned as it is (a refused command changes
    /// nothing).
    fn try_apply(&mut self, command: Command) -> Result<(), crate::flow::FlowError> {
        let touched = self.flow.touched(&command);
        if let Command::SetOptionNote { question, .. } = &command {
            self.screens.notes_changed(*question);
        }
        self.flow.apply(command)?;
        if let Some(q) = touched {
            self.record.update(&self.flow, &self.look, self.cols, q);
        }
        Ok(())
    }

    /// Applies a note (or a custom text) an editor saves; when the answer rules refuse it as one too many
    /// ([`AnswerError::TooManyNotes`](crate::answers::AnswerError::TooManyNotes), the flow
    /// unchanged): the first time the note editor stays open on its text, its hint saying so
    /// ([`words::TOO_MANY_NOTES_NOTICE`](crate::ui::words::TOO_MANY_NOTES_NOTICE)); closed
    /// again with that hint shown, the text is dropped, as the hint said.
    fn apply_note(&mut self, command: Command) -> io::Result<Refused> {
        match self.try_apply(command) {
            Err(crate::flow::FlowError::Answer(crate::answers::AnswerError::TooManyNotes {
                ..
            })) => {
                let notice = crate::ui::words::TOO_MANY_NOTES_NOTICE;
                Ok(match self.screens.overlays.last_mut() {
                    // The editor stays open on its own text.
                    Some(Overlay::Editor(e)) if e.notice != Some(notice) => {
                        e.notice = Some(notice);
                        Refused::Kept
                    }
                    _ => Refused::Dropped,
                })
            }
            applied => applied.map(|()| Refused::No).map_err(io::Error::other),
        }
    }

    /// Does what an outcome asks.
    fn outcome(&mut self, outcome: Outcome) -> io::Result<()> {
        match outcome {
            Outcome::Stay => {}
            Outcome::Apply(command) => self.apply(command)?,
            Outcome::Open(overlay) => {
                let overlay = self.held_to_the_block(overlay);
                self.screens.overlays.push(overlay)
            }
            Outcome::Close { mut apply, then } => {
                // What the notes' budget may refuse: a note, a custom text.
                let note = apply.take_if(|c| {
                    matches!(
                        c,
                        Command::SetNote { .. }
                            | Command::SetOptionNote { .. }
                            | Command::SaveCustomText(_)
                            | Command::DraftCustomText(_)
                    )
                });
                if let Some(note) = note {
                    if self.apply_note(note)? == Refused::Kept {
                        return Ok(());
                    }
                }
                self.screens.overlays.pop();
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
                self.screens.overlays.pop();
                self.screens.set_filter(&self.flow, &self.look, q, filter);
            }
        }
        Ok(())
    }

    /// Waits for the next key or resize and acts on it.
    fn event(&mut self, wait: Option<Duration>) -> io::Result<()> {
        let event = self.io.event(wait)?;
        if self.take_from_elsewhere() {
            return Ok(());
        }
        self.on_event(event)
    }

    /// Decides on an answer from elsewhere waiting on the answer channel
    /// ([`super::answer_from_elsewhere`]); `true` when it ended the questions (its flow
    /// replaces this one, and the ending's line says who answered).
    fn take_from_elsewhere(&mut self) -> bool {
        let Some(channel) = self.channel.clone() else {
            return false;
        };
        let Some(done) = super::answer_from_elsewhere(&self.flow, &channel) else {
            return false;
        };
        self.flow = done.flow;
        self.screens.overlays.clear();
        self.record.answered_from(done.from);
        true
    }

    /// Waits at most `wait` within the grace of the first question ([`super::grace`]): a key
    /// the grace drops is not acted on (nor is the `--timeout` clock started again); a key it
    /// no longer drops, and a resize, are.
    ///
    /// A key whose first bytes came within the grace but whose rest had not come when the
    /// wait ended (an escape sequence, a UTF-8 character or a paste split across reads) keeps
    /// the burst going ([`super::grace::Grace::extend`]): it is dropped whole when it
    /// completes, never acted on in part or typed as its tail's characters.
    fn event_in_the_grace(&mut self, wait: Duration) -> io::Result<()> {
        let event = self.io.event(Some(wait))?;
        if self.take_from_elsewhere() {
            return Ok(());
        }
        match event {
            Event::Key(_) if self.grace.drops(self.io.now()) => Ok(()),
            Event::Timeout if self.io.input_pending() => {
                self.grace.extend(self.io.now());
                Ok(())
            }
            event => self.on_event(event),
        }
    }

    /// The line in place of the hint line while an option number waits for a digit more
    /// ([`crate::ui::question::number_waiting`]): the digits typed so far.
    fn number_waiting(&self) -> Option<String> {
        let number = self.number?;
        match self.flow.screen() {
            Screen::Question(q) => Some(crate::ui::question::number_waiting(
                &self.flow.payload().questions[q],
                number,
            )),
            _ => None,
        }
    }

    /// The line that says keys were dropped by the grace of the first question, in place of
    /// the hint line from the first dropped key until a key is acted on.
    fn keys_ignored(&self) -> Option<&'static str> {
        (self.grace.dropped() > 0 && !self.ignored_said).then_some(words::KEYS_IGNORED)
    }

    /// Acts on a key or a resize.
    fn on_event(&mut self, event: Event) -> io::Result<()> {
        match event {
            Event::Timeout => Ok(()),
            Event::Resize => {
                if self.io.take_continued() {
                    let t = self.transcript(None);
                    self.region.restart(&t);
                    self.key_came();
                } else {
                    self.resized()?;
                }
                Ok(())
            }
            Event::Key(key) => {
                self.key_came();
                self.key(key)
            }
        }
    }

    /// Whether `key` is the Enter typed right after a digit that chose an option at a
    /// single-select question and moved on (`3` Enter, a person's habit): in the same burst,
    /// or within [`super::grace::Grace::choice_confirmation`] (a person types the two keys
    /// 100-300 ms apart, and nobody reads the next screen that fast). That choice's own
    /// confirmation: dropped, never acted on by the next screen (docs/interactive.md
    /// "Type-ahead"). Any key ends the claim; the keys after the Enter act.
    fn enter_of_a_choice(&mut self, key: &Key) -> bool {
        let until = self.choice_claims_enter.take();
        *key == Key::Enter && until.is_some_and(|until| self.io.now() <= until)
    }

    /// What a digit's `outcome` claims: an Enter next, when it chose an option and so moved
    /// on ([`Session::enter_of_a_choice`]).
    fn claim_after(&mut self, outcome: &Outcome) {
        if !matches!(outcome, Outcome::Apply(Command::Choose(_))) {
            self.choice_claims_enter = None;
            return;
        }
        let now = self.io.now();
        let window = self.grace.choice_confirmation();
        self.choice_claims_enter = if self.io.input_pending() {
            // The same burst: the next key is claimed whatever the grace.
            Some(now + window.max(Duration::from_secs(1)))
        } else {
            (!window.is_zero()).then(|| now + window)
        };
    }

    /// Acts on a key at a menu, a pager or an editor.
    fn key(&mut self, key: Key) -> io::Result<()> {
        if self.enter_of_a_choice(&key) {
            return Ok(());
        }
        if let Some(number) = self.number.take() {
            if let Some(d) = digit(&key) {
                return self.number_typed(number.saturating_mul(10).saturating_add(d));
            }
            match key {
                // Enter chooses the number, as the hint line says (the Enter is its own).
                Key::Enter => {
                    self.act_on_number(number)?;
                    self.choice_claims_enter = None;
                    return Ok(());
                }
                // Esc and Backspace take the number back.
                Key::Esc | Key::Backspace => return Ok(()),
                // Any other key drops it unchosen and acts as itself: nothing is chosen that
                // the person did not confirm.
                _ => {}
            }
        }
        if let Some((held, _)) = self.letter.take() {
            // The key behind a held letter tells a word from a key: a word's letters go to the
            // filter (this key then goes to its editor), else the letter acts as its key.
            self.act_on_letter(held, keymap::begins_a_word(held, &key))?;
            if self.flow.is_over() {
                return Ok(());
            }
            self.sync();
        }
        if self.screens.editing() {
            return self.editor_key(key);
        }
        let map = self.screens.keymap(&self.flow);
        if let Key::Paste(text) = &key {
            // A paste at a list is its filter's text, as fzf takes it for its query: the
            // filter opens and the paste goes in as in its editor (never read as keys).
            let filters = map
                .iter()
                .any(|b| matches!(b.action, Action::Filter | Action::TypeOwn));
            if self.screens.overlays.is_empty() && filters && self.io.size().0 >= MIN_ROWS {
                let text = text.clone();
                // The question opens where typed text goes (a secret's: its masked editor).
                let outcome = self.screen_action(Action::TypeOwn);
                self.outcome(outcome)?;
                if self.screens.editing() {
                    return self.editor_key(Key::Paste(text));
                }
                return Ok(());
            }
        }
        let action = keymap::action(map, &key);
        match action {
            Some(Action::Dismiss) => return self.apply(Command::Interrupt),
            Some(Action::Suspend) => return self.suspend(),
            Some(Action::Peek) if self.screens.overlays.is_empty() => return self.peek(),
            _ => {}
        }
        if self.io.size().0 < MIN_ROWS {
            return Ok(());
        }
        let outcome = match self.screens.overlays.last_mut() {
            Some(Overlay::Pager(p)) => p.on(action),
            Some(Overlay::Editor(_)) => Outcome::Stay,
            None => match action {
                Some(Action::Number(d)) if self.number_may_go_on(d) => {
                    return self.number_typed(d);
                }
                Some(_) if self.io.input_pending() && keymap::may_begin_a_word(map, &key) => {
                    if let Key::Char(c) = key {
                        self.letter = Some((c, self.io.now() + LETTER_WAIT));
                    }
                    return Ok(());
                }
                Some(action) => {
                    let outcome = self.screen_action(action);
                    if matches!(action, Action::Number(_)) {
                        self.claim_after(&outcome);
                    }
                    outcome
                }
                None => Outcome::Stay,
            },
        };
        self.outcome(outcome)
    }

    /// Whether option number `number` typed at the question shown may begin a longer one
    /// ([`crate::ui::question::number_may_go_on`]).
    fn number_may_go_on(&self, number: usize) -> bool {
        match self.flow.screen() {
            Screen::Question(q) => {
                crate::ui::question::number_may_go_on(&self.flow.payload().questions[q], number)
            }
            _ => false,
        }
    }

    /// Option number `number` was typed (with a digit more, perhaps): it waits for the next
    /// digit while a longer number may start with it (Enter chooses it), else acts at once.
    fn number_typed(&mut self, number: usize) -> io::Result<()> {
        if self.number_may_go_on(number) {
            self.number = Some(number);
            return Ok(());
        }
        self.act_on_number(number)
    }

    /// Option number `number` acts on the question shown (chooses, ticks, opens Type your
    /// own's editor); a choice that moves on with more keys behind it claims an Enter next
    /// ([`Session::enter_of_a_choice`]).
    fn act_on_number(&mut self, number: usize) -> io::Result<()> {
        if !self.screens.overlays.is_empty() || !matches!(self.flow.screen(), Screen::Question(_)) {
            return Ok(());
        }
        let outcome = self.screen_action(Action::Number(number));
        self.claim_after(&outcome);
        self.outcome(outcome)
    }

    /// A held letter ([`Session::letter`]) acts: typed into the filter when it begins a word
    /// (`word`), else as its key.
    fn act_on_letter(&mut self, letter: char, word: bool) -> io::Result<()> {
        if !self.screens.overlays.is_empty() || !matches!(self.flow.screen(), Screen::Question(_)) {
            return Ok(());
        }
        let map = self.screens.keymap(&self.flow);
        let action = match word {
            true => Some(Action::Type(letter)),
            false => keymap::action(map, &Key::Char(letter)),
        };
        match action {
            Some(action) => {
                let outcome = self.screen_action(action);
                self.outcome(outcome)
            }
            None => Ok(()),
        }
    }

    /// The window changed size: the block is laid out again and drawn whole, from where the
    /// terminal says the cursor is when it answers (inline).
    ///
    /// Errors: the terminal could not be written or read.
    fn resized(&mut self) -> io::Result<()> {
        let (rows, cols) = self.io.size();
        let t = self.transcript(None);
        let cursor = if self.region.wants_cursor_row() {
            self.io.cursor_row()?
        } else {
            None
        };
        self.region.resized_at(self.cols, cols, rows, &t, cursor);
        self.cols = cols;
        self.record.update_all(&self.flow, &self.look, cols);
        self.lay_out_listing(false);
        Ok(())
    }

    /// A key came: the time of `--timeout` starts again; the line saying keys were dropped
    /// has been read.
    fn key_came(&mut self) {
        let now = self.io.now();
        if self.grace.dropped() > 0 && self.grace.left(now).is_none() {
            self.ignored_said = true;
        }
        if let Some(deadline) = &mut self.deadline {
            deadline.reset(now);
        }
    }
}

#[cfg(test)]
mod tests;

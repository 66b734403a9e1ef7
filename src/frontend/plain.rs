//! The plain front end: numbered lines and line input only, for terminals that cannot move the
//! cursor (`TERM=dumb` or unset) and for `--plain`.
//!
//! It writes no escape sequence at all (no colour, no cursor movement, no bracketed-paste
//! toggles): only text lines. It draws the screen model ([`crate::ui`]), spelling no row or
//! word of a screen itself: every question is printed as a block (its heading such as
//! `2/3 Frontend (choose any)`, the prompt, its note, the model's rows: the numbered options
//! with descriptions and full previews, the custom-text row as option N+1, Next on a multi-select
//! question), then one line is read and turned into an [`Entry`] by the pure [`parse_entry`];
//! the review prints the model's review lines and numbered actions and reads a
//! [`ReviewEntry`] with [`parse_review_entry`]. What may be typed (numbers, `> text`,
//! `note:`, `#2` …) is plain mode's own. Every answer rule is applied by the [`Flow`];
//! payload and typed text pass through `crate::sanitize` before they are printed.
//!
//! Lines are read from and written to the controlling terminal (`/dev/tty`), never stdin or
//! stdout. End of input on the terminal (Ctrl+D, a hang-up) ends the flow with a cancelled
//! result (`terminal_lost`).
//!
//! With `--timeout` each read first waits for a typed line ([`Lines::ready`], `poll` on the
//! terminal): in the last seconds one countdown line is printed (then the prompt again), and
//! when the time is up the flow times out, keeping the answers given so far. The terminal
//! holds a line until Enter (canonical mode), so a typed line is what starts the time again,
//! and a line half typed when the time is up is discarded (the terminal's input is flushed
//! as the run ends, [`crate::terminal::discard_pending_input`]).

use super::timeout::{plain_countdown_line, Deadline};
use super::AskOptions;
use crate::contract::{Question, QuestionType};
use crate::flow::{Command, Flow, FlowError, Screen};
use crate::result::Ending;
use crate::text::indented;
use crate::text::one_line;
use crate::ui::question::{self as model, Row, Rows};
use crate::ui::review::{self, LineKind, ReviewAction, ACTIONS};
use crate::ui::{view, words};
use std::fmt::Write as _;
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::time::{Duration, Instant};

/// What one line typed at a question prompt asks for. Option numbers are 0-based here; the
/// person types 1-based rendered positions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    /// An empty line: keep the current answer (skip when unanswered) and go on.
    Keep,
    /// `?` or `help`: print the help for this prompt.
    Help,
    /// `<` or `back`: go to the previous question.
    Back,
    /// `review`: go to the review step.
    Review,
    /// `cancel`: dismiss the whole flow.
    Cancel,
    /// `-`: clear the selection and the custom text (notes stay).
    Clear,
    /// The number of the custom-text row (N+1, [`crate::ui::question::digit_row`]): ask for
    /// the custom text on a line of its own.
    TypeOwn,
    /// An answer. `options`: the new selection, when numbers, a value or a label were typed
    /// (it replaces the selection); `custom`: the new custom text after `>` (empty clears it).
    Answer {
        /// The options to select (0-based, in the order typed), replacing the selection.
        options: Option<Vec<usize>>,
        /// Custom text to save; `Some("")` clears it.
        custom: Option<String>,
    },
    /// `note: text` (question note, `option: None`) or `note N: text` (option note of option
    /// N, 0-based here). Empty text clears the note.
    Note {
        /// The option (0-based) whose note this is, or `None` for the question note.
        option: Option<usize>,
        /// The note text, trimmed; empty clears.
        text: String,
    },
    /// A line that means nothing here; the reason is one line for the person.
    Invalid(String),
}

/// What one line typed at the review prompt asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReviewEntry {
    /// One of the review's actions ([`ACTIONS`]): its number (`1`) or its words (`submit`,
    /// any case); an empty line is Submit (the terminal's review opens on it); `quit` is
    /// Cancel.
    Action(ReviewAction),
    /// `#N`: re-open question N (0-based here).
    Open(usize),
    /// `<` or `back`: go to the last question.
    Back,
    /// `?` or `help`.
    Help,
    /// A line that means nothing here; the reason is one line for the person.
    Invalid(String),
}

/// The marker that starts custom text: `> Svelte`.
pub const CUSTOM_MARKER: char = '>';

/// The marker before a question's number at the review: `#2` re-opens question 2.
pub const QUESTION_MARKER: char = '#';

/// Parses the option numbers in `text` (`2`, `1,3`, `1 3`, `1, 3`) into 0-based positions.
///
/// `Ok(None)`: `text` is not a list of numbers at all; `Err`: numbers, but one is out of range.
fn parse_numbers(text: &str, count: usize) -> Result<Option<Vec<usize>>, String> {
    let tokens: Vec<&str> = text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .collect();
    if tokens.is_empty() || !tokens.iter().all(|t| t.bytes().all(|b| b.is_ascii_digit())) {
        return Ok(None);
    }
    let mut out = Vec::with_capacity(tokens.len());
    for t in tokens {
        match t.parse::<usize>() {
            Ok(n) if (1..=count).contains(&n) => out.push(n - 1),
            _ => return Err(format!("there is no option {t}: choose {}", range(count))),
        }
    }
    Ok(Some(out))
}

/// `1` or `1-3`, for messages.
fn range(count: usize) -> String {
    if count == 1 {
        "1".to_string()
    } else {
        format!("a number from 1 to {count}")
    }
}

/// The option whose value or label is `text`: exact first, then a case-insensitive match when
/// exactly one option matches that way.
fn option_by_name(text: &str, question: &Question) -> Option<usize> {
    let exact = question
        .options
        .iter()
        .position(|o| o.value == text || o.label == text);
    exact.or_else(|| {
        let lower = text.to_lowercase();
        let mut hits =
            question.options.iter().enumerate().filter(|(_, o)| {
                o.value.to_lowercase() == lower || o.label.to_lowercase() == lower
            });
        match (hits.next(), hits.next()) {
            (Some((i, _)), None) => Some(i),
            _ => None,
        }
    })
}

/// `note: text` / `note 2: text` (also `note2:`), case-insensitive `note`; the Type your own
/// row's number notes the question.
fn parse_note(line: &str, question: &Question) -> Option<Entry> {
    let head = line.get(..4)?;
    if !head.eq_ignore_ascii_case("note") {
        return None;
    }
    let (which, text) = line[4..].split_once(':')?;
    let which = which.trim();
    let text = text.trim().to_string();
    if which.is_empty() {
        return Some(Entry::Note { option: None, text });
    }
    if !which.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let count = question.options.len();
    Some(match which.parse::<usize>() {
        Ok(n) if (1..=count).contains(&n) => Entry::Note {
            option: Some(n - 1),
            text,
        },
        // The Type your own row's number: a note on the typed answer is the question's note
        // (docs/plain-mode.md).
        Ok(n) if n == count + 1 && question.allows_custom_text() => {
            Entry::Note { option: None, text }
        }
        _ => Entry::Invalid(format!(
            "there is no option {which} to note: choose {}",
            range(count)
        )),
    })
}

/// Turns one line typed at a question prompt into an [`Entry`]; pure, no state.
///
/// In order: empty → [`Entry::Keep`]; `?` → help; `<` → back; `note: …` / `note N: …` → a
/// note; `> text` → custom text; `-` → clear; numbers (`2`, `1,3`, `1 3`, on multi also
/// followed by `> text`) → options, and the number after the last option → the custom-text row
/// when the question takes custom text; an option's exact value or label (or a unique
/// case-insensitive match) → that option; the words `help`, `back`, `review`, `cancel`;
/// anything else → [`Entry::Invalid`] with a one-line reason. On a text-only question (no
/// options) any other line is the answer. Custom text on a question that takes none
/// ([`Question::allows_custom_text`]), several numbers plus text on a single-select question,
/// and numbers out of range are invalid here; how many options a question takes is left to the answer rules
/// ([`crate::answers::AnswerState`]).
pub fn parse_entry(line: &str, question: &Question) -> Entry {
    let line = line.trim();
    let count = question.options.len();
    let custom_allowed = question.allows_custom_text();
    let no_custom = || {
        Entry::Invalid(if question.kind == QuestionType::Preview {
            format!(
                "this preview question takes no answer of your own: choose {}",
                range(count)
            )
        } else {
            format!(
                "this question takes only its options, no answer of your own: choose {}",
                range(count)
            )
        })
    };
    match line {
        "" => return Entry::Keep,
        "?" => return Entry::Help,
        "<" => return Entry::Back,
        "-" => return Entry::Clear,
        _ => {}
    }
    if let Some(note) = parse_note(line, question) {
        return note;
    }
    if let Some(text) = line.strip_prefix(CUSTOM_MARKER) {
        if !custom_allowed {
            return no_custom();
        }
        return Entry::Answer {
            options: None,
            custom: Some(text.trim().to_string()),
        };
    }
    if question.is_text_only() {
        // A text-only question (docs/dialects.md): the line is the answer, unless it is one
        // of the command words.
        return match line.to_lowercase().as_str() {
            "help" => Entry::Help,
            "back" => Entry::Back,
            "review" => Entry::Review,
            "cancel" => Entry::Cancel,
            _ => Entry::Answer {
                options: None,
                custom: Some(line.to_string()),
            },
        };
    }
    if let Ok(n) = line.parse::<usize>() {
        if model::digit_row(question, &Rows::of(question, None), n) == Some(Row::TypeOwn) {
            return Entry::TypeOwn;
        }
    }
    let (numbers, custom) = match line.split_once(CUSTOM_MARKER) {
        Some((n, text)) => (n, Some(text.trim().to_string())),
        None => (line, None),
    };
    match parse_numbers(numbers, count) {
        Err(msg) => return Entry::Invalid(msg),
        Ok(Some(options)) => {
            if custom.is_some() {
                if !custom_allowed {
                    return no_custom();
                }
                if !question.kind.takes_several() {
                    return Entry::Invalid(
                        "this question takes one answer: a number, or \"> your own answer\", not both"
                            .to_string(),
                    );
                }
            }
            return Entry::Answer {
                options: Some(options),
                custom,
            };
        }
        Ok(None) => {}
    }
    if let Some(i) = option_by_name(line, question) {
        return Entry::Answer {
            options: Some(vec![i]),
            custom: None,
        };
    }
    match line.to_lowercase().as_str() {
        "help" => return Entry::Help,
        "back" => return Entry::Back,
        "review" => return Entry::Review,
        "cancel" => return Entry::Cancel,
        _ => {}
    }
    let what = if custom_allowed {
        format!(
            "not an option: type {}, or \"{CUSTOM_MARKER} your own answer\" (? for help)",
            range(count)
        )
    } else {
        format!("not an option: type {} (? for help)", range(count))
    };
    Entry::Invalid(what)
}

/// Turns one line typed at the review prompt into a [`ReviewEntry`]; pure. `questions` is the
/// number of questions.
pub fn parse_review_entry(line: &str, questions: usize) -> ReviewEntry {
    let line = line.trim();
    match line.to_lowercase().as_str() {
        "" => return ReviewEntry::Action(ReviewAction::Submit),
        "quit" => return ReviewEntry::Action(ReviewAction::Cancel),
        "<" | "back" => return ReviewEntry::Back,
        "?" | "help" => return ReviewEntry::Help,
        _ => {}
    }
    if let Some(action) = ReviewAction::named(line) {
        return ReviewEntry::Action(action);
    }
    let all_digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    if all_digits(line) {
        return match line
            .parse::<usize>()
            .ok()
            .and_then(ReviewAction::numbered_as)
        {
            Some(action) => ReviewEntry::Action(action),
            None => ReviewEntry::Invalid(format!(
                "there is no action {line}: choose {}",
                range(ACTIONS.len())
            )),
        };
    }
    if let Some(number) = line.strip_prefix(QUESTION_MARKER).map(str::trim) {
        if all_digits(number) {
            return match number.parse::<usize>() {
                Ok(n) if (1..=questions).contains(&n) => ReviewEntry::Open(n - 1),
                _ => ReviewEntry::Invalid(match questions {
                    1 => format!("there is no question {number}: type {QUESTION_MARKER}1"),
                    n => format!(
                        "there is no question {number}: type {QUESTION_MARKER}1 to {QUESTION_MARKER}{n}"
                    ),
                }),
            };
        }
    }
    ReviewEntry::Invalid(format!(
        "type {}, or {QUESTION_MARKER} and a question's number to change it (? for help)",
        action_choices()
    ))
}

/// The review's actions as the lines that run them: `1 (Submit) or 2 (Cancel)`.
fn action_choices() -> String {
    let choices: Vec<String> = ACTIONS
        .iter()
        .enumerate()
        .map(|(i, a)| format!("{} ({})", i + 1, a.label()))
        .collect();
    match choices.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// Whether a confirmation answer is yes (`y`, `yes`, any case); anything else is no.
pub fn is_yes(line: &str) -> bool {
    matches!(line.trim().to_lowercase().as_str(), "y" | "yes")
}

/// Asks every question with numbered lines on the controlling terminal (`/dev/tty`).
///
/// Ends as the flow ends (submitted, dismissed by `cancel`, timed out with `--timeout`), or
/// with [`Ending::TerminalLost`] when the terminal cannot be opened, fails, or reaches end of
/// input (Ctrl+D).
pub fn ask(flow: Flow<'_>, opts: &AskOptions) -> Ending {
    let tty = match OpenOptions::new().read(true).write(true).open("/dev/tty") {
        Ok(f) => f,
        Err(e) => return Ending::TerminalLost(format!("cannot open the terminal: {e}")),
    };
    // Lines go through the terminal's writer thread: a terminal that takes no output never
    // blocks the flow (src/terminal.rs).
    let mut writer = crate::terminal::TtyOut;
    // Lines typed before the first prompt never answer it; the notification (the bell by
    // default) tells someone in another window that the agent waits. No escape sequences in
    // plain mode: the OSC channels are left out.
    crate::terminal::discard_typeahead();
    if let Some(question) = flow.payload().questions.first() {
        let mut notice =
            crate::notify::Notice::question_waiting(flow.payload().title.as_deref(), question);
        if let Some(c) = &opts.channel {
            notice = notice.with_channel(c);
        }
        let _ = writer.write_all(&opts.notify.when_waiting(&notice, false));
    }
    // ASCII only on a terminal whose locale is not UTF-8 (`text::charset`).
    let writer = crate::text::charset::CharsetWriter::new(writer, crate::text::terminal_charset());
    // Long lines wrapped between words at the window's width, read for each line.
    let size_of = (tty.try_clone(), tty.try_clone());
    let size_of = match size_of {
        (Ok(read), Ok(write)) => Some(console::Term::read_write_pair(read, write)),
        _ => None,
    };
    let writer = WrapWriter::new(writer, move || {
        let (_, cols) = size_of.as_ref()?.size_checked()?;
        (cols > 0).then_some(usize::from(cols))
    });
    // `fg` after a stop prints the prompt again (without the wake, it is not).
    let lines = FileLines::new(BufReader::new(tty));
    let lines = match crate::keys::ContinueWake::new() {
        Ok(wake) => lines.woken_by_continue(wake),
        Err(_) => lines,
    };
    let ending = run_answerable(
        flow,
        lines,
        writer,
        (opts.timeout, opts.key_grace),
        opts.channel.clone(),
    );
    // The last lines before the result, which stdout may print on the same terminal.
    crate::terminal::flush_tty();
    // However it ended (a timeout, an answer from elsewhere), a line half typed is not left
    // to the shell.
    crate::terminal::discard_pending_input();
    ending
}

/// An [`io::Write`] that writes each whole line it is given wrapped between words at the
/// window's width (`columns`, read for each line; `None`: as it is), the rows after the
/// first indented as the line is (at most half the width): plain mode's lines, so a long
/// hint or description is not left to the terminal's wrap, mid-word. A line not ended yet
/// (a prompt) is written as it is when flushed.
pub struct WrapWriter<W, C> {
    inner: W,
    columns: C,
    pending: Vec<u8>,
}

impl<W: Write, C: Fn() -> Option<usize>> WrapWriter<W, C> {
    /// A writer to `inner` at the width `columns` gives.
    pub fn new(inner: W, columns: C) -> Self {
        WrapWriter {
            inner,
            columns,
            pending: Vec::new(),
        }
    }

    /// `line` (without its line break) wrapped at `columns`; the rows after the first start
    /// where its text does, or, in a table's row (`  2              choose option 2`), where
    /// the text after its first gap of two spaces does (at most half the width in).
    fn wrapped(line: &str, columns: usize) -> String {
        use crate::text::{width_of, wrap_words};
        if width_of(line) <= columns {
            return line.to_string();
        }
        let spaces = line.len() - line.trim_start_matches(' ').len();
        let column = line[spaces..]
            .find("  ")
            .map(|gap| {
                let after = &line[spaces + gap..];
                spaces + gap + (after.len() - after.trim_start_matches(' ').len())
            })
            .filter(|&at| width_of(&line[..at]) <= columns / 2)
            .unwrap_or(spaces.min(columns / 2));
        let (head, tail) = line.split_at(column);
        let indent = " ".repeat(width_of(head));
        let rows = wrap_words(tail.trim_end(), columns.saturating_sub(indent.len()).max(1));
        rows.iter()
            .enumerate()
            .map(|(i, row)| match i {
                0 => format!("{head}{row}"),
                _ => format!("{indent}{row}"),
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

impl<W: Write, C: Fn() -> Option<usize>> Write for WrapWriter<W, C> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        let Some(end) = self.pending.iter().rposition(|b| *b == b'\n') else {
            return Ok(buf.len());
        };
        let rest = self.pending.split_off(end + 1);
        let lines = std::mem::replace(&mut self.pending, rest);
        let text = String::from_utf8_lossy(&lines);
        match (self.columns)() {
            Some(columns) => {
                for line in text.split_inclusive('\n') {
                    let body = line.strip_suffix('\n').unwrap_or(line);
                    self.inner
                        .write_all(Self::wrapped(body, columns).as_bytes())?;
                    self.inner.write_all(b"\n")?;
                }
            }
            None => self.inner.write_all(text.as_bytes())?,
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        let pending = std::mem::take(&mut self.pending);
        self.inner.write_all(&pending)?;
        self.inner.flush()
    }
}

/// Typed lines that can be waited for with a deadline (`--timeout`): the terminal's
/// ([`FileLines`]), a test's on a fake clock, or any [`BufRead`] that never times out
/// ([`Untimed`]).
pub trait Lines: BufRead {
    /// Waits at most `wait` for a line to read; whether one can be read now (or the input
    /// ended: the read then tells).
    ///
    /// Errors: the wait failed.
    fn ready(&mut self, wait: Duration) -> io::Result<bool>;
    /// The time now.
    fn now(&self) -> Instant;
    /// Whether the process was continued (`fg` after a stop) since the last call; only a
    /// source that can tell says so ([`FileLines::woken_by_continue`]).
    fn continued(&mut self) -> bool {
        false
    }
    /// Reads the next lines without echo (`hidden`: a secret question's, docs/plain-mode.md),
    /// or with the echo as it was again. A source that is no terminal has none to hide.
    ///
    /// Errors: the terminal's modes could not be changed.
    fn hide_echo(&mut self, hidden: bool) -> io::Result<()> {
        let _ = hidden;
        Ok(())
    }
}

/// A file's lines, waited for with `poll` ([`Lines::ready`]): the terminal's (a line is
/// there once Enter is pressed), or the dialog client's on stdin (`frontend::dialogs`).
#[derive(Debug)]
pub struct FileLines {
    lines: BufReader<File>,
    /// The terminal's modes before [`Lines::hide_echo`] turned its echo off; put back by
    /// `hide_echo(false)`, on drop, and by a signal's ending (`terminal::restore`).
    echoed: Option<nix::sys::termios::Termios>,
    /// Ends a wait when the process is continued ([`Lines::continued`]).
    wake: Option<crate::keys::ContinueWake>,
    continued: bool,
}

impl FileLines {
    /// The lines of `lines`.
    pub fn new(lines: BufReader<File>) -> FileLines {
        FileLines {
            lines,
            echoed: None,
            wake: None,
            continued: false,
        }
    }

    /// The same lines, whose wait also ends when the process is continued (`fg`).
    pub fn woken_by_continue(mut self, wake: crate::keys::ContinueWake) -> FileLines {
        self.wake = Some(wake);
        self
    }
}

impl Read for FileLines {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.lines.read(buf)
    }
}

impl BufRead for FileLines {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.lines.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        self.lines.consume(amount)
    }
}

impl Lines for FileLines {
    fn ready(&mut self, wait: Duration) -> io::Result<bool> {
        let ready = if !self.lines.buffer().is_empty() {
            true
        } else if let Some(wake) = &self.wake {
            let (ready, continued) = wake.wait(self.lines.get_ref(), wait)?;
            self.continued |= continued;
            ready
        } else {
            crate::keys::wait_readable(self.lines.get_ref(), wait)?
        };
        // A signal's ending owns the run from here: no line is acted on (as the terminal
        // backend does with keys).
        crate::terminal::yield_to_a_pending_signal();
        Ok(ready)
    }

    fn now(&self) -> Instant {
        Instant::now()
    }

    fn continued(&mut self) -> bool {
        let continued = std::mem::take(&mut self.continued);
        if continued {
            // Continued in the background (`bg`): its prompt would go among the shell's
            // lines, and its read would stop it; it waits for `fg`.
            crate::terminal::wait_for_the_foreground(None);
            // The shell had the terminal meanwhile: the echo is hidden again.
            if let Some(echoed) = self.echoed.take() {
                let _ = self.set_echo_off();
                self.echoed = Some(echoed);
            }
        }
        continued
    }

    fn hide_echo(&mut self, hidden: bool) -> io::Result<()> {
        use nix::sys::termios::{tcgetattr, tcsetattr, SetArg};
        match (hidden, self.echoed.take()) {
            (true, Some(echoed)) => self.echoed = Some(echoed),
            (true, None) => {
                // Not a terminal (the dialog client's stdin): nothing is echoed.
                let Ok(found) = tcgetattr(self.lines.get_ref()) else {
                    return Ok(());
                };
                self.set_echo_off()?;
                self.echoed = Some(found);
            }
            (false, Some(echoed)) => {
                tcsetattr(self.lines.get_ref(), SetArg::TCSANOW, &echoed)?;
            }
            (false, None) => {}
        }
        Ok(())
    }
}

impl FileLines {
    /// The terminal's echo off, but for the line break that ends a line (`ECHONL`), so Enter
    /// still moves to the next line.
    fn set_echo_off(&self) -> io::Result<()> {
        use nix::sys::termios::{tcgetattr, tcsetattr, LocalFlags, SetArg};
        let mut modes = tcgetattr(self.lines.get_ref())?;
        modes.local_flags.remove(LocalFlags::ECHO);
        modes.local_flags.insert(LocalFlags::ECHONL);
        tcsetattr(self.lines.get_ref(), SetArg::TCSANOW, &modes)?;
        Ok(())
    }
}

impl Drop for FileLines {
    fn drop(&mut self) {
        let _ = self.hide_echo(false);
    }
}

/// Any line source as [`Lines`] that are always ready: it never times out.
#[derive(Debug)]
pub struct Untimed<R>(pub R);

impl<R: Read> Read for Untimed<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf)
    }
}

impl<R: BufRead> BufRead for Untimed<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.0.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        self.0.consume(amount)
    }
}

impl<R: BufRead> Lines for Untimed<R> {
    fn ready(&mut self, _wait: Duration) -> io::Result<bool> {
        Ok(true)
    }

    fn now(&self) -> Instant {
        Instant::now()
    }
}

/// How long one wait for a line lasts without `--timeout` (it is waited for again).
const UNTIMED_WAIT: Duration = Duration::from_secs(3600);

/// Why the loop stopped reading.
enum Stop {
    Eof,
    /// No line came for `--timeout`.
    TimedOut,
    Io(io::Error),
    /// The flow refused a command the front end only sends when it applies: a bug.
    Internal(String),
    /// The questions were answered from elsewhere, by this (the answer channel).
    Elsewhere(String),
}

/// How often the wait for a line looks at the answer channel.
const CHANNEL_LOOK: Duration = Duration::from_millis(100);

impl From<io::Error> for Stop {
    fn from(e: io::Error) -> Self {
        Stop::Io(e)
    }
}

/// The plain front end over any line source and sink: the testable core of [`ask`]. `input`
/// gives typed lines, `out` receives everything shown (flushed before each read). It never
/// times out.
pub fn run<R: BufRead, W: Write>(flow: Flow<'_>, input: R, out: W) -> Ending {
    run_with_timeout(flow, Untimed(input), out, None)
}

/// [`run`] with `--timeout`: when no line comes for `timeout`, the flow times out, keeping
/// the answers given so far ([`Ending::TimedOut`]); in the last seconds one countdown line is
/// printed.
pub fn run_with_timeout<R: Lines, W: Write>(
    flow: Flow<'_>,
    input: R,
    out: W,
    timeout: Option<Duration>,
) -> Ending {
    run_with(flow, input, out, timeout, Duration::ZERO)
}

/// [`run_with_timeout`] with the grace of the first question (`key_grace`, zero: off;
/// [`super::grace`]): a line completed within it after the first prompt is dropped, as is
/// each line of the same burst, and the prompt printed again.
pub fn run_with<R: Lines, W: Write>(
    flow: Flow<'_>,
    input: R,
    out: W,
    timeout: Option<Duration>,
    key_grace: Duration,
) -> Ending {
    run_answerable(flow, input, out, (timeout, key_grace), None)
}

/// [`run_with`] (`times`: the timeout and the key grace) that also takes an answer from
/// elsewhere on `channel` while it waits for a line (src/channel.rs): the questions end with
/// it, and the last line says who answered.
pub fn run_answerable<R: Lines, W: Write>(
    flow: Flow<'_>,
    input: R,
    out: W,
    times: (Option<Duration>, Duration),
    channel: Option<std::sync::Arc<crate::channel::Channel>>,
) -> Ending {
    let (timeout, key_grace) = times;
    let deadline = timeout.map(|t| Deadline::new(t, input.now()));
    let mut plain = Plain {
        flow,
        input,
        out,
        deadline,
        grace: super::grace::Grace::new(key_grace),
        channel,
    };
    match plain.run() {
        Ok(()) => super::ending_of(plain.flow, "plain"),
        Err(Stop::Elsewhere(from)) => {
            let ending = super::ending_of(plain.flow, "plain");
            let words = view::ending_words_from(&ending, Some(&from)).1;
            let _ = writeln!(plain.out, "\n{words}.");
            let _ = plain.out.flush();
            ending
        }
        Err(Stop::TimedOut) => {
            let why = plain.deadline.map(|d| d.message()).unwrap_or_default();
            let ending = super::time_out(plain.flow, why);
            let _ = writeln!(plain.out, "\n{}.", view::ending_words(&ending).1);
            let _ = plain.out.flush();
            ending
        }
        Err(Stop::Eof) => {
            let _ = writeln!(
                plain.out,
                "\nEnd of input: the questionnaire was cancelled."
            );
            let _ = plain.out.flush();
            Ending::TerminalLost("end of input on the terminal (Ctrl+D or hang-up)".to_string())
        }
        Err(Stop::Io(e)) => Ending::TerminalLost(format!("the terminal failed: {e}")),
        Err(Stop::Internal(why)) => Ending::Internal(why),
    }
}

struct Plain<'p, R, W> {
    flow: Flow<'p>,
    input: R,
    out: W,
    /// When the flow times out (`--timeout`); every line starts the time again.
    deadline: Option<Deadline>,
    /// A line completed this soon after the first prompt (or after a dropped line) is dropped.
    grace: super::grace::Grace,
    /// The answer channel, looked at while a line is waited for.
    channel: Option<std::sync::Arc<crate::channel::Channel>>,
}

impl<R: Lines, W: Write> Plain<'_, R, W> {
    fn run(&mut self) -> Result<(), Stop> {
        let payload = self.flow.payload();
        let n = payload.questions.len();
        if let Some(title) = payload.title.as_deref() {
            let title = one_line(title);
            writeln!(self.out, "{title}")?;
            writeln!(
                self.out,
                "{}",
                "=".repeat(title.chars().count().clamp(3, 60))
            )?;
        }
        writeln!(
            self.out,
            "{n} question{}. Answer each with one line; ? for help.",
            if n == 1 { "" } else { "s" }
        )?;
        super::show_screens(
            self,
            |p| &p.flow,
            Self::question,
            Self::review,
            Self::confirm,
        )?;
        if let Some(ending) = self.flow.ending() {
            if let Ending::Elaborated(answers) = &ending {
                // What the person asked, one line per note (`? Database · asked about …`).
                for (q, question) in payload.questions.iter().enumerate() {
                    let name = view::transcript_name(question);
                    for words in view::asked_lines(payload, answers, q) {
                        let line = view::Look::default().asked(&name, &words, usize::MAX / 4);
                        writeln!(self.out, "{line}")?;
                    }
                }
            }
            writeln!(self.out, "{}.", view::ending_words(&ending).1)?;
        }
        self.out.flush()?;
        Ok(())
    }

    /// Applies a command the front end only sends where it applies; a refusal is a bug.
    fn apply(&mut self, command: Command) -> Result<(), Stop> {
        self.flow.apply_sent(command).map_err(Stop::Internal)
    }

    /// Prints `prompt`, reads one line; EOF is [`Stop::Eof`], no line for `--timeout`
    /// [`Stop::TimedOut`]. Invalid UTF-8 is replaced. A line the grace of the first question
    /// drops ([`super::grace`]: within it, or in the same burst) is not acted on: the first
    /// time, a line says so; `prompt` is printed again.
    fn read_line(&mut self, prompt: &str) -> Result<String, Stop> {
        write!(self.out, "{prompt}")?;
        self.out.flush()?;
        self.grace.start(self.input.now());
        let mut buf = Vec::new();
        loop {
            self.wait_for_line(prompt)?;
            buf.clear();
            if self.input.read_until(b'\n', &mut buf)? == 0 {
                return Err(Stop::Eof);
            }
            if !self.grace.drops(self.input.now()) {
                break;
            }
            if self.grace.dropped() == 1 {
                writeln!(self.out, "{}.", crate::ui::words::KEYS_IGNORED)?;
            }
            write!(self.out, "{prompt}")?;
            self.out.flush()?;
        }
        let now = self.input.now();
        if let Some(deadline) = &mut self.deadline {
            deadline.reset(now);
        }
        Ok(String::from_utf8_lossy(&buf).into_owned())
    }

    /// With `--timeout`: waits until a line can be read, printing the countdown line (and
    /// `prompt` again) once when the last seconds start; [`Stop::TimedOut`] when the time is
    /// up first.
    ///
    /// `fg` after a stop prints `prompt` again (the shell's lines came after it; what was
    /// typed before the stop was discarded with it) and starts the time again, as the
    /// terminal front end does.
    fn wait_for_line(&mut self, prompt: &str) -> Result<(), Stop> {
        let mut counted = false;
        loop {
            let now = self.input.now();
            let wait = match &self.deadline {
                None => UNTIMED_WAIT,
                Some(deadline) => {
                    if deadline.is_past(now) {
                        return Err(Stop::TimedOut);
                    }
                    if let (false, Some(seconds)) = (counted, deadline.countdown(now)) {
                        counted = true;
                        write!(self.out, "\n{}\n{prompt}", plain_countdown_line(seconds))?;
                        self.out.flush()?;
                    }
                    let Some(wait) = deadline.wait(now) else {
                        return Ok(());
                    };
                    wait
                }
            };
            let wait = match &self.channel {
                Some(_) => wait.min(CHANNEL_LOOK),
                None => wait,
            };
            if self.input.ready(wait)? {
                return Ok(());
            }
            if let Some(channel) = self.channel.clone() {
                if let Some(done) = super::answer_from_elsewhere(&self.flow, &channel) {
                    self.flow = done.flow;
                    return Err(Stop::Elsewhere(done.from));
                }
            }
            if self.input.continued() {
                if let Some(deadline) = &mut self.deadline {
                    deadline.reset(self.input.now());
                    counted = false;
                }
                write!(self.out, "{prompt}")?;
                self.out.flush()?;
            }
        }
    }

    /// Shows question `q` and reads lines until one moves the flow; a secret question's
    /// lines are read without echo, the echo put back after, however it ends.
    fn question(&mut self, q: usize) -> Result<(), Stop> {
        let secret = self.flow.payload().questions[q].secret;
        self.input.hide_echo(secret)?;
        let asked = self.question_lines(q);
        let shown = self.input.hide_echo(false);
        asked?;
        Ok(shown?)
    }

    /// [`Plain::question`]'s lines.
    fn question_lines(&mut self, q: usize) -> Result<(), Stop> {
        let payload = self.flow.payload();
        let question = &payload.questions[q];
        self.show_question(q)?;
        let prompt = format!("{}/{}> ", q + 1, payload.questions.len());
        while self.flow.screen() == Screen::Question(q) && !self.flow.is_over() {
            let line = self.read_line(&prompt)?;
            match parse_entry(&line, question) {
                Entry::Keep => self.apply(Command::Next)?,
                Entry::Help => self.out.write_all(question_help(question).as_bytes())?,
                Entry::Back => match self.flow.apply(Command::Back) {
                    Err(FlowError::FirstQuestion) => {
                        writeln!(self.out, "This is the first question.")?
                    }
                    other => other.map_err(|e| Stop::Internal(e.to_string()))?,
                },
                Entry::Review => self.apply(Command::Review)?,
                Entry::Cancel => self.apply(Command::Dismiss)?,
                Entry::Clear => match self.flow.apply(Command::ClearAnswer) {
                    Ok(()) => writeln!(self.out, "Cleared.")?,
                    Err(e) => writeln!(self.out, "Not saved: {e}.")?,
                },
                Entry::TypeOwn => {
                    let text = self.read_line(&format!("{}> ", words::TYPE_OWN))?;
                    if text.trim().is_empty() {
                        writeln!(self.out, "Not changed.")?;
                    } else {
                        let saved = self.flow.apply(Command::SaveCustomText(text));
                        self.report_saved(q, saved)?;
                    }
                }
                Entry::Answer { options, custom } => {
                    let command = Command::Answer {
                        options,
                        custom_text: custom,
                    };
                    let saved = self.flow.apply(command);
                    self.report_saved(q, saved)?;
                }
                Entry::Note { option, text } => {
                    let (command, whose) = match option {
                        None => (
                            Command::SetNote {
                                question: q,
                                text: text.clone(),
                            },
                            words::QUESTION_NOTE.to_string(),
                        ),
                        Some(o) => (
                            Command::SetOptionNote {
                                question: q,
                                option: o,
                                text: text.clone(),
                            },
                            words::option_note(&one_line(&question.options[o].label)),
                        ),
                    };
                    match self.flow.apply(command) {
                        Ok(()) if text.is_empty() => writeln!(self.out, "{whose} cleared.")?,
                        Ok(()) => writeln!(self.out, "{whose} saved.")?,
                        Err(e) => writeln!(self.out, "{}", words::not_saved(&e))?,
                    }
                }
                Entry::Invalid(why) => writeln!(self.out, "Not understood: {why}")?,
            }
        }
        Ok(())
    }

    /// Says how an answer to question `q` went: `Saved: …` (the answer as it would be
    /// submitted), or why it was refused.
    fn report_saved(&mut self, q: usize, saved: Result<(), FlowError>) -> io::Result<()> {
        match saved {
            Ok(()) => {
                let now = self.describe(q);
                writeln!(self.out, "Saved: {now}")
            }
            Err(e) => writeln!(self.out, "Not saved: {e}."),
        }
    }

    /// Prints the block of question `q`: its heading, prompt and note, the screen model's rows
    /// (options with their descriptions, previews and notes, the custom-text row, Next on a
    /// multi-select question), the current answer, the hint.
    fn show_question(&mut self, q: usize) -> io::Result<()> {
        let payload = self.flow.payload();
        let question = &payload.questions[q];
        let answers = self.flow.answers();
        let mut s = String::new();
        let _ = writeln!(s, "\n{}", model::heading(payload, q));
        s.push_str(&indented(&question.prompt, ""));
        if let Some(context) = &question.context {
            s.push_str(&indented(context, "  "));
        }
        if let Some(note) = model::note_line(answers, q) {
            let _ = writeln!(s, "{note}");
        }
        // A text-only question's line is its answer: it shows no rows.
        let rows = match question.is_text_only() {
            true => Vec::new(),
            false => Rows::of(question, None).to_vec(),
        };
        let to_review = self.flow.next_is_review(q);
        // Columns before a row's label: " ( ) " and the number.
        let indent = " ".repeat(6 + model::number(question, Row::Option(0)).len());
        for row in rows {
            let text = model::row_text(payload, answers, q, row, false, to_review);
            let mark = model::mark(question, row, model::is_chosen(answers, q, row));
            let _ = writeln!(s, " {mark:3} {text}");
            let Row::Option(o) = row else {
                continue;
            };
            let option = &question.options[o];
            if let Some(d) = &option.description {
                s.push_str(&indented(d, &indent));
            }
            if question.kind == QuestionType::Preview {
                if let Some(p) = &option.preview {
                    s.push_str(&indented(p, &format!("{indent}| ")));
                }
            }
            if let Some(note) = model::option_note_line(answers, q, o) {
                let _ = writeln!(s, "{indent}{note}");
            }
        }
        if answers.is_answered(q) || answers.note(q).is_some() {
            let _ = writeln!(s, "Current answer: {}", self.describe(q));
        }
        let _ = writeln!(
            s,
            "{}; Enter keeps the current answer, < goes back, ? shows help.",
            answer_hint(question)
        );
        if question.secret {
            let _ = writeln!(s, "{}", words::SECRET_HIDDEN);
        }
        self.out.write_all(s.as_bytes())
    }

    /// One line describing the answer to `q` as it would be submitted, with its notes
    /// ([`AnswerState::summary`](crate::answers::AnswerState::summary)); `none` when there is
    /// nothing.
    fn describe(&self, q: usize) -> String {
        let (payload, answers) = (self.flow.payload(), self.flow.answers());
        let mut s = view::summary_text(payload, answers, q);
        for note in view::note_lines(payload, answers, q) {
            let _ = write!(s, "; {note}");
        }
        s
    }

    /// Shows the review and reads lines until one moves the flow.
    fn review(&mut self) -> Result<(), Stop> {
        let (payload, answers) = (self.flow.payload(), self.flow.answers());
        let n = payload.questions.len();
        let mut s = format!("\n{}\n", words::REVIEW_TITLE);
        // Each question's lines (upstream's submit screen), its number in a column before them.
        let column = format!("{QUESTION_MARKER}{n}").len();
        for q in 0..n {
            if q > 0 {
                s.push('\n');
            }
            for line in review::question_lines(payload, answers, q) {
                let number = match line.kind {
                    LineKind::Label => format!("{QUESTION_MARKER}{}", q + 1),
                    _ => String::new(),
                };
                let _ = writeln!(
                    s,
                    "{number:column$}{:indent$}{}",
                    "",
                    line.text,
                    indent = line.indent
                );
            }
        }
        s.push('\n');
        for action in ACTIONS {
            let _ = writeln!(s, "  {}", action.numbered());
            if let Some(description) = action.description() {
                let _ = writeln!(s, "     {description}");
            }
        }
        let _ = writeln!(
            s,
            "Type {}; {QUESTION_MARKER}2 changes question 2, < goes to the last question, ? shows help; Enter alone: {}.",
            action_choices(),
            ReviewAction::Submit.label()
        );
        self.out.write_all(s.as_bytes())?;
        while self.flow.screen() == Screen::Review && !self.flow.is_over() {
            let line = self.read_line("review> ")?;
            match parse_review_entry(&line, n) {
                ReviewEntry::Action(action) => {
                    self.apply(action.command())?;
                    // A confirmation is asked here, so no returns to this review unprinted.
                    if review::confirmation(&self.flow).is_some() {
                        self.confirm()?;
                    }
                }
                ReviewEntry::Open(q) => self.apply(Command::Open(q))?,
                ReviewEntry::Back => self.apply(Command::Back)?,
                ReviewEntry::Help => self.out.write_all(review_help().as_bytes())?,
                ReviewEntry::Invalid(why) => writeln!(self.out, "Not understood: {why}")?,
            }
        }
        Ok(())
    }

    /// A confirmation ([`review::confirmation`]) as a `[y/N]` line under the line over it:
    /// the required-question warning, or a cancel that would lose answers; `[y/N/e]` when it
    /// offers Elaborate too (notes on options not chosen: `e` or `elaborate`). No says its
    /// words (`No, go back to the review.`).
    fn confirm(&mut self) -> Result<(), Stop> {
        let Some((confirmation, detail)) = review::confirmation(&self.flow) else {
            return Err(Stop::Internal("a confirmation with none asked".to_string()));
        };
        if let Some(detail) = detail {
            writeln!(self.out, "{detail}")?;
        }
        let choices = match confirmation.elaborate {
            Some(_) => "[y/N/e]",
            None => "[y/N]",
        };
        let line = self.read_line(&format!("{} {choices} ", confirmation.title))?;
        if confirmation.elaborate.is_some() && is_elaborate(&line) {
            return self.apply(Command::Elaborate);
        }
        let yes = is_yes(&line);
        if !yes {
            writeln!(self.out, "{}.", confirmation.no)?;
        }
        self.apply(if yes { Command::Confirm } else { Command::Deny })
    }
}

/// Whether a confirmation's answer asks for Elaborate (`e`, `elaborate`, any case).
fn is_elaborate(line: &str) -> bool {
    matches!(line.trim().to_lowercase().as_str(), "e" | "elaborate")
}

/// The first part of a question's hint line: what to type for it.
fn answer_hint(question: &Question) -> String {
    let own = question.options.len() + 1;
    let type_own = words::TYPE_OWN;
    match question.kind {
        _ if question.is_text_only() => "Type your answer".to_string(),
        QuestionType::Single | QuestionType::Preview if question.allows_custom_text() => format!(
            "Type a number, or {own} ({type_own}) or \"{CUSTOM_MARKER} text\""
        ),
        QuestionType::Multi if question.allows_custom_text() => format!(
            "Type numbers (1,3 or 1 3), optionally then \"{CUSTOM_MARKER} text\", or {own} ({type_own})"
        ),
        QuestionType::Multi => "Type numbers (1,3 or 1 3)".to_string(),
        QuestionType::Single | QuestionType::Preview => "Type a number".to_string(),
    }
}

/// The help for a question prompt, for its kind.
fn question_help(question: &Question) -> String {
    let mut s = String::from("How to answer (type one line, then Enter):\n");
    let line = |s: &mut String, what: &str, does: &str| {
        let _ = writeln!(s, "  {what:<15}{does}");
    };
    match question.kind {
        _ if question.is_text_only() => line(
            &mut s,
            "text",
            "your answer (help, back, review, cancel: start with \">\")",
        ),
        QuestionType::Multi => {
            line(
                &mut s,
                "1,3 or 1 3",
                "choose options 1 and 3 (replaces the options chosen before)",
            );
            if question.allows_custom_text() {
                line(
                    &mut s,
                    "1,3 > text",
                    "choose options 1 and 3 and add your own answer",
                );
            }
        }
        _ => line(&mut s, "2", "choose option 2"),
    }
    if !question.is_text_only() {
        line(&mut s, "name", "choose the option with this value or label");
    }
    if question.allows_custom_text() {
        let type_own = words::TYPE_OWN;
        if !question.is_text_only() {
            let own = (question.options.len() + 1).to_string();
            line(
                &mut s,
                &own,
                &format!("{type_own}: asks for your own answer"),
            );
        }
        line(&mut s, "> text", &format!("your own answer ({type_own})"));
        line(&mut s, ">", "clear your own answer");
    }
    for (what, does) in [
        ("-", "clear the answer"),
        (
            "(empty line)",
            "keep the current answer and go on (skips an unanswered question)",
        ),
        (
            "note: text",
            "a note on the question (note: alone clears it)",
        ),
        ("note 2: text", "a note on option 2"),
        ("< or back", "the previous question"),
        ("review", "go to the review"),
        ("cancel", "cancel the questionnaire (no answers are given)"),
        ("?", "this help"),
    ] {
        line(&mut s, what, does);
    }
    s
}

/// The help at the review: its actions ([`ACTIONS`]) by number and words, then the other lines.
fn review_help() -> String {
    let mut s = String::from("At the review:\n");
    let line = |s: &mut String, what: &str, does: &str| {
        let _ = writeln!(s, "  {what:<15}{does}");
    };
    line(&mut s, "(empty line)", ReviewAction::Submit.label());
    for (i, action) in ACTIONS.iter().enumerate() {
        let what = format!("{} or {}", i + 1, action.label().to_lowercase());
        line(
            &mut s,
            &what,
            &format!("{}: {}", action.label(), action.describe()),
        );
    }
    line(
        &mut s,
        &format!("{QUESTION_MARKER}2"),
        "change the answer to question 2",
    );
    line(&mut s, "< or back", "the last question");
    line(&mut s, "?", "this help");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::Payload;
    use serde_json::json;

    fn payload() -> Payload {
        crate::frontend::test_support::setup_payload(json!([
            {"id": "fw", "label": "Frontend", "prompt": "Which framework?", "required": true,
             "options": [
                {"value": "react", "label": "React", "description": "Components"},
                {"value": "vue", "label": "Vue"},
                {"value": "3", "label": "Svelte"}]},
            {"id": "feat", "label": "Features", "prompt": "Which features?", "type": "multi",
             "options": [
                {"value": "auth", "label": "Auth"},
                {"value": "billing", "label": "Billing"},
                {"value": "search", "label": "back"}]}
        ]))
    }

    fn answer(options: Option<Vec<usize>>, custom: Option<&str>) -> Entry {
        Entry::Answer {
            options,
            custom: custom.map(str::to_string),
        }
    }

    fn dialect(text: &str) -> Payload {
        crate::contract::parse_payload_as(text, crate::contract::InputFormat::Auto, false)
            .payload
            .unwrap()
    }

    #[test]
    fn on_a_text_only_question_the_line_is_the_answer() {
        let p = dialect(r#"{"question": "Name?"}"#);
        let q = &p.questions[0];
        assert_eq!(parse_entry(" Atlas 2 ", q), answer(None, Some("Atlas 2")));
        assert_eq!(parse_entry("1", q), answer(None, Some("1")));
        assert_eq!(parse_entry("> cancel", q), answer(None, Some("cancel")));
        assert_eq!(parse_entry("cancel", q), Entry::Cancel);
        assert_eq!(parse_entry("", q), Entry::Keep);
        assert_eq!(
            parse_entry("note: later", q),
            Entry::Note {
                option: None,
                text: "later".into()
            }
        );
    }

    #[test]
    fn custom_text_is_refused_where_the_caller_turned_it_off() {
        let p = dialect(r#"{"question": "Which?", "options": ["a", "b"], "allowFreeform": false}"#);
        let q = &p.questions[0];
        let refused = Entry::Invalid(
            "this question takes only its options, no answer of your own: choose a number from 1 to 2"
                .into(),
        );
        assert_eq!(parse_entry("> mine", q), refused);
        assert_eq!(
            parse_entry("mine", q),
            Entry::Invalid("not an option: type a number from 1 to 2 (? for help)".into())
        );
        assert!(!question_help(q).contains("> text"));
    }

    #[test]
    fn numbers_select_options() {
        let p = payload();
        let (single, multi) = (&p.questions[0], &p.questions[1]);
        assert_eq!(parse_entry("2", single), answer(Some(vec![1]), None));
        assert_eq!(parse_entry("  2 \n", single), answer(Some(vec![1]), None));
        assert_eq!(parse_entry("1,3", multi), answer(Some(vec![0, 2]), None));
        assert_eq!(parse_entry("1 3", multi), answer(Some(vec![0, 2]), None));
        assert_eq!(parse_entry("3, 1", multi), answer(Some(vec![2, 0]), None));
        // Several numbers on a single-select question are left to AnswerState to refuse.
        assert_eq!(parse_entry("1 2", single), answer(Some(vec![0, 1]), None));
    }

    #[test]
    fn numbers_out_of_range_are_invalid() {
        let p = payload();
        let single = &p.questions[0];
        for line in ["0", "5", "1,9", "99999999999999999999999"] {
            match parse_entry(line, single) {
                Entry::Invalid(msg) => {
                    assert!(msg.starts_with("there is no option "), "{msg}");
                    assert!(msg.ends_with("choose a number from 1 to 3"), "{msg}");
                }
                other => panic!("{line:?} gave {other:?}"),
            }
        }
    }

    #[test]
    fn numbers_win_over_values() {
        // Option 3's value is "3", but "3" is the rendered position 3 (the same option here);
        // "1" is position 1 although no value is "1".
        let p = payload();
        assert_eq!(
            parse_entry("1", &p.questions[0]),
            answer(Some(vec![0]), None)
        );
    }

    #[test]
    fn values_and_labels_select_options() {
        let p = payload();
        let single = &p.questions[0];
        assert_eq!(parse_entry("vue", single), answer(Some(vec![1]), None));
        assert_eq!(parse_entry("Svelte", single), answer(Some(vec![2]), None));
        assert_eq!(parse_entry("REACT", single), answer(Some(vec![0]), None));
        // An option labelled "back" wins over the word command.
        assert_eq!(
            parse_entry("back", &p.questions[1]),
            answer(Some(vec![2]), None)
        );
        assert_eq!(parse_entry("back", single), Entry::Back);
    }

    #[test]
    fn custom_text_after_the_marker() {
        let p = payload();
        let (single, multi) = (&p.questions[0], &p.questions[1]);
        assert_eq!(parse_entry("> Solid", single), answer(None, Some("Solid")));
        assert_eq!(
            parse_entry(">Solid > 2", single),
            answer(None, Some("Solid > 2"))
        );
        assert_eq!(parse_entry(">", single), answer(None, Some("")));
        assert_eq!(
            parse_entry("1,3 > Export", multi),
            answer(Some(vec![0, 2]), Some("Export"))
        );
        assert_eq!(
            parse_entry("2 > x", single),
            Entry::Invalid(
                "this question takes one answer: a number, or \"> your own answer\", not both"
                    .into()
            )
        );
    }

    #[test]
    fn preview_questions_take_custom_text_instead_of_an_option() {
        let p = payload();
        let preview = &p.questions[2];
        assert_eq!(parse_entry("> mine", preview), answer(None, Some("mine")));
        assert_eq!(parse_entry("2", preview), answer(Some(vec![1]), None));
        assert_eq!(
            parse_entry("mine", preview),
            Entry::Invalid(
                "not an option: type a number from 1 to 2, or \"> your own answer\" (? for help)"
                    .into()
            )
        );
    }

    #[test]
    fn notes() {
        let p = payload();
        let q = &p.questions[0];
        let note = |option: Option<usize>, text: &str| Entry::Note {
            option,
            text: text.into(),
        };
        assert_eq!(
            parse_entry("note: keep it small", q),
            note(None, "keep it small")
        );
        assert_eq!(parse_entry("Note:", q), note(None, ""));
        assert_eq!(parse_entry("note 2: v3 only", q), note(Some(1), "v3 only"));
        assert_eq!(parse_entry("note2:x:y", q), note(Some(1), "x:y"));
        // The Type your own row's number notes the question.
        assert_eq!(parse_entry("note 4: mine", q), note(None, "mine"));
        assert_eq!(
            parse_entry("note 7: x", q),
            Entry::Invalid("there is no option 7 to note: choose a number from 1 to 3".into())
        );
        // Not a note: no colon.
        assert!(matches!(parse_entry("notes", q), Entry::Invalid(_)));
    }

    #[test]
    fn commands() {
        let p = payload();
        let q = &p.questions[0];
        assert_eq!(parse_entry("", q), Entry::Keep);
        assert_eq!(parse_entry("   \r\n", q), Entry::Keep);
        assert_eq!(parse_entry("?", q), Entry::Help);
        assert_eq!(parse_entry("HELP", q), Entry::Help);
        assert_eq!(parse_entry("<", q), Entry::Back);
        assert_eq!(parse_entry("review", q), Entry::Review);
        assert_eq!(parse_entry("cancel", q), Entry::Cancel);
        assert_eq!(parse_entry("-", q), Entry::Clear);
        assert_eq!(
            parse_entry("angular", q),
            Entry::Invalid(
                "not an option: type a number from 1 to 3, or \"> your own answer\" (? for help)"
                    .into()
            )
        );
    }

    #[test]
    fn review_entries() {
        let action = ReviewEntry::Action;
        assert_eq!(parse_review_entry("", 3), action(ReviewAction::Submit));
        assert_eq!(parse_review_entry("1", 3), action(ReviewAction::Submit));
        assert_eq!(
            parse_review_entry("Submit\n", 3),
            action(ReviewAction::Submit)
        );
        assert_eq!(parse_review_entry("2", 3), action(ReviewAction::Elaborate));
        assert_eq!(parse_review_entry("3", 3), action(ReviewAction::Cancel));
        assert_eq!(
            parse_review_entry("cancel", 3),
            action(ReviewAction::Cancel)
        );
        assert_eq!(parse_review_entry("quit", 3), action(ReviewAction::Cancel));
        assert_eq!(parse_review_entry("#2", 3), ReviewEntry::Open(1));
        assert_eq!(parse_review_entry("# 3", 3), ReviewEntry::Open(2));
        assert_eq!(parse_review_entry("<", 3), ReviewEntry::Back);
        assert_eq!(parse_review_entry("?", 3), ReviewEntry::Help);
        assert_eq!(
            parse_review_entry("#4", 3),
            ReviewEntry::Invalid("there is no question 4: type #1 to #3".into())
        );
        assert_eq!(
            parse_review_entry("#2", 1),
            ReviewEntry::Invalid("there is no question 2: type #1".into())
        );
        assert_eq!(
            parse_review_entry("4", 3),
            ReviewEntry::Invalid("there is no action 4: choose a number from 1 to 3".into())
        );
        assert_eq!(
            parse_review_entry("yes", 3),
            ReviewEntry::Invalid(
                "type 1 (Submit), 2 (Elaborate) or 3 (Cancel), or # and a question's number to change it (? for help)"
                    .into()
            )
        );
        assert!(is_yes(" Y\n") && is_yes("yes") && !is_yes("") && !is_yes("n"));
    }

    #[test]
    fn the_number_after_the_options_is_type_your_own() {
        let p = payload();
        let (single, multi, preview) = (&p.questions[0], &p.questions[1], &p.questions[2]);
        assert_eq!(parse_entry("4", single), Entry::TypeOwn);
        assert_eq!(parse_entry(" 4 ", multi), Entry::TypeOwn);
        // In a list it is no option; a preview question has Type your own too.
        assert_eq!(
            parse_entry("1 4", multi),
            Entry::Invalid("there is no option 4: choose a number from 1 to 3".into())
        );
        assert!(question_help(single)
            .contains("  4              Type your own: asks for your own answer\n  > text         your own answer (Type your own)\n"));
        assert_eq!(parse_entry("3", preview), Entry::TypeOwn);
        // The hint says so on a preview question too.
        assert_eq!(
            answer_hint(preview),
            "Type a number, or 3 (Type your own) or \"> text\""
        );
    }

    /// A plain session with `--timeout` `timeout` seconds, the lines coming after `gaps`
    /// seconds each: the ending, what was shown, and how long it took on the fake clock.
    fn timed_session(
        lines: &str,
        gaps: &[Option<u64>],
        timeout: u64,
    ) -> (Ending, String, Duration) {
        let p = payload();
        let gaps = gaps.iter().map(|g| g.map(Duration::from_secs));
        let (input, elapsed) = crate::frontend::test_support::timed(lines, gaps);
        let mut out = Vec::new();
        let timeout = Some(Duration::from_secs(timeout));
        let ending = run_with_timeout(Flow::new(&p), input, &mut out, timeout);
        (ending, String::from_utf8(out).unwrap(), elapsed())
    }

    #[test]
    fn no_line_for_the_timeout_ends_the_flow_keeping_the_answers() {
        // The first answer after 5 s; then nothing: 30 s later the flow times out.
        let (ending, shown, took) = timed_session("2\n1,3\n", &[Some(5), None], 30);
        assert_eq!(took, Duration::from_secs(35));
        let p = payload();
        match ending {
            Ending::TimedOut { answers, why } => {
                assert_eq!(why, "no key for 30 seconds");
                assert_eq!(
                    serde_json::to_value(answers.answers(&p)).unwrap(),
                    json!({"fw": {"values": ["vue"], "labels": ["Vue"], "indices": [2]}})
                );
            }
            other => panic!("{other:?}"),
        }
        // One countdown line, then the prompt again; then the ending line.
        assert!(
            shown.ends_with(
                "2/3> \nClosing in 10 s without an answer: type a line to keep going.\n2/3> \n\
             Timed out (no key for 30 seconds): answers kept.\n"
            ),
            "{shown}"
        );
        assert_eq!(shown.matches("Closing in").count(), 1, "{shown}");
    }

    #[test]
    fn a_line_in_the_countdown_starts_the_time_again() {
        // The first line 25 s in (countdown shown at 20 s), the second 25 s later: no timeout.
        let (ending, shown, _) =
            timed_session("2\n1\n\n\n", &[Some(25), Some(25), Some(1), Some(1)], 30);
        assert!(matches!(ending, Ending::Submitted(_)), "{ending:?}");
        assert_eq!(shown.matches("Closing in 10 s").count(), 2, "{shown}");
    }

    #[test]
    fn fg_after_a_stop_prints_the_prompt_again() {
        let p = payload();
        for timeout in [None, Some(Duration::from_secs(60))] {
            let (mut input, _) =
                crate::frontend::test_support::timed("2\n1\n\n\n", [Some(Duration::ZERO); 4]);
            input.stopped = true;
            let mut out = Vec::new();
            let ending = run_with_timeout(Flow::new(&p), input, &mut out, timeout);
            assert!(matches!(ending, Ending::Submitted(_)), "{ending:?}");
            let shown = String::from_utf8(out).unwrap();
            // The first question's prompt twice in a row (the shell's lines came between).
            assert!(shown.contains("1/3> 1/3> "), "{shown}");
            assert_eq!(shown.matches("1/3> ").count(), 2, "{shown}");
        }
    }

    #[test]
    fn a_line_within_the_grace_after_the_first_prompt_is_dropped() {
        let p = payload();
        let ms = |ms| Some(Duration::from_millis(ms));
        for (grace, first) in [(250, "vue"), (0, "3")] {
            // "3" comes 100 ms after the first prompt, "2" 300 ms later (the grace ran out).
            let gaps = [ms(100), ms(300), ms(0), ms(0), ms(0)];
            let (input, _) = crate::frontend::test_support::timed("3\n2\n1\n\n\n", gaps);
            let mut out = Vec::new();
            let grace = Duration::from_millis(grace);
            let ending = run_with(Flow::new(&p), input, &mut out, None, grace);
            let (res, _) = crate::result::conclude(&ending, Some(&p));
            let details = serde_json::to_value(res.details).unwrap();
            let shown = String::from_utf8(out).unwrap();
            assert_eq!(
                details["answers"]["fw"]["values"][0],
                json!(first),
                "{shown}"
            );
            // Dropped: said once, the prompt again.
            let said = "1/3> Keys typed as the question appeared were ignored: type again.\n1/3> ";
            assert_eq!(shown.contains(said), first == "vue", "{shown}");
        }
    }

    #[test]
    fn a_burst_of_lines_within_the_grace_is_dropped_whole() {
        let p = payload();
        let ms = |ms| Some(Duration::from_millis(ms));
        // "1" at 200 ms (in the grace), "2" 100 ms later (after the first 250 ms, but in the
        // burst), "3" 300 ms after that: only "3" answers the first question.
        let gaps = [ms(200), ms(100), ms(300), ms(0), ms(0), ms(0)];
        let (input, _) = crate::frontend::test_support::timed("1\n2\n3\n1\n\n\n", gaps);
        let mut out = Vec::new();
        let grace = Duration::from_millis(250);
        let ending = run_with(Flow::new(&p), input, &mut out, None, grace);
        let (res, _) = crate::result::conclude(&ending, Some(&p));
        let details = serde_json::to_value(res.details).unwrap();
        let shown = String::from_utf8(out).unwrap();
        assert_eq!(
            details["answers"],
            json!({
                "fw": {"values": ["3"], "labels": ["Svelte"], "indices": [3]},
                "feat": {"values": ["auth"], "labels": ["Auth"], "indices": [1]}
            }),
            "{shown}"
        );
        assert_eq!(shown.matches("were ignored").count(), 1, "{shown}");
        assert_eq!(shown.matches("1/3> ").count(), 3, "{shown}");
    }

    #[test]
    fn an_untimed_reader_never_times_out() {
        let (ending, _, _) = session("2\n1\n\n\n");
        assert!(matches!(ending, Ending::Submitted(_)), "{ending:?}");
    }

    fn session(lines: &str) -> (Ending, serde_json::Value, String) {
        let p = payload();
        let mut out = Vec::new();
        let outcome = run(Flow::new(&p), lines.as_bytes(), &mut out);
        let (res, _) = crate::result::conclude(&outcome, Some(&p));
        let screen = String::from_utf8(out).unwrap();
        assert!(!screen.contains('\x1b'), "escape byte on screen:\n{screen}");
        (outcome, serde_json::to_value(res.details).unwrap(), screen)
    }

    #[test]
    fn a_note_on_an_option_not_chosen_shows_in_the_review_and_submit_asks_first() {
        let (outcome, details, screen) = session("note 2: what about Vue?\n1\n\n\n1\nn\n1\ne\n");
        assert!(matches!(outcome, Ending::Elaborated(_)), "{outcome:?}");
        assert_eq!(details["mode"], json!("elaborate"));
        assert!(
            screen.contains(
                "#1 Frontend (required)\n     \u{2192} React\n       Note on Vue (only with Elaborate): what about Vue?\n"
            ),
            "{screen}"
        );
        // Submit asks first; No goes back; Elaborate from there sends the note.
        assert!(
            screen.contains(
                "review> Submit without 1 note on an option you did not choose? [y/N/e] No, go back to the review.\n"
            ),
            "{screen}"
        );
        // The last lines say what was asked, not what was submitted.
        assert!(
            screen.ends_with(
                "[y/N/e] ? Frontend \u{b7} asked about Vue: what about Vue?\nElaboration requested.\n"
            ),
            "{screen}"
        );
        // Yes submits without the note.
        let (outcome, details, _) = session("note 2: what about Vue?\n1\n\n\n1\ny\n");
        assert!(matches!(outcome, Ending::Submitted(_)), "{outcome:?}");
        assert_eq!(details["answers"]["fw"]["optionNotes"], json!(null));
    }

    #[test]
    fn a_whole_flow() {
        let (outcome, details, screen) =
            session("9\n2 > x\n4\nSolid\nnote: small\nnote 1: SSO\n1 3 > Export\n\n\n");
        assert!(matches!(outcome, Ending::Submitted(_)), "{outcome:?}");
        assert_eq!(
            details["answers"],
            json!({
                "fw": {"values": ["Solid"], "labels": ["Solid"], "indices": [],
                       "customText": "Solid"},
                "feat": {"values": ["auth", "search", "Export"],
                         "labels": ["Auth", "back", "Export"], "indices": [1, 3],
                         "customText": "Export", "note": "small",
                         "optionNotes": {"auth": "SSO"}}
            })
        );
        // The screen model's rows: the options, Type your own as option N+1, Next on the
        // multi-select question.
        assert!(
            screen.contains(
                "\n1/3 Frontend (choose one, required)\nWhich framework?\n ( ) 1. React\n        Components\n ( ) 2. Vue\n ( ) 3. Svelte\n ( ) 4. Type your own\u{2026}\nType a number, or 4 (Type your own) or \"> text\"; Enter keeps the current answer, < goes back, ? shows help.\n1/3> "
            ),
            "{screen}"
        );
        assert!(screen.contains(
            " [ ] 3. back\n [ ] 4. Type your own\u{2026}\n        Next \u{2192}\nType numbers (1,3 or 1 3), optionally then \"> text\", or 4 (Type your own); "
        ));
        assert!(
            screen.contains("Not understood: there is no option 9: choose a number from 1 to 3\n")
        );
        // Option 4 asks for the custom text on a line of its own.
        assert!(screen.contains("1/3> Type your own> Saved: \u{201c}Solid\u{201d}\n"));
        // Notes keep the prompt on the same question.
        assert!(screen.contains("2/3> Note on this question saved.\n2/3> Note on Auth saved.\n"));
        // The preview's escape sequence is shown, not run.
        assert!(screen.contains("        | b\\e[2Jb\n"));
        // The review: each question's lines (notes before the answer, option notes under
        // theirs), its number before it, then the numbered actions.
        assert!(
            screen.contains(
                "\nReview answers\n#1 Frontend (required)\n     \u{2192} \u{201c}Solid\u{201d}\n\n#2 Features\n       Note: small\n     \u{2192} Auth\n       Note: SSO\n     \u{2192} back\n     \u{2192} \u{201c}Export\u{201d}\n\n#3 Q3\n     \u{2192} unanswered\n\n  1. Submit\n  2. Elaborate\n     ask the agent to elaborate on your notes, keeping the answers\n  3. Cancel\nType 1 (Submit), 2 (Elaborate) or 3 (Cancel); #2 changes question 2, < goes to the last question, ? shows help; Enter alone: Submit.\nreview> Submitted.\n"
            ),
            "{screen}"
        );
    }

    #[test]
    fn type_your_own_shows_its_text_and_an_empty_line_changes_nothing() {
        let (_, details, screen) = session("4\n\n4\nmine\n<\n\n\n\n\n");
        assert!(screen.contains("1/3> Type your own> Not changed.\n1/3> Type your own> Saved:"));
        assert!(screen.contains(" (\u{2022}) 4. Type your own\u{2026} \u{201c}mine\u{201d}\n"));
        assert_eq!(details["answers"]["fw"]["customText"], json!("mine"));
    }

    #[test]
    fn eof_is_terminal_lost() {
        let (outcome, details, screen) = session("1\n");
        assert_eq!(
            outcome,
            Ending::TerminalLost("end of input on the terminal (Ctrl+D or hang-up)".into())
        );
        assert_eq!(details["cancelled"], json!(true));
        assert_eq!(details["answers"], json!({}));
        assert!(screen.ends_with("End of input: the questionnaire was cancelled.\n"));
    }

    #[test]
    fn required_unanswered_asks_before_submit() {
        // Skip everything, refuse once, then accept.
        let (outcome, details, screen) = session("\n\n\n\nn\n1\ny\n");
        assert!(matches!(outcome, Ending::Submitted(_)), "{outcome:?}");
        assert_eq!(details["answers"], json!({}));
        assert!(screen.contains("#1 Frontend (required)\n     \u{2192} unanswered\n"));
        assert_eq!(
            screen
                .matches("Unanswered required questions: Frontend.\nSubmit anyway? [y/N] ")
                .count(),
            2
        );
        assert!(screen.contains("[y/N] No, go back to the review.\nreview> "));
    }

    #[test]
    fn the_reviews_cancel_asks_first_when_answers_would_be_lost() {
        let (outcome, _, screen) = session("1\n\n\n3\n\ncancel\ny\n");
        assert_eq!(outcome, Ending::Dismissed);
        assert_eq!(
            screen
                .matches("review> Cancel and discard your answers? [y/N] ")
                .count(),
            2
        );
        assert!(screen.contains("[y/N] No, keep answering.\nreview> "));
        assert!(screen.ends_with("[y/N] Cancelled: the answers were not sent.\n"));
    }

    #[test]
    fn back_and_reopen_from_review() {
        // Answer 1, back from 2 to 1, change it, then answer 2 and 3; at the review re-open 1,
        // change it again: it returns to the review; then submit.
        let (outcome, details, screen) = session("1\n<\n2\n2\n1\n#1\n2\n\n");
        assert!(matches!(outcome, Ending::Submitted(_)), "{outcome:?}");
        assert_eq!(
            details["answers"],
            json!({
                "fw": {"values": ["vue"], "labels": ["Vue"], "indices": [2]},
                "feat": {"values": ["billing"], "labels": ["Billing"], "indices": [2]},
                "layout": {"values": ["a"], "labels": ["A"], "indices": [1]}
            })
        );
        assert_eq!(screen.matches("\nReview answers\n").count(), 2);
        assert!(screen.contains("Current answer: React\n"));
        assert!(screen.contains(" (\u{2022}) 1. React\n"));
    }

    #[test]
    fn cancel_dismisses() {
        let (outcome, details, _) = session("1\ncancel\n");
        assert_eq!(outcome, Ending::Dismissed);
        assert_eq!(details["answers"], json!({}));
        let (outcome, _, _) = session("\n\n\ncancel\n");
        assert_eq!(outcome, Ending::Dismissed);
    }

    #[test]
    fn too_many_options_on_single_is_refused_by_the_state() {
        let (_, details, screen) = session("1 2\n2\n-\n\n\n\n");
        assert!(screen.contains("Not saved: question 1 takes only one option.\n"));
        assert_eq!(
            details["answers"],
            json!({"fw": {"values": ["vue"], "labels": ["Vue"], "indices": [2]}})
        );
    }

    #[test]
    fn a_note_past_the_budget_is_not_saved_and_says_why() {
        // 49,999 short options: 7,639 units of context, so a note of one byte weighs 7,641,
        // two fit and three weigh 22,923, past the 20,000.
        let options: Vec<serde_json::Value> = (0..49_999)
            .map(|i| json!({"value": format!("v{i}"), "label": format!("L{i}")}))
            .collect();
        let p = crate::contract::parse_payload(
            &json!({"questions": [{"id": "q", "prompt": "P", "type": "multi", "options": options}]})
                .to_string(),
        )
        .unwrap();
        let mut out = Vec::new();
        let ending = run(
            Flow::new(&p),
            "note: a\nnote 1: b\nnote 2: c\n".as_bytes(),
            &mut out,
        );
        let screen = String::from_utf8(out).unwrap();
        assert!(
            screen.contains(
                "Note on L0 saved.\n1/1> Not saved: too many notes: an elaborate result repeats a \
                 question with all its options, its answer and its notes for each note (question 1's notes \
                 would weigh 22923), 20000 in all at most; shorten or clear a note or the custom text first.\n"
            ),
            "{:?}",
            screen.lines().rev().take(3).collect::<Vec<_>>()
        );
        assert!(matches!(ending, Ending::TerminalLost(_)), "{ending:?}");
    }
}

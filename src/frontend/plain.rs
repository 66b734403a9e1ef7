//! The plain front end: numbered lines and line input only, for terminals that cannot move the
//! cursor (`TERM=dumb` or unset) and for `--plain`.
//!
//! It writes no escape sequence at all (no colour, no cursor movement, no bracketed-paste
//! toggles): only text lines. Every question is printed as a block (progress marker such as
//! `2/3 Frontend`, prompt, numbered options with descriptions, full previews on preview
//! questions), then one line is read and turned into an [`Entry`] by the pure [`parse_entry`];
//! the review step reads a [`ReviewEntry`] with [`parse_review_entry`]. Every answer rule is
//! applied by the [`Flow`]; payload and typed text pass through `crate::sanitize` before
//! they are printed.
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
//! when it is restored).

use super::timeout::{plain_countdown_line, Deadline};
use super::AskOptions;
use crate::contract::{Question, QuestionType};
use crate::flow::{Command, Flow, FlowError, Screen};
use crate::result::Ending;
use crate::text::indented;
use crate::text::one_line;
use crate::ui::view;
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
    /// An empty line or `submit`.
    Submit,
    /// `cancel` or `quit`.
    Cancel,
    /// A question number: re-open that question (0-based here).
    Open(usize),
    /// `<` or `back`: go to the last question.
    Back,
    /// `?` or `help`.
    Help,
    /// A line that means nothing here; the reason is one line for the person.
    Invalid(String),
}

/// The marker that starts custom text ("Type your own"): `> Svelte`.
pub const CUSTOM_MARKER: char = '>';

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

/// `note: text` / `note 2: text` (also `note2:`), case-insensitive `note`.
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
/// followed by `> text`) → options; an option's exact value or label (or a unique
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
        "" | "submit" => return ReviewEntry::Submit,
        "cancel" | "quit" => return ReviewEntry::Cancel,
        "<" | "back" => return ReviewEntry::Back,
        "?" | "help" => return ReviewEntry::Help,
        _ => {}
    }
    if !line.is_empty() && line.bytes().all(|b| b.is_ascii_digit()) {
        return match line.parse::<usize>() {
            Ok(n) if (1..=questions).contains(&n) => ReviewEntry::Open(n - 1),
            _ => ReviewEntry::Invalid(format!(
                "there is no question {line}: choose {}",
                range(questions)
            )),
        };
    }
    ReviewEntry::Invalid(
        "type submit (or press Enter), cancel, or a question number to change it (? for help)"
            .to_string(),
    )
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
        let notice =
            crate::notify::Notice::question_waiting(flow.payload().title.as_deref(), question, 0);
        let _ = writer.write_all(&opts.notify.when_waiting(&notice, false));
    }
    // ASCII only on a terminal whose locale is not UTF-8 (`text::charset`).
    let writer = crate::text::charset::CharsetWriter::new(writer, crate::text::terminal_charset());
    let ending = run_with_timeout(flow, FileLines(BufReader::new(tty)), writer, opts.timeout);
    // The last lines before the result, which stdout may print on the same terminal.
    crate::terminal::flush_tty();
    ending
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
}

/// A file's lines, waited for with `poll` ([`Lines::ready`]): the terminal's (a line is
/// there once Enter is pressed), or the dialog client's on stdin (`frontend::dialogs`).
#[derive(Debug)]
pub struct FileLines(pub BufReader<File>);

impl Read for FileLines {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf)
    }
}

impl BufRead for FileLines {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.0.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        self.0.consume(amount)
    }
}

impl Lines for FileLines {
    fn ready(&mut self, wait: Duration) -> io::Result<bool> {
        if !self.0.buffer().is_empty() {
            return Ok(true);
        }
        crate::keys::wait_readable(self.0.get_ref(), wait)
    }

    fn now(&self) -> Instant {
        Instant::now()
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

/// Why the loop stopped reading.
enum Stop {
    Eof,
    /// No line came for `--timeout`.
    TimedOut,
    Io(io::Error),
    /// The flow refused a command the front end only sends when it applies: a bug.
    Internal(String),
}

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
    let deadline = timeout.map(|t| Deadline::new(t, input.now()));
    let mut plain = Plain {
        flow,
        input,
        out,
        deadline,
    };
    match plain.run() {
        Ok(()) => plain.flow.into_ending().unwrap_or_else(|| {
            Ending::Internal("the plain front end stopped before the flow ended".to_string())
        }),
        Err(Stop::TimedOut) => {
            let why = plain.deadline.map(|d| d.message()).unwrap_or_default();
            let _ = writeln!(
                plain.out,
                "\nTimed out ({why}): the answers given so far are kept."
            );
            let _ = plain.out.flush();
            match plain.flow.apply(Command::TimeOut(why)) {
                Ok(()) => plain
                    .flow
                    .into_ending()
                    .unwrap_or_else(|| Ending::Internal("the flow did not time out".to_string())),
                Err(e) => Ending::Internal(format!("the flow refused a command: {e}")),
            }
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
        match self.flow.ending() {
            Some(Ending::Submitted(_)) => writeln!(self.out, "Submitted.")?,
            _ => writeln!(self.out, "Cancelled: no answers were given.")?,
        }
        self.out.flush()?;
        Ok(())
    }

    /// Applies a command the front end only sends where it applies; a refusal is a bug.
    fn apply(&mut self, command: Command) -> Result<(), Stop> {
        self.flow.apply_sent(command).map_err(Stop::Internal)
    }

    /// Prints `prompt`, reads one line; EOF is [`Stop::Eof`], no line for `--timeout`
    /// [`Stop::TimedOut`]. Invalid UTF-8 is replaced.
    fn read_line(&mut self, prompt: &str) -> Result<String, Stop> {
        write!(self.out, "{prompt}")?;
        self.out.flush()?;
        self.wait_for_line(prompt)?;
        let mut buf = Vec::new();
        if self.input.read_until(b'\n', &mut buf)? == 0 {
            return Err(Stop::Eof);
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
    fn wait_for_line(&mut self, prompt: &str) -> Result<(), Stop> {
        let Some(deadline) = self.deadline else {
            return Ok(());
        };
        let mut counted = false;
        loop {
            let now = self.input.now();
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
            if self.input.ready(wait)? {
                return Ok(());
            }
        }
    }

    /// Shows question `q` and reads lines until one moves the flow.
    fn question(&mut self, q: usize) -> Result<(), Stop> {
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
                Entry::Answer { options, custom } => {
                    let command = Command::Answer {
                        options,
                        custom_text: custom,
                    };
                    match self.flow.apply(command) {
                        Ok(()) => {
                            let now = self.describe(q);
                            writeln!(self.out, "Saved: {now}")?;
                        }
                        Err(e) => writeln!(self.out, "Not saved: {e}.")?,
                    }
                }
                Entry::Note { option, text } => {
                    let (command, whose) = match option {
                        None => (
                            Command::SetNote {
                                question: q,
                                text: text.clone(),
                            },
                            "Question note".to_string(),
                        ),
                        Some(o) => (
                            Command::SetOptionNote {
                                question: q,
                                option: o,
                                text: text.clone(),
                            },
                            format!("Note on {}", one_line(&question.options[o].label)),
                        ),
                    };
                    match self.flow.apply(command) {
                        Ok(()) if text.is_empty() => writeln!(self.out, "{whose} cleared.")?,
                        Ok(()) => writeln!(self.out, "{whose} saved.")?,
                        Err(e) => writeln!(self.out, "Not saved: {e}.")?,
                    }
                }
                Entry::Invalid(why) => writeln!(self.out, "Not understood: {why}")?,
            }
        }
        Ok(())
    }

    /// Prints the block of question `q`: marker, prompt, options, current answer, hint.
    fn show_question(&mut self, q: usize) -> io::Result<()> {
        let question = &self.flow.payload().questions[q];
        let n = self.flow.payload().questions.len();
        let answers = self.flow.answers();
        let mut s = String::new();
        let mut tags = vec![question.instruction()];
        if question.required {
            tags.push("required");
        }
        let _ = writeln!(
            s,
            "\n{}/{n} {} ({})",
            q + 1,
            one_line(&question.label),
            tags.join(", ")
        );
        s.push_str(&indented(&question.prompt, ""));
        if let Some(context) = &question.context {
            s.push_str(&indented(context, "  "));
        }
        let selected = answers.selected(q);
        for (i, option) in question.options.iter().enumerate() {
            let mark = if selected.contains(&i) { '*' } else { ' ' };
            let _ = writeln!(s, " {mark}{:>2}) {}", i + 1, one_line(&option.label));
            if let Some(d) = &option.description {
                s.push_str(&indented(d, "      "));
            }
            if question.kind == QuestionType::Preview {
                if let Some(p) = &option.preview {
                    s.push_str(&indented(p, "      | "));
                }
            }
            if let Some(note) = answers.option_note(q, i) {
                let _ = writeln!(s, "      note: {}", one_line(note));
            }
        }
        if question.allows_custom_text() && !question.is_text_only() {
            let _ = writeln!(
                s,
                "   {CUSTOM_MARKER}  Type your own: start the line with \"{CUSTOM_MARKER}\""
            );
        }
        if answers.is_answered(q) || answers.note(q).is_some() {
            let _ = writeln!(s, "Current answer: {}", self.describe(q));
        }
        let hint = match question.kind {
            _ if question.is_text_only() => "Type your answer",
            QuestionType::Single if question.allows_custom_text() => {
                "Type a number or \"> your own answer\""
            }
            QuestionType::Multi if question.allows_custom_text() => {
                "Type numbers (1,3 or 1 3), optionally then \"> your own answer\""
            }
            QuestionType::Multi => "Type numbers (1,3 or 1 3)",
            QuestionType::Single | QuestionType::Preview => "Type a number",
        };
        let _ = writeln!(
            s,
            "{hint}; Enter keeps the current answer, < goes back, ? shows help."
        );
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
        let payload = self.flow.payload();
        let n = payload.questions.len();
        let mut s = String::from("\nReview\n");
        let missing = self.flow.unanswered_required();
        for (q, question) in payload.questions.iter().enumerate() {
            let flag = if missing.contains(&q) {
                " [required, not answered]"
            } else {
                ""
            };
            let _ = writeln!(
                s,
                "  {}. {}{flag}: {}",
                q + 1,
                one_line(&question.label),
                self.describe(q)
            );
        }
        s.push_str(
            "Press Enter or type submit to submit, cancel to cancel, or a question number to change it.\n",
        );
        self.out.write_all(s.as_bytes())?;
        while self.flow.screen() == Screen::Review && !self.flow.is_over() {
            let line = self.read_line("review> ")?;
            match parse_review_entry(&line, n) {
                ReviewEntry::Submit => {
                    self.apply(Command::Submit)?;
                    if self.flow.screen() == Screen::ConfirmSubmit {
                        self.confirm()?;
                        if self.flow.screen() == Screen::Review {
                            writeln!(self.out, "Not submitted.")?;
                        }
                    }
                }
                ReviewEntry::Cancel => self.apply(Command::Dismiss)?,
                ReviewEntry::Open(q) => self.apply(Command::Open(q))?,
                ReviewEntry::Back => self.apply(Command::Back)?,
                ReviewEntry::Help => self.out.write_all(REVIEW_HELP.as_bytes())?,
                ReviewEntry::Invalid(why) => writeln!(self.out, "Not understood: {why}")?,
            }
        }
        Ok(())
    }

    /// A confirmation as a `[y/N]` line: the required-question warning, or a cancel that
    /// would lose answers.
    fn confirm(&mut self) -> Result<(), Stop> {
        let ask = match self.flow.screen() {
            Screen::ConfirmSubmit => {
                let payload = self.flow.payload();
                let missing: Vec<String> = self
                    .flow
                    .unanswered_required()
                    .into_iter()
                    .map(|q| one_line(&payload.questions[q].label).into_owned())
                    .collect();
                format!(
                    "{} required question{} not answered ({}). Submit anyway? [y/N] ",
                    missing.len(),
                    if missing.len() == 1 { " is" } else { "s are" },
                    missing.join(", ")
                )
            }
            _ => "Cancel and discard your answers? [y/N] ".to_string(),
        };
        let yes = is_yes(&self.read_line(&ask)?);
        self.apply(if yes { Command::Confirm } else { Command::Deny })
    }
}

/// The help for a question prompt, for its kind.
fn question_help(question: &Question) -> String {
    let mut s = String::from("How to answer (type one line, then Enter):\n");
    match question.kind {
        _ if question.is_text_only() => s.push_str(
            "  text           your answer (help, back, review, cancel: start with \">\")\n",
        ),
        QuestionType::Multi => {
            s.push_str(
                "  1,3 or 1 3     choose options 1 and 3 (replaces the options chosen before)\n",
            );
            if question.allows_custom_text() {
                s.push_str("  1,3 > text     choose options 1 and 3 and add your own answer\n");
            }
        }
        _ => s.push_str("  2              choose option 2\n"),
    }
    if !question.is_text_only() {
        s.push_str("  name           choose the option with this value or label\n");
    }
    if question.allows_custom_text() {
        s.push_str(
            "  > text         your own answer (\"Type your own\")\n\
             \x20 >              clear your own answer\n",
        );
    }
    s.push_str(
        "  -              clear the answer\n\
         \x20 (empty line)   keep the current answer and go on (skips an unanswered question)\n\
         \x20 note: text     a note on the question (note: alone clears it)\n\
         \x20 note 2: text   a note on option 2\n\
         \x20 < or back      the previous question\n\
         \x20 review         go to the review\n\
         \x20 cancel         cancel the questionnaire (no answers are given)\n\
         \x20 ?              this help\n",
    );
    s
}

const REVIEW_HELP: &str = "\
At the review:
  (empty line)   submit the answers (asks first when a required question is not answered)
  submit         the same
  2              change the answer to question 2
  < or back      the last question
  cancel         cancel the questionnaire (no answers are given)
  ?              this help
";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::{parse_payload, Payload};
    use serde_json::json;

    fn payload() -> Payload {
        parse_payload(
            &json!({
                "title": "Setup",
                "questions": [
                    {"id": "fw", "label": "Frontend", "prompt": "Which framework?", "required": true,
                     "options": [
                        {"value": "react", "label": "React", "description": "Components"},
                        {"value": "vue", "label": "Vue"},
                        {"value": "3", "label": "Svelte"}]},
                    {"id": "feat", "label": "Features", "prompt": "Which features?", "type": "multi",
                     "options": [
                        {"value": "auth", "label": "Auth"},
                        {"value": "billing", "label": "Billing"},
                        {"value": "search", "label": "back"}]},
                    {"id": "layout", "prompt": "Which layout?", "type": "preview",
                     "options": [
                        {"value": "a", "label": "A", "preview": "+--+\n|a |\n+--+"},
                        {"value": "b", "label": "B", "preview": "b\x1b[2Jb"}]}
                ]
            })
            .to_string(),
        )
        .unwrap()
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
        for line in ["0", "4", "1,9", "99999999999999999999999"] {
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
        assert_eq!(parse_review_entry("", 3), ReviewEntry::Submit);
        assert_eq!(parse_review_entry("Submit\n", 3), ReviewEntry::Submit);
        assert_eq!(parse_review_entry("cancel", 3), ReviewEntry::Cancel);
        assert_eq!(parse_review_entry("2", 3), ReviewEntry::Open(1));
        assert_eq!(parse_review_entry("<", 3), ReviewEntry::Back);
        assert_eq!(parse_review_entry("?", 3), ReviewEntry::Help);
        assert_eq!(
            parse_review_entry("4", 3),
            ReviewEntry::Invalid("there is no question 4: choose a number from 1 to 3".into())
        );
        assert!(matches!(
            parse_review_entry("yes", 3),
            ReviewEntry::Invalid(_)
        ));
        assert!(is_yes(" Y\n") && is_yes("yes") && !is_yes("") && !is_yes("n"));
    }

    /// A plain session with `--timeout` `timeout` seconds, the lines coming after `gaps`
    /// seconds each: the ending, what was shown, and how long it took on the fake clock.
    fn timed_session(
        lines: &str,
        gaps: &[Option<u64>],
        timeout: u64,
    ) -> (Ending, String, Duration) {
        let p = payload();
        let start = Instant::now();
        let clock = std::rc::Rc::new(std::cell::Cell::new(start));
        let input = crate::frontend::test_support::Timed {
            lines: io::Cursor::new(lines.as_bytes().to_vec()),
            clock: clock.clone(),
            gaps: gaps.iter().map(|g| g.map(Duration::from_secs)).collect(),
        };
        let mut out = Vec::new();
        let ending = run_with_timeout(
            Flow::new(&p),
            input,
            &mut out,
            Some(Duration::from_secs(timeout)),
        );
        (ending, String::from_utf8(out).unwrap(), clock.get() - start)
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
             Timed out (no key for 30 seconds): the answers given so far are kept.\n"
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
    fn a_whole_flow() {
        let (outcome, details, screen) =
            session("9\n2 > x\n> Solid\nnote: small\nnote 1: SSO\n1 3 > Export\n\n\n");
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
        // Notes keep the prompt on the same question.
        assert!(
            screen.contains("Not understood: there is no option 9: choose a number from 1 to 3\n")
        );
        assert!(screen.contains("Saved: “Solid”\n"));
        assert!(screen
            .contains("  2. Features: Auth, back, “Export”; note: small; note on Auth: SSO\n"));
        assert!(screen.contains("  3. Q3: no answer\n"));
        // The preview's escape sequence is shown, not run.
        assert!(screen.contains("      | b\\e[2Jb\n"));
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
        let (outcome, details, screen) = session("\n\n\n\nn\n\ny\n");
        assert!(matches!(outcome, Ending::Submitted(_)), "{outcome:?}");
        assert_eq!(details["answers"], json!({}));
        assert!(screen.contains("  1. Frontend [required, not answered]: no answer (required)\n"));
        assert_eq!(
            screen
                .matches("1 required question is not answered (Frontend). Submit anyway? [y/N] ")
                .count(),
            2
        );
        assert!(screen.contains("Not submitted.\n"));
    }

    #[test]
    fn back_and_reopen_from_review() {
        // Answer 1, back from 2 to 1, change it, then answer 2 and 3; at the review re-open 1,
        // change it again: it returns to the review; then submit.
        let (outcome, details, screen) = session("1\n<\n2\n2\n1\n1\n2\n\n");
        assert!(matches!(outcome, Ending::Submitted(_)), "{outcome:?}");
        assert_eq!(
            details["answers"],
            json!({
                "fw": {"values": ["vue"], "labels": ["Vue"], "indices": [2]},
                "feat": {"values": ["billing"], "labels": ["Billing"], "indices": [2]},
                "layout": {"values": ["a"], "labels": ["A"], "indices": [1]}
            })
        );
        assert_eq!(screen.matches("\nReview\n").count(), 2);
        assert!(screen.contains("Current answer: React\n"));
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
}

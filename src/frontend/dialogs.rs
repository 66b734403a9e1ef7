//! The dialogs front end (`--dialogs`): the questionnaire asked through a caller's dialogs,
//! one JSON line at a time (docs/dialogs.md). pi's extension relays each request to pi's
//! own `ctx.ui.select` / `input` / `editor` / `confirm` in RPC mode, where an editor or other
//! client owns the screen.
//!
//! Each request is one line on stdout (`{"type": "select", "title": …, "options": […]}`,
//! `input`, `editor`, `confirm`); the caller answers each with one line on stdin
//! (`{"value": …}`, `{"confirmed": bool}`, `{"cancelled": true}`) before the next request
//! comes. Nothing else is written on stdout: the result goes to `--output FILE`, which
//! `--dialogs` requires.
//!
//! Like the other front ends it only turns answers into [`Command`]s and shows what the
//! [`Flow`] says is current; no rule is decided here, and every row and word comes from the
//! screen model ([`crate::ui`]):
//! - a question is a `select` of the terminal's rows in its order ([`Rows`]: the options,
//!   marked as chosen or ticked, the custom-text row, Next on a multi-select question), then a row
//!   for each key the terminal has and a dialog has not ([`model::key_rows`]: the question's
//!   note, an option's note, Back, Next); a cancelled select is Esc at the question
//!   ([`Command::Cancel`]: the flow's cancel confirmation as usual);
//! - text (custom text, notes) is an `input` dialog with the editor's placeholder, or an
//!   `editor` prefilled with the current text; a cancelled one is Esc in an editor: nothing
//!   changes, back to the question;
//! - the review is a `select` of the review's questions (one row each, re-opening it) and
//!   its numbered actions ([`ACTIONS`]), then the note row; the required-question warning and
//!   the cancel confirmation are `confirm` dialogs ([`review::confirmation`]).
//!
//! End of input, a failed read or write, or a response that does not fit the request ends
//! the flow with [`Ending::TerminalLost`] (the dialog client went away). A response line
//! longer than `--max-payload-bytes` is refused and the request asked again
//! ([`Dialogs::ask`]); every row offered is cut so that choosing it fits ([`shown_row`]). `--timeout` holds here as in every front end: no complete
//! response for that long times the flow out, whatever the client does
//! ([`Dialogs::read_response`]).

use super::plain::{FileLines, Lines, Untimed};
use super::timeout::Deadline;
use crate::answers::AnswerError;
use crate::contract::QuestionType;
use crate::flow::{Command, Flow, FlowError};
use crate::result::Ending;
use crate::text::one_line;
use crate::ui::keymap::Action;
use crate::ui::question::{self as model, Row, Rows};
use crate::ui::review::{self, ReviewAction, ACTIONS};
use crate::ui::words;
use serde::Serialize;
use serde_json::Value;
use std::fmt::Write as _;
use std::io::{self, BufRead, Write};
use std::time::Duration;

/// The largest `timeout` a request carries, in milliseconds: 2^31-1 (about 24.8 days). pi's
/// RPC client hands it to Node's `setTimeout`, which fires at once for anything larger: the
/// dialog would close after 1 ms as if the person had dismissed it. A longer time left is
/// sent as this much, and a dialog that closes by itself after it is asked again
/// ([`Dialogs::ask`]).
pub const MAX_REQUEST_TIMEOUT_MS: u64 = (1 << 31) - 1;

/// How [`Dialogs`] quotes a response `value` in a `terminal_lost` message: itself, on one
/// line, when it is at most this many bytes; otherwise only its size.
const QUOTED_VALUE_BYTES: usize = 200;

/// Most columns of a select's row ([`shown_row`]): a longer one (custom text or a note of
/// megabytes in it) is cut with `…`; the answer keeps the whole text.
pub const MAX_ROW_COLUMNS: usize = 400;

/// How many replies over the line limit in a row the same request is asked again for
/// ([`Dialogs::ask`]); the next one ends the flow (`terminal_lost`).
const MAX_REFUSED_REPLIES: usize = 3;

/// What the dialog client sent when its input ended in the middle of a line that is no
/// response (`the dialog client sent …`, `terminal_lost`).
const CUT_SHORT: &str = "half a response and closed its input: the last line has no line \
break and is not a whole response";

/// How much of one reply over the line limit is read and dropped, in times the limit
/// ([`Dialogs::read_response`]); a longer one ends the flow (`terminal_lost`).
const MAX_SKIPPED_LINE_FACTOR: u64 = 16;

/// `row` as a select offers it: cut to [`MAX_ROW_COLUMNS`], and further while the response
/// that chooses it (`{"value":"…"}`) would be longer than `max_line` bytes, so every row
/// offered can be chosen.
fn shown_row(row: &str, max_line: u64) -> String {
    let charset = crate::text::Charset::Utf8;
    let reply_len = |s: &str| serde_json::json!({ "value": s }).to_string().len() as u64;
    let mut width = MAX_ROW_COLUMNS;
    let mut shown = crate::text::fit_in(row, width, charset);
    while reply_len(&shown) > max_line && width > 1 {
        width /= 2;
        shown = crate::text::fit_in(row, width, charset);
    }
    shown
}

/// One dialog the caller shows: a line on stdout.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Request {
    /// Choose one of `options`; answered with the chosen string as `value`.
    Select {
        /// What is asked, possibly several lines.
        title: String,
        /// The rows, each one line and all different.
        options: Vec<String>,
    },
    /// A line of text; answered with `value`.
    Input {
        /// What is asked.
        title: String,
        /// A hint shown in the empty field.
        #[serde(skip_serializing_if = "Option::is_none")]
        placeholder: Option<String>,
        /// The text is secret (a question's `"secret": true`): the client hides it as it is
        /// typed. Sent only when true; such a field is never an `editor` with a prefill.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        password: bool,
    },
    /// Text with `prefill` to change; answered with `value`.
    Editor {
        /// What is asked.
        title: String,
        /// The current text.
        prefill: String,
    },
    /// Yes or no; answered with `confirmed`.
    Confirm {
        /// The question.
        title: String,
        /// What yes means.
        message: String,
    },
}

/// The caller's answer to one dialog: a line on stdin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Response {
    /// `{"value": "…"}`: the chosen option string (select) or the text (input, editor).
    Value(String),
    /// `{"confirmed": true|false}` (confirm).
    Confirmed(bool),
    /// `{"cancelled": true}`: the dialog was dismissed (Esc).
    Cancelled,
}

impl Request {
    /// The same request with `notice` as the first line of its title (a reply refused).
    fn with_notice(&self, notice: &str) -> Request {
        let mut request = self.clone();
        let (Request::Select { title, .. }
        | Request::Input { title, .. }
        | Request::Editor { title, .. }
        | Request::Confirm { title, .. }) = &mut request;
        *title = format!("{notice}\n{title}");
        request
    }
}

impl Response {
    /// Parses one response line. `cancelled: true` wins over the other fields; otherwise a
    /// string `value` or a boolean `confirmed` is needed. Errors say what was wrong.
    pub fn parse(line: &str) -> Result<Response, String> {
        let value: Value = serde_json::from_str(line.trim()).map_err(|e| {
            format!(
                "a response that is {}",
                crate::contract::malformed_json(&e).message
            )
        })?;
        let Some(object) = value.as_object() else {
            return Err("a response that is not a JSON object".to_string());
        };
        if object.get("cancelled") == Some(&Value::Bool(true)) {
            return Ok(Response::Cancelled);
        }
        if let Some(v) = object.get("value") {
            return match v {
                Value::String(s) => Ok(Response::Value(s.clone())),
                _ => Err("a response whose value is not a string".to_string()),
            };
        }
        match object.get("confirmed") {
            Some(Value::Bool(b)) => Ok(Response::Confirmed(*b)),
            _ => Err("a response with none of value, confirmed or cancelled: true".to_string()),
        }
    }
}

/// Asks through dialogs on stdin and stdout; see [`run`]. With `timeout` (`--timeout`), each
/// request carries the time left as `timeout` (milliseconds, at most
/// [`MAX_REQUEST_TIMEOUT_MS`]) for the caller's dialog; a dialog that comes back cancelled
/// after the time is up, or no complete response within it, times the flow out (exit 124).
/// A response line longer than `max_line` bytes (`--max-payload-bytes`) is refused
/// ([`Dialogs::ask`]).
pub fn ask(
    flow: Flow<'_>,
    timeout: Option<Duration>,
    max_line: u64,
    channel: Option<std::sync::Arc<crate::channel::Channel>>,
) -> Ending {
    use std::os::fd::AsFd;
    // stdin as a file of its own, so it can be polled with nothing buffered out of sight.
    let stdin = match io::stdin().as_fd().try_clone_to_owned() {
        Ok(fd) => FileLines::new(io::BufReader::new(std::fs::File::from(fd))),
        Err(e) => return Ending::TerminalLost(format!("the dialog client failed: {e}")),
    };
    let stdout = match io::stdout().as_fd().try_clone_to_owned() {
        Ok(fd) => TimedStdout(std::fs::File::from(fd)),
        Err(e) => return Ending::TerminalLost(format!("the dialog client failed: {e}")),
    };
    run_answerable(flow, stdin, stdout, (timeout, max_line), channel)
}

/// Where request lines go ([`run_timed`]): any writer, each line written whole and flushed,
/// or stdout with its writes bounded by the time left ([`TimedStdout`]).
pub trait RequestSink {
    /// Writes `line` within `within` (`None`: as long as it takes); false when the time ran
    /// out first (the client does not read).
    ///
    /// Errors: the write failed.
    fn send(&mut self, line: &[u8], within: Option<Duration>) -> io::Result<bool>;
}

impl<W: Write> RequestSink for W {
    fn send(&mut self, line: &[u8], _within: Option<Duration>) -> io::Result<bool> {
        self.write_all(line)?;
        self.flush()?;
        Ok(true)
    }
}

/// stdout, written a pipe's atomic size ([`PIPE_BUF`]) at a time once poll says it takes
/// more: a client that opened it but does not read cannot hold a request past `--timeout`
/// (a 500 KB preview in a request filled the pipe and the deadline never came).
pub struct TimedStdout(std::fs::File);

/// The most written at once after POLLOUT: a pipe then has a free page for it (Linux).
const PIPE_BUF: usize = 4096;

impl RequestSink for TimedStdout {
    fn send(&mut self, line: &[u8], within: Option<Duration>) -> io::Result<bool> {
        use std::os::fd::AsFd;
        let until = within.and_then(|w| std::time::Instant::now().checked_add(w));
        let mut rest = line;
        while !rest.is_empty() {
            let left = until.map(|u| u.saturating_duration_since(std::time::Instant::now()));
            if left.is_some_and(|l| l.is_zero()) {
                return Ok(false);
            }
            // At most a minute a wait: the loop looks at the time again.
            let ms = left.map_or(60_000, |l| l.as_millis().clamp(1, 60_000)) as u16;
            let mut fds = [nix::poll::PollFd::new(
                self.0.as_fd(),
                nix::poll::PollFlags::POLLOUT,
            )];
            match nix::poll::poll(&mut fds, nix::poll::PollTimeout::from(ms)) {
                Ok(0) | Err(nix::errno::Errno::EINTR) => continue,
                Ok(_) => {}
                Err(e) => return Err(e.into()),
            }
            match (&self.0).write(&rest[..rest.len().min(PIPE_BUF)])? {
                0 => return Err(io::ErrorKind::WriteZero.into()),
                n => rest = &rest[n..],
            }
        }
        Ok(true)
    }
}

/// Why the loop stopped before the flow ended.
enum Stop {
    /// End of input: the client went away.
    Eof,
    Io(io::Error),
    /// A response that does not fit its request.
    Protocol(String),
    /// The flow refused a command the front end only sends where it applies: a bug.
    Internal(String),
    /// No answer within `--timeout`.
    TimedOut,
    /// The questions were answered from elsewhere (the answer channel).
    Elsewhere,
}

/// How often the wait for a response looks at the answer channel.
const CHANNEL_LOOK: Duration = Duration::from_millis(100);

impl From<io::Error> for Stop {
    fn from(e: io::Error) -> Self {
        Stop::Io(e)
    }
}

/// The dialogs front end over any line source and sink: the testable core of [`ask`].
/// `input` gives response lines (each at most [`crate::limits::DEFAULT_MAX_PAYLOAD_BYTES`]),
/// `out` receives the request lines (flushed after each). It never times out.
pub fn run<R: BufRead, W: Write>(flow: Flow<'_>, input: R, out: W) -> Ending {
    run_timed(
        flow,
        Untimed(input),
        out,
        None,
        crate::limits::DEFAULT_MAX_PAYLOAD_BYTES,
    )
}

/// [`run`] with a `--timeout` and a response line limit of `max_line` bytes (see [`ask`]);
/// `input` tells when a line can be read and the time ([`Lines`]).
pub fn run_timed<R: Lines, W: RequestSink>(
    flow: Flow<'_>,
    input: R,
    out: W,
    timeout: Option<Duration>,
    max_line: u64,
) -> Ending {
    run_answerable(flow, input, out, (timeout, max_line), None)
}

/// [`run_timed`] (`bounds`: the timeout and the response line limit) that also takes an
/// answer from elsewhere on `channel` while it waits for a response (src/channel.rs): the
/// questions end with it, the dialog open then left to the client.
pub fn run_answerable<R: Lines, W: RequestSink>(
    flow: Flow<'_>,
    input: R,
    out: W,
    bounds: (Option<Duration>, u64),
    channel: Option<std::sync::Arc<crate::channel::Channel>>,
) -> Ending {
    let (timeout, max_line) = bounds;
    let mut d = Dialogs {
        deadline: timeout.map(|t| Deadline::new(t, input.now())),
        flow,
        input,
        out,
        max_line,
        channel,
    };
    match d.run() {
        Ok(()) | Err(Stop::Elsewhere) => super::ending_of(d.flow, "dialogs"),
        Err(Stop::Eof) => Ending::TerminalLost("the dialog client closed its input".to_string()),
        Err(Stop::Io(e)) => Ending::TerminalLost(format!("the dialog client failed: {e}")),
        Err(Stop::Protocol(what)) => Ending::TerminalLost(format!("the dialog client sent {what}")),
        Err(Stop::Internal(why)) => Ending::Internal(why),
        Err(Stop::TimedOut) => {
            let why = d.deadline.map(|t| t.message()).unwrap_or_default();
            super::time_out(d.flow, why)
        }
    }
}

/// A row of a question's select: one of the question's rows ([`Rows`]), or a key row
/// ([`model::key_rows`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum QuestionRow {
    Row(Row),
    Key(Action),
}

/// A row of the review's select.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ReviewRow {
    Open(usize),
    Action(ReviewAction),
    NoteQuestion,
}

struct Dialogs<'p, R, W> {
    flow: Flow<'p>,
    input: R,
    out: W,
    /// When the flow times out (`--timeout`); every response starts the time again.
    deadline: Option<Deadline>,
    /// The longest response line, in bytes (`--max-payload-bytes`).
    max_line: u64,
    /// The answer channel, looked at while a response is waited for.
    channel: Option<std::sync::Arc<crate::channel::Channel>>,
}

/// A response `value` in a message: quoted on one line when short, else only its size (a
/// huge value is not repeated into the result).
fn quote_value(value: &str) -> String {
    if value.len() <= QUOTED_VALUE_BYTES {
        crate::text::quoted(value)
    } else {
        format!("a value of {} bytes", value.len())
    }
}

impl<R: Lines, W: RequestSink> Dialogs<'_, R, W> {
    fn run(&mut self) -> Result<(), Stop> {
        super::show_screens(
            self,
            |d| &d.flow,
            Self::question,
            Self::review,
            Self::confirm,
        )
    }

    /// Applies a command the front end only sends where it applies; a refusal is a bug.
    fn apply(&mut self, command: Command) -> Result<(), Stop> {
        self.flow.apply_sent(command).map_err(Stop::Internal)
    }

    /// Sends one request (with the time left as `timeout`, in ms, under `--timeout`; at most
    /// [`MAX_REQUEST_TIMEOUT_MS`]) and reads its response (blank lines are skipped). A
    /// response that comes back cancelled once the time is up, or none by then, is
    /// [`Stop::TimedOut`]: the flow's deadline holds whatever the client does. A dialog that
    /// comes back cancelled after a capped `timeout` ran out closed by itself, not by the
    /// person: it is asked again with the time still left. A reply over the line limit is
    /// refused: the request is asked again with a first title line saying so
    /// ([`words::reply_too_long`]), [`MAX_REFUSED_REPLIES`] times at most.
    fn ask(&mut self, request: &Request) -> Result<Response, Stop> {
        let mut refused = 0;
        let original = request;
        let mut again: Option<Request> = None;
        loop {
            let request = again.as_ref().unwrap_or(original);
            let mut value = serde_json::to_value(request).expect("requests always serialize");
            let sent = self.input.now();
            let mut capped = false;
            if let (Some(deadline), Some(object)) = (&self.deadline, value.as_object_mut()) {
                if let Some(left) = deadline.left(sent) {
                    if left.is_zero() {
                        return Err(Stop::TimedOut);
                    }
                    let ms = u64::try_from(left.as_millis()).unwrap_or(u64::MAX);
                    capped = ms > MAX_REQUEST_TIMEOUT_MS;
                    object.insert(
                        "timeout".to_string(),
                        Value::from(ms.min(MAX_REQUEST_TIMEOUT_MS)),
                    );
                }
            }
            let within = self.deadline.and_then(|d| d.left(sent));
            if !self.out.send(format!("{value}\n").as_bytes(), within)? {
                return Err(Stop::TimedOut);
            }
            let Some(response) = self.read_response()? else {
                refused += 1;
                if refused > MAX_REFUSED_REPLIES {
                    return Err(Stop::Protocol(self.too_long()));
                }
                let now = self.input.now();
                if let Some(deadline) = &mut self.deadline {
                    deadline.reset(now);
                }
                // The notice over the request as first asked: once, however many times.
                again = Some(original.with_notice(&words::reply_too_long(self.max_line)));
                continue;
            };
            let now = self.input.now();
            if let Some(deadline) = &mut self.deadline {
                if response == Response::Cancelled {
                    if deadline.is_past(now) {
                        return Err(Stop::TimedOut);
                    }
                    let cap = Duration::from_millis(MAX_REQUEST_TIMEOUT_MS);
                    if capped && now.saturating_duration_since(sent) >= cap {
                        continue;
                    }
                }
                deadline.reset(now);
            }
            return Ok(response);
        }
    }

    /// What a reply over the line limit is called in a `terminal_lost` message.
    fn too_long(&self) -> String {
        format!(
            "a response of more than {} bytes (--max-payload-bytes)",
            self.max_line
        )
    }

    /// Reads one response: the next line that is not blank, at most `max_line` bytes (its
    /// newline not counted), parsed by [`Response::parse`]. Under `--timeout` it waits only
    /// until the deadline ([`Stop::TimedOut`]), however the client writes (nothing, or half
    /// a line). End of input is [`Stop::Eof`] (a last line without a newline is read).
    /// A longer line is read to its end and dropped, kept nowhere: `None` (refused); one
    /// that ends the input, or goes on past [`MAX_SKIPPED_LINE_FACTOR`] times the limit, is a
    /// [`Stop::Protocol`] naming the limit.
    fn read_response(&mut self) -> Result<Option<Response>, Stop> {
        let mut line = Vec::new();
        // Bytes of a line over the limit read so far, once it is over.
        let mut skipped: Option<u64> = None;
        loop {
            if let Some(deadline) = self.deadline {
                let now = self.input.now();
                match deadline.left(now) {
                    Some(left) if left.is_zero() => return Err(Stop::TimedOut),
                    Some(left) if !self.ready(left)? => continue,
                    _ => {}
                }
            } else if self.channel.is_some() && !self.ready(CHANNEL_LOOK)? {
                continue;
            }
            let available = self.input.fill_buf()?;
            let (take, ended) = match available.iter().position(|&b| b == b'\n') {
                Some(at) => (at + 1, true),
                None if available.is_empty() => (0, true),
                None => (available.len(), false),
            };
            let content = if ended && take > 0 { take - 1 } else { take };
            if let Some(read) = &mut skipped {
                *read += take as u64;
                self.input.consume(take);
                let most = self.max_line.saturating_mul(MAX_SKIPPED_LINE_FACTOR);
                if (ended && take == 0) || *read > most {
                    return Err(Stop::Protocol(self.too_long()));
                }
                if ended {
                    return Ok(None);
                }
                continue;
            }
            if (line.len() + content) as u64 > self.max_line {
                skipped = Some(line.len() as u64);
                line = Vec::new();
                continue;
            }
            line.extend_from_slice(&available[..take]);
            self.input.consume(take);
            if !ended {
                continue;
            }
            if line.is_empty() {
                return Err(Stop::Eof);
            }
            let text = String::from_utf8_lossy(&line);
            if !text.trim().is_empty() {
                let cut = take == 0 && !line.ends_with(b"\n");
                return Response::parse(&text).map(Some).map_err(|what| {
                    if cut {
                        // The client went away in the middle of a line: say that, not why
                        // half a line is no JSON.
                        Stop::Protocol(CUT_SHORT.to_string())
                    } else {
                        Stop::Protocol(what)
                    }
                });
            }
            line.clear();
        }
    }

    /// Waits at most `wait` for a response to read (at most [`CHANNEL_LOOK`] with an answer
    /// channel); whether one can be read. An answer from elsewhere the channel had is
    /// [`Stop::Elsewhere`], its flow in place of this one.
    fn ready(&mut self, wait: Duration) -> Result<bool, Stop> {
        let Some(channel) = self.channel.clone() else {
            return Ok(self.input.ready(wait)?);
        };
        if self.input.ready(wait.min(CHANNEL_LOOK))? {
            return Ok(true);
        }
        match super::answer_from_elsewhere(&self.flow, &channel) {
            Some(done) => {
                self.flow = done.flow;
                Err(Stop::Elsewhere)
            }
            None => Ok(false),
        }
    }

    /// A select over `rows` (label, meaning): the chosen row, or `None` when cancelled. Each
    /// label is offered as [`shown_row`] cuts it, and the reply is matched against that.
    fn select<T: Copy>(&mut self, title: String, rows: &[(String, T)]) -> Result<Option<T>, Stop> {
        let options: Vec<String> = rows
            .iter()
            .map(|(label, _)| shown_row(label, self.max_line))
            .collect();
        let request = Request::Select {
            title,
            options: options.clone(),
        };
        match self.ask(&request)? {
            Response::Cancelled => Ok(None),
            Response::Value(v) => match options.iter().zip(rows).find(|(shown, _)| **shown == v) {
                Some((_, (_, row))) => Ok(Some(*row)),
                None => Err(Stop::Protocol(format!(
                    "{}, which is not an option of the select",
                    quote_value(&v)
                ))),
            },
            Response::Confirmed(_) => Err(Stop::Protocol(
                "confirmed where a select was asked".to_string(),
            )),
        }
    }

    /// Text for a field whose text is now `current`: an `input` with `placeholder`, or an
    /// `editor` prefilled with the current text. `None` when cancelled (Esc in an editor:
    /// nothing changes).
    /// A `secret` field is always an `input` marked `password`: its text is never sent back.
    fn text(
        &mut self,
        title: String,
        current: Option<&str>,
        placeholder: &str,
        secret: bool,
    ) -> Result<Option<String>, Stop> {
        let request = match current {
            Some(text) if !secret => Request::Editor {
                title,
                prefill: text.to_string(),
            },
            _ => Request::Input {
                title,
                placeholder: Some(placeholder.to_string()),
                password: secret,
            },
        };
        match self.ask(&request)? {
            Response::Cancelled => Ok(None),
            Response::Value(v) => Ok(Some(v)),
            Response::Confirmed(_) => {
                Err(Stop::Protocol("confirmed where text was asked".to_string()))
            }
        }
    }

    /// The title of question `q`'s select: the questionnaire's title, the question's heading,
    /// the prompt, its note, and on preview questions every option's preview.
    fn question_title(&self, q: usize) -> String {
        let payload = self.flow.payload();
        let question = &payload.questions[q];
        let mut s = String::new();
        if let Some(title) = payload.title.as_deref().filter(|t| !t.trim().is_empty()) {
            let _ = writeln!(s, "{}", one_line(title));
        }
        let _ = writeln!(s, "{}", model::heading(payload, q));
        s.push_str(&crate::text::for_terminal(&question.prompt));
        if let Some(note) = model::note_line(self.flow.answers(), q) {
            let _ = write!(s, "\n{note}");
        }
        if question.kind == QuestionType::Preview {
            for (i, option) in question.options.iter().enumerate() {
                let _ = write!(s, "\n\n{}. {}:", i + 1, one_line(&option.label));
                for line in
                    crate::text::for_terminal(option.preview.as_deref().unwrap_or("")).lines()
                {
                    let _ = write!(s, "\n  | {line}");
                }
            }
        }
        s
    }

    /// Row `row` of question `q` on one line: its words ([`model::row_text`]) and the lines
    /// under it (description, note) after ` — `.
    fn row_line(&self, q: usize, row: Row) -> String {
        let (payload, answers) = (self.flow.payload(), self.flow.answers());
        let to_review = self.flow.next_is_review(q);
        let mut line = model::row_text(payload, answers, q, row, false, to_review)
            .trim_start()
            .to_string();
        for detail in model::detail_lines(payload, answers, q, row) {
            let _ = write!(line, " \u{2014} {detail}");
        }
        line
    }

    /// The rows of question `q`'s select: the screen model's rows in the terminal's order
    /// (options, the custom-text row, Next on a multi-select question), each marked as chosen or
    /// not, then the key rows.
    fn question_rows(&self, q: usize) -> Vec<(String, QuestionRow)> {
        let (payload, answers) = (self.flow.payload(), self.flow.answers());
        let question = &payload.questions[q];
        let mut rows: Vec<(String, QuestionRow)> = Rows::of(question, None)
            .to_vec()
            .into_iter()
            .map(|row| {
                let line = self.row_line(q, row);
                let chosen = model::is_chosen(answers, q, row);
                let label = match model::mark(question, row, chosen) {
                    "" => line,
                    mark => format!("{mark} {line}"),
                };
                (label, QuestionRow::Row(row))
            })
            .collect();
        let to_review = self.flow.next_is_review(q);
        for action in model::key_rows(question, q) {
            if let Some(text) = model::key_row_text(action, to_review) {
                rows.push((text.to_string(), QuestionRow::Key(action)));
            }
        }
        rows
    }

    /// Question `q`: one select, and what its row opens, applied to the flow.
    fn question(&mut self, q: usize) -> Result<(), Stop> {
        let rows = self.question_rows(q);
        let Some(row) = self.select(self.question_title(q), &rows)? else {
            return self.apply(Command::Cancel);
        };
        let question = &self.flow.payload().questions[q];
        match row {
            QuestionRow::Row(Row::Option(i)) if question.kind.takes_several() => {
                self.apply(Command::Toggle(i))
            }
            QuestionRow::Row(Row::Option(i)) => self.apply(Command::Choose(i)),
            QuestionRow::Row(Row::TypeOwn) => {
                let current = self.flow.answers().custom_text(q).map(str::to_string);
                let title = self.field_title(q, words::TYPE_OWN);
                let secret = question.secret;
                self.save_text(
                    title,
                    current,
                    words::ANSWER_PLACEHOLDER,
                    secret,
                    Command::SaveCustomText,
                )
            }
            QuestionRow::Row(Row::Next) | QuestionRow::Key(Action::NextQuestion) => {
                self.apply(Command::Next)
            }
            QuestionRow::Key(Action::QuestionNote) => self.note_question(q),
            QuestionRow::Key(Action::OptionNote) => self.note_option(q),
            QuestionRow::Key(Action::PrevQuestion) => self.apply(Command::Back),
            QuestionRow::Key(other) => Err(Stop::Internal(format!(
                "the dialogs front end offered a row for {other:?}"
            ))),
        }
    }

    /// The title of a text field of question `q`: `2/3 Frontend: Note on this question`.
    fn field_title(&self, q: usize, field: &str) -> String {
        format!("{}: {field}", model::marker(self.flow.payload(), q))
    }

    /// The note of question `q`: an input or editor, then [`Command::SetNote`].
    fn note_question(&mut self, q: usize) -> Result<(), Stop> {
        let current = self.flow.answers().note(q).map(str::to_string);
        let title = self.field_title(q, words::QUESTION_NOTE);
        self.save_text(title, current, words::NOTE_PLACEHOLDER, false, |text| {
            Command::SetNote { question: q, text }
        })
    }

    /// Asks for a note's or a custom text's text (titled `title`, now `current`, `placeholder`
    /// when empty; a `secret` as a password input, never sent back, so an empty reply keeps
    /// it) and saves it with `save`. A text the answer rules refuse as one note too many
    /// ([`AnswerError::TooManyNotes`]) is asked again holding the text, its title's first line
    /// saying why ([`words::not_saved`]); a cancel leaves it.
    fn save_text(
        &mut self,
        title: String,
        current: Option<String>,
        placeholder: &str,
        secret: bool,
        save: impl Fn(String) -> Command,
    ) -> Result<(), Stop> {
        let (mut current, mut why) = (current, None::<String>);
        loop {
            let title = match &why {
                Some(why) => format!("{why}\n{title}"),
                None => title.clone(),
            };
            let Some(text) = self.text(title, current.as_deref(), placeholder, secret)? else {
                return Ok(());
            };
            if secret && current.is_some() && text.trim().is_empty() {
                return Ok(());
            }
            match self.flow.apply(save(text.clone())) {
                Err(FlowError::Answer(e @ AnswerError::TooManyNotes { .. })) => {
                    why = Some(words::not_saved(&e));
                    current = Some(text);
                }
                other => {
                    return other
                        .map_err(|e| Stop::Internal(format!("the flow refused a command: {e}")))
                }
            }
        }
    }

    /// A note on an option of question `q`: which option (a select), then its text.
    fn note_option(&mut self, q: usize) -> Result<(), Stop> {
        let question = &self.flow.payload().questions[q];
        let rows: Vec<(String, Option<usize>)> = (0..question.options.len())
            .map(|i| (self.row_line(q, Row::Option(i)), Some(i)))
            .chain([(words::BACK_ROW.to_string(), None)])
            .collect();
        let title = self.field_title(q, words::WHICH_OPTION);
        let Some(Some(option)) = self.select(title, &rows)? else {
            return Ok(());
        };
        let current = self
            .flow
            .answers()
            .option_note(q, option)
            .map(str::to_string);
        let what = words::option_note(&one_line(&question.options[option].label));
        let title = self.field_title(q, &what);
        self.save_text(title, current, words::NOTE_PLACEHOLDER, false, |text| {
            Command::SetOptionNote {
                question: q,
                option,
                text,
            }
        })
    }

    /// Which question (from the review's note row): a select, `None` when cancelled.
    fn pick_question(&mut self) -> Result<Option<usize>, Stop> {
        let payload = self.flow.payload();
        let rows: Vec<(String, Option<usize>)> = (0..payload.questions.len())
            .map(|q| (model::marker(payload, q), Some(q)))
            .chain([(words::BACK_ROW.to_string(), None)])
            .collect();
        Ok(self
            .select(words::WHICH_QUESTION.to_string(), &rows)?
            .flatten())
    }

    /// The review: one select of the screen model's review (a row per question that re-opens
    /// it, then the numbered actions), then the note row; Esc is the cancel (asked first when
    /// answers would be lost).
    fn review(&mut self) -> Result<(), Stop> {
        let (payload, answers) = (self.flow.payload(), self.flow.answers());
        let mut rows: Vec<(String, ReviewRow)> = (0..payload.questions.len())
            .map(|q| {
                (
                    review::question_row(payload, answers, q),
                    ReviewRow::Open(q),
                )
            })
            .collect();
        for action in ACTIONS {
            rows.push((action.numbered(), ReviewRow::Action(action)));
        }
        rows.push((words::REVIEW_NOTE_ROW.to_string(), ReviewRow::NoteQuestion));
        let title = match payload.title.as_deref().filter(|t| !t.trim().is_empty()) {
            Some(t) => format!("{}\n{}", one_line(t), words::REVIEW_TITLE),
            None => words::REVIEW_TITLE.to_string(),
        };
        match self.select(title, &rows)? {
            None => self.apply(Command::Cancel),
            Some(ReviewRow::Action(action)) => self.apply(action.command()),
            Some(ReviewRow::Open(q)) => self.apply(Command::Open(q)),
            Some(ReviewRow::NoteQuestion) => match self.pick_question()? {
                Some(q) => self.note_question(q),
                None => Ok(()),
            },
        }
    }

    /// The required-question warning or the cancel confirmation ([`review::confirmation`]):
    /// a confirm dialog whose message is the line over it (which required questions are
    /// unanswered), or else what yes does; no (or a dismissed dialog) goes back. A
    /// confirmation that offers Elaborate too is a select of its three rows (no, yes,
    /// Elaborate) under its title and that line.
    fn confirm(&mut self) -> Result<(), Stop> {
        let Some((confirmation, detail)) = review::confirmation(&self.flow) else {
            return Err(Stop::Internal("a confirmation with none asked".to_string()));
        };
        if let Some(elaborate) = confirmation.elaborate {
            let title = match &detail {
                Some(d) => format!("{}\n{d}", confirmation.title),
                None => confirmation.title.to_string(),
            };
            let rows = [
                (confirmation.no.to_string(), 0),
                (confirmation.yes.to_string(), 1),
                (elaborate.to_string(), 2),
            ];
            let chosen = self.select(title, &rows)?.unwrap_or(0);
            return self.apply(match chosen {
                1 => Command::Confirm,
                2 => Command::Elaborate,
                _ => Command::Deny,
            });
        }
        let request = Request::Confirm {
            title: confirmation.title.to_string(),
            message: detail.unwrap_or_else(|| confirmation.yes.to_string()),
        };
        let yes = match self.ask(&request)? {
            Response::Confirmed(yes) => yes,
            Response::Cancelled => false,
            Response::Value(_) => {
                return Err(Stop::Protocol(
                    "a value where a confirm was asked".to_string(),
                ))
            }
        };
        self.apply(if yes { Command::Confirm } else { Command::Deny })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::Payload;
    use serde_json::json;

    /// Setup: a required single-select question with descriptions, a multi-select one, and
    /// the shared preview question.
    fn payload() -> Payload {
        let option = |value: &str, label: &str| json!({"value": value, "label": label});
        let mut postgres = option("postgres", "PostgreSQL");
        postgres["description"] = json!("Full relational database.");
        let mut sqlite = option("sqlite", "SQLite");
        sqlite["description"] = json!("Embedded.");
        let checks = [option("lint", "Lint"), option("test", "Tests")];
        crate::frontend::test_support::setup_payload(json!([
            {"id": "db", "label": "Database", "prompt": "Which database?", "required": true,
             "options": [postgres, sqlite]},
            {"id": "checks", "label": "Checks", "prompt": "Which checks?", "type": "multi",
             "options": checks}
        ]))
    }

    /// Runs the flow with `responses` (one JSON value each); returns the ending, the result's
    /// details and every request sent.
    fn session(responses: &[Value]) -> (Ending, Value, Vec<Value>) {
        session_on(&payload(), responses)
    }

    /// [`session`] on payload `p`.
    fn session_on(p: &Payload, responses: &[Value]) -> (Ending, Value, Vec<Value>) {
        let p = p.clone();
        let input: String = responses.iter().map(|r| format!("{r}\n")).collect();
        let mut out = Vec::new();
        let ending = run(Flow::new(&p), input.as_bytes(), &mut out);
        let (res, _) = crate::result::conclude(&ending, Some(&p));
        let requests = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        (ending, serde_json::to_value(res.details).unwrap(), requests)
    }

    fn value(v: &str) -> Value {
        json!({ "value": v })
    }

    fn cancelled() -> Value {
        json!({ "cancelled": true })
    }

    fn confirmed(yes: bool) -> Value {
        json!({ "confirmed": yes })
    }

    #[test]
    fn the_first_request_is_the_first_question() {
        let (_, _, requests) = session(&[]);
        assert_eq!(
            requests[0],
            json!({
                "type": "select",
                "title": "Setup\n1/3 Database (choose one, required)\nWhich database?",
                "options": [
                    "( ) 1. PostgreSQL \u{2014} Full relational database.",
                    "( ) 2. SQLite \u{2014} Embedded.",
                    "( ) 3. Type your own\u{2026}",
                    "Note on this question\u{2026}",
                    "Note on an option\u{2026}",
                    "Next \u{2192}"
                ]
            })
        );
    }

    #[test]
    fn a_whole_flow_with_ticks_custom_text_and_notes() {
        let (ending, details, requests) = session(&[
            value("( ) 2. SQLite \u{2014} Embedded."),
            // Multi: tick Lint and Tests, then a note on Tests, then Next.
            value("[ ] 1. Lint"),
            value("[ ] 2. Tests"),
            value("Note on an option\u{2026}"),
            value("2. Tests"),
            value("  fast ones  "),
            value("Next \u{2192}"),
            // Preview: choose B.
            value("( ) 2. B"),
            // Review: re-open the database question, type an own answer instead.
            value("1/3 Database (required) \u{2192} SQLite"),
            value("( ) 3. Type your own\u{2026}"),
            value("DuckDB"),
            value("1. Submit"),
        ]);
        assert!(matches!(ending, Ending::Submitted(_)), "{ending:?}");
        assert_eq!(
            details["answers"],
            json!({
                "db": {"values": ["DuckDB"], "labels": ["DuckDB"], "indices": [], "customText": "DuckDB"},
                "checks": {"values": ["lint", "test"], "labels": ["Lint", "Tests"], "indices": [1, 2],
                           "optionNotes": {"test": "fast ones"}},
                "layout": {"values": ["b"], "labels": ["B"], "indices": [2]}
            })
        );
        // The multi question came back with its ticks, the option's note, and the terminal's
        // rows in its order (Next right after Type your own), then the key rows.
        assert_eq!(
            requests[3]["options"],
            json!([
                "[x] 1. Lint",
                "[x] 2. Tests",
                "[ ] 3. Type your own\u{2026}",
                "Next \u{2192}",
                "Note on this question\u{2026}",
                "Note on an option\u{2026}",
                "\u{2190} Back"
            ])
        );
        assert_eq!(
            requests[4],
            json!({"type": "select", "title": "2/3 Checks: Note on which option?",
                   "options": ["1. Lint", "2. Tests", "\u{2190} Back"]})
        );
        assert_eq!(
            requests[5],
            json!({"type": "input", "title": "2/3 Checks: Note on Tests", "placeholder": "Add a note..."})
        );
        assert_eq!(
            requests[6]["options"][1],
            json!("[x] 2. Tests \u{2014} note: fast ones")
        );
        // The preview question shows every preview, escape sequences made visible; moving on
        // from it shows the review.
        assert_eq!(
            requests[7]["title"],
            json!("Setup\n3/3 Q3 (choose one, previews below)\nWhich layout?\n\n1. A:\n  | +--+\n  | |a |\n  | +--+\n\n2. B:\n  | b\\e[2Jb")
        );
        assert_eq!(
            requests[7]["options"],
            json!([
                "( ) 1. A",
                "( ) 2. B",
                "( ) 3. Type your own\u{2026}",
                "Note on this question\u{2026}",
                "Note on an option\u{2026}",
                "\u{2190} Back",
                "Next: review \u{2192}"
            ])
        );
        // The re-opened question returns to the review; its own-answer editor was an input.
        assert_eq!(
            requests[10],
            json!({"type": "input", "title": "1/3 Database: Type your own", "placeholder": "Type answer..."})
        );
        assert_eq!(
            requests[11],
            json!({"type": "select", "title": "Setup\nReview answers", "options": [
                "1/3 Database (required) \u{2192} \u{201c}DuckDB\u{201d}",
                "2/3 Checks \u{2192} Lint \u{2192} Tests \u{b7} Note: fast ones",
                "3/3 Q3 \u{2192} B",
                "1. Submit",
                "2. Elaborate",
                "3. Cancel",
                "Note on a question\u{2026}"
            ]})
        );
        assert_eq!(requests.len(), 12);
    }

    #[test]
    fn elaborate_at_the_review_ends_with_the_notes() {
        let (ending, details, requests) = session(&[
            value("Note on this question\u{2026}"),
            value("which one scales?"),
            value("Next \u{2192}"),
            value("Next \u{2192}"),
            value("Next: review \u{2192}"),
            value("2. Elaborate"),
        ]);
        assert!(matches!(ending, Ending::Elaborated(_)), "{ending:?}");
        assert_eq!(details["mode"], "elaborate");
        assert_eq!(
            details["elaboration"]["items"][0]["note"],
            "which one scales?"
        );
        assert_eq!(
            requests.last().unwrap()["options"].as_array().unwrap()[3..6],
            [
                json!("1. Submit"),
                json!("2. Elaborate"),
                json!("3. Cancel")
            ]
        );
    }

    #[test]
    fn a_secret_is_asked_as_a_password_never_sent_back_and_in_the_result() {
        let p = crate::frontend::test_support::setup_payload(json!([
            {"id": "token", "label": "Token", "prompt": "Your API token?", "secret": true,
             "options": [{"value": "skip", "label": "Skip"}]}
        ]));
        let (ending, details, requests) = session_on(
            &p,
            &[
                value("( ) 2. Type your own\u{2026}"),
                value("hunter2-secret"),
                // Back from the next question: its text again, an empty reply keeps it.
                value("\u{2190} Back"),
                value("(\u{2022}) 2. Type your own\u{2026} \u{2022}\u{2022}\u{2022}\u{2022}\u{2022}\u{2022}"),
                value(""),
                value("Next \u{2192}"),
                value("Next: review \u{2192}"),
                value("1. Submit"),
            ],
        );
        assert!(
            matches!(ending, Ending::Submitted(_)),
            "{ending:?} {requests:#?}"
        );
        let input = json!({"type": "input", "title": "1/2 Token: Type your own",
                           "placeholder": "Type answer...", "password": true});
        assert_eq!(requests[1], input);
        assert_eq!(requests[4], input);
        let review = requests[requests.len() - 1]["options"].to_string();
        assert!(
            review.contains("Token \u{2192} \u{2022}\u{2022}\u{2022}\u{2022}\u{2022}\u{2022}"),
            "{review}"
        );
        for request in &requests {
            assert!(!request.to_string().contains("hunter2"), "{request}");
        }
        assert_eq!(
            details["answers"]["token"]["customText"],
            json!("hunter2-secret")
        );
    }

    #[test]
    fn text_with_a_current_value_opens_an_editor_and_a_cancelled_one_changes_nothing() {
        let (ending, details, requests) = session(&[
            value("( ) 3. Type your own\u{2026}"),
            value("Mongo"),
            // Moved on to question 2; back, then edit the own answer and cancel the editor.
            value("\u{2190} Back"),
            value("(\u{2022}) 3. Type your own\u{2026} \u{201c}Mongo\u{201d}"),
            cancelled(),
            value("Next \u{2192}"),
            value("Next \u{2192}"),
            value("Next: review \u{2192}"),
            value("1. Submit"),
        ]);
        assert!(matches!(ending, Ending::Submitted(_)), "{ending:?}");
        assert_eq!(
            requests[4],
            json!({"type": "editor", "title": "1/3 Database: Type your own", "prefill": "Mongo"})
        );
        assert_eq!(requests[5]["title"], requests[0]["title"]);
        assert_eq!(details["answers"]["db"]["customText"], json!("Mongo"));
    }

    #[test]
    fn a_cancelled_select_with_nothing_to_lose_dismisses() {
        let (ending, details, requests) = session(&[cancelled()]);
        assert_eq!(ending, Ending::Dismissed);
        assert_eq!(details["answers"], json!({}));
        assert_eq!(requests.len(), 1);
    }

    #[test]
    fn a_cancelled_select_that_would_lose_answers_asks_first() {
        let (ending, _, requests) = session(&[
            value("( ) 1. PostgreSQL \u{2014} Full relational database."),
            cancelled(),
            confirmed(false),
            cancelled(),
            confirmed(true),
        ]);
        assert_eq!(ending, Ending::Dismissed);
        assert_eq!(
            requests[2],
            json!({"type": "confirm", "title": "Cancel and discard your answers?",
                   "message": "Yes, discard the answers and cancel"})
        );
        // "No" went back to question 2.
        assert_eq!(requests[3]["title"], requests[1]["title"]);
    }

    #[test]
    fn the_reviews_cancel_asks_first_when_answers_would_be_lost() {
        let (ending, _, requests) = session(&[
            value("( ) 1. PostgreSQL \u{2014} Full relational database."),
            value("Next \u{2192}"),
            value("Next: review \u{2192}"),
            value("3. Cancel"),
            confirmed(true),
        ]);
        assert_eq!(ending, Ending::Dismissed);
        assert_eq!(
            requests[4]["title"],
            json!("Cancel and discard your answers?")
        );
        assert_eq!(requests.len(), 5);
    }

    #[test]
    fn submit_with_a_required_question_unanswered_asks_first() {
        let (ending, details, requests) = session(&[
            value("Next \u{2192}"),
            value("Next \u{2192}"),
            value("Next: review \u{2192}"),
            value("1. Submit"),
            confirmed(false),
            value("1. Submit"),
            confirmed(true),
        ]);
        assert!(matches!(ending, Ending::Submitted(_)), "{ending:?}");
        assert_eq!(details["answers"], json!({}));
        assert_eq!(
            requests[3]["options"][0],
            json!("1/3 Database (required) \u{2192} unanswered")
        );
        assert_eq!(
            requests[4],
            json!({"type": "confirm", "title": "Submit anyway?",
                   "message": "Unanswered required questions: Database."})
        );
        assert_eq!(requests[5]["title"], json!("Setup\nReview answers"));
    }

    #[test]
    fn notes_from_the_review_and_the_question() {
        let (ending, details, requests) = session(&[
            value("Next \u{2192}"),
            value("Next \u{2192}"),
            value("Next: review \u{2192}"),
            value("Note on a question\u{2026}"),
            value("1/3 Database"),
            value("decide later"),
            // The question note shows in the review and under the question's prompt.
            value("1/3 Database (required) \u{b7} Note: decide later"),
            value("Note on an option\u{2026}"),
            value("2. SQLite \u{2014} Embedded."),
            value("only for tests"),
            value("Next: review \u{2192}"),
            value("1. Submit"),
            // A note on an option not chosen: Submit asks first, Elaborate offered.
            value("Yes, submit without it"),
        ]);
        assert!(matches!(ending, Ending::Submitted(_)), "{ending:?}");
        // The review shows the note on SQLite, not chosen, as going only with Elaborate.
        assert_eq!(
            requests[11]["options"][0],
            json!("1/3 Database (required) \u{b7} Note: decide later \u{b7} Note on SQLite (only with Elaborate): only for tests")
        );
        assert_eq!(
            requests[12],
            json!({"type": "select",
                   "title": "Submit without 1 note on an option you did not choose?\nUnanswered required questions: Database.",
                   "options": ["No, go back to the review", "Yes, submit without it",
                               "Elaborate: send the note to the agent"]})
        );
        assert_eq!(
            requests[4],
            json!({"type": "select", "title": "Note on which question?",
                   "options": ["1/3 Database", "2/3 Checks", "3/3 Q3", "\u{2190} Back"]})
        );
        assert_eq!(
            requests[5],
            json!({"type": "input", "title": "1/3 Database: Note on this question",
                   "placeholder": "Add a note..."})
        );
        assert_eq!(
            requests[7]["title"],
            json!(
                "Setup\n1/3 Database (choose one, required)\nWhich database?\nNote: decide later"
            )
        );
        assert_eq!(
            requests[9],
            json!({"type": "input", "title": "1/3 Database: Note on SQLite",
                   "placeholder": "Add a note..."})
        );
        // The option note is kept but counts only once SQLite is chosen: here it is not.
        assert_eq!(
            details["answers"],
            json!({"db": {"values": [], "labels": [], "indices": [], "note": "decide later"}})
        );
    }

    #[test]
    fn elaborate_from_the_submit_confirmation_sends_the_note_on_an_option_not_chosen() {
        let (ending, details, requests) = session(&[
            value("Note on an option\u{2026}"),
            value("1. PostgreSQL \u{2014} Full relational database."),
            value("what would it cost?"),
            value("( ) 2. SQLite \u{2014} Embedded."),
            value("Next \u{2192}"),
            value("Next: review \u{2192}"),
            value("1. Submit"),
            value("Elaborate: send the note to the agent"),
        ]);
        assert!(matches!(ending, Ending::Elaborated(_)), "{ending:?}");
        assert_eq!(details["mode"], json!("elaborate"));
        assert_eq!(
            requests.last().unwrap()["title"],
            json!("Submit without 1 note on an option you did not choose?")
        );
    }

    #[test]
    fn the_client_going_away_or_answering_wrong_is_terminal_lost() {
        let (ending, details, _) = session(&[value("Next \u{2192}")]);
        assert_eq!(
            ending,
            Ending::TerminalLost("the dialog client closed its input".into())
        );
        assert_eq!(details["error"]["code"], json!("terminal_lost"));
        let (ending, _, _) = session(&[value("Maybe")]);
        assert_eq!(
            ending,
            Ending::TerminalLost(
                "the dialog client sent \"Maybe\", which is not an option of the select".into()
            )
        );
        let (ending, _, _) = session(&[confirmed(true)]);
        assert!(matches!(ending, Ending::TerminalLost(_)), "{ending:?}");
        // Not JSON: said in a person's words, not serde's; half a line the input ends in is
        // the client going away in the middle of a response.
        let p = payload();
        let run = |text: &str| {
            run_timed(
                Flow::new(&p),
                Untimed(text.as_bytes()),
                &mut Vec::new(),
                None,
                4096,
            )
        };
        assert_eq!(
            run("{\"value\": \"( ) 2\n"),
            Ending::TerminalLost(
                "the dialog client sent a response that is not valid JSON at its end: the text \
                 ends inside a string (no closing \")"
                    .into()
            )
        );
        assert_eq!(
            run("{\"value\": \"( ) 2"),
            Ending::TerminalLost(
                "the dialog client sent half a response and closed its input: the last line has \
                 no line break and is not a whole response"
                    .into()
            )
        );
    }

    /// Lines that arrive `delay` late (a person taking their time).
    struct Slow<'a> {
        delay: std::time::Duration,
        inner: &'a [u8],
    }

    impl io::Read for Slow<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            std::thread::sleep(self.delay);
            self.inner.read(buf)
        }
    }

    #[test]
    fn under_a_timeout_requests_carry_the_time_left_and_a_late_cancel_times_out() {
        let p = payload();
        let mut out = Vec::new();
        let input = format!("{}\n", cancelled());
        let slow = Slow {
            delay: std::time::Duration::from_millis(80),
            inner: input.as_bytes(),
        };
        let ending = run_timed(
            Flow::new(&p),
            Untimed(io::BufReader::new(slow)),
            &mut out,
            Some(std::time::Duration::from_millis(40)),
            1024,
        );
        let first = out.split(|&b| b == b'\n').next().unwrap();
        let request: Value = serde_json::from_slice(first).unwrap();
        assert!(
            request["timeout"].as_u64().is_some_and(|t| t <= 40),
            "{request}"
        );
        match ending {
            Ending::TimedOut { why, .. } => assert_eq!(why, "no key for 0.04 seconds"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn responses_parse() {
        assert_eq!(
            Response::parse(r#"{"value":"x"}"#),
            Ok(Response::Value("x".into()))
        );
        assert_eq!(
            Response::parse(r#" {"confirmed":false} "#),
            Ok(Response::Confirmed(false))
        );
        assert_eq!(
            Response::parse(r#"{"cancelled":true,"value":"x"}"#),
            Ok(Response::Cancelled)
        );
        assert!(Response::parse(r#"{"value":1}"#).is_err());
        assert!(Response::parse(r#"{"cancelled":false}"#).is_err());
        assert!(Response::parse("[1]").is_err());
        assert!(Response::parse("nope").is_err());
    }

    /// A session under `--timeout` `timeout` on a fake clock, `text` read as response lines
    /// after `gaps` each: the ending, the requests, and how long it took.
    fn timed_session(
        text: &str,
        gaps: &[Option<Duration>],
        timeout: Duration,
    ) -> (Ending, Vec<Value>, Duration) {
        let p = payload();
        let (input, elapsed) = crate::frontend::test_support::timed(text, gaps.iter().copied());
        let mut out = Vec::new();
        let ending = run_timed(Flow::new(&p), input, &mut out, Some(timeout), 4096);
        let requests = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        (ending, requests, elapsed())
    }

    #[test]
    fn no_response_or_half_a_line_for_the_timeout_times_the_flow_out() {
        let s30 = Duration::from_secs(30);
        for (text, gaps) in [
            ("", vec![None]),
            ("{\"value\": \"( ) 2", vec![Some(s30 / 2), None]),
        ] {
            let (ending, requests, took) = timed_session(text, &gaps, s30);
            match ending {
                Ending::TimedOut { why, .. } => assert_eq!(why, "no key for 30 seconds"),
                other => panic!("{other:?}"),
            }
            assert_eq!((requests.len(), took), (1, s30));
        }
    }

    #[test]
    fn a_request_timeout_is_capped_and_a_dialog_that_closed_by_itself_is_asked_again() {
        let cap = Duration::from_millis(MAX_REQUEST_TIMEOUT_MS);
        let days30 = Duration::from_secs(30 * 86_400);
        let text = format!(
            "{}\n{}\n",
            cancelled(),
            value("( ) 2. SQLite \u{2014} Embedded.")
        );
        let (ending, requests, _) = timed_session(
            &text,
            &[Some(cap), Some(Duration::from_secs(1)), None],
            days30,
        );
        // The capped dialog closed by itself after 2^31-1 ms: asked again with the time left,
        // not a dismissal; the answer then counts.
        assert_eq!(requests[0]["timeout"], json!(MAX_REQUEST_TIMEOUT_MS));
        assert_eq!(requests[1]["title"], requests[0]["title"]);
        assert_eq!(
            requests[1]["timeout"],
            json!(days30.as_millis() as u64 - MAX_REQUEST_TIMEOUT_MS)
        );
        assert_eq!(requests[2]["timeout"], json!(MAX_REQUEST_TIMEOUT_MS));
        match ending {
            Ending::TimedOut { .. } => {}
            other => panic!("{other:?}"),
        }
        // A dismissal before the cap ran out is the person's.
        let text = format!("{}\n", cancelled());
        let (ending, requests, _) = timed_session(&text, &[Some(Duration::from_secs(5))], days30);
        assert_eq!((ending, requests.len()), (Ending::Dismissed, 1));
    }

    #[test]
    fn a_response_line_over_the_limit_names_the_limit_and_a_long_value_its_size() {
        let p = payload();
        let run_with = |text: String, max_line: u64| {
            let mut out = Vec::new();
            run_timed(
                Flow::new(&p),
                Untimed(text.as_bytes()),
                &mut out,
                None,
                max_line,
            )
        };
        let line = json!({"value": "x".repeat(90)}).to_string();
        assert_eq!(line.len(), 102);
        let over = Ending::TerminalLost(
            "the dialog client sent a response of more than 101 bytes (--max-payload-bytes)".into(),
        );
        // A line over the limit that the input ends in.
        assert_eq!(run_with(line.clone(), 101), over);
        // Ended, it is refused (the request asked again); four in a row end the flow.
        let closed = Ending::TerminalLost("the dialog client closed its input".into());
        assert_eq!(run_with(format!("{line}\n"), 101), closed);
        assert_eq!(run_with(format!("{line}\n").repeat(3), 101), closed);
        assert_eq!(run_with(format!("{line}\n").repeat(4), 101), over);
        let not_an_option = |what: &str| {
            Ending::TerminalLost(format!(
                "the dialog client sent {what}, which is not an option of the select"
            ))
        };
        // The newline is not counted; a carriage return before it is.
        let quoted = format!("{:?}", "x".repeat(90));
        assert_eq!(run_with(format!("{line}\n"), 102), not_an_option(&quoted));
        assert_eq!(run_with(format!("{line}\r\n"), 103), not_an_option(&quoted));
        assert_eq!(run_with(line.clone(), 102), not_an_option(&quoted));
        let long = json!({"value": "y".repeat(201)}).to_string();
        assert_eq!(run_with(long, 4096), not_an_option("a value of 201 bytes"));
        // A line over the limit is read only so far past it: then the flow ends.
        let endless = format!("{{\"value\": \"{}\"}}\n", "z".repeat(101 * 16 + 1));
        assert_eq!(run_with(endless, 101), over);
    }

    /// A reply over the line limit is refused, not a lost flow: the same request comes again
    /// with a first title line saying why, and the flow goes on from its answer.
    #[test]
    fn a_refused_reply_asks_again_saying_why() {
        let p = payload();
        let too_long = format!("{}\n", json!({"value": "x".repeat(300)}));
        let input = format!(
            "{}{}\n{}\n",
            too_long.repeat(3),
            value("( ) 2. SQLite \u{2014} Embedded."),
            cancelled()
        ) + &format!("{}\n", confirmed(true));
        let mut out = Vec::new();
        let ending = run_timed(
            Flow::new(&p),
            Untimed(input.as_bytes()),
            &mut out,
            None,
            200,
        );
        let requests: Vec<Value> = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let mut again = requests[0].clone();
        again["title"] = json!(format!(
            "The last reply was more than 200 bytes (--max-payload-bytes) and was not taken; \
             try again.\n{}",
            requests[0]["title"].as_str().unwrap()
        ));
        // Each time with the one line saying why, never two of them.
        assert_eq!(requests[1..4], [again.clone(), again.clone(), again]);
        // SQLite was chosen from the fourth: the flow went on to the next question.
        assert!(requests[4]["title"]
            .as_str()
            .unwrap()
            .contains("2/3 Checks"));
        assert!(matches!(ending, Ending::Dismissed), "{ending:?}");
    }

    /// A custom text of any length is shown cut in a row (the answer keeps it whole), so
    /// every row can be chosen within the line limit; the cut row chooses as the whole did.
    #[test]
    fn rows_with_a_long_custom_text_are_cut_and_still_chosen() {
        let text = "y".repeat(5000);
        let (ending, details, requests) = session(&[
            value("( ) 3. Type your own\u{2026}"),
            value(&text),
            // Back from the next question to this one, then its Type your own row, cut.
            value("\u{2190} Back"),
            value(&format!(
                "(\u{2022}) 3. Type your own\u{2026} \u{201c}{}\u{2026}",
                "y".repeat(376)
            )),
            cancelled(),
            cancelled(),
            confirmed(true),
        ]);
        for request in &requests[2..] {
            for row in request["options"].as_array().into_iter().flatten() {
                let row = row.as_str().unwrap();
                assert!(crate::text::width_of(row) <= MAX_ROW_COLUMNS, "{row}");
            }
        }
        // The editor opened from the cut row holds the whole text.
        assert_eq!(
            requests[4],
            json!({"type": "editor", "title": "1/3 Database: Type your own", "prefill": text})
        );
        assert!(matches!(ending, Ending::Dismissed), "{ending:?}");
        assert_eq!(details["cancelled"], true);
    }

    /// A note past the notes' budget is not dropped without a word: its text dialog comes
    /// again as an editor holding it, the first title line saying why.
    #[test]
    fn a_note_past_the_budget_is_asked_again_saying_why() {
        // 49,999 short options: 7,639 units of context, so a note of one byte weighs 7,641,
        // two fit and three weigh 22,923, past the 20,000.
        let options: Vec<Value> = (0..49_999)
            .map(|i| json!({"value": format!("v{i}"), "label": format!("L{i}")}))
            .collect();
        let p = crate::contract::parse_payload(
            &json!({"questions": [{"id": "q", "prompt": "P", "type": "multi", "options": options}]})
                .to_string(),
        )
        .unwrap();
        let responses = [
            value("Note on this question\u{2026}"),
            value("a"),
            value("Note on an option\u{2026}"),
            value("1. L0"),
            value("b"),
            value("Note on an option\u{2026}"),
            value("2. L1"),
            value("c"),
            cancelled(),
        ];
        let input: String = responses.iter().map(|r| format!("{r}\n")).collect();
        let mut out = Vec::new();
        let ending = run(Flow::new(&p), input.as_bytes(), &mut out);
        let requests: Vec<Value> = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(
            requests[8],
            json!({"type": "editor", "prefill": "c", "title":
                "Not saved: too many notes: an elaborate result repeats a question with all its \
                 options, its answer and its notes for each note (question 1's notes would weigh 22923), 20000 \
                 in all at most; shorten or clear a note or the custom text first.\n1/1 Q1: Note on L1"})
        );
        // Cancelled: back to the question, the two notes kept, the third not taken.
        assert_eq!(requests[9]["type"], "select");
        assert!(matches!(ending, Ending::TerminalLost(_)), "{ending:?}");
        assert_eq!(requests.len(), 10);
    }
}

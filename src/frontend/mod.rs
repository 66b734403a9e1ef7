//! Front ends: the ways of asking. Each turns key presses, typed lines or file entries into
//! [`Command`](crate::flow::Command)s on a [`Flow`](crate::flow::Flow), draws what the flow
//! says is current, and returns the [`Ending`](crate::result::Ending); none of them decides a
//! rule or builds a result.
//!
//! - `tty`: its own key reader and frames, line editors as components, on the terminal (`/dev/tty`);
//! - [`plain`]: numbered lines and line input, no escape sequences (TERM=dumb, `--plain`);
//! - [`scripted`]: answers from a file (`--answers`), no terminal at all;
//! - [`dialogs`]: a caller's dialogs, JSON lines on stdin and stdout (`--dialogs`; pi's RPC
//!   mode).
//!
//! [`timeout`] holds the `--timeout` rules the interactive ones share: when the flow times
//! out, when the countdown shows and what it says; [`grace`] the grace period of the first
//! question (`PI_ASK_KEY_GRACE`).

pub mod dialogs;
pub mod grace;
pub mod plain;
pub mod scripted;
pub mod timeout;
pub mod tty;

use std::path::PathBuf;
use std::time::Duration;

/// What every interactive front end needs besides the payload.
#[derive(Debug, Clone, Default)]
pub struct AskOptions {
    /// Project root for `@` file-path completion (`--cwd`, default the current directory).
    pub cwd: PathBuf,
    /// What the peek key (Ctrl+]) shows: the agent's message that asked (`--context FILE`).
    pub context: Option<String>,
    /// How to notify once when the first screen waits (`--notify`, `--notify-command`,
    /// `--no-bell`, `PI_ASK_BELL=0`; [`crate::notify`]): the terminal front end rings the bell
    /// when [`crate::notify::Settings::rings_bell`]; the other channels are
    /// [`crate::notify::Settings::when_waiting`]'s.
    pub notify: crate::notify::Settings,
    /// End the flow when no key comes for this long (`--timeout`, `PI_ASK_TIMEOUT`); `None`:
    /// never. The scripted front end never times out.
    pub timeout: Option<Duration>,
    /// Where the terminal front end draws (`--screen`, `PI_ASK_SCREEN`): inline at the
    /// cursor (the default) or on the alternate screen.
    pub placement: tty::Placement,
    /// Whether the terminal front end draws in colour ([`crate::ui::view::colour_wanted`]).
    pub colour: bool,
    /// Inline: leave nothing when the flow ends: the region drawn is erased and the cursor
    /// left at its top, for a caller that draws there next (`--no-transcript`,
    /// `PI_ASK_TRANSCRIPT=0`; docs/interactive.md "Placement").
    pub leave_nothing: bool,
    /// How long after the first frame (plain mode: the first prompt) keys are not acted on
    /// ([`grace`]; `PI_ASK_KEY_GRACE`, [`grace::DEFAULT`] from the command); zero: off, the
    /// default here (tests, fuzzing).
    pub key_grace: Duration,
    /// Inline: the lines the screen shows above the questions (`--above FILE`), which the
    /// terminal front end draws again above them on a screen it then owns from its top
    /// (docs/interactive.md "Placement").
    pub above: Option<String>,
    /// The answer channel the questions may be answered through from elsewhere
    /// (src/channel.rs); `None`: none (`--answers`, tests).
    pub channel: Option<std::sync::Arc<crate::channel::Channel>>,
    /// The answer channel opened later: the terminal front end opens it once its first frame
    /// is up (docs/benchmarks.md, figure 1: the first prompt comes first), when `channel` is
    /// `None`.
    pub open_channel: Option<ChannelOpener>,
}

/// Opens the answer channel of a payload's questions ([`AskOptions::open_channel`]); `None`
/// when it cannot be opened (why is said once the terminal is the shell's again).
#[derive(Clone)]
pub struct ChannelOpener(pub std::sync::Arc<OpenChannel>);

/// What a [`ChannelOpener`] calls with the questions' payload.
pub type OpenChannel = dyn Fn(&crate::contract::Payload) -> Option<std::sync::Arc<crate::channel::Channel>>
    + Send
    + Sync;

impl std::fmt::Debug for ChannelOpener {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ChannelOpener")
    }
}

/// What an answer from elsewhere did ([`answer_from_elsewhere`]).
pub(crate) struct FromElsewhere<'p> {
    /// The flow the answers ended, in place of the front end's.
    pub flow: crate::flow::Flow<'p>,
    /// Who answered, for the transcript line ([`crate::channel::DEFAULT_FROM`] when the
    /// request did not say).
    pub from: String,
}

/// Decides on the request waiting on `channel`, if one does, for the questions of `flow`:
/// checked as an answers file with the questionnaire's id
/// ([`crate::contract::parse_answer_request`]), refused with its problems (the flow
/// untouched), or applied to the questions from the start, as the same file given to
/// `--answers` would be ([`scripted::apply`]), and replied `ok`. `None` when nothing was
/// taken; the front end goes on as it was.
pub(crate) fn answer_from_elsewhere<'p>(
    flow: &crate::flow::Flow<'p>,
    channel: &crate::channel::Channel,
) -> Option<FromElsewhere<'p>> {
    use crate::channel::{Reply, Status};
    use crate::contract::{parse_answer_request, RequestRefusal};
    let request = channel.take()?;
    if flow.is_over() {
        request.reply(Reply::already_answered());
        return None;
    }
    let payload = flow.payload();
    match parse_answer_request(&request.text, payload, channel.id()) {
        Err(RequestRefusal::Stale(why)) => {
            request.reply(Reply::new(Status::Stale, why));
            None
        }
        Err(RequestRefusal::Problems(problems)) => {
            request.reply(Reply::invalid(problems));
            None
        }
        Ok(asked) => match scripted::apply(crate::flow::Flow::new(payload), &asked.answers) {
            Ok(ended) if ended.is_over() => {
                request.reply(Reply::ok());
                Some(FromElsewhere {
                    flow: ended,
                    from: asked
                        .from
                        .unwrap_or_else(|| crate::channel::DEFAULT_FROM.to_string()),
                })
            }
            Ok(_) | Err(_) => {
                request.reply(Reply::new(
                    Status::Invalid,
                    "the answers did not end the questionnaire",
                ));
                None
            }
        },
    }
}

/// Which interactive front end suits the terminal: `plain` when asked for, or when `TERM` is
/// unset, empty, or a terminal the editor cannot drive (`dumb`, `cons25`, `emacs`, in any
/// case: `editor::cannot_drive`); `tty` otherwise.
pub fn wants_plain(force_plain: bool, term: Option<&str>) -> bool {
    force_plain || crate::editor::cannot_drive(term)
}

/// Shows the flow's screens one at a time until the flow ends: `question` for a question,
/// `review` for the review, `confirm` for the required-question warning and the cancel
/// confirmation. The loop of the line-based front ends (plain, dialogs); `flow` reads the
/// front end's flow.
pub(crate) fn show_screens<'p, T, E>(
    front: &mut T,
    flow: fn(&T) -> &crate::flow::Flow<'p>,
    question: fn(&mut T, usize) -> Result<(), E>,
    review: fn(&mut T) -> Result<(), E>,
    confirm: fn(&mut T) -> Result<(), E>,
) -> Result<(), E> {
    use crate::flow::Screen;
    while !flow(front).is_over() {
        match flow(front).screen() {
            Screen::Question(q) => question(front, q)?,
            Screen::Review => review(front)?,
            Screen::ConfirmSubmit | Screen::ConfirmCancel { .. } => confirm(front)?,
        }
    }
    Ok(())
}

/// The ending of a flow a line-based front end stopped driving: [`Flow::into_ending`], or an
/// internal ending naming `front` when the flow is not over (a bug in that front end).
///
/// [`Flow::into_ending`]: crate::flow::Flow::into_ending
pub(crate) fn ending_of(flow: crate::flow::Flow<'_>, front: &str) -> crate::result::Ending {
    flow.into_ending().unwrap_or_else(|| {
        crate::result::Ending::Internal(format!(
            "the {front} front end stopped before the flow ended"
        ))
    })
}

/// The ending of a flow no input came for within `--timeout` (`why` says so, "no key for 30
/// seconds"): the flow times out, keeping the answers given so far.
pub(crate) fn time_out(mut flow: crate::flow::Flow<'_>, why: String) -> crate::result::Ending {
    use crate::result::Ending;
    match flow.apply(crate::flow::Command::TimeOut(why)) {
        Ok(()) => flow
            .into_ending()
            .unwrap_or_else(|| Ending::Internal("the flow did not end on a timeout".to_string())),
        Err(e) => Ending::Internal(format!("the flow refused a timeout: {e}")),
    }
}

/// Test support shared by the line-based front ends' tests.
#[cfg(test)]
pub(crate) mod test_support {
    use super::plain::Lines;
    use std::io::{self, BufRead, Read};
    use std::time::{Duration, Instant};

    /// Lines that come at scripted times on a fake clock (shared, to read after the run): the
    /// i-th line comes `gaps[i]` after the previous one was read (`None`: never).
    pub(crate) struct Timed {
        pub lines: io::Cursor<Vec<u8>>,
        pub clock: std::rc::Rc<std::cell::Cell<Instant>>,
        pub gaps: std::collections::VecDeque<Option<Duration>>,
        /// The next wait ends with the process continued (`fg`), not with a line.
        pub stopped: bool,
        continued: bool,
    }

    /// A payload titled `Setup` of `questions` (a JSON array), then the preview question the
    /// line-based front ends' tests share (`Which layout?`: A, and B whose preview holds an
    /// escape sequence).
    pub(crate) fn setup_payload(questions: serde_json::Value) -> crate::contract::Payload {
        let mut questions = questions.as_array().cloned().unwrap_or_default();
        questions.push(serde_json::json!(
            {"id": "layout", "prompt": "Which layout?", "type": "preview", "options": [
                {"value": "a", "label": "A", "preview": "+--+\n|a |\n+--+"},
                {"value": "b", "label": "B", "preview": "b\x1b[2Jb"}]}
        ));
        let payload = serde_json::json!({"title": "Setup", "questions": questions});
        crate::contract::parse_payload(&payload.to_string()).expect("a valid payload")
    }

    /// `text`'s lines as [`Timed`] on a clock that starts now, and how long that clock has
    /// run when asked (after the run).
    pub(crate) fn timed(
        text: &str,
        gaps: impl IntoIterator<Item = Option<Duration>>,
    ) -> (Timed, impl Fn() -> Duration) {
        let start = Instant::now();
        let clock = std::rc::Rc::new(std::cell::Cell::new(start));
        let input = Timed {
            lines: io::Cursor::new(text.as_bytes().to_vec()),
            clock: clock.clone(),
            gaps: gaps.into_iter().collect(),
            stopped: false,
            continued: false,
        };
        (input, move || clock.get() - start)
    }

    impl Read for Timed {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.lines.read(buf)
        }
    }

    impl BufRead for Timed {
        fn fill_buf(&mut self) -> io::Result<&[u8]> {
            self.lines.fill_buf()
        }

        fn consume(&mut self, amount: usize) {
            self.lines.consume(amount)
        }
    }

    impl Lines for Timed {
        fn ready(&mut self, wait: Duration) -> io::Result<bool> {
            if std::mem::take(&mut self.stopped) {
                self.continued = true;
                return Ok(false);
            }
            let (passed, ready) = match self.gaps.front_mut() {
                Some(Some(gap)) if *gap <= wait => {
                    let gap = *gap;
                    self.gaps.pop_front();
                    (gap, true)
                }
                Some(Some(gap)) => {
                    *gap -= wait;
                    (wait, false)
                }
                _ => (wait, false),
            };
            self.clock.set(self.clock.get() + passed);
            Ok(ready)
        }

        fn now(&self) -> Instant {
            self.clock.get()
        }

        fn continued(&mut self) -> bool {
            std::mem::take(&mut self.continued)
        }
    }
}

//! Notifications when the questions wait (the contract's project v0.9.0, "Notifications";
//! docs/contract.md "What pi-ask adds"): once per questionnaire, when the first question is
//! shown and waits for the person, on the channels the user picks (`--notify`,
//! `PI_ASK_NOTIFY`; `bell` by default):
//!
//! - `bell`: BEL (`\x07`) on the terminal;
//! - `osc9`: `ESC ] 9 ; message BEL`, a desktop notification in iTerm2, WezTerm, kitty,
//!   Windows Terminal, ... (also over ssh: it is terminal output);
//! - `osc777`: `ESC ] 777 ; notify ; title ; message BEL` (urxvt, foot, Ghostty, VTE);
//! - `command`: `sh -c COMMAND` (`--notify-command`, `PI_ASK_NOTIFY_COMMAND`) with
//!   `ASK_NOTIFY_EVENT=question.waiting`, `ASK_NOTIFY_TITLE` and `ASK_NOTIFY_MESSAGE` in its
//!   environment, no stdin, its output discarded, killed after 5 s ([`COMMAND_TIMEOUT`]).
//!
//! The message is `Question waiting: <label or prompt>` ([`Notice::question_waiting`]): one
//! line, control characters left out, at most 120 characters ([`MAX_MESSAGE_CHARS`]).
//! Nothing here can fail the run: a command that cannot start, fails or hangs is only
//! reported to the caller of [`run_command`], and front ends ignore it.
//!
//! A front end calls [`Settings::when_waiting`] once, when its first screen is up, and writes
//! the bytes it returns to the terminal (none for `command` alone); [`stop_commands`] ends a
//! command still running when the run ends.

use crate::contract::Question;
use std::io;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The event name a command gets in `ASK_NOTIFY_EVENT`.
pub const EVENT: &str = "question.waiting";
/// The title of a notification when the payload has none (the contract's project's).
pub const DEFAULT_TITLE: &str = "pi ask";
/// The longest message, in characters (a longer one ends in `…`).
pub const MAX_MESSAGE_CHARS: usize = 120;
/// How long a notification command may run before it is killed.
pub const COMMAND_TIMEOUT: Duration = Duration::from_secs(5);

/// One way of notifying.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Channel {
    /// BEL on the terminal.
    Bell,
    /// OSC 9 on the terminal.
    Osc9,
    /// OSC 777 `notify` on the terminal.
    Osc777,
    /// The notification command.
    Command,
}

impl Channel {
    /// Every channel, as `--notify` spells them.
    pub const NAMES: &'static [(&'static str, Channel)] = &[
        ("bell", Channel::Bell),
        ("osc9", Channel::Osc9),
        ("osc777", Channel::Osc777),
        ("command", Channel::Command),
    ];
}

/// A `--notify` list as the command line holds it ([`Channels::parse`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Channels(pub Vec<Channel>);

impl Channels {
    /// [`parse_channels`], for clap.
    ///
    /// Errors: as [`parse_channels`].
    pub fn parse(list: &str) -> Result<Channels, String> {
        parse_channels(list).map(Channels)
    }
}

/// Which channels notify, in the order given, and the command of the `command` channel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// The channels, in the order given, each once.
    pub channels: Vec<Channel>,
    /// What `command` runs (`sh -c`).
    pub command: Option<String>,
}

impl Default for Settings {
    /// The bell alone (pi-ask's notification before there were channels).
    fn default() -> Self {
        Settings {
            channels: vec![Channel::Bell],
            command: None,
        }
    }
}

/// Reads a `--notify` list: channel names separated by commas (`osc777,bell`), or `none`
/// (also empty) for no notification.
///
/// Errors: a name that is not `bell`, `osc9`, `osc777`, `command` or `none`, in a sentence
/// that lists them.
pub fn parse_channels(list: &str) -> Result<Vec<Channel>, String> {
    let mut channels = Vec::new();
    for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        if name.eq_ignore_ascii_case("none") {
            continue;
        }
        let Some(&(_, channel)) = Channel::NAMES
            .iter()
            .find(|(known, _)| name.eq_ignore_ascii_case(known))
        else {
            return Err(format!(
                "{} is not a notification channel: give bell, osc9, osc777, command or none, separated by commas",
                crate::text::quoted(name)
            ));
        };
        if !channels.contains(&channel) {
            channels.push(channel);
        }
    }
    Ok(channels)
}

impl Settings {
    /// The settings of the command line: `channels` (`--notify`; `None`: the bell), less the
    /// bell with `--no-bell`, plus `command` when a notification command is given and not
    /// listed. Errors: `command` listed without a command to run.
    pub fn new(
        channels: Option<Vec<Channel>>,
        no_bell: bool,
        command: Option<String>,
    ) -> Result<Settings, String> {
        let mut channels = channels.unwrap_or_else(|| vec![Channel::Bell]);
        if no_bell {
            channels.retain(|c| *c != Channel::Bell);
        }
        let command = command.filter(|c| !c.trim().is_empty());
        match (&command, channels.contains(&Channel::Command)) {
            (Some(_), false) => channels.push(Channel::Command),
            (None, true) => {
                return Err(
                    "the `command` notification channel needs a command: give --notify-command (or PI_ASK_NOTIFY_COMMAND)"
                        .to_string(),
                )
            }
            _ => {}
        }
        Ok(Settings { channels, command })
    }

    /// Whether the bell is one of the channels.
    pub fn rings_bell(&self) -> bool {
        self.channels.contains(&Channel::Bell)
    }

    /// Notifies that `notice` waits: starts the command (not waited for; [`run_command`]) and
    /// returns the bytes a front end writes to the terminal for the other channels, in the
    /// order given (empty when there are none); without `escapes` (plain mode: no escape
    /// sequences) the OSC channels are left out. Call it once per questionnaire.
    pub fn when_waiting(&self, notice: &Notice, escapes: bool) -> Vec<u8> {
        if let (true, Some(command)) = (self.channels.contains(&Channel::Command), &self.command) {
            // Its failure never fails the run.
            let _ = run_command(command, notice);
        }
        let channels: Vec<Channel> = self
            .channels
            .iter()
            .copied()
            .filter(|c| escapes || *c == Channel::Bell)
            .collect();
        terminal_bytes(&channels, notice)
    }
}

/// What a notification says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    /// The event, [`EVENT`].
    pub event: &'static str,
    /// The title: the payload's title, else [`DEFAULT_TITLE`]; one line, no control
    /// characters, at most [`MAX_MESSAGE_CHARS`].
    pub title: String,
    /// `Question waiting: <label or prompt>`; one line, no control characters, at most
    /// [`MAX_MESSAGE_CHARS`].
    pub message: String,
    /// The answer channel's socket and the questionnaire's id (src/channel.rs), given to the
    /// command as `ASK_ANSWER_SOCKET` and `ASK_ANSWER_ID`.
    pub answer: Option<(String, String)>,
}

impl Notice {
    /// The notice for `question` of a payload titled `title`: its label, or its prompt when
    /// the payload gave no label ([`Question::name`]).
    pub fn question_waiting(title: Option<&str>, question: &Question) -> Notice {
        let subject = question.name();
        let title = title.map(clean).filter(|t| !t.is_empty());
        Notice {
            event: EVENT,
            title: truncate(title.unwrap_or_else(|| DEFAULT_TITLE.to_string())),
            message: truncate(format!("Question waiting: {}", clean(subject))),
            answer: None,
        }
    }

    /// The same notice, naming the answer channel's socket and the questionnaire's id.
    pub fn with_channel(mut self, channel: &crate::channel::Channel) -> Notice {
        self.answer = Some((
            channel.socket().to_string_lossy().into_owned(),
            channel.id().to_string(),
        ));
        self
    }
}

/// `text` as one line a terminal cannot act on: whitespace runs (line breaks too) are one
/// space, control characters (C0, DEL, C1) and bidirectional controls are left out.
fn clean(text: &str) -> String {
    let kept: String = text
        .chars()
        .map(|c| if c.is_whitespace() { ' ' } else { c })
        .filter(|&c| {
            !c.is_control() && !matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
        })
        .collect();
    kept.split(' ')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// At most [`MAX_MESSAGE_CHARS`] characters, the last one `…` when cut.
fn truncate(text: String) -> String {
    if text.chars().count() <= MAX_MESSAGE_CHARS {
        return text;
    }
    let mut cut: String = text.chars().take(MAX_MESSAGE_CHARS - 1).collect();
    cut.push('…');
    cut
}

/// The terminal's bytes for `channels` (the command channel has none), in their order:
/// `\x07`, `\x1b]9;MESSAGE\x07`, `\x1b]777;notify;TITLE;MESSAGE\x07` (`;` in a field
/// becomes `:`, so it cannot end the field).
pub fn terminal_bytes(channels: &[Channel], notice: &Notice) -> Vec<u8> {
    let mut out = String::new();
    for channel in channels {
        match channel {
            Channel::Bell => out.push('\x07'),
            Channel::Osc9 => out.push_str(&format!("\x1b]9;{}\x07", notice.message)),
            Channel::Osc777 => out.push_str(&format!(
                "\x1b]777;notify;{};{}\x07",
                notice.title.replace(';', ":"),
                notice.message.replace(';', ":")
            )),
            Channel::Command => {}
        }
    }
    out.into_bytes()
}

/// Runs `sh -c command` with the notice in its environment (`ASK_NOTIFY_EVENT`,
/// `ASK_NOTIFY_TITLE`, `ASK_NOTIFY_MESSAGE`), in a process group of its own, stdin, stdout and
/// stderr `/dev/null` (stdout carries only the result) and no other descriptor of pi-ask's,
/// and returns at once; a thread waits for it and ends its group after [`COMMAND_TIMEOUT`],
/// what the command left running in its group (`notify-send … &`) too, the shell gone or not.
/// Every ending of the run ends it too, a signal's included (src/leftovers.rs). The thread's
/// result says how it ended: `Ok` for exit status 0, else what went wrong.
///
/// Errors: the shell could not be started.
pub fn run_command(command: &str, notice: &Notice) -> io::Result<JoinHandle<Result<(), String>>> {
    use crate::leftovers::Stream;
    let mut env = vec![
        ("ASK_NOTIFY_EVENT", notice.event),
        ("ASK_NOTIFY_TITLE", notice.title.as_str()),
        ("ASK_NOTIFY_MESSAGE", notice.message.as_str()),
    ];
    if let Some((socket, id)) = &notice.answer {
        env.push((crate::channel::SOCKET_ENV, socket));
        env.push((crate::channel::ID_ENV, id));
    }
    let child = crate::leftovers::spawn_shell(
        command,
        &[],
        &env,
        [Stream::Null, Stream::Null, Stream::Null],
        true,
    )?;
    Ok(std::thread::spawn(move || {
        let start = Instant::now();
        // How the shell ended, once it did: what it left in its group (`cmd &`) still counts
        // against the bound.
        let mut ended: Option<Result<(), String>> = None;
        loop {
            if ended.is_none() {
                ended = child.try_wait().map(|ok| {
                    if ok {
                        Ok(())
                    } else {
                        Err("the notification command failed".to_string())
                    }
                });
            }
            let late = start.elapsed() >= COMMAND_TIMEOUT;
            match ended {
                Some(how) if late || !child.group_running() => {
                    child.end();
                    return how;
                }
                None if late => {
                    child.end();
                    return Err(format!(
                        "the notification command was killed after {} s",
                        COMMAND_TIMEOUT.as_secs()
                    ));
                }
                _ => std::thread::sleep(Duration::from_millis(20)),
            }
        }
    }))
}

/// Ends every notification command still running (and every other child of the run): the
/// run is over, so none outlives it (`leftovers::end_children`).
pub fn stop_commands() {
    crate::leftovers::end_children();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::parse_payload;
    use serde_json::json;

    fn question(label: Option<&str>, prompt: &str) -> Question {
        let mut q = json!({"id": "q", "prompt": prompt, "options": [{"value": "a", "label": "A"}]});
        if let Some(l) = label {
            q["label"] = json!(l);
        }
        parse_payload(&json!({"questions": [q]}).to_string())
            .unwrap()
            .questions
            .remove(0)
    }

    #[test]
    fn the_message_names_the_label_or_else_the_prompt() {
        let n = Notice::question_waiting(None, &question(Some("Scope"), "What scope?"));
        assert_eq!(
            (n.event, n.title.as_str(), n.message.as_str()),
            ("question.waiting", "pi ask", "Question waiting: Scope")
        );
        let n = Notice::question_waiting(Some("Setup"), &question(None, "What scope?"));
        assert_eq!(
            (n.title.as_str(), n.message.as_str()),
            ("Setup", "Question waiting: What scope?")
        );
        // A label the payload gave is its name, even one that reads as the fallback.
        let n = Notice::question_waiting(None, &question(Some("Q1"), "What scope?"));
        assert_eq!(n.message, "Question waiting: Q1");
    }

    #[test]
    fn the_message_is_one_clean_line_of_at_most_120_characters() {
        let q = question(
            None,
            &format!("Line\none\x1b]0;x\x07\u{202e} {}", "é".repeat(200)),
        );
        let n = Notice::question_waiting(Some("T\r\n\u{9b}2J"), &q);
        assert_eq!(n.title, "T 2J");
        assert_eq!(n.message.chars().count(), 120);
        assert!(
            n.message.starts_with("Question waiting: Line one]0;x éé"),
            "{}",
            n.message
        );
        assert!(n.message.ends_with("é…"));
        assert!(!n.message.chars().any(|c| c.is_control()));
    }

    #[test]
    fn terminal_bytes_follow_the_channels_in_order() {
        let n = Notice {
            event: EVENT,
            title: "a;b".into(),
            message: "Question waiting: x;y".into(),
            answer: None,
        };
        let all = [
            Channel::Osc777,
            Channel::Command,
            Channel::Bell,
            Channel::Osc9,
        ];
        assert_eq!(
            String::from_utf8(terminal_bytes(&all, &n)).unwrap(),
            "\x1b]777;notify;a:b;Question waiting: x:y\x07\x07\x1b]9;Question waiting: x;y\x07"
        );
        assert!(terminal_bytes(&[Channel::Command], &n).is_empty());
    }

    #[test]
    fn channels_are_read_from_a_list() {
        assert_eq!(
            parse_channels("osc9, Bell,osc9"),
            Ok(vec![Channel::Osc9, Channel::Bell])
        );
        assert_eq!(parse_channels("none"), Ok(vec![]));
        assert_eq!(parse_channels(""), Ok(vec![]));
        assert_eq!(
            parse_channels("osc7"),
            Err("\"osc7\" is not a notification channel: give bell, osc9, osc777, command or none, separated by commas".into())
        );
    }

    #[test]
    fn settings_default_to_the_bell_and_follow_no_bell_and_the_command() {
        assert_eq!(Settings::new(None, false, None), Ok(Settings::default()));
        let s = Settings::new(None, true, Some("notify-send hi".into())).unwrap();
        assert_eq!(s.channels, vec![Channel::Command]);
        assert!(!s.rings_bell());
        assert!(Settings::new(Some(vec![Channel::Command]), false, None).is_err());
    }

    #[test]
    fn the_command_gets_the_notice_in_its_environment() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("n.txt");
        let n = Notice::question_waiting(None, &question(Some("Scope"), "P"));
        let command = format!(
            "printf '%s|%s|%s' \"$ASK_NOTIFY_EVENT\" \"$ASK_NOTIFY_TITLE\" \"$ASK_NOTIFY_MESSAGE\" > '{}'",
            out.display()
        );
        let done = run_command(&command, &n).unwrap().join().unwrap();
        assert_eq!(done, Ok(()));
        assert_eq!(
            std::fs::read_to_string(&out).unwrap(),
            "question.waiting|pi ask|Question waiting: Scope"
        );
        let failed = run_command("exit 3", &n).unwrap().join().unwrap();
        assert_eq!(failed, Err("the notification command failed".into()));
    }

    #[test]
    fn a_hanging_command_is_killed_after_five_seconds() {
        let n = Notice::question_waiting(None, &question(Some("Scope"), "P"));
        let start = Instant::now();
        let done = run_command("sleep 30", &n).unwrap().join().unwrap();
        let took = start.elapsed();
        assert_eq!(
            done,
            Err("the notification command was killed after 5 s".into())
        );
        assert!(
            took >= COMMAND_TIMEOUT && took < Duration::from_secs(10),
            "{took:?}"
        );
    }

    /// Whether process `pid` runs (a zombie does not).
    fn alive(pid: i32) -> bool {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|s| Some(s.rsplit_once(')')?.1.trim_start().to_string()))
            .is_some_and(|rest| !rest.starts_with('Z'))
    }

    #[test]
    fn what_the_command_leaves_in_the_background_is_ended_after_five_seconds() {
        let dir = tempfile::tempdir().unwrap();
        let pid = dir.path().join("pid");
        let n = Notice::question_waiting(None, &question(Some("Scope"), "P"));
        let command = format!("sleep 300 & echo $! > '{}'", pid.display());
        let start = Instant::now();
        let done = run_command(&command, &n).unwrap().join().unwrap();
        let took = start.elapsed();
        // The shell itself exited 0 at once.
        assert_eq!(done, Ok(()));
        let sleep: i32 = std::fs::read_to_string(&pid)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        let left = alive(sleep);
        if left {
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(sleep),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
        assert!(!left, "the background sleep outlived the bound");
        assert!(
            took >= COMMAND_TIMEOUT && took < Duration::from_secs(10),
            "{took:?}"
        );
    }
}

//! The command line (clap derive). A public interface: keep flags and names stable and
//! documented in the README.

use clap::{Args, Parser, Subcommand, ValueHint};
use std::path::PathBuf;
use std::time::Duration;

pub use crate::limits::DEFAULT_MAX_PAYLOAD_BYTES;

/// Ask the clarifying questions of an ask_user payload in the terminal and print the answers as
/// ask_user result JSON on stdout.
#[derive(Debug, Parser)]
#[command(
    name = "pi-ask",
    version,
    about,
    after_help = crate::exit_codes::HELP,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    /// The payload: a JSON file, or `-` for stdin (the default when stdin is not a terminal).
    #[arg(value_name = "PAYLOAD", value_hint = ValueHint::FilePath)]
    pub payload: Option<PathBuf>,

    /// Answer from this file instead of asking (`pi-ask man`: ANSWERS FILE); no terminal is opened.
    #[arg(long, value_name = "FILE", env = "PI_ASK_ANSWERS", value_hint = ValueHint::FilePath)]
    pub answers: Option<PathBuf>,

    /// Write the result JSON to FILE instead of stdout: a file is replaced atomically (a
    /// symbolic link is followed), a character device or FIFO is written into; a folder, block
    /// device or socket is refused (exit 4).
    #[arg(short, long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub output: Option<PathBuf>,

    /// Project root for `@` file-path completion in editors [default: current directory]; a
    /// path that is not a folder is refused (exit 2).
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub cwd: Option<PathBuf>,

    /// Text the peek key (Ctrl+]) shows while answering: the agent's message that asked; a
    /// regular file of at most --max-payload-bytes, read by the terminal front end as it starts.
    #[arg(long, value_name = "FILE")]
    pub context: Option<PathBuf>,

    /// Inline: the lines the screen shows above the questions (another program's rendering,
    /// SGR colours kept, every other escape or control sequence dropped): pi-ask owns the
    /// screen from its top and draws the end of them that fits above its block again after a
    /// resize or when the block gets shorter; a regular file of at most --max-payload-bytes.
    #[arg(long, value_name = "FILE")]
    pub above: Option<PathBuf>,

    /// Do not ring the terminal bell when the first question appears (env PI_ASK_BELL=0).
    #[arg(long)]
    pub no_bell: bool,

    /// How to notify once when the questions wait: channels separated by commas, `bell` (the
    /// default), `osc9`, `osc777` (desktop notifications through the terminal, also over ssh),
    /// `command` (--notify-command), or `none` [env: PI_ASK_NOTIFY].
    #[arg(long, value_name = "CHANNELS", value_parser = crate::notify::Channels::parse)]
    pub notify: Option<crate::notify::Channels>,

    /// Run this shell command when the questions wait, with ASK_NOTIFY_EVENT, ASK_NOTIFY_TITLE
    /// and ASK_NOTIFY_MESSAGE set; killed after 5 s, its failure ignored (adds `command` to
    /// --notify) [env: PI_ASK_NOTIFY_COMMAND].
    #[arg(long, value_name = "COMMAND")]
    pub notify_command: Option<String>,

    /// Submit at once on reaching the review when every question is answered and no note was
    /// written (off by default) [env: PI_ASK_AUTO_SUBMIT=1].
    #[arg(long)]
    pub auto_submit: bool,

    /// Inline: leave no transcript when the questionnaire ends: what it drew is erased and the
    /// cursor left where it started (for a caller that draws there next, such as pi's
    /// extension) [env: PI_ASK_TRANSCRIPT=0].
    #[arg(long)]
    pub no_transcript: bool,

    /// Ask with numbered lines and line input only, no cursor movement or colour: for screen
    /// readers, logs and terminals without cursor control (chosen by itself when TERM is
    /// dumb, cons25, emacs or unset) [env: PI_ASK_PLAIN=1].
    #[arg(long)]
    pub plain: bool,

    /// Where the questions are drawn: `inline` at the cursor, leaving one transcript line per
    /// question (the default), or `full` on the alternate screen, leaving nothing
    /// [env: PI_ASK_SCREEN].
    #[arg(long, value_enum, value_name = "PLACEMENT", default_value_t = ScreenArg::Inline)]
    pub screen: ScreenArg,

    /// Milliseconds an Esc waits for the rest of an escape sequence (default 50, 100 over
    /// ssh); raise it on a slow link where arrows are taken for Esc [env: PI_ASK_ESCDELAY].
    #[arg(long, value_name = "MS")]
    pub escape_delay: Option<u64>,

    /// How long after the first frame keys are not acted on: set from `PI_ASK_KEY_GRACE` only
    /// ([`crate::frontend::grace`]); `None`: [`crate::frontend::grace::DEFAULT`].
    #[arg(skip)]
    pub key_grace: Option<Duration>,

    /// Say the answer channel's socket and the questionnaire's id on stderr, as one JSON line
    /// `{"answerSocket": PATH, "answerId": ID}`, before the questions are drawn: a caller that
    /// answers from elsewhere sends requests to `pi-ask answer` (`pi-ask man`: ANSWERING FROM
    /// ELSEWHERE).
    #[arg(long)]
    pub print_answer_socket: bool,

    /// Write the line --print-answer-socket says to FILE instead (a pipe the caller reads, such
    /// as /dev/fd/8, or a file), once, when the first question is up; one that cannot be
    /// written is said on stderr when the questions end, and they are asked all the same.
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub answer_socket_file: Option<PathBuf>,

    /// Never open a terminal: print the "Needs user input" result at once (exit 3).
    #[arg(long)]
    pub no_input: bool,

    /// Like --no-input, with WHY (in the caller's terms, e.g. "pi is running in json mode") as
    /// the reason the "Needs user input" result gives.
    #[arg(long, value_name = "WHY")]
    pub no_input_reason: Option<String>,

    /// Ask through the caller's dialogs: JSON lines on stdout (requests) and stdin (answers),
    /// no terminal; the result goes to --output (`pi-ask man`: DIALOGS).
    #[arg(long, requires = "output", conflicts_with_all = ["plain", "no_input", "no_input_reason"])]
    pub dialogs: bool,

    /// End the questionnaire when no key comes for this long: seconds (`1.5`) or a duration
    /// (`30s`, `2m`, `500ms`; 0: never, the default); the answers given so far are kept, exit 124
    /// [env: PI_ASK_TIMEOUT].
    #[arg(long, value_name = "DURATION", value_parser = parse_timeout)]
    pub timeout: Option<Duration>,

    /// The caller's lifeline: a descriptor N it passed open (a pipe's read end, a FIFO, one end
    /// of a socket pair) whose end of file means the caller is gone; the run then ends as a
    /// lost terminal (exit 1). On Linux pi-ask's parent's death tells too. Bytes read from it
    /// are ignored; N whose end could not be told (not open for reading, a FIFO open for
    /// writing too or whose write end pi-ask holds too, a datagram socket, a standard
    /// stream's or the payload's pipe) is refused (exit 2) [env:
    /// PI_ASK_LIFELINE_FD].
    #[arg(long, value_name = "N")]
    pub lifeline_fd: Option<u32>,

    /// How long a run waits for another pi-ask that holds the terminal when no --timeout is
    /// given (`PI_ASK_TERMINAL_WAIT`; default [`crate::terminal::TERMINAL_WAIT`]).
    #[arg(skip)]
    pub terminal_wait: Option<Duration>,

    /// Refuse payloads larger than this many bytes, before parsing; an answers file may be this
    /// plus 16 times the payload's size (`pi-ask man`: ANSWERS FILE). Also the bound of
    /// --context, --above and of a --dialogs response line [env: PI_ASK_MAX_PAYLOAD_BYTES].
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_PAYLOAD_BYTES)]
    pub max_payload_bytes: u64,

    /// The payload's format (`pi-ask man`: PAYLOAD FORMATS): detected by default.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t)]
    pub input_format: crate::contract::InputFormat,

    /// Write the result in this system's shape (`pi-ask man`: PAYLOAD FORMATS).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t)]
    pub result_format: crate::result::formats::ResultFormat,

    /// Refuse payloads that break their format's own limits (mickyyy68/pi-ask, Claude Code).
    #[arg(long)]
    pub strict: bool,

    /// A subcommand instead of asking: `validate`, `schema`, `answer`, `completions` or `man`.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Reads `--timeout` (and `PI_ASK_TIMEOUT`): a number of seconds, 0 or more, fractions
/// allowed (`2.5`), or a number with a unit as gum takes it: `500ms`, `30s`, `2m`, `1h`, `1m30s`;
/// `0` and an empty value mean no timeout ([`Duration::ZERO`]).
///
/// Errors: not a number of seconds or a duration, negative, above 0 but under a millisecond,
/// or too large.
pub fn parse_timeout(text: &str) -> Result<Duration, String> {
    parse_duration(text, "the timeout", "0: no timeout")
}

/// `PI_ASK_TERMINAL_WAIT`'s value, read as [`parse_timeout`] reads a timeout; its refusals
/// say what 0 means for it (docs/interactive.md, "Ending from outside"). Empty is 0:
/// the caller takes empty for the default.
///
/// Errors: as [`parse_timeout`]'s.
pub fn parse_terminal_wait(text: &str) -> Result<Duration, String> {
    parse_duration(
        text,
        "the wait",
        "0: no wait for a holder that does not ask",
    )
}

/// A duration as [`parse_timeout`] reads it; `what` names the setting in a refusal ("the
/// timeout") and `zero` says what 0 means for it ("0: no timeout").
fn parse_duration(text: &str, what: &str, zero: &str) -> Result<Duration, String> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(Duration::ZERO);
    }
    let bad = || {
        format!(
            "{} is not a number of seconds or a duration such as 30s or 2m ({zero})",
            crate::text::quoted(text)
        )
    };
    let mut seconds = 0f64;
    let mut rest = text;
    while !rest.is_empty() {
        let number_end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == '+'))
            .unwrap_or(rest.len());
        let number: f64 = rest[..number_end].parse().map_err(|_| bad())?;
        if number.is_nan() || number < 0.0 {
            return Err(format!(
                "{}: {what} is a number of seconds, 0 or more ({zero})",
                crate::text::quoted(text)
            ));
        }
        rest = &rest[number_end..];
        let unit_end = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let scale = match &rest[..unit_end] {
            "" | "s" => 1.0,
            "ms" => 0.001,
            "m" => 60.0,
            "h" => 3600.0,
            _ => return Err(bad()),
        };
        if rest[..unit_end].is_empty() && !rest.is_empty() {
            return Err(bad());
        }
        seconds += number * scale;
        rest = &rest[unit_end..];
    }
    let timeout = Duration::try_from_secs_f64(seconds)
        .map_err(|_| format!("{} is too long", crate::text::quoted(text)))?;
    // A time above 0 that rounds to nothing would mean "no timeout", its opposite.
    if seconds > 0.0 && timeout < Duration::from_millis(1) {
        return Err(format!(
            "{} is shorter than a millisecond: {what} is 1ms or more ({zero})",
            crate::text::quoted(text)
        ));
    }
    Ok(timeout)
}

/// Subcommands (docs/answers.md, README). Their arguments are built only when one is named
/// (`defer`), so the main command does not build them at its start; a subcommand's `about`
/// is then set on the variant and again by its arguments' struct, from one constant.
#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum Command {
    /// `pi-ask validate`: [`VALIDATE_ABOUT`].
    #[command(about = VALIDATE_ABOUT)]
    Validate(ValidateArgs),
    /// `pi-ask schema`: [`SCHEMA_ABOUT`].
    #[command(about = SCHEMA_ABOUT)]
    Schema(SchemaArgs),
    /// `pi-ask completions`: [`COMPLETIONS_ABOUT`].
    #[command(about = COMPLETIONS_ABOUT)]
    Completions(CompletionsArgs),
    /// `pi-ask answer`: [`ANSWER_ABOUT`].
    #[command(about = ANSWER_ABOUT)]
    Answer(AnswerArgs),
    /// Print the manual page (roff), with the exit codes, environment variables and files.
    Man,
}

/// What `pi-ask answer` does, as its help says.
pub const ANSWER_ABOUT: &str = "Answer the questions another pi-ask is asking, from elsewhere: send an answer request (an answers file with the questionnaire's id) to its answer channel; exit 0 taken, 1 not taken (answered already, no longer asked), 2 problems (on stderr). With --questions, print the questions waiting instead";

/// `pi-ask answer SOCKET FILE|-`, or `pi-ask answer --questions SOCKET`.
#[derive(Debug, Args)]
#[command(about = ANSWER_ABOUT)]
pub struct AnswerArgs {
    /// Ask the channel for the questions waiting, and print its reply (`{"status":
    /// "questions", "id", "title", "questions"}`, the normalized questions) instead of
    /// answering them.
    #[arg(long, conflicts_with = "file")]
    pub questions: bool,

    /// The answer channel's socket (`ASK_ANSWER_SOCKET`, or `--print-answer-socket`).
    #[arg(value_name = "SOCKET", value_hint = ValueHint::FilePath)]
    pub socket: PathBuf,

    /// The answer request: a JSON file, or `-` for stdin (`pi-ask schema answer-request`).
    #[arg(value_name = "FILE", value_hint = ValueHint::FilePath, required_unless_present = "questions")]
    pub file: Option<PathBuf>,
}

/// What `pi-ask validate` does, as its help says.
pub const VALIDATE_ABOUT: &str = "Check a payload (and optionally an answers file): print the \
normalized questions, or every problem with the same codes and paths as the main command (exit \
0 / 2)";

/// `pi-ask validate PAYLOAD [--answers FILE] [--json] [--input-format FORMAT] [--strict]`.
#[derive(Debug, Args)]
#[command(about = VALIDATE_ABOUT)]
pub struct ValidateArgs {
    /// The payload: a JSON file, or `-` for stdin.
    #[arg(value_name = "PAYLOAD", value_hint = ValueHint::FilePath)]
    pub payload: PathBuf,

    /// Also check this answers file against the payload.
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub answers: Option<PathBuf>,

    /// Print a JSON report `{valid, format?, payload?, warnings?, error?}` instead of text.
    #[arg(long)]
    pub json: bool,

    /// The payload's format (`pi-ask man`: PAYLOAD FORMATS): detected by default.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t)]
    pub input_format: crate::contract::InputFormat,

    /// Refuse payloads that break their format's own limits instead of warning.
    #[arg(long)]
    pub strict: bool,

    /// Refuse payloads larger than this many bytes, before parsing; an answers file may be this
    /// plus 16 times the payload's size (`pi-ask man`: ANSWERS FILE).
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_PAYLOAD_BYTES, env = "PI_ASK_MAX_PAYLOAD_BYTES")]
    pub max_payload_bytes: u64,
}

/// What `pi-ask schema` does, as its help says.
pub const SCHEMA_ABOUT: &str =
    "Print the JSON Schema of the payload (input), the result (output) or the answers file";

/// `pi-ask schema input|output|answers [--format FORMAT]`.
#[derive(Debug, Args)]
#[command(about = SCHEMA_ABOUT)]
pub struct SchemaArgs {
    /// Which schema to print.
    #[arg(value_enum, value_name = "WHICH")]
    pub which: crate::schema::Which,

    /// The format of the payload or result (`pi-ask man`: PAYLOAD FORMATS); `answers` has one schema.
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "contract")]
    pub format: crate::contract::Dialect,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeouts_are_seconds_with_fractions_and_zero_is_none() {
        assert_eq!(parse_timeout("30"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_timeout(" 2.5 "), Ok(Duration::from_millis(2500)));
        assert_eq!(parse_timeout("0"), Ok(Duration::ZERO));
        assert_eq!(parse_timeout(""), Ok(Duration::ZERO));
        for bad in [
            "-1", "NaN", "inf", "ten", "1e30", "30x", "s", "m5", "1.5.5s",
        ] {
            assert!(parse_timeout(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn timeouts_take_units_as_gum_does() {
        assert_eq!(parse_timeout("30s"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_timeout("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_timeout("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_timeout("1m30s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_timeout("1h"), Ok(Duration::from_secs(3600)));
        assert_eq!(parse_timeout("1.5"), Ok(Duration::from_millis(1500)));
    }

    #[test]
    fn a_timeout_above_zero_that_rounds_to_nothing_is_refused() {
        // It would mean "no timeout", the opposite of what was asked.
        assert_eq!(
            parse_timeout("0.0000000001"),
            Err(
                "\"0.0000000001\" is shorter than a millisecond: the timeout is 1ms or more \
                 (0: no timeout)"
                    .to_string()
            )
        );
        assert!(parse_timeout("0.5ms").is_err());
        assert_eq!(parse_timeout("1ms"), Ok(Duration::from_millis(1)));
        assert_eq!(parse_timeout("0.001"), Ok(Duration::from_millis(1)));
    }
}

/// What `pi-ask completions` does, as its help says.
pub const COMPLETIONS_ABOUT: &str = "Print the completion script for a shell, e.g. `pi-ask \
completions bash > ~/.local/share/bash-completion/completions/pi-ask`";

/// `pi-ask completions bash|zsh|fish|elvish|powershell`.
#[derive(Debug, Args)]
#[command(about = COMPLETIONS_ABOUT)]
pub struct CompletionsArgs {
    /// The shell to print the completion script for.
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: clap_complete::Shell,
}

/// The values of `--screen` (docs/interactive.md "Placement").
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ScreenArg {
    /// At the cursor on the normal screen; each answered question leaves one line.
    Inline,
    /// On the alternate screen, as a full-screen program; nothing is left when it ends.
    Full,
}

//! The subcommands: `pi-ask validate`, `pi-ask schema` (README, docs/answers.md),
//! `pi-ask completions` and `pi-ask man` (README "Install").

use crate::cli::{AnswerArgs, Cli, CompletionsArgs, SchemaArgs, ValidateArgs};
use crate::contract::{
    answers_size_limit, parse_answers, parse_payload_as, read_answers, read_payload, Dialect,
    ErrorCode, ErrorInfo, Payload, PayloadError, Problem,
};
use crate::exit_codes::ExitCode;
use clap::CommandFactory;
use serde::Serialize;
use std::fmt::Write as _;
use std::io::{self, Write};

/// The machine-readable report of `pi-ask validate --json`.
#[derive(Debug, Serialize)]
pub struct ValidateReport {
    /// Whether the payload (and the answers file, when given) can be used.
    pub valid: bool,
    /// The payload's format when it is not the contract's own (detected, or as given with
    /// `--input-format`; docs/dialects.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<Dialect>,
    /// The normalized contract payload (labels, types and `required` filled in), when it is
    /// valid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payload: Option<Payload>,
    /// The format's own limits the payload breaks (mickyyy68/pi-ask, Claude Code): pi-ask asks
    /// anyway; `--strict` refuses them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<Problem>,
    /// When not valid: `{code: "invalid_payload" | "invalid_answers", message, problems}`, the
    /// same as `details.error` of the main command.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorInfo>,
}

/// Checks the payload and, when given, the answers file against it.
pub fn validate_report(args: &ValidateArgs) -> ValidateReport {
    let mut payload_bytes = 0;
    let (payload, format, warnings) = match read_payload(&args.payload, args.max_payload_bytes) {
        Ok(text) => {
            payload_bytes = text.len() as u64;
            let reading = parse_payload_as(&text, args.input_format, args.strict);
            (reading.payload, reading.format, reading.warnings)
        }
        Err(p) => (
            Err(PayloadError {
                title: None,
                problems: vec![p],
            }),
            Dialect::Contract,
            Vec::new(),
        ),
    };
    let format = (format != Dialect::Contract).then_some(format);
    let payload = match payload {
        Ok(p) => p,
        Err(err) => {
            return ValidateReport {
                valid: false,
                format,
                payload: None,
                warnings,
                error: Some(ErrorInfo::for_input(
                    ErrorCode::InvalidPayload,
                    err.problems,
                )),
            }
        }
    };
    let error = args.answers.as_ref().and_then(|path| {
        read_answers(
            path,
            answers_size_limit(payload_bytes, args.max_payload_bytes),
        )
        .map_err(|p| vec![p])
        .and_then(|text| parse_answers(&text, &payload))
        .err()
        .map(|problems| ErrorInfo::for_input(ErrorCode::InvalidAnswers, problems))
    });
    ValidateReport {
        valid: error.is_none(),
        format,
        payload: Some(payload),
        warnings,
        error,
    }
}

/// "Read as the mickyyy68 format (mickyyy68/pi-ask)": the first line of a text report on a
/// payload in another format.
fn format_line(format: Option<Dialect>) -> String {
    format.map_or_else(String::new, |f| {
        format!(
            "Read as the {} format ({}), normalized to the contract's questions.\n",
            f.as_str(),
            f.title()
        )
    })
}

/// The warning lines of a text report: the format's own limits the payload breaks, and keys
/// it repeats.
fn warning_lines(report: &ValidateReport) -> String {
    if report.warnings.is_empty() {
        return String::new();
    }
    let limits = report
        .warnings
        .iter()
        .any(|w| w.code != crate::contract::ProblemCode::DuplicateKey);
    let what = match (limits, report.format) {
        (true, Some(format)) => format!("limits of {}", format.title()),
        (true, None) => "limits of its format".to_string(),
        (false, _) => "keys given twice".to_string(),
    };
    let lines = ErrorInfo::for_input(ErrorCode::InvalidPayload, report.warnings.clone())
        .problem_lines("  ");
    format!("Warnings: {what} (pi-ask asks anyway; --strict refuses):{lines}\n")
}

/// The text report: the normalized questions, or every problem.
pub fn validate_text(report: &ValidateReport, args: &ValidateArgs) -> String {
    let mut out = format_line(report.format);
    if let Some(err) = &report.error {
        out.push_str(&err.describe("  "));
        out.push('\n');
        out.push_str(&warning_lines(report));
        return out;
    }
    let Some(payload) = &report.payload else {
        return out;
    };
    let n = payload.questions.len();
    let title = payload
        .title
        .as_deref()
        .map(|t| format!(" {}", crate::text::quoted(t)))
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "Valid payload{title}: {n} question{}.",
        if n == 1 { "" } else { "s" }
    );
    out.push_str(&crate::result::listing(payload));
    out.push_str(&warning_lines(report));
    if let Some(path) = &args.answers {
        let _ = writeln!(out, "Answers file {}: valid.", path.display());
    }
    out
}

fn print(text: &str) -> Result<(), ExitCode> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|_| out.flush())
        .map_err(|e| {
            crate::run::say_stdout_failed(&e);
            ExitCode::OutputFailed
        })
}

/// `pi-ask validate`: prints the report (text, or JSON with `--json`) on stdout; exit 0 when
/// valid, 2 when not, 4 when stdout is closed.
pub fn validate(args: &ValidateArgs) -> ExitCode {
    let report = validate_report(args);
    let text = if args.json {
        crate::output::json_for_stdout(&report)
    } else {
        // Payload text may carry escape sequences: shown escaped, never run (src/text/sanitize.rs);
        // each line bounded (`--json` has the texts whole).
        let text = validate_text(&report, args);
        let mut out = String::with_capacity(text.len().min(1 << 20));
        for line in crate::text::for_terminal(&text).lines() {
            out.push_str(&crate::text::fit(
                line,
                crate::limits::MAX_REPORT_LINE_COLUMNS,
            ));
            out.push('\n');
        }
        out
    };
    match print(&text) {
        Err(code) => code,
        Ok(()) if report.valid => ExitCode::Submitted,
        Ok(()) => ExitCode::Invalid,
    }
}

/// `pi-ask schema`: prints the JSON Schema on stdout (of `--format`'s payload or result);
/// exit 0, 2 for a format without that schema, or 4 when stdout is closed.
pub fn schema(args: &SchemaArgs) -> ExitCode {
    let schema = match crate::schema::schema_for(args.which, args.format) {
        Ok(schema) => schema,
        Err(why) => {
            crate::terminal::say(&format!("pi-ask: {why}"));
            return ExitCode::Invalid;
        }
    };
    match print(&crate::output::json_for_stdout(&schema)) {
        Ok(()) => ExitCode::Submitted,
        Err(code) => code,
    }
}

/// `pi-ask completions SHELL`: prints the shell's completion script, generated from the clap
/// definitions; exit 0, or 4 when stdout is closed.
pub fn completions(args: &CompletionsArgs) -> ExitCode {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "pi-ask", &mut script);
    let mut script = String::from_utf8_lossy(&script).into_owned();
    if args.shell == clap_complete::Shell::Bash {
        // clap_complete's bash script spells the state of a subcommand of a hyphenated program
        // two ways (`pi__ask__subcmd__validate` when it reads the words,
        // `pi__subcmd__ask__subcmd__validate` in the case arms), so nothing after a subcommand
        // completed (clap-rs/clap#6421). One spelling fixes it; a no-op once clap_complete does.
        script = script.replace("pi__subcmd__ask__", "pi__ask__");
    }
    match print(&script) {
        Ok(()) => ExitCode::Submitted,
        Err(code) => code,
    }
}

/// `pi-ask man`: prints the manual page as roff (`pi-ask man | man -l -`); exit 0, or 4 when
/// stdout is closed.
pub fn man() -> ExitCode {
    match print(&crate::man::render()) {
        Ok(()) => ExitCode::Submitted,
        Err(code) => code,
    }
}

/// The largest answer request `pi-ask answer` reads: the answers file's own bound for the
/// largest payload by default (`answers_size_limit`), plus room for `id`, `action` and `from`.
fn answer_request_limit() -> u64 {
    let max = crate::limits::DEFAULT_MAX_PAYLOAD_BYTES;
    answers_size_limit(max, max) + 4096
}

/// `pi-ask answer SOCKET FILE|-` (docs/elsewhere.md): sends the answer request to the answer
/// channel at SOCKET and prints its reply (`{status, message?, problems?}`) on stdout. Exit 0
/// when taken; 2 when it has problems or is for another questionnaire (the problems on
/// stderr, in the main command's words), the channel would not read it (larger than its
/// limit; its reply is read even when it closed before the whole request was written), or
/// the file cannot be read; 1 when not taken
/// otherwise (answered already, nothing asks on SOCKET any more, the questions were busy); 4
/// when stdout is closed. With `--questions`, sends the questions request
/// (`{"action": "questions"}`) instead and prints the reply with the questions (exit 0).
pub fn answer(args: &AnswerArgs) -> ExitCode {
    use crate::channel::Status;
    let stdin = std::path::PathBuf::from("-");
    let file = args.file.as_ref().unwrap_or(&stdin);
    let text = if args.questions {
        serde_json::json!({"action": crate::contract::QUESTIONS_ACTION}).to_string()
    } else {
        match read_answers(file, answer_request_limit()) {
            Ok(text) => text,
            Err(problem) => {
                let text =
                    crate::run::for_people(&[problem], crate::contract::Input::Answers, file);
                crate::terminal::say(crate::text::for_terminal(&text).trim_end_matches('\n'));
                return ExitCode::Invalid;
            }
        }
    };
    let socket = crate::text::for_terminal(&args.socket.display().to_string()).into_owned();
    let reply = match crate::channel::send(&args.socket, text.as_bytes()) {
        Ok(reply) => reply,
        Err(e) => {
            let why = crate::contract::without_os_error(&e.to_string()).to_string();
            let why = crate::text::for_terminal(&why);
            crate::terminal::say(&match e.kind() {
                std::io::ErrorKind::PermissionDenied => {
                    format!("pi-ask: the answers were not sent to {socket}: {why}")
                }
                std::io::ErrorKind::TimedOut => {
                    format!("pi-ask: the answers were not taken: {why} on {socket} (try again)")
                }
                _ => format!(
                    "pi-ask: no questions take answers on {socket}: {why} (answered already, or \
                     no longer asked)"
                ),
            });
            return ExitCode::Cancelled;
        }
    };
    let code = match reply.status {
        Status::Ok | Status::Questions => ExitCode::Submitted,
        // The channel could not read the request (too large, too slow): its words, as they
        // are not about the answers file.
        Status::Invalid if channel_refused(&reply.problems) => {
            let why = reply.problems.first().map_or("", |p| p.message.as_str());
            crate::terminal::say(&format!(
                "pi-ask: the answers were not taken: {}",
                crate::text::for_terminal(why)
            ));
            ExitCode::Invalid
        }
        Status::Invalid => {
            let text =
                crate::run::for_people(&reply.problems, crate::contract::Input::Answers, file);
            crate::terminal::say(crate::text::for_terminal(&text).trim_end_matches('\n'));
            ExitCode::Invalid
        }
        Status::Stale => {
            let why = reply
                .message
                .as_deref()
                .unwrap_or("another questionnaire's id");
            crate::terminal::say(&format!(
                "pi-ask: the answers were not taken: {}",
                crate::text::for_terminal(why)
            ));
            ExitCode::Invalid
        }
        Status::AlreadyAnswered | Status::Busy => {
            let why = reply.message.as_deref().unwrap_or("not taken");
            crate::terminal::say(&format!(
                "pi-ask: the answers were not taken: {}",
                crate::text::for_terminal(why)
            ));
            ExitCode::Cancelled
        }
    };
    match print(&crate::output::json_for_stdout(&reply)) {
        Ok(()) => code,
        Err(e) => e,
    }
}

/// Whether an `invalid` reply's `problems` are the channel's refusal to read the request (one
/// problem, on no field: larger than the channel's limit, or not sent in time), not about
/// the answers.
fn channel_refused(problems: &[crate::contract::Problem]) -> bool {
    use crate::contract::ProblemCode;
    matches!(problems, [p] if p.path.is_empty()
        && matches!(p.code, ProblemCode::AnswersTooLarge | ProblemCode::UnreadableAnswers))
}

/// The subcommands a first argument may name, for [`mistyped`].
const SUBCOMMANDS: [&str; 6] = ["validate", "schema", "answer", "completions", "man", "help"];

/// What to say when the first argument looks like a mistyped subcommand rather than a payload
/// file: it names no file, and it is `version` (`--version` is meant) or close to a
/// subcommand's name (`contract::closest`, the typo rule of the payload's unknown
/// fields). `None` otherwise: it is the payload (read and reported as usual).
pub fn mistyped(first: Option<std::ffi::OsString>) -> Option<String> {
    let first = first?.into_string().ok()?;
    if first.starts_with('-') || std::path::Path::new(&first).exists() {
        return None;
    }
    if SUBCOMMANDS.contains(&first.as_str()) {
        return None;
    }
    let shown = crate::text::one_line(&first).into_owned();
    if first == "version" {
        return Some(format!(
            "pi-ask: there is no file named {shown}: for the version, run `pi-ask --version`"
        ));
    }
    let best = crate::contract::closest(&first, SUBCOMMANDS.iter().copied())?;
    Some(format!(
        "pi-ask: there is no file named {shown} and no such subcommand: did you mean `pi-ask {best}`?"
    ))
}

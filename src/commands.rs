//! The subcommands: `pi-ask validate`, `pi-ask schema` (README, docs/answers.md),
//! `pi-ask completions` and `pi-ask man` (README "Install").

use crate::cli::{Cli, CompletionsArgs, SchemaArgs, ValidateArgs};
use crate::contract::{
    parse_answers, parse_payload, read_answers, read_payload, ErrorCode, ErrorInfo, Payload,
    PayloadError,
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
    /// The normalized payload (labels, types and `required` filled in), when it is valid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payload: Option<Payload>,
    /// When not valid: `{code: "invalid_payload" | "invalid_answers", message, problems}`, the
    /// same as `details.error` of the main command.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorInfo>,
}

/// Checks the payload and, when given, the answers file against it.
pub fn validate_report(args: &ValidateArgs) -> ValidateReport {
    let payload = read_payload(&args.payload, args.max_payload_bytes)
        .map_err(|p| PayloadError {
            title: None,
            problems: vec![p],
        })
        .and_then(|text| parse_payload(&text));
    let payload = match payload {
        Ok(p) => p,
        Err(err) => {
            return ValidateReport {
                valid: false,
                payload: None,
                error: Some(ErrorInfo::for_input(
                    ErrorCode::InvalidPayload,
                    err.problems,
                )),
            }
        }
    };
    let error = args.answers.as_ref().and_then(|path| {
        read_answers(path, args.max_payload_bytes)
            .map_err(|p| vec![p])
            .and_then(|text| parse_answers(&text, &payload))
            .err()
            .map(|problems| ErrorInfo::for_input(ErrorCode::InvalidAnswers, problems))
    });
    ValidateReport {
        valid: error.is_none(),
        payload: Some(payload),
        error,
    }
}

/// The text report: the normalized questions, or every problem.
pub fn validate_text(report: &ValidateReport, args: &ValidateArgs) -> String {
    let mut out = String::new();
    if let Some(err) = &report.error {
        out.push_str(&err.describe("  "));
        out.push('\n');
        return out;
    }
    let Some(payload) = &report.payload else {
        return out;
    };
    let n = payload.questions.len();
    let title = payload
        .title
        .as_deref()
        .map(|t| format!(" {}", serde_json::to_string(t).unwrap_or_default()))
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "Valid payload{title}: {n} question{}.",
        if n == 1 { "" } else { "s" }
    );
    out.push_str(&crate::result::listing(payload));
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
            eprintln!("pi-ask: cannot write to stdout: {e}");
            ExitCode::OutputFailed
        })
}

/// `pi-ask validate`: prints the report (text, or JSON with `--json`) on stdout; exit 0 when
/// valid, 2 when not, 4 when stdout is closed.
pub fn validate(args: &ValidateArgs) -> ExitCode {
    let report = validate_report(args);
    let text = if args.json {
        let mut s = serde_json::to_string_pretty(&report).expect("reports always serialize");
        s.push('\n');
        s
    } else {
        // Payload text may carry escape sequences: shown escaped, never run (src/sanitize.rs).
        crate::sanitize::for_terminal(&validate_text(&report, args)).into_owned()
    };
    match print(&text) {
        Err(code) => code,
        Ok(()) if report.valid => ExitCode::Submitted,
        Ok(()) => ExitCode::Invalid,
    }
}

/// `pi-ask schema`: prints the JSON Schema on stdout; exit 0, or 4 when stdout is closed.
pub fn schema(args: &SchemaArgs) -> ExitCode {
    let schema = crate::schema::schema(args.which);
    let mut s = serde_json::to_string_pretty(&schema).expect("schemas always serialize");
    s.push('\n');
    match print(&s) {
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

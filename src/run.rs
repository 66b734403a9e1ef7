//! One run of the main command: read and validate the payload, pick a front end, build the
//! result, write it, and map the outcome to an exit code.

use crate::answers::AnswerState;
use crate::cli::Cli;
use crate::contract::{parse_payload, read_payload, Payload, PayloadError};
use crate::exit_codes::ExitCode;
use crate::frontend::{self, AskOptions, Outcome};
use crate::output::write_result;
use crate::result;
use std::io::{self, IsTerminal};

/// Whether a controlling terminal can be opened for reading and writing.
pub fn terminal_available() -> bool {
    std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/tty")
        .is_ok()
}

/// Runs the main command and returns the exit code; the result JSON has been written (or the
/// failure to write it reported on stderr) when it returns.
pub fn run(cli: &Cli) -> ExitCode {
    let payload_path = match &cli.payload {
        Some(p) => p.clone(),
        None if !io::stdin().is_terminal() => "-".into(),
        None => {
            eprintln!("pi-ask: no payload given: pass a payload file, or `-` to read it from stdin (see --help)");
            return ExitCode::Invalid;
        }
    };
    let payload = match read_payload(&payload_path, cli.max_payload_bytes)
        .map_err(|p| PayloadError {
            title: None,
            problems: vec![p],
        })
        .and_then(|text| parse_payload(&text))
    {
        Ok(p) => p,
        Err(err) => {
            eprint!(
                "pi-ask: {}",
                crate::sanitize::for_terminal(&err.to_string())
            );
            return finish(&result::invalid_payload(err), cli, ExitCode::Invalid);
        }
    };
    let (res, code) = ask(&payload, cli);
    let code = finish(&res, cli, code);
    // The process exits right after this: skip freeing a payload and result that can be
    // megabytes of small allocations (a fifth of a 1,000-question run; docs/benchmarks.md).
    std::mem::forget((payload, res));
    code
}

/// Picks the front end and asks; returns the result and its exit code.
fn ask(payload: &Payload, cli: &Cli) -> (crate::contract::ToolResult, ExitCode) {
    let mut state = AnswerState::new(payload);
    if let Some(answers) = &cli.answers {
        return frontend::scripted::answer_from_file(
            payload,
            &mut state,
            answers,
            cli.max_payload_bytes,
        );
    }
    if cli.no_input {
        return (
            result::needs_user_input(payload, "pi-ask was run with --no-input"),
            ExitCode::NoUi,
        );
    }
    if !terminal_available() {
        return (
            result::needs_user_input(payload, "no interactive terminal is available"),
            ExitCode::NoUi,
        );
    }
    let opts = AskOptions {
        cwd: cli
            .cwd
            .clone()
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_else(|| ".".into()),
    };
    let term = std::env::var("TERM").ok();
    let plain = frontend::wants_plain(cli.plain, term.as_deref());
    // Plain mode: restoring the terminal on a signal must not write escape sequences.
    crate::terminal::set_plain(plain);
    // SIGTERM/SIGHUP/SIGQUIT (and SIGINT the front end does not handle) end the flow with a
    // cancelled result; see src/terminal.rs.
    let _signals = watch_signals(payload, cli);
    let outcome = if plain {
        frontend::plain::ask(payload, &mut state, &opts)
    } else {
        frontend::tty::ask(payload, &mut state, &opts)
    };
    outcome_result(payload, &state, outcome)
}

/// The result and exit code for a front end's outcome.
pub fn outcome_result(
    payload: &Payload,
    state: &AnswerState,
    outcome: Outcome,
) -> (crate::contract::ToolResult, ExitCode) {
    match outcome {
        Outcome::Submitted => (result::submitted(payload, state), ExitCode::Submitted),
        Outcome::Dismissed => (result::dismissed(payload), ExitCode::Cancelled),
        Outcome::Aborted {
            code: crate::contract::ErrorCode::Internal,
            message,
        } => (
            result::internal(Some(payload), &message),
            ExitCode::Internal,
        ),
        Outcome::Aborted { code, message } => (
            result::aborted(payload, code, &message),
            ExitCode::Cancelled,
        ),
    }
}

/// Starts the signal watch for an interactive front end: on a signal it writes the
/// `aborted` (SIGTERM, SIGHUP, SIGQUIT) or dismissed (SIGINT) result and exits 1. `None` when
/// the handlers cannot be installed (the flow still runs, without signal handling).
fn watch_signals(payload: &Payload, cli: &Cli) -> Option<crate::terminal::SignalWatch> {
    // Cancelled results use only the title and question summaries: keep the closure small
    // (no options), so start-up stays fast with huge option lists.
    let skeleton = Payload {
        title: payload.title.clone(),
        questions: payload
            .questions
            .iter()
            .map(|q| crate::contract::Question {
                id: q.id.clone(),
                label: q.label.clone(),
                prompt: q.prompt.clone(),
                kind: q.kind,
                required: q.required,
                options: Vec::new(),
            })
            .collect(),
    };
    let output = cli.output.clone();
    crate::terminal::SignalWatch::start(move |signal| {
        let outcome = if signal == libc::SIGINT {
            Outcome::Dismissed
        } else {
            Outcome::Aborted {
                code: crate::contract::ErrorCode::Aborted,
                message: format!("received {}", crate::terminal::signal_name(signal)),
            }
        };
        let state = AnswerState::new(&skeleton);
        let (res, code) = outcome_result(&skeleton, &state, outcome);
        match write_result(&res, output.as_deref()) {
            Ok(()) => code.code(),
            Err(msg) => {
                eprintln!("pi-ask: {msg}");
                ExitCode::OutputFailed.code()
            }
        }
    })
    .ok()
}

fn finish(res: &crate::contract::ToolResult, cli: &Cli, code: ExitCode) -> ExitCode {
    // Exactly one writer: a signal may already be writing its own result (src/terminal.rs).
    crate::terminal::claim_result();
    match write_result(res, cli.output.as_deref()) {
        Ok(()) => code,
        Err(msg) => {
            eprintln!("pi-ask: {msg}");
            ExitCode::OutputFailed
        }
    }
}

//! `pi-ask`: parse the command line, run, exit with the documented code (docs/exit-codes.md).

#![forbid(unsafe_code)]

use clap::parser::ValueSource;
use clap::{CommandFactory, FromArgMatches};
use pi_ask::cli::{Cli, Command};
use pi_ask::exit_codes::ExitCode;

fn main() {
    // The parent pi-ask started under: a lifeline's end is told from it (src/lifeline.rs).
    pi_ask::lifeline::note_the_parent();
    // What the terminal can show, decided once: ASCII only when the locale is not UTF-8.
    let env = |name: &str| std::env::var(name).ok();
    pi_ask::text::set_terminal_charset(pi_ask::text::Charset::from_env(env));
    // An empty PI_ASK_ANSWERS means "not set", as callers expect of an environment switch.
    if std::env::var_os("PI_ASK_ANSWERS").is_some_and(|v| v.is_empty()) {
        std::env::remove_var("PI_ASK_ANSWERS");
    }
    if let Some(message) = pi_ask::commands::mistyped(std::env::args_os().nth(1)) {
        pi_ask::run::say(&message);
        std::process::exit(ExitCode::Invalid.code());
    }
    let mut matches = Cli::command()
        .try_get_matches()
        .unwrap_or_else(|e| std::process::exit(clap_exit(&e)));
    // What the command line gave itself, before the values are taken out of the matches.
    let on_the_command_line: Vec<clap::Id> = matches
        .ids()
        .filter(|id| matches.value_source(id.as_str()) == Some(ValueSource::CommandLine))
        .cloned()
        .collect();
    let mut cli = Cli::from_arg_matches_mut(&mut matches).unwrap_or_else(|e| e.exit());
    if cli.command.is_none() {
        let given = |id: &str| on_the_command_line.iter().any(|given| given == id);
        let env = |name: &str| std::env::var_os(name);
        if let Err(why) = pi_ask::run::settings_from_environment(&mut cli, given, env) {
            pi_ask::run::say(&format!("pi-ask: {why}"));
            std::process::exit(ExitCode::Invalid.code());
        }
        // A descriptor number means something to this process only: no child inherits it (no
        // thread runs yet).
        std::env::remove_var("PI_ASK_LIFELINE_FD");
    }
    let output = cli.output.clone();
    let format = cli.result_format;
    let code = match std::panic::catch_unwind(|| match &cli.command {
        Some(Command::Validate(args)) => pi_ask::commands::validate(args),
        Some(Command::Schema(args)) => pi_ask::commands::schema(args),
        Some(Command::Completions(args)) => pi_ask::commands::completions(args),
        Some(Command::Answer(args)) => pi_ask::commands::answer(args),
        Some(Command::Man) => pi_ask::commands::man(),
        None => pi_ask::run::run(&cli),
    }) {
        Ok(code) => code,
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            let ending = pi_ask::result::Ending::Internal(format!("panic: {what}"));
            let (res, code) = pi_ask::result::conclude(&ending, None);
            match pi_ask::run::write_formatted(&res, format, None, output.as_deref()) {
                Ok(()) => code,
                Err(msg) => {
                    pi_ask::run::say(&format!("pi-ask: {msg}"));
                    ExitCode::OutputFailed
                }
            }
        }
    };
    // Nothing the run started or was writing outlives it.
    pi_ask::run::clean_up();
    std::process::exit(code.code());
}

/// What clap's own ending of the run exits with: `--help` and `--version` print on stdout and
/// exit 0, or 4 when stdout cannot take them (a full disk: docs/exit-codes.md), with the reason
/// on stderr; a reader that stopped reading (`pi-ask --help | head -1`) is no failure: 0,
/// nothing said. A usage error is clap's message on stderr and its exit 2.
fn clap_exit(e: &clap::Error) -> i32 {
    use clap::error::ErrorKind;
    use std::io::Write;
    if !matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        e.exit();
    }
    match e.print().and_then(|()| std::io::stdout().flush()) {
        Ok(()) => 0,
        Err(why) if why.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(why) => {
            pi_ask::run::say_stdout_failed(&why);
            ExitCode::OutputFailed.code()
        }
    }
}

//! The command line (clap derive). A public interface: keep flags and names stable and
//! documented in the README.

use clap::{Args, Parser, Subcommand, ValueHint};
use std::path::PathBuf;

/// Default `--max-payload-bytes`: 4 MiB.
pub const DEFAULT_MAX_PAYLOAD_BYTES: u64 = 4 * 1024 * 1024;

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

    /// Answer from this file instead of asking (see docs/answers.md); no terminal is opened.
    #[arg(long, value_name = "FILE", env = "PI_ASK_ANSWERS", value_hint = ValueHint::FilePath)]
    pub answers: Option<PathBuf>,

    /// Write the result JSON to FILE (atomically) instead of stdout.
    #[arg(short, long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub output: Option<PathBuf>,

    /// Project root for `@` file-path completion in editors [default: current directory].
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub cwd: Option<PathBuf>,

    /// Ask with numbered lines and line input only, no cursor movement or colour.
    #[arg(long)]
    pub plain: bool,

    /// Never open a terminal: print the "Needs user input" result at once (exit 3).
    #[arg(long)]
    pub no_input: bool,

    /// Refuse payloads (and answers files) larger than this many bytes, before parsing.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_PAYLOAD_BYTES, env = "PI_ASK_MAX_PAYLOAD_BYTES")]
    pub max_payload_bytes: u64,

    /// A subcommand instead of asking: `validate`, `schema`, `completions` or `man`.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Subcommands (docs/answers.md, README).
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check a payload (and optionally an answers file): print the normalized questions, or
    /// every problem with the same codes and paths as the main command (exit 0 / 2).
    Validate(ValidateArgs),
    /// Print the JSON Schema of the payload (input), the result (output) or the answers file.
    Schema(SchemaArgs),
    /// Print the completion script for a shell (README "Install" says where it goes).
    Completions(CompletionsArgs),
    /// Print the manual page (roff), with the exit codes, environment variables and files.
    Man,
}

/// `pi-ask validate PAYLOAD [--answers FILE] [--json]`.
#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// The payload: a JSON file, or `-` for stdin.
    #[arg(value_name = "PAYLOAD", value_hint = ValueHint::FilePath)]
    pub payload: PathBuf,

    /// Also check this answers file against the payload.
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub answers: Option<PathBuf>,

    /// Print a JSON report `{valid, payload?, error?}` instead of text.
    #[arg(long)]
    pub json: bool,

    /// Refuse payloads (and answers files) larger than this many bytes, before parsing.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_PAYLOAD_BYTES, env = "PI_ASK_MAX_PAYLOAD_BYTES")]
    pub max_payload_bytes: u64,
}

/// `pi-ask schema input|output|answers`.
#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// Which schema to print.
    #[arg(value_enum, value_name = "WHICH")]
    pub which: crate::schema::Which,
}

/// `pi-ask completions bash|zsh|fish|elvish|powershell`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to print the completion script for.
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: clap_complete::Shell,
}

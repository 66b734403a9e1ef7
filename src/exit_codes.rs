//! Process exit codes: a public interface that callers script against (README, docs/exit-codes.md,
//! `pi-ask --help`).

/// How a run ended, as a process exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitCode {
    /// 0: the person submitted (or the answers file answered) the questionnaire.
    Submitted = 0,
    /// 1: cancelled: Esc, Ctrl+C, SIGINT/SIGTERM/SIGHUP/SIGQUIT, a scripted `cancelled`, or the
    /// terminal went away.
    Cancelled = 1,
    /// 2: invalid payload, invalid answers file, or bad command-line usage.
    Invalid = 2,
    /// 3: no terminal and no answers file: the "Needs user input" result was printed.
    NoUi = 3,
    /// 4: the result could not be written (`--output` not writable, stdout a closed pipe).
    OutputFailed = 4,
    /// 5: internal error (a bug); a cancelled result with `error.code` `internal` was printed.
    Internal = 5,
}

impl ExitCode {
    /// The numeric code.
    pub fn code(self) -> i32 {
        self as i32
    }
}

/// The exit-code table shown at the end of `pi-ask --help`.
pub const HELP: &str = "\
Exit codes:
  0  submitted
  1  cancelled (Esc, Ctrl+C, a signal, a scripted cancel, the terminal went away)
  2  invalid payload, invalid answers file, or usage error
  3  no terminal and no answers: a \"Needs user input\" result was printed
  4  the result could not be written (--output path, stdout a closed pipe)
  5  internal error (a cancelled result with error.code \"internal\" was printed)";

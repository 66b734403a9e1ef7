//! Process exit codes: a public interface that callers script against (README, docs/exit-codes.md,
//! `pi-ask --help`).

/// How a run ended, as a process exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitCode {
    /// 0: the person submitted (or the answers file answered) the questionnaire.
    Submitted = 0,
    /// 1: cancelled: Esc or Cancel, a scripted `cancelled`, the terminal went away
    /// (`terminal_lost`; also the caller's lifeline), or another run held it (`terminal_busy`).
    Cancelled = 1,
    /// 2: invalid payload, invalid answers file, or bad command-line usage.
    Invalid = 2,
    /// 3: no terminal and no answers file: the "Needs user input" result was printed.
    NoUi = 3,
    /// 4: the result could not be written (`--output` not writable, stdout a closed pipe).
    OutputFailed = 4,
    /// 5: internal error (a bug); a cancelled result with `error.code` `internal` was printed.
    Internal = 5,
    /// 124 (as timeout(1)): no key for the `--timeout` time; the `timeout` result, with the
    /// answers given so far, was printed.
    TimedOut = 124,
    /// 129 (128 + SIGHUP): the terminal hung up; the `aborted` result was printed.
    Hangup = 129,
    /// 130 (128 + SIGINT): Ctrl+C or SIGINT; the dismissed result was printed.
    Interrupted = 130,
    /// 131 (128 + SIGQUIT): SIGQUIT; the `aborted` result was printed.
    Quit = 131,
    /// 143 (128 + SIGTERM): SIGTERM (the caller's abort); the `aborted` result was printed.
    Terminated = 143,
}

impl ExitCode {
    /// The numeric code.
    pub fn code(self) -> i32 {
        self as i32
    }

    /// The code of an ending by `signal`, as shells report it: 128 + the signal number for
    /// SIGHUP, SIGINT, SIGQUIT and SIGTERM; any other signal is [`ExitCode::Cancelled`].
    pub fn for_signal(signal: i32) -> Self {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
        match signal {
            SIGHUP => ExitCode::Hangup,
            SIGINT => ExitCode::Interrupted,
            SIGQUIT => ExitCode::Quit,
            SIGTERM => ExitCode::Terminated,
            _ => ExitCode::Cancelled,
        }
    }
}

/// The exit-code table shown at the end of `pi-ask --help`.
pub const HELP: &str = "\
Exit codes:
  0    submitted
  1    cancelled (Esc or Cancel, a scripted cancel, the terminal or the caller went away,
       another run held the terminal)
  2    invalid payload, invalid answers file, or usage error
  3    no terminal and no answers: a \"Needs user input\" result was printed
  4    the result could not be written (--output path, stdout a closed pipe)
  5    internal error (a cancelled result with error.code \"internal\" was printed)
  124  no key for the --timeout time (error.code \"timeout\", the answers given so far kept)
  129  SIGHUP (aborted result)
  130  Ctrl+C or SIGINT (dismissed result)
  131  SIGQUIT (aborted result)
  143  SIGTERM (aborted result)";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signals_exit_128_plus_their_number() {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1};
        for signal in [SIGHUP, SIGINT, SIGQUIT, SIGTERM] {
            assert_eq!(ExitCode::for_signal(signal).code(), 128 + signal);
        }
        assert_eq!(ExitCode::for_signal(SIGUSR1), ExitCode::Cancelled);
    }

    #[test]
    fn the_help_table_lists_every_code() {
        for code in [0, 1, 2, 3, 4, 5, 124, 129, 130, 131, 143] {
            assert!(
                HELP.lines()
                    .any(|l| l.trim_start().starts_with(&format!("{code} "))),
                "{code}"
            );
        }
    }
}

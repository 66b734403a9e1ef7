//! Front ends: the ways of asking. Each turns key presses, typed lines or file entries into
//! calls on [`AnswerState`](crate::answers::AnswerState) and reports how the flow ended; none
//! of them re-implements an answer rule.
//!
//! - [`tty`]: dialoguer prompts and rustyline editors on the terminal (`/dev/tty`);
//! - [`plain`]: numbered lines and line input, no escape sequences (TERM=dumb, `--plain`);
//! - [`scripted`]: answers from a file (`--answers`), no terminal at all.

pub mod plain;
pub mod scripted;
pub mod tty;

use std::path::PathBuf;

/// How a flow ended. The answers themselves are in the `AnswerState` the front end was given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The person chose Submit (or the answers file was applied): exit 0.
    Submitted,
    /// The person dismissed the flow (Esc, Ctrl+C, SIGINT, a scripted cancel): exit 1.
    Dismissed,
    /// Ended from outside or by a terminal failure: exit 1 with `details.error`.
    Aborted {
        /// Why, e.g. `aborted` or `terminal_lost`.
        code: crate::contract::ErrorCode,
        /// What happened, e.g. "received SIGTERM".
        message: String,
    },
}

/// What every interactive front end needs besides the payload.
#[derive(Debug, Clone, Default)]
pub struct AskOptions {
    /// Project root for `@` file-path completion (`--cwd`, default the current directory).
    pub cwd: PathBuf,
}

/// Which interactive front end suits the terminal: `plain` when asked for, or when `TERM` is
/// unset, empty or `dumb` (no cursor movement); `tty` otherwise.
pub fn wants_plain(force_plain: bool, term: Option<&str>) -> bool {
    force_plain || matches!(term.map(str::trim), None | Some("") | Some("dumb"))
}

//! Front ends: the ways of asking. Each turns key presses, typed lines or file entries into
//! [`Command`](crate::flow::Command)s on a [`Flow`](crate::flow::Flow), draws what the flow
//! says is current, and returns the [`Ending`](crate::result::Ending); none of them decides a
//! rule or builds a result.
//!
//! - `tty`: its own key reader and frames, rustyline editors, on the terminal (`/dev/tty`);
//! - [`plain`]: numbered lines and line input, no escape sequences (TERM=dumb, `--plain`);
//! - [`scripted`]: answers from a file (`--answers`), no terminal at all;
//! - [`dialogs`]: a caller's dialogs, JSON lines on stdin and stdout (`--dialogs`; pi's RPC
//!   mode).
//!
//! [`timeout`] holds the `--timeout` rules the interactive ones share: when the flow times
//! out, when the countdown shows and what it says.

pub mod dialogs;
mod layout;
pub mod plain;
pub mod scripted;
pub mod timeout;
pub mod tty;
pub mod view;

use std::path::PathBuf;
use std::time::Duration;

/// What every interactive front end needs besides the payload.
#[derive(Debug, Clone, Default)]
pub struct AskOptions {
    /// Project root for `@` file-path completion (`--cwd`, default the current directory).
    pub cwd: PathBuf,
    /// What the peek key (Ctrl+]) shows: the agent's message that asked (`--context FILE`).
    pub context: Option<String>,
    /// Ring the terminal bell once when the first screen appears (off with `--no-bell` or
    /// `PI_ASK_BELL=0`).
    pub bell: bool,
    /// End the flow when no key comes for this long (`--timeout`, `PI_ASK_TIMEOUT`); `None`:
    /// never. The scripted front end never times out.
    pub timeout: Option<Duration>,
    /// Where the terminal front end draws (`--screen`, `PI_ASK_SCREEN`): inline at the
    /// cursor (the default) or on the alternate screen.
    pub placement: tty::Placement,
    /// Whether the terminal front end draws in colour ([`view::colour_wanted`]).
    pub colour: bool,
}

/// Which interactive front end suits the terminal: `plain` when asked for, or when `TERM` is
/// unset, empty or `dumb` (no cursor movement); `tty` otherwise.
pub fn wants_plain(force_plain: bool, term: Option<&str>) -> bool {
    force_plain || matches!(term.map(str::trim), None | Some("") | Some("dumb"))
}

/// Shows the flow's screens one at a time until the flow ends: `question` for a question,
/// `review` for the review, `confirm` for the required-question warning and the cancel
/// confirmation. The loop of the line-based front ends (plain, dialogs); `flow` reads the
/// front end's flow.
pub(crate) fn show_screens<'p, T, E>(
    front: &mut T,
    flow: fn(&T) -> &crate::flow::Flow<'p>,
    question: fn(&mut T, usize) -> Result<(), E>,
    review: fn(&mut T) -> Result<(), E>,
    confirm: fn(&mut T) -> Result<(), E>,
) -> Result<(), E> {
    use crate::flow::Screen;
    while !flow(front).is_over() {
        match flow(front).screen() {
            Screen::Question(q) => question(front, q)?,
            Screen::Review => review(front)?,
            Screen::ConfirmSubmit | Screen::ConfirmCancel { .. } => confirm(front)?,
        }
    }
    Ok(())
}

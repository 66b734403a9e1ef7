//! The full terminal front end (dialoguer + rustyline on `/dev/tty`). Work in progress.

use super::{AskOptions, Outcome};
use crate::answers::AnswerState;
use crate::contract::Payload;

/// Asks every question on the terminal. Not yet implemented: reports an internal error.
pub fn ask(_payload: &Payload, _state: &mut AnswerState, _opts: &AskOptions) -> Outcome {
    Outcome::Aborted {
        code: crate::result::codes::INTERNAL,
        message: "the terminal front end is not built yet".into(),
    }
}

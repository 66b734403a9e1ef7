//! The plain front end (numbered lines, no escape sequences). Work in progress.

use super::{AskOptions, Outcome};
use crate::answers::AnswerState;
use crate::contract::Payload;

/// Asks every question with numbered lines. Not yet implemented: reports an internal error.
pub fn ask(_payload: &Payload, _state: &mut AnswerState, _opts: &AskOptions) -> Outcome {
    Outcome::Aborted {
        code: crate::result::codes::INTERNAL,
        message: "the plain front end is not built yet".into(),
    }
}

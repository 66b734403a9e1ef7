//! The scripted front end: answers from a file (`--answers`). Work in progress.

use crate::answers::AnswerState;
use crate::contract::{Payload, ToolResult};
use crate::exit_codes::ExitCode;
use std::path::Path;

/// Applies the answers file at `path` to `state`. Not yet implemented: reports an internal
/// error.
pub fn answer_from_file(
    payload: &Payload,
    _state: &mut AnswerState,
    _path: &Path,
) -> (ToolResult, ExitCode) {
    (
        crate::result::internal(Some(payload), "--answers is not built yet"),
        ExitCode::Internal,
    )
}

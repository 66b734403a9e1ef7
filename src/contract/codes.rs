//! The stable codes of a result: `details.error.code` ([`ErrorCode`]) and, for input errors,
//! `details.error.problems[].code`. Both are public interfaces callers script against
//! (docs/exit-codes.md); each code is spelled once, here, in `snake_case`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::fmt;

/// `details.error.code`: why a result carries no answers although the person did not dismiss
/// the flow (docs/exit-codes.md, "details.error").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The payload broke an input rule or was not JSON (exit 2).
    InvalidPayload,
    /// The `--answers` file could not be applied (exit 2).
    InvalidAnswers,
    /// No terminal could be opened and no answers file was given (exit 3).
    NoUi,
    /// The flow was ended from outside: SIGTERM, SIGHUP, SIGQUIT, the caller's abort (exit 1).
    Aborted,
    /// The terminal went away while asking: EOF or an I/O error on the tty (exit 1).
    TerminalLost,
    /// A bug in pi-ask: a panic or a broken internal invariant (exit 5).
    Internal,
}

impl ErrorCode {
    /// The code as written in the result, e.g. `"no_ui"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidPayload => "invalid_payload",
            ErrorCode::InvalidAnswers => "invalid_answers",
            ErrorCode::NoUi => "no_ui",
            ErrorCode::Aborted => "aborted",
            ErrorCode::TerminalLost => "terminal_lost",
            ErrorCode::Internal => "internal",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_codes_serialize_as_their_names() {
        for code in [
            ErrorCode::InvalidPayload,
            ErrorCode::InvalidAnswers,
            ErrorCode::NoUi,
            ErrorCode::Aborted,
            ErrorCode::TerminalLost,
            ErrorCode::Internal,
        ] {
            assert_eq!(
                serde_json::to_value(code).unwrap(),
                serde_json::Value::String(code.as_str().to_string())
            );
        }
    }
}

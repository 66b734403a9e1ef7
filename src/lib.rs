//! pi-ask: asks a person an AI coding agent's clarifying questions in the terminal and prints
//! the answers as JSON in the `ask_user` result contract (docs/contract.md).
//!
//! Data path: payload text → [`contract::parse_payload`] (normalize + validate) → a front end
//! in [`frontend`] drives an [`answers::AnswerState`] → [`result`] builds `{content, details}`
//! → [`output::write_result`].

pub mod answers;
pub mod cli;
pub mod commands;
pub mod complete;
pub mod contract;
pub mod editor;
pub mod exit_codes;
pub mod frontend;
pub mod output;
pub mod result;
pub mod run;
pub mod sanitize;
pub mod schema;
pub mod terminal;

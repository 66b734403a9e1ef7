//! pi-ask: asks a person an AI coding agent's clarifying questions in the terminal and prints
//! the answers as JSON in the `ask_user` result contract (docs/contract.md).
//!
//! Data path (docs/architecture.md): payload text → [`contract::parse_payload`] (normalize +
//! validate) → a front end in [`frontend`] turns input into commands on a [`flow::Flow`],
//! which keeps the answers in an [`answers::AnswerState`] → the flow's (or the run's)
//! [`result::Ending`] → [`result::conclude`] builds `{content, details}` and the exit code →
//! [`output::write_result`].

#![forbid(unsafe_code)]

pub mod answers;
pub mod channel;
pub mod cli;
pub mod commands;
pub mod complete;
pub mod contract;
mod editor;
pub mod exit_codes;
pub mod flow;
pub mod frontend;
pub mod keys;
mod leftovers;
pub mod lifeline;
pub mod limits;
pub mod man;
pub mod notify;
pub mod output;
mod proc_stat;
pub mod result;
pub mod run;
pub mod schema;
mod terminal;
pub mod text;
pub mod ui;

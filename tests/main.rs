//! The integration tests: one test binary (`[[test]] name = "main"` in Cargo.toml, with
//! `autotests = false`), one module per area, so `cargo test` links one binary instead of
//! one per file. A new file in tests/ is compiled only once it is declared here.
//!
//! Every module runs the real `pi-ask` binary (`CARGO_BIN_EXE_pi-ask`). Shared helpers:
//! `common::pty` (the pty harness) and `scripted_support` (runs without a terminal).

mod common;
mod scripted_support;

/// The benchmark harness, run in its quick mode by `bench_harness`.
#[path = "../benches/harness/bench.rs"]
mod bench;

mod additions;
mod answers_errors;
mod bench_harness;
mod cli_habits;
mod cli_payload;
mod complete;
mod conformance;
mod dialects;
mod dialogs;
mod elsewhere;
mod external_editor;
mod grace;
mod human_errors;
mod inline;
mod lifeline;
mod limits;
mod man_page;
mod npm_package;
mod output_file;
mod pi_extension;
mod pi_tmux;
mod plain;
mod region;
mod replay;
mod replay_pty;
mod schema;
mod scripted;
mod secret;
mod signals;
mod stops;
mod terminal_look;
mod text;
mod timeout;
mod tty;
mod tty_keys;
mod tty_layout;
mod validate_cmd;

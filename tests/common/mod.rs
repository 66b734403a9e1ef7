//! Shared helpers for integration tests. `pty`: drive the real binary in a pseudo-terminal.

pub mod pty;

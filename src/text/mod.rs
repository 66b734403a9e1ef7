//! Text at the bottom of pi-ask: what every layer that draws shares, and nothing that knows a
//! screen, a front end or the command line.
//!
//! - [`sanitize`]: payload and typed text made safe to draw (no control character, escape
//!   sequence or bidirectional control reaches the terminal as-is);
//! - [`layout`]: display widths, cutting a line to fit, wrapping, counting wrapped lines,
//!   quoting, indenting.
//!
//! Both are pure functions of their text and widths, unit-tested in their files.

pub mod layout;
pub mod sanitize;

pub use layout::{fit, indented, quote, width_of, wrap, wrap_head, wrap_words, wrapped_len};
pub use sanitize::{for_editor, for_terminal, is_unsafe, one_line};

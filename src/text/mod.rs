//! Text at the bottom of pi-ask: what every layer that draws shares, and nothing that knows a
//! screen, a front end or the command line.
//!
//! - [`sanitize`]: payload and typed text made safe to draw (no control character, escape
//!   sequence or bidirectional control reaches the terminal as-is);
//! - [`charset`]: what the terminal can show (UTF-8, or ASCII when the locale is not UTF-8),
//!   pi-ask's glyphs in each ([`Glyph`], [`charset::TABLE`]), set once at start;
//! - [`width`]: display widths as terminals count them, and the byte bounds of a drawn line;
//! - [`layout`]: cutting a line to fit, wrapping, counting wrapped lines, quoting, indenting,
//!   every line within its columns and its bytes.
//!
//! All are pure functions of their text and widths, unit-tested in their files.

pub mod charset;
pub mod layout;
pub mod sanitize;
pub mod width;

pub use charset::{set_terminal_charset, terminal_charset, Charset, Glyph};
pub use layout::{
    fit, fit_in, fit_keeping_end, fit_keeping_end_in, fit_styled, fit_styled_in, indented, quote,
    wrap, wrap_head, wrap_in, wrap_words, wrap_words_in, wrapped_len,
};
pub use sanitize::{for_terminal, is_unsafe, keep_sgr, one_line, quoted};
pub use width::{drawn_width, grapheme_width, width_of, width_of_in};

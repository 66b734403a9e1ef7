//! The screen model every front end renders (docs/architecture.md "The screen model"): for
//! each screen its rows, what they say and do, and its keys as data. UI-neutral: nothing here
//! reads input or writes to a terminal.
//!
//! - [`question`]: a question's rows (options, Type your own, Next), their words, the digit
//!   rule, the filter.
//! - [`review`]: what the review says of each question, and its actions.
//! - [`keymap`]: each screen's keys ([`keymap::Action`]), the hint line and the key list
//!   generated from them.
//! - [`line_editor`]: the line editor as a component (rustyline's line buffer, our keys,
//!   undo, kill ring, paste filter, a viewport in the rows it has) and its request.
//! - [`words`]: every word a screen says that is not the payload's (labels, placeholders,
//!   confirmations, titles).
//! - [`view`]: the summaries (a question's answer, notes, transcript line, ending) and the
//!   look of terminal lines (dialoguer's themes).

pub mod keymap;
pub mod line_editor;
pub mod question;
pub mod review;
pub mod view;
pub mod words;

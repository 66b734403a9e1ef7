//! The line editor for free-form answers (custom text) and notes: rustyline on `/dev/tty`.
//!
//! One call, [`edit_line`], edits one piece of text and reports how the editor was closed:
//!
//! | key                          | result                                   |
//! |------------------------------|------------------------------------------|
//! | Enter                        | [`Edit::Saved`] with the text            |
//! | Esc (immediate, no timeout)  | [`Edit::Closed`] with the draft          |
//! | Ctrl+D on an empty line      | [`Edit::Closed`] with an empty draft     |
//! | Ctrl+C                       | [`Edit::Interrupted`] (the draft is lost) |
//!
//! The editor draws on `/dev/tty` (rustyline `Behavior::PreferTerm`), never on stdout. Bracketed
//! paste is on, so a multi-line paste is inserted into this one text (newlines kept) and never
//! spills into later prompts. Wide (CJK, emoji) text is measured by rustyline.
//!
//! `@` file-path completion ([`crate::complete::AtCompleter`]) plugs in as a rustyline [`Helper`]:
//! `edit_line(prompt, initial, Some(my_helper))`.

use rustyline::config::{Behavior, CompletionType, Config};
use rustyline::error::ReadlineError;
use rustyline::history::DefaultHistory;
use rustyline::{
    Cmd, ConditionalEventHandler, Editor, Event, EventContext, EventHandler, Helper, KeyCode,
    KeyEvent, Modifiers, RepeatCount,
};
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// How long (ms) the editor waits after Esc for the rest of an escape sequence.
const ESC_TIMEOUT_MS: u16 = 25;

/// How an editor was closed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Edit {
    /// Enter: save this text (an empty text clears; the caller decides).
    Saved(String),
    /// Esc (or Ctrl+D on an empty line): the editor was closed with this draft.
    Closed(String),
    /// Ctrl+C: dismiss the whole flow; the draft is not saved.
    Interrupted,
}

/// Esc: remember that Esc was pressed and end the line at once.
struct EscHandler(Arc<AtomicBool>);

impl ConditionalEventHandler for EscHandler {
    fn handle(&self, _: &Event, _: RepeatCount, _: bool, _: &EventContext) -> Option<Cmd> {
        self.0.store(true, Ordering::SeqCst);
        Some(Cmd::AcceptLine)
    }
}

/// Edits one text on the terminal: draws `prompt` (one line, e.g. `"> "`), prefilled with
/// `initial` (cursor at its end), with `helper` for completion, hints or highlighting.
///
/// Errors: the terminal could not be used (EOF or I/O error other than Ctrl+C/Ctrl+D).
pub fn edit_line<H: Helper>(prompt: &str, initial: &str, helper: Option<H>) -> io::Result<Edit> {
    let config = Config::builder()
        .behavior(Behavior::PreferTerm)
        .auto_add_history(false)
        .bracketed_paste(true)
        // Esc alone closes the editor at once: wait only briefly for the rest of an escape
        // sequence (arrow keys arrive in one read; rustyline's emacs default waits forever).
        .keyseq_timeout(Some(ESC_TIMEOUT_MS))
        // Tab lists the candidates at once (the `@` completer's fuzzy matches share no prefix)
        .completion_type(CompletionType::List)
        .completion_show_all_if_ambiguous(true)
        .build();
    let mut editor: Editor<H, DefaultHistory> = Editor::with_config(config).map_err(to_io)?;
    editor.set_helper(helper);
    let esc = Arc::new(AtomicBool::new(false));
    editor.bind_sequence(
        KeyEvent(KeyCode::Esc, Modifiers::NONE),
        EventHandler::Conditional(Box::new(EscHandler(Arc::clone(&esc)))),
    );
    match editor.readline_with_initial(prompt, (initial, "")) {
        Ok(text) if esc.load(Ordering::SeqCst) => Ok(Edit::Closed(text)),
        Ok(text) => Ok(Edit::Saved(text)),
        Err(ReadlineError::Interrupted) => Ok(Edit::Interrupted),
        Err(ReadlineError::Eof) => Ok(Edit::Closed(String::new())),
        Err(e) => Err(to_io(e)),
    }
}

fn to_io(e: ReadlineError) -> io::Error {
    match e {
        ReadlineError::Io(e) => e,
        other => io::Error::other(other.to_string()),
    }
}

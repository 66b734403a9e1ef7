//! The line editor for free-form answers (custom text) and notes: rustyline on `/dev/tty`.
//!
//! One call, [`edit_line`], edits one piece of text and reports how the editor was closed:
//!
//! | key                          | result                                   |
//! |------------------------------|------------------------------------------|
//! | Enter                        | [`Edit::Saved`] with the text            |
//! | Esc                          | [`Edit::Closed`] with the draft          |
//! | Ctrl+D on an empty line      | [`Edit::Closed`] with an empty draft     |
//! | Ctrl+C                       | [`Edit::Interrupted`] (the draft is lost) |
//! | Ctrl+Z / Ctrl+]              | [`Edit::Suspended`] / [`Edit::Peek`] with the draft |
//! | ↑ ↓ Tab ⇧Tab ← → on an empty line | [`Edit::Navigate`] with the key     |
//!
//! The editor draws on `/dev/tty` (rustyline `Behavior::PreferTerm`), never on stdout. Bracketed
//! paste is on, so a multi-line paste is inserted into this one text (newlines kept) and never
//! spills into later prompts. Wide (CJK, emoji) text is measured by rustyline.
//!
//! `@` file-path completion ([`crate::complete::AtCompleter`]) plugs in as a rustyline [`Helper`]:
//! `edit_line(prompt, initial, Some(my_helper))`.

use crate::keys::Key;
use rustyline::config::{Behavior, CompletionType, Config};
use rustyline::error::ReadlineError;
use rustyline::history::DefaultHistory;
use rustyline::{
    Cmd, ConditionalEventHandler, Editor, Event, EventContext, EventHandler, Helper, KeyCode,
    KeyEvent, Modifiers, RepeatCount,
};
use std::io;
use std::sync::{Arc, Mutex};

/// How an editor was closed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Edit {
    /// Enter: save this text (an empty text clears; the caller decides).
    Saved(String),
    /// Esc (or Ctrl+D on an empty line): the editor was closed with this draft.
    Closed(String),
    /// Ctrl+C: dismiss the whole flow; the draft is not saved.
    Interrupted,
    /// Ctrl+Z: suspend like a shell job, then edit this draft again.
    Suspended(String),
    /// Ctrl+]: peek at what the questionnaire hides, then edit this draft again.
    Peek(String),
    /// ↑ ↓ Tab Shift+Tab ← → in an empty editor: leave it and move (seed 000 "Editing
    /// flow": when the editor is empty these keys navigate without Esc first).
    Navigate(Key),
}

/// Why the editor ended, when a bound key (not Enter) ended it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Closing {
    Esc,
    Suspend,
    Peek,
    Navigate(Key),
}

/// A key bound to end the line: remembers why and accepts the line. Navigation keys end it
/// only when the line is empty (with text they keep their editing meaning).
struct Close {
    why: Closing,
    only_when_empty: bool,
    closed: Arc<Mutex<Option<Closing>>>,
}

impl ConditionalEventHandler for Close {
    fn handle(&self, _: &Event, _: RepeatCount, _: bool, ctx: &EventContext) -> Option<Cmd> {
        if self.only_when_empty && !ctx.line().is_empty() {
            return None;
        }
        *self.closed.lock().unwrap_or_else(|e| e.into_inner()) = Some(self.why.clone());
        Some(Cmd::AcceptLine)
    }
}

/// Edits one text on the terminal: draws `prompt` (one line, e.g. `"> "`), prefilled with
/// `initial` (cursor at its end), with `helper` for completion, hints or highlighting.
///
/// Errors: the terminal could not be used (EOF or I/O error other than Ctrl+C/Ctrl+D).
pub fn edit_line<H: Helper>(prompt: &str, initial: &str, helper: Option<H>) -> io::Result<Edit> {
    let escape_ms = u16::try_from(crate::keys::escape_delay().as_millis()).unwrap_or(u16::MAX);
    let config = Config::builder()
        .behavior(Behavior::PreferTerm)
        .auto_add_history(false)
        .bracketed_paste(true)
        // Esc alone closes the editor: wait for the rest of an escape sequence as long as the
        // menus do (crate::keys), not forever (rustyline's emacs default).
        .keyseq_timeout(Some(escape_ms))
        // Tab lists the candidates at once (the `@` completer's fuzzy matches share no prefix)
        .completion_type(CompletionType::List)
        .completion_show_all_if_ambiguous(true)
        .build();
    let mut editor: Editor<H, DefaultHistory> = Editor::with_config(config).map_err(to_io)?;
    editor.set_helper(helper);
    let closed = Arc::new(Mutex::new(None));
    let mut bind = |event: KeyEvent, why: Closing, only_when_empty: bool| {
        editor.bind_sequence(
            event,
            EventHandler::Conditional(Box::new(Close {
                why,
                only_when_empty,
                closed: Arc::clone(&closed),
            })),
        );
    };
    bind(KeyEvent(KeyCode::Esc, Modifiers::NONE), Closing::Esc, false);
    bind(KeyEvent::ctrl('Z'), Closing::Suspend, false);
    bind(KeyEvent::ctrl(']'), Closing::Peek, false);
    for (code, mods, key) in [
        (KeyCode::Up, Modifiers::NONE, Key::Up),
        (KeyCode::Down, Modifiers::NONE, Key::Down),
        (KeyCode::Left, Modifiers::NONE, Key::Left),
        (KeyCode::Right, Modifiers::NONE, Key::Right),
        (KeyCode::Tab, Modifiers::NONE, Key::Tab),
        (KeyCode::BackTab, Modifiers::NONE, Key::BackTab),
    ] {
        bind(KeyEvent(code, mods), Closing::Navigate(key), true);
    }
    let line = editor.readline_with_initial(prompt, (initial, ""));
    let why = closed.lock().unwrap_or_else(|e| e.into_inner()).take();
    match line {
        Ok(text) => Ok(match why {
            None => Edit::Saved(text),
            Some(Closing::Esc) => Edit::Closed(text),
            Some(Closing::Suspend) => Edit::Suspended(text),
            Some(Closing::Peek) => Edit::Peek(text),
            Some(Closing::Navigate(key)) => Edit::Navigate(key),
        }),
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

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
//! | Ctrl+G, Ctrl+X Ctrl+E        | [`Edit::External`] with the draft        |
//! | ↑ ↓ Tab ⇧Tab ← → on an empty line | [`Edit::Navigate`] with the key     |
//!
//! The editor draws on `/dev/tty` (rustyline `Behavior::PreferTerm`), never on stdout. Bracketed
//! paste is on, so a multi-line paste is inserted into this one text (newlines kept) and never
//! spills into later prompts. Wide (CJK, emoji) text is measured by rustyline.
//!
//! `@` file-path completion ([`crate::complete::AtCompleter`]) plugs in as a rustyline [`Helper`]:
//! `edit_line(prompt, initial, Some(my_helper))`.
//!
//! [`edit_line_watched`] lets another thread follow the editor (`--timeout`, see
//! `frontend::tty::backend`): a [`Watch`] gets the draft at every change of the line (the
//! helper's `Hinter::hint`, which rustyline calls whenever the line changes) and a call at
//! every key (a key handler on every key: the bound ones below, and `Event::Any` for the
//! rest, cursor movement included). rustyline itself has no timeout and no way to be told
//! to return: with its `signal-hook` feature only SIGWINCH reaches it, and it redraws and reads
//! on; so the watching thread ends the flow with the watched draft instead.

use crate::keys::Key;
use rustyline::completion::Completer;
use rustyline::config::{Behavior, CompletionType, Config};
use rustyline::error::ReadlineError;
use rustyline::highlight::{CmdKind, Highlighter};
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::line_buffer::LineBuffer;
use rustyline::validate::{ValidationContext, ValidationResult, Validator};
use rustyline::{
    Changeset, Cmd, ConditionalEventHandler, Context, Editor, Event, EventContext, EventHandler,
    Helper, KeyCode, KeyEvent, Modifiers, RepeatCount,
};
use std::borrow::Cow;
use std::io;
use std::sync::{Arc, Mutex};

/// The terminals rustyline cannot drive (its `UNSUPPORTED_TERM`, compared without regard to
/// case): there its editor reads stdin as lines and prints its prompt on stdout.
const UNDRIVABLE_TERMS: [&str; 3] = ["dumb", "cons25", "emacs"];

/// Whether the editor cannot drive a terminal of this `TERM` (surrounding blanks ignored):
/// unset, empty, or one of rustyline's unsupported terminals in any case. The plain front
/// end asks there instead (`frontend::wants_plain`), and [`edit_line`] refuses to run.
pub fn cannot_drive(term: Option<&str>) -> bool {
    match term.map(str::trim) {
        None | Some("") => true,
        Some(term) => UNDRIVABLE_TERMS
            .iter()
            .any(|known| known.eq_ignore_ascii_case(term)),
    }
}

/// The external editor for long answers and notes: `$VISUAL`, else `$EDITOR` (the first set
/// and not blank), as a shell command line; `None` when neither is set.
pub fn external_editor() -> Option<String> {
    ["VISUAL", "EDITOR"]
        .iter()
        .filter_map(|name| std::env::var(name).ok())
        .find(|v| !v.trim().is_empty())
}

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
    /// Ctrl+G (or Ctrl+X Ctrl+E, readline's): edit this draft in `$VISUAL` / `$EDITOR`.
    External(String),
    /// ↑ ↓ Tab Shift+Tab ← → in an empty editor: leave it and move (the contract\'s "Editing
    /// flow": when the editor is empty these keys navigate without Esc first).
    Navigate(Key),
    /// No key came for the `--timeout` time: the flow times out; this draft is saved as Esc
    /// saves it. Given by the terminal front end, never by [`edit_line`].
    TimedOut(String),
}

/// Lets another thread follow an open editor ([`edit_line_watched`]): the draft as it is now,
/// and a call at every key.
pub struct Watch {
    draft: Mutex<String>,
    /// Byte position of the cursor in the draft.
    pos: Mutex<usize>,
    on_key: Box<dyn Fn() + Send + Sync>,
}

impl Watch {
    /// A watch that calls `on_key` at every key typed in the editor (on the editor's thread).
    pub fn new(on_key: impl Fn() + Send + Sync + 'static) -> Arc<Watch> {
        Arc::new(Watch {
            draft: Mutex::new(String::new()),
            pos: Mutex::new(0),
            on_key: Box::new(on_key),
        })
    }

    /// The editor's text as it is now (its initial text before the first change).
    pub fn draft(&self) -> String {
        self.draft.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The draft's text before the cursor (where the editor's cursor is drawn).
    pub fn before_cursor(&self) -> String {
        let draft = self.draft();
        let pos = *self.pos.lock().unwrap_or_else(|e| e.into_inner());
        draft.get(..pos).unwrap_or(&draft).to_string()
    }

    fn set_draft(&self, line: &str) {
        let mut draft = self.draft.lock().unwrap_or_else(|e| e.into_inner());
        if *draft != line {
            line.clone_into(&mut draft);
        }
        *self.pos.lock().unwrap_or_else(|e| e.into_inner()) = line.len();
    }

    fn set_cursor(&self, line: &str, pos: usize) {
        self.set_draft(line);
        *self.pos.lock().unwrap_or_else(|e| e.into_inner()) = pos.min(line.len());
    }

    fn key(&self) {
        (self.on_key)()
    }
}

impl std::fmt::Debug for Watch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watch")
            .field("draft", &self.draft())
            .finish_non_exhaustive()
    }
}

/// Every key not bound otherwise: tells the [`Watch`], then does what it does.
struct AnyKey(Arc<Watch>);

impl ConditionalEventHandler for AnyKey {
    fn handle(&self, _: &Event, _: RepeatCount, _: bool, _: &EventContext) -> Option<Cmd> {
        self.0.key();
        None
    }
}

/// A helper with a [`Watch`]: everything is `H`'s, and `hint`, which rustyline calls at every
/// change of the line (and when the editor opens), also records the line as the draft.
struct Watched<H> {
    inner: H,
    watch: Arc<Watch>,
}

impl<H: Completer> Completer for Watched<H> {
    type Candidate = H::Candidate;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<H::Candidate>)> {
        self.inner.complete(line, pos, ctx)
    }

    fn update(&self, line: &mut LineBuffer, start: usize, elected: &str, cl: &mut Changeset) {
        self.inner.update(line, start, elected, cl)
    }
}

impl<H: Hinter> Hinter for Watched<H> {
    type Hint = H::Hint;

    fn hint(&self, line: &str, pos: usize, ctx: &Context<'_>) -> Option<H::Hint> {
        self.watch.set_cursor(line, pos);
        self.inner.hint(line, pos, ctx)
    }
}

impl<H: Highlighter> Highlighter for Watched<H> {
    fn highlight<'l>(&self, line: &'l str, pos: usize) -> Cow<'l, str> {
        self.inner.highlight(line, pos)
    }

    fn highlight_prompt<'b, 's: 'b, 'p: 'b>(
        &'s self,
        prompt: &'p str,
        default: bool,
    ) -> Cow<'b, str> {
        self.inner.highlight_prompt(prompt, default)
    }

    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        self.inner.highlight_hint(hint)
    }

    fn highlight_candidate<'c>(
        &self,
        candidate: &'c str,
        completion: CompletionType,
    ) -> Cow<'c, str> {
        self.inner.highlight_candidate(candidate, completion)
    }

    fn highlight_char(&self, line: &str, pos: usize, kind: CmdKind) -> bool {
        self.inner.highlight_char(line, pos, kind)
    }
}

impl<H: Validator> Validator for Watched<H> {
    fn validate(&self, ctx: &mut ValidationContext) -> rustyline::Result<ValidationResult> {
        self.inner.validate(ctx)
    }

    fn validate_while_typing(&self) -> bool {
        self.inner.validate_while_typing()
    }
}

impl<H: Helper> Helper for Watched<H> {}

/// Why the editor ended, when a bound key (not Enter) ended it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Closing {
    Esc,
    Suspend,
    Peek,
    External,
    Navigate(Key),
}

/// A key bound to end the line: remembers why and accepts the line. Navigation keys end it
/// only when the line is empty (with text they keep their editing meaning).
struct Close {
    why: Closing,
    only_when_empty: bool,
    closed: Arc<Mutex<Option<Closing>>>,
    watch: Option<Arc<Watch>>,
}

impl ConditionalEventHandler for Close {
    fn handle(&self, _: &Event, _: RepeatCount, _: bool, ctx: &EventContext) -> Option<Cmd> {
        if let Some(watch) = &self.watch {
            watch.key();
        }
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
/// A byte that is not UTF-8 (é from a Latin-1 terminal, an 8-bit Meta key, a stray byte in a
/// paste) becomes U+FFFD at the cursor and the editing goes on, as at the menus: rustyline
/// ends its read there with an `InvalidData` error, so the editor is opened again on the
/// draft with U+FFFD inserted, in the same place. The byte that showed an unfinished
/// character to be broken goes with it (rustyline reads it as part of the character), and
/// so do the bytes rustyline had read ahead (the rest of a paste).
///
/// Errors: the terminal could not be used (EOF or I/O error other than Ctrl+C/Ctrl+D), or
/// `TERM` names a terminal the editor cannot drive ([`cannot_drive`]).
pub fn edit_line<H: Helper>(prompt: &str, initial: &str, helper: H) -> io::Result<Edit> {
    edit(prompt, initial, helper, Watch::new(|| {}), false)
}

/// [`edit_line`] followed by `watch` from another thread: `watch` has the draft at every change
/// and is told of every key (see the module notes). Meant to run on a thread of its own, so
/// the caller can stop waiting for it.
///
/// Errors: as [`edit_line`].
pub fn edit_line_watched<H: Helper>(
    prompt: &str,
    initial: &str,
    helper: H,
    watch: Arc<Watch>,
) -> io::Result<Edit> {
    edit(prompt, initial, helper, watch, true)
}

/// Most times one editor is opened again after bytes that are not UTF-8 (each time
/// rustyline drops what it had read ahead, up to 1024 bytes): past it the editor ends as a
/// terminal failure.
const MAX_REOPENS: usize = 4096;

/// [`edit_line`]; with `keys`, `watch` is told of every key.
fn edit<H: Helper>(
    prompt: &str,
    initial: &str,
    helper: H,
    watch: Arc<Watch>,
    keys: bool,
) -> io::Result<Edit> {
    // rustyline's own test: there it would read stdin and write its prompt on stdout, which
    // carries only the result.
    if std::env::var("TERM").is_ok_and(|term| {
        UNDRIVABLE_TERMS
            .iter()
            .any(|known| known.eq_ignore_ascii_case(&term))
    }) {
        return Err(io::Error::other("the editor cannot drive this TERM"));
    }
    watch.set_draft(initial);
    let mut editor = new_editor(
        Watched {
            inner: helper,
            watch: Arc::clone(&watch),
        },
        keys.then(|| Arc::clone(&watch)),
    )?;
    let (mut left, mut right) = (initial.to_string(), String::new());
    for _ in 0..=MAX_REOPENS {
        let line = editor.readline_with_initial(prompt, (&left, &right));
        let why = editor
            .closed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        return match line {
            Ok(text) => Ok(match why {
                None => Edit::Saved(text),
                Some(Closing::Esc) => Edit::Closed(text),
                Some(Closing::Suspend) => Edit::Suspended(text),
                Some(Closing::Peek) => Edit::Peek(text),
                Some(Closing::External) => Edit::External(text),
                Some(Closing::Navigate(key)) => Edit::Navigate(key),
            }),
            Err(ReadlineError::Interrupted) => Ok(Edit::Interrupted),
            Err(ReadlineError::Eof) => Ok(Edit::Closed(String::new())),
            Err(ReadlineError::Io(e)) if e.kind() == io::ErrorKind::InvalidData => {
                let draft = watch.draft();
                let before = watch.before_cursor();
                left = format!("{before}\u{fffd}");
                right = draft[before.len()..].to_string();
                back_to_the_prompt(prompt, &before);
                continue;
            }
            Err(e) => Err(to_io(e)),
        };
    }
    Err(io::Error::other(
        "the terminal sent too many bytes that are not UTF-8",
    ))
}

/// A rustyline editor with its bindings, and where a bound key records why it closed.
struct Bound<H: Helper> {
    editor: Editor<H, DefaultHistory>,
    closed: Arc<Mutex<Option<Closing>>>,
}

impl<H: Helper> Bound<H> {
    fn readline_with_initial(
        &mut self,
        prompt: &str,
        initial: (&str, &str),
    ) -> rustyline::Result<String> {
        self.editor.readline_with_initial(prompt, initial)
    }
}

/// The editor with pi-ask's configuration and key bindings; with `watch`, every key is told.
fn new_editor<H: Helper>(helper: H, watch: Option<Arc<Watch>>) -> io::Result<Bound<H>> {
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
        // The helper always draws the line (`complete::AtCompleter::highlight` leaves out
        // control characters); its own colours follow NO_COLOR.
        .color_mode(rustyline::ColorMode::Forced)
        // Widths per code point, as terminals count them (`text::width`): `👍🏽` is 4 columns
        // in tmux, GNU screen and xterm; the helper draws each grapheme in the columns counted
        // (`text::for_editor`), and the front end places the cursor by the same count
        // (`text::editor_cursor`). (rustyline would guess the mode from TERM_PROGRAM.)
        .grapheme_cluster_mode(rustyline::GraphemeClusterMode::WcWidth)
        .build();
    let mut editor: Editor<H, DefaultHistory> = Editor::with_config(config).map_err(to_io)?;
    editor.set_helper(Some(helper));
    let closed = Arc::new(Mutex::new(None));
    let mut bind = |event: Event, why: Closing, only_when_empty: bool| {
        editor.bind_sequence(
            event,
            EventHandler::Conditional(Box::new(Close {
                why,
                only_when_empty,
                closed: Arc::clone(&closed),
                watch: watch.clone(),
            })),
        );
    };
    bind(
        KeyEvent(KeyCode::Esc, Modifiers::NONE).into(),
        Closing::Esc,
        false,
    );
    bind(KeyEvent::ctrl('Z').into(), Closing::Suspend, false);
    bind(KeyEvent::ctrl(']').into(), Closing::Peek, false);
    // The draft in `$VISUAL` / `$EDITOR`: Ctrl+G (as rpiv), Ctrl+X Ctrl+E (readline's).
    bind(KeyEvent::ctrl('G').into(), Closing::External, false);
    bind(
        Event::KeySeq(vec![KeyEvent::ctrl('X'), KeyEvent::ctrl('E')]),
        Closing::External,
        false,
    );
    for (code, mods, key) in [
        (KeyCode::Up, Modifiers::NONE, Key::Up),
        (KeyCode::Down, Modifiers::NONE, Key::Down),
        (KeyCode::Left, Modifiers::NONE, Key::Left),
        (KeyCode::Right, Modifiers::NONE, Key::Right),
        (KeyCode::Tab, Modifiers::NONE, Key::Tab),
        (KeyCode::BackTab, Modifiers::NONE, Key::BackTab),
    ] {
        bind(KeyEvent(code, mods).into(), Closing::Navigate(key), true);
    }
    // Ctrl+L would clear the whole screen (`ESC[H ESC[J`): the questionnaire above the
    // editor is the screen's content, so it does nothing.
    editor.bind_sequence(KeyEvent::ctrl('L'), EventHandler::Simple(Cmd::Noop));
    if let Some(watch) = &watch {
        editor.bind_sequence(
            Event::Any,
            EventHandler::Conditional(Box::new(AnyKey(Arc::clone(watch)))),
        );
    }
    Ok(Bound { editor, closed })
}

/// After rustyline ended its read in the middle of a line (it then writes a line feed at the
/// cursor), moves the cursor back to the first column of the prompt's row, so the editor
/// opened again draws over itself: up the rows that `prompt` and the text `before` the
/// cursor take in the terminal's width, and one more.
fn back_to_the_prompt(prompt: &str, before: &str) {
    let (Ok(read), Ok(write)) = (crate::terminal::open_tty(), crate::terminal::open_tty()) else {
        return;
    };
    let cols = usize::from(console::Term::read_write_pair(read, write).size().1).max(1);
    let used = crate::text::width_of(&console::strip_ansi_codes(prompt))
        + crate::text::width_of(&crate::text::for_editor(before));
    let up = used / cols + 1;
    // rustyline writes on its own: this goes first.
    if crate::terminal::write_tty(format!("\x1b[{up}A\r").as_bytes()).is_ok() {
        crate::terminal::drain_tty(std::time::Duration::from_secs(1));
    }
}

fn to_io(e: ReadlineError) -> io::Error {
    match e {
        ReadlineError::Io(e) => e,
        other => io::Error::other(other.to_string()),
    }
}

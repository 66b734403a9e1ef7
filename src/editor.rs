//! The line editor for free-form answers (custom text) and notes: rustyline on `/dev/tty`.
//!
//! One call, [`edit_line_watched`], edits one piece of text and reports how the editor was
//! closed:
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
//! ## Pastes
//!
//! rustyline lays out each line break as a row and has no scrolling: a text taller than the
//! rows under the block would scroll the block out of the window. So the editor reads a paste
//! itself, one key at a time: the paste's start (`ESC[200~`) is bound, and until its end every
//! key handler collects the key's character instead of acting on it; at the end the paste goes
//! in with one `Cmd::Insert`, as it is or folded into a marker ([`crate::paste`]) when it is
//! long or would not fit the rows the editor has (`above`: the rows of the block above the
//! editor's row, which must stay in the window). rustyline's own paste reading cannot be used:
//! it inserts and draws the paste before any hook sees it, and the bytes it read ahead are
//! lost when its read ends on an error. Escape sequences are dropped from the paste, and a
//! control string (OSC through BEL or ST, DCS / APC / PM / SOS through ST; one that never
//! ends, through the paste's end) whole, nothing of it kept (docs/interactive.md "The line
//! editor"); the rest is kept as it came. [`Edited::edit`] has every marker expanded to its
//! text; [`Edited::shown`] is the line as the editor showed it.
//!
//! ## Typed text
//!
//! Typing has the same limit: before a key that types a character acts (every key goes
//! through a [`Keys`] handler), the line as it would be is measured, and when it would not
//! fit, the beginning of the text before the cursor is folded into a marker,
//! `[text #8 1231 chars]` ([`crate::paste::Pastes::type_in`]), the rest of it, the key's
//! character and the text after the cursor kept as they are. rustyline cannot replace the
//! text before the cursor and leave the cursor after it (`Cmd::Replace` leaves it before the
//! new text), so the key ends the read (`Cmd::AcceptLine`), and the editor opens again on the
//! folded line, the cursor where it was; with rustyline's `buffer-redux` feature the keys it
//! had read ahead are read by the editor opened again. Undo (Ctrl+_) stops at the line it
//! opened again on (rustyline would undo that whole line, as the text it opened with).
//!
//! `@` file-path completion ([`crate::complete::AtCompleter`]) plugs in as a rustyline [`Helper`]:
//! `edit_line_watched(prompt, initial, above, my_helper, watch)`.
//!
//! [`edit_line_watched`] lets another thread follow the editor (the terminal front end waits
//! for it there, so a timeout or a resize is seen while it reads: `frontend::tty::backend`):
//! a [`Watch`] gets the draft at every change of the line (the helper's `Hinter::hint`, which
//! rustyline calls whenever the line changes) and a call at every key (a key handler on every
//! key: the bound ones below, and `Event::Any` for the rest, cursor movement included). rustyline itself has no timeout and no way to be told
//! to return: with its `signal-hook` feature only SIGWINCH reaches it, and it redraws and reads
//! on; so the watching thread ends the flow with the watched draft instead.

mod continued;

use crate::keys::Key;
use crate::paste::Typing;
use rustyline::completion::Completer;
use rustyline::config::{Behavior, CompletionType, Config};
use rustyline::error::ReadlineError;
use rustyline::highlight::{CmdKind, Highlighter};
use rustyline::hint::{Hint, Hinter};
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
/// end asks there instead (`frontend::wants_plain`), and [`edit_line_watched`] refuses to run.
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
    /// saves it. Given by the terminal front end, never by [`edit_line_watched`].
    TimedOut(String),
}

/// Lets another thread follow an open editor ([`edit_line_watched`]): the draft as it is now,
/// and a call at every key.
pub struct Watch {
    /// The editor's line as shown (a folded paste as its marker).
    draft: Mutex<String>,
    /// Byte position of the cursor in the draft.
    pos: Mutex<usize>,
    /// The pastes folded in the line.
    pastes: Mutex<crate::paste::Pastes>,
    /// A paste being read (between its start and its end).
    pasting: Mutex<Option<Pasting>>,
    /// The prompt, and the rows of the block above the editor's row (what fits).
    room: Mutex<(String, usize)>,
    /// The line the editor was opened again on (after a fold or a byte that is not UTF-8):
    /// undo stops there (rustyline would undo the whole line it opened with).
    floor: Mutex<Option<String>>,
    /// What a stop from outside needs (`continued.rs`).
    stop: continued::AfterStop,
    on_key: Box<dyn Fn() + Send + Sync>,
}

/// A paste being read, one key at a time.
#[derive(Debug, Default)]
struct Pasting {
    text: String,
    /// The last key was a carriage return (CR LF is one line break).
    after_cr: bool,
    /// A control string being dropped: its introducer came, its end not yet.
    string: Option<ControlString>,
    /// The most bytes it keeps: [`crate::limits::MAX_EDITOR_PASTE_BYTES`], or less when the
    /// editor's text would reach [`crate::limits::MAX_EDITOR_TEXT_BYTES`] with it.
    limit: usize,
    /// Text was left out at the end, at `limit`.
    cut: bool,
    /// When its last key came: a key after [`crate::keys::PASTE_IDLE`] without one ends it.
    last: Option<std::time::Instant>,
}

/// A control string in a paste (ECMA-48's command and character strings), dropped whole from
/// its introducer through its end: nothing of it is kept, so a string that never ends costs
/// nothing but the rest of the paste.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ControlString {
    /// OSC (`ESC ]`): ends at BEL or ST (`ESC \`), as xterm's.
    Osc,
    /// DCS (`ESC P`), SOS (`ESC X`), PM (`ESC ^`), APC (`ESC _`): end at ST only.
    UntilSt,
}

impl ControlString {
    /// The string that the key rustyline made of `ESC c` introduces (it reads `ESC c` as
    /// Alt+c); `None` for any other key.
    fn introduced_by(code: KeyCode, mods: Modifiers) -> Option<ControlString> {
        match (code, mods) {
            (KeyCode::Char(']'), Modifiers::ALT) => Some(ControlString::Osc),
            (KeyCode::Char('P' | 'X' | '^' | '_'), Modifiers::ALT) => Some(ControlString::UntilSt),
            _ => None,
        }
    }

    /// Whether the key rustyline made of the next bytes ends this string: ST (`ESC \`, to
    /// rustyline Alt+\), or for OSC also BEL (Ctrl+G).
    fn ends_with(self, code: KeyCode, mods: Modifiers) -> bool {
        match (code, mods) {
            (KeyCode::Char('\\'), Modifiers::ALT) => true,
            (KeyCode::Char('G'), Modifiers::CTRL) => self == ControlString::Osc,
            _ => false,
        }
    }
}

impl Pasting {
    /// A paste starting at `now` into an editor whose text is `held` bytes long (its pastes
    /// expanded).
    fn new(now: std::time::Instant, held: usize) -> Pasting {
        let room = crate::limits::MAX_EDITOR_TEXT_BYTES.saturating_sub(held);
        Pasting {
            limit: room.min(crate::limits::MAX_EDITOR_PASTE_BYTES),
            last: Some(now),
            ..Pasting::default()
        }
    }

    /// Why it was cut, if it was: at a paste's most, or where the editor's text is full.
    fn cut(&self) -> Option<crate::paste::Cut> {
        match (self.cut, self.limit < crate::limits::MAX_EDITOR_PASTE_BYTES) {
            (false, _) => None,
            (true, false) => Some(crate::paste::Cut::Paste),
            (true, true) => Some(crate::paste::Cut::Full),
        }
    }

    /// Adds what the keys of `event` stand for in the pasted text. rustyline has parsed the
    /// bytes into keys: a character is itself, Ctrl+letter its control character, Enter (CR)
    /// and Ctrl+J (LF) a line break (CR LF one), Tab a tab, Shift+Esc the C1 CSI; Backspace is
    /// DEL (BS reads as the same key); an escape sequence, and a C1 control rustyline has no
    /// key for, give nothing (rustyline's own paste reading drops escape sequences too). A
    /// control string ([`ControlString`]: OSC, DCS, SOS, PM, APC) gives nothing from its
    /// introducer through its end, whatever is in it; one that never ends, to the paste's end.
    fn push(&mut self, event: &Event) {
        let Event::KeySeq(keys) = event else {
            return;
        };
        for &KeyEvent(code, mods) in keys {
            if let Some(string) = self.string {
                if string.ends_with(code, mods) {
                    self.string = None;
                }
                self.after_cr = false;
                continue;
            }
            if let Some(string) = ControlString::introduced_by(code, mods) {
                self.string = Some(string);
                self.after_cr = false;
                continue;
            }
            let c = match code {
                KeyCode::Char(c) if mods == Modifiers::NONE || mods == Modifiers::SHIFT => Some(c),
                KeyCode::Char(c) if mods == Modifiers::CTRL && ('@'..='_').contains(&c) => {
                    Some(char::from(c as u8 & 0x1f))
                }
                KeyCode::Enter if mods == Modifiers::NONE => Some('\r'),
                KeyCode::Tab if mods == Modifiers::NONE => Some('\t'),
                KeyCode::Backspace if mods == Modifiers::NONE => Some('\u{7f}'),
                KeyCode::Esc if mods == Modifiers::SHIFT => Some('\u{9b}'),
                _ => None,
            };
            let Some(c) = c else {
                self.after_cr = false;
                continue;
            };
            let after_cr = std::mem::replace(&mut self.after_cr, c == '\r');
            if c == '\n' && after_cr {
                continue;
            }
            if self.text.len() + c.len_utf8() > self.limit {
                self.cut = true;
                continue;
            }
            self.text.push(if c == '\r' { '\n' } else { c });
        }
    }
}

impl Watch {
    /// A watch that calls `on_key` at every key typed in the editor (on the editor's thread).
    pub fn new(on_key: impl Fn() + Send + Sync + 'static) -> Arc<Watch> {
        Arc::new(Watch {
            draft: Mutex::new(String::new()),
            pos: Mutex::new(0),
            pastes: Mutex::new(crate::paste::Pastes::default()),
            pasting: Mutex::new(None),
            room: Mutex::new((String::new(), 0)),
            floor: Mutex::new(None),
            stop: continued::AfterStop::default(),
            on_key: Box::new(on_key),
        })
    }

    /// Sets the bytes that draw the block again at the cursor (the region started again, then
    /// the block drawn: the terminal front end's, already safe to write) when the process is
    /// stopped from outside and continued while this editor reads; rustyline then draws the
    /// editor under them (docs/interactive.md "Placement").
    pub fn draw_again_after_stop(&self, bytes: String) {
        self.stop.set_again(bytes);
    }

    /// Draws `bytes` (the front end's, already safe to write, leaving the cursor at the left of
    /// the editor's row) over the rows above the open editor: rustyline clears its own rows,
    /// writes them, and draws its prompt and line under them, its cursor where it was (a
    /// window resized with the editor open: the block laid out again). Whether it could (no
    /// editor reads).
    pub fn draw_above(&self, bytes: String) -> bool {
        self.stop.print(bytes)
    }

    /// Whether the process was continued after a stop from outside since the last call, and
    /// the block and the editor were drawn again at the cursor
    /// ([`Watch::draw_again_after_stop`]).
    pub fn take_continued(&self) -> bool {
        self.stop.take_continued()
    }

    /// The editor is given up (its thread is left reading, `--timeout`): a continue draws
    /// nothing more for it.
    pub fn give_up(&self) {
        self.stop.give_up();
    }

    /// The editor's text as it is now (its initial text before the first change), every
    /// folded paste in it expanded.
    pub fn draft(&self) -> String {
        lock(&self.pastes).expand(&self.shown())
    }

    /// The editor's line as it is shown now (a folded paste as its marker).
    fn shown(&self) -> String {
        self.draft.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The shown line before the cursor (where the editor's cursor is drawn).
    pub fn before_cursor(&self) -> String {
        let draft = self.shown();
        let pos = *self.pos.lock().unwrap_or_else(|e| e.into_inner());
        draft.get(..pos).unwrap_or(&draft).to_string()
    }

    /// Sets the editor up to open with `prompt` on `initial`, `above` rows of the block
    /// above its row; the line it opens with (`initial`, or one marker for it).
    fn open(&self, prompt: &str, initial: &str, above: usize) -> String {
        *lock(&self.room) = (prompt.to_string(), above);
        *lock(&self.pasting) = None;
        *lock(&self.floor) = None;
        self.stop.reopen();
        let fits = self.fits();
        let shown = lock(&self.pastes).initial(initial, fits);
        self.set_draft(&shown);
        shown
    }

    /// Bytes of the editor's text as `line` stands for it, its pastes expanded.
    fn held(&self, line: &str) -> usize {
        lock(&self.pastes).expanded_len(line)
    }

    /// Whether a line fits the rows the editor has now: the window's rows less the block's
    /// rows above the editor's row and the row the editor's closing line feed makes.
    fn fits(&self) -> impl Fn(&str) -> bool {
        let (prompt, above) = lock(&self.room).clone();
        let (rows, cols) = window();
        let room = rows.saturating_sub(above + 1).max(1);
        move |line: &str| crate::text::editor_cursor(&prompt, line, cols).0 < room
    }

    /// A key during a paste, or a paste's start or end: what the editor does instead of the
    /// key's own command (`None`: no paste is being read, the key acts).
    fn paste_key(&self, action: &Action, event: &Event, ctx: &EventContext) -> Option<Cmd> {
        let now = std::time::Instant::now();
        let mut pasting = lock(&self.pasting);
        // A paste whose end never came ends at the first key after a quiet spell, that key
        // the paste's last (the next acts), as the menus' reader ends it (`keys::PASTE_IDLE`).
        let stale = pasting
            .as_ref()
            .and_then(|p| p.last)
            .is_some_and(|at| now.saturating_duration_since(at) > crate::keys::PASTE_IDLE);
        match (action, pasting.as_mut()) {
            (Action::PasteStart, None) => {
                *pasting = Some(Pasting::new(now, self.held(ctx.line())));
                Some(Cmd::Noop)
            }
            (Action::PasteEnd, None) => Some(Cmd::Noop),
            (_, Some(paste)) if stale || *action == Action::PasteEnd => {
                if !matches!(action, Action::PasteStart | Action::PasteEnd) {
                    paste.push(event);
                }
                let (cut, text) = pasting
                    .take()
                    .map(|p| (p.cut(), p.text))
                    .unwrap_or_default();
                if *action == Action::PasteStart {
                    // A new paste starts as the stale one ends (the room left counts the
                    // stale one's text, which is inserted with this key).
                    let held = self.held(ctx.line()) + text.len();
                    *pasting = Some(Pasting::new(now, held));
                }
                drop(pasting);
                if text.is_empty() && cut.is_none() {
                    return Some(Cmd::Noop);
                }
                let fits = self.fits();
                let insert =
                    lock(&self.pastes).insert_pasted(ctx.line(), ctx.pos(), &text, cut, fits);
                Some(Cmd::Insert(1, insert))
            }
            (Action::PasteStart, Some(_)) => Some(Cmd::Noop),
            (_, Some(paste)) => {
                paste.push(event);
                paste.last = Some(now);
                Some(Cmd::Noop)
            }
            (_, None) => None,
        }
    }

    /// A key that types a character (rustyline's `SelfInsert`, `n` times): what it does to
    /// the line ([`crate::paste::Pastes::type_in`]: its beginning folded when the line with
    /// the key would not fit); `None` for any other key.
    fn typed_key(
        &self,
        event: &Event,
        n: RepeatCount,
        positive: bool,
        ctx: &EventContext,
    ) -> Option<Typing> {
        let Event::KeySeq(keys) = event else {
            return None;
        };
        let [KeyEvent(KeyCode::Char(c), Modifiers::NONE)] = keys.as_slice() else {
            return None;
        };
        if !positive {
            return None;
        }
        // At most 65535 (`RepeatCount`): well within a paste's bound.
        let n = usize::from(n).max(1);
        let typed = c.to_string().repeat(n);
        // The editor's text is full ([`crate::limits::MAX_EDITOR_TEXT_BYTES`]): the key is
        // dropped, as one past a fold's bound is.
        if self.held(ctx.line()) + typed.len() > crate::limits::MAX_EDITOR_TEXT_BYTES {
            return Some(Typing::Dropped);
        }
        let fits = self.fits();
        let typing = lock(&self.pastes).type_in(ctx.line(), ctx.pos(), &typed, fits);
        Some(typing)
    }

    /// Opens the editor again on `before` and `after`, the cursor between: the draft, and the
    /// line undo stops at.
    fn reopen(&self, before: &str, after: &str) {
        let line = format!("{before}{after}");
        self.set_cursor(&line, before.len());
        *lock(&self.floor) = Some(line);
    }

    /// Whether undo (Ctrl+_) would take back the line the editor was opened again on (it is
    /// the line now): the editor's text was never empty there.
    fn at_floor(&self, event: &Event, line: &str) -> bool {
        *event == Event::from(KeyEvent::ctrl('_')) && lock(&self.floor).as_deref() == Some(line)
    }

    /// Whether a paste is being read (its start came, its end not yet).
    fn in_paste(&self) -> bool {
        lock(&self.pasting).is_some()
    }

    /// A byte that is not UTF-8 came in a paste, and rustyline dropped what it had read ahead
    /// (the rest of the paste, its end with it): the paste ends there, with U+FFFD for the
    /// byte. What goes into the shown `line` at byte `pos` (the pasted text or its marker);
    /// `None` when no paste was being read.
    fn end_broken_paste(&self, line: &str, pos: usize) -> Option<String> {
        let mut text = lock(&self.pasting).take()?.text;
        text.push('\u{fffd}');
        let fits = self.fits();
        Some(lock(&self.pastes).insert(line, pos, &text, fits))
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

/// A mutex's value, even after a panic elsewhere.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The window's (rows, columns) now; 24 x 80 when it cannot be told. Asked at every typed key:
/// the terminal is opened once for the run.
fn window() -> (usize, usize) {
    static TERM: std::sync::OnceLock<Option<console::Term>> = std::sync::OnceLock::new();
    let term = TERM.get_or_init(|| {
        let (read, write) = (
            crate::terminal::open_tty().ok()?,
            crate::terminal::open_tty().ok()?,
        );
        Some(console::Term::read_write_pair(read, write))
    });
    let Some(term) = term else {
        return (24, 80);
    };
    let (rows, cols) = term.size();
    (usize::from(rows).max(1), usize::from(cols).max(1))
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
        let hint = self.inner.hint(line, pos, ctx);
        self.watch
            .stop
            .drawn(hint.as_ref().map_or("", |h| h.display()));
        hint
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
        // rustyline asks at every cursor move too (which calls no hint).
        self.watch.set_cursor(line, pos);
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
    /// A typed key folded the line ([`Typing::Folded`]): open again on it, the cursor between.
    Fold(String, String),
}

/// What a bound key does.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Action {
    /// Ends the line and remembers why; with `only_when_empty`, only on an empty line (with
    /// text the key keeps its editing meaning).
    Close { why: Closing, only_when_empty: bool },
    /// Nothing.
    Nothing,
    /// A paste starts (`ESC[200~`).
    PasteStart,
    /// A paste ends (`ESC[201~`).
    PasteEnd,
    /// Every other key: what it does.
    Other,
}

/// Every key's handler: during a paste it collects the key ([`Watch::paste_key`]); else it
/// tells the watch (when watched) and does its [`Action`].
struct Keys {
    action: Action,
    closed: Arc<Mutex<Option<Closing>>>,
    watch: Arc<Watch>,
    /// Keys are told to the watch.
    tell: bool,
}

impl ConditionalEventHandler for Keys {
    fn handle(
        &self,
        event: &Event,
        n: RepeatCount,
        positive: bool,
        ctx: &EventContext,
    ) -> Option<Cmd> {
        let starts = self.action == Action::PasteStart && !self.watch.in_paste();
        if let Some(cmd) = self.watch.paste_key(&self.action, event, ctx) {
            // A paste is one key for the watch: its start and its end.
            if self.tell && (starts || self.action == Action::PasteEnd) {
                self.watch.key();
            }
            return Some(cmd);
        }
        if self.tell {
            self.watch.key();
        }
        match &self.action {
            Action::Close {
                why,
                only_when_empty,
            } => {
                if *only_when_empty && !ctx.line().is_empty() {
                    return None;
                }
                *lock(&self.closed) = Some(why.clone());
                Some(Cmd::AcceptLine)
            }
            Action::Nothing | Action::PasteStart | Action::PasteEnd => Some(Cmd::Noop),
            Action::Other if self.watch.at_floor(event, ctx.line()) => Some(Cmd::Noop),
            // Backspace right after a marker takes the whole marker. rustyline gives a bound
            // command the key's own repeat count (one character), so the editor opens again on
            // the line without it, as after a fold.
            Action::Other
                if *event == Event::from(KeyEvent(KeyCode::Backspace, Modifiers::NONE)) =>
            {
                let (line, pos) = (ctx.line(), ctx.pos());
                let bytes = lock(&self.watch.pastes).marker_before(line, pos)?;
                let (before, after) = (&line[..pos - bytes], &line[pos..]);
                *lock(&self.closed) = Some(Closing::Fold(before.to_string(), after.to_string()));
                Some(Cmd::AcceptLine)
            }
            Action::Other => match self.watch.typed_key(event, n, positive, ctx)? {
                Typing::AsIs => None,
                Typing::Dropped => Some(Cmd::Noop),
                // rustyline cannot put the cursor after a text it replaces (`Cmd::Replace`
                // leaves it before): the read ends, and the editor opens again on the line.
                Typing::Folded { before, after } => {
                    *lock(&self.closed) = Some(Closing::Fold(before, after));
                    Some(Cmd::AcceptLine)
                }
            },
        }
    }
}

/// An editor's ending: how it was closed, and its line as the editor showed it (a folded
/// paste as its marker), which the rows it took are counted from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edited {
    /// How it was closed, with the text (every folded paste expanded).
    pub edit: Edit,
    /// The line as shown.
    pub shown: String,
}

/// Edits one text on the terminal: draws `prompt` (one line, e.g. `"> "`), prefilled with
/// `initial` (cursor at its end), with `helper` for completion, hints or highlighting, on the
/// row under `above` rows that must stay in the window (a paste that would push them out is
/// folded: see the module notes).
///
/// A byte that is not UTF-8 (é from a Latin-1 terminal, an 8-bit Meta key, a stray byte in a
/// paste) becomes U+FFFD at the cursor and the editing goes on, as at the menus: rustyline
/// ends its read there with an `InvalidData` error, so the editor is opened again on the
/// draft with U+FFFD inserted, in the same place. The byte that showed an unfinished
/// character to be broken goes with it (rustyline reads it as part of the character), and
/// so do the bytes rustyline had read ahead (the rest of a paste).
///
/// `watch` has the draft at every change and is told of every key (see the module notes), and
/// what a stop from outside draws again ([`Watch::draw_again_after_stop`]). Meant to run on a
/// thread of its own, so the caller can stop waiting for it (`frontend::tty::backend`).
///
/// Errors: the terminal could not be used (EOF or I/O error other than Ctrl+C/Ctrl+D), or
/// `TERM` names a terminal the editor cannot drive ([`cannot_drive`]).
pub fn edit_line_watched<H: Helper>(
    prompt: &str,
    initial: &str,
    above: usize,
    helper: H,
    watch: Arc<Watch>,
) -> io::Result<Edited> {
    edit(prompt, initial, above, helper, watch, true)
}

/// Most times one editor is opened again after bytes that are not UTF-8 (each time
/// rustyline drops what it had read ahead, up to 1024 bytes): past it the editor ends as a
/// terminal failure.
const MAX_REOPENS: usize = 4096;

/// [`edit_line_watched`]; with `keys`, `watch` is told of every key.
fn edit<H: Helper>(
    prompt: &str,
    initial: &str,
    above: usize,
    helper: H,
    watch: Arc<Watch>,
    keys: bool,
) -> io::Result<Edited> {
    // rustyline's own test: there it would read stdin and write its prompt on stdout, which
    // carries only the result.
    if std::env::var("TERM").is_ok_and(|term| {
        UNDRIVABLE_TERMS
            .iter()
            .any(|known| known.eq_ignore_ascii_case(&term))
    }) {
        return Err(io::Error::other("the editor cannot drive this TERM"));
    }
    let initial = watch.open(prompt, initial, above);
    let mut editor = new_editor(
        Watched {
            inner: helper,
            watch: Arc::clone(&watch),
        },
        Arc::clone(&watch),
        keys,
    )?;
    // Dropped before the editor: its printer writes to the editor's terminal.
    let printer = editor.editor.create_external_printer().ok();
    let _open = continued::Open::new(&watch, printer.map(|p| Box::new(p) as continued::Printer));
    let (mut left, mut right) = (initial, String::new());
    let mut reopens = 0;
    loop {
        let line = editor.readline_with_initial(prompt, (&left, &right));
        let why = editor
            .closed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        let shown = |edit: Edit, shown: String| Ok(Edited { edit, shown });
        return match (line, why) {
            (Ok(line), Some(Closing::Fold(before, after))) => {
                // rustyline ended the line with a line feed after its end.
                back_to_the_prompt(prompt, &line);
                watch.reopen(&before, &after);
                (left, right) = (before, after);
                continue;
            }
            (Ok(line), why) => {
                let text = lock(&watch.pastes).expand(&line);
                let edit = match why {
                    // (A fold opens the editor again, above.)
                    None | Some(Closing::Fold(..)) => Edit::Saved(text),
                    Some(Closing::Esc) => Edit::Closed(text),
                    Some(Closing::Suspend) => Edit::Suspended(text),
                    Some(Closing::Peek) => Edit::Peek(text),
                    Some(Closing::External) => Edit::External(text),
                    Some(Closing::Navigate(key)) => Edit::Navigate(key),
                };
                shown(edit, line)
            }
            (Err(ReadlineError::Interrupted), _) => shown(Edit::Interrupted, String::new()),
            (Err(ReadlineError::Eof), _) => shown(Edit::Closed(String::new()), String::new()),
            (Err(ReadlineError::Io(e)), _) if e.kind() == io::ErrorKind::InvalidData => {
                reopens += 1;
                if reopens > MAX_REOPENS {
                    return Err(io::Error::other(
                        "the terminal sent too many bytes that are not UTF-8",
                    ));
                }
                let draft = watch.shown();
                let before = watch.before_cursor();
                right = draft[before.len()..].to_string();
                left = match watch.end_broken_paste(&draft, before.len()) {
                    Some(pasted) => format!("{before}{pasted}"),
                    None => format!("{before}\u{fffd}"),
                };
                watch.reopen(&left, &right);
                back_to_the_prompt(prompt, &before);
                continue;
            }
            (Err(e), _) => Err(to_io(e)),
        };
    }
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

/// The editor with pi-ask's configuration and key bindings, every key through a [`Keys`]
/// handler; with `tell`, every key is told to `watch`.
fn new_editor<H: Helper>(helper: H, watch: Arc<Watch>, tell: bool) -> io::Result<Bound<H>> {
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
    let mut on = |event: Event, action: Action| {
        editor.bind_sequence(
            event,
            EventHandler::Conditional(Box::new(Keys {
                action,
                closed: Arc::clone(&closed),
                watch: Arc::clone(&watch),
                tell,
            })),
        );
    };
    let mut bind = |event: Event, why: Closing, only_when_empty: bool| {
        on(
            event,
            Action::Close {
                why,
                only_when_empty,
            },
        )
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
    on(KeyEvent::ctrl('L').into(), Action::Nothing);
    // Ctrl+Q is what a person presses after a Ctrl+S that froze nothing (XON; raw mode has no
    // flow control): rustyline would take it as a quoted insert and put the next key, Enter's
    // CR, into the text unseen. It does nothing.
    on(KeyEvent::ctrl('Q').into(), Action::Nothing);
    // Pastes are read here (see the module notes).
    on(
        KeyEvent(KeyCode::BracketedPasteStart, Modifiers::NONE).into(),
        Action::PasteStart,
    );
    on(
        KeyEvent(KeyCode::BracketedPasteEnd, Modifiers::NONE).into(),
        Action::PasteEnd,
    );
    on(Event::Any, Action::Other);
    Ok(Bound { editor, closed })
}

/// After rustyline ended its read (it then writes a line feed at the cursor: in the middle of
/// a line after bytes that are not UTF-8, at its end after a fold), moves the cursor back to
/// the first column of the prompt's row and erases from there down, so the editor opened
/// again draws over itself, a shorter line leaving nothing of the longer one: up the rows
/// that `prompt` and the text `before` the cursor take in the terminal's width, and one more.
/// Nothing of the block is below the editor's row.
fn back_to_the_prompt(prompt: &str, before: &str) {
    let (Ok(read), Ok(write)) = (crate::terminal::open_tty(), crate::terminal::open_tty()) else {
        return;
    };
    let cols = usize::from(console::Term::read_write_pair(read, write).size().1).max(1);
    let up = crate::text::editor_cursor(prompt, before, cols).0 + 1;
    // rustyline writes on its own: this goes first.
    if crate::terminal::write_tty(format!("\x1b[{up}A\r\x1b[J").as_bytes()).is_ok() {
        crate::terminal::drain_tty(std::time::Duration::from_secs(1));
    }
}

fn to_io(e: ReadlineError) -> io::Error {
    match e {
        ReadlineError::Io(e) => e,
        other => io::Error::other(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undo_stops_at_the_line_the_editor_was_opened_again_on() {
        let watch = Watch::new(|| {});
        let undo = Event::from(KeyEvent::ctrl('_'));
        assert!(!watch.at_floor(&undo, ""));
        watch.reopen("[text #1 30 chars] the lazy d", "og");
        assert_eq!(watch.before_cursor(), "[text #1 30 chars] the lazy d");
        assert!(watch.at_floor(&undo, "[text #1 30 chars] the lazy dog"));
        // Typed since: undo takes that back.
        assert!(!watch.at_floor(&undo, "[text #1 30 chars] the lazy dog!"));
        let other = Event::from(KeyEvent::ctrl('U'));
        assert!(!watch.at_floor(&other, "[text #1 30 chars] the lazy dog"));
        watch.open("> ", "", 1);
        assert!(!watch.at_floor(&undo, "[text #1 30 chars] the lazy dog"));
    }

    #[test]
    fn a_paste_keeps_no_more_than_the_editors_text_has_room_for() {
        use crate::limits::{MAX_EDITOR_PASTE_BYTES, MAX_EDITOR_TEXT_BYTES};
        use crate::paste::Cut;
        let now = std::time::Instant::now();
        let typed = |paste: &mut Pasting, text: &str| {
            for c in text.chars() {
                paste.push(&Event::from(KeyEvent(KeyCode::Char(c), Modifiers::NONE)));
            }
        };
        // Room for a whole paste: nothing cut.
        let mut paste = Pasting::new(now, MAX_EDITOR_TEXT_BYTES - MAX_EDITOR_PASTE_BYTES);
        typed(&mut paste, "abcdef");
        assert_eq!((paste.text.as_str(), paste.cut()), ("abcdef", None));
        // Three bytes of room: three kept, the marker says the text is full.
        let mut paste = Pasting::new(now, MAX_EDITOR_TEXT_BYTES - 3);
        typed(&mut paste, "abcdef");
        assert_eq!((paste.text.as_str(), paste.cut()), ("abc", Some(Cut::Full)));
        // Full already: nothing kept, and it says so.
        let mut paste = Pasting::new(now, MAX_EDITOR_TEXT_BYTES + 10);
        typed(&mut paste, "x");
        assert_eq!((paste.text.as_str(), paste.cut()), ("", Some(Cut::Full)));
    }
}

//! A stop from outside while an editor reads (`kill -TSTP`, `kill -STOP`, then `fg`;
//! docs/interactive.md "Placement"). rustyline notices nothing: its read goes on in the modes
//! the shell left (canonical, echo) and nothing is drawn again. So one thread of its own waits
//! for SIGCONT ([`Open::new`] starts it with the first editor); when an editor is open it
//! [`continued`]:
//!
//! - the editor's raw modes again (rustyline's, read when it first drew the line), and
//!   bracketed paste on (the shell turned it off);
//! - the block drawn again at the cursor, under the shell's lines, and the editor under it: the
//!   front end's bytes for that ([`super::Watch::draw_again_after_stop`]: the region started
//!   again, then the block drawn) go through rustyline's external printer, which clears the
//!   editor's rows, writes them and draws the prompt and the line again, its cursor where it
//!   was. The editor's rows are made first (line feeds), so clearing them clears no shell line.
//!
//! The front end learns of it when the editor closes ([`super::Watch::take_continued`]) and
//! takes the region as restarted and drawn; with `--timeout` the continue starts the time
//! again, as a key does (`frontend::tty::backend`, through `keys::take_continued`).
//!
//! A stop pi-ask makes itself (Ctrl+Z) closes the editor first ([`super::Edit::Suspended`]), so
//! no editor is open when it is continued. SIGTSTP is not caught: a handler could never give
//! the signal its default action back (signal-hook has no way, and `sigaction` is unsafe), so
//! every stop, Ctrl+Z's too, would have to be a SIGSTOP, which some shells report as another
//! stop (zsh: `suspended (signal)`, not `suspended`; bash 5.2 says `Stopped` to both).

use super::{lock, window, Watch};
use nix::sys::termios::{self, SetArg, Termios};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Once};
use std::time::{Duration, Instant};

/// rustyline's printer from another thread into its read loop.
pub(super) type Printer = Box<dyn rustyline::ExternalPrinter + Send>;

/// Bracketed paste on.
const PASTE_ON: &str = "\x1b[?2004h";

/// How long an editor that closes waits for a print in progress to end before it goes on (a
/// print waits only while rustyline has not taken the one before).
const PRINT_WAIT: Duration = Duration::from_millis(100);

/// What a stop from outside needs of one open editor.
#[derive(Default)]
pub(super) struct AfterStop {
    /// The bytes that draw the block again at the cursor.
    again: Mutex<String>,
    /// The editor's raw modes, read when it first drew its line.
    raw: Mutex<Option<Termios>>,
    /// The hint shown after the line (its rows are the editor's too).
    hint: Mutex<String>,
    /// rustyline's external printer, while the editor reads.
    printer: Mutex<Option<Printer>>,
    /// The block and the editor were drawn again since the front end last asked.
    continued: AtomicBool,
    /// The front end gave the editor up (a timeout): a continue draws nothing.
    given_up: AtomicBool,
}

impl AfterStop {
    /// Sets what draws the block again after a stop.
    pub(super) fn set_again(&self, bytes: String) {
        *lock(&self.again) = bytes;
    }

    /// Writes `bytes` through the open editor's printer ([`printed`]): rustyline clears its
    /// rows, writes them and draws its prompt and line under them. Whether it could (no
    /// printer: no editor reads).
    pub(super) fn print(&self, bytes: String) -> bool {
        let mut printer = lock(&self.printer);
        printer
            .as_mut()
            .is_some_and(|p| p.print(printed(bytes)).is_ok())
    }

    /// A new editor on the same watch: its modes are read again.
    pub(super) fn reopen(&self) {
        *lock(&self.raw) = None;
        lock(&self.hint).clear();
    }

    /// The editor drew its line (rustyline calls the hint then): its raw modes are read, once.
    pub(super) fn drawn(&self, hint: &str) {
        if *lock(&self.hint) != hint {
            hint.clone_into(&mut lock(&self.hint));
        }
        let mut raw = lock(&self.raw);
        if raw.is_none() {
            *raw = crate::terminal::open_tty()
                .ok()
                .and_then(|tty| termios::tcgetattr(&tty).ok());
        }
    }

    /// Whether the block and the editor were drawn again since the last call.
    pub(super) fn take_continued(&self) -> bool {
        self.continued.swap(false, Ordering::SeqCst)
    }

    /// The editor is given up: nothing is drawn for it any more.
    pub(super) fn give_up(&self) {
        self.given_up.store(true, Ordering::SeqCst);
    }
}

/// The editor open now, the one a continue is for.
static OPEN: Mutex<Option<Arc<Watch>>> = Mutex::new(None);

/// Set by the SIGCONT handler itself; cleared when an editor opens. The thread may wake late
/// (a loaded machine), after the editor Ctrl+Z closed has opened again: a continue from
/// before it opened is not its own.
static SIGNALLED: std::sync::LazyLock<Arc<AtomicBool>> = std::sync::LazyLock::new(Default::default);

/// While alive, `watch`'s editor is the open one; its printer is dropped with it, before the
/// editor (whose terminal the printer writes to).
pub(super) struct Open {
    watch: Arc<Watch>,
}

impl Open {
    /// `watch`'s editor is open, with `printer` (none: a continue sets the modes only).
    pub(super) fn new(watch: &Arc<Watch>, printer: Option<Printer>) -> Open {
        wait_for_continues();
        *lock(&watch.stop.printer) = printer;
        SIGNALLED.store(false, Ordering::SeqCst);
        *lock(&OPEN) = Some(Arc::clone(watch));
        Open {
            watch: Arc::clone(watch),
        }
    }
}

impl Drop for Open {
    fn drop(&mut self) {
        {
            let mut open = lock(&OPEN);
            if open.as_ref().is_some_and(|w| Arc::ptr_eq(w, &self.watch)) {
                *open = None;
            }
        }
        // A print in progress ends at once, or waits for rustyline to take the one before:
        // that ends when the editor's terminal is dropped, right after.
        let start = Instant::now();
        while start.elapsed() < PRINT_WAIT {
            if let Ok(mut printer) = self.watch.stop.printer.try_lock() {
                printer.take();
                return;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

/// Starts the thread that waits for SIGCONT, once (nothing when it cannot be started: a stop
/// then leaves the editor as the shell left the terminal).
fn wait_for_continues() {
    static STARTED: Once = Once::new();
    STARTED.call_once(|| {
        if signal_hook::flag::register(signal_hook::consts::SIGCONT, Arc::clone(&SIGNALLED))
            .is_err()
        {
            return;
        }
        let Ok(mut signals) = signal_hook::iterator::Signals::new([signal_hook::consts::SIGCONT])
        else {
            return;
        };
        let _ = std::thread::Builder::new()
            .name("pi-ask-continued".into())
            .spawn(move || {
                for _ in signals.forever() {
                    let open = lock(&OPEN).clone();
                    if let Some(watch) = open {
                        if SIGNALLED.swap(false, Ordering::SeqCst) {
                            continued(&watch);
                        }
                    }
                }
            });
    });
}

/// The process was continued with `watch`'s editor open: its modes, bracketed paste, the
/// block and the editor drawn again at the cursor (see the module notes).
fn continued(watch: &Watch) {
    let stop = &watch.stop;
    if stop.given_up.load(Ordering::SeqCst) {
        return;
    }
    crate::terminal::wait_for_the_foreground(None);
    let raw = lock(&stop.raw).clone();
    if let (Some(raw), Ok(tty)) = (raw, crate::terminal::open_tty()) {
        let _ = termios::tcsetattr(&tty, SetArg::TCSANOW, &raw);
    }
    let mut printer = lock(&stop.printer);
    let Some(printer) = printer.as_mut() else {
        let _ = crate::terminal::write_tty(PASTE_ON.as_bytes());
        return;
    };
    let again = lock(&stop.again).clone();
    let prompt = lock(&watch.room).0.clone();
    let hint = lock(&stop.hint).clone();
    let first = make_rows(
        &prompt,
        &watch.before_cursor(),
        &watch.shown(),
        &hint,
        window().1,
    );
    if crate::terminal::write_tty(format!("{PASTE_ON}{first}").as_bytes()).is_err() {
        return;
    }
    crate::terminal::drain_tty(Duration::from_secs(1));
    if printer.print(printed(again)).is_ok() {
        stop.continued.store(true, Ordering::SeqCst);
    }
}

/// What makes the rows an editor takes under the cursor, at the left of a row after the
/// shell's, and puts the cursor on the row of the editor's cursor, as rustyline expects it
/// before it clears them: one line feed for each row under the first (the prompt, the line
/// and the hint at `cols` columns, rustyline's layout), then up from the last to the cursor's
/// (the text `before` it).
fn make_rows(prompt: &str, before: &str, line: &str, hint: &str, cols: usize) -> String {
    let cursor = crate::text::editor_cursor(prompt, before, cols).0;
    let end = crate::text::editor_cursor(prompt, &format!("{line}{hint}"), cols)
        .0
        .max(cursor);
    let mut out = "\n".repeat(end);
    if end > cursor {
        out.push_str(&format!("\x1b[{}A", end - cursor));
    }
    out
}

/// The message for rustyline's printer from the front end's bytes `again`, which leave the
/// cursor at the left of the editor's row: rustyline follows a message with a line feed unless
/// it ends with one, so one that does not ends one row up and with a line feed.
fn printed(mut again: String) -> String {
    if !again.ends_with('\n') {
        again.push_str("\x1b[A\n");
    }
    again
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_row_needs_nothing_made() {
        assert_eq!(make_rows("> ", "draft", "draft", "", 80), "");
        assert_eq!(make_rows("> ", "", "", "Type answer...", 80), "");
    }

    #[test]
    fn the_rows_under_the_first_are_made_and_the_cursor_put_on_its_row() {
        // 2 + 100 columns at 80: two rows, the cursor at the end.
        let line = "x".repeat(100);
        assert_eq!(make_rows("> ", &line, &line, "", 80), "\n");
        // The cursor on the first row: up from the second.
        assert_eq!(make_rows("> ", "xx", &line, "", 80), "\n\x1b[1A");
        // A hint that wraps takes a row too.
        let hint = "h".repeat(80);
        assert_eq!(make_rows("> ", "ab", "ab", &hint, 80), "\n\x1b[1A");
    }

    #[test]
    fn a_message_ends_where_rustyline_draws_the_prompt() {
        assert_eq!(printed("a\r\nb\r\n".into()), "a\r\nb\r\n");
        assert_eq!(
            printed("\x1b[H\x1b[2Ja\x1b[2;1H\x1b[K".into()),
            "\x1b[H\x1b[2Ja\x1b[2;1H\x1b[K\x1b[A\n"
        );
    }
}

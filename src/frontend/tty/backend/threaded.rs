//! Every editor on a thread of its own ([`TtyBackend`]).
//!
//! rustyline blocks in its own read until a key closes the editor: it has no timeout, and
//! nothing from outside makes it return (with its `signal-hook` feature only SIGWINCH reaches
//! it, and it redraws its own line and reads on; other signals are retried). So the real
//! terminal runs each editor on a thread of its own ([`editor::edit_line_watched`]) and waits
//! for it on a channel, at most as long as [`Backend::edit`] is told: the editor's key handlers
//! send every key (so the front end starts the time again and clears its countdown at once),
//! its helper records the draft at every change of the line, and a resize or a continue
//! signal sends a wake ([`wake_on_signals`]; without it, the wait looks every [`RESIZE_POLL`]).
//!
//! - A resize ends the wait: the front end lays its block out again for the new size and
//!   draws it through the editor's printer, which clears the editor's rows, writes the block
//!   and draws the editor again under it ([`Backend::draw_above_editor`]).
//! - When the time of `--timeout` is up, the front end gives the editor up
//!   ([`Backend::abandon_edit`]): it takes the watched draft, saves it as Esc would, and ends
//!   the flow. The editor's thread stays blocked in its read until the process exits right
//!   after, which is safe because nothing else reads the terminal any more (the flow is over;
//!   the terminal is restored, its input flushed, and the result written by the main thread,
//!   exactly once as always), and the thread owns nothing the exit needs.

use super::{Backend, EditWait, TtyBackend, PASTE_ON};
use crate::complete::AtCompleter;
use crate::editor::{self, Edited, Watch};
use std::io;
use std::sync::{mpsc, Arc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// What an editor opens with ([`Backend::edit`]).
pub(super) struct Opening {
    pub(super) prompt: String,
    pub(super) initial: String,
    pub(super) above: usize,
    pub(super) again: String,
}

/// An editor running on its own thread ([`editor::edit_line_watched`]).
pub(super) struct OpenEditor {
    /// Its keys and its outcome.
    events: mpsc::Receiver<FromEditor>,
    /// Its draft.
    pub(super) watch: Arc<Watch>,
    /// The thread, to pass a panic on.
    thread: JoinHandle<()>,
}

/// How often a wait for the editor looks whether the window was resized when no signal wakes it
/// ([`wake_on_signals`] could not start).
const RESIZE_POLL: Duration = Duration::from_millis(50);

/// What the editor's thread (and the signals' forwarder) sends.
enum FromEditor {
    /// A key was typed, at this time.
    Key(Instant),
    /// The editor closed.
    Closed(io::Result<Edited>),
    /// `SIGWINCH` or `SIGCONT` came: the window may have changed, or pi-ask was continued.
    Signal,
}

/// Where the signals' forwarder sends its wakes: the open editor's channel.
static WAKE: std::sync::Mutex<Option<mpsc::Sender<FromEditor>>> = std::sync::Mutex::new(None);

/// Starts, once, a thread that sends [`FromEditor::Signal`] to the open editor's channel
/// ([`WAKE`]) at every `SIGWINCH` and `SIGCONT`, so a wait for the editor sleeps until
/// something happens. Their handlers are added after the ones that mark the size stale and the
/// continue taken (signal-hook runs a signal's handlers in the order they were added), so a
/// woken wait finds those marks set. Returns whether the thread runs.
fn wake_on_signals() -> bool {
    static STARTED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *STARTED.get_or_init(|| {
        use signal_hook::consts::{SIGCONT, SIGWINCH};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGWINCH, SIGCONT]) else {
            return false;
        };
        std::thread::Builder::new()
            .name("pi-ask-wakes".into())
            .spawn(move || {
                for _ in signals.forever() {
                    let wake = WAKE.lock().unwrap_or_else(|e| e.into_inner());
                    if let Some(send) = wake.as_ref() {
                        let _ = send.send(FromEditor::Signal);
                    }
                }
            })
            .is_ok()
    })
}

impl TtyBackend {
    /// Opens an editor on a thread of its own (see the module notes).
    pub(super) fn open_editor(
        &mut self,
        opening: Opening,
        completer: &AtCompleter,
    ) -> io::Result<()> {
        let (send, events) = mpsc::channel();
        *WAKE.lock().unwrap_or_else(|e| e.into_inner()) = Some(send.clone());
        let keys = send.clone();
        let watch = Watch::new(move || {
            let _ = keys.send(FromEditor::Key(Instant::now()));
        });
        watch.draw_again_after_stop(opening.again);
        let (prompt, initial, above) = (opening.prompt, opening.initial, opening.above);
        let (completer, watched) = (completer.clone(), Arc::clone(&watch));
        let thread = std::thread::Builder::new()
            .name("pi-ask-editor".into())
            .spawn(move || {
                let edit = editor::edit_line_watched(&prompt, &initial, above, completer, watched);
                let _ = send.send(FromEditor::Closed(edit));
            })?;
        self.editor = Some(OpenEditor {
            events,
            watch,
            thread,
        });
        self.edit_continued = false;
        Ok(())
    }

    /// Waits for the open editor at most `wait` (`None`: until it closes), or until the window
    /// is resized (the front end lays its block out again: `EditWait::Open` with no key).
    pub(super) fn wait_editor(&mut self, wait: Option<Duration>) -> io::Result<EditWait> {
        let Some(open) = &self.editor else {
            return Err(io::Error::other("no editor is open"));
        };
        let until = wait.and_then(|w| Instant::now().checked_add(w));
        let woken = wake_on_signals();
        let got = loop {
            let left = until.map(|u| u.saturating_duration_since(Instant::now()));
            let slice = match (left, woken) {
                (Some(left), true) => Some(left),
                (None, true) => None,
                (left, false) => Some(left.map_or(RESIZE_POLL, |l| l.min(RESIZE_POLL))),
            };
            let event = match slice {
                Some(slice) => open.events.recv_timeout(slice),
                None => open
                    .events
                    .recv()
                    .map_err(|_| mpsc::RecvTimeoutError::Disconnected),
            };
            match event {
                Err(mpsc::RecvTimeoutError::Timeout) | Ok(FromEditor::Signal) => {
                    // Continued after a stop from outside: the time starts again, as after
                    // Ctrl+Z.
                    if crate::keys::take_continued() {
                        // Drawn again under the shell's lines: where the region is now, only
                        // the editor's closing tells (`Backend::draw_above_editor` declines).
                        self.edit_continued = true;
                        return Ok(EditWait::Open {
                            last_key: Some(Instant::now()),
                        });
                    }
                    if self.size.may_have_changed() || until.is_some_and(|u| Instant::now() >= u) {
                        return Ok(EditWait::Open { last_key: None });
                    }
                }
                Ok(FromEditor::Key(at)) => return Ok(EditWait::Open { last_key: Some(at) }),
                Ok(FromEditor::Closed(edit)) => break Ok(edit),
                Err(mpsc::RecvTimeoutError::Disconnected) => break Err(()),
            }
        };
        match got {
            Ok(edit) => {
                *WAKE.lock().unwrap_or_else(|e| e.into_inner()) = None;
                if let Some(open) = self.editor.take() {
                    self.editor_ended(&open.watch);
                }
                // rustyline switches bracketed paste off when it ends.
                self.write(PASTE_ON)?;
                edit.map(EditWait::Closed)
            }
            Err(()) => {
                // The thread ended without an outcome: it panicked; pass the panic on (the
                // panic handler of main writes the `internal` result).
                let open = self.editor.take().expect("an open editor");
                match open.thread.join() {
                    Err(panic) => std::panic::resume_unwind(panic),
                    Ok(()) => Err(io::Error::other("the editor ended without an outcome")),
                }
            }
        }
    }
}

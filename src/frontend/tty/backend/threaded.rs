//! An editor on a thread of its own, for `--timeout` ([`TtyBackend`]).
//!
//! rustyline blocks in its own read until a key closes the editor: it has no timeout, and
//! nothing from outside makes it return (with its `signal-hook` feature only SIGWINCH reaches
//! it, and it redraws and reads on; other signals are retried). So with a timeout the real
//! terminal runs each editor on a thread of its own ([`editor::edit_line_watched`]) and waits
//! for it on a channel, at most as long as [`Backend::edit`] is told: the editor's key
//! handlers send every key (so the front end starts the time again and clears its
//! countdown at once) and its helper records the draft at every change of the line. When
//! the time is up, the front end gives the editor up ([`Backend::abandon_edit`]): it takes
//! the watched draft, saves it as Esc would, and ends the flow. The editor's thread stays
//! blocked in its read until the process exits right after, which is safe because nothing
//! else reads the terminal any more (the flow is over; the terminal is restored, its input
//! flushed, and the result written by the main thread, exactly once as always), and the
//! thread owns nothing the exit needs. Without a timeout the editor runs on the calling
//! thread, as it always did.

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

/// What the editor's thread sends.
enum FromEditor {
    /// A key was typed, at this time.
    Key(Instant),
    /// The editor closed.
    Closed(io::Result<Edited>),
}

impl TtyBackend {
    /// Opens an editor on a thread of its own (see the module notes).
    pub(super) fn open_editor(
        &mut self,
        opening: Opening,
        completer: &AtCompleter,
    ) -> io::Result<()> {
        let (send, events) = mpsc::channel();
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
        Ok(())
    }

    /// Waits for the open editor at most `wait` (`None`: until it closes).
    pub(super) fn wait_editor(&mut self, wait: Option<Duration>) -> io::Result<EditWait> {
        let Some(open) = &self.editor else {
            return Err(io::Error::other("no editor is open"));
        };
        let got = match wait {
            None => open.events.recv().map_err(|_| ()),
            Some(wait) => match open.events.recv_timeout(wait) {
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    // Continued after a stop from outside: the time starts again, as after
                    // Ctrl+Z (the SIGCONT handler runs on this thread as it wakes up).
                    let last_key = crate::keys::take_continued().then(Instant::now);
                    return Ok(EditWait::Open { last_key });
                }
                other => other.map_err(|_| ()),
            },
        };
        match got {
            Ok(FromEditor::Key(at)) => Ok(EditWait::Open { last_key: Some(at) }),
            Ok(FromEditor::Closed(edit)) => {
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

//! The window's size as the terminal backend last read it ([`WindowSize`]).

use std::io;
use std::sync::Arc;

/// The window's size as last read, read again once it may have changed.
///
/// Two things say it may have, and both are needed:
/// - a resize event from the key reader ([`WindowSize::forget`]): the reader's wake may come
///   before the flag below is set, and the frame it causes must not read the old size;
/// - a flag that `SIGWINCH` and `SIGCONT` set: while an editor reads, the key reader does not,
///   and a window resized while pi-ask was stopped sends it no `SIGWINCH`.
///
/// The handlers are removed when the value is dropped.
pub(super) struct WindowSize {
    last: std::cell::Cell<Option<(usize, usize)>>,
    stale: Arc<std::sync::atomic::AtomicBool>,
    handlers: Vec<signal_hook::SigId>,
}

impl WindowSize {
    /// A size not read yet, whose flag the resize and continue signals set.
    ///
    /// Errors: a handler could not be installed.
    pub(super) fn watched() -> io::Result<WindowSize> {
        use signal_hook::consts::{SIGCONT, SIGWINCH};
        let mut size = WindowSize::unwatched();
        for signal in [SIGWINCH, SIGCONT] {
            let id = signal_hook::flag::register(signal, Arc::clone(&size.stale))?;
            size.handlers.push(id);
        }
        Ok(size)
    }

    /// A size not read yet, with no signal handlers (only [`WindowSize::forget`] marks it).
    fn unwatched() -> WindowSize {
        WindowSize {
            last: std::cell::Cell::new(None),
            stale: Arc::new(std::sync::atomic::AtomicBool::new(false)),
            handlers: Vec::new(),
        }
    }

    /// The size as last read, or `read()` (rows, columns) when none is, or when it may have
    /// changed since.
    pub(super) fn get(&self, read: impl FnOnce() -> (usize, usize)) -> (usize, usize) {
        let stale = self.stale.swap(false, std::sync::atomic::Ordering::SeqCst);
        if let (false, Some(size)) = (stale, self.last.get()) {
            return size;
        }
        let size = read();
        self.last.set(Some(size));
        size
    }

    /// The window was resized: the next [`WindowSize::get`] reads it again.
    pub(super) fn forget(&self) {
        self.last.set(None);
    }
}

impl Drop for WindowSize {
    fn drop(&mut self) {
        for id in self.handlers.drain(..) {
            signal_hook::low_level::unregister(id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::WindowSize;
    use std::cell::Cell;

    /// A resize event reads the size again even when the signal's flag was not set yet (its
    /// handler may run after the wake that caused the event): the frame it draws is laid out
    /// for the new size, not the old one.
    #[test]
    fn a_resize_event_reads_the_size_again_without_the_signals_flag() {
        let size = WindowSize::unwatched();
        let window = Cell::new((24, 80));
        assert_eq!(size.get(|| window.get()), (24, 80));
        window.set((12, 80));
        assert_eq!(size.get(|| window.get()), (24, 80), "read once, kept");
        size.forget();
        assert_eq!(size.get(|| window.get()), (12, 80));
        window.set((30, 100));
        size.stale.store(true, std::sync::atomic::Ordering::SeqCst);
        assert_eq!(size.get(|| window.get()), (30, 100), "the signal's flag");
    }
}

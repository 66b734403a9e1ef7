//! The fake terminal as a [`Backend`]: what the front end calls on it.

use super::term::Writer;
use super::{FakeBackend, Next};
use crate::frontend::tty::backend::Backend;
use crate::keys::{Clock, Event};
use std::io;
use std::time::{Duration, Instant};

impl Backend for FakeBackend {
    fn size(&self) -> (usize, usize) {
        self.size
    }

    fn now(&self) -> Instant {
        self.clock.now()
    }

    fn write(&mut self, bytes: &str) -> io::Result<()> {
        if self.before.is_none() {
            let rows = self.all_rows();
            self.before = Some(
                rows.into_iter()
                    .enumerate()
                    .filter(|(_, text)| !text.is_empty())
                    .collect(),
            );
            self.narrowest = self.size.1;
        }
        self.written.push_str(bytes);
        self.write_ends.push(self.written.len());
        let n = self.term.writes;
        self.term.writes += 1;
        self.term.write(bytes, Writer::Frame(n));
        Ok(())
    }

    fn event(&mut self, timeout: Option<Duration>) -> io::Result<Event> {
        Ok(match self.next(timeout)? {
            Next::Event(event) => event,
            Next::Waited => Event::Timeout,
        })
    }

    fn resize_traits(&self) -> (bool, bool) {
        // vt100 cuts and pads rows, never rewraps them; the rows it pulls back on a taller
        // window are told by the cursor's row (whatever the environment the tests run in).
        (false, false)
    }

    fn cursor_row(&mut self) -> io::Result<Option<usize>> {
        // The vt100 screen answers at once, as a terminal does.
        Ok(Some(self.term.cursor().0))
    }

    fn suspend(&mut self, wait: Option<Duration>) -> io::Result<bool> {
        self.suspends += 1;
        let Some(background) = self.background_after_stop else {
            return Ok(true);
        };
        match wait {
            Some(wait) if wait <= background => {
                self.clock.advance(wait);
                self.written_when_left = Some(self.written.len());
                Ok(false)
            }
            _ => {
                self.clock.advance(background);
                Ok(true)
            }
        }
    }

    fn show_main_screen(&mut self, _show: bool) -> io::Result<()> {
        Ok(())
    }

    fn finish(&mut self) {}
}

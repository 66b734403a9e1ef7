//! The fake terminal as a [`Backend`]: what the front end calls on it.

use super::term::Writer;
use super::{fits, FakeBackend, Next, OpenEditor};
use crate::complete::AtCompleter;
use crate::editor::{Edit, Edited};
use crate::frontend::tty::backend::{Backend, EditWait};
use crate::keys::{Clock, Event, Key};
use crate::paste::Typing;
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
        if std::mem::take(&mut self.resize_pending) {
            return Ok(Event::Resize);
        }
        Ok(match self.next(timeout)? {
            Next::Event(event) => event,
            Next::Waited => Event::Timeout,
        })
    }

    fn edit(
        &mut self,
        prompt: &str,
        initial: &str,
        above: usize,
        _again: &str,
        _: &AtCompleter,
        wait: Option<Duration>,
    ) -> io::Result<EditWait> {
        if self.editor.is_none() {
            let origin = self.term.scrolled() + self.term.cursor().0;
            let mut pastes = crate::paste::Pastes::default();
            let text = pastes.initial(initial, fits(self.size, prompt, above));
            self.editor = Some(OpenEditor {
                prompt: prompt.to_string(),
                text,
                pastes,
                above,
                origin,
                rows: 1,
            });
            self.echo(false);
        }
        loop {
            let event = match self.next(wait)? {
                Next::Waited if wait.is_some() => return Ok(EditWait::Open { last_key: None }),
                Next::Waited => continue,
                Next::Event(Event::Resize) => {
                    self.resize_pending = true;
                    self.echo(false);
                    continue;
                }
                Next::Event(event) => event,
            };
            let text = self
                .editor
                .as_ref()
                .map_or(String::new(), |e| e.pastes.expand(&e.text));
            let text = text.as_str();
            let size = self.size;
            let closed = match event {
                Event::Key(Key::Enter) => Edit::Saved(text.to_string()),
                Event::Key(Key::Esc) => Edit::Closed(text.to_string()),
                Event::Key(Key::Ctrl('c')) => Edit::Interrupted,
                Event::Key(Key::Ctrl('d')) if text.is_empty() => Edit::Closed(String::new()),
                Event::Key(Key::Ctrl('z')) => Edit::Suspended(text.to_string()),
                Event::Key(Key::Ctrl(']')) => Edit::Peek(text.to_string()),
                Event::Key(key @ (Key::Up | Key::Down | Key::Tab | Key::BackTab))
                | Event::Key(key @ (Key::Left | Key::Right))
                    if text.is_empty() =>
                {
                    Edit::Navigate(key)
                }
                Event::Key(key) => {
                    if let Some(editor) = &mut self.editor {
                        match key {
                            Key::Char(c) => {
                                let fits = fits(size, &editor.prompt, editor.above);
                                let at = editor.text.len();
                                let typed = c.to_string();
                                match editor.pastes.type_in(&editor.text, at, &typed, fits) {
                                    Typing::AsIs => editor.text.push(c),
                                    Typing::Folded { before, .. } => editor.text = before,
                                    Typing::Dropped => {}
                                }
                            }
                            Key::Paste(p) => {
                                let fits = fits(size, &editor.prompt, editor.above);
                                let insert =
                                    editor
                                        .pastes
                                        .insert(&editor.text, editor.text.len(), &p, fits);
                                editor.text.push_str(&insert);
                            }
                            Key::Backspace => {
                                editor.text.pop();
                            }
                            _ => {}
                        }
                    }
                    self.echo(false);
                    if wait.is_some() {
                        // A key in an editor with a timeout: the front end hears of it.
                        return Ok(EditWait::Open {
                            last_key: Some(self.clock.now()),
                        });
                    }
                    continue;
                }
                Event::Resize | Event::Timeout => continue,
            };
            // rustyline leaves its line on the screen and ends it with a line feed.
            self.echo(true);
            let shown = match &closed {
                Edit::Navigate(_) | Edit::Interrupted => String::new(),
                _ => self.editor.take().map(|e| e.text).unwrap_or_default(),
            };
            self.editor = None;
            return Ok(EditWait::Closed(Edited {
                edit: closed,
                shown,
            }));
        }
    }

    fn abandon_edit(&mut self) -> String {
        self.editor
            .take()
            .map(|e| e.pastes.expand(&e.text))
            .unwrap_or_default()
    }

    fn editor_cursor(&self) -> String {
        self.editor
            .as_ref()
            .map(|e| e.text.clone())
            .unwrap_or_default()
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

//! The pager: a full-screen view of a long text (a preview, an option's full text) where
//! every line can be reached.

use super::screen::Frame;
use super::{Backend, Input, Tty};
use crate::keys::Key;
use crate::text::for_terminal;
use crate::text::{fit, wrap};
use std::io;

impl<B: Backend> Tty<'_, B> {
    /// A full-screen pager over `text`: every line reachable. ↑ ↓ (j k) scroll a line,
    /// Space / PageDown and b / PageUp a page, Home / End (g G); q, Esc or Enter return.
    pub(super) fn pager(&mut self, title: &str, text: &str) -> io::Result<()> {
        let mut top = 0usize;
        let text = for_terminal(text);
        let mut wrapped: Option<(usize, Vec<String>)> = None;
        loop {
            let width = self.width();
            // Wrap again only when the window width changed.
            if wrapped.as_ref().map(|(w, _)| *w) != Some(width) {
                wrapped = Some((width, wrap(&text, width.saturating_sub(2))));
            }
            let lines = wrapped.as_ref().map(|(_, l)| l.as_slice()).unwrap_or(&[]);
            let height = self.rows().saturating_sub(3).max(1);
            let max_top = lines.len().saturating_sub(height);
            top = top.min(max_top);
            let end = (top + height).min(lines.len());
            let mut frame = vec![fit(
                &format!("lines {}-{} of {} · {title}", top + 1, end, lines.len()),
                width,
            )];
            frame.extend(
                lines[top..end]
                    .iter()
                    .map(|l| fit(&format!("│ {l}"), width)),
            );
            frame.resize(height + 1, String::new());
            frame.push(fit(
                "↑↓ scroll · Space/b page · Home/End · q/Esc/Enter back",
                width,
            ));
            let key = match self.input(Frame::new(frame))? {
                Input::Key(key) => key,
                Input::Relayout => continue,
                Input::Ended => return Ok(()),
            };
            match key {
                Key::Down | Key::Char('j') => top = (top + 1).min(max_top),
                Key::Up | Key::Char('k') => top = top.saturating_sub(1),
                Key::PageDown | Key::Char(' ') => top = (top + height).min(max_top),
                Key::PageUp | Key::Char('b') => top = top.saturating_sub(height),
                Key::Home | Key::Char('g') => top = 0,
                Key::End | Key::Char('G') => top = max_top,
                Key::Esc | Key::Enter | Key::Char('q') => return Ok(()),
                _ => {}
            }
        }
    }
}

//! The pager: a full-screen view of a long text (a preview, an option's full text) where
//! every line can be reached.

use super::Tty;
use crate::frontend::layout::{fit, wrap};
use crate::sanitize::for_terminal;
use console::Key;
use std::io;

impl Tty<'_> {
    /// A full-screen pager over `text`: every line reachable.
    pub(super) fn pager(&self, title: &str, text: &str) -> io::Result<()> {
        let mut top = 0usize;
        self.term.hide_cursor()?;
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
            self.term.clear_screen()?;
            let end = (top + height).min(lines.len());
            self.term.write_line(&fit(
                &format!("lines {}-{} of {} · {title}", top + 1, end, lines.len()),
                width,
            ))?;
            for line in &lines[top..end] {
                self.term.write_line(&fit(&format!("│ {line}"), width))?;
            }
            for _ in end - top..height {
                self.term.write_line("")?;
            }
            self.term.write_str(&fit(
                "↑↓ scroll · Space/b page · Home/End · q/Esc/Enter back",
                width,
            ))?;
            self.term.flush()?;
            match self.term.read_key()? {
                Key::ArrowDown | Key::Char('j') => top = (top + 1).min(max_top),
                Key::ArrowUp | Key::Char('k') => top = top.saturating_sub(1),
                Key::PageDown | Key::Char(' ') => top = (top + height).min(max_top),
                Key::PageUp | Key::Char('b') => top = top.saturating_sub(height),
                Key::Home | Key::Char('g') => top = 0,
                Key::End | Key::Char('G') => top = max_top,
                Key::Escape | Key::Enter | Key::Char('q') => break,
                _ => {}
            }
        }
        self.term.show_cursor()?;
        Ok(())
    }
}

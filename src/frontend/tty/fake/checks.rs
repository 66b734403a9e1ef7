//! What the fake terminal checks after a run: the block within the window, no stale row,
//! and the report of a failure (the "Stale rows" notes of [`super`]).

use super::*;

impl FakeBackend {
    /// The cursor moves the screen cut short, and the live blocks taller than the window's
    /// rows less one (the first two points of "Stale rows" in the module notes).
    pub(super) fn reach_problems(&self) -> Vec<String> {
        let mut problems: Vec<String> = self
            .term
            .clamps
            .iter()
            .map(|c| {
                format!(
                    "write {}: {} from row {} was cut short: the rows it reaches for are gone",
                    c.write, c.sequence, c.row
                )
            })
            .collect();
        for pair in self.term.frames.windows(2) {
            let (drawn, next) = (pair[0], pair[1]);
            let Some(top) = next.first_changed else {
                continue;
            };
            if next.after_resize || drawn.bottom < top {
                continue;
            }
            let height = drawn.bottom - top + 1;
            if height > drawn.rows.saturating_sub(1).max(1) {
                problems.push(format!(
                    "write {}: a live block of {height} rows (absolute rows {top}..={}, the \
                     first changed again by write {}) in a window of {} rows",
                    drawn.write, drawn.bottom, next.write, drawn.rows
                ));
            }
        }
        problems
    }

    /// Whether the live block always fitted the window's rows less one and every row the front
    /// end reached for was there (see "Stale rows" in the module notes).
    pub fn block_fits(&self) -> bool {
        self.reach_problems().is_empty()
    }

    /// Everything stale after an inline run (see "Stale rows" in the module notes), one
    /// sentence each; empty when nothing is.
    pub fn stale_rows(&mut self) -> Vec<String> {
        let mut problems = self.reach_problems();
        let visible = self.visible();
        let (row, col) = self.cursor();
        for (r, text) in visible.iter().enumerate().skip(row + 1) {
            if !text.is_empty() {
                problems.push(format!("row {r}, below the cursor, is left: {text:?}"));
            }
        }
        let (_, cols) = self.term.size();
        if col < cols {
            let width = u16::try_from(cols - col).unwrap_or(0);
            let start = u16::try_from(col).unwrap_or(0);
            if let Some(right) = self.term.screen().rows(start, width).nth(row) {
                let right = self.term.read_back(right.trim_end());
                if !right.is_empty() {
                    problems.push(format!(
                        "row {row}, right of the cursor (column {col}), is left: {right:?}"
                    ));
                }
            }
        }
        let all = self.all_rows();
        let scrolled = self.term.scrolled();
        let at = |abs: usize| {
            if abs < scrolled {
                format!("scrollback row {abs}")
            } else {
                format!("row {}", abs - scrolled)
            }
        };
        for (abs, was) in self.before.clone().unwrap_or_default() {
            let now = all.get(abs).map_or("", String::as_str);
            let cut = self.narrowest < was.chars().count();
            if now != was && !(cut && was.starts_with(now)) {
                problems.push(format!(
                    "{} held {was:?} before the run and holds {now:?}",
                    at(abs)
                ));
            }
        }
        problems
    }

    /// Panics with the screen, the scrollback and every problem when a row is stale after an
    /// inline run ([`FakeBackend::stale_rows`]).
    #[track_caller]
    pub fn assert_no_stale_rows(&mut self) {
        let problems = self.stale_rows();
        if !problems.is_empty() {
            panic!("{}", self.report(&problems));
        }
    }

    /// The front end's write number `n` (from 0), as written.
    pub fn write_number(&self, n: usize) -> &str {
        let start = n.checked_sub(1).map_or(0, |i| self.write_ends[i]);
        self.write_ends
            .get(n)
            .map_or("", |&end| &self.written[start..end])
    }

    /// The problems, the writes they name (escaped, with where each drew), the scrollback and
    /// the screen, for a failure message.
    pub fn report(&mut self, problems: &[String]) -> String {
        let mut out = String::new();
        for p in problems {
            let _ = writeln!(out, "- {p}");
        }
        let mut named: Vec<usize> = problems
            .iter()
            .flat_map(|p| p.split("write ").skip(1))
            .filter_map(|rest| {
                let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
                digits.parse().ok()
            })
            .collect();
        named.sort_unstable();
        named.dedup();
        for n in named {
            let span = self.term.frames.iter().find(|f| f.write == n);
            let _ = writeln!(
                out,
                "write {n}{}: {:?}",
                span.map_or(String::new(), |f| format!(
                    " (absolute rows {}..={}{})",
                    f.top,
                    f.bottom,
                    if f.after_resize {
                        ", after a resize"
                    } else {
                        ""
                    }
                )),
                self.write_number(n)
            );
        }
        let (row, col) = self.cursor();
        let _ = writeln!(out, "scrollback:\n{}", term::show(&self.scrollback()));
        let _ = writeln!(
            out,
            "screen {:?}, cursor at ({row}, {col}){}:\n{}",
            self.term.size(),
            if self.cursor_visible() {
                ""
            } else {
                ", hidden"
            },
            term::show(&self.visible())
        );
        out
    }
}

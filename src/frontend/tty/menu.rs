//! A menu's highlight and pages, pure: which row is highlighted, which rows the page shows,
//! and the moves (↑ ↓ j k wrap around; PageUp / PageDown; Home / End). A page holds
//! `per_page` rows; the highlight's page is shown, the last page full (the rows before its
//! own fill it, as fzf and dialoguer lists show their end) (docs/interactive.md).

use std::ops::Range;

/// The highlight and paging of a menu of `len` rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Menu {
    /// The highlighted row (0-based), always below `len`.
    pub active: usize,
    /// Number of rows (at least 1).
    pub len: usize,
    /// Rows on one page (at least 1).
    pub per_page: usize,
}

impl Menu {
    /// A menu of `len` rows (at least 1), `per_page` rows a page, highlighting `active` (kept
    /// inside the rows).
    pub fn new(len: usize, per_page: usize, active: usize) -> Self {
        let len = len.max(1);
        Menu {
            active: active.min(len - 1),
            len,
            per_page: per_page.clamp(1, len),
        }
    }

    /// The 0-based page of the highlight.
    pub fn page(&self) -> usize {
        self.active / self.per_page
    }

    /// How many pages there are.
    pub fn pages(&self) -> usize {
        self.len.div_ceil(self.per_page)
    }

    /// The rows of the highlight's page: `per_page` rows from the page's first, the last
    /// page's ending at the last row (a last page of one row shows the rows before it too).
    pub fn visible(&self) -> Range<usize> {
        let start = (self.page() * self.per_page).min(self.len - self.per_page);
        start..start + self.per_page
    }

    /// The next row, the first after the last.
    pub fn down(&mut self) {
        self.active = (self.active + 1) % self.len;
    }

    /// The previous row, the last before the first.
    pub fn up(&mut self) {
        self.active = (self.active + self.len - 1) % self.len;
    }

    /// One page on (the last row at the end).
    pub fn page_down(&mut self) {
        self.active = (self.active + self.per_page).min(self.len - 1);
    }

    /// One page back (the first row at the start).
    pub fn page_up(&mut self) {
        self.active = self.active.saturating_sub(self.per_page);
    }

    /// Highlights `row` when it exists.
    pub fn go(&mut self, row: usize) {
        if row < self.len {
            self.active = row;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_wrap_around() {
        let mut m = Menu::new(3, 3, 0);
        m.up();
        assert_eq!(m.active, 2);
        m.down();
        assert_eq!(m.active, 0);
    }

    #[test]
    fn pages_follow_the_highlight() {
        let mut m = Menu::new(10, 4, 0);
        assert_eq!((m.page(), m.pages(), m.visible()), (0, 3, 0..4));
        m.page_down();
        assert_eq!((m.active, m.visible()), (4, 4..8));
        m.page_down();
        m.page_down();
        // The last page is full: the rows before its own fill it.
        assert_eq!((m.active, m.visible()), (9, 6..10));
        assert_eq!((m.page(), m.pages()), (2, 3));
        m.page_up();
        assert_eq!(m.active, 5);
        assert_eq!((m.page(), m.pages()), (1, 3));
        m.go(99);
        assert_eq!(m.active, 5);
    }

    #[test]
    fn the_end_of_a_long_list_shows_a_full_page() {
        // 1001 rows by 20: End shows the last row with the 19 before it, not a page of one.
        let mut m = Menu::new(1001, 20, 0);
        m.go(1000);
        assert_eq!((m.page(), m.pages(), m.visible()), (50, 51, 981..1001));
        m.up();
        assert_eq!(m.visible(), 980..1000);
    }

    #[test]
    fn sizes_are_kept_sane() {
        let m = Menu::new(0, 0, 7);
        assert_eq!((m.len, m.per_page, m.active), (1, 1, 0));
        assert_eq!(m.pages(), 1);
        let m = Menu::new(5, 50, 9);
        assert_eq!((m.per_page, m.active, m.visible()), (5, 4, 0..5));
    }
}

//! The fake terminal itself: tmux's widths, the scrollback, the clock, the editor's echo and
//! the stale-row checks.

use super::*;

#[test]
fn placeholder() {}

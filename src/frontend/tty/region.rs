//! The region: what the terminal front end has on the terminal, and how the next frame gets
//! there (docs/interactive.md "Placement").
//!
//! - [`Placement::Inline`] (the default): the region starts at the cursor on the normal screen.
//!   It holds the transcript lines still in reach (the title, one line per question left),
//!   then the live block. It is written with CR, LF, relative moves and erase-in-line only;
//!   an erase-below is written only after a line's text, never at a row's left. Between frames
//!   the cursor rests at the left of the row under the block (an editor's row, when one is
//!   open) and stays visible, so a link that drops leaves the shell's prompt under a whole
//!   frame. The first frame first writes a row's worth of spaces and a CR, as zsh's
//!   PROMPT_SP does: a partial line before the run is kept (the spaces wrap past it) and a
//!   whole one is not doubled. The region keeps within the window's rows less one: the top
//!   lines that may have scrolled out of the cursor's reach are given up ([`Region::draw`])
//!   and never written again. At the end ([`Region::finish`], or a signal through
//!   [`finish_bytes`]) the region becomes the final transcript: the title, each question's
//!   final line in question order, and how the run ended; when a line given up earlier no
//!   longer says what its question's answer is (it was changed from the review), the whole
//!   final transcript is written again below it, so the last lines on the terminal are the
//!   answers, once each, in order.
//! - [`Placement::Inline`] with [`Above`] lines (`--above FILE`): the region owns the screen
//!   from its top, which shows only those lines (another program's, such as pi's
//!   conversation on its hand-over screen). Each frame is the whole screen, each row at its
//!   place with absolute moves: the end of the lines above that fits in the rows the
//!   transcript and the block leave free (the window's rows less the cursor's), then the
//!   transcript lines that fit, then the block; a row is written only when it changed. After a
//!   resize, an editor or a stop every row is written again, so lines a smaller window dropped
//!   off the top come back, and rows a shorter block frees show more of them. The end is
//!   inline's.
//! - [`Placement::Full`]: the alternate screen, each line at its row, absolute moves.
//!
//! A resize: terminals that rewrap rows (tmux, VTE, kitty, iTerm2, WezTerm, foot; not xterm
//! or GNU screen) make a line wider than the new width take more rows. The cursor is under
//! the region, so the region's top is as many rows up as its lines take at the new width
//! ([`Region::resized`]); the next frame is written whole from there, erasing what is below.
//! tmux rewraps a row by the widest text it held since an erase from the row's left (an erase
//! after the text keeps the old width), so a row drawn over wider or unknown text is erased
//! from its left first. tmux also pulls the newest lines of its history back when the window
//! grows: the region's own lines a shrink pushed there are its own again while the width stays
//! the same, as many as the cursor moved down ([`Region::resized_at`]; without the cursor's
//! rows, as many as the window grew: [`pulls_back`]).
//!
//! What GNU screen 4.09 does to rows (checked in a tmux window, `hardcopy -h`):
//! - a shorter window keeps its bottom rows, empty ones too: the rows above go into its
//!   history, the cursor moves up as many (tmux and vt100 drop empty rows under the cursor
//!   first);
//! - a taller one pulls rows of its history back above the screen, the cursor moving down as
//!   many (as tmux and vt100 do);
//! - a narrower one rewraps its rows (and its history) and keeps the cursor's row: the rows a
//!   rewrap adds above the cursor push the top ones into its history (as tmux does); a wider
//!   one joins them again;
//! - narrower and shorter at once, it rewraps, keeps the bottom rows and drops the others for
//!   good (not into its history);
//! - a delete line on the screen's top row puts that row into its history, as a scroll would
//!   (tmux does not): a row made new there is inserted instead ([`RENEW_TOP_ROW`]).
//!
//! The cursor's row (a cursor position query after the first frame and after each resize,
//! followed through the region's own frames) tells rows pulled back at the same width; it says
//! nothing of a rewrap, since tmux and GNU screen keep the cursor's row when they rewrap, as a
//! terminal that rewraps nothing does.

use std::fmt::Write as _;

mod above;
mod between;
mod ending;
pub use above::Above;
pub(super) use ending::finish_bytes;

/// The key a line is given up with when the region starts again under the shell's lines
/// (after `fg`, [`Region::restart`]): it never equals a line's own, so the run ends with the
/// whole final transcript, in order, under the shell's lines, not with its first lines above
/// them and the rest below.
const SEPARATED: &str = "\u{0}separated";

/// Makes the cursor's row a new, empty one: delete line, then insert line (the rows under it
/// go up and come back; none is lost). Written before a row whose text is unknown (after a
/// resize): a terminal that rewrapped the row keeps it joined to the next as one line, and
/// joins them again when the window widens, moving every row under it up (GNU screen 4.09
/// keeps that mark under an erase in line or below; tmux keeps the widest text since an erase
/// from the row's left). A new row carries neither.
const RENEW_ROW: &str = "\x1b[M\x1b[L";

/// [`RENEW_ROW`] for the screen's top row: insert line, then delete the row under it (the old
/// one). GNU screen 4.09 keeps a row deleted at the screen's top in its history, as if
/// scrolled off, so a delete there would leave a copy of the block's row above the final
/// transcript; an insert adds nothing to it. The screen's bottom row is lost instead: after a
/// resize it is one of the region's rows (all drawn again) or empty.
const RENEW_TOP_ROW: &str = "\x1b[L\x1b[1B\x1b[M\x1b[1A";

/// Where the questionnaire is drawn (`--screen`, `PI_ASK_SCREEN`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Placement {
    /// At the cursor on the normal screen, leaving a transcript.
    #[default]
    Inline,
    /// On the alternate screen; nothing is left when it ends.
    Full,
}

/// A transcript line's identity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Entry {
    /// The payload's title.
    Title,
    /// A question's collapsed line (at an elaborate ending, its first note's line).
    Question(usize),
    /// At an elaborate ending, a question's note after its first (question, note from 1).
    Asked(usize, usize),
    /// How the run ended.
    End,
}

/// A transcript line: which entry, its text as drawn, and what it says before it was fitted
/// to a width (a line given up is stale when that changed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Line {
    /// The entry.
    pub entry: Entry,
    /// The line as drawn.
    pub text: String,
    /// What it says, whatever the width.
    pub key: String,
}

/// A transcript: its lines, in order.
pub(super) type Transcript = Vec<Line>;

/// What a screen draws: its lines (each fitted to the width), and whether an editor opens on
/// the row under them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Block {
    /// The lines.
    pub lines: Vec<String>,
    /// An editor opens on the row under the lines (the cursor is shown there).
    pub editor: bool,
    /// Where the terminal's cursor goes (an open editor's editing position): the index of a
    /// row in `lines` and a column. `None`: under the block.
    pub cursor: Option<(usize, usize)>,
}

/// What is on the terminal, to draw the next frame as a difference.
#[derive(Debug, Clone)]
pub(super) struct Region {
    placement: Placement,
    /// The terminal rewraps rows on a resize.
    reflows: bool,
    /// Transcript lines given up: written, maybe out of reach, never written again.
    given_up: Transcript,
    /// The entries of [`Region::given_up`], to look up.
    given: std::collections::HashSet<Entry>,
    /// The transcript entries at the top of `shown`.
    live: Vec<Entry>,
    /// The region's rows from its top: what each shows, `None` when unknown (an editor's rows,
    /// rows a resize rewrapped).
    shown: Vec<Option<String>>,
    /// The cursor's row, from the top (at the left).
    at: usize,
    /// The lowest row that exists under the top (written, or made by line feeds): a move down
    /// to it is a cursor move, past it line feeds.
    exists: usize,
    /// Rows from here down show nothing (rows above may show something of ours).
    dirty: usize,
    /// Nothing written yet here: the next frame keeps a partial line first.
    fresh: bool,
    /// Full placement: the last lines drawn (`None`: draw whole), and whether an editor row
    /// followed them.
    full: Option<(Vec<String>, bool)>,
    /// Inline on a screen it owns: the lines above the questions (`--above`).
    above: Option<Above>,
    /// With `above`: what each row of the screen shows from its top (`None`: draw whole).
    screen: Option<Vec<String>>,
    /// The terminal pulls the newest rows of its history back above the screen when the
    /// window grows (tmux: [`pulls_back`]).
    pulls_back: bool,
    /// With `pulls_back`: the region's own lines that went above the window's top, oldest
    /// first, when they are the newest lines of the terminal's history. A window that grows
    /// again gets them back ([`Region::resized`]).
    pushed: Vec<Pushed>,
    /// The lines given up before the first of `pushed` went: what they are again when every
    /// pushed row is back on the screen.
    given_up_before: Option<Transcript>,
    /// The window's rows when last drawn or resized.
    rows: usize,
    /// Inline: the cursor is not under the block but at an editor's editing position, this
    /// row from the top and this column ([`Block::cursor`]).
    parked: Option<(usize, usize)>,
    /// Inline: the cursor's row on the screen (from its top, from 0) when the terminal told
    /// it ([`Region::cursor_told`]), followed through each frame since; `None` when unknown.
    /// A resize compares it with the row the terminal tells after ([`Region::resized_at`]).
    screen_at: Option<usize>,
}

/// At most this many of the region's lines are remembered as pushed into the terminal's
/// history ([`Region::note_pushed`]); past it, none are (the bound of its memory).
const PUSHED_MAX: usize = 4096;

/// A line of the region that went above the window's top.
#[derive(Debug, Clone)]
struct Pushed {
    /// Its transcript line, or `None` for a row of the block.
    line: Option<Line>,
    /// Its width in columns (0 when unknown): the rows it takes again at a width.
    width: usize,
}

/// `ESC[nA` / `ESC[nB` from row `from` to row `to` (never a zero count: xterm reads `ESC[0A`
/// as one row).
fn vertical(out: &mut String, from: usize, to: usize) {
    if to < from {
        let _ = write!(out, "\x1b[{}A", from - to);
    } else if to > from {
        let _ = write!(out, "\x1b[{}B", to - from);
    }
}

/// Whether the terminal rewraps rows when the window narrows, as the region models it, from
/// the environment: every terminal does but those known not to, xterm (`XTERM_VERSION`), the
/// Linux console (`TERM=linux`), st and rxvt. tmux, GNU screen (4.09), VTE, kitty, iTerm2,
/// Terminal.app, WezTerm, Windows Terminal, konsole, foot, alacritty, ghostty and VS Code's
/// terminal rewrap; over ssh only `TERM` is passed on, and the terminal behind it nearly
/// always rewraps. A wrong guess either way leaves rows wrong: of rewrap, the region's top is
/// taken too high and lines above it are drawn over; of no rewrap, too low, and copies of its
/// top lines stay above it (docs/interactive.md, "Placement").
pub fn reflows(env: impl Fn(&str) -> Option<String>) -> bool {
    let set = |name: &str| env(name).is_some_and(|v| !v.is_empty());
    let term = env("TERM").unwrap_or_default();
    let rewraps = set("TMUX") || set("STY") || set("VTE_VERSION") || set("KITTY_WINDOW_ID");
    if rewraps {
        return true;
    }
    let keeps_rows = set("XTERM_VERSION")
        || term == "linux"
        || term == "st"
        || term.starts_with("st-")
        || term.starts_with("rxvt");
    !keeps_rows
}

/// Whether the terminal pulls the newest rows of its history back above the screen when the
/// window grows taller, from the environment: tmux does (the rows a shrink or a scroll pushed
/// up come back, the cursor moves down with them), and so does GNU screen 4.09, but only tmux
/// is counted on without the cursor's rows ([`Region::resized_at`]), which tell how many came
/// back in any terminal.
pub fn pulls_back(env: impl Fn(&str) -> Option<String>) -> bool {
    env("TMUX").is_some_and(|v| !v.is_empty()) || env("TERM_PROGRAM").as_deref() == Some("tmux")
}

/// From row `at` to the left of row `row`: a cursor move up or down to a row that exists, line
/// feeds past the lowest one (`exists`).
fn go(out: &mut String, at: &mut usize, exists: &mut usize, row: usize) {
    if row > *exists {
        vertical(out, *at, *exists);
        for _ in *exists..row {
            out.push_str("\r\n");
        }
        *exists = row;
    } else {
        vertical(out, *at, row);
        out.push('\r');
    }
    *at = row;
}

impl Region {
    /// A region for `placement`, nothing drawn yet; `reflows`: the terminal rewraps rows on a
    /// resize ([`reflows`]).
    pub fn new(placement: Placement, reflows: bool) -> Self {
        Region {
            placement,
            reflows,
            given_up: Vec::new(),
            given: std::collections::HashSet::new(),
            live: Vec::new(),
            shown: Vec::new(),
            at: 0,
            exists: 0,
            dirty: 0,
            fresh: true,
            full: None,
            above: None,
            screen: None,
            pulls_back: false,
            pushed: Vec::new(),
            given_up_before: None,
            rows: 0,
            parked: None,
            screen_at: None,
        }
    }

    /// The same region, told whether the terminal pulls rows back from its history when the
    /// window grows ([`pulls_back`]).
    pub fn with_pull_back(mut self, pulls_back: bool) -> Self {
        self.pulls_back = pulls_back;
        self
    }

    /// The placement.
    pub fn placement(&self) -> Placement {
        self.placement
    }

    /// Rows a block may take in a window of `rows` rows: all but one on the alternate screen
    /// (an editor's row), two less inline (the row the cursor rests on, and a row so the top
    /// stays in reach).
    pub fn budget(&self, rows: usize) -> usize {
        match self.placement {
            Placement::Full => rows.saturating_sub(1).max(1),
            Placement::Inline => rows.saturating_sub(2).max(1),
        }
    }

    /// The cursor's row under the region's top (inline), for [`finish_bytes`]: under the
    /// block, or an editor's row when the cursor is at its editing position.
    pub fn at(&self) -> usize {
        self.parked.map_or(self.at, |(row, _)| row)
    }

    /// Whether the terminal's own cursor is put at an editor's editing position
    /// ([`Block::cursor`]), where input methods and screen readers follow it: inline under the
    /// shell's lines and on the alternate screen; not on a screen the region owns with lines
    /// above (`--above`), whose frames are drawn row by row from the top.
    pub fn shows_cursor(&self) -> bool {
        !self.owns_screen()
    }

    /// Inline: the terminal told where the cursor is now (`row` from the screen's top, from
    /// 0; `None`: it did not answer), as a cursor position query answers; the region follows
    /// it through its frames, so a resize can tell the rows the terminal moved
    /// ([`Region::resized_at`]).
    pub fn cursor_told(&mut self, row: Option<usize>) {
        self.screen_at = row.filter(|_| self.wants_cursor_row());
    }

    /// Whether `entry`'s line was given up (it is never written again while the run goes on).
    pub fn is_given_up(&self, entry: Entry) -> bool {
        self.given.contains(&entry)
    }

    /// The transcript lines given up so far.
    pub fn given_up(&self) -> &Transcript {
        &self.given_up
    }

    /// The bytes that draw `block` under the `transcript` entries not given up yet, in a
    /// window of `rows` x `cols` (empty when nothing changed). Inline, the lines that may be out
    /// of reach afterwards are given up.
    pub fn draw(
        &mut self,
        transcript: &Transcript,
        block: &Block,
        rows: usize,
        cols: usize,
    ) -> String {
        match self.placement {
            Placement::Full => self.draw_full(block),
            Placement::Inline if self.owns_screen() => {
                self.draw_owned(transcript, block, rows, cols)
            }
            Placement::Inline => self.draw_inline(transcript, block, rows, cols),
        }
    }

    fn draw_full(&mut self, block: &Block) -> String {
        let mut out = String::new();
        let old = self.full.take();
        let whole = old.is_none();
        if whole {
            out.push_str("\x1b[H\x1b[2J");
        }
        let (old_lines, old_editor) = old.unwrap_or_default();
        for row in 0..block.lines.len().max(old_lines.len()) {
            let new = block.lines.get(row);
            if !whole && old_lines.get(row) == new {
                continue;
            }
            match new {
                Some(line) if whole && line.is_empty() => {}
                Some(line) => {
                    let _ = write!(out, "\x1b[{};1H{line}\x1b[K", row + 1);
                }
                None => {
                    let _ = write!(out, "\x1b[{};1H\x1b[K", row + 1);
                }
            }
        }
        let moved = self.parked != block.cursor;
        if !out.is_empty() || old_editor != block.editor || whole || moved {
            if let Some((row, col)) = block.cursor {
                let _ = write!(out, "\x1b[{};{}H\x1b[?25h", row + 1, col + 1);
            } else if block.editor {
                let _ = write!(out, "\x1b[{};1H\x1b[K\x1b[?25h", block.lines.len() + 1);
            } else {
                out.push_str("\x1b[?25l");
            }
        }
        self.parked = block.cursor;
        self.full = Some((block.lines.clone(), block.editor));
        out
    }

    fn draw_inline(
        &mut self,
        transcript: &Transcript,
        block: &Block,
        rows: usize,
        cols: usize,
    ) -> String {
        let live: Vec<&Line> = transcript
            .iter()
            .filter(|l| !self.given.contains(&l.entry))
            .collect();
        // The block itself keeps within the window (the screens lay out within the budget;
        // this is the last guard).
        let skip = block.lines.len().saturating_sub(self.budget(rows));
        let lines: Vec<&str> = live
            .iter()
            .map(|l| l.text.as_str())
            .chain(block.lines[skip..].iter().map(String::as_str))
            .collect();
        self.rows = rows;
        let mut out = String::new();
        if self.fresh {
            // PROMPT_SP: a partial line is kept, a whole one is not doubled.
            out.push_str(&" ".repeat(cols.max(1)));
            out.push_str("\r\x1b[K");
        }
        let n = lines.len();
        let mut at = self.at();
        // The region's top on the screen, when the cursor's row is known (it may be above).
        let top = self.screen_at.map(|row| row as isize - at as isize);
        let mut exists = self.exists;
        let was_parked = self.parked.take();
        // A row of unknown text is made new, by the form the screen's top row needs there.
        let renew = |row: usize| match top {
            Some(top) if top + row as isize == 0 => RENEW_TOP_ROW,
            _ => RENEW_ROW,
        };
        self.shown.truncate(n.max(self.dirty));
        for (row, &line) in lines.iter().enumerate() {
            if self
                .shown
                .get(row)
                .is_some_and(|s| s.as_deref() == Some(line))
            {
                continue;
            }
            // A row that showed something wider is erased from its left first: an erase after
            // the text leaves tmux counting the old width, and it rewraps the row by it when the
            // window narrows (an erase from the left frees the row). A row whose text is
            // unknown (after a resize) is made new ([`RENEW_ROW`], [`RENEW_TOP_ROW`]).
            let clear = match self.shown.get(row) {
                Some(Some(old))
                    if crate::text::drawn_width(old) > crate::text::drawn_width(line) =>
                {
                    "\x1b[K"
                }
                Some(None) => renew(row),
                _ => "",
            };
            go(&mut out, &mut at, &mut exists, row);
            out.push_str(clear);
            out.push_str(line);
            out.push_str("\x1b[K");
            match self.shown.get_mut(row) {
                Some(shown) => *shown = Some(line.to_string()),
                None => {
                    self.shown.resize(row, None);
                    self.shown.push(Some(line.to_string()));
                }
            }
        }
        // Rows under the new lines that may still show something: erased, each from its left.
        for row in n..self.dirty {
            if self
                .shown
                .get(row)
                .is_some_and(|s| s.as_deref() == Some(""))
            {
                continue;
            }
            go(&mut out, &mut at, &mut exists, row);
            out.push_str(match self.shown.get(row) {
                Some(None) => renew(row),
                _ => "\x1b[K",
            });
        }
        // The cursor at the editor's editing position (the rows under it exist), else under
        // the block.
        let park = block
            .cursor
            .filter(|_| !self.owns_screen())
            .and_then(|(row, col)| Some((live.len() + row.checked_sub(skip)?, col)))
            .filter(|&(row, _)| row < n);
        match park {
            Some((row, col)) => {
                if !out.is_empty() || was_parked != park || self.fresh {
                    if n > exists {
                        go(&mut out, &mut at, &mut exists, n);
                    }
                    go(&mut out, &mut at, &mut exists, row);
                    if col > 0 {
                        let _ = write!(out, "\x1b[{col}C");
                    }
                }
                self.parked = park;
            }
            None => {
                if at != n || self.fresh || was_parked.is_some() {
                    go(&mut out, &mut at, &mut exists, n);
                }
            }
        }
        self.fresh = false;
        self.shown.truncate(n);
        self.live = live.iter().map(|l| l.entry).collect();
        self.at = n;
        self.exists = exists.max(n);
        self.dirty = n;
        // Line feeds past the screen's bottom scrolled the top up.
        self.screen_at = top.map(|top| {
            let top = top.min(rows as isize - 1 - self.exists as isize);
            (top + self.at() as isize).clamp(0, rows.saturating_sub(1) as isize) as usize
        });
        self.give_up_unreachable(transcript, rows);
        out
    }

    /// Gives up the top rows that may be out of the cursor's reach in a window of `rows` rows:
    /// the cursor rests `at` rows under the top, and only `rows - 1` rows above it are sure to
    /// be on screen.
    /// Every line given up is separated from the rest of the transcript by rows the region
    /// can no longer reach (rows of the block, the shell's lines after `fg`): the run ends with
    /// the whole final transcript ([`SEPARATED`]).
    fn separate_given_up(&mut self) {
        for line in &mut self.given_up {
            line.key = SEPARATED.to_string();
        }
    }

    fn give_up_unreachable(&mut self, transcript: &Transcript, rows: usize) {
        let gone = self.at.saturating_sub(rows.saturating_sub(1).max(1));
        if gone == 0 {
            return;
        }
        let entries = gone.min(self.live.len());
        self.note_pushed(gone, transcript);
        for entry in self.live.drain(..entries) {
            if let Some(line) = transcript.iter().find(|l| l.entry == entry) {
                self.given.insert(line.entry);
                self.given_up.push(line.clone());
            }
        }
        if gone > entries {
            // Rows of the block went out of reach too (an editor's rows pushed them): they
            // stay on the terminal under the lines given up.
            self.separate_given_up();
        }
        self.shown.drain(..gone.min(self.shown.len()));
        self.at -= gone;
        self.parked = self
            .parked
            .map(|(row, col)| (row.saturating_sub(gone), col));
        self.exists = self.exists.saturating_sub(gone);
        self.dirty = self.dirty.saturating_sub(gone);
    }
}

#[cfg(test)]
#[path = "region_tests.rs"]
mod tests;

//! The region's unit tests: the bytes of each kind of frame.
use super::*;

fn line(entry: Entry, text: &str) -> Line {
    Line {
        entry,
        text: text.to_string(),
        key: text.to_string(),
    }
}

fn block(lines: &[&str]) -> Block {
    Block {
        lines: lines.iter().map(|l| l.to_string()).collect(),
        editor: false,
        cursor: None,
    }
}

#[test]
fn the_first_frame_keeps_a_partial_line_and_rests_under_the_block() {
    let mut r = Region::new(Placement::Inline, false);
    let bytes = r.draw(&vec![], &block(&["a", "b"]), 24, 10);
    assert_eq!(bytes, "          \r\x1b[K\ra\x1b[K\r\nb\x1b[K\r\n");
    // A key: one line, relative moves, back under the block.
    let bytes = r.draw(&vec![], &block(&["a", "B"]), 24, 10);
    assert_eq!(bytes, "\x1b[1A\rB\x1b[K\x1b[1B\r");
    assert_eq!(r.draw(&vec![], &block(&["a", "B"]), 24, 10), "");
    // A shorter block: the rows under it erased, each from its left; no erase-below.
    let bytes = r.draw(&vec![], &block(&["x"]), 24, 10);
    assert_eq!(bytes, "\x1b[2A\rx\x1b[K\x1b[1B\r\x1b[K");
}

#[test]
fn transcript_lines_out_of_reach_are_given_up_and_a_stale_one_is_superseded() {
    let mut r = Region::new(Placement::Inline, false);
    let t = |a: &str| vec![line(Entry::Title, "T"), line(Entry::Question(0), a)];
    r.draw(&t("q1 · A"), &block(&["b1", "b2", "b3"]), 5, 20);
    // 2 transcript lines + 3 block lines: the cursor rests 5 rows under the top; 4 are in
    // reach in a window of 5 rows.
    assert_eq!(r.given_up().len(), 1);
    r.draw(&t("q1 · A"), &block(&["b1", "b2", "b3"]), 5, 20);
    assert_eq!(r.given_up().len(), 1);
    // Another transcript line pushes the first question's line out of reach too.
    let mut three = t("q1 · A");
    three.push(line(Entry::Question(1), "q2 · C"));
    r.draw(&three, &block(&["b1", "b2", "b3"]), 5, 20);
    assert_eq!(r.given_up().len(), 2);
    // The answer changed after its line went out of reach: the whole final transcript is
    // written again, in order.
    let end = vec![
        line(Entry::Title, "T"),
        line(Entry::Question(0), "q1 · B"),
        line(Entry::End, "done"),
    ];
    assert_eq!(
        Region::final_lines(r.given_up(), &end),
        ["T", "q1 · B", "done"]
    );
    let same = vec![
        line(Entry::Title, "T"),
        line(Entry::Question(0), "q1 · A"),
        line(Entry::End, "done"),
    ];
    assert_eq!(Region::final_lines(r.given_up(), &same), ["done"]);
}

#[test]
fn a_row_that_showed_wider_text_is_erased_from_its_left_first() {
    // tmux rewraps a row by the widest text it held when the window narrows, unless it was
    // erased from its left: "short" over "a longer line" would take two rows at 8 columns.
    let mut r = Region::new(Placement::Inline, true);
    r.draw(&vec![], &block(&["a longer line", "x"]), 24, 20);
    let bytes = r.draw(&vec![], &block(&["short", "x"]), 24, 20);
    assert_eq!(bytes, "\x1b[2A\r\x1b[Kshort\x1b[K\x1b[2B\r");
    // Wider text over narrower needs no erase first.
    let bytes = r.draw(&vec![], &block(&["a longer line", "x"]), 24, 20);
    assert_eq!(bytes, "\x1b[2A\ra longer line\x1b[K\x1b[2B\r");
}

#[test]
fn a_resize_finds_the_top_where_a_rewrapping_terminal_put_it() {
    let mut r = Region::new(Placement::Inline, true);
    r.draw(&vec![], &block(&["0123456789", "ab"]), 24, 20);
    r.resized(20, 5, 24, &vec![]);
    // "0123456789" takes 2 rows at 5 columns, "ab" one: the top is 3 rows up.
    let bytes = r.draw(&vec![], &block(&["0123", "ab"]), 24, 5);
    // Rows a resize rewrapped are unknown: each is made new (delete line, insert line)
    // before its text, so no terminal keeps it joined to the next.
    assert!(
        bytes.starts_with("\x1b[3A\r\x1b[M\x1b[L0123\x1b[K"),
        "{bytes:?}"
    );
    // The row under the new lines, whose text is unknown, is made new too.
    assert!(
        bytes.ends_with("ab\x1b[K\x1b[1B\r\x1b[M\x1b[L"),
        "{bytes:?}"
    );
    // Without rewrap, each line kept its row.
    let mut r = Region::new(Placement::Inline, false);
    r.draw(&vec![], &block(&["0123456789", "ab"]), 24, 20);
    r.resized(20, 5, 24, &vec![]);
    let bytes = r.draw(&vec![], &block(&["0123", "ab"]), 24, 5);
    assert!(
        bytes.starts_with("\x1b[2A\r\x1b[M\x1b[L0123\x1b[K"),
        "{bytes:?}"
    );
}

#[test]
fn the_end_replaces_the_region_and_leaves_the_cursor_under_it() {
    let mut r = Region::new(Placement::Inline, false);
    r.draw(
        &vec![line(Entry::Title, "T")],
        &block(&["q", "o1", "o2"]),
        24,
        20,
    );
    let end = vec![
        line(Entry::Title, "T"),
        line(Entry::Question(0), "✔ q · a"),
        line(Entry::End, "✔ Submitted"),
    ];
    let bytes = r.finish(&end, 24);
    assert_eq!(
        bytes,
        "\x1b[4A\rT\x1b[K\r\n✔ q · a\x1b[K\r\n✔ Submitted\x1b[K\x1b[J\r\n\x1b[?25h"
    );
}

#[test]
fn which_terminals_rewrap() {
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |name: &str| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        }
    };
    assert!(reflows(env(&[
        ("TMUX", "/tmp/tmux-0/default,1,0"),
        ("TERM", "tmux-256color")
    ])));
    // GNU screen 4.09 rewraps; xterm itself does not.
    assert!(reflows(env(&[("STY", "123.pts-0"), ("TERM", "screen")])));
    assert!(!reflows(env(&[
        ("XTERM_VERSION", "XTerm(379)"),
        ("TERM", "xterm-256color")
    ])));
    assert!(!reflows(env(&[("TERM", "linux")])));
    assert!(!reflows(env(&[("TERM", "st-256color")])));
    assert!(!reflows(env(&[("TERM", "rxvt-unicode-256color")])));
    // Over ssh only TERM comes: the terminal behind it nearly always rewraps (VTE, iTerm2,
    // Windows Terminal, a local tmux or screen).
    assert!(reflows(env(&[("TERM", "xterm-256color")])));
    assert!(reflows(env(&[("TERM", "screen-256color")])));
    assert!(reflows(env(&[
        ("VTE_VERSION", "7600"),
        ("TERM", "xterm-256color")
    ])));
    // tmux with `default-terminal screen-256color` whose TMUX was not passed on (sudo keeps
    // TERM only; `env TERM_PROGRAM=...` may keep that): its TERM_PROGRAM names it.
    assert!(reflows(env(&[
        ("TERM", "screen-256color"),
        ("TERM_PROGRAM", "tmux")
    ])));
    // Only tmux pulls rows back from its history when the window grows.
    assert!(pulls_back(env(&[("TMUX", "/tmp/tmux-0/default,1,0")])));
    assert!(pulls_back(env(&[
        ("TERM_PROGRAM", "tmux"),
        ("TERM", "screen")
    ])));
    assert!(!pulls_back(env(&[
        ("STY", "123.pts-0"),
        ("TERM", "screen")
    ])));
    assert!(!pulls_back(env(&[("VTE_VERSION", "7600")])));
}

#[test]
fn rows_a_shrink_pushed_up_are_the_regions_again_when_tmux_pulls_them_back() {
    let transcript = vec![Line {
        entry: Entry::Title,
        text: "Title".into(),
        key: "Title".into(),
    }];
    let block = Block {
        lines: (1..=8).map(|i| format!("row {i}")).collect(),
        editor: false,
        cursor: None,
    };
    let mut r = Region::new(Placement::Inline, true).with_pull_back(true);
    r.draw(&transcript, &block, 24, 80);
    assert_eq!(r.at(), 9);
    // 24 to 6 rows: the title and the block's first three rows go above the window.
    r.resized(80, 80, 6, &transcript);
    assert!(r.is_given_up(Entry::Title));
    assert_eq!(r.at(), 5);
    // Back to 24: the four rows come back above the region's top, and are its own again.
    r.resized(80, 80, 24, &transcript);
    assert_eq!(r.at(), 9);
    assert!(!r.is_given_up(Entry::Title));
    assert!(r.given_up().is_empty());
    let bytes = r.draw(&transcript, &block, 24, 80);
    // Written whole from the title's row down, each row made new first.
    let rows: String = std::iter::once("Title".to_string())
        .chain((1..=8).map(|i| format!("row {i}")))
        .map(|row| format!("\x1b[M\x1b[L{row}\x1b[K\x1b[1B\r"))
        .collect();
    assert_eq!(bytes, format!("\x1b[9A\r{rows}"));
}

#[test]
fn the_end_never_reaches_above_the_window() {
    // Found by the tty_session fuzz target: an editor that failed under a resize left the
    // region 17 rows tall in a window of 8; the end went up 17 rows.
    let mut r = Region::new(Placement::Inline, false);
    let lines: Vec<&str> = vec!["x"; 17];
    r.draw(&vec![], &block(&lines), 30, 20);
    let bytes = r.finish(&vec![line(Entry::End, "done")], 8);
    assert!(bytes.starts_with("\x1b[7A\rdone"), "{bytes:?}");
}

#[test]
fn on_a_screen_it_owns_the_region_draws_the_end_of_the_lines_above_in_the_rows_left() {
    let above = Above::new("a1\na2\na3\na4\na5\na6\n", true);
    let mut r = Region::new(Placement::Inline, true).with_above(Some(above));
    // 6 rows: the cursor's row, the block's two, the last three lines above.
    let bytes = r.draw(&vec![], &block(&["q", "o"]), 6, 10);
    assert_eq!(
        bytes,
        "\x1b[1;1Ha4\x1b[K\x1b[2;1Ha5\x1b[K\x1b[3;1Ha6\x1b[K\x1b[4;1Hq\x1b[K\x1b[5;1Ho\x1b[K\x1b[6;1H\x1b[J"
    );
    assert_eq!(r.at(), 2);
    assert_eq!(r.draw(&vec![], &block(&["q", "o"]), 6, 10), "");
    // A shorter block: one more line above, every row moved down.
    let bytes = r.draw(&vec![], &block(&["q"]), 6, 10);
    assert_eq!(
        bytes,
        "\x1b[1;1Ha3\x1b[K\x1b[2;1Ha4\x1b[K\x1b[3;1Ha5\x1b[K\x1b[4;1Ha6\x1b[K\x1b[5;1Hq\x1b[K\x1b[6;1H"
    );
    // A smaller window, then the size back: each time every row, the end of the lines that fits.
    r.resized(10, 10, 3, &vec![]);
    let bytes = r.draw(&vec![], &block(&["q"]), 3, 10);
    assert_eq!(bytes, "\x1b[1;1Ha6\x1b[K\x1b[2;1Hq\x1b[K\x1b[3;1H\x1b[J");
    r.resized(10, 10, 6, &vec![]);
    let bytes = r.draw(&vec![], &block(&["q"]), 6, 10);
    assert_eq!(
        bytes,
        "\x1b[1;1Ha3\x1b[K\x1b[2;1Ha4\x1b[K\x1b[3;1Ha5\x1b[K\x1b[4;1Ha6\x1b[K\x1b[5;1Hq\x1b[K\x1b[6;1H\x1b[J"
    );
    // The transcript goes between them; the end is inline's, under the lines above.
    let t = vec![line(Entry::Title, "T")];
    let bytes = r.draw(&t, &block(&["q"]), 6, 10);
    assert_eq!(
        bytes,
        "\x1b[1;1Ha4\x1b[K\x1b[2;1Ha5\x1b[K\x1b[3;1Ha6\x1b[K\x1b[4;1HT\x1b[K\x1b[6;1H"
    );
    let end = vec![line(Entry::Title, "T"), line(Entry::End, "done")];
    assert_eq!(
        r.finish(&end, 6),
        "\x1b[2A\rT\x1b[K\r\ndone\x1b[K\x1b[J\r\n\x1b[?25h"
    );
}

#[test]
fn the_lines_above_keep_their_colours_only_and_are_cut_to_the_width() {
    let hostile = format!(
        "\x1b[31mred\x1b[0m\x1b[2J\x1b[1;1H\x1b]0;title\x07\u{9b}1A\u{85}{}",
        "x".repeat(12)
    );
    let above = Above::new(&format!("{hostile}\nshort"), true);
    let mut r = Region::new(Placement::Inline, true).with_above(Some(above));
    let bytes = r.draw(&vec![], &block(&["q"]), 5, 10);
    // The first line fills the row: no erase after it (it would take the last column).
    assert_eq!(
        bytes,
        "\x1b[1;1H\x1b[31mred\x1b[0mxxxxxx\u{2026}\x1b[0m\x1b[2;1Hshort\x1b[K\x1b[3;1Hq\x1b[K\x1b[4;1H\x1b[J"
    );
    // Without colour, no SGR either.
    let above = Above::new(&hostile, false);
    let mut r = Region::new(Placement::Inline, true).with_above(Some(above));
    let bytes = r.draw(&vec![], &block(&["q"]), 5, 10);
    assert!(
        bytes.starts_with("\x1b[1;1Hredxxxxxx\u{2026}\x1b[2;1Hq"),
        "{bytes:?}"
    );
    // On the alternate screen there is nothing above.
    let r = Region::new(Placement::Full, true).with_above(Some(Above::new("a", true)));
    assert!(!r.owns_screen());
}

#[test]
fn a_width_change_forgets_the_pushed_lines_so_no_shell_line_is_taken() {
    let transcript = vec![Line {
        entry: Entry::Title,
        text: "Title".into(),
        key: "Title".into(),
    }];
    let wide = Block {
        lines: std::iter::once("P".repeat(59))
            .chain((1..=7).map(|i| format!("row {i}")))
            .chain(std::iter::once("H".repeat(80)))
            .collect(),
        editor: false,
        cursor: None,
    };
    let mut r = Region::new(Placement::Inline, true).with_pull_back(true);
    r.draw(&transcript, &wide, 24, 80);
    // 80x24 to 40x10: the prompt and the hint take two rows each; the title and the prompt
    // go above the window.
    r.resized(80, 40, 10, &transcript);
    assert_eq!(r.at(), 9);
    assert!(r.is_given_up(Entry::Title));
    let narrow = Block {
        lines: (1..=8).map(|i| format!("n {i}")).collect(),
        editor: false,
        cursor: None,
    };
    r.draw(&transcript, &narrow, 10, 40);
    assert_eq!(r.at(), 8);
    // Back to 80x24: what tmux pulled back through two rewraps is not known well enough, so
    // nothing is taken back (the rows above may be the shell's).
    r.resized(40, 80, 24, &transcript);
    assert_eq!(r.at(), 8);
    assert!(r.is_given_up(Entry::Title));
    // A later height-only shrink and regrow are taken back again.
    r.draw(&transcript, &narrow, 24, 80);
    r.resized(80, 80, 6, &transcript);
    assert_eq!(r.at(), 5);
    r.resized(80, 80, 24, &transcript);
    assert_eq!(r.at(), 8);
}

/// The external editor's steps on a fake terminal under a shell's line: a frame with the
/// title and a question's line over a block, the block erased, `between` (what the editor
/// leaves on the terminal), the region handed back (`in_place`), the next frame, the end;
/// what is left above the cursor.
fn after_the_external_editor(between: &str, in_place: bool) -> Vec<String> {
    use crate::frontend::tty::backend::Backend as _;
    let mut term = crate::frontend::tty::FakeBackend::new(12, 40, []);
    term.print("$ pi-ask q.json\n");
    let mut r = Region::new(Placement::Inline, true);
    let t = vec![
        line(Entry::Title, "Deploy"),
        line(Entry::Question(0), "Region: EU"),
    ];
    let draw = |r: &mut Region, term: &mut crate::frontend::tty::FakeBackend, b: Block| {
        let bytes = r.draw(&t, &b, 12, 40);
        term.write(&bytes).unwrap();
    };
    draw(&mut r, &mut term, block(&["2/2 Notes", "> draft"]));
    draw(&mut r, &mut term, Block::default());
    term.print(between);
    r.handed_back(&t, in_place);
    draw(&mut r, &mut term, block(&["Review", "1. Submit"]));
    let end = vec![
        line(Entry::Title, "Deploy"),
        line(Entry::Question(0), "Region: EU"),
        line(Entry::Question(1), "Notes: note"),
        line(Entry::End, "Submitted"),
    ];
    let bytes = r.finish(&end, 12);
    term.write(&bytes).unwrap();
    term.left()
}

#[test]
fn after_an_editor_that_gave_the_cursor_back_in_place_each_line_is_left_once() {
    // On the alternate screen (or drawing nothing), the editor left the lines where they were.
    assert_eq!(
        after_the_external_editor("", true),
        [
            "$ pi-ask q.json",
            "Deploy",
            "Region: EU",
            "Notes: note",
            "Submitted"
        ]
    );
    // One that wrote under them: the whole final transcript under what it wrote.
    assert_eq!(
        after_the_external_editor("saved\n", false),
        [
            "$ pi-ask q.json",
            "Deploy",
            "Region: EU",
            "saved",
            "Deploy",
            "Region: EU",
            "Notes: note",
            "Submitted"
        ]
    );
}

/// A region of the title and eight rows drawn from the screen's top in a window of 24x80,
/// the terminal having told the cursor's row after the frame (9).
fn told_region(pulls_back: bool) -> (Region, Transcript, Block) {
    let transcript = vec![line(Entry::Title, "Title")];
    let rows: Vec<String> = (1..=8).map(|i| format!("row {i}")).collect();
    let block = Block {
        lines: rows,
        editor: false,
        cursor: None,
    };
    let mut r = Region::new(Placement::Inline, true).with_pull_back(pulls_back);
    r.draw(&transcript, &block, 24, 80);
    r.cursor_told(Some(9));
    assert_eq!(r.at(), 9);
    (r, transcript, block)
}

#[test]
fn a_taller_window_takes_back_as_many_rows_as_the_cursor_moved_down() {
    // Not known to pull rows back (no TMUX): the cursor's move says it did.
    let (mut r, t, _) = told_region(false);
    // 24 to 6 rows: four rows went into the history (the cursor on the last row).
    r.resized_at(80, 80, 6, &t, Some(5));
    assert!(r.is_given_up(Entry::Title));
    assert_eq!(r.at(), 5);
    // Back to 24, the cursor four rows lower: the four rows came back, the region's again.
    r.resized_at(80, 80, 24, &t, Some(9));
    assert_eq!(r.at(), 9);
    assert!(!r.is_given_up(Entry::Title));
    assert!(r.given_up().is_empty());
    // Only the rows the cursor moved: one row back, the title stays in the history.
    let (mut r, t, _) = told_region(false);
    r.resized_at(80, 80, 6, &t, Some(5));
    r.resized_at(80, 80, 24, &t, Some(6));
    assert_eq!(r.at(), 6);
    assert!(r.is_given_up(Entry::Title));
    // In tmux too, a terminal that pulled nothing back (the cursor stayed) gets nothing
    // taken: the rows above are not the region's.
    let (mut r, t, _) = told_region(true);
    r.resized_at(80, 80, 6, &t, Some(5));
    r.resized_at(80, 80, 24, &t, Some(5));
    assert_eq!(r.at(), 5);
    assert!(r.is_given_up(Entry::Title));
}

#[test]
fn a_shorter_window_gives_up_the_rows_the_cursor_moved_up() {
    let (mut r, t, _) = told_region(false);
    // 24 to 8 rows, the cursor two rows up: two rows (the title and row 1) went into the
    // history; the region's top is the screen's.
    r.resized_at(80, 80, 8, &t, Some(7));
    assert!(r.is_given_up(Entry::Title));
    assert_eq!(r.at(), 7);
    let bytes = r.draw(&t, &block(&["b1", "b2"]), 8, 80);
    // The screen's top row is made new by an insert (GNU screen keeps a row deleted there).
    assert!(
        bytes.starts_with("\x1b[7A\r\x1b[L\x1b[1B\x1b[M\x1b[1Ab1\x1b[K\x1b[1B\r\x1b[M\x1b[Lb2"),
        "{bytes:?}"
    );
}

#[test]
fn a_told_row_the_resize_cannot_give_is_no_answer() {
    // 24 to 20 rows at the same width: the cursor (row 9) moves up 4 rows at most. Row 1
    // (a report waiting in the input, Shift+F3) cannot be true: placed as without an answer.
    let (mut r, t, _) = told_region(false);
    r.resized_at(80, 80, 20, &t, Some(1));
    assert_eq!(r.at(), 9);
    assert!(!r.is_given_up(Entry::Title));
    // Nor a row past the window's bottom.
    let (mut r, t, _) = told_region(false);
    r.resized_at(80, 80, 20, &t, Some(20));
    assert_eq!(r.at(), 9);
    // Four rows up can be: the top four went into the history.
    let (mut r, t, _) = told_region(false);
    r.resized_at(80, 80, 20, &t, Some(5));
    assert_eq!(r.at(), 5);
    assert!(r.is_given_up(Entry::Title));
    // A rewrap may move the cursor anywhere: a narrower window's row is taken.
    let (mut r, t, _) = told_region(false);
    r.resized_at(80, 60, 20, &t, Some(1));
    assert_eq!(r.at(), 1);
}

#[test]
fn without_the_cursors_rows_a_resize_is_placed_as_before() {
    // No answer after the resize: a taller window pulls nothing back unless in tmux.
    let (mut r, t, _) = told_region(false);
    r.resized_at(80, 80, 6, &t, Some(5));
    r.resized_at(80, 80, 24, &t, None);
    assert_eq!(r.at(), 5);
    assert!(r.is_given_up(Entry::Title));
    let (mut r, t, _) = told_region(true);
    r.resized_at(80, 80, 6, &t, Some(5));
    r.resized_at(80, 80, 24, &t, None);
    assert_eq!(r.at(), 9);
    assert!(!r.is_given_up(Entry::Title));
    // No row known before the resize (never told): a narrower window is taken as rewrapped.
    let mut r = Region::new(Placement::Inline, true);
    r.draw(&vec![], &block(&["0123456789", "ab"]), 24, 20);
    r.resized_at(20, 5, 24, &vec![], Some(10));
    assert_eq!(r.at(), 3);
}

#[test]
fn a_narrower_window_keeps_its_lines_whatever_the_cursor_says() {
    // The cursor's row bounds the top, but the title is still the region's (drawn again at
    // the screen's top): the widths may count more rows than the terminal made, in tmux too.
    let t = vec![line(Entry::Title, "T")];
    for pulls_back in [false, true] {
        let mut r = Region::new(Placement::Inline, true).with_pull_back(pulls_back);
        r.draw(&t, &block(&["0123456789", "ab"]), 24, 20);
        r.cursor_told(Some(3));
        r.resized_at(20, 5, 24, &t, Some(3));
        assert_eq!(r.at(), 3);
        assert!(!r.is_given_up(Entry::Title));
    }
}

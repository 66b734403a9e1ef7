use super::*;
use crate::keys::Decoder;
use std::time::{Duration, Instant};

fn editor(initial: &str) -> LineEditor {
    LineEditor::new(EditorSpec::new(EditorKind::Answer, initial))
}

/// The editor after typing `text` (each character a key) into an empty one.
fn typed(text: &str) -> LineEditor {
    let mut e = editor("");
    for c in text.chars() {
        e.on(&Key::Char(c));
    }
    e
}

/// The keys the reader decodes from `bytes` (an ESC and nothing after it, at the end, as Esc).
fn decoded(bytes: &[u8]) -> Vec<Key> {
    let mut d = Decoder::new(Duration::from_millis(50));
    let t = Instant::now();
    d.feed_all(bytes, t);
    d.expire(t + Duration::from_secs(1));
    std::iter::from_fn(|| d.next_key()).collect()
}

/// The text, with `|` at the cursor.
fn shown(e: &LineEditor) -> String {
    format!("{}|{}", e.before_cursor(), &e.text()[e.pos()..])
}

#[test]
fn characters_are_typed_at_the_cursor() {
    let mut e = typed("ac");
    assert_eq!(e.on(&Key::Left), Outcome::Moved);
    assert_eq!(e.on(&Key::Char('b')), Outcome::Edited);
    assert_eq!(shown(&e), "ab|c");
    e.on(&Key::Char('é'));
    e.on(&Key::Char('日'));
    assert_eq!(shown(&e), "abé日|c");
}

#[test]
fn movement_keys_move_by_character_word_and_line() {
    let mut e = editor("one two three");
    assert_eq!(e.on(&Key::Ctrl('a')), Outcome::Moved);
    assert_eq!(shown(&e), "|one two three");
    assert_eq!(e.on(&Key::Ctrl('a')), Outcome::Nothing);
    e.on(&Key::Alt('f'));
    assert_eq!(shown(&e), "one| two three");
    e.on(&Key::Alt('f'));
    assert_eq!(shown(&e), "one two| three");
    e.on(&Key::Alt('b'));
    assert_eq!(shown(&e), "one |two three");
    e.on(&Key::Ctrl('f'));
    assert_eq!(shown(&e), "one t|wo three");
    e.on(&Key::Ctrl('b'));
    e.on(&Key::Ctrl('b'));
    assert_eq!(shown(&e), "one| two three");
    e.on(&Key::End);
    assert_eq!(shown(&e), "one two three|");
    e.on(&Key::Home);
    assert_eq!(shown(&e), "|one two three");
    e.on(&Key::Ctrl('e'));
    assert_eq!(shown(&e), "one two three|");
    assert_eq!(e.on(&Key::Right), Outcome::Nothing);
}

#[test]
fn ctrl_and_alt_with_the_arrows_move_by_words_in_every_encoding() {
    // xterm and kitty (`ESC[1;5D`), SS3 (`ESC O 5 D`), rxvt (`ESC O d`), Alt (`ESC[1;3D`).
    for (left, right) in [
        (&b"\x1b[1;5D"[..], &b"\x1b[1;5C"[..]),
        (b"\x1bO5D", b"\x1bO5C"),
        (b"\x1bOd", b"\x1bOc"),
        (b"\x1b[1;3D", b"\x1b[1;3C"),
    ] {
        let mut e = editor("one two three");
        for key in decoded(left) {
            assert_eq!(e.on(&key), Outcome::Moved, "{left:?}");
        }
        assert_eq!(shown(&e), "one two |three", "{left:?}");
        for key in decoded(left) {
            e.on(&key);
        }
        assert_eq!(shown(&e), "one |two three", "{left:?}");
        for key in decoded(right) {
            e.on(&key);
        }
        assert_eq!(shown(&e), "one two| three", "{right:?}");
        // A word typed there: the text says where the cursor was.
        e.on(&Key::Char('s'));
        assert_eq!(e.text(), "one twos three", "{right:?}");
    }
}

#[test]
fn up_and_down_move_between_the_lines_of_a_text() {
    let mut e = editor("abcd\nxy\nlong line");
    e.on(&Key::Left);
    e.on(&Key::Left);
    e.on(&Key::Left);
    e.on(&Key::Left);
    // Column 5: the short line in between does not lose it (the goal column).
    assert_eq!(e.on(&Key::Up), Outcome::Moved);
    assert_eq!(shown(&e), "abcd\nxy|\nlong line");
    e.on(&Key::Up);
    assert_eq!(shown(&e), "abcd|\nxy\nlong line");
    assert_eq!(e.on(&Key::Up), Outcome::Nothing);
    e.on(&Key::Down);
    e.on(&Key::Down);
    assert_eq!(shown(&e), "abcd\nxy\nlong |line");
    assert_eq!(e.on(&Key::Down), Outcome::Nothing);
    // Home and End keep to the line.
    e.on(&Key::Home);
    assert_eq!(shown(&e), "abcd\nxy\n|long line");
    // Another key sets a new goal: from column 2 of the last line, up to the short one and
    // the first, column 2.
    e.on(&Key::Ctrl('a'));
    e.on(&Key::Right);
    e.on(&Key::Right);
    e.on(&Key::Up);
    e.on(&Key::Up);
    assert_eq!(shown(&e), "ab|cd\nxy\nlong line");
}

#[test]
fn deleting_keys_delete_a_character_back_and_forward() {
    let mut e = typed("abc");
    e.on(&Key::Backspace);
    assert_eq!(shown(&e), "ab|");
    e.on(&Key::Ctrl('h'));
    assert_eq!(shown(&e), "a|");
    e.on(&Key::Home);
    e.on(&Key::Delete);
    assert_eq!(shown(&e), "|");
    assert_eq!(e.on(&Key::Backspace), Outcome::Nothing);
    let mut e = editor("xy");
    e.on(&Key::Home);
    assert_eq!(e.on(&Key::Ctrl('d')), Outcome::Edited);
    assert_eq!(shown(&e), "|y");
    // A grapheme goes whole.
    let mut e = editor("e\u{301}");
    e.on(&Key::Backspace);
    assert_eq!(e.text(), "");
}

#[test]
fn ctrl_d_closes_an_empty_editor() {
    assert_eq!(editor("").on(&Key::Ctrl('d')), Outcome::Close);
}

#[test]
fn kills_go_to_the_ring_and_ctrl_y_yanks_them_back() {
    let mut e = editor("one two three");
    e.on(&Key::Ctrl('w'));
    assert_eq!(shown(&e), "one two |");
    e.on(&Key::Ctrl('y'));
    assert_eq!(shown(&e), "one two three|");
    e.on(&Key::Ctrl('a'));
    e.on(&Key::Ctrl('k'));
    assert_eq!(shown(&e), "|");
    e.on(&Key::Ctrl('y'));
    e.on(&Key::Ctrl('y'));
    assert_eq!(e.text(), "one two threeone two three");
    let mut e = editor("alpha beta");
    e.on(&Key::Left);
    e.on(&Key::Left);
    e.on(&Key::Ctrl('u'));
    assert_eq!(shown(&e), "|ta");
    e.on(&Key::End);
    e.on(&Key::Ctrl('y'));
    assert_eq!(e.text(), "taalpha be");
}

#[test]
fn consecutive_kills_join_one_entry_and_another_key_starts_a_new_one() {
    let mut e = editor("a b c");
    e.on(&Key::Ctrl('w'));
    e.on(&Key::Ctrl('w'));
    assert_eq!(e.text(), "a ");
    e.on(&Key::Ctrl('y'));
    assert_eq!(e.text(), "a b c");
    e.on(&Key::Home);
    e.on(&Key::Alt('d'));
    e.on(&Key::Alt('d'));
    assert_eq!(e.text(), " c");
    e.on(&Key::End);
    e.on(&Key::Ctrl('y'));
    assert_eq!(e.text(), " ca b");
}

#[test]
fn alt_backspace_kills_the_word_before_and_ctrl_w_to_the_blank() {
    let mut e = editor("path/to/file");
    e.on(&Key::Alt('\u{7f}'));
    assert_eq!(e.text(), "path/to/");
    let mut e = editor("x path/to/file");
    e.on(&Key::Ctrl('w'));
    assert_eq!(e.text(), "x ");
}

#[test]
fn ctrl_t_swaps_the_characters_around_the_cursor() {
    let mut e = editor("abc");
    e.on(&Key::Left);
    assert_eq!(e.on(&Key::Ctrl('t')), Outcome::Edited);
    assert_eq!(shown(&e), "acb|");
}

#[test]
fn undo_takes_back_a_typed_word_then_each_key() {
    let mut e = typed("hello world");
    e.on(&Key::Ctrl('_'));
    assert_eq!(e.text(), "hello ");
    e.on(&Key::Ctrl('_'));
    assert_eq!(e.text(), "hello");
    e.on(&Key::Ctrl('_'));
    assert_eq!(e.text(), "");
    assert_eq!(e.on(&Key::Ctrl('_')), Outcome::Nothing);
}

#[test]
fn undo_restores_kills_transposes_and_pastes() {
    let mut e = editor("one two");
    e.on(&Key::Ctrl('w'));
    e.on(&Key::Ctrl('_'));
    assert_eq!(shown(&e), "one two|");
    e.on(&Key::Ctrl('t'));
    assert_eq!(e.text(), "one tow");
    e.on(&Key::Ctrl('_'));
    assert_eq!(e.text(), "one two");
    e.on(&Key::Paste("pasted\ntext".into()));
    assert_eq!(e.text(), "one twopasted\ntext");
    e.on(&Key::Ctrl('_'));
    assert_eq!(shown(&e), "one two|");
    // The text the editor opened with is not undone.
    e.on(&Key::Ctrl('_'));
    assert_eq!(e.text(), "one two");
}

#[test]
fn the_closing_and_global_keys_are_handed_back() {
    let mut e = editor("x");
    assert_eq!(e.on(&Key::Enter), Outcome::Save);
    assert_eq!(e.on(&Key::Esc), Outcome::Close);
    assert_eq!(e.on(&Key::Ctrl('c')), Outcome::Dismiss);
    assert_eq!(e.on(&Key::Ctrl('z')), Outcome::Suspend);
    assert_eq!(e.on(&Key::Ctrl(']')), Outcome::Peek);
    assert_eq!(e.on(&Key::Ctrl('g')), Outcome::External);
    assert_eq!(e.on(&Key::Ctrl('x')), Outcome::Nothing);
    assert_eq!(e.on(&Key::Ctrl('e')), Outcome::External);
    // Ctrl+E alone is End.
    assert_eq!(e.on(&Key::Ctrl('e')), Outcome::Nothing);
    assert_eq!(e.on(&Key::Tab), Outcome::Complete);
    assert_eq!(e.on(&Key::PageUp), Outcome::Nothing);
    assert_eq!(e.text(), "x");
}

#[test]
fn the_filter_has_no_completion_and_no_external_editor() {
    let mut e = LineEditor::new(EditorSpec::new(EditorKind::Filter, "ab"));
    assert_eq!(e.on(&Key::Tab), Outcome::Nothing);
    assert_eq!(e.on(&Key::Ctrl('g')), Outcome::Nothing);
    e.on(&Key::Ctrl('x'));
    assert_eq!(e.on(&Key::Ctrl('e')), Outcome::Nothing);
}

#[test]
fn navigation_keys_leave_only_an_empty_editor() {
    for key in [
        Key::Up,
        Key::Down,
        Key::Left,
        Key::Right,
        Key::Tab,
        Key::BackTab,
    ] {
        assert_eq!(editor("").on(&key), Outcome::Navigate(key.clone()));
        assert!(!matches!(editor("a").on(&key), Outcome::Navigate(_)));
    }
    // Ctrl+B and Ctrl+F are editing keys only.
    assert_eq!(editor("").on(&Key::Ctrl('b')), Outcome::Nothing);
}

#[test]
fn every_key_form_the_reader_decodes_means_the_same_in_an_editor() {
    // Legacy, kitty CSI u, xterm modifyOtherKeys: Ctrl+W, Ctrl+A, then Ctrl+C.
    for (ctrl_w, ctrl_a, ctrl_c) in [
        (&b"\x17"[..], &b"\x01"[..], &b"\x03"[..]),
        (b"\x1b[119;5u", b"\x1b[97;5u", b"\x1b[99;5u"),
        (b"\x1b[27;5;119~", b"\x1b[27;5;97~", b"\x1b[27;5;99~"),
    ] {
        let mut e = editor("abc def");
        let mut outcomes = Vec::new();
        for bytes in [ctrl_w, ctrl_a, b"X", ctrl_c] {
            for key in decoded(bytes) {
                outcomes.push(e.on(&key));
            }
        }
        assert_eq!(e.text(), "Xabc ");
        assert_eq!(outcomes.last(), Some(&Outcome::Dismiss));
    }
    // Esc in kitty's form closes; an SS3 Home moves.
    let mut e = editor("ab");
    assert_eq!(
        decoded(b"\x1bOH").iter().map(|k| e.on(k)).last(),
        Some(Outcome::Moved)
    );
    assert_eq!(
        decoded(b"\x1b[27u").iter().map(|k| e.on(k)).last(),
        Some(Outcome::Close)
    );
    assert_eq!(shown(&e), "|ab");
}

#[test]
fn a_paste_goes_in_at_once_without_its_escape_sequences() {
    let mut e = typed("a");
    assert_eq!(e.on(&Key::Paste("x\u{1b}[0my".into())), Outcome::Edited);
    assert_eq!(shown(&e), "axy|");
    assert_eq!(
        sanitize_paste("x\u{1b}]0;title\u{7}y\u{1b}]8;;http://e\u{1b}\\z"),
        "xyz"
    );
    assert_eq!(
        sanitize_paste("a\u{1b}P1$r0m\u{1b}\\b\u{1b}_apc\u{1b}\\c"),
        "abc"
    );
    assert_eq!(
        sanitize_paste("a\u{1b}^pm\u{1b}\\b\u{1b}Xsos\u{1b}\\c"),
        "abc"
    );
    // BEL ends an OSC only: an APC goes on to its ST.
    assert_eq!(sanitize_paste("a\u{1b}_x\u{7}y\u{1b}\\b"), "ab");
    // C1 forms, and a two-byte escape.
    assert_eq!(sanitize_paste("a\u{9b}31mb\u{9d}t\u{9c}c\u{1b}7d"), "abcd");
    // A CSI with intermediate bytes, a private one.
    assert_eq!(sanitize_paste("a\u{1b}[?2004hb\u{1b}[1 qc"), "abc");
    // Line breaks: CR LF, CR, LF each one `\n`; tabs and other text kept.
    assert_eq!(sanitize_paste("1\r\n2\r3\n4\t5"), "1\n2\n3\n4\t5");
    // A string that never ends takes the rest of the paste, nothing more.
    assert_eq!(sanitize_paste("ok\u{1b}]52;c;Zm9v"), "ok");
}

#[test]
fn a_replacement_character_keeps_the_rest_of_the_paste() {
    // The reader makes a byte that is not UTF-8 U+FFFD; the rest of the paste stays.
    let keys = decoded(b"\x1b[200~ab\xffcd\x1b[201~");
    let mut e = editor("");
    for key in &keys {
        e.on(key);
    }
    assert_eq!(e.text(), "ab\u{fffd}cd");
}

#[test]
fn a_sequence_split_between_paste_chunks_is_still_dropped() {
    let mut e = editor("");
    e.on(&Key::Paste("a\u{1b}[3".into()));
    e.on(&Key::Paste("1mb".into()));
    assert_eq!(e.text(), "ab");
    // A key between pastes ends the first.
    e.on(&Key::Paste("\u{1b}]0;t".into()));
    e.on(&Key::End);
    e.on(&Key::Paste("c".into()));
    assert_eq!(e.text(), "abc");
}

#[test]
fn a_full_editor_keeps_what_fits_and_says_so() {
    let mut spec = EditorSpec::new(EditorKind::Note, "");
    spec.max_bytes = 5;
    let mut e = LineEditor::new(spec);
    e.on(&Key::Paste("abcé".into()));
    assert_eq!(e.text(), "abcé");
    assert!(!e.take_full());
    assert_eq!(e.on(&Key::Char('x')), Outcome::Nothing);
    assert!(e.take_full());
    let mut spec = EditorSpec::new(EditorKind::Note, "");
    spec.max_bytes = 4;
    let mut e = LineEditor::new(spec);
    e.on(&Key::Paste("abcé".into()));
    assert_eq!(e.text(), "abc");
    assert!(e.take_full());
}

#[test]
fn a_completion_and_the_external_editors_text_replace_as_one_undo() {
    let mut e = typed("see @sr");
    e.set_line("see @src/ x", 9);
    assert_eq!(shown(&e), "see @src/| x");
    e.on(&Key::Ctrl('_'));
    assert_eq!(e.text(), "see @sr");
    e.set_text("from the editor\n");
    assert_eq!(shown(&e), "from the editor\n|");
    e.on(&Key::Ctrl('_'));
    assert_eq!(e.text(), "see @sr");
}

fn rows(v: &View) -> Vec<&str> {
    v.rows.iter().map(Row::as_str).collect()
}

#[test]
fn an_empty_editor_shows_its_placeholder_after_the_prompt() {
    let v = editor("").view(40, 5);
    assert_eq!(v.rows, vec![Row::Placeholder("> Type answer...".into())]);
    assert_eq!(v.cursor, (0, 2));
}

#[test]
fn the_text_wraps_at_the_width_and_line_breaks_start_rows() {
    let e = editor("abcdefgh\nij");
    let v = e.view(6, 5);
    assert_eq!(rows(&v), vec!["> abcd", "  efgh", "  ij"]);
    assert_eq!(v.cursor, (2, 4));
    assert_eq!(v.cursor_byte, 4);
    // A cursor at the end of a full row is at the start of the next.
    let e = editor("abcd");
    let v = e.view(6, 5);
    assert_eq!(rows(&v), vec!["> abcd", "  "]);
    assert_eq!(v.cursor, (1, 2));
    // A wide character that does not fit goes to the next row whole.
    let mut e = editor("abc日");
    e.on(&Key::Left);
    let v = e.view(6, 5);
    assert_eq!(rows(&v), vec!["> abc", "  日"]);
    assert_eq!(v.cursor, (1, 2));
    assert_eq!(v.cursor_byte, 2);
}

#[test]
fn control_characters_are_drawn_visible_and_masked_text_as_bullets() {
    let e = editor("a\u{7}b");
    assert_eq!(rows(&e.view(20, 5)), vec!["> a\\x07b"]);
    let mut spec = EditorSpec::new(EditorKind::Answer, "secret");
    spec.masked = true;
    assert_eq!(
        rows(&LineEditor::new(spec).view(20, 5)),
        vec!["> \u{2022}\u{2022}\u{2022}\u{2022}\u{2022}\u{2022}"]
    );
}

#[test]
fn a_tall_text_scrolls_in_its_rows_with_a_marker_above_and_below() {
    let text: String = (1..=10).map(|i| format!("line{i}\n")).collect();
    let mut e = editor(text.trim_end());
    let v = e.view(20, 5);
    assert_eq!(
        rows(&v),
        vec![
            "\u{2191} 6 more lines",
            "  line7",
            "  line8",
            "  line9",
            "  line10",
        ]
    );
    assert_eq!(v.cursor, (4, 8));
    // Never more rows than asked, nor than the spec allows.
    assert!(v.rows.len() <= 5);
    for _ in 0..9 {
        e.on(&Key::Up);
    }
    let v = e.view(20, 5);
    assert_eq!(
        rows(&v),
        vec![
            "> line1",
            "  line2",
            "  line3",
            "  line4",
            "\u{2193} 6 more lines"
        ]
    );
    assert_eq!(v.cursor, (0, 7));
    // The view stays put while the cursor is in it.
    e.on(&Key::Down);
    e.on(&Key::Down);
    assert_eq!(e.view(20, 5).rows[0].as_str(), "> line1");
    e.on(&Key::Down);
    e.on(&Key::Down);
    let v = e.view(20, 5);
    assert_eq!(
        rows(&v),
        vec![
            "\u{2191} 2 more lines",
            "  line3",
            "  line4",
            "  line5",
            "\u{2193} 5 more lines"
        ]
    );
    assert_eq!(v.cursor, (3, 7));
}

#[test]
fn a_view_of_one_or_two_rows_has_no_marker_and_keeps_the_cursor() {
    let e = editor("a\nb\nc");
    let v = e.view(20, 1);
    assert_eq!(rows(&v), vec!["  c"]);
    assert_eq!(v.cursor, (0, 3));
    let v = e.view(20, 2);
    assert_eq!(rows(&v), vec!["  b", "  c"]);
}

#[test]
fn a_resize_lays_the_same_text_out_again() {
    let e = editor("abcdefghij");
    assert_eq!(rows(&e.view(13, 5)), vec!["> abcdefghij"]);
    assert_eq!(rows(&e.view(7, 5)), vec!["> abcde", "  fghij", "  "]);
}

#[test]
fn a_line_break_pasted_into_the_filter_is_a_space() {
    // The filter is one line; an answer or a note keeps its line breaks.
    let mut filter = LineEditor::new(EditorSpec::new(EditorKind::Filter, ""));
    assert_eq!(filter.on(&Key::Paste("an\r\ngo".into())), Outcome::Edited);
    assert_eq!(filter.text(), "an go");
    let mut answer = LineEditor::new(EditorSpec::new(EditorKind::Answer, ""));
    answer.on(&Key::Paste("an\ngo".into()));
    assert_eq!(answer.text(), "an\ngo");
}

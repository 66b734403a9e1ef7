//! The decoder's tests: every sequence whole, split at every byte, with gaps around the
//! escape delay, through a [`KeyReader`] over a [`ScriptedSource`] and a [`ManualClock`] (no
//! test sleeps).

use super::*;
use std::io;
use std::time::{Duration, Instant};

const DELAY: Duration = Duration::from_millis(25);

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

/// The keys of `script` (each chunk's first byte a gap after the chunk before, the others at
/// once), read by a reader with escape delay `delay` until the input ends.
fn read_with(delay: Duration, chunk: usize, script: &[(Duration, &[u8])]) -> Vec<Key> {
    let clock = ManualClock::new();
    let mut source = ScriptedSource::new(&clock);
    for (gap, bytes) in script {
        source.push_bytes(*gap, bytes);
    }
    let decoder = Decoder::new(delay).with_paste_chunk(chunk);
    let mut reader = KeyReader::with_decoder(source, clock, decoder);
    let mut keys = Vec::new();
    loop {
        match reader.next(None) {
            Ok(Event::Key(key)) => keys.push(key),
            Ok(other) => panic!("unexpected {other:?}"),
            Err(e) => {
                assert_eq!(e.kind(), io::ErrorKind::UnexpectedEof);
                assert!(reader.is_idle(), "input ended with bytes held");
                return keys;
            }
        }
    }
}

fn read(script: &[(Duration, &[u8])]) -> Vec<Key> {
    read_with(DELAY, DEFAULT_PASTE_CHUNK, script)
}

/// The keys of `bytes`, all arriving at once.
fn keys(bytes: &[u8]) -> Vec<Key> {
    read(&[(ms(0), bytes)])
}

/// The keys of `bytes`, each `gap` after the one before.
fn spaced(bytes: &[u8], gap: Duration) -> Vec<Key> {
    let chunks: Vec<(Duration, &[u8])> =
        (0..bytes.len()).map(|i| (gap, &bytes[i..i + 1])).collect();
    read(&chunks)
}

use Key::*;

/// Every supported multi-byte form and its key (`None`: swallowed, no key).
const SEQUENCES: &[(&[u8], Option<Key>)] = &[
    // Arrows: CSI, SS3, with modifiers, rxvt.
    (b"\x1b[A", Some(Up)),
    (b"\x1b[B", Some(Down)),
    (b"\x1b[C", Some(Right)),
    (b"\x1b[D", Some(Left)),
    (b"\x1bOA", Some(Up)),
    (b"\x1bOB", Some(Down)),
    (b"\x1bOC", Some(Right)),
    (b"\x1bOD", Some(Left)),
    (b"\x1b[1;5A", Some(Up)),
    (b"\x1b[1;2B", Some(Down)),
    (b"\x1b[1;2C", Some(Right)),
    (b"\x1b[1;2D", Some(Left)),
    (b"\x1bO1;5A", Some(Up)),
    // Ctrl and Alt with ←/→: word moves in an editor (xterm, kitty, SS3, rxvt).
    (b"\x1b[1;5D", Some(CtrlLeft)),
    (b"\x1b[1;5C", Some(CtrlRight)),
    (b"\x1b[1;6D", Some(CtrlLeft)),
    (b"\x1b[1;7C", Some(CtrlRight)),
    (b"\x1b[1;3D", Some(AltLeft)),
    (b"\x1b[1;3C", Some(AltRight)),
    (b"\x1b[1;4D", Some(AltLeft)),
    (b"\x1b[1;9C", Some(AltRight)),
    (b"\x1bO5D", Some(CtrlLeft)),
    (b"\x1bO1;5C", Some(CtrlRight)),
    (b"\x1bO3D", Some(AltLeft)),
    (b"\x1bOd", Some(CtrlLeft)),
    (b"\x1bOc", Some(CtrlRight)),
    (b"\x1b[d", Some(Left)),
    (b"\x1b[c", Some(Right)),
    (b"\x1b[a", Some(Up)),
    (b"\x1bOb", Some(Down)),
    // Home and End, every common form.
    (b"\x1b[H", Some(Home)),
    (b"\x1b[F", Some(End)),
    (b"\x1b[1~", Some(Home)),
    (b"\x1b[4~", Some(End)),
    (b"\x1b[7~", Some(Home)),
    (b"\x1b[8~", Some(End)),
    (b"\x1bOH", Some(Home)),
    (b"\x1bOF", Some(End)),
    (b"\x1b[1;5H", Some(Home)),
    (b"\x1b[1;2F", Some(End)),
    // PageUp, PageDown, Insert, Delete.
    (b"\x1b[5~", Some(PageUp)),
    (b"\x1b[6~", Some(PageDown)),
    (b"\x1b[5;5~", Some(PageUp)),
    (b"\x1b[2~", Some(Insert)),
    (b"\x1b[3~", Some(Delete)),
    (b"\x1b[3;2~", Some(Delete)),
    // Shift+Tab.
    (b"\x1b[Z", Some(BackTab)),
    (b"\x1b[9;2u", Some(BackTab)),
    (b"\x1b[27;2;9~", Some(BackTab)),
    // The kitty keyboard protocol.
    (b"\x1b[27u", Some(Esc)),
    (b"\x1b[13u", Some(Enter)),
    (b"\x1b[9u", Some(Tab)),
    (b"\x1b[127u", Some(Backspace)),
    (b"\x1b[99;5u", Some(Ctrl('c'))),
    (b"\x1b[122;5u", Some(Ctrl('z'))),
    (b"\x1b[93;5u", Some(Ctrl(']'))),
    (b"\x1b[104;5u", Some(Ctrl('h'))),
    (b"\x1b[99;7u", Some(Ctrl('c'))),
    (b"\x1b[99;5:2u", Some(Ctrl('c'))),
    (b"\x1b[91;5u", Some(Esc)),
    (b"\x1b[32;5u", Some(Ctrl(' '))),
    (b"\x1b[13;2u", Some(Enter)),
    (b"\x1b[27;1:1u", Some(Esc)),
    (b"\x1b[97u", Some(Char('a'))),
    (b"\x1b[97;1;97u", Some(Char('a'))),
    (b"\x1b[97;2u", Some(Char('A'))),
    (b"\x1b[49:33;2u", Some(Char('!'))),
    (b"\x1b[97;3u", Some(Alt('a'))),
    (b"\x1b[233u", Some(Char('é'))),
    (b"\x1b[99;5:3u", None),
    (b"\x1b[57399u", None),
    (b"\x1b[49;5u", None),
    (b"\x1b[?1u", None),
    // xterm modifyOtherKeys.
    (b"\x1b[27;5;99~", Some(Ctrl('c'))),
    (b"\x1b[27;1;13~", Some(Enter)),
    (b"\x1b[27;5;13~", Some(Enter)),
    (b"\x1b[27;1;27~", Some(Esc)),
    (b"\x1b[27;2;65~", Some(Char('A'))),
    (b"\x1b[27;3;97~", Some(Alt('a'))),
    // The application keypad.
    (b"\x1bOp", Some(Char('0'))),
    (b"\x1bOq", Some(Char('1'))),
    (b"\x1bOy", Some(Char('9'))),
    (b"\x1bOk", Some(Char('+'))),
    (b"\x1bOM", Some(Enter)),
    // Alt and UTF-8.
    (b"\x1bx", Some(Alt('x'))),
    (b"\x1b ", Some(Alt(' '))),
    (b"\x1bN", Some(Alt('N'))),
    ("\x1bé".as_bytes(), Some(Alt('é'))),
    ("é".as_bytes(), Some(Char('é'))),
    ("€".as_bytes(), Some(Char('€'))),
    ("😀".as_bytes(), Some(Char('😀'))),
    // Focus reports.
    (b"\x1b[I", None),
    (b"\x1b[O", None),
    // Mouse reports: X10, SGR press and release, urxvt.
    (b"\x1b[M !!", None),
    (b"\x1b[M`\xff\xa0", None),
    (b"\x1b[<0;12;5M", None),
    (b"\x1b[<0;12;5m", None),
    (b"\x1b[<64;120;45M", None),
    (b"\x1b[32;12;5M", None),
    // Terminal replies: cursor position, device attributes, modes, sizes, OSC, DCS, APC.
    (b"\x1b[12;40R", None),
    (b"\x1b[?62;22c", None),
    (b"\x1b[?1;2c", None),
    (b"\x1b[>41;354;0c", None),
    (b"\x1b[0n", None),
    (b"\x1b[?2004;1$y", None),
    (b"\x1b[8;24;80t", None),
    (b"\x1b]11;rgb:0000/0000/0000\x07", None),
    (b"\x1b]11;rgb:ffff/ffff/ffff\x1b\\", None),
    (b"\x1b]52;c;aGVsbG8=\x07", None),
    (b"\x1bP>|xterm(354)\x1b\\", None),
    (b"\x1bP1$r0m\x1b\\", None),
    (b"\x1b_Gi=1;OK\x1b\\", None),
    // Function keys and other unknown sequences.
    (b"\x1bOP", None),
    (b"\x1bOS", None),
    (b"\x1b[15~", None),
    (b"\x1b[24;5~", None),
    (b"\x1b[1;5P", None),
    (b"\x1b[201~", None),
    (b"\x1b[ q", None),
    (b"\x1b[[A", None),
    (b"\x1b[99z", None),
    (b"\x1b[1;2;3;4;5;6;7;8;9;10;11;12;13;14;15;16X", None),
];

fn expected(key: &Option<Key>) -> Vec<Key> {
    key.iter().cloned().collect()
}

#[test]
fn every_sequence_decodes_whole() {
    for (bytes, key) in SEQUENCES {
        assert_eq!(keys(bytes), expected(key), "{:?}", bytes.escape_ascii());
    }
}

#[test]
fn every_sequence_is_consumed_exactly() {
    for (bytes, key) in SEQUENCES {
        let mut then = bytes.to_vec();
        then.extend_from_slice(b"x\x1b[B");
        let mut want = expected(key);
        want.extend([Char('x'), Down]);
        assert_eq!(keys(&then), want, "{:?}", bytes.escape_ascii());
    }
}

#[test]
fn every_sequence_split_at_every_byte_with_3_ms_decodes_the_same() {
    for (bytes, key) in SEQUENCES {
        for at in 1..bytes.len() {
            let got = read(&[(ms(0), &bytes[..at]), (ms(3), &bytes[at..])]);
            assert_eq!(got, expected(key), "{:?} at {at}", bytes.escape_ascii());
        }
    }
}

#[test]
fn every_sequence_with_3_ms_between_all_its_bytes_decodes_the_same() {
    // Long sequences take more than the delay in all: the delay counts from the last byte.
    for (bytes, key) in SEQUENCES {
        assert_eq!(
            spaced(bytes, ms(3)),
            expected(key),
            "{:?}",
            bytes.escape_ascii()
        );
        assert_eq!(
            spaced(bytes, ms(24)),
            expected(key),
            "{:?}",
            bytes.escape_ascii()
        );
    }
}

#[test]
fn every_sequence_split_past_the_delay_never_gives_esc_unless_after_the_esc() {
    for (bytes, key) in SEQUENCES {
        // A second ESC (the string terminator) left alone is an Esc of its own.
        if bytes[1..].contains(&0x1b) || *key == Some(Esc) {
            continue;
        }
        for at in 2..bytes.len() {
            let got = read(&[(ms(0), &bytes[..at]), (ms(26), &bytes[at..])]);
            assert!(
                !got.contains(&Esc),
                "{:?} at {at}: {got:?}",
                bytes.escape_ascii()
            );
        }
    }
}

#[test]
fn single_bytes() {
    let cases: &[(u8, Key)] = &[
        (b'\r', Enter),
        (b'\n', Enter),
        (b'\t', Tab),
        (0x7f, Backspace),
        (0x08, Backspace),
        (0x01, Ctrl('a')),
        (0x03, Ctrl('c')),
        (0x04, Ctrl('d')),
        (0x0e, Ctrl('n')),
        (0x1a, Ctrl('z')),
        (0x00, Ctrl(' ')),
        (0x1c, Ctrl('\\')),
        (0x1d, Ctrl(']')),
        (0x1e, Ctrl('^')),
        (0x1f, Ctrl('_')),
        (b' ', Char(' ')),
        (b'a', Char('a')),
        (b'Z', Char('Z')),
        (b'7', Char('7')),
        (b'~', Char('~')),
    ];
    for (byte, key) in cases {
        assert_eq!(keys(&[*byte]), vec![key.clone()], "{byte:#04x}");
    }
}

#[test]
fn a_typed_line_is_its_characters() {
    assert_eq!(
        keys("ok, ça va\r".as_bytes()),
        vec![
            Char('o'),
            Char('k'),
            Char(','),
            Char(' '),
            Char('ç'),
            Char('a'),
            Char(' '),
            Char('v'),
            Char('a'),
            Enter
        ]
    );
}

#[test]
fn a_lone_esc_then_30_ms_of_silence_is_esc() {
    assert_eq!(keys(b"\x1b"), vec![Esc]);
    assert_eq!(
        read(&[(ms(0), b"\x1b"), (ms(30), b"x")]),
        vec![Esc, Char('x')]
    );
}

#[test]
fn esc_then_a_gap_past_the_delay_then_a_sequence_tail_is_ordinary_input() {
    assert_eq!(
        read(&[(ms(0), b"\x1b"), (ms(26), b"[B")]),
        vec![Esc, Char('['), Char('B')]
    );
    assert_eq!(
        read(&[(ms(0), b"\x1b"), (ms(26), b"OA")]),
        vec![Esc, Char('O'), Char('A')]
    );
}

#[test]
fn a_byte_at_the_deadline_still_counts() {
    assert_eq!(read(&[(ms(0), b"\x1b"), (ms(25), b"[B")]), vec![Down]);
    assert_eq!(read(&[(ms(0), b"\x1b"), (ms(25), b"x")]), vec![Alt('x')]);
}

#[test]
fn the_delay_counts_from_the_last_byte() {
    assert_eq!(
        read(&[(ms(0), b"\x1b"), (ms(24), b"["), (ms(24), b"B")]),
        vec![Down]
    );
}

#[test]
fn the_ssh_delay_waits_longer() {
    let script: &[(Duration, &[u8])] = &[(ms(0), b"\x1b"), (ms(80), b"[B")];
    assert_eq!(
        read_with(SSH_ESCAPE_DELAY, DEFAULT_PASTE_CHUNK, script),
        vec![Down]
    );
    assert_eq!(read(script), vec![Esc, Char('['), Char('B')]);
}

#[test]
fn a_zero_delay_takes_only_what_came_with_the_esc() {
    let zero = |script: &[(Duration, &[u8])]| read_with(Duration::ZERO, 64, script);
    assert_eq!(zero(&[(ms(0), b"\x1b[A")]), vec![Up]);
    assert_eq!(
        zero(&[(ms(0), b"\x1b"), (ms(1), b"[A")]),
        vec![Esc, Char('['), Char('A')]
    );
}

#[test]
fn alt_is_esc_and_a_character_within_the_delay() {
    assert_eq!(keys(b"\x1bx"), vec![Alt('x')]);
    assert_eq!(read(&[(ms(0), b"\x1b"), (ms(10), b"x")]), vec![Alt('x')]);
    assert_eq!(
        read(&[(ms(0), b"\x1b"), (ms(30), b"x")]),
        vec![Esc, Char('x')]
    );
    // Alt+x does not wait for the delay: the next key follows at once.
    assert_eq!(keys(b"\x1bxy"), vec![Alt('x'), Char('y')]);
}

#[test]
fn esc_esc_is_esc_and_a_new_start() {
    assert_eq!(keys(b"\x1b\x1b"), vec![Esc, Esc]);
    assert_eq!(keys(b"\x1b\x1b[A"), vec![Esc, Up]);
    assert_eq!(keys(b"\x1b\x1bx"), vec![Esc, Alt('x')]);
}

#[test]
fn alt_backspace_is_alt_of_del_in_every_form() {
    assert_eq!(keys(b"\x1b\x7f"), vec![Alt('\u{7f}')]);
    assert_eq!(keys(b"\x1b\x08"), vec![Alt('\u{7f}')]);
    assert_eq!(keys(b"\x1b[127;3u"), vec![Alt('\u{7f}')]);
    assert_eq!(keys(b"\x1b[27;3;127~"), vec![Alt('\u{7f}')]);
    // Ctrl+Backspace (tmux extended keys) stays Backspace.
    assert_eq!(keys(b"\x1b[127;5u"), vec![Backspace]);
}

#[test]
fn esc_and_a_control_byte_is_that_key() {
    assert_eq!(keys(b"\x1b\r"), vec![Enter]);
    assert_eq!(keys(b"\x1b\x03"), vec![Ctrl('c')]);
    assert_eq!(keys(b"\x1b\t"), vec![Tab]);
}

#[test]
fn a_broken_sequence_is_alt_of_its_introducer_and_ordinary_input() {
    assert_eq!(keys(b"\x1b["), vec![Alt('[')]);
    assert_eq!(keys(b"\x1bO"), vec![Alt('O')]);
    assert_eq!(keys(b"\x1b]"), vec![Alt(']')]);
    assert_eq!(keys(b"\x1b[1;"), vec![Alt('['), Char('1'), Char(';')]);
    assert_eq!(
        read(&[(ms(0), b"\x1b[1;5"), (ms(40), b"A")]),
        vec![Alt('['), Char('1'), Char(';'), Char('5'), Char('A')]
    );
    // A byte that cannot continue the sequence ends it, and is decoded on its own.
    assert_eq!(keys(b"\x1b[\r"), vec![Alt('['), Enter]);
    assert_eq!(keys(b"\x1b[1\x1b[A"), vec![Alt('['), Char('1'), Up]);
    assert_eq!(keys(b"\x1bO x"), vec![Alt('O'), Char(' '), Char('x')]);
    assert_eq!(keys(b"\x1bO1\r"), vec![Alt('O'), Char('1'), Enter]);
    assert_eq!(keys(b"\x1b[[\r"), vec![Alt('['), Char('['), Enter]);
    // An X10 mouse report cut short.
    assert_eq!(keys(b"\x1b[M!"), vec![Alt('['), Char('M'), Char('!')]);
    // An OSC string that never ends within the delay.
    assert_eq!(
        read(&[(ms(0), b"\x1b]0;t"), (ms(40), b"\r")]),
        vec![Alt(']'), Char('0'), Char(';'), Char('t'), Enter]
    );
}

#[test]
fn a_string_ended_by_esc_and_not_backslash_starts_a_new_sequence() {
    assert_eq!(keys(b"\x1b]0;title\x1b[A"), vec![Up]);
    assert_eq!(keys(b"\x1bPq\x1bx"), vec![Alt('x')]);
}

#[test]
fn utf8_split_across_reads() {
    let text = "é€😀";
    for at in 1..text.len() {
        let bytes = text.as_bytes();
        let got = read(&[(ms(0), &bytes[..at]), (ms(3), &bytes[at..])]);
        assert_eq!(got, vec![Char('é'), Char('€'), Char('😀')], "at {at}");
    }
    assert_eq!(
        spaced(text.as_bytes(), ms(20)),
        vec![Char('é'), Char('€'), Char('😀')]
    );
}

#[test]
fn invalid_utf8_is_u_fffd_as_lossy_decoding_gives() {
    let cases: &[&[u8]] = &[
        b"\xff",
        b"\x80",
        b"\x9b",
        b"\xc0\xaf",
        b"\xc3(",
        b"\xe2\x82",
        b"\xe2\x82(",
        b"\xed\xa0\x80",
        b"\xf0\x90\x80",
        b"\xf4\x90\x80\x80",
        b"\xf8\x88\x80\x80\x80",
        b"a\xe0\x80b",
        b"\xf0\x9f\x98",
    ];
    for bytes in cases {
        let want: Vec<Key> = String::from_utf8_lossy(bytes).chars().map(Char).collect();
        assert_eq!(keys(bytes), want, "{:?}", bytes.escape_ascii());
        // The same when each byte comes on its own, within the delay.
        assert_eq!(spaced(bytes, ms(3)), want, "{:?}", bytes.escape_ascii());
    }
}

#[test]
fn an_incomplete_character_times_out_as_one_u_fffd() {
    assert_eq!(
        read(&[(ms(0), b"\xe2\x82"), (ms(30), b"\xac")]),
        vec![Char('\u{fffd}'), Char('\u{fffd}')]
    );
    assert_eq!(keys(b"\x1b\xc3"), vec![Alt('\u{fffd}')]);
}

#[test]
fn c1_control_characters_are_not_keys() {
    assert_eq!(keys("\u{85}a\u{9b}".as_bytes()), vec![Char('a')]);
}

#[test]
fn a_paste_is_one_key_with_exactly_its_bytes() {
    let inner = "hello\r\nworld\t\x1b[A\x1b\x1bO\x1b]0;x\x07 \x03 \x1b[200~ ok";
    let bytes = format!("\x1b[200~{inner}\x1b[201~x");
    assert_eq!(
        keys(bytes.as_bytes()),
        vec![Paste(inner.to_string()), Char('x')]
    );
}

#[test]
fn a_paste_split_at_every_byte_and_slow_is_still_one_paste() {
    let inner = "line 1\r\nlïne 2 \x1b[B";
    let bytes = format!("a\x1b[200~{inner}\x1b[201~b");
    let want = vec![Char('a'), Paste(inner.to_string()), Char('b')];
    let bytes = bytes.as_bytes();
    for at in 1..bytes.len() {
        let got = read(&[(ms(0), &bytes[..at]), (ms(3), &bytes[at..])]);
        assert_eq!(got, want, "at {at}");
    }
    // No timeout inside a paste: a second between bytes changes nothing.
    let inner_start = 1 + 6;
    let inner_end = bytes.len() - 1 - 6;
    let mut script: Vec<(Duration, &[u8])> = vec![(ms(0), &bytes[..inner_start])];
    for i in inner_start..bytes.len() - 1 {
        script.push((ms(1000), &bytes[i..i + 1]));
    }
    script.push((ms(0), &bytes[bytes.len() - 1..]));
    assert_eq!(read(&script), want);
    assert!(inner_end > inner_start);
}

#[test]
fn an_empty_paste_is_an_empty_paste_key() {
    assert_eq!(keys(b"\x1b[200~\x1b[201~"), vec![Paste(String::new())]);
}

#[test]
fn invalid_utf8_in_a_paste_is_u_fffd() {
    assert_eq!(
        keys(b"\x1b[200~a\xffb\xe2\x82\x1b[201~"),
        vec![Paste("a\u{fffd}b\u{fffd}".to_string())]
    );
}

#[test]
fn a_long_paste_comes_in_chunks_cut_between_characters() {
    let inner = "é€😀abc".repeat(20);
    let bytes = format!("\x1b[200~{inner}\x1b[201~");
    for chunk in [4, 5, 7, 16, 100] {
        let got = read_with(DELAY, chunk, &[(ms(0), bytes.as_bytes())]);
        let mut joined = String::new();
        for key in &got {
            let Paste(text) = key else { panic!("{key:?}") };
            assert!(!text.is_empty() && text.len() <= chunk, "{chunk}: {text:?}");
            assert!(!text.contains('\u{fffd}'));
            joined.push_str(text);
        }
        assert!(got.len() > 1);
        assert_eq!(joined, inner, "chunk {chunk}");
    }
}

#[test]
fn a_paste_start_split_past_the_delay_is_not_a_paste() {
    assert_eq!(
        read(&[(ms(0), b"\x1b[20"), (ms(30), b"0~x")]),
        vec![
            Alt('['),
            Char('2'),
            Char('0'),
            Char('0'),
            Char('~'),
            Char('x')
        ]
    );
}

#[test]
fn overlong_sequences_are_swallowed_to_their_end() {
    let mut csi = b"\x1b[".to_vec();
    for _ in 0..200 {
        csi.extend_from_slice(b"1;");
    }
    csi.extend_from_slice(b"Ax");
    assert_eq!(keys(&csi), vec![Char('x')]);
    let mut osc = b"\x1b]52;c;".to_vec();
    osc.extend_from_slice(&[b'A'; 5000]);
    osc.extend_from_slice(b"\x1b\\y");
    assert_eq!(keys(&osc), vec![Char('y')]);
    // Cut short by the delay: dropped; what comes later is ordinary input.
    let mut cut = b"\x1b]".to_vec();
    cut.extend_from_slice(&[b'A'; 300]);
    assert_eq!(read(&[(ms(0), &cut), (ms(30), b"z")]), vec![Char('z')]);
}

#[test]
fn the_decoder_holds_a_bounded_number_of_bytes() {
    let now = Instant::now();
    let mut d = Decoder::new(DELAY);
    d.feed_all(b"\x1b]", now);
    for _ in 0..10_000 {
        d.feed(b'A', now);
        assert!(d.buffered_len() <= MAX_SEQUENCE);
    }
    let mut d = Decoder::new(DELAY).with_paste_chunk(16);
    d.feed_all(b"\x1b[200~", now);
    for _ in 0..1000 {
        d.feed(0xe2, now);
        assert!(d.buffered_len() <= 16 + 4);
    }
}

#[test]
fn the_deadline_is_the_delay_after_the_last_byte_and_expire_ends_it() {
    let t0 = Instant::now();
    let mut d = Decoder::new(DELAY);
    assert_eq!(d.deadline(), None);
    d.feed(0x1b, t0);
    assert_eq!(d.deadline(), Some(t0 + DELAY));
    d.feed(b'[', t0 + ms(10));
    assert_eq!(d.deadline(), Some(t0 + ms(35)));
    d.expire(t0 + ms(34));
    assert_eq!(d.next_key(), None);
    assert!(d.is_pending());
    d.expire(t0 + ms(35));
    assert_eq!(d.next_key(), Some(Alt('[')));
    assert_eq!(d.deadline(), None);
    assert!(d.is_idle());
    // A paste waits PASTE_IDLE for its next byte, not the escape delay.
    d.feed_all(b"\x1b[200~abc", t0 + ms(100));
    assert!(d.in_paste());
    assert_eq!(d.deadline(), Some(t0 + ms(100) + crate::keys::PASTE_IDLE));
    d.expire(t0 + ms(1_000));
    assert_eq!(d.next_key(), None);
    d.reset();
    assert!(d.is_idle() && !d.in_paste());
}

/// A paste start whose end never comes (a link that dropped it) ends when no byte came for
/// PASTE_IDLE: what it gathered is one paste, and the keys after it are keys again (Ctrl+C
/// too), where before every key was taken as pasted text for good.
#[test]
fn a_paste_whose_end_never_comes_ends_after_a_quiet_spell() {
    let t0 = Instant::now();
    let idle = crate::keys::PASTE_IDLE;
    let mut d = Decoder::new(DELAY);
    d.feed_all(b"\x1b[200~abc", t0);
    // Keys typed within the spell are pasted text still, and start it again.
    d.feed(b'x', t0 + idle);
    assert_eq!(d.next_key(), None);
    d.expire(t0 + idle + ms(1));
    assert_eq!(d.next_key(), None);
    d.expire(t0 + idle + idle);
    assert_eq!(d.next_key(), Some(Key::Paste("abcx".into())));
    assert!(d.is_idle() && !d.in_paste());
    // A byte after the spell ends the paste first, then is a key of its own.
    d.feed_all(b"\x1b[200~def", t0);
    d.feed(0x03, t0 + idle + ms(1));
    assert_eq!(d.next_key(), Some(Key::Paste("def".into())));
    assert_eq!(d.next_key(), Some(Key::Ctrl('c')));
    // A paste handed out in chunks gives no empty last chunk when it times out.
    let mut d = Decoder::new(DELAY).with_paste_chunk(4);
    d.feed_all(b"\x1b[200~abcdefgh", t0);
    let mut pasted = String::new();
    while let Some(Key::Paste(text)) = d.next_key() {
        pasted.push_str(&text);
    }
    d.expire(t0 + idle);
    while let Some(key) = d.next_key() {
        match key {
            Key::Paste(text) => {
                assert!(!text.is_empty());
                pasted.push_str(&text);
            }
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(pasted, "abcdefgh");
}

#[test]
fn feeding_past_the_deadline_expires_first() {
    let t0 = Instant::now();
    let mut d = Decoder::new(DELAY);
    d.feed(0x1b, t0);
    d.feed(b'x', t0 + ms(25) + Duration::from_nanos(1));
    assert_eq!(d.next_key(), Some(Esc));
    assert_eq!(d.next_key(), Some(Char('x')));
    assert_eq!(d.next_key(), None);
}

#[test]
fn the_delay_is_capped() {
    assert_eq!(Decoder::new(Duration::MAX).delay(), MAX_ESCAPE_DELAY);
}

#[test]
fn the_escape_delay_from_the_environment() {
    let f = escape_delay_from;
    assert_eq!(f(None, None, None), ms(50));
    assert_eq!(f(None, Some("/dev/pts/3"), None), ms(100));
    assert_eq!(f(None, None, Some("10.0.0.1 5555 10.0.0.2 22")), ms(100));
    assert_eq!(f(None, Some(""), Some("")), ms(50));
    assert_eq!(f(Some("40"), None, None), ms(40));
    assert_eq!(f(Some(" 7 "), Some("/dev/pts/3"), None), ms(7));
    assert_eq!(f(Some("0"), Some("/dev/pts/3"), None), ms(0));
    assert_eq!(f(Some("999999999"), None, None), MAX_ESCAPE_DELAY);
    // Not a whole number of milliseconds: ignored.
    for bad in ["", "abc", "-5", "2.5", "10ms"] {
        assert_eq!(f(Some(bad), None, None), ms(50), "{bad:?}");
        assert_eq!(f(Some(bad), Some("/dev/pts/1"), None), ms(100), "{bad:?}");
    }
}

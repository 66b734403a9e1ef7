//! Fuzz target: the key reader (`pi_ask::keys::KeyReader`) over random byte streams with
//! random gaps, through the fake terminal (`ScriptedSource`) and clock (`ManualClock`), so
//! nothing sleeps.
//!
//! Input: the first byte sets the escape delay (0, 1, 25 or 100 ms), the paste chunk size
//! (4..=67 bytes) and the timeout the reader is called with (none, 0, 1 or 10 ms; none after
//! 200 timeouts, and once all input is read; 1 ms passes after each 0 timeout). The rest is
//! a list of operations, each one byte `op` (its top 3 bits the kind, its low 5 bits `n`):
//!
//! - kinds 0–3: `n + 1` literal bytes follow, arriving together;
//! - kind 4: the next input arrives `GAPS[n]` later;
//! - kind 5: a bracketed paste of the next byte's count of content bytes, after a pause 2 ms
//!   past the delay; content and end marker arrive `GAPS[n]` apart, cut to `PASTE_IDLE` (a
//!   paste with no byte for longer ends there, as if its end marker had come);
//! - kind 6: a window resize;
//! - kind 7: the known key `KNOWN[n]`, after a pause 2 ms past the delay, its bytes apart by a
//!   gap (the next byte's `GAPS` entry) cut to the delay.
//!
//! Literal bytes never hold a paste start (`ESC[200~` is broken up), and paste content never
//! holds the end marker, so the pastes are exactly the kind-5 operations.
//!
//! Properties: nothing panics; every decoded key is well-formed (no control character as a
//! `Char` or `Alt`); each paste comes out as `Paste` keys that together hold exactly its
//! content (lossy UTF-8), and nothing else comes out while it is read; each known key comes
//! out as exactly that key; the decoder never holds more than `MAX_SEQUENCE` bytes (or a paste
//! chunk and the end marker's length); after `expire()` at or past the deadline, nothing is
//! pending; at the end of input the decoder holds nothing.

#![no_main]

use libfuzzer_sys::fuzz_target;
use pi_ask::keys::{
    Decoder, Event, Input, Key, KeyReader, ManualClock, ScriptedSource, MAX_SEQUENCE,
};
use std::io;
use std::time::Duration;

/// Gaps between inputs, in microseconds, around the delays.
const GAPS: [u64; 32] = [
    0, 1, 500, 999, 1_000, 1_001, 2_000, 3_000, 5_000, 10_000, 20_000, 24_000, 24_999, 25_000,
    25_001, 26_000, 30_000, 50_000, 99_999, 100_000, 100_001, 101_000, 150_000, 250_000, 500_000,
    1_000_000, 2_000_000, 10_000_000, 0, 3_000, 25_000, 100_000,
];

/// Key sequences and their key (`None`: swallowed).
const KNOWN: [(&[u8], Option<Key>); 32] = [
    (b"\x1b[A", Some(Key::Up)),
    (b"\x1bOB", Some(Key::Down)),
    (b"\x1b[1;5C", Some(Key::Right)),
    (b"\x1bOD", Some(Key::Left)),
    (b"\x1b[7~", Some(Key::Home)),
    (b"\x1bOF", Some(Key::End)),
    (b"\x1b[5~", Some(Key::PageUp)),
    (b"\x1b[6~", Some(Key::PageDown)),
    (b"\x1b[3~", Some(Key::Delete)),
    (b"\x1b[Z", Some(Key::BackTab)),
    (b"\x1b[27u", Some(Key::Esc)),
    (b"\x1b[99;5u", Some(Key::Ctrl('c'))),
    (b"\x1b[27;5;99~", Some(Key::Ctrl('c'))),
    (b"\x1b[27;1;13~", Some(Key::Enter)),
    (b"\x1b[9;2u", Some(Key::BackTab)),
    (b"\x1bx", Some(Key::Alt('x'))),
    ("é".as_bytes(), Some(Key::Char('é'))),
    ("😀".as_bytes(), Some(Key::Char('😀'))),
    (b"\r", Some(Key::Enter)),
    (b"\x03", Some(Key::Ctrl('c'))),
    (b"\x7f", Some(Key::Backspace)),
    (b"\x1bOp", Some(Key::Char('0'))),
    (b"\x1b[I", None),
    (b"\x1b[M !!", None),
    (b"\x1b[<0;12;5M", None),
    (b"\x1b[12;40R", None),
    (b"\x1b[?62;22c", None),
    (b"\x1b]11;rgb:0000/0000/0000\x07", None),
    (b"\x1b]11;rgb:ffff/ffff/ffff\x1b\\", None),
    (b"\x1bP>|xterm(354)\x1b\\", None),
    (b"\x1b[15~", None),
    (b"\x1b[201~", None),
];

const PASTE_START: &[u8] = b"\x1b[200~";
const PASTE_END: &[u8] = b"\x1b[201~";

fn us(n: u64) -> Duration {
    Duration::from_micros(n)
}

/// What a run of script inputs belongs to.
#[derive(Debug, Clone, PartialEq)]
enum Seg {
    /// Literal bytes, gaps and resizes: anything may come out.
    Free,
    /// A paste: only `Paste` keys, holding exactly this content.
    Paste(Vec<u8>),
    /// A known key: exactly these keys.
    Known(Vec<Key>),
}

/// One input of the script.
struct Item {
    gap: Duration,
    input: Input,
    seg: usize,
}

/// Adds `input`, arriving `gap` (taken, so the next one is 0) after the input before.
fn push(items: &mut Vec<Item>, gap: &mut Duration, input: Input, seg: usize) {
    items.push(Item {
        gap: std::mem::take(gap),
        input,
        seg,
    });
}

/// Replaces the ESC of every `marker` in the bytes of `items[from..]` (free inputs) with NUL.
fn break_markers(items: &mut [Item], from: usize, marker: &[u8]) {
    let idx: Vec<usize> = (from..items.len())
        .filter(|&i| matches!(items[i].input, Input::Byte(_)))
        .collect();
    let bytes: Vec<u8> = idx
        .iter()
        .map(|&i| match items[i].input {
            Input::Byte(b) => b,
            _ => unreachable!(),
        })
        .collect();
    for start in 0..bytes.len() {
        if bytes[start..].starts_with(marker) {
            items[idx[start]].input = Input::Byte(0);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&config, mut ops)) = data.split_first() else {
        return;
    };
    let delay_us = [0, 1_000, 25_000, 100_000][usize::from(config & 3)];
    let delay = us(delay_us);
    let chunk = 4 + usize::from((config >> 2) & 0x3f);
    let timeout = [None, Some(0), Some(1_000), Some(10_000)][usize::from(config >> 6)].map(us);
    // Timeouts every millisecond over gaps of seconds are slow: after this many, none.
    let mut timeouts_left = 200u32;
    let past_delay = us(delay_us + 2_000);

    // The script: inputs with the segment each belongs to.
    let mut segs = vec![Seg::Free];
    let mut items: Vec<Item> = Vec::new();
    let mut gap = Duration::ZERO;
    let mut free_from = 0;
    while let Some((&op, rest)) = ops.split_first() {
        ops = rest;
        let n = usize::from(op & 0x1f);
        match op >> 5 {
            0..=3 => {
                let take = (n + 1).min(ops.len());
                let (bytes, rest) = ops.split_at(take);
                ops = rest;
                let seg = segs.len() - 1;
                if segs[seg] != Seg::Free {
                    segs.push(Seg::Free);
                    free_from = items.len();
                }
                for &b in bytes {
                    push(&mut items, &mut gap, Input::Byte(b), segs.len() - 1);
                }
                // No paste start in free bytes, whatever gaps are between them.
                break_markers(&mut items, free_from, PASTE_START);
            }
            4 => gap += us(GAPS[n]),
            5 => {
                let Some((&len, rest)) = ops.split_first() else {
                    break;
                };
                let take = usize::from(len).min(rest.len());
                let (content, rest) = rest.split_at(take);
                ops = rest;
                let mut content = content.to_vec();
                for start in 0..content.len() {
                    if content[start..].starts_with(PASTE_END) {
                        content[start] = 0;
                    }
                }
                segs.push(Seg::Paste(content.clone()));
                let seg = segs.len() - 1;
                gap = gap.max(past_delay);
                for &b in PASTE_START {
                    push(&mut items, &mut gap, Input::Byte(b), seg);
                }
                for &b in content.iter().chain(PASTE_END) {
                    gap = us(GAPS[n]).min(pi_ask::keys::PASTE_IDLE);
                    push(&mut items, &mut gap, Input::Byte(b), seg);
                }
            }
            6 => {
                let seg = segs.len() - 1;
                if segs[seg] != Seg::Free {
                    segs.push(Seg::Free);
                    free_from = items.len();
                }
                push(&mut items, &mut gap, Input::Resize, segs.len() - 1);
            }
            _ => {
                let Some((&g, rest)) = ops.split_first() else {
                    break;
                };
                ops = rest;
                let (bytes, key) = &KNOWN[n];
                segs.push(Seg::Known(key.iter().cloned().collect()));
                let seg = segs.len() - 1;
                gap = gap.max(past_delay);
                for (i, &b) in bytes.iter().enumerate() {
                    if i > 0 {
                        gap = us(GAPS[usize::from(g & 0x1f)]).min(delay);
                    }
                    push(&mut items, &mut gap, Input::Byte(b), seg);
                }
            }
        }
    }

    let clock = ManualClock::new();
    let mut source = ScriptedSource::new(&clock);
    for item in &items {
        source.push(item.gap, item.input);
    }
    let decoder = Decoder::new(delay).with_paste_chunk(chunk);
    let mut reader = KeyReader::with_decoder(source, clock, decoder);

    let mut pasted: Vec<Option<String>> = vec![None; segs.len()];
    let mut known: Vec<Vec<Key>> = vec![Vec::new(); segs.len()];
    let bound = MAX_SEQUENCE.max(chunk + 4);
    loop {
        let wait = if reader.source().remaining() == 0 || timeouts_left == 0 {
            None
        } else {
            timeout
        };
        let event = match reader.next(wait) {
            Ok(event) => event,
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => break,
            Err(e) => panic!("read error {e}"),
        };
        // The segment of the last input read (before any: the first, free one).
        let seg = reader
            .source()
            .consumed()
            .checked_sub(1)
            .map_or(0, |i| items[i].seg);
        match event {
            Event::Key(key) => {
                match &key {
                    Key::Char(c) | Key::Alt(c) => assert!(!c.is_control(), "{key:?}"),
                    Key::Ctrl(c) => {
                        assert!(c.is_ascii_lowercase() || " \\]^_".contains(*c), "{key:?}")
                    }
                    _ => {}
                }
                match (&segs[seg], &key) {
                    (Seg::Paste(_), Key::Paste(text)) => {
                        pasted[seg].get_or_insert_with(String::new).push_str(text)
                    }
                    (Seg::Paste(_), other) => panic!("{other:?} inside paste segment {seg}"),
                    (Seg::Free, Key::Paste(text)) => {
                        panic!("a paste from free bytes: {text:?}")
                    }
                    (Seg::Known(_), _) => known[seg].push(key.clone()),
                    (Seg::Free, _) => {}
                }
            }
            Event::Resize => assert_eq!(items[reader.source().consumed() - 1].input, Input::Resize),
            Event::Timeout => {
                assert!(wait.is_some(), "a timeout without one");
                timeouts_left -= 1;
                // A caller polling with no wait does other work in between.
                if wait == Some(Duration::ZERO) {
                    reader.clock().advance(us(1_000));
                }
            }
        }
        let d = reader.decoder();
        assert!(d.buffered_len() <= bound, "{} bytes held", d.buffered_len());
        if let Some(deadline) = d.deadline() {
            let mut after = d.clone();
            after.expire(deadline);
            assert!(!after.is_pending() && after.deadline().is_none());
        }
    }
    assert!(reader.is_idle(), "input ended with bytes held");
    for (i, seg) in segs.iter().enumerate() {
        match seg {
            Seg::Paste(content) => {
                let want = String::from_utf8_lossy(content);
                assert_eq!(
                    pasted[i].as_deref(),
                    Some(&*want),
                    "paste segment {i} of {content:?}"
                );
            }
            Seg::Known(want) => assert_eq!(&known[i], want, "known key segment {i}"),
            Seg::Free => {}
        }
    }
});

//! The Rust floor of the benchmark harness (docs/benchmarks.md): benches/harness/floor.c
//! written in Rust with the standard library only, built by the harness with
//! `rustc -O -C strip=symbols` (dynamically linked, unwinding panics, like pi-ask's release
//! build). It shows what the Rust runtime and linking cost over C before any pi-ask code
//! runs.
//!
//!   floor PROMPT N          a menu of N items under PROMPT (at most 20 drawn)
//!   floor PROMPT N line     PROMPT and one line "› Option K of N", redrawn per arrow key

use std::fs::OpenOptions;
use std::io::{Read, Write};
use std::os::fd::AsRawFd;

/// `struct termios` of glibc on Linux (60 bytes), kept opaque.
#[repr(C, align(4))]
#[derive(Clone, Copy)]
struct Termios([u8; 64]);

extern "C" {
    fn tcgetattr(fd: i32, t: *mut Termios) -> i32;
    fn tcsetattr(fd: i32, action: i32, t: *const Termios) -> i32;
    fn cfmakeraw(t: *mut Termios);
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: floor PROMPT N [line]");
        std::process::exit(2);
    }
    let prompt = &args[1];
    let n: u64 = args[2].parse().unwrap_or(1).max(1);
    let line_mode = args.get(3).is_some_and(|a| a == "line");
    let Ok(mut tty) = OpenOptions::new().read(true).write(true).open("/dev/tty") else {
        std::process::exit(3);
    };
    let fd = tty.as_raw_fd();
    let mut saved = Termios([0; 64]);
    // SAFETY: termios calls on an open fd with a buffer larger than struct termios.
    unsafe {
        if tcgetattr(fd, &mut saved) != 0 {
            std::process::exit(3);
        }
        let mut raw = saved;
        cfmakeraw(&mut raw);
        tcsetattr(fd, 0, &raw);
    }
    let mut out = format!("\x1b[?1049h\x1b[H\x1b[2J\x1b[?25l{prompt}\r\n\r\n");
    if line_mode {
        out.push_str(&format!("› Option 1 of {n}"));
    } else {
        for i in 0..n.min(20) {
            let cursor = if i == 0 { "›" } else { " " };
            out.push_str(&format!("{cursor} {}. Option {}\r\n", i + 1, i + 1));
        }
    }
    let _ = tty.write_all(out.as_bytes());
    let mut sel = 0u64;
    let mut key = [0u8; 64];
    loop {
        let r = match tty.read(&mut key) {
            Ok(0) | Err(_) => break,
            Ok(r) => r,
        };
        let k = &key[..r];
        if r >= 3 && k[0] == 27 && k[1] == b'[' && (k[2] == b'A' || k[2] == b'B') {
            sel = if k[2] == b'B' { (sel + 1) % n } else { (sel + n - 1) % n };
            if line_mode {
                let line = format!("\r\x1b[2K› Option {} of {n}", sel + 1);
                let _ = tty.write_all(line.as_bytes());
            }
        } else if k[0] == b'\r' || k[0] == b'q' || k[0] == 3 || (k[0] == 27 && r == 1) {
            break;
        }
    }
    let _ = tty.write_all(b"\x1b[?25h\x1b[?1049l");
    // SAFETY: as above.
    unsafe { tcsetattr(fd, 0, &saved) };
    println!("{sel}");
}

//! Who holds the terminal's lock while a run waits for it ([`super::claim_terminal`]), and
//! how that process stands: from `/proc/locks` and `/proc/PID/stat` (Linux; elsewhere nobody
//! is named). Also what a key typed during the wait means ([`wait_key`]).

use std::fs::File;
use std::io::Read;

/// Most bytes of `/proc/locks` read (every lock of the machine is listed there).
const MAX_LOCKS_BYTES: u64 = 1024 * 1024;

/// The process that holds the terminal's lock, as `/proc` shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holder {
    /// Its pid.
    pub pid: u32,
    /// Its command name (`/proc/PID/stat`'s, at most 15 bytes), as it is: shown escaped.
    pub name: String,
    /// Whether it is stopped (state `T` or `t`): it reads no key and will not end by itself.
    pub stopped: bool,
    /// Whether its caller is gone: its parent is init (pid 1), or its process group has no
    /// leader any more (the caller that led it died, and it was given to a subreaper).
    pub orphaned: bool,
    /// Its process group.
    pub pgrp: i64,
}

impl Holder {
    /// The process holding the exclusive `flock` on `device` (a terminal's device file), from
    /// `/proc/locks`; `None` when it cannot be told.
    pub fn of(device: &File) -> Option<Holder> {
        use std::os::unix::fs::MetadataExt;
        let meta = device.metadata().ok()?;
        let mut locks = String::new();
        File::open("/proc/locks")
            .ok()?
            .take(MAX_LOCKS_BYTES)
            .read_to_string(&mut locks)
            .ok()?;
        let dev = meta.dev();
        let (major, minor) = (nix::sys::stat::major(dev), nix::sys::stat::minor(dev));
        let pid = lock_holder(&locks, major, minor, meta.ino())?;
        let stat = read_stat(pid)?;
        let (name, state, ppid, pgrp) = parse_stat(&stat)?;
        let leader_gone = pgrp != i64::from(pid)
            && read_stat(u32::try_from(pgrp).ok()?)
                .and_then(|s| parse_stat(&s))
                .is_none_or(|(_, _, _, its)| its != pgrp);
        Some(Holder {
            pid,
            name,
            stopped: matches!(state, 'T' | 't'),
            orphaned: ppid == 1 || leader_gone,
            pgrp,
        })
    }

    /// Whether it is asking now: in the terminal's foreground process group `tpgid` and not
    /// stopped. Its keys are its own then: a waiting run reads none.
    pub fn is_asking(&self, tpgid: i64) -> bool {
        self.pgrp == tpgid && !self.stopped
    }

    /// `pid 4242 (pi-ask)`, then `, stopped` or `, orphaned: its caller is gone` when so; the
    /// name escaped for the terminal.
    pub fn describe(&self) -> String {
        let name = crate::text::for_terminal(&self.name);
        let mut text = format!("pid {} ({name})", self.pid);
        if self.stopped {
            text.push_str(", stopped");
        }
        if self.orphaned {
            text.push_str(", orphaned: its caller is gone");
        }
        text
    }
}

/// `/proc/PID/stat`, bounded (a line of a few hundred bytes).
fn read_stat(pid: u32) -> Option<String> {
    let mut stat = String::with_capacity(1024);
    File::open(format!("/proc/{pid}/stat"))
        .ok()?
        .take(4096)
        .read_to_string(&mut stat)
        .ok()?;
    Some(stat)
}

/// The command name, state, parent and process group of a `/proc/PID/stat` line (the name in
/// parentheses may hold anything, a `)` too).
fn parse_stat(line: &str) -> Option<(String, char, u32, i64)> {
    let open = line.find('(')?;
    let (name, rest) = line[open + 1..].rsplit_once(')')?;
    let mut fields = rest.split_whitespace();
    let state = fields.next()?.chars().next()?;
    let ppid = fields.next()?.parse().ok()?;
    let pgrp = fields.next()?.parse().ok()?;
    Some((name.to_string(), state, ppid, pgrp))
}

/// The pid holding a `FLOCK` `WRITE` lock on the file `major:minor:inode` in `/proc/locks`
/// (`1: FLOCK  ADVISORY  WRITE 4242 00:18:3 0 EOF`: the device in hex, the inode in decimal;
/// waiters' lines, `1: -> FLOCK ...`, are skipped).
fn lock_holder(locks: &str, major: u64, minor: u64, inode: u64) -> Option<u32> {
    let file = format!("{major:02x}:{minor:02x}:{inode}");
    locks.lines().find_map(|line| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        match fields.as_slice() {
            [_, "FLOCK", _, "WRITE", pid, at, ..] if *at == file => pid.parse().ok(),
            _ => None,
        }
    })
}

/// A key typed while waiting for the terminal that ends the wait.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaitKey {
    /// Esc: the person does not want to wait (a dismissal).
    Esc,
    /// Ctrl+C: an interrupt, as everywhere.
    CtrlC,
}

/// What the bytes read while waiting mean: Ctrl+C anywhere in them; Esc alone (in raw mode,
/// once no more bytes came within the escape delay: `settled`), or Esc then Enter (in cooked
/// mode a read returns a whole line). Anything else (an arrow key, other typing) means
/// nothing. `None` also while a lone Esc may still be the start of a sequence.
pub fn wait_key(bytes: &[u8], settled: bool) -> Option<WaitKey> {
    if bytes.contains(&0x03) {
        return Some(WaitKey::CtrlC);
    }
    match bytes {
        [0x1b] if settled => Some(WaitKey::Esc),
        [0x1b, b'\n' | b'\r'] => Some(WaitKey::Esc),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_holder_is_the_flock_writer_of_the_device() {
        let locks = "1: POSIX  ADVISORY  WRITE 77 00:18:3 0 EOF\n\
                     2: FLOCK  ADVISORY  WRITE 4242 00:18:3 0 EOF\n\
                     2: -> FLOCK  ADVISORY  WRITE 4343 00:18:3 0 EOF\n\
                     3: FLOCK  ADVISORY  WRITE 99 fd:01:3 0 EOF\n";
        assert_eq!(lock_holder(locks, 0, 0x18, 3), Some(4242));
        assert_eq!(lock_holder(locks, 0xfd, 1, 3), Some(99));
        assert_eq!(lock_holder(locks, 0, 0x18, 4), None);
    }

    #[test]
    fn a_stat_line_gives_name_state_parent_and_group() {
        let line = "4242 (pi (ask) x) T 1 4000 4000 34816 4100 4194560 1 0";
        assert_eq!(
            parse_stat(line),
            Some(("pi (ask) x".to_string(), 'T', 1, 4000))
        );
        let holder = Holder {
            pid: 4242,
            name: "pi-ask\x1b[2J".into(),
            stopped: true,
            orphaned: true,
            pgrp: 4000,
        };
        assert_eq!(
            holder.describe(),
            "pid 4242 (pi-ask\\e[2J), stopped, orphaned: its caller is gone"
        );
        assert!(!holder.is_asking(4000));
        assert!(Holder {
            stopped: false,
            ..holder.clone()
        }
        .is_asking(4000));
        assert!(!Holder {
            stopped: false,
            ..holder
        }
        .is_asking(4100));
    }

    #[test]
    fn esc_alone_or_before_enter_and_ctrl_c_end_the_wait() {
        assert_eq!(wait_key(b"\x1b", true), Some(WaitKey::Esc));
        assert_eq!(wait_key(b"\x1b", false), None);
        assert_eq!(wait_key(b"\x1b\n", false), Some(WaitKey::Esc));
        assert_eq!(wait_key(b"ab\x03", false), Some(WaitKey::CtrlC));
        assert_eq!(wait_key(b"\x1b[A", true), None);
        assert_eq!(wait_key(b"x", true), None);
    }
}

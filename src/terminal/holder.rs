//! Who holds the terminal's lock while a run waits for it ([`super::claim_terminal`]), and
//! how that process stands: from `/proc/locks` and `/proc/PID/stat` (Linux; elsewhere nobody
//! is named). When `/proc/locks` names a process that is gone (the lock's descriptor was
//! inherited: `flock DEV cmd`, then the `flock` killed), the live holder is looked for among
//! the processes' descriptors (`/proc/PID/fd`, `/proc/PID/fdinfo`), bounded. Also what a key
//! typed during the wait means ([`wait_key`]).

use crate::proc_stat::Stat;
use std::fs::File;
use std::io::Read;

/// Most bytes of `/proc/locks` read (every lock of the machine is listed there).
const MAX_LOCKS_BYTES: u64 = 1024 * 1024;

/// Most processes looked at for the live holder of a lock whose process is gone
/// ([`live_holder`]).
const MAX_PROCESSES: usize = 4096;

/// Most descriptors looked at in one process, and in all, for the live holder.
const MAX_FDS_EACH: usize = 1024;
const MAX_FDS_IN_ALL: usize = 16 * 1024;

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
    /// `/proc/locks`; when the process named there is gone (or a zombie), the live process
    /// whose descriptor holds the lock, found through `/proc/*/fd` ([`live_holder`]: `last`,
    /// the holder found before, is looked at first). `None` when it cannot be told (no
    /// `/proc`, a holder in another pid namespace, none found within the bounds).
    pub fn of(device: &File, last: Option<u32>) -> Option<Holder> {
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
        let file = format!("{major:02x}:{minor:02x}:{}", meta.ino());
        let named = lock_holder(&locks, &file)?;
        let alive = |pid: u32| Stat::of(pid).filter(|s| !s.ended());
        let (pid, stat) = match alive(named) {
            Some(stat) => (named, stat),
            None => {
                let pid = live_holder(last, meta.dev(), meta.ino(), &file)?;
                (pid, alive(pid)?)
            }
        };
        let Stat {
            name,
            state,
            ppid,
            pgrp,
            ..
        } = stat;
        let leader_gone = pgrp != i64::from(pid)
            && Stat::of(u32::try_from(pgrp).ok()?).is_none_or(|leader| leader.pgrp != pgrp);
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
    /// name escaped as [`crate::text::quoted`] escapes it (every control, line breaks too), so
    /// the line stays one line on the terminal and in the result's message.
    pub fn describe(&self) -> String {
        // Quoted's escapes (every control, line breaks and `\r` too), without its quotes.
        let quoted = crate::text::quoted(&self.name);
        let name = &quoted[1..quoted.len() - 1];
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

/// How the holder of a terminal stands, for the waiting run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// It asks ([`Holder::is_asking`]): its time does not count towards the wait's bound, and
    /// the keys and the screen are its own.
    Asking,
    /// It does not ask (stopped, orphaned, in the background): its time counts, and the
    /// waiting run says who holds the terminal and reads Esc and Ctrl+C.
    NotAsking,
    /// It cannot be told ([`Holder::of`] found none): it might be asking, so the waiting run
    /// writes and reads nothing, but its time counts, as a holder's that does not ask.
    Unknown,
}

impl Standing {
    /// How `holder` (`None`: not known) stands while the terminal's foreground process group
    /// is `tpgid`.
    pub fn of(holder: Option<&Holder>, tpgid: i64) -> Standing {
        match holder {
            None => Standing::Unknown,
            Some(h) if h.is_asking(tpgid) => Standing::Asking,
            Some(_) => Standing::NotAsking,
        }
    }
}

/// The pid holding a `FLOCK` `WRITE` lock on `file` (`major:minor:inode`: the device in hex,
/// the inode in decimal) in `/proc/locks` (`1: FLOCK  ADVISORY  WRITE 4242 00:18:3 0 EOF`;
/// waiters' lines, `1: -> FLOCK ...`, are skipped) or in a `/proc/PID/fdinfo/N` (the same
/// after `lock:`). The pid is the one that took the lock, which may be gone since.
fn lock_holder(locks: &str, file: &str) -> Option<u32> {
    locks.lines().find_map(|line| {
        let line = line.strip_prefix("lock:").unwrap_or(line);
        let fields: Vec<&str> = line.split_whitespace().collect();
        match fields.as_slice() {
            [_, "FLOCK", _, "WRITE", pid, at, ..] if *at == file => pid.parse().ok(),
            _ => None,
        }
    })
}

/// The live process with a descriptor that holds the `flock` on `file` (as [`lock_holder`]
/// writes it), the device `dev` / `inode`: `last` first, then every process in `/proc`, at
/// most [`MAX_PROCESSES`] of them and [`MAX_FDS_EACH`] descriptors each
/// ([`MAX_FDS_IN_ALL`] in all); a descriptor of the device holds it when its
/// `/proc/PID/fdinfo/N` lists the lock. Processes whose descriptors cannot be read (another
/// user's) are passed over.
fn live_holder(last: Option<u32>, dev: u64, inode: u64, file: &str) -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    let budget = std::cell::Cell::new(MAX_FDS_IN_ALL);
    let holds = |pid: u32| {
        let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
            return false;
        };
        for fd in fds.flatten().take(MAX_FDS_EACH) {
            if budget.get() == 0 {
                return false;
            }
            budget.set(budget.get() - 1);
            let same =
                std::fs::metadata(fd.path()).is_ok_and(|m| m.dev() == dev && m.ino() == inode);
            if !same {
                continue;
            }
            let mut info = String::new();
            let path = format!("/proc/{pid}/fdinfo/{}", fd.file_name().to_string_lossy());
            if File::open(path)
                .and_then(|f| f.take(16 * 1024).read_to_string(&mut info))
                .is_ok()
                && lock_holder(&info, file).is_some()
            {
                return true;
            }
        }
        false
    };
    if let Some(pid) = last.filter(|&pid| holds(pid)) {
        return Some(pid);
    }
    let pids = std::fs::read_dir("/proc")
        .ok()?
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| Some(pid) != last && pid != std::process::id())
        .take(MAX_PROCESSES);
    for pid in pids {
        if holds(pid) {
            return Some(pid);
        }
        if budget.get() == 0 {
            break;
        }
    }
    None
}

/// A key typed while waiting for the terminal that ends the wait.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaitKey {
    /// Esc: the person does not want to wait (a dismissal).
    Esc,
    /// Ctrl+C: an interrupt, as everywhere.
    CtrlC,
}

/// What the bytes read while waiting mean: Ctrl+C anywhere in them; Esc alone at their end
/// (after other typing too, once no more bytes came within the escape delay: `settled`), or
/// Esc then Enter (in cooked mode a read returns a whole line). Anything else (an arrow key,
/// other typing) means nothing. `None` also while a lone Esc may still be the start of a
/// sequence.
pub fn wait_key(bytes: &[u8], settled: bool) -> Option<WaitKey> {
    if bytes.contains(&0x03) {
        return Some(WaitKey::CtrlC);
    }
    match bytes {
        [.., 0x1b] if settled => Some(WaitKey::Esc),
        [.., 0x1b, b'\n' | b'\r'] => Some(WaitKey::Esc),
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
        assert_eq!(lock_holder(locks, "00:18:3"), Some(4242));
        assert_eq!(lock_holder(locks, "fd:01:3"), Some(99));
        assert_eq!(lock_holder(locks, "00:18:4"), None);
        let fdinfo =
            "pos:\t0\nflags:\t0100002\nlock:\t1: FLOCK  ADVISORY  WRITE 8207 fe:00:7 0 EOF\n";
        assert_eq!(lock_holder(fdinfo, "fe:00:7"), Some(8207));
    }

    #[test]
    fn a_stat_line_gives_name_state_parent_and_group() {
        let line = "4242 (pi (ask) x) T 1 4000 4000 34816 4100 4194560 1 0";
        let stat = Stat::parse(line).unwrap();
        assert_eq!(
            (stat.name.as_str(), stat.state, stat.ppid, stat.pgrp),
            ("pi (ask) x", 'T', 1, 4000)
        );
        let holder = Holder {
            pid: 4242,
            name: "pi-ask\x1b[2J\nY\t".into(),
            stopped: true,
            orphaned: true,
            pgrp: 4000,
        };
        assert_eq!(
            holder.describe(),
            "pid 4242 (pi-ask\\e[2J\\x0aY\\x09), stopped, orphaned: its caller is gone"
        );
        assert!(!holder.is_asking(4000));
        assert!(Holder {
            stopped: false,
            ..holder.clone()
        }
        .is_asking(4000));
        assert!(!Holder {
            stopped: false,
            ..holder.clone()
        }
        .is_asking(4100));
        assert_eq!(Standing::of(Some(&holder), 4000), Standing::NotAsking);
        let asking = Holder {
            stopped: false,
            ..holder
        };
        assert_eq!(Standing::of(Some(&asking), 4000), Standing::Asking);
        // Not known: it might ask, but its time counts all the same.
        assert_eq!(Standing::of(None, 4000), Standing::Unknown);
    }

    #[test]
    fn esc_alone_or_before_enter_and_ctrl_c_end_the_wait() {
        assert_eq!(wait_key(b"\x1b", true), Some(WaitKey::Esc));
        assert_eq!(wait_key(b"\x1b", false), None);
        assert_eq!(wait_key(b"\x1b\n", false), Some(WaitKey::Esc));
        assert_eq!(wait_key(b"ab\x03", false), Some(WaitKey::CtrlC));
        assert_eq!(wait_key(b"\x1b[A", true), None);
        assert_eq!(wait_key(b"x", true), None);
        // Typing, then Esc read with it.
        assert_eq!(wait_key(b"typed\x1b", true), Some(WaitKey::Esc));
        assert_eq!(wait_key(b"typed\x1b", false), None);
        assert_eq!(wait_key(b"\x1b[Ax", true), None);
    }
}

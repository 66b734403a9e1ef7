//! One process's line of `/proc/<pid>/stat` (proc(5)): read bounded and parsed once, for the
//! terminal's own state (`terminal`), the holder of its lock (`terminal::holder`) and the
//! run's children (`leftovers`).

use std::fs::File;
use std::io::Read;

/// The fields of a `/proc/<pid>/stat` line that pi-ask reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stat {
    /// The command name, as given between the parentheses (it may hold anything, a `)` too).
    pub name: String,
    /// Its state: `R`, `S`, `T` (stopped), `Z` (a zombie), ...
    pub state: char,
    /// Its parent.
    pub ppid: i64,
    /// Its process group.
    pub pgrp: i64,
    /// Its controlling terminal's device number (0: none), when the line goes that far.
    pub tty: Option<u64>,
    /// The foreground process group of that terminal (-1: none), when the line goes that far.
    pub tpgid: Option<i64>,
}

impl Stat {
    /// Reads a `/proc/<pid>/stat` line: pid, `(name)`, state, ppid, pgrp, session, tty_nr,
    /// tpgid, ...; `None` when it stops before the process group.
    pub fn parse(line: &str) -> Option<Stat> {
        let open = line.find('(')?;
        let (name, rest) = line[open + 1..].rsplit_once(')')?;
        let mut fields = rest.split_whitespace();
        let state = fields.next()?.chars().next()?;
        let ppid = fields.next()?.parse().ok()?;
        let pgrp = fields.next()?.parse().ok()?;
        let _session = fields.next();
        let tty = fields.next().and_then(|f| f.parse().ok());
        let tpgid = fields.next().and_then(|f| f.parse().ok());
        Some(Stat {
            name: name.to_string(),
            state,
            ppid,
            pgrp,
            tty,
            tpgid,
        })
    }

    /// The process `pid` (`"self"` for this one): `None` when it is gone or there is no procfs.
    /// One read of at most 4 KiB (procfs gives a size of 0, so `read_to_string` would read it
    /// in five).
    pub fn of(pid: impl std::fmt::Display) -> Option<Stat> {
        let mut line = String::with_capacity(1024);
        File::open(format!("/proc/{pid}/stat"))
            .ok()?
            .take(4096)
            .read_to_string(&mut line)
            .ok()?;
        Stat::parse(&line)
    }

    /// Whether it has ended and not been reaped (`Z`) or is dead (`X`).
    pub fn ended(&self) -> bool {
        matches!(self.state, 'Z' | 'X')
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stat_line_gives_its_fields_whatever_the_name_holds() {
        let line = "4242 (pi (ask) x) T 1 4000 4000 34816 4100 4194560 1 0";
        assert_eq!(
            Stat::parse(line),
            Some(Stat {
                name: "pi (ask) x".into(),
                state: 'T',
                ppid: 1,
                pgrp: 4000,
                tty: Some(34816),
                tpgid: Some(4100),
            })
        );
        let short = Stat::parse("42 (vi) Z 7 9").unwrap();
        assert_eq!((short.ended(), short.tty, short.tpgid), (true, None, None));
        assert_eq!(Stat::parse("42 (vi) S 7"), None);
        assert_eq!(Stat::of("self").map(|s| s.name.is_empty()), Some(false));
    }
}

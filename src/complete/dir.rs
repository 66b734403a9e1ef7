//! Explicit paths (`@src/`, `@../x`, `@~/`, `@/etc/`): one folder level, like a shell.

use std::path::{Path, PathBuf};

/// Most entries listed for one folder.
pub const MAX_LISTED: usize = 1000;

/// Most entries of one folder read to list it and take their common prefix; a folder with
/// more is listed from the first ones read and gets no common prefix.
pub const MAX_SCANNED: usize = 200_000;

/// The matching entries of one folder ([`list_level`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Level {
    /// Every matching entry read, folders first, then by name (at most [`MAX_SCANNED`]).
    pub entries: Vec<Listed>,
    /// Whether every entry of the folder was read (false: it has more than [`MAX_SCANNED`]).
    pub whole: bool,
}

/// One entry of the listed folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    /// The path to insert: the folder part as typed plus the entry's name (no trailing `/`).
    pub path: String,
    /// The entry's name, as shown in the list.
    pub name: String,
    /// The entry is a folder or a symlink to one.
    pub is_dir: bool,
}

/// Whether `fragment` is an explicit path rather than a fuzzy query: it contains a `/`, or
/// is `~` (the home folder).
pub fn is_explicit(fragment: &str) -> bool {
    fragment.contains('/') || fragment == "~"
}

/// Lists the folder named by the part of `fragment` up to its last `/`, keeping the entries
/// whose name starts with the rest (ignoring case, as pi does). `~/` is `home`, a leading `/`
/// is absolute, anything else is relative to `root`. Hidden names only when the rest starts
/// with `.`. Folders first, then by name; every match, so the caller takes the common prefix
/// of all of them before it cuts the list to [`MAX_LISTED`]. At most [`MAX_SCANNED`] entries
/// are read. `None` when the folder cannot be read (missing, not a folder, unreadable); `~`
/// alone lists just `~` itself (a folder).
pub fn list_level(root: &Path, home: Option<&Path>, fragment: &str) -> Option<Level> {
    if fragment == "~" {
        home?;
        return Some(Level {
            entries: vec![Listed {
                path: "~".into(),
                name: "~".into(),
                is_dir: true,
            }],
            whole: true,
        });
    }
    let slash = fragment.rfind('/')?;
    let (dir_part, prefix) = (&fragment[..=slash], &fragment[slash + 1..]);
    let folder: PathBuf = if let Some(rest) = dir_part.strip_prefix("~/") {
        home?.join(rest)
    } else if dir_part.starts_with('/') {
        PathBuf::from(dir_part)
    } else {
        root.join(dir_part)
    };
    let prefix_lower = prefix.to_lowercase();
    let show_hidden = prefix.starts_with('.');
    let mut listed = Vec::new();
    let mut whole = true;
    for (read, entry) in std::fs::read_dir(&folder).ok()?.flatten().enumerate() {
        if read == MAX_SCANNED {
            whole = false;
            break;
        }
        let file_name = entry.file_name();
        let Some(name) = file_name.to_str().filter(|n| super::offerable(n)) else {
            continue;
        };
        if name.starts_with('.') && !show_hidden {
            continue;
        }
        if !name.to_lowercase().starts_with(&prefix_lower) {
            continue;
        }
        let is_dir = match entry.file_type() {
            Ok(t) if t.is_symlink() => std::fs::metadata(entry.path()).is_ok_and(|m| m.is_dir()),
            Ok(t) => t.is_dir(),
            Err(_) => false,
        };
        listed.push(Listed {
            path: format!("{dir_part}{name}"),
            name: name.to_owned(),
            is_dir,
        });
    }
    listed.sort_by(|a, b| {
        b.is_dir
            .cmp(&a.is_dir)
            .then_with(|| a.name.to_lowercase().cmp(&b.name.to_lowercase()))
            .then_with(|| a.name.cmp(&b.name))
    });
    Some(Level {
        entries: listed,
        whole,
    })
}

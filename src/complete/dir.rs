//! Explicit paths (`@src/`, `@../x`, `@~/`, `@/etc/`): one folder level, like a shell.

use std::path::{Path, PathBuf};

/// Most entries listed for one folder.
pub const MAX_LISTED: usize = 1000;

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
/// with `.`. Folders first, then by name. `None` when the folder cannot be read (missing, not
/// a folder, unreadable); `~` alone lists just `~` itself (a folder).
pub fn list_level(root: &Path, home: Option<&Path>, fragment: &str) -> Option<Vec<Listed>> {
    if fragment == "~" {
        home?;
        return Some(vec![Listed {
            path: "~".into(),
            name: "~".into(),
            is_dir: true,
        }]);
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
    for entry in std::fs::read_dir(&folder).ok()?.flatten() {
        let file_name = entry.file_name();
        let Some(name) = file_name.to_str() else {
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
    listed.truncate(MAX_LISTED);
    Some(listed)
}

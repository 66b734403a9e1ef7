//! Writing the result JSON: to stdout, or to `--output FILE` atomically (a temp file in the
//! same folder, then rename), so a reader never sees half a result.

use serde::Serialize;
use std::io::{self, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// The result as pretty JSON with a trailing newline: a `ToolResult`, or a result in another
/// format (`result::formats::render`).
///
/// Characters a terminal would act on (C1 controls, bidirectional overrides and isolates,
/// line separators; see `sanitize`) are written as `\uXXXX` escapes, so the result printed
/// straight to a terminal cannot reorder or hide text. The strings are unchanged: any JSON
/// parser reads the same values back (serde_json already escapes C0 controls).
pub fn to_json<T: Serialize + ?Sized>(result: &T) -> String {
    let s = serde_json::to_string_pretty(result).expect("results always serialize");
    let mut out = String::with_capacity(s.len() + 1);
    for c in s.chars() {
        if c != '\n' && c != '\t' && crate::sanitize::is_unsafe(c) {
            // Outside strings pretty JSON has only ASCII, so every such char is in a string.
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    out.push('\n');
    out
}

/// Writes `result` to `path`, or to stdout when `path` is `None` or `-`.
///
/// Errors: the folder does not exist or is not writable, the rename fails, or stdout is
/// closed (broken pipe). The message, for a person on stderr, names the path (escape
/// sequences in it shown escaped, never run) and gives the operating system's words: "cannot
/// write the result to out/r.json: folder out: No such file or directory". (A stdout closed before pi-ask started is `/dev/null` by the time it
/// runs: Rust's runtime reopens it there.)
pub fn write_result<T: Serialize + ?Sized>(result: &T, path: Option<&Path>) -> Result<(), String> {
    let json = to_json(result);
    match path.filter(|p| *p != Path::new("-")) {
        None => {
            let mut out = io::stdout().lock();
            out.write_all(json.as_bytes())
                .and_then(|_| out.flush())
                .map_err(|e| format!("cannot write the result to stdout: {}", os_words(&e)))
        }
        Some(path) => write_atomically(path, json.as_bytes()).map_err(|e| {
            format!(
                "cannot write the result to {}: {}",
                shown(path),
                os_words(&e)
            )
        }),
    }
}

/// A path as a message shows it: escape sequences and control characters in a file name are
/// shown escaped (`sanitize::for_terminal`), never run, as every path in pi-ask's messages.
fn shown(path: &Path) -> String {
    crate::sanitize::for_terminal(&path.display().to_string()).into_owned()
}

/// An I/O error in the operating system's words ("No such file or directory"), without
/// Rust's " (os error N)".
fn os_words(e: &io::Error) -> String {
    crate::contract::without_os_error(&e.to_string()).to_string()
}

fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    // tempfile names its random file in errors and keeps the OS error to itself: name the
    // folder the person gave, and ask the OS what is wrong with it.
    let mut tmp = tempfile::Builder::new()
        .prefix(".pi-ask-result-")
        .tempfile_in(dir)
        .map_err(|e| {
            let why = folder_problem(dir).unwrap_or_else(|| {
                // The folder looks fine (a full disk, say): tempfile's words, without its path.
                let words = e.to_string();
                let words = words.split(" at path ").next().unwrap_or_default();
                crate::contract::without_os_error(words).to_string()
            });
            io::Error::new(e.kind(), format!("folder {}: {why}", shown(dir)))
        })?;
    tmp.write_all(bytes)?;
    // A temp file is created 0600; give the result the mode of the file it replaces, or
    // the usual 0666 less the umask for a new one.
    let mode = match std::fs::metadata(path) {
        Ok(m) => m.permissions().mode() & 0o7777,
        Err(_) => 0o666 & !current_umask(),
    };
    tmp.as_file()
        .set_permissions(std::fs::Permissions::from_mode(mode))?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// What is wrong with `dir` as the folder of a new file, in the OS's words: it is missing
/// ("No such file or directory"), not a folder ("Not a directory"), or not writable
/// ("Permission denied", "Read-only file system"). `None` when nothing is.
fn folder_problem(dir: &Path) -> Option<String> {
    use nix::errno::Errno;
    use nix::unistd::{access, AccessFlags};
    match std::fs::metadata(dir) {
        Err(e) => Some(os_words(&e)),
        Ok(m) if !m.is_dir() => Some(Errno::ENOTDIR.desc().to_string()),
        Ok(_) => access(dir, AccessFlags::W_OK | AccessFlags::X_OK)
            .err()
            .map(|errno| errno.desc().to_string()),
    }
}

/// The process umask (read by setting it and setting it back; umask cannot fail).
fn current_umask() -> u32 {
    use nix::sys::stat::{umask, Mode};
    let mask = umask(Mode::from_bits_truncate(0o022));
    umask(mask);
    mask.bits() as u32
}

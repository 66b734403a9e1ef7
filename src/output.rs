//! Writing the result JSON: to stdout, or to `--output FILE`. A regular file (or a new one) is
//! replaced atomically (a temp file in the same folder, then rename), so a reader never sees
//! half a result; a character device or a FIFO is opened and written, never replaced
//! ([`write_result`]).

use serde::Serialize;
use std::fs::{self, Metadata};
use std::io::{self, Write};
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// The result as pretty JSON with a trailing newline: a `ToolResult`, or a result in another
/// format (`result::formats::render`).
///
/// Characters a terminal would act on (C1 controls, bidirectional overrides and isolates,
/// line separators; see `text::sanitize`) are written as `\uXXXX` escapes, so the result printed
/// straight to a terminal cannot reorder or hide text. The strings are unchanged: any JSON
/// parser reads the same values back (serde_json already escapes C0 controls).
pub fn to_json<T: Serialize + ?Sized>(result: &T) -> String {
    let s = serde_json::to_string_pretty(result).expect("results always serialize");
    let mut out = escaped(&s);
    out.push('\n');
    out
}

/// `value` as one line of compact JSON, without a newline, its characters a terminal would
/// act on escaped as [`to_json`]'s: the answer channel's line (`--print-answer-socket` on
/// stderr, the terminal; `--answer-socket-file`), whose socket path is the user's `TMPDIR`.
pub fn json_line<T: Serialize + ?Sized>(value: &T) -> String {
    escaped(&serde_json::to_string(value).unwrap_or_default())
}

/// `json` with every character a terminal would act on (`text::is_unsafe`) but a newline or a
/// tab as a `\uXXXX` escape: outside strings JSON has only ASCII, so each is in a string, and
/// a JSON parser reads the same value back.
fn escaped(json: &str) -> String {
    let mut out = String::with_capacity(json.len() + 1);
    for c in json.chars() {
        if c != '\n' && c != '\t' && crate::text::is_unsafe(c) {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// `json` as stdout takes it: on a terminal whose locale is not UTF-8
/// (`text::terminal_charset`), every non-ASCII character as a `\uXXXX` escape (the same
/// value to any JSON parser), so no byte from 0x80 up reaches it; else unchanged.
fn for_stdout(json: String) -> String {
    use std::io::IsTerminal;
    if json.is_ascii()
        || crate::text::terminal_charset() == crate::text::Charset::Utf8
        || !io::stdout().is_terminal()
    {
        return json;
    }
    ascii_json(&json)
}

/// `value` as [`to_json`] writes it, as stdout takes it ([`for_stdout`]): the subcommands'
/// JSON (`validate --json`, `schema`) follows the result's rules, so a payload's text printed
/// straight to a terminal can neither run a C1 control nor reorder the line, and a terminal
/// whose locale is not UTF-8 gets ASCII only (docs/interactive.md, "A terminal that is not
/// UTF-8").
pub fn json_for_stdout<T: Serialize + ?Sized>(value: &T) -> String {
    for_stdout(to_json(value))
}

/// `json` with every non-ASCII character as `\uXXXX` escapes (two for one beyond the Basic
/// Multilingual Plane). Outside strings pretty JSON has only ASCII.
fn ascii_json(json: &str) -> String {
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{:04x}", unit));
            }
        }
    }
    out
}

/// Writes `result` to `path`, or to stdout when `path` is `None` or `-`.
///
/// What `path` is decides how:
/// - a regular file, or nothing yet: a temp file in the same folder is renamed over it, so a
///   reader never sees half a result; a replaced file of the user's keeps its permission
///   bits, never setuid, setgid or sticky (a new one, or one of another user's, gets 0600:
///   a result may hold a secret answer, and its reader is the user's own caller);
/// - a symbolic link: followed, to the end of a chain of links; what it points to is written
///   as if it had been given (a file it points to is replaced, a missing one created), and the
///   link stays;
/// - a character device (`/dev/null`, a terminal, `/dev/stdout` on one) or a FIFO (a pipe,
///   `/dev/fd/N`): opened and written, as a shell's `>` does, never replaced; a FIFO once a
///   process opens it for reading, or until a terminating signal ([`open_fifo`]);
/// - a folder, a block device or a socket: refused; so are a link, a FIFO or a regular file
///   in a sticky world-writable folder that belongs neither to the user nor to the folder's
///   owner (the kernel's `protected_symlinks`, `protected_fifos` and `protected_regular`
///   rules, whatever the machine's setting).
///
/// [`check_output`] makes the same checks before the questions are asked.
///
/// Errors: the folder does not exist or is not writable, the disk is full, the rename fails,
/// `path` is refused, or stdout is closed (broken pipe). The message, for a person on stderr,
/// names the path as given (escape sequences in it shown escaped, never run) and gives the
/// operating system's words: "cannot write the result to out/r.json: folder out: No such file
/// or directory". (A stdout closed before pi-ask started is `/dev/null` by the time it runs:
/// Rust's runtime reopens it there.)
pub fn write_result<T: Serialize + ?Sized>(result: &T, path: Option<&Path>) -> Result<(), String> {
    let json = to_json(result);
    match path.filter(|p| *p != Path::new("-")) {
        None => {
            let json = for_stdout(json);
            let mut out = io::stdout().lock();
            out.write_all(json.as_bytes())
                .and_then(|_| out.flush())
                .map_err(|e| format!("cannot write the result to stdout: {}", os_words(&e)))
        }
        Some(path) => write_file(path, json.as_bytes()).map_err(|e| cannot_write(path, &e)),
    }
}

/// A path as a message shows it: escape sequences and control characters in a file name are
/// shown escaped (`text::for_terminal`), never run, as every path in pi-ask's messages.
fn shown(path: &Path) -> String {
    crate::text::for_terminal(&path.display().to_string()).into_owned()
}

/// An I/O error in the operating system's words ("No such file or directory"), without
/// Rust's " (os error N)".
fn os_words(e: &io::Error) -> String {
    crate::contract::without_os_error(&e.to_string()).to_string()
}

/// What `--output FILE` is, as the write goes about it ([`target`]).
enum Target {
    /// A regular file or nothing yet, at `path` once the links are followed: replaced through
    /// a temp file in its folder; `old` is the file replaced.
    Replace {
        path: PathBuf,
        old: Option<Metadata>,
    },
    /// A character device or a FIFO (`meta`): opened and written.
    InPlace { meta: Metadata },
}

/// Checks `--output FILE` before the questions are asked, so that an output that cannot be
/// used is found before anyone answers (docs/exit-codes.md, exit 4): what [`write_result`]
/// checks that can be known without writing (the folder exists, is a folder and is writable
/// for a new or replaced file; a planted link, FIFO or file in a sticky world-writable folder;
/// a folder, block device or socket). Nothing is created, opened or changed. `None` and `-`
/// (stdout) pass. The final write checks again: the filesystem may change meanwhile.
///
/// Errors: the message [`write_result`] would give ("cannot write the result to out/r.json:
/// folder out: No such file or directory").
pub fn check_output(path: Option<&Path>) -> Result<(), String> {
    let Some(path) = path.filter(|p| *p != Path::new("-")) else {
        return Ok(());
    };
    let usable = target(path).and_then(|t| match t {
        Target::Replace { path, .. } => {
            let dir = folder_of(&path);
            match folder_problem(dir) {
                Some(why) => Err(io::Error::other(format!("folder {}: {why}", shown(dir)))),
                None => Ok(()),
            }
        }
        Target::InPlace { .. } => Ok(()),
    });
    usable.map_err(|e| cannot_write(path, &e))
}

/// "cannot write the result to PATH: why" ([`write_result`]'s words).
fn cannot_write(path: &Path, e: &io::Error) -> String {
    format!(
        "cannot write the result to {}: {}",
        shown(path),
        os_words(e)
    )
}

/// Where a line written to `path` goes (`--answer-socket-file`), by `--output`'s rules for
/// planted links and files ([`refuse_planted_links`], [`refuse_planted_file`]): the path of
/// the first thing that is not a link, to be opened without following a link.
///
/// Errors: a planted link, FIFO or file, named; a loop of links.
pub fn unplanted_target(path: &Path) -> io::Result<PathBuf> {
    refuse_planted_links(path)?;
    let at = link_target(path)?;
    if let Ok(meta) = fs::symlink_metadata(&at) {
        if meta.is_file() || meta.file_type().is_fifo() {
            refuse_planted_file(&at, &meta)?;
        }
    }
    Ok(at)
}

/// `--output FILE` by what FILE is ([`write_result`]).
fn write_file(path: &Path, bytes: &[u8]) -> io::Result<()> {
    match target(path)? {
        Target::Replace { path: at, old } => replace(&at, bytes, old.as_ref()),
        Target::InPlace { meta } => write_in_place(path, &meta, bytes),
    }
}

/// What `path` is for the write, its links followed ([`link_target`]), or why it is refused:
/// a planted link ([`refuse_planted_links`]), a planted FIFO or regular file
/// ([`refuse_planted_file`]), a folder (`EISDIR`), a block device or a socket, a loop of links
/// (`ELOOP`).
fn target(path: &Path) -> io::Result<Target> {
    refuse_planted_links(path)?;
    match fs::metadata(path) {
        Ok(meta) if meta.is_file() => {
            let at = link_target(path)?;
            refuse_planted_file(&at, &meta)?;
            Ok(Target::Replace {
                path: at,
                old: Some(meta),
            })
        }
        Ok(meta) => {
            let kind = meta.file_type();
            let refused = |what: &str| io::Error::other(format!("it is {what}, not a file"));
            if kind.is_dir() {
                return Err(nix::errno::Errno::EISDIR.into());
            }
            if kind.is_block_device() {
                return Err(refused("a block device"));
            }
            if kind.is_socket() {
                return Err(refused("a socket"));
            }
            if kind.is_fifo() {
                refuse_planted_file(&link_target(path)?, &meta)?;
            }
            Ok(Target::InPlace { meta })
        }
        // Nothing there yet, or a link to nothing: a new file where the link points.
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Target::Replace {
            path: link_target(path)?,
            old: None,
        }),
        // A loop of links is refused; anything else (a folder that is a file, no permission
        // to look) is the folder's problem, which `replace` puts into words.
        Err(e) if e.raw_os_error() == Some(nix::errno::Errno::ELOOP as i32) => Err(e),
        Err(_) => Ok(Target::Replace {
            path: path.to_path_buf(),
            old: None,
        }),
    }
}

/// The folder `path` is in (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// Whether `owner` (a file's or a link's owner) is neither the user (the effective user id)
/// nor the owner of `folder`, a sticky world-writable folder (such as `/tmp`): the kernel's
/// test for `fs.protected_symlinks`, `protected_fifos` and `protected_regular`
/// (Documentation/admin-guide/sysctl/fs.rst). `false` when the folder cannot be looked at.
fn planted(owner: u32, folder: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    let Ok(folder) = fs::metadata(folder) else {
        return false;
    };
    let mode = folder.mode();
    let shared = mode & 0o1000 != 0 && mode & 0o002 != 0;
    shared && owner != nix::unistd::geteuid().as_raw() && owner != folder.uid()
}

/// The kernel's `fs.protected_fifos` and `fs.protected_regular` rules, whatever the machine's
/// setting: a FIFO or a regular file at `at` (the path once its links are followed; `meta`:
/// what it is) in a sticky world-writable folder that belongs neither to the user nor to the
/// folder's owner may have been planted there by someone else, to read the result (a FIFO)
/// or to have it take their file's place; it is refused.
///
/// Errors: such a FIFO or file, named ("the FIFO /tmp/r.json is in a sticky world-writable
/// folder and belongs neither to you nor to the folder's owner").
fn refuse_planted_file(at: &Path, meta: &Metadata) -> io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    if !planted(meta.uid(), folder_of(at)) {
        return Ok(());
    }
    let what = if meta.file_type().is_fifo() {
        "FIFO"
    } else {
        "file"
    };
    Err(io::Error::new(
        io::ErrorKind::PermissionDenied,
        format!(
            "the {what} {} is in a sticky world-writable folder and belongs neither to you nor to the folder's owner",
            shown(at)
        ),
    ))
}

/// Refuses a path that leads through a symbolic link the kernel's `fs.protected_symlinks`
/// rule would not follow, whatever the machine's setting: a link in a sticky world-writable
/// folder (such as `/tmp`) that belongs neither to the user (the effective user id) nor to the
/// folder's owner may have been planted there by someone else, to have the result written
/// where they chose. Each folder of `path` and `path` itself are looked at; the links of the
/// last component are looked at one after another by [`link_target`].
///
/// Errors: such a link, named ("the symbolic link /tmp/r.json is in a sticky world-writable
/// folder and belongs neither to you nor to the folder's owner").
fn refuse_planted_links(path: &Path) -> io::Result<()> {
    let mut prefixes: Vec<&Path> = path
        .ancestors()
        .filter(|p| !p.as_os_str().is_empty())
        .collect();
    prefixes.reverse();
    for prefix in prefixes {
        if let Ok(meta) = fs::symlink_metadata(prefix) {
            if meta.file_type().is_symlink() {
                refuse_planted(prefix, &meta)?;
            }
        }
    }
    link_target(path).map(|_| ())
}

/// The kernel's rule for following the symbolic link `link` (`meta`: its own metadata): in a
/// sticky world-writable folder, only a link of the user's own or of the folder's owner is
/// followed (Documentation/admin-guide/sysctl/fs.rst, "protected_symlinks").
///
/// Errors: the link is not followed, in words naming it.
fn refuse_planted(link: &Path, meta: &Metadata) -> io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    if planted(meta.uid(), folder_of(link)) {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!(
                "the symbolic link {} is in a sticky world-writable folder and belongs neither to you nor to the folder's owner",
                shown(link)
            ),
        ));
    }
    Ok(())
}

/// Where `path` leads when its symbolic links are followed, one after another: the path of
/// the first thing that is not a link (which may not exist). Only the last component is
/// followed: a link among the folders is resolved by the kernel in the rename as well. Each
/// link is followed only as the kernel's `fs.protected_symlinks` rule allows
/// ([`refuse_planted`]), whatever the machine's setting.
///
/// Errors: a chain longer than the kernel's (40 links), as `ELOOP`; unreadable links; a link
/// the rule does not follow.
fn link_target(path: &Path) -> io::Result<PathBuf> {
    let mut at = path.to_path_buf();
    for _ in 0..40 {
        match fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => {
                refuse_planted(&at, &m)?;
                let to = fs::read_link(&at)?;
                at = match at.parent() {
                    Some(dir) if to.is_relative() => dir.join(to),
                    _ => to,
                };
            }
            _ => return Ok(at),
        }
    }
    Err(nix::errno::Errno::ELOOP.into())
}

/// Writes into what is at `path` (`meta`: what it is, [`target`]), a character device or a
/// FIFO: opened (not created, not replaced) and written. A FIFO is looked at again once
/// open ([`refuse_planted_file`]): one planted meanwhile is refused before a byte is written.
fn write_in_place(path: &Path, meta: &Metadata, bytes: &[u8]) -> io::Result<()> {
    let mut file = if meta.file_type().is_fifo() {
        let file = open_fifo(path)?;
        refuse_planted_file(&link_target(path)?, &file.metadata()?)?;
        file
    } else {
        fs::OpenOptions::new().write(true).open(path)?
    };
    // A reader that does not read holds the write up: should the run end meanwhile (a
    // signal's deadline), it says so.
    let _unfinished = crate::leftovers::on_exit(
        None,
        Some(format!(
            "pi-ask: the result in {} may be cut short or missing: the run ended before its write was done",
            shown(path)
        )),
    );
    file.write_all(bytes)?;
    file.flush()
}

/// How often [`open_fifo`] looks again for a reader.
const FIFO_RETRY: std::time::Duration = std::time::Duration::from_millis(20);

/// Opens the FIFO at `path` for writing once a process opens it for reading, as a shell's `>`
/// waits, but without blocking in `open`: a terminating signal (SIGTERM, SIGHUP, SIGQUIT)
/// ends the wait, so a FIFO nobody reads cannot hold the run up past a `kill` (the watch of
/// signals would wait on the same FIFO to write its own result).
///
/// Errors: the open fails for another reason than no reader, or a terminating signal came
/// first ("no process opened it for reading").
fn open_fifo(path: &Path) -> io::Result<fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    let nonblocking = nix::fcntl::OFlag::O_NONBLOCK;
    loop {
        match fs::OpenOptions::new()
            .write(true)
            .custom_flags(nonblocking.bits())
            .open(path)
        {
            Ok(file) => {
                // Written as the shell writes: blocking while the reader is slow.
                let flags = nix::fcntl::fcntl(&file, nix::fcntl::FcntlArg::F_GETFL)?;
                let flags = nix::fcntl::OFlag::from_bits_truncate(flags) - nonblocking;
                nix::fcntl::fcntl(&file, nix::fcntl::FcntlArg::F_SETFL(flags))?;
                return Ok(file);
            }
            Err(e) if e.raw_os_error() == Some(nix::errno::Errno::ENXIO as i32) => {
                if crate::terminal::terminating_received() {
                    return Err(io::Error::other(
                        "it is a FIFO that no process opened for reading before the signal",
                    ));
                }
                std::thread::sleep(FIFO_RETRY);
            }
            Err(e) => return Err(e),
        }
    }
}

/// Replaces (or creates) the regular file at `path` atomically: a temp file in its folder
/// (0600), written, synced, given `old`'s permission bits without setuid, setgid and sticky
/// when the user (the effective user id) owns it (else, and for a new file, [`NEW_FILE_MODE`]:
/// another user's file never lends its mode to the result), then renamed over `path`. Never
/// left behind: an
/// ending of the run before the rename removes it and says so on stderr
/// (`leftovers::on_exit`).
fn replace(path: &Path, bytes: &[u8], old: Option<&Metadata>) -> io::Result<()> {
    let dir = folder_of(path);
    // tempfile names its random file in errors and keeps the OS error to itself: name the
    // folder the person gave, and ask the OS what is wrong with it.
    let tmp = tempfile::Builder::new()
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
    // Should the run end before the rename (a signal during a slow write or sync), the exit
    // removes the temp file and says so.
    let unfinished = crate::leftovers::on_exit(
        Some(tmp.path().to_path_buf()),
        Some(format!(
            "pi-ask: the result was not written to {}: the run ended before its write was done (its temporary file was removed)",
            shown(path)
        )),
    );
    // Through the file itself: tempfile's own writes add its random name to the error.
    let mut file = tmp.as_file();
    file.write_all(bytes)?;
    file.sync_all()?;
    // Private (0600, as tempfile made it) until now: the mode it ends with comes last.
    let user = nix::unistd::geteuid().as_raw();
    let mode = match old {
        Some(m) if std::os::unix::fs::MetadataExt::uid(m) == user => m.permissions().mode() & 0o777,
        _ => NEW_FILE_MODE,
    };
    file.set_permissions(fs::Permissions::from_mode(mode))?;
    match unfinished.settle(|| tmp.persist(path)) {
        Some(renamed) => renamed.map(|_| ()).map_err(|e| e.error),
        None => Err(io::Error::other("the run ended before the write was done")),
    }
}

/// What is wrong with `dir` as the folder of a new file, in the OS's words: it is missing
/// ("No such file or directory"), not a folder ("Not a directory"), or not writable
/// ("Permission denied", "Read-only file system"). `None` when nothing is.
fn folder_problem(dir: &Path) -> Option<String> {
    use nix::errno::Errno;
    use nix::unistd::{access, AccessFlags};
    match fs::metadata(dir) {
        Err(e) => Some(os_words(&e)),
        Ok(m) if !m.is_dir() => Some(Errno::ENOTDIR.desc().to_string()),
        Ok(_) => access(dir, AccessFlags::W_OK | AccessFlags::X_OK)
            .err()
            .map(|errno| errno.desc().to_string()),
    }
}

/// The mode of a new result file (and of one replacing another user's file): the user's
/// alone, whatever the umask, as the `--answer-socket-file` a run creates. A result may hold
/// an answer to a secret question, a token pasted into a note, or any text the person typed;
/// the caller that reads it is the user's own process. One rule, not one by the answers, so
/// the mode is foreseeable (README "--output").
const NEW_FILE_MODE: u32 = 0o600;

#[cfg(test)]
mod tests {
    #[test]
    fn ascii_json_escapes_every_non_ascii_character_and_reads_back_the_same() {
        let json = "{\n  \"a\": \"caf\u{e9} \u{6db} \u{1f600}\"\n}";
        let ascii = super::ascii_json(json);
        assert_eq!(
            ascii,
            "{\n  \"a\": \"caf\\u00e9 \\u06db \\ud83d\\ude00\"\n}"
        );
        let back: serde_json::Value = serde_json::from_str(&ascii).unwrap();
        let was: serde_json::Value = serde_json::from_str(json).unwrap();
        assert_eq!(back, was);
    }
}

//! `--output FILE` and what FILE is (README "Command line", docs/exit-codes.md): a regular file
//! or a new one is replaced atomically, never keeping setuid or setgid; a symbolic link is
//! followed (the file it points to is replaced, the link stays); a character device or a FIFO
//! is opened and written, never replaced; a folder, a block device or a socket is refused
//! with exit 4; a link planted in a sticky world-writable folder is refused (exit 4); a signal
//! during a slow write leaves no temporary file and says so. Devices are made here with mknod
//! when running as root (never the real `/dev/null`); `/dev/full` (or a copy of it) gives the
//! disk-full message.

use crate::scripted_support::{example, pi_ask, run_cmd, Dir, Run};
use serde_json::Value;
use std::io::Read;
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// `pi-ask database.json --no-input -o OUTPUT`, run in `dir`.
fn write_to(dir: &Dir, output: &Path) -> Run {
    run_cmd(
        pi_ask()
            .current_dir(dir.path())
            .arg(example("database.json"))
            .arg("--no-input")
            .arg("-o")
            .arg(output),
    )
}

/// Exit 3 (the "Needs user input" result), nothing on stdout or stderr.
fn assert_written(run: &Run) {
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert_eq!(run.stdout, "");
    assert_eq!(run.stderr, "");
}

/// Whether `text` is the "Needs user input" result.
fn is_no_ui_result(text: &str) -> bool {
    serde_json::from_str::<Value>(text)
        .is_ok_and(|v| v["details"]["error"]["code"] == "no_ui" && text.ends_with("}\n"))
}

/// The names in `dir`, sorted.
fn names(dir: &Dir) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A device node `name` in `dir` (mknod), when this process may make one (root); `None`
/// otherwise, and the caller skips what needs it.
fn device(
    dir: &Dir,
    name: &str,
    kind: nix::sys::stat::SFlag,
    major: u64,
    minor: u64,
) -> Option<PathBuf> {
    let path = dir.path().join(name);
    let made = nix::sys::stat::mknod(
        &path,
        kind,
        nix::sys::stat::Mode::from_bits_truncate(0o666),
        nix::sys::stat::makedev(major, minor),
    );
    if let Err(e) = made {
        crate::common::say(&format!(
            "output_file: cannot mknod {name} (not root?): {e}; skipped"
        ));
        return None;
    }
    Some(path)
}

#[test]
fn a_character_device_is_written_through_not_replaced() {
    let dir = Dir::new();
    // A copy of /dev/null (char 1,3), so the real one is never at risk.
    let Some(null) = device(&dir, "null", nix::sys::stat::SFlag::S_IFCHR, 1, 3) else {
        return;
    };
    std::fs::set_permissions(&null, std::fs::Permissions::from_mode(0o4666)).unwrap();
    let run = write_to(&dir, Path::new("null"));
    assert_written(&run);
    let meta = std::fs::symlink_metadata(&null).unwrap();
    assert!(meta.file_type().is_char_device(), "{meta:?}");
    assert_eq!(meta.rdev(), libc::makedev(1, 3));
    assert_eq!(meta.mode() & 0o7777, 0o4666, "the node is left as it was");
    assert_eq!(names(&dir), ["null"], "no temporary file is left behind");
}

#[test]
fn a_full_disk_names_the_output_path() {
    let dir = Dir::new();
    // /dev/full fails every write with ENOSPC; as root a copy of it (the real one would be
    // at risk of being replaced should the fix break), else the real one (whose folder a
    // user cannot write).
    let full = device(&dir, "full", nix::sys::stat::SFlag::S_IFCHR, 1, 7)
        .unwrap_or_else(|| "/dev/full".into());
    let run = write_to(&dir, &full);
    assert_eq!(run.code, 4, "{}", run.stderr);
    assert_eq!(run.stdout, "");
    assert_eq!(
        run.stderr,
        format!(
            "pi-ask: cannot write the result to {}: No space left on device\n",
            full.display()
        )
    );
    let meta = std::fs::symlink_metadata(&full).unwrap();
    assert!(meta.file_type().is_char_device(), "{meta:?}");
}

#[test]
fn help_and_version_on_a_full_disk_exit_4_with_the_reason() {
    let dir = Dir::new();
    // As a_full_disk_names_the_output_path: a copy of /dev/full as root, else the real one.
    let full = device(&dir, "full", nix::sys::stat::SFlag::S_IFCHR, 1, 7)
        .unwrap_or_else(|| "/dev/full".into());
    for args in [
        &["--help"][..],
        &["--version"],
        &["validate", "--help"],
        &["validate", "examples/database.json"],
        &["schema", "input"],
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_pi-ask"))
            .args(args)
            .stdout(std::fs::OpenOptions::new().write(true).open(&full).unwrap())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(4), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            "pi-ask: cannot write to stdout: No space left on device\n",
            "{args:?}"
        );
    }
    // A reader that stopped reading (`pi-ask --help | head -1`) is no failure: 0, nothing said.
    for args in [&["--help"][..], &["--version"]] {
        let (read, write) = nix::unistd::pipe().unwrap();
        drop(read);
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_pi-ask"))
            .args(args)
            .stdout(std::process::Stdio::from(write))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{args:?}");
    }
    // And on a stdout that takes them, exit 0 as before.
    let run = run_cmd(pi_ask().arg("--version"));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("pi-ask "), "{}", run.stdout);
}

#[test]
fn a_write_error_on_the_temporary_file_names_the_output_path() {
    let dir = Dir::new();
    // A file size limit of 16 bytes (util-linux's prlimit; SIGXFSZ ignored by the shell, and
    // so across exec): writing the result fails with EFBIG, as a full disk fails with ENOSPC,
    // while the temporary file is written.
    let mut cmd = std::process::Command::new("sh");
    cmd.current_dir(dir.path())
        .args([
            "-c",
            "trap '' XFSZ; exec prlimit --fsize=16:16 \"$@\"",
            "sh",
            env!("CARGO_BIN_EXE_pi-ask"),
        ])
        .arg(example("database.json"))
        .args(["--no-input", "-o", "r.json"])
        .env_remove("PI_ASK_ANSWERS")
        .env_remove("PI_ASK_TIMEOUT");
    let run = run_cmd(&mut assert_cmd::Command::from_std(cmd));
    assert_eq!(run.code, 4, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        "pi-ask: cannot write the result to r.json: File too large\n"
    );
    assert!(names(&dir).is_empty(), "{:?}", names(&dir));
}

#[test]
fn a_fifo_is_written_into_not_replaced() {
    let dir = Dir::new();
    let fifo = dir.path().join("fifo");
    nix::unistd::mkfifo(
        &fifo,
        nix::sys::stat::Mode::S_IRUSR | nix::sys::stat::Mode::S_IWUSR,
    )
    .expect("mkfifo");
    // Open for reading and writing (Linux), non-blocking: pi-ask's open does not wait for a
    // reader, and this test never waits for a writer.
    let mut reader = std::fs::File::options()
        .read(true)
        .write(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(&fifo)
        .unwrap();
    let run = write_to(&dir, Path::new("fifo"));
    assert_written(&run);
    let mut got = Vec::new();
    let mut buf = [0u8; 65536];
    loop {
        match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
            Err(e) => panic!("{e}"),
        }
    }
    let got = String::from_utf8(got).unwrap();
    assert!(is_no_ui_result(&got), "{got:?}");
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
    assert_eq!(names(&dir), ["fifo"]);
}

/// A FIFO at `name` in `dir`.
fn make_fifo(dir: &Dir, name: &str) -> PathBuf {
    let fifo = dir.path().join(name);
    nix::unistd::mkfifo(
        &fifo,
        nix::sys::stat::Mode::S_IRUSR | nix::sys::stat::Mode::S_IWUSR,
    )
    .expect("mkfifo");
    fifo
}

/// `pi-ask database.json --no-input -o fifo` started in `dir`, its stderr piped.
fn spawn_into_fifo(dir: &Dir) -> std::process::Child {
    std::process::Command::new(env!("CARGO_BIN_EXE_pi-ask"))
        .current_dir(dir.path())
        .arg(example("database.json"))
        .args(["--no-input", "-o", "fifo"])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits at most `limit` for `child` to exit; its exit code.
fn exit_within(child: &mut std::process::Child, limit: std::time::Duration) -> Option<i32> {
    let start = std::time::Instant::now();
    while start.elapsed() < limit {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code();
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let _ = child.kill();
    None
}

#[test]
fn a_fifo_waits_for_its_reader_as_a_shell_does() {
    let dir = Dir::new();
    let fifo = make_fifo(&dir, "fifo");
    let mut child = spawn_into_fifo(&dir);
    std::thread::sleep(std::time::Duration::from_millis(300));
    let mut got = String::new();
    std::fs::File::open(&fifo)
        .unwrap()
        .read_to_string(&mut got)
        .unwrap();
    assert_eq!(
        exit_within(&mut child, std::time::Duration::from_secs(5)),
        Some(3)
    );
    assert!(is_no_ui_result(&got), "{got:?}");
}

#[test]
fn sigterm_ends_the_wait_for_a_fifo_that_nobody_reads() {
    let dir = Dir::new();
    make_fifo(&dir, "fifo");
    let mut child = spawn_into_fifo(&dir);
    crate::common::wait_until_handled(child.id(), libc::SIGTERM);
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGTERM,
    )
    .expect("kill");
    let code = exit_within(&mut child, std::time::Duration::from_secs(3));
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert_eq!(code, Some(4), "{stderr}");
    assert_eq!(
        stderr,
        "pi-ask: cannot write the result to fifo: it is a FIFO that no process opened for \
         reading before the signal\n"
    );
}

#[test]
fn a_socket_is_refused() {
    let dir = Dir::new();
    let _listener = std::os::unix::net::UnixListener::bind(dir.path().join("sock")).unwrap();
    let run = write_to(&dir, Path::new("sock"));
    assert_eq!(run.code, 4, "{}", run.stderr);
    assert_eq!(run.stdout, "");
    assert_eq!(
        run.stderr,
        "pi-ask: cannot write the result to sock: it is a socket, not a file\n"
    );
    assert!(std::fs::symlink_metadata(dir.path().join("sock"))
        .unwrap()
        .file_type()
        .is_socket());
}

#[test]
fn a_block_device_is_refused() {
    let dir = Dir::new();
    // A loop device number no machine has: even an open would fail (ENXIO).
    let Some(disk) = device(&dir, "disk", nix::sys::stat::SFlag::S_IFBLK, 7, 250) else {
        return;
    };
    let run = write_to(&dir, Path::new("disk"));
    assert_eq!(run.code, 4, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        "pi-ask: cannot write the result to disk: it is a block device, not a file\n"
    );
    assert!(std::fs::symlink_metadata(&disk)
        .unwrap()
        .file_type()
        .is_block_device());
}

#[test]
fn setuid_and_setgid_are_not_carried_over() {
    let dir = Dir::new();
    let out = dir.file("r.json", "old");
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o6754)).unwrap();
    let run = write_to(&dir, Path::new("r.json"));
    assert_written(&run);
    assert!(is_no_ui_result(&std::fs::read_to_string(&out).unwrap()));
    let mode = std::fs::metadata(&out).unwrap().mode() & 0o7777;
    assert_eq!(mode, 0o754, "{mode:o}");
}

#[test]
fn a_symlink_is_followed_and_stays() {
    let dir = Dir::new();
    std::fs::create_dir(dir.path().join("results")).unwrap();
    let real = dir.file("results/real.json", "old");
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).unwrap();
    std::os::unix::fs::symlink("results/real.json", dir.path().join("link.json")).unwrap();
    let run = write_to(&dir, Path::new("link.json"));
    assert_written(&run);
    let link = std::fs::symlink_metadata(dir.path().join("link.json")).unwrap();
    assert!(link.file_type().is_symlink(), "the link is kept");
    assert!(is_no_ui_result(&std::fs::read_to_string(&real).unwrap()));
    assert_eq!(
        std::fs::metadata(&real).unwrap().mode() & 0o7777,
        0o640,
        "the file it points to keeps its mode"
    );
    assert_eq!(names(&dir), ["link.json", "results"]);
}

#[test]
fn a_dangling_symlink_gets_the_file_it_names() {
    let dir = Dir::new();
    std::fs::create_dir(dir.path().join("results")).unwrap();
    std::os::unix::fs::symlink("results/new.json", dir.path().join("link.json")).unwrap();
    let run = write_to(&dir, Path::new("link.json"));
    assert_written(&run);
    assert!(std::fs::symlink_metadata(dir.path().join("link.json"))
        .unwrap()
        .file_type()
        .is_symlink());
    let written = std::fs::read_to_string(dir.path().join("results/new.json")).unwrap();
    assert!(is_no_ui_result(&written));
}

#[test]
fn a_symlink_to_a_character_device_writes_through_it() {
    let dir = Dir::new();
    let Some(null) = device(&dir, "null", nix::sys::stat::SFlag::S_IFCHR, 1, 3) else {
        return;
    };
    std::os::unix::fs::symlink(&null, dir.path().join("stdout")).unwrap();
    let run = write_to(&dir, Path::new("stdout"));
    assert_written(&run);
    assert!(std::fs::symlink_metadata(dir.path().join("stdout"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(std::fs::symlink_metadata(&null)
        .unwrap()
        .file_type()
        .is_char_device());
}

#[test]
fn a_symlink_loop_is_refused() {
    let dir = Dir::new();
    std::os::unix::fs::symlink("b", dir.path().join("a")).unwrap();
    std::os::unix::fs::symlink("a", dir.path().join("b")).unwrap();
    let run = write_to(&dir, Path::new("a"));
    assert_eq!(run.code, 4, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        "pi-ask: cannot write the result to a: Too many levels of symbolic links\n"
    );
    assert!(std::fs::symlink_metadata(dir.path().join("a"))
        .unwrap()
        .file_type()
        .is_symlink());
}

/// Whether this process runs as root (what making a link of another user's needs); a test
/// that needs it says it is skipped otherwise.
fn root(who: &str) -> bool {
    let root = nix::unistd::geteuid().is_root();
    if !root {
        crate::common::say(&format!("output_file: {who} needs root; skipped"));
    }
    root
}

/// The kernel's `fs.protected_symlinks` rule, applied whatever the machine says (the tests
/// run where it is 0 as well): a link in a sticky world-writable folder that belongs neither
/// to the user nor to the folder's owner is refused, as a link to the output or as a folder
/// on its way; the user's own link there is followed.
#[test]
fn a_planted_link_in_a_sticky_world_writable_folder_is_refused() {
    if !root("a_planted_link_in_a_sticky_world_writable_folder_is_refused") {
        return;
    }
    let dir = Dir::new();
    let shared = dir.path().join("shared");
    std::fs::create_dir(&shared).unwrap();
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o1777)).unwrap();
    std::fs::create_dir(dir.path().join("elsewhere")).unwrap();
    let nobody = 65534;
    std::os::unix::fs::symlink("../elsewhere/planted.json", shared.join("r.json")).unwrap();
    std::os::unix::fs::lchown(shared.join("r.json"), Some(nobody), Some(nobody)).unwrap();
    std::os::unix::fs::symlink("../elsewhere", shared.join("sub")).unwrap();
    std::os::unix::fs::lchown(shared.join("sub"), Some(nobody), Some(nobody)).unwrap();
    let run = write_to(&dir, Path::new("shared/r.json"));
    assert_eq!(run.code, 4, "{}", run.stderr);
    assert_eq!(run.stdout, "");
    assert_eq!(
        run.stderr,
        "pi-ask: cannot write the result to shared/r.json: the symbolic link shared/r.json is \
         in a sticky world-writable folder and belongs neither to you nor to the folder's owner\n"
    );
    let run = write_to(&dir, Path::new("shared/sub/r.json"));
    assert_eq!(run.code, 4, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        "pi-ask: cannot write the result to shared/sub/r.json: the symbolic link shared/sub is \
         in a sticky world-writable folder and belongs neither to you nor to the folder's owner\n"
    );
    let elsewhere: Vec<_> = std::fs::read_dir(dir.path().join("elsewhere"))
        .unwrap()
        .collect();
    assert!(
        elsewhere.is_empty(),
        "nothing is written where the links point"
    );
    // The user's own link there is followed, as the kernel follows it.
    std::os::unix::fs::symlink("../elsewhere/mine.json", shared.join("mine.json")).unwrap();
    let run = write_to(&dir, Path::new("shared/mine.json"));
    assert_written(&run);
    let mine = std::fs::read_to_string(dir.path().join("elsewhere/mine.json")).unwrap();
    assert!(is_no_ui_result(&mine), "{mine}");
}

/// A folder `name` in `dir` with mode 1777 (sticky, world-writable, as `/tmp`), owned by
/// this process's user.
fn sticky_folder(dir: &Dir, name: &str) -> PathBuf {
    let shared = dir.path().join(name);
    std::fs::create_dir(&shared).unwrap();
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o1777)).unwrap();
    shared
}

/// The kernel's `fs.protected_fifos` and `fs.protected_regular` rules, applied whatever the
/// machine says: a FIFO or a regular file in a sticky world-writable folder that belongs
/// neither to the user nor to the folder's owner is refused (exit 4, named), never written
/// into nor replaced; one of the folder's owner is used.
#[test]
fn a_planted_fifo_or_file_in_a_sticky_world_writable_folder_is_refused() {
    if !root("a_planted_fifo_or_file_in_a_sticky_world_writable_folder_is_refused") {
        return;
    }
    let dir = Dir::new();
    sticky_folder(&dir, "shared");
    let nobody = 65534;
    let fifo = make_fifo(&dir, "shared/r.json");
    std::os::unix::fs::chown(&fifo, Some(nobody), Some(nobody)).unwrap();
    // The planter's reader (read and write, non-blocking: the test never waits).
    let mut reader = std::fs::File::options()
        .read(true)
        .write(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(&fifo)
        .unwrap();
    let run = write_to(&dir, Path::new("shared/r.json"));
    assert_eq!(run.code, 4, "{}", run.stderr);
    assert_eq!(run.stdout, "");
    assert_eq!(
        run.stderr,
        "pi-ask: cannot write the result to shared/r.json: the FIFO shared/r.json is in a \
         sticky world-writable folder and belongs neither to you nor to the folder's owner\n"
    );
    let mut stolen = Vec::new();
    let _ = reader.read_to_end(&mut stolen);
    assert!(stolen.is_empty(), "{}", String::from_utf8_lossy(&stolen));

    let planted = dir.file("shared/r2.json", "planted");
    std::fs::set_permissions(&planted, std::fs::Permissions::from_mode(0o666)).unwrap();
    std::os::unix::fs::chown(&planted, Some(nobody), Some(nobody)).unwrap();
    let run = write_to(&dir, Path::new("shared/r2.json"));
    assert_eq!(run.code, 4, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        "pi-ask: cannot write the result to shared/r2.json: the file shared/r2.json is in a \
         sticky world-writable folder and belongs neither to you nor to the folder's owner\n"
    );
    assert_eq!(std::fs::read_to_string(&planted).unwrap(), "planted");
    assert_eq!(names(&dir), ["shared"]);

    // The user's own file there is replaced, as the kernel lets it be opened.
    let mine = dir.file("shared/mine.json", "old");
    let run = write_to(&dir, Path::new("shared/mine.json"));
    assert_written(&run);
    assert!(is_no_ui_result(&std::fs::read_to_string(&mine).unwrap()));

    // In a sticky folder of nobody's, nobody's file is the folder owner's: used.
    let theirs = sticky_folder(&dir, "theirs");
    std::os::unix::fs::chown(&theirs, Some(nobody), Some(nobody)).unwrap();
    let owned = dir.file("theirs/r.json", "old");
    std::os::unix::fs::chown(&owned, Some(nobody), Some(nobody)).unwrap();
    let run = write_to(&dir, Path::new("theirs/r.json"));
    assert_written(&run);
    assert!(is_no_ui_result(&std::fs::read_to_string(&owned).unwrap()));
}

/// A replaced file of another user's never lends its permission bits to the result (root
/// replacing a 0666 file of nobody's gets 0666 less its umask, here 0600).
#[test]
fn the_mode_of_another_users_file_is_not_carried_over() {
    if !root("the_mode_of_another_users_file_is_not_carried_over") {
        return;
    }
    let dir = Dir::new();
    let out = dir.file("r.json", "old");
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o666)).unwrap();
    std::os::unix::fs::chown(&out, Some(65534), Some(65534)).unwrap();
    let mut cmd = std::process::Command::new("sh");
    cmd.current_dir(dir.path())
        .args(["-c", "umask 077; exec \"$@\"", "sh"])
        .arg(env!("CARGO_BIN_EXE_pi-ask"))
        .arg(example("database.json"))
        .args(["--no-input", "-o", "r.json"])
        .env_remove("PI_ASK_ANSWERS")
        .env_remove("PI_ASK_TIMEOUT");
    let run = run_cmd(&mut assert_cmd::Command::from_std(cmd));
    assert_written(&run);
    let meta = std::fs::metadata(&out).unwrap();
    assert!(is_no_ui_result(&std::fs::read_to_string(&out).unwrap()));
    assert_eq!(meta.mode() & 0o7777, 0o600, "{:o}", meta.mode());
    assert_eq!(meta.uid(), 0, "the result is root's own file");
}

/// An `--output` that cannot be used is refused before the first question is drawn (exit 4,
/// the final write's message, no result), so no one answers for nothing: a missing folder,
/// and (as root) a link planted in a sticky world-writable folder.
#[test]
fn an_unusable_output_is_refused_before_the_first_question() {
    let payload = std::fs::read_to_string(example("database.json")).unwrap();
    let shown = |s: &crate::common::pty::Session| s.screen().contains("database");
    let mut cases = vec![(
        "missing/r.json",
        "folder missing: No such file or directory".to_string(),
    )];
    if root("an_unusable_output_is_refused_before_the_first_question (planted link)") {
        cases.push((
            "shared/r.json",
            "the symbolic link shared/r.json is in a sticky world-writable folder and belongs \
             neither to you nor to the folder's owner"
                .to_string(),
        ));
    }
    for (output, why) in cases {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("payload.json"), &payload).unwrap();
        let shared = dir.path().join("shared");
        std::fs::create_dir(&shared).unwrap();
        std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o1777)).unwrap();
        std::os::unix::fs::symlink("../elsewhere.json", shared.join("r.json")).unwrap();
        let _ = std::os::unix::fs::lchown(shared.join("r.json"), Some(65534), Some(65534));
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_pi-ask"));
        cmd.arg("payload.json").arg("--output").arg(output);
        let result = dir.path().join(output);
        let opts = crate::common::pty::Options {
            cwd: Some(dir.path().to_path_buf()),
            ..Default::default()
        };
        let mut s = crate::common::pty::Session::spawn_command(cmd, dir, result, opts);
        let start = std::time::Instant::now();
        while !s.exited() {
            assert!(
                !shown(&s),
                "{output}: the question was asked:\n{}",
                s.screen()
            );
            assert!(start.elapsed() < std::time::Duration::from_secs(10));
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let (code, result) = s.finish();
        assert_eq!(code, 4, "{output}: {}", s.stderr());
        assert_eq!(result, None, "{output}");
        assert_eq!(
            s.stderr(),
            format!("pi-ask: cannot write the result to {output}: {why}\n")
        );
        assert!(!shown(&s), "{output}:\n{}", s.screen());
        assert!(!s.dir().join("elsewhere.json").exists());
    }
}

/// A payload whose "Needs user input" result is larger than a pipe holds (64 KiB).
fn large_payload(dir: &Dir) -> PathBuf {
    let questions: Vec<Value> = (0..40)
        .map(|i| {
            serde_json::json!({
                "id": format!("q{i}"),
                "prompt": format!("{i} {}", "long prompt ".repeat(300)),
                "options": [{"value": "a", "label": "A"}]
            })
        })
        .collect();
    dir.file(
        "large.json",
        &serde_json::json!({ "questions": questions }).to_string(),
    )
}

/// Waits (up to 15 s) until a thread of process `pid` waits in a write to a full pipe.
fn wait_in_a_pipe_write(pid: u32) {
    let start = std::time::Instant::now();
    loop {
        let waiting = std::fs::read_dir(format!("/proc/{pid}/task"))
            .into_iter()
            .flatten()
            .flatten()
            .any(|t| {
                std::fs::read_to_string(t.path().join("wchan"))
                    .is_ok_and(|w| w.contains("pipe_write"))
            });
        if waiting {
            return;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(15),
            "pi-ask never waited in a write"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// A FIFO whose reader does not read: the result's write waits; SIGTERM ends the run after
/// its deadline for the write, and stderr says the result in the FIFO may be cut short.
#[test]
fn sigterm_during_a_write_to_a_fifo_that_is_not_read_says_so() {
    let dir = Dir::new();
    let fifo = make_fifo(&dir, "fifo");
    let _reader = std::fs::File::options()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(&fifo)
        .unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_pi-ask"))
        .current_dir(dir.path())
        .arg(large_payload(&dir))
        .args(["--no-input", "-o", "fifo"])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    wait_in_a_pipe_write(child.id());
    crate::common::send_signal(child.id() as i32, libc::SIGTERM);
    let code = exit_within(&mut child, std::time::Duration::from_secs(10));
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert_eq!(code, Some(143), "{stderr}");
    assert_eq!(
        stderr,
        "pi-ask: the result in fifo may be cut short or missing: the run ended before its \
         write was done\n"
    );
}

/// A slow disk, made with strace's fault injection (a 6 s `fsync`, longer than the 3 s a
/// signal gives the write): SIGTERM during the write of a regular file ends the run after
/// that deadline; the temporary file is removed and stderr says the result was not written.
/// Skipped without strace (CI installs it: .ci/run).
#[test]
fn sigterm_during_a_slow_write_removes_the_temporary_file_and_says_so() {
    if !crate::common::installed(
        "strace",
        "-V",
        "sigterm_during_a_slow_write_removes_the_temporary_file_and_says_so",
    ) {
        return;
    }
    let dir = Dir::new();
    let mut child = std::process::Command::new("strace")
        .current_dir(dir.path())
        .args(["-f", "-qq", "-o", "/dev/null", "-e", "trace=fsync"])
        .args(["-e", "inject=fsync:delay_enter=6000000"])
        .arg(env!("CARGO_BIN_EXE_pi-ask"))
        .arg(example("database.json"))
        .args(["--no-input", "-o", "r.json"])
        .env_remove("PI_ASK_ANSWERS")
        .env_remove("PI_ASK_TIMEOUT")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The temporary file written whole: the write waits in its fsync.
    let start = std::time::Instant::now();
    let result_len = loop {
        let temp = names(&dir)
            .into_iter()
            .find(|n| n.starts_with(".pi-ask-result-"));
        let len = temp
            .and_then(|t| std::fs::metadata(dir.path().join(t)).ok())
            .map(|m| m.len());
        if let Some(len) = len.filter(|&l| l > 0) {
            break len;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(15),
            "no temporary file"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    assert!(result_len > 100);
    let tracee =
        std::fs::read_to_string(format!("/proc/{0}/task/{0}/children", child.id())).unwrap();
    let pid: i32 = tracee.split_whitespace().next().unwrap().parse().unwrap();
    crate::common::wait_until_handled(pid as u32, libc::SIGTERM);
    crate::common::send_signal(pid, libc::SIGTERM);
    let code = exit_within(&mut child, std::time::Duration::from_secs(20));
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert_eq!(code, Some(143), "{stderr}");
    // strace's own words left out.
    let stderr: String = stderr
        .lines()
        .filter(|l| !l.starts_with("strace:"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(
        stderr,
        "pi-ask: the result was not written to r.json: the run ended before its write was done \
         (its temporary file was removed)\n"
    );
    assert!(names(&dir).is_empty(), "{:?}", names(&dir));
}

/// A new result file is the user's alone (0600) whatever the umask: a result may hold a
/// secret answer (README "--output"). A file of the user's keeps its mode.
#[test]
fn a_new_result_file_is_the_users_alone() {
    let dir = Dir::new();
    let payload = dir.file(
        "q.json",
        r#"{"title": "Login", "questions": [{"id": "pw", "prompt": "Database password?",
            "secret": true, "options": []}]}"#,
    );
    let answers = dir.file(
        "a.json",
        r#"{"answers": {"pw": {"customText": "hunter2"}}}"#,
    );
    let run_with_umask = |output: &str| {
        let mut cmd = std::process::Command::new("sh");
        cmd.current_dir(dir.path())
            .args(["-c", "umask 022; exec \"$@\"", "sh"])
            .arg(env!("CARGO_BIN_EXE_pi-ask"))
            .arg(&payload)
            .arg("--answers")
            .arg(&answers)
            .args(["-o", output])
            .env_remove("PI_ASK_ANSWERS")
            .env_remove("PI_ASK_TIMEOUT");
        run_cmd(&mut assert_cmd::Command::from_std(cmd))
    };
    let run = run_with_umask("r.json");
    assert_eq!((run.code, run.stderr.as_str()), (0, ""));
    let out = dir.path().join("r.json");
    assert!(std::fs::read_to_string(&out).unwrap().contains("hunter2"));
    let mode = std::fs::metadata(&out).unwrap().mode() & 0o7777;
    assert_eq!(mode, 0o600, "{mode:o}");
    // The user's own file, made readable on purpose, keeps its mode.
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o644)).unwrap();
    assert_eq!(run_with_umask("r.json").code, 0);
    let mode = std::fs::metadata(&out).unwrap().mode() & 0o7777;
    assert_eq!(mode, 0o644, "{mode:o}");
}

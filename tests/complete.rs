//! `@` file-path completion in the editors, driven in a pty (tests/common/pty.rs): each test
//! builds a real temporary tree, runs pi-ask with `--cwd` on it, types into the free-form
//! answer editor with Tab completions, and asserts the screen and the exact result JSON.

use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::Path;

use crate::common::pty::{Options, Session};
use serde_json::{json, Value};

const PAYLOAD: &str = r#"{"questions":[{"id":"file","prompt":"Which file?","options":[{"value":"none","label":"None"}]}]}"#;

const DOWN: &str = "\x1b[B";
const TAB: &str = "\t";
/// Ctrl+E: end of line (no escape sequence to split).
const END: &str = "\x05";
/// Ctrl+B: one character back.
const CTRL_B: &str = "\x02";

fn write(root: &Path, rel: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, "").unwrap();
}

/// Starts pi-ask on `root` and opens the free-form answer editor.
fn open_editor(root: &Path) -> Session {
    open_editor_with(root, Vec::new())
}

/// [`open_editor`] with more environment variables.
fn open_editor_with(root: &Path, env: Vec<(String, String)>) -> Session {
    let mut opts = Options {
        // a loaded machine must not turn the first Tab into a partial list
        env: vec![("PI_ASK_INDEX_WAIT_MS".into(), "10000".into())],
        ..Options::default()
    };
    opts.env.extend(env);
    let mut s = Session::spawn_with(PAYLOAD, &["--cwd", root.to_str().unwrap()], opts);
    s.wait_all(&["Which file?:", "· ? keys"]);
    s.send(DOWN);
    s.wait_for("> ( ) 2. Type your own…");
    s.send("\r");
    s.wait_all(&[
        "Type your own · Enter submit · Esc close",
        "\n> Type answer...",
    ]);
    s
}

/// Waits until a screen line is exactly `line` (trailing spaces ignored).
fn wait_line(s: &mut Session, line: &str) -> String {
    s.wait_until(line, |screen| screen.lines().any(|l| l.trim_end() == line))
}

/// Saves the editor with Enter, submits in the review, and returns the result's `details`.
fn save_and_submit(s: &mut Session) -> Value {
    s.send("\r");
    s.wait_all(&["Review answers", "> 1. Submit"]);
    s.send("\r");
    let (code, result) = s.finish();
    assert_eq!(code, 0);
    result.expect("a result")["details"].clone()
}

/// The `details` of a submitted result whose only answer is the custom text `text`.
fn custom_answer(text: &str) -> Value {
    json!({
        "cancelled": false,
        "questions": [{"id": "file", "label": "Q1", "prompt": "Which file?", "type": "single"}],
        "answers": {"file": {"values": [text], "labels": [text], "indices": [], "customText": text}}
    })
}

#[test]
fn gitignored_and_hidden_entries_are_not_listed() {
    let tree = tempfile::tempdir().unwrap();
    let root = tree.path();
    std::fs::write(root.join(".gitignore"), "target/\n*.log\n").unwrap();
    write(root, "src/mod17.rs");
    write(root, "src/main.rs");
    write(root, "notes/mod17.md");
    write(root, "target/mod17.rs");
    write(root, "mod17.log");
    write(root, ".hidden/mod17.txt");
    let mut s = open_editor(root);
    s.send("see @mod17");
    s.wait_for("> see @mod17");
    s.send(TAB);
    let screen = wait_line(&mut s, "src/mod17.rs    notes/mod17.md");
    assert!(!screen.contains("target"), "{screen}");
    assert!(!screen.contains("mod17.log"), "{screen}");
    assert!(!screen.contains(".hidden"), "{screen}");
    s.send(".r");
    s.wait_for("> see @mod17.r");
    s.send(TAB);
    s.wait_for("> see @src/mod17.rs ");
    s.send("ok");
    s.wait_for("> see @src/mod17.rs ok");
    assert_eq!(
        save_and_submit(&mut s),
        custom_answer("see @src/mod17.rs ok")
    );
}

#[test]
fn paths_with_spaces_are_quoted_like_pi() {
    let tree = tempfile::tempdir().unwrap();
    let root = tree.path();
    write(root, "my folder/notes.txt");
    std::fs::create_dir(root.join("empty dir")).unwrap();
    let mut s = open_editor(root);
    s.send("@note");
    s.wait_for("> @note");
    s.send(TAB);
    s.wait_for("> @\"my folder/notes.txt\" ");
    // a quoted folder keeps the cursor before its closing quote
    s.send("and @empt");
    s.wait_for("and @empt");
    s.send(TAB);
    s.wait_for("and @\"empty dir/\"");
    s.send("new.txt");
    s.wait_for("and @\"empty dir/new.txt\"");
    // started with @": the common part of the candidates, then one folder level
    s.send(END);
    s.send(" or @\"my f");
    s.wait_for("new.txt\" or @\"my f");
    s.send(TAB);
    wait_line(&mut s, "my folder/           my folder/notes.txt");
    s.send(TAB);
    s.wait_for("or @\"my folder/notes.txt\" ");
    assert_eq!(
        save_and_submit(&mut s),
        custom_answer(
            "@\"my folder/notes.txt\" and @\"empty dir/new.txt\" or @\"my folder/notes.txt\""
        )
    );
}

#[test]
fn an_unquoted_fragment_gets_the_quoted_common_prefix_and_one_space() {
    let tree = tempfile::tempdir().unwrap();
    let root = tree.path();
    write(root, "dir with space/a.txt");
    write(root, "dir with space/b.txt");
    let mut s = open_editor(root);
    s.send("see @dir");
    s.wait_for("> see @dir");
    // every match is inside the folder: their shared part, quoted
    s.send(TAB);
    s.wait_for("> see @\"dir with space/");
    s.send("a");
    s.wait_for("> see @\"dir with space/a");
    s.send(TAB);
    s.wait_for("> see @\"dir with space/a.txt\" ");
    // in the middle of a line, the space already there is the path's space
    s.send("and @b.t tail");
    s.wait_for("a.txt\" and @b.t tail");
    s.send(&CTRL_B.repeat(" tail".len()));
    s.send(TAB);
    s.wait_for("and @\"dir with space/b.txt\" tail");
    s.send(END);
    assert_eq!(
        save_and_submit(&mut s),
        custom_answer("see @\"dir with space/a.txt\" and @\"dir with space/b.txt\" tail")
    );
}

#[test]
fn symlink_loops_are_not_followed() {
    let tree = tempfile::tempdir().unwrap();
    let root = tree.path();
    write(root, "a.txt");
    write(root, "sub/b.txt");
    symlink(".", root.join("loop")).unwrap();
    symlink("..", root.join("sub/up")).unwrap();
    let mut s = open_editor(root);
    // one candidate: nothing is found again through `loop/` or `sub/up/`
    s.send("@b.t");
    s.wait_for("> @b.t");
    s.send(TAB);
    s.wait_for("> @sub/b.txt ");
    s.send("@loo");
    s.wait_for("> @sub/b.txt @loo");
    s.send(TAB);
    s.wait_for("> @sub/b.txt @loop/");
    // an explicit path through the loop lists one level, like a shell
    s.send(TAB);
    wait_line(&mut s, "loop/  sub/   a.txt");
    s.send("a");
    s.wait_for("@loop/a");
    s.send(TAB);
    s.wait_for("> @sub/b.txt @loop/a.txt ");
    assert_eq!(
        save_and_submit(&mut s),
        custom_answer("@sub/b.txt @loop/a.txt")
    );
}

#[test]
fn unreadable_folders_are_skipped() {
    let tree = tempfile::tempdir().unwrap();
    let root = tree.path();
    write(root, "open/readme.md");
    write(root, "locked/secret.txt");
    let locked = root.join("locked");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    // chmod 000 does not stop root (CI runs as root): then the folder is simply readable
    let blocked = std::fs::read_dir(&locked).is_err();
    let mut s = open_editor(root);
    s.send("@read");
    s.wait_for("> @read");
    s.send(TAB);
    s.wait_for("> @open/readme.md ");
    s.send("@secr");
    s.wait_for("> @open/readme.md @secr");
    s.send(TAB);
    s.send("x");
    let expected = if blocked {
        "@open/readme.md @secrx"
    } else {
        "@open/readme.md @locked/secret.txt x"
    };
    s.wait_for(&format!("> {expected}"));
    let details = save_and_submit(&mut s);
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(details, custom_answer(expected));
}

#[test]
fn a_folder_of_more_than_a_thousand_entries_inserts_the_prefix_of_all_of_them() {
    let tree = tempfile::tempdir().unwrap();
    let root = tree.path();
    for i in 0..1100 {
        write(root, &format!("logs/app_2024_{i:04}.log"));
    }
    write(root, "logs/readme.txt");
    let mut s = open_editor(root);
    s.send("@logs/");
    s.wait_for("> @logs/");
    s.send(TAB);
    s.wait_for("more: type more of the name");
    // Nothing is inserted: readme.txt matches too, past the listed thousand.
    s.send("!");
    s.wait_for("> @logs/!");
    let details = save_and_submit(&mut s);
    assert_eq!(details, custom_answer("@logs/!"));
}

/// Resident memory of process `pid` in KiB.
fn resident_kib(pid: i32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
fn a_hostile_gitignore_is_not_compiled_and_the_hint_says_completion_gave_up() {
    let tree = tempfile::tempdir().unwrap();
    let root = tree.path();
    // A hostile repository's ignore file: 20,000 costly patterns (800 KB).
    let hostile: String = (0..20_000)
        .map(|i| format!("**/a*b*c*d*e*f*g*h*i*j{i}/**/*.x{i}\n"))
        .collect();
    std::fs::create_dir_all(root.join("vendor")).unwrap();
    std::fs::write(root.join("vendor/.gitignore"), hostile).unwrap();
    write(root, "vendor/filler.txt");
    write(root, "src/file17.rs");
    write(root, "src/file18.rs");
    let s = open_editor(root);
    completes_despite(
        s,
        "(completion gave up on vendor/: its .gitignore is larger than 64 KiB)",
    );
}

/// In an editor opened on a tree holding `src/file17.rs` and `src/file18.rs`: `@fil` and Tab
/// wait for the walk, then list both under the hint `gave_up` (within 64 MiB of memory);
/// `e17` and Tab complete the first, which the submitted answer holds.
fn completes_despite(mut s: Session, gave_up: &str) {
    s.send("see @fil");
    s.wait_for("> see @fil");
    s.send(TAB);
    // The status under the text when it is longer than the row has room for.
    s.wait_until(gave_up, |screen| {
        screen.contains("> see @fil")
            && screen
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .contains(gave_up)
    });
    assert!(
        resident_kib(s.pid()) < 64 * 1024,
        "{} KiB resident",
        resident_kib(s.pid())
    );
    s.wait_for("src/file17.rs  src/file18.rs");
    s.send("e17");
    s.wait_for("> see @file17");
    s.send(TAB);
    s.wait_for("> see @src/file17.rs ");
    let details = save_and_submit(&mut s);
    assert_eq!(details, custom_answer("see @src/file17.rs"));
}

/// git's global config or excludes file is read by the index's walker: one that is not a
/// regular file (a link to /dev/zero, a FIFO) is never read; the walk goes on without the
/// global excludes, and the hint says so.
#[test]
fn a_global_git_config_that_is_no_regular_file_is_not_read() {
    let tree = tempfile::tempdir().unwrap();
    let root = tree.path();
    write(root, "src/file17.rs");
    write(root, "src/file18.rs");
    let env = vec![("GIT_CONFIG_GLOBAL".to_string(), "/dev/zero".to_string())];
    completes_despite(
        open_editor_with(root, env),
        "(completion gave up on git's global excludes: its $GIT_CONFIG_GLOBAL is not a regular file)",
    );
}

/// git's global excludes file is compiled into every folder's matcher: its patterns count
/// against the same bounds as a folder's (one of 20 wildcards is refused), else the walk goes
/// on without it, and the hint says so.
#[test]
fn a_global_excludes_file_of_costly_patterns_is_not_compiled() {
    let tree = tempfile::tempdir().unwrap();
    let root = tree.path();
    write(root, "src/file17.rs");
    write(root, "src/file18.rs");
    let config = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(config.path().join("git")).unwrap();
    std::fs::write(
        config.path().join("git/ignore"),
        format!("**/{}x\n", "a*".repeat(19)),
    )
    .unwrap();
    let env = vec![
        (
            "XDG_CONFIG_HOME".to_string(),
            config.path().display().to_string(),
        ),
        ("HOME".to_string(), config.path().display().to_string()),
    ];
    completes_despite(
        open_editor_with(root, env),
        "(completion gave up on git's global excludes: a pattern of its core.excludesFile has more than 16 wildcards)",
    );
}

#[test]
fn a_name_with_control_characters_is_inserted_as_it_is_and_drawn_escaped() {
    let tree = tempfile::tempdir().unwrap();
    let root = tree.path();
    write(root, "a\u{1b}]0;pwn\u{7}.txt");
    let mut s = open_editor(root);
    s.send("@a");
    s.wait_for("> @a");
    s.send(TAB);
    // Drawn escaped, never run; the text keeps the real name (a reference that exists).
    wait_line(&mut s, "> @a\\e]0;pwn\\x07.txt");
    assert_eq!(
        save_and_submit(&mut s),
        custom_answer("@a\u{1b}]0;pwn\u{7}.txt")
    );
}

/// The candidates a Tab listed are laid out again for a narrower window (one a row), each
/// name whole, not the wide window's rows cut at the new width.
#[test]
fn the_listed_candidates_are_laid_out_again_after_a_resize() {
    let dir = tempfile::tempdir().unwrap();
    let names: Vec<String> = (1..=4)
        .map(|i| format!("alpha_long_name_number_{i:02}.md"))
        .collect();
    for name in &names {
        write(dir.path(), name);
    }
    let mut s = open_editor(dir.path());
    s.send("@alp");
    s.send(TAB);
    // At 100 columns, three names a row.
    s.wait_until("the list", |screen| {
        screen.lines().any(|l| {
            l.contains("alpha_long_name_number_01.md") && l.contains("alpha_long_name_number_03.md")
        })
    });
    s.set_window_size(30, 40);
    let screen = s.wait_until("every name whole, one a row", |screen| {
        names
            .iter()
            .all(|n| screen.lines().any(|l| l.trim() == n.as_str()))
    });
    assert!(screen.contains("> @alpha_long_name_number_0"), "{screen}");
}

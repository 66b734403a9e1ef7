//! Unit tests on real temporary trees: real files, a real `.gitignore`, a real symlink loop,
//! a real unreadable folder and real non-UTF-8 names.

use std::fs;
use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::Path;
use std::time::Duration;

use super::*;

const LONG: Duration = Duration::from_secs(30);

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

fn completer(root: &Path) -> AtCompleter {
    AtCompleter::new(root).wait(LONG).home(None)
}

/// (display, replacement) of every candidate for `line` with the cursor at its end.
fn complete(c: &AtCompleter, line: &str) -> Vec<(String, String)> {
    let (start, pairs) = c.complete_at(line, line.len()).expect("an @ reference");
    assert_eq!(start, line.rfind('@').unwrap());
    pairs
        .into_iter()
        .map(|p| (p.display, p.replacement))
        .collect()
}

fn displays(c: &AtCompleter, line: &str) -> Vec<String> {
    complete(c, line).into_iter().map(|(d, _)| d).collect()
}

/// Every path in the finished index, sorted, folders with a trailing `/`.
fn indexed(c: &AtCompleter) -> Vec<String> {
    c.index().start();
    assert!(c.index().wait(LONG));
    let mut all: Vec<String> = c
        .index()
        .snapshot()
        .iter()
        .flat_map(|chunk| {
            (0..chunk.len())
                .map(|i| {
                    let (p, f) = chunk.get(i);
                    if f & index::FLAG_DIR != 0 {
                        format!("{p}/")
                    } else {
                        p.to_owned()
                    }
                })
                .collect::<Vec<_>>()
        })
        .collect();
    all.sort();
    all
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// A project tree that is not a git repository, with .gitignore and .ignore rules.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, ".gitignore", "target/\n*.log\n");
    write(root, ".ignore", "secret.txt\n");
    write(root, "src/main.rs", "");
    write(root, "src/mod17.rs", "");
    write(root, "src/deep/mod17/lib.rs", "");
    write(root, "target/debug/mod17.rs", "");
    write(root, "build.log", "");
    write(root, "secret.txt", "");
    write(root, ".config/mod17.toml", "");
    write(root, "README.md", "");
    dir
}

#[test]
fn index_respects_gitignore_and_ignore_outside_git() {
    let dir = project();
    let c = completer(dir.path());
    assert_eq!(
        indexed(&c),
        // a hidden folder is listed, not entered
        strings(&[
            ".config/",
            ".gitignore",
            ".ignore",
            "README.md",
            "src/",
            "src/deep/",
            "src/deep/mod17/",
            "src/deep/mod17/lib.rs",
            "src/main.rs",
            "src/mod17.rs",
        ])
    );
    let p = c.index().progress();
    assert_eq!(
        (p.entries, p.started, p.done, p.truncated),
        (10, true, true, false)
    );
}

#[test]
fn fuzzy_ranks_and_hides_hidden_entries() {
    let dir = project();
    let c = completer(dir.path());
    assert_eq!(
        complete(&c, "see @mod17"),
        vec![
            ("src/mod17.rs".to_string(), "@src/mod17.rs ".to_string()),
            (
                "src/deep/mod17/".to_string(),
                "@src/deep/mod17/".to_string()
            ),
            (
                "src/deep/mod17/lib.rs".to_string(),
                "@src/deep/mod17/lib.rs ".to_string()
            ),
        ]
    );
    // hidden entries only when the fragment starts with `.`; inside a hidden folder, an
    // explicit path lists one level
    assert_eq!(displays(&c, "@.conf"), strings(&[".config/"]));
    assert_eq!(
        complete(&c, "@.config/"),
        vec![("mod17.toml".to_string(), "@.config/mod17.toml ".to_string())]
    );
    // narrowing from the previous fragment gives what a fresh completer gives
    assert_eq!(
        displays(&c, "@mod"),
        displays(&completer(dir.path()), "@mod")
    );
    assert_eq!(
        displays(&c, "@mod1"),
        displays(&completer(dir.path()), "@mod1")
    );
    assert_eq!(displays(&c, "@zzz"), Vec::<String>::new());
}

#[test]
fn empty_fragment_lists_shallowest_first() {
    let dir = project();
    let c = completer(dir.path());
    assert_eq!(
        displays(&c, "@"),
        strings(&[
            "src/",
            "README.md",
            "src/deep/",
            "src/main.rs",
            "src/mod17.rs",
            "src/deep/mod17/",
            "src/deep/mod17/lib.rs",
        ])
    );
}

#[test]
fn git_info_exclude_and_git_folder() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, ".git/info/exclude", "excluded.txt\n");
    write(root, ".git/HEAD", "ref: refs/heads/main\n");
    write(root, "excluded.txt", "");
    write(root, "kept.txt", "");
    let c = completer(root);
    assert_eq!(indexed(&c), strings(&["kept.txt"]));
    assert_eq!(displays(&c, "@.g"), Vec::<String>::new());
}

#[test]
fn folder_with_a_space_is_quoted() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "my folder/notes.txt", "");
    write(root, "plain.txt", "");
    let c = completer(root);
    assert_eq!(
        complete(&c, "@my"),
        vec![
            ("my folder/".to_string(), "@\"my folder/\"".to_string()),
            (
                "my folder/notes.txt".to_string(),
                "@\"my folder/notes.txt\" ".to_string()
            ),
        ]
    );
    // started with @": every candidate keeps the quotes
    assert_eq!(
        complete(&c, "@\"pla"),
        vec![("plain.txt".to_string(), "@\"plain.txt\" ".to_string())]
    );
    // inside the quotes, an explicit folder lists one level
    assert_eq!(
        complete(&c, "x @\"my folder/"),
        vec![(
            "notes.txt".to_string(),
            "@\"my folder/notes.txt\" ".to_string()
        )]
    );
}

#[test]
fn applying_quoted_candidates_like_pi() {
    // a quoted folder: the cursor stays before the closing quote
    assert_eq!(
        apply("@my", 3, 0, "@\"my folder/\""),
        ("@\"my folder/\"".to_string(), 12)
    );
    // completing inside it replaces the closing quote that follows the cursor
    let line = "@\"my folder/\"";
    assert_eq!(
        apply(line, 12, 0, "@\"my folder/notes.txt\" "),
        ("@\"my folder/notes.txt\" ".to_string(), 23)
    );
    // plain references keep the rest of the line, with one space after the path
    assert_eq!(
        apply("see @ma and", 7, 4, "@src/main.rs "),
        ("see @src/main.rs and".to_string(), 17)
    );
}

/// What rustyline's first Tab in list mode leaves: the line and cursor when it inserts the
/// only candidate or the candidates' common prefix (when longer than what was typed), through
/// [`insertion`] as `AtCompleter::update` does; `None` when the line stays as it is.
fn tab(c: &AtCompleter, line: &str, pos: usize) -> Option<(String, usize)> {
    let Candidates {
        start,
        pairs,
        elected,
    } = c.candidates(line, pos)?;
    let offered: Vec<String> = pairs.iter().map(|p| p.replacement.clone()).collect();
    let lcp = match pairs.as_slice() {
        [] => return None,
        [only] => only.replacement.clone(),
        _ => elected,
    };
    if lcp.len() > pos - start || pairs.len() == 1 {
        insertion(line, pos, start, &lcp, &offered)
    } else {
        None
    }
}

#[test]
fn an_unquoted_fragment_takes_the_quoted_common_prefix() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "dir with space/a.txt", "");
    write(root, "dir with space/b.txt", "");
    let c = completer(root);
    assert_eq!(
        complete(&c, "@dir"),
        vec![
            (
                "dir with space/".to_string(),
                "@\"dir with space/\"".to_string()
            ),
            (
                "dir with space/a.txt".to_string(),
                "@\"dir with space/a.txt\" ".to_string()
            ),
            (
                "dir with space/b.txt".to_string(),
                "@\"dir with space/b.txt\" ".to_string()
            ),
        ]
    );
    // the shared prefix, quoted because it has a space, left open for the next Tab
    assert_eq!(
        tab(&c, "@dir", 4),
        Some(("@\"dir with space/".to_string(), 17))
    );
    // which lists the folder: nothing longer to insert, so the line stays
    assert_eq!(tab(&c, "@\"dir with space/", 17), None);
    assert_eq!(
        tab(&c, "@\"dir with space/a", 18),
        Some(("@\"dir with space/a.txt\" ".to_string(), 24))
    );
    // the same in the middle of a line: one space after the finished path
    assert_eq!(
        tab(&c, "see @dir and more", 8),
        Some(("see @\"dir with space/ and more".to_string(), 21))
    );
    assert_eq!(
        tab(&c, "see @\"dir with space/a and more", 22),
        Some(("see @\"dir with space/a.txt\" and more".to_string(), 28))
    );
    // a fragment the common prefix does not keep is left as typed
    assert_eq!(insertion("@zzz", 4, 0, "@\"dir with space/", &[]), None);
}

#[test]
fn completing_in_the_middle_of_a_line_leaves_one_space() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "src/main.rs", "");
    write(root, "my folder/notes.txt", "");
    let c = completer(root);
    // a space after the cursor is the path's space
    assert_eq!(
        tab(&c, "see @src/ma and", 11),
        Some(("see @src/main.rs and".to_string(), 17))
    );
    // none after it: one is added
    assert_eq!(
        tab(&c, "see @src/ma,and", 11),
        Some(("see @src/main.rs ,and".to_string(), 17))
    );
    assert_eq!(
        tab(&c, "see @src/ma", 11),
        Some(("see @src/main.rs ".to_string(), 17))
    );
    assert_eq!(
        tab(&c, "@src/ma\nnext", 7),
        Some(("@src/main.rs \nnext".to_string(), 13))
    );
    // a quoted reference replaces its closing quote, then keeps the one space after it
    assert_eq!(
        tab(&c, "@\"my folder/no\" rest", 14),
        Some(("@\"my folder/notes.txt\" rest".to_string(), 23))
    );
    assert_eq!(
        tab(&c, "@\"my folder/no\"rest", 14),
        Some(("@\"my folder/notes.txt\" rest".to_string(), 23))
    );
    // a folder takes no space, so Tab goes on into it; the space after stays
    assert_eq!(
        tab(&c, "see @sr and", 7),
        Some(("see @src/ and".to_string(), 9))
    );
    // a space is part of a quoted prefix, never taken for the separator
    assert_eq!(
        apply("see @dir and", 8, 4, "@\"dir "),
        ("see @\"dir  and".to_string(), 10)
    );
}

#[test]
fn symlink_loops_are_listed_not_followed() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "a/file.txt", "");
    symlink(".", root.join("a/loop")).unwrap();
    symlink("ping", root.join("pong")).unwrap();
    symlink("pong", root.join("ping")).unwrap();
    symlink("/", root.join("rootfs")).unwrap();
    let c = completer(root);
    assert_eq!(
        indexed(&c),
        strings(&["a/", "a/file.txt", "a/loop/", "ping", "pong", "rootfs/"])
    );
    assert_eq!(
        complete(&c, "@loop"),
        vec![("a/loop/".to_string(), "@a/loop/".to_string())]
    );
    // an explicit path through the loop lists one level, like a shell
    assert_eq!(displays(&c, "@a/loop/"), strings(&["loop/", "file.txt"]));
}

/// chmod 000 does not stop root (CI runs as root): the expectations depend on it.
fn unreadable_for_us(path: &Path) -> bool {
    fs::read_dir(path).is_err()
}

#[test]
fn unreadable_folders_are_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "locked/inner.txt", "");
    write(root, "open/visible.txt", "");
    let locked = root.join("locked");
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o000)).unwrap();
    let blocked = unreadable_for_us(&locked);
    let c = completer(root);
    let all = indexed(&c);
    let explicit = displays(&c, "@locked/");
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o755)).unwrap();
    if blocked {
        assert_eq!(all, strings(&["locked/", "open/", "open/visible.txt"]));
        // the unreadable folder lists nothing, and the fuzzy fallback finds only itself
        assert_eq!(explicit, Vec::<String>::new());
    } else {
        assert_eq!(
            all,
            strings(&["locked/", "locked/inner.txt", "open/", "open/visible.txt"])
        );
        assert_eq!(explicit, strings(&["inner.txt"]));
    }
}

#[test]
fn non_utf8_names_are_skipped() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "good.txt", "");
    fs::write(root.join(OsStr::from_bytes(b"bad\xff.txt")), "").unwrap();
    let weird = root.join(OsStr::from_bytes(b"dir\xfe"));
    fs::create_dir(&weird).unwrap();
    fs::write(weird.join("inside.txt"), "").unwrap();
    write(root, "ünï/cödé.txt", "");
    let c = completer(root);
    assert_eq!(indexed(&c), strings(&["good.txt", "ünï/", "ünï/cödé.txt"]));
    assert_eq!(displays(&c, "@code"), strings(&["ünï/cödé.txt"]));
    assert_eq!(displays(&c, "@./"), strings(&["ünï/", "good.txt"]));
}

/// A name with a line break is never offered: completing it would put the line break into
/// the one-line answer as it is. A name with another control (an escape) is offered.
#[test]
fn names_with_line_breaks_are_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "good.txt", "");
    write(root, "new\nline.txt", "");
    write(root, "cr\rx/inside.txt", "");
    write(root, "x\u{1b}]0;t\u{7}.txt", "");
    let c = completer(root);
    assert_eq!(indexed(&c), strings(&["good.txt", "x\u{1b}]0;t\u{7}.txt"]));
    assert_eq!(displays(&c, "@new"), Vec::<String>::new());
    assert_eq!(
        displays(&c, "@./"),
        strings(&["good.txt", "x\u{1b}]0;t\u{7}.txt"])
    );
}

#[test]
fn explicit_paths_list_one_level() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("proj");
    write(&root, "src/b.rs", "");
    write(&root, "src/A.rs", "");
    write(&root, "src/sub/x.rs", "");
    write(&root, "src/.hidden.rs", "");
    write(&root, ".gitignore", "src/gen.rs\n");
    write(&root, "src/gen.rs", "");
    write(dir.path(), "other.txt", "");
    let home = tempfile::tempdir().unwrap();
    write(home.path(), "notes/todo.md", "");
    let c = completer(&root).home(Some(home.path().to_path_buf()));
    // folders first, then names ignoring case; git-ignored names are listed, as a shell does
    assert_eq!(
        complete(&c, "@src/"),
        vec![
            ("sub/".to_string(), "@src/sub/".to_string()),
            ("A.rs".to_string(), "@src/A.rs ".to_string()),
            ("b.rs".to_string(), "@src/b.rs ".to_string()),
            ("gen.rs".to_string(), "@src/gen.rs ".to_string()),
        ]
    );
    assert_eq!(displays(&c, "@src/a"), strings(&["A.rs"]));
    assert_eq!(displays(&c, "@src/."), strings(&[".hidden.rs"]));
    assert_eq!(
        complete(&c, "@../oth"),
        vec![("other.txt".to_string(), "@../other.txt ".to_string())]
    );
    assert_eq!(
        complete(&c, "@~/"),
        vec![("notes/".to_string(), "@~/notes/".to_string())]
    );
    assert_eq!(
        complete(&c, "@~"),
        vec![("~/".to_string(), "@~/".to_string())]
    );
    // outside the root, a missing folder lists nothing
    assert_eq!(displays(&c, "@../nope/"), Vec::<String>::new());
    // inside the root, an explicit path that lists nothing falls back to fuzzy matching
    assert_eq!(displays(&c, "@src/x"), strings(&["src/sub/x.rs"]));
}

#[test]
fn no_reference_no_candidates() {
    let dir = project();
    let c = completer(dir.path());
    assert!(c.complete_at("me@host", 7).is_none());
    assert!(c.complete_at("plain text", 10).is_none());
    assert_eq!(c.hint_at("plain text", 10), None);
    // nothing was walked
    assert!(!c.index().progress().started);
}

#[test]
fn limits_truncate_the_walk_and_the_hint_says_so() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..50 {
        write(dir.path(), &format!("f{i:02}.txt"), "");
    }
    let limits = Limits {
        max_entries: 10,
        max_time: Duration::from_secs(30),
    };
    let c = AtCompleter::with_index(FileIndex::with_limits(dir.path(), limits)).wait(LONG);
    assert_eq!(indexed(&c).len(), 10);
    let p = c.index().progress();
    assert_eq!((p.entries, p.done, p.truncated), (10, true, true));
    assert_eq!(
        c.hint_at("@f", 2),
        Some("  (index stopped at 10 files)".to_string())
    );
    assert_eq!(c.hint_at("@src/", 5), None);

    let untruncated = completer(dir.path());
    untruncated.index().start();
    assert!(untruncated.index().wait(LONG));
    assert_eq!(untruncated.hint_at("@f", 2), None);
}

#[test]
fn zero_time_limit_indexes_nothing() {
    let dir = project();
    let limits = Limits {
        max_entries: 1000,
        max_time: Duration::ZERO,
    };
    let c = AtCompleter::with_index(FileIndex::with_limits(dir.path(), limits)).wait(LONG);
    assert_eq!(indexed(&c), Vec::<String>::new());
    assert!(c.index().progress().truncated);
    assert_eq!(displays(&c, "@mod"), Vec::<String>::new());
}

#[test]
fn a_partial_index_says_so_in_the_list_and_the_hint() {
    let dir = project();
    let c = AtCompleter::new(dir.path()).wait(Duration::ZERO).home(None);
    c.index().start_without_walking();
    let (start, pairs) = c.complete_at("see @mod", 8).unwrap();
    assert_eq!(start, 4);
    let pairs: Vec<(String, String)> = pairs
        .into_iter()
        .map(|p| (p.display, p.replacement))
        .collect();
    assert_eq!(
        pairs,
        vec![("(indexing… 0 files so far)".to_string(), "@mod".to_string())]
    );
    // the hint appears once the walk has run for HINT_AFTER
    std::thread::sleep(HINT_AFTER);
    assert_eq!(
        c.hint_at("see @mod", 8),
        Some("  indexing… 0 files".to_string())
    );
    // explicit paths do not need the index
    assert_eq!(c.hint_at("@src/", 5), None);
    assert_eq!(
        displays(&c, "@src/"),
        strings(&["deep/", "main.rs", "mod17.rs"])
    );
}

#[test]
fn a_missing_root_lists_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let c = completer(&dir.path().join("missing"));
    assert_eq!(indexed(&c), Vec::<String>::new());
    assert_eq!(displays(&c, "@mod"), Vec::<String>::new());
    assert_eq!(displays(&c, "@src/"), Vec::<String>::new());
    assert_eq!(c.hint_at("@mod", 4), None);
}

#[test]
fn hidden_folders_do_not_use_up_the_entry_limit() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..50 {
        write(dir.path(), &format!(".cache/blob{i}"), "");
    }
    write(dir.path(), "src/a.rs", "");
    let limits = Limits {
        max_entries: 10,
        max_time: Duration::from_secs(30),
    };
    let c = AtCompleter::with_index(FileIndex::with_limits(dir.path(), limits)).wait(LONG);
    assert_eq!(indexed(&c), strings(&[".cache/", "src/", "src/a.rs"]));
    assert!(!c.index().progress().truncated);
}

#[test]
fn the_list_under_the_line_takes_its_room_and_shows_names_safely() {
    let names: Vec<String> = (0..12).map(|i| format!("f{i:02}.md")).collect();
    // Columns as rustyline lays them out, filled down each column.
    assert_eq!(
        list_rows(&names[..4], 8, 40),
        "\nf00.md  f01.md  f02.md  f03.md"
    );
    assert_eq!(
        list_rows(&names[..4], 8, 20),
        "\nf00.md  f02.md\nf01.md  f03.md"
    );
    // Too many for the room: the last row counts the rest.
    assert_eq!(
        list_rows(&names, 2, 20),
        "\nf00.md  f01.md\n… 10 more: type mo…"
    );
    // No room: a count on the line.
    assert_eq!(list_rows(&names, 0, 80), "  (12 matches)");
    // A file name's escape sequence is shown, never run.
    let hostile = vec!["a\u{1b}]52;c;x\u{7}.txt".to_string(), "b.txt".to_string()];
    let shown = list_rows(&hostile, 4, 80);
    assert!(
        !shown.contains('\u{1b}') && !shown.contains('\u{7}'),
        "{shown:?}"
    );
}

#[test]
fn a_folder_of_more_than_a_thousand_entries_takes_the_prefix_of_all_of_them() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for i in 0..1200 {
        write(root, &format!("logs/app_2024_{i:04}.log"), "");
    }
    write(root, "logs/readme.txt", "");
    let c = completer(root);
    let listed = complete(&c, "@logs/");
    assert_eq!(listed.len(), 1000);
    assert_eq!(listed[0].0, "app_2024_0000.log");
    // readme.txt is past the cut list, yet a match: nothing in common beyond `@logs/`.
    assert_eq!(tab(&c, "@logs/", 6), None);
    assert_eq!(
        c.candidates("@logs/", 6).map(|c| c.elected),
        Some("@logs/".to_string())
    );
    // Among the app logs alone the prefix is theirs.
    assert_eq!(
        tab(&c, "@logs/a", 7),
        Some(("@logs/app_2024_".to_string(), 15))
    );
}

/// `n` patterns of the costly kind a hostile repository ships (many `*` each).
fn hostile_patterns(n: usize) -> String {
    (0..n)
        .map(|i| format!("/vendored/a{i}/b/c/d/e/f/g/h/i/j/file{i}.x\n"))
        .collect()
}

/// The index holds `fine/` and `src/` with their files, nothing of the folders left out.
fn assert_only_fine_and_src_indexed(c: &AtCompleter) {
    assert_eq!(
        indexed(c),
        strings(&[
            "fine/",
            "fine/.gitignore",
            "fine/file.rs",
            "src/",
            "src/main.rs"
        ])
    );
}

/// `n` patterns of `wildcards` wildcards each, as a `.gitignore`.
fn wild_patterns(n: usize, wildcards: usize) -> String {
    (0..n)
        .map(|i| format!("**/{}x{i}\n", "a*".repeat(wildcards - 1)))
        .collect()
}

/// Patterns of many wildcards made `ignore`'s matcher take gigabytes (999 of 28 each took
/// 2.7 GB over 3,000 files, all within 64 KiB and 1,000 patterns): a pattern with too many,
/// or too many in all, keeps its folder out.
#[test]
fn ignore_files_with_too_many_wildcards_keep_their_folder_out_and_say_why() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "src/main.rs", "");
    write(
        root,
        "one/.gitignore",
        &wild_patterns(1, index::MAX_PATTERN_WILDCARDS + 1),
    );
    write(root, "one/file.rs", "");
    write(
        root,
        "fine/.gitignore",
        &wild_patterns(100, index::MAX_PATTERN_WILDCARDS),
    );
    write(root, "fine/file.rs", "");
    let c = completer(root);
    assert_only_fine_and_src_indexed(&c);
    assert_eq!(
        c.index().gave_up().as_deref(),
        Some("one/: a pattern of its .gitignore has more than 16 wildcards")
    );
    // 2,000 in all at most: the folder past it is left out.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let per_file = 10 * index::MAX_PATTERN_WILDCARDS;
    for i in 0..index::MAX_WALK_WILDCARDS / per_file + 1 {
        write(
            root,
            &format!("d{i}/.gitignore"),
            &wild_patterns(10, index::MAX_PATTERN_WILDCARDS),
        );
    }
    let c = completer(root);
    let folders = indexed(&c).iter().filter(|p| p.ends_with('/')).count();
    assert_eq!(folders, index::MAX_WALK_WILDCARDS / per_file);
    assert!(c.index().gave_up().is_some_and(
        |why| why.ends_with(": the ignore files have more than 2000 wildcards in all")
    ));
}

#[test]
fn hostile_ignore_files_keep_their_folder_out_and_say_why() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "src/main.rs", "");
    // One pattern too many, comments and blank lines not counted.
    write(
        root,
        "vendor/.gitignore",
        &format!(
            "# hostile\n\n{}",
            hostile_patterns(index::MAX_IGNORE_PATTERNS + 1)
        ),
    );
    write(root, "vendor/file.rs", "");
    write(
        root,
        "big/.ignore",
        &"x".repeat(index::MAX_IGNORE_FILE_BYTES as usize + 1),
    );
    write(root, "big/file.rs", "");
    // A FIFO the walker would wait on for good.
    std::fs::create_dir_all(root.join("fifo")).unwrap();
    nix::unistd::mkfifo(&root.join("fifo/.gitignore"), nix::sys::stat::Mode::S_IRWXU).unwrap();
    write(root, "fifo/file.rs", "");
    write(
        root,
        "fine/.gitignore",
        &hostile_patterns(index::MAX_IGNORE_PATTERNS),
    );
    write(root, "fine/file.rs", "");
    let c = completer(root);
    assert_only_fine_and_src_indexed(&c);
    let why = c.index().gave_up().expect("a reason");
    assert!(
        [
            "vendor/: its .gitignore has more than 1000 patterns",
            "big/: its .ignore is larger than 64 KiB",
            "fifo/: its .gitignore is not a regular file",
        ]
        .contains(&why.as_str()),
        "{why}"
    );
    assert_eq!(
        c.hint_at("@fil", 4),
        Some(format!("  (completion gave up on {why})"))
    );
}

/// A `.git` file (a worktree's, a submodule's) sends the walker through `gitdir` and
/// `commondir` to another `info/exclude`: a FIFO or a link to `/dev/zero` there kept the walk
/// waiting for good or read without end (2 GB, then an abort), so it is checked as the
/// folder's own ignore files are, and so are the two files that lead to it.
#[test]
fn a_git_file_leading_to_a_hostile_exclude_keeps_its_folder_out() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "src/main.rs", "");
    let (gd, cd) = (root.join("elsewhere/gd"), root.join("elsewhere/cd"));
    std::fs::create_dir_all(cd.join("info")).unwrap();
    std::fs::create_dir_all(&gd).unwrap();
    nix::unistd::mkfifo(&cd.join("info/exclude"), nix::sys::stat::Mode::S_IRWXU).unwrap();
    std::fs::write(gd.join("commondir"), format!("{}\n", cd.display())).unwrap();
    write(
        root,
        "worktree/.git",
        &format!("gitdir: {}\n", gd.display()),
    );
    write(root, "worktree/file.rs", "");
    // A `.git` file whose commondir is a FIFO.
    let gd2 = root.join("elsewhere/gd2");
    std::fs::create_dir_all(&gd2).unwrap();
    nix::unistd::mkfifo(&gd2.join("commondir"), nix::sys::stat::Mode::S_IRWXU).unwrap();
    write(root, "sub/.git", &format!("gitdir: {}\n", gd2.display()));
    write(root, "sub/file.rs", "");
    // A good worktree: its linked exclude is read and honoured.
    let (gd3, cd3) = (root.join("elsewhere/gd3"), root.join("elsewhere/cd3"));
    std::fs::create_dir_all(cd3.join("info")).unwrap();
    std::fs::create_dir_all(&gd3).unwrap();
    std::fs::write(cd3.join("info/exclude"), "*.tmp\n").unwrap();
    std::fs::write(gd3.join("commondir"), format!("{}\n", cd3.display())).unwrap();
    write(root, "good/.git", &format!("gitdir: {}\n", gd3.display()));
    write(root, "good/kept.rs", "");
    write(root, "good/dropped.tmp", "");
    let c = completer(root);
    let listed: Vec<String> = indexed(&c)
        .into_iter()
        .filter(|p| !p.starts_with("elsewhere/"))
        .collect();
    assert_eq!(
        listed,
        strings(&["good/", "good/kept.rs", "src/", "src/main.rs"])
    );
    let why = c.index().gave_up().expect("a reason");
    assert!(
        [
            "worktree/: its .git/info/exclude is not a regular file",
            "sub/: its gitdir's commondir (named by its .git) is not a regular file",
        ]
        .contains(&why.as_str()),
        "{why}"
    );
}

#[test]
fn the_ignore_files_of_a_whole_walk_have_a_budget() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let per_file = index::MAX_IGNORE_PATTERNS;
    let files = index::MAX_WALK_PATTERNS / per_file + 1;
    for i in 0..files {
        write(
            root,
            &format!("d{i}/.gitignore"),
            &hostile_patterns(per_file),
        );
    }
    let c = completer(root);
    let listed = indexed(&c);
    // The folder that would take the walk past the budget is left out.
    assert_eq!(
        listed.iter().filter(|p| p.ends_with('/')).count(),
        files - 1,
        "{listed:?}"
    );
    assert!(
        c.index().gave_up().is_some_and(
            |why| why.ends_with(": the ignore files have more than 5000 patterns in all")
        )
    );
}

#[test]
fn a_hostile_ignore_file_of_the_project_folder_indexes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        ".gitignore",
        &hostile_patterns(index::MAX_IGNORE_PATTERNS + 1),
    );
    write(root, "src/main.rs", "");
    let c = completer(root);
    assert_eq!(indexed(&c), Vec::<String>::new());
    assert_eq!(
        c.index().gave_up().as_deref(),
        Some("the project folder: its .gitignore has more than 1000 patterns")
    );
    // An explicit path still lists its folder.
    assert_eq!(displays(&c, "@src/"), strings(&["main.rs"]));
}

#[test]
fn a_fuzzy_tab_takes_the_prefix_of_every_match_not_only_the_best_listed() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for i in 0..30 {
        write(root, &format!("app_2024_0{i:02}.log"), "");
    }
    // A match ranked below the best 20 (a longer path).
    write(root, "app_2024_notes_for_the_release.txt", "");
    let c = completer(root);
    assert_eq!(complete(&c, "@app_2024").len(), MAX_CANDIDATES);
    assert_eq!(
        tab(&c, "@app_2024", 9),
        Some(("@app_2024_".to_string(), 10))
    );
}

//! The file index behind fuzzy `@` completion: every file and folder under the project root
//! that git would not ignore, walked once, lazily, in the background.
//!
//! The walk uses `ignore`'s parallel walker with `.gitignore`, `.ignore`, `.git/info/exclude`
//! and the global git excludes honoured also outside a git repository (`require_git(false)`).
//! It never follows symlinks (a symlink is listed, not entered, so nothing outside the root is
//! reached and loops cannot happen), lists hidden folders without entering them, skips `.git`,
//! unreadable folders and names that are not UTF-8 or hold a line break, and stops at [`Limits::max_entries`]
//! entries or after [`Limits::max_time`].
//!
//! Ignore files are compiled by `ignore` into matchers whose size and compile time grow with
//! their patterns (a hostile repository's 4 MB `.gitignore` took 1.3 GB and seconds), so each
//! folder's ignore files (`.gitignore`, `.ignore`, `.git/info/exclude`, or the `info/exclude`
//! a `.git` file leads to through its `gitdir` and `commondir`, those two files checked too:
//! [`linked_exclude`]) are looked at before the walker reads them ([`IgnoreBudget::admit`]):
//! a file that is not a regular file, larger than [`MAX_IGNORE_FILE_BYTES`], with more than
//! [`MAX_IGNORE_PATTERNS`] patterns or a pattern of more than [`MAX_PATTERN_WILDCARDS`]
//! wildcards, or one that would take the walk past [`MAX_WALK_PATTERNS`] patterns or
//! [`MAX_WALK_WILDCARDS`] wildcards in all, keeps its folder out of the index (the root's or a parent's: nothing is
//! indexed), and [`FileIndex::gave_up`] says why. The matchers are dropped with the walker when the walk ends.
//!
//! Paths are stored compactly: per walker thread, chunks of [`CHUNK_ENTRIES`] paths in one
//! `String` with end offsets and a flag byte each. Chunks are published as soon as they fill,
//! so completion can match a partial index while a large tree is still being walked.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, Once};
use std::time::{Duration, Instant};

use ignore::{WalkBuilder, WalkState};

use super::token::has_hidden_component;

/// Entries per published chunk.
pub const CHUNK_ENTRIES: usize = 2048;

/// Entry flag: the entry is a folder (or a symlink to one).
pub const FLAG_DIR: u8 = 1;
/// Entry flag: some component of the path starts with `.`.
pub const FLAG_HIDDEN: u8 = 2;
/// Entry flag: the path is pure ASCII (matched without conversion).
pub const FLAG_ASCII: u8 = 4;

/// Largest ignore file compiled, in bytes (64 KiB).
pub const MAX_IGNORE_FILE_BYTES: u64 = 64 * 1024;
/// Most patterns (lines that are neither blank nor comments) of one ignore file compiled.
pub const MAX_IGNORE_PATTERNS: usize = 1000;
/// Most patterns of all the ignore files one walk compiles.
pub const MAX_WALK_PATTERNS: usize = 5000;
/// Most wildcards (a run of `*`, a `?`, a `[`) in one pattern: each is a loop of the matcher
/// `ignore` builds, and a `.gitignore` of 999 patterns of 30 wildcards each (64 KiB) made it
/// take 3 GB over 3,000 files. Real patterns have a few (`**/build/*.o`).
pub const MAX_PATTERN_WILDCARDS: usize = 16;
/// Most wildcards of all the ignore files one walk compiles (100 patterns of 30 took 9 MB).
pub const MAX_WALK_WILDCARDS: usize = 2000;
/// The ignore files of a folder that the walker compiles.
const IGNORE_FILES: [&str; 3] = [".gitignore", ".ignore", ".git/info/exclude"];

/// The patterns the walk's ignore files may still have, and why a folder was left out.
#[derive(Debug, Default)]
struct IgnoreBudget {
    patterns: AtomicUsize,
    wildcards: AtomicUsize,
    gave_up: Mutex<Option<String>>,
}

/// The wildcards of one pattern ([`MAX_PATTERN_WILDCARDS`]): each run of `*`, each `?` and
/// each `[`, escaped ones too (counting more is the safe side).
fn wildcards(pattern: &[u8]) -> usize {
    let mut count = 0;
    let mut after_star = false;
    for &b in pattern {
        match b {
            b'*' if !after_star => count += 1,
            b'?' | b'[' => count += 1,
            _ => {}
        }
        after_star = b == b'*';
    }
    count
}

impl IgnoreBudget {
    /// Whether the ignore files of `dir` (`shown` in messages: `logs/`, or `the project
    /// folder`) may be compiled; when not, records why (the first reason is kept).
    fn admit(&self, dir: &Path, shown: &str) -> bool {
        match self.check(dir) {
            Ok(()) => true,
            Err(why) => {
                let mut gave_up = self.gave_up.lock().unwrap_or_else(|e| e.into_inner());
                gave_up.get_or_insert_with(|| format!("{shown}: {why}"));
                false
            }
        }
    }

    fn check(&self, dir: &Path) -> Result<(), String> {
        for name in IGNORE_FILES {
            let mut path = dir.join(name);
            if name == IGNORE_FILES[2] {
                // A `.git` file (a worktree, a submodule) sends the walker elsewhere for it.
                if let Some(linked) = linked_exclude(dir)? {
                    path = linked;
                }
            }
            let Some(text) = read_small_file(&path, name, MAX_IGNORE_FILE_BYTES)? else {
                continue;
            };
            self.charge(&text, name)?;
        }
        Ok(())
    }

    /// Counts the patterns and wildcards of ignore file `text` (`name` in messages) against
    /// the bounds of one file and of the walk; nothing is counted when it is refused.
    fn charge(&self, text: &[u8], name: &str) -> Result<(), String> {
        let lines = text
            .split(|&b| b == b'\n')
            .map(<[u8]>::trim_ascii)
            .filter(|line| !line.is_empty() && !line.starts_with(b"#"));
        let (mut patterns, mut stars) = (0, 0);
        for line in lines {
            let here = wildcards(line);
            if here > MAX_PATTERN_WILDCARDS {
                return Err(format!(
                    "a pattern of its {name} has more than {MAX_PATTERN_WILDCARDS} wildcards"
                ));
            }
            patterns += 1;
            stars += here;
        }
        if patterns > MAX_IGNORE_PATTERNS {
            return Err(format!(
                "its {name} has more than {MAX_IGNORE_PATTERNS} patterns"
            ));
        }
        let before = self.wildcards.fetch_add(stars, Ordering::Relaxed);
        if before + stars > MAX_WALK_WILDCARDS {
            self.wildcards.fetch_sub(stars, Ordering::Relaxed);
            return Err(format!(
                "the ignore files have more than {MAX_WALK_WILDCARDS} wildcards in all"
            ));
        }
        let before = self.patterns.fetch_add(patterns, Ordering::Relaxed);
        if before + patterns > MAX_WALK_PATTERNS {
            self.patterns.fetch_sub(patterns, Ordering::Relaxed);
            self.wildcards.fetch_sub(stars, Ordering::Relaxed);
            return Err(format!(
                "the ignore files have more than {MAX_WALK_PATTERNS} patterns in all"
            ));
        }
        Ok(())
    }
}

/// The largest `.git` file or `commondir` file read to find a linked `info/exclude`.
const MAX_GIT_LINK_BYTES: u64 = 4096;

/// Where the walker reads the `info/exclude` of `dir` when its `.git` is a regular file
/// (`gitdir: PATH`, then `PATH/commondir`, as `ignore`'s `resolve_git_commondir` follows them:
/// a relative `gitdir` from the working folder, a `commondir` starting with `.` from the
/// `gitdir`); `None` when `.git` is no such file or names no `commondir`.
///
/// Errors: the `.git` file or the `commondir` file is not a regular file of at most
/// [`MAX_GIT_LINK_BYTES`] (the walker reads their first line unbounded: a link to
/// `/dev/zero` never ends, a FIFO never opens).
fn linked_exclude(dir: &Path) -> Result<Option<PathBuf>, String> {
    let dot_git = dir.join(".git");
    if !std::fs::metadata(&dot_git).is_ok_and(|m| m.is_file()) {
        return Ok(None);
    }
    let Some(line) = first_line(&dot_git, ".git")? else {
        return Ok(None);
    };
    let Some(git_dir) = line.strip_prefix("gitdir: ") else {
        return Ok(None);
    };
    let git_dir = PathBuf::from(git_dir);
    let what = "gitdir's commondir (named by its .git)";
    let Some(common) = first_line(&git_dir.join("commondir"), what)? else {
        return Ok(None);
    };
    let common = if common.starts_with('.') {
        git_dir.join(common)
    } else {
        PathBuf::from(common)
    };
    Ok(Some(common.join("info/exclude")))
}

/// The first line of `path` (`what` in messages), without its line break; `None` when it
/// cannot be read or is empty.
///
/// Errors: as [`read_small_file`], at most [`MAX_GIT_LINK_BYTES`].
fn first_line(path: &Path, what: &str) -> Result<Option<String>, String> {
    let Some(text) = read_small_file(path, what, MAX_GIT_LINK_BYTES)? else {
        return Ok(None);
    };
    let text = String::from_utf8_lossy(&text);
    Ok(text
        .lines()
        .next()
        .map(|l| l.strip_suffix('\r').unwrap_or(l).to_string()))
}

/// The bytes of `path` (`what` in messages), a symlink followed as the walker follows it (a
/// link to `/dev/zero` never ends, a FIFO never opens); `None` when it does not exist or
/// cannot be read.
///
/// Errors: it is not a regular file, or it is larger than `max` bytes.
fn read_small_file(path: &Path, what: &str, max: u64) -> Result<Option<Vec<u8>>, String> {
    use std::io::Read;
    let too_large = || format!("its {what} is larger than {} KiB", max / 1024);
    let Ok(meta) = std::fs::metadata(path) else {
        return Ok(None);
    };
    if !meta.is_file() {
        return Err(format!("its {what} is not a regular file"));
    }
    if meta.len() > max {
        return Err(too_large());
    }
    let mut text = Vec::new();
    let read = std::fs::File::open(path).and_then(|f| f.take(max + 1).read_to_end(&mut text));
    if read.is_err() {
        return Ok(None);
    }
    if text.len() as u64 > max {
        return Err(too_large());
    }
    Ok(Some(text))
}

/// Whether the walker may apply git's global excludes (`git_global`), which the `ignore`
/// crate reads without a bound: the config files it looks in for `core.excludesFile`
/// (`$GIT_CONFIG_GLOBAL`, `$HOME/.gitconfig`, `$XDG_CONFIG_HOME/git/config` or
/// `$HOME/.config/git/config`, `$GIT_CONFIG_SYSTEM` or `/etc/gitconfig`) and the excludes file
/// (by default `git/ignore` beside the XDG config) must each be missing or a regular file of
/// at most [`MAX_IGNORE_FILE_BYTES`], as a folder's own ignore files must (a link to
/// `/dev/zero` there took memory until the run was killed).
///
/// The excludes file's patterns are counted in `budget` as a folder's are
/// ([`IgnoreBudget::charge`]): the walker compiles it into every folder's matcher.
///
/// Errors: which file is not, in the words of the completion's hint; the walk then goes on
/// without the global excludes.
fn global_excludes_checked(budget: &IgnoreBudget) -> Result<(), String> {
    let var = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    #[allow(deprecated)]
    let home = std::env::home_dir();
    let xdg = var("XDG_CONFIG_HOME").or_else(|| home.as_ref().map(|h| h.join(".config")));
    let configs = [
        var("GIT_CONFIG_GLOBAL").map(|p| (p, "$GIT_CONFIG_GLOBAL")),
        home.as_ref()
            .map(|h| (h.join(".gitconfig"), "$HOME/.gitconfig")),
        xdg.as_ref().map(|x| (x.join("git/config"), "git/config")),
        Some((
            var("GIT_CONFIG_SYSTEM").unwrap_or_else(|| PathBuf::from("/etc/gitconfig")),
            "system git config",
        )),
    ];
    let check = |path: &Path, what: &str| {
        read_small_file(path, what, MAX_IGNORE_FILE_BYTES)
            .map(|_| ())
            .map_err(|why| format!("git's global excludes: {why}"))
    };
    for (path, what) in configs.iter().flatten() {
        check(path, what)?;
    }
    let excludes = ignore::gitignore::gitconfig_excludes_path()
        .or_else(|| xdg.as_ref().map(|x| x.join("git/ignore")));
    let Some(path) = excludes else {
        return Ok(());
    };
    let what = "core.excludesFile";
    match read_small_file(&path, what, MAX_IGNORE_FILE_BYTES) {
        Ok(Some(text)) => budget.charge(&text, what),
        Ok(None) => Ok(()),
        Err(why) => Err(why),
    }
    .map_err(|why| format!("git's global excludes: {why}"))
}

/// Bounds on one walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Stop after this many entries (files and folders); the index is then marked truncated.
    pub max_entries: usize,
    /// Stop walking after this long; the index is then marked truncated.
    pub max_time: Duration,
}

impl Default for Limits {
    /// 200,000 entries, 10 seconds.
    fn default() -> Self {
        Limits {
            max_entries: 200_000,
            max_time: Duration::from_secs(10),
        }
    }
}

/// A run of indexed paths (relative to the root, `/`-separated, no trailing `/`).
#[derive(Debug, Default)]
pub struct Chunk {
    text: String,
    ends: Vec<u32>,
    flags: Vec<u8>,
}

impl Chunk {
    /// Number of entries.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether the chunk has no entries.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Entry `i`: its path and its `FLAG_*` bits. Panics if `i >= len()`.
    pub fn get(&self, i: usize) -> (&str, u8) {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        (&self.text[start..self.ends[i] as usize], self.flags[i])
    }

    pub(crate) fn push(&mut self, path: &str, flags: u8) {
        self.text.push_str(path);
        self.ends.push(self.text.len() as u32);
        self.flags.push(flags);
    }

    /// Heap bytes held (for the benchmark's memory figures).
    pub fn heap_bytes(&self) -> usize {
        self.text.capacity() + self.ends.capacity() * 4 + self.flags.capacity()
    }
}

/// Where the walk is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Entries indexed so far.
    pub entries: usize,
    /// The walk has started.
    pub started: bool,
    /// The walk has ended (completely or at a limit).
    pub done: bool,
    /// The walk stopped at a limit, so some entries are missing.
    pub truncated: bool,
    /// Time since the walk started (its total duration once done).
    pub elapsed: Duration,
}

#[derive(Debug, Default)]
struct State {
    chunks: Vec<Arc<Chunk>>,
    started_at: Option<Instant>,
    finished_after: Option<Duration>,
}

/// The lazily built file index of one project root, shared by every editor of a session.
#[derive(Debug)]
pub struct FileIndex {
    root: PathBuf,
    limits: Limits,
    start: Once,
    state: Mutex<State>,
    done: Condvar,
    entries: AtomicUsize,
    truncated: AtomicBool,
    ignore_budget: Arc<IgnoreBudget>,
}

impl FileIndex {
    /// An index of `root` with the default [`Limits`]; nothing is read until [`start`].
    ///
    /// [`start`]: FileIndex::start
    pub fn new(root: impl Into<PathBuf>) -> Arc<FileIndex> {
        FileIndex::with_limits(root, Limits::default())
    }

    /// An index of `root` with the given limits; nothing is read until [`FileIndex::start`].
    pub fn with_limits(root: impl Into<PathBuf>, limits: Limits) -> Arc<FileIndex> {
        Arc::new(FileIndex {
            root: root.into(),
            limits,
            start: Once::new(),
            state: Mutex::new(State::default()),
            done: Condvar::new(),
            entries: AtomicUsize::new(0),
            truncated: AtomicBool::new(false),
            ignore_budget: Arc::default(),
        })
    }

    /// Why completion gave up on part of the tree, once the walk met an ignore file it would
    /// not compile (see the module notes): `logs/: its .gitignore has more than 1000
    /// patterns`; `None` when it did not.
    pub fn gave_up(&self) -> Option<String> {
        self.ignore_budget
            .gave_up
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// The project root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Starts the walk in a background thread, once; later calls do nothing. If no thread can
    /// be spawned the walk runs on the caller's thread.
    pub fn start(self: &Arc<Self>) {
        self.start.call_once(|| {
            self.lock().started_at = Some(Instant::now());
            let index = Arc::clone(self);
            let spawned = std::thread::Builder::new()
                .name("pi-ask-index".into())
                .spawn(move || index.walk());
            if spawned.is_err() {
                self.walk();
            }
        });
    }

    /// Marks the walk as started without walking (tests of an index that is still walking).
    #[cfg(test)]
    pub(crate) fn start_without_walking(&self) {
        self.start
            .call_once(|| self.lock().started_at = Some(Instant::now()));
    }

    /// Waits until the walk is done or `timeout` has passed; returns whether it is done.
    /// Returns `false` at once if the walk was never started.
    pub fn wait(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let mut state = self.lock();
        loop {
            if state.finished_after.is_some() {
                return true;
            }
            if state.started_at.is_none() {
                return false;
            }
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            state = match self.done.wait_timeout(state, deadline - now) {
                Ok((guard, _)) => guard,
                Err(poisoned) => poisoned.into_inner().0,
            };
        }
    }

    /// Where the walk is.
    pub fn progress(&self) -> Progress {
        let state = self.lock();
        let elapsed = match (state.finished_after, state.started_at) {
            (Some(d), _) => d,
            (None, Some(t)) => t.elapsed(),
            (None, None) => Duration::ZERO,
        };
        Progress {
            entries: self.entries.load(Ordering::Relaxed),
            started: state.started_at.is_some(),
            done: state.finished_after.is_some(),
            truncated: self.truncated.load(Ordering::Relaxed),
            elapsed,
        }
    }

    /// The chunks published so far (all of them once the walk is done). Cheap: clones `Arc`s.
    pub fn snapshot(&self) -> Vec<Arc<Chunk>> {
        self.lock().chunks.clone()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn publish(&self, chunk: Chunk) {
        if !chunk.is_empty() {
            self.lock().chunks.push(Arc::new(chunk));
        }
    }

    fn walk(&self) {
        let deadline = Instant::now() + self.limits.max_time;
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
        let budget = Arc::clone(&self.ignore_budget);
        // The walker reads the ignore files of the root and of every folder above it first.
        let above = self.root.ancestors().all(|dir| {
            let shown = if dir == self.root {
                "the project folder".to_string()
            } else {
                dir.display().to_string()
            };
            budget.admit(dir, &shown)
        });
        if !above {
            self.truncated.store(true, Ordering::Relaxed);
            self.finish();
            return;
        }
        let global = global_excludes_checked(&budget);
        if let Err(why) = &global {
            let mut gave_up = budget.gave_up.lock().unwrap_or_else(|e| e.into_inner());
            gave_up.get_or_insert_with(|| why.clone());
        }
        let root = self.root.clone();
        let walker = WalkBuilder::new(&self.root)
            .filter_entry(move |entry| {
                // A folder's ignore files are compiled when the walker reads the folder.
                if !entry.file_type().is_some_and(|t| t.is_dir()) {
                    return true;
                }
                let shown = relative(entry.path(), &root).map_or_else(
                    || entry.path().display().to_string(),
                    |rel| format!("{rel}/"),
                );
                budget.admit(entry.path(), &shown)
            })
            .hidden(false)
            .follow_links(false)
            .require_git(false)
            .git_ignore(true)
            .git_exclude(true)
            .git_global(global.is_ok())
            .ignore(true)
            .parents(true)
            .threads(threads)
            .build_parallel();
        walker.run(|| {
            let mut sink = Sink {
                index: self,
                chunk: Chunk::default(),
                visited: 0,
            };
            Box::new(move |entry| sink.visit(entry, deadline))
        });
        self.finish();
    }

    /// Marks the walk as done and wakes those waiting for it.
    fn finish(&self) {
        let mut state = self.lock();
        state.finished_after = Some(state.started_at.map_or(Duration::ZERO, |t| t.elapsed()));
        drop(state);
        self.done.notify_all();
    }
}

/// One walker thread's unpublished entries; publishes the rest when the thread ends.
struct Sink<'a> {
    index: &'a FileIndex,
    chunk: Chunk,
    visited: usize,
}

impl Sink<'_> {
    fn visit(
        &mut self,
        entry: Result<ignore::DirEntry, ignore::Error>,
        deadline: Instant,
    ) -> WalkState {
        // Unreadable folders and other I/O errors: skip them, keep walking.
        let Ok(entry) = entry else {
            return WalkState::Continue;
        };
        if entry.depth() == 0 {
            return WalkState::Continue;
        }
        let file_type = entry.file_type();
        let is_dir = file_type.is_some_and(|t| t.is_dir());
        if entry.file_name() == ".git" {
            return WalkState::Skip;
        }
        let rel = relative(entry.path(), &self.index.root).filter(|r| super::offerable(r));
        let Some(rel) = rel else {
            // Not UTF-8, or a line break in it: it cannot be typed as a reference; skip it
            // and whatever is inside.
            return if is_dir {
                WalkState::Skip
            } else {
                WalkState::Continue
            };
        };
        let limits = &self.index.limits;
        self.visited += 1;
        if self.visited % 128 == 1 && Instant::now() >= deadline {
            self.index.truncated.store(true, Ordering::Relaxed);
            return WalkState::Quit;
        }
        if self.index.entries.fetch_add(1, Ordering::Relaxed) >= limits.max_entries {
            self.index.entries.fetch_sub(1, Ordering::Relaxed);
            self.index.truncated.store(true, Ordering::Relaxed);
            return WalkState::Quit;
        }
        let points_to_dir = file_type.is_some_and(|t| t.is_symlink())
            && std::fs::metadata(entry.path()).is_ok_and(|m| m.is_dir());
        let mut flags = 0;
        if is_dir || points_to_dir {
            flags |= FLAG_DIR;
        }
        if has_hidden_component(rel) {
            flags |= FLAG_HIDDEN;
        }
        if rel.is_ascii() {
            flags |= FLAG_ASCII;
        }
        self.chunk.push(rel, flags);
        if self.chunk.len() >= CHUNK_ENTRIES {
            self.index.publish(std::mem::take(&mut self.chunk));
        }
        if is_dir && entry.file_name().as_encoded_bytes().starts_with(b".") {
            // A hidden folder is listed but not entered (`~/.cargo` must not eat the entry
            // budget); an explicit path (`@.github/`) lists what is inside.
            return WalkState::Skip;
        }
        WalkState::Continue
    }
}

/// `path` relative to `root` as UTF-8, `None` if it is not UTF-8. The walker builds every
/// path as `root.join(..)`, so this is mostly a byte comparison.
fn relative<'p>(path: &'p Path, root: &Path) -> Option<&'p str> {
    use std::os::unix::ffi::OsStrExt;
    let bytes = path.as_os_str().as_bytes();
    match bytes.strip_prefix(root.as_os_str().as_bytes()) {
        Some(rest) if rest.first() == Some(&b'/') => std::str::from_utf8(&rest[1..]).ok(),
        Some(rest) if root.as_os_str().as_bytes().ends_with(b"/") => std::str::from_utf8(rest).ok(),
        _ => path.strip_prefix(root).ok().and_then(Path::to_str),
    }
}

impl Drop for Sink<'_> {
    fn drop(&mut self) {
        self.index.publish(std::mem::take(&mut self.chunk));
    }
}

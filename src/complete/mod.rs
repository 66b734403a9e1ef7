//! `@` file-path completion for the line editors (free-form answers and notes), the way
//! pi's own editor completes file references (contract, "Supported UX": pi-style `@` file
//! path autocomplete).
//!
//! After an `@`, Tab lists files and folders under the project root (`--cwd`):
//! - a plain fragment (`@mod17`) is matched fuzzily against a [`FileIndex`] of the whole tree
//!   (git-ignored entries left out, hidden ones only when the fragment starts with `.`, hidden
//!   folders listed but not searched), best first, at most [`MAX_CANDIDATES`];
//! - an explicit path (`@src/`, `@../x`, `@~/`, `@/etc/`) lists one folder level like a shell
//!   (a relative one that matches nothing falls back to fuzzy matching of the whole fragment);
//! - the inserted text is pi's reference form: `@path`, `@path/` for a folder, `@"path"` when
//!   the path has a space or the person typed `@"`; one space follows a file reference (a
//!   space already after the cursor is that space), and the cursor stays inside the quotes
//!   after a quoted folder;
//! - with several candidates, Tab inserts their common prefix only when its path extends the
//!   path typed, quoted when it has a space (`@dir` -> `@"dir with space/`).
//!
//! The completer decides and draws nothing: the terminal front end asks it for the
//! [`AtCompleter::candidates`] at the cursor on Tab, inserts what [`insertion`] gives, and lists
//! the candidates under the editor in [`list_rows`]' column layout, each name sanitized.
//!
//! The index is walked once per session, in the background, from the first `@` typed or the
//! first Tab after one, whichever comes first; nothing happens before. Tab waits at most
//! [`FIRST_WAIT`] for the walk, then lists what has been indexed so far, and the hint after the
//! cursor shows `indexing… N files` until the walk is done.

mod dir;
mod fuzzy;
mod index;
mod token;

/// Whether a file name can be offered as an `@` reference: UTF-8 (the caller's `to_str`) and
/// on one line. A line break in a name would go into the one-line answer as it is (a
/// reference the agent cannot tell from two lines of text), so such a name is not offered,
/// as a name that is not UTF-8 is not. Other controls (an escape) stay: the list shows them
/// escaped and the answer keeps the file's real name.
fn offerable(name: &str) -> bool {
    !name.contains(['\n', '\r'])
}
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rustyline::completion::Pair;

pub use index::{FileIndex, Limits, Progress};

/// Most candidates offered for a fuzzy fragment (pi's editor shows its best 20).
pub const MAX_CANDIDATES: usize = 20;

/// Longest a Tab waits for an unfinished index before listing what is indexed so far, unless
/// the environment variable [`WAIT_ENV`] says otherwise ([`crate::limits::INDEX_FIRST_WAIT`]).
pub const FIRST_WAIT: Duration = crate::limits::INDEX_FIRST_WAIT;

/// Environment variable overriding [`FIRST_WAIT`], in milliseconds
/// ([`crate::limits::INDEX_WAIT_ENV`]).
pub const WAIT_ENV: &str = crate::limits::INDEX_WAIT_ENV;

/// The `indexing… N files` hint appears once a walk has run this long.
pub const HINT_AFTER: Duration = Duration::from_millis(100);

/// Fuzzy matches kept per session, most recent first.
const CACHED_QUERIES: usize = 8;

/// The fuzzy matches of recent fragments on the finished index, to answer a repeated fragment
/// at once and to narrow a growing one (the matches of `mod17` are among those of `mod1`).
#[derive(Debug, Default)]
struct QueryCache {
    recent: std::collections::VecDeque<(String, Arc<fuzzy::Matches>)>,
}

/// `@` completion for the editors, and the indexing hint. Cheap to clone: clones share one
/// [`FileIndex`], so every editor of a session shares one walk.
#[derive(Debug, Clone)]
pub struct AtCompleter {
    index: Arc<FileIndex>,
    home: Option<PathBuf>,
    wait: Duration,
    cache: Arc<Mutex<QueryCache>>,
}

impl AtCompleter {
    /// A completer rooted at `root` (the `--cwd` folder). Reads nothing until the first `@`.
    pub fn new(root: impl Into<PathBuf>) -> AtCompleter {
        AtCompleter::with_index(FileIndex::new(root))
    }

    /// A completer over an existing (possibly shared) index.
    pub fn with_index(index: Arc<FileIndex>) -> AtCompleter {
        AtCompleter {
            index,
            home: std::env::var_os("HOME")
                .filter(|h| !h.is_empty())
                .map(PathBuf::from),
            wait: std::env::var(WAIT_ENV)
                .ok()
                .and_then(|ms| ms.trim().parse().ok())
                .map_or(FIRST_WAIT, Duration::from_millis),
            cache: Arc::new(Mutex::new(QueryCache::default())),
        }
    }

    /// Sets how long a Tab waits for an unfinished index (default [`FIRST_WAIT`], or
    /// [`WAIT_ENV`] milliseconds).
    pub fn wait(mut self, wait: Duration) -> AtCompleter {
        self.wait = wait;
        self
    }

    /// Sets the folder `~/` stands for (default `$HOME`; `None`: `~/` lists nothing).
    pub fn home(mut self, home: Option<PathBuf>) -> AtCompleter {
        self.home = home;
        self
    }

    /// The shared file index.
    pub fn index(&self) -> &Arc<FileIndex> {
        &self.index
    }

    /// The completion for the `@` reference ending at byte `pos` of `line`: the byte offset
    /// the candidates replace from (the `@`) and the candidates, best first (`display` is the
    /// path with `/` after folders, `replacement` the reference text). While the index is
    /// still being walked after the wait, the list is partial and starts with an entry
    /// `(indexing… N files so far)` whose replacement is the text typed. `None` when the
    /// cursor is not in an `@` reference.
    pub fn complete_at(&self, line: &str, pos: usize) -> Option<(usize, Vec<Pair>)> {
        self.candidates(line, pos).map(|c| (c.start, c.pairs))
    }

    /// [`AtCompleter::complete_at`] with the text a Tab elects when there are several
    /// candidates: the common prefix of the replacements of every match (a folder's list is
    /// cut to 1000 (`dir::MAX_LISTED`) entries after the prefix is taken), or the text typed when
    /// there is none or it is unknown (a folder of more than 200,000 (`dir::MAX_SCANNED`) entries).
    pub fn candidates(&self, line: &str, pos: usize) -> Option<Candidates> {
        let tok = token::at_token(line, pos)?;
        let typed = line[tok.start..pos].to_owned();
        let fragment = tok.fragment;
        if dir::is_explicit(fragment) {
            let inside_root = !(fragment.starts_with('/')
                || fragment.starts_with('~')
                || fragment.split('/').any(|c| c == ".."));
            match dir::list_level(self.index.root(), self.home.as_deref(), fragment) {
                Some(level) if !level.entries.is_empty() || !inside_root => {
                    let mut pairs: Vec<Pair> = level
                        .entries
                        .into_iter()
                        .map(|l| Pair {
                            display: if l.is_dir { l.name + "/" } else { l.name },
                            replacement: token::reference(&l.path, l.is_dir, tok.quoted),
                        })
                        .collect();
                    let elected = level
                        .whole
                        .then(|| rustyline::completion::longest_common_prefix(&pairs))
                        .flatten()
                        .map(str::to_owned);
                    pairs.truncate(dir::MAX_LISTED);
                    return Some(Candidates {
                        start: tok.start,
                        pairs,
                        elected: elected.unwrap_or(typed),
                    });
                }
                None if !inside_root => {
                    return Some(Candidates {
                        start: tok.start,
                        pairs: Vec::new(),
                        elected: typed,
                    })
                }
                _ => {}
            }
        }
        self.index.start();
        let done = self.index.wait(self.wait);
        let hits = self.hits(fragment, done);
        let mut pairs: Vec<Pair> = Vec::with_capacity(hits.len() + 1);
        if !done {
            // The list is partial: say so in it. Inserting this entry changes nothing.
            pairs.push(Pair {
                display: format!("(indexing… {} files so far)", self.index.progress().entries),
                replacement: line[tok.start..pos].to_owned(),
            });
        }
        pairs.extend(hits.into_iter().map(|h| Pair {
            display: if h.is_dir {
                format!("{}/", h.path)
            } else {
                h.path.clone()
            },
            replacement: token::reference(&h.path, h.is_dir, tok.quoted),
        }));
        let mut elected =
            rustyline::completion::longest_common_prefix(&pairs).map_or(typed, str::to_owned);
        if done && pairs.len() > 1 {
            // The best matches are listed; the common part is that of every match.
            let matches = self.cached_matches(fragment);
            if let Some(path) = token::path_of(&elected) {
                let shared = fuzzy::shared_prefix_len(&self.index.snapshot(), &matches.ids, path);
                let cut = path.len() - shared;
                elected.truncate(elected.len() - cut);
            }
        }
        Some(Candidates {
            start: tok.start,
            pairs,
            elected,
        })
    }

    /// The best index entries for a fuzzy `fragment`, starting the walk if needed and waiting
    /// for it at most the configured wait; while the walk goes on, the best of the entries
    /// indexed so far.
    pub fn fuzzy(&self, fragment: &str) -> Vec<fuzzy::Hit> {
        self.index.start();
        let done = self.index.wait(self.wait);
        self.hits(fragment, done)
    }

    fn hits(&self, fragment: &str, done: bool) -> Vec<fuzzy::Hit> {
        if done {
            return self.cached_matches(fragment).top.clone();
        }
        // still walking: match what is indexed so far, cache nothing
        fuzzy::fuzzy_match(&self.index.snapshot(), fragment, MAX_CANDIDATES, None).top
    }

    /// The matches of `fragment` on the finished index: from the cache, or narrowed from the
    /// cached matches of its longest cached prefix, or computed afresh.
    fn cached_matches(&self, fragment: &str) -> Arc<fuzzy::Matches> {
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = cache.recent.iter().position(|(f, _)| f == fragment) {
            let hit = cache.recent.remove(i).expect("position is valid");
            let matches = Arc::clone(&hit.1);
            cache.recent.push_front(hit);
            return matches;
        }
        let narrow_from = cache
            .recent
            .iter()
            .filter(|(f, _)| !f.is_empty() && fragment.starts_with(f.as_str()))
            .max_by_key(|(f, _)| f.len())
            .map(|(_, m)| Arc::clone(m));
        let within = narrow_from.as_ref().map(|m| m.ids.as_slice());
        let chunks = self.index.snapshot();
        let matches = Arc::new(fuzzy::fuzzy_match(
            &chunks,
            fragment,
            MAX_CANDIDATES,
            within,
        ));
        cache
            .recent
            .push_front((fragment.to_owned(), Arc::clone(&matches)));
        cache.recent.truncate(CACHED_QUERIES);
        matches
    }

    /// The hint shown after the cursor in an `@` reference: `  indexing… N files` while the
    /// walk runs (after [`HINT_AFTER`]), `  (completion gave up on logs/: its .gitignore has
    /// more than 1000 patterns)` when it left a folder out for its ignore files
    /// ([`FileIndex::gave_up`]), `  (index stopped at N files)` when it hit a limit.
    ///
    /// Called by rustyline after every key, it also prepares the next Tab: typing `@` starts
    /// the walk, so the index is usually ready by the first Tab, and once the index is ready
    /// each key narrows the matches of the fragment typed so far, so Tab only lists them.
    pub fn hint_at(&self, line: &str, pos: usize) -> Option<String> {
        let tok = token::at_token(line, pos)?;
        if dir::is_explicit(tok.fragment) {
            return None;
        }
        self.index.start();
        let p = self.index.progress();
        if p.done {
            self.cached_matches(tok.fragment);
        }
        if !p.done && p.elapsed >= HINT_AFTER {
            Some(format!("  indexing… {} files", p.entries))
        } else if let Some(why) = self.index.gave_up().filter(|_| p.done) {
            // A file or folder name may carry control characters.
            let why = crate::text::one_line(&crate::text::for_terminal(&why)).into_owned();
            Some(format!("  (completion gave up on {why})"))
        } else if p.done && p.truncated {
            Some(format!("  (index stopped at {} files)", p.entries))
        } else {
            None
        }
    }
}

/// The candidates of one Tab ([`AtCompleter::candidates`]).
#[derive(Clone)]
pub struct Candidates {
    /// Byte offset of the `@` the candidates replace from.
    pub start: usize,
    /// The candidates, best first (`display` is the path with `/` after folders,
    /// `replacement` the reference text); a folder's list cut to 1000 (`dir::MAX_LISTED`).
    pub pairs: Vec<Pair>,
    /// What a Tab elects among several candidates: the common prefix of every match's
    /// replacement, else the text typed.
    pub elected: String,
}

/// The line and cursor after Tab elects `elected` (one of the `offered` replacements, or
/// their common prefix) for the reference from `start` to `pos`; `None` leaves the line as
/// it is. A common prefix is inserted only when its path extends the path typed, quotes
/// aside ([`token::extends`]): `@dir` becomes `@"dir with space/` when every match is in that
/// folder, but the common prefix of fuzzy matches (`@pkg0` for `@mod17`) would replace the
/// typed fragment, so it is not inserted.
pub fn insertion(
    line: &str,
    pos: usize,
    start: usize,
    elected: &str,
    offered: &[String],
) -> Option<(String, usize)> {
    let typed = line.get(start..pos)?;
    if !token::extends(typed, elected) && !offered.iter().any(|r| r == elected) {
        return None;
    }
    Some(apply(line, pos, start, elected))
}

/// The line and cursor after inserting `elected` for the reference from `start` to `pos`, as
/// pi does: a closing `"` right after the cursor of a quoted reference is replaced too, and
/// after a quoted folder (`@"my folder/"`) the cursor stays before the closing quote. A file
/// reference ends with one space: a space already after the cursor (or after the replaced
/// quote) is that space, so completing in the middle of a line never doubles it.
pub fn apply(line: &str, pos: usize, start: usize, elected: &str) -> (String, usize) {
    let mut end = pos;
    if line[start..pos].starts_with("@\"")
        && elected.trim_end_matches(' ').ends_with('"')
        && line[end..].starts_with('"')
    {
        end += 1;
    }
    if token::ends_with_separator(elected) && line[end..].starts_with(' ') {
        end += 1;
    }
    let text = format!("{}{}{}", &line[..start], elected, &line[end..]);
    let mut cursor = start + elected.len();
    if elected.ends_with("/\"") {
        cursor -= 1;
    }
    (text, cursor)
}

/// `names` laid out as rustyline lists candidates (columns two spaces apart, filled down each
/// column), each name made safe to draw, every row cut to `cols - 1` columns, at most `rows`
/// rows, the last saying how many more there are; one line per row, each after a line feed.
/// With no room, a count of the candidates on the editor's own line.
pub fn list_rows(names: &[String], rows: usize, cols: usize) -> String {
    use crate::text::{fit, width_of};
    let names: Vec<String> = names
        .iter()
        .map(|n| crate::text::one_line(n).into_owned())
        .collect();
    let n = names.len();
    if rows == 0 {
        return format!("  ({n} matches)");
    }
    let width = cols.saturating_sub(1).max(10);
    let cell = (names.iter().map(|s| width_of(s)).max().unwrap_or(0) + 2).min(width);
    let per_row = (width / cell.max(1)).max(1);
    let needed = n.div_ceil(per_row);
    let (shown_rows, more) = if needed <= rows {
        (needed, 0)
    } else {
        let shown = rows.saturating_sub(1);
        (shown, n - (shown * per_row).min(n))
    };
    let mut out = String::new();
    if shown_rows > 0 {
        let listed = (shown_rows * per_row).min(n);
        let col_len = listed.div_ceil(per_row).max(1);
        for row in 0..shown_rows {
            let mut line = String::new();
            for col in 0..per_row {
                let i = col * col_len + row;
                if i >= listed {
                    break;
                }
                let name = &names[i];
                line.push_str(name);
                if (col + 1) * col_len + row < listed {
                    line.push_str(&" ".repeat(cell.saturating_sub(width_of(name))));
                }
            }
            out.push('\n');
            out.push_str(&fit(&line, width));
        }
    }
    if more > 0 {
        out.push('\n');
        out.push_str(&fit(
            &format!("… {more} more: type more of the name"),
            width,
        ));
    }
    out
}

#[cfg(test)]
mod tests;

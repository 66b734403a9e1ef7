//! Fuzzy matching of a typed fragment against the file index (nucleo-matcher, path scoring).

use std::sync::Arc;

use nucleo_matcher::pattern::{Atom, AtomKind, CaseMatching, Normalization};
use nucleo_matcher::{Config, Matcher, Utf32Str};

use super::index::{Chunk, CHUNK_ENTRIES, FLAG_ASCII, FLAG_DIR, FLAG_HIDDEN};

/// One matching index entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    /// Path relative to the root, `/`-separated, without a trailing `/`.
    pub path: String,
    /// The entry is a folder (or a symlink to one).
    pub is_dir: bool,
    /// nucleo score (higher is better); 0 for an empty fragment.
    pub score: u16,
}

/// Position of an entry: `chunk << ID_SHIFT | entry` (chunks hold at most
/// [`CHUNK_ENTRIES`] entries).
pub type EntryId = u32;

const ID_SHIFT: u32 = CHUNK_ENTRIES.trailing_zeros();

/// Below this many entries, matching runs on the calling thread only.
const PARALLEL_FROM: usize = 16_384;

/// The matches of one fragment: ids of every matching entry and the best `limit` hits.
#[derive(Debug, Clone, Default)]
pub struct Matches {
    /// Every matching entry, in index order (for narrowing when the fragment grows).
    pub ids: Vec<EntryId>,
    /// The best hits, best first.
    pub top: Vec<Hit>,
}

fn entry(chunks: &[Arc<Chunk>], id: EntryId) -> (&str, u8) {
    chunks[(id >> ID_SHIFT) as usize].get((id & ((1 << ID_SHIFT) - 1)) as usize)
}

/// How much of `prefix` (in bytes, on a character boundary) every entry of `ids` starts
/// with, a folder's path taken with its `/`: the common prefix of all the matches, not only
/// of the best ones listed.
pub fn shared_prefix_len(chunks: &[Arc<Chunk>], ids: &[EntryId], prefix: &str) -> usize {
    let mut len = prefix.len();
    for &id in ids {
        if len == 0 {
            break;
        }
        let (path, flags) = entry(chunks, id);
        let slash: &[u8] = if flags & FLAG_DIR != 0 { b"/" } else { b"" };
        let same = prefix.as_bytes()[..len]
            .iter()
            .zip(path.as_bytes().iter().chain(slash))
            .take_while(|(a, b)| a == b)
            .count();
        len = same;
        while !prefix.is_char_boundary(len) {
            len -= 1;
        }
    }
    len
}

/// Matches `fragment` against the entries of `chunks` and keeps the best `limit`.
///
/// Hidden entries (a path component starting with `.`) take part only when `fragment`
/// starts with `.`. Ranking: nucleo's path score (smart case: case-sensitive only when the
/// fragment has an upper-case letter), then shorter paths, then folders, then byte order. An
/// empty fragment matches every visible entry, shallowest first. When `within` is given only
/// those entries are tried (they must be a superset of the matches, e.g. the matches of a
/// prefix of `fragment`). Large indexes are matched on several threads.
pub fn fuzzy_match(
    chunks: &[Arc<Chunk>],
    fragment: &str,
    limit: usize,
    within: Option<&[EntryId]>,
) -> Matches {
    let total = within.map_or_else(|| chunks.iter().map(|c| c.len()).sum(), <[_]>::len);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
    let parts = if total >= PARALLEL_FROM { threads } else { 1 };
    match_in_parts(chunks, fragment, limit, within, parts)
}

/// [`fuzzy_match`] split into `parts` parts, each on its own thread.
fn match_in_parts(
    chunks: &[Arc<Chunk>],
    fragment: &str,
    limit: usize,
    within: Option<&[EntryId]>,
    parts: usize,
) -> Matches {
    let parts = parts.max(1);
    let work = |part: usize| -> Vec<u64> {
        let mut scorer = Scorer::new(fragment);
        match within {
            Some(ids) => {
                let len = ids.len().div_ceil(parts);
                let slice = ids.chunks(len.max(1)).nth(part).unwrap_or(&[]);
                slice
                    .iter()
                    .filter_map(|&id| scorer.key(chunks, id))
                    .collect()
            }
            None => {
                let len = chunks.len().div_ceil(parts).max(1);
                let first = (part * len).min(chunks.len());
                let last = ((part + 1) * len).min(chunks.len());
                let mut keys = Vec::new();
                for c in first..last {
                    for i in 0..chunks[c].len() as u32 {
                        keys.extend(scorer.key(chunks, ((c as u32) << ID_SHIFT) | i));
                    }
                }
                keys
            }
        }
    };
    let keys: Vec<u64> = if parts > 1 {
        std::thread::scope(|scope| {
            let work = &work;
            let handles: Vec<_> = (1..parts).map(|p| scope.spawn(move || work(p))).collect();
            let mut keys = work(0);
            for h in handles {
                keys.extend(h.join().unwrap_or_default());
            }
            keys
        })
    } else {
        work(0)
    };
    // every part is in index order and the parts are in order, so the ids are sorted
    let ids: Vec<EntryId> = keys.iter().map(|&k| k as u32).collect();
    let top = best(chunks, keys, limit)
        .into_iter()
        .map(|key| {
            let (path, flags) = entry(chunks, key as u32);
            Hit {
                path: path.to_owned(),
                is_dir: flags & FLAG_DIR != 0,
                score: if fragment.is_empty() {
                    0
                } else {
                    u16::MAX - (key >> 48) as u16
                },
            }
        })
        .collect();
    Matches { ids, top }
}

/// Scores entries for one fragment on one thread.
struct Scorer<'f> {
    fragment: &'f str,
    hidden_ok: bool,
    atom: Atom,
    matcher: Matcher,
    buf: Vec<char>,
}

impl<'f> Scorer<'f> {
    fn new(fragment: &'f str) -> Self {
        Scorer {
            fragment,
            hidden_ok: fragment.starts_with('.'),
            atom: Atom::new(
                fragment,
                CaseMatching::Smart,
                Normalization::Smart,
                AtomKind::Fuzzy,
                false,
            ),
            matcher: Matcher::new(Config::DEFAULT.match_paths()),
            buf: Vec::new(),
        }
    }

    /// The rank key of entry `id` if it matches (smaller is better): inverted score (16 bits),
    /// path length (15 bits), 0 for a folder or 1 for a file (1 bit), the id (32 bits).
    fn key(&mut self, chunks: &[Arc<Chunk>], id: EntryId) -> Option<u64> {
        let (path, flags) = entry(chunks, id);
        if flags & FLAG_HIDDEN != 0 && !self.hidden_ok {
            return None;
        }
        let score = if self.fragment.is_empty() {
            // shallowest first: depth ranks as a score
            u16::MAX - path.bytes().filter(|&b| b == b'/').count().min(1000) as u16
        } else {
            let haystack = if flags & FLAG_ASCII != 0 {
                Utf32Str::Ascii(path.as_bytes())
            } else {
                Utf32Str::new(path, &mut self.buf)
            };
            self.atom.score(haystack, &mut self.matcher)?
        };
        Some(
            (u64::from(u16::MAX - score) << 48)
                | ((path.len().min(0x7FFF) as u64) << 33)
                | (u64::from(flags & FLAG_DIR == 0) << 32)
                | u64::from(id),
        )
    }
}

/// The `limit` best of `keys`, best first; entries equal but for their id are ordered by path
/// bytes, so the result does not depend on the order of the walk.
fn best(chunks: &[Arc<Chunk>], mut keys: Vec<u64>, limit: usize) -> Vec<u64> {
    if limit == 0 {
        return Vec::new();
    }
    let rank = |k: u64| k >> 32;
    if keys.len() > limit {
        keys.select_nth_unstable(limit - 1);
        let cut = rank(keys[limit - 1]);
        // everything better than the cut, and every entry tied with it
        keys.retain(|&k| rank(k) <= cut);
    }
    keys.sort_unstable_by(|&a, &b| {
        rank(a)
            .cmp(&rank(b))
            .then_with(|| entry(chunks, a as u32).0.cmp(entry(chunks, b as u32).0))
    });
    keys.truncate(limit);
    keys
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(n: usize) -> Vec<Arc<Chunk>> {
        let mut chunks = Vec::new();
        let mut chunk = Chunk::default();
        for i in 0..n {
            let path = format!("d{}/sub{}/f{}.rs", i % 97, i % 13, i);
            let flags = FLAG_ASCII | if i % 50 == 0 { FLAG_HIDDEN } else { 0 };
            chunk.push(&path, flags);
            if chunk.len() == CHUNK_ENTRIES {
                chunks.push(Arc::new(std::mem::take(&mut chunk)));
            }
        }
        chunks.push(Arc::new(chunk));
        chunks
    }

    fn same(a: &Matches, b: &Matches) {
        assert_eq!(a.ids, b.ids);
        assert_eq!(a.top, b.top);
    }

    #[test]
    fn parts_and_narrowing_do_not_change_the_result() {
        let chunks = index(20_000);
        for fragment in ["", "f17", "d3/s1", "zz", "."] {
            let one = match_in_parts(&chunks, fragment, 20, None, 1);
            for parts in [2, 3, 7] {
                same(&one, &match_in_parts(&chunks, fragment, 20, None, parts));
            }
            same(&one, &fuzzy_match(&chunks, fragment, 20, None));
        }
        let wide = fuzzy_match(&chunks, "f1", 20, None);
        let narrowed = fuzzy_match(&chunks, "f17", 20, Some(&wide.ids));
        same(&narrowed, &fuzzy_match(&chunks, "f17", 20, None));
        same(
            &narrowed,
            &match_in_parts(&chunks, "f17", 20, Some(&wide.ids), 3),
        );
        assert_eq!(narrowed.top.len(), 20);
        assert_eq!(narrowed.top[0].path, "d17/sub4/f17.rs");
    }
}

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
    let all: Vec<EntryId>;
    let ids: &[EntryId] = match within {
        Some(ids) => ids,
        None => {
            all = chunks
                .iter()
                .enumerate()
                .flat_map(|(c, chunk)| {
                    (0..chunk.len() as u32).map(move |i| ((c as u32) << ID_SHIFT) | i)
                })
                .collect();
            &all
        }
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
    let keyed: Vec<(u64, EntryId)> = if threads > 1 && ids.len() >= PARALLEL_FROM {
        let part = ids.len().div_ceil(threads);
        std::thread::scope(|scope| {
            let handles: Vec<_> = ids
                .chunks(part)
                .map(|part| scope.spawn(move || score_all(chunks, fragment, part)))
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap_or_default())
                .collect()
        })
    } else {
        score_all(chunks, fragment, ids)
    };
    let ids: Vec<EntryId> = keyed.iter().map(|&(_, id)| id).collect();
    let top = best(chunks, keyed, limit)
        .into_iter()
        .map(|(key, id)| {
            let (path, flags) = entry(chunks, id);
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

/// The rank key of every matching entry of `ids` (smaller is better): inverted score,
/// path length, folder before file.
fn score_all(chunks: &[Arc<Chunk>], fragment: &str, ids: &[EntryId]) -> Vec<(u64, EntryId)> {
    let hidden_ok = fragment.starts_with('.');
    let atom = Atom::new(
        fragment,
        CaseMatching::Smart,
        Normalization::Smart,
        AtomKind::Fuzzy,
        false,
    );
    let mut matcher = Matcher::new(Config::DEFAULT.match_paths());
    let mut buf = Vec::new();
    let mut keyed = Vec::new();
    for &id in ids {
        let (path, flags) = entry(chunks, id);
        if flags & FLAG_HIDDEN != 0 && !hidden_ok {
            continue;
        }
        let score = if fragment.is_empty() {
            // shallowest first: depth ranks as a score
            u16::MAX - path.bytes().filter(|&b| b == b'/').count().min(1000) as u16
        } else {
            let haystack = if flags & FLAG_ASCII != 0 {
                Utf32Str::Ascii(path.as_bytes())
            } else {
                Utf32Str::new(path, &mut buf)
            };
            match atom.score(haystack, &mut matcher) {
                Some(s) => s,
                None => continue,
            }
        };
        let key = (u64::from(u16::MAX - score) << 48)
            | ((path.len().min(0xFFFF) as u64) << 32)
            | u64::from(flags & FLAG_DIR == 0);
        keyed.push((key, id));
    }
    keyed
}

/// The `limit` best of `keyed`, best first; equal keys are ordered by path bytes, so the
/// result does not depend on the order of the walk.
fn best(
    chunks: &[Arc<Chunk>],
    mut keyed: Vec<(u64, EntryId)>,
    limit: usize,
) -> Vec<(u64, EntryId)> {
    if limit == 0 {
        return Vec::new();
    }
    if keyed.len() > limit {
        keyed.select_nth_unstable_by_key(limit - 1, |&(k, _)| k);
        let cut = keyed[limit - 1].0;
        // everything better than the cut, and every entry tied with it
        keyed.retain(|&(k, _)| k <= cut);
    }
    keyed.sort_unstable_by(|a, b| {
        a.0.cmp(&b.0)
            .then_with(|| entry(chunks, a.1).0.cmp(entry(chunks, b.1).0))
    });
    keyed.truncate(limit);
    keyed
}

//! What reading a JSON input (a payload or an answers file) needs in more than one place:
//! bounded reading of the file, JSON paths, JSON type names and typo suggestions.

use crate::contract::Problem;
use serde_json::Value;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// Problem codes for the ways reading an input can fail.
pub struct ReadCodes {
    /// The file or stdin could not be read.
    pub unreadable: &'static str,
    /// More than the byte limit.
    pub too_large: &'static str,
}

/// Reads at most `limit` bytes from `path` (`-` for stdin) as UTF-8 text, without a UTF-8
/// byte-order mark. `what` starts the input's name in messages ("the payload from", "the
/// answers file"); the path (or `stdin`) follows it.
///
/// Errors (path: the document): `codes.unreadable`, `codes.too_large` (refused before
/// parsing), or `malformed_json` when the input is empty or not UTF-8.
pub fn read_limited(
    path: &Path,
    limit: u64,
    what: &str,
    codes: &ReadCodes,
) -> Result<String, Problem> {
    let stdin = path == Path::new("-");
    let name = if stdin {
        format!("{what} stdin")
    } else {
        format!("{what} {}", path.display())
    };
    let unreadable =
        |e: io::Error| Problem::new(codes.unreadable, "", format!("cannot read {name}: {e}"));
    let mut size_hint = 0;
    let reader: Box<dyn Read> = if stdin {
        Box::new(io::stdin().lock())
    } else {
        let file = File::open(path).map_err(unreadable)?;
        size_hint = file.metadata().map_or(0, |m| m.len().min(limit));
        Box::new(file)
    };
    // One allocation for a regular file (its size, plus one byte to see the end).
    let mut bytes = Vec::with_capacity(usize::try_from(size_hint).unwrap_or(0).saturating_add(1));
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    if bytes.len() as u64 > limit {
        return Err(Problem::new(
            codes.too_large,
            "",
            format!("{name} is larger than {limit} bytes (--max-payload-bytes)"),
        ));
    }
    // A UTF-8 byte-order mark (some Windows editors write one) is not part of the JSON.
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        bytes.drain(..3);
    }
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(Problem::new(
            "malformed_json",
            "",
            format!("{name} is empty: expected a JSON object"),
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        Problem::new(
            "malformed_json",
            "",
            format!(
                "{name} is not UTF-8 (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
        )
    })
}

/// The path of `key` inside `base`: `base.key`, or `base["key"]` when the key is not a plain
/// name (empty, or with dots, brackets, spaces or other characters).
pub fn join_path(base: &str, key: &str) -> String {
    let plain = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    match (base.is_empty(), plain) {
        (true, true) => key.to_string(),
        (false, true) => format!("{base}.{key}"),
        (_, false) => format!("{base}[{}]", serde_json::to_string(key).unwrap_or_default()),
    }
}

/// "a string", "an array", ...: the JSON type of `v` for messages.
pub fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The candidate closest to `word` (ignoring case) when its Jaro-Winkler similarity is at
/// least `min_score` (0..1): a likely typo to suggest.
pub fn closest<'a>(
    word: &str,
    candidates: impl Iterator<Item = &'a str>,
    min_score: f64,
) -> Option<&'a str> {
    let lower = word.to_lowercase();
    candidates
        .map(|k| (k, strsim::jaro_winkler(&lower, &k.to_lowercase())))
        .filter(|(_, score)| *score >= min_score)
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(k, _)| k)
}

//! The `@` reference under the cursor and the text a completion inserts, in the form pi's own
//! editor uses for file references: `@path`, folders with a trailing `/`, and
//! `@"path with spaces"` when the path has whitespace or the person started with `@"`.

/// An `@` reference being typed: the text from its `@` up to the cursor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AtToken<'a> {
    /// Byte offset of the `@` in the line; a completion replaces from here.
    pub start: usize,
    /// The person typed `@"`: the path may contain spaces and completions keep the quotes.
    pub quoted: bool,
    /// The path typed so far, without the `@` and the opening quote.
    pub fragment: &'a str,
}

/// Characters that end a path token, as in pi's editor: whitespace (pi's editor works line by
/// line; here a pasted answer may hold newlines), quotes and `=`.
fn is_delimiter(c: char) -> bool {
    c.is_whitespace() || matches!(c, '"' | '\'' | '=')
}

/// Finds the `@` reference that ends at byte offset `pos` of `line`, if any, the way pi's
/// editor does.
///
/// An unclosed `"` right after an `@` that starts a token opens a quoted reference, which may
/// contain spaces. Otherwise the token is the text after the last delimiter (whitespace, `"`,
/// `'`, `=`), and it is a reference when it starts with `@` (so `me@host` is not one). `pos`
/// must be a char boundary (rustyline's cursor always is); otherwise there is no reference.
pub fn at_token(line: &str, pos: usize) -> Option<AtToken<'_>> {
    let before = line.get(..pos)?;
    let token_start = |i: usize| before[..i].chars().next_back().is_none_or(is_delimiter);
    // Byte offset of the last `"` if the quotes before the cursor are unbalanced.
    let mut open_quote = None;
    for (i, _) in before.match_indices('"') {
        open_quote = if open_quote.is_some() { None } else { Some(i) };
    }
    if let Some(q) = open_quote {
        if q > 0 && before.as_bytes()[q - 1] == b'@' && token_start(q - 1) {
            return Some(AtToken {
                start: q - 1,
                quoted: true,
                fragment: &before[q + 1..],
            });
        }
    }
    let start = before
        .char_indices()
        .rev()
        .find(|&(_, c)| is_delimiter(c))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let fragment = before[start..].strip_prefix('@')?;
    Some(AtToken {
        start,
        quoted: false,
        fragment,
    })
}

/// The reference text inserted for `path` (relative to the project root, or as typed for
/// explicit paths, without a trailing `/`), as pi's editor builds it: `@path`, `@path/` for a
/// folder, and `@"path"` / `@"path/"` when `path` contains a space or `quoted` is set (the
/// person typed `@"`). A file reference is followed by a space, a folder reference is not, so
/// Tab can go on into the folder.
pub fn reference(path: &str, is_dir: bool, quoted: bool) -> String {
    let (slash, space) = if is_dir { ("/", "") } else { ("", " ") };
    if quoted || path.contains(' ') {
        format!("@\"{path}{slash}\"{space}")
    } else {
        format!("@{path}{slash}{space}")
    }
}

/// The path of a reference, typed or inserted: the text after the `@` and an opening `"`.
pub fn path_of(reference: &str) -> Option<&str> {
    let rest = reference.strip_prefix('@')?;
    Some(rest.strip_prefix('"').unwrap_or(rest))
}

/// Whether inserting `elected` in place of the reference typed so far (`typed`, from its `@`
/// to the cursor) keeps what was typed: the path of `elected` starts with the typed path.
/// Quotes may be added (`@dir` -> `@"dir with space/`), never dropped (`@"dir` stays quoted).
pub fn extends(typed: &str, elected: &str) -> bool {
    match (path_of(typed), path_of(elected)) {
        (Some(t), Some(e)) => {
            (elected.starts_with("@\"") || !typed.starts_with("@\"")) && e.starts_with(t)
        }
        _ => elected.starts_with(typed),
    }
}

/// Whether `reference` is a whole file reference with its separating space (`@a.txt `,
/// `@"a b.txt" `), not a folder (`@src/`) or a prefix ending inside quotes (`@"dir `), where
/// the space is part of the path.
pub fn ends_with_separator(reference: &str) -> bool {
    let Some(body) = reference.strip_suffix(' ') else {
        return false;
    };
    match body.strip_prefix("@\"") {
        Some(quoted) => quoted.ends_with('"'),
        None => true,
    }
}

/// Whether the name of any path component starts with `.` (a hidden file or folder).
pub fn has_hidden_component(rel: &str) -> bool {
    rel.split('/')
        .any(|c| c.starts_with('.') && c != "." && c != "..")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tok(line: &str) -> Option<(usize, bool, &str)> {
        at_token(line, line.len()).map(|t| (t.start, t.quoted, t.fragment))
    }

    #[test]
    fn finds_plain_references() {
        assert_eq!(tok("@"), Some((0, false, "")));
        assert_eq!(tok("see @src/ma"), Some((4, false, "src/ma")));
        assert_eq!(tok("a\t@x"), Some((2, false, "x")));
        assert_eq!(tok("é @ü"), Some((3, false, "ü")));
    }

    #[test]
    fn ignores_mail_addresses_and_finished_words() {
        assert_eq!(tok("me@host"), None);
        assert_eq!(tok("@src done"), None);
        assert_eq!(tok("no at here"), None);
        assert_eq!(tok(""), None);
        // pi's other delimiters start a token too
        assert_eq!(tok("x=@a"), Some((2, false, "a")));
        assert_eq!(tok("'@b"), Some((1, false, "b")));
        // a pasted answer may hold several lines
        assert_eq!(tok("first line\n@sr"), Some((11, false, "sr")));
        // an unclosed quote not opened by `@` leaves the plain rule
        assert_eq!(tok("said \"hi @src"), Some((9, false, "src")));
    }

    #[test]
    fn quoted_references_may_contain_spaces() {
        assert_eq!(tok("@\"my fo"), Some((0, true, "my fo")));
        assert_eq!(tok("x @\""), Some((2, true, "")));
        // a closed quote ends the reference
        assert_eq!(tok("@\"my folder/\""), None);
        // a later plain reference wins over an earlier closed one
        assert_eq!(tok("@\"a b\" @c"), Some((7, false, "c")));
    }

    #[test]
    fn cursor_in_the_middle() {
        let line = "see @src/main.rs now";
        let t = at_token(line, 8).unwrap();
        assert_eq!((t.start, t.quoted, t.fragment), (4, false, "src"));
        assert_eq!(at_token(line, 3), None);
        // not a char boundary
        assert_eq!(at_token("é", 1), None);
    }

    #[test]
    fn reference_forms() {
        assert_eq!(reference("src/main.rs", false, false), "@src/main.rs ");
        assert_eq!(reference("src", true, false), "@src/");
        assert_eq!(reference("my folder", true, false), "@\"my folder/\"");
        assert_eq!(
            reference("my folder/a b.txt", false, false),
            "@\"my folder/a b.txt\" "
        );
        assert_eq!(reference("plain.txt", false, true), "@\"plain.txt\" ");
        // only a space forces quotes, as in pi
        assert_eq!(reference("tab\there", false, false), "@tab\there ");
    }

    #[test]
    fn a_prefix_extends_the_typed_path_quotes_aside() {
        assert!(extends("@dir", "@\"dir with space/"));
        assert!(extends("@dir", "@dir/"));
        assert!(extends("@\"dir", "@\"dir with space/"));
        assert!(extends("@", "@\"a b/\""));
        // a quote typed is never dropped
        assert!(!extends("@\"dir", "@dir/"));
        // fuzzy matches' common prefix does not keep the typed fragment
        assert!(!extends("@mod17", "@pkg0"));
        assert!(!extends("@dir", "@\"di"));
    }

    #[test]
    fn only_a_whole_file_reference_ends_with_its_separator() {
        assert!(ends_with_separator("@src/main.rs "));
        assert!(ends_with_separator("@\"a b.txt\" "));
        assert!(!ends_with_separator("@src/"));
        assert!(!ends_with_separator("@\"my folder/\""));
        assert!(!ends_with_separator("@\"dir "));
        assert!(!ends_with_separator("@\" "));
    }

    #[test]
    fn hidden_components() {
        assert!(has_hidden_component(".env"));
        assert!(has_hidden_component("a/.config/b"));
        assert!(!has_hidden_component("a/b.c"));
        assert!(!has_hidden_component("../a"));
        assert!(!has_hidden_component("./a"));
    }
}

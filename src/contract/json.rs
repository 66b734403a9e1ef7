//! What reading a JSON input (the payload or an answers file) needs on both sides: bounded
//! reading of the file, JSON paths and type names, quoting, and the one rule for unknown
//! fields and typo suggestions. The payload walker (`validate.rs`) and the answers-file
//! checker (`answers_file.rs`) both use it, so both word their problems alike.

use super::{Problem, ProblemCode};
use serde_json::{Map, Value};
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// The two JSON inputs pi-ask reads, for the codes and the wording of their problems.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    /// The payload: a file, or stdin.
    Payload,
    /// The `--answers` file: a file, or stdin.
    Answers,
}

impl Input {
    /// The code when the input cannot be read.
    fn unreadable(self) -> ProblemCode {
        match self {
            Input::Payload => ProblemCode::UnreadablePayload,
            Input::Answers => ProblemCode::UnreadableAnswers,
        }
    }

    /// The code when the input is over the byte limit.
    fn too_large(self) -> ProblemCode {
        match self {
            Input::Payload => ProblemCode::PayloadTooLarge,
            Input::Answers => ProblemCode::AnswersTooLarge,
        }
    }

    /// What the byte limit of the input is, in a too-large problem's words: the payload's is
    /// `--max-payload-bytes`; the answers file's grows with the payload, so that every result
    /// pi-ask writes for it replays ([`answers_size_limit`], docs/answers.md
    /// "Replay").
    fn limit_name(self) -> String {
        match self {
            Input::Payload => "--max-payload-bytes".to_string(),
            Input::Answers => format!(
                "--max-payload-bytes plus {} times the payload's size",
                REPLAY_FACTOR
            ),
        }
    }

    /// How a problem message (the result, for the calling model) names the input at `path`:
    /// "the payload from q.json", "the answers file a.json", "the payload from stdin".
    fn in_problem(self, path: &Path) -> String {
        let what = match self {
            Input::Payload => "the payload from",
            Input::Answers => "the answers file",
        };
        if path == Path::new("-") {
            format!("{what} stdin")
        } else {
            // Escaped as every message shows a path (`text::for_terminal`).
            format!(
                "{what} {}",
                crate::text::for_terminal(&path.display().to_string())
            )
        }
    }

    /// How stderr names the input at `path` for a person: the payload by the path they gave
    /// ("q.json"; "the payload on stdin"), the answers file as such ("the answers file
    /// a.json", "the answers file on stdin": it may come from PI_ASK_ANSWERS).
    pub fn for_people(self, path: &Path) -> String {
        match (self, path == Path::new("-")) {
            (Input::Payload, false) => path.display().to_string(),
            (Input::Payload, true) => "the payload on stdin".to_string(),
            (Input::Answers, false) => format!("the answers file {}", path.display()),
            (Input::Answers, true) => "the answers file on stdin".to_string(),
        }
    }
}

/// The one line a person reads on stderr (after `pi-ask: `) for a problem of the whole
/// `input` at `path` that stops it from being read as JSON: it could not be read, is over the
/// limit, is empty, is not UTF-8, or is not valid JSON. Says what and where, e.g. "cannot read
/// q.json: No such file or directory" or "q.json is not valid JSON at line 3, column 5:
/// expected true, false or null", without the model-facing sentence around it and without the OS error
/// number. `None` for every other problem (a rule or type problem has a place in the document
/// and is listed with it).
pub fn reading_problem_for_people(problem: &Problem, input: Input, path: &Path) -> Option<String> {
    let reading = [
        input.unreadable(),
        input.too_large(),
        ProblemCode::MalformedJson,
    ];
    if !problem.path.is_empty() || !reading.contains(&problem.code) {
        return None;
    }
    let named = input.in_problem(path);
    let person = input.for_people(path);
    let line = if problem.message.contains(&named) {
        // read_limited's problems name the input: name it as the person knows it.
        problem.message.replacen(&named, &person, 1)
    } else {
        // A JSON syntax error (`malformed_json`) says only where.
        format!("{person} is {}", problem.message)
    };
    Some(without_os_error(&line).to_string())
}

/// `text` without the " (os error N)" that Rust appends to the operating system's message.
pub(crate) fn without_os_error(text: &str) -> &str {
    let Some(at) = text.rfind(" (os error ") else {
        return text;
    };
    let number = &text[at + " (os error ".len()..];
    match number.strip_suffix(')') {
        Some(n) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => &text[..at],
        _ => text,
    }
}

/// Reads `reader` to its end, keeping at most `limit` bytes: `Ok(None)` as soon as there is
/// one byte more, so an endless input (`/dev/zero`) costs `limit + 1` bytes of memory and no
/// more. `size_hint` (a regular file's length, or 0) sizes the buffer in one allocation.
///
/// The one bounded reader: the payload and the answers file ([`read_limited`]) and
/// `--context` (`run::read_context`) read through it.
///
/// Errors: the reader's.
pub fn read_at_most(reader: impl Read, size_hint: u64, limit: u64) -> io::Result<Option<Vec<u8>>> {
    let hint = size_hint.min(limit);
    // One allocation for a regular file (its size, plus one byte to see the end).
    let mut bytes = Vec::with_capacity(usize::try_from(hint).unwrap_or(0).saturating_add(1));
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)?;
    Ok((bytes.len() as u64 <= limit).then_some(bytes))
}

/// Reads at most `limit` bytes from `path` (`-` for stdin) as UTF-8 text, without a UTF-8
/// byte-order mark ([`read_at_most`]). Problem messages name the input as
/// [`Input::in_problem`] does, and its limit as [`Input::limit_name`] does.
///
/// Errors (path: the document): the input's unreadable code, its too-large code (refused
/// before parsing), or `malformed_json` when the input is empty or not UTF-8.
pub(super) fn read_limited(path: &Path, limit: u64, input: Input) -> Result<String, Problem> {
    let stdin = path == Path::new("-");
    let name = input.in_problem(path);
    let unreadable =
        |e: io::Error| Problem::new(input.unreadable(), "", format!("cannot read {name}: {e}"));
    let mut size_hint = 0;
    let reader: Box<dyn Read> = if stdin {
        Box::new(io::stdin().lock())
    } else {
        let file = File::open(path).map_err(unreadable)?;
        size_hint = file.metadata().map_or(0, |m| m.len());
        Box::new(file)
    };
    let Some(mut bytes) = read_at_most(reader, size_hint, limit).map_err(unreadable)? else {
        return Err(Problem::new(
            input.too_large(),
            "",
            format!(
                "{name} is larger than {limit} bytes ({})",
                input.limit_name()
            ),
        ));
    };
    // A UTF-8 byte-order mark (some Windows editors write one) is not part of the JSON.
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        bytes.drain(..3);
    }
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(Problem::new(
            ProblemCode::MalformedJson,
            "",
            format!("{name} is empty: expected a JSON object"),
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let before = &e.as_bytes()[..at];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        // The column in characters, as serde_json counts a syntax error's.
        let column = String::from_utf8_lossy(&before[start..]).chars().count() + 1;
        Problem::new(
            ProblemCode::MalformedJson,
            "",
            format!(
                "{name} is not UTF-8: an invalid byte at line {line}, \
                 column {column} (byte offset {at})"
            ),
        )
    })
}

/// The `malformed_json` problem for a serde_json syntax error, with its line and column.
pub fn malformed_json(e: &serde_json::Error) -> Problem {
    let what = e.to_string();
    // serde_json appends " at line L column C"; keep only the reason.
    let reason = what
        .rsplit_once(" at line ")
        .map(|(r, _)| r.to_string())
        .unwrap_or(what);
    let reason = syntax_error_words(&reason).map_or(reason, str::to_string);
    // At the end of the text serde_json gives the column before the first (0) of the line
    // after the last line break: the end is the place to name.
    // Right after a line break (a raw one inside a string) it gives column 0 of the next line:
    // the place is the end of the line with the break.
    let place = if e.classify() == serde_json::error::Category::Eof {
        "at its end".to_string()
    } else if e.column() == 0 && e.line() > 1 {
        format!("at the end of line {}", e.line() - 1)
    } else {
        format!("at line {}, column {}", e.line(), e.column())
    };
    Problem::new(
        ProblemCode::MalformedJson,
        "",
        format!("not valid JSON {place}: {reason}"),
    )
}

/// A person's words for serde_json's jargon in a syntax error's reason (`expected ident`,
/// `EOF while parsing a list`); `None` for the reasons that read well as they are
/// (`expected \`:\``, `trailing comma`, `invalid number`).
fn syntax_error_words(reason: &str) -> Option<&'static str> {
    Some(match reason {
        "expected value" => {
            "expected a value: a \"string\", a number, an object, an array, true, false or null"
        }
        "expected ident" => "expected true, false or null",
        "key must be a string" => "a key must be a \"string\" in double quotes",
        "trailing characters" => "text after the end of the JSON value",
        "EOF while parsing a value" => "the text ends where a value should come",
        "EOF while parsing a list" => "the text ends before the array is closed with ]",
        "EOF while parsing an object" => "the text ends before the object is closed with }",
        "EOF while parsing a string" => "the text ends inside a string (no closing \")",
        "control character (\\u0000-\\u001F) found while parsing a string" => {
            "a control character inside a string: write it escaped (\\n, \\t, \\u0007)"
        }
        "recursion limit exceeded" => "nested 128 levels deep or more",
        "unexpected end of hex escape" | "lone leading surrogate in hex escape" => {
            "a \\u escape of half a surrogate pair (\\uD800 to \\uDFFF) without its other half"
        }
        _ => return None,
    })
}

/// The path of `key` inside `base`: `base.key`, or `base["key"]` when the key is not a plain
/// name (empty, or with dots, brackets, spaces or other characters).
pub(super) fn join_path(base: &str, key: &str) -> String {
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

/// `v` as an object; otherwise a `wrong_type` problem at `path` ("{what} must be an object,
/// not …") is pushed onto `problems` and `None` returned.
pub(super) fn object<'v>(
    v: &'v Value,
    path: &str,
    what: &str,
    problems: &mut Vec<Problem>,
) -> Option<&'v serde_json::Map<String, Value>> {
    let obj = v.as_object();
    if obj.is_none() {
        problems.push(Problem::new(
            ProblemCode::WrongType,
            path,
            format!("{what} must be an object, not {}", kind_of(v)),
        ));
    }
    obj
}

/// "a string", "an array", ...: the JSON type of `v` for messages.
pub(super) fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Quoted text on one line of a message, in the one notation of messages
/// ([`crate::text::quoted`]: `"a\eb"`).
pub(crate) fn quoted(text: &str) -> String {
    crate::text::quoted(text)
}

/// Up to 20 quoted names, then "and N more".
pub(super) fn listing<'a>(names: impl ExactSizeIterator<Item = &'a str>) -> String {
    let n = names.len();
    let mut shown: Vec<String> = names.take(20).map(quoted).collect();
    if n > 20 {
        shown.push(format!("and {} more", n - 20));
    }
    shown.join(", ")
}

/// How alike a name must be to a known one (Jaro-Winkler similarity, ignoring case, 0..1) to
/// be suggested as what was meant: one threshold for field names, question ids and option
/// values alike.
const TYPO_SIMILARITY: f64 = 0.8;

/// The candidate closest to `word` when it is alike enough to be a likely typo (the one typo
/// rule: field names, question ids, option values, and a mistyped subcommand).
pub fn closest<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let lower = word.to_lowercase();
    candidates
        .map(|k| (k, strsim::jaro_winkler(&lower, &k.to_lowercase())))
        .filter(|(_, score)| *score >= TYPO_SIMILARITY)
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(k, _)| k)
}

/// `did you mean "x"? ` when a candidate is close to `word` (a likely typo of a question id
/// or an option value), else nothing; it goes before the list of valid names.
pub(super) fn did_you_mean<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> String {
    closest(word, candidates)
        .map(|c| format!("did you mean {}? ", quoted(c)))
        .unwrap_or_default()
}

/// A name other tools use for a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Alias {
    /// What this format calls it: suggested when the object has that field.
    Field(&'static str),
    /// Advice said instead of a field name (e.g. `multiSelect` is a value of `type`).
    Advice(&'static str),
}

/// One kind of object in an input, for the unknown-field rule.
pub(super) struct Shape {
    /// The fields it has.
    pub known: &'static [&'static str],
    /// Its name in messages: "a question", "an answers file".
    pub noun: &'static str,
    /// Names other tools use for its fields.
    pub aliases: fn(&str) -> Option<Alias>,
}

/// The unknown-field rule: one `unknown_field` problem per key of `obj` (at `base`) that
/// `shape` does not know, "`{key}` is not a field of {noun}; " and then the alias's field or
/// advice, else the known field alike enough to be a typo ("did you mean `x`?"), else the list
/// of known fields.
pub(super) fn unknown_fields(
    obj: &Map<String, Value>,
    shape: &Shape,
    base: &str,
    problems: &mut Vec<Problem>,
) {
    let known = shape.known;
    for key in obj.keys() {
        if known.contains(&key.as_str()) {
            continue;
        }
        let hint = match (shape.aliases)(key) {
            Some(Alias::Advice(advice)) => advice.to_string(),
            alias => {
                let meant = match alias {
                    Some(Alias::Field(field)) if known.contains(&field) => Some(field),
                    _ => closest(key, known.iter().copied()),
                };
                match meant {
                    Some(field) => format!("did you mean `{field}`?"),
                    None => {
                        let list: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
                        format!("known fields: {}", list.join(", "))
                    }
                }
            }
        };
        // A name a person could take for message text (a line break, a control) is quoted
        // with it escaped: `x\n- answers.b: fine` must not read as a line of its own.
        let name = match crate::text::quoted(key) {
            escaped if escaped.len() != key.len() + 2 => escaped,
            _ => format!("`{key}`"),
        };
        problems.push(Problem::new(
            ProblemCode::UnknownField,
            join_path(base, key),
            format!("{name} is not a field of {}; {hint}", shape.noun),
        ));
    }
}

/// How many times the payload's size an answers file may take besides
/// `--max-payload-bytes` ([`answers_size_limit`]): 16.
pub const REPLAY_FACTOR: u64 = 16;

/// The most bytes an answers file for a payload of `payload_bytes` bytes (as read) may have:
/// `max_payload_bytes` (`--max-payload-bytes`) plus [`REPLAY_FACTOR`] times the payload's
/// size (saturating).
///
/// A result is larger than the payload it answers: it is pretty-printed, repeats each chosen
/// option's value and label in `details` and in `content`, and in the yishan and Claude Code
/// formats lists the options again; a 20,000-question payload of 1.9 MB gives a 6 MB result,
/// a yishan question with 60,000 short options (0.5 MB) a 4.3 MB one. The factor leaves room
/// for every result pi-ask writes for the payload, so a recorded result always replays
/// (docs/answers.md "Replay"); the `--max-payload-bytes` term is for the text typed into it
/// (custom text and notes, which the result repeats up to four times).
pub fn answers_size_limit(payload_bytes: u64, max_payload_bytes: u64) -> u64 {
    max_payload_bytes.saturating_add(payload_bytes.saturating_mul(REPLAY_FACTOR))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const SHAPE: Shape = Shape {
        known: &["values", "note"],
        noun: "an answer",
        aliases: |field| match field {
            "value" => Some(Alias::Field("values")),
            "title" => Some(Alias::Field("label")),
            "multiple" => Some(Alias::Advice("use `type: \"multi\"` instead")),
            _ => None,
        },
    };

    fn messages(obj: serde_json::Value) -> Vec<(String, String)> {
        let mut problems = Vec::new();
        unknown_fields(obj.as_object().unwrap(), &SHAPE, "answers.q", &mut problems);
        problems
            .into_iter()
            .inspect(|p| assert_eq!(p.code, ProblemCode::UnknownField))
            .map(|p| (p.path, p.message))
            .collect()
    }

    #[test]
    fn unknown_fields_name_an_alias_a_typo_or_the_known_fields() {
        let got = messages(json!({
            "values": [], "value": 1, "multiple": true, "Notes": "", "title": "", "a b": 0,
            "x\n- answers.b: fine": 0
        }));
        // In the object's order (serde_json keeps it).
        let want = [
            (
                "answers.q.value",
                "`value` is not a field of an answer; did you mean `values`?",
            ),
            (
                "answers.q.multiple",
                "`multiple` is not a field of an answer; use `type: \"multi\"` instead",
            ),
            (
                "answers.q.Notes",
                "`Notes` is not a field of an answer; did you mean `note`?",
            ),
            // An alias for a field this object does not have is no hint.
            (
                "answers.q.title",
                "`title` is not a field of an answer; known fields: `values`, `note`",
            ),
            (
                "answers.q[\"a b\"]",
                "`a b` is not a field of an answer; known fields: `values`, `note`",
            ),
            // A line break in a name is escaped, never a line of the message.
            (
                "answers.q[\"x\\n- answers.b: fine\"]",
                "\"x\\x0a- answers.b: fine\" is not a field of an answer; known fields: `values`, `note`",
            ),
        ];
        let want: Vec<(String, String)> = want
            .iter()
            .map(|(p, m)| (p.to_string(), m.to_string()))
            .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn did_you_mean_suggests_only_a_close_name() {
        let ids = ["style", "frameworks"];
        assert_eq!(
            did_you_mean("Styel", ids.into_iter()),
            "did you mean \"style\"? "
        );
        assert_eq!(did_you_mean("colour", ids.into_iter()), "");
    }

    #[test]
    fn syntax_errors_are_told_in_a_persons_words_where_serde_json_uses_jargon() {
        let said =
            |text: &str| malformed_json(&serde_json::from_str::<Value>(text).unwrap_err()).message;
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let cases = [
            ("{\"a\": tru}", "at line 1, column 10: expected true, false or null"),
            (
                "{\"a\": ]",
                "at line 1, column 7: expected a value: a \"string\", a number, an object, an array, true, false or null",
            ),
            ("{'a': 1}", "at line 1, column 2: a key must be a \"string\" in double quotes"),
            ("{} x", "at line 1, column 4: text after the end of the JSON value"),
            ("", "at its end: the text ends where a value should come"),
            ("[1,", "at its end: the text ends where a value should come"),
            ("[1", "at its end: the text ends before the array is closed with ]"),
            ("{\"a\": 1", "at its end: the text ends before the object is closed with }"),
            ("\"abc", "at its end: the text ends inside a string (no closing \")"),
            (
                "\"a\tb\"",
                "at line 1, column 3: a control character inside a string: write it escaped (\\n, \\t, \\u0007)",
            ),
            (&deep, "at line 1, column 128: nested 128 levels deep or more"),
            (
                "{\"a\": \"one\ntwo\"}",
                "at the end of line 1: a control character inside a string: write it escaped (\\n, \\t, \\u0007)",
            ),
            // Words that read well as serde_json has them are kept.
            ("{\"a\" 1}", "at line 1, column 6: expected `:`"),
            ("[1,]", "at line 1, column 4: trailing comma"),
        ];
        for (text, words) in cases {
            assert_eq!(said(text), format!("not valid JSON {words}"), "{text:?}");
        }
    }

    #[test]
    fn the_os_error_number_is_dropped_only_at_the_end() {
        assert_eq!(
            without_os_error("cannot read q.json: No such file or directory (os error 2)"),
            "cannot read q.json: No such file or directory"
        );
        assert_eq!(without_os_error("a (os error x)"), "a (os error x)");
        assert_eq!(without_os_error("a (os error 2) b"), "a (os error 2) b");
        assert_eq!(without_os_error("plain"), "plain");
    }

    #[test]
    fn reading_problems_read_for_people_name_the_input_as_given() {
        let for_people = |input: Input, path: &str, problem: Problem| {
            reading_problem_for_people(&problem, input, Path::new(path))
        };
        let missing = read_limited(Path::new("/nonexistent/q.json"), 10, Input::Payload);
        assert_eq!(
            for_people(Input::Payload, "/nonexistent/q.json", missing.unwrap_err()),
            Some("cannot read /nonexistent/q.json: No such file or directory".into())
        );
        let missing = read_limited(Path::new("/nonexistent/a.json"), 10, Input::Answers);
        assert_eq!(
            for_people(Input::Answers, "/nonexistent/a.json", missing.unwrap_err()),
            Some(
                "cannot read the answers file /nonexistent/a.json: No such file or directory"
                    .into()
            )
        );
        let syntax = malformed_json(&serde_json::from_str::<Value>("{]").unwrap_err());
        assert_eq!(
            for_people(Input::Payload, "-", syntax.clone()),
            Some(
                "the payload on stdin is not valid JSON at line 1, column 2: a key must be a \"string\" in double quotes"
                    .into()
            )
        );
        assert_eq!(
            for_people(Input::Answers, "a.json", syntax),
            Some("the answers file a.json is not valid JSON at line 1, column 2: a key must be a \"string\" in double quotes".into())
        );
        // A problem with a place in the document is listed, not made a line.
        let placed = Problem::new(ProblemCode::WrongType, "questions", "must be an array");
        assert_eq!(for_people(Input::Payload, "q.json", placed), None);
        let whole = Problem::new(ProblemCode::WrongType, "", "must be an object");
        assert_eq!(for_people(Input::Payload, "q.json", whole), None);
    }

    #[test]
    fn listing_stops_at_twenty_names() {
        let names: Vec<String> = (1..=22).map(|i| format!("v{i}")).collect();
        let text = listing(names.iter().map(String::as_str));
        assert!(text.starts_with("\"v1\", \"v2\""), "{text}");
        assert!(text.ends_with("\"v20\", and 2 more"), "{text}");
    }
}

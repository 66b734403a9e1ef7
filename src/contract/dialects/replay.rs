//! Recorded results in another format (`--result-format`, docs/dialects.md) as answers
//! files: a mickyyy68/pi-ask, @yishan-io/pi-ask or Claude Code result (or its `details`) is
//! turned into the answers document it stands for, which the answers-file checker then checks
//! and the scripted front end applies like any other. So a recorded result replays to the same
//! answers.
//!
//! How each format names an answer:
//! - mickyyy68/pi-ask: `answers[{questionId, selections[{value, custom}]}]`: option values,
//!   the custom selection as custom text;
//! - yishan: the i-th object answers the i-th question; `response` is a title (the option
//!   with that label), a list of them, or text (custom text);
//! - Claude Code: `answers` keyed by question text ([`super::claude_code_keys`]); the labels
//!   joined with `", "`, the text typed last;
//!
//! and `notes` (by question id), Claude Code's `annotations` (question notes) give the notes;
//! `mode: "elaborate"` (in yishan, in any of its objects) replays as Elaborate, with the
//! notes on options not chosen.
//! A custom text equal to an option's label replays as that option, unless the result's
//! `exactAnswers` (by question id, in the answers file's form) gives the answer: the results
//! add it for every answer whose labels would replay as another one ([`replays_joined`],
//! [`replays_by_label`]: options labelled alike, a label that is others joined, custom text
//! that is a label).

use super::super::json::{self, join_path as join, kind_of, listing, quoted, Shape};
use super::super::{ErrorCode, Payload, Problem, ProblemCode, Question};
use super::claude_code_keys;
use serde_json::{json, Map, Value};

/// A recorded result in another format, as an answers document.
pub(in super::super) struct Replay {
    /// `{"answers": {id: {values, customText?, note?, optionNotes?}}}` (with `"mode":
    /// "elaborate"` for a recorded elaborate result), `{"cancelled": true}`, or for a recorded
    /// timeout `{"cancelled": true, "error": {"code": "timeout", ...}, "answers": ...}`.
    pub document: Value,
    /// Where each question's answer is in the file, by the document path of its entry
    /// (`answers.<id>`): problems the checker finds there are reported at the file's path.
    pub paths: Vec<(String, String)>,
    /// Problems of the recorded result's own structure.
    pub problems: Vec<Problem>,
}

impl Replay {
    /// `path` (a path in [`Replay::document`]) as a path in the recorded file.
    pub fn file_path(&self, path: &str) -> String {
        self.paths
            .iter()
            .find(|(doc, _)| {
                path == doc
                    || path
                        .strip_prefix(doc.as_str())
                        .is_some_and(|rest| rest.starts_with(['.', '[']))
            })
            .map_or_else(|| path.to_string(), |(_, file)| file.clone())
    }
}

/// Which format a recorded result is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Mickyyy68,
    Yishan,
    ClaudeCode,
}

/// The answers document `value` stands for when it is a recorded result in another format
/// (or its `details`); `None` when it is not (an answers file, or a contract result).
pub(in super::super) fn replay(value: &Value, payload: &Payload) -> Option<Replay> {
    let (details, base) = match value {
        Value::Object(obj) if obj.contains_key("details") => {
            if obj.keys().any(|k| k != "content" && k != "details") {
                return None;
            }
            (&obj["details"], "details")
        }
        other => (other, ""),
    };
    let kind = kind_of_result(details, payload)?;
    let mut r = Reader {
        payload,
        entries: Map::new(),
        paths: Vec::new(),
        problems: Vec::new(),
        cancelled: false,
        timeout: None,
        mode: None,
    };
    match kind {
        Kind::Mickyyy68 => r.mickyyy68(details, base),
        Kind::Yishan => r.yishan(details, base),
        Kind::ClaudeCode => r.claude_code(details, base),
    }
    let document = if let (true, Some(error)) = (r.cancelled, &r.timeout) {
        json!({"cancelled": true, "error": error, "answers": r.entries})
    } else if r.cancelled {
        json!({"cancelled": true})
    } else if let Some(mode) = r.mode {
        json!({"mode": mode, "answers": r.entries})
    } else {
        json!({ "answers": r.entries })
    };
    Some(Replay {
        document,
        paths: r.paths,
        problems: r.problems,
    })
}

/// The format of a recorded result's `details`, if another format's.
fn kind_of_result(details: &Value, payload: &Payload) -> Option<Kind> {
    let obj = match details {
        // An array of yishan objects (one per question); any other array is no result.
        Value::Array(items) => {
            let yishan = |i: &Value| i.get("response").is_some() || i.get("question").is_some();
            return (!items.is_empty() && items.iter().all(yishan)).then_some(Kind::Yishan);
        }
        Value::Object(obj) => obj,
        _ => return None,
    };
    if obj.contains_key("response") {
        return Some(Kind::Yishan);
    }
    match obj.get("answers") {
        Some(Value::Array(_)) => return Some(Kind::Mickyyy68),
        Some(Value::Object(answers)) if !answers.is_empty() => {
            // Keyed by question text, not id: Claude Code's.
            let keys = claude_code_keys(payload.questions.iter().map(|q| (&*q.id, &*q.prompt)));
            let by_id = answers
                .keys()
                .any(|k| payload.questions.iter().any(|q| q.id == *k));
            if !by_id && answers.keys().all(|k| keys.contains(k)) {
                return Some(Kind::ClaudeCode);
            }
        }
        _ => {}
    }
    let claude_questions = obj
        .get("questions")
        .and_then(Value::as_array)
        .is_some_and(|qs| qs.iter().any(|q| q.get("question").is_some()));
    (claude_questions || obj.contains_key("annotations")).then_some(Kind::ClaudeCode)
}

const MICKYYY68: Shape = Shape {
    known: &["answers", "cancelled", "mode", "error", "notes"],
    noun: "a mickyyy68/pi-ask result",
    aliases: |_| None,
};

const MICKYYY68_ANSWER: Shape = Shape {
    known: &["questionId", "question", "selections"],
    noun: "a mickyyy68/pi-ask answer",
    aliases: |_| None,
};

const SELECTION: Shape = Shape {
    known: &["value", "label", "custom"],
    noun: "a selection",
    aliases: |_| None,
};

const YISHAN: Shape = Shape {
    known: &[
        "question",
        "context",
        "options",
        "response",
        "cancelled",
        "mode",
        "unavailableReason",
        "error",
        "notes",
        "exactAnswers",
    ],
    noun: "a @yishan-io/pi-ask result",
    aliases: |_| None,
};

const CLAUDE_CODE: Shape = Shape {
    known: &[
        "questions",
        "answers",
        "annotations",
        "notes",
        "exactAnswers",
        "cancelled",
        "mode",
        "error",
    ],
    noun: "a Claude Code result",
    aliases: |_| None,
};

const EXACT_ANSWER: Shape = Shape {
    known: &["values", "customText"],
    noun: "an exact answer",
    aliases: |_| None,
};

const NOTES: Shape = Shape {
    known: &["note", "optionNotes"],
    noun: "a question's notes",
    aliases: |_| None,
};

struct Reader<'p> {
    payload: &'p Payload,
    /// The answers document's entries, by question id.
    entries: Map<String, Value>,
    paths: Vec<(String, String)>,
    problems: Vec<Problem>,
    cancelled: bool,
    /// The contract's `error` of a recorded timeout (yishan and Claude Code keep it; mickyyy68
    /// writes a timeout as `aborted`, which replays as a dismissal).
    timeout: Option<Value>,
    /// The recorded `mode` (`"elaborate"`), passed on to the answers document, whose checker
    /// reads it (an unknown one is reported there, at its place in the file).
    mode: Option<Value>,
}

impl Reader<'_> {
    fn push(&mut self, code: ProblemCode, path: impl Into<String>, message: impl Into<String>) {
        self.problems.push(Problem::new(code, path, message));
    }

    fn object<'v>(
        &mut self,
        v: &'v Value,
        path: &str,
        what: &str,
    ) -> Option<&'v Map<String, Value>> {
        json::object(v, path, what, &mut self.problems)
    }

    fn shape(&mut self, obj: &Map<String, Value>, shape: &Shape, base: &str) {
        json::unknown_fields(obj, shape, base, &mut self.problems);
    }

    /// `cancelled: true` scripts a dismissal, or with a `timeout` error a timeout; `mode` is
    /// kept for the document (in yishan's objects, `"elaborate"` in any of them wins).
    fn cancelled(&mut self, obj: &Map<String, Value>, base: &str) {
        if let Some(error) = obj.get("error") {
            if error.get("code").and_then(Value::as_str) == Some(ErrorCode::Timeout.as_str()) {
                self.timeout.get_or_insert_with(|| error.clone());
            }
        }
        if let Some(mode) = obj.get("mode") {
            if self.mode.as_ref().is_none_or(|m| m != "elaborate") {
                self.mode = Some(mode.clone());
                self.paths.retain(|(doc, _)| doc != "mode");
                self.paths.push(("mode".to_string(), join(base, "mode")));
            }
        }
        match obj.get("cancelled") {
            None => {}
            Some(Value::Bool(b)) => self.cancelled |= *b,
            Some(other) => self.push(
                ProblemCode::WrongType,
                join(base, "cancelled"),
                format!("`cancelled` must be true or false, not {}", kind_of(other)),
            ),
        }
    }

    /// The entry of question `id` in the document, answered at `path` in the file.
    fn entry(&mut self, id: &str, path: &str) -> &mut Map<String, Value> {
        let doc_path = join("answers", id);
        if !self.paths.iter().any(|(d, _)| *d == doc_path) {
            self.paths.push((doc_path, path.to_string()));
        }
        self.entries
            .entry(id.to_string())
            .or_insert_with(|| json!({"values": []}))
            .as_object_mut()
            .expect("entries are objects")
    }

    /// `notes` by question id: `{note?, optionNotes?}` each.
    fn notes(&mut self, obj: &Map<String, Value>, base: &str) {
        let Some(notes) = obj.get("notes") else {
            return;
        };
        let path = join(base, "notes");
        let Some(notes) = self.object(notes, &path, "`notes`") else {
            return;
        };
        for (id, n) in notes {
            let npath = join(&path, id);
            let Some(n) = self.object(n, &npath, "a question's notes") else {
                continue;
            };
            self.shape(n, &NOTES, &npath);
            let entry = self.entry(id, &npath);
            for key in ["note", "optionNotes"] {
                if let Some(v) = n.get(key) {
                    entry.insert(key.to_string(), v.clone());
                }
            }
        }
    }

    fn mickyyy68(&mut self, details: &Value, base: &str) {
        let Some(obj) = self.object(details, base, "the result details") else {
            return;
        };
        self.shape(obj, &MICKYYY68, base);
        self.cancelled(obj, base);
        let answers_path = join(base, "answers");
        for (i, a) in obj["answers"].as_array().into_iter().flatten().enumerate() {
            let path = format!("{answers_path}[{i}]");
            let Some(a) = self.object(a, &path, "an answer") else {
                continue;
            };
            self.shape(a, &MICKYYY68_ANSWER, &path);
            let Some(id) = a.get("questionId").and_then(Value::as_str) else {
                self.push(
                    ProblemCode::MissingField,
                    join(&path, "questionId"),
                    "an answer needs its `questionId` string",
                );
                continue;
            };
            let selections = a.get("selections").and_then(Value::as_array);
            let mut values = Vec::new();
            let mut custom: Option<String> = None;
            let spath = join(&path, "selections");
            for (j, s) in selections.into_iter().flatten().enumerate() {
                let sel_path = format!("{spath}[{j}]");
                let Some(s) = self.object(s, &sel_path, "a selection") else {
                    continue;
                };
                self.shape(s, &SELECTION, &sel_path);
                let Some(value) = s.get("value").and_then(Value::as_str) else {
                    self.push(
                        ProblemCode::MissingField,
                        join(&sel_path, "value"),
                        "a selection needs its `value` string",
                    );
                    continue;
                };
                if s.get("custom").and_then(Value::as_bool) == Some(true) {
                    if custom.is_some() {
                        self.push(
                            ProblemCode::TooManyValues,
                            sel_path,
                            "a question takes one custom selection",
                        );
                    }
                    custom = Some(value.to_string());
                } else {
                    values.push(Value::String(value.to_string()));
                }
            }
            let entry = self.entry(id, &path);
            entry.insert("values".to_string(), Value::Array(values));
            if let Some(text) = custom {
                entry.insert("customText".to_string(), Value::String(text));
            }
        }
        self.notes(obj, base);
    }

    fn yishan(&mut self, details: &Value, base: &str) {
        let items: Vec<(&Value, String)> = match details {
            Value::Array(items) => items
                .iter()
                .enumerate()
                .map(|(i, v)| (v, format!("{base}[{i}]")))
                .collect(),
            one => vec![(one, base.to_string())],
        };
        let exact_items = items.clone();
        let n = self.payload.questions.len();
        for (q, (item, path)) in items.into_iter().enumerate() {
            let Some(obj) = self.object(item, &path, "a question's result") else {
                continue;
            };
            self.shape(obj, &YISHAN, &path);
            self.cancelled(obj, &path);
            self.notes(obj, &path);
            let Some(question) = self.payload.questions.get(q) else {
                self.push(
                    ProblemCode::UnknownQuestion,
                    path,
                    format!("the payload has {n} question(s); this result has more"),
                );
                continue;
            };
            let rpath = join(&path, "response");
            let texts: Vec<&str> = match obj.get("response") {
                None | Some(Value::Null) => continue,
                Some(Value::String(s)) => vec![s],
                Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).collect(),
                Some(other) => {
                    self.push(
                        ProblemCode::WrongType,
                        rpath,
                        format!(
                            "`response` must be a title, a list of titles, or null, not {}",
                            kind_of(other)
                        ),
                    );
                    continue;
                }
            };
            let (options, custom) = replays_by_label(question, texts.iter().copied());
            self.answer(question, &path, options, custom);
        }
        // After every response: an exact answer wins over its labels.
        for (item, path) in exact_items {
            if let Value::Object(obj) = item {
                self.exact_answers(obj, &path);
            }
        }
    }

    fn claude_code(&mut self, details: &Value, base: &str) {
        let Some(obj) = self.object(details, base, "the result details") else {
            return;
        };
        self.shape(obj, &CLAUDE_CODE, base);
        self.cancelled(obj, base);
        let payload = self.payload;
        let keys = claude_code_keys(payload.questions.iter().map(|q| (&*q.id, &*q.prompt)));
        let question_of = |key: &str| keys.iter().position(|k| k == key);
        for field in ["answers", "annotations"] {
            let fpath = join(base, field);
            let Some(map) = obj.get(field) else {
                continue;
            };
            let Some(map) = self.object(map, &fpath, &format!("`{field}`")) else {
                continue;
            };
            for (key, v) in map {
                let path = join(&fpath, key);
                let Some(q) = question_of(key) else {
                    let hint = json::did_you_mean(key, keys.iter().map(String::as_str));
                    self.push(
                        ProblemCode::UnknownQuestion,
                        path,
                        format!(
                            "the payload has no question {}; {hint}question texts: {}",
                            quoted(key),
                            listing(keys.iter().map(String::as_str))
                        ),
                    );
                    continue;
                };
                let question = &payload.questions[q];
                match (field, v) {
                    ("answers", Value::String(answer)) => {
                        let (options, custom) = replays_joined(question, answer);
                        self.answer(question, &path, options, custom);
                    }
                    ("annotations", Value::Object(a)) => {
                        if let Some(note) = a.get("notes") {
                            let entry = self.entry(&question.id, &path);
                            entry.insert("note".to_string(), note.clone());
                        }
                    }
                    (_, other) => self.push(
                        ProblemCode::WrongType,
                        path,
                        format!(
                            "{} must be {}, not {}",
                            if field == "answers" {
                                "an answer"
                            } else {
                                "an annotation"
                            },
                            if field == "answers" {
                                "a string"
                            } else {
                                "an object {notes}"
                            },
                            kind_of(other)
                        ),
                    ),
                }
            }
        }
        self.exact_answers(obj, base);
        self.notes(obj, base);
    }

    /// `exactAnswers` by question id, `{values, customText?}` each: the answer itself, in
    /// place of what its labels replay as.
    fn exact_answers(&mut self, obj: &Map<String, Value>, base: &str) {
        let Some(exact) = obj.get("exactAnswers") else {
            return;
        };
        let path = join(base, "exactAnswers");
        let Some(exact) = self.object(exact, &path, "`exactAnswers`") else {
            return;
        };
        for (id, a) in exact {
            let apath = join(&path, id);
            let Some(a) = self.object(a, &apath, "an exact answer") else {
                continue;
            };
            self.shape(a, &EXACT_ANSWER, &apath);
            let entry = self.entry(id, &apath);
            entry.remove("customText");
            entry.insert("values".to_string(), json!([]));
            for key in ["values", "customText"] {
                if let Some(v) = a.get(key) {
                    entry.insert(key.to_string(), v.clone());
                }
            }
        }
    }

    /// Records question `question`'s options (by index) and custom text.
    fn answer(
        &mut self,
        question: &Question,
        path: &str,
        options: Vec<usize>,
        custom: Option<String>,
    ) {
        let values: Vec<Value> = options
            .iter()
            .map(|&o| Value::String(question.options[o].value.clone()))
            .collect();
        let entry = self.entry(&question.id, path);
        entry.insert("values".to_string(), Value::Array(values));
        if let Some(text) = custom {
            entry.insert("customText".to_string(), Value::String(text));
        }
    }
}

/// Each label of `question`'s options to the position of the first option with it.
fn label_positions(question: &Question) -> std::collections::HashMap<&str, usize> {
    let mut at = std::collections::HashMap::with_capacity(question.options.len());
    for (i, o) in question.options.iter().enumerate() {
        at.entry(o.label.as_str()).or_insert(i);
    }
    at
}

/// What a yishan `response` replays as: the options whose labels `texts` are (in the order
/// given; the first of options labelled alike), and the text that is no label: the custom
/// text (the last one, when several). The yishan result asks it to know when to add an
/// exact answer.
pub fn replays_by_label<'a>(
    question: &Question,
    texts: impl Iterator<Item = &'a str>,
) -> (Vec<usize>, Option<String>) {
    let at = label_positions(question);
    let mut options = Vec::new();
    let mut custom = None;
    for t in texts {
        match at.get(t) {
            Some(&i) => options.push(i),
            None => custom = Some(t.to_string()),
        }
    }
    (options, custom)
}

/// What a Claude Code answer string replays as: one label or the text typed; on a
/// multi-select question labels joined with `", "`, the text typed last. Labels that contain
/// `", "` are matched whole (the longest label first); of options labelled alike, the first.
/// The Claude Code result asks it to know when to add an exact answer.
pub fn replays_joined(question: &Question, answer: &str) -> (Vec<usize>, Option<String>) {
    let at = label_positions(question);
    if let Some(&i) = at.get(answer) {
        return (vec![i], None);
    }
    if !question.kind.takes_several() {
        return (Vec::new(), Some(answer.to_string()));
    }
    // No label has more parts than this, so no longer join is tried.
    let most_parts = at
        .keys()
        .map(|l| l.matches(", ").count() + 1)
        .max()
        .unwrap_or(1);
    let parts: Vec<&str> = answer.split(", ").collect();
    let mut options = Vec::new();
    let mut i = 0;
    while i < parts.len() {
        let found = (i + 1..=parts.len().min(i + most_parts))
            .rev()
            .find_map(|j| at.get(parts[i..j].join(", ").as_str()).map(|&o| (o, j)));
        match found {
            Some((o, j)) => {
                options.push(o);
                i = j;
            }
            None => return (options, Some(parts[i..].join(", "))),
        }
    }
    (options, None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::parse_payload;

    fn payload() -> Payload {
        parse_payload(
            r#"{"questions": [
              {"id": "db", "prompt": "Which database?", "options": [
                {"value": "pg", "label": "PostgreSQL"}, {"value": "lite", "label": "SQLite"}]},
              {"id": "fw", "prompt": "Which frameworks?", "type": "multi", "options": [
                {"value": "react", "label": "React"}, {"value": "a", "label": "Ember, classic"},
                {"value": "vue", "label": "Vue"}]}
            ]}"#,
        )
        .unwrap()
    }

    #[test]
    fn claude_code_answers_split_into_labels_then_text() {
        let p = payload();
        let fw = &p.questions[1];
        assert_eq!(replays_joined(fw, "React, Vue"), (vec![0, 2], None));
        assert_eq!(
            replays_joined(fw, "Ember, classic, Vue"),
            (vec![1, 2], None)
        );
        assert_eq!(
            replays_joined(fw, "React, Solid, or so"),
            (vec![0], Some("Solid, or so".to_string()))
        );
        assert_eq!(
            replays_joined(&p.questions[0], "MySQL, maybe"),
            (vec![], Some("MySQL, maybe".to_string()))
        );
    }

    #[test]
    fn each_format_is_recognized_and_others_are_not() {
        let p = payload();
        let kind = |v: Value| kind_of_result(&v, &p);
        assert_eq!(
            kind(json!({"answers": [], "cancelled": true})),
            Some(Kind::Mickyyy68)
        );
        assert_eq!(kind(json!([{"response": null}])), Some(Kind::Yishan));
        assert_eq!(kind(json!(["minimal"])), None);
        assert_eq!(kind(json!([])), None);
        assert_eq!(
            kind(json!({"question": "q", "response": "x"})),
            Some(Kind::Yishan)
        );
        assert_eq!(
            kind(json!({"answers": {"Which database?": "SQLite"}})),
            Some(Kind::ClaudeCode)
        );
        assert_eq!(
            kind(json!({"questions": [{"question": "q"}], "answers": {}})),
            Some(Kind::ClaudeCode)
        );
        // The contract's own answers file and result.
        assert_eq!(kind(json!({"answers": {"db": "lite"}})), None);
        assert_eq!(
            kind(json!({"answers": {}, "cancelled": false, "questions": [{"id": "db"}]})),
            None
        );
        assert_eq!(kind(json!({"cancelled": true})), None);
    }

    #[test]
    fn paths_of_the_document_map_to_the_file() {
        let p = payload();
        let r = replay(
            &json!({"details": {"answers": [{"questionId": "fw", "question": "x", "selections": []}], "cancelled": false}}),
            &p,
        )
        .unwrap();
        assert_eq!(r.file_path("answers.fw.values[0]"), "details.answers[0]");
        assert_eq!(r.file_path("answers.fwx"), "answers.fwx");
        assert_eq!(r.document, json!({"answers": {"fw": {"values": []}}}));
    }
}

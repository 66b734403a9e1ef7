//! The `--answers` file (docs/answers.md): reading it, parsing it and checking it whole
//! against the payload. Pure apart from [`read_answers`], so fuzz targets can call
//! [`parse_answers`] on bytes; applying a checked file to the answer state is the front end's
//! business (`crate::frontend::scripted`).
//!
//! Accepted shapes (docs/answers.md):
//! - `{"answers": {"<question id>": ENTRY, ...}}`, optionally with `"cancelled": true` (a
//!   scripted dismissal); ENTRY is an option value (string), a 1-based position (integer or
//!   `"#2"`), an array of those, or `{values?, customText?, note?, optionNotes?}`; for a
//!   question without options (docs/dialects.md) a string is the answer in words;
//! - a recorded result `{content, details}`, or its `details`, so a result replays exactly
//!   (a recorded timeout, `cancelled: true` with `error.code` `timeout`, replays as the same
//!   timeout with its answers);
//! - a recorded result in another format (`--result-format`), read by `dialects/replay.rs`.
//!
//! Problems use the payload's vocabulary and helpers (`json.rs`): the same codes, paths, and
//! unknown-field and typo rule.

use super::json::{
    self, did_you_mean, join_path as join, kind_of, listing, malformed_json, quoted, Alias, Shape,
};
use super::{Payload, Problem, ProblemCode, Question, QuestionType};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::path::Path;

/// A checked answers file, ready to apply to the answer state of the same payload.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AnswersFile {
    /// The file scripts a dismissal (`"cancelled": true`): the result is the dismissed one.
    pub cancelled: bool,
    /// The file is a recorded timeout (`"cancelled": true` and `error.code` `timeout`): the
    /// entries are applied and the flow times out with this message (the recorded
    /// `error.message`). `cancelled` is true too.
    pub timed_out: Option<String>,
    /// The file ends the flow with Elaborate instead of Submit (`"mode": "elaborate"`, or a
    /// recorded elaborate result): option notes may be on unselected options.
    pub elaborate: bool,
    /// One entry per answered question, in file order.
    pub entries: Vec<AnswerEntry>,
}

/// The scripted answer of one question. Indices are 0-based.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AnswerEntry {
    /// Question index in the payload.
    pub question: usize,
    /// Selected options, ascending, no duplicates (at most one unless the question is multi).
    pub options: Vec<usize>,
    /// Free-form answer (never on a preview question; never with an option on single-select).
    pub custom_text: Option<String>,
    /// Question-level note.
    pub note: Option<String>,
    /// Notes of selected options (of any option with [`AnswersFile::elaborate`]): (option
    /// index, note).
    pub option_notes: Vec<(usize, String)>,
}

/// Top-level fields of an answers document (the `details` of a result has the same ones).
pub(crate) const DOCUMENT_FIELDS: &[&str] = &[
    "answers",
    "cancelled",
    "mode",
    "title",
    "questions",
    "continuation",
    "elaboration",
    "error",
];
/// Top-level fields of a whole recorded result.
pub(crate) const RESULT_FIELDS: &[&str] = &["content", "details"];
/// Fields of an answer object.
pub(crate) const ENTRY_FIELDS: &[&str] = &[
    "values",
    "customText",
    "note",
    "optionNotes",
    "labels",
    "indices",
];

/// Parses and checks an answers file against `payload` without touching anything.
///
/// Errors: every problem found, in document order, each with a [`ProblemCode`]
/// and a path such as `answers.style` or `answers.frameworks.values[1]`. A key given twice in
/// one object is `duplicate_key` at its repeat (docs/answers.md): the file is written for
/// a run, and the value read first would be lost without a word (`{"answers": {…},
/// "answers": {}}` answered nothing).
pub fn parse_answers(text: &str, payload: &Payload) -> Result<AnswersFile, Vec<Problem>> {
    let value: Value = serde_json::from_str(text).map_err(|e| vec![malformed_json(&e)])?;
    let repeated = super::duplicates::duplicate_keys(text, super::duplicates::IN_AN_ANSWERS_FILE);
    if !repeated.is_empty() {
        return Err(repeated);
    }
    parse_answers_value(&value, payload)
}

/// [`parse_answers`] on an already-parsed JSON value. A recorded result in another format
/// (docs/dialects.md) is read as the answers it stands for; problems are reported at its own
/// paths.
pub fn parse_answers_value(value: &Value, payload: &Payload) -> Result<AnswersFile, Vec<Problem>> {
    let Some(replay) = super::dialects::replay(value, payload) else {
        return check(value, payload);
    };
    let mut problems = replay.problems.clone();
    match check(&replay.document, payload) {
        Ok(file) if problems.is_empty() => return Ok(file),
        Ok(_) => {}
        Err(found) => problems.extend(found.into_iter().map(|mut p| {
            p.path = replay.file_path(&p.path);
            p
        })),
    }
    super::cap_problems(&mut problems);
    Err(problems)
}

/// Checks an answers document (or a contract result) against `payload`.
fn check(value: &Value, payload: &Payload) -> Result<AnswersFile, Vec<Problem>> {
    let mut c = Checker {
        payload,
        ids: payload
            .questions
            .iter()
            .enumerate()
            .map(|(i, q)| (q.id.as_str(), i))
            .collect(),
        problems: Vec::new(),
        elaborate: false,
        note_paths: HashMap::new(),
    };
    let answers = c.document(value);
    c.note_budget(&answers);
    if c.problems.is_empty() {
        Ok(answers)
    } else {
        super::cap_problems(&mut c.problems);
        Err(c.problems)
    }
}

/// The message of a recorded timeout: `error` is `{"code": "timeout", "message": ...}` (any
/// other `error` is ignored, as docs/answers.md says). The message is kept when it is one
/// pi-ask writes (`no key for 30 seconds`, `result::is_timeout_message`); any other, or none,
/// gets a general one: the message goes into the result's `content`, which the agent reads,
/// and a file's own text there could read as answers.
fn recorded_timeout(doc: &Map<String, Value>) -> Option<String> {
    let error = doc.get("error")?.as_object()?;
    if error.get("code")?.as_str()? != super::ErrorCode::Timeout.as_str() {
        return None;
    }
    let message = error.get("message").and_then(Value::as_str);
    Some(
        match message.filter(|m| crate::result::is_timeout_message(m)) {
            Some(message) => message.to_string(),
            None => "no key before the timeout".to_string(),
        },
    )
}

/// The problems of one answers file that get a "did you mean" hint ([`Checker::typo_hint`]).
const MAX_TYPO_HINTS: usize = 20;

struct Checker<'p> {
    payload: &'p Payload,
    ids: HashMap<&'p str, usize>,
    problems: Vec<Problem>,
    /// `"mode": "elaborate"`: notes on unselected options are kept.
    elaborate: bool,
    /// Where each note was read, by (question, option; `None` for the question note): the
    /// path [`Checker::note_budget`] names.
    note_paths: HashMap<(usize, Option<usize>), String>,
}

/// Names other tools use for answer-object fields, mapped to this format's (suggested only
/// on an object that has the field).
fn entry_alias(field: &str) -> Option<Alias> {
    Some(Alias::Field(match field {
        "custom_text" | "custom" | "text" | "other" | "freeText" | "free_text" => "customText",
        "option_notes" | "optionNote" | "option_note" => "optionNotes",
        "value" | "selected" | "options" | "choices" | "choice" => "values",
        "notes" | "comment" | "questionNote" => "note",
        _ => return None,
    }))
}

/// A whole recorded result used as an answers file.
const RESULT: Shape = Shape {
    known: RESULT_FIELDS,
    noun: "a recorded result",
    aliases: entry_alias,
};

/// An answers document (or a recorded result's `details`).
const DOCUMENT: Shape = Shape {
    known: DOCUMENT_FIELDS,
    noun: "an answers file",
    aliases: entry_alias,
};

/// An answer object.
const ENTRY: Shape = Shape {
    known: ENTRY_FIELDS,
    noun: "an answer",
    aliases: entry_alias,
};

impl Checker<'_> {
    fn push(&mut self, code: ProblemCode, path: impl Into<String>, message: impl Into<String>) {
        self.problems.push(Problem::new(code, path, message));
        self.keep_few();
    }

    /// Keeps the list short as it grows (`cap_problems` on the problems so far, which are in
    /// document order): a file of two million bad positions holds a few hundred at most.
    fn keep_few(&mut self) {
        if self.problems.len() > 2 * crate::limits::MAX_PROBLEMS {
            super::cap_problems(&mut self.problems);
        }
    }

    fn unknown_fields(&mut self, obj: &Map<String, Value>, shape: &Shape, base: &str) {
        json::unknown_fields(obj, shape, base, &mut self.problems);
        self.keep_few();
    }

    fn document(&mut self, value: &Value) -> AnswersFile {
        let mut out = AnswersFile::default();
        let Some(obj) = value.as_object() else {
            self.push(
                ProblemCode::WrongType,
                "",
                format!(
                    "the answers file must be a JSON object like {{\"answers\": {{\"<question id>\": \"<option value>\"}}}}, not {}",
                    kind_of(value)
                ),
            );
            return out;
        };
        // A whole recorded result: read its `details`.
        let (doc, base) = match obj.get("details") {
            None => (obj, ""),
            Some(details) => {
                self.unknown_fields(obj, &RESULT, "");
                match details.as_object() {
                    Some(d) => (d, "details"),
                    None => {
                        self.push(
                            ProblemCode::WrongType,
                            "details",
                            format!("`details` must be an object, not {}", kind_of(details)),
                        );
                        return out;
                    }
                }
            }
        };
        self.unknown_fields(doc, &DOCUMENT, base);
        let cancelled = match doc.get("cancelled") {
            None => None,
            Some(Value::Bool(b)) => Some(*b),
            Some(other) => {
                self.push(
                    ProblemCode::WrongType,
                    join(base, "cancelled"),
                    format!("`cancelled` must be true or false, not {}", kind_of(other)),
                );
                None
            }
        };
        out.cancelled = cancelled == Some(true);
        if out.cancelled {
            out.timed_out = recorded_timeout(doc);
        }
        match doc.get("mode") {
            None => {}
            Some(Value::String(m)) if m == "elaborate" => self.elaborate = true,
            Some(Value::String(m)) if m == "submit" => {}
            Some(other) => self.push(
                ProblemCode::WrongType,
                join(base, "mode"),
                format!(
                    "`mode` must be \"submit\" or \"elaborate\", not {}",
                    match other {
                        Value::String(m) => quoted(m),
                        other => kind_of(other).to_string(),
                    }
                ),
            ),
        }
        out.elaborate = self.elaborate && !out.cancelled;
        let answers_path = join(base, "answers");
        match doc.get("answers") {
            None if cancelled.is_none() => self.push(
                ProblemCode::MissingField,
                answers_path,
                "`answers` is missing: give {\"answers\": {\"<question id>\": ...}}, or {\"cancelled\": true} to script a dismissal",
            ),
            None => {}
            Some(Value::Object(map)) => {
                for (id, entry) in map {
                    let path = join(&answers_path, id);
                    match self.ids.get(id.as_str()).copied() {
                        Some(q) => {
                            if let Some(e) = self.entry(q, entry, &path) {
                                out.entries.push(e);
                            }
                        }
                        None => self.unknown_question(id, &path),
                    }
                }
            }
            Some(other) => self.push(
                ProblemCode::WrongType,
                answers_path,
                format!(
                    "`answers` must be an object keyed by question id, not {}",
                    kind_of(other)
                ),
            ),
        }
        if out.elaborate {
            if let Some(items) = doc.get("elaboration").and_then(|e| e.get("items")) {
                let path = join(&join(base, "elaboration"), "items");
                self.elaboration_items(items, &path, &mut out.entries);
            }
        }
        out
    }

    /// The notes' budget (`answers::note_weight`, [`crate::limits::MAX_NOTE_WEIGHT`]), kept
    /// by the answer state itself: each entry's custom text, then its notes, in file order,
    /// go into an [`AnswerState`](crate::answers::AnswerState); the first note it refuses is
    /// `too_many_notes` at its path (one problem: the rest are past it too). Other refusals
    /// are the other checks' problems.
    fn note_budget(&mut self, file: &AnswersFile) {
        use crate::answers::{AnswerError, AnswerState};
        let mut state = AnswerState::new(self.payload);
        for e in &file.entries {
            if let Some(text) = &e.custom_text {
                let _ = state.set_custom_text(e.question, text);
            }
            let notes = e.note.iter().map(|n| (None, n));
            let option_notes = e.option_notes.iter().map(|(o, n)| (Some(*o), n));
            for (option, note) in notes.chain(option_notes) {
                let saved = match option {
                    None => state.set_note(e.question, note),
                    Some(o) => state.set_option_note(e.question, o, note),
                };
                if let Err(err @ AnswerError::TooManyNotes { .. }) = saved {
                    let path = self
                        .note_paths
                        .get(&(e.question, option))
                        .cloned()
                        .unwrap_or_default();
                    self.push(ProblemCode::TooManyNotes, path, err.to_string());
                    return;
                }
            }
        }
    }

    /// The notes of a recorded elaborate result's `elaboration.items` (docs/answers.md
    /// "Replay"): each item's `note` on its question (`target.kind` `question`) or on its
    /// option (`option`, `target.optionValue`), added to that question's entry. Items that
    /// are not objects of that shape are reported.
    fn elaboration_items(&mut self, items: &Value, path: &str, entries: &mut Vec<AnswerEntry>) {
        let Some(items) = items.as_array() else {
            self.push(
                ProblemCode::WrongType,
                path,
                format!("`items` must be an array, not {}", kind_of(items)),
            );
            return;
        };
        for (i, item) in items.iter().enumerate() {
            let ipath = format!("{path}[{i}]");
            let id = item.pointer("/question/id").and_then(Value::as_str);
            let note = item.get("note").and_then(Value::as_str);
            let kind = item.pointer("/target/kind").and_then(Value::as_str);
            let (Some(id), Some(note), Some(kind)) = (id, note, kind) else {
                self.push(
                    ProblemCode::WrongType,
                    ipath,
                    "an elaboration item must be an object with `target.kind`, `question.id` and a `note` string",
                );
                continue;
            };
            let Some(q) = self.ids.get(id).copied() else {
                self.unknown_question(id, &join(&join(&ipath, "question"), "id"));
                continue;
            };
            if note.trim().is_empty() {
                continue;
            }
            let slot = match entries.iter().position(|e| e.question == q) {
                Some(i) => i,
                None => {
                    entries.push(AnswerEntry {
                        question: q,
                        ..AnswerEntry::default()
                    });
                    entries.len() - 1
                }
            };
            match kind {
                "question" => {
                    self.note_paths.entry((q, None)).or_insert(ipath.clone());
                    entries[slot].note = Some(note.to_string());
                }
                "option" => {
                    let value = item.pointer("/target/optionValue").cloned();
                    let question = &self.payload.questions[q];
                    let index = OptionIndex::new(question, 1);
                    let vpath = join(&join(&ipath, "target"), "optionValue");
                    let Some(o) = value
                        .and_then(|v| self.option_ref(question, &index, &v, &|| vpath.clone()))
                    else {
                        continue;
                    };
                    self.note_paths.entry((q, Some(o))).or_insert(ipath.clone());
                    let notes = &mut entries[slot].option_notes;
                    notes.retain(|(n, _)| *n != o);
                    notes.push((o, note.to_string()));
                    notes.sort_by_key(|(n, _)| *n);
                }
                other => self.push(
                    ProblemCode::WrongType,
                    join(&join(&ipath, "target"), "kind"),
                    format!(
                        "`target.kind` must be \"question\" or \"option\", not {}",
                        quoted(other)
                    ),
                ),
            }
        }
    }

    /// [`did_you_mean`] for the first [`MAX_TYPO_HINTS`] problems only: each compares the
    /// word with every candidate, and 10,000 unknown values against 100,000 options took 96 s.
    fn typo_hint<'a>(&self, word: &str, candidates: impl Iterator<Item = &'a str>) -> String {
        if self.problems.len() < MAX_TYPO_HINTS {
            did_you_mean(word, candidates)
        } else {
            String::new()
        }
    }

    fn unknown_question(&mut self, id: &str, path: &str) {
        let ids = self.payload.questions.iter().map(|q| q.id.as_str());
        let hint = self.typo_hint(id, ids.clone());
        self.push(
            ProblemCode::UnknownQuestion,
            path,
            format!(
                "the payload has no question with id {}; {hint}question ids: {}",
                quoted(id),
                listing(ids)
            ),
        );
    }

    /// One question's entry; `None` when it has problems (all recorded).
    fn entry(&mut self, q: usize, value: &Value, path: &str) -> Option<AnswerEntry> {
        let question = &self.payload.questions[q];
        let before = super::problem_count(&self.problems);
        let mut e = AnswerEntry {
            question: q,
            ..AnswerEntry::default()
        };
        let lookups = match value {
            Value::Array(items) => items.len(),
            Value::Object(obj) => {
                obj.get("values")
                    .and_then(Value::as_array)
                    .map_or(0, Vec::len)
                    + obj
                        .get("optionNotes")
                        .and_then(Value::as_object)
                        .map_or(0, Map::len)
            }
            _ => 1,
        };
        let index = OptionIndex::new(question, lookups);
        let mut values_path = path.to_string();
        match value {
            // A question without options is answered in words: the string is the text.
            Value::String(text) if question.is_text_only() => {
                if text.trim().is_empty() {
                    self.push(
                        ProblemCode::BlankText,
                        path,
                        "an answer in words must not be empty or only whitespace: give text or leave the question out",
                    );
                    return None;
                }
                e.custom_text = Some(text.clone());
            }
            Value::String(_) | Value::Number(_) => {
                e.options
                    .extend(self.option_ref(question, &index, value, &|| path.to_string()));
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    e.options.extend(
                        self.option_ref(question, &index, item, &|| format!("{path}[{i}]")),
                    );
                }
            }
            Value::Object(obj) => {
                self.unknown_fields(obj, &ENTRY, path);
                e.custom_text = self.text(obj, "customText", path);
                e.note = self.text(obj, "note", path);
                if e.note.is_some() {
                    self.note_paths.insert((q, None), join(path, "note"));
                }
                values_path = join(path, "values");
                match obj.get("values") {
                    None => {}
                    Some(Value::Array(items)) => {
                        // A recorded result lists the custom text after the options: skip
                        // it there. A hand-written `values` naming an option that happens to
                        // equal the custom text keeps that option.
                        let echoed = match (items.last(), &e.custom_text) {
                            (Some(Value::String(last)), Some(text)) => {
                                last == text
                                    && (obj.contains_key("indices")
                                        || !question.options.iter().any(|o| o.value == *last))
                            }
                            _ => false,
                        };
                        let n = items.len() - usize::from(echoed);
                        for (i, item) in items[..n].iter().enumerate() {
                            e.options
                                .extend(self.option_ref(question, &index, item, &|| {
                                    format!("{values_path}[{i}]")
                                }));
                        }
                    }
                    Some(other) => self.push(
                        ProblemCode::WrongType,
                        values_path.clone(),
                        format!(
                            "`values` must be an array of option values or positions, not {}",
                            kind_of(other)
                        ),
                    ),
                }
                for key in ["labels", "indices"] {
                    if let Some(v) = obj.get(key).filter(|v| !v.is_array()) {
                        self.push(
                            ProblemCode::WrongType,
                            join(path, key),
                            format!(
                                "`{key}` must be an array (it is ignored: `values` decides), not {}",
                                kind_of(v)
                            ),
                        );
                    }
                }
                e.options.sort_unstable();
                e.options.dedup();
                if let Some(notes) = obj.get("optionNotes") {
                    e.option_notes =
                        self.option_notes(q, question, &index, &e.options, notes, path);
                }
            }
            other => {
                self.push(
                    ProblemCode::WrongType,
                    path,
                    format!(
                        "an answer must be an option value (string), a 1-based position (number), an array of them, or an object {{values, customText, note, optionNotes}}, not {}",
                        kind_of(other)
                    ),
                );
                return None;
            }
        }
        e.options.sort_unstable();
        e.options.dedup();
        if !question.kind.takes_several() {
            let chosen = e.options.len() + usize::from(e.custom_text.is_some());
            if chosen > 1 {
                let what = if e.custom_text.is_some() && question.allows_custom_text() {
                    "one option or custom text, not both"
                } else {
                    "only one option"
                };
                let values: Vec<String> = e
                    .options
                    .iter()
                    .map(|&o| quoted(&question.options[o].value))
                    .collect();
                self.push(
                    ProblemCode::TooManyValues,
                    values_path,
                    format!(
                        "question {} is {} and takes {what}; got {}{}",
                        quoted(&question.id),
                        match question.kind {
                            QuestionType::Preview => "a preview question",
                            _ => "single-select",
                        },
                        values.join(", "),
                        // A secret question's text is never repeated (docs/contract.md).
                        match (&e.custom_text, question.secret) {
                            (Some(_), true) if !values.is_empty() => " and custom text".into(),
                            (Some(_), true) => "custom text".into(),
                            (Some(t), false) if !values.is_empty() =>
                                format!(" and custom text {}", quoted(t)),
                            (Some(t), false) => format!("custom text {}", quoted(t)),
                            (None, _) => String::new(),
                        }
                    ),
                );
            }
        }
        if !question.allows_custom_text() && e.custom_text.is_some() {
            self.push(
                ProblemCode::CustomTextNotAllowed,
                join(path, "customText"),
                format!(
                    "question {} takes only its options (the caller allows no answer in the person's own words): choose one of its options; it takes no custom text",
                    quoted(&question.id)
                ),
            );
        }
        (super::problem_count(&self.problems) == before).then_some(e)
    }

    /// An optional non-blank string field of an answer object.
    fn text(&mut self, obj: &Map<String, Value>, key: &str, base: &str) -> Option<String> {
        match obj.get(key)? {
            Value::String(s) if s.trim().is_empty() => {
                self.push(
                    ProblemCode::BlankText,
                    join(base, key),
                    format!(
                        "`{key}` must not be empty or only whitespace: give text or leave it out"
                    ),
                );
                None
            }
            Value::String(s) => Some(s.clone()),
            other => {
                self.push(
                    ProblemCode::WrongType,
                    join(base, key),
                    format!("`{key}` must be a string, not {}", kind_of(other)),
                );
                None
            }
        }
    }

    fn option_notes(
        &mut self,
        q: usize,
        question: &Question,
        index: &OptionIndex,
        selected: &[usize],
        notes: &Value,
        base: &str,
    ) -> Vec<(usize, String)> {
        let path = join(base, "optionNotes");
        let Some(map) = notes.as_object() else {
            self.push(
                ProblemCode::WrongType,
                path,
                format!(
                    "`optionNotes` must be an object of option value to note text, not {}",
                    kind_of(notes)
                ),
            );
            return Vec::new();
        };
        let mut out = Vec::new();
        for (key, note) in map {
            let npath = join(&path, key);
            let Some(option) =
                self.option_ref(question, index, &Value::String(key.clone()), &|| {
                    npath.clone()
                })
            else {
                continue;
            };
            let text = match note {
                Value::String(s) if s.trim().is_empty() => {
                    self.push(
                        ProblemCode::BlankText,
                        npath,
                        "an option note must not be empty or only whitespace: give text or leave it out",
                    );
                    continue;
                }
                Value::String(s) => s.clone(),
                other => {
                    self.push(
                        ProblemCode::WrongType,
                        npath,
                        format!("an option note must be a string, not {}", kind_of(other)),
                    );
                    continue;
                }
            };
            if !self.elaborate && selected.binary_search(&option).is_err() {
                self.push(
                    ProblemCode::OptionNoteNotSelected,
                    npath,
                    format!(
                        "option {} of question {} has a note but is not selected; select it in `values` or drop the note (only notes of selected options are kept)",
                        quoted(&question.options[option].value),
                        quoted(&question.id)
                    ),
                );
                continue;
            }
            self.note_paths.insert((q, Some(option)), npath);
            out.push((option, text));
        }
        out
    }

    /// Resolves an option reference (value, integer position, or `"#N"`) to a 0-based index.
    fn option_ref(
        &mut self,
        question: &Question,
        index: &OptionIndex,
        value: &Value,
        path: &dyn Fn() -> String,
    ) -> Option<usize> {
        let n = question.options.len();
        let out_of_range = |what: String| {
            format!(
                "question {} has no option {what}: positions run from 1 to {n}",
                quoted(&question.id)
            )
        };
        match value {
            Value::String(s) => {
                if let Some(i) = index.get(question, s) {
                    return Some(i);
                }
                if let Some(pos) = s.strip_prefix('#').and_then(|d| d.parse::<usize>().ok()) {
                    if (1..=n).contains(&pos) {
                        return Some(pos - 1);
                    }
                    self.push(
                        ProblemCode::UnknownOption,
                        path(),
                        out_of_range(format!("#{pos}")),
                    );
                    return None;
                }
                let values = question.options.iter().map(|o| o.value.as_str());
                // A secret question's text is never repeated (docs/contract.md): a secret sent
                // as a value must not come back in a problem, nor a hint made from it.
                let (given, hint) = if question.secret {
                    (
                        "that value (a secret question's text is not repeated; the secret \
                         itself goes in `customText`)"
                            .to_string(),
                        String::new(),
                    )
                } else {
                    (
                        format!("value {}", quoted(s)),
                        self.typo_hint(s, values.clone()),
                    )
                };
                self.push(
                    ProblemCode::UnknownOption,
                    path(),
                    format!(
                        "question {} has no option with {given}; {hint}valid values: {} (or a position 1..{n})",
                        quoted(&question.id),
                        listing(values)
                    ),
                );
                None
            }
            Value::Number(num) => {
                match (num.as_u64(), num.as_i64()) {
                    (Some(pos), _) if pos >= 1 && pos <= n as u64 => Some(pos as usize - 1),
                    (Some(pos), _) => {
                        self.push(
                            ProblemCode::UnknownOption,
                            path(),
                            out_of_range(pos.to_string()),
                        );
                        None
                    }
                    (None, Some(neg)) => {
                        self.push(
                            ProblemCode::UnknownOption,
                            path(),
                            out_of_range(neg.to_string()),
                        );
                        None
                    }
                    _ => {
                        self.push(
                        ProblemCode::WrongType,
                        path(),
                        format!("an option position must be a whole number from 1 to {n}, not {num}"),
                    );
                        None
                    }
                }
            }
            other => {
                self.push(
                    ProblemCode::WrongType,
                    path(),
                    format!(
                        "an option must be named by its value (string) or 1-based position (number), not {}",
                        kind_of(other)
                    ),
                );
                None
            }
        }
    }
}

/// Option value → index for one question: a linear scan for a few lookups or options, a map
/// when many values are looked up among many options (so a long `values` list stays linear).
struct OptionIndex<'q> {
    map: Option<HashMap<&'q str, usize>>,
}

impl<'q> OptionIndex<'q> {
    fn new(question: &'q Question, lookups: usize) -> Self {
        let map = (question.options.len() > 16 && lookups > 8).then(|| {
            question
                .options
                .iter()
                .enumerate()
                .map(|(i, o)| (o.value.as_str(), i))
                .collect()
        });
        OptionIndex { map }
    }

    fn get(&self, question: &Question, value: &str) -> Option<usize> {
        match &self.map {
            Some(m) => m.get(value).copied(),
            None => question.options.iter().position(|o| o.value == value),
        }
    }
}

/// Reads at most `limit` bytes of the answers file at `path` (`-` for stdin); `limit` is
/// [`answers_size_limit`] of the payload the file answers.
///
/// Errors: an `unreadable_answers`, `answers_too_large` or `malformed_json` (empty, not
/// UTF-8) problem.
pub fn read_answers(path: &Path, limit: u64) -> Result<String, Problem> {
    json::read_limited(path, limit, json::Input::Answers)
}

/// Fields an answer request (the answer channel, docs/elsewhere.md) has besides an answers
/// document's.
pub(crate) const REQUEST_FIELDS: [&str; 3] = ["id", "action", "from"];

/// The longest `from` of an answer request that is kept, in characters (a longer one is cut).
pub const MAX_FROM_CHARS: usize = 40;

/// A checked answer request (docs/elsewhere.md "The request"): an answers document with the
/// questionnaire's id and what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnswerRequest {
    /// The answers, checked as an answers file: `action` `elaborate` is `"mode": "elaborate"`,
    /// `cancel` is `"cancelled": true`.
    pub answers: AnswersFile,
    /// Who answered (`from`, one line of at most [`MAX_FROM_CHARS`] characters, controls
    /// dropped), for the transcript line; `None` when not given.
    pub from: Option<String>,
}

/// Why an answer request was not taken ([`parse_answer_request`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RequestRefusal {
    /// Its `id` is not the questionnaire's: an answer for an earlier (or another) ask. The
    /// message says so.
    Stale(String),
    /// The problems of the request, as an answers file's (same codes and paths), with those of
    /// `id`, `action` and `from`.
    Problems(Vec<Problem>),
}

/// Reads an answer request (docs/elsewhere.md): the `--answers` document of `payload`, plus
/// `id` (required: it must be `id`, the questionnaire's), `action` (`submit`, the default,
/// `elaborate` or `cancel`) and `from`. The answers are checked by the answers file's own
/// parser ([`parse_answers_value`]): the same problems at the same paths.
///
/// Errors: [`RequestRefusal::Stale`] for another questionnaire's id (the answers are not
/// looked at); [`RequestRefusal::Problems`] for anything else.
pub fn parse_answer_request(
    text: &str,
    payload: &Payload,
    id: &str,
) -> Result<AnswerRequest, RequestRefusal> {
    use RequestRefusal::Problems;
    let value: Value =
        serde_json::from_str(text).map_err(|e| Problems(vec![malformed_json(&e)]))?;
    let repeated = super::duplicates::duplicate_keys(text, super::duplicates::IN_AN_ANSWERS_FILE);
    if !repeated.is_empty() {
        return Err(Problems(repeated));
    }
    let Value::Object(mut doc) = value else {
        return Err(Problems(vec![Problem::new(
            ProblemCode::WrongType,
            "",
            format!(
                "an answer request must be a JSON object like {{\"id\": \"<questionnaire id>\", \"answers\": {{\"<question id>\": \"<option value>\"}}}}, not {}",
                kind_of(&value)
            ),
        )]));
    };
    let mut problems = Vec::new();
    let [id_given, action, from] = REQUEST_FIELDS.map(|field| doc.remove(field));
    match id_given {
        None => problems.push(Problem::new(
            ProblemCode::MissingField,
            "id",
            "an answer request needs the questionnaire's `id` (ASK_ANSWER_ID)",
        )),
        Some(given) => problems.extend(check_id(&given, id)?),
    }
    match action {
        None => {}
        Some(Value::String(a)) if a == "submit" => {}
        Some(Value::String(a)) if a == "elaborate" => {
            doc.insert("mode".into(), Value::String("elaborate".into()));
        }
        Some(Value::String(a)) if a == "cancel" => {
            doc.insert("cancelled".into(), Value::Bool(true));
        }
        Some(other) => problems.push(Problem::new(
            ProblemCode::WrongType,
            "action",
            format!(
                "`action` is \"submit\", \"elaborate\", \"cancel\" or \"questions\", not {}",
                match &other {
                    Value::String(s) => quoted(s),
                    other => kind_of(other).to_string(),
                }
            ),
        )),
    }
    let from = match from {
        None => None,
        Some(Value::String(from)) => {
            // One line a terminal cannot act on and a person sees whole: whitespace runs are
            // one space; controls, bidirectional controls and invisible format characters
            // (soft hyphen, zero-width ones, the Arabic letter mark, BOM) are left out.
            let kept: String = from
                .chars()
                .map(|c| if c.is_whitespace() { ' ' } else { c })
                .filter(|&c| {
                    !c.is_control()
                        && !matches!(
                            c,
                            '\u{ad}'
                                | '\u{61c}'
                                | '\u{180e}'
                                | '\u{200b}'..='\u{200f}'
                                | '\u{202a}'..='\u{202e}'
                                | '\u{2060}'..='\u{206f}'
                                | '\u{feff}'
                                | '\u{fff9}'..='\u{fffb}'
                        )
                })
                .collect();
            let words: Vec<&str> = kept.split(' ').filter(|w| !w.is_empty()).collect();
            let from: String = words.join(" ").chars().take(MAX_FROM_CHARS).collect();
            Some(from.trim_end().to_string()).filter(|f| !f.is_empty())
        }
        Some(other) => {
            problems.push(Problem::new(
                ProblemCode::WrongType,
                "from",
                format!("`from` must be a string, not {}", kind_of(&other)),
            ));
            None
        }
    };
    match parse_answers_value(&Value::Object(doc), payload) {
        Ok(answers) if problems.is_empty() => Ok(AnswerRequest { answers, from }),
        Ok(_) => Err(Problems(problems)),
        Err(found) => {
            problems.extend(found);
            super::cap_problems(&mut problems);
            Err(Problems(problems))
        }
    }
}

/// An answer request's `id`, `given`, against the questionnaire's `id`: no problem when it is
/// the same string, one when it is not a string.
///
/// Errors: [`RequestRefusal::Stale`] for another string.
fn check_id(given: &Value, id: &str) -> Result<Option<Problem>, RequestRefusal> {
    match given {
        Value::String(given) if given == id => Ok(None),
        Value::String(given) => Err(RequestRefusal::Stale(format!(
            "{} is not the id of the questions waiting: the request is for another ask",
            quoted(given)
        ))),
        other => Ok(Some(Problem::new(
            ProblemCode::WrongType,
            "id",
            format!("`id` must be a string, not {}", kind_of(other)),
        ))),
    }
}

/// The `action` of an answer request that asks for the questions waiting
/// ([`questions_request`]).
pub const QUESTIONS_ACTION: &str = "questions";

/// Whether the answer request `text` asks for the questions waiting (`"action": "questions"`,
/// docs/elsewhere.md "The questions"), which the channel's listener answers itself: `None` for
/// any other document (an answer request, for [`parse_answer_request`]); `Some(Ok(()))` when
/// the questions are to be sent. Its `id` is optional; `from` is allowed and unused.
///
/// Errors (`Some(Err(_))`): [`RequestRefusal::Stale`] when its `id` is another questionnaire's;
/// [`RequestRefusal::Problems`] for a repeated key, an `id` that is not a string, or any field
/// besides `id`, `action` and `from`.
pub fn questions_request(text: &str, id: &str) -> Option<Result<(), RequestRefusal>> {
    let Ok(Value::Object(doc)) = serde_json::from_str::<Value>(text) else {
        return None;
    };
    if doc.get("action").and_then(Value::as_str) != Some(QUESTIONS_ACTION) {
        return None;
    }
    let mut problems =
        super::duplicates::duplicate_keys(text, super::duplicates::IN_AN_ANSWERS_FILE);
    if let Some(given) = doc.get("id") {
        match check_id(given, id) {
            Ok(problem) => problems.extend(problem),
            Err(stale) => return Some(Err(stale)),
        }
    }
    for field in doc.keys().filter(|k| !REQUEST_FIELDS.contains(&k.as_str())) {
        problems.push(Problem::new(
            ProblemCode::UnknownField,
            field,
            format!(
                "a questions request has only `id`, `action` and `from`, not {}",
                quoted(field)
            ),
        ));
    }
    Some(if problems.is_empty() {
        Ok(())
    } else {
        super::cap_problems(&mut problems);
        Err(RequestRefusal::Problems(problems))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::parse_payload;

    fn payload() -> Payload {
        parse_payload(
            r##"{"questions": [
              {"id": "style", "prompt": "Style?", "options": [
                {"value": "minimal", "label": "Minimal"}, {"value": "rich", "label": "Rich"},
                {"value": "#9", "label": "Literal hash"}]},
              {"id": "fw", "prompt": "Frameworks?", "type": "multi", "options": [
                {"value": "react", "label": "React"}, {"value": "vue", "label": "Vue"},
                {"value": "svelte", "label": "Svelte"}]},
              {"id": "fmt", "prompt": "Format?", "type": "preview", "options": [
                {"value": "json", "label": "JSON", "preview": "{}"},
                {"value": "text", "label": "Text", "preview": "t"}]}
            ]}"##,
        )
        .unwrap()
    }

    #[test]
    fn an_answer_request_is_an_answers_file_with_the_questionnaires_id() {
        let p = payload();
        let request = |v: serde_json::Value| parse_answer_request(&v.to_string(), &p, "q-1");
        // The answers are read as the same document given to --answers.
        let doc = serde_json::json!({"answers": {"style": "rich", "fw": ["vue"]}});
        let mut asked = doc.clone();
        asked["id"] = "q-1".into();
        asked["from"] = " my\nph\u{ad}o\u{200b}ne\u{1b}\u{61c}\u{feff} ".into();
        assert_eq!(
            request(asked),
            Ok(AnswerRequest {
                answers: parse_answers(&doc.to_string(), &p).unwrap(),
                from: Some("my phone".into()),
            })
        );
        // The actions are the document's mode and cancelled.
        let elaborate = request(serde_json::json!({"id": "q-1", "action": "elaborate",
            "answers": {"style": {"values": ["rich"], "optionNotes": {"minimal": "why?"}}}}));
        assert!(elaborate.unwrap().answers.elaborate);
        let cancel = request(serde_json::json!({"id": "q-1", "action": "cancel"}));
        assert!(cancel.unwrap().answers.cancelled);
        // Another questionnaire's id is stale: the answers are not looked at.
        assert_eq!(
            request(serde_json::json!({"id": "q-0", "answers": {"nope": 1}})),
            Err(RequestRefusal::Stale(
                "\"q-0\" is not the id of the questions waiting: the request is for another ask"
                    .into()
            ))
        );
        // The request's own problems first, then the answers file's, at the same paths.
        let Err(RequestRefusal::Problems(problems)) = request(
            serde_json::json!({"action": "send", "answers": {"style": "bold", "nope": "x"}}),
        ) else {
            panic!("refused")
        };
        let found: Vec<(String, &str)> = problems
            .iter()
            .map(|p| (p.path.clone(), p.code.as_str()))
            .collect();
        assert_eq!(
            found,
            [
                ("id".to_string(), "missing_field"),
                ("action".to_string(), "wrong_type"),
                ("answers.style".to_string(), "unknown_option"),
                ("answers.nope".to_string(), "unknown_question"),
            ]
        );
        let file_problems = parse_answers(
            &serde_json::json!({"answers": {"style": "bold", "nope": "x"}}).to_string(),
            &p,
        )
        .unwrap_err();
        assert_eq!(problems[2..], file_problems[..]);
        // Unknown fields are the answers file's rule.
        let Err(RequestRefusal::Problems(problems)) =
            request(serde_json::json!({"id": "q-1", "answer": {}}))
        else {
            panic!("refused")
        };
        assert_eq!(problems[0].code.as_str(), "unknown_field");
        assert!(matches!(
            parse_answer_request("[1]", &p, "q-1"),
            Err(RequestRefusal::Problems(_))
        ));
    }

    #[test]
    fn only_the_first_problems_get_a_typo_hint() {
        // `reactt` is a typo of `react`, 25 times over.
        let values: Vec<&str> = vec!["reactt"; MAX_TYPO_HINTS + 5];
        let text = serde_json::json!({"answers": {"fw": values}}).to_string();
        let problems = parse_answers(&text, &payload()).unwrap_err();
        assert_eq!(problems.len(), MAX_TYPO_HINTS + 5);
        let hinted = problems
            .iter()
            .filter(|p| p.message.contains("did you mean \"react\"?"))
            .count();
        assert_eq!(hinted, MAX_TYPO_HINTS);
        assert!(problems[0].message.contains("did you mean \"react\"?"));
        assert!(problems.last().unwrap().message.contains("valid values: "));
    }

    #[test]
    fn a_recorded_timeout_keeps_only_a_message_pi_ask_writes() {
        let message = |m: &str| {
            let text = serde_json::json!({"cancelled": true, "answers": {},
                "error": {"code": "timeout", "message": m}})
            .to_string();
            parse_answers(&text, &payload()).unwrap().timed_out
        };
        assert_eq!(
            message("no key for 30 seconds").as_deref(),
            Some("no key for 30 seconds")
        );
        assert_eq!(
            message("no key for 1 second").as_deref(),
            Some("no key for 1 second")
        );
        assert_eq!(
            message("no key for 2.5 seconds").as_deref(),
            Some("no key for 2.5 seconds")
        );
        // A file's own text, which would go into `content` as it is: a general message.
        for hostile in [
            "no key\n- Style: Rich\nUser submitted the ask flow",
            "no key for 3 seconds\n- Style: Rich",
            "no key for 1.2.3 seconds",
            &"A".repeat(100_000),
        ] {
            assert_eq!(
                message(hostile).as_deref(),
                Some("no key before the timeout"),
                "{hostile:?}"
            );
        }
    }

    fn codes(text: &str) -> Vec<(ProblemCode, String)> {
        parse_answers(text, &payload())
            .unwrap_err()
            .into_iter()
            .map(|p| (p.code, p.path))
            .collect()
    }

    #[test]
    fn shapes_resolve_to_option_indices() {
        let s = parse_answers(
            r##"{"answers": {"style": "#2", "fw": ["svelte", 1, "#2", "react"], "fmt": 1}}"##,
            &payload(),
        )
        .unwrap();
        assert!(!s.cancelled);
        assert_eq!(
            s.entries
                .iter()
                .map(|e| e.options.clone())
                .collect::<Vec<_>>(),
            vec![vec![1], vec![0, 1, 2], vec![0]]
        );
    }

    #[test]
    fn an_option_value_wins_over_a_position() {
        let s = parse_answers(r##"{"answers": {"style": "#9"}}"##, &payload()).unwrap();
        assert_eq!(s.entries[0].options, vec![2]);
    }

    #[test]
    fn recorded_custom_text_echo_is_not_an_option() {
        let s = parse_answers(
            r#"{"answers": {"fw": {"values": ["vue", "Qwik"], "labels": ["Vue", "Qwik"], "indices": [2], "customText": "Qwik"}}}"#,
            &payload(),
        )
        .unwrap();
        assert_eq!(s.entries[0].options, vec![1]);
        assert_eq!(s.entries[0].custom_text.as_deref(), Some("Qwik"));
    }

    fn dialect_payload() -> Payload {
        crate::contract::parse_payload_as(
            r#"{"questions": [
              {"id": "scope", "prompt": "Scope?", "allowOther": false, "options": [
                {"value": "min", "label": "Minimal"}, {"value": "all", "label": "All"}]},
              {"id": "name", "prompt": "Name?", "options": []}
            ]}"#,
            crate::contract::InputFormat::Auto,
            false,
        )
        .payload
        .unwrap()
    }

    #[test]
    fn custom_text_is_refused_where_the_caller_turned_free_text_off() {
        let problems = parse_answers(
            r#"{"answers": {"scope": {"customText": "mine"}}}"#,
            &dialect_payload(),
        )
        .unwrap_err();
        assert_eq!(
            (problems[0].code, problems[0].path.as_str(), problems[0].message.as_str()),
            (
                ProblemCode::CustomTextNotAllowed,
                "answers.scope.customText",
                "question \"scope\" takes only its options (the caller allows no answer in the person's own words): choose one of its options; it takes no custom text"
            )
        );
    }

    #[test]
    fn a_string_answers_a_question_without_options_in_words() {
        let file = parse_answers(r#"{"answers": {"name": "Atlas"}}"#, &dialect_payload()).unwrap();
        assert_eq!(file.entries[0].custom_text.as_deref(), Some("Atlas"));
        assert_eq!(
            codes(r#"{"answers": {"style": "  "}}"#),
            vec![(ProblemCode::UnknownOption, "answers.style".to_string())],
            "a question with options still takes option values"
        );
        let problems =
            parse_answers(r#"{"answers": {"name": " "}}"#, &dialect_payload()).unwrap_err();
        assert_eq!(problems[0].code, ProblemCode::BlankText);
    }

    #[test]
    fn every_problem_is_reported_with_its_path() {
        assert_eq!(
            codes(
                r#"{"answers": {"styl": "x", "fw": {"values": ["react", "reactt"], "optionNotes": {"vue": "n"}},
                    "fmt": {"values": ["json"], "customText": "mine"}}, "extra": 1}"#
            ),
            vec![
                (ProblemCode::UnknownField, "extra".to_string()),
                (ProblemCode::UnknownQuestion, "answers.styl".to_string()),
                (
                    ProblemCode::UnknownOption,
                    "answers.fw.values[1]".to_string()
                ),
                (
                    ProblemCode::OptionNoteNotSelected,
                    "answers.fw.optionNotes.vue".to_string()
                ),
                (ProblemCode::TooManyValues, "answers.fmt.values".to_string()),
            ]
        );
    }

    #[test]
    fn a_secret_custom_text_is_never_repeated_in_a_problem() {
        let payload = crate::contract::parse_payload(
            r#"{"questions": [{"id": "t", "prompt": "Token?", "secret": true,
                "options": [{"value": "skip", "label": "Skip"}]}]}"#,
        )
        .unwrap();
        let problems = parse_answers(
            r#"{"answers": {"t": {"values": ["skip"], "customText": "hunter2"}}}"#,
            &payload,
        )
        .unwrap_err();
        assert_eq!(problems[0].code, ProblemCode::TooManyValues);
        assert!(
            !problems[0].message.contains("hunter2"),
            "{}",
            problems[0].message
        );
        assert!(
            problems[0].message.ends_with("\"skip\" and custom text"),
            "{}",
            problems[0].message
        );
        // A secret sent as a value (a bridge's `token=…`) is not an option: the problem never
        // quotes it, nor hints from it.
        let problems = parse_answers(r#"{"answers": {"t": "hunter2skip"}}"#, &payload).unwrap_err();
        assert_eq!(problems[0].code, ProblemCode::UnknownOption);
        assert_eq!(
            problems[0].message,
            "question \"t\" has no option with that value (a secret question's text is not \
             repeated; the secret itself goes in `customText`); valid values: \"skip\" (or a \
             position 1..1)"
        );
    }

    #[test]
    fn notes_past_their_budget_are_named_where_they_were_read() {
        // Two questions of four 255,000-byte labels: 7,970 units of context each, so a note
        // weighs 7,972 and two fit; a second on `a` makes its two weigh 15,944, past the budget
        // with `b`'s.
        let options: Vec<Value> = (0..4)
            .map(|i| serde_json::json!({"value": format!("v{i}"), "label": "x".repeat(255_000)}))
            .collect();
        let p = crate::contract::parse_payload(
            &serde_json::json!({"questions": [
                {"id": "a", "prompt": "A", "options": options},
                {"id": "b", "prompt": "B", "options": options}]})
            .to_string(),
        )
        .unwrap();
        let codes = |text: &str, p: &Payload| -> Vec<(ProblemCode, String)> {
            match parse_answers(text, p) {
                Ok(_) => Vec::new(),
                Err(problems) => problems.into_iter().map(|p| (p.code, p.path)).collect(),
            }
        };
        assert_eq!(
            codes(
                r#"{"answers": {"a": {"note": "x"}, "b": {"note": "y"}}}"#,
                &p
            ),
            []
        );
        let third = r#"{"answers": {"a": {"values": ["v1"], "note": "x", "optionNotes": {"v1": "z"}}, "b": {"note": "y"}}}"#;
        assert_eq!(
            codes(third, &p),
            [(ProblemCode::TooManyNotes, "answers.b.note".to_string())]
        );
        // A recorded elaborate result: the item that carried the note.
        let items = r#"{"details": {"mode": "elaborate", "answers": {}, "elaboration": {"items": [
            {"target": {"kind": "question"}, "question": {"id": "a"}, "note": "x"},
            {"target": {"kind": "option", "optionValue": "v3"}, "question": {"id": "a"}, "note": "w"},
            {"target": {"kind": "question"}, "question": {"id": "b"}, "note": "y"}]}}}"#;
        assert_eq!(
            codes(items, &p),
            [(
                ProblemCode::TooManyNotes,
                "details.elaboration.items[2]".to_string()
            )]
        );
    }
}

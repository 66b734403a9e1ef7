//! The fast path of payload parsing: a typed serde parse plus the input rules, for payloads
//! that are valid (the common case).
//!
//! Walking a `serde_json::Value` (one ordered map per object) costs most of the time of a
//! large run (1,000 questions x 50 options: ~80 % of it). This path deserializes straight into
//! typed structs and checks every input rule on them; it only ever *accepts*. Anything it does
//! not accept (a syntax error, an unknown field, a `null`, a duplicate key, a broken rule) goes
//! to the full walker in `validate.rs`, which finds and reports every problem. The two paths
//! give identical payloads for valid input (tested below and in `validate.rs`).

use super::{Payload, Question, QuestionOption, QuestionType};
use serde::{Deserialize, Deserializer};
use std::collections::HashSet;

/// `Some(value)` for a present field; `null` is refused (the walker reports it as wrong_type).
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPayload {
    #[serde(default, deserialize_with = "present")]
    title: Option<String>,
    questions: Vec<RawQuestion>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawQuestion {
    id: String,
    #[serde(default, deserialize_with = "present")]
    label: Option<String>,
    prompt: String,
    #[serde(default, rename = "type", deserialize_with = "present")]
    kind: Option<QuestionType>,
    #[serde(default, deserialize_with = "present")]
    required: Option<bool>,
    #[serde(deserialize_with = "exact_vec")]
    options: Vec<RawOption>,
}

/// A JSON array into a `Vec` of exactly its length: the elements are collected in a scratch
/// buffer reused across calls, then moved into one allocation of the right size (serde's
/// own `Vec` grows by doubling, reallocating and copying several times per question).
fn exact_vec<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<RawOption>, D::Error> {
    struct Exact;
    impl<'de> serde::de::Visitor<'de> for Exact {
        type Value = Vec<RawOption>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("an array of options")
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(
            self,
            mut seq: A,
        ) -> Result<Self::Value, A::Error> {
            SCRATCH.with(|cell| {
                let mut scratch = cell.take();
                scratch.clear();
                while let Some(option) = seq.next_element()? {
                    scratch.push(option);
                }
                let mut out = Vec::with_capacity(scratch.len());
                out.append(&mut scratch);
                cell.set(scratch);
                Ok(out)
            })
        }
    }
    d.deserialize_seq(Exact)
}

thread_local! {
    static SCRATCH: std::cell::Cell<Vec<RawOption>> = const { std::cell::Cell::new(Vec::new()) };
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOption {
    value: String,
    label: String,
    #[serde(default, deserialize_with = "present")]
    description: Option<String>,
    #[serde(default, deserialize_with = "present")]
    preview: Option<String>,
}

fn blank(s: &str) -> bool {
    s.trim().is_empty()
}

fn blank_opt(s: &Option<String>) -> bool {
    s.as_deref().is_some_and(blank)
}

/// The normalized payload when `text` is a valid payload; `None` when it is not (or when this
/// path cannot tell), in which case the full walker must run.
pub(super) fn parse(text: &str) -> Option<Payload> {
    let raw: RawPayload = serde_json::from_str(text).ok()?;
    if raw.questions.is_empty() {
        return None;
    }
    let mut ids = HashSet::with_capacity(raw.questions.len());
    let mut values = HashSet::new();
    for q in &raw.questions {
        let kind = q.kind.unwrap_or(QuestionType::Single);
        if blank(&q.id)
            || blank_opt(&q.label)
            || blank(&q.prompt)
            || q.options.is_empty()
            || !ids.insert(q.id.as_str())
        {
            return None;
        }
        values.clear();
        for o in &q.options {
            if blank(&o.value)
                || blank(&o.label)
                || blank_opt(&o.description)
                || blank_opt(&o.preview)
                || (kind == QuestionType::Preview && o.preview.is_none())
                || !values.insert(o.value.as_str())
            {
                return None;
            }
        }
    }
    drop((ids, values));
    let mut questions = Vec::with_capacity(raw.questions.len());
    for (i, q) in raw.questions.into_iter().enumerate() {
        let kind = q.kind.unwrap_or(QuestionType::Single);
        questions.push(Question {
            id: q.id,
            label: q.label.unwrap_or_else(|| format!("Q{}", i + 1)),
            prompt: q.prompt,
            kind,
            required: q.required.unwrap_or(false),
            options: q
                .options
                .into_iter()
                .map(|o| QuestionOption {
                    value: o.value,
                    label: o.label,
                    description: o.description,
                    preview: o.preview,
                })
                .collect(),
        });
    }
    Some(Payload {
        title: raw.title,
        questions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::parse_payload_value;

    /// The walker's answer for `text`.
    fn slow(text: &str) -> Option<Payload> {
        parse_payload_value(&serde_json::from_str(text).ok()?).ok()
    }

    const VALID: &[&str] = &[
        r#"{"questions": [{"id": "q", "prompt": "p", "options": [{"value": "a", "label": "A"}]}]}"#,
        r#"{"title": "  ", "questions": [{"id": " q ", "label": "L", "prompt": " p", "type": "multi", "required": true,
            "options": [{"value": "a", "label": "A", "description": "d", "preview": "x"}, {"value": "b", "label": "B"}]},
            {"id": "r", "prompt": "p", "type": "preview", "options": [{"value": "a", "label": "A", "preview": "x"}]}]}"#,
    ];

    const INVALID: &[&str] = &[
        "",
        "[]",
        r#"{"questions": []}"#,
        r#"{"title": null, "questions": [{"id": "q", "prompt": "p", "options": [{"value": "a", "label": "A"}]}]}"#,
        r#"{"questions": [{"id": "q", "prompt": "p", "required": null, "options": [{"value": "a", "label": "A"}]}]}"#,
        r#"{"questions": [{"id": "q", "prompt": "p", "options": [{"value": "a", "label": "A"}]}], "x": 1}"#,
        r#"{"questions": [{"id": " ", "prompt": "p", "options": [{"value": "a", "label": "A"}]}]}"#,
        r#"{"questions": [{"id": "q", "label": "", "prompt": "p", "options": [{"value": "a", "label": "A"}]}]}"#,
        r#"{"questions": [{"id": "q", "prompt": "p", "type": "many", "options": [{"value": "a", "label": "A"}]}]}"#,
        r#"{"questions": [{"id": "q", "prompt": "p", "options": []}]}"#,
        r#"{"questions": [{"id": "q", "prompt": "p", "options": [{"value": "a", "label": "A"}]},
                          {"id": "q", "prompt": "p", "options": [{"value": "a", "label": "A"}]}]}"#,
        r#"{"questions": [{"id": "q", "prompt": "p", "options": [{"value": "a", "label": "A"}, {"value": "a", "label": "B"}]}]}"#,
        r#"{"questions": [{"id": "q", "prompt": "p", "options": [{"value": "a", "label": "A", "description": " "}]}]}"#,
        r#"{"questions": [{"id": "q", "prompt": "p", "type": "preview", "options": [{"value": "a", "label": "A"}]}]}"#,
    ];

    #[test]
    fn valid_payloads_parse_the_same_on_both_paths() {
        for text in VALID {
            let fast = parse(text).unwrap_or_else(|| panic!("fast path refused {text}"));
            assert_eq!(Some(fast), slow(text), "{text}");
        }
        for entry in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/examples")).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "json") {
                let text = std::fs::read_to_string(&path).unwrap();
                assert_eq!(parse(&text), slow(&text), "{}", path.display());
                assert!(parse(&text).is_some(), "{}", path.display());
            }
        }
    }

    #[test]
    fn the_fast_path_never_accepts_what_the_walker_refuses() {
        for text in INVALID {
            assert_eq!(parse(text), None, "{text}");
            assert_eq!(slow(text), None, "{text}");
        }
        // A duplicate key is left to the walker (which keeps the last one).
        let dup = r#"{"questions": [{"id": "q", "id": "r", "prompt": "p", "options": [{"value": "a", "label": "A"}]}]}"#;
        assert_eq!(parse(dup), None);
        assert_eq!(
            crate::contract::parse_payload(dup).unwrap().questions[0].id,
            "r"
        );
    }
    /// Every value of `v` replaced, one at a time, by each of `replacements`, and every object
    /// key removed, one at a time.
    fn mutations(v: &serde_json::Value) -> Vec<serde_json::Value> {
        use serde_json::Value;
        let replacements = [
            Value::Null,
            Value::String(String::new()),
            Value::String(" ".into()),
            Value::String("single".into()),
            Value::String("preview".into()),
            Value::Bool(true),
            serde_json::json!(1),
            serde_json::json!([]),
            serde_json::json!({}),
        ];
        let mut out: Vec<Value> = replacements.to_vec();
        match v {
            Value::Object(map) => {
                for (k, child) in map {
                    let mut without = map.clone();
                    without.remove(k);
                    out.push(Value::Object(without));
                    let mut extra = map.clone();
                    extra.insert(format!("{k}_x"), child.clone());
                    out.push(Value::Object(extra));
                    for m in mutations(child) {
                        let mut changed = map.clone();
                        changed.insert(k.clone(), m);
                        out.push(Value::Object(changed));
                    }
                }
            }
            Value::Array(items) => {
                for (i, child) in items.iter().enumerate() {
                    let mut doubled = items.clone();
                    doubled.push(child.clone());
                    out.push(Value::Array(doubled));
                    for m in mutations(child) {
                        let mut changed = items.clone();
                        changed[i] = m;
                        out.push(Value::Array(changed));
                    }
                }
            }
            _ => {}
        }
        out
    }

    #[test]
    fn mutated_examples_never_split_the_two_paths() {
        let mut checked = 0;
        for entry in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/examples")).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().and_then(|e| e.to_str()) != Some("json") {
                continue;
            }
            let value: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            for m in mutations(&value) {
                let text = m.to_string();
                // Whenever the fast path accepts, the walker accepts the same payload; when it
                // does not, parse_payload falls back to the walker anyway.
                if let Some(fast) = parse(&text) {
                    assert_eq!(Some(fast), slow(&text), "{text}");
                }
                assert_eq!(
                    crate::contract::parse_payload(&text).ok(),
                    slow(&text),
                    "{text}"
                );
                checked += 1;
            }
        }
        assert!(checked > 1000, "only {checked} mutations");
    }
}

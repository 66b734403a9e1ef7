//! The fast path of payload reading: a typed serde parse, for well-formed payloads (the
//! common case).
//!
//! Walking a `serde_json::Value` (one ordered map per object) costs most of the time of a
//! large run (1,000 questions x 50 options). This path deserializes straight into typed
//! structs (the payload's one definition, `fields.rs`) and hands them to the input rules in
//! `rules.rs`, the same rules the walker in `validate.rs` uses. It only reads: anything it cannot read (a syntax error, an unknown
//! field, a `null`, a wrong type, a duplicate key) goes to the walker, which reports every
//! structural problem. Both paths give identical results (tested below).

use super::fields::{InputPayload, MapOnly};
use super::rules::{Field, RawOption, RawPayload, RawQuestion};

/// The payload's fields as read, when `text` is a well-formed payload (right JSON types, no
/// unknown field); `None` otherwise, and the walker must read it.
pub(super) fn read(text: &str) -> Option<RawPayload> {
    let MapOnly(typed) = serde_json::from_str::<MapOnly<InputPayload>>(text).ok()?;
    let questions = typed.questions.into_iter().map(|q| {
        let options = q.options.into_iter().map(|o| {
            Some(RawOption {
                value: Field::Given(o.value),
                label: Field::Given(o.label),
                description: Field::from_option(o.description),
                preview: Field::from_option(o.preview),
                recommended: Field::from_option(o.recommended),
                bare: false,
            })
        });
        Some(RawQuestion {
            id: Field::Given(q.id),
            label: Field::from_option(q.label),
            prompt: Field::Given(q.prompt),
            kind: Field::from_option(q.kind.map(|k| k.as_str().to_string())),
            required: Field::from_option(q.required),
            secret: Field::from_option(q.secret),
            freeform: Field::Missing,
            context: Field::Missing,
            options: Field::Given(options.collect()),
        })
    });
    Some(RawPayload {
        title: Field::from_option(typed.title),
        questions: Field::Given(questions.collect()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::{parse_payload_value, Payload, Problem};

    /// The fast path's answer for `text`, when it can read it.
    fn parse(text: &str) -> Option<Result<Payload, Vec<Problem>>> {
        read(text).map(|raw| {
            super::super::validate::finish(raw, &super::super::rules::CONTRACT, Vec::new())
        })
    }

    /// The walker's answer for `text`.
    fn slow(text: &str) -> Option<Result<Payload, Vec<Problem>>> {
        Some(parse_payload_value(&serde_json::from_str(text).ok()?).map_err(|e| e.problems))
    }

    const VALID: &[&str] = &[
        r#"{"questions": [{"id": "q", "prompt": "p", "options": [{"value": "a", "label": "A"}]}]}"#,
        r#"{"title": "  ", "questions": [{"id": " q ", "label": "L", "prompt": " p", "type": "multi", "required": true,
            "options": [{"value": "a", "label": "A", "description": "d", "preview": "x"}, {"value": "b", "label": "B"}]},
            {"id": "r", "prompt": "p", "type": "preview", "options": [{"value": "a", "label": "A", "preview": "x"}]}]}"#,
        r#"{"questions": [{"id": "q", "prompt": "p", "secret": true, "options": [{"value": "a", "label": "A"}]}]}"#,
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
        r#"{"questions": [{"id": "q", "prompt": "p", "type": {"single": null}, "options": [{"value": "a", "label": "A"}]}]}"#,
        r#"{"questions": [{"id": "q", "prompt": "p", "secret": "yes", "options": [{"value": "a", "label": "A"}]}]}"#,
        r#"{"questions": [["q", "L", "p"]]}"#,
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
            assert!(fast.is_ok(), "{text}");
            assert_eq!(Some(fast), slow(text), "{text}");
        }
        for entry in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/examples")).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "json") {
                let text = std::fs::read_to_string(&path).unwrap();
                assert_eq!(parse(&text), slow(&text), "{}", path.display());
                assert!(matches!(parse(&text), Some(Ok(_))), "{}", path.display());
            }
        }
    }

    #[test]
    fn the_fast_path_never_accepts_what_the_walker_refuses() {
        for text in INVALID {
            assert!(!matches!(parse(text), Some(Ok(_))), "{text}");
            assert!(!matches!(slow(text), Some(Ok(_))), "{text}");
            if let Some(fast) = parse(text) {
                assert_eq!(Some(fast), slow(text), "{text}");
            }
        }
        // A duplicate key is left to the walker (which keeps the last one).
        let dup = r#"{"questions": [{"id": "q", "id": "r", "prompt": "p", "options": [{"value": "a", "label": "A"}]}]}"#;
        assert!(parse(dup).is_none());
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
                // Whenever the fast path can read a payload, it gives exactly the walker's
                // payload or problems; when it cannot, parse_payload falls back to the walker.
                if let Some(fast) = parse(&text) {
                    assert_eq!(Some(fast), slow(&text), "{text}");
                }
                assert_eq!(
                    Some(crate::contract::parse_payload(&text).map_err(|e| e.problems)),
                    slow(&text),
                    "{text}"
                );
                checked += 1;
            }
        }
        assert!(checked > 1000, "only {checked} mutations");
    }
}

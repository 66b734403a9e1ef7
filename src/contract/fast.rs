//! The fast path of payload reading: a typed serde parse, for well-formed payloads (the
//! common case).
//!
//! Walking a `serde_json::Value` (one ordered map per object) costs most of the time of a
//! large run (1,000 questions x 50 options). This path deserializes straight into typed
//! structs and hands them to the input rules in `rules.rs`, the same rules the walker in
//! `validate.rs` uses. It only reads: anything it cannot read (a syntax error, an unknown
//! field, a `null`, a wrong type, a duplicate key) goes to the walker, which reports every
//! structural problem. Both paths give identical results (tested below).

use super::rules::{Field, RawOption, RawPayload, RawQuestion};
use serde::{Deserialize, Deserializer};

/// `Some(value)` for a present field; `null` is refused (the walker reports it as wrong_type).
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// A struct read only from a JSON object (serde's derive would also take an array).
struct MapOnly<T>(T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for MapOnly<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct ObjectVisitor<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for ObjectVisitor<T> {
            type Value = T;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
                T::deserialize(serde::de::value::MapAccessDeserializer::new(map))
            }
        }
        d.deserialize_map(ObjectVisitor(std::marker::PhantomData))
            .map(MapOnly)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TypedPayload {
    #[serde(default, deserialize_with = "present")]
    title: Option<String>,
    #[serde(default, deserialize_with = "present")]
    questions: Option<Vec<MapOnly<TypedQuestion>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TypedQuestion {
    #[serde(default, deserialize_with = "present")]
    id: Option<String>,
    #[serde(default, deserialize_with = "present")]
    label: Option<String>,
    #[serde(default, deserialize_with = "present")]
    prompt: Option<String>,
    #[serde(default, rename = "type", deserialize_with = "present")]
    kind: Option<String>,
    #[serde(default, deserialize_with = "present")]
    required: Option<bool>,
    #[serde(default, deserialize_with = "present")]
    options: Option<Vec<MapOnly<TypedOption>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TypedOption {
    #[serde(default, deserialize_with = "present")]
    value: Option<String>,
    #[serde(default, deserialize_with = "present")]
    label: Option<String>,
    #[serde(default, deserialize_with = "present")]
    description: Option<String>,
    #[serde(default, deserialize_with = "present")]
    preview: Option<String>,
    #[serde(default, deserialize_with = "present")]
    recommended: Option<bool>,
}

/// The payload's fields as read, when `text` is a well-formed payload (right JSON types, no
/// unknown field); `None` otherwise, and the walker must read it.
pub(super) fn read(text: &str) -> Option<RawPayload> {
    let MapOnly(typed) = serde_json::from_str::<MapOnly<TypedPayload>>(text).ok()?;
    Some(RawPayload {
        title: Field::from_option(typed.title),
        questions: Field::from_option(typed.questions.map(|qs| {
            qs.into_iter()
                .map(|MapOnly(q)| {
                    Some(RawQuestion {
                        id: Field::from_option(q.id),
                        label: Field::from_option(q.label),
                        prompt: Field::from_option(q.prompt),
                        kind: Field::from_option(q.kind),
                        required: Field::from_option(q.required),
                        freeform: Field::Missing,
                        context: Field::Missing,
                        options: Field::from_option(q.options.map(|os| {
                            os.into_iter()
                                .map(|MapOnly(o)| {
                                    Some(RawOption {
                                        value: Field::from_option(o.value),
                                        label: Field::from_option(o.label),
                                        description: Field::from_option(o.description),
                                        preview: Field::from_option(o.preview),
                                        recommended: Field::from_option(o.recommended),
                                        bare: false,
                                    })
                                })
                                .collect()
                        })),
                    })
                })
                .collect()
        })),
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

//! The payload's fields, each defined once (contract "Input"; docs/architecture.md says where
//! a new field goes).
//!
//! [`InputPayload`], [`InputQuestion`] and [`InputOption`] are the payload as a caller writes
//! it. From them come: the JSON schema (`pi-ask schema input`, schemars; a field's doc comment
//! is its description), the typed fast path (`fast.rs`, serde), the walker's known fields in
//! document order ([`PAYLOAD_FIELDS`], [`QUESTION_FIELDS`], [`OPTION_FIELDS`], [`ORDER`]) and
//! the man page's field list ([`synopsis`]). A field's rule is in `rules.rs`, its reading by
//! the walker in `validate.rs`.
//!
//! Optional fields refuse `null` on the fast path ([`present`]), so a `null` goes to the
//! walker, which reports it; objects are read only from JSON objects ([`objects`]).

use super::QuestionType;
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer};

/// Defines a payload struct and the const list of its JSON field names, in declaration
/// (document) order: each field is written once, as `"json_name" => rust_name: Type`.
macro_rules! payload_fields {
    (
        $(#[$meta:meta])*
        pub struct $name:ident, names $names:ident {
            $( $(#[$field_meta:meta])* $json:literal => $field:ident: $ty:ty, )*
        }
    ) => {
        $(#[$meta])*
        pub struct $name {
            $( $(#[$field_meta])* #[serde(rename = $json)] pub $field: $ty, )*
        }

        #[doc = concat!("The JSON names of [`", stringify!($name), "`]'s fields, in document order.")]
        pub(crate) const $names: &[&str] = &[$($json),*];
    };
}

payload_fields! {
    /// An ask_user payload as a caller writes it (contract "Input").
    #[derive(Debug, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    #[schemars(title = "pi-ask payload (ask_user input)")]
    pub struct InputPayload, names PAYLOAD_FIELDS {
        /// Optional questionnaire title.
        #[serde(default, deserialize_with = "present")]
        "title" => title: Option<String>,
        /// The questions, in the order they are asked; at least one; ids unique.
        #[serde(deserialize_with = "objects")]
        #[schemars(length(min = 1))]
        "questions" => questions: Vec<InputQuestion>,
    }
}

payload_fields! {
    /// One question of a payload.
    #[derive(Debug, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    #[schemars(extend(
        "if" = {"properties": {"secret": {"const": true}}, "required": ["secret"]},
        "else" = {"properties": {"options": {"minItems": 1}}}
    ))]
    pub struct InputQuestion, names QUESTION_FIELDS {
        /// Unique id within the payload; not blank. Answers are keyed by it.
        #[schemars(regex(pattern = r"\S"))]
        "id" => id: String,
        /// Short label; not blank when given; defaults to Q1, Q2, ... by position.
        #[serde(default, deserialize_with = "present")]
        #[schemars(regex(pattern = r"\S"))]
        "label" => label: Option<String>,
        /// The question text; not blank.
        #[schemars(regex(pattern = r"\S"))]
        "prompt" => prompt: String,
        /// `single` (the default), `multi` or `preview`.
        #[serde(default, deserialize_with = "question_type")]
        "type" => kind: Option<QuestionType>,
        /// Metadata only; never blocks submission. Defaults to false.
        #[serde(default, deserialize_with = "present")]
        "required" => required: Option<bool>,
        /// `true`: the typed answer is a secret (a token): masked, never echoed; default false.
        #[serde(default, deserialize_with = "present")]
        "secret" => secret: Option<bool>,
        /// At least one option (none on a secret question); values unique within the question.
        #[serde(deserialize_with = "objects")]
        "options" => options: Vec<InputOption>,
    }
}

payload_fields! {
    /// One option of a question.
    #[derive(Debug, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    pub struct InputOption, names OPTION_FIELDS {
        /// Stable machine value; unique within the question; not blank.
        #[schemars(regex(pattern = r"\S"))]
        "value" => value: String,
        /// Text shown to the person; not blank.
        #[schemars(regex(pattern = r"\S"))]
        "label" => label: String,
        /// One-line explanation; not blank when given.
        #[serde(default, deserialize_with = "present")]
        #[schemars(regex(pattern = r"\S"))]
        "description" => description: Option<String>,
        /// Preview text; not blank when given; required on every option of a `preview` question.
        #[serde(default, deserialize_with = "present")]
        #[schemars(regex(pattern = r"\S"))]
        "preview" => preview: Option<String>,
        /// `true`: the caller recommends this option; it is marked and highlighted first, never
        /// preselected. Defaults to false.
        #[serde(default, deserialize_with = "present")]
        "recommended" => recommended: Option<bool>,
    }
}

/// Every field name of the payload in document order (payload, question, option), for
/// sorting problems (`validate::document_order`; a name in two objects ranks by its first).
pub(super) const ORDER: [&str; ORDER_LEN] =
    concat([PAYLOAD_FIELDS, QUESTION_FIELDS, OPTION_FIELDS]);

const ORDER_LEN: usize = PAYLOAD_FIELDS.len() + QUESTION_FIELDS.len() + OPTION_FIELDS.len();

/// `parts` one after the other.
const fn concat<const N: usize>(parts: [&[&'static str]; 3]) -> [&'static str; N] {
    let mut out = [""; N];
    let (mut i, mut p) = (0, 0);
    while p < parts.len() {
        let mut j = 0;
        while j < parts[p].len() {
            out[i] = parts[p][j];
            i += 1;
            j += 1;
        }
        p += 1;
    }
    out
}

/// `Some(value)` for a present field; `null` is refused (the walker reports it as
/// `wrong_type`).
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// A question type, read only from a string (serde's enum would also take `{"single": null}`).
fn question_type<'de, D: Deserializer<'de>>(d: D) -> Result<Option<QuestionType>, D::Error> {
    use serde::de::IntoDeserializer;
    let s = String::deserialize(d)?;
    QuestionType::deserialize(s.into_deserializer()).map(Some)
}

/// An array of objects, each read only from a JSON object (serde's derive would also take an
/// array for a struct).
fn objects<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Vec<T>, D::Error> {
    Vec::<MapOnly<T>>::deserialize(d).map(|items| items.into_iter().map(|m| m.0).collect())
}

/// A struct read only from a JSON object.
pub(super) struct MapOnly<T>(pub T);

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

/// The payload's shape in one line, from the input schema: `{title?, questions: [{id,
/// label?, ..., type?: single|multi|preview, ...}]}` (a `?` after an optional field, an
/// enum's values after a `:`, an array of objects as `[{...}]`). The man page's field list.
pub fn synopsis() -> String {
    let schema = crate::schema::schema(crate::schema::Which::Input);
    let root = schema.as_value();
    object_synopsis(root, root)
}

/// One object of the input schema (`root` holds its `$defs`) in one line.
fn object_synopsis(object: &serde_json::Value, root: &serde_json::Value) -> String {
    use serde_json::Value;
    let resolve = |v: &'_ Value| -> Value {
        match v.get("$ref").and_then(Value::as_str) {
            Some(r) => r
                .strip_prefix("#/$defs/")
                .and_then(|name| root["$defs"].get(name))
                .cloned()
                .unwrap_or(Value::Null),
            None => v.clone(),
        }
    };
    let required: Vec<&str> = object["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(properties) = object["properties"].as_object() else {
        return "{}".to_string();
    };
    let fields: Vec<String> = properties
        .iter()
        .map(|(name, schema)| {
            let schema = resolve(schema);
            let mark = if required.contains(&name.as_str()) {
                ""
            } else {
                "?"
            };
            // An enum's values: `enum`, or `oneOf` constants (documented variants).
            let values: Vec<&str> = match (schema["enum"].as_array(), schema["oneOf"].as_array()) {
                (Some(e), _) => e.iter().filter_map(Value::as_str).collect(),
                (None, Some(alts)) => alts.iter().filter_map(|a| a["const"].as_str()).collect(),
                (None, None) => Vec::new(),
            };
            if !values.is_empty() {
                format!("{name}{mark}: {}", values.join("|"))
            } else if schema["type"] == "array" && !schema["items"].is_null() {
                let item = resolve(&schema["items"]);
                format!("{name}{mark}: [{}]", object_synopsis(&item, root))
            } else {
                format!("{name}{mark}")
            }
        })
        .collect();
    format!("{{{}}}", fields.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_synopsis_lists_every_field_in_document_order() {
        assert_eq!(
            synopsis(),
            "{title?, questions: [{id, label?, prompt, type?: single|multi|preview, required?, \
             secret?, options: [{value, label, description?, preview?, recommended?}]}]}"
        );
    }

    #[test]
    fn the_order_is_the_payload_then_question_then_option_fields() {
        assert_eq!(
            ORDER,
            [
                "title",
                "questions",
                "id",
                "label",
                "prompt",
                "type",
                "required",
                "secret",
                "options",
                "value",
                "label",
                "description",
                "preview",
                "recommended"
            ]
        );
    }
}

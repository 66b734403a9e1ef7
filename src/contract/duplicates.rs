//! Keys given twice in one JSON object. `serde_json`, like `JSON.parse`, keeps the last value
//! of a repeated key without a word, so a payload can show one prompt to a reader that takes
//! the first (a log viewer, an agent's own tooling) and ask another. This pass finds them:
//! a `duplicate_key` warning of `pi-ask validate` at each later use, a problem under
//! `--strict` (docs/exit-codes.md).

use super::codes::ProblemCode;
use super::json::join_path;
use super::Problem;
use serde::de::{DeserializeSeed, MapAccess, SeqAccess, Visitor};
use std::collections::HashSet;
use std::fmt;

/// What a payload's repeated key gets: the last value is used, as `JSON.parse` reads it.
pub const IN_A_PAYLOAD: &str = "only its last value is used; remove the others";
/// What an answers file's repeated key gets: the file is refused.
pub const IN_AN_ANSWERS_FILE: &str = "an answers file gives each key once; remove the others";

/// The keys `text` (JSON) repeats within one object, in document order: a `duplicate_key`
/// problem at the path of each repeat (`questions[0].prompt`), its message `duplicate key
/// "id": ` then `consequence` (what is done with it); the first ones only (`cap_problems`). Empty when the text is not JSON (the
/// parse names that) or nests deeper than serde_json reads (128 levels).
pub fn duplicate_keys(text: &str, consequence: &str) -> Vec<Problem> {
    let mut found = Vec::new();
    let mut de = serde_json::Deserializer::from_str(text);
    let walk = Walk {
        path: String::new(),
        consequence,
        found: &mut found,
    };
    if walk.deserialize(&mut de).is_err() {
        return Vec::new();
    }
    super::cap_problems(&mut found);
    found
}

/// One value at `path`; repeats go to `found`.
struct Walk<'a> {
    path: String,
    consequence: &'a str,
    found: &'a mut Vec<Problem>,
}

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        de.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut i = 0usize;
        loop {
            let item = Walk {
                path: format!("{}[{i}]", self.path),
                consequence: self.consequence,
                found: &mut *self.found,
            };
            if seq.next_element_seed(item)?.is_none() {
                return Ok(());
            }
            i += 1;
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            let path = join_path(&self.path, &key);
            if seen.contains(&key) {
                self.found.push(Problem::new(
                    ProblemCode::DuplicateKey,
                    path.clone(),
                    format!(
                        "duplicate key {}: {}",
                        crate::text::quoted(&key),
                        self.consequence
                    ),
                ));
                if self.found.len() > 2 * crate::limits::MAX_PROBLEMS {
                    super::cap_problems(self.found);
                }
            } else {
                seen.insert(key);
            }
            // The value is read either way, for the repeats inside it.
            map.next_value_seed(Walk {
                path,
                consequence: self.consequence,
                found: &mut *self.found,
            })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(text: &str) -> Vec<String> {
        duplicate_keys(text, IN_A_PAYLOAD)
            .into_iter()
            .map(|p| p.path)
            .collect()
    }

    #[test]
    fn each_repeat_is_named_at_its_path_in_document_order() {
        let text = r#"{"questions":[{"id":"a","id":"b","prompt":"p","prompt":"q",
            "options":[{"value":"v","label":"l","label":"m"}]}],"title":"t","title":"u"}"#;
        assert_eq!(
            paths(text),
            [
                "questions[0].id",
                "questions[0].prompt",
                "questions[0].options[0].label",
                "title"
            ]
        );
        let first = &duplicate_keys(text, IN_A_PAYLOAD)[0];
        assert_eq!(first.code, ProblemCode::DuplicateKey);
        assert_eq!(
            first.message,
            "duplicate key \"id\": only its last value is used; remove the others"
        );
    }

    #[test]
    fn no_repeat_no_problem_and_not_json_is_the_parses_to_say() {
        assert!(paths(r#"{"a":{"a":1},"b":[{"a":1},{"a":2}]}"#).is_empty());
        assert!(paths("{\"a\":1,\"a\"").is_empty());
        assert!(paths(&("[".repeat(200) + &"]".repeat(200))).is_empty());
        // An odd key is spelled as JSON in the path.
        assert_eq!(paths(r#"{"x y":1,"x y":2}"#), [r#"["x y"]"#]);
    }
}

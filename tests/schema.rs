//! The JSON Schemas from `pi-ask schema` accept the examples, the recorded results and the
//! answers files, and refuse what the contract refuses.

use crate::scripted_support::{pi_ask, root, run, run_cmd, Dir};
use serde_json::{json, Value};
use std::path::Path;

fn schema(which: &str) -> Value {
    let run = run(&[std::ffi::OsStr::new("schema"), which.as_ref()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let schema = run.json();
    assert!(
        jsonschema::meta::is_valid(&schema),
        "{which} is not a valid JSON Schema"
    );
    let lib = pi_ask::schema::schema(match which {
        "input" => pi_ask::schema::Which::Input,
        "output" => pi_ask::schema::Which::Output,
        "answer-request" => pi_ask::schema::Which::AnswerRequest,
        "answer-reply" => pi_ask::schema::Which::AnswerReply,
        _ => pi_ask::schema::Which::Answers,
    });
    assert_eq!(
        &schema,
        lib.as_value(),
        "the CLI prints the library's schema"
    );
    schema
}

fn errors(schema: &Value, instance: &Value) -> Vec<String> {
    let validator = jsonschema::validator_for(schema).expect("schema compiles");
    validator
        .iter_errors(instance)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

fn assert_valid(schema: &Value, instance: &Value, what: &str) {
    let errs = errors(schema, instance);
    assert!(errs.is_empty(), "{what} does not validate: {errs:#?}");
}

fn assert_invalid(schema: &Value, instance: &Value, what: &str) {
    assert!(
        !errors(schema, instance).is_empty(),
        "{what} should not validate"
    );
}

fn json_files(dir: &Path, suffix: &str) -> Vec<(String, Value)> {
    let mut out: Vec<(String, Value)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_str().unwrap().ends_with(suffix))
        .map(|p| {
            let v = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
            (p.display().to_string(), v)
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(!out.is_empty(), "no {suffix} files in {}", dir.display());
    out
}

/// The input schema is generated from the payload's one definition (`contract::fields`); the
/// committed copy makes every change to it deliberate: regenerate it with
/// `pi-ask schema input > tests/fixtures/schema/input.schema.json`.
#[test]
fn the_input_schema_is_the_committed_one() {
    let run = run(&[std::ffi::OsStr::new("schema"), "input".as_ref()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let committed = std::fs::read_to_string(root().join("tests/fixtures/schema/input.schema.json"))
        .expect("the committed input schema");
    assert_eq!(run.stdout, committed);
}

#[test]
fn the_examples_validate_against_the_input_schema() {
    let s = schema("input");
    for (name, payload) in json_files(&root().join("examples"), ".json") {
        assert_valid(&s, &payload, &name);
    }
}

#[test]
fn the_input_schema_refuses_what_the_contract_refuses() {
    let s = schema("input");
    let option = json!({"value": "a", "label": "A"});
    let cases = [
        ("no questions", json!({"questions": []})),
        ("missing questions", json!({"title": "t"})),
        (
            "unknown payload field",
            json!({"questions": [{"id": "q", "prompt": "p", "options": [option]}], "extra": 1}),
        ),
        (
            "blank id",
            json!({"questions": [{"id": "  ", "prompt": "p", "options": [option]}]}),
        ),
        (
            "blank label",
            json!({"questions": [{"id": "q", "label": "", "prompt": "p", "options": [option]}]}),
        ),
        (
            "missing prompt",
            json!({"questions": [{"id": "q", "options": [option]}]}),
        ),
        (
            "bad type",
            json!({"questions": [{"id": "q", "prompt": "p", "type": "many", "options": [option]}]}),
        ),
        (
            "no options",
            json!({"questions": [{"id": "q", "prompt": "p", "options": []}]}),
        ),
        (
            "unknown option field",
            json!({"questions": [{"id": "q", "prompt": "p", "options": [{"value": "a", "label": "A", "desc": "d"}]}]}),
        ),
        (
            "null title",
            json!({"title": null, "questions": [{"id": "q", "prompt": "p", "options": [option]}]}),
        ),
        (
            "required not a boolean",
            json!({"questions": [{"id": "q", "prompt": "p", "required": "yes", "options": [option]}]}),
        ),
    ];
    for (what, payload) in cases {
        assert_invalid(&s, &payload, what);
        // The validator refuses it too.
        assert!(
            pi_ask::contract::parse_payload_value(&payload).is_err(),
            "{what}"
        );
    }
}

#[test]
fn recorded_results_validate_against_the_output_schema() {
    let s = schema("output");
    for (name, result) in json_files(&root().join("tests/fixtures/scripted"), ".result.json") {
        assert_valid(&s, &result, &name);
    }
}

#[test]
fn error_results_validate_against_the_output_schema() {
    let s = schema("output");
    let dir = Dir::new();
    let bad_payload = dir.file(
        "bad.json",
        r#"{"questions": [{"id": "", "prompt": "p", "options": []}]}"#,
    );
    let example = root().join("examples/database.json");
    let bad_answers = dir.file("answers.json", r#"{"answers": {"nope": 1}}"#);
    let runs = [
        run_cmd(pi_ask().arg(&bad_payload)),
        run_cmd(pi_ask().arg(&example).arg("--no-input")),
        run_cmd(pi_ask().arg(&example).arg("--answers").arg(&bad_answers)),
    ];
    for r in runs {
        assert!(matches!(r.code, 2 | 3), "{}", r.stderr);
        assert_valid(&s, &r.json(), &r.stdout);
    }
    assert_invalid(
        &s,
        &json!({"content": [], "details": {}}),
        "an empty result",
    );
    assert_invalid(
        &s,
        &json!({"content": [{"type": "text", "text": "t"}], "details": {"cancelled": false, "questions": [],
                 "answers": {"q": {"values": ["a"], "labels": ["A"], "indices": [0]}}}}),
        "a 0 index",
    );
}

#[test]
fn answers_files_and_recorded_results_validate_against_the_answers_schema() {
    let s = schema("answers");
    let fixtures = root().join("tests/fixtures/scripted");
    for (name, answers) in json_files(&fixtures, ".answers.json") {
        assert_valid(&s, &answers, &name);
    }
    for (name, result) in json_files(&fixtures, ".result.json") {
        assert_valid(&s, &result, &name);
        assert_valid(&s, &result["details"], &format!("{name} details"));
    }
    for (name, answers) in json_files(&root().join("examples/answers"), ".json") {
        assert_valid(&s, &answers, &name);
    }
}

#[test]
fn the_answers_schema_refuses_wrong_shapes() {
    let s = schema("answers");
    let cases = [
        ("not an object", json!(["a"])),
        ("neither answers nor cancelled", json!({"title": "t"})),
        ("unknown field", json!({"answer": {}})),
        ("boolean entry", json!({"answers": {"q": true}})),
        ("position 0", json!({"answers": {"q": 0}})),
        (
            "unknown answer field",
            json!({"answers": {"q": {"custom_text": "x"}}}),
        ),
        ("blank note", json!({"answers": {"q": {"note": " "}}})),
        ("cancelled not a boolean", json!({"cancelled": "yes"})),
    ];
    for (what, answers) in cases {
        assert_invalid(&s, &answers, what);
    }
}

#[test]
fn the_answer_request_and_reply_schemas_take_the_questions_request() {
    let request = schema("answer-request");
    for ok in [
        json!({"action": "questions"}),
        json!({"id": "q-1", "action": "questions"}),
        json!({"id": "q-1", "answers": {"scope": "all"}}),
        json!({"id": "q-1", "action": "cancel"}),
    ] {
        assert_valid(&request, &ok, &ok.to_string());
    }
    for bad in [
        json!({"answers": {"scope": "all"}}),
        json!({"action": "cancel"}),
        json!({"action": "question"}),
        json!({"action": "questions", "extra": 1}),
    ] {
        assert_invalid(&request, &bad, &bad.to_string());
    }
    let reply = schema("answer-reply");
    let questions = json!({"status": "questions", "id": "q-1", "title": "Setup",
        "questions": [{"id": "scope", "label": "Q1", "prompt": "Which scope?",
            "type": "single", "required": false,
            "options": [{"value": "all", "label": "All"}]}]});
    assert_valid(&reply, &questions, "the questions reply");
    assert_invalid(&reply, &json!({"status": "question"}), "an unknown status");
}

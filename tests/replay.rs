//! Replay: a recorded result fed back as `--answers` reproduces it.
//!
//! `tests/fixtures/scripted/NAME.result.json` was recorded with
//! `pi-ask examples/PAYLOAD.json --answers tests/fixtures/scripted/NAME.answers.json`
//! (PAYLOAD is NAME without a `.cancelled` suffix). Each case checks that the answers file still
//! gives exactly the recorded result, and that the recorded result, and its `details` alone,
//! given as `--answers`, give identical `details` (and exit code).

use crate::scripted_support::{answer, example, root, run, Dir, Run};
use serde_json::Value;
use std::path::PathBuf;

fn fixture(name: &str) -> PathBuf {
    root().join("tests/fixtures/scripted").join(name)
}

fn recorded(name: &str) -> Value {
    let text = std::fs::read_to_string(fixture(&format!("{name}.result.json"))).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn expected_code(result: &Value) -> i32 {
    if result["details"]["cancelled"] == true {
        1
    } else {
        0
    }
}

fn check_case(name: &str) {
    let payload = example(&format!("{}.json", name.trim_end_matches(".cancelled")));
    let recorded = recorded(name);
    let code = expected_code(&recorded);

    // The answers file still produces exactly the recorded result (content too).
    let run: Run = answer(&payload, &fixture(&format!("{name}.answers.json")));
    assert_eq!(run.code, code, "{name}: {}", run.stderr);
    assert_eq!(
        run.json(),
        recorded,
        "{name}: the answers file no longer gives the recorded result"
    );

    // The whole recorded result as the answers file.
    let run = answer(&payload, &fixture(&format!("{name}.result.json")));
    assert_eq!(run.code, code, "{name}: {}", run.stderr);
    assert_eq!(
        run.details(),
        recorded["details"],
        "{name}: replaying the result"
    );
    assert_eq!(
        run.json(),
        recorded,
        "{name}: replaying the result (content)"
    );

    // Only its details.
    let dir = Dir::new();
    let details = dir.json("details.json", &recorded["details"]);
    let run = answer(&payload, &details);
    assert_eq!(run.code, code, "{name}: {}", run.stderr);
    assert_eq!(
        run.details(),
        recorded["details"],
        "{name}: replaying the details"
    );
}

#[test]
fn replay_config_preview() {
    check_case("config-preview");
}

#[test]
fn replay_database() {
    check_case("database");
}

#[test]
fn replay_implementation_preferences() {
    check_case("implementation-preferences");
}

#[test]
fn replay_a_dismissal() {
    check_case("implementation-preferences.cancelled");
}

#[test]
fn replay_language_features() {
    check_case("language-features");
}

#[test]
fn every_example_has_a_recorded_result() {
    for entry in std::fs::read_dir(root().join("examples")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            let stem = path.file_stem().unwrap().to_str().unwrap().to_string();
            assert!(
                fixture(&format!("{stem}.result.json")).exists(),
                "examples/{stem}.json has no recorded result in tests/fixtures/scripted/"
            );
        }
    }
}

#[test]
fn a_recorded_custom_text_equal_to_an_option_value_replays() {
    // Multi-select with the option `react` selected and the custom text "react": the recorded
    // values are ["react", "react"]; the last one is the custom text.
    let dir = Dir::new();
    let payload = dir.file(
        "payload.json",
        r#"{"questions": [{"id": "fw", "prompt": "Which?", "type": "multi",
            "options": [{"value": "react", "label": "React"}, {"value": "vue", "label": "Vue"}]}]}"#,
    );
    let first = dir.file(
        "a.json",
        r#"{"answers": {"fw": {"values": ["react"], "customText": "react", "note": "n"}}}"#,
    );
    let run = answer(&payload, &first);
    // Hand-written: `values` names the option `react`, which stays selected next to the
    // custom text (the echo rule applies to recorded answers, which carry `indices`).
    assert_eq!(
        run.details()["answers"],
        serde_json::json!({"fw": {"values": ["react", "react"], "labels": ["React", "react"], "indices": [1], "customText": "react", "note": "n"}})
    );
    let both = dir.file(
        "b.json",
        r#"{"answers": {"fw": {"values": ["react", "react"], "customText": "react"}}}"#,
    );
    let run = answer(&payload, &both);
    let recorded = run.json();
    assert_eq!(
        recorded["details"]["answers"],
        serde_json::json!({"fw": {"values": ["react", "react"], "labels": ["React", "react"], "indices": [1], "customText": "react"}})
    );
    let again = dir.json("recorded.json", &recorded);
    assert_eq!(answer(&payload, &again).json(), recorded);
}

/// Writes `payload` compactly (as a caller would) and returns its path and size in bytes.
fn compact(dir: &Dir, name: &str, payload: &Value) -> (PathBuf, usize) {
    let text = payload.to_string();
    (dir.file(name, &text), text.len())
}

#[test]
fn a_recorded_result_larger_than_max_payload_bytes_replays() {
    // 20,000 questions (2.5 MB) answered from a file give a result over 4 MiB, the default
    // --max-payload-bytes; the answers file's limit grows with the payload, so it replays.
    let dir = Dir::new();
    let questions: Vec<Value> = (0..20_000)
        .map(|i| {
            serde_json::json!({"id": format!("q{i}"), "prompt": format!("Which option for item {i} of the list?"),
                "options": [{"value": "alpha", "label": "Alpha", "description": "The first one."},
                            {"value": "beta", "label": "Beta"}]})
        })
        .collect();
    let (payload, size) = compact(
        &dir,
        "payload.json",
        &serde_json::json!({ "questions": questions }),
    );
    assert!(size > 2_000_000, "{size}");
    let answers: serde_json::Map<String, Value> = (0..20_000)
        .map(|i| (format!("q{i}"), Value::from("alpha")))
        .collect();
    let first = answer(
        &payload,
        &dir.json("a.json", &serde_json::json!({ "answers": answers })),
    );
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert!(
        first.stdout.len() > 4 * 1024 * 1024,
        "{}",
        first.stdout.len()
    );
    let recorded = dir.file("recorded.json", &first.stdout);
    let again = answer(&payload, &recorded);
    assert_eq!((again.code, again.stderr.as_str()), (0, ""));
    assert_eq!(again.json(), first.json());
}

#[test]
fn a_recorded_yishan_result_nine_times_its_payload_replays() {
    // One yishan question with 70,000 short options, all chosen: the yishan result lists the
    // options and the response, pretty-printed: over eight times the payload's size.
    let dir = Dir::new();
    let options: Vec<String> = (0..70_000).map(|j| j.to_string()).collect();
    let (payload, size) = compact(
        &dir,
        "payload.json",
        &serde_json::json!({"question": "Which?", "allowMultiple": true, "options": options}),
    );
    let answers = dir.json("a.json", &serde_json::json!({"answers": {"q1": options}}));
    let first = run(&[
        payload.as_os_str(),
        "--answers".as_ref(),
        answers.as_os_str(),
        "--result-format".as_ref(),
        "yishan".as_ref(),
    ]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert!(
        first.stdout.len() > 8 * size,
        "{} {size}",
        first.stdout.len()
    );
    assert!(
        first.stdout.len() > 4 * 1024 * 1024,
        "{}",
        first.stdout.len()
    );
    let recorded = dir.file("recorded.json", &first.stdout);
    let again = run(&[
        payload.as_os_str(),
        "--answers".as_ref(),
        recorded.as_os_str(),
        "--result-format".as_ref(),
        "yishan".as_ref(),
    ]);
    assert_eq!((again.code, again.stderr.as_str()), (0, ""));
    assert_eq!(again.json(), first.json());
}

/// Runs `payload` with `answers` in `format`, replays that result as `--answers`, and returns
/// (the `details` in `format`, the contract answers of the first run, those of the replay).
fn through(format: &str, payload: &Value, answers: &Value) -> (Value, Value, Value) {
    let dir = Dir::new();
    let p = dir.json("payload.json", payload);
    let a = dir.json("answers.json", answers);
    let first = answer(&p, &a);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let shaped = run(&[
        p.as_os_str(),
        "--answers".as_ref(),
        a.as_os_str(),
        "--result-format".as_ref(),
        format.as_ref(),
    ]);
    assert_eq!(shaped.code, 0, "{}", shaped.stderr);
    let recorded = dir.file("recorded.json", &shaped.stdout);
    let again = answer(&p, &recorded);
    assert_eq!(again.code, 0, "{format}: {}", again.stderr);
    (
        shaped.details(),
        first.details()["answers"].clone(),
        again.details()["answers"].clone(),
    )
}

#[test]
fn label_keyed_results_keep_every_answer_and_replay_exactly() {
    use serde_json::json;
    let xy = json!([{"value": "x", "label": "X"}, {"value": "y", "label": "Y"}]);
    // The same question text twice, and a third whose text is the second's key.
    let pick = json!({"questions": [
        {"id": "a", "prompt": "Pick", "options": xy},
        {"id": "b", "prompt": "Pick", "options": xy},
        {"id": "c", "prompt": "Pick [b]", "options": xy}]});
    let (details, given, replayed) = through(
        "claude-code",
        &pick,
        &json!({"answers": {"a": "x", "b": "y", "c": "x"}}),
    );
    assert_eq!(
        details["answers"],
        json!({"Pick": "X", "Pick [b]": "Y", "Pick [b] [c]": "X"})
    );
    assert_eq!(replayed, given);
    // Options labelled alike; a label that is two others joined; custom text that is a label.
    let alike = json!({"questions": [
        {"id": "same", "prompt": "Which?", "options": [
            {"value": "a", "label": "Same"}, {"value": "b", "label": "Same"}]},
        {"id": "joined", "prompt": "Which ones?", "type": "multi", "options": [
            {"value": "xy", "label": "X, Y"}, {"value": "x", "label": "X"}, {"value": "y", "label": "Y"}]},
        {"id": "typed", "prompt": "Name?", "options": [{"value": "x", "label": "X"}]}]});
    let answers = json!({"answers": {
        "same": "b",
        "joined": ["x", "y"],
        "typed": {"values": [], "customText": "X"}}});
    for format in ["claude-code", "yishan"] {
        let (details, given, replayed) = through(format, &alike, &answers);
        // The labels stay the format's; the exact answers are added by question id.
        let exact = |id: &str, q: usize| match format {
            "yishan" => details[q]["exactAnswers"][id].clone(),
            _ => details["exactAnswers"][id].clone(),
        };
        assert_eq!(exact("same", 0), json!({"values": ["b"]}), "{format}");
        // yishan lists the labels: a joined label is no question there.
        let joined = match format {
            "yishan" => Value::Null,
            _ => json!({"values": ["x", "y"]}),
        };
        assert_eq!(exact("joined", 1), joined, "{format}");
        assert_eq!(
            exact("typed", 2),
            json!({"values": [], "customText": "X"}),
            "{format}"
        );
        assert_eq!(
            given,
            json!({
                "same": {"values": ["b"], "labels": ["Same"], "indices": [2]},
                "joined": {"values": ["x", "y"], "labels": ["X", "Y"], "indices": [2, 3]},
                "typed": {"values": ["X"], "labels": ["X"], "indices": [], "customText": "X"}
            })
        );
        assert_eq!(replayed, given, "{format}");
    }
}

/// An elaborate result written in `format` keeps `mode: "elaborate"` and every note (on an
/// option not chosen, on a question not answered), and replayed as `--answers` it is the same
/// Elaborate: the contract's result of the first run, `content` and `details`.
fn an_elaborate_result_replays_as_the_same_elaborate(format: &str) {
    use serde_json::json;
    let payload = json!({"questions": [
        {"id": "db", "label": "Database", "prompt": "Which database should the service use?",
         "options": [{"value": "postgres", "label": "Postgres"}, {"value": "sqlite", "label": "SQLite"}]},
        {"id": "checks", "label": "Checks", "prompt": "Which checks should CI run?", "type": "multi",
         "options": [{"value": "lint", "label": "Lint"}, {"value": "types", "label": "Types"},
                     {"value": "tests", "label": "Tests"}]},
        {"id": "deploy", "label": "Deploy", "prompt": "How should it be deployed?",
         "options": [{"value": "docker", "label": "Docker image"}, {"value": "vm", "label": "VM"}]}
    ]});
    let answers = json!({"mode": "elaborate", "answers": {
        "db": {"values": ["sqlite"], "note": "small for now",
               "optionNotes": {"postgres": "what would Postgres cost us in ops work?"}},
        "checks": ["lint", "tests"],
        "deploy": {"values": [], "note": "what does a VM need?"}
    }});
    let dir = Dir::new();
    let p = dir.json("payload.json", &payload);
    let a = dir.json("answers.json", &answers);
    let contract = answer(&p, &a);
    assert_eq!(contract.code, 0, "{}", contract.stderr);
    assert_eq!(contract.details()["mode"], "elaborate");
    let notes = json!({
        "db": {"note": "small for now",
               "optionNotes": {"postgres": "what would Postgres cost us in ops work?"}},
        "deploy": {"note": "what does a VM need?"}});
    let shaped = run(&[
        p.as_os_str(),
        "--answers".as_ref(),
        a.as_os_str(),
        "--result-format".as_ref(),
        format.as_ref(),
    ]);
    assert_eq!((shaped.code, shaped.stderr.as_str()), (0, ""), "{format}");
    let details = shaped.details();
    // Where each format keeps the mode and the notes.
    match format {
        "yishan" => {
            for (q, id) in ["db", "checks", "deploy"].iter().enumerate() {
                assert_eq!(details[q]["mode"], "elaborate", "{format}");
                assert_eq!(
                    details[q]["notes"].get(*id),
                    notes.get(*id),
                    "{format} {id}"
                );
            }
        }
        "claude-code" => {
            assert_eq!(details["mode"], "elaborate");
            assert_eq!(
                details["annotations"],
                json!({"Which database should the service use?": {"notes": "small for now"},
                       "How should it be deployed?": {"notes": "what does a VM need?"}})
            );
            assert_eq!(
                details["notes"],
                json!({"db": {"optionNotes": {"postgres": "what would Postgres cost us in ops work?"}}})
            );
        }
        _ => {
            assert_eq!(details["mode"], "elaborate");
            assert_eq!(details["notes"], notes);
        }
    }
    // The contract's `content`, word for word.
    assert_eq!(
        shaped.json()["content"],
        contract.json()["content"],
        "{format}"
    );
    // Replayed, whole and its details alone: the same Elaborate.
    for recorded in [shaped.json(), details.clone()] {
        let r = dir.json("recorded.json", &recorded);
        let again = answer(&p, &r);
        assert_eq!((again.code, again.stderr.as_str()), (0, ""), "{format}");
        assert_eq!(again.json(), contract.json(), "{format}");
    }
}

#[test]
fn an_elaborate_mickyyy68_result_replays_as_the_same_elaborate() {
    an_elaborate_result_replays_as_the_same_elaborate("mickyyy68");
}

#[test]
fn an_elaborate_yishan_result_replays_as_the_same_elaborate() {
    an_elaborate_result_replays_as_the_same_elaborate("yishan");
}

#[test]
fn an_elaborate_claude_code_result_replays_as_the_same_elaborate() {
    an_elaborate_result_replays_as_the_same_elaborate("claude-code");
}

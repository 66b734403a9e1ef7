//! `pi-ask validate` and `pi-ask schema`.

use crate::scripted_support::{example, pi_ask, run_cmd, Dir};
use serde_json::json;

#[test]
fn a_valid_payload_prints_the_normalized_questions() {
    let run = run_cmd(pi_ask().arg("validate").arg(example("database.json")));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "Valid payload: 1 question.\n\
         1. Q1 (id: database; choose one): Which database should the project use?\n   \
         1) PostgreSQL [postgres]: Full relational database with production tooling.\n   \
         2) SQLite [sqlite]: Embedded database with minimal setup.\n   \
         or the user's own answer in their words\n"
    );
}

#[test]
fn the_json_report_carries_the_normalized_payload() {
    let run = run_cmd(
        pi_ask()
            .args(["validate", "--json"])
            .arg(example("database.json")),
    );
    assert_eq!(run.code, 0);
    assert_eq!(
        run.json(),
        json!({"valid": true, "payload": {"questions": [{
        "id": "database", "label": "Q1", "prompt": "Which database should the project use?",
        "type": "single", "required": false,
        "options": [
            {"value": "postgres", "label": "PostgreSQL", "description": "Full relational database with production tooling."},
            {"value": "sqlite", "label": "SQLite", "description": "Embedded database with minimal setup."}
        ]}]}})
    );
}

const TWICE: &str = r#"{"questions": [{"id": "a", "id": "b", "prompt": "p", "prompt": "q",
    "options": [{"value": "v", "label": "l"}]}]}"#;

#[test]
fn a_key_given_twice_is_a_warning_and_refused_under_strict() {
    let dir = Dir::new();
    let p = dir.file("twice.json", TWICE);
    let run = run_cmd(pi_ask().arg("validate").arg(&p));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "Valid payload: 1 question.\n\
         1. Q1 (id: b; choose one): q\n   \
         1) l [v]\n   \
         or the user's own answer in their words\n\
         Warnings: keys given twice (pi-ask asks anyway; --strict refuses):\n  \
         questions[0].id: duplicate key \"id\": only its last value is used; remove the others [duplicate_key]\n  \
         questions[0].prompt: duplicate key \"prompt\": only its last value is used; remove the others [duplicate_key]\n"
    );
    let strict = run_cmd(pi_ask().args(["validate", "--strict", "--json"]).arg(&p));
    assert_eq!(strict.code, 2);
    let problems = &strict.json()["error"]["problems"];
    assert_eq!(problems[0]["code"], "duplicate_key");
    assert_eq!(problems[1]["path"], "questions[0].prompt");
    // The main command asks the last values, as JSON.parse reads them.
    let asked = run_cmd(pi_ask().arg(&p).arg("--no-input"));
    assert_eq!(asked.code, 3);
    assert_eq!(asked.json()["details"]["questions"][0]["id"], "b");
    assert_eq!(asked.json()["details"]["questions"][0]["prompt"], "q");
}

/// A key given twice in an answers file refuses it (exit 2), in `validate` and in a run: the
/// value read first would be lost without a word (`{"answers": {…}, "answers": {}}` answered
/// nothing and exited 0).
#[test]
fn an_answers_file_with_a_key_given_twice_is_refused() {
    let dir = Dir::new();
    let twice = dir.file(
        "twice.json",
        r#"{"answers": {"database": "sqlite"}, "answers": {}}"#,
    );
    let run = run_cmd(
        pi_ask()
            .args(["validate", "--json"])
            .arg(example("database.json"))
            .arg("--answers")
            .arg(&twice),
    );
    assert_eq!(run.code, 2);
    assert_eq!(
        run.json()["error"]["problems"],
        json!([{"code": "duplicate_key", "path": "answers",
                "message": "duplicate key \"answers\": an answers file gives each key once; remove the others"}])
    );
    let asked = run_cmd(
        pi_ask()
            .arg(example("database.json"))
            .arg("--answers")
            .arg(&twice),
    );
    assert_eq!(asked.code, 2);
    assert_eq!(asked.json()["details"]["error"]["code"], "invalid_answers");
    assert_eq!(
        asked.json()["details"]["error"]["problems"][0]["code"],
        "duplicate_key"
    );
}

const BAD: &str = r#"{"questions": [{"id": "q", "prompt": "", "options": [{"value": "a", "label": "A"}, {"value": "a", "label": "B"}]}]}"#;

#[test]
fn an_invalid_payload_lists_every_problem() {
    let dir = Dir::new();
    let p = dir.file("bad.json", BAD);
    let run = run_cmd(pi_ask().arg("validate").arg(&p));
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stdout,
        "Invalid ask_user payload: 2 problems; fix them and call again.\n  \
         questions[0].prompt: the question prompt must not be empty or only whitespace [empty_prompt]\n  \
         questions[0].options[1].value: duplicate option value \"a\": questions[0].options[0] already uses it; values must be unique within a question [duplicate_option_value]\n"
    );
}

#[test]
fn the_json_report_has_the_same_error_as_the_main_command() {
    let dir = Dir::new();
    let p = dir.file("bad.json", BAD);
    let report = run_cmd(pi_ask().args(["validate", "--json"]).arg(&p));
    assert_eq!(report.code, 2);
    let main = run_cmd(pi_ask().arg(&p).arg("--no-input"));
    assert_eq!(main.code, 2);
    assert_eq!(
        report.json(),
        json!({"valid": false, "error": main.details()["error"]})
    );
}

#[test]
fn the_payload_can_come_from_stdin() {
    let run = run_cmd(pi_ask().args(["validate", "--json", "-"]).write_stdin(BAD));
    assert_eq!(run.code, 2);
    assert_eq!(run.json()["error"]["problems"][0]["code"], "empty_prompt");
}

#[test]
fn an_answers_file_is_checked_against_the_payload() {
    let dir = Dir::new();
    let good = dir.file("good.json", r#"{"answers": {"database": "sqlite"}}"#);
    let bad = dir.file("bad.json", r#"{"answers": {"database": "mysql"}}"#);
    let run = run_cmd(
        pi_ask()
            .arg("validate")
            .arg(example("database.json"))
            .arg("--answers")
            .arg(&good),
    );
    assert_eq!(run.code, 0);
    assert!(
        run.stdout
            .ends_with(&format!("Answers file {}: valid.\n", good.display())),
        "{}",
        run.stdout
    );

    let run = run_cmd(
        pi_ask()
            .args(["validate", "--json"])
            .arg(example("database.json"))
            .arg("--answers")
            .arg(&bad),
    );
    assert_eq!(run.code, 2);
    let report = run.json();
    assert_eq!(report["valid"], false);
    assert_eq!(report["payload"]["questions"][0]["id"], "database");
    assert_eq!(
        report["error"],
        json!({"code": "invalid_answers", "message": "invalid answers file: 1 problem; fix it and call again",
               "problems": [{"code": "unknown_option", "path": "answers.database",
                             "message": "question \"database\" has no option with value \"mysql\"; valid values: \"postgres\", \"sqlite\" (or a position 1..2)"}],
               "kind": "invalid_input",
               "issues": [{"path": "answers.database",
                           "message": "question \"database\" has no option with value \"mysql\"; valid values: \"postgres\", \"sqlite\" (or a position 1..2)"}]})
    );
}

#[test]
fn schema_prints_each_schema() {
    for which in ["input", "output", "answers"] {
        let run = run_cmd(pi_ask().args(["schema", which]));
        assert_eq!(run.code, 0);
        assert_eq!(
            run.json()["$schema"],
            "https://json-schema.org/draft/2020-12/schema"
        );
    }
    let run = run_cmd(pi_ask().args(["schema", "inputs"]));
    assert_eq!(run.code, 2, "an unknown schema is a usage error");
    assert!(
        run.stderr.contains("invalid value 'inputs'"),
        "{}",
        run.stderr
    );
}

#[test]
fn subcommands_ignore_the_answers_environment_variable() {
    let run = run_cmd(
        pi_ask()
            .args(["schema", "input"])
            .env("PI_ASK_ANSWERS", "/nonexistent"),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
}

/// A text line of the report is bounded (a label of a million letters is 400 columns, cut
/// with `…`); `--json` keeps it whole.
#[test]
fn a_megabyte_label_is_one_bounded_line_of_the_report() {
    let dir = Dir::new();
    let label = "L".repeat(1_000_000);
    let payload = json!({"questions": [{"id": "a", "prompt": "P", "options": [
        {"value": "x", "label": label}, {"value": "y", "label": "M"}]}]});
    let path = dir.json("q.json", &payload);
    let run = run_cmd(pi_ask().arg("validate").arg(&path));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let line = run.stdout.lines().nth(2).unwrap();
    assert_eq!(line, format!("   1) {}\u{2026}", "L".repeat(393)));
    assert_eq!(run.stdout.lines().nth(3), Some("   2) M [y]"));
    let run = run_cmd(pi_ask().args(["validate", "--json"]).arg(&path));
    assert_eq!(
        run.json()["payload"]["questions"][0]["options"][0]["label"],
        json!(label)
    );
}

/// A title of only whitespace is no title: the report names none, the normalized payload has
/// none.
#[test]
fn a_title_of_only_spaces_is_no_title() {
    let dir = Dir::new();
    let path = dir.json(
        "q.json",
        &json!({"title": "  \t ", "questions": [{"id": "a", "prompt": "P", "options": [
            {"value": "x", "label": "X"}]}]}),
    );
    let run = run_cmd(pi_ask().arg("validate").arg(&path));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.starts_with("Valid payload: 1 question.\n"),
        "{}",
        run.stdout
    );
    let run = run_cmd(pi_ask().args(["validate", "--json"]).arg(&path));
    assert_eq!(run.json()["payload"].get("title"), None);
}

#[test]
fn a_payload_of_many_bad_options_lists_the_first_hundred_problems() {
    // 50,000 options of one value: the input rules' problems, 49,999 of them.
    let options = vec![r#"{"value": "a", "label": "A"}"#; 50_000].join(",");
    let dir = Dir::new();
    let p = dir.file(
        "many.json",
        &format!(r#"{{"questions": [{{"id": "q", "prompt": "p", "options": [{options}]}}]}}"#),
    );
    let run = run_cmd(pi_ask().arg("validate").arg(&p));
    assert_eq!(run.code, 2);
    let mut expected =
        String::from("Invalid ask_user payload: 49999 problems; fix them and call again.\n");
    for j in 1..=100 {
        expected.push_str(&format!(
            "  questions[0].options[{j}].value: duplicate option value \"a\": questions[0].options[0] already uses it; values must be unique within a question [duplicate_option_value]\n"
        ));
    }
    expected.push_str("  payload: … and 49899 more problems like these; fix the ones above and check again [too_many_problems]\n");
    assert_eq!(run.stdout, expected);
}

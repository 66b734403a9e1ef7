//! The main command without a person: one test per payload problem code (exit 2,
//! `invalid_payload`, exact code, path and message), the no-terminal result (exit 3), and
//! `--output` (atomic write; exit 4 when it cannot be written).

use crate::scripted_support::{example, pi_ask, run_cmd, Dir, Run};
use serde_json::{json, Value};
use std::time::Duration;

const OPTION: &str = r#"{"value": "a", "label": "A"}"#;

/// A payload with one question whose fields are `question` (JSON object members).
fn one_question(question: &str) -> String {
    format!(r#"{{"questions": [{{"id": "q", "prompt": "p", {question}}}]}}"#)
}

fn run_payload(text: &str) -> Run {
    let dir = Dir::new();
    let p = dir.file("payload.json", text);
    run_cmd(pi_ask().arg(&p).arg("--no-input"))
}

/// Checks the `invalid_payload` result has exactly one problem `(code, path, message)`, and
/// what a person reads on stderr: one line for a payload that is not JSON, else the problem
/// under a line naming the file.
fn assert_problem(text: &str, code: &str, path: &str, message: &str) {
    let dir = Dir::new();
    let file = dir.file("payload.json", text);
    let run = run_cmd(pi_ask().arg(&file).arg("--no-input"));
    assert_eq!(
        run.code, 2,
        "stdout: {}\nstderr: {}",
        run.stdout, run.stderr
    );
    let details = run.details();
    assert_eq!(details["cancelled"], true);
    assert_eq!(details["questions"], json!([]));
    assert_eq!(details["answers"], json!({}));
    assert_eq!(details["error"]["code"], "invalid_payload");
    assert_eq!(
        details["error"]["message"],
        "invalid ask_user payload: 1 problem; fix it and call again"
    );
    assert_eq!(
        details["error"]["problems"],
        json!([{"code": code, "path": path, "message": message}])
    );
    let shown = if path.is_empty() { "payload" } else { path };
    assert_eq!(
        run.text(),
        format!("Invalid ask_user payload: 1 problem; fix it and call again.\n- {shown}: {message} [{code}]")
    );
    let stderr = if code == "malformed_json" {
        format!("pi-ask: {} is {message}\n", file.display())
    } else {
        format!(
            "pi-ask: invalid payload {}: 1 problem\n  {shown}: {message} [{code}]\n",
            file.display()
        )
    };
    assert_eq!(run.stderr, stderr);
}

#[test]
fn malformed_json() {
    assert_problem(
        "{\"questions\": [\n  {\"id\": \"q\",}\n]}",
        "malformed_json",
        "",
        "not valid JSON at line 2, column 14: trailing comma",
    );
}

#[test]
fn wrong_type() {
    assert_problem(
        r#"{"questions": {}}"#,
        "wrong_type",
        "questions",
        "`questions` must be an array, not an object",
    );
}

#[test]
fn unknown_field() {
    assert_problem(
        &format!(
            r#"{{"questions": [{{"id": "q", "prompt": "p", "options": [{OPTION}]}}], "question": 1}}"#
        ),
        "unknown_field",
        "question",
        "`question` is not a field of the payload; did you mean `questions`?",
    );
}

#[test]
fn missing_field() {
    assert_problem(
        r#"{"title": "t"}"#,
        "missing_field",
        "questions",
        "`questions` is missing: give an array with at least one question",
    );
}

#[test]
fn no_questions() {
    assert_problem(
        r#"{"questions": []}"#,
        "no_questions",
        "questions",
        "at least one question is required",
    );
}

#[test]
fn empty_question_id() {
    assert_problem(
        &format!(r#"{{"questions": [{{"id": " ", "prompt": "p", "options": [{OPTION}]}}]}}"#),
        "empty_question_id",
        "questions[0].id",
        "the question id must not be empty or only whitespace",
    );
}

#[test]
fn blank_label() {
    assert_problem(
        &one_question(&format!(r#""label": "", "options": [{OPTION}]"#)),
        "blank_label",
        "questions[0].label",
        "the question label must not be blank when provided: give text or leave `label` out",
    );
}

#[test]
fn empty_prompt() {
    assert_problem(
        &format!(r#"{{"questions": [{{"id": "q", "prompt": "  ", "options": [{OPTION}]}}]}}"#),
        "empty_prompt",
        "questions[0].prompt",
        "the question prompt must not be empty or only whitespace",
    );
}

#[test]
fn invalid_type() {
    assert_problem(
        &one_question(&format!(r#""type": "many", "options": [{OPTION}]"#)),
        "invalid_type",
        "questions[0].type",
        r#"type "many" is not one of "single", "multi", "preview""#,
    );
}

#[test]
fn no_options() {
    assert_problem(
        &one_question(r#""options": []"#),
        "no_options",
        "questions[0].options",
        "a question needs at least one option",
    );
}

#[test]
fn duplicate_question_id() {
    assert_problem(
        &format!(
            r#"{{"questions": [{{"id": "q", "prompt": "p", "options": [{OPTION}]}}, {{"id": "q", "prompt": "p2", "options": [{OPTION}]}}]}}"#
        ),
        "duplicate_question_id",
        "questions[1].id",
        r#"duplicate question id "q": questions[0] already uses it; ids must be unique"#,
    );
}

#[test]
fn duplicate_option_value() {
    assert_problem(
        &one_question(&format!(r#""options": [{OPTION}, {OPTION}]"#)),
        "duplicate_option_value",
        "questions[0].options[1].value",
        r#"duplicate option value "a": questions[0].options[0] already uses it; values must be unique within a question"#,
    );
}

#[test]
fn empty_option_value() {
    assert_problem(
        &one_question(r#""options": [{"value": "", "label": "A"}]"#),
        "empty_option_value",
        "questions[0].options[0].value",
        "the option value must not be empty or only whitespace",
    );
}

#[test]
fn empty_option_label() {
    assert_problem(
        &one_question(r#""options": [{"value": "a", "label": " "}]"#),
        "empty_option_label",
        "questions[0].options[0].label",
        "the option label must not be empty or only whitespace",
    );
}

#[test]
fn blank_description() {
    assert_problem(
        &one_question(r#""options": [{"value": "a", "label": "A", "description": ""}]"#),
        "blank_description",
        "questions[0].options[0].description",
        "the option description must not be blank when provided: give text or leave `description` out",
    );
}

#[test]
fn blank_preview() {
    assert_problem(
        &one_question(r#""options": [{"value": "a", "label": "A", "preview": " "}]"#),
        "blank_preview",
        "questions[0].options[0].preview",
        "the option preview must not be blank when provided: give text or leave `preview` out",
    );
}

#[test]
fn missing_preview() {
    assert_problem(
        &one_question(r#""type": "preview", "options": [{"value": "a", "label": "A"}]"#),
        "missing_preview",
        "questions[0].options[0].preview",
        "preview questions require preview text for every option: add `preview` text to this option, or use type \"single\"",
    );
}

#[test]
fn payload_too_large() {
    let dir = Dir::new();
    let p = dir.file(
        "payload.json",
        &one_question(&format!(
            r#""label": "{}", "options": [{OPTION}]"#,
            "x".repeat(300)
        )),
    );
    let run = run_cmd(
        pi_ask()
            .arg(&p)
            .args(["--no-input", "--max-payload-bytes", "200"]),
    );
    assert_eq!(run.code, 2);
    assert_eq!(
        run.details()["error"]["problems"],
        json!([{"code": "payload_too_large", "path": "",
                "message": format!("the payload from {} is larger than 200 bytes (--max-payload-bytes)", p.display())}])
    );
    assert_eq!(
        run.stderr,
        format!(
            "pi-ask: {} is larger than 200 bytes (--max-payload-bytes)\n",
            p.display()
        )
    );
}

#[test]
fn every_problem_is_reported_at_once() {
    let run =
        run_payload(r#"{"questions": [{"id": "", "prompt": "", "options": []}], "extra": true}"#);
    assert_eq!(run.code, 2);
    let codes: Vec<Value> = run.details()["error"]["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| json!([p["code"], p["path"]]))
        .collect();
    assert_eq!(
        codes,
        vec![
            json!(["empty_question_id", "questions[0].id"]),
            json!(["empty_prompt", "questions[0].prompt"]),
            json!(["no_options", "questions[0].options"]),
            json!(["unknown_field", "extra"]),
        ]
    );
    // stderr: a line naming the file, then every problem with its place and code.
    let (first, rest) = run.stderr.split_once('\n').unwrap();
    assert!(first.starts_with("pi-ask: invalid payload /"), "{first}");
    assert!(first.ends_with("/payload.json: 4 problems"), "{first}");
    assert_eq!(
        rest,
        "  questions[0].id: the question id must not be empty or only whitespace [empty_question_id]\n\
         \x20 questions[0].prompt: the question prompt must not be empty or only whitespace [empty_prompt]\n\
         \x20 questions[0].options: a question needs at least one option [no_options]\n\
         \x20 extra: `extra` is not a field of the payload; known fields: `title`, `questions` [unknown_field]\n"
    );
}

/// Checks the contract's non-interactive result for `examples/database.json`.
fn assert_needs_user_input(run: &Run, why: &str) {
    assert_eq!(run.code, 3, "stderr: {}", run.stderr);
    let details = run.details();
    assert_eq!(
        details,
        json!({
            "cancelled": true,
            "questions": [{"id": "database", "label": "Q1", "prompt": "Which database should the project use?", "type": "single"}],
            "answers": {},
            "error": {"code": "no_ui", "message": format!("{why}; no answers were collected")}
        })
    );
    assert_eq!(
        run.text(),
        format!(
            "Needs user input: ask_user requires interactive UI.\n\
             Reason: {why}.\n\
             Run same tool call in interactive session, or ask user these questions manually:\n\
             1. Q1: Which database should the project use?\n   \
             - PostgreSQL [postgres]: Full relational database with production tooling.\n   \
             - SQLite [sqlite]: Embedded database with minimal setup.\n   \
             - Type your own [custom]\n\
             details.questions contains normalized pending questions. details.answers stays \
             empty until user responds."
        )
    );
}

#[test]
fn no_input_flag_prints_needs_user_input() {
    let run = run_cmd(
        pi_ask()
            .arg(example("database.json"))
            .arg("--no-input")
            .timeout(Duration::from_secs(10)),
    );
    assert_needs_user_input(&run, "pi-ask was run with --no-input");
}

#[test]
fn no_input_reason_gives_the_callers_reason() {
    let run = run_cmd(
        pi_ask()
            .arg(example("database.json"))
            .args(["--no-input-reason", "pi is running in json mode"])
            .timeout(Duration::from_secs(10)),
    );
    assert_needs_user_input(&run, "pi is running in json mode");
    // A blank reason is no reason: the --no-input wording.
    let run = run_cmd(
        pi_ask()
            .arg(example("database.json"))
            .args(["--no-input-reason", " "])
            .timeout(Duration::from_secs(10)),
    );
    assert_needs_user_input(&run, "pi-ask was run with --no-input");
}

#[test]
fn no_controlling_terminal_prints_needs_user_input() {
    // setsid: a new session with no controlling terminal, so /dev/tty cannot be opened.
    let bin = assert_cmd::cargo::cargo_bin("pi-ask");
    let mut cmd = assert_cmd::Command::new("setsid");
    cmd.arg("-w")
        .arg(bin)
        .arg(example("database.json"))
        .env_remove("PI_ASK_ANSWERS")
        .write_stdin("")
        .timeout(Duration::from_secs(10));
    let run = run_cmd(&mut cmd);
    assert_needs_user_input(&run, "no interactive terminal is available");
}

#[test]
fn payload_from_stdin_with_no_input() {
    let text = std::fs::read_to_string(example("database.json")).unwrap();
    let run = run_cmd(pi_ask().arg("--no-input").write_stdin(text));
    assert_needs_user_input(&run, "pi-ask was run with --no-input");
}

#[test]
fn output_file_is_written_whole_and_replaces_the_old_one() {
    let dir = Dir::new();
    let out = dir.file("result.json", "old contents that are longer than nothing");
    let run = run_cmd(
        pi_ask()
            .arg(example("database.json"))
            .arg("--no-input")
            .arg("--output")
            .arg(&out),
    );
    assert_eq!(run.code, 3);
    assert_eq!(run.stdout, "", "stdout stays empty with --output");
    let written = std::fs::read_to_string(&out).unwrap();
    assert!(written.ends_with("}\n"));
    let result: Value = serde_json::from_str(&written).unwrap();
    assert_eq!(result["details"]["error"]["code"], "no_ui");
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, vec!["result.json"], "no temp file is left behind");
}

#[test]
fn output_into_a_missing_folder_exits_4() {
    let dir = Dir::new();
    let out = dir.path().join("missing/result.json");
    let run = run_cmd(
        pi_ask()
            .arg(example("database.json"))
            .arg("--no-input")
            .arg("--output")
            .arg(&out),
    );
    assert_eq!(run.code, 4);
    assert_eq!(run.stdout, "");
    assert_eq!(
        run.stderr,
        format!(
            "pi-ask: cannot write the result to {}: folder {}: No such file or directory\n",
            out.display(),
            dir.path().join("missing").display()
        )
    );
    assert!(!out.exists());
}

#[test]
fn an_empty_stdin_payload_is_malformed_json() {
    // With stdin not a terminal and empty, the payload is read from stdin: empty is malformed.
    let run = run_cmd(pi_ask().arg("--no-input"));
    assert_eq!(run.code, 2);
    assert_eq!(
        run.details()["error"]["problems"][0]["code"],
        "malformed_json"
    );
    assert_eq!(
        run.stderr,
        "pi-ask: the payload on stdin is empty: expected a JSON object\n"
    );
}

/// Regressions from a break-it pass: input edges and output edges of the main command.
mod edges {
    use super::*;

    #[test]
    fn a_utf8_byte_order_mark_is_ignored() {
        let text = format!(
            "\u{feff}{}",
            one_question(&format!(r#""options": [{OPTION}]"#))
        );
        let run = run_payload(&text);
        assert_eq!(run.code, 3, "{}", run.stderr);
        assert_eq!(run.details()["error"]["code"], "no_ui");
    }

    #[test]
    fn an_empty_payload_says_it_is_empty() {
        let dir = Dir::new();
        let p = dir.file("payload.json", " \n");
        let run = run_cmd(pi_ask().arg(&p).arg("--no-input"));
        assert_eq!(run.code, 2);
        let problem = &run.details()["error"]["problems"][0];
        assert_eq!(problem["code"], "malformed_json");
        assert_eq!(
            problem["message"],
            format!(
                "the payload from {} is empty: expected a JSON object",
                p.display()
            )
        );
    }

    #[test]
    fn escape_sequences_in_field_names_are_escaped_on_stderr() {
        let run = run_payload(r#"{"bogus\u001b[2J": 1, "questions": []}"#);
        assert_eq!(run.code, 2);
        assert!(!run.stderr.contains('\u{1b}'), "{:?}", run.stderr);
        assert!(run.stderr.contains("bogus\\e[2J"), "{:?}", run.stderr);
        // The result JSON keeps the name as given.
        assert_eq!(
            run.details()["error"]["problems"][0]["path"],
            "[\"bogus\\u001b[2J\"]"
        );
    }

    #[test]
    fn validate_shows_payload_text_escaped() {
        let dir = Dir::new();
        let p = dir.file(
            "payload.json",
            r#"{"questions": [{"id": "q", "prompt": "P\u001b]0;pwned\u0007", "options": [{"value": "v\u001b[31m", "label": "A\u001b]52;c;aGk=\u0007 \u202e"}]}]}"#,
        );
        let run = run_cmd(pi_ask().arg("validate").arg(&p));
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert!(!run.stdout.contains('\u{1b}'), "{:?}", run.stdout);
        assert!(!run.stdout.contains('\u{202e}'), "{:?}", run.stdout);
        assert!(
            run.stdout
                .contains(r"1) A\e]52;c;aGk=\x07 \u{202e} [v\e[31m]"),
            "{}",
            run.stdout
        );
    }

    #[test]
    fn output_dash_means_stdout() {
        let run = run_cmd(
            pi_ask()
                .arg(example("database.json"))
                .args(["--no-input", "-o", "-"]),
        );
        assert_eq!(run.code, 3);
        assert_eq!(run.details()["error"]["code"], "no_ui");
    }

    #[test]
    fn an_empty_pi_ask_answers_is_unset() {
        let run = run_cmd(
            pi_ask()
                .arg(example("database.json"))
                .arg("--no-input")
                .env("PI_ASK_ANSWERS", ""),
        );
        assert_eq!(run.code, 3, "{}", run.stderr);
    }

    /// A new result file is 0600 whatever the umask, with or without a secret answer (README
    /// "--output").
    #[test]
    fn a_new_output_file_is_the_users_alone_whatever_the_umask() {
        use std::os::unix::fs::PermissionsExt;
        let dir = Dir::new();
        let out = dir.path().join("result.json");
        let status = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                "umask 022; {} {} --no-input -o {}",
                env!("CARGO_BIN_EXE_pi-ask"),
                example("database.json").display(),
                out.display()
            ))
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(3));
        let mode = std::fs::metadata(&out).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{mode:o}");
    }
}

/// Bidirectional overrides in payload strings reach stdout as `\u202e` escapes, so a result
/// printed to a terminal cannot reorder text; the parsed value is unchanged.
#[test]
fn terminal_acting_characters_are_escaped_in_the_result_json() {
    let run = run_payload(&format!(
        r#"{{"title": "x\u202ey\u0085z", "questions": [{{"id": "q", "prompt": "p", "options": [{OPTION}]}}]}}"#
    ));
    assert_eq!(run.code, 3);
    assert!(!run.stdout.contains('\u{202e}'), "{}", run.stdout);
    assert!(!run.stdout.contains('\u{85}'), "{}", run.stdout);
    assert!(
        run.stdout.contains(r#""title": "x\u202ey\u0085z""#),
        "{}",
        run.stdout
    );
    assert_eq!(run.details()["title"], "x\u{202e}y\u{85}z");
}

#[test]
fn many_bad_options_give_the_first_hundred_problems_and_a_count() {
    // 300,000 options that are not objects (the reader's problems) after an empty id (an
    // input rule's, found last but first in document order): 100 listed, the rest counted.
    let options = vec!["1"; 300_000].join(",");
    let run = run_payload(&format!(
        r#"{{"questions": [{{"id": " ", "prompt": "p", "options": [{options}]}}]}}"#
    ));
    assert_eq!(run.code, 2, "{}", run.stderr);
    let mut expected = vec![
        json!({"code": "empty_question_id", "path": "questions[0].id",
        "message": "the question id must not be empty or only whitespace"}),
    ];
    expected.extend((0..99).map(|j| {
        json!({"code": "wrong_type", "path": format!("questions[0].options[{j}]"),
            "message": "an option (like {\"value\": \"...\", \"label\": \"...\"}) must be an object, not a number"})
    }));
    expected.push(json!({"code": "too_many_problems", "path": "",
        "message": "… and 299901 more problems like these; fix the ones above and check again"}));
    let error = &run.details()["error"];
    assert_eq!(error["problems"], Value::Array(expected));
    assert_eq!(
        error["message"],
        "invalid ask_user payload: 300001 problems; fix them and call again"
    );
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines.len(), 102, "{}", run.stderr);
    assert!(lines[0].ends_with(": 300001 problems"), "{}", lines[0]);
    assert_eq!(
        lines[101],
        "  payload: … and 299901 more problems like these; fix the ones above and check again [too_many_problems]"
    );
}

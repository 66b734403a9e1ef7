//! What a person reads on stderr when an input cannot be used (README "Command line"): one
//! line saying what and where for a payload or answers file that cannot be read as JSON, the
//! operating system's words for a file or folder, exit 2 (4 for `--output`); the result's
//! `content` keeps the wording for the calling model.

use crate::scripted_support::{example, pi_ask, run_cmd, Dir, Run};

/// `pi-ask ARGS --no-input`, run in `dir` (so relative paths are as a person types them).
fn run_in(dir: &Dir, args: &[&str]) -> Run {
    run_cmd(
        pi_ask()
            .current_dir(dir.path())
            .args(args)
            .arg("--no-input"),
    )
}

/// Exit 2, exactly `stderr`, and the model-facing `content` starting as before.
fn assert_refused(run: &Run, stderr: &str, content: &str) {
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(run.stderr, stderr);
    let text = run.text();
    assert!(text.starts_with(content), "{text}");
}

#[test]
fn a_mistyped_payload_file_name_is_one_line() {
    let dir = Dir::new();
    let run = run_in(&dir, &["missing.json"]);
    assert_refused(
        &run,
        "pi-ask: cannot read missing.json: No such file or directory\n",
        "Invalid ask_user payload: 1 problem; fix it and call again.\n- payload: cannot read \
         the payload from missing.json: No such file or directory (os error 2) \
         [unreadable_payload]",
    );
}

#[test]
fn a_folder_as_payload_is_one_line() {
    let dir = Dir::new();
    std::fs::create_dir(dir.path().join("questions")).unwrap();
    let run = run_in(&dir, &["questions"]);
    assert_refused(
        &run,
        "pi-ask: cannot read questions: Is a directory\n",
        "Invalid ask_user payload: 1 problem; fix it and call again.\n- payload: cannot read \
         the payload from questions: Is a directory (os error 21) [unreadable_payload]",
    );
}

#[test]
fn an_empty_payload_file_is_one_line() {
    let dir = Dir::new();
    dir.file("empty.json", "\n");
    let run = run_in(&dir, &["empty.json"]);
    assert_refused(
        &run,
        "pi-ask: empty.json is empty: expected a JSON object\n",
        "Invalid ask_user payload: 1 problem; fix it and call again.\n- payload: the payload \
         from empty.json is empty: expected a JSON object [malformed_json]",
    );
}

#[test]
fn bad_json_is_one_line_with_line_and_column() {
    let dir = Dir::new();
    dir.file("bad.json", "{\n  \"questions\": [\n    {\"id\": x}\n");
    let run = run_in(&dir, &["bad.json"]);
    assert_refused(
        &run,
        "pi-ask: bad.json is not valid JSON at line 3, column 12: expected a value: a \"string\", \
         a number, an object, an array, true, false or null\n",
        "Invalid ask_user payload: 1 problem; fix it and call again.\n- payload: not valid \
         JSON at line 3, column 12: expected a value: a \"string\", a number, an object, an \
         array, true, false or null [malformed_json]",
    );
}

#[test]
fn a_payload_that_is_not_utf8_is_one_line() {
    let dir = Dir::new();
    std::fs::write(dir.path().join("latin1.json"), b"{\"title\": \"caf\xe9\"}").unwrap();
    let run = run_in(&dir, &["latin1.json"]);
    assert_refused(
        &run,
        "pi-ask: latin1.json is not UTF-8: an invalid byte at line 1, column 15 (byte offset 14)\n",
        "Invalid ask_user payload: 1 problem; fix it and call again.",
    );
    // On a later line: its line and column.
    std::fs::write(
        dir.path().join("latin1.json"),
        b"{\n  \"title\": \"caf\xe9\"\n}",
    )
    .unwrap();
    let run = run_in(&dir, &["latin1.json"]);
    assert_refused(
        &run,
        "pi-ask: latin1.json is not UTF-8: an invalid byte at line 2, column 16 (byte offset 17)\n",
        "Invalid ask_user payload: 1 problem; fix it and call again.",
    );
}

#[test]
fn half_a_surrogate_pair_is_named_as_such() {
    let dir = Dir::new();
    std::fs::write(dir.path().join("q.json"), br#"{"title": "\ud800"}"#).unwrap();
    let run = run_in(&dir, &["q.json"]);
    assert_refused(
        &run,
        "pi-ask: q.json is not valid JSON at line 1, column 18: a \\u escape of half a surrogate pair (\\uD800 to \\uDFFF) without its other half\n",
        "Invalid ask_user payload: 1 problem; fix it and call again.",
    );
}

#[test]
fn rule_problems_are_listed_under_a_line_naming_the_file() {
    let dir = Dir::new();
    dir.file(
        "q.json",
        r#"{"questions": [{"id": "a", "prompt": "A?", "options": []},
                          {"id": "a", "prompt": "B?", "options": [{"value": "x", "label": "X"}]}]}"#,
    );
    let run = run_in(&dir, &["q.json"]);
    assert_refused(
        &run,
        "pi-ask: invalid payload q.json: 2 problems\n\
         \x20 questions[0].options: a question needs at least one option [no_options]\n\
         \x20 questions[1].id: duplicate question id \"a\": questions[0] already uses it; ids must be \
         unique [duplicate_question_id]\n",
        "Invalid ask_user payload: 2 problems; fix them and call again.\n",
    );
}

/// Payload text quoted in a message is in the one notation of what pi-ask draws (`\e`,
/// `\xNN`), never Rust's `\u{1b}` or JSON's `\u001b`, on stderr and in `content` alike.
#[test]
fn payload_text_in_a_problem_is_escaped_as_everywhere_else() {
    let dir = Dir::new();
    dir.file(
        "q.json",
        r#"{"questions": [{"id": "a\u001b[2Jb", "prompt": "A?", "options": [{"value": "x", "label": "X"}]},
                          {"id": "a\u001b[2Jb", "type": "multi\u0007\n", "prompt": "B?",
                           "options": [{"value": "x", "label": "X"}]}]}"#,
    );
    let run = run_in(&dir, &["q.json"]);
    assert_refused(
        &run,
        "pi-ask: invalid payload q.json: 2 problems\n\
         \x20 questions[1].id: duplicate question id \"a\\e[2Jb\": questions[0] already uses it; \
         ids must be unique [duplicate_question_id]\n\
         \x20 questions[1].type: type \"multi\\x07\\x0a\" is not one of \"single\", \"multi\", \
         \"preview\" [invalid_type]\n",
        "Invalid ask_user payload: 2 problems; fix them and call again.\n\
         - questions[1].id: duplicate question id \"a\\e[2Jb\": questions[0] already uses it; \
         ids must be unique [duplicate_question_id]\n\
         - questions[1].type: type \"multi\\x07\\x0a\" is not one of \"single\", \"multi\", \
         \"preview\" [invalid_type]",
    );
}

#[test]
fn a_missing_answers_file_is_one_line() {
    let dir = Dir::new();
    let payload = example("database.json");
    let run = run_cmd(
        pi_ask()
            .current_dir(dir.path())
            .arg(&payload)
            .args(["--answers", "answers.json"]),
    );
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "pi-ask: cannot read the answers file answers.json: No such file or directory\n"
    );
    assert_eq!(
        run.text(),
        "Invalid answers file: 1 problem; fix it and call again.\n- answers file: cannot read \
         the answers file answers.json: No such file or directory (os error 2) \
         [unreadable_answers]"
    );
}

#[test]
fn answers_that_are_not_json_are_one_line() {
    let dir = Dir::new();
    dir.file("answers.json", "{\"answers\": {\"database\": postgres}}");
    let run = run_cmd(
        pi_ask()
            .current_dir(dir.path())
            .arg(example("database.json"))
            .args(["--answers", "answers.json"]),
    );
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "pi-ask: the answers file answers.json is not valid JSON at line 1, column 26: \
         expected a value: a \"string\", a number, an object, an array, true, false or null\n"
    );
}

#[test]
fn output_into_a_missing_folder_names_it_with_the_os_words() {
    let dir = Dir::new();
    let run = run_in(
        &dir,
        &[
            example("database.json").to_str().unwrap(),
            "-o",
            "results/r.json",
        ],
    );
    assert_eq!(run.code, 4);
    assert_eq!(run.stdout, "");
    assert_eq!(
        run.stderr,
        "pi-ask: cannot write the result to results/r.json: folder results: No such file or \
         directory\n"
    );
}

#[test]
fn output_under_a_file_names_it_with_the_os_words() {
    let dir = Dir::new();
    dir.file("notes.txt", "");
    let run = run_in(
        &dir,
        &[
            example("database.json").to_str().unwrap(),
            "-o",
            "notes.txt/r.json",
        ],
    );
    assert_eq!(run.code, 4);
    assert_eq!(
        run.stderr,
        "pi-ask: cannot write the result to notes.txt/r.json: folder notes.txt: Not a \
         directory\n"
    );
}

#[test]
fn output_path_escape_sequences_are_shown_not_run() {
    // A file name is text a terminal would act on like any other: shown escaped, as the
    // payload's and the answers file's names are.
    let dir = Dir::new();
    let run = run_in(
        &dir,
        &[
            example("database.json").to_str().unwrap(),
            "-o",
            "out\x1b]0;owned\x07\x1b[2J/r.json",
        ],
    );
    assert_eq!(run.code, 4);
    assert_eq!(run.stdout, "");
    assert_eq!(
        run.stderr,
        "pi-ask: cannot write the result to out\\e]0;owned\\x07\\e[2J/r.json: folder \
         out\\e]0;owned\\x07\\e[2J: No such file or directory\n"
    );
}

#[test]
fn output_onto_a_folder_names_it_with_the_os_words() {
    let dir = Dir::new();
    std::fs::create_dir(dir.path().join("out")).unwrap();
    let run = run_in(
        &dir,
        &[example("database.json").to_str().unwrap(), "-o", "out"],
    );
    assert_eq!(run.code, 4);
    assert_eq!(
        run.stderr,
        "pi-ask: cannot write the result to out: Is a directory\n"
    );
}

//! One test per problem code of a bad `--answers` file: exit 2, `details.error` =
//! `{code: "invalid_answers", message, problems: [{code, path, message}]}`, nothing applied
//! (no answers), every problem listed in `content` and on stderr.

use crate::scripted_support::{answer, pi_ask, run_cmd, Dir, Run};
use serde_json::{json, Value};

fn payload() -> Value {
    json!({
        "title": "Setup",
        "questions": [
            {"id": "style", "label": "Style", "prompt": "How should it look?",
             "options": [{"value": "minimal", "label": "Minimal"}, {"value": "rich", "label": "Rich"}]},
            {"id": "fw", "prompt": "Which frameworks?", "type": "multi",
             "options": [{"value": "react", "label": "React"}, {"value": "vue", "label": "Vue"},
                         {"value": "svelte", "label": "Svelte"}]},
            {"id": "fmt", "label": "Format", "prompt": "Which format?", "type": "preview",
             "options": [{"value": "json", "label": "JSON", "preview": "{}"},
                         {"value": "text", "label": "Text", "preview": "a=1"}]}
        ]
    })
}

/// Runs an answers file given as raw text.
fn run_text(answers: &str) -> Run {
    let dir = Dir::new();
    let p = dir.json("payload.json", &payload());
    let a = dir.file("answers.json", answers);
    answer(&p, &a)
}

/// Checks the invalid_answers result and returns its problems as (code, path, message).
fn problems(run: &Run) -> Vec<(String, String, String)> {
    assert_eq!(
        run.code, 2,
        "stdout: {}\nstderr: {}",
        run.stdout, run.stderr
    );
    let details = run.details();
    assert_eq!(details["cancelled"], true);
    assert_eq!(details["answers"], json!({}), "nothing half-done");
    assert_eq!(details["title"], "Setup");
    assert_eq!(details["questions"].as_array().unwrap().len(), 3);
    let error = &details["error"];
    assert_eq!(error["code"], "invalid_answers");
    let list: Vec<(String, String, String)> = error["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["code"].as_str().unwrap().to_string(),
                p["path"].as_str().unwrap().to_string(),
                p["message"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    // The count: a last `too_many_problems` problem counts the ones not listed.
    let n = match list.last() {
        Some((code, _, message)) if code == "too_many_problems" => {
            let more = message
                .strip_prefix("… and ")
                .and_then(|m| m.split(' ').next())
                .and_then(|m| m.parse::<usize>().ok())
                .unwrap();
            list.len() - 1 + more
        }
        _ => list.len(),
    };
    assert_eq!(
        error["message"],
        format!(
            "invalid answers file: {n} problem{}; fix {} and call again",
            if n == 1 { "" } else { "s" },
            if n == 1 { "it" } else { "them" }
        )
    );
    let text = run.text();
    assert!(text.starts_with("Invalid answers file: "), "{text}");
    let mut lines = Vec::new();
    for (code, path, message) in &list {
        let at = if path.is_empty() {
            "answers file"
        } else {
            path
        };
        assert!(
            text.contains(&format!("- {at}: {message} [{code}]")),
            "{text}"
        );
        lines.push(format!("  {at}: {message} [{code}]"));
    }
    let reading = ["unreadable_answers", "answers_too_large", "malformed_json"];
    if n == 1 && list[0].1.is_empty() && reading.contains(&list[0].0.as_str()) {
        // A file that cannot be read as JSON: one line for a person (its own test checks it).
        assert!(run.stderr.starts_with("pi-ask: "), "{}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
        assert!(!run.stderr.contains(" [malformed_json]"), "{}", run.stderr);
    } else {
        // The answers file's name (a temp path), the count, then every problem.
        let (first, rest) = run.stderr.split_once('\n').unwrap();
        assert!(
            first.starts_with("pi-ask: invalid answers file "),
            "{first}"
        );
        assert!(
            first.ends_with(&format!(": {n} problem{}", if n == 1 { "" } else { "s" })),
            "{first}"
        );
        assert_eq!(rest, format!("{}\n", lines.join("\n")));
    }
    list
}

fn one(code: &str, path: &str, message: &str) -> Vec<(String, String, String)> {
    vec![(code.to_string(), path.to_string(), message.to_string())]
}

#[test]
fn malformed_json_gives_line_and_column() {
    let dir = Dir::new();
    let p = dir.json("payload.json", &payload());
    let a = dir.file(
        "answers.json",
        "{\"answers\": {\n  \"style\": \"minimal\",\n  \"fw\" [\"vue\"]\n}}",
    );
    let run = answer(&p, &a);
    assert_eq!(
        problems(&run),
        one(
            "malformed_json",
            "",
            "not valid JSON at line 3, column 8: expected `:`"
        )
    );
    assert_eq!(
        run.stderr,
        format!(
            "pi-ask: the answers file {} is not valid JSON at line 3, column 8: expected `:`\n",
            a.display()
        )
    );
}

#[test]
fn not_utf8_is_malformed_json() {
    let dir = Dir::new();
    let p = dir.json("payload.json", &payload());
    let a = dir.path().join("answers.json");
    std::fs::write(&a, b"{\"answers\": {\"style\": \"min\xffimal\"}}").unwrap();
    let run = answer(&p, &a);
    assert_eq!(
        problems(&run),
        one(
            "malformed_json",
            "",
            &format!(
                "the answers file {} is not UTF-8: an invalid byte at line 1, column 27 (byte offset 26)",
                a.display()
            )
        )
    );
    assert_eq!(
        run.stderr,
        format!(
            "pi-ask: the answers file {} is not UTF-8: an invalid byte at line 1, column 27 (byte offset 26)\n",
            a.display()
        )
    );
}

#[test]
fn unreadable_answers_names_the_file() {
    let dir = Dir::new();
    let p = dir.json("payload.json", &payload());
    let missing = dir.path().join("nope.json");
    let run = answer(&p, &missing);
    let list = problems(&run);
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].0, "unreadable_answers");
    assert_eq!(list[0].1, "");
    // The result keeps Rust's wording for the calling model; stderr gives the OS's words.
    assert_eq!(
        list[0].2,
        format!(
            "cannot read the answers file {}: No such file or directory (os error 2)",
            missing.display()
        )
    );
    assert_eq!(
        run.stderr,
        format!(
            "pi-ask: cannot read the answers file {}: No such file or directory\n",
            missing.display()
        )
    );
}

#[test]
fn answers_from_the_environment_are_named_as_the_answers_file() {
    let dir = Dir::new();
    let p = dir.json("payload.json", &payload());
    let run = run_cmd(pi_ask().arg(&p).env("PI_ASK_ANSWERS", dir.path()));
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        format!(
            "pi-ask: cannot read the answers file {}: Is a directory\n",
            dir.path().display()
        )
    );
}

#[test]
fn an_empty_answers_file_on_stdin_says_so() {
    let dir = Dir::new();
    let p = dir.json("payload.json", &payload());
    let run = run_cmd(pi_ask().arg(&p).args(["--answers", "-"]).write_stdin("\n"));
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "pi-ask: the answers file on stdin is empty: expected a JSON object\n"
    );
}

#[test]
fn answers_too_large_is_refused_before_parsing() {
    // The limit is --max-payload-bytes plus 16 times the payload's size (room for any result
    // of the payload to replay).
    let dir = Dir::new();
    let p = dir.json("payload.json", &payload());
    let limit = 1500 + 16 * std::fs::metadata(&p).unwrap().len();
    let a = dir.file(
        "answers.json",
        &format!(
            "{{\"answers\": {{}}, \"title\": \"{}\"}}",
            "x".repeat(limit as usize)
        ),
    );
    let run = run_cmd(
        pi_ask()
            .arg(&p)
            .arg("--answers")
            .arg(&a)
            .args(["--max-payload-bytes", "1500"]),
    );
    let why = format!(
        "is larger than {limit} bytes (--max-payload-bytes plus 16 times the payload's size)"
    );
    assert_eq!(
        problems(&run),
        one(
            "answers_too_large",
            "",
            &format!("the answers file {} {why}", a.display())
        )
    );
    assert_eq!(
        run.stderr,
        format!("pi-ask: the answers file {} {why}\n", a.display())
    );
    // One byte less fits.
    let fits = dir.file(
        "fits.json",
        &format!(
            "{{\"answers\": {{}}, \"title\": \"{}\"}}",
            "x".repeat(limit as usize - 28)
        ),
    );
    assert_eq!(std::fs::metadata(&fits).unwrap().len(), limit);
    let run = run_cmd(
        pi_ask()
            .arg(&p)
            .arg("--answers")
            .arg(&fits)
            .args(["--max-payload-bytes", "1500"]),
    );
    assert_eq!((run.code, run.stderr.as_str()), (0, ""));
}

#[test]
fn wrong_json_types_are_named() {
    let run = run_text(
        r#"{"answers": {"style": true, "fw": {"values": "react", "note": 3, "optionNotes": []},
            "fmt": {"values": [1.5, null]}}, "cancelled": "no"}"#,
    );
    assert_eq!(
        problems(&run),
        vec![
            ("wrong_type".into(), "cancelled".into(), "`cancelled` must be true or false, not a string".into()),
            ("wrong_type".into(), "answers.style".into(), "an answer must be an option value (string), a 1-based position (number), an array of them, or an object {values, customText, note, optionNotes}, not a boolean".into()),
            ("wrong_type".into(), "answers.fw.note".into(), "`note` must be a string, not a number".into()),
            ("wrong_type".into(), "answers.fw.values".into(), "`values` must be an array of option values or positions, not a string".into()),
            ("wrong_type".into(), "answers.fw.optionNotes".into(), "`optionNotes` must be an object of option value to note text, not an array".into()),
            ("wrong_type".into(), "answers.fmt.values[0]".into(), "an option position must be a whole number from 1 to 2, not 1.5".into()),
            ("wrong_type".into(), "answers.fmt.values[1]".into(), "an option must be named by its value (string) or 1-based position (number), not null".into()),
        ]
    );
}

#[test]
fn the_document_must_be_an_object() {
    let run = run_text(r#"["minimal"]"#);
    assert_eq!(
        problems(&run),
        one(
            "wrong_type",
            "",
            "the answers file must be a JSON object like {\"answers\": {\"<question id>\": \"<option value>\"}}, not an array"
        )
    );
}

#[test]
fn unknown_fields_name_the_nearest_known_one() {
    let run =
        run_text(r#"{"answer": {}, "answers": {"fw": {"custom_text": "Qwik", "valuez": []}}}"#);
    assert_eq!(
        problems(&run),
        vec![
            (
                "unknown_field".into(),
                "answer".into(),
                "`answer` is not a field of an answers file; did you mean `answers`?".into()
            ),
            (
                "unknown_field".into(),
                "answers.fw.custom_text".into(),
                "`custom_text` is not a field of an answer; did you mean `customText`?".into()
            ),
            (
                "unknown_field".into(),
                "answers.fw.valuez".into(),
                "`valuez` is not a field of an answer; did you mean `values`?".into()
            ),
        ]
    );
}

#[test]
fn missing_answers_and_cancelled() {
    let run = run_text(r#"{"title": "Setup"}"#);
    assert_eq!(
        problems(&run),
        one(
            "missing_field",
            "answers",
            "`answers` is missing: give {\"answers\": {\"<question id>\": ...}}, or {\"cancelled\": true} to script a dismissal"
        )
    );
}

#[test]
fn unknown_question_names_the_closest_id() {
    let run = run_text(r#"{"answers": {"styel": "minimal", "other question": 1}}"#);
    assert_eq!(
        problems(&run),
        vec![
            ("unknown_question".into(), "answers.styel".into(), "the payload has no question with id \"styel\"; did you mean \"style\"? question ids: \"style\", \"fw\", \"fmt\"".into()),
            ("unknown_question".into(), "answers[\"other question\"]".into(), "the payload has no question with id \"other question\"; question ids: \"style\", \"fw\", \"fmt\"".into()),
        ]
    );
}

#[test]
fn unknown_option_names_the_valid_values_and_the_closest() {
    let run = run_text(
        r##"{"answers": {"fw": {"values": ["react", "reakt"]}, "style": 3, "fmt": "#0"}}"##,
    );
    assert_eq!(
        problems(&run),
        vec![
            ("unknown_option".into(), "answers.fw.values[1]".into(), "question \"fw\" has no option with value \"reakt\"; did you mean \"react\"? valid values: \"react\", \"vue\", \"svelte\" (or a position 1..3)".into()),
            ("unknown_option".into(), "answers.style".into(), "question \"style\" has no option 3: positions run from 1 to 2".into()),
            ("unknown_option".into(), "answers.fmt".into(), "question \"fmt\" has no option #0: positions run from 1 to 2".into()),
        ]
    );
}

#[test]
fn two_values_on_a_single_select_question() {
    let run = run_text(
        r#"{"answers": {"style": ["minimal", "rich"], "fmt": {"values": ["json", "text"]}}}"#,
    );
    assert_eq!(
        problems(&run),
        vec![
            ("too_many_values".into(), "answers.style".into(), "question \"style\" is single-select and takes only one option; got \"minimal\", \"rich\"".into()),
            ("too_many_values".into(), "answers.fmt.values".into(), "question \"fmt\" is a preview question and takes only one option; got \"json\", \"text\"".into()),
        ]
    );
}

#[test]
fn an_option_and_custom_text_on_a_single_select_question() {
    let run =
        run_text(r#"{"answers": {"style": {"values": ["rich"], "customText": "Brutalist"}}}"#);
    assert_eq!(
        problems(&run),
        one(
            "too_many_values",
            "answers.style.values",
            "question \"style\" is single-select and takes one option or custom text, not both; got \"rich\" and custom text \"Brutalist\""
        )
    );
}

#[test]
fn custom_text_on_a_preview_question_is_its_answer() {
    let run = run_text(r#"{"answers": {"fmt": {"customText": "YAML"}}}"#);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_eq!(
        run.details()["answers"],
        json!({"fmt": {"values": ["YAML"], "labels": ["YAML"], "indices": [], "customText": "YAML"}})
    );
    assert_eq!(
        problems(&run_text(
            r#"{"answers": {"fmt": {"values": ["json"], "customText": "YAML"}}}"#
        ))[0]
            .0,
        "too_many_values"
    );
}

#[test]
fn an_option_note_on_an_unselected_option_is_kept_when_elaborating() {
    let run = run_text(
        r#"{"mode": "elaborate", "answers": {"fw": {"values": ["react"], "optionNotes": {"vue": "never used"}}}}"#,
    );
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    let details = run.details();
    assert_eq!(details["mode"], "elaborate");
    assert_eq!(
        details["elaboration"]["items"][0]["target"],
        json!({"kind": "option", "optionValue": "vue"})
    );
    assert_eq!(details["elaboration"]["items"][0]["selected"], false);
    assert_eq!(
        problems(&run_text(r#"{"mode": "later", "answers": {}}"#)),
        one(
            "wrong_type",
            "mode",
            "`mode` must be \"submit\" or \"elaborate\", not \"later\""
        )
    );
}

#[test]
fn an_option_note_for_an_option_that_is_not_selected() {
    let run = run_text(
        r#"{"answers": {"fw": {"values": ["react"], "optionNotes": {"react": "ok", "vue": "never used"}}}}"#,
    );
    assert_eq!(
        problems(&run),
        one(
            "option_note_not_selected",
            "answers.fw.optionNotes.vue",
            "option \"vue\" of question \"fw\" has a note but is not selected; select it in `values` or drop the note (only notes of selected options are kept)"
        )
    );
}

#[test]
fn blank_custom_text_and_notes() {
    let run = run_text(
        r#"{"answers": {"fw": {"values": ["vue"], "customText": " ", "note": "", "optionNotes": {"vue": "\t"}}}}"#,
    );
    assert_eq!(
        problems(&run),
        vec![
            (
                "blank_text".into(),
                "answers.fw.customText".into(),
                "`customText` must not be empty or only whitespace: give text or leave it out"
                    .into()
            ),
            (
                "blank_text".into(),
                "answers.fw.note".into(),
                "`note` must not be empty or only whitespace: give text or leave it out".into()
            ),
            (
                "blank_text".into(),
                "answers.fw.optionNotes.vue".into(),
                "an option note must not be empty or only whitespace: give text or leave it out"
                    .into()
            ),
        ]
    );
}

#[test]
fn one_bad_entry_leaves_every_question_unanswered() {
    // `style` alone is fine, but the file as a whole is not: nothing is applied.
    let run = run_text(r#"{"answers": {"style": "minimal", "fw": ["nope"]}}"#);
    assert_eq!(problems(&run).len(), 1);
}

#[test]
fn notes_past_their_budget_are_too_many_notes_at_the_first_one_past_it() {
    // One question of 1000 options: 27,784 bytes of context (218 units of 128), so a note
    // weighs 1 + 218 + the notes' units and 89 fit (20,000 in all). Before the budget, every
    // note was taken and the result held the question 1000 times.
    let options: Vec<Value> = (0..1000)
        .map(|i| json!({"value": format!("v{i}"), "label": format!("Label number {i}")}))
        .collect();
    let payload = json!({"questions": [
        {"id": "q", "prompt": "P", "type": "multi", "options": options}]});
    let notes = |n: usize| -> Value {
        (0..n)
            .map(|i| (format!("v{i}"), json!(format!("note {i}"))))
            .collect::<serde_json::Map<_, _>>()
            .into()
    };
    let run = crate::scripted_support::answer_json(
        &payload,
        &json!({"mode": "elaborate", "answers": {"q": {"optionNotes": notes(1000)}}}),
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    let error = &run.details()["error"];
    assert_eq!(error["code"], "invalid_answers");
    assert_eq!(
        error["problems"],
        json!([{"code": "too_many_notes", "path": "answers.q.optionNotes.v89",
            "message": "too many notes: an elaborate result repeats a question with all its \
                options, its answer and its notes for each note (question 1's notes would weigh 20160), 20000 \
                in all at most; shorten or clear a note or the custom text first"}])
    );
    // 89 notes fit: an elaborate result of 89 items.
    let run = crate::scripted_support::answer_json(
        &payload,
        &json!({"mode": "elaborate", "answers": {"q": {"optionNotes": notes(89)}}}),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let items = &run.details()["elaboration"]["items"];
    assert_eq!(items.as_array().unwrap().len(), 89);
}

#[test]
fn a_custom_text_counts_in_the_notes_budget() {
    // 300 short options (36 units of context) and a custom text of 64,000 bytes, which each
    // note's item repeats 4 times: a note weighs 1 + 36 + (notes' bytes + 256,000) / 128, so
    // 9 fit and the tenth is refused (10 × 2,038). Before, every note was taken: with a 4 MB custom text the
    // run took over 13 GB of memory.
    let options: Vec<Value> = (0..300)
        .map(|i| json!({"value": format!("o{i}"), "label": format!("o{i}")}))
        .collect();
    let payload = json!({"questions": [
        {"id": "q", "prompt": "P", "type": "multi", "options": options}]});
    let values: Vec<String> = (0..300).map(|i| format!("o{i}")).collect();
    let notes: serde_json::Map<String, Value> =
        (0..300).map(|i| (format!("o{i}"), json!("n"))).collect();
    let answers = |n: usize| {
        let notes: serde_json::Map<String, Value> = notes.clone().into_iter().take(n).collect();
        json!({"mode": "elaborate", "answers": {"q": {"values": values,
            "customText": "x".repeat(64_000), "optionNotes": notes}}})
    };
    let run = crate::scripted_support::answer_json(&payload, &answers(300));
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(
        run.details()["error"]["problems"],
        json!([{"code": "too_many_notes", "path": "answers.q.optionNotes.o9",
            "message": "too many notes: an elaborate result repeats a question with all its \
                options, its answer and its notes for each note (question 1's notes would \
                weigh 20380), 20000 in all at most; shorten or clear a note or the custom text \
                first"}])
    );
    let run = crate::scripted_support::answer_json(&payload, &answers(9));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.details()["elaboration"]["items"]
            .as_array()
            .unwrap()
            .len(),
        9
    );
}

#[test]
fn long_notes_past_their_budget_are_too_many_notes() {
    // Three short options: a 1 MB note weighs 1 + 1 + 7,813 units, two weigh 2 × 15,627, past
    // the 20,000. Counting options only, both were taken: each of the result's items repeated
    // both notes (in `answer.optionNotes`).
    let payload = json!({"questions": [{"id": "q", "prompt": "P", "type": "multi",
        "options": [{"value": "a", "label": "A"}, {"value": "b", "label": "B"},
            {"value": "c", "label": "C"}]}]});
    let mb = "x".repeat(1_000_000);
    let run = crate::scripted_support::answer_json(
        &payload,
        &json!({"answers": {"q": {"values": ["a", "b"], "optionNotes": {"a": mb, "b": mb}}}}),
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    let problems = &run.details()["error"]["problems"];
    assert_eq!(problems[0]["code"], "too_many_notes");
    assert_eq!(problems[0]["path"], "answers.q.optionNotes.b");
    assert!(
        problems[0]["message"]
            .as_str()
            .unwrap()
            .contains("(question 1's notes would weigh 31254)"),
        "{problems}"
    );
    assert_eq!(problems.as_array().unwrap().len(), 1);
    // One of them, with a short one, fits.
    let run = crate::scripted_support::answer_json(
        &payload,
        &json!({"answers": {"q": {"values": ["a", "b"], "optionNotes": {"a": mb, "b": "short"}}}}),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
}

#[test]
fn two_million_bad_positions_give_the_first_hundred_problems_and_a_count() {
    // 4 MB, under the answers file's size limit: one problem per position would be an 880 MB
    // result and minutes of work; the first 100 are listed, the last problem counts the rest.
    let n = 2_000_000;
    let text = format!(r#"{{"answers": {{"fw": [{}]}}}}"#, vec!["9"; n].join(","));
    let run = run_text(&text);
    let mut expected: Vec<(String, String, String)> = (0..100)
        .map(|i| {
            (
                "unknown_option".to_string(),
                format!("answers.fw[{i}]"),
                "question \"fw\" has no option 9: positions run from 1 to 3".to_string(),
            )
        })
        .collect();
    expected.push((
        "too_many_problems".to_string(),
        String::new(),
        "… and 1999900 more problems like these; fix the ones above and check again".to_string(),
    ));
    assert_eq!(problems(&run), expected);
    assert_eq!(
        run.details()["error"]["message"],
        "invalid answers file: 2000000 problems; fix them and call again"
    );
    assert!(run.stdout.len() < 100_000, "{} bytes", run.stdout.len());
    assert_eq!(run.stderr.lines().count(), 102, "{}", run.stderr);
}

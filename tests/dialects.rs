//! The other systems' payloads and results (docs/dialects.md), end to end with the real
//! binary: the seeds' example payloads (examples/dialects/: mickyyy68/pi-ask's two, mickyyy68/pi-ask's README;
//! @yishan-io/pi-ask's), a Claude Code one and pi's example questionnaire, in every
//! mode (`validate`, `--answers`, the terminal and plain mode in a pty), with results in the
//! contract's format and in their own.
//!
//! `tests/fixtures/dialects/NAME.result.json` (the contract's) and `NAME.FORMAT.result.json`
//! (the payload's own format) were recorded with
//! `pi-ask examples/dialects/NAME.json --answers tests/fixtures/dialects/NAME.answers.json
//! [--result-format FORMAT]`; the pty sessions below make the same choices with keys and
//! lines and must give exactly the same JSON.

use crate::common::pty::{Options, Session};
use crate::scripted_support::{pi_ask, root, run_cmd, Dir, Run};
use serde_json::{json, Value};
use std::path::PathBuf;

const DOWN: &str = "\x1b[B";
/// The end of a question's hint line, the block's last line: the whole block is drawn.
const HINT: &str = "· ? keys";
/// The custom-text editor's hint line, the first of its block.
const ANSWER_EDITOR: &str = "Type your own · Enter submit · Esc close";
/// An empty custom-text editor is reading keys: rustyline draws its placeholder.
const ANSWER_READY: &str = "\n> Type answer...";

/// Each example payload and the result format of its own system (`None`: pi's questionnaire
/// reads the contract's result).
const EXAMPLES: &[(&str, Option<&str>)] = &[
    ("mickyyy68-minimal", Some("mickyyy68")),
    ("mickyyy68", Some("mickyyy68")),
    ("yishan", Some("yishan")),
    ("claude-code", Some("claude-code")),
    ("pi-questionnaire", None),
];

fn payload(name: &str) -> PathBuf {
    root()
        .join("examples/dialects")
        .join(format!("{name}.json"))
}

fn fixture(name: &str) -> PathBuf {
    root().join("tests/fixtures/dialects").join(name)
}

fn read_json(path: &PathBuf) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The recorded result of NAME's answers file, in `format` (`None`: the contract's).
fn recorded(name: &str, format: Option<&str>) -> Value {
    read_json(&fixture(&match format {
        Some(f) => format!("{name}.{f}.result.json"),
        None => format!("{name}.result.json"),
    }))
}

fn format_args(format: Option<&str>) -> Vec<&str> {
    format.map_or_else(Vec::new, |f| vec!["--result-format", f])
}

/// `pi-ask PAYLOAD --answers ANSWERS [--result-format FORMAT]`.
fn answered(payload: &PathBuf, answers: &PathBuf, format: Option<&str>) -> Run {
    run_cmd(
        pi_ask()
            .arg(payload)
            .arg("--answers")
            .arg(answers)
            .args(format_args(format)),
    )
}

#[test]
fn validate_reports_each_format_and_the_normalized_payload() {
    let expected = [
        (
            "mickyyy68-minimal",
            json!({"valid": true, "format": "mickyyy68", "payload": {"questions": [{
                "id": "q1", "label": "Q1", "prompt": "Which database should the project use?",
                "type": "single", "required": false, "options": [
                    {"value": "postgres", "label": "PostgreSQL", "description": "Full relational database with production tooling."},
                    {"value": "sqlite", "label": "SQLite", "description": "Embedded database with minimal setup."}]}]}}),
        ),
        (
            "mickyyy68",
            json!({"valid": true, "format": "mickyyy68", "payload": {"questions": [
                {"id": "language", "label": "Language", "prompt": "Which language should the project use?",
                 "type": "single", "required": false, "options": [
                    {"value": "typescript", "label": "TypeScript"}, {"value": "python", "label": "Python"}]},
                {"id": "features", "label": "Features", "prompt": "Which features should be included?",
                 "type": "multi", "required": false, "options": [
                    {"value": "auth", "label": "Authentication"}, {"value": "api", "label": "REST API"},
                    {"value": "jobs", "label": "Background jobs"}]}]}}),
        ),
        (
            "yishan",
            json!({"valid": true, "format": "yishan", "payload": {"questions": [{
                "id": "q1", "label": "Q1", "prompt": "Which environment should we use?",
                "context": "We need one target for the next deployment.",
                "type": "single", "required": false, "options": [
                    {"value": "staging", "label": "staging"},
                    {"value": "production", "label": "production", "description": "Customer-facing"}]}]}}),
        ),
        (
            "claude-code",
            json!({"valid": true, "format": "claude-code", "payload": {"questions": [
                {"id": "q1", "label": "Library", "prompt": "Which library should we use for date formatting?",
                 "type": "single", "required": false, "options": [
                    {"value": "date-fns", "label": "date-fns", "description": "Modular functions, tree-shakable."},
                    {"value": "Day.js", "label": "Day.js", "description": "Small, Moment-like API."},
                    {"value": "Luxon", "label": "Luxon", "description": "Time zones built in."}]},
                {"id": "q2", "label": "Checks", "prompt": "Which checks should run before each commit?",
                 "type": "multi", "required": false, "options": [
                    {"value": "Lint", "label": "Lint", "description": "ESLint on staged files."},
                    {"value": "Types", "label": "Types", "description": "tsc --noEmit."},
                    {"value": "Tests", "label": "Tests", "description": "Unit tests of changed packages."}]}]}}),
        ),
        (
            "pi-questionnaire",
            json!({"valid": true, "format": "pi-questionnaire", "payload": {"questions": [
                {"id": "scope", "label": "Scope", "prompt": "How much of the module should the refactor touch?",
                 "type": "single", "required": false, "allowFreeform": false, "options": [
                    {"value": "minimal", "label": "Minimal", "description": "Only the failing function."},
                    {"value": "module", "label": "Whole module"}]},
                {"id": "priority", "label": "Priority", "prompt": "How urgent is it?",
                 "type": "single", "required": false, "options": [
                    {"value": "now", "label": "Now"}, {"value": "later", "label": "This week"}]}]}}),
        ),
    ];
    for (name, want) in expected {
        let run = run_cmd(pi_ask().args(["validate", "--json"]).arg(payload(name)));
        assert_eq!(run.code, 0, "{name}: {}", run.stderr);
        assert_eq!(run.json(), want, "{name}");
        // Asked for by name, the same.
        let run = run_cmd(
            pi_ask()
                .args([
                    "validate",
                    "--json",
                    "--input-format",
                    want["format"].as_str().unwrap(),
                ])
                .arg(payload(name)),
        );
        assert_eq!(run.json(), want, "{name} by name");
    }
}

#[test]
fn validate_text_names_the_format_and_shows_the_context_and_free_text() {
    let run = run_cmd(pi_ask().arg("validate").arg(payload("yishan")));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "Read as the yishan format (@yishan-io/pi-ask), normalized to the contract's questions.\n\
         Valid payload: 1 question.\n\
         1. Q1 (id: q1; choose one): Which environment should we use?\n   \
         context: We need one target for the next deployment.\n   \
         1) staging [staging]\n   \
         2) production [production]: Customer-facing\n   \
         or the user's own answer in their words\n"
    );
    let run = run_cmd(pi_ask().arg("validate").arg(payload("pi-questionnaire")));
    assert_eq!(
        run.stdout,
        "Read as the pi-questionnaire format (pi's example questionnaire), normalized to the contract's questions.\n\
         Valid payload: 2 questions.\n\
         1. Scope (id: scope; choose one): How much of the module should the refactor touch?\n   \
         1) Minimal [minimal]: Only the failing function.\n   \
         2) Whole module [module]\n\
         2. Priority (id: priority; choose one): How urgent is it?\n   \
         1) Now [now]\n   \
         2) This week [later]\n   \
         or the user's own answer in their words\n"
    );
}

#[test]
fn answers_give_the_recorded_results_in_the_contract_and_the_own_format() {
    for &(name, own) in EXAMPLES {
        let answers = fixture(&format!("{name}.answers.json"));
        for format in [None, own]
            .into_iter()
            .collect::<std::collections::BTreeSet<_>>()
        {
            let run = answered(&payload(name), &answers, format);
            assert_eq!(run.code, 0, "{name} {format:?}: {}", run.stderr);
            assert_eq!(run.json(), recorded(name, format), "{name} {format:?}");
        }
    }
}

#[test]
fn every_example_writes_every_result_format_and_each_replays() {
    for &(name, _) in EXAMPLES {
        let contract = recorded(name, None);
        for format in ["contract", "mickyyy68", "yishan", "claude-code"] {
            let run = answered(
                &payload(name),
                &fixture(&format!("{name}.answers.json")),
                Some(format),
            );
            assert_eq!(run.code, 0, "{name} {format}: {}", run.stderr);
            let result = run.json();
            assert_eq!(result["content"], contract["content"], "{name} {format}");
            // The result in this format, and its details alone, replay to the same answers.
            let dir = Dir::new();
            for (what, file) in [
                ("result", dir.json("result.json", &result)),
                ("details", dir.json("details.json", &result["details"])),
            ] {
                let again = answered(&payload(name), &file, None);
                assert_eq!(again.code, 0, "{name} {format} {what}: {}", again.stderr);
                assert_eq!(again.json(), contract, "{name} {format} {what} replays");
            }
        }
    }
}

#[test]
fn notes_survive_every_format() {
    let answers = json!({"answers": {
        "language": {"values": ["python"], "note": "team knows it"},
        "features": {"values": ["auth", "jobs"], "customText": "Dark mode, maybe",
                     "optionNotes": {"jobs": "nightly only"}}
    }});
    let dir = Dir::new();
    let file = dir.json("answers.json", &answers);
    let contract = answered(&payload("mickyyy68"), &file, None).json();
    let expected = [
        (
            "mickyyy68",
            json!({
                "answers": [
                    {"questionId": "language", "question": "Which language should the project use?",
                     "selections": [{"value": "python", "label": "Python", "custom": false}]},
                    {"questionId": "features", "question": "Which features should be included?",
                     "selections": [{"value": "auth", "label": "Authentication", "custom": false},
                                    {"value": "jobs", "label": "Background jobs", "custom": false},
                                    {"value": "Dark mode, maybe", "label": "Dark mode, maybe", "custom": true}]}
                ],
                "cancelled": false,
                "notes": {"language": {"note": "team knows it"},
                          "features": {"optionNotes": {"jobs": "nightly only"}}}
            }),
        ),
        (
            "yishan",
            json!([
                {"question": "Which language should the project use?", "context": null,
                 "options": [{"title": "TypeScript"}, {"title": "Python"}], "response": "Python",
                 "cancelled": false, "notes": {"language": {"note": "team knows it"}}},
                {"question": "Which features should be included?", "context": null,
                 "options": [{"title": "Authentication"}, {"title": "REST API"}, {"title": "Background jobs"}],
                 "response": ["Authentication", "Background jobs", "Dark mode, maybe"], "cancelled": false,
                 "notes": {"features": {"optionNotes": {"jobs": "nightly only"}}}}
            ]),
        ),
        (
            "claude-code",
            json!({
                "questions": [
                    {"question": "Which language should the project use?", "header": "Language",
                     "options": [{"label": "TypeScript"}, {"label": "Python"}], "multiSelect": false},
                    {"question": "Which features should be included?", "header": "Features",
                     "options": [{"label": "Authentication"}, {"label": "REST API"}, {"label": "Background jobs"}],
                     "multiSelect": true}
                ],
                "answers": {"Which language should the project use?": "Python",
                            "Which features should be included?": "Authentication, Background jobs, Dark mode, maybe"},
                "annotations": {"Which language should the project use?": {"notes": "team knows it"}},
                "notes": {"features": {"optionNotes": {"jobs": "nightly only"}}},
                "cancelled": false
            }),
        ),
    ];
    for (format, details) in expected {
        let run = answered(&payload("mickyyy68"), &file, Some(format));
        let result = run.json();
        assert_eq!(
            result,
            json!({"content": contract["content"], "details": details}),
            "{format}"
        );
        let replay = dir.json("replay.json", &result);
        assert_eq!(
            answered(&payload("mickyyy68"), &replay, None).json(),
            contract,
            "{format} replays"
        );
    }
}

#[test]
fn results_without_answers_in_each_format() {
    let no_input = |name: &str, format: &str| {
        let run =
            run_cmd(
                pi_ask()
                    .arg(payload(name))
                    .args(["--no-input", "--result-format", format]),
            );
        assert_eq!(run.code, 3, "{}", run.stderr);
        run.json()
    };
    let result = no_input("yishan", "yishan");
    assert_eq!(
        result["details"],
        json!({
            "question": "Which environment should we use?",
            "context": "We need one target for the next deployment.",
            "options": [{"title": "staging"}, {"title": "production", "description": "Customer-facing"}],
            "response": null,
            "cancelled": true,
            "unavailableReason": "pi-ask was run with --no-input; no answers were collected"
        })
    );
    assert!(
        result["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("   context: We need one target for the next deployment.\n"),
        "{result}"
    );
    assert_eq!(
        no_input("mickyyy68", "mickyyy68")["details"],
        json!({"answers": [], "cancelled": true, "error": {"code": "no_ui",
               "message": "pi-ask was run with --no-input; no answers were collected"}})
    );
    let cancelled = json!({"cancelled": true});
    let dir = Dir::new();
    let file = dir.json("cancel.json", &cancelled);
    let run = answered(&payload("claude-code"), &file, Some("claude-code"));
    assert_eq!(run.code, 1);
    let details = run.json()["details"].clone();
    assert_eq!(details["answers"], json!({}));
    assert_eq!(details["cancelled"], true);
    assert!(details.get("error").is_none(), "{details}");
}

#[test]
fn an_invalid_payload_in_the_mickyyy68_result_format_uses_the_seeds_code() {
    let dir = Dir::new();
    let bad = dir.file(
        "bad.json",
        r#"{"questions": [{"header": "H", "question": "q", "options": [{"label": "A"}, {"label": "A"}]}]}"#,
    );
    let run = run_cmd(
        pi_ask()
            .arg(&bad)
            .args(["--no-input", "--result-format", "mickyyy68"]),
    );
    assert_eq!(run.code, 2);
    assert_eq!(
        run.json()["details"],
        json!({"answers": [], "cancelled": true, "error": {
            "code": "duplicate_option_value",
            "message": "invalid ask_user payload: 1 problem; fix it and call again",
            "problems": [{"code": "duplicate_option_value", "path": "questions[0].options[1].label",
                          "message": "duplicate option value \"A\": questions[0].options[0] already uses it; values must be unique within a question"}]}})
    );
}

#[test]
fn the_seeds_limits_warn_and_refuse_under_strict() {
    let dir = Dir::new();
    let options: Vec<Value> = (1..=6)
        .map(|i| json!({"label": format!("Option {i}")}))
        .collect();
    let p = dir.json(
        "six.json",
        &json!({"questions": [{"question": "Which?", "options": options}]}),
    );
    let run = run_cmd(pi_ask().arg("validate").arg(&p));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.ends_with(
            "Warnings: limits of mickyyy68/pi-ask (pi-ask asks anyway; --strict refuses):\n  \
             questions[0].options: mickyyy68/pi-ask takes 2 to 5 options per question; this question has 6 [too_many_options]\n"
        ),
        "{}",
        run.stdout
    );
    let report = run_cmd(pi_ask().args(["validate", "--json"]).arg(&p)).json();
    assert_eq!(report["warnings"][0]["code"], "too_many_options");
    let answers = dir.json("a.json", &json!({"answers": {"q1": "Option 6"}}));
    assert_eq!(answered(&p, &answers, None).code, 0);
    let run =
        run_cmd(
            pi_ask()
                .arg(&p)
                .args(["--strict", "--no-input", "--result-format", "mickyyy68"]),
        );
    assert_eq!(run.code, 2);
    assert_eq!(run.json()["details"]["error"]["code"], "too_many_options");
    let run = run_cmd(pi_ask().args(["validate", "--strict"]).arg(&p));
    assert_eq!(run.code, 2);
}

#[test]
fn an_unknown_shape_gets_the_contracts_problems_and_names_the_closest_format() {
    let dir = Dir::new();
    let p = dir.json(
        "typo.json",
        &json!({"question": "Which?", "choices": ["a", "b"]}),
    );
    let run = run_cmd(pi_ask().args(["validate", "--json"]).arg(&p));
    assert_eq!(run.code, 2);
    let mut got = run.json();
    let error = got["error"].as_object_mut().unwrap();
    assert_eq!(error.remove("kind"), Some(json!("invalid_input")));
    let issues = error.remove("issues").unwrap();
    let paths: Vec<&str> = issues
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["", "questions", "question", "choices"]);
    assert_eq!(
        got,
        json!({"valid": false, "error": {
        "code": "invalid_payload",
        "message": "invalid ask_user payload: 4 problems; fix them and call again",
        "problems": [
            {"code": "unknown_format", "path": "",
             "message": "the payload fits no known format, so it was checked as the contract's (below); it is closest to @yishan-io/pi-ask (one `question` with `options`, `allowMultiple`, `allowFreeform`): pass `--input-format yishan` to check it as that format"},
            {"code": "missing_field", "path": "questions",
             "message": "`questions` is missing: give an array with at least one question"},
            {"code": "unknown_field", "path": "question",
             "message": "`question` is not a field of the payload; did you mean `questions`?"},
            {"code": "unknown_field", "path": "choices",
             "message": "`choices` is not a field of the payload; known fields: `title`, `questions`"}
        ]}})
    );
    let run = run_cmd(
        pi_ask()
            .args(["validate", "--input-format", "yishan"])
            .arg(&p),
    );
    assert_eq!(
        run.stdout,
        "Read as the yishan format (@yishan-io/pi-ask), normalized to the contract's questions.\n\
         Invalid ask_user payload: 1 problem; fix it and call again.\n  \
         choices: `choices` is not a field of the payload; did you mean `options`? [unknown_field]\n"
    );
}

#[test]
fn schema_gives_each_formats_input_and_output() {
    for (which, format, title) in [
        ("input", "mickyyy68", "mickyyy68/pi-ask payload"),
        (
            "input",
            "claude-code",
            "Claude Code AskUserQuestion payload",
        ),
        ("input", "yishan", "@yishan-io/pi-ask payload"),
        ("input", "pi-questionnaire", "pi questionnaire payload"),
        (
            "output",
            "mickyyy68",
            "pi-ask result (mickyyy68/pi-ask format)",
        ),
        (
            "output",
            "yishan",
            "pi-ask result (@yishan-io/pi-ask format)",
        ),
        (
            "output",
            "claude-code",
            "pi-ask result (Claude Code AskUserQuestion format)",
        ),
    ] {
        let run = run_cmd(pi_ask().args(["schema", which, "--format", format]));
        assert_eq!(run.code, 0, "{which} {format}: {}", run.stderr);
        let schema = run.json();
        assert_eq!(schema["title"], title);
        let validator = jsonschema::validator_for(&schema).expect("schema compiles");
        let instances: Vec<(String, Value)> = if which == "input" {
            EXAMPLES
                .iter()
                .filter(|(name, _)| name.starts_with(format))
                .map(|(name, _)| (name.to_string(), read_json(&payload(name))))
                .collect()
        } else {
            EXAMPLES
                .iter()
                .filter(|(_, own)| *own == Some(format))
                .map(|(name, _)| (name.to_string(), recorded(name, Some(format))))
                .collect()
        };
        assert!(!instances.is_empty(), "{which} {format}");
        for (name, v) in instances {
            let errors: Vec<String> = validator.iter_errors(&v).map(|e| e.to_string()).collect();
            assert!(errors.is_empty(), "{name} vs {which} {format}: {errors:?}");
        }
    }
    let run = run_cmd(pi_ask().args(["schema", "output", "--format", "pi-questionnaire"]));
    assert_eq!(run.code, 2);
    // The answers schema takes each format's result.
    let schema = run_cmd(pi_ask().args(["schema", "answers"])).json();
    let validator = jsonschema::validator_for(&schema).unwrap();
    for &(name, own) in EXAMPLES {
        if let Some(f) = own {
            let r = recorded(name, Some(f));
            assert!(validator.is_valid(&r), "{name} {f}");
            assert!(validator.is_valid(&r["details"]), "{name} {f} details");
        }
    }
}

// --- The terminal and plain mode, in a pty: the same choices give the recorded results. ---

/// A terminal session on example `name` with `format`'s result.
fn terminal(name: &str, format: Option<&str>) -> Session {
    let text = std::fs::read_to_string(payload(name)).unwrap();
    Session::spawn(&text, &format_args(format))
}

/// Submits at the review and checks the result is the recorded one.
fn submit_and_check(s: &mut Session, name: &str, format: Option<&str>) {
    s.wait_all(&["Review answers", "> 1. Submit"]);
    s.send("\r");
    let (code, result) = s.finish();
    assert_eq!(code, 0, "{name}: {}", s.stderr());
    assert_eq!(result.expect("a result"), recorded(name, format), "{name}");
}

#[test]
fn terminal_mickyyy68_minimal() {
    for format in [None, Some("mickyyy68")] {
        let mut s = terminal("mickyyy68-minimal", format);
        s.wait_all(&["Which database should the project use?:", HINT]);
        s.send(DOWN);
        s.wait_for("> ( ) 2. SQLite");
        s.send("\r");
        submit_and_check(&mut s, "mickyyy68-minimal", format);
    }
}

#[test]
fn terminal_mickyyy68_grouped_with_custom_text() {
    let mut s = terminal("mickyyy68", Some("mickyyy68"));
    s.wait_all(&["1/2 Language", "> ( ) 1. TypeScript"]);
    s.send("\r");
    s.wait_all(&["2/2 Features", "> [ ] 1. Authentication"]);
    s.send(" ");
    s.wait_for("> [x] 1. Authentication");
    s.send(DOWN);
    s.wait_for("> [ ] 2. REST API");
    s.send(" ");
    s.wait_for("> [x] 2. REST API");
    s.send(DOWN);
    s.send(DOWN);
    s.wait_for("> [ ] 4. Type your own…");
    s.send("\r");
    s.wait_all(&[ANSWER_EDITOR, ANSWER_READY]);
    s.send("Dark mode");
    s.wait_for("\n> Dark mode");
    s.send("\r");
    // saving stays on the multi-select question, the custom row ticked with its text
    s.wait_for("> [x] 4. Type your own… “Dark mode”");
    s.send("\t");
    submit_and_check(&mut s, "mickyyy68", Some("mickyyy68"));
}

#[test]
fn terminal_yishan_shows_the_context() {
    let mut s = terminal("yishan", Some("yishan"));
    let screen = s.wait_all(&["> ( ) 1. staging", HINT]);
    assert!(
        screen.starts_with(
            "Which environment should we use?:\n  We need one target for the next deployment.\n"
        ),
        "{screen}"
    );
    s.send(DOWN);
    s.wait_for("> ( ) 2. production");
    s.send("\r");
    submit_and_check(&mut s, "yishan", Some("yishan"));
}

#[test]
fn terminal_claude_code() {
    let mut s = terminal("claude-code", Some("claude-code"));
    s.wait_all(&["1/2 Library", "> ( ) 1. date-fns"]);
    s.send(DOWN);
    s.wait_for("> ( ) 2. Day.js");
    s.send("\r");
    s.wait_all(&["2/2 Checks", "> [ ] 1. Lint"]);
    s.send(" ");
    s.wait_for("> [x] 1. Lint");
    s.send(DOWN);
    s.send(DOWN);
    s.wait_for("> [ ] 3. Tests");
    s.send(" ");
    s.wait_for("> [x] 3. Tests");
    s.send("\r");
    submit_and_check(&mut s, "claude-code", Some("claude-code"));
}

#[test]
fn terminal_pi_questionnaire_without_type_your_own_where_allow_other_is_false() {
    let mut s = terminal("pi-questionnaire", None);
    let screen = s.wait_all(&["1/2 Scope", "> ( ) 1. Minimal", HINT]);
    assert!(!screen.contains("Type your own"), "{screen}");
    // Option N+1 is no Type your own here: 3 does nothing.
    s.send("3");
    s.send("\r");
    let screen = s.wait_all(&["2/2 Priority", "> ( ) 1. Now", HINT]);
    assert!(screen.contains("  ( ) 3. Type your own…\n"), "{screen}");
    s.send(DOWN);
    s.send(DOWN);
    s.wait_for("> ( ) 3. Type your own…");
    s.send("\r");
    s.wait_all(&[ANSWER_EDITOR, ANSWER_READY]);
    s.send("next sprint");
    s.wait_for("\n> next sprint");
    s.send("\r");
    submit_and_check(&mut s, "pi-questionnaire", None);
}

#[test]
fn terminal_text_only_question_opens_the_editor_at_once() {
    let p = json!({"question": "What should the release be called?", "context": "Marketing needs it by Friday."});
    let mut s = Session::spawn(&p.to_string(), &["--result-format", "yishan"]);
    let screen = s.wait_all(&[ANSWER_EDITOR, ANSWER_READY]);
    assert_eq!(
        screen.lines().collect::<Vec<_>>(),
        [
            ANSWER_EDITOR,
            "What should the release be called?:",
            "  Marketing needs it by Friday.",
            "> ( ) 1. Type your own",
            "> Type answer...",
        ],
        "{screen}"
    );
    // Esc closes the editor: its one row shows, with the draft.
    s.send("Atl");
    s.wait_for("\n> Atl");
    s.send("\x1b");
    let screen = s.wait_all(&["> (•) 1. Type your own… “Atl”", HINT]);
    assert!(!screen.contains(ANSWER_EDITOR), "{screen}");
    s.send("\r");
    s.wait_all(&[ANSWER_EDITOR, "\n> Atl"]);
    s.send("as");
    s.wait_for("\n> Atlas");
    s.send("\r");
    s.wait_for("> 1. Submit");
    s.send("\r");
    let (code, result) = s.finish();
    assert_eq!(code, 0, "{}", s.stderr());
    assert_eq!(
        result.unwrap(),
        json!({
            "content": [{"type": "text", "text": "Q1: Atlas"}],
            "details": {"question": "What should the release be called?",
                        "context": "Marketing needs it by Friday.", "options": [],
                        "response": "Atlas", "cancelled": false}
        })
    );
}

#[test]
fn sigterm_writes_the_aborted_result_in_the_result_format() {
    let mut s = terminal("mickyyy68", Some("mickyyy68"));
    s.wait_all(&["1/2 Language", "> ( ) 1. TypeScript"]);
    s.signal(libc::SIGTERM);
    let (code, result) = s.finish();
    assert_eq!(code, 143);
    assert_eq!(
        result.unwrap(),
        json!({
            "content": [{"type": "text", "text": "The questionnaire was ended before the user submitted it (received SIGTERM); no answers were given. Do not assume any answer."}],
            "details": {"answers": [], "cancelled": true,
                        "error": {"code": "aborted", "message": "received SIGTERM"}}
        })
    );
}

/// A plain-mode session (`--plain`) on payload text, 80x24, stderr on the terminal.
fn plain(text: &str, format: Option<&str>) -> Session {
    let mut args = vec!["--plain"];
    args.extend(format_args(format));
    Session::spawn_with(
        text,
        &args,
        Options {
            rows: 24,
            cols: 80,
            stderr_to_pty: true,
            ..Options::default()
        },
    )
}

/// Types `lines` in plain mode on example `name`, each after its prompt, then submits.
fn plain_session(name: &str, format: Option<&str>, lines: &[(&str, &str)]) -> Value {
    let text = std::fs::read_to_string(payload(name)).unwrap();
    let mut s = plain(&text, format);
    for (prompt, line) in lines {
        s.expect(prompt);
        s.send(&format!("{line}\r"));
    }
    s.expect("review> ");
    s.send("\r");
    let (code, result) = s.finish();
    assert_eq!(code, 0, "{name}: {}", s.output_text());
    assert!(
        !s.output().contains(&0x1b),
        "an escape sequence in plain mode"
    );
    result.expect("a result")
}

#[test]
fn plain_mode_gives_the_recorded_results() {
    let sessions: &[(&str, &[(&str, &str)])] = &[
        ("mickyyy68-minimal", &[("1/1> ", "2")]),
        ("mickyyy68", &[("1/2> ", "1"), ("2/2> ", "1,2 > Dark mode")]),
        ("yishan", &[("1/1> ", "production")]),
        ("claude-code", &[("1/2> ", "Day.js"), ("2/2> ", "1 3")]),
        (
            "pi-questionnaire",
            &[("1/2> ", "1"), ("2/2> ", "> next sprint")],
        ),
    ];
    for &(name, lines) in sessions {
        let own = EXAMPLES.iter().find(|(n, _)| *n == name).unwrap().1;
        for format in [None, own]
            .into_iter()
            .collect::<std::collections::BTreeSet<_>>()
        {
            assert_eq!(
                plain_session(name, format, lines),
                recorded(name, format),
                "{name} {format:?}"
            );
        }
    }
}

#[test]
fn plain_mode_shows_the_context_and_refuses_text_where_free_text_is_off() {
    let text = std::fs::read_to_string(payload("yishan")).unwrap();
    let mut s = plain(&text, None);
    s.expect(
        "Which environment should we use?\r\n  We need one target for the next deployment.\r\n",
    );
    s.send("cancel\r");
    assert_eq!(s.finish().0, 1);

    let text = std::fs::read_to_string(payload("pi-questionnaire")).unwrap();
    let mut s = plain(&text, None);
    s.expect("Type a number; Enter keeps");
    s.expect("1/2> ");
    s.send("> my own\r");
    s.expect(
        // (Wrapped between words at the pty's width.)
        "Not understood: this question takes only its options, no answer of your own:\r\nchoose a number from 1 to 2\r\n",
    );
    s.expect("1/2> ");
    s.send("cancel\r");
    assert_eq!(s.finish().0, 1);
    assert!(!s.output_text().contains("Type your own"));
}

#[test]
fn plain_mode_text_only_question_takes_the_line() {
    let p = json!({"question": "What should the release be called?"});
    let mut s = plain(&p.to_string(), Some("yishan"));
    s.expect("Type your answer; Enter keeps");
    s.expect("1/1> ");
    s.send("Atlas 2\r");
    s.expect("Saved: “Atlas 2”");
    s.expect("review> ");
    s.send("\r");
    let (code, result) = s.finish();
    assert_eq!(code, 0, "{}", s.output_text());
    assert_eq!(result.unwrap()["details"]["response"], "Atlas 2");
}

//! What pi-ask adds to the v0.3.0 contract from its project's later versions (docs/contract.md
//! "What pi-ask adds"), end to end with the real binary and no terminal: Elaborate from an
//! answers file and its replay, `recommended` options, free text on preview questions, and
//! the command line of `--notify` and `--auto-submit`. (The flow rules themselves have unit
//! tests in src/flow.rs, src/answers.rs and src/result.rs; plain mode's notifications and
//! `--auto-submit` are in tests/plain.rs.)

use crate::scripted_support::{answer, answer_json, pi_ask, run_cmd, Dir};
use serde_json::{json, Value};

fn payload() -> Value {
    json!({"title": "Setup", "questions": [
        {"id": "db", "label": "Database", "prompt": "Which database?", "options": [
            {"value": "pg", "label": "PostgreSQL", "recommended": true},
            {"value": "sqlite", "label": "SQLite", "description": "Embedded"}]},
        {"id": "fw", "label": "Frontend", "prompt": "Which frameworks?", "type": "multi", "options": [
            {"value": "react", "label": "React"}, {"value": "vue", "label": "Vue"}]},
        {"id": "layout", "prompt": "Which layout?", "type": "preview", "options": [
            {"value": "side", "label": "Sidebar", "preview": "| S | main |"}]}
    ]})
}

#[test]
fn an_answers_file_elaborates_and_the_result_replays_to_the_same_details() {
    let dir = Dir::new();
    let p = dir.json("q.json", &payload());
    let a = dir.json(
        "a.json",
        &json!({"mode": "elaborate", "answers": {
            "db": {"values": ["sqlite"], "note": "is it enough for 10 writers?"},
            "fw": {"values": ["react"], "optionNotes": {"vue": "is Vue 3 stable?"}},
            "layout": {"note": "what does main hold?"}
        }}),
    );
    let run = answer(&p, &a);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let details = run.details();
    assert_eq!(details["cancelled"], false);
    assert_eq!(details["mode"], "elaborate");
    // Only committed answers; the note-only question is in the items.
    assert_eq!(
        details["answers"],
        json!({
            "db": {"values": ["sqlite"], "labels": ["SQLite"], "indices": [2], "note": "is it enough for 10 writers?"},
            "fw": {"values": ["react"], "labels": ["React"], "indices": [1]}
        })
    );
    assert_eq!(
        details["continuation"],
        json!({"strategy": "refine_only", "affectedQuestionIds": ["db", "fw", "layout"],
               "preservedAnswers": {},
               "questionStates": {"db": {"status": "needs_clarification"},
                                  "fw": {"status": "needs_clarification"},
                                  "layout": {"status": "needs_clarification"}}})
    );
    let items = details["elaboration"]["items"].as_array().unwrap();
    assert_eq!(items.len(), 3);
    assert_eq!(details["elaboration"]["nextAction"], "clarify_then_reask");
    assert_eq!(
        items[0]["question"]["options"][0],
        json!({"value": "pg", "label": "PostgreSQL", "recommended": true})
    );
    assert_eq!(
        (
            &items[1]["target"],
            &items[1]["selected"],
            &items[1]["answered"]
        ),
        (
            &json!({"kind": "option", "optionValue": "vue"}),
            &json!(false),
            &json!(true)
        )
    );
    assert_eq!(items[2]["answered"], false);
    assert_eq!(items[2].get("answer"), None);
    assert_eq!(
        run.text(),
        "User asked to elaborate on question \"Which database?\" after current answer \"SQLite\" with note \"is it enough for 10 writers?\"\n\
         User asked to elaborate on question \"Which frameworks?\" option \"Vue\" after current answer \"React\" with note \"is Vue 3 stable?\"\n\
         User asked to elaborate on question \"Which layout?\" with note \"what does main hold?\"\n\
         Re-ask: Database (db), Frontend (fw), Q3 (layout)\n\
         Answer the user's notes above first, then call ask_user again with only the questions \
         to re-ask (if a choice is still needed)."
    );
    // The recorded result, and its details alone, replay to the same result.
    for recorded in [run.json(), details.clone()] {
        let r = dir.json("recorded.json", &recorded);
        let again = answer(&p, &r);
        assert_eq!((again.code, again.stderr.as_str()), (0, ""));
        assert_eq!(again.json(), run.json());
    }
}

/// SQLite chosen, Lint and Tests ticked, Docker image chosen, a note on Postgres, then
/// Elaborate (an answers file's `"mode": "elaborate"`): the `content` a model reads (pi passes
/// it, never `details`) holds the answers to keep, the question to re-ask and what to do,
/// after the contract's project's line, which stays first and unchanged.
#[test]
fn an_elaborate_content_alone_says_what_to_keep_and_what_to_re_ask() {
    let payload = json!({"title": "Service", "questions": [
        {"id": "db", "label": "Database", "prompt": "Which database should the service use?",
         "options": [{"value": "postgres", "label": "Postgres"}, {"value": "sqlite", "label": "SQLite"}]},
        {"id": "checks", "label": "Checks", "prompt": "Which checks should CI run?", "type": "multi",
         "options": [{"value": "lint", "label": "Lint"}, {"value": "types", "label": "Types"},
                     {"value": "tests", "label": "Tests"}]},
        {"id": "deploy", "label": "Deploy", "prompt": "How should it be deployed?",
         "options": [{"value": "docker", "label": "Docker image"}, {"value": "vm", "label": "VM"}]}
    ]});
    let answers = json!({"mode": "elaborate", "answers": {
        "db": {"values": ["sqlite"], "optionNotes": {"postgres": "what would Postgres cost us in ops work?"}},
        "checks": ["lint", "tests"],
        "deploy": "docker"
    }});
    let run = answer_json(&payload, &answers);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""));
    assert_eq!(run.details()["mode"], "elaborate");
    assert_eq!(
        run.json()["content"],
        json!([{"type": "text", "text":
            "User asked to elaborate on question \"Which database should the service use?\" option \"Postgres\" after current answer \"SQLite\" with note \"what would Postgres cost us in ops work?\"\n\
             Keep these answers:\n\
             Checks: Lint, Tests\n\
             Deploy: Docker image\n\
             Re-ask: Database (db)\n\
             Answer the user's notes above first, then call ask_user again with only the questions \
             to re-ask (if a choice is still needed), keeping the answers above."}])
    );
    // Submitted instead, the same answers are exactly the contract's summary.
    let mut submitted = answers.clone();
    submitted["mode"] = json!("submit");
    submitted["answers"]["db"] = json!("sqlite");
    let run = answer_json(&payload, &submitted);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.text(),
        "Database: SQLite\nChecks: Lint, Tests\nDeploy: Docker image"
    );
}

#[test]
fn a_submitted_result_has_no_elaborate_field_and_an_invalid_one_both_error_shapes() {
    let dir = Dir::new();
    let p = dir.json("q.json", &payload());
    let a = dir.json("a.json", &json!({"answers": {"db": "pg"}}));
    let run = answer(&p, &a);
    assert_eq!(run.code, 0);
    let keys: Vec<String> = run.details().as_object().unwrap().keys().cloned().collect();
    assert_eq!(keys, ["title", "cancelled", "questions", "answers"]);
    assert_eq!(
        run.text(),
        "Database: PostgreSQL\nFrontend: (no answer)\nQ3: (no answer)"
    );
    let bad = dir.json("bad.json", &json!({"answers": {"db": "mysql"}}));
    let run = answer(&p, &bad);
    assert_eq!(run.code, 2);
    let error = &run.details()["error"];
    assert_eq!(error["code"], "invalid_answers");
    assert_eq!(error["kind"], "invalid_input");
    assert_eq!(error["issues"][0]["path"], error["problems"][0]["path"]);
    assert_eq!(
        error["issues"][0]["message"],
        error["problems"][0]["message"]
    );
}

#[test]
fn a_preview_question_takes_custom_text() {
    let dir = Dir::new();
    let p = dir.json("q.json", &payload());
    let a = dir.json(
        "a.json",
        &json!({"answers": {"layout": {"customText": "two columns"}}}),
    );
    let run = answer(&p, &a);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.details()["answers"]["layout"],
        json!({"values": ["two columns"], "labels": ["two columns"], "indices": [], "customText": "two columns"})
    );
}

#[test]
fn recommended_is_validated_and_in_the_schema() {
    let dir = Dir::new();
    let p = dir.json("q.json", &payload());
    let run = run_cmd(pi_ask().args(["validate", "--json"]).arg(&p));
    assert_eq!(run.code, 0);
    assert_eq!(
        run.json()["payload"]["questions"][0]["options"][0]["recommended"],
        true
    );
    // Never preselected: an empty answers file answers nothing.
    let a = dir.json("a.json", &json!({"answers": {}}));
    assert_eq!(answer(&p, &a).details()["answers"], json!({}));
    let mut bad = payload();
    bad["questions"][0]["options"][1]["recommended"] = json!("yes");
    let b = dir.json("bad.json", &bad);
    let run = run_cmd(pi_ask().args(["validate", "--json"]).arg(&b));
    assert_eq!(run.code, 2);
    assert_eq!(
        run.json()["error"]["problems"][0]["path"],
        "questions[0].options[1].recommended"
    );
    let schema: Value =
        serde_json::from_str(&run_cmd(pi_ask().args(["schema", "input"])).stdout).unwrap();
    assert_eq!(
        schema["$defs"]["InputOption"]["properties"]["recommended"]["type"],
        "boolean"
    );
    let schema: Value =
        serde_json::from_str(&run_cmd(pi_ask().args(["schema", "output"])).stdout).unwrap();
    assert!(schema["$defs"]["Details"]["properties"]["elaboration"].is_object());
    assert!(schema["$defs"]["ErrorInfo"]["properties"]["issues"].is_object());
    let schema: Value =
        serde_json::from_str(&run_cmd(pi_ask().args(["schema", "answers"])).stdout).unwrap();
    assert!(schema["$defs"]["AnswersDocument"]["properties"]["mode"].is_object());
}

#[test]
fn bad_notify_settings_are_usage_errors_naming_the_setting() {
    let dir = Dir::new();
    let p = dir.json("q.json", &payload());
    let run = run_cmd(pi_ask().arg(&p).args(["--notify", "osc7", "--no-input"]));
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains(
            "\"osc7\" is not a notification channel: give bell, osc9, osc777, command or none"
        ),
        "{}",
        run.stderr
    );
    let run = run_cmd(
        pi_ask()
            .arg(&p)
            .arg("--no-input")
            .env("PI_ASK_NOTIFY", "beep"),
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.starts_with(
            "pi-ask: PI_ASK_NOTIFY=\"beep\" cannot be used: \"beep\" is not a notification channel"
        ),
        "{}",
        run.stderr
    );
    let run = run_cmd(pi_ask().arg(&p).args(["--notify", "command", "--no-input"]));
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("the `command` notification channel needs a command"),
        "{}",
        run.stderr
    );
    let run = run_cmd(
        pi_ask()
            .arg(&p)
            .arg("--no-input")
            .env("PI_ASK_AUTO_SUBMIT", "maybe"),
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .starts_with("pi-ask: PI_ASK_AUTO_SUBMIT=\"maybe\" cannot be used: it is 1 or 0"),
        "{}",
        run.stderr
    );
    // The grace period of the first question: whole milliseconds up to 5000.
    for bad in ["250ms", "-1", "5001"] {
        let run = run_cmd(
            pi_ask()
                .arg(&p)
                .arg("--no-input")
                .env("PI_ASK_KEY_GRACE", bad),
        );
        assert_eq!(run.code, 2, "{bad}");
        assert!(
            run.stderr.starts_with(&format!(
                "pi-ask: PI_ASK_KEY_GRACE=\"{bad}\" cannot be used: it is a whole number of milliseconds from 0 (off) to 5000"
            )),
            "{}",
            run.stderr
        );
    }
    for good in ["0", "400", " 5000 "] {
        let run = run_cmd(
            pi_ask()
                .arg(&p)
                .arg("--no-input")
                .env("PI_ASK_KEY_GRACE", good),
        );
        assert_eq!(run.code, 3, "PI_ASK_KEY_GRACE={good}: {}", run.stderr);
    }
    // The bell and the transcript take the same words (they ignored anything but `0`).
    for name in ["PI_ASK_BELL", "PI_ASK_TRANSCRIPT"] {
        let run = run_cmd(pi_ask().arg(&p).arg("--no-input").env(name, "maybe"));
        assert_eq!(run.code, 2, "{name}");
        assert!(
            run.stderr.starts_with(&format!(
                "pi-ask: {name}=\"maybe\" cannot be used: it is 1 or 0"
            )),
            "{}",
            run.stderr
        );
        for good in ["off", "false", "0", "1", "on", ""] {
            let run = run_cmd(pi_ask().arg(&p).arg("--no-input").env(name, good));
            assert_eq!(run.code, 3, "{name}={good}: {}", run.stderr);
        }
    }
    // Good settings change nothing without a terminal.
    let run =
        run_cmd(
            pi_ask()
                .arg(&p)
                .args(["--notify", "osc9,bell", "--auto-submit", "--no-input"]),
        );
    assert_eq!(run.code, 3, "{}", run.stderr);
}

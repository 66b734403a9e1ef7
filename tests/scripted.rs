//! Every output rule of the contract ("Output rules"), exercised through `--answers` with the
//! exact JSON expected. The scripted front end drives the same `AnswerState` as the
//! interactive ones, so these are the rules a person's choices produce too.

use crate::scripted_support::{answer_json, pi_ask, run_cmd, Dir};
use serde_json::{json, Value};

fn payload() -> Value {
    json!({
        "title": "Setup",
        "questions": [
            {"id": "style", "label": "Style", "prompt": "How should it look?", "required": true,
             "options": [{"value": "minimal", "label": "Minimal"}, {"value": "rich", "label": "Rich"}]},
            {"id": "fw", "prompt": "Which frameworks?", "type": "multi",
             "options": [{"value": "react", "label": "React"}, {"value": "vue", "label": "Vue"},
                         {"value": "svelte", "label": "Svelte"}]},
            {"id": "fmt", "label": "Format", "prompt": "Which format?", "type": "preview",
             "options": [{"value": "json", "label": "JSON", "preview": "{\"a\": 1}"},
                         {"value": "text", "label": "Text", "preview": "a=1"}]}
        ]
    })
}

fn questions() -> Value {
    json!([
        {"id": "style", "label": "Style", "prompt": "How should it look?", "type": "single"},
        {"id": "fw", "label": "Q2", "prompt": "Which frameworks?", "type": "multi"},
        {"id": "fmt", "label": "Format", "prompt": "Which format?", "type": "preview"}
    ])
}

/// Runs the answers and checks exit 0 and `details` = submitted with exactly `answers`.
fn submitted(answers: Value, expected: Value) -> String {
    let run = answer_json(&payload(), &json!({ "answers": answers }));
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_eq!(
        run.details(),
        json!({"title": "Setup", "cancelled": false, "questions": questions(), "answers": expected})
    );
    assert_eq!(run.stderr, "");
    run.text()
}

#[test]
fn single_select_answers_use_arrays_and_1_based_indices() {
    let text = submitted(
        json!({"style": "rich"}),
        json!({"style": {"values": ["rich"], "labels": ["Rich"], "indices": [2]}}),
    );
    assert_eq!(text, "Style: Rich\nQ2: (no answer)\nFormat: (no answer)");
}

#[test]
fn unanswered_questions_are_omitted_and_required_never_blocks() {
    let text = submitted(json!({}), json!({}));
    assert_eq!(
        text,
        "User submitted the ask flow\nStyle: (no answer)\nQ2: (no answer)\nFormat: (no answer)"
    );
}

#[test]
fn single_select_custom_text_is_the_only_value() {
    let text = submitted(
        json!({"style": {"customText": "  Brutalist  "}}),
        json!({"style": {"values": ["Brutalist"], "labels": ["Brutalist"], "indices": [], "customText": "Brutalist"}}),
    );
    assert!(text.starts_with("Style: Brutalist\n"), "{text}");
}

#[test]
fn multi_select_keeps_option_order_and_appends_custom_text_last() {
    let text = submitted(
        json!({"fw": {"values": ["svelte", "react"], "customText": "Qwik"}}),
        json!({"fw": {
            "values": ["react", "svelte", "Qwik"],
            "labels": ["React", "Svelte", "Qwik"],
            "indices": [1, 3],
            "customText": "Qwik"
        }}),
    );
    assert!(text.contains("\nQ2: React, Svelte, Qwik\n"), "{text}");
}

#[test]
fn multi_select_array_form_is_kept_in_option_order() {
    submitted(
        json!({"fw": ["vue", "react", "vue"]}),
        json!({"fw": {"values": ["react", "vue"], "labels": ["React", "Vue"], "indices": [1, 2]}}),
    );
}

#[test]
fn multi_select_custom_text_alone() {
    submitted(
        json!({"fw": {"customText": "Qwik"}}),
        json!({"fw": {"values": ["Qwik"], "labels": ["Qwik"], "indices": [], "customText": "Qwik"}}),
    );
}

#[test]
fn options_can_be_named_by_position() {
    submitted(
        json!({"style": 2, "fw": [3, "#1"], "fmt": "#2"}),
        json!({
            "style": {"values": ["rich"], "labels": ["Rich"], "indices": [2]},
            "fw": {"values": ["react", "svelte"], "labels": ["React", "Svelte"], "indices": [1, 3]},
            "fmt": {"values": ["text"], "labels": ["Text"], "indices": [2]}
        }),
    );
}

#[test]
fn preview_questions_take_one_option() {
    submitted(
        json!({"fmt": {"values": ["json"]}}),
        json!({"fmt": {"values": ["json"], "labels": ["JSON"], "indices": [1]}}),
    );
}

#[test]
fn question_note_may_exist_without_an_answer() {
    let text = submitted(
        json!({"style": {"note": "ask the designer"}}),
        json!({"style": {"values": [], "labels": [], "indices": [], "note": "ask the designer"}}),
    );
    assert_eq!(
        text,
        "Style: (no answer)\nStyle note: ask the designer\nQ2: (no answer)\nFormat: (no answer)"
    );
}

#[test]
fn option_notes_of_selected_options_with_a_question_note() {
    let text = submitted(
        json!({"fw": {"values": ["react", "vue"], "note": "mostly hobby projects",
                      "optionNotes": {"vue": "only Vue 2", "#1": "since 2019"}}}),
        json!({"fw": {
            "values": ["react", "vue"],
            "labels": ["React", "Vue"],
            "indices": [1, 2],
            "note": "mostly hobby projects",
            "optionNotes": {"react": "since 2019", "vue": "only Vue 2"}
        }}),
    );
    assert!(
        text.contains(
            "\nQ2: React, Vue\nQ2 note: mostly hobby projects\n\
             Q2 / React note: since 2019\nQ2 / Vue note: only Vue 2\n"
        ),
        "{text}"
    );
}

#[test]
fn a_scripted_cancel_is_a_dismissal() {
    let run = answer_json(&payload(), &json!({"cancelled": true}));
    assert_eq!(run.code, 1);
    assert_eq!(
        run.details(),
        json!({"title": "Setup", "cancelled": true, "questions": questions(), "answers": {}})
    );
    assert_eq!(run.text(), "User cancelled the ask flow");
}

#[test]
fn cancelled_false_with_answers_submits() {
    let run = answer_json(
        &payload(),
        &json!({"cancelled": false, "answers": {"style": "minimal"}}),
    );
    assert_eq!(run.code, 0);
    assert_eq!(
        run.details()["answers"],
        json!({"style": {"values": ["minimal"], "labels": ["Minimal"], "indices": [1]}})
    );
}

#[test]
fn the_environment_variable_switches_a_run_to_scripted_answers() {
    let dir = Dir::new();
    let p = dir.json("payload.json", &payload());
    let a = dir.json("answers.json", &json!({"answers": {"style": "minimal"}}));
    let run = run_cmd(pi_ask().arg(&p).env("PI_ASK_ANSWERS", &a));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.details()["answers"],
        json!({"style": {"values": ["minimal"], "labels": ["Minimal"], "indices": [1]}})
    );
}

#[test]
fn answers_can_come_from_stdin() {
    let dir = Dir::new();
    let p = dir.json("payload.json", &payload());
    let run = run_cmd(
        pi_ask()
            .arg(&p)
            .args(["--answers", "-"])
            .write_stdin(r#"{"answers": {"fw": ["vue"]}}"#),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.details()["answers"],
        json!({"fw": {"values": ["vue"], "labels": ["Vue"], "indices": [2]}})
    );
}

#[test]
fn scripted_results_can_be_written_to_a_file() {
    let dir = Dir::new();
    let p = dir.json("payload.json", &payload());
    let a = dir.json("answers.json", &json!({"answers": {"style": "rich"}}));
    let out = dir.path().join("result.json");
    let run = run_cmd(
        pi_ask()
            .arg(&p)
            .arg("--answers")
            .arg(&a)
            .arg("--output")
            .arg(&out),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "");
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(
        written["details"]["answers"],
        json!({"style": {"values": ["rich"], "labels": ["Rich"], "indices": [2]}})
    );
}

#[test]
fn an_invalid_payload_wins_over_the_answers_file() {
    let run = answer_json(&json!({"questions": []}), &json!({"answers": {"nope": 1}}));
    assert_eq!(run.code, 2);
    let details = run.details();
    assert_eq!(details["error"]["code"], "invalid_payload");
    assert_eq!(details["error"]["problems"][0]["code"], "no_questions");
}

#[test]
fn the_documented_answers_examples_apply() {
    use crate::scripted_support::{answer, example};
    let cases = [
        (
            "implementation-preferences.json",
            "implementation-preferences.json",
            0,
        ),
        (
            "implementation-preferences.json",
            "implementation-preferences-by-position.json",
            0,
        ),
        ("config-preview.json", "config-preview.json", 0),
        ("database.json", "cancel.json", 1),
    ];
    for (payload, answers, code) in cases {
        let run = answer(&example(payload), &example(&format!("answers/{answers}")));
        assert_eq!(run.code, code, "{answers}: {}", run.stderr);
    }
    let listed = std::fs::read_dir(example("answers")).unwrap().count();
    assert_eq!(listed, 4, "every file in examples/answers/ is checked here");
}

/// Regression: a hand-written `values` naming an option equal to the custom text kept only
/// the custom text (the replay rule for recorded results was applied to it).
#[test]
fn a_hand_written_option_equal_to_the_custom_text_stays_selected() {
    submitted(
        json!({"fw": {"values": ["react"], "customText": "react"}}),
        json!({"fw": {"values": ["react", "react"], "labels": ["React", "react"], "indices": [1], "customText": "react"}}),
    );
    // A recorded answer (with `indices`) still replays its custom text once.
    submitted(
        json!({"fw": {"values": ["react", "react"], "labels": ["React", "react"], "indices": [1], "customText": "react"}}),
        json!({"fw": {"values": ["react", "react"], "labels": ["React", "react"], "indices": [1], "customText": "react"}}),
    );
}

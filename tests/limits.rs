//! Hostile payload sizes and shapes: the size limit (`--max-payload-bytes`, default 4 MiB) is
//! enforced before parsing, and deep or huge JSON ends in a clean `invalid_payload` (exit 2)
//! or a normal run, never a crash, a stack overflow or unbounded memory.

use assert_cmd::Command;
use serde_json::{json, Value};
use std::fs::File;
use std::process::Stdio;

const FOUR_MIB: usize = 4 * 1024 * 1024;

fn pi_ask() -> Command {
    let mut cmd = Command::cargo_bin("pi-ask").unwrap();
    cmd.env_remove("PI_ASK_MAX_PAYLOAD_BYTES")
        .env_remove("PI_ASK_ANSWERS");
    cmd
}

/// Runs pi-ask with `stdin` as the payload; returns the exit code, the result JSON and stderr.
fn run_stdin(cmd: &mut Command, stdin: Vec<u8>) -> (i32, Value, String) {
    let out = cmd.write_stdin(stdin).output().unwrap();
    let result = serde_json::from_slice(&out.stdout).expect("stdout is one result JSON");
    (
        out.status.code().unwrap(),
        result,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn small_payload() -> String {
    json!({"questions": [{"id": "q", "prompt": "P?", "options": [{"value": "a", "label": "A"}]}]})
        .to_string()
}

fn problems(result: &Value) -> &Value {
    assert_eq!(result["details"]["error"]["code"], json!("invalid_payload"));
    assert_eq!(result["details"]["cancelled"], json!(true));
    &result["details"]["error"]["problems"]
}

#[test]
fn a_payload_over_the_limit_is_refused_before_parsing() {
    // Not even JSON: the size is checked first, so the problem is the size.
    let mut text = small_payload();
    text.push_str(&" ".repeat(200));
    text.push('{');
    let (code, result, stderr) = run_stdin(
        pi_ask().args(["--no-input", "--max-payload-bytes", "100", "-"]),
        text.into_bytes(),
    );
    assert_eq!(code, 2);
    assert_eq!(
        problems(&result),
        &json!([{"code": "payload_too_large", "path": "",
                  "message": "the payload from stdin is larger than 100 bytes (--max-payload-bytes)"}])
    );
    assert_eq!(
        stderr,
        "pi-ask: the payload on stdin is larger than 100 bytes (--max-payload-bytes)\n"
    );
}

#[test]
fn the_limit_is_inclusive_and_also_read_from_the_environment() {
    let text = small_payload();
    let n = text.len().to_string();
    let (code, result, _) = run_stdin(
        pi_ask().args(["--no-input", "--max-payload-bytes", &n, "-"]),
        text.clone().into_bytes(),
    );
    assert_eq!(code, 3, "exactly the limit is accepted: {result}");
    let less = (text.len() - 1).to_string();
    let (code, result, _) = run_stdin(
        pi_ask()
            .env("PI_ASK_MAX_PAYLOAD_BYTES", &less)
            .args(["--no-input", "-"]),
        text.into_bytes(),
    );
    assert_eq!(code, 2);
    assert_eq!(problems(&result)[0]["code"], json!("payload_too_large"));
}

#[test]
fn the_default_limit_is_4_mib() {
    // A valid payload padded with whitespace to exactly 4 MiB is accepted...
    let mut text = small_payload();
    text.push_str(&" ".repeat(FOUR_MIB - text.len()));
    assert_eq!(text.len(), FOUR_MIB);
    let (code, result, _) = run_stdin(
        pi_ask().args(["--no-input", "-"]),
        text.clone().into_bytes(),
    );
    assert_eq!(code, 3, "{result}");
    assert_eq!(result["details"]["error"]["code"], json!("no_ui"));
    // ...one byte more is not, from a file too.
    text.push(' ');
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.json");
    std::fs::write(&path, text).unwrap();
    let out = pi_ask().arg("--no-input").arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let result: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        problems(&result)[0]["message"],
        json!(format!(
            "the payload from {} is larger than 4194304 bytes (--max-payload-bytes)",
            path.display()
        ))
    );
}

#[test]
fn an_endless_stdin_is_not_read_to_the_end() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pi-ask"))
        .args(["--no-input", "--max-payload-bytes", "1000000", "-"])
        .env_remove("PI_ASK_MAX_PAYLOAD_BYTES")
        .stdin(Stdio::from(File::open("/dev/zero").unwrap()))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let result: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(problems(&result)[0]["code"], json!("payload_too_large"));
}

#[test]
fn deeply_nested_json_is_a_clean_invalid_payload() {
    let depth = 100_000;
    let cases = [
        format!("{}{}", "[".repeat(depth), "]".repeat(depth)),
        format!("{}1{}", "{\"a\":".repeat(depth), "}".repeat(depth)),
        // Deep inside an otherwise valid payload field.
        format!(
            "{{\"title\": {}{}, \"questions\": []}}",
            "[".repeat(depth),
            "]".repeat(depth)
        ),
        // Unclosed.
        "[".repeat(depth),
    ];
    for text in cases {
        let (code, result, _) = run_stdin(pi_ask().args(["--no-input", "-"]), text.into_bytes());
        assert_eq!(code, 2);
        let problems = problems(&result);
        assert_eq!(problems.as_array().unwrap().len(), 1);
        assert_eq!(problems[0]["code"], json!("malformed_json"));
        let message = problems[0]["message"].as_str().unwrap();
        assert!(
            message.ends_with(": nested 128 levels deep or more"),
            "{message}"
        );
    }
}

#[test]
fn a_huge_valid_payload_just_under_the_limit_works() {
    // 2,000 questions with 10 options each (about 1.4 MB): no limit of pi-ask's own is hit.
    let questions: Vec<Value> = (0..2000)
        .map(|q| {
            json!({"id": format!("q{q}"), "prompt": format!("Question {q}?"),
                   "options": (0..10).map(|o| json!({"value": format!("v{o}"),
                       "label": format!("Option {o}"), "description": "x".repeat(40)}))
                       .collect::<Vec<_>>()})
        })
        .collect();
    let text = json!({"questions": questions}).to_string();
    assert!(text.len() < FOUR_MIB);
    let (code, result, _) = run_stdin(pi_ask().args(["--no-input", "-"]), text.into_bytes());
    assert_eq!(code, 3);
    assert_eq!(
        result["details"]["questions"].as_array().unwrap().len(),
        2000
    );
    assert_eq!(
        result["details"]["questions"][1999]["label"],
        json!("Q2000")
    );
}

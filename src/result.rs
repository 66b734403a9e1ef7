//! Building the tool result (`{content, details}`) for every way a run can end, and the
//! transcript-friendly `content` text the calling model reads (contract "Output").

use crate::answers::AnswerState;
use crate::contract::{
    ContentItem, Details, ErrorCode, ErrorInfo, Payload, PayloadError, Problem, QuestionSummary,
    ToolResult,
};
use indexmap::IndexMap;
use std::fmt::Write;

fn summaries(payload: &Payload) -> Vec<QuestionSummary> {
    payload
        .questions
        .iter()
        .map(QuestionSummary::from)
        .collect()
}

/// JSON-quoted text, so multi-line or odd text stays on one transcript line.
fn quoted(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| format!("{text:?}"))
}

fn title_phrase(title: Option<&str>) -> String {
    match title.map(str::trim).filter(|t| !t.is_empty()) {
        Some(t) => format!(" {}", quoted(t)),
        None => String::new(),
    }
}

/// The result of a submitted flow: `cancelled: false`, the answers, and a transcript line per
/// question (answered, noted, or skipped).
pub fn submitted(payload: &Payload, state: &AnswerState) -> ToolResult {
    let answers = state.answers(payload);
    let mut text = format!(
        "User submitted the questionnaire{}:\n",
        title_phrase(payload.title.as_deref())
    );
    for (q, question) in payload.questions.iter().enumerate() {
        let head = format!("- {} ({})", question.label, question.id);
        match answers.get(&question.id) {
            Some(answer) if !answer.values.is_empty() => {
                let mut parts: Vec<String> = state
                    .selected(q)
                    .into_iter()
                    .map(|i| {
                        let o = &question.options[i];
                        format!("{} [{}]", o.label, o.value)
                    })
                    .collect();
                if let Some(custom) = &answer.custom_text {
                    parts.push(format!("custom text {}", quoted(custom)));
                }
                let _ = writeln!(text, "{head}: {}", parts.join(", "));
            }
            _ => {
                let _ = writeln!(text, "{head}: skipped (no answer given)");
            }
        }
        if let Some(answer) = answers.get(&question.id) {
            if let Some(note) = &answer.note {
                let _ = writeln!(text, "  note: {}", quoted(note));
            }
            for (value, note) in answer.option_notes.iter().flatten() {
                let _ = writeln!(text, "  note on [{value}]: {}", quoted(note));
            }
        }
    }
    let skipped = payload.questions.len()
        - (0..payload.questions.len())
            .filter(|&q| state.is_answered(q))
            .count();
    if skipped > 0 {
        let _ = writeln!(
            text,
            "{skipped} question{} skipped: do not assume an answer for {}.",
            if skipped == 1 { " was" } else { "s were" },
            if skipped == 1 { "it" } else { "them" }
        );
    }
    ToolResult {
        content: vec![ContentItem::text(text.trim_end())],
        details: Details {
            title: payload.title.clone(),
            cancelled: false,
            questions: summaries(payload),
            answers,
            error: None,
        },
    }
}

/// The result when the person dismissed the flow (Esc, Ctrl+C, a scripted `cancelled`): no
/// answers, no error.
pub fn dismissed(payload: &Payload) -> ToolResult {
    let text = format!(
        "User dismissed the questionnaire{} without submitting; no answers were given. \
         Do not assume any answer: continue without these choices or ask again in plain text.",
        title_phrase(payload.title.as_deref())
    );
    cancelled(payload, text, None)
}

/// The result when the flow was ended from outside or the terminal failed: no answers, and
/// `details.error` with `code` and `message`.
pub fn aborted(payload: &Payload, code: ErrorCode, message: &str) -> ToolResult {
    let text = format!(
        "The questionnaire{} was ended before the user submitted it ({message}); no answers \
         were given. Do not assume any answer.",
        title_phrase(payload.title.as_deref())
    );
    cancelled(
        payload,
        text,
        Some(ErrorInfo {
            code,
            message: message.to_string(),
            problems: Vec::new(),
        }),
    )
}

fn cancelled(payload: &Payload, text: String, error: Option<ErrorInfo>) -> ToolResult {
    ToolResult {
        content: vec![ContentItem::text(text)],
        details: Details {
            title: payload.title.clone(),
            cancelled: true,
            questions: summaries(payload),
            answers: IndexMap::new(),
            error,
        },
    }
}

/// The contract's non-interactive result (contract "Non-interactive mode"): `content` starts
/// with "Needs user input" and lists every question with its options so the caller can ask
/// in plain text; `details.answers` is empty and `details.error.code` is `no_ui`.
pub fn needs_user_input(payload: &Payload, why: &str) -> ToolResult {
    let mut text = format!(
        "Needs user input: {why}, so the questionnaire{} could not be shown. Ask the user \
         these questions in plain text and continue with their answers:\n",
        title_phrase(payload.title.as_deref())
    );
    for (q, question) in payload.questions.iter().enumerate() {
        let kind = match question.kind {
            crate::contract::QuestionType::Single => "choose one",
            crate::contract::QuestionType::Multi => "choose any",
            crate::contract::QuestionType::Preview => "choose one; previews below",
        };
        let required = if question.required { ", required" } else { "" };
        let _ = writeln!(
            text,
            "\n{}. {} (id: {}; {kind}{required}): {}",
            q + 1,
            question.label,
            question.id,
            question.prompt
        );
        for (i, option) in question.options.iter().enumerate() {
            let _ = write!(text, "   {}) {} [{}]", i + 1, option.label, option.value);
            if let Some(d) = &option.description {
                let _ = write!(text, ": {d}");
            }
            text.push('\n');
            if question.kind == crate::contract::QuestionType::Preview {
                if let Some(p) = &option.preview {
                    for line in p.lines() {
                        let _ = writeln!(text, "      | {line}");
                    }
                }
            }
        }
        if question.kind.allows_custom_text() {
            text.push_str("   or the user's own answer in their words\n");
        }
    }
    cancelled(
        payload,
        text.trim_end().to_string(),
        Some(ErrorInfo {
            code: ErrorCode::NoUi,
            message: format!("{why}; no answers were collected"),
            problems: Vec::new(),
        }),
    )
}

/// The result for input that could not be used: `cancelled: true`, no questions, and
/// `details.error` = `{code, message, problems}` with every problem listed in `content` too.
/// `code` is [`ErrorCode::InvalidPayload`] or [`ErrorCode::InvalidAnswers`].
pub fn invalid_input(
    code: ErrorCode,
    what: &str,
    title: Option<String>,
    payload: Option<&Payload>,
    problems: Vec<Problem>,
) -> ToolResult {
    let error = ErrorInfo::for_input(code, what, problems);
    let document = if code == ErrorCode::InvalidAnswers {
        "answers file"
    } else {
        "payload"
    };
    let text = error.describe("- ", document);
    ToolResult {
        content: vec![ContentItem::text(text)],
        details: Details {
            title,
            cancelled: true,
            questions: payload.map(summaries).unwrap_or_default(),
            answers: IndexMap::new(),
            error: Some(error),
        },
    }
}

/// [`invalid_input`] for a refused payload.
pub fn invalid_payload(err: PayloadError) -> ToolResult {
    invalid_input(
        ErrorCode::InvalidPayload,
        "ask_user payload",
        err.title,
        None,
        err.problems,
    )
}

/// A result for an internal failure (`details.error.code` = `internal`), never with answers.
pub fn internal(payload: Option<&Payload>, message: &str) -> ToolResult {
    let text = format!(
        "pi-ask failed with an internal error ({message}); no answers were collected. \
         Ask the user in plain text."
    );
    ToolResult {
        content: vec![ContentItem::text(text)],
        details: Details {
            title: payload.and_then(|p| p.title.clone()),
            cancelled: true,
            questions: payload.map(summaries).unwrap_or_default(),
            answers: IndexMap::new(),
            error: Some(ErrorInfo {
                code: ErrorCode::Internal,
                message: message.to_string(),
                problems: Vec::new(),
            }),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::parse_payload;
    use serde_json::json;

    fn payload() -> Payload {
        parse_payload(
            &json!({"title": "Prefs", "questions": [
                {"id": "style", "label": "Style", "prompt": "Style?", "required": true, "options": [
                    {"value": "min", "label": "Minimal", "description": "Short."},
                    {"value": "rich", "label": "Rich"}]},
                {"id": "fw", "label": "Frontend", "prompt": "Frameworks?", "type": "multi", "options": [
                    {"value": "react", "label": "React"}, {"value": "vue", "label": "Vue"}]}
            ]})
            .to_string(),
        )
        .unwrap()
    }

    #[test]
    fn submitted_content_has_one_line_per_question_and_marks_skips() {
        let p = payload();
        let mut st = AnswerState::new(&p);
        st.set_selection(1, &[0, 1]).unwrap();
        st.set_custom_text(1, "Solid\nand more").unwrap();
        st.set_option_note(1, 0, "v18").unwrap();
        st.set_note(0, "undecided").unwrap();
        let r = submitted(&p, &st);
        assert_eq!(
            r.content[0].text,
            "User submitted the questionnaire \"Prefs\":\n\
             - Style (style): skipped (no answer given)\n  note: \"undecided\"\n\
             - Frontend (fw): React [react], Vue [vue], custom text \"Solid\\nand more\"\n  note on [react]: \"v18\"\n\
             1 question was skipped: do not assume an answer for it."
        );
        assert!(!r.details.cancelled);
        assert_eq!(r.details.error, None);
        assert_eq!(
            serde_json::to_value(&r.details.questions).unwrap(),
            json!([
                {"id": "style", "label": "Style", "prompt": "Style?", "type": "single"},
                {"id": "fw", "label": "Frontend", "prompt": "Frameworks?", "type": "multi"}
            ])
        );
    }

    #[test]
    fn dismissed_says_dismissed_and_has_no_answers() {
        let r = dismissed(&payload());
        assert!(r.content[0]
            .text
            .starts_with("User dismissed the questionnaire \"Prefs\""));
        let d = serde_json::to_value(&r.details).unwrap();
        assert_eq!(d["cancelled"], json!(true));
        assert_eq!(d["answers"], json!({}));
        assert!(d.get("error").is_none());
        assert_eq!(d["title"], json!("Prefs"));
    }

    #[test]
    fn needs_user_input_lists_questions_and_options() {
        let r = needs_user_input(&payload(), "no interactive terminal is available");
        let text = &r.content[0].text;
        assert!(text.starts_with("Needs user input: no interactive terminal is available"));
        assert!(text.contains("1. Style (id: style; choose one, required): Style?\n   1) Minimal [min]: Short.\n   2) Rich [rich]\n"));
        assert!(text.contains("2. Frontend (id: fw; choose any): Frameworks?"));
        assert_eq!(r.details.error.as_ref().unwrap().code, ErrorCode::NoUi);
        assert!(r.details.answers.is_empty());
        assert_eq!(r.details.questions.len(), 2);
    }

    #[test]
    fn aborted_carries_the_code() {
        let r = aborted(&payload(), ErrorCode::Aborted, "received SIGTERM");
        let e = r.details.error.unwrap();
        assert_eq!(
            (e.code, e.message.as_str()),
            (ErrorCode::Aborted, "received SIGTERM")
        );
        assert!(r.details.cancelled);
    }
}

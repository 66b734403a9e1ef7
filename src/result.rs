//! The result (`{content, details}`) and the exit code for every way a run can end, and the
//! transcript-friendly `content` text the calling model reads (contract "Output").
//!
//! One function, [`conclude`], turns an [`Ending`] into both; nothing else builds a result.
//! [`formats::render`] then writes it in another system's shape (`--result-format`).

pub mod formats;

use crate::answers::AnswerState;
use crate::contract::{
    quoted, ContentItem, Details, ErrorCode, ErrorInfo, Payload, PayloadError, Problem,
    QuestionSummary, QuestionType, ToolResult,
};
use crate::exit_codes::ExitCode;
use indexmap::IndexMap;
use std::fmt::Write;
use std::time::Duration;

/// How a run ended: the flow's own endings (submitted, dismissed) and the ones from outside
/// it. [`conclude`] turns it into the result and the exit code (docs/exit-codes.md).
#[derive(Debug, Clone, PartialEq)]
pub enum Ending {
    /// The person submitted (or the answers file answered): these answers, exit 0.
    Submitted(AnswerState),
    /// The person dismissed the flow (Esc and confirm, Cancel, a scripted cancel): exit 1.
    Dismissed,
    /// Ctrl+C or SIGINT: the dismissed result, exit 130 (128 + SIGINT, as shells report it).
    Interrupted,
    /// Ended from outside by this signal (SIGTERM, SIGHUP, SIGQUIT): `aborted` with the
    /// message "received SIGTERM", exit 128 + the signal number.
    Aborted {
        /// The signal number (`signal_hook::consts::SIGTERM`, ...).
        signal: i32,
    },
    /// The terminal went away or failed while asking; what happened: `terminal_lost`, exit 1.
    TerminalLost(String),
    /// No key came for the `--timeout` time: `cancelled: true` with the answers given so far
    /// (an open editor's draft saved as Esc saves it), `timeout` with `why` as its message,
    /// exit 124 (as timeout(1)). The one ending that keeps answers without a submit, so the
    /// caller can go on with what the person did answer.
    TimedOut {
        /// The answers given so far.
        answers: AnswerState,
        /// What happened, e.g. "no key for 30 seconds" ([`timeout_message`]).
        why: String,
    },
    /// No terminal and no answers file; why, e.g. "no interactive terminal is available":
    /// the "Needs user input" result, `no_ui`, exit 3.
    NoUi(String),
    /// The payload could not be used: `invalid_payload`, exit 2.
    InvalidPayload(PayloadError),
    /// The answers file could not be used (nothing was applied): `invalid_answers`, exit 2.
    InvalidAnswers(Vec<Problem>),
    /// A bug: a panic or a broken invariant (such as an answer the rules refused after the
    /// input was checked); what happened: `internal`, exit 5.
    Internal(String),
}

/// The result and the exit code of `ending`. `payload` is `None` only when none could be read
/// (a refused payload, a panic before it was parsed); `details.questions` is then empty.
pub fn conclude(ending: &Ending, payload: Option<&Payload>) -> (ToolResult, ExitCode) {
    match (ending, payload) {
        (Ending::Submitted(state), Some(p)) => (submitted(p, state), ExitCode::Submitted),
        (Ending::Submitted(_), None) => (
            internal(None, "answers were submitted without a payload"),
            ExitCode::Internal,
        ),
        (Ending::TimedOut { answers, why }, Some(p)) => {
            (timed_out(p, answers, why), ExitCode::TimedOut)
        }
        (Ending::TimedOut { .. }, None) => (
            internal(None, "a questionnaire timed out without a payload"),
            ExitCode::Internal,
        ),
        (Ending::Dismissed, p) => (dismissed(p), ExitCode::Cancelled),
        (Ending::Interrupted, p) => (dismissed(p), ExitCode::Interrupted),
        (Ending::Aborted { signal }, p) => (
            aborted(
                p,
                ErrorCode::Aborted,
                &format!("received {}", crate::terminal::signal_name(*signal)),
            ),
            ExitCode::for_signal(*signal),
        ),
        (Ending::TerminalLost(why), p) => (
            aborted(p, ErrorCode::TerminalLost, why),
            ExitCode::Cancelled,
        ),
        (Ending::NoUi(why), p) => (needs_user_input(p, why), ExitCode::NoUi),
        (Ending::InvalidPayload(err), _) => (
            invalid_input(
                ErrorCode::InvalidPayload,
                err.title.clone(),
                None,
                err.problems.clone(),
            ),
            ExitCode::Invalid,
        ),
        (Ending::InvalidAnswers(problems), p) => (
            invalid_input(
                ErrorCode::InvalidAnswers,
                p.and_then(|p| p.title.clone()),
                p,
                problems.clone(),
            ),
            ExitCode::Invalid,
        ),
        (Ending::Internal(why), p) => (internal(p, why), ExitCode::Internal),
    }
}

fn summaries(payload: Option<&Payload>) -> Vec<QuestionSummary> {
    payload.map_or_else(Vec::new, |p| {
        p.questions.iter().map(QuestionSummary::from).collect()
    })
}

fn title_phrase(title: Option<&str>) -> String {
    match title.map(str::trim).filter(|t| !t.is_empty()) {
        Some(t) => format!(" {}", quoted(t)),
        None => String::new(),
    }
}

/// The result of a submitted flow: `cancelled: false`, the answers, and a transcript line per
/// question (answered, noted, or skipped).
fn submitted(payload: &Payload, state: &AnswerState) -> ToolResult {
    let mut text = format!(
        "User submitted the questionnaire{}:\n",
        title_phrase(payload.title.as_deref())
    );
    let skipped = transcript(payload, state, "skipped (no answer given)", &mut text).len();
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
            questions: summaries(Some(payload)),
            answers: state.answers(payload),
            error: None,
        },
    }
}

/// The transcript of the answers: one line per question, `- Label (id): ` and its options
/// (`Label [value]`) and custom text, or `unanswered`; its note and option notes on the lines
/// under it. Returns the questions without an answer (a note alone is no answer).
fn transcript(
    payload: &Payload,
    state: &AnswerState,
    unanswered: &str,
    text: &mut String,
) -> Vec<usize> {
    let mut open = Vec::new();
    for (q, question) in payload.questions.iter().enumerate() {
        let summary = state.summary(payload, q);
        let head = format!("- {} ({})", question.label, question.id);
        if state.is_answered(q) {
            let mut parts: Vec<String> = summary
                .options
                .iter()
                .map(|(_, o)| format!("{} [{}]", o.label, o.value))
                .collect();
            if let Some(custom) = summary.custom_text {
                parts.push(format!("custom text {}", quoted(custom)));
            }
            let _ = writeln!(text, "{head}: {}", parts.join(", "));
        } else {
            open.push(q);
            let _ = writeln!(text, "{head}: {unanswered}");
        }
        if let Some(note) = summary.note {
            let _ = writeln!(text, "  note: {}", quoted(note));
        }
        for (option, note) in &summary.option_notes {
            let _ = writeln!(text, "  note on [{}]: {}", option.value, quoted(note));
        }
    }
    open
}

/// What a timeout's `details.error.message` says: "no key for 30 seconds" (fractions as
/// given: "no key for 2.5 seconds").
pub fn timeout_message(idle: Duration) -> String {
    let seconds = if idle.subsec_nanos() == 0 {
        idle.as_secs().to_string()
    } else {
        let s = format!("{:.3}", idle.as_secs_f64());
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    let unit = if seconds == "1" { "second" } else { "seconds" };
    format!("no key for {seconds} {unit}")
}

/// The result of a flow that timed out (no key for the `--timeout` time): `cancelled: true`,
/// the answers given so far, `details.error` = `timeout` with `why`, and a transcript that
/// names the questions still open.
fn timed_out(payload: &Payload, state: &AnswerState, why: &str) -> ToolResult {
    let mut text = format!(
        "The questionnaire{} timed out before the user submitted it ({why}). The answers \
         given so far:\n",
        title_phrase(payload.title.as_deref())
    );
    let open = transcript(payload, state, "still open (no answer given)", &mut text);
    if open.is_empty() {
        text.push_str("Every question was answered, but the user did not submit.");
    } else {
        let names: Vec<String> = open
            .iter()
            .map(|&q| {
                let question = &payload.questions[q];
                format!("{} ({})", question.label, question.id)
            })
            .collect();
        let _ = write!(
            text,
            "Still open: {}. Go on with the answers given; do not assume an answer for {}: \
             ask the user in plain text if you need {}.",
            names.join(", "),
            if open.len() == 1 { "it" } else { "them" },
            if open.len() == 1 { "it" } else { "them" }
        );
    }
    ToolResult {
        content: vec![ContentItem::text(text.trim_end())],
        details: Details {
            title: payload.title.clone(),
            cancelled: true,
            questions: summaries(Some(payload)),
            answers: state.answers(payload),
            error: Some(ErrorInfo::new(ErrorCode::Timeout, why)),
        },
    }
}

/// The result when the person dismissed the flow (Esc, Ctrl+C, a scripted `cancelled`): no
/// answers, no error.
fn dismissed(payload: Option<&Payload>) -> ToolResult {
    let text = format!(
        "User dismissed the questionnaire{} without submitting; no answers were given. \
         Do not assume any answer: continue without these choices or ask again in plain text.",
        title_phrase(payload.and_then(|p| p.title.as_deref()))
    );
    cancelled(payload, text, None)
}

/// The result when the flow was ended from outside or the terminal failed: no answers, and
/// `details.error` with `code` and `message`.
fn aborted(payload: Option<&Payload>, code: ErrorCode, message: &str) -> ToolResult {
    let text = format!(
        "The questionnaire{} was ended before the user submitted it ({message}); no answers \
         were given. Do not assume any answer.",
        title_phrase(payload.and_then(|p| p.title.as_deref()))
    );
    cancelled(payload, text, Some(ErrorInfo::new(code, message)))
}

fn cancelled(payload: Option<&Payload>, text: String, error: Option<ErrorInfo>) -> ToolResult {
    ToolResult {
        content: vec![ContentItem::text(text)],
        details: Details {
            title: payload.and_then(|p| p.title.clone()),
            cancelled: true,
            questions: summaries(payload),
            answers: IndexMap::new(),
            error,
        },
    }
}

/// Every question with its id, how to answer it, its options (`N) label [value]: description`,
/// previews as `| ` lines), its context (docs/dialects.md) and whether custom text is taken:
/// the "Needs user input" result lists the questions this way, and so does `pi-ask validate`.
pub fn listing(payload: &Payload) -> String {
    let mut text = String::new();
    for (q, question) in payload.questions.iter().enumerate() {
        let required = if question.required { ", required" } else { "" };
        let _ = writeln!(
            text,
            "{}. {} (id: {}; {}{required}): {}",
            q + 1,
            question.label,
            question.id,
            question.instruction(),
            question.prompt
        );
        if let Some(context) = &question.context {
            let _ = writeln!(text, "   context: {context}");
        }
        for (i, option) in question.options.iter().enumerate() {
            let _ = write!(text, "   {}) {} [{}]", i + 1, option.label, option.value);
            if let Some(d) = &option.description {
                let _ = write!(text, ": {d}");
            }
            text.push('\n');
            if question.kind == QuestionType::Preview {
                if let Some(p) = &option.preview {
                    for line in p.lines() {
                        let _ = writeln!(text, "      | {line}");
                    }
                }
            }
        }
        if question.is_text_only() {
            text.push_str("   the user's answer in their own words\n");
        } else if question.allows_custom_text() {
            text.push_str("   or the user's own answer in their words\n");
        }
    }
    text
}

/// The contract's non-interactive result (contract "Non-interactive mode"): `content` starts
/// with "Needs user input" and lists every question with its options ([`listing`]) so the
/// caller can ask in plain text; `details.answers` is empty and `details.error.code` is
/// `no_ui`.
fn needs_user_input(payload: Option<&Payload>, why: &str) -> ToolResult {
    let mut text = format!(
        "Needs user input: {why}, so the questionnaire{} could not be shown. Ask the user \
         these questions in plain text and continue with their answers:\n",
        title_phrase(payload.and_then(|p| p.title.as_deref()))
    );
    if let Some(p) = payload {
        for block in listing(p).split_inclusive('\n') {
            if block.starts_with(|c: char| c.is_ascii_digit()) {
                text.push('\n');
            }
            text.push_str(block);
        }
    }
    cancelled(
        payload,
        text.trim_end().to_string(),
        Some(ErrorInfo::new(
            ErrorCode::NoUi,
            &format!("{why}; no answers were collected"),
        )),
    )
}

/// The result for input that could not be used: `cancelled: true`, no answers, and
/// `details.error` = `{code, message, problems}` with every problem listed in `content` too.
/// `code` is [`ErrorCode::InvalidPayload`] or [`ErrorCode::InvalidAnswers`].
fn invalid_input(
    code: ErrorCode,
    title: Option<String>,
    payload: Option<&Payload>,
    problems: Vec<Problem>,
) -> ToolResult {
    let error = ErrorInfo::for_input(code, problems);
    ToolResult {
        content: vec![ContentItem::text(error.describe("- "))],
        details: Details {
            title,
            cancelled: true,
            questions: summaries(payload),
            answers: IndexMap::new(),
            error: Some(error),
        },
    }
}

/// A result for an internal failure (`details.error.code` = `internal`), never with answers.
fn internal(payload: Option<&Payload>, message: &str) -> ToolResult {
    let text = format!(
        "pi-ask failed with an internal error ({message}); no answers were collected. \
         Ask the user in plain text."
    );
    cancelled(
        payload,
        text,
        Some(ErrorInfo::new(ErrorCode::Internal, message)),
    )
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
    fn listing_prints_windows_line_endings_of_a_preview_as_lines() {
        let p = parse_payload(
            &json!({"questions": [{"id": "l", "prompt": "Layout?", "type": "preview",
                "options": [{"value": "a", "label": "A", "preview": "+--+\r\n|a |\r\n+--+\r\n"}]}]})
            .to_string(),
        )
        .unwrap();
        assert_eq!(
            listing(&p),
            "1. Q1 (id: l; choose one, previews below): Layout?\n   \
             1) A [a]\n      | +--+\n      | |a |\n      | +--+\n"
        );
        // the payload itself keeps its line endings
        assert_eq!(
            p.questions[0].options[0].preview.as_deref(),
            Some("+--+\r\n|a |\r\n+--+\r\n")
        );
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
        let r = dismissed(Some(&payload()));
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
        let r = needs_user_input(Some(&payload()), "no interactive terminal is available");
        let text = &r.content[0].text;
        assert!(text.starts_with("Needs user input: no interactive terminal is available"));
        assert!(text.contains("1. Style (id: style; choose one, required): Style?\n   1) Minimal [min]: Short.\n   2) Rich [rich]\n"));
        assert!(text.contains("2. Frontend (id: fw; choose any): Frameworks?"));
        assert_eq!(r.details.error.as_ref().unwrap().code, ErrorCode::NoUi);
        assert!(r.details.answers.is_empty());
        assert_eq!(r.details.questions.len(), 2);
    }

    #[test]
    fn a_timeout_keeps_the_answers_given_and_names_the_open_questions() {
        let p = payload();
        let mut st = AnswerState::new(&p);
        st.select(0, 0).unwrap();
        st.set_note(1, "later").unwrap();
        let ending = Ending::TimedOut {
            answers: st,
            why: timeout_message(Duration::from_secs(30)),
        };
        let (r, code) = conclude(&ending, Some(&p));
        assert_eq!(code, ExitCode::TimedOut);
        assert_eq!(code.code(), 124);
        assert_eq!(
            serde_json::to_value(&r).unwrap(),
            json!({
                "content": [{"type": "text", "text":
                    "The questionnaire \"Prefs\" timed out before the user submitted it (no key \
                     for 30 seconds). The answers given so far:\n\
                     - Style (style): Minimal [min]\n\
                     - Frontend (fw): still open (no answer given)\n  note: \"later\"\n\
                     Still open: Frontend (fw). Go on with the answers given; do not assume an \
                     answer for it: ask the user in plain text if you need it."}],
                "details": {
                    "title": "Prefs",
                    "cancelled": true,
                    "questions": [
                        {"id": "style", "label": "Style", "prompt": "Style?", "type": "single"},
                        {"id": "fw", "label": "Frontend", "prompt": "Frameworks?", "type": "multi"}
                    ],
                    "answers": {
                        "style": {"values": ["min"], "labels": ["Minimal"], "indices": [1]},
                        "fw": {"values": [], "labels": [], "indices": [], "note": "later"}
                    },
                    "error": {"code": "timeout", "message": "no key for 30 seconds"}
                }
            })
        );
    }

    #[test]
    fn a_timeout_with_every_question_answered_says_so() {
        let p = payload();
        let mut st = AnswerState::new(&p);
        st.select(0, 1).unwrap();
        st.set_selection(1, &[1]).unwrap();
        let (r, _) = conclude(
            &Ending::TimedOut {
                answers: st,
                why: "no key for 5 seconds".into(),
            },
            Some(&p),
        );
        assert!(r.content[0].text.ends_with(
            "- Frontend (fw): Vue [vue]\nEvery question was answered, but the user did not submit."
        ));
    }

    #[test]
    fn timeout_messages_give_the_seconds() {
        let m = |ms| timeout_message(Duration::from_millis(ms));
        assert_eq!(m(30_000), "no key for 30 seconds");
        assert_eq!(m(1_000), "no key for 1 second");
        assert_eq!(m(2_500), "no key for 2.5 seconds");
        assert_eq!(m(250), "no key for 0.25 seconds");
    }

    #[test]
    fn aborted_carries_the_code() {
        let r = aborted(Some(&payload()), ErrorCode::Aborted, "received SIGTERM");
        let e = r.details.error.unwrap();
        assert_eq!(
            (e.code, e.message.as_str()),
            (ErrorCode::Aborted, "received SIGTERM")
        );
        assert!(r.details.cancelled);
    }
}

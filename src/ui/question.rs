//! The question screen's model: which rows a question has, what each says and does, and which
//! key map applies. Every front end draws these rows (the terminal as a menu, plain mode as
//! numbered lines, dialogs as a select's choices); none has rows of its own.
//!
//! The rows (docs/interactive.md "Question screen"): the question's options, numbered 1..N;
//! then, when the question takes custom text, Type your own, numbered N+1 (the upstream's
//! internal option: its digit opens its editor); then, on a multi-select question, the row that
//! moves on (Next → / Next: review →). Notes have no row: `n` and `N` open them.

use super::keymap::{self, Action, Binding};
use super::words;
use crate::answers::AnswerState;
use crate::contract::{Payload, Question, QuestionType};
use crate::text::one_line;

/// A row of a question screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Row {
    /// An option (its index in the question).
    Option(usize),
    /// Type your own: opens the custom-text editor.
    TypeOwn,
    /// Moves on (multi-select): the next question or the review.
    Next,
}

/// The rows of a question screen, without listing them (a question may have 100,000
/// options): the options `shown` (all of them without a filter), Type your own when the
/// question takes custom text, the Next row on a multi-select question.
#[derive(Debug, Clone, Copy)]
pub struct Rows<'a> {
    shown: Option<&'a [usize]>,
    options: usize,
    type_own: bool,
    next: bool,
}

impl<'a> Rows<'a> {
    /// The rows of `question` with the options `shown` (all when `None`).
    pub fn of(question: &Question, shown: Option<&'a [usize]>) -> Rows<'a> {
        Rows {
            shown,
            options: shown.map_or(question.options.len(), <[usize]>::len),
            type_own: question.allows_custom_text(),
            next: question.kind == QuestionType::Multi,
        }
    }

    /// How many rows.
    pub fn len(&self) -> usize {
        self.options + usize::from(self.type_own) + usize::from(self.next)
    }

    /// Whether there is no row (a filter that matches nothing, free text off).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many option rows.
    pub fn options(&self) -> usize {
        self.options
    }

    /// Row `i` (below [`Rows::len`]).
    pub fn get(&self, i: usize) -> Row {
        if i < self.options {
            Row::Option(self.shown.map_or(i, |s| s[i]))
        } else if i == self.options && self.type_own {
            Row::TypeOwn
        } else {
            Row::Next
        }
    }

    /// Where row `row` is, when shown.
    pub fn index_of(&self, row: Row) -> Option<usize> {
        match row {
            Row::Option(o) => match self.shown {
                Some(s) => s.binary_search(&o).ok(),
                None => (o < self.options).then_some(o),
            },
            Row::TypeOwn => self.type_own.then_some(self.options),
            Row::Next => self.next.then(|| self.len() - 1),
        }
    }

    /// Every row, in order.
    pub fn to_vec(&self) -> Vec<Row> {
        (0..self.len()).map(|i| self.get(i)).collect()
    }
}

/// The row digit `digit` (1-9) names on question `question` whose screen shows `rows`: the
/// row that shows that number, option `digit` or Type your own as number N+1 (upstream
/// `applyNumberShortcut`), whatever page is shown; `None` when no shown row has it (a filter
/// hides that option), so a digit never acts on an option the person cannot see.
pub fn digit_row(question: &Question, rows: &Rows<'_>, digit: usize) -> Option<Row> {
    let n = question.options.len();
    let row = match digit {
        d if (1..=n).contains(&d) => Row::Option(d - 1),
        d if d == n + 1 && question.allows_custom_text() => Row::TypeOwn,
        _ => return None,
    };
    rows.index_of(row).map(|_| row)
}

/// Whether option number `number` typed at question `question` may begin a longer one (`1`
/// on a question of 12 options, whose Type your own is 13): the terminal front end then waits
/// a short while for the next digit before acting on it (docs/interactive.md, "Keys at a
/// question"); a number no longer one starts with acts at once.
pub fn number_may_go_on(question: &Question, number: usize) -> bool {
    number
        .checked_mul(10)
        .is_some_and(|n| n <= highest_number(question))
}

/// The highest number a digit may name on question `question`: its last option, or Type your
/// own as N+1.
fn highest_number(question: &Question) -> usize {
    question.options.len() + usize::from(question.allows_custom_text())
}

/// What the hint line says while option number `number`, which may go on
/// ([`number_may_go_on`]), waits for a digit more: the digits typed so far, what Enter does
/// and the numbers one more digit makes (`1… Enter chooses option 1, or type the next digit
/// (10-13)` on a question of 12 options), so a wait is never silent.
pub fn number_waiting(question: &Question, number: usize) -> String {
    let first = number.saturating_mul(10);
    let last = first.saturating_add(9).min(highest_number(question));
    words::number_waiting(number, question.kind == QuestionType::Multi, first, last)
}

/// The key map of question `question`'s screen.
pub fn keymap(question: &Question) -> &'static [Binding] {
    if question.is_text_only() {
        return keymap::TEXT;
    }
    match (question.kind, question.secret) {
        (QuestionType::Multi, false) => keymap::MULTI,
        (QuestionType::Single | QuestionType::Preview, false) => keymap::SINGLE,
        (QuestionType::Multi, true) => keymap::SECRET_MULTI,
        (QuestionType::Single | QuestionType::Preview, true) => keymap::SECRET,
    }
}

/// The key list (`?`) of question `question`'s screen ([`keymap::key_list_with`]), its digits
/// said as they are on this question: `1-4  choose option 1-3; 4: Type your own`, `1-13  choose
/// option 1-12; 13: Type your own` on a list of 12.
pub fn key_list(question: &Question) -> Vec<String> {
    let map = keymap(question);
    if question.is_text_only() {
        return keymap::key_list(map);
    }
    let digits = words::keys::digits(
        question.options.len(),
        question.allows_custom_text(),
        question.kind == QuestionType::Multi,
    );
    keymap::key_list_with(map, Some(digits))
}

/// How many options make a multi-select list long: more than one digit reaches. Its hint line
/// then names `a all · i invert` (inquirer's), right after Enter.
pub const LONG_LIST: usize = 9;

/// The bindings a question's hint line names with `row` highlighted: its [`keymap`], where
/// Enter's words say what Enter does on that row and Esc's what it does with a filter set
/// (`filtered`). On a multi-select question's Type your own row Enter opens the editor
/// (upstream `activateCustomOption`), so the hint reads `Enter edit` there, not `Enter done`;
/// with a filter set Esc clears it (and cancels only then), so the hint reads `Esc clear
/// filter`. On a multi-select question of more than [`LONG_LIST`] options `a all · i invert`
/// come after Enter.
pub fn hint_map(
    question: &Question,
    row: Row,
    filtered: bool,
) -> std::borrow::Cow<'static, [Binding]> {
    let map = keymap(question);
    let multi = question.kind == QuestionType::Multi;
    let edit = multi && row == Row::TypeOwn;
    let long = multi && question.options.len() > LONG_LIST;
    if !edit && !filtered && !long {
        return std::borrow::Cow::Borrowed(map);
    }
    let mut out: Vec<Binding> = map
        .iter()
        .filter(|b| !long || !matches!(b.action, Action::ToggleAll | Action::Invert))
        .map(|b| match b.action {
            Action::Confirm if edit => Binding {
                hint: keymap::MULTI_ENTER_ON_TYPE_YOUR_OWN,
                ..*b
            },
            Action::Cancel if filtered => Binding {
                hint: keymap::ESC_CLEARS_FILTER,
                ..*b
            },
            _ => *b,
        })
        .collect();
    if long {
        let at = out
            .iter()
            .position(|b| b.action == Action::Confirm)
            .map_or(out.len(), |i| i + 1);
        let named = |action: Action, hint: &'static str| {
            map.iter()
                .find(|b| b.action == action)
                .map(|b| Binding { hint, ..*b })
        };
        let extra: Vec<Binding> = [
            named(Action::ToggleAll, words::HINT_ALL),
            named(Action::Invert, words::HINT_INVERT),
        ]
        .into_iter()
        .flatten()
        .collect();
        out.splice(at..at, extra);
    }
    std::borrow::Cow::Owned(out)
}

/// The question's place and name before its prompt: `1/2 Style` (with ` (required)`), or
/// `None` when the payload has one question and it is not required.
pub fn place(payload: &Payload, q: usize) -> Option<String> {
    let n = payload.questions.len();
    let question = &payload.questions[q];
    let required = if question.required { " (required)" } else { "" };
    (n > 1 || question.required)
        .then(|| format!("{}/{n} {}{required}", q + 1, one_line(&question.label)))
}

/// The question's number and label, always (`2/3 Frontend`): the line-based front ends (plain,
/// dialogs) name every question by it, in its heading and in the titles of its editors.
pub fn marker(payload: &Payload, q: usize) -> String {
    format!(
        "{}/{} {}",
        q + 1,
        payload.questions.len(),
        one_line(&payload.questions[q].label)
    )
}

/// The heading of question `q` in the line-based front ends: its [`marker`] and how to answer
/// it, `2/3 Frontend (choose any, required)`.
pub fn heading(payload: &Payload, q: usize) -> String {
    let question = &payload.questions[q];
    let required = if question.required { ", required" } else { "" };
    format!(
        "{} ({}{required})",
        marker(payload, q),
        question.instruction()
    )
}

/// The prompt line's text: the place ([`place`]) and the prompt, `1/2 Style · How…?`. The
/// prompt keeps its line breaks; front ends wrap it.
pub fn prompt_text(payload: &Payload, q: usize) -> String {
    let question = &payload.questions[q];
    match place(payload, q) {
        Some(place) => format!("{place} \u{b7} {}", question.prompt),
        None => question.prompt.clone(),
    }
}

/// The width of the widest number a row of `question` shows (options and Type your own).
fn number_width(question: &Question) -> usize {
    digits(question.options.len() + 1)
}

/// Decimal digits of `n`.
fn digits(n: usize) -> usize {
    n.checked_ilog10().unwrap_or(0) as usize + 1
}

/// The number a row shows (`1.`), right-aligned for the question; the Next row has none.
pub fn number(question: &Question, row: Row) -> String {
    let mut out = String::new();
    push_number(&mut out, question, row);
    out
}

/// [`number`], appended to `out` (a row's text is built in one string: a key draws every row).
fn push_number(out: &mut String, question: &Question, row: Row) {
    let w = number_width(question);
    let n = match row {
        Row::Option(o) => o + 1,
        Row::TypeOwn => question.options.len() + 1,
        Row::Next => {
            out.extend(std::iter::repeat_n(' ', w + 1));
            return;
        }
    };
    out.extend(std::iter::repeat_n(' ', w.saturating_sub(digits(n))));
    // The digits without `fmt` (a tenth of a row's work otherwise).
    let mut buf = [0u8; 20];
    let mut at = buf.len();
    let mut rest = n;
    loop {
        at -= 1;
        buf[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    out.extend(buf[at..].iter().map(|&b| char::from(b)));
    out.push('.');
}

/// What row `row` of question `q` says, on one line, numbered: `2. Balanced`, `3. Type your
/// own… “draft”`, `Next: review →`. `editing`: Type your own's editor is open under it (its
/// label loses the `…`). `to_review`: moving on shows the review.
pub fn row_text(
    payload: &Payload,
    answers: &AnswerState,
    q: usize,
    row: Row,
    editing: bool,
    to_review: bool,
) -> String {
    let question = &payload.questions[q];
    let mut out = String::with_capacity(48);
    push_number(&mut out, question, row);
    out.push(' ');
    match row {
        Row::Option(o) => {
            let option = &question.options[o];
            out.push_str(&one_line(&option.label));
            if option.recommended {
                out.push(' ');
                out.push_str(words::RECOMMENDED);
            }
        }
        Row::TypeOwn if editing => out.push_str(words::TYPE_OWN),
        Row::TypeOwn => {
            out.push_str(words::TYPE_OWN_ROW);
            if let Some(text) = answers.custom_text(q) {
                out.push(' ');
                out.push_str(&super::view::shown_custom_text(question, text));
            }
        }
        Row::Next => out.push_str(words::next_row(to_review)),
    }
    out
}

/// The mark before a row of a line-based front end (plain, dialogs) that draws it itself:
/// `( )` / `(•)` on a single-select or preview question, `[ ]` / `[x]` on a multi-select one
/// (dialoguer's look without colour); the Next row has none.
pub fn mark(question: &Question, row: Row, chosen: bool) -> &'static str {
    match (row, question.kind, chosen) {
        (Row::Next, _, _) => "",
        (_, QuestionType::Multi, true) => "[x]",
        (_, QuestionType::Multi, false) => "[ ]",
        (_, _, true) => "(\u{2022})",
        (_, _, false) => "( )",
    }
}

/// What a front end without keys (dialogs) offers as rows after question `q`'s [`Rows`], for
/// what the terminal does with a key, in this order: the question's note (`N`), an option's
/// note (`n`, when the question has options), the previous question (Shift+Tab, from the
/// second question on), and on a question without a Next row the move on (Tab). Their words:
/// [`key_row_text`].
pub fn key_rows(question: &Question, q: usize) -> Vec<Action> {
    let mut rows = vec![Action::QuestionNote];
    if !question.options.is_empty() {
        rows.push(Action::OptionNote);
    }
    if q > 0 {
        rows.push(Action::PrevQuestion);
    }
    if question.kind != QuestionType::Multi {
        rows.push(Action::NextQuestion);
    }
    rows
}

/// The words of a key row ([`key_rows`]); `to_review`: moving on shows the review
/// ([`words::next_row`]). `None` for an action that has no row.
pub fn key_row_text(action: Action, to_review: bool) -> Option<&'static str> {
    match action {
        Action::QuestionNote => Some(words::QUESTION_NOTE_ROW),
        Action::OptionNote => Some(words::OPTION_NOTE_ROW),
        Action::PrevQuestion => Some(words::BACK_ROW),
        Action::NextQuestion => Some(words::next_row(to_review)),
        _ => None,
    }
}

/// Whether row `row` of question `q` is chosen (an option selected; Type your own with
/// custom text).
pub fn is_chosen(answers: &AnswerState, q: usize, row: Row) -> bool {
    match row {
        Row::Option(o) => answers.is_selected(q, o).unwrap_or(false),
        // On a multi-select question the custom row is ticked or not, its text kept either way.
        Row::TypeOwn if answers.custom_row_toggles(q) => answers.is_custom_ticked(q),
        Row::TypeOwn => answers.custom_text(q).is_some(),
        Row::Next => false,
    }
}

/// The lines under row `row` (without indent): an option's description, then its note
/// (`note: …`).
pub fn detail_lines(payload: &Payload, answers: &AnswerState, q: usize, row: Row) -> Vec<String> {
    let Row::Option(o) = row else {
        return Vec::new();
    };
    let option = &payload.questions[q].options[o];
    let mut lines = Vec::new();
    if let Some(d) = &option.description {
        lines.push(one_line(d).into_owned());
    }
    lines.extend(option_note_line(answers, q, o));
    lines
}

/// Option `o`'s note as the line under the option (`note: …`), when it has one.
pub fn option_note_line(answers: &AnswerState, q: usize, o: usize) -> Option<String> {
    answers
        .option_note(q, o)
        .map(|note| format!("note: {}", one_line(note)))
}

/// The question note's line under the prompt (`Note: …`), when it has one.
pub fn note_line(answers: &AnswerState, q: usize) -> Option<String> {
    answers
        .note(q)
        .map(|n| format!("{} {}", words::NOTE_LABEL, one_line(n)))
}

/// Whether option `option` matches the filter `needle` (already lowercased): its label, value
/// or description contains it, ignoring case.
pub fn matches_filter(option: &crate::contract::QuestionOption, needle: &str) -> bool {
    let has = |t: &str| {
        if t.is_ascii() && needle.is_ascii() {
            t.to_ascii_lowercase().contains(needle)
        } else {
            t.to_lowercase().contains(needle)
        }
    };
    has(&option.label) || has(&option.value) || option.description.as_deref().is_some_and(has)
}

/// The options of `question` that `filter` shows, by index.
pub fn filtered(question: &Question, filter: &str) -> Vec<usize> {
    let needle = filter.to_lowercase();
    (0..question.options.len())
        .filter(|&i| matches_filter(&question.options[i], &needle))
        .collect()
}

/// Everything about question `q` and one of its options, uncut (`v`): title, place, prompt,
/// context, the option's label, description and note; a preview question's option: its
/// preview.
pub fn full_text(payload: &Payload, answers: &AnswerState, q: usize, option: usize) -> String {
    let question = &payload.questions[q];
    let o = &question.options[option];
    if question.kind == QuestionType::Preview {
        return o.preview.clone().unwrap_or_default();
    }
    let mut text = String::new();
    if let Some(title) = &payload.title {
        text.push_str(&format!("{title}\n\n"));
    }
    text.push_str(&format!(
        "{}/{} {}\n{}\n",
        q + 1,
        payload.questions.len(),
        question.label,
        question.prompt
    ));
    if let Some(context) = &question.context {
        text.push_str(&format!("\n{context}\n"));
    }
    text.push_str(&format!("\n{}. {}\n", option + 1, o.label));
    if let Some(d) = &o.description {
        text.push_str(&format!("{d}\n"));
    }
    if let Some(note) = answers.option_note(q, option) {
        text.push_str(&format!("note: {note}\n"));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::QuestionOption;

    fn payload(json: &str) -> Payload {
        crate::contract::parse_payload(json).expect("a valid payload")
    }

    #[test]
    fn numbers_are_right_aligned_to_the_widest() {
        let options: Vec<String> = (0..120)
            .map(|i| format!(r#"{{"value":"v{i}","label":"L{i}"}}"#))
            .collect();
        let p = payload(&format!(
            r#"{{"questions":[{{"id":"q","prompt":"Which?","options":[{}]}}]}}"#,
            options.join(",")
        ));
        let q = &p.questions[0];
        assert_eq!(number(q, Row::Option(0)), "  1.");
        assert_eq!(number(q, Row::Option(9)), " 10.");
        assert_eq!(number(q, Row::Option(119)), "120.");
        assert_eq!(number(q, Row::TypeOwn), "121.");
    }

    #[test]
    fn type_your_own_is_option_n_plus_one_and_multi_adds_next() {
        let p = payload(
            r#"{"questions":[
                {"id":"q1","prompt":"Other?","options":[{"value":"a","label":"A"}]},
                {"id":"fe","prompt":"Which?","type":"multi","options":[{"value":"r","label":"React"},{"value":"v","label":"Vue"}]},
                {"id":"p","prompt":"Layout?","type":"preview","options":[{"value":"c","label":"C","preview":"x"}]}]}"#,
        );
        let q1 = &p.questions[0];
        assert_eq!(
            Rows::of(q1, None).to_vec(),
            vec![Row::Option(0), Row::TypeOwn]
        );
        let all = Rows::of(q1, None);
        assert_eq!(digit_row(q1, &all, 2), Some(Row::TypeOwn));
        assert_eq!(digit_row(q1, &all, 3), None);
        assert_eq!(
            Rows::of(&p.questions[1], None).to_vec(),
            vec![Row::Option(0), Row::Option(1), Row::TypeOwn, Row::Next]
        );
        let multi = &p.questions[1];
        assert_eq!(
            digit_row(multi, &Rows::of(multi, None), 3),
            Some(Row::TypeOwn)
        );
        let answers = AnswerState::new(&p);
        assert_eq!(
            row_text(&p, &answers, 0, Row::TypeOwn, false, false),
            "2. Type your own\u{2026}"
        );
        assert_eq!(
            row_text(&p, &answers, 0, Row::TypeOwn, true, false),
            "2. Type your own"
        );
        assert_eq!(
            row_text(&p, &answers, 1, Row::Next, false, true),
            "   Next: review \u{2192}"
        );
        assert_eq!(prompt_text(&p, 1), "2/3 Q2 \u{b7} Which?");
    }

    #[test]
    fn line_front_ends_name_each_question_and_offer_keys_as_rows() {
        let p = payload(
            r#"{"questions":[
                {"id":"s","label":"Style","prompt":"How?","required":true,"options":[{"value":"a","label":"A"}]},
                {"id":"m","prompt":"Which?","type":"multi","options":[{"value":"r","label":"R"}]}]}"#,
        );
        assert_eq!(marker(&p, 0), "1/2 Style");
        assert_eq!(heading(&p, 0), "1/2 Style (choose one, required)");
        assert_eq!(heading(&p, 1), "2/2 Q2 (choose any)");
        let (single, multi) = (&p.questions[0], &p.questions[1]);
        assert_eq!(mark(single, Row::Option(0), true), "(\u{2022})");
        assert_eq!(mark(single, Row::TypeOwn, false), "( )");
        assert_eq!(mark(multi, Row::Option(0), true), "[x]");
        assert_eq!(mark(multi, Row::Next, false), "");
        use Action::*;
        assert_eq!(
            key_rows(single, 0),
            [QuestionNote, OptionNote, NextQuestion]
        );
        assert_eq!(key_rows(multi, 1), [QuestionNote, OptionNote, PrevQuestion]);
        // A question without options (docs/dialects.md) has no option note.
        let text_only = crate::contract::parse_payload_as(
            r#"{"question": "Name?"}"#,
            crate::contract::InputFormat::Auto,
            false,
        )
        .payload
        .unwrap();
        assert_eq!(heading(&text_only, 0), "1/1 Q1 (answer in your own words)");
        assert_eq!(
            key_rows(&text_only.questions[0], 0),
            [QuestionNote, NextQuestion]
        );
        let texts: Vec<_> = key_rows(single, 1)
            .into_iter()
            .map(|a| key_row_text(a, true).unwrap())
            .collect();
        assert_eq!(
            texts,
            [
                "Note on this question\u{2026}",
                "Note on an option\u{2026}",
                "\u{2190} Back",
                "Next: review \u{2192}"
            ]
        );
        assert_eq!(key_row_text(Filter, false), None);
    }

    #[test]
    fn filter_matches_label_value_or_description_ignoring_case() {
        let option = |label: &str, description: Option<&str>| QuestionOption {
            value: "v1".to_string(),
            label: label.to_string(),
            description: description.map(str::to_string),
            preview: None,
            recommended: false,
        };
        assert!(matches_filter(&option("CAFÉ bar", None), "é"));
        assert!(matches_filter(&option("Café", None), "café"));
        assert!(matches_filter(&option("日本 10", None), "日本"));
        assert!(matches_filter(&option("x", Some("Fast ENGINE")), "engine"));
        assert!(matches_filter(&option("x", None), "v1"));
        assert!(!matches_filter(&option("Option 4", Some("d")), "option 42"));
    }

    #[test]
    fn the_key_list_says_the_digits_as_they_are_on_the_question() {
        let list = |n: usize, kind: &str| {
            let options: Vec<String> = (0..n)
                .map(|i| format!(r#"{{"value":"v{i}","label":"L{i}"}}"#))
                .collect();
            let p = payload(&format!(
                r#"{{"questions":[{{"id":"q","prompt":"P","type":"{kind}","options":[{}]}}]}}"#,
                options.join(",")
            ));
            key_list(&p.questions[0])
        };
        let digits = |l: Vec<String>| l.into_iter().find(|l| l.starts_with('1')).unwrap();
        assert_eq!(
            digits(list(200, "single")),
            "1-201    choose option 1-200; 201: Type your own"
        );
        assert_eq!(
            digits(list(12, "multi")),
            "1-13     tick option 1-12; 13: Type your own"
        );
        assert_eq!(
            digits(list(3, "single")),
            "1-4      choose option 1-3; 4: Type your own"
        );
        assert_eq!(
            digits(list(8, "multi")),
            "1-9      tick option 1-8; 9: Type your own"
        );
        assert_eq!(
            digits(list(9, "multi")),
            "1-10     tick option 1-9; 10: Type your own"
        );
    }

    /// docs/interactive.md's key lists ("The key list") are this code's, word for word.
    #[test]
    fn a_secret_questions_list_has_no_character_key() {
        let p = payload(
            r#"{"questions":[{"id":"t","prompt":"Token?","secret":true,"options":[{"value":"skip","label":"Skip"}]}]}"#,
        );
        let list = key_list(&p.questions[0]);
        assert_eq!(
            list,
            [
                "\u{2191}        move up",
                "\u{2193}        move down",
                "PgUp     previous page",
                "PgDn     next page",
                "Home     first row",
                "End      last row",
                "Enter    choose the option and go on",
                "a-z 0-9  the secret: its masked editor opens with what you type",
                "Tab \u{2192}    next question",
                "S-Tab \u{2190}  previous question",
                "^]       show the agent's message",
                "Esc      cancel (asks first when answers would be lost)",
                "^C       dismiss the questions at once",
                "^Z       suspend (fg brings it back)"
            ]
        );
        for c in ['n', 'N', 'j', 'k', 'v', '1', '/', '?', 'q'] {
            assert_eq!(
                keymap::action(keymap(&p.questions[0]), &crate::keys::Key::Char(c)),
                Some(keymap::Action::Type(c)),
                "{c}"
            );
        }
    }

    #[test]
    fn the_docs_key_lists_are_the_key_maps() {
        let docs = include_str!("../../docs/interactive.md");
        let p = payload(include_str!(
            "../../examples/implementation-preferences.json"
        ));
        for list in [
            key_list(&p.questions[0]),
            key_list(&p.questions[1]),
            keymap::key_list(keymap::REVIEW),
        ] {
            let block = format!("```\n{}\n```", list.join("\n"));
            assert!(
                docs.contains(&block),
                "docs/interactive.md lacks this key list:\n{block}"
            );
        }
    }
}

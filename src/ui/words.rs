//! Every word a screen says that is not the payload's: row labels, editor labels and
//! placeholders, confirmations, titles. Written once; the terminal (both placements), plain and
//! dialogs front ends all read them from here. The upstream's wording where it has one
//! (eko24ive/pi-ask `src/constants.ts`, `src/ui/constants.ts` at v0.3.0).

/// The internal option every question that takes custom text gets, after its own options
/// (contract "Input rules"; upstream `OTHER_OPTION_LABEL`).
pub const TYPE_OWN: &str = "Type your own";

/// The Type your own row of a menu: it opens an editor.
pub const TYPE_OWN_ROW: &str = "Type your own\u{2026}";

/// The mark after a recommended option's label (Claude Code's and OpenCode's convention).
pub const RECOMMENDED: &str = "(Recommended)";

/// The custom-text editor's placeholder (upstream `editorPlaceholderInput`).
pub const ANSWER_PLACEHOLDER: &str = "Type answer...";

/// The note editors' placeholder (upstream `editorPlaceholderNote`).
pub const NOTE_PLACEHOLDER: &str = "Add a note...";

/// The custom-text editor's hint (upstream `footerInput`).
pub const ANSWER_EDITOR_HINT: &str = "Enter submit \u{b7} Esc close";

/// The note editors' hint (upstream `footerNote`).
pub const NOTE_EDITOR_HINT: &str = "Enter save \u{b7} Esc close";

/// What a front end says of an answer or a note the answer rules refused (plain mode's
/// line, the title line of `--dialogs`' text dialog asked again): `Not saved: <why>.`
pub fn not_saved(why: &dyn std::fmt::Display) -> String {
    format!("Not saved: {why}.")
}

/// The note editor's hint in the terminal, in place of its keys, after a note was refused as
/// one too many (`answers::AnswerError::TooManyNotes`; docs/answers.md "The notes' budget"):
/// the editor stays open on the text; closed again, it drops it.
pub const TOO_MANY_NOTES_NOTICE: &str =
    "Not saved: too many notes (shorten or clear one) \u{b7} Enter or Esc again drops it";

/// The editors' hint for the external editor (`$VISUAL` / `$EDITOR` set).
pub const EXTERNAL_EDITOR_HINT: &str = "^G editor";

/// The editors' hint after Ctrl+G with no external editor set.
pub const NO_EXTERNAL_EDITOR: &str = "Ctrl+G: set $VISUAL or $EDITOR to write this in your editor";

/// The editors' hint after the external editor failed (the draft is kept).
pub const EXTERNAL_EDITOR_FAILED: &str = "The editor ($VISUAL / $EDITOR) failed: the draft is kept";

/// The editors' hint after Ctrl+G when no folder is safe for the editor's file (another user
/// could swap it: `channel::private_base`); the draft is kept.
pub const EXTERNAL_EDITOR_NO_SAFE_FOLDER: &str =
    "Ctrl+G: no folder is safe for the editor's file ($TMPDIR others can write to)";

/// The editors' hint after the external editor left more than an editor holds
/// (`limits::MAX_EDITOR_TEXT_BYTES`; the draft is kept).
pub const EXTERNAL_EDITOR_TOO_LONG: &str =
    "The editor's text is longer than 16 MiB: the draft is kept";

/// The editors' hint after the external editor left something else than a regular file
/// where its file was (a FIFO, a link, a folder; the draft is kept, nothing is read).
pub const EXTERNAL_EDITOR_NOT_A_FILE: &str =
    "The editor left no regular file to read: the draft is kept";

/// The filter editor's hint; after [`FILTER`] it fits a standard 80-column window (79
/// columns drawn).
pub const FILTER_EDITOR_HINT: &str = "Enter/\u{2193} the list \u{b7} Esc clear";

/// What a note editor edits: the question's note.
pub const QUESTION_NOTE: &str = "Note on this question";

/// What a note editor opened from the review edits: question `label`'s note.
pub fn question_note_of(label: &str) -> String {
    format!("{QUESTION_NOTE} \u{b7} {label}")
}

/// What a note editor edits: an option's note.
pub fn option_note(label: &str) -> String {
    format!("Note on {label}")
}

/// What the filter editor edits.
pub const FILTER: &str = "Filter options by label, value or description";

/// The line above a filtered menu: how many options match.
pub fn filter_line(filter: &str, shown: usize, of: usize) -> String {
    match shown {
        0 => format!("Filter {}: no option matches", crate::text::quote(filter)),
        _ => format!(
            "Filter {}: {shown} of {of} options",
            crate::text::quote(filter)
        ),
    }
}

/// After [`filter_line`] where it fits whole: Esc clears the filter (it cancels only once no
/// filter is set).
pub const FILTER_CLEARS: &str = " (Esc clears)";

/// After the highlighted option's description cut in the rows the block has: the key that
/// shows it whole (the `v` pager).
pub const DESCRIPTION_MORE: &str = " (v: whole text)";

/// The review's title (upstream `reviewTitle`).
pub const REVIEW_TITLE: &str = "Review answers";

/// The review's line between its questions and its actions when questions are out of view
/// (a short window): how many are above and below the ones shown (`↑ 2 more above · ↓ 1 more
/// below`); `None` when all show.
pub fn review_more(above: usize, below: usize) -> Option<String> {
    match (above, below) {
        (0, 0) => None,
        (a, 0) => Some(format!("\u{2191} {a} more above")),
        (0, b) => Some(format!("\u{2193} {b} more below")),
        (a, b) => Some(format!(
            "\u{2191} {a} more above \u{b7} \u{2193} {b} more below"
        )),
    }
}

/// A line editor's row over its text when `n` rows of it are out of view above (`↑ 3 more
/// lines`).
pub fn editor_rows_above(n: usize) -> String {
    format!("\u{2191} {n} more line{}", if n == 1 { "" } else { "s" })
}

/// A line editor's row under its text when `n` rows of it are out of view below.
pub fn editor_rows_below(n: usize) -> String {
    format!("\u{2193} {n} more line{}", if n == 1 { "" } else { "s" })
}

/// The review's line for a question with no answer (upstream `unanswered`).
pub const UNANSWERED: &str = "\u{2192} unanswered";

/// The label before a question note in the review (upstream `questionNoteTitle`).
pub const NOTE_LABEL: &str = "Note:";

/// The review's actions (upstream `SUBMIT_CHOICES`).
pub const SUBMIT: &str = "Submit";
/// See [`SUBMIT`].
pub const CANCEL: &str = "Cancel";
/// See [`SUBMIT`] (the contract's project since v0.4.0).
pub const ELABORATE: &str = "Elaborate";

/// The line that ends a review question folded to the rows it has, or that follows an answer
/// or a note cut to one row: how many answers (or lines) are not shown and the key that shows
/// them all (`+ 15 more · v shows all`, `+ 39 more lines · v shows all`).
pub fn review_folded(answers: usize, lines: usize) -> String {
    match (answers, lines) {
        (0, 1) => "+ 1 more line \u{b7} v shows all".to_string(),
        (0, n) => format!("+ {n} more lines \u{b7} v shows all"),
        (a, _) => format!("+ {a} more \u{b7} v shows all"),
    }
}

/// The line under a review answer cut keeping its end (`This is a very long … (A)`): the key
/// that shows it whole.
pub const REVIEW_CUT: &str = "cut in the middle \u{b7} v shows all";

/// `a`'s hint on a long multi-select list (`a all`).
pub const HINT_ALL: &str = "all";

/// `i`'s hint on a long multi-select list (`i invert`).
pub const HINT_INVERT: &str = "invert";

/// The title of the pager with every answer of the review, whole (`v` at the review).
pub const REVIEW_ALL_TITLE: &str = "Every answer";

/// `v`'s hint at the review when a question's answers are folded (`v all`).
pub const REVIEW_ALL_HINT: &str = "all";

/// In place of a question's hint line while option number `number` waits for a digit more
/// (docs/interactive.md "Keys at a question"): the digits typed so far, what Enter does with
/// them (`chooses`, `ticks` on a multi-select question) and the numbers a digit more makes,
/// `first` to `last`: `1… Enter chooses option 1, or type the next digit (10-13)`.
pub fn number_waiting(number: usize, multi: bool, first: usize, last: usize) -> String {
    let verb = if multi { "ticks" } else { "chooses" };
    let next = if first == last {
        format!("{first}")
    } else {
        format!("{first}-{last}")
    };
    format!("{number}\u{2026} Enter {verb} option {number}, or type the next digit ({next})")
}

/// The review's hint after a first press of an action's digit: a second press confirms
/// (upstream `doublePressReviewShortcuts`).
pub fn press_again(digit: usize, action: &str) -> String {
    format!("Press {digit} again to {}", action.to_lowercase())
}

/// A yes / no question: what is asked, the answer that goes on, the answer that goes back,
/// and Elaborate when it is offered too.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Confirmation {
    /// The title or question.
    pub title: std::borrow::Cow<'static, str>,
    /// Yes.
    pub yes: &'static str,
    /// No (highlighted first; Esc means no).
    pub no: &'static str,
    /// Elaborate instead (the submit confirmation when notes on options not chosen would be
    /// lost); `None`: only yes and no.
    pub elaborate: Option<&'static str>,
}

/// Esc with answers or notes that would be lost (docs/interactive.md "Cancel").
pub const CONFIRM_CANCEL: Confirmation = Confirmation {
    title: std::borrow::Cow::Borrowed("Cancel and discard your answers?"),
    yes: "Yes, discard the answers and cancel",
    no: "No, keep answering",
    elaborate: None,
};

/// Submit with `required` questions unanswered: asked, never refused (contract "Input
/// rules": required never blocks).
pub const CONFIRM_SUBMIT: Confirmation = Confirmation {
    title: std::borrow::Cow::Borrowed("Submit anyway?"),
    yes: "Yes, submit",
    no: "No, go back to the review",
    elaborate: None,
};

/// Submit with `count` notes on options not chosen, which only Elaborate sends
/// (docs/interactive.md "Review"): `Submit without 1 note on an option you did not choose?`,
/// Elaborate offered.
pub fn confirm_submit_without_notes(count: usize) -> Confirmation {
    let title = match count {
        1 => "Submit without 1 note on an option you did not choose?".to_string(),
        n => format!("Submit without {n} notes on options you did not choose?"),
    };
    let (yes, elaborate) = match count {
        1 => (
            "Yes, submit without it",
            "Elaborate: send the note to the agent",
        ),
        _ => (
            "Yes, submit without them",
            "Elaborate: send the notes to the agent",
        ),
    };
    Confirmation {
        title: std::borrow::Cow::Owned(title),
        yes,
        no: "No, go back to the review",
        elaborate: Some(elaborate),
    }
}

/// The mark of a note on an option not chosen in the review: it goes only with Elaborate
/// (`Note on Postgres (only with Elaborate): …`).
pub fn unchosen_note(label: &str, note: &str) -> String {
    format!("Note on {label} (only with Elaborate): {note}")
}

/// A transcript line's words for a note of an elaborate ending: what the person asked about
/// (`asked about Postgres: …`, `asked: …` for a question note).
pub fn asked(option: Option<&str>, note: &str) -> String {
    match option {
        Some(label) => format!("asked about {label}: {note}"),
        None => format!("asked: {note}"),
    }
}

/// The line over [`CONFIRM_SUBMIT`]: which required questions have no answer.
pub fn unanswered_required(names: &[String]) -> String {
    format!("Unanswered required questions: {}.", names.join(", "))
}

/// The row that moves on from a multi-select question: to the next question, or to the
/// review when moving on shows it ([`crate::flow::Flow::next_is_review`]).
pub fn next_row(to_review: bool) -> &'static str {
    if to_review {
        "Next: review \u{2192}"
    } else {
        "Next \u{2192}"
    }
}

/// The rows a front end without keys (dialogs) offers for what the terminal does with a key
/// (docs/dialogs.md "What each screen asks"): the question's note (`N`).
pub const QUESTION_NOTE_ROW: &str = "Note on this question\u{2026}";

/// See [`QUESTION_NOTE_ROW`]: an option's note (`n`); it asks which option first.
pub const OPTION_NOTE_ROW: &str = "Note on an option\u{2026}";

/// See [`QUESTION_NOTE_ROW`]: the review's note on a question (`N` on the review); it asks
/// which question first.
pub const REVIEW_NOTE_ROW: &str = "Note on a question\u{2026}";

/// See [`QUESTION_NOTE_ROW`]: the previous question (Shift+Tab, \u{2190}); in a list that
/// asks which option or question, back without choosing.
pub const BACK_ROW: &str = "\u{2190} Back";

/// The title of the list that asks which option's note to edit ([`OPTION_NOTE_ROW`]).
pub const WHICH_OPTION: &str = "Note on which option?";

/// The title of the list that asks which question's note to edit ([`REVIEW_NOTE_ROW`]).
pub const WHICH_QUESTION: &str = "Note on which question?";

/// The first title line of a dialog asked again after its reply was longer than `limit`
/// bytes, the dialogs' line limit (`--max-payload-bytes`; docs/dialogs.md).
pub fn reply_too_long(limit: u64) -> String {
    format!(
        "The last reply was more than {limit} bytes (--max-payload-bytes) and was not taken; \
         try again."
    )
}

/// What the keys do, in the key list's words (`?`, [`crate::ui::keymap::key_list`]); the
/// key names come from the bindings themselves.
pub mod keys {
    /// ↑ k.
    pub const UP: &str = "move up";
    /// ↓ j.
    pub const DOWN: &str = "move down";
    /// PgUp.
    pub const PAGE_UP: &str = "previous page";
    /// PgDn.
    pub const PAGE_DOWN: &str = "next page";
    /// Home.
    pub const FIRST: &str = "first row";
    /// End.
    pub const LAST: &str = "last row";
    /// Enter on a single-select question.
    pub const CHOOSE: &str = "choose the option and go on";
    /// Enter on a multi-select question (on Type your own it opens the editor,
    /// [`crate::ui::keymap::MULTI_ENTER_ON_TYPE_YOUR_OWN`]).
    pub const DONE: &str = "done: go on (on Type your own: edit)";
    /// Space on a single-select question.
    pub const SELECT: &str = "select or deselect, staying here";
    /// Space on a multi-select question.
    pub const TICK: &str = "tick or untick the option";
    /// `a`.
    pub const ALL: &str = "tick all, or none";
    /// `i`.
    pub const INVERT: &str = "invert the ticks";
    /// `n`.
    pub const OPTION_NOTE: &str = "note on the highlighted option";
    /// `N`.
    pub const QUESTION_NOTE: &str = "note on the question";
    /// `N` at the review.
    pub const REVIEW_NOTE: &str = "note on the highlighted question";
    /// `/`.
    pub const FILTER: &str = "filter the options";
    /// What a character typed at a secret question's list does.
    pub const SECRET: &str = "the secret: its masked editor opens with what you type";

    /// `/` in a key list, naming the letters that are keys there (`letters`: `a i j k n N v`):
    /// any other letter starts the filter, and so does a word typed fast
    /// ([`crate::ui::keymap::begins_a_word`]).
    pub fn filter_or_word(letters: &str) -> String {
        format!("{FILTER} (or type a word; {letters} alone are keys)")
    }
    /// `v` on a single-select question.
    pub const VIEW: &str = "whole text or preview of the option";
    /// `v` on a multi-select question.
    pub const VIEW_MULTI: &str = "whole text of the option";
    /// `v` at the review.
    pub const VIEW_REVIEW: &str = "every answer, whole";
    /// Tab on a question.
    pub const NEXT: &str = "next question";
    /// Shift+Tab on a question.
    pub const PREV: &str = "previous question";
    /// Tab at the review.
    pub const FIRST_QUESTION: &str = "the first question";
    /// Shift+Tab at the review.
    pub const LAST_QUESTION: &str = "back to the last question";
    /// Enter at the review.
    pub const RUN: &str = "run the action, or change the question";
    /// The digits at the review.
    pub const ACTION_DIGITS: &str = "an action; press twice to run it";
    /// Enter or `1` on a question without options.
    pub const WRITE: &str = "write the answer";
    /// Esc on a question that filters.
    pub const CANCEL_OR_CLEAR: &str = "clear the filter if set, else cancel";
    /// Esc where nothing filters.
    pub const CANCEL: &str = "cancel (asks first when answers would be lost)";
    /// `?`.
    pub const KEYS: &str = "this list";
    /// Ctrl+C.
    pub const DISMISS: &str = "dismiss the questions at once";
    /// Ctrl+].
    pub const PEEK: &str = "show the agent's message";
    /// Ctrl+Z.
    pub const SUSPEND: &str = "suspend (fg brings it back)";
    /// Enter at a confirmation.
    pub const CONFIRM: &str = "choose";
    /// `y`.
    pub const YES: &str = "yes";
    /// `n` at a confirmation.
    pub const NO: &str = "no";
    /// Esc at a confirmation.
    pub const NO_BACK: &str = "no, back";
    /// ↑ in a pager.
    pub const SCROLL_UP: &str = "scroll up";
    /// ↓ in a pager.
    pub const SCROLL_DOWN: &str = "scroll down";
    /// Esc in a pager.
    pub const BACK: &str = "back";

    /// The digits of a question of `options` options, Type your own as N+1 when `type_own`:
    /// their name (`1-4`, `1-13`) and words (`choose option 1-3; 4: Type your own`), `tick`
    /// on a multi-select question. Every number is typed as it is written (`1` `2`: option
    /// 12, [`crate::ui::question::number_may_go_on`]), so the digits reach the last row.
    pub fn digits(options: usize, type_own: bool, multi: bool) -> (String, String) {
        let verb = if multi { "tick" } else { "choose" };
        let rows = options + usize::from(type_own);
        let name = if rows <= 1 {
            "1".to_string()
        } else {
            format!("1-{rows}")
        };
        let own = super::TYPE_OWN;
        let words = match (options, type_own) {
            (0, _) => format!("{}: {own}", 1),
            (1, true) => format!("{verb} option 1; 2: {own}"),
            (o, true) => format!("{verb} option 1-{o}; {}: {own}", o + 1),
            (1, false) => format!("{verb} option 1"),
            (o, false) => format!("{verb} option 1-{o}"),
        };
        (name, words)
    }
}

/// The key list's title (`?`).
pub const KEYS_TITLE: &str = "Keys";

/// The pager's hint.
pub const PAGER_HINT: &str = "\u{2191}\u{2193} scroll \u{b7} Esc/q back";

/// The peek's title with `--context` (the agent's message).
pub const PEEK_TITLE: &str = "The agent's message";

/// The peek without `--context`, inline: where the agent's message is.
pub const PEEK_NONE: &str =
    "No context was given: the agent's message, when it wrote one, is above the questions.";

/// The peek when `--context` could not be read: `why` names the option, the file and the
/// reason (`--context notes.md: No such file or directory`).
pub fn peek_unusable(why: &str) -> String {
    format!("The agent's message cannot be shown: {why}.")
}

/// In place of the hint line (and in plain mode, once) when the grace of the first question
/// dropped keys (docs/interactive.md "Keys over ssh, tmux and slow links").
pub const KEYS_IGNORED: &str = "Keys typed as the question appeared were ignored: type again";

/// The notice drawn in a window too small for any screen.
pub const TOO_SMALL: &str = "Window too small: enlarge it";

/// Where the full text of a cut option is (`v`).
pub fn full_text_title(option: usize) -> String {
    format!("Full text of option {option}")
}

/// The pager's title for a preview.
pub fn preview_title(label: &str) -> String {
    format!("Preview of {label}")
}

/// The line under a preview cut to the room it has.
pub fn preview_more(lines: usize) -> String {
    format!("\u{2026} {lines} more lines: v shows the whole preview")
}

/// Plain mode's line under a secret question (`"secret": true`): its lines are read without
/// echo (docs/plain-mode.md).
pub const SECRET_HIDDEN: &str = "What you type for this question is not shown.";

/// What the ending's transcript line adds when the questions were answered from elsewhere
/// (the answer channel, docs/elsewhere.md): `(answered from elsewhere: ntfy)`; `from` is one
/// line already, its controls dropped (`contract::parse_answer_request`).
pub fn from_elsewhere(from: &str) -> String {
    format!("(answered from elsewhere: {from})")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_submit_confirmation_counts_the_notes_it_would_drop() {
        let one = confirm_submit_without_notes(1);
        assert_eq!(
            (one.title.as_ref(), one.yes, one.elaborate),
            (
                "Submit without 1 note on an option you did not choose?",
                "Yes, submit without it",
                Some("Elaborate: send the note to the agent")
            )
        );
        let two = confirm_submit_without_notes(2);
        assert_eq!(
            (two.title.as_ref(), two.yes, two.elaborate),
            (
                "Submit without 2 notes on options you did not choose?",
                "Yes, submit without them",
                Some("Elaborate: send the notes to the agent")
            )
        );
    }
}

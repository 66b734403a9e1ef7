//! Defaults that more than one layer names (the command line, the man page, a front end, the
//! `@` completion): each value spelled once here, at the bottom, so none of those layers
//! imports another for a number.

use std::time::Duration;

/// Default `--max-payload-bytes` (and `PI_ASK_MAX_PAYLOAD_BYTES`): 4 MiB. Also the longest
/// response line the dialogs front end reads when no limit is given (docs/dialogs.md).
pub const DEFAULT_MAX_PAYLOAD_BYTES: u64 = 4 * 1024 * 1024;

/// Longest a Tab in an editor waits for an unfinished `@` file index before listing what is
/// indexed so far, unless the environment variable [`INDEX_WAIT_ENV`] says otherwise.
pub const INDEX_FIRST_WAIT: Duration = Duration::from_millis(400);

/// Environment variable overriding [`INDEX_FIRST_WAIT`], in milliseconds (tests set it high
/// so a loaded machine cannot turn a Tab into a partial list).
pub const INDEX_WAIT_ENV: &str = "PI_ASK_INDEX_WAIT_MS";

/// Most bytes an editor's text holds: 16 MiB. A paste that would take it past that keeps what
/// fits, and a typed key that would is dropped (`ui::line_editor::LineEditor`,
/// docs/interactive.md "The line editor").
pub const MAX_EDITOR_TEXT_BYTES: usize = 16 * 1024 * 1024;

/// Most columns of one line of `pi-ask validate`'s text report (a label, a prompt, a
/// description): a longer one is cut with `…`, so a megabyte label is not a megabyte on the
/// terminal (`--json` gives every text whole).
pub const MAX_REPORT_LINE_COLUMNS: usize = 400;

/// Most notes an answer state holds, counted as each note's share of an elaborate result
/// (`answers::note_weight`): a note counts 1 + its question's context units (its texts and
/// its options', 128 bytes a unit) + the units of the question's notes, since
/// `details.elaboration.items[]` repeats the question with all its options for each note
/// (the contract's project's `AskElaborationQuestionContext`), and its answer with its option
/// notes. 40,000 units are about 5 MB of text repeated: the largest result measured at the
/// budget, of labels and notes of control characters JSON writes 6 bytes each, is under
/// 100 MB (docs/answers.md "The notes' budget"); 96 notes fit on a question of 1,000 short
/// options. A new or longer note past it is refused (`answers::AnswerState::set_note`,
/// `set_option_note`).
pub const MAX_NOTE_WEIGHT: u64 = 20_000;

/// Most problems one payload or answers document lists: past them one `too_many_problems`
/// problem (path: the document) counts the rest, and the checker keeps no more than twice
/// this many at a time (`contract::cap_problems`), so a 4 MB document of two million bad
/// positions is a small result, not 880 MB (docs/exit-codes.md "Problem codes").
pub const MAX_PROBLEMS: usize = 100;

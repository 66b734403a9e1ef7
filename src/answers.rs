//! The answer state: the one UI-free place that owns every output rule of the contract.
//!
//! Every front end (terminal, plain, scripted) turns key presses or file entries into calls on
//! [`AnswerState`], and [`AnswerState::answers`] builds `details.answers` from it. The rules
//! (contract "Output rules"):
//! - single-select: saving custom text clears the selected option, selecting an option clears
//!   the custom text; at most one option is selected;
//! - multi-select: options keep their original order, custom text is appended last; saving or
//!   clearing custom text never touches the selected options; saved custom text ticks the
//!   custom row, which can be unticked and ticked again without losing the text (only ticked
//!   custom text is in the answer; the contract's project v0.8.1, docs/contract.md "What
//!   pi-ask adds");
//! - questions whose caller turned free text off take no custom text
//!   ([`Question::allows_custom_text`]); preview questions do;
//! - `indices` are 1-based rendered option positions (custom text has none);
//! - option notes are kept for every option, but only notes of selected options are output, so
//!   a deselected option's note comes back when it is selected again;
//! - a question note may exist without an answer; a question with neither is omitted;
//! - notes have a budget ([`note_weight`], [`MAX_NOTE_WEIGHT`]): a new or longer note past it
//!   is refused, and so is a longer custom text on a question with notes, so an elaborate
//!   result, which repeats a question, its options, its answer and its notes with each note,
//!   stays bounded.

use crate::contract::{Answer, Payload, Question, QuestionOption, QuestionType};
pub use crate::limits::MAX_NOTE_WEIGHT;
use indexmap::IndexMap;
use std::fmt;

/// A call the answer rules do not allow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnswerError {
    /// The question index is past the last question.
    NoSuchQuestion(usize),
    /// The option index (0-based) is past the last option of the question.
    NoSuchOption { question: usize, option: usize },
    /// More than one option for a single-select or preview question.
    TooManyOptions { question: usize },
    /// Custom text on a question that takes none ([`Question::allows_custom_text`]: free text
    /// turned off by the caller).
    CustomTextNotAllowed { question: usize },
    /// Ticking the custom row of a question with no saved custom text (a front end opens the
    /// editor instead: [`AnswerState::custom_row_toggles`]).
    NoCustomText { question: usize },
    /// A new or longer note, or a longer custom text on a question with notes, would take the
    /// notes past [`MAX_NOTE_WEIGHT`]: the question's notes would weigh `weight`
    /// ([`note_weight`]).
    TooManyNotes { question: usize, weight: u64 },
}

/// Bytes a note's weight counts in one unit ([`note_weight`]): 128.
pub const NOTE_UNIT_BYTES: u64 = 128;

/// Bytes a question's context counts for each option besides its texts: the JSON keys and
/// quotes an elaborate result repeats with it (`{"value":"","label":""}`, the answer's
/// `values`, `labels`, `indices`): 8.
pub const OPTION_OVERHEAD_BYTES: u64 = 8;

/// How many times an elaborate result repeats a question's custom text with each note on it:
/// the item's `answer.values`, `answer.labels` and `answer.customText`, and the note's line in
/// `content` (`after current answer "…"`): 4 (docs/answers.md "The notes' budget").
pub const CUSTOM_TEXT_COPIES: u64 = 4;

/// `bytes` in [`NOTE_UNIT_BYTES`] units, rounded up.
fn units(bytes: u64) -> u64 {
    bytes.div_ceil(NOTE_UNIT_BYTES)
}

/// A question's context units, what an elaborate result repeats of it with each note on it
/// (`details.elaboration.items[].question`, the answer's `values` and `labels`, `content`'s
/// line): the bytes of its id, prompt and label and of each option's value, label,
/// description and preview, plus [`OPTION_OVERHEAD_BYTES`] per option, in
/// [`NOTE_UNIT_BYTES`] units rounded up (docs/answers.md "The notes' budget").
pub fn context_units(question: &Question) -> u64 {
    let texts = question.id.len() + question.prompt.len() + question.label.len();
    let options = question.options.iter().map(|o| {
        let text = o.value.len()
            + o.label.len()
            + o.description.as_ref().map_or(0, String::len)
            + o.preview.as_ref().map_or(0, String::len);
        text as u64 + OPTION_OVERHEAD_BYTES
    });
    units(options.fold(texts as u64, u64::saturating_add))
}

/// What `notes` notes of `note_bytes` bytes in all, on a question of `context` units
/// ([`context_units`]) whose custom text has `custom_bytes` bytes, count towards
/// [`MAX_NOTE_WEIGHT`]: `notes × (1 + context + answer units)`, the answer units being
/// `note_bytes + CUSTOM_TEXT_COPIES × custom_bytes` in [`NOTE_UNIT_BYTES`] rounded up. An
/// elaborate result repeats the question and its options with each note
/// (`details.elaboration.items[]`) and the question's answer with its custom text and option
/// notes (docs/answers.md "The notes' budget"). The one rule the answer state and the answers
/// file count with.
pub fn note_weight(notes: usize, context: u64, note_bytes: usize, custom_bytes: usize) -> u64 {
    let answer =
        (note_bytes as u64).saturating_add(CUSTOM_TEXT_COPIES.saturating_mul(custom_bytes as u64));
    let each = context.saturating_add(units(answer)).saturating_add(1);
    (notes as u64).saturating_mul(each)
}

impl fmt::Display for AnswerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnswerError::NoSuchQuestion(q) => write!(f, "there is no question {}", q + 1),
            AnswerError::NoSuchOption { question, option } => {
                write!(f, "question {} has no option {}", question + 1, option + 1)
            }
            AnswerError::TooManyOptions { question } => {
                write!(f, "question {} takes only one option", question + 1)
            }
            AnswerError::CustomTextNotAllowed { question } => {
                write!(
                    f,
                    "question {} takes no custom text: choose one of its options",
                    question + 1
                )
            }
            AnswerError::NoCustomText { question } => {
                write!(f, "question {} has no custom text to tick", question + 1)
            }
            AnswerError::TooManyNotes { question, weight } => write!(
                f,
                "too many notes: an elaborate result repeats a question with all its options, \
                 its answer and its notes for each note (question {}'s notes would weigh \
                 {weight}), {MAX_NOTE_WEIGHT} in all at most; shorten or clear a note or the \
                 custom text first",
                question + 1
            ),
        }
    }
}

impl std::error::Error for AnswerError {}

#[derive(Debug, Clone, Default, PartialEq)]
struct QuestionState {
    selected: Vec<bool>,
    custom_text: Option<String>,
    /// The custom row is ticked: the custom text is part of the answer. Always true with
    /// custom text on single-select and preview questions; on multi-select the row can be
    /// unticked, keeping the text.
    custom_ticked: bool,
    note: Option<String>,
    option_notes: Vec<Option<String>>,
    /// What its notes weigh and what that is counted from.
    weight: NoteWeight,
}

/// What a summary of one question shows ([`AnswerState::summary`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary<'a> {
    /// The selected options with their 0-based positions, in option order.
    pub options: Vec<(usize, &'a QuestionOption)>,
    /// The custom text when the custom row is ticked, shown after the options.
    pub custom_text: Option<&'a str>,
    /// The question note.
    pub note: Option<&'a str>,
    /// Notes of selected options, in option order.
    pub option_notes: Vec<(&'a QuestionOption, &'a str)>,
}

/// What a person has answered so far, question by question (indices are 0-based here; the
/// result's `indices` are 1-based).
#[derive(Debug, Clone, PartialEq)]
pub struct AnswerState {
    kinds: Vec<QuestionType>,
    /// Per question: whether it takes custom text ([`Question::allows_custom_text`]).
    custom: Vec<bool>,
    questions: Vec<QuestionState>,
    /// The notes' [`note_weight`] over all questions, at most [`MAX_NOTE_WEIGHT`] (each
    /// question's is in its state).
    note_weight: u64,
}

/// What one question's notes weigh ([`note_weight`]) and what it is counted from: the
/// question's [`context_units`], the notes' count and their bytes, the custom text's bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct NoteWeight {
    context: u64,
    notes: usize,
    bytes: usize,
    custom: usize,
    weight: u64,
}

/// Trimmed text, or `None` when it is empty after trimming (an empty save clears).
fn non_empty(text: &str) -> Option<String> {
    let t = text.trim();
    (!t.is_empty()).then(|| t.to_string())
}

impl AnswerState {
    /// An empty state for `payload`: nothing selected, no text, no notes.
    pub fn new(payload: &Payload) -> Self {
        AnswerState {
            kinds: payload.questions.iter().map(|q| q.kind).collect(),
            custom: payload
                .questions
                .iter()
                .map(Question::allows_custom_text)
                .collect(),
            questions: payload
                .questions
                .iter()
                .map(|q| QuestionState {
                    selected: vec![false; q.options.len()],
                    option_notes: vec![None; q.options.len()],
                    weight: NoteWeight {
                        context: context_units(q),
                        ..NoteWeight::default()
                    },
                    ..QuestionState::default()
                })
                .collect(),
            note_weight: 0,
        }
    }

    fn question(&self, q: usize) -> Result<&QuestionState, AnswerError> {
        self.questions.get(q).ok_or(AnswerError::NoSuchQuestion(q))
    }

    fn question_mut(&mut self, q: usize) -> Result<&mut QuestionState, AnswerError> {
        self.questions
            .get_mut(q)
            .ok_or(AnswerError::NoSuchQuestion(q))
    }

    fn check_option(&self, q: usize, option: usize) -> Result<(), AnswerError> {
        if option < self.question(q)?.selected.len() {
            Ok(())
        } else {
            Err(AnswerError::NoSuchOption {
                question: q,
                option,
            })
        }
    }

    /// Number of questions.
    pub fn len(&self) -> usize {
        self.questions.len()
    }

    /// Whether there are no questions (never true for a validated payload).
    pub fn is_empty(&self) -> bool {
        self.questions.is_empty()
    }

    /// Selects one option. On single-select and preview questions it replaces the selection
    /// and clears the custom text; on multi-select it adds to the selection.
    pub fn select(&mut self, q: usize, option: usize) -> Result<(), AnswerError> {
        self.check_option(q, option)?;
        if !self.kinds[q].takes_several() {
            self.put_custom_text(q, None)?;
            self.questions[q]
                .selected
                .iter_mut()
                .for_each(|s| *s = false);
        }
        self.questions[q].selected[option] = true;
        Ok(())
    }

    /// Deselects one option (its note is kept in state).
    pub fn deselect(&mut self, q: usize, option: usize) -> Result<(), AnswerError> {
        self.check_option(q, option)?;
        self.question_mut(q)?.selected[option] = false;
        Ok(())
    }

    /// Toggles one option; returns whether it is selected afterwards. On single-select and
    /// preview questions selecting replaces the selection (see [`AnswerState::select`]).
    pub fn toggle(&mut self, q: usize, option: usize) -> Result<bool, AnswerError> {
        if self.is_selected(q, option)? {
            self.deselect(q, option)?;
            Ok(false)
        } else {
            self.select(q, option)?;
            Ok(true)
        }
    }

    /// Replaces the whole selection with `options` (0-based, any order, duplicates ignored).
    /// Single-select and preview questions take at most one; a non-empty selection there
    /// clears the custom text.
    pub fn set_selection(&mut self, q: usize, options: &[usize]) -> Result<(), AnswerError> {
        let wanted = self.check_selection(q, options)?;
        if !self.kinds[q].takes_several() && !wanted.is_empty() {
            self.put_custom_text(q, None)?;
        }
        let st = self.question_mut(q)?;
        st.selected.iter_mut().for_each(|s| *s = false);
        for o in wanted {
            st.selected[o] = true;
        }
        Ok(())
    }

    /// `options` as a selection of question `q`: ascending, without duplicates.
    ///
    /// Errors: an unknown question or option; more than one option where the question takes
    /// one ([`QuestionType::takes_several`]).
    fn check_selection(&self, q: usize, options: &[usize]) -> Result<Vec<usize>, AnswerError> {
        for &o in options {
            self.check_option(q, o)?;
        }
        let mut wanted = options.to_vec();
        wanted.sort_unstable();
        wanted.dedup();
        if !self.kinds[q].takes_several() && wanted.len() > 1 {
            return Err(AnswerError::TooManyOptions { question: q });
        }
        Ok(wanted)
    }

    /// Whether an option is selected.
    pub fn is_selected(&self, q: usize, option: usize) -> Result<bool, AnswerError> {
        self.check_option(q, option)?;
        Ok(self.questions[q].selected[option])
    }

    /// Selected options (0-based) in original option order.
    pub fn selected(&self, q: usize) -> Vec<usize> {
        self.questions.get(q).map_or_else(Vec::new, |st| {
            st.selected
                .iter()
                .enumerate()
                .filter_map(|(i, s)| s.then_some(i))
                .collect()
        })
    }

    /// Saves the free-form answer and ticks the custom row; empty (after trimming) clears the
    /// text and unticks the row. On single-select and preview questions a non-empty save
    /// clears the selected option; on multi-select the selection is untouched.
    ///
    /// Errors: [`AnswerError::CustomTextNotAllowed`]; [`AnswerError::TooManyNotes`] when a
    /// longer text would take the notes past [`MAX_NOTE_WEIGHT`] (nothing changed).
    pub fn set_custom_text(&mut self, q: usize, text: &str) -> Result<(), AnswerError> {
        let kind = *self.kinds.get(q).ok_or(AnswerError::NoSuchQuestion(q))?;
        if !self.custom[q] {
            return Err(AnswerError::CustomTextNotAllowed { question: q });
        }
        let text = non_empty(text);
        let saved = text.is_some();
        self.put_custom_text(q, text)?;
        let st = &mut self.questions[q];
        st.custom_ticked = saved;
        if !kind.takes_several() && saved {
            st.selected.iter_mut().for_each(|s| *s = false);
        }
        Ok(())
    }

    /// Puts question `q`'s custom text (`None` clears it and unticks the row), counting it
    /// in the notes' budget ([`AnswerState::reweigh`]): the one place the text is written.
    fn put_custom_text(&mut self, q: usize, text: Option<String>) -> Result<(), AnswerError> {
        let old = self.question(q)?.weight;
        let custom = text.as_deref().map_or(0, str::len);
        self.reweigh(q, old.notes, old.bytes, custom)?;
        let st = &mut self.questions[q];
        if text.is_none() {
            st.custom_ticked = false;
        }
        st.custom_text = text;
        Ok(())
    }

    /// The saved free-form answer, ticked or not: what an editor opens with. Whether it is in
    /// the answer is [`AnswerState::is_custom_ticked`].
    pub fn custom_text(&self, q: usize) -> Option<&str> {
        self.questions.get(q)?.custom_text.as_deref()
    }

    /// Whether the custom row is ticked: there is custom text and it is part of the answer.
    pub fn is_custom_ticked(&self, q: usize) -> bool {
        self.questions.get(q).is_some_and(|st| st.custom_ticked)
    }

    /// Whether Space (a toggle) on the custom row ticks or unticks it rather than opening the
    /// editor: a multi-select question with saved custom text (the contract's project
    /// v0.8.1). Elsewhere the custom row opens the editor.
    pub fn custom_row_toggles(&self, q: usize) -> bool {
        self.kinds.get(q).is_some_and(|k| k.takes_several()) && self.custom_text(q).is_some()
    }

    /// Ticks or unticks the custom row of a multi-select question with saved custom text,
    /// keeping the text; returns whether it is ticked afterwards.
    ///
    /// Errors: [`AnswerError::NoCustomText`] when [`AnswerState::custom_row_toggles`] is
    /// false (no saved text, or not a multi-select question).
    pub fn toggle_custom(&mut self, q: usize) -> Result<bool, AnswerError> {
        if !self.custom_row_toggles(q) {
            self.question(q)?;
            return Err(AnswerError::NoCustomText { question: q });
        }
        let st = self.question_mut(q)?;
        st.custom_ticked = !st.custom_ticked;
        Ok(st.custom_ticked)
    }

    /// Saves the question note; empty (after trimming) clears it.
    ///
    /// Errors: [`AnswerError::TooManyNotes`] when a new or longer note would take the notes
    /// past [`MAX_NOTE_WEIGHT`] (a shorter note or clearing one always works).
    pub fn set_note(&mut self, q: usize, text: &str) -> Result<(), AnswerError> {
        let text = non_empty(text);
        let had = self.question(q)?.note.as_deref().map(str::len);
        self.count_note(q, had, text.as_deref().map(str::len))?;
        self.question_mut(q)?.note = text;
        Ok(())
    }

    /// Counts a note of question `q` that was there (`had`, its bytes) or not and will be
    /// (`will`) or not ([`AnswerState::reweigh`]).
    fn count_note(
        &mut self,
        q: usize,
        had: Option<usize>,
        will: Option<usize>,
    ) -> Result<(), AnswerError> {
        let old = self.question(q)?.weight;
        let notes = old.notes + usize::from(will.is_some()) - usize::from(had.is_some());
        let bytes = old.bytes + will.unwrap_or(0) - had.unwrap_or(0);
        self.reweigh(q, notes, bytes, old.custom)
    }

    /// The notes' weight over all questions if question `q` had `notes` notes of `bytes`
    /// bytes and a custom text of `custom` bytes, with `q`'s own weight:
    /// [`AnswerError::TooManyNotes`] when `q`'s weight grows and the total passes
    /// [`MAX_NOTE_WEIGHT`].
    fn check_weight(
        &self,
        q: usize,
        notes: usize,
        bytes: usize,
        custom: usize,
    ) -> Result<(u64, u64), AnswerError> {
        let old = self.question(q)?.weight;
        let weight = note_weight(notes, old.context, bytes, custom);
        let total = (self.note_weight - old.weight).saturating_add(weight);
        if weight > old.weight && total > MAX_NOTE_WEIGHT {
            return Err(AnswerError::TooManyNotes {
                question: q,
                weight,
            });
        }
        Ok((weight, total))
    }

    /// Recomputes question `q`'s [`note_weight`] from its notes (`notes`, `bytes`) and its
    /// custom text (`custom` bytes): [`AnswerError::TooManyNotes`], counting nothing, when it
    /// grows and takes the notes past [`MAX_NOTE_WEIGHT`]. The one place the budget is kept.
    fn reweigh(
        &mut self,
        q: usize,
        notes: usize,
        bytes: usize,
        custom: usize,
    ) -> Result<(), AnswerError> {
        let (weight, total) = self.check_weight(q, notes, bytes, custom)?;
        let old = self.questions[q].weight;
        self.questions[q].weight = NoteWeight {
            notes,
            bytes,
            custom,
            weight,
            ..old
        };
        self.note_weight = total;
        Ok(())
    }

    /// The question note.
    pub fn note(&self, q: usize) -> Option<&str> {
        self.questions.get(q)?.note.as_deref()
    }

    /// Saves the note of one option, selected or not; empty (after trimming) clears it.
    ///
    /// Errors: an unknown option; [`AnswerError::TooManyNotes`] as [`AnswerState::set_note`].
    pub fn set_option_note(
        &mut self,
        q: usize,
        option: usize,
        text: &str,
    ) -> Result<(), AnswerError> {
        self.check_option(q, option)?;
        let text = non_empty(text);
        let had = self.questions[q].option_notes[option]
            .as_deref()
            .map(str::len);
        self.count_note(q, had, text.as_deref().map(str::len))?;
        self.question_mut(q)?.option_notes[option] = text;
        Ok(())
    }

    /// The note of one option, whether or not the option is selected.
    pub fn option_note(&self, q: usize, option: usize) -> Option<&str> {
        self.questions.get(q)?.option_notes.get(option)?.as_deref()
    }

    /// Whether the question has a selected option or ticked custom text (a note alone is not
    /// an answer).
    pub fn is_answered(&self, q: usize) -> bool {
        self.questions
            .get(q)
            .is_some_and(|st| st.custom_ticked || st.selected.contains(&true))
    }

    /// Whether the question has a note: its question note or a note on any option, selected
    /// or not (what `--auto-submit` and Elaborate look at).
    pub fn has_notes(&self, q: usize) -> bool {
        self.questions
            .get(q)
            .is_some_and(|st| st.note.is_some() || st.option_notes.iter().any(Option::is_some))
    }

    /// Sets a whole answer at once, all or nothing: the selection when `options` is given
    /// (replacing it, as [`AnswerState::set_selection`]), then the custom text when given
    /// (as [`AnswerState::set_custom_text`]; empty clears it).
    ///
    /// Errors: as those two; on error nothing changed.
    pub fn set_answer(
        &mut self,
        q: usize,
        options: Option<&[usize]>,
        custom_text: Option<&str>,
    ) -> Result<(), AnswerError> {
        if q >= self.kinds.len() {
            return Err(AnswerError::NoSuchQuestion(q));
        }
        if let Some(options) = options {
            self.check_selection(q, options)?;
        }
        if custom_text.is_some() && !self.custom[q] {
            return Err(AnswerError::CustomTextNotAllowed { question: q });
        }
        if let Some(text) = custom_text {
            // Refused before anything changes.
            let old = self.questions[q].weight;
            let bytes = non_empty(text).map_or(0, |t| t.len());
            if bytes > old.custom {
                self.check_weight(q, old.notes, old.bytes, bytes)?;
            }
        }
        if let Some(options) = options {
            self.set_selection(q, options)?;
        }
        if let Some(text) = custom_text {
            self.set_custom_text(q, text)?;
        }
        Ok(())
    }

    /// Clears the answer of one question (selection and custom text); its notes stay, so a
    /// note-only answer remains and option notes come back with their options.
    pub fn clear_answer(&mut self, q: usize) -> Result<(), AnswerError> {
        self.put_custom_text(q, None)?;
        self.questions[q]
            .selected
            .iter_mut()
            .for_each(|s| *s = false);
        Ok(())
    }

    /// What a summary of question `q` shows: the selected options in option order, the
    /// custom text (after them), the question note, and the notes of selected options only.
    /// Front ends and the result's `content` word it each in their way; what is in it is
    /// decided here. Empty for an unknown question.
    pub fn summary<'a>(&'a self, payload: &'a Payload, q: usize) -> Summary<'a> {
        let (Some(st), Some(question)) = (self.questions.get(q), payload.questions.get(q)) else {
            return Summary::default();
        };
        let mut summary = Summary {
            custom_text: st.custom_text.as_deref().filter(|_| st.custom_ticked),
            note: st.note.as_deref(),
            ..Summary::default()
        };
        for (i, option) in question.options.iter().enumerate() {
            if st.selected[i] {
                summary.options.push((i, option));
                if let Some(n) = &st.option_notes[i] {
                    summary.option_notes.push((option, n.as_str()));
                }
            }
        }
        summary
    }

    /// The contract answer for one question, or `None` when it has neither an answer nor a
    /// note (contract: unanswered questions are omitted).
    pub fn answer(&self, payload: &Payload, q: usize) -> Option<Answer> {
        let summary = self.summary(payload, q);
        let mut answer = Answer::default();
        for &(i, option) in &summary.options {
            answer.values.push(option.value.clone());
            answer.labels.push(option.label.clone());
            answer.indices.push(i + 1);
        }
        if let Some(text) = summary.custom_text {
            answer.values.push(text.to_string());
            answer.labels.push(text.to_string());
            answer.custom_text = Some(text.to_string());
        }
        answer.note = summary.note.map(str::to_string);
        answer.option_notes = (!summary.option_notes.is_empty()).then(|| {
            summary
                .option_notes
                .iter()
                .map(|(o, n)| (o.value.clone(), n.to_string()))
                .collect()
        });
        (!answer.values.is_empty() || answer.note.is_some()).then_some(answer)
    }

    /// `details.answers`: every question with an answer or a note, in question order.
    pub fn answers(&self, payload: &Payload) -> IndexMap<String, Answer> {
        (0..self.questions.len())
            .filter_map(|q| Some((payload.questions[q].id.clone(), self.answer(payload, q)?)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    //! One test per output rule of the contract ("Output rules").
    use super::*;
    use crate::contract::parse_payload;
    use serde_json::json;

    fn payload() -> Payload {
        parse_payload(
            &json!({
                "title": "T",
                "questions": [
                    {"id": "s", "prompt": "Single?", "options": [
                        {"value": "a", "label": "A"}, {"value": "b", "label": "B"}]},
                    {"id": "m", "label": "Multi", "prompt": "Multi?", "type": "multi", "options": [
                        {"value": "x", "label": "X"}, {"value": "y", "label": "Y"},
                        {"value": "z", "label": "Z"}]},
                    {"id": "p", "prompt": "Preview?", "type": "preview", "options": [
                        {"value": "p1", "label": "P1", "preview": "one"},
                        {"value": "p2", "label": "P2", "preview": "two"}]}
                ]
            })
            .to_string(),
        )
        .unwrap()
    }

    fn answer_json(state: &AnswerState, p: &Payload, q: usize) -> serde_json::Value {
        serde_json::to_value(state.answer(p, q)).unwrap()
    }

    #[test]
    fn unanswered_questions_are_omitted() {
        let p = payload();
        let mut st = AnswerState::new(&p);
        assert_eq!(serde_json::to_value(st.answers(&p)).unwrap(), json!({}));
        st.select(1, 0).unwrap();
        assert_eq!(
            serde_json::to_value(st.answers(&p)).unwrap(),
            json!({"m": {"values": ["x"], "labels": ["X"], "indices": [1]}})
        );
    }

    #[test]
    fn single_select_answers_still_use_arrays() {
        let p = payload();
        let mut st = AnswerState::new(&p);
        st.select(0, 1).unwrap();
        assert_eq!(
            answer_json(&st, &p, 0),
            json!({"values": ["b"], "labels": ["B"], "indices": [2]})
        );
    }

    #[test]
    fn indices_are_one_based_rendered_positions() {
        let p = payload();
        let mut st = AnswerState::new(&p);
        st.set_selection(1, &[2, 0]).unwrap();
        assert_eq!(answer_json(&st, &p, 1)["indices"], json!([1, 3]));
    }

    #[test]
    fn selecting_on_single_replaces_the_selection() {
        let p = payload();
        let mut st = AnswerState::new(&p);
        st.select(0, 0).unwrap();
        st.select(0, 1).unwrap();
        assert_eq!(st.selected(0), vec![1]);
        assert_eq!(
            st.set_selection(0, &[0, 1]),
            Err(AnswerError::TooManyOptions { question: 0 })
        );
    }

    #[test]
    fn custom_text_on_single_clears_selected_options() {
        let p = payload();
        let mut st = AnswerState::new(&p);
        st.select(0, 0).unwrap();
        st.set_custom_text(0, "  my own  ").unwrap();
        assert_eq!(
            answer_json(&st, &p, 0),
            json!({"values": ["my own"], "labels": ["my own"], "indices": [], "customText": "my own"})
        );
    }

    #[test]
    fn selecting_an_option_on_single_clears_custom_text() {
        let p = payload();
        let mut st = AnswerState::new(&p);
        st.set_custom_text(0, "mine").unwrap();
        st.select(0, 0).unwrap();
        assert_eq!(st.custom_text(0), None);
        assert_eq!(answer_json(&st, &p, 0)["values"], json!(["a"]));
    }

    #[test]
    fn multi_keeps_option_order_and_appends_custom_text_last() {
        let p = payload();
        let mut st = AnswerState::new(&p);
        st.set_custom_text(1, "W").unwrap();
        st.select(1, 2).unwrap();
        st.select(1, 0).unwrap();
        assert_eq!(
            answer_json(&st, &p, 1),
            json!({"values": ["x", "z", "W"], "labels": ["X", "Z", "W"], "indices": [1, 3], "customText": "W"})
        );
    }

    #[test]
    fn saving_or_clearing_custom_text_on_multi_keeps_selected_options() {
        let p = payload();
        let mut st = AnswerState::new(&p);
        st.set_selection(1, &[0, 1]).unwrap();
        st.set_custom_text(1, "W").unwrap();
        assert_eq!(st.selected(1), vec![0, 1]);
        st.set_custom_text(1, "").unwrap();
        assert_eq!(
            answer_json(&st, &p, 1),
            json!({"values": ["x", "y"], "labels": ["X", "Y"], "indices": [1, 2]})
        );
    }

    #[test]
    fn empty_custom_text_on_single_clears_only_the_text() {
        let p = payload();
        let mut st = AnswerState::new(&p);
        st.set_custom_text(0, "mine").unwrap();
        st.set_custom_text(0, "   ").unwrap();
        assert!(!st.is_answered(0));
        assert_eq!(st.answer(&p, 0), None);
    }

    #[test]
    fn preview_questions_take_custom_text_instead_of_an_option() {
        let p = payload();
        let mut st = AnswerState::new(&p);
        st.select(2, 1).unwrap();
        st.set_custom_text(2, "x").unwrap();
        assert_eq!(
            answer_json(&st, &p, 2),
            json!({"values": ["x"], "labels": ["x"], "indices": [], "customText": "x"})
        );
        st.select(2, 1).unwrap();
        assert_eq!(
            answer_json(&st, &p, 2),
            json!({"values": ["p2"], "labels": ["P2"], "indices": [2]})
        );
    }

    #[test]
    fn multi_custom_text_can_be_unticked_and_ticked_again_keeping_the_text() {
        let p = payload();
        let mut st = AnswerState::new(&p);
        assert!(!st.custom_row_toggles(1));
        assert_eq!(
            st.toggle_custom(1),
            Err(AnswerError::NoCustomText { question: 1 })
        );
        st.select(1, 0).unwrap();
        st.set_custom_text(1, "W").unwrap();
        assert!(st.is_custom_ticked(1) && st.custom_row_toggles(1));
        assert_eq!(st.toggle_custom(1), Ok(false));
        assert_eq!(st.custom_text(1), Some("W"));
        assert_eq!(
            answer_json(&st, &p, 1),
            json!({"values": ["x"], "labels": ["X"], "indices": [1]})
        );
        st.deselect(1, 0).unwrap();
        assert!(!st.is_answered(1));
        assert_eq!(st.answer(&p, 1), None);
        assert_eq!(st.toggle_custom(1), Ok(true));
        assert_eq!(
            answer_json(&st, &p, 1),
            json!({"values": ["W"], "labels": ["W"], "indices": [], "customText": "W"})
        );
        // Single-select custom text never toggles: the custom row opens the editor.
        st.set_custom_text(0, "mine").unwrap();
        assert!(!st.custom_row_toggles(0));
        assert_eq!(
            st.toggle_custom(0),
            Err(AnswerError::NoCustomText { question: 0 })
        );
    }

    #[test]
    fn notes_on_any_option_count_as_notes() {
        let p = payload();
        let mut st = AnswerState::new(&p);
        assert!(!st.has_notes(1));
        st.set_option_note(1, 2, "maybe").unwrap();
        assert!(st.has_notes(1));
        assert_eq!(st.answer(&p, 1), None);
        st.set_option_note(1, 2, "").unwrap();
        st.set_note(1, "n").unwrap();
        assert!(st.has_notes(1));
    }

    #[test]
    fn questions_whose_caller_turned_free_text_off_take_no_custom_text() {
        let p = crate::contract::parse_payload_as(
            r#"{"question": "Which?", "options": ["a", "b"], "allowFreeform": false}"#,
            crate::contract::InputFormat::Auto,
            false,
        )
        .payload
        .unwrap();
        let mut st = AnswerState::new(&p);
        assert_eq!(
            st.set_custom_text(0, "x"),
            Err(AnswerError::CustomTextNotAllowed { question: 0 })
        );
        assert_eq!(
            st.set_answer(0, Some(&[1]), Some("x")),
            Err(AnswerError::CustomTextNotAllowed { question: 0 })
        );
        assert_eq!(st.selected(0), Vec::<usize>::new(), "all or nothing");
    }

    #[test]
    fn a_question_without_options_is_answered_in_words() {
        let p = crate::contract::parse_payload_as(
            r#"{"question": "Name?"}"#,
            crate::contract::InputFormat::Auto,
            false,
        )
        .payload
        .unwrap();
        let mut st = AnswerState::new(&p);
        assert!(st.select(0, 0).is_err());
        st.set_custom_text(0, " Atlas ").unwrap();
        assert_eq!(
            answer_json(&st, &p, 0),
            json!({"values": ["Atlas"], "labels": ["Atlas"], "indices": [], "customText": "Atlas"})
        );
    }

    #[test]
    fn question_note_may_exist_without_an_answer() {
        let p = payload();
        let mut st = AnswerState::new(&p);
        st.set_note(0, "think about it").unwrap();
        assert_eq!(
            answer_json(&st, &p, 0),
            json!({"values": [], "labels": [], "indices": [], "note": "think about it"})
        );
        st.set_note(0, "").unwrap();
        assert_eq!(st.answer(&p, 0), None);
    }

    #[test]
    fn option_notes_include_only_selected_options() {
        let p = payload();
        let mut st = AnswerState::new(&p);
        st.set_option_note(1, 0, "note x").unwrap();
        st.set_option_note(1, 1, "note y").unwrap();
        st.select(1, 1).unwrap();
        assert_eq!(
            answer_json(&st, &p, 1),
            json!({"values": ["y"], "labels": ["Y"], "indices": [2], "optionNotes": {"y": "note y"}})
        );
    }

    #[test]
    fn option_note_survives_deselection_and_returns_on_reselection() {
        let p = payload();
        let mut st = AnswerState::new(&p);
        st.select(1, 0).unwrap();
        st.set_option_note(1, 0, "keep me").unwrap();
        st.toggle(1, 0).unwrap();
        assert_eq!(st.answer(&p, 1), None);
        assert_eq!(st.option_note(1, 0), Some("keep me"));
        st.toggle(1, 0).unwrap();
        assert_eq!(
            answer_json(&st, &p, 1)["optionNotes"],
            json!({"x": "keep me"})
        );
    }

    #[test]
    fn option_notes_keep_option_order() {
        let p = payload();
        let mut st = AnswerState::new(&p);
        st.set_option_note(1, 2, "zz").unwrap();
        st.set_option_note(1, 0, "xx").unwrap();
        st.set_selection(1, &[2, 0]).unwrap();
        let text = serde_json::to_string(&st.answer(&p, 1).unwrap().option_notes).unwrap();
        assert_eq!(text, r#"{"x":"xx","z":"zz"}"#);
    }

    #[test]
    fn empty_note_clears_it() {
        let p = payload();
        let mut st = AnswerState::new(&p);
        st.set_option_note(0, 0, "n").unwrap();
        st.set_option_note(0, 0, " \n ").unwrap();
        assert_eq!(st.option_note(0, 0), None);
    }

    #[test]
    fn out_of_range_calls_are_errors_not_panics() {
        let p = payload();
        let mut st = AnswerState::new(&p);
        assert_eq!(st.select(9, 0), Err(AnswerError::NoSuchQuestion(9)));
        assert_eq!(
            st.select(0, 5),
            Err(AnswerError::NoSuchOption {
                question: 0,
                option: 5
            })
        );
        assert_eq!(st.set_note(7, "x"), Err(AnswerError::NoSuchQuestion(7)));
    }

    /// A multi-select question `q` (prompt `P`) of `options` (value, label).
    fn budget_payload(options: impl Iterator<Item = (String, String)>) -> Payload {
        let options: Vec<_> = options
            .map(|(value, label)| json!({"value": value, "label": label}))
            .collect();
        parse_payload(
            &json!({"questions": [{"id": "q", "prompt": "P", "type": "multi", "options": options}]})
                .to_string(),
        )
        .unwrap()
    }

    #[test]
    fn a_note_past_the_budget_is_refused_and_a_shorter_one_or_clearing_one_is_not() {
        // 999 short options: 15,768 bytes of context ("q", "P", "Q1", each value and label
        // and 8), 124 units; a note of one byte weighs 1 + 124 + the notes' units, so 157 fit
        // (157 × 127 = 19,939).
        let p = budget_payload((0..999).map(|i| (format!("v{i}"), format!("L{i}"))));
        assert_eq!(context_units(&p.questions[0]), 124);
        let mut st = AnswerState::new(&p);
        for o in 0..157 {
            st.set_option_note(0, o, "n").unwrap();
        }
        let too_many = AnswerError::TooManyNotes {
            question: 0,
            weight: 158 * 127,
        };
        let refused = Err(too_many.clone());
        assert_eq!(st.set_option_note(0, 157, "one more"), refused);
        assert_eq!(st.option_note(0, 157), None);
        assert_eq!(st.set_note(0, "and on the question"), refused);
        assert_eq!(st.note(0), None);
        // A note as long in units is taken; a longer one is not (157 × 128), a shorter one is.
        st.set_option_note(0, 0, "other words").unwrap();
        let longer = "x".repeat(200);
        assert_eq!(
            st.set_option_note(0, 0, &longer),
            Err(AnswerError::TooManyNotes {
                question: 0,
                weight: 157 * 128
            })
        );
        assert_eq!(st.option_note(0, 0), Some("other words"));
        st.set_option_note(0, 0, "n").unwrap();
        // Clearing one makes room for another.
        st.set_option_note(0, 1, " ").unwrap();
        st.set_note(0, "now it fits").unwrap();
        assert_eq!(st.set_option_note(0, 1, "again"), refused);
        assert_eq!(
            too_many.to_string(),
            "too many notes: an elaborate result repeats a question with all its options, its \
             answer and its notes for each note (question 1's notes would weigh 20066), 20000 \
             in all at most; shorten or clear a note or the custom text first"
        );
    }

    #[test]
    fn a_custom_text_counts_four_times_with_each_note_and_a_longer_one_is_refused() {
        // Two short options: 1 unit of context ("q", "P", the label, "a", "A", "b", "B",
        // 2 × 8). Each note repeats the custom text 4 times: with 64,000 bytes of it and three
        // notes of one byte, the answer units are (3 + 256,000) / 128 = 2,001 and the notes
        // weigh 3 × (1 + 1 + 2,001). Before, the custom text was not counted: 300 option notes
        // with a 4 MB custom text took over 13 GB to write.
        let p = budget_payload((0..2).map(|i| (["a", "b"][i].into(), ["A", "B"][i].into())));
        assert_eq!(context_units(&p.questions[0]), 1);
        let text = "x".repeat(64_000);
        let mut st = AnswerState::new(&p);
        st.set_custom_text(0, &text).unwrap();
        st.set_note(0, "n").unwrap();
        st.set_option_note(0, 0, "a").unwrap();
        st.set_option_note(0, 1, "b").unwrap();
        assert_eq!(st.note_weight, 3 * (1 + 1 + 2_001));
        // 3 MB: (3 + 12,000,000) / 128 = 93,751 units, 3 × 93,753 in all: refused.
        let refused = Err(AnswerError::TooManyNotes {
            question: 0,
            weight: 3 * (1 + 1 + 93_751),
        });
        assert_eq!(st.set_custom_text(0, &"y".repeat(3_000_000)), refused);
        // Nothing changed: the text, its tick, the weight.
        assert_eq!(st.custom_text(0), Some(text.as_str()));
        assert!(st.is_custom_ticked(0));
        assert_eq!(st.note_weight, 3 * (1 + 1 + 2_001));
        // The same through `set_answer`: refused before the selection changes.
        st.select(0, 0).unwrap();
        assert_eq!(
            st.set_answer(0, Some(&[1]), Some(&"y".repeat(3_000_000))),
            refused
        );
        assert_eq!(st.selected(0), vec![0]);
        // A shorter custom text, or none, is always taken and gives its weight back.
        st.set_custom_text(0, "short").unwrap();
        assert_eq!(st.note_weight, 3 * (1 + 1 + 1));
        st.set_custom_text(0, &text).unwrap();
        st.clear_answer(0).unwrap();
        assert_eq!(st.custom_text(0), None);
        assert_eq!(st.note_weight, 3 * (1 + 1 + 1));
        // With no note any custom text is taken (nothing repeats it); a note after a custom
        // text of 1 MB is refused: (4 + 4,000,000) / 128 = 31,251 units.
        let mut st = AnswerState::new(&p);
        st.set_custom_text(0, &"z".repeat(1_000_000)).unwrap();
        assert_eq!(
            st.set_note(0, "why?"),
            Err(AnswerError::TooManyNotes {
                question: 0,
                weight: 1 + 1 + 31_251
            })
        );
        assert_eq!(st.note(0), None);
    }

    #[test]
    fn notes_on_a_question_of_long_labels_are_refused_sooner() {
        // Ten options of 30,000-byte labels: 2,345 units of context, so 8 notes fit and a
        // ninth would weigh 9 × 2,347. Counting options only (11 each), all ten were taken and
        // an elaborate result repeated the 300 KB of labels three times with each note.
        let p = budget_payload((0..10).map(|i| (format!("v{i}"), "x".repeat(30_000))));
        assert_eq!(context_units(&p.questions[0]), 2345);
        let mut st = AnswerState::new(&p);
        for o in 0..8 {
            st.set_option_note(0, o, "n").unwrap();
        }
        assert_eq!(
            st.set_option_note(0, 8, "n"),
            Err(AnswerError::TooManyNotes {
                question: 0,
                weight: 9 * 2347
            })
        );
        assert_eq!(st.set_note(0, "n").map_err(|_| ()), Err(()));
    }

    #[test]
    fn long_notes_count_their_bytes_and_a_longer_note_is_refused() {
        // Three short options (1 unit); a 1 MB note weighs 1 + 1 + 7,813 units, so a second
        // one is refused (2 × 15,627), a 100 KB one fits, and lengthening it to 300 KB is
        // refused (2 × 10,159). Counting options only, every note was taken.
        let p = budget_payload((0..3).map(|i| (format!("v{i}"), format!("L{i}"))));
        let mut st = AnswerState::new(&p);
        let mb = "x".repeat(1_000_000);
        st.set_option_note(0, 0, &mb).unwrap();
        assert_eq!(
            st.set_option_note(0, 1, &mb),
            Err(AnswerError::TooManyNotes {
                question: 0,
                weight: 2 * 15_627
            })
        );
        st.set_note(0, &"y".repeat(100_000)).unwrap();
        st.set_note(0, &"y".repeat(200_000)).unwrap();
        assert_eq!(
            st.set_note(0, &"y".repeat(300_000)),
            Err(AnswerError::TooManyNotes {
                question: 0,
                weight: 2 * 10_159
            })
        );
        assert_eq!(st.note(0).map(str::len), Some(200_000));
        // Shorter always works, and so does clearing.
        st.set_option_note(0, 0, "short").unwrap();
        st.set_option_note(0, 1, &mb).unwrap_err();
        st.set_note(0, "").unwrap();
        st.set_option_note(0, 1, &mb).unwrap();
    }

    #[test]
    fn answers_follow_question_order() {
        let p = payload();
        let mut st = AnswerState::new(&p);
        st.select(2, 0).unwrap();
        st.select(0, 0).unwrap();
        let keys: Vec<_> = st.answers(&p).keys().cloned().collect();
        assert_eq!(keys, vec!["s", "p"]);
    }
}

//! The transcript's lines (inline): which questions were left, each question's collapsed line
//! (made after the first frame, again when its answer changes or the width does), the
//! transcript above the block now and at the end, and what a signal or a panic leaves (kept
//! current for the signal thread).

use super::region::{self, Entry, Line, Region, Transcript};
use super::term_width;
use crate::flow::{Flow, Place, Screen};
use crate::result::Ending;
use crate::text::one_line;
use crate::ui::view::{self, Look};
use std::sync::{Arc, Mutex};

/// What a signal or a panic needs to leave the final transcript (it runs on another thread).
#[derive(Debug, Default)]
struct Farewell {
    /// Whether the region is inline and has drawn.
    active: bool,
    title: Option<Line>,
    questions: Vec<Line>,
    /// The questions' lines as an ending that sent nothing leaves them ([`Look::not_sent`]).
    not_sent: Vec<Line>,
    given_up: Transcript,
    at: usize,
    width: usize,
    colour: bool,
}

/// The questions' transcript lines.
#[derive(Debug)]
pub(super) struct Record {
    /// Which questions were left at least once: they have a line above the block.
    left: Vec<bool>,
    /// Each question's line (empty until the first frame is drawn).
    lines: Vec<Line>,
    /// Each question's line at an ending that sent nothing (its answer marked not sent).
    not_sent: Vec<Line>,
    /// The look without colour a line's `key` is written in (made once, with the first line).
    plain: Option<Look>,
    farewell: Arc<Mutex<Farewell>>,
    /// Who answered from elsewhere (the answer channel), named by the ending's line.
    elsewhere: Option<String>,
}

impl Record {
    /// The record of `questions` questions.
    pub fn new(questions: usize) -> Self {
        Record {
            left: vec![false; questions],
            lines: Vec::new(),
            not_sent: Vec::new(),
            plain: None,
            farewell: Arc::new(Mutex::new(Farewell::default())),
            elsewhere: None,
        }
    }

    /// The questions were answered from elsewhere, by `from`: the ending's line says so.
    pub fn answered_from(&mut self, from: String) {
        self.elsewhere = Some(from);
    }

    /// Question `q` was left: it has a line above the block from now on.
    pub fn left(&mut self, q: usize) {
        if let Some(l) = self.left.get_mut(q) {
            *l = true;
        }
    }

    /// Whether the questions' lines are made (after the first frame).
    pub fn ready(&self) -> bool {
        !self.lines.is_empty() || self.left.is_empty()
    }

    /// The transcript above the block now: the title, then the line of every question left
    /// so far that comes before the current one (all of them at the review); at the end
    /// (`ending`), every question and how it ended. `cols`: the terminal's width. Entries
    /// `given_up` says the region gave up are left out (it never writes them again), so a key
    /// does not copy every line of a long questionnaire.
    pub fn transcript(
        &self,
        flow: &Flow<'_>,
        look: &Look,
        cols: usize,
        ending: Option<&Ending>,
        given_up: &dyn Fn(Entry) -> bool,
    ) -> Transcript {
        let payload = flow.payload();
        let width = term_width(cols.max(1));
        let mut lines = Vec::new();
        if let Some(title) = payload.title.as_ref().filter(|_| !given_up(Entry::Title)) {
            let title = one_line(title);
            lines.push(Line {
                entry: Entry::Title,
                text: look.heading(&title, width),
                key: title.into_owned(),
            });
        }
        let before = match (ending, flow.screen()) {
            (Some(_), _) => payload.questions.len(),
            (
                None,
                Screen::Question(q)
                | Screen::ConfirmCancel {
                    from: Place::Question(q),
                },
            ) => q,
            _ => payload.questions.len(),
        };
        for q in 0..before.min(self.lines.len()) {
            if let Some(Ending::Elaborated(answers)) = ending {
                if answers.has_notes(q) {
                    lines.extend(Record::asked(flow, answers, look, width, q));
                    continue;
                }
            }
            if (self.left[q] || ending.is_some()) && !given_up(Entry::Question(q)) {
                let unsent = ending.is_some_and(|e| !view::answers_sent(e));
                let line = match self.not_sent.get(q) {
                    Some(line) if unsent => line,
                    _ => &self.lines[q],
                };
                lines.push(line.clone());
            }
        }
        if let Some(ending) = ending {
            let from = self.elsewhere.as_deref();
            let (_, words) = view::ending_words_from(ending, from);
            lines.push(Line {
                entry: Entry::End,
                text: look.ending_from(ending, from, width),
                key: words,
            });
        }
        lines
    }

    /// At an elaborate ending, question `q`'s lines: one per note it asked
    /// ([`view::asked_lines`], `? Database · asked about Postgres: …`) in place of its answer,
    /// which the agent asks again.
    fn asked(
        flow: &Flow<'_>,
        answers: &crate::answers::AnswerState,
        look: &Look,
        width: usize,
        q: usize,
    ) -> Vec<Line> {
        let payload = flow.payload();
        let name = view::transcript_name(&payload.questions[q]);
        let plain = Look::with_charset(false, look.charset());
        view::asked_lines(payload, answers, q)
            .into_iter()
            .enumerate()
            .map(|(i, words)| Line {
                entry: match i {
                    0 => Entry::Question(q),
                    i => Entry::Asked(q, i),
                },
                text: look.asked(&name, &words, width),
                key: plain.asked(&name, &words, usize::MAX / 4),
            })
            .collect()
    }

    /// Question `q`'s line, as drawn at `cols` in `look` and as it says whatever the width
    /// (in `plain`: `look` without colour); `sent`: whether its answer went to the caller.
    /// The key is the sent line's either way: the words are the same.
    fn line_of(
        flow: &Flow<'_>,
        look: &Look,
        plain: &Look,
        cols: usize,
        q: usize,
        sent: bool,
    ) -> Line {
        let (payload, answers) = (flow.payload(), flow.answers());
        Line {
            entry: Entry::Question(q),
            text: view::transcript_line(look, payload, answers, q, term_width(cols.max(1)), sent),
            key: view::transcript_line(plain, payload, answers, q, usize::MAX / 4, true),
        }
    }

    /// Every question's line again (the first frame, a resize, the end).
    pub fn update_all(&mut self, flow: &Flow<'_>, look: &Look, cols: usize) {
        let plain = (self.plain).get_or_insert_with(|| Look::with_charset(false, look.charset()));
        let n = flow.payload().questions.len();
        self.lines = (0..n)
            .map(|q| Record::line_of(flow, look, plain, cols, q, true))
            .collect();
        self.not_sent = (0..n)
            .map(|q| Record::line_of(flow, look, plain, cols, q, false))
            .collect();
        let mut f = self.farewell.lock().unwrap_or_else(|e| e.into_inner());
        f.questions = self.lines.clone();
        f.not_sent = self.not_sent.clone();
    }

    /// Question `q`'s line again, after a command that may have changed its answer.
    pub fn update(&mut self, flow: &Flow<'_>, look: &Look, cols: usize, q: usize) {
        if self.lines.is_empty() {
            return;
        }
        let plain = (self.plain).get_or_insert_with(|| Look::with_charset(false, look.charset()));
        let line = Record::line_of(flow, look, plain, cols, q, true);
        if self.lines[q] != line {
            self.lines[q] = line.clone();
            let not_sent = Record::line_of(flow, look, plain, cols, q, false);
            self.not_sent[q] = not_sent.clone();
            let mut f = self.farewell.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(l) = f.questions.get_mut(q) {
                *l = line;
            }
            if let Some(l) = f.not_sent.get_mut(q) {
                *l = not_sent;
            }
        }
    }

    /// Sets what a signal or a panic leaves ([`crate::terminal::set_farewell`]): the final
    /// transcript in place of the region, from what [`Record::keep`] keeps current; with
    /// `leave_nothing`, the region erased and the cursor at its top (`--no-transcript`).
    pub fn set_farewell(&self, title: Option<Line>, colour: bool, leave_nothing: bool) {
        {
            let mut f = self.farewell.lock().unwrap_or_else(|e| e.into_inner());
            f.active = true;
            f.colour = colour;
            f.title = title;
        }
        let shared = Arc::clone(&self.farewell);
        crate::terminal::set_farewell(Some(Box::new(move |departure| {
            let f = shared.lock().unwrap_or_else(|e| e.into_inner());
            if !f.active {
                return String::new();
            }
            if leave_nothing {
                return region::finish_bytes(f.at, &[]);
            }
            let ending = match departure {
                crate::terminal::Departure::Signal(signal_hook::consts::SIGINT) => {
                    Ending::Interrupted
                }
                crate::terminal::Departure::Signal(signal) => Ending::Aborted { signal },
                crate::terminal::Departure::Panic => Ending::Internal("a panic".into()),
            };
            let mut lines: Transcript = f.title.iter().cloned().collect();
            // A signal's ending sent nothing: the answers are marked so.
            lines.extend(f.not_sent.iter().cloned());
            let (_, words) = view::ending_words(&ending);
            lines.push(Line {
                entry: Entry::End,
                text: Look::new(f.colour).ending(&ending, f.width),
                key: words,
            });
            region::finish_bytes(f.at, &Region::final_lines(&f.given_up, &lines))
        })));
    }

    /// Keeps what a signal leaves current: where the region's cursor is, what it gave up.
    pub fn keep(&self, region: &Region, cols: usize) {
        let mut f = self.farewell.lock().unwrap_or_else(|e| e.into_inner());
        f.at = region.at();
        f.width = term_width(cols.max(1));
        let given = region.given_up();
        if f.given_up.len() != given.len() {
            f.given_up = given.clone();
        }
    }

    /// The run ends through the front end: nothing for a signal to leave any more.
    pub fn stop(&self) {
        if let Ok(mut f) = self.farewell.lock() {
            f.active = false;
        }
    }
}

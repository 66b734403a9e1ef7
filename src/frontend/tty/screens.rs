//! The screens the loop shows: each question's component, the review, the confirmation the
//! flow asks, and the overlays open over them; which is on top, what it draws, which key map
//! applies, and the action a key asks of the screen.

use super::layers::{Cx, Outcome, Overlay};
use super::overlay::{Confirm, Target};
use super::question::{Mode, QuestionPrompt};
use super::region::Block;
use super::review::Review;
use crate::flow::{Flow, Screen};
use crate::ui::keymap::{self, Action};
use crate::ui::question::Row;
use crate::ui::view::Look;

/// The components and the overlays over them.
#[derive(Debug)]
pub(super) struct Screens {
    /// Each question's component (its highlight, page and filter).
    questions: Vec<QuestionPrompt>,
    review: Review,
    /// The confirmation shown, when the flow asks one.
    confirm: Option<Confirm>,
    /// Editors and pagers open over the screen.
    pub overlays: Vec<Overlay>,
    /// The flow's screen the components were set up for.
    shown: Option<Screen>,
    /// Global keys the hint lines leave out ([`keymap::quiet_globals`]).
    pub quiet: &'static [Action],
    /// An editor's cursor is drawn as a reverse-video cell too: the region cannot put the
    /// terminal's own cursor there ([`super::region::Region::shows_cursor`]).
    pub cell_cursor: bool,
}

/// A [`Cx`] for `width` x `height`.
pub(super) fn cx<'a, 'p>(
    flow: &'a Flow<'p>,
    look: &'a Look,
    width: usize,
    height: usize,
    status: Option<&'a str>,
) -> Cx<'a, 'p> {
    Cx {
        flow,
        look,
        width,
        height,
        status,
        quiet: &[],
        typed_ahead: false,
    }
}

impl Screens {
    /// The screens of `questions` questions.
    pub fn new(questions: usize) -> Self {
        Screens {
            questions: (0..questions).map(QuestionPrompt::new).collect(),
            review: Review::default(),
            confirm: None,
            overlays: Vec::new(),
            shown: None,
            quiet: &[],
            cell_cursor: false,
        }
    }

    /// Whether an editor is on top.
    pub fn editing(&self) -> bool {
        matches!(self.overlays.last(), Some(Overlay::Editor(_)))
    }

    /// An option note of question `q` changed.
    pub fn notes_changed(&self, q: usize) {
        if let Some(question) = self.questions.get(q) {
            question.notes_changed();
        }
    }

    /// Sets question `q`'s filter (`None`: every option).
    pub fn set_filter(&mut self, flow: &Flow<'_>, look: &Look, q: usize, filter: Option<String>) {
        self.questions[q].set_filter(&cx(flow, look, 80, 24, None), filter);
    }

    /// Sets the components up for the flow's screen when it changed: overlays close, the new
    /// screen is entered; returns the question left, if one was.
    pub fn sync(&mut self, flow: &Flow<'_>, look: &Look) -> Option<usize> {
        let screen = flow.screen();
        if self.shown == Some(screen) {
            return None;
        }
        let left = match self.shown {
            Some(Screen::Question(q)) => Some(q),
            _ => None,
        };
        let before = self.shown.replace(screen);
        self.overlays.clear();
        self.confirm = None;
        match screen {
            Screen::Question(q) => {
                let cx = cx(flow, look, 80, 24, None);
                self.questions[q].enter(&cx);
            }
            // Back from a confirmation asked over the review: its highlight stays.
            Screen::Review
                if matches!(
                    before,
                    Some(Screen::ConfirmSubmit | Screen::ConfirmCancel { .. })
                ) => {}
            Screen::Review => self.review.enter(),
            Screen::ConfirmCancel { .. } | Screen::ConfirmSubmit => {
                self.confirm = crate::ui::review::confirmation(flow)
                    .map(|(words, detail)| Confirm::new(words, detail));
            }
        }
        left
    }

    /// A text-only question (docs/dialects.md) opens its editor as it is entered, once.
    pub fn auto_open(&mut self, flow: &Flow<'_>, look: &Look) -> Option<Outcome> {
        let Screen::Question(q) = flow.screen() else {
            return None;
        };
        if !self.overlays.is_empty() {
            return None;
        }
        self.questions[q].auto_open(&cx(flow, look, 80, 24, None))
    }

    /// The block the top component draws now.
    pub fn render(
        &self,
        flow: &Flow<'_>,
        look: &Look,
        width: usize,
        height: usize,
        status: Option<&str>,
    ) -> Block {
        let cx = Cx {
            quiet: self.quiet,
            ..cx(flow, look, width, height, status)
        };
        match self.overlays.last() {
            Some(Overlay::Pager(p)) => Block {
                lines: p.render(&cx),
                ..Block::default()
            },
            Some(Overlay::Editor(e)) => {
                // The hint line, the screen under the editor, the editor's rows at the bottom.
                let editor_rows = e.rows(height, width);
                let mut lines = vec![e.hint(&cx)];
                let under = Cx {
                    height: height.saturating_sub(1 + editor_rows).max(1),
                    status: None,
                    ..cx
                };
                let at_review = flow.screen() == Screen::Review;
                lines.extend(match e.target {
                    Target::CustomText(q) => {
                        self.questions[q].render(&under, Mode::Editing(Row::TypeOwn))
                    }
                    Target::OptionNote(q, o) => {
                        self.questions[q].render(&under, Mode::Editing(Row::Option(o)))
                    }
                    Target::Note(_) if at_review => Vec::new(),
                    Target::Note(q) => self.questions[q].render(&under, Mode::Prompt),
                    Target::Filter(q) => self.questions[q].render(&under, Mode::Filtering),
                });
                let room = height.saturating_sub(lines.len()).max(1);
                let (rows, (row, col)) =
                    e.render(look, width, room.min(editor_rows), self.cell_cursor);
                let cursor = Some((lines.len() + row, col));
                lines.extend(rows);
                Block {
                    lines,
                    editor: false,
                    cursor,
                }
            }
            None => Block {
                lines: match flow.screen() {
                    Screen::Question(q) => self.questions[q].render(&cx, Mode::Menu),
                    Screen::Review => self.review.render(&cx),
                    Screen::ConfirmCancel { .. } | Screen::ConfirmSubmit => self
                        .confirm
                        .as_ref()
                        .map(|c| c.render(&cx))
                        .unwrap_or_default(),
                },
                ..Block::default()
            },
        }
    }

    /// The key map of what is shown.
    pub fn keymap(&self, flow: &Flow<'_>) -> &'static [keymap::Binding] {
        match (self.overlays.last(), flow.screen()) {
            (Some(_), _) => keymap::PAGER,
            (None, Screen::Question(q)) => {
                crate::ui::question::keymap(&flow.payload().questions[q])
            }
            (None, Screen::Review) => keymap::REVIEW,
            (None, _) => keymap::CONFIRM,
        }
    }

    /// What `action` does on the screen (not an overlay); `typed_ahead`: its key came in a
    /// burst with more ([`Cx::typed_ahead`]).
    pub fn screen_action(
        &mut self,
        flow: &Flow<'_>,
        look: &Look,
        action: Action,
        (width, height): (usize, usize),
        typed_ahead: bool,
    ) -> Outcome {
        let cx = Cx {
            typed_ahead,
            ..cx(flow, look, width, height, None)
        };
        match flow.screen() {
            Screen::Question(q) => self.questions[q].on(action, &cx),
            Screen::Review => self.review.on(action, &cx),
            Screen::ConfirmCancel { .. } | Screen::ConfirmSubmit => match &mut self.confirm {
                Some(c) => c.on(action),
                None => Outcome::Stay,
            },
        }
    }
}

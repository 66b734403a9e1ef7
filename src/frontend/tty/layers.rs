//! What the components of the terminal front end share: what they are given to draw and act
//! ([`Cx`]), what an action asks of the loop ([`Outcome`]), and the overlays that open over a
//! screen ([`Overlay`]: an editor, a pager). Each component has its own state, `on(action)
//! -> Outcome` and `render(cx) -> lines` (the shape of inquire's and cliclack's prompts); the
//! loop in `mod.rs` owns the event stream and applies the outcomes.

use super::overlay::{Editor, Pager};
use crate::flow::{Command, Flow};
use crate::ui::keymap::Action;
use crate::ui::view::Look;

/// What a component draws with and for.
pub(super) struct Cx<'a, 'p> {
    /// The flow: the payload, the answers, the screen.
    pub flow: &'a Flow<'p>,
    /// The look of the lines.
    pub look: &'a Look,
    /// Columns a line may use.
    pub width: usize,
    /// Rows the block may take.
    pub height: usize,
    /// A line that takes the hint line's place (the `--timeout` countdown).
    pub status: Option<&'a str>,
    /// Global keys the hint lines leave out ([`crate::ui::keymap::quiet_globals`]).
    pub quiet: &'a [crate::ui::keymap::Action],
    /// More input was there already when the key acted on was read: it came in a burst with
    /// the next (type-ahead, a paste's keys), not pressed on its own.
    pub typed_ahead: bool,
}

/// What an action asks of the loop.
#[derive(Debug)]
pub(super) enum Outcome {
    /// Nothing more: draw again.
    Stay,
    /// Apply a command to the flow.
    Apply(Command),
    /// Open an overlay over the screen.
    Open(Overlay),
    /// Close the top overlay; then apply `apply`, then act on `then` on what is under it (a
    /// key that left an empty editor: the contract's "Editing flow").
    Close {
        /// A command to apply once closed.
        apply: Option<Command>,
        /// An action for the screen under it.
        then: Option<Action>,
    },
    /// Close the editor of question `q`'s filter, which is now `filter`.
    Filter(usize, Option<String>),
}

impl Outcome {
    /// Close the top overlay, nothing else.
    pub fn close() -> Outcome {
        Outcome::Close {
            apply: None,
            then: None,
        }
    }
}

/// An overlay over a screen.
#[derive(Debug)]
pub(super) enum Overlay {
    /// A line editor (custom text, a note, the filter).
    Editor(Editor),
    /// A pager (a preview, a whole text, the key list, the agent's message).
    Pager(Pager),
}

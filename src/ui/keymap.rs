//! The keys of every screen as data: which key does what ([`Action`]), on which screen, and
//! how the hint line and the full key list (`?`) name it. A front end looks a key up here
//! ([`action`]) and never matches keys of its own; the hint line is generated from the same
//! table ([`hint_line`]), so it always tells the truth. The keyboard is the contract's
//! ("Keyboard behavior") as its upstream tests have it (eko24ive/pi-ask v0.3.0
//! `tests/state.test.ts`, `tests/input.test.ts`).

use crate::keys::Key;
use crate::text::width_of;
use crate::ui::words::keys as K;

/// What a key asks for on a screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// The highlight up one row (wraps).
    Up,
    /// The highlight down one row (wraps).
    Down,
    /// ↑ out of an empty editor: the highlight up one row, staying on the first (the
    /// source's `moveOption`, upstream `tests/input.test.ts`); bound to no key.
    StepUp,
    /// ↓ out of an empty editor: the highlight down one row, staying on the last.
    StepDown,
    /// A page up.
    PageUp,
    /// A page down.
    PageDown,
    /// The first row.
    First,
    /// The last row.
    Last,
    /// A digit 1-9, or at a question the number its digits make (`1` `2`: 12; a number that
    /// may go on waits for Enter or a digit more, the terminal front end's
    /// `Session::number_typed`): the row with that number, whatever page is shown, when a
    /// filter does not hide it (a question's options, then its Type your own row; the
    /// review's actions).
    Number(usize),
    /// Space: tick or untick the highlighted option, staying on the question (single-select
    /// too: a second Space deselects).
    Toggle,
    /// Enter: choose or run the highlighted row.
    Confirm,
    /// `a`: tick all the options shown, or none (multi-select).
    ToggleAll,
    /// `i`: tick the options shown that are not ticked and untick the others (multi-select,
    /// inquirer's `i`).
    Invert,
    /// A printable character no key of the screen has, on a screen that filters (`/`): the
    /// filter opens with it typed, as in fzf, so a word typed at a list narrows it and never
    /// acts key by key; bound to no key ([`action`] gives it).
    Type(char),
    /// The editor typed text goes into at a question's list (a paste): a secret question's
    /// masked Type your own editor (never the filter, drawn in clear), else the filter's;
    /// bound to no key.
    TypeOwn,
    /// `n`: the highlighted option's note.
    OptionNote,
    /// `N` (Shift+N): the question's note.
    QuestionNote,
    /// Tab, →: the next question; the review after the last; the first after the review.
    NextQuestion,
    /// Shift+Tab, ←: the previous question; the review before the first.
    PrevQuestion,
    /// `/`: filter the options.
    Filter,
    /// `v`: the highlighted option's whole text or preview.
    View,
    /// `?`: every key of the screen.
    Keys,
    /// Esc, `q`: cancel (asking first when answers would be lost); in a pager or a
    /// confirmation, back.
    Cancel,
    /// `y`: yes at a confirmation.
    Yes,
    /// `n`: no at a confirmation.
    No,
    /// Ctrl+C: dismiss at once, everywhere.
    Dismiss,
    /// Ctrl+Z: suspend like a shell job.
    Suspend,
    /// Ctrl+]: peek at the agent's message (`--context`).
    Peek,
}

/// One line of a key map: the keys, what they do, and how they are named.
#[derive(Debug, Clone, Copy)]
pub struct Binding {
    /// The keys.
    pub keys: &'static [Key],
    /// What they do.
    pub action: Action,
    /// The keys as the hint line and the key list name them (`↑↓`, `Enter`).
    pub name: &'static str,
    /// What they do, in the hint line's words (`move`); empty: not in the hint line.
    pub hint: &'static str,
    /// What they do, in the key list's words.
    pub describe: &'static str,
}

const DIGITS: [Key; 9] = [
    Key::Char('1'),
    Key::Char('2'),
    Key::Char('3'),
    Key::Char('4'),
    Key::Char('5'),
    Key::Char('6'),
    Key::Char('7'),
    Key::Char('8'),
    Key::Char('9'),
];

macro_rules! bind {
    ($keys:expr, $action:expr, $name:expr, $hint:expr, $describe:expr) => {
        Binding {
            keys: $keys,
            action: $action,
            name: $name,
            hint: $hint,
            describe: $describe,
        }
    };
}

/// Keys that do the same on every screen; looked up after the screen's own.
pub static GLOBAL: &[Binding] = &[
    bind!(
        &[Key::Ctrl('c')],
        Action::Dismiss,
        "^C",
        "dismiss",
        K::DISMISS
    ),
    bind!(&[Key::Ctrl(']')], Action::Peek, "^]", "context", K::PEEK),
    bind!(&[Key::Ctrl('z')], Action::Suspend, "^Z", "", K::SUSPEND),
];

const MOVES: [Binding; 6] = [
    bind!(
        &[Key::Up, Key::Char('k')],
        Action::Up,
        "\u{2191}\u{2193}",
        "move",
        K::UP
    ),
    bind!(
        &[Key::Down, Key::Char('j')],
        Action::Down,
        "\u{2193}",
        "",
        K::DOWN
    ),
    bind!(&[Key::PageUp], Action::PageUp, "PgUp", "", K::PAGE_UP),
    bind!(&[Key::PageDown], Action::PageDown, "PgDn", "", K::PAGE_DOWN),
    bind!(&[Key::Home], Action::First, "Home", "", K::FIRST),
    bind!(&[Key::End], Action::Last, "End", "", K::LAST),
];

/// Bindings more than one question screen has, in the same words.
const QUESTION_NOTE: Binding = bind!(
    &[Key::Char('N')],
    Action::QuestionNote,
    "N",
    "",
    K::QUESTION_NOTE
);
const NEXT_QUESTION: Binding = bind!(
    &[Key::Tab, Key::Right],
    Action::NextQuestion,
    "Tab",
    "",
    K::NEXT
);
const PREV_QUESTION: Binding = bind!(
    &[Key::BackTab, Key::Left],
    Action::PrevQuestion,
    "S-Tab",
    "",
    K::PREV
);
/// Esc on a question that filters: the filter first. Not `q` at a question: a letter there
/// starts the filter (a word typed in the wrong place must not end the flow).
const CANCEL_OR_CLEAR: Binding = bind!(
    &[Key::Esc],
    Action::Cancel,
    "Esc",
    "cancel",
    K::CANCEL_OR_CLEAR
);
/// Esc at a question without options (not `q`, as [`CANCEL_OR_CLEAR`]).
const QUESTION_CANCEL: Binding = bind!(&[Key::Esc], Action::Cancel, "Esc", "cancel", K::CANCEL);
/// Esc (or `q`) at the review.
const CANCEL: Binding = bind!(
    &[Key::Esc, Key::Char('q')],
    Action::Cancel,
    "Esc",
    "cancel",
    K::CANCEL
);
const FILTER: Binding = bind!(&[Key::Char('/')], Action::Filter, "/", "", K::FILTER);
const KEYS: Binding = bind!(&[Key::Char('?')], Action::Keys, "?", "keys", K::KEYS);

/// A single-select or preview question.
pub static SINGLE: &[Binding] = &[
    MOVES[0],
    bind!(&[Key::Enter], Action::Confirm, "Enter", "choose", K::CHOOSE),
    bind!(&DIGITS, Action::Number(0), "1-9", "", "choose option 1-9"),
    bind!(&[Key::Char(' ')], Action::Toggle, "Space", "", K::SELECT),
    bind!(
        &[Key::Char('n')],
        Action::OptionNote,
        "n",
        "note",
        K::OPTION_NOTE
    ),
    QUESTION_NOTE,
    NEXT_QUESTION,
    PREV_QUESTION,
    CANCEL_OR_CLEAR,
    FILTER,
    bind!(&[Key::Char('v')], Action::View, "v", "", K::VIEW),
    KEYS,
    MOVES[1],
    MOVES[2],
    MOVES[3],
    MOVES[4],
    MOVES[5],
];

/// The arrows and page keys without a letter (`k`, `j`): a secret question's list, where
/// every character typed is the secret's.
const ARROWS: [Binding; 2] = [
    bind!(&[Key::Up], Action::Up, "\u{2191}\u{2193}", "move", K::UP),
    bind!(&[Key::Down], Action::Down, "\u{2193}", "", K::DOWN),
];

/// What a character typed at a secret question's list does ([`Action::TypeOwn`] via
/// [`action`]'s [`Action::Type`]); bound to no key, named in the key list.
const SECRET_TYPED: Binding = bind!(&[], Action::TypeOwn, "a-z 0-9", "", K::SECRET);

/// A secret question's list (single-select or preview): no character is a key, so a token
/// typed there (by hand, at any pace) only ever opens the masked editor; the options are
/// chosen with the arrows and Enter, notes written from the review.
pub static SECRET: &[Binding] = &[
    ARROWS[0],
    bind!(&[Key::Enter], Action::Confirm, "Enter", "choose", K::CHOOSE),
    SECRET_TYPED,
    NEXT_QUESTION,
    PREV_QUESTION,
    QUESTION_CANCEL,
    ARROWS[1],
    MOVES[2],
    MOVES[3],
    MOVES[4],
    MOVES[5],
];

/// A secret multi-select question's list, as [`SECRET`] (Space ticks).
pub static SECRET_MULTI: &[Binding] = &[
    ARROWS[0],
    bind!(&[Key::Char(' ')], Action::Toggle, "Space", "tick", K::TICK),
    bind!(&[Key::Enter], Action::Confirm, "Enter", "done", K::DONE),
    SECRET_TYPED,
    NEXT_QUESTION,
    PREV_QUESTION,
    QUESTION_CANCEL,
    ARROWS[1],
    MOVES[2],
    MOVES[3],
    MOVES[4],
    MOVES[5],
];

/// A question without options (its answer is free text, docs/dialects.md).
pub static TEXT: &[Binding] = &[
    bind!(&[Key::Enter], Action::Confirm, "Enter", "answer", K::WRITE),
    bind!(&DIGITS, Action::Number(0), "1", "", K::WRITE),
    bind!(
        &[Key::Char('N')],
        Action::QuestionNote,
        "N",
        "note",
        K::QUESTION_NOTE
    ),
    NEXT_QUESTION,
    PREV_QUESTION,
    QUESTION_CANCEL,
    KEYS,
];

/// Enter's hint on a multi-select question's Type your own row, where it opens the editor
/// ([`crate::ui::question::hint_map`]).
pub const MULTI_ENTER_ON_TYPE_YOUR_OWN: &str = "edit";

/// What the hint line says Esc does under a filter: it clears the filter (a second Esc
/// cancels).
pub const ESC_CLEARS_FILTER: &str = "clear filter";

/// A multi-select question.
pub static MULTI: &[Binding] = &[
    MOVES[0],
    bind!(&[Key::Char(' ')], Action::Toggle, "Space", "tick", K::TICK),
    bind!(&[Key::Enter], Action::Confirm, "Enter", "done", K::DONE),
    bind!(&DIGITS, Action::Number(0), "1-9", "", "tick option 1-9"),
    bind!(
        &[Key::Char('n')],
        Action::OptionNote,
        "n",
        "note",
        K::OPTION_NOTE
    ),
    QUESTION_NOTE,
    bind!(&[Key::Char('a')], Action::ToggleAll, "a", "", K::ALL),
    bind!(&[Key::Char('i')], Action::Invert, "i", "", K::INVERT),
    NEXT_QUESTION,
    PREV_QUESTION,
    CANCEL_OR_CLEAR,
    FILTER,
    bind!(&[Key::Char('v')], Action::View, "v", "", K::VIEW_MULTI),
    KEYS,
    MOVES[1],
    MOVES[2],
    MOVES[3],
    MOVES[4],
    MOVES[5],
];

/// The review.
pub static REVIEW: &[Binding] = &[
    MOVES[0],
    bind!(&[Key::Enter], Action::Confirm, "Enter", "choose", K::RUN),
    bind!(&[Key::Char('v')], Action::View, "v", "", K::VIEW_REVIEW),
    bind!(&DIGITS, Action::Number(0), "1-3", "", K::ACTION_DIGITS),
    bind!(
        &[Key::Char('N')],
        Action::QuestionNote,
        "N",
        "",
        K::REVIEW_NOTE
    ),
    bind!(
        &[Key::BackTab, Key::Left],
        Action::PrevQuestion,
        "\u{2190}",
        "back",
        K::LAST_QUESTION
    ),
    bind!(
        &[Key::Tab, Key::Right],
        Action::NextQuestion,
        "Tab",
        "",
        K::FIRST_QUESTION
    ),
    CANCEL,
    KEYS,
    MOVES[1],
    MOVES[4],
    MOVES[5],
];

/// A yes / no confirmation.
pub static CONFIRM: &[Binding] = &[
    MOVES[0],
    bind!(
        &[Key::Enter],
        Action::Confirm,
        "Enter",
        "choose",
        K::CONFIRM
    ),
    bind!(&[Key::Char('y')], Action::Yes, "y/n", "", K::YES),
    bind!(&[Key::Char('n')], Action::No, "n", "", K::NO),
    bind!(
        &[Key::Esc, Key::Char('q')],
        Action::Cancel,
        "Esc",
        "back",
        K::NO_BACK
    ),
    MOVES[1],
];

/// A pager (a preview, a whole text, the agent's message, the key list).
pub static PAGER: &[Binding] = &[
    bind!(
        &[Key::Up, Key::Char('k')],
        Action::Up,
        "\u{2191}\u{2193}",
        "scroll",
        K::SCROLL_UP
    ),
    bind!(
        &[Key::Down, Key::Char('j'), Key::Char(' ')],
        Action::Down,
        "\u{2193}",
        "",
        K::SCROLL_DOWN
    ),
    MOVES[2],
    MOVES[3],
    MOVES[4],
    MOVES[5],
    bind!(
        &[Key::Esc, Key::Char('q'), Key::Enter, Key::Ctrl(']')],
        Action::Cancel,
        "Esc",
        "back",
        K::BACK
    ),
];

/// What `key` does on the screen whose map is `map` (then [`GLOBAL`]); `None`: nothing.
/// A digit's [`Action::Number`] carries its number (1-9). A printable character no binding
/// has is [`Action::Type`] on a screen that filters, nothing elsewhere. Ctrl or Alt with ←/→
/// (a word move in an editor) is the plain arrow here.
pub fn action(map: &[Binding], key: &Key) -> Option<Action> {
    let key = match key {
        Key::CtrlLeft | Key::AltLeft => &Key::Left,
        Key::CtrlRight | Key::AltRight => &Key::Right,
        key => key,
    };
    let bound = map
        .iter()
        .chain(GLOBAL)
        .find(|b| b.keys.contains(key))
        .map(|b| match (b.action, key) {
            (Action::Number(_), Key::Char(d)) => Action::Number(*d as usize - '0' as usize),
            (action, _) => action,
        });
    let types = |b: &Binding| matches!(b.action, Action::Filter | Action::TypeOwn);
    bound.or_else(|| match key {
        Key::Char(c) if !c.is_control() && map.iter().any(types) => Some(Action::Type(*c)),
        _ => None,
    })
}

/// Whether `key` is a letter with a key's action on a screen that filters (`a`, `i`, `j`,
/// `k`, `n`, `N`, `v` at a list): read with more input right behind it (a word typed fast,
/// its keys in one burst), it may be the first letter of a word, so it waits for the next
/// key ([`begins_a_word`]) before it acts.
pub fn may_begin_a_word(map: &[Binding], key: &Key) -> bool {
    match (key, action(map, key)) {
        (Key::Char(c), Some(a)) => {
            c.is_alphabetic()
                && !matches!(a, Action::Type(_))
                && map.iter().any(|b| b.action == Action::Filter)
        }
        _ => false,
    }
}

/// Whether the key bound letter `held` ([`may_begin_a_word`]) and the key `next` right
/// behind it in the same burst are a word's letters: `next` a letter or digit other than
/// `held` (a key held down repeats: `jjj` still moves). A word's letters go to the filter,
/// as in fzf (`angular` filters, its `a` never ticks all nor its `n` opens a note); else
/// `held` acts as its key, then `next` does.
pub fn begins_a_word(held: char, next: &Key) -> bool {
    matches!(next, Key::Char(c) if c.is_alphanumeric() && *c != held)
}

/// The hint line of a screen, within `width` columns: `prefix` words first (a screen's own,
/// such as "Press 1 again to submit"), then each binding with a hint in the map's order while
/// it fits, leaving out the global keys in `quiet` ([`quiet_globals`]), then `? keys` when the
/// map has it; `suffix` (a page counter) last.
pub fn hint_line(
    map: &[Binding],
    prefix: &[&str],
    suffix: &str,
    width: usize,
    quiet: &[Action],
) -> String {
    const SEP: &str = " \u{b7} ";
    // A part's columns: its words and the separator before the next (`name hint · `).
    let part_width = |b: &Binding| width_of(b.name) + 1 + width_of(b.hint) + 3;
    let keys = map.iter().find(|b| b.action == Action::Keys);
    let reserve = keys.map_or(0, part_width) + width_of(suffix);
    let mut used: usize = prefix.iter().map(|p| width_of(p) + 3).sum();
    // A global key the screen binds itself (Ctrl+] closes the pager) is the screen's.
    let own = |b: &Binding| {
        map.iter()
            .any(|m| m.keys.iter().any(|k| b.keys.contains(k)))
    };
    let global = GLOBAL
        .iter()
        .filter(|b| !own(b) && !quiet.contains(&b.action));
    let mut shown: Vec<&Binding> = Vec::new();
    for b in map.iter().chain(global) {
        if b.hint.is_empty() || b.action == Action::Keys {
            continue;
        }
        let w = part_width(b);
        if used + w + reserve > width + 3 {
            break;
        }
        used += w;
        shown.push(b);
    }
    shown.extend(keys);
    let mut line = String::with_capacity(used + reserve + 8);
    let parts = prefix
        .iter()
        .map(|p| (*p, ""))
        .chain(shown.iter().map(|b| (b.name, b.hint)));
    for (i, (name, hint)) in parts.enumerate() {
        if i > 0 {
            line.push_str(SEP);
        }
        line.push_str(name);
        if !hint.is_empty() {
            line.push(' ');
            line.push_str(hint);
        }
    }
    if !suffix.is_empty() {
        line.push(' ');
        line.push_str(suffix);
    }
    crate::text::fit(&line, width)
}

/// The global keys a hint line leaves out because they would show nothing of use: Ctrl+] inline
/// without `--context` (the agent's message is above the questions, and the peek only says so).
/// They still work and stay in the key list (`?`).
pub fn quiet_globals(context_given: bool, inline: bool) -> &'static [Action] {
    if !context_given && inline {
        &[Action::Peek]
    } else {
        &[]
    }
}

/// Where a key's line goes in the key list: the order a person reads a screen's keys in
/// (move, choose, write, go elsewhere, leave).
fn group(action: Action) -> u8 {
    use Action::*;
    match action {
        Up | Down | StepUp | StepDown | PageUp | PageDown | First | Last => 0,
        Confirm | Number(_) | Toggle | ToggleAll | Invert | Yes | No => 1,
        OptionNote | QuestionNote | Filter | Type(_) | TypeOwn => 2,
        NextQuestion | PrevQuestion | View | Keys | Peek => 3,
        Cancel | Dismiss | Suspend => 4,
    }
}

/// A key as the key list names it (`↑`, `k`, `Tab`, `S-Tab`, `^C`, `Space`).
fn key_name(key: &Key) -> String {
    match key {
        Key::Char(' ') => "Space".into(),
        Key::Char(c) => c.to_string(),
        Key::Ctrl(c) => format!("^{}", c.to_ascii_uppercase()),
        Key::Alt(c) => format!("M-{c}"),
        Key::Enter => "Enter".into(),
        Key::Tab => "Tab".into(),
        Key::BackTab => "S-Tab".into(),
        Key::Esc => "Esc".into(),
        Key::Up => "\u{2191}".into(),
        Key::Down => "\u{2193}".into(),
        Key::Left => "\u{2190}".into(),
        Key::Right => "\u{2192}".into(),
        Key::Home => "Home".into(),
        Key::End => "End".into(),
        Key::PageUp => "PgUp".into(),
        Key::PageDown => "PgDn".into(),
        other => format!("{other:?}"),
    }
}

/// A binding's keys as the key list names them: each key's name, blank-separated (`↑ k`,
/// `Esc q`); the digits as their binding's name (`1-9`), and so a binding of no key (what
/// typing does: `a-z 0-9`).
fn keys_name(b: &Binding) -> String {
    if matches!(b.action, Action::Number(_)) || b.keys.is_empty() {
        return b.name.to_string();
    }
    b.keys.iter().map(key_name).collect::<Vec<_>>().join(" ")
}

/// Every key of a screen (its map, then [`GLOBAL`]), a line each, `name  what it does`, in the
/// order a person reads them (move, choose, write, go elsewhere, leave; the map's order within
/// each). `digits`: the digits' own name and words on this screen (a question's:
/// [`crate::ui::question::key_list`]), in place of the map's.
pub fn key_list_with(map: &[Binding], digits: Option<(String, String)>) -> Vec<String> {
    let mut bindings: Vec<&Binding> = map.iter().chain(GLOBAL).collect();
    bindings.sort_by_key(|b| group(b.action));
    let entries: Vec<(String, String)> = bindings
        .into_iter()
        .map(|b| match (&digits, b.action) {
            (Some((name, words)), Action::Number(_)) => (name.clone(), words.clone()),
            (_, Action::Filter) => (keys_name(b), K::filter_or_word(&key_letters(map))),
            _ => (keys_name(b), b.describe.to_string()),
        })
        .collect();
    let w = entries.iter().map(|(k, _)| width_of(k)).max().unwrap_or(0);
    entries
        .into_iter()
        .map(|(k, d)| format!("{k}{}  {d}", " ".repeat(w - width_of(&k))))
        .collect()
}

/// The letters with a key's action on a screen, blank-separated, in the alphabet's order
/// (`a i j k n N v`): the ones a word typed slowly acts on ([`may_begin_a_word`]).
fn key_letters(map: &[Binding]) -> String {
    let mut letters: Vec<char> = map
        .iter()
        .flat_map(|b| b.keys)
        .filter_map(|k| match k {
            Key::Char(c) if c.is_alphabetic() => Some(*c),
            _ => None,
        })
        .collect();
    letters.sort_by_key(|c| (c.to_ascii_lowercase(), c.is_uppercase()));
    letters.dedup();
    letters
        .iter()
        .map(char::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// [`key_list_with`] with the map's own words for the digits.
pub fn key_list(map: &[Binding]) -> Vec<String> {
    key_list_with(map, None)
}

/// What a key asks for in a line editor ([`EDITOR`]). The editing rules themselves are
/// rustyline's `LineBuffer`'s (`crate::ui::line_editor`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditAction {
    /// The cursor one character left (in an empty editor: leave it, as at the screen under it).
    Left,
    /// The cursor one character right (in an empty editor: leave it).
    Right,
    /// The cursor one word left (Emacs words).
    WordLeft,
    /// The cursor to the end of the word (Emacs words).
    WordRight,
    /// The start of the line.
    Home,
    /// The end of the line.
    End,
    /// The line above in a text of several lines (in an empty editor: the highlight up).
    Up,
    /// The line below (in an empty editor: the highlight down).
    Down,
    /// Delete the character before the cursor.
    Backspace,
    /// Delete the character at the cursor.
    Delete,
    /// Ctrl+D: delete the character at the cursor; close an empty editor.
    DeleteOrClose,
    /// Kill to the end of the line.
    KillToEnd,
    /// Kill to the start of the line.
    KillToStart,
    /// Kill the blank-separated word before the cursor (readline's `unix-word-rubout`).
    KillBigWordBack,
    /// Kill the word before the cursor (Emacs words).
    KillWordBack,
    /// Kill to the end of the word (Emacs words).
    KillWordForward,
    /// Insert the last kill.
    Yank,
    /// Swap the characters around the cursor.
    Transpose,
    /// Undo the last change.
    Undo,
    /// Tab: complete an `@` path (in an empty editor: the next question).
    Complete,
    /// Shift+Tab: in an empty editor, the previous question.
    Back,
    /// Enter: save the text.
    Save,
    /// Esc: close, keeping the draft.
    Close,
    /// Ctrl+G: write the text in the external editor (`$VISUAL` / `$EDITOR`).
    External,
    /// Ctrl+X: the first key of Ctrl+X Ctrl+E (the external editor, readline's).
    Prefix,
    /// Ctrl+C: dismiss at once.
    Dismiss,
    /// Ctrl+Z: suspend like a shell job.
    Suspend,
    /// Ctrl+]: peek at the agent's message.
    Peek,
}

/// One line of the editors' key map: the keys, what they do, how the key list names them.
#[derive(Debug, Clone, Copy)]
pub struct EditBinding {
    /// The keys.
    pub keys: &'static [Key],
    /// What they do.
    pub action: EditAction,
    /// The keys as the key list names them.
    pub name: &'static str,
    /// What they do, in the key list's words.
    pub describe: &'static str,
}

macro_rules! edit {
    ($keys:expr, $action:expr, $name:expr, $describe:expr) => {
        EditBinding {
            keys: $keys,
            action: $action,
            name: $name,
            describe: $describe,
        }
    };
}

/// The keys of every line editor (custom text, notes, the filter): the Emacs set of readline
/// and rustyline. Every form of a key the reader decodes (legacy, kitty `CSI u`,
/// modifyOtherKeys, SS3) is the same [`Key`], so it means the same here as at a menu.
/// Printable characters and pastes are not in the map: they are typed.
pub static EDITOR: &[EditBinding] = &[
    edit!(&[Key::Enter], EditAction::Save, "Enter", "save"),
    edit!(
        &[Key::Esc],
        EditAction::Close,
        "Esc",
        "close, keeping the draft"
    ),
    edit!(
        &[Key::Left, Key::Ctrl('b')],
        EditAction::Left,
        "\u{2190} ^B",
        "back a character"
    ),
    edit!(
        &[Key::Right, Key::Ctrl('f')],
        EditAction::Right,
        "\u{2192} ^F",
        "forward a character"
    ),
    edit!(
        &[Key::Alt('b'), Key::CtrlLeft, Key::AltLeft],
        EditAction::WordLeft,
        "M-b ^\u{2190} M-\u{2190}",
        "back a word"
    ),
    edit!(
        &[Key::Alt('f'), Key::CtrlRight, Key::AltRight],
        EditAction::WordRight,
        "M-f ^\u{2192} M-\u{2192}",
        "forward a word"
    ),
    edit!(
        &[Key::Home, Key::Ctrl('a')],
        EditAction::Home,
        "Home ^A",
        "start of the line"
    ),
    edit!(
        &[Key::End, Key::Ctrl('e')],
        EditAction::End,
        "End ^E",
        "end of the line"
    ),
    edit!(
        &[Key::Up],
        EditAction::Up,
        "\u{2191}",
        "line up; empty: highlight up"
    ),
    edit!(
        &[Key::Down],
        EditAction::Down,
        "\u{2193}",
        "line down; empty: highlight down"
    ),
    edit!(
        &[Key::Backspace, Key::Ctrl('h')],
        EditAction::Backspace,
        "Bksp ^H",
        "delete back"
    ),
    edit!(&[Key::Delete], EditAction::Delete, "Del", "delete"),
    edit!(
        &[Key::Ctrl('d')],
        EditAction::DeleteOrClose,
        "^D",
        "delete; empty: close"
    ),
    edit!(
        &[Key::Ctrl('k')],
        EditAction::KillToEnd,
        "^K",
        "kill to the end of the line"
    ),
    edit!(
        &[Key::Ctrl('u')],
        EditAction::KillToStart,
        "^U",
        "kill to the start of the line"
    ),
    edit!(
        &[Key::Ctrl('w')],
        EditAction::KillBigWordBack,
        "^W",
        "kill the word before (to a blank)"
    ),
    edit!(
        &[Key::Alt('\u{7f}')],
        EditAction::KillWordBack,
        "M-Bksp",
        "kill the word before"
    ),
    edit!(
        &[Key::Alt('d')],
        EditAction::KillWordForward,
        "M-d",
        "kill the word after"
    ),
    edit!(
        &[Key::Ctrl('y')],
        EditAction::Yank,
        "^Y",
        "yank the last kill"
    ),
    edit!(
        &[Key::Ctrl('t')],
        EditAction::Transpose,
        "^T",
        "swap two characters"
    ),
    edit!(&[Key::Ctrl('_')], EditAction::Undo, "^_", "undo"),
    edit!(
        &[Key::Tab],
        EditAction::Complete,
        "Tab",
        "complete an @path; empty: next question"
    ),
    edit!(
        &[Key::BackTab],
        EditAction::Back,
        "S-Tab",
        "empty: previous question"
    ),
    edit!(
        &[Key::Ctrl('g')],
        EditAction::External,
        "^G",
        "write it in $VISUAL / $EDITOR"
    ),
    edit!(
        &[Key::Ctrl('x')],
        EditAction::Prefix,
        "^X ^E",
        "write it in $VISUAL / $EDITOR"
    ),
    edit!(
        &[Key::Ctrl('c')],
        EditAction::Dismiss,
        "^C",
        "dismiss the questions at once"
    ),
    edit!(
        &[Key::Ctrl('z')],
        EditAction::Suspend,
        "^Z",
        "suspend (fg brings it back)"
    ),
    edit!(
        &[Key::Ctrl(']')],
        EditAction::Peek,
        "^]",
        "show the agent's message"
    ),
];

/// What `key` does in a line editor ([`EDITOR`]); `None`: a key the editors do not use
/// (a printable character or a paste is typed, not looked up).
pub fn edit_action(key: &Key) -> Option<EditAction> {
    EDITOR
        .iter()
        .find(|b| b.keys.contains(key))
        .map(|b| b.action)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_carry_their_number_and_global_keys_apply_everywhere() {
        assert_eq!(action(SINGLE, &Key::Char('3')), Some(Action::Number(3)));
        assert_eq!(action(REVIEW, &Key::Char('1')), Some(Action::Number(1)));
        // The review's digits name every action (Submit, Elaborate, Cancel).
        let digits = REVIEW
            .iter()
            .find(|b| b.action == Action::Number(0))
            .unwrap();
        assert_eq!(
            digits.name,
            format!("1-{}", crate::ui::review::ACTIONS.len())
        );
        assert_eq!(action(SINGLE, &Key::Char(' ')), Some(Action::Toggle));
        assert_eq!(action(SINGLE, &Key::Char('N')), Some(Action::QuestionNote));
        assert_eq!(action(SINGLE, &Key::Char('n')), Some(Action::OptionNote));
        assert_eq!(action(CONFIRM, &Key::Char('n')), Some(Action::No));
        assert_eq!(action(PAGER, &Key::Ctrl('c')), Some(Action::Dismiss));
        assert_eq!(action(SINGLE, &Key::BackTab), Some(Action::PrevQuestion));
        // A letter no key has starts the filter where there is one; elsewhere it does nothing.
        assert_eq!(action(SINGLE, &Key::Char('x')), Some(Action::Type('x')));
        assert_eq!(action(REVIEW, &Key::Char('x')), None);
        assert_eq!(action(MULTI, &Key::Char('i')), Some(Action::Invert));
    }

    #[test]
    fn hint_lines_fit_80_columns_and_end_with_the_key_list() {
        for map in [SINGLE, MULTI, REVIEW] {
            let line = hint_line(map, &[], "", 80, &[]);
            assert!(width_of(&line) <= 80, "{line}");
            assert!(line.ends_with("? keys"), "{line}");
        }
        assert_eq!(
            hint_line(SINGLE, &[], "", 80, &[]),
            "\u{2191}\u{2193} move \u{b7} Enter choose \u{b7} n note \u{b7} Esc cancel \u{b7} ^C dismiss \u{b7} ^] context \u{b7} ? keys"
        );
        assert_eq!(
            hint_line(MULTI, &[], "", 80, &[]),
            "\u{2191}\u{2193} move \u{b7} Space tick \u{b7} Enter done \u{b7} n note \u{b7} Esc cancel \u{b7} ^C dismiss \u{b7} ? keys"
        );
        // A narrow window keeps the first hints and the key list.
        let narrow = hint_line(SINGLE, &[], "", 31, &[]);
        assert_eq!(
            narrow,
            "\u{2191}\u{2193} move \u{b7} Enter choose \u{b7} ? keys"
        );
    }

    #[test]
    fn ctrl_bracket_is_offered_only_where_it_shows_the_agents_message() {
        let inline_without_context = quiet_globals(false, true);
        assert_eq!(inline_without_context, &[Action::Peek]);
        assert_eq!(quiet_globals(true, true), &[] as &[Action]);
        assert_eq!(quiet_globals(false, false), &[] as &[Action]);
        assert_eq!(
            hint_line(SINGLE, &[], "", 80, inline_without_context),
            "\u{2191}\u{2193} move \u{b7} Enter choose \u{b7} n note \u{b7} Esc cancel \u{b7} ^C dismiss \u{b7} ? keys"
        );
        // The key list still has it: it still says where the message is.
        assert!(key_list(SINGLE).iter().any(|l| l.starts_with("^]")));
    }

    #[test]
    fn a_key_the_screen_binds_itself_is_not_offered_as_the_global_one() {
        let pager = hint_line(PAGER, &[], "", 80, &[]);
        assert_eq!(
            pager,
            "\u{2191}\u{2193} scroll \u{b7} Esc back \u{b7} ^C dismiss"
        );
    }

    #[test]
    fn the_key_list_reads_as_a_person_does_and_says_only_its_screens_keys() {
        let list = key_list(SINGLE);
        // Move, choose, write, go elsewhere, leave: ↓ right under ↑.
        assert_eq!(list[0], "\u{2191} k      move up");
        assert_eq!(list[1], "\u{2193} j      move down");
        let at = |start: &str| list.iter().position(|l| l.starts_with(start)).unwrap();
        assert!(at("Enter") < at("n ") && at("n ") < at("Tab") && at("Tab") < at("Esc "));
        // `q` at a question is a letter (it starts the filter), not a cancel key.
        assert!(list.iter().any(|l| l.starts_with("Esc      ")), "{list:?}");
        for map in [SINGLE, MULTI, TEXT] {
            assert!(key_list(map).iter().all(|l| !l.starts_with("Esc q")));
            assert_ne!(action(map, &Key::Char('q')), Some(Action::Cancel));
        }
        assert_eq!(action(SINGLE, &Key::Char('q')), Some(Action::Type('q')));
        assert!(list.last().unwrap().starts_with("^Z"), "{list:?}");
        // The review has no filter: its Esc says nothing of one.
        let review = key_list(REVIEW);
        assert!(review.iter().all(|l| !l.contains("filter")), "{review:?}");
        assert!(
            review.contains(&format!("Esc q    {}", K::CANCEL)),
            "{review:?}"
        );
    }

    #[test]
    fn the_key_list_names_the_letters_that_are_keys_and_a_word_filters() {
        let line = |map| {
            key_list(map)
                .into_iter()
                .find(|l| l.starts_with('/'))
                .unwrap()
        };
        assert_eq!(
            line(MULTI),
            "/        filter the options (or type a word; a i j k n N v alone are keys)"
        );
        assert_eq!(
            line(SINGLE),
            "/        filter the options (or type a word; j k n N v alone are keys)"
        );
        // A key's letter at a list may begin a word; a letter no key has, a digit, Space or a
        // letter on a screen without a filter never waits.
        assert!(may_begin_a_word(MULTI, &Key::Char('a')));
        assert!(may_begin_a_word(SINGLE, &Key::Char('N')));
        for key in [Key::Char('x'), Key::Char('3'), Key::Char(' '), Key::Enter] {
            assert!(!may_begin_a_word(MULTI, &key), "{key:?}");
        }
        assert!(!may_begin_a_word(REVIEW, &Key::Char('v')));
        assert!(!may_begin_a_word(SINGLE, &Key::Char('a')));
        // The next key of the burst: a word's letter or digit, not the same key repeated.
        assert!(begins_a_word('a', &Key::Char('n')));
        assert!(begins_a_word('v', &Key::Char('3')));
        assert!(!begins_a_word('j', &Key::Char('j')));
        assert!(!begins_a_word('n', &Key::Enter));
        assert!(!begins_a_word('a', &Key::Char(' ')));
    }

    #[test]
    fn the_key_list_names_every_binding() {
        let list = key_list(SINGLE);
        assert_eq!(list.len(), SINGLE.len() + GLOBAL.len());
        assert!(list
            .iter()
            .any(|l| l.starts_with("Space") && l.ends_with("select or deselect, staying here")));
    }
}

//! Keys from the terminal: a byte-wise reader, an escape-sequence decoder with an escape
//! timeout, and a raw-mode guard (docs/interactive.md). The terminal front end reads every key of its
//! screens, its line editors' too, through this module; nothing here draws.
//!
//! The layers, from the bottom:
//!
//! - [`ByteSource`]: one byte at a time, with a timeout. [`TtySource`] is the real one: it
//!   waits with `poll` (`select` on macOS, where `poll` on `/dev/tty` fails) and reads exactly
//!   one byte per `read`, so the reader never takes bytes past the key it returns and nothing
//!   is lost when another program (the external editor) takes over the same terminal. An
//!   optional wake pipe,
//!   written by a `SIGWINCH` handler, makes a window resize end the wait
//!   ([`TtySource::with_resize_wake`]). [`ScriptedSource`] is the fake one for tests and
//!   fuzzing: bytes arrive at scripted times on a [`ManualClock`], so nothing sleeps.
//! - [`Decoder`]: pure, with the time passed in. It turns bytes into [`Key`]s. An ESC waits
//!   for the rest of its sequence, at most the escape delay after the last byte that came
//!   (like vim's `ttimeoutlen`): [`escape_delay`] is 50 ms (neovim's `ttimeoutlen`), 100 ms over ssh, or
//!   `PI_ASK_ESCDELAY` milliseconds.
//! - [`KeyReader`]: a source, a [`Clock`] and a decoder; [`KeyReader::next`] returns the next
//!   [`Event`]: a key, a resize, or a timeout the caller asked for.
//! - [`RawMode`]: switches the terminal to raw mode and back to what it found;
//!   [`flush_input`] discards type-ahead.
//!
//! What the decoder accepts (see [`Decoder`] for the timeout rules):
//!
//! | Bytes | Key |
//! | --- | --- |
//! | printable ASCII, UTF-8 (split across reads too) | `Char` (invalid UTF-8: U+FFFD) |
//! | `\r`, `\n`; `ESC[13u`, `ESC[27;1;13~`, `ESC O M` | `Enter` |
//! | `\t`; `ESC[9u`; `ESC O I` | `Tab` |
//! | `ESC[Z`, `ESC[9;2u`, `ESC[27;2;9~` | `BackTab` |
//! | 0x7f, 0x08; `ESC[127u` | `Backspace` |
//! | ESC and the escape delay of silence; `ESC[27u`; `ESC[27;1;27~` | `Esc` |
//! | 0x01..=0x1a (but Tab, Enter, Backspace), 0x00, 0x1c..=0x1f; `ESC[99;5u`, `ESC[27;5;99~` | `Ctrl` (`'c'`, `' '`, `'\\'`, `']'`, `'^'`, `'_'`) |
//! | ESC then a printable char (ASCII or UTF-8) within the delay | `Alt` |
//! | ESC then 0x7f or 0x08; `ESC[127;3u`, `ESC[27;3;127~` | `Alt('\u{7f}')` (Alt+Backspace) |
//! | `ESC[A`..`ESC[D`, `ESC O A`..`ESC O D`, with modifiers (`ESC[1;2A`); rxvt `ESC[a`, `ESC O a` | `Up` `Down` `Right` `Left` |
//! | `ESC[1;5D` / `ESC[1;5C` (Ctrl, and Ctrl with Shift or Alt), `ESC O 5D`, rxvt `ESC O d` / `ESC O c` | `CtrlLeft` / `CtrlRight` |
//! | `ESC[1;3D` / `ESC[1;3C` (Alt or Meta, with Shift too), `ESC O 3D` | `AltLeft` / `AltRight` |
//! | `ESC[H`, `ESC[1~`, `ESC[7~`, `ESC O H` / `ESC[F`, `ESC[4~`, `ESC[8~`, `ESC O F` | `Home` / `End` |
//! | `ESC[5~` / `ESC[6~` / `ESC[2~` / `ESC[3~` | `PageUp` / `PageDown` / `Insert` / `Delete` |
//! | `ESC[<code>u` (kitty), `ESC[27;<mods>;<code>~` (modifyOtherKeys) | that key (Shift on a letter: upper case) |
//! | `ESC O p`..`ESC O y`, `ESC O j k l m n o X` (application keypad) | `Char` (`0`..`9`, `* + , - . / =`) |
//! | `ESC[200~` ... `ESC[201~` | one `Paste` (no timeout inside) |
//!
//! Swallowed whole, no key and no stray character: focus reports (`ESC[I`, `ESC[O`), mouse
//! reports (X10 `ESC[M` and 3 bytes, SGR `ESC[<...M`/`m`, urxvt `ESC[...M`), terminal replies
//! (cursor position `ESC[row;colR`, device attributes `ESC[?...c`, OSC `ESC]...BEL` or
//! `ESC]...ESC\`, DCS `ESC P...ESC\`, APC `ESC _...ESC\`), function keys, key releases and any
//! other CSI (`ESC [` params 0x30–0x3F, intermediates 0x20–0x2F, final 0x40–0x7E) or SS3
//! (`ESC O` params, final) sequence. Modifiers on keys that have no modified form in [`Key`]
//! (Ctrl+Up, Alt+Enter, ...) are dropped; so is Shift on ←/→.

mod decode;
mod reader;
mod tty;

#[cfg(test)]
mod tests;

pub use decode::{Decoder, DEFAULT_PASTE_CHUNK, MAX_SEQUENCE};
pub use reader::{
    ByteSource, Clock, Event, Input, KeyReader, ManualClock, ScriptedSource, SystemClock,
};
pub use tty::{
    continued_pending, flush_input, raw_modes, take_continued, wait_readable, wake_the_reader,
    ContinueWake, RawMode, TtySource,
};

use std::time::Duration;

/// One key press (or one paste) decoded from the terminal's bytes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Key {
    /// A printable character, space included; never a control character.
    Char(char),
    /// Alt (Meta) with a printable character: ESC followed within the escape delay by it.
    /// Alt+Backspace (ESC then 0x7f or 0x08, kitty `ESC[127;3u`) is `Alt('\u{7f}')`, the one
    /// control character an `Alt` carries.
    Alt(char),
    /// Ctrl with a key that has a control byte: a lowercase ASCII letter (`Ctrl('c')` for
    /// Ctrl+C, `Ctrl('z')` for Ctrl+Z), `' '` (Ctrl+Space, NUL), `'\\'`, `']'`, `'^'` or `'_'`.
    /// Ctrl+H, Ctrl+I, Ctrl+J and Ctrl+M send the bytes of Backspace, Tab and Enter and decode as
    /// those keys (in the kitty protocol they are `Ctrl('h')` and so on).
    Ctrl(char),
    /// Enter or Return.
    Enter,
    /// Tab.
    Tab,
    /// Shift+Tab.
    BackTab,
    /// Backspace (0x7f or 0x08).
    Backspace,
    /// The Esc key: an ESC followed by nothing within the escape delay.
    Esc,
    /// Arrow up.
    Up,
    /// Arrow down.
    Down,
    /// Arrow left.
    Left,
    /// Arrow right.
    Right,
    /// Ctrl+← (`ESC[1;5D`; rxvt `ESC O d`): a word left in an editor.
    CtrlLeft,
    /// Ctrl+→ (`ESC[1;5C`; rxvt `ESC O c`): a word right in an editor.
    CtrlRight,
    /// Alt+← (`ESC[1;3D`): a word left in an editor, as in readline.
    AltLeft,
    /// Alt+→ (`ESC[1;3C`): a word right in an editor.
    AltRight,
    /// Home.
    Home,
    /// End.
    End,
    /// Page Up.
    PageUp,
    /// Page Down.
    PageDown,
    /// Insert.
    Insert,
    /// Delete (forward delete).
    Delete,
    /// A bracketed paste: the bytes between `ESC[200~` and `ESC[201~`, exactly, as UTF-8
    /// (invalid bytes become U+FFFD); control characters and ESC bytes inside are kept. A paste
    /// longer than the decoder's chunk size ([`DEFAULT_PASTE_CHUNK`], 1 MiB) arrives as several
    /// `Paste` keys in a row, split between characters; together they are the paste.
    Paste(String),
}

/// The escape delay when nothing says otherwise: 50 ms, neovim's `ttimeoutlen` (25 ms, tried
/// first, lost split arrows on a loaded machine and over tmux: they cancelled the flow).
pub const DEFAULT_ESCAPE_DELAY: Duration = Duration::from_millis(50);
/// The escape delay over ssh (`SSH_TTY` or `SSH_CONNECTION` set): 100 ms.
pub const SSH_ESCAPE_DELAY: Duration = Duration::from_millis(100);
/// The longest escape delay: `PI_ASK_ESCDELAY` above it is cut to it (10 s).
pub const MAX_ESCAPE_DELAY: Duration = Duration::from_secs(10);
/// How long a bracketed paste may go without a byte before it ends as if its `ESC[201~` had
/// come: a start whose end was lost (a link that dropped bytes, a multiplexer detached
/// mid-paste) would otherwise take every key after it, Ctrl+C included, as pasted text.
/// Terminals write a paste at once; over a slow link its bytes still come well within this.
pub const PASTE_IDLE: Duration = Duration::from_secs(2);

/// The escape delay from the values of the environment variables `PI_ASK_ESCDELAY`,
/// `SSH_TTY` and `SSH_CONNECTION` (`None` when unset). Pure; [`escape_delay`] reads the real
/// environment.
///
/// `PI_ASK_ESCDELAY`, a whole number of milliseconds (spaces around it allowed, `0` too), wins,
/// cut to [`MAX_ESCAPE_DELAY`]; a value that is not such a number is ignored. Otherwise
/// [`SSH_ESCAPE_DELAY`] when `SSH_TTY` or `SSH_CONNECTION` is set and not empty, else
/// [`DEFAULT_ESCAPE_DELAY`].
pub fn escape_delay_from(
    pi_ask_escdelay: Option<&str>,
    ssh_tty: Option<&str>,
    ssh_connection: Option<&str>,
) -> Duration {
    if let Some(ms) = pi_ask_escdelay.and_then(|v| v.trim().parse::<u64>().ok()) {
        return Duration::from_millis(ms).min(MAX_ESCAPE_DELAY);
    }
    let set = |v: Option<&str>| v.is_some_and(|v| !v.is_empty());
    if set(ssh_tty) || set(ssh_connection) {
        SSH_ESCAPE_DELAY
    } else {
        DEFAULT_ESCAPE_DELAY
    }
}

/// `--escape-delay MS`, when given: it wins over the environment ([`set_escape_delay`]).
static ESCAPE_DELAY_FLAG: std::sync::OnceLock<Duration> = std::sync::OnceLock::new();

/// Sets the escape delay from `--escape-delay MS` (cut to [`MAX_ESCAPE_DELAY`]); once, before
/// the first key is read.
pub fn set_escape_delay(ms: u64) {
    let _ = ESCAPE_DELAY_FLAG.set(Duration::from_millis(ms).min(MAX_ESCAPE_DELAY));
}

/// The escape delay for this process: `--escape-delay` when given, else from its environment
/// (see [`escape_delay_from`]). Variables that are not valid Unicode count as unset.
pub fn escape_delay() -> Duration {
    if let Some(delay) = ESCAPE_DELAY_FLAG.get() {
        return *delay;
    }
    let var = |name: &str| std::env::var(name).ok();
    escape_delay_from(
        var("PI_ASK_ESCDELAY").as_deref(),
        var("SSH_TTY").as_deref(),
        var("SSH_CONNECTION").as_deref(),
    )
}

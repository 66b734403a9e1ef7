//! The manual page that `pi-ask man` prints. clap_mangen renders what the clap definitions
//! (src/cli.rs) say: the title, NAME, SYNOPSIS, DESCRIPTION, OPTIONS, each subcommand's usage
//! and options, and VERSION. This module adds what clap does not know: EXIT STATUS (the table
//! `--help` ends with, [`crate::exit_codes::HELP`], so both read the same), ENVIRONMENT
//! ([`ENVIRONMENT`]) and FILES ([`FILES`]).

use crate::cli::Cli;
use clap::CommandFactory;
use clap_mangen::Man;
use roff::{bold, italic, roman, Inline, Roff};

/// Every environment variable pi-ask reads, with what it changes: the man page's ENVIRONMENT.
/// (tests/man_page.rs checks that each variable src/ reads is listed.)
pub const ENVIRONMENT: &[(&str, &str)] = &[
    (
        "PI_ASK_ANSWERS",
        "Answer from this file, as --answers does; the option wins. Empty means not set.",
    ),
    (
        "PI_ASK_MAX_PAYLOAD_BYTES",
        "The default of --max-payload-bytes (4194304); the option wins.",
    ),
    (
        crate::limits::INDEX_WAIT_ENV,
        "How many milliseconds a Tab in an editor waits for the @ file-path index before it lists \
         the files indexed so far (default 400).",
    ),
    (
        "NO_COLOR",
        "When set and not empty, no colour: the questions are drawn with dialoguer's plain \
         theme and the @ completion hints are not dimmed. CLICOLOR=0 turns colour off too, \
         CLICOLOR_FORCE (not 0) on; otherwise colour is on when /dev/tty is a terminal and \
         TERM names one with colours.",
    ),
    (
        "TERM",
        "Unset, empty, or a terminal the line editor cannot drive (dumb, cons25, emacs, in any \
         case): plain mode, as --plain (numbered lines, no escape sequences). Otherwise the \
         terminal type the editors write for, and the colours drawn: none for dumb, vt100, \
         vt220, a -mono or -m entry (xterm-mono); 256 for a name with 256color or direct, \
         alacritty, xterm-kitty, foot, wezterm, or COLORTERM=truecolor; the 8 basic ones \
         otherwise.",
    ),
    (
        "LC_ALL",
        "With LC_CTYPE and LANG, the locale (the first of the three set and not empty; none \
         set names no charset and the terminal is taken as UTF-8). When its codeset is not \
         UTF-8 (C, POSIX, en_US.ISO-8859-1), pi-ask writes only ASCII to the terminal: its glyphs as >, [x], (*), <- ->, ... and \
         every other non-ASCII character of payload text escaped as \\u{e9}. The answers keep \
         the text as it is.",
    ),
    ("LC_CTYPE", "See LC_ALL."),
    ("LANG", "See LC_ALL."),
    (
        "PI_ASK_TIMEOUT",
        "The default of --timeout: seconds without a key before the questionnaire ends, keeping \
         the answers given (exit 124); 0 or empty: never; the option wins.",
    ),
    (
        "PI_ASK_LIFELINE_FD",
        "The default of --lifeline-fd: the number of a descriptor the caller passed open whose \
         end of file means the caller is gone (the run then ends as terminal_lost, exit 1); the \
         option wins; empty: unset. Removed from the environment children get.",
    ),
    (
        "PI_ASK_TERMINAL_WAIT",
        "How long a run waits for another run that holds its terminal and does not ask on it \
         (stopped, orphaned, in the background), or that cannot be told (in another pid \
         namespace), when no --timeout is given: seconds (1.5) or 30s, 2m, 500ms; default 10 \
         (also when empty); 0: no wait for such a holder. A holder that asks is waited for up \
         to 30 minutes, whatever the value. Then it ends as terminal_busy (exit 1).",
    ),
    (
        "PI_ASK_BELL",
        "0 (or false, no, off): do not ring the terminal bell when the first question appears (as --no-bell); 1 or unset: ring it; another value is refused (exit 2).",
    ),
    (
        "PI_ASK_NOTIFY",
        "How to notify once when the questions wait (as --notify): bell (the default), osc9, osc777, command, none, separated by commas.",
    ),
    (
        "PI_ASK_NOTIFY_COMMAND",
        "A shell command run when the questions wait (as --notify-command), with ASK_NOTIFY_EVENT=question.waiting, ASK_NOTIFY_TITLE and ASK_NOTIFY_MESSAGE set; killed after 5 s or when the run ends, its failure ignored.",
    ),
    (
        "PI_ASK_AUTO_SUBMIT",
        "1: submit at once on reaching the review when every question is answered and no note was written (as --auto-submit); 0 or unset: show the review.",
    ),
    (
        "PI_ASK_TRANSCRIPT",
        "0 (or false, no, off): leave no transcript when the questionnaire ends (as --no-transcript); 1 or unset: leave it; another value is refused (exit 2).",
    ),
    (
        "PI_ASK_PLAIN",
        "1: ask with numbered lines (as --plain); 0 or unset: the terminal front end.",
    ),
    (
        "PI_ASK_SCREEN",
        "inline (the default) or full: where the questions are drawn (as --screen).",
    ),
    (
        "PI_ASK_ESCDELAY",
        "Milliseconds an Esc waits for the rest of an escape sequence (default 50, 100 over \
         ssh); raise it on a slow link where arrows are taken for Esc.",
    ),
    (
        "PI_ASK_KEY_GRACE",
        "Milliseconds after the first question appears during which keys are not acted on \
         (default 250, also when empty; 0 turns it off; at most 5000): a key typed for \
         something else just as the questions appear never answers one. The rest of a burst \
         is dropped too (each dropped key starts the time again, at most 4 times it in all), \
         and the hint line then says keys were ignored. Keys typed before it appears are \
         dropped too; in plain mode, a line completed that soon is dropped and the prompt \
         printed again. The bell or notification still comes at once. Another value is \
         refused (exit 2).",
    ),
    (
        "SSH_TTY",
        "When set (as ssh does), Esc waits 100 ms for the rest of an escape sequence instead \
         of 50, unless PI_ASK_ESCDELAY is set.",
    ),
    ("SSH_CONNECTION", "The same as SSH_TTY."),
    (
        "HOME",
        "The folder that @~/ completes in; also where git's global config is looked for \
         (~/.gitconfig), whose excludes the @ file-path index honours.",
    ),
    (
        "XDG_CONFIG_HOME",
        "Where git's other global config and excludes file are looked for (git/config, \
         git/ignore; default ~/.config).",
    ),
    (
        "GIT_CONFIG_GLOBAL",
        "git's global config file in place of ~/.gitconfig, as git reads it. A config or \
         excludes file that is not a regular file of at most 64 KiB is not read: the index is \
         made without the global excludes.",
    ),
    (
        "GIT_CONFIG_SYSTEM",
        "git's system config file in place of /etc/gitconfig, as git reads it.",
    ),
    (
        "VISUAL",
        "The editor Ctrl+G in an answer or note editor opens the text in (a shell command line, run on a private temporary file).",
    ),
    ("EDITOR", "The same as VISUAL, when VISUAL is not set."),
    (
        "ASK_ANSWER_SOCKET",
        "Set for the notification command: the answer channel's socket, where pi-ask answer \
         SOCKET FILE answers the questions from elsewhere while they wait, and pi-ask answer \
         --questions SOCKET prints them (ANSWERING FROM ELSEWHERE).",
    ),
    (
        "XDG_RUNTIME_DIR",
        "Where the answer channel's folder is made (ANSWERING FROM ELSEWHERE), when it is a \
         folder of the user's that no one else can write to; else in the temporary folder \
         (TMPDIR, /tmp) when it is the user's or root's and no one else can write to it, or it \
         is sticky; else there is no channel.",
    ),
    (
        "ASK_ANSWER_ID",
        "Set for the notification command: the questionnaire's id, which an answer request \
         names (\"id\"); a request with another is refused as stale.",
    ),
];

/// Where [`GUIDES`] give the payload's fields.
pub const PAYLOAD: &str = "{PAYLOAD}";

/// The short forms of what the docs say at length, for a reader who has only the binary: the
/// man page's sections after ENVIRONMENT and FILES, as (heading, paragraphs); a paragraph
/// starting with two spaces is an example, shown as it is. [`PAYLOAD`] stands for the
/// payload's fields, generated from their one definition ([`crate::contract::synopsis`]).
pub const GUIDES: &[(&str, &[&str])] = &[
    (
        "PAYLOAD FORMATS",
        &[
            "The payload is the ask_user contract's {PAYLOAD} (recommended: true marks an option \
             and highlights it first, never selects it; secret: true hides the text typed as \
             the answer: masked in the editor, read without echo, shown as a row of bullets, \
             carried by the result), or the payload of another ask-the-user tool, detected by its fields \
             (--input-format names it): mickyyy68 ({questions: [{question, header?, \
             multiSelect?, options: [{label, description?}]}]}), claude-code (Claude Code's \
             AskUserQuestion, the same fields), yishan (one {question, context?, options?, \
             allowMultiple?, allowFreeform?}) and pi-questionnaire (pi's example \
             questionnaire). --result-format writes the result in the shape of contract, \
             mickyyy68, yishan or claude-code. pi-ask schema input --format F and pi-ask \
             schema output --format F print each shape as a JSON Schema.",
            "  pi-ask validate q.json            # every problem, with its JSON path",
        ],
    ),
    (
        "ANSWERS FILE",
        &[
            "--answers FILE answers without a terminal: {\"answers\": {ID: ENTRY, ...}}, by \
             question id, where an ENTRY is an option's value (\"balanced\"), its 1-based \
             position (2), a list of them ([\"react\", \"svelte\"]), or {\"values\": [...], \
             \"customText\": \"...\", \"note\": \"...\", \"optionNotes\": {VALUE: \"...\"}}. \
             \"mode\": \"elaborate\" beside \"answers\" ends with Elaborate instead of Submit \
             (an elaborate result: details.mode, elaboration, continuation; option notes may \
             then be on unselected options). A result pi-ask wrote (or its details) is an answers file too, so a recorded run \
             replays to the same answers. It may be as large as --max-payload-bytes plus 16 \
             times the payload's size. pi-ask schema answers prints its JSON Schema; pi-ask \
             validate PAYLOAD --answers FILE checks one.",
            "  pi-ask q.json > result.json && pi-ask q.json --answers result.json",
        ],
    ),
    (
        "DIALOGS",
        &[
            "--dialogs asks through the caller's dialogs instead of a terminal: pi-ask writes \
             one JSON request a line on stdout ({\"type\": \"select\", \"title\", \"options\": \
             [...]}, or input, editor, confirm; with a \"timeout\" in milliseconds under \
             --timeout) and reads one response a line on stdin ({\"value\": ...}, \
             {\"confirmed\": true|false} or {\"cancelled\": true}); the result goes to \
             --output, which --dialogs needs. pi's extension uses it in pi's RPC mode.",
        ],
    ),
    (
        "ANSWERING FROM ELSEWHERE",
        &[
            "While pi-ask asks on a terminal (inline, full screen or plain; not with --answers), \
             it listens on an answer channel: a Unix socket in a folder of mode 0700 in \
             $XDG_RUNTIME_DIR (or the temporary folder), which takes answers only from the \
             user's own processes (the peer's user is checked, and pi-ask answer checks the \
             listener's), one request decided at a time, at most the answers file's size, sent \
             within 2 s and answered within 10 s a connection. The notification command gets \
             its path and the questionnaire's id as ASK_ANSWER_SOCKET and ASK_ANSWER_ID; \
             --print-answer-socket says them on stderr as one JSON line, --answer-socket-file \
             FILE to FILE (a pipe or socket such as /dev/fd/8). pi-ask answer --questions \
             SOCKET asks the channel for the questions waiting ({\"action\": \"questions\"}) and \
             prints its reply ({\"status\": \"questions\", id, title?, questions}, the normalized \
             questions with their options' values and labels; never in a file). A request is an \
             answers file with \"id\", \"action\" (submit, the default; elaborate; cancel) \
             and \"from\" (who answers, named in the transcript line); it is checked exactly as \
             an answers file. pi-ask answer SOCKET FILE sends one and prints the reply \
             ({\"status\": ok | invalid | stale | already_answered | busy, message?, \
             problems?}): exit 0 taken (the run ends with those answers, its transcript line \
             saying they came from elsewhere), 2 problems or another questionnaire's id (the \
             questions stay up, untouched), 1 not taken (answered already at the terminal, no \
             longer asked). The socket and its folder are removed by every ending. pi-ask \
             schema answer-request and answer-reply print their JSON Schemas.",
            "  echo '{\"id\": \"'$ASK_ANSWER_ID'\", \"answers\": {\"scope\": \"all\"}}' | pi-ask answer \"$ASK_ANSWER_SOCKET\" -",
        ],
    ),
    (
        "EXAMPLES",
        &[
            "  pi-ask q.json > answers.json                   # ask in the terminal",
            "  pi-ask q.json --screen full -o answers.json    # on the alternate screen",
            "  pi-ask q.json --plain                          # numbered lines, for screen readers and logs",
            "  pi-ask q.json --timeout 2m                     # give up after two minutes without a key",
            "  cat q.json | pi-ask --answers a.json           # answer from a file, no terminal",
            "  pi-ask validate q.json                         # check a payload",
        ],
    ),
    (
        "SEE ALSO",
        &[
            "gum(1), fzf(1), dialog(1), whiptail(1). pi-ask --help; pi-ask schema input, output, \
             answers, answer-request and answer-reply for the JSON Schemas. The README, the \
             CHANGELOG and the full documentation (docs/: interactive, plain-mode, answers, \
             elsewhere, dialects, dialogs, exit-codes, contract) come in the release archive, next to the binary, and in \
             the npm package pi-ask (node_modules/pi-ask/docs/).",
        ],
    ),
];

/// The files pi-ask reads or writes, with how: the man page's FILES.
pub const FILES: &[(&str, &str)] = &[
    (
        "/dev/tty",
        "The controlling terminal: the questions are drawn on it and keys are read from it, so \
         stdin and stdout stay free for the payload and the result. Without one (CI, setsid, \
         --no-input) pi-ask never waits: it prints the \"Needs user input\" result and exits 3.",
    ),
    (
        "PAYLOAD",
        "The payload JSON file, or - for stdin; read whole, at most --max-payload-bytes.",
    ),
    (
        "the answers file",
        "The --answers FILE (or PI_ASK_ANSWERS): the answers to give instead of asking, or a \
         recorded result to replay; - reads it from stdin. Same size limit as the payload.",
    ),
    (
        "the answer channel's socket",
        "pi-ask-XXXXXX/answer.sock in $XDG_RUNTIME_DIR (the temporary folder when that is not \
         a folder of the user's alone), alone in its folder, there while the questions are up; the \
         folder is the user's alone (0700), and both are removed by every ending of the run.",
    ),
    (
        "the result file",
        "The --output FILE: the result JSON is written to a private temporary file in the same \
         folder, then renamed over it, so a reader never sees half a result; a replaced file of \
         the user's keeps its permission bits, never setuid or setgid (another user's lends \
         none: 0666 less the umask); a signal during the write leaves the whole result or no \
         temporary file (stderr says so). A symbolic link is followed (the file it points to is \
         replaced, the link stays); a character device or a FIFO is opened and written, never \
         replaced; a folder, a block device or a socket is refused (exit 4), and so is a link, a \
         FIFO or a regular file in a sticky world-writable folder such as /tmp that belongs \
         neither to the user nor to the folder's owner (the kernel's fs.protected_symlinks, \
         protected_fifos and protected_regular rules, whatever the machine's setting). These \
         are checked when the run starts too: such a FILE exits 4 before the first question. \
         Without --output the result goes to stdout.",
    ),
];

/// One row of the exit-code table: the code (as written, e.g. `0` or `130`) and its meaning.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExitStatus {
    /// The code column of the row.
    pub code: String,
    /// What the code means, continuation lines joined with spaces.
    pub meaning: String,
}

/// The rows of a `--help` exit-code table such as [`crate::exit_codes::HELP`]: a heading line
/// ending in `:`, then indented rows `CODE  MEANING` (two or more spaces between them) whose
/// code starts with a digit; any other indented line continues the row above. Unindented
/// lines after the rows are returned as notes, one per paragraph.
pub fn exit_statuses(help: &str) -> (Vec<ExitStatus>, Vec<String>) {
    let mut rows: Vec<ExitStatus> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    let mut in_note = false;
    for (i, line) in help.lines().enumerate() {
        let text = line.trim();
        if text.is_empty() {
            in_note = false;
            continue;
        }
        if i == 0 && text.ends_with(':') {
            continue;
        }
        let indented = line.starts_with(char::is_whitespace);
        let row = text
            .split_once("  ")
            .filter(|(code, _)| indented && code.starts_with(|c: char| c.is_ascii_digit()));
        if let Some((code, meaning)) = row {
            rows.push(ExitStatus {
                code: code.trim().to_string(),
                meaning: meaning.trim().to_string(),
            });
            in_note = false;
        } else if indented && !in_note && !rows.is_empty() {
            let last = rows.last_mut().expect("rows is not empty");
            last.meaning.push(' ');
            last.meaning.push_str(text);
        } else if in_note {
            let last = notes.last_mut().expect("a note is open");
            last.push(' ');
            last.push_str(text);
        } else {
            notes.push(text.to_string());
            in_note = true;
        }
    }
    (rows, notes)
}

/// The whole manual page, as roff text for `man -l -`.
pub fn render() -> String {
    let mut cmd = Cli::command();
    cmd.build();
    // The exit codes get their own EXIT STATUS section instead of clap_mangen's EXTRA.
    let cmd = cmd.after_help(None::<&str>).after_long_help(None::<&str>);
    let man = Man::new(cmd.clone());
    let mut page = Section::new();
    page.man(&man, Man::render_title);
    page.man(&man, Man::render_name_section);
    page.man(&man, Man::render_synopsis_section);
    page.man(&man, Man::render_description_section);
    page.man(&man, Man::render_options_section);
    page.commands(&cmd);
    page.exit_status();
    page.table("ENVIRONMENT", ENVIRONMENT, |name| bold(name));
    // Paths in bold, placeholders (PAYLOAD, "the answers file") in italics.
    page.table("FILES", FILES, |name| {
        if name.starts_with('/') {
            bold(name)
        } else {
            italic(name)
        }
    });
    let synopsis = crate::contract::synopsis();
    for (heading, paragraphs) in GUIDES {
        let paragraphs: Vec<String> = paragraphs
            .iter()
            .map(|p| p.replace(PAYLOAD, &synopsis))
            .collect();
        let paragraphs: Vec<&str> = paragraphs.iter().map(String::as_str).collect();
        page.prose(heading, &paragraphs);
    }
    page.man(&man, Man::render_version_section);
    // `--help` points to this page's sections (`pi-ask man`: ANSWERS FILE); here they are below.
    page.text.replace("(`pi\\-ask man`: ", "(see ")
}

/// The page being written. Every roff document starts with the same preamble (it defines the
/// apostrophe string); the page keeps only the first one.
struct Section {
    text: String,
    preamble: String,
}

type Render = fn(&Man, &mut dyn std::io::Write) -> std::io::Result<()>;

impl Section {
    fn new() -> Section {
        Section {
            text: String::new(),
            preamble: Roff::new().render(),
        }
    }

    fn push(&mut self, rendered: String) {
        let body = if self.text.is_empty() {
            rendered.as_str()
        } else {
            rendered
                .strip_prefix(self.preamble.as_str())
                .unwrap_or(&rendered)
        };
        self.text.push_str(body);
    }

    /// One section rendered by clap_mangen.
    fn man(&mut self, man: &Man, render: Render) {
        let mut out = Vec::new();
        render(man, &mut out).expect("writing to a Vec cannot fail");
        self.push(String::from_utf8(out).expect("clap_mangen writes UTF-8"));
    }

    /// COMMANDS: each subcommand as a subsection with its description, usage and options.
    fn commands(&mut self, cmd: &clap::Command) {
        let subs: Vec<&clap::Command> = cmd
            .get_subcommands()
            .filter(|s| !s.is_hide_set() && s.get_name() != "help")
            .collect();
        if subs.is_empty() {
            return;
        }
        let mut roff = Roff::new();
        roff.control("SH", ["COMMANDS"]);
        self.push(roff.render());
        for sub in subs {
            // A control line's arguments are not escaped: `\-` keeps the name's hyphen a
            // hyphen-minus (what a reader types), as in text.
            let name = sub
                .get_bin_name()
                .unwrap_or(sub.get_name())
                .replace('-', "\\-");
            let mut roff = Roff::new();
            roff.control("SS", [name.as_str()]);
            if let Some(about) = sub.get_long_about().or(sub.get_about()) {
                roff.text([roman(about.to_string())]);
            }
            roff.control("PP", []);
            self.push(roff.render());
            let man = Man::new(sub.clone());
            for render in [
                Man::render_synopsis_section as Render,
                Man::render_options_section,
            ] {
                let mut out = Vec::new();
                render(&man, &mut out).expect("writing to a Vec cannot fail");
                let text = String::from_utf8(out).expect("clap_mangen writes UTF-8");
                // The subsection's parts, without their own section headings.
                let text: String = text
                    .lines()
                    .filter(|l| !l.starts_with(".SH "))
                    .map(|l| format!("{l}\n"))
                    .collect();
                self.push(text);
            }
        }
    }

    /// EXIT STATUS: the rows of [`crate::exit_codes::HELP`], then its notes.
    fn exit_status(&mut self) {
        let (rows, notes) = exit_statuses(crate::exit_codes::HELP);
        let mut roff = Roff::new();
        roff.control("SH", ["EXIT STATUS"]);
        for row in rows {
            roff.control("TP", []);
            roff.text([bold(row.code)]);
            roff.text([roman(row.meaning)]);
        }
        for note in notes {
            roff.control("PP", []);
            roff.text([roman(note)]);
        }
        self.push(roff.render());
    }

    /// A section of tagged paragraphs: each name styled by `tag`, then its text.
    /// A section of paragraphs; one starting with two spaces is an example, kept as it is.
    fn prose(&mut self, heading: &str, paragraphs: &[&str]) {
        let mut roff = Roff::new();
        roff.control("SH", [heading]);
        for paragraph in paragraphs {
            if let Some(example) = paragraph.strip_prefix("  ") {
                roff.control("nf", []);
                roff.text([roman(example)]);
                roff.control("fi", []);
            } else {
                roff.control("PP", []);
                roff.text([roman(*paragraph)]);
            }
        }
        self.push(roff.render());
    }

    fn table(&mut self, heading: &str, rows: &[(&str, &str)], tag: fn(&str) -> Inline) {
        let mut roff = Roff::new();
        roff.control("SH", [heading]);
        for (name, text) in rows {
            roff.control("TP", []);
            roff.text([tag(name)]);
            roff.text([roman(*text)]);
        }
        self.push(roff.render());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_of_the_help_table_is_a_row_or_a_note() {
        let help = "Exit codes:\n  0  submitted\n  1  cancelled (Esc,\n     a signal)\n\
                    130  not indented: a note\n\nSignals: 128 + the\nsignal number.";
        let (rows, notes) = exit_statuses(help);
        let row = |code: &str, meaning: &str| ExitStatus {
            code: code.into(),
            meaning: meaning.into(),
        };
        assert_eq!(
            rows,
            [row("0", "submitted"), row("1", "cancelled (Esc, a signal)")]
        );
        assert_eq!(
            notes,
            [
                "130  not indented: a note",
                "Signals: 128 + the signal number."
            ]
        );
    }

    #[test]
    fn the_page_points_to_its_own_sections_not_to_itself() {
        let page = render();
        assert!(!page.contains("pi\\-ask man`:"), "the page names itself");
        assert!(page.contains("(see ANSWERS FILE); no terminal is opened"));
    }

    #[test]
    fn the_defaults_named_are_the_defaults() {
        let text = |name: &str| {
            ENVIRONMENT
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, t)| *t)
                .unwrap()
        };
        let bytes = format!("({})", crate::limits::DEFAULT_MAX_PAYLOAD_BYTES);
        assert!(text("PI_ASK_MAX_PAYLOAD_BYTES").contains(&bytes));
        let wait = format!("(default {})", crate::limits::INDEX_FIRST_WAIT.as_millis());
        assert!(text(crate::limits::INDEX_WAIT_ENV).contains(&wait));
    }

    #[test]
    fn the_exit_code_table_of_help_has_a_row_per_code() {
        let (rows, _) = exit_statuses(crate::exit_codes::HELP);
        let codes: Vec<&str> = rows.iter().map(|r| r.code.as_str()).collect();
        for code in ["0", "1", "2", "3", "4", "5"] {
            assert!(
                codes
                    .iter()
                    .any(|c| c.split(|c: char| !c.is_ascii_digit()).any(|n| n == code)),
                "{code} not in {codes:?}"
            );
        }
    }
}

//! One run of the main command: read and check the payload, pick a front end, let it drive
//! the flow to an [`Ending`], turn that into the result and the exit code
//! ([`result::conclude`]), and write the result in the caller's format
//! ([`write_formatted`]).

use crate::cli::Cli;
use crate::contract::{
    answers_size_limit, parse_payload_as, read_payload, reading_problem_for_people, ErrorCode,
    ErrorInfo, Input, Payload, PayloadError, Problem, ToolResult,
};
use crate::exit_codes::ExitCode;
use crate::flow::Flow;
use crate::frontend::{self, AskOptions};
use crate::output::write_result;
use crate::result::formats::{self, ResultFormat};
use crate::result::{self, Ending};
use crate::terminal::Claim;
use std::io::{self, IsTerminal};
use std::path::Path;
use std::sync::{Arc, Mutex};

/// Whether a controlling terminal can be opened for reading and writing.
pub fn terminal_available() -> bool {
    crate::terminal::open_tty().is_ok()
}

/// Fills the settings of the main command that the command line left out from their
/// environment variables (`PI_ASK_TIMEOUT`, `PI_ASK_SCREEN`, `PI_ASK_MAX_PAYLOAD_BYTES`,
/// `PI_ASK_PLAIN`, `PI_ASK_AUTO_SUBMIT`, `PI_ASK_BELL`, `PI_ASK_TRANSCRIPT`, `PI_ASK_NOTIFY`,
/// `PI_ASK_NOTIFY_COMMAND`, `PI_ASK_KEY_GRACE`, `PI_ASK_LIFELINE_FD`, `PI_ASK_TERMINAL_WAIT`), read only
/// here, so a subcommand never trips on them; `given(id)` says
/// whether the command line gave the argument `id` itself (it wins). `env` reads a variable
/// as the operating system holds it (`std::env::var_os`).
///
/// Errors: a variable's value cannot be used (it is not UTF-8 text, or not a value of its
/// setting); the message names the variable and its value (invalid bytes shown as U+FFFD).
/// Also `--cwd` that is not a folder (`--cwd "src/main.rs": it is not a folder`, `--cwd
/// "nope": No such file or directory`).
pub fn settings_from_environment(
    cli: &mut Cli,
    given: impl Fn(&str) -> bool,
    env: impl Fn(&str) -> Option<std::ffi::OsString>,
) -> Result<(), String> {
    let bad = |name: &str, value: &str, why: String| {
        format!(
            "{name}={} cannot be used: {why}",
            crate::text::quoted(value)
        )
    };
    // A value that is not UTF-8 is named, never taken for an unset variable; a variable whose
    // setting the command line gave is not read.
    let env = |given: bool, name: &str| -> Result<Option<String>, String> {
        if given {
            return Ok(None);
        }
        match env(name).map(std::ffi::OsString::into_string) {
            None => Ok(None),
            Some(Ok(value)) => Ok(Some(value)),
            Some(Err(raw)) => Err(bad(
                name,
                &raw.to_string_lossy(),
                "it is not UTF-8 text".into(),
            )),
        }
    };
    if let Some(value) = env(given("timeout"), "PI_ASK_TIMEOUT")? {
        cli.timeout = Some(
            crate::cli::parse_timeout(&value).map_err(|why| bad("PI_ASK_TIMEOUT", &value, why))?,
        );
    }
    if let Some(value) = env(given("screen"), "PI_ASK_SCREEN")? {
        // The values of `--screen`, read as clap reads them (an empty value is the default).
        let value = if value.trim().is_empty() {
            "inline"
        } else {
            value.trim()
        };
        cli.screen = <crate::cli::ScreenArg as clap::ValueEnum>::from_str(value, true)
            .map_err(|_| bad("PI_ASK_SCREEN", value, "it is inline or full".into()))?;
    }
    if let Some(value) = env(given("max_payload_bytes"), "PI_ASK_MAX_PAYLOAD_BYTES")? {
        cli.max_payload_bytes = value.trim().parse().map_err(|_| {
            bad(
                "PI_ASK_MAX_PAYLOAD_BYTES",
                &value,
                "it is a whole number of bytes".into(),
            )
        })?;
    }
    let switch = |name: &str, value: &str| match value.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Ok(true),
        "" | "0" | "false" | "no" | "off" => Ok(false),
        _ => Err(bad(name, value, "it is 1 or 0".into())),
    };
    if let Some(value) = env(cli.plain, "PI_ASK_PLAIN")? {
        cli.plain = switch("PI_ASK_PLAIN", &value)?;
    }
    if let Some(value) = env(cli.auto_submit, "PI_ASK_AUTO_SUBMIT")? {
        cli.auto_submit = switch("PI_ASK_AUTO_SUBMIT", &value)?;
    }
    // On unless turned off: empty is the default.
    for (name, off) in [
        ("PI_ASK_BELL", &mut cli.no_bell),
        ("PI_ASK_TRANSCRIPT", &mut cli.no_transcript),
    ] {
        if let Some(value) = env(*off, name)?.filter(|v| !v.trim().is_empty()) {
            *off = !switch(name, &value)?;
        }
    }
    if let Some(value) = env(given("notify"), "PI_ASK_NOTIFY")? {
        cli.notify = Some(
            crate::notify::Channels::parse(&value)
                .map_err(|why| bad("PI_ASK_NOTIFY", &value, why))?,
        );
    }
    // Empty is the default, as for the variables above.
    if let Some(value) = env(false, "PI_ASK_KEY_GRACE")?.filter(|v| !v.trim().is_empty()) {
        cli.key_grace = Some(
            crate::frontend::grace::parse(&value)
                .map_err(|why| bad("PI_ASK_KEY_GRACE", &value, why))?,
        );
    }
    // Empty is unset, as for PI_ASK_TIMEOUT.
    if let Some(value) =
        env(given("lifeline_fd"), "PI_ASK_LIFELINE_FD")?.filter(|v| !v.trim().is_empty())
    {
        cli.lifeline_fd = Some(value.trim().parse().map_err(|_| {
            bad(
                "PI_ASK_LIFELINE_FD",
                &value,
                "it is a descriptor number".into(),
            )
        })?);
    }
    // Empty is the default, as for the other variables.
    if let Some(value) = env(false, "PI_ASK_TERMINAL_WAIT")?.filter(|v| !v.trim().is_empty()) {
        cli.terminal_wait = Some(
            crate::cli::parse_terminal_wait(&value)
                .map_err(|why| bad("PI_ASK_TERMINAL_WAIT", &value, why))?,
        );
    }
    if let Some(value) = env(given("notify_command"), "PI_ASK_NOTIFY_COMMAND")? {
        cli.notify_command = Some(value);
    }
    crate::notify::Settings::new(
        cli.notify.clone().map(|c| c.0),
        false,
        cli.notify_command.clone(),
    )?;
    if let Some(dir) = &cli.cwd {
        let shown = crate::text::quoted(&dir.display().to_string());
        match std::fs::metadata(dir) {
            Ok(meta) if meta.is_dir() => {}
            Ok(_) => return Err(format!("--cwd {shown}: it is not a folder")),
            Err(e) => {
                let why = crate::contract::without_os_error(&e.to_string()).to_string();
                return Err(format!("--cwd {shown}: {why}"));
            }
        }
    }
    Ok(())
}

/// A line on stderr that never fails (the terminal may be gone): `terminal::say`.
pub use crate::terminal::say;

/// Ends the run's children and removes its unfinished files (`leftovers::clean_up`): the
/// process exit calls it (src/main.rs).
pub use crate::leftovers::clean_up;

/// Says on stderr that stdout could not be written (`pi-ask: cannot write to stdout: No space
/// left on device`), the OS error number left out as in every other message.
pub fn say_stdout_failed(e: &std::io::Error) {
    let why = e.to_string();
    say(&format!(
        "pi-ask: cannot write to stdout: {}",
        crate::contract::without_os_error(&why)
    ));
}

/// Runs the main command and returns the exit code; the result JSON has been written (or the
/// failure to write it reported on stderr) when it returns.
pub fn run(cli: &Cli) -> ExitCode {
    // Signals hold from here to the exit (docs/exit-codes.md "Signals"): until a front end
    // owns the terminal, restoring it writes nothing (set_plain), and until the payload is
    // read a signal's result has no questions.
    crate::terminal::set_quiet(true);
    // The caller's lifeline, checked before anything else (a usage error).
    let take = |fd: u32| {
        if let Some(payload) = &cli.payload {
            crate::lifeline::not_the_payload(fd, payload)?;
        }
        let lifeline = crate::lifeline::Lifeline::take(fd)?;
        crate::lifeline::not_written_by_us(fd)?;
        Ok::<_, String>(lifeline)
    };
    let lifeline = match cli.lifeline_fd.map(take) {
        None => None,
        Some(Ok(lifeline)) => Some(lifeline),
        Some(Err(why)) => {
            let fd = cli.lifeline_fd.unwrap_or_default();
            let flag = format!("--lifeline-fd {fd} (PI_ASK_LIFELINE_FD)");
            say(&format!(
                "pi-ask: {flag} cannot be used: descriptor {fd}: {why}"
            ));
            return ExitCode::Invalid;
        }
    };
    // An `--answer-socket-file` that is the result's stream or an input: a usage error.
    if let Some(path) = &cli.answer_socket_file {
        if let Err(why) = socket_file_apart(path, cli.payload.as_deref(), cli.lifeline_fd) {
            let path = path.display().to_string();
            say(&format!(
                "pi-ask: --answer-socket-file {} cannot be used: {why}",
                crate::text::for_terminal(&path)
            ));
            return ExitCode::Invalid;
        }
    }
    // An `--output` that cannot be used is refused now, before anyone answers (exit 4, no
    // result); the final write checks again (docs/exit-codes.md).
    if let Err(msg) = crate::output::check_output(cli.output.as_deref()) {
        say(&format!("pi-ask: {msg}"));
        return ExitCode::OutputFailed;
    }
    let with_a_lifeline = lifeline.is_some();
    let asked = Arc::new(Mutex::new(None));
    let signals = watch_signals(Arc::clone(&asked), cli, lifeline);
    // The kernel's word too, once the watch takes its signal; a parent already gone ends the
    // run at once (the watch writes the result: this thread never goes on).
    if with_a_lifeline && signals.is_some() && !crate::lifeline::ask_the_kernel() {
        let parent = crate::lifeline::the_parent();
        crate::terminal::lifeline_ended(format!("the caller (pid {parent}) ended"));
        crate::terminal::claim_result();
    }
    let payload_path = match &cli.payload {
        Some(p) => p.clone(),
        None if !io::stdin().is_terminal() => "-".into(),
        None => {
            crate::terminal::say("pi-ask: no payload given: pass a payload file, or `-` to read it from stdin (see --help)");
            return ExitCode::Invalid;
        }
    };
    // A payload that may keep the read waiting (stdin, a FIFO) is read with the watch on.
    if !std::fs::metadata(&payload_path).is_ok_and(|m| m.is_file()) {
        let _ = crate::terminal::watch_now();
    }
    // The payload's size in bytes sizes the answers file's limit (answers_size_limit).
    let mut payload_bytes = 0;
    let payload = read_payload(&payload_path, cli.max_payload_bytes)
        .map_err(|p| PayloadError {
            title: None,
            problems: vec![p],
        })
        .and_then(|text| {
            payload_bytes = text.len() as u64;
            parse_payload_as(&text, cli.input_format, cli.strict).payload
        });
    let (ending, payload) = match payload {
        Ok(mut payload) => {
            *asked.lock().unwrap_or_else(|e| e.into_inner()) = Some(skeleton(&mut payload, cli));
            (ask(&payload, payload_bytes, cli), Some(payload))
        }
        Err(err) => (Ending::InvalidPayload(err), None),
    };
    if matches!(ending, Ending::TerminalLost(_)) {
        crate::terminal::await_a_hang_up(HANG_UP_AFTER_A_LOST_TERMINAL);
    }
    report(&ending, cli, &payload_path);
    let (res, code) = result::conclude(&ending, payload.as_ref());
    let code = finish(&res, payload.as_ref(), cli, code);
    // What is still on its way to the terminal (a short while at most).
    crate::terminal::flush_tty();
    // The process exits right after this: skip freeing a payload and result that can be
    // megabytes of small allocations (a fifth of a 1,000-question run; docs/benchmarks.md).
    std::mem::forget((payload, res, ending));
    code
}

/// Tells the person on stderr why input was refused (the result says it to the caller, in
/// its own words): [`for_people`].
fn report(ending: &Ending, cli: &Cli, payload_path: &Path) {
    let text = match ending {
        Ending::InvalidPayload(err) => for_people(&err.problems, Input::Payload, payload_path),
        Ending::InvalidAnswers(problems) => for_people(
            problems,
            Input::Answers,
            cli.answers.as_deref().unwrap_or(Path::new("-")),
        ),
        _ => return,
    };
    // Payload text may carry escape sequences: shown escaped, never run (src/text/sanitize.rs).
    crate::terminal::say(crate::text::for_terminal(&text).trim_end_matches('\n'));
}

/// What a person reads on stderr about an `input` that cannot be used, ending in a newline.
///
/// An input that cannot be read as JSON (missing, a folder, too large, empty, not UTF-8, a
/// syntax error) gets one line that says what and where:
/// `pi-ask: cannot read q.json: No such file or directory`,
/// `pi-ask: q.json is not valid JSON at line 3, column 5: expected true, false or null`
/// ([`reading_problem_for_people`]). Otherwise the problems are listed under a first line
/// naming the input, one per line with its place and code:
///
/// ```text
/// pi-ask: invalid payload q.json: 2 problems
///   questions[0].id: the question id must not be empty or only whitespace [empty_question_id]
///   questions[0].options: a question needs at least one option [no_options]
/// ```
pub fn for_people(problems: &[Problem], input: Input, path: &Path) -> String {
    if let [problem] = problems {
        if let Some(line) = reading_problem_for_people(problem, input, path) {
            return format!("pi-ask: {line}\n");
        }
    }
    let (code, noun) = match input {
        Input::Payload => (ErrorCode::InvalidPayload, "payload"),
        Input::Answers => (ErrorCode::InvalidAnswers, "answers file"),
    };
    let place = if path == Path::new("-") {
        "on stdin".to_string()
    } else {
        path.display().to_string()
    };
    let n = crate::contract::problem_count(problems);
    let lines = ErrorInfo::for_input(code, problems.to_vec()).problem_lines("  ");
    format!(
        "pi-ask: invalid {noun} {place}: {n} problem{}{lines}\n",
        if n == 1 { "" } else { "s" }
    )
}

/// Picks the front end and asks; returns how the flow ended. `payload_bytes` is the
/// payload's size as read.
fn ask(payload: &Payload, payload_bytes: u64, cli: &Cli) -> Ending {
    let ending = ask_with(payload, payload_bytes, cli);
    // A notification command never outlives the run.
    crate::notify::stop_commands();
    ending
}

fn ask_with(payload: &Payload, payload_bytes: u64, cli: &Cli) -> Ending {
    let flow = Flow::new(payload).with_auto_submit(cli.auto_submit);
    // The signal watch's thread: the terminal front end starts it after its first frame,
    // every other front end now (they may wait: an answers file on a pipe, dialogs).
    if let Some(answers) = &cli.answers {
        let _ = crate::terminal::watch_now();
        let limit = answers_size_limit(payload_bytes, cli.max_payload_bytes);
        return frontend::scripted::answer_from_file(flow, answers, limit);
    }
    if cli.dialogs {
        let _ = crate::terminal::watch_now();
        // No terminal is touched: a signal's restore writes nothing (still quiet).
        let timeout = cli.timeout.filter(|t| !t.is_zero());
        // The questions may be answered from elsewhere too (docs/elsewhere.md).
        let channel = open_channel(payload, payload_bytes, &ChannelArgs::of(cli), &mut |line| {
            say(&line)
        });
        return frontend::dialogs::ask(flow, timeout, cli.max_payload_bytes, channel);
    }
    if cli.no_input || cli.no_input_reason.is_some() {
        // The caller's reason when it gave one (pi's extension: "pi is running in json mode").
        let why = cli.no_input_reason.as_deref().map(str::trim);
        let why = why.filter(|w| !w.is_empty());
        return Ending::NoUi(why.unwrap_or("pi-ask was run with --no-input").to_string());
    }
    if !terminal_available() {
        return Ending::NoUi("no interactive terminal is available".to_string());
    }
    let mut opts = AskOptions {
        cwd: cli
            .cwd
            .clone()
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_else(|| ".".into()),
        context: None,
        notify: crate::notify::Settings::new(
            cli.notify.clone().map(|c| c.0),
            cli.no_bell,
            cli.notify_command.clone(),
        )
        .unwrap_or_default(),
        timeout: cli.timeout.filter(|t| !t.is_zero()),
        placement: match cli.screen {
            crate::cli::ScreenArg::Inline => frontend::tty::Placement::Inline,
            crate::cli::ScreenArg::Full => frontend::tty::Placement::Full,
        },
        colour: colour_for_the_terminal(),
        leave_nothing: cli.no_transcript,
        key_grace: cli.key_grace.unwrap_or(frontend::grace::DEFAULT),
        above: None,
        channel: None,
        open_channel: None,
    };
    if let Some(ms) = cli.escape_delay {
        crate::keys::set_escape_delay(ms);
    }
    // One run at a time on a terminal; the modes saved are the terminal's own, not another
    // run's raw mode (docs/interactive.md). Waiting counts as a time with no key; without a
    // timeout it is bounded all the same.
    let busy = cli.terminal_wait.unwrap_or(crate::terminal::TERMINAL_WAIT);
    match crate::terminal::claim_terminal(opts.timeout, busy) {
        Claim::Held => {}
        Claim::TimedOut => {
            let idle = opts.timeout.unwrap_or_default();
            return Ending::TimedOut {
                answers: crate::answers::AnswerState::new(payload),
                why: result::timeout_message(idle),
            };
        }
        Claim::Busy(why) => return Ending::TerminalBusy(why),
        Claim::Dismissed => return Ending::Dismissed,
        Claim::Interrupted => return Ending::Interrupted,
    }
    crate::terminal::save_modes();
    let term = std::env::var("TERM").ok();
    let plain = frontend::wants_plain(cli.plain, term.as_deref());
    // The questions may be answered from elsewhere while they are up (docs/elsewhere.md). The
    // terminal front end opens the channel once its first frame is up, and what went wrong
    // is said once the terminal is the shell's again; `--print-answer-socket` says its line
    // before the questions are drawn, and plain mode needs no such wait.
    let unsaid = Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    if plain || cli.print_answer_socket {
        opts.channel = open_channel(payload, payload_bytes, &ChannelArgs::of(cli), &mut |line| {
            say(&line)
        });
    } else {
        let (unsaid, args) = (Arc::clone(&unsaid), ChannelArgs::of(cli));
        opts.open_channel = Some(frontend::ChannelOpener(Arc::new(move |payload| {
            let mut later = |line| unsaid.lock().map(|mut u| u.push(line)).unwrap_or(());
            open_channel(payload, payload_bytes, &args, &mut later)
        })));
    }
    // Plain mode: restoring the terminal on a signal must not write escape sequences.
    crate::terminal::set_plain(plain);
    crate::terminal::set_quiet(false);
    if keys_piped(cli.payload.as_deref()) {
        say(PIPED_LINES);
    }
    if plain {
        let _ = crate::terminal::watch_now();
        return frontend::plain::ask(flow, &opts);
    }
    // Only the terminal front end shows the context (the peek key): read it now, once the
    // signals are handled, bounded as the payload is (read_context).
    // A file that cannot be used is said on stderr, and the peek says it too (under pi,
    // stderr is a pipe the person does not see).
    let context = cli.context.as_deref().map(|path| {
        read_context(path, cli.max_payload_bytes).unwrap_or_else(|why| {
            let path = path.display().to_string();
            let path = crate::text::for_terminal(&path);
            say(&format!(
                "pi-ask: cannot use --context {path}: {why}; going on without it"
            ));
            crate::ui::words::peek_unusable(&format!("--context {path}: {why}"))
        })
    });
    // The lines above (--above), bounded as the context is; a file that cannot be used is said
    // on stderr and the questions are drawn inline without them.
    let above = match cli.above.as_deref() {
        Some(path) if opts.placement == frontend::tty::Placement::Inline => {
            read_context(path, cli.max_payload_bytes)
                .map_err(|why| {
                    let path = path.display().to_string();
                    let path = crate::text::for_terminal(&path);
                    say(&format!(
                        "pi-ask: cannot use --above {path}: {why}; going on without it"
                    ));
                })
                .ok()
        }
        _ => None,
    };
    let ending = frontend::tty::ask(
        flow,
        &AskOptions {
            context,
            above,
            ..opts
        },
    );
    for line in unsaid
        .lock()
        .map(|mut u| std::mem::take(&mut *u))
        .unwrap_or_default()
    {
        say(&line);
    }
    ending
}

/// What pi-ask says when lines were piped to it for questions asked on the terminal
/// ([`keys_piped`]): one line, within 80 columns.
pub const PIPED_LINES: &str =
    "pi-ask: piped lines are not read; answer here, or pass them with --answers FILE";

/// Whether lines were piped to pi-ask for questions asked on the terminal: the payload comes
/// from a file (`payload`, not `-`) and stdin is a pipe with something to read now
/// (`printf '1\n' | pi-ask q.json`, tried before `--answers`). Nothing is read from it: a
/// loop's pipe (`… | while read f; do pi-ask "$f"; done`) keeps its lines.
fn keys_piped(payload: Option<&Path>) -> bool {
    use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
    use nix::sys::stat::{fstat, SFlag};
    use std::os::fd::AsFd;
    if payload.is_none_or(|p| p == Path::new("-")) {
        return false;
    }
    let stdin = io::stdin();
    let fifo = fstat(stdin.as_fd()).is_ok_and(|st| {
        SFlag::from_bits_truncate(st.st_mode & SFlag::S_IFMT.bits()) == SFlag::S_IFIFO
    });
    if !fifo {
        return false;
    }
    let mut fds = [PollFd::new(stdin.as_fd(), PollFlags::POLLIN)];
    matches!(poll(&mut fds, PollTimeout::ZERO), Ok(n) if n > 0)
        && fds[0]
            .revents()
            .is_some_and(|r| r.contains(PollFlags::POLLIN))
}

/// What the answer channel takes from the command line ([`open_channel`]).
#[derive(Debug, Clone)]
struct ChannelArgs {
    /// `--max-payload-bytes`.
    max_payload_bytes: u64,
    /// `--print-answer-socket`.
    print_answer_socket: bool,
    /// `--answer-socket-file`.
    answer_socket_file: Option<std::path::PathBuf>,
}

impl ChannelArgs {
    fn of(cli: &Cli) -> Self {
        ChannelArgs {
            max_payload_bytes: cli.max_payload_bytes,
            print_answer_socket: cli.print_answer_socket,
            answer_socket_file: cli.answer_socket_file.clone(),
        }
    }
}

/// Opens the answer channel of the questions of `payload` (src/channel.rs), its requests
/// bounded as an answers file is (`answers_size_limit`, plus [`REQUEST_SLACK`]); with
/// `--print-answer-socket`, says its socket and id on stderr as one JSON line
/// (`{"answerSocket": PATH, "answerId": ID}`). One that cannot be opened is said on stderr and
/// the run goes on without it.
fn open_channel(
    payload: &Payload,
    payload_bytes: u64,
    cli: &ChannelArgs,
    say: &mut dyn FnMut(String),
) -> Option<Arc<crate::channel::Channel>> {
    let normalized = serde_json::to_string(payload).unwrap_or_default();
    let id = crate::channel::questionnaire_id(
        &normalized,
        std::process::id(),
        std::time::SystemTime::now(),
    );
    let limit = answers_size_limit(payload_bytes, cli.max_payload_bytes) + REQUEST_SLACK;
    match crate::channel::Channel::open(id, limit, payload) {
        Ok(channel) => {
            let line = crate::output::json_line(&serde_json::json!({
                "answerSocket": channel.socket().to_string_lossy(),
                "answerId": channel.id(),
            }));
            if cli.print_answer_socket {
                say(line.clone());
            }
            if let Some(path) = &cli.answer_socket_file {
                if let Err(e) = write_line_to(path, &line) {
                    let why = crate::contract::without_os_error(&e.to_string()).to_string();
                    let path = path.display().to_string();
                    say(format!(
                        "pi-ask: cannot write --answer-socket-file {}: {}",
                        crate::text::for_terminal(&path),
                        crate::text::for_terminal(&why)
                    ));
                }
            }
            Some(Arc::new(channel))
        }
        Err(e) => {
            let why = crate::contract::without_os_error(&e.to_string()).to_string();
            say(format!(
                "pi-ask: cannot open the answer channel: {}; going on without it",
                crate::text::for_terminal(&why)
            ));
            None
        }
    }
}

/// Refuses an `--answer-socket-file` FILE that is (its links followed: `/dev/stdout`,
/// `/dev/fd/1`) stdout, stdin, the payload's file or the lifeline (`lifeline_fd`), compared
/// by device and inode: the line would go into the result's stream, or be read as the
/// payload or the lifeline's end (docs/elsewhere.md). `/dev/null` is always fine, and so is
/// a FILE not there yet.
///
/// Errors: what FILE is, in words that follow "cannot be used: ".
fn socket_file_apart(
    path: &Path,
    payload: Option<&Path>,
    lifeline_fd: Option<u32>,
) -> Result<(), String> {
    use std::os::unix::fs::MetadataExt;
    let id = |p: &Path| std::fs::metadata(p).ok().map(|m| (m.dev(), m.ino()));
    let Some(file) = id(path) else {
        return Ok(());
    };
    if id(Path::new("/dev/null")) == Some(file) {
        return Ok(());
    }
    let of = crate::lifeline::file_of;
    if of(1) == Some(file) {
        return Err("it is stdout, where the result goes (descriptor 1)".into());
    }
    if of(0) == Some(file) {
        return Err("it is stdin (descriptor 0)".into());
    }
    if payload.is_some_and(|p| p.as_os_str() != "-" && id(p) == Some(file)) {
        return Err("it is the payload's file".into());
    }
    if let Some(fd) = lifeline_fd.and_then(|fd| i32::try_from(fd).ok()) {
        if of(fd) == Some(file) {
            return Err(format!("it is the lifeline (--lifeline-fd {fd})"));
        }
    }
    Ok(())
}

/// Writes `line` and a newline to `path` in one write, without waiting: a FIFO no one reads
/// is refused (`ENXIO`), a full pipe takes what it can. `/dev/fd/N` of a connected socket (a
/// socket pair's end, as Node gives for an extra descriptor; such a path cannot be opened) is
/// sent to. Another path is written by `--output`'s rules for planted links and files
/// (`output::unplanted_target`), opened without following a link.
///
/// Errors: the file cannot be opened or written, or is refused by those rules.
fn write_line_to(path: &Path, line: &str) -> io::Result<()> {
    use nix::sys::socket::{send, MsgFlags};
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let bytes = format!("{line}\n");
    let fd = path
        .to_str()
        .and_then(|p| p.strip_prefix("/dev/fd/"))
        .and_then(|n| n.parse::<std::os::fd::RawFd>().ok())
        .filter(|fd| *fd > 2);
    if let Some(fd) = fd {
        let flags = MsgFlags::MSG_DONTWAIT;
        match send(fd, bytes.as_bytes(), flags) {
            Ok(_) => return Ok(()),
            Err(nix::errno::Errno::ENOTSOCK) => {}
            Err(e) => return Err(e.into()),
        }
    }
    // `/dev/fd/N` (a pipe's end) is a link by nature; any other path by `--output`'s rules
    // for planted links and files, opened without following a link.
    let (at, flags) = if path.starts_with("/dev/fd/") {
        (path.to_path_buf(), nix::fcntl::OFlag::O_NONBLOCK)
    } else {
        let at = crate::output::unplanted_target(path)?;
        (
            at,
            nix::fcntl::OFlag::O_NONBLOCK | nix::fcntl::OFlag::O_NOFOLLOW,
        )
    };
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .custom_flags(flags.bits())
        .open(at)
        .map_err(|e| {
            // A link that ends in a descriptor's pipe or socket (`/dev/stderr`, whose
            // `/proc/self/fd/2` names `pipe:[N]`): it is there, but has no name to open.
            let link = std::fs::symlink_metadata(path).is_ok_and(|m| m.is_symlink());
            if e.kind() == io::ErrorKind::NotFound && link && std::fs::metadata(path).is_ok() {
                io::Error::other(
                    "it is a link to a descriptor's pipe or socket, not to a file: name the \
                     descriptor as /dev/fd/N",
                )
            } else {
                e
            }
        })?;
    file.write_all(bytes.as_bytes())
}

/// What an answer request may have besides its answers document (`id`, `action`, `from`),
/// in bytes.
const REQUEST_SLACK: u64 = 4096;

/// Whether the terminal front end draws in colour (`ui::view::colour_wanted`: NO_COLOR,
/// CLICOLOR, CLICOLOR_FORCE, TERM, and whether /dev/tty is a terminal, not stderr), and in
/// which palette (`ui::view::set_palette`); dialoguer's styles follow console's stderr
/// switch, set here to match.
fn colour_for_the_terminal() -> bool {
    let tty = crate::terminal::open_tty()
        .map(|f| std::io::IsTerminal::is_terminal(&f))
        .unwrap_or(false);
    let env = |name: &str| std::env::var(name).ok();
    let colour = crate::ui::view::colour_wanted(env, tty);
    crate::ui::view::set_palette(crate::ui::view::Palette::of_env(env));
    console::set_colors_enabled_stderr(colour);
    colour
}

/// The text of `--context FILE` for the peek key (docs/interactive.md "Peek"), and of
/// `--above FILE` (docs/interactive.md "Placement"): a regular
/// file of at most `limit` bytes (`--max-payload-bytes`, as the payload), read whole by the
/// bounded reader (`contract::read_at_most`); invalid UTF-8 is replaced.
///
/// The file is opened without blocking (`O_NONBLOCK`: opening a FIFO no one writes to would
/// wait forever) and must be a regular file: a FIFO, a pipe, a socket or a device (such as
/// `/dev/zero`, which never ends) is refused rather than read, so start-up never waits and
/// never grows.
///
/// Errors: why the file cannot be used, in words for the `pi-ask: cannot use --context FILE:
/// …` line ("No such file or directory", "it is a folder", "it is not a regular file (a
/// FIFO, a pipe, a socket or a device)", "it is larger than 4194304 bytes
/// (--max-payload-bytes)").
pub fn read_context(path: &Path, limit: u64) -> Result<String, String> {
    use std::os::unix::fs::OpenOptionsExt;
    let os = |e: io::Error| crate::contract::without_os_error(&e.to_string()).to_string();
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(nix::fcntl::OFlag::O_NONBLOCK.bits())
        .open(path)
        .map_err(os)?;
    let meta = file.metadata().map_err(os)?;
    if meta.is_dir() {
        return Err("it is a folder".to_string());
    }
    if !meta.is_file() {
        return Err("it is not a regular file (a FIFO, a pipe, a socket or a device)".to_string());
    }
    match crate::contract::read_at_most(file, meta.len(), limit).map_err(os)? {
        Some(bytes) => Ok(String::from_utf8_lossy(&bytes).into_owned()),
        None => Err(format!(
            "it is larger than {limit} bytes (--max-payload-bytes)"
        )),
    }
}

/// What a signal's result needs of `payload` (the title and the questions without their
/// options): kept small, so start-up stays fast with huge option lists. The yishan and Claude
/// Code results list the options too.
fn skeleton(payload: &mut Payload, cli: &Cli) -> Payload {
    if matches!(
        cli.result_format,
        ResultFormat::Yishan | ResultFormat::ClaudeCode
    ) {
        return payload.clone();
    }
    // Every question's fields but its options: the options are set aside while it is copied.
    let options: Vec<_> = payload
        .questions
        .iter_mut()
        .map(|q| std::mem::take(&mut q.options))
        .collect();
    let skeleton = payload.clone();
    for (q, options) in payload.questions.iter_mut().zip(options) {
        q.options = options;
    }
    skeleton
}

/// Starts the signal watch for the whole run (docs/exit-codes.md "Signals"): on SIGTERM,
/// SIGHUP or SIGQUIT it writes the `aborted` result, on SIGINT the dismissed one, and exits
/// 128 + the signal number; when the caller's `lifeline` ends, the `terminal_lost` result,
/// exit 1. The result names the questions of the payload in `asked` once it is read (none
/// before). `None` when the handlers cannot be installed (the run goes on
/// without signal handling).
fn watch_signals(
    asked: Arc<Mutex<Option<Payload>>>,
    cli: &Cli,
    lifeline: Option<crate::lifeline::Lifeline>,
) -> Option<crate::terminal::SignalWatch> {
    use crate::terminal::Outside;
    let format = cli.result_format;
    let output = cli.output.clone();
    let on_stdout = output.as_deref().is_none_or(|p| p == Path::new("-"));
    crate::terminal::SignalWatch::start(on_stdout, lifeline, move |outside| {
        let ending = match outside {
            Outside::Signal(signal_hook::consts::SIGINT) => Ending::Interrupted,
            Outside::Signal(signal) => Ending::Aborted { signal },
            Outside::CallerGone(why) => Ending::TerminalLost(why),
        };
        let asked = asked.lock().unwrap_or_else(|e| e.into_inner());
        let (res, code) = result::conclude(&ending, asked.as_ref());
        match write_formatted(&res, format, asked.as_ref(), output.as_deref()) {
            Ok(()) => code.code(),
            // The caller took the result's reader with it: nobody is left to tell.
            Err(_)
                if matches!(ending, Ending::TerminalLost(_))
                    && crate::lifeline::the_results_reader_is_gone(output.as_deref()) =>
            {
                code.code()
            }
            Err(msg) => {
                crate::terminal::say(&format!("pi-ask: {msg}"));
                ExitCode::OutputFailed.code()
            }
        }
    })
    .ok()
}

/// Writes `res` in the caller's result format (`--result-format`, docs/dialects.md): the
/// contract's result as it is, another format as [`formats::render`] gives it. `payload`
/// gives what another format lists besides the answers (options, context). The signal watch
/// and a panic write their results through it too.
///
/// Errors: as [`write_result`].
pub fn write_formatted(
    res: &ToolResult,
    format: ResultFormat,
    payload: Option<&Payload>,
    path: Option<&Path>,
) -> Result<(), String> {
    match format {
        ResultFormat::Contract => write_result(res, path),
        other => write_result(&formats::render(res, other, payload), path),
    }
}

/// How long a run whose terminal went away waits for the hang-up that may follow
/// ([`crate::terminal::await_a_hang_up`]).
const HANG_UP_AFTER_A_LOST_TERMINAL: std::time::Duration = std::time::Duration::from_millis(300);

fn finish(res: &ToolResult, payload: Option<&Payload>, cli: &Cli, code: ExitCode) -> ExitCode {
    // Exactly one writer: a signal may already be writing its own result (src/terminal.rs).
    crate::terminal::claim_result();
    // The write may wait (a FIFO or a pipe read slowly, a slow disk): a signal ends it after
    // its deadline, the temporary file removed (docs/exit-codes.md "Signals").
    let _ = crate::terminal::watch_now();
    match write_formatted(res, cli.result_format, payload, cli.output.as_deref()) {
        Ok(()) => code,
        // The caller's lifeline ended while the result was written, and the caller took the
        // result's reader with it: the run ends as the lifeline's end says, without a word.
        Err(_)
            if crate::terminal::the_caller_is_gone()
                && crate::lifeline::the_results_reader_is_gone(cli.output.as_deref()) =>
        {
            ExitCode::Cancelled
        }
        Err(msg) => {
            crate::terminal::say(&format!("pi-ask: {msg}"));
            ExitCode::OutputFailed
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_key_grace_is_the_default() {
        use clap::Parser;
        for (value, grace) in [
            ("", None),
            ("  ", None),
            ("400", Some(std::time::Duration::from_millis(400))),
        ] {
            let mut cli = Cli::parse_from(["pi-ask", "q.json"]);
            let env = |name: &str| (name == "PI_ASK_KEY_GRACE").then(|| value.into());
            assert_eq!(
                settings_from_environment(&mut cli, |_| false, env),
                Ok(()),
                "{value:?}"
            );
            assert_eq!(cli.key_grace, grace, "{value:?}");
        }
    }

    #[test]
    fn the_context_is_a_regular_file_within_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let ok = dir.path().join("ok.md");
        std::fs::write(&ok, b"I asked \xff because").unwrap();
        assert_eq!(
            read_context(&ok, 100),
            Ok("I asked \u{fffd} because".to_string())
        );
        assert_eq!(
            read_context(&ok, 5),
            Err("it is larger than 5 bytes (--max-payload-bytes)".to_string())
        );
        // /dev/zero never ends: refused before a byte is read (it filled memory).
        let device = "it is not a regular file (a FIFO, a pipe, a socket or a device)";
        assert_eq!(
            read_context(Path::new("/dev/zero"), 100),
            Err(device.to_string())
        );
        let fifo = dir.path().join("fifo");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
        assert_eq!(read_context(&fifo, 100), Err(device.to_string()));
        assert_eq!(
            read_context(dir.path(), 100),
            Err("it is a folder".to_string())
        );
        assert_eq!(
            read_context(&dir.path().join("missing"), 100),
            Err("No such file or directory".to_string())
        );
    }

    #[test]
    fn an_empty_terminal_wait_is_the_default_and_a_bad_one_says_what_0_means() {
        use clap::Parser;
        use std::time::Duration;
        let wait = |value: &str| {
            let mut cli = crate::cli::Cli::try_parse_from(["pi-ask", "q.json"]).unwrap();
            settings_from_environment(
                &mut cli,
                |_| false,
                |name| (name == "PI_ASK_TERMINAL_WAIT").then(|| value.into()),
            )
            .map(|()| cli.terminal_wait)
        };
        assert_eq!(wait(""), Ok(None));
        assert_eq!(wait("  "), Ok(None));
        assert_eq!(wait("0"), Ok(Some(Duration::ZERO)));
        assert_eq!(wait("2.5"), Ok(Some(Duration::from_millis(2500))));
        assert_eq!(
            wait("soon"),
            Err(
                "PI_ASK_TERMINAL_WAIT=\"soon\" cannot be used: \"soon\" is not a number of \
                 seconds or a duration such as 30s or 2m (0: no wait for a holder that does \
                 not ask)"
                    .to_string()
            )
        );
        assert_eq!(
            wait("-1"),
            Err(
                "PI_ASK_TERMINAL_WAIT=\"-1\" cannot be used: \"-1\": the wait is a number \
                 of seconds, 0 or more (0: no wait for a holder that does not ask)"
                    .to_string()
            )
        );
    }
}

//! A pty harness for testing the real `pi-ask` binary as a person would use it.
//!
//! [`Session::spawn`] starts `pi-ask` in a new pseudo-terminal (the pty is its controlling
//! terminal, so `/dev/tty` works, and also its stdin/stdout), with `TERM=xterm-256color`,
//! `NO_COLOR=1`, `PI_ASK_SCREEN=full` (the full-screen layout; tests/inline.rs sets `inline`),
//! `LANG=C.UTF-8` (no `LC_ALL`, `LC_CTYPE`) and an explicit window size. Everything the program draws is parsed by a
//! `vt100` screen, so tests wait for and assert what is on the screen, not raw bytes. The
//! result JSON is read from `--output FILE` (stdout is the pty).
//!
//! Rules for writing tests with it:
//! - send keys with [`Session::send`]; Enter is `"\r"`, Esc `"\x1b"`, Ctrl+C `"\x03"`,
//!   arrows `"\x1b[A"`/`"\x1b[B"`, a bracketed paste `"\x1b[200~a\nb\x1b[201~"`;
//! - after every key that changes the screen, wait for the new render with
//!   [`Session::wait_for`] (text) or [`Session::wait_until`] (any screen condition) before the
//!   next key (Esc especially: an Esc followed at once by another key is read as one unknown
//!   sequence);
//! - every wait has a timeout ([`TIMEOUT`]); on timeout the test panics and prints the screen,
//!   so CI never hangs;
//! - finish with [`Session::finish`]: it waits for the exit and returns the exit code and the
//!   result JSON (`None` when no result was written).
//!
//! The harness answers the terminal's cursor-position query (`ESC [ 6 n`, sent by rustyline)
//! from the vt100 screen, like a real terminal does.
//!
//! A program that writes a stream of lines rather than a screen (plain mode, tests/plain.rs)
//! is tested on the bytes themselves: [`Session::output`] holds every byte written to the
//! terminal (escape sequences included), [`Session::expect`] waits for text in that stream
//! after the previous match (so the same prompt twice takes two `expect`s), and
//! [`Session::wait_eof`] waits for the end of the output and returns the exit status. The
//! pty starts in the kernel's default mode (canonical, echo on), so typed lines are echoed
//! as a terminal does; [`Options::stderr_to_pty`] puts stderr on the terminal too.
//!
//! Keys whose bytes arrive apart (a slow link, ssh) are sent with [`Session::send_split`]:
//! one byte at a time with a gap between them.
//!
//! [`Session::spawn_shell`] starts an interactive `bash` in the pty instead (job control on,
//! prompt `shell$ `, `pi-ask` on its `PATH`, the payload in its working directory as
//! `payload.json`): the test types the command line, e.g.
//! `pi-ask payload.json --output result.json`, and can suspend and resume it as a person
//! would (Ctrl+Z, `fg`). [`Session::finish`] then waits for the shell to exit (send `exit`)
//! and reads `result.json`.
//!
//! Example:
//!
//! ```ignore
//! let mut s = Session::spawn(PAYLOAD, &[]);
//! s.wait_for("1/1 Style");
//! s.send("\r");
//! let (code, result) = s.finish();
//! assert_eq!(code, 0);
//! ```

#![allow(dead_code)]

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long any wait lasts before the test fails.
pub const TIMEOUT: Duration = Duration::from_secs(15);

/// The prompt of [`Session::spawn_shell`]'s shell.
pub const SHELL_PROMPT: &str = "shell$ ";

/// Lines of the main screen's scrollback the vt100 parser keeps (see [`Session::scrollback`]).
const SCROLLBACK: usize = 10_000;

/// Terminal size and extra settings for [`Session::spawn_with`].
#[derive(Debug, Clone)]
pub struct Options {
    /// Rows of the window (default 30).
    pub rows: u16,
    /// Columns of the window (default 100).
    pub cols: u16,
    /// Extra environment variables (after `TERM=xterm-256color` and `NO_COLOR=1`, so they
    /// can override them).
    pub env: Vec<(String, String)>,
    /// Working directory of the child (default: the test's temporary folder).
    pub cwd: Option<PathBuf>,
    /// Send stdout to a file (`stdout.txt` in [`Session::dir`]) instead of the pty and read the
    /// result from there (no `--output`): proves stdout carries only the result JSON.
    pub stdout_to_file: bool,
    /// Environment variables to remove, after the defaults and `env` (e.g. `TERM`, `NO_COLOR`).
    pub env_remove: Vec<String>,
    /// Send stderr to the pty, as a shell does, instead of `stderr.txt` in [`Session::dir`]
    /// (then [`Session::stderr`] is empty and stderr is part of [`Session::output`]).
    pub stderr_to_pty: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            rows: 30,
            cols: 100,
            env: Vec::new(),
            cwd: None,
            stdout_to_file: false,
            env_remove: Vec::new(),
            stderr_to_pty: false,
        }
    }
}

/// A running `pi-ask` in a pty.
pub struct Session {
    child: Child,
    master: File,
    screen: Arc<Mutex<vt100::Parser>>,
    /// Every byte read from the pty, in order (see [`Session::output`]).
    raw: Arc<Mutex<Vec<u8>>>,
    /// How far [`Session::expect`] has matched in `raw`.
    expected_to: usize,
    dir: tempfile::TempDir,
    output: PathBuf,
    reader: Option<std::thread::JoinHandle<()>>,
    /// While set, the reader takes nothing more from the pty ([`Session::stop_reading`]).
    paused: Arc<std::sync::atomic::AtomicBool>,
}

impl Session {
    /// Spawns `pi-ask PAYLOAD_FILE --output RESULT_FILE ARGS...` in a 30x100 pty, with the
    /// payload text written to a temporary file.
    pub fn spawn(payload: &str, args: &[&str]) -> Session {
        Session::spawn_with(payload, args, Options::default())
    }

    /// [`Session::spawn`] with a chosen window size and environment.
    pub fn spawn_with(payload: &str, args: &[&str], opts: Options) -> Session {
        let dir = tempfile::tempdir().expect("temp dir");
        let payload_path = dir.path().join("payload.json");
        std::fs::write(&payload_path, payload).expect("write payload");
        let output = if opts.stdout_to_file {
            dir.path().join("stdout.txt")
        } else {
            dir.path().join("result.json")
        };
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_pi-ask"));
        cmd.arg(&payload_path);
        if !opts.stdout_to_file {
            cmd.arg("--output").arg(&output);
        }
        cmd.args(args);
        Session::spawn_command(cmd, dir, output, opts)
    }

    /// Spawns any prepared `cmd` in a pty the way [`Session::spawn_with`] spawns pi-ask (its
    /// own session with the pty as controlling terminal, `TERM=xterm-256color`, `NO_COLOR=1`,
    /// no `PI_ASK_ANSWERS` nor `PI_ASK_TIMEOUT`, `PI_ASK_KEY_GRACE=0`, stderr in `dir/stderr.txt` unless [`Options::stderr_to_pty`],
    /// working directory `opts.cwd` or `dir`).
    /// [`Session::finish`] reads the result from `output`. Used to run pi itself
    /// (tests/pi_extension.rs) and pi-ask behind a shell redirection (tests/plain.rs).
    pub fn spawn_command(
        mut cmd: Command,
        dir: tempfile::TempDir,
        output: PathBuf,
        opts: Options,
    ) -> Session {
        let stderr = File::create(dir.path().join("stderr.txt")).expect("stderr file");
        let (master, slave) = open_pty(opts.rows, opts.cols);
        cmd.env("TERM", "xterm-256color")
            .env("NO_COLOR", "1")
            // The tests written for the full-screen layout keep it; the inline placement's
            // tests (tests/inline.rs) set PI_ASK_SCREEN=inline.
            .env("PI_ASK_SCREEN", "full")
            // A UTF-8 terminal whatever the machine's locale (tests/text.rs sets LC_ALL=C).
            .env("LANG", "C.UTF-8")
            // Keys typed right after the first frame act at once (the grace of the first
            // question is off); the grace's own tests (tests/grace.rs) set it.
            .env("PI_ASK_KEY_GRACE", "0")
            .env_remove("LC_ALL")
            .env_remove("LC_CTYPE")
            .env_remove("PI_ASK_ANSWERS")
            .env_remove("PI_ASK_TIMEOUT")
            .env_remove("COLUMNS")
            .env_remove("LINES")
            .current_dir(opts.cwd.as_deref().unwrap_or(dir.path()));
        for (k, v) in &opts.env {
            cmd.env(k, v);
        }
        for k in &opts.env_remove {
            cmd.env_remove(k);
        }
        // Its own session with the pty as controlling terminal: util-linux's `setsid --ctty`
        // (not a process group leader here, it execs the program itself, so the pid is the
        // program's).
        let mut session = Command::new("setsid");
        session
            .arg("--ctty")
            .arg(cmd.get_program())
            .args(cmd.get_args());
        for (key, value) in cmd.get_envs() {
            match value {
                Some(value) => session.env(key, value),
                None => session.env_remove(key),
            };
        }
        if let Some(dir) = cmd.get_current_dir() {
            session.current_dir(dir);
        }
        let child = session
            .stdin(Stdio::from(slave.try_clone().expect("dup slave")))
            .stdout(if opts.stdout_to_file {
                Stdio::from(File::create(&output).expect("stdout file"))
            } else {
                Stdio::from(slave.try_clone().expect("dup slave"))
            })
            .stderr(if opts.stderr_to_pty {
                Stdio::from(slave.try_clone().expect("dup slave"))
            } else {
                Stdio::from(stderr)
            })
            .spawn()
            .expect("spawn the program in a pty");
        // Close every copy of the slave here, so reads on the master end when the child exits.
        drop(cmd);
        drop(slave);

        let master = File::from(master);
        let screen = Arc::new(Mutex::new(vt100::Parser::new(
            std::num::NonZeroU16::new(opts.rows.max(1)).unwrap(),
            std::num::NonZeroU16::new(opts.cols.max(1)).unwrap(),
            SCROLLBACK,
        )));
        let raw = Arc::new(Mutex::new(Vec::new()));
        let paused = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let reader = {
            let paused = Arc::clone(&paused);
            let mut read = master.try_clone().expect("dup master");
            let mut answer = master.try_clone().expect("dup master");
            let screen = Arc::clone(&screen);
            let raw = Arc::clone(&raw);
            std::thread::spawn(move || {
                let mut buf = [0u8; 8192];
                let mut tail: Vec<u8> = Vec::new();
                loop {
                    while paused.load(std::sync::atomic::Ordering::SeqCst) {
                        std::thread::sleep(Duration::from_millis(5));
                    }
                    // EOF, or EIO on Linux: every copy of the slave is closed.
                    let n = match read.read(&mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => n,
                    };
                    raw.lock().unwrap().extend_from_slice(&buf[..n]);
                    // Feed the screen, answering cursor-position queries in order.
                    let mut data = std::mem::take(&mut tail);
                    data.extend_from_slice(&buf[..n]);
                    let mut start = 0;
                    let mut i = 0;
                    while i < data.len() {
                        if data[i..].starts_with(b"\x1b[6n") {
                            let mut p = screen.lock().unwrap();
                            p.process(&data[start..i]);
                            let (row, col) = p.screen().cursor_position();
                            drop(p);
                            let _ = write!(answer, "\x1b[{};{}R", row + 1, col + 1);
                            i += 4;
                            start = i;
                        } else {
                            i += 1;
                        }
                    }
                    // Keep a possibly split query for the next read.
                    let keep = ["\x1b[6", "\x1b[", "\x1b"]
                        .iter()
                        .find(|q| data[start..].ends_with(q.as_bytes()))
                        .map_or(0, |q| q.len());
                    screen
                        .lock()
                        .unwrap()
                        .process(&data[start..data.len() - keep]);
                    tail = data[data.len() - keep..].to_vec();
                }
            })
        };
        Session {
            child,
            master,
            screen,
            raw,
            expected_to: 0,
            dir,
            output,
            reader: Some(reader),
            paused,
        }
    }

    /// Stops taking the program's output, as a stalled ssh link or a frozen console does:
    /// once the pty's buffer is full, the program's writes to the terminal block. (One read
    /// already waiting may still take a last chunk.) [`Session::resume_reading`] undoes it.
    pub fn stop_reading(&mut self) {
        self.paused.store(true, std::sync::atomic::Ordering::SeqCst);
    }

    /// Whether the program has exited (without reaping it for [`Session::finish`]).
    pub fn exited(&mut self) -> bool {
        let pid = nix::unistd::Pid::from_raw(self.pid());
        let flags = nix::sys::wait::WaitPidFlag::WNOHANG
            | nix::sys::wait::WaitPidFlag::WNOWAIT
            | nix::sys::wait::WaitPidFlag::WEXITED;
        matches!(
            nix::sys::wait::waitid(nix::sys::wait::Id::Pid(pid), flags),
            Ok(status) if status != nix::sys::wait::WaitStatus::StillAlive
        )
    }

    /// Whether the result file (`--output`) has been written.
    pub fn output_file_written(&self) -> bool {
        std::fs::metadata(&self.output).is_ok_and(|m| m.len() > 0)
    }

    /// Takes the program's output again after [`Session::stop_reading`].
    pub fn resume_reading(&mut self) {
        self.paused
            .store(false, std::sync::atomic::Ordering::SeqCst);
    }

    /// Spawns an interactive shell (`bash --noprofile --norc -i`) in a pty of `opts`' size,
    /// in a temporary folder that holds `payload` as `payload.json`, with the prompt
    /// [`SHELL_PROMPT`], the folder of the `pi-ask` under test first on `PATH`, and its
    /// history kept in the folder. [`Session::finish`] reads the result from `result.json`
    /// there, so type `pi-ask payload.json --output result.json`. Job control is on (the pty
    /// is the shell's controlling terminal), so Ctrl+Z and `fg` work as in a terminal.
    pub fn spawn_shell(payload: &str, mut opts: Options) -> Session {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("payload.json"), payload).expect("write payload");
        let output = dir.path().join("result.json");
        let bin = Path::new(env!("CARGO_BIN_EXE_pi-ask"))
            .parent()
            .expect("the binary's folder");
        let path = match std::env::var_os("PATH") {
            Some(p) => format!("{}:{}", bin.display(), p.to_string_lossy()),
            None => bin.display().to_string(),
        };
        let history = dir.path().join(".bash_history");
        opts.env.splice(
            0..0,
            [
                ("PATH".to_string(), path),
                ("PS1".to_string(), SHELL_PROMPT.to_string()),
                ("HISTFILE".to_string(), history.display().to_string()),
            ],
        );
        opts.stderr_to_pty = true;
        let mut cmd = Command::new("bash");
        cmd.args(["--noprofile", "--norc", "-i"]);
        Session::spawn_command(cmd, dir, output, opts)
    }

    /// The child's process id.
    pub fn pid(&self) -> i32 {
        self.child.id() as i32
    }

    /// The temporary folder (holds payload.json, result.json, stderr.txt).
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// Sends keys (raw bytes) to the program.
    pub fn send(&mut self, keys: &str) {
        self.master
            .write_all(keys.as_bytes())
            .expect("write to pty");
        self.master.flush().expect("flush pty");
    }

    /// Whether the terminal is in canonical mode with echo, as a shell leaves it (read from
    /// the pty's master, which shares the terminal's modes on Linux).
    pub fn cooked(&self) -> bool {
        use nix::sys::termios::{tcgetattr, LocalFlags};
        let modes = tcgetattr(&self.master).expect("the pty's modes");
        modes
            .local_flags
            .contains(LocalFlags::ICANON | LocalFlags::ECHO)
    }

    /// Sends bytes that need not be UTF-8 (a Latin-1 terminal's `é` is `0xE9`).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.master.write_all(bytes).expect("write to pty");
        self.master.flush().expect("flush pty");
    }

    /// Sends `keys` one byte at a time, `gap` apart (as a slow link or ssh delivers an
    /// escape sequence). Returns the longest time two bytes may really have been apart (from
    /// before one write to after the next, so a thread preempted around a write counts), for a
    /// test to tell a stalled machine from a bug.
    pub fn send_split(&mut self, keys: &str, gap: Duration) -> Duration {
        let mut longest = Duration::ZERO;
        let mut previous: Option<Instant> = None;
        for byte in keys.as_bytes() {
            if previous.is_some() {
                std::thread::sleep(gap);
            }
            let before = Instant::now();
            self.master.write_all(&[*byte]).expect("write to pty");
            self.master.flush().expect("flush pty");
            if let Some(previous) = previous {
                longest = longest.max(previous.elapsed());
            }
            previous = Some(before);
        }
        longest
    }

    /// Sends a signal (e.g. `libc::SIGTERM`) to the program.
    pub fn signal(&self, signal: i32) {
        let signal = nix::sys::signal::Signal::try_from(signal).expect("a signal number");
        let _ = nix::sys::signal::kill(nix::unistd::Pid::from_raw(self.pid()), signal);
    }

    /// The screen's text now (rows joined by newlines, trailing spaces trimmed).
    ///
    /// As vt100's `contents`, but a row's last cell is left out when it is a reverse-video
    /// space after the text: an editor's cursor at the end of its text, no text a person reads.
    pub fn screen(&self) -> String {
        let p = self.screen.lock().unwrap();
        let screen = p.screen();
        let (_, cols) = screen.size();
        let mut out = String::new();
        let mut wrapping = false;
        for (i, row) in screen.rows(0, cols.into()).enumerate() {
            let i = u16::try_from(i).expect("rows fit u16");
            let wrapped = screen.row_wrapped(i);
            let last = (0..cols.get()).rev().find_map(|c| {
                screen
                    .cell(i, c)
                    .filter(|cell| cell.has_contents())
                    .map(|cell| (cell.contents() == " " && cell.inverse()).then_some(()))
            });
            let row = match last {
                Some(Some(())) => row.strip_suffix(' ').unwrap_or(&row).to_string(),
                _ => row,
            };
            if row.is_empty() && wrapping {
                out.push('\n');
            }
            out.push_str(&row);
            if !wrapped {
                out.push('\n');
            }
            wrapping = wrapped;
        }
        while out.ends_with('\n') {
            out.pop();
        }
        out
    }

    /// The screen's rows as the terminal shows them (a wrapped line is two rows), trailing
    /// spaces trimmed.
    pub fn rows(&self) -> Vec<String> {
        let p = self.screen.lock().unwrap();
        let (_, cols) = p.screen().size();
        p.screen()
            .rows(0, cols.into())
            .map(|r| r.trim_end().to_string())
            .collect()
    }

    /// The lines that scrolled off the top of the main (not alternate) screen, oldest first,
    /// trailing spaces trimmed. A flow drawn on the alternate screen leaves none.
    pub fn scrollback(&self) -> Vec<String> {
        let mut p = self.screen.lock().unwrap();
        let screen = p.screen_mut();
        screen.set_scrollback(usize::MAX);
        let len = screen.scrollback();
        let (rows, cols) = screen.size();
        let mut lines = Vec::new();
        // Each view offset shows `rows` lines starting `offset` lines back.
        let mut offset = len;
        while offset > 0 {
            screen.set_scrollback(offset);
            let take = offset.min(usize::from(rows.get()));
            for row in screen.rows(0, cols.get()).take(take) {
                lines.push(row.trim_end().to_string());
            }
            offset -= take;
        }
        screen.set_scrollback(0);
        lines
    }

    /// Resizes the window to `rows` x `cols` (the program gets SIGWINCH) and the screen the
    /// harness parses with it.
    pub fn set_window_size(&mut self, rows: u16, cols: u16) {
        self.screen.lock().unwrap().screen_mut().set_size(
            std::num::NonZeroU16::new(rows.max(1)).unwrap(),
            std::num::NonZeroU16::new(cols.max(1)).unwrap(),
        );
        let size = rustix::termios::Winsize {
            ws_row: rows,
            ws_col: cols,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        rustix::termios::tcsetwinsize(&self.master, size).expect("TIOCSWINSZ");
    }

    /// Whether the terminal's cursor is visible now.
    pub fn cursor_visible(&self) -> bool {
        !self.screen.lock().unwrap().screen().hide_cursor()
    }

    /// Whether the terminal reports the mouse now (any of `?1000h`, `?1002h`, `?1003h`) or
    /// sends its cursor keys in application mode (`?1h`).
    pub fn mouse_or_application_cursor(&self) -> (bool, bool) {
        let parser = self.screen.lock().unwrap();
        let screen = parser.screen();
        (
            screen.mouse_protocol_mode() != vt100::MouseProtocolMode::None,
            screen.application_cursor(),
        )
    }

    /// Whether the alternate screen is active now.
    pub fn alternate_screen(&self) -> bool {
        self.screen.lock().unwrap().screen().alternate_screen()
    }

    /// Waits until `text` is on the screen; returns the screen. Panics (showing the screen)
    /// after [`TIMEOUT`].
    pub fn wait_for(&mut self, text: &str) -> String {
        self.wait_until(&format!("{text:?} on screen"), |s| s.contains(text))
    }

    /// Waits until every one of `texts` is on the screen at once (e.g. a screen's first and
    /// last line, so the whole screen has been drawn); returns the screen.
    pub fn wait_all(&mut self, texts: &[&str]) -> String {
        self.wait_until(&format!("all of {texts:?} on screen"), |s| {
            texts.iter().all(|t| s.contains(t))
        })
    }

    /// Waits until `text` is no longer on the screen; returns the screen.
    pub fn wait_gone(&mut self, text: &str) -> String {
        self.wait_until(&format!("{text:?} gone"), |s| !s.contains(text))
    }

    /// Waits until `ok(screen text)` holds; returns the screen. Panics (showing `what` and
    /// the screen) after [`TIMEOUT`].
    pub fn wait_until(&mut self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if ok(&screen) {
                return screen;
            }
            if start.elapsed() > TIMEOUT {
                let _ = self.child.kill();
                panic!(
                    "timed out waiting for {what}; screen:\n{screen}\n--- stderr:\n{}",
                    self.stderr()
                );
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                // Let the reader drain the last output before the final check.
                std::thread::sleep(Duration::from_millis(50));
                let screen = self.screen();
                if ok(&screen) {
                    return screen;
                }
                panic!(
                    "the program exited ({status}) while waiting for {what}; screen:\n{screen}\n--- stderr:\n{}",
                    self.stderr()
                );
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Everything the program has written to the terminal so far, byte for byte (escape
    /// sequences included: the stream before the screen parses it).
    pub fn output(&self) -> Vec<u8> {
        self.raw.lock().unwrap().clone()
    }

    /// [`Session::output`] as text (invalid UTF-8 replaced), for messages.
    pub fn output_text(&self) -> String {
        String::from_utf8_lossy(&self.raw.lock().unwrap()).into_owned()
    }

    /// Waits until `text` is in the output after the end of the previous `expect`'s match
    /// and moves past it, as expect(1) does: a prompt drawn again after an error needs a
    /// second `expect`. For programs that write a stream of lines (plain mode). Panics
    /// (showing the output) after [`TIMEOUT`] or when the output ends first.
    pub fn expect(&mut self, text: &str) {
        let needle = text.as_bytes();
        let start = Instant::now();
        loop {
            // Read before searching: an end seen here means the search saw every byte.
            let ended = self.reader.as_ref().is_none_or(|r| r.is_finished());
            let found = {
                let raw = self.raw.lock().unwrap();
                raw[self.expected_to..]
                    .windows(needle.len().max(1))
                    .position(|w| w == needle)
                    .map(|at| self.expected_to + at + needle.len())
            };
            if let Some(end) = found {
                self.expected_to = end;
                return;
            }
            if ended || start.elapsed() > TIMEOUT {
                let _ = self.child.kill();
                let why = if ended {
                    "the output ended"
                } else {
                    "timed out"
                };
                panic!(
                    "{why} waiting for {text:?}; output so far:\n{}\n--- stderr:\n{}",
                    self.output_text(),
                    self.stderr()
                );
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Waits for the end of the output (the pty's slave closed: the program, and anything it
    /// started on the terminal, exited), then for the program's exit; returns its status.
    /// Kills it and panics after [`TIMEOUT`].
    pub fn wait_eof(&mut self) -> std::process::ExitStatus {
        let start = Instant::now();
        if let Some(reader) = self.reader.take() {
            while !reader.is_finished() {
                if start.elapsed() > TIMEOUT {
                    let _ = self.child.kill();
                    panic!(
                        "timed out waiting for the end of the output; output so far:\n{}\n--- stderr:\n{}",
                        self.output_text(),
                        self.stderr()
                    );
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            reader.join().expect("the pty reader");
        }
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status;
            }
            if start.elapsed() > TIMEOUT {
                let _ = self.child.kill();
                panic!("the program closed the terminal but did not exit");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// What the program wrote on stderr so far.
    pub fn stderr(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("stderr.txt")).unwrap_or_default()
    }

    /// Waits for the program to exit (killing it after [`TIMEOUT`] and panicking); returns
    /// the exit code and the result JSON from `--output`, if one was written.
    pub fn finish(&mut self) -> (i32, Option<serde_json::Value>) {
        let start = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                break status;
            }
            if start.elapsed() > TIMEOUT {
                let _ = self.child.kill();
                panic!(
                    "the program did not exit; screen:\n{}\n--- stderr:\n{}",
                    self.screen(),
                    self.stderr()
                );
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        // The reader ends when the pty closes; give it the last bytes.
        if let Some(reader) = self.reader.take() {
            let deadline = Instant::now() + Duration::from_secs(2);
            while !reader.is_finished() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(10));
            }
        }
        let result = std::fs::read_to_string(&self.output)
            .ok()
            .map(|s| serde_json::from_str(&s).expect("result is JSON"));
        (status.code().unwrap_or(-1), result)
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Opens a pty pair with the given window size: (master, slave). Both are made close-on-exec
/// right away: the child gets the slave only as its stdio, and processes that other tests of
/// this binary spawn meanwhile get neither (a stray copy of the slave would hold the output
/// open past the child's exit, and [`Session::wait_eof`] would wait for that process too).
/// openpty has no close-on-exec flag, so a spawn in the instants between the two calls can
/// still inherit them.
fn open_pty(rows: u16, cols: u16) -> (OwnedFd, File) {
    let ws = nix::pty::Winsize {
        ws_row: rows,
        ws_col: cols,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    let pty = nix::pty::openpty(Some(&ws), None).expect("openpty");
    for fd in [&pty.master, &pty.slave] {
        nix::fcntl::fcntl(
            fd,
            nix::fcntl::FcntlArg::F_SETFD(nix::fcntl::FdFlag::FD_CLOEXEC),
        )
        .expect("close-on-exec");
    }
    (pty.master, File::from(pty.slave))
}

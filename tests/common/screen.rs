//! Real GNU screen for the tests where its own behaviour matters (no rewrap, an 8-bit terminal
//! under `LANG=C`, its `quit`): one detached session per test, no configuration file.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Whether GNU screen is installed; without it a test is skipped (`who` says which, on
/// stderr), and in CI (`CI` set) it fails instead: CI installs it (`.ci/run`).
pub fn screen_available(who: &str) -> bool {
    super::installed("screen", "--version", who)
}

/// A detached screen session, quit when dropped.
pub struct Screen {
    name: String,
    /// Where its hardcopies go.
    copy: PathBuf,
    /// The environment screen runs with (`LANG=C` makes it an 8-bit terminal).
    env: Vec<(String, String)>,
}

impl Screen {
    /// Starts session `name` running `command` (its arguments), with an empty configuration
    /// file in `dir` and `env` set for screen itself; `utf8`: `-U`.
    pub fn start(
        name: &str,
        dir: &Path,
        utf8: bool,
        env: &[(&str, &str)],
        command: &[&str],
    ) -> Screen {
        let rc = dir.join("screenrc");
        std::fs::write(&rc, "").unwrap();
        let screen = Screen {
            name: name.to_string(),
            copy: dir.join("copy.txt"),
            env: env
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        };
        let mut args = vec!["-c", rc.to_str().unwrap(), "-d", "-m"];
        if utf8 {
            args.insert(0, "-U");
        }
        args.extend_from_slice(command);
        screen.run(&args);
        screen
    }

    /// `screen -S NAME ARGS`.
    pub fn run(&self, args: &[&str]) {
        let mut cmd = Command::new("screen");
        // Keys typed right after the first frame act at once (the grace is off).
        cmd.env("PI_ASK_KEY_GRACE", "0");
        for (k, v) in &self.env {
            cmd.env(k, v);
        }
        if self.env.iter().any(|(k, _)| k == "LANG") {
            cmd.env_remove("LC_ALL").env_remove("LC_CTYPE");
        }
        cmd.args(["-S", &self.name])
            .args(args)
            .status()
            .expect("screen runs");
    }

    /// Types `text` into the session.
    pub fn stuff(&self, text: &str) {
        self.run(&["-X", "stuff", text]);
    }

    /// What the window shows (with `history`: its scrollback too), as screen writes it: in its
    /// own encoding, read lossily (the ASCII of it is what counts).
    pub fn hardcopy(&self, history: bool) -> String {
        let _ = std::fs::remove_file(&self.copy);
        let copy = self.copy.to_str().unwrap();
        if history {
            self.run(&["-X", "hardcopy", "-h", copy]);
        } else {
            self.run(&["-X", "hardcopy", copy]);
        }
        std::thread::sleep(Duration::from_millis(100));
        String::from_utf8_lossy(&std::fs::read(&self.copy).unwrap_or_default()).into_owned()
    }

    /// Polls [`Screen::hardcopy`] until `ok` holds of it (15 s at most).
    pub fn wait(&self, what: &str, history: bool, ok: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let text = self.hardcopy(history);
            if ok(&text) {
                return text;
            }
            assert!(
                start.elapsed() < Duration::from_secs(15),
                "timed out waiting for {what}:\n{text}"
            );
        }
    }

    /// Quits the session (its processes get SIGHUP).
    pub fn quit(&self) {
        self.run(&["-X", "quit"]);
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        let _ = Command::new("screen")
            .args(["-S", &self.name, "-X", "quit"])
            .output();
    }
}

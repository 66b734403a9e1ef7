//! Real tmux for the tests where a terminal's own behaviour matters (rewrap on resize, its
//! history): `tmux -L SOCKET -f /dev/null`, one server per test.

/// Whether tmux is installed; without it a test is skipped (`who` says which, on stderr), and in
/// CI (`CI` set) it fails instead: CI installs tmux (`.ci/run`).
pub fn tmux_available(who: &str) -> bool {
    super::installed("tmux", "-V", who)
}

/// Runs `tmux -L socket ARGS` and returns its stdout.
///
/// The server it starts hands `PI_ASK_KEY_GRACE=0` to what runs in it: keys typed right after
/// the first frame act at once (the grace of the first question is off).
pub fn tmux(socket: &str, args: &[&str]) -> String {
    let out = std::process::Command::new("tmux")
        .env("PI_ASK_KEY_GRACE", "0")
        .args(["-L", socket, "-f", "/dev/null"])
        .args(args)
        .output()
        .expect("tmux runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Starts session `t` on `socket`: a `cols` x `rows` window running `command`, its size kept
/// as set (`window-size manual`, so `resize-window` holds).
pub fn tmux_session(socket: &str, cols: u16, rows: u16, command: &str) {
    let (x, y) = (cols.to_string(), rows.to_string());
    tmux(
        socket,
        &["new-session", "-d", "-x", &x, "-y", &y, "-s", "t", command],
    );
    tmux(socket, &["set", "-g", "window-size", "manual"]);
}

/// The pane's whole history (scrollback and screen), once `ok` holds. On a timeout the server
/// is killed before the test fails, so no tmux (and no pi-ask waiting in it) outlives it.
pub fn tmux_wait(socket: &str, what: &str, ok: impl Fn(&str) -> bool) -> String {
    let start = std::time::Instant::now();
    loop {
        let pane = tmux(socket, &["capture-pane", "-p", "-S", "-", "-t", "t"]);
        if ok(&pane) {
            return pane;
        }
        if start.elapsed() >= std::time::Duration::from_secs(15) {
            tmux(socket, &["kill-server"]);
            panic!("timed out waiting for {what}:\n{pane}");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

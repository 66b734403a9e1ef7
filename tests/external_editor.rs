//! Ctrl+G in an editor: the draft in `$VISUAL` / `$EDITOR` (docs/interactive.md "The line
//! editor"), in a pty with a real program as the editor.

use crate::common::pty::{Options, Session};
use serde_json::json;

const PREFS: &str = include_str!("../examples/implementation-preferences.json");

/// An executable shell script `name` in `dir` with `body` after its `#!/bin/sh` line.
fn script(dir: &std::path::Path, name: &str, body: &str) -> std::path::PathBuf {
    let script = dir.join(name);
    std::fs::write(&script, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::process::Command::new("chmod")
        .args(["+x", script.to_str().unwrap()])
        .status()
        .unwrap();
    script
}

/// pi-ask on the preferences payload at 100x24, inline, with `$EDITOR` the recording editor
/// in `dir` (and no `$VISUAL`): it records the file it was given (its path, mode and text) in
/// `dir`, then writes two lines into it.
fn with_recording_editor(dir: &std::path::Path) -> Session {
    let body = format!(
        "printf '%s' \"$1\" > '{d}/path'\nstat -c %a \"$1\" > '{d}/mode'\ncat \"$1\" > '{d}/draft'\nprintf 'first line\\nsecond line\\n' > \"$1\"",
        d = dir.display()
    );
    with_editor(&script(dir, "editor.sh", &body))
}

/// pi-ask on the preferences payload at 100x24, inline, with `$EDITOR` the program `script`
/// (and no `$VISUAL`).
fn with_editor(script: &std::path::Path) -> Session {
    let mut opts = Options {
        rows: 24,
        cols: 100,
        env: vec![
            ("PI_ASK_SCREEN".into(), "inline".into()),
            ("EDITOR".into(), script.display().to_string()),
        ],
        ..Options::default()
    };
    opts.env_remove.push("VISUAL".into());
    Session::spawn_with(PREFS, &[], opts)
}

#[test]
fn ctrl_g_writes_the_answer_in_the_editor_on_a_private_file_removed_after() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = with_recording_editor(dir.path());
    s.wait_for("? keys");
    s.send("4");
    s.wait_for("Type your own · Enter submit · Esc close · ^G editor");
    s.send("dra");
    s.wait_for("> dra");
    s.send("\x07");
    // The editor's text is the answer, saved as Enter saves it: the next question.
    let result = submitted_from_the_second_question(&mut s);
    assert_eq!(
        result["details"]["answers"]["style"],
        json!({"values": ["first line\nsecond line"], "labels": ["first line\nsecond line"],
               "indices": [], "customText": "first line\nsecond line"})
    );
    let read = |name: &str| std::fs::read_to_string(dir.path().join(name)).unwrap();
    assert_eq!(read("draft"), "dra");
    assert_eq!(read("mode").trim(), "600");
    assert!(
        !std::path::Path::new(&read("path")).exists(),
        "the file is left"
    );
}

#[test]
fn ctrl_g_without_an_editor_says_so_and_keeps_the_draft() {
    let mut opts = Options {
        rows: 24,
        cols: 100,
        env: vec![("PI_ASK_SCREEN".into(), "inline".into())],
        ..Options::default()
    };
    opts.env_remove.extend(["VISUAL".into(), "EDITOR".into()]);
    let mut s = Session::spawn_with(PREFS, &[], opts);
    s.wait_for("? keys");
    s.send("4");
    s.wait_for("Type your own · Enter submit · Esc close\n");
    s.send("dra\x07");
    the_draft_is_kept_and_submitted(
        &mut s,
        "Type your own · Ctrl+G: set $VISUAL or $EDITOR to write this in your editor",
    );
}

/// After Ctrl+G on the draft `dra`: the editor's hint says `notice`, the draft is there, and
/// `ft` Enter then Submit give the answer `draft`.
fn the_draft_is_kept_and_submitted(s: &mut Session, notice: &str) {
    s.wait_for(notice);
    s.wait_for("> dra");
    s.send("ft\r");
    let result = submitted_from_the_second_question(s);
    assert_eq!(result["details"]["answers"]["style"]["customText"], "draft");
}

/// At the second question (once it shows): Tab to the review, Submit; the result (exit 0).
fn submitted_from_the_second_question(s: &mut Session) -> serde_json::Value {
    s.wait_for("2/2 Frontend");
    s.send("\t");
    s.wait_for("1. Submit");
    s.send("\r");
    let (code, result) = s.finish();
    assert_eq!(code, 0);
    result.expect("a result")
}

#[test]
fn ctrl_g_hands_a_folded_paste_to_the_editor_whole() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = with_recording_editor(dir.path());
    s.wait_for("? keys");
    s.send("4");
    s.wait_for("^G editor");
    let seq: Vec<String> = (1..=40).map(|i| i.to_string()).collect();
    s.send(&format!("a \x1b[200~{}\x1b[201~ b", seq.join("\r")));
    s.wait_for("> a [paste #1 +40 lines] b");
    s.send("\x07");
    s.wait_for("2/2 Frontend");
    s.send("\x03");
    let _ = s.finish();
    let draft = std::fs::read_to_string(dir.path().join("draft")).unwrap();
    assert_eq!(draft, format!("a {} b", seq.join("\n")));
}

/// pi-ask on the preferences payload at 100x24 with `$EDITOR` a script that fills its file
/// with `bytes` bytes of `x` (and no `$VISUAL`).
fn with_filling_editor(dir: &std::path::Path, bytes: usize) -> Session {
    let body = format!("head -c {bytes} /dev/zero | tr '\\0' x > \"$1\"");
    with_editor(&script(dir, "fill.sh", &body))
}

/// The editor's file is read back whole up to what an editor holds (16 MiB; it was cut at
/// 1 MiB without a word), and a longer one keeps the draft and says why.
#[test]
fn ctrl_g_reads_back_up_to_16_mib_and_keeps_the_draft_past_it() {
    let dir = tempfile::tempdir().unwrap();
    let two_mib = 2 * 1024 * 1024;
    let mut s = with_filling_editor(dir.path(), two_mib);
    s.wait_for("? keys");
    s.send("4");
    s.wait_for("^G editor");
    s.send("\x07");
    let result = submitted_from_the_second_question(&mut s);
    let text = result["details"]["answers"]["style"]["customText"]
        .as_str()
        .map(str::len);
    assert_eq!(text, Some(two_mib));
    let dir = tempfile::tempdir().unwrap();
    let mut s = with_filling_editor(dir.path(), 16 * 1024 * 1024 + 1);
    s.wait_for("? keys");
    s.send("4");
    s.wait_for("^G editor");
    s.send("dra\x07");
    the_draft_is_kept_and_submitted(
        &mut s,
        "The editor's text is longer than 16 MiB: the draft is kept",
    );
}

//! `pi-ask completions SHELL` and `pi-ask man` (README "Install"): the scripts are valid for
//! their shell (checked with the shell when it is installed: `bash -n` always, `zsh -n` and
//! `fish -n` when present) and name every subcommand and flag; the man page renders with
//! `man -l -` when man is installed, and always has the sections, every exit code of
//! `--help` and every environment variable src/ reads.

use crate::common::say;
use crate::scripted_support::{pi_ask, root, run_cmd, Run};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

fn run(args: &[&str]) -> Run {
    let run = run_cmd(pi_ask().args(args));
    assert_eq!(run.code, 0, "pi-ask {args:?}: {}", run.stderr);
    assert_eq!(run.stderr, "", "pi-ask {args:?}");
    run
}

/// Whether `program` can be started (it is on PATH).
fn installed(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok()
}

/// Runs `program args` with `input` on stdin; returns (success, stdout, stderr).
fn pipe(program: &str, args: &[&str], input: &str, env: &[(&str, &str)]) -> (bool, String, String) {
    let mut child = Command::new(program)
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{program}: {e}"));
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Checks `script` with `shell -n` (parse only); skipped with a line when the shell is not
/// installed, except bash, which every machine running these tests has.
fn syntax_ok(shell: &str, script: &str) {
    if shell != "bash" && !installed(shell) {
        say(&format!(
            "man_page: {shell} is not installed: its completion script is checked as text only"
        ));
        return;
    }
    let (ok, _, stderr) = pipe(shell, &["-n"], script, &[]);
    assert!(ok, "{shell} -n: {stderr}");
}

const SUBCOMMANDS: [&str; 4] = ["validate", "schema", "completions", "man"];
const FLAGS: [&str; 6] = [
    "answers",
    "output",
    "cwd",
    "plain",
    "no-input",
    "max-payload-bytes",
];

#[test]
fn the_bash_script_passes_bash_n_and_completes_the_subcommands() {
    let script = run(&["completions", "bash"]).stdout;
    syntax_ok("bash", &script);
    assert!(script.contains("complete -F _pi__ask "), "{script}");
    for sub in SUBCOMMANDS {
        assert!(script.contains(&format!("pi__ask,{sub})")), "{sub}");
    }
    for flag in FLAGS {
        assert!(script.contains(&format!("--{flag}")), "--{flag}");
    }
}

/// What bash completes for the words of `line` (the last one being completed), with the
/// script of `pi-ask completions bash` loaded.
fn bash_completes(script: &str, line: &[&str]) -> Vec<String> {
    let words: Vec<String> = line.iter().map(|w| format!("'{w}'")).collect();
    let n = line.len() - 1;
    let program = format!(
        "{script}\nCOMP_WORDS=({words}); COMP_CWORD={n}; COMP_LINE='{text}'; COMP_POINT=${{#COMP_LINE}}\n\
         _pi__ask pi-ask '{cur}' '{prev}'\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
        words = words.join(" "),
        text = line.join(" "),
        cur = line[n],
        prev = line[n - 1],
    );
    let (ok, out, err) = pipe("bash", &[], &program, &[]);
    assert!(ok, "{err}");
    out.lines().map(str::to_string).collect()
}

#[test]
fn bash_completes_subcommands_their_flags_and_values() {
    let script = run(&["completions", "bash"]).stdout;
    assert_eq!(bash_completes(&script, &["pi-ask", "val"]), ["validate"]);
    assert_eq!(
        bash_completes(&script, &["pi-ask", "--no"]),
        [
            "--no-bell",
            "--notify",
            "--notify-command",
            "--no-transcript",
            "--no-input",
            "--no-input-reason"
        ]
    );
    assert_eq!(
        bash_completes(&script, &["pi-ask", "completions", ""]),
        [
            "-h",
            "--help",
            "bash",
            "elvish",
            "fish",
            "powershell",
            "zsh"
        ]
    );
    assert_eq!(
        bash_completes(&script, &["pi-ask", "validate", "--j"]),
        ["--json"]
    );
    assert_eq!(
        bash_completes(&script, &["pi-ask", "schema", "o"]),
        ["output"]
    );
}

#[test]
fn zsh_and_fish_scripts_name_every_subcommand_and_flag() {
    let zsh = run(&["completions", "zsh"]).stdout;
    assert!(zsh.starts_with("#compdef pi-ask\n"), "{zsh}");
    syntax_ok("zsh", &zsh);
    let fish = run(&["completions", "fish"]).stdout;
    syntax_ok("fish", &fish);
    for sub in SUBCOMMANDS {
        assert!(zsh.contains(&format!("'{sub}:")), "zsh: {sub}");
        assert!(
            fish.contains(&format!("-a \"{sub}\" -d")),
            "fish: {sub}\n{fish}"
        );
    }
    for flag in FLAGS {
        assert!(zsh.contains(&format!("'--{flag}")), "zsh: --{flag}");
        assert!(fish.contains(&format!("-l {flag}")), "fish: --{flag}");
    }
    // Paths complete as files, --cwd as folders.
    assert!(
        zsh.contains("--cwd=[") && zsh.contains(":_files -/"),
        "{zsh}"
    );
    assert!(fish.contains("-l cwd -d") && fish.contains("-f -a \"(__fish_complete_directories)\""));
}

#[test]
fn elvish_and_powershell_scripts_are_printed() {
    let elvish = run(&["completions", "elvish"]).stdout;
    assert!(
        elvish.contains("set edit:completion:arg-completer[pi-ask]"),
        "{elvish}"
    );
    let powershell = run(&["completions", "powershell"]).stdout;
    assert!(
        powershell.contains("Register-ArgumentCompleter -Native -CommandName 'pi-ask'"),
        "{powershell}"
    );
    for sub in SUBCOMMANDS {
        assert!(elvish.contains(&format!("cand {sub} ")), "elvish: {sub}");
        assert!(
            powershell.contains(&format!("'{sub}'")),
            "powershell: {sub}"
        );
    }
}

#[test]
fn an_unknown_shell_is_a_usage_error() {
    let run = run_cmd(pi_ask().args(["completions", "tcsh"]));
    assert_eq!(run.code, 2);
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr.starts_with(
            "error: invalid value 'tcsh' for '<SHELL>'\n  [possible values: bash, elvish, fish, powershell, zsh]\n"
        ),
        "{}",
        run.stderr
    );
}

/// The lines of the section `heading` of the roff page, up to the next `.SH`.
fn section<'a>(page: &'a str, heading: &str) -> Vec<&'a str> {
    let start = format!(".SH {heading}");
    let mut lines = page.lines().skip_while(|l| *l != start);
    assert_eq!(
        lines.next(),
        Some(start.as_str()),
        "no {heading} in\n{page}"
    );
    lines.take_while(|l| !l.starts_with(".SH ")).collect()
}

/// The tagged paragraphs `.TP` / tag / text of a section, as (tag, text).
fn tagged<'a>(lines: &[&'a str]) -> Vec<(&'a str, &'a str)> {
    lines
        .windows(3)
        .filter(|w| w[0] == ".TP")
        .map(|w| (w[1], w[2]))
        .collect()
}

/// Text as the roff crate writes it: `\` doubled, `-` as `\-`, `'` as `\*(Aq`.
fn roff(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('-', "\\-")
        .replace('\'', "\\*(Aq")
}

#[test]
fn the_man_page_has_its_sections_in_order() {
    let page = run(&["man"]).stdout;
    assert!(page.contains("\n.TH pi-ask 1  \"pi-ask "), "{page}");
    let headings: Vec<&str> = page.lines().filter(|l| l.starts_with(".SH ")).collect();
    assert_eq!(
        headings,
        [
            ".SH NAME",
            ".SH SYNOPSIS",
            ".SH DESCRIPTION",
            ".SH OPTIONS",
            ".SH COMMANDS",
            ".SH \"EXIT STATUS\"",
            ".SH ENVIRONMENT",
            ".SH FILES",
            ".SH \"PAYLOAD FORMATS\"",
            ".SH \"ANSWERS FILE\"",
            ".SH DIALOGS",
            ".SH \"ANSWERING FROM ELSEWHERE\"",
            ".SH EXAMPLES",
            ".SH \"SEE ALSO\"",
            ".SH VERSION",
        ]
    );
    let commands: Vec<&str> = page.lines().filter(|l| l.starts_with(".SS ")).collect();
    assert_eq!(
        commands,
        [
            ".SS \"pi\\-ask validate\"",
            ".SS \"pi\\-ask schema\"",
            ".SS \"pi\\-ask completions\"",
            ".SS \"pi\\-ask answer\"",
            ".SS \"pi\\-ask man\"",
        ]
    );
    // One roff preamble (the apostrophe string), not one per section.
    assert_eq!(page.matches(".ds Aq").count(), 2, "{page}");
}

#[test]
fn the_man_page_lists_every_exit_code_of_help() {
    let page = run(&["man"]).stdout;
    let (rows, notes) = pi_ask::man::exit_statuses(pi_ask::exit_codes::HELP);
    let want: Vec<(String, String)> = rows
        .iter()
        .map(|r| (format!("\\fB{}\\fR", roff(&r.code)), roff(&r.meaning)))
        .collect();
    let lines = section(&page, "\"EXIT STATUS\"");
    let got: Vec<(String, String)> = tagged(&lines)
        .into_iter()
        .map(|(t, m)| (t.to_string(), m.to_string()))
        .collect();
    assert_eq!(got, want);
    for note in notes {
        assert!(lines.contains(&roff(&note).as_str()), "{note}");
    }
    // The codes `--help` ends with are the ones the program exits with.
    let help = run(&["--help"]).stdout;
    assert!(
        help.ends_with(&format!("{}\n", pi_ask::exit_codes::HELP)),
        "{help}"
    );
    use pi_ask::exit_codes::ExitCode;
    for code in [
        ExitCode::Submitted,
        ExitCode::Cancelled,
        ExitCode::Invalid,
        ExitCode::NoUi,
        ExitCode::OutputFailed,
        ExitCode::Internal,
    ] {
        let tag = format!("\\fB{}\\fR", code.code());
        assert!(
            got.iter().any(|(t, _)| *t == tag),
            "exit {} not in the man page",
            code.code()
        );
    }
}

/// Every environment variable src/ reads: `env = "NAME"` (clap), `var("NAME")` and
/// `var_os("NAME")`, and `const ..._ENV: &str = "NAME"`.
fn environment_read_by_src() -> Vec<String> {
    fn walk(dir: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs")
                // Unit tests read the test run's environment (CI), not the program's.
                && !path.file_name().is_some_and(|n| n.to_string_lossy().ends_with("tests.rs"))
            {
                let text = std::fs::read_to_string(&path).unwrap();
                for start in ["env = \"", "var(\"", "var_os(\"", "_ENV: &str = \""] {
                    for (at, _) in text.match_indices(start) {
                        let rest = &text[at + start.len()..];
                        let name = &rest[..rest.find('"').unwrap()];
                        if !out.iter().any(|n| n == name) {
                            out.push(name.to_string());
                        }
                    }
                }
            }
        }
    }
    let mut names = Vec::new();
    walk(&root().join("src"), &mut names);
    names.sort();
    names
}

#[test]
fn the_man_page_lists_every_environment_variable_and_file() {
    let page = run(&["man"]).stdout;
    let env: Vec<String> = tagged(&section(&page, "ENVIRONMENT"))
        .into_iter()
        .map(|(tag, _)| tag.to_string())
        .collect();
    assert_eq!(
        env,
        [
            "\\fBPI_ASK_ANSWERS\\fR",
            "\\fBPI_ASK_MAX_PAYLOAD_BYTES\\fR",
            "\\fBPI_ASK_INDEX_WAIT_MS\\fR",
            "\\fBNO_COLOR\\fR",
            "\\fBTERM\\fR",
            "\\fBLC_ALL\\fR",
            "\\fBLC_CTYPE\\fR",
            "\\fBLANG\\fR",
            "\\fBPI_ASK_TIMEOUT\\fR",
            "\\fBPI_ASK_LIFELINE_FD\\fR",
            "\\fBPI_ASK_TERMINAL_WAIT\\fR",
            "\\fBPI_ASK_BELL\\fR",
            "\\fBPI_ASK_NOTIFY\\fR",
            "\\fBPI_ASK_NOTIFY_COMMAND\\fR",
            "\\fBPI_ASK_AUTO_SUBMIT\\fR",
            "\\fBPI_ASK_TRANSCRIPT\\fR",
            "\\fBPI_ASK_PLAIN\\fR",
            "\\fBPI_ASK_SCREEN\\fR",
            "\\fBPI_ASK_ESCDELAY\\fR",
            "\\fBPI_ASK_KEY_GRACE\\fR",
            "\\fBSSH_TTY\\fR",
            "\\fBSSH_CONNECTION\\fR",
            "\\fBHOME\\fR",
            "\\fBXDG_CONFIG_HOME\\fR",
            "\\fBGIT_CONFIG_GLOBAL\\fR",
            "\\fBGIT_CONFIG_SYSTEM\\fR",
            "\\fBVISUAL\\fR",
            "\\fBEDITOR\\fR",
            "\\fBASK_ANSWER_SOCKET\\fR",
            "\\fBXDG_RUNTIME_DIR\\fR",
            "\\fBASK_ANSWER_ID\\fR",
        ]
    );
    let mut read = environment_read_by_src();
    read.retain(|name| !env.contains(&format!("\\fB{name}\\fR")));
    assert!(
        read.is_empty(),
        "read by src/ but not in the man page: {read:?}"
    );

    let files: Vec<&str> = tagged(&section(&page, "FILES"))
        .into_iter()
        .map(|(tag, _)| tag)
        .collect();
    assert_eq!(
        files,
        [
            "\\fB/dev/tty\\fR",
            "\\fIPAYLOAD\\fR",
            "\\fIthe answers file\\fR",
            "\\fIthe answer channel\\*(Aqs socket\\fR",
            "\\fIthe result file\\fR",
        ]
    );
}

#[test]
fn the_man_page_renders_with_man() {
    let page = run(&["man"]).stdout;
    if !installed("man") {
        say("man_page: man is not installed: the page is checked as roff text only");
        return;
    }
    // MANWIDTH fixes the line length; groff's warnings go to stderr.
    let (ok, text, stderr) = pipe(
        "man",
        &["--warnings", "-l", "-"],
        &page,
        &[("MANWIDTH", "80"), ("PAGER", "cat")],
    );
    assert!(ok, "man -l -: {stderr}");
    assert_eq!(stderr, "", "groff warnings");
    // Formatting (bold, underline) off: compare plain text.
    let text = strip_overstrike(&text);
    for heading in [
        "NAME",
        "SYNOPSIS",
        "DESCRIPTION",
        "OPTIONS",
        "COMMANDS",
        "EXIT STATUS",
        "ENVIRONMENT",
        "FILES",
    ] {
        assert!(
            text.lines().any(|l| l == heading),
            "{heading} not a heading in\n{text}"
        );
    }
    assert!(text.contains("\n   pi-ask validate\n"), "{text}");
    assert!(
        text.contains("\n       PI_ASK_MAX_PAYLOAD_BYTES\n"),
        "{text}"
    );
    assert!(text.contains("\n       /dev/tty\n"), "{text}");
    assert!(text.contains("\n       0      submitted\n"), "{text}");
}

/// Removes the `c\bc` and `_\bc` overstrikes man uses for bold and underline.
fn strip_overstrike(text: &str) -> String {
    let mut out: Vec<char> = Vec::new();
    for c in text.chars() {
        if c == '\u{8}' {
            out.pop();
        } else {
            out.push(c);
        }
    }
    out.into_iter().collect()
}

#[test]
fn help_and_the_man_page_name_no_file_the_user_lacks_and_no_internal_word() {
    let mut texts = vec![run(&["man"]).stdout];
    for args in [
        &["--help"][..],
        &["validate", "--help"],
        &["schema", "--help"],
        &["completions", "--help"],
    ] {
        texts.push(run(args).stdout);
    }
    for text in texts {
        for word in [".md", "seed 0", "issue 1"] {
            assert!(!text.contains(word), "{word:?} in:\n{text}");
        }
    }
}

/// The man page's field list is generated from the payload's one definition: every field of
/// `pi-ask schema input` is in it, `secret` too.
#[test]
fn the_payload_fields_in_the_man_page_come_from_the_schema() {
    let page = run(&["man"]).stdout;
    let formats = section(&page, "\"PAYLOAD FORMATS\"").join("\n");
    assert!(
        formats.contains(&roff(&pi_ask::contract::synopsis())),
        "{formats}"
    );
    assert!(
        formats.contains("required?, secret?, options: [{value"),
        "{formats}"
    );
    assert!(!formats.contains("{PAYLOAD}"), "{formats}");
}

//! Benchmark of `@` completion (docs/benchmarks.md, "`@` completion").
//!
//! ```sh
//! apt-get install -y fd-find                              # for the comparison (fdfind)
//! cargo run --release --example complete_bench            # 5 runs each
//! cargo run --release --example complete_bench -- 10      # 10 runs each
//! BENCH_VERBOSE=1 cargo run --release --example complete_bench -- 1   # per-fragment times
//! ```
//!
//! Generates a git repository in a temporary folder with 100,000 files in 1,100 folders plus a
//! git-ignored `target/` of 20,000 files, then, several times each (after one warm-up run, so
//! both sides see a warm page cache):
//! - runs `fd --type f` (`fdfind` or `fd` on PATH) in it, output to a pipe;
//! - runs this program again as fresh processes (sessions) that build an [`AtCompleter`] and
//!   measure the first completion of `@mod17`, ten later completions of the same session and
//!   the process's peak resident memory (VmHWM). Two kinds of session:
//!   - `pasted`: every fragment appears at once and Tab is the first request: the first Tab
//!     walks the tree (cold) and each later Tab matches the whole index afresh;
//!   - `typed`: the fragments are typed key by key (the editor's hint runs after each key,
//!     80 ms apart for the first one), then Tab is pressed.
//!
//! Prints a Markdown table with the medians and the extremes. Wall times depend on the load
//! of the machine; CPU times (user + system, all threads, from getrusage) much less.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use pi_ask::complete::AtCompleter;

const TOP_DIRS: usize = 100;
const SUB_DIRS: usize = 10;
const FILES_PER_SUB: usize = 100;
const IGNORED_FILES: usize = 20_000;
const WORDS: [&str; 5] = ["mod", "lib", "util", "view", "test"];

/// Later completions of one session: fuzzy fragments, explicit folders, hidden, empty.
const LATER: [&str; 10] = [
    "@mod17",
    "@mod1",
    "@mod17.r",
    "@util",
    "@m",
    "@pkg042/",
    "@pkg042/mod3/",
    "@vw9",
    "@.",
    "@",
];

/// Time between key presses while typing the first fragment in a `typed` session.
const KEY_GAP: Duration = Duration::from_millis(80);

/// What one session measured.
#[derive(Debug, Default)]
struct Session {
    first_ms: f64,
    first_cpu_ms: f64,
    later_max_ms: f64,
    later_median_ms: f64,
    later_max_cpu_ms: f64,
    vmhwm_kb: f64,
    entries: f64,
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("--child") {
        child(
            Path::new(&args[2]),
            args.get(3).map(String::as_str) == Some("typed"),
        );
        return;
    }
    let runs: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(5);
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    let t = Instant::now();
    generate(root);
    eprintln!("generated the tree in {:.1} s", t.elapsed().as_secs_f64());

    let fd = ["fdfind", "fd"]
        .into_iter()
        .find(|f| Command::new(f).arg("--version").output().is_ok());
    let (mut fd_ms, mut fd_cpu) = (Vec::new(), Vec::new());
    let mut fd_count = 0;
    match fd {
        Some(fd) => {
            for i in 0..=runs {
                let cpu = children_cpu_ms();
                let t = Instant::now();
                let out = Command::new(fd)
                    .args(["--type", "f"])
                    .current_dir(root)
                    .stderr(Stdio::null())
                    .output()
                    .expect("fd runs");
                let ms = t.elapsed().as_secs_f64() * 1e3;
                fd_count = out.stdout.iter().filter(|&&b| b == b'\n').count();
                if i > 0 {
                    fd_ms.push(ms);
                    fd_cpu.push(children_cpu_ms() - cpu);
                }
            }
        }
        None => eprintln!("fd not found (apt-get install fd-find): no comparison"),
    }

    let exe = std::env::current_exe().expect("own path");
    let mut pasted = Vec::new();
    let mut typed = Vec::new();
    let mut first_hits = String::new();
    for i in 0..=runs {
        for mode in ["pasted", "typed"] {
            let out = Command::new(&exe)
                .arg("--child")
                .arg(root)
                .arg(mode)
                .stderr(Stdio::inherit())
                .output()
                .expect("child runs");
            let text = String::from_utf8_lossy(&out.stdout);
            let mut fields = text
                .split_whitespace()
                .map(|f| f.parse::<f64>().unwrap_or(f64::NAN));
            let mut next = || fields.next().unwrap_or(f64::NAN);
            let session = Session {
                first_ms: next(),
                first_cpu_ms: next(),
                later_max_ms: next(),
                later_median_ms: next(),
                later_max_cpu_ms: next(),
                vmhwm_kb: next(),
                entries: next(),
            };
            first_hits = text.lines().nth(1).unwrap_or("").to_owned();
            if i > 0 {
                if mode == "typed" {
                    typed.push(session);
                } else {
                    pasted.push(session);
                }
            }
        }
    }

    let stats = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        if v.is_empty() {
            return "n/a".to_owned();
        }
        format!("{:.1} ({:.1}–{:.1})", v[v.len() / 2], v[0], v[v.len() - 1])
    };
    let of = |s: &[Session], f: fn(&Session) -> f64| stats(s.iter().map(f).collect());
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "tree: {} files in {} folders + git-ignored target/ of {} files; {} runs each after one warm-up; {} cores; load average {}",
        TOP_DIRS * SUB_DIRS * FILES_PER_SUB,
        TOP_DIRS * (SUB_DIRS + 1),
        IGNORED_FILES,
        runs,
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    let _ = writeln!(
        out,
        "fd --type f lists {fd_count} files; the index holds {} entries (files and folders)",
        pasted.first().map_or(0.0, |s| s.entries)
    );
    let _ = writeln!(out, "first hits for @mod17: {first_hits}");
    let _ = writeln!(out);
    let _ = writeln!(out, "| measure | median (min–max) |");
    let _ = writeln!(out, "|---|---|");
    let mut row = |label: String, figures: String, unit: &str| {
        let _ = writeln!(out, "| {label} | {figures} {unit} |");
    };
    row("`fd --type f`, wall".into(), stats(fd_ms), "ms");
    row("`fd --type f`, CPU".into(), stats(fd_cpu), "ms");
    row(
        "first `@mod17` + Tab, cold (walk + match), wall".into(),
        of(&pasted, |s| s.first_ms),
        "ms",
    );
    row(
        "first `@mod17` + Tab, cold (walk + match), CPU".into(),
        of(&pasted, |s| s.first_cpu_ms),
        "ms",
    );
    row(
        format!(
            "first `@mod17` + Tab, typed at {} ms a key (walk starts at `@`), wall",
            KEY_GAP.as_millis()
        ),
        of(&typed, |s| s.first_ms),
        "ms",
    );
    let n = LATER.len();
    row(
        format!("later completions, typed: slowest of {n}, wall"),
        of(&typed, |s| s.later_max_ms),
        "ms",
    );
    row(
        format!("later completions, typed: median of {n}, wall"),
        of(&typed, |s| s.later_median_ms),
        "ms",
    );
    row(
        format!("later completions, pasted: slowest of {n}, wall"),
        of(&pasted, |s| s.later_max_ms),
        "ms",
    );
    row(
        format!("later completions, pasted: slowest of {n}, CPU"),
        of(&pasted, |s| s.later_max_cpu_ms),
        "ms",
    );
    row(
        format!("later completions, pasted: median of {n}, wall"),
        of(&pasted, |s| s.later_median_ms),
        "ms",
    );
    row(
        "peak RSS of the whole process (VmHWM)".into(),
        of(&pasted, |s| s.vmhwm_kb / 1024.0),
        "MB",
    );
}

/// CPU time (user + system) in milliseconds of this process (all threads) or of its
/// waited-for children.
fn rusage_ms(who: libc::c_int) -> f64 {
    // SAFETY: getrusage only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(who, &mut usage) };
    let ms = |t: libc::timeval| t.tv_sec as f64 * 1e3 + t.tv_usec as f64 / 1e3;
    ms(usage.ru_utime) + ms(usage.ru_stime)
}

fn cpu_ms() -> f64 {
    rusage_ms(libc::RUSAGE_SELF)
}

fn children_cpu_ms() -> f64 {
    rusage_ms(libc::RUSAGE_CHILDREN)
}

/// Types `line` key by key from its last `@`: the editor calls the hint after every key.
fn type_keys(completer: &AtCompleter, line: &str, gap: Duration) {
    let at = line.rfind('@').expect("an @");
    for end in at + 1..=line.len() {
        if line.is_char_boundary(end) {
            let _ = completer.hint_at(&line[..end], end);
            std::thread::sleep(gap);
        }
    }
}

/// One session: prints `first_ms first_cpu_ms later_max_ms later_median_ms
/// later_max_cpu_ms vmhwm_kb entries`, then the first completion's best hits.
fn child(root: &Path, typed: bool) {
    let verbose = std::env::var_os("BENCH_VERBOSE").is_some();
    let completer = AtCompleter::new(root).wait(Duration::from_secs(60));
    let line = "see @mod17";
    if typed {
        type_keys(&completer, line, KEY_GAP);
    }
    let cpu = cpu_ms();
    let t = Instant::now();
    let (_, first) = completer.complete_at(line, line.len()).expect("reference");
    let first_ms = t.elapsed().as_secs_f64() * 1e3;
    let first_cpu = cpu_ms() - cpu;
    assert!(completer.index().progress().done, "the index finished");
    let mut later = Vec::new();
    let mut later_cpu: f64 = 0.0;
    for fragment in LATER {
        if typed {
            type_keys(&completer, fragment, Duration::ZERO);
        }
        let cpu = cpu_ms();
        let t = Instant::now();
        let (_, pairs) = completer
            .complete_at(fragment, fragment.len())
            .expect("reference");
        let ms = t.elapsed().as_secs_f64() * 1e3;
        let cpu = cpu_ms() - cpu;
        later_cpu = later_cpu.max(cpu);
        if verbose {
            let mode = if typed { "typed" } else { "pasted" };
            eprintln!(
                "{mode:>6} {fragment:>14} {ms:7.2} ms wall {cpu:7.2} ms CPU {:3} candidates",
                pairs.len()
            );
        }
        later.push(ms);
        assert!(
            pairs.iter().all(|p| !p.display.starts_with("target")),
            "git-ignored entries listed"
        );
    }
    later.sort_by(f64::total_cmp);
    let kb = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1).map(str::to_owned))
        })
        .and_then(|v| v.parse::<f64>().ok())
        .unwrap_or(f64::NAN);
    let hits: Vec<&str> = first.iter().take(5).map(|p| p.display.as_str()).collect();
    println!(
        "{first_ms:.3} {first_cpu:.3} {:.3} {:.3} {later_cpu:.3} {kb} {}",
        later[later.len() - 1],
        later[later.len() / 2],
        completer.index().progress().entries
    );
    println!("{}", hits.join(", "));
}

/// The benchmark tree: `pkgNNN/modM/<word><i>.rs`, and a `target/` that `.gitignore` names.
fn generate(root: &Path) {
    std::fs::create_dir_all(root.join(".git")).expect("mkdir .git");
    std::fs::write(root.join(".gitignore"), "/target/\n").expect(".gitignore");
    for d in 0..TOP_DIRS {
        for s in 0..SUB_DIRS {
            let folder = root.join(format!("pkg{d:03}/mod{s}"));
            std::fs::create_dir_all(&folder).expect("mkdir");
            for f in 0..FILES_PER_SUB {
                let word = WORDS[(d + s + f) % WORDS.len()];
                std::fs::write(folder.join(format!("{word}{f}.rs")), "").expect("write");
            }
        }
    }
    for i in 0..IGNORED_FILES {
        let folder = root.join(format!("target/debug/deps/d{:02}", i / 1000));
        if i % 1000 == 0 {
            std::fs::create_dir_all(&folder).expect("mkdir");
        }
        std::fs::write(folder.join(format!("mod{i}.rmeta")), "").expect("write");
    }
}

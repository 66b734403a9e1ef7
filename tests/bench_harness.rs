//! The benchmark harness (benches/harness/bench.rs, docs/benchmarks.md) in its quick mode:
//! one run of each figure with pi-ask (this test build, in both placements) and the C
//! floor, so the harness cannot rot. It checks the report is well formed, never the timings (the machines are
//! noisy; the harness reports, it does not gate).

use crate::bench;

/// A figure cell `median (min–max)` holding numbers.
fn is_cell(text: &str) -> bool {
    let text = text.trim();
    let Some((median, rest)) = text.split_once(" (") else {
        return false;
    };
    let Some(range) = rest.strip_suffix(')') else {
        return false;
    };
    let Some((min, max)) = range.split_once('–') else {
        return false;
    };
    [median, min, max]
        .iter()
        .all(|n| n.parse::<f64>().is_ok_and(|v| v >= 0.0))
}

/// The cells of the table row whose first cells are `key`.
fn row<'a>(report: &'a str, key: &[&str]) -> Vec<&'a str> {
    report
        .lines()
        .map(|l| {
            l.trim()
                .trim_matches('|')
                .split('|')
                .map(str::trim)
                .collect::<Vec<_>>()
        })
        .find(|cells| cells.len() >= key.len() && cells[..key.len()] == *key)
        .unwrap_or_else(|| panic!("no row {key:?} in the report:\n{report}"))
}

#[test]
fn quick_mode_writes_every_figure() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("benchmarks.md");
    // Another section of the document, which the harness must keep.
    std::fs::write(
        &out,
        "# Benchmarks\n\n## Kept section\n\nhand-written text\n",
    )
    .unwrap();
    let mut cfg = bench::parse_args(&[
        "--quick".to_string(),
        "--out".to_string(),
        out.display().to_string(),
    ])
    .unwrap();
    cfg.pi_ask = env!("CARGO_BIN_EXE_pi-ask").into();
    let mut log = Vec::new();
    bench::run(&cfg, &mut log)
        .unwrap_or_else(|e| panic!("harness failed: {e}\n{}", String::from_utf8_lossy(&log)));
    let log = String::from_utf8_lossy(&log).into_owned();
    let doc = std::fs::read_to_string(&out).unwrap();
    assert!(
        doc.starts_with("# Benchmarks\n\n## Kept section\n\nhand-written text\n"),
        "{doc}"
    );
    assert_eq!(doc.matches(bench::BEGIN).count(), 1, "{doc}");
    assert_eq!(doc.matches(bench::END).count(), 1, "{doc}");
    assert!(doc.trim_end().ends_with(bench::END), "{doc}");
    assert!(!doc.contains("failed"), "{doc}\n--- log:\n{log}");

    for heading in [
        "### 1. Time to first prompt",
        "### 2. Key latency",
        "### 3. Scripted mode (`--answers`)",
        "### 4. `@` completion",
        "### 5. Peak memory of the interactive flow",
        "### 6. Binary size",
    ] {
        assert!(doc.contains(heading), "missing {heading}:\n{doc}");
    }
    // Figure 1: the floor and pi-ask in both placements (`--screen inline` and `--screen
    // full`), each with a time and a peak RSS.
    for tool in [
        "C floor (raw mode + menu)",
        bench::PI_INLINE,
        bench::PI_FULL,
    ] {
        let cells = row(&doc, &[tool]);
        assert!(is_cell(cells[2]) && is_cell(cells[4]), "{cells:?}");
    }
    assert!(
        doc.contains("Target inline no slower than full (pi-ask inline's time"),
        "{doc}"
    );
    // Figure 2: both sizes of the quick mode, the floor and both placements measured, each
    // with its ratio to the floor.
    for size in ["10", "1000"] {
        for tool in [
            "C floor (one line per key)",
            bench::PI_INLINE,
            bench::PI_FULL,
        ] {
            let cells = row(&doc, &[size, tool]);
            assert!(is_cell(cells[3]) && cells[4].ends_with('x'), "{cells:?}");
        }
    }
    // The peers (fzf, whiptail, dialog, dialoguer) are not run in the quick mode.
    assert!(
        doc.contains(
            "Peers (fzf, `whiptail --menu`, `dialog --menu`, dialoguer `Select`): not run in \
             --quick."
        ),
        "{doc}"
    );
    // Figure 3: the trivial binary and both scripted payloads.
    let cells = row(&doc, &["trivial Rust binary"]);
    assert!(is_cell(cells[2]), "{cells:?}");
    let cells = row(&doc, &["pi-ask --answers", "4-question payload"]);
    assert!(is_cell(cells[2]) && cells[3].ends_with('x'), "{cells:?}");
    // Figure 4: the first and later `@` completions in the real editor (fd is not run in
    // the quick mode), and the memory with the index built.
    let cells = row(&doc, &["fd --type f"]);
    assert_eq!(cells[2], "not run in --quick", "{cells:?}");
    let first = doc
        .lines()
        .find(|l| l.starts_with("| pi-ask | first list:"))
        .expect("first list row");
    assert!(is_cell(first.split('|').nth(3).unwrap()), "{first}");
    let later = doc
        .lines()
        .find(|l| l.starts_with("| pi-ask | later lists:"))
        .expect("later lists row");
    assert!(is_cell(later.split('|').nth(3).unwrap()), "{later}");
    assert!(
        doc.contains("With the `@` index of figure 4 (2000 files) built"),
        "{doc}"
    );
    // Figure 5: every example payload ran to a submitted result.
    for example in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/examples")).unwrap() {
        let path = example.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            let name = format!("`examples/{}`", path.file_name().unwrap().to_string_lossy());
            let cells = row(&doc, &["pi-ask", &name]);
            assert!(is_cell(cells[2]), "{cells:?}");
        }
    }
    // Figure 6: the size of the binary under test.
    let sizes = &doc[doc.find("### 6. Binary size").unwrap()..];
    let cells = row(sizes, &["pi-ask"]);
    assert!(
        cells[2].parse::<f64>().is_ok_and(|mb| mb > 0.0),
        "{cells:?}"
    );
    assert!(doc.contains("Target < 4 MB:"), "{doc}");

    // A second run replaces the generated part instead of adding another.
    let first = doc.clone();
    let again = bench::splice(&first, "## Side by side (generated)\n\nnew\n");
    assert_eq!(again.matches(bench::BEGIN).count(), 1);
    assert!(again.contains("\nnew\n") && again.contains("## Kept section"));
    assert!(!again.contains("### 1. Time to first prompt"));

    // An `--only` run keeps the figures it did not measure, marked as from the earlier run.
    let only = bench::keep_figures(
        &first,
        "## Side by side (generated)\n\nMeasured now.\n\n### 2. Key latency\n\nnew keys\n",
    );
    assert!(only.contains("new keys"), "{only}");
    assert!(only.contains("### 1. Time to first prompt"), "{only}");
    assert!(only.contains("### 3. Scripted mode"), "{only}");
    assert!(only.find("### 1.") < only.find("### 2.") && only.find("### 2.") < only.find("### 3."));
    assert!(only.contains("*Not measured by this run (`--only`): kept from the run of "));
    assert_eq!(only.matches("### 2. Key latency").count(), 1, "{only}");
    // A figure kept twice keeps the time of the run that measured it.
    let twice = bench::keep_figures(
        &bench::splice(&first, &only),
        "## Side by side (generated)\n\nMeasured later.\n\n### 4. x\n\ny\n",
    );
    // Figure 2 was measured by the run "now"; figures 1, 3, 5 and 6 keep the mark of the
    // first run.
    assert_eq!(
        twice.matches("kept from the run of now.").count(),
        1,
        "{twice}"
    );
    assert_eq!(twice.matches("kept from the run of ").count(), 5, "{twice}");
}

#[test]
fn stats_are_median_min_max() {
    let s = bench::Stats::of(&[3.0, 1.0, 2.0, 10.0]).unwrap();
    assert_eq!((s.median, s.min, s.max, s.n), (2.5, 1.0, 10.0, 4));
    let s = bench::Stats::of(&[5.0, 1.0, 2.0]).unwrap();
    assert_eq!((s.median, s.min, s.max, s.n), (2.0, 1.0, 5.0, 3));
    assert!(bench::Stats::of(&[]).is_none());
}

//! The npm packages (`scripts/npm-pack`): the pi package `pi-ask` and the host's platform
//! package `pi-ask-<os>-<cpu>[-<libc>]`, installed with npm from their tarballs into an empty
//! folder, offline, the way `pi install npm:pi-ask` installs (`--omit=peer
//! --legacy-peer-deps`: pi provides the peers), then the real pi (the one the extension's tests
//! use, tests/pi_extension.rs) with the installed extension and the faux model: `ask_user` is
//! answered by the packaged binary, with no `pi-ask` on PATH, no `PI_ASK_BIN` and no checkout
//! around it. There `npx pi-ask --version` runs the packaged binary through the package's
//! launcher (bin/pi-ask.js), which says what is missing when there is no binary. The pi
//! package carries the repository's CHANGELOG.md and a README fit for the registry's page.

use crate::pi_extension::{ext_dir, run_bounded, setup, skipped};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const STEP_TIMEOUT: Duration = Duration::from_secs(300);

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `version = "…"` of Cargo.toml's `[package]` table.
fn cargo_version() -> String {
    let toml = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    toml.lines()
        .find_map(|l| l.strip_prefix("version = \""))
        .and_then(|v| v.strip_suffix('"'))
        .expect("a version in Cargo.toml")
        .to_string()
}

#[test]
fn committed_package_json_follows_cargo_toml() {
    let pkg: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(ext_dir().join("package.json")).unwrap())
            .unwrap();
    assert_eq!(pkg["name"], "pi-ask");
    assert_eq!(pkg["version"], cargo_version().as_str());
    assert!(pkg.get("private").is_none(), "{pkg}");
}

/// The directory's entries that are `pi-ask` executables.
fn pi_ask_in(dirs: &[PathBuf]) -> Vec<PathBuf> {
    dirs.iter()
        .map(|d| d.join("pi-ask"))
        .filter(|f| f.exists())
        .collect()
}

#[test]
fn installed_packages_answer_ask_user_through_the_packaged_binary() {
    if skipped() {
        return;
    }
    let node = setup();
    let work = tempfile::tempdir().unwrap();
    let work = work.path();
    let out = work.join("npm");

    // The tarballs, with this build of the binary as the host's platform package.
    let mut pack = Command::new("bash");
    pack.arg(root().join("scripts/npm-pack"))
        .args(["--bin", env!("CARGO_BIN_EXE_pi-ask"), "--out"])
        .arg(&out)
        .env("PATH", &node.path_env);
    let (ok, printed) = run_bounded(pack, STEP_TIMEOUT);
    assert!(ok, "scripts/npm-pack failed:\n{printed}");
    let tarballs: Vec<&str> = printed.lines().filter(|l| l.ends_with(".tgz")).collect();
    let version = cargo_version();
    assert_eq!(tarballs.len(), 2, "{printed}");
    assert_eq!(
        tarballs[0],
        out.join(format!("pi-ask-{version}.tgz")).to_str().unwrap()
    );
    let platform_tgz = Path::new(tarballs[1])
        .file_name()
        .unwrap()
        .to_str()
        .unwrap();
    let platform = platform_tgz
        .strip_suffix(&format!("-{version}.tgz"))
        .unwrap()
        .to_string();
    assert!(platform.starts_with("pi-ask-"), "{platform}");

    // The pi package's files as packed (npm pack writes them under `package/`).
    let unpacked = work.join("unpacked");
    std::fs::create_dir(&unpacked).unwrap();
    let status = Command::new("tar")
        .arg("-xzf")
        .arg(tarballs[0])
        .arg("-C")
        .arg(&unpacked)
        .status()
        .unwrap();
    assert!(status.success());
    let packed = unpacked.join("package");
    assert_eq!(
        std::fs::read_to_string(packed.join("CHANGELOG.md")).unwrap(),
        std::fs::read_to_string(root().join("CHANGELOG.md")).unwrap(),
        "the pi package's CHANGELOG.md is the repository's"
    );
    // The user's documentation, as the man page's SEE ALSO says.
    for doc in [
        "interactive",
        "answers",
        "dialects",
        "dialogs",
        "exit-codes",
        "contract",
    ] {
        assert_eq!(
            std::fs::read_to_string(packed.join(format!("docs/{doc}.md"))).unwrap(),
            std::fs::read_to_string(root().join(format!("docs/{doc}.md"))).unwrap(),
            "docs/{doc}.md in the pi package"
        );
    }
    let readme = std::fs::read_to_string(packed.join("README.md")).unwrap();
    for not_there in [
        "](../",
        "](DEVELOPING.md",
        "## Developing",
        "## Tests",
        "npm-pack: omit",
    ] {
        assert!(
            !readme.contains(not_there),
            "{not_there:?} in the packed README:\n{readme}"
        );
    }
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(packed.join("package.json")).unwrap())
            .unwrap();
    assert_eq!(manifest["bin"]["pi-ask"], "bin/pi-ask.js", "{manifest}");

    // An empty folder, offline, with an empty npm cache: nothing comes from a registry.
    let app = work.join("app");
    std::fs::create_dir(&app).unwrap();
    let mut npm = Command::new("npm");
    npm.args([
        "install",
        "--offline",
        "--omit=peer",
        "--legacy-peer-deps",
        "--no-audit",
        "--no-fund",
        "--cache",
    ])
    .arg(work.join("npm-cache"))
    .args(&tarballs)
    .current_dir(&app)
    .env("PATH", &node.path_env);
    let (ok, printed) = run_bounded(npm, STEP_TIMEOUT);
    assert!(ok, "npm install of the tarballs failed:\n{printed}");
    let installed = app.join("node_modules");
    let extension = installed.join("pi-ask/index.ts");
    let packaged = installed.join(&platform).join("bin/pi-ask");
    assert!(extension.is_file(), "{}", extension.display());
    assert!(packaged.is_file(), "{}", packaged.display());
    for file in ["LICENSE", "README.md", "package.json"] {
        assert!(installed.join("pi-ask").join(file).is_file(), "{file}");
        assert!(installed.join(&platform).join(file).is_file(), "{file}");
    }
    // The peers are pi's own: not installed.
    assert!(!installed.join("@earendil-works").exists());
    assert!(installed.join("pi-ask/CHANGELOG.md").is_file());

    // PATH: Node and the system's tools, none of them a pi-ask.
    let path_dirs = vec![
        node.bin.parent().unwrap().to_path_buf(),
        PathBuf::from("/usr/bin"),
        PathBuf::from("/bin"),
    ];
    assert_eq!(pi_ask_in(&path_dirs), Vec::<PathBuf>::new());
    let path_env = std::env::join_paths(&path_dirs).unwrap();

    // `npx pi-ask …` in that folder, offline: the launcher runs the packaged binary. Prints its
    // output and `exit=<code>`.
    let npx = |args: &str, node_options: Option<&Path>| {
        let mut sh = Command::new("sh");
        sh.args([
            "-c",
            &format!("npx --offline pi-ask {args}; echo \"exit=$?\""),
        ])
        .current_dir(&app)
        .env("PATH", &path_env)
        .env("npm_config_cache", work.join("npm-cache"))
        .env_remove("PI_ASK_BIN");
        if let Some(preload) = node_options {
            sh.env("NODE_OPTIONS", format!("--require={}", preload.display()));
        }
        run_bounded(sh, STEP_TIMEOUT).1
    };
    assert_eq!(
        npx("--version", None),
        format!("pi-ask {version}\nexit=0\n")
    );

    let payload = root().join("examples/implementation-preferences.json");
    let answers = root().join("examples/answers/implementation-preferences.json");
    let home = work.join("home");
    std::fs::create_dir(&home).unwrap();
    let pi_cli = ext_dir().join("node_modules/@earendil-works/pi-coding-agent/dist/cli.js");
    let run_pi = || {
        let mut pi = Command::new(&node.bin);
        pi.arg(&pi_cli)
            .args([
                "--offline",
                "--no-session",
                "--no-extensions",
                "--no-skills",
                "--no-prompt-templates",
                "--no-context-files",
                "-e",
            ])
            .arg(ext_dir().join("test/faux.ts"))
            // The installed package's folder, as the README's local try-out loads it.
            .arg("-e")
            .arg(installed.join("pi-ask"))
            .args(["--provider", "faux", "--model", "faux-1", "-p", "go"])
            .current_dir(&app)
            .env_clear()
            .env("PATH", &path_env)
            .env("HOME", &home)
            .env("PI_CODING_AGENT_DIR", home.join(".pi/agent"))
            .env("PI_OFFLINE", "1")
            .env("NO_COLOR", "1")
            .env("PI_ASK_TEST_PAYLOAD", &payload)
            .env("PI_ASK_ANSWERS", &answers);
        run_bounded(pi, STEP_TIMEOUT)
    };

    let (ok, printed) = run_pi();
    assert!(ok, "pi failed:\n{printed}");
    assert_eq!(
        printed.trim(),
        "MODEL SAW:\n\
         Style: Balanced\n\
         Frontend: React, Svelte, Solid\n\
         Frontend note: mostly side projects\n\
         Frontend / React note: daily at work\n\
         END OF TURN"
    );

    // Without the packaged binary nothing else is found: it was the one that answered.
    std::fs::remove_file(&packaged).unwrap();
    let (_, printed) = run_pi();
    assert!(
        printed.trim().starts_with(
            "MODEL SAW ERROR:\nThe pi-ask binary was not found; tried PI_ASK_BIN (not set); the npm package"
        ),
        "{printed}"
    );
    assert!(printed.contains(&platform), "{printed}");
    assert!(
        printed.contains("install pi-ask again with its optional dependencies"),
        "{printed}"
    );

    // The launcher without the binary: what is missing, exit 127 (as a shell's "not found").
    let printed = npx("--version", None);
    assert!(
        printed.starts_with("pi-ask (npm launcher): the pi-ask binary for ")
            && printed.contains(" is not installed: it comes in the npm package "),
        "{printed}"
    );
    assert!(printed.contains(&platform), "{printed}");
    assert!(printed.ends_with("exit=127\n"), "{printed}");
    // On a platform with no prebuilt binary (Node told it runs on FreeBSD), it says so.
    let freebsd = work.join("freebsd.cjs");
    std::fs::write(
        &freebsd,
        "Object.defineProperty(process, \"platform\", { value: \"freebsd\" });\n",
    )
    .unwrap();
    let printed = npx("--version", Some(&freebsd));
    assert!(
        printed
            .starts_with("pi-ask (npm launcher): there is no prebuilt pi-ask binary for freebsd-"),
        "{printed}"
    );
    assert!(printed.contains("`cargo install pi-ask`"), "{printed}");
    assert!(printed.ends_with("exit=127\n"), "{printed}");
}

//! The dialoguer peer of the benchmark harness (docs/benchmarks.md, figures 1 and 2):
//! dialoguer 0.12's `Select` with `ColorfulTheme`, the line-oriented prompt a Rust program
//! would reach for, drawn at the cursor on stderr (the terminal), with its defaults.
//!
//!   dialoguer_select PROMPT N     a `Select` of "Option 1" .. "Option N" under PROMPT
//!
//! The first item is highlighted (`.default(0)`: without it nothing is, and Enter does
//! nothing until an arrow key is pressed). The list is paged as dialoguer pages it by default:
//! as many items as the terminal has rows, less two (28 in the harness's 100x30 pty), with
//! `[Page 1/M]` after the prompt when they do not all fit. Enter prints the chosen index on
//! stdout and exits 0; Esc or q exits 1. Built by `benches/run` as a cargo example
//! (`cargo build --release --example dialoguer_select`), with the dialoguer pi-ask itself
//! depends on (for its themes' lines; pi-ask reads its own keys and draws its own frames).

use dialoguer::{theme::ColorfulTheme, Select};

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(prompt), Some(n)) = (args.next(), args.next().and_then(|n| n.parse().ok())) else {
        eprintln!("usage: dialoguer_select PROMPT N");
        std::process::exit(2);
    };
    let n: usize = n;
    let items: Vec<String> = (1..=n.max(1)).map(|i| format!("Option {i}")).collect();
    let chosen = Select::with_theme(&ColorfulTheme::default())
        .with_prompt(prompt)
        .items(&items)
        .default(0)
        .interact_opt();
    match chosen {
        Ok(Some(i)) => println!("{i}"),
        Ok(None) => std::process::exit(1),
        Err(e) => {
            eprintln!("dialoguer_select: {e}");
            std::process::exit(3);
        }
    }
}

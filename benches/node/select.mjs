// The Node peer of the benchmark harness (docs/benchmarks.md): one @inquirer/prompts select
// with three choices, drawn on the terminal. Exits when a choice is made.
import { select } from "@inquirer/prompts";

const answer = await select({
  message: "Which language should the project use?",
  choices: [
    { name: "Rust", value: "rust" },
    { name: "TypeScript", value: "typescript" },
    { name: "Python", value: "python" },
  ],
});
process.stderr.write(`${answer}\n`);

#!/usr/bin/env bash
# Scripted-mode benchmark (docs/benchmarks.md, "Scripted mode").
#
# 1. A 4-question payload answered from a file must take at most 1.5x the wall time of a
#    trivial Rust binary that prints `{}` (built here with the same toolchain, -O).
# 2. A payload of 1,000 questions with 50 options each, every question answered from a file,
#    must take at most 50 ms.
#
# Needs hyperfine (Debian: apt-get install -y hyperfine) and python3 (to generate the large
# payload). Exits 1 when a budget is exceeded. Not run by CI (timings are machine-dependent).
set -euo pipefail
cd "$(dirname "$0")/.."

command -v hyperfine >/dev/null || { echo "needs hyperfine: apt-get install -y hyperfine" >&2; exit 2; }
command -v python3 >/dev/null || { echo "needs python3" >&2; exit 2; }

RUNS=${RUNS:-200}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# PI_ASK_BIN=path measures another build (e.g. a static one, see docs/benchmarks.md).
if [ -n "${PI_ASK_BIN:-}" ]; then
  bin=$PI_ASK_BIN
else
  cargo build --release --quiet
  bin=target/release/pi-ask
fi

# The baseline: the cheapest Rust program that prints `{}`.
printf 'fn main() { println!("{{}}"); }\n' > "$work/trivial.rs"
rustc -O -C strip=symbols -o "$work/trivial" "$work/trivial.rs"

# The large payload and its answers (every question answered, some with notes).
python3 benches/gen_large.py "$work"
echo "large payload: $(wc -c < "$work/large.json") bytes"

# Sanity: both runs succeed and answer what they should.
"$bin" benches/four-questions.json --answers benches/four-questions.answers.json > "$work/four.out"
"$bin" "$work/large.json" --answers "$work/large.answers.json" > "$work/large.out"
python3 - "$work" <<'PY'
import json, sys
w = sys.argv[1]
assert len(json.load(open(f"{w}/four.out"))["details"]["answers"]) == 4
assert len(json.load(open(f"{w}/large.out"))["details"]["answers"]) == 1000
PY

# The machine may be busy (other builds): interleave rounds of both commands, compare
# medians per round, and report the median round. Loaded machines inflate wall times; the
# script warns when the load average is above the number of cores.
# Run the measured commands at a higher priority when allowed (root), so that other work on
# the machine (builds) disturbs them less; both sides get the same treatment.
prio=()
if nice -n -15 true 2>/dev/null; then prio=(nice -n -15); fi
rounds=${ROUNDS:-5}
for r in $(seq "$rounds"); do
  "${prio[@]}" hyperfine -N --warmup 20 --runs "$RUNS" --export-json "$work/small-$r.json" \
    -n trivial "$work/trivial" \
    -n pi-ask-4-questions "$bin benches/four-questions.json --answers benches/four-questions.answers.json" \
    >/dev/null 2>&1
  "${prio[@]}" hyperfine -N --warmup 3 --runs 20 --export-json "$work/large-$r.json" \
    -n pi-ask-1000x50 "$bin $work/large.json --answers $work/large.answers.json" \
    >/dev/null 2>&1
done

python3 - "$work" "$rounds" "$(nproc)" <<'PY'
import json, os, statistics as st, sys
w, rounds, cores = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
ms = lambda s: s * 1000
small, large = [], []
for r in range(1, rounds + 1):
    res = {x["command"]: x for x in json.load(open(f"{w}/small-{r}.json"))["results"]}
    small.append((res["trivial"], res["pi-ask-4-questions"]))
    large.append(json.load(open(f"{w}/large-{r}.json"))["results"][0])
ratios = sorted(p["median"] / t["median"] for t, p in small)
ratio = st.median(ratios)
cpu = lambda x: x["user"] + x["system"]
cpu_ratio = st.median(cpu(p) / cpu(t) for t, p in small)
t_med = st.median(ms(t["median"]) for t, _ in small)
p_med = st.median(ms(p["median"]) for _, p in small)
t_mean = st.median(ms(t["mean"]) for t, _ in small)
p_mean = st.median(ms(p["mean"]) for _, p in small)
l_med = st.median(ms(x["median"]) for x in large)
l_mean = st.median(ms(x["mean"]) for x in large)
l_cpu = st.median(ms(cpu(x)) for x in large)
ok_small, ok_large = ratio <= 1.5, l_med <= 50
load = os.getloadavg()[0]
print(f"load average {load:.2f} on {cores} cores" + ("  (busy machine: wall times are inflated)" if load > cores else ""))
print(f"trivial binary:              median {t_med:.2f} ms, mean {t_mean:.2f} ms")
print(f"pi-ask, 4 questions:         median {p_med:.2f} ms, mean {p_mean:.2f} ms")
print(f"  wall ratio (median of {rounds} rounds): {ratio:.2f}x  [rounds: {', '.join(f'{x:.2f}' for x in ratios)}]  budget 1.5x  {'PASS' if ok_small else 'FAIL'}")
print(f"  CPU (user+sys) ratio:      {cpu_ratio:.2f}x")
print(f"pi-ask, 1000 q x 50 options: median {l_med:.1f} ms, mean {l_mean:.1f} ms, CPU {l_cpu:.1f} ms  budget 50 ms  {'PASS' if ok_large else 'FAIL'}")
sys.exit(0 if ok_small and ok_large else 1)
PY

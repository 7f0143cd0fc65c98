#!/usr/bin/env bash
# The runner's own cost over the quick suite: wall time of `diskdash run`
# minus the tools' own durations (the records' duration_s, spawn to exit).
# Target: overhead at most 2% of the tools' time plus 1 s.
#
# usage: bench/runner_overhead.sh [RUNS] [TARGET_DIR]
#   RUNS        how many quick-suite runs (default 5)
#   TARGET_DIR  where to benchmark (default: a new directory under $TMPDIR)
#   DISKDASH_BIN  binary to measure (default: target/release/diskdash, built if missing)
set -euo pipefail
cd "$(dirname "$0")/.."

runs=${1:-5}
bin=${DISKDASH_BIN:-target/release/diskdash}
if [ ! -x "$bin" ]; then
  cargo build --release --quiet
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
target=${2:-$work/target}
mkdir -p "$target"

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

printf '%-4s %10s %10s %10s %8s\n' run wall_s tools_s overhead_s overhead_%
: >"$work/rows"
for i in $(seq 1 "$runs"); do
  out="$work/out$i"
  start=$(date +%s%N)
  status=0
  "$bin" run --target "$target" --suite quick --out "$out" 2>"$work/stderr$i" || status=$?
  end=$(date +%s%N)
  if [ "$status" -ne 0 ]; then
    echo "run $i exited with $status:" >&2
    tail -n 20 "$work/stderr$i" >&2
    exit 1
  fi
  # each record has one `"duration_s": N,` line (pretty-printed JSON)
  tools=$(find "$out" -name '*.json' -exec grep -h '"duration_s":' {} + |
    awk -F': ' '{ gsub(/,/, "", $2); s += $2 } END { printf "%.3f", s }')
  wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
  over=$(awk -v w="$wall" -v t="$tools" 'BEGIN { printf "%.3f", w - t }')
  pct=$(awk -v o="$over" -v t="$tools" 'BEGIN { printf "%.2f", 100 * o / t }')
  printf '%-4s %10s %10s %10s %8s\n' "$i" "$wall" "$tools" "$over" "$pct"
  echo "$wall $tools $over" >>"$work/rows"
done

wall=$(cut -d' ' -f1 "$work/rows" | median)
tools=$(cut -d' ' -f2 "$work/rows" | median)
over=$(cut -d' ' -f3 "$work/rows" | median)
budget=$(awk -v t="$tools" 'BEGIN { printf "%.3f", 0.02 * t + 1 }')
echo
echo "median of $runs runs: wall ${wall} s, tools ${tools} s, runner overhead ${over} s (budget ${budget} s = 2% of tools + 1 s)"
if awk -v o="$over" -v b="$budget" 'BEGIN { exit !(o <= b) }'; then
  echo "PASS"
else
  echo "FAIL: the runner costs more than its budget"
  exit 1
fi

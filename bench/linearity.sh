#!/usr/bin/env bash
# Time per MB from 1 MB to 1 GB, parse-only and full lint, in interleaved
# rounds (each round: the 1 MB file best of 20 runs, then the 1 GB file best
# of 3), so a slow minute of a shared machine hits both sizes alike.
#   bench/linearity.sh [BUILD_DIR] [WORK_DIR] [ROUNDS]
set -euo pipefail
build="${1:-build}"
work="${2:-/tmp/hlolint-bench}"
rounds="${3:-3}"
mkdir -p "$work"
small="$work/gen-1M-after.hlo"
large="$work/gen-1G-after.hlo"
[ -f "$small" ] || "$build/bench/generate_hlo" --size 1M --style after -o "$small"
[ -f "$large" ] || "$build/bench/generate_hlo" --size 1G --style after -o "$large"

# ms per MB (10^6 bytes) of the parse and lint lines: "parse|lint  SECONDS s ...".
# Parse and lint each in a process of their own, as hlolint lints a file
# once: at 1 GB a lint right after a parse of the same file in one process
# ran markedly slower than in a process of its own (the parse's freed memory
# is given back and taken again), which no hlolint run does.
per_mb() {  # per_mb FILE RUNS
  local bytes parse lint
  bytes=$(stat -L -c %s "$1")
  parse=$("$build/bench/lint_bench" --runs "$2" --mode parse "$1" | awk '/^parse/{print $2}')
  lint=$("$build/bench/lint_bench" --runs "$2" --mode lint "$1" | awk '/^lint/{print $2}')
  awk -v bytes="$bytes" -v p="$parse" -v l="$lint" \
    'BEGIN{mb = bytes / 1e6; printf "%.3f %.3f", p * 1000 / mb, l * 1000 / mb}'
}

for round in $(seq "$rounds"); do
  read -r small_parse small_lint <<<"$(per_mb "$small" 20)"
  read -r large_parse large_lint <<<"$(per_mb "$large" 3)"
  awk -v r="$round" -v sp="$small_parse" -v sl="$small_lint" -v lp="$large_parse" \
    -v ll="$large_lint" 'BEGIN{printf "round %d: parse %.3f -> %.3f ms/MB (%.2fx), " \
      "lint %.3f -> %.3f ms/MB (%.2fx)\n", r, sp, lp, lp/sp, sl, ll, ll/sl}'
done

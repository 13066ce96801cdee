#!/usr/bin/env bash
# Reproduces the figures in docs/performance.md.
#   bench/run_benchmarks.sh [BUILD_DIR] [WORK_DIR]
# Generates the inputs into WORK_DIR (default /tmp/hlolint-bench; about
# 1.5 GB), then measures parse-only and full-lint throughput, the same-run
# newline count, peak RSS, linearity and --jobs scaling. Nothing is timed in
# the test suite; CI only smoke-runs lint_bench on a small file.
set -euo pipefail
build="${1:-build}"
work="${2:-/tmp/hlolint-bench}"
corpus="$(dirname "$0")/../../shared/corpus"
mkdir -p "$work"

gen() {  # gen SIZE [STYLE] -> path
  local size="$1" style="${2:-after}" path="$work/gen-$1-$2.hlo"
  [ -f "$path" ] || "$build/bench/generate_hlo" --size "$size" --style "$style" -o "$path"
  echo "$path"
}

echo "== generated, after-optimization style (one file each; one thread, then two)"
for size in 1M 10M 200M 1G; do
  for threads in 1 2; do
    echo "-- $size, $threads thread(s)"
    "$build/bench/lint_bench" --runs 2 --threads "$threads" "$(gen "$size" after)"
  done
done
echo "== generated, before-optimization style"
for threads in 1 2; do
  "$build/bench/lint_bench" --runs 2 --threads "$threads" "$(gen 200M before)"
done

if [ -d "$corpus/xla_hlo_huge" ]; then
  echo "== largest corpus files (xla_hlo_huge, > 1 MB)"
  # shellcheck disable=SC2046
  for threads in 1 2; do
    "$build/bench/lint_bench" --runs 3 --threads "$threads" $(find "$corpus/xla_hlo_huge" -type f -size +1M | sort)
  done
else
  echo "== corpus not found at $corpus: skipping the corpus figures"
fi

echo "== --jobs scaling: 200 files of 1 MB, and the machine's ceiling"
# Rounds in which other processes used more than 10% of the CPUs are
# dropped; on a busy machine this waits (up to 10 minutes) for quiet.
"$(dirname "$0")/jobs_bench.py" --hlolint "$build/tools/hlolint/hlolint" \
  --generate "$build/bench/generate_hlo" --dir "$work/dir200" --runs 5 \
  --max-others 0.10 --timeout 600

echo "== time per MB, 1 MB -> 1 GB (interleaved rounds)"
"$(dirname "$0")/linearity.sh" "$build" "$work" 2

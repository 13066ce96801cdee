#!/usr/bin/env bash
# Every row of docs/performance.md's figure tables with one or more
# lint_bench binaries, interleaved (each row runs every binary before the
# next row starts), so that a slow minute of a shared machine hits all of
# them alike. One line per row and binary: newline floor (MB/s), parse and
# lint MB/s, lint / newlines, peak RSS.
#   bench/ab_rows.sh ROUNDS WORK_DIR LINT_BENCH...
# WORK_DIR holds the generated inputs (made with the first binary's
# generate_hlo when missing; regenerate them before measuring on a VM whose
# page cache splits files left unread, see "How to reproduce").
set -euo pipefail
rounds="$1"; work="$2"; shift 2
corpus="$(dirname "$0")/../../shared/corpus/xla_hlo_huge"
generate="$(dirname "$1")/generate_hlo"
mkdir -p "$work"
for input in "1M after" "10M after" "200M after" "200M before" "1G after"; do
  read -r size style <<<"$input"
  [ -f "$work/gen-$size-$style.hlo" ] ||
    "$generate" --size "$size" --style "$style" -o "$work/gen-$size-$style.hlo"
done
corpus_files=""
[ -d "$corpus" ] && corpus_files="$(find "$corpus" -type f -size +1M | sort | tr '\n' ' ')"
# name:runs:threads:file
rows=("1M:20:1:$work/gen-1M-after.hlo" "10M:5:1:$work/gen-10M-after.hlo"
      "200M-after:3:1:$work/gen-200M-after.hlo" "200M-before:3:1:$work/gen-200M-before.hlo"
      "1G:2:1:$work/gen-1G-after.hlo" "corpus:10:1:CORPUS"
      "200M-after-t2:3:2:$work/gen-200M-after.hlo" "200M-before-t2:3:2:$work/gen-200M-before.hlo"
      "1G-t2:2:2:$work/gen-1G-after.hlo")
for round in $(seq "$rounds"); do
  echo "# round $round $(date +%H:%M:%S)"
  for row in "${rows[@]}"; do
    IFS=: read -r name runs threads file <<<"$row"
    if [ "$file" = CORPUS ]; then
      [ -n "$corpus_files" ] || continue
      file="$corpus_files"
    fi
    for binary in "$@"; do
      # shellcheck disable=SC2086
      "$binary" --runs "$runs" --threads "$threads" $file |
        awk -v row="$name" -v bin="$binary" '/^newlines/{nl=$4} /^parse/{p=$4} /^lint/{l=$4; r=$9}
          /^peak/{rss=$5; gsub(/[()]/, "", rss)} END{printf "%-15s %-28s newlines %7.0f parse %7.1f lint %7.1f %6s %s\n",
          row, bin, nl, p, l, r, rss}'
    done
  done
done

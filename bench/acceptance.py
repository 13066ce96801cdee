#!/usr/bin/env python3
"""Issue 7's acceptance list, every item measured in one run, as a table.

  bench/acceptance.py --build BUILD [--work DIR] [--rounds 4] [--jobs-rounds 9]
  bench/acceptance.py --build BUILD --smoke     # tiny inputs: checks it runs

Writes the generated inputs into DIR afresh (so the page cache holds them
in large folios, see docs/performance.md "How to reproduce"), then, in
interleaved rounds so a slow minute of a shared machine hits every row:

  rows        bench/lint_bench on each input (one thread, then two): newline
              floor, parse and lint MB/s, lint / newlines, peak RSS / input;
              on the 200 MB and 1 GB inputs with --pause-ms (default 2500)
              before each timed run, so each pays for fresh memory as a new
              hlolint process does on a VM whose host takes freed memory
              back (docs/performance.md, "How to reproduce");
  linearity   a round of bench/linearity.sh: parse and lint ms per MB of
              the 1 MB and the 1 GB file, each in a process of its own;
  jobs        bench/jobs_bench.py: --jobs 1 against --jobs 2 on 200 files
              of 1 MB, and two processes on the halves (the machine's own
              ceiling for two workers).

Then prints the machine (CPU model, cores, kernel), the build, and one line
per acceptance item: target, measured range over the rounds, met or not;
last, how much of each large file's text the page cache held in 2 MB
folios when it was mapped.
Ranges are over rounds; each round's figure is the best of its runs. The
verdict holds only if every round meets the target ("in N of M rounds"
otherwise). Never run as a timed test: CI runs --smoke only, whose figures
mean nothing.
"""
import argparse
import os
import platform
import re
import shutil
import subprocess
import sys
from datetime import datetime

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS_HUGE = os.path.join(HERE, "..", "..", "shared", "corpus", "xla_hlo_huge")

# name, size, style, runs per round, threads
FULL_ROWS = [("1M", "1M", "after", 20, 1), ("10M", "10M", "after", 5, 1),
             ("200M-after", "200M", "after", 3, 1), ("200M-before", "200M", "before", 3, 1),
             ("1G", "1G", "after", 2, 1), ("corpus", None, None, 10, 1),
             ("200M-after-t2", "200M", "after", 3, 2), ("200M-before-t2", "200M", "before", 3, 2),
             ("1G-t2", "1G", "after", 2, 2)]
# The same rows on tiny inputs: the script's plumbing, not its figures.
SMOKE_SIZES = {"1M": "64K", "10M": "96K", "200M": "128K", "1G": "192K"}


def run(cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def lint_bench_figures(text):
    """newline floor, parse and lint MB/s, lint / newlines, peak RSS / input."""
    fig = {}
    for line in text.splitlines():
        f = line.split()
        if line.startswith("newlines"):
            fig["newlines"] = float(f[3])
        elif line.startswith("parse") and len(f) > 3:
            fig["parse"] = float(f[3])
        elif line.startswith("lint") and len(f) > 3:
            fig["lint"] = float(f[3])
            fig["ratio"] = float(f[8].rstrip("x"))
        elif line.startswith("peak RSS"):
            fig["rss"] = float(re.search(r"\(([\d.]+)x", line).group(1))
        elif line.startswith("text"):
            # A mapped file: how much of it the page cache held in 2 MB folios.
            m = re.search(r"mapped in 2 MB pages: ([\d.]+)%", line)
            if m:
                fig["huge_text"] = float(m.group(1))
        elif line.startswith("memory"):
            fig["memory"] = line.split(None, 1)[1]
    return fig


def linearity_round(text):
    """(parse 1M, parse 1G, lint 1M, lint 1G) ms per MB from linearity.sh's line."""
    m = re.search(r"parse ([\d.]+) -> ([\d.]+) ms/MB .*lint ([\d.]+) -> ([\d.]+) ms/MB", text)
    if m is None:
        raise ValueError(f"no round line in linearity.sh output: {text!r}")
    return tuple(float(m.group(i)) for i in range(1, 5))


def jobs_speedups(text):
    """(from medians, per-round median, per-round range) for j2 and halves."""
    out = {}
    for line in text.splitlines():
        m = re.match(r"j1 / (j2|halves): wall speedup ([\d.]+) from medians, per round "
                     r"([\d.]+) \(([\d.]+)-([\d.]+)\)", line)
        if m:
            out[m.group(1)] = tuple(float(m.group(i)) for i in range(2, 6))
    return out


def span(values, digits=0):
    lo, hi = min(values), max(values)
    fmt = f"{{:,.{digits}f}}"
    return fmt.format(lo) if f"{lo:.{digits}f}" == f"{hi:.{digits}f}" else \
        f"{fmt.format(lo)}–{fmt.format(hi)}"


def verdict(values, ok):
    met = sum(1 for v in values if ok(v))
    return "yes" if met == len(values) else ("no" if met == 0 else f"in {met} of {len(values)} rounds")


def machine():
    model = "unknown CPU"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores, Linux {platform.release()}"


def build_info(build):
    pgo = "unknown"
    try:
        for line in open(os.path.join(build, "CMakeCache.txt")):
            if line.startswith("HLOLINT_PGO:"):
                pgo = "profile-guided" if line.strip().endswith("ON") else "no profile"
    except OSError:
        pass
    try:
        commit = run(["git", "-C", HERE, "rev-parse", "--short", "HEAD"]).strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown commit"
    return f"{pgo} build in {build} (this checkout: {commit})"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", required=True)
    ap.add_argument("--work", default="/tmp/hlolint-acceptance")
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--jobs-rounds", type=int, default=9)
    ap.add_argument("--pause-ms", type=int, default=2500,
                    help="lint_bench --pause-ms for the 200 MB and 1 GB rows (0: none)")
    ap.add_argument("--smoke", action="store_true", help="tiny inputs, one round each")
    args = ap.parse_args()
    lint_bench = os.path.join(args.build, "bench", "lint_bench")
    generate = os.path.join(args.build, "bench", "generate_hlo")
    hlolint = os.path.join(args.build, "tools", "hlolint", "hlolint")
    rounds, jobs_rounds = (1, 1) if args.smoke else (args.rounds, args.jobs_rounds)
    sizes = SMOKE_SIZES if args.smoke else {s: s for s in SMOKE_SIZES}
    started = datetime.now().strftime("%Y-%m-%d %H:%M")

    os.makedirs(args.work, exist_ok=True)
    inputs = {}
    for name, size, style, _, _ in FULL_ROWS:
        if size is None or (size, style) in inputs:
            continue
        path = os.path.join(args.work, f"gen-{size}-{style}.hlo")
        if os.path.exists(path):
            os.remove(path)  # written afresh: see "How to reproduce"
        run([generate, "--size", sizes[size], "--style", style, "-o", path])
        inputs[(size, style)] = path
    corpus = sorted(os.path.join(d, f) for d, _, fs in os.walk(CORPUS_HUGE) for f in fs
                    if os.path.getsize(os.path.join(d, f)) > 1 << 20) \
        if os.path.isdir(CORPUS_HUGE) and not args.smoke else []

    rows = {name: [] for name, *_ in FULL_ROWS}
    linearity = []  # (parse small, parse large, lint small, lint large) ms per MB
    for r in range(rounds):
        print(f"# round {r + 1} {datetime.now():%H:%M:%S}", file=sys.stderr, flush=True)
        for name, size, style, runs, threads in FULL_ROWS:
            files = corpus if size is None else [inputs[(size, style)]]
            if not files:
                continue
            pause = 0 if args.smoke or size not in ("200M", "1G") else args.pause_ms
            out = run([lint_bench, "--runs", str(1 if args.smoke else runs),
                       "--threads", str(threads), "--pause-ms", str(pause)] + files)
            rows[name].append(lint_bench_figures(out))
        # One round of bench/linearity.sh, on the 1M and 1G files written above.
        linearity.append(linearity_round(run([os.path.join(HERE, "linearity.sh"), args.build,
                                              args.work, "1"])))
    jobs_cmd = [sys.executable, os.path.join(HERE, "jobs_bench.py"), "--hlolint", hlolint,
                "--generate", generate, "--dir", os.path.join(args.work, "dir200"),
                "--runs", str(jobs_rounds)]
    jobs_cmd += (["--files", "4", "--size", "64K"] if args.smoke
                 else ["--max-others", "0.10", "--timeout", "600"])
    if args.smoke:
        shutil.rmtree(os.path.join(args.work, "dir200"), ignore_errors=True)
    jobs = jobs_speedups(run(jobs_cmd))

    def col(name, key):
        return [f[key] for f in rows[name] if key in f]

    print(f"Issue 7 acceptance, {started}, {rounds} round(s){' (smoke: figures mean nothing)' if args.smoke else ''}")
    print(f"machine: {machine()}")
    print(f"build:   {build_info(args.build)}")
    memory = sorted({f["memory"] for fs in rows.values() for f in fs if "memory" in f})
    if memory:
        print(f"memory:  {'; '.join(memory)}")
    if not args.smoke:
        print(f"pauses:  {args.pause_ms} ms before each timed run of the 200 MB and 1 GB rows")
    if not corpus and not args.smoke:
        print(f"corpus:  not found at {CORPUS_HUGE}: its rows are skipped")
    print()
    print("| item | target | measured | met? |")
    print("|---|---|---|---|")
    lint_rows = [n for n in ("200M-after", "200M-before", "1G", "corpus") if rows[n]]
    for n in lint_rows:
        print(f"| full lint, one thread, {n} | ≥ 500 MB/s | {span(col(n, 'lint'))} MB/s "
              f"| {verdict(col(n, 'lint'), lambda v: v >= 500)} |")
    for n in lint_rows + ["1M", "10M"]:
        if rows[n]:
            print(f"| lint / newline floor, one thread, {n} (floor {span(col(n, 'newlines'))} MB/s) "
                  f"| ≤ 9× | {span(col(n, 'ratio'), 1)}× | {verdict(col(n, 'ratio'), lambda v: v <= 9)} |")
    for n in ("1M", "10M", "200M-after", "200M-before", "1G",
              "200M-after-t2", "200M-before-t2", "1G-t2"):
        threads = "two threads" if n.endswith("-t2") else "one thread"
        print(f"| parse only, {threads}, {n.removesuffix('-t2')} | ≥ 1,000 MB/s "
              f"| {span(col(n, 'parse'))} MB/s | {verdict(col(n, 'parse'), lambda v: v >= 1000)} |")
    print(f"| peak RSS, 1G, one thread | ≤ 1.5× | {span(col('1G', 'rss'), 2)}× "
          f"| {verdict(col('1G', 'rss'), lambda v: v <= 1.5)} |")
    parse_ratio = [l[1] / l[0] for l in linearity]
    lint_ratio = [l[3] / l[2] for l in linearity]
    print(f"| time per MB, 1M → 1G, parse | ≤ 1.3× | {span(parse_ratio, 2)}× "
          f"| {verdict(parse_ratio, lambda v: v <= 1.3)} |")
    print(f"| time per MB, 1M → 1G, lint | ≤ 1.3× | {span(lint_ratio, 2)}× "
          f"| {verdict(lint_ratio, lambda v: v <= 1.3)} |")
    if "j2" in jobs:
        med, per_round, lo, hi = jobs["j2"]
        ceiling = jobs.get("halves", (0.0,))[0]
        print(f"| `--jobs 2` / `--jobs 1`, 200 files of 1 MB ({jobs_rounds} rounds; two processes "
              f"on the halves: {ceiling:.2f}×) | ≥ 1.8× | {med:.2f}× from medians, per round "
              f"{per_round:.2f}× ({lo:.2f}–{hi:.2f}) | {'yes' if med >= 1.8 else 'no'} |")
    # The large files' text is mapped, and in 4 KB folios it lints far
    # slower (see docs/performance.md "How to reproduce"): say how it was.
    huge = [f"{n} {span(col(n, 'huge_text'))}%" for n in ("10M", "200M-after", "200M-before", "1G")
            if col(n, "huge_text")]
    if huge:
        print()
        print("text mapped in 2 MB pages (lint_bench's `text` line, range over rounds): "
              + ", ".join(huge))
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""In-process linting (the Python package) versus the CLI on the same
generated HLO file (docs/python.md, "Performance").

  python bench/python_bench.py --hlolint build/tools/hlolint/hlolint \\
      --generate build/bench/generate_hlo [--size 100M] [--runs 5] \\
      [--file /tmp/hlolint-py-bench-100M.hlo]

Run it with a python that has the hlolint wheel installed. Four modes are
timed RUNS times each, interleaved (each round starts with the next mode):

  cli         the CLI given by --hlolint: `hlolint --format concise FILE`,
              its output to /dev/null (process start and exit included)
  wheel-cli   the CLI inside the wheel (hlolint/_bin/hlolint), the same way
  lint_paths  hlolint.lint_paths([FILE]): the library reads the file
  lint_text   hlolint.lint_text(text): a str already in memory (read before
              the clock starts), linted where Python holds it

Printed per mode: median wall time with the range, median CPU time (for the
CLIs the child's user + system time, in process the process's), the ratio of
the median wall time to the cli's, and how many diagnostics it reports
(every mode must report the same number). The generated file is kept for
the next run; never commit it.
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

import hlolint
import hlolint.__main__


def time_cli(path, file):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    r = subprocess.run([path, "--format", "concise", file], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    findings = sum(1 for line in r.stdout.decode(errors="replace").splitlines()
                   if ": note: " not in line)
    return wall, cpu, findings


def time_in_process(lint):
    t, c = time.perf_counter(), time.process_time()
    report = lint()
    return time.perf_counter() - t, time.process_time() - c, len(report)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hlolint", required=True, help="the CLI to compare with")
    ap.add_argument("--generate", help="bench/generate_hlo, to make --file when missing")
    ap.add_argument("--size", default="100M")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--file", default=None)
    args = ap.parse_args()
    file = args.file or f"/tmp/hlolint-py-bench-{args.size}.hlo"
    if not os.path.exists(file):
        if not args.generate:
            ap.error(f"{file} does not exist; give --generate")
        subprocess.run([args.generate, "--size", args.size, "-o", file], check=True)
    size_mb = os.path.getsize(file) / 1e6
    with open(file) as f:
        text = f.read()
    modes = {
        "cli": lambda: time_cli(args.hlolint, file),
        "wheel-cli": lambda: time_cli(hlolint.__main__.executable(), file),
        "lint_paths": lambda: time_in_process(lambda: hlolint.lint_paths([file], jobs=1)),
        "lint_text": lambda: time_in_process(lambda: hlolint.lint_text(text, path=file)),
    }
    samples = {m: [] for m in modes}
    names = list(modes)
    for run in range(args.runs):
        for k in range(len(names)):
            mode = names[(run + k) % len(names)]
            samples[mode].append(modes[mode]())
    print(f"{file}: {size_mb:.1f} MB, {args.runs} runs per mode, hlolint {hlolint.__version__}, "
          f"python {sys.version.split()[0]}")
    base = statistics.median(s[0] for s in samples["cli"])
    print(f"{'mode':<11} {'wall s (median, range)':>26} {'cpu s':>7} {'MB/s':>7} "
          f"{'vs cli':>7} {'findings':>9}")
    for mode in names:
        walls = [s[0] for s in samples[mode]]
        wall = statistics.median(walls)
        cpu = statistics.median(s[1] for s in samples[mode])
        findings = {s[2] for s in samples[mode]}
        print(f"{mode:<11} {wall:>8.3f} ({min(walls):.3f}-{max(walls):.3f})"
              f" {cpu:>7.3f} {size_mb / wall:>7.1f} {wall / base:>6.2f}x "
              f"{','.join(map(str, sorted(findings))):>9}")
    counts = {next(iter({s[2] for s in samples[m]})) for m in names}
    if len(counts) != 1:
        sys.exit("the modes report different numbers of findings")


if __name__ == "__main__":
    main()

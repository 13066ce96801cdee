#!/usr/bin/env python3
"""Lint speed of a dump directory in sequence mode versus the same bytes as
plain files (docs/dump-directories.md, "Performance").

  bench/dump_dir_bench.py --hlolint build/tools/hlolint/hlolint \\
      --generate build/bench/generate_hlo [--dir /tmp/hlolint-dump-bench] \\
      [--modules 5] [--steps 100] [--size 200k] [--jobs 2] [--runs 3]

Writes DIR/seq/ with MODULES x STEPS files named like XLA's per-pass dumps
(module_NNNN.jit_bench_N.SSSS.<pipeline>.after_<pass>.before_<pass>.txt),
each module's dumps the same generated module, and a few dumps per module
with a non-bitcast reshape that appears at one pass and goes away at a later
one, so sequence tracking has findings to follow. DIR/plain/ holds hard
links to the same files under names that are not dump names. Each run
lints one directory (alternating, best of RUNS) and reports wall time,
MB/s and the peak RSS of the hlolint process. Never commit DIR.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

FINDING = ("  hlolint_bench_p = f32[8,6]{1,0} parameter(0)\n"
           "  hlolint_bench_c = f32[8,6]{0,1} copy(hlolint_bench_p)\n"
           "  ROOT hlolint_bench_r = f32[48]{0} reshape(hlolint_bench_c)\n")


def finding_module(module):
    # A second module in the file (XLA dumps hold one, but hlolint lints
    # every module of a file): the copy before the reshape makes it move data.
    return (f"// -----\nHloModule jit_bench_{module}_extra, is_scheduled=true\n"
            f"ENTRY main {{\n{FINDING}}}\n")


def generate(args):
    seq = os.path.join(args.dir, "seq")
    plain = os.path.join(args.dir, "plain")
    shutil.rmtree(args.dir, ignore_errors=True)
    os.makedirs(seq)
    os.makedirs(plain)
    for m in range(args.modules):
        base = os.path.join(args.dir, f"base_{m}.hlo")
        subprocess.run([args.generate, "--size", args.size, "--seed", str(m + 1), "-o", base],
                       check=True)
        text = open(base, encoding="utf-8").read()
        with_finding = text + finding_module(m)
        first, fixed = args.steps // 3, 2 * args.steps // 3
        for s in range(args.steps):
            pipeline = "hlo normalization" if s < args.steps // 2 else "post-layout_assignment.part 2"
            name = (f"module_{m:04d}.jit_bench_{m}.{s:04d}.{pipeline}."
                    f"after_pass-{s}.before_pass-{s + 1}.txt")
            path = os.path.join(seq, name)
            with open(path, "w", encoding="utf-8") as f:
                f.write(with_finding if first <= s < fixed else text)
            os.link(path, os.path.join(plain, f"file_{m:04d}_{s:04d}.hlo"))
        os.remove(base)
    total = sum(os.path.getsize(os.path.join(seq, n)) for n in os.listdir(seq))
    return seq, plain, total


def lint(args, directory):
    start = time.perf_counter()
    proc = subprocess.run([args.hlolint, "--format", "json", "--exit-zero", "--jobs",
                           str(args.jobs), directory], capture_output=True)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"hlolint failed ({proc.returncode}): {proc.stderr.decode()[:2000]}")
    return seconds, proc.stdout


def peak_rss_kb(args, directory):
    proc = subprocess.Popen([args.hlolint, "--format", "json", "--exit-zero", "--jobs",
                             str(args.jobs), directory],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(proc.pid, 0)
    return usage.ru_maxrss


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hlolint", required=True)
    parser.add_argument("--generate", required=True, help="build/bench/generate_hlo")
    parser.add_argument("--dir", default="/tmp/hlolint-dump-bench")
    parser.add_argument("--modules", type=int, default=5)
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--size", default="200k", help="bytes per dump (generate_hlo --size)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    seq, plain, total = generate(args)
    files = args.modules * args.steps
    print(f"{files} files, {total / 1e6:.1f} MB, {args.modules} modules x {args.steps} steps, "
          f"--jobs {args.jobs}")
    best = {"sequence mode": float("inf"), "plain files": float("inf")}
    reports = {}
    for _ in range(args.runs):
        for label, directory in (("sequence mode", seq), ("plain files", plain)):
            seconds, out = lint(args, directory)
            best[label] = min(best[label], seconds)
            reports[label] = out
    for label, directory in (("sequence mode", seq), ("plain files", plain)):
        doc = json.loads(reports[label])
        print(f"  {label:14s} best {best[label]:.3f} s  {total / 1e6 / best[label]:7.1f} MB/s  "
              f"peak RSS {peak_rss_kb(args, directory) / 1024:.0f} MB  "
              f"{len(doc['diagnostics'])} diagnostics reported")
    ratio = best["sequence mode"] / best["plain files"]
    print(f"  sequence/plain time ratio: {ratio:.3f}")


if __name__ == "__main__":
    main()

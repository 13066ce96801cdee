#!/usr/bin/env python3
"""Lint speed of a dump directory in sequence mode versus the same bytes as
plain files (docs/dump-directories.md, "Performance").

  bench/dump_dir_bench.py --hlolint build/tools/hlolint/hlolint \\
      --generate build/bench/generate_hlo [--dir /tmp/hlolint-dump-bench] \\
      [--modules 5] [--steps 100] [--size 200k] [--jobs 2] [--runs 5]

Writes DIR/seq/ with MODULES x STEPS files named like XLA's per-pass dumps
(module_NNNN.jit_bench_N.SSSS.<pipeline>.after_<pass>.before_<pass>.txt),
each module's dumps the same generated module, and a few dumps per module
with a non-bitcast reshape that appears at one pass and goes away at a later
one, so sequence tracking has findings to follow. DIR/plain/ holds hard
links to the same files under names that are not dump names. Three modes
are timed RUNS times each, interleaved (each round starts with the next
mode): the dump directory in sequence mode, the same directory with
--no-sequence, and the plain names. Reported per mode: MB/s from the median
wall time and from the median CPU time (user + system of hlolint, less
disturbed by other users of a shared machine), with the range over the
runs, the peak RSS of the hlolint process and how many diagnostics it
reports. Never commit DIR.
"""
import argparse
import json
import os
import resource
import shutil
import statistics
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


def children_cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def lint(args, directory, extra):
    """Wall seconds, CPU seconds (user + system of hlolint, which the other
    users of a shared machine disturb less than wall time) and stdout."""
    cpu_before = children_cpu_seconds()
    start = time.perf_counter()
    proc = subprocess.run([args.hlolint, "--format", "json", "--exit-zero", "--jobs",
                           str(args.jobs)] + extra + [directory], capture_output=True)
    seconds = time.perf_counter() - start
    cpu = children_cpu_seconds() - cpu_before
    if proc.returncode != 0:
        sys.exit(f"hlolint failed ({proc.returncode}): {proc.stderr.decode()[:2000]}")
    return seconds, cpu, proc.stdout


def peak_rss_kb(args, directory, extra):
    proc = subprocess.Popen([args.hlolint, "--format", "json", "--exit-zero", "--jobs",
                             str(args.jobs)] + extra + [directory],
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
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    seq, plain, total = generate(args)
    files = args.modules * args.steps
    print(f"{files} files, {total / 1e6:.1f} MB, {args.modules} modules x {args.steps} steps, "
          f"--jobs {args.jobs}, {args.runs} runs each (interleaved)")
    modes = [("sequence mode", seq, []),
             ("--no-sequence", seq, ["--no-sequence"]),
             ("plain names", plain, [])]
    times = {label: [] for label, _, _ in modes}
    cpus = {label: [] for label, _, _ in modes}
    reports = {}
    # Interleaved, and each round starting with the next mode, so that load
    # from other users of the machine and the position in a round hit every
    # mode alike.
    for run in range(args.runs):
        for label, directory, extra in modes[run % 3:] + modes[:run % 3]:
            seconds, cpu, out = lint(args, directory, extra)
            times[label].append(seconds)
            cpus[label].append(cpu)
            reports[label] = out
    mb = total / 1e6
    wall, cpu = {}, {}
    for label, directory, extra in modes:
        t, c = sorted(times[label]), sorted(cpus[label])
        wall[label], cpu[label] = statistics.median(t), statistics.median(c)
        doc = json.loads(reports[label])
        print(f"  {label:14s} wall: median {mb / wall[label]:6.1f} MB/s, range {mb / t[-1]:.1f}-{mb / t[0]:.1f}"
              f"  | CPU: median {mb / cpu[label]:6.1f} MB/s, range {mb / c[-1]:.1f}-{mb / c[0]:.1f}"
              f"  | peak RSS {peak_rss_kb(args, directory, extra) / 1024:.0f} MB"
              f"  | {len(doc['diagnostics'])} diagnostics")
    # What each mode must report: one finding per module in sequence mode
    # (where it appears), one per dump that has it otherwise.
    first, fixed = args.steps // 3, 2 * args.steps // 3
    expected = {"sequence mode": args.modules, "--no-sequence": args.modules * (fixed - first),
                "plain names": args.modules * (fixed - first)}
    for label, count in expected.items():
        got = len(json.loads(reports[label])["diagnostics"])
        if got != count:
            sys.exit(f"{label}: {got} diagnostics, expected {count}")
    for other in ("--no-sequence", "plain names"):
        print(f"  sequence mode / {other}: wall {wall['sequence mode'] / wall[other]:.3f}, "
              f"CPU {cpu['sequence mode'] / cpu[other]:.3f} (median time ratios)")


if __name__ == "__main__":
    main()

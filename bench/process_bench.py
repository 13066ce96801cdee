#!/usr/bin/env python3
"""Whole-process speed of hlolint, the way users run it (docs/performance.md,
"Whole processes").

  bench/process_bench.py --hlolint build/tools/hlolint/hlolint \\
      --generate build/bench/generate_hlo \\
      [--corpus ../shared/corpus/xla_hlo_huge] [--work /tmp/hlolint-process-bench] \\
      [--rounds 5] [--dumps 1000] [--large 200M] [--jobs 2] [--smoke]

Every figure is a whole process started with fork/exec and waited for with
os.wait4: wall time, user + system CPU time, peak RSS and minor page faults
of that process alone. `wc -l` and `cat FILE >/dev/null` run on the same
files in the same rounds, interleaved, so a ratio holds on a busy machine
where MB/s does not. Sections:

* start-up: `hlolint --version`, and hlolint on an empty and a tiny file.
* one process per file (as pre-commit and editors run it) over the real
  dumps given with --corpus (files of 1-10 MB), a generated dump of the
  same style and size, and a generated --large file: per-byte cost, and the
  ratio of each file's per-byte cost to the large file's.
* a dump directory: --dumps copies of the corpus's files under XLA per-pass
  dump names (module_NNNN.jit_x.SSSS.<pipeline>.after_<pass>.before_<pass>.txt)
  in WORK, linted by one `hlolint --jobs J` in sequence mode and with
  --no-sequence, beside `wc -l` and `cat` over the same files.

--hlolint may be given several times as NAME=PATH (e.g. base=... new=...):
each binary runs in every round, interleaved, for a before/after in one run.
The last lines are a markdown table to paste into docs/performance.md.
--smoke (what CI runs) uses tiny generated inputs and one round; its figures
mean nothing. WORK is deleted at the end unless --keep; never commit it.
"""
import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time

PASSES = ["simplify-fp-conversions", "algsimp", "cse", "dce", "fusion", "copy-insertion",
          "layout-assignment", "sharding-propagation", "while-loop-simplifier",
          "reshape-mover", "tuple-simplifier", "call-inliner"]
PIPELINES = ["hlo normalization", "post-layout_assignment.part 2", "fusion", "spmd-partitioner"]


class Sample:
    __slots__ = ("wall", "cpu", "rss_kib", "minflt", "rc")

    def __init__(self, wall, cpu, rss_kib, minflt, rc):
        self.wall, self.cpu, self.rss_kib, self.minflt, self.rc = wall, cpu, rss_kib, minflt, rc


TIME = "/usr/bin/time"


def peak_rss_kib(argv):
    """Peak RSS of `argv` alone, through GNU time (the wait4 figure of a child
    of this script includes the Python process it was forked from); None
    without /usr/bin/time."""
    if not os.access(TIME, os.X_OK):
        return None
    done = subprocess.run([TIME, "-f", "%M", *argv], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
    return int(done.stderr.strip().splitlines()[-1])


def run_once(argv, stdout_path=os.devnull, stdin_path=None):
    """One process: wall seconds, CPU seconds, peak RSS (KiB), minor faults."""
    with open(stdout_path, "wb") as out, open(stdin_path or os.devnull, "rb") as inp:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.DEVNULL, stdin=inp)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
    return Sample(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, usage.ru_minflt,
                  proc.returncode)


class Row:
    """One tool on one input, summed over the input's files, per round."""

    def __init__(self, section, label, tool, files, argv_of, per_file):
        self.section, self.label, self.tool = section, label, tool
        self.files, self.argv_of, self.per_file = files, argv_of, per_file
        self.bytes = sum(os.path.getsize(f) for f in files if f is not None)
        self.rounds = []  # (wall, cpu, minflt per process), sums over processes
        self.rss_kib = None  # the largest peak RSS of its processes

    def run(self):
        argvs = [self.argv_of([f]) for f in self.files] if self.per_file else [self.argv_of(self.files)]
        wall = cpu = flt = 0.0
        for argv in argvs:
            s = run_once(argv)
            if s.rc not in (0, 1):
                sys.exit(f"process_bench: {' '.join(argv[:3])} ... exited {s.rc}")
            wall += s.wall
            cpu += s.cpu
            flt += s.minflt
        self.rounds.append((wall, cpu, flt / len(argvs)))
        if self.rss_kib is None:  # once, untimed
            peaks = [peak_rss_kib(argv) for argv in dict.fromkeys(map(tuple, argvs))]
            self.rss_kib = max(peaks) if None not in peaks else 0

    def rss_text(self):
        return f"{self.rss_kib / 1024:.1f}" if self.rss_kib else "–"

    def median(self, k):
        return statistics.median(r[k] for r in self.rounds)

    def best(self, k):
        return min(r[k] for r in self.rounds)


def tools(args, extra=()):
    """(name, argv builder) for every hlolint given, then wc -l and cat."""
    out = []
    for name, path in args.hlolint:
        out.append((name, lambda fs, p=path: [p, "--exit-zero", "-q", *extra, *fs]))
    return out


def reference_tools():
    return [("wc -l", lambda fs: ["wc", "-l", *fs]),
            ("cat", lambda fs: ["cat", *fs])]


def generate(args, size, path, style="model", seed=1):
    subprocess.run([args.generate, "--size", size, "--style", style, "--seed", str(seed),
                    "-o", path], check=True, stdout=subprocess.DEVNULL)
    return path


def corpus_files(args):
    if args.smoke or not args.corpus or not os.path.isdir(args.corpus):
        return []
    found = []
    for root, _, names in os.walk(args.corpus):
        for n in names:
            p = os.path.join(root, n)
            if n.endswith((".hlo", ".txt")) and 1 << 20 <= os.path.getsize(p) <= 10 << 20:
                found.append(p)
    return sorted(found)


def make_dump_dir(args, sources, directory):
    """args.dumps copies of `sources` under per-pass dump names, one module
    per source file, its passes in order."""
    os.makedirs(directory)
    per_module = -(-args.dumps // len(sources))
    made = []
    for i in range(args.dumps):
        m, s = divmod(i, per_module)
        pipeline = PIPELINES[min(s * len(PIPELINES) // per_module, len(PIPELINES) - 1)]
        after, before = PASSES[s % len(PASSES)], PASSES[(s + 1) % len(PASSES)]
        name = f"module_{m + 1:04d}.jit_x{m}.{s + 1:04d}.{pipeline}.after_{after}.before_{before}.txt"
        dest = os.path.join(directory, name)
        shutil.copyfile(sources[m % len(sources)], dest)
        made.append(dest)
    return made


def fmt_ms(sec):
    return f"{sec * 1e3:,.1f}"


def report(rows, large_row_of, machine):
    print()
    print(f"# {machine}")
    print("| section | input | MB | tool | wall ms (median, best) | MB/s (median wall) | "
          "CPU ms (median) | MB/s (CPU) | × wc -l wall (CPU) | × large wall (CPU) | peak RSS MiB | "
          "minor faults per process |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    wc_of = {(r.section, r.label): r for r in rows if r.tool == "wc -l"}
    for r in rows:
        wall, best, cpu = r.median(0), r.best(0), r.median(1)
        if r.section == "start-up":  # per process, not summed over the runs
            n = len(r.files)
            print(f"| {r.section} | {r.label} | – | {r.tool} | {fmt_ms(wall / n)} ({fmt_ms(best / n)}) | – | "
                  f"{fmt_ms(cpu / n)} | – | | | {r.rss_text()} | {r.median(2):,.0f} |")
            continue
        mb = r.bytes / 1e6
        mbs = f"{mb / wall:,.0f}"
        mbs_cpu = f"{mb / cpu:,.0f}" if cpu > 0 else "–"
        wc = wc_of.get((r.section, r.label))
        vs_wc = ""
        if wc is not None and r.tool != "wc -l":
            vs_wc = f"{wall / wc.median(0):.2f}× ({cpu / wc.median(1):.2f}×)"
        large = large_row_of.get(r.tool)
        vs_large = ""
        if large is not None and large is not r and r.bytes and r.section == "per file":
            per_byte, large_per_byte = wall / r.bytes, large.median(0) / large.bytes
            cpu_per_byte, large_cpu_per_byte = cpu / r.bytes, large.median(1) / large.bytes
            vs_large = (f"{per_byte / large_per_byte:.2f}× "
                        f"({cpu_per_byte / large_cpu_per_byte:.2f}×)")
        print(f"| {r.section} | {r.label} | {mb:,.1f} | {r.tool} | {fmt_ms(wall)} ({fmt_ms(best)}) | "
              f"{mbs} | {fmt_ms(cpu)} | {mbs_cpu} | {vs_wc} | {vs_large} | "
              f"{r.rss_text()} | {r.median(2):,.0f} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hlolint", action="append", required=True, help="PATH or NAME=PATH, repeatable")
    ap.add_argument("--generate", required=True, help="bench/generate_hlo")
    ap.add_argument("--corpus", default=os.path.join(os.path.dirname(__file__), "..", "..",
                                                     "shared", "corpus", "xla_hlo_huge"))
    ap.add_argument("--work", default="/tmp/hlolint-process-bench")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--startup-runs", type=int, default=20, help="processes per start-up row and round")
    ap.add_argument("--dumps", type=int, default=1000)
    ap.add_argument("--large", default="200M")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--skip", action="append", default=[], choices=["startup", "files", "dumps"])
    ap.add_argument("--keep", action="store_true", help="keep WORK")
    ap.add_argument("--smoke", action="store_true", help="tiny inputs, one round (CI)")
    args = ap.parse_args()
    args.hlolint = [tuple(h.split("=", 1)) if "=" in h else ("hlolint", h) for h in args.hlolint]
    if args.smoke:
        args.rounds, args.startup_runs, args.dumps, args.large = 1, 2, 12, "1M"

    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    rows = []
    try:
        if "startup" not in args.skip:
            empty = os.path.join(args.work, "empty.hlo")
            open(empty, "w").close()
            tiny = os.path.join(args.work, "tiny.hlo")
            with open(tiny, "w") as f:
                f.write("HloModule m\n\nENTRY main {\n  p = f32[4]{0} parameter(0)\n"
                        "  ROOT n = f32[4]{0} negate(p)\n}\n")
            for name, path in args.hlolint:
                rows.append(Row("start-up", "--version", name, [None] * args.startup_runs,
                                lambda fs, p=path: [p, "--version"], True))
                rows.append(Row("start-up", "empty file", name, [empty] * args.startup_runs,
                                lambda fs, p=path: [p, "--exit-zero", "-q", *fs], True))
                rows.append(Row("start-up", "tiny file", name, [tiny] * args.startup_runs,
                                lambda fs, p=path: [p, "--exit-zero", "-q", *fs], True))
            rows.append(Row("start-up", "tiny file", "cat", [tiny] * args.startup_runs,
                            lambda fs: ["cat", *fs], True))
        large_row_of = {}
        if "files" not in args.skip:
            real = corpus_files(args)
            small_size = "4M" if not args.smoke else "256K"
            gen_small = generate(args, small_size, os.path.join(args.work, f"gen_{small_size}.hlo"))
            gen_large = generate(args, args.large, os.path.join(args.work, f"gen_{args.large}.hlo"))
            inputs = []
            if real:
                inputs.append((f"{len(real)} real dumps, 1–10 MB", real))
            inputs.append((f"generated {small_size}", [gen_small]))
            inputs.append((f"generated {args.large}", [gen_large]))
            for label, files in inputs:
                for name, argv in tools(args) + reference_tools():
                    row = Row("per file", label, name, files, argv, True)
                    rows.append(row)
                    if files == [gen_large]:
                        large_row_of[name] = row
        if "dumps" not in args.skip:
            sources = corpus_files(args)
            if not sources:
                sources = [generate(args, "64K", os.path.join(args.work, f"src_{i}.hlo"), seed=i + 1)
                           for i in range(3)]
            dumps = make_dump_dir(args, sources, os.path.join(args.work, "dumps"))
            label = f"{len(dumps)} dumps"
            for name, path in args.hlolint:
                for mode, extra in (("sequence", []), ("--no-sequence", ["--no-sequence"])):
                    rows.append(Row("dump dir", label, f"{name} --jobs {args.jobs} ({mode})", dumps,
                                    lambda fs, p=path, e=extra: [p, "--exit-zero", "-q", "--jobs",
                                                                 str(args.jobs), *e,
                                                                 os.path.join(args.work, "dumps")],
                                    False))
            for name, argv in reference_tools():
                rows.append(Row("dump dir", label, name, dumps, argv, False))

        for rnd in range(args.rounds):
            for row in rows:
                row.run()
            print(f"round {rnd + 1}/{args.rounds} done", file=sys.stderr, flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(args.work, ignore_errors=True)

    machine = (f"{platform.node()}, {os.cpu_count()} CPUs, Linux {platform.release()}, "
               f"{args.rounds} rounds, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; "
               + ", ".join(f"{n}={p}" for n, p in args.hlolint))
    report(rows, large_row_of, machine)


if __name__ == "__main__":
    main()

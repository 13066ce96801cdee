#!/usr/bin/env python3
"""--jobs scaling of hlolint on a directory of many files, and the machine's
own ceiling (docs/performance.md, "How to reproduce").

  bench/jobs_bench.py --hlolint build/tools/hlolint/hlolint \\
      [--generate build/bench/generate_hlo] [--dir /tmp/jobs200] \\
      [--files 200] [--size 1M] [--runs 7] [--modes j1,j2,halves] \\
      [--max-others 0.05] [--timeout 600]
  bench/jobs_bench.py --hlolint before=/tmp/hlolint-old --hlolint after=build/...

Generates DIR (FILES files of SIZE, seeds 1..FILES) if it does not exist,
then times these modes in rounds (each round runs every mode once, starting
with the next one, so a busy minute hits every mode alike):

  j1      hlolint --jobs 1 DIR
  j2      hlolint --jobs 2 DIR
  halves  two hlolint --jobs 1 processes, each on half of the files, run at
          the same time: what two cores give to this binary with no sharing
          inside one process; wall(j1) / wall(halves) is the machine's
          scaling ceiling for --jobs 2.

Several --hlolint NAME=PATH compare binaries: every mode of every binary
takes part in the same rounds.

The other users of a shared machine disturb wall time (and CPU time:
their processes evict our caches). For each run the script reads the
machine's busy time from /proc/stat and subtracts hlolint's own CPU time:
"others" is what the rest of the machine used during the run, as a share of
the 2 CPUs. With --max-others X, a round in which any run saw more than X
is dropped (and counted), and rounds go on until RUNS rounds are kept or
TIMEOUT seconds have passed; before each round the script waits for the
machine to be idle for 2 s (up to TIMEOUT).

Per mode: median wall and CPU (user + system of hlolint) seconds with the
range over the kept rounds, the others' share and the load average (1 min)
before each run. Then the speedups over j1 from the medians, and from each
round's own j1. Never commit DIR.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time


def generate(args):
    os.makedirs(args.dir, exist_ok=True)
    for i in range(1, args.files + 1):
        path = os.path.join(args.dir, f"module_{i}.hlo")
        if not os.path.exists(path):
            subprocess.run([args.generate, "--size", args.size, "--seed", str(i), "-o", path],
                           check=True)


def machine_times():
    """(busy, total) CPU seconds of the whole machine since boot."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    ticks = os.sysconf("SC_CLK_TCK")
    idle = fields[3] + fields[4]  # idle + iowait
    total = sum(fields[:8])
    return (total - idle) / ticks, total / ticks


def wait_until_idle(deadline):
    while time.time() < deadline:
        busy0, total0 = machine_times()
        time.sleep(2)
        busy1, total1 = machine_times()
        if busy1 - busy0 <= 0.1 * (total1 - total0):
            return
        time.sleep(3)


def run_processes(commands):
    """Starts all commands at once; returns (wall s, CPU s, others' share)."""
    busy0, _ = machine_times()
    start = time.perf_counter()
    procs = [subprocess.Popen(c, stdout=subprocess.DEVNULL) for c in commands]
    cpu = 0.0
    for p in procs:
        _, status, usage = os.wait4(p.pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit(f"failed: {' '.join(commands[procs.index(p)])}")
        cpu += usage.ru_utime + usage.ru_stime
    wall = time.perf_counter() - start
    busy1, _ = machine_times()
    others = max(0.0, (busy1 - busy0) - cpu) / (os.cpu_count() * wall)
    return wall, cpu, others


def summary(values, digits=3):
    return (f"{statistics.median(values):.{digits}f} "
            f"({min(values):.{digits}f}-{max(values):.{digits}f})")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hlolint", action="append", required=True)
    parser.add_argument("--generate", default="build/bench/generate_hlo")
    parser.add_argument("--dir", default="/tmp/jobs200")
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--size", default="1M")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--modes", default="j1,j2,halves")
    parser.add_argument("--max-others", type=float, default=None)
    parser.add_argument("--timeout", type=float, default=600)
    args = parser.parse_args()

    generate(args)
    files = sorted(os.path.join(args.dir, n) for n in os.listdir(args.dir))
    half = len(files) // 2
    commands = {}
    binaries = []
    for spec in args.hlolint:
        name, _, path = spec.rpartition("=")
        prefix = f"{name}:" if name else ""
        binaries.append(prefix)
        base = [path, "--no-config", "--exit-zero", "-q"]
        commands[prefix + "j1"] = [base + ["--jobs", "1", args.dir]]
        commands[prefix + "j2"] = [base + ["--jobs", "2", args.dir]]
        commands[prefix + "halves"] = [base + ["--jobs", "1"] + files[:half],
                                       base + ["--jobs", "1"] + files[half:]]
    for m in args.modes.split(","):
        if m not in ("j1", "j2", "halves"):
            sys.exit(f"unknown mode {m}")
    modes = [b + m for b in binaries for m in args.modes.split(",")]
    results = {m: {"wall": [], "cpu": [], "others": [], "load": []} for m in modes}
    for m in modes:  # warm the page cache
        run_processes(commands[m])
    deadline = time.time() + args.timeout
    kept = dropped = 0
    r = 0
    while kept < args.runs:
        if args.max_others is not None:
            if time.time() >= deadline:
                break
            wait_until_idle(deadline)
        round_results = {}
        for k in range(len(modes)):
            m = modes[(r + k) % len(modes)]
            load = os.getloadavg()[0]
            round_results[m] = run_processes(commands[m]) + (load,)
        r += 1
        print(f"round {r}: " + ", ".join(
            f"{m} {w:.3f}s cpu {c:.3f}s others {o:.2f}"
            for m, (w, c, o, _) in sorted(round_results.items())), file=sys.stderr, flush=True)
        if args.max_others is not None and any(
                res[2] > args.max_others for res in round_results.values()):
            dropped += 1
            continue
        kept += 1
        for m, (wall, cpu, others, load) in round_results.items():
            results[m]["wall"].append(wall)
            results[m]["cpu"].append(cpu)
            results[m]["others"].append(others)
            results[m]["load"].append(load)
    total_mb = sum(os.path.getsize(f) for f in files) / 1e6
    print(f"{len(files)} files, {total_mb:.0f} MB, {kept} rounds kept, {dropped} dropped "
          f"(others > {args.max_others})")
    if kept == 0:
        return
    width = max(len(m) for m in modes) + 1
    print(f"{'mode':{width}} {'wall s median (range)':22} {'CPU s median (range)':22} "
          f"{'others median (range)':22} load avg (range)")
    for m in modes:
        res = results[m]
        print(f"{m:{width}} {summary(res['wall']):22} {summary(res['cpu']):22} "
              f"{summary(res['others'], 2):22} {summary(res['load'], 2)}")
    for b in binaries:
        if b + "j1" not in results:
            continue
        j1 = results[b + "j1"]
        for m in modes:
            if not m.startswith(b) or m == b + "j1":
                continue
            res = results[m]
            ratio = statistics.median(j1["wall"]) / statistics.median(res["wall"])
            per_round = [x / y for x, y in zip(j1["wall"], res["wall"])]
            cpu_ratio = statistics.median(res["cpu"]) / statistics.median(j1["cpu"])
            print(f"{b}j1 / {m}: wall speedup {ratio:.2f} from medians, per round "
                  f"{summary(per_round, 2)}; CPU {m} / {b}j1 {cpu_ratio:.2f}")


if __name__ == "__main__":
    main()

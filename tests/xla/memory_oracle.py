#!/usr/bin/env python3
"""The XLA oracle, part 3: XLA's buffer assignment judges hlolint's memory
report.

  memory_oracle.py --hlolint PATH [--only NAME,...] [--jobs N] [--work DIR [--no-compile]]
                   [--tolerance 0.10] [--known FILE] [--out FILE.md]
                   [--xla-version jaxlib|latest|VERSION]

The program suite (tests/xla/programs/, compiled by program_suite.py) is
compiled with

  XLA_FLAGS=--xla_dump_to=DIR --xla_dump_hlo_as_text --xla_force_host_platform_device_count=8

For every module XLA writes, next to the optimized module
`module_NNNN.<name>.cpu_after_optimizations.txt`, its buffer assignment
(`...-buffer-assignment.txt`) and "Total bytes used: N" (in
`...-buffer-assignment-values.txt`; older XLAs print it at the end of the
buffer assignment). N is the sum of the sizes of all allocations
(docs/xla-oracle.md, "The memory oracle"). Then hlolint runs once,
`--memory-report --format json --no-config` over all the optimized modules,
and each module's `total_bytes` is compared with N.

A table per module (XLA's total and its parts, hlolint's total and its
parts, ratio, relative error) and the median and worst relative error are
printed (and written to --out as Markdown). Beside it, not judged: XLA's
largest live set (`Stack trace breakdown for peak usage: N bytes` in
`...-live-range.txt`) against hlolint's `peak_bytes`. A module off by more than
--tolerance fails the test unless --known (tests/xla/known_memory_deviations.json)
lists it with a reason (and, when the entry has a max_error, within it).

Exit status: 0 all within tolerance or documented, 1 a module off (or
missing from the report), 77 skipped (XLA not available: PyPI unreachable;
or the hlolint under test has no --memory-report), 2 usage.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import jax_env  # noqa: E402
import program_suite  # noqa: E402

OPTIMIZED_SUFFIX = ".cpu_after_optimizations.txt"
ASSIGNMENT_SUFFIX = ".cpu_after_optimizations-buffer-assignment.txt"
VALUES_SUFFIX = ".cpu_after_optimizations-buffer-assignment-values.txt"
LIVE_RANGE_SUFFIX = ".cpu_after_optimizations-live-range.txt"
PEAK_LINE = re.compile(r"Stack trace breakdown for peak usage: ([\d ]+) bytes")
TOTAL_LINE = re.compile(r"^Total bytes used: (\d+)", re.M)
ALLOCATION_LINE = re.compile(r"^allocation \d+: size (\d+)(.*):$", re.M)
DEFAULT_KNOWN = os.path.join(HERE, "known_memory_deviations.json")


# ---------------------------------------------------------------- XLA's side

def allocation_kind(flags):
    """The part of XLA's total an allocation header's flags put it in."""
    if "thread-local" in flags:
        return "thread_local"
    if "preallocated-temp" in flags:
        return "temp"
    if "parameter" in flags:
        return "parameters"
    if "constant" in flags:
        return "constants"
    if "maybe-live-out" in flags or "output shape is" in flags:
        return "outputs"  # the root tuple's index table, or an output leaf
    return "other"


def read_buffer_assignment(assignment_path):
    """XLA's "Total bytes used" and the allocation bytes by kind."""
    with open(assignment_path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    values_path = assignment_path[:-len(ASSIGNMENT_SUFFIX)] + VALUES_SUFFIX
    total = None
    for source in (values_path, assignment_path):
        if os.path.exists(source):
            with open(source, encoding="utf-8", errors="replace") as f:
                m = TOTAL_LINE.search(f.read())
            if m:
                total = int(m.group(1))
                break
    parts = {}
    for size, flags in ALLOCATION_LINE.findall(text):
        kind = allocation_kind(flags)
        parts[kind] = parts.get(kind, 0) + int(size)
    summed = sum(parts.values())
    if total is None:
        raise RuntimeError(f"no 'Total bytes used' for {assignment_path}")
    if summed != total:
        # The total is the sum of the allocations (BufferAssignment::ToString);
        # if not, this script no longer reads XLA's files right.
        raise RuntimeError(f"{os.path.basename(assignment_path)}: allocations sum to {summed}, "
                           f"XLA says Total bytes used: {total}")
    return total, parts


def read_live_range_peak(assignment_path):
    """XLA's largest live set in bytes (HloLiveRange's peak: every value live
    at that point of the flattened schedule, parameters and outputs
    included, sizes not rounded), or None when the file does not say."""
    path = assignment_path[:-len(ASSIGNMENT_SUFFIX)] + LIVE_RANGE_SUFFIX
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8", errors="replace") as f:
        m = PEAK_LINE.search(f.read())
    return int(m.group(1).replace(" ", "")) if m else None


def xla_modules(work, manifests):
    """[{program, module, hlo, xla_total, xla_parts}] for every module with a
    buffer assignment, in program and file order."""
    modules = []
    for program, man in manifests.items():
        for e in man["files"]:
            if not e["name"].endswith(ASSIGNMENT_SUFFIX):
                continue
            hlo = e["path"][:-len(ASSIGNMENT_SUFFIX)] + OPTIMIZED_SUFFIX
            if not os.path.exists(hlo):
                raise RuntimeError(f"a buffer assignment without its optimized module: {e['path']}")
            total, parts = read_buffer_assignment(e["path"])
            name = e["name"][:-len(ASSIGNMENT_SUFFIX)]
            modules.append({"program": program, "module": re.sub(r"^module_\d+\.", "", name),
                            "dump": name, "hlo": os.path.abspath(hlo),
                            "xla_total": total, "xla_parts": parts,
                            "xla_peak": read_live_range_peak(e["path"])})
    return modules


# ---------------------------------------------------------------- hlolint's side

def has_memory_report(hlolint):
    try:
        r = subprocess.run([hlolint, "--help"], capture_output=True, text=True, timeout=60)
    except OSError:
        return False
    return "--memory-report" in r.stdout + r.stderr


def hlolint_reports(hlolint, profile_args, files):
    """hlolint's memory report for each file: {abspath: module entry}."""
    cmd = [hlolint] + profile_args + ["--memory-report", "--format", "json", "--no-config"] + files
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if r.returncode not in (0, 1):
        raise RuntimeError(f"hlolint --memory-report exited {r.returncode}: {r.stderr[-2000:]}")
    report = json.loads(r.stdout)
    return {os.path.abspath(m["file"]): m for m in report.get("modules", [])}


# ---------------------------------------------------------------- the verdict

def load_known(path):
    """{"program/module": {"reason": why, "max_error": bound or absent}} from
    the known-deviations file."""
    if not path or not os.path.exists(path):
        return {}
    with open(path) as f:
        data = json.load(f)
    return data.get("modules", {})


def human(n):
    return "-" if n is None else f"{n:,}"


def table(rows):
    head = ("| module | XLA total | params | outputs | consts | thread-local | temp "
            "| hlolint total | params | outputs | temps peak | ratio | error "
            "| XLA peak | hlolint peak | peak error |")
    lines = [head, "|" + "---|" * 16]
    for r in rows:
        p, h = r["xla_parts"], r.get("hlolint") or {}
        peak_error = (None if r.get("xla_peak") in (None, 0) or h.get("peak_bytes") is None
                      else (h["peak_bytes"] - r["xla_peak"]) / r["xla_peak"])
        lines.append("| {}/{} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |".format(
            r["program"], r["module"], human(r["xla_total"]), human(p.get("parameters", 0)),
            human(p.get("outputs", 0)), human(p.get("constants", 0)),
            human(p.get("thread_local", 0)), human(p.get("temp", 0)),
            human(h.get("total_bytes")), human(h.get("parameters_bytes")),
            human(h.get("outputs_bytes")), human(h.get("temporaries_peak_bytes")),
            "-" if r["ratio"] is None else f"{r['ratio']:.3f}",
            "-" if r["error"] is None else f"{r['error']:+.1%}",
            human(r.get("xla_peak")), human(h.get("peak_bytes")),
            "-" if peak_error is None else f"{peak_error:+.1%}"))
    return "\n".join(lines)


def judge(modules, reports, tolerance, known):
    """Fills ratio/error/verdict into each module; returns the failures."""
    failures = []
    for m in modules:
        h = reports.get(m["hlo"])
        m["hlolint"] = h
        key = f"{m['program']}/{m['module']}"
        if h is None or "total_bytes" not in h:
            m["ratio"] = m["error"] = None
            m["verdict"] = "missing"
            failures.append(f"{key}: not in hlolint's memory report")
            continue
        m["ratio"] = h["total_bytes"] / m["xla_total"] if m["xla_total"] else None
        m["error"] = (h["total_bytes"] - m["xla_total"]) / m["xla_total"] if m["xla_total"] else 0.0
        if abs(m["error"]) <= tolerance:
            m["verdict"] = "ok" if key not in known else "ok (listed as known; no longer off)"
        elif key in known and abs(m["error"]) <= known[key].get("max_error", float("inf")):
            m["verdict"] = f"known: {known[key]['reason']}"
        elif key in known:
            m["verdict"] = f"OFF beyond its documented {known[key]['max_error']:.0%}"
            failures.append(f"{key}: hlolint {h['total_bytes']:,} bytes, XLA {m['xla_total']:,} "
                            f"({m['error']:+.1%}), more than the {known[key]['max_error']:.0%} "
                            f"documented ({known[key]['reason']})")
        else:
            m["verdict"] = "OFF"
            failures.append(f"{key}: hlolint {h['total_bytes']:,} bytes, XLA {m['xla_total']:,} "
                            f"({m['error']:+.1%})")
    return failures


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hlolint", required=True)
    ap.add_argument("--only", default="", help="comma-separated program modules")
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--work", default="", help="keep the dumps here (default: a temp dir, "
                                                "removed when all held)")
    ap.add_argument("--no-compile", action="store_true",
                    help="judge the dumps already in --work (from an earlier run) without compiling")
    ap.add_argument("--tolerance", type=float, default=0.10)
    ap.add_argument("--known", default=DEFAULT_KNOWN,
                    help="documented deviations (JSON: {\"modules\": {\"program/module\": "
                         "{\"reason\": ..., \"max_error\": 0.25}}}; max_error optional)")
    ap.add_argument("--out", default="", help="write the table and the verdict here (Markdown)")
    ap.add_argument("--xla-version", default="jaxlib",
                    help="hlolint's XLA profile: jaxlib (default), latest, or a version")
    args = ap.parse_args()
    hlolint = os.path.abspath(args.hlolint)
    if args.no_compile and not args.work:
        print("--no-compile needs --work DIR", file=sys.stderr)
        return 2
    if not os.access(hlolint, os.X_OK):
        print(f"hlolint not found: {hlolint}", file=sys.stderr)
        return 2
    if not has_memory_report(hlolint):
        jax_env.exit_skipped(f"{hlolint} has no --memory-report")

    t_start = time.time()
    jax_env.reexec_in_env()  # exits 77 when XLA cannot be had
    print(f"XLA oracle (memory): {jax_env.describe()}", flush=True)
    profile_args, profile = jax_env.hlolint_profile_args(hlolint, args.xla_version)
    print(f"hlolint judged as: {profile}", flush=True)

    programs = program_suite.program_names(args.only)
    work = os.path.abspath(args.work) if args.work else tempfile.mkdtemp(prefix="hlolint-xla-memory-")
    os.makedirs(work, exist_ok=True)
    manifests, broken = {}, []
    t0 = time.time()
    compiled = (program_suite.read_manifests(programs, work) if args.no_compile else
                program_suite.compile_programs(programs, work, args.jobs,
                                               program_suite.OPTIMIZED_FLAGS, parse=False))
    for program, manifest, err, secs in compiled:
        if err:
            what = "no dumps" if args.no_compile else "does not compile"
            broken.append(f"{program}: {what}: {err.strip().splitlines()[-1][:300]}")
            print(f"  {program}: {what.upper()}\n{err}", flush=True)
            continue
        manifests[program] = manifest
        verb = "read    " if args.no_compile else "compiled"
        print(f"  {verb} {program:24} {len(manifest['compiled'])} jit(s), {secs:.1f}s", flush=True)
    t_compile = time.time() - t0

    modules = xla_modules(work, manifests)
    t1 = time.time()
    reports = hlolint_reports(hlolint, profile_args, [m["hlo"] for m in modules]) if modules else {}
    t_report = time.time() - t1
    known = load_known(args.known)
    failures = broken + judge(modules, reports, args.tolerance, known)
    seen = {f"{m['program']}/{m['module']}" for m in modules}
    for key in sorted(set(known) - seen):
        if not args.only:
            print(f"note: {args.known} lists {key}, a module the suite no longer has")

    errors = [abs(m["error"]) for m in modules if m["error"] is not None]
    worst = max((m for m in modules if m["error"] is not None),
                key=lambda m: abs(m["error"]), default=None)
    summary = (f"modules: {len(modules)} ({len(errors)} reported by hlolint); "
               f"median |error| {statistics.median(errors):.1%}; " if errors else
               f"modules: {len(modules)}; ")
    if worst:
        summary += f"worst {worst['error']:+.1%} ({worst['program']}/{worst['module']}); "
    peak_errors = [abs(m["hlolint"]["peak_bytes"] - m["xla_peak"]) / m["xla_peak"] for m in modules
                   if m.get("hlolint") and m["hlolint"].get("peak_bytes") is not None
                   and m.get("xla_peak")]
    if peak_errors:
        summary += (f"peak_bytes against XLA's live-range peak (not judged): median "
                    f"|error| {statistics.median(peak_errors):.1%}, worst {max(peak_errors):.1%}; ")
    within = sum(1 for e in errors if e <= args.tolerance)
    summary += (f"within {args.tolerance:.0%}: {within}/{len(modules)}; "
                f"compile {t_compile:.1f}s, hlolint {t_report:.2f}s, total {time.time() - t_start:.1f}s")
    text = table(modules)
    verdicts = "\n".join(f"- {m['program']}/{m['module']}: {m['verdict']}" for m in modules
                         if m.get("verdict") != "ok")
    print("\n" + text + "\n")
    if verdicts:
        print(verdicts + "\n")
    print(summary)
    if args.out:
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        with open(args.out, "w") as f:
            f.write(f"# XLA oracle: memory report against buffer assignment\n\n"
                    f"{jax_env.describe()}; {profile}\n\n{summary}\n\n{text}\n\n"
                    + (verdicts + "\n" if verdicts else ""))
    if failures:
        print(f"\nFAILED: {len(failures)} module(s) off by more than {args.tolerance:.0%} and not "
              f"documented in {args.known} (or beyond the max_error documented there); "
              f"dumps kept in {work}")
        for line in failures:
            print(f"  {line}")
        return 1
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    print(f"OK: every module within {args.tolerance:.0%} of XLA's buffer assignment, or documented")
    return 0


if __name__ == "__main__":
    sys.exit(main())

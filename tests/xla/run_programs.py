#!/usr/bin/env python3
"""The XLA oracle, part 1: our JAX programs compiled by a real XLA (CPU), and
every dump XLA writes linted by hlolint.

  run_programs.py --hlolint PATH [--source DIR] [--only NAME,...] [--jobs N]
                  [--work DIR] [--failures FILE] [--keep-optimized DIR]

Each module in tests/xla/programs/ (see programs/_common.py) is compiled in
its own subprocess (program_suite.py) with

  XLA_FLAGS=--xla_dump_to=DIR --xla_dump_hlo_pass_re=.* --xla_dump_hlo_as_text
            --xla_force_host_platform_device_count=8

and XLA's own parser (ParseAndReturnUnverifiedModule, through
jaxlib's hlo_module_from_text) reads back every .txt file it wrote: the ones
it accepts are the HLO dumps, the others are not HLO. Then hlolint, run once
over all dump directories, must:

  * list exactly the HLO dumps (--show-files): no file XLA does not read as
    HLO, and no HLO dump left out;
  * report no parse-error or unsupported-format on any of them, no verify-*
    finding and no seed-rule finding (reshape-not-bitcast,
    unclaimed-output-alias, dead-in-place-past-root, missed-in-place-pair)
    nor memory-rule finding (donation-not-used, entry-parameter-copied),
    unless the program's EXPECT names the rule and says why: once over the
    dump directories (--every-dump, so every dump of a sequence is judged)
    and once with each dump linted alone (--no-sequence), as a user who
    lints one file; and report every rule an EXPECT names at least once;
  * count the same computations and instructions per dump as XLA's parser;
  * put every dump into its module in --dump-summary: one module per module
    id XLA wrote, named as the dump's `HloModule` line says, and no HLO dump
    among the "other files".

Every failure is printed, grouped by kind with an HLO excerpt, and written to
--failures (default /tmp/oracle/failures.md). --keep-optimized DIR copies the
optimized modules and XLA's buffer assignments for memory_oracle.py. Exit status: 0 all held, 1
something failed, 77 XLA not available (PyPI unreachable), 2 usage.
"""
import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import jax_env  # noqa: E402
import program_suite  # noqa: E402

SEED_RULES = {"reshape-not-bitcast", "unclaimed-output-alias",
              "dead-in-place-past-root", "missed-in-place-pair",
              "donation-not-used", "entry-parameter-copied"}
PARSE_RULES = {"parse-error", "unsupported-format"}
DUMP_NAME = re.compile(r"^(?:\d+\.)?module_(\d{4,})(?:\.|$)")


# ---------------------------------------------------------------- driver side

class Failures:
    def __init__(self):
        self.by_kind = collections.OrderedDict()

    def add(self, kind, detail, path=None, line=None, program=None):
        self.by_kind.setdefault(kind, []).append(
            {"detail": detail, "path": path, "line": line, "program": program})

    def count(self):
        return sum(len(v) for v in self.by_kind.values())


def excerpt(path, line, around=2):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return ""
    if not line:
        return "\n".join(lines[:5])
    lo, hi = max(0, line - 1 - around), min(len(lines), line + around)
    return "\n".join(f"{'>' if i == line - 1 else ' '}{i + 1:5}: {lines[i][:300]}"
                     for i in range(lo, hi))


def construct(path, line):
    """The opcode on the finding's line, as XLA wrote it."""
    text = excerpt(path, line, 0)
    m = re.search(r"=\s*(?:\S+\s+)?([a-z][a-z0-9-]*)\(", text)
    return m.group(1) if m else "?"


def run_hlolint(hlolint, args, expect_json=True):
    r = subprocess.run([hlolint] + args, capture_output=True, text=True, timeout=600)
    if r.returncode not in (0, 1):
        raise RuntimeError(f"hlolint {' '.join(args)} exited {r.returncode}: {r.stderr[-2000:]}")
    return (json.loads(r.stdout) if expect_json else r.stdout), r.stderr


def module_id(name):
    m = DUMP_NAME.match(name)
    return m.group(1) if m else None


def write_failures(path, failures, header):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(f"# XLA oracle: program suite failures\n\n{header}\n\n")
        if not failures.by_kind:
            f.write("No failures.\n")
        for kind, items in failures.by_kind.items():
            f.write(f"## {kind} ({len(items)})\n\n")
            programs = sorted({i["program"] for i in items if i["program"]})
            if programs:
                f.write(f"Programs: {', '.join(programs)}\n\n")
            first = items[0]
            f.write(f"Example: `{first['detail']}`\n\n")
            if first["path"]:
                f.write(f"File: `{os.path.basename(first['path'])}`"
                        f"{':' + str(first['line']) if first['line'] else ''}\n\n")
                f.write("```\n" + excerpt(first["path"], first["line"]) + "\n```\n\n")
            for i in items[1:6]:
                f.write(f"- `{os.path.basename(i['path'] or '')}`"
                        f"{':' + str(i['line']) if i['line'] else ''}: {i['detail'][:300]}\n")
            if len(items) > 6:
                f.write(f"- ... and {len(items) - 6} more\n")
            f.write("\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hlolint", required=True)
    ap.add_argument("--source", default=os.path.dirname(os.path.dirname(HERE)))
    ap.add_argument("--only", default="", help="comma-separated program modules")
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--work", default="", help="keep dumps here (default: a temp dir, removed when all held)")
    ap.add_argument("--failures", default="/tmp/oracle/failures.md")
    ap.add_argument("--keep-optimized", default="",
                    help="copy the optimized modules and their buffer assignments here "
                         "(for memory_oracle.py --work DIR --no-compile)")
    ap.add_argument("--xla-version", default="jaxlib",
                    help="hlolint's XLA profile: jaxlib (the date of this jaxlib's XLA, "
                         "default), latest, or a version to pass on")
    args = ap.parse_args()
    hlolint = os.path.abspath(args.hlolint)
    if not os.access(hlolint, os.X_OK):
        print(f"hlolint not found: {hlolint}", file=sys.stderr)
        return 2

    t_start = time.time()
    jax_env.reexec_in_env()  # exits 77 when XLA cannot be had
    print(f"XLA oracle: {jax_env.describe()}", flush=True)
    profile_args, profile = jax_env.hlolint_profile_args(hlolint, args.xla_version)
    print(f"hlolint judged as: {profile}", flush=True)

    programs = program_suite.program_names(args.only)
    work = os.path.abspath(args.work) if args.work else tempfile.mkdtemp(prefix="hlolint-xla-programs-")
    os.makedirs(work, exist_ok=True)

    failures = Failures()
    manifests = {}
    t0 = time.time()
    for program, manifest, err, secs in program_suite.compile_programs(programs, work, args.jobs):
        if err:
            failures.add("program does not compile", err.strip().splitlines()[-1][:300],
                         program=program)
            print(f"  {program}: FAILED TO COMPILE\n{err}", flush=True)
            continue
        manifests[program] = manifest
        hlo_n = sum(1 for e in manifest["files"] if e.get("xla") == "ok")
        print(f"  compiled {program:24} {len(manifest['compiled'])} jit(s), "
              f"{hlo_n} HLO dumps, {secs:.1f}s", flush=True)
    t_compile = time.time() - t0
    if args.keep_optimized:
        program_suite.keep_optimized(manifests, os.path.abspath(args.keep_optimized))

    # What XLA wrote, as XLA reads it.
    hlo_files = {}      # path -> (program, manifest entry)
    other_text = {}     # path -> (program, entry): .txt files XLA's parser rejects
    for program, man in manifests.items():
        for e in man["files"]:
            if e.get("xla") == "ok":
                hlo_files[e["path"]] = (program, e)
            elif e.get("xla") == "rejected":
                other_text[e["path"]] = (program, e)

    def program_of(path):
        for p in manifests:
            if path.startswith(os.path.join(work, p) + os.sep):
                return p
        return None

    t1 = time.time()
    dirs = [os.path.join(work, p) for p in manifests]
    instructions = 0
    if dirs:
        # 1. Which files hlolint reads.
        shown, _ = run_hlolint(hlolint, profile_args + ["--show-files"] + dirs, expect_json=False)
        shown = {os.path.abspath(l) for l in shown.splitlines() if l.strip()}
        for path in sorted(shown - set(hlo_files)):
            e = other_text.get(path, (None, {}))[1]
            failures.add("lints a file that is not HLO (XLA's parser rejects it)",
                         f"{os.path.basename(path)}: XLA says {e.get('error', 'not a .txt/.hlo file')!r}",
                         path, None, program_of(path))
        for path in sorted(set(hlo_files) - shown):
            failures.add("skips an HLO dump", os.path.basename(path), path, None, program_of(path))

        # 2. Findings in every dump, and the counts per dump: once as a dump
        # directory (sequence mode, each dump judged: --every-dump), once with
        # every dump linted alone (--no-sequence), as a user linting one file.
        expected_seen = collections.Counter()
        # Alone, a per-pass CPU dump carries no mark of its backend (only the
        # after-optimizations dump's name says cpu, and a dump sequence
        # passes that on): a user linting one such file says --backend cpu.
        # Without it, hlolint judges for an unknown backend, where the
        # reshapes ReduceWindowRewriter lays out before layout assignment
        # (s32[2,16]{0,1}) read as assigned layouts (docs/xla-oracle.md).
        for mode, mode_args in (("sequence", ["--every-dump"]),
                                ("alone", ["--no-sequence", "--backend", "cpu"])):
            report, stats = run_hlolint(hlolint, profile_args + [
                "--format", "json", "--statistics", "--no-config",
                "--jobs", str(args.jobs)] + mode_args + dirs)
            suffix = "" if mode == "sequence" else " [dump linted alone, --no-sequence]"
            if mode == "sequence":
                for f in report["files"]:
                    path = os.path.abspath(f["path"])
                    if path not in hlo_files:
                        continue
                    instructions += f.get("instructions", 0)
                    e = hlo_files[path][1]
                    if (f.get("computations"), f.get("instructions")) != (e["computations"], e["instructions"]):
                        failures.add("counts differ from XLA's parser",
                                     f"hlolint {f.get('computations')} computations / {f.get('instructions')} "
                                     f"instructions, XLA {e['computations']} / {e['instructions']}",
                                     path, None, hlo_files[path][0])
            for d in report["diagnostics"]:
                path = os.path.abspath(d["file"])
                rule = d["rule"]
                program = program_of(path)
                expect = manifests.get(program, {}).get("expect", {})
                where = f"{rule}: {d['message']}"
                if path not in hlo_files:
                    continue  # reported above as a file that is not HLO
                if rule in expect and (rule in SEED_RULES or rule.startswith("verify")):
                    if mode == "sequence":
                        expected_seen[(program, rule)] += 1
                    continue
                if rule in PARSE_RULES:
                    kind = f"{rule} on an HLO dump XLA parses"
                elif rule.startswith("verify-") or rule == "verify":
                    kind = f"{rule} ({d['severity']}) on a module XLA compiled"
                elif rule in SEED_RULES:
                    kind = f"{rule} ({d['severity']}) not expected by the program"
                else:
                    continue  # meta rules (unused-suppression) say nothing about XLA
                line = d.get("line")
                failures.add(kind + suffix, f"{where} [at {construct(path, line)}]", path, line, program)
        for program, man in manifests.items():
            for rule, why in man.get("expect", {}).items():
                n = expected_seen.get((program, rule), 0)
                print(f"  expected {rule} in {program}: {n} finding(s) ({why})")
                if n == 0:
                    failures.add("a finding the program's EXPECT names is not reported",
                                 f"{rule}: {why}", None, None, program)

        # 3. Every dump in its module.
        summary, _ = run_hlolint(hlolint, profile_args + ["--dump-summary", "--format", "json", "--no-config"] + dirs)
        placed = {}
        for m in summary["modules"]:
            for dmp in m["dumps"]:
                placed[os.path.abspath(dmp["file"])] = (m["module_id"], m["module_name"], m["directory"])
        for o in summary.get("other_files", []):
            path = os.path.abspath(o["file"])
            if path in hlo_files:
                failures.add("dump-summary: HLO dump among the other files",
                             os.path.basename(path), path, None, program_of(path))
        expected_modules = set()
        for path, (program, e) in hlo_files.items():
            mid = module_id(os.path.basename(path))
            key = (os.path.dirname(path), mid)
            expected_modules.add(key)
            if path not in placed:
                if mid is not None:
                    failures.add("dump-summary: HLO dump in no module", os.path.basename(path),
                                 path, None, program)
                continue
            got_id, got_name, _ = placed[path]
            if got_id != mid or got_name != e["module_name"]:
                failures.add("dump-summary: dump put into the wrong module (phantom module)",
                             f"{os.path.basename(path)}: hlolint says module {got_id} {got_name!r}, "
                             f"XLA wrote module {mid} {e['module_name']!r}", path, None, program)
        got_modules = {(os.path.abspath(m["directory"]), m["module_id"]) for m in summary["modules"]}
        n_named = {(os.path.abspath(m["directory"]), m["module_id"], m["module_name"])
                   for m in summary["modules"]}
        if len(n_named) != len(expected_modules) or got_modules != expected_modules:
            failures.add("dump-summary: module count differs from XLA's module ids",
                         f"hlolint {len(n_named)} modules, XLA wrote {len(expected_modules)}")
    t_lint = time.time() - t1

    n_jits = sum(len(m["compiled"]) for m in manifests.values())
    n_false = failures.count()
    figures = (f"programs: {len(programs)} ({len(manifests)} compiled, {n_jits} jitted functions); "
               f"HLO dumps: {len(hlo_files)}; other text files: {len(other_text)}; "
               f"instructions linted: {instructions}; false findings/failures: {n_false}; "
               f"compile {t_compile:.1f}s, lint {t_lint:.1f}s, total {time.time() - t_start:.1f}s")
    header = f"{jax_env.describe()}; {profile}\n\n{figures}"
    write_failures(args.failures, failures, header)
    for kind, items in failures.by_kind.items():
        print(f"\nFAILURE: {kind} ({len(items)})")
        for i in items[:3]:
            print(f"  {os.path.basename(i['path'] or '')}{':' + str(i['line']) if i['line'] else ''}"
                  f" [{i['program']}]: {i['detail'][:400]}")
            if i["path"]:
                print(excerpt(i["path"], i["line"]))
        if len(items) > 3:
            print(f"  ... and {len(items) - 3} more (see {args.failures})")
    print(f"\n{figures}")
    if n_false:
        print(f"FAILED: {len(failures.by_kind)} kind(s) of failure; dumps kept in {work}; "
              f"details in {args.failures}")
        return 1
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    print("OK: hlolint agrees with XLA on every dump")
    return 0


if __name__ == "__main__":
    sys.exit(main())

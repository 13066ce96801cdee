"""The XLA oracle's JAX program suite (tests/xla/programs/), compiled by a
real XLA (CPU) with dumps: shared by run_programs.py (every dump linted) and
memory_oracle.py (buffer assignment against hlolint's memory report).

Each program module is compiled in its own subprocess (this file run as
`program_suite.py --worker PROGRAM DUMP_DIR MANIFEST [--no-parse]`) with
XLA_FLAGS set by the caller; the worker writes a manifest: which functions it
compiled, the program's EXPECT, the compile time, and every file of the dump
directory, with XLA's own parser's verdict on each .txt/.hlo file unless
--no-parse.
"""
import concurrent.futures
import importlib
import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAMS_DIR = os.path.join(HERE, "programs")
DEVICE_COUNT_FLAG = "--xla_force_host_platform_device_count=8"
# Every pass's dump (run_programs.py).
EVERY_PASS_FLAGS = ("--xla_dump_to={dir} --xla_dump_hlo_pass_re=.* --xla_dump_hlo_as_text "
                    + DEVICE_COUNT_FLAG)
# Only the modules before and after optimization, with the buffer assignment
# (memory_oracle.py): a fraction of the files to write.
OPTIMIZED_FLAGS = "--xla_dump_to={dir} --xla_dump_hlo_as_text " + DEVICE_COUNT_FLAG


def program_names(only=""):
    """The program modules, sorted; `only`: comma-separated names to keep."""
    names = sorted(n[:-3] for n in os.listdir(PROGRAMS_DIR)
                   if n.endswith(".py") and not n.startswith("_"))
    if only:
        wanted = only.split(",")
        names = [p for p in names if p in wanted]
    return names


# ---------------------------------------------------------------- worker side

def worker(program, dump_dir, manifest_path, parse=True):
    """Compile one program module (XLA_FLAGS already set), then (parse) let
    XLA's parser read back every text file of the dump directory."""
    sys.path.insert(0, PROGRAMS_DIR)
    t0 = time.time()
    mod = importlib.import_module(program)
    mod.compile_all()
    compiled = list(importlib.import_module("_common").COMPILED)
    t_compile = time.time() - t0
    if parse:
        from jax._src.lib import hlo
    files = []
    for root, _, names in os.walk(dump_dir):
        for name in sorted(names):
            path = os.path.join(root, name)
            entry = {"path": path, "name": name}
            if parse and name.endswith((".txt", ".hlo")):
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read()
                try:
                    m = hlo.hlo_module_from_text(text)
                    comps = m.computations()
                    entry.update(xla="ok", module_name=m.name, computations=len(comps),
                                 instructions=sum(len(c.instructions()) for c in comps))
                except Exception as e:  # XLA's parser rejects it: not an HLO dump
                    entry.update(xla="rejected", error=str(e).splitlines()[0][:200])
            files.append(entry)
    with open(manifest_path, "w") as f:
        json.dump({"program": program, "compiled": compiled,
                   "expect": getattr(mod, "EXPECT", {}),
                   "compile_seconds": t_compile, "files": files}, f, indent=1)


# ---------------------------------------------------------------- driver side

def compile_program(program, work, env_base, flags=EVERY_PASS_FLAGS, parse=True):
    """Compile one program into work/PROGRAM/ in a subprocess.

    Returns (program, manifest or None, error text or None, seconds)."""
    dump_dir = os.path.join(work, program)
    shutil.rmtree(dump_dir, ignore_errors=True)
    os.makedirs(dump_dir)
    manifest = os.path.join(work, program + ".manifest.json")
    env = dict(env_base)
    env["XLA_FLAGS"] = flags.format(dir=dump_dir)
    env["JAX_PLATFORMS"] = "cpu"
    env["TF_CPP_MIN_LOG_LEVEL"] = "2"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    t0 = time.time()
    cmd = [sys.executable, os.path.abspath(__file__), "--worker", program, dump_dir, manifest]
    if not parse:
        cmd.append("--no-parse")
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600,
                       stdin=subprocess.DEVNULL)
    if r.returncode != 0:
        return program, None, f"worker exited {r.returncode}:\n{r.stderr[-3000:]}", time.time() - t0
    with open(manifest) as f:
        return program, json.load(f), None, time.time() - t0


def compile_programs(programs, work, jobs, flags=EVERY_PASS_FLAGS, parse=True):
    """Compile the programs, `jobs` at a time; yields compile_program's
    results in the programs' order."""
    env_base = {k: v for k, v in os.environ.items() if k != "XLA_FLAGS"}
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(lambda p: compile_program(p, work, env_base, flags, parse), programs)


OPTIMIZED_MARK = ".cpu_after_optimizations"


def keep_optimized(manifests, dest):
    """Copies each program's optimized modules and what XLA wrote about them
    (buffer assignment, live ranges, memory usage) into dest/PROGRAM/, with a
    manifest for read_manifests: what memory_oracle.py --no-compile reads."""
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    for program, man in manifests.items():
        pdir = os.path.join(dest, program)
        os.makedirs(pdir)
        files = []
        for e in man["files"]:
            if OPTIMIZED_MARK in e["name"] and e["name"].endswith(".txt"):
                path = os.path.join(pdir, e["name"])
                shutil.copyfile(e["path"], path)
                files.append({"path": path, "name": e["name"]})
        with open(os.path.join(dest, program + ".manifest.json"), "w") as f:
            json.dump(dict(man, files=files), f, indent=1)


def read_manifests(programs, work):
    """compile_programs' results for dumps compiled earlier into `work`."""
    for program in programs:
        path = os.path.join(work, program + ".manifest.json")
        if not os.path.exists(path):
            yield program, None, f"no dumps of {program} in {work}", 0.0
            continue
        with open(path) as f:
            yield program, json.load(f), None, 0.0


if __name__ == "__main__":
    if len(sys.argv) in (5, 6) and sys.argv[1] == "--worker":
        worker(sys.argv[2], sys.argv[3], sys.argv[4], parse="--no-parse" not in sys.argv[5:])
        sys.exit(0)
    print(__doc__)
    sys.exit(2)

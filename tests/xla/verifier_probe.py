#!/usr/bin/env python3
"""An approximation of XLA's HloVerifier on HLO text, through jaxlib.

  verifier_probe.py --hlolint PATH [--corpus DIR] [--kinds K,...] [--limit N]
                    [--out DIR]

jaxlib 0.10.2 binds no HloVerifier. What it does bind, and what this probe
chains, is:

  hlo_module_from_text (ParseAndReturnUnverifiedModule)
  -> XlaComputation(module.as_serialized_hlo_module_proto())
  -> _jax.mlir.xla_computation_to_mlir_module      (HLO -> MHLO/StableHLO)
  -> client.compile_and_load(mlir, devices[:1])    (MLIR verifier, then the CPU
                                                    pipeline, whose invariant
                                                    checker is HloVerifier)

So a module is judged after a round trip through MLIR: layouts, schedules,
fusions, backend configs and GPU/TPU custom calls do not survive it, and the
CPU compiler rejects what it cannot compile (GPU custom calls, collectives
over more devices than it has) for reasons that are no verifier's. The
verdicts are therefore evidence, not an oracle: this is no ctest test.
It prints, for the chosen corpus kinds (default: xla-verifier-negative and
xla-test-literal), how XLA's verdict compares with hlolint's verify-*
errors, and writes the disagreements to OUT/verifier/.
"""
import argparse
import collections
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import jax_env  # noqa: E402

CHILD = r'''
import json, os, sys
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import jax
from jax._src.lib import hlo, _jax, xla_client as xc
dev = jax.devices()[:1]
client = dev[0].client
for line in sys.stdin:
    path = line.rstrip("\n")
    try:
        m = hlo.hlo_module_from_text(open(path, encoding="utf-8", errors="replace").read())
    except Exception as e:
        r = {"stage": "parse", "ok": False, "error": str(e)[:600]}
    else:
        try:
            mlir = _jax.mlir.xla_computation_to_mlir_module(
                hlo.XlaComputation(m.as_serialized_hlo_module_proto()))
        except Exception as e:
            r = {"stage": "to-mlir", "ok": False, "error": str(e)[:600]}
        else:
            try:
                client.compile_and_load(mlir, dev, xc.CompileOptions())
                r = {"stage": "compile", "ok": True}
            except Exception as e:
                r = {"stage": "compile", "ok": False, "error": str(e)[:600]}
    print(json.dumps(r), flush=True)
'''


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hlolint", required=True)
    ap.add_argument("--corpus", default=os.path.join(HERE, "..", "..", "..", "shared", "corpus"))
    ap.add_argument("--kinds", default="xla-verifier-negative,xla-test-literal")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--out", default="/tmp/oracle")
    args = ap.parse_args()
    jax_env.reexec_in_env()
    print(f"verifier probe: {jax_env.describe()}")
    corpus = os.path.abspath(args.corpus)
    kinds = set(args.kinds.split(","))
    rows = []
    with open(os.path.join(corpus, "MANIFEST.tsv")) as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            r = dict(zip(header, line.rstrip("\n").split("\t")))
            notes = r.get("notes", "")
            if r.get("kind") in kinds and not any(
                    k in notes for k in ("templated", "mutated_in_cpp_before_check", "programmatic_negative")):
                rows.append(r)
    if args.limit:
        rows = rows[:args.limit]
    paths = [os.path.join(corpus, r["local_file"]) for r in rows]

    # hlolint: an error of any verify-* rule (or a parse error) rejects.
    lint = collections.defaultdict(list)
    for i in range(0, len(paths), 1000):
        r = subprocess.run([args.hlolint, "--format", "json-lines", "--no-config", "--no-sequence",
                            "--quiet", "--select", "parse,verify"] + paths[i:i + 1000],
                           capture_output=True, text=True)
        for line in r.stdout.splitlines():
            if line.startswith("{"):
                d = json.loads(line)
                if d["severity"] == "error":
                    lint[os.path.abspath(d["file"])].append(f"{d['rule']}: {d['message'][:200]}")

    env = dict(os.environ, JAX_PLATFORMS="cpu")
    env.pop("XLA_FLAGS", None)
    verdicts = {}
    todo = list(paths)
    while todo:  # restart the child after an abort
        proc = subprocess.Popen([sys.executable, "-c", CHILD], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
        for p in todo:
            proc.stdin.write(p + "\n")
            proc.stdin.flush()
            line = proc.stdout.readline()
            if not line:
                verdicts[p] = {"stage": "crash", "ok": False, "error": "XLA aborted"}
                break
            verdicts[p] = json.loads(line)
        proc.kill()
        proc.wait()
        todo = [p for p in todo if p not in verdicts]

    table = collections.Counter()
    out_dir = os.path.join(args.out, "verifier")
    os.makedirs(out_dir, exist_ok=True)
    samples = collections.defaultdict(list)
    for row, p in zip(rows, paths):
        v = verdicts[p]
        xla_rejects = not v["ok"]
        key = (row["kind"], v["stage"] if xla_rejects else "accepted",
               "hlolint rejects" if lint.get(p) else "hlolint accepts")
        table[key] += 1
        if len(samples[key]) < 20:
            samples[key].append({"file": row["local_file"], "xla": v.get("error", "accepted"),
                                 "hlolint": lint.get(p, []), "notes": row.get("notes", "")[:300]})
    for key, n in sorted(table.items()):
        print(f"  {n:5}  {key[0]:24} XLA: {key[1]:9} {key[2]}")
    with open(os.path.join(out_dir, "verifier_probe.json"), "w") as f:
        json.dump({" | ".join(k): v for k, v in samples.items()}, f, indent=1)
    print(f"samples in {out_dir}/verifier_probe.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())

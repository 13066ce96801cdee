#!/usr/bin/env python3
"""An approximation of XLA's HloVerifier on HLO text, through jaxlib.

  verifier_probe.py --hlolint PATH [--corpus DIR] [--kinds K,...] [--limit N]
                    [--out DIR]
  verifier_probe.py --hlolint PATH --mutants N [--seed S] [--max-seeds M]
                    [--jobs J] [--examples K] [--xla-version V] [--out DIR]

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

--mutants N: N semantic mutants (one dimension of a shape, a rank, an element
type, two operands swapped, an operand replaced by another instruction, a
dimensions-like attribute, a parameter number, a tuple index, a slice or
padding bound, a called computation) of seed modules: single modules of at
most 6 KB from examples/, tests/golden/ and corpus files of valid kinds (a
sample of --max-seeds, chosen by --seed), kept where the round trip compiles
them and hlolint finds no error. Mutant i comes from seed i mod n with the
stream Random("S:i"), so a run is determined by --seed and the seed files.
XLA's verdict: rejected by HloVerifier (the compile error names "hlo
verifier"), accepted (compiled), or not counted: rejected by the parser's
shape inference and semantic checks, by StableHLO's op verifiers after the
conversion to MLIR (reported as a second figure), or another failure. It
prints both reject / both accept / hlolint-only / XLA-only on the mutants
with a verdict, and writes examples of each class to OUT/verifier-mutants/.
The tokenizer, the seed candidates and the manifest reader are
parser_oracle.py's.
"""
import argparse
import collections
import concurrent.futures
import json
import os
import random
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time

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
        r = {"stage": "parse", "ok": False, "error": str(e)[:2000]}
    else:
        try:
            mlir = _jax.mlir.xla_computation_to_mlir_module(
                hlo.XlaComputation(m.as_serialized_hlo_module_proto()))
        except Exception as e:
            r = {"stage": "to-mlir", "ok": False, "error": str(e)[:2000]}
        else:
            try:
                client.compile_and_load(mlir, dev, xc.CompileOptions())
                r = {"stage": "compile", "ok": True}
            except Exception as e:
                r = {"stage": "compile", "ok": False, "error": str(e)[:2000]}
    print(json.dumps(r), flush=True)
'''


# ------------------------------------------------------------ --mutants mode
#
# Semantic mutants of modules the round trip compiles cleanly: each changes
# one thing the verifier (or the parser's shape inference) checks and keeps
# the text parseable. The tokenizer, the seed candidates and the corpus
# manifest reader are parser_oracle.py's.

SPLIT = re.compile(r"^[ \t]*//[ ]*-----[ \t]*$", re.M)
MODULE_START = re.compile(r"^(?=HloModule\b)", re.M)
SEED_MAX_BYTES = 6 * 1024
VALID_KINDS = {"xla-hlo-file", "xla-test-literal", "xla-doc-snippet", "xla-hlo-file-legacy",
               "real-dump-before-opt", "real-dump-after-pass", "real-dump-gpu-after-opt",
               "real-dump-tpu-after-opt", "third-party-test-hlo"}
ARRAY_TYPES = ["pred", "s8", "s16", "s32", "s64", "u8", "u32", "f16", "bf16", "f32", "f64"]
DIM_ATTRS = re.compile(r"^(dimensions|\w*_dims|\w*_dim|index_vector_dim|dim_labels)$")
SEMANTIC_KINDS = ["shape-dim", "shape-dim", "element-type", "operand-swap", "operand-replace",
                  "dims-attribute", "dims-attribute", "parameter-number", "tuple-index",
                  "slice-bound", "callee-swap", "shape-rank"]


def split_modules(text):
    """The single modules of a file: cut at `// -----` and at each HloModule line."""
    out = []
    for piece in SPLIT.split(text):
        for m in MODULE_START.split(piece):
            if re.search(r"^HloModule\b", m, re.M) and "ENTRY" in m:
                out.append(m.strip() + "\n")
    return out


def _group_end(toks, j):
    """Index of the bracket closing the one at j."""
    depth = 0
    for k in range(j, len(toks)):
        v = toks[k][1]
        if v in ("(", "[", "{"):
            depth += 1
        elif v in (")", "]", "}"):
            depth -= 1
            if depth == 0:
                return k
    return None


def _shape_sites(toks, sig):
    """(type token, '[' token, ']' token) of every array shape."""
    out = []
    for n, k in enumerate(sig[:-1]):
        if toks[k][0] == "name" and toks[k][1] in po.ELEMENT_TYPES and toks[sig[n + 1]][1] == "[":
            j = sig[n + 1]
            e = _group_end(toks, j)
            if e is not None:
                out.append((k, j, e))
    return out


def _instr_names(text):
    """Instruction names by computation body: lists of names defined in one {...} body."""
    bodies = []
    for m in re.finditer(r"\{\n(.*?)\n\}", text, re.S):
        names = re.findall(r"^\s*(?:ROOT\s+)?(%?[\w.-]+)\s*=", m.group(1), re.M)
        if names:
            bodies.append((m.start(1), m.end(1), names))
    return bodies


def _new_int(rng, old, lo=0):
    choices = [old + 1, old - 1, old + 2, 1, 2, 0, old * 2]
    choices = [c for c in choices if c != old and c >= lo]
    return rng.choice(choices)


def semantic_mutate(text, rng):
    """One semantic mutation: (kind, new text), or (kind, None) where it does not apply."""
    toks = po.tokenize(text)
    sig = po._sig(toks)
    kind = rng.choice(SEMANTIC_KINDS)
    val = [t[1] for t in toks]

    def done():
        return kind, "".join(t[1] for t in toks)

    if kind in ("shape-dim", "shape-rank", "element-type"):
        sites = _shape_sites(toks, sig)
        if not sites:
            return kind, None
        k, j, e = rng.choice(sites)
        nums = [q for q in range(j + 1, e) if toks[q][0] == "number"]
        if kind == "element-type":
            toks[k] = ("name", rng.choice([t for t in ARRAY_TYPES if t != toks[k][1]]))
            return done()
        if kind == "shape-dim":
            if not nums:
                return kind, None
            q = rng.choice(nums)
            toks[q] = ("number", str(_new_int(rng, int(toks[q][1]), lo=1)))
            return done()
        # shape-rank: drop or add a dimension, and drop the shape's layout
        after = [q for q in sig if q > e]
        if after and toks[after[0]][1] == "{" and _group_end(toks, after[0]) is not None:
            del toks[e + 1:_group_end(toks, after[0]) + 1]
        if nums and rng.random() < 0.5:
            q = rng.choice(nums)
            lo, hi = q, q + 1
            if hi < e and toks[hi][1] == ",":
                hi += 1
            elif lo - 1 > j and toks[lo - 1][1] == ",":
                lo -= 1
            del toks[lo:hi]
        else:
            toks[e:e] = [("punct", ","), ("number", "2")] if nums else [("number", "2")]
        return done()

    if kind in ("operand-swap", "operand-replace"):
        # opcode(operand, ...): the operand list split at depth-0 commas
        sites = []
        # simpler: an opcode follows the result shape, `= shape opcode(`
        for n, k in enumerate(sig[:-1]):
            if toks[k][0] == "name" and toks[sig[n + 1]][1] == "(" and not toks[k][1].startswith("%") \
                    and toks[k][1] not in ("parameter", "constant", "iota", "rng-bit-generator") \
                    and re.fullmatch(r"[a-z][a-z0-9-]*", toks[k][1]) and toks[k][1] not in po.ELEMENT_TYPES:
                j = sig[n + 1]
                e = _group_end(toks, j)
                if e is None:
                    continue
                parts, depth, start = [], 0, j + 1
                for q in range(j + 1, e):
                    v = val[q]
                    if v in ("(", "[", "{"):
                        depth += 1
                    elif v in (")", "]", "}"):
                        depth -= 1
                    elif v == "," and depth == 0:
                        parts.append((start, q))
                        start = q + 1
                parts.append((start, e))
                names = [p for p in parts if any(toks[q][0] == "name" for q in range(*p))]
                if names and all("(" not in val[p[0]:p[1]] for p in names):
                    sites.append((k, names))
        if not sites:
            return kind, None
        if kind == "operand-swap":
            sites = [s for s in sites if len(s[1]) >= 2
                     and len({"".join(val[a:b]).strip() for a, b in s[1]}) >= 2]
            if not sites:
                return kind, None
            _, parts = rng.choice(sites)
            (a, b), (c, d) = sorted(rng.sample(parts, 2))
            pa, pc = toks[a:b], toks[c:d]
            toks[c:d] = pa
            toks[a:b] = pc
            return done()
        # operand-replace: an operand becomes another instruction of the same computation
        k, parts = rng.choice(sites)
        a, b = rng.choice(parts)
        q = [q for q in range(a, b) if toks[q][0] == "name"][-1]
        pos = sum(len(t[1]) for t in toks[:q])
        for s, e, names in _instr_names(text):
            if s <= pos < e:
                others = [nm for nm in names if nm.lstrip("%") != toks[q][1].lstrip("%")]
                if not others:
                    return kind, None
                nm = rng.choice(others)
                toks[q] = ("name", ("%" if toks[q][1].startswith("%") else "") + nm.lstrip("%"))
                return done()
        return kind, None

    if kind == "dims-attribute":
        sites = [k for n, k in enumerate(sig[:-1]) if toks[k][0] == "name"
                 and DIM_ATTRS.match(toks[k][1]) and toks[sig[n + 1]][1] == "="]
        if not sites:
            return kind, None
        k = rng.choice(sites)
        a, b = po._attr_span(toks, k)
        nums = [q for q in range(a, b) if toks[q][0] == "number"]
        if toks[k][1] == "dim_labels":
            return kind, None
        if nums:
            how = rng.random()
            q = rng.choice(nums)
            if how < 0.7 or len(nums) == 1:
                toks[q] = ("number", str(_new_int(rng, int(toks[q][1]))))
            else:  # drop one entry
                lo, hi = q, q + 1
                if hi < b and toks[hi][1] == ",":
                    hi += 1
                elif toks[lo - 1][1] == ",":
                    lo -= 1
                del toks[lo:hi]
        else:  # `dimensions={}`: add one
            close = [q for q in range(a, b) if toks[q][1] == "}"]
            if not close:
                return kind, None
            toks.insert(close[-1], ("number", "0"))
        return done()

    if kind == "parameter-number":
        sites = [k for n, k in enumerate(sig[:-2]) if toks[k][1] == "parameter"
                 and toks[sig[n + 1]][1] == "(" and toks[sig[n + 2]][0] == "number"]
        if not sites:
            return kind, None
        q = sig[sig.index(rng.choice(sites)) + 2]
        toks[q] = ("number", str(_new_int(rng, int(toks[q][1]))))
        return done()

    if kind == "tuple-index":
        sites = [sig[n + 2] for n, k in enumerate(sig[:-2]) if toks[k][1] == "index"
                 and toks[sig[n + 1]][1] == "=" and toks[sig[n + 2]][0] == "number"]
        if not sites:
            return kind, None
        q = rng.choice(sites)
        toks[q] = ("number", str(_new_int(rng, int(toks[q][1]))))
        return done()

    if kind == "slice-bound":
        sites = [k for n, k in enumerate(sig[:-1]) if toks[k][1] in ("slice", "dynamic_slice_sizes", "padding")
                 and toks[sig[n + 1]][1] == "="]
        if not sites:
            return kind, None
        k = rng.choice(sites)
        a, b = po._attr_span(toks, k)
        nums = [q for q in range(a, b) if toks[q][0] == "number"]
        if not nums:
            return kind, None
        q = rng.choice(nums)
        toks[q] = ("number", str(_new_int(rng, int(toks[q][1]), lo=-1 if toks[k][1] == "padding" else 0)))
        return done()

    if kind == "callee-swap":
        comps = re.findall(r"^(?:ENTRY\s+)?(%?[\w.-]+)\s*(?:\(|\{)", text, re.M)
        comps = [c.lstrip("%") for c in comps if c not in ("HloModule", "ENTRY")]
        sites = [sig[n + 2] for n, k in enumerate(sig[:-2])
                 if toks[k][1] in ("to_apply", "calls", "body", "condition", "branch_computations",
                                   "true_computation", "false_computation")
                 and toks[sig[n + 1]][1] == "=" and toks[sig[n + 2]][0] == "name"]
        if not sites or len(comps) < 3:
            return kind, None
        q = rng.choice(sites)
        cur = toks[q][1].lstrip("%")
        others = [c for c in comps if c != cur]
        toks[q] = ("name", ("%" if toks[q][1].startswith("%") else "") + rng.choice(others))
        return done()
    return kind, None


def make_semantic_mutant(seed_text, rng):
    """Up to 20 tries of one semantic mutation that changes the text."""
    for _ in range(20):
        kind, text = semantic_mutate(seed_text, rng)
        if text is not None and text != seed_text:
            return kind, text
    return None, None


class RoundTrip:
    """The CHILD round trip in one process; restarted after an abort or a hang."""

    def __init__(self, timeout_s=30):
        self.proc = None
        self.timeout_s = timeout_s
        self.restarts = 0

    def judge(self, path):
        if self.proc is None or self.proc.poll() is not None:
            env = dict(os.environ, JAX_PLATFORMS="cpu")
            env.pop("XLA_FLAGS", None)
            self.proc = subprocess.Popen([sys.executable, "-c", CHILD], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                         text=True, env=env, bufsize=1)
        try:
            self.proc.stdin.write(path + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            return self._lost("XLA aborted")
        ready, _, _ = select.select([self.proc.stdout], [], [], self.timeout_s)
        if not ready:
            return self._lost(f"no verdict in {self.timeout_s}s")
        line = self.proc.stdout.readline()
        return json.loads(line) if line else self._lost("XLA aborted")

    def _lost(self, why):
        self.proc.kill()
        self.proc.wait()
        self.proc = None
        self.restarts += 1
        return {"stage": "crash", "ok": False, "error": why}

    def close(self):
        if self.proc and self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.wait()


def round_trip_all(paths, jobs):
    workers = [RoundTrip() for _ in range(jobs)]
    chunks = [paths[i::jobs] for i in range(jobs)]
    out = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for res in pool.map(lambda k: {p: workers[k].judge(p) for p in chunks[k]}, range(jobs)):
            out.update(res)
    for w in workers:
        w.close()
    return out


def lint_errors(hlolint, extra, paths, warnings=None):
    """path -> hlolint's verify-* and parse errors ('rule: message'), `--format json`;
    their warnings go to `warnings` (path -> list) when given."""
    found = {p: [] for p in paths}
    for i in range(0, len(paths), 1000):
        chunk = paths[i:i + 1000]
        r = subprocess.run([hlolint] + extra + ["--format", "json", "--no-config", "--no-sequence",
                            "--quiet", "--jobs", "1", "--select", "parse,verify"] + chunk,
                           capture_output=True, text=True)
        if r.returncode not in (0, 1):
            raise RuntimeError(f"hlolint exited {r.returncode}: {r.stderr[-2000:]}")
        for d in json.loads(r.stdout)["diagnostics"]:
            if d["severity"] == "error":
                found[os.path.abspath(d["file"])].append(f"{d['rule']}: {d['message'][:300]}")
            elif d["severity"] == "warning" and warnings is not None:
                warnings.setdefault(os.path.abspath(d["file"]), []).append(
                    f"{d['rule']}: {d['message'][:300]}")
    return found


def xla_verdict(v):
    """'reject' (HloVerifier), 'accept' (compiled), 'parser' (the parser's shape
    inference or other semantic checks), or 'none' (another failure)."""
    if v["ok"]:
        return "accept"
    if v["stage"] == "parse":
        return "parser"
    if v["stage"] == "compile" and "hlo verifier" in v.get("error", "").lower():
        return "reject"
    if v["stage"] == "compile" and re.search(r"error: loc\(", v.get("error", "")):
        return "mlir"  # StableHLO's op verifiers, before XLA's pipeline
    return "none"


def xla_short(err):
    """The verifier's message without the context prefix, first line."""
    if "Syntax error when trying to parse" in err:
        return po.xla_message(err)
    err = re.sub(r"^.*?\[hlo verifier\]:\s*", "", err, flags=re.S)
    err = re.sub(r"^UNKNOWN: <unknown>:\d+: error: loc\(\"[^\"]*\"\): ", "", err)
    return err.strip().splitlines()[0][:300] if err.strip() else err


def run_mutants(args, hlolint):
    global po
    import parser_oracle as po  # noqa: E402  (its tokenizer, seeds, manifest reader)
    t0 = time.time()
    extra, profile = jax_env.hlolint_profile_args(hlolint, args.xla_version)
    print(f"hlolint judged as: {profile}", flush=True)
    source = os.path.dirname(os.path.dirname(HERE))
    corpus = os.path.abspath(args.corpus)
    rows = [r for r in po.read_manifest(corpus) if r["kind"] in VALID_KINDS] \
        if os.path.exists(os.path.join(corpus, "MANIFEST.tsv")) else []
    modules = []  # (origin, text)
    for p in po.seed_candidates(source, rows, corpus):
        with open(p, encoding="utf-8", errors="replace") as f:
            text = f.read()
        origin = os.path.relpath(p, source) if p.startswith(source) else os.path.relpath(p, corpus)
        # hlolint's suppression comments (the unused-suppression goldens) would
        # silence its verdict: dropped.
        text = re.sub(r"^[ \t]*//[^\n]*hlolint:[^\n]*\n", "", text, flags=re.M)
        for n, m in enumerate(split_modules(text)):
            if len(m) <= SEED_MAX_BYTES:
                modules.append((f"{origin}#{n}", m))
    modules.sort()
    pick = random.Random(f"{args.seed}:seeds")
    if args.max_seeds and len(modules) > args.max_seeds:
        modules = sorted(pick.sample(modules, args.max_seeds))
    out = os.path.abspath(os.path.join(args.out, "verifier-mutants"))
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    work = tempfile.mkdtemp(prefix="hlolint-vprobe-")
    try:
        spaths = []
        for n, (_, m) in enumerate(modules):
            p = os.path.join(work, f"s{n:05d}.hlo")
            with open(p, "w", encoding="utf-8") as f:
                f.write(m)
            spaths.append(p)
        sv = round_trip_all(spaths, args.jobs)
        slint = lint_errors(hlolint, extra, spaths)
        compiled = [n for n, p in enumerate(spaths) if sv[p]["ok"]]
        seeds = [modules[n] for n in compiled if not slint[spaths[n]]]
        flagged = [(modules[n][0], slint[spaths[n]][0]) for n in compiled if slint[spaths[n]]]
        t_seeds = time.time() - t0
        print(f"seeds: {len(modules)} modules of at most {SEED_MAX_BYTES} bytes "
              f"(examples/, tests/golden/, corpus files of valid kinds), {len(compiled)} compile "
              f"cleanly through the round trip; {len(flagged)} of those hlolint flags "
              f"(left out), {len(seeds)} seeds; {t_seeds:.0f}s", flush=True)
        for o, e in flagged[:20]:
            print(f"  seed flagged by hlolint: {o}: {e[:160]}")
        if not seeds:
            print("no seeds")
            return 1
        mutants = []  # (i, origin, kind, path, text)
        for i in range(args.mutants):
            origin, text = seeds[i % len(seeds)]
            kind, mtext = make_semantic_mutant(text, random.Random(f"{args.seed}:{i}"))
            if mtext is None:
                continue
            p = os.path.join(work, f"m{i:06d}.hlo")
            with open(p, "w", encoding="utf-8") as f:
                f.write(mtext)
            mutants.append((i, origin, kind, p, mtext))
        mv = round_trip_all([m[3] for m in mutants], args.jobs)
        mwarn = {}
        mlint = lint_errors(hlolint, extra, [m[3] for m in mutants], mwarn)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    table = collections.Counter()
    by_kind = collections.defaultdict(collections.Counter)
    samples = collections.defaultdict(list)
    reasons = collections.defaultdict(collections.Counter)
    warned = collections.Counter()
    for i, origin, kind, p, mtext in mutants:
        v = mv[p]
        xv = xla_verdict(v)
        lr = bool(mlint[p])
        if xv == "reject":
            cls = "both reject" if lr else "XLA-only"
        elif xv == "accept":
            cls = "hlolint-only" if lr else "both accept"
        elif xv == "parser":
            cls = "XLA parser rejects, " + ("hlolint rejects" if lr else "hlolint accepts")
        elif xv == "mlir":
            cls = "MLIR verifier rejects, " + ("hlolint rejects" if lr else "hlolint accepts")
        else:
            cls = "no verdict (" + v["stage"] + "), " + ("hlolint rejects" if lr else "hlolint accepts")
        table[cls] += 1
        by_kind[kind][cls] += 1
        if not lr and mwarn.get(p) and xv in ("reject", "mlir", "parser"):
            warned[cls] += 1  # hlolint warns (verify-shape's warning-only forms, ...)
        if cls not in ("both reject", "both accept"):
            key = re.sub(r"^(\S+): (\[[^\]]*\])?.*", r"\1 \2", mlint[p][0]).strip() \
                if cls == "hlolint-only" else \
                po.normalise(xla_short(v.get("error", "")))[:110]
            reasons[cls][key] += 1
            if len(samples[cls]) < (args.examples if cls in ("XLA-only", "hlolint-only", "MLIR verifier rejects, hlolint accepts") else 3):
                n = len(samples[cls])
                base = os.path.join(out, re.sub(r"[^A-Za-z]+", "-", cls).strip("-"), f"{n:02d}")
                os.makedirs(os.path.dirname(base), exist_ok=True)
                with open(base + ".hlo", "w", encoding="utf-8") as f:
                    f.write(mtext)
                info = {"class": cls, "seed": origin, "mutant": i, "mutation": kind,
                        "xla": v.get("error", "compiled"), "hlolint": mlint[p] or "accepted",
                        "hlolint_warnings": mwarn.get(p, [])}
                with open(base + ".json", "w") as f:
                    json.dump(info, f, indent=1)
                samples[cls].append(info)
    verdict = table["both reject"] + table["both accept"] + table["XLA-only"] + table["hlolint-only"]
    agree = table["both reject"] + table["both accept"]
    pct = 100.0 * agree / verdict if verdict else 100.0
    mlir_r, mlir_a = table["MLIR verifier rejects, hlolint rejects"], table["MLIR verifier rejects, hlolint accepts"]
    wider = verdict + mlir_r + mlir_a
    pct2 = 100.0 * (agree + mlir_r) / wider if wider else 100.0
    lines = [f"verifier mutants: {args.mutants} asked, {len(mutants)} made from {len(seeds)} seeds "
             f"(seed {args.seed}); {time.time() - t0:.0f}s",
             f"XLA gave a verdict on {verdict}: agreement {pct:.2f}% ({agree})",
             f"  both reject   {table['both reject']:6}",
             f"  both accept   {table['both accept']:6}",
             f"  hlolint-only  {table['hlolint-only']:6}  (hlolint rejects, XLA compiles)",
             f"  XLA-only      {table['XLA-only']:6}  (XLA's verifier rejects, hlolint accepts)",
             f"with the MLIR (StableHLO) verifier's rejections as rejections too: {wider} verdicts, "
             f"agreement {pct2:.2f}% (XLA-only + {mlir_a})",
             "not counted:"]
    for c, n in sorted(warned.items()):
        lines.insert(-1, f"  of '{c}': {n} with a verify-*/parse warning from hlolint")
    for c, n in sorted(table.items()):
        if c.startswith(("XLA parser", "MLIR", "no verdict")):
            lines.append(f"  {c:42} {n:6}")
    lines.append("by mutation (verdicts: both reject / both accept / hlolint-only / XLA-only; parser; MLIR; none):")
    for k, c in sorted(by_kind.items()):
        lines.append(f"  {k:17} {c['both reject']:5} {c['both accept']:5} {c['hlolint-only']:5} "
                     f"{c['XLA-only']:5}; {sum(n for x, n in c.items() if x.startswith('XLA parser')):5}; "
                     f"{sum(n for x, n in c.items() if x.startswith('MLIR')):5}; "
                     f"{sum(n for x, n in c.items() if x.startswith('no verdict')):5}")
    for cls, cnt in sorted(reasons.items()):
        lines.append(f"{cls}, by {'hlolint rule [XLA function]' if cls == 'hlolint-only' else 'XLA message'}:")
        for key, n in cnt.most_common(15):
            lines.append(f"  {n:5}  {key}")
    print("\n".join(lines))
    with open(os.path.join(out, "summary.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump({"table": table, "agreement_pct": pct, "agreement_with_mlir_pct": pct2, "seeds": len(seeds),
                   "mutants": len(mutants), "by_mutation": by_kind,
                   "reasons": reasons, "samples": samples}, f, indent=1)
    print(f"examples in {out}/")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hlolint", required=True)
    ap.add_argument("--corpus", default=os.path.join(HERE, "..", "..", "..", "shared", "corpus"))
    ap.add_argument("--kinds", default="xla-verifier-negative,xla-test-literal")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--out", default="/tmp/oracle")
    ap.add_argument("--mutants", type=int, default=0,
                    help="judge N semantic mutants of seeds the round trip compiles, not corpus files")
    ap.add_argument("--seed", type=int, default=44)
    ap.add_argument("--max-seeds", type=int, default=600,
                    help="seed modules tried (a sample chosen by --seed); 0: all")
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--examples", type=int, default=8, help="examples kept per disagreement class")
    ap.add_argument("--xla-version", default="jaxlib",
                    help="hlolint's XLA profile (--mutants): jaxlib (default), latest, or a version")
    args = ap.parse_args()
    jax_env.reexec_in_env()
    print(f"verifier probe: {jax_env.describe()}")
    if args.mutants:
        return run_mutants(args, os.path.abspath(args.hlolint))
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

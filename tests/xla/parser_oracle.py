#!/usr/bin/env python3
"""The XLA oracle, part 2: XLA's own HLO text parser judges hlolint's.

  parser_oracle.py --hlolint PATH [--source DIR] [--corpus DIR|--no-corpus]
                   [--mutants N | --quick] [--seed S] [--jobs N]
                   [--out DIR] [--min-agreement 99.5]

Verdicts. XLA: jaxlib's hlo_module_from_text (ParseAndReturnUnverifiedModule)
in worker processes (xla_parse_worker.py; an abort kills only the worker,
the input is classified 'xla-crash' and a new worker starts). hlolint: the
binary run once per batch of files, `--select parse-error,unsupported-format
--format json-lines --no-sequence --no-config`; a file with any finding is
rejected. Agreement: both accept or both reject.

Inputs:
  (a) every file of the shared corpus (MANIFEST.tsv), when present;
  (b) N mutants (default 100,000; --quick: 5,000), made deterministically
      (--seed) from valid modules: examples/, tests/golden/ and corpus files
      of at most 16 KB that XLA accepts. Mutant i comes from seed module
      i mod (number of seeds) with its own random stream, so the quick run
      is a prefix of the full run. Mutations: token deletion, duplication,
      adjacent and distant swaps, truncation, number edits, opcode edits,
      attribute renames/deletions/duplications/value swaps, element-type
      edits, line deletion/duplication, stray punctuation.

Every disagreement is classified (which side accepts, and XLA's or
hlolint's normalised message); samples go to OUT/disagreements/<class>/,
and OUT/parser_oracle.md and OUT/parser_oracle.json hold the figures.
Corpus disagreements listed in known_corpus_disagreements.json (with the
reason) are documented cases; any other fails the test, as does mutant
agreement under --min-agreement. Exit: 0 held, 1 failed, 77 XLA not
available, 2 usage.
"""
import argparse
import collections
import concurrent.futures
import hashlib
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

WORKER = os.path.join(HERE, "xla_parse_worker.py")
KNOWN = os.path.join(HERE, "known_corpus_disagreements.json")
SEED_MAX_BYTES = 16 * 1024
BATCH = 4000
XLA_TIMEOUT_S = 20


# ------------------------------------------------------------------ XLA side

class XlaWorker:
    """One worker process; restarts itself after a crash or a hang."""

    def __init__(self):
        self.proc = None
        self.restarts = 0

    def _start(self):
        env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", JAX_PLATFORMS="cpu")
        env.pop("XLA_FLAGS", None)
        self.proc = subprocess.Popen([sys.executable, WORKER], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     env=env, text=True, bufsize=1)

    def judge(self, path):
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        try:
            self.proc.stdin.write(path + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            return self._died(path)
        ready, _, _ = select.select([self.proc.stdout], [], [], XLA_TIMEOUT_S)
        if not ready:
            self.proc.kill()
            self.proc.wait()
            self.proc = None
            self.restarts += 1
            return {"ok": False, "error": f"xla-timeout (signal 9): no verdict in {XLA_TIMEOUT_S}s",
                    "crash": "timeout"}
        line = self.proc.stdout.readline()
        if not line:
            return self._died(path)
        return json.loads(line)

    def _died(self, path):
        rc = self.proc.wait()
        self.proc = None
        self.restarts += 1
        return {"ok": False, "error": f"xla-crash: worker died (exit status {rc})",
                "crash": "abort"}

    def close(self):
        if self.proc and self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.wait()


def xla_verdicts(paths, jobs):
    """path -> worker answer, over `jobs` workers."""
    workers = [XlaWorker() for _ in range(jobs)]
    chunks = [paths[i::jobs] for i in range(jobs)]
    out = {}

    def run(k):
        w = workers[k]
        return {p: w.judge(p) for p in chunks[k]}

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for res in pool.map(run, range(jobs)):
            out.update(res)
    for w in workers:
        w.close()
    return out, sum(w.restarts for w in workers)


# -------------------------------------------------------------- hlolint side

HLOLINT_EXTRA = []  # the XLA profile arguments (jax_env.hlolint_profile_args)


def hlolint_verdicts(hlolint, paths, jobs):
    """path -> list of (rule, message) parse findings ([] = accepted)."""
    found = {p: [] for p in paths}
    for i in range(0, len(paths), 2000):
        chunk = paths[i:i + 2000]
        r = subprocess.run([hlolint] + HLOLINT_EXTRA + ["--select", "parse-error,unsupported-format",
                            "--format", "json-lines", "--no-sequence", "--no-config",
                            "--jobs", str(jobs), "--quiet"] + chunk,
                           capture_output=True, text=True, timeout=1200)
        if r.returncode not in (0, 1):
            raise RuntimeError(f"hlolint exited {r.returncode}: {r.stderr[-2000:]}")
        for line in r.stdout.splitlines():
            if not line.startswith("{"):
                continue
            d = json.loads(line)
            p = os.path.abspath(d["file"])
            if p in found:
                found[p].append((d["rule"], d["message"], d.get("line"), d.get("column")))
            else:
                raise RuntimeError(f"hlolint reported a file it was not given: {p}")
    return found


# ---------------------------------------------------------------- mutations

TOKEN = re.compile(r"""
   (?P<ws>\s+)
  |(?P<comment>//[^\n]*|/\*.*?\*/)
  |(?P<string>"(?:[^"\\\n]|\\.)*")
  |(?P<number>-?(?:\d+\.\d*(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+|0x[0-9a-fA-F]+|\d+))
  |(?P<name>%?[A-Za-z_$][\w.$-]*)
  |(?P<punct>->|[{}\[\]()=,:*<>/?!#@^+&|~;])
  |(?P<other>.)
""", re.S | re.X)

ELEMENT_TYPES = ["pred", "s2", "s4", "s8", "s16", "s32", "s64", "u2", "u4", "u8", "u16",
                 "u32", "u64", "f16", "f32", "bf16", "f64", "c64", "c128", "token",
                 "f8e4m3fn", "f8e5m2", "f4e2m1fn", "tuple", "opaque"]
NUMBERS = ["0", "1", "-1", "2", "3", "7", "64", "65536", "2147483647", "2147483648",
           "-2147483649", "4294967296", "9223372036854775807", "9223372036854775808",
           "18446744073709551616", "1e400", "1.5", "-0", "0x10", "00", "1e5"]
PUNCT = list("{}[](),=:*<>/") + ["->"]
STATIC_OPCODES = ["add", "multiply", "negate", "tuple", "get-tuple-element", "parameter",
                  "constant", "reshape", "bitcast", "copy", "broadcast", "transpose",
                  "fusion", "while", "call", "conditional", "custom-call", "reduce",
                  "dot", "convolution", "all-reduce", "all-gather", "collective-permute",
                  "dynamic-update-slice", "dynamic-slice", "slice", "concatenate",
                  "select", "compare", "iota", "sort", "scatter", "gather", "map",
                  "after-all", "send", "recv", "async-start", "async-done",
                  "copy-start", "copy-done", "rng", "pad", "reverse", "tanh", "abs"]


def tokenize(text):
    toks = []
    for m in TOKEN.finditer(text):
        toks.append((m.lastgroup, m.group()))
    return toks


class Vocabulary:
    """Opcodes and attribute names seen in the seed modules."""

    def __init__(self, seeds):
        ops, attrs = set(STATIC_OPCODES), set()
        for text in seeds:
            toks = [t for t in tokenize(text) if t[0] not in ("ws", "comment")]
            for a, b in zip(toks, toks[1:]):
                if a[0] == "name" and not a[1].startswith("%"):
                    if b[1] == "(":
                        ops.add(a[1])
                    elif b[1] == "=":
                        attrs.add(a[1])
        self.opcodes = sorted(ops)
        self.attrs = sorted(attrs)
        self.opcode_set = set(self.opcodes)
        self.attr_set = set(self.attrs)


def _sig(toks):
    return [i for i, t in enumerate(toks) if t[0] not in ("ws", "comment")]


def _attr_span(toks, i):
    """Tokens of `name=value` starting at i: to the next ',' or closing bracket at depth 0."""
    depth, j = 0, i + 2
    while j < len(toks):
        v = toks[j][1]
        if v in "{[(":
            depth += 1
        elif v in "}])":
            if depth == 0:
                break
            depth -= 1
        elif v == "," and depth == 0:
            break
        elif v == "\n" or (toks[j][0] == "ws" and "\n" in v and depth == 0):
            break
        j += 1
    return i, j


_TOKEN_CACHE = {}


def mutate_once(text, rng, vocab):
    toks = _TOKEN_CACHE.get(text)
    if toks is None:
        toks = tokenize(text)
        if len(_TOKEN_CACHE) < 4096:
            _TOKEN_CACHE[text] = toks
    toks = list(toks)
    sig = _sig(toks)
    if not sig:
        return "delete-token", text[:-1]
    kind = rng.choice(["delete-token", "duplicate-token", "swap-adjacent", "swap-distant",
                       "truncate", "number", "number", "opcode", "opcode", "attribute",
                       "attribute", "element-type", "line", "punct"])
    i = rng.choice(sig)
    if kind == "delete-token":
        toks[i] = ("ws", " ")
    elif kind == "duplicate-token":
        toks.insert(i, toks[i])
    elif kind == "swap-adjacent":
        k = sig.index(i)
        if k + 1 < len(sig):
            j = sig[k + 1]
            toks[i], toks[j] = toks[j], toks[i]
    elif kind == "swap-distant":
        j = rng.choice(sig)
        toks[i], toks[j] = toks[j], toks[i]
    elif kind == "truncate":
        return kind, text[:rng.randrange(len(text))]
    elif kind == "number":
        nums = [k for k in sig if toks[k][0] == "number"]
        if nums:
            k = rng.choice(nums)
            old = toks[k][1]
            new = rng.choice(NUMBERS + ["+1", "-1"])
            if new in ("+1", "-1") and re.fullmatch(r"-?\d+", old):
                new = str(int(old) + int(new))
            elif new in ("+1", "-1"):
                new = "1"
            toks[k] = ("number", new)
    elif kind == "opcode":
        ops = [k for n, k in enumerate(sig[:-1]) if toks[k][0] == "name"
               and toks[sig[n + 1]][1] == "(" and toks[k][1] in vocab.opcode_set]
        if ops:
            k = rng.choice(ops)
            toks[k] = ("name", rng.choice(vocab.opcodes))
    elif kind == "attribute":
        attrs = [k for n, k in enumerate(sig[:-1]) if toks[k][0] == "name"
                 and toks[sig[n + 1]][1] == "=" and toks[k][1] in vocab.attr_set]
        if attrs:
            k = rng.choice(attrs)
            how = rng.choice(["rename", "delete", "duplicate", "swap-value"])
            a, b = _attr_span(toks, k)
            if how == "rename":
                toks[k] = ("name", rng.choice(vocab.attrs))
            elif how == "delete":
                # the attribute and the comma before it
                start = a
                p = a - 1
                while p >= 0 and toks[p][0] == "ws":
                    p -= 1
                if p >= 0 and toks[p][1] == ",":
                    start = p
                del toks[start:b]
            elif how == "duplicate":
                toks[b:b] = [(",", ","), ("ws", " ")] + toks[a:b]
            else:
                other = rng.choice(attrs)
                c, d = _attr_span(toks, other)
                if (c, d) != (a, b) and (d <= a or c >= b):
                    va, vb = toks[a + 2:b], toks[c + 2:d]
                    if c > a:
                        toks[c + 2:d] = va
                        toks[a + 2:b] = vb
                    else:
                        toks[a + 2:b] = vb
                        toks[c + 2:d] = va
            kind = "attribute-" + how
    elif kind == "element-type":
        tys = [k for k in sig if toks[k][0] == "name" and toks[k][1] in ELEMENT_TYPES]
        if tys:
            k = rng.choice(tys)
            toks[k] = ("name", rng.choice(ELEMENT_TYPES))
    elif kind == "line":
        lines = text.split("\n")
        k = rng.randrange(len(lines))
        if rng.random() < 0.5:
            del lines[k]
            return "delete-line", "\n".join(lines)
        lines.insert(k, lines[k])
        return "duplicate-line", "\n".join(lines)
    elif kind == "punct":
        toks.insert(i + rng.choice([0, 1]), ("punct", rng.choice(PUNCT)))
    return kind, "".join(t[1] for t in toks)


def make_mutant(seed_text, rng, vocab):
    kinds = []
    text = seed_text
    for _ in range(2 if rng.random() < 0.2 else 1):
        kind, new = mutate_once(text, rng, vocab)
        kinds.append(kind)
        text = new
    return "+".join(kinds), text


# ---------------------------------------------------------- classification

def xla_message(err):
    """XLA's first error, without positions: 'was parsing 4:31: error: X' -> X."""
    if err.startswith("xla-"):
        return err
    # XLA keeps the errors of every alternative it tried; the one furthest
    # into the text is the one that decided (the first of those, preferring
    # a specific message to the generic ones of backtracking).
    errors = [(int(l), int(c), m) for l, c, m in
              re.findall(r"was parsing (\d+):(\d+): error: ([^\n]*)", err)]
    if not errors:
        m = re.search(r"error: ([^\n]*)", err)
        return m.group(1) if m else err.splitlines()[0]
    far = max((l, c) for l, c, _ in errors)
    at = [m for l, c, m in errors if (l, c) == far]
    generic = ("cannot parse as an instruction name", "expects opcode but sees")
    specific = [m for m in at if not m.startswith(generic)]
    return (specific or at)[0]


def normalise(msg):
    msg = re.sub(r'"[^"]*"', '"…"', msg)
    msg = re.sub(r"'[^']*'", "'…'", msg)
    msg = re.sub(r"%?[A-Za-z_][\w.-]*\.\d+\b", "NAME", msg)
    msg = re.sub(r"-?\b\d+\b", "N", msg)
    msg = re.sub(r"\b(pred|[suf]\d+|bf16|c64|c128|f8\w*|token)\[[^\]]*\](\{[^}]*\})?", "SHAPE", msg)
    msg = re.sub(r"(: |sees |but sees |got )[^ ,;]+$", r"\1X", msg)
    return msg[:140]


def classify(xla, lint):
    """Agreement, or the class of disagreement."""
    x_ok = xla["ok"]
    l_ok = not lint
    if xla.get("crash"):
        # XLA cannot load the text: it rejects it, by aborting.
        msg = re.sub(r"^xla-\w+ \(signal \d+\): ", "", xla["error"])
        msg = re.sub(r"^\S+\.(cc|h):\d+\] ", "", msg)
        verb = "hangs" if xla["crash"] == "timeout" else "aborts"
        return None if not l_ok else f"XLA {verb} ({normalise(msg)}); hlolint accepts"
    if x_ok == l_ok:
        return None
    if l_ok:
        return "hlolint accepts, XLA rejects: " + normalise(xla_message(xla["error"]))
    rule, msg = lint[0][0], lint[0][1]
    return f"hlolint rejects ({rule}), XLA accepts: " + normalise(msg)


def slug(s):
    return re.sub(r"[^A-Za-z0-9]+", "-", s).strip("-")[:90] + "-" + hashlib.sha1(s.encode()).hexdigest()[:6]


class Tally:
    def __init__(self, out, name):
        self.name = name
        self.total = 0
        self.agree = 0
        self.both_accept = 0
        self.both_reject = 0
        self.crashes = collections.Counter()
        self.classes = collections.OrderedDict()
        self.by_kind = collections.defaultdict(lambda: [0, 0])
        self.dir = os.path.join(out, "disagreements", name)

    def add(self, path, xla, lint, kind, text=None, origin=None):
        self.total += 1
        self.by_kind[kind][0] += 1
        if xla.get("crash"):
            self.crashes[xla["crash"]] += 1
            if xla["crash"] == "timeout" and self.crashes["timeout"] <= 20:
                # XLA's parser ran past XLA_TIMEOUT_S on it: kept whatever hlolint says.
                d = os.path.join(self.dir, "xla-hangs")
                os.makedirs(d, exist_ok=True)
                n = self.crashes["timeout"]
                if text is None:
                    shutil.copyfile(path, os.path.join(d, f"{n}.hlo"))
                else:
                    with open(os.path.join(d, f"{n}.hlo"), "w", encoding="utf-8",
                              errors="surrogateescape") as f:
                        f.write(text)
                with open(os.path.join(d, f"{n}.json"), "w") as f:
                    json.dump({"input": origin or path, "mutation": kind,
                               "hlolint": [f"{r}: {m}" for r, m, _, _ in lint] or "accepted"}, f)
        c = classify(xla, lint)
        if c is None:
            self.agree += 1
            self.by_kind[kind][1] += 1
            if xla["ok"]:
                self.both_accept += 1
            else:
                self.both_reject += 1
            return None
        entry = self.classes.setdefault(c, {"count": 0, "samples": []})
        entry["count"] += 1
        if len(entry["samples"]) < 5:
            d = os.path.join(self.dir, slug(c))
            os.makedirs(d, exist_ok=True)
            n = len(entry["samples"])
            sample = os.path.join(d, f"{n}{os.path.splitext(path)[1] or '.hlo'}")
            if text is None:
                with open(path, "rb") as f:
                    data = f.read()
            else:
                data = text.encode("utf-8", errors="surrogateescape")
            with open(sample, "wb") as f:
                f.write(data)
            info = {"class": c, "input": origin or path, "mutation": kind,
                    "xla": xla.get("error", "accepted"),
                    "hlolint": [f"{r}: {m} (line {l}, col {col})" for r, m, l, col in lint] or "accepted"}
            with open(sample + ".json", "w") as f:
                json.dump(info, f, indent=1)
            entry["samples"].append(info)
        return c

    def pct(self):
        return 100.0 * self.agree / self.total if self.total else 100.0


# -------------------------------------------------------------------- inputs

def read_manifest(corpus):
    rows = []
    with open(os.path.join(corpus, "MANIFEST.tsv"), encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            cols = line.rstrip("\n").split("\t")
            row = dict(zip(header, cols))
            if row.get("local_file"):
                rows.append(row)
    return rows


def seed_candidates(source, corpus_rows, corpus):
    paths = []
    for sub in ("examples", "tests/golden"):
        base = os.path.join(source, sub)
        for root, _, names in os.walk(base):
            for n in sorted(names):
                if n.endswith(".hlo"):
                    paths.append(os.path.join(root, n))
    for row in corpus_rows:
        if row["kind"] in ("xla-parser-negative", "xla-test-negative", "real-dump-fragment"):
            continue
        p = os.path.join(corpus, row["local_file"])
        try:
            if os.path.getsize(p) <= SEED_MAX_BYTES:
                paths.append(p)
        except OSError:
            pass
    return sorted(set(paths))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hlolint", required=True)
    ap.add_argument("--source", default=os.path.dirname(os.path.dirname(HERE)))
    ap.add_argument("--corpus", default="")
    ap.add_argument("--no-corpus", action="store_true")
    ap.add_argument("--mutants", type=int, default=100_000)
    ap.add_argument("--quick", action="store_true", help="5,000 mutants")
    ap.add_argument("--seed", type=int, default=44)
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--out", default="/tmp/oracle")
    ap.add_argument("--min-agreement", type=float, default=99.5)
    ap.add_argument("--xla-version", default="jaxlib",
                    help="hlolint's XLA profile: jaxlib (the date of this jaxlib's XLA, "
                         "default), latest, or a version to pass on")
    ap.add_argument("--full-if-asked", action="store_true",
                    help="the full run (100,000 mutants) when HLOLINT_XLA_FULL=1, else exit 77")
    args = ap.parse_args()
    if args.full_if_asked:
        if os.environ.get("HLOLINT_XLA_FULL") != "1":
            print("SKIPPED: the full parser oracle (100,000 mutants, about ten minutes) runs "
                  "only with HLOLINT_XLA_FULL=1 (e.g. HLOLINT_XLA_FULL=1 ctest -L xla-full)")
            return 77
        args.mutants = 100_000
    if args.quick:
        args.mutants = min(args.mutants, 5000)
    hlolint = os.path.abspath(args.hlolint)
    if not os.access(hlolint, os.X_OK):
        print(f"hlolint not found: {hlolint}", file=sys.stderr)
        return 2
    t_start = time.time()
    jax_env.reexec_in_env()
    print(f"XLA parser oracle: {jax_env.describe()}", flush=True)
    print("XLA's parser: jaxlib hlo_module_from_text = xla::ParseAndReturnUnverifiedModule", flush=True)
    global HLOLINT_EXTRA
    HLOLINT_EXTRA, profile = jax_env.hlolint_profile_args(hlolint, args.xla_version)
    print(f"hlolint judged as: {profile}", flush=True)

    corpus = args.corpus or os.path.join(args.source, "..", "shared", "corpus")
    corpus = os.path.abspath(corpus)
    have_corpus = not args.no_corpus and os.path.exists(os.path.join(corpus, "MANIFEST.tsv"))
    if not have_corpus and not args.no_corpus:
        print(f"NOTE: corpus not found at {corpus}: corpus part skipped, "
              "mutants made from examples/ and tests/golden/ only", flush=True)
    rows = read_manifest(corpus) if have_corpus else []

    out = os.path.abspath(args.out)
    shutil.rmtree(os.path.join(out, "disagreements"), ignore_errors=True)
    os.makedirs(out, exist_ok=True)
    known = {}
    if os.path.exists(KNOWN):
        with open(KNOWN) as f:
            known = json.load(f)
    report = {"xla": jax_env.describe(), "hlolint": hlolint, "profile": profile}
    failed = []

    # (a) corpus
    corpus_tally = Tally(out, "corpus")
    undocumented = []
    known_files = known.get("files", {})
    documented = collections.Counter()
    fixed_known = []
    t0 = time.time()
    if rows:
        paths = [os.path.join(corpus, r["local_file"]) for r in rows]
        kinds = {os.path.join(corpus, r["local_file"]): r["kind"] for r in rows}
        lint = hlolint_verdicts(hlolint, paths, args.jobs)
        t_lint_corpus = time.time() - t0
        xla, restarts = xla_verdicts(paths, args.jobs)
        for p in paths:
            c = corpus_tally.add(p, xla[p], lint[p], kinds[p])
            rel = os.path.relpath(p, corpus)
            k = known_files.get(rel)
            if c is None:
                if k is not None:
                    fixed_known.append(rel)
            elif k is not None and k["class"] == c:
                corpus_tally.classes[c].setdefault("documented", k["reason"])
                documented[k["reason"]] += 1
            else:
                undocumented.append((rel, c))
        t_corpus = time.time() - t0
        print(f"corpus: {corpus_tally.total} files, agreement {corpus_tally.pct():.3f}% "
              f"({corpus_tally.agree}; both accept {corpus_tally.both_accept}, both reject "
              f"{corpus_tally.both_reject}), XLA crashes {dict(corpus_tally.crashes)}, "
              f"{t_corpus:.1f}s (hlolint {t_lint_corpus:.1f}s)", flush=True)
        for reason, n in documented.most_common():
            print(f"  documented ({n}): {reason}")
        for rel in fixed_known:
            print(f"  NOTE: documented disagreement no longer seen (update {os.path.basename(KNOWN)}): {rel}")
        for rel, c in undocumented:
            print(f"  UNDOCUMENTED corpus disagreement: {rel}: {c}")
        if undocumented:
            failed.append(f"{len(undocumented)} undocumented corpus disagreements")
        report["corpus"] = {"files": corpus_tally.total, "agree": corpus_tally.agree,
                            "agreement_pct": corpus_tally.pct(), "seconds": t_corpus,
                            "crashes": dict(corpus_tally.crashes),
                            "classes": corpus_tally.classes,
                            "undocumented": undocumented,
                            "documented": dict(documented), "no_longer_seen": fixed_known,
                            "by_kind": {k: {"files": v[0], "agree": v[1]}
                                        for k, v in sorted(corpus_tally.by_kind.items())}}

    # (b) mutants
    t1 = time.time()
    seed_paths = seed_candidates(args.source, rows, corpus)
    seed_verdict, _ = xla_verdicts(seed_paths, args.jobs)
    seeds = []
    for p in seed_paths:
        if seed_verdict[p]["ok"]:
            with open(p, encoding="utf-8", errors="replace") as f:
                t = f.read()
            if t.strip():
                seeds.append((p, t))
    vocab = Vocabulary([t for _, t in seeds])
    print(f"mutants: {args.mutants} from {len(seeds)} seed modules XLA accepts "
          f"({len(seed_paths)} candidates), {len(vocab.opcodes)} opcodes, "
          f"{len(vocab.attrs)} attribute names, seed {args.seed}", flush=True)
    mut_tally = Tally(out, "mutants")
    work = tempfile.mkdtemp(prefix="hlolint-xla-mutants-")
    restarts_total = 0
    t_gen = t_lint = t_xla = 0.0
    try:
        for start in range(0, args.mutants, BATCH):
            ta = time.time()
            batch = []
            bdir = os.path.join(work, f"b{start // BATCH:03d}")
            os.makedirs(bdir)
            for i in range(start, min(start + BATCH, args.mutants)):
                src, text = seeds[i % len(seeds)]
                rng = random.Random(f"{args.seed}:{i}")
                kind, mtext = make_mutant(text, rng, vocab)
                p = os.path.join(bdir, f"m{i:06d}.hlo")
                with open(p, "w", encoding="utf-8", errors="surrogateescape") as f:
                    f.write(mtext)
                batch.append((p, kind, src, mtext))
            tb = time.time()
            paths = [b[0] for b in batch]
            lint = hlolint_verdicts(hlolint, paths, args.jobs)
            tc = time.time()
            xla, restarts = xla_verdicts(paths, args.jobs)
            td = time.time()
            restarts_total += restarts
            for p, kind, src, mtext in batch:
                mut_tally.add(p, xla[p], lint[p], kind.split("+")[0], text=mtext,
                              origin=f"{os.path.relpath(src, args.source) if src.startswith(args.source) else os.path.relpath(src, corpus)} "
                                     f"mutant {os.path.basename(p)}")
            shutil.rmtree(bdir, ignore_errors=True)
            t_gen += tb - ta
            t_lint += tc - tb
            t_xla += td - tc
            print(f"  {min(start + BATCH, args.mutants)} mutants: agreement {mut_tally.pct():.3f}%",
                  flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    t_mut = time.time() - t1
    print(f"mutants: {mut_tally.total}, agreement {mut_tally.pct():.3f}% ({mut_tally.agree}; "
          f"both accept {mut_tally.both_accept}, both reject {mut_tally.both_reject}), "
          f"XLA crashes {dict(mut_tally.crashes)} ({restarts_total} worker restarts), "
          f"{t_mut:.1f}s (generate {t_gen:.1f}s, hlolint {t_lint:.1f}s, XLA {t_xla:.1f}s)", flush=True)
    if mut_tally.pct() < args.min_agreement:
        failed.append(f"mutant agreement {mut_tally.pct():.3f}% < {args.min_agreement}%")
    report["mutants"] = {"count": mut_tally.total, "seed": args.seed, "seeds": len(seeds),
                         "agree": mut_tally.agree, "agreement_pct": mut_tally.pct(),
                         "both_accept": mut_tally.both_accept, "both_reject": mut_tally.both_reject,
                         "crashes": dict(mut_tally.crashes), "seconds": t_mut,
                         "by_mutation": {k: {"mutants": v[0], "agree": v[1]}
                                         for k, v in sorted(mut_tally.by_kind.items())},
                         "classes": mut_tally.classes}
    report["seconds"] = time.time() - t_start

    with open(os.path.join(out, "parser_oracle.json"), "w") as f:
        json.dump(report, f, indent=1)
    lines = [f"# XLA parser oracle\n", f"{report['xla']}; {profile}\n"]
    for name, tally in (("corpus", corpus_tally), ("mutants", mut_tally)):
        if not tally.total:
            continue
        lines.append(f"## {name}: {tally.total} inputs, agreement {tally.pct():.3f}%\n")
        lines.append(f"both accept {tally.both_accept}, both reject {tally.both_reject}, "
                     f"XLA crashes {dict(tally.crashes)}\n")
        for c, e in sorted(tally.classes.items(), key=lambda kv: -kv[1]["count"]):
            lines.append(f"- **{e['count']}** {c}")
            s = e["samples"][0]
            lines.append(f"  - e.g. {s['input']} ({s['mutation']}); XLA: `{xla_message(s['xla']) if s['xla'] != 'accepted' else 'accepted'}`; "
                         f"hlolint: `{s['hlolint'] if isinstance(s['hlolint'], str) else s['hlolint'][0]}`")
        lines.append("")
    with open(os.path.join(out, "parser_oracle.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    for name, tally in (("corpus", corpus_tally), ("mutants", mut_tally)):
        if tally.classes:
            print(f"\n{name} disagreement classes:")
            for c, e in sorted(tally.classes.items(), key=lambda kv: -kv[1]["count"]):
                print(f"  {e['count']:6}  {c}")
    print(f"\ntotal {report['seconds']:.1f}s; samples in {out}/disagreements/, "
          f"summary in {out}/parser_oracle.md")
    if failed:
        print("FAILED: " + "; ".join(failed))
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())

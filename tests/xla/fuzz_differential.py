#!/usr/bin/env python3
"""The parser-only fuzz target's XLA-differential mode (docs/fuzzing.md).

  fuzz_differential.py --fuzz-parse PATH [--seconds 60] [--seed 1]
                       [--generate-hlo PATH] [--out DIR]

Runs tests/fuzz/fuzz_parse (a libFuzzer build, -DHLOLINT_FUZZ=ON) for a
while with HLOLINT_FUZZ_VERDICTS set, so it writes every input it runs
(up to 10,000) with hlolint's verdict, parsing as the XLA of this jaxlib
(HLOLINT_FUZZ_XLA_VERSION=jaxlib-X); then XLA's parser (jaxlib's
hlo_module_from_text, in the workers of parser_oracle.py) judges the same
inputs. Prints the agreement and the disagreement classes, as
parser_oracle.py does; samples go to OUT/disagreements/. Not a ctest test:
the fuzz build is the sanitizer stage's. Exit 0, or 77 without XLA.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True
import jax_env  # noqa: E402
import parser_oracle  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fuzz-parse", required=True)
    ap.add_argument("--seconds", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--generate-hlo", default="")
    ap.add_argument("--source", default=os.path.dirname(os.path.dirname(HERE)))
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--out", default="/tmp/hlolint-fuzz-differential")
    args = ap.parse_args()
    fuzz = os.path.abspath(args.fuzz_parse)
    jax_env.reexec_in_env()
    print(f"XLA: {jax_env.describe()}", flush=True)
    work = tempfile.mkdtemp(prefix="hlolint-fuzz-diff-")
    seeds, corpus, verdicts = (os.path.join(work, d) for d in ("seeds", "corpus", "verdicts"))
    for d in (corpus, verdicts):
        os.makedirs(d)
    make_seeds = [sys.executable, os.path.join(args.source, "tests/fuzz/make_seeds.py"), "--out", seeds]
    if args.generate_hlo:
        make_seeds += ["--generate-hlo", args.generate_hlo]
    subprocess.run(make_seeds, check=True, stdout=subprocess.DEVNULL)
    env = dict(os.environ, HLOLINT_FUZZ_VERDICTS=verdicts,
               HLOLINT_FUZZ_XLA_VERSION="jaxlib-" + jax_env.JAX_VERSION)
    t = time.time()
    run = subprocess.run([fuzz, f"-seed={args.seed}", f"-max_total_time={args.seconds}",
                          "-timeout=10", "-rss_limit_mb=2048", "-max_len=8192",
                          "-dict=" + os.path.join(args.source, "tests/fuzz/hlo.dict"),
                          "-print_final_stats=1", corpus, seeds],
                         env=env, capture_output=True, text=True)
    stats = [l for l in run.stderr.splitlines() if l.startswith("stat::")]
    print(f"fuzz_parse: exit {run.returncode}, {time.time() - t:.0f}s; " + "; ".join(stats), flush=True)
    if run.returncode != 0:
        print(run.stderr[-4000:], file=sys.stderr)
        return 1
    files = sorted(os.path.join(verdicts, f) for f in os.listdir(verdicts))
    xla, _ = parser_oracle.xla_verdicts(files, args.jobs)
    tally = parser_oracle.Tally(os.path.abspath(args.out), "fuzz")
    for path in files:
        rejected = [] if path.endswith(".accept") else [("parse-error", "rejected", 0, 0)]
        tally.add(path, xla[path], rejected, "fuzz")
    print(f"fuzz inputs judged: {tally.total}, agreement {tally.pct():.3f}% "
          f"(both accept {tally.both_accept}, both reject {tally.both_reject}, "
          f"XLA crashes {dict(tally.crashes)})")
    for name, entry in sorted(tally.classes.items(), key=lambda kv: -kv[1]["count"]):
        print(f"  {entry['count']:6d}  {name}")
    print(f"samples in {tally.dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

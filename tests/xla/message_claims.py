#!/usr/bin/env python3
"""The XLA oracle, part 3: what hlolint's messages say XLA does, asked of a
real XLA (jaxlib's hlo_module_from_text and jax's lowering).

  message_claims.py --hlolint PATH

* verify-names: a name used in two computations is accepted by XLA's
  parser, which renames the later one (`x` -> `x.1`); hlolint reports that
  one, as a note in a hand-written file and as a warning in a file named as
  an XLA dump (XLA prints unique names). A name used twice in one
  computation is rejected by both, at the same place, in the same words.
* unsupported-format: what `jax.jit(f).lower(x).as_text()` prints is not HLO
  text, and the advice hlolint gives (`as_text(dialect="hlo")`,
  `compile().as_text()`) prints HLO text that lints without a parse finding.

Exit status: 0 every claim held, 1 one did not, 77 XLA not available.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import jax_env  # noqa: E402

NAME_IN_TWO_COMPUTATIONS = """HloModule m

callee {
  x = f32[] parameter(0)
  ROOT y = f32[] negate(x)
}

ENTRY main {
  x = f32[] parameter(0)
  ROOT c = f32[] call(x), to_apply=callee
}
"""

NAME_TWICE_IN_ONE_COMPUTATION = """HloModule m

ENTRY main {
  x = f32[] parameter(0)
  x = f32[] negate(x)
  ROOT y = f32[] negate(x)
}
"""

DUMP_NAME = "module_0001.m.0001.pipeline.after_a.before_b.txt"


class Claims:
    def __init__(self, hlolint, work):
        self.hlolint = hlolint
        self.work = work
        self.failures = []

    def check(self, ok, claim, detail=""):
        print(f"{'ok  ' if ok else 'FAIL'} {claim}" + (f": {detail}" if detail and not ok else ""))
        if not ok:
            self.failures.append(claim)

    def lint(self, name, text):
        path = os.path.join(self.work, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        p = subprocess.run([self.hlolint, "--format", "json-lines", path],
                           capture_output=True, text=True)
        return [json.loads(line) for line in p.stdout.splitlines() if line.strip()]


def where(finding):
    return (finding["rule"], finding["severity"], finding["line"], finding["column"])


def check_names(claims, hlo):
    printed = hlo.hlo_module_from_text(NAME_IN_TWO_COMPUTATIONS).to_string()
    claims.check("%x.1 = f32[] parameter(0)" in printed and "%x = f32[] parameter(0)" in printed,
                 "XLA accepts a name used in two computations and renames the ENTRY's one",
                 printed)
    for name, severity in (("names.hlo", "note"), (DUMP_NAME, "warning")):
        found = [where(f) for f in claims.lint(name, NAME_IN_TWO_COMPUTATIONS)]
        claims.check(found == [("verify-names", severity, 9, 3)],
                     f"hlolint reports the renamed 'x' at 9:3 as a {severity} in {name}", found)

    try:
        hlo.hlo_module_from_text(NAME_TWICE_IN_ONE_COMPUTATION)
        xla_error = ""
    except Exception as e:  # XLA's status, as jaxlib raises it
        xla_error = str(e)
    claims.check("5:3: error: instruction already exists: x" in xla_error,
                 "XLA rejects a name used twice in one computation at 5:3", xla_error)
    found = claims.lint("twice.hlo", NAME_TWICE_IN_ONE_COMPUTATION)
    claims.check([(where(f), f["message"]) for f in found] ==
                 [(("parse-error", "error", 5, 3), "instruction already exists: x")],
                 "hlolint rejects it at 5:3 in XLA's words", found)


def check_lowering_advice(claims):
    import jax
    import jax.numpy as jnp
    lowered = jax.jit(lambda a: a * 2).lower(jnp.ones(3))
    found = claims.lint("stablehlo.txt", lowered.as_text())
    claims.check(len(found) == 1 and where(found[0]) == ("unsupported-format", "warning", 1, 1)
                 and 'as_text(dialect="hlo")' in found[0].get("fix", ""),
                 "as_text() is StableHLO: unsupported-format at 1:1 with the advice", found)
    for what, text in (('as_text(dialect="hlo")', lowered.as_text(dialect="hlo")),
                       ("compile().as_text()", lowered.compile().as_text())):
        parse_findings = [f for f in claims.lint("advised.hlo", text)
                          if f["rule"] in ("parse-error", "unsupported-format")]
        claims.check(parse_findings == [], f"the advised {what} is HLO text hlolint reads",
                     parse_findings)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hlolint", required=True)
    args = ap.parse_args()
    hlolint = os.path.abspath(args.hlolint)
    jax_env.reexec_in_env()  # exits 77 when XLA cannot be had
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    print(f"XLA oracle: {jax_env.describe()}", flush=True)
    from jax._src.lib import hlo
    with tempfile.TemporaryDirectory(prefix="hlolint-claims-") as work:
        claims = Claims(hlolint, work)
        check_names(claims, hlo)
        check_lowering_advice(claims)
    if claims.failures:
        print(f"{len(claims.failures)} claim(s) did not hold", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

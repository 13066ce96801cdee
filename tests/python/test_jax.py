"""hlolint.jax with a real jax/jaxlib (CPU; tests/xla/jax_env.py): check()
on the compiled functions of the XLA-oracle program suite
(tests/xla/programs), assert_clean, lint_compilations."""
import importlib
import os
import subprocess
import sys

import hlolint
import hlolint.jax
from conftest import SOURCE

# Before JAX initializes its backend: the programs shard over 8 CPU devices,
# and lint_compilations needs XLA's dump flags.
os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "")
                           + " --xla_force_host_platform_device_count=8").strip()
DUMPS = hlolint.jax.enable_dumps()

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import pytest  # noqa: E402

PROGRAMS = os.path.join(SOURCE, "tests", "xla", "programs")
SEED_RULES = {"reshape-not-bitcast", "unclaimed-output-alias", "dead-in-place-past-root",
              "missed-in-place-pair", "donation-not-used", "entry-parameter-copied"}
PROGRAM_NAMES = sorted(n[:-3] for n in os.listdir(PROGRAMS)
                       if n.endswith(".py") and not n.startswith("_"))

# The hand-written module of docs/python.md: a reshape whose layouts make it
# move data.
RESHAPE_NOT_BITCAST = """HloModule handwritten

ENTRY main {
  p = f32[8,16]{1,0} parameter(0)
  ROOT r = f32[8,4,4]{1,2,0} reshape(p)
}
"""


def compiled_programs(name):
    """Compiles one program module; returns [(function name, Lowered, Compiled)]."""
    sys.path.insert(0, PROGRAMS)
    try:
        common = importlib.import_module("_common")
        captured = []

        def compile_jit(fn, *args, **jit_kwargs):
            lowered = jax.jit(fn, **jit_kwargs).lower(*args)
            compiled = lowered.compile()
            captured.append((getattr(fn, "__name__", "fn"), lowered, compiled))
            return compiled
        common.compile_jit = compile_jit
        module = importlib.import_module(name)
        module.compile_jit = compile_jit
        module.compile_all()
        return captured, getattr(module, "EXPECT", {})
    finally:
        sys.path.remove(PROGRAMS)


@pytest.mark.parametrize("name", PROGRAM_NAMES)
def test_check_on_the_xla_oracle_programs(name):
    captured, expect = compiled_programs(name)
    assert captured, f"{name} compiled nothing"
    for function, lowered, compiled in captured:
        for stage, obj in (("compiled", compiled), ("lowered", lowered)):
            report = hlolint.jax.check(obj, xla_version="jaxlib-" + jax.__version__,
                                       backend="cpu")
            assert report.modules >= 1, (name, function, stage)
            assert report.instructions > 0, (name, function, stage)
            unexpected = [str(d) for d in report
                          if d.rule not in expect and (
                              d.rule in ("parse-error", "unsupported-format")
                              or d.rule.startswith("verify-") or d.rule in SEED_RULES)]
            assert unexpected == [], (name, function, stage)
            assert all(d.file.startswith("<jit_") for d in report)


def test_check_takes_compiled_lowered_and_text():
    lowered = jax.jit(lambda x: jnp.sin(x) * 2).lower(jnp.ones((4, 4)))
    compiled = lowered.compile()
    assert hlolint.jax.hlo_text(compiled) == (compiled.as_text(), "after_optimizations")
    assert hlolint.jax.hlo_text(lowered) == (lowered.as_text(dialect="hlo"),
                                             "before_optimizations")
    assert hlolint.jax.check(compiled).to_dicts() == hlolint.lint_text(
        compiled.as_text(), path="<jit__lambda>", assume_pass="after_optimizations").to_dicts()
    assert hlolint.jax.assert_clean(compiled).failed is False
    with pytest.raises(TypeError, match="takes a jax.stages.Compiled or Lowered"):
        hlolint.jax.check(3)


def test_assert_clean_raises_lint_error_with_the_report():
    with pytest.raises(hlolint.LintError) as raised:
        hlolint.jax.assert_clean(RESHAPE_NOT_BITCAST, fail_on="warning")
    assert [d.rule for d in raised.value.report] == ["reshape-not-bitcast"]
    assert str(raised.value).startswith(
        "hlolint: <handwritten> has findings at or above 'warning' (1 ")
    assert "<handwritten>:5:" in str(raised.value)
    assert hlolint.jax.assert_clean(RESHAPE_NOT_BITCAST, select=["verify"]).failed is False


def test_lint_compilations_lints_each_module_xla_compiles():
    def double_then_sum(x):
        return jnp.sum(x * 2.0)

    with hlolint.jax.lint_compilations(fail_on="warning") as seen:
        jax.jit(double_then_sum).lower(jnp.ones((16, 16))).compile()
    names = [m for m in seen.modules if m.endswith(".jit_double_then_sum")]
    assert len(names) == 1, sorted(seen.modules)
    report = seen.modules[names[0]]
    assert report.files == [os.path.join(DUMPS, names[0] + suffix) for suffix in
                            (".before_optimizations.txt", ".cpu_after_optimizations.txt")]
    assert report.modules == 2 and report.instructions > 0
    assert not seen.failed, str(report)
    # Compiled again: served from JAX's cache, nothing new to lint.
    with hlolint.jax.lint_compilations() as again:
        jax.jit(double_then_sum).lower(jnp.ones((16, 16))).compile()
    assert not any(m.endswith(".jit_double_then_sum") for m in again.modules)


def test_lint_compilations_after_the_backend_started_says_why_it_cannot():
    code = ("import os; os.environ.pop('XLA_FLAGS', None)\n"
            "import jax, jax.numpy as jnp, hlolint.jax\n"
            "jnp.ones(1).block_until_ready()\n"
            "try:\n    hlolint.jax.lint_compilations().__enter__()\n"
            "except RuntimeError as e:\n    print(e)\n")
    env = {k: v for k, v in os.environ.items() if k != "XLA_FLAGS"}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=300, env=env)
    assert r.stdout.startswith("hlolint.jax: JAX's backend is already initialized"), r.stderr

"""pytest --hlolint on a small test suite: the one test whose compiled
module has a finding fails, for that reason only."""
import os
import subprocess
import sys
import textwrap

import pytest

SUITE = textwrap.dedent('''
    import os

    import hlolint.jax
    import jax
    import jax.numpy as jnp

    # A reshape whose layouts make it move data (reshape-not-bitcast). JAX
    # does not produce one, so the test below puts it where XLA writes the
    # modules it compiles, as XLA would name it.
    HANDWRITTEN = """HloModule jit_handwritten

    ENTRY main {
      p = f32[8,16]{1,0} parameter(0)
      ROOT r = f32[8,4,4]{1,2,0} reshape(p)
    }
    """


    def test_jit_compiles_a_clean_module():
        assert jax.jit(lambda x: x * 2 + 1)(jnp.ones(4)).tolist() == [3.0] * 4


    def test_module_with_a_finding():
        directory = hlolint.jax.dump_directory()  # None without --hlolint
        if directory is None:
            return
        name = "module_9000.jit_handwritten.before_optimizations.txt"
        with open(os.path.join(directory, name), "w") as f:
            f.write(HANDWRITTEN)


    def test_without_jax():
        assert sum([1, 2]) == 3
''')


def run_pytest(tmp_path, *args):
    (tmp_path / "test_suite.py").write_text(SUITE)
    env = {k: v for k, v in os.environ.items() if k != "XLA_FLAGS"}
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
                           "-rfE", *args, "test_suite.py"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=600, env=env)


def test_fails_only_the_test_whose_module_has_a_finding(tmp_path):
    r = run_pytest(tmp_path, "--hlolint")
    assert r.returncode == 1, r.stdout + r.stderr
    summary = r.stdout.strip().splitlines()
    assert summary[-1].startswith("1 failed, 2 passed"), r.stdout
    assert "FAILED test_suite.py::test_module_with_a_finding - hlolint.LintError" in r.stdout
    assert ("E           hlolint.LintError: hlolint: XLA module module_9000.jit_handwritten has "
            "findings at or above 'error' (1 error):\n" in r.stdout), r.stdout
    assert "module_9000.jit_handwritten.before_optimizations.txt:5:8: error: reshape " in r.stdout
    assert "[reshape-not-bitcast]" in r.stdout
    assert "hlolint: linted " in r.stdout


def test_without_the_flag_nothing_is_linted(tmp_path):
    r = run_pytest(tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip().splitlines()[-1].startswith("3 passed"), r.stdout
    assert "hlolint: linted" not in r.stdout


@pytest.mark.parametrize("fail_on,outcome", [("error", "1 failed, 2 passed"),
                                             ("warning", "1 failed, 2 passed")])
def test_fail_on_level(tmp_path, fail_on, outcome):
    r = run_pytest(tmp_path, "--hlolint", "--hlolint-fail-on", fail_on)
    assert r.stdout.strip().splitlines()[-1].startswith(outcome), r.stdout


def test_ignore_option_lets_the_test_pass(tmp_path):
    r = run_pytest(tmp_path, "--hlolint", "--hlolint-ignore", "reshape-not-bitcast")
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip().splitlines()[-1].startswith("3 passed"), r.stdout

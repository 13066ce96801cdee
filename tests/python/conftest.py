"""Fixtures of the Python package's tests (tests/python/README.md).

They run in the venv that wheel_env.py made, with the wheel installed;
HLOLINT_CLI names the project's CLI build to compare with, HLOLINT_SOURCE the
repository (default: two folders up)."""
import json
import os
import subprocess

import pytest

SOURCE = os.environ.get("HLOLINT_SOURCE") or os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(scope="session")
def source():
    return SOURCE


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("HLOLINT_CLI")
    if not path:
        pytest.fail("HLOLINT_CLI must name the hlolint executable to compare with")
    return path


@pytest.fixture
def in_source(monkeypatch):
    """Run in the repository root, so paths print as the CLI's do there."""
    monkeypatch.chdir(SOURCE)
    return SOURCE


def run_cli(cli, *args, cwd=SOURCE):
    return subprocess.run([cli, *args], cwd=cwd, capture_output=True, text=True, timeout=300,
                          stdin=subprocess.DEVNULL)


def cli_json(cli, *args):
    r = run_cli(cli, "--format", "json", *args)
    assert r.returncode in (0, 1), r.stderr
    return json.loads(r.stdout)

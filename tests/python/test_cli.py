"""`python -m hlolint` and the `hlolint` script behave as the CLI."""
import os
import subprocess
import sys

import pytest

from conftest import SOURCE, run_cli


def script():
    return os.path.join(os.path.dirname(sys.executable), "hlolint")


def run_python_cli(command, *args):
    return subprocess.run([*command, *args], cwd=SOURCE, capture_output=True, text=True,
                          timeout=300, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("command", [[sys.executable, "-m", "hlolint"], [script()]],
                         ids=["python -m hlolint", "hlolint script"])
@pytest.mark.parametrize("args", [
    ["--version"],
    ["--format", "json", "examples/"],
    ["--format", "concise", "examples/", "tests/cli/inputs"],
    ["--format", "sarif", "--select", "layout", "examples/"],
    ["--list-rules"],
    ["no/such/file.hlo"],
    ["--no-such-flag"],
], ids=lambda a: " ".join(a))
def test_same_output_and_status_as_the_cli(cli, command, args):
    ours = run_python_cli(command, *args)
    theirs = run_cli(cli, *args)
    assert (ours.returncode, ours.stdout, ours.stderr) == (
        theirs.returncode, theirs.stdout, theirs.stderr)


def test_reads_stdin_as_the_cli(cli):
    with open(os.path.join(SOURCE, "examples/reshape-not-bitcast.hlo")) as f:
        text = f.read()
    runs = [subprocess.run([*command, "--format", "concise", "-"], input=text,
                           capture_output=True, text=True, timeout=60)
            for command in ([sys.executable, "-m", "hlolint"], [cli])]
    assert runs[0].stdout.startswith("<stdin>:22:4: ")
    assert [(r.returncode, r.stdout, r.stderr) for r in runs[:1]] == [
        (r.returncode, r.stdout, r.stderr) for r in runs[1:]]

#!/usr/bin/env python3
"""The Python package's test environment: the wheel built from this source
tree (`pip wheel .`) installed into a virtual environment that also sees the
cached jax/jaxlib of tests/xla/jax_env.py.

  wheel_env.py --source DIR --work DIR             build the wheel, make the venv
  wheel_env.py --source DIR --work DIR pytest ARGS  run pytest in that venv

The venv (WORK/venv) is made by the jax environment's python, so it has the
same interpreter, and sees jax through a .pth file naming the jax
environment's site-packages: nothing is installed into that cached
environment. The wheel's CMake build lives in WORK/wheel-build and is reused,
so a second run only rebuilds what changed (ccache is used when installed).
Exit status 77 (skipped) when PyPI cannot be reached, as the XLA tests.
"""
import argparse
import glob
import os
import shutil
import subprocess
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "xla"))
import jax_env  # noqa: E402

# What the build and the tests need besides the wheel, pinned as pyproject.toml pins them.
TOOLS = ["scikit-build-core==1.1.2", "nanobind==3.1.0", "pytest==8.3.3"]
MARKER = ".hlolint-tools-installed"


def log(message):
    sys.stderr.write(f"[wheel_env] {message}\n")
    sys.stderr.flush()


def run(command, **kw):
    log(" ".join(command))
    r = subprocess.run(command, stdin=subprocess.DEVNULL, **kw)
    if r.returncode != 0:
        sys.exit(f"[wheel_env] failed ({r.returncode}): {' '.join(command)}")


def purelib(python):
    return subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()


def make_venv(venv):
    try:
        jax_python = jax_env.ensure()
    except jax_env.Skip as e:
        jax_env.exit_skipped(str(e))
    python = os.path.join(venv, "bin", "python")
    if not os.path.exists(os.path.join(venv, MARKER)):
        shutil.rmtree(venv, ignore_errors=True)
        run([jax_python, "-m", "venv", venv])
        run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
             "--no-input", *TOOLS])
        with open(os.path.join(purelib(python), "_hlolint_jax_env.pth"), "w") as f:
            f.write(purelib(jax_python) + "\n")
        open(os.path.join(venv, MARKER), "w").close()
    return python


def build_and_install(python, source, work):
    dist = os.path.join(work, "dist")
    shutil.rmtree(dist, ignore_errors=True)
    command = [python, "-m", "pip", "wheel", source, "--no-build-isolation", "--no-deps",
               "--disable-pip-version-check", "-w", dist,
               "-Cbuild-dir=" + os.path.join(work, "wheel-build")]
    if shutil.which("ccache"):
        command.append("-Ccmake.define.CMAKE_CXX_COMPILER_LAUNCHER=ccache")
    env = dict(os.environ)
    env.setdefault("CMAKE_BUILD_PARALLEL_LEVEL", os.environ.get("JOBS", str(os.cpu_count() or 2)))
    started = time.time()
    run(command, env=env)
    log(f"wheel built in {time.time() - started:.0f}s")
    [wheel] = glob.glob(os.path.join(dist, "hlolint-*.whl"))
    run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps",
         "--force-reinstall", wheel])
    log(f"installed {os.path.basename(wheel)} ({os.path.getsize(wheel) // 1024} KiB)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--source", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    venv = os.path.join(args.work, "venv")
    python = os.path.join(venv, "bin", "python")
    if args.command:
        if args.command[0] != "pytest":
            parser.error("the only command is pytest")
        if os.environ.get("HLOLINT_XLA_SKIP") == "1" or not os.path.exists(python):
            jax_env.exit_skipped("the wheel's environment was not made (see 'python: wheel')")
        os.execv(python, [python, "-m", "pytest", "-p", "no:cacheprovider", *args.command[1:]])
    os.makedirs(args.work, exist_ok=True)
    build_and_install(make_venv(venv), os.path.abspath(args.source), args.work)


if __name__ == "__main__":
    main()

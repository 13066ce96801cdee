#!/usr/bin/env python3
"""A cached virtual environment holding a real XLA (jax + jaxlib, CPU) from PyPI.

  jax_env.py [--ensure] [--print-python] [--info]

Importable: `ensure()` returns the environment's python (creating it when
missing or incomplete), `reexec_in_env()` re-runs the calling script under
that python unless it already runs there, `describe()` says which jax,
jaxlib and XLA it is.

The environment lives at ${HLOLINT_CACHE_DIR:-$HOME/.cache/hlolint}/jax-<version>.
It counts as complete only when the marker file `.hlolint-complete` is there,
written after a successful install and import check; an environment without
it is deleted and made again. Creation holds a lock (`jax-<version>.lock`),
so tests started in parallel build it once.

When PyPI cannot be reached (or HLOLINT_XLA_SKIP=1 is set) the tests that
need XLA exit with status 77, which ctest reports as skipped, after a loud
banner. Any other failure to install is an error (exit status 1).
"""
import fcntl
import os
import shutil
import subprocess
import sys
import time

JAX_VERSION = "0.10.2"
PINNED = ["jax==" + JAX_VERSION, "jaxlib==" + JAX_VERSION]
SKIP_EXIT = 77
MARKER = ".hlolint-complete"

# The XLA each jaxlib release was built from: jaxlib version -> (XLA commit,
# its commit date). jax pins XLA in third_party/xla/revision.bzl (XLA_COMMIT)
# at the release tag jax-v<version>; jaxlib's wheels do not carry it. For
# jax-v0.10.2 (tagged 2026-06-17) the pin is openxla/xla 5a9e73cb, committed
# 2026-06-14 (jax moved to it on 2026-06-15).
XLA_FOR_JAXLIB = {
    "0.10.2": ("5a9e73cbd92530cac2ac36f4736a774b2412afe2", "2026-06-14"),
}

# Pip's messages when the index (or the network) is not there.
_NETWORK_SIGNS = (
    "NewConnectionError", "ConnectionError", "Max retries exceeded",
    "Temporary failure in name resolution", "Name or service not known",
    "Network is unreachable", "Connection refused", "timed out",
    "Could not fetch URL", "No matching distribution found",
    "ProxyError", "SSLError",
)


def cache_dir():
    return os.environ.get("HLOLINT_CACHE_DIR") or os.path.join(
        os.path.expanduser("~"), ".cache", "hlolint")


def env_dir():
    return os.path.join(cache_dir(), "jax-" + JAX_VERSION)


def env_python(path=None):
    return os.path.join(path or env_dir(), "bin", "python")


class Skip(Exception):
    """XLA cannot be had here (PyPI unreachable, or skipping was asked for)."""


def skip_banner(reason):
    line = "=" * 78
    return (f"\n{line}\nSKIPPED: XLA oracle tests do not run: {reason}\n"
            f"(jax/jaxlib {JAX_VERSION} from PyPI into {env_dir()})\n{line}\n")


def exit_skipped(reason):
    sys.stdout.flush()
    sys.stderr.write(skip_banner(reason))
    sys.stderr.flush()
    sys.exit(SKIP_EXIT)


def _log(msg):
    sys.stderr.write(f"[jax_env] {msg}\n")
    sys.stderr.flush()


def _python_candidates():
    seen = set()
    names = [shutil.which("python3")]
    for minor in (13, 12, 11, 10):
        names.append(shutil.which(f"python3.{minor}"))
    names.append(sys.executable)
    names.append("/usr/bin/python3")
    for n in names:
        if n and n not in seen and os.path.exists(n):
            seen.add(n)
            yield n


def _python_ok(py):
    """Python >= 3.10 whose venv module can make an environment with pip."""
    code = ("import sys, venv, ensurepip; "
            "sys.exit(0 if sys.version_info >= (3, 10) else 3)")
    try:
        return subprocess.run([py, "-c", code], capture_output=True,
                              timeout=60).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def _complete(path):
    return os.path.exists(os.path.join(path, MARKER)) and os.path.exists(env_python(path))


def _run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def _index_reachable():
    """Whether pip's index answers for jax (a reachable index that lacks the
    pinned version is an error, not a reason to skip)."""
    import urllib.request
    index = (os.environ.get("PIP_INDEX_URL") or "https://pypi.org/simple").rstrip("/")
    try:
        with urllib.request.urlopen(index + "/jax/", timeout=15) as r:
            return r.status == 200
    except Exception:
        return False


def _create(path):
    last_error = "no python >= 3.10 with a working venv module found"
    for py in _python_candidates():
        if not _python_ok(py):
            continue
        shutil.rmtree(path, ignore_errors=True)
        _log(f"creating {path} with {py}")
        r = _run([py, "-m", "venv", path])
        if r.returncode != 0 or not os.path.exists(env_python(path)):
            last_error = f"{py} -m venv failed: {r.stderr.strip()[-500:]}"
            continue
        _log(f"installing {' '.join(PINNED)} from PyPI (CPU wheels, ~100 MB)")
        t = time.time()
        r = _run([env_python(path), "-m", "pip", "install", "--quiet",
                  "--disable-pip-version-check", "--no-input", *PINNED],
                 stdin=subprocess.DEVNULL)
        if r.returncode != 0:
            out = r.stdout + r.stderr
            shutil.rmtree(path, ignore_errors=True)
            if any(s in out for s in _NETWORK_SIGNS) and not _index_reachable():
                raise Skip("PyPI unreachable (pip could not download "
                           f"{' '.join(PINNED)}): {out.strip()[-400:]}")
            raise RuntimeError(f"pip install failed:\n{out[-3000:]}")
        r = _run([env_python(path), "-c",
                  "import jax, jaxlib; print(jax.__version__, jaxlib.__version__)"])
        if r.returncode != 0 or r.stdout.split() != [JAX_VERSION, JAX_VERSION]:
            shutil.rmtree(path, ignore_errors=True)
            raise RuntimeError(f"jax import check failed: {r.stdout}{r.stderr[-2000:]}")
        with open(os.path.join(path, MARKER), "w") as f:
            f.write(f"jax {JAX_VERSION} jaxlib {JAX_VERSION} python {py} "
                    f"installed {time.strftime('%Y-%m-%dT%H:%M:%S')} in {time.time() - t:.0f}s\n")
        _log(f"installed in {time.time() - t:.0f}s")
        return
    raise RuntimeError(last_error)


def ensure():
    """The environment's python, creating the environment when needed.

    Raises Skip when XLA cannot be had here."""
    if os.environ.get("HLOLINT_XLA_SKIP") == "1":
        raise Skip("HLOLINT_XLA_SKIP=1 is set")
    path = env_dir()
    if _complete(path):
        return env_python(path)
    os.makedirs(cache_dir(), exist_ok=True)
    with open(path + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not _complete(path):
            _create(path)
    return env_python(path)


def in_env():
    return os.path.realpath(sys.prefix) == os.path.realpath(env_dir())


def reexec_in_env():
    """Re-run this script under the environment's python (exit 77 on Skip)."""
    if in_env():
        return
    try:
        py = ensure()
    except Skip as e:
        exit_skipped(str(e))
    os.execv(py, [py] + sys.argv)


def describe():
    """One line: jax, jaxlib and the XLA commit they were built from.

    Must run inside the environment (imports jax)."""
    import jax
    import jaxlib
    commit, date = XLA_FOR_JAXLIB.get(jaxlib.__version__, ("unknown", "unknown"))
    return (f"jax {jax.__version__}, jaxlib {jaxlib.__version__}, "
            f"XLA commit {commit} ({date}), python {sys.version.split()[0]}")


def xla_date(jaxlib_version=JAX_VERSION):
    """The commit date of the XLA a jaxlib release was built from, or None."""
    date = XLA_FOR_JAXLIB.get(jaxlib_version, (None, None))[1]
    return date if date and date != "unknown" else None


def hlolint_profile_args(hlolint, choice="jaxlib"):
    """hlolint arguments that make it judge for the XLA in this environment.

    choice: 'jaxlib' (default): `--xla-version <date of jaxlib's XLA>` when
    the binary has --xla-version (docs/xla-versions.md); 'latest' or 'none':
    no argument (hlolint's default profile); anything else is passed as the
    version. Returns (args, description)."""
    if choice in ("latest", "none"):
        return [], "hlolint's default XLA profile (latest)"
    try:
        help_text = subprocess.run([hlolint, "--help"], capture_output=True, text=True,
                                   timeout=60).stdout
    except OSError:
        help_text = ""
    if "--xla-version" not in help_text:
        return [], "hlolint has no --xla-version: its built-in XLA semantics"
    if choice != "jaxlib":
        return ["--xla-version", choice], f"hlolint --xla-version {choice}"
    # hlolint knows which XLA each jaxlib release was built from
    # (lib/xla/profile.cc); a jaxlib it does not know is an error to fix
    # there, not a reason to judge for another XLA.
    version = "jaxlib-" + JAX_VERSION
    r = subprocess.run([hlolint, "--xla-version", version, "--list-rules"], capture_output=True,
                       text=True, timeout=60)
    if r.returncode != 0:
        raise RuntimeError(f"hlolint does not know {version} ({r.stderr.strip()}): add it to "
                           "kJaxlibReleases in lib/xla/profile.cc with the XLA date "
                           f"{xla_date()}")
    return ["--xla-version", version], f"hlolint --xla-version {version} (XLA of {xla_date()})"


def main(argv):
    if "--help" in argv or "-h" in argv:
        print(__doc__)
        return 0
    try:
        py = ensure()
    except Skip as e:
        exit_skipped(str(e))
    if "--print-python" in argv:
        print(py)
        return 0
    r = subprocess.run([py, os.path.abspath(__file__), "--describe-here"],
                       capture_output=True, text=True)
    sys.stdout.write(r.stdout)
    sys.stderr.write(r.stderr)
    return r.returncode


if __name__ == "__main__":
    if sys.argv[1:] == ["--describe-here"]:
        print(describe())
        sys.exit(0)
    sys.exit(main(sys.argv[1:]))

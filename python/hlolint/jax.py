"""hlolint inside JAX workflows (docs/python.md).

    import hlolint.jax
    compiled = jax.jit(f).lower(x).compile()
    hlolint.jax.check(compiled)          # -> hlolint.Report
    hlolint.jax.assert_clean(compiled)   # raises hlolint.LintError

    with hlolint.jax.lint_compilations() as seen:   # every module XLA compiles
        train_step(state, batch)
    print(seen.modules)                  # {"module_0004.jit_train_step": Report, ...}

Importing this module does not import jax; `check` imports it when called.
"""
from __future__ import annotations

import os
import re
import shlex
import sys
import tempfile
from typing import Dict, Optional

from . import LintError, Report, _hlolint, lint_paths, lint_text

__all__ = ["check", "assert_clean", "hlo_text", "lint_compilations", "Compilations",
           "enable_dumps", "dump_directory"]

# XLA's dump file names: module_<id>.<module name>.<stage>.txt
_DUMP_NAME = re.compile(r"^(module_\d+)\.([^.]+)")


def hlo_text(obj) -> "tuple[str, Optional[str]]":
    """The HLO text of a jax.stages.Compiled (XLA's optimized module) or
    Lowered (the module as HLO, not StableHLO), and the compilation stage
    it is at, as dump names say it (`--assume-pass`). HLO text (str) is
    taken as it is."""
    if isinstance(obj, str):
        return obj, None
    from jax import stages
    if isinstance(obj, stages.Compiled):
        text = obj.as_text()
        if not text:
            raise TypeError("hlolint.jax: this Compiled object has no HLO text "
                            "(its backend does not provide one)")
        return text, "after_optimizations"
    if isinstance(obj, stages.Lowered):
        return obj.as_text(dialect="hlo"), "before_optimizations"
    raise TypeError("hlolint.jax.check takes a jax.stages.Compiled or Lowered "
                    "(jax.jit(f).lower(*args) or .compile()), not "
                    f"{type(obj).__module__}.{type(obj).__name__}")


def _module_name(text: str) -> str:
    first = text.split(None, 2)
    return first[1].rstrip(",") if len(first) > 1 and first[0] == "HloModule" else "module"


def check(obj, **options) -> Report:
    """Lints a compiled or lowered JAX computation (or HLO text); options as
    lint_text.
    Diagnostics name the text `<module name>` (e.g. `<jit_f>`)."""
    text, stage = hlo_text(obj)
    if stage:
        options.setdefault("assume_pass", stage)
    return lint_text(text, path=f"<{_module_name(text)}>", **options)


def assert_clean(obj, fail_on: str = "error", **options) -> Report:
    """check(obj), raising hlolint.LintError (an AssertionError) with the
    report when a finding is at or above `fail_on`."""
    report = check(obj, fail_on=fail_on, **options)
    if report.failed:
        raise LintError(report, what=f"<{_module_name(hlo_text(obj)[0])}>")
    return report


def _backend_initialized() -> bool:
    bridge = sys.modules.get("jax._src.xla_bridge")
    return bool(bridge is not None and getattr(bridge, "_backends", None))


def dump_directory() -> Optional[str]:
    """The directory XLA_FLAGS tells XLA to dump to, or None."""
    found = None
    for flag in shlex.split(os.environ.get("XLA_FLAGS", "")):
        if flag.startswith("--xla_dump_to="):
            found = flag.split("=", 1)[1]
    return found


def enable_dumps(directory: Optional[str] = None) -> str:
    """Makes XLA dump every module it compiles as HLO text (XLA_FLAGS
    --xla_dump_to, --xla_dump_hlo_as_text) and returns the directory.

    XLA reads XLA_FLAGS once, when JAX first initializes its backend, so this
    must run before the first JAX computation of the process; afterwards it
    raises RuntimeError unless the flags were already set."""
    existing = dump_directory()
    if existing:
        return existing
    if _backend_initialized():
        raise RuntimeError(
            "hlolint.jax: JAX's backend is already initialized, so XLA can no longer be told "
            "to dump what it compiles. Call hlolint.jax.enable_dumps() (or enter "
            "lint_compilations()) before the first JAX computation, or start Python with "
            "XLA_FLAGS='--xla_dump_to=DIR --xla_dump_hlo_as_text'.")
    directory = directory or tempfile.mkdtemp(prefix="hlolint-xla-dump-")
    flags = os.environ.get("XLA_FLAGS", "")
    os.environ["XLA_FLAGS"] = (flags + f" --xla_dump_to={directory} --xla_dump_hlo_as_text").strip()
    return directory


def _dumped_files(directory: str) -> set:
    if not os.path.isdir(directory):
        return set()
    files, _ = _hlolint.expand_paths([directory])
    return set(files)


class Compilations:
    """What XLA compiled while a lint_compilations() block ran: `modules`
    maps each module (`module_<id>.<name>`, as XLA names its dumps) to the
    Report of its dumps; `report` holds them all."""

    def __init__(self, directory: str, options: dict):
        self.directory = directory
        self.options = options
        self.modules: Dict[str, Report] = {}
        self.report = Report()
        self._before = _dumped_files(directory)

    def collect(self) -> "Compilations":
        """Lints the dumps written since the block began (or since the last
        collect), adding them to `modules` and `report`."""
        new = sorted(_dumped_files(self.directory) - self._before)
        self._before |= set(new)
        by_module: Dict[str, list] = {}
        for path in new:
            match = _DUMP_NAME.match(os.path.basename(path))
            by_module.setdefault(match.group(0) if match else os.path.basename(path), []).append(path)
        for module, paths in by_module.items():
            report = lint_paths(paths, **self.options)
            self.modules[module] = report
            self.report.extend(report)
            self.report.files.extend(report.files)
            self.report.fail_on = report.fail_on
        return self

    @property
    def failed(self) -> bool:
        return any(r.failed for r in self.modules.values())


class lint_compilations:
    """Context manager: lints every module XLA compiles in the block, per
    module, from XLA's dumps (see enable_dumps for when it must first be
    entered). Options as lint_paths (fail_on sets `failed`).

        with hlolint.jax.lint_compilations(fail_on="warning") as seen:
            step(state, batch)
        assert not seen.failed, seen.report
    """

    def __init__(self, directory: Optional[str] = None, **options):
        self._directory = directory
        self._options = options
        self.compilations: Optional[Compilations] = None

    def __enter__(self) -> Compilations:
        self.compilations = Compilations(enable_dumps(self._directory), self._options)
        return self.compilations

    def __exit__(self, *exc) -> None:
        self.compilations.collect()

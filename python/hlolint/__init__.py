"""hlolint: a linter and verifier for XLA HLO text, in process.

    >>> import hlolint
    >>> for d in hlolint.lint_paths(["examples/"]):
    ...     print(d)

`lint_text` and `lint_paths` return a `Report` (a list of `Diagnostic`);
bad HLO gives parse-error diagnostics, never an exception. Only misuse
raises: an unknown option name (TypeError), an unknown rule or severity or
a broken configuration file (ValueError), a path that does not exist
(FileNotFoundError). See docs/python.md.
"""
from __future__ import annotations

import difflib
import os
from typing import Iterable, Mapping, Optional, Sequence, Union

from . import _hlolint
from ._hlolint import Diagnostic, DumpInfo, Location, Note, ProgramSource, RuleInfo, TextEdit

__version__: str = _hlolint.__version__

__all__ = [
    "Diagnostic", "DumpInfo", "Location", "Note", "ProgramSource", "RuleInfo", "TextEdit",
    "Report", "LintError", "Linter", "lint_text", "lint_paths", "rules", "explain", "__version__",
]

_SEVERITY_RANK = {"note": 0, "warning": 1, "error": 2}
_OPTIONS = ("select", "extend_select", "ignore", "severity_overrides", "fail_on",
            "xla_version", "backend", "assume_pass", "config", "jobs")


class Report(list):
    """The diagnostics of a lint, in the CLI's order (files in input order,
    by position within a file), with what the CLI's summary says.

    `failed` is what the CLI's exit status 1 means: a finding at or above
    `fail_on` (default "error")."""

    def __init__(self, diagnostics=(), *, fail_on: str = "error", files: Sequence[str] = (),
                 modules: int = 0, instructions: int = 0, suppressed: int = 0):
        super().__init__(diagnostics)
        self.fail_on = fail_on
        self.files = list(files)
        self.modules = modules
        self.instructions = instructions
        self.suppressed = suppressed

    @property
    def failed(self) -> bool:
        threshold = _SEVERITY_RANK[self.fail_on]
        return any(_SEVERITY_RANK[d.severity] >= threshold for d in self)

    def counts(self) -> dict:
        """Findings per severity: {"error": n, "warning": n, "note": n}."""
        out = {"error": 0, "warning": 0, "note": 0}
        for d in self:
            out[d.severity] += 1
        return out

    def to_dicts(self) -> list:
        """The CLI's `--format json` "diagnostics" array."""
        return [d.to_dict() for d in self]

    def __str__(self) -> str:
        """The CLI's concise format: one line per finding and per note."""
        lines = []
        for d in self:
            lines.append(str(d).replace("\n", "\\n"))
            for note in d.notes:
                at = note.location or d.location
                lines.append(f"{at.path}:{at.line}:{at.column}: note: "
                             + note.message.replace("\n", "\\n"))
        return "\n".join(lines)


class LintError(AssertionError):
    """Findings at or above a level where none were wanted (assert_clean,
    the pytest plugin). `report` holds them; str() is the concise report."""

    def __init__(self, report: Report, what: str = "HLO"):
        self.report = report
        counts = report.counts()
        summary = ", ".join(f"{n} {sev}{'s' if n != 1 else ''}"
                            for sev, n in counts.items() if n)
        super().__init__(f"hlolint: {what} has findings at or above "
                         f"'{report.fail_on}' ({summary}):\n{report}")


def _string_list(name: str, value) -> list:
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    if not isinstance(value, Iterable):
        raise TypeError(f"hlolint: option '{name}' takes a list of rule ids or categories, "
                        f"not {type(value).__name__}")
    out = []
    for item in value:
        if not isinstance(item, str):
            raise TypeError(f"hlolint: option '{name}' takes strings, not {type(item).__name__}")
        out.append(item)
    return out


def _severity(name: str, value) -> str:
    if value not in _SEVERITY_RANK:
        raise ValueError(f"hlolint: option '{name}': unknown severity {value!r} "
                         "(error, warning or note)")
    return value


def _linter_and_fail_on(options: Mapping):
    unknown = [k for k in options if k not in _OPTIONS]
    if unknown:
        hints = []
        for k in unknown:
            close = difflib.get_close_matches(k, _OPTIONS, n=1)
            hints.append(f"'{k}'" + (f" (did you mean '{close[0]}'?)" if close else ""))
        raise TypeError(f"hlolint: unknown option {', '.join(hints)}; the options are "
                        + ", ".join(_OPTIONS))
    kwargs = {}
    if options.get("select") is not None:
        kwargs["select"] = _string_list("select", options["select"])
    for name in ("extend_select", "ignore"):
        if options.get(name) is not None:
            kwargs[name] = _string_list(name, options[name])
    overrides = options.get("severity_overrides")
    if overrides is not None:
        if not isinstance(overrides, Mapping):
            raise TypeError("hlolint: option 'severity_overrides' takes a dict "
                            "{rule or category: 'error' | 'warning' | 'note'}")
        kwargs["severity_overrides"] = [
            (rule, _severity("severity_overrides", level)) for rule, level in overrides.items()]
    for name in ("xla_version", "backend", "assume_pass"):
        if options.get(name) is not None:
            if not isinstance(options[name], str):
                raise TypeError(f"hlolint: option '{name}' takes a str")
            kwargs[name] = options[name]
    config = options.get("config")
    if config is None:
        kwargs["config"] = "discover"
    elif config is False:
        kwargs["config"] = "none"
    elif isinstance(config, (str, os.PathLike)):
        kwargs["config"] = "file"
        kwargs["config_file"] = os.fspath(config)
    else:
        raise TypeError("hlolint: option 'config' takes a path, None (find the nearest "
                        ".hlolint.json, as the CLI does) or False (no configuration)")
    fail_on = _severity("fail_on", options.get("fail_on") or "error")
    linter = _hlolint.Linter(**kwargs)
    problems = linter.option_errors()
    if problems:
        raise ValueError("hlolint: " + "; ".join(problems))
    return linter, fail_on


def _jobs(options: Mapping) -> int:
    jobs = options.get("jobs") or 0
    if not isinstance(jobs, int):
        raise TypeError("hlolint: option 'jobs' takes an int (0: one thread per core)")
    return jobs


class Linter:
    """Lints with one set of options, validated once (what lint_text and
    lint_paths do for each call). Safe to share between threads.

        linter = hlolint.Linter(select=["layout"], fail_on="warning")
        for text in texts:
            report = linter.lint_text(text)
    """

    def __init__(self, **options):
        self._linter, self.fail_on = _linter_and_fail_on(options)
        self.jobs = _jobs(options)

    def lint_text(self, text: Union[str, bytes], path: str = "<text>") -> Report:
        """See hlolint.lint_text."""
        return _report([self._linter.lint_text(text, os.fspath(path))], self.fail_on)

    def lint_paths(self, paths) -> Report:
        """See hlolint.lint_paths."""
        if isinstance(paths, (str, os.PathLike)):
            paths = [paths]
        files, problems = _hlolint.expand_paths([os.fspath(p) for p in paths])
        if problems:
            raise FileNotFoundError("hlolint: " + "; ".join(problems))
        results = self._linter.lint_files(files, self.jobs)
        errors = [f"{r.path}: {e.message}" for r in results for e in r.errors]
        if errors:
            raise OSError("hlolint: " + "; ".join(errors))
        return _report(results, self.fail_on)


def lint_text(text: Union[str, bytes], path: str = "<text>", **options) -> Report:
    """Lints HLO text (str or bytes; the GIL is released while it lints).

    `path` names the text in the diagnostics; with `config=None` (the
    default) the nearest .hlolint.json above it applies. Options: select,
    extend_select, ignore (lists of rule ids or categories), severity_overrides
    ({rule: level}), fail_on (the level that makes `Report.failed` true),
    xla_version, backend, assume_pass (where in compilation the text was
    dumped, e.g. "after_optimizations"), config (a path, None to discover,
    False for none)."""
    return Linter(**options).lint_text(text, path)


def lint_paths(paths: Union[str, os.PathLike, Sequence[Union[str, os.PathLike]]],
               **options) -> Report:
    """Lints files and directories as the CLI does: a directory contributes
    its *.hlo and *.txt files recursively (sorted, skipping hidden entries,
    build folders and XLA's non-HLO dump files). Each file is linted on its
    own (as `hlolint --no-sequence`), on `jobs` threads (0: one per core).
    Options as lint_text.

    Raises FileNotFoundError for a path that does not exist, OSError for a
    file or directory that cannot be read."""
    return Linter(**options).lint_paths(paths)


def _report(results, fail_on: str) -> Report:
    diagnostics = [d for r in results for d in r.diagnostics]
    return Report(diagnostics, fail_on=fail_on, files=[r.path for r in results],
                  modules=sum(r.modules for r in results),
                  instructions=sum(r.instructions for r in results),
                  suppressed=sum(r.suppressed for r in results))


def rules() -> list:
    """Every rule (RuleInfo: id, category, default_severity, summary,
    documentation), in the order `hlolint --list-rules` lists them."""
    return _hlolint.rules()


def explain(rule: str) -> str:
    """The rule's documentation page (Markdown), as `hlolint --explain RULE`
    prints it; its summary when it has no page. ValueError for an unknown id."""
    info = _hlolint.find_rule(rule)
    if info is None:
        ids = [r.id for r in _hlolint.rules()]
        close = difflib.get_close_matches(rule, ids, n=1)
        raise ValueError(f"hlolint: unknown rule '{rule}'"
                         + (f" (did you mean '{close[0]}'?)" if close else ""))
    return info.documentation or info.summary

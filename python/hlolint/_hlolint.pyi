"""Type stubs of the extension module (python/src); use the hlolint package."""
from typing import Optional, Union

__version__: str

class Location:
    """A range of a text: 1-based lines, byte columns, end exclusive."""
    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    offset: int
    end_offset: int

class Note:
    message: str
    location: Optional[Location]

class TextEdit:
    location: Location
    new_text: str

class DumpInfo:
    """What the name of an XLA dump file says."""
    module_id: str
    module_name: str
    kind: str
    step: Optional[int]
    pipeline: str
    after_pass: str
    before_pass: str
    during_pass: str
    step_name: str
    platform: str
    timestamp: str
    next_pass: str
    def to_dict(self) -> dict: ...

class ProgramSource:
    file: str
    line: int

class Diagnostic:
    """One finding, as the CLI reports it."""
    rule: str
    severity: str  # "error" | "warning" | "note"
    message: str
    location: Location
    file: str
    line: int
    column: int
    end_line: int
    end_column: int
    label: Optional[str]
    module: str
    computation: str
    instruction: str
    op_name: str
    source: Optional[ProgramSource]
    notes: list[Note]
    fix: Optional[str]
    edit: Optional[TextEdit]
    fingerprint: str
    dump: Optional[DumpInfo]
    def to_dict(self) -> dict:
        """The CLI's `--format json` object for this finding."""

class LintProblem:
    message: str
    location: Optional[Location]

class LintResult:
    path: str
    diagnostics: list[Diagnostic]
    errors: list[LintProblem]
    modules: int
    computations: int
    instructions: int
    suppressed: int
    dump: Optional[DumpInfo]

class RuleInfo:
    id: str
    category: str
    default_severity: str
    summary: str
    documentation: str

class Linter:
    def __init__(self, *, select: Optional[list[str]] = None, extend_select: list[str] = ...,
                 ignore: list[str] = ..., severity_overrides: list[tuple[str, str]] = ...,
                 config: str = "none", config_file: str = "",
                 xla_version: Optional[str] = None, backend: Optional[str] = None,
                 assume_pass: Optional[str] = None) -> None: ...
    def option_errors(self) -> list[str]: ...
    def lint_text(self, text: Union[str, bytes], display_path: str) -> LintResult: ...
    def lint_files(self, paths: list[str], jobs: int = 0) -> list[LintResult]: ...

def expand_paths(paths: list[str]) -> tuple[list[str], list[str]]: ...
def rules() -> list[RuleInfo]: ...
def find_rule(id: str) -> Optional[RuleInfo]: ...

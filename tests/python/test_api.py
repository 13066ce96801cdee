"""hlolint's Python API against the CLI: the same findings, the same JSON."""
import gc
import re
import threading

import pytest

import hlolint
from conftest import cli_json, run_cli

# Python options and the CLI flags that say the same.
OPTION_CASES = [
    ({}, []),
    ({"select": ["reshape-not-bitcast"]}, ["--select", "reshape-not-bitcast"]),
    ({"select": "layout,aliasing"}, ["--select", "layout,aliasing"]),
    ({"ignore": ["dead-in-place-past-root"]}, ["--ignore", "dead-in-place-past-root"]),
    ({"extend_select": ["ALL"]}, ["--extend-select", "ALL"]),
    ({"severity_overrides": {"reshape-not-bitcast": "note", "aliasing": "warning"}},
     ["--severity-override", "reshape-not-bitcast=note",
      "--severity-override", "aliasing=warning"]),
    ({"xla_version": "jaxlib-0.10.2"}, ["--xla-version", "jaxlib-0.10.2"]),
    ({"backend": "gpu"}, ["--backend", "gpu"]),
    ({"config": False}, ["--no-config"]),
]


@pytest.mark.parametrize("options,flags", OPTION_CASES, ids=[str(c[1]) for c in OPTION_CASES])
def test_lint_paths_examples_equals_cli_json(cli, in_source, options, flags):
    expected = cli_json(cli, *flags, "examples/")
    report = hlolint.lint_paths(["examples/"], **options)
    assert report.to_dicts() == expected["diagnostics"]
    assert report.files == [f["path"] for f in expected["files"]]
    assert report.counts() == {k: expected["summary"][k + "s"]
                               for k in ("error", "warning", "note")}


def test_lint_paths_cli_inputs_equals_cli_json(cli, in_source):
    # parse errors with notes, suppressions (unused-suppression edits), a
    # non-HLO file: every kind of finding the CLI prints.
    expected = cli_json(cli, "tests/cli/inputs")
    report = hlolint.lint_paths("tests/cli/inputs")
    assert report.to_dicts() == expected["diagnostics"]
    assert report.suppressed == expected["summary"]["suppressed"]


def test_lint_paths_dump_directories_equal_cli_json_without_sequences(cli, in_source):
    # XLA's per-pass dumps: each finding carries the JSON `dump` object of
    # its file, as `hlolint --no-sequence` prints it (the dump-sequence
    # histories are the CLI's alone).
    expected = cli_json(cli, "--no-sequence", "tests/dumps")
    report = hlolint.lint_paths(["tests/dumps"])
    assert report.to_dicts() == expected["diagnostics"]
    assert len(report) == 8 and all(d.dump is not None for d in report)
    assert report[0].dump.to_dict() == expected["diagnostics"][0]["dump"]
    assert report.files == [f["path"] for f in expected["files"]]


def test_lint_text_equals_lint_of_the_file(cli, in_source):
    path = "examples/reshape-not-bitcast.hlo"
    with open(path) as f:
        text = f.read()
    from_text = hlolint.lint_text(text, path=path)
    assert from_text.to_dicts() == cli_json(cli, path)["diagnostics"]
    assert hlolint.lint_text(text.encode(), path=path).to_dicts() == from_text.to_dicts()


def test_diagnostic_fields(cli, in_source):
    [d] = hlolint.lint_paths("examples/reshape-not-bitcast.hlo")
    [expected] = cli_json(cli, "examples/reshape-not-bitcast.hlo")["diagnostics"]
    assert (d.rule, d.severity, d.file, d.line, d.column, d.end_line, d.end_column) == (
        "reshape-not-bitcast", expected["severity"], "examples/reshape-not-bitcast.hlo", 22, 4,
        22, expected["end_column"])
    assert (d.module, d.instruction) == (d.to_dict()["module"], "reshape.7")
    assert d.notes[0].location.line == 21
    assert d.source.file == "model.py" and d.source.line == 42
    assert d.op_name == "jit(attention)/reshape"
    assert d.fix == d.to_dict()["fix"]
    assert str(d).startswith(f"examples/reshape-not-bitcast.hlo:22:4: {d.severity}: reshape ")
    assert str(d).endswith(" [reshape-not-bitcast]")


BINARY = ("<text>:1:1: warning: this is a binary file (NUL or control bytes, or not UTF-8), "
          "not HLO text [unsupported-format]")


@pytest.mark.parametrize("text,expected", [
    ("", ["<text>:1:1: warning: no HLO module in this file: it is empty "
          "(XLA's parser rejects it too: expects name) [unsupported-format]"]),
    ("HloModule m", ["<text>:1:12: error: expects name (reached the end of the file) "
                     "[parse-error]"]),
    (b"\x00\x01", [BINARY]),
    (b"\xff\xfe", [BINARY]),
    # A str that is not valid Unicode lints as its bytes (surrogates passed).
    ("\ud800", [BINARY]),
])
def test_bad_input_gives_diagnostics_not_exceptions(text, expected):
    report = hlolint.lint_text(text)
    assert [str(d) for d in report] == expected
    assert report.failed == expected[0].split(": ")[1].startswith("error")


def test_truncated_module_is_a_parse_error(in_source):
    with open("examples/reshape-not-bitcast.hlo") as f:
        text = f.read()
    report = hlolint.lint_text(text[: len(text) // 2], path="half.hlo")
    assert [d.rule for d in report] == ["parse-error"]
    assert report[0].file == "half.hlo"


def test_fail_on_sets_failed(in_source):
    assert hlolint.lint_paths("examples/", select=["unused-suppression"]).failed is False
    warnings_only = hlolint.lint_paths("examples/", severity_overrides={"ALL": "warning"})
    assert len(warnings_only) == 4 and warnings_only.failed is False
    assert hlolint.lint_paths("examples/", severity_overrides={"ALL": "warning"},
                              fail_on="warning").failed is True


@pytest.mark.parametrize("call,error,message", [
    (lambda: hlolint.lint_text("", selct=["x"]), TypeError,
     "hlolint: unknown option 'selct' (did you mean 'select'?); the options are select, "
     "extend_select, ignore, severity_overrides, fail_on, xla_version, backend, assume_pass, "
     "config, jobs"),
    (lambda: hlolint.lint_text("", select=["verify-shap"]), ValueError,
     "hlolint: select: unknown rule or category 'verify-shap' (did you mean 'verify-shape'?)"),
    (lambda: hlolint.lint_text("", select=5), TypeError,
     "hlolint: option 'select' takes a list of rule ids or categories, not int"),
    (lambda: hlolint.lint_text("", severity_overrides={"layout": "fatal"}), ValueError,
     "hlolint: option 'severity_overrides': unknown severity 'fatal' (error, warning or note)"),
    (lambda: hlolint.lint_text("", severity_overrides=["layout"]), TypeError,
     "hlolint: option 'severity_overrides' takes a dict "
     "{rule or category: 'error' | 'warning' | 'note'}"),
    (lambda: hlolint.lint_text("", fail_on="fatal"), ValueError,
     "hlolint: option 'fail_on': unknown severity 'fatal' (error, warning or note)"),
    (lambda: hlolint.lint_text("", config=3), TypeError,
     "hlolint: option 'config' takes a path, None (find the nearest .hlolint.json, as the CLI "
     "does) or False (no configuration)"),
    (lambda: hlolint.lint_text(3), TypeError, "text must be str or bytes"),
    (lambda: hlolint.lint_paths(["no/such/dir"]), FileNotFoundError,
     "hlolint: no/such/dir: No such file or directory"),
    (lambda: hlolint.explain("reshape-not-bitcst"), ValueError,
     "hlolint: unknown rule 'reshape-not-bitcst' (did you mean 'reshape-not-bitcast'?)"),
])
def test_misuse_raises_with_a_clear_message(in_source, call, error, message):
    with pytest.raises(error) as raised:
        call()
    assert str(raised.value) == message


def test_config_file_option(tmp_path, in_source, cli):
    config = tmp_path / "lint.json"
    config.write_text('{"ignore": ["layout"]}')
    expected = cli_json(cli, "--config", str(config), "examples/")
    assert hlolint.lint_paths("examples/", config=config).to_dicts() == expected["diagnostics"]
    assert all(d["rule"] != "reshape-not-bitcast" for d in expected["diagnostics"])


def test_rules_and_explain_equal_the_cli(cli):
    listed = run_cli(cli, "--list-rules").stdout.splitlines()[1:]
    rules = hlolint.rules()
    assert [r.id for r in rules] == [line.split()[0] for line in listed if line.strip()]
    for rule in rules:
        assert hlolint.explain(rule.id) == run_cli(cli, "--explain", rule.id).stdout
    assert rules[0].id == "parse-error" and rules[0].default_severity == "error"


def test_version_equals_the_cli(cli):
    # The CLI adds the commit it was built from.
    version = run_cli(cli, "--version").stdout.strip()
    assert re.fullmatch(rf"hlolint {re.escape(hlolint.__version__)} \((git [0-9a-f]{{7,}}(-dirty)?|no git)\)",
                        version), version


def test_diagnostics_outlive_their_report(in_source):
    notes = hlolint.lint_paths("examples/dead-in-place-past-root.hlo")[0].notes
    gc.collect()
    assert notes[0].message.startswith("ROOT 'result' is here")


def test_concurrent_lints_from_threads_agree(in_source):
    expected = hlolint.lint_paths("examples/").to_dicts()
    results = [None] * 8

    def lint(i):
        results[i] = hlolint.lint_paths("examples/", jobs=1).to_dicts()
    threads = [threading.Thread(target=lint, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [expected] * 8


def test_fix_edits_of_unused_suppressions(in_source):
    # `// hlolint: ignore[parse-error, parse-eror]` on a line without a parse error.
    report = hlolint.lint_paths("tests/cli/inputs/suppressions.hlo")
    edits = [(d.line, d.edit.location.column, d.edit.location.end_column, d.edit.new_text)
             for d in report if d.edit is not None]
    assert edits == [(12, 52, 65, ""), (12, 65, 75, "parse-error")]
    line = open("tests/cli/inputs/suppressions.hlo").read().splitlines()[11]
    assert line[51:64] == "parse-error, " and line[64:74] == "parse-eror"


def test_linter_reuses_its_options(in_source):
    linter = hlolint.Linter(select=["layout"], fail_on="warning")
    assert linter.lint_paths("examples/").to_dicts() == hlolint.lint_paths(
        "examples/", select=["layout"]).to_dicts()
    with open("examples/reshape-not-bitcast.hlo") as f:
        report = linter.lint_text(f.read(), path="r.hlo")
    assert [d.rule for d in report] == ["reshape-not-bitcast"] and report.failed
    with pytest.raises(TypeError):
        hlolint.Linter(selekt=["layout"])

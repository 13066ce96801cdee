#!/usr/bin/env python3
"""End-to-end tests of the hlolint command line (docs/cli.md).

  cli_tests.py --hlolint PATH --source DIR [unittest arguments, e.g. a class name]

ctest runs one test class per ctest test (tests/cli/CMakeLists.txt). The
Snapshots class compares hlolint's output for every format with the files in
tests/snapshots/ exactly; run with UPDATE_SNAPSHOTS=1 to rewrite them
(`UPDATE_SNAPSHOTS=1 ctest -R Snapshots`), then review the diff.
"""
import fcntl
import json
import os
import pty
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import termios
import unittest
import xml.etree.ElementTree as ET

import harness

HLOLINT = ""
SOURCE = ""
FORMATS = ["full", "concise", "json", "json-lines", "sarif", "github", "junit"]
INPUTS = "tests/cli/inputs"


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items()
           if k not in ("NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE", "CLICOLOR", "GITHUB_WORKSPACE",
                        "TERM", "COLUMNS")}
    env.update(extra)
    return env


def run(args, cwd=None, stdin=None, env=None):
    return subprocess.run([HLOLINT] + args, cwd=cwd or SOURCE, input=stdin,
                          capture_output=True, text=True, env=env or clean_env(), timeout=120)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


MODULE_OK = "HloModule ok\nENTRY main {\n  p = f32[4]{0} parameter(0)\n  ROOT r = f32[4]{0} negate(p)\n}\n"
# What jax.jit(f).lower(x).as_text() prints by default, after a comment.
MLIR_TEXT = ("// lowered by jax\n"
             "module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {\n"
             "  func.func public @main(%arg0: tensor<3xf32>) -> (tensor<3xf32> {jax.result_info = \"result\"}) {\n"
             "    %0 = stablehlo.sine %arg0 : tensor<3xf32>\n"
             "    return %0 : tensor<3xf32>\n  }\n}\n")
MODULE_ERROR = "HloModule bad\nENTRY main {\n  p = f32[4]{0} parameter(0)\n  ROOT r = f32[4]{0} negate(p, q)\n}\n"
# Only an unused suppression (a warning) and nothing else.
MODULE_WARNING = ("HloModule warn\nENTRY main {\n  p = f32[4]{0} parameter(0)\n"
                  "  ROOT r = f32[4]{0} negate(p)  // hlolint: ignore[no-such-rule]\n}\n")


def explained(diagnostic):
    """A JSON diagnostic's headline, notes and fix, one per line."""
    return "\n".join([diagnostic["message"]] + [n["message"] for n in diagnostic["notes"]] +
                     [diagnostic.get("fix", "")])


def on_terminal(args, env, columns=None):
    """hlolint's stdout when it is a terminal (a pty, `columns` wide if given)."""
    master, slave = pty.openpty()
    if columns is not None:
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    proc = subprocess.Popen([HLOLINT] + args, cwd=SOURCE, stdout=slave,
                            stderr=subprocess.DEVNULL, env=env)
    os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    proc.wait(timeout=60)
    os.close(master)
    return b"".join(chunks).decode("utf-8").replace("\r\n", "\n")


class TempDirTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="hlolint-cli-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def file(self, relative, text):
        path = os.path.join(self.dir, relative)
        write(path, text)
        return path


class ExitStatus(TempDirTest):
    def test_clean_is_0(self):
        p = run([self.file("ok.hlo", MODULE_OK)])
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout, "")

    def test_error_is_1(self):
        p = run([self.file("bad.hlo", MODULE_ERROR)])
        self.assertEqual(p.returncode, 1)
        self.assertIn("error: instruction does not exist: q [parse-error]", p.stdout)

    def test_warning_passes_by_default_and_fails_with_fail_on_warning(self):
        path = self.file("warn.hlo", MODULE_WARNING)
        self.assertEqual(run([path]).returncode, 0)
        self.assertEqual(run(["--fail-on", "warning", path]).returncode, 1)
        self.assertEqual(run(["--fail-on", "error", path]).returncode, 0)

    def test_note_fails_only_with_fail_on_note(self):
        path = self.file("warn.hlo", MODULE_WARNING)
        args = ["--severity-override", "unused-suppression=note", path]
        p = run(args)
        self.assertEqual(p.returncode, 0)
        self.assertIn(": note: suppression names unknown rule 'no-such-rule'", p.stdout)
        self.assertEqual(run(["--fail-on", "warning"] + args).returncode, 0)
        self.assertEqual(run(["--fail-on", "note"] + args).returncode, 1)

    def test_exit_zero_forces_0_but_not_on_errors(self):
        path = self.file("bad.hlo", MODULE_ERROR)
        self.assertEqual(run(["--exit-zero", path]).returncode, 0)
        p = run(["--exit-zero", path, os.path.join(self.dir, "missing.hlo")])
        self.assertEqual(p.returncode, 2)
        self.assertIn("missing.hlo: No such file or directory", p.stderr)
        self.assertIn("[parse-error]", p.stdout)  # the other input is still linted

    def test_missing_file_is_2_with_message(self):
        p = run([os.path.join(self.dir, "missing.hlo")])
        self.assertEqual(p.returncode, 2)
        self.assertRegex(p.stderr, r"^hlolint: error: .*missing\.hlo: No such file or directory\n")

    def test_usage_errors_are_2(self):
        for args, message in [
            (["--no-such-flag", "x.hlo"], "--no-such-flag"),
            (["--format", "xml", "x.hlo"], "unknown format 'xml'"),
            (["--fail-on", "fatal", "x.hlo"], "--fail-on must be error, warning or note"),
            (["--color", "sometimes", "x.hlo"], "--color must be auto, always or never"),
            (["--select", "parse-eror", "x.hlo"],
             "--select: unknown rule or category 'parse-eror' (did you mean 'parse-error'?)"),
            (["--ignore", "nonsense-rule-name", "x.hlo"], "unknown rule or category"),
            (["--severity-override", "parse-error", "x.hlo"], "expected RULE=error|warning|note"),
            (["--config", "a.json", "--no-config", "x.hlo"], "contradict"),
            ([], "no input"),
        ]:
            with self.subTest(args=args):
                p = run(args)
                self.assertEqual(p.returncode, 2, p.stderr)
                self.assertIn(message, p.stderr)
                self.assertEqual(p.stdout, "")

    def test_usage_errors_read_plainly(self):
        jobs = "hlolint: error: --jobs expects a number of threads (0 for one per core), not '{}'\n"
        help_line = "Run 'hlolint --help' for usage.\n"
        for args, message in [
            (["--formta", "json", "x.hlo"], "hlolint: error: unknown option '--formta' (did you mean '--format'?)\n"),
            (["--jbos=3", "x.hlo"], "hlolint: error: unknown option '--jbos' (did you mean '--jobs'?)\n"),
            (["--zzzzzzzz", "x.hlo"], "hlolint: error: unknown option '--zzzzzzzz'\n"),
            (["-x", "x.hlo"], "hlolint: error: unknown option '-x'\n"),
            (["-j", "examples", "x.hlo"], jobs.format("examples")),
            (["--jobs", "-3", "x.hlo"], jobs.format("-3")),
            (["--jobs=2.5", "x.hlo"], jobs.format("2.5")),
            (["--format", "xml", "x.hlo"],
             "hlolint: error: unknown format 'xml' (expected one of full|concise|json|json-lines|sarif|github|junit)\n"),
            (["--color", "sometimes", "x.hlo"], "hlolint: error: --color must be auto, always or never, not 'sometimes'\n"),
            (["x.hlo", "--format"], "hlolint: error: --format expects a value (FORMAT)\n"),
            (["x.hlo", "--explain"], "hlolint: error: --explain expects a value (RULE|CATEGORY)\n"),
            (["--list-rules", "--format", "sarif"],
             "hlolint: error: --list-rules prints a table (--format full or concise) or JSON (--format json), "
             "not --format sarif\n"),
        ]:
            with self.subTest(args=args):
                p = run(args)
                self.assertEqual((p.returncode, p.stdout, p.stderr), (2, "", message + help_line))
        for args, message in [
            (["--fail-on", "fatal", "x.hlo"], "hlolint: error: --fail-on must be error, warning or note, not 'fatal'\n"),
            (["--xla-version", "yesterday", "x.hlo"],
             "hlolint: error: --xla-version must be latest, a date of XLA's main branch (2026-06-03) or a "
             "jaxlib release (jaxlib-0.10.2), not 'yesterday'\n"),
            (["--backend", "npu", "x.hlo"], "hlolint: error: --backend must be auto, cpu, gpu or tpu, not 'npu'\n"),
            (["--severity-override", "parse-error=loud", "x.hlo"],
             "hlolint: error: --severity-override: expected RULE=error|warning|note, got 'parse-error=loud'\n"),
        ]:
            with self.subTest(args=args):
                p = run(args)
                self.assertEqual((p.returncode, p.stdout, p.stderr), (2, "", message))
        for args in (["--list-rules", "--format", "full"], ["--list-rules", "--format", "concise"]):
            self.assertEqual(run(args).stdout, run(["--list-rules"]).stdout)
        self.assertEqual(run(["-j", "0", self.file("ok.hlo", MODULE_OK)]).returncode, 0)

    def test_status_is_never_a_count(self):
        path = self.file("many.hlo", "// -----\n".join([MODULE_ERROR] * 256))
        p = run(["--format", "json", path])
        self.assertEqual(len(json.loads(p.stdout)["diagnostics"]), 256)
        self.assertEqual(p.returncode, 1)

    def test_help_and_version_are_0(self):
        p = run(["--help"])
        self.assertEqual(p.returncode, 0)
        self.assertIn("--fail-on", p.stdout)
        p = run(["--version"])
        self.assertEqual(p.returncode, 0)
        self.assertRegex(p.stdout, r"^hlolint \d+\.\d+\.\d+ \((git [0-9a-f]{7,}(-dirty)?|no git)\)\n$")


class Selection(TempDirTest):
    def rules_reported(self, args):
        p = run(["--format", "json", "--exit-zero"] + args)
        self.assertIn(p.returncode, (0,), p.stderr)
        return sorted({d["rule"] for d in json.loads(p.stdout)["diagnostics"]})

    def setUp(self):
        super().setUp()
        self.path = self.file("mixed.hlo", MODULE_ERROR + "// -----\n" + MODULE_WARNING)

    def test_default_runs_every_rule(self):
        self.assertEqual(self.rules_reported([self.path]), ["parse-error", "unused-suppression"])

    def test_select_ids_categories_and_all(self):
        self.assertEqual(self.rules_reported(["--select", "parse-error", self.path]), ["parse-error"])
        self.assertEqual(self.rules_reported(["--select", "meta", self.path]), ["unused-suppression"])
        self.assertEqual(self.rules_reported(["--select", "ALL", self.path]),
                         ["parse-error", "unused-suppression"])
        self.assertEqual(self.rules_reported(["--select", "parse", "--select", "meta", self.path]),
                         ["parse-error", "unused-suppression"])

    def test_ignore_and_extend_select(self):
        self.assertEqual(self.rules_reported(["--ignore", "parse", self.path]), ["unused-suppression"])
        self.assertEqual(self.rules_reported(["--select", "parse-error", "--extend-select",
                                              "unused-suppression", self.path]),
                         ["parse-error", "unused-suppression"])
        self.assertEqual(self.rules_reported(["--select", "ALL", "--ignore", "ALL", self.path]), [])

    def test_severity_override(self):
        p = run(["--format", "json", "--severity-override", "parse-error=warning", self.path])
        severities = {d["rule"]: d["severity"] for d in json.loads(p.stdout)["diagnostics"]}
        self.assertEqual(severities["parse-error"], "warning")
        self.assertEqual(p.returncode, 0)


class Configuration(TempDirTest):
    def diagnostics(self, args, cwd=None):
        p = run(["--format", "json", "--exit-zero"] + args, cwd=cwd)
        self.assertEqual(p.returncode, 0, p.stderr)
        return json.loads(p.stdout)["diagnostics"]

    def test_nearest_config_wins(self):
        self.file(".hlolint.json", '{"ignore": ["parse-error"]}')
        self.file("sub/.hlolint.json", '{"select": ["parse"]}')
        top = self.file("top.hlo", MODULE_ERROR + "// -----\n" + MODULE_WARNING)
        nested = self.file("sub/deeper/nested.hlo", MODULE_ERROR + "// -----\n" + MODULE_WARNING)
        by_file = {}
        for d in self.diagnostics([top, nested]):
            by_file.setdefault(os.path.basename(d["file"]), set()).add(d["rule"])
        self.assertEqual(by_file, {"top.hlo": {"unused-suppression"}, "nested.hlo": {"parse-error"}})

    def test_no_config_and_explicit_config(self):
        self.file(".hlolint.json", '{"ignore": ["parse-error"]}')
        other = self.file("elsewhere/strict.json", '{"select": ["meta"]}')
        path = self.file("a.hlo", MODULE_ERROR + "// -----\n" + MODULE_WARNING)
        self.assertEqual({d["rule"] for d in self.diagnostics(["--no-config", path])},
                         {"parse-error", "unused-suppression"})
        self.assertEqual({d["rule"] for d in self.diagnostics(["--config", other, path])},
                         {"unused-suppression"})

    def test_cli_select_overrides_config(self):
        self.file(".hlolint.json", '{"ignore": ["parse-error"]}')
        path = self.file("a.hlo", MODULE_ERROR)
        self.assertEqual({d["rule"] for d in self.diagnostics(["--select", "parse-error", path])},
                         {"parse-error"})

    def test_fail_on_and_severity_overrides_from_config(self):
        path = self.file("a.hlo", MODULE_WARNING)
        self.assertEqual(run([path]).returncode, 0)
        self.file(".hlolint.json", '{"fail-on": "warning"}')
        self.assertEqual(run([path]).returncode, 1)
        self.assertEqual(run(["--fail-on", "error", path]).returncode, 0)  # the flag wins
        self.file(".hlolint.json", '{"fail-on": "warning", "severity-overrides": {"meta": "note"}}')
        self.assertEqual(run([path]).returncode, 0)

    def test_per_path_ignores_are_relative_to_the_config(self):
        self.file(".hlolint.json", '{"per-path-ignores": {"generated/**": ["parse"], "*.txt": ["ALL"]}}')
        generated = self.file("generated/x/a.hlo", MODULE_ERROR)
        text = self.file("b.txt", MODULE_ERROR)
        handwritten = self.file("src/generated/c.hlo", MODULE_ERROR)
        files = {os.path.relpath(d["file"], self.dir) for d in self.diagnostics([generated, text, handwritten])}
        self.assertEqual(files, {"src/generated/c.hlo"})

    def test_errors_are_located_and_exit_2(self):
        config = self.file(".hlolint.json", '{\n  "select": ["ALL"],\n  "fail_on": "warning"\n}\n')
        p = run([self.file("a.hlo", MODULE_OK)])
        self.assertEqual(p.returncode, 2)
        self.assertEqual(p.stderr, f"{config}:3:3: error: unknown key 'fail_on' (did you mean 'fail-on'?)\n")
        self.assertEqual(p.stdout, "")
        self.file(".hlolint.json", '{"select": ["ALL"], "fail-on": "loud"}')
        p = run([self.file("a.hlo", MODULE_OK)])
        self.assertEqual(p.returncode, 2)
        self.assertIn(".hlolint.json:1:32: error: expected \"error\", \"warning\" or \"note\"", p.stderr)
        self.file(".hlolint.json", '{"rules": {"reshape-not-bitcats": {}}}')
        p = run([self.file("a.hlo", MODULE_OK)])
        self.assertEqual(p.returncode, 2)
        self.assertIn("unknown rule 'reshape-not-bitcats'", p.stderr)
        p = run(["--config", os.path.join(self.dir, "nope.json"), self.file("a.hlo", MODULE_OK)])
        self.assertEqual(p.returncode, 2)
        self.assertIn("nope.json: error: cannot read the configuration file", p.stderr)

    def test_every_error_is_reported_in_file_order(self):
        config = self.file(".hlolint.json", '{\n  "selct": ["ALL"],\n  "ignore": ["layuot"],\n'
                                            '  "fail-on": "loud",\n  "rules": {"unclaimed-output-alias": '
                                            '{"writes_through_input": []}},\n}\n')
        p = run([self.file("a.hlo", MODULE_OK)])
        self.assertEqual((p.returncode, p.stdout), (2, ""))
        self.assertEqual(p.stderr,
                         f"{config}:2:3: error: unknown key 'selct' (did you mean 'select'?)\n"
                         f"{config}:3:14: error: unknown rule or category 'layuot' (did you mean 'layout'?)\n"
                         f"{config}:4:14: error: expected \"error\", \"warning\" or \"note\"\n"
                         f"{config}:5:40: error: unknown option 'writes_through_input' of rule "
                         "'unclaimed-output-alias' (did you mean 'writes_through_inputs'?)\n")

    def test_verify_options_are_checked_and_located(self):
        config = self.file(".hlolint.json", '{\n  "verify-options": {\n'
                                            '    "allow_mixed_precison": false,\n'
                                            '    "verify_broadcast_dimensions_order": "yes"\n  }\n}\n')
        p = run([self.file("a.hlo", MODULE_OK)])
        self.assertEqual((p.returncode, p.stdout), (2, ""))
        self.assertEqual(p.stderr,
                         f"{config}:3:5: error: unknown verifier option 'allow_mixed_precison' "
                         "(did you mean 'allow_mixed_precision'?)\n"
                         f"{config}:4:42: error: verifier option 'verify_broadcast_dimensions_order' "
                         "expects true or false\n")
        self.file(".hlolint.json", '{"verify-options": ["layout_sensitive"]}')
        p = run([self.file("a.hlo", MODULE_OK)])
        self.assertEqual(p.returncode, 2)
        self.assertIn(".hlolint.json:1:20: error: expected an object mapping HloVerifierOpts names "
                      "to true or false", p.stderr)

    def test_verify_options_turn_on_verifier_checks(self):
        hlo = self.file("b.hlo", "HloModule m\nENTRY e {\n  p = f32[2,3] parameter(0)\n"
                                 "  ROOT b = f32[3,2] broadcast(p), dimensions={1,0}\n}\n")
        p = run(["--select", "verify-shape", hlo])
        self.assertEqual((p.returncode, p.stdout), (0, ""))
        self.file(".hlolint.json", '{"verify-options": {"verify_broadcast_dimensions_order": true}}')
        p = run(["--select", "verify-shape", hlo])
        self.assertEqual(p.returncode, 1)
        self.assertIn(f"{hlo}:4:35: error: [InstructionVerifier::HandleBroadcast] Broadcast "
                      "dimensions should be ordered, got: {1,0} [verify-shape]", p.stdout)

    def test_trailing_commas_are_accepted(self):
        self.file(".hlolint.json", '{\n  "ignore": ["parse-error",],\n  "fail-on": "error", // c\n}\n')
        p = run([self.file("a.hlo", MODULE_ERROR)])
        self.assertEqual((p.returncode, p.stderr, p.stdout), (0, "", ""))

    def test_show_settings_resolves_the_configuration_and_the_flags(self):
        config = self.file("sub/.hlolint.json",
                           '{"select": ["parse", "meta"], "ignore": ["unsupported-format"],'
                           ' "severity-overrides": {"meta": "note"}, "fail-on": "warning",'
                           ' "xla-version": "2026-06-03", "backend": "gpu",'
                           ' "per-path-ignores": {"gen/*": ["parse-error"]},'
                           ' "rules": {"unclaimed-output-alias": {"writes_through_inputs": ["k"]}},'
                           ' "verify-options": {"allow_mixed_precision": false,'
                           ' "verify_broadcast_dimensions_order": true, "layout_sensitive": false}}')
        total = len(json.loads(run(["--list-rules", "--format", "json"]).stdout))
        path = os.path.join(self.dir, "sub", "a.hlo")
        p = run(["--show-settings", "--fail-on", "note", path])
        self.assertEqual((p.returncode, p.stderr), (0, ""))
        self.assertEqual(p.stdout,
                         f"path: {path}\nconfiguration: {config}\nfail-on: note\n"
                         "xla-version: 2026-06-03\nbackend: gpu\n"
                         f"rules: 2 of {total}\n"
                         "  parse-error         error\n"
                         "  unused-suppression  note (overridden)\n"
                         "verify options: allow_mixed_precision=false, "
                         "verify_broadcast_dimensions_order=true\n"
                         'rule options: {"unclaimed-output-alias":{"writes_through_inputs":["k"]}}\n')
        # The per-path ignore, a directory as the path, and the flags over the file.
        os.makedirs(os.path.join(self.dir, "sub", "gen"))
        p = run(["--show-settings", "--extend-select", "layout", "--backend", "auto",
                 os.path.join(self.dir, "sub", "gen")], cwd=self.dir)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("backend: auto\nrules: 2 of", p.stdout)
        self.assertIn("  unused-suppression   note (overridden)\n  reshape-not-bitcast  error\n", p.stdout)
        self.assertNotIn("parse-error", p.stdout)
        p = run(["--show-settings", "--no-config", path])
        self.assertIn("configuration: none (--no-config)\nfail-on: error\nxla-version: latest\n"
                      "backend: auto\n", p.stdout)
        self.assertTrue(p.stdout.endswith("verify options: defaults\nrule options: none\n"))
        self.file(".hlolint.json", '{"selct": []}')
        p = run(["--show-settings", os.path.join(self.dir, "b.hlo")])
        self.assertEqual((p.returncode, p.stdout), (2, ""))
        self.assertIn("unknown key 'selct' (did you mean 'select'?)", p.stderr)

    def test_rule_options_reach_the_rule(self):
        # A kernel the user declares as writing through its inputs, with a
        # same-shaped operand and no declared alias: reported only when the
        # configuration names it (unclaimed-output-alias, case (d)).
        path = self.file("k.hlo", "HloModule k\nENTRY main {\n  p = f32[8]{0} parameter(0)\n"
                                  "  ROOT c = f32[8]{0} custom-call(p), custom_call_target=\"my_kernel\"\n}\n")
        self.assertEqual(self.diagnostics([path]), [])
        self.file(".hlolint.json",
                  '{"rules": {"unclaimed-output-alias": {"writes_through_inputs": ["my_kernel"]}}}')
        found = self.diagnostics([path])
        self.assertEqual([(d["rule"], d["severity"], d["line"]) for d in found],
                         [("unclaimed-output-alias", "error", 4)])
        self.assertIn("'my_kernel' is configured as writing through its inputs", explained(found[0]))
        self.assertEqual(run([path]).returncode, 1)

    def test_config_for_stdin_comes_from_stdin_filename(self):
        self.file("dir/.hlolint.json", '{"ignore": ["parse-error"]}')
        name = os.path.join(self.dir, "dir", "piped.hlo")
        p = run(["--format", "json", "-", "--stdin-filename", name], stdin=MODULE_ERROR)
        self.assertEqual(json.loads(p.stdout)["diagnostics"], [])
        self.assertEqual(p.returncode, 0)


class Suppressions(TempDirTest):
    def test_used_and_unused(self):
        p = run(["--format", "concise", "tests/cli/inputs/suppressions.hlo"])
        self.assertEqual(p.returncode, 0)
        self.assertEqual(p.stdout, (
            "tests/cli/inputs/suppressions.hlo:12:52: warning: suppression of 'parse-error' silences nothing [unused-suppression]\n"
            "tests/cli/inputs/suppressions.hlo:12:65: warning: suppression names unknown rule 'parse-eror' [unused-suppression]\n"))

    def test_suppressed_count_in_summary(self):
        p = run(["--format", "json", "tests/cli/inputs/suppressions.hlo"])
        self.assertEqual(json.loads(p.stdout)["summary"]["suppressed"], 1)


class Baselines(TempDirTest):
    RENUMBER = re.compile(r"\b([A-Za-z_][A-Za-z0-9_\-]*)\.(\d+)\b")

    def renumbered(self, text):
        # Every name suffix changes and three lines are added on top, as when
        # XLA re-dumps a slightly different program.
        return "// regenerated\n// by a newer compiler\n\n" + self.RENUMBER.sub(
            lambda m: f"{m.group(1)}.{int(m.group(2)) + 1000}", text)

    def test_write_then_read(self):
        path = self.file("a.hlo", MODULE_ERROR + "// -----\n" + MODULE_WARNING)
        baseline = os.path.join(self.dir, "baseline.json")
        p = run(["--write-baseline", baseline, path])
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("recorded 2 findings", p.stderr)
        doc = json.load(open(baseline))
        self.assertEqual(doc["version"], 1)
        self.assertEqual(sorted(f["rule"] for f in doc["findings"]), ["parse-error", "unused-suppression"])
        p = run(["--baseline", baseline, "--fail-on", "note", path])
        self.assertEqual((p.returncode, p.stdout), (0, ""))
        # A new finding is reported; the old ones stay hidden.
        with open(path, "a") as f:
            f.write("// -----\nHloModule new_one\nENTRY main {\n  ROOT c = f32[] constant(1), bogus=2\n}\n")
        p = run(["--baseline", baseline, "--format", "json", path])
        self.assertEqual(p.returncode, 1)
        doc = json.loads(p.stdout)
        self.assertEqual([d["module"] for d in doc["diagnostics"]], ["new_one"])
        self.assertEqual(doc["summary"]["baselined"], 2)

    def test_survives_renumbered_names_and_shifted_lines(self):
        sources = [os.path.join(SOURCE, "tests/cli/inputs/parse_errors.hlo")]
        examples = os.path.join(SOURCE, "examples")
        if os.path.isdir(examples):
            sources += sorted(os.path.join(examples, n) for n in os.listdir(examples) if n.endswith(".hlo"))
        originals, changed = [], []
        for i, source in enumerate(sources):
            text = open(source, encoding="utf-8").read()
            originals.append(self.file(f"before/{i}.hlo", text))
            changed.append(self.file(f"after/{i}.hlo", self.renumbered(text)))
        baseline = os.path.join(self.dir, "baseline.json")
        self.assertEqual(run(["--write-baseline", baseline] + originals).returncode, 0)
        before = json.loads(run(["--format", "json"] + originals).stdout)["diagnostics"]
        after = json.loads(run(["--format", "json"] + changed).stdout)["diagnostics"]
        # The test means something only if the changed files still have findings,
        # on other lines and with other names.
        self.assertGreater(len(after), 0)
        self.assertEqual(len(before), len(after))
        self.assertNotEqual([d["line"] for d in before], [d["line"] for d in after])
        self.assertEqual(sorted(d["fingerprint"] for d in before), sorted(d["fingerprint"] for d in after))
        p = run(["--baseline", baseline, "--format", "json", "--fail-on", "note"] + changed)
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertEqual(json.loads(p.stdout)["diagnostics"], [])

    def test_bad_baseline_is_2(self):
        path = self.file("a.hlo", MODULE_OK)
        bad = self.file("b.json", '{"version": 1, "findings": [{"count": 1}]}')
        p = run(["--baseline", bad, path])
        self.assertEqual(p.returncode, 2)
        self.assertIn("b.json:1:29: error: each finding needs a \"fingerprint\" string", p.stderr)


class Inputs(TempDirTest):
    def test_stdin(self):
        p = run(["-", "--stdin-filename", "dumps/piped.hlo"], stdin=MODULE_ERROR)
        self.assertEqual(p.returncode, 1)
        self.assertEqual(p.stdout, "dumps/piped.hlo:4:32: error: instruction does not exist: q [parse-error]\n")
        p = run(["-"], stdin=MODULE_ERROR)
        self.assertTrue(p.stdout.startswith("<stdin>:4:32: error:"), p.stdout)

    def test_directories_are_walked_in_order_skipping_hidden_and_build(self):
        for name in ["b.hlo", "a.txt", "notes.md", "sub/c.hlo", "sub/z/d.txt", ".hidden/e.hlo",
                     ".f.hlo", "build/g.hlo", "build-release/h.hlo", "bazel-out/i.hlo",
                     "node_modules/j.hlo", "sub/build/k.hlo"]:
            self.file(os.path.join("tree", name), MODULE_OK)
        tree = os.path.join(self.dir, "tree")
        os.symlink("..", os.path.join(tree, "sub", "loop"))      # a link loop
        os.symlink("sub", os.path.join(tree, "again"))            # a second way in
        os.symlink("missing", os.path.join(tree, "dangling.hlo"))
        p = run(["--show-files", "tree"], cwd=self.dir)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout.splitlines(),
                         ["tree/a.txt", "tree/b.hlo", "tree/sub/c.hlo", "tree/sub/z/d.txt"])
        # A build folder named explicitly is linted; a file is taken whatever its name.
        p = run(["--show-files", "tree/build", "tree/notes.md", "tree/notes.md"], cwd=self.dir)
        self.assertEqual(p.stdout.splitlines(), ["tree/build/g.hlo", "tree/notes.md"])
        p = run(["--format", "json", "tree/"], cwd=self.dir)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual([f["path"] for f in json.loads(p.stdout)["files"]],
                         ["tree/a.txt", "tree/b.hlo", "tree/sub/c.hlo", "tree/sub/z/d.txt"])

    def test_scans_skip_txt_files_that_are_not_hlo(self):
        self.file("tree/a.txt", "// a dump's header comment\n\n" + MODULE_OK)
        self.file("tree/comp.txt", "%add (x: f32[], y: f32[]) -> f32[] {\n  x = f32[] parameter(0)\n}\n")
        self.file("tree/CMakeLists.txt", "cmake_minimum_required(VERSION 3.20)\n")
        self.file("tree/requirements.txt", "numpy>=1.26\n")
        self.file("tree/sub/stablehlo.txt", MLIR_TEXT)
        self.file("tree/sub/empty.txt", "")
        self.file("tree/prose.hlo", "Not HLO, but named .hlo: linted.\n")
        # Broken HLO (a stray first line) is linted: a CI gate must not pass on it.
        self.file("tree/broken.txt", "stray line\n" + MODULE_OK)
        # Named as XLA names its HLO dumps: linted without being read first.
        self.file("tree/module_0001.jit_f.before_optimizations.txt", "Not HLO either.\n")
        p = run(["--show-files", "tree"], cwd=self.dir)
        self.assertEqual((p.returncode, p.stdout.splitlines(), p.stderr.splitlines()),
                         (0, ["tree/a.txt", "tree/broken.txt", "tree/comp.txt",
                              "tree/module_0001.jit_f.before_optimizations.txt", "tree/prose.hlo"],
                          ["hlolint: skipped (not HLO): tree/CMakeLists.txt",
                           "hlolint: skipped (not HLO): tree/requirements.txt",
                           "hlolint: skipped (not HLO): tree/sub/empty.txt",
                           "hlolint: skipped (not HLO): tree/sub/stablehlo.txt"]))
        p = run(["--statistics", "--format", "concise", "--select", "unsupported-format", "tree"],
                cwd=self.dir)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("\n  4 .txt files skipped: not HLO\n", p.stdout)
        self.assertTrue(p.stdout.startswith(
            "tree/module_0001.jit_f.before_optimizations.txt:1:1: warning: this is plain text, not HLO: "
            "it does not start with `HloModule`, `ENTRY` or a computation [unsupported-format]\n"
            "tree/prose.hlo:1:1: warning: this is plain text, not HLO: it does not start with "
            "`HloModule`, `ENTRY` or a computation [unsupported-format]\nStatistics:\n"), p.stdout)
        # A file named on the command line is linted, also when a scan skips it.
        p = run(["--format", "concise", "--select", "unsupported-format", "tree/CMakeLists.txt", "tree"],
                cwd=self.dir)
        self.assertEqual(p.stdout.splitlines()[0],
                         "tree/CMakeLists.txt:1:1: warning: this is plain text, not HLO: it does not "
                         "start with `HloModule`, `ENTRY` or a computation [unsupported-format]")
        self.assertEqual(run(["--show-files", "tree/CMakeLists.txt"], cwd=self.dir).stdout,
                         "tree/CMakeLists.txt\n")

    def test_what_is_not_hlo_says_what_to_do(self):
        redump = ("dump HLO text instead: XLA_FLAGS=--xla_dump_to=DIR writes it (text is the default "
                  "format; with --xla_dump_hlo_as_proto, add --xla_dump_hlo_as_text)")
        other = "lint an HLO text dump (it starts with `HloModule`), e.g. from XLA_FLAGS=--xla_dump_to=DIR"
        # A serialized HloModuleProto as jaxlib writes one.
        proto = b"\n\x0bjit__lambda\x12\x06main.1\x1a\xc6\x02\n\x06main.1\x124\n\x03a.1\x12\tparameter"
        cases = [
            ("mlir.txt", MLIR_TEXT.encode(), 2, 1, "this is MLIR (StableHLO) text, not HLO text",
             "print HLO text: in JAX, jax.jit(f).lower(x).as_text(dialect=\"hlo\"), or "
             "jax.jit(f).lower(x).compile().as_text() for the module XLA compiled; "
             ".as_text() alone prints StableHLO"),
            ("module.pb", proto, 1, 1,
             "this is a binary HLO protobuf (HloModuleProto or HloProto), not HLO text", redump),
            ("module.json", b'{"name": "jit_f", "entryComputationName": "main.3", "computations": []}', 1, 1,
             "this is an HLO protobuf as JSON (HloModuleProto or HloProto), not HLO text", redump),
            ("module.pbtxt", b'# text proto\nhlo_module {\n  name: "jit_f"\n}\n', 2, 1,
             "this is an HloModuleProto in protobuf text format, not HLO text", redump),
            ("notes.md", b"\n  Some notes about the model.\n", 2, 3,
             "this is plain text, not HLO: it does not start with `HloModule`, `ENTRY` or a computation",
             "lint an HLO text dump (e.g. from XLA_FLAGS=--xla_dump_to=DIR, or "
             "jax.jit(f).lower(x).as_text(dialect=\"hlo\")), or leave this file out"),
            ("zeros.bin", b"\0" * 100, 1, 1,
             "this is a binary file (NUL or control bytes, or not UTF-8), not HLO text", other),
            ("latin1.txt", "caf\xe9 cr\xe8me\n".encode("latin-1"), 1, 1,
             "this is a binary file (NUL or control bytes, or not UTF-8), not HLO text", other),
            ("data.json", b'{"loss": 0.5}', 1, 1, "this is JSON, not HLO text", other),
        ]
        for name, data, line, column, message, fix in cases:
            with self.subTest(name=name):
                path = os.path.join(self.dir, name)
                with open(path, "wb") as f:
                    f.write(data)
                p = run(["--format", "json", path])
                self.assertEqual(p.returncode, 0, p.stderr)
                found = [(d["rule"], d["severity"], d["line"], d["column"], d["message"], d["fix"])
                         for d in json.loads(p.stdout)["diagnostics"]]
                self.assertEqual(found, [("unsupported-format", "warning", line, column, message, fix)])

    def test_no_hlo_file_is_an_error_unless_allowed(self):
        os.makedirs(os.path.join(self.dir, "dumps"))
        self.file("x/CMakeLists.txt", "project(x)\n")
        p = run(["dumps/", "x"], cwd=self.dir)
        self.assertEqual((p.returncode, p.stdout, p.stderr),
                         (2, "", "hlolint: error: no HLO files found in: dumps/, x "
                                 "(use --allow-empty to exit 0)\n"))
        p = run(["--show-files", "dumps/"], cwd=self.dir)
        self.assertEqual((p.returncode, p.stdout, p.stderr),
                         (2, "", "hlolint: error: no HLO files found in: dumps/ "
                                 "(use --allow-empty to exit 0)\n"))
        p = run(["--allow-empty", "--format", "concise", "dumps/", "x"], cwd=self.dir)
        self.assertEqual((p.returncode, p.stdout, p.stderr), (0, "", ""))
        p = run(["--allow-empty", "--format", "json", "dumps/"], cwd=self.dir)
        self.assertEqual((p.returncode, json.loads(p.stdout)["files"]), (0, []))
        # A missing path is its own error, not also "no HLO files".
        p = run(["missing/"], cwd=self.dir)
        self.assertEqual((p.returncode, p.stderr),
                         (2, "hlolint: error: missing/: No such file or directory\n"))

    def test_empty_files_and_files_of_size_0_with_content(self):
        # Empty: XLA's parser rejects it (expects name); a warning says so.
        path = self.file("empty.hlo", "")
        p = run(["--format", "concise", path])
        self.assertEqual((p.returncode, p.stdout),
                         (0, f"{path}:1:1: warning: no HLO module in this file: it is empty "
                             "(XLA's parser rejects it too: expects name) [unsupported-format]\n"))
        # /proc files report size 0 but have content: it is read to the end.
        p = run(["--format", "json", "/proc/self/status"])
        report = json.loads(p.stdout)
        self.assertGreater(report["files"][0]["bytes"], 100)
        self.assertEqual([(d["line"], d["column"], d["message"]) for d in report["diagnostics"]],
                         [(1, 1, "this is plain text, not HLO: it does not start with `HloModule`, "
                                 "`ENTRY` or a computation")])
        # So is HLO behind a size-0 file: a FIFO.
        fifo = os.path.join(self.dir, "pipe.hlo")
        os.mkfifo(fifo)
        writer = subprocess.Popen(["/bin/sh", "-c", 'printf "%s" "$0" > "$1"', MODULE_ERROR, fifo])
        p = run(["--format", "concise", fifo])
        writer.wait(timeout=60)
        self.assertEqual((p.returncode, p.stdout),
                         (1, f"{fifo}:4:32: error: instruction does not exist: q [parse-error]\n"))

    def test_dump_file_names_reach_the_rules(self):
        # Rules read the pass from XLA's dump file name (RuleContext::dump());
        # reshape-not-bitcast mentions it in a note.
        example = os.path.join(SOURCE, "examples", "reshape-not-bitcast.hlo")
        if not os.path.exists(example):
            self.skipTest("examples/reshape-not-bitcast.hlo is not there")
        name = "module_0042.jit_f.0007.gpu.after_cublas-gemm-rewriter.before_layout_normalization.txt"
        path = self.file(name, open(example, encoding="utf-8").read())
        p = run(["--format", "full", "--select", "reshape-not-bitcast", path])
        self.assertIn("this dump was taken after pass 'cublas-gemm-rewriter' (pipeline 'gpu', step 7), "
                      "right before pass 'layout_normalization'", p.stdout)
        p = run(["--format", "full", "--select", "reshape-not-bitcast", example])
        self.assertNotIn("this dump was taken", p.stdout.lower())

    def test_unsupported_format(self):
        p = run(["--format", "concise", "tests/cli/inputs/proto.hlo"])
        self.assertEqual(p.returncode, 0)
        self.assertIn("tests/cli/inputs/proto.hlo:2:1: warning: this is an HloModuleProto", p.stdout)


class Parallelism(unittest.TestCase):
    def test_jobs_do_not_change_the_output(self):
        paths = ["tests/cli/inputs", "tests/golden"] + (["examples"] if os.path.isdir(os.path.join(SOURCE, "examples")) else [])
        for fmt in ["json", "concise", "sarif"]:
            with self.subTest(format=fmt):
                one = run(["--format", fmt, "--jobs", "1"] + paths)
                four = run(["--format", fmt, "--jobs", "4"] + paths)
                self.assertEqual(one.returncode, four.returncode)
                self.assertEqual(one.stdout, four.stdout)
                self.assertGreater(len(one.stdout), 0)



class ParallelRules(TempDirTest):
    def test_a_large_module_alone_gives_the_same_output_with_idle_cores(self):
        # One file and --jobs 2: the idle core runs half of the module's
        # rules (the module is above the 8 MB threshold).
        lines = ["HloModule large", "ENTRY e {", "  a = f32[4]{0} parameter(0)"]
        size = 0
        k = 0
        reported = 0
        while size < 9 << 20:
            line = "  v%d = f32[4]{0} negate(a)" % k
            if k % 50000 == 7:
                line = "  bad.%d = f32[5]{0} negate(a)" % k  # verify-shape
                reported += 1
            if k % 50000 == 8:
                line += "  // hlolint: ignore[verify-shape] on purpose"
                line = line.replace("v%d = f32[4]" % k, "bad.%d = f32[5]" % k)
            lines.append(line)
            size += len(line) + 1
            k += 1
        lines += ["  ROOT r = f32[4]{0} negate(a)", "}", ""]
        path = self.file("large.hlo", "\n".join(lines))
        one = run(["--format", "json", "--jobs", "1", path])
        two = run(["--format", "json", "--jobs", "2", path])
        self.assertEqual(one.returncode, 1)
        self.assertEqual(one.returncode, two.returncode)
        self.assertEqual(one.stdout, two.stdout)
        rules = [d["rule"] for d in json.loads(one.stdout)["diagnostics"]]
        self.assertEqual(rules, ["verify-shape"] * reported)  # the others suppressed
        self.assertGreater(reported, 2)


class OutputOptions(TempDirTest):
    def test_output_file_is_written_atomically(self):
        out = os.path.join(self.dir, "report.json")
        write(out, "old contents")
        p = run(["--format", "json", "-o", out, "tests/cli/inputs/parse_errors.hlo"])
        self.assertEqual(p.returncode, 1)
        self.assertEqual(p.stdout, "")
        self.assertEqual(len(json.load(open(out))["diagnostics"]), 2)
        self.assertEqual(os.listdir(self.dir), ["report.json"])  # no temporary file left
        p = run(["-o", os.path.join(self.dir, "no/such/dir/r.txt"), "tests/cli/inputs/clean.hlo"])
        self.assertEqual(p.returncode, 2)
        self.assertIn("cannot create a temporary file", p.stderr)

    def test_default_format_is_concise_when_not_a_terminal(self):
        default = run(["tests/cli/inputs/parse_errors.hlo"])
        concise = run(["--format", "concise", "tests/cli/inputs/parse_errors.hlo"])
        self.assertEqual(default.stdout, concise.stdout)

    def test_default_format_is_full_with_colour_on_a_terminal(self):
        text = on_terminal(["tests/cli/inputs/parse_errors.hlo"], clean_env())
        self.assertIn("\x1b[", text)
        self.assertIn(" 5 |   ROOT r = f32[4]{0} negate(p, q)\n", re.sub(r"\x1b\[[0-9;]*m", "", text))
        text = on_terminal(["tests/cli/inputs/parse_errors.hlo"], clean_env(NO_COLOR="1"))
        self.assertNotIn("\x1b[", text)
        self.assertIn("Found 2 errors in 1 file", text)

    def test_no_colour_on_a_dumb_terminal(self):
        text = on_terminal(["tests/cli/inputs/parse_errors.hlo"], clean_env(TERM="dumb"))
        self.assertNotIn("\x1b[", text)
        self.assertIn(" 5 |   ROOT r = f32[4]{0} negate(p, q)\n", text)
        # An explicit request still colours.
        text = on_terminal(["--color", "always", "tests/cli/inputs/parse_errors.hlo"],
                           clean_env(TERM="dumb"))
        self.assertIn("\x1b[", text)

    def test_concise_is_coloured_on_a_terminal_and_plain_when_piped(self):
        args = ["--format", "concise", "tests/cli/inputs/parse_errors.hlo"]
        text = on_terminal(args, clean_env(TERM="xterm"))
        self.assertIn("\x1b[1mtests/cli/inputs/parse_errors.hlo:5:32:\x1b[0m \x1b[1;31merror:\x1b[0m "
                      "instruction does not exist: q [\x1b[1mparse-error\x1b[0m]\n", text)
        piped = run(args, env=clean_env(TERM="xterm")).stdout
        self.assertEqual(piped, re.sub(r"\x1b\[[0-9;]*m", "", text))
        self.assertNotIn("\x1b[", piped)

    def test_full_fits_long_lines_to_the_width(self):
        # An operand that does not exist, 2,000 characters into a line 4,000 long.
        filler = ", ".join([f"p{i}" for i in range(350)] + ["nope"] +
                           [f"p{i}" for i in range(350, 700)])
        params = "\n".join(f"  p{i} = f32[] parameter({i})" for i in range(700))
        text = (f"HloModule wide\nENTRY main {{\n{params}\n"
                f"  ROOT t = ({', '.join(['f32[]'] * 701)}) tuple({filler})\n}}\n")
        path = os.path.join(self.dir, "wide.hlo")
        write(path, text)
        line_number = 703
        column = text.splitlines()[line_number - 1].index("nope") + 1
        for columns, env, terminal in ((60, clean_env(COLUMNS="60"), False),
                                       (100, clean_env(), False),
                                       (72, clean_env(COLUMNS="200"), True)):
            args = ["--format", "full", "-q", "--color", "never", path]
            out = (on_terminal(args, env, columns=columns) if terminal
                   else run(args, env=env).stdout)
            lines = out.splitlines()
            self.assertEqual(lines[0], f"{path}:{line_number}:{column}: error: instruction does "
                                       "not exist: nope [parse-error]")
            source, caret = lines[1], lines[2]
            self.assertTrue(source.startswith(f" {line_number} | \u2026"), source)
            self.assertTrue(source.endswith("\u2026"), source)
            self.assertLessEqual(len(source), columns)
            # The caret is under "nope", a third of the room after the cut.
            at = caret.index("^")
            self.assertEqual(source[at:at + 4], "nope")
            self.assertEqual(caret[at:], "^")

    def test_colour_flags_and_environment(self):
        args = ["--format", "full", "tests/cli/inputs/parse_errors.hlo"]
        self.assertNotIn("\x1b[", run(args).stdout)
        self.assertIn("\x1b[", run(args + ["--color", "always"]).stdout)
        self.assertIn("\x1b[", run(args, env=clean_env(FORCE_COLOR="1")).stdout)
        self.assertIn("\x1b[", run(args, env=clean_env(CLICOLOR_FORCE="1")).stdout)
        self.assertNotIn("\x1b[", run(args, env=clean_env(FORCE_COLOR="0")).stdout)
        self.assertNotIn("\x1b[", run(args + ["--color", "never"], env=clean_env(FORCE_COLOR="1")).stdout)
        self.assertIn("\x1b[", run(args + ["--color", "always"], env=clean_env(NO_COLOR="1")).stdout)

    def test_statistics(self):
        p = run(["--statistics", "--format", "json", "tests/cli/inputs"])
        json.loads(p.stdout)  # stdout stays one JSON document
        self.assertIn("Statistics:", p.stderr)
        self.assertRegex(p.stderr, r"\n\s+2  parse-error\n")
        self.assertRegex(p.stderr, r"files: 4 \(0 unreadable\), modules: \d+, computations: \d+, instructions: \d+, bytes: \d+")
        self.assertRegex(p.stderr, r"wall time: \d+\.\d+ s with \d+ jobs?")
        p = run(["--statistics", "--format", "concise", "tests/cli/inputs"])
        self.assertIn("Statistics:", p.stdout)

    def test_quiet_and_silent(self):
        args = ["--format", "full", "tests/cli/inputs/parse_errors.hlo"]
        self.assertIn("Found 2 errors", run(args).stdout)
        quiet = run(args + ["-q"])
        self.assertNotIn("Found", quiet.stdout)
        self.assertIn("[parse-error]", quiet.stdout)
        silent = run(args + ["--silent"])
        self.assertEqual((silent.returncode, silent.stdout), (1, ""))

    def test_github_warns_when_annotations_are_dropped(self):
        path = self.file("many.hlo", "// -----\n".join([MODULE_ERROR] * 11))
        p = run(["--format", "github", path])
        lines = p.stdout.splitlines()
        self.assertEqual(sum(l.startswith("::error ") for l in lines), 11)
        self.assertEqual(lines[-2], "hlolint: 11 errors in 1 file")
        self.assertTrue(lines[-1].startswith("hlolint: 11 error annotations, but GitHub shows only 10"))

    def test_junit_has_a_test_case_per_file_or_failure(self):
        p = run(["--format", "junit", "tests/cli/inputs"])
        root = ET.fromstring(p.stdout)
        cases = root.findall("./testsuite/testcase")
        self.assertEqual([c.get("name") for c in cases],
                         ["tests/cli/inputs/clean.hlo",
                          "tests/cli/inputs/parse_errors.hlo:5:32 [parse-error]",
                          "tests/cli/inputs/parse_errors.hlo:17:3 [parse-error]",
                          "tests/cli/inputs/proto.hlo", "tests/cli/inputs/suppressions.hlo"])
        self.assertEqual([len(c.findall("failure")) for c in cases], [0, 1, 1, 0, 0])
        self.assertEqual(root.get("failures"), "2")


class Rules(unittest.TestCase):
    def registered(self):
        p = run(["--list-rules", "--format", "json"])
        self.assertEqual(p.returncode, 0)
        return json.loads(p.stdout)

    def test_list_rules_lists_every_rule(self):
        rules = self.registered()
        self.assertGreaterEqual(len(rules), 3)
        table = run(["--list-rules"]).stdout.splitlines()
        self.assertEqual(table[0].split(), ["RULE", "CATEGORY", "SEVERITY", "SUMMARY"])
        self.assertEqual(len(table), len(rules) + 1)
        for rule, line in zip(rules, table[1:]):
            self.assertEqual(line.split()[:3], [rule["id"], rule["category"], rule["severity"]])
            self.assertTrue(line.endswith(rule["summary"]))

    def test_explain_prints_every_rule_page(self):
        for rule in self.registered():
            with self.subTest(rule=rule["id"]):
                p = run(["--explain", rule["id"]])
                self.assertEqual(p.returncode, 0, p.stderr)
                with open(os.path.join(SOURCE, "docs/rules", rule["id"] + ".md"), encoding="utf-8") as f:
                    self.assertEqual(p.stdout, f.read())

    def test_explain_unknown_rule(self):
        p = run(["--explain", "unused-supression"])
        self.assertEqual((p.returncode, p.stdout), (2, ""))
        self.assertEqual(p.stderr, "hlolint: error: unknown rule or category 'unused-supression' (did you "
                                   "mean 'unused-suppression'?)\nRun 'hlolint --list-rules' for the list of rules.\n")
        p = run(["--explain", "verfy"])
        self.assertIn("unknown rule or category 'verfy' (did you mean 'verify'?)", p.stderr)

    def test_explain_a_category_lists_its_rules(self):
        p = run(["--explain", "aliasing"])
        self.assertEqual((p.returncode, p.stderr), (0, ""))
        rules = [r for r in self.registered() if r["category"] == "aliasing"]
        width = max(len(r["id"]) for r in rules)
        self.assertEqual(p.stdout,
                         "aliasing: Output-to-operand aliasing that is invalid or that XLA cannot use.\n\n"
                         f"{len(rules)} rules:\n"
                         + "".join(f"  {r['id']:<{width}}  {r['summary']}\n" for r in rules)
                         + "\nRun 'hlolint --explain RULE' for a rule's documentation.\n")
        categories = {r["category"] for r in self.registered()}
        for category in categories:
            with self.subTest(category=category):
                p = run(["--explain", category])
                self.assertEqual(p.returncode, 0, p.stderr)
                self.assertEqual(p.stdout.count("\n  "), sum(r["category"] == category for r in self.registered()))

    def test_every_rule_is_selectable(self):
        for rule in self.registered():
            with self.subTest(rule=rule["id"]):
                p = run(["--select", rule["id"], "tests/cli/inputs/clean.hlo"])
                self.assertEqual(p.returncode, 0, p.stderr)


class Schemas(unittest.TestCase):
    def setUp(self):
        import jsonschema  # Debian's python3-jsonschema
        self.jsonschema = jsonschema
        self.paths = ["tests/cli/inputs", "tests/golden"]
        if os.path.isdir(os.path.join(SOURCE, "examples")):
            self.paths.append("examples")

    def load(self, relative):
        with open(os.path.join(SOURCE, relative), encoding="utf-8") as f:
            return json.load(f)

    def test_sarif_validates_against_the_official_schema(self):
        schema = self.load("tests/schemas/sarif-schema-2.1.0.json")
        p = run(["--format", "sarif"] + self.paths)
        log = json.loads(p.stdout)
        self.jsonschema.validate(log, schema, cls=self.jsonschema.Draft7Validator)
        run_ = log["runs"][0]
        self.assertGreater(len(run_["results"]), 0)
        registered = json.loads(run(["--list-rules", "--format", "json"]).stdout)
        self.assertEqual([r["id"] for r in run_["tool"]["driver"]["rules"]], [r["id"] for r in registered])
        for rule in run_["tool"]["driver"]["rules"]:
            for field in ("shortDescription", "fullDescription", "help"):
                self.assertTrue(rule[field]["text"], (rule["id"], field))
            self.assertLessEqual(len(rule["fullDescription"]["text"]), 1024)
        for result in run_["results"]:
            self.assertEqual(run_["tool"]["driver"]["rules"][result["ruleIndex"]]["id"], result["ruleId"])
            region = result["locations"][0]["physicalLocation"]["region"]
            self.assertTrue({"startLine", "startColumn", "endLine", "endColumn"} <= set(region))
            self.assertFalse(result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].startswith("/"))
            self.assertIn("primaryLocationLineHash", result["partialFingerprints"])

    @staticmethod
    def jsonc(text):
        """JSON with comments and trailing commas, as .hlolint.json allows."""
        out, i, in_string = [], 0, False
        while i < len(text):
            c = text[i]
            if in_string:
                out.append(c)
                if c == "\\":
                    out.append(text[i + 1])
                    i += 1
                elif c == '"':
                    in_string = False
            elif c == '"':
                in_string = True
                out.append(c)
            elif text.startswith("//", i):
                i = text.find("\n", i) - 1 if "\n" in text[i:] else len(text)
            elif text.startswith("/*", i):
                i = text.index("*/", i) + 1
            else:
                out.append(c)
            i += 1
        return json.loads(re.sub(r",(\s*[}\]])", r"\1", "".join(out)))

    def config_examples(self):
        """Every .hlolint.json the docs and tests show."""
        examples = []
        for page in ("docs/configuration.md", "docs/cli.md", "README.md"):
            with open(os.path.join(SOURCE, page), encoding="utf-8") as f:
                examples += [b for b in re.findall(r"```jsonc?\n(.*?)```", f.read(), re.S)
                             if '"select"' in b or '"rules"' in b or '"fail-on"' in b]
        for root, _, files in os.walk(os.path.join(SOURCE, "tests")):
            if ".hlolint.json" in files:
                with open(os.path.join(root, ".hlolint.json"), encoding="utf-8") as f:
                    examples.append(f.read())
        return examples

    def check_config(self, validator, text, valid):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "config.json")
            write(path, text)
            p = run(["--config", path, "tests/cli/inputs/clean.hlo"])
        self.assertEqual(p.returncode, 0 if valid else 2, (text, p.stderr))
        errors = list(validator.iter_errors(self.jsonc(text)))
        self.assertEqual(errors == [], valid, (text, [e.message for e in errors]))

    def test_configuration_schema_agrees_with_hlolint(self):
        schema = self.load("docs/hlolint-config.schema.json")
        self.jsonschema.Draft7Validator.check_schema(schema)
        validator = self.jsonschema.Draft7Validator(schema)
        examples = self.config_examples()
        self.assertGreaterEqual(len(examples), 2)
        for text in examples + [
            '{"$schema": "./docs/hlolint-config.schema.json", "select": ["ALL",],}',
            '{"severity-overrides": {"verify": "note", "parse-error": "warning"}}',
            '{"per-path-ignores": {"gen/**": ["ALL"]}, "xla-version": "latest", "backend": "tpu"}',
            '{"verify-options": {"allow_mixed_precision": false, "layout_sensitive": true}}',
        ]:
            with self.subTest(text=text):
                self.check_config(validator, text, True)
        for text in [
            '{"selct": ["ALL"]}', '{"select": "ALL"}', '{"select": ["verfy"]}', '{"fail-on": "fatal"}',
            '{"ignore": [3]}', '{"severity-overrides": {"parse-error": "loud"}}',
            '{"severity-overrides": {"nope": "note"}}', '{"per-path-ignores": {"a": ["nope"]}}',
            '{"per-path-ignores": {"": ["ALL"]}}', '{"backend": "npu"}', '{"xla-version": "yesterday"}',
            '{"rules": {"no-such-rule": {}}}', '{"rules": {"parse-error": {"x": 1}}}',
            '{"rules": {"unclaimed-output-alias": {"writes_through_inputs": "k"}}}',
            '{"rules": {"unclaimed-output-alias": []}}', '[]', '{"$schema": 1}',
            '{"verify-options": {"allow_mixed_precison": false}}',
            '{"verify-options": {"layout_sensitive": "yes"}}', '{"verify-options": []}',
        ]:
            with self.subTest(text=text):
                self.check_config(validator, text, False)

    def test_configuration_schema_lists_every_rule_and_category(self):
        schema = self.load("docs/hlolint-config.schema.json")
        registered = json.loads(run(["--list-rules", "--format", "json"]).stdout)
        ids = [r["id"] for r in registered]
        categories = list(dict.fromkeys(r["category"] for r in registered))
        self.assertEqual(list(schema["properties"]["rules"]["properties"]), ids)
        specifier = schema["definitions"]["specifier"]
        self.assertEqual(sorted(specifier["enum"]), sorted(["ALL"] + categories + ids))
        self.assertEqual(len(specifier["enumDescriptions"]), len(specifier["enum"]))
        # Every option the schema lists is one hlolint accepts with a value of
        # its type (a list of strings, or a byte count), and rejects with
        # another, as the schema does.
        values = {"array": (["x"], 1), "integer": (1048576, -1)}
        for rule, entry in schema["properties"]["rules"]["properties"].items():
            self.assertIs(entry["additionalProperties"], False)
            for option, declared in entry["properties"].items():
                good, bad = values[declared["type"]]
                with self.subTest(rule=rule, option=option):
                    validator = self.jsonschema.Draft7Validator(schema)
                    self.check_config(validator, json.dumps({"rules": {rule: {option: good}}}), True)
                    self.check_config(validator, json.dumps({"rules": {rule: {option: bad}}}), False)

    def test_json_validates_against_our_schema(self):
        schema = self.load("docs/hlolint-output.schema.json")
        self.jsonschema.Draft7Validator.check_schema(schema)
        p = run(["--format", "json"] + self.paths)
        doc = json.loads(p.stdout)
        self.jsonschema.validate(doc, schema, cls=self.jsonschema.Draft7Validator)
        self.assertGreater(len(doc["diagnostics"]), 0)
        # json-lines: every line is one diagnostic of the same schema.
        diagnostic = dict(schema["definitions"]["diagnostic"], definitions=schema["definitions"])
        lines = run(["--format", "json-lines"] + self.paths).stdout.splitlines()
        self.assertEqual(len(lines), len(doc["diagnostics"]))
        for line, expected in zip(lines, doc["diagnostics"]):
            item = json.loads(line)
            self.jsonschema.validate(item, diagnostic, cls=self.jsonschema.Draft7Validator)
            self.assertEqual(item, expected)

    def test_json_with_an_unreadable_file_still_validates(self):
        schema = self.load("docs/hlolint-output.schema.json")
        args = ["tests/cli/inputs/clean.hlo", "/nonexistent/x.hlo", "/proc/self/mem"]
        p = run(["--format", "json"] + args)
        self.assertEqual(p.returncode, 2)
        self.jsonschema.validate(json.loads(p.stdout), schema, cls=self.jsonschema.Draft7Validator)
        # json-lines: the unreadable inputs are file_error lines.
        file_error = dict(schema["definitions"]["file_error"], definitions=schema["definitions"])
        lines = [json.loads(line) for line in run(["--format", "json-lines"] + args).stdout.splitlines()]
        errors = [line for line in lines if "rule" not in line]
        self.assertEqual(errors, [
            {"file": "/proc/self/mem", "error": "cannot read '/proc/self/mem': Input/output error"},
            {"file": "/nonexistent/x.hlo", "error": "No such file or directory"}])
        for line in errors:
            self.jsonschema.validate(line, file_error, cls=self.jsonschema.Draft7Validator)


class Docs(TempDirTest):
    """The snippets in docs/ work with the real output."""

    def test_cli_md_options_table_matches_help(self):
        """Every option --help lists has a row in docs/cli.md's options table,
        and every row names an option --help lists."""
        help_text = run(["--help"]).stdout
        in_help = set()
        for spec in re.findall(r"^  (-\S+)", help_text, re.M):
            in_help.update(re.findall(r"--[a-z][a-z-]*", spec))
        self.assertIn("--every-dump", in_help)
        with open(os.path.join(SOURCE, "docs/cli.md"), encoding="utf-8") as f:
            rows = [line.split("|")[1] for line in f if line.startswith("| `")]
        in_table = set()
        for cell in rows:
            in_table.update(re.findall(r"`(--[a-z][a-z-]*)", cell))
        self.assertEqual(sorted(in_help - in_table), [], "in --help, not in docs/cli.md's table")
        self.assertEqual(sorted(in_table - in_help), [], "in docs/cli.md's table, not in --help")

    def editors_md_section(self, start, end):
        with open(os.path.join(SOURCE, "docs/editors.md"), encoding="utf-8") as f:
            text = f.read()
        return text[text.index(start):text.index(end)]

    def test_editors_md_lsp_options_match_help(self):
        """The options table of editors.md's "Any other LSP client" names
        exactly the options `hlolint lsp --help` lists."""
        in_help = set(re.findall(r"^  (?:-\S+,)?(--[a-z][a-z-]*)", run(["lsp", "--help"]).stdout, re.M))
        in_help.discard("--help")
        self.assertIn("--debounce-ms", in_help)
        section = self.editors_md_section("## Any other LSP client", "### Settings")
        rows = [line.split("|")[1] for line in section.splitlines() if line.startswith("| `")]
        in_table = set()
        for cell in rows:
            in_table.update(re.findall(r"`(--[a-z][a-z-]*)", cell))
        self.assertEqual(sorted(in_help ^ in_table), [], "options of `hlolint lsp --help` vs. editors.md")

    def test_editors_md_settings_are_the_servers(self):
        """editors.md's settings table has the keys lib/lsp/settings.cc reads,
        and the server takes each as a setting (a wrong value is reported as
        that setting's) or leaves it to the client; another key is unknown."""
        section = self.editors_md_section("### Settings", "## Without the language server")
        keys = []
        for line in section.splitlines():
            if line.startswith("| `"):
                keys += re.findall(r"`([A-Za-z]+)`", line.split("|")[1])
        client_side = {"path", "args", "trace"}
        with open(os.path.join(SOURCE, "lib/lsp/settings.cc"), encoding="utf-8") as f:
            source = f.read()
        # The server's setters, and the keys it leaves to the client.
        in_source = set(re.findall(r'\{"(\w+)", &SettingsReader::', source) +
                        re.findall(r'key == "(\w+)"', source))
        self.assertEqual(sorted(set(keys) ^ in_source), [], "editors.md's settings vs. lib/lsp/settings.cc")
        options = {key: [1] for key in keys + ["notASetting"]}
        messages = [json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                "params": {"capabilities": {}, "initializationOptions": options}}),
                    json.dumps({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}),
                    json.dumps({"jsonrpc": "2.0", "method": "exit"})]
        framed = "".join(f"Content-Length: {len(m)}\r\n\r\n{m}" for m in messages)
        p = run(["lsp"], stdin=framed)
        self.assertEqual(p.returncode, 0, p.stderr)
        shown = sorted(re.findall(r"hlolint lsp: (.*)", p.stderr))
        wanted = sorted([f"setting '{key}': " for key in keys if key not in client_side] +
                        ["unknown setting 'notASetting'"])
        self.assertEqual([line.split("expected")[0] for line in shown], wanted)

    def test_dump_directories_walk_through_is_real_output(self):
        """Each `$ command` in docs/dump-directories.md's console blocks,
        run from the source directory, prints exactly what the page shows."""
        with open(os.path.join(SOURCE, "docs/dump-directories.md"), encoding="utf-8") as f:
            blocks = re.findall(r"```console\n(.*?)```", f.read(), re.S)
        self.assertGreaterEqual(len(blocks), 6)
        bin_dir = os.path.join(self.dir, "bin")
        os.makedirs(bin_dir)
        os.symlink(os.path.abspath(HLOLINT), os.path.join(bin_dir, "hlolint"))
        env = clean_env(LC_ALL="C", PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""))
        for block in blocks:
            command, _, expected = block.partition("\n")
            self.assertTrue(command.startswith("$ "), command)
            if "jq " in command and shutil.which("jq") is None:
                print(f"skipped (no jq): {command}", file=sys.stderr)
                continue
            with self.subTest(command=command):
                p = subprocess.run(["bash", "-c", "set -o pipefail; " + command[2:]], cwd=SOURCE,
                                   capture_output=True, text=True, env=env, timeout=120)
                self.assertEqual(p.stderr, "")
                self.maxDiff = None
                self.assertEqual(p.stdout, expected)

    def json_blocks(self, relative):
        with open(os.path.join(SOURCE, relative), encoding="utf-8") as f:
            return re.findall(r"```json\n(.*?)```", f.read(), re.S)

    def concise_and_json(self):
        paths = [INPUTS] + (["examples"] if os.path.isdir(os.path.join(SOURCE, "examples")) else [])
        concise = run(["--format", "concise"] + paths).stdout.splitlines()
        diagnostics = json.loads(run(["--format", "json"] + paths).stdout)["diagnostics"]
        # One line per finding (its notes are in the full and machine formats).
        expected = [(d["file"], d["line"], d["column"], d["severity"], d["rule"]) for d in diagnostics]
        return concise, expected

    def check_matcher(self, pattern, lines, expected, severities):
        regexp = re.compile(pattern["regexp"])
        matched = []
        for line in lines:
            m = regexp.match(line)
            if m is None:
                continue
            g = lambda key: m.group(pattern[key]) if key in pattern else None
            matched.append((g("file"), int(g("line")), int(g("column")), g("severity"), g("code")))
        self.assertEqual(matched, [e for e in expected if e[3] in severities])

    def test_vscode_problem_matcher_matches_concise_output(self):
        # The tasks.json block: the page has other JSON before it.
        tasks = next(json.loads(block)["tasks"] for block in self.json_blocks("docs/editors.md")
                     if '"problemMatcher"' in block)
        lines, expected = self.concise_and_json()
        self.assertGreater(len(expected), 0)
        for task in tasks:
            self.assertIn("concise", task["args"])
            self.check_matcher(task["problemMatcher"]["pattern"], lines, expected,
                               {"error", "warning", "note"})

    def test_github_problem_matcher_matches_concise_output(self):
        matcher = json.loads(self.json_blocks("docs/ci.md")[0])
        pattern = matcher["problemMatcher"][0]["pattern"][0]
        lines, expected = self.concise_and_json()
        self.check_matcher(pattern, lines, expected, {"error", "warning"})

    def test_configuration_example_is_valid(self):
        example = self.json_blocks("docs/configuration.md")[0]
        config = self.file("example.json", example)
        p = run(["--config", config, "tests/cli/inputs/clean.hlo"])
        self.assertEqual((p.returncode, p.stderr), (0, ""))

    def test_pre_commit_hook_runs_hlolint(self):
        with open(os.path.join(SOURCE, ".pre-commit-hooks.yaml"), encoding="utf-8") as f:
            text = f.read()
        self.assertIn("- id: hlolint", text)
        self.assertIn("entry: hlolint", text)
        args = re.search(r"args: \[(.*)\]", text).group(1).split(", ")
        p = run(args + ["tests/cli/inputs/parse_errors.hlo"])
        self.assertEqual(p.returncode, 1)
        self.assertIn("[parse-error]", p.stdout)


DUMPS = "tests/dumps"
# Dump-directory snapshots run the rules the test dumps are about, so that
# rules added later do not change them.
DUMP_RULES = ["--select", "reshape-not-bitcast,parse,meta"]


class DumpDirectories(TempDirTest):
    """Dump sequences (docs/dump-directories.md); exact outputs are in the
    dumps.* snapshots."""

    def diagnostics(self, args):
        p = run(["--format", "json"] + DUMP_RULES + args)
        self.assertIn(p.returncode, (0, 1), p.stderr)
        return json.loads(p.stdout)

    def test_each_finding_once_with_the_pass_that_introduced_and_fixed_it(self):
        doc = self.diagnostics([DUMPS + "/gemm"])
        by_module = {}
        for d in doc["diagnostics"]:
            by_module.setdefault(d["module"], []).append(d)
        proj = by_module["jit_proj"]
        self.assertEqual(len(proj), 1)
        self.assertEqual(proj[0]["first_seen"]["after_pass"], "cublas-gemm-rewriter")
        self.assertEqual(proj[0]["first_seen"]["step"], 2)
        self.assertEqual(proj[0]["file"], proj[0]["first_seen"]["file"])
        self.assertEqual(proj[0]["fixed_after"]["after_pass"], "reshape-decomposer")
        self.assertEqual(proj[0]["fixed_after"]["pipeline"], "hlo normalization")
        self.assertEqual(proj[0]["dump"], {
            "module_id": "0003", "module_name": "jit_proj", "kind": "between_passes", "step": 2,
            "pipeline": "hlo normalization", "after_pass": "cublas-gemm-rewriter",
            "before_pass": "gemm-broadcast-folding-rewriter", "next_pass": "reshape-decomposer"})
        # Right before layout_normalization: an error naming both passes, never fixed.
        seed = by_module["jit_seed"]
        self.assertEqual([d["severity"] for d in seed], ["error"])
        self.assertIn("after pass 'cublas-gemm-rewriter' (pipeline 'post-layout_assignment', step 1), "
                      "right before pass 'layout_normalization'", explained(seed[0]))
        self.assertNotIn("fixed_after", seed[0])
        # A warning while ReshapeDecomposer has yet to run, reported again
        # when it reaches layout_normalization as an error.
        pending = by_module["jit_pending"]
        self.assertEqual([d["severity"] for d in pending], ["warning", "error"])
        self.assertEqual(pending[1]["first_seen"], pending[0]["first_seen"])
        self.assertEqual(pending[0]["first_seen"]["after_pass"], "layout-assignment")

    def test_every_dump_reports_in_every_file(self):
        once = self.diagnostics([DUMPS])["diagnostics"]
        every = self.diagnostics(["--every-dump", DUMPS])["diagnostics"]
        self.assertGreater(len(every), len(once))
        self.assertEqual({d["fingerprint"] for d in once}, {d["fingerprint"] for d in every})
        # Every report of one finding names the same first dump.
        first = {}
        for d in every:
            first.setdefault(d["fingerprint"], set()).add(d["first_seen"]["file"])
        self.assertTrue(all(len(files) == 1 for files in first.values()), first)
        # Without --every-dump a finding is reported where it first appears
        # (or again where it becomes more severe).
        for d in once:
            self.assertTrue(d["file"] == d["first_seen"]["file"] or d["severity"] == "error", d)
        # The full format's summary says how many repeats it left out.
        tail = run(["--format", "full"] + DUMP_RULES + [DUMPS]).stdout.splitlines()[-1]
        self.assertIn(f"; {len(every) - len(once)} repeats in later dumps not shown (--every-dump).", tail)
        tail = run(["--format", "full", "--every-dump"] + DUMP_RULES + [DUMPS]).stdout.splitlines()[-1]
        self.assertNotIn("repeats", tail)

    def test_interleaved_file_lists_are_grouped_like_directories(self):
        files = run(["--show-files", DUMPS + "/mixed", DUMPS + "/gemm"]).stdout.splitlines()
        self.assertNotIn("buffer-assignment", " ".join(files))  # not HLO: skipped
        # Interleave the modules by step, as `ls -tr` would list them.
        def step(path):
            m = re.search(r"module_\d{4}\..*?\.(\d{4})\.", os.path.basename(path))
            return int(m.group(1)) if m else -1
        interleaved = sorted(files, key=step)
        self.assertNotEqual(interleaved, files)
        # The same findings; modules come in the order of their first file
        # given, each module's dumps together and in step order.
        a = json.loads(run(["--format", "json"] + DUMP_RULES + [DUMPS + "/mixed", DUMPS + "/gemm"]).stdout)
        b = json.loads(run(["--format", "json"] + DUMP_RULES + interleaved).stdout)
        key = lambda d: (d["file"], d["line"], d["column"], d["rule"])
        self.assertEqual(sorted(a["diagnostics"], key=key), sorted(b["diagnostics"], key=key))
        def module(f):
            dump = f.get("dump")
            return None if dump is None else (dump.get("timestamp", ""), dump["module_id"])
        order = [module(f) for f in b["files"]]
        runs = [m for i, m in enumerate(order) if m is not None and (i == 0 or order[i - 1] != m)]
        self.assertEqual(len(runs), len(set(runs)), order)  # each module's dumps together
        for m in set(runs):
            steps = [f["dump"]["step"] for f in b["files"] if module(f) == m and f["dump"]["step"] is not None]
            self.assertEqual(steps, sorted(steps))

    def test_missing_steps_timestamps_and_a_dump_that_does_not_parse(self):
        doc = self.diagnostics([DUMPS + "/mixed"])
        train = [d for d in doc["diagnostics"] if d["module"] == "jit_train.step"]
        self.assertEqual(len(train), 1)
        self.assertEqual(train[0]["first_seen"]["missing_steps"], [2, 3])
        self.assertEqual(train[0]["first_seen"]["pipeline"], "post-layout_assignment.part 2")
        self.assertEqual(train[0]["dump"]["timestamp"], "1700000000000100")
        eval_ = [d for d in doc["diagnostics"] if d["module"] == "jit_eval" and d["rule"] == "reshape-not-bitcast"]
        # The next dump does not parse: that is no fix.
        self.assertNotIn("fixed_after", eval_[0])
        self.assertEqual(eval_[0]["last_seen"]["step"], 0)
        summary = json.loads(run(["--dump-summary", "--format", "json", DUMPS + "/mixed"]).stdout)
        modules = [(m["module_id"], m.get("timestamp"), len(m["dumps"])) for m in summary["modules"]]
        self.assertEqual(modules, [("0001", "1700000000000100", 6), ("0002", "1700000000000200", 2),
                                   ("0001", "1700000000000300", 1)])
        self.assertEqual([f["file"] for f in summary["other_files"]], [DUMPS + "/mixed/notes.hlo"])
        # A dump that does not parse proves nothing, even when parse-error is
        # not selected.
        only = json.loads(run(["--format", "json", "--select", "reshape-not-bitcast", DUMPS + "/mixed"]).stdout)
        eval_ = [d for d in only["diagnostics"] if d["module"] == "jit_eval"]
        self.assertEqual(len(eval_), 1)
        self.assertNotIn("fixed_after", eval_[0])
        summary = json.loads(run(["--dump-summary", "--format", "json", "--select", "reshape-not-bitcast",
                                  DUMPS + "/mixed"]).stdout)
        self.assertEqual([(m["module_name"], m["fixed"]) for m in summary["modules"]],
                         [("jit_train.step", 0), ("jit_eval", 0), ("jit_train.step", 0)])

    def test_assume_pass(self):
        seed = os.path.join(SOURCE, DUMPS, "gemm",
                            "module_0004.jit_seed.0001.post-layout_assignment.after_cublas-gemm-rewriter"
                            ".before_layout_normalization.txt")
        with open(seed, encoding="utf-8") as f:
            plain = self.file("seed.hlo", f.read())
        # The seed's XLA failed the compile; from 2026-04-24 it decomposes the reshape.
        p = run(["--format", "full", "--select", "reshape-not-bitcast", "--xla-version", "2026-04-23",
                 plain])
        self.assertIn("error: ", p.stdout)
        self.assertNotIn("right before pass", p.stdout)
        p = run(["--format", "full", "--select", "reshape-not-bitcast", plain])
        self.assertIn("warning: ", p.stdout)
        self.assertIn("the data is moved by copies, but compilation does not fail", p.stdout)
        p = run(["--format", "full", "--select", "reshape-not-bitcast",
                 "--assume-pass", "after_cublas-gemm-rewriter.before_layout_normalization", plain])
        self.assertIn("this dump was taken after pass 'cublas-gemm-rewriter', right before pass "
                      "'layout_normalization'", p.stdout)
        p = run(["--format", "json", "--select", "reshape-not-bitcast", "--assume-pass", "layout-assignment", plain])
        d = json.loads(p.stdout)["diagnostics"][0]
        self.assertEqual(d["severity"], "warning")
        self.assertEqual(d["dump"]["kind"], "assumed")
        self.assertEqual(d["dump"]["after_pass"], "layout-assignment")
        p = run(["--assume-pass", "x", plain, DUMPS + "/gemm"])
        self.assertEqual(p.returncode, 2)
        self.assertIn("--assume-pass applies to a single file", p.stderr)
        p = run(["--assume-pass", "after_", plain])
        self.assertEqual(p.returncode, 2)
        self.assertIn("expected PASS, after_PASS, before_PASS or after_PASS.before_PASS", p.stderr)

    def test_a_fix_undone_is_reported_where_the_finding_comes_back(self):
        ok = "  ROOT r = f32[48]{0} reshape(p)\n"
        bad = "  c = f32[8,6]{0,1} copy(p)\n  ROOT r = f32[48]{0} reshape(c)\n"
        passes = [("simplify", bad), ("copy-sinking", ok), ("algsimp", bad), ("reshape-mover", ok)]
        for step, (name, body) in enumerate(passes):
            self.file(f"flap/module_0009.jit_flap.{step:04d}.post-layout_assignment.after_{name}.before_x.txt",
                      f"HloModule jit_flap\nENTRY main {{\n  p = f32[8,6]{{1,0}} parameter(0)\n{body}}}\n")
        flap = os.path.join(self.dir, "flap")
        doc = json.loads(run(["--format", "json", "--select", "reshape-not-bitcast", flap]).stdout)
        import jsonschema
        with open(os.path.join(SOURCE, "docs/hlolint-output.schema.json"), encoding="utf-8") as f:
            jsonschema.validate(doc, json.load(f), cls=jsonschema.Draft7Validator)
        got = [(d["first_seen"]["after_pass"], d["fixed_after"]["after_pass"],
                d.get("earliest_seen", {}).get("after_pass"), d.get("earlier_fixed_after", {}).get("after_pass"))
               for d in doc["diagnostics"]]
        self.assertEqual(got, [("simplify", "copy-sinking", None, None),
                               ("algsimp", "reshape-mover", "simplify", "copy-sinking")])
        text = run(["--format", "full", "--select", "reshape-not-bitcast", flap]).stdout
        self.assertIn("  = back after pass 'algsimp' (pipeline 'post-layout_assignment', step 2)", text)
        self.assertIn("  = it had been fixed after pass 'copy-sinking' (pipeline 'post-layout_assignment', "
                      "step 1); first seen after pass 'simplify'", text)

    def test_right_before_layout_normalization_by_the_next_dump(self):
        bad = "  c = f32[8,6]{0,1} copy(p)\n  ROOT r = f32[48]{0} reshape(c)\n"
        fixed = "  ROOT r = f32[48]{0} reshape(p)\n"
        def write(directory, steps):
            for step, name, body in steps:
                self.file(f"{directory}/module_0002.jit_n.{step:04d}.post-layout_assignment.{name}.txt",
                          f"HloModule jit_n\nENTRY main {{\n  p = f32[8,6]{{1,0}} parameter(0)\n{body}}}\n")
            return os.path.join(self.dir, directory)
        # The next step was taken after layout_normalization: this dump is its input.
        direct = write("direct", [(3, "after_cublas-gemm-rewriter.before_gemm-broadcast-folding-rewriter", bad),
                                  (4, "after_layout_normalization.before_pipeline-end", fixed)])
        d = json.loads(run(["--format", "json", "--select", "reshape-not-bitcast", direct]).stdout)["diagnostics"]
        self.assertEqual(len(d), 1)
        self.assertEqual(d[0]["severity"], "error")
        self.assertIn("right before pass 'layout_normalization' (the next dump of the module is after it)",
                      explained(d[0]))
        self.assertEqual(d[0]["dump"]["next_pass"], "layout_normalization")
        # A missing step in between: other passes may have run; no such claim.
        gap = write("gap", [(3, "after_cublas-gemm-rewriter.before_gemm-broadcast-folding-rewriter", bad),
                            (5, "after_layout_normalization.before_pipeline-end", fixed)])
        d = json.loads(run(["--format", "json", "--select", "reshape-not-bitcast", gap]).stdout)["diagnostics"]
        self.assertEqual(len(d), 1)
        self.assertNotIn("right before pass", explained(d[0]))
        self.assertNotIn("next_pass", d[0]["dump"])

    def test_no_sequence_lints_every_dump_as_a_plain_file(self):
        plain = self.diagnostics(["--no-sequence", DUMPS])["diagnostics"]
        every = self.diagnostics(["--every-dump", DUMPS])["diagnostics"]
        self.assertFalse(any("first_seen" in d or "fixed_after" in d for d in plain))
        self.assertTrue(all("dump" in d for d in plain if "/module_" in d["file"]))
        # The findings of --every-dump, in input (name) order, but for one: the
        # within-pass dump of copy-insertion says nothing of layouts by its
        # name; only its sequence places it after layout assignment.
        key = lambda d: (d["file"], d["line"], d["rule"])
        only_in_sequence = {key(d) for d in every} - {key(d) for d in plain}
        self.assertEqual({k[0].split(".step.")[1] for k in only_in_sequence},
                         {"0005.copy-insertion.after adding copies to resolve interference.txt"})
        self.assertLessEqual({key(d) for d in plain}, {key(d) for d in every})
        files = [d["file"] for d in plain]
        self.assertEqual(files, sorted(files))
        # Without the sequence, the dump before layout_normalization that only
        # the next dump identifies (jit_proj step 3 is fine anyway) is judged
        # by its own name: jit_pending's first dump is still a warning.
        pending = [d["severity"] for d in plain if d["module"] == "jit_pending"]
        self.assertEqual(pending, ["warning", "error"])
        for flag in ("--every-dump", "--dump-summary"):
            p = run(["--no-sequence", flag, DUMPS])
            self.assertEqual(p.returncode, 2)
            self.assertIn(f"--no-sequence cannot be combined with {flag}", p.stderr)

    def test_dump_summary_formats(self):
        p = run(["--dump-summary", "--format", "sarif", DUMPS])
        self.assertEqual(p.returncode, 2)
        self.assertIn("--dump-summary prints text or, with --format json, JSON", p.stderr)

    def test_json_and_sarif_validate_in_sequence_mode(self):
        import jsonschema
        with open(os.path.join(SOURCE, "docs/hlolint-output.schema.json"), encoding="utf-8") as f:
            schema = json.load(f)
        for extra in ([], ["--every-dump"]):
            doc = json.loads(run(["--format", "json"] + extra + [DUMPS]).stdout)
            jsonschema.validate(doc, schema, cls=jsonschema.Draft7Validator)
            self.assertTrue(all("first_seen" in d for d in doc["diagnostics"]))
        with open(os.path.join(SOURCE, "tests/schemas/sarif-schema-2.1.0.json"), encoding="utf-8") as f:
            sarif_schema = json.load(f)
        log = json.loads(run(["--format", "sarif"] + DUMP_RULES + [DUMPS]).stdout)
        jsonschema.validate(log, sarif_schema, cls=jsonschema.Draft7Validator)
        results = log["runs"][0]["results"]
        self.assertGreater(len(results), 0)
        for r in results:
            self.assertIn("first_seen", r["properties"])
            self.assertIn("dump", r["properties"])
        fixed = [r for r in results if "fixed_after" in r["properties"]]
        self.assertEqual([r["properties"]["fixed_after"]["after_pass"] for r in fixed], ["reshape-decomposer"])

    def test_baselines_and_jobs_in_sequence_mode(self):
        baseline = os.path.join(self.dir, "b.json")
        self.assertEqual(run(["--write-baseline", baseline, DUMPS]).returncode, 0)
        p = run(["--baseline", baseline, "--fail-on", "note", DUMPS])
        self.assertEqual((p.returncode, p.stdout), (0, ""))
        # No module headings for sequences with nothing left to report.
        p = run(["--format", "full", "--quiet", "--baseline", baseline, DUMPS])
        self.assertEqual((p.returncode, p.stdout), (0, ""))
        one = run(["--format", "json", "--jobs", "1", DUMPS])
        three = run(["--format", "json", "--jobs", "3", DUMPS])
        self.assertEqual(one.stdout, three.stdout)

    def test_generated_directory(self):
        """A directory written here: three modules, steps with gaps, one
        non-bitcast reshape per module that appears and (for two) goes away."""
        ok = "  ROOT r = f32[48]{0} reshape(p)\n"
        bad = "  c = f32[8,6]{0,1} copy(p)\n  ROOT r = f32[48]{0} reshape(c)\n"
        plan = {"0010": (3, 7), "0011": (0, 12), "0012": (5, None)}  # first, fixed step
        expected = {}
        bad_files = 0
        for module, (first, fixed) in plan.items():
            steps = [s for s in range(0, 14) if s % 4 != 2 or s == first]  # gaps, but not where it appears
            for s in steps:
                present = s >= first and (fixed is None or s < fixed)
                bad_files += present
                body = bad if present else ok
                name = f"module_{module}.jit_m{module}.{s:04d}.post-layout_assignment.after_pass{s}.before_pass{s + 1}.txt"
                self.file(os.path.join("gen", name),
                          f"HloModule jit_m{module}, is_scheduled=true\nENTRY main {{\n  p = f32[8,6]{{1,0}} parameter(0)\n{body}}}\n")
            fixed_at = None if fixed is None else min(s for s in steps if s >= fixed)
            expected[f"jit_m{module}"] = (first, fixed_at)
        gen = os.path.join(self.dir, "gen")
        doc = json.loads(run(["--format", "json", "--select", "reshape-not-bitcast", gen]).stdout)
        got = {d["module"]: (d["first_seen"]["step"], d.get("fixed_after", {}).get("step"))
               for d in doc["diagnostics"]}
        self.assertEqual(len(doc["diagnostics"]), 3)
        self.assertEqual(got, expected)
        self.assertEqual([d["first_seen"]["after_pass"] for d in doc["diagnostics"]], ["pass3", "pass0", "pass5"])
        every = json.loads(run(["--format", "json", "--select", "reshape-not-bitcast", "--every-dump", gen]).stdout)
        self.assertEqual(len(every["diagnostics"]), bad_files)


class Reports(TempDirTest):
    """Unreadable inputs in every report, several reports from one run,
    workspace-relative annotations, stale baseline entries."""

    MISSING = "tests/cli/inputs/missing.hlo"
    FILES = ["tests/cli/inputs/parse_errors.hlo", MISSING]

    def lint(self, fmt, extra=()):
        p = run(["--select", "parse", "--format", fmt] + list(extra) + self.FILES)
        self.assertEqual(p.returncode, 2)
        self.assertEqual(p.stderr, f"hlolint: error: {self.MISSING}: No such file or directory\n")
        return p.stdout

    def test_unreadable_input_in_json(self):
        doc = json.loads(self.lint("json"))
        self.assertEqual(doc["files"][-1], {"path": self.MISSING, "modules": 0, "computations": 0,
                                            "instructions": 0, "bytes": 0,
                                            "error": "No such file or directory"})
        self.assertEqual(doc["summary"]["unreadable"], 1)
        self.assertEqual(doc["summary"]["files"], 2)

    def test_unreadable_input_in_json_lines(self):
        lines = self.lint("json-lines").splitlines()
        self.assertEqual(len(lines), 3)
        self.assertEqual(lines[-1], '{"file":"tests/cli/inputs/missing.hlo","error":"No such file or directory"}')

    def test_unreadable_input_in_sarif(self):
        invocation = json.loads(self.lint("sarif"))["runs"][0]["invocations"][0]
        self.assertEqual(invocation, {
            "executionSuccessful": False,
            "toolExecutionNotifications": [{
                "level": "error",
                "message": {"text": "tests/cli/inputs/missing.hlo: No such file or directory"},
                "locations": [{"physicalLocation": {"artifactLocation": {"uri": "tests/cli/inputs/missing.hlo"}}}],
            }]})

    def test_unreadable_input_in_github(self):
        self.assertEqual(self.lint("github").splitlines()[2:], [
            "::error file=tests/cli/inputs/missing.hlo,title=hlolint (unreadable file)::"
            "tests/cli/inputs/missing.hlo: No such file or directory",
            "hlolint: 2 errors in 2 files"])

    def test_unreadable_input_in_junit_and_one_test_case_per_failure(self):
        root = ET.fromstring(self.lint("junit"))
        cases = root.findall("./testsuite/testcase")
        self.assertEqual([(c.get("name"), c.get("classname"), sorted(c.keys())) for c in cases], [
            ("tests/cli/inputs/parse_errors.hlo:5:32 [parse-error]", "hlolint", ["classname", "name"]),
            ("tests/cli/inputs/parse_errors.hlo:17:3 [parse-error]", "hlolint", ["classname", "name"]),
            ("tests/cli/inputs/missing.hlo", "hlolint", ["classname", "name"])])
        self.assertEqual([len(c.findall("failure")) for c in cases], [1, 1, 0])
        self.assertEqual(cases[0].find("failure").get("message"),
                         "5:32: error: instruction does not exist: q [parse-error]")
        error = cases[2].find("error")
        self.assertEqual((error.get("type"), error.get("message")), ("unreadable", "No such file or directory"))
        self.assertEqual((root.get("tests"), root.get("failures"), root.get("errors")), ("3", "2", "1"))

    def test_unreadable_directory_is_reported(self):
        # A directory that cannot be listed: not being root is needed for
        # permissions, so the test uses a path whose parent is a file.
        blocker = self.file("blocker", "not a directory")
        p = run(["--format", "json-lines", os.path.join(blocker, "dumps")])
        self.assertEqual(p.returncode, 2)
        self.assertEqual(json.loads(p.stdout), {"file": os.path.join(blocker, "dumps"), "error": "Not a directory"})
        self.assertEqual(p.stderr, f"hlolint: error: {blocker}/dumps: Not a directory\n")

    def test_junit_validates_against_the_jenkins_schema(self):
        from lxml import etree  # Debian's python3-lxml
        schema = etree.XMLSchema(etree.parse(os.path.join(SOURCE, "tests/schemas/junit-10.xsd")))
        reports = [run(["--format", "junit", "tests/cli/inputs"]).stdout, self.lint("junit"),
                   run(["--format", "junit", "--fail-on", "note", "tests/cli/inputs"]).stdout]
        snapshot = os.path.join(SOURCE, "tests/snapshots/inputs.junit.snap")
        with open(snapshot, encoding="utf-8") as f:
            reports.append(f.read().split("----- stdout -----\n", 1)[1])
        for text in reports:
            document = etree.fromstring(text.encode("utf-8"))
            self.assertTrue(schema.validate(document), schema.error_log)
        # The check can fail: an element the schema does not know is rejected.
        self.assertFalse(schema.validate(etree.fromstring(b'<testsuites><testsuite tests="1"><case/></testsuite></testsuites>')))

    def test_several_reports_from_one_run(self):
        sarif = os.path.join(self.dir, "out.sarif")
        junit = os.path.join(self.dir, "out.xml")
        p = run(["--output-format", f"sarif:{sarif}", "--output-format", "github",
                 "--output-format", f"junit:{junit}", "tests/cli/inputs/parse_errors.hlo"])
        self.assertEqual((p.returncode, p.stderr), (1, ""))
        self.assertEqual(p.stdout, run(["--format", "github", "tests/cli/inputs/parse_errors.hlo"]).stdout)
        with open(sarif, encoding="utf-8") as f:
            self.assertEqual(f.read(), run(["--format", "sarif", "tests/cli/inputs/parse_errors.hlo"]).stdout)
        with open(junit, encoding="utf-8") as f:
            self.assertEqual(f.read(), run(["--format", "junit", "tests/cli/inputs/parse_errors.hlo"]).stdout)
        self.assertEqual(sorted(os.listdir(self.dir)), ["out.sarif", "out.xml"])  # no temporary files
        # Only file reports: nothing on stdout. -o with --format still works beside them.
        p = run(["--output-format", f"json:{sarif}", "tests/cli/inputs/parse_errors.hlo"])
        self.assertEqual((p.returncode, p.stdout), (1, ""))
        p = run(["--format", "concise", "-o", junit, "--output-format", f"json-lines:{sarif}",
                 "tests/cli/inputs/parse_errors.hlo"])
        self.assertEqual((p.returncode, p.stdout), (1, ""))
        with open(junit, encoding="utf-8") as f:
            self.assertEqual(f.read(), run(["--format", "concise", "tests/cli/inputs/parse_errors.hlo"]).stdout)
        # A plain --output-format is --format, as before.
        self.assertEqual(run(["--output-format", "json", "tests/cli/inputs/parse_errors.hlo"]).stdout,
                         run(["--format", "json", "tests/cli/inputs/parse_errors.hlo"]).stdout)

    def test_output_format_usage_errors(self):
        cases = [
            (["--output-format", "json", "--format", "concise"],
             "only one report can go to standard output (--format or --output-format FORMAT); "
             "give the others a file with --output-format FORMAT:FILE"),
            (["--output-format", "jsn:x.json"],
             "--output-format: unknown format 'jsn' (expected one of "
             "full|concise|json|json-lines|sarif|github|junit, optionally followed by :FILE)"),
            (["--output-format", "json:"], "--output-format json:: the file name is missing"),
            (["--output-format", "json:a", "--output-format", "sarif:a"], "--output-format sarif:a: a gets two reports"),
        ]
        for args, message in cases:
            with self.subTest(args=args):
                p = run(args + ["tests/cli/inputs/clean.hlo"], cwd=self.dir)
                self.assertEqual(p.returncode, 2)
                self.assertEqual(p.stderr, f"hlolint: error: {message}\nRun 'hlolint --help' for usage.\n")
        path = self.file("in.hlo", MODULE_OK)
        p = run(["--output-format", f"json:{path}", path])
        self.assertEqual(p.returncode, 2)
        self.assertEqual(p.stderr, f"hlolint: error: --output-format json:{path} would overwrite the input {path}\n")

    def test_github_paths_are_relative_to_the_workspace(self):
        source = os.path.join(SOURCE, "tests/cli/inputs/parse_errors.hlo")
        with open(source, encoding="utf-8") as f:
            path = self.file("repo/sub/bad.hlo", f.read())
        first = "::error file={},line=5,col=32,"
        env = clean_env(GITHUB_WORKSPACE=os.path.join(self.dir, "repo"))
        # Absolute, and relative to a working directory inside the workspace.
        for args, cwd in [([path], None), (["bad.hlo"], os.path.join(self.dir, "repo/sub"))]:
            p = run(["--format", "github"] + args, cwd=cwd, env=env)
            self.assertTrue(p.stdout.startswith(first.format("sub/bad.hlo")), p.stdout)
            self.assertIn("note: sub/bad.hlo:16:3: instruction previously defined here", p.stdout)
        # Outside the workspace, or without one: as given.
        p = run(["--format", "github", source], env=clean_env(GITHUB_WORKSPACE=os.path.join(self.dir, "repo")))
        self.assertTrue(p.stdout.startswith(first.format(source)), p.stdout)
        p = run(["--format", "github", "tests/cli/inputs/parse_errors.hlo"])
        self.assertTrue(p.stdout.startswith(first.format("tests/cli/inputs/parse_errors.hlo")), p.stdout)

    def test_sarif_links_rules_to_their_documentation(self):
        def driver(args, cwd=None):
            p = run(["--format", "sarif"] + args, cwd=cwd)
            self.assertEqual(p.returncode, 1, p.stderr)
            return json.loads(p.stdout)["runs"][0]["tool"]["driver"]
        url = "https://example.com/hlolint/docs/rules/{rule}.md"
        d = driver(["--rule-docs-url", url, "tests/cli/inputs/parse_errors.hlo"])
        self.assertEqual(d["informationUri"], "https://example.com/hlolint/docs/rules/")
        parse_error = next(r for r in d["rules"] if r["id"] == "parse-error")
        self.assertEqual(parse_error["helpUri"], "https://example.com/hlolint/docs/rules/parse-error.md")
        self.assertTrue(all(r["helpUri"] == url.replace("{rule}", r["id"]) for r in d["rules"]))
        with open(os.path.join(SOURCE, "docs/rules/parse-error.md"), encoding="utf-8") as f:
            self.assertEqual(parse_error["help"], {"text": f.read(), "markdown": parse_error["help"]["markdown"]})
        # Without a URL: no links, help text all the same.
        d = driver(["tests/cli/inputs/parse_errors.hlo"])
        self.assertNotIn("informationUri", d)
        self.assertFalse(any("helpUri" in r for r in d["rules"]))
        self.assertTrue(all(r["help"]["text"] for r in d["rules"]))
        # From the configuration; the command line wins.
        path = self.file("proj/bad.hlo", MODULE_ERROR)
        self.file("proj/.hlolint.json", '{"rule-docs-url": "https://docs.example/{rule}"}')
        d = driver([path])
        self.assertEqual((d["informationUri"], d["rules"][0]["helpUri"]),
                         ("https://docs.example/", "https://docs.example/" + d["rules"][0]["id"]))
        d = driver(["--rule-docs-url", "https://other.example/r/{rule}.html", path])
        self.assertEqual(d["rules"][0]["helpUri"], "https://other.example/r/" + d["rules"][0]["id"] + ".html")
        self.file("proj/.hlolint.json", '{"rule-docs-url": 7}')
        p = run([path])
        self.assertEqual(p.returncode, 2)
        self.assertIn(".hlolint.json:1:19: error: 'rule-docs-url' must be a URL string, with {rule} for the rule id", p.stderr)

    def test_stale_baseline_entries_are_reported(self):
        path = self.file("a.hlo", MODULE_ERROR + "// -----\n" + MODULE_WARNING)
        baseline = os.path.join(self.dir, "baseline.json")
        self.assertEqual(run(["--write-baseline", baseline, path]).returncode, 0)
        p = run(["--baseline", baseline, path])
        self.assertEqual((p.returncode, p.stdout, p.stderr), (0, "", ""))
        write(path, MODULE_OK)  # both findings fixed
        p = run(["--baseline", baseline, "--format", "json", "--statistics", path])
        self.assertEqual(p.returncode, 0)
        self.assertEqual(json.loads(p.stdout)["summary"]["stale_baseline"], 2)
        self.assertEqual(p.stderr.splitlines()[0],
                         f"hlolint: {baseline}: 2 entries no longer match any finding (refresh with --write-baseline)")
        self.assertIn("in the baseline: 0 (stale baseline entries: 2)\n", p.stderr)
        self.assertEqual(run(["--baseline", baseline, "--fail-on-stale-baseline", path]).returncode, 1)
        self.assertEqual(run(["--baseline", baseline, "--fail-on-stale-baseline", "--exit-zero", path]).returncode, 0)
        write(path, MODULE_ERROR)  # one fixed
        p = run(["--baseline", baseline, path])
        self.assertEqual((p.returncode, p.stderr), (0, f"hlolint: {baseline}: 1 entry no longer matches any finding (refresh with --write-baseline)\n"))
        self.assertEqual(run(["--baseline", baseline, "--fail-on-stale-baseline", path]).returncode, 1)
        # Nothing stale: the flag changes nothing.
        self.assertEqual(run(["--write-baseline", baseline, path]).returncode, 0)
        self.assertEqual(run(["--baseline", baseline, "--fail-on-stale-baseline", path]).returncode, 0)


MEMORY = "tests/cli/memory"


class MemoryReport(TempDirTest):
    """--memory-report (docs/memory-report.md): figures, errors, formats, plot."""

    def report(self, *args):
        p = run(["--memory-report", "--format", "json"] + list(args))
        return p, json.loads(p.stdout)

    def test_json_figures_of_a_donated_training_loop(self):
        p, doc = self.report(MEMORY + "/train_loop.hlo")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(doc["errors"], [])
        [m] = doc["modules"]
        self.assertEqual(m["module"], "train_loop")
        # weights 16 KiB + x 8 KiB; y 8 KiB + the root's table 16 B (trained
        # is weights' buffer, aliased); body: grad 64 KiB with upd 16 KiB, init's
        # table 64 B aligned; constants zero, one, steps.
        self.assertEqual(m["parameters_bytes"], 24576)
        self.assertEqual(m["outputs_bytes"], 8192 + 16)
        self.assertEqual(m["constants_bytes"], 12)
        self.assertEqual(m["temporaries_peak_bytes"], 65536 + 16384 + 64)
        self.assertEqual(m["total_bytes"], 24576 + 8208 + 12 + 81984)
        self.assertEqual(m["peak_at"], {"instruction": "loop", "line": 29, "position": 4})
        self.assertEqual(m["top"][0], {"instruction": "grad", "computation": "body", "index": "",
                                       "shape": "f32[64,256]{1,0}", "kind": "temporary",
                                       "bytes": 65536, "line": 9, "source_file": "train.py",
                                       "source_line": 12})
        self.assertEqual([c["computation"] for c in m["computations"]], ["main", "body", "cond"])
        self.assertEqual(len(m["timeline"]), 8)
        self.assertEqual(max(t["live_bytes"] for t in m["timeline"]), m["peak_bytes"])

    def test_json_validates_against_its_schema(self):
        import jsonschema  # Debian's python3-jsonschema
        with open(os.path.join(SOURCE, "docs/memory-report.schema.json"), encoding="utf-8") as f:
            schema = json.load(f)
        _, doc = self.report(MEMORY, "tests/cli/inputs", "tests/golden")
        jsonschema.validate(doc, schema, cls=jsonschema.Draft7Validator)
        self.assertGreater(len(doc["modules"]), 10)

    def test_a_module_that_does_not_parse_is_reported_and_the_rest_estimated(self):
        p, doc = self.report(MEMORY + "/broken.hlo")
        self.assertEqual(p.returncode, 1)
        self.assertEqual(doc["errors"], [{"file": MEMORY + "/broken.hlo", "module": "broken",
                                          "line": 6, "column": 32,
                                          "message": "instruction does not exist: q"}])
        self.assertEqual([m["module"] for m in doc["modules"]], ["fine"])
        self.assertEqual(doc["modules"][0]["total_bytes"], 32)
        text = run(["--memory-report", MEMORY + "/broken.hlo"])
        self.assertEqual(text.returncode, 1)
        self.assertIn(MEMORY + "/broken.hlo:6:32: module broken not estimated: "
                      "instruction does not exist: q\n", text.stdout)
        self.assertTrue(text.stdout.endswith("1 module estimated, 1 not (see above)\n"))
        self.assertEqual(run(["--memory-report", "--exit-zero", MEMORY + "/broken.hlo"]).returncode, 0)

    def test_text_report_has_the_figures_and_a_sparkline(self):
        p = run(["--memory-report", MEMORY + "/train_loop.hlo"])
        self.assertEqual(p.returncode, 0)
        self.assertIn("  total        112.1 KiB (114780 bytes) = parameters 24.0 KiB + outputs "
                      "8.0 KiB + constants 12 B + thread-local 0 B + temporaries at their peak "
                      "80.1 KiB\n", p.stdout)
        self.assertIn("  peak         104.1 KiB live at %loop (line 29)\n", p.stdout)
        self.assertIn("  timeline     ▃▃▃▃█▃▃▃ (8 instructions in schedule order)\n", p.stdout)
        self.assertIn("      64.0 KiB  temporary  %grad f32[64,256]{1,0} (line 9)  train.py:12\n",
                      p.stdout)

    def test_plot_is_an_svg_of_each_module(self):
        svg = os.path.join(self.dir, "memory.svg")
        p = run(["--memory-report", "-s", "--memory-plot", svg, MEMORY])
        self.assertEqual(p.returncode, 1)  # broken.hlo's first module
        self.assertEqual(p.stdout, "")
        root = ET.parse(svg).getroot()
        self.assertEqual(root.tag, "{http://www.w3.org/2000/svg}svg")
        self.assertEqual(len(root.findall("{http://www.w3.org/2000/svg}polygon")), 2)

    def test_usage_errors(self):
        p = run(["--memory-plot", "x.svg", MEMORY])
        self.assertEqual(p.returncode, 2)
        self.assertIn("--memory-plot goes with --memory-report", p.stderr)
        p = run(["--memory-report", "--format", "sarif", MEMORY])
        self.assertEqual(p.returncode, 2)
        self.assertIn("--memory-report prints text (--format full) or JSON (--format json), "
                      "not --format sarif", p.stderr)
        p = run(["--memory-report", os.path.join(self.dir, "missing.hlo")])
        self.assertEqual(p.returncode, 2)

    def test_standard_input(self):
        with open(os.path.join(SOURCE, MEMORY, "train_loop.hlo"), encoding="utf-8") as f:
            text = f.read()
        p = run(["--memory-report", "--format", "json", "--stdin-filename", "t.hlo", "-"], stdin=text)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(json.loads(p.stdout)["modules"][0]["file"], "t.hlo")


def sarif_used_rules_only(text):
    """A SARIF log with only the rules its results refer to, without their
    pages (fullDescription, help) and without ruleIndex (which counts every
    registered rule): so that rules and pages changed elsewhere do not change
    the snapshot. Shown with a note in the snapshot."""
    log = json.loads(text)
    for r in log["runs"]:
        used = {res["ruleId"] for res in r.get("results", [])}
        driver = r["tool"]["driver"]
        driver["rules"] = [{k: v for k, v in rule.items() if k not in ("fullDescription", "help")}
                           for rule in driver.get("rules", []) if rule["id"] in used]
        for res in r.get("results", []):
            res.pop("ruleIndex", None)
    return "(normalised: only the rules results use, without their pages; no ruleIndex)\n" + \
        json.dumps(log, indent=2, ensure_ascii=False) + "\n"


def snapshot_cases():
    cases = []
    # SARIF embeds every registered rule's page, so it is snapshot on the
    # examples only; here it would change with every rule added elsewhere.
    for fmt in FORMATS:
        if fmt != "sarif":
            cases.append((f"inputs.{fmt}", ["--select", "parse,meta", "--format", fmt, INPUTS]))
    cases.append(("inputs.full-color", ["--select", "parse,meta", "--format", "full", "--color", "always", INPUTS]))
    examples = os.path.join(SOURCE, "examples")
    if os.path.isdir(examples) and any(n.endswith(".hlo") for n in os.listdir(examples)):
        for fmt in FORMATS:
            cases.append((f"examples.{fmt}", ["--format", fmt, "examples"]))
    # Dump directories in sequence mode. The SARIF snapshot keeps only the
    # rules its results use (see sarif_used_rules_only).
    for fmt in FORMATS:
        cases.append((f"dumps.{fmt}", DUMP_RULES + ["--format", fmt, DUMPS]))
    cases.append(("dumps.every-dump.concise", DUMP_RULES + ["--every-dump", "--format", "concise", DUMPS]))
    cases.append(("dumps.summary", DUMP_RULES + ["--dump-summary", DUMPS]))
    cases.append(("dumps.summary.json", DUMP_RULES + ["--dump-summary", "--format", "json", DUMPS]))
    cases.append(("memory.full", ["--memory-report", MEMORY]))
    cases.append(("memory.json", ["--memory-report", "--format", "json", MEMORY]))
    return cases


class Snapshots(unittest.TestCase):
    """Exact output of every format; UPDATE_SNAPSHOTS=1 rewrites tests/snapshots/."""

    def test_snapshots(self):
        update = os.environ.get("UPDATE_SNAPSHOTS") == "1"
        directory = os.path.join(SOURCE, "tests", "snapshots")
        os.makedirs(directory, exist_ok=True)
        for name, args in snapshot_cases():
            with self.subTest(snapshot=name):
                p = run(args)
                self.assertEqual(p.stderr, "", name)
                stdout = sarif_used_rules_only(p.stdout) if name == "dumps.sarif" else p.stdout
                text = f"$ hlolint {' '.join(args)}\nexit status: {p.returncode}\n----- stdout -----\n{stdout}"
                path = os.path.join(directory, name + ".snap")
                if update:
                    write(path, text)
                    continue
                self.assertTrue(os.path.exists(path),
                                f"{path} is missing; run UPDATE_SNAPSHOTS=1 ctest -R Snapshots")
                with open(path, encoding="utf-8") as f:
                    expected = f.read()
                self.maxDiff = None
                self.assertEqual(text, expected,
                                 f"{name}: output changed; if intended, run "
                                 f"UPDATE_SNAPSHOTS=1 ctest -R Snapshots and review the diff")


if __name__ == "__main__":
    harness.run_tests(sys.modules[__name__])

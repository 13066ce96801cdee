#!/usr/bin/env python3
"""hlolint in front of hostile input (docs/robustness.md).

  hostile_tests.py --hlolint PATH --source DIR [unittest arguments]

Every input is generated here (nothing big is committed). Each case expects
a located error or a clean skip, the documented exit status (0 clean, 1
findings, 2 I/O or usage error), no crash, no hang (a generous timeout kills
a hung run and fails the test) and bounded memory (peak RSS of the run, from
wait4, compared with a bound well above what a correct run needs).
"""
import json
import os
import random
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import unittest

import harness

HLOLINT = ""
SOURCE = ""
TIMEOUT = 300  # seconds; only a hang comes near it, even in a sanitizer build
MiB = 1 << 20

MODULE = """HloModule hostile, entry_computation_layout={(f32[8,4]{1,0}, s32[])->(f32[8,4]{1,0}, s32[])}

%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %sum = f32[] add(f32[] %x, f32[] %y), metadata={op_name="add" source_file="m.py" source_line=3}
}

%cond (t: (s32[], f32[8,4])) -> pred[] {
  %t = (s32[], f32[8,4]{1,0}) parameter(0)
  %i = s32[] get-tuple-element(%t), index=0
  %n = s32[] constant(10)
  ROOT %lt = pred[] compare(%i, %n), direction=LT
}

%body (t: (s32[], f32[8,4])) -> (s32[], f32[8,4]) {
  %t = (s32[], f32[8,4]{1,0}) parameter(0)
  %i = s32[] get-tuple-element(%t), index=0
  %one = s32[] constant(1)
  %next = s32[] add(%i, %one)
  %v = f32[8,4]{1,0} get-tuple-element(%t), index=1
  %r = f32[4,8]{1,0} reshape(%v)
  %back = f32[8,4]{1,0} reshape(%r)
  ROOT %out = (s32[], f32[8,4]{1,0}) tuple(%next, %back)
}

ENTRY %main (p0: f32[8,4], p1: s32[]) -> (f32[8,4], s32[]) {
  %p0 = f32[8,4]{1,0} parameter(0), sharding={devices=[2,1]0,1}
  %p1 = s32[] parameter(1)
  %init = (s32[], f32[8,4]{1,0}) tuple(%p1, %p0)
  %loop = (s32[], f32[8,4]{1,0}) while(%init), condition=%cond, body=%body, backend_config={"known_trip_count":{"n":"10"}}
  %res = f32[8,4]{1,0} get-tuple-element(%loop), index=1
  %zero = f32[] constant(0)
  %total = f32[] reduce(%res, %zero), dimensions={0,1}, to_apply=%add
  %c = f32[2,2]{1,0} constant({ { 1, 2 }, { 3, /*x*/ 4 } })
  %cc = (f32[8,4]{1,0}, u32[]) custom-call(%res), custom_call_target="foo", api_version=API_VERSION_STATUS_RETURNING
  %g = f32[8,4]{1,0} get-tuple-element(%cc), index=0, control-predecessors={%total}
  %idx = s32[] get-tuple-element(%loop), index=0
  ROOT %result = (f32[8,4]{1,0}, s32[]) tuple(%g, %idx)
}
"""

TINY = "HloModule m\nENTRY e {\n  ROOT c = f32[] constant(1)\n}\n"
LOCATED = re.compile(r"^(?P<path>[^:\n]+):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.*) \[parse-error\]$",
                     re.M)


def read(path):
    with open(path, "rb") as f:
        return f.read()


class Run:
    def __init__(self, status, stdout, stderr, max_rss):
        self.returncode = status
        self.stdout = stdout
        self.stderr = stderr
        self.max_rss = max_rss  # bytes

    def text(self):
        # Reports are UTF-8 whatever the input held (invalid bytes escaped).
        return self.stdout.decode("utf-8")


# Root reads files whatever their mode; to test unreadable inputs as root,
# hlolint runs as `nobody` through setpriv (util-linux).
SETPRIV = shutil.which("setpriv")
NOBODY = 65534


def can_drop_root():
    return os.geteuid() == 0 and SETPRIV is not None


def run(args, cwd=None, stdin=None, timeout=TIMEOUT, as_nobody=False):
    """Runs hlolint; returns its status, output and peak RSS. Kills it on a hang."""
    prefix = [SETPRIV, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"] if as_nobody else []
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        stdin_file = stdin if stdin is not None else subprocess.DEVNULL
        p = subprocess.Popen(prefix + [HLOLINT] + args, cwd=cwd or SOURCE, stdin=stdin_file, stdout=out,
                             stderr=err, env={k: v for k, v in os.environ.items() if "COLOR" not in k})
        hung = []
        timer = threading.Timer(timeout, lambda: (hung.append(True), p.kill()))
        timer.start()
        try:
            _, status, usage = os.wait4(p.pid, 0)
        finally:
            timer.cancel()
        p.returncode = os.waitstatus_to_exitcode(status)  # already reaped
        if hung:
            raise AssertionError(f"hlolint {' '.join(args)[:200]} hung for {timeout} s")
        out.seek(0)
        err.seek(0)
        result = Run(p.returncode, out.read(), err.read().decode("utf-8", "replace"), usage.ru_maxrss * 1024)
    if result.returncode < 0 or result.returncode > 2:
        raise AssertionError(f"hlolint crashed (status {result.returncode}): {result.stderr[-2000:]}")
    if "Sanitizer" in result.stderr or "runtime error:" in result.stderr:
        raise AssertionError(f"sanitizer report: {result.stderr[-4000:]}")
    return result


class HostileTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="hlolint-hostile-")

    def tearDown(self):
        for root, dirs, _ in os.walk(self.dir):  # undo chmod 000 so rmtree works
            for d in dirs:
                try:
                    os.chmod(os.path.join(root, d), 0o755)
                except OSError:
                    pass
        shutil.rmtree(self.dir, ignore_errors=True)

    def path(self, name):
        return os.path.join(self.dir, name)

    def file(self, name, data):
        path = self.path(name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data.encode("utf-8", "surrogateescape") if isinstance(data, str) else data)
        return path

    def assertLocatedError(self, result, path, line=None, col=None, message=None):
        """Exactly the one located parse error expected, exit status 1."""
        text = result.text()
        self.assertEqual(result.returncode, 1, result.stderr + text[:2000])
        errors = [m for m in LOCATED.finditer(text) if m.group("path") == path]
        self.assertEqual(len(errors), 1, text[:2000])
        m = errors[0]
        if line is not None:
            self.assertEqual(int(m.group("line")), line, m.group(0)[:300])
        if col is not None:
            self.assertEqual(int(m.group("col")), col, m.group(0)[:300])
        if message is not None:
            self.assertIn(message, m.group("msg"))
        return m

    def assertRssBelow(self, result, limit):
        self.assertLess(result.max_rss, limit, f"peak RSS {result.max_rss // MiB} MiB")


class Hostile(HostileTest):
    # No module: XLA's parser rejects the text ("expects name"), hlolint
    # warns (unsupported-format) and exits 0.
    def test_empty_file(self):
        path = self.file("empty.hlo", "")
        r = run(["--format", "concise", path])
        self.assertEqual((r.returncode, r.stdout.decode(), r.stderr),
                         (0, f"{path}:1:1: warning: no HLO module in this file: it is empty "
                             "(XLA's parser rejects it too: expects name) [unsupported-format]\n", ""))
        r = run(["--format", "json", path])
        self.assertEqual([d["rule"] for d in json.loads(r.text())["diagnostics"]], ["unsupported-format"])

    def test_only_comments(self):
        path = self.file("c.hlo", "// nothing\n/* here\n at all */\n\n  // -----\n")
        r = run(["--format", "concise", path])
        self.assertEqual((r.returncode, r.stdout.decode()),
                         (0, f"{path}:1:1: warning: no HLO module in this file: it holds only "
                             "comments and blank lines (XLA's parser rejects it too: expects name) "
                             "[unsupported-format]\n"))

    # Binary data is no HLO: one unsupported-format warning (docs/rules/unsupported-format.md).
    BINARY = "1:1: warning: this is a binary file (NUL or control bytes, or not UTF-8), not HLO text [unsupported-format]\n"

    def test_binary_garbage(self):
        rng = random.Random(8)
        for i in range(20):
            data = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 1 << 14)))
            path = self.file(f"garbage{i}.hlo", data)
            with self.subTest(seed=i):
                r = run(["--format", "concise", path])
                self.assertEqual((r.returncode, r.stdout.decode()), (0, f"{path}:{self.BINARY}"))

    def test_nul_bytes(self):
        path = self.file("zeros.hlo", b"\0" * 4096)
        r = run(["--format", "concise", path])
        self.assertEqual((r.returncode, r.stdout.decode()), (0, f"{path}:{self.BINARY}"))
        # In HLO text, a NUL is an error where it is.
        data = TINY.replace("constant(1)", "constant(\0 1)").encode()
        path = self.file("nul.hlo", data)
        self.assertLocatedError(run(["--format", "concise", path]), path, 3, 27, "NUL byte")

    def test_invalid_utf8_in_strings_and_names(self):
        # In a string it is kept; the report stays valid UTF-8 in every format
        # (an error on the same line makes every reporter copy that line).
        line = b'  ROOT c = f32[] constant(1), metadata={op_name="\xff\xfe\xc3("}, bogus=1\n'
        path = self.file("string.hlo", b"HloModule m\nENTRY e {\n" + line + b"}\n")
        self.assertLocatedError(run(["--format", "concise", path]), path, 3, 58)
        for fmt in ["full", "json", "json-lines", "sarif", "github", "junit"]:
            with self.subTest(format=fmt):
                r = run(["--format", fmt, path])
                self.assertEqual(r.returncode, 1)
                text = r.text()  # raises on invalid UTF-8
                if fmt in ("json", "sarif"):
                    json.loads(text)
        # In a name it is an error at the byte.
        path = self.file("name.hlo", b"HloModule m\nENTRY e {\n  ROOT c\xc3\xa9 = f32[] constant(1)\n}\n")
        self.assertLocatedError(run(["--format", "concise", path]), path, 3, 9, "non-ASCII byte 0xC3")
        path = self.file("module.hlo", b"HloModule m\xff\nENTRY e {\n  ROOT c = f32[] constant(1)\n}\n")
        self.assertLocatedError(run(["--format", "concise", path]), path, 1, 12, "non-ASCII byte 0xFF")

    def test_nesting_100000_deep(self):
        depth = 100000
        head = "HloModule m\nENTRY e {\n  a = f32[] parameter(0)\n"
        cases = {
            "tuple": f"  ROOT p = {'(' * depth}f32[]{')' * depth} parameter(1)\n",
            "operands": f"  ROOT r = f32[] negate({'negate(' * depth}a{')' * (depth + 1)}\n",
            "sharding": "  ROOT r = f32[] negate(a), sharding=" + "{" * depth + "replicated" + "}" * depth + "\n",
            "backend_config": "  ROOT r = f32[] negate(a), backend_config=" + "{" * depth + "\n",
            "literal": "  ROOT r = f32[2] constant(" + "{" * depth + "1" + "}" * depth + ")\n",
            "computations": "  ROOT r = f32[] call(a), to_apply=" + "{ x = f32[] call(), to_apply=" * depth + "\n",
        }
        for name, line in cases.items():
            with self.subTest(construct=name):
                path = self.file(name + ".hlo", head + line + "}\n")
                r = run(["--format", "concise", path])
                self.assertLocatedError(r, path, line=4)
                self.assertRssBelow(r, 512 * MiB)

    def test_huge_dimensions(self):
        head = "HloModule m\nENTRY e {\n  "
        huge = 9223372036854775807
        for line, status, message in [
            (f"ROOT p = f32[{huge}] parameter(0)", 0, None),
            (f"p = f32[] parameter(0)\n  ROOT b = f32[{huge}] broadcast(p), dimensions={{}}", 0, None),
            (f"ROOT i = s32[{huge}] iota(), iota_dimension=0", 0, None),
            (f"p = s8[{huge}] parameter(0)\n  ROOT r = s8[3074457345618258602,3] reshape(p)", None, None),
            # XLA checks each dimension, not their product (ParseShape).
            (f"ROOT p = f32[{huge},2] parameter(0)", 0, None),
            ("ROOT p = f32[65536,65536,65536,65536] parameter(0)", 0, None),
            (f"ROOT p = f32[{huge + 1}] parameter(0)", 1, "out of range"),
            ("ROOT p = f32[18446744073709551616] parameter(0)", 1, "does not fit in 64 bits"),
            (f"ROOT p = (f32[{huge // 2}], f32[{huge // 2}]) parameter(0)", None, None),
            (f"ROOT p = f32[{huge // 2}]{{0}} parameter(0)", None, None),
            (f"ROOT p = (f32[{huge // 2}]{{0}}) parameter(0)", 1, "size may overflow int64"),
        ]:
            with self.subTest(line=line):
                path = self.file("dims.hlo", head + line + "\n}\n")
                r = run(["--format", "concise", path])
                if status == 1:
                    self.assertLocatedError(r, path, message=message)
                elif status == 0:
                    self.assertEqual(r.returncode, 0, r.text())
                else:
                    self.assertIn(r.returncode, (0, 1))
                self.assertRssBelow(r, 512 * MiB)

    def test_unterminated_at_end_of_file(self):
        for name, text, message in [
            ("string", 'HloModule m\nENTRY e {\n  ROOT c = f32[] constant(1), metadata={op_name="abc', None),
            ("comment", "HloModule m\nENTRY e {\n  ROOT c = f32[] constant(1) /* never closed", None),
            ("brace", "HloModule m\nENTRY e {\n  ROOT c = f32[] constant(1)\n", None),
            ("attribute", "HloModule m\nENTRY e {\n  ROOT c = f32[] constant(1), sharding={devices=[2]0,1", None),
            ("json", 'HloModule m\nENTRY e {\n  ROOT c = f32[] constant(1), backend_config={"a":', None),
            ("literal", "HloModule m\nENTRY e {\n  ROOT c = f32[2] constant({1,", None),
            ("header", "HloModule m, entry_computation_layout={(f32[", None),
        ]:
            with self.subTest(unterminated=name):
                path = self.file(name + ".hlo", text)
                m = self.assertLocatedError(run(["--format", "concise", path]), path, message=message)
                self.assertLessEqual(int(m.group("line")), text.count("\n") + 1)

    def test_truncated_at_every_byte_offset(self):
        # One run over a directory of every prefix of a real module: each is
        # clean or has located parse errors inside its own text.
        tree = self.path("prefixes")
        os.makedirs(tree)
        for length in range(len(MODULE) + 1):
            with open(os.path.join(tree, f"p{length:05d}.hlo"), "w") as f:
                f.write(MODULE[:length])
        r = run(["--format", "json", "--jobs", "2", tree])
        self.assertEqual(r.returncode, 1, r.stderr)
        report = json.loads(r.text())
        self.assertEqual(len(report["files"]), len(MODULE) + 1)
        errors = {}
        for d in report["diagnostics"]:
            length = int(os.path.basename(d["file"])[1:6])
            prefix = MODULE[:length]
            self.assertLessEqual(d["line"], prefix.count("\n") + 1, d)
            self.assertGreaterEqual(d["column"], 1)
            if d["rule"] == "parse-error":
                errors[length] = errors.get(length, 0) + 1
        self.assertTrue(all(n == 1 for n in errors.values()))
        # Only prefixes ending after a computation's closing brace (or the
        # whitespace after it) are complete modules; the whole module is one.
        self.assertNotIn(len(MODULE), errors)
        self.assertGreater(len(errors), len(MODULE) * 9 // 10)

    def unreadable_setup(self):
        """Whether hlolint must run as nobody for chmod 000 to bite (we are root)."""
        if os.geteuid() != 0:
            return False
        if not can_drop_root():
            self.skipTest("running as root without setpriv: chmod 000 does not block reading")
        os.chmod(self.dir, 0o755)  # nobody must reach the readable files
        try:  # and run the binary (a checkout under /root may not allow it)
            probe = subprocess.run([SETPRIV, f"--reuid={NOBODY}", f"--regid={NOBODY}",
                                    "--clear-groups", HLOLINT, "--version"], cwd=self.dir,
                                   capture_output=True, timeout=TIMEOUT)
            usable = probe.returncode == 0
        except OSError:
            usable = False
        if not usable:
            self.skipTest("running as root, and hlolint cannot run as nobody from here")
        return True

    def test_unreadable_file(self):
        ok = self.file("ok.hlo", TINY.replace("constant(1)", "constant(1, 2)"))
        locked = self.file("locked.hlo", TINY)
        os.chmod(locked, 0)
        as_nobody = self.unreadable_setup()
        r = run(["--format", "concise", ok, locked], cwd=self.dir, as_nobody=as_nobody)
        self.assertEqual(r.returncode, 2)
        self.assertIn("locked.hlo", r.stderr)
        self.assertIn("Permission denied", r.stderr)
        self.assertIn("[parse-error]", r.text())  # the readable file is still linted

    def test_unreadable_directory(self):
        tree = self.path("tree")
        self.file("tree/a.hlo", TINY)
        self.file("tree/locked/b.hlo", TINY)
        os.chmod(os.path.join(tree, "locked"), 0)
        as_nobody = self.unreadable_setup()
        r = run(["--show-files", tree], cwd=self.dir, as_nobody=as_nobody)
        self.assertEqual(r.returncode, 2)
        self.assertIn("locked: cannot read directory", r.stderr)
        self.assertEqual(r.text().splitlines(), [os.path.join(tree, "a.hlo")])

    def test_symlink_loops(self):
        tree = self.path("tree")
        self.file("tree/sub/a.hlo", TINY)
        os.symlink("..", os.path.join(tree, "sub", "up"))         # directory loop
        os.symlink("loop.hlo", os.path.join(tree, "loop.hlo"))    # a link to itself
        os.symlink("ping.hlo", os.path.join(tree, "pong.hlo"))    # two links to each other
        os.symlink("pong.hlo", os.path.join(tree, "ping.hlo"))
        r = run(["--show-files", tree])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.text().splitlines(), [os.path.join(tree, "sub", "a.hlo")])
        r = run(["--format", "concise", os.path.join(tree, "loop.hlo"), os.path.join(tree, "ping.hlo")])
        self.assertEqual(r.returncode, 2)
        self.assertEqual(r.stderr.count("Too many levels of symbolic links"), 2, r.stderr)

    def test_fifo(self):
        tree = self.path("tree")
        self.file("tree/a.hlo", TINY)
        fifo = os.path.join(tree, "pipe.hlo")
        os.mkfifo(fifo)
        # Found in a directory: skipped (only regular files are linted), so
        # a FIFO nobody writes to cannot hang a directory scan.
        r = run(["--show-files", tree])
        self.assertEqual(r.text().splitlines(), [os.path.join(tree, "a.hlo")])
        self.assertEqual(run(["--format", "concise", tree]).returncode, 0)
        # Named explicitly with no writer: read as empty, no hang.
        r = run(["--format", "concise", fifo])
        self.assertEqual(r.returncode, 0)
        self.assertIn(b"no HLO module in this file: it is empty", r.stdout)
        # Named explicitly with a writer: read to its end (like <(command)).
        def writer():
            with open(fifo, "w") as f:
                f.write(TINY.replace("constant(1)", "constant(1, 2)"))
        thread = threading.Thread(target=writer)
        thread.start()
        r = run(["--format", "concise", fifo])
        thread.join()
        self.assertLocatedError(r, fifo, line=3)

    def test_endless_streams_are_bounded(self):
        if not os.path.exists("/dev/zero"):
            self.skipTest("no /dev/zero")
        r = run(["--format", "concise", "/dev/zero"])
        self.assertEqual(r.returncode, 2)
        self.assertIn("'/dev/zero' is a stream larger than the 1024 MiB", r.stderr)
        self.assertRssBelow(r, 3 * 1024 * MiB)
        with open("/dev/zero", "rb") as zero:
            r = run(["--format", "concise", "-"], stdin=zero)
        self.assertEqual(r.returncode, 2)
        self.assertIn("standard input is larger than the 1024 MiB", r.stderr)
        self.assertRssBelow(r, 3 * 1024 * MiB)


class Large(HostileTest):
    """Inputs of tens of megabytes or 100,000 items: a ctest test of their own,
    scheduled first (tests/cli/CMakeLists.txt), as they are the slowest."""

    def test_50_mb_single_line(self):
        size = 50 * MiB
        # A valid module whose one instruction holds a 50 MB string, with an
        # error at the end of that line: the report quotes a bounded excerpt.
        head = "HloModule m\nENTRY e {\n  ROOT c = f32[] constant(1), metadata={op_name=\""
        tail = "\"}, bogus=1\n}\n"
        text = head + "x" * (size - len(head) - len(tail)) + tail
        path = self.file("long.hlo", text)
        for fmt in ["concise", "full", "json"]:
            with self.subTest(format=fmt):
                r = run(["--format", fmt, path])
                self.assertEqual(r.returncode, 1)
                self.assertLess(len(r.stdout), 64 * 1024)
                self.assertRssBelow(r, 1024 * MiB)
        m = self.assertLocatedError(run(["--format", "concise", path]), path, line=3)
        self.assertEqual(int(m.group("col")), len(text.split("\n")[2]) - len("bogus=1") + 1)
        # 50 MB of one line of garbage, of spaces, of one token.
        for name, data in [("letters", b"x" * size), ("spaces", b" " * size + b"!"),
                           ("digits", b"HloModule m\nENTRY e {\n  ROOT c = f32[] constant(" + b"9" * size)]:
            with self.subTest(line=name):
                path = self.file(name + ".hlo", data)
                r = run(["--format", "concise", path])
                if name == "letters":  # nothing of HLO in its first 4 KiB: not HLO at all
                    self.assertEqual((r.returncode, r.stdout.decode()),
                                     (0, f"{path}:1:1: warning: this is plain text, not HLO: it does not "
                                         "start with `HloModule`, `ENTRY` or a computation [unsupported-format]\n"))
                else:
                    self.assertLocatedError(r, path)
                self.assertRssBelow(r, 1024 * MiB)

    def test_100000_wide_lists(self):
        # Wide lists are handled in linear (or n log n) time; a quadratic
        # check would hang here. Rank is limited to 1024 (a located error);
        # at the limit every shape check and layout rule stays fast.
        n = 100000
        dims = ",".join(["1"] * n)
        path = self.file("rank.hlo", f"HloModule m\nENTRY e {{\n  ROOT p = f32[{dims}] parameter(0)\n}}\n")
        self.assertLocatedError(run(["--format", "concise", path]), path, 3, 16 + 2 * 1024,
                                "shape has more than 1024 dimensions")

        def wide_module(rank, reduce_dims):
            dims = ",".join(["1"] * rank)
            down = ",".join(str(i) for i in reversed(range(rank)))
            up = ",".join(str(i) for i in range(rank))
            return ("HloModule wide\nsum {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n"
                    "  ROOT s = f32[] add(x, y)\n}\n"
                    f"ENTRY e {{\n  p = f32[{dims}]{{{down}}} parameter(0)\n"
                    f"  t = f32[{dims}]{{{down}}} transpose(p), dimensions={{{down}}}\n"
                    f"  r = f32[{dims}]{{{up}}} reshape(t)\n"
                    f"  c = f32[{dims}]{{{down}}} copy(r)\n"
                    f"  z = f32[] constant(0)\n"
                    f"  b = f32[{dims}]{{{down}}} broadcast(z), dimensions={{}}\n"
                    f"  a = f32[{dims}]{{{down}}} add(b, c)\n"
                    f"  ROOT o = f32[] reduce(a, z), dimensions={{{reduce_dims}}}, to_apply=sum\n}}\n")

        # 100,000 send/recv pairs, as a chain and as one cycle.
        pairs = "{" + ",".join(f"{{{i},{i + 1}}}" for i in range(n)) + "}"
        cycle = pairs[:-1] + f",{{{n},0}}}}"
        sends = []
        for name, text in [("chain", pairs), ("cycle", cycle)]:
            attr = f'frontend_attributes={{_xla_send_recv_source_target_pairs="{text}"}}'
            sends.append(f"HloModule {name}, is_scheduled=true\nENTRY e {{\n  p = f32[4] parameter(0)\n"
                         f"  t = token[] after-all()\n"
                         f"  s = (f32[4], u32[], token[]) send(p, t), channel_id=1, {attr}\n"
                         f"  r = (f32[4], u32[], token[]) recv(t), channel_id=1, {attr}\n"
                         f"  sd = token[] send-done(s), channel_id=1\n"
                         f"  ROOT rd = (f32[4], token[]) recv-done(r), channel_id=1\n}}\n")
        # 20,000 pending sends, then their recvs in reverse order: matching
        # each with the earliest pending send of the same pairs.
        m = 20000
        attr = 'channel_id=1, frontend_attributes={{_xla_send_recv_source_target_pairs="{{{{{},{}}}}}"}}'
        lines = [f"  snd{i} = (f32[4], u32[], token[]) send(p, t), " + attr.format(i, i + 1) for i in range(m)]
        lines += [f"  rcv{i} = (f32[4], u32[], token[]) recv(t), " + attr.format(i, i + 1)
                  for i in reversed(range(m))]
        many = ("HloModule many, is_scheduled=true\nENTRY e {\n  p = f32[4] parameter(0)\n"
                "  t = token[] after-all()\n" + "\n".join(lines) + "\n  ROOT r = f32[4] copy(p)\n}\n")
        modules = [wide_module(1024, ",".join(str(i) for i in range(1024))),
                   wide_module(1024, ",".join(["3"] * n))] + sends + [many]
        path = self.file("wide.hlo", "// -----\n".join(modules))
        r = run(["--format", "json", path])
        self.assertIn(r.returncode, (0, 1), r.stderr)
        diagnostics = json.loads(r.text())["diagnostics"]
        self.assertEqual([d["message"][:300] for d in diagnostics if d["rule"] == "parse-error"], [])
        found = [(d["line"], d["rule"], d["message"][:40]) for d in diagnostics
                 if d["severity"] != "note" and d["rule"] in ("verify-shape", "verify-schedule")]
        self.assertEqual(found, [
            (32, "verify-shape", "[ShapeVerifier::HandleReduce] Duplicate "),
            # The cycle is found (on the send and on the recv).
            (49, "verify-schedule", "[VerifyNoCollectiveDeadlocks] Expected s"),
            (50, "verify-schedule", "[VerifyNoCollectiveDeadlocks] Expected s")])
        self.assertRssBelow(r, 1024 * MiB)

    def test_100000_tiny_modules_in_one_file(self):
        n = 100000
        path = self.file("many.hlo", "// -----\n".join([TINY] * n) + "// -----\nHloModule broken\nENTRY {")
        r = run(["--format", "concise", "--statistics", path])
        self.assertLocatedError(r, path, line=5 * n + 2)
        self.assertRssBelow(r, 512 * MiB)


class Files(HostileTest):
    def traced(self, args, calls):
        """Runs hlolint under strace; returns the traced calls' lines."""
        strace = shutil.which("strace")
        if strace is None:
            self.skipTest("strace is not installed")
        log = self.path("strace.log")
        # LeakSanitizer (in a sanitizer build) cannot run under ptrace.
        env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")
        p = subprocess.run([strace, "-f", "-qq", "-e", "trace=" + calls, "-o", log, HLOLINT] + args,
                           cwd=SOURCE, capture_output=True, timeout=TIMEOUT, env=env)
        if not os.path.exists(log) or "PTRACE" in p.stderr.decode("utf-8", "replace"):
            self.skipTest("strace cannot trace here: " + p.stderr.decode("utf-8", "replace")[:200])
        with open(log, encoding="utf-8", errors="replace") as f:
            return p, f.read().splitlines()

    def test_inputs_are_opened_read_only_and_not_changed(self):
        path = self.file("in.hlo", TINY.replace("constant(1)", "constant(1, 2)"))
        tree = self.path("tree")
        nested = self.file("tree/nested.hlo", TINY)
        os.chmod(path, 0o444)
        os.chmod(nested, 0o444)
        before = [(os.stat(p).st_mtime_ns, read(p)) for p in (path, nested)]
        p, lines = self.traced(["--format", "concise", path, tree], "open,openat,openat2,creat,truncate")
        self.assertEqual(p.returncode, 1, p.stderr)
        opens = [line for line in lines if "in.hlo" in line or "nested.hlo" in line]
        self.assertEqual(len(opens), 2, lines)
        for line in opens:
            self.assertIn("O_RDONLY", line)
            for flag in ("O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND"):
                self.assertNotIn(flag, line)
        after = [(os.stat(p).st_mtime_ns, read(p)) for p in (path, nested)]
        self.assertEqual(before, after)

    def test_output_is_written_to_a_temporary_file_then_renamed(self):
        out = self.path("report.json")
        self.file("report.json", "old")
        p, lines = self.traced(["--format", "json", "-o", out, "tests/cli/inputs/clean.hlo"],
                               "openat,rename,renameat,renameat2")
        self.assertEqual(p.returncode, 0, p.stderr)
        renames = [line for line in lines if "rename" in line]
        self.assertEqual(len(renames), 1, lines)
        self.assertRegex(renames[0], r'\.report\.json\.tmp\.\w{6}".*"' + re.escape(out) + '"')
        self.assertFalse([line for line in lines if "openat" in line and '/report.json"' in line])
        self.assertEqual(json.loads(read(out))["diagnostics"], [])
        self.assertEqual(sorted(os.listdir(self.dir)), ["report.json", "strace.log"])

    def test_output_failures_leave_nothing_behind(self):
        target = self.path("a-directory")
        os.makedirs(target)
        r = run(["-o", target, "tests/cli/inputs/clean.hlo"])
        self.assertEqual(r.returncode, 2)
        self.assertIn("a-directory: cannot write", r.stderr)
        self.assertEqual(os.listdir(self.dir), ["a-directory"])
        self.assertEqual(os.listdir(target), [])

    def test_output_over_an_input_is_refused(self):
        path = self.file("in.hlo", TINY)
        r = run(["-o", path, path])
        self.assertEqual(r.returncode, 2)
        self.assertIn("would overwrite the input", r.stderr)
        self.assertEqual(read(path), TINY.encode())


if __name__ == "__main__":
    harness.run_tests(sys.modules[__name__])

#!/usr/bin/env python3
"""`hlolint lsp` on a large document: issue 46's large-document targets.

  bench/lsp_bench.py --hlolint build/tools/hlolint/hlolint [--size 100M]
      [--generate build/bench/generate_hlo] [--cache DIR] [--positions 9]
      [--edits 1000] [--full-sync-edits 10] [--json FILE]
  bench/lsp_bench.py --hlolint ... --smoke    # ~1 MB: checks the protocol only

Generates the document once with bench/generate_hlo into --cache (default
$TMPDIR/hlolint-lsp-bench, reused while present; --regenerate after the
generator changed) and drives `hlolint lsp` over pipes with Content-Length
framing, as an editor does:

  open      initialize, then didOpen of the document: the time to write it
            (the client sends the whole text as JSON) and until its
            publishDiagnostics arrive, and the server's CPU time meanwhile
            (user + system, all threads: steadier on a shared machine);
  requests  hover, definition, references and documentHighlight on an
            instruction's name, an operand and a called computation
            (calls=/to_apply=/condition=/body=) at --positions places from
            the start to the end of the document; documentSymbol once.
            Latency per method: min / median / max. A definition is checked
            against the line that defines the name. A method the server
            answers with MethodNotFound is reported as not implemented;
  memory    the server's VmRSS and VmHWM (/proc/PID/status) before the
            document, as its diagnostics arrive, after one more request (a
            hover: the server is done with the open by then) and at the end,
            as multiples of the document's size;
  edits     --edits didChange notifications sent back to back (one-character
            range edits with incremental sync; with full sync each carries
            the whole text, so only --full-sync-edits of them); the last one
            makes a finding. Time until the last version's diagnostics
            arrive, then one hover to show the server still answers;
  close     shutdown and exit: the server must exit with status 0 within
            20 s of `exit`, its stdin still open (as an editor may leave it).

Prints a table (--json FILE also writes the figures) and exits 1 when the
protocol misbehaved: no diagnostics, a crash or hang, an error reply other
than MethodNotFound, a wrong definition line, no exit or a non-zero status.
Checks free memory first and refuses a size that would not fit (--force to
override). Never run as a timed test: CI runs --smoke only, whose figures
mean nothing. Positions are found by `%name` syntax, as XLA dumps and the
generator write it.
"""
import argparse
import collections
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # CI runs the smoke mode from the source tree: leave it clean
from lsp_client import LspClient, ProtocolError  # noqa: E402
from lsp_document import Position, json_string_content, targets_at  # noqa: E402

URI_BASE = "file:///hlolint-lsp-bench/"
METHOD_NOT_FOUND = -32601
TARGETS = {"diagnostics_s": 3.0, "hover_ms": 100.0, "definition_ms": 100.0, "memory_x": 2.0}
POSITION_METHODS = ["hover", "definition", "references", "documentHighlight"]
EXIT_WAIT_S = 20
# A tuple index the generated loop condition uses; index 7 of its 2-tuple is a
# verify-shape finding that leaves the module parseable and every line in place.
FINDING_SITE, FINDING_FROM, FINDING_TO = b"), index=0", b"0", b"7"


def generated_document(args):
    os.makedirs(args.cache, exist_ok=True)
    path = os.path.join(args.cache, f"lsp-bench-{args.size}-seed{args.seed}.hlo")
    if args.regenerate or not os.path.exists(path):
        partial = path + ".partial"
        subprocess.run([args.generate, "--size", args.size, "--seed", str(args.seed),
                        "-o", partial], check=True)
        os.replace(partial, path)
    return path


# -- the measurements

def median_summary(latencies):
    if not latencies:
        return None
    ms = [x * 1000 for x in latencies]
    return {"count": len(ms), "min_ms": min(ms), "median_ms": statistics.median(ms),
            "max_ms": max(ms)}


def first_target_line(result):
    """The line a definition answer points at: Location, Location[] or LocationLink[]."""
    if isinstance(result, list):
        result = result[0] if result else None
    if not isinstance(result, dict):
        return None
    where = result.get("targetSelectionRange") or result.get("range")
    return where["start"]["line"] if where else None


class Bench:
    def __init__(self, args, data, uri):
        self.args = args
        self.data = data
        self.uri = uri
        self.figures = {"document_bytes": len(data), "document_lines": data.count(b"\n")}
        self.problems = []
        self.client = None

    def problem(self, text):
        self.problems.append(text)

    def memory_figure(self, key):
        memory = self.client.memory()
        if memory:
            self.figures[key] = {"rss_bytes": memory["VmRSS"], "hwm_bytes": memory["VmHWM"]}

    def run(self):
        self.client = LspClient([self.args.hlolint, "lsp"])
        try:
            self.initialize()
            self.memory_figure("memory_before_open")
            self.open()
            self.memory_figure("memory_at_diagnostics")
            self.settle()
            self.memory_figure("memory_after_diagnostics")
            self.requests()
            self.edits()
            self.memory_figure("memory_at_end")
            self.shut_down()
            if self.client.orphan_errors:
                self.problem(f"error replies without an id: {self.client.orphan_errors[:3]}")
        except ProtocolError as e:
            self.problem(str(e))
            self.client.proc.kill()
            self.client.proc.wait()

    def initialize(self):
        capabilities = {
            "general": {"positionEncodings": ["utf-16"]},
            "window": {"workDoneProgress": True},
            "textDocument": {
                "synchronization": {"didSave": True},
                "publishDiagnostics": {"versionSupport": True, "relatedInformation": True},
                "hover": {"contentFormat": ["markdown", "plaintext"]},
                "definition": {"linkSupport": True},
                "documentSymbol": {"hierarchicalDocumentSymbolSupport": True},
            },
        }
        _, reply, _ = self.client.request("initialize", {
            "processId": os.getpid(), "rootUri": None, "capabilities": capabilities},
            self.args.timeout)
        if "result" not in reply:
            raise ProtocolError(f"initialize failed: {reply}")
        sync = reply["result"].get("capabilities", {}).get("textDocumentSync", 0)
        self.sync = sync.get("change", 0) if isinstance(sync, dict) else sync
        names = {0: "none", 1: "full", 2: "incremental"}
        self.figures["sync"] = names.get(self.sync, str(self.sync))
        self.client.notify("initialized", {})

    def open(self):
        self.escaped = json_string_content(self.data)
        head = json.dumps({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": {"uri": self.uri, "languageId": "hlo", "version": 1,
                             "text": "@"}}}).encode()
        prefix, suffix = head.split(b'"@"')
        cpu_before = self.client.cpu_seconds()
        started, sent = self.client.send(parts=[prefix + b'"', self.escaped, b'"' + suffix])
        arrived, params = self.client.wait_for(
            lambda: self.client.diagnostics_for(self.uri, 1, started), self.args.timeout,
            "diagnostics after didOpen")
        cpu_after = self.client.cpu_seconds()
        self.figures["open"] = {"send_s": sent - started, "diagnostics_s": arrived - started,
                                "diagnostics": len(params["diagnostics"])}
        if cpu_before is not None and cpu_after is not None:
            self.figures["open"]["server_cpu_s"] = cpu_after - cpu_before

    def settle(self):
        """One request after the diagnostics: the server's first answer after
        the open, and a point where it has done with the open's message."""
        latency, reply, _ = self.client.request(
            "textDocument/hover",
            {"textDocument": {"uri": self.uri}, "position": {"line": 0, "character": 0}},
            self.args.timeout)
        error = reply.get("error")
        if error and error.get("code") != METHOD_NOT_FOUND:
            self.problem(f"hover after the diagnostics: error reply {error}")
        self.figures["open"]["first_request_ms"] = latency * 1000

    def requests(self):
        fractions = [i / (self.args.positions - 1) for i in range(self.args.positions)]
        targets = [(f,) + t for f in fractions for t in targets_at(self.data, f)]
        self.middle = next((t[2] for t in targets if t[0] >= 0.5 and t[1] == "operand"),
                           targets[0][2] if targets else Position(self.data, 0))
        self.not_implemented, self.errors = set(), collections.Counter()
        self.checked, self.samples = collections.Counter(), []
        latencies = {m: [] for m in POSITION_METHODS + ["documentSymbol"]}
        for method in POSITION_METHODS:
            for target in targets:
                if method in self.not_implemented:
                    break
                latency = self.ask_at(method, *target)
                if latency is not None:
                    latencies[method].append(latency)
        latency, reply, size = self.client.request("textDocument/documentSymbol",
                                                   {"textDocument": {"uri": self.uri}},
                                                   self.args.timeout)
        if self.accepted("documentSymbol", reply):
            latencies["documentSymbol"].append(latency)
            self.figures["document_symbol_reply_bytes"] = size
        self.figures["positions"] = len(targets)
        self.figures["requests"] = {
            m: ("not implemented" if m in self.not_implemented else median_summary(latencies[m]))
            for m in latencies}
        self.figures["request_errors"] = dict(self.errors)
        for method, count in self.errors.items():
            if count > 1:
                self.problem(f"{method}: {count} error replies in all")
        self.figures["definitions_checked"] = dict(self.checked)
        self.figures["samples"] = self.samples

    def ask_at(self, method, fraction, kind, position, expected_line):
        """One request at a position; its latency, or None when refused."""
        params = {"textDocument": {"uri": self.uri}, "position": position.lsp()}
        if method == "references":
            params["context"] = {"includeDeclaration": True}
        latency, reply, size = self.client.request(f"textDocument/{method}", params,
                                                   self.args.timeout)
        if not self.accepted(method, reply):
            return None
        self.samples.append({"method": method, "at": fraction, "on": kind,
                             "line": position.line + 1, "ms": latency * 1000,
                             "reply_bytes": size, "empty": not reply.get("result")})
        if method == "definition" and expected_line is not None:
            self.check_definition(reply["result"], fraction, kind, position, expected_line)
        return latency

    def check_definition(self, result, fraction, kind, position, expected_line):
        line = first_target_line(result)
        self.checked["right" if line == expected_line else "wrong"] += 1
        if line != expected_line:
            self.problem(f"definition of the {kind} at line {position.line + 1}"
                         f" (at {fraction:.0%}) points at line"
                         f" {None if line is None else line + 1}, expected {expected_line + 1}")

    def accepted(self, method, reply):
        """Whether a reply holds a result; MethodNotFound marks the method
        not implemented, any other error is a problem."""
        error = reply.get("error")
        if error is None:
            return True
        if error.get("code") == METHOD_NOT_FOUND:
            self.not_implemented.add(method)
        else:
            self.errors[method] += 1
            if self.errors[method] == 1:
                self.problem(f"{method}: error reply {error}")
        return False

    def edits(self):
        if self.sync not in (1, 2):
            self.figures["edits"] = "the server takes no changes"
            return
        finding = self.data.find(FINDING_SITE)
        if self.sync == 2:
            messages = self.incremental_edits(finding)
        else:
            messages = self.full_edits(finding)
        final_version = len(messages) + 1
        first_sent, cpu_before = None, self.client.cpu_seconds()
        for parts in messages:
            started, last_sent = self.client.send(parts=parts)
            first_sent = first_sent or started
        arrived, params = self.client.wait_for(
            lambda: self.client.diagnostics_for(self.uri, final_version, first_sent),
            self.args.timeout, f"diagnostics for version {final_version}")
        cpu_after = self.client.cpu_seconds()
        published = self.client.count_notifications("textDocument/publishDiagnostics", first_sent)
        edits = {"kind": self.figures["sync"], "changes": len(messages),
                 "send_s": last_sent - first_sent,
                 "last_change_to_diagnostics_s": arrived - last_sent,
                 "total_s": arrived - first_sent, "diagnostics_published": published,
                 "final_diagnostics": len(params["diagnostics"])}
        if cpu_before is not None and cpu_after is not None:
            edits["server_cpu_s"] = cpu_after - cpu_before
        opened_with = self.figures["open"]["diagnostics"]
        if finding >= 0 and len(params["diagnostics"]) <= opened_with:
            self.problem(f"the last edit makes a finding, but its diagnostics list"
                         f" {len(params['diagnostics'])} (the document opened with {opened_with})")
        latency, reply, _ = self.client.request(
            "textDocument/hover",
            {"textDocument": {"uri": self.uri}, "position": self.middle.lsp()},
            self.args.timeout)
        error = reply.get("error")
        if error and error.get("code") != METHOD_NOT_FOUND:
            self.problem(f"hover after the edits: error reply {error}")
        edits["hover_after_ms"] = latency * 1000
        self.figures["edits"] = edits

    def change_message(self, version, changes_parts):
        head = json.dumps({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": self.uri, "version": version},
            "contentChanges": "@"}}).encode()
        prefix, suffix = head.split(b'"@"')
        return [prefix] + changes_parts + [suffix]

    def incremental_edits(self, finding):
        """A space typed and deleted again at the end of a line in the middle,
        then the finding made (one character, so no line moves)."""
        line_end = self.data.find(b"\n", self.middle.offset)
        at = Position(self.data, line_end if line_end >= 0 else len(self.data))
        after = {"line": at.line, "character": at.character + 1}
        messages = []
        for i in range(self.args.edits - 1):
            change = ({"range": {"start": at.lsp(), "end": at.lsp()}, "text": " "} if i % 2 == 0
                      else {"range": {"start": at.lsp(), "end": after}, "text": ""})
            messages.append(self.change_message(len(messages) + 2, [json.dumps([change]).encode()]))
        if finding >= 0:
            site = Position(self.data, finding + FINDING_SITE.index(FINDING_FROM))
            end = {"line": site.line, "character": site.character + 1}
            change = {"range": {"start": site.lsp(), "end": end}, "text": FINDING_TO.decode()}
        else:
            change = {"range": {"start": at.lsp(), "end": at.lsp()}, "text": " "}
        messages.append(self.change_message(len(messages) + 2, [json.dumps([change]).encode()]))
        self.figures["edits_note"] = None
        return messages

    def full_edits(self, finding):
        """The whole text each time: with a trailing newline, without, and
        last with the finding (the bytes shared, not copied)."""
        count = min(self.args.edits, self.args.full_sync_edits)
        view = memoryview(self.escaped)
        messages = []
        for i in range(count - 1):
            body = [b'[{"text":"', view, b'\\n"}]' if i % 2 == 0 else b'"}]']
            messages.append(self.change_message(len(messages) + 2, body))
        site = self.escaped.find(FINDING_SITE)
        if finding >= 0 and site >= 0:
            cut = site + FINDING_SITE.index(FINDING_FROM)
            body = [b'[{"text":"', view[:cut], FINDING_TO, view[cut + 1:], b'"}]']
        else:
            body = [b'[{"text":"', view, b'\\n\\n"}]']
        messages.append(self.change_message(len(messages) + 2, body))
        if count < self.args.edits:
            self.figures["edits_note"] = (f"full sync: {count} whole-text changes instead of"
                                          f" {self.args.edits}")
        return messages

    def shut_down(self):
        _, reply, _ = self.client.request("shutdown", None, self.args.timeout)
        if "error" in reply:
            self.problem(f"shutdown: error reply {reply['error']}")
        self.client.notify("exit")
        # `exit` alone must end the server: an editor may keep the pipe open.
        wait = min(self.args.timeout, EXIT_WAIT_S)
        try:
            status = self.client.proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            self.client.proc.stdin.close()
            try:
                then = f"it exited with status {self.client.proc.wait(timeout=wait)}"
            except subprocess.TimeoutExpired:
                self.client.proc.kill()
                then = "it was killed"
            self.figures["exit_status"] = f"none within {wait:g} s of exit"
            self.problem(f"the server did not exit within {wait:g} s of `exit` while its stdin"
                         f" stayed open; once the client closed it, {then}{self.client.log()}")
            return
        self.figures["exit_status"] = status
        if status != 0:
            self.problem(f"exit status {status} after shutdown and exit{self.client.log()}")


# -- the report

def ratio(value, size):
    return value / size if size else float("nan")


def verdict(value, target):
    return "met" if value <= target else "NOT met"


def report(figures, args):
    """The figures as a table: what, measured, [target: verdict]."""
    rows = (open_rows(figures, args) + memory_rows(figures) + request_rows(figures, args)
            + edit_rows(figures))
    if "exit_status" in figures:
        rows.append(("shutdown, exit", f"exit status {figures['exit_status']}", ""))
    width = max(len(r[0]) for r in rows)
    print(f"hlolint lsp benchmark: {args.hlolint}")
    print(f"machine: {machine()}")
    for label, text, target in rows:
        print(f"{label:<{width}}  {text}" + (f"   [{target}]" if target else ""))


def open_rows(figures, args):
    rows = [("document", f"{figures['document_bytes'] / 1e6:.1f} MB,"
             f" {figures['document_lines']} lines (generate_hlo --size {args.size}"
             f" --seed {args.seed})", ""),
            ("text sync", figures.get("sync", "-"), "")]
    opened = figures.get("open")
    if opened:
        target = TARGETS["diagnostics_s"]
        rows.append(("didOpen: client writes the text", f"{opened['send_s']:.3f} s", ""))
        cpu = (f", server CPU {opened['server_cpu_s']:.2f} s" if "server_cpu_s" in opened
               else "")
        rows.append(("didOpen -> publishDiagnostics",
                     f"{opened['diagnostics_s']:.3f} s ({opened['diagnostics']} findings{cpu})",
                     f"<= {target:g} s: {verdict(opened['diagnostics_s'], target)}"))
        if "first_request_ms" in opened:
            rows.append(("  then a hover answered in", f"{opened['first_request_ms']:.1f} ms", ""))
    return rows


def memory_rows(figures):
    size = figures["document_bytes"]
    base = figures.get("memory_before_open", {}).get("rss_bytes", 0)
    rows = []
    for key, label in (("memory_before_open", "memory, before didOpen"),
                       ("memory_at_diagnostics", "memory, as the diagnostics arrive"),
                       ("memory_after_diagnostics", "memory, after one more request"),
                       ("memory_at_end", "memory, at the end")):
        m = figures.get(key)
        if not m:
            continue
        text = f"RSS {m['rss_bytes'] / 1e6:.0f} MB, peak {m['hwm_bytes'] / 1e6:.0f} MB"
        target = ""
        if key != "memory_before_open":
            # Only a settled figure is the document's cost, not the open's garbage.
            settled = key != "memory_at_diagnostics"
            growth = ratio(m["rss_bytes"] - base, size)
            text += (f" = {ratio(m['rss_bytes'], size):.2f}x / {ratio(m['hwm_bytes'], size):.2f}x"
                     f" the document; RSS growth {growth:.2f}x")
            if settled:
                limit = TARGETS["memory_x"]
                target = f"growth <= {limit:g}x: {verdict(growth, limit)}"
        rows.append((label, text, target))
    return rows


def request_rows(figures, args):
    requests = figures.get("requests", {})
    if not requests:
        return []
    rows = [("requests", f"at {figures['positions']} places (name, operand, called"
             f" computation at {args.positions} points), ms min / median / max", "")]
    for method, summary in requests.items():
        target = ""
        if isinstance(summary, dict):
            text = (f"{summary['min_ms']:.1f} / {summary['median_ms']:.1f}"
                    f" / {summary['max_ms']:.1f} ({summary['count']})")
            limit = TARGETS.get(f"{method}_ms")
            if limit:
                target = f"<= {limit:g} ms: {verdict(summary['max_ms'], limit)}"
        else:
            text = summary or "no answers"
        if figures.get("request_errors", {}).get(method):
            text += f", {figures['request_errors'][method]} error replies"
        if method == "documentSymbol" and "document_symbol_reply_bytes" in figures:
            text += f", reply {figures['document_symbol_reply_bytes'] / 1e6:.1f} MB"
        rows.append((f"  {method}", text, target))
    checked = figures.get("definitions_checked")
    if checked:
        rows.append(("  definition lines checked", f"{checked.get('right', 0)} right,"
                     f" {checked.get('wrong', 0)} wrong", ""))
    return rows


def edit_rows(figures):
    edits = figures.get("edits")
    if not isinstance(edits, dict):
        return [("edits", edits, "")] if edits else []
    note = f" ({figures['edits_note']})" if figures.get("edits_note") else ""
    return [("edits", f"{edits['changes']} {edits['kind']} didChange, sent in"
             f" {edits['send_s']:.3f} s{note}", ""),
            ("  last change -> its diagnostics",
             f"{edits['last_change_to_diagnostics_s']:.3f} s (first change ->"
             f" {edits['total_s']:.3f} s; {edits['diagnostics_published']} publishDiagnostics,"
             f" last with {edits['final_diagnostics']} findings;"
             f" server CPU {edits.get('server_cpu_s', float('nan')):.2f} s)", ""),
            ("  hover after the edits", f"answered in {edits['hover_after_ms']:.1f} ms", "")]


def machine():
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores, Linux {platform.release()}"


def available_memory():
    with open("/proc/meminfo") as meminfo:
        for line in meminfo:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    return None


def size_bytes(size):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    unit = size[-1].upper()
    return int(float(size[:-1]) * units[unit]) if unit in units else int(size)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hlolint", required=True, help="the hlolint binary")
    parser.add_argument("--generate",
                        help="bench/generate_hlo (default: in the build --hlolint is in)")
    parser.add_argument("--size", default="100M", help="document size for generate_hlo: N[K|M|G]")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "hlolint-lsp-bench"),
                        help="where generated documents are kept and reused")
    parser.add_argument("--regenerate", action="store_true",
                        help="write the document afresh (after the generator changed)")
    parser.add_argument("--positions", type=int, default=9,
                        help="points from the start to the end where requests are asked")
    parser.add_argument("--edits", type=int, default=1000)
    parser.add_argument("--full-sync-edits", type=int, default=10,
                        help="how many changes to send when the server takes only whole texts")
    parser.add_argument("--timeout", type=float, default=600, help="seconds to wait for any answer")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--smoke", action="store_true",
                        help="a ~1 MB document and few requests: checks the protocol, not speed")
    parser.add_argument("--force", action="store_true", help="run even if memory looks short")
    args = parser.parse_args()
    if args.smoke:
        args.size, args.positions, args.edits, args.full_sync_edits = "1M", 3, 20, 3
        args.timeout = min(args.timeout, 60)
    args.positions = max(2, args.positions)
    args.edits = max(1, args.edits)
    if args.generate is None:
        build = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(args.hlolint))))
        args.generate = os.path.join(build, "bench", "generate_hlo")

    # The client holds the text and its JSON (~2x), the server the message,
    # its parse and the document (~3x) while it opens: ~6x at the peak.
    need, available = 6 * size_bytes(args.size), available_memory()
    if available is not None and need > available and not args.force:
        print(f"lsp_bench: a {args.size} document needs about {need / 2**30:.1f} GiB,"
              f" {available / 2**30:.1f} GiB is available; --force to run anyway")
        return 2

    path = generated_document(args)
    with open(path, "rb") as f:
        data = f.read()
    bench = Bench(args, data, URI_BASE + os.path.basename(path))
    bench.run()
    report(bench.figures, args)
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"size": args.size, "hlolint": args.hlolint, "machine": machine(),
                       "figures": bench.figures, "problems": bench.problems}, out, indent=1)
    for problem in bench.problems:
        print(f"PROBLEM: {problem}")
    return 1 if bench.problems else 0


if __name__ == "__main__":
    sys.exit(main())

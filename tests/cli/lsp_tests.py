#!/usr/bin/env python3
"""`hlolint lsp` end to end, as an editor drives it: a process over pipes
with real framing, each request sent after the answer before it arrived.
Every read has a deadline, so a server that hangs fails the test instead
of stalling it."""
import argparse
import json
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading

URI = "file:///lsp-cli-test/nav.hlo"
TIMEOUT_S = 30

# sum's written shape is not what add makes of its operands (verify-shape).
MODULE = """HloModule nav

add_f32 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

ENTRY main {
  p0 = f32[4]{0} parameter(0), metadata={op_name="jit(f)/x" source_file="f.py" source_line=3}
  p1 = f32[4]{0} parameter(1), sharding={replicated}
  sum = f32[5]{0} add(p0, p1)
  zero = f32[] constant(0)
  total = f32[] reduce(p1, zero), dimensions={0}, to_apply=add_f32
  ROOT out = (f32[5]{0}, f32[4]{0}, f32[]) tuple(sum, p1, total)
}
"""
LINES = MODULE.split("\n")


def position(line, token, nth=0):
    """The LSP position of the nth `token` on 0-based `line` (ASCII text)."""
    at = -1
    for _ in range(nth + 1):
        at = LINES[line].index(token, at + 1)
    return {"line": line, "character": at}


def token_range(line, token, nth=0):
    start = position(line, token, nth)
    return {"start": start, "end": {"line": line, "character": start["character"] + len(token)}}


def location(line, token, nth=0):
    return {"uri": URI, "range": token_range(line, token, nth)}


def frame(message):
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class Client:
    def __init__(self, hlolint, *args):
        self.server = subprocess.Popen([hlolint, "lsp", *args], stdin=subprocess.PIPE,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.inbox = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        stream = self.server.stdout
        while True:
            header = b""
            while not header.endswith(b"\r\n\r\n"):
                byte = stream.read(1)
                if not byte:
                    self.inbox.put(None)
                    return
                header += byte
            length = int(header.split(b":")[1].split(b"\r\n")[0])
            self.inbox.put(json.loads(stream.read(length)))

    def send(self, message):
        self.server.stdin.write(frame(message) if isinstance(message, dict) else message)
        self.server.stdin.flush()

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def next(self):
        try:
            message = self.inbox.get(timeout=TIMEOUT_S)
        except queue.Empty:
            fail(f"no message from the server within {TIMEOUT_S} s")
        if message is None:
            fail("the server closed its output")
        return message

    def request(self, id, method, params):
        self.send({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
        message = self.next()
        expect(message.get("id") == id, f"the answer to request {id} ({method}), got {message}")
        return message

    def result(self, id, method, params):
        reply = self.request(id, method, params)
        expect("result" in reply, f"a result for {method}, got {reply}")
        return reply["result"]

    def finish(self):
        self.server.stdin.close()
        status = self.server.wait(timeout=TIMEOUT_S)
        return status, self.server.stderr.read().decode()


def fail(what):
    print("FAILED:", what)
    sys.exit(1)


def expect(condition, what):
    if not condition:
        fail(what)


def expect_equal(got, want, what):
    expect(got == want, f"{what}:\n  got  {json.dumps(got)}\n  want {json.dumps(want)}")


def doc(extra=None):
    params = {"textDocument": {"uri": URI}}
    params.update(extra or {})
    return params


def editing_session(hlolint):
    client = Client(hlolint)
    capabilities = client.result(1, "initialize", {"capabilities": {}})["capabilities"]
    expect_equal(capabilities, {
        "positionEncoding": "utf-16",
        "textDocumentSync": {"openClose": True, "change": 2, "save": {"includeText": False}},
        "hoverProvider": True, "definitionProvider": True, "referencesProvider": True,
        "documentHighlightProvider": True, "documentSymbolProvider": True,
        "workspaceSymbolProvider": True, "codeActionProvider": {"codeActionKinds": ["quickfix"]},
    }, "capabilities")
    client.notify("initialized", {})
    client.notify("textDocument/didOpen", {"textDocument": {
        "uri": URI, "languageId": "hlo", "version": 1, "text": MODULE}})
    expect_equal(client.next(), {"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics",
                                 "params": {"uri": URI, "version": 1, "diagnostics": [{
                                     "range": token_range(11, "sum"), "severity": 1,
                                     "code": "verify-shape", "source": "hlolint",
                                     "message": "[ShapeVerifier::HandleElementwiseBinary] "
                                                "Expected instruction to have shape equal to "
                                                "f32[4], actual shape is f32[5]"}]}},
                 "the verify-shape finding")

    # Navigation: an operand to its definition, a to_apply= to its computation.
    expect_equal(client.result(2, "textDocument/definition",
                               doc({"position": position(11, "p1")})),
                 location(10, "p1"), "definition of an operand")
    expect_equal(client.result(3, "textDocument/definition",
                               doc({"position": position(13, "add_f32")})),
                 location(2, "add_f32"), "definition of a to_apply= computation")
    expect_equal(client.result(4, "textDocument/references",
                               doc({"position": position(10, "p1"),
                                    "context": {"includeDeclaration": False}})),
                 [location(11, "p1"), location(13, "p1"), location(14, "p1")],
                 "the users of p1")
    expect_equal(client.result(5, "textDocument/references",
                               doc({"position": position(2, "add_f32"),
                                    "context": {"includeDeclaration": True}})),
                 [location(2, "add_f32"), location(13, "add_f32")],
                 "the computation and its caller")
    expect_equal(client.result(6, "textDocument/documentHighlight",
                               doc({"position": position(12, "zero")})),
                 [{"range": token_range(12, "zero"), "kind": 3},
                  {"range": token_range(13, "zero"), "kind": 2}], "highlights of zero")

    expect_equal(client.result(7, "textDocument/hover", doc({"position": position(10, "p1")})),
                 {"contents": {"kind": "markdown", "value":
                               "`%p1` = `f32[4]{0}` **parameter**\n\n3 users\n\n"
                               "sharding: `{replicated}`"}}, "hover on a parameter")
    expect_equal(client.result(8, "textDocument/hover", doc({"position": position(11, "sum")})),
                 {"contents": {"kind": "markdown", "value":
                               "`%sum` = `f32[5]{0}` **add**\n\noperands:\n"
                               "- `%p0` `f32[4]{0}`\n- `%p1` `f32[4]{0}`\n\n1 user\n\n---\n\n"
                               "**verify-shape** (error): result shape differs from the shape "
                               "XLA infers, or operands XLA's shape inference rejects"}},
                 "hover on a finding")
    hover_p0 = client.result(9, "textDocument/hover", doc({"position": position(11, "p0")}))
    expect(hover_p0["contents"]["value"].endswith("from `jit(f)/x` at `f.py:3`"),
           f"hover shows where p0 came from: {hover_p0}")

    symbols = client.result(10, "textDocument/documentSymbol", doc())
    expect_equal([(s["name"], s["kind"]) for s in symbols], [("nav", 2)], "one module")
    expect_equal([(c["name"], c["detail"], [i["name"] for i in c["children"]])
                  for c in symbols[0]["children"]],
                 [("add_f32", "3 instructions", ["a", "b", "s"]),
                  ("main", "ENTRY, 6 instructions", ["p0", "p1", "sum", "zero", "total", "out"])],
                 "computations and their instructions")
    expect_equal(symbols[0]["children"][1]["children"][2],
                 {"name": "sum", "detail": "add f32[5]{0}", "kind": 13,
                  "range": {"start": {"line": 11, "character": 0},
                            "end": {"line": 12, "character": 0}},
                  "selectionRange": token_range(11, "sum")}, "an instruction's symbol")
    expect_equal(client.result(11, "workspace/symbol", {"query": "ADD"}),
                 [{"name": "add_f32", "kind": 12, "location": location(2, "add_f32"),
                   "containerName": "nav"}], "workspace symbols")

    actions = client.result(12, "textDocument/codeAction", doc({
        "range": token_range(11, "sum"), "context": {"diagnostics": []}}))
    expect_equal(actions, [{"title": "Suppress verify-shape on this line", "kind": "quickfix",
                            "edit": {"changes": {URI: [{
                                "range": {"start": {"line": 11, "character": 0},
                                          "end": {"line": 11, "character": 0}},
                                "newText": "  // hlolint: ignore[verify-shape] TODO: why this "
                                           "finding is expected here\n"}]}}}],
                 "the suppression action")

    # Fix the shapes with two incremental edits: the finding goes.
    client.notify("textDocument/didChange", {
        "textDocument": {"uri": URI, "version": 2},
        "contentChanges": [{"range": token_range(11, "f32[5]"), "text": "f32[4]"},
                           {"range": token_range(14, "f32[5]"), "text": "f32[4]"}]})
    expect_equal(client.next(), {"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics",
                                 "params": {"uri": URI, "version": 2, "diagnostics": []}},
                 "no finding after the edit")

    # Garbage, an unknown method and a request about a closed document.
    client.send(b"Content-Length: 5\r\n\r\n{oops")
    reply = client.next()
    expect(reply.get("id", 0) is None and reply["error"]["code"] == -32700, f"parse error: {reply}")
    reply = client.request(13, "no/such/method", {})
    expect_equal(reply["error"], {"code": -32601, "message": "unknown method: no/such/method"},
                 "MethodNotFound")
    client.notify("textDocument/didClose", {"textDocument": {"uri": URI}})
    expect_equal(client.next()["params"], {"uri": URI, "diagnostics": []}, "cleared on close")
    reply = client.request(14, "textDocument/hover", doc({"position": {"line": 0, "character": 0}}))
    expect_equal(reply["error"], {"code": -32602, "message": "the document is not open"},
                 "hover on a closed document")

    expect_equal(client.request(15, "shutdown", None),
                 {"jsonrpc": "2.0", "id": 15, "result": None}, "shutdown")
    client.notify("exit", None)
    # The server exits although the client keeps its input open.
    try:
        status = client.server.wait(timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        fail("the server did not exit after `exit` while its input stayed open")
    expect(status == 0, f"exit status 0 after shutdown and exit, got {status}")
    log = client.finish()[1]
    expect(re.fullmatch(r"hlolint lsp: byte \d+: the body is not JSON\n", log), f"the log: {log!r}")


def quick_edits_session(hlolint):
    """A thousand edits as fast as the pipe takes them: linted when quiet."""
    client = Client(hlolint, "--debounce-ms", "100")
    client.result(1, "initialize", {"capabilities": {}})
    client.notify("textDocument/didOpen", {"textDocument": {
        "uri": URI, "languageId": "hlo", "version": 1, "text": MODULE}})
    expect(client.next()["params"]["version"] == 1, "diagnostics of the opened text")
    broken, fixed = token_range(11, "f32[5]"), "f32[4]"
    for version in range(2, 1002):
        # Toggle the shape; the last toggle (version 1001) leaves it fixed.
        text = fixed if version % 2 == 1 else "f32[5]"
        client.notify("textDocument/didChange", {
            "textDocument": {"uri": URI, "version": version},
            "contentChanges": [{"range": broken, "text": text}]})
    client.notify("textDocument/didChange", {
        "textDocument": {"uri": URI, "version": 1002},
        "contentChanges": [{"range": token_range(14, "f32[5]"), "text": fixed}]})
    published = client.next()
    while published["params"]["version"] != 1002:
        published = client.next()  # an earlier version linted during a pause
    expect_equal(published["params"]["diagnostics"], [], "the final text is clean")
    expect(client.result(2, "textDocument/hover", doc({"position": position(11, "sum")}))
           ["contents"]["value"].startswith("`%sum` = `f32[4]{0}`"), "the edits all applied")
    client.request(3, "shutdown", None)
    client.notify("exit", None)
    expect(client.finish()[0] == 0, "exit status 0")


def usage_errors(hlolint):
    """A wrong option is a usage error, as on the command line."""
    for args, message in [(["--no-such-option"], "The following argument was not expected: --no-such-option"),
                          (["--severity-override", "verify"],
                           "--severity-override: expected RULE=error|warning|note, got 'verify'")]:
        run = subprocess.run([hlolint, "lsp", *args], capture_output=True, text=True, timeout=TIMEOUT_S)
        expect(run.returncode == 2, f"exit status 2 for {args}, got {run.returncode}")
        expect(run.stderr.startswith("hlolint lsp: error: " + message), f"{args}: {run.stderr!r}")


def server_beside_hlolint(hlolint):
    """`hlolint lsp` starts the hlolint-lsp in the directory hlolint really
    runs from (through a symbolic link too), and says so when it is not there."""
    with tempfile.TemporaryDirectory() as tmp:
        link = os.path.join(tmp, "linked-hlolint")
        os.symlink(os.path.abspath(hlolint), link)
        run = subprocess.run([link, "lsp", "--help"], capture_output=True, text=True, timeout=TIMEOUT_S)
        expect(run.returncode == 0, f"lsp --help through a link: {run.returncode} {run.stderr!r}")
        expect(run.stdout.startswith("hlolint lsp: the language server"), f"help: {run.stdout!r}")

        alone = os.path.join(tmp, "hlolint")
        with open(hlolint, "rb") as source, open(alone, "wb") as copy:
            copy.write(source.read())
        os.chmod(alone, 0o755)
        run = subprocess.run([alone, "lsp"], capture_output=True, text=True, timeout=TIMEOUT_S)
        expect(run.returncode == 2, f"exit status 2 without hlolint-lsp, got {run.returncode}")
        expect_equal(run.stderr, "hlolint lsp: error: cannot start the language server "
                     f"{os.path.realpath(tmp)}/hlolint-lsp: No such file or directory\n",
                     "without hlolint-lsp")


def hostile_sessions(hlolint):
    # Garbage without a header: one parse error, status 1, no hang.
    client = Client(hlolint)
    client.send(b"\x00\xff garbage without a header")
    client.server.stdin.close()
    reply = client.next()
    expect(reply["error"]["code"] == -32700, f"parse error on garbage: {reply}")
    expect(client.server.wait(timeout=TIMEOUT_S) == 1, "exit status 1 on garbage")

    # The client disappears in the middle of a message.
    client = Client(hlolint)
    client.result(1, "initialize", {"capabilities": {}})
    client.send(b"Content-Length: 100\r\n\r\n{\"jsonrpc\": \"2.0\"")
    client.server.stdin.close()
    expect(client.server.wait(timeout=TIMEOUT_S) == 1, "exit status 1 when the client goes")

    # Positions and documents that name nothing are answered, not failed.
    client = Client(hlolint)
    client.result(1, "initialize", {"capabilities": {}})
    client.notify("textDocument/didOpen", {"textDocument": {
        "uri": URI, "languageId": "hlo", "version": 1, "text": "not HLO at all \xff\n"}})
    expect(client.next()["params"]["diagnostics"][0]["code"] == "unsupported-format",
           "not HLO: an unsupported-format finding")
    for id, method, at in [(2, "textDocument/hover", {"line": 99999, "character": 5}),
                           (3, "textDocument/definition", {"line": 0, "character": 99999}),
                           (4, "textDocument/references", {"line": -1, "character": 0})]:
        reply = client.request(id, method, doc({"position": at, "context": {}}))
        expect(reply.get("result") in (None, []), f"{method} at {at}: {reply}")
    client.request(5, "shutdown", None)
    client.notify("exit", None)
    expect(client.finish()[0] == 0, "exit status 0")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--hlolint", required=True)
    args = parser.parse_args()
    editing_session(args.hlolint)
    quick_edits_session(args.hlolint)
    usage_errors(args.hlolint)
    server_beside_hlolint(args.hlolint)
    hostile_sessions(args.hlolint)
    print("lsp: ok")


if __name__ == "__main__":
    main()

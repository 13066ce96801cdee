#!/usr/bin/env python3
"""`hlolint lsp` end to end: a session over pipes with real framing, as an
editor runs it. Each read has a deadline, so a server that hangs fails the
test instead of stalling it."""
import argparse
import json
import subprocess
import sys
import threading

MODULE = """HloModule small

ENTRY main {
  p0 = f32[4]{0} parameter(0)
  p1 = f32[4]{0} parameter(1)
  sum = f32[5]{0} add(p0, p1)
  ROOT out = (f32[5]{0}, f32[4]{0}) tuple(sum, p1)
}
"""
URI = "file:///lsp-cli-test/small.hlo"
TIMEOUT_S = 30


def frame(message):
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read_messages(stream):
    """Every framed message the server wrote, until it closed stdout."""
    messages = []
    while True:
        header = b""
        while not header.endswith(b"\r\n\r\n"):
            byte = stream.read(1)
            if not byte:
                return messages
            header += byte
        length = int(header.split(b":")[1].split(b"\r\n")[0])
        messages.append(json.loads(stream.read(length)))


def run_session(hlolint, requests):
    server = subprocess.Popen([hlolint, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE)
    result = {}
    reader = threading.Thread(target=lambda: result.update(messages=read_messages(server.stdout)))
    reader.start()
    server.stdin.write(b"".join(frame(r) if isinstance(r, dict) else r for r in requests))
    server.stdin.close()
    status = server.wait(timeout=TIMEOUT_S)
    reader.join(timeout=TIMEOUT_S)
    return status, result.get("messages"), server.stderr.read().decode()


def expect(condition, what):
    if not condition:
        print("FAILED:", what)
        sys.exit(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--hlolint", required=True)
    args = parser.parse_args()

    status, messages, log = run_session(args.hlolint, [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": URI, "languageId": "hlo", "version": 1, "text": MODULE}}},
        {"jsonrpc": "2.0", "id": 2, "method": "no/such/method"},
        b"Content-Length: 5\r\n\r\n{oops",
        {"jsonrpc": "2.0", "id": 3, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    ])
    expect(status == 0, f"exit status 0 after shutdown and exit, got {status}: {log}")
    expect(len(messages) == 5, f"five messages, got {messages}")
    expect(messages[0]["result"]["capabilities"]["textDocumentSync"]["change"] == 1,
           f"full sync announced: {messages[0]}")
    diagnostics = messages[1]["params"]["diagnostics"]
    expect(messages[1]["method"] == "textDocument/publishDiagnostics" and
           [d["code"] for d in diagnostics] == ["verify-shape"] and
           diagnostics[0]["range"]["start"] == {"line": 5, "character": 2},
           f"the verify-shape finding: {messages[1]}")
    expect(messages[2]["error"]["code"] == -32601, f"MethodNotFound: {messages[2]}")
    expect(messages[3]["error"]["code"] == -32700 and messages[3]["id"] is None,
           f"parse error: {messages[3]}")
    expect(messages[4] == {"jsonrpc": "2.0", "id": 3, "result": None}, f"shutdown: {messages[4]}")

    # Garbage, then the pipe closes: one parse error, status 1, no hang.
    status, messages, _ = run_session(args.hlolint, [b"\x00\xff garbage without a header"])
    expect(status == 1, f"exit status 1 on garbage, got {status}")
    expect(len(messages) == 1 and messages[0]["error"]["code"] == -32700, f"{messages}")
    print("lsp: ok")


if __name__ == "__main__":
    main()

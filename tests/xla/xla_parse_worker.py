#!/usr/bin/env python3
"""XLA's own HLO text parser as a long-lived worker process (runs in the jax
environment; tests/xla/parser_oracle.py drives it).

Protocol, one line each way, one request in flight at a time: the driver
writes a file path; the worker reads the file, parses it with jaxlib's
`hlo_module_from_text` (xla::ParseAndReturnUnverifiedModule,
xla/python/hlo.cc) and answers one JSON line: {"ok": true} or
{"ok": false, "error": "<XLA's status message>"}.

A file holding `// -----` lines (lit tests run with --split-input-file) is
cut there first, as hlo-opt does, and each non-blank piece is parsed on its
own: the file is accepted when every piece is.

XLA's parser aborts the process on some inputs (CHECK failures in
HloInstruction::Create*). So the worker is a fork server: the parent imports
jaxlib's _hlo module once and forks a child that serves requests; when a
child dies, the parent answers the request it was working on with
{"ok": false, "crash": "abort", "error": "xla-abort: <XLA's F-line>"} and
forks the next child (far cheaper than starting a new worker, which would
import jaxlib again).
"""
import json
import os
import re
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

# hlolint's split marker (lib/lex/lexer.cc SkipLineComment): a line holding
# only `// -----`, blanks around it allowed.
SPLIT = re.compile(r"^[ \t]*//[ ]*-----[ \t]*$", re.M)


def parse(hlo, text):
    pieces = SPLIT.split(text) if SPLIT.search(text) else [text]
    for piece in pieces:
        if len(pieces) > 1 and not piece.strip():
            continue
        try:
            hlo.hlo_module_from_text(piece)
        except Exception as e:  # XLA's parser rejected it
            return {"ok": False, "error": str(e)[:2000]}
    return {"ok": True}


def read_text(path):
    with open(path, "rb") as f:
        data = f.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        # The binding takes a Python str and hands XLA its UTF-8 bytes: bytes
        # that are not UTF-8 cannot reach XLA unchanged. Latin-1 keeps each
        # byte one character (non-ASCII ones become two bytes for XLA).
        return data.decode("latin-1")


def read_line(fd):
    buf = bytearray()
    while True:
        c = os.read(fd, 1)
        if not c:
            return None
        if c == b"\n":
            return buf.decode("utf-8", errors="surrogateescape")
        buf += c


def serve(hlo, busy_fd):
    """Child: answer requests until stdin closes. busy_fd's first byte is 1
    while a request is being worked on."""
    out = sys.stdout
    while True:
        path = read_line(0)
        if path is None:
            os._exit(0)
        if not path:
            continue
        os.pwrite(busy_fd, b"1", 0)
        try:
            r = parse(hlo, read_text(path))
        except OSError as e:
            r = {"ok": False, "error": f"read error: {e}", "io": True}
        out.write(json.dumps(r) + "\n")
        out.flush()
        os.pwrite(busy_fd, b"0", 0)


def main():
    try:
        import jaxlib._hlo as hlo  # much quicker to import than all of jax
    except ImportError:
        from jax._src.lib import hlo
    log = tempfile.TemporaryFile()
    busy = tempfile.TemporaryFile()
    while True:
        log.seek(0)
        log.truncate()
        os.pwrite(busy.fileno(), b"0", 0)
        pid = os.fork()
        if pid == 0:
            os.dup2(log.fileno(), 2)
            serve(hlo, busy.fileno())
        _, status = os.waitpid(pid, 0)
        if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0:
            return 0  # stdin closed
        if os.pread(busy.fileno(), 1, 0) != b"1":
            continue  # died between requests: nothing to answer
        log.seek(0)
        text = log.read().decode("utf-8", errors="replace")
        fatal = [l for l in text.splitlines() if re.match(r"^[FE]\d{4} ", l) or "Check failed" in l]
        msg = fatal[0] if fatal else (text.strip().splitlines() or ["(no message)"])[-1]
        msg = re.sub(r"^[FE]\d{4} [\d:. ]+\d+ ", "", msg)
        sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
        sys.stdout.write(json.dumps({"ok": False, "crash": "abort",
                                     "error": f"xla-abort (signal {sig}): {msg[:500]}"}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())

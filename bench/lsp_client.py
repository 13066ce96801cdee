"""A language server client over pipes for bench/lsp_bench.py: LSP's
Content-Length framing, replies matched to requests by id, notifications
kept with the time they arrived. Python's standard library only."""
import collections
import json
import os
import queue
import subprocess
import threading
import time


class ProtocolError(Exception):
    pass


def message(method, params):
    """A JSON-RPC message; `params` left out where the method takes none."""
    body = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        body["params"] = params
    return body


class LspClient:
    """A language server over pipes. A reader thread parses what the server
    writes (replies matched by id, notifications kept with their arrival
    time); a writer thread sends, so that answering a server's request never
    waits behind a large message in flight."""

    def __init__(self, argv):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.cond = threading.Condition()
        self.replies = {}            # id -> (arrival time, message, body bytes)
        self.notifications = []      # (arrival time, message)
        self.orphan_errors = []      # error replies without an id
        self.closed = False
        self.next_id = 1
        self.stderr_tail = collections.deque(maxlen=20)
        self.outgoing = queue.Queue()
        for target in (self._read, self._write, self._drain_stderr):
            threading.Thread(target=target, daemon=True).start()

    # -- threads
    def _read(self):
        out = self.proc.stdout
        try:
            while True:
                length = None
                while True:
                    line = out.readline()
                    if not line:
                        return
                    if line in (b"\r\n", b"\n"):
                        break
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value.strip())
                if length is None:
                    raise ProtocolError("a message without Content-Length")
                body = out.read(length)
                arrived = time.perf_counter()
                if len(body) < length:
                    return
                self._dispatch(arrived, json.loads(body), len(body))
        finally:
            with self.cond:
                self.closed = True
                self.cond.notify_all()

    def _dispatch(self, arrived, message, size):
        if "method" in message and "id" in message:
            self._answer_server_request(message)
            return
        with self.cond:
            if "method" in message:
                self.notifications.append((arrived, message))
            elif message.get("id") is None:
                self.orphan_errors.append(message)
            else:
                self.replies[message["id"]] = (arrived, message, size)
            self.cond.notify_all()

    def _answer_server_request(self, message):
        # workspace/configuration wants one value per item; the rest (progress
        # tokens, registrations) take null.
        result = None
        if message["method"] == "workspace/configuration":
            result = [None] * len(message.get("params", {}).get("items", []))
        self.send({"jsonrpc": "2.0", "id": message["id"], "result": result}, wait=False)

    def _write(self):
        stdin = self.proc.stdin
        while True:
            parts, done = self.outgoing.get()
            started = time.perf_counter()
            try:
                stdin.write(b"Content-Length: %d\r\n\r\n" % sum(len(p) for p in parts))
                for part in parts:
                    stdin.write(part)
                stdin.flush()
                error = None
            except OSError as e:
                error = e
            if done is not None:
                done.put((started, time.perf_counter(), error))

    def _drain_stderr(self):
        for line in self.proc.stderr:
            self.stderr_tail.append(line.decode(errors="replace").rstrip())

    # -- sending
    def send(self, message=None, parts=None, wait=True):
        """Sends a message (or its body in parts); returns when it was handed
        to the pipe and when the pipe took its last byte."""
        if parts is None:
            parts = [json.dumps(message).encode()]
        done = queue.Queue() if wait else None
        self.outgoing.put((parts, done))
        if not wait:
            return None
        started, finished, error = done.get()
        if error is not None:
            raise ProtocolError(f"the server stopped reading ({error}){self.ended()}")
        return started, finished

    def notify(self, method, params=None, wait=True):
        return self.send(message(method, params), wait=wait)

    def request(self, method, params, timeout):
        """Returns (latency in seconds, reply, reply size in bytes)."""
        with self.cond:
            rid = self.next_id
            self.next_id += 1
        started, _ = self.send(dict(message(method, params), id=rid))
        arrived, reply, size = self.wait_for(lambda: self.replies.pop(rid, None), timeout,
                                             f"the reply to {method}")
        return arrived - started, reply, size

    def wait_for(self, find, timeout, what):
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                found = find()
                if found is not None:
                    return found
                if self.closed:
                    break
                left = deadline - time.monotonic()
                if left <= 0:
                    raise ProtocolError(f"waited {timeout:.0f} s in vain for {what}{self.log()}")
                self.cond.wait(left)
        raise ProtocolError(f"the server closed its output while the client waited for {what}"
                            f"{self.ended()}")

    def ended(self):
        """What the server left behind when it stopped: status, errors, log."""
        try:
            status = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            status = "none yet"
        with self.cond:
            self.cond.wait_for(lambda: self.closed, 5)  # the reader has all it wrote
            errors = "".join(f"; it replied {m.get('error')}" for m in self.orphan_errors[:3])
        return f" (exit status {status}){errors}{self.log()}"

    def diagnostics_for(self, uri, version, after):
        """The first publishDiagnostics for uri that arrived after `after` and
        carries `version` (or no version: a server need not send one)."""
        for arrived, message in self.notifications:
            params = message.get("params", {})
            if (message["method"] == "textDocument/publishDiagnostics" and arrived >= after
                    and params.get("uri") == uri and params.get("version", version) == version):
                return arrived, params
        return None

    def count_notifications(self, method, after):
        return sum(1 for t, m in self.notifications if m["method"] == method and t >= after)

    def log(self):
        return "; server log: " + " | ".join(self.stderr_tail) if self.stderr_tail else ""

    def cpu_seconds(self):
        """User plus system CPU time of the server, all its threads, or None
        once it is gone: steadier than wall time on a shared machine."""
        try:
            with open(f"/proc/{self.proc.pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except OSError:
            return None

    def memory(self):
        """VmRSS and VmHWM of the server in bytes, or None once it is gone."""
        try:
            fields = {}
            with open(f"/proc/{self.proc.pid}/status") as status:
                for line in status:
                    name, _, value = line.partition(":")
                    if name in ("VmRSS", "VmHWM"):
                        fields[name] = int(value.split()[0]) * 1024
            return fields
        except OSError:
            return None

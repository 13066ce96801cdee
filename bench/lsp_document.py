"""The benchmark's document for bench/lsp_bench.py: its text as a JSON
string, and the places to ask about (found by `%name` syntax, as XLA dumps
and bench/generate_hlo write it) with the lines their definitions are on."""
import json
import re

INSTRUCTION_LINE = re.compile(rb"^[ \t]*(?:ROOT[ \t]+)?%([\w.\-]+)[ \t]*=[ \t]", re.M)
OPERAND = re.compile(rb"[(,\s]%([\w.\-]+)")
CALLED = re.compile(rb"\b(?:calls|to_apply|condition|body)=%([\w.\-]+)")


def json_string_content(data):
    """`data` (UTF-8) as the inside of a JSON string, without decoding it when
    it is plain text (a gigabyte of str would cost the client gigabytes)."""
    if data.translate(None, bytes(range(0x20, 256)) + b"\n\t\r"):
        return json.dumps(data.decode(), ensure_ascii=False)[1:-1].encode()
    for raw, escaped in ((b"\\", b"\\\\"), (b'"', b'\\"'), (b"\n", b"\\n"),
                         (b"\t", b"\\t"), (b"\r", b"\\r")):
        data = data.replace(raw, escaped)
    return data


class Position:
    """A place in the document: byte offset, LSP line and character."""

    def __init__(self, data, offset):
        self.offset = offset
        self.line = data.count(b"\n", 0, offset)
        line_start = data.rfind(b"\n", 0, offset) + 1
        # LSP counts UTF-16 code units.
        prefix = data[line_start:offset].decode(errors="replace")
        self.character = len(prefix.encode("utf-16-le")) // 2

    def lsp(self):
        return {"line": self.line, "character": self.character}


def name_position(data, name_offset, name_length):
    # Inside the name, not on its first character: a server may or may not
    # count the leading % as part of the word.
    return Position(data, name_offset + min(1, name_length - 1))


def definition_line(data, name, before):
    """The line of `%name = ...` (searched back from `before` first, as
    definitions precede uses), or of the computation `%name (...) -> ...`."""
    for needle in (b" %" + name + b" = ", b"\t%" + name + b" = "):
        found = data.rfind(needle, 0, before)
        if found < 0:
            found = data.find(needle, before)
        if found >= 0:
            return data.count(b"\n", 0, found)
    for needle in (b"\n%" + name + b" ", b"\nENTRY %" + name + b" "):
        found = data.find(needle)
        if found >= 0:
            return data.count(b"\n", 0, found + 1)
    return None


def instruction_with_operand(data, start):
    """The first instruction line at or after `start` that has a %operand."""
    for match in INSTRUCTION_LINE.finditer(data, start):
        line_end = data.find(b"\n", match.end())
        line_end = len(data) if line_end < 0 else line_end
        paren = data.find(b"(", match.end(), line_end)
        if paren < 0:
            continue
        operand = OPERAND.search(data, paren, line_end)
        if operand:
            return match, operand
    return None


def targets_at(data, fraction):
    """An instruction's name, one of its operands and a called computation
    at or after `fraction` of the document (before it, at the very end)."""
    start = min(int(fraction * len(data)), len(data) - 1)
    found = instruction_with_operand(data, start)
    called = CALLED.search(data, start)
    window = max(0, start - (4 << 20))
    if found is None:
        found = last(lambda s: instruction_with_operand(data, s), window, start)
    if called is None:
        called = last(lambda s: CALLED.search(data, s), window, start)
    targets = []
    if found:
        name, operand = found
        targets.append(("name", name_position(data, name.start(1), len(name.group(1))), None))
        targets.append(("operand", name_position(data, operand.start(1), len(operand.group(1))),
                        definition_line(data, operand.group(1), operand.start(1))))
    if called:
        targets.append(("computation", name_position(data, called.start(1), len(called.group(1))),
                        definition_line(data, called.group(1), called.start(1))))
    return targets


def last(search_from, lo, hi):
    """The last match of search_from(offset) starting in [lo, hi)."""
    result, offset = None, lo
    while offset < hi:
        found = search_from(offset)
        first = found[0] if isinstance(found, tuple) else found
        if found is None or first.start() >= hi:
            break
        result, offset = found, first.end()
    return result

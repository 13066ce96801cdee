#!/usr/bin/env python3
"""Writes the libFuzzer dictionary of HLO tokens (tests/fuzz/hlo.dict).

  tests/fuzz/make_dict.py > tests/fuzz/hlo.dict

Opcodes, attribute names and element types come from the IR headers and rule
ids from docs/rules/, so the dictionary follows them; keywords, enum values and punctuation are listed
here. Run it again after adding opcodes or attributes.
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")

KEYWORDS = [
    "HloModule", "ENTRY", "ROOT", "true", "false", "inf", "-inf", "nan", "-nan",
    "FileNames", "FileLocations", "FunctionNames", "StackFrames",
    "maximal", "replicated", "manual", "last_tile_dim_replicate", "last_tile_dims",
    "shard_as", "shard_like", "unknown", "unreduced", "devices=", "device=",
    "is_scheduled=true", "entry_computation_layout=", "input_output_alias=",
    "buffer_donor=", "alias_passthrough_params=true", "replica_count=", "num_partitions=",
    "frontend_attributes=", "may-alias", "must-alias", "kLoop", "kInput", "kOutput", "kCustom",
    "API_VERSION_ORIGINAL", "API_VERSION_STATUS_RETURNING", "API_VERSION_TYPED_FFI",
    "EQ", "NE", "LT", "LE", "GT", "GE", "TOTALORDER", "FLOAT", "SIGNED", "UNSIGNED",
    "b01f_01io->b01f", "bf01_oi01->bf01", "0x1_1x0", "1x1", "window={size=",
    "stride=", "pad=", "lhs_dilate=", "rhs_dilate=", "lhs_batch_dims=",
    "lhs_contracting_dims=", "rhs_batch_dims=", "rhs_contracting_dims=",
    "op_type=", "op_name=", "source_file=", "source_line=", "stack_frame_id=",
    "file_name_id=", "function_name_id=", "line=", "end_line=", "column=", "end_column=",
    "file_location_id=", "parent_frame_id=", "T(8,128)", "E(", "S(", "L(", "*", "SC",
    "// -----", "/*", "*/", "//", "\\n", "\\\"", "\\\\", "{}", "()", "[]", "<=[",
    "...", "->", "<=", "%", "/*index=5*/", "_xla_", "\"known_trip_count\"",
    "{\"n\":\"1\"}", "9223372036854775807", "-9223372036854775808",
    "18446744073709551616", "2147483648", "1e308", "0x7ff", "4294967296",
]
PUNCTUATION = list("=,:*?#+~[]{}()<>%.\"/-\n ")


def quoted(token):
    out = []
    for ch in token:
        if ch == "\\" or ch == '"':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\x0A")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def names(header, pattern):
    with open(os.path.join(ROOT, header), encoding="utf-8") as f:
        return re.findall(pattern, f.read())


def main():
    tokens = []
    tokens += names("lib/ir/opcode.h", r'V\(k\w+,\s*"([^"]+)"')
    tokens += [n + "=" for n in names("lib/ir/attr_name.h", r'V\(k\w+,\s*"([^"]+)"')]
    tokens += names("lib/ir/primitive_type.h", r'V\(k\w+,\s*"([^"]+)"')
    rules = sorted(f[:-3] for f in os.listdir(os.path.join(ROOT, "docs", "rules")) if f.endswith(".md"))
    tokens += ["// hlolint: ignore[", "ALL"] + rules
    tokens += KEYWORDS + PUNCTUATION
    seen = set()
    print("# libFuzzer dictionary of HLO tokens; written by tests/fuzz/make_dict.py.")
    for token in tokens:
        if token in seen:
            continue
        seen.add(token)
        print(quoted(token))


if __name__ == "__main__":
    sys.exit(main())

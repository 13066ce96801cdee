#!/usr/bin/env python3
"""Writes the fuzzer's seed corpus: one small HLO file per module we wrote.

  tests/fuzz/make_seeds.py --out DIR [--generate-hlo BUILD/bench/generate_hlo]

Seeds come from examples/*.hlo, the golden tests and CLI test inputs (split
at `// -----`), the HLO raw strings of the unit tests (R"(...)" literals that
hold an `ENTRY`), and, when --generate-hlo is given, a few small generated
modules in both styles. Nothing is taken from the shared corpus.
"""
import argparse
import glob
import hashlib
import os
import re
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SPLIT = re.compile(r"^// -----.*$", re.MULTILINE)
RAW_STRING = re.compile(r'R"([^(\s]{0,16})\((.*?)\)\1"', re.DOTALL)


def pieces(text):
    for piece in SPLIT.split(text):
        if piece.strip():
            yield piece.lstrip("\n")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--generate-hlo")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    seeds = []
    patterns = ["examples/*.hlo", "tests/golden/**/*.hlo", "tests/cli/inputs/*"]
    for pattern in patterns:
        for path in sorted(glob.glob(os.path.join(ROOT, pattern), recursive=True)):
            with open(path, encoding="utf-8", errors="surrogateescape") as f:
                seeds.extend(pieces(f.read()))
    for path in sorted(glob.glob(os.path.join(ROOT, "tests/unit/*.cc"))):
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            for match in RAW_STRING.finditer(f.read()):
                if "ENTRY" in match.group(2):
                    seeds.append(match.group(2))
    if args.generate_hlo:
        for style in ("after", "before"):
            for seed, size in ((1, "3k"), (2, "8k")):
                out = subprocess.run([args.generate_hlo, "--size", size, "--seed", str(seed),
                                      "--style", style], check=True, capture_output=True)
                seeds.append(out.stdout.decode("utf-8", "surrogateescape"))
    written = 0
    for seed in seeds:
        data = seed.encode("utf-8", "surrogateescape")
        name = hashlib.sha1(data).hexdigest()
        path = os.path.join(args.out, name)
        if not os.path.exists(path):
            with open(path, "wb") as f:
                f.write(data)
            written += 1
    print(f"{written} seeds in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

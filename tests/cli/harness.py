"""What every CLI test script shares: its command line (--hlolint, --source)."""
import argparse
import os
import sys
import unittest


def run_tests(module):
    """Sets module.HLOLINT and module.SOURCE from the command line, then runs
    the module's unittest cases (names after the options select tests)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--hlolint", required=True)
    parser.add_argument("--source", required=True)
    args, rest = parser.parse_known_args()
    module.HLOLINT = os.path.abspath(args.hlolint)
    module.SOURCE = os.path.abspath(args.source)
    unittest.main(module=module, argv=[sys.argv[0]] + rest, verbosity=2)

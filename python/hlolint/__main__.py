"""`python -m hlolint` and the `hlolint` script: the command line itself.

The wheel carries the CLI executable (hlolint/_bin/hlolint), built from the
same sources as the extension; this replaces the Python process with it, so
every flag, output format, exit status and `hlolint lsp` behave exactly as
the CLI's (docs/cli.md)."""
import os
import sys


def executable() -> str:
    """The path of the hlolint executable shipped in this package."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "_bin", "hlolint")


def main() -> None:
    path = executable()
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(path, [path] + sys.argv[1:])


if __name__ == "__main__":
    main()

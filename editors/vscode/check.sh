#!/usr/bin/env bash
# Builds and checks the VS Code extension from nothing, as CI does
# (./build.sh test runs it as the ctest test "vscode: extension"):
#   npm ci               the pinned dependencies (package-lock.json)
#   npm run compile      tsc
#   npm test             grammar, file name and executable lookup tests
#   npm run package      the .vsix
#   test/packaged/       the .vsix's contents, and the extension unpacked from
#                        it starting HLOLINT's `lsp` under a fake VS Code API
#
#   editors/vscode/check.sh [HLOLINT]     (default: hlolint on PATH)
#
# Without npm, or with a Node older than 20, it says so and exits 77 (ctest:
# skipped); so it does when the npm registry cannot be reached, except in CI
# (CI set), where that fails the run. Writes only here (node_modules/, out/,
# the .vsix) and to npm's cache.
set -euo pipefail
cd "$(dirname "$0")"
hlolint="${1:-$(command -v hlolint || true)}"

skip() {
  local line
  line="$(printf '=%.0s' {1..78})"
  printf '\n%s\nSKIPPED: the VS Code extension (editors/vscode) is not built: %s\n%s\n' "$line" "$1" "$line" >&2
  exit 77
}

step() {
  local start=$SECONDS
  echo "== $*"
  "$@" </dev/null
  echo "   ($((SECONDS - start)) s)"
}

command -v npm >/dev/null 2>&1 || skip "npm is not installed (apt-get install npm, or Node 20 from nodejs.org)"
node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)' ||
  skip "Node $(node --version) is older than 20, which @vscode/vsce needs"
if [ -z "$hlolint" ]; then
  echo "usage: $0 HLOLINT (the hlolint executable whose lsp the packaged extension starts)" >&2
  exit 2
fi

# No install scripts and no optional dependencies: they serve vsce's
# publishing (keytar, which would build or download a native module; the
# vsce-sign binaries), not compiling, testing or packaging.
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
echo "== npm ci (node $(node --version), npm $(npm --version))"
start=$SECONDS
if ! npm ci --ignore-scripts --omit=optional --no-audit --no-fund </dev/null >"$log" 2>&1; then
  cat "$log" >&2
  if [ -z "${CI:-}" ] && grep -qE 'ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH' "$log"; then
    skip "the npm registry cannot be reached"
  fi
  exit 1
fi
cat "$log"
echo "   ($((SECONDS - start)) s)"

step npm run compile
step npm test
rm -f hlolint-*.vsix
step npm run package
vsix="$(ls hlolint-*.vsix)"
echo "$vsix: $(wc -c <"$vsix") bytes"

step env VSIX="$vsix" HLOLINT="$hlolint" node --test test/packaged/vsix.check.mjs

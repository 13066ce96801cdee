#!/usr/bin/env bash
# hlolint developer entry point.
#   ./build.sh run    install missing Debian packages, build, lint examples/
#   ./build.sh test   install missing Debian packages, build, run every test
# `run` builds the profile-guided binary (cmake/Pgo.cmake: a first,
# instrumented build lints generated HLO; a longer build for faster lints,
# docs/performance.md); HLOLINT_PGO=0 ./build.sh run skips that. `test` keeps whatever
# build/ was configured with (a fresh build/: no profile, the quicker build).
set -euo pipefail
cd "$(dirname "$0")"

PACKAGES=(cmake ninja-build g++ libcli11-dev libfmt-dev nlohmann-json3-dev libabsl-dev libsimdjson-dev
          catch2 python3 python3-jsonschema python3-lxml python3-venv)
JOBS="${JOBS:-$(nproc 2>/dev/null || echo 2)}"

install_missing() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "Installing missing packages: ${missing[*]}"
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then sudo=(sudo); fi
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

build() {
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
  cmake --build build -j "$JOBS"
}

case "${1:-}" in
  run)
    install_missing
    if [ "${HLOLINT_PGO:-1}" = 0 ]; then build -DHLOLINT_PGO=OFF; else build -DHLOLINT_PGO=ON; fi
    status=0
    build/tools/hlolint/hlolint examples/ || status=$?
    echo "(hlolint exited with status $status: 0 clean, 1 findings, 2 usage or I/O error)"
    ;;
  test)
    install_missing
    build
    (cd build && ctest --output-on-failure -j "$JOBS")
    ;;
  *)
    echo "usage: $0 run|test" >&2
    exit 2
    ;;
esac

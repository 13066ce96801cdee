#!/usr/bin/env bash
# Tries the Neovim and Emacs set-ups of docs/editors.md as written: a
# headless editor session per configuration opens an HLO dump with a
# finding, through the documented configuration file, and checks the
# diagnostics, hover, definition, references, symbols, the suppression code
# action and filetype detection (editors/neovim/try.lua, editors/emacs/try.el).
#
#   editors/try-editors.sh [--nvim NVIM]... [--emacs EMACS]... HLOLINT
#
# Without --nvim or --emacs it tries the `nvim` and `emacs` on PATH, skipping
# one that is not installed. A Neovim 0.11 or later is tried three ways: the
# plugin (vim.lsp.config), the plugin on its vim.lsp.start path (Neovim 0.8
# to 0.10), and the plugin-free minimal-0.11.lua; an Emacs with
# editors/emacs/init.el (hlolint.el) and with the plugin-free minimal.el.
# Exits non-zero when a session fails or none ran. Not run in CI:
# installing editors takes long.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
docs="$here/../docs/editors.md"
nvims=()
emacses=()
while [[ $# -gt 1 ]]; do
  case "$1" in
    --nvim) nvims+=("$2"); shift 2 ;;
    --emacs) emacses+=("$2"); shift 2 ;;
    *) break ;;
  esac
done
if [[ $# -ne 1 || ! -x "$1" ]]; then
  echo "usage: $0 [--nvim NVIM]... [--emacs EMACS]... HLOLINT (an hlolint executable)" >&2
  exit 2
fi
hlolint=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
skip_missing=false
if [[ ${#nvims[@]} -eq 0 && ${#emacses[@]} -eq 0 ]]; then
  nvims=(nvim)
  emacses=(emacs)
  skip_missing=true
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The configurations say `hlolint`: let that be the one under test.
mkdir "$work/bin"
ln -s "$hlolint" "$work/bin/hlolint"
export PATH="$work/bin:$PATH"

# An XLA dump name, so that opening it tries filetype detection too. The
# written shape of `sum` is not what add makes of its operands.
dump="$work/dumps/module_0001.jit_f.before_optimizations.txt"
mkdir -p "$(dirname "$dump")"
cat >"$dump" <<'EOF'
HloModule nav

add_f32 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

ENTRY main {
  p0 = f32[4]{0} parameter(0), metadata={op_name="jit(f)/x" source_file="f.py" source_line=3}
  p1 = f32[4]{0} parameter(1), sharding={replicated}
  sum = f32[5]{0} add(p0, p1)
  zero = f32[] constant(0)
  total = f32[] reduce(p1, zero), dimensions={0}, to_apply=add_f32
  ROOT out = (f32[5]{0}, f32[4]{0}, f32[]) tuple(sum, p1, total)
}
EOF

# Names the editors must open as HLO, and names they must not
# (docs/dump-directories.md: XLA's dump names and its reports beside them).
export HLOLINT_TRY_HLO_NAMES='notes.hlo
module_0001.jit_f.before_optimizations.txt
module_0001.jit_f.after_optimizations.txt
module_0649.after_optimizations.txt
module_0001.jit_f.0003.cpu_after_optimizations.txt
module_0012.jit_f.sm_8.0_gpu_after_optimizations.txt
module_0003.jit_proj.gfx90a_gpu_after_optimizations.txt
module_0004.jit_f.0010.spmd-partitioning.after_shardy.before_x.txt
module_0003.jit_proj.0002.hlo normalization.after_cublas-gemm-rewriter.before_gemm-broadcast-folding-rewriter.txt
module_0001.jit_train.step.0005.copy-insertion.after adding copies to resolve interference.txt
module_0001.0005.copy-insertion.after removing unnecessary copies.txt
1700000000000100.module_0001.jit_train.step.before_optimizations.txt
1700000000000100.module_0001.jit_train.step.0000.post-layout_assignment.part 2.after_pipeline-start.before_simplify.txt'
export HLOLINT_TRY_OTHER_NAMES='notes.txt
requirements.txt
CMakeLists.txt
module_notes.txt
module_0001.txt
module_0001.jit_f.thunk_sequence.txt
module_0001.jit_f.sm_8.0_gpu_after_optimizations-buffer-assignment.txt
module_0001.jit_f.sm_8.0_gpu_after_optimizations-memory-usage-report.txt
module_0001.jit_f.cpu_after_optimizations-buffer-assignment.txt
1700000000000100.module_0001.jit_train.step.sm_90_gpu_after_optimizations-buffer-assignment.txt
module_0001.jit_f.after_optimizations.dot
module_0001.jit_f.before_optimizations.pb
my_after_optimizations.txt'

results=()
failed=0
ran=0

record() {  # record NAME STATUS
  ran=$((ran + 1))
  if [[ $2 -eq 0 ]]; then
    results+=("ok      $1")
  else
    results+=("FAILED  $1 (exit status $2)")
    failed=1
  fi
}

# The configuration files are what docs/editors.md shows.
for snippet in neovim/init.lua neovim/minimal-0.11.lua emacs/init.el emacs/minimal.el; do
  if python3 - "$docs" "$here/$snippet" <<'EOF'
import sys
docs, snippet = (open(path, encoding="utf-8").read() for path in sys.argv[1:])
sys.exit(0 if snippet in docs else 1)
EOF
  then
    record "docs/editors.md shows editors/$snippet as it is" 0
  else
    record "docs/editors.md shows editors/$snippet as it is" 1
  fi
done

try_nvim() {  # try_nvim NVIM LABEL CONFIG [VAR=VALUE...]
  local nvim=$1 label=$2 config=$3
  shift 3
  local home="$work/nvim-home"
  rm -rf "$home" && mkdir -p "$home"
  echo "== $label"
  local status=0
  (cd "$(dirname "$dump")" &&
    env HOME="$home" XDG_CONFIG_HOME="$home/config" XDG_DATA_HOME="$home/data" \
      XDG_STATE_HOME="$home/state" XDG_CACHE_HOME="$home/cache" \
      HLOLINT_TRY_CONFIG="$here/neovim/$config" "$@" \
      timeout 90 "$nvim" --headless -i NONE -u "$here/neovim/try.lua" "$(basename "$dump")" \
      </dev/null) || status=$?
  record "$label" "$status"
}

try_emacs() {  # try_emacs EMACS LABEL CONFIG [VAR=VALUE...]
  local emacs=$1 label=$2 config=$3
  shift 3
  echo "== $label"
  local status=0
  (cd "$(dirname "$dump")" &&
    env HLOLINT_TRY_CONFIG="$here/emacs/$config" "$@" \
      timeout 90 "$emacs" --batch -q --no-site-file -l "$here/emacs/try.el" "$(basename "$dump")" \
      </dev/null) || status=$?
  record "$label" "$status"
}

installed() {
  if command -v "$1" >/dev/null; then return 0; fi
  if $skip_missing; then
    results+=("skipped $1: not installed")
    return 1
  fi
  record "$1: not found" 127
  return 1
}

for nvim in ${nvims[@]+"${nvims[@]}"}; do
  installed "$nvim" || continue
  version=$("$nvim" --version | head -1 | sed 's/^NVIM v//')
  try_nvim "$nvim" "Neovim $version, editors/neovim/init.lua" init.lua HLOLINT_TRY_CONFIG_SAVES=1
  if [[ $(printf '%s\n' 0.11 "$version" | sort -V | head -1) == 0.11 ]]; then
    try_nvim "$nvim" "Neovim $version, editors/neovim/init.lua on vim.lsp.start" init.lua \
      HLOLINT_TRY_CONFIG_SAVES=1 HLOLINT_TRY_WITHOUT_LSP_CONFIG=1
    try_nvim "$nvim" "Neovim $version, editors/neovim/minimal-0.11.lua" minimal-0.11.lua
  fi
done
for emacs in ${emacses[@]+"${emacses[@]}"}; do
  installed "$emacs" || continue
  version=$("$emacs" --version | head -1 | sed 's/^GNU Emacs //')
  try_emacs "$emacs" "Emacs $version, editors/emacs/init.el" init.el HLOLINT_TRY_CONFIG_SAVES=1
  try_emacs "$emacs" "Emacs $version, editors/emacs/minimal.el" minimal.el
done

echo "== summary"
printf '%s\n' "${results[@]}"
editor_sessions=$((ran - 4))
if [[ $editor_sessions -eq 0 ]]; then
  echo "no editor session ran: install neovim or emacs, or name them with --nvim/--emacs"
  exit 1
fi
exit $failed

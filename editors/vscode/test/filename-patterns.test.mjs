// Which files VS Code opens as HLO: the filenamePatterns of package.json
// against XLA's dump names (docs/dump-directories.md) and names they must not
// claim.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const [hlo] = manifest.contributes.languages.filter((language) => language.id === 'hlo');

// VS Code matches a pattern without "/" against the file's base name, both
// lower-cased; "*" is any run of characters but "/", "[0-9]" a range. The
// patterns use nothing else, and this refuses anything else.
function globToRegExp(glob) {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') {
      source += '[^/]*';
    } else if (c === '[') {
      const end = glob.indexOf(']', i);
      const range = glob.slice(i, end + 1);
      assert.match(range, /^\[[0-9a-z]-[0-9a-z]\]$/, `unsupported range in ${glob}`);
      source += range;
      i = end;
    } else {
      assert.doesNotMatch(c, /[?{}\\/]/, `unsupported glob syntax in ${glob}`);
      source += c.replace(/[.+^$()|]/g, '\\$&');
    }
  }
  return new RegExp(`^${source}$`);
}

const patterns = hlo.filenamePatterns.map((glob) => globToRegExp(glob.toLowerCase()));
const isHlo = (name) =>
  hlo.extensions.some((extension) => name.toLowerCase().endsWith(extension)) ||
  patterns.some((pattern) => pattern.test(name.toLowerCase()));

test('the hlo language is for *.hlo files', () => {
  assert.deepEqual(hlo.extensions, ['.hlo']);
  assert.ok(isHlo('notes.hlo'));
});

test('XLA dump names are HLO', () => {
  for (const name of [
    'module_0001.jit_f.before_optimizations.txt',
    'module_0001.jit_f.after_optimizations.txt',
    'module_0649.after_optimizations.txt',
    'module_0001.jit_f.0003.cpu_after_optimizations.txt',
    'module_0012.jit_f.sm_8.0_gpu_after_optimizations.txt',
    'module_0003.jit_proj.gfx90a_gpu_after_optimizations.txt',
    'module_0004.jit_f.0010.spmd-partitioning.after_shardy.before_x.txt',
    'module_0003.jit_proj.0002.hlo normalization.after_cublas-gemm-rewriter.before_gemm-broadcast-folding-rewriter.txt',
    'module_0001.jit_train.step.0005.copy-insertion.after adding copies to resolve interference.txt',
    '1700000000000100.module_0001.jit_train.step.before_optimizations.txt',
    'module_0007.jit_g.0002.simplification.txt',
    'MODULE_0001.JIT_F.BEFORE_OPTIMIZATIONS.TXT',
  ]) {
    assert.ok(isHlo(name), name);
  }
});

test('every HLO dump among the test dumps is HLO; their buffer assignment is not', () => {
  const directory = new URL('../../../tests/dumps/', import.meta.url);
  const names = readdirSync(directory, { recursive: true })
    .map((path) => path.split('/').pop())
    .filter((name) => name.endsWith('.txt'));
  const reports = names.filter((name) => name.endsWith('-buffer-assignment.txt'));
  assert.ok(names.length >= 20 && reports.length >= 1, `${names.length} names, ${reports.length} reports`);
  for (const name of names) {
    assert.equal(isHlo(name), !reports.includes(name), name);
  }
});

test('other text files, XLA\'s reports on dumps among them, are not claimed', () => {
  for (const name of [
    'notes.txt',
    'requirements.txt',
    'CMakeLists.txt',
    'module_notes.txt',
    'module_0001.txt',
    'module_0001.jit_f.thunk_sequence.txt',
    'module_0001.jit_f.sm_8.0_gpu_after_optimizations-buffer-assignment.txt',
    'module_0001.jit_f.sm_8.0_gpu_after_optimizations-memory-usage-report.txt',
    'module_0001.jit_f.cpu_after_optimizations-buffer-assignment.txt',
    'module_0001.jit_f.after_optimizations.dot',
    'module_0001.jit_f.before_optimizations.pb',
    'module_0001.jit_f.ir-no-opt.ll',
    'my_after_optimizations.txt',
  ]) {
    assert.ok(!isHlo(name), name);
  }
});

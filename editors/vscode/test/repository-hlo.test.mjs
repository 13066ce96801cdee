// The grammar on the HLO this repository holds (examples/ and the golden
// tests, all written for hlolint), checked against hlolint's own opcode table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { tokenize, tokenizeLine } from './tokenize.mjs';

const repository = new URL('../../../', import.meta.url);

// The opcode names of lib/ir/opcode.h: V(kAdd, "add", 2).
function hlolintOpcodes() {
  const header = readFileSync(new URL('lib/ir/opcode.h', repository), 'utf8');
  return new Set([...header.matchAll(/^\s*V\(k\w+, "([a-z0-9-]+)", -?\d+\)/gm)].map((m) => m[1]));
}

// examples/*.hlo and tests/golden/**/*.hlo but the parse-error goldens,
// which are broken on purpose.
function repositoryHloFiles() {
  const examples = readdirSync(new URL('examples/', repository))
    .filter((name) => name.endsWith('.hlo'))
    .map((name) => `examples/${name}`);
  const golden = readdirSync(new URL('tests/golden/', repository), { recursive: true })
    .filter((name) => name.endsWith('.hlo') && !name.startsWith('parse-error/'))
    .map((name) => `tests/golden/${name}`);
  return [...examples, ...golden];
}

const opcodes = hlolintOpcodes();

// An opcode, or the async form of one that XLA prints as OPCODE-start,
// -update and -done (as hlolint's parser reads it).
function isOpcode(word) {
  const async = /^(.+)-(?:start|update|done)$/.exec(word);
  return opcodes.has(word) || (async !== null && opcodes.has(async[1]));
}

test('hlolint knows at least the common opcodes (the table was read)', () => {
  for (const opcode of ['add', 'custom-call', 'fusion', 'get-tuple-element', 'while', 'all-reduce-start']) {
    assert.ok(opcodes.has(opcode), opcode);
  }
});

test('every opcode hlolint knows is scoped as an opcode', () => {
  for (const opcode of opcodes) {
    const tokens = tokenizeLine(`  %x = f32[2]{0} ${opcode}(%y)`);
    assert.equal(tokens.length, 13, opcode);
    assert.deepEqual(tokens[9], { text: opcode, scopes: ['meta.instruction.hlo', 'support.function.opcode.hlo'] });
  }
});

test('each instruction line of the repository\'s HLO has one opcode, a known one', () => {
  const files = repositoryHloFiles();
  assert.ok(files.length >= 50, `only ${files.length} files`);
  let instructions = 0;
  for (const file of files) {
    const lines = tokenize(readFileSync(new URL(file, repository), 'utf8'));
    lines.forEach((tokens, index) => {
      if (tokens[0]?.scopes[0] !== 'meta.instruction.hlo') return;
      instructions++;
      const found = tokens.filter((token) => token.scopes.at(-1) === 'support.function.opcode.hlo').map((t) => t.text);
      assert.equal(found.length, 1, `${file}:${index + 1}: opcodes ${JSON.stringify(found)}`);
      assert.ok(isOpcode(found[0]), `${file}:${index + 1}: "${found[0]}" is no opcode`);
    });
  }
  assert.ok(instructions >= 1000, `only ${instructions} instruction lines`);
});

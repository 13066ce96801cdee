// The TextMate grammar (syntaxes/hlo.tmLanguage.json) on HLO lines: each
// test names the scopes its tokens must have, root scope left out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tokenize, tokenizeLine } from './tokenize.mjs';

const INSTRUCTION = 'meta.instruction.hlo';
const COMPUTATION = 'meta.computation.hlo';
const MODULE = 'meta.module.hlo';
const SHAPE = 'meta.shape.hlo';
const TUPLE = 'meta.shape.tuple.hlo';
const LAYOUT = 'meta.layout.hlo';

// [text, scopes...] for every token that is not whitespace.
function table(tokens) {
  return tokens.map((token) => [token.text, ...token.scopes]);
}

// The scopes of the nth token whose text is `text`.
function scopesOf(tokens, text, nth = 0) {
  const matches = tokens.filter((token) => token.text === text);
  assert.ok(matches.length > nth, `no token ${JSON.stringify(text)} #${nth} in ${JSON.stringify(table(tokens))}`);
  return matches[nth].scopes;
}

// The innermost scope of every token, for lines where that is what matters.
function innermost(tokens) {
  return tokens.map((token) => [token.text, token.scopes.at(-1)]);
}

test('an instruction: name, shape with layout, opcode, operands, attribute', () => {
  assert.deepEqual(table(tokenizeLine('  %multiply.5 = f32[2,3]{1,0} multiply(%p0, f32[2,3] p1), sharding={replicated}')), [
    ['%multiply.5', INSTRUCTION, 'entity.name.variable.hlo'],
    ['=', INSTRUCTION, 'keyword.operator.assignment.hlo'],
    ['f32', INSTRUCTION, SHAPE, 'storage.type.hlo'],
    ['[', INSTRUCTION, SHAPE, 'punctuation.definition.dimensions.begin.hlo'],
    ['2', INSTRUCTION, SHAPE, 'constant.numeric.integer.hlo'],
    [',', INSTRUCTION, SHAPE, 'punctuation.separator.comma.hlo'],
    ['3', INSTRUCTION, SHAPE, 'constant.numeric.integer.hlo'],
    [']', INSTRUCTION, SHAPE, 'punctuation.definition.dimensions.end.hlo'],
    ['{', INSTRUCTION, SHAPE, 'punctuation.definition.layout.begin.hlo'],
    ['1', INSTRUCTION, SHAPE, LAYOUT, 'constant.numeric.integer.hlo'],
    [',', INSTRUCTION, SHAPE, LAYOUT, 'punctuation.separator.comma.hlo'],
    ['0', INSTRUCTION, SHAPE, LAYOUT, 'constant.numeric.integer.hlo'],
    ['}', INSTRUCTION, SHAPE, 'punctuation.definition.layout.end.hlo'],
    ['multiply', INSTRUCTION, 'support.function.opcode.hlo'],
    ['(', INSTRUCTION, 'punctuation.section.operands.begin.hlo'],
    ['%p0', INSTRUCTION, 'variable.other.hlo'],
    [',', INSTRUCTION, 'punctuation.separator.comma.hlo'],
    ['f32', INSTRUCTION, SHAPE, 'storage.type.hlo'],
    ['[', INSTRUCTION, SHAPE, 'punctuation.definition.dimensions.begin.hlo'],
    ['2', INSTRUCTION, SHAPE, 'constant.numeric.integer.hlo'],
    [',', INSTRUCTION, SHAPE, 'punctuation.separator.comma.hlo'],
    ['3', INSTRUCTION, SHAPE, 'constant.numeric.integer.hlo'],
    [']', INSTRUCTION, SHAPE, 'punctuation.definition.dimensions.end.hlo'],
    ['p1', INSTRUCTION, 'variable.other.hlo'],
    [')', INSTRUCTION, 'punctuation.section.operands.end.hlo'],
    [',', INSTRUCTION, 'punctuation.separator.comma.hlo'],
    ['sharding', INSTRUCTION, 'entity.other.attribute-name.hlo'],
    ['=', INSTRUCTION, 'punctuation.separator.key-value.hlo'],
    ['{', INSTRUCTION, 'punctuation.section.braces.begin.hlo'],
    ['replicated', INSTRUCTION],
    ['}', INSTRUCTION, 'punctuation.section.braces.end.hlo'],
  ]);
});

test('a ROOT instruction with a tuple shape', () => {
  assert.deepEqual(table(tokenizeLine('  ROOT t = (f32[2], s32[]) tuple(a, %b)')), [
    ['ROOT', INSTRUCTION, 'storage.modifier.root.hlo'],
    ['t', INSTRUCTION, 'entity.name.variable.hlo'],
    ['=', INSTRUCTION, 'keyword.operator.assignment.hlo'],
    ['(', INSTRUCTION, TUPLE, 'punctuation.definition.tuple.begin.hlo'],
    ['f32', INSTRUCTION, TUPLE, SHAPE, 'storage.type.hlo'],
    ['[', INSTRUCTION, TUPLE, SHAPE, 'punctuation.definition.dimensions.begin.hlo'],
    ['2', INSTRUCTION, TUPLE, SHAPE, 'constant.numeric.integer.hlo'],
    [']', INSTRUCTION, TUPLE, SHAPE, 'punctuation.definition.dimensions.end.hlo'],
    [',', INSTRUCTION, TUPLE, 'punctuation.separator.comma.hlo'],
    ['s32', INSTRUCTION, TUPLE, SHAPE, 'storage.type.hlo'],
    ['[', INSTRUCTION, TUPLE, SHAPE, 'punctuation.definition.dimensions.begin.hlo'],
    [']', INSTRUCTION, TUPLE, SHAPE, 'punctuation.definition.dimensions.end.hlo'],
    [')', INSTRUCTION, TUPLE, 'punctuation.definition.tuple.end.hlo'],
    ['tuple', INSTRUCTION, 'support.function.opcode.hlo'],
    ['(', INSTRUCTION, 'punctuation.section.operands.begin.hlo'],
    ['a', INSTRUCTION, 'variable.other.hlo'],
    [',', INSTRUCTION, 'punctuation.separator.comma.hlo'],
    ['%b', INSTRUCTION, 'variable.other.hlo'],
    [')', INSTRUCTION, 'punctuation.section.operands.end.hlo'],
  ]);
});

test('nested tuple shapes with /*index=N*/ comments', () => {
  const tokens = tokenizeLine('  p = ((f32[], u8[4]), /*index=1*/bf16[2], token[]) parameter(0)');
  assert.deepEqual(scopesOf(tokens, '(', 0), [INSTRUCTION, TUPLE, 'punctuation.definition.tuple.begin.hlo']);
  assert.deepEqual(scopesOf(tokens, '(', 1), [INSTRUCTION, TUPLE, TUPLE, 'punctuation.definition.tuple.begin.hlo']);
  assert.deepEqual(scopesOf(tokens, 'u8'), [INSTRUCTION, TUPLE, TUPLE, SHAPE, 'storage.type.hlo']);
  assert.deepEqual(scopesOf(tokens, ')', 0), [INSTRUCTION, TUPLE, TUPLE, 'punctuation.definition.tuple.end.hlo']);
  assert.deepEqual(scopesOf(tokens, '/*'), [INSTRUCTION, TUPLE, 'comment.block.hlo', 'punctuation.definition.comment.begin.hlo']);
  assert.deepEqual(scopesOf(tokens, 'index=1'), [INSTRUCTION, TUPLE, 'comment.block.hlo']);
  assert.deepEqual(scopesOf(tokens, '*/'), [INSTRUCTION, TUPLE, 'comment.block.hlo', 'punctuation.definition.comment.end.hlo']);
  assert.deepEqual(scopesOf(tokens, 'bf16'), [INSTRUCTION, TUPLE, SHAPE, 'storage.type.hlo']);
  assert.deepEqual(scopesOf(tokens, 'token'), [INSTRUCTION, TUPLE, SHAPE, 'storage.type.hlo']);
  assert.deepEqual(scopesOf(tokens, ')', 1), [INSTRUCTION, TUPLE, 'punctuation.definition.tuple.end.hlo']);
  assert.deepEqual(scopesOf(tokens, 'parameter'), [INSTRUCTION, 'support.function.opcode.hlo']);
});

test('a layout with tiling, a second tile and a memory space', () => {
  const tokens = tokenizeLine('  c = bf16[8,128]{1,0:T(8,128)(2,1)S(5)} copy(b)');
  assert.deepEqual(table(tokens).slice(3, 30), [
    ['[', INSTRUCTION, SHAPE, 'punctuation.definition.dimensions.begin.hlo'],
    ['8', INSTRUCTION, SHAPE, 'constant.numeric.integer.hlo'],
    [',', INSTRUCTION, SHAPE, 'punctuation.separator.comma.hlo'],
    ['128', INSTRUCTION, SHAPE, 'constant.numeric.integer.hlo'],
    [']', INSTRUCTION, SHAPE, 'punctuation.definition.dimensions.end.hlo'],
    ['{', INSTRUCTION, SHAPE, 'punctuation.definition.layout.begin.hlo'],
    ['1', INSTRUCTION, SHAPE, LAYOUT, 'constant.numeric.integer.hlo'],
    [',', INSTRUCTION, SHAPE, LAYOUT, 'punctuation.separator.comma.hlo'],
    ['0', INSTRUCTION, SHAPE, LAYOUT, 'constant.numeric.integer.hlo'],
    [':', INSTRUCTION, SHAPE, LAYOUT, 'punctuation.separator.layout.hlo'],
    ['T', INSTRUCTION, SHAPE, LAYOUT, 'storage.modifier.tiling.hlo'],
    ['(', INSTRUCTION, SHAPE, LAYOUT, 'punctuation.section.parens.begin.hlo'],
    ['8', INSTRUCTION, SHAPE, LAYOUT, 'constant.numeric.integer.hlo'],
    [',', INSTRUCTION, SHAPE, LAYOUT, 'punctuation.separator.comma.hlo'],
    ['128', INSTRUCTION, SHAPE, LAYOUT, 'constant.numeric.integer.hlo'],
    [')', INSTRUCTION, SHAPE, LAYOUT, 'punctuation.section.parens.end.hlo'],
    ['(', INSTRUCTION, SHAPE, LAYOUT, 'punctuation.section.parens.begin.hlo'],
    ['2', INSTRUCTION, SHAPE, LAYOUT, 'constant.numeric.integer.hlo'],
    [',', INSTRUCTION, SHAPE, LAYOUT, 'punctuation.separator.comma.hlo'],
    ['1', INSTRUCTION, SHAPE, LAYOUT, 'constant.numeric.integer.hlo'],
    [')', INSTRUCTION, SHAPE, LAYOUT, 'punctuation.section.parens.end.hlo'],
    ['S', INSTRUCTION, SHAPE, LAYOUT, 'storage.modifier.memory-space.hlo'],
    ['(', INSTRUCTION, SHAPE, LAYOUT, 'punctuation.section.parens.begin.hlo'],
    ['5', INSTRUCTION, SHAPE, LAYOUT, 'constant.numeric.integer.hlo'],
    [')', INSTRUCTION, SHAPE, LAYOUT, 'punctuation.section.parens.end.hlo'],
    ['}', INSTRUCTION, SHAPE, 'punctuation.definition.layout.end.hlo'],
    ['copy', INSTRUCTION, 'support.function.opcode.hlo'],
  ]);
});

test('layouts of scalars, element sizes and shapes inside layouts', () => {
  const scalar = tokenizeLine('  s = u32[]{:T(128)} parameter(0)');
  assert.deepEqual(innermost(scalar).slice(2, 12), [
    ['u32', 'storage.type.hlo'],
    ['[', 'punctuation.definition.dimensions.begin.hlo'],
    [']', 'punctuation.definition.dimensions.end.hlo'],
    ['{', 'punctuation.definition.layout.begin.hlo'],
    [':', 'punctuation.separator.layout.hlo'],
    ['T', 'storage.modifier.tiling.hlo'],
    ['(', 'punctuation.section.parens.begin.hlo'],
    ['128', 'constant.numeric.integer.hlo'],
    [')', 'punctuation.section.parens.end.hlo'],
    ['}', 'punctuation.definition.layout.end.hlo'],
  ]);
  const nested = tokenizeLine('  q = s4[16]{0:E(4)P(f32[10])} parameter(0)');
  assert.deepEqual(scopesOf(nested, 'E'), [INSTRUCTION, SHAPE, LAYOUT, 'storage.modifier.layout.hlo']);
  assert.deepEqual(scopesOf(nested, 'P'), [INSTRUCTION, SHAPE, LAYOUT, 'storage.modifier.layout.hlo']);
  assert.deepEqual(scopesOf(nested, 'f32'), [INSTRUCTION, SHAPE, LAYOUT, SHAPE, 'storage.type.hlo']);
  assert.deepEqual(scopesOf(nested, 'parameter'), [INSTRUCTION, 'support.function.opcode.hlo']);
});

test('every element type, dynamic and bounded dimensions, buffer shapes', () => {
  const types = ['pred', 's2', 's4', 's8', 's16', 's32', 's64', 'u1', 'u4', 'u8', 'u16', 'u32', 'u64', 'f16', 'f32',
    'f64', 'bf16', 'f8e5m2', 'f8e4m3fn', 'f8e4m3b11fnuz', 'f8e5m2fnuz', 'f8e4m3fnuz', 'f8e3m4', 'f8e8m0fnu',
    'f4e2m1fn', 'c64', 'c128', 'token', 'opaque'];
  for (const type of types) {
    const tokens = tokenizeLine(`  x = ${type}[] parameter(0)`);
    assert.deepEqual(scopesOf(tokens, type), [INSTRUCTION, SHAPE, 'storage.type.hlo'], type);
  }
  const dynamic = tokenizeLine('  d = f32[<=8,?] parameter(0)');
  assert.deepEqual(scopesOf(dynamic, '<='), [INSTRUCTION, SHAPE, 'keyword.operator.bound.hlo']);
  assert.deepEqual(scopesOf(dynamic, '?'), [INSTRUCTION, SHAPE, 'keyword.operator.dynamic.hlo']);
  const buffer = tokenizeLine('  ROOT v = b(s32[4]) custom-call(p)');
  assert.deepEqual(innermost(buffer).slice(3, 10), [
    ['b', 'storage.type.buffer.hlo'],
    ['(', 'punctuation.definition.buffer.begin.hlo'],
    ['s32', 'storage.type.hlo'],
    ['[', 'punctuation.definition.dimensions.begin.hlo'],
    ['4', 'constant.numeric.integer.hlo'],
    [']', 'punctuation.definition.dimensions.end.hlo'],
    [')', 'punctuation.definition.buffer.end.hlo'],
  ]);
  assert.deepEqual(scopesOf(buffer, 'custom-call'), [INSTRUCTION, 'support.function.opcode.hlo']);
});

test('a name that spells an element type is a name unless a [ follows', () => {
  assert.deepEqual(innermost(tokenizeLine('  f32 = f32[] add(f32, s32.1)')), [
    ['f32', 'entity.name.variable.hlo'],
    ['=', 'keyword.operator.assignment.hlo'],
    ['f32', 'storage.type.hlo'],
    ['[', 'punctuation.definition.dimensions.begin.hlo'],
    [']', 'punctuation.definition.dimensions.end.hlo'],
    ['add', 'support.function.opcode.hlo'],
    ['(', 'punctuation.section.operands.begin.hlo'],
    ['f32', 'variable.other.hlo'],
    [',', 'punctuation.separator.comma.hlo'],
    ['s32.1', 'variable.other.hlo'],
    [')', 'punctuation.section.operands.end.hlo'],
  ]);
});

test('opcodes with hyphens, and the word before "(" only', () => {
  for (const opcode of ['add', 'fusion', 'custom-call', 'get-tuple-element', 'all-reduce-start', 'dynamic-update-slice',
    'rng-bit-generator', 'after-all', 'collective-permute-done']) {
    const tokens = tokenizeLine(`  %x.1 = f32[4]{0} ${opcode}(%y), metadata={op_name="a"}`);
    assert.deepEqual(scopesOf(tokens, opcode), [INSTRUCTION, 'support.function.opcode.hlo'], opcode);
    assert.deepEqual(scopesOf(tokens, 'metadata'), [INSTRUCTION, 'entity.other.attribute-name.hlo'], opcode);
  }
});

test('metadata: attribute names, strings and numbers', () => {
  const tokens = tokenizeLine(
    '  a = f32[] add(x, y), metadata={op_type="add" op_name="jit(f)/add" source_file="/tmp/f.py" source_line=12}');
  assert.deepEqual(innermost(tokens).slice(12), [
    ['metadata', 'entity.other.attribute-name.hlo'],
    ['=', 'punctuation.separator.key-value.hlo'],
    ['{', 'punctuation.section.braces.begin.hlo'],
    ['op_type', 'entity.other.attribute-name.hlo'],
    ['=', 'punctuation.separator.key-value.hlo'],
    ['"', 'punctuation.definition.string.begin.hlo'],
    ['add', 'string.quoted.double.hlo'],
    ['"', 'punctuation.definition.string.end.hlo'],
    ['op_name', 'entity.other.attribute-name.hlo'],
    ['=', 'punctuation.separator.key-value.hlo'],
    ['"', 'punctuation.definition.string.begin.hlo'],
    ['jit(f)/add', 'string.quoted.double.hlo'],
    ['"', 'punctuation.definition.string.end.hlo'],
    ['source_file', 'entity.other.attribute-name.hlo'],
    ['=', 'punctuation.separator.key-value.hlo'],
    ['"', 'punctuation.definition.string.begin.hlo'],
    ['/tmp/f.py', 'string.quoted.double.hlo'],
    ['"', 'punctuation.definition.string.end.hlo'],
    ['source_line', 'entity.other.attribute-name.hlo'],
    ['=', 'punctuation.separator.key-value.hlo'],
    ['12', 'constant.numeric.integer.hlo'],
    ['}', 'punctuation.section.braces.end.hlo'],
  ]);
});

test('a string attribute with escapes, and no comment inside a string', () => {
  const tokens = tokenizeLine(
    '  g = f32[2] custom-call(a), custom_call_target="__cublas$gemm", backend_config="{\\"k\\":\\"//x\\"}"');
  assert.deepEqual(scopesOf(tokens, 'custom_call_target'), [INSTRUCTION, 'entity.other.attribute-name.hlo']);
  assert.deepEqual(scopesOf(tokens, '__cublas$gemm'), [INSTRUCTION, 'string.quoted.double.hlo']);
  assert.deepEqual(scopesOf(tokens, 'backend_config'), [INSTRUCTION, 'entity.other.attribute-name.hlo']);
  const STRING = 'string.quoted.double.hlo';
  assert.deepEqual(table(tokens).slice(-11), [
    ['"', INSTRUCTION, STRING, 'punctuation.definition.string.begin.hlo'],
    ['{', INSTRUCTION, STRING],
    ['\\"', INSTRUCTION, STRING, 'constant.character.escape.hlo'],
    ['k', INSTRUCTION, STRING],
    ['\\"', INSTRUCTION, STRING, 'constant.character.escape.hlo'],
    [':', INSTRUCTION, STRING],
    ['\\"', INSTRUCTION, STRING, 'constant.character.escape.hlo'],
    ['//x', INSTRUCTION, STRING],
    ['\\"', INSTRUCTION, STRING, 'constant.character.escape.hlo'],
    ['}', INSTRUCTION, STRING],
    ['"', INSTRUCTION, STRING, 'punctuation.definition.string.end.hlo'],
  ]);
});

test('the module header', () => {
  assert.deepEqual(table(tokenizeLine('HloModule jit_f.1, is_scheduled=true, entry_computation_layout={(f32[2]{0})->s32[]}')), [
    ['HloModule', MODULE, 'keyword.other.module.hlo'],
    ['jit_f.1', MODULE, 'entity.name.namespace.hlo'],
    [',', MODULE, 'punctuation.separator.comma.hlo'],
    ['is_scheduled', MODULE, 'entity.other.attribute-name.hlo'],
    ['=', MODULE, 'punctuation.separator.key-value.hlo'],
    ['true', MODULE, 'constant.language.boolean.hlo'],
    [',', MODULE, 'punctuation.separator.comma.hlo'],
    ['entry_computation_layout', MODULE, 'entity.other.attribute-name.hlo'],
    ['=', MODULE, 'punctuation.separator.key-value.hlo'],
    ['{', MODULE, 'punctuation.section.braces.begin.hlo'],
    ['(', MODULE, 'punctuation.section.parens.begin.hlo'],
    ['f32', MODULE, SHAPE, 'storage.type.hlo'],
    ['[', MODULE, SHAPE, 'punctuation.definition.dimensions.begin.hlo'],
    ['2', MODULE, SHAPE, 'constant.numeric.integer.hlo'],
    [']', MODULE, SHAPE, 'punctuation.definition.dimensions.end.hlo'],
    ['{', MODULE, SHAPE, 'punctuation.definition.layout.begin.hlo'],
    ['0', MODULE, SHAPE, LAYOUT, 'constant.numeric.integer.hlo'],
    ['}', MODULE, SHAPE, 'punctuation.definition.layout.end.hlo'],
    [')', MODULE, 'punctuation.section.parens.end.hlo'],
    ['->', MODULE, 'keyword.operator.arrow.hlo'],
    ['s32', MODULE, SHAPE, 'storage.type.hlo'],
    ['[', MODULE, SHAPE, 'punctuation.definition.dimensions.begin.hlo'],
    [']', MODULE, SHAPE, 'punctuation.definition.dimensions.end.hlo'],
    ['}', MODULE, 'punctuation.section.braces.end.hlo'],
  ]);
});

test('an ENTRY computation header with a signature', () => {
  assert.deepEqual(table(tokenizeLine('ENTRY %main.5 (p0: f32[2], p.1: (s32[], pred[])) -> f32[2] {')), [
    ['ENTRY', COMPUTATION, 'storage.modifier.entry.hlo'],
    ['%main.5', COMPUTATION, 'entity.name.function.hlo'],
    ['(', COMPUTATION, 'punctuation.section.parameters.begin.hlo'],
    ['p0', COMPUTATION, 'variable.parameter.hlo'],
    [':', COMPUTATION, 'punctuation.separator.colon.hlo'],
    ['f32', COMPUTATION, SHAPE, 'storage.type.hlo'],
    ['[', COMPUTATION, SHAPE, 'punctuation.definition.dimensions.begin.hlo'],
    ['2', COMPUTATION, SHAPE, 'constant.numeric.integer.hlo'],
    [']', COMPUTATION, SHAPE, 'punctuation.definition.dimensions.end.hlo'],
    [',', COMPUTATION, 'punctuation.separator.comma.hlo'],
    ['p.1', COMPUTATION, 'variable.parameter.hlo'],
    [':', COMPUTATION, 'punctuation.separator.colon.hlo'],
    ['(', COMPUTATION, TUPLE, 'punctuation.definition.tuple.begin.hlo'],
    ['s32', COMPUTATION, TUPLE, SHAPE, 'storage.type.hlo'],
    ['[', COMPUTATION, TUPLE, SHAPE, 'punctuation.definition.dimensions.begin.hlo'],
    [']', COMPUTATION, TUPLE, SHAPE, 'punctuation.definition.dimensions.end.hlo'],
    [',', COMPUTATION, TUPLE, 'punctuation.separator.comma.hlo'],
    ['pred', COMPUTATION, TUPLE, SHAPE, 'storage.type.hlo'],
    ['[', COMPUTATION, TUPLE, SHAPE, 'punctuation.definition.dimensions.begin.hlo'],
    [']', COMPUTATION, TUPLE, SHAPE, 'punctuation.definition.dimensions.end.hlo'],
    [')', COMPUTATION, TUPLE, 'punctuation.definition.tuple.end.hlo'],
    [')', COMPUTATION, 'punctuation.section.parameters.end.hlo'],
    ['->', COMPUTATION, 'keyword.operator.arrow.hlo'],
    ['f32', COMPUTATION, SHAPE, 'storage.type.hlo'],
    ['[', COMPUTATION, SHAPE, 'punctuation.definition.dimensions.begin.hlo'],
    ['2', COMPUTATION, SHAPE, 'constant.numeric.integer.hlo'],
    [']', COMPUTATION, SHAPE, 'punctuation.definition.dimensions.end.hlo'],
    ['{', COMPUTATION, 'punctuation.section.block.begin.hlo'],
  ]);
});

test('computation headers without a signature, and the closing brace', () => {
  assert.deepEqual(table(tokenize('ENTRY main {\n}\nregion_0.3 {\n}').flat()), [
    ['ENTRY', COMPUTATION, 'storage.modifier.entry.hlo'],
    ['main', COMPUTATION, 'entity.name.function.hlo'],
    ['{', COMPUTATION, 'punctuation.section.block.begin.hlo'],
    ['}', 'punctuation.section.block.end.hlo'],
    ['region_0.3', COMPUTATION, 'entity.name.function.hlo'],
    ['{', COMPUTATION, 'punctuation.section.block.begin.hlo'],
    ['}', 'punctuation.section.block.end.hlo'],
  ]);
});

test('called computations are function names', () => {
  const cases = [
    ['  f = f32[2] fusion(a), kind=kLoop, calls=%fused_computation.1', '%fused_computation.1'],
    ['  r = f32[] reduce(a, z), dimensions={0}, to_apply=add.clone', 'add.clone'],
    ['  w = s32[] while(t), condition=%cond, body=body.2', '%cond'],
    ['  w = s32[] while(t), condition=%cond, body=body.2', 'body.2'],
  ];
  for (const [line, name] of cases) {
    assert.deepEqual(scopesOf(tokenizeLine(line), name), [INSTRUCTION, 'entity.name.function.hlo'], line);
  }
  const conditional = tokenizeLine('  c = f32[] conditional(i, a, b), branch_computations={%left, right.1}');
  assert.deepEqual(innermost(conditional).slice(-7), [
    ['branch_computations', 'entity.other.attribute-name.hlo'],
    ['=', 'punctuation.separator.key-value.hlo'],
    ['{', 'punctuation.section.braces.begin.hlo'],
    ['%left', 'entity.name.function.hlo'],
    [',', 'punctuation.separator.comma.hlo'],
    ['right.1', 'entity.name.function.hlo'],
    ['}', 'punctuation.section.braces.end.hlo'],
  ]);
  const control = tokenizeLine('  d = f32[] add(a, b), control-predecessors={c.1, %e}');
  assert.deepEqual(scopesOf(control, 'control-predecessors'), [INSTRUCTION, 'entity.other.attribute-name.hlo']);
  assert.deepEqual(scopesOf(control, 'c.1'), [INSTRUCTION, 'variable.other.hlo']);
  assert.deepEqual(scopesOf(control, '%e'), [INSTRUCTION, 'variable.other.hlo']);
});

test('literals: integers, floats, inf, nan with payloads, hex, booleans', () => {
  const tokens = tokenizeLine('  k = f32[9] constant({-2, 1.5, 1e-05, inf, -inf, nan, -nan(0x7f), 0x1F, true})');
  assert.deepEqual(innermost(tokens).slice(9, -2).filter(([text]) => text !== ','), [
    ['-2', 'constant.numeric.integer.hlo'],
    ['1.5', 'constant.numeric.float.hlo'],
    ['1e-05', 'constant.numeric.float.hlo'],
    ['inf', 'constant.numeric.float.hlo'],
    ['-inf', 'constant.numeric.float.hlo'],
    ['nan', 'constant.numeric.float.hlo'],
    ['-nan(0x7f)', 'constant.numeric.float.hlo'],
    ['0x1F', 'constant.numeric.integer.hexadecimal.hlo'],
    ['true', 'constant.language.boolean.hlo'],
  ]);
  assert.deepEqual(scopesOf(tokenizeLine('  n = f32[] negate(nan.1)'), 'nan.1'), [INSTRUCTION, 'variable.other.hlo']);
});

test('comments: a whole line, the end of an instruction, a block over lines', () => {
  assert.deepEqual(table(tokenizeLine('// hlolint: ignore[verify-shape] why')), [
    ['//', 'comment.line.double-slash.hlo', 'punctuation.definition.comment.hlo'],
    [' hlolint: ignore[verify-shape] why', 'comment.line.double-slash.hlo'],
  ]);
  const trailing = tokenizeLine('  n = f32[] negate(x)  // x = f32[] add(y)');
  assert.deepEqual(table(trailing).slice(-2), [
    ['//', INSTRUCTION, 'comment.line.double-slash.hlo', 'punctuation.definition.comment.hlo'],
    [' x = f32[] add(y)', INSTRUCTION, 'comment.line.double-slash.hlo'],
  ]);
  assert.deepEqual(tokenize('/* one\n   ROOT x = f32[] add(a, b)\n*/\nHloModule m').map(table), [
    [['/*', 'comment.block.hlo', 'punctuation.definition.comment.begin.hlo'], [' one', 'comment.block.hlo']],
    [['   ROOT x = f32[] add(a, b)', 'comment.block.hlo']],
    [['*/', 'comment.block.hlo', 'punctuation.definition.comment.end.hlo']],
    [['HloModule', MODULE, 'keyword.other.module.hlo'], ['m', MODULE, 'entity.name.namespace.hlo']],
  ]);
});

test('the source location tables after the module', () => {
  const lines = tokenize('FileNames\n1 "/tmp/f.py"\nStackFrames\n1 {file_location_id=1 parent_frame_id=0}');
  assert.deepEqual(table(lines[0]), [['FileNames', 'keyword.other.section.hlo']]);
  assert.deepEqual(innermost(lines[1]), [
    ['1', 'constant.numeric.integer.hlo'],
    ['"', 'punctuation.definition.string.begin.hlo'],
    ['/tmp/f.py', 'string.quoted.double.hlo'],
    ['"', 'punctuation.definition.string.end.hlo'],
  ]);
  assert.deepEqual(table(lines[2]), [['StackFrames', 'keyword.other.section.hlo']]);
  assert.deepEqual(scopesOf(lines[3], 'parent_frame_id'), ['entity.other.attribute-name.hlo']);
});

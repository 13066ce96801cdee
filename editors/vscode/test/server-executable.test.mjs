// hlolint.path → the executable the extension starts (src/server-executable.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findServerExecutable } from '../out/server-executable.js';

const root = mkdtempSync(join(tmpdir(), 'hlolint-vscode-test-'));
test.after(() => rmSync(root, { recursive: true, force: true }));

const bin = join(root, 'bin');
const workspace = join(root, 'workspace');
const home = join(root, 'home');
for (const dir of [bin, join(workspace, 'build'), join(home, '.local/bin'), join(root, 'empty')]) {
  mkdirSync(dir, { recursive: true });
}
function file(path, mode) {
  writeFileSync(path, '#!/bin/sh\n');
  chmodSync(path, mode);
  return path;
}
const onPath = file(join(bin, 'hlolint'), 0o755);
const inWorkspace = file(join(workspace, 'build/hlolint'), 0o755);
const inHome = file(join(home, '.local/bin/hlolint'), 0o755);
const notExecutable = file(join(bin, 'hlolint-plain'), 0o644);

function lookup(setting, overrides = {}) {
  return findServerExecutable(setting, {
    workspaceFolder: workspace,
    env: { PATH: `${join(root, 'empty')}:${bin}`, HOME: home },
    platform: 'linux',
    ...overrides,
  });
}

test('a bare name is searched on PATH', () => {
  assert.deepEqual(lookup('hlolint'), { found: true, executable: onPath });
  assert.deepEqual(lookup('  hlolint  '), { found: true, executable: onPath });
});

test('a bare name that is not on PATH says so', () => {
  assert.deepEqual(lookup('hlolint', { env: { PATH: join(root, 'empty') } }), {
    found: false,
    problem: '"hlolint" is not on PATH',
  });
  assert.deepEqual(lookup('hlolint', { env: {} }), { found: false, problem: '"hlolint" is not on PATH' });
});

test('a file on PATH without the execute bit is passed over', () => {
  assert.deepEqual(lookup('hlolint-plain'), { found: false, problem: '"hlolint-plain" is not on PATH' });
});

test('an absolute path is taken as it is', () => {
  assert.deepEqual(lookup(inWorkspace, { workspaceFolder: undefined }), { found: true, executable: inWorkspace });
});

test('a relative path is taken from the workspace folder', () => {
  assert.deepEqual(lookup('build/hlolint'), { found: true, executable: inWorkspace });
  assert.deepEqual(lookup('./build/hlolint'), { found: true, executable: inWorkspace });
  assert.deepEqual(lookup('build/hlolint', { workspaceFolder: undefined }), {
    found: false,
    problem: '"build/hlolint" is a relative path and no folder is open',
  });
});

test('${workspaceFolder} and ~ are expanded', () => {
  assert.deepEqual(lookup('${workspaceFolder}/build/hlolint'), { found: true, executable: inWorkspace });
  assert.deepEqual(lookup('~/.local/bin/hlolint'), { found: true, executable: inHome });
  assert.deepEqual(lookup('${workspaceFolder}/build/hlolint', { workspaceFolder: undefined }), {
    found: false,
    problem: '"${workspaceFolder}/build/hlolint" uses ${workspaceFolder} and no folder is open',
  });
});

test('a path that is missing, a directory or not executable says which', () => {
  assert.deepEqual(lookup('build/missing'), {
    found: false,
    problem: `${join(workspace, 'build/missing')} does not exist`,
  });
  assert.deepEqual(lookup('./build'), { found: false, problem: `${join(workspace, 'build')} is not a file` });
  assert.deepEqual(lookup(notExecutable), { found: false, problem: `${notExecutable} is not executable` });
});

test('an empty setting says so', () => {
  assert.deepEqual(lookup(' '), { found: false, problem: 'hlolint.path is empty' });
});

test('on Windows, PATH is split at ";" and PATHEXT extensions are tried', () => {
  const windowsBin = join(root, 'windows');
  mkdirSync(windowsBin);
  const exe = file(join(windowsBin, 'hlolint.EXE'), 0o755);
  const env = { Path: `${join(root, 'empty')};${windowsBin}`, PATHEXT: '.COM;.EXE' };
  assert.deepEqual(lookup('hlolint', { platform: 'win32', env }), { found: true, executable: exe });
});

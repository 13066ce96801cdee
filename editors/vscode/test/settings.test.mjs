// The settings the extension declares: its own (path, args, trace.server)
// and every key the server reads (lib/lsp/settings.cc), each unset (null)
// by default so the server's command-line options show through.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const properties = manifest.contributes.configuration.properties;
const source = readFileSync(new URL('../../../lib/lsp/settings.cc', import.meta.url), 'utf8');
const serverKeys = [...source.matchAll(/\{"(\w+)", &SettingsReader::/g)].map((m) => m[1]);

test('every server setting is declared, unset by default', () => {
  assert.ok(serverKeys.length >= 10, `${serverKeys.length} keys found in settings.cc`);
  for (const key of serverKeys) {
    const property = properties[`hlolint.${key}`];
    assert.ok(property, `hlolint.${key} is not declared`);
    assert.equal(property.default, null, `hlolint.${key}'s default`);
    assert.ok(property.markdownDescription, `hlolint.${key} has no description`);
  }
});

test('nothing else is declared but the extension\'s own settings', () => {
  const own = ['hlolint.path', 'hlolint.args', 'hlolint.trace.server'];
  const declared = Object.keys(properties).sort();
  assert.deepEqual(declared, [...own, ...serverKeys.map((key) => `hlolint.${key}`)].sort());
});

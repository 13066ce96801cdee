// The packaged extension: what the .vsix holds, and the extension unpacked
// from it starting and stopping a real `hlolint lsp` under a fake VS Code
// API (run-extension.cjs). Run by ../../check.sh after `npm run package`:
//   VSIX=hlolint-0.1.0.vsix HLOLINT=/path/to/hlolint node --test test/packaged/vsix.check.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const { VSIX, HLOLINT } = process.env;
assert.ok(VSIX && existsSync(VSIX), 'set VSIX to the .vsix to check');
assert.ok(HLOLINT && existsSync(HLOLINT), 'set HLOLINT to an hlolint executable');

const work = mkdtempSync(join(tmpdir(), 'hlolint-vsix-'));
test.after(() => rmSync(work, { recursive: true, force: true }));
execFileSync('python3', ['-m', 'zipfile', '-e', resolve(VSIX), join(work, 'vsix')]);
const extensionDir = join(work, 'vsix', 'extension');

test('the .vsix holds the extension and its runtime dependencies, nothing else', () => {
  assert.deepEqual(readdirSync(extensionDir).sort(), [
    'LICENSE.txt', 'language-configuration.json', 'node_modules', 'out', 'package.json', 'readme.md', 'schemas',
    'syntaxes',
  ]);
  assert.deepEqual(readdirSync(join(extensionDir, 'out')).sort(), [
    'extension.js', 'server-controller.js', 'server-executable.js',
  ]);
  assert.deepEqual(readdirSync(join(extensionDir, 'syntaxes')), ['hlo.tmLanguage.json']);
  assert.deepEqual(readdirSync(join(extensionDir, 'schemas')), ['hlolint-config.schema.json']);
  assert.deepEqual(readdirSync(join(extensionDir, 'node_modules')).sort(), [
    'balanced-match', 'brace-expansion', 'minimatch', 'semver', 'vscode-jsonrpc', 'vscode-languageclient',
    'vscode-languageserver-protocol', 'vscode-languageserver-textdocument', 'vscode-languageserver-types',
  ]);
  const files = readdirSync(join(extensionDir, 'node_modules'), { recursive: true });
  assert.deepEqual(files.filter((f) => /(^|\/)(esm|browser)(\/|$)|\.ts$|\.map$|README\.md$/.test(f)), []);
});

test('.hlolint.json is validated with the schema in docs/', () => {
  const manifest = JSON.parse(readFileSync(join(extensionDir, 'package.json'), 'utf8'));
  assert.deepEqual(manifest.contributes.jsonValidation,
                   [{ fileMatch: '.hlolint.json', url: './schemas/hlolint-config.schema.json' }]);
  assert.equal(readFileSync(join(extensionDir, 'schemas', 'hlolint-config.schema.json'), 'utf8'),
               readFileSync(join('..', '..', 'docs', 'hlolint-config.schema.json'), 'utf8'));
});

// A server that logs its arguments, what it is sent and its exit status
// next to itself, and runs hlolint. It exits when hlolint does, as hlolint
// run directly would.
function loggingServer(name) {
  const dir = join(work, name);
  mkdirSync(dir);
  const script = join(dir, 'hlolint-logged');
  writeFileSync(script, `#!${process.execPath}
const { appendFileSync } = require('node:fs');
const { spawn } = require('node:child_process');
const args = process.argv.slice(2);
appendFileSync(${JSON.stringify(join(dir, 'log'))}, ['start:', ...args].join(' ') + '\\n');
const server = spawn(${JSON.stringify(resolve(HLOLINT))}, args, { stdio: ['pipe', 'inherit', 'inherit'] });
process.stdin.on('data', (data) => {
  appendFileSync(${JSON.stringify(join(dir, 'input'))}, data);
  server.stdin.write(data, () => {});
});
process.stdin.on('end', () => server.stdin.end());
server.stdin.on('error', () => {});
server.on('exit', (code) => {
  appendFileSync(${JSON.stringify(join(dir, 'log'))}, 'exit: ' + code + '\\n');
  process.exit(code);
});
`, { mode: 0o755 });
  return {
    script,
    // The log once every server started has exited: the start lines, then
    // the exit lines. (A server exits a moment after its exit notification,
    // which can be after the next one started; the protocol messages show
    // that one server was told to exit before the next one started.)
    async log() {
      for (let waited = 0; waited < 10_000; waited += 50) {
        const lines = existsSync(join(dir, 'log')) ? readFileSync(join(dir, 'log'), 'utf8').trim().split('\n') : [];
        const starts = lines.filter((l) => l.startsWith('start:')).length;
        if (lines.length === 2 * starts) {
          return [...lines.filter((l) => l.startsWith('start:')), ...lines.filter((l) => l.startsWith('exit:'))];
        }
        await sleep(50);
      }
      assert.fail(`a server did not exit: ${readFileSync(join(dir, 'log'), 'utf8')}`);
    },
    // The messages the servers were sent, in order.
    messages() {
      const input = existsSync(join(dir, 'input')) ? readFileSync(join(dir, 'input')) : Buffer.alloc(0);
      const messages = [];
      for (let at = 0; at < input.length;) {
        const headerEnd = input.indexOf('\r\n\r\n', at);
        const length = Number(/Content-Length: (\d+)/.exec(input.subarray(at, headerEnd).toString())[1]);
        messages.push(JSON.parse(input.subarray(headerEnd + 4, headerEnd + 4 + length).toString()));
        at = headerEnd + 4 + length;
      }
      return messages;
    },
    methods() {
      // Replies to the server's own requests have no method.
      return this.messages().map((m) => m.method).filter((m) => m !== undefined && !m.startsWith('$/'));
    },
  };
}

function runExtension(scenario) {
  const runner = new URL('run-extension.cjs', import.meta.url).pathname;
  return JSON.parse(execFileSync(process.execPath, [runner, extensionDir, JSON.stringify(scenario)], {
    encoding: 'utf8',
    timeout: 30_000,
  }));
}

test('a missing executable: an error that names the setting, which it opens', () => {
  const record = runExtension({ settings: { path: '/nonexistent/dir/hlolint' }, answer: 'Open Settings' });
  assert.deepEqual(record.registeredCommands, ['hlolint.restartServer']);
  assert.deepEqual(record.errorMessages, [
    'hlolint: cannot start the language server: /nonexistent/dir/hlolint does not exist. ' +
      'Set "hlolint.path" to the hlolint executable.',
  ]);
  assert.deepEqual(record.executedCommands, [['workbench.action.openSettings', 'hlolint.path']]);
});

test('an executable that is not on PATH', () => {
  const record = runExtension({ settings: { path: 'hlolint-not-installed-anywhere' } });
  assert.deepEqual(record.errorMessages, [
    'hlolint: cannot start the language server: "hlolint-not-installed-anywhere" is not on PATH. ' +
      'Set "hlolint.path" to the hlolint executable.',
  ]);
  assert.deepEqual(record.executedCommands, []);
});

test('hlolint lsp is started, initialized with the settings, and shut down on deactivation', async () => {
  const server = loggingServer('plain');
  const record = runExtension({ settings: { path: server.script, select: ['verify'] } });
  assert.deepEqual(record.errorMessages, []);
  assert.deepEqual(await server.log(), ['start: lsp', 'exit: 0']);
  assert.deepEqual(server.methods(), ['initialize', 'initialized', 'shutdown', 'exit']);
  const [initialize] = server.messages();
  assert.deepEqual(initialize.params.initializationOptions, { path: server.script, select: ['verify'] });
});

test('"hlolint: Restart server" stops the server and starts another', async () => {
  const server = loggingServer('restart');
  const record = runExtension({ settings: { path: server.script }, steps: ['restart'] });
  assert.deepEqual(record.errorMessages, []);
  assert.deepEqual(await server.log(), ['start: lsp', 'start: lsp', 'exit: 0', 'exit: 0']);
  assert.deepEqual(server.methods(), [
    'initialize', 'initialized', 'shutdown', 'exit', 'initialize', 'initialized', 'shutdown', 'exit',
  ]);
});

test('changing hlolint.args restarts the server with them; a server that refuses them is not restarted', async () => {
  const server = loggingServer('args');
  const record = runExtension({
    settings: { path: server.script },
    steps: [{ settings: { args: ['--no-such-argument'] } }],
  });
  const log = await server.log();
  assert.deepEqual(log.slice(0, 3), ['start: lsp', 'start: lsp --no-such-argument', 'exit: 0']);
  assert.match(log[3], /^exit: [1-9]\d*$/, 'the server refused the argument');
  assert.equal(log.length, 4);
  // vscode-languageclient says that it could not connect; the extension says
  // which command failed and which settings to check.
  assert.equal(record.errorMessages.length, 2, JSON.stringify(record.errorMessages));
  assert.match(record.errorMessages[0], /^hlolint client: couldn't create connection to server\./);
  const command = `${server.script} lsp --no-such-argument`;
  assert.ok(
    record.errorMessages[1].startsWith(`hlolint: cannot start the language server: \`${command}\` failed: `) &&
      record.errorMessages[1].endsWith('. Its messages are in the hlolint output. Check "hlolint.path" and "hlolint.args".'),
    record.errorMessages[1],
  );
  // The server's stderr (whose wording is the server's business) is there.
  assert.ok(
    record.output.some((line) => line.includes('--no-such-argument') && !line.includes('cannot start the language server')),
    `the server's stderr is not in the output channel: ${JSON.stringify(record.output)}`,
  );
});

test('other settings reach the running server without a restart', async () => {
  const server = loggingServer('settings');
  const record = runExtension({
    settings: { path: server.script },
    steps: [{ settings: { xlaVersion: '2026-06-03' } }, { settings: { 'trace.server': 'messages' } }],
  });
  assert.deepEqual(record.errorMessages, []);
  assert.deepEqual(await server.log(), ['start: lsp', 'exit: 0']);
  const changes = server.messages().filter((m) => m.method === 'workspace/didChangeConfiguration');
  assert.deepEqual(changes.map((m) => m.params), [
    { settings: { hlolint: { path: server.script, xlaVersion: '2026-06-03' } } },
    { settings: { hlolint: { path: server.script, xlaVersion: '2026-06-03', trace: { server: 'messages' } } } },
  ]);
  assert.deepEqual(server.methods(), [
    'initialize', 'initialized', 'workspace/didChangeConfiguration', 'workspace/didChangeConfiguration', 'shutdown',
    'exit',
  ]);
});

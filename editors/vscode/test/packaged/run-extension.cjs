// Runs the extension unpacked from a .vsix under the fake VS Code API
// (fake-vscode.cjs) through one scenario, and prints what it did as JSON.
//   node run-extension.cjs EXTENSION_DIR SCENARIO_JSON
// SCENARIO_JSON: {settings, answer, steps: ["restart" | {settings: {...}}]}
'use strict';
const Module = require('node:module');
const path = require('node:path');
const { createFakeVscode } = require('./fake-vscode.cjs');

const [extensionDir, scenarioJson] = process.argv.slice(2);
const scenario = JSON.parse(scenarioJson);
const fake = createFakeVscode({ settings: scenario.settings, answer: scenario.answer });

const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === 'vscode' ? 'vscode' : resolve.call(this, request, ...rest);
};
require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: fake.vscode };

const settle = () => new Promise((done) => setTimeout(done, 300));

(async () => {
  const extension = require(path.join(extensionDir, 'out', 'extension.js'));
  const context = { subscriptions: [] };
  await extension.activate(context);
  for (const step of scenario.steps ?? []) {
    if (step === 'restart') {
      await fake.runCommand('hlolint.restartServer');
    } else {
      fake.changeSettings(step.settings);
    }
    await settle();
  }
  await settle();
  await extension.deactivate();
  for (const disposable of context.subscriptions) disposable.dispose();
  // Without waiting for the client's timer that would kill a server that
  // outlived its exit notification: the test sees the exit status instead.
  process.stdout.write(JSON.stringify(fake.record), () => process.exit(0));
})().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});

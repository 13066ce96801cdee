// The part of VS Code's extension API that the extension and
// vscode-languageclient touch while starting and stopping a server, faked
// well enough to run them in plain Node. Whatever is not written out here is
// a stub: callable, constructible, every property another stub.
'use strict';

function stub(name) {
  const callable = function () {
    return stub(`${name}()`);
  };
  return new Proxy(callable, {
    get(_target, property) {
      if (property === 'then') return undefined; // not a promise
      if (property === Symbol.iterator) return function* () {};
      if (property === Symbol.toPrimitive) return () => name;
      if (property === 'dispose') return () => {};
      return stub(`${name}.${String(property)}`);
    },
    construct() {
      return stub(`new ${name}`);
    },
  });
}

// Named members first, a stub for anything else.
function withStubs(name, members) {
  return new Proxy(members, { get: (target, p) => (p in target ? target[p] : stub(`${name}.${String(p)}`)) });
}

class Disposable {
  constructor(onDispose) {
    this.onDispose = onDispose;
  }
  dispose() {
    this.onDispose?.();
  }
  static from(...disposables) {
    return new Disposable(() => disposables.forEach((d) => d.dispose?.()));
  }
}

class EventEmitter {
  listeners = [];
  event = (listener) => {
    this.listeners.push(listener);
    return new Disposable(() => this.listeners.splice(this.listeners.indexOf(listener), 1));
  };
  fire(value) {
    for (const listener of [...this.listeners]) listener(value);
  }
  dispose() {}
}

// {"trace.server": "off"} -> {trace: {server: "off"}}, as VS Code gives a section.
function nested(flat) {
  const result = {};
  for (const [key, value] of Object.entries(flat)) {
    const path = key.split('.');
    let object = result;
    for (const part of path.slice(0, -1)) object = object[part] ??= {};
    object[path.at(-1)] = value;
  }
  return result;
}

// settings: the hlolint.* settings; answer: what the user clicks in an
// error message. The returned `record` collects what the extension did.
function createFakeVscode({ settings, answer }) {
  const record = { errorMessages: [], output: [], registeredCommands: [], executedCommands: [] };
  const noEvent = () => new Disposable();
  const configurationChanged = new EventEmitter();
  const commands = new Map();
  const channel = { name: 'hlolint', logLevel: 2, onDidChangeLogLevel: noEvent };
  for (const level of ['append', 'appendLine', 'replace', 'trace', 'debug', 'info', 'warn', 'error']) {
    channel[level] = (...parts) => record.output.push(`${level}: ${parts.join(' ')}`);
  }
  for (const method of ['clear', 'show', 'hide', 'dispose']) channel[method] = () => {};

  const vscode = withStubs('vscode', {
    version: '1.91.0',
    Disposable,
    EventEmitter,
    window: withStubs('window', {
      createOutputChannel: () => channel,
      showErrorMessage: async (message, ...items) => {
        record.errorMessages.push(message);
        return items.includes(answer) ? answer : undefined;
      },
      showWarningMessage: async () => undefined,
      showInformationMessage: async () => undefined,
      onDidChangeActiveTextEditor: noEvent,
      onDidChangeVisibleTextEditors: noEvent,
      visibleTextEditors: [],
      tabGroups: { all: [], onDidChangeTabs: noEvent },
    }),
    workspace: withStubs('workspace', {
      getConfiguration: (section) => ({
        get: (key, fallback) => {
          if (section === 'hlolint') return key in settings ? settings[key] : fallback;
          if (section === undefined && key === 'hlolint') return nested(settings);
          return fallback;
        },
        has: () => false,
        inspect: () => undefined,
        update: async () => {},
      }),
      workspaceFolders: undefined,
      textDocuments: [],
      notebookDocuments: [],
      onDidChangeConfiguration: configurationChanged.event,
      onDidOpenTextDocument: noEvent,
      onDidCloseTextDocument: noEvent,
      onDidChangeTextDocument: noEvent,
      onDidSaveTextDocument: noEvent,
      onWillSaveTextDocument: noEvent,
      onDidChangeWorkspaceFolders: noEvent,
    }),
    commands: withStubs('commands', {
      registerCommand: (id, handler) => {
        record.registeredCommands.push(id);
        commands.set(id, handler);
        return new Disposable(() => commands.delete(id));
      },
      executeCommand: async (id, ...args) => {
        record.executedCommands.push([id, ...args]);
        return commands.get(id)?.(...args);
      },
    }),
  });

  // What VS Code does when the user edits settings.
  function changeSettings(changes) {
    Object.assign(settings, changes);
    const changed = Object.keys(changes).map((key) => `hlolint.${key}`);
    configurationChanged.fire({
      affectsConfiguration: (section) => changed.some((key) => key === section || key.startsWith(`${section}.`)),
    });
  }

  return { vscode, record, changeSettings, runCommand: (id) => commands.get(id)() };
}

module.exports = { createFakeVscode };

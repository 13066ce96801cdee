// Starts, stops and restarts the language client that runs `hlolint lsp`.
import * as vscode from 'vscode';
import {
  CloseAction,
  DidChangeConfigurationNotification,
  ErrorAction,
  ErrorHandler,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
} from 'vscode-languageclient/node';
import { findServerExecutable } from './server-executable';

const CLIENT_ID = 'hlolint';

export class ServerController {
  private client: LanguageClient | undefined;
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly output: vscode.LogOutputChannel) {}

  start(): Promise<void> {
    return this.enqueue(() => this.startNow());
  }

  stop(): Promise<void> {
    return this.enqueue(() => this.stopNow());
  }

  restart(): Promise<void> {
    return this.enqueue(async () => {
      await this.stopNow();
      await this.startNow();
    });
  }

  // Settings can change several times in quick succession: each step waits
  // for the one before, so two servers never run at once.
  private enqueue(step: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(step).catch((error: unknown) => {
      this.output.error(describe(error));
    });
    return this.queue;
  }

  // Settings other than the executable and its arguments reach the running
  // server without a restart (workspace/didChangeConfiguration).
  sendSettings(): Promise<void> {
    return this.enqueue(async () => {
      if (this.client?.isRunning()) {
        await this.client.sendNotification(DidChangeConfigurationNotification.type, {
          settings: { hlolint: hlolintSettings() },
        });
      }
    });
  }

  private async startNow(): Promise<void> {
    const settings = vscode.workspace.getConfiguration('hlolint');
    const pathSetting = settings.get<string>('path', 'hlolint');
    const argsSetting = settings.get<unknown>('args', []);
    const extraArgs = Array.isArray(argsSetting) ? argsSetting.map(String) : [];
    const workspaceFolder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath;
    const lookup = findServerExecutable(pathSetting, {
      workspaceFolder,
      env: process.env,
      platform: process.platform,
    });
    if (!lookup.found) {
      reportCannotStart(this.output, `${lookup.problem}.`, 'Set "hlolint.path" to the hlolint executable.');
      return;
    }
    const serverOptions: ServerOptions = {
      command: lookup.executable,
      args: ['lsp', ...extraArgs],
      options: { cwd: workspaceFolder },
    };
    const errors = new StartupErrorHandler(() => client.createDefaultErrorHandler());
    const clientOptions: LanguageClientOptions = {
      documentSelector: [{ language: 'hlo' }],
      // One channel for the whole session, so that restarts do not pile up channels.
      outputChannel: this.output,
      errorHandler: errors,
      initializationFailedHandler: () => false,
      // The server reads the rest of the hlolint.* settings (select, ignore,
      // xlaVersion, ...: docs/editors.md) and ignores path, args and trace.
      initializationOptions: () => hlolintSettings(),
    };
    // The client reads hlolint.trace.server itself (the setting is named
    // after CLIENT_ID) and follows its changes without a restart.
    const client = new LanguageClient(CLIENT_ID, 'hlolint', serverOptions, clientOptions);
    this.client = client;
    try {
      await client.start();
      errors.started = true;
    } catch (error) {
      // A client whose start failed has no server to stop.
      this.client = undefined;
      const command = [lookup.executable, 'lsp', ...extraArgs].join(' ');
      reportCannotStart(
        this.output,
        `\`${command}\` failed: ${describe(error)}. Its messages are in the hlolint output.`,
        'Check "hlolint.path" and "hlolint.args".',
      );
    }
  }

  private async stopNow(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client === undefined) return;
    try {
      // shutdown and exit, then the client's providers and diagnostics go too.
      await client.dispose();
    } catch (error) {
      this.output.error(`stopping the server: ${describe(error)}`);
    }
  }
}

// A server that exits before it has answered `initialize` (a wrong argument,
// say) exits again when restarted: it is reported once (reportCannotStart),
// not restarted. Once it runs, the client's default handling applies
// (restarts, within limits).
class StartupErrorHandler implements ErrorHandler {
  started = false;
  private running: ErrorHandler | undefined;

  constructor(private readonly makeDefault: () => ErrorHandler) {}

  error(...args: Parameters<ErrorHandler['error']>): ReturnType<ErrorHandler['error']> {
    if (!this.started) return { action: ErrorAction.Shutdown, handled: true };
    return this.afterStartup().error(...args);
  }

  closed(): ReturnType<ErrorHandler['closed']> {
    if (!this.started) return { action: CloseAction.DoNotRestart, handled: true };
    return this.afterStartup().closed();
  }

  private afterStartup(): ErrorHandler {
    this.running ??= this.makeDefault();
    return this.running;
  }
}

// The hlolint.* settings as a plain object.
function hlolintSettings(): object {
  return vscode.workspace.getConfiguration().get<object>('hlolint') ?? {};
}

function reportCannotStart(output: vscode.LogOutputChannel, reason: string, remedy: string): void {
  const message = `hlolint: cannot start the language server: ${reason} ${remedy}`;
  output.error(message);
  const openSettings = 'Open Settings';
  void vscode.window.showErrorMessage(message, openSettings).then((choice) => {
    if (choice === openSettings) {
      void vscode.commands.executeCommand('workbench.action.openSettings', 'hlolint.path');
    }
  });
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// The hlolint extension: an `hlo` language (contributed in package.json)
// served by `hlolint lsp`.
import * as vscode from 'vscode';
import { ServerController } from './server-controller';

let controller: ServerController | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel('hlolint', { log: true });
  const server = new ServerController(output);
  controller = server;
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand('hlolint.restartServer', () => server.restart()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('hlolint.path') || event.affectsConfiguration('hlolint.args')) {
        void server.restart();
      } else if (event.affectsConfiguration('hlolint')) {
        void server.sendSettings();
      }
    }),
  );
  await server.start();
}

export function deactivate(): Promise<void> | undefined {
  return controller?.stop();
}

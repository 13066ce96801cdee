// Finds the hlolint executable that the hlolint.path setting names. Kept
// free of the vscode module so that plain Node tests can run it.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface LookupContext {
  /** The first workspace folder, for `${workspaceFolder}` and relative paths. */
  workspaceFolder?: string;
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
}

export type Lookup = { found: true; executable: string } | { found: false; problem: string };

export function findServerExecutable(setting: string, context: LookupContext): Lookup {
  const trimmed = setting.trim();
  if (trimmed === '') {
    return { found: false, problem: 'hlolint.path is empty' };
  }
  const expanded = expandVariables(trimmed, context);
  if (!expanded.ok) {
    return { found: false, problem: expanded.problem };
  }
  const candidate = expanded.value;
  if (!hasDirectory(candidate, context.platform)) {
    return searchPath(candidate, context);
  }
  if (!path.isAbsolute(candidate) && context.workspaceFolder === undefined) {
    return { found: false, problem: `"${candidate}" is a relative path and no folder is open` };
  }
  const absolute = path.resolve(context.workspaceFolder ?? '', candidate);
  const problem = whyNotExecutable(absolute);
  return problem === undefined ? { found: true, executable: absolute } : { found: false, problem };
}

function expandVariables(
  setting: string,
  context: LookupContext,
): { ok: true; value: string } | { ok: false; problem: string } {
  let value = setting;
  if (value === '~' || value.startsWith('~/')) {
    value = path.join(context.env.HOME ?? os.homedir(), value.slice(1));
  }
  if (value.includes('${workspaceFolder}')) {
    if (context.workspaceFolder === undefined) {
      return { ok: false, problem: `"${setting}" uses \${workspaceFolder} and no folder is open` };
    }
    value = value.split('${workspaceFolder}').join(context.workspaceFolder);
  }
  return { ok: true, value };
}

function hasDirectory(candidate: string, platform: NodeJS.Platform): boolean {
  return candidate.includes('/') || (platform === 'win32' && candidate.includes('\\'));
}

// A bare name is looked up as a shell would; on Windows also with each
// PATHEXT extension, since settings usually leave ".exe" out.
function searchPath(name: string, context: LookupContext): Lookup {
  const delimiter = context.platform === 'win32' ? ';' : ':';
  const directories = (context.env.PATH ?? context.env.Path ?? '').split(delimiter).filter((d) => d !== '');
  const extensions =
    context.platform === 'win32' ? ['', ...(context.env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';')] : [''];
  for (const directory of directories) {
    for (const extension of extensions) {
      const candidate = path.join(directory, name + extension);
      if (whyNotExecutable(candidate) === undefined) {
        return { found: true, executable: candidate };
      }
    }
  }
  return { found: false, problem: `"${name}" is not on PATH` };
}

function whyNotExecutable(file: string): string | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return `${file} does not exist`;
  }
  if (!stat.isFile()) {
    return `${file} is not a file`;
  }
  try {
    fs.accessSync(file, fs.constants.X_OK);
  } catch {
    return `${file} is not executable`;
  }
  return undefined;
}

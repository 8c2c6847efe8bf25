// The commands the build scripts start (npm, and the tools in node_modules), built the same way on
// every platform: Node runs the tool's own JavaScript entry with `shell: false`, so no path is ever
// split on a space (a project under C:\Users\Jane Doe\) and Windows never has to start a .cmd file
// (Node 20.12+ refuses npm.cmd without a shell: EINVAL, and a shell would split the unquoted paths).
import { existsSync } from 'node:fs';
import { dirname, join, win32 } from 'node:path';

/**
 * The JavaScript entry of each tool the scripts run, inside node_modules (their package.json `bin`).
 * Run with Node itself, they need no .cmd shim on Windows and no shell anywhere.
 */
export const TOOL_ENTRIES = Object.freeze({
  'electron-vite': ['electron-vite', 'bin', 'electron-vite.js'],
  'electron-builder': ['electron-builder', 'cli.js'],
  'electron-rebuild': ['@electron', 'rebuild', 'lib', 'cli.js'],
});

/**
 * @typedef {{ command: string, args: string[], options: { shell: false, windowsHide: true } }} Command
 * @typedef {{ platform?: NodeJS.Platform, env?: Record<string, string | undefined>, execPath?: string, exists?: (path: string) => boolean }} Where
 */

/** @param {string} command @param {string[]} args @returns {Command} */
const direct = (command, args) => ({ command, args, options: { shell: false, windowsHide: true } });

/**
 * A tool in node_modules: Node runs its JavaScript entry. The same on every platform.
 * @param {string} root the project folder @param {keyof typeof TOOL_ENTRIES} tool @param {string[]} args @param {Where} [where]
 * @returns {Command}
 */
export function toolCommand(root, tool, args, where = {}) {
  const parts = TOOL_ENTRIES[tool];
  if (!parts) throw new Error(`No such tool: ${tool}`);
  const path = (where.platform ?? process.platform) === 'win32' ? win32.join : join;
  return direct(where.execPath ?? process.execPath, [path(root, 'node_modules', ...parts), ...args]);
}

/**
 * npm's own JavaScript entry (npm-cli.js): the one npm is running this script with (npm_execpath), or
 * the one installed beside Node (Windows: <node folder>\node_modules\npm\bin; elsewhere
 * <prefix>/lib/node_modules/npm/bin). Null when neither is there.
 * @param {Where} where @returns {string | null}
 */
export function npmCli(where = {}) {
  const env = where.env ?? process.env;
  const exists = where.exists ?? existsSync;
  const platform = where.platform ?? process.platform;
  const fromNpm = env.npm_execpath;
  if (fromNpm && /npm-cli\.[cm]?js$/i.test(fromNpm) && exists(fromNpm)) return fromNpm;
  const path = platform === 'win32' ? win32 : { join, dirname };
  const nodeDir = path.dirname(where.execPath ?? process.execPath);
  const beside =
    platform === 'win32'
      ? path.join(nodeDir, 'node_modules', 'npm', 'bin', 'npm-cli.js')
      : path.join(nodeDir, '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js');
  return exists(beside) ? beside : null;
}

/**
 * npm with `args`: Node runs npm-cli.js when it can be found, on every platform. Without it, `npm`
 * itself where it is an executable (not Windows, whose npm.cmd cannot start without a shell).
 * @param {string[]} args @param {Where} [where] @returns {Command}
 */
export function npmCommand(args, where = {}) {
  const cli = npmCli(where);
  if (cli) return direct(where.execPath ?? process.execPath, [cli, ...args]);
  if ((where.platform ?? process.platform) === 'win32') {
    throw new Error(
      "Cannot find npm's npm-cli.js beside Node. Run this through npm (npm run …), which tells scripts where npm is, or reinstall Node with npm.",
    );
  }
  return direct('npm', args);
}

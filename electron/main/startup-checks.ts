// Checks made before the app starts: command-line switches that would open it
// to inspection or control, and demo mode's own user-data folder. Plain
// functions, no electron import, so they are tested in Node.
import { isAbsolute, join } from 'node:path';

/**
 * Switches the packaged app refuses. The fuses turn off Node's `--inspect`
 * family and NODE_OPTIONS; the rest are Chromium's and are checked here.
 * Each one lets another program attach to the app, run code inside it, watch
 * its traffic or weaken what guards the key:
 */
const FORBIDDEN = new Set([
  // DevTools protocol: another program drives the app (and reads the key from memory).
  'remote-debugging-port',
  'remote-debugging-pipe',
  'remote-debugging-address',
  'remote-debugging-io-pipes',
  'remote-debugging-targets',
  'remote-allow-origins',
  'auto-open-devtools-for-tabs',
  // Node's inspector and V8's flags (Electron also knows --inspect-brk-node).
  'inspect',
  'inspect-brk',
  'inspect-brk-node',
  'inspect-port',
  'inspect-wait',
  'inspect-publish-uid',
  'debug',
  'debug-brk',
  'debug-port',
  'js-flags',
  'v8-options',
  // Child processes started under a debugger or another program (the core process holds the key).
  'wait-for-debugger',
  'wait-for-debugger-children',
  'renderer-cmd-prefix',
  'utility-cmd-prefix',
  'gpu-launcher',
  'browser-subprocess-path',
  'renderer-startup-dialog',
  'utility-startup-dialog',
  'gpu-startup-dialog',
  // Traffic or TLS secrets written out, or certificate checks off: the key could be read on the wire.
  'ssl-key-log-file',
  'log-net-log',
  'net-log-capture-mode',
  'ignore-certificate-errors',
  'ignore-certificate-errors-spki-list',
  // The window's guards taken down.
  'disable-web-security',
  'allow-file-access-from-files',
  'allow-running-insecure-content',
  'disable-site-isolation-trials',
  // Chromium's own logging (stderr or a file) of what the app does.
  'enable-logging',
  'log-file',
]);

/**
 * The first forbidden switch in `argv`, as `--name`, or null.
 *
 * Matched the way Chromium and Node read switches, only wider: any case, a
 * `--` or `-` prefix (and `/` on Windows, where Chromium accepts it too), with
 * or without `=value`, `_` read as `-` (Node accepts `--inspect_brk`). Every
 * argument is checked, including those after a bare `--`.
 */
export function forbiddenSwitch(argv: readonly string[], platform: NodeJS.Platform = process.platform): string | null {
  const prefix = platform === 'win32' ? /^(?:--?|\/)([A-Za-z0-9_-]+)(?:=[\s\S]*)?$/ : /^--?([A-Za-z0-9_-]+)(?:=[\s\S]*)?$/;
  for (const arg of argv) {
    const m = prefix.exec(arg.trim());
    if (!m) continue;
    const name = m[1]!.toLowerCase().replace(/_/g, '-');
    if (FORBIDDEN.has(name)) return `--${name}`;
  }
  return null;
}

/**
 * Demo mode's user-data folder, beside the real one: `<appData>/<productName> Demo`.
 *
 * With `app.setPath('userData', …)` called on this before anything else (and
 * before `ready`), the demo gets its own cache, settings, key check and log,
 * and its own single-instance lock, so it runs beside the real app. Electron's
 * lock is per user-data folder: `App::RequestSingleInstanceLock` builds
 * Chromium's ProcessSingleton on `chrome::DIR_USER_DATA`, which
 * `App::SetPath('userData')` overrides too (electron/electron,
 * shell/browser/api/electron_api_app.cc; the docs gap is electron/electron#29068,
 * and #18728 shows two apps sharing a folder sharing a lock). The API docs for
 * `app.setPath` say a folder that does not exist may throw: create it first.
 */
export function demoUserDataDir(appDataDir: string, productName: string): string {
  if (!isAbsolute(appDataDir)) throw new Error(`The app-data folder must be an absolute path (got ${JSON.stringify(appDataDir)}).`);
  const name = productName.trim() || 'Outreach Workbench';
  return join(appDataDir, `${name} Demo`);
}

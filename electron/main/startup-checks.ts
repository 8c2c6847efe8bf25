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

/** The switches that take Chromium's sandbox down. */
const SANDBOX_SWITCHES = new Set(['no-sandbox', 'disable-setuid-sandbox', 'disable-namespace-sandbox', 'no-zygote-sandbox', 'disable-gpu-sandbox']);

/**
 * An AppImage started without Chromium's sandbox, as `--name`, or null. electron-builder's AppImage
 * launcher adds --no-sandbox where `unshare -Ur true` fails: where the system forbids unprivileged
 * user namespaces, as Ubuntu 24.04 and later do with AppArmor (an AppImage cannot carry the
 * AppArmor profile or the set-uid helper the .deb installs). The app shows untrusted text from the
 * API in its window and does not run there unsandboxed: it says to install the .deb instead.
 */
export function unsandboxedAppImage(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform = process.platform,
): string | null {
  if (platform !== 'linux' || !env.APPIMAGE) return null;
  for (const arg of argv) {
    const name = /^--?([A-Za-z0-9_-]+)(?:=[\s\S]*)?$/.exec(arg.trim())?.[1]?.toLowerCase().replace(/_/g, '-');
    if (name && SANDBOX_SWITCHES.has(name)) return `--${name}`;
  }
  return null;
}

/**
 * What the refusal of `switchName` says: for an AppImage without its sandbox (unsandboxedAppImage),
 * the way out (the .deb, whose install sets the sandbox up); for the rest, to start without it.
 */
export function refusalWords(switchName: string, env: Readonly<Record<string, string | undefined>>): { title: string; message: string } {
  if (SANDBOX_SWITCHES.has(switchName.replace(/^--/, '')) && env.APPIMAGE) {
    return {
      title: 'Outreach Workbench needs its .deb package on this system',
      message:
        'This copy of Outreach Workbench is an AppImage, and this system does not let an AppImage start the sandbox that keeps the app’s window apart from the rest of your computer (Ubuntu 24.04 and later restrict it). ' +
        'The app does not run without that sandbox. Install the .deb package of the same version instead: its installer sets the sandbox up. Your data stays where it is.',
    };
  }
  return {
    title: 'Outreach Workbench will not start',
    message: `The app was started with ${switchName}, which would let other programs inspect or control it. Start it without that option.`,
  };
}

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
  return profileUserDataDir(appDataDir, productName, { demo: true, dev: false });
}

/**
 * The user-data folder of a run: the installed app's own (`<appData>/<productName>`), or beside it
 * for the demo (`… Demo`) and for an app run from the repository (`npm run dev`, `npm start`: not
 * packaged, `… Dev`, and `… Dev Demo` for its demo). Each folder has its own cache, settings, log
 * and single-instance lock, so a developer's run never touches an installed app's cache or waits
 * on its lock. Throws for a relative app-data folder (app.setPath needs an absolute one).
 */
export function profileUserDataDir(appDataDir: string, productName: string, run: { demo: boolean; dev: boolean }): string {
  if (!isAbsolute(appDataDir)) throw new Error(`The app-data folder must be an absolute path (got ${JSON.stringify(appDataDir)}).`);
  const name = productName.trim() || 'Outreach Workbench';
  return join(appDataDir, `${name}${run.dev ? ' Dev' : ''}${run.demo ? ' Demo' : ''}`);
}

/**
 * The keychain entry's service name for a run: the installed app's ('Outreach Workbench', which the
 * `workbench` CLI shares), or its own for an app run from the repository. Main hands it to the core
 * process (WORKBENCH_KEYCHAIN_SERVICE), which holds the key.
 */
export function keychainServiceFor(productName: string, run: { dev: boolean }): string {
  const name = productName.trim() || 'Outreach Workbench';
  return run.dev ? `${name} Dev` : name;
}

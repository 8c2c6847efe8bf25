// The first things main does, in the order that makes them work, written
// against the shape of Electron's `app` so a fake that records its calls can
// test the order:
//   1. demo mode moves the user-data folder (app.setPath) before anything reads
//      it: the log, the single-instance lock (Chromium builds its lock on the
//      user-data folder), the cache, the settings and the keychain entry;
//   2. the log opens in the folder now in force, so a refusal below is logged;
//   3. the packaged app refuses switches that would open it to inspection or
//      control, and exits without taking the lock or opening a window;
//   4. the single-instance lock: a second instance quits at once, with no window.
// Only then may the caller go on to `ready` and windows.
import { demoUserDataDir, forbiddenSwitch } from './startup-checks';

/** The parts of Electron's `app` the start-up uses (Electron's own signatures). */
export interface StartupApp {
  readonly isPackaged: boolean;
  getName(): string;
  getPath(name: 'appData' | 'userData'): string;
  setPath(name: 'userData', path: string): void;
  requestSingleInstanceLock(): boolean;
  quit(): void;
  exit(exitCode?: number): void;
}

export interface StartupOptions<L extends { error(message: string): void }> {
  argv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  platform?: NodeJS.Platform;
  /** Create a folder and its parents (app.setPath may refuse one that does not exist yet). */
  makeDir(path: string): void;
  /** Open the log (and crash logging) in the user-data folder now in force. */
  openLog(userDataDir: string): L;
  /** Tell the user, in a native dialog, that the app will not start with `switchName`. */
  refuse(switchName: string, log: L): void;
}

export interface Started<L> {
  demo: boolean;
  userDataDir: string;
  log: L;
}

/** Demo mode: `npm run demo` (WORKBENCH_DEMO=1), or the app started with --demo. */
export function isDemo(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): boolean {
  return argv.includes('--demo') || env.WORKBENCH_DEMO === '1';
}

/**
 * Run the start-up steps in order. Returns what the rest of main needs, or
 * null when this process must not go on (it has already asked the app to
 * exit or quit, and holds no window).
 */
export function startUp<L extends { error(message: string): void }>(app: StartupApp, opts: StartupOptions<L>): Started<L> | null {
  const demo = isDemo(opts.argv, opts.env);
  if (demo) {
    const dir = demoUserDataDir(app.getPath('appData'), app.getName());
    opts.makeDir(dir);
    app.setPath('userData', dir);
  }
  const userDataDir = app.getPath('userData');
  const log = opts.openLog(userDataDir);

  const refused = app.isPackaged ? forbiddenSwitch(opts.argv, opts.platform) : null;
  if (refused) {
    log.error(`refused to start with ${refused}`);
    opts.refuse(refused, log);
    app.exit(1);
    return null;
  }
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }
  return { demo, userDataDir, log };
}

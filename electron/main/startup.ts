// The first things main does, in the order that makes them work, written
// against the shape of Electron's `app` so a fake that records its calls can
// test the order:
//   1. demo mode, and an app run from the repository (not packaged: npm run dev,
//      npm start), move the user-data folder (app.setPath) before anything reads
//      it: the log, the single-instance lock (Chromium builds its lock on the
//      user-data folder), the cache, the settings; a run from the repository
//      also gets its own keychain entry;
//   2. the log opens in the folder now in force, so a refusal below is logged;
//   3. the packaged app refuses switches that would open it to inspection or
//      control, and an AppImage started without its sandbox, and exits without taking the lock or
//      opening a window (the refusal may wait for 'ready' to show its dialog:
//      on Linux, a dialog before 'ready' only reaches stderr);
//   4. the single-instance lock: a second instance quits at once, with no window.
// Only then may the caller go on to `ready` and windows.
import { forbiddenSwitch, keychainServiceFor, profileUserDataDir, unsandboxedAppImage } from './startup-checks';

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
  /** Tell the user, in a native dialog, that the app will not start with `switchName`; the exit waits for a promise returned. */
  refuse(switchName: string, log: L): void | Promise<unknown>;
}

export interface Started<L> {
  demo: boolean;
  /** Run from the repository (not packaged): its own user-data folder and keychain entry. */
  dev: boolean;
  userDataDir: string;
  /** The keychain entry's service name the core process uses. */
  keychainService: string;
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
  const dev = !app.isPackaged;
  if (demo || dev) {
    const dir = profileUserDataDir(app.getPath('appData'), app.getName(), { demo, dev });
    opts.makeDir(dir);
    app.setPath('userData', dir);
  }
  const userDataDir = app.getPath('userData');
  const log = opts.openLog(userDataDir);

  const refused = app.isPackaged ? (forbiddenSwitch(opts.argv, opts.platform) ?? unsandboxedAppImage(opts.argv, opts.env, opts.platform)) : null;
  if (refused) {
    log.error(`refused to start with ${refused}`);
    const shown = opts.refuse(refused, log);
    if (shown instanceof Promise)
      void shown.then(
        () => app.exit(1),
        () => app.exit(1),
      );
    else app.exit(1);
    return null;
  }
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }
  return { demo, dev, userDataDir, keychainService: keychainServiceFor(app.getName(), { dev }), log };
}

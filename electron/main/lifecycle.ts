// Main's run after start-up (startup.ts), written against the shape of
// Electron's `app`, `dialog` and `protocol` so fakes can test it: on 'ready',
// the app:// handler, the core process (its cache opened within a time limit),
// the cache-failure dialog, the window; then quitting. Whatever goes wrong on
// the way ends in a logged error, a plain-words dialog and app.exit(1): never
// a running process with no window holding the single-instance lock.
// Quitting closes the core within a bounded wait and exits exactly once.
import type { CoreFailure, StartProgress } from '../../shared/core-link';
import { redactKeys } from '../../shared/rules';
import { APP_SCHEME, appProtocolHandler } from './app-protocol';
import { cacheFailureDialog } from './cache-failure';
import { CORE_READY_TIMEOUT_MS, CORE_STEP_TIMEOUT_MS, waitForCore, within } from './waiting';

export { CORE_READY_TIMEOUT_MS, CORE_STEP_TIMEOUT_MS };

/** How long quitting waits for the core to finish or roll back its write and close the cache. */
export const QUIT_SHUTDOWN_MS = 3_000;
/** How long a failed start waits for the core to close before the app exits. */
export const FAILED_START_SHUTDOWN_MS = 1_000;
/** Extra time past a shutdown's own limit before the app exits anyway (a core side that never answers). */
const BACKSTOP_MS = 2_000;

/** The parts of Electron's `app` the run uses (Electron's own signatures). */
export interface LifecycleApp {
  readonly isPackaged: boolean;
  whenReady(): Promise<void>;
  on(event: 'before-quit', listener: (event: { preventDefault(): void }) => void): unknown;
  on(event: 'second-instance', listener: () => void): unknown;
  on(event: 'window-all-closed', listener: () => void): unknown;
  on(event: 'activate', listener: () => void): unknown;
  getPath(name: 'userData'): string;
  quit(): void;
  exit(exitCode?: number): void;
}

export interface LifecycleDialog {
  showErrorBox(title: string, content: string): void;
  showMessageBox(options: {
    type: 'error';
    title: string;
    message: string;
    detail: string;
    buttons: string[];
    defaultId: number;
    cancelId: number;
    noLink: boolean;
  }): Promise<{ response: number }>;
}

export interface LifecycleProtocol {
  handle(scheme: string, handler: (request: Request) => Promise<Response>): void;
}

/** What the run needs of a core process (CoreSupervisor). */
export interface LifecycleCore {
  ready(): Promise<CoreFailure | null>;
  /** Each long step of opening the cache, as the core starts it. */
  onStartProgress?(listener: (progress: StartProgress) => void): void;
  launch(): void;
  shutdown(timeoutMs: number): Promise<'closed' | 'killed'>;
}

/** What the run needs of the window (BrowserWindow). */
export interface LifecycleWindow {
  isDestroyed(): boolean;
  isMinimized(): boolean;
  restore(): void;
  focus(): void;
  readonly webContents: { once(event: 'did-finish-load', listener: () => void): unknown };
}

export interface LifecycleLog {
  /** The log file, named in the error dialog. */
  readonly file?: string;
  info?(message: string): void;
  warn(message: string, err?: unknown): void;
  error(message: string, err?: unknown): void;
}

export interface LifecycleDeps<C extends LifecycleCore, W extends LifecycleWindow> {
  app: LifecycleApp;
  dialog: LifecycleDialog;
  protocol: LifecycleProtocol;
  log: LifecycleLog;
  /** The built renderer folder app:// serves, and the policy sent with every response. */
  rendererDir: string;
  contentSecurityPolicy: string;
  /** After 'ready', before the core: the session's hardening, the menu. */
  prepare(): void;
  /** Start a core process (`startOver`: the user chose to start over with the old cache kept aside). */
  startCore(startOver: boolean): C;
  /** The core has opened its cache: connect the window's calls to it (once, before the window). */
  useCore(core: C): void;
  createWindow(): W;
  /** The window has loaded, just before the core may start its launch sync. */
  windowLoaded?(): void;
  /** shell.openPath, for the cache-failure dialog's "Open the data folder". */
  openPath(path: string): Promise<unknown>;
  /**
   * The quit has closed the core ('closed': cleanly; 'killed': it did not close in time): return true
   * to take over the exit (an update installing itself quits the app its own way), false to exit(0).
   */
  afterQuitClose?(how: CloseOutcome): boolean;
  /** Keep running with no window (macOS: the app stays in the Dock, and 'activate' opens the window again). */
  stayWithoutWindows?: boolean;
  readyTimeoutMs?: number;
  stepTimeoutMs?: number;
  quitShutdownMs?: number;
}

/** How closing the core ended: closed cleanly, stopped after the bounded wait, or failed to stop. */
export type CloseOutcome = 'closed' | 'killed' | 'failed';

export interface Lifecycle<W> {
  /** The window, once there is one. */
  window(): W | null;
  /**
   * Bring the window forward, opening it again if it was closed (macOS keeps running without one),
   * then `then(window)` once its page is ready. False (and nothing done) before start-up has opened
   * the cache, or while quitting.
   */
  showWindow(then?: (w: W) => void): boolean;
  /** Settles when start-up has ended: true with a window, false when the app is exiting or quitting instead. */
  readonly started: Promise<boolean>;
}

/** The dev server's URL, in development only: a packaged app always loads app:// and ignores the variable. */
export function devServerUrl(app: Pick<LifecycleApp, 'isPackaged'>, env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (app.isPackaged) return undefined;
  return env.ELECTRON_RENDERER_URL || undefined;
}

const messageOf = (e: unknown): string => redactKeys(e instanceof Error ? e.message : String(e));

/**
 * Run the app from 'ready' to quit. Never rejects: a failure anywhere in
 * start-up is logged, shown, and ends the process with exit code 1.
 */
export function runLifecycle<C extends LifecycleCore, W extends LifecycleWindow>(deps: LifecycleDeps<C, W>): Lifecycle<W> {
  const { app, dialog, log } = deps;
  const readyTimeoutMs = deps.readyTimeoutMs ?? CORE_READY_TIMEOUT_MS;
  const stepTimeoutMs = deps.stepTimeoutMs ?? CORE_STEP_TIMEOUT_MS;
  const quitShutdownMs = deps.quitShutdownMs ?? QUIT_SHUTDOWN_MS;

  let win: W | null = null;
  /** The core process that is running (starting, or in use); null when there is none to close. */
  let core: C | null = null;
  /** A quit was asked for; start-up goes no further. */
  let quitting = false;
  /** The quit is closing the core; the exit comes within the bounded wait. */
  let closing = false;
  let exited = false;
  /** The core in use once start-up has succeeded (for a window opened again on 'activate'). */
  let liveCore: C | null = null;

  function exit(code: number): void {
    if (exited) return;
    exited = true;
    app.exit(code);
  }

  /** Close a core within `ms` (plus a backstop, should its side never answer); never throws. */
  async function close(c: C, ms: number): Promise<CloseOutcome> {
    try {
      const how = await within(c.shutdown(ms), ms + BACKSTOP_MS, `the core process did not stop within ${ms + BACKSTOP_MS} ms`);
      if (how === 'killed') log.warn(`the core process did not close within ${ms} ms and was stopped`);
      return how;
    } catch (e) {
      log.error('closing the core process failed', e);
      return 'failed';
    }
  }

  /** Close `c` after a failed start, unless quitting has already taken it. */
  async function closeCurrent(c: C): Promise<void> {
    if (core !== c) return;
    core = null;
    await close(c, FAILED_START_SHUTDOWN_MS);
  }

  const waitReady = (c: C) => waitForCore(c, { readyTimeoutMs, stepTimeoutMs, log });

  /** The cache could not open: say so in plain words, offer what fits; a core in use, or null to quit. */
  async function handleFailure(failure: CoreFailure, failed: C): Promise<C | null> {
    log.error(`the cache could not open (${failure.kind}): ${failure.message}`);
    const d = cacheFailureDialog({ kind: failure.kind, message: failure.message, path: failure.path ?? app.getPath('userData') });
    const { response } = await dialog.showMessageBox({
      type: 'error',
      title: d.title,
      message: d.message,
      detail: d.detail,
      buttons: d.buttons.map((b) => b.label),
      defaultId: d.defaultId,
      cancelId: d.cancelId,
      noLink: true,
    });
    const action = d.buttons[response]?.action ?? 'quit';
    await closeCurrent(failed);
    if (quitting) return null;
    if (action === 'start-over') {
      const fresh = (core = deps.startCore(true));
      const again = await waitReady(fresh);
      if (quitting) return null; // the quit has taken the fresh core
      if (!again) return fresh;
      await closeCurrent(fresh);
      log.error(`the cache still could not open after starting over (${again.kind}): ${again.message}`);
      dialog.showErrorBox('The cache still could not be opened', redactKeys(again.message));
    } else if (action === 'open-folder') {
      await deps.openPath(app.getPath('userData'));
    }
    return null;
  }

  async function start(): Promise<boolean> {
    await app.whenReady();
    if (quitting) return false;
    deps.prepare();
    deps.protocol.handle(APP_SCHEME, appProtocolHandler(deps.rendererDir, deps.contentSecurityPolicy));

    const first = (core = deps.startCore(false));
    const failure = await waitReady(first);
    if (quitting) return false;
    const live = failure ? await handleFailure(failure, first) : first;
    if (quitting) return false;
    if (!live) {
      exit(1);
      return false;
    }
    deps.useCore(live);
    liveCore = live;
    openWindow(live, true);
    return true;
  }

  /** The window; once its page has loaded, the core may start its launch sync (the first window only), and `then` runs. */
  function openWindow(live: C, first: boolean, then?: (w: W) => void): void {
    const w = (win = deps.createWindow());
    w.webContents.once('did-finish-load', () => {
      deps.windowLoaded?.();
      if (first) live.launch();
      then?.(w);
    });
  }

  function showWindow(then?: (w: W) => void): boolean {
    if (!liveCore || quitting) return false;
    if (!win || win.isDestroyed()) {
      openWindow(liveCore, false, then);
      return true;
    }
    if (win.isMinimized()) win.restore();
    win.focus();
    then?.(win);
    return true;
  }

  /** Start-up failed: log it, close the core, tell the user in plain words, exit(1), whatever throws on the way. */
  async function fail(e: unknown): Promise<false> {
    try {
      log.error('the app could not start', e);
      if (closing) return false; // quitting already: its exit comes within the bounded wait
      if (core) await closeCurrent(core);
      const where = log.file ? ` The log has the details: ${log.file}` : '';
      dialog.showErrorBox(
        'Outreach Workbench could not start',
        `Something went wrong while the app was starting, so it has to close. Open it again; if this keeps happening, tell us what it says below.${where}\n\n${messageOf(e)}`,
      );
    } catch (err) {
      try {
        log.error('telling the user that the app could not start failed', err);
      } catch {
        // nothing more to try: exit below
      }
    } finally {
      if (!closing) exit(1);
    }
    return false;
  }

  // Quitting: the core finishes or rolls back its current write and closes the cache (bounded), then the app ends, once.
  app.on('before-quit', (event) => {
    quitting = true;
    if (exited) return;
    if (closing) {
      event.preventDefault(); // already closing: the exit comes within the bounded wait
      return;
    }
    const running = core;
    if (!running) return; // no core to close: the quit goes on
    event.preventDefault();
    closing = true;
    core = null;
    void close(running, quitShutdownMs).then((how) => {
      let handedOver = false;
      try {
        handedOver = deps.afterQuitClose?.(how) ?? false;
      } catch (e) {
        log.error('after closing the core, the quit could not go on as planned', e);
      }
      if (!handedOver) return exit(0);
      // Whoever took over quits in its own way: that quit must go through.
      exited = true;
    });
  });

  app.on('second-instance', () => {
    if (!win || win.isDestroyed()) return;
    if (win.isMinimized()) win.restore();
    win.focus();
  });

  app.on('window-all-closed', () => {
    if (!deps.stayWithoutWindows) app.quit();
  });

  // macOS: the Dock icon clicked with no window open brings the window back (same core, no second launch sync).
  app.on('activate', () => {
    if (!win || win.isDestroyed()) showWindow();
  });

  return { window: () => win, showWindow, started: start().catch(fail) };
}

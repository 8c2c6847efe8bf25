// Never a blank or dead window, and a title that says what it is. Recovery: when the page's process goes away ('render-process-gone') or the page
// fails to load ('did-fail-load'), the window reloads once by itself; if that fails too, it says
// what happened in plain words and offers to try again or quit (quitting closes the core and the
// cache as any quit does), so no blank window is left holding the single-instance lock. Written
// against the shapes of Electron's webContents events, so a fake of the same shape tests it.
import type { LifecycleLog } from './lifecycle';

/** Electron's RenderProcessGoneDetails.reason values. */
export type GoneReason = 'clean-exit' | 'abnormal-exit' | 'killed' | 'crashed' | 'oom' | 'launch-failed' | 'integrity-failure' | 'memory-eviction';

export interface RecoverableWebContents {
  on(event: 'render-process-gone', listener: (event: unknown, details: { reason: GoneReason; exitCode: number }) => void): unknown;
  on(
    event: 'did-fail-load',
    listener: (event: unknown, errorCode: number, errorDescription: string, validatedURL: string, isMainFrame: boolean) => void,
  ): unknown;
  on(event: 'did-finish-load', listener: () => void): unknown;
  reload(): void;
}

export interface RecoverableWindow {
  readonly webContents: RecoverableWebContents;
  isDestroyed(): boolean;
  show(): void;
}

export interface RecoveryDeps {
  log: Pick<LifecycleLog, 'warn' | 'error'>;
  /** Ask the person: try again, or quit (a native message box). */
  ask(what: { title: string; message: string; detail: string }): Promise<'retry' | 'quit'>;
  quit(): void;
  /** How long a reloaded page must stay up before a failure counts as new again (default 60 s). */
  healthyAfterMs?: number;
}

/** Chromium's net error for a load cancelled by another one: not a failure. */
const ERR_ABORTED = -3;

const GONE_WORDS: Record<GoneReason, string> = {
  'clean-exit': 'The window’s page closed.',
  'abnormal-exit': 'The window’s page stopped unexpectedly.',
  killed: 'The window’s page was stopped by the system or another program.',
  crashed: 'The window’s page crashed.',
  oom: 'The window’s page ran out of memory.',
  'launch-failed': 'The window’s page could not be started.',
  'integrity-failure': 'The window’s page failed a code integrity check.',
  'memory-eviction': 'The system reclaimed the window’s memory.',
};

/**
 * Watch a window: the first failure reloads it; the next one, unless the page has since stayed up
 * for `healthyAfterMs`, asks the person (Try again reloads; Quit quits).
 */
export function keepWindowAlive(win: RecoverableWindow, deps: RecoveryDeps): void {
  const healthyAfterMs = deps.healthyAfterMs ?? 60_000;
  let failures = 0;
  let asking = false;
  let healthy: ReturnType<typeof setTimeout> | undefined;

  const failed = (what: string, detail: string) => {
    if (win.isDestroyed()) return;
    clearTimeout(healthy);
    failures++;
    if (failures === 1) {
      deps.log.warn(`the window failed (${what}: ${detail}); reloading it once`);
      win.webContents.reload();
      return;
    }
    deps.log.error(`the window failed again (${what}: ${detail}); asking whether to try again or quit`);
    if (asking) return;
    asking = true;
    win.show(); // a hidden window (never shown because its page never loaded) must not stay invisible
    void deps
      .ask({
        title: 'Outreach Workbench',
        message: `${what} Reloading it did not help.`,
        detail: `${detail}\n\nYour data is safe in the cache. Try again, or quit and open the app again.`,
      })
      .catch(() => 'quit' as const)
      .then((choice) => {
        asking = false;
        if (win.isDestroyed()) return;
        if (choice === 'retry') win.webContents.reload();
        else deps.quit();
      });
  };

  win.webContents.on('render-process-gone', (_e, details) => {
    failed(GONE_WORDS[details.reason] ?? 'The window’s page stopped.', `reason: ${details.reason}, exit code ${details.exitCode}`);
  });
  win.webContents.on('did-fail-load', (_e, errorCode, errorDescription, validatedURL, isMainFrame) => {
    if (!isMainFrame || errorCode === ERR_ABORTED) return;
    failed('The window’s page could not be loaded.', `${errorDescription} (${errorCode}) loading ${validatedURL}`);
  });
  win.webContents.on('did-finish-load', () => {
    clearTimeout(healthy);
    healthy = setTimeout(() => (failures = 0), healthyAfterMs);
  });
}

/** The window's title: the page's, with " (demo)" kept in demo mode (the page's <title> would replace it). */
export function windowTitle(pageTitle: string, demo: boolean): string {
  const title = pageTitle.trim() || 'Outreach Workbench';
  return demo && !title.endsWith('(demo)') ? `${title} (demo)` : title;
}

/** A window whose title can be kept (BrowserWindow: 'page-title-updated', setTitle). */
export interface TitledWindow {
  on(event: 'page-title-updated', listener: (event: { preventDefault(): void }, title: string) => void): unknown;
  setTitle(title: string): void;
}

/** The window's title follows the page's, through windowTitle (the demo's label survives). */
export function followPageTitle(win: TitledWindow, demo: boolean): void {
  win.on('page-title-updated', (event, title) => {
    event.preventDefault();
    win.setTitle(windowTitle(title, demo));
  });
}

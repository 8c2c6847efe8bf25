// The computer shutting down, restarting or logging off closes the cache cleanly and takes the
// quit-time backup, as a quit does: Windows asks each window first ('query-session-end', which may
// hold the session's end while the app quits) and then tells it ('session-end', the last moment);
// macOS and Linux tell powerMonitor ('shutdown', which may hold it too). Each starts the app's
// normal quit, once: the lifecycle closes the core (it finishes or rolls back its write, closes the
// cache and writes the backup) within its bounded wait, then exits.
import type { LifecycleLog } from './lifecycle';

export interface SessionEndWindow {
  on(event: 'query-session-end' | 'session-end', listener: (event: { preventDefault(): void; reasons?: string[] }) => void): unknown;
}

/**
 * powerMonitor as its documentation describes 'shutdown': the listener gets an event whose
 * preventDefault() delays the shutdown (electron.d.ts types the listener without it, hence optional).
 */
export interface SessionEndPowerMonitor {
  on(event: 'shutdown', listener: (event?: { preventDefault(): void }) => void): unknown;
}

/**
 * Quit when the session ends. `quit` is app.quit (the lifecycle's before-quit does the rest); the
 * window's events exist on Windows only, powerMonitor's 'shutdown' on macOS and Linux.
 */
export function quitWhenSessionEnds(deps: {
  window?: SessionEndWindow | null;
  powerMonitor?: SessionEndPowerMonitor | null;
  quit(): void;
  log: Pick<LifecycleLog, 'warn'>;
}): void {
  let quitting = false;
  const end = (why: string) => {
    if (quitting) return;
    quitting = true;
    deps.log.warn(`the session is ending (${why}): closing the cache and quitting`);
    deps.quit();
  };
  deps.window?.on('query-session-end', (event) => {
    // Hold the end until the quit has closed the cache (Windows shows the app as busy meanwhile).
    event.preventDefault();
    end(`Windows: ${(event.reasons ?? []).join(', ') || 'shutdown'}`);
  });
  deps.window?.on('session-end', (event) => end(`Windows, now: ${(event.reasons ?? []).join(', ') || 'shutdown'}`));
  deps.powerMonitor?.on('shutdown', (event) => {
    event?.preventDefault();
    end('the system is shutting down');
  });
}

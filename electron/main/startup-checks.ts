// Checks made before the app starts: command-line switches that would open it
// to inspection or control, and demo mode's own user-data folder. No electron import.
import { join } from 'node:path';

// Chromium and Node switches that let another program inspect or drive the
// app. The fuses turn off Node's --inspect; the rest is refused here.
const FORBIDDEN = ['remote-debugging-port', 'remote-debugging-pipe', 'remote-debugging-address', 'remote-allow-origins', 'inspect', 'inspect-brk', 'inspect-port', 'inspect-publish-uid', 'debug', 'debug-brk', 'js-flags', 'wait-for-debugger', 'enable-logging', 'v8-options'];

/** The first forbidden switch in `argv` (any case, `-x`, `--x` or `--x=value`), or null. */
export function forbiddenSwitch(argv: readonly string[]): string | null {
  for (const arg of argv) {
    const m = /^--?([a-z0-9-]+)(?:=.*)?$/i.exec(arg.trim());
    if (m && FORBIDDEN.includes(m[1]!.toLowerCase())) return `--${m[1]!.toLowerCase()}`;
  }
  return null;
}

/**
 * Demo mode's user-data folder, beside the real one. Electron's single-instance
 * lock lives in the user-data folder, so the demo also gets its own lock and
 * runs beside the real app without touching its cache, settings or key check.
 */
export function demoUserDataDir(appDataDir: string, productName: string): string {
  return join(appDataDir, `${productName} Demo`);
}

// A small rotating log file in the user-data folder, for main and the core
// process alike: plain Node, no electron import (the core process entry may
// import this one file from main/; eslint.config.js allows exactly that).
//
// - One line per entry: ISO time, level, message, and the error's stack with
//   its cause and code; line breaks and control characters are escaped, so an
//   API message cannot forge a second entry.
// - Every line passes through the key redaction before it reaches the disk:
//   the project's `redactKeys` (shared/rules.ts, `sk_live_` + 32 characters),
//   plus `sk_live_` runs of any other length and Bearer tokens, which
//   `redactKeys` alone does not cover.
// - Writes are synchronous appends (a crash right after still leaves the
//   line), and a failed write (a full disk, a folder that went away) never
//   throws: logging must never be what stops the app.
import { appendFileSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { inspect } from 'node:util';
import { redactKeys } from '../../shared/rules';

export type LogLevel = 'info' | 'warn' | 'error';

export interface Log {
  /** The current file (`<dir>/<name>`). */
  readonly file: string;
  info(message: string, err?: unknown): void;
  warn(message: string, err?: unknown): void;
  error(message: string, err?: unknown): void;
}

export interface LogOptions {
  dir: string;
  /** Default `workbench.log`; rotated copies are `workbench.1.log`, `workbench.2.log`, … */
  name?: string;
  /** Rotate before a write would take the current file past this many bytes. Default 1 MB. */
  maxBytes?: number;
  /** Rotated files kept beside the current one (`.1` newest … `.keep` oldest). Default 3. */
  keep?: number;
}

/** Everything that looks like the API key or a bearer token, replaced. */
export function redactForLog(text: string): string {
  return redactKeys(text);
}

/** An error (stack, code, cause) or any other value, as text. Never throws. */
function describe(err: unknown): string {
  if (typeof err === 'string') return err;
  try {
    return inspect(err, { depth: 4, breakLength: Infinity, maxStringLength: 10_000, maxArrayLength: 20 });
  } catch {
    try {
      return String(err);
    } catch {
      return '(an error that cannot be shown)';
    }
  }
}

/** One physical line: line breaks become ` \n `, other control characters `\xNN`. */
function oneLine(text: string): string {
  return (
    text
      .replace(/\r?\n[ \t]*/g, ' \\n ')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
  );
}

const TRUNCATED = ' [cut: entry too long]\n';

export function createLog({ dir, name = 'workbench.log', maxBytes = 1_000_000, keep = 3 }: LogOptions): Log {
  const file = join(dir, name);
  const ext = extname(name);
  const stem = ext ? name.slice(0, -ext.length) : name;
  const rotated = (i: number) => join(dir, `${stem}.${i}${ext}`);

  const rotate = () => {
    if (keep <= 0) return rmSync(file, { force: true });
    rmSync(rotated(keep), { force: true });
    for (let i = keep - 1; i >= 1; i--) if (existsSync(rotated(i))) renameSync(rotated(i), rotated(i + 1));
    renameSync(file, rotated(1));
  };

  const write = (level: LogLevel, message: string, err?: unknown) => {
    try {
      const detail = err === undefined ? '' : ` | ${describe(err)}`;
      let line = oneLine(redactForLog(`${new Date().toISOString()} ${level.toUpperCase()} ${message}${detail}`)) + '\n';
      let bytes = Buffer.byteLength(line);
      if (bytes > maxBytes) {
        // One entry never outgrows a whole file (a cut may split a character: it becomes U+FFFD, 3 bytes).
        line =
          Buffer.from(line)
            .subarray(0, Math.max(0, maxBytes - TRUNCATED.length - 3))
            .toString('utf8') + TRUNCATED;
        bytes = Buffer.byteLength(line);
      }
      mkdirSync(dir, { recursive: true });
      if (existsSync(file) && statSync(file).size + bytes > maxBytes) rotate();
      appendFileSync(file, line);
    } catch {
      // Logging must never be the thing that stops the app (a full disk, a folder that is gone).
    }
  };

  return {
    file,
    info: (m, e) => write('info', m, e),
    warn: (m, e) => write('warn', m, e),
    error: (m, e) => write('error', m, e),
  };
}

/** What `installCrashLogging` listens on: `process`, or a stand-in in tests. */
export interface CrashSource {
  on(event: 'unhandledRejection' | 'uncaughtException', listener: (reason: unknown) => void): unknown;
  off(event: 'unhandledRejection' | 'uncaughtException', listener: (reason: unknown) => void): unknown;
}

/**
 * Log unhandled rejections and uncaught exceptions to `log`.
 *
 * - An unhandled rejection is logged and the process carries on (a listener
 *   replaces Node's default of ending the process).
 * - An uncaught exception is logged, then `onFatal` decides what happens (in
 *   main: tell the user and quit; the process's state can no longer be
 *   trusted). Without `onFatal`, the real `process` ends with code 1 after the
 *   line is written; a stand-in `proc` is only logged to.
 *
 * Returns a function that removes both listeners.
 */
export function installCrashLogging(log: Log, proc: CrashSource = process, onFatal?: (err: unknown) => void): () => void {
  const rejection = (reason: unknown) => log.error('unhandled rejection', reason);
  const exception = (err: unknown) => {
    log.error('uncaught exception', err);
    if (onFatal) onFatal(err);
    else if (proc === process) process.exit(1);
  };
  proc.on('unhandledRejection', rejection);
  proc.on('uncaughtException', exception);
  return () => {
    proc.off('unhandledRejection', rejection);
    proc.off('uncaughtException', exception);
  };
}

// A small rotating log file in the user-data folder, for main and the core
// process alike (no electron import). Every line passes through the key
// redaction, writes are synchronous appends (a crash right after still leaves
// the line), and a failed write (a full disk) never throws.
import { appendFileSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { redactKeys } from '../../shared/rules';

export interface Log {
  readonly file: string;
  info(message: string, err?: unknown): void;
  warn(message: string, err?: unknown): void;
  error(message: string, err?: unknown): void;
}

export interface LogOptions {
  dir: string;
  name?: string;
  /** Rotate when the file would pass this size. */
  maxBytes?: number;
  /** Rotated files kept beside the current one (name.1.log … name.N.log). */
  keep?: number;
}

export function createLog({ dir, name = 'workbench.log', maxBytes = 1_000_000, keep = 3 }: LogOptions): Log {
  const file = join(dir, name);
  const rotated = (i: number) => join(dir, name.replace(/\.log$/, '') + `.${i}.log`);
  const rotate = () => {
    rmSync(rotated(keep), { force: true });
    for (let i = keep - 1; i >= 1; i--) if (existsSync(rotated(i))) renameSync(rotated(i), rotated(i + 1));
    renameSync(file, rotated(1));
  };
  const write = (level: string, message: string, err?: unknown) => {
    const detail = err === undefined ? '' : ` | ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`;
    const line = redactKeys(`${new Date().toISOString()} ${level} ${message}${detail}`).replace(/\n/g, '\n    ') + '\n';
    try {
      mkdirSync(dir, { recursive: true });
      if (existsSync(file) && statSync(file).size + Buffer.byteLength(line) > maxBytes) rotate();
      appendFileSync(file, line);
    } catch {
      // Logging must never be the thing that stops the app.
    }
  };
  return {
    file,
    info: (m, e) => write('INFO', m, e),
    warn: (m, e) => write('WARN', m, e),
    error: (m, e) => write('ERROR', m, e),
  };
}

/**
 * Log unhandled rejections (the process goes on) and uncaught exceptions
 * (logged, then `onFatal` decides; by default the process ends with code 1,
 * since its state can no longer be trusted).
 */
export function installCrashLogging(log: Log, proc: NodeJS.EventEmitter = process, onFatal: (e: unknown) => void = () => process.exit(1)): void {
  proc.on('unhandledRejection', (reason: unknown) => log.error('unhandled rejection', reason));
  proc.on('uncaughtException', (e: unknown) => {
    log.error('uncaught exception', e);
    onFatal(e);
  });
}

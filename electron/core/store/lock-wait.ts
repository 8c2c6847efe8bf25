// Waiting for another program's write lock on the cache the way a person
// would: a write that finds the cache busy says so ("Waiting for workbench
// sync (process 4242), which is writing to the cache…") and waits for as long
// as a person would (30 s by default, configurable), then fails naming who
// holds it, where this computer can tell: a sync's lock row names its holder,
// the open markers name the processes that have the cache open, and on Linux
// /proc names any other program (sqlite3, a backup tool) that has the file open.
import { readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename } from 'node:path';
import type Database from 'better-sqlite3';
import { lockedError } from './cache-error';
import { otherOpeners } from './open-marker';

type DB = Database.Database;

/** How long a write waits for another program's lock before it gives up. */
export const DEFAULT_LOCK_WAIT_MS = 30_000;

export interface LockWaitOptions {
  /** How long a write waits for another program's lock. Default 30 s. */
  lockWaitMs?: number;
  /** Told, once per wait, that a write is waiting and for whom (the CLI prints it; the app may show it). */
  onLockWait?: (message: string) => void;
}

const settings = new WeakMap<DB, LockWaitOptions>();

/** Set how `db`'s writes wait for another program's lock (SQLite's busy timeout follows). */
export function setLockWait(db: DB, opts: LockWaitOptions): void {
  const merged = { ...settings.get(db), ...opts };
  settings.set(db, merged);
  db.pragma(`busy_timeout = ${waitMs(db)}`);
}

function waitMs(db: DB): number {
  return Math.max(0, Math.trunc(settings.get(db)?.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS));
}

export function isBusy(e: unknown): boolean {
  const code = String((e as { code?: unknown } | null)?.code ?? '');
  return code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED');
}

/** A process in words, from its command line: "workbench sync", "Outreach Workbench", "sqlite3". */
function processName(pid: number): string | null {
  let argv: string[];
  try {
    argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return null;
  }
  const cli = argv.findIndex((a) => /(?:electron[\\/]cli[\\/](?:bin\.mjs|index\.ts)|[\\/]workbench)$/.test(a));
  if (cli >= 0) return ['workbench', argv.slice(cli + 1).find((a) => !a.startsWith('-'))].filter(Boolean).join(' ');
  const first = basename(argv[0] ?? '');
  if (/outreach|electron/i.test(first)) return 'Outreach Workbench';
  if (/^(node|tsx|bun|deno)$/.test(first)) {
    const script = argv.slice(1).find((a) => !a.startsWith('-') && /\.[cm]?[jt]s$/.test(a));
    return script ? `${first} ${basename(script)}` : first;
  }
  return first || null;
}

/** On Linux: the processes (this user's) that have `path` or its WAL open, other than this one. */
function processesWithFileOpen(path: string): number[] {
  if (process.platform !== 'linux') return [];
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return [];
  }
  const wanted = new Set([real, `${real}-wal`, `${real}-shm`]);
  const found: number[] = [];
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((n) => /^\d+$/.test(n));
  } catch {
    return [];
  }
  for (const p of pids) {
    const pid = Number(p);
    if (pid === process.pid) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${p}/fd`);
    } catch {
      continue; // another user's, or gone
    }
    for (const fd of fds) {
      try {
        if (wanted.has(readlinkSync(`/proc/${p}/fd/${fd}`))) {
          found.push(pid);
          break;
        }
      } catch {
        // closed meanwhile
      }
    }
  }
  return found;
}

/**
 * Who has the cache at `path` open besides this process, in words ("workbench
 * sync (process 4242)"), or null when this computer cannot tell. `db` (this
 * process's connection) reads the sync locks, which name their holders.
 */
export function describeLockHolders(path: string, db?: DB): string | null {
  const labels = new Map<number, string>();
  try {
    const rows = db?.prepare('SELECT pid, host, label FROM sync_locks').all() as { pid: number; host: string; label: string }[] | undefined;
    for (const r of rows ?? []) if (r.host === hostname() && r.pid !== process.pid) labels.set(r.pid, r.label);
  } catch {
    // an older cache, or not readable now
  }
  let pids: number[] = [];
  try {
    pids = [...new Set([...processesWithFileOpen(path), ...otherOpeners(path)])].sort((a, b) => a - b);
  } catch {
    pids = [];
  }
  if (pids.length === 0) pids = [...labels.keys()];
  if (pids.length === 0) return null;
  const named = pids.map((pid) => `${labels.get(pid) ?? processName(pid) ?? 'a program'} (process ${pid})`);
  return named.length === 1 ? named[0]! : `one of ${named.join(', ')}`;
}

function waitingMessage(path: string, who: string | null, ms: number): string {
  return `Waiting for ${who ?? 'another program'}, which is writing to the cache (${path}); up to ${Math.round(ms / 1000)} s…`;
}

/**
 * Run `fn` in one write transaction (BEGIN IMMEDIATE). When another program
 * holds the write lock, say who (onLockWait) and wait for it up to the lock
 * wait, then fail with a cache-locked error naming it. `fn` runs once: a
 * failure inside it is not retried.
 */
export function writeTransaction<T>(db: DB, path: string, fn: () => T): T {
  if (db.inTransaction) return db.transaction(fn).immediate();
  const total = waitMs(db);
  let began = false;
  const run = () =>
    db
      .transaction(() => {
        began = true;
        return fn();
      })
      .immediate();
  try {
    db.pragma('busy_timeout = 0');
    return run();
  } catch (e) {
    if (began || !isBusy(e)) throw e;
  } finally {
    db.pragma(`busy_timeout = ${total}`);
  }
  const who = describeLockHolders(path, db);
  settings.get(db)?.onLockWait?.(waitingMessage(path, who, total));
  try {
    return run();
  } catch (e) {
    if (!began && isBusy(e)) throw lockedError(path, describeLockHolders(path, db) ?? who, total);
    throw e;
  }
}

/**
 * Before a command's writes: wait, without blocking this thread, until no
 * other program holds the cache's write lock (saying who, once), for up to
 * the lock wait; then fail naming it. The writes that follow still wait
 * SQLite's busy timeout for the moment between.
 */
export async function awaitWriteLock(db: DB, path: string, opts: { signal?: AbortSignal; pollMs?: number } = {}): Promise<void> {
  const total = waitMs(db);
  const tryLock = (): boolean => {
    try {
      db.pragma('busy_timeout = 0');
      db.exec('BEGIN IMMEDIATE');
      db.exec('ROLLBACK');
      return true;
    } catch (e) {
      if (isBusy(e)) return false;
      throw e;
    } finally {
      db.pragma(`busy_timeout = ${total}`);
    }
  };
  if (db.inTransaction || tryLock()) return;
  const who = describeLockHolders(path, db);
  settings.get(db)?.onLockWait?.(waitingMessage(path, who, total));
  const started = Date.now();
  while (Date.now() - started < total) {
    await new Promise((r) => setTimeout(r, opts.pollMs ?? 200));
    if (opts.signal?.aborted) throw opts.signal.reason;
    if (tryLock()) return;
  }
  throw lockedError(path, describeLockHolders(path, db) ?? who, total);
}

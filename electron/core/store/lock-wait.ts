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
import { cacheWriteError, lockedError, openLockedError } from './cache-error';
import { otherOpeners } from './open-marker';
import { systemClock } from '../seams';
import { WorkbenchError } from '../../../shared/errors';

type DB = Database.Database;

/** How long a write waits for another program's lock before it gives up. */
export const DEFAULT_LOCK_WAIT_MS = 30_000;
/** The longest wait SQLite's busy timeout can hold (a 32-bit count of milliseconds): about 24 days. */
export const MAX_LOCK_WAIT_MS = 2 ** 31 - 1;

export interface LockWaitOptions {
  /** How long a write waits for another program's lock. Default 30 s; at most MAX_LOCK_WAIT_MS. */
  lockWaitMs?: number;
  /**
   * The longest of that wait spent blocking this thread (SQLite's busy timeout, inside a synchronous
   * write): the app's core answers no call meanwhile, so it blocks for a few seconds at most, and
   * waits without blocking where it can (awaitWriteLock, before each sync page). Default: the whole wait.
   */
  blockingWaitMs?: number;
  /** Told, once per wait, that a write is waiting and for whom (the CLI prints it; the app shows it in the window). */
  onLockWait?: (message: string) => void;
}

const settings = new WeakMap<DB, LockWaitOptions>();

/** Set how `db`'s writes wait for another program's lock (SQLite's busy timeout follows). */
export function setLockWait(db: DB, opts: LockWaitOptions): void {
  const merged = { ...settings.get(db), ...opts };
  settings.set(db, merged);
  db.pragma(`busy_timeout = ${blockingMs(db)}`);
}

/** A wait in whole milliseconds SQLite can hold: not negative, not past MAX_LOCK_WAIT_MS. */
export function lockWaitWithin(ms: number | undefined): number {
  const n = Math.trunc(ms ?? DEFAULT_LOCK_WAIT_MS);
  return Number.isFinite(n) ? Math.min(MAX_LOCK_WAIT_MS, Math.max(0, n)) : DEFAULT_LOCK_WAIT_MS;
}

function waitMs(db: DB): number {
  return lockWaitWithin(settings.get(db)?.lockWaitMs);
}

function blockingMs(db: DB): number {
  const blocking = settings.get(db)?.blockingWaitMs;
  return Math.min(waitMs(db), blocking === undefined ? MAX_LOCK_WAIT_MS : lockWaitWithin(blocking));
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
  return `Waiting for ${who ?? 'another program'}, which is writing to the cache (${path}); up to ${Math.max(1, Math.round(ms / 1000))} s…`;
}

export interface UntilFreeOptions {
  /** The cache, to name who holds it. */
  path: string;
  /** This process's connection, which reads the sync locks' holders. */
  db?: DB;
  /** How long to wait in all. 0: not at all (and nothing said). */
  waitMs: number;
  onLockWait?: (message: string) => void;
  /** The words while waiting; default: "Waiting for X, which is writing to the cache (P); up to N s…". */
  message?: (who: string | null, ms: number) => string;
  /** The failure past the wait; default: lockedError. */
  locked?: (who: string | null, ms: number) => Error;
  /** Stops the wait with its reason (the user's Ctrl-C). */
  signal?: AbortSignal;
  pollMs?: number;
}

/**
 * Run `attempt` (which throws SQLite's busy error while another program holds
 * what it needs) until it gets through: at once, then, having said once whom
 * it waits for, again every `pollMs` without blocking this thread (so a call,
 * a progress line or a Ctrl-C is heard meanwhile), for up to `waitMs`; then
 * fail naming the holder. Other failures pass through.
 */
export async function untilFree<T>(attempt: () => T, o: UntilFreeOptions): Promise<T> {
  const tryOnce = (): { ok: true; value: T } | { ok: false } => {
    try {
      return { ok: true, value: attempt() };
    } catch (e) {
      if (isBusy(e)) return { ok: false };
      throw e;
    }
  };
  const first = tryOnce();
  if (first.ok) return first.value;
  const who = describeLockHolders(o.path, o.db);
  const locked = o.locked ?? ((w, ms) => lockedError(o.path, w, ms));
  if (o.waitMs <= 0) throw locked(who, 0);
  o.onLockWait?.((o.message ?? ((w, ms) => waitingMessage(o.path, w, ms)))(who, o.waitMs));
  const started = Date.now();
  while (Date.now() - started < o.waitMs) {
    try {
      await systemClock.sleep(Math.min(o.pollMs ?? 200, Math.max(1, o.waitMs - (Date.now() - started))), o.signal);
    } catch (e) {
      if (!o.signal?.aborted) throw e;
      throw new WorkbenchError('cancelled', `Stopped while waiting for ${who ?? 'another program'} to let go of the cache (${o.path}): nothing was changed.`);
    }
    const next = tryOnce();
    if (next.ok) return next.value;
  }
  throw locked(describeLockHolders(o.path, o.db) ?? who, o.waitMs);
}

/**
 * untilFree for opening the cache (its look, its schema's check): while
 * another program holds the file so that it cannot even be read (an exclusive
 * lock), said and waited for up to the lock wait, then cache-locked in the
 * open's words.
 */
export function untilReadable<T>(attempt: () => T, path: string, opts: LockWaitOptions & { signal?: AbortSignal }, db?: DB): Promise<T> {
  return untilFree(attempt, {
    path,
    db,
    waitMs: lockWaitWithin(opts.lockWaitMs),
    onLockWait: opts.onLockWait,
    signal: opts.signal,
    message: (who, ms) =>
      `Waiting for ${who ?? 'another program'}, which holds the cache (${path}) so that it cannot be read; up to ${Math.max(1, Math.round(ms / 1000))} s…`,
    locked: (who, ms) => openLockedError(path, who, ms),
  });
}

/**
 * SQLite's failure of the cache's file (full, read-only, damaged, locked past
 * the wait) in the app's words naming the file (cache-error.ts); anything else
 * (a bug, the app's own errors) as it is.
 */
export function namedCacheFailure(e: unknown, db: DB, path: string): unknown {
  if (!String((e as { code?: unknown } | null)?.code ?? '').startsWith('SQLITE_')) return e;
  return cacheWriteError(e, path, () => describeLockHolders(path, db), blockingMs(db)) ?? e;
}

/**
 * Run `fn` in one write transaction (BEGIN IMMEDIATE). When another program
 * holds the write lock, say who (onLockWait) and wait for it up to the lock
 * wait (blocking this thread for at most blockingWaitMs of it), then fail with
 * a cache-locked error naming it. `fn` runs once: a failure inside it is not
 * retried. A failure of the cache's file (a full disk, a read-only cache) is
 * thrown in the app's words naming the file (cache-error.ts), for the window
 * and the CLI alike.
 */
export function writeTransaction<T>(db: DB, path: string, fn: () => T): T {
  const blocking = blockingMs(db);
  try {
    if (db.inTransaction) return db.transaction(fn).immediate();
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
      db.pragma(`busy_timeout = ${blocking}`);
    }
    const who = describeLockHolders(path, db);
    if (blocking <= 0) throw lockedError(path, who, 0);
    settings.get(db)?.onLockWait?.(waitingMessage(path, who, blocking));
    try {
      return run();
    } catch (e) {
      if (!began && isBusy(e)) throw lockedError(path, describeLockHolders(path, db) ?? who, blocking);
      throw e;
    }
  } catch (e) {
    throw namedCacheFailure(e, db, path);
  }
}

/**
 * Before a command's writes (a CLI command's, each page of a sync): wait,
 * without blocking this thread, until no other program holds the cache's write
 * lock (saying who, once), for up to the lock wait; then fail naming it. The
 * writes that follow still wait SQLite's busy timeout for the moment between.
 */
export async function awaitWriteLock(db: DB, path: string, opts: { signal?: AbortSignal; pollMs?: number } = {}): Promise<void> {
  if (db.inTransaction) return;
  const blocking = blockingMs(db);
  await untilFree(
    () => {
      try {
        db.pragma('busy_timeout = 0');
        db.exec('BEGIN IMMEDIATE');
        db.exec('ROLLBACK');
      } finally {
        db.pragma(`busy_timeout = ${blocking}`);
      }
    },
    { path, db, waitMs: waitMs(db), onLockWait: settings.get(db)?.onLockWait, signal: opts.signal, pollMs: opts.pollMs },
  );
}

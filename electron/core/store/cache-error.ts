// Why a cache could not open, as one of the kinds the app's start-up dialog
// acts on, read from SQLite's and the file system's error codes.
import { dirname } from 'node:path';
import type { CoreFailureKind } from '../../../shared/core-link';
import { WorkbenchError } from '../../../shared/errors';

/**
 * Why a cache could not open, in the app's error vocabulary (shared/errors.ts);
 * the start-up dialog offers choices for each (shared/core-link.ts):
 * - `cache-newer`: written by a newer version (user_version above this app's);
 * - `cache-damaged`: damaged, or not a database at all;
 * - `io-error`: an I/O error reading or writing it;
 * - `cache-locked`: another process holds a lock past the busy timeout;
 * - `disk-full`: no space to write;
 * - `read-only`: the disk or the file is read-only;
 * - `permission`: the folder or file cannot be created or written.
 */
export type CacheFailureKind = Exclude<CoreFailureKind, 'internal' | 'installation-damaged'>;

export class CacheError extends WorkbenchError {
  override name = 'CacheError';
  declare readonly kind: CacheFailureKind;
  constructor(
    kind: CacheFailureKind,
    message: string,
    readonly path: string,
  ) {
    super(kind, message);
  }
}

/**
 * Words and a kind for an error met while opening the cache, from its code
 * (better-sqlite3's SqliteError carries SQLite's extended code, Node's fs
 * errors their errno name), or null when it is none of these:
 * - `cache-locked`: SQLITE_BUSY* / SQLITE_LOCKED* (another process holds a lock
 *   longer than the busy timeout, e.g. `locking_mode=EXCLUSIVE` or a write);
 * - `disk-full`: SQLITE_FULL, ENOSPC, EDQUOT, and SQLITE_IOERR_SHMSIZE (the
 *   WAL index could not grow, which SQLite documents as a likely full disk);
 * - `read-only`: SQLITE_READONLY* and EROFS;
 * - `permission`: SQLITE_CANTOPEN*, SQLITE_PERM, and EACCES / EPERM /
 *   ENOTDIR / EEXIST / EISDIR from making the folder;
 * - `cache-damaged`: SQLITE_CORRUPT*, SQLITE_NOTADB;
 * - `io-error`: any other SQLITE_IOERR* (a disk I/O error).
 */
export function classifyOpenError(e: unknown, path: string): CacheError | null {
  const code = String((e as { code?: unknown } | null)?.code ?? '');
  const msg = e instanceof Error ? e.message : String(e);
  const is = (prefix: string) => code === prefix || code.startsWith(prefix + '_');
  if (is('SQLITE_BUSY') || is('SQLITE_LOCKED') || (!code && /database is locked/i.test(msg)))
    return new CacheError(
      'cache-locked',
      `The cache file ${path} is in use by another program (another Outreach Workbench, or a \`workbench\` command still running). Close it and start again.`,
      path,
    );
  if (is('SQLITE_FULL') || code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_IOERR_SHMSIZE' || (!code && /disk is full|no space left/i.test(msg)))
    return new CacheError('disk-full', `The disk that holds ${path} is full. Free some space and start again; nothing in the cache was changed.`, path);
  if (is('SQLITE_READONLY') || code === 'EROFS')
    return new CacheError(
      'read-only',
      `The cache file ${path} is on a read-only disk or is itself read-only (${code || msg}). Make the file and the folder ${dirname(path)} writable, or move the data folder to a writable disk, and start again.`,
      path,
    );
  if (is('SQLITE_CANTOPEN') || code === 'SQLITE_PERM' || ['EACCES', 'EPERM', 'ENOTDIR', 'EEXIST', 'EISDIR'].includes(code))
    return new CacheError(
      'permission',
      `The cache file ${path} cannot be created or written in ${dirname(path)} (${code || msg}). Check that the folder exists, that you may write there, and that the disk is not read-only.`,
      path,
    );
  if (is('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB' || (!code && /not a database|malformed|corrupt/i.test(msg)))
    return new CacheError(
      'cache-damaged',
      `The cache file ${path} is damaged (${msg}). \`workbench cache recover\` keeps it aside and builds a fresh cache with your triage, notes and do-not-contact list carried over.`,
      path,
    );
  if (is('SQLITE_IOERR'))
    return new CacheError('io-error', `The cache file ${path} could not be read or written (${code}: ${msg}). The disk may be failing or disconnected.`, path);
  return null;
}

/** A cache another program is writing to, past the wait allowed; `who` names it when this computer can tell. */
export function lockedError(path: string, who: string | null, waitedMs: number): CacheError {
  const holder = who ?? 'another program (another Outreach Workbench, a `workbench` command, or a database tool)';
  return new CacheError(
    'cache-locked',
    `The cache file ${path} is being written by ${holder}; this waited ${Math.round(waitedMs / 1000)} s for it and gave up. Nothing was changed. ` +
      'Let it finish (or close it) and try again; `--lock-wait SECONDS` waits longer.',
    path,
  );
}

/**
 * An error met while reading or writing an open cache (a triage write, a sync
 * page), in words that name the file and what to do, or null when it is not
 * a failure of the cache's file (a bug stays a bug). `who` names the holder
 * of a lock.
 */
export function cacheWriteError(e: unknown, path: string, who: () => string | null = () => null, waitedMs = 0): CacheError | null {
  if (e instanceof CacheError) return e;
  const failure = classifyOpenError(e, path);
  if (!failure) return null;
  switch (failure.kind) {
    case 'cache-locked':
      return lockedError(path, who(), waitedMs);
    case 'disk-full':
      return new CacheError(
        'disk-full',
        `The disk that holds the cache (${path}) is full, so the change was not saved (nothing half-done was kept). Free some space and try again.`,
        path,
      );
    case 'read-only':
      return new CacheError(
        'read-only',
        `The cache file ${path} is read-only, or on a read-only disk, so the change was not saved. Make the file and the folder ${dirname(path)} writable and try again.`,
        path,
      );
    default:
      return failure;
  }
}

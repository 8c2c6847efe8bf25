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

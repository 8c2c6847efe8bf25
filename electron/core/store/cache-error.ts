// Why a cache could not open, as one of the kinds the app's start-up dialog
// acts on, read from SQLite's and the file system's error codes.
import { dirname } from 'node:path';
import type { CoreFailureKind } from '../../../shared/core-link';

/**
 * Why a cache could not open, in the kinds the app's start-up dialog offers
 * choices for (declared once, in shared/core-link.ts):
 * - `newer`: written by a newer version (user_version above this app's);
 * - `corrupt`: damaged, or not a database at all;
 * - `unreadable`: an I/O error reading or writing it;
 * - `locked`: another process holds a lock past the busy timeout;
 * - `disk-full`: no space to write;
 * - `not-writable`: the folder or file cannot be created or written.
 */
export type CacheFailureKind = Exclude<CoreFailureKind, 'internal'>;

export class CacheError extends Error {
  override readonly name = 'CacheError';
  constructor(
    readonly kind: CacheFailureKind,
    message: string,
    readonly path: string,
  ) {
    super(message);
  }
}

/**
 * Words and a kind for an error met while opening the cache, from its code
 * (better-sqlite3's SqliteError carries SQLite's extended code, Node's fs
 * errors their errno name), or null when it is none of these:
 * - `locked`: SQLITE_BUSY* / SQLITE_LOCKED* (another process holds a lock
 *   longer than the busy timeout, e.g. `locking_mode=EXCLUSIVE` or a write);
 * - `disk-full`: SQLITE_FULL, ENOSPC, EDQUOT, and SQLITE_IOERR_SHMSIZE (the
 *   WAL index could not grow, which SQLite documents as a likely full disk);
 * - `not-writable`: SQLITE_READONLY*, SQLITE_CANTOPEN*, SQLITE_PERM, and
 *   EACCES / EPERM / EROFS / ENOTDIR / EEXIST / EISDIR from making the folder;
 * - `corrupt`: SQLITE_CORRUPT*, SQLITE_NOTADB;
 * - `unreadable`: any other SQLITE_IOERR* (a disk I/O error).
 */
export function classifyOpenError(e: unknown, path: string): CacheError | null {
  const code = String((e as { code?: unknown } | null)?.code ?? '');
  const msg = e instanceof Error ? e.message : String(e);
  const is = (prefix: string) => code === prefix || code.startsWith(prefix + '_');
  if (is('SQLITE_BUSY') || is('SQLITE_LOCKED') || (!code && /database is locked/i.test(msg)))
    return new CacheError(
      'locked',
      `The cache file ${path} is in use by another program (another Outreach Workbench, or a \`workbench\` command still running). Close it and start again.`,
      path,
    );
  if (is('SQLITE_FULL') || code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_IOERR_SHMSIZE' || (!code && /disk is full|no space left/i.test(msg)))
    return new CacheError('disk-full', `The disk that holds ${path} is full. Free some space and start again; nothing in the cache was changed.`, path);
  if (is('SQLITE_READONLY') || is('SQLITE_CANTOPEN') || code === 'SQLITE_PERM' || ['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'EEXIST', 'EISDIR'].includes(code))
    return new CacheError(
      'not-writable',
      `The cache file ${path} cannot be created or written in ${dirname(path)} (${code || msg}). Check that the folder exists, that you may write there, and that the disk is not read-only.`,
      path,
    );
  if (is('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB' || (!code && /not a database|malformed|corrupt/i.test(msg)))
    return new CacheError(
      'corrupt',
      `The cache file ${path} is damaged (${msg}). \`workbench cache recover\` keeps it aside and builds a fresh cache with your triage, notes and do-not-contact list carried over.`,
      path,
    );
  if (is('SQLITE_IOERR'))
    return new CacheError(
      'unreadable',
      `The cache file ${path} could not be read or written (${code}: ${msg}). The disk may be failing or disconnected.`,
      path,
    );
  return null;
}

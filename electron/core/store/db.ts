// Opening the cache: WAL, foreign keys, an integrity check, a backup before
// any migration (the user's triage and notes cannot be fetched again), and
// migrations recorded in PRAGMA user_version.
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { MIGRATIONS, LATEST_VERSION } from './migrations';

export type DB = Database.Database;

/** Why a cache could not open, in the kinds the app's start-up dialog offers choices for. */
export type CacheFailureKind = 'newer' | 'corrupt' | 'unreadable' | 'locked' | 'disk-full' | 'not-writable';

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

export interface OpenOptions {
  /** Folder for backups taken before migrations; default: `backups/` beside the file. */
  backupDir?: string;
  /** How many backups to keep. Default 5. */
  keepBackups?: number;
  readonly?: boolean;
}

function configure(db: DB): void {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // A 100,000-opportunity cache with its indexes and full-text index is a few
  // hundred MB; the default 2 MB page cache turns every list query and sync
  // page into reads from the OS. 64 MB keeps the hot pages in this process.
  db.pragma('cache_size = -65536');
}

/**
 * Open (creating if needed) and migrate the cache at `path`. Throws CacheError
 * with words a person can act on when the file is from a newer app or damaged.
 */
export async function openDatabase(path: string, opts: OpenOptions = {}): Promise<DB> {
  try {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  } catch (e) {
    throw classifyOpenError(e, path) ?? e;
  }
  const fresh = path === ':memory:' || !existsSync(path);
  let db: DB;
  try {
    db = new Database(path, { readonly: opts.readonly ?? false });
  } catch (e) {
    throw classifyOpenError(e, path) ?? new CacheError('unreadable', `The cache file ${path} could not be opened: ${(e as Error).message}`, path);
  }
  try {
    configure(db);
    if (!fresh) {
      const check = db.pragma('quick_check', { simple: true });
      if (check !== 'ok') {
        throw new CacheError(
          'corrupt',
          `The cache file ${path} is damaged (integrity check: ${String(check)}). ` +
            `Move it aside and start a fresh cache with \`workbench cache reset\` (or Settings > Reset cache); ` +
            `backups taken before upgrades are in ${opts.backupDir ?? join(dirname(path), 'backups')}.`,
          path,
        );
      }
    }
    const current = db.pragma('user_version', { simple: true }) as number;
    if (current > LATEST_VERSION) {
      throw new CacheError(
        'newer',
        `The cache file ${path} was written by a newer version of Outreach Workbench (schema ${current}; this version knows up to ${LATEST_VERSION}). Update the app, or use another cache file.`,
        path,
      );
    }
    if (current < LATEST_VERSION) {
      if (!fresh && current > 0 && !opts.readonly) await backupBeforeMigration(db, path, current, opts);
      migrate(db, current);
    }
    return db;
  } catch (e) {
    db.close();
    if (e instanceof CacheError) throw e;
    throw classifyOpenError(e, path) ?? e;
  }
}

/**
 * Words and a kind for an error met while opening: another process holding
 * the file, a full disk, a folder that cannot be written, a damaged file.
 * Null when it is none of these.
 */
export function classifyOpenError(e: unknown, path: string): CacheError | null {
  const code = String((e as { code?: unknown })?.code ?? '');
  const msg = e instanceof Error ? e.message : String(e);
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED') || /database is locked/i.test(msg))
    return new CacheError('locked', `The cache file ${path} is in use by another program (another Outreach Workbench, or a \`workbench\` command still running). Close it and start again.`, path);
  if (code.startsWith('SQLITE_FULL') || code === 'ENOSPC' || /disk is full|no space/i.test(msg))
    return new CacheError('disk-full', `The disk that holds ${path} is full. Free some space and start again; nothing in the cache was changed.`, path);
  if (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN') || ['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'EEXIST'].includes(code))
    return new CacheError('not-writable', `The folder ${dirname(path)} cannot be written to (${code || msg}). Check that it exists and that you may write there.`, path);
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB' || /not a database|malformed|corrupt/i.test(msg))
    return new CacheError('corrupt', `The cache file ${path} is damaged (${msg}). Move it aside and start a fresh cache with \`workbench cache reset\`.`, path);
  return null;
}

/** Run every migration after `from`, each in its own transaction with its version. */
export function migrate(db: DB, from: number): void {
  for (const m of MIGRATIONS) {
    if (m.version <= from) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
}

async function backupBeforeMigration(db: DB, path: string, version: number, opts: OpenOptions): Promise<string> {
  const dir = opts.backupDir ?? join(dirname(path), 'backups');
  mkdirSync(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const target = join(dir, `${basename(path)}.v${version}.${stamp}.bak`);
  // The online backup API: a consistent copy even of an open WAL database.
  await db.backup(target);
  const keep = opts.keepBackups ?? 5;
  const mine = readdirSync(dir)
    .filter((f) => f.startsWith(basename(path) + '.v') && f.endsWith('.bak'))
    .sort();
  for (const old of mine.slice(0, Math.max(0, mine.length - keep))) rmSync(join(dir, old), { force: true });
  return target;
}

/** Move a damaged cache file (and its WAL) aside so a fresh one can be made; returns the new name. */
export function moveAside(path: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const target = `${path}.damaged-${stamp}`;
  renameSync(path, target);
  for (const suffix of ['-wal', '-shm']) if (existsSync(path + suffix)) renameSync(path + suffix, target + suffix);
  return target;
}

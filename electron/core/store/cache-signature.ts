// Is the file at a cache path this app's cache? Told before anything writes to
// it or sets a pragma on it (the switch to WAL, a migration, the open marker,
// a backups folder beside it): another program's SQLite file given as `--db`
// (or found where the cache should be) is refused with nothing in it or
// beside it changed, instead of gaining the app's tables or failing every
// command with SQLite's words.
//
// The signature: the app's own tables from its first version (which every
// later one keeps) and a schema version this app has written, or an empty
// database (no tables and version 0, which any new cache starts as). A file
// with the app's tables and a newer version is a newer app's cache; without
// them it is another program's, whatever its version says.
//
// The look makes nothing beside the file and changes nothing in it: it reads
// the main file's bytes (sqlite-file.ts) when no `-wal` file holds more; when
// one does (the app or a command has the cache open, or one crashed), it asks
// SQLite on a read-only connection, which then needs no file it would create.
// It fails closed: what it cannot tell is told by the open itself, which
// reads the schema again on its own connection before its first write
// (checkOpenedSchema, db.ts). A file another program holds so that it cannot
// be read is waited for, visibly, then named (cache-locked).
import Database from 'better-sqlite3';
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { CacheError, newerError } from './cache-error';
import { untilReadable, type LockWaitOptions } from './lock-wait';
import { readFileSchema, type FileSchema } from './sqlite-file';

/** Tables every version of the cache has had since the first. */
const SIGNATURE_TABLES = ['brands', 'brand_keys', 'opportunities', 'triage', 'sync_runs'];

/** The SQLite header's journal mode (bytes 18 and 19: 1 rollback journal, 2 WAL), or null when the file is not SQLite. */
function sqliteJournal(path: string): 'rollback' | 'wal' | null {
  let fd: number | null = null;
  try {
    fd = openSync(path, 'r');
    const header = Buffer.alloc(20);
    if (readSync(fd, header, 0, 20, 0) !== 20 || header.toString('latin1', 0, 16) !== 'SQLite format 3\0') return null;
    return header[18] === 2 ? 'wal' : 'rollback';
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

const sizeOf = (path: string): number => {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
};

/**
 * Refuse `schema` unless it is this app's cache (or empty): not-app-cache for
 * another program's database, cache-newer for a newer app's cache.
 */
export function judgeSchema(path: string, schema: FileSchema, latestVersion: number): void {
  if (schema.version === 0 && schema.tables.length === 0) return;
  const signed = SIGNATURE_TABLES.every((t) => schema.tables.includes(t));
  if (signed && schema.version > latestVersion) throw newerError(path, schema.version, latestVersion);
  if (signed && schema.version >= 1) return;
  const shown = schema.tables.slice(0, 5).join(', ') + (schema.tables.length > 5 ? ', …' : '');
  throw new CacheError(
    'not-app-cache',
    `${path} is not an Outreach Workbench cache: it is another program's database (tables: ${shown || 'none'}; schema version ${schema.version}). Nothing in it was changed. ` +
      'Give --db (or WORKBENCH_DB) the path of a cache file, or of a new file to create one.',
    path,
  );
}

/** The schema as an open connection sees it (its WAL included). Throws SQLite's error (busy, damaged) as it comes. */
export function schemaOn(db: Database.Database): FileSchema {
  const version = db.pragma('user_version', { simple: true }) as number;
  const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name);
  return { version, tables };
}

/** Whether a read-only SQLite connection would make nothing beside the file: a rollback journal's file needs no other, a WAL's needs both its files there. */
function sqliteMakesNothing(path: string, journal: 'rollback' | 'wal'): boolean {
  return journal === 'rollback' || (existsSync(`${path}-wal`) && existsSync(`${path}-shm`));
}

function bytesOf(path: string): FileSchema | null {
  try {
    return readFileSchema(path);
  } catch {
    return null;
  }
}

function readOnly(path: string, nativeBinding?: string): FileSchema {
  const db = new Database(path, { readonly: true, fileMustExist: true, timeout: 0, ...(nativeBinding ? { nativeBinding } : {}) });
  try {
    return schemaOn(db);
  } finally {
    db.close();
  }
}

export interface LookOptions extends LockWaitOptions {
  nativeBinding?: string;
  signal?: AbortSignal;
}

/**
 * Throws CacheError('not-app-cache') when the existing file at `path` is a
 * SQLite database that is not this app's cache, and 'cache-newer' when it is a
 * newer app's; `latestVersion` is the newest schema this app knows. A file
 * held so that it cannot be read is waited for (said through onLockWait) for
 * up to the lock wait, then refused as cache-locked. Anything else (not SQLite
 * at all, damaged) is left for the open to name. Changes nothing in the file
 * and makes nothing beside it.
 */
export async function refuseForeignDatabase(path: string, latestVersion: number, opts: LookOptions = {}): Promise<void> {
  const journal = sqliteJournal(path);
  if (journal === null) return;
  const walFrames = sizeOf(`${path}-wal`) > 0;
  const fromBytes = bytesOf(path);
  // With no WAL holding more, the main file says it all (a rollback journal a crash left is not replayed: the file as it was before).
  if (fromBytes && !walFrames) return judgeSchema(path, fromBytes, latestVersion);
  let seen: FileSchema | null = null;
  if (sqliteMakesNothing(path, journal)) {
    try {
      seen = await untilReadable(() => readOnly(path, opts.nativeBinding), path, opts);
    } catch (e) {
      if (e instanceof CacheError || opts.signal?.aborted) throw e;
      // Damaged, or a crash's journal a read-only connection cannot roll back: what the bytes say, else the open's own look.
    }
  }
  // The bytes without the WAL's frames may be behind: what they add, the open's own look sees.
  const schema = seen ?? fromBytes;
  if (schema) judgeSchema(path, schema, latestVersion);
}

/**
 * The same refusal without waiting, for moving a file aside or recovering it:
 * refuses only a file seen to be another program's (a damaged or busy cache is
 * what those are for).
 */
export function refuseForeignDatabaseNow(path: string, latestVersion: number): void {
  const journal = sqliteJournal(path);
  if (journal === null) return;
  let schema = sizeOf(`${path}-wal`) > 0 ? null : bytesOf(path);
  if (!schema && sqliteMakesNothing(path, journal)) {
    try {
      schema = readOnly(path);
    } catch {
      schema = null;
    }
  }
  schema ??= bytesOf(path);
  if (!schema) return;
  try {
    judgeSchema(path, schema, latestVersion);
  } catch (e) {
    if (e instanceof CacheError && e.kind === 'not-app-cache') throw e;
  }
}

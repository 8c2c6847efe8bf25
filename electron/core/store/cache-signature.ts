// Is the file at a cache path this app's cache? Told before anything writes to
// it or sets a pragma on it (the switch to WAL, a migration, the open marker,
// a backups folder beside it): another program's SQLite file given as `--db`
// (or found where the cache should be) is refused with nothing in it
// changed, instead of gaining the app's tables or failing every command with
// SQLite's words.
//
// The signature: the app's own tables from its first version (which every
// later one keeps) and a schema version this app has written, or an empty
// database (no tables and version 0, which any new cache starts as). Read on a
// read-only connection; for a file in WAL mode that connection makes the
// `-wal` and `-shm` files SQLite needs, which are removed again if they were
// not there before and the file turns out not to be the app's.
import Database from 'better-sqlite3';
import { closeSync, existsSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { CacheError } from './cache-error';

/** Tables every version of the cache has had since the first. */
const SIGNATURE_TABLES = ['brands', 'brand_keys', 'opportunities', 'triage', 'sync_runs'];

function sqliteHeader(path: string): boolean {
  let fd: number | null = null;
  try {
    fd = openSync(path, 'r');
    const header = Buffer.alloc(16);
    return readSync(fd, header, 0, 16, 0) === 16 && header.toString('latin1') === 'SQLite format 3\0';
  } catch {
    return false;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

interface Schema {
  version: number;
  tables: string[];
  /** Remove the `-wal` and `-shm` files this look made. */
  cleanup: () => void;
}

/** What a read-only look at the file found, or null when it could not be read (damaged, locked: the open says which). */
function readSchema(path: string, nativeBinding?: string): Schema | null {
  const made = ['-wal', '-shm'].filter((s) => !existsSync(path + s)).map((s) => path + s);
  const cleanup = () => made.forEach(removeIfUnused);
  let db: Database.Database | null = null;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
    const version = db.pragma('user_version', { simple: true }) as number;
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name);
    return { version, tables, cleanup };
  } catch {
    return null;
  } finally {
    db?.close();
  }
}

/** A `-wal` or `-shm` file this look made: the WAL is empty (a read-only connection writes nothing to it). */
function removeIfUnused(path: string): void {
  try {
    if (path.endsWith('-wal') && statSync(path).size > 0) return;
    rmSync(path, { force: true });
  } catch {
    // left as it is
  }
}

/**
 * Throws CacheError('not-app-cache') when the existing file at `path` is a
 * SQLite database that is not this app's cache; `latestVersion` is the newest
 * schema this app knows (a newer one is left for the open to call newer).
 * Anything else (not SQLite at all, damaged, locked) is left for the open to
 * name. Changes nothing in the file.
 */
export function refuseForeignDatabase(path: string, latestVersion: number, nativeBinding?: string): void {
  if (!sqliteHeader(path)) return;
  const schema = readSchema(path, nativeBinding);
  if (!schema) return;
  // The look leaves nothing beside the file, whoever's it is: the open that follows makes what it needs (and may yet fail).
  schema.cleanup();
  const empty = schema.version === 0 && schema.tables.length === 0;
  const ours = schema.version >= 1 && SIGNATURE_TABLES.every((t) => schema.tables.includes(t));
  // A version above this app's is left for the open to call newer (a newer app may have renamed its tables).
  if (empty || ours || schema.version > latestVersion) return;
  const shown = schema.tables.slice(0, 5).join(', ') + (schema.tables.length > 5 ? ', …' : '');
  throw new CacheError(
    'not-app-cache',
    `${path} is not an Outreach Workbench cache: it is another program's database (tables: ${shown || 'none'}; schema version ${schema.version}). Nothing in it was changed. ` +
      'Give --db (or WORKBENCH_DB) the path of a cache file, or of a new file to create one.',
    path,
  );
}

// Opening the cache: WAL, foreign keys, an integrity check after an unclean
// shutdown (see open-marker.ts), a backup before any migration (the user's
// triage and notes cannot be fetched again), and migrations recorded in
// PRAGMA user_version. A cache that cannot open says why, as one of the kinds
// the app's start-up dialog acts on.
import Database from 'better-sqlite3';
import type { StartProgress } from '../../../shared/core-link';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { MIGRATIONS, LATEST_VERSION } from './migrations';
import { slotOf, unpackBlock } from './opportunity-codec';
import { acquireMarker, holdMarker, openMarkerFile, releaseMarker, releaseMarkerOf, otherOpeners, uncleanMarkers } from './open-marker';
export { openMarkerPath } from './open-marker';
export { CacheError, classifyOpenError, type CacheFailureKind } from './cache-error';
import { CacheError, classifyOpenError, newerError as newerThan } from './cache-error';
import { judgeSchema, refuseForeignDatabase, refuseForeignDatabaseNow, schemaOn } from './cache-signature';
import { commitPartial, partialName, removeStalePartials } from '../files/atomic-write';
import { setLockWait, untilReadable, type LockWaitOptions } from './lock-wait';

export type DB = Database.Database;

/** A step of opening the cache that can take long (seconds to minutes on a large cache), said as it starts (shared/core-link.ts). */
export type OpenProgress = StartProgress;

export interface OpenOptions extends LockWaitOptions {
  /** Folder for backups taken before migrations; default: `backups/` beside the file. */
  backupDir?: string;
  /** How many backups to keep. Default 5. */
  keepBackups?: number;
  /** Read an existing file as it is: no marker, journal switch, upgrade or backup (so read only what every version has). */
  readonly?: boolean;
  /**
   * better-sqlite3's own option: the .node file to load instead of the one beside the package.
   * The app never sets it; tests hand it a module that cannot load (an installation that is damaged).
   */
  nativeBinding?: string;
  /**
   * Told as each long step starts (the integrity check after a crash, the backup before an upgrade,
   * each migration, the compaction): the app's main process waits for the cache while these come.
   * Each step runs on this thread and says nothing until it ends, so the message is given a turn of
   * the event loop to leave the process before the step begins.
   */
  onProgress?(progress: OpenProgress): void;
  /** Stops a wait for another program's lock while opening (the user's Ctrl-C), with its reason. */
  signal?: AbortSignal;
}

/** Tell `progress`, then let it leave this process (a port's message waits for the event loop) before a blocking step. */
async function announce(opts: OpenOptions, progress: OpenProgress): Promise<void> {
  if (!opts.onProgress) return;
  opts.onProgress(progress);
  await new Promise<void>((resolve) => setImmediate(resolve));
}

function configure(db: DB, opts: LockWaitOptions, readonly: boolean): void {
  // How long a write waits for another program's lock (30 s by default), before the first write (the switch to WAL).
  setLockWait(db, { lockWaitMs: opts.lockWaitMs, blockingWaitMs: opts.blockingWaitMs, onLockWait: opts.onLockWait });
  if (!readonly) db.pragma('journal_mode = WAL'); // a write: a reader takes the journal as it finds it
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  // A 100,000-opportunity cache with its indexes and full-text index is a few
  // hundred MB; the default 2 MB page cache turns every list query and sync
  // page into reads from the OS. 64 MB keeps the hot pages in this process.
  db.pragma('cache_size = -65536');
  // The stored record's JSON, for SQL that reads a field of it (record_json(b.packed, o.rowid) -> '$.field'; b its block).
  db.function('record_json', { deterministic: true }, (packed: unknown, rowid: unknown) =>
    packed instanceof Uint8Array && typeof rowid === 'number' ? (unpackBlock(packed)[slotOf(rowid)]?.toString('utf8') ?? null) : null,
  );
}

const newerError = (path: string, version: number): CacheError => newerThan(path, version, LATEST_VERSION);

/**
 * The schema version in a SQLite file's header (user_version, bytes 60-63),
 * read without SQLite, or null when the file has no SQLite header or cannot be
 * read. A newer app's file is recognised before this app parses its schema
 * (which may use syntax this SQLite does not know) or changes its journal mode.
 */
export function headerSchemaVersion(path: string): number | null {
  let fd: number | null = null;
  try {
    fd = openSync(path, 'r');
    const header = Buffer.alloc(100);
    if (readSync(fd, header, 0, 100, 0) < 100) return null;
    if (header.subarray(0, 16).toString('latin1') !== 'SQLite format 3\0') return null;
    return header.readInt32BE(60);
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/**
 * Open (creating if needed) and migrate the cache at `path` (`readonly`: neither). Throws CacheError with words a
 * person can act on when the file cannot be opened (see CacheFailureKind); a file from a newer version is refused
 * before anything in it is changed. The full integrity check (PRAGMA quick_check, about a second at 100k
 * opportunities) runs here only when the last session did not close cleanly (see open-marker.ts); otherwise the app
 * runs it later, in the background (Cache.checkIntegrity). Close with closeDatabase (Cache.close) so the next open
 * knows this session ended cleanly.
 */
export async function openDatabase(path: string, opts: OpenOptions = {}): Promise<DB> {
  const readonly = opts.readonly ?? false;
  try {
    if (path !== ':memory:' && !readonly) mkdirSync(dirname(path), { recursive: true });
  } catch (e) {
    throw classifyOpenError(e, path) ?? e;
  }
  const fresh = path === ':memory:' || !existsSync(path);
  // Another program's database (or a newer app's cache) is refused before anything is written to it or beside it.
  if (!fresh) await refuseForeignDatabase(path, LATEST_VERSION, opts);
  const unclean = path === ':memory:' ? [] : uncleanMarkers(path);
  let marker: string | null = null;
  let db: DB;
  try {
    // Before the first write (the switch to WAL, a migration), so a crash from here on is seen by the next open.
    if (path !== ':memory:' && !readonly) marker = acquireMarker(path);
    // No busy timeout until configure() sets the lock wait: the schema's check below waits without blocking.
    db = new Database(path, { readonly, timeout: 0, ...(opts.nativeBinding ? { nativeBinding: opts.nativeBinding } : {}) });
  } catch (e) {
    if (marker) releaseMarker(marker, null);
    throw classifyOpenError(e, path) ?? new CacheError('io-error', `The cache file ${path} could not be opened: ${(e as Error).message}`, path);
  }
  if (marker) holdMarker(marker, db);
  try {
    // The schema again, as this connection sees it (a WAL's frames included), before any pragma or write:
    // what the look could not tell is refused here (fail closed), and a file held so that it cannot be read is waited for.
    if (!fresh) await checkOpenedSchema(db, path, opts);
    // A new file: 8 KB pages (a compressed record is about 1.1 KB; 4 KB pages leave a fifth of each empty), set before anything is written.
    // Incremental auto-vacuum, too, must be set before the first write (WAL's switch in configure() is one).
    if (fresh && !readonly && path !== ':memory:') {
      db.pragma(`page_size = ${PAGE_SIZE}`);
      db.pragma('auto_vacuum = INCREMENTAL');
    }
    configure(db, opts, readonly);
    // The version first: a newer app's file (its latest version may be in the WAL) is never called damaged.
    const current = db.pragma('user_version', { simple: true }) as number;
    if (current > LATEST_VERSION) throw newerError(path, current);
    if (!fresh && unclean.length > 0) {
      await announce(opts, { step: 'checking', message: 'Checking the cache after the app last stopped without closing it…' });
      const check = quickCheck(db);
      if (!check.ok) {
        throw new CacheError(
          'cache-damaged',
          `The cache file ${path} is damaged (integrity check: ${check.message}). ` +
            `\`workbench cache recover\` keeps it aside and builds a fresh cache with your triage, notes and do-not-contact list carried over ` +
            `(the app does this by itself when it starts).`,
          path,
        );
      }
    }
    // Checked (or a fresh file, which has nothing to check): the crashed sessions' markers have done their job.
    if (!readonly) for (const m of unclean) if (m !== marker) rmSync(m, { force: true });
    if (current < LATEST_VERSION && !readonly) {
      if (!fresh && current > 0) {
        await announce(opts, { step: 'backing-up', message: `Backing up the cache before upgrading it from version ${current}…` });
        await backupBeforeMigration(db, path, current, opts);
      }
      // Pages freed by removed or shrunk records go back to the disk (PRAGMA incremental_vacuum after a sync):
      // a new file took the setting before its first write (above); an older one takes it with the VACUUM below.
      const steps = MIGRATIONS.filter((m) => m.version > current);
      for (const [i, m] of steps.entries()) {
        if (!fresh) await announce(opts, { step: 'migrating', message: `Upgrading the cache to version ${m.version} (step ${i + 1} of ${steps.length})…` });
        migrate(db, i === 0 ? current : steps[i - 1]!.version, m.version);
      }
      // Versions 4 and 12 repack every record: compact the file once, so the space comes back now.
      if (current > 0 && current < 12 && !readonly) {
        await announce(opts, { step: 'compacting', message: 'Compacting the upgraded cache…' });
        compactOnce(db);
      } else if (current > 0 && current < 13 && !readonly) {
        // Version 13 made two tables again, packed: the old ones' pages are free, and go back to the disk at once.
        db.pragma('incremental_vacuum');
      }
    }
    return db;
  } catch (e) {
    let failure = e instanceof CacheError ? e : classifyOpenError(e, path);
    if (failure?.kind === 'cache-damaged') {
      // A schema this SQLite cannot parse, from a newer app whose version is still in the WAL: newer, not damaged.
      const version = readUserVersion(db);
      if (version !== null && version > LATEST_VERSION) failure = newerError(path, version);
    }
    db.close();
    if (marker) releaseMarker(marker, db);
    throw failure ?? e;
  }
}

/**
 * Close a database opened by openDatabase, cleanly: the connection first
 * (SQLite checkpoints the WAL into the file), then this process's open marker,
 * so the next open skips the integrity check. With `keepMarker` (the file was
 * found damaged while open) the marker stays and the next open checks again.
 */
export function closeDatabase(db: DB, opts: { keepMarker?: boolean } = {}): void {
  if (db.open) db.close();
  releaseMarkerOf(db, opts.keepMarker ?? false);
}

/**
 * PRAGMA quick_check: every page and b-tree well-formed (not that each index
 * matches its table, which integrity_check adds). Reads the whole file: about
 * a second at 100,000 opportunities, on the calling thread. A file too damaged
 * for the check to run is not ok either; any other error (I/O, closed) throws.
 */
export function quickCheck(db: DB): { ok: true } | { ok: false; message: string } {
  try {
    const rows = db.pragma('quick_check') as { quick_check: string }[];
    const found = rows.map((r) => r.quick_check).join('\n');
    // Up to 100 problems, one a line: the first few say enough.
    return found === 'ok' ? { ok: true } : { ok: false, message: found.length > 400 ? `${found.slice(0, 400)}…` : found };
  } catch (e) {
    if (classifyOpenError(e, db.name)?.kind === 'cache-damaged') return { ok: false, message: (e as Error).message };
    throw e;
  }
}

/** quick_check of the file at `path` on a read-only connection of its own; a file too damaged to open is not ok. */
export function checkFileIntegrity(path: string): { ok: true } | { ok: false; message: string } {
  let db: DB | null = null;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    return quickCheck(db);
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  } finally {
    db?.close();
  }
}

function readUserVersion(db: DB): number | null {
  try {
    return db.pragma('user_version', { simple: true }) as number;
  } catch {
    return null;
  }
}

const PAGE_SIZE = 8192;

/**
 * Rewrite the file once, compactly: 8 KB pages and incremental auto-vacuum.
 * The page size can change only outside WAL mode, which needs the file to
 * itself; with another process reading it, the file is still compacted, at
 * its old page size. A compaction that cannot run at all is skipped: the
 * file works as it is, and freed pages are reused.
 */
function compactOnce(db: DB): void {
  db.pragma('auto_vacuum = INCREMENTAL');
  try {
    db.pragma('journal_mode = DELETE');
    db.pragma(`page_size = ${PAGE_SIZE}`);
  } catch {
    // Another connection: keep WAL and the page size.
  }
  try {
    db.exec('VACUUM');
  } catch {
    // Busy: the next upgrade-free open leaves it as it is.
  } finally {
    db.pragma('journal_mode = WAL');
  }
}

/** Run every migration after `from` (up to `to`, default the latest), each in its own transaction with its version. */
export function migrate(db: DB, from: number, to = LATEST_VERSION): void {
  for (const m of MIGRATIONS) {
    if (m.version <= from || m.version > to) continue;
    db.transaction(() => {
      db.exec(m.sql);
      m.up?.(db);
      // PRAGMA takes no bound value; the version is a whole number from the static list above.
      db.pragma(`user_version = ${Math.trunc(Number(m.version))}`);
    })();
  }
}

async function backupBeforeMigration(db: DB, path: string, version: number, opts: OpenOptions): Promise<string> {
  const dir = opts.backupDir ?? join(dirname(path), 'backups');
  mkdirSync(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const target = join(dir, `${basename(path)}.v${version}.${stamp}.bak`);
  // Under a temporary name until whole (a Ctrl-C or a kill during a long upgrade leaves no cut-short copy under a backup's name).
  removeStalePartials(dir);
  const part = partialName(target);
  try {
    // The online backup API: a consistent copy even of an open WAL database.
    await db.backup(part);
  } catch (e) {
    rmSync(part, { force: true });
    throw e;
  }
  commitPartial(part, target, 'The backup of the cache before its upgrade');
  const keep = opts.keepBackups ?? 5;
  const mine = readdirSync(dir)
    .filter((f) => f.startsWith(basename(path) + '.v') && f.endsWith('.bak'))
    .sort();
  for (const old of mine.slice(0, Math.max(0, mine.length - keep))) rmSync(join(dir, old), { force: true });
  return target;
}

/** Throws CacheError('not-app-cache') when the file at `path` is seen to be another program's SQLite database (nothing in it changed). */
export function refuseIfNotAppCache(path: string): void {
  refuseForeignDatabaseNow(path, LATEST_VERSION);
}

/** The opened file's schema, read on its own connection and judged as the look does; another program's lock on it waited for. */
async function checkOpenedSchema(db: DB, path: string, opts: OpenOptions): Promise<void> {
  const schema = await untilReadable(() => schemaOn(db), path, opts, db);
  judgeSchema(path, schema, LATEST_VERSION);
}

/**
 * Move a cache file aside (with its WAL, shared-memory and journal files) so a
 * fresh one can be made: renamed in the same folder, never deleted, so the
 * triage and notes in it are kept. Returns the new name. Used by the app's
 * "Start over" and by `workbench cache reset`.
 */
export function moveAside(path: string): string {
  refuseIfNotAppCache(path);
  const others = otherOpeners(path);
  if (others.length > 0) {
    throw new CacheError(
      'cache-locked',
      `The cache is open in another window or terminal (process ${others.join(', ')}), so it was not moved. Close the app and any running \`workbench\` command, then try again. ` +
        `(If none is running, a crashed one left ${others.map((pid) => basename(openMarkerFile(path, pid))).join(', ')} beside the cache: delete it.)`,
      path,
    );
  }
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  let target = `${path}.damaged-${stamp}`;
  for (let n = 2; existsSync(target); n++) target = `${path}.damaged-${stamp}-${n}`;
  // The file first: if it cannot move (in use on Windows), nothing has moved.
  renameSync(path, target);
  const moved: string[] = [];
  try {
    for (const suffix of ['-wal', '-shm', '-journal']) {
      if (!existsSync(path + suffix)) continue;
      renameSync(path + suffix, target + suffix);
      moved.push(suffix);
    }
  } catch (e) {
    // A WAL left behind must never meet a fresh cache (SQLite would replay it): put everything back.
    for (const suffix of moved) renameSync(target + suffix, path + suffix);
    renameSync(target, path);
    throw e;
  }
  return target;
}

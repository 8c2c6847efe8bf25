// Giving back the room a cache file holds empty (store/cache.ts uses these):
// how much is loose in it, when that pays for a rewrite (VACUUM), and the
// rewrite itself, never waited for and with a small page cache.
import type { DB } from './db';

/**
 * When a close compacts the file (Cache.compactIfLoose): the empty space inside the
 * opportunities' indexes (the sort and chip indexes, which every triage change
 * rewrites: a star or a stage moves the row's entry in each) plus the free
 * pages, past both this share of those indexes and this many bytes. A bulk
 * triage of 20,000 opportunities at 100,000 leaves about 14%, 8 MB; a sync's
 * changes or a day's clicks a few hundred KB; a first sync 12%, 7 MB at
 * 100,000, but 0.6 MB at 10,000.
 */
const LOOSE_SHARE = 0.08;
const LOOSE_MIN_BYTES = 4 * 1024 * 1024;

/**
 * When close() compacts: `false` never (a read-only use), else the thresholds (tests lower them)
 * and `maxFileBytes`, the largest file whose VACUUM fits the time the closer allows (the app's quit: see cache-keeper.ts);
 * `onCompact` is called just before a VACUUM runs (the CLI says so: it holds the command's end for seconds at 100,000;
 * the first sync's tidy-up says it too), never when another program's write lock keeps it from starting; `onSkipped`
 * when a VACUUM announced could not run after all (another program took the file in between).
 */
export type CompactAtClose = false | { share?: number; minBytes?: number; maxFileBytes?: number; onCompact?: () => void; onSkipped?: () => void };

/** The space a compaction would give back, as close() measures it (bytes). */
export interface LooseSpace {
  /** Empty bytes inside the opportunities' index pages, and those pages' size. */
  indexUnused: number;
  indexBytes: number;
  /** Pages on the free list. */
  freeBytes: number;
}

/**
 * The space a VACUUM would give back from what triage and sync scatter: the
 * empty bytes inside the opportunities' index pages (dbstat, those b-trees
 * only: about 30 ms at 100,000) and the free pages.
 */
export function looseSpace(db: DB): LooseSpace {
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const free = db.pragma('freelist_count', { simple: true }) as number;
  const names = (db.prepare("SELECT name FROM pragma_index_list('opportunities')").all() as { name: string }[]).map((r) => r.name);
  const stat = db.prepare("SELECT COALESCE(sum(pgsize), 0) AS bytes, COALESCE(sum(unused), 0) AS unused FROM dbstat('main', 1) WHERE name = ?");
  let indexUnused = 0;
  let indexBytes = 0;
  for (const name of names) {
    const r = stat.get(name) as { bytes: number; unused: number };
    indexUnused += r.unused;
    indexBytes += r.bytes;
  }
  return { indexUnused, indexBytes, freeBytes: free * pageSize };
}

/** Whether this much loose space pays for a rewrite: past both thresholds (LOOSE_SHARE and LOOSE_MIN_BYTES, or `opts`). */
export function loosePays(loose: LooseSpace, opts: { share?: number; minBytes?: number } = {}): boolean {
  const bytes = loose.indexUnused + loose.freeBytes;
  const share = loose.indexBytes > 0 ? bytes / loose.indexBytes : 0;
  return bytes >= (opts.minBytes ?? LOOSE_MIN_BYTES) && share >= (opts.share ?? LOOSE_SHARE);
}

/**
 * An 8 MB page cache, and the memory of the rest given back, until the
 * returned function puts the cache's own size back. For work that reads or
 * writes most of the file once (an export, a VACUUM, merging the full-text
 * index): caching those pages only grows the process, and a VACUUM gives its
 * copy a second cache as large as the file's (at 64 MB each, a first sync's
 * tidy-up at 100,000 took the process 180 MB higher; with 8 MB, 12 MB, in the same time).
 */
export function smallPageCache(db: DB): () => void {
  const size = db.pragma('cache_size', { simple: true }) as number;
  db.pragma('cache_size = -8192');
  db.pragma('shrink_memory');
  return () => {
    if (!db.open) return;
    db.pragma(`cache_size = ${Math.trunc(Number(size))}`);
    db.pragma('shrink_memory');
  };
}

/**
 * One VACUUM, which rewrites every table and index packed, then the
 * write-ahead log emptied. Never waited for: another program writing the file
 * (the app, a terminal, a DB browser) makes it throw at once, leaving the file
 * as it is. `said.onCompact` is told just before, once the write lock was
 * seen free (so a file in use is never announced as compacting);
 * `said.onSkipped` if the VACUUM still failed after that.
 */
export function vacuumNow(db: DB, said: { onCompact?: () => void; onSkipped?: () => void } = {}): void {
  const wait = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma('busy_timeout = 0');
  let restore: (() => void) | null = null;
  try {
    // Another program's write lock: SQLITE_BUSY here, at once, before a word is said.
    db.exec('BEGIN IMMEDIATE');
    db.exec('ROLLBACK');
    restore = smallPageCache(db);
    said.onCompact?.();
    try {
      db.exec('VACUUM');
    } catch (e) {
      said.onSkipped?.();
      throw e;
    }
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    restore?.();
    db.pragma(`busy_timeout = ${Math.trunc(Number(wait))}`);
  }
}

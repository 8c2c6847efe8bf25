// The full-text index kept in few pieces. FTS5 writes each transaction's
// words as a new segment and merges them only now and then, so a synced
// cache holds its index in about ten segments; a search that tests a row by
// its rowid (the page walking the sort's index, store/search-walk.ts) seeks
// each word in every segment. Merged into one, a test costs a third as much
// and the index is no larger. The first sync merges it whole before the file
// is compacted (both hold the file a second or two, once); later syncs add a
// few small segments, merged in short steps once there are more than
// MAX_SEGMENTS, so a triage write or a keystroke waits one step at most.
import type { DB } from './db';

/** Segments a later sync leaves as they are. */
const MAX_SEGMENTS = 8;
/** Pages of the index one step of a merge writes (about 50 ms on a quiet machine). */
const MERGE_STEP_PAGES = 100;
const MERGE_PAUSE_MS = 15;
/** FTS5's default automerge. */
const AUTOMERGE = 4;

/** How many segments the full-text index is in. */
export function searchSegments(db: DB): number {
  return (db.prepare('SELECT count(DISTINCT segid) AS n FROM opportunity_search_idx').get() as { n: number }).n;
}

/**
 * Merge the whole full-text index into one segment (FTS5's optimize), in one
 * go: after the first sync, before the file is compacted (which then gives
 * back the pages of the old segments). False when the file was busy, or
 * anything else stopped it: the index stays as it was, still whole and right.
 */
export function optimizeSearchIndex(db: DB): boolean {
  try {
    if (searchSegments(db) <= 1) return false;
    db.exec(`INSERT INTO opportunity_search (opportunity_search) VALUES ('optimize')`);
    return true;
  } catch {
    return false;
  }
}

/**
 * After a later sync: when the index is in more than `over` segments, merge
 * them (FTS5's merge across levels) in steps of `stepPages` pages, each its
 * own write, with a pause between them. Resolves with the steps taken; never
 * rejects: a busy file or a closed cache ends it early, and the next sync
 * carries on where it stopped.
 */
export async function mergeSearchIndex(db: DB, opts: { over?: number; stepPages?: number; pauseMs?: number } = {}): Promise<number> {
  const pages = Math.max(1, Math.trunc(opts.stepPages ?? MERGE_STEP_PAGES));
  let steps = 0;
  try {
    if (searchSegments(db) <= (opts.over ?? MAX_SEGMENTS)) return 0;
    const changes = db.prepare('SELECT total_changes() AS c');
    const merge = db.prepare(`INSERT INTO opportunity_search (opportunity_search, rank) VALUES ('merge', ?)`);
    for (;;) {
      const before = (changes.get() as { c: number }).c;
      // Negative: segments of different levels merge too, towards one.
      merge.run(-pages);
      steps++;
      // FTS5's own sign: fewer than 2 changes means the step found nothing left to merge.
      if ((changes.get() as { c: number }).c - before < 2) break;
      await new Promise((resolve) => setTimeout(resolve, opts.pauseMs ?? MERGE_PAUSE_MS));
      if (!db.open) break;
    }
  } catch {
    // Busy with another writer past the busy timeout, or closed: the next sync does the rest.
  }
  return steps;
}

/**
 * FTS5's automerge (how many segments of a level it merges as it writes)
 * while the first sync fills an empty index: off, since that sync merges the
 * whole index into one segment at its end (optimizeSearchIndex), which
 * rewrites what the merges on the way had written, each of them once more.
 * The index stays bounded meanwhile (FTS5 merges a level of 16 segments
 * regardless: its crisis merge), and every search finds the same rows.
 * Call inside a write transaction.
 */
export function pauseAutomerge(db: DB): void {
  db.prepare(`INSERT INTO opportunity_search (opportunity_search, rank) VALUES ('automerge', 0)`).run();
}

/**
 * At a sync's start and end: automerge back to FTS5's default (4) if a first sync left it off (it ended, or was
 * killed). Throws nothing when another program holds the cache past the busy timeout (the next sync puts it back).
 */
export function resumeAutomerge(db: DB): void {
  try {
    const row = db.prepare(`SELECT v FROM opportunity_search_config WHERE k = 'automerge'`).get() as { v: number } | undefined;
    // The value written into the SQL: FTS5 refuses it bound (better-sqlite3 binds a number as a real); a constant of this file.
    if (row?.v === 0) db.prepare(`INSERT INTO opportunity_search (opportunity_search, rank) VALUES ('automerge', ${AUTOMERGE})`).run();
  } catch (e) {
    if (!/^SQLITE_(BUSY|LOCKED)/.test((e as { code?: string }).code ?? '')) throw e;
  }
}

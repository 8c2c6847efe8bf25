// What the fault suite checks in a cache after a fault, read by SQLite alone
// on a read-only connection (the app's code is not asked to judge itself):
// PRAGMA integrity_check, the user's notes, and a count or row of anything.
import Database from 'better-sqlite3';

export interface CacheHealth {
  /** PRAGMA integrity_check's answer: 'ok', or the problems it found. */
  integrity: string;
  /** Each opportunity's note, by its id. */
  notes: Map<string, string>;
  /** SELECT count(*) FROM `table` (a table name from the test itself). */
  count: (table: string) => number;
  /** The first row of a query. */
  row: <T>(query: string) => T | undefined;
}

/** Open the cache at `db` read-only, read it with `fn`, close it. */
export function withHealth<T>(db: string, fn: (h: CacheHealth) => T): T {
  const d = new Database(db, { readonly: true });
  try {
    return fn({
      integrity: (d.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check).join('\n'),
      notes: new Map(
        (d.prepare('SELECT opportunity_id AS id, note FROM triage WHERE note IS NOT NULL').all() as { id: string; note: string }[]).map((r) => [r.id, r.note]),
      ),
      count: (table) => (d.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n,
      row: <R>(query: string) => d.prepare(query).get() as R | undefined,
    });
  } finally {
    d.close();
  }
}

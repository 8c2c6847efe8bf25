// The floors: for each figure the bench measures, a minimal independent
// program doing the same work on the same data, timed in the same run (and,
// for the queries, interleaved call by call with the app's own), so a figure
// is read beside the fastest this machine does that work right now, not
// beside a number from another day or another machine. Each floor is written
// here in bare SQL over better-sqlite3 (prepared once, no derived tables, no
// mapping to the app's types): what it leaves out is what the app adds.
import { closeSync, openSync, writeSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import type Database from 'better-sqlite3';
import { unpackBlock } from '../../electron/core/store/opportunity-codec';

type DB = Database.Database;

/** The list's default filter by hand (the brand, not removed, not archived, not Not a fit, not snoozed): what every query floor adds to its own. */
const DEFAULT_WHERE = `o.brand_key = @bk AND o.removed_on_server = 0 AND o.archived = 0
  AND (o.stage IS NULL OR o.stage != 'Not a fit') AND (o.snoozed_until IS NULL OR o.snoozed_until <= @today)`;

/** Query floors over one open connection (the same file the app's reads use, in the same process). */
export function queryFloors(db: DB, bk: number, today: string) {
  const rowidsOf = db.prepare('SELECT rowid FROM opportunities WHERE brand_key = ? AND id IN (SELECT value FROM json_each(?))').pluck();
  const byRowid = db.prepare('SELECT * FROM opportunities WHERE rowid IN (SELECT value FROM json_each(?))');
  const searchPage = db.prepare(
    `SELECT o.* FROM opportunity_search s CROSS JOIN opportunities o ON o.rowid = s.rowid
     WHERE s.opportunity_search MATCH @q AND ${DEFAULT_WHERE} LIMIT 200`,
  );
  const searchCount = db.prepare('SELECT count(*) FROM opportunity_search WHERE opportunity_search MATCH ?').pluck();
  const grouped = new Map<string, Database.Statement>();
  const rowById = db.prepare('SELECT * FROM opportunities WHERE brand_key = ? AND id = ?');
  const blockOfRow = db.prepare('SELECT packed FROM opportunity_blocks WHERE block = ?').pluck();
  return {
    /** The detail pane's floor: the row by its key, and its record's stored bytes inflated (its block: the least that reads it). */
    detail: (id: string) => {
      const row = rowById.get(bk, id) as { rowid: number };
      return [row, unpackBlock(blockOfRow.get(Math.floor(row.rowid / 32)) as Buffer)[row.rowid % 32]];
    },
    /** Untimed: the rowids of a page's rows (by their ids), for the page floor. */
    rowids: (ids: string[]) => rowidsOf.all(bk, JSON.stringify(ids)) as number[],
    /** A page's floor: the same rows read whole by rowid. */
    page: (rowids: number[]) => byRowid.all(JSON.stringify(rowids)),
    /**
     * A search's floor: its full-text matches joined to their rows, the first 200 that pass the filter (in no
     * order), and how many matches the full-text index holds (the least a total can cost: not filtered).
     */
    search: (q: string) => {
      searchPage.all({ q, bk, today });
      return searchCount.get(q) as number;
    },
    /** The chip counts' floor: one bare GROUP BY over the same rows (`where`: the app's own conditions, so the same work). */
    counts: (where: { text: string; params: readonly unknown[] }) => {
      let st = grouped.get(where.text);
      if (!st) {
        st = db.prepare(`SELECT o.status, o.opportunity_type, o.difficulty, o.stage, count(*) FROM opportunities o WHERE ${where.text} GROUP BY 1, 2, 3, 4`);
        grouped.set(where.text, st);
      }
      return st.all(...where.params);
    },
  };
}

/**
 * The export's floor: the same rows' stored bytes read in the export's order
 * (priority), written to `out` through a 1 MiB buffer with plain writeSync,
 * as many bytes as the export wrote (each row its share, from its own bytes:
 * those of its block of records, read once for a run of rows in one block).
 * No inflating, parsing, filling or quoting: reading and writing that many bytes.
 */
export function exportFloor(db: DB, bk: number, out: string, bytes: number, rows: number): { rows: number; bytes: number } {
  const order = db
    .prepare(`SELECT o.rowid / 32 FROM opportunities o WHERE o.brand_key = ? AND o.removed_on_server = 0 ORDER BY o.priority_score DESC, o.rowid`)
    .pluck();
  const block = db.prepare('SELECT packed FROM opportunity_blocks WHERE block = ?').pluck();
  const blocks = order.all(bk) as number[];
  let last = -1;
  let held: Buffer = Buffer.alloc(0);
  const read = {
    *iterate(): Iterable<Buffer> {
      for (const b of blocks) {
        if (b !== last) held = (block.get(b) as Buffer | undefined) ?? Buffer.alloc(0);
        last = b;
        yield held;
      }
    },
  };
  const per = Math.max(1, Math.ceil(bytes / Math.max(1, rows)));
  const buf = Buffer.allocUnsafe(1 << 20);
  const fd = openSync(out, 'w');
  let at = 0;
  let written = 0;
  let n = 0;
  try {
    for (const packed of read.iterate()) {
      let left = Math.min(per, bytes - written);
      while (left > 0) {
        const take = Math.min(left, packed.length, buf.length - at);
        packed.copy(buf, at, 0, take);
        at += take;
        left -= take;
        written += take;
        if (at === buf.length) {
          writeSync(fd, buf, 0, at);
          at = 0;
        }
      }
      n++;
    }
    if (at > 0) writeSync(fd, buf, 0, at);
  } finally {
    closeSync(fd);
  }
  return { rows: n, bytes: written };
}

/**
 * The cache's compact floor: the same file copied (VACUUM INTO: every table,
 * index and the full-text index as they are, no free pages), its records then
 * compressed 32 to a block (raw deflate, level 6, no dictionary) in a table
 * of its own in place of the app's, and vacuumed again. Returns the copy's
 * size in bytes.
 */
export function compactFloor(openDb: (path: string) => DB, from: DB, copyPath: string): number {
  from.exec(`VACUUM INTO '${copyPath.replace(/'/g, "''")}'`);
  const db = openDb(copyPath);
  try {
    db.exec('CREATE TABLE record_blocks (first INTEGER PRIMARY KEY, packed BLOB NOT NULL) STRICT');
    const ins = db.prepare('INSERT INTO record_blocks (first, packed) VALUES (?, ?)');
    // The records as the app stores them (from version 12 in its own blocks), one by one, in rowid order.
    const rows = db.prepare('SELECT block, packed FROM opportunity_blocks ORDER BY block').raw(true);
    const all = (rows.all() as [number, Buffer][]).flatMap(([b, packed]) =>
      unpackBlock(packed).flatMap((json, slot) => (json ? [[b * 32 + slot, json.toString('utf8')] as const] : [])),
    );
    db.transaction(() => {
      for (let i = 0; i < all.length; i += 32) {
        const block = all.slice(i, i + 32);
        ins.run(block[0]![0], deflateRawSync(Buffer.from(block.map(([, json]) => json).join('\n'), 'utf8'), { level: 6 }));
      }
    })();
    db.exec('DROP TABLE opportunity_blocks');
    db.exec('VACUUM');
    const { n } = db.prepare('SELECT page_count * page_size AS n FROM pragma_page_count, pragma_page_size').get() as { n: number };
    return n;
  } finally {
    db.close();
  }
}

// Version 15: the rows of the sparse lists a person triages into (starred,
// snoozed, a stage chosen: Drafted, Contacted, ... and the follow-ups due,
// which are Contacted ones) each in a small partial index of their own,
// holding only those rows, the columns every list tests and every sort's
// value. A jump deep into such a list (the scroll bar dragged) gathers its
// cursors from the list's few rows read from it and sorted, where the sort's index would be
// walked past 10-50 entries of other opportunities for each row of the list
// (list-jump.ts chooses by the cost). Derived from the opportunities alone,
// kept by SQLite itself; built in the migration's transaction (a kill
// part-way leaves version 14 as it was).
import type Database from 'better-sqlite3';

export const version = 15;

/** After the leading columns: the flags every list tests, then each sort's value (so a read needs no table row). */
const REST = `archived, status, snoozed_until, opportunity_type, difficulty, starred, contact_count, catch_all_count,
  priority_score, fit_score, last_seen, title COLLATE NOCASE, domain COLLATE NOCASE`;

/** The three indexes, each built by a statement of its own (so a kill between two of them is one a test can aim at). */
const INDEXES = [
  `CREATE INDEX opportunities_starred ON opportunities (brand_key, removed_on_server, stage, ${REST}) WHERE starred = 1`,
  `CREATE INDEX opportunities_snoozed ON opportunities (brand_key, removed_on_server, stage, ${REST}) WHERE snoozed_until IS NOT NULL`,
  `CREATE INDEX opportunities_staged ON opportunities (brand_key, removed_on_server, stage, ${REST}) WHERE stage IS NOT NULL`,
];

export const sql = '';

export function up(db: Database.Database): void {
  for (const statement of INDEXES) db.prepare(statement).run();
}

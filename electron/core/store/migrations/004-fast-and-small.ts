// Version 4: a cache that answers every list, count and search from indexes,
// and a third the size.
// - The triage fields the list filters by (local status, star) are mirrored on
//   the opportunity by triggers, so filters, totals and chip counts never join
//   the triage table row by row; one covering index serves totals and every
//   chip count.
// - The raw record is stored compressed (store/opportunity-codec.ts).
// - Full-text search keeps which column each word is in, not its position
//   (detail=column: a third of the size), with a two-letter prefix index so
//   search as you type stays fast on the first letters.
// The data is carried over by `up` in the same transaction; the file is then
// compacted once by the open (db.ts).
import type Database from 'better-sqlite3';
import { parseContacts } from '../../../../shared/contacts';
import { OPPORTUNITY_FIELDS } from '../../../../shared/opportunity-fields';
import { columnPlan, searchValues } from '../opportunity-columns';
import { packRecord } from '../opportunity-codec';

export const version = 4;

/** The full-text columns this version creates (a later version that changes them says so itself). */
const SEARCH_COLUMNS = ['title', 'domain', 'topics', 'pitch_subject', 'pitch_body', 'gap_analysis', 'brand_angle', 'author', 'contacts'] as const;

export const sql = /* sql */ `
-- The triage fields the list filters by, mirrored on the opportunity.
ALTER TABLE opportunities ADD COLUMN local_status TEXT;
ALTER TABLE opportunities ADD COLUMN starred INTEGER NOT NULL DEFAULT 0;
UPDATE opportunities SET local_status = t.status, starred = t.starred
  FROM triage t JOIN brand_keys b ON b.id = t.brand_id
  WHERE b.key = opportunities.brand_key AND t.opportunity_id = opportunities.id;

-- The mirror follows the user's triage (the triage table stays the record).
CREATE TRIGGER triage_mirror_insert AFTER INSERT ON triage BEGIN
  UPDATE opportunities SET local_status = NEW.status, starred = NEW.starred
    WHERE brand_key = (SELECT key FROM brand_keys WHERE id = NEW.brand_id) AND id = NEW.opportunity_id;
END;
CREATE TRIGGER triage_mirror_update AFTER UPDATE OF status, starred ON triage BEGIN
  UPDATE opportunities SET local_status = NEW.status, starred = NEW.starred
    WHERE brand_key = (SELECT key FROM brand_keys WHERE id = NEW.brand_id) AND id = NEW.opportunity_id;
END;
CREATE TRIGGER triage_mirror_delete AFTER DELETE ON triage BEGIN
  UPDATE opportunities SET local_status = NULL, starred = 0
    WHERE brand_key = (SELECT key FROM brand_keys WHERE id = OLD.brand_id) AND id = OLD.opportunity_id;
END;
-- (An opportunity synced after its triage was written, from a recovered or imported record, takes the
-- mirror from the sync's writer: a trigger on every insert would cost the sync a third of its speed.)

-- Totals and every chip count, under every filter but text search and the domain, from this index alone.
-- (The effective status is COALESCE(local_status, status): both are here.)
-- Each sort's index carries every column a filter tests (all but text
-- search): a page walks index entries only, and reads the table for its own
-- 200 rows. Archived is a filter here, not a key, so the
-- list with archived ones keeps the sort's order too.
DROP INDEX opportunities_by_priority;
DROP INDEX opportunities_by_fit;
DROP INDEX opportunities_by_last_seen;
DROP INDEX opportunities_by_title;
DROP INDEX opportunities_by_domain;
CREATE INDEX opportunities_by_priority ON opportunities (brand_key, removed_on_server, priority_score DESC,
  archived, local_status, status, opportunity_type, difficulty, starred, contact_count, catch_all_count, domain);
CREATE INDEX opportunities_by_fit ON opportunities (brand_key, removed_on_server, fit_score DESC,
  archived, local_status, status, opportunity_type, difficulty, starred, contact_count, catch_all_count, domain);
CREATE INDEX opportunities_by_last_seen ON opportunities (brand_key, removed_on_server, last_seen DESC,
  archived, local_status, status, opportunity_type, difficulty, starred, contact_count, catch_all_count, domain);
CREATE INDEX opportunities_by_title ON opportunities (brand_key, removed_on_server, title COLLATE NOCASE,
  archived, local_status, status, opportunity_type, difficulty, starred, contact_count, catch_all_count, domain);
CREATE INDEX opportunities_by_domain ON opportunities (brand_key, removed_on_server, domain COLLATE NOCASE,
  archived, local_status, status, opportunity_type, difficulty, starred, contact_count, catch_all_count);
CREATE INDEX opportunities_by_chip ON opportunities (brand_key, removed_on_server, archived, local_status, status, opportunity_type, difficulty,
  starred, contact_count, catch_all_count, domain);

-- The raw record, compressed.
CREATE TABLE opportunity_packed (
  rowid INTEGER PRIMARY KEY REFERENCES opportunities (rowid) ON DELETE CASCADE,
  packed BLOB NOT NULL
) STRICT;

DROP TABLE opportunity_search;
CREATE VIRTUAL TABLE opportunity_search USING fts5 (
  ${SEARCH_COLUMNS.join(', ')},
  content = '', contentless_delete = 1, detail = column, prefix = '2', tokenize = 'unicode61 remove_diacritics 2'
);
`;

/** Carry the records over, compressed, and index them again for search. */
export function up(db: Database.Database): void {
  const plan = columnPlan(OPPORTUNITY_FIELDS);
  const known = plan.search.filter((s) => (SEARCH_COLUMNS as readonly string[]).includes(s.column));
  const pack = db.prepare('INSERT INTO opportunity_packed (rowid, packed) VALUES (?, ?)');
  const index = db.prepare(`INSERT INTO opportunity_search (rowid, ${known.map((s) => s.column).join(', ')}) VALUES (?, ${known.map(() => '?').join(', ')})`);
  const next = db.prepare('SELECT rowid, raw FROM opportunity_records WHERE rowid > ? ORDER BY rowid LIMIT 2000').raw(true);
  // Read a batch, then write it: a statement may not write while another reads the same connection.
  let after = 0;
  for (;;) {
    const batch = next.all(after) as [number, string][];
    if (batch.length === 0) break;
    for (const [rowid, raw] of batch) {
      pack.run(rowid, packRecord(raw));
      const record = JSON.parse(raw) as Record<string, unknown>;
      const values = searchValues({ ...plan, search: known }, record, parseContacts(record.contact_emails));
      index.run(rowid, ...values);
    }
    after = batch[batch.length - 1]![0];
  }
  db.exec('DROP TABLE opportunity_records; ALTER TABLE opportunity_packed RENAME TO opportunity_records;');
}

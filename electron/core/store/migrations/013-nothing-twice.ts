// Version 13: nothing stored twice that one place already holds.
// - `history` is kept in the order of its unique key (brand, opportunity, time,
//   kind: WITHOUT ROWID), instead of a rowid table beside an index of the same
//   four columns: each event's ids were stored twice (4 MB at 35,000 events).
//   `id` stays, the order events reached this cache (the merge and the record
//   file follow it); `history_next` holds the next one, as the rowid did.
// - `contacts.raw` is NULL where the address was given as it is (two contacts
//   in three): `email` holds it. Readers take COALESCE(raw, email).
// The user's record is carried over whole, every event with its id. In the
// migration's transaction: a kill part-way leaves version 12 as it was. Each
// table is copied aside (temp), dropped and made again under its own name: an
// ALTER TABLE RENAME would re-read every trigger of the schema, and SQLite
// refuses the summary triggers' aliased UPDATEs there. The rows move in
// steps of their own (up), after the schema (sql).
import type Database from 'better-sqlite3';

export const version = 13;

export const sql = /* sql */ `
CREATE TEMP TABLE history_v12 AS SELECT * FROM history;
CREATE TEMP TABLE contacts_v12 AS SELECT * FROM contacts;
DROP TABLE history;
DROP TABLE contacts;
CREATE TABLE history (
  brand_id TEXT NOT NULL,
  opportunity_id TEXT NOT NULL,
  at TEXT NOT NULL,
  kind TEXT NOT NULL,
  id INTEGER NOT NULL,
  detail TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (brand_id, opportunity_id, at, kind)
) STRICT, WITHOUT ROWID;
CREATE TABLE history_next (n INTEGER NOT NULL) STRICT;
CREATE TABLE contacts (
  opportunity_rowid INTEGER NOT NULL REFERENCES opportunities (rowid) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  brand_key INTEGER NOT NULL,
  -- As the service wrote it, when that is not the address itself (else NULL: email holds it).
  raw TEXT,
  email TEXT NOT NULL,
  identity TEXT NOT NULL,
  domain TEXT NOT NULL,
  catch_all INTEGER NOT NULL,
  valid INTEGER NOT NULL,
  PRIMARY KEY (opportunity_rowid, position)
) STRICT, WITHOUT ROWID;
`;

/** The rows moved over, a table at a time; then the index and the trigger (after the rows: none of them is numbered again). */
export function up(db: Database.Database): void {
  for (const step of [
    `INSERT INTO history (brand_id, opportunity_id, at, kind, id, detail)
      SELECT brand_id, opportunity_id, at, kind, id, detail FROM temp.history_v12 ORDER BY brand_id, opportunity_id, at, kind`,
    'INSERT INTO history_next (n) SELECT COALESCE(max(id), 0) + 1 FROM temp.history_v12',
    `INSERT INTO contacts (opportunity_rowid, position, brand_key, raw, email, identity, domain, catch_all, valid)
      SELECT opportunity_rowid, position, brand_key, NULLIF(raw, email), email, identity, domain, catch_all, valid
      FROM temp.contacts_v12 ORDER BY opportunity_rowid, position`,
    'CREATE INDEX contacts_by_identity ON contacts (brand_key, identity, valid)',
    // Each event added takes the next id (an ignored duplicate takes none).
    `CREATE TRIGGER history_numbered AFTER INSERT ON history BEGIN
      UPDATE history_next SET n = max(n, NEW.id + 1);
    END`,
    'DROP TABLE temp.history_v12',
    'DROP TABLE temp.contacts_v12',
  ])
    db.exec(step);
}

// A cache taken back to version 12 as that version's code left it: `history`
// a rowid table beside its unique index, every contact's `raw` written out
// (version 13 changed nothing else). The two tables as the migrations that
// made them wrote them (001, 003; 006 gave contacts_by_identity its `valid`).
// For the tests of older versions' upgrades and of a conversion killed part-way.
import type Database from 'better-sqlite3';
import * as m001 from '../../electron/core/store/migrations/001-initial';
import * as m003 from '../../electron/core/store/migrations/003-user-record';
import * as m006 from '../../electron/core/store/migrations/006-pitched-covering';
import { backToVersion13 } from './version-13';

/** One statement of a migration's SQL, found by its start. */
const statement = (sql: string, start: string): string => {
  const at = sql.indexOf(start);
  if (at < 0) throw new Error(`no "${start}" in the migration`);
  return sql.slice(at, sql.indexOf(';', at) + 1);
};

export function backToVersion12(db: Database.Database): void {
  // Version 14's table gone first.
  if ((db.pragma('user_version', { simple: true }) as number) >= 14) backToVersion13(db);
  db.transaction(() => {
    db.exec(`CREATE TEMP TABLE history_v13 AS SELECT * FROM history;
      CREATE TEMP TABLE contacts_v13 AS SELECT * FROM contacts;
      DROP TABLE history;
      DROP TABLE history_next;
      DROP TABLE contacts;
      ${statement(m003.sql, 'CREATE TABLE history (')}
      INSERT INTO history (id, brand_id, opportunity_id, at, kind, detail)
        SELECT id, brand_id, opportunity_id, at, kind, detail FROM temp.history_v13 ORDER BY id;
      ${statement(m001.sql, 'CREATE TABLE contacts (')}
      INSERT INTO contacts SELECT opportunity_rowid, position, brand_key, COALESCE(raw, email), email, identity, domain, catch_all, valid FROM temp.contacts_v13;
      ${statement(m006.sql, 'CREATE INDEX contacts_by_identity')}
      DROP TABLE temp.history_v13;
      DROP TABLE temp.contacts_v13;`);
    db.pragma('user_version = 12');
  })();
}

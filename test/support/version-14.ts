// A cache taken back to version 14 as that version's code left it: no
// partial indexes of the sparse lists (version 15 added only those). For the
// tests of older versions' upgrades and of a conversion killed part-way.
import type Database from 'better-sqlite3';

export function backToVersion14(db: Database.Database): void {
  db.transaction(() => {
    db.exec(`DROP INDEX opportunities_starred;
      DROP INDEX opportunities_snoozed;
      DROP INDEX opportunities_staged;`);
    db.pragma('user_version = 14');
  })();
}

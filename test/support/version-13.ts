// A cache taken back to version 13 as that version's code left it: no
// outlets counted (version 14 added only `opportunity_outlets` and the
// triggers that keep it). For the tests of older versions' upgrades and of a
// conversion killed part-way.
import type Database from 'better-sqlite3';
import { backToVersion14 } from './version-14';

export function backToVersion13(db: Database.Database): void {
  if ((db.pragma('user_version', { simple: true }) as number) >= 15) backToVersion14(db);
  db.transaction(() => {
    db.exec(`DROP TRIGGER opportunities_outlet_counted;
      DROP TRIGGER opportunities_outlet_uncounted;
      DROP TRIGGER opportunities_outlet_recounted;
      DROP TABLE opportunity_outlets;`);
    db.pragma('user_version = 13');
  })();
}

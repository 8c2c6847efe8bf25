// A cache taken back to version 11 as that version's code left it: its
// records one by one (codec 1) in `opportunity_records`, no blocks (version 12
// changed nothing else). For the tests of older versions' upgrades and of a
// conversion killed part-way. Returns each record's JSON by rowid.
import type Database from 'better-sqlite3';
import { packRecord, RECORDS_PER_BLOCK, unpackBlock } from '../../electron/core/store/opportunity-codec';
import { backToVersion12 } from './version-12';

export function backToVersion11(db: Database.Database): Map<number, string> {
  // Version 13's tables as 12 kept them first.
  if ((db.pragma('user_version', { simple: true }) as number) >= 13) backToVersion12(db);
  const records = new Map<number, string>();
  for (const [block, packed] of db.prepare('SELECT block, packed FROM opportunity_blocks ORDER BY block').raw(true).all() as [number, Buffer][])
    unpackBlock(packed).forEach((json, slot) => json && records.set(block * RECORDS_PER_BLOCK + slot, json.toString('utf8')));
  db.transaction(() => {
    db.exec(`CREATE TABLE opportunity_records (rowid INTEGER PRIMARY KEY REFERENCES opportunities (rowid) ON DELETE CASCADE, packed BLOB NOT NULL) STRICT;
      DROP TABLE opportunity_blocks;`);
    const put = db.prepare('INSERT INTO opportunity_records (rowid, packed) VALUES (?, ?)');
    records.forEach((json, rowid) => put.run(rowid, packRecord(json)));
    db.pragma('user_version = 11');
  })();
  return records;
}

// Version 12: the raw records 32 to a block (store/opportunity-codec.ts, codec 2;
// store/opportunity-blocks.ts reads and writes them), in place of one compressed
// record a row: at 100,000 opportunities the records take a third of the
// room (34 MB against 108 MB), and reading them all (an export) inflates a
// block once for 32 records instead of once a record. Block b holds the
// records of rowids 32b to 32b + 31. The server's data only: the user's
// record is not touched. The conversion runs in the migration's transaction
// (a kill part-way leaves version 11 as it was, and the next open converts
// again); the open then compacts the file once, so the room comes back. A
// record that cannot be read is left for the next sync to write again.
import type Database from 'better-sqlite3';
import { blockOf, packBlock, RECORDS_PER_BLOCK, slotOf, unpackRecord } from '../opportunity-codec';

export const version = 12;

export const sql = /* sql */ `
CREATE TABLE opportunity_blocks (
  block INTEGER PRIMARY KEY,
  packed BLOB NOT NULL
) STRICT;
`;

/** Records read a block's worth at a time, packed, written; then the old table goes. */
export function up(db: Database.Database): void {
  // Packed one by one (version 4 on); a file whose records are still JSON text (as versions 1 to 3 kept them) is read as it is.
  const packedColumn = (db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('opportunity_records') as string[]).includes('packed');
  const read = db.prepare(`SELECT rowid, ${packedColumn ? 'packed' : 'raw'} FROM opportunity_records WHERE rowid >= ? ORDER BY rowid LIMIT 4096`).raw(true);
  const write = db.prepare('INSERT INTO opportunity_blocks (block, packed) VALUES (?, ?)');
  // A record this version cannot read (damaged, or a format it does not know) is not carried: its row is marked
  // changed, so the next sync writes it again from the service.
  const refetch = db.prepare("UPDATE opportunities SET raw_hash = '' WHERE rowid = ?");
  const readable = (stored: Uint8Array | string, rowid: number): string | null => {
    if (typeof stored === 'string') return stored;
    try {
      return unpackRecord(stored);
    } catch {
      refetch.run(rowid);
      return null;
    }
  };
  let from = 0;
  let block = -1;
  let slots: (string | null)[] = [];
  const flush = () => {
    if (block >= 0) write.run(block, packBlock(slots));
  };
  for (;;) {
    const rows = read.all(from) as [number, unknown][];
    if (rows.length === 0) break;
    for (const [rowid, stored] of rows as [number, Uint8Array | string][]) {
      if (blockOf(rowid) !== block) {
        flush();
        block = blockOf(rowid);
        slots = new Array<null>(RECORDS_PER_BLOCK).fill(null);
      }
      slots[slotOf(rowid)] = readable(stored, rowid);
    }
    from = rows[rows.length - 1]![0] + 1;
  }
  flush();
  db.exec('DROP TABLE opportunity_records');
}

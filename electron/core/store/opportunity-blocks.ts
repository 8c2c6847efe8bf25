// The raw records as Trakkr sent them, 32 to a block (store/opportunity-codec.ts,
// codec 2; version 12 on): the sync writes a page's records and rewrites
// only the blocks they fall in; a read keeps the blocks it has inflated, so
// rows read near their rowid order (an export in priority order, which is the
// order the service sends and the sync inserts) inflate each block once.
import type { Statement } from 'better-sqlite3';
import type { ReadableDB, WritableDB } from './database';
import { blockOf, packBlock, RECORDS_PER_BLOCK, slotOf, unpackBlock, type BlockSlots } from './opportunity-codec';
import { slot, sql } from './sql';

/** Blocks a reader keeps (about 90 KB of JSON each): enough for rows that come near, not quite in, rowid order. */
const KEPT_BLOCKS = 16;

/**
 * Records read by rowid, for one read (a detail, an export): the blocks it
 * inflated are kept for the next rows, so make a new reader for each read
 * (a block rewritten by a sync since is read again by the next one).
 */
export class BlockReader {
  private readonly kept = new Map<number, BlockSlots>();
  /** Blocks inflated so far (the rest were read from those kept). */
  inflated = 0;

  /** `keep`: blocks kept (a read in rowid order, an export's, needs one: a block kept long is memory held until a full collection). */
  constructor(
    private readonly db: Pick<ReadableDB, 'get'>,
    private readonly keep = KEPT_BLOCKS,
  ) {}

  /** The record's JSON as UTF-8 bytes (null: no record stored for this rowid). */
  bytes(rowid: number): Buffer | null {
    const block = blockOf(rowid);
    let slots = this.kept.get(block);
    if (!slots) {
      const packed = this.db.get<{ packed: Uint8Array }>(sql`SELECT packed FROM opportunity_blocks WHERE block = ${block}`)?.packed;
      if (!packed) return null;
      slots = unpackBlock(packed);
      this.inflated++;
      if (this.kept.size >= this.keep) this.kept.delete(this.kept.keys().next().value!);
      this.kept.set(block, slots);
    }
    return slots[slotOf(rowid)] ?? null;
  }

  /** The record's JSON text (null: none stored). */
  json(rowid: number): string | null {
    return this.bytes(rowid)?.toString('utf8') ?? null;
  }
}

/**
 * The sync's writes of records: put() each record of a page, then flush()
 * once (inside the page's transaction): each block the page touched is read,
 * its slots replaced, packed and written once.
 */
export class BlockWriter {
  private readonly read: Statement<unknown[], unknown>;
  private readonly write: Statement<unknown[], unknown>;
  private readonly pending = new Map<number, Map<number, string>>();

  constructor(db: WritableDB) {
    this.read = db.prepareOnce(sql`SELECT packed FROM opportunity_blocks WHERE block = ${slot}`).pluck();
    this.write = db.prepareOnce(
      sql`INSERT INTO opportunity_blocks (block, packed) VALUES (${slot}, ${slot}) ON CONFLICT (block) DO UPDATE SET packed = excluded.packed`,
    );
  }

  /** The record's JSON, to be written by the next flush(). */
  put(rowid: number, json: string): void {
    const block = blockOf(rowid);
    let slots = this.pending.get(block);
    if (!slots) this.pending.set(block, (slots = new Map()));
    slots.set(slotOf(rowid), json);
  }

  /** Write every block put() touched; returns how many. */
  flush(): number {
    let n = 0;
    for (const [block, changed] of this.pending) {
      const packed = this.read.get(block) as Uint8Array | undefined;
      const slots: (Buffer | string | null)[] = packed ? unpackBlock(packed) : new Array<null>(RECORDS_PER_BLOCK).fill(null);
      for (const [slot, json] of changed) slots[slot] = json;
      this.write.run(block, packBlock(slots));
      n++;
    }
    this.pending.clear();
    return n;
  }
}

// The raw records 32 to a block (version 12): packed and read back byte for
// byte, written by the sync page by page into blocks other pages share, read
// with each block inflated once for a run of rows, and carried over from
// version 11 (a record that cannot be read is left for the next sync).
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { migrate, openDatabase } from '../../../../electron/core/store/db';
import { faces } from '../../../../electron/core/store/database';
import { BlockReader, BlockWriter } from '../../../../electron/core/store/opportunity-blocks';
import { packBlock, packRecord, RECORDS_PER_BLOCK, unpackBlock } from '../../../../electron/core/store/opportunity-codec';

const record = (i: number) => JSON.stringify({ _id: `id${i}`, title: `Title ${i} — “quoted”, 🚀 ${'x'.repeat(i % 50)}`, n: i });

describe('a block of records', () => {
  it('keeps each slot byte for byte, an empty slot empty, and holds no more than 32', () => {
    const slots = Array.from({ length: RECORDS_PER_BLOCK }, (_, i) => (i % 5 === 3 ? null : record(i)));
    const back = unpackBlock(packBlock(slots));
    expect(back.map((b) => b?.toString('utf8') ?? null)).toEqual(slots);
    // Fewer slots given: the rest are empty.
    expect(unpackBlock(packBlock([record(1)])).map((b) => b?.toString('utf8') ?? null)).toEqual([record(1), ...Array(31).fill(null)]);
    expect(() => packBlock(Array(33).fill(record(0)))).toThrow(/32 records/);
    // A record packed one by one (codec 1) is not a block: refused in words.
    expect(() => unpackBlock(packRecord(record(0)))).toThrow(/format this version does not know \(codec 1\)/);
    // The kind the app's error vocabulary gives a newer app's cache, so the screen says to update, not "something went wrong".
    expect(() => unpackBlock(packRecord(record(0)))).toThrow(expect.objectContaining({ kind: 'cache-newer' }));
  });

  it('reads back byte for byte a block that inflates to more than its first output buffer (a block of text that compresses well), and one that fits it', () => {
    // 32 records of about 9 KB (not repetitive, so deflate cannot shrink them to nothing): near 300 KB inflated.
    let seed = 11;
    const noise = (n: number) => Array.from({ length: n }, () => String.fromCharCode(0x61 + ((seed = (seed * 1103515245 + 12345) % 2147483648) % 26))).join('');
    const large = Array.from({ length: RECORDS_PER_BLOCK }, (_, i) => JSON.stringify({ _id: `id${i}`, body: `${noise(9000)} “${i}” 🚀` }));
    expect(large.reduce((n, r) => n + Buffer.byteLength(r), 0)).toBeGreaterThan(2 * 128 * 1024);
    expect(unpackBlock(packBlock(large)).map((b) => b?.toString('utf8') ?? null)).toEqual(large);
    // Text that compresses far better than the records do (a hundred times): several output pieces, joined.
    const repetitive = Array.from({ length: RECORDS_PER_BLOCK }, (_, i) => JSON.stringify({ _id: `id${i}`, body: 'Hi [Name], '.repeat(2000) }));
    const packed = packBlock(repetitive);
    expect(repetitive.reduce((n, r) => n + Buffer.byteLength(r), 0)).toBeGreaterThan(50 * packed.length);
    expect(unpackBlock(packed).map((b) => b?.toString('utf8') ?? null)).toEqual(repetitive);
    const small = [record(7), null, record(9)];
    expect(unpackBlock(packBlock(small)).map((b) => b?.toString('utf8') ?? null)).toEqual([...small, ...Array(29).fill(null)]);
  });
});

describe('records written page by page and read back', () => {
  it('a page that ends inside a block leaves the next page to complete it; a rewrite keeps its neighbours; a run of rows inflates each block once', async () => {
    const db = await openDatabase(':memory:');
    const { readable, writable } = faces(db);
    const w = new BlockWriter(writable);
    // Rowids 1..70 in pages of 25: blocks 0 to 2, each page ending part-way through a block.
    for (let first = 1; first <= 70; first += 25) {
      db.transaction(() => {
        for (let r = first; r < Math.min(first + 25, 71); r++) w.put(r, record(r));
        w.flush();
      })();
    }
    expect(db.prepare('SELECT count(*) FROM opportunity_blocks').pluck().get()).toBe(3);
    // A record changed on the server: its block rewritten, the others in it as they were.
    db.transaction(() => {
      w.put(40, record(4000));
      w.flush();
    })();
    const reader = new BlockReader(readable);
    for (let r = 1; r <= 70; r++) expect(reader.json(r)).toBe(r === 40 ? record(4000) : record(r));
    expect(reader.json(0)).toBeNull();
    expect(reader.json(71)).toBeNull();
    expect(reader.json(1000)).toBeNull();
    expect(reader.inflated).toBe(3);
    db.close();
  });
});

describe('version 12 from version 11', () => {
  it('carries every record into its block; a record it cannot read is left out and its row marked for the next sync to write again', () => {
    const db = new Database(':memory:');
    migrate(db, 0, 11);
    db.prepare("INSERT INTO brand_keys (key, id) VALUES (1, 'b')").run();
    const row = db.prepare("INSERT INTO opportunities (rowid, brand_key, id, raw_hash, first_synced_at, changed_at) VALUES (?, 1, ?, 'h', 'now', 'now')");
    const put = db.prepare('INSERT INTO opportunity_records (rowid, packed) VALUES (?, ?)');
    for (const r of [1, 2, 31, 32, 33, 100]) {
      row.run(r, `id${r}`);
      put.run(r, r === 33 ? Buffer.from([9, 1, 2, 3]) : packRecord(record(r)));
    }
    migrate(db, 11);
    const { readable } = faces(db);
    const reader = new BlockReader(readable);
    for (const r of [1, 2, 31, 32, 100]) expect(reader.json(r)).toBe(record(r));
    expect(reader.json(33)).toBeNull();
    expect(db.prepare('SELECT rowid FROM opportunities WHERE raw_hash = ? ORDER BY rowid').pluck().all('')).toEqual([33]);
    expect(db.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'opportunity_records'").pluck().get()).toBe(0);
    db.close();
  });
});

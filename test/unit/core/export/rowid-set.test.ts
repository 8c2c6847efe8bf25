// The rowids an export wrote, as bits: each once, counted, and read back (the
// export date is marked on each, the record counts them) as a Set would.
import { describe, expect, it } from 'vitest';
import { RowidSet } from '../../../../electron/core/export/rowid-set';

describe('the rowids an export wrote', () => {
  it('holds each once, whatever the order and the repeats, as a Set does', () => {
    // A fixed pseudo-random walk: repeats, word edges, a rowid past the first bits' size (growth), 0.
    const rowids: number[] = [0, 31, 32, 33, 63, 64, 131_071, 131_072, 1_000_003, 32, 0];
    let x = 12345;
    for (let i = 0; i < 20_000; i++) {
      x = (x * 1103515245 + 12345) % 2 ** 31;
      rowids.push(x % 300_000);
    }
    const set = new RowidSet();
    for (const r of rowids) set.add(r);
    const expected = [...new Set(rowids)].sort((a, b) => a - b);
    expect(set.size).toBe(expected.length);
    expect([...set]).toEqual(expected);
  });

  it('keeps a rowid far beyond the rest apart, still once', () => {
    const set = new RowidSet();
    for (const r of [5, 2 ** 40, 7, 2 ** 40, 2 ** 26]) set.add(r);
    expect(set.size).toBe(4);
    expect([...set]).toEqual([5, 7, 2 ** 40, 2 ** 26]);
  });

  it('keeps the last rowid the bits hold (the largest growth) and the first beyond them, each once, in order', () => {
    const last = 2 ** 26 - 1;
    const set = new RowidSet();
    for (const r of [last, 3, last - 1, 2 ** 26, last, 2 ** 26, 3]) set.add(r);
    expect(set.size).toBe(4);
    expect([...set]).toEqual([3, last - 1, last, 2 ** 26]);
  });

  it('keeps a negative or fractional number (not a rowid the sync gives) once, apart, as a Set does', () => {
    const set = new RowidSet();
    for (const r of [-1, 4, -1, 1.5, -(2 ** 31), 1.5, 4, -0.5]) set.add(r);
    expect(set.size).toBe(5);
    expect([...set]).toEqual([4, -1, 1.5, -(2 ** 31), -0.5]);
  });
});

// Group by publication's rows placed from the outlet counts alone: a head per
// outlet, its rows after it unless collapsed, and the way back from a row to
// its head; the stage mix in the pipeline's order.
import { describe, expect, it } from 'vitest';
import { outletRows, slotAt, slotOfRow, outletOfRow, stageMix, type OutletHead } from '../../../renderer/src/lib/outlet-rows';

const outlets: OutletHead[] = [
  { domain: 'Alpha.example', total: 2, stages: { New: 2 } },
  { domain: 'beta.example', total: 3, stages: { New: 2, Contacted: 1 } },
  { domain: 'gamma.example', total: 1, stages: { Won: 1 } },
];

describe('outlet rows', () => {
  it('puts a head before each outlet and its rows after it', () => {
    const r = outletRows(outlets, 6, new Set())!;
    expect(r.length).toBe(9);
    expect(Array.from({ length: 9 }, (_, s) => slotAt(r, s))).toEqual([
      { head: 0 },
      { row: 0 },
      { row: 1 },
      { head: 1 },
      { row: 2 },
      { row: 3 },
      { row: 4 },
      { head: 2 },
      { row: 5 },
    ]);
    expect([0, 1, 2, 3, 4, 5].map((i) => slotOfRow(r, i))).toEqual([1, 2, 4, 5, 6, 8]);
    expect([0, 1, 2, 3, 4, 5].map((i) => outletOfRow(r, i))).toEqual([0, 0, 1, 1, 1, 2]);
  });

  it('a collapsed outlet (any case) keeps its head only; its rows are at the head', () => {
    const r = outletRows(outlets, 6, new Set(['alpha.example']))!;
    expect(r.length).toBe(7);
    expect(slotAt(r, 1)).toEqual({ head: 1 });
    expect(slotAt(r, 2)).toEqual({ row: 2 });
    expect(slotOfRow(r, 1)).toBe(0);
    expect(slotOfRow(r, 5)).toBe(6);
  });

  it('no heads while the counts do not cover the list', () => {
    expect(outletRows(outlets, 7, new Set())).toBeNull();
    expect(outletRows([], 0, new Set())).toBeNull();
  });

  it('says the stage mix in the order of the pipeline', () => {
    expect(stageMix(outlets[1]!)).toBe('2 New, 1 Contacted');
  });
});

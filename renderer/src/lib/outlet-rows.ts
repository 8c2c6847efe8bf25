// Group by publication's rows: a head per outlet, then its opportunities
// (none while it is collapsed), placed from the core's outlet counts alone, so
// the list stays virtualised and a head is where it belongs before the rows
// around it are loaded. A position on screen ("slot") is a head or a row of
// the list (its index in the core's order).
import type { ContractResults } from '../../../shared/contract';
import { STAGES } from '../../../shared/pipeline';

export type OutletHead = ContractResults['opportunities:outlets'][number];
export type Slot = { head: number } | { row: number };

export interface OutletRows {
  readonly outlets: readonly OutletHead[];
  /** Each outlet's head: its slot, its first row's index, whether it is collapsed. */
  readonly headSlot: readonly number[];
  readonly firstRow: readonly number[];
  readonly collapsed: readonly boolean[];
  /** How many slots in all. */
  readonly length: number;
}

/** An outlet's key: its domain, any case. */
export const outletKey = (domain: string | null | undefined): string => (domain ?? '').toLowerCase();

/** The slots, or null when the counts do not cover the list (not counted yet, or counted for another list). */
export function outletRows(outlets: readonly OutletHead[], total: number, collapsed: ReadonlySet<string>): OutletRows | null {
  if (outlets.length === 0 || outlets.reduce((n, o) => n + o.total, 0) !== total) return null;
  const headSlot: number[] = [];
  const firstRow: number[] = [];
  const shut: boolean[] = [];
  let slot = 0;
  let row = 0;
  for (const o of outlets) {
    const c = collapsed.has(outletKey(o.domain));
    headSlot.push(slot);
    firstRow.push(row);
    shut.push(c);
    slot += 1 + (c ? 0 : o.total);
    row += o.total;
  }
  return { outlets, headSlot, firstRow, collapsed: shut, length: slot };
}

/** The last index in a sorted array at or below `x`. */
function floor(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (sorted[mid]! <= x) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** What is at a slot. */
export function slotAt(r: OutletRows, slot: number): Slot {
  const k = floor(r.headSlot, slot);
  const off = slot - r.headSlot[k]!;
  return off === 0 ? { head: k } : { row: r.firstRow[k]! + off - 1 };
}

/** The outlet a row of the list belongs to. */
export const outletOfRow = (r: OutletRows, row: number): number => floor(r.firstRow, row);

/** The slot of a row (its outlet's head while the outlet is collapsed). */
export function slotOfRow(r: OutletRows, row: number): number {
  const k = outletOfRow(r, row);
  return r.collapsed[k] ? r.headSlot[k]! : r.headSlot[k]! + 1 + row - r.firstRow[k]!;
}

/** "1 Contacted, 2 New": the outlet's stages, in the pipeline's order. */
export function stageMix(o: OutletHead): string {
  return STAGES.filter((s) => (o.stages[s] ?? 0) > 0)
    .map((s) => `${o.stages[s]} ${s}`)
    .join(', ');
}

// Jumps to a point of a list (the scroll bar dragged, a page asked by its
// offset) without walking every row before that point each time: the
// cursor (sort value, rowid) of every STEP-th row of a list, kept per list
// (its filter and sort) while the cache is unchanged, and reused by every
// later jump into that stretch. A jump then starts after the nearest kept
// cursor and skips fewer than STEP rows. The cursors are noted from the pages
// read in a row from the list's start (scrolling walks the list anyway), and
// the rest, as far as a jump asks, gathered by one walk of the sort's index
// (sort value and rowid alone), or, for a sparse list (starred, snoozed, a
// stage: migration 15) where that is cheaper, of the list's own rows read
// from their partial index and sorted. They are memory of this connection
// only: a read never writes.
import type { After } from './opportunity-filter';

/** A cursor is kept for every STEP-th row of a list. */
export const STEP = 200;
/** A list's row read from its partial index and sorted costs about this many index entries walked (300,000: 6,000 starred rows read and sorted in 3-7 ms, 100,000 entries of the sort's index walked in 15-25 ms). */
const SORTED = 4;
/** How many lists keep their cursors (the ones jumped in last). */
const KEPT = 128;

/**
 * What is kept of one list: `cursors[k]` is the cursor of its row at
 * position (k + 1) * STEP - 1 (a run from the list's start), and `total`
 * its length once a read reached its end (null: not yet).
 */
export interface Jumps {
  cursors: After[];
  total: number | null;
}

const kept = new WeakMap<object, { version: string; lists: Map<string, Jumps> }>();

/** What is kept of the list `key` on the connection `owner` with the cache at `version` (any change of the cache forgets every list's). */
export function jumpCursors(owner: object, version: string, key: string): Jumps {
  let c = kept.get(owner);
  if (!c || c.version !== version) {
    c = { version, lists: new Map() };
    kept.set(owner, c);
  }
  let list = c.lists.get(key);
  if (list) c.lists.delete(key);
  else list = { cursors: [], total: null };
  c.lists.set(key, list);
  if (c.lists.size > KEPT) c.lists.delete(c.lists.keys().next().value!);
  return list;
}

/** A row as read: its rowid and sort value first (then, on a page, the rest of its columns). */
type Row = readonly [number, string | number | null, ...unknown[]];

/**
 * Keeps what the rows `rows` tell, read in the list's order from the
 * position `at` (the list's start: 0), `asked` of them: the cursors of those
 * on a step that follow the ones kept (so the kept ones stay a run from the
 * list's start), and the list's length when fewer came than were asked.
 */
function keep(j: Jumps, at: number, rows: readonly Row[], asked: number): void {
  for (let i = (j.cursors.length + 1) * STEP - 1 - at; i >= 0 && i < rows.length; i += STEP) j.cursors.push({ value: rows[i]![1], rowid: rows[i]![0] });
  if (rows.length < asked) j.total = at + rows.length;
}

/**
 * A page of `asked` rows read in the list's order after the row `after`
 * (null: from the list's start): when that row is a kept cursor, what the
 * page's rows tell is kept too, so scrolling down a list gathers the cursors
 * as it goes (and its length, at its end).
 */
export function keepPage(j: Jumps, after: After | null, rows: readonly Row[], asked: number): void {
  if (after === null) return keep(j, 0, rows, asked);
  // Most often the last kept one (the page after the last one read).
  for (let k = j.cursors.length - 1; k >= 0; k--)
    if (j.cursors[k]!.rowid === after.rowid && j.cursors[k]!.value === after.value) return keep(j, (k + 1) * STEP, rows, asked);
}

/** A row a walk gives: its rowid, sort value and place among the rows walked (the first is 1). */
export type Walked = readonly [number, string | number | null, number];

/**
 * Keeps what a walk from the position `at` (a kept cursor's place plus one: a multiple of STEP), asked for `asked`
 * rows, tells: the cursor of every STEP-th row, and the list's length when the last row came before the asked ones.
 */
function keepWalked(j: Jumps, at: number, walked: readonly Walked[], asked: number): void {
  for (const [rowid, value, k] of walked) if (k % STEP === 0 && at + k === (j.cursors.length + 1) * STEP) j.cursors.push({ value, rowid });
  const last = walked[walked.length - 1];
  if ((last?.[2] ?? 0) < asked) j.total = at + (last?.[2] ?? 0);
}

/** How a jump reads its list (opportunity-list.ts). */
export interface JumpReader<R> {
  /** The list's total when it costs next to nothing (null: counting it would walk the list). */
  total(): number | null;
  /** A sparse list: kept to rows a partial index holds (migration 15), which a walk may read alone and sort. */
  sparse: boolean;
  /** How many index entries the sort's index holds for the list's brand (a walk passes this many per list row, over the list's total). */
  walked(): number;
  /** `limit` rows before the last `skip` ones (the sort's index walked backwards). */
  fromEnd(limit: number, skip: number): R[];
  /** `limit` rows from `skip` rows after the cursor `after` (null: the list's start). */
  rows(after: After | null, skip: number, limit: number): R[];
  /**
   * Of the `limit` rows after `after` (null: from the list's start), in order, only every STEP-th one and the last:
   * each as its rowid, sort value and place among them (from 1). Never every row: at 300,000 a jump near the end would
   * hold them all in memory to keep one in STEP. `sparse`: the list's rows read from its partial index and sorted,
   * instead of the sort's index walked.
   */
  walk(after: After | null, limit: number, sparse: boolean): Walked[];
}

/**
 * The rows of a jump to `offset`, the same as `LIMIT … OFFSET` from the
 * list's start, read from where fewer rows lie before them: the list's end,
 * when its total is known (from any summary the list is counted from, the
 * opportunities', the outlets', the due or pitched set's, or a length kept
 * once a read reached it) and the end is less than half as far as the
 * nearest kept cursor; else that cursor, the cursors missing up to the offset
 * first gathered in one walk from the last one kept (its every STEP-th row only: of
 * the sort's index, or of a sparse list's own rows sorted, whichever costs less).
 */
export function jumpRows<R extends Row>(j: Jumps, limit: number, offset: number, read: JumpReader<R>): R[] {
  const total = j.total ?? read.total();
  const wanted = Math.floor(offset / STEP);
  if (total !== null) {
    const n = Math.min(limit, total - offset);
    if (n <= 0) return [];
    // Walked forwards, the rows before the offset give cursors every later jump there starts from; read from the
    // end, they give none (so the end is taken when it is much nearer).
    if (2 * (total - offset - n) < offset - Math.min(wanted, j.cursors.length) * STEP) return read.fromEnd(n, total - offset - n);
  }
  if (j.cursors.length < wanted) {
    const from = j.cursors.length * STEP;
    // A sparse list: the sort's index walked passes (its rows / the list's) entries for each row of the list; the
    // list's own rows after the cursor, read from its partial index and sorted, cost about SORTED each. The cheaper.
    const sparse = read.sparse && total !== null && total > 0 && (offset - from) * read.walked() > SORTED * total * total;
    keepWalked(j, from, read.walk(j.cursors[j.cursors.length - 1] ?? null, offset - from, sparse), offset - from);
  }
  const k = Math.min(wanted, j.cursors.length);
  const rows = j.total !== null && offset >= j.total ? [] : read.rows(k === 0 ? null : j.cursors[k - 1]!, offset - k * STEP, limit);
  // (No row: the list may end before the offset, its length is not told.)
  if (rows.length > 0) keep(j, offset, rows, limit);
  return rows;
}

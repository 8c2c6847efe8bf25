// Jumps to a point of a list (the scroll bar dragged, a page asked by its
// offset) without walking every row before that point each time: the
// cursor (sort value, rowid) of every STEP-th row of a list, kept per list
// (its filter and sort) while the cache is unchanged, gathered as far as a
// jump asks and reused by every later jump into that stretch. A jump then
// starts after the nearest kept cursor and skips fewer than STEP rows. The
// cursors are memory of this connection only: a read never writes.
import type { After } from './opportunity-filter';

/** A cursor is kept for every STEP-th row of a list. */
export const STEP = 200;
/** How many lists keep their cursors (the ones jumped in last). */
const KEPT = 128;

const kept = new WeakMap<object, { version: string; lists: Map<string, After[]> }>();

/**
 * The kept cursors of the list `key` on the connection `owner` with the cache
 * at `version` (any change of the cache forgets every list's): `list[k]` is
 * the cursor of the list's row at position (k + 1) * STEP - 1.
 */
export function jumpCursors(owner: object, version: string, key: string): After[] {
  let c = kept.get(owner);
  if (!c || c.version !== version) {
    c = { version, lists: new Map() };
    kept.set(owner, c);
  }
  let list = c.lists.get(key);
  if (list) c.lists.delete(key);
  else list = [];
  c.lists.set(key, list);
  if (c.lists.size > KEPT) c.lists.delete(c.lists.keys().next().value!);
  return list;
}

/**
 * Where a jump to `offset` starts: after the cursor of a row before it (null:
 * the list's start), skipping `skip` rows. The kept cursors are first
 * gathered up to the offset, each `cursorAt` the row `skip` rows after the
 * one before (null: the list ends first), so the rows before the offset are
 * walked once per list, not once per jump.
 */
function jumpStart(cursors: After[], offset: number, cursorAt: (from: After | null, skip: number) => After | null): { after: After | null; skip: number } {
  const wanted = Math.floor(offset / STEP);
  while (cursors.length < wanted) {
    const next = cursorAt(cursors[cursors.length - 1] ?? null, STEP - 1);
    if (!next) break;
    cursors.push(next);
  }
  const k = Math.min(wanted, cursors.length);
  return k === 0 ? { after: null, skip: offset } : { after: cursors[k - 1]!, skip: offset - k * STEP };
}

/** How a jump reads its list (opportunity-list.ts): rows are `{ _rowid, _sort }` and more. */
export interface JumpReader<R> {
  /** The list's total when it costs next to nothing (null: counting it would walk the list). */
  total(): number | null;
  /** `limit` rows before the last `skip` ones (the sort's index walked backwards). */
  fromEnd(limit: number, skip: number): R[];
  /** `limit` rows from `skip` rows after the cursor `after` (null: the list's start); `cursorOnly`: each row's cursor alone. */
  rows(after: After | null, skip: number, limit: number, cursorOnly?: boolean): R[];
}

/**
 * The rows of a jump to `offset`, the same as `LIMIT … OFFSET` from the
 * list's start: when the total costs nothing and the offset is in the list's
 * second half, read from the end; else after the nearest kept cursor.
 */
export function jumpRows<R extends { _rowid: number; _sort: string | number | null }>(
  cursors: After[],
  limit: number,
  offset: number,
  read: JumpReader<R>,
): R[] {
  const total = read.total();
  if (total !== null && offset * 2 > total) {
    const n = Math.min(limit, total - offset);
    return n <= 0 ? [] : read.fromEnd(n, total - offset - n);
  }
  const start = jumpStart(cursors, offset, (from, skip) => {
    const r = read.rows(from, skip, 1, true)[0];
    return r ? { value: r._sort, rowid: r._rowid } : null;
  });
  return read.rows(start.after, start.skip, limit);
}

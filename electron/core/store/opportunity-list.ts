// The list: one explicit step that prepares a filter (prepareList: the brand's
// pitched addresses, a search's matches and their rank, into this connection's
// temporary tables), then reads that only read: a page (after a row, or at
// an offset), the total, the chip counts, and the counts per outlet.
import { STAGES } from '../../../shared/pipeline';
import { STATUSES } from '../../../shared/domain';
import type { ListFilter, ListItem, ListSort } from '../../../shared/model';
import { addDays } from '../../../shared/calendar';
import { PIPELINE_DEFAULTS } from '../../../shared/pipeline';
import type { ReadableDB, WritableDB } from './database';
import { itemsOf, prepareBrand, rowFlags, type BrandReady } from './list-items';
import { filterSql, ftsQuery, keysetAfter, orderBy, SORTS, type After, type PipelineDays } from './opportunity-filter';
import { sql, sqlJoin, type Sql } from './sql';

export type { After, PipelineDays } from './opportunity-filter';

/** A search with fewer matches than this starts from them; one with more walks the sort's index. */
const FEW_MATCHES = 2000;

/** Today on this computer's calendar, YYYY-MM-DD. */
export const localToday = (now = new Date()): string =>
  `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;

/** The pipeline's days for `today`, with follow-ups due `followUpAfterDays` after contact. */
export const pipelineDays = (today: string = localToday(), followUpAfterDays: number = PIPELINE_DEFAULTS.followUpAfterDays): PipelineDays => ({
  today,
  dueOnOrBefore: addDays(today, -followUpAfterDays),
});

declare const PREPARED: unique symbol;
/** A filter whose derived tables are ready: what every list read takes (only prepareList makes one). */
export interface ListQuery {
  readonly [PREPARED]: true;
  readonly filter: ListFilter;
  /** The sort in effect (Best match without a search is the priority order). */
  readonly sort: ListSort;
  readonly brand: BrandReady;
  /** FROM (with the triage) and WHERE of the list and its total. */
  readonly from: Sql;
  readonly where: Sql;
  /** WHERE for the chip counts: the filter without the status, type and difficulty the chips choose. */
  readonly chipWhere: Sql;
}

/**
 * The explicit step before reading a list: the brand's pitched addresses,
 * the "already pitched" set when the filter asks for it, and a search's
 * matches (with their rank for Best match) into temporary tables, each only
 * when the cache changed since. With few matches (under 2,000) they drive
 * the query; with many the sort's index does, testing each row against them,
 * so a page stops at its 200th row.
 */
export function prepareList(db: WritableDB, f: ListFilter, days: PipelineDays = pipelineDays()): ListQuery {
  const brand = prepareBrand(db, f.brandId);
  if (f.alreadyPitched !== undefined) db.derived.pitchedRowids(f.brandId, brand.bk);
  const q = f.search === undefined ? null : ftsQuery(f.search);
  const sort: ListSort = f.sort === 'relevance' && !q ? 'priority' : (f.sort ?? 'priority');
  let w = filterSql(f, brand.bk, days);
  let chip = filterSql({ ...f, status: undefined, type: undefined, difficulty: undefined }, brand.bk, days);
  if (q) {
    const hits = db.derived.searchHits(q, sort === 'relevance');
    const plan = hits.size < FEW_MATCHES ? 'drive' : 'probe';
    w = filterSql(f, brand.bk, days, plan, hits.table);
    chip = filterSql({ ...f, status: undefined, type: undefined, difficulty: undefined }, brand.bk, days, plan, hits.table);
  }
  return { filter: { ...f, sort }, sort, brand, from: w.from, where: w.where, chipWhere: chip.where } as ListQuery;
}

/** A page of the list, and where the next one starts (null at the end). */
export interface ListPage {
  items: ListItem[];
  next: After | null;
}

/**
 * A page's SQL. Its rowids are picked from the opportunities alone, in the
 * sort's index order: after a row (keyset, what scrolling asks) or at an
 * offset (a jump). Only the page's rows are then read whole, with the triage
 * and the flags that need their own lookups.
 */
export function listSql(db: ReadableDB, q: ListQuery, page: { limit: number; offset: number; after?: After }): Sql {
  const order = orderBy(q.sort);
  const pick = (extra: Sql | null, offset: number) =>
    sql`SELECT o.rowid FROM opportunities o WHERE ${q.where}${extra ? sql` AND ${extra}` : sql``} ORDER BY ${order} LIMIT ${page.limit}${offset ? sql` OFFSET ${offset}` : sql``}`;
  let rowids: Sql;
  if (!page.after) rowids = pick(null, page.offset);
  else {
    const k = keysetAfter(q.sort, page.after);
    const arms = [k.rest, k.empties].filter((x): x is Sql => x !== null).map((c) => sql`SELECT rowid FROM (${pick(c, 0)})`);
    // No arm: a row past the end (a cursor with no value on a sort that has none empty).
    rowids = arms.length === 0 ? sql`SELECT NULL WHERE 0` : arms.length === 1 ? arms[0]! : sql`${sqlJoin(arms, sql` UNION ALL `)} LIMIT ${page.limit}`;
  }
  return sql`SELECT o.rowid AS _rowid, ${SORTS[q.sort].key} AS _sort, ${itemsOf(db.fields).columns}, ${rowFlags(sql`o.rowid`)}
    FROM ${q.from} WHERE o.rowid IN (${rowids}) ORDER BY ${order}`;
}

/** A page of the list: after a row (keyset) or at an offset (a jump), at most 5,000 rows. */
export function listPage(db: ReadableDB, q: ListQuery, page: { limit?: number; offset?: number; after?: After } = {}): ListPage {
  const limit = Math.max(1, Math.min(page.limit ?? 200, 5000));
  const offset = Math.max(0, page.offset ?? 0);
  const map = itemsOf(db.fields).map;
  const rows = db.all<Record<string, unknown> & { _rowid: number; _sort: string | number | null }>(listSql(db, q, { limit, offset, after: page.after }));
  const last = rows[rows.length - 1];
  return { items: rows.map(map), next: rows.length === limit && last ? { value: last._sort, rowid: last._rowid } : null };
}

export function countSql(q: ListQuery): Sql {
  return sql`SELECT count(*) AS n FROM opportunities o WHERE ${q.where}`;
}

/** How many the list holds (every match: no cap). */
export function listTotal(db: ReadableDB, q: ListQuery): number {
  return db.get<{ n: number }>(countSql(q))!.n;
}

/**
 * Grouped by the chip index's own columns: one pass over it, no sort. Named,
 * not left to the planner: every sort's index also covers these columns, and
 * one of them walked in its own order would need a sort for the grouping.
 */
export function countsSql(q: ListQuery): Sql {
  return sql`SELECT o.status, o.opportunity_type AS type, o.difficulty AS difficulty, o.stage, count(*) AS n
    FROM opportunities o INDEXED BY opportunities_by_chip WHERE ${q.chipWhere} GROUP BY 1, 2, 3, 4`;
}

/** The counts on the filter chips: each one how many the list would hold with it chosen, the other filters as they are. */
export interface ChipCounts {
  /** Trakkr's status. */
  status: Record<string, number>;
  type: Record<string, number>;
  difficulty: Record<string, number>;
  /** The user's stage. */
  stage: Record<string, number>;
  /** All of them: the list without a status, type or difficulty chosen. */
  total: number;
}

/**
 * The chip counts and, from the same rows, the list's total: the rows are
 * grouped by the three columns the chips leave out of the filter, so
 * applying those three here gives the total without a second pass.
 */
export function chipCountsAndTotal(db: ReadableDB, q: ListQuery): { counts: ChipCounts; total: number } {
  const f = q.filter;
  const rows = db.all<{ status: string | null; type: string | null; difficulty: string | null; stage: string | null; n: number }>(countsSql(q));
  const counts: ChipCounts = {
    status: Object.fromEntries(STATUSES.map((s) => [s, 0])),
    type: {},
    difficulty: {},
    stage: Object.fromEntries(STAGES.map((s) => [s, 0])),
    total: 0,
  };
  let total = 0;
  for (const r of rows) {
    counts.total += r.n;
    const s = r.status ?? 'New';
    counts.status[s] = (counts.status[s] ?? 0) + r.n;
    if (r.type) counts.type[r.type] = (counts.type[r.type] ?? 0) + r.n;
    if (r.difficulty) counts.difficulty[r.difficulty] = (counts.difficulty[r.difficulty] ?? 0) + r.n;
    const stage = r.stage ?? 'New';
    counts.stage[stage] = (counts.stage[stage] ?? 0) + r.n;
    if (
      (f.status === undefined || r.status === f.status) &&
      (f.type === undefined || r.type === f.type) &&
      (f.difficulty === undefined || r.difficulty === f.difficulty)
    )
      total += r.n;
  }
  return { counts, total };
}

/** How many of the filtered list each outlet (domain) has: the heads of the list grouped by publication. */
export function outletCountsSql(q: ListQuery): Sql {
  return sql`SELECT min(o.domain), count(*) FROM opportunities o WHERE ${q.where} GROUP BY o.domain COLLATE NOCASE`;
}

export function outletCounts(db: ReadableDB, q: ListQuery): Record<string, number> {
  const rows = db.tuples<[string, number]>(outletCountsSql(q));
  return Object.fromEntries(rows.map(([d, n]) => [d.toLowerCase(), n]));
}

/** Of these opportunities, the ones the list (as prepared) no longer holds: a key's answer says which rows leave it (a condition on an empty value counts as not held). */
export function leavingList(db: ReadableDB, q: ListQuery, ids: readonly string[]): string[] {
  if (ids.length === 0) return [];
  return db
    .tuples<[string]>(
      sql`SELECT o.id FROM opportunities o WHERE o.brand_key = ${q.brand.bk} AND o.id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))
        AND (${q.where}) IS NOT 1`,
    )
    .map(([id]) => id);
}

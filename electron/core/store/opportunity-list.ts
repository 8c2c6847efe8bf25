// The list: one explicit step that prepares a filter (prepareList: the brand's
// pitched addresses, a search's matches and their rank, into this connection's
// temporary tables), then reads that only read: a page (after a row, or at
// an offset); the total, the chip counts and the counts per outlet are
// list-counts.ts's (exported from here too, as the list's reads).
import type { ListFilter, ListItem, ListSort } from '../../../shared/model';
import { addDays, localDay } from '../../../shared/calendar';
import { PIPELINE_DEFAULTS } from '../../../shared/pipeline';
import type { ReadableDB, WritableDB } from './database';
import { flagSources, itemsOf, prepareBrand, rowFlags, type BrandReady, type FlagSources } from './list-items';
import { filterSql, ftsQuery, keysetAfter, orderBy, orderFromEnd, SORTS, type After, type PipelineDays } from './opportunity-filter';
import { ftsTerms } from './search-rank';
import { listTotal, prepareCounts, type CountedFrom, type SetCounts } from './list-counts';
import { jumpCursors, jumpRows, keepPage, STEP, type Jumps } from './list-jump';
import { densityOf, matchesOf, rowMatches } from './search-walk';
import { identifier, sql, sqlJoin, type Sql } from './sql';

export {
  chipCountsAndTotal,
  countSql,
  countsSql,
  listTotal,
  outletCounts,
  outletCountsSql,
  SEARCH_TOTAL_CAP,
  shownTotal,
  type ChipCounts,
  type CountedFrom,
} from './list-counts';

export type { After, PipelineDays } from './opportunity-filter';

/** A search with fewer matches than this starts from them; one with more walks the sort's index. */
const FEW_MATCHES = 2000;
/** A search matching this share of the cache or more finds a page by testing the sort's next rows one by one. */
const DENSE = 0.3;

/** Today on this computer's calendar, YYYY-MM-DD. */
export const localToday = (now = new Date()): string => localDay(now);

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
  /** Where the total and chip counts are read from. */
  readonly counted: CountedFrom;
  /** Counted from a set's summary (`due`, `pitched`): the filter without the set, for that summary's groups. */
  readonly sets: SetCounts | null;
  /** The full-text query of a search (null without one). */
  readonly fts: string | null;
  /** How a search's page meets its matches: `drive` (few: the page starts from them), `probe` (many: walk the sort's index), null without one. */
  readonly plan: 'drive' | 'probe' | null;
  /** The search in words the index holds whole (DerivedTables.exactTerms: the same matches, each word read only as far as asked); null when it cannot be written so, or for Best match. */
  readonly probeFts: string | null;
  /** So many matches (a share DENSE of the cache or more; of `restFts`'s with `heads`) that a page tests the sort's next rows one by one against `probeFts`. */
  readonly dense: boolean;
  /**
   * A search whose last word is one letter just begun (DerivedTables.headsApart): its alternatives, tested one by one
   * against a row (the first that holds ends the test), and the other words (`restFts`, null when there are none).
   * A page walks the sort's rows that match `restFts` (tested one by one when dense, else as a set) and tests the heads.
   */
  readonly heads: readonly string[] | null;
  readonly restFts: string | null;
  /** With a search: the list's and the chips' WHERE without the words, for queries that join the matches themselves. */
  readonly joinedWhere: Sql | null;
  readonly joinedChipWhere: Sql | null;
  /** Without a search, the list's kept jump cursors (list-jump.ts); and which flags a page looks up (none from a list empty now). */
  readonly jumps: Jumps | null;
  /** A list kept to starred, snoozed or staged rows (no search): the partial index holding just those (migration 15), for a deep jump. */
  readonly sparse: Sql | null;
  readonly flags: FlagSources;
}

/** The partial indexes of migration 15, each holding only the rows a sparse list can keep (every other row is out of it). */
const SPARSE = ['opportunities_staged', 'opportunities_starred', 'opportunities_snoozed'];
/** Which of them holds every row of the list `f` (a stage other than New, the follow-ups due: Contacted; starred; snoozed), or null. */
const sparseIndex = (f: ListFilter): Sql | null => {
  const name = (f.stage !== undefined && f.stage !== 'New') || f.view === 'due' ? 0 : f.starred ? 1 : f.view === 'snoozed' ? 2 : null;
  return name === null ? null : identifier(SPARSE[name]!, SPARSE);
};

/**
 * The explicit step before reading a list: the brand's pitched addresses,
 * the "already pitched" set when the filter asks for it, and for Best match
 * a search's matches with their rank into temporary tables, each only when
 * the cache changed since. Any other search is read from the full-text
 * index within each query, never copied: with few matches (under 2,000,
 * counted up to that) they drive the page; with many the sort's index does,
 * testing each row against them, so a page stops at its 200th row.
 */
export function prepareList(db: WritableDB, f: ListFilter, days: PipelineDays = pipelineDays()): ListQuery {
  const brand = prepareBrand(db, f.brandId);
  if (f.alreadyPitched !== undefined) db.derived.pitchedRowids(f.brandId, brand.bk);
  // The follow-ups due: their rowids worked out once (temp.due_rowids), each page then tests that set.
  if (f.view === 'due') db.derived.dueRowids(f.brandId, brand.bk, days);
  const due = f.view === 'due' ? { dueFrom: 'set' as const } : {};
  const q = f.search === undefined ? null : ftsQuery(f.search);
  const sort: ListSort = f.sort === 'relevance' && !q ? 'priority' : (f.sort ?? 'priority');
  const chipFilter = { ...f, status: undefined, type: undefined, difficulty: undefined };
  let w = filterSql(f, brand.bk, days, 'probe', null, due);
  let chip = filterSql(chipFilter, brand.bk, days, 'probe', null, due);
  // Without a search: from the summary, a set's summary, or the index (list-counts.ts).
  const counts = q ? { counted: 'index' as CountedFrom, sets: null } : prepareCounts(db, f, brand.bk, days);
  let counted = counts.counted;
  let joined: { where: Sql; chip: Sql } | null = null;
  let plan: 'drive' | 'probe' | null = null;
  let probeFts: string | null = null;
  let dense = false;
  let apart: { rest: string | null; heads: string[] } | null = null;
  if (q) {
    let hits: Sql | null = null;
    if (sort === 'relevance') {
      const h = db.derived.searchHits(q, true);
      plan = h.size < FEW_MATCHES ? 'drive' : 'probe';
      hits = h.table;
    } else {
      // Counted up to what tells the plans apart: few (drive), many, or so many (a share DENSE of the cache or
      // more) that the sort's next rows tested one by one fill a page sooner than the set of the matches is read.
      // (Counted in whole words where it can be: a long prefix is merged whole before its first match, whole words are read as far as asked.)
      probeFts = db.derived.exactTerms(q);
      // A one-letter word (the next word just begun) matches any word it begins: merging them all is the dearest part
      // of the search, so it is not counted first (the page and the total merge them once each), and the page walks the sort.
      if (probeFts === null && ftsTerms(q).some((t) => [...t.slice(1, -2)].length === 1)) plan = 'probe';
      else {
        // A word of one letter just begun, written out as the two-letter prefixes it stands for: counted by the other words.
        apart = probeFts === null ? null : db.derived.headsApart(q);
        // Counted up to FEW_MATCHES, and where they end (the index keeps them in rowid order): how dense they are.
        const m = db.get<{ n: number; r: number | null }>(
          sql`SELECT count(*) AS n, max(rowid) AS r FROM (SELECT rowid FROM opportunity_search WHERE opportunity_search MATCH ${apart?.rest ?? probeFts ?? q} LIMIT ${FEW_MATCHES})`,
        )!;
        plan = m.n < FEW_MATCHES ? 'drive' : 'probe';
        dense = plan === 'probe' && probeFts !== null && densityOf(m.n, m.r) >= DENSE;
      }
    }
    // The matches tested as a set (a page the sort's next rows left short, an offset, the outlet counts): in whole words too where it can.
    hits ??= probeFts === null ? null : sql`(SELECT rowid FROM opportunity_search WHERE opportunity_search MATCH ${probeFts})`;
    w = filterSql(f, brand.bk, days, plan, hits, due);
    chip = filterSql(chipFilter, brand.bk, days, plan, hits, due);
    joined = { where: filterSql(f, brand.bk, days, 'joined', null, due).where, chip: filterSql(chipFilter, brand.bk, days, 'joined', null, due).where };
    // (The facets hold no outlet: a search within an outlet counts from the opportunities.)
    if (f.domain === undefined || f.domain.trim() === '') counted = 'facets';
  }
  return {
    filter: { ...f, sort },
    sort,
    brand,
    from: w.from,
    where: w.where,
    chipWhere: chip.where,
    counted,
    sets: counts.sets,
    fts: q,
    plan,
    probeFts,
    dense,
    heads: plan === 'probe' ? (apart?.heads ?? null) : null,
    restFts: plan === 'probe' ? (apart?.rest ?? null) : null,
    joinedWhere: joined?.where ?? null,
    joinedChipWhere: joined?.chip ?? null,
    flags: flagSources(db),
    sparse: q ? null : sparseIndex(f),
    // The list's key: its SQL and values, and for the follow-ups due (a set, not values) the day they are due by.
    jumps: q
      ? null
      : jumpCursors(
          db.derived,
          db.derived.version(),
          `${sort} ${w.where.text} ${JSON.stringify(w.where.params)} ${f.view === 'due' ? days.dueOnOrBefore : ''}`,
        ),
  } as ListQuery;
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
type PageAsk = { limit: number; offset: number; after?: After; skip?: number; windowed?: boolean; fromEnd?: boolean; walk?: boolean; sparse?: boolean };
export function listSql(db: ReadableDB, q: ListQuery, page: PageAsk): Sql {
  const order = orderBy(q.sort);
  // Counted from the end (End, the scroll bar's lower half): the index walked backwards, the page's rows then put in order.
  const fromEnd = page.fromEnd === true && !page.after;
  const windowed = page.windowed === true && !fromEnd && windowable(q, page.offset);
  // A search with few matches starts from them (CROSS JOIN keeps that order: the planner would rather walk the sort's index).
  const from =
    q.plan === 'drive' && q.sort !== 'relevance'
      ? sql`opportunity_search s CROSS JOIN opportunities o ON o.rowid = s.rowid WHERE s.opportunity_search MATCH ${q.probeFts ?? q.fts} AND ${q.joinedWhere!}`
      : page.sparse && q.sparse
        ? // A sparse list's rows alone, from the partial index that holds them (and few others), then sorted.
          sql`opportunities o INDEXED BY ${q.sparse} WHERE ${q.where}`
        : windowed
          ? sql`opportunities o WHERE ${q.joinedWhere!}${q.heads !== null && !q.dense && q.restFts !== null ? sql` AND +o.rowid IN ${matchesOf(q.restFts)}` : sql``}`
          : sql`opportunities o WHERE ${q.where}`;
  // A walk (list-jump.ts): each row's cursor alone, the sort value and rowid, in the list's order (from the sort's index;
  // a sparse walk's from the list's partial index, sorted).
  const picked = page.walk ? sql`o.rowid AS _rowid, ${SORTS[q.sort].key} AS _sort` : sql`o.rowid`;
  const pick = (extra: Sql | null, offset: number, limit = page.limit) => {
    const rows = sql`SELECT ${picked} FROM ${from}${extra ? sql` AND ${extra}` : sql``} ORDER BY ${fromEnd ? orderFromEnd(q.sort) : order}`;
    if (!windowed) return sql`${rows} LIMIT ${limit}${offset ? sql` OFFSET ${offset}` : sql``}`;
    // Many matches: the next rows of the sort's index (the filter without the words), each tested against the
    // search by its rowid, until the page is full; never the set of every match.
    return sql`SELECT w.rowid FROM (${rows} LIMIT ${page.limit * WINDOW}) w WHERE ${rowMatches(q)} LIMIT ${page.limit}`;
  };
  let rowids: Sql;
  if (!page.after) rowids = pick(null, page.offset);
  else {
    const k = keysetAfter(q.sort, page.after);
    // `skip`: the page starts that many rows after the row (a jump from a kept cursor, list-jump.ts).
    const skip = page.skip ?? 0;
    const arms = [k.rest, k.empties]
      .filter((x): x is Sql => x !== null)
      .map((c) => sql`SELECT ${page.walk ? sql`_rowid, _sort` : sql`rowid`} FROM (${pick(c, 0, page.limit + skip)})`);
    const union = arms.length === 1 && !skip ? arms[0]! : sql`${sqlJoin(arms, sql` UNION ALL `)} LIMIT ${page.limit}${skip ? sql` OFFSET ${skip}` : sql``}`;
    // No arm: a row past the end (a cursor with no value on a sort that has none empty).
    rowids = arms.length === 0 ? sql`SELECT NULL${page.walk ? sql` AS _rowid, NULL AS _sort` : sql``} WHERE 0` : union;
  }
  if (page.walk) return rowids;
  return sql`SELECT o.rowid AS _rowid, ${SORTS[q.sort].key} AS _sort, ${itemsOf(db.fields).columns}, ${rowFlags(sql`o.rowid`, q.flags)}
    FROM ${q.from} WHERE o.rowid IN (${rowids}) ORDER BY ${order}`;
}

/** A search with many matches tests at most this many times a page's rows of the sort's index one by one, before it reads the set of its matches. */
const WINDOW = 4;

/** Can a page be found by testing the sort's next rows one by one (a search with many matches, or a one-letter word begun; from its start or after a row)? */
const windowable = (q: ListQuery, offset: number): boolean => (q.dense || q.heads !== null) && q.probeFts !== null && offset === 0;

/**
 * A page of the list: after a row (keyset) or at an offset (a jump), at most
 * 5,000 rows. `fromEnd`: the offset counts from the list's end (the page is
 * the `limit` rows before the last `offset` ones), so End and a jump to the
 * lower half walk the index from the nearer end.
 */
export function listPage(db: ReadableDB, q: ListQuery, page: { limit?: number; offset?: number; after?: After; fromEnd?: boolean } = {}): ListPage {
  const limit = Math.max(1, Math.min(page.limit ?? 200, 5000));
  const offset = Math.max(0, page.offset ?? 0);
  // Rows read as arrays (rowid and sort value first), mapped with the page's columns (the same in every read of it).
  type Row = [number, string | number | null, ...unknown[]];
  let columns: string[] = [];
  const read = (ask: PageAsk): Row[] => {
    const t = db.table<Row>(listSql(db, q, ask));
    columns = t.columns;
    return t.rows;
  };
  let rows: Row[] | null = null;
  // Many matches: the sort's next rows tested one by one fill most pages; a page they leave short (sparse
  // matches under this filter, or the list's end) is read again with the set of the matches.
  const fromEnd = page.fromEnd === true && !page.after;
  // A jump without a search (the scroll bar): from the nearer end or a kept cursor, never every row before it.
  if (!fromEnd && !page.after && offset > 0 && q.jumps)
    rows = jumpRows<Row>(q.jumps, limit, offset, {
      // Known cheaply wherever the counts come from a summary (not by walking the index or the matches).
      total: () => (q.counted === 'index' || q.counted === 'facets' ? null : listTotal(db, q)),
      fromEnd: (n, skip) => read({ limit: n, offset: skip, fromEnd: true }),
      // A sparse list (its own rows in a partial index); and how many rows the sort's index holds around them.
      sparse: q.sparse !== null,
      walked: () => db.get<{ n: number }>(sql`SELECT coalesce(sum(n), 0) AS n FROM opportunity_summary WHERE brand_key = ${q.brand.bk}`)!.n,
      rows: (after, skip, n) => read({ limit: n, offset: skip, after: after ?? undefined, skip }),
      // Every STEP-th row and the last one only, numbered as the walk gives them (in the sort's order): never every row in one array.
      walk: (after, n, sparse) =>
        db.tuples<[number, string | number | null, number]>(
          sql`SELECT _rowid, _sort, k FROM (SELECT _rowid, _sort, row_number() OVER () AS k, lead(1) OVER () IS NULL AS _last
            FROM (${listSql(db, q, { limit: n, offset: 0, after: after ?? undefined, walk: true, sparse })})) WHERE k % ${STEP} = 0 OR _last`,
        ),
    });
  if (!fromEnd && windowable(q, offset)) {
    rows = read({ limit, offset, after: page.after, windowed: true });
    if (rows.length < limit) rows = null;
  }
  if (!rows) {
    rows = read({ limit, offset, after: page.after, fromEnd });
    // Scrolling from the list's start: the cursors of the rows it passes are kept for a jump.
    if (q.jumps && !fromEnd && (page.after || offset === 0)) keepPage(q.jumps, page.after ?? null, rows, limit);
  }
  const last = rows[rows.length - 1];
  const more = fromEnd ? offset > 0 : rows.length === limit;
  return { items: itemsOf(db.fields).mapAll(columns, rows), next: more && last ? { value: last[1], rowid: last[0] } : null };
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

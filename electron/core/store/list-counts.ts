// The list's counts, read from a prepared filter (opportunity-list.ts's
// prepareList): its total (exact, or capped while a search is typed), the chip
// counts with the total from the same rows, and the counts per outlet. From the
// summary without a search, from the matches joined to their facets with one.
import { STATUSES } from '../../../shared/domain';
import { STAGES } from '../../../shared/pipeline';
import type { ReadableDB } from './database';
import type { ListQuery } from './opportunity-list';
import { sql, type Sql } from './sql';

/** The full-text matches (`s`) joined to their facets (`o`): what a search's total and chip counts read. */
const matchedFacets = (q: ListQuery): Sql =>
  sql`opportunity_search s CROSS JOIN opportunity_facets o ON o.rowid = s.rowid WHERE s.opportunity_search MATCH ${q.probeFts ?? q.fts}`;

export function countSql(q: ListQuery): Sql {
  if (q.counted === 'summary') return sql`SELECT coalesce(sum(o.n), 0) AS n FROM opportunity_summary o WHERE ${q.where}`;
  if (q.counted === 'facets') return sql`SELECT count(*) AS n FROM ${matchedFacets(q)} AND ${q.joinedWhere!}`;
  return sql`SELECT count(*) AS n FROM opportunities o WHERE ${q.where}`;
}

/** How many the list holds (every match: no cap). */
export function listTotal(db: ReadableDB, q: ListQuery): number {
  return db.get<{ n: number }>(countSql(q))!.n;
}

/** A search's total is counted up to this while it is typed and scrolled; the exact one comes with the chip counts. */
export const SEARCH_TOTAL_CAP = 1000;

/**
 * The list's total as a page shows it: exact without a search; under a
 * search counted only up to `cap` (`capped`: the search matches more), so a
 * keystroke never counts every match of a two-letter prefix. The exact total
 * comes with the chip counts (chipCountsAndTotal), after the list.
 */
export function shownTotal(db: ReadableDB, q: ListQuery, cap: number = SEARCH_TOTAL_CAP): { total: number; capped: boolean } {
  if (q.fts === null) return { total: listTotal(db, q), capped: false };
  const rows = q.counted === 'facets' ? sql`SELECT 1 FROM ${matchedFacets(q)} AND ${q.joinedWhere!}` : sql`SELECT 1 FROM opportunities o WHERE ${q.where}`;
  const n = db.get<{ n: number }>(sql`SELECT count(*) AS n FROM (${rows} LIMIT ${cap + 1})`)!.n;
  return n > cap ? { total: cap, capped: true } : { total: n, capped: false };
}

/**
 * The chip counts: from the summary (its groups added up), a search's
 * matches joined to their facets, or else grouped by the chip index's own
 * columns: one pass over it, no sort. Named, not left to the planner: every
 * sort's index also covers these columns, and one of them walked in its own
 * order would need a sort for the grouping.
 */
export function countsSql(q: ListQuery): Sql {
  const columns = sql`o.status, o.opportunity_type AS type, o.difficulty AS difficulty, o.stage`;
  if (q.counted === 'summary') return sql`SELECT ${columns}, sum(o.n) AS n FROM opportunity_summary o WHERE ${q.chipWhere} GROUP BY 1, 2, 3, 4`;
  if (q.counted === 'facets') return sql`SELECT ${columns}, count(*) AS n FROM ${matchedFacets(q)} AND ${q.joinedChipWhere!} GROUP BY 1, 2, 3, 4`;
  return sql`SELECT ${columns}, count(*) AS n
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

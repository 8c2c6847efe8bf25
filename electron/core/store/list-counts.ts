// The list's counts, read from a prepared filter (opportunity-list.ts's
// prepareList): its total (exact, or capped while a search is typed), the chip
// counts with the total from the same rows, and the counts per outlet. Without
// a search from groups kept counted (the summary, the outlets') or worked out
// with the due or pitched set; with one, from the matches joined to their facets.
import { STATUSES } from '../../../shared/domain';
import type { ListFilter } from '../../../shared/model';
import { STAGES } from '../../../shared/pipeline';
import type { ReadableDB, WritableDB } from './database';
import { filterSql, type PipelineDays } from './opportunity-filter';
import type { ListQuery } from './opportunity-list';
import { identifier, sql, type Sql } from './sql';

/**
 * Where a list's total and chip counts are read from: `summary` (no search,
 * and only filters the summary's columns answer: a few hundred rows kept
 * counted by triggers, migration 11), `due` / `pitched` (no search, the
 * follow-ups due or "already pitched" besides such filters: the summary of
 * that set, or the summary less it), `outlets` (no search, an outlet besides
 * such filters: the groups of the outlets whose name holds it, migration 14),
 * `facets` (a search: its full-text matches joined by rowid to the narrow
 * facets; every filter but the domain), or `index` (the opportunities' own
 * covering index: a selection, or two of an outlet, the due and the pitched).
 */
export type CountedFrom = 'summary' | 'due' | 'pitched' | 'outlets' | 'facets' | 'index';

/**
 * The summary's columns (migration 11), each a group's value: contacts and catch-alls as "has any". Written out here
 * again, not taken from migration 011's COLUMNS: a migration is frozen as it shipped, these follow the code.
 */
const groupColumns = sql`brand_key, removed_on_server, archived, stage, snoozed_until, status, opportunity_type, difficulty, starred, contact_count, catch_all_count`;
/** The same values of the facets row `o` (which holds how many contacts and catch-alls). */
const facetGroups = sql`o.brand_key, o.removed_on_server, o.archived, o.stage, o.snoozed_until, o.status, o.opportunity_type, o.difficulty, o.starred,
  o.contact_count > 0, o.catch_all_count > 0`;
/** The summary's group of the trigger's facets row OLD or NEW (IS: a NULL stage, snooze or status is a value here). */
const groupOf = (row: 'OLD' | 'NEW'): Sql => {
  const r = identifier(row, ['OLD', 'NEW']);
  return sql`brand_key IS ${r}.brand_key AND removed_on_server IS ${r}.removed_on_server AND archived IS ${r}.archived AND stage IS ${r}.stage
  AND snoozed_until IS ${r}.snoozed_until AND status IS ${r}.status AND opportunity_type IS ${r}.opportunity_type AND difficulty IS ${r}.difficulty
  AND starred IS ${r}.starred AND contact_count IS (${r}.contact_count > 0) AND catch_all_count IS (${r}.catch_all_count > 0)`;
};
/**
 * The pitched set's summary follows this connection's triage writes (the mirror updates a pitched row's facets):
 * a keystroke moves a row from one group to another, where filling it again would group the whole set.
 */
const followPitched = sql`CREATE TEMP TRIGGER IF NOT EXISTS pitched_summary_follows AFTER UPDATE ON main.opportunity_facets
  WHEN OLD.rowid IN pitched_rowids BEGIN
  UPDATE pitched_summary SET n = n - 1 WHERE ${groupOf('OLD')};
  INSERT INTO pitched_summary (${groupColumns}, n)
    SELECT NEW.brand_key, NEW.removed_on_server, NEW.archived, NEW.stage, NEW.snoozed_until, NEW.status, NEW.opportunity_type, NEW.difficulty,
      NEW.starred, NEW.contact_count > 0, NEW.catch_all_count > 0, 0
    WHERE NOT EXISTS (SELECT 1 FROM pitched_summary WHERE ${groupOf('NEW')});
  UPDATE pitched_summary SET n = n + 1 WHERE ${groupOf('NEW')};
END`;
const SETS = {
  due: { rowids: sql`temp.due_rowids`, table: sql`temp.due_summary` },
  pitched: { rowids: sql`temp.pitched_rowids`, table: sql`temp.pitched_summary` },
};

/** How a set's rows are counted, as their summary; and the filter (without the set) that picks the summary's groups. */
export interface SetCounts {
  where: Sql;
  chipWhere: Sql;
}

/**
 * Where a list without a search is counted from (see CountedFrom), and for
 * the follow-ups due or "already pitched" (their set prepared first: the
 * derived tables' due or pitched rowids) that set's summary: its rows
 * grouped as the summary's are, in `temp.due_summary` / `temp.pitched_summary`,
 * once per change of the cache (a cost of the set's size, never the cache's;
 * the pitched set's, the largest, is kept through a triage write by a trigger).
 */
export function prepareCounts(db: WritableDB, f: ListFilter, bk: number, days: PipelineDays): { counted: CountedFrom; sets: SetCounts | null } {
  const domain = f.domain !== undefined && f.domain.trim() !== '';
  const due = f.view === 'due';
  const pitched = f.alreadyPitched !== undefined;
  if (f.ids !== undefined || [domain, due, pitched].filter(Boolean).length > 1) return { counted: 'index', sets: null };
  if (!due && !pitched) return { counted: domain ? 'outlets' : 'summary', sets: null };
  const set = due ? 'due' : 'pitched';
  const { rowids, table } = SETS[set];
  db.derived.summarized(
    set,
    due ? `${f.brandId}/${days.dueOnOrBefore}` : f.brandId,
    () => [
      sql`CREATE TEMP TABLE IF NOT EXISTS ${table} AS SELECT ${groupColumns}, n FROM opportunity_summary WHERE 0`,
      ...(pitched ? [followPitched] : []),
      sql`DELETE FROM ${table}`,
      // CROSS JOIN keeps this order: from the set's rows out to their facets, whatever the statistics say.
      sql`INSERT INTO ${table} (${groupColumns}, n)
        SELECT ${facetGroups}, count(*) FROM ${rowids} r CROSS JOIN opportunity_facets o ON o.rowid = r.rowid GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11`,
    ],
    pitched,
  );
  // The filter without the set (the due set's rows are all Contacted, and not snoozed as no view asks).
  const without = { ...f, view: due ? undefined : f.view, alreadyPitched: undefined };
  const chip = { ...without, status: undefined, type: undefined, difficulty: undefined };
  return { counted: set, sets: { where: filterSql(without, bk, days).where, chipWhere: filterSql(chip, bk, days).where } };
}

/**
 * The groups of the outlets whose name (lowercased) holds the one asked for
 * (`o`, with `n`): the brand's outlets found one by one in the index (a seek
 * past each), each one's groups then read from its own range.
 */
const outlets = (q: ListQuery, select: Sql, where: Sql): Sql => {
  const bk = q.brand.bk;
  const next = (after: Sql) => sql`(SELECT min(domain) FROM opportunity_outlets WHERE brand_key = ${bk}${after})`;
  return sql`WITH RECURSIVE d(x) AS (SELECT ${next(sql``)} UNION ALL SELECT ${next(sql` AND domain > d.x`)} FROM d WHERE d.x IS NOT NULL)
    SELECT ${select} FROM d CROSS JOIN opportunity_outlets o
    WHERE instr(d.x, lower(${q.filter.domain!.trim()})) > 0 AND o.brand_key = ${bk} AND o.domain = d.x AND ${where}`;
};

/** The groups a set's summary counts (`pitched` "not already pitched": the summary less that set's), as `o` with `n`. */
const summed = (q: ListQuery): Sql => {
  if (q.counted === 'due') return sql`temp.due_summary o`;
  if (q.filter.alreadyPitched === true) return sql`temp.pitched_summary o`;
  return sql`(SELECT ${groupColumns}, n FROM opportunity_summary UNION ALL SELECT ${groupColumns}, -n FROM temp.pitched_summary) o`;
};

/** The full-text matches (`s`) joined to their facets (`o`): what a search's total and chip counts read. */
const matchedFacets = (q: ListQuery): Sql =>
  sql`opportunity_search s CROSS JOIN opportunity_facets o ON o.rowid = s.rowid WHERE s.opportunity_search MATCH ${q.probeFts ?? q.fts}`;

export function countSql(q: ListQuery): Sql {
  if (q.counted === 'summary') return sql`SELECT coalesce(sum(o.n), 0) AS n FROM opportunity_summary o WHERE ${q.where}`;
  if (q.counted === 'due' || q.counted === 'pitched') return sql`SELECT coalesce(sum(o.n), 0) AS n FROM ${summed(q)} WHERE ${q.sets!.where}`;
  if (q.counted === 'outlets') return outlets(q, sql`coalesce(sum(o.n), 0) AS n`, q.where);
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
 * The chip counts, from where the list is counted (CountedFrom): the summary's
 * groups added up; the due or pitched set's summary (or the summary less it);
 * the groups of the outlets whose name holds the one asked; a search's
 * matches joined to their facets; or else grouped by the chip index's own
 * columns: one pass over it, no sort. Named, not left to the planner: every
 * sort's index also covers these columns, and one of them walked in its own
 * order would need a sort for the grouping.
 */
export function countsSql(q: ListQuery): Sql {
  const columns = sql`o.status, o.opportunity_type AS type, o.difficulty AS difficulty, o.stage`;
  if (q.counted === 'summary') return sql`SELECT ${columns}, sum(o.n) AS n FROM opportunity_summary o WHERE ${q.chipWhere} GROUP BY 1, 2, 3, 4`;
  // (A group the set holds whole adds up to none: left out, as a count of the rows would not have it.)
  if (q.counted === 'due' || q.counted === 'pitched')
    return sql`SELECT ${columns}, sum(o.n) AS n FROM ${summed(q)} WHERE ${q.sets!.chipWhere} GROUP BY 1, 2, 3, 4 HAVING sum(o.n) > 0`;
  if (q.counted === 'outlets') return sql`${outlets(q, sql`${columns}, sum(o.n) AS n`, q.chipWhere)} GROUP BY 1, 2, 3, 4`;
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

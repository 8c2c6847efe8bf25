// How a search's page meets its matches without reading all of them: how
// dense they are, judged from where the first of them end, and the test a
// row of the sort's index passes when it matches (store/opportunity-list.ts
// walks that index and stops at the page's last row).
import type { ListQuery } from './opportunity-list';
import { sql, sqlJoin, type Sql } from './sql';

/** Where a search's first `n` matches end (`reach`, the rowid of the last: the full-text index holds them in rowid order) tells how dense they are. */
export const densityOf = (n: number, reach: number | null): number => (reach === null || reach <= 0 ? 0 : Math.min(1, n / reach));

/** The rowids an FTS query matches, as a set a walk tests its rows against. */
export const matchesOf = (fts: string): Sql => sql`(SELECT rowid FROM opportunity_search WHERE opportunity_search MATCH ${fts})`;

/**
 * Does the row `w` match the search: looked up in the full-text index by its
 * rowid and the words, a one-letter word's alternatives one by one until one
 * holds (the most common first, so most rows need one lookup).
 */
export function rowMatches(q: ListQuery): Sql {
  const exists = (fts: string) => sql`EXISTS (SELECT 1 FROM opportunity_search s WHERE s.opportunity_search MATCH ${fts} AND s.rowid = w.rowid)`;
  if (q.heads === null) return exists(q.probeFts!);
  const heads = sql`(${sqlJoin(q.heads.map(exists), sql` OR `)})`;
  // The other words: tested here when dense; else the walk itself is kept to their matches (listSql).
  return q.dense && q.restFts !== null ? sql`${exists(q.restFts)} AND ${heads}` : heads;
}

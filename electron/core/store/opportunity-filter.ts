// The list's filters and sorts as SQL fragments, shared by the list, counts and
// exports: WHERE from a ListFilter, "already pitched", do-not-contact, ORDER BY.
import type { ListFilter, ListSort } from '../../../shared/model';
import { isBlocked } from './do-not-contact';
import { sql, sqlJoin, type Sql } from './sql';

/**
 * Words to an FTS5 query: each a quoted prefix term, all required; text that
 * the tokenizer splits (an address, a domain) becomes a phrase, so
 * "tips@site2.com" finds that address and not every "site2…". Never raw FTS
 * syntax from the user.
 */
export function ftsQuery(text: string): string | null {
  const terms = text
    .normalize('NFKC')
    .split(/\s+/)
    .map((chunk) => chunk.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0))
    .filter((parts) => parts.length > 0)
    .slice(0, 12);
  if (terms.length === 0) return null;
  return terms.map((parts) => `"${parts.join(' ').replace(/"/g, '""')}"*`).join(' ');
}

/**
 * ORDER BY for each sort: the only place a sort column is named. Written with
 * the list's output names (`priority_score`, `_rowid`), so one fragment
 * orders both the inner page query and the outer query over its rows.
 */
export const ORDER_BY: Record<ListSort, Sql> = {
  priority: sql`priority_score DESC, _rowid`,
  fit: sql`fit_score DESC, _rowid`,
  last_seen: sql`last_seen DESC, _rowid`,
  title: sql`title COLLATE NOCASE, _rowid`,
  domain: sql`domain COLLATE NOCASE, _rowid`,
};

/**
 * "Already pitched": every address marked contacted or exported in any
 * opportunity of the brand, with the latest date. Built once per query from
 * the (few) triage rows that say so, never by fanning out from each row over
 * every opportunity that shares a generic address such as press@.
 */
export function pitchedTable(brandId: string, bk: number): Sql {
  return sql`pitched (identity, at) AS MATERIALIZED (
  SELECT c2.identity, max(max(COALESCE(t2.contacted_at, ''), COALESCE(t2.exported_at, '')))
  FROM triage t2 JOIN opportunities o2 ON o2.brand_key = ${bk} AND o2.id = t2.opportunity_id
  JOIN contacts c2 ON c2.opportunity_rowid = o2.rowid
  WHERE t2.brand_id = ${brandId} AND (t2.contacted_at IS NOT NULL OR t2.exported_at IS NOT NULL) AND c2.valid = 1
  GROUP BY c2.identity)`;
}

/** The latest date an address of the opportunity at `rowid` was pitched, or null (uses the `pitched` table). */
export const pitchedAt = (rowid: Sql): Sql =>
  sql`(SELECT NULLIF(max(p.at), '') FROM contacts c JOIN pitched p ON p.identity = c.identity WHERE c.opportunity_rowid = ${rowid} AND c.valid = 1)`;

/** Was this contact (`c`) pitched before, in any opportunity of the brand? (uses the `pitched` table) */
export const contactPitched = sql`EXISTS (SELECT 1 FROM pitched p WHERE p.identity = c.identity)`;

/** A contact (`c`) on the do-not-contact list. */
export const contactBlocked = isBlocked(sql`c.identity`, sql`c.domain`);

/** How many addresses of the opportunity at `rowid` are on the do-not-contact list. */
export const doNotContactCount = (rowid: Sql): Sql => sql`(SELECT count(*) FROM contacts c WHERE c.opportunity_rowid = ${rowid} AND c.valid = 1 AND ${contactBlocked})`;

/** The user's triage (`t`, when there is one) of the opportunity `o`; `brandId`: a value, or a slot. */
export const triageOf = (brandId: string | Sql): Sql => sql`LEFT JOIN triage t ON t.brand_id = ${brandId} AND t.opportunity_id = o.id`;

/** The opportunity (`o`) with the user's triage of it. */
export const withTriage = (brandId: string): Sql => sql`opportunities o ${triageOf(brandId)}`;

export interface FilterSql {
  /** The WITH clause (the `pitched` table) the other parts may use. */
  with: Sql;
  from: Sql;
  where: Sql;
}

/** FROM and WHERE for a filter (`bk`: the brand's key), every value a parameter. */
export function filterSql(f: ListFilter, bk: number): FilterSql {
  const where: Sql[] = [sql`o.brand_key = ${bk}`];
  if (f.onlyRemoved) where.push(sql`o.removed_on_server = 1`);
  else if (!f.includeRemoved) where.push(sql`o.removed_on_server = 0`);
  if (!f.includeArchived) where.push(sql`o.archived = 0 AND (t.status IS NULL OR t.status != 'Archived')`);
  if (f.type !== undefined) where.push(sql`o.opportunity_type = ${f.type}`);
  if (f.status !== undefined) where.push(sql`COALESCE(t.status, o.status) = ${f.status}`);
  if (f.difficulty !== undefined) where.push(sql`o.difficulty = ${f.difficulty}`);
  if (f.domain !== undefined && f.domain.trim() !== '') where.push(sql`instr(lower(o.domain), lower(${f.domain.trim()})) > 0`);
  if (f.hasContacts === true) where.push(sql`o.contact_count > 0`);
  if (f.hasContacts === false) where.push(sql`o.contact_count = 0`);
  if (f.catchAll === 'only') where.push(sql`o.catch_all_count > 0`);
  if (f.catchAll === 'exclude') where.push(sql`o.catch_all_count = 0`);
  if (f.starred) where.push(sql`t.starred = 1`);
  if (f.alreadyPitched === true) where.push(sql`${pitchedAt(sql`o.rowid`)} IS NOT NULL`);
  if (f.alreadyPitched === false) where.push(sql`${pitchedAt(sql`o.rowid`)} IS NULL`);
  if (f.ids !== undefined) where.push(sql`o.id IN (SELECT value FROM json_each(${JSON.stringify(f.ids)}))`);
  const q = f.search === undefined ? null : ftsQuery(f.search);
  if (q) where.push(sql`o.rowid IN (SELECT rowid FROM opportunity_search WHERE opportunity_search MATCH ${q})`);
  return { with: sql`WITH ${pitchedTable(f.brandId, bk)}`, from: withTriage(f.brandId), where: sqlJoin(where, sql` AND `) };
}

// The list's filters and sorts as SQL fragments, shared by the list, counts and
// exports: WHERE from a ListFilter, "already pitched", do-not-contact, ORDER BY
// and the keyset condition that starts a page after a row. Filters read the
// opportunity row alone (the triage fields they need are mirrored on it, see
// migration 4), so a list, a total or a chip count never joins the triage
// table row by row.
import type { ListFilter, ListSort } from '../../../shared/model';
import { searchWords } from '../../../shared/search-words';
import { isBlocked } from './do-not-contact';
import { sql, sqlJoin, type Sql } from './sql';

/**
 * Words to an FTS5 query: each word a quoted prefix term, all required (text
 * the tokenizer splits, an address or a domain, becomes its words: the index
 * keeps which column a word is in, not its position, so there are no phrase
 * queries). Never raw FTS syntax from the user.
 */
export function ftsQuery(text: string): string | null {
  const words = searchWords(text);
  if (words.length === 0) return null;
  return [...new Set(words.map((w) => w.toLowerCase()))].map((w) => `"${w.replace(/"/g, '""')}"*`).join(' ');
}

/** The e-mail addresses (or their beginnings, "ana@outl") in what a person typed, lower-cased. */
export function addressesIn(text: string): string[] {
  return text
    .normalize('NFKC')
    .split(/\s+/)
    .filter((w) => /^[^@\s]+@[^@\s]*$/.test(w))
    .map((w) => w.toLowerCase())
    .slice(0, 4);
}

/**
 * Each sort: its column on the opportunity (`o`), its direction, and whether
 * it may be empty (a descending sort puts empty values last). The only place
 * a sort column is named; each has an index that gives this order.
 */
export const SORTS: Record<ListSort, { key: Sql; desc: boolean; nullable: boolean }> = {
  // Best match while searching: the rank prepareList worked out for each match (temp.search_hits; lower is better).
  relevance: { key: sql`(SELECT h.rank FROM temp.search_rank h WHERE h.rowid = o.rowid)`, desc: false, nullable: false },
  priority: { key: sql`o.priority_score`, desc: true, nullable: true },
  fit: { key: sql`o.fit_score`, desc: true, nullable: true },
  last_seen: { key: sql`o.last_seen`, desc: true, nullable: true },
  title: { key: sql`o.title COLLATE NOCASE`, desc: false, nullable: false },
  domain: { key: sql`o.domain COLLATE NOCASE`, desc: false, nullable: false },
};

/** ORDER BY for a sort, over `o` (ties by rowid, so every order is total). */
export const orderBy = (sort: ListSort): Sql => {
  const s = SORTS[sort];
  return sql`${s.key}${s.desc ? sql` DESC` : sql``}, o.rowid`;
};

/** The same order from the list's end: the sort's index walked backwards (a jump counted from the end reads it). */
export const orderFromEnd = (sort: ListSort): Sql => {
  const s = SORTS[sort];
  return sql`${s.key}${s.desc ? sql`` : sql` DESC`}, o.rowid DESC`;
};

/** Where a page starts: after the row with this sort value and rowid (keyset pagination). */
export interface After {
  value: string | number | null;
  rowid: number;
}

/**
 * The rows after `a` in a sort's order, as conditions an index can seek on.
 * A descending nullable sort has two parts, the rest of the values and then
 * the empty ones: `rest` and `empties` (null when the page starts among the empties).
 */
export function keysetAfter(sort: ListSort, a: After): { rest: Sql | null; empties: Sql | null } {
  const s = SORTS[sort];
  if (a.value === null) return { rest: null, empties: s.nullable ? sql`${s.key} IS NULL AND o.rowid > ${a.rowid}` : null };
  const rest = s.desc
    ? sql`${s.key} <= ${a.value} AND (${s.key} < ${a.value} OR o.rowid > ${a.rowid})`
    : sql`${s.key} >= ${a.value} AND (${s.key} > ${a.value} OR o.rowid > ${a.rowid})`;
  return { rest, empties: s.nullable ? sql`${s.key} IS NULL` : null };
}

/**
 * Was the contact `c` of the opportunity `o` written to, by the user's triage
 * `t` of it? Only a contact counts, never an export (until the user confirms
 * it was sent, which makes it a contact): its address is among the addresses
 * recorded as used. A contact marked before the addresses were recorded, and
 * not yet given them (a record file from an older version), counts its
 * addresses other than catch-alls, or its catch-alls when that is all it has.
 * `t`, `c` and `o` are the aliases of the query that asks. SQLite's lower() is
 * ASCII's only, which is the app's identity rule for every valid address (they
 * are ASCII: shared/contacts.ts; pinned by test/unit/shared/contacts.test.ts).
 */
export const contactedAddress = (t: Sql, c: Sql, o: Sql): Sql =>
  sql`(${t}.contacted_at IS NOT NULL AND CASE WHEN ${t}.contacted_addresses IS NOT NULL
    THEN ${c}.identity IN (SELECT lower(value) FROM json_each(${t}.contacted_addresses))
    ELSE ${c}.catch_all = 0 OR ${o}.catch_all_count >= ${o}.contact_count END)`;

/** The latest date an address of the opportunity at `rowid` was pitched, or null (reads `temp.pitched`, see derived-tables.ts). */
export const pitchedAt = (rowid: Sql): Sql =>
  sql`(SELECT NULLIF(max(p.at), '') FROM contacts c JOIN temp.pitched p ON p.identity = c.identity WHERE c.opportunity_rowid = ${rowid} AND c.valid = 1)`;

/** Was this contact (`c`) written to before, in any opportunity of the brand? (reads `temp.pitched`) */
export const contactPitched = sql`EXISTS (SELECT 1 FROM temp.pitched p WHERE p.identity = c.identity)`;

/** A contact (`c`) on the do-not-contact list. */
export const contactBlocked = isBlocked(sql`c.identity`, sql`c.domain`);

/** How many addresses of the opportunity at `rowid` are on the do-not-contact list. */
export const doNotContactCount = (rowid: Sql): Sql =>
  sql`(SELECT count(*) FROM contacts c WHERE c.opportunity_rowid = ${rowid} AND c.valid = 1 AND ${contactBlocked})`;

/** The user's triage (`t`, when there is one) of the opportunity `o`; `brandId`: a value, or a slot. */
export const triageOf = (brandId: string | Sql): Sql => sql`LEFT JOIN triage t ON t.brand_id = ${brandId} AND t.opportunity_id = o.id`;

/** The opportunity (`o`) with the user's triage of it. */
export const withTriage = (brandId: string): Sql => sql`opportunities o ${triageOf(brandId)}`;

/** The days the pipeline's filters are measured from (the core's clock and settings). */
export interface PipelineDays {
  /** Today, YYYY-MM-DD (the user's calendar). */
  today: string;
  /** A Contacted opportunity contacted on or before this day is due for its follow-up. */
  dueOnOrBefore: string;
}

/** A triage row (`td`) of the brand that may be due for its follow-up (contacted long enough ago, no follow-up yet). */
const dueTriage = (brandId: string, days: PipelineDays): Sql =>
  sql`td.stage = 'Contacted' AND td.brand_id = ${brandId} AND td.followed_up_at IS NULL AND td.contacted_at <= ${days.dueOnOrBefore}`;

/** The opportunity (`o`) has someone to write to: an address not on the do-not-contact list. */
const dueHasAddress = sql`EXISTS (SELECT 1 FROM contacts c WHERE c.opportunity_rowid = o.rowid AND c.valid = 1 AND NOT ${contactBlocked})`;

/**
 * The rowids of the brand's opportunities due for a follow-up, all at once
 * (the same rows the "due" filter keeps): what DerivedTables.dueRowids copies
 * into `temp.due_rowids`, so a page tests a set instead of building it again
 * and looking at each row's addresses on every page.
 */
export const dueRowids = (brandId: string, bk: number, days: PipelineDays): Sql =>
  sql`SELECT o.rowid FROM triage td CROSS JOIN opportunities o
    WHERE ${dueTriage(brandId, days)} AND o.brand_key = ${bk} AND o.id = td.opportunity_id AND o.stage = 'Contacted' AND ${dueHasAddress}`;

export interface FilterSql {
  /** The opportunity (`o`) with the user's triage (`t`), for queries that show triage fields. */
  from: Sql;
  /** Conditions on `o` alone (and the derived tables). */
  where: Sql;
}

/**
 * How a text search joins the list: `drive` (few matches: start from them and
 * sort them) or `probe` (many: walk the sort's index and keep the rows that
 * match, so a page stops after its 200th row). The reader picks by counting
 * the matches up to a small cap first. `joined`: the caller joins the
 * full-text index itself (a total or chip counts from the facets, which start
 * from the matches), so the WHERE leaves the words out.
 */
export type SearchPlan = 'drive' | 'probe' | 'joined';

/**
 * FROM and WHERE for a filter (`bk`: the brand's key), every value a parameter.
 * A text search reads its matches from `hits`, a table of their rowids the
 * reader fills once per search for Best match (derived-tables.ts); without
 * one, from the full-text index directly, within the query.
 */
export function filterSql(
  f: ListFilter,
  bk: number,
  days: PipelineDays,
  search: SearchPlan = 'probe',
  hits: Sql | null = null,
  opts: { dueFrom?: 'td' | 'set' } = {},
): FilterSql {
  const where: Sql[] = [sql`o.brand_key = ${bk}`];
  if (f.onlyRemoved) where.push(sql`o.removed_on_server = 1`);
  else if (!f.includeRemoved) where.push(sql`o.removed_on_server = 0`);
  // The conditions most rows pass, tested after the ones a filter chose (a walk of the sort's index stops testing an
  // entry at its first failed condition: the chosen ones fail most entries of a sparse list first).
  const most: Sql[] = [];
  // Archived by Trakkr, or Not a fit by the user: out of the list unless asked for (choosing the Not a fit stage asks).
  if (!f.includeArchived) most.push(f.stage === 'Not a fit' ? sql`o.archived = 0` : sql`o.archived = 0 AND (o.stage IS NULL OR o.stage != 'Not a fit')`);
  if (f.type !== undefined) where.push(sql`o.opportunity_type = ${f.type}`);
  // Trakkr's own status (the service's data; the user's triage is the stage).
  if (f.status !== undefined) where.push(sql`o.status = ${f.status}`);
  if (f.difficulty !== undefined) where.push(sql`o.difficulty = ${f.difficulty}`);
  if (f.domain !== undefined && f.domain.trim() !== '') where.push(sql`instr(lower(o.domain), lower(${f.domain.trim()})) > 0`);
  if (f.hasContacts === true) where.push(sql`o.contact_count > 0`);
  if (f.hasContacts === false) where.push(sql`o.contact_count = 0`);
  if (f.catchAll === 'only') where.push(sql`o.catch_all_count > 0`);
  if (f.catchAll === 'exclude') where.push(sql`o.catch_all_count = 0`);
  if (f.starred) where.push(sql`o.starred = 1`);
  // Snoozed ones leave the list until their date (the Snoozed view shows them).
  if (f.view === 'snoozed') where.push(sql`o.snoozed_until > ${days.today}`);
  else most.push(sql`(o.snoozed_until IS NULL OR o.snoozed_until <= ${days.today})`);
  if (f.stage !== undefined) where.push(f.stage === 'New' ? sql`o.stage IS NULL` : sql`o.stage = ${f.stage}`);
  where.push(...most);
  // Follow-ups due: contacted long enough ago, no follow-up yet (the stage says so), no reply.
  // Found from the brand's triage rows (few) by (brand, id), so the list still walks its sort index alone, never the table row by row.
  // A follow-up needs someone to write to: one with every address on the do-not-contact list is not due.
  if (f.view === 'due') {
    // The triage rows that may be due: as a set of rowids the list tests (`in`), or, for a count that
    // starts from them (dueTriage: the caller's FROM is `triage td CROSS JOIN opportunities o`), as `td` itself;
    // or (`set`, what a list prepares) the due rowids worked out once into temp.due_rowids (dueRowids below).
    if (opts.dueFrom === 'set') where.push(sql`o.stage = 'Contacted' AND o.rowid IN temp.due_rowids`);
    else {
      const rows =
        opts.dueFrom === 'td'
          ? sql`${dueTriage(f.brandId, days)} AND o.id = td.opportunity_id`
          : sql`o.rowid IN (SELECT oi.rowid FROM triage td CROSS JOIN opportunities oi WHERE ${dueTriage(f.brandId, days)} AND oi.brand_key = ${bk} AND oi.id = td.opportunity_id)`;
      where.push(sql`o.stage = 'Contacted' AND ${rows} AND ${dueHasAddress}`);
    }
  }
  if (f.alreadyPitched === true) where.push(sql`o.rowid IN temp.pitched_rowids`);
  if (f.alreadyPitched === false) where.push(sql`o.rowid NOT IN temp.pitched_rowids`);
  // A selection: its rowids found by (brand, id) first, so the list tests them in its sort index alone (testing `o.id` read the table row by row).
  if (f.ids !== undefined) {
    where.push(
      sql`o.rowid IN (SELECT oi.rowid FROM json_each(${JSON.stringify(f.ids)}) j CROSS JOIN opportunities oi WHERE oi.brand_key = ${bk} AND oi.id = j.value)`,
    );
  }
  const q = f.search === undefined ? null : ftsQuery(f.search);
  // `+o.rowid`: the rowid is only tested against the matches, never used to look rows up one by one.
  if (q && search !== 'joined')
    where.push(
      sql`${search === 'drive' ? sql`o.rowid` : sql`+o.rowid`} IN ${hits ?? sql`(SELECT rowid FROM opportunity_search WHERE opportunity_search MATCH ${q})`}`,
    );
  // An address typed out finds that address (its words alone would also find others at the same outlet).
  for (const address of addressesIn(f.search ?? '')) {
    where.push(
      sql`EXISTS (SELECT 1 FROM contacts c WHERE c.opportunity_rowid = o.rowid AND c.identity LIKE ${address.replace(/[\\%_]/g, '\\$&') + '%'} ESCAPE '\\')`,
    );
  }
  return { from: withTriage(f.brandId), where: sqlJoin(where, sql` AND `) };
}

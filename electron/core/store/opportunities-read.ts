// Reading the opportunities: the list with every filter the UI offers, counts
// for the filter chips, and one opportunity with its contacts and the user's triage.
import type { Opportunity } from '../../../shared/api/schemas';
import type { Contact } from '../../../shared/contacts';
import { STATUSES } from '../../../shared/domain';
import { STAGES } from '../../../shared/pipeline';
import type { ContactWarning, ListFilter, ListItem, OpportunityDetail, Status } from '../../../shared/model';
import type { FieldTable } from '../../../shared/opportunity-fields';
import type { BrandKeys } from './brand-keys';
import { listColumns, listItemMapper } from './opportunity-columns';
import {
  doNotContactCount,
  filterSql,
  ftsQuery,
  keysetAfter,
  orderBy,
  pitchedAt,
  contactedAddress,
  SORTS,
  withTriage,
  type After,
  type FilterSql,
  type PipelineDays,
} from './opportunity-filter';
import type { DerivedTables } from './derived-tables';

/** A search with fewer matches than this starts from them; one with more walks the sort's index. */
const FEW_MATCHES = 2000;
import { sql, sqlJoin, type Sql } from './sql';
import { unpackRecord } from './record-codec';
import type { Statements } from './statements';
import { toContact, type StoredContact } from './contacted-addresses';

type ContactRow = StoredContact;

export interface ChipCounts {
  status: Record<string, number>;
  type: Record<string, number>;
  difficulty: Record<string, number>;
  stage: Record<string, number>;
  total: number;
}

/** A page of the list, and where the next one starts (null at the end). */
export interface ListPage {
  items: ListItem[];
  next: After | null;
}

export class OpportunityReader {
  private readonly toItem: (row: Record<string, unknown>) => ListItem;
  /** A list item's columns: the stored fields the table shows, then the user's triage. */
  private readonly itemColumns: Sql;

  constructor(
    private readonly statements: Statements,
    private readonly keys: BrandKeys,
    fields: FieldTable,
    private readonly derived: DerivedTables,
    private readonly days: () => PipelineDays,
  ) {
    this.toItem = listItemMapper<ListItem>(fields, ['removed_on_server', 'starred']);
    this.itemColumns = sql`${listColumns(fields)}, COALESCE(o.local_status, o.status) AS status, o.removed_on_server,
      o.starred AS starred, COALESCE(t.note, '') AS note, t.contacted_at, t.exported_at, o.stage, o.snoozed_until, t.followed_up_at`;
  }

  /**
   * FROM and WHERE for a filter, shared by the list, the counts and the
   * exports. A text search's matches are read once into a table; with few of
   * them (under 2,000) they drive the query, with many the sort's index does,
   * testing each row against them, so a page stops at its 200th row.
   */
  filter(f: ListFilter): FilterSql {
    const bk = this.keys.key(f.brandId);
    this.derived.pitched(f.brandId, bk);
    if (f.alreadyPitched !== undefined) this.derived.pitchedRowids(f.brandId, bk);
    const days = this.days();
    const q = f.search === undefined ? null : ftsQuery(f.search);
    if (!q) return filterSql(f, bk, days);
    const hits = this.derived.searchHits(q);
    return filterSql(f, bk, days, hits.size < FEW_MATCHES ? 'drive' : 'probe', hits.table);
  }

  /**
   * A page of the list. The page's rowids are picked from the opportunities
   * alone, in the sort's index order: after a row (keyset, what scrolling
   * asks) or at an offset (a jump). Only the page's rows are then read whole,
   * with the triage and the flags that need their own lookups.
   */
  listSql(f: ListFilter, page: { limit: number; offset: number; after?: After }): Sql {
    const w = this.filter(f);
    const sort = f.sort ?? 'priority';
    const order = orderBy(sort);
    const pick = (extra: Sql | null, offset: number) =>
      sql`SELECT o.rowid FROM opportunities o WHERE ${w.where}${extra ? sql` AND ${extra}` : sql``} ORDER BY ${order} LIMIT ${page.limit}${offset ? sql` OFFSET ${offset}` : sql``}`;
    let rowids: Sql;
    if (!page.after) rowids = pick(null, page.offset);
    else {
      const k = keysetAfter(sort, page.after);
      const arms = [k.rest, k.empties].filter((x): x is Sql => x !== null).map((c) => sql`SELECT rowid FROM (${pick(c, 0)})`);
      // No arm: a row past the end (a cursor with no value on a sort that has none empty).
      rowids = arms.length === 0 ? sql`SELECT NULL WHERE 0` : arms.length === 1 ? arms[0]! : sql`${sqlJoin(arms, sql` UNION ALL `)} LIMIT ${page.limit}`;
    }
    return sql`${w.with} SELECT o.rowid AS _rowid, ${SORTS[sort].key} AS _sort, ${this.itemColumns},
      ${pitchedAt(sql`o.rowid`)} AS pitched_at, ${doNotContactCount(sql`o.rowid`)} AS do_not_contact_count
      FROM ${w.from} WHERE o.rowid IN (${rowids}) ORDER BY ${order}`;
  }

  list(f: ListFilter, page: { limit?: number; offset?: number; after?: After } = {}): ListItem[] {
    return this.page(f, page).items;
  }

  page(f: ListFilter, page: { limit?: number; offset?: number; after?: After } = {}): ListPage {
    const limit = Math.max(1, Math.min(page.limit ?? 200, 5000));
    const offset = Math.max(0, page.offset ?? 0);
    const rows = this.statements.all<Record<string, unknown> & { _rowid: number; _sort: string | number | null }>(
      this.listSql(f, { limit, offset, after: page.after }),
    );
    const last = rows[rows.length - 1];
    return { items: rows.map(this.toItem), next: rows.length === limit && last ? { value: last._sort, rowid: last._rowid } : null };
  }

  countSql(f: ListFilter, cap?: number): Sql {
    const w = this.filter(f);
    const matches = cap ? sql`(SELECT 1 FROM opportunities o WHERE ${w.where} LIMIT ${cap})` : sql`opportunities o WHERE ${w.where}`;
    return sql`${w.with} SELECT count(*) AS n FROM ${matches}`;
  }

  /** How many match; with `cap`, counting stops there (a broad search need not scan every match). */
  count(f: ListFilter, cap?: number): number {
    return this.statements.get<{ n: number }>(this.countSql(f, cap))!.n;
  }

  /** Grouped by the chip index's own columns, in its order: one pass over it, no sort (the effective status is folded in JS). */
  countsSql(f: ListFilter): Sql {
    const w = this.filter({ ...f, status: undefined, type: undefined, difficulty: undefined });
    return sql`${w.with} SELECT o.archived, o.local_status, o.status AS server_status, o.opportunity_type AS type, o.difficulty AS difficulty, o.stage, count(*) AS n
        FROM opportunities o WHERE ${w.where} GROUP BY 1, 2, 3, 4, 5, 6`;
  }

  /** Counts per effective status, type and difficulty under the other filters (for the filter chips): one pass over one index. */
  counts(f: ListFilter): ChipCounts {
    return this.countsAndTotal(f).counts;
  }

  /**
   * The chip counts and, from the same rows, how many the whole filter holds:
   * the rows are grouped by the three columns the chips leave out of the
   * filter, so applying those three here (as filterSql does: the effective
   * status, exact text) gives the list's total without a second pass.
   */
  countsAndTotal(f: ListFilter): { counts: ChipCounts; total: number } {
    const rows = this.statements
      .all<{ local_status: string | null; server_status: string | null; type: string | null; difficulty: string | null; stage: string | null; n: number }>(
        this.countsSql(f),
      )
      .map((r) => ({ ...r, status: r.local_status ?? r.server_status }));
    let total = 0;
    for (const r of rows) {
      if (
        (f.status === undefined || r.status === f.status) &&
        (f.type === undefined || r.type === f.type) &&
        (f.difficulty === undefined || r.difficulty === f.difficulty)
      )
        total += r.n;
    }
    return { counts: this.chips(rows), total };
  }

  private chips(rows: readonly { status: string | null; type: string | null; difficulty: string | null; stage: string | null; n: number }[]): ChipCounts {
    const out: ChipCounts = {
      status: Object.fromEntries(STATUSES.map((s) => [s, 0])),
      type: {},
      difficulty: {},
      stage: Object.fromEntries(STAGES.map((s) => [s, 0])),
      total: 0,
    };
    for (const r of rows) {
      out.total += r.n;
      const s = r.status ?? 'New';
      out.status[s] = (out.status[s] ?? 0) + r.n;
      if (r.type) out.type[r.type] = (out.type[r.type] ?? 0) + r.n;
      if (r.difficulty) out.difficulty[r.difficulty] = (out.difficulty[r.difficulty] ?? 0) + r.n;
      const stage = r.stage ?? 'New';
      out.stage[stage] = (out.stage[stage] ?? 0) + r.n;
    }
    return out;
  }

  get(brandId: string, id: string): OpportunityDetail | null {
    const bk = this.keys.key(brandId);
    this.derived.pitched(brandId, bk);
    const row = this.statements.get<Record<string, unknown> & { _rowid: number; _packed: Uint8Array; _status: Status | null; _updated_at: string | null }>(
      sql`SELECT o.rowid AS _rowid, r.packed AS _packed, ${this.itemColumns},
        ${pitchedAt(sql`o.rowid`)} AS pitched_at, ${doNotContactCount(sql`o.rowid`)} AS do_not_contact_count, t.status AS _status, t.updated_at AS _updated_at
        FROM ${withTriage(brandId)} JOIN opportunity_records r ON r.rowid = o.rowid WHERE o.brand_key = ${bk} AND o.id = ${id}`,
    );
    if (!row) return null;
    const contacts = this.statements
      .all<ContactRow>(sql`SELECT raw, email, identity, domain, catch_all, valid FROM contacts WHERE opportunity_rowid = ${row._rowid} ORDER BY position`)
      .map(toContact);
    const item = this.toItem(row);
    return {
      item,
      record: JSON.parse(unpackRecord(row._packed)) as Opportunity & Record<string, unknown>,
      contacts,
      triage: {
        status: row._status ?? null,
        note: item.note,
        starred: item.starred,
        contacted_at: item.contacted_at,
        exported_at: item.exported_at,
        updated_at: row._updated_at,
      },
    };
  }

  /** How many of the filtered list each outlet (domain) has: the heads of the list grouped by publication. */
  domainCountsSql(f: ListFilter): Sql {
    const w = this.filter(f);
    return sql`${w.with} SELECT min(o.domain), count(*) FROM opportunities o WHERE ${w.where} GROUP BY o.domain COLLATE NOCASE`;
  }

  domainCounts(f: ListFilter): Record<string, number> {
    const rows = this.statements.tuples<[string, number]>(this.domainCountsSql(f));
    return Object.fromEntries(rows.map(([d, n]) => [d.toLowerCase(), n]));
  }

  /**
   * Contacts made since `since` (YYYY-MM-DD) of the same people (these
   * addresses) or the same outlet (the opportunity's domain), in other
   * opportunities of the brand, newest first: what is said before a pitch goes.
   */
  earlierContacts(brandId: string, id: string, addresses: readonly string[], since: string): ContactWarning[] {
    const bk = this.keys.key(brandId);
    const rows = this.statements.all<{ what: string; kind: 'person' | 'outlet'; opportunity_id: string; title: string; contacted_at: string }>(
      sql`SELECT * FROM (
          SELECT c2.email AS what, 'person' AS kind, o2.id AS opportunity_id, o2.title, t2.contacted_at
          FROM contacts c2 JOIN opportunities o2 ON o2.rowid = c2.opportunity_rowid
          JOIN triage t2 ON t2.brand_id = ${brandId} AND t2.opportunity_id = o2.id
          WHERE c2.brand_key = ${bk} AND c2.identity IN (SELECT value FROM json_each(${JSON.stringify(addresses.map((a) => a.trim().toLowerCase()))}))
            AND o2.id != ${id} AND t2.contacted_at >= ${since} AND ${contactedAddress(sql`t2`, sql`c2`, sql`o2`)}
          UNION ALL
          -- An outlet was pitched at only through its addresses: an opportunity there whose contact wrote to one of its addresses.
          SELECT o2.domain AS what, 'outlet' AS kind, o2.id AS opportunity_id, o2.title, t2.contacted_at
          FROM opportunities o JOIN opportunities o2 ON o2.brand_key = o.brand_key AND o2.removed_on_server IN (0, 1) AND o2.domain = o.domain COLLATE NOCASE AND o2.id != o.id
          JOIN triage t2 ON t2.brand_id = ${brandId} AND t2.opportunity_id = o2.id
          WHERE o.brand_key = ${bk} AND o.id = ${id} AND o.domain != '' AND t2.contacted_at >= ${since}
            AND EXISTS (SELECT 1 FROM contacts c3 WHERE c3.opportunity_rowid = o2.rowid AND c3.valid = 1 AND ${contactedAddress(sql`t2`, sql`c3`, sql`o2`)})
        ) ORDER BY contacted_at DESC, kind LIMIT 20`,
    );
    return rows.map((r) => ({
      ...r,
      message:
        r.kind === 'person'
          ? `${r.what} was contacted on ${r.contacted_at} for «${r.title}».`
          : `${r.what} was contacted on ${r.contacted_at} for «${r.title}» (the same outlet).`,
    }));
  }

  /** Parsed contacts of many opportunities at once, in their original order. */
  contactsFor(brandId: string, ids: readonly string[]): Map<string, Contact[]> {
    const out = new Map<string, Contact[]>(ids.map((id) => [id, []]));
    if (ids.length === 0) return out;
    const rows = this.statements.all<ContactRow & { id: string }>(
      sql`SELECT o.id, c.raw, c.email, c.identity, c.domain, c.catch_all, c.valid FROM opportunities o JOIN contacts c ON c.opportunity_rowid = o.rowid
        WHERE o.brand_key = ${this.keys.key(brandId)} AND o.id IN (SELECT value FROM json_each(${JSON.stringify(ids)})) ORDER BY o.rowid, c.position`,
    );
    for (const r of rows) out.get(r.id)?.push(toContact(r));
    return out;
  }

  exists(brandId: string, id: string): boolean {
    return this.statements.get(sql`SELECT 1 FROM opportunities WHERE brand_key = ${this.keys.key(brandId)} AND id = ${id}`) !== undefined;
  }
}

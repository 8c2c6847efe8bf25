// Reading the opportunities: the list with every filter the UI offers, counts
// for the filter chips, and one opportunity with its contacts and the user's triage.
import type { Opportunity } from '../../../shared/api/schemas';
import type { Contact } from '../../../shared/contacts';
import { STATUSES } from '../../../shared/domain';
import type { ListFilter, ListItem, OpportunityDetail, Status } from '../../../shared/model';
import type { FieldTable } from '../../../shared/opportunity-fields';
import type { BrandKeys } from './brand-keys';
import { listColumns, listItemMapper } from './opportunity-columns';
import { doNotContactCount, filterSql, ORDER_BY, pitchedAt, pitchedTable, withTriage, type FilterSql } from './opportunity-filter';
import { sql, type Sql } from './sql';
import type { Statements } from './statements';

interface ContactRow {
  raw: string;
  email: string;
  identity: string;
  domain: string;
  catch_all: number;
  valid: number;
}

const toContact = (c: ContactRow): Contact => ({ raw: c.raw, email: c.email, identity: c.identity, domain: c.domain, catchAll: c.catch_all === 1, valid: c.valid === 1 });

export interface ChipCounts {
  status: Record<string, number>;
  type: Record<string, number>;
  difficulty: Record<string, number>;
  total: number;
}

export class OpportunityReader {
  private readonly toItem: (row: Record<string, unknown>) => ListItem;
  /** A list item's columns: the stored fields the table shows, then the user's triage. */
  private readonly itemColumns: Sql;

  constructor(
    private readonly statements: Statements,
    private readonly keys: BrandKeys,
    fields: FieldTable,
  ) {
    this.toItem = listItemMapper<ListItem>(fields, ['removed_on_server', 'starred']);
    this.itemColumns = sql`${listColumns(fields)}, COALESCE(t.status, o.status) AS status, o.removed_on_server,
      COALESCE(t.starred, 0) AS starred, COALESCE(t.note, '') AS note, t.contacted_at, t.exported_at`;
  }

  /** FROM and WHERE for a filter, shared by the list, the counts and the exports. */
  filter(f: ListFilter): FilterSql {
    return filterSql(f, this.keys.key(f.brandId));
  }

  /**
   * A page of the list. The per-row flags that need their own lookups are
   * computed over the page only (an outer query after LIMIT), never over every
   * row a filter or sort touches.
   */
  listSql(f: ListFilter, page: { limit: number; offset: number }): Sql {
    const w = this.filter(f);
    const order = ORDER_BY[f.sort ?? 'priority'];
    const rows = sql`SELECT o.rowid AS _rowid, ${this.itemColumns} FROM ${w.from} WHERE ${w.where} ORDER BY ${order} LIMIT ${page.limit} OFFSET ${page.offset}`;
    // The page's pitched filter (if any) uses the outer WITH.
    return sql`${w.with} SELECT x.*, ${pitchedAt(sql`x._rowid`)} AS pitched_at, ${doNotContactCount(sql`x._rowid`)} AS do_not_contact_count
      FROM (${rows}) x ORDER BY ${order}`;
  }

  list(f: ListFilter, page: { limit?: number; offset?: number } = {}): ListItem[] {
    const limit = Math.max(1, Math.min(page.limit ?? 200, 5000));
    const offset = Math.max(0, page.offset ?? 0);
    return this.statements.all<Record<string, unknown>>(this.listSql(f, { limit, offset })).map(this.toItem);
  }

  /** How many match; with `cap`, counting stops there (a broad search need not scan every match). */
  count(f: ListFilter, cap?: number): number {
    const w = this.filter(f);
    const matches = cap ? sql`(SELECT 1 FROM ${w.from} WHERE ${w.where} LIMIT ${cap})` : sql`${w.from} WHERE ${w.where}`;
    return this.statements.get<{ n: number }>(sql`${w.with} SELECT count(*) AS n FROM ${matches}`)!.n;
  }

  /** Counts per effective status, type and difficulty under the other filters (for the filter chips). */
  counts(f: ListFilter): ChipCounts {
    const w = this.filter({ ...f, status: undefined, type: undefined, difficulty: undefined });
    const rows = this.statements.all<{ status: string | null; type: string | null; difficulty: string | null; n: number }>(
      sql`${w.with} SELECT COALESCE(t.status, o.status) AS status, o.opportunity_type AS type, o.difficulty AS difficulty, count(*) AS n
        FROM ${w.from} WHERE ${w.where} GROUP BY 1, 2, 3`,
    );
    const out: ChipCounts = { status: Object.fromEntries(STATUSES.map((s) => [s, 0])), type: {}, difficulty: {}, total: 0 };
    for (const r of rows) {
      out.total += r.n;
      const s = r.status ?? 'New';
      out.status[s] = (out.status[s] ?? 0) + r.n;
      if (r.type) out.type[r.type] = (out.type[r.type] ?? 0) + r.n;
      if (r.difficulty) out.difficulty[r.difficulty] = (out.difficulty[r.difficulty] ?? 0) + r.n;
    }
    return out;
  }

  get(brandId: string, id: string): OpportunityDetail | null {
    const bk = this.keys.key(brandId);
    const row = this.statements.get<Record<string, unknown> & { _rowid: number; _raw: string; _status: Status | null; _updated_at: string | null }>(
      sql`WITH ${pitchedTable(brandId, bk)} SELECT o.rowid AS _rowid, r.raw AS _raw, ${this.itemColumns},
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
      record: JSON.parse(row._raw) as Opportunity & Record<string, unknown>,
      contacts,
      triage: { status: row._status ?? null, note: item.note, starred: item.starred, contacted_at: item.contacted_at, exported_at: item.exported_at, updated_at: row._updated_at },
    };
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

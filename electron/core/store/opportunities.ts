// Opportunities in the cache, as one store: the sync's writes
// (opportunities-write.ts) and the list, counts and detail (opportunities-read.ts),
// both over the columns the field table (shared/opportunity-fields.ts) declares.
import type { Opportunity } from '../../../shared/api/schemas';
import type { Contact } from '../../../shared/contacts';
import type { ContactWarning, ListFilter, ListItem, OpportunityDetail } from '../../../shared/model';
import { OPPORTUNITY_FIELDS, type FieldTable } from '../../../shared/opportunity-fields';
import { BrandKeys } from './brand-keys';
import type { DB } from './db';
import { OpportunityReader, type ChipCounts, type ListPage } from './opportunities-read';
import { OpportunityWriter, type UpsertResult } from './opportunities-write';
import type { After, FilterSql, PipelineDays } from './opportunity-filter';
import { addDays } from '../../../shared/calendar';
import { PIPELINE_DEFAULTS } from '../../../shared/pipeline';
import type { Sql, SqlValue } from './sql';
import { DerivedTables } from './derived-tables';
import { Statements } from './statements';

export { LIST_SORTS, type ListFilter, type ListItem, type ListSort, type OpportunityDetail, type Triage } from '../../../shared/model';
export { ftsQuery } from './opportunity-filter';
export type { UpsertResult } from './opportunities-write';

const plain = (q: Sql) => ({ sql: q.text, params: q.params });

/** Today on this computer's calendar, YYYY-MM-DD. */
export const localToday = (now = new Date()): string =>
  `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;

/** The pipeline's days for `today`, with follow-ups due `followUpAfterDays` after contact. */
export const pipelineDays = (today: string, followUpAfterDays: number): PipelineDays => ({ today, dueOnOrBefore: addDays(today, -followUpAfterDays) });

export type { After } from './opportunity-filter';
export type { ListPage } from './opportunities-read';

export class OpportunityStore {
  private readonly keys: BrandKeys;
  private readonly reader: OpportunityReader;
  private readonly writer: OpportunityWriter;

  /** The days the pipeline's filters use: the app sets its clock and settings here (default: today, follow-ups after 3 days). */
  days: () => PipelineDays = () => pipelineDays(localToday(), PIPELINE_DEFAULTS.followUpAfterDays);

  /** `fields`: the field table the columns follow (a test may pass one with a field more). */
  constructor(db: DB, fields: FieldTable = OPPORTUNITY_FIELDS) {
    const statements = new Statements(db);
    this.keys = new BrandKeys(statements);
    this.reader = new OpportunityReader(statements, this.keys, fields, new DerivedTables(db), () => this.days());
    this.writer = new OpportunityWriter(statements, this.keys, fields);
  }

  /** The brand's small integer key; created on first write. -1 for a brand never written (matches nothing). */
  key(brandId: string, create = false): number {
    return this.keys.key(brandId, create);
  }

  /**
   * Write one page of server records. Call inside a transaction (sync writes
   * the page and its progress together). Idempotent: re-applying a page
   * changes nothing; a record seen twice is stored once.
   */
  upsertPage(brandId: string, records: Opportunity[], runId: number, now: string): UpsertResult {
    return this.writer.upsertPage(brandId, records, runId, now);
  }

  /** After a complete pass: every record of the brand this run did not see is marked removed (kept, with its triage). */
  markUnseenRemoved(brandId: string, runId: number, now: string): number {
    return this.writer.markUnseenRemoved(brandId, runId, now);
  }

  /** FROM and WHERE for a filter, shared by the list, the counts and the export queries. */
  filterSql(f: ListFilter): FilterSql {
    return this.reader.filter(f);
  }

  list(f: ListFilter, page: { limit?: number; offset?: number; after?: After } = {}): ListItem[] {
    return this.reader.list(f, page);
  }

  /** A page of the list and where the next one starts: after a row (keyset) or at an offset. */
  page(f: ListFilter, page: { limit?: number; offset?: number; after?: After } = {}): ListPage {
    return this.reader.page(f, page);
  }

  /** The SQL the list runs and its parameters, for query-plan tests. */
  listSql(f: ListFilter, page: { offset?: number; after?: After } = {}): { sql: string; params: readonly SqlValue[] } {
    return plain(this.reader.listSql(f, { limit: 200, offset: page.offset ?? 0, after: page.after }));
  }

  /** The SQL of the total and of the chip counts, for query-plan tests. */
  countSql(f: ListFilter): { sql: string; params: readonly SqlValue[] } {
    return plain(this.reader.countSql(f));
  }

  countsSql(f: ListFilter): { sql: string; params: readonly SqlValue[] } {
    return plain(this.reader.countsSql(f));
  }

  /** How many match; with `cap`, counting stops there (a broad search need not scan every match). */
  count(f: ListFilter, cap?: number): number {
    return this.reader.count(f, cap);
  }

  /** Counts per effective status, type and difficulty under the other filters (for the filter chips). */
  counts(f: ListFilter): ChipCounts {
    return this.reader.counts(f);
  }

  /** The chip counts and the filter's total, in one pass (what the list pane asks for when a filter changes). */
  countsAndTotal(f: ListFilter): { counts: ChipCounts; total: number } {
    return this.reader.countsAndTotal(f);
  }

  get(brandId: string, id: string): OpportunityDetail | null {
    return this.reader.get(brandId, id);
  }

  /** Parsed contacts of many opportunities at once, in their original order. */
  contactsFor(brandId: string, ids: readonly string[]): Map<string, Contact[]> {
    return this.reader.contactsFor(brandId, ids);
  }

  domainCounts(f: ListFilter): Record<string, number> {
    return this.reader.domainCounts(f);
  }

  /** The SQL of the counts per outlet, for query-plan tests. */
  domainCountsSql(f: ListFilter): { sql: string; params: readonly SqlValue[] } {
    return plain(this.reader.domainCountsSql(f));
  }

  /** Earlier contacts of the same people or outlet since a day (see the reader). */
  earlierContacts(brandId: string, id: string, addresses: readonly string[], since: string): ContactWarning[] {
    return this.reader.earlierContacts(brandId, id, addresses, since);
  }

  exists(brandId: string, id: string): boolean {
    return this.reader.exists(brandId, id);
  }
}

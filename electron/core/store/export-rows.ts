// The rows an export writes, streamed from SQLite (never the whole set in
// memory): one per distinct address, one per (opportunity, address) pair,
// or one per opportunity. Filters are the list's; do-not-contact, catch-all
// and already-contacted rules are applied here. Reads only: the export date
// is the user's triage (triage.ts).
import type { ListFilter } from '../../../shared/model';
import type { OpportunityField } from '../../../shared/opportunity-fields';
import type { DB } from './db';
import type { ReadableDB } from './database';
import { someFieldsSql, type SomeFields } from './opportunity-columns';
import { contactBlocked, contactPitched, triageOf } from './opportunity-filter';
import { slot, sql, sqlJoin, type Sql } from './sql';
import { BlockReader } from './opportunity-blocks';

/** The list's FROM and WHERE for a filter, its derived tables prepared (store/opportunity-list.ts). */
type PrepareFilter = (f: ListFilter) => { from: Sql; where: Sql };
/** Record the export date on these opportunities, in the user's triage (store/triage.ts). */
type MarkExported = (brandId: string, ids: readonly string[], at: string, fileName?: string) => number;

export interface ContactRowOptions {
  /** One row per distinct address (the highest-priority opportunity wins), or per (opportunity, address) pair. */
  perPair?: boolean;
  excludeCatchAll?: boolean;
  onlyCatchAll?: boolean;
  /** Leave out addresses already marked contacted or exported in any opportunity of the brand. */
  skipContacted?: boolean;
}

/** One address of one opportunity, with the opportunity's fields the export asked for. */
export interface ContactRow extends SomeFields {
  email: string;
  catch_all: number;
  identity: string;
  opportunity_rowid: number;
  opportunity_id: string;
  /** Trakkr's status. */
  status: string | null;
  /** The user's pipeline fields and drafts of this opportunity. */
  pipeline: PipelineFields;
}

/** What the pipeline adds to an export row: the local stage, the dates, the user's drafts (null: none saved). */
export interface PipelineFields {
  stage: string | null;
  stage_reason: string | null;
  snoozed_until: string | null;
  followed_up_at: string | null;
  /** The addresses the pitch went to, as a JSON array (null: none recorded). */
  contacted_addresses: string | null;
  /** The subject the pitch went out with (the follow-up replies to it). */
  contacted_subject: string | null;
  pitch_draft: { subject: string; body: string } | null;
  followup_draft: { subject: string; body: string } | null;
}

/** The pipeline columns of a query over `o` and its triage `t` (the drafts are read apart: draftsJoin, or a batch's own query). */
const TRIAGE_COLUMNS = sql`o.stage, t.stage_reason, o.snoozed_until, t.followed_up_at, t.contacted_addresses, t.contacted_subject`;
/** The same with the drafts `dp` (pitch) and `df` (follow-up) of draftsJoin. */
const PIPELINE_COLUMNS = sql`${TRIAGE_COLUMNS}, dp.subject AS dp_subject, dp.body AS dp_body, df.subject AS df_subject, df.body AS df_body`;
const draftsJoin = (brandId: string | Sql): Sql =>
  sql`LEFT JOIN drafts dp ON dp.brand_id = ${brandId} AND dp.opportunity_id = o.id AND dp.kind = 'pitch'
    LEFT JOIN drafts df ON df.brand_id = ${brandId} AND df.opportunity_id = o.id AND df.kind = 'followup'`;
/** How many values TRIAGE_COLUMNS and PIPELINE_COLUMNS give, in their order. */
const TRIAGE_WIDTH = 6;
const PIPELINE_WIDTH = 10;
type Text = string | null;
type Draft = { subject: string; body: string };
/** A batch row of opportunityRows: the rowid, status, note, contacted_at, exported_at, then TRIAGE_COLUMNS in their order. */
type BatchRow = [number, Text, string, Text, Text, ...Text[]];
/** The pipeline's fields from a row's values, TRIAGE_COLUMNS starting at `at` (no object per row from SQLite), with its drafts. */
function pipelineWith(row: readonly unknown[], at: number, pitch: Draft | null, followup: Draft | null): PipelineFields {
  const [stage, stageReason, snoozedUntil, followedUpAt, contactedAddresses, contactedSubject] = row.slice(at, at + TRIAGE_WIDTH) as Text[];
  return {
    stage: stage ?? null,
    stage_reason: stageReason ?? null,
    snoozed_until: snoozedUntil ?? null,
    followed_up_at: followedUpAt ?? null,
    contacted_addresses: contactedAddresses ?? null,
    contacted_subject: contactedSubject ?? null,
    pitch_draft: pitch,
    followup_draft: followup,
  };
}
const draftOf = (subject: unknown, body: unknown): Draft | null =>
  subject === null || subject === undefined ? null : { subject: subject as string, body: (body as Text) ?? '' };
/** The pipeline's fields from a row's values, PIPELINE_COLUMNS starting at `at`. */
function pipelineAt(row: readonly unknown[], at: number): PipelineFields {
  const d = at + TRIAGE_WIDTH;
  return pipelineWith(row, at, draftOf(row[d], row[d + 1]), draftOf(row[d + 2], row[d + 3]));
}

export interface OpportunityRow {
  opportunity_rowid: number;
  /** The record's JSON as the server sent it (store/opportunity-blocks.ts). */
  json: string;
  status: string | null;
  note: string;
  contacted_at: string | null;
  exported_at: string | null;
  /** [email, catch_all] of each address that may be exported, in the record's order. */
  addresses: [string, number][];
  pipeline: PipelineFields;
}

/** `blocked`: false when the do-not-contact list is empty (nothing to look up for each address). */
function contactConditions(o: ContactRowOptions, blocked = true): Sql {
  const parts = [sql`c.valid = 1`, ...(blocked ? [sql`NOT ${contactBlocked}`] : [])];
  if (o.excludeCatchAll) parts.push(sql`c.catch_all = 0`);
  if (o.onlyCatchAll) parts.push(sql`c.catch_all = 1`);
  if (o.skipContacted) parts.push(sql`NOT ${contactPitched}`);
  return sqlJoin(parts, sql` AND `);
}

export class ExportRowStore {
  /**
   * `read`: the read-only face, for every read (the rows, the preview's
   * counts); `db`: the connection, only for markExported's write transaction.
   */
  constructor(
    private readonly read: ReadableDB,
    private readonly db: DB,
    private readonly prepare: PrepareFilter,
    private readonly mark: MarkExported,
  ) {}

  /**
   * Contact rows, streamed. The dedupe (highest priority wins) and the order
   * are worked out on narrow rows first (opportunity and position only), then
   * each wide row is read by its key: memory stays flat however many pitches.
   */
  *contactRows(filter: ListFilter, opts: ContactRowOptions = {}, fields: readonly OpportunityField[] = []): IterableIterator<ContactRow> {
    const w = this.prepare(filter);
    const narrow = sql`SELECT c.opportunity_rowid AS rowid, c.position AS position, o.priority_score AS prio,
        row_number() OVER (PARTITION BY c.identity ORDER BY o.priority_score DESC NULLS LAST, o.fit_score DESC NULLS LAST, o.rowid) AS rank
      FROM ${w.from} JOIN contacts c ON c.opportunity_rowid = o.rowid
      WHERE ${w.where} AND ${contactConditions(opts)}`;
    const keys = this.read.tuples<[number, number]>(
      sql`SELECT rowid, position FROM (${narrow}) ${opts.perPair ? sql`` : sql`WHERE rank = 1`} ORDER BY prio DESC NULLS LAST, rowid, position`,
    );
    // The keys come ordered by opportunity then position: an opportunity's record is read once for all its addresses.
    const records = new BlockReader(this.read, 1);
    const some = someFieldsSql(fields, (rowid) => records.json(rowid));
    // Prepared once per export, run once per address.
    const wide = this.read
      .prepareOnce(
        sql`SELECT c.email, c.catch_all, c.identity, o.rowid, o.id, o.status, ${PIPELINE_COLUMNS}${fields.length > 0 ? sql`, ${some.select}` : sql``}
          FROM contacts c JOIN opportunities o ON o.rowid = c.opportunity_rowid
          ${triageOf(slot)} ${draftsJoin(slot)} WHERE c.opportunity_rowid = ${slot} AND c.position = ${slot}`,
      )
      .raw(true);
    for (const [rowid, position] of keys) {
      const row = wide.get(filter.brandId, filter.brandId, filter.brandId, rowid, position) as unknown[] | undefined;
      if (!row) continue;
      const [email, catchAll, identity, opportunityRowid, opportunityId, status, ...rest] = row as [
        string,
        number,
        string,
        number,
        string,
        string | null,
        ...unknown[],
      ];
      const values = rest.slice(PIPELINE_WIDTH);
      yield {
        email,
        catch_all: catchAll,
        identity,
        opportunity_rowid: opportunityRowid,
        opportunity_id: opportunityId,
        status,
        pipeline: pipelineAt(rest, 0),
        ...some.read(values, opportunityRowid),
      };
    }
  }

  /**
   * One row per opportunity, streamed in priority order. The order is worked
   * out on rowids alone (a sort of narrow rows), then the wide rows are read
   * a batch at a time by rowid: no sort ever holds a record, so memory stays
   * flat, and SQLite does the lookups of a batch in one statement.
   */
  *opportunityRows(filter: ListFilter, opts: ContactRowOptions = {}): IterableIterator<OpportunityRow> {
    const w = this.prepare(filter);
    const records = new BlockReader(this.read, 1);
    // The rowids as plain numbers (a row object each would outlive the young generation: memory until a full collection).
    const order: number[] = [];
    for (const r of this.read.iterate<{ rowid: number }>(sql`SELECT o.rowid FROM opportunities o WHERE ${w.where} ORDER BY o.priority_score DESC, o.rowid`))
      order.push(r.rowid);
    // The same texts for every batch (only the rowids differ): prepared once, by the statement cache.
    // As arrays of values (no object per row from SQLite): [rowid, status, note, contacted_at, exported_at, ...TRIAGE_COLUMNS].
    const batch = (ids: string) =>
      this.read.tuples<BatchRow>(
        sql`SELECT o.rowid, o.status, COALESCE(t.note, ''), t.contacted_at, t.exported_at, ${TRIAGE_COLUMNS}
        FROM ${w.from} WHERE o.rowid IN (SELECT value FROM json_each(${ids}))`,
      );
    // Is anything there to look up? A question of one step each batch, where a lookup for each row of an empty
    // drafts table or do-not-contact list cost a tenth of the export (checked each batch: either may change between two).
    const any = (q: Sql) => this.read.tuples<[number]>(sql`SELECT EXISTS (${q})`)[0]![0] === 1;
    // The batch's drafts, [pitch, follow-up] by rowid: one lookup for each row (both kinds), none when the brand has none.
    const draftsOf = (ids: string) => {
      const out = new Map<number, [Draft | null, Draft | null]>();
      if (!any(sql`SELECT 1 FROM drafts WHERE brand_id = ${filter.brandId}`)) return out;
      for (const [rowid, kind, subject, body] of this.read.tuples<[number, string, string, Text]>(
        sql`SELECT o.rowid, d.kind, d.subject, d.body FROM opportunities o JOIN drafts d ON d.brand_id = ${filter.brandId} AND d.opportunity_id = o.id
          WHERE o.rowid IN (SELECT value FROM json_each(${ids}))`,
      )) {
        const both = out.get(rowid) ?? [null, null];
        both[kind === 'pitch' ? 0 : 1] = draftOf(subject, body);
        out.set(rowid, both);
      }
      return out;
    };
    // The batch's addresses that may be exported, each opportunity's in their order.
    const addressesOf = (ids: string) => {
      const out = new Map<number, [string, number][]>();
      const blocked = any(sql`SELECT 1 FROM do_not_contact`);
      for (const [rowid, email, catchAll] of this.read.tuples<[number, string, number]>(
        sql`SELECT c.opportunity_rowid, c.email, c.catch_all FROM contacts c
          WHERE c.opportunity_rowid IN (SELECT value FROM json_each(${ids})) AND ${contactConditions(opts, blocked)} ORDER BY c.opportunity_rowid, c.position`,
      )) {
        const list = out.get(rowid);
        if (list) list.push([email, catchAll]);
        else out.set(rowid, [[email, catchAll]]);
      }
      return out;
    };
    // Batches small enough that a batch's rows are gone before the young generation's next collection but one:
    // with 1,000, every batch was moved to the old generation (60 MB more of the process by the end at 100,000).
    const SIZE = 100;
    for (let i = 0; i < order.length; i += SIZE) {
      const ids = order.slice(i, i + SIZE);
      const asJson = JSON.stringify(ids);
      // Between two batches the export yields (its writer, its progress) and the core answers the window: a list of
      // another brand refills this connection's pitched set for that brand. Prepared again for this one (a key
      // compared when nothing changed), so "skip already pitched" keeps meaning this brand's pitches.
      if (opts.skipContacted && i > 0) this.prepare(filter);
      const rows = new Map<number, BatchRow>();
      for (const r of batch(asJson)) rows.set(r[0], r);
      const addresses = addressesOf(asJson);
      const drafts = draftsOf(asJson);
      for (const id of ids) {
        const r = rows.get(id);
        if (!r) continue;
        // Read in the export's order: records near each other in it share blocks (store/opportunity-blocks.ts).
        const [, status, note, contactedAt, exportedAt] = r;
        const both = drafts.get(id);
        yield {
          opportunity_rowid: id,
          json: records.json(id) ?? '{}',
          status,
          note,
          contacted_at: contactedAt,
          exported_at: exportedAt,
          addresses: addresses.get(id) ?? [],
          pipeline: pipelineWith(r, 5, both?.[0] ?? null, both?.[1] ?? null),
        };
      }
    }
  }

  /** How many valid addresses (each once) of the opportunities `filter` selects, within the catch-all choice, are on the do-not-contact list. */
  blockedAddresses(filter: ListFilter, opts: ContactRowOptions = {}): number {
    const w = this.prepare(filter);
    const kind = opts.excludeCatchAll ? sql` AND c.catch_all = 0` : opts.onlyCatchAll ? sql` AND c.catch_all = 1` : sql``;
    return this.read.tuples<[number]>(
      sql`SELECT count(DISTINCT c.identity) FROM ${w.from} JOIN contacts c ON c.opportunity_rowid = o.rowid
        WHERE ${w.where} AND c.valid = 1 AND ${contactBlocked}${kind}`,
    )[0]![0];
  }

  /** Record the export date on each exported opportunity, in the user's triage. */
  /** `when` is read once the write lock is held (a wait for another process never dates the mark before the write it came after); returns it with the count. */
  markExported(brandId: string, rowids: Iterable<number>, when: () => string, fileName?: string): { at: string; marked: number } {
    return this.db
      .transaction(() => {
        const at = when();
        const ids: string[] = [];
        for (const rowid of rowids) {
          const row = this.read.get<{ id: string }>(sql`SELECT id FROM opportunities WHERE rowid = ${rowid}`);
          if (row) ids.push(row.id);
        }
        return { at, marked: this.mark(brandId, ids, at, fileName) };
      })
      .immediate();
  }
}

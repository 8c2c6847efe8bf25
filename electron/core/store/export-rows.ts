// The rows an export writes, streamed from SQLite (never the whole set in
// memory): one per distinct address, one per (opportunity, address) pair,
// or one per opportunity. Filters are the list's; do-not-contact, catch-all
// and already-contacted rules are applied here.
import type { DB } from './db';
import type { ListFilter, OpportunityStore } from './opportunities';

export interface ContactRowOptions {
  /** One row per distinct address (the highest-priority opportunity wins), or per (opportunity, address) pair. */
  perPair?: boolean;
  excludeCatchAll?: boolean;
  onlyCatchAll?: boolean;
  /** Leave out addresses already marked contacted or exported in any opportunity of the brand. */
  skipContacted?: boolean;
}

export interface ContactRow {
  email: string;
  catch_all: number;
  identity: string;
  opportunity_id: string;
  opportunity_rowid: number;
  author_name: string | null;
  domain: string;
  url: string | null;
  title: string;
  opportunity_type: string | null;
  priority_score: number | null;
  fit_score: number | null;
  difficulty: string | null;
  status: string | null;
  pitch_subject: string | null;
  pitch_body: string | null;
}

export interface OpportunityRow {
  opportunity_rowid: number;
  raw: string;
  status: string | null;
  note: string;
  contacted_at: string | null;
  exported_at: string | null;
  /** JSON array of [email, catch_all] for the addresses that may be exported. */
  addresses: string;
}

const BLOCKED = `EXISTS (SELECT 1 FROM do_not_contact d WHERE (d.kind = 'address' AND d.value = c.identity) OR (d.kind = 'domain' AND (c.domain = d.value OR c.domain LIKE '%.' || d.value)))`;

/** Uses the `pitched` table of addresses contacted or exported before (the WITH from filterSql). */
const CONTACTED = `EXISTS (SELECT 1 FROM pitched p WHERE p.identity = c.identity)`;

export class ExportRowStore {
  constructor(
    private readonly db: DB,
    private readonly opportunities: OpportunityStore,
  ) {}

  private contactConditions(o: ContactRowOptions): string {
    const parts = ['c.valid = 1', `NOT ${BLOCKED}`];
    if (o.excludeCatchAll) parts.push('c.catch_all = 0');
    if (o.onlyCatchAll) parts.push('c.catch_all = 1');
    if (o.skipContacted) parts.push(`NOT ${CONTACTED}`);
    return parts.join(' AND ');
  }

  /**
   * Contact rows, streamed. The dedupe (highest priority wins) and the order
   * are worked out on narrow rows first (opportunity and position only), then
   * each wide row is read by its key: memory stays flat however many pitches.
   */
  *contactRows(filter: ListFilter, opts: ContactRowOptions = {}): IterableIterator<ContactRow> {
    const w = this.opportunities.filterSql(filter);
    const narrow = `SELECT c.opportunity_rowid AS rowid, c.position AS position, o.priority_score AS prio,
        row_number() OVER (PARTITION BY c.identity ORDER BY o.priority_score DESC NULLS LAST, o.fit_score DESC NULLS LAST, o.rowid) AS rank
      FROM ${w.from} JOIN contacts c ON c.opportunity_rowid = o.rowid
      WHERE ${w.where} AND ${this.contactConditions(opts)}`;
    const keys = this.db
      .prepare(`${w.with} SELECT rowid, position FROM (${narrow}) ${opts.perPair ? '' : 'WHERE rank = 1'} ORDER BY prio DESC NULLS LAST, rowid, position`)
      .raw()
      .all(w.params) as [number, number][];
    const wide = this.db.prepare(
      `SELECT c.email, c.catch_all, c.identity, o.id AS opportunity_id, o.rowid AS opportunity_rowid, o.author_name, o.domain, o.url, o.title,
        o.opportunity_type, o.priority_score, o.fit_score, o.difficulty, COALESCE(t.status, o.status) AS status,
        json_extract(r.raw, '$.pitch_subject') AS pitch_subject, json_extract(r.raw, '$.pitch_body') AS pitch_body
      FROM contacts c JOIN opportunities o ON o.rowid = c.opportunity_rowid JOIN opportunity_records r ON r.rowid = o.rowid
      LEFT JOIN triage t ON t.brand_id = @brand AND t.opportunity_id = o.id
      WHERE c.opportunity_rowid = @rowid AND c.position = @position`,
    );
    for (const [rowid, position] of keys) {
      const row = wide.get({ brand: filter.brandId, rowid, position }) as ContactRow | undefined;
      if (row) yield row;
    }
  }

  opportunityRows(filter: ListFilter, opts: ContactRowOptions = {}): IterableIterator<OpportunityRow> {
    const w = this.opportunities.filterSql(filter);
    const sql = `${w.with} SELECT o.rowid AS opportunity_rowid, r.raw, COALESCE(t.status, o.status) AS status, COALESCE(t.note, '') AS note, t.contacted_at, t.exported_at,
        (SELECT COALESCE(json_group_array(json_array(c.email, c.catch_all)), '[]') FROM (SELECT * FROM contacts c WHERE c.opportunity_rowid = o.rowid AND ${this.contactConditions(opts)} ORDER BY c.position) c) AS addresses
      FROM ${w.from} JOIN opportunity_records r ON r.rowid = o.rowid
      WHERE ${w.where} ORDER BY o.priority_score DESC NULLS LAST, o.rowid`;
    return this.db.prepare(sql).iterate(w.params) as IterableIterator<OpportunityRow>;
  }

  /** Record the export date on each exported opportunity, in the user's triage. */
  markExported(brandId: string, rowids: Iterable<number>, when: string): number {
    const ids = this.db.prepare('SELECT id FROM opportunities WHERE rowid = ?');
    const up = this.db.prepare(
      `INSERT INTO triage (brand_id, opportunity_id, exported_at, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (brand_id, opportunity_id) DO UPDATE SET exported_at = excluded.exported_at, updated_at = excluded.updated_at`,
    );
    let n = 0;
    this.db.transaction(() => {
      for (const rowid of rowids) {
        const row = ids.get(rowid) as { id: string } | undefined;
        if (!row) continue;
        up.run(brandId, row.id, when, when);
        n++;
      }
    })();
    return n;
  }
}

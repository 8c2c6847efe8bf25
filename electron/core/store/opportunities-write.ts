// Sync's writes to the opportunities (server data only, never the user's triage):
// pages of records upserted with contacts and search document; unseen ones marked removed.
import type { Statement } from 'better-sqlite3';
import { hash } from 'node:crypto';
import type { Opportunity } from '../../../shared/api/schemas';
import { parseContacts } from '../../../shared/contacts';
import { fieldValue, type FieldTable, type OpportunityField } from '../../../shared/opportunity-fields';
import { MIRRORED_FIELDS } from '../../../shared/triage-fields';
import { brandKey, ensureBrandKey } from './brand-keys';
import type { WritableDB } from './database';
import { columnPlan, recordValues, searchValues, upsertSql, type ColumnPlan } from './opportunity-columns';
import { BlockWriter } from './opportunity-blocks';
import { identifier, slot, sql, sqlJoin } from './sql';

export interface UpsertResult {
  added: number;
  changed: number;
  unchanged: number;
  skipped: number;
  warnings: string[];
}

export class OpportunityWriter {
  private readonly plan: ColumnPlan;
  private readonly idField: OpportunityField;
  /** Where the id is among the plan's values (an update sets every other column). */
  private readonly idAt: number;
  private readonly find: Statement<unknown[], unknown>;
  private readonly records: BlockWriter;
  private readonly insert: Statement<unknown[], unknown>;
  private readonly update: Statement<unknown[], unknown>;
  private readonly touch: Statement<unknown[], unknown>;
  private readonly delContacts: Statement<unknown[], unknown>;
  private readonly addContact: Statement<unknown[], unknown>;
  private readonly delSearch: Statement<unknown[], unknown>;
  private readonly addSearch: Statement<unknown[], unknown>;
  private readonly triageOf: Statement<unknown[], unknown>;
  private readonly mirror: Statement<unknown[], unknown>;

  private readonly keys = new Map<string, number>();

  constructor(
    private readonly db: WritableDB,
    fields: FieldTable = db.fields,
  ) {
    this.plan = columnPlan(fields);
    this.idAt = this.plan.stored.findIndex((f) => f.column === 'key');
    if (this.idAt < 0) throw new Error('The field table has no key column.');
    this.idField = this.plan.stored[this.idAt]!;
    // Prepared once, run for every record: each ${slot} is bound at each run.
    const once = db.prepareOnce.bind(db);
    const upsert = upsertSql(this.plan);
    this.find = once(sql`SELECT rowid, raw_hash, removed_on_server FROM opportunities WHERE brand_key = ${slot} AND id = ${slot}`);
    this.records = new BlockWriter(db);
    this.insert = once(upsert.insert);
    this.update = once(upsert.update);
    this.touch = once(sql`UPDATE opportunities SET seen_in_run = max(seen_in_run, ${slot}) WHERE rowid = ${slot}`);
    this.delContacts = once(sql`DELETE FROM contacts WHERE opportunity_rowid = ${slot}`);
    // raw only where it is not the address itself (version 13: email holds it; readers take COALESCE(raw, email)).
    this.addContact = once(
      sql`INSERT INTO contacts (opportunity_rowid, position, brand_key, raw, email, identity, domain, catch_all, valid)
        VALUES (${slot}, ${slot}, ${slot}, ${slot}, ${slot}, ${slot}, ${slot}, ${slot}, ${slot})`,
    );
    this.delSearch = once(sql`DELETE FROM opportunity_search WHERE rowid = ${slot}`);
    this.addSearch = once(upsert.search);
    // The mirror of the user's triage (migration 4) for a new row whose triage came first (a recovered or imported record).
    const mirrored = MIRRORED_FIELDS.map((f) => identifier(f, MIRRORED_FIELDS));
    this.triageOf = once(sql`SELECT ${sqlJoin(mirrored, sql`, `)} FROM triage WHERE brand_id = ${slot} AND opportunity_id = ${slot}`).raw(true);
    this.mirror = once(
      sql`UPDATE opportunities SET ${sqlJoin(
        mirrored.map((f) => sql`${f} = ${slot}`),
        sql`, `,
      )} WHERE rowid = ${slot}`,
    );
  }

  /**
   * Write one page of server records. Call inside a transaction (sync writes
   * the page and its progress together). Idempotent: re-applying a page
   * changes nothing; a record seen twice is stored once.
   */
  upsertPage(brandId: string, records: Opportunity[], runId: number, now: string): UpsertResult {
    const result: UpsertResult = { added: 0, changed: 0, unchanged: 0, skipped: 0, warnings: [] };
    const bk = this.keyOf(brandId);
    for (const rec of records) {
      const r = rec as Record<string, unknown>;
      const id = fieldValue(this.idField, r);
      if (typeof id !== 'string') {
        result.skipped++;
        result.warnings.push('an opportunity without _id or unique_key was skipped');
        continue;
      }
      const raw = JSON.stringify(r);
      // One call (no Hash object per record): the same digest, in about half the time.
      const rawHash = hash('sha1', raw, 'base64');
      const existing = this.find.get(bk, id) as { rowid: number; raw_hash: string; removed_on_server: number } | undefined;
      if (existing && existing.raw_hash === rawHash && existing.removed_on_server === 0) {
        this.touch.run(runId, existing.rowid);
        result.unchanged++;
        continue;
      }
      const contacts = parseContacts(r.contact_emails);
      const values = recordValues(this.plan, r, contacts);
      let rowid: number;
      if (existing) {
        rowid = existing.rowid;
        values.splice(this.idAt, 1);
        this.update.run(...values, rawHash, now, runId, rowid);
        this.delContacts.run(rowid);
        this.delSearch.run(rowid);
        result.changed++;
      } else {
        rowid = Number(this.insert.run(bk, ...values, rawHash, now, now, runId).lastInsertRowid);
        const triage = this.triageOf.get(brandId, id) as unknown[] | undefined;
        if (triage) this.mirror.run(...triage, rowid);
        result.added++;
      }
      this.records.put(rowid, raw);
      contacts.forEach((c, i) =>
        this.addContact.run(rowid, i, bk, c.raw === c.email ? null : c.raw, c.email, c.identity, c.domain, c.catchAll ? 1 : 0, c.valid ? 1 : 0),
      );
      this.addSearch.run(rowid, ...searchValues(this.plan, r, contacts));
    }
    // The page's records, each block it touched packed and written once.
    this.records.flush();
    return result;
  }

  /** After a complete pass: every record of the brand this run did not see is marked removed (kept, with its triage). */
  markUnseenRemoved(brandId: string, runId: number, now: string): number {
    // Only rows last seen by an earlier run: a row a later or concurrent run has seen is on the server.
    return this.db.run(
      sql`UPDATE opportunities SET removed_on_server = 1, changed_at = ${now} WHERE brand_key = ${brandKey(this.db, brandId)} AND seen_in_run < ${runId} AND removed_on_server = 0`,
    ).changes;
  }

  /** The brand's key, created on its first page and remembered. */
  private keyOf(brandId: string): number {
    let k = this.keys.get(brandId);
    if (k === undefined) this.keys.set(brandId, (k = ensureBrandKey(this.db, brandId)));
    return k;
  }
}

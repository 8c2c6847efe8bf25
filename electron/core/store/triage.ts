// The user's triage: local status, note, star, contacted and exported dates.
// Only the user's actions write here; sync never does. Each field keeps the
// time it was last written (shared/user-record.ts), so writers in several
// processes and a merged record settle field by field, the later write
// winning; each change is also a line of the opportunity's history.
import { invalidInput } from '../../../shared/errors';
import { isOneOf, STATUSES } from '../../../shared/domain';
import { TRIAGE_FIELDS, type TriageFieldName, type TriageRecord } from '../../../shared/user-record';
import type { DB } from './db';
import type { HistoryStore } from './history';
import { filterSql, type PipelineDays } from './opportunity-filter';
import { identifier, sql, sqlJoin } from './sql';
import { Statements } from './statements';
import type { TriagePatch } from '../../../shared/model';
import { preselectedAddresses } from './contacted-addresses';
export type { TriagePatch } from '../../../shared/model';

/** A stored row: every field's column and its last write time, as SQLite gives them. */
type StoredRow = Record<string, string | number | null> & { brand_id: string; opportunity_id: string; updated_at: string };

export const MAX_NOTE_LENGTH = 100_000;

const COLUMNS = ['brand_id', 'opportunity_id', ...TRIAGE_FIELDS.flatMap((f) => [f.name, f.changedAt]), 'updated_at'];
const columnList = sqlJoin(
  COLUMNS.map((c) => identifier(c, COLUMNS)),
  sql`, `,
);
const FIELD = new Map<string, (typeof TRIAGE_FIELDS)[number]>(TRIAGE_FIELDS.map((f) => [f.name, f]));
/** What an untouched opportunity's fields are. */
const DEFAULTS: Record<string, string | number | null> = Object.fromEntries(
  TRIAGE_FIELDS.map((f) => [f.name, f.kind === 'flag' ? 0 : f.name === 'note' ? '' : null]),
);

/** A field's value as stored: a flag as 0/1, a list as JSON text (null: none known). */
function stored(field: TriageFieldName, v: unknown): string | number | null {
  const kind = FIELD.get(field)!.kind;
  if (kind === 'flag') return v ? 1 : 0;
  // An empty list is a fact (written to nobody: every address was on the do-not-contact list), kept apart from null (not known).
  if (kind === 'list') return Array.isArray(v) ? JSON.stringify(v) : null;
  return (v as string | null | undefined) ?? (field === 'note' ? '' : null);
}

/** What a change says in the history. */
function historyDetail(field: TriageFieldName, value: string | number | null, exportedIn?: string): string {
  if (field === 'starred') return value ? 'on' : 'off';
  if (field === 'exported_at' && exportedIn) return `in ${exportedIn}`;
  if (field === 'stage' && value === null) return 'New';
  if (field === 'snoozed_until' && value === null) return 'woken';
  if (value === null || value === '') return 'cleared';
  return String(value);
}

export class TriageStore {
  private readonly statements: Statements;

  constructor(
    private readonly db: DB,
    private readonly history: HistoryStore,
  ) {
    this.statements = new Statements(db);
  }

  private current(brandId: string, id: string): StoredRow | undefined {
    return this.statements.get<StoredRow>(sql`SELECT ${columnList} FROM triage WHERE brand_id = ${brandId} AND opportunity_id = ${id}`);
  }

  /** Write the fields of `patch` that change, each with its time and a history line; returns whether anything changed. */
  private write(brandId: string, id: string, patch: TriagePatch, now: string, exportedIn?: string): boolean {
    if (patch.status !== undefined && patch.status !== null && !isOneOf(STATUSES, patch.status)) {
      throw invalidInput(`A status is one of ${STATUSES.join(', ')}.`, 'status');
    }
    if (patch.note !== undefined && patch.note.length > MAX_NOTE_LENGTH) throw invalidInput('A note may hold at most 100,000 characters.', 'note');
    const cur = this.current(brandId, id);
    // Contacted without naming the addresses used (the list's key C, `triage --contacted`, the stage set to Contacted):
    // the ones the pitch pre-selects are recorded, so follow-ups and "already contacted" know who was written to.
    if (patch.contacted_at && patch.contacted_addresses === undefined && !cur?.contacted_addresses)
      patch = { ...patch, contacted_addresses: preselectedAddresses(this.db, brandId, id) };
    const next: Record<string, string | number | null> = cur ? { ...cur } : { brand_id: brandId, opportunity_id: id, ...DEFAULTS };
    let changed = false;
    for (const f of TRIAGE_FIELDS) {
      const given = (patch as Record<string, unknown>)[f.name];
      if (given === undefined) continue;
      const value = stored(f.name, given);
      if (value === (cur ? cur[f.name] : DEFAULTS[f.name])) continue;
      next[f.name] = value;
      next[f.changedAt] = now;
      changed = true;
      if (f.history) this.history.add(brandId, id, f.history, now, historyDetail(f.name, value, exportedIn));
    }
    if (!changed) return false;
    next.updated_at = now;
    this.put(next as StoredRow);
    return true;
  }

  private put(r: StoredRow): void {
    const values = sqlJoin(
      COLUMNS.map((c) => sql`${r[c] ?? DEFAULTS[c] ?? null}`),
      sql`, `,
    );
    this.statements.run(sql`INSERT OR REPLACE INTO triage (${columnList}) VALUES (${values})`);
  }

  /** The fields of `ifEmpty` this opportunity has no value for yet (written only where empty, e.g. the contacted date). */
  private emptyOf(brandId: string, id: string, ifEmpty: TriagePatch | undefined): TriagePatch {
    if (!ifEmpty) return {};
    const cur = this.current(brandId, id);
    return Object.fromEntries(Object.entries(ifEmpty).filter(([k]) => (cur ? cur[k] : DEFAULTS[k]) === null));
  }

  /**
   * `ifEmpty`: fields written only where the opportunity has none yet. The
   * write time, unless given, is read once the write lock is held, so a write
   * that waited for another process is never recorded as older than the one
   * it came after (the record's last-write-wins merge trusts these times).
   */
  set(brandId: string, id: string, patch: TriagePatch, now?: string, ifEmpty?: TriagePatch): void {
    this.db.transaction(() => this.write(brandId, id, { ...patch, ...this.emptyOf(brandId, id, ifEmpty) }, now ?? new Date().toISOString())).immediate();
  }

  /** The same change to many opportunities, all or nothing (`ifEmpty`: as for set). Returns how many distinct opportunities it covered. */
  setMany(brandId: string, ids: readonly string[], patch: TriagePatch, now?: string, ifEmpty?: TriagePatch): number {
    const unique = [...new Set(ids)];
    this.db
      .transaction(() => {
        const at = now ?? new Date().toISOString();
        for (const id of unique) this.write(brandId, id, { ...patch, ...this.emptyOf(brandId, id, ifEmpty) }, at);
      })
      .immediate();
    return unique.length;
  }

  /** Record the export date on each of these opportunities (nothing else of their triage changes); `fileName` goes in the history. */
  markExported(brandId: string, ids: readonly string[], when: string, fileName?: string): number {
    this.db
      .transaction(() => {
        for (const id of ids) this.write(brandId, id, { exported_at: when }, when, fileName);
      })
      .immediate();
    return ids.length;
  }

  /** One opportunity's triage as the record holds it, or undefined when the user never touched it. */
  get(brandId: string, id: string): TriageRecord | undefined {
    const r = this.current(brandId, id);
    return r && toRecord(r);
  }

  /** Every triage row, as the record file holds them. */
  all(): TriageRecord[] {
    return this.statements.all<StoredRow>(sql`SELECT ${columnList} FROM triage ORDER BY brand_id, opportunity_id`).map(toRecord);
  }

  /** Put a record's row in place as it is (merge and restore decide what goes in). */
  putRecord(r: TriageRecord): void {
    const row: StoredRow = { brand_id: r.brand_id, opportunity_id: r.opportunity_id, updated_at: r.updated_at };
    for (const f of TRIAGE_FIELDS) {
      row[f.name] = stored(f.name, r[f.name]);
      row[f.changedAt] = r[f.changedAt];
    }
    this.put(row);
  }

  /** Opportunities at stage Followed up (few): the no-reply rule looks at these. */
  followedUp(): { brand_id: string; opportunity_id: string; stage: string | null; followed_up_at: string | null }[] {
    return this.statements.all(sql`SELECT brand_id, opportunity_id, stage, followed_up_at FROM triage WHERE stage = 'Followed up'`);
  }

  /**
   * Follow-ups due per brand: exactly what the Due view lists (its own filter,
   * so snoozed, archived and removed-on-server ones are left out as there).
   * Only brands with a triage row that may be due are counted (few). `keyOf`: a brand's key.
   */
  dueCounts(days: PipelineDays, keyOf: (brandId: string) => number): Record<string, number> {
    const brands = this.statements.all<{ brand_id: string }>(
      sql`SELECT DISTINCT brand_id FROM triage WHERE stage = 'Contacted' AND followed_up_at IS NULL AND contacted_at <= ${days.dueOnOrBefore}`,
    );
    const out: Record<string, number> = {};
    for (const { brand_id } of brands) {
      const w = filterSql({ brandId: brand_id, view: 'due' }, keyOf(brand_id), days);
      const n = this.statements.get<{ n: number }>(sql`${w.with} SELECT count(*) AS n FROM opportunities o WHERE ${w.where}`)!.n;
      if (n > 0) out[brand_id] = n;
    }
    return out;
  }

  clear(): void {
    this.statements.run(sql`DELETE FROM triage`);
  }
}

function toRecord(r: StoredRow): TriageRecord {
  const out: Record<string, unknown> = { brand_id: r.brand_id, opportunity_id: r.opportunity_id, updated_at: r.updated_at };
  for (const f of TRIAGE_FIELDS) {
    const v = r[f.name];
    out[f.name] = f.kind === 'flag' ? v === 1 : f.kind === 'list' ? (typeof v === 'string' ? (JSON.parse(v) as string[]) : null) : v;
    out[f.changedAt] = r[f.changedAt];
  }
  return out as TriageRecord;
}

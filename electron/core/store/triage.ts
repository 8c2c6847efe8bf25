// The user's triage of each opportunity (the fields of shared/triage-fields.ts):
// only the user's actions write here, through the owner of their record
// (core/app/triage.ts), never sync. Each field keeps the time it was last
// written, so writers in several processes and a merged record settle field
// by field, the later write winning; each change is also a line of the
// opportunity's history. Free functions over a ReadableDB or a WritableDB.
import { isOneOf } from '../../../shared/domain';
import { invalidInput } from '../../../shared/errors';
import { STAGES } from '../../../shared/pipeline';
import { EMPTY_TRIAGE, sameValue, TRIAGE_FIELDS, triageField, type TriageFieldName, type TriageFields, type TriagePatch } from '../../../shared/triage-fields';
import type { TriageRecord } from '../../../shared/user-record';
import type { ReadableDB, WritableDB } from './database';
import { addHistory } from './history';
import { filterSql, type PipelineDays } from './opportunity-filter';
import { brandKey } from './brand-keys';
import { identifier, sql, sqlJoin, type Sql } from './sql';

export type { TriagePatch } from '../../../shared/triage-fields';

/** A stored row: every field's column and its last write time, as SQLite gives them. */
type StoredRow = Record<string, string | number | null> & { brand_id: string; opportunity_id: string; updated_at: string };
type Stored = string | number | null;

export const TRIAGE_COLUMNS: readonly string[] = ['brand_id', 'opportunity_id', ...TRIAGE_FIELDS.flatMap((f) => [f.name, f.changedAt]), 'updated_at'];
const columnList = sqlJoin(
  TRIAGE_COLUMNS.map((c) => identifier(c, TRIAGE_COLUMNS)),
  sql`, `,
);

/**
 * A field's value as stored: a flag as 0/1, a list as JSON text (null: none
 * known; an empty list is a fact, written to nobody: every address was on the
 * do-not-contact list), a note '' when empty.
 */
export function toStored(field: string, v: unknown): Stored {
  const kind = triageField(field).kind;
  if (kind === 'flag') return v ? 1 : 0;
  if (kind === 'list') return Array.isArray(v) ? JSON.stringify(v) : null;
  if (kind === 'note') return (v as string | null | undefined) ?? '';
  return (v as string | null | undefined) ?? null;
}

/** A field's value as stored, back to what the app holds. */
export function fromStored(field: string, v: unknown): unknown {
  const kind = triageField(field).kind;
  if (kind === 'flag') return v === 1;
  if (kind === 'list') return typeof v === 'string' ? (JSON.parse(v) as string[]) : null;
  if (kind === 'note') return (v as string | null) ?? '';
  return v ?? null;
}

const EMPTY_STORED: Record<string, Stored> = Object.fromEntries(TRIAGE_FIELDS.map((f) => [f.name, toStored(f.name, EMPTY_TRIAGE[f.name])]));

/** What a change says in the history. */
function historyDetail(field: TriageFieldName, value: Stored, exportedIn?: string): string {
  if (field === 'starred') return value ? 'on' : 'off';
  if (field === 'exported_at' && exportedIn) return `in ${exportedIn}`;
  if (field === 'stage' && value === null) return 'New';
  if (field === 'snoozed_until' && value === null) return 'woken';
  if (value === null || value === '') return 'cleared';
  return String(value);
}

function storedRow(db: ReadableDB, brandId: string, id: string): StoredRow | undefined {
  return db.get<StoredRow>(sql`SELECT ${columnList} FROM triage WHERE brand_id = ${brandId} AND opportunity_id = ${id}`);
}

/** One field changed by a write: its name and its stored value before and after (what an undo puts back). */
export interface FieldChange {
  field: TriageFieldName;
  before: Stored;
  after: Stored;
}

function checkPatch(patch: TriagePatch): void {
  for (const [name, v] of Object.entries(patch)) {
    const f = triageField(name);
    if (f.kind === 'stage' && v !== null && v !== undefined && (v === 'New' || !isOneOf(STAGES, v)))
      throw invalidInput(`A stage is one of ${STAGES.filter((s) => s !== 'New').join(', ')} (none for New).`, name);
    const max = 'max' in f ? (f.max as number) : undefined;
    if (max === undefined) continue;
    if (f.kind === 'note' && typeof v === 'string' && v.length > max)
      throw invalidInput(`A note may hold at most ${max.toLocaleString('en-US')} characters.`, name);
    if (f.kind === 'text' && typeof v === 'string' && v.length > max)
      throw invalidInput(`${name} may hold at most ${max.toLocaleString('en-US')} characters.`, name);
    if (f.kind === 'list' && Array.isArray(v) && v.length > max) throw invalidInput(`${name} may hold at most ${max} items.`, name);
  }
}

/**
 * Write the fields of `patch` that change, each with its time and a history
 * line, in the caller's transaction; returns what changed. `exportedIn`: the
 * export's file name, for its history line.
 */
export function writeTriage(db: WritableDB, brandId: string, id: string, patch: TriagePatch, now: string, exportedIn?: string): FieldChange[] {
  checkPatch(patch);
  const cur = storedRow(db, brandId, id);
  const next: Record<string, Stored> = cur ? { ...cur } : { brand_id: brandId, opportunity_id: id, ...EMPTY_STORED };
  const changes: FieldChange[] = [];
  for (const f of TRIAGE_FIELDS) {
    const given = (patch as Record<string, unknown>)[f.name];
    if (given === undefined) continue;
    const value = toStored(f.name, given);
    const before = cur ? (cur[f.name] ?? null) : EMPTY_STORED[f.name]!;
    if (sameValue(value, before)) continue;
    next[f.name] = value;
    next[f.changedAt] = now;
    changes.push({ field: f.name, before, after: value });
    if (f.history) addHistory(db, brandId, id, f.history as Parameters<typeof addHistory>[3], now, historyDetail(f.name, value, exportedIn));
  }
  if (changes.length === 0) return changes;
  next.updated_at = now;
  putRow(db, next as StoredRow);
  return changes;
}

/**
 * Put back stored values (an undo): each field only where it still holds what
 * the change left (`expect`), so a later change is never undone by surprise.
 * Returns the fields put back.
 */
export function restoreTriage(db: WritableDB, brandId: string, id: string, changes: readonly FieldChange[], now: string): FieldChange[] {
  const cur = storedRow(db, brandId, id);
  const next: Record<string, Stored> = cur ? { ...cur } : { brand_id: brandId, opportunity_id: id, ...EMPTY_STORED };
  const done: FieldChange[] = [];
  for (const c of changes) {
    const f = triageField(c.field);
    const now_ = cur ? (cur[c.field] ?? null) : EMPTY_STORED[c.field]!;
    if (!sameValue(now_, c.after)) continue;
    next[c.field] = c.before;
    next[f.changedAt] = now;
    done.push(c);
  }
  if (done.length === 0) return done;
  next.updated_at = now;
  putRow(db, next as StoredRow);
  return done;
}

function putRow(db: WritableDB, r: StoredRow): void {
  const values = sqlJoin(
    TRIAGE_COLUMNS.map((c) => sql`${r[c] ?? EMPTY_STORED[c] ?? null}`),
    sql`, `,
  );
  db.run(sql`INSERT OR REPLACE INTO triage (${columnList}) VALUES (${values})`);
}

/** One opportunity's triage, every field (the empty triage when the user never touched it). */
export function readTriage(db: ReadableDB, brandId: string, id: string): TriageFields & { updated_at: string | null } {
  const r = storedRow(db, brandId, id);
  if (!r) return { ...EMPTY_TRIAGE, updated_at: null };
  const out: Record<string, unknown> = { updated_at: r.updated_at };
  for (const f of TRIAGE_FIELDS) out[f.name] = fromStored(f.name, r[f.name]);
  return out as TriageFields & { updated_at: string | null };
}

/** Many opportunities' triage at once (a bulk action reads them before it writes), by opportunity id. */
export function readTriageOf(db: ReadableDB, brandId: string, ids: readonly string[]): Map<string, TriageFields> {
  const out = new Map<string, TriageFields>(ids.map((id) => [id, { ...EMPTY_TRIAGE }]));
  const rows = db.all<StoredRow>(
    sql`SELECT ${columnList} FROM triage WHERE brand_id = ${brandId} AND opportunity_id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
  );
  for (const r of rows) {
    const t: Record<string, unknown> = {};
    for (const f of TRIAGE_FIELDS) t[f.name] = fromStored(f.name, r[f.name]);
    out.set(r.opportunity_id, t as TriageFields);
  }
  return out;
}

/** One opportunity's triage as the record holds it, or undefined when the user never touched it. */
export function triageRecord(db: ReadableDB, brandId: string, id: string): TriageRecord | undefined {
  const r = storedRow(db, brandId, id);
  return r && toRecord(r);
}

/** Every triage row, as the record file holds them. */
export function allTriage(db: ReadableDB): TriageRecord[] {
  return db.all<StoredRow>(sql`SELECT ${columnList} FROM triage ORDER BY brand_id, opportunity_id`).map(toRecord);
}

/** Put a record's row in place as it is (merge and restore decide what goes in). */
export function putTriageRecord(db: WritableDB, r: TriageRecord): void {
  const row: StoredRow = { brand_id: r.brand_id, opportunity_id: r.opportunity_id, updated_at: r.updated_at };
  for (const f of TRIAGE_FIELDS) {
    row[f.name] = toStored(f.name, r[f.name]);
    row[f.changedAt] = r[f.changedAt];
  }
  putRow(db, row);
}

export function clearTriage(db: WritableDB): void {
  db.run(sql`DELETE FROM triage`);
}

function toRecord(r: StoredRow): TriageRecord {
  const out: Record<string, unknown> = { brand_id: r.brand_id, opportunity_id: r.opportunity_id, updated_at: r.updated_at };
  for (const f of TRIAGE_FIELDS) {
    out[f.name] = fromStored(f.name, r[f.name]);
    out[f.changedAt] = r[f.changedAt];
  }
  return out as TriageRecord;
}

/** Record the export date on each of these opportunities (nothing else of their triage changes); `fileName` goes in the history. */
export function markExported(db: WritableDB, brandId: string, ids: readonly string[], when: string, fileName?: string): number {
  db.transaction(() => {
    for (const id of ids) writeTriage(db, brandId, id, { exported_at: when }, when, fileName);
  });
  return ids.length;
}

/** Opportunities at stage Followed up (few): the no-reply rule looks at these. */
export function followedUp(db: ReadableDB): { brand_id: string; opportunity_id: string; followed_up_at: string | null }[] {
  return db.all(sql`SELECT brand_id, opportunity_id, followed_up_at FROM triage WHERE stage = 'Followed up'`);
}

/**
 * Follow-ups due per brand: exactly what the Due view lists (its own filter,
 * so snoozed, archived, removed-on-server ones and those with no address left
 * to write to are left out as there). Only brands with a triage row that may
 * be due are counted (few). Reads only: the due filter needs no derived table.
 */
export function dueCounts(db: ReadableDB, days: PipelineDays): Record<string, number> {
  const brands = db.all<{ brand_id: string }>(
    sql`SELECT DISTINCT brand_id FROM triage WHERE stage = 'Contacted' AND followed_up_at IS NULL AND contacted_at <= ${days.dueOnOrBefore}`,
  );
  const out: Record<string, number> = {};
  for (const { brand_id } of brands) {
    const bk = brandKey(db, brand_id);
    // The Due view's own WHERE, counted from the brand's few triage rows that may be due (CROSS JOIN keeps
    // that order): never a walk of every opportunity of the brand.
    const w = filterSql({ brandId: brand_id, view: 'due' }, bk, days, 'probe', null, { dueFrom: 'td' });
    const n = db.get<{ n: number }>(sql`SELECT count(*) AS n FROM triage td CROSS JOIN opportunities o WHERE ${w.where}`)!.n;
    if (n > 0) out[brand_id] = n;
  }
  return out;
}

/** The columns of a triage field on `t` (the triage) or, mirrored, on `o` (the opportunity). */
export const triageColumn = (name: string, on: 'o' | 't'): Sql => sql`${on === 'o' ? sql`o.` : sql`t.`}${identifier(name, TRIAGE_COLUMNS)}`;

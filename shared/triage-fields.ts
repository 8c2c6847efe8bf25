// The user's triage of an opportunity, declared once (as opportunity-fields.ts
// declares the service's fields): each field's name and column, the column
// holding its last write time, what it holds, whether the list filters by it
// (then the opportunity row mirrors it, kept by triggers), whether a list row
// shows it, and the history line a change writes. The record file's schema,
// the contract's types, the store's columns and copies, and the check of the
// migrated schema's columns and triggers all derive from this table. The
// pipeline stage is the one local triage (shared/pipeline.ts); the service's
// status and archived flag are its own data, never written here. Pure data.
import type { Stage } from './pipeline';

/**
 * What a field holds, and so its type, its stored form and its empty value:
 * note: text, '' when empty · text: text or null · flag: true/false (stored 1/0) ·
 * list: a list of text or null (stored as a JSON array) · day: a date YYYY-MM-DD
 * or null · time: an ISO time or null · stage: a stage or null (null is New).
 */
export interface TriageKinds {
  note: string;
  text: string | null;
  flag: boolean;
  list: string[] | null;
  day: string | null;
  time: string | null;
  stage: Exclude<Stage, 'New'> | null;
}
export type TriageKind = keyof TriageKinds;

export interface TriageField {
  readonly name: string;
  readonly kind: TriageKind;
  /** The column holding when it was last written (merge, import and restore settle field by field from it). */
  readonly changedAt: string;
  /** The history kind a change of it writes (null: none of its own). */
  readonly history: string | null;
  /** A list row shows it (the rest is in the detail). */
  readonly list?: true;
  /** The list filters by it: the opportunity row holds a copy, kept by triggers, so a filter never joins the triage. */
  readonly mirror?: true;
  /** The longest text it may hold (note, text) or the most items (list). */
  readonly max?: number;
}

/** Every triage field, one line each. A new field is a line here and a migration adding its two columns. */
export const TRIAGE_FIELDS = [
  { name: 'note', kind: 'note', changedAt: 'note_changed_at', history: 'note', list: true, max: 100_000 },
  { name: 'starred', kind: 'flag', changedAt: 'starred_changed_at', history: 'star', list: true, mirror: true },
  { name: 'contacted_at', kind: 'day', changedAt: 'contacted_changed_at', history: 'contacted', list: true },
  { name: 'contacted_addresses', kind: 'list', changedAt: 'contacted_addresses_changed_at', history: null, max: 50 },
  { name: 'contacted_subject', kind: 'text', changedAt: 'contacted_subject_changed_at', history: null, max: 2000 },
  { name: 'exported_at', kind: 'time', changedAt: 'exported_changed_at', history: 'exported', list: true },
  { name: 'stage', kind: 'stage', changedAt: 'stage_changed_at', history: 'stage', list: true, mirror: true },
  { name: 'stage_reason', kind: 'text', changedAt: 'stage_reason_changed_at', history: 'reason', max: 500 },
  { name: 'snoozed_until', kind: 'day', changedAt: 'snoozed_changed_at', history: 'snooze', list: true, mirror: true },
  { name: 'followed_up_at', kind: 'day', changedAt: 'followed_up_changed_at', history: 'followed_up', list: true },
] as const satisfies readonly TriageField[];

type Field = (typeof TRIAGE_FIELDS)[number];
export type TriageFieldName = Field['name'];
export type TriageChangedAtColumn = Field['changedAt'];

/** Every triage field with its value. */
export type TriageFields = { [F in Field as F['name']]: TriageKinds[F['kind']] };
/** The triage fields a list row shows. */
export type ListedTriage = { [F in Extract<Field, { list: true }> as F['name']]: TriageKinds[F['kind']] };
/** Some fields changed: what the store writes (only the owner of the record, core/app/triage.ts, builds one). */
export type TriagePatch = Partial<TriageFields>;
/** The fields the list filters by, mirrored on the opportunity. */
export const MIRRORED_FIELDS: readonly TriageFieldName[] = TRIAGE_FIELDS.filter((f) => 'mirror' in f && f.mirror).map((f) => f.name);

const FIELD = new Map<string, TriageField>(TRIAGE_FIELDS.map((f) => [f.name, f]));

/** The field of this name (a programming error if there is none). */
export function triageField(name: string): TriageField {
  const f = FIELD.get(name);
  if (!f) throw new RangeError(`No triage field "${name}".`);
  return f;
}

/** A field's value when the user never set it. */
export function emptyValue(kind: TriageKind): TriageKinds[TriageKind] {
  return kind === 'note' ? '' : kind === 'flag' ? false : null;
}

/** An untouched opportunity's triage. */
export const EMPTY_TRIAGE: Readonly<TriageFields> = Object.fromEntries(TRIAGE_FIELDS.map((f) => [f.name, emptyValue(f.kind)])) as TriageFields;

/** Two values of a field are the same (lists by their items). */
export function sameValue(a: unknown, b: unknown): boolean {
  return Array.isArray(a) || Array.isArray(b) ? JSON.stringify(a ?? null) === JSON.stringify(b ?? null) : (a ?? null) === (b ?? null);
}

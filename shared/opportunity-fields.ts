// The opportunity's fields, declared once: where each comes from in an API
// record, how it is stored, searched, exported and shown; the rest derives from this table.
import { parseContacts, type Contact } from './contacts';

/** A field's type in an API record (spec 2.3). */
export type ApiKind = 'string' | 'string|null' | 'int' | 'boolean' | 'string[]';

/**
 * How a field is stored in a column of `opportunities` (the store maps each to
 * its SQL declaration) and what the column holds in the app:
 * key: text, never empty (the record's id) · text: text or null ·
 * label: text, '' when missing · int: whole number or null ·
 * count: whole number, 0 when none · flag: true/false, stored as 1/0.
 */
export interface ColumnValues {
  key: string;
  text: string | null;
  label: string;
  int: number | null;
  count: number;
  flag: boolean;
}
export type ColumnType = keyof ColumnValues;

export interface OpportunityField {
  /** Its name in the app: the column's name, the list item's key, the name export presets use. */
  readonly name: string;
  /** Its key in an API record, when that is not `name`. */
  readonly api?: string;
  /** Its type in an API record; absent for what the app works out (contact counts). */
  readonly kind?: ApiKind;
  /** Worked out from the whole record rather than read from one key (see DERIVED). */
  readonly derive?: keyof typeof DERIVED;
  /** Stored in a column of `opportunities` (named `name`), of this type; absent: only in the raw record. */
  readonly column?: ColumnType;
  /** The full-text search column it feeds (several fields may feed one). */
  readonly search?: string;
  /** Its header in the opportunities export, when not its API key (every scalar API field is exported). */
  readonly export?: string;
  /** Its text is a date or a time (ISO 8601): a workbook writes it as a date cell. */
  readonly date?: true;
  /** Shown in the list: true under its name, or under this key (the detail shows the list item and the whole record). */
  readonly list?: true | string;
}

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** Values the app works out from a record and its parsed contacts. */
export const DERIVED = {
  /** The record's id: its _id, else its unique_key (prefixed); null: the record cannot be stored. */
  identity: (r: Record<string, unknown>): string | null => {
    const key = text(r.unique_key);
    return text(r._id) ?? (key ? `key:${key}` : null);
  },
  /** The parsed addresses (no ' CATCH' suffix), what search finds contacts by. */
  addresses: (_r: Record<string, unknown>, contacts: readonly Contact[]): string[] => contacts.map((c) => c.email),
  contactCount: (_r: Record<string, unknown>, contacts: readonly Contact[]): number => contacts.filter((c) => c.valid).length,
  catchAllCount: (_r: Record<string, unknown>, contacts: readonly Contact[]): number => contacts.filter((c) => c.valid && c.catchAll).length,
};

/** Every field of spec 2.3, in its order, then what the app works out. One line per field. */
export const OPPORTUNITY_FIELDS = [
  { name: 'id', api: '_id', kind: 'string', derive: 'identity', column: 'key', list: true },
  { name: 'unique_key', kind: 'string', column: 'text', list: true },
  { name: 'opportunity_type', kind: 'string', column: 'text', list: true },
  { name: 'url', kind: 'string', column: 'text', list: true },
  { name: 'domain', kind: 'string', column: 'label', search: 'domain', list: true },
  { name: 'title', kind: 'string', column: 'label', search: 'title', list: true },
  { name: 'content_type', kind: 'string' },
  { name: 'language', kind: 'string' },
  { name: 'country', kind: 'string|null' },
  { name: 'status', kind: 'string', column: 'text', export: 'server_status', list: 'server_status' },
  { name: 'archived', kind: 'boolean', column: 'flag', list: true },
  { name: 'difficulty', kind: 'string', column: 'text', list: true },
  { name: 'strategy_name', kind: 'string' },
  { name: 'topics_covered', kind: 'string[]', search: 'topics' },
  { name: 'site_type', kind: 'string' },
  { name: 'audience_profile', kind: 'string' },
  { name: 'content_style', kind: 'string' },
  { name: 'competitors', kind: 'string[]' },
  { name: 'competitor_count', kind: 'int' },
  { name: 'gap_analysis', kind: 'string', search: 'gap_analysis' },
  { name: 'why_competitors_win', kind: 'string' },
  { name: 'brand_angle', kind: 'string', search: 'brand_angle' },
  { name: 'fit_score', kind: 'int', column: 'int', list: true },
  { name: 'topics_aligned', kind: 'string[]', search: 'topics' },
  { name: 'audience_match', kind: 'string' },
  { name: 'why_relevant', kind: 'string' },
  { name: 'pitch_subject', kind: 'string', search: 'pitch_subject' },
  { name: 'pitch_body', kind: 'string', search: 'pitch_body' },
  { name: 'author_name', kind: 'string|null', column: 'text', search: 'author' },
  { name: 'contact_emails', kind: 'string[]', derive: 'addresses', search: 'contacts' },
  { name: 'contact_confidence', kind: 'string' },
  { name: 'appearance_count', kind: 'int' },
  { name: 'prompt_count', kind: 'int' },
  { name: 'query_count', kind: 'int' },
  { name: 'priority_score', kind: 'int', column: 'int', list: true },
  { name: 'brand_citations_on_prompt', kind: 'int' },
  { name: 'competitor_citations_on_prompt', kind: 'int' },
  { name: 'original_prompts', kind: 'string[]' },
  { name: 'search_queries', kind: 'string[]' },
  { name: 'weak_prompt', kind: 'string|null' },
  { name: 'competitors_winning', kind: 'string[]' },
  { name: 'instructions', kind: 'string[]' },
  { name: 'what_itll_do', kind: 'string' },
  { name: 'last_seen', api: 'last_seen_date', kind: 'string', column: 'text', list: true, date: true },
  { name: 'Created Date', kind: 'string', date: true },
  { name: 'Modified Date', kind: 'string', date: true },
  { name: 'contact_count', derive: 'contactCount', column: 'count', list: true },
  { name: 'catch_all_count', derive: 'catchAllCount', column: 'count', list: true },
] as const satisfies readonly OpportunityField[];

export type FieldTable = readonly OpportunityField[];
type Field = (typeof OPPORTUNITY_FIELDS)[number];

// ---- types derived from the table ------------------------------------------

interface KindValues {
  string: string;
  'string|null': string | null;
  int: number;
  boolean: boolean;
  'string[]': string[];
}
type ApiKeyOf<F> = F extends { api: infer A extends string } ? A : F extends { name: infer N extends string } ? N : never;
type ListKeyOf<F> = F extends { list: infer K extends string } ? K : F extends { list: true; name: infer N extends string } ? N : never;

/** The keys and kinds of an API record, for the schema built from them. */
export type ApiFieldKinds = { [F in Extract<Field, { kind: ApiKind }> as ApiKeyOf<F>]: F['kind'] };
/** The stored fields the list shows, by list key (the rest of a list item is the user's triage and flags). */
export type ListedFields = {
  [F in Extract<Field, { list: unknown }> as ListKeyOf<F>]: F extends { column: infer C extends ColumnType } ? ColumnValues[C] : never;
};

// ---- reading a record: the one way --------------------------------------------

/** A value of each API kind, as the app reads it: the wrong type reads as missing. */
const READ: { [K in ApiKind]: (v: unknown) => KindValues[K] | null } = {
  string: text,
  'string|null': text,
  int: (v) => (typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : null),
  boolean: (v) => (typeof v === 'boolean' ? v : null),
  'string[]': (v) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []),
};

/** Its key in an API record. */
export const apiKey = (f: OpportunityField): string => f.api ?? f.name;

/** Its key in a list item, or null when the list does not show it. */
export const listKey = (f: OpportunityField): string | null => (f.list === undefined ? null : f.list === true ? f.name : f.list);

/** Its header in the opportunities export, or null when not exported (arrays, what the app works out). */
export const exportHeader = (f: OpportunityField): string | null => (f.kind === undefined || f.kind === 'string[]' ? null : (f.export ?? apiKey(f)));

/** The fields an API record has (the rest the app works out). */
export const apiFields = (table: FieldTable = OPPORTUNITY_FIELDS): (OpportunityField & { kind: ApiKind })[] =>
  table.filter((f): f is OpportunityField & { kind: ApiKind } => f.kind !== undefined);

/** The keys an API record has, as the service writes them: any other key is a field the spec does not list (shown apart). */
export const apiKeys = (table: FieldTable = OPPORTUNITY_FIELDS): ReadonlySet<string> => new Set(apiFields(table).map(apiKey));

/** The field of this name (a programming error if there is none). */
export function fieldNamed(name: string, table: FieldTable = OPPORTUNITY_FIELDS): OpportunityField {
  const f = table.find((x) => x.name === name);
  if (!f) throw new RangeError(`No opportunity field "${name}".`);
  return f;
}

/** Reads one field from records (see fieldValue); made once per field where records are many (the sync). */
export type FieldReader = (record: Record<string, unknown>, contacts?: readonly Contact[]) => unknown;

export function fieldReader(f: OpportunityField): FieldReader {
  if (f.derive) {
    const derive = DERIVED[f.derive];
    return (record, contacts) => derive(record, contacts ?? parseContacts(record.contact_emails));
  }
  if (!f.kind) return () => null;
  const read = READ[f.kind];
  const key = apiKey(f);
  return (record) => read(record[key]);
}

/**
 * A field's value in a record, as the app reads it everywhere (store, search,
 * export): derived fields worked out, the rest read by their API kind (the
 * wrong type reads as missing). `contacts`: the record's parsed contacts, when
 * the caller has them already.
 */
export function fieldValue(f: OpportunityField, record: Record<string, unknown>, contacts?: readonly Contact[]): unknown {
  return fieldReader(f)(record, contacts);
}

export interface Pitch {
  subject: string;
  body: string;
}

const subjectOf = fieldReader(fieldNamed('pitch_subject'));
const bodyOf = fieldReader(fieldNamed('pitch_body'));

/** The drafted pitch of a record; '' for a part that is missing. */
export function pitchOf(record: Record<string, unknown>): Pitch {
  return { subject: (subjectOf(record) as string | null) ?? '', body: (bodyOf(record) as string | null) ?? '' };
}

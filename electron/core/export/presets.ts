// The export presets' columns, in order, each with where its value comes from:
// every scalar field of the field table (opportunities), or a pick for mail tools (contacts).
import { apiKey, exportHeader, fieldNamed, fieldReader, OPPORTUNITY_FIELDS, pitchOf, type FieldTable, type OpportunityField, type Pitch } from '../../../shared/opportunity-fields';
import type { ContactRow, OpportunityRow } from '../store/export-rows';
import { unpackRecord } from '../store/record-codec';

export const EXPORT_PRESETS = ['contacts', 'opportunities'] as const;
export type ExportPreset = (typeof EXPORT_PRESETS)[number];

/** A column: its header and its value in one row. */
export type Column<R> = readonly [header: string, value: (row: R) => unknown];

/** Split an author name into first and last; nothing is made up when it is missing. */
export function splitName(name: string | null | undefined): { first: string; last: string } {
  const parts = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return { first: '', last: '' };
  return { first: parts[0]!, last: parts.slice(1).join(' ') };
}

export interface ContactExportRow {
  contact: ContactRow;
  brand: string;
  author: string | null;
  name: { first: string; last: string };
}

export interface OpportunityExportRow {
  opportunity: OpportunityRow;
  /** The record as the server sent it. */
  record: Record<string, unknown>;
  brand: string;
  emails: string[];
  catchAlls: string[];
}

/** The opportunity's fields a contact row carries for the contacts preset. */
export const contactFields = (table: FieldTable = OPPORTUNITY_FIELDS): OpportunityField[] =>
  ['author_name', 'domain', 'url', 'title', 'opportunity_type', 'priority_score', 'fit_score', 'difficulty', 'pitch_subject', 'pitch_body'].map((name) => fieldNamed(name, table));

/** A field's value in a contact row: a stored field's from its column, any other read from the record as everywhere. */
function valueIn(f: OpportunityField): (c: ContactRow) => unknown {
  if (f.column) return (c) => c.stored[f.name];
  const read = fieldReader(f);
  return (c) => read(c.record);
}

/** The contacts preset: one row per address. */
export function contactColumns(table: FieldTable = OPPORTUNITY_FIELDS): Column<ContactExportRow>[] {
  const field = (name: string): Column<ContactExportRow> => {
    const value = valueIn(fieldNamed(name, table));
    return [name, (r) => value(r.contact)];
  };
  return [
    ['email', (r) => r.contact.email],
    ['catch_all', (r) => r.contact.catch_all === 1],
    ['name', (r) => r.author ?? ''],
    ['first_name', (r) => r.name.first],
    ['last_name', (r) => r.name.last],
    ...['domain', 'url', 'title', 'opportunity_type', 'priority_score', 'fit_score', 'difficulty'].map(field),
    ['status', (r) => r.contact.status],
    field('pitch_subject'),
    field('pitch_body'),
    ['opportunity_id', (r) => r.contact.opportunity_id],
    ['brand', (r) => r.brand],
  ];
}

/** The opportunities preset: every scalar field as the server sent it, then the addresses and the user's triage. */
export function opportunityColumns(table: FieldTable = OPPORTUNITY_FIELDS): Column<OpportunityExportRow>[] {
  const fields = table.flatMap((f): Column<OpportunityExportRow>[] => {
    const header = exportHeader(f);
    const key = apiKey(f);
    return header === null ? [] : [[header, (r) => r.record[key]]];
  });
  return [
    ...fields,
    ['emails', (r) => r.emails.join('; ')],
    ['catch_all_emails', (r) => r.catchAlls.join('; ')],
    ['status', (r) => r.opportunity.status],
    ['note', (r) => r.opportunity.note],
    ['contacted_at', (r) => r.opportunity.contacted_at],
    ['exported_at', (r) => r.opportunity.exported_at],
    ['brand', (r) => r.brand],
  ];
}

const authorOf = valueIn(fieldNamed('author_name'));

/** A contact row ready for its columns, with its pitch (for the pre-export check). */
export function contactExportRow(contact: ContactRow, brand: string): { row: ContactExportRow; pitch: Pitch } {
  const author = authorOf(contact) as string | null;
  return { row: { contact, brand, author, name: splitName(author) }, pitch: pitchOf(contact.record) };
}

/** An opportunity row ready for its columns, with its pitch. */
export function opportunityExportRow(opportunity: OpportunityRow, brand: string, json = unpackRecord(opportunity.packed)): { row: OpportunityExportRow; pitch: Pitch } {
  const record = JSON.parse(json) as Record<string, unknown>;
  const addresses = JSON.parse(opportunity.addresses) as [string, number][];
  const emails = addresses.filter(([, c]) => c === 0).map(([e]) => e);
  const catchAlls = addresses.filter(([, c]) => c === 1).map(([e]) => e);
  return { row: { opportunity, record, brand, emails, catchAlls }, pitch: pitchOf(record) };
}

export const CONTACT_COLUMNS = contactColumns().map(([header]) => header);
export const OPPORTUNITY_COLUMNS = opportunityColumns().map(([header]) => header);

// The export presets' columns, in order, each with where its value comes from:
// every scalar field of the field table (opportunities), or a pick for mail tools (contacts).
import {
  apiKey,
  exportHeader,
  fieldNamed,
  fieldReader,
  OPPORTUNITY_FIELDS,
  pitchOf,
  type FieldReader,
  type FieldTable,
  type OpportunityField,
  type Pitch,
} from '../../../shared/opportunity-fields';
import type { ContactRow, OpportunityRow } from '../store/export-rows';
import { unpackRecord } from '../store/record-codec';
import { authorNames, fieldValues, fillDraft, isRoleAddress, type MergeContext } from '../../../shared/merge-fields';
import { defaultFollowUp } from '../../../shared/follow-up';

export const EXPORT_PRESETS = ['contacts', 'opportunities', 'followups'] as const;
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
  /** What goes out: the user's draft (or the service's pitch), its merge fields filled for this address. */
  outgoing: Outgoing;
  /** A catch-all or role address: an inbox, not the author. */
  inbox: boolean;
}

/** The text that goes out, filled, and what could not be filled. */
export interface Outgoing {
  subject: string;
  body: string;
  unfilled: string;
}

export interface OpportunityExportRow {
  opportunity: OpportunityRow;
  /** The record as the server sent it. */
  record: Record<string, unknown>;
  brand: string;
  emails: string[];
  catchAlls: string[];
  outgoing: Outgoing;
  /** The one follow-up, filled (the follow-ups preset). */
  followUp: Outgoing;
  /** The addresses the pitch went to. */
  sentTo: string[];
}

/** The opportunity's fields a contact row carries for the contacts preset. */
export const contactFields = (table: FieldTable = OPPORTUNITY_FIELDS): OpportunityField[] =>
  ['author_name', 'domain', 'url', 'title', 'opportunity_type', 'priority_score', 'fit_score', 'difficulty', 'pitch_subject', 'pitch_body'].map((name) =>
    fieldNamed(name, table),
  );

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
    // The author's names, except for a catch-all or role address: whoever reads it may not be the author (shared/merge-fields.ts).
    ['first_name', (r) => (r.inbox ? '' : r.name.first)],
    ['last_name', (r) => (r.inbox ? '' : r.name.last)],
    ...['domain', 'url', 'title', 'opportunity_type', 'priority_score', 'fit_score', 'difficulty'].map(field),
    ['status', (r) => r.contact.status],
    ['stage', (r) => r.contact.pipeline.stage ?? 'New'],
    ['subject', (r) => r.outgoing.subject],
    ['body', (r) => r.outgoing.body],
    ['unfilled', (r) => r.outgoing.unfilled],
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
    ['stage', (r) => r.opportunity.pipeline.stage ?? 'New'],
    ['stage_reason', (r) => r.opportunity.pipeline.stage_reason],
    ['snoozed_until', (r) => r.opportunity.pipeline.snoozed_until],
    ['followed_up_at', (r) => r.opportunity.pipeline.followed_up_at],
    ['subject', (r) => r.outgoing.subject],
    ['body', (r) => r.outgoing.body],
    ['unfilled', (r) => r.outgoing.unfilled],
    ['brand', (r) => r.brand],
  ];
}

/** The follow-ups preset: one row per opportunity due for its follow-up, with the follow-up filled. */
export function followUpColumns(): Column<OpportunityExportRow>[] {
  return [
    ['email', (r) => (r.sentTo.length ? r.sentTo : r.emails).join('; ')],
    ['name', (r) => (r.record.author_name as string | null) ?? ''],
    [
      'first_name',
      (r) =>
        fieldValues({
          author_name: r.record.author_name as string | null,
          contact: r.sentTo[0] ? { email: r.sentTo[0], catchAll: r.catchAlls.includes(r.sentTo[0]) } : null,
        }).first_name ?? '',
    ],
    ['title', (r) => r.record.title],
    ['domain', (r) => r.record.domain],
    ['url', (r) => r.record.url],
    ['contacted_at', (r) => r.opportunity.contacted_at],
    ['stage', (r) => r.opportunity.pipeline.stage ?? 'New'],
    ['subject', (r) => r.followUp.subject],
    ['body', (r) => r.followUp.body],
    ['unfilled', (r) => r.followUp.unfilled],
    ['opportunity_id', (r) => r.record._id ?? r.record.unique_key],
    ['brand', (r) => r.brand],
  ];
}

const authorOf = valueIn(fieldNamed('author_name'));
const readField = (name: string) => fieldReader(fieldNamed(name));
const [titleOf, urlOf, domainOf, authorInRecord] = ['title', 'url', 'domain', 'author_name'].map(readField) as [
  FieldReader,
  FieldReader,
  FieldReader,
  FieldReader,
];

/** Fill a text for an address (the merge fields of shared/merge-fields.ts); unfilled tokens listed in one cell. */
function outgoingOf(text: Pitch, ctx: MergeContext): Outgoing {
  const f = fillDraft(text.subject, text.body, ctx);
  return { subject: f.subject, body: f.body, unfilled: [...new Set(f.unfilled.map((u) => u.token))].join(' ') };
}

/** A contact row ready for its columns, with the text that goes out (for the pre-export check). */
export function contactExportRow(contact: ContactRow, brand: string, senderName?: string): { row: ContactExportRow; pitch: Pitch } {
  const author = authorOf(contact) as string | null;
  const text = contact.pipeline.pitch_draft ?? pitchOf(contact.record);
  const stored = contact.stored;
  const outgoing = outgoingOf(text, {
    author_name: author,
    domain: (stored.domain as string | undefined) ?? null,
    title: (stored.title as string | undefined) ?? null,
    url: (stored.url as string | undefined) ?? null,
    brand,
    contact: { email: contact.email, catchAll: contact.catch_all === 1 },
    sender_name: senderName ?? null,
  });
  const inbox = contact.catch_all === 1 || isRoleAddress(contact.email);
  // The same names the merge fields use: none for a byline that is not one person ("Staff", "Ana and Ben").
  const names = authorNames(author);
  return { row: { contact, brand, author, name: { first: names?.first ?? '', last: names?.last ?? '' }, outgoing, inbox }, pitch: outgoing };
}

/** An opportunity row ready for its columns, with the text that goes out (for the first personal address). */
export function opportunityExportRow(
  opportunity: OpportunityRow,
  brand: string,
  json = unpackRecord(opportunity.packed),
  senderName?: string,
): { row: OpportunityExportRow; pitch: Pitch } {
  const record = JSON.parse(json) as Record<string, unknown>;
  const addresses = JSON.parse(opportunity.addresses) as [string, number][];
  const emails = addresses.filter(([, c]) => c === 0).map(([e]) => e);
  const catchAlls = addresses.filter(([, c]) => c === 1).map(([e]) => e);
  const sentTo = opportunity.pipeline.contacted_addresses ? (JSON.parse(opportunity.pipeline.contacted_addresses) as string[]) : [];
  const first = emails[0] ?? catchAlls[0] ?? null;
  const ctx: MergeContext = {
    author_name: (authorInRecord(record) as string | null) ?? null,
    domain: (domainOf(record) as string | null) ?? null,
    title: (titleOf(record) as string | null) ?? null,
    url: (urlOf(record) as string | null) ?? null,
    brand,
    contact: first ? { email: first, catchAll: !emails.includes(first) } : null,
    sender_name: senderName ?? null,
  };
  const outgoing = outgoingOf(opportunity.pipeline.pitch_draft ?? pitchOf(record), ctx);
  // Filled when a column asks for it (the follow-ups preset), not for every row of every export.
  let followUp: Outgoing | undefined;
  const row: OpportunityExportRow = {
    opportunity,
    record,
    brand,
    emails,
    catchAlls,
    outgoing,
    get followUp() {
      return (followUp ??= outgoingOf(opportunity.pipeline.followup_draft ?? defaultFollowUp(pitchOf(record), opportunity.pipeline.contacted_subject), {
        ...ctx,
        contact: sentTo[0] ? { email: sentTo[0], catchAll: catchAlls.includes(sentTo[0]) } : ctx.contact,
      }));
    },
    sentTo,
  };
  return { row, pitch: outgoing };
}

/** Columns that hold a number (the API's whole-number fields, by their export header and name): a workbook writes these as numbers, every other column's text as text. */
export const NUMERIC_COLUMNS: ReadonlySet<string> = new Set(
  (OPPORTUNITY_FIELDS as readonly OpportunityField[]).filter((f) => f.kind === 'int').flatMap((f) => [f.name, exportHeader(f) ?? f.name]),
);

export const CONTACT_COLUMNS = contactColumns().map(([header]) => header);
export const OPPORTUNITY_COLUMNS = opportunityColumns().map(([header]) => header);
export const FOLLOW_UP_COLUMNS = followUpColumns().map(([header]) => header);

// The export presets' columns, in order, each with where its value comes
// from, what a workbook writes it as (text, a number, a date, a link: from
// the field table, never a list of names) and whether it is mail text (what
// the person sends: the names the mail greets, the subject, the body; the CSV
// guard never changes it silently). The service's text (titles, outlets,
// links, ids) is never mail text: in a CSV it is always guarded. What each preset is for and the import rule it follows are in
// shared/export-presets.ts.
import { apiKey, exportHeader, fieldNamed, OPPORTUNITY_FIELDS, type FieldTable, type OpportunityField } from '../../../shared/opportunity-fields';
import { EXPORT_PRESETS, PRESETS, type ExportPreset, type PresetRows } from '../../../shared/export-presets';
import type { CellKind } from './xlsx-writer';
import { valueIn, type ContactExportRow, type FollowUpExportRow, type OpportunityExportRow } from './filled-rows';
export * from './filled-rows';

export { EXPORT_PRESETS, type ExportPreset };

/** How a column's cells are written: a workbook's cell kind (text when not said), and whether it is mail text. */
export interface ColumnOptions {
  kind?: CellKind;
  mail?: boolean;
}
/** A column: its header, its value in one row, and how it is written. */
export type Column<R> = readonly [header: string, value: (row: R) => unknown, options?: ColumnOptions];

const MAIL: ColumnOptions = { mail: true };
const NUMBER: ColumnOptions = { kind: 'number' };
const DATE: ColumnOptions = { kind: 'date' };
const LINK: ColumnOptions = { kind: 'link' };

/** Split an author name into first and last; nothing is made up when it is missing. */
export function splitName(name: string | null | undefined): { first: string; last: string } {
  const parts = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return { first: '', last: '' };
  return { first: parts[0]!, last: parts.slice(1).join(' ') };
}

/** The opportunity's fields a contact row carries for the address presets. */
export const contactFields = (table: FieldTable = OPPORTUNITY_FIELDS): OpportunityField[] =>
  ['author_name', 'domain', 'url', 'title', 'opportunity_type', 'priority_score', 'fit_score', 'difficulty', 'pitch_subject', 'pitch_body'].map((name) =>
    fieldNamed(name, table),
  );

/** How the field table says a field's cells are written in a workbook. */
const optionsOf = (f: OpportunityField): ColumnOptions | undefined => (f.date ? DATE : f.kind === 'int' ? NUMBER : f.name === 'url' ? LINK : undefined);

/** The contacts preset: one row per address, every field a mail merge might use. */
export function contactColumns(table: FieldTable = OPPORTUNITY_FIELDS): Column<ContactExportRow>[] {
  const field = (name: string): Column<ContactExportRow> => {
    const f = fieldNamed(name, table);
    const value = valueIn(f);
    return [name, (r) => value(r.contact), optionsOf(f)];
  };
  return [
    ['email', (r) => r.email],
    ['catch_all', (r) => r.contact.catch_all === 1],
    ['name', (r) => r.author ?? '', MAIL],
    // The author's names, except for a catch-all or role address: whoever reads it may not be the author (shared/merge-fields.ts).
    ['first_name', (r) => (r.inbox ? '' : r.name.first), MAIL],
    ['last_name', (r) => (r.inbox ? '' : r.name.last), MAIL],
    ...['domain', 'url', 'title', 'opportunity_type', 'priority_score', 'fit_score', 'difficulty'].map(field),
    ['status', (r) => r.contact.status],
    ['stage', (r) => r.contact.pipeline.stage ?? 'New'],
    ['subject', (r) => r.outgoing.subject, MAIL],
    ['body', (r) => r.outgoing.body, MAIL],
    ['unfilled', (r) => r.outgoing.unfilled],
    field('pitch_subject'),
    field('pitch_body'),
    ['opportunity_id', (r) => r.contact.opportunity_id],
    ['brand', (r) => r.brand],
  ];
}

/** A mail tool's lead list: its own names for the address, the names, the outlet, the text and the article. */
function leadColumns(names: {
  email: string;
  first: string;
  last: string;
  full?: string;
  company: string;
  subject: string | null;
  body: string | null;
  title: string;
  url: string;
  id: string;
  catchAll: string;
}): Column<ContactExportRow>[] {
  const title = valueIn(fieldNamed('title'));
  const url = valueIn(fieldNamed('url'));
  return [
    [names.email, (r) => r.email],
    [names.first, (r) => (r.inbox ? '' : r.name.first), MAIL],
    [names.last, (r) => (r.inbox ? '' : r.name.last), MAIL],
    ...(names.full ? [[names.full, (r: ContactExportRow) => (r.inbox ? '' : (r.author ?? '')), MAIL] as const] : []),
    // The service's text from here on: the outlet, the article, its id. Never "mail text": the CSV guard always applies.
    [names.company, (r) => r.publication],
    ...(names.subject ? [[names.subject, (r: ContactExportRow) => r.outgoing.subject, MAIL] as const] : []),
    ...(names.body ? [[names.body, (r: ContactExportRow) => r.outgoing.body, MAIL] as const] : []),
    [names.title, (r) => title(r.contact)],
    [names.url, (r) => url(r.contact), LINK],
    [names.id, (r) => r.contact.opportunity_id],
    // Which addresses are catch-all inboxes (whoever reads them may not be the author): a lead list that includes them
    // says so, as the contacts preset does, so the tool can keep them apart (a custom field where the tool has none).
    [names.catchAll, (r) => r.contact.catch_all === 1],
  ];
}

/** The opportunities preset: every scalar field as the server sent it, then the addresses and the user's triage. */
export function opportunityColumns(table: FieldTable = OPPORTUNITY_FIELDS): Column<OpportunityExportRow>[] {
  const fields = table.flatMap((f): Column<OpportunityExportRow>[] => {
    const header = exportHeader(f);
    const key = apiKey(f);
    return header === null ? [] : [[header, (r) => r.record[key], optionsOf(f)]];
  });
  return [
    ...fields,
    ['emails', (r) => r.emails.join('; ')],
    ['catch_all_emails', (r) => r.catchAlls.join('; ')],
    ['status', (r) => r.opportunity.status],
    ['note', (r) => r.opportunity.note],
    ['contacted_at', (r) => r.opportunity.contacted_at, DATE],
    ['exported_at', (r) => r.opportunity.exported_at, DATE],
    ['stage', (r) => r.opportunity.pipeline.stage ?? 'New'],
    ['stage_reason', (r) => r.opportunity.pipeline.stage_reason],
    ['snoozed_until', (r) => r.opportunity.pipeline.snoozed_until, DATE],
    ['followed_up_at', (r) => r.opportunity.pipeline.followed_up_at, DATE],
    ['subject', (r) => r.outgoing.subject],
    ['body', (r) => r.outgoing.body],
    ['unfilled', (r) => r.outgoing.unfilled],
    ['brand', (r) => r.brand],
  ];
}

/** The follow-ups preset: one row per address the pitch went to, the follow-up filled for that person. */
export function followUpColumns(): Column<FollowUpExportRow>[] {
  return [
    ['email', (r) => r.email],
    ['name', (r) => (r.record.author_name as string | null) ?? '', MAIL],
    ['first_name', (r) => r.name.first, MAIL],
    ['title', (r) => r.record.title],
    ['domain', (r) => r.record.domain],
    ['url', (r) => r.record.url, LINK],
    ['contacted_at', (r) => r.opportunity.contacted_at, DATE],
    ['stage', (r) => r.opportunity.pipeline.stage ?? 'New'],
    ['subject', (r) => r.followUp.subject, MAIL],
    ['body', (r) => r.followUp.body, MAIL],
    ['unfilled', (r) => r.followUp.unfilled],
    ['opportunity_id', (r) => r.record._id ?? r.record.unique_key],
    ['brand', (r) => r.brand],
  ];
}

/** Every preset's columns by the kind of row it writes. */
export type PresetColumns =
  | { rows: 'address'; columns: Column<ContactExportRow>[] }
  | { rows: 'opportunity'; columns: Column<OpportunityExportRow>[] }
  | { rows: 'followup'; columns: Column<FollowUpExportRow>[] };

export const PRESET_COLUMNS: Record<ExportPreset, PresetColumns> = {
  contacts: { rows: 'address', columns: contactColumns() },
  opportunities: { rows: 'opportunity', columns: opportunityColumns() },
  followups: { rows: 'followup', columns: followUpColumns() },
  instantly: {
    rows: 'address',
    columns: leadColumns({
      email: 'email',
      first: 'first_name',
      last: 'last_name',
      company: 'company_name',
      subject: 'subject',
      body: 'personalization',
      title: 'article_title',
      // Not "website": Instantly reads that as the lead's company site.
      url: 'article_url',
      id: 'opportunity_id',
      catchAll: 'catch_all',
    }),
  },
  lemlist: {
    rows: 'address',
    columns: leadColumns({
      email: 'email',
      first: 'firstName',
      last: 'lastName',
      company: 'companyName',
      subject: 'subject',
      body: 'icebreaker',
      title: 'articleTitle',
      url: 'articleUrl',
      id: 'opportunityId',
      catchAll: 'catchAll',
    }),
  },
  mailchimp: {
    rows: 'address',
    columns: leadColumns({
      email: 'Email Address',
      first: 'First Name',
      last: 'Last Name',
      company: 'Company',
      subject: 'Subject',
      body: null,
      title: 'Article Title',
      url: 'Article URL',
      id: 'Opportunity ID',
      catchAll: 'Catch-all',
    }),
  },
  'sheets-merge': {
    rows: 'address',
    columns: leadColumns({
      email: 'Email',
      first: 'First Name',
      last: 'Last Name',
      full: 'Full Name',
      company: 'Publication',
      subject: 'Subject',
      body: 'Body',
      title: 'Article Title',
      url: 'Article URL',
      id: 'Opportunity ID',
      catchAll: 'Catch-all',
    }),
  },
  'word-merge': {
    rows: 'address',
    columns: leadColumns({
      email: 'Email',
      first: 'FirstName',
      last: 'LastName',
      full: 'FullName',
      company: 'Publication',
      subject: 'Subject',
      body: 'Body',
      title: 'ArticleTitle',
      url: 'ArticleURL',
      id: 'OpportunityID',
      catchAll: 'CatchAll',
    }),
  },
};

/** The headers a preset writes, in order (the columns a person may choose from). */
export const presetHeaders = (preset: ExportPreset): string[] => PRESET_COLUMNS[preset].columns.map(([h]) => h);
export const rowsOf = (preset: ExportPreset): PresetRows => PRESETS[preset].rows;

export const CONTACT_COLUMNS = presetHeaders('contacts');
export const OPPORTUNITY_COLUMNS = presetHeaders('opportunities');
export const FOLLOW_UP_COLUMNS = presetHeaders('followups');

// An export's rows with their text filled: one per address (the address
// presets), one per opportunity, or one per address a contacted pitch went to
// (the follow-ups), each with the draft (or the service's pitch) filled by the
// merge fields of shared/merge-fields.ts for that address, so a row's names
// and its text always agree. Addresses as the app writes them (domain
// lower-cased). The columns that read these rows are in presets.ts.
import { fieldNamed, fieldReader, pitchOf, type FieldReader, type OpportunityField, type Pitch } from '../../../shared/opportunity-fields';
import { fieldValues, fillDraftWith, mergeValues, withDefaults, type MergeContext, type MergeDefaults, type MergeField } from '../../../shared/merge-fields';
import { defaultFollowUp } from '../../../shared/follow-up';
import { defaultRecipients } from '../../../shared/mail-links';
import { addressIdentity, normaliseAddress, parseContact } from '../../../shared/contacts';
import type { ContactRow, OpportunityRow } from '../store/export-rows';

/** A field's value in a contact row: a stored field's from its column, any other read from the record as everywhere. */
export function valueIn(f: OpportunityField): (c: ContactRow) => unknown {
  if (f.column) return (c) => c.stored[f.name];
  const read = fieldReader(f);
  return (c) => read(c.record);
}

/** The text that goes out, filled, and what could not be filled. */
export interface Outgoing {
  subject: string;
  body: string;
  /** The merge fields and placeholders left in it (the editor's own finder), distinct, as written. */
  tokens: string[];
  /** The same, in one cell. */
  unfilled: string;
}

/** One address of one opportunity, ready for an address preset's columns. */
export interface ContactExportRow {
  contact: ContactRow;
  /** The address as written to the file: its domain lower-cased. */
  email: string;
  brand: string;
  author: string | null;
  name: { first: string; last: string };
  /** The outlet's name (the merge fields' {publication}). */
  publication: string;
  /** What goes out: the user's draft (or the service's pitch), its merge fields filled for this address. */
  outgoing: Outgoing;
  /** A catch-all or role address: an inbox, not the author. */
  inbox: boolean;
}

export interface OpportunityExportRow {
  opportunity: OpportunityRow;
  /** The record as the server sent it. */
  record: Record<string, unknown>;
  brand: string;
  emails: string[];
  catchAlls: string[];
  outgoing: Outgoing;
}

/** One address a contacted opportunity's pitch went to, with the follow-up filled for that person. */
export interface FollowUpExportRow {
  opportunity: OpportunityRow;
  record: Record<string, unknown>;
  brand: string;
  email: string;
  catchAll: boolean;
  name: { first: string; last: string };
  followUp: Outgoing;
}

const authorOf = valueIn(fieldNamed('author_name'));
const readField = (name: string) => fieldReader(fieldNamed(name));
const [titleOf, urlOf, domainOf, authorInRecord] = ['title', 'url', 'domain', 'author_name'].map(readField) as [
  FieldReader,
  FieldReader,
  FieldReader,
  FieldReader,
];

/**
 * Could the text hold a merge token? Every token starts with `{` or `[` (shared/merge-fields.ts TOKEN): a text with
 * neither goes out as written, with nothing left unfilled, and its fields' values need not be worked out.
 */
export const mayHoldTokens = (text: Pitch): boolean =>
  text.subject.includes('{') || text.subject.includes('[') || text.body.includes('{') || text.body.includes('[');

/** A text with no merge token, as it goes out. */
const asWritten = (text: Pitch): Outgoing => ({ subject: text.subject, body: text.body, tokens: [], unfilled: '' });

/** Fill a text for an address (the merge fields of shared/merge-fields.ts); the tokens left, distinct, in one cell. */
function outgoingOf(text: Pitch, values: Record<MergeField, string | null>, defaults?: MergeDefaults): Outgoing {
  const f = fillDraftWith(text.subject, text.body, withDefaults(values, defaults));
  const tokens = [...new Set(f.unfilled.map((u) => u.token))];
  return { subject: f.subject, body: f.body, tokens, unfilled: tokens.join(' ') };
}

/** What an export fills the text with: the sender's name, and defaults where a value is unknown. */
export interface FillOptions {
  senderName?: string;
  defaults?: MergeDefaults;
}

/** A contact row ready for its columns, with the text that goes out. */
export function contactExportRow(contact: ContactRow, brand: string, fill: FillOptions = {}): ContactExportRow {
  const author = authorOf(contact) as string | null;
  const text = contact.pipeline.pitch_draft ?? pitchOf(contact.record);
  const stored = contact.stored;
  // Stored as the app writes it (domain lower-cased: shared/contacts.ts parseContact); only valid addresses are exported.
  const email = contact.email;
  const ctx: MergeContext = {
    author_name: author,
    domain: (stored.domain as string | undefined) ?? null,
    title: (stored.title as string | undefined) ?? null,
    url: (stored.url as string | undefined) ?? null,
    brand,
    contact: { email, catchAll: contact.catch_all === 1 },
    sender_name: fill.senderName ?? null,
  };
  const { values, inbox } = mergeValues(ctx);
  const outgoing = outgoingOf(text, values, fill.defaults);
  // The same names the merge fields use: none for an inbox, none for a byline that is not one person ("Staff", "Ana and Ben").
  const name = { first: values.first_name ?? '', last: values.last_name ?? '' };
  return { contact, email, brand, author, name, publication: values.publication ?? '', outgoing, inbox };
}

interface Opened {
  record: Record<string, unknown>;
  emails: string[];
  catchAlls: string[];
  ctx: MergeContext;
}

/** An opportunity row's record and addresses (those the export may write: valid, not on the do-not-contact list, as filtered). */
function open(opportunity: OpportunityRow, brand: string, json: string, senderName?: string): Opened {
  const record = JSON.parse(json) as Record<string, unknown>;
  const addresses = opportunity.addresses;
  const emails = addresses.filter(([, c]) => c === 0).map(([e]) => normaliseAddress(e));
  const catchAlls = addresses.filter(([, c]) => c === 1).map(([e]) => normaliseAddress(e));
  const ctx: MergeContext = {
    author_name: (authorInRecord(record) as string | null) ?? null,
    domain: (domainOf(record) as string | null) ?? null,
    title: (titleOf(record) as string | null) ?? null,
    url: (urlOf(record) as string | null) ?? null,
    brand,
    contact: null,
    sender_name: senderName ?? null,
  };
  return { record, emails, catchAlls, ctx };
}

/** An opportunity row ready for its columns, with the text that goes out (filled for its first personal address). */
export function opportunityExportRow(opportunity: OpportunityRow, brand: string, json = opportunity.json, fill: FillOptions = {}): OpportunityExportRow {
  const { record, emails, catchAlls, ctx } = open(opportunity, brand, json, fill.senderName);
  const first = emails[0] ?? catchAlls[0] ?? null;
  const text = opportunity.pipeline.pitch_draft ?? pitchOf(record);
  // The fields' values only for a text with tokens (about a third of the service's pitches): the rest go out as written.
  const outgoing = mayHoldTokens(text)
    ? outgoingOf(text, fieldValues({ ...ctx, contact: first ? { email: first, catchAll: !emails.includes(first) } : null }), fill.defaults)
    : asWritten(text);
  return { opportunity, record, brand, emails, catchAlls, outgoing };
}

/**
 * The follow-up rows of one opportunity: one per address its pitch went to
 * (the addresses recorded when it was marked contacted; for a contact marked
 * before they were recorded, the ones the app would have pre-selected), each
 * with the follow-up filled for that person, so its first name and its body
 * agree. An address since put on the do-not-contact list (or left out by the
 * filters) is not written to; no address left: no row (`none` says so).
 */
export function followUpRows(opportunity: OpportunityRow, brand: string, fill: FillOptions = {}, json = opportunity.json): FollowUpExportRow[] {
  const { record, emails, catchAlls, ctx } = open(opportunity, brand, json, fill.senderName);
  const allowed = new Map([...emails, ...catchAlls].map((e) => [addressIdentity(e), e]));
  const recorded = opportunity.pipeline.contacted_addresses ? (JSON.parse(opportunity.pipeline.contacted_addresses) as string[]) : null;
  const sentTo = recorded
    ? [...new Set(recorded.map(addressIdentity))].flatMap((id) => (allowed.has(id) ? [allowed.get(id)!] : []))
    : defaultRecipients([...emails, ...catchAlls.map((e) => `${e} CATCH`)].map(parseContact));
  // The follow-up replies to the subject the pitch went out with ("Re: " + it), so it threads in their inbox.
  const text = opportunity.pipeline.followup_draft ?? defaultFollowUp(pitchOf(record), opportunity.pipeline.contacted_subject);
  return sentTo.map((email) => {
    const catchAll = catchAlls.includes(email);
    const contact = { email, catchAll };
    const values = fieldValues({ ...ctx, contact });
    return {
      opportunity,
      record,
      brand,
      email,
      catchAll,
      name: { first: values.first_name ?? '', last: values.last_name ?? '' },
      followUp: outgoingOf(text, values, fill.defaults),
    };
  });
}

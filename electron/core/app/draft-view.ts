// A draft as the pane shows it, worked out from the cache: the saved text (or
// the service's pitch, or the suggested follow-up that replies to the subject
// sent), filled for an address, what could not be filled, who it may go to
// (never an address on the do-not-contact list), and the hints on the filled
// text. Reads only (after the brand's one preparing step); the drafts and the
// triage domains both use it.
import { WorkbenchError } from '../../../shared/errors';
import { defaultFollowUp } from '../../../shared/follow-up';
import { defaultRecipients, pickRecipients } from '../../../shared/mail-links';
import { fillDraft, type MergeContext } from '../../../shared/merge-fields';
import type { DetailContact, DraftView, OpportunityDetail } from '../../../shared/model';
import { fieldNamed, fieldReader, pitchOf } from '../../../shared/opportunity-fields';
import { pitchHints } from '../../../shared/pitch-hints';
import type { Cache } from '../store/cache';
import { readDraft, type DraftKind } from '../store/drafts';
import { prepareBrand } from '../store/list-items';
import { readOpportunity } from '../store/opportunity-detail';

export const NOT_IN_CACHE = 'That opportunity is not in the cache (it may have been reset).';
const authorOf = fieldReader(fieldNamed('author_name'));

/** One opportunity whole, or a not-found error in plain words. */
export function detailOf(cache: Cache, brandId: string, id: string): OpportunityDetail {
  const d = readOpportunity(cache.readable, prepareBrand(cache.writable, brandId), id);
  if (!d) throw new WorkbenchError('not-found', NOT_IN_CACHE);
  return d;
}

/** What fills the merge fields of this opportunity, for the chosen address. */
function mergeContext(cache: Cache, senderName: string, d: OpportunityDetail, brandId: string, to?: string): MergeContext {
  const contact = to ? (d.contacts.find((c) => c.email.toLowerCase() === to.toLowerCase()) ?? null) : null;
  return {
    author_name: (authorOf(d.raw) as string | null) ?? null,
    domain: d.item.domain || null,
    title: d.item.title,
    url: d.item.url ?? null,
    brand: cache.brands.name(brandId),
    contact: contact ? { email: contact.email, catchAll: contact.catchAll } : null,
    sender_name: senderName || null,
  };
}

/** Who it may go to: every valid address, one on the do-not-contact list marked and never selected (the others chosen as if it were not there). */
export function recipientsOf(contacts: readonly DetailContact[]): DraftView['recipients'] {
  const allowed = new Map(pickRecipients(contacts, { exclude: (c) => (c as DetailContact).blocked }).map((r) => [r.email, r]));
  return pickRecipients(contacts).map((r) => {
    const ok = allowed.get(r.email);
    return ok ? { ...ok, blocked: false } : { ...r, selected: false, blocked: true };
  });
}

/**
 * The draft of a kind (or the service's pitch, or the suggested follow-up),
 * filled for the chosen address, with hints on the filled text. No address
 * given: filled for the one the view pre-selects (else the first one not on
 * the do-not-contact list, so a catch-all's text never gets a first name), as
 * it would go out.
 */
export function draftView(cache: Cache, senderName: string, d: OpportunityDetail, brandId: string, kind: DraftKind, to?: string): DraftView {
  const id = d.item.id;
  const service = pitchOf(d.raw);
  const saved = readDraft(cache.readable, brandId, id, kind) ?? null;
  const text = saved ? { subject: saved.subject, body: saved.body } : kind === 'pitch' ? service : defaultFollowUp(service, d.triage.contacted_subject);
  const recipients = recipientsOf(d.contacts);
  // Never a do-not-contact address: with none allowed, filled for no address (names from the byline only).
  const fillFor = to ?? recipients.find((r) => r.selected)?.email ?? recipients.find((r) => !r.blocked)?.email;
  const filled = fillDraft(text.subject, text.body, mergeContext(cache, senderName, d, brandId, fillFor));
  const serviceChanged =
    !!saved && kind === 'pitch' && saved.base_subject !== null && (saved.base_subject !== service.subject || saved.base_body !== service.body);
  return {
    kind,
    draft: saved ? { subject: saved.subject, body: saved.body, updated_at: saved.updated_at } : null,
    text,
    service,
    base: saved && saved.base_subject !== null ? { subject: saved.base_subject, body: saved.base_body ?? '' } : null,
    serviceChanged,
    filled: { subject: filled.subject, body: filled.body },
    unfilled: filled.unfilled.map((u) => ({ token: u.token, field: u.field, part: u.part })),
    recipients,
    hints: pitchHints(filled),
  };
}

/**
 * What "marked contacted" records when the caller does not say: the addresses
 * the pitch pre-selects (shared/mail-links.ts defaultRecipients: personal
 * addresses; catch-alls only when that is all it has; never one on the
 * do-not-contact list) and its subject filled for the first of them, as it
 * would have gone out.
 */
export function sentDefaults(cache: Cache, senderName: string, brandId: string, id: string): { addresses: string[]; subject: string | null } {
  const d = detailOf(cache, brandId, id);
  const addresses = defaultRecipients(d.contacts, { exclude: (c) => (c as DetailContact).blocked });
  const view = draftView(cache, senderName, d, brandId, 'pitch', addresses[0]);
  return { addresses, subject: view.filled.subject || null };
}

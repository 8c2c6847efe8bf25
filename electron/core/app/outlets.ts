// Outlet-level work, declared in shared/contract/outlets.ts: one pitch planned
// for several opportunities at one outlet, and marking it sent. The plan is a
// read: the first opportunity's pitch (its saved draft, else the service's),
// filled for the first address chosen, with every covered piece listed, and
// every address of the covered opportunities once (catch-all and role
// addresses flagged; one on the do-not-contact list shown, never chosen).
// Marking it contacted goes through the record's one owner (triage.ts
// applyEach): every covered opportunity records the addresses written to and
// the subject sent, as one action that one undo takes back, and each one's
// history says so. And every opportunity of an outlet under the list's filter,
// however many (Snooze all and Not a fit all act on all of them).
import type { ContractHandlers, OutletPlan } from '../../../shared/contract';
import { addressIdentity } from '../../../shared/contacts';
import { WorkbenchError } from '../../../shared/errors';
import type { DetailContact, ListFilter, OpportunityDetail } from '../../../shared/model';
import type { Cache } from '../store/cache';
import { missingIds } from '../store/opportunity-detail';
import { listPage, prepareList, type After } from '../store/opportunity-list';
import type { DomainDeps } from './domain-deps';
import { contactWarnings, mixOf } from './drafts';
import { detailOf, draftView, recipientsOf } from './draft-view';
import { answer, applyEach, missingMessage } from './triage';

/** The covered pieces, listed in the draft: before its last paragraph (the sign-off), or at its end. */
export function withPiecesListed(body: string, covered: readonly { title: string; url: string | null }[]): string {
  const list = [
    `This covers ${covered.length === 1 ? 'your piece' : `${covered.length} of your pieces`}:`,
    ...covered.map((c) => `- ${c.title}${c.url ? ` (${c.url})` : ''}`),
  ].join('\n');
  const paragraphs = body.trimEnd().split(/\n[ \t]*\n/);
  if (paragraphs.length < 2) return body.trim() ? `${body.trimEnd()}\n\n${list}` : list;
  return [...paragraphs.slice(0, -1), list, paragraphs.at(-1)!].join('\n\n');
}

/** The opportunities, whole and in the order given, all at one outlet: else refused in plain words. */
function coveredOf(cache: Cache, brandId: string, ids: readonly string[]): OpportunityDetail[] {
  const unique = [...new Set(ids)];
  const missing = missingIds(cache.readable, brandId, unique);
  if (missing.length) throw new WorkbenchError('not-found', missingMessage(missing, unique.length), { field: 'ids' });
  const covered = unique.map((id) => detailOf(cache, brandId, id));
  const outlets = new Set(covered.map((d) => (d.item.domain ?? '').toLowerCase()));
  if (outlets.size > 1)
    throw new WorkbenchError(
      'invalid-input',
      `One pitch covers one outlet: these opportunities are at ${[...outlets].join(', ')}. Choose those of one outlet.`,
      {
        field: 'ids',
      },
    );
  return covered;
}

/** Every valid address of the covered opportunities, once each (the first spelling met). */
function addressesOf(covered: readonly OpportunityDetail[]): DetailContact[] {
  const seen = new Set<string>();
  return covered.flatMap((d) => d.contacts.filter((c) => c.valid && !seen.has(c.identity) && seen.add(c.identity)));
}

/** What planning needs besides the cache: the sender's name, the contact window (days) and the user's day. */
export interface PlanContext {
  senderName: string;
  contactWindowDays: number;
  today: string;
}

/** One pitch to the outlet for these opportunities, drafted from the first one's. Reads only. */
export function planOutlet(cache: Cache, ctx: PlanContext, brandId: string, ids: readonly string[]): OutletPlan {
  const covered = coveredOf(cache, brandId, ids);
  const lead = covered[0]!;
  const recipients = recipientsOf(addressesOf(covered));
  const chosen = recipients.filter((r) => r.selected);
  // Filled for the first address chosen when the first opportunity holds it (its names are that piece's), else for none.
  const to = chosen.find((r) => lead.contacts.some((c) => c.email === r.email))?.email;
  const draft = draftView(cache, ctx.senderName, lead, brandId, 'pitch', to);
  // Earlier contacts of any of the outlet's addresses, or of the outlet, for an opportunity this pitch does not cover.
  const covers = new Set(covered.map((d) => d.item.id));
  const addresses = recipients.filter((r) => !r.blocked).map((r) => r.email);
  const earlier = contactWarnings(cache, ctx.contactWindowDays, ctx.today, brandId, lead.item.id, addresses).filter((w) => !covers.has(w.opportunity_id));
  const pieces = covered.map((d) => ({ id: d.item.id, title: d.item.title, url: d.item.url ?? null, stage: d.item.stage ?? 'New' }));
  return {
    domain: lead.item.domain ?? '',
    covered: pieces,
    recipients,
    subject: draft.filled.subject,
    body: withPiecesListed(draft.filled.body, pieces),
    mix: mixOf(chosen),
    earlier,
  };
}

/** The addresses written to, as the outlet's opportunities hold them: refused when one is not theirs, or is on the do-not-contact list. */
function sentTo(covered: readonly OpportunityDetail[], addresses: readonly string[]): string[] {
  const known = new Map(addressesOf(covered).map((c) => [c.identity, c]));
  const asked = [...new Set(addresses.map(addressIdentity))];
  const unknown = addresses.filter((a) => !known.has(addressIdentity(a)));
  if (unknown.length)
    throw new WorkbenchError(
      'invalid-input',
      `Nothing was changed: ${unknown.join(', ')} ${unknown.length === 1 ? 'is not an address' : 'are not addresses'} of these opportunities. Their addresses: ${[...known.values()].map((c) => c.email).join(', ') || 'none'}.`,
      { field: 'addresses' },
    );
  const blocked = asked.filter((a) => known.get(a)!.blocked).map((a) => known.get(a)!.email);
  if (blocked.length)
    throw new WorkbenchError(
      'invalid-input',
      `Nothing was changed: ${blocked.join(', ')} ${blocked.length === 1 ? 'is' : 'are'} on your do-not-contact list. Untick ${blocked.length === 1 ? 'it' : 'them'} first.`,
      { field: 'addresses' },
    );
  return asked.map((a) => known.get(a)!.email);
}

/** How many rows each page of an outlet's ids reads. */
const IDS_PAGE = 1000;

/**
 * Every opportunity at this outlet (its domain, any case) under the list's
 * filter, in the list's order: the list narrowed to the domain (which matches
 * a part of a domain) paged through after each row, only the outlet's own
 * kept. Reads only.
 */
export function outletIds(cache: Cache, filter: ListFilter, domain: string): string[] {
  const q = prepareList(cache.writable, { ...filter, domain }, cache.days());
  const key = domain.toLowerCase();
  const ids: string[] = [];
  let after: After | undefined;
  do {
    const page = listPage(cache.readable, q, { limit: IDS_PAGE, after });
    for (const it of page.items) if ((it.domain ?? '').toLowerCase() === key) ids.push(it.id);
    after = page.next ?? undefined;
  } while (after);
  return ids;
}

/** The contract's outlets slice (shared/contract/outlets.ts). */
export function outletHandlers(d: DomainDeps): Pick<ContractHandlers, 'outlets:ids' | 'outlets:plan' | 'outlets:contacted'> {
  return {
    'outlets:ids': ({ filter, domain }) => ({ ids: outletIds(d.cache(), filter, domain) }),
    'outlets:plan': ({ brandId, ids }) => {
      const s = d.settings();
      return planOutlet(d.cache(), { senderName: s.senderName, contactWindowDays: s.contactWindowDays, today: d.today() }, brandId, ids);
    },
    'outlets:contacted': ({ brandId, ids, addresses, subject, filter, counts }) => {
      const cache = d.cache();
      const covered = coveredOf(cache, brandId, ids);
      const to = sentTo(covered, addresses);
      const unique = covered.map((c) => c.item.id);
      const domain = covered[0]!.item.domain || 'the outlet';
      const applied = applyEach(
        cache,
        brandId,
        unique,
        () => ({ do: 'contacted', addresses: to, subject }),
        { kind: 'contacted', label: `Marked contacted, one pitch to ${domain}: ${to.join(', ')}`, pitched: true },
        { today: d.today(), senderName: d.settings().senderName },
      );
      if (applied.actionId !== null) d.changed();
      return answer(cache, brandId, applied, unique, { filter, counts });
    },
  };
}

// The drafts' slice of the contract, declared in shared/contract/drafts.ts and
// done here: the draft per opportunity and its filled text (draft-view.ts),
// saving it (the first save of a New opportunity makes it Drafted), the
// user's snippets, the warnings before the same person or outlet is pitched
// twice, and sending it through the user's own mail: never to an address on
// the do-not-contact list, and a person with shared inboxes (catch-all or
// role addresses) in one To: line only once the user picks how.
import type { ContractHandlers } from '../../../shared/contract';
import { WorkbenchError } from '../../../shared/errors';
import { addDays } from '../../../shared/calendar';
import { composeLink, VIA_NAMES, type ComposeLink } from '../../../shared/mail-links';
import { isRoleAddress } from '../../../shared/merge-fields';
import type { ComposeResult, ContactWarning, MixChoice, MixWarning } from '../../../shared/model';
import { pitchOf } from '../../../shared/opportunity-fields';
import type { Cache } from '../store/cache';
import { listSnippets, removeSnippet, resetDraft, saveDraft, saveSnippet, type DraftKind } from '../store/drafts';
import { addHistory } from '../store/history';
import { earlierContacts } from '../store/opportunity-detail';
import type { DomainDeps } from './domain-deps';
import { detailOf, draftView } from './draft-view';
import { stageEvent } from './triage';

type Via = ComposeResult['via'];
/** Each way of sending, as the history line names it. */
const viaWords = (via: Via) => (via === 'default' ? 'mail app' : VIA_NAMES[via]);

/** Earlier contacts of these addresses, or of this outlet, within the contact window: said before anything is sent. */
export function contactWarnings(cache: Cache, windowDays: number, today: string, brandId: string, id: string, addresses: readonly string[]): ContactWarning[] {
  if (windowDays <= 0) return [];
  return earlierContacts(cache.readable, brandId, id, addresses, addDays(today, -windowDays));
}

/** A person and shared inboxes chosen together: the warning and the ways to send it, or null. */
export function mixOf(to: readonly { email: string; catchAll: boolean }[]): MixWarning | null {
  const shared = to.filter((r) => r.catchAll || isRoleAddress(r.email)).map((r) => r.email);
  const people = to.filter((r) => !r.catchAll && !isRoleAddress(r.email)).map((r) => r.email);
  if (people.length === 0 || shared.length === 0) return null;
  const they = shared.length === 1 ? `${shared[0]} is a shared inbox` : `${shared.join(', ')} are shared inboxes`;
  return {
    people,
    shared,
    message: `${they} (a catch-all or role address), sent with ${people.join(', ')} in one To: line: each sees the other, and the names are filled for ${people[0]} only. Send one message each, put the shared ${shared.length === 1 ? 'inbox' : 'inboxes'} in Bcc, or send together anyway.`,
    offers: ['each', 'bcc', 'together'],
  };
}

/** Plain words for several messages opened, and for what of them went to the clipboard. */
function messagesWords(opened: readonly { to: string[]; link: ComposeLink }[]): string {
  const clipped = opened.filter((o) => o.link.clipboard !== null);
  const head = `Opening ${opened.length} messages, one for each address.`;
  if (clipped.length === 0) return head;
  const who = clipped.map((o) => o.to.join(', ')).join(', ');
  return `${head} ${clipped.length === 1 ? `The one to ${who} is` : `The ones to ${who} are`} too long for a link: what was left out of ${clipped.length === 1 ? 'it' : 'each (under its address)'} has been copied to the clipboard, so paste it in.`;
}

/**
 * Open the filled draft in the user's own mail for the chosen addresses: the
 * default mail app, Gmail, Outlook on the web (work or school) or Outlook.com
 * (personal). A link never lies: what did not fit (the body, addresses left
 * out whole, the subject) is copied to the clipboard instead, and the message
 * says exactly what is where. Only http(s) and mailto: links leave, through
 * main's checked path.
 */
export async function compose(
  d: DomainDeps,
  a: { brandId: string; id: string; kind: DraftKind; via: Via; to: readonly string[]; mix?: MixChoice },
): Promise<ComposeResult> {
  const cache = d.cache();
  const settings = d.settings();
  const detail = detailOf(cache, a.brandId, a.id);
  const valid = new Map(detail.contacts.filter((c) => c.valid).map((c) => [c.email.toLowerCase(), c]));
  // Each address as the opportunity holds it, once, whatever case the caller wrote it in.
  const chosen = [...new Set(a.to.flatMap((e) => valid.get(e.toLowerCase())?.email ?? []))];
  if (chosen.length === 0) throw new WorkbenchError('invalid-input', 'Choose at least one address of this opportunity to send to.', { field: 'to' });
  const blocked = chosen.filter((e) => valid.get(e.toLowerCase())!.blocked);
  if (blocked.length) {
    const which = blocked.length === 1 ? `${blocked[0]} is` : `${blocked.join(', ')} are`;
    throw new WorkbenchError(
      'invalid-input',
      `${which} on your do-not-contact list, so nothing was opened. Untick ${blocked.length === 1 ? 'it' : 'them'}, or take ${blocked.length === 1 ? 'it' : 'them'} off the list first.`,
      { field: 'to' },
    );
  }
  const warnings = contactWarnings(cache, settings.contactWindowDays, d.today(), a.brandId, a.id, chosen);
  const mix = mixOf(chosen.map((e) => valid.get(e.toLowerCase())!));
  const first = draftView(cache, settings.senderName, detail, a.brandId, a.kind, chosen[0]);
  const base = { via: a.via, unfilled: first.unfilled, warnings, subject: first.filled.subject };
  if (mix && a.mix === undefined) {
    return {
      ...base,
      opened: false,
      to: chosen,
      bcc: [],
      messages: 0,
      bodyCopied: false,
      inLink: { to: [], bcc: [], subject: false, body: false },
      message: mix.message,
      mix,
    };
  }
  // One message each (filled for its own address), or one with the shared inboxes in Bcc, or all together.
  const sends =
    mix && a.mix === 'each'
      ? chosen.map((e) => ({ to: [e], bcc: [] as string[] }))
      : mix && a.mix === 'bcc'
        ? [{ to: mix.people, bcc: mix.shared }]
        : [{ to: chosen, bcc: [] as string[] }];
  // Every link built before anything opens: one that cannot hold even an address opens none.
  const opened = sends.map((s) => {
    const view = s.to[0] === chosen[0] ? first : draftView(cache, settings.senderName, detail, a.brandId, a.kind, s.to[0]);
    try {
      return { to: s.to, link: composeLink(a.via, { to: s.to, bcc: s.bcc, subject: view.filled.subject, body: view.filled.body }) };
    } catch (e) {
      throw e instanceof WorkbenchError ? new WorkbenchError(e.kind, e.message, { field: 'to' }) : e;
    }
  });
  // What did not fit in a link is copied (several messages: each one's under its address), and the message says what is where.
  const clipped = opened.filter((o) => o.link.clipboard !== null);
  if (clipped.length === 1) d.platform.writeClipboard(clipped[0]!.link.clipboard!);
  else if (clipped.length > 1) d.platform.writeClipboard(clipped.map((o) => `For ${o.to.join(', ')}:\n${o.link.clipboard}`).join('\n\n'));
  for (const o of opened) await d.platform.openExternal(o.link.url);
  cache.writable.transaction(() =>
    addHistory(
      cache.writable,
      a.brandId,
      a.id,
      'mailed',
      new Date().toISOString(),
      `${viaWords(a.via)}: ${chosen.join(', ')}${sends.length > 1 ? ' (one message each)' : mix && a.mix === 'bcc' ? ` (Bcc: ${mix.shared.join(', ')})` : ''}`,
    ),
  );
  d.changed();
  return {
    ...base,
    opened: true,
    to: sends.flatMap((s) => s.to),
    bcc: sends.flatMap((s) => s.bcc),
    messages: sends.length,
    bodyCopied: opened.some((o) => o.link.bodyLeftOut),
    inLink: {
      to: opened.flatMap((o) => o.link.inLink.to),
      bcc: opened.flatMap((o) => o.link.inLink.bcc),
      subject: opened.every((o) => o.link.inLink.subject),
      body: opened.every((o) => o.link.inLink.body),
    },
    message: opened.length > 1 ? messagesWords(opened) : opened[0]!.link.message,
    mix: null,
  };
}

/** The contract's drafts slice (shared/contract/drafts.ts). */
export function draftHandlers(
  d: DomainDeps,
): Pick<
  ContractHandlers,
  'drafts:get' | 'drafts:save' | 'drafts:reset' | 'snippets:list' | 'snippets:save' | 'snippets:remove' | 'pipeline:warnings' | 'mail:compose'
> {
  const view = (brandId: string, id: string, kind: DraftKind, to?: string) => {
    const cache = d.cache();
    return draftView(cache, d.settings().senderName, detailOf(cache, brandId, id), brandId, kind, to);
  };
  return {
    'drafts:get': ({ brandId, id, kind, to }) => view(brandId, id, kind, to),
    // Saved as typed; the first save of a New opportunity makes it Drafted.
    'drafts:save': ({ brandId, id, kind, subject, body }) => {
      const cache = d.cache();
      const detail = detailOf(cache, brandId, id);
      cache.writable.transaction(() => {
        const now = new Date().toISOString();
        saveDraft(cache.writable, brandId, id, kind, { subject, body }, kind === 'pitch' ? pitchOf(detail.raw) : null, now);
        stageEvent(cache, brandId, id, 'draft-saved', now);
      });
      d.changed();
      return view(brandId, id, kind);
    },
    'drafts:reset': ({ brandId, id, kind }) => {
      const cache = d.cache();
      detailOf(cache, brandId, id);
      cache.writable.transaction(() => resetDraft(cache.writable, brandId, id, kind));
      d.changed();
      return view(brandId, id, kind);
    },
    'snippets:list': () => listSnippets(d.cache().readable),
    'snippets:save': (s) => {
      const saved = saveSnippet(d.cache().writable, s);
      d.changed();
      return saved;
    },
    'snippets:remove': ({ id }) => {
      const removed = removeSnippet(d.cache().writable, id);
      if (removed) d.changed();
      return { removed };
    },
    'pipeline:warnings': ({ brandId, id, addresses }) => contactWarnings(d.cache(), d.settings().contactWindowDays, d.today(), brandId, id, addresses),
    'mail:compose': (args) => compose(d, args),
  };
}

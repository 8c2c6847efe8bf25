// From reading a pitch to sending it and following up (a concern of the
// service): the draft per opportunity and its filled text, sending it
// through the user's own mail, the local stages with the service's status
// kept beside them, snooze, the one follow-up, and the warnings before the
// same person or outlet is pitched twice. Every change is the user's record
// (triage fields, drafts, history), so backups and the record file carry it.
import { WorkbenchError } from '../../../shared/errors';
import { fieldNamed, fieldReader, pitchOf } from '../../../shared/opportunity-fields';
import { fillDraft, type MergeContext } from '../../../shared/merge-fields';
import { defaultFollowUp } from '../../../shared/follow-up';
import { composeLink, pickRecipients, VIA_NAMES, type MailVia } from '../../../shared/mail-links';
import { noReplyExpired, STAGE_TO_STATUS, stageAfter, type Stage } from '../../../shared/pipeline';
import type { ComposeResult, ContactWarning, DraftView, TriagePatch } from '../../../shared/model';
import type { Contact } from '../../../shared/contacts';
import { addDays } from '../../../shared/calendar';
import type { Settings } from '../../../shared/contract';
import type { Cache } from '../store/cache';
import type { DraftKind } from '../store/drafts';
import type { Platform } from './platform';
import { missingMessage } from './triage';
import type { SnippetRecord } from '../../../shared/user-record';

const NOT_IN_CACHE = 'That opportunity is not in the cache (it may have been reset).';
const authorOf = fieldReader(fieldNamed('author_name'));

export interface PipelineDeps {
  cache: () => Cache;
  platform: Platform;
  settings: () => Settings;
  /** Today on the user's calendar (YYYY-MM-DD): the core's clock, a test's fixed day. */
  today: () => string;
  /** The user's record changed (a backup follows). */
  changed: () => void;
}

export class Pipeline {
  constructor(private readonly d: PipelineDeps) {}

  private detail(brandId: string, id: string) {
    const detail = this.d.cache().opportunities.get(brandId, id);
    if (!detail) throw new WorkbenchError('not-found', NOT_IN_CACHE);
    return detail;
  }

  /** What fills the merge fields of this opportunity, for the chosen address. */
  private context(brandId: string, id: string, to?: string): MergeContext {
    const d = this.detail(brandId, id);
    const contact = to ? (d.contacts.find((c) => c.email.toLowerCase() === to.toLowerCase()) ?? null) : null;
    return {
      author_name: (authorOf(d.record) as string | null) ?? null,
      domain: d.item.domain || null,
      title: d.item.title,
      url: d.item.url ?? null,
      brand: this.d.cache().brands.get(brandId)?.name ?? null,
      contact: contact ? { email: contact.email, catchAll: contact.catchAll } : null,
      sender_name: this.d.settings().senderName || null,
    };
  }

  /**
   * The draft of a kind (or the service's pitch when there is none), filled for
   * the chosen address, with hints. No address given: filled for the one the
   * view pre-selects (else the first one not on the do-not-contact list, so a
   * catch-all's text never gets a first name), as it would go out.
   */
  draft(brandId: string, id: string, kind: DraftKind, to?: string): DraftView {
    const d = this.detail(brandId, id);
    const service = pitchOf(d.record);
    const saved = this.d.cache().drafts.get(brandId, id, kind) ?? null;
    const text = saved ? { subject: saved.subject, body: saved.body } : kind === 'pitch' ? service : defaultFollowUp(service);
    const recipients = this.recipients(d.contacts);
    // Never a do-not-contact address: with none allowed, filled for no address (names from the byline only).
    const fillFor = to ?? recipients.find((r) => r.selected)?.email ?? recipients.find((r) => !r.blocked)?.email;
    const filled = fillDraft(text.subject, text.body, this.context(brandId, id, fillFor));
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
    };
  }

  /** On the do-not-contact list (the address, its domain or a parent domain): never pre-selected, never sent to. */
  private blocked(c: Contact): boolean {
    return this.d.cache().doNotContact.blocks(c.identity, c.domain);
  }

  /** Who it may go to: every valid address, a blocked one marked and never selected (the others chosen as if it were not there). */
  private recipients(contacts: readonly Contact[]): DraftView['recipients'] {
    const allowed = new Map(pickRecipients(contacts, { exclude: (c) => this.blocked(c) }).map((r) => [r.email, r]));
    return pickRecipients(contacts).map((r) => {
      const ok = allowed.get(r.email);
      return ok ? { ...ok, blocked: false } : { ...r, selected: false, blocked: true };
    });
  }

  /** Save the draft as typed; the first save of a New opportunity makes it Drafted. */
  saveDraft(brandId: string, id: string, kind: DraftKind, subject: string, body: string): DraftView {
    const d = this.detail(brandId, id);
    const cache = this.d.cache();
    cache.drafts.save(brandId, id, kind, { subject, body }, kind === 'pitch' ? pitchOf(d.record) : null);
    const current = (d.item.stage ?? 'New') as Stage;
    const next = stageAfter('draft-saved', current);
    if (next !== current) this.setStage(brandId, id, next);
    this.d.changed();
    return this.draft(brandId, id, kind);
  }

  resetDraft(brandId: string, id: string, kind: DraftKind): DraftView {
    this.detail(brandId, id);
    this.d.cache().drafts.reset(brandId, id, kind);
    this.d.changed();
    return this.draft(brandId, id, kind);
  }

  /** What setting a stage writes: the local status follows the mapping table in shared/pipeline.ts. */
  private stagePatch(stage: Stage, reason?: string | null): TriagePatch {
    return { stage: stage === 'New' ? null : stage, stage_reason: stage === 'Not a fit' ? (reason ?? null) : null, status: STAGE_TO_STATUS[stage] };
  }

  /** Contacted without a date yet: contacted today (the core's today), so its follow-up comes due. */
  private stageFill(stage: Stage): TriagePatch | undefined {
    return stage === 'Contacted' ? { contacted_at: this.d.today() } : undefined;
  }

  /** A stage set by the user (or by an action). */
  setStage(brandId: string, id: string, stage: Stage, reason?: string | null): void {
    this.d.cache().triage.set(brandId, id, this.stagePatch(stage, reason), undefined, this.stageFill(stage));
    this.d.changed();
  }

  /** All or nothing: refused, naming them, when any of the ids is not in the cache. */
  private mustExist(brandId: string, ids: readonly string[]): string[] {
    const cache = this.d.cache();
    const unique = [...new Set(ids)];
    const missing = unique.filter((id) => !cache.opportunities.exists(brandId, id));
    if (missing.length) throw new WorkbenchError('not-found', missingMessage(missing, unique.length), { field: 'ids' });
    return unique;
  }

  setStageMany(brandId: string, ids: readonly string[], stage: Stage, reason?: string | null): number {
    ids = this.mustExist(brandId, ids);
    const n = this.d.cache().triage.setMany(brandId, ids, this.stagePatch(stage, reason), undefined, this.stageFill(stage));
    this.d.changed();
    return n;
  }

  /** Out of the list until `until` (YYYY-MM-DD), or back now (null). */
  snooze(brandId: string, ids: readonly string[], until: string | null): number {
    if (until !== null && until <= this.d.today()) throw new WorkbenchError('invalid-input', 'Snooze until a day after today.', { field: 'until' });
    ids = this.mustExist(brandId, ids);
    const n = this.d.cache().triage.setMany(brandId, ids, { snoozed_until: until });
    this.d.changed();
    return n;
  }

  /**
   * Mailed: contacted today, with the addresses used; the stage moves on. No
   * addresses named (the list's key C): the store records the ones the pitch
   * pre-selects (store/triage.ts), so a follow-up knows who was written to.
   */
  markContacted(brandId: string, id: string, addresses: readonly string[]): void {
    this.mustExist(brandId, [id]);
    const d = this.detail(brandId, id);
    const stage = stageAfter('mailed', (d.item.stage ?? 'New') as Stage);
    const valid = new Map(d.contacts.filter((c) => c.valid).map((c) => [c.identity, c.email]));
    const used = [...new Set(addresses.map((a) => a.trim().toLowerCase()))].flatMap((a) => (valid.has(a) ? [valid.get(a)!] : []));
    this.d.cache().triage.set(brandId, id, {
      contacted_at: this.d.today(),
      ...(used.length ? { contacted_addresses: used } : {}),
      stage,
      status: STAGE_TO_STATUS[stage],
      snoozed_until: null,
    });
    this.d.changed();
  }

  markFollowedUp(brandId: string, id: string): void {
    const d = this.detail(brandId, id);
    const stage = stageAfter('followed-up', (d.item.stage ?? 'New') as Stage);
    this.d.cache().triage.set(brandId, id, { followed_up_at: this.d.today(), stage, status: STAGE_TO_STATUS[stage] });
    this.d.changed();
  }

  /**
   * After the one follow-up, no reply for `noReplyAfterDays`: the opportunity
   * moves to Not a fit (No reply). Run at launch and whenever the follow-ups
   * due are counted (a window left open for days); returns how many moved.
   */
  applyNoReply(): number {
    const cache = this.d.cache();
    const settings = { followUpAfterDays: this.d.settings().followUpAfterDays, noReplyAfterDays: this.d.settings().noReplyAfterDays };
    const today = this.d.today();
    const expired = cache.triage
      .followedUp()
      .filter((t) => noReplyExpired({ stage: t.stage as Stage | null, followed_up_at: t.followed_up_at }, today, settings));
    for (const t of expired)
      cache.triage.set(t.brand_id, t.opportunity_id, { stage: 'Not a fit', stage_reason: 'No reply', status: STAGE_TO_STATUS['Not a fit'] });
    if (expired.length) this.d.changed();
    return expired.length;
  }

  /** Follow-ups due, per brand and in all (the count shown at launch): what the Due view lists. The no-reply rule runs first. */
  due(): { byBrand: Record<string, number>; total: number } {
    this.applyNoReply();
    const cache = this.d.cache();
    const byBrand = cache.triage.dueCounts(cache.opportunities.days(), (brandId) => cache.opportunities.key(brandId));
    return { byBrand, total: Object.values(byBrand).reduce((a, b) => a + b, 0) };
  }

  saveSnippet(s: { id?: string; kind: 'opening' | 'signoff' | 'other'; name: string; text: string }): SnippetRecord {
    const saved = this.d.cache().snippets.save(s);
    this.d.changed();
    return saved;
  }

  removeSnippet(id: string): { removed: boolean } {
    const removed = this.d.cache().snippets.remove(id);
    if (removed) this.d.changed();
    return { removed };
  }

  /** Earlier contacts of these addresses, or of this outlet, within the contact window: said before anything is sent. */
  warnings(brandId: string, id: string, addresses: readonly string[]): ContactWarning[] {
    const days = this.d.settings().contactWindowDays;
    if (days <= 0) return [];
    return this.d.cache().opportunities.earlierContacts(brandId, id, addresses, addDays(this.d.today(), -days));
  }

  /**
   * Open the filled draft in the user's own mail: the default mail app, Gmail
   * or Outlook on the web, for the chosen addresses. A body too long for a
   * link is copied to the clipboard instead, and said. Only http(s) and
   * mailto: links leave, through main's checked path.
   */
  async compose(brandId: string, id: string, kind: DraftKind, via: MailVia, to: readonly string[]): Promise<ComposeResult> {
    const d = this.detail(brandId, id);
    const valid = new Map(d.contacts.filter((c) => c.valid).map((c) => [c.email.toLowerCase(), c]));
    const chosen = to.filter((e) => valid.has(e.toLowerCase()));
    if (chosen.length === 0) throw new WorkbenchError('invalid-input', 'Choose at least one address of this opportunity to send to.', { field: 'to' });
    const blocked = chosen.filter((e) => this.blocked(valid.get(e.toLowerCase())!));
    if (blocked.length) {
      const which = blocked.length === 1 ? `${blocked[0]} is` : `${blocked.join(', ')} are`;
      throw new WorkbenchError(
        'invalid-input',
        `${which} on your do-not-contact list, so nothing was opened. Untick ${blocked.length === 1 ? 'it' : 'them'}, or take ${blocked.length === 1 ? 'it' : 'them'} off the list first.`,
        { field: 'to' },
      );
    }
    const view = this.draft(brandId, id, kind, chosen[0]);
    let link: ReturnType<typeof composeLink>;
    try {
      link = composeLink(via, { to: chosen, subject: view.filled.subject, body: view.filled.body });
    } catch (e) {
      throw e instanceof WorkbenchError ? new WorkbenchError(e.kind, e.message, { field: 'to' }) : e;
    }
    // What did not fit in the link (the body, addresses left out whole, the subject) is copied, and the message says what is where.
    if (link.clipboard !== null) this.d.platform.writeClipboard(link.clipboard);
    await this.d.platform.openExternal(link.url);
    this.d.cache().history.add(brandId, id, 'mailed', new Date().toISOString(), `${via === 'default' ? 'mail app' : VIA_NAMES[via]}: ${chosen.join(', ')}`);
    this.d.changed();
    return {
      opened: true,
      via,
      to: chosen,
      bodyCopied: link.bodyLeftOut,
      inLink: link.inLink,
      message: link.message,
      unfilled: view.unfilled,
      warnings: this.warnings(brandId, id, chosen),
    };
  }
}

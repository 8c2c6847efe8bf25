// Sending the open draft through the user's own mail: the warnings (an
// earlier contact) and unfilled fields shown first with "open anyway", a
// person and shared inboxes chosen together (one message each, Bcc, or
// together), and after it opens the offer to mark it contacted (a follow-up:
// followed up) with its Undo. The draft itself (pitch.svelte.ts) reaches it
// through the callbacks given at construction; every failure says why in a
// toast.
import type { TriageResult } from '../../../shared/contract';
import type { ComposeResult, ContactWarning, DraftView, MixChoice, MixWarning, OpportunityDetail } from '../../../shared/model';
import { VIA_NAMES, type MailVia } from '../../../shared/mail-links';
import { call } from '../lib/api.svelte';
import { count } from '../lib/format';
import type { Frame } from './frame';
import type { Filter } from './list-window.svelte';

/** The draft open in the editor, as a send needs it. */
export interface OpenDraft {
  of: { brandId: string; id: string };
  kind: DraftView['kind'];
  view: DraftView | null;
  /** The chosen addresses, in the view's order. */
  to: string[];
  warnings: ContactWarning[];
  unfilledCount: number;
  /** Bumped per draft opened: an answer for an earlier one is not applied. */
  session: number;
}

export interface SendingDeps {
  frame: Frame;
  /** The draft open in the editor (null: none). */
  draft: () => OpenDraft | null;
  /** Save the typed text and fill it again, then check the chosen addresses' earlier contacts. */
  settle: () => Promise<void>;
  /** The list's filter (a mark-contacted answer carries the chips under it). */
  filter: () => Filter;
  /** The open detail (its addresses on the do-not-contact list). */
  detail: () => OpportunityDetail | null;
  /** The core's answer to Mark contacted, and its Undo. */
  applied: (r: TriageResult) => Promise<void>;
  undo: (actionId: number) => void;
}

export class Sending {
  /** A send waiting for "open anyway" (warnings or unfilled fields were shown). */
  #pending = $state<MailVia | null>(null);
  /** A person and shared inboxes chosen together: nothing opened; how to send it (one message each, Bcc, together). */
  #mix = $state.raw<{ via: MailVia; warning: MixWarning } | null>(null);
  /** Opened in mail: the result, and the offer to mark it contacted (or followed up), for the draft it was sent from. */
  #sent = $state.raw<{ result: ComposeResult; for: Pick<OpenDraft, 'of' | 'kind'> } | null>(null);
  #sending = $state(false);
  readonly #deps: SendingDeps;
  readonly #app: Frame;

  constructor(deps: SendingDeps) {
    this.#deps = deps;
    this.#app = deps.frame;
  }

  get pending(): MailVia | null {
    return this.#pending;
  }
  get sent(): ComposeResult | null {
    return this.#sent?.result ?? null;
  }
  get mix(): { via: MailVia; warning: MixWarning } | null {
    return this.#mix;
  }
  get sending(): boolean {
    return this.#sending;
  }

  /** The draft changed: a send waiting for an answer goes (and, another draft opened, the offer to mark it contacted). */
  reset(opened: boolean): void {
    this.#pending = null;
    this.#mix = null;
    if (opened) this.#sent = null;
  }

  /**
   * Open the filled draft in the user's own mail for the chosen addresses.
   * Warnings (an earlier contact) or unfilled fields are shown first and the
   * send waits for "open anyway" (`anyway`). Never rejects.
   */
  async send(via: MailVia, anyway = false, mix?: MixChoice): Promise<void> {
    const draft = this.#deps.draft();
    if (!draft?.view || this.#sending) return;
    const { of, kind, session } = draft;
    if (draft.to.length === 0) {
      this.#app.toast('Choose at least one address to send to (key a).', 'error');
      return;
    }
    const current = () => this.#deps.draft()?.session === session;
    this.#sending = true;
    try {
      await this.#deps.settle();
      const now = this.#deps.draft();
      if (!now || !current()) return;
      if (!anyway && (now.warnings.length > 0 || now.unfilledCount > 0)) {
        this.#pending = via;
        return;
      }
      this.#pending = null;
      this.#mix = null;
      const r = await call('mail:compose', { ...of, kind, via, to: now.to, ...(mix ? { mix } : {}) });
      if (!r.opened && r.mix) {
        // A person and shared inboxes in one To: line: nothing opened until the user picks how.
        if (current()) this.#mix = { via, warning: r.mix };
        return;
      }
      this.#app.toast(r.opened ? r.message + this.#leftOutBlocked(of.id) : r.message, r.opened ? 'info' : 'error');
      if (current() && r.opened) this.#sent = { result: r, for: { of, kind } };
    } catch (e) {
      this.#app.fail(`The pitch could not be opened in ${VIA_NAMES[via]}`)(e);
    } finally {
      this.#sending = false;
    }
  }

  /** Said after a message opens: the opportunity's addresses on the do-not-contact list were left out of it. */
  #leftOutBlocked(id: string): string {
    const d = this.#deps.detail();
    const blocked = d?.item.id === id ? d.contacts.filter((c) => c.valid && c.blocked).length : 0;
    return blocked ? ` ${count(blocked, 'address', 'addresses')} on your do-not-contact list left out.` : '';
  }

  cancelSend(): void {
    this.#pending = null;
    this.#mix = null;
  }

  /** The answer to a person and shared inboxes chosen together: one message each, the shared ones in Bcc, or together. Never rejects. */
  sendMixed(choice: MixChoice): Promise<void> {
    const m = this.#mix;
    if (!m) return Promise.resolve();
    return this.send(m.via, true, choice);
  }

  /**
   * The answer to "Mark contacted?" after opening the pitch in mail: contacted
   * today with the addresses used (a follow-up: followed up), on the
   * opportunity it was sent for. Never rejects.
   */
  async confirmSent(): Promise<void> {
    const sent = this.#sent;
    if (!sent) return;
    const {
      result,
      for: { of, kind },
    } = sent;
    this.#sent = null;
    try {
      // The subject that went out is kept: the follow-up replies to it.
      const action = kind === 'followup' ? ({ do: 'followed-up' } as const) : ({ do: 'contacted', addresses: result.to, subject: result.subject } as const);
      const r = await call('triage:apply', { brandId: of.brandId, ids: [of.id], action, filter: this.#deps.filter(), counts: true });
      await this.#deps.applied(r);
      const actionId = r.actionId;
      this.#app.toast(
        kind === 'followup' ? 'Marked followed up today.' : `Marked contacted today: ${result.to.join(', ')}.`,
        'info',
        actionId === null ? undefined : { label: 'Undo', run: () => this.#deps.undo(actionId) },
      );
    } catch (e) {
      this.#sent = sent;
      this.#app.fail(kind === 'followup' ? 'The follow-up could not be recorded' : 'The contacted date could not be saved')(e);
    }
  }

  dismissSent(): void {
    this.#sent = null;
  }
}

// Long because: one opened draft is one session (load, type, save, reset,
// send, mark sent) guarded by one counter; split, each part would need it.
// The open opportunity's draft in the editor: the pitch and its one follow-up
// (a draft each), saved as the user types (debounced, and at once when the
// selection moves, the field loses focus or the window goes), the text filled
// for the first address chosen (the core fills it: DraftView), the hints, the
// warnings before a pitch goes, and sending it through the user's own mail
// with the offer to mark it contacted. Answers for a draft the editor has left
// are dropped (lib/latest.ts and a session per opened draft); every failed call
// says why in a toast.
import type { ComposeResult, ContactWarning, DraftView, MixChoice, MixWarning } from '../../../shared/model';
import { VIA_NAMES, type MailVia } from '../../../shared/mail-links';
import { copyPitch } from '../../../shared/outreach';
import { pitchLengthHint, spamHints, subjectHint } from '../../../shared/pitch-hints';
import { call } from '../lib/api.svelte';
import { count, errorText } from '../lib/format';
import { Latest } from '../lib/latest';
import { fieldStates, uniqueUnfilled } from '../lib/merge-words';
import type { AppStore } from './app.svelte';
import type { OpportunitiesStore } from './opportunities.svelte';
import type { PipelineStore } from './pipeline.svelte';

export type DraftKind = DraftView['kind'];
export type DraftSaveState = 'saved' | 'saving' | 'unsaved' | 'error';
export type Recipient = DraftView['recipients'][number];

/** Typing pauses this long before the draft is saved. */
export const SAVE_AFTER_MS = 400;

export class PitchStore {
  #brandId = $state<string | null>(null);
  #id = $state<string | null>(null);
  #kind = $state<DraftKind>('pitch');
  #view = $state.raw<DraftView | null>(null);
  #subject = $state('');
  #body = $state('');
  #saveState = $state<DraftSaveState>('saved');
  /** The addresses chosen, as the view lists them. */
  #chosen = $state.raw<ReadonlySet<string>>(new Set());
  #warnings = $state.raw<ContactWarning[]>([]);
  /** A send waiting for "open anyway" (warnings or unfilled fields were shown). */
  #pending = $state<MailVia | null>(null);
  /** A person and shared inboxes chosen together: nothing opened; how to send it (one message each, Bcc, together). */
  #mix = $state.raw<{ via: MailVia; warning: MixWarning } | null>(null);
  /** Opened in mail: the result, and the offer to mark it contacted (or followed up). */
  #sent = $state.raw<ComposeResult | null>(null);
  #sending = $state(false);
  #askingReset = $state(false);
  #error = $state<string | null>(null);
  /** One per draft opened (an opportunity and a kind): answers for an earlier one are not applied. */
  #session = 0;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #loads = new Latest();
  #warningTurn = new Latest();
  readonly #app: AppStore;
  readonly #opps: OpportunitiesStore;
  readonly #pipeline: PipelineStore;

  constructor(app: AppStore, opps: OpportunitiesStore, pipeline: PipelineStore) {
    this.#app = app;
    this.#opps = opps;
    this.#pipeline = pipeline;
  }

  get brandId(): string | null {
    return this.#brandId;
  }
  get id(): string | null {
    return this.#id;
  }
  get kind(): DraftKind {
    return this.#kind;
  }
  /** The core's answer for the open draft (null while it is read). */
  get view(): DraftView | null {
    return this.#view;
  }
  get subject(): string {
    return this.#subject;
  }
  get body(): string {
    return this.#body;
  }
  get saveState(): DraftSaveState {
    return this.#saveState;
  }
  get chosen(): ReadonlySet<string> {
    return this.#chosen;
  }
  get warnings(): ContactWarning[] {
    return this.#warnings;
  }
  get pending(): MailVia | null {
    return this.#pending;
  }
  get sent(): ComposeResult | null {
    return this.#sent;
  }
  get mix(): { via: MailVia; warning: MixWarning } | null {
    return this.#mix;
  }
  get sending(): boolean {
    return this.#sending;
  }
  get askingReset(): boolean {
    return this.#askingReset;
  }
  get error(): string | null {
    return this.#error;
  }

  /** The chosen addresses in the order the view lists them (the first one fills the names). */
  readonly to = $derived((this.#view?.recipients ?? []).filter((r) => this.#chosen.has(r.email)).map((r) => r.email));
  /** The address the text is filled for. */
  readonly filledFor = $derived((this.#view?.recipients ?? []).find((r) => this.#chosen.has(r.email)) ?? null);
  readonly unfilled = $derived(uniqueUnfilled(this.#view?.unfilled ?? []));
  readonly states = $derived(fieldStates(this.#view));
  /** The text on screen is what the core last filled (nothing typed since): its hints count the filled text. */
  readonly #filledNow = $derived(!!this.#view && this.#view.text.subject === this.#subject && this.#view.text.body === this.#body);
  // The hints on the text as it would go out (the core fills it); while typing, on the typed text until it is saved.
  readonly length = $derived(this.#filledNow ? this.#view!.hints.length : pitchLengthHint(this.#body));
  readonly subjectHint = $derived(this.#filledNow ? this.#view!.hints.subject : subjectHint(this.#subject));
  /** The spam-filter words in the text, each once. */
  readonly spam = $derived(this.#filledNow ? this.#view!.hints.spam : [...new Set(spamHints(`${this.#subject}\n${this.#body}`).map((h) => h.phrase))]);

  /** The draft on screen is this opportunity's. */
  isOf(brandId: string | null, id: string | null | undefined): boolean {
    return this.#view !== null && this.#brandId === brandId && this.#id === (id ?? null);
  }

  /**
   * Follow the detail pane: another opportunity opens its draft of `kind`
   * (the unsaved text of the one before is saved first); the same one switches
   * to `kind` if it shows the other draft. Never rejects.
   */
  async follow(brandId: string, id: string, kind: DraftKind): Promise<void> {
    if (this.#brandId === brandId && this.#id === id) {
      if (kind !== this.#kind) await this.switchKind(kind);
      return;
    }
    void this.flush();
    this.#begin();
    this.#brandId = brandId;
    this.#id = id;
    this.#kind = kind;
    this.#chosen = new Set();
    this.#warnings = [];
    this.#sent = null;
    await this.#load(true);
  }

  /** The pitch or the follow-up (the other one when not given). Never rejects. */
  async switchKind(kind: DraftKind = this.#kind === 'pitch' ? 'followup' : 'pitch'): Promise<void> {
    if (!this.#id || kind === this.#kind) return;
    void this.flush();
    this.#begin();
    this.#kind = kind;
    await this.#load(false);
  }

  /** Read the open draft again (a sync may have changed the service's pitch); typed text is kept. Never rejects. */
  refresh(): Promise<void> {
    return this.#load(false);
  }

  /** Nothing open (the detail pane is empty): the unsaved text is saved first. */
  close(): void {
    void this.flush();
    this.#begin();
    this.#brandId = null;
    this.#id = null;
  }

  /** A new draft on screen: the last one's state goes. */
  #begin(): void {
    this.#session++;
    this.#loads.begin();
    this.#warningTurn.begin();
    this.#view = null;
    this.#subject = '';
    this.#body = '';
    this.#saveState = 'saved';
    this.#pending = null;
    this.#mix = null;
    this.#askingReset = false;
    this.#error = null;
  }

  /**
   * Ask the core for the draft filled for the first chosen address. The text
   * on screen is replaced only while nothing typed is waiting to be saved.
   * `pick`: choose the addresses the view pre-selects (a newly opened opportunity).
   */
  async #load(pick: boolean): Promise<void> {
    const brandId = this.#brandId;
    const id = this.#id;
    const kind = this.#kind;
    if (!brandId || !id) return;
    const fresh = this.#loads.begin();
    const session = this.#session;
    const to = this.filledFor?.email;
    try {
      const v = await call('drafts:get', { brandId, id, kind, ...(to ? { to } : {}) });
      if (!fresh() || session !== this.#session) return;
      if (pick) {
        this.#chosen = new Set(v.recipients.filter((r) => r.selected).map((r) => r.email));
        const first = v.recipients.find((r) => r.selected)?.email;
        void this.#refreshWarnings();
        // The names depend on the address: fill again for the one chosen.
        if (first !== to) {
          this.#apply(v);
          return await this.#load(false);
        }
      }
      this.#apply(v);
    } catch (e) {
      if (!fresh() || session !== this.#session) return;
      this.#error = `The draft could not be read: ${errorText(e)}`;
      this.#app.fail('The draft could not be read')(e);
    }
  }

  #apply(v: DraftView): void {
    this.#view = v;
    this.#error = null;
    if (this.#saveState === 'saved') {
      this.#subject = v.text.subject;
      this.#body = v.text.body;
    }
  }

  /** Typed in the editor: saved once typing pauses. */
  edit(part: 'subject' | 'body', text: string): void {
    if (!this.#view) return;
    if (part === 'subject') this.#subject = text;
    else this.#body = text;
    this.#saveState = 'unsaved';
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.flush(), SAVE_AFTER_MS);
  }

  /** Save the typed text now (the pause, a blur, the selection moving, the window closing). Never rejects. */
  async flush(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const brandId = this.#brandId;
    const id = this.#id;
    const kind = this.#kind;
    if (!brandId || !id || (this.#saveState !== 'unsaved' && this.#saveState !== 'error')) return;
    const subject = this.#subject;
    const body = this.#body;
    const session = this.#session;
    const first = this.#view?.draft === null;
    this.#saveState = 'saving';
    try {
      await call('drafts:save', { brandId, id, kind, subject, body });
      // The first save of a New opportunity makes it Drafted: its row says so.
      if (first) void this.#opps.refreshItem(id);
      if (session !== this.#session) return;
      this.#saveState = this.#subject === subject && this.#body === body ? 'saved' : 'unsaved';
      await this.#load(false);
    } catch (e) {
      if (session === this.#session) this.#saveState = 'error';
      this.#app.fail('The draft could not be saved')(e);
    }
  }

  /** "Reset to the service's text": asked first (confirmReset / cancelReset). */
  askReset(): void {
    if (this.#view?.draft) this.#askingReset = true;
    else if (this.#view) this.#app.toast(this.#kind === 'pitch' ? "The draft is the service's text already." : 'The follow-up is the suggested text already.');
  }

  cancelReset(): void {
    this.#askingReset = false;
  }

  /** The user's draft goes; the service's pitch (or the suggested follow-up) is the text again. Never rejects. */
  async confirmReset(): Promise<void> {
    this.#askingReset = false;
    const brandId = this.#brandId;
    const id = this.#id;
    const kind = this.#kind;
    if (!brandId || !id) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const session = this.#session;
    try {
      await call('drafts:reset', { brandId, id, kind });
      if (session !== this.#session) return;
      this.#saveState = 'saved';
      await this.#load(false);
      this.#app.toast(kind === 'pitch' ? "The draft is the service's text again." : 'The follow-up is the suggested text again.');
    } catch (e) {
      this.#app.fail('The draft could not be reset')(e);
    }
  }

  /** Tick or untick an address; the text is filled again for the first one chosen. */
  toggleRecipient(email: string): void {
    const next = new Set(this.#chosen);
    if (next.has(email)) next.delete(email);
    else next.add(email);
    this.#chosen = next;
    this.#pending = null;
    void this.#load(false);
    void this.#refreshWarnings();
  }

  async #refreshWarnings(): Promise<void> {
    const brandId = this.#brandId;
    const id = this.#id;
    const fresh = this.#warningTurn.begin();
    const addresses = [...this.#chosen];
    if (!brandId || !id || addresses.length === 0) {
      this.#warnings = [];
      return;
    }
    try {
      const w = await call('pipeline:warnings', { brandId, id, addresses });
      if (fresh()) this.#warnings = w;
    } catch (e) {
      if (fresh()) this.#app.fail('Earlier contacts could not be checked')(e);
    }
  }

  /** The typed text saved and filled again: what the core would send now. */
  async #settle(): Promise<void> {
    if (this.#saveState === 'unsaved' || this.#saveState === 'error') await this.flush();
    else await this.#load(false);
  }

  /**
   * Open the filled draft in the user's own mail for the chosen addresses.
   * Warnings (an earlier contact) or unfilled fields are shown first and the
   * send waits for "open anyway" (`anyway`). Never rejects.
   */
  async send(via: MailVia, anyway = false, mix?: MixChoice): Promise<void> {
    const brandId = this.#brandId;
    const id = this.#id;
    const kind = this.#kind;
    if (!brandId || !id || !this.#view || this.#sending) return;
    if (this.to.length === 0) {
      this.#app.toast('Choose at least one address to send to (key a).', 'error');
      return;
    }
    const session = this.#session;
    this.#sending = true;
    try {
      await this.#settle();
      await this.#refreshWarnings();
      if (session !== this.#session) return;
      if (!anyway && (this.#warnings.length > 0 || this.unfilled.length > 0)) {
        this.#pending = via;
        return;
      }
      this.#pending = null;
      this.#mix = null;
      const r = await call('mail:compose', { brandId, id, kind, via, to: this.to, ...(mix ? { mix } : {}) });
      if (!r.opened && r.mix) {
        // A person and shared inboxes in one To: line: nothing opened until the user picks how.
        if (session === this.#session) this.#mix = { via, warning: r.mix };
        return;
      }
      this.#app.toast(r.opened ? r.message + this.#leftOutBlocked(id) : r.message, r.opened ? 'info' : 'error');
      if (session === this.#session && r.opened) this.#sent = r;
    } catch (e) {
      this.#app.fail(`The pitch could not be opened in ${VIA_NAMES[via]}`)(e);
    } finally {
      this.#sending = false;
    }
  }

  /** Said after a message opens: the opportunity's addresses on the do-not-contact list were left out of it. */
  #leftOutBlocked(id: string): string {
    const d = this.#opps.detail;
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
   * today with the addresses used (a follow-up: followed up). Never rejects.
   */
  async confirmSent(): Promise<void> {
    const sent = this.#sent;
    const brandId = this.#brandId;
    const id = this.#id;
    if (!sent || !brandId || !id) return;
    this.#sent = null;
    try {
      // The subject that went out is kept: the follow-up replies to it.
      const action = this.#kind === 'followup' ? ({ do: 'followed-up' } as const) : ({ do: 'contacted', addresses: sent.to, subject: sent.subject } as const);
      const r = await call('triage:apply', { brandId, ids: [id], action, filter: this.#opps.filter, counts: true });
      this.#pipeline.applyResult(r);
      await this.#opps.applyResult(r);
      const actionId = r.actionId;
      this.#app.toast(
        this.#kind === 'followup' ? 'Marked followed up today.' : `Marked contacted today: ${sent.to.join(', ')}.`,
        'info',
        actionId === null ? undefined : { label: 'Undo', run: () => void this.#pipeline.undo(actionId) },
      );
    } catch (e) {
      this.#sent = sent;
      this.#app.fail(this.#kind === 'followup' ? 'The follow-up could not be recorded' : 'The contacted date could not be saved')(e);
    }
  }

  dismissSent(): void {
    this.#sent = null;
  }

  /** Copy the filled text (what would go out). Never rejects. */
  async copy(part: 'both' | 'subject' | 'body' = 'both'): Promise<void> {
    if (!this.#view) return;
    try {
      await this.#settle();
      const v = this.#view;
      if (!v) return;
      const text = part === 'subject' ? v.filled.subject : part === 'body' ? v.filled.body : copyPitch(v.filled.subject, v.filled.body);
      const what = part === 'both' ? (this.#kind === 'pitch' ? 'pitch' : 'follow-up') : part;
      if (!text) {
        this.#app.toast(`There is no ${what} to copy.`);
        return;
      }
      await call('clipboard:write', { text });
      const missing = uniqueUnfilled(v.unfilled.filter((u) => part === 'both' || u.part === part));
      this.#app.toast(
        missing.length ? `Copied the ${what}; ${count(missing.length, 'field')} not filled: ${missing.map((u) => u.token).join(', ')}.` : `Copied the ${what}.`,
      );
    } catch (e) {
      this.#app.fail('The text could not be copied')(e);
    }
  }

  /** Save what is typed and let go of the timers; answers still on their way are dropped. */
  dispose(): void {
    void this.flush();
    this.#loads.cancel();
    this.#warningTurn.cancel();
  }
}

// The open opportunity's draft in the editor: the pitch and its one follow-up
// (a draft each), saved as the user types to the opportunity it was typed for
// (lib/autosave.svelte.ts: after a pause, and at once when the selection
// moves, the field loses focus or the window goes), the text filled for the
// first address chosen (the core fills it: DraftView), the hints and the
// warnings before it goes (sending it: sending.svelte.ts). Answers for a draft
// the editor has left are dropped (lib/latest.ts and a session per opened
// draft); every failed call says why in a toast. What it needs of the rest of
// the window comes as callbacks at construction.
import type { ContactWarning, DraftView } from '../../../shared/model';
import { copyPitch } from '../../../shared/outreach';
import { pitchLengthHint, spamHints, subjectHint } from '../../../shared/pitch-hints';
import { call } from '../lib/api.svelte';
import { count, errorText } from '../lib/format';
import { Autosave, type SaveState } from '../lib/autosave.svelte';
import { Latest } from '../lib/latest';
import { fieldStates, uniqueUnfilled } from '../lib/merge-words';
import type { Frame } from './frame';
import type { OpenDraft } from './sending.svelte';

export type DraftKind = DraftView['kind'];
export type Recipient = DraftView['recipients'][number];

/** Typing pauses this long before the draft is saved. */
export const SAVE_AFTER_MS = 400;

/** The text typed in the editor, and the draft it was typed for. */
interface DraftEdit {
  brandId: string;
  id: string;
  kind: DraftKind;
  subject: string;
  body: string;
  /** The opportunity had no draft of this kind yet: its first save makes it Drafted. */
  first: boolean;
}

export interface PitchDeps {
  frame: Frame;
  /** A draft's first save moved its opportunity to Drafted: its row shows it. */
  drafted: (brandId: string, id: string) => void;
  /** The draft on screen changed (`opened`: another one opened): a send waiting for an answer goes (sending.svelte.ts). */
  changed: (opened: boolean) => void;
}

export class PitchStore {
  /** The opportunity whose draft is open (null: none). */
  #of = $state.raw<{ brandId: string; id: string } | null>(null);
  #kind = $state<DraftKind>('pitch');
  #view = $state.raw<DraftView | null>(null);
  #subject = $state('');
  #body = $state('');
  /** The addresses chosen, as the view lists them. */
  #chosen = $state.raw<ReadonlySet<string>>(new Set());
  #warnings = $state.raw<ContactWarning[]>([]);
  #askingReset = $state(false);
  #error = $state<string | null>(null);
  /** One per draft opened (an opportunity and a kind): answers for an earlier one are not applied. */
  #session = 0;
  #loads = new Latest();
  #warningTurn = new Latest();
  readonly #saving: Autosave<DraftEdit>;
  readonly #deps: PitchDeps;
  readonly #app: Frame;

  constructor(deps: PitchDeps) {
    this.#deps = deps;
    this.#app = deps.frame;
    this.#saving = new Autosave<DraftEdit>({
      delayMs: SAVE_AFTER_MS,
      save: (d) => this.#save(d),
      // Saved: the text is filled again (the core's answer carries the saved draft).
      saved: () => this.#load(false),
      failed: this.#app.fail('The draft could not be saved'),
    });
  }

  get brandId(): string | null {
    return this.#of?.brandId ?? null;
  }
  get id(): string | null {
    return this.#of?.id ?? null;
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
  get saveState(): SaveState {
    return this.#saving.state;
  }
  get chosen(): ReadonlySet<string> {
    return this.#chosen;
  }
  get warnings(): ContactWarning[] {
    return this.#warnings;
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
    return this.#view !== null && this.#of?.brandId === brandId && this.#of.id === (id ?? null);
  }

  /**
   * Follow the detail pane: another opportunity opens its draft of `kind`
   * (the unsaved text of the one before is saved first); the same one switches
   * to `kind` if it shows the other draft. Never rejects.
   */
  async follow(brandId: string, id: string, kind: DraftKind): Promise<void> {
    if (this.#of?.brandId === brandId && this.#of.id === id) {
      if (kind !== this.#kind) await this.switchKind(kind);
      return;
    }
    void this.flush();
    this.#begin();
    this.#of = { brandId, id };
    this.#kind = kind;
    this.#chosen = new Set();
    this.#warnings = [];
    this.#deps.changed(true);
    await this.#load(true);
  }

  /** The pitch or the follow-up (the other one when not given). Never rejects. */
  async switchKind(kind: DraftKind = this.#kind === 'pitch' ? 'followup' : 'pitch'): Promise<void> {
    if (!this.#of || kind === this.#kind) return;
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
    this.#of = null;
  }

  /** A new draft on screen: the last one's state goes. */
  #begin(): void {
    this.#session++;
    this.#loads.begin();
    this.#warningTurn.begin();
    this.#view = null;
    this.#subject = '';
    this.#body = '';
    this.#saving.clear();
    this.#deps.changed(false);
    this.#askingReset = false;
    this.#error = null;
  }

  /**
   * Ask the core for the draft filled for the first chosen address. The text
   * on screen is replaced only while nothing typed is waiting to be saved.
   * `pick`: choose the addresses the view pre-selects (a newly opened opportunity).
   */
  async #load(pick: boolean): Promise<void> {
    const of = this.#of;
    const kind = this.#kind;
    if (!of) return;
    const { brandId, id } = of;
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
    if (this.#saving.state === 'saved') {
      this.#subject = v.text.subject;
      this.#body = v.text.body;
    }
  }

  /** Typed in the editor: saved once typing pauses, to the draft it was typed for. */
  edit(part: 'subject' | 'body', text: string): void {
    const of = this.#of;
    if (!this.#view || !of) return;
    if (part === 'subject') this.#subject = text;
    else this.#body = text;
    this.#saving.edit({ ...of, kind: this.#kind, subject: this.#subject, body: this.#body, first: this.#view.draft === null });
  }

  /** Save the typed text now (the pause, a blur, the selection moving, the window closing); then fill it again. Never rejects. */
  flush(): Promise<void> {
    return this.#saving.flush();
  }

  async #save(d: DraftEdit): Promise<void> {
    const { first, ...draft } = d;
    await call('drafts:save', draft);
    // The first save of a New opportunity makes it Drafted: its row says so.
    if (first) this.#deps.drafted(d.brandId, d.id);
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
    const of = this.#of;
    const kind = this.#kind;
    if (!of) return;
    this.#saving.pause();
    const session = this.#session;
    try {
      await call('drafts:reset', { ...of, kind });
      if (session !== this.#session) return;
      this.#saving.clear();
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
    this.#deps.changed(false);
    void this.#load(false);
    void this.#refreshWarnings();
  }

  async #refreshWarnings(): Promise<void> {
    const of = this.#of;
    const fresh = this.#warningTurn.begin();
    const addresses = [...this.#chosen];
    if (!of || addresses.length === 0) {
      this.#warnings = [];
      return;
    }
    try {
      const w = await call('pipeline:warnings', { ...of, addresses });
      if (fresh()) this.#warnings = w;
    } catch (e) {
      if (fresh()) this.#app.fail('Earlier contacts could not be checked')(e);
    }
  }

  /** The typed text saved and filled again: what the core would send now (`checked`: and the chosen addresses' earlier contacts checked). */
  async settle(checked = false): Promise<void> {
    if (this.#saving.waiting) await this.flush();
    else await this.#load(false);
    if (checked) await this.#refreshWarnings();
  }

  /** The open draft, as a send needs it (sending.svelte.ts). */
  open(): OpenDraft | null {
    const of = this.#of;
    if (!of) return null;
    return { of, kind: this.#kind, view: this.#view, to: this.to, warnings: this.#warnings, unfilledCount: this.unfilled.length, session: this.#session };
  }

  /** Copy the filled text (what would go out). Never rejects. */
  async copy(part: 'both' | 'subject' | 'body' = 'both'): Promise<void> {
    if (!this.#view) return;
    try {
      await this.settle();
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

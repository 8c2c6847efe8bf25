// One pitch to an outlet for several of its opportunities (Group by
// publication, the outlet's "Plan one pitch…"): which of the outlet's
// opportunities it covers, the draft the core makes from the first one's pitch
// with every covered piece listed (editable here), the outlet's addresses to
// choose from (a do-not-contact one never chosen; a person with shared inboxes
// warned about), copying it, and marking every covered opportunity contacted
// through the record's owner as one action with an Undo.
import type { OutletPlan } from '../../../shared/contract';
import { copyPitch, PLAN_MAX } from '../../../shared/outreach';
import { call } from '../lib/api.svelte';
import { count, errorText } from '../lib/format';
import { Latest } from '../lib/latest';
import type { Filter } from './list-window.svelte';
import type { Frame } from './frame';
import type { TriageResult } from '../../../shared/contract';

/** An opportunity the plan may cover. */
export interface PlanCandidate {
  id: string;
  title: string;
}

/** What the plan needs of the window's other stores, as callbacks (no store holds another). */
export interface OutletPlanDeps {
  frame: Frame;
  /** The list's filter (the answer's rows and chips are read under it). */
  filter: () => Filter;
  /** The core's answer to the marking: the list, the detail, the outlets and the follow-ups show it. */
  applied: (r: TriageResult) => Promise<void>;
  undo: (actionId: number) => void;
}

export class OutletPlanStore {
  #outlet = $state('');
  /** The brand the plan was opened for: the draft and the marking stay with it, whatever brand is on screen by then. */
  #brandId: string | null = null;
  /** The outlet's opportunities offered (the first PLAN_MAX), and how many it has in all. */
  #candidates = $state.raw<PlanCandidate[]>([]);
  #all = $state(0);
  #covered = $state.raw<ReadonlySet<string>>(new Set());
  #plan = $state.raw<OutletPlan | null>(null);
  #to = $state.raw<ReadonlySet<string>>(new Set());
  subject = $state('');
  body = $state('');
  #error = $state<string | null>(null);
  #busy = $state(false);
  readonly #turn = new Latest();
  readonly #app: Frame;
  readonly #deps: OutletPlanDeps;

  constructor(deps: OutletPlanDeps) {
    this.#app = deps.frame;
    this.#deps = deps;
  }

  get outlet(): string {
    return this.#outlet;
  }
  get candidates(): readonly PlanCandidate[] {
    return this.#candidates;
  }
  /** How many opportunities the outlet has beyond those offered. */
  get notOffered(): number {
    return this.#all - this.#candidates.length;
  }
  get plan(): OutletPlan | null {
    return this.#plan;
  }
  get error(): string | null {
    return this.#error;
  }
  get busy(): boolean {
    return this.#busy;
  }
  covers(id: string): boolean {
    return this.#covered.has(id);
  }
  get coveredCount(): number {
    return this.#covered.size;
  }
  sendsTo(email: string): boolean {
    return this.#to.has(email);
  }
  get to(): string[] {
    return (this.#plan?.recipients ?? []).filter((r) => this.#to.has(r.email)).map((r) => r.email);
  }

  /** A person and shared inboxes chosen together: the words for it, or null. */
  get mix(): string | null {
    const chosen = (this.#plan?.recipients ?? []).filter((r) => this.#to.has(r.email));
    const shared = chosen.filter((r) => r.catchAll || r.role).map((r) => r.email);
    const people = chosen.filter((r) => !r.catchAll && !r.role).map((r) => r.email);
    if (!shared.length || !people.length) return null;
    return `${shared.join(', ')} ${shared.length === 1 ? 'is a shared inbox' : 'are shared inboxes'} (a catch-all or role address), chosen with ${people.join(', ')}: in one To: line each sees the other. Write to the person alone, or put the shared ${shared.length === 1 ? 'inbox' : 'inboxes'} in Bcc in your mail app.`;
  }

  /** Plan one pitch to `outlet` for its opportunities (the list's rows there, in its order): all covered to begin with. */
  async open(outlet: string, ids: readonly string[]): Promise<void> {
    const brandId = this.#app.brandId;
    if (!brandId) return;
    this.#brandId = brandId;
    this.#outlet = outlet;
    this.#all = ids.length;
    const offered = ids.slice(0, PLAN_MAX);
    this.#covered = new Set(offered);
    this.#candidates = offered.map((id) => ({ id, title: id }));
    await this.#draft(true);
    // The titles, as the plan read them (the plan covers all offered at first).
    if (this.#plan) this.#candidates = this.#plan.covered.map((c) => ({ id: c.id, title: c.title }));
  }

  /** Cover an opportunity or leave it out: the draft is made again for the ones covered. */
  async toggleCovered(id: string): Promise<void> {
    const next = new Set(this.#covered);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    this.#covered = next;
    if (next.size) await this.#draft(false);
  }

  toggleTo(email: string): void {
    const r = this.#plan?.recipients.find((x) => x.email === email);
    if (!r || r.blocked) return;
    const next = new Set(this.#to);
    if (next.has(email)) next.delete(email);
    else next.add(email);
    this.#to = next;
  }

  async #draft(first: boolean): Promise<void> {
    const brandId = this.#brandId;
    if (!brandId) return;
    const fresh = this.#turn.begin();
    const ids = this.#candidates.map((c) => c.id).filter((id) => this.#covered.has(id));
    try {
      const plan = await call('outlets:plan', { brandId, ids });
      if (!fresh()) return;
      this.#error = null;
      const before = this.#to;
      this.#plan = plan;
      this.subject = plan.subject;
      this.body = plan.body;
      // The addresses chosen stay chosen when they are still there (never one on the do-not-contact list).
      const kept = plan.recipients.filter((r) => !r.blocked && before.has(r.email)).map((r) => r.email);
      this.#to = new Set(first || kept.length === 0 ? plan.recipients.filter((r) => r.selected).map((r) => r.email) : kept);
    } catch (e) {
      if (fresh()) this.#error = `The pitch could not be planned: ${errorText(e)}`;
    }
  }

  /** The subject and message to the clipboard, to paste into the mail. */
  async copy(): Promise<void> {
    try {
      await call('clipboard:write', { text: copyPitch(this.subject, this.body) });
      this.#app.toast('Pitch copied: subject and message.');
    } catch (e) {
      this.#app.fail('The pitch could not be copied')(e);
    }
  }

  async copyAddresses(): Promise<void> {
    if (!this.to.length) return;
    try {
      await call('clipboard:write', { text: this.to.join(', ') });
      this.#app.toast(`${count(this.to.length, 'address', 'addresses')} copied.`);
    } catch (e) {
      this.#app.fail('The addresses could not be copied')(e);
    }
  }

  /** Sent: every covered opportunity marked contacted with the addresses chosen and the subject, as one action (Undo in its toast). True when done. */
  async markContacted(): Promise<boolean> {
    const brandId = this.#brandId;
    const ids = this.#candidates.map((c) => c.id).filter((id) => this.#covered.has(id));
    if (!brandId || !ids.length || !this.to.length || this.#busy) return false;
    this.#busy = true;
    try {
      const r = await call('outlets:contacted', { brandId, ids, addresses: this.to, subject: this.subject || null, filter: this.#deps.filter(), counts: true });
      await this.#deps.applied(r);
      const id = r.actionId;
      this.#app.toast(
        `${count(r.updated, 'opportunity', 'opportunities')} at ${this.#outlet} marked contacted: one pitch to ${this.to.join(', ')}.`,
        'info',
        id === null ? undefined : { label: 'Undo', run: () => this.#deps.undo(id) },
      );
      return true;
    } catch (e) {
      this.#error = `Nothing was marked: ${errorText(e)}`;
      return false;
    } finally {
      this.#busy = false;
    }
  }
}

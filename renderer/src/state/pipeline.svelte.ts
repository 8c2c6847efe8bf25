// The outreach pipeline over the list: stages (Not a fit with its reason),
// snooze, marked contacted (and its undo), the one follow-up, the Due today
// and Snoozed views, the count of follow-ups due, and grouping by
// publication. It acts on what the list store points at (the selection, or
// the opportunity under the cursor) through the core's owner of the record
// (triage:apply: one round trip answers with the rows, the detail, the chips
// and the follow-ups due) and follows each list it puts on screen; every
// answer is applied only while it is the latest of its kind, and every
// failure says so in a toast.
import type { ListFilter } from '../../../shared/model';
import type { ContractResults, TriageResult } from '../../../shared/contract';
import type { Stage } from '../../../shared/pipeline';
import { call } from '../lib/api.svelte';
import { count, day, dayName } from '../lib/format';
import { Latest } from '../lib/latest';
import type { AppStore } from './app.svelte';
import type { OpportunitiesStore } from './opportunities.svelte';
import { OutletGroups } from './outlets.svelte';

type Due = ContractResults['pipeline:due'];
export type PipelineView = NonNullable<ListFilter['view']>;

export class PipelineStore {
  #due = $state.raw<Due | null>(null);
  /** The last Won marked with the key here (its Undo, beside the Cited mark, takes back that action). */
  #lastWon = $state.raw<{ brandId: string; id: string; actionId: number } | null>(null);
  #dueTurn = new Latest();
  readonly #unlisten: () => void;
  readonly #app: AppStore;
  readonly #opps: OpportunitiesStore;

  /** Group by publication: heads per outlet, collapsing, the keys between them. */
  readonly groups: OutletGroups;

  constructor(app: AppStore, opps: OpportunitiesStore) {
    this.#app = app;
    this.#opps = opps;
    this.groups = new OutletGroups(app, opps);
    this.#unlisten = opps.onListed((filter, typing, fresh) => {
      if (!typing) void this.refreshDue();
      this.groups.listed(filter, fresh);
    });
  }

  /** Grouped by publication (see OutletGroups). */
  get grouped(): boolean {
    return this.groups.grouped;
  }
  get domains(): Record<string, number> {
    return this.groups.domains;
  }
  /** Follow-ups due, per brand and in all (null until counted). */
  get due(): Due | null {
    return this.#due;
  }
  /** The opportunity last marked Won with the key in the brand on screen, while its action can be undone here. */
  get lastWon(): { id: string } | null {
    return this.#lastWon && this.#lastWon.brandId === this.#app.brandId ? this.#lastWon : null;
  }
  /** Follow-ups due in the brand on screen (null until counted: a chip shows a placeholder, never a wrong 0). */
  get dueHere(): number | null {
    const brandId = this.#app.brandId;
    if (!this.#due) return null;
    return brandId ? (this.#due.byBrand[brandId] ?? 0) : 0;
  }

  dispose(): void {
    this.#unlisten();
    this.groups.dispose();
    this.#dueTurn.cancel();
  }

  /** The Due today or Snoozed view; the same one again (or undefined) is the whole list. */
  showView(view: PipelineView | undefined): void {
    this.#opps.setFilter({ view: view === undefined || this.#opps.filter.view === view ? undefined : view });
  }

  /** Group by publication, or back to the sort before. */
  toggleGroup(): void {
    this.groups.toggle();
  }

  /** Count the follow-ups due (at launch, and after every change that may move one). Never rejects. */
  async refreshDue(): Promise<void> {
    const fresh = this.#dueTurn.begin();
    try {
      const d = await call('pipeline:due');
      if (fresh()) this.#due = d;
    } catch (e) {
      if (fresh()) this.#app.fail('The follow-ups due could not be counted')(e);
    }
  }

  /** The follow-ups due the core counted with its answer to an action. */
  applyResult(r: TriageResult): void {
    // Grouped, the outlets' stage mix follows every action.
    if (r.actionId !== null) void this.groups.refresh();
    if (!r.due) return; // a note or a star: the follow-ups due are as they were
    this.#dueTurn.begin();
    this.#due = r.due;
  }

  /** "It", or "3 opportunities". */
  #many(n: number): string {
    return n === 1 ? 'It' : count(n, 'opportunity', 'opportunities');
  }

  /**
   * An action through the list store on `ids` (default: the selection, or the
   * opportunity under the cursor), its answer said in a toast (`say`: the
   * window's words for it, given how many it was for) and its follow-ups due
   * taken. Never rejects.
   */
  async #act(
    action: Parameters<OpportunitiesStore['act']>[0],
    what: string,
    say?: (n: number) => string,
    ids = this.#opps.targets(),
  ): Promise<TriageResult | null> {
    const r = await this.#opps.act(action, what, ids);
    if (r) {
      this.applyResult(r);
      const id = r.actionId;
      // Every action that changed something can be taken back from its toast (or with Ctrl/Cmd+Z).
      this.#app.toast(say ? say(new Set(ids).size) : r.message, 'info', id === null ? undefined : { label: 'Undo', run: () => void this.undo(id) });
    }
    return r;
  }

  /**
   * Set the outreach stage of the selection or the opportunity under the
   * cursor (Not a fit with its reason). A row the stage takes out of the list
   * (Not a fit) leaves it. Never rejects.
   */
  async setStage(stage: Stage, reason?: string | null, ids = this.#opps.targets()): Promise<void> {
    const many = ids.length > 1;
    const why = stage === 'Not a fit' && reason?.trim() ? ` (${reason.trim()})` : '';
    const r = await this.#act(
      { do: 'stage', stage, ...(stage === 'Not a fit' ? { reason: reason?.trim() || null } : {}) },
      'The stage could not be set',
      (n) => (many ? `${count(n, 'opportunity', 'opportunities')} moved to ${stage}${why}.` : `Stage: ${stage}${why}.`),
      ids,
    );
    if (r && many) this.#opps.clearSelection();
  }

  /** Snooze the selection or the opportunity under the cursor until a day (null: back now). Never rejects. */
  async snooze(until: string | null, ids = this.#opps.targets()): Promise<void> {
    const r = await this.#act(
      { do: 'snooze', until },
      until ? 'The snooze could not be set' : 'The snooze could not be ended',
      (n) => {
        const one = n === 1;
        return until
          ? `Snoozed until ${dayName(until)}: ${this.#many(n).toLowerCase()} ${one ? 'leaves' : 'leave'} the list until then.`
          : `${this.#many(n)} ${one ? 'is' : 'are'} back in the list.`;
      },
      ids,
    );
    if (r) this.#opps.clearSelection();
  }

  /**
   * Contacted today (the core's today) with the addresses chosen for the
   * pitch, or none (the core takes those the pitch pre-selects): the
   * opportunity under the cursor moves to Contacted (from New or Drafted), so
   * its follow-up comes due. Never rejects.
   */
  async markContacted(addresses: readonly string[] = []): Promise<void> {
    const item = this.#opps.active;
    if (!item) return;
    if (item.contacted_at) {
      this.#app.toast(`Already marked contacted on ${day(item.contacted_at)}.`);
      return;
    }
    await this.#act(
      { do: 'contacted', ...(addresses.length ? { addresses: [...addresses] } : {}) },
      'The contacted date could not be saved',
      () => (addresses.length ? `Marked contacted today: ${addresses.join(', ')}.` : 'Marked contacted today.'),
      [item.id],
    );
  }

  /** Not contacted after all: the date, addresses and subject are cleared, and a Contacted stage goes back to New (undo puts back exactly what was). Never rejects. */
  async unmarkContacted(): Promise<void> {
    const item = this.#opps.active;
    if (!item) return;
    await this.#act({ do: 'not-contacted' }, 'The contacted date could not be cleared', undefined, [item.id]);
  }

  /** The one follow-up was sent: followed up today (the selection at once). Never rejects. */
  async markFollowedUp(): Promise<void> {
    const many = this.#opps.targets().length > 1;
    const r = await this.#act({ do: 'followed-up' }, 'The follow-up could not be recorded', (n) =>
      many ? `${count(n, 'opportunity', 'opportunities')} marked followed up today.` : 'Marked followed up today.',
    );
    if (r && many) this.#opps.clearSelection();
  }

  /**
   * Won, with one key: the opportunity under the cursor (or the selection),
   * through the owner's `won` intent, so the history shows it and the undo
   * every action has (z, Ctrl+Z) takes it back. Never rejects.
   */
  async markWon(): Promise<void> {
    const brandId = this.#app.brandId;
    const selected = this.#opps.selected.size > 0;
    const item = selected ? undefined : this.#opps.active;
    if (item?.stage === 'Won') return this.#app.toast('It is Won already.');
    const before = item?.stage ?? 'New';
    const r = await this.#act({ do: 'won' }, 'Won could not be marked', (n) =>
      selected ? `${count(n, 'opportunity', 'opportunities')} moved to Won. Press z to undo.` : `Stage: Won. Press z to undo (back to ${before}).`,
    );
    if (r && selected) this.#opps.clearSelection();
    if (r && item && brandId && r.actionId !== null) this.#lastWon = { brandId, id: item.id, actionId: r.actionId };
  }

  /** Take back the Won last marked with the key here (that action, even when others came after). Never rejects. */
  async undoWon(): Promise<void> {
    const last = this.lastWon;
    if (!last) return this.undo();
    const r = await this.#opps.undo(this.#lastWon!.actionId);
    this.#lastWon = null;
    if (r) this.applyResult(r);
  }

  /** Take back an action (default: the latest of this brand); its toast says what came back. Never rejects. */
  async undo(actionId?: number): Promise<void> {
    const r = await this.#opps.undo(actionId);
    if (r && r.actionId === this.#lastWon?.actionId) this.#lastWon = null;
    if (r) this.applyResult(r);
  }
}

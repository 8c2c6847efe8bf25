// The outreach pipeline over the list: the triage actions (stages, Not a fit
// with its reason, snooze, star, marked contacted, the one follow-up, Won)
// and their undo, the Due today and Snoozed views, and the count of follow-ups
// due. It acts on the selection or the opportunity under the cursor through
// the core's owner of the record (triage:apply: one round trip answers with
// the rows, the detail, the chips and the follow-ups due); what it needs of
// the list and the selection comes as callbacks at construction. Every answer
// is applied only while it is the latest of its kind, and every failure says
// so in a toast.
import type { ListFilter, ListItem } from '../../../shared/model';
import type { ContractResults, TriageResult } from '../../../shared/contract';
import type { Stage, TriageAction } from '../../../shared/pipeline';
import { call } from '../lib/api.svelte';
import { count, day, dayName } from '../lib/format';
import { Latest } from '../lib/latest';
import type { Frame } from './frame';
import type { Filter } from './list-window.svelte';

type Due = ContractResults['pipeline:due'];
export type PipelineView = NonNullable<ListFilter['view']>;

export interface PipelineDeps {
  frame: Frame;
  /** The list's filter, and a change to it. */
  filter: () => Filter;
  setFilter: (patch: Partial<Filter>) => void;
  /** The selection, or the opportunity under the cursor. */
  targets: () => string[];
  /** The row under the cursor, and how many are selected. */
  active: () => ListItem | undefined;
  /** The list's loaded row with this id (undefined when not loaded). */
  rowOf: (id: string) => ListItem | undefined;
  selectedCount: () => number;
  clearSelection: () => void;
  /** The core's answer to an action: the list, its detail and the outlets show it. */
  applied: (r: TriageResult) => Promise<void>;
}

export class PipelineStore {
  #due = $state.raw<Due | null>(null);
  /** The last Won marked with the key here (its Undo, beside the Cited mark, takes back that action). */
  #lastWon = $state.raw<{ brandId: string; id: string; actionId: number } | null>(null);
  #dueTurn = new Latest();
  readonly #deps: PipelineDeps;
  readonly #frame: Frame;

  constructor(deps: PipelineDeps) {
    this.#deps = deps;
    this.#frame = deps.frame;
  }

  /** Follow-ups due, per brand and in all (null until counted). */
  get due(): Due | null {
    return this.#due;
  }
  /** The opportunity last marked Won with the key in the brand on screen, while its action can be undone here. */
  get lastWon(): { id: string } | null {
    return this.#lastWon && this.#lastWon.brandId === this.#frame.brandId ? this.#lastWon : null;
  }
  /** Follow-ups due in the brand on screen (null until counted: a chip shows a placeholder, never a wrong 0). */
  get dueHere(): number | null {
    const brandId = this.#frame.brandId;
    if (!this.#due) return null;
    return brandId ? (this.#due.byBrand[brandId] ?? 0) : 0;
  }

  dispose(): void {
    this.#dueTurn.cancel();
  }

  /** A list is on screen: the follow-ups due are counted again (not while a search is typed). */
  listed(typing: boolean): void {
    if (!typing) void this.refreshDue();
  }

  /** The Due today or Snoozed view; the same one again (or undefined) is the whole list. */
  showView(view: PipelineView | undefined): void {
    this.#deps.setFilter({ view: view === undefined || this.#deps.filter().view === view ? undefined : view });
  }

  /** Count the follow-ups due (at launch, and after every change that may move one). Never rejects. */
  async refreshDue(): Promise<void> {
    const fresh = this.#dueTurn.begin();
    try {
      const d = await call('pipeline:due');
      if (fresh()) this.#due = d;
    } catch (e) {
      if (fresh()) this.#frame.fail('The follow-ups due could not be counted')(e);
    }
  }

  /** The core's answer to an action (here, the draft's Mark contacted, an undo): the list, the detail, the outlets and the follow-ups due show it. */
  applyResult(r: TriageResult): Promise<void> {
    if (r.due) {
      // (a note or a star carries none: the follow-ups due are as they were)
      this.#dueTurn.begin();
      this.#due = r.due;
    }
    return this.#deps.applied(r);
  }

  /** "It", or "3 opportunities". */
  #many(n: number): string {
    return n === 1 ? 'It' : count(n, 'opportunity', 'opportunities');
  }

  /**
   * A triage action on `ids` through the core's owner of the record: its
   * answer repaints the rows, the detail and the chips (one round trip).
   * Resolves with it, or null (nothing to act on, or it failed: said in a
   * toast). Never rejects.
   */
  async #apply(action: TriageAction, what: string, ids: string[]): Promise<TriageResult | null> {
    const brandId = this.#frame.brandId;
    if (!brandId || ids.length === 0) return null;
    try {
      const r = await call('triage:apply', { brandId, ids, action, filter: this.#deps.filter(), counts: true });
      await this.applyResult(r);
      return r;
    } catch (e) {
      this.#frame.fail(what)(e);
      return null;
    }
  }

  /**
   * An action on `ids` (default: the selection, or the opportunity under the
   * cursor), its answer said in a toast (`say`: the window's words for it,
   * given how many it was for) with its Undo. Never rejects.
   */
  async #act(action: TriageAction, what: string, say?: (n: number) => string, ids = this.#deps.targets()): Promise<TriageResult | null> {
    const r = await this.#apply(action, what, ids);
    if (r) {
      const id = r.actionId;
      // Every action that changed something can be taken back from its toast (or with Ctrl/Cmd+Z).
      this.#frame.toast(say ? say(new Set(ids).size) : r.message, 'info', id === null ? undefined : { label: 'Undo', run: () => void this.undo(id) });
    }
    return r;
  }

  /** Star or unstar the opportunity under the cursor. Never rejects. */
  async toggleStar(): Promise<void> {
    const item = this.#deps.active();
    if (!item) return;
    await this.#apply({ do: 'star', on: !item.starred }, 'The star could not be saved', [item.id]);
  }

  /**
   * Set the outreach stage of the selection or the opportunity under the
   * cursor (Not a fit with its reason). A row the stage takes out of the list
   * (Not a fit) leaves it. Never rejects.
   */
  async setStage(stage: Stage, reason?: string | null, ids = this.#deps.targets()): Promise<void> {
    const many = ids.length > 1;
    const why = stage === 'Not a fit' && reason?.trim() ? ` (${reason.trim()})` : '';
    const r = await this.#act(
      { do: 'stage', stage, ...(stage === 'Not a fit' ? { reason: reason?.trim() || null } : {}) },
      'The stage could not be set',
      (n) => (many ? `${count(n, 'opportunity', 'opportunities')} moved to ${stage}${why}.` : `Stage: ${stage}${why}.`),
      ids,
    );
    if (r && many) this.#deps.clearSelection();
  }

  /**
   * Snooze the selection or the opportunity under the cursor until a day
   * (null: back now, or its "back from snooze" marker cleared: only those
   * snoozed or marked are sent, and none says so). Never rejects.
   */
  async snooze(until: string | null, targets = this.#deps.targets()): Promise<void> {
    // A row not loaded here (out of the list while snoozed) may be snoozed: the core is asked.
    const ids = until ? targets : targets.filter((id) => this.#deps.rowOf(id)?.snoozed_until !== null);
    if (targets.length && !ids.length) {
      this.#frame.toast(targets.length === 1 ? 'Not snoozed.' : `None of the ${targets.length} opportunities is snoozed.`);
      return;
    }
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
    if (r) this.#deps.clearSelection();
  }

  /**
   * Contacted today (the core's today) with the addresses chosen for the
   * pitch, or none (the core takes those the pitch pre-selects): the
   * opportunity under the cursor moves to Contacted (from New or Drafted), so
   * its follow-up comes due. Never rejects.
   */
  async markContacted(addresses: readonly string[] = []): Promise<void> {
    const item = this.#deps.active();
    if (!item) return;
    if (item.contacted_at) {
      this.#frame.toast(`Already marked contacted on ${day(item.contacted_at)}.`);
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
    const item = this.#deps.active();
    if (!item) return;
    await this.#act({ do: 'not-contacted' }, 'The contacted date could not be cleared', undefined, [item.id]);
  }

  /** The one follow-up was sent: followed up today (the selection at once). Never rejects. */
  async markFollowedUp(): Promise<void> {
    const many = this.#deps.targets().length > 1;
    const r = await this.#act({ do: 'followed-up' }, 'The follow-up could not be recorded', (n) =>
      many ? `${count(n, 'opportunity', 'opportunities')} marked followed up today.` : 'Marked followed up today.',
    );
    if (r && many) this.#deps.clearSelection();
  }

  /**
   * Won, with one key: the opportunity under the cursor (or the selection),
   * through the owner's `won` intent, so the history shows it and the undo
   * every action has (z, Ctrl+Z) takes it back. Never rejects.
   */
  async markWon(): Promise<void> {
    const brandId = this.#frame.brandId;
    const selected = this.#deps.selectedCount() > 0;
    const item = selected ? undefined : this.#deps.active();
    if (item?.stage === 'Won') return this.#frame.toast('It is Won already.');
    const before = item?.stage ?? 'New';
    const r = await this.#act({ do: 'won' }, 'Won could not be marked', (n) =>
      selected ? `${count(n, 'opportunity', 'opportunities')} moved to Won. Press z to undo.` : `Stage: Won. Press z to undo (back to ${before}).`,
    );
    if (r && selected) this.#deps.clearSelection();
    if (r && item && brandId && r.actionId !== null) this.#lastWon = { brandId, id: item.id, actionId: r.actionId };
  }

  /** Take back the Won last marked with the key here (that action, even when others came after). Never rejects. */
  async undoWon(): Promise<void> {
    const last = this.#lastWon;
    if (!this.lastWon || !last) return this.undo();
    await this.undo(last.actionId);
    this.#lastWon = null;
  }

  /** Take back a triage action: the one named (its toast's Undo), or the latest of this brand; its toast says what came back. Never rejects. */
  async undo(actionId?: number): Promise<void> {
    const brandId = this.#frame.brandId;
    if (!brandId) return;
    try {
      const r = await call('triage:undo', { ...(actionId === undefined ? {} : { actionId }), brandId, filter: this.#deps.filter(), counts: true });
      if (r.actionId === this.#lastWon?.actionId) this.#lastWon = null;
      await this.applyResult(r);
      this.#frame.toast(r.message);
    } catch (e) {
      this.#frame.fail('Nothing was undone')(e);
    }
  }
}

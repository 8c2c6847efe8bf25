// The outreach pipeline over the list: stages (Not a fit with its reason),
// snooze, marked contacted (and its undo), the one follow-up, the Due today
// and Snoozed views, the count of follow-ups due, and grouping by
// publication. It acts on what the list store
// points at (the selection, or the opportunity under the cursor) and follows
// each list it puts on screen; every answer is applied only while it is the
// latest of its kind, and every failure says so in a toast.
import type { ListFilter, ListSort } from '../../../shared/model';
import type { ContractResults } from '../../../shared/contract';
import { STAGE_TO_STATUS, type Stage } from '../../../shared/pipeline';
import { call } from '../lib/api.svelte';
import { count, day, dayName } from '../lib/format';
import { Latest } from '../lib/latest';
import type { AppStore } from './app.svelte';
import type { OpportunitiesStore } from './opportunities.svelte';

type Due = ContractResults['pipeline:due'];
export type PipelineView = NonNullable<ListFilter['view']>;

export class PipelineStore {
  /** Grouping asked for; it holds while the list is sorted by domain. */
  #wantGroup = $state(false);
  #sortBeforeGroup: ListSort = 'priority';
  /** Opportunities per outlet (lower-case domain) under the filter on screen, while grouped. */
  #domains = $state.raw<Record<string, number>>({});
  #due = $state.raw<Due | null>(null);
  #domainsTurn = new Latest();
  #dueTurn = new Latest();
  /** The stage each opportunity had before it was marked contacted here (by brand/id): where "Clear" takes it back. */
  #beforeContacted = new Map<string, Stage>();
  readonly #unlisten: () => void;
  readonly #app: AppStore;
  readonly #opps: OpportunitiesStore;

  constructor(app: AppStore, opps: OpportunitiesStore) {
    this.#app = app;
    this.#opps = opps;
    this.#unlisten = opps.onListed((filter, typing, fresh) => {
      if (!typing) void this.refreshDue();
      // Another sort chosen while grouped: the grouping ends (it is the sort by domain).
      if (this.#wantGroup && filter.sort !== 'domain') this.#wantGroup = false;
      if (this.#wantGroup) void this.#loadDomains(filter, fresh);
    });
  }

  /** Grouped by publication: sorted by domain, the first row of each outlet marked with its count. */
  get grouped(): boolean {
    return this.#wantGroup && this.#opps.filter.sort === 'domain';
  }
  get domains(): Record<string, number> {
    return this.#domains;
  }
  /** Follow-ups due, per brand and in all (null until counted). */
  get due(): Due | null {
    return this.#due;
  }
  /** Follow-ups due in the brand on screen (null until counted: a chip shows a placeholder, never a wrong 0). */
  get dueHere(): number | null {
    const brandId = this.#app.brandId;
    if (!this.#due) return null;
    return brandId ? (this.#due.byBrand[brandId] ?? 0) : 0;
  }

  dispose(): void {
    this.#unlisten();
    this.#domainsTurn.cancel();
    this.#dueTurn.cancel();
  }

  /** The Due today or Snoozed view; the same one again (or undefined) is the whole list. */
  showView(view: PipelineView | undefined): void {
    this.#opps.setFilter({ view: view === undefined || this.#opps.filter.view === view ? undefined : view });
  }

  /** Group by publication, or back to the sort before. */
  toggleGroup(): void {
    if (this.grouped) {
      this.#wantGroup = false;
      this.#opps.setFilter({ sort: this.#sortBeforeGroup });
      return;
    }
    const sort = this.#opps.filter.sort;
    this.#sortBeforeGroup = sort && sort !== 'domain' ? sort : 'priority';
    this.#wantGroup = true;
    this.#domains = {};
    this.#opps.setFilter({ sort: 'domain' });
  }

  /** How many of the list each outlet has. Never rejects. */
  async #loadDomains(filter: ListFilter, listFresh: () => boolean): Promise<void> {
    const fresh = this.#domainsTurn.begin();
    try {
      const d = await call('opportunities:domains', filter);
      if (fresh() && listFresh()) this.#domains = d;
    } catch (e) {
      if (fresh()) this.#app.fail('The outlets could not be counted')(e);
    }
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

  /** "It", or "3 opportunities". */
  #many(n: number): string {
    return n === 1 ? 'It' : count(n, 'opportunity', 'opportunities');
  }

  /**
   * Set the outreach stage of the selection or the opportunity under the
   * cursor (Not a fit with its reason). The list reads again: a stage may take
   * a row out of it (Not a fit is archived). Never rejects.
   */
  async setStage(stage: Stage, reason?: string | null): Promise<void> {
    const brandId = this.#app.brandId;
    const ids = this.#opps.targets();
    if (!brandId || ids.length === 0) return;
    try {
      const r = await call('pipeline:stage', { brandId, ids, stage, ...(stage === 'Not a fit' ? { reason: reason?.trim() || null } : {}) });
      const why = stage === 'Not a fit' && reason?.trim() ? ` (${reason.trim()})` : '';
      this.#app.toast(ids.length > 1 ? `${count(r.updated, 'opportunity', 'opportunities')} moved to ${stage}${why}.` : `Stage: ${stage}${why}.`);
      if (ids.length > 1) this.#opps.clearSelection();
      await this.#opps.reload(true);
    } catch (e) {
      this.#app.fail('The stage could not be set')(e);
    }
  }

  /** Snooze the selection or the opportunity under the cursor until a day (null: back now). Never rejects. */
  async snooze(until: string | null): Promise<void> {
    const brandId = this.#app.brandId;
    const ids = this.#opps.targets();
    if (!brandId || ids.length === 0) return;
    try {
      const r = await call('pipeline:snooze', { brandId, ids, until });
      const one = r.updated === 1;
      this.#app.toast(
        until
          ? `Snoozed until ${dayName(until)}: ${this.#many(r.updated).toLowerCase()} ${one ? 'leaves' : 'leave'} the list until then.`
          : `${this.#many(r.updated)} ${one ? 'is' : 'are'} back in the list.`,
      );
      this.#opps.clearSelection();
      await this.#opps.reload(true);
    } catch (e) {
      this.#app.fail(until ? 'The snooze could not be set' : 'The snooze could not be ended')(e);
    }
  }

  /**
   * Contacted today (the core's today) with the addresses chosen for the
   * pitch, or none: the opportunity under the cursor moves to Contacted (from
   * New or Drafted), so its follow-up comes due. Never rejects.
   */
  async markContacted(addresses: readonly string[] = []): Promise<void> {
    const brandId = this.#app.brandId;
    const item = this.#opps.active;
    if (!brandId || !item) return;
    if (item.contacted_at) {
      this.#app.toast(`Already marked contacted on ${day(item.contacted_at)}.`);
      return;
    }
    try {
      const d = await call('pipeline:contacted', { brandId, id: item.id, addresses: [...addresses] });
      this.#beforeContacted.set(`${brandId}/${item.id}`, item.stage ?? 'New');
      this.#opps.applyDetail(d);
      this.#app.toast(addresses.length ? `Marked contacted today: ${addresses.join(', ')}.` : 'Marked contacted today.');
      void this.refreshDue();
    } catch (e) {
      this.#app.fail('The contacted date could not be saved')(e);
    }
  }

  /** Not contacted after all: the date and addresses are cleared, and a Contacted stage goes back to the one before (New when not known). Never rejects. */
  async unmarkContacted(): Promise<void> {
    const brandId = this.#app.brandId;
    const item = this.#opps.active;
    if (!brandId || !item) return;
    const key = `${brandId}/${item.id}`;
    const back = item.stage === 'Contacted' ? (this.#beforeContacted.get(key) ?? 'New') : null;
    try {
      const stage = back ? { stage: back === 'New' ? null : back, status: STAGE_TO_STATUS[back] } : {};
      this.#opps.applyDetail(await call('triage:set', { brandId, id: item.id, patch: { contacted_at: null, contacted_addresses: null, ...stage } }));
      this.#beforeContacted.delete(key);
      void this.refreshDue();
    } catch (e) {
      this.#app.fail('The contacted date could not be cleared')(e);
    }
  }

  /** The one follow-up was sent: followed up today (the selection, one by one). Never rejects. */
  async markFollowedUp(): Promise<void> {
    const brandId = this.#app.brandId;
    const ids = this.#opps.targets();
    if (!brandId || ids.length === 0) return;
    let done = 0;
    try {
      for (const id of ids) {
        const d = await call('pipeline:followed-up', { brandId, id });
        if (ids.length === 1) this.#opps.applyDetail(d);
        done++;
      }
      this.#app.toast(ids.length > 1 ? `${count(done, 'opportunity', 'opportunities')} marked followed up today.` : 'Marked followed up today.');
    } catch (e) {
      this.#app.fail(done ? `${count(done, 'opportunity', 'opportunities')} marked followed up; the next could not be` : 'The follow-up could not be recorded')(
        e,
      );
    }
    if (ids.length > 1) this.#opps.clearSelection();
    await this.#opps.reload(true);
  }
}

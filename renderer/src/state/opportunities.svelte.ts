// Long because: the list, its pages, the cursor, the open detail and the early
// first answer share one filter and one turn counter; split, each would need both.
// The opportunities workbench: filters, the virtualised list (rows fetched a
// page at a time from main, never filtered here), the cursor and selection,
// the open detail, and the triage actions (copying and mailing: outreach.ts;
// the draft: pitch.svelte.ts; stages, snooze, follow-ups, the Due and Snoozed
// views and grouping: pipeline.svelte.ts). Every answer is applied only while
// its request is the latest of its kind (lib/latest.ts); every action that
// fails says so in a toast.
import type { ListFilter, ListItem, OpportunityDetail } from '../../../shared/model';
import type { ContractResults, TriageResult } from '../../../shared/contract';
import type { TriageAction } from '../../../shared/pipeline';
import { call } from '../lib/api.svelte';
import { errorText } from '../lib/format';
import { Early } from '../lib/early';
import { Latest } from '../lib/latest';
import type { AppStore } from './app.svelte';
import { recall, remember } from '../lib/remembered';

export const PAGE = 200;
export type Filter = Omit<ListFilter, 'brandId'>;
type Counts = ContractResults['opportunities:counts'];
type PageCursor = NonNullable<ContractResults['opportunities:list']['next']>;
type NoteState = 'saved' | 'saving' | 'unsaved' | 'error';
/** Told each time a list is on screen: its filter, whether a search is being typed, and whether it is still the latest. */
export type ListedListener = (filter: ListFilter, typing: boolean, fresh: () => boolean) => void;

const byIdOf = (items: readonly ListItem[], id: string) => items.find((it) => it.id === id);

export class OpportunitiesStore {
  // The filters and sort the window had last time (never its search).
  #filter = $state.raw<Filter>({ sort: 'priority', ...recall().filter });
  /** The order chosen before a search put the list in Best match order, to go back to when the search ends. */
  #sortBeforeSearch: Filter['sort'] | null = null;
  #total = $state(0);
  /** The total is a search's count up to a cap: there are more (the exact one comes with the chip counts). */
  #capped = $state(false);
  #pages = $state.raw<Record<number, ListItem[]>>({});
  #counts = $state.raw<Counts | null>(null);
  #loading = $state(false);
  #error = $state<string | null>(null);
  #cursor = $state(0);
  #selected = $state.raw<Set<string>>(new Set());
  #detail = $state.raw<OpportunityDetail | null>(null);
  /** The brand the open detail belongs to (the brand on screen may have changed before the next detail is read). */
  #detailBrand = $state<string | null>(null);
  #noteDraft = $state('');
  #noteState = $state<NoteState>('saved');
  #anchor = 0;
  #pending = new Set<number>();
  #next: Record<number, PageCursor | null> = {}; // Where the page after each loaded page starts (from the core; handed back to it).
  #inFlight = false;
  #early = new Early<ContractResults['opportunities:view']>();
  #shownSearch: string | undefined = undefined; // The search the list on screen shows (undefined: none).
  #listedBrand = $state<string | null>(null); // The brand whose list has been shown at least once (other panes load after it).
  #again: boolean | null = null; // A reload asked while one was on its way (true: keep the cursor).
  #listeners = new Set<ListedListener>();
  #list = new Latest();
  #detailTurn = new Latest();
  #noteTimer: ReturnType<typeof setTimeout> | null = null;
  #detailTimer: ReturnType<typeof setTimeout> | null = null;
  readonly #app: AppStore;

  constructor(app: AppStore) {
    this.#app = app;
  }

  get filter(): Filter {
    return this.#filter;
  }
  get listedBrand(): string | null {
    return this.#listedBrand;
  }
  get total(): number {
    return this.#total;
  }
  get capped(): boolean {
    return this.#capped;
  }
  get counts(): Counts | null {
    return this.#counts;
  }
  get loading(): boolean {
    return this.#loading;
  }
  get error(): string | null {
    return this.#error;
  }
  get cursor(): number {
    return this.#cursor;
  }
  get selected(): ReadonlySet<string> {
    return this.#selected;
  }
  get detail(): OpportunityDetail | null {
    return this.#detail;
  }
  get detailBrand(): string | null {
    return this.#detailBrand;
  }
  get noteDraft(): string {
    return this.#noteDraft;
  }
  get noteState(): NoteState {
    return this.#noteState;
  }

  readonly active = $derived(this.itemAt(this.#cursor));

  itemAt(i: number): ListItem | undefined {
    return this.#pages[Math.floor(i / PAGE)]?.[i % PAGE];
  }

  /** Stop the timers and drop answers still on their way; an unsaved note is saved first. */
  dispose(): void {
    void this.flushNote();
    if (this.#detailTimer) clearTimeout(this.#detailTimer);
    this.#list.cancel();
    this.#detailTurn.cancel();
    this.#listeners.clear();
  }

  /** Follow each list put on screen (the pipeline counts what is due, and the outlets while grouped); returns the unsubscribe. */
  onListed(listener: ListedListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Reload the first page, its total and the chip counts under the filter, in one round trip. A newer
   * request supersedes one on its way: its answer is dropped, only the latest filter is asked next. Never rejects.
   */
  async reload(keepCursor = false): Promise<void> {
    if (this.#inFlight) {
      this.#list.begin(); // the answer on its way is stale now
      this.#again = (this.#again ?? true) && keepCursor;
      return;
    }
    this.#inFlight = true;
    try {
      await this.#load(keepCursor);
    } finally {
      this.#inFlight = false;
    }
    const again = this.#again;
    this.#again = null;
    if (again !== null) await this.reload(again);
  }

  /** Ask for the first list as soon as the brand is known, while the list pane is being built; the first load takes it (lib/early.ts). */
  prefetch(): void {
    const brandId = this.#app.brandId;
    // Only when the list is what the window shows next (not the first-run screen).
    if (!brandId || (!this.#app.hasKey && !this.#app.demo) || this.#listedBrand !== null || this.#inFlight || this.#early.held) return;
    const args = { filter: { ...this.#filter, brandId }, limit: PAGE, counts: true };
    this.#early.put(args, call('opportunities:view', args));
  }

  async #load(keepCursor: boolean): Promise<void> {
    const brandId = this.#app.brandId;
    if (!brandId) return;
    const fresh = this.#list.begin();
    this.#pending.clear();
    this.#loading = true;
    this.#error = null;
    const filter = { ...this.#filter, brandId };
    // Typing a search: the list paints first and the chips follow (a placeholder meanwhile, never an old count).
    const typing = filter.search !== undefined && filter.search !== this.#shownSearch;
    try {
      const args = { filter, limit: PAGE, counts: !typing };
      const view = await (this.#early.take(args) ?? call('opportunities:view', args));
      if (!fresh()) return;
      this.#pages = { 0: view.items };
      this.#next = { 0: view.next };
      this.#total = view.total;
      this.#capped = view.capped === true;
      this.#counts = view.counts;
      this.#shownSearch = filter.search;
      if (typing) void this.#refreshCounts(brandId).catch(() => {});
      for (const listener of this.#listeners) listener(filter, typing, fresh);
      this.#listedBrand = brandId;
      if (!keepCursor) {
        this.#cursor = 0;
        this.#selected = new Set();
      } else this.#cursor = Math.min(this.#cursor, Math.max(0, this.#total - 1));
      this.#scheduleDetail();
    } catch (e) {
      if (fresh()) this.#error = errorText(e);
    } finally {
      if (fresh()) this.#loading = false;
    }
  }

  /** Make sure rows start..end are loaded (the list calls this as it scrolls). */
  ensure(start: number, end: number): void {
    const brandId = this.#app.brandId;
    if (!brandId) return;
    for (let p = Math.floor(Math.max(0, start) / PAGE); p <= Math.floor(Math.max(0, end) / PAGE); p++) {
      if (this.#pages[p] || this.#pending.has(p) || p * PAGE >= this.#total) continue;
      this.#pending.add(p);
      const fresh = this.#list.current();
      // Scrolling on: the page after the last one loaded starts after its last row (keyset); a jump asks by offset,
      // counted from the nearer end (End and the lower half read the index backwards, never past every row before them).
      const after = this.#next[p - 1] ?? undefined;
      const upTo = Math.min(this.#total, (p + 1) * PAGE);
      const fromEnd = !after && !this.#capped && p * PAGE >= this.#total / 2;
      const at = after
        ? { after, offset: p * PAGE, limit: PAGE }
        : fromEnd
          ? { offset: this.#total - upTo, limit: upTo - p * PAGE, fromEnd }
          : { offset: p * PAGE, limit: PAGE };
      call('opportunities:list', { filter: { ...this.#filter, brandId }, ...at })
        .then((r) => {
          if (!fresh()) return;
          this.#pages = { ...this.#pages, [p]: r.items };
          this.#next = { ...this.#next, [p]: r.next };
          if (Math.floor(this.#cursor / PAGE) === p) this.#scheduleDetail();
        })
        .catch((e: unknown) => {
          if (fresh()) this.#error = errorText(e);
        })
        .finally(() => {
          if (fresh()) this.#pending.delete(p);
        });
    }
  }

  setFilter(patch: Partial<Filter>): void {
    const next = { ...this.#filter, ...patch, ...this.#searchSort(patch) };
    this.#filter = Object.fromEntries(Object.entries(next).filter(([, v]) => v !== undefined && v !== '')) as Filter;
    this.#remember();
    void this.reload();
  }

  /**
   * A search begun in the priority order turns to Best match (the words' own
   * order); when it ends, the order before comes back. An order the user
   * chooses meanwhile is theirs.
   */
  #searchSort(patch: Partial<Filter>): Partial<Filter> {
    if (!('search' in patch)) {
      if ('sort' in patch) this.#sortBeforeSearch = null;
      return {};
    }
    const was = this.#filter.search !== undefined;
    const is = patch.search !== undefined && patch.search !== '';
    if (!was && is && (this.#filter.sort ?? 'priority') === 'priority') {
      this.#sortBeforeSearch = this.#filter.sort ?? 'priority';
      return { sort: 'relevance' };
    }
    if (was && !is && this.#sortBeforeSearch !== null) {
      const sort = this.#filter.sort === 'relevance' ? this.#sortBeforeSearch : this.#filter.sort;
      this.#sortBeforeSearch = null;
      return { sort };
    }
    return {};
  }

  #remember(): void {
    const { search: _search, ...filter } = this.#filter;
    remember({ filter: { ...filter, ...(filter.sort === 'relevance' ? { sort: this.#sortBeforeSearch ?? 'priority' } : {}) } });
  }

  clearFilters(): void {
    const sort = this.#filter.sort === 'relevance' ? (this.#sortBeforeSearch ?? 'priority') : (this.#filter.sort ?? 'priority');
    this.#sortBeforeSearch = null;
    this.#filter = { sort };
    this.#remember();
    void this.reload();
  }

  moveTo(i: number): void {
    if (this.#total === 0) return;
    void this.flushNote();
    this.#cursor = Math.max(0, Math.min(this.#total - 1, i));
    this.ensure(this.#cursor - 20, this.#cursor + 40);
    this.#scheduleDetail();
  }

  move(delta: number): void {
    this.moveTo(this.#cursor + delta);
  }

  #scheduleDetail(): void {
    if (this.#detailTimer) clearTimeout(this.#detailTimer);
    this.#detailTimer = setTimeout(() => {
      this.loadDetail().catch(this.#app.fail('The opportunity could not be read'));
    }, 40);
  }

  async loadDetail(): Promise<void> {
    const item = this.itemAt(this.#cursor);
    const brandId = this.#app.brandId;
    const fresh = this.#detailTurn.begin();
    if (!item || !brandId) {
      this.#detail = null;
      return;
    }
    if (this.#detail?.item.id === item.id && this.#noteState !== 'saved') return;
    const d = await call('opportunities:get', { brandId, id: item.id });
    if (!fresh() || this.itemAt(this.#cursor)?.id !== item.id) return;
    this.#detail = d;
    this.#detailBrand = brandId;
    this.#noteDraft = d?.triage.note ?? '';
    this.#noteState = 'saved';
  }

  /** An opportunity changed by another part of the window (the draft, mail): its row and detail show it. */
  applyDetail(d: OpportunityDetail | null): void {
    if (d) this.#patchRows([d.item], d);
    const brandId = this.#app.brandId;
    if (brandId) void this.#refreshCounts(brandId).catch(() => {});
  }

  /**
   * The core's answer to a triage action or an undo (one round trip): the
   * changed rows and the detail are patched in place, the chip counts taken
   * when it has them; a row that leaves the list or comes into it (or a change
   * past the rows the answer carries) reads the list again, keeping the cursor.
   */
  applyResult(r: TriageResult): Promise<void> {
    const shown = this.#shownIds();
    this.#patchRows(r.items, r.detail);
    if (r.counts) this.#counts = r.counts;
    // A changed row the list does not hold may have come into it (an undone snooze or Not a fit): read it again too.
    const entering = r.items.some((it) => !shown.has(it.id) && !r.leaving.includes(it.id));
    return r.leaving.length > 0 || entering || r.items.length < r.updated ? this.reload(true) : Promise.resolve();
  }

  /** The ids of the rows loaded now. */
  #shownIds(): Set<string> {
    const ids = new Set<string>();
    for (const rows of Object.values(this.#pages)) for (const row of rows) ids.add(row.id);
    return ids;
  }

  /** Read one opportunity again and show it (its stage moved after a draft was saved). Never rejects. */
  async refreshItem(id: string): Promise<void> {
    const brandId = this.#app.brandId;
    if (!brandId) return;
    try {
      this.applyDetail(await call('opportunities:get', { brandId, id }));
    } catch (e) {
      this.#app.fail('The opportunity could not be read')(e);
    }
  }

  /** Replace rows in place after a triage change (no reload, the cursor stays); the open detail too, keeping a note being typed. */
  #patchRows(items: readonly ListItem[], d: OpportunityDetail | null): void {
    if (items.length) {
      const byId = new Map(items.map((it) => [it.id, it]));
      const pages = { ...this.#pages };
      for (const [k, rows] of Object.entries(pages)) {
        if (rows.some((r) => byId.has(r.id))) pages[Number(k)] = rows.map((r) => (byId.has(r.id) ? { ...byId.get(r.id)!, sort_value: r.sort_value } : r));
      }
      this.#pages = pages;
    }
    if (d && this.#detail?.item.id === d.item.id)
      this.#detail = { ...d, triage: { ...d.triage, note: this.#noteState === 'saved' ? d.triage.note : this.#noteDraft } };
    else if (this.#detail && byIdOf(items, this.#detail.item.id)) {
      const item = byIdOf(items, this.#detail.item.id)!;
      this.#detail = { ...this.#detail, item: { ...item, note: this.#noteState === 'saved' ? item.note : this.#noteDraft } };
    }
  }

  toggleSelect(i: number, range = false): void {
    const item = this.itemAt(i);
    if (!item) return;
    const next = new Set(this.#selected);
    if (range) {
      const [a, b] = [Math.min(this.#anchor, i), Math.max(this.#anchor, i)];
      for (let k = a; k <= b; k++) {
        const it = this.itemAt(k);
        if (it) next.add(it.id);
      }
    } else {
      if (next.has(item.id)) next.delete(item.id);
      else next.add(item.id);
      this.#anchor = i;
    }
    this.#selected = next;
  }

  /** Select exactly these (an outlet's opportunities). */
  select(ids: readonly string[]): void {
    this.#selected = new Set(ids);
  }

  clearSelection(): void {
    this.#selected = new Set();
  }

  /** What an action applies to: the selection, or the opportunity under the cursor. */
  targets(): string[] {
    if (this.#selected.size) return [...this.#selected];
    const a = this.itemAt(this.#cursor);
    return a ? [a.id] : [];
  }

  /**
   * A triage action on the selection or the opportunity under the cursor,
   * through the core's owner of the record: its answer repaints the rows, the
   * detail and the chips (one round trip). Resolves with it, or null (nothing
   * to act on, or it failed: said in a toast). Never rejects.
   */
  async act(action: TriageAction, what: string, ids: string[] = this.targets()): Promise<TriageResult | null> {
    const brandId = this.#app.brandId;
    if (!brandId || ids.length === 0) return null;
    try {
      const r = await call('triage:apply', { brandId, ids, action, filter: this.#filter, counts: true });
      await this.applyResult(r);
      return r;
    } catch (e) {
      this.#app.fail(what)(e);
      return null;
    }
  }

  /** Take back a triage action: the one named (its toast's Undo), or the latest of this brand. Never rejects. */
  async undo(actionId?: number): Promise<TriageResult | null> {
    const brandId = this.#app.brandId;
    if (!brandId) return null;
    try {
      const r = await call('triage:undo', { ...(actionId === undefined ? {} : { actionId }), brandId, filter: this.#filter, counts: true });
      await this.applyResult(r);
      this.#app.toast(r.message);
      return r;
    } catch (e) {
      this.#app.fail('Nothing was undone')(e);
      return null;
    }
  }

  /** The chip counts again (a status changed), applied only while the list is still the same one. */
  async #refreshCounts(brandId: string): Promise<void> {
    const listFresh = this.#list.current();
    const c = await call('opportunities:counts', { ...this.#filter, brandId });
    if (!listFresh()) return;
    this.#counts = c;
    // The exact total (a search's page may have counted only up to a cap).
    if (c.listed !== undefined) {
      this.#total = c.listed;
      this.#capped = false;
    }
  }

  toggleStar(): Promise<unknown> {
    const item = this.itemAt(this.#cursor);
    if (!item) return Promise.resolve();
    return this.act({ do: 'star', on: !item.starred }, 'The star could not be saved', [item.id]);
  }

  editNote(text: string): void {
    this.#noteDraft = text;
    this.#noteState = 'unsaved';
    if (this.#noteTimer) clearTimeout(this.#noteTimer);
    this.#noteTimer = setTimeout(() => void this.flushNote(), 500);
  }

  /** Save the note now (autosave, blur, moving away). Never rejects. */
  async flushNote(): Promise<void> {
    if (this.#noteTimer) clearTimeout(this.#noteTimer);
    this.#noteTimer = null;
    const d = this.#detail;
    const brandId = this.#app.brandId;
    if (!d || !brandId || this.#noteState !== 'unsaved') return;
    const note = this.#noteDraft;
    this.#noteState = 'saving';
    try {
      const r = await call('triage:apply', { brandId, ids: [d.item.id], action: { do: 'note', text: note } });
      this.#noteState = this.#noteDraft === note ? 'saved' : 'unsaved';
      this.#patchRows(r.items, r.detail ? { ...r.detail, triage: { ...r.detail.triage, note } } : null);
    } catch (e) {
      this.#noteState = 'error';
      this.#app.fail('The note could not be saved')(e);
    }
  }
}

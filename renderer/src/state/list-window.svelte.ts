// The opportunities list's page window: the filters and sort (remembered,
// never the search), the rows fetched a page at a time from the core as the
// list scrolls (never filtered here), their total and the chip counts, and
// the rows patched in place by a triage answer. The cursor, the selection
// and the open detail are selection.svelte.ts's; what the list's changes mean
// to them reaches them through the callbacks given at construction. Every
// answer is applied only while its request is the latest of its kind
// (lib/latest.ts); a failure is `error`.
import type { ListFilter, ListItem } from '../../../shared/model';
import type { ContractResults, TriageResult } from '../../../shared/contract';
import { call } from '../lib/api.svelte';
import { errorText } from '../lib/format';
import { Early } from '../lib/early';
import { Latest } from '../lib/latest';
import { recall, remember } from '../lib/remembered';
import { WorkbenchError } from '../../../shared/errors';
import { searchOf } from '../../../shared/search-words';

export const PAGE = 200;

/** Why the list could not be read, in plain words (the core's refusal names its method and fields: not for the user). */
function listError(e: unknown): string {
  if (e instanceof WorkbenchError && e.kind === 'invalid-input') {
    if (e.field?.endsWith('search')) return 'The list could not be read for this search: it was not accepted. Change it, or press Clear filters.';
    return 'The list could not be read with these filters: they were not accepted. Change them, or press Clear filters.';
  }
  return `The list could not be read: ${errorText(e)}`;
}

export type Filter = Omit<ListFilter, 'brandId'>;
type Counts = ContractResults['opportunities:counts'];
type PageCursor = NonNullable<ContractResults['opportunities:list']['next']>;

/** A list put on screen: its filter, whether a search is being typed, whether it is still the latest, and whether the cursor stays. */
export interface Listed {
  filter: ListFilter;
  typing: boolean;
  fresh: () => boolean;
  keepCursor: boolean;
  total: number;
}

export interface ListWindowDeps {
  /** The brand on screen. */
  brandId: () => string | null;
  /** The list is what the window shows next (a key or the demo; not the first-run screen). */
  showsList: () => boolean;
  /** Told each time a list is on screen (the cursor, the follow-ups due, the outlets follow it). */
  listed: (l: Listed) => void;
  /** A further page arrived (the detail under the cursor may be in it). */
  pageArrived: (page: number) => void;
  /** The list could not be read: no row of the list before is on screen (the cursor, the selection, the detail go). */
  emptied: () => void;
}

export class ListWindow {
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
  #pending = new Set<number>();
  #next: Record<number, PageCursor | null> = {}; // Where the page after each loaded page starts (from the core; handed back to it).
  #inFlight = false;
  #early = new Early<ContractResults['opportunities:view']>();
  #shownSearch: string | undefined = undefined; // The search the list on screen shows (undefined: none).
  #listedBrand = $state<string | null>(null); // The brand whose list has been shown at least once (other panes load after it).
  #again: boolean | null = null; // A reload asked while one was on its way (true: keep the cursor).
  #turn = new Latest();
  readonly #deps: ListWindowDeps;

  constructor(deps: ListWindowDeps) {
    this.#deps = deps;
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

  itemAt(i: number): ListItem | undefined {
    return this.#pages[Math.floor(i / PAGE)]?.[i % PAGE];
  }

  /** The loaded row with this id (undefined when its page is not loaded or it is not in the list). */
  rowOf(id: string): ListItem | undefined {
    for (const rows of Object.values(this.#pages)) for (const row of rows) if (row.id === id) return row;
    return undefined;
  }

  /** Drop answers still on their way. */
  dispose(): void {
    this.#turn.cancel();
  }

  /**
   * Reload the first page, its total and the chip counts under the filter, in one round trip. A newer
   * request supersedes one on its way: its answer is dropped, only the latest filter is asked next. Never rejects.
   */
  async reload(keepCursor = false): Promise<void> {
    if (this.#inFlight) {
      this.#turn.begin(); // the answer on its way is stale now
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
    const brandId = this.#deps.brandId();
    if (!brandId || !this.#deps.showsList() || this.#listedBrand !== null || this.#inFlight || this.#early.held) return;
    const args = { filter: { ...this.#filter, brandId }, limit: PAGE, counts: true };
    this.#early.put(args, call('opportunities:view', args));
  }

  async #load(keepCursor: boolean): Promise<void> {
    const brandId = this.#deps.brandId();
    if (!brandId) return;
    const fresh = this.#turn.begin();
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
      if (typing) void this.refreshCounts().catch(() => {});
      this.#listedBrand = brandId;
      this.#deps.listed({ filter, typing, fresh, keepCursor, total: view.total });
    } catch (e) {
      if (!fresh()) return;
      // The rows, total and chip counts of the filter before would read as this one's: none are shown.
      this.#pages = {};
      this.#next = {};
      this.#total = 0;
      this.#capped = false;
      this.#counts = null;
      this.#shownSearch = undefined;
      this.#error = listError(e);
      this.#deps.emptied();
    } finally {
      if (fresh()) this.#loading = false;
    }
  }

  /** Make sure rows start..end are loaded (the list calls this as it scrolls). */
  ensure(start: number, end: number): void {
    const brandId = this.#deps.brandId();
    if (!brandId) return;
    for (let p = Math.floor(Math.max(0, start) / PAGE); p <= Math.floor(Math.max(0, end) / PAGE); p++) {
      if (this.#pages[p] || this.#pending.has(p) || p * PAGE >= this.#total) continue;
      this.#pending.add(p);
      const fresh = this.#turn.current();
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
          this.#deps.pageArrived(p);
        })
        .catch((e: unknown) => {
          if (fresh()) this.#error = `The list could not be read: ${errorText(e)}`;
        })
        .finally(() => {
          if (fresh()) this.#pending.delete(p);
        });
    }
  }

  setFilter(patch: Partial<Filter>): void {
    if ('search' in patch) patch = { ...patch, search: searchOf(patch.search) };
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

  /**
   * The core's answer to a triage action or an undo (one round trip): the
   * changed rows are patched in place, the chip counts taken when it has
   * them; a row that leaves the list or comes into it (or a change past the
   * rows the answer carries) reads the list again, keeping the cursor.
   */
  applyResult(r: TriageResult): Promise<void> {
    const shown = this.#shownIds();
    this.patchRows(r.items);
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

  /** Replace rows in place after a triage change (no reload, the cursor stays; each keeps its sort value). */
  patchRows(items: readonly ListItem[]): void {
    if (!items.length) return;
    const byId = new Map(items.map((it) => [it.id, it]));
    const pages = { ...this.#pages };
    for (const [k, rows] of Object.entries(pages)) {
      if (rows.some((r) => byId.has(r.id))) pages[Number(k)] = rows.map((r) => (byId.has(r.id) ? { ...byId.get(r.id)!, sort_value: r.sort_value } : r));
    }
    this.#pages = pages;
  }

  /** The chip counts again (a stage changed), applied only while the list is still the same one. Rejects when they could not be read. */
  async refreshCounts(): Promise<void> {
    const brandId = this.#deps.brandId();
    if (!brandId) return;
    const listFresh = this.#turn.current();
    const c = await call('opportunities:counts', { ...this.#filter, brandId });
    if (!listFresh()) return;
    this.#counts = c;
    // The exact total (a search's page may have counted only up to a cap).
    if (c.listed !== undefined) {
      this.#total = c.listed;
      this.#capped = false;
    }
  }
}

// Group by publication: the list sorted by outlet, a head per outlet with its
// count and stage mix (the core's opportunities:outlets, under the list's
// filter), each outlet collapsible (remembered between launches), and the
// keys that move through heads and rows as in a tree: the arrows and j/k go
// through both, Left goes to a row's head or collapses a head, Right opens a
// head or goes to its first row, ] and [ go between outlets. The outlet's ids
// (for its Snooze all and Not a fit all) come from the core too.
import type { ListFilter, ListSort } from '../../../shared/model';
import { call } from '../lib/api.svelte';
import { count } from '../lib/format';
import { Latest } from '../lib/latest';
import { outletKey, outletOfRow, outletRows, slotAt, slotOfRow, type OutletHead, type OutletRows } from '../lib/outlet-rows';
import { recall, remember } from '../lib/remembered';
import type { ListItem } from '../../../shared/model';
import type { Frame } from './frame';
import type { Filter } from './list-window.svelte';

/** What the outlets need of the list and the selection, given at construction. */
export interface OutletGroupsDeps {
  frame: Frame;
  filter: () => Filter;
  setFilter: (patch: Partial<Filter>) => void;
  total: () => number;
  cursor: () => number;
  moveTo: (i: number) => void;
  active: () => ListItem | undefined;
  select: (ids: readonly string[]) => void;
}

export class OutletGroups {
  /** Grouping asked for; it holds while the list is sorted by domain. */
  #want = $state(recall().grouped === true);
  #sortBefore: ListSort = 'priority';
  #outlets = $state.raw<OutletHead[]>([]);
  #collapsed = $state.raw<ReadonlySet<string>>(new Set(recall().collapsed ?? []));
  /** The outlet whose head has the cursor (null: a row has it). */
  #head = $state<number | null>(null);
  #turn = new Latest();
  readonly #deps: OutletGroupsDeps;
  readonly #frame: Frame;

  constructor(deps: OutletGroupsDeps) {
    this.#deps = deps;
    this.#frame = deps.frame;
  }

  /** Grouped by publication: sorted by domain, a head per outlet. */
  get grouped(): boolean {
    return this.#want && this.#deps.filter().sort === 'domain';
  }
  /** The heads and rows on screen (null while not grouped or not counted yet: the rows alone then). */
  readonly rows: OutletRows | null = $derived.by(() => (this.grouped ? outletRows(this.#outlets, this.#deps.total(), this.#collapsed) : null));
  /** The outlet whose head has the cursor, if one does. */
  get head(): number | null {
    return this.rows && this.#head !== null && this.#head < this.rows.outlets.length ? this.#head : null;
  }
  /** The slot the cursor is at (a head, or its row's). */
  get slot(): number | null {
    const r = this.rows;
    if (!r) return null;
    const h = this.head;
    return h !== null ? r.headSlot[h]! : slotOfRow(r, this.#deps.cursor());
  }
  /** The outlet under the cursor (its head, or the row's outlet). */
  get current(): OutletHead | null {
    const k = this.#index();
    return k === null ? null : (this.rows!.outlets[k] ?? null);
  }

  /** The outlet under the cursor, by its index. */
  #index(): number | null {
    const r = this.rows;
    if (!r || this.#deps.total() === 0) return null;
    return this.head ?? outletOfRow(r, this.#deps.cursor());
  }

  /** A list was put on screen: another sort ends the grouping; grouped, its outlets are counted. */
  listed(filter: ListFilter, fresh: () => boolean): void {
    if (this.#want && filter.sort !== 'domain') {
      this.#want = false;
      remember({ grouped: false });
    }
    if (this.#want) void this.refresh(filter, fresh);
  }

  toggle(): void {
    this.#head = null;
    if (this.grouped) {
      this.#want = false;
      remember({ grouped: false });
      this.#deps.setFilter({ sort: this.#sortBefore });
      return;
    }
    const sort = this.#deps.filter().sort;
    this.#sortBefore = sort && sort !== 'domain' ? sort : 'priority';
    this.#want = true;
    remember({ grouped: true });
    this.#outlets = [];
    this.#deps.setFilter({ sort: 'domain' });
  }

  /** Count the outlets again (after an action changed stages). Never rejects. */
  async refresh(given?: ListFilter, listFresh: () => boolean = () => true): Promise<void> {
    const brandId = this.#frame.brandId;
    const filter = given ?? (brandId ? { ...this.#deps.filter(), brandId } : null);
    if (!this.#want || !filter) return;
    const fresh = this.#turn.begin();
    try {
      const o = await call('opportunities:outlets', filter);
      if (fresh() && listFresh()) this.#outlets = o;
    } catch (e) {
      if (fresh()) this.#frame.fail('The outlets could not be counted')(e);
    }
  }

  dispose(): void {
    this.#turn.cancel();
  }

  /** The cursor to a slot: a head (the list's cursor on the outlet's first row), or a row. */
  #to(slot: number): void {
    const r = this.rows!;
    const at = slotAt(r, Math.max(0, Math.min(r.length - 1, slot)));
    if ('head' in at) {
      this.#head = at.head;
      this.#deps.moveTo(r.firstRow[at.head]!);
    } else {
      this.#head = null;
      this.#deps.moveTo(at.row);
    }
  }

  /** A row clicked: the cursor on it. */
  toRow(i: number): void {
    this.#head = null;
    this.#deps.moveTo(i);
  }

  /** Up or down through heads and rows; false when not grouped (the list moves as usual). */
  step(delta: number): boolean {
    const s = this.slot;
    if (s === null) return false;
    this.#to(s + delta);
    return true;
  }

  /** Home and End: the first or the last opportunity (a collapsed outlet's head). */
  edge(end: boolean): boolean {
    const r = this.rows;
    if (!r) return false;
    this.#head = null;
    this.#to(slotOfRow(r, end ? this.#deps.total() - 1 : 0));
    return true;
  }

  /** Collapse or open an outlet (default: the one under the cursor); collapsing puts the cursor on its head. */
  collapse(shut: boolean, k = this.#index()): void {
    const r = this.rows;
    if (!r || k === null) return;
    const key = outletKey(r.outlets[k]!.domain);
    if (this.#collapsed.has(key) === shut) return;
    const next = new Set(this.#collapsed);
    if (shut) next.add(key);
    else next.delete(key);
    this.#collapsed = next;
    remember({ collapsed: [...next].slice(-1000) });
    if (shut) this.#to(r.headSlot[k]!);
  }

  /** Left: a row goes to its head; an open head collapses. */
  left(): boolean {
    const r = this.rows;
    if (!r) return false;
    const h = this.head;
    if (h === null) this.#to(r.headSlot[outletOfRow(r, this.#deps.cursor())]!);
    else this.collapse(true, h);
    return true;
  }

  /** Right: a collapsed head opens; an open one goes to its first row. */
  right(): boolean {
    const r = this.rows;
    const h = this.head;
    if (!r || h === null) return r !== null;
    if (r.collapsed[h]) this.collapse(false, h);
    else this.#to(r.headSlot[h]! + 1);
    return true;
  }

  /** Enter or Space on a head: collapse or open it. False on a row. */
  toggleHead(k = this.head): boolean {
    if (k === null || !this.rows) return false;
    this.collapse(!this.rows.collapsed[k], k);
    if (!this.rows.collapsed[k]) this.#to(this.rows.headSlot[k]!);
    return true;
  }

  /** ] and [: the first row of the next outlet, or the start of this one (from there, of the previous one). */
  moveToOutlet(dir: 1 | -1): void {
    const r = this.rows;
    if (!r) return;
    const k = this.head ?? outletOfRow(r, this.#deps.cursor());
    const atStart = this.head !== null || this.#deps.cursor() === r.firstRow[k];
    const to = dir === 1 ? k + 1 : atStart ? k - 1 : k;
    if (to < 0 || to >= r.outlets.length) return;
    this.#head = null;
    this.#to(slotOfRow(r, r.firstRow[to]!));
  }

  /** Every opportunity of the list at the outlet under the cursor (null when there is none, or it could not be read: a toast says so). Never rejects. */
  async ids(): Promise<{ outlet: string; ids: string[] } | null> {
    const brandId = this.#frame.brandId;
    const outlet = this.current?.domain ?? this.#deps.active()?.domain;
    if (!brandId || !outlet) return null;
    try {
      // Every one of the outlet's own under the list's whole filter, its search too (as its head counts them),
      // however many (the core pages through them).
      const r = await call('outlets:ids', { filter: { ...this.#deps.filter(), brandId }, domain: outlet });
      return { outlet, ids: r.ids };
    } catch (e) {
      this.#frame.fail('The outlet could not be read')(e);
      return null;
    }
  }

  /** Select every opportunity at the outlet: the selection's actions (stage, snooze, Not a fit, export) then act on it. Never rejects. */
  async select(): Promise<void> {
    const got = await this.ids();
    if (!got) return;
    this.#deps.select(got.ids);
    this.#frame.toast(`${count(got.ids.length, 'opportunity', 'opportunities')} at ${got.outlet} selected: the selection's actions apply to them all.`);
  }
}

// The opportunities workbench: filters, the virtualised list (rows fetched a
// page at a time from main, never filtered here), the cursor and selection,
// the open detail, and the triage actions.
import type { ListFilter, ListItem, OpportunityDetail, Status } from '../../../shared/model';
import type { ContractResults } from '../../../shared/contract';
import { copyGoodAddresses, copyPitch } from '../../../shared/outreach';
import { call } from '../lib/api.svelte';
import { errorText } from '../lib/format';
import type { AppStore } from './app.svelte';

export const PAGE = 200;
export type Filter = Omit<ListFilter, 'brandId'>;
type Counts = ContractResults['opportunities:counts'];

export class OpportunitiesStore {
  filter = $state<Filter>({ sort: 'priority' });
  total = $state(0);
  /** The search matched more than `total`; refine it to see the rest. */
  capped = $state(false);
  pages = $state.raw<Record<number, ListItem[]>>({});
  counts = $state.raw<Counts | null>(null);
  loading = $state(false);
  error = $state<string | null>(null);
  cursor = $state(0);
  selected = $state.raw<Set<string>>(new Set());
  detail = $state.raw<OpportunityDetail | null>(null);
  noteDraft = $state('');
  noteState = $state<'saved' | 'saving' | 'unsaved' | 'error'>('saved');
  private anchor = 0;
  private generation = 0;
  private pending = new Set<number>();
  private noteTimer: ReturnType<typeof setTimeout> | null = null;
  private detailTimer: ReturnType<typeof setTimeout> | null = null;
  private countsTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly app: AppStore) {}

  readonly active = $derived(this.itemAt(this.cursor));

  private get brandId(): string | null {
    return this.app.brandId;
  }

  itemAt(i: number): ListItem | undefined {
    return this.pages[Math.floor(i / PAGE)]?.[i % PAGE];
  }

  /** Reload everything under the current filter (after a filter change, a sync, a brand switch). */
  async reload(keepCursor = false): Promise<void> {
    const brandId = this.brandId;
    if (!brandId) return;
    const gen = ++this.generation;
    this.pending.clear();
    this.loading = true;
    this.error = null;
    const filter = { ...this.filter, brandId };
    try {
      // The list first (what the eye is on), the chip counts after it: main answers one at a time.
      const first = await call('opportunities:list', { filter, offset: 0, limit: PAGE });
      if (gen !== this.generation) return;
      this.pages = { 0: first.items };
      this.total = first.total;
      this.capped = first.capped;
      // Counts scan every matching row: wait until typing pauses, so they never hold up the next keystroke's list.
      if (this.countsTimer) clearTimeout(this.countsTimer);
      this.countsTimer = setTimeout(() => {
        call('opportunities:counts', filter).then(
          (c) => {
            if (gen === this.generation) this.counts = c;
          },
          () => {
            // The chips keep their last counts; the list itself reports errors.
          },
        );
      }, 250);
      if (!keepCursor) {
        this.cursor = 0;
        this.selected = new Set();
      } else this.cursor = Math.min(this.cursor, Math.max(0, this.total - 1));
      this.scheduleDetail();
    } catch (e) {
      if (gen === this.generation) this.error = errorText(e);
    } finally {
      if (gen === this.generation) this.loading = false;
    }
  }

  /** Make sure rows start..end are loaded (the list calls this as it scrolls). */
  ensure(start: number, end: number): void {
    const brandId = this.brandId;
    if (!brandId) return;
    for (let p = Math.floor(Math.max(0, start) / PAGE); p <= Math.floor(Math.max(0, end) / PAGE); p++) {
      if (this.pages[p] || this.pending.has(p) || p * PAGE >= this.total) continue;
      this.pending.add(p);
      const gen = this.generation;
      void call('opportunities:list', { filter: { ...this.filter, brandId }, offset: p * PAGE, limit: PAGE })
        .then((r) => {
          if (gen !== this.generation) return;
          this.pages = { ...this.pages, [p]: r.items };
          if (Math.floor(this.cursor / PAGE) === p) this.scheduleDetail();
        })
        .catch((e: unknown) => {
          if (gen === this.generation) this.error = errorText(e);
        })
        .finally(() => this.pending.delete(p));
    }
  }

  setFilter(patch: Partial<Filter>): void {
    this.filter = { ...this.filter, ...patch };
    for (const k of Object.keys(this.filter) as (keyof Filter)[]) if (this.filter[k] === undefined || this.filter[k] === '') delete this.filter[k];
    void this.reload();
  }

  clearFilters(): void {
    this.filter = { sort: this.filter.sort ?? 'priority' };
    void this.reload();
  }

  moveTo(i: number): void {
    if (this.total === 0) return;
    void this.flushNote();
    this.cursor = Math.max(0, Math.min(this.total - 1, i));
    this.ensure(this.cursor - 20, this.cursor + 40);
    this.scheduleDetail();
  }

  move(delta: number): void {
    this.moveTo(this.cursor + delta);
  }

  private scheduleDetail(): void {
    if (this.detailTimer) clearTimeout(this.detailTimer);
    this.detailTimer = setTimeout(() => {
      this.loadDetail().catch((e: unknown) => this.app.toast(`The opportunity could not be read: ${errorText(e)}`, 'error'));
    }, 40);
  }

  async loadDetail(): Promise<void> {
    const item = this.itemAt(this.cursor);
    const brandId = this.brandId;
    if (!item || !brandId) {
      this.detail = null;
      return;
    }
    if (this.detail?.item.id === item.id && this.noteState !== 'saved') return;
    const d = await call('opportunities:get', { brandId, id: item.id });
    if (this.itemAt(this.cursor)?.id !== item.id) return;
    this.detail = d;
    this.noteDraft = d?.triage.note ?? '';
    this.noteState = 'saved';
  }

  /** Replace one row in place after a triage change (no reload, the cursor stays). */
  private patchRow(d: OpportunityDetail | null): void {
    if (!d) return;
    const pages = { ...this.pages };
    for (const [k, rows] of Object.entries(pages)) {
      const i = rows.findIndex((r) => r.id === d.item.id);
      if (i >= 0) pages[Number(k)] = rows.map((r, j) => (j === i ? d.item : r));
    }
    this.pages = pages;
    if (this.detail?.item.id === d.item.id) this.detail = { ...d, triage: { ...d.triage, note: this.noteState === 'saved' ? d.triage.note : this.noteDraft } };
  }

  toggleSelect(i: number, range = false): void {
    const item = this.itemAt(i);
    if (!item) return;
    const next = new Set(this.selected);
    if (range) {
      const [a, b] = [Math.min(this.anchor, i), Math.max(this.anchor, i)];
      for (let k = a; k <= b; k++) {
        const it = this.itemAt(k);
        if (it) next.add(it.id);
      }
    } else {
      if (next.has(item.id)) next.delete(item.id);
      else next.add(item.id);
      this.anchor = i;
    }
    this.selected = next;
  }

  clearSelection(): void {
    this.selected = new Set();
  }

  private targets(): string[] {
    if (this.selected.size) return [...this.selected];
    const a = this.itemAt(this.cursor);
    return a ? [a.id] : [];
  }

  async setStatus(status: Status): Promise<void> {
    const brandId = this.brandId;
    const ids = this.targets();
    if (!brandId || ids.length === 0) return;
    try {
      if (ids.length === 1) this.patchRow(await call('triage:set', { brandId, id: ids[0]!, patch: { status } }));
      else {
        const r = await call('triage:bulk', { brandId, ids, patch: { status } });
        this.app.toast(`${r.updated} opportunities set to ${status}.`);
        this.selected = new Set();
        await this.reload(true);
        return;
      }
      this.counts = await call('opportunities:counts', { ...this.filter, brandId });
    } catch (e) {
      this.app.toast(errorText(e), 'error');
    }
  }

  async toggleStar(): Promise<void> {
    const brandId = this.brandId;
    const item = this.itemAt(this.cursor);
    if (!brandId || !item) return;
    this.patchRow(await call('triage:set', { brandId, id: item.id, patch: { starred: !item.starred } }));
  }

  async markContacted(on: boolean): Promise<void> {
    const brandId = this.brandId;
    const item = this.itemAt(this.cursor);
    if (!brandId || !item) return;
    this.patchRow(await call('triage:set', { brandId, id: item.id, patch: { contacted_at: on ? new Date().toISOString().slice(0, 10) : null } }));
  }

  editNote(text: string): void {
    this.noteDraft = text;
    this.noteState = 'unsaved';
    if (this.noteTimer) clearTimeout(this.noteTimer);
    this.noteTimer = setTimeout(() => void this.flushNote(), 500);
  }

  /** Save the note now (autosave, blur, moving away). */
  async flushNote(): Promise<void> {
    if (this.noteTimer) clearTimeout(this.noteTimer);
    this.noteTimer = null;
    const d = this.detail;
    const brandId = this.brandId;
    if (!d || !brandId || this.noteState !== 'unsaved') return;
    const note = this.noteDraft;
    this.noteState = 'saving';
    try {
      const r = await call('triage:set', { brandId, id: d.item.id, patch: { note } });
      if (this.noteDraft === note) this.noteState = 'saved';
      else this.noteState = 'unsaved';
      if (r) this.patchRow({ ...r, triage: { ...r.triage, note } });
    } catch (e) {
      this.noteState = 'error';
      this.app.toast(`The note could not be saved: ${errorText(e)}`, 'error');
    }
  }

  async copyContacts(includeCatchAll = false): Promise<void> {
    const d = this.detail;
    if (!d) return;
    const r = copyGoodAddresses(d.contacts, { includeCatchAll });
    if (r.count) await call('clipboard:write', { text: r.text });
    this.app.toast(r.message);
  }

  async copyText(text: string, what: string): Promise<void> {
    if (!text) {
      this.app.toast(`There is no ${what} to copy.`);
      return;
    }
    await call('clipboard:write', { text });
    this.app.toast(`Copied the ${what}.`);
  }

  async copyPitch(): Promise<void> {
    const d = this.detail;
    if (!d) return;
    await this.copyText(copyPitch(d.record.pitch_subject, d.record.pitch_body), 'pitch');
  }

  async openMail(): Promise<void> {
    const d = this.detail;
    if (!d) return;
    const good = copyGoodAddresses(d.contacts);
    if (!good.count) {
      this.app.toast(good.message);
      return;
    }
    const r = await call('mail:open', { emails: good.text.split(', '), subject: d.record.pitch_subject ?? undefined, body: d.record.pitch_body ?? undefined });
    this.app.toast(r.message, r.opened ? 'info' : 'error');
  }

  async openLink(url: string | null | undefined): Promise<void> {
    if (!url) return;
    const r = await call('links:open', { url });
    if (!r.opened) this.app.toast(r.reason ?? 'That link cannot be opened.', 'error');
  }
}

// Where the user is in the opportunities list: the cursor, the opportunities
// selected (with Shift ranges), and the open detail with its note, saved as
// it is typed (lib/autosave.svelte.ts) to the opportunity it was typed for.
// The rows come from the list's page window through the callbacks given at
// construction; an answer for a detail the cursor has left is dropped.
import type { ListItem, OpportunityDetail } from '../../../shared/model';
import { call } from '../lib/api.svelte';
import { Autosave, type SaveState } from '../lib/autosave.svelte';
import { Latest } from '../lib/latest';
import { PAGE } from './list-window.svelte';

/** Typing in the note pauses this long before it is saved. */
export const NOTE_SAVE_AFTER_MS = 500;

/** A note typed: the text, and the opportunity it was typed for. */
interface NoteEdit {
  brandId: string;
  id: string;
  text: string;
}

export interface SelectionDeps {
  /** The brand on screen. */
  brandId: () => string | null;
  /** The list's row at i (undefined while its page is not loaded). */
  itemAt: (i: number) => ListItem | undefined;
  /** How many rows the list has. */
  total: () => number;
  /** Load the list's rows start..end. */
  ensure: (start: number, end: number) => void;
  /** The core changed these rows (a saved note): the list shows them. */
  rowsChanged: (items: readonly ListItem[]) => void;
  fail: (what: string) => (e: unknown) => void;
}

const byIdOf = (items: readonly ListItem[], id: string) => items.find((it) => it.id === id);

export class Selection {
  #cursor = $state(0);
  #selected = $state.raw<Set<string>>(new Set());
  #anchor = 0;
  #detail = $state.raw<OpportunityDetail | null>(null);
  /** What the open detail is of (the brand on screen may have changed before the next detail is read). */
  #detailOf = $state.raw<{ brandId: string; id: string } | null>(null);
  #noteDraft = $state('');
  #turn = new Latest();
  #timer: ReturnType<typeof setTimeout> | null = null;
  readonly #note: Autosave<NoteEdit>;
  readonly #deps: SelectionDeps;

  constructor(deps: SelectionDeps) {
    this.#deps = deps;
    this.#note = new Autosave<NoteEdit>({
      delayMs: NOTE_SAVE_AFTER_MS,
      save: (edit) => this.#saveNote(edit),
      failed: (e) => deps.fail('The note could not be saved')(e),
    });
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
  get detailOf(): { brandId: string; id: string } | null {
    return this.#detailOf;
  }
  get noteDraft(): string {
    return this.#noteDraft;
  }
  get noteState(): SaveState {
    return this.#note.state;
  }

  /** The row under the cursor. */
  get active(): ListItem | undefined {
    return this.#deps.itemAt(this.#cursor);
  }

  /** Stop the timers and drop answers still on their way; an unsaved note is saved first. */
  dispose(): void {
    void this.flushNote();
    if (this.#timer) clearTimeout(this.#timer);
    this.#turn.cancel();
  }

  /** A list is on screen: the cursor goes to its top (the selection goes), or stays where it can. A note typed is saved first. */
  listed(keepCursor: boolean, total: number): void {
    void this.flushNote();
    if (!keepCursor) {
      this.#cursor = 0;
      this.#selected = new Set();
    } else this.#cursor = Math.min(this.#cursor, Math.max(0, total - 1));
    this.#scheduleDetail();
  }

  /** The list could not be read: nothing of the list before stays open or selected (a note typed is saved first). */
  emptied(): void {
    void this.flushNote();
    if (this.#timer) clearTimeout(this.#timer);
    this.#turn.cancel();
    this.#cursor = 0;
    this.#selected = new Set();
    this.#detail = null;
    this.#detailOf = null;
  }

  /** A further page of the list arrived: the detail under the cursor may be in it. */
  pageArrived(page: number): void {
    if (Math.floor(this.#cursor / PAGE) === page) this.#scheduleDetail();
  }

  moveTo(i: number): void {
    const total = this.#deps.total();
    if (total === 0) return;
    void this.flushNote();
    this.#cursor = Math.max(0, Math.min(total - 1, i));
    this.#deps.ensure(this.#cursor - 20, this.#cursor + 40);
    this.#scheduleDetail();
  }

  move(delta: number): void {
    this.moveTo(this.#cursor + delta);
  }

  #scheduleDetail(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.loadDetail().catch(this.#deps.fail('The opportunity could not be read'));
    }, 40);
  }

  async loadDetail(): Promise<void> {
    const item = this.#deps.itemAt(this.#cursor);
    const brandId = this.#deps.brandId();
    const fresh = this.#turn.begin();
    if (!item || !brandId) {
      this.#detail = null;
      this.#detailOf = null;
      return;
    }
    if (this.#detail?.item.id === item.id && this.#note.state !== 'saved') return;
    const detail = await call('opportunities:get', { brandId, id: item.id });
    if (!fresh() || this.#deps.itemAt(this.#cursor)?.id !== item.id) return;
    // Typed while this same opportunity was read again (a list reload keeping the cursor): the text on screen stays,
    // and its own save goes on; the reply's note is older than it.
    if (detail && this.#detailOf?.id === detail.item.id && this.#detailOf.brandId === brandId && this.#note.state !== 'saved') {
      this.#detail = { ...detail, triage: { ...detail.triage, note: this.#noteDraft } };
      return;
    }
    // Typed for the detail before: saved to its own opportunity before the editor shows this one.
    if (this.#note.waiting) void this.flushNote();
    this.#detail = detail;
    this.#detailOf = detail ? { brandId, id: detail.item.id } : null;
    this.#noteDraft = detail?.triage.note ?? '';
    this.#note.clear();
  }

  /** Changed rows (a triage answer): the open detail shows them, keeping a note being typed. */
  patch(items: readonly ListItem[], detail: OpportunityDetail | null): void {
    const typed = this.#note.state === 'saved' ? null : this.#noteDraft;
    if (detail && this.#detail?.item.id === detail.item.id) this.#detail = { ...detail, triage: { ...detail.triage, note: typed ?? detail.triage.note } };
    else if (this.#detail && byIdOf(items, this.#detail.item.id)) {
      const item = byIdOf(items, this.#detail.item.id)!;
      this.#detail = { ...this.#detail, item: { ...item, note: typed ?? item.note } };
    }
  }

  toggleSelect(i: number, range = false): void {
    const item = this.#deps.itemAt(i);
    if (!item) return;
    const next = new Set(this.#selected);
    if (range) {
      const [a, b] = [Math.min(this.#anchor, i), Math.max(this.#anchor, i)];
      for (let k = a; k <= b; k++) {
        const it = this.#deps.itemAt(k);
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
    const a = this.#deps.itemAt(this.#cursor);
    return a ? [a.id] : [];
  }

  /** Typed in the note: saved once typing pauses, to the opportunity it was typed for. */
  editNote(text: string): void {
    const of = this.#detailOf;
    this.#noteDraft = text;
    if (of) this.#note.edit({ ...of, text });
  }

  /** Save the note now (blur, moving away, the window going). Never rejects. */
  async flushNote(): Promise<void> {
    await this.#note.flush();
  }

  async #saveNote({ brandId, id, text }: NoteEdit): Promise<void> {
    const r = await call('triage:apply', { brandId, ids: [id], action: { do: 'note', text } });
    // Another brand on screen by now: its rows and detail are not this one's.
    if (brandId !== this.#deps.brandId()) return;
    this.#deps.rowsChanged(r.items);
    this.patch(r.items, r.detail ? { ...r.detail, triage: { ...r.detail.triage, note: text } } : null);
  }
}

// One opportunity's history (what the user did to it, newest first) and what
// was done at the same outlet already: "did we pitch this outlet, and when".
// Owned by the detail pane; an answer for an opportunity that is no longer the
// one asked for last is dropped (lib/latest.ts).
import type { HistoryEntry, OutletHistoryEntry } from '../../../shared/user-record';
import { call } from '../lib/api.svelte';
import { errorText } from '../lib/format';
import { Latest } from '../lib/latest';

export class OpportunityHistory {
  #entries = $state.raw<HistoryEntry[]>([]);
  #sameOutlet = $state.raw<OutletHistoryEntry[]>([]);
  /** Which opportunity the lists describe ("brand/id"), null until its first answer. */
  #of = $state<string | null>(null);
  #error = $state<string | null>(null);
  #turn = new Latest();

  get entries(): HistoryEntry[] {
    return this.#entries;
  }
  get sameOutlet(): OutletHistoryEntry[] {
    return this.#sameOutlet;
  }
  get error(): string | null {
    return this.#error;
  }
  /** True once the lists describe this opportunity. */
  isOf(brandId: string, id: string): boolean {
    return this.#of === `${brandId}/${id}`;
  }

  /** Read (or read again) one opportunity's history. Never rejects: a failure is `error`. */
  async load(brandId: string, id: string): Promise<void> {
    const key = `${brandId}/${id}`;
    const fresh = this.#turn.begin();
    // Another opportunity: its lists go at once, so nothing of the last one shows under its title.
    if (this.#of !== key) {
      this.#of = null;
      this.#entries = [];
      this.#sameOutlet = [];
    }
    try {
      const r = await call('history:get', { brandId, id });
      if (!fresh()) return;
      this.#entries = r.entries;
      this.#sameOutlet = r.sameOutlet;
      this.#of = key;
      this.#error = null;
    } catch (e) {
      if (fresh()) this.#error = `The history could not be read: ${errorText(e)}`;
    }
  }

  dispose(): void {
    this.#turn.cancel();
  }
}

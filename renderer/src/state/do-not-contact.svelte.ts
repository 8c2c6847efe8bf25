// The do-not-contact list on the settings screen: addresses and whole domains
// never exported. Owned by the screen that shows it; the latest read wins.
import type { DoNotContactEntry } from '../../../shared/model';
import { call } from '../lib/api.svelte';
import { errorText } from '../lib/format';
import { Latest } from '../lib/latest';

export class DoNotContactList {
  #entries = $state.raw<DoNotContactEntry[]>([]);
  /** Why the last change or read failed, in plain words. */
  #error = $state<string | null>(null);
  #reads = new Latest();

  get entries(): DoNotContactEntry[] {
    return this.#entries;
  }
  get error(): string | null {
    return this.#error;
  }

  /** Read the list. Never rejects. */
  async load(): Promise<void> {
    const fresh = this.#reads.begin();
    try {
      const entries = await call('dnc:list');
      if (fresh()) this.#entries = entries;
    } catch (e) {
      if (fresh()) this.#error = errorText(e);
    }
  }

  /** Add an address or a domain; true when it was added. Never rejects. */
  async add(value: string): Promise<boolean> {
    return this.#change(() => call('dnc:add', { value }));
  }

  /** Never rejects. */
  async remove(value: string): Promise<boolean> {
    return this.#change(() => call('dnc:remove', { value }));
  }

  async #change(change: () => Promise<unknown>): Promise<boolean> {
    this.#error = null;
    try {
      await change();
    } catch (e) {
      this.#error = errorText(e);
      return false;
    }
    await this.load();
    return true;
  }

  dispose(): void {
    this.#reads.cancel();
  }
}

// Outreach from the open opportunity: copy its addresses, pitch or any text,
// open its link (through main). The draft, filled, and sending it through the
// user's own mail: pitch.svelte.ts. Each action
// says what it did in a toast, and a failure says why, never an unhandled
// rejection.
import { copyGoodAddresses, copyPitch } from '../../../shared/outreach';
import { call } from '../lib/api.svelte';
import type { ListItem, OpportunityDetail } from '../../../shared/model';
import type { Frame } from './frame';

/** What outreach needs of the selection, given at construction. */
export interface OutreachDeps {
  frame: Frame;
  /** The open detail (its addresses). */
  detail: () => OpportunityDetail | null;
  /** The row under the cursor (its detail may still be on its way). */
  active: () => ListItem | undefined;
}

export class OutreachActions {
  readonly #app: Frame;
  readonly #deps: OutreachDeps;

  constructor(deps: OutreachDeps) {
    this.#deps = deps;
    this.#app = deps.frame;
  }

  async #act(what: string, action: () => Promise<void>): Promise<void> {
    try {
      await action();
    } catch (e) {
      this.#app.fail(what)(e);
    }
  }

  copyContacts(includeCatchAll = false): Promise<void> {
    return this.#act('The addresses could not be copied', async () => {
      const d = this.#deps.detail();
      if (!d) return;
      const r = copyGoodAddresses(d.contacts, { includeCatchAll });
      if (r.count) await call('clipboard:write', { text: r.text });
      this.#app.toast(r.message);
    });
  }

  copyText(text: string, what: string): Promise<void> {
    return this.#act(`The ${what} could not be copied`, async () => {
      if (!text) {
        this.#app.toast(`There is no ${what} to copy.`);
        return;
      }
      await call('clipboard:write', { text });
      this.#app.toast(`Copied the ${what}.`);
    });
  }

  /**
   * The pitch as it would go out (the draft if there is one, else the
   * service's, filled by the core for the address it pre-selects), for a key
   * pressed before the editor has read it; the editor copies what it shows.
   */
  copyPitch(): Promise<void> {
    return this.#act('The pitch could not be copied', async () => {
      // The row the cursor is on: its detail may still be on its way.
      const id = this.#deps.active()?.id;
      const brandId = this.#app.brandId;
      if (!id || !brandId) return;
      const v = await call('drafts:get', { brandId, id, kind: 'pitch' });
      await this.copyText(copyPitch(v.filled.subject, v.filled.body), 'pitch');
    });
  }

  openLink(url: string | null | undefined): Promise<void> {
    return this.#act('The link could not be opened', async () => {
      if (!url) return;
      const r = await call('links:open', { url });
      if (!r.opened) this.#app.toast(r.reason ?? 'That link cannot be opened.', 'error');
    });
  }
}

// Outreach from the open opportunity: copy its addresses, pitch or any text,
// open its link (through main). The draft, filled, and sending it through the
// user's own mail: pitch.svelte.ts. Each action
// says what it did in a toast, and a failure says why, never an unhandled
// rejection.
import { copyGoodAddresses, copyPitch } from '../../../shared/outreach';
import { call } from '../lib/api.svelte';
import type { AppStore } from './app.svelte';
import type { OpportunitiesStore } from './opportunities.svelte';

export class OutreachActions {
  readonly #app: AppStore;
  readonly #opps: OpportunitiesStore;

  constructor(app: AppStore, opps: OpportunitiesStore) {
    this.#app = app;
    this.#opps = opps;
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
      const d = this.#opps.detail;
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

  /** The service's pitch as it is (before the draft is read; the editor copies the filled draft). */
  async copyPitch(): Promise<void> {
    const d = this.#opps.detail;
    if (d) await this.copyText(copyPitch(d.record.pitch_subject, d.record.pitch_body), 'pitch');
  }

  openLink(url: string | null | undefined): Promise<void> {
    return this.#act('The link could not be opened', async () => {
      if (!url) return;
      const r = await call('links:open', { url });
      if (!r.opened) this.#app.toast(r.reason ?? 'That link cannot be opened.', 'error');
    });
  }
}

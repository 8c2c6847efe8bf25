// Outreach from the open opportunity: copy its addresses, pitch or any text,
// open the pitch in the mail app, open its link (through main). Each action
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

  async copyPitch(): Promise<void> {
    const d = this.#opps.detail;
    if (d) await this.copyText(copyPitch(d.record.pitch_subject, d.record.pitch_body), 'pitch');
  }

  openMail(): Promise<void> {
    return this.#act('The mail app could not be opened', async () => {
      const d = this.#opps.detail;
      if (!d) return;
      const good = copyGoodAddresses(d.contacts);
      if (!good.count) {
        this.#app.toast(good.message);
        return;
      }
      const r = await call('mail:open', { emails: good.text.split(', '), subject: d.record.pitch_subject ?? undefined, body: d.record.pitch_body ?? undefined });
      this.#app.toast(r.message, r.opened ? 'info' : 'error');
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

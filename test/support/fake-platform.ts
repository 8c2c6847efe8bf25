// A Platform that records what the app asked for instead of doing it.
import type { EventName, EventPayloads } from '../../shared/contract';
import type { HostHandlers } from '../../shared/core-link';
import type { Platform } from '../../electron/core/app/platform';
import type { Keychain } from '../../electron/core/app/keys';
import type { KeychainState } from '../../electron/core/secrets';

export class FakePlatform implements Platform {
  clipboard = '';
  opened: string[] = [];
  shown: string[] = [];
  saveAs: string | null = null;
  openFrom: string | null = null;
  events: { event: EventName; payload: unknown }[] = [];
  writeClipboard(text: string): void {
    this.clipboard = text;
  }
  async openExternal(url: string): Promise<void> {
    this.opened.push(url);
  }
  async chooseSaveFile(): Promise<string | null> {
    return this.saveAs;
  }
  async chooseOpenFile(): Promise<string | null> {
    return this.openFrom;
  }
  /** What printToPdf answers (a test sets real PDF bytes, or leaves it to refuse). */
  pdf: Uint8Array | null = null;
  showItemInFolder(path: string): void {
    this.shown.push(path);
  }
  async printToPdf(): Promise<Uint8Array> {
    if (!this.pdf) throw new Error('no window to print');
    return this.pdf;
  }
  emit<E extends EventName>(event: E, payload: EventPayloads[E]): void {
    this.events.push({ event, payload });
  }
  waitFor<E extends EventName>(event: E, timeoutMs = 20_000): Promise<EventPayloads[E]> {
    const start = this.events.length;
    return new Promise((resolve, reject) => {
      const t0 = Date.now();
      const tick = () => {
        const hit = this.events.slice(start).find((e) => e.event === event);
        if (hit) resolve(hit.payload as EventPayloads[E]);
        else if (Date.now() - t0 > timeoutMs) reject(new Error(`no ${event} event`));
        else setTimeout(tick, 10);
      };
      tick();
    });
  }
}

/** A keychain in memory whose availability can be set. */
export class FakeKeychain implements Keychain {
  value: string | null = null;
  constructor(public st: KeychainState = 'available') {}
  async state(): Promise<KeychainState> {
    return this.st;
  }
  async get(): Promise<string | null> {
    return this.st === 'available' ? this.value : null;
  }
  async set(key: string): Promise<void> {
    if (this.st !== 'available') throw new Error('locked');
    this.value = key;
  }
  async clear(): Promise<void> {
    this.value = null;
  }
}

/** Main's side effects answered with nothing (no clipboard, no dialogs): for a core process whose test asks none of them. */
export const quietHost: HostHandlers = {
  'clipboard:write': () => null,
  'shell:open-external': () => null,
  'shell:show-item-in-folder': () => null,
  'dialog:save-file': () => null,
  'dialog:open-file': () => null,
  'window:print-pdf': () => new Uint8Array(),
};

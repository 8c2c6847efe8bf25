// The core process's side of the protocol in shared/core-link.ts: it opens the
// cache, answers contract calls with the same handlers the tests use, pushes
// events, asks main for the side effects only main may perform, and closes the
// cache cleanly on shutdown. Plain Node: the Electron entry and the test host's
// child both run it, each with its own transport.
import type { EventName, EventPayloads } from '../../../shared/contract';
import type { CoreFailure, CoreInit, Endpoint, FromCore, HostOp, HostOps, ToCore } from '../../../shared/core-link';
import { redactKeys } from '../../../shared/rules';
import type { Transport } from '../seams';
import { CacheError } from '../store/db';
import { withCacheCare } from './cache-calls';
import { createHandlers, dispatch } from './handlers';
import type { Keychain } from './keys';
import type { Platform } from './platform';
import { AppService } from './service';

export interface CoreDeps {
  keychain: Keychain;
  /** Electron's net.fetch in the app (system proxy, OS certificates); Node's fetch elsewhere. */
  fetch?: Transport;
  /** Ends the process once the cache is closed. */
  exit(code: number): void;
  log?(level: 'warn' | 'error', message: string): void;
}

/** How long a shutdown waits for a running sync or export to stop before closing anyway. */
export const SHUTDOWN_SETTLE_MS = 2_000;

function failureOf(e: unknown): CoreFailure {
  if (e instanceof CacheError) return { kind: e.kind, message: e.message, path: e.path };
  return { kind: 'internal', message: redactKeys(`The cache could not be opened: ${e instanceof Error ? e.message : String(e)}`) };
}

/** A Platform whose side effects are requests to main. */
class RemotePlatform implements Platform {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();

  constructor(private readonly link: Endpoint<ToCore, FromCore>) {}

  request<K extends HostOp>(op: K, args: HostOps[K]['args']): Promise<HostOps[K]['result']> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.link.post({ type: 'host', id, op, args });
    });
  }

  answer(m: Extract<ToCore, { type: 'host-reply' }>): void {
    const w = this.waiting.get(m.id);
    this.waiting.delete(m.id);
    if (!w) return;
    if (m.ok) w.resolve(m.value);
    else w.reject(new Error(m.message));
  }

  writeClipboard(text: string): void {
    void this.request('clipboard:write', { text }).catch(() => {});
  }
  async openExternal(url: string): Promise<void> {
    await this.request('shell:open-external', { url });
  }
  chooseSaveFile(suggestedName: string): Promise<string | null> {
    return this.request('dialog:save-file', { suggestedName });
  }
  chooseOpenFile(o: { title: string; filters: { name: string; extensions: string[] }[] }): Promise<string | null> {
    return this.request('dialog:open-file', o);
  }
  showItemInFolder(path: string): void {
    void this.request('shell:show-item-in-folder', { path }).catch(() => {});
  }
  async printToPdf(): Promise<Uint8Array> {
    return this.request('window:print-pdf', {});
  }
  emit<E extends EventName>(event: E, payload: EventPayloads[E]): void {
    this.link.post({ type: 'event', event, payload });
  }
}

/** Serve the core over `link` until shutdown. Resolves once the cache is open (or failed). */
export async function serveCore(link: Endpoint<ToCore, FromCore>, init: CoreInit, deps: CoreDeps): Promise<void> {
  const platform = new RemotePlatform(link);
  let service: AppService | null = null;
  let closing = false;
  const early: ToCore[] = [];

  let failed = false;
  const handle = async (m: ToCore): Promise<void> => {
    if (m.type === 'host-reply') return platform.answer(m);
    if (failed) {
      // The cache did not open: answer plainly, and let main end this process.
      if (m.type === 'call') link.post({ type: 'reply', id: m.id, result: { ok: false, error: { kind: 'core-stopped', message: 'The cache is not open.' } } });
      if (m.type === 'shutdown') {
        link.post({ type: 'closed' });
        deps.exit(0);
      }
      return;
    }
    if (!service) return void early.push(m);
    if (m.type === 'call') {
      const result = closing
        ? { ok: false as const, error: { kind: 'core-stopped' as const, message: 'The app is closing.' } }
        : await dispatch(handlers!, m.method, m.args, (e) =>
            deps.log?.('error', redactKeys(`${m.method}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`)),
          );
      link.post({ type: 'reply', id: m.id, result });
    } else if (m.type === 'launch') {
      void service.launch();
    } else if (m.type === 'shutdown' && !closing) {
      closing = true;
      await service.close({ settleMs: SHUTDOWN_SETTLE_MS }).catch((e: unknown) => deps.log?.('error', `closing the cache: ${String(e)}`));
      link.post({ type: 'closed' });
      deps.exit(0);
    }
  };
  let handlers: ReturnType<typeof createHandlers> | null = null;
  link.onMessage((m) => void handle(m));

  try {
    // Start over: the old file is kept aside and what can be read of the user's record comes over (AppService.create).
    const { today, ...rest } = init;
    service = await AppService.create({
      ...rest,
      ...(today ? { today: () => today } : {}),
      platform,
      keychain: deps.keychain,
      fetch: deps.fetch,
      log: deps.log,
      // Main waits while these come: a long migration is not a core that hangs.
      onOpenProgress: (progress) => link.post({ type: 'progress', progress }),
    });
    if (init.baseUrl) service.setSettings({ baseUrl: init.baseUrl, requestsPerMinute: 10_000 });
  } catch (e) {
    failed = true;
    link.post({ type: 'failed', failure: failureOf(e) });
    for (const m of early.splice(0)) void handle(m);
    return;
  }
  // Calls that write wait for another program's lock without blocking the core; the cache's failures are named (cache-calls.ts).
  const open = service;
  handlers = withCacheCare(createHandlers(service), () => open.cache);
  link.post({ type: 'ready' });
  for (const m of early.splice(0)) void handle(m);
}

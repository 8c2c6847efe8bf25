// The message protocol between main (or the UI test host) and the core
// process, and the main side of it: calls with ids, replies, events, host
// requests the core makes of main, shutdown. Plain data only, so it crosses an
// Electron MessagePort or a Node IPC channel by structured clone alike.
import type { ContractError, EventName, MethodName, Result } from './contract';
import type { ErrorKind } from './errors';

/** What main does for the core: the side effects only main may perform. */
export interface HostOps {
  'clipboard:write': { args: { text: string }; result: null };
  'shell:open-external': { args: { url: string }; result: null };
  'shell:show-item-in-folder': { args: { path: string }; result: null };
  'dialog:save-file': { args: { suggestedName: string }; result: string | null };
  'dialog:open-file': { args: { title: string; filters: { name: string; extensions: string[] }[] }; result: string | null };
  /** The window as a PDF, printed with its print styles (the Results' one-page report). */
  'window:print-pdf': { args: Record<string, never>; result: Uint8Array };
}
export type HostOp = keyof HostOps;

/** Sent once when the core process starts; with it, the port (Electron) or the IPC channel (test host). */
export interface CoreInit {
  userDataDir: string;
  appName: string;
  appVersion: string;
  platformName: string;
  demo: boolean;
  /** Demo simulator size (tests keep it small). */
  demoOpportunities?: number;
  /** API base URL to put in settings before anything runs (tests point it at their simulator). */
  baseUrl?: string;
  /** The user chose to start over after the cache could not open: move the old file aside (kept) first. */
  startOver?: boolean;
  /** Today's date for the pipeline (YYYY-MM-DD): tests move the clock with it; the app never sets it. */
  today?: string;
}

/**
 * Why the core could not open the cache: the cache's failures, or `installation-damaged`: the
 * app's own files are at fault (a native module that cannot load: built for another runtime,
 * truncated, missing), not the cache, which was never touched: reinstall, and never move or reset
 * the cache for it; or a bug.
 */
export type CoreFailureKind = Extract<
  ErrorKind,
  | 'cache-damaged'
  | 'cache-newer'
  | 'cache-locked'
  | 'disk-full'
  | 'read-only'
  | 'permission'
  | 'io-error'
  | 'not-app-cache'
  | 'installation-damaged'
  | 'internal'
>;
export interface CoreFailure {
  kind: CoreFailureKind;
  message: string;
  path?: string;
}

/**
 * A long step of opening the cache, said as it starts (checking after a crash, the backup before an
 * upgrade, each migration, the compaction). Main waits for the core's 'ready' while these come: a
 * migration of a large cache takes minutes, and no fixed limit fits it.
 */
export interface StartProgress {
  step: 'checking' | 'backing-up' | 'migrating' | 'compacting';
  message: string;
}

export type ToCore =
  | { type: 'call'; id: number; method: string; args: unknown }
  | { type: 'host-reply'; id: number; ok: true; value: unknown }
  | { type: 'host-reply'; id: number; ok: false; message: string }
  | { type: 'launch' }
  | { type: 'shutdown' };

export type FromCore =
  | { type: 'ready' }
  | { type: 'failed'; failure: CoreFailure }
  | { type: 'progress'; progress: StartProgress }
  | { type: 'reply'; id: number; result: Result<unknown> }
  | { type: 'event'; event: EventName; payload: unknown }
  | { type: 'host'; id: number; op: HostOp; args: unknown }
  | { type: 'closed' };

/** One end of a message channel, whatever carries it. */
export interface Endpoint<In, Out> {
  post(message: Out): void;
  onMessage(listener: (message: In) => void): void;
}

/** The main side's view of a running core process. */
export interface CoreProcessHandle extends Endpoint<FromCore, ToCore> {
  onExit(listener: (code: number | null) => void): void;
  kill(): void;
}

export type HostHandlers = { [K in HostOp]: (args: HostOps[K]['args']) => Promise<HostOps[K]['result']> | HostOps[K]['result'] };

export interface CoreLinkOptions {
  host: HostHandlers;
  onEvent(event: EventName, payload: unknown): void;
}

const stopped = (message: string): ContractError => ({ kind: 'core-stopped', message });

/**
 * The main side of one core process: calls get ids and resolve with the core's
 * Result; host requests run the handlers; when the process exits, every pending
 * call resolves with a plain-words error at once, so nothing hangs.
 */
export class CoreLink {
  private nextId = 1;
  private readonly pending = new Map<number, (r: Result<unknown>) => void>();
  private exited: string | null = null;
  private readonly started: Promise<CoreFailure | null>;
  private closedWaiter: (() => void) | null = null;
  private readonly progressListeners: ((p: StartProgress) => void)[] = [];

  constructor(
    private readonly proc: CoreProcessHandle,
    private readonly opts: CoreLinkOptions,
  ) {
    let settle!: (f: CoreFailure | null) => void;
    this.started = new Promise((r) => (settle = r));
    proc.onMessage((m) => {
      switch (m.type) {
        case 'ready':
          return settle(null);
        case 'failed':
          return settle(m.failure);
        case 'progress':
          for (const l of this.progressListeners) l(m.progress);
          return;
        case 'reply': {
          const done = this.pending.get(m.id);
          this.pending.delete(m.id);
          return done?.(m.result);
        }
        case 'event':
          return opts.onEvent(m.event, m.payload);
        case 'host':
          return void this.runHost(m.id, m.op, m.args);
        case 'closed':
          return this.closedWaiter?.();
      }
    });
    proc.onExit((code) => {
      this.exited = `The workbench's engine stopped (exit code ${code ?? 'none'}).`;
      settle({ kind: 'internal', message: this.exited });
      for (const done of this.pending.values()) done({ ok: false, error: stopped(`${this.exited} The request did not finish; try again.`) });
      this.pending.clear();
      this.closedWaiter?.();
    });
  }

  /** Resolves when the core has opened its cache (null) or could not (the failure). */
  ready(): Promise<CoreFailure | null> {
    return this.started;
  }

  get alive(): boolean {
    return this.exited === null;
  }

  /** Hear each long step of opening the cache as the core starts it. */
  onStartProgress(listener: (p: StartProgress) => void): void {
    this.progressListeners.push(listener);
  }

  call(method: MethodName | string, args: unknown): Promise<Result<unknown>> {
    if (this.exited) return Promise.resolve({ ok: false, error: stopped(this.exited) });
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      try {
        this.proc.post({ type: 'call', id, method, args });
      } catch (e) {
        this.pending.delete(id);
        const message = e instanceof Error ? e.message : String(e);
        // A value that cannot be cloned is the caller's; anything else (a channel closed as the process died, before its exit is heard) is the core's.
        const unclonable = (e instanceof Error && e.name === 'DataCloneError') || /could not be cloned/i.test(message);
        resolve({
          ok: false,
          error: unclonable
            ? { kind: 'invalid-input', message: `The request could not be sent: ${message}` }
            : stopped(`The workbench's engine could not be reached (${message}). The request did not finish; try again.`),
        });
      }
    });
  }

  /** The window is up: the core may start a sync on launch. */
  launch(): void {
    if (!this.exited) this.proc.post({ type: 'launch' });
  }

  /** Ask the core to finish or roll back its current write and close the cache; kill it after `timeoutMs`. */
  async shutdown(timeoutMs: number): Promise<'closed' | 'killed'> {
    if (this.exited) return 'closed';
    const closed = new Promise<'closed'>((r) => (this.closedWaiter = () => r('closed')));
    this.proc.post({ type: 'shutdown' });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'killed'>((r) => (timer = setTimeout(() => r('killed'), timeoutMs)));
    const how = await Promise.race([closed, late]);
    clearTimeout(timer);
    if (how === 'killed') this.proc.kill();
    return how;
  }

  private async runHost(id: number, op: HostOp, args: unknown): Promise<void> {
    try {
      const fn = this.opts.host[op] as (a: unknown) => unknown;
      const value = await fn(args);
      if (!this.exited) this.proc.post({ type: 'host-reply', id, ok: true, value: value ?? null });
    } catch (e) {
      if (!this.exited) this.proc.post({ type: 'host-reply', id, ok: false, message: e instanceof Error ? e.message : String(e) });
    }
  }
}

export interface SupervisorOptions extends CoreLinkOptions {
  spawn(): CoreProcessHandle;
  /** The core died and was started again (once), or died again and stays down. */
  onCrash(state: 'restarted' | 'failed', message: string): void;
}

/**
 * Keeps one core process running: if it dies unexpectedly it is started again
 * once; calls made while it is down answer at once with a plain-words error.
 */
export class CoreSupervisor {
  private link: CoreLink;
  private restarts = 0;
  private stopping = false;

  constructor(private readonly opts: SupervisorOptions) {
    this.link = this.start();
  }

  private start(): CoreLink {
    const proc = this.opts.spawn();
    const link = new CoreLink(proc, this.opts);
    proc.onExit(() => {
      if (this.stopping || link !== this.link) return;
      if (this.restarts >= 1) {
        this.opts.onCrash('failed', "The workbench's engine stopped again and was not restarted. Your data is safe in the cache; quit and reopen the app.");
        return;
      }
      this.restarts++;
      this.link = this.start();
      this.link.launch();
      this.opts.onCrash(
        'restarted',
        "The workbench's engine stopped unexpectedly and was restarted. Anything that was running (a sync or an export) was stopped; start it again.",
      );
    });
    return link;
  }

  get current(): CoreLink {
    return this.link;
  }

  ready(): Promise<CoreFailure | null> {
    return this.link.ready();
  }

  /** Hear each long step of opening the cache in the process now running. */
  onStartProgress(listener: (p: StartProgress) => void): void {
    this.link.onStartProgress(listener);
  }

  call(method: string, args: unknown): Promise<Result<unknown>> {
    return this.link.call(method, args);
  }

  launch(): void {
    this.link.launch();
  }

  shutdown(timeoutMs: number): Promise<'closed' | 'killed'> {
    this.stopping = true;
    return this.link.shutdown(timeoutMs);
  }
}

// The renderer's state classes against the real contract handlers and core in
// this process: a window.workbench that is a thin in-process bridge (structured
// clone both ways, as Electron's IPC does), which can hold a call back or
// answer it with an error, to test stale and failed answers. Each test opens
// its own window on its own folder: a copy of a cache synced once per file
// (syncedCache), or an empty one; close() lets go of all of it.
import { afterAll, afterEach, beforeAll } from 'vitest';
import { cpSync } from 'node:fs';
import { AppStore } from '../../../../renderer/src/state/app.svelte';
import { createHandlers, dispatch } from '../../../../electron/core/app/handlers';
import { DEMO_KEY, startSimulator, type Simulator } from '../../../../electron/simulator/server';
import { openApp, type TestApp } from '../../../support/app';
import { FakeKeychain } from '../../../support/fake-platform';
import { tempDir } from '../../../support/tmp';

/** What the bridge does instead of (or before) passing the next matching call to the core. */
interface Intercept {
  method: string;
  when: (args: any[]) => boolean;
  answer: () => Promise<void> | { ok: false; error: { kind: string; message: string } };
  /** The core's own answer, changed on its way back (what a far larger cache would answer). */
  rewrite?: (value: any) => any;
}

export interface TestWindow extends TestApp {
  /** Every call's method, in order. */
  called: string[];
  /** Calls on their way through the bridge. */
  inflight(): number;
  /** Subscriptions to main's events held now. */
  listenerCount(): number;
  /** Main's event, as the window receives it. */
  listeners(event: string): ((p: unknown) => void)[];
  /** The next call of `method` (matching `when`) waits at the bridge until release(); `rewrite` then changes the core's answer on its way back. */
  hold(method: string, when?: (args: any[]) => boolean, rewrite?: (value: any) => any): { reached: Promise<void>; release: () => void };
  /** The next call of `method` is answered with an error, as main answers a failed call. */
  failNext(method: string, message: string): void;
  /** Intercepts not used yet, for a method. */
  waiting(method: string): number;
  /** The core's own answer, straight from the handlers (what the stores should end up showing). */
  direct(method: string, ...args: unknown[]): Promise<any>;
}

/** Wait until `fn` holds (a bounded wait for something the stores do on their own, never a timed assertion). */
export async function until(fn: () => boolean, ms = 20_000): Promise<void> {
  const t0 = Date.now();
  while (!fn()) {
    if (Date.now() - t0 > ms) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

export interface SyncedCache {
  sim: Simulator;
  dir: string;
  close(): Promise<void>;
}

/** The simulator the file's tests read from (never changed by them), and a folder holding a cache synced from it with the demo key. */
export async function syncedCache(): Promise<SyncedCache> {
  const sim = await startSimulator({ seed: 8, opportunities: 700, otherBrandOpportunities: 10, citationsPerBrand: 20 });
  const dir = tempDir();
  const a = await openApp({ key: DEMO_KEY, dir: { dir: dir.dir, cleanup: () => {} } });
  a.s.setSettings({ baseUrl: sim.url, requestsPerMinute: 10_000 });
  a.s.parts.sync.start({});
  await a.s.settle();
  await a.s.close();
  return {
    sim,
    dir: dir.dir,
    close: async () => {
      await sim.close();
      dir.cleanup();
    },
  };
}

/**
 * A window on a copy of `from` (a synced cache's folder, with the demo key),
 * or on an empty folder with no key (`from` null) whose settings point at `sim`.
 */
export async function openWindow(from: string | null, sim: Simulator): Promise<TestWindow> {
  const dir = tempDir();
  if (from) cpSync(from, dir.dir, { recursive: true });
  const keychain = Object.assign(new FakeKeychain(), { value: from ? DEMO_KEY : null });
  const app = await openApp({ keychain, dir });
  if (!from) app.s.setSettings({ baseUrl: sim.url, requestsPerMinute: 10_000 });
  const handlers = createHandlers(app.s, app.platform);
  const listeners = new Map<string, Set<(p: unknown) => void>>();
  const intercepts: Intercept[] = [];
  const called: string[] = [];
  let inflight = 0;
  const emit = app.platform.emit.bind(app.platform);
  app.platform.emit = (event, payload) => {
    emit(event, payload);
    for (const l of listeners.get(event) ?? []) l(structuredClone(payload));
  };
  const api = new Proxy(
    {},
    {
      get: (_t, name: string) =>
        name === 'on'
          ? (event: string, l: (p: unknown) => void) => {
              if (!listeners.has(event)) listeners.set(event, new Set());
              listeners.get(event)!.add(l);
              return () => listeners.get(event)!.delete(l);
            }
          : async (...args: unknown[]) => {
              // Structured clone both ways, as Electron's IPC does: a reactive proxy or a function in an
              // argument throws here (DataCloneError) exactly where it would fail in the app.
              const sent = structuredClone(args);
              called.push(name);
              inflight++;
              try {
                const i = intercepts.findIndex((x) => x.method === name && x.when(sent));
                if (i >= 0) {
                  const x = intercepts.splice(i, 1)[0]!;
                  const answer = x.answer();
                  if (!(answer instanceof Promise)) return structuredClone(answer);
                  await answer;
                  if (x.rewrite) {
                    const r = await dispatch(handlers, name, sent);
                    return structuredClone(r.ok ? { ok: true, value: x.rewrite(r.value) } : r);
                  }
                }
                return structuredClone(await dispatch(handlers, name, sent));
              } finally {
                inflight--;
              }
            },
    },
  );
  (globalThis as { window?: unknown }).window = { workbench: api };
  return {
    ...app,
    called,
    inflight: () => inflight,
    listenerCount: () => [...listeners.values()].reduce((n, s) => n + s.size, 0),
    listeners: (event) => [...(listeners.get(event) ?? [])],
    hold(method, when = () => true, rewrite) {
      let release!: () => void;
      let arrived!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const reached = new Promise<void>((r) => (arrived = r));
      intercepts.push({ method, when, answer: () => (arrived(), gate), ...(rewrite ? { rewrite } : {}) });
      return { reached, release };
    },
    failNext(method, message) {
      intercepts.push({ method, when: () => true, answer: () => ({ ok: false, error: { kind: 'unavailable', message } }) });
    },
    waiting: (method) => intercepts.filter((x) => x.method === method).length,
    async direct(method, ...args) {
      const r = await dispatch(handlers, method, args);
      if (!r.ok) throw new Error(r.error.message);
      return r.value;
    },
    close: async () => {
      // The calls already on their way finish first (the stores were disposed: their answers are dropped).
      await until(() => inflight === 0);
      delete (globalThis as { window?: unknown }).window;
      await app.close();
    },
  };
}

/**
 * A test file's set-up: its synced cache (made once, before its first test;
 * each test opens a window on a copy), and what each test opened, let go of
 * after it, newest first (stores before their window), whether it passed or not.
 */
export function perFile(): {
  readonly cache: SyncedCache;
  cleanup(done: () => unknown): void;
  /** A window on a copy of the synced cache (`empty`: on an empty folder with no key), closed after the test. */
  window(empty?: boolean): Promise<TestWindow>;
  /** The window's frame (not loaded), disposed after the test. */
  frame(): AppStore;
} {
  let cache: SyncedCache | null = null;
  const cleanups: (() => unknown)[] = [];
  beforeAll(async () => {
    cache = await syncedCache();
  });
  afterAll(() => cache?.close());
  afterEach(async () => {
    for (const done of cleanups.splice(0).reverse()) await done();
  });
  return {
    get cache() {
      if (!cache) throw new Error('the synced cache is made before the first test');
      return cache;
    },
    cleanup: (done) => void cleanups.push(done),
    async window(empty = false) {
      const win = await openWindow(empty ? null : this.cache.dir, this.cache.sim);
      cleanups.push(() => win.close());
      return win;
    },
    frame() {
      const app = new AppStore();
      cleanups.push(() => app.dispose());
      return app;
    },
  };
}

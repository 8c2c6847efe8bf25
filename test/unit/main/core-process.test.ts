// Main's side and the core's side of the core process, joined through fakes
// shaped like Electron's API (test/support/fake-electron.ts), with the real
// app service and a real SQLite file behind them: the port is started, events
// are read from `.data`, init arrives with the port, a dead core never leaves
// a call hanging, and it is restarted once. The core's requests to the API go
// through Electron's net.fetch (coreDeps), never Node's global fetch.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fileURLToPath } from 'node:url';
import { CoreLink, CoreSupervisor, type CoreInit, type HostHandlers } from '../../../shared/core-link';
import { forkCore } from '../../../electron/main/core-process';
import { runCore } from '../../../electron/core-process/run';
import { coreDeps, electronFetch } from '../../../electron/core-process/deps';
import { DEMO_KEY, startSimulator } from '../../../electron/simulator/server';
import { FakeKeychain } from '../../support/fake-platform';
import { FakeMessageChannelMain, fakeUtilityProcess, type FakeMessagePortMain, type FakeUtilityProcess } from '../../support/fake-electron';
import { tempDir } from '../../support/tmp';

const corePath = fileURLToPath(new URL('../../../electron/core-process/index.ts', import.meta.url));
const host: HostHandlers = {
  'clipboard:write': () => null,
  'shell:open-external': () => null,
  'shell:show-item-in-folder': () => null,
  'dialog:save-file': () => null,
  'dialog:open-file': () => null,
  'window:print-pdf': () => new Uint8Array(),
};
const dirs: { cleanup(): void }[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.cleanup();
});

function init(): CoreInit {
  const t = tempDir();
  dirs.push(t);
  return { userDataDir: t.dir, appName: 'Outreach Workbench', appVersion: '0.1.0', platformName: 'linux', demo: false };
}

/** A fake utility process whose "child" runs the real runCore() in this process. */
function electronLike() {
  const exits: number[] = [];
  const up = fakeUtilityProcess((child: FakeUtilityProcess) => {
    void runCore(child.parentPort as never, { keychain: new FakeKeychain(), exit: (code) => (exits.push(code), child.crash(code)) });
  });
  return { api: { utilityProcess: up, MessageChannelMain: FakeMessageChannelMain }, up, exits };
}

describe('the core process through Electron-shaped fakes', () => {
  it('forks a file path, sends init with one port, and answers calls over it', async () => {
    const { api, up } = electronLike();
    const proc = forkCore(api as never, corePath, init(), { PATH: '/bin' });
    const link = new CoreLink(proc, { host, onEvent: () => {} });
    expect(await link.ready()).toBeNull();
    expect(up.calls).toHaveLength(1);
    expect(up.calls[0]!.modulePath).toBe(corePath);
    expect(up.calls[0]!.options).toMatchObject({ env: { PATH: '/bin' } });
    const r = await link.call('app:info', []);
    expect(r).toMatchObject({ ok: true, value: { name: 'Outreach Workbench', demo: false } });
    expect(await link.shutdown(3_000)).toBe('closed');
  });

  it("asks Electron to route the core's logins (a proxy's 407) to main's app 'login' event", async () => {
    const { api, up } = electronLike();
    const proc = forkCore(api as never, corePath, init(), {});
    const link = new CoreLink(proc, { host, onEvent: () => {} });
    await link.ready();
    expect(up.calls[0]!.options).toMatchObject({ respondToAuthRequestsFromMainProcess: true, serviceName: 'Outreach Workbench core' });
    await link.shutdown(3_000);
  });

  it('the core starts its port: without start() nothing would arrive', async () => {
    let childPort: FakeMessagePortMain | undefined;
    const up = fakeUtilityProcess((child) => {
      child.parentPort.once('message', (e: { ports: FakeMessagePortMain[] }) => (childPort = e.ports[0]));
      void runCore(child.parentPort as never, { keychain: new FakeKeychain(), exit: () => {} });
    });
    const link = new CoreLink(forkCore({ utilityProcess: up, MessageChannelMain: FakeMessageChannelMain } as never, corePath, init(), {}), {
      host,
      onEvent: () => {},
    });
    expect(await link.ready()).toBeNull();
    expect(childPort?.isStarted).toBe(true);
    await link.shutdown(3_000);
  });

  it('a value that cannot be structured-cloned is refused with a plain error, not sent', async () => {
    const { api } = electronLike();
    const link = new CoreLink(forkCore(api as never, corePath, init(), {}), { host, onEvent: () => {} });
    await link.ready();
    const r = await link.call('opportunities:get', [{ brandId: 'x', id: 'y', fn: () => 1 }]);
    expect(r).toMatchObject({ ok: false, error: { kind: 'invalid-input', message: expect.stringContaining('could not be sent') } });
    await link.shutdown(3_000);
  });

  it('a call sent as the process dies (its channel closed, its exit not heard yet) says the engine stopped, not that the request was wrong', async () => {
    const gone = Object.assign(new Error('Channel closed'), { code: 'ERR_IPC_CHANNEL_CLOSED' });
    const proc = {
      post: () => {
        throw gone;
      },
      onMessage: () => {},
      onExit: () => {},
      kill: () => {},
    };
    const link = new CoreLink(proc, { host, onEvent: () => {} });
    const r = await link.call('app:info', []);
    expect(r).toMatchObject({ ok: false, error: { kind: 'core-stopped', message: expect.stringContaining('Channel closed') } });
  });

  it('a core that dies rejects pending calls at once, is restarted once, then stays down with a clear message', async () => {
    const children: FakeUtilityProcess[] = [];
    const up = fakeUtilityProcess((child) => {
      children.push(child);
      void runCore(child.parentPort as never, { keychain: new FakeKeychain(), exit: () => {} });
    });
    const crashes: string[] = [];
    const sup = new CoreSupervisor({
      spawn: () => forkCore({ utilityProcess: up, MessageChannelMain: FakeMessageChannelMain } as never, corePath, init(), {}),
      host,
      onEvent: () => {},
      onCrash: (state) => crashes.push(state),
    });
    expect(await sup.ready()).toBeNull();
    // A call in flight when the process dies answers with an error instead of hanging.
    const pending = sup.call('app:state', []);
    children[0]!.crash();
    const r = await pending;
    expect(r).toMatchObject({ ok: false, error: { kind: 'core-stopped' } });
    expect(crashes).toEqual(['restarted']);
    expect(await sup.ready()).toBeNull();
    expect(await sup.call('app:info', [])).toMatchObject({ ok: true });
    children[1]!.crash();
    expect(crashes).toEqual(['restarted', 'failed']);
    expect(children).toHaveLength(2);
    const after = await sup.call('app:info', []);
    expect(after).toMatchObject({ ok: false, error: { kind: 'core-stopped' } });
    if (!after.ok) expect(after.error.message).toMatch(/engine stopped/);
  });

  it('a cache that cannot open is reported as a failure, with its kind, before any call', async () => {
    const { api } = electronLike();
    const bad = init();
    // A cache written by a newer version (a damaged one is rebuilt instead: see the recovery tests).
    const { default: Database } = await import('better-sqlite3');
    const newer = new Database(`${bad.userDataDir}/workbench.db`);
    // A newer app's cache keeps the first version's tables (without them it is another program's file).
    for (const t of ['brands', 'brand_keys', 'opportunities', 'triage', 'sync_runs']) newer.exec(`CREATE TABLE ${t} (x)`);
    newer.pragma('user_version = 999');
    newer.close();
    const link = new CoreLink(forkCore(api as never, corePath, bad, {}), { host, onEvent: () => {} });
    const failure = await link.ready();
    expect(failure).not.toBeNull();
    expect(failure!.kind).toBe('cache-newer');
    await link.shutdown(1_000);
  });
});

describe("the core process's transport is Electron's net.fetch", () => {
  it('every request the client makes goes through the net.fetch it was given, with the URL as text; none through the global fetch', async () => {
    const sim = await startSimulator({ seed: 5, opportunities: 30, otherBrandOpportunities: 0, brands: 1 });
    const realFetch = globalThis.fetch;
    const globalFetch = vi.spyOn(globalThis, 'fetch');
    try {
      const netCalls: { input: unknown; authorization: string | null }[] = [];
      const net = {
        fetch: (input: string | Request, init?: RequestInit) => {
          netCalls.push({ input, authorization: new Headers(init?.headers).get('authorization') });
          return realFetch(input, init);
        },
      };
      const up = fakeUtilityProcess((child) => {
        void runCore(child.parentPort as never, coreDeps({ net }, { keychain: new FakeKeychain(), exit: () => {} }));
      });
      const events: string[] = [];
      const link = new CoreLink(
        forkCore({ utilityProcess: up, MessageChannelMain: FakeMessageChannelMain } as never, corePath, { ...init(), baseUrl: sim.url }, {}),
        { host, onEvent: (e) => events.push(e) },
      );
      expect(await link.ready()).toBeNull();
      expect(await link.call('keys:set', [{ key: DEMO_KEY }])).toMatchObject({ ok: true, value: { state: 'stored' } });
      expect(await link.call('sync:start', [{}])).toMatchObject({ ok: true });
      for (let i = 0; i < 500 && !events.includes('sync:done'); i++) await new Promise((r) => setTimeout(r, 10));
      expect(events).toContain('sync:done');
      await link.shutdown(3_000);

      expect(netCalls.length).toBeGreaterThan(1);
      expect(netCalls.length).toBe(sim.requests);
      expect(netCalls[0]).toEqual({ input: `${sim.url}/get-brands`, authorization: `Bearer ${DEMO_KEY}` });
      for (const c of netCalls) {
        expect(typeof c.input).toBe('string');
        expect(String(c.input).startsWith(`${sim.url}/`)).toBe(true);
      }
      expect(globalFetch).not.toHaveBeenCalled();
    } finally {
      globalFetch.mockRestore();
      await sim.close();
    }
  });

  it('electronFetch hands net.fetch text for a URL object and passes strings, Requests and init unchanged', async () => {
    const seen: unknown[][] = [];
    const f = electronFetch({ net: { fetch: async (...a: unknown[]) => (seen.push(a), new Response('ok')) } });
    const init = { method: 'GET' };
    const req = new Request('https://api.trakkr.ai/get-brands');
    await f(new URL('https://api.trakkr.ai/get-brands?x=1'), init);
    await f('https://api.trakkr.ai/a', init);
    await f(req);
    expect(seen).toEqual([
      ['https://api.trakkr.ai/get-brands?x=1', init],
      ['https://api.trakkr.ai/a', init],
      [req, undefined],
    ]);
    expect(seen[2]![0]).toBe(req);
  });
});

// The core in its own Node process behind the real message protocol
// (structured clone over IPC), as the test host and the app run it: calls,
// events, a SIGKILLed core restarted once, and quitting in the middle of a
// sync or an export: the cache closes cleanly within the bound, the next launch
// resumes, and an export cut short leaves no file under the chosen name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CoreSupervisor, type CoreInit, type HostHandlers } from '../../../shared/core-link';
import type { EventName } from '../../../shared/contract';
import { DEMO_KEY, startSimulator, type Simulator } from '../../../electron/simulator/server';
import { forkNodeCore } from '../../host/core-process';
import { tempDir } from '../../support/tmp';

const host: HostHandlers = {
  'clipboard:write': () => null,
  'shell:open-external': () => null,
  'shell:show-item-in-folder': () => null,
  'dialog:save-file': () => null,
  'dialog:open-file': () => null,
  'window:print-pdf': () => new Uint8Array(),
};

let sim: Simulator;
/** Many opportunities, no latency: an export long enough to quit in the middle of. */
let bigSim: Simulator;
const BIG = 20_000;
const tmp = tempDir();
beforeAll(async () => {
  // Slow pages, so a sync is surely in the middle of its work when the app quits.
  sim = await startSimulator({ seed: 3, opportunities: 3000, otherBrandOpportunities: 0, brands: 1, latencyMs: 60 });
  bigSim = await startSimulator({ seed: 6, opportunities: BIG, otherBrandOpportunities: 0, brands: 1, citationsPerBrand: 0 });
});
afterAll(async () => {
  await sim.close();
  await bigSim.close();
  tmp.cleanup();
});

function supervisor(
  dir: string,
  events: { event: EventName; payload: any }[] = [],
  crashes: string[] = [],
  opts: { host?: HostHandlers; sim?: Simulator } = {},
) {
  const init: CoreInit = {
    userDataDir: dir,
    appName: 'Outreach Workbench',
    appVersion: '0.1.0',
    platformName: 'linux',
    demo: false,
    baseUrl: (opts.sim ?? sim).url,
  };
  const pids: (number | undefined)[] = [];
  const sup = new CoreSupervisor({
    spawn: () => {
      const p = forkNodeCore(init);
      pids.push(p.pid);
      return p;
    },
    host: opts.host ?? host,
    onEvent: (event, payload) => events.push({ event, payload }),
    onCrash: (state) => crashes.push(state),
  });
  return { sup, pids };
}

const waitFor = async (cond: () => boolean, ms = 30_000) => {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('the core process (a real child, structured clone over IPC)', () => {
  it('quitting during a sync closes the cache within 3 s; the file is sound and the next launch resumes', async () => {
    const dir = join(tmp.dir, 'quit');
    const events: { event: EventName; payload: any }[] = [];
    const { sup } = supervisor(dir, events);
    expect(await sup.ready()).toBeNull();
    expect(await sup.call('keys:set', [{ key: DEMO_KEY }])).toMatchObject({ ok: true });
    const started = await sup.call('sync:start', [{}]);
    expect(started.ok).toBe(true);
    await waitFor(() => events.filter((e) => e.event === 'sync:event' && e.payload.event.type === 'progress').length >= 2);
    const t0 = Date.now();
    expect(await sup.shutdown(3_000)).toBe('closed');
    expect(Date.now() - t0).toBeLessThan(3_000);

    const db = new Database(join(dir, 'workbench.db'));
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const partial = (db.prepare('SELECT count(*) AS n FROM opportunities').get() as { n: number }).n;
    db.close();
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(3000);

    // Next launch: the sync resumes from where it stopped and completes.
    const again = supervisor(dir, events);
    expect(await again.sup.ready()).toBeNull();
    events.length = 0;
    await again.sup.call('keys:set', [{ key: DEMO_KEY }]);
    await again.sup.call('sync:start', [{}]);
    await waitFor(() => events.some((e) => e.event === 'sync:done'), 60_000);
    const done = events.find((e) => e.event === 'sync:done')!.payload.summary;
    expect(done.error).toBeNull();
    expect(done.brands[0].resumed).toBe(true);
    const list = await again.sup.call('opportunities:list', [{ filter: { brandId: sim.brands[0]!.id, includeArchived: true }, offset: 0, limit: 1 }]);
    expect(list).toMatchObject({ ok: true, value: { total: 3000 } });
    expect(await again.sup.shutdown(3_000)).toBe('closed');
  }, 90_000);

  it('quitting during an export: the export stops, the cache closes within 3 s and is sound, and no file is left under the chosen name', async () => {
    const dir = join(tmp.dir, 'quit-export');
    const outDir = join(tmp.dir, 'quit-export-out');
    mkdirSync(outDir, { recursive: true });
    const chosen = join(outDir, 'pitches.csv');
    const events: { event: EventName; payload: any }[] = [];
    const { sup } = supervisor(dir, events, [], { sim: bigSim, host: { ...host, 'dialog:save-file': () => chosen } });
    expect(await sup.ready()).toBeNull();
    expect(await sup.call('keys:set', [{ key: DEMO_KEY }])).toMatchObject({ ok: true });
    await sup.call('sync:start', [{}]);
    await waitFor(() => events.some((e) => e.event === 'sync:done'), 60_000);
    expect(events.find((e) => e.event === 'sync:done')!.payload.summary.error).toBeNull();

    const file = await sup.call('export:choose-file', [{ suggestedName: 'pitches.csv' }]);
    expect(file).toMatchObject({ ok: true, value: { file: { name: 'pitches.csv' } } });
    const handle = (file as { ok: true; value: { file: { handle: string } } }).value.file.handle;
    const brandId = bigSim.brands[0]!.id;
    const started = await sup.call('export:start', [{ options: { brandId, preset: 'opportunities', filter: { includeArchived: true } }, file: handle }]);
    expect(started.ok).toBe(true);
    const jobId = (started as { ok: true; value: { jobId: string } }).value.jobId;
    // In the middle of it: some rows written, far from all.
    await waitFor(() => events.some((e) => e.event === 'export:progress' && e.payload.jobId === jobId), 30_000);

    const t0 = Date.now();
    expect(await sup.shutdown(3_000)).toBe('closed');
    expect(Date.now() - t0).toBeLessThan(3_000);

    // The export was cut short (not finished before the quit), and said so.
    const done = events.find((e) => e.event === 'export:done' && e.payload.jobId === jobId)?.payload;
    expect(done).toMatchObject({ result: null, error: { kind: 'core-stopped' } });
    expect(done.error.message).toMatch(/cancelled/i);
    // Nothing under the chosen name, and no temporary part left beside it.
    expect(existsSync(chosen)).toBe(false);
    expect(readdirSync(outDir)).toEqual([]);

    const db = new Database(join(dir, 'workbench.db'));
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect((db.prepare('SELECT count(*) AS n FROM opportunities').get() as { n: number }).n).toBe(BIG);
    db.close();
  }, 120_000);

  it('a SIGKILLed core: the call in flight answers with an error, the core restarts once and serves the same cache', async () => {
    const dir = join(tmp.dir, 'kill');
    const crashes: string[] = [];
    const { sup, pids } = supervisor(dir, [], crashes);
    expect(await sup.ready()).toBeNull();
    await sup.call('dnc:add', [{ value: 'press@example.com' }]);
    const inFlight = sup.call('app:state', []);
    process.kill(pids[0]!, 'SIGKILL');
    const r = await inFlight;
    // Either it answered before the kill landed, or it failed in plain words; it never hangs.
    if (!r.ok) expect(r.error.kind).toBe('core-stopped');
    await waitFor(() => crashes.length === 1);
    expect(crashes).toEqual(['restarted']);
    expect(await sup.ready()).toBeNull();
    const dnc = await sup.call('dnc:list', []);
    expect(dnc.ok && (dnc.value as { value: string }[]).map((d) => d.value)).toEqual(['press@example.com']);
    expect(await sup.shutdown(3_000)).toBe('closed');
  }, 60_000);

  it('arguments that cannot cross a structured-clone boundary are refused before they are sent', async () => {
    const { sup } = supervisor(join(tmp.dir, 'clone'));
    expect(await sup.ready()).toBeNull();
    const r = await sup.call('dnc:add', [{ value: 'a@b.co', note: new Proxy({}, {}) as unknown as string }]);
    expect(r.ok).toBe(false);
    expect(await sup.call('app:info', [])).toMatchObject({ ok: true });
    await sup.shutdown(3_000);
  }, 30_000);
});

// The renderer's state classes, run against the real contract handlers and
// core in this process (window.workbench is a thin in-process bridge).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flushSync } from 'svelte';
import { AppService } from '../../../electron/core/app/service';
import { createHandlers, dispatch } from '../../../electron/core/app/handlers';
import { DEMO_KEY, startSimulator, type Simulator } from '../../../electron/simulator/server';
import { AppStore } from '../../../renderer/src/state/app.svelte';
import { OpportunitiesStore, PAGE } from '../../../renderer/src/state/opportunities.svelte';
import { FakeKeychain, FakePlatform } from '../../support/fake-platform';
import { tempDir } from '../../support/tmp';

let sim: Simulator;
let service: AppService;
let platform: FakePlatform;
const tmp = tempDir();
const listeners = new Map<string, Set<(p: unknown) => void>>();

beforeAll(async () => {
  sim = await startSimulator({ seed: 8, opportunities: 700, otherBrandOpportunities: 10, citationsPerBrand: 20 });
  platform = new FakePlatform();
  const emit = platform.emit.bind(platform);
  platform.emit = (event, payload) => {
    emit(event, payload);
    for (const l of listeners.get(event) ?? []) l(payload);
  };
  service = await AppService.create({ userDataDir: tmp.dir, platform, keychain: new FakeKeychain(), appName: 'Outreach Workbench', appVersion: '0.1.0', platformName: 'linux' });
  service.setSettings({ baseUrl: sim.url, requestsPerMinute: 10_000 });
  const handlers = createHandlers(service, platform);
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
          : (...args: unknown[]) => dispatch(handlers, name, JSON.parse(JSON.stringify(args))),
    },
  );
  (globalThis as { window?: unknown }).window = { workbench: api };
});
afterAll(async () => {
  await new Promise((r) => setTimeout(r, 400)); // let the stores' short timers (detail, chip counts) finish first
  await service.close();
  await sim.close();
  tmp.cleanup();
});

const until = async (fn: () => boolean, ms = 20_000) => {
  const t0 = Date.now();
  while (!fn()) {
    if (Date.now() - t0 > ms) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('AppStore and OpportunitiesStore', () => {
  const app = new AppStore();
  const opps = new OpportunitiesStore(app);

  it('loads the frame; a key set from the UI starts a sync whose events update the state', async () => {
    await app.load();
    expect(app.loaded).toBe(true);
    expect(app.hasKey).toBe(false);
    await expect(app.setKey('sk_live_nope')).rejects.toMatchObject({ kind: 'invalid-input' });
    await app.setKey(DEMO_KEY);
    expect(app.hasKey).toBe(true);
    expect(app.syncing).toBe(true);
    await until(() => app.toasts.some((t) => t.text.startsWith('Synced')));
    await until(() => !app.syncing);
    expect(app.brands.length).toBe(3);
    app.brandId = sim.brands[0]!.id;
    expect(app.brand?.name).toBe(sim.brands[0]!.name);
  });

  it('lists a page at a time, fetches further pages on demand, and moves the cursor', async () => {
    await opps.reload();
    expect(opps.total).toBeGreaterThan(PAGE);
    expect(opps.itemAt(0)).toBeDefined();
    expect(opps.itemAt(PAGE + 5)).toBeUndefined();
    opps.ensure(PAGE, PAGE + 10);
    await until(() => opps.itemAt(PAGE + 5) !== undefined);
    opps.moveTo(PAGE + 5);
    expect(opps.cursor).toBe(PAGE + 5);
    opps.move(-10_000);
    expect(opps.cursor).toBe(0);
    await until(() => opps.detail?.item.id === opps.itemAt(0)!.id);
  });

  it('filters reload with counts; search goes to main', async () => {
    opps.setFilter({ status: 'Done' });
    await until(() => !opps.loading && opps.itemAt(0)?.status === 'Done');
    // The chip counts follow once typing or clicking pauses.
    await until(() => opps.counts?.status.Done === opps.total);
    opps.setFilter({ status: undefined, search: 'zzzznothing' });
    await until(() => !opps.loading && opps.total === 0);
    opps.clearFilters();
    await until(() => !opps.loading && opps.total > 0);
  });

  it('status, star and an autosaved note; the row updates in place', async () => {
    opps.moveTo(1);
    await until(() => opps.detail?.item.id === opps.itemAt(1)!.id);
    const id = opps.itemAt(1)!.id;
    await opps.setStatus('In Progress');
    expect(opps.itemAt(1)!.status).toBe('In Progress');
    await opps.toggleStar();
    expect(opps.itemAt(1)!.starred).toBe(true);
    opps.editNote('first draft');
    expect(opps.noteState).toBe('unsaved');
    await until(() => opps.noteState === 'saved');
    expect(service.cache.opportunities.get(sim.brands[0]!.id, id)!.triage.note).toBe('first draft');
    opps.editNote('second');
    await opps.flushNote(); // moving away saves at once
    expect(service.cache.opportunities.get(sim.brands[0]!.id, id)!.triage.note).toBe('second');
  });

  it('copying contacts leaves catch-alls out and says how many', async () => {
    let i = 0;
    while (!(opps.itemAt(i)?.catch_all_count && opps.itemAt(i)!.contact_count > opps.itemAt(i)!.catch_all_count)) i++;
    opps.moveTo(i);
    await until(() => opps.detail?.item.id === opps.itemAt(i)!.id);
    await opps.copyContacts();
    const catchAll = opps.detail!.contacts.filter((c) => c.catchAll).map((c) => c.email);
    for (const a of catchAll) expect(platform.clipboard).not.toContain(a);
    expect(app.toasts.at(-1)!.text).toMatch(/catch-all address(es)? left out/);
  });

  it('selection with ranges, and bulk status', async () => {
    opps.toggleSelect(2);
    opps.toggleSelect(5, true);
    flushSync();
    expect(opps.selected.size).toBe(4);
    await opps.setStatus('Done');
    expect(opps.selected.size).toBe(0);
    expect(app.toasts.at(-1)!.text).toBe('4 opportunities set to Done.');
  });
});

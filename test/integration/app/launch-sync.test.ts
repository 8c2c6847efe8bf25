// A launch's sync (a key stored, "sync on launch" on) waits for the window's
// first page of the list, so that page never shares the core's thread with
// the sync's start (its module loaded, its first pages written); a window that
// asks for no list gets its sync after a short wait; a quit during the wait
// starts nothing. Real cache, the simulator over loopback.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_KEY, startSimulator, type Simulator } from '../../../electron/simulator/server';
import { openApp, type TestApp } from '../../support/app';
import { tempDir } from '../../support/tmp';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ seed: 7, opportunities: 60, otherBrandOpportunities: 5, citationsPerBrand: 5 });
});
afterAll(() => sim.close());

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setTimeout(r, 5));
};

/** The launch has read the key and is waiting (its no-reply timer is set just before the wait), then a few turns more. */
async function waiting(app: TestApp): Promise<void> {
  await vi.waitFor(() => expect((app.s.parts.life as unknown as { noReplyTimer: unknown }).noReplyTimer).not.toBeNull());
  await turns(10);
}

/** An app over a cache a first sync filled, reopened as a launch finds it. */
async function reopened(launchWaitMs: number): Promise<{ app: TestApp; brandId: string; cleanup(): void }> {
  const dir = tempDir();
  const keep = { dir: dir.dir, cleanup: () => {} };
  const first = await openApp({ key: DEMO_KEY, dir: keep });
  first.s.setSettings({ baseUrl: sim.url, requestsPerMinute: 10_000 });
  await first.call('sync:start', {});
  await first.platform.waitFor('sync:done');
  const brandId = first.s.cache.brands.list()[0]!.id;
  await first.close();
  const app = await openApp({ key: DEMO_KEY, dir: keep, launchWaitMs });
  return { app, brandId, cleanup: () => dir.cleanup() };
}

describe("a launch's sync", () => {
  it("starts once the window's first page has been answered, not before", async () => {
    const { app, brandId, cleanup } = await reopened(60_000);
    const launched = app.s.launch();
    await waiting(app);
    expect(app.s.parts.sync.state().running).toBe(false);
    expect(app.platform.events.some((e) => e.event.startsWith('sync:'))).toBe(false);
    const page = await app.call('opportunities:view', { filter: { brandId, sort: 'priority' }, limit: 50 });
    expect(page.items.length).toBeGreaterThan(0);
    await launched;
    expect(app.s.parts.sync.state().running).toBe(true);
    expect((await app.platform.waitFor('sync:done')).summary.error).toBeNull();
    await app.close();
    cleanup();
  });

  it('starts after a short wait when the window asks for no list', async () => {
    const { app, cleanup } = await reopened(20);
    await app.s.launch();
    expect(app.s.parts.sync.state().running).toBe(true);
    await app.platform.waitFor('sync:done');
    await app.close();
    cleanup();
  });

  it('a quit while it waits starts nothing', async () => {
    const { app, cleanup } = await reopened(60_000);
    const launched = app.s.launch();
    await waiting(app);
    await app.s.close();
    app.s.parts.life.firstPageServed();
    await launched;
    expect(app.s.parts.sync.state().running).toBe(false);
    expect(app.platform.events.some((e) => e.event.startsWith('sync:'))).toBe(false);
    cleanup();
  });

  it('a sync the person started while it waited (cancelled, here) is not followed by a second one', async () => {
    const { app, brandId, cleanup } = await reopened(60_000);
    const launched = app.s.launch();
    await waiting(app);
    const { jobId } = await app.call('sync:start', {});
    await app.call('sync:cancel', { jobId });
    await app.platform.waitFor('sync:done');
    await app.call('opportunities:view', { filter: { brandId, sort: 'priority' }, limit: 50 });
    await launched;
    expect(app.s.parts.sync.state().running).toBe(false);
    expect(app.platform.events.filter((e) => e.event === 'sync:done')).toHaveLength(1);
    await app.close();
    cleanup();
  });
});

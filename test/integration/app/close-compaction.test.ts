// When the app compacts its cache as it lets go of it (store/cache.ts
// compactIfLoose, behind close()): at the quit only when stopping what ran
// took less than COMPACT_IF_CLOSED_WITHIN_MS (the rest of main's time is the
// VACUUM's), and never for a cache it switches away from (the demo's switch)
// or is about to delete (the demo's reset). A real service over the simulator,
// each cache written to this session (a sync), so that close() would compact
// it if asked; the clock the quit measures is faked (performance only).
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppService } from '../../../electron/core/app/service';
import { COMPACT_IF_CLOSED_WITHIN_MS } from '../../../electron/core/app/lifecycle';
import { DEMO_KEY, startSimulator, type Simulator } from '../../../electron/simulator/server';
import { FakeKeychain, FakePlatform } from '../../support/fake-platform';
import { tempDir } from '../../support/tmp';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ seed: 5, opportunities: 120, otherBrandOpportunities: 10, citationsPerBrand: 10 });
});
afterAll(() => sim.close());
afterEach(() => vi.useRealTimers());

/** A service in a folder of its own: the user's (a keychain), or the demo's (`demo: true`). */
async function service(demo: boolean) {
  const tmp = tempDir();
  const platform = new FakePlatform();
  const keychain = new FakeKeychain(demo ? 'unavailable' : 'available');
  const s = await AppService.create({
    userDataDir: tmp.dir,
    platform,
    keychain,
    appName: 'Workbench',
    appVersion: '0',
    platformName: 'linux',
    demo,
    demoOpportunities: 80,
  });
  return { s, platform, tmp };
}

/** A user's service whose cache a sync has just written. */
async function synced() {
  const { s, platform, tmp } = await service(false);
  s.setSettings({ baseUrl: sim.url, requestsPerMinute: 10_000 });
  await s.parts.connection.setKey(DEMO_KEY);
  s.parts.sync.start({});
  expect((await platform.waitFor('sync:done')).summary.error).toBeNull();
  return { s, platform, tmp };
}

/**
 * The quit, with stopping what ran (the sync's stop) taking `ms` on the clock the quit reads: how many times it asked
 * the cache to compact (calls of compactIfLoose, which then measures the loose space itself: compact-at-close.test.ts).
 */
async function compactionsAskedAtQuitTaking(ms: number): Promise<number> {
  const { s, tmp } = await synced();
  try {
    const asked = vi.spyOn(s.cache, 'compactIfLoose');
    vi.useFakeTimers({ toFake: ['performance'] });
    const stop = s.parts.sync.stop.bind(s.parts.sync);
    vi.spyOn(s.parts.sync, 'stop').mockImplementation(async () => {
      vi.advanceTimersByTime(ms);
      return stop();
    });
    await s.close();
    return asked.mock.calls.length;
  } finally {
    tmp.cleanup();
  }
}

describe('the quit asks the cache to compact', () => {
  it('when stopping took less than COMPACT_IF_CLOSED_WITHIN_MS, and not once it took that long', async () => {
    expect(await compactionsAskedAtQuitTaking(0)).toBe(1);
    expect(await compactionsAskedAtQuitTaking(COMPACT_IF_CLOSED_WITHIN_MS - 1)).toBe(1);
    expect(await compactionsAskedAtQuitTaking(COMPACT_IF_CLOSED_WITHIN_MS)).toBe(0);
    expect(await compactionsAskedAtQuitTaking(COMPACT_IF_CLOSED_WITHIN_MS * 5)).toBe(0);
  });
});

describe('a cache the app lets go of for another one is not asked to compact', () => {
  it('the user\'s cache, switched away from for the demo ("Try with demo data")', async () => {
    const { s, platform, tmp } = await synced();
    try {
      const users = s.cache;
      const asked = vi.spyOn(users, 'compactIfLoose');
      await s.parts.life.startDemo();
      expect(s.cache).not.toBe(users);
      expect(users.db.open).toBe(false);
      expect(asked).not.toHaveBeenCalled();
      await platform.waitFor('sync:done');
      await s.close();
    } finally {
      tmp.cleanup();
    }
  });

  it("the demo's cache, about to be deleted by its reset", async () => {
    const { s, platform, tmp } = await service(true);
    try {
      await s.launch();
      expect((await platform.waitFor('sync:done')).summary.error).toBeNull();
      const demo = s.cache;
      const asked = vi.spyOn(demo, 'compactIfLoose');
      await s.parts.life.resetDemo();
      expect(demo.db.open).toBe(false);
      expect(asked).not.toHaveBeenCalled();
      await platform.waitFor('sync:done');
      await s.close();
    } finally {
      tmp.cleanup();
    }
  });
});

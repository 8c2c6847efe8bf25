// The sync's module, loaded by the first sync (electron/core/app/sync-jobs.ts),
// cannot load here (as in an installation missing its chunk): the app still
// opens and answers, and the sync ends with sync:done saying so in plain words.
// That this file loads at all with the sync's module refused shows opening the
// app does not load it.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_KEY, startSimulator, type Simulator } from '../../../electron/simulator/server';
import { openApp } from '../../support/app';

vi.mock('../../../electron/core/sync', () => {
  throw Object.assign(new Error('chunk sync-x.js is missing'), { code: 'ERR_MODULE_NOT_FOUND' });
});

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ seed: 6, opportunities: 40, otherBrandOpportunities: 5, citationsPerBrand: 5 });
});
afterAll(() => sim.close());

describe('a sync whose module cannot load', () => {
  it('ends with sync:done naming the damaged installation; the key, settings and list calls answer', async () => {
    const app = await openApp({ key: DEMO_KEY });
    const { s, platform } = app;
    s.setSettings({ baseUrl: sim.url, requestsPerMinute: 10_000 });
    const { jobId } = s.parts.sync.start({});
    expect(await platform.waitFor('sync:done')).toEqual({
      jobId,
      summary: {
        brands: [],
        durationMs: 0,
        cancelled: false,
        error: {
          kind: 'installation-damaged',
          message: expect.stringMatching(/^The app's sync could not be loaded \(.+\)\. Reinstall the app; your cache and triage are not affected\.$/),
        },
      },
    });
    expect(s.parts.sync.state()).toMatchObject({ running: false, lastSummary: { error: { kind: 'installation-damaged' } } });
    expect(await app.call('keys:status')).toMatchObject({ state: 'stored', last4: 'demo' });
    expect(await app.call('opportunities:list', { filter: { brandId: sim.brands[0]!.id }, offset: 0, limit: 10 })).toMatchObject({ items: [], total: 0 });
    await app.close();
  });
});

// The parts the first list page does not need are loaded by the call that needs
// them (electron/core/app/lazy.ts). Here the export's module cannot load (as in
// an installation missing its chunk): the app still opens, syncs and answers
// its list, and only the export's calls fail, in plain words, as the call's
// error. That this file loads at all with the export's module refused shows
// opening the app does not load it.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { join } from 'node:path';
import { createHandlers, dispatch } from '../../../electron/core/app/handlers';
import { DEMO_KEY, startSimulator, type Simulator } from '../../../electron/simulator/server';
import { openApp } from '../../support/app';

vi.mock('../../../electron/core/export/csv-export', () => {
  throw Object.assign(new Error('chunk csv-export-x.js is missing'), { code: 'ERR_MODULE_NOT_FOUND' });
});

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ seed: 5, opportunities: 120, otherBrandOpportunities: 10, citationsPerBrand: 10 });
});
afterAll(() => sim.close());

describe('a part of the core that cannot load', () => {
  it('fails only the calls that need it, in plain words; the list, the sync and the rest answer as before', async () => {
    const app = await openApp({ key: DEMO_KEY });
    const { s, platform } = app;
    s.setSettings({ baseUrl: sim.url, requestsPerMinute: 10_000 });
    const h = createHandlers(s);
    const brand = sim.brands[0]!.id;
    s.parts.sync.start({});
    expect((await platform.waitFor('sync:done')).summary.error).toBeNull();
    const list = () => dispatch(h, 'opportunities:list', [{ filter: { brandId: brand }, offset: 0, limit: 10 }]);
    const page = await list();
    expect(page).toMatchObject({ ok: true, value: { items: expect.arrayContaining([expect.objectContaining({ id: expect.any(String) })]) } });
    expect((page as { value: { total: number } }).value.total).toBeGreaterThan(50);

    const preview = await dispatch(h, 'export:preview', [{ brandId: brand, preset: 'contacts', unfilled: 'keep' }]);
    expect(preview).toEqual({
      ok: false,
      error: {
        kind: 'installation-damaged',
        message: expect.stringMatching(/^The app's export could not be loaded \(.+\)\. Reinstall the app; your cache and triage are not affected\.$/),
      },
    });
    // Asked again: tried again, and refused the same way (not a stale failure, not a crash).
    expect(await dispatch(h, 'export:preview', [{ brandId: brand, preset: 'contacts', unfilled: 'keep' }])).toMatchObject({
      ok: false,
      error: { kind: 'installation-damaged' },
    });
    // A started export ends with export:done carrying the same words (the job's file is never written).
    platform.saveAs = join(app.dir, 'out.csv');
    const chosen = (await s.parts.exports.chooseFile('out.csv')).file!;
    const { jobId } = s.parts.exports.start({ brandId: brand, preset: 'contacts', unfilled: 'keep' }, chosen.handle);
    expect(await platform.waitFor('export:done')).toMatchObject({
      jobId,
      result: null,
      error: { kind: 'installation-damaged', message: expect.stringContaining("The app's export could not be loaded") },
    });
    expect(await list()).toEqual(page);
    await app.close();
  });
});

describe('a sync, whose module the first sync loads', () => {
  it('cancelled the moment it starts (before the module of the sync and the API client are loaded) ends cancelled, with nothing synced; the next one runs', async () => {
    const app = await openApp({ key: DEMO_KEY });
    const { s, platform } = app;
    s.setSettings({ baseUrl: sim.url, requestsPerMinute: 10_000 });
    const brand = sim.brands[0]!.id;
    const { jobId } = s.parts.sync.start({});
    expect(s.parts.sync.cancel(jobId)).toEqual({ cancelled: true });
    const first = await platform.waitFor('sync:done');
    expect(first).toMatchObject({ jobId, summary: { cancelled: true, brands: [] } });
    expect(await app.call('opportunities:list', { filter: { brandId: brand }, offset: 0, limit: 10 })).toMatchObject({ total: 0 });
    const again = s.parts.sync.start({});
    expect(again.jobId).not.toBe(jobId);
    expect(await platform.waitFor('sync:done')).toMatchObject({ jobId: again.jobId, summary: { cancelled: false, error: null } });
    expect((await app.call('opportunities:list', { filter: { brandId: brand }, offset: 0, limit: 10 })).total).toBeGreaterThan(50);
    await app.close();
  });
});

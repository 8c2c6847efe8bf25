// A first sync worth watching, against the simulator on a real SQLite file:
// rows are readable as each page arrives, and every progress event says the
// pages and rows so far and the rate; once the brand's size is known (a
// whole sync before), the total and the time left too.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { DEMO_KEY, startSimulator, type Simulator } from '../../../electron/simulator/server';
import { TrakkrClient } from '../../../electron/core/api/client';
import { Cache } from '../../../electron/core/store/cache';
import { runSync, type SyncEvent } from '../../../electron/core/sync';
import { tempDir } from '../../support/tmp';
import { count } from '../../support/store';

let sim: Simulator;
const tmp = tempDir();
beforeAll(async () => {
  sim = await startSimulator({ seed: 9, opportunities: 1000, otherBrandOpportunities: 0, brands: 1, citationsPerBrand: 0 });
});
afterAll(async () => {
  await sim.close();
  tmp.cleanup();
});
let cache: Cache | null = null;
afterEach(() => {
  cache?.close();
  cache = null;
});

type Progress = Extract<SyncEvent, { type: 'progress' }>;

describe('a sync as it fills the cache', () => {
  it('each page is readable when its progress event comes, which says the pages, rows and rate; the total and time left once the size is known', async () => {
    cache = await Cache.open(join(tmp.dir, 'progress.db'));
    const brandId = sim.brands[0]!.id;
    const client = new TrakkrClient({ baseUrl: sim.url, apiKey: DEMO_KEY, requestsPerMinute: 0 });
    const run = async () => {
      const seen: { event: Progress; readable: number }[] = [];
      await runSync(cache!, client, {
        pageSize: 200,
        scores: false,
        citations: false,
        onEvent: (e) => {
          if (e.type !== 'progress' || e.phase !== 'opportunities') return;
          // What the window would read right now, while the sync goes on.
          seen.push({ event: e, readable: count(cache!, { brandId, includeArchived: true, includeRemoved: true }) });
        },
      });
      return seen;
    };

    const first = await run();
    expect(first.map((p) => p.event.pages)).toEqual([1, 2, 3, 4, 5]);
    expect(first.map((p) => p.event.items)).toEqual([200, 400, 600, 800, 1000]);
    // Rows come as pages arrive: each page's rows are there when its event is told.
    expect(first.map((p) => p.readable)).toEqual([200, 400, 600, 800, 1000]);
    for (const p of first) expect(p.event.rate).toBeGreaterThan(0);
    // The first time, the size is not known: no total, no time left (never a guess).
    expect(first.every((p) => p.event.total === null && p.event.secondsLeft === null)).toBe(true);

    const again = await run();
    expect(again.map((p) => p.event.total)).toEqual([1000, 1000, 1000, 1000, 1000]);
    for (const p of again) expect(p.event.secondsLeft).toBeGreaterThanOrEqual(0);
    expect(again.at(-1)!.event.secondsLeft).toBe(0);
    expect(again[0]!.event.secondsLeft).toBeGreaterThanOrEqual(again.at(-1)!.event.secondsLeft!);
  });
});

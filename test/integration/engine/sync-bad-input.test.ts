// Bad input during a sync of a cache that is already full: a page of the wrong
// shape, a page that is not JSON (every retry), a scores body whose `data` is
// not a list, records without an id. Each gets a clear failure or a warning for
// what was skipped; nothing already in the cache changes: no record marked
// removed, the same records, the user's triage and the scores as they were.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { DEMO_KEY, startSimulator, type Fault, type Simulator } from '../../../electron/simulator/server';
import { TrakkrClient } from '../../../electron/core/api/client';
import { Cache } from '../../../electron/core/store/cache';
import { runSync, type SyncEvent, type SyncOptions } from '../../../electron/core/sync';
import { FakeClock } from '../../support/fake-clock';
import { tempDir } from '../../support/tmp';
import { list, setTriage } from '../../support/store';
import { triageRecord, allTriage } from '../../../electron/core/store/triage';

const tmp = tempDir();
const OPPORTUNITIES = 600;
const NOW = new Date('2026-11-20T12:00:00Z');
let sim: Simulator;
let cache: Cache;
let brand: string;
let triaged: string;

// Retries wait on a fake clock: a fault that lasts through every retry fails at once.
const client = () => new TrakkrClient({ baseUrl: sim.url, apiKey: DEMO_KEY, requestsPerMinute: 0, clock: new FakeClock(), random: () => 0.5 });
// 100 a page: six pages, so a fault can land in the middle of a pass.
const OPTS: SyncOptions = { pageSize: 100, citations: false, now: () => NOW };

async function sync(opts: SyncOptions = {}) {
  const events: SyncEvent[] = [];
  const summary = await runSync(cache, client(), { ...OPTS, ...opts, onEvent: (e) => events.push(e) });
  const warnings = events.filter((e) => e.type === 'warning').map((e) => (e as { message: string }).message);
  const pagesFetched = events.filter((e) => e.type === 'progress' && e.phase === 'opportunities').length;
  return { summary, brand: summary.brands[0]!, warnings, pagesFetched };
}

/** Everything a sync must leave alone when its input is bad. */
function state() {
  const one = <T>(q: string) => cache.db.prepare(q).get() as T;
  return {
    opportunities: one<{ n: number }>('SELECT count(*) AS n FROM opportunities').n,
    removed: one<{ n: number }>('SELECT count(*) AS n FROM opportunities WHERE removed_on_server = 1').n,
    // Each record as stored: its id, content hash, when it last changed, and the triage mirrored on it.
    records: cache.db.prepare('SELECT id, raw_hash, changed_at, removed_on_server, stage, starred FROM opportunities ORDER BY rowid').all(),
    triage: allTriage(cache.readable),
    scores: [[], ['model'], ['prompt']].map((b) => ({ series: cache.scores.series(brand, b), meta: cache.scores.meta(brand, b) })),
  };
}
let before: ReturnType<typeof state>;

beforeAll(async () => {
  sim = await startSimulator({ seed: 12, opportunities: OPPORTUNITIES, otherBrandOpportunities: 0, brands: 1, citationsPerBrand: 0, today: '2026-11-20' });
  brand = sim.brands[0]!.id;
  cache = await Cache.open(join(tmp.dir, 'bad-input.db'));
  const first = await sync();
  expect(first.brand).toMatchObject({ items: OPPORTUNITIES, added: OPPORTUNITIES, removed: 0, failures: [] });
  triaged = list(cache, { brandId: brand }, { limit: 1 })[0]!.id;
  setTriage(
    cache,
    brand,
    triaged,
    { stage: 'Drafted', note: 'pitched by phone, call back Tuesday', starred: true, contacted_at: '2026-11-19' },
    '2026-11-20T12:30:00Z',
  );
  before = state();
  expect(before.opportunities).toBe(OPPORTUNITIES);
  expect(before.scores.every((s) => s.series.length > 0)).toBe(true);
  expect(before.triage).toHaveLength(1);
});
afterAll(async () => {
  cache.close();
  await sim.close();
  tmp.cleanup();
});

describe('a sync that meets bad input leaves the filled cache as it was', () => {
  const pageFaults: [string, Fault, RegExp][] = [
    [
      'a page whose opportunities are not a list (every retry)',
      { kind: 'wrong-shape', path: '/get-outreach', after: 2, count: 99 },
      /^The service's answer to get-outreach was not in the documented shape \(opportunities: .+\)\.$/,
    ],
    [
      'a page that is not JSON (every retry)',
      { kind: 'non-json', status: 200, path: '/get-outreach', after: 2, count: 99 },
      /^The service's answer to GET \/get-outreach was not valid JSON \(cut off or malformed\)\. Gave up after 5 tries\.$/,
    ],
  ];
  it.each(pageFaults)('%s: the brand fails in plain words, nothing is marked removed', async (_, fault, message) => {
    sim.addFaults(fault);
    try {
      const r = await sync();
      expect(r.summary).toMatchObject({ cancelled: false, error: null });
      // Two pages came through before the bad one (a sync after a failed one resumes where it stopped); the pass stopped there.
      expect(r.pagesFetched).toBe(2);
      expect(r.brand.pages).toBeLessThan(OPPORTUNITIES / 100);
      expect(r.brand.removed).toBe(0);
      expect(r.brand.failures).toEqual([{ phase: 'opportunities', kind: 'bad-response', message: expect.stringMatching(message) }]);
      expect(state()).toEqual(before);
    } finally {
      sim.clearFaults();
    }
  });

  it('a scores body whose `data` is not a list: scores fail in plain words and keep their last good values', async () => {
    sim.addFaults({ kind: 'wrong-shape', path: '/get-scores', field: 'data', count: 99 });
    try {
      const r = await sync();
      expect(r.brand.removed).toBe(0);
      expect(r.brand.failures).toEqual([
        {
          phase: 'scores',
          kind: 'bad-response',
          message: expect.stringMatching(/^The service's answer to get-scores was not in the documented shape \(data: .+\)\.$/),
        },
      ]);
      expect(state()).toEqual(before);
    } finally {
      sim.clearFaults();
    }
  });

  it('records without a usable id are skipped with a warning each; the rest sync as before', async () => {
    sim.inject(brand, { title: 'A record with no id at all', domain: 'no-id.example', contact_emails: [] });
    sim.inject(brand, { _id: 4242, title: 'A record whose id is a number', domain: 'numeric-id.example', contact_emails: [] });
    const r = await sync();
    expect(r.summary).toMatchObject({ cancelled: false, error: null });
    expect(r.brand).toMatchObject({ items: OPPORTUNITIES + 2, added: 0, changed: 0, removed: 0, failures: [] });
    expect(r.warnings).toContain('an opportunity without _id or unique_key was skipped');
    expect(r.warnings.some((w) => /field "_id" had the wrong type \(number\) and was dropped/.test(w))).toBe(true);
    expect(r.brand.warnings).toBeGreaterThanOrEqual(2);
    expect(state()).toEqual(before);
  });

  it('afterwards a clean sync completes and still changes nothing', async () => {
    const r = await sync();
    expect(r.brand).toMatchObject({ added: 0, changed: 0, removed: 0, failures: [] });
    expect(cache.runs.last(brand)!.state).toBe('done');
    expect(state()).toEqual(before);
    expect(triageRecord(cache.readable, brand, triaged)).toMatchObject({
      stage: 'Drafted',
      note: 'pitched by phone, call back Tuesday',
      starred: true,
      contacted_at: '2026-11-19',
    });
    expect(cache.db.pragma('integrity_check', { simple: true })).toBe('ok');
  });
});

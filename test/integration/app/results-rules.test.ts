// The Results' rules where a count could lie, through the app's own handlers
// on a real cache and the simulator over loopback: a flip that may have come
// before the pitch, one page listed twice in a sync, days on the user's
// calendar in two time zones, a Replied undone, an export never confirmed
// sent, and the automatic Won (never twice, never on Not a fit, never from a
// sync that only sets the baseline).
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSimulator, type Simulator } from '../../../electron/simulator/server';
import { observeCitations } from '../../../electron/core/store/citation-facts';
import type { Evidence } from '../../../shared/evidence';
import type { ResultsReport } from '../../../shared/results';
import { sql } from '../../../electron/core/store/sql';
import { setTriage } from '../../support/store';
import { citeAt, opportunityAt as opportunityAtSim, resultsApp, type ResultsApp } from '../../support/results-app';

const TODAY = '2026-11-20';
let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ seed: 25, opportunities: 120, otherBrandOpportunities: 0, brands: 1, citationsPerBrand: 20, today: TODAY });
});
afterAll(() => sim.close());
const TZ = process.env.TZ;
afterEach(() => {
  vi.useRealTimers();
  if (TZ === undefined) delete process.env.TZ;
  else process.env.TZ = TZ;
});

const app = () => resultsApp(sim, TODAY);
const opportunityAt = (a: ResultsApp) => opportunityAtSim(sim, a);
const cite = (over: Record<string, unknown>) => citeAt(TODAY, over);
const closeApp = async (a: ResultsApp) => {
  await a.s.close();
  a.tmp.cleanup();
};
/** What a sync at `now` saw of these cited pages (the sync's own write, in its transaction). */
const observe = (a: ResultsApp, items: Record<string, unknown>[], now: string) =>
  a.s.cache.writable.transaction(() => observeCitations(a.s.cache.writable, a.brand, items, now));
const evidenceOf = (a: ResultsApp, id: string) => a.call<Evidence | null>('results:evidence', { brandId: a.brand, id });
const results = (a: ResultsApp, from: string, to: string) => a.call<ResultsReport>('results:get', { brandId: a.brand, period: 'custom', from, to });

describe('a flip is the pitch’s doing only when it was seen without the mention after the pitch', () => {
  it('seen without the brand before the pitch and with it after: no flip (first seen before the pitch: no evidence); seen without it after the pitch: a flip', async () => {
    const a = await app();
    const o = await opportunityAt(a);
    a.setToday('2026-11-10');
    await a.act([o.id], { do: 'contacted', addresses: [] });
    const page = (over: Record<string, unknown>) => ({ url: o.url, domain: o.domain, first_seen: '2026-01-01T09:00:00Z', times_cited: 4, ...over });
    observe(a, [page({ mentions_brand: false })], '2026-11-01T12:00:00.000Z');
    observe(a, [page({ mentions_brand: true })], '2026-11-20T12:00:00.000Z');
    // It may have changed on 11-02, before the pitch: nothing proves the pitch did it.
    expect(await evidenceOf(a, o.id)).toBeNull();

    const other = `https://${o.domain}/later-roundup`;
    observe(a, [{ url: other, domain: o.domain, first_seen: '2026-03-01T09:00:00Z', mentions_brand: false }], '2026-11-12T12:00:00.000Z');
    observe(a, [{ url: other, domain: o.domain, first_seen: '2026-03-01T09:00:00Z', mentions_brand: true }], '2026-11-22T12:00:00.000Z');
    expect(await evidenceOf(a, o.id)).toMatchObject({ match: 'outlet', strength: 'flip', since: '2026-11-22', pages: 1 });
    await closeApp(a);
  });

  it('one page listed twice in a sync is one sighting (a mention in either, the counts added), not a flip; a sync that does not say keeps the last word', async () => {
    const a = await app();
    const o = await opportunityAt(a);
    a.setToday('2026-11-10');
    await a.act([o.id], { do: 'contacted', addresses: [] });
    const twice = `https://${o.domain}/twice`;
    observe(
      a,
      [
        { url: `http://${o.domain}/twice`, domain: o.domain, first_seen: '2026-02-01T09:00:00Z', mentions_brand: false, times_cited: 3 },
        { url: `${twice}?utm_source=x`, domain: o.domain, first_seen: '2026-02-01T09:00:00Z', mentions_brand: true, times_cited: 5 },
      ],
      '2026-11-12T12:00:00.000Z',
    );
    // First seen (by the service and by us) long before: no flip, no evidence.
    expect(await evidenceOf(a, o.id)).toBeNull();
    // false -> (says nothing) -> true: the flip is kept across the sync that did not say.
    const flips = `https://${o.domain}/flips`;
    const at = (mentions_brand: boolean | undefined, now: string) =>
      observe(a, [{ url: flips, domain: o.domain, first_seen: '2026-02-01T09:00:00Z', mentions_brand, times_cited: 2 }], now);
    at(false, '2026-11-12T12:00:00.000Z');
    at(undefined, '2026-11-14T12:00:00.000Z');
    at(true, '2026-11-16T12:00:00.000Z');
    expect(await evidenceOf(a, o.id)).toMatchObject({ strength: 'flip', since: '2026-11-16', citation: { url: flips } });
    // The twice-listed page's count is its rows' sum.
    const row = a.s.cache.readable.get<{ times_cited: number; mentions_brand: number }>(
      sql`SELECT times_cited, mentions_brand FROM citation_facts WHERE brand_id = ${a.brand} AND url LIKE ${'%/twice%'}`,
    );
    expect(row).toEqual({ times_cited: 8, mentions_brand: 1 });
    await closeApp(a);
  });
});

describe('days are the user’s calendar days', () => {
  for (const zone of ['America/Los_Angeles', 'Pacific/Kiritimati']) {
    it(`in ${zone}: a Won marked at 23:30 on the month's last day counts in that month; a flip seen at 23:30 is that day's`, async () => {
      const a = await app();
      const o = await opportunityAt(a);
      process.env.TZ = zone;
      a.setToday('2026-11-02');
      await a.act([o.id], { do: 'contacted', addresses: [] });
      a.setToday('2026-11-30');
      // 23:30 on 30 November on this computer's clock: in UTC, 1 December (west) or still the 30th at 09:30 (east).
      const late = new Date(2026, 10, 30, 23, 30);
      vi.useFakeTimers({ toFake: ['Date'], now: late });
      await a.act([o.id], { do: 'won' });
      vi.useRealTimers();
      const page = { url: `https://${o.domain}/late`, domain: o.domain, first_seen: '2026-02-01T09:00:00Z', times_cited: 2 };
      observe(a, [{ ...page, mentions_brand: false }], new Date(2026, 10, 3, 23, 30).toISOString());
      observe(a, [{ ...page, mentions_brand: true }], late.toISOString());
      const november = await results(a, '2026-11-01', '2026-11-30');
      expect(november.totals).toMatchObject({ pitched: 1, won: 1, cited: 1 });
      expect(november.wins[0]).toMatchObject({ id: o.id, won_on: '2026-11-30', evidence: { strength: 'flip', since: '2026-11-30' } });
      expect(november.events.find((d) => d.date === '2026-11-30')!.won.map((w) => w.id)).toEqual([o.id]);
      expect((await results(a, '2026-12-01', '2026-12-31')).wins).toEqual([]);
      await closeApp(a);
    });
  }
});

describe('the funnel counts what happened', () => {
  it('a Replied undone is no reply; Replied then Won is one; a Won never marked Replied is replied or beyond', async () => {
    const a = await app();
    const [x, y, z] = [await opportunityAt(a), await opportunityAt(a), await opportunityAt(a)];
    a.setToday('2026-11-03');
    await a.act([x.id, y.id, z.id], { do: 'contacted', addresses: [] });
    a.setToday(TODAY);
    await a.act([x.id], { do: 'stage', stage: 'Replied' });
    await a.call('triage:undo', { brandId: a.brand });
    expect((await results(a, '2026-11-01', '2026-11-30')).totals).toMatchObject({ pitched: 3, replied: 0, won: 0 });
    await a.act([y.id], { do: 'stage', stage: 'Replied' });
    await a.act([y.id], { do: 'won' });
    await a.act([z.id], { do: 'won' });
    const r = await results(a, '2026-11-01', '2026-11-30');
    expect(r.totals).toMatchObject({ pitched: 3, replied: 2, won: 2 });
    expect(r.funnel.find((w) => w.pitched > 0)).toMatchObject({ week: '2026-11-02', pitched: 3, replied: 2, won: 2 });
    await closeApp(a);
  });

  it('an export never confirmed sent is no pitch (and its outlet’s citations no evidence); confirmed sent, it is one from that day', async () => {
    const a = await app();
    const o = await opportunityAt(a);
    // What an export to a mail tool leaves: exported, not contacted.
    setTriage(a.s.cache, a.brand, o.id, { exported_at: '2026-11-04T10:00:00.000Z' });
    sim.mutate({ cite: [cite({ url: `https://${o.domain}/news`, domain: o.domain, first_seen: '2026-11-12T10:00:00Z', mentions_brand: true })] });
    expect((await a.sync()).brands[0]!.cited).toBe(0);
    expect(await evidenceOf(a, o.id)).toBeNull();
    expect(await a.call('results:cited', { brandId: a.brand })).toEqual({ ids: [] });
    expect((await results(a, '2026-11-01', '2026-11-30')).totals).toEqual({ pitched: 0, replied: 0, won: 0, cited: 0 });
    // "I sent these" marks it contacted on the day (export:confirm-sent's own action).
    a.setToday('2026-11-06');
    await a.act([o.id], { do: 'contacted', addresses: [] });
    expect(await evidenceOf(a, o.id)).toMatchObject({ pitched_on: '2026-11-06', since: '2026-11-12', strength: 'new' });
    expect((await results(a, '2026-11-01', '2026-11-30')).totals).toEqual({ pitched: 1, replied: 0, won: 0, cited: 1 });
    await closeApp(a);
  });
});

describe('the automatic Won', () => {
  it('never marks one twice (a Won undone stays undone), never one set to Not a fit, and a sync with nothing kept before it is the baseline', async () => {
    const a = await app();
    const [o, nope, base] = [await opportunityAt(a), await opportunityAt(a), await opportunityAt(a)];
    a.setToday('2026-11-05');
    await a.act([o.id, nope.id, base.id], { do: 'contacted', addresses: [] });
    await a.act([nope.id], { do: 'stage', stage: 'Not a fit' });
    a.setToday(TODAY);
    await a.call('settings:set', { autoMarkWon: true });
    sim.mutate({
      cite: [
        cite({ url: `https://${o.domain}/one`, domain: o.domain, first_seen: '2026-11-08T10:00:00Z', mentions_brand: true }),
        cite({ url: `https://${nope.domain}/one`, domain: nope.domain, first_seen: '2026-11-08T10:00:00Z', mentions_brand: true }),
      ],
    });
    let summary = await a.sync();
    expect(summary.brands[0]).toMatchObject({ cited: 2, markedWon: 1 });
    expect(a.opportunity(o.id)!.item.stage).toBe('Won');
    expect(a.opportunity(nope.id)!.item.stage).toBe('Not a fit');
    await a.call('triage:undo', { brandId: a.brand });
    expect(a.opportunity(o.id)!.item.stage).toBe('Contacted');
    // More evidence at the same outlet, new in the next sync: counted, but the Won the user undid is not marked again.
    sim.mutate({
      cite: [cite({ url: `https://${o.domain}/two`, domain: o.domain, first_seen: '2026-11-15T10:00:00Z', mentions_brand: true, times_cited: 90 })],
    });
    summary = await a.sync();
    expect(summary.brands[0]).toMatchObject({ cited: 1, markedWon: 0 });
    expect(a.opportunity(o.id)!.item.stage).toBe('Contacted');

    // A rebuilt cache (or the first sync after the upgrade): nothing kept, every citation is seen for the first time.
    sim.mutate({ cite: [cite({ url: `https://${base.domain}/one`, domain: base.domain, first_seen: '2026-11-09T10:00:00Z', mentions_brand: true })] });
    a.s.cache.writable.transaction(() => a.s.cache.writable.run(sql`DELETE FROM citation_facts`));
    summary = await a.sync();
    expect(summary.brands[0]).toMatchObject({ cited: 0, markedWon: 0 });
    expect(a.opportunity(base.id)!.item.stage).toBe('Contacted');
    // The evidence is there all the same; it is just not news.
    expect(await evidenceOf(a, base.id)).toMatchObject({ strength: 'new', since: '2026-11-09' });
    await closeApp(a);
  });
});

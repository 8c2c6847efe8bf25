// The simulator's demo outreach over loopback: the demo user's pitches are
// the same for a seed, and get-citations serves pages at their outlets (first
// seen after the pitch, one from before it, the pitched page that begins to
// mention the brand from the second full pass of the citations on), in place
// of generated ones so the count stays the one asked for; and the admin side
// puts in or changes a citation between two syncs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_KEY, startSimulator, type Simulator } from '../../electron/simulator/server';

const OPTIONS = { seed: 7, opportunities: 600, otherBrandOpportunities: 60, brands: 2, citationsPerBrand: 80, today: '2026-11-20' };
let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator(OPTIONS);
});
afterAll(() => sim.close());

type Item = Record<string, unknown> & { url: string; domain: string; first_seen: string; mentions_brand: boolean };

async function page(query: string): Promise<{ items: Item[]; next: string | null }> {
  const res = await fetch(`${sim.url}/get-citations?${query}`, { headers: { Authorization: `Bearer ${DEMO_KEY}` } });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { citations: Item[]; pagination: { next_cursor: string | null } };
  return { items: body.citations, next: body.pagination.next_cursor };
}

/** One full pass over the citations mode, as a sync reads it. */
async function pass(brand: string): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: string | null = null;
  do {
    const p = await page(`brand=${brand}&limit=30${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    items.push(...p.items);
    cursor = p.next;
  } while (cursor);
  return items;
}

describe('the demo outreach', () => {
  it('the same pitches for the same seed, in the last weeks, a few a brand, the oldest first', async () => {
    const again = await startSimulator(OPTIONS);
    try {
      expect(again.pitches()).toEqual(sim.pitches());
    } finally {
      await again.close();
    }
    const [first, second] = sim.pitches();
    expect(first!.pitches).toHaveLength(10);
    expect(second!.pitches).toHaveLength(4);
    for (const p of first!.pitches) {
      expect(p.pitchedOn >= '2026-09-20' && p.pitchedOn <= '2026-11-16').toBe(true);
      expect(['Contacted', 'Replied']).toContain(p.stage);
    }
    expect([...first!.pitches.map((p) => p.pitchedOn)].sort()).toEqual(first!.pitches.map((p) => p.pitchedOn));
  });

  it('citations at the pitched outlets: after the pitch and mentioning the brand, one before it, and the pitched page mentioning it only from the second pass', async () => {
    const brand = sim.brands[0]!.id;
    const pitches = sim.pitches()[0]!.pitches;
    expect(new Set(pitches.map((p) => p.cited))).toEqual(new Set(['outlet-new', 'page-flip', 'page-new', 'before']));
    const first = await pass(brand);
    expect(first).toHaveLength(80);
    // Each pitch's own citation: the pitched page, or the outlet's page named after the pitch's record.
    const at = (items: Item[], p: (typeof pitches)[number]) =>
      items.filter(
        (c) =>
          c.domain === p.domain &&
          (p.cited === 'page-flip' || p.cited === 'page-new'
            ? c.url === p.url
            : c.url.endsWith(p.cited === 'before' ? `-${p.index}-earlier` : `-roundup-${p.index}`)),
      );
    for (const p of pitches.filter((x) => x.cited)) {
      const [c, ...more] = at(first, p);
      expect(more).toEqual([]);
      const day = c!.first_seen.slice(0, 10);
      if (p.cited === 'outlet-new' || p.cited === 'page-new') expect([day >= p.pitchedOn, day <= OPTIONS.today, c!.mentions_brand]).toEqual([true, true, true]);
      if (p.cited === 'before') expect([day < p.pitchedOn, c!.mentions_brand]).toEqual([true, true]);
      if (p.cited === 'page-flip') expect([day < p.pitchedOn, c!.mentions_brand]).toEqual([true, false]);
    }
    // The next whole pass is a later sync's: the pitched page now mentions the brand.
    const flip = pitches.find((p) => p.cited === 'page-flip')!;
    const second = await pass(brand);
    expect(second).toHaveLength(80);
    expect(at(second, flip)[0]!.mentions_brand).toBe(true);
  });

  it('the admin side puts in a citation and changes one at its address, for the next sync', async () => {
    const brand = sim.brands[1]!.id;
    const before = await pass(brand);
    const r = sim.mutate({
      brand,
      cite: [
        { url: 'https://new.example/a', domain: 'new.example', first_seen: '2026-11-19T10:00:00Z', mentions_brand: true, times_cited: 3 },
        { url: before[0]!.url, mentions_brand: !before[0]!.mentions_brand },
      ],
    });
    expect(r.cited).toEqual(['https://new.example/a', before[0]!.url]);
    const after = await pass(brand);
    expect(after).toHaveLength(81);
    expect(after.find((c) => c.url === 'https://new.example/a')).toMatchObject({ domain: 'new.example', mentions_brand: true, times_cited: 3 });
    expect(after.find((c) => c.url === before[0]!.url)).toMatchObject({ ...before[0], mentions_brand: !before[0]!.mentions_brand });
    const bad = await fetch(`${sim.url}/__sim/mutate`, { method: 'POST', body: JSON.stringify({ brand, cite: [{ domain: 'x.example' }] }) });
    expect(bad.status).toBe(400);
  });
});

// `workbench results` over the same cache as the app: two opportunities
// pitched, a later sync bringing a citation at one outlet, and the command's
// funnel and wins, as text and as JSON; its date flags checked before anything.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Cache } from '../../electron/core/store/cache';
import { startSimulator, type Simulator } from '../../electron/simulator/server';
import type { ResultsReport } from '../../shared/results';
import { runCli } from '../support/cli-run';
import { setTriage } from '../support/store';
import { tempDir } from '../support/tmp';

let sim: Simulator;
const tmp = tempDir();
const db = join(tmp.dir, 'workbench.db');
let brand: string;
const cli = (args: string[]) => runCli(args, { url: sim.url, db });

beforeAll(async () => {
  sim = await startSimulator({ seed: 43, opportunities: 40, otherBrandOpportunities: 0, brands: 1, citationsPerBrand: 10, today: '2026-11-20' });
  brand = sim.brands[0]!.id;
  const base = {
    opportunity_type: 'low-hanging-fruit',
    status: 'New',
    archived: false,
    difficulty: 'Easy',
    priority_score: 90,
    fit_score: 80,
    contact_emails: [],
  };
  sim.inject(brand, { ...base, _id: 'cli-a', domain: 'alpha.example', url: 'https://alpha.example/guide', title: 'The alpha guide', site_type: 'niche blog' });
  sim.inject(brand, { ...base, _id: 'cli-b', domain: 'beta.example', url: 'https://beta.example/list', title: 'The beta list', site_type: 'news publication' });
  expect((await cli(['sync', '--no-scores'])).code).toBe(0);
  const cache = await Cache.open(db);
  setTriage(cache, brand, 'cli-a', { stage: 'Contacted', contacted_at: '2026-11-04' });
  setTriage(cache, brand, 'cli-b', { stage: 'Contacted', contacted_at: '2026-11-12' });
  cache.close();
  sim.mutate({
    brand,
    cite: [
      {
        url: 'https://alpha.example/guide',
        domain: 'alpha.example',
        first_seen: '2026-11-09T08:00:00Z',
        mentions_brand: true,
        times_cited: 14,
        prompts: ['best guide'],
      },
    ],
  });
  expect((await cli(['sync', '--no-scores'])).code).toBe(0);
});
afterAll(async () => {
  await sim.close();
  tmp.cleanup();
});

describe('workbench results', () => {
  it('prints the funnel by week and the wins with their evidence', async () => {
    const r = await cli(['results', '--brand', brand, '--from', '2026-11-01', '--to', '2026-11-20']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('2026-11-01 to 2026-11-20');
    expect(r.out).toContain('Pitched 2, replied 0, won 0, cited 1.');
    const lines = r.out.split('\n');
    expect(lines.find((l) => l.startsWith('2026-11-02'))!.split(/\s{2,}/)).toEqual(['2026-11-02', '1', '0', '0', '1']);
    expect(lines.find((l) => l.startsWith('2026-11-09'))!.split(/\s{2,}/)).toEqual(['2026-11-09', '1', '0', '0', '0']);
    expect(lines.find((l) => l.startsWith('TOTAL'))!.split(/\s{2,}/)).toEqual(['TOTAL', '2', '0', '0', '1']);
    expect(r.out).toContain('Wins (1), won or cited in the period:');
    const win = lines.find((l) => l.includes('The alpha guide'))!;
    expect(win).toMatch(
      /^2026-11-09 +The alpha guide +alpha\.example +Contacted +the page pitched, cited: https:\/\/alpha\.example\/guide \(14 citations\) +5$/,
    );
    expect(r.out).toContain('From pitch to first citation: median 5 days (fastest 5, slowest 5) over 1 win.');
  });

  it('--json gives the whole report', async () => {
    const r = await cli(['results', '--brand', brand, '--from', '2026-11-01', '--to', '2026-11-20', '--json']);
    expect(r.code, r.err).toBe(0);
    const report = JSON.parse(r.out) as ResultsReport;
    expect(report.totals).toEqual({ pitched: 2, replied: 0, won: 0, cited: 1 });
    expect(report.wins.map((w) => [w.id, w.evidence?.match, w.evidence?.strength, w.evidence?.days])).toEqual([['cli-a', 'page', 'new', 5]]);
    expect(report.outlets.map((o) => [o.type, o.pitched, o.cited])).toEqual([
      ['news publication', 1, 0],
      ['niche blog', 1, 1],
    ]);
  });

  it('refuses a date that is not one, and a period that ends before it starts (exit 2, nothing read)', async () => {
    const bad = await cli(['results', '--brand', brand, '--from', '2026-13-01']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--from');
    const backwards = await cli(['results', '--brand', brand, '--from', '2026-11-20', '--to', '2026-11-01']);
    expect(backwards.code).toBe(2);
    expect(backwards.err).toContain('--from (2026-11-20) is after --to (2026-11-01)');
    // A start in the future with no end: refused, not turned around.
    const future = await cli(['results', '--brand', brand, '--from', '2999-01-01']);
    expect(future.code).toBe(2);
    expect(future.err).toContain('--from (2999-01-01) is after today');
  });

  it('--to alone runs from the first of its month; --from alone to today', async () => {
    const to = JSON.parse((await cli(['results', '--brand', brand, '--to', '2026-11-20', '--json'])).out) as ResultsReport;
    expect(to.period).toMatchObject({ from: '2026-11-01', to: '2026-11-20' });
    expect(to.totals).toEqual({ pitched: 2, replied: 0, won: 0, cited: 1 });
    const from = JSON.parse((await cli(['results', '--brand', brand, '--from', '2026-11-10', '--json'])).out) as ResultsReport;
    expect(from.period.from).toBe('2026-11-10');
    expect(from.period.to >= '2026-11-20').toBe(true);
    expect(from.totals.pitched).toBe(1);
  });
});

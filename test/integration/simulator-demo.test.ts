// The demo simulator (the app's demo mode) answers the four endpoints with the same data as the full
// simulator, and has no fault injection and no admin routes: /__sim/* is 404, and its module graph
// never reaches faults.ts, admin.ts or rate-limit.ts.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_KEY, startDemoSimulator, type DemoSimulator } from '../../electron/simulator/demo';
import { startSimulator, type Simulator } from '../../electron/simulator/server';

const OPTIONS = { seed: 7, opportunities: 300, otherBrandOpportunities: 40, citationsPerBrand: 120, today: '2026-11-20' };
const auth = { Authorization: `Bearer ${DEMO_KEY}` };
let demo: DemoSimulator;
let full: Simulator;

beforeAll(async () => {
  [demo, full] = await Promise.all([startDemoSimulator(OPTIONS), startSimulator(OPTIONS)]);
});
afterAll(() => Promise.all([demo.close(), full.close()]));

async function call(base: string, path: string, init: RequestInit = { headers: auth }) {
  const res = await fetch(base + path, init);
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as Record<string, any> };
}

describe('the demo simulator', () => {
  const brand = () => demo.brands[0]!.id;
  const endpoints = () => [
    '/get-brands',
    `/get-outreach?brand=${brand()}&limit=50`,
    `/get-scores?brand=${brand()}&breakdown=model`,
    `/get-citations?brand=${brand()}&limit=20`,
  ];

  it('answers the four endpoints with the data the full simulator serves for the same seed', async () => {
    expect(demo.brands).toEqual(full.brands);
    expect(demo.key).toBe(DEMO_KEY);
    for (const path of endpoints()) {
      const [d, f] = await Promise.all([call(demo.url, path), call(full.url, path)]);
      expect(d.status, path).toBe(200);
      expect(d.body, path).toEqual(f.body);
    }
    const scores = await call(demo.url, '/get-scores', { method: 'POST', headers: auth, body: JSON.stringify({ brand: brand() }) });
    expect(scores.status).toBe(200);
    expect(scores.body.data.length).toBeGreaterThan(0);
  });

  it('pages get-outreach to the end with its cursors', async () => {
    let cursor: string | null = null;
    let n = 0;
    do {
      const r = await call(demo.url, `/get-outreach?brand=${brand()}&archived=true&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      n += (r.body.opportunities as unknown[]).length;
      cursor = r.body.pagination.next_cursor as string | null;
    } while (cursor);
    expect(n).toBe(300);
  });

  it('checks the key as the API does: 401 without one, 403 for a key it does not know', async () => {
    expect(await call(demo.url, '/get-brands', {})).toMatchObject({ status: 401, body: { error: 'Missing API key' } });
    expect(await call(demo.url, '/get-brands', { headers: { Authorization: `Bearer sk_live_${'z'.repeat(32)}` } })).toMatchObject({
      status: 403,
      body: { error: 'FORBIDDEN' },
    });
  });

  it('has no admin routes: /__sim/faults, /__sim/mutate and /__sim/state are 404, and change nothing', async () => {
    const before = await call(demo.url, `/get-outreach?brand=${brand()}&limit=500&archived=true`);
    for (const [method, path, body] of [
      ['POST', '/__sim/faults', JSON.stringify({ kind: 'server-error', count: 5 })],
      ['POST', '/__sim/mutate', JSON.stringify({ added: 5, changed: 5, removed: 5 })],
      ['GET', '/__sim/state', undefined],
      ['DELETE', '/__sim/faults', undefined],
    ] as const) {
      const r = await call(demo.url, path, { method, body });
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.body).toMatchObject({ error: 'NOT_FOUND' });
    }
    const after = await call(demo.url, `/get-outreach?brand=${brand()}&limit=500&archived=true`);
    expect(after.status).toBe(200); // no server-error fault took hold
    expect(after.body).toEqual(before.body); // no mutation either
  });

  it('counts the requests it answers', async () => {
    const before = demo.requests;
    await call(demo.url, '/get-brands');
    expect(demo.requests).toBe(before + 1);
  });
});

describe("the demo entry's modules", () => {
  /** The simulator's own modules an entry loads at run time (type-only imports are erased by the build). */
  function runtimeModules(entry: string): string[] {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = readFileSync(file, 'utf8');
      for (const m of source.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+'(\.\/[^']+)'/gm)) visit(join(dirname(file), `${m[1]}.ts`));
    };
    visit(entry);
    return [...seen].map((f) => f.replace(/^.*electron\/simulator\//, ''));
  }

  it('never reach fault injection, rate limiting or the admin routes', () => {
    const modules = runtimeModules('electron/simulator/demo.ts');
    expect(modules).toEqual(expect.arrayContaining(['demo.ts', 'serve.ts', 'routes.ts', 'state.ts', 'store.ts', 'data.ts']));
    expect(modules).not.toContain('faults.ts');
    expect(modules).not.toContain('admin.ts');
    expect(modules).not.toContain('rate-limit.ts');
    expect(modules).not.toContain('server.ts');
  });

  it('the full simulator does reach them (so the walk above sees imports)', () => {
    expect(runtimeModules('electron/simulator/server.ts')).toEqual(expect.arrayContaining(['faults.ts', 'admin.ts', 'rate-limit.ts']));
  });
});

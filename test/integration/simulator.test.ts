// The API simulator behaves as the spec says: endpoints, parameters, auth,
// errors, and every fault on demand. Real HTTP over loopback.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_KEY, startSimulator, type Simulator } from '../../electron/simulator/server';
import { addDays } from '../../shared/calendar';

let sim: Simulator;
const TODAY = '2026-11-20';

beforeAll(async () => {
  sim = await startSimulator({ seed: 7, opportunities: 1234, otherBrandOpportunities: 40, citationsPerBrand: 250, today: TODAY });
});
afterAll(() => sim.close());
beforeEach(() => sim.clearFaults());

const auth = { Authorization: `Bearer ${DEMO_KEY}` };

async function get(path: string, headers: Record<string, string> = auth) {
  const res = await fetch(sim.url + path, { headers });
  const text = await res.text();
  let body: unknown = undefined;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { res, status: res.status, text, body: body as Record<string, any> };
}

async function pageAll(path: string, key = 'opportunities') {
  const items: Record<string, any>[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const r = await get(path + (cursor ? `${sep}cursor=${encodeURIComponent(cursor)}` : ''));
    expect(r.status, r.text).toBe(200);
    items.push(...r.body[key]);
    cursor = r.body.pagination.next_cursor;
    expect(r.body.pagination.has_more).toBe(cursor !== null);
    pages++;
  } while (cursor && pages < 1000);
  return { items, pages };
}

describe('authentication (spec section 5)', () => {
  it('no key: 401 with the message-text form', async () => {
    const r = await get('/get-brands', {});
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ error: 'Missing API key', errors: ["API key must be provided in the Authorization header as 'Bearer <api_key>'"] });
    expect(typeof r.body.timestamp).toBe('string');
  });
  it('a key that matches no account: 403 with the code form', async () => {
    const r = await get('/get-brands', { Authorization: 'Bearer sk_live_' + 'z'.repeat(32) });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ error: 'FORBIDDEN', message: 'Invalid API key', errors: ['No accounts found for this API key'] });
    expect(r.body.request_id).toMatch(/^req_/);
  });
  it('a header without Bearer counts as no key', async () => {
    expect((await get('/get-brands', { Authorization: DEMO_KEY })).status).toBe(401);
  });
  it('the auth store failing: 500 "Authentication error"', async () => {
    sim.addFaults({ kind: 'auth-store-down' });
    const r = await get('/get-brands');
    expect(r.status).toBe(500);
    expect(r.body).toMatchObject({ error: 'Authentication error', errors: ['Could not validate API key against database'] });
    expect((await get('/get-brands')).status).toBe(200);
  });
  it('code form everywhere when asked', async () => {
    const s = await startSimulator({ errorForm: 'code', opportunities: 1 });
    try {
      const r = await fetch(s.url + '/get-brands');
      expect(await r.json()).toMatchObject({ error: 'UNAUTHORIZED', message: 'Missing API key' });
    } finally {
      await s.close();
    }
  });
});

describe('get-brands', () => {
  it('lists brands with ids of the documented shape', async () => {
    const r = await get('/get-brands');
    expect(r.status).toBe(200);
    expect(r.body.brands).toHaveLength(3);
    for (const b of r.body.brands) {
      expect(b.id).toMatch(/^\d{13}x\d{18}$/);
      expect(b.id).toMatch(/^[0-9a-fx]{32}$/);
      expect(typeof b.name).toBe('string');
    }
  });
  it('is deterministic for a seed', async () => {
    const other = await startSimulator({ seed: 7, opportunities: 1 });
    try {
      expect(other.brands).toEqual(sim.brands);
    } finally {
      await other.close();
    }
  });
});

describe('get-outreach', () => {
  const brand = () => sim.brands[0]!.id;

  it('pages to the end by following next_cursor, each record once, sorted by priority', async () => {
    const { items, pages } = await pageAll(`/get-outreach?brand=${brand()}&limit=100`);
    expect(pages).toBeGreaterThan(5);
    const ids = items.map((o) => o._id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(items.every((o) => o.archived === false)).toBe(true);
    for (let i = 1; i < items.length; i++) expect(items[i - 1]!.priority_score).toBeGreaterThanOrEqual(items[i]!.priority_score);
    const withArchived = await pageAll(`/get-outreach?brand=${brand()}&archived=true&limit=500`);
    expect(withArchived.items.length).toBe(1234);
    expect(withArchived.items.some((o) => o.archived)).toBe(true);
  });

  it('the default page size is 100 and limit is bounded 1 to 500', async () => {
    const r = await get(`/get-outreach?brand=${brand()}`);
    expect(r.body.opportunities).toHaveLength(100);
    expect(r.body.pagination).toMatchObject({ limit: 100, has_more: true });
    expect(typeof r.body.pagination.next_cursor).toBe('string');
    for (const bad of ['0', '501', 'ten', '1.5']) {
      const e = await get(`/get-outreach?brand=${brand()}&limit=${bad}`);
      expect(e.status).toBe(400);
      expect(e.body).toMatchObject({ error: 'INVALID_PARAMETER', details: [{ field: 'limit' }] });
    }
  });

  it('records are realistic: both types, every status, contacts with catch-alls and malformed ones, multi-paragraph pitches', async () => {
    const { items } = await pageAll(`/get-outreach?brand=${brand()}&archived=true&limit=500`);
    expect(new Set(items.map((o) => o.opportunity_type))).toEqual(new Set(['low-hanging-fruit', 'publication-gap']));
    expect(new Set(items.map((o) => o.status))).toEqual(new Set(['New', 'In Progress', 'Done', 'Archived']));
    const contacts = items.flatMap((o) => o.contact_emails as string[]);
    expect(contacts.some((c) => c.endsWith(' CATCH'))).toBe(true);
    expect(contacts.some((c) => !c.includes('@'))).toBe(true);
    const counts = new Set(items.map((o) => (o.contact_emails as string[]).length));
    expect([...counts].sort()).toEqual([0, 1, 2, 3, 4]);
    expect(items.every((o) => (o.pitch_body as string).split('\n\n').length >= 4)).toBe(true);
    const lhf = items.find((o) => o.opportunity_type === 'low-hanging-fruit')!;
    expect(lhf.url).toMatch(/^https:\/\//);
    expect(lhf.search_queries[0]).toMatch(/^.+: \d+$/);
    const pg = items.find((o) => o.opportunity_type === 'publication-gap')!;
    expect(pg).toHaveProperty('competitors_winning');
    expect(lhf).toHaveProperty('Created Date');
    expect(lhf).toHaveProperty('Modified Date');
  });

  it('filters by type, status, difficulty and domain substring', async () => {
    const r = await pageAll(`/get-outreach?brand=${brand()}&opportunity_type=publication-gap&status=In%20Progress&difficulty=Hard&domain=.COM&limit=500`);
    expect(r.items.length).toBeGreaterThan(0);
    expect(r.items.length).toBeLessThan(1234 / 10);
    for (const o of r.items) {
      expect(o).toMatchObject({ opportunity_type: 'publication-gap', status: 'In Progress', difficulty: 'Hard' });
      expect(o.domain.toLowerCase()).toContain('.com');
    }
  });

  it('sorts by fit_score and last_seen', async () => {
    for (const [sort, key] of [
      ['fit_score', 'fit_score'],
      ['last_seen', 'last_seen_date'],
    ] as const) {
      const r = await get(`/get-outreach?brand=${brand()}&sort_by=${sort}&limit=200`);
      const values = r.body.opportunities.map((o: any) => (key === 'fit_score' ? o[key] : o[key].slice(0, 10)));
      expect([...values].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0))).toEqual(values);
    }
  });

  it('400 INVALID_PARAMETER with details for a missing or malformed brand and bad enumerations', async () => {
    const missing = await get('/get-outreach');
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: 'INVALID_PARAMETER', message: "The 'brand' parameter is required", details: [{ field: 'brand' }] });
    const bad = await get('/get-outreach?brand=abc&status=Closed&sort_by=title&archived=yes');
    expect(bad.body.details.map((d: any) => d.field).sort()).toEqual(['archived', 'brand', 'sort_by', 'status']);
  });

  it('a brand the key does not reach: 403', async () => {
    const r = await get('/get-outreach?brand=' + '0'.repeat(13) + 'x' + '0'.repeat(18));
    expect(r.status).toBe(403);
    expect(r.body.error).toBe('FORBIDDEN');
  });

  it('cursors are opaque and checked: a forged one is refused', async () => {
    const r = await get(`/get-outreach?brand=${brand()}&cursor=MTA=`);
    expect(r.status).toBe(400);
    expect(r.body.details[0].field).toBe('cursor');
  });
});

describe('get-scores', () => {
  const brand = () => sim.brands[1]!.id;

  it('GET with query parameters: the default 28-day window ending on the latest report date', async () => {
    const r = await get(`/get-scores?brand=${brand()}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      brand_id: brand(),
      brand_name: sim.brands[1]!.name,
      start_date: addDays(TODAY, -28),
      end_date: TODAY,
      breakdown: [],
      errors: null,
    });
    expect(r.body.data.length).toBeGreaterThan(20);
    expect(r.body.data.length).toBeLessThanOrEqual(29);
    for (const p of r.body.data) {
      expect(p.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(p.visibility).toBeGreaterThanOrEqual(0);
      expect(p.presence).toBeLessThanOrEqual(100);
    }
  });

  it('POST with a JSON body and a model+prompt breakdown: extra keys on each entry', async () => {
    const res = await fetch(sim.url + '/get-scores', {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ brand: brand(), breakdown: ['model', 'prompt'], start_date: addDays(TODAY, -90), end_date: TODAY }),
    });
    const body = (await res.json()) as any;
    expect(res.status).toBe(200);
    expect(body.breakdown).toEqual(['model', 'prompt']);
    expect(body.data[0]).toHaveProperty('model');
    expect(body.data[0]).toHaveProperty('prompt');
    const days = new Set(body.data.map((d: any) => d.date));
    expect(days.size).toBeGreaterThan(80);
    expect(days.size).toBeLessThan(91); // some days have no report: gaps, not zeros
  });

  it('GET breakdown as repeated or comma-separated values', async () => {
    const a = await get(`/get-scores?brand=${brand()}&breakdown=model`);
    const b = await get(`/get-scores?brand=${brand()}&breakdown=model,prompt`);
    const c = await get(`/get-scores?brand=${brand()}&breakdown=prompt&breakdown=model`);
    expect(a.body.breakdown).toEqual(['model']);
    expect(b.body.breakdown).toEqual(['model', 'prompt']);
    expect(c.body.breakdown).toEqual(['model', 'prompt']);
  });

  it('refuses a range over 90 days, an invalid breakdown and a bad date with 400', async () => {
    const over = await get(`/get-scores?brand=${brand()}&start_date=${addDays(TODAY, -91)}&end_date=${TODAY}`);
    expect(over.status).toBe(400);
    expect(over.body.details[0].message).toContain('91 days');
    expect((await get(`/get-scores?brand=${brand()}&breakdown=country`)).status).toBe(400);
    expect((await get(`/get-scores?brand=${brand()}&breakdown=model,model`)).status).toBe(400);
    expect((await get(`/get-scores?brand=${brand()}&end_date=2026-02-30`)).status).toBe(400);
    const res = await fetch(sim.url + '/get-scores', { method: 'POST', headers: auth, body: '{not json' });
    expect(res.status).toBe(400);
  });
});

describe('get-citations', () => {
  const brand = () => sim.brands[0]!.id;

  it('mode citations: summary only when unfiltered, pages to the end', async () => {
    const first = await get(`/get-citations?brand=${brand()}`);
    expect(first.body).toMatchObject({ brand_id: brand(), mode: 'citations' });
    expect(first.body.updated_at).toMatch(/\.\d{6}\+00:00$/);
    expect(first.body.summary.total_citations).toBeGreaterThan(0);
    expect(first.body.summary.top_domains[0]).toHaveProperty('citation_share');
    const { items } = await pageAll(`/get-citations?brand=${brand()}&limit=60`, 'citations');
    expect(items).toHaveLength(250);
    const filtered = await get(`/get-citations?brand=${brand()}&domain=com`);
    expect(filtered.body).not.toHaveProperty('summary');
  });

  it('date and domain filters apply to last_seen and domain', async () => {
    const { items } = await pageAll(`/get-citations?brand=${brand()}&start_date=${addDays(TODAY, -30)}&end_date=${TODAY}&domain=wired&limit=500`, 'citations');
    for (const c of items) {
      expect(c.domain).toContain('wired');
      expect(c.last_seen.slice(0, 10) >= addDays(TODAY, -30)).toBe(true);
    }
  });

  it('modes search-queries (with the query filter) and knowledge', async () => {
    const sq = await get(`/get-citations?brand=${brand()}&mode=search-queries&query=best&limit=500`);
    expect(sq.status).toBe(200);
    expect(sq.body.search_queries.length).toBeGreaterThan(0);
    for (const q of sq.body.search_queries) expect(q.query).toContain('best');
    const kb = await get(`/get-citations?brand=${brand()}&mode=knowledge`);
    expect(kb.body.knowledge.length).toBeGreaterThan(0);
    expect((await get(`/get-citations?brand=${brand()}&mode=everything`)).status).toBe(400);
    expect((await get(`/get-citations?brand=${brand()}&start_date=2026-1-1`)).status).toBe(400);
  });
});

describe('faults on demand', () => {
  const brandQ = () => `/get-outreach?brand=${sim.brands[0]!.id}&limit=5`;

  it('429 with Retry-After and X-RateLimit-* headers, in each body form', async () => {
    for (const body of ['code', 'object', 'text'] as const) {
      sim.addFaults({ kind: 'rate-limit', retryAfter: 3, body });
      const r = await get(brandQ());
      expect(r.status).toBe(429);
      expect(r.res.headers.get('retry-after')).toBe('3');
      expect(Number(r.res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(1e9);
      expect(r.res.headers.get('x-ratelimit-remaining')).toBe('0');
      if (body === 'code') expect(r.body).toMatchObject({ error: 'RATE_LIMIT_EXCEEDED', message: 'API rate limit exceeded. Please try again later.' });
      if (body === 'object') expect(r.body.error).toMatchObject({ code: 'rate_limit_exceeded' });
      if (body === 'text') expect(r.body.error).toMatch(/^Rate limit exceeded: \d+ per 1 minute$/);
    }
    sim.addFaults({ kind: 'rate-limit', retryAfter: null, reset: 'none', body: 'none' });
    const bare = await get(brandQ());
    expect(bare.status).toBe(429);
    expect(bare.res.headers.get('retry-after')).toBeNull();
    expect((await get(brandQ())).status).toBe(200);
  });

  it('a rate limit of N requests per minute', async () => {
    sim.setRateLimit(3);
    try {
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await get('/get-brands')).status);
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      const r = await get('/get-brands');
      expect(Number(r.res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(r.res.headers.get('x-ratelimit-limit')).toBe('3');
    } finally {
      sim.setRateLimit(0);
    }
  });

  it('5xx bursts, then recovery', async () => {
    sim.addFaults({ kind: 'server-error', count: 2, status: 503 });
    expect((await get(brandQ())).status).toBe(503);
    expect((await get(brandQ())).status).toBe(503);
    expect((await get(brandQ())).status).toBe(200);
  });

  it('a dropped connection', async () => {
    sim.addFaults({ kind: 'drop' });
    await expect(fetch(sim.url + brandQ(), { headers: auth })).rejects.toThrow();
    expect((await get(brandQ())).status).toBe(200);
  });

  it('a truncated body and a non-JSON body', async () => {
    sim.addFaults({ kind: 'truncate' });
    const t = await get(brandQ());
    expect(t.status).toBe(200);
    expect(t.body).toBeUndefined();
    expect(t.text.length).toBeGreaterThan(10);
    sim.addFaults({ kind: 'non-json', status: 502 });
    const n = await get(brandQ());
    expect(n.status).toBe(502);
    expect(n.text).toContain('<html>');
  });

  it('latency', async () => {
    sim.addFaults({ kind: 'latency', ms: 150 });
    const t0 = Date.now();
    await get('/get-brands');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
  });

  it('a repeating cursor', async () => {
    const first = await get(brandQ());
    const cursor = first.body.pagination.next_cursor as string;
    sim.addFaults({ kind: 'repeat-cursor' });
    const second = await get(`${brandQ()}&cursor=${encodeURIComponent(cursor)}`);
    expect(second.body.pagination.next_cursor).toBe(cursor);
  });

  it('faults can be set over the admin endpoint, scoped to a path', async () => {
    const res = await fetch(sim.url + '/__sim/faults', { method: 'POST', body: JSON.stringify({ kind: 'server-error', path: '/get-scores' }) });
    expect(res.status).toBe(200);
    expect((await get('/get-brands')).status).toBe(200);
    expect((await get(`/get-scores?brand=${sim.brands[0]!.id}`)).status).toBe(500);
    const bad = await fetch(sim.url + '/__sim/faults', { method: 'POST', body: JSON.stringify({ kind: 'meteor' }) });
    expect(bad.status).toBe(400);
  });
});

describe('data that changes between syncs', () => {
  it('records added, changed and removed', async () => {
    const s = await startSimulator({ seed: 3, opportunities: 300, today: TODAY });
    try {
      const all = async () => {
        const out = new Map<string, any>();
        let cursor: string | null = null;
        do {
          const r = await fetch(
            `${s.url}/get-outreach?brand=${s.brands[0]!.id}&archived=true&limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
            { headers: auth },
          );
          const b = (await r.json()) as any;
          for (const o of b.opportunities) out.set(o._id, o);
          cursor = b.pagination.next_cursor;
        } while (cursor);
        return out;
      };
      const before = await all();
      const res = await fetch(s.url + '/__sim/mutate', { method: 'POST', body: JSON.stringify({ added: 5, changed: 4, removed: 3 }) });
      const m = (await res.json()) as { added: string[]; changed: string[]; removed: string[] };
      const after = await all();
      expect(after.size).toBe(before.size + 5 - 3);
      for (const id of m.added) expect(before.has(id) || !after.has(id)).toBe(false);
      for (const id of m.removed) expect(after.has(id)).toBe(false);
      for (const id of m.changed) {
        expect(after.get(id)['Modified Date']).not.toBe(before.get(id)['Modified Date']);
        expect(after.get(id).title).not.toBe(before.get(id).title);
      }
    } finally {
      await s.close();
    }
  });

  it('a large brand is served without building it all: 100,000 records, the last page reachable', async () => {
    const s = await startSimulator({ seed: 1, opportunities: 100_000, brands: 1 });
    try {
      const r = await fetch(`${s.url}/get-outreach?brand=${s.brands[0]!.id}&archived=true&limit=500`, { headers: auth });
      const b = (await r.json()) as any;
      expect(b.opportunities).toHaveLength(500);
      expect(b.pagination.has_more).toBe(true);
      const state = (await (await fetch(s.url + '/__sim/state')).json()) as any;
      expect(state.brands[0].opportunities).toBe(100_000);
    } finally {
      await s.close();
    }
  });

  it('hostile records can be injected', async () => {
    const s = await startSimulator({ opportunities: 2, brands: 1 });
    try {
      s.inject(s.brands[0]!.id, { _id: 'evil', title: '<script>alert(1)</script>', url: 'javascript:alert(1)', priority_score: 100, domain: 'evil.example' });
      const r = await fetch(`${s.url}/get-outreach?brand=${s.brands[0]!.id}`, { headers: auth });
      const b = (await r.json()) as any;
      expect(b.opportunities[0]).toMatchObject({ _id: 'evil', title: '<script>alert(1)</script>' });
    } finally {
      await s.close();
    }
  });
});

describe('routing', () => {
  it('unknown paths are 404 and wrong methods 405, as JSON', async () => {
    expect((await get('/get-nothing')).status).toBe(404);
    const r = await fetch(sim.url + '/get-outreach', { method: 'DELETE', headers: auth });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET');
  });
});

// The real HTTP client against the project's simulator over loopback.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_KEY, startSimulator, type Simulator } from '../../../electron/simulator/server';
import { TrakkrClient, parseRateLimitReset, parseRetryAfter, type WaitInfo } from '../../../electron/core/api/client';
import { ApiError } from '../../../electron/core/api/errors';
import { MemorySecretStore } from '../../../electron/core/seams';
import { FakeClock } from '../../support/fake-clock';

let sim: Simulator;
const TODAY = '2026-11-20';
beforeAll(async () => {
  sim = await startSimulator({ seed: 11, opportunities: 1300, otherBrandOpportunities: 30, citationsPerBrand: 120, today: TODAY });
});
afterAll(() => sim.close());
beforeEach(() => {
  sim.clearFaults();
  sim.setRateLimit(0);
});

function client(extra: Partial<ConstructorParameters<typeof TrakkrClient>[0]> = {}) {
  const clock = new FakeClock();
  const waits: WaitInfo[] = [];
  const c = new TrakkrClient({ baseUrl: sim.url, apiKey: DEMO_KEY, clock, requestsPerMinute: 0, random: () => 0.5, onWait: (w) => waits.push(w), ...extra });
  return { c, clock, waits };
}

async function expectApiError(p: Promise<unknown>, kind: string): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).kind).toBe(kind);
    return e as ApiError;
  }
  throw new Error(`expected an ApiError of kind ${kind}`);
}

describe('inputs are checked before any request', () => {
  it('refuses bad brand ids, dates, ranges, breakdowns, limits and filters without touching the network', async () => {
    const { c } = client();
    const before = sim.requests;
    const brand = sim.brands[0]!.id;
    const cases: [Promise<unknown>, string][] = [
      [c.outreachPage({ brand: 'abc' }), 'brand'],
      [c.outreachPage({ brand, limit: 501 }), 'limit'],
      [c.outreachPage({ brand, limit: 0 }), 'limit'],
      [c.outreachPage({ brand, status: 'Closed' as never }), 'status'],
      [c.scores({ brand, start_date: '2026-01-01', end_date: '2026-04-02' }), 'end_date'],
      [c.scores({ brand, end_date: '2026-02-30' }), 'end_date'],
      [c.scores({ brand, breakdown: ['model', 'model'] as never }), 'breakdown'],
      [c.citationsPage({ brand, mode: 'citations', query: 'x' }), 'query'],
      [c.citationsPage({ brand, start_date: '2026-1-1' }), 'start_date'],
      [c.citationsPage({ brand, mode: 'knowledge', start_date: '2026-01-01' }), 'start_date'],
    ];
    for (const [p, field] of cases) {
      const e = await expectApiError(p, 'invalid-input');
      expect(e.field).toBe(field);
    }
    expect(() => c.outreachPages({ brand: 'nope' })).toThrow(ApiError);
    expect(sim.requests).toBe(before);
  });

  it('no key at all is a clear error, not a request', async () => {
    const c = new TrakkrClient({ baseUrl: sim.url, secrets: new MemorySecretStore(), requestsPerMinute: 0 });
    const before = sim.requests;
    const e = await expectApiError(c.brands(), 'no-key');
    expect(e.message).toContain('No API key is stored');
    expect(sim.requests).toBe(before);
  });

  it('refuses a base URL the key must not go to, in plain words, before any request', () => {
    const never: typeof fetch = async () => {
      throw new Error('no request may be made');
    };
    const refused = (baseUrl: string) => {
      try {
        new TrakkrClient({ baseUrl, apiKey: DEMO_KEY, fetch: never });
      } catch (e) {
        return e;
      }
      return null;
    };
    const e = refused('http://example.com');
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({
      kind: 'invalid-input',
      field: 'baseUrl',
      message:
        'Nothing was sent. http:// sends the key unencrypted, so it is allowed only for this computer (localhost, 127.x.x.x or [::1]), for the simulator. Use https://example.com instead.',
    });
    for (const bad of [
      'ftp://api.trakkr.ai',
      'https://user:pw@api.trakkr.ai',
      'http://127.0.0.1.evil.com',
      'http://localhost.evil.com',
      'http://0x7f000001',
      'https://api.trakkr.ai/?k=1',
      'not a url',
    ]) {
      expect(refused(bad), bad).toMatchObject({ kind: 'invalid-input', field: 'baseUrl' });
    }
    // The simulator on loopback, the default, and https elsewhere are fine; a trailing slash is dropped.
    expect(new TrakkrClient({ baseUrl: sim.url + '/' }).baseUrl).toBe(sim.url);
    expect(new TrakkrClient({}).baseUrl).toBe('https://api.trakkr.ai');
    expect(new TrakkrClient({ baseUrl: 'http://[::1]:8787' }).baseUrl).toBe('http://[::1]:8787');
    expect(new TrakkrClient({ baseUrl: 'https://proxy.example/trakkr' }).baseUrl).toBe('https://proxy.example/trakkr');
  });
});

describe('endpoints', () => {
  it('brands, every outreach page, scores by GET and POST, citations in three modes', async () => {
    const { c } = client({ apiKey: undefined, secrets: new MemorySecretStore(DEMO_KEY) });
    const { brands } = await c.brands();
    expect(brands.map((b) => b.id)).toEqual(sim.brands.map((b) => b.id));
    let n = 0;
    for await (const p of c.outreachPages({ brand: brands[0]!.id, archived: true, limit: 500 })) n += p.items.length;
    expect(n).toBe(1300);
    const get = await c.scores({ brand: brands[0]!.id });
    expect(get.response).toMatchObject({ brand_id: brands[0]!.id, brand_name: brands[0]!.name, breakdown: [] });
    const post = await c.scores({ brand: brands[0]!.id, breakdown: ['model'], start_date: '2026-09-01', end_date: TODAY });
    expect(post.response.breakdown).toEqual(['model']);
    expect(post.points[0]).toHaveProperty('model');
    const viaGet = await c.scores({ brand: brands[0]!.id, breakdown: ['prompt'] }, { method: 'GET' });
    expect(viaGet.points[0]).toHaveProperty('prompt');
    const cit = await c.citationsPage({ brand: brands[0]!.id });
    expect(cit.summary).toHaveProperty('total_citations');
    expect(cit.items[0]).toHaveProperty('times_cited');
    const sq = await c.citationsPage({ brand: brands[0]!.id, mode: 'search-queries', query: 'best' });
    expect(sq.items.length).toBeGreaterThan(0);
    const kb = await c.citationsPage({ brand: brands[0]!.id, mode: 'knowledge' });
    expect(kb.items[0]).toHaveProperty('metadata');
  });

  it('a field of the wrong type is dropped with a warning; the record is kept', async () => {
    const s = await startSimulator({ opportunities: 3, brands: 1 });
    try {
      s.inject(s.brands[0]!.id, { _id: 'odd', title: 'Odd', priority_score: 'high', contact_emails: 'a@b.com', archived: false });
      const c = new TrakkrClient({ baseUrl: s.url, apiKey: DEMO_KEY, requestsPerMinute: 0 });
      const page = await c.outreachPage({ brand: s.brands[0]!.id });
      const odd = page.items.find((o) => o._id === 'odd')!;
      expect(odd.title).toBe('Odd');
      expect(odd).not.toHaveProperty('priority_score');
      expect(page.warnings).toHaveLength(2);
    } finally {
      await s.close();
    }
  });
});

describe('authentication failures stop at once', () => {
  it('403 with words a person understands, one request only', async () => {
    const { c } = client({ apiKey: 'sk_live_' + 'Q'.repeat(32) });
    const before = sim.requests;
    const e = await expectApiError(c.brands(), 'key-rejected');
    expect(e.message).toBe(
      'The API key was rejected (403): No accounts found for this API key. Check the key in your Trakkr account settings and paste it again.',
    );
    expect(e.status).toBe(403);
    expect(e.message).not.toContain('Q'.repeat(32));
    expect(sim.requests).toBe(before + 1);
  });
  it('401 in the message-text form', async () => {
    const c = new TrakkrClient({ baseUrl: sim.url, apiKey: ' ', requestsPerMinute: 0 });
    const e = await expectApiError(c.brands(), 'key-rejected');
    expect(e.message).toBe(
      "The API key was not accepted (401): API key must be provided in the Authorization header as 'Bearer <api_key>'. Check the key in your Trakkr account settings and paste it again.",
    );
    expect(e.status).toBe(401);
  });
});

describe('429', () => {
  it('honours Retry-After in seconds, for each body form, then succeeds', async () => {
    const { c, clock, waits } = client();
    sim.addFaults(
      { kind: 'rate-limit', retryAfter: 3, body: 'code' },
      { kind: 'rate-limit', retryAfter: 4, body: 'object' },
      { kind: 'rate-limit', retryAfter: 2, body: 'text' },
    );
    const { brands } = await c.brands();
    expect(brands).toHaveLength(3);
    expect(clock.sleeps).toEqual([3000, 4000, 2000]);
    expect(waits.map((w) => [w.reason, w.seconds, w.capped])).toEqual([
      ['rate-limit', 3, false],
      ['rate-limit', 4, false],
      ['rate-limit', 2, false],
    ]);
    expect(waits[0]!.message).toContain('API rate limit exceeded');
  });

  it('without Retry-After uses X-RateLimit-Reset, and with neither backs off towards a minute', async () => {
    const { c, clock } = client();
    sim.addFaults({ kind: 'rate-limit', retryAfter: null, reset: 'seconds' });
    await c.brands();
    expect(clock.sleeps).toEqual([60_000]);
    const b = client();
    sim.addFaults({ kind: 'rate-limit', retryAfter: null, reset: 'none', body: 'none', count: 3 });
    await b.c.brands();
    expect(b.clock.sleeps).toEqual([5000, 10000, 20000]);
  });

  it('a long Retry-After is capped at the maximum wait, and the cap is reported', async () => {
    const { c, clock, waits } = client({ maxWaitMs: 90_000 });
    sim.addFaults({ kind: 'rate-limit', retryAfter: 3600 });
    await c.brands();
    expect(clock.sleeps).toEqual([90_000]);
    expect(waits[0]).toMatchObject({ capped: true, seconds: 90 });
  });

  it('gives up after the allowed number of waits with a clear error', async () => {
    const { c } = client({ maxRateLimitRetries: 2 });
    sim.addFaults({ kind: 'rate-limit', count: 5, retryAfter: 1, body: 'text' });
    const e = await expectApiError(c.brands(), 'rate-limited');
    expect(e.message).toMatch(/^The service is rate-limiting requests \(429\): Rate limit exceeded: 60 per 1 minute/);
    sim.clearFaults();
  });

  it('header parsing: seconds, HTTP dates, Unix times', () => {
    const now = Date.UTC(2026, 0, 1, 0, 0, 0);
    expect(parseRetryAfter('120', now)).toBe(120);
    expect(parseRetryAfter(new Date(now + 30_000).toUTCString(), now)).toBe(30);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRateLimitReset(String(now / 1000 + 42), now)).toBe(42);
    expect(parseRateLimitReset('42', now)).toBe(42);
    expect(parseRateLimitReset(null, now)).toBeNull();
  });

  it("the simulator's per-minute limit, met through the steady pace", async () => {
    sim.setRateLimit(5);
    const clock = new FakeClock();
    const c = new TrakkrClient({ baseUrl: sim.url, apiKey: DEMO_KEY, clock, requestsPerMinute: 60 });
    for (let i = 0; i < 3; i++) await c.brands();
    expect(clock.sleeps).toEqual([1000, 1000]);
  });
});

describe('5xx, dropped connections and bad bodies', () => {
  it('retries 5xx with capped exponential backoff and jitter, then succeeds', async () => {
    const { c, clock, waits } = client();
    sim.addFaults({ kind: 'server-error', count: 3, status: 503 });
    await c.brands();
    expect(clock.sleeps).toEqual([375, 750, 1500]); // base 0.5, 1, 2 s; jitter 0.5 -> three quarters
    expect(waits.every((w) => w.reason === 'retry')).toBe(true);
  });
  it('gives up after the allowed tries, with the status said', async () => {
    const { c } = client({ maxAttempts: 3 });
    sim.addFaults({ kind: 'server-error', count: 3 });
    const e = await expectApiError(c.brands(), 'service-error');
    expect(e.message).toBe('The service had an error (500): An unexpected error occurred Gave up after 3 tries.');
  });
  it('retries a dropped connection, a truncated body and a non-JSON page', async () => {
    const { c, clock } = client();
    sim.addFaults({ kind: 'drop' }, { kind: 'truncate' }, { kind: 'non-json' });
    const { brands } = await c.brands();
    expect(brands).toHaveLength(3);
    expect(clock.sleeps).toHaveLength(3);
  });
  it('a service that cannot be reached is a network error in plain words', async () => {
    const closed = await startSimulator({ opportunities: 1, brands: 1 });
    await closed.close(); // a port that was just free: nothing listens there now
    const c = new TrakkrClient({ baseUrl: closed.url, apiKey: DEMO_KEY, requestsPerMinute: 0, maxAttempts: 2, clock: new FakeClock() });
    const e = await expectApiError(c.brands(), 'service-unreachable');
    expect(e.message).toBe(`Could not reach the service at 127.0.0.1:${closed.port} (connection refused). Gave up after 2 tries.`);
  });
  it('a request that hangs times out and is retried', async () => {
    const { c } = client({ timeoutMs: 100, maxAttempts: 2 });
    sim.addFaults({ kind: 'latency', ms: 400 });
    const { brands } = await c.brands();
    expect(brands).toHaveLength(3);
  });
});

describe('cursors and cancellation', () => {
  it('a cursor seen twice ends the loop with an error', async () => {
    const { c } = client();
    sim.addFaults({ kind: 'repeat-cursor' });
    let pages = 0;
    const e = await expectApiError(
      (async () => {
        for await (const _ of c.outreachPages({ brand: sim.brands[0]!.id, limit: 100 })) pages++;
      })(),
      'bad-response',
    );
    expect(pages).toBe(2);
    expect(e.message).toContain('already given');
  });
  it('cancel during a wait stops at once', async () => {
    const controller = new AbortController();
    const c = new TrakkrClient({ baseUrl: sim.url, apiKey: DEMO_KEY, requestsPerMinute: 0 });
    sim.addFaults({ kind: 'rate-limit', retryAfter: 30 });
    const p = c.brands(controller.signal);
    setTimeout(() => controller.abort(), 50);
    const t0 = Date.now();
    await expectApiError(p, 'cancelled');
    expect(Date.now() - t0).toBeLessThan(5000);
  });
});

describe('the key never leaves in a message', () => {
  it('redacts a key echoed back by the service, in message and cause', async () => {
    const key = 'sk_live_' + 'K'.repeat(32);
    const echo: typeof fetch = async (_url, init) => {
      const auth = String((init?.headers as Record<string, string>).Authorization);
      return new Response(JSON.stringify({ error: `Invalid API key ${auth}`, errors: [`key was ${key}`] }), { status: 403 });
    };
    const c = new TrakkrClient({ baseUrl: 'https://api.trakkr.ai', apiKey: key, fetch: echo, requestsPerMinute: 0 });
    const e = await expectApiError(c.brands(), 'key-rejected');
    expect(e.message).not.toContain(key);
    expect(e.message).toContain('sk_live_[redacted]');
    const boom: typeof fetch = async () => {
      throw new TypeError(`fetch failed for ${key}`);
    };
    const c2 = new TrakkrClient({ apiKey: key, fetch: boom, requestsPerMinute: 0, maxAttempts: 1 });
    const e2 = await expectApiError(c2.brands(), 'service-unreachable');
    expect(`${e2.message} ${String(e2.cause)} ${e2.stack}`).not.toContain(key);
  });
});

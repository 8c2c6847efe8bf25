// A service that misbehaves, in front of the simulator, met by the real
// `workbench sync`: a redirect to another origin (the answer is never taken
// as the brand's data), pagination that never ends (empty pages that keep
// promising more; page one served again under new cursors), and an error
// text that echoes the key without its prefix or URL-encoded (redacted from
// the output and from what the cache stores). Each stops with a plain error,
// and what the cache held stays as it was: nothing marked removed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DEMO_KEY, startSimulator, type Simulator } from '../../../electron/simulator/server';
import { TrakkrClient } from '../../../electron/core/api/client';
import { Cache } from '../../../electron/core/store/cache';
import { runSync } from '../../../electron/core/sync';
import { electronFetch } from '../../../electron/core-process/deps';
import { runCli } from '../../support/cli-run';
import { tempDir } from '../../support/tmp';

const tmp = tempDir();
let sim: Simulator;
let brand: string;
const OPPORTUNITIES = 1200;
const SECRET = DEMO_KEY.slice('sk_live_'.length);

type Answer = { status: number; headers?: Record<string, string>; body?: string } | 'pass';
interface Hostile {
  url: string;
  /** Requests it was sent, with whether they carried the key. */
  seen: { path: string; auth: boolean }[];
  close: () => Promise<void>;
}

/** A service at its own origin: `answer` decides each request, or passes it on to the simulator. */
async function hostile(answer: (url: URL, req: IncomingMessage) => Promise<Answer> | Answer): Promise<Hostile> {
  const seen: Hostile['seen'] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    seen.push({ path: url.pathname, auth: typeof req.headers.authorization === 'string' });
    void (async () => {
      let a = await answer(url, req);
      if (a === 'pass') {
        const r = await fetch(sim.url + url.pathname + url.search, { headers: { authorization: req.headers.authorization ?? '' } });
        a = { status: r.status, body: await r.text(), headers: { 'content-type': 'application/json' } };
      }
      res.writeHead(a.status, a.headers ?? { 'content-type': 'application/json' });
      res.end(a.body ?? '');
    })().catch((e: unknown) => {
      res.writeHead(500);
      res.end(String(e));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** The simulator's answer to this request, as JSON (with the demo key, whatever the request carried). */
async function fromSim(url: URL): Promise<Record<string, unknown>> {
  const r = await fetch(sim.url + url.pathname + url.search, { headers: { authorization: `Bearer ${DEMO_KEY}` } });
  return (await r.json()) as Record<string, unknown>;
}

const db = join(tmp.dir, 'workbench.db');
const sync = (url: string) => runCli(['sync', '--no-scores', '--no-citations'], { url, db });

function cacheState() {
  const d = new Database(db, { readonly: true });
  try {
    return {
      live: (d.prepare('SELECT count(*) AS n FROM opportunities WHERE removed_on_server = 0').get() as { n: number }).n,
      removed: (d.prepare('SELECT count(*) AS n FROM opportunities WHERE removed_on_server = 1').get() as { n: number }).n,
      errors: (d.prepare('SELECT error FROM sync_runs WHERE error IS NOT NULL').all() as { error: string }[]).map((r) => r.error),
    };
  } finally {
    d.close();
  }
}

beforeAll(async () => {
  sim = await startSimulator({ seed: 23, opportunities: OPPORTUNITIES, otherBrandOpportunities: 0, brands: 1, citationsPerBrand: 0 });
  brand = sim.brands[0]!.id;
  const first = await sync(sim.url);
  expect(first.code, first.err).toBe(0);
  expect(cacheState()).toMatchObject({ live: OPPORTUNITIES, removed: 0 });
});
afterAll(async () => {
  await sim.close();
  tmp.cleanup();
});

describe('a redirect to another origin', () => {
  it.each([301, 302, 307, 308])('%i: never taken as data; the sync stops with a plain error (exit 4), nothing is marked removed', async (status) => {
    // The other origin answers like the service would, with one record: the page a careless client would take.
    const elsewhere = await hostile(async (url) => {
      const page = await fromSim(url);
      return {
        status: 200,
        body: JSON.stringify({
          ...page,
          opportunities: (page.opportunities as unknown[]).slice(0, 1),
          pagination: { limit: 500, has_more: false, next_cursor: null },
        }),
      };
    });
    const service = await hostile((url) =>
      url.pathname === '/get-outreach' ? { status, headers: { location: `${elsewhere.url}${url.pathname}${url.search}` } } : 'pass',
    );
    try {
      const r = await sync(service.url);
      expect(r.code).toBe(4);
      expect(r.err).toContain(`opportunities failed: The service at ${service.url} sent the request on to another address (${elsewhere.url}).`);
      expect(r.err).toContain('The answer was not used.');
      expect(r.out + r.err).not.toMatch(/Done in/);
      // Tried once, not again and again; and the other origin never saw the key, nor any request at all (not even the query string).
      expect(service.seen.filter((s) => s.path === '/get-outreach')).toHaveLength(1);
      expect(elsewhere.seen.every((s) => !s.auth)).toBe(true);
      expect(elsewhere.seen).toEqual([]);
      expect(cacheState()).toMatchObject({ live: OPPORTUNITIES, removed: 0 });
    } finally {
      await service.close();
      await elsewhere.close();
    }
  });
});

describe('a redirect of a request with a body (POST get-scores, 307 and 308 keep the body)', () => {
  it.each([307, 308])('%i: the body never goes on to the other address; the scores fail with a plain error (exit 4)', async (status) => {
    const elsewhere = await hostile(() => ({ status: 200, body: '{}' }));
    const service = await hostile((url, req) =>
      url.pathname === '/get-scores' && req.method === 'POST' ? { status, headers: { location: `${elsewhere.url}/get-scores` } } : 'pass',
    );
    try {
      const r = await runCli(['sync', '--no-citations'], { url: service.url, db });
      expect(r.code).toBe(4);
      expect(r.err).toContain(`scores failed: The service at ${service.url} sent the request on to another address (${elsewhere.url}).`);
      expect(elsewhere.seen).toEqual([]);
    } finally {
      await service.close();
      await elsewhere.close();
    }
  });
});

describe('a redirect through the app’s transport (Electron’s net.fetch, which cancels a redirect it is told not to follow)', () => {
  it('refused as a bad answer at once, not retried as a network failure; the other address asked nothing', async () => {
    const elsewhere = await hostile(() => ({ status: 200, body: '{}' }));
    const service = await hostile((url) => ({ status: 302, headers: { location: `${elsewhere.url}${url.pathname}${url.search}` } }));
    // Shaped as Electron's net.fetch: a URL as text; under redirect 'manual', a redirect ends in "Redirect was cancelled".
    const net = {
      fetch: async (input: string | Request, init?: RequestInit) => {
        const res = await fetch(input, init);
        if (init?.redirect === 'manual' && res.status >= 300 && res.status < 400) {
          await res.body?.cancel();
          throw new Error('Redirect was cancelled');
        }
        return res;
      },
    };
    try {
      const client = new TrakkrClient({ baseUrl: service.url, apiKey: DEMO_KEY, fetch: electronFetch({ net }), requestsPerMinute: 0 });
      const failure = await client.brands().catch((e: unknown) => e);
      expect(failure).toMatchObject({
        kind: 'bad-response',
        message: `The service at ${service.url} answered with a redirect (cancelled) instead of data. The answer was not used. Check the API address (Settings, or --base-url); if it is right, the service is at fault.`,
      });
      expect(service.seen).toHaveLength(1);
      expect(elsewhere.seen).toEqual([]);
    } finally {
      await service.close();
      await elsewhere.close();
    }
  });
});

describe('pagination that never ends', () => {
  it('empty pages that keep promising more: stops after three with a plain error; nothing marked removed', async () => {
    let n = 0;
    const service = await hostile((url) =>
      url.pathname === '/get-outreach'
        ? { status: 200, body: JSON.stringify({ brand_id: brand, opportunities: [], pagination: { limit: 500, has_more: true, next_cursor: `c${++n}` } }) }
        : 'pass',
    );
    try {
      const r = await sync(service.url);
      expect(r.code).toBe(4);
      expect(r.err).toContain('The service sent 3 empty pages in a row while saying more would follow; stopped so as not to fetch forever.');
      // The three empty pages, and not one request more.
      expect(service.seen.filter((s) => s.path === '/get-outreach').length).toBeLessThanOrEqual(4);
      expect(cacheState()).toMatchObject({ live: OPPORTUNITIES, removed: 0 });
    } finally {
      await service.close();
    }
  });

  it('a service that ignores the cursor and serves page one under new cursors: stops at the repeat; nothing marked removed', async () => {
    let n = 0;
    const service = await hostile(async (url) => {
      if (url.pathname !== '/get-outreach') return 'pass';
      url.searchParams.delete('cursor');
      const page = await fromSim(url);
      return { status: 200, body: JSON.stringify({ ...page, pagination: { ...(page.pagination as object), has_more: true, next_cursor: `fresh-${++n}` } }) };
    });
    try {
      const r = await sync(service.url);
      expect(r.code).toBe(4);
      expect(r.err).toContain('The service sent a page it had already sent, under a new cursor (page 2)');
      expect(service.seen.filter((s) => s.path === '/get-outreach').length).toBeLessThanOrEqual(3);
      expect(cacheState()).toMatchObject({ live: OPPORTUNITIES, removed: 0 });
    } finally {
      await service.close();
    }
  });
});

describe('the key echoed back by the service', () => {
  const echoes = [
    ['without its prefix', SECRET],
    ['URL-encoded', encodeURIComponent(DEMO_KEY).replace(/_/g, '%5F')],
    ['partly percent-encoded', `sk_live_${SECRET.slice(0, 5)}%${SECRET.charCodeAt(5).toString(16)}${SECRET.slice(6)}`],
  ] as const;
  it.each(echoes)('%s: redacted from what the command prints and from sync_runs.error', async (_, echo) => {
    const service = await hostile((url) =>
      url.pathname === '/get-outreach'
        ? {
            status: 400,
            body: JSON.stringify({
              error: 'INVALID_PARAMETER',
              message: `Key ${echo} may not list outreach for this brand`,
              timestamp: new Date().toISOString(),
            }),
          }
        : 'pass',
    );
    try {
      const r = await sync(service.url);
      expect(r.code).toBe(4);
      expect(r.err).toMatch(/opportunities failed: The service refused the request \(400\): Key sk_live_\[redacted\] may not list outreach/);
      const printed = r.out + r.err;
      const stored = cacheState().errors.join('\n');
      for (const text of [printed, stored]) {
        expect(text).not.toContain(SECRET.slice(0, 12));
        expect(text).not.toContain(SECRET.slice(-12));
        expect(text).not.toContain(echo);
      }
      expect(stored).toContain('Key sk_live_[redacted] may not list outreach');
    } finally {
      await service.close();
    }
  });
});

describe('the service’s words in a failure, on a terminal', () => {
  const HOSTILE = 'Brand \u001b[2J\u001b[31mnot found\u001b[0m \u202eelbat\u202c \u0007 ok';
  it.each([
    ['sync', () => ['sync', '--no-scores', '--no-citations']],
    ['brands', () => ['brands']],
  ])('`workbench %s`: escape sequences and bidirectional controls in its error text never reach the terminal raw', async (_, args) => {
    const service = await hostile((url) =>
      url.pathname === (args()[0] === 'brands' ? '/get-brands' : '/get-outreach')
        ? { status: 400, body: JSON.stringify({ error: 'INVALID_PARAMETER', message: HOSTILE, timestamp: new Date().toISOString() }) }
        : 'pass',
    );
    try {
      const r = await runCli(args(), { url: service.url, db });
      expect(r.code).toBe(4);
      expect(r.err).toContain('Brand  [2J [31mnot found [0m  elbat    ok');
      // eslint-disable-next-line no-control-regex -- the point: no control character but the line breaks
      expect(r.err).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    } finally {
      await service.close();
    }
  });
});

describe('the bound on pages holds for a brand’s whole sync, not for each pass', () => {
  it('passes each within the bound (opportunities, each mode of citations) are stopped once together they pass it', async () => {
    const many = await startSimulator({ seed: 31, opportunities: 300, otherBrandOpportunities: 0, brands: 1, citationsPerBrand: 1200 });
    /** Each pass's pages, in order: its endpoint and mode, and how many pages it read. */
    let passes: { pass: string; pages: number }[] = [];
    const counting: typeof fetch = (input, init) => {
      const url = new URL(String(input));
      if (/get-(outreach|citations)/.test(url.pathname)) {
        const pass = `${url.pathname} ${url.searchParams.get('mode') ?? ''}`;
        if (!url.searchParams.has('cursor') || passes.at(-1)?.pass !== pass) passes.push({ pass, pages: 0 });
        passes.at(-1)!.pages++;
      }
      return fetch(input, init);
    };
    const syncWith = async (maxPages?: number) => {
      passes = [];
      const cache = await Cache.open(join(tmp.dir, `budget-${maxPages ?? 'none'}.db`));
      try {
        const client = new TrakkrClient({
          baseUrl: many.url,
          apiKey: DEMO_KEY,
          fetch: counting,
          requestsPerMinute: 0,
          ...(maxPages ? { pageLimits: { maxPages } } : {}),
        });
        return await runSync(cache, client, { scores: false, pageSize: 100 });
      } finally {
        cache.close();
      }
    };
    try {
      const whole = await syncWith();
      expect(whole.brands[0]!.failures).toEqual([]);
      const read = passes;
      // The opportunities' three pages, then a pass of each citations mode; the last that reads more than one page is the one to stop.
      expect(read[0]).toEqual({ pass: '/get-outreach ', pages: 3 });
      const last = read.findLastIndex((p) => p.pages > 1);
      expect(last).toBeGreaterThan(0);
      const before = read.slice(0, last).reduce((n, p) => n + p.pages, 0);
      // Every pass is within this bound on its own; together they pass it.
      const bound = before + 1;
      expect(Math.max(...read.map((p) => p.pages))).toBeLessThan(bound);
      const bounded = await syncWith(bound);
      expect(bounded.brands[0]!.failures).toEqual([
        expect.objectContaining({
          phase: 'citations',
          kind: 'bad-response',
          message: expect.stringContaining(`kept sending pages past ${bound} in this brand's sync`),
        }),
      ]);
      expect(passes.reduce((n, p) => n + p.pages, 0)).toBe(bound + read.slice(last + 1).length);
    } finally {
      await many.close();
    }
  });
});

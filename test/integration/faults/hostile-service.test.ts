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
      // Tried once, not again and again; and the other origin never saw the key.
      expect(service.seen.filter((s) => s.path === '/get-outreach')).toHaveLength(1);
      expect(elsewhere.seen.every((s) => !s.auth)).toBe(true);
      expect(cacheState()).toMatchObject({ live: OPPORTUNITIES, removed: 0 });
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

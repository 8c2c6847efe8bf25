// Sync against the simulator on a real SQLite file: through faults, across
// data changes with the user's triage intact, and after a SIGKILL.
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DEMO_KEY, startSimulator, type Simulator } from '../../../electron/simulator/server';
import { TrakkrClient } from '../../../electron/core/api/client';
import { Cache } from '../../../electron/core/store/cache';
import { runSync, startSyncJob, type SyncEvent } from '../../../electron/core/sync';
import { FakeClock } from '../../support/fake-clock';
import { tempDir } from '../../support/tmp';
import { count, detail, setTriage } from '../../support/store';
import { opportunityExists } from '../../../electron/core/store/opportunity-detail';
import { searchSegments } from '../../../electron/core/store/search-index';

const tmp = tempDir();
afterAll(() => tmp.cleanup());
let n = 0;
/** The size of a cache's write-ahead log (none: 0). */
const walBytes = (path: string) => (existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0);
afterEach(() => vi.restoreAllMocks());
const freshCache = (opts: Parameters<typeof Cache.open>[1] = {}) => Cache.open(join(tmp.dir, `sync-${++n}.db`), opts);
const clientFor = (sim: Simulator, clock = new FakeClock()) =>
  new TrakkrClient({ baseUrl: sim.url, apiKey: DEMO_KEY, requestsPerMinute: 0, clock, random: () => 0.5 });

async function serverCount(sim: Simulator, brand: string): Promise<number> {
  const state = (await (await fetch(`${sim.url}/__sim/state`)).json()) as { brands: { id: string; opportunities: number }[] };
  return state.brands.find((b) => b.id === brand)!.opportunities;
}

describe('a full sync', () => {
  let sim: Simulator;
  beforeEach(async () => {
    sim?.close();
    sim = await startSimulator({ seed: 5, opportunities: 2300, otherBrandOpportunities: 120, citationsPerBrand: 700, today: '2026-11-20' });
  });
  afterAll(() => sim.close());

  it('gets every opportunity (archived too), scores and citations, through 429s in both bodies, 5xx and a dropped connection', async () => {
    const cache = await freshCache();
    const clock = new FakeClock();
    sim.addFaults(
      { kind: 'rate-limit', retryAfter: 2, body: 'code', path: '/get-outreach' },
      { kind: 'server-error', count: 2, status: 502, path: '/get-outreach' },
      { kind: 'drop', path: '/get-outreach' },
      { kind: 'rate-limit', retryAfter: null, body: 'text', path: '/get-outreach' },
      { kind: 'truncate', path: '/get-citations' },
    );
    const events: SyncEvent[] = [];
    const s = await runSync(cache, clientFor(sim, clock), { onEvent: (e) => events.push(e), now: () => new Date('2026-11-20T12:00:00Z') });
    expect(s.error).toBeNull();
    expect(s.brands).toHaveLength(3);
    for (const b of s.brands) {
      expect(b.failures).toEqual([]);
      expect(count(cache, { brandId: b.brandId, includeArchived: true })).toBe(await serverCount(sim, b.brandId));
      expect(b.added).toBe(await serverCount(sim, b.brandId));
    }
    const big = s.brands[0]!;
    expect(big.pages).toBe(5);
    expect(count(cache, { brandId: big.brandId, includeArchived: true, onlyRemoved: false })).toBe(2300);
    expect(cache.scores.series(big.brandId, []).length).toBeGreaterThan(80);
    expect(new Set(cache.scores.series(big.brandId, ['model']).map((r) => r.model)).size).toBe(4);
    expect(new Set(cache.scores.series(big.brandId, ['prompt']).map((r) => r.prompt)).size).toBe(6);
    expect(cache.citations.list(big.brandId, 'citations')).toHaveLength(700);
    expect(cache.citations.snapshot(big.brandId, 'citations')!.summary).toHaveProperty('total_citations');
    expect(cache.citations.list(big.brandId, 'knowledge').length).toBeGreaterThan(0);
    const waits = events.filter((e) => e.type === 'wait');
    // The simulator checks for a drop first, then a rate limit, then a server error: that is the order met.
    expect(waits.map((w) => (w as { reason: string }).reason)).toEqual(['retry', 'rate-limit', 'rate-limit', 'retry', 'retry', 'retry']);
    expect(events.some((e) => e.type === 'progress' && e.phase === 'opportunities' && e.items === 2300)).toBe(true);
    expect(cache.db.pragma('integrity_check', { simple: true })).toBe('ok');
    cache.close();
  });

  it('is idempotent: a second sync adds, changes and removes nothing', async () => {
    const cache = await freshCache();
    await runSync(cache, clientFor(sim), { scores: false, citations: false });
    const second = await runSync(cache, clientFor(sim), { scores: false, citations: false });
    for (const b of second.brands) expect([b.added, b.changed, b.removed]).toEqual([0, 0, 0]);
    expect(cache.db.prepare('SELECT count(*) AS n FROM opportunities').get()).toEqual({ n: 2300 + 240 });
    expect(cache.db.prepare('SELECT count(*) AS n FROM contacts c JOIN opportunities o ON o.rowid = c.opportunity_rowid').get()).toEqual(
      cache.db.prepare('SELECT count(*) AS n FROM contacts').get(),
    );
    cache.close();
  });

  it("after records are added, changed and removed on the server, the user's triage is intact", async () => {
    const cache = await freshCache();
    const brand = sim.brands[0]!.id;
    await runSync(cache, clientFor(sim), { brandIds: [brand], scores: false, citations: false });
    const m = sim.mutate({ brand, added: 7, changed: 5, removed: 4 });
    for (const id of [...m.changed, ...m.removed])
      setTriage(cache, brand, id, { stage: 'Drafted', note: `note for ${id}`, starred: true, contacted_at: '2026-11-19' });
    const s = await runSync(cache, clientFor(sim), { brandIds: [brand], scores: false, citations: false });
    expect(s.brands[0]).toMatchObject({ added: 7, changed: 5, removed: 4 });
    for (const id of m.removed) {
      const d = detail(cache, brand, id)!;
      expect(d.item.removed_on_server).toBe(true);
      expect(d.triage).toMatchObject({ stage: 'Drafted', note: `note for ${id}`, starred: true, contacted_at: '2026-11-19' });
    }
    for (const id of m.changed) {
      const d = detail(cache, brand, id)!;
      expect(d.item.title).toContain('(updated)');
      expect(d.triage.note).toBe(`note for ${id}`);
    }
    for (const id of m.added) expect(opportunityExists(cache.readable, brand, id)).toBe(true);
    expect(count(cache, { brandId: brand, includeArchived: true })).toBe(2300 + 7 - 4);
    cache.close();
  });

  it('every record reads back as the service sent it, after a first sync (its pages end inside blocks of records) and after changes; the first sync leaves the file compact', async () => {
    // Thresholds scaled to 2,300 opportunities (the defaults are for the app's sizes: a small first sync is not rewritten, below).
    const cache = await freshCache({ compactAtClose: { share: 0.01, minBytes: 64 * 1024 } });
    const brand = sim.brands[0]!.id;
    /** Every record the service holds for the brand, by id, as it sends them. */
    const served = async () => {
      const all = new Map<string, Record<string, unknown>>();
      let cursor: string | null = null;
      do {
        const res = await fetch(`${sim.url}/get-outreach?brand=${brand}&archived=true&limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
          headers: { Authorization: `Bearer ${DEMO_KEY}` },
        });
        const page = (await res.json()) as { opportunities: Record<string, unknown>[]; pagination: { next_cursor: string | null } };
        for (const o of page.opportunities) all.set(String(o._id), o);
        cursor = page.pagination.next_cursor;
      } while (cursor);
      return all;
    };
    // Pages of 300: most pages end part-way through a block of 32 records, which the next page completes.
    await runSync(cache, clientFor(sim), { brandIds: [brand], scores: false, citations: false, pageSize: 300 });
    // Compact: no larger than a copy SQLite writes afresh (VACUUM INTO), though every index grew page by page.
    cache.db.pragma('wal_checkpoint(TRUNCATE)');
    const copy = join(tmp.dir, `sync-${n}-copy.db`);
    cache.db.exec(`VACUUM INTO '${copy}'`);
    expect(statSync(cache.path).size).toBeLessThanOrEqual(statSync(copy).size);
    // Its full-text index in one segment (each page of the sync wrote one): a search's test of a row seeks it once.
    expect(searchSegments(cache.db)).toBe(1);
    for (const [id, record] of await served()) expect(detail(cache, brand, id)!.raw, id).toEqual(record);
    const m = sim.mutate({ brand, added: 40, changed: 60, removed: 0 });
    expect((await runSync(cache, clientFor(sim), { brandIds: [brand], scores: false, citations: false, pageSize: 300 })).brands[0]).toMatchObject({
      added: 40,
      changed: 60,
    });
    const now = await served();
    for (const id of [...m.changed, ...m.added]) expect(detail(cache, brand, id)!.raw, id).toEqual(now.get(id));
    for (const [id, record] of now) expect(detail(cache, brand, id)!.raw, id).toEqual(record);
    cache.close();
  });

  it('a first sync too small for a rewrite to pay is not rewritten: its index merged whole, the pages that freed given back, nothing lost', async () => {
    // The app's thresholds (4 MB loose): 2,300 opportunities leave a few hundred KB inside their indexes.
    const cache = await freshCache();
    const brand = sim.brands[0]!.id;
    const cacheSize = cache.db.pragma('cache_size', { simple: true });
    await runSync(cache, clientFor(sim), { brandIds: [brand], scores: false, citations: false, pageSize: 300 });
    // The log the merge and the sync grew is emptied by the tidy-up, not kept that large until the close.
    expect(walBytes(cache.path)).toBeLessThan(256 * 1024);
    cache.db.pragma('wal_checkpoint(TRUNCATE)');
    const copy = join(tmp.dir, `sync-${n}-copy.db`);
    cache.db.exec(`VACUUM INTO '${copy}'`);
    // Not rewritten: larger than a copy written afresh, by what its indexes hold empty (well under the 4 MB a rewrite waits for).
    const loose = cache.looseSpace();
    expect(statSync(cache.path).size).toBeGreaterThan(statSync(copy).size);
    expect(loose.indexUnused).toBeGreaterThan(0);
    expect(loose.indexUnused).toBeLessThan(1024 * 1024);
    // The full-text index in one segment, the pages its old segments held given back: none left free in the file.
    expect(searchSegments(cache.db)).toBe(1);
    expect(cache.db.pragma('freelist_count', { simple: true })).toBe(0);
    // The tidy-up ran with a small page cache (store/compaction.ts): the app's own is back for the reads that follow.
    expect(cache.db.pragma('cache_size', { simple: true })).toBe(cacheSize);
    expect(cache.db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(count(cache, { brandId: brand, includeArchived: true })).toBe(2300);
    cache.close();
  });

  it("a first sync's rewrite is said as the close's compaction is (the CLI's \"Compacting the cache…\"), once, before it runs", async () => {
    const said: string[] = [];
    const cache = await freshCache({ compactAtClose: { share: 0.01, minBytes: 64 * 1024, onCompact: () => said.push('compacting') } });
    const tidy = cache.tidyAfterFirstSync.bind(cache);
    vi.spyOn(cache, 'tidyAfterFirstSync').mockImplementation(() => {
      const done = tidy();
      said.push(`tidied ${JSON.stringify(done)}`);
      return done;
    });
    const brand = sim.brands[0]!.id;
    expect((await runSync(cache, clientFor(sim), { brandIds: [brand], scores: false, citations: false, pageSize: 300 })).error).toBeNull();
    expect(said).toEqual(['compacting', 'tidied {"merged":true,"compacted":true}']);
    expect(walBytes(cache.path)).toBe(0);
    cache.close();
  });

  it("a first sync's tidy-up with another program holding the write lock: nothing said or rewritten, the sync done, the connection's settings as they were", async () => {
    const said: string[] = [];
    const cache = await freshCache({
      blockingWaitMs: 50,
      compactAtClose: { share: 0.01, minBytes: 64 * 1024, onCompact: () => said.push('compacting'), onSkipped: () => said.push('skipped') },
    });
    const cacheSize = cache.db.pragma('cache_size', { simple: true });
    const busyTimeout = cache.db.pragma('busy_timeout', { simple: true });
    const other = new Database(cache.path);
    try {
      const tidy = cache.tidyAfterFirstSync.bind(cache);
      // The other program takes the lock once the sync's writes are done, as its tidy-up starts.
      vi.spyOn(cache, 'tidyAfterFirstSync').mockImplementation(() => {
        other.exec('BEGIN IMMEDIATE');
        const done = tidy();
        said.push(`tidied ${JSON.stringify(done)}`);
        return done;
      });
      const brand = sim.brands[0]!.id;
      expect((await runSync(cache, clientFor(sim), { brandIds: [brand], scores: false, citations: false, pageSize: 300 })).error).toBeNull();
      expect(said).toEqual(['tidied {"merged":false,"compacted":false}']);
      other.exec('ROLLBACK');
      expect(cache.db.pragma('cache_size', { simple: true })).toBe(cacheSize);
      expect(cache.db.pragma('busy_timeout', { simple: true })).toBe(busyTimeout);
      expect(count(cache, { brandId: brand, includeArchived: true })).toBe(2300);
      expect(cache.db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      other.close();
      cache.close();
    }
  });

  it('a repeating cursor fails that brand in plain words and leaves a cache the next sync completes', async () => {
    const cache = await freshCache();
    const brand = sim.brands[0]!.id;
    sim.addFaults({ kind: 'repeat-cursor', path: '/get-outreach' });
    const s = await runSync(cache, clientFor(sim), { brandIds: [brand], scores: false, citations: false });
    expect(s.brands[0]!.failures[0]).toMatchObject({ phase: 'opportunities', message: expect.stringContaining('already given') });
    expect(cache.db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(count(cache, { brandId: brand, includeArchived: true, includeRemoved: true })).toBeLessThan(2300);
    const again = await runSync(cache, clientFor(sim), { brandIds: [brand], scores: false, citations: false });
    expect(again.brands[0]!.failures).toEqual([]);
    expect(count(cache, { brandId: brand, includeArchived: true })).toBe(2300);
    cache.close();
  });

  it('a rejected key stops the whole sync with the reason', async () => {
    const cache = await freshCache();
    const c = new TrakkrClient({ baseUrl: sim.url, apiKey: 'sk_live_' + 'x'.repeat(32), requestsPerMinute: 0 });
    const s = await runSync(cache, c);
    expect(s.error).toEqual({
      kind: 'key-rejected',
      message: 'The API key was rejected (403): No accounts found for this API key. Check the key in your Trakkr account settings and paste it again.',
    });
    cache.close();
  });

  it('a job can be cancelled; the cache stays sound and the next sync resumes', async () => {
    const cache = await freshCache();
    const brand = sim.brands[0]!.id;
    const job = startSyncJob(cache, clientFor(sim), {
      brandIds: [brand],
      pageSize: 100,
      scores: false,
      citations: false,
      onEvent: (e) => {
        if (e.type === 'progress' && e.pages === 3) job.cancel();
      },
    });
    const s = await job.done;
    expect(s.cancelled).toBe(true);
    expect(cache.runs.last(brand)!.state).toBe('cancelled');
    const again = await runSync(cache, clientFor(sim), { brandIds: [brand], pageSize: 100, scores: false, citations: false });
    expect(again.brands[0]!.resumed).toBe(true);
    expect(count(cache, { brandId: brand, includeArchived: true })).toBe(2300);
    cache.close();
  });
});

describe('a sync killed mid-way (separate process, SIGKILL)', () => {
  it('leaves a cache that passes integrity_check and that the next sync completes', async () => {
    const sim = await startSimulator({ seed: 9, opportunities: 3000, otherBrandOpportunities: 10, brands: 1, latencyMs: 15 });
    const path = join(tmp.dir, 'killed.db');
    try {
      // node itself (not the tsx wrapper, which runs the script in a grandchild), so SIGKILL hits the writer.
      const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/sync-child.ts', path, sim.url], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stderr.on('data', (c: Buffer) => (err += c.toString()));
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          if (/page 7 /.test(out)) {
            child.kill('SIGKILL');
            resolve();
          }
        });
        child.on('exit', () => reject(new Error(`child ended before it could be killed: ${out} ${err}`)));
      });
      await new Promise((r) => child.once('exit', r));
      expect(out).not.toContain('done');

      const raw = new Database(path);
      expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
      const partial = (raw.prepare('SELECT count(*) AS n FROM opportunities').get() as { n: number }).n;
      expect(partial).toBeGreaterThanOrEqual(600);
      expect(partial).toBeLessThan(3000);
      raw.close();

      const cache = await Cache.open(path);
      const s = await runSync(cache, new TrakkrClient({ baseUrl: sim.url, apiKey: DEMO_KEY, requestsPerMinute: 0 }), {
        pageSize: 100,
        scores: false,
        citations: false,
      });
      expect(s.brands[0]!.resumed).toBe(true);
      expect(s.brands[0]!.failures).toEqual([]);
      expect(count(cache, { brandId: sim.brands[0]!.id, includeArchived: true })).toBe(3000);
      expect(cache.db.prepare('SELECT count(DISTINCT id) AS n FROM opportunities').get()).toEqual({ n: 3000 });
      cache.close();
    } finally {
      await sim.close();
    }
  });
});

describe('the key stays out of the cache', () => {
  it('no byte of the key in the database file or its WAL after a sync', async () => {
    const sim = await startSimulator({ opportunities: 200, brands: 1 });
    try {
      const path = join(tmp.dir, 'nokey.db');
      const cache = await Cache.open(path);
      await runSync(cache, clientFor(sim));
      const files = readdirSync(tmp.dir).filter((f) => f.startsWith('nokey.db'));
      expect(files.length).toBeGreaterThan(0);
      for (const f of files) expect(readFileSync(join(tmp.dir, f)).includes(Buffer.from(DEMO_KEY.slice(8)))).toBe(false);
      cache.close();
    } finally {
      await sim.close();
    }
  });
});

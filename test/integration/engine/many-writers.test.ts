// One cache, many writers: real processes on a real file. Two syncs at once,
// a sync beside bulk triage, and a sync killed with SIGKILL while another
// waits for it; afterwards the cache is complete, nothing the service still
// returns is marked removed, every triage write is there, and the file passes
// integrity_check.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DEMO_KEY, startSimulator, type Simulator } from '../../../electron/simulator/server';
import { TrakkrClient } from '../../../electron/core/api/client';
import { Cache } from '../../../electron/core/store/cache';
import { STALE_LOCK_MS } from '../../../electron/core/store/sync-lock';
import { runSync } from '../../../electron/core/sync';
import { writeExportFile } from '../../../electron/core/export/csv-export';
import type { SyncEvent, SyncSummary } from '../../../shared/model';
import { tempDir } from '../../support/tmp';
import { count, list, setTriage } from '../../support/store';
import { triageRecord } from '../../../electron/core/store/triage';

const tmp = tempDir();
let sim: Simulator;
const OPPORTUNITIES = 1500;
beforeAll(async () => {
  // Latency so a sync lasts long enough for another process to meet it.
  sim = await startSimulator({ seed: 21, opportunities: OPPORTUNITIES, otherBrandOpportunities: 0, brands: 1, latencyMs: 40 });
});
afterAll(() => {
  sim.close();
  tmp.cleanup();
});

let n = 0;
const freshPath = () => join(tmp.dir, `writers-${++n}.db`);

type Line = (
  | SyncEvent
  | { type: 'started'; pid: number }
  | { type: 'done'; summary?: SyncSummary }
  | { type: 'round'; round: number; ms: number; worst: number }
) &
  Record<string, unknown>;

interface Child {
  proc: ChildProcessWithoutNullStreams;
  lines: Line[];
  /** Resolves with the first line that matches. */
  until(match: (l: Line) => boolean): Promise<Line>;
  exit: Promise<number | null>;
  stderr: () => string;
}

function writer(args: string[]): Child {
  // node itself (not the tsx wrapper, which runs the script in a grandchild), so SIGKILL hits the writer.
  const proc = spawn(process.execPath, ['--import', 'tsx', 'test/support/writer-child.ts', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: Line[] = [];
  const waiters: { match: (l: Line) => boolean; resolve: (l: Line) => void }[] = [];
  let err = '';
  proc.stderr.on('data', (c: Buffer) => (err += c.toString()));
  createInterface({ input: proc.stdout }).on('line', (text) => {
    const line = JSON.parse(text) as Line;
    lines.push(line);
    for (const w of [...waiters]) {
      if (!w.match(line)) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(line);
    }
  });
  const exit = new Promise<number | null>((r) => proc.on('exit', (code) => r(code)));
  return {
    proc,
    lines,
    exit,
    stderr: () => err,
    until: (match) => {
      const seen = lines.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        waiters.push({ match, resolve });
        void exit.then((code) => reject(new Error(`the writer ended (code ${code}) before the line the test waits for; stderr: ${err}`)));
      });
    },
  };
}

// Small pages: a sync lasts long enough (60 pages, 40 ms each at least) for another process to start beside it.
const syncer = (path: string, opts: Record<string, unknown> = {}) =>
  writer(['sync', path, sim.url, JSON.stringify({ lockPollMs: 100, pageSize: 25, ...opts })]);
const summaryOf = (c: Child) => (c.lines.find((l) => l.type === 'done') as { summary: SyncSummary }).summary;

function inspect(path: string) {
  const db = new Database(path, { readonly: true });
  try {
    return {
      integrity: db.pragma('integrity_check', { simple: true }),
      total: (db.prepare('SELECT count(*) AS n FROM opportunities').get() as { n: number }).n,
      removed: (db.prepare('SELECT count(*) AS n FROM opportunities WHERE removed_on_server = 1').get() as { n: number }).n,
      locks: (db.prepare('SELECT count(*) AS n FROM sync_locks').get() as { n: number }).n,
    };
  } finally {
    db.close();
  }
}

describe('one cache, many writers', () => {
  it('two syncs at once: the second waits for the first, says so, and nothing the service returns is marked removed', async () => {
    const path = freshPath();
    (await Cache.open(path)).close();
    const a = syncer(path, { holderLabel: 'workbench sync' });
    await a.until((l) => l.type === 'progress');
    const b = syncer(path, { holderLabel: 'the app' });
    const blocked = await b.until((l) => l.type === 'blocked');
    expect(blocked.message).toMatch(
      /^A sync of .+ is already running in another window or terminal \(workbench sync, process \d+\) since \d\d:\d\d; waiting for it to finish\.$/,
    );
    expect(await a.exit).toBe(0);
    expect(await b.exit).toBe(0);
    expect(summaryOf(a).brands[0]).toMatchObject({ items: OPPORTUNITIES, removed: 0 });
    // The first finished while the second waited: nothing left for it to do.
    expect(summaryOf(b).brands[0]!.skipped).toMatch(/was synced by the other window or terminal while this one waited/);
    expect(inspect(path)).toEqual({ integrity: 'ok', total: OPPORTUNITIES, removed: 0, locks: 0 });
  });

  it('--no-wait: a second sync skips the brand another process is syncing, in plain words', async () => {
    const path = freshPath();
    (await Cache.open(path)).close();
    const a = syncer(path, { holderLabel: 'the app' });
    await a.until((l) => l.type === 'progress');
    const b = syncer(path, { whenBusy: 'skip' });
    expect(await b.exit).toBe(0);
    expect(summaryOf(b).brands[0]!.skipped).toMatch(/already running in another window or terminal \(the app, process \d+\) since \d\d:\d\d; skipped\.$/);
    expect(await a.exit).toBe(0);
    expect(inspect(path)).toEqual({ integrity: 'ok', total: OPPORTUNITIES, removed: 0, locks: 0 });
  });

  it('bulk triage while another process syncs: every write lands, none fails for a busy file, and sync never touches it', async () => {
    const path = freshPath();
    const first = syncer(path);
    expect(await first.exit).toBe(0);
    const cache = await Cache.open(path);
    const brand = cache.brands.list()[0]!.id;
    const ids = list(cache, { brandId: brand }, { limit: 400 }).map((o) => o.id);
    cache.close();

    const sync = syncer(path);
    await sync.until((l) => l.type === 'progress');
    const ROUNDS = 6;
    const triage = writer(['triage', path, brand, JSON.stringify(ids), String(ROUNDS)]);
    expect(await triage.exit, triage.stderr()).toBe(0);
    expect(await sync.exit, sync.stderr()).toBe(0);
    const rounds = triage.lines.filter((l) => l.type === 'round') as { ms: number; worst: number }[];
    expect(rounds).toHaveLength(ROUNDS);
    // Never blocked for more than a moment: no write, and no whole round of 9 writes, waited long on the sync
    // (the busy timeout is 5 s; a sync holding the write lock across pages would show here).
    expect(Math.max(...rounds.map((r) => r.worst)), JSON.stringify(rounds)).toBeLessThan(1000);
    expect(Math.max(...rounds.map((r) => r.ms)), JSON.stringify(rounds)).toBeLessThan(1500);

    const after = await Cache.open(path);
    const rows = ids.map((id) => triageRecord(after.readable, brand, id)!);
    // The last round's stage and note on every one (even rounds set Drafted); the star from the last round it was set.
    expect(new Set(rows.map((r) => `${r.stage}|${r.note}`))).toEqual(new Set([`Drafted|round ${ROUNDS}`]));
    expect(rows[0]!.starred).toBe(false);
    // Each field keeps the time of its last write.
    expect(rows.every((r) => r.stage_changed_at !== null && r.note_changed_at !== null)).toBe(true);
    after.close();
    expect(inspect(path)).toEqual({ integrity: 'ok', total: OPPORTUNITIES, removed: 0, locks: 0 });
  });

  it('a long sync keeps its lock through its heartbeats: a waiter with a short stale limit keeps waiting, never takes over', async () => {
    const path = freshPath();
    (await Cache.open(path)).close();
    // The sync lasts seconds (60 pages of 40 ms at least); the lock goes stale after 400 ms of silence.
    const short = { staleLockMs: 400, heartbeatMs: 50 };
    const a = syncer(path, { holderLabel: 'workbench sync', ...short });
    await a.until((l) => l.type === 'progress');
    const b = syncer(path, { holderLabel: 'the app', lockPollMs: 50, ...short });
    await b.until((l) => l.type === 'blocked');
    expect(await a.exit, a.stderr()).toBe(0);
    expect(await b.exit, b.stderr()).toBe(0);
    expect(b.lines.filter((l) => l.type === 'warning')).toEqual([]);
    expect(a.lines.filter((l) => l.type === 'warning')).toEqual([]);
    expect(summaryOf(a)).toMatchObject({ cancelled: false, error: null });
    expect(summaryOf(a).brands[0]).toMatchObject({ items: OPPORTUNITIES, removed: 0 });
    expect(summaryOf(b).brands[0]!.skipped).toMatch(/was synced by the other window or terminal while this one waited/);
    expect(inspect(path)).toEqual({ integrity: 'ok', total: OPPORTUNITIES, removed: 0, locks: 0 });
  });

  it('a sync whose lock is taken over (its heartbeat judged stale) stops at once, says why, and leaves the lock to the new holder', async () => {
    const path = freshPath();
    const cache = await Cache.open(path);
    const client = new TrakkrClient({ baseUrl: sim.url, apiKey: DEMO_KEY, requestsPerMinute: 0 });
    const events: SyncEvent[] = [];
    let tookOver = false;
    const summary = await runSync(cache, client, {
      pageSize: 25,
      scores: false,
      citations: false,
      heartbeatMs: 20,
      onEvent: (e) => {
        events.push(e);
        if (e.type !== 'progress' || tookOver) return;
        // Another process found this holder silent past the limit (say the laptop slept) and took the lock over.
        tookOver = true;
        const later = new Date(Date.now() + STALE_LOCK_MS + 1);
        expect(cache.locks.tryAcquire(e.brandId, { holder: 'other', label: 'the app', pid: process.ppid }, later).acquired).toBe(true);
      },
    });
    expect(tookOver).toBe(true);
    expect(summary.cancelled).toBe(true);
    const warnings = events.filter((e) => e.type === 'warning').map((e) => (e as { message: string }).message);
    expect(warnings).toEqual([
      `Another window or terminal took over the sync of ${sim.brands[0]!.name} (the app, process ${process.ppid}); this one stopped so that the two do not run side by side.`,
    ]);
    // It stopped within a page or two of the takeover, not at the end of the brand.
    const pages = events.filter((e) => e.type === 'progress').length;
    expect(pages).toBeLessThan(5);
    expect(count(cache, { brandId: sim.brands[0]!.id, includeArchived: true })).toBeLessThan(OPPORTUNITIES);
    expect(cache.locks.holderOf(sim.brands[0]!.id)!.holder).toBe('other');
    cache.close();
  });

  it('a sync killed with SIGKILL while another waits: the waiter takes over and resumes, a third sync finds the cache complete', async () => {
    const path = freshPath();
    (await Cache.open(path)).close();
    const a = syncer(path, { holderLabel: 'workbench sync' });
    await a.until((l) => l.type === 'progress' && (l as { pages: number }).pages >= 3);
    const b = syncer(path, { holderLabel: 'the app' });
    await b.until((l) => l.type === 'blocked');
    a.proc.kill('SIGKILL');
    expect(await a.exit).toBe(null);
    // Its process is gone: the lock is taken over at once (no need to wait for the heartbeat to go stale).
    const took = await b.until((l) => l.type === 'warning' && /stopped without finishing; this sync takes over/.test(String(l.message)));
    expect(took.message).toMatch(/\(workbench sync, process \d+\)/);
    expect(await b.exit, b.stderr()).toBe(0);
    expect(summaryOf(b).brands[0]).toMatchObject({ resumed: true, removed: 0 });
    const c = syncer(path);
    expect(await c.exit).toBe(0);
    expect(summaryOf(c).brands[0]).toMatchObject({ items: OPPORTUNITIES, added: 0, removed: 0 });
    expect(inspect(path)).toEqual({ integrity: 'ok', total: OPPORTUNITIES, removed: 0, locks: 0 });
  });
});

/**
 * Another process takes the cache's write lock and holds it for a moment.
 * Resolves once it holds it; `released` then resolves with when it let go (an ISO time).
 */
async function lockHeldElsewhere(path: string): Promise<{ released: Promise<string> }> {
  const holder = spawn(
    process.execPath,
    [
      '-e',
      `
    const db = require('better-sqlite3')(process.argv[1]);
    db.exec('BEGIN IMMEDIATE');
    console.log('locked');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 700);
    const at = new Date().toISOString();
    db.exec('COMMIT');
    console.log(at);
    db.close();`,
      path,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const out = createInterface({ input: holder.stdout! })[Symbol.asyncIterator]();
  expect((await out.next()).value).toBe('locked');
  return { released: out.next().then((l) => l.value as string) };
}

describe('write times', () => {
  it('a triage write that waited for another process is dated after that process let go, never before', async () => {
    const path = freshPath();
    const c = await Cache.open(path);
    const { released } = await lockHeldElsewhere(path);
    try {
      setTriage(c, 'brand_1', 'o-late', { note: 'written after the wait' });
      const row = triageRecord(c.readable, 'brand_1', 'o-late')!;
      expect(row.note).toBe('written after the wait');
      const at = await released;
      expect(row.note_changed_at! >= at, `${row.note_changed_at} is not after ${at}`).toBe(true);
    } finally {
      c.close();
    }
  });
});

describe('write times of an export', () => {
  it('an export that marks its rows while another process holds the write lock dates them, and its log line, after that process let go', async () => {
    const path = freshPath();
    const c = await Cache.open(path);
    const brand = 'b'.repeat(32);
    c.brands.replaceAll([{ id: brand, name: 'Acme' }], '2026-11-01T00:00:00Z');
    c.tx(() =>
      c.opportunities.upsertPage(
        brand,
        [{ _id: 'o1', domain: 'a.example', title: 'A', contact_emails: ['ana@a.example'], priority_score: 5 }] as never,
        1,
        '2026-11-01T00:00:00Z',
      ),
    );
    const { released } = await lockHeldElsewhere(path);
    try {
      const r = await writeExportFile(c, { brandId: brand, preset: 'opportunities', out: join(tmp.dir, 'marked.csv'), markExported: true });
      const at = await released;
      expect(r.markedExported).toBe(1);
      const t = triageRecord(c.readable, brand, 'o1')!;
      expect(t.exported_changed_at! >= at, `${t.exported_changed_at} is not after ${at}`).toBe(true);
      expect(c.exports.list()[0]!.at).toBe(t.exported_at);
    } finally {
      c.close();
    }
  });
});

describe('removal decisions', () => {
  it('depend only on the run that made them: rows a later run saw are never marked removed by an earlier one', async () => {
    const cache = await Cache.open(freshPath());
    const brand = 'b'.repeat(32);
    const rec = (id: string) => ({ _id: id, title: id, domain: 'x.example', contact_emails: [] });
    const early = cache.runs.start(brand, 'opportunities', '2026-11-23T10:00:00Z');
    const late = cache.runs.start(brand, 'opportunities', '2026-11-23T10:00:01Z');
    cache.tx(() => cache.opportunities.upsertPage(brand, [rec('a'), rec('b')], early.id, 'now'));
    // The later run sees a, b and c; then the earlier one sees only a again.
    cache.tx(() => cache.opportunities.upsertPage(brand, [rec('a'), rec('b'), rec('c')], late.id, 'now'));
    cache.tx(() => cache.opportunities.upsertPage(brand, [rec('a')], early.id, 'now'));
    expect(cache.tx(() => cache.opportunities.markUnseenRemoved(brand, early.id, 'now'))).toBe(0);
    expect(cache.tx(() => cache.opportunities.markUnseenRemoved(brand, late.id, 'now'))).toBe(0);
    // A run after both, that sees only a: b and c are gone from the server.
    const next = cache.runs.start(brand, 'opportunities', '2026-11-23T10:00:02Z');
    cache.tx(() => cache.opportunities.upsertPage(brand, [rec('a')], next.id, 'now'));
    expect(cache.tx(() => cache.opportunities.markUnseenRemoved(brand, next.id, 'now'))).toBe(2);
    cache.close();
  });
});

describe('giving space back after a sync', () => {
  /** A cache with incremental auto-vacuum (what the version-4 compaction leaves), with `rows` of 4 KB written and dropped. */
  async function withFreePages(rows: number): Promise<Cache> {
    const cache = await Cache.open(freshPath());
    cache.db.pragma('auto_vacuum = INCREMENTAL');
    cache.db.exec('VACUUM');
    expect(cache.db.pragma('auto_vacuum', { simple: true })).toBe(2);
    cache.db.exec('CREATE TABLE filler (b BLOB); CREATE TABLE beats (at INTEGER)');
    const fill = cache.db.prepare('INSERT INTO filler VALUES (randomblob(4000))');
    cache.tx(() => {
      for (let i = 0; i < rows; i++) fill.run();
    });
    cache.db.exec('DROP TABLE filler');
    return cache;
  }

  it('goes in short steps, so another connection writes between them (never meeting a busy file), and gives back every free page', async () => {
    // Free pages, as rewritten records leave them: about 20 MB written, then dropped.
    const cache = await withFreePages(5000);
    const path = cache.path;
    const free = cache.db.pragma('freelist_count', { simple: true }) as number;
    expect(free).toBeGreaterThan(2000);
    cache.db.pragma('wal_checkpoint(TRUNCATE)');
    const sizeBefore = cache.sizeOnDisk();

    // Another writer with no patience at all: any write that met the vacuum holding the lock would throw SQLITE_BUSY.
    const other = new Database(path);
    other.pragma('busy_timeout = 0');
    const beat = other.prepare('INSERT INTO beats VALUES (?)');
    let during = 0;
    const writes = setInterval(() => {
      beat.run(Date.now());
      during++;
    }, 1);
    let given: number;
    try {
      given = await cache.reclaimSpace({ stepPages: 64, pauseMs: 5 });
    } finally {
      clearInterval(writes);
      other.close();
    }
    expect(given).toBe(free);
    expect(cache.db.pragma('freelist_count', { simple: true })).toBe(0);
    // At least one write between each pair of steps (a vacuum in one go would let none in).
    expect(during).toBeGreaterThanOrEqual(Math.floor(free / 64) - 1);
    cache.db.pragma('wal_checkpoint(TRUNCATE)');
    expect(cache.sizeOnDisk()).toBeLessThan(sizeBefore - free * 8192 * 0.9);
    expect(cache.db.pragma('integrity_check', { simple: true })).toBe('ok');
    cache.close();
  });

  it('leaves a file with few free pages alone, and stops quietly when the cache closes mid-way', async () => {
    const few = await withFreePages(0);
    expect(await few.reclaimSpace()).toBe(0);
    few.close();
    const cache = await withFreePages(2000);
    const free = cache.db.pragma('freelist_count', { simple: true }) as number;
    const pending = cache.reclaimSpace({ stepPages: 64, pauseMs: 20 });
    cache.close();
    const given = await pending;
    // The first step ran before the close; the rest are left for the next sync.
    expect(given).toBe(64);
    expect(given).toBeLessThan(free);
  });
});

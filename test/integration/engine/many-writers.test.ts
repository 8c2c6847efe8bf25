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
import { startSimulator, type Simulator } from '../../../electron/simulator/server';
import { Cache } from '../../../electron/core/store/cache';
import type { SyncEvent, SyncSummary } from '../../../shared/model';
import { tempDir } from '../../support/tmp';

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

type Line = (SyncEvent | { type: 'started'; pid: number } | { type: 'done'; summary?: SyncSummary } | { type: 'round'; round: number; ms: number }) & Record<string, unknown>;

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
const syncer = (path: string, opts: Record<string, unknown> = {}) => writer(['sync', path, sim.url, JSON.stringify({ lockPollMs: 100, pageSize: 25, ...opts })]);
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
    expect(blocked.message).toMatch(/^A sync of .+ is already running in another window or terminal \(workbench sync, process \d+\) since \d\d:\d\d; waiting for it to finish\.$/);
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
    const ids = cache.opportunities.list({ brandId: brand }, { limit: 400 }).map((o) => o.id);
    cache.close();

    const sync = syncer(path);
    await sync.until((l) => l.type === 'progress');
    const ROUNDS = 6;
    const triage = writer(['triage', path, brand, JSON.stringify(ids), String(ROUNDS)]);
    expect(await triage.exit, triage.stderr()).toBe(0);
    expect(await sync.exit, sync.stderr()).toBe(0);
    expect(triage.lines.filter((l) => l.type === 'round')).toHaveLength(ROUNDS);

    const after = await Cache.open(path);
    const rows = ids.map((id) => after.triage.get(brand, id)!);
    // The last round's status and note on every one (even rounds set In Progress); the star from the last round it was set.
    expect(new Set(rows.map((r) => `${r.status}|${r.note}`))).toEqual(new Set([`In Progress|round ${ROUNDS}`]));
    expect(rows[0]!.starred).toBe(false);
    // Each field keeps the time of its last write.
    expect(rows.every((r) => r.status_changed_at !== null && r.note_changed_at !== null)).toBe(true);
    after.close();
    expect(inspect(path)).toEqual({ integrity: 'ok', total: OPPORTUNITIES, removed: 0, locks: 0 });
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

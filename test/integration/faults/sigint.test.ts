// Ctrl-C (SIGINT) and SIGTERM during `workbench sync`, sent to the real
// command in its own process: it stops after the page in progress (committed
// whole or rolled back), releases the brand's sync lock, says so, never says
// "Done", and exits 130; the notes are intact, the cache passes its check, and
// the next sync carries on to the end. A second Ctrl-C stops it at once, and
// still nothing half-written is kept. A read stops at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { startSimulator, type Simulator } from '../../../electron/simulator/server';
import { Cache } from '../../../electron/core/store/cache';
import { runCli } from '../../support/cli-run';
import { workbench } from '../../support/workbench-process';
import { tempDir } from '../../support/tmp';
import { list, setTriage } from '../../support/store';
import { withHealth } from '../../support/cache-health';

const tmp = tempDir();
let sim: Simulator;
let brand: string;
const OPPORTUNITIES = 3000;
const pristine = join(tmp.dir, 'pristine.db');
const notes = new Map<string, string>();

beforeAll(async () => {
  // Slow pages (a quarter of a second each, six of them), so the signal lands in the middle of the sync.
  sim = await startSimulator({ seed: 41, opportunities: OPPORTUNITIES, otherBrandOpportunities: 0, brands: 1, citationsPerBrand: 0, latencyMs: 250 });
  brand = sim.brands[0]!.id;
  // A cache that has the user's notes on the first 600 opportunities, and no sync of the rest yet.
  const first = await runCli(['sync', '--no-scores', '--no-citations'], { url: sim.url, db: pristine });
  expect(first.code, first.err).toBe(0);
  const c = await Cache.open(pristine);
  for (const o of list(c, { brandId: brand }, { limit: 600 })) notes.set(o.id, `called ${o.domain}`);
  c.tx(() => {
    for (const [id, note] of notes) setTriage(c, brand, id, { note });
  });
  c.db.exec('DELETE FROM opportunities WHERE rowid NOT IN (SELECT rowid FROM opportunities ORDER BY rowid LIMIT 600)');
  c.close();
});
afterAll(async () => {
  await sim.close();
  tmp.cleanup();
});

function inspect(db: string) {
  return withHealth(db, (h) => ({
    integrity: h.integrity,
    notes: h.notes,
    opportunities: h.count('opportunities'),
    locks: h.count('sync_locks'),
    lastRun: h.row<{ state: string; pages: number }>("SELECT state, pages FROM sync_runs WHERE kind = 'opportunities' ORDER BY id DESC LIMIT 1"),
  }));
}

/** A fresh copy of the cache with notes, and a sync of it started in its own process, stopped once two pages are in. */
async function syncUntilTwoPages(name: string) {
  const db = join(tmp.dir, `${name}.db`);
  copyFileSync(pristine, db);
  const w = workbench(['sync', '--no-scores', '--no-citations'], { url: sim.url, db });
  await w.printed(/Syncing /);
  // Two pages written by the sync (a read-only look: WAL readers never block the writer).
  for (;;) {
    const r = inspect(db).lastRun;
    if (r && r.state === 'running' && r.pages >= 2) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return { db, w };
}

describe('stopping `workbench sync`', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    '%s: the page in progress is finished or rolled back, the lock released, exit 130, no "Done"; the next sync completes',
    async (signal) => {
      const { db, w } = await syncUntilTwoPages(signal);
      w.proc.kill(signal);
      const r = await w.done;
      expect(r.code).toBe(130);
      expect(r.err).toContain(`Stopping (${signal}): the work in progress is finished or rolled back first.`);
      expect(r.err).toContain('workbench: Sync stopped. Every page written so far is kept; the next `workbench sync` resumes where this one stopped.');
      expect(r.out + r.err).not.toMatch(/Done in/);
      const after = inspect(db);
      expect(after.integrity).toBe('ok');
      expect(after.notes).toEqual(notes);
      expect(after.locks).toBe(0);
      expect(after.lastRun?.state).toBe('cancelled');
      // Whole pages only: the pages the run recorded as written (each page and its progress in one transaction), over the first 600 it had.
      expect(after.opportunities).toBe(Math.max(600, after.lastRun!.pages * 500));
      const next = await runCli(['sync', '--no-scores', '--no-citations'], { url: sim.url, db });
      expect(next.code, next.err).toBe(0);
      expect(inspect(db)).toMatchObject({ opportunities: OPPORTUNITIES, integrity: 'ok', locks: 0 });
    },
  );

  it('a second Ctrl-C stops at once: exit 130, and still whole pages only, the notes intact; the next sync takes over and completes', async () => {
    const { db, w } = await syncUntilTwoPages('twice');
    w.proc.kill('SIGINT');
    await w.printed(/Stopping \(SIGINT\)/);
    w.proc.kill('SIGINT');
    const r = await w.done;
    expect(r.code).toBe(130);
    const after = inspect(db);
    expect(after.integrity).toBe('ok');
    expect(after.notes).toEqual(notes);
    expect(after.opportunities).toBe(Math.max(600, after.lastRun!.pages * 500));
    const next = await runCli(['sync', '--no-scores', '--no-citations'], { url: sim.url, db });
    expect(next.code, next.err).toBe(0);
    expect(inspect(db)).toMatchObject({ opportunities: OPPORTUNITIES, integrity: 'ok', locks: 0 });
  });

  it('a read (`workbench brands`, waiting for the service) stops at once with 130', async () => {
    // A service that takes the request and never answers.
    let asked!: () => void;
    const arrived = new Promise<void>((r) => (asked = r));
    const silent = createServer(() => asked());
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const w = workbench(['brands'], { url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, db: join(tmp.dir, 'read.db') });
      await arrived;
      w.proc.kill('SIGINT');
      const r = await w.done;
      expect(r.code).toBe(130);
      expect(r.err).not.toMatch(/Stopping/);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});

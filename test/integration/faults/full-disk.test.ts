// The cache on a disk that fills up or turns read-only in the middle of work,
// and the files on a real small disk: SQLite's raw words ("database or disk
// is full", "attempt to write a readonly database") become the app's, naming
// the cache and what to do; the exit code says a file on this computer (5),
// never the service (4); a failed sync never says "Done"; the notes stay and
// the cache passes its integrity check.
//
// SQLite reports a full disk as SQLITE_FULL whether the disk or the file's
// page limit ran out, so `max_page_count` on the command's own connection
// stands in for a full disk on every machine; a real small tmpfs runs too
// where this machine lets the test mount one (root, and a container that
// allows it), and says why it is skipped where it does not.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startSimulator, type Simulator } from '../../../electron/simulator/server';
import { Cache } from '../../../electron/core/store/cache';
import type { OpenOptions } from '../../../electron/core/store/db';
import { runCli } from '../../support/cli-run';
import { tempDir } from '../../support/tmp';
import { list, setTriage } from '../../support/store';
import { withHealth } from '../../support/cache-health';

let sim: Simulator;
const tmp = tempDir();
let brand: string;
const NOTES = 25;

beforeAll(async () => {
  sim = await startSimulator({ seed: 19, opportunities: 400, otherBrandOpportunities: 0, brands: 1, citationsPerBrand: 0 });
  brand = sim.brands[0]!.id;
});
afterAll(async () => {
  await sim.close();
  tmp.cleanup();
});
afterEach(() => vi.restoreAllMocks());

/** A synced cache with the user's notes on it. */
async function cacheWithNotes(name: string): Promise<{ db: string; notes: Map<string, string> }> {
  const db = join(tmp.dir, name, 'workbench.db');
  expect((await runCli(['sync', '--no-scores', '--no-citations'], { url: sim.url, db })).code).toBe(0);
  const cache = await Cache.open(db);
  const notes = new Map<string, string>();
  for (const o of list(cache, { brandId: brand }, { limit: NOTES })) notes.set(o.id, `note for ${o.title.slice(0, 20)}`);
  cache.tx(() => {
    for (const [id, note] of notes) setTriage(cache, brand, id, { note });
  });
  cache.close();
  return { db, notes };
}

function inspect(db: string) {
  return withHealth(db, (h) => ({ integrity: h.integrity, notes: h.notes, opportunities: h.count('opportunities') }));
}

/** Every cache a command opens gets `then` applied to its connection (a disk that fills, a disk gone read-only). */
function whenOpened(then: (c: Cache) => void): void {
  const open = Cache.open.bind(Cache);
  vi.spyOn(Cache, 'open').mockImplementation(async (path: string, opts?: OpenOptions) => {
    const c = await open(path, opts);
    then(c);
    return c;
  });
}

describe('the cache’s disk fills up during a sync', () => {
  it('exit 5 (not 4), the disk named full for the cache and what to do, no "Done"; whole pages kept, notes intact, integrity ok', async () => {
    const { db, notes } = await cacheWithNotes('sync-full');
    sim.mutate({ brand, added: 300, changed: 100, removed: 0 });
    const before = inspect(db);
    whenOpened((c) => c.db.pragma(`max_page_count = ${(c.db.pragma('page_count', { simple: true }) as number) + 3}`));
    const r = await runCli(['sync', '--no-scores', '--no-citations'], { url: sim.url, db });
    expect(r.code).toBe(5);
    expect(r.err).toContain(
      `workbench: The disk that holds the cache (${db}) is full, so the change was not saved (nothing half-done was kept). Free some space and try again.`,
    );
    expect(r.err).not.toMatch(/database or disk is full|service unreachable/i);
    expect(r.out + r.err).not.toMatch(/Done in/);
    vi.restoreAllMocks();
    const after = inspect(db);
    expect(after.integrity).toBe('ok');
    expect(after.notes).toEqual(notes);
    // Pages of 500: the pass stopped before one more page fitted, and none is half written.
    expect(after.opportunities).toBe(before.opportunities);
    // With room again, the next sync completes.
    const again = await runCli(['sync', '--no-scores', '--no-citations'], { url: sim.url, db });
    expect(again.code, again.err).toBe(0);
    expect(again.out).toMatch(/Done in/);
    expect(inspect(db).opportunities).toBe(before.opportunities + 300);
  });

  it('a triage on a full disk: exit 5, named, the note not half saved', async () => {
    const { db, notes } = await cacheWithNotes('triage-full');
    const [id] = [...notes.keys()];
    // A note larger than the room left (the pages free inside the file included).
    whenOpened((c) => c.db.pragma(`max_page_count = ${c.db.pragma('page_count', { simple: true }) as number}`));
    const r = await runCli(['triage', '--brand', brand, '--id', id!, '--note', 'x'.repeat(99_000) + Math.random()], { url: sim.url, db });
    expect(r.code).toBe(5);
    expect(r.err).toContain(`The disk that holds the cache (${db}) is full`);
    expect(inspect(db).notes.get(id!)).toBe(notes.get(id!));
  });
});

describe('the cache turns read-only', () => {
  it('a triage: exit 5, read-only, naming the file and its folder (not "attempt to write a readonly database")', async () => {
    const { db, notes } = await cacheWithNotes('read-only');
    const [id] = [...notes.keys()];
    whenOpened((c) => c.db.pragma('query_only = ON'));
    const r = await runCli(['triage', '--brand', brand, '--id', id!, '--note', 'changed'], { url: sim.url, db });
    expect(r.code).toBe(5);
    expect(r.err).toContain(`workbench: The cache file ${db} is read-only, or on a read-only disk, so the change was not saved.`);
    expect(r.err).not.toContain('attempt to write a readonly database');
    expect(inspect(db).notes.get(id!)).toBe(notes.get(id!));
  });
});

// ---- a real small disk ---------------------------------------------------------

const mounts: string[] = [];
/** A tmpfs of `kb` KB at a new folder; the reason when this machine refuses to mount one. */
function smallDisk(name: string, kb: number): { dir: string; refused: string | null } {
  const dir = join(tmp.dir, name);
  mkdirSync(dir, { recursive: true });
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${kb}k`, 'tmpfs', dir], { encoding: 'utf8' });
  if (r.status === 0) mounts.push(dir);
  return { dir, refused: r.status === 0 ? null : (r.stderr || r.error?.message || `exit ${r.status}`).trim() };
}
const { dir: MOUNT, refused } = smallDisk('small-disk', 320);
afterAll(() => {
  for (const m of mounts) spawnSync('umount', [m]);
});

describe.skipIf(refused !== null)(`on a real 320 KB disk (tmpfs)${refused ? ` — skipped: this machine refused to mount one (${refused})` : ''}`, () => {
  it('a record export larger than the disk: exit 5, disk full for the file, nothing under its name, no part left', async () => {
    const { db } = await cacheWithNotes('big-record');
    const cache = await Cache.open(db);
    const ids = list(cache, { brandId: brand }, { limit: 60 }).map((o) => o.id);
    cache.tx(() => {
      for (const id of ids) setTriage(cache, brand, id, { note: `${id} `.repeat(300) });
    });
    cache.close();
    const out = join(MOUNT, 'record.json');
    const r = await runCli(['record', 'export', '--out', out], { url: sim.url, db });
    expect(r.code).toBe(5);
    expect(r.out).not.toMatch(/Wrote/);
    expect(r.err).toContain(`Your record could not be written to ${out} (ENOSPC). The disk is full: free some space and try again.`);
    expect(readdirSync(MOUNT)).toEqual([]);
  });

  it('a sync into a cache on the disk when it fills up: exit 5, named, no "Done"; the cache passes its check and keeps its notes', async () => {
    const { db: source, notes } = await cacheWithNotes('to-small-disk');
    // A disk with the cache on it and a little room: less than the new opportunities need.
    const disk = smallDisk('cache-disk', Math.ceil(statSync(source).size / 1024) + 96);
    expect(disk.refused).toBeNull();
    const db = join(disk.dir, 'workbench.db');
    cpSync(source, db);
    sim.mutate({ brand, added: 2000, changed: 0, removed: 0 });
    const r = await runCli(['sync', '--no-scores', '--no-citations'], { url: sim.url, db });
    expect(r.code).toBe(5);
    expect(r.err).toMatch(/is full/);
    expect(r.err).toContain(db);
    expect(r.out + r.err).not.toMatch(/Done in/);
    const after = inspect(db);
    expect(after.integrity).toBe('ok');
    expect(after.notes).toEqual(notes);
    expect(existsSync(db)).toBe(true);
  });
});

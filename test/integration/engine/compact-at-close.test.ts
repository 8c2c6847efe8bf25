// The space a bulk triage scatters inside the cache's indexes goes back at the
// next close, on a real file synced from the simulator: the file shrinks to
// what SQLite writes afresh, and the user's record and every opportunity read
// back the same. A few clicks, or a session that only read, leave the file as it is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { copyFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DEMO_KEY, startSimulator, type Simulator } from '../../../electron/simulator/server';
import { TrakkrClient } from '../../../electron/core/api/client';
import { Cache } from '../../../electron/core/store/cache';
import { runSync } from '../../../electron/core/sync';
import { FakeClock } from '../../support/fake-clock';
import { tempDir } from '../../support/tmp';
import { detail, list, setTriage, setTriageMany } from '../../support/store';

const tmp = tempDir();
let sim: Simulator;
let synced: string;
let brand: string;
let ids: string[];
/** Thresholds scaled to a 2,300-opportunity file (the defaults are for the app's sizes). */
const SMALL = { share: 0.1, minBytes: 64 * 1024 };

beforeAll(async () => {
  sim = await startSimulator({ seed: 7, opportunities: 2300, otherBrandOpportunities: 0, citationsPerBrand: 50, today: '2026-11-20' });
  synced = join(tmp.dir, 'synced.db');
  // With the thresholds scaled to this file, its first sync leaves it compact, as the app's does at its sizes.
  const cache = await Cache.open(synced, { compactAtClose: SMALL });
  brand = sim.brands[0]!.id;
  await runSync(cache, new TrakkrClient({ baseUrl: sim.url, apiKey: DEMO_KEY, requestsPerMinute: 0, clock: new FakeClock(), random: () => 0.5 }), {
    brandIds: [brand],
    scores: false,
    citations: false,
  });
  ids = (cache.db.prepare('SELECT id FROM opportunities ORDER BY rowid').all() as { id: string }[]).map((r) => r.id);
  cache.close();
});
afterAll(() => {
  sim.close();
  tmp.cleanup();
});

let n = 0;
async function copyOfSynced(): Promise<{ cache: Cache; path: string }> {
  const path = join(tmp.dir, `c-${++n}.db`);
  copyFileSync(synced, path);
  return { cache: await Cache.open(path, { compactAtClose: SMALL }), path };
}

/** Everything a reader sees: the user's record (triage, notes, history, exports, drafts) and every opportunity whole. */
async function everything(path: string) {
  const cache = await Cache.open(path, { compactAtClose: false });
  try {
    const record = JSON.parse(cache.record.readJson('test', new Date('2026-11-20T00:00:00Z')).json.toString('utf8')) as Record<string, unknown>;
    const history = cache.db.prepare('SELECT * FROM history ORDER BY id').all();
    return { record, history, opportunities: ids.map((id) => detail(cache, brand, id)), ok: cache.db.pragma('integrity_check', { simple: true }) };
  } finally {
    cache.close();
  }
}

const fileBytes = (path: string) =>
  statSync(path).size +
  (() => {
    try {
      return statSync(`${path}-wal`).size;
    } catch {
      return 0;
    }
  })();

describe('the space a bulk triage leaves', () => {
  it('goes back at the close after it: the file shrinks to a fresh copy, nothing is lost', async () => {
    const { cache, path } = await copyOfSynced();
    // A bulk triage as a busy afternoon makes it: every other opportunity staged and starred, a note on every third.
    const half = ids.filter((_, i) => i % 2 === 0);
    for (let i = 0; i < half.length; i += 100) {
      setTriageMany(cache, brand, half.slice(i, i + 100), { stage: (['Drafted', 'Won', 'Not a fit'] as const)[(i / 100) % 3]!, starred: (i / 100) % 2 === 0 });
    }
    for (const id of ids.filter((_, i) => i % 3 === 0)) setTriage(cache, brand, id, { note: `Called about ${id}, talked through the angle.` });
    cache.db.pragma('wal_checkpoint(TRUNCATE)');
    const before = fileBytes(path);
    // A file larger than the closer allows time for (the app's quit) is left as it is.
    expect(cache.compactIfLoose({ ...SMALL, maxFileBytes: before - 1 }).compacted).toBe(false);
    expect(fileBytes(path)).toBe(before);
    const loose = cache.looseSpace();
    expect(loose.indexUnused / loose.indexBytes).toBeGreaterThan(SMALL.share);
    // What SQLite writes afresh from the same data: the size the close must reach.
    const fresh = join(tmp.dir, `fresh-${n}.db`);
    cache.db.exec(`VACUUM INTO '${fresh}'`);
    cache.close();
    const after = fileBytes(path);
    expect(after).toBeLessThan(before);
    expect(after).toBeLessThanOrEqual(statSync(fresh).size);
    // Nothing lost: the same record, history and opportunities as the fresh copy holds, and a sound file.
    const got = await everything(path);
    const want = await everything(fresh);
    expect(got.ok).toBe('ok');
    expect(got.history.length).toBeGreaterThan(1500);
    expect(got).toEqual(want);
    expect((got.record.triage as unknown[]).length).toBe(new Set([...half, ...ids.filter((_, i) => i % 3 === 0)]).size);
  });

  it('stays when there is little of it (a few clicks) or nothing was written (a session that only read)', async () => {
    const { cache, path } = await copyOfSynced();
    setTriage(cache, brand, ids[5]!, { starred: true });
    // Something pitched (its follow-up due), so a reader's list fills the pitched set and the follow-ups due.
    setTriage(cache, brand, ids[6]!, { stage: 'Contacted', contacted_at: '2026-11-01' });
    cache.db.pragma('wal_checkpoint(TRUNCATE)');
    const pages = cache.db.pragma('page_count', { simple: true }) as number;
    expect(cache.compactIfLoose(SMALL).compacted).toBe(false);
    cache.close();
    const db = new Database(path, { readonly: true });
    expect(db.pragma('page_count', { simple: true })).toBe(pages);
    expect(db.prepare('SELECT starred FROM triage WHERE opportunity_id = ?').get(ids[5])).toEqual({ starred: 1 });
    db.close();
    // A session that only read: close measures nothing and rewrites nothing, even with every threshold at zero.
    const reader = await Cache.open(path, { compactAtClose: { share: 0, minBytes: 0 } });
    expect(detail(reader, brand, ids[5]!)?.triage.starred).toBe(true);
    // Its lists fill this connection's temporary tables (a search's matches, the pitched set, the follow-ups due),
    // which SQLite counts as changes too: not a write to the cache.
    const word = detail(reader, brand, ids[0]!)!
      .item.title.split(/\W+/)
      .find((w) => w.length >= 4)!;
    expect(list(reader, { brandId: brand, search: word, sort: 'relevance' }).length).toBeGreaterThan(0);
    expect(list(reader, { brandId: brand, alreadyPitched: false }).length).toBeGreaterThan(0);
    expect(list(reader, { brandId: brand, view: 'due' }).map((o) => o.id)).toContain(ids[6]);
    expect((reader.db.prepare('SELECT total_changes() AS n').get() as { n: number }).n).toBeGreaterThan(0);
    const mtime = statSync(path).mtimeMs;
    reader.close();
    expect(statSync(path).mtimeMs).toBe(mtime);
  });

  it('is not waited for while another program holds the file: the close leaves it as it is', async () => {
    const { cache, path } = await copyOfSynced();
    const half = ids.filter((_, i) => i % 2 === 0);
    for (let i = 0; i < half.length; i += 100) setTriageMany(cache, brand, half.slice(i, i + 100), { stage: 'Won', starred: true });
    cache.db.pragma('wal_checkpoint(TRUNCATE)');
    // The app's own lock wait is long; another program (a terminal's sync) writes for three seconds: a VACUUM
    // that waited for it would run once it let go, and hold up the quit.
    cache.db.pragma('busy_timeout = 600000');
    const other = spawn(
      process.execPath,
      [
        '-e',
        `const db = new (require('better-sqlite3'))(process.argv[1]); db.exec('BEGIN IMMEDIATE'); console.log('locked'); setTimeout(() => { db.exec('ROLLBACK'); db.close(); }, 3000);`,
        path,
      ],
      { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => other.stdout.once('data', () => resolve()));
    const pages = cache.db.pragma('page_count', { simple: true }) as number;
    expect(cache.compactIfLoose(SMALL).compacted).toBe(false);
    expect(cache.db.pragma('busy_timeout', { simple: true })).toBe(600000);
    await new Promise((resolve) => other.once('exit', resolve));
    expect(cache.db.pragma('page_count', { simple: true })).toBe(pages);
    cache.close({ compact: false });
    expect(fileBytes(path)).toBeGreaterThan(0);
  });
});

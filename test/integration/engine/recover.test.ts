// Damage without loss: real cache files with the user's record, damaged for
// real (pages overwritten in the middle, the file cut short), then recovered.
// Every triage row that could still be read from the damaged file comes over,
// the damaged file is kept aside, and the new cache is sound.
import { afterAll, describe, expect, it } from 'vitest';
import { closeSync, existsSync, mkdirSync, openSync, truncateSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Cache } from '../../../electron/core/store/cache';
import { recoverDamagedCache, salvageUserRecord } from '../../../electron/core/store/recover';
import type { RecordFile, TriageRecord } from '../../../shared/user-record';
import { tempDir } from '../../support/tmp';
import { setTriage, setTriageMany } from '../../support/store';
import { allTriage } from '../../../electron/core/store/triage';

const tmp = tempDir();
afterAll(() => tmp.cleanup());
let n = 0;
const freshPath = () => {
  const dir = join(tmp.dir, `case-${++n}`);
  mkdirSync(dir);
  return join(dir, 'workbench.db');
};
const BRAND = 'a'.repeat(32);
const ROWS = 4000;

/** A cache whose user's record fills a few hundred pages: triage with notes, do-not-contact, exports, history. */
async function cacheWithRecord(path: string): Promise<TriageRecord[]> {
  const cache = await Cache.open(path);
  for (let i = 0; i < ROWS; i += 100) {
    const ids = Array.from({ length: 100 }, (_, k) => `opp-${String(i + k).padStart(5, '0')}`);
    setTriageMany(
      cache,
      BRAND,
      ids,
      { stage: i % 200 === 0 ? 'Won' : 'Drafted', starred: i % 300 === 0 },
      `2026-11-${String(1 + (i % 20)).padStart(2, '0')}T10:00:00.000Z`,
    );
    for (const id of ids)
      setTriage(cache, BRAND, id, { note: `Called about ${id}. ${'Notes on the outlet and the angle. '.repeat(4)}` }, '2026-11-21T09:00:00.000Z');
  }
  for (let i = 0; i < 60; i++) cache.doNotContact.add(`press${i}@outlet${i}.example`, 'asked not to', '2026-11-02T00:00:00.000Z');
  cache.exports.add({
    at: '2026-11-20T12:00:00.000Z',
    brand_id: BRAND,
    preset: 'contacts',
    file_name: 'batch.csv',
    rows: 120,
    opportunities: 100,
    marked_exported: 100,
  });
  const all = allTriage(cache.readable);
  // Rewritten in order (as after a VACUUM), so the schema is on the first pages and the user's tables follow.
  cache.db.exec('VACUUM');
  cache.close();
  return all;
}

/** The pages (1-based) of a table or index, from SQLite's own page map. */
function pagesOf(path: string, name: string): number[] {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT pageno FROM dbstat WHERE name = ? ORDER BY pageno').all(name) as { pageno: number }[]).map((r) => r.pageno);
  } finally {
    db.close();
  }
}

/** The file's page size (what a page number is in bytes). */
function pageSize(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return db.pragma('page_size', { simple: true }) as number;
  } finally {
    db.close();
  }
}

function overwrite(path: string, page: number, offset: number, bytes: number): void {
  const size = pageSize(path);
  const fd = openSync(path, 'r+');
  try {
    writeSync(fd, Buffer.alloc(bytes, 0xa5), 0, bytes, (page - 1) * size + offset);
  } finally {
    closeSync(fd);
  }
}

/**
 * The triage rows that can still be read from the damaged file, judged on
 * their own (one lookup per known key, in a separate connection): what a
 * recovery must bring back, at the least.
 */
function readableRows(path: string, keys: TriageRecord[]): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  let db: Database.Database;
  let q: Database.Statement;
  try {
    db = new Database(path, { readonly: true });
    // As the recovery reads it: a file cut short is refused as a whole otherwise.
    db.unsafeMode(true);
    db.pragma('writable_schema = ON');
    q = db.prepare('SELECT * FROM triage WHERE brand_id = ? AND opportunity_id = ?');
  } catch {
    return out; // the schema itself cannot be read: no row is readable
  }
  try {
    for (const k of keys) {
      try {
        const r = q.get(k.brand_id, k.opportunity_id) as Record<string, unknown> | undefined;
        if (r) out.set(k.opportunity_id, r);
      } catch {
        // unreadable
      }
    }
  } finally {
    db.close();
  }
  return out;
}

async function recoverAndCompare(path: string, before: TriageRecord[], latestBackup?: RecordFile) {
  const readable = readableRows(path, before);
  const { cache, report } = await recoverDamagedCache(path, {
    appVersion: 'test',
    latestBackup: async () => (latestBackup ? { file: 'backup.json.gz', record: latestBackup } : null),
  });
  try {
    const after = new Map(allTriage(cache.readable).map((r) => [r.opportunity_id, r]));
    // Every row readable before recovery is there, with its values.
    for (const [id, r] of readable) {
      const got = after.get(id);
      expect(got, id).toBeDefined();
      expect({ stage: got!.stage, note: got!.note, starred: got!.starred }).toEqual({ stage: r.stage, note: r.note, starred: r.starred === 1 });
    }
    expect(cache.db.pragma('integrity_check', { simple: true })).toBe('ok');
    return { cache, report, readable, after };
  } catch (e) {
    cache.close();
    throw e;
  }
}

describe('a damaged cache keeps the user record', () => {
  it('pages overwritten in the middle of the triage table: every readable row comes over, the rest is said', async () => {
    const path = freshPath();
    const before = await cacheWithRecord(path);
    const pages = pagesOf(path, 'triage');
    expect(pages.length).toBeGreaterThan(100);
    // Three leaf pages in the middle, their headers and cells overwritten.
    for (const p of [pages[40]!, pages[41]!, pages[90]!]) overwrite(path, p, 0, 1500);
    const { cache, report, readable, after } = await recoverAndCompare(path, before);
    expect(readable.size).toBeLessThan(ROWS);
    expect(readable.size).toBeGreaterThan(ROWS * 0.8);
    expect(after.size).toBeGreaterThanOrEqual(readable.size);
    expect(report.recovered.do_not_contact).toBe(60);
    expect(report.recovered.exports).toBe(1);
    expect(report.damagedTables).toContain('triage');
    expect(report.message).toMatch(
      /^The cache file was damaged\. It was kept aside as .+workbench\.db\.damaged-.+ and a fresh cache was built\. Recovered from it: [\d,]+ triaged opportunities \([\d,]+ notes\), 60 do-not-contact entries, 1 export and [\d,]+ history lines\./,
    );
    expect(report.message).toMatch(/Damage reached triage: rows stored on the damaged pages may be missing\./);
    expect(existsSync(report.damagedFile)).toBe(true);
    cache.close();
  });

  it('the file cut short after the triage table: every triage row comes over, and the history before the cut', async () => {
    const path = freshPath();
    const before = await cacheWithRecord(path);
    const triagePages = pagesOf(path, 'triage');
    const historyPages = pagesOf(path, 'history');
    const cut = (Math.max(...triagePages, ...pagesOf(path, 'triage_by_stage')) + 1) * pageSize(path);
    expect(Math.max(...historyPages) * pageSize(path)).toBeGreaterThan(cut);
    truncateSync(path, cut);
    const { cache, report, readable, after } = await recoverAndCompare(path, before);
    expect(readable.size).toBe(ROWS);
    expect(after.size).toBe(ROWS);
    expect(report.damagedTables).toContain('history');
    cache.close();
  });

  it('the file cut short in the middle of the triage table: what can be read comes over, and the newest backup fills in the rest', async () => {
    const path = freshPath();
    const before = await cacheWithRecord(path);
    // A backup of the record taken before the damage (what the app writes each hour).
    const c0 = await Cache.open(path);
    const backup = c0.record.read('test');
    c0.close();
    // Cut in the middle of the triage table's pages (a disk that filled up, a copy that stopped).
    const pages = pagesOf(path, 'triage');
    truncateSync(path, (pages[Math.floor(pages.length / 2)]! - 1) * pageSize(path));
    const { cache, report, readable, after } = await recoverAndCompare(path, before, backup);
    expect(readable.size).toBeLessThan(ROWS);
    // With the backup, nothing is lost.
    expect(after.size).toBe(ROWS);
    expect(report.backup?.added).toBeGreaterThan(0);
    for (const r of before) expect(after.get(r.opportunity_id)!.note).toBe(r.note);
    cache.close();
  });

  it('the table root overwritten: rows are read through the index and one by one where the walk stops', async () => {
    const path = freshPath();
    const before = await cacheWithRecord(path);
    const pages = pagesOf(path, 'triage');
    // An interior page of the b-tree (a walk from the root stops there), not the root itself.
    overwrite(path, pages[1]!, 0, 64);
    const salvage = salvageUserRecord(path);
    const readable = readableRows(path, before);
    expect(salvage.tables.triage.rows.length).toBeGreaterThanOrEqual(readable.size);
    const { cache } = await recoverAndCompare(path, before);
    cache.close();
  });

  it('a file that is not a database at all: nothing to read, said in plain words; the backup brings the record back', async () => {
    const path = freshPath();
    const before = await cacheWithRecord(path);
    const c0 = await Cache.open(path);
    const backup = c0.record.read('test');
    c0.close();
    overwrite(path, 1, 0, pageSize(path));
    const { cache, report, after } = await recoverAndCompare(path, before, backup);
    expect(report.message).toMatch(/The damaged file could not be read at all/);
    expect(after.size).toBe(ROWS);
    cache.close();
  });
});

// The full-text index merged into one segment (store/search-index.ts) on a
// real SQLite file: after a first sync at once, after later ones in short
// steps once the segments add up; every search finds what it found before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Cache } from '../../../electron/core/store/cache';
import { mergeSearchIndex, optimizeSearchIndex, searchSegments } from '../../../electron/core/store/search-index';
import { tempDir } from '../../support/tmp';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const B = 'brand-segments';
const opp = (i: number, v = '') => ({
  _id: `id${i}`,
  opportunity_type: 'publication-gap',
  domain: `site${i % 7}.com`,
  title: `${['Coffee', 'Tea', 'Cocoa'][i % 3]} guide ${i}${v}`,
  status: 'New',
  difficulty: 'Easy',
  priority_score: i % 100,
  pitch_body: i % 2 ? 'brewing tips' : 'tasting notes',
  contact_emails: [`a${i}@site.com`],
});

/** What each search matches (rowids), straight from the full-text index. */
const matches = (cache: Cache) =>
  ['"coffee"*', '"co"*', '"t"*', '"guide" AND "brewing"', '"a1"*', '"updated"'].map((q) =>
    cache.db.prepare('SELECT rowid FROM opportunity_search WHERE opportunity_search MATCH ? ORDER BY rowid').pluck().all(q),
  );

describe('the full-text index in one segment', () => {
  let cache: Cache;
  beforeAll(async () => {
    cache = await Cache.open(join(tmp.dir, 'segments.db'));
    // Twenty pages, each its own transaction (as a sync writes them): each one a segment, FTS5 merging some of them.
    for (let p = 0; p < 20; p++)
      cache.tx(() =>
        cache.opportunities.upsertPage(
          B,
          Array.from({ length: 50 }, (_, i) => opp(p * 50 + i)),
          1,
          '2026-11-01T00:00:00Z',
        ),
      );
  });
  afterAll(() => cache.close());

  it('a later sync merges the segments in steps once they add up, and every search matches the same rows', async () => {
    const before = searchSegments(cache.db);
    expect(before).toBeGreaterThan(2);
    const found = matches(cache);
    expect(found.slice(0, 5).every((rows) => rows.length > 0)).toBe(true);
    // Few enough: left as they are.
    expect(await mergeSearchIndex(cache.db, { over: before })).toBe(0);
    expect(searchSegments(cache.db)).toBe(before);
    // More than it keeps: merged, a few pages a step, until one is left.
    const steps = await mergeSearchIndex(cache.db, { over: 1, stepPages: 2, pauseMs: 0 });
    expect(steps).toBeGreaterThan(1);
    expect(searchSegments(cache.db)).toBe(1);
    expect(matches(cache)).toEqual(found);
  });

  it('after the first sync the index is merged whole, and every search (a row rewritten since too) matches the same rows', () => {
    cache.tx(() => cache.opportunities.upsertPage(B, [opp(3, ' updated'), opp(5000)], 1, '2026-11-02T00:00:00Z'));
    expect(searchSegments(cache.db)).toBeGreaterThan(1);
    const found = matches(cache);
    expect(found[5]).toHaveLength(1);
    expect(optimizeSearchIndex(cache.db)).toBe(true);
    expect(searchSegments(cache.db)).toBe(1);
    expect(matches(cache)).toEqual(found);
    // Already whole: nothing to do.
    expect(optimizeSearchIndex(cache.db)).toBe(false);
  });
});

// Measuring the space a VACUUM would give back (the close's compactIfLoose,
// the CLI's compact) reads every index page once through dbstat: it runs
// with the small page cache of store/compaction.ts (with the app's 64 MB, a
// close after an export at 100,000 opportunities took the process 53 MB
// higher), and the app's own cache is back afterwards. A real SQLite file.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { join } from 'node:path';
import { Cache } from '../../../../electron/core/store/cache';
import { tempDir } from '../../../support/tmp';

/** The cache size each dbstat statement of `cache` is prepared under; `fail`: the statement refused (a busy or damaged file). */
function watchDbstat(cache: Cache, fail = false): unknown[] {
  const seen: unknown[] = [];
  const prepare = cache.db.prepare.bind(cache.db);
  vi.spyOn(cache.db, 'prepare').mockImplementation(((source: string) => {
    if (!/dbstat/i.test(source)) return prepare(source);
    seen.push(cache.db.pragma('cache_size', { simple: true }));
    if (fail) throw new Error('database disk image is malformed');
    return prepare(source);
  }) as typeof cache.db.prepare);
  return seen;
}

afterEach(() => vi.restoreAllMocks());

describe('the loose-space measure keeps the page cache small', () => {
  it('dbstat runs with an 8 MB page cache, for the measure alone and for a close after writes; the app cache is back after', async () => {
    const tmp = tempDir();
    const cache = await Cache.open(join(tmp.dir, 'loose.db'));
    try {
      const size = cache.db.pragma('cache_size', { simple: true });
      expect(size).toBe(-65536);
      const seen = watchDbstat(cache);
      const loose = cache.looseSpace();
      expect(loose.indexBytes).toBeGreaterThan(0);
      expect(cache.compactIfLoose().compacted).toBe(false);
      expect(seen).toEqual([-8192, -8192]);
      expect(cache.db.pragma('cache_size', { simple: true })).toBe(size);
    } finally {
      cache.close();
      tmp.cleanup();
    }
  });

  it('a close after writes measures through the small cache too', async () => {
    const tmp = tempDir();
    const cache = await Cache.open(join(tmp.dir, 'loose-close.db'));
    try {
      cache.db.prepare("INSERT INTO brand_keys (id) VALUES ('brand-a')").run();
      const seen = watchDbstat(cache);
      cache.close();
      expect(seen).toEqual([-8192]);
    } finally {
      tmp.cleanup();
    }
  });

  it('a measure that fails (dbstat refused) still puts the app cache back, alone and behind compactIfLoose', async () => {
    const tmp = tempDir();
    const cache = await Cache.open(join(tmp.dir, 'loose-fail.db'));
    try {
      const seen = watchDbstat(cache, true);
      expect(() => cache.looseSpace()).toThrow(/malformed/);
      expect(cache.db.pragma('cache_size', { simple: true })).toBe(-65536);
      expect(cache.compactIfLoose()).toMatchObject({ compacted: false, loose: null });
      expect(cache.db.pragma('cache_size', { simple: true })).toBe(-65536);
      expect(seen).toEqual([-8192, -8192]);
    } finally {
      vi.restoreAllMocks();
      cache.close();
      tmp.cleanup();
    }
  });
});

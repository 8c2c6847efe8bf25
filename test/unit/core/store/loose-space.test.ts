// Measuring the space a VACUUM would give back (the close's compactIfLoose,
// the CLI's compact) reads every index page once through dbstat: it runs
// with the small page cache of store/compaction.ts (with the app's 64 MB, a
// close after an export at 100,000 opportunities took the process 53 MB
// higher), and the app's own cache is back afterwards. A real SQLite file.
import { describe, expect, it, vi } from 'vitest';
import { join } from 'node:path';
import { Cache } from '../../../../electron/core/store/cache';
import { tempDir } from '../../../support/tmp';

describe('the loose-space measure keeps the page cache small', () => {
  it('dbstat runs with an 8 MB page cache, for the measure alone and for a close after writes; the app cache is back after', async () => {
    const tmp = tempDir();
    const cache = await Cache.open(join(tmp.dir, 'loose.db'));
    try {
      const size = cache.db.pragma('cache_size', { simple: true });
      expect(size).toBe(-65536);
      // The cache size each dbstat statement is prepared under.
      const seen: unknown[] = [];
      const prepare = cache.db.prepare.bind(cache.db);
      vi.spyOn(cache.db, 'prepare').mockImplementation(((source: string) => {
        if (/dbstat/i.test(source)) seen.push(cache.db.pragma('cache_size', { simple: true }));
        return prepare(source);
      }) as typeof cache.db.prepare);
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
});

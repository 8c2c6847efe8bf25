// A cache holding one brand's records, as a sync would leave it: for export tests.
import { join } from 'node:path';
import { Cache } from '../../electron/core/store/cache';

/** The brand every export test uses. */
export const BRAND = '1749113348709x432280934699237400';

/** A cache file `name` in `dir` with these records for BRAND (Northwind Coffee). */
export async function cacheWith(dir: string, name: string, records: Record<string, unknown>[]): Promise<Cache> {
  const cache = await Cache.open(join(dir, name));
  cache.brands.replaceAll([{ id: BRAND, name: 'Northwind Coffee' }], '2026-11-01T00:00:00Z');
  cache.tx(() => cache.opportunities.upsertPage(BRAND, records as never, 1, '2026-11-01T00:00:00Z'));
  return cache;
}

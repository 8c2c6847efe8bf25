// Following page cursors to the end: the next page is fetched while the caller
// works on this one. A service that would keep a sync going forever is
// stopped with a plain error: a cursor handed back twice, pages that keep
// promising more while empty, the same page again under a new cursor, and
// more pages (or more time) than any real brand needs.
import { createHash } from 'node:crypto';
import type { Pagination } from '../../../shared/api/schemas';
import { ApiError } from './errors';

export interface CursorLimits {
  /** Empty pages in a row that still say more follows, before it stops. Default 3. */
  maxEmptyPages?: number;
  /** Pages in one pass; far more than any brand has (100,000 opportunities are 200 pages of 500). Default 2,000. */
  maxPages?: number;
  /** Time for one pass. Default 6 hours (2,000 pages at the slowest plan's pace take under two). */
  maxMs?: number;
  /** The clock (tests). */
  now?: () => number;
}

export const DEFAULT_CURSOR_LIMITS = { maxEmptyPages: 3, maxPages: 2_000, maxMs: 6 * 3_600_000 } as const;

const again = 'Try the sync again later; if it keeps happening, the service is at fault.';

/** What a page holds, as one short fingerprint: its records' ids (or the records themselves) in order. */
function fingerprint(items: readonly unknown[]): string {
  const hash = createHash('sha256');
  for (const item of items) {
    const o = item as { id?: unknown; unique_key?: unknown } | null;
    const key = typeof o?.id === 'string' ? o.id : typeof o?.unique_key === 'string' ? o.unique_key : JSON.stringify(item);
    hash.update(key ?? 'null').update('\n');
  }
  return hash.digest('base64');
}

/**
 * Every page from `start` (undefined: the first) until `has_more` is false.
 * The next page is requested while the caller works on this one, so the
 * network and the caller's writes overlap. A page that breaks one of the
 * rules above is yielded (it is real data) before the error, except a
 * repeated one, which is not yielded again.
 */
export async function* followCursors<P extends { pagination: Pagination; items?: readonly unknown[] }>(
  fetchPage: (cursor: string | undefined) => Promise<P>,
  start: string | undefined,
  limits: CursorLimits = {},
): AsyncGenerator<P> {
  const { maxEmptyPages, maxPages, maxMs } = { ...DEFAULT_CURSOR_LIMITS, ...limits };
  const now = limits.now ?? Date.now;
  const began = now();
  const seen = new Set<string>();
  const contents = new Set<string>();
  let pages = 0;
  let emptyInARow = 0;
  if (start !== undefined) seen.add(start);
  let pending: Promise<P> | null = fetchPage(start);
  try {
    while (pending) {
      const page: P = await pending;
      pending = null;
      pages++;
      const next = page.pagination.next_cursor;
      const more = page.pagination.has_more && next !== null && next !== '';
      const items = page.items ?? null;
      if (items && items.length > 0) {
        emptyInARow = 0;
        const print = fingerprint(items);
        if (contents.has(print) && more)
          throw new ApiError(
            'bad-response',
            `The service sent a page it had already sent, under a new cursor (page ${pages}); stopped so as not to fetch the same pages forever. ${again}`,
          );
        contents.add(print);
      } else if (items && more) emptyInARow++;
      if (more) {
        let stop: string | null = null;
        if (seen.has(next)) stop = 'The service handed back a page cursor it had already given; stopped to avoid fetching the same pages forever.';
        else if (emptyInARow >= maxEmptyPages)
          stop = `The service sent ${emptyInARow} empty pages in a row while saying more would follow; stopped so as not to fetch forever.`;
        else if (pages >= maxPages)
          stop = `The service kept sending pages past ${maxPages.toLocaleString('en-US')}, more than any brand has; stopped so as not to fetch forever.`;
        else if (now() - began >= maxMs)
          stop = `The service kept sending pages for more than ${Math.round(maxMs / 3_600_000)} hours; stopped so as not to fetch forever.`;
        if (stop) {
          yield page;
          throw new ApiError('bad-response', `${stop} ${again}`);
        }
        seen.add(next);
        pending = fetchPage(next);
        pending.catch(() => {}); // handled when awaited; the caller may stop early
      }
      yield page;
    }
  } finally {
    pending = null;
  }
}

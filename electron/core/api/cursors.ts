// Following page cursors to the end: the next page is fetched while the caller works on
// this one, and a cursor handed back twice stops the loop with an error.
import type { Pagination } from '../../../shared/api/schemas';
import { ApiError } from './errors';

/**
 * Every page from `start` (undefined: the first) until `has_more` is false.
 * The next page is requested while the caller works on this one, so the
 * network and the caller's writes overlap.
 */
export async function* followCursors<P extends { pagination: Pagination }>(
  fetchPage: (cursor: string | undefined) => Promise<P>,
  start: string | undefined,
): AsyncGenerator<P> {
  const seen = new Set<string>();
  if (start !== undefined) seen.add(start);
  let pending: Promise<P> | null = fetchPage(start);
  try {
    while (pending) {
      const page: P = await pending;
      pending = null;
      const next = page.pagination.next_cursor;
      const more = page.pagination.has_more && next !== null && next !== '';
      if (more) {
        if (seen.has(next)) {
          yield page;
          throw new ApiError(
            'bad-response',
            'The service handed back a page cursor it had already given; stopped to avoid fetching the same pages forever. Try the sync again later.',
          );
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

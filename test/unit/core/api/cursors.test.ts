// Following cursors alone: every page to the end, the next fetched early, a repeated cursor an error.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CURSOR_LIMITS, followCursors } from '../../../../electron/core/api/cursors';
import { ApiError } from '../../../../electron/core/api/errors';

type P = { n: number; pagination: { limit: number; has_more: boolean; next_cursor: string | null } };
/** Pages served in order; page i points to `nexts[i]` (null: the last). */
const pages = (nexts: (string | null)[]) => {
  const asked: (string | undefined)[] = [];
  const fetchPage = async (cursor: string | undefined): Promise<P> => {
    const n = asked.push(cursor) - 1;
    const next = nexts[n] ?? null;
    return { n, pagination: { limit: 1, has_more: next !== null, next_cursor: next } };
  };
  return { asked, fetchPage };
};

describe('followCursors', () => {
  it('yields every page until has_more is false', async () => {
    const { asked, fetchPage } = pages(['c1', 'c2', null]);
    const seen: number[] = [];
    for await (const p of followCursors(fetchPage, undefined)) seen.push(p.n);
    expect(seen).toEqual([0, 1, 2]);
    expect(asked).toEqual([undefined, 'c1', 'c2']);
  });

  it('asks for the next page before the caller is done with this one', async () => {
    const { asked, fetchPage } = pages(['c1', null]);
    const it = followCursors(fetchPage, undefined);
    await it.next();
    expect(asked).toEqual([undefined, 'c1']);
    await it.return(undefined);
  });

  it('a cursor handed back twice yields the page, then stops with a cursor-loop error', async () => {
    const { asked, fetchPage } = pages(['c1', 'c1', null]);
    const seen: number[] = [];
    let error: unknown;
    try {
      for await (const p of followCursors(fetchPage, undefined)) seen.push(p.n);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'bad-response' });
    expect(seen).toEqual([0, 1]);
    expect(asked).toEqual([undefined, 'c1']);
  });

  it('a start cursor counts as seen', async () => {
    const fetchPage = async (): Promise<P> => ({ n: 0, pagination: { limit: 1, has_more: true, next_cursor: 'start' } });
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const p of followCursors(fetchPage, 'start')) seen.push(p.n);
      })(),
    ).rejects.toMatchObject({ kind: 'bad-response' });
    expect(seen).toEqual([0]);
  });
});

describe('followCursors: a service that would keep a sync going forever', () => {
  type Q = { items: unknown[]; pagination: { limit: number; has_more: boolean; next_cursor: string | null } };
  /** An endless service: page i holds `itemsOf(i)` and always promises more under a new cursor. */
  const endless = (itemsOf: (i: number) => unknown[]) => {
    let i = 0;
    const fetchPage = async (): Promise<Q> => ({ items: itemsOf(i), pagination: { limit: 2, has_more: true, next_cursor: `c${++i}` } });
    return { fetchPage, asked: () => i };
  };
  const drain = async (gen: AsyncGenerator<Q>) => {
    const got: Q[] = [];
    try {
      for await (const p of gen) got.push(p);
      return { got, error: null };
    } catch (e) {
      return { got, error: e as ApiError };
    }
  };

  it('empty pages that keep promising more: three in a row, then a plain error (and no fourth request)', async () => {
    const s = endless(() => []);
    const { got, error } = await drain(followCursors(s.fetchPage, undefined));
    expect(error).toMatchObject({ kind: 'bad-response', message: expect.stringContaining('sent 3 empty pages in a row while saying more would follow') });
    expect(got).toHaveLength(3);
    expect(s.asked()).toBe(3);
  });

  it('an empty page now and then among full ones is fine', async () => {
    let i = 0;
    const fetchPage = async (): Promise<Q> => {
      i++;
      return { items: i % 2 ? [{ id: `r${i}` }] : [], pagination: { limit: 2, has_more: i < 10, next_cursor: i < 10 ? `c${i}` : null } };
    };
    const { got, error } = await drain(followCursors(fetchPage, undefined));
    expect(error).toBeNull();
    expect(got).toHaveLength(10);
  });

  it('the same records again under a new cursor: stops before taking the repeat, whatever else differs', async () => {
    // Page one again and again, its records' other fields changing (as a timestamp would).
    const s = endless((i) => [
      { id: 'a', seen: i },
      { id: 'b', seen: i },
    ]);
    const { got, error } = await drain(followCursors(s.fetchPage, undefined));
    expect(error).toMatchObject({ kind: 'bad-response', message: expect.stringContaining('sent a page it had already sent, under a new cursor (page 2)') });
    expect(got).toHaveLength(1);
  });

  it('more pages than any brand has: stops at the bound with a plain error', async () => {
    const s = endless((i) => [{ id: `r${i}` }]);
    const { got, error } = await drain(followCursors(s.fetchPage, undefined, { maxPages: 25 }));
    expect(error).toMatchObject({ kind: 'bad-response', message: expect.stringContaining('kept sending pages past 25') });
    expect(got).toHaveLength(25);
    expect(s.asked()).toBe(25);
  });

  it('more time than any sync needs: stops at the bound with a plain error', async () => {
    let now = 0;
    const s = endless((i) => {
      now += 3_600_000; // an hour a page
      return [{ id: `r${i}` }];
    });
    const { got, error } = await drain(followCursors(s.fetchPage, undefined, { maxMs: 4 * 3_600_000, now: () => now }));
    expect(error).toMatchObject({ kind: 'bad-response', message: expect.stringContaining('for more than 4 hours') });
    expect(got.length).toBeLessThanOrEqual(5);
  });

  it('the default bounds: 3 empty pages, 2,000 pages, 6 hours', () => {
    expect(DEFAULT_CURSOR_LIMITS).toEqual({ maxEmptyPages: 3, maxPages: 2_000, maxMs: 6 * 3_600_000 });
  });
});

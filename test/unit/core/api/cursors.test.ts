// Following cursors alone: every page to the end, the next fetched early, a repeated cursor an error.
import { describe, expect, it } from 'vitest';
import { followCursors } from '../../../../electron/core/api/cursors';
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

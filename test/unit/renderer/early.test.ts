// lib/early.ts: an answer asked ahead is taken once, only by the same request, and only while fresh.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Early } from '../../../renderer/src/lib/early';

afterEach(() => vi.useRealTimers());

describe('Early', () => {
  it('is taken once, by a request with the same arguments', async () => {
    const e = new Early<number>();
    e.put({ filter: { brandId: 'b' }, limit: 200 }, Promise.resolve(7));
    expect(e.held).toBe(true);
    expect(e.take({ filter: { brandId: 'b' }, limit: 100 })).toBeNull();
    expect(e.held).toBe(false);
    e.put({ a: 1 }, Promise.resolve(8));
    await expect(e.take({ a: 1 })).resolves.toBe(8);
    expect(e.take({ a: 1 })).toBeNull();
  });
  it('is not taken once older than its limit: the request asks anew', () => {
    vi.useFakeTimers();
    const e = new Early<number>(2000);
    e.put({ a: 1 }, Promise.resolve(1));
    vi.advanceTimersByTime(2001);
    expect(e.take({ a: 1 })).toBeNull();
  });
  it('a failed early answer is no unhandled rejection, and the request that takes it sees the failure', async () => {
    const e = new Early<number>();
    e.put({ a: 1 }, Promise.reject(new Error('core stopped')));
    await new Promise((r) => setTimeout(r, 10));
    await expect(e.take({ a: 1 })).rejects.toThrow('core stopped');
  });
});

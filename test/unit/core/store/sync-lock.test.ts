// The sync lock's rules, with a fake `now`: who is stale (a heartbeat silent past
// the limit, or a process on this machine that is gone), who is not (a fresh
// heartbeat, a holder on another machine whose pid means nothing here), and a
// holder that finds its lock taken over stops its sync.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { Cache } from '../../../../electron/core/store/cache';
import { STALE_LOCK_MS, processAlive } from '../../../../electron/core/store/sync-lock';
import { holdBrandLock } from '../../../../electron/core/sync-lock-wait';
import { isCancellation } from '../../../../electron/core/api/errors';
import type { SyncEvent } from '../../../../shared/model';

const BRAND = 'a'.repeat(32);
const T0 = new Date('2026-11-20T10:42:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
/** A process that ran and ended: its pid names nobody now. */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid!;
/** A live process that is not this one (the test runner's parent). */
const livePid = process.ppid;

let cache: Cache;
beforeEach(async () => {
  cache = await Cache.open(':memory:');
});
afterEach(() => cache.close());

describe('SyncLocks.tryAcquire and isStale', () => {
  it('the fixtures are what they claim: one pid alive, the other gone', () => {
    expect(processAlive(livePid)).toBe(true);
    expect(processAlive(deadPid())).toBe(false);
  });

  it('a live process on this machine whose heartbeat went silent past the stale limit is taken over', () => {
    const other = { holder: 'other', label: 'workbench sync', pid: livePid, host: hostname() };
    expect(cache.locks.tryAcquire(BRAND, other, T0, 10_000)).toEqual({ acquired: true });
    const held = cache.locks.holderOf(BRAND)!;
    expect(cache.locks.isStale(held, at(10_001), 10_000)).toBe(true);
    const got = cache.locks.tryAcquire(BRAND, { holder: 'me', label: 'the app' }, at(10_001), 10_000);
    expect(got).toMatchObject({ acquired: true, tookOverFrom: { holder: 'other', pid: livePid, label: 'workbench sync' } });
    expect(cache.locks.holderOf(BRAND)).toMatchObject({ holder: 'me', pid: process.pid, started_at: at(10_001).toISOString() });
    // The old holder's next heartbeat finds the lock gone, and its release leaves the new holder's lock alone.
    expect(cache.locks.heartbeat(BRAND, 'other', at(10_002))).toBe(false);
    cache.locks.release(BRAND, 'other');
    expect(cache.locks.holderOf(BRAND)!.holder).toBe('me');
  });

  it('a live process with a fresh heartbeat keeps it, however long its sync runs', () => {
    const other = { holder: 'other', label: 'workbench sync', pid: livePid, host: hostname() };
    cache.locks.tryAcquire(BRAND, other, T0, 10_000);
    // A heartbeat every few seconds for a minute: never stale, never taken.
    for (let ms = 4_000; ms <= 60_000; ms += 4_000) {
      expect(cache.locks.heartbeat(BRAND, 'other', at(ms))).toBe(true);
      const got = cache.locks.tryAcquire(BRAND, { holder: 'me', label: 'the app' }, at(ms + 9_999), 10_000);
      expect(got).toMatchObject({ acquired: false, by: { holder: 'other', started_at: T0.toISOString(), heartbeat_at: at(ms).toISOString() } });
    }
    expect(cache.locks.isStale(cache.locks.holderOf(BRAND)!, at(60_000 + 10_000), 10_000)).toBe(false);
  });

  it('the default stale limit is used when none is given', () => {
    cache.locks.tryAcquire(BRAND, { holder: 'other', label: 'x', pid: livePid }, T0);
    expect(cache.locks.tryAcquire(BRAND, { holder: 'me', label: 'y' }, at(STALE_LOCK_MS)).acquired).toBe(false);
    expect(cache.locks.tryAcquire(BRAND, { holder: 'me', label: 'y' }, at(STALE_LOCK_MS + 1)).acquired).toBe(true);
  });

  it('a process on this machine that is gone is taken over at once, heartbeat fresh or not', () => {
    cache.locks.tryAcquire(BRAND, { holder: 'killed', label: 'workbench sync', pid: deadPid(), host: hostname() }, T0, 10_000);
    expect(cache.locks.isStale(cache.locks.holderOf(BRAND)!, at(1), 10_000)).toBe(true);
    expect(cache.locks.tryAcquire(BRAND, { holder: 'me', label: 'the app' }, at(1), 10_000)).toMatchObject({
      acquired: true,
      tookOverFrom: { holder: 'killed' },
    });
  });

  it('a holder on another machine is judged by its heartbeat only: its pid means nothing here', () => {
    // A pid that is dead here (and one that is alive here): neither says anything about the other machine.
    for (const pid of [deadPid(), livePid]) {
      cache.locks.release(BRAND, 'far');
      cache.locks.tryAcquire(BRAND, { holder: 'far', label: 'workbench sync', pid, host: `not-${hostname()}` }, T0, 10_000);
      const held = cache.locks.holderOf(BRAND)!;
      expect(held.host).toBe(`not-${hostname()}`);
      expect(cache.locks.isStale(held, at(9_000), 10_000)).toBe(false);
      expect(cache.locks.tryAcquire(BRAND, { holder: 'me', label: 'the app' }, at(9_000), 10_000)).toMatchObject({ acquired: false, by: { holder: 'far' } });
      expect(cache.locks.isStale(held, at(10_001), 10_000)).toBe(true);
    }
    expect(cache.locks.tryAcquire(BRAND, { holder: 'me', label: 'the app' }, at(10_001), 10_000)).toMatchObject({
      acquired: true,
      tookOverFrom: { holder: 'far' },
    });
  });

  it('the holder itself takes it again without losing when it started', () => {
    cache.locks.tryAcquire(BRAND, { holder: 'me', label: 'the app' }, T0, 10_000);
    expect(cache.locks.tryAcquire(BRAND, { holder: 'me', label: 'the app' }, at(5_000), 10_000)).toEqual({ acquired: true });
    expect(cache.locks.holderOf(BRAND)).toMatchObject({ started_at: T0.toISOString(), heartbeat_at: at(5_000).toISOString() });
  });
});

describe('holdBrandLock', () => {
  const brand = { id: BRAND, name: 'Acme' };

  it('keeps the lock alive with its heartbeat, so a waiter with a short stale limit does not take it over', async () => {
    const events: SyncEvent[] = [];
    const lock = await holdBrandLock(cache, brand, { emit: (e) => events.push(e), heartbeatMs: 20, staleLockMs: 200 });
    expect(lock.held).toBe(true);
    const mine = cache.locks.holderOf(BRAND)!;
    await new Promise((r) => setTimeout(r, 500));
    const now = cache.locks.holderOf(BRAND)!;
    expect(now.holder).toBe(mine.holder);
    expect(Date.parse(now.heartbeat_at)).toBeGreaterThan(Date.parse(mine.heartbeat_at));
    expect(cache.locks.tryAcquire(BRAND, { holder: 'waiter', label: 'the app' }, new Date(), 200).acquired).toBe(false);
    if (lock.held) {
      expect(lock.signal.aborted).toBe(false);
      lock.release();
    }
    expect(cache.locks.holderOf(BRAND)).toBeUndefined();
    expect(events).toEqual([]);
  });

  it('a holder whose lock was taken over stops its sync: the signal aborts with the reason in plain words', async () => {
    const events: SyncEvent[] = [];
    const outer = new AbortController();
    const ctx: { emit: (e: SyncEvent) => void; heartbeatMs: number; signal?: AbortSignal } = {
      emit: (e) => events.push(e),
      heartbeatMs: 20,
      signal: outer.signal,
    };
    const lock = await holdBrandLock(cache, brand, ctx);
    if (!lock.held) throw new Error('not held');
    // What the sync uses from here on is the lock's signal.
    expect(ctx.signal).toBe(lock.signal);
    // Another process judged this holder stale (say this laptop slept) and took the lock over.
    const later = new Date(Date.now() + STALE_LOCK_MS + 1);
    expect(cache.locks.tryAcquire(BRAND, { holder: 'other', label: 'workbench sync', pid: livePid }, later)).toMatchObject({
      acquired: true,
      tookOverFrom: { label: 'another sync' },
    });

    await new Promise<void>((resolve) => lock.signal.addEventListener('abort', () => resolve(), { once: true }));
    const reason = lock.signal.reason as Error;
    expect(isCancellation(reason)).toBe(true);
    expect(reason.message).toBe(
      `Another window or terminal took over the sync of Acme (workbench sync, process ${livePid}); this one stopped so that the two do not run side by side.`,
    );
    expect(events).toEqual([{ type: 'warning', brandId: BRAND, message: reason.message }]);
    // The caller's own signal is untouched, and comes back at release; the new holder keeps its lock.
    expect(outer.signal.aborted).toBe(false);
    lock.release();
    expect(ctx.signal).toBe(outer.signal);
    expect(cache.locks.holderOf(BRAND)!.holder).toBe('other');
  });

  it("a cancel by the caller still reaches the sync through the lock's signal", async () => {
    const outer = new AbortController();
    const lock = await holdBrandLock(cache, brand, { emit: () => {}, signal: outer.signal });
    if (!lock.held) throw new Error('not held');
    outer.abort();
    expect(lock.signal.aborted).toBe(true);
    lock.release();
  });
});

// Holding a brand's sync lock for the length of its sync: wait for another
// process's sync of the same brand (saying who and since when), or skip; keep
// a heartbeat while holding it; take over a lock whose holder is gone. A
// holder whose lock was taken over (its heartbeat stalled past the stale limit,
// e.g. a laptop asleep) stops its sync instead of going on beside the new one.
import { randomUUID } from 'node:crypto';
import { ApiError } from './api/errors';
import type { Cache } from './store/cache';
import { STALE_LOCK_MS, type LockHolder } from './store/sync-lock';
import type { SyncEvent } from '../../shared/model';

export interface LockOptions {
  /** What this sync is, in the words the other side's message uses. Default "another sync". */
  holderLabel?: string;
  /** When another process is syncing the brand: wait for it (default), or skip the brand. */
  whenBusy?: 'wait' | 'skip';
  /** How often to look again while waiting. Default 1 s. */
  lockPollMs?: number;
  /** How often the holder says it is still at work. Default 5 s. */
  heartbeatMs?: number;
  /** A lock silent this long is taken over. Default 30 s. */
  staleLockMs?: number;
}

interface Ctx extends LockOptions {
  /**
   * The sync's cancel signal. While the lock is held, holdBrandLock replaces it
   * with one that also aborts when the lock is lost (taken over by another
   * process), so everything the sync does with `ctx.signal` stops then; release()
   * puts the caller's signal back.
   */
  signal?: AbortSignal;
  emit: (e: SyncEvent) => void;
}

/** When held: `signal` aborts (reason: an ApiError 'cancelled' in plain words) if another process takes the lock over. */
export type HeldLock = { held: true; signal: AbortSignal; release: () => void } | { held: false; reason: string };

const clock = (iso: string) => new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });

/** "Another window or terminal took over the sync of Acme (the app, process 4242); this one stopped." */
export function takenOverMessage(brandName: string, by: LockHolder | undefined): string {
  const who = by ? ` (${by.label}, process ${by.pid})` : '';
  return `Another window or terminal took over the sync of ${brandName}${who}; this one stopped so that the two do not run side by side.`;
}

/** "A sync of Acme is already running (workbench sync, process 4242) since 10:42" */
export function busyMessage(brandName: string, by: LockHolder): string {
  return `A sync of ${brandName} is already running in another window or terminal (${by.label}, process ${by.pid}) since ${clock(by.started_at)}`;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new ApiError('cancelled', 'Cancelled.'));
    const t = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', abort);
      resolve();
    }
    function abort() {
      clearTimeout(t);
      reject(new ApiError('cancelled', 'Cancelled.'));
    }
    signal?.addEventListener('abort', abort, { once: true });
  });
}

/**
 * Take the brand's lock, waiting while another live process holds it (or
 * skipping, with `whenBusy: 'skip'`). If the other process completed a sync
 * of the brand while this one waited, there is nothing left to do: skipped,
 * with the reason.
 */
export async function holdBrandLock(cache: Cache, brand: { id: string; name: string }, ctx: Ctx): Promise<HeldLock> {
  const me = { holder: randomUUID(), label: ctx.holderLabel ?? 'another sync' };
  const stale = ctx.staleLockMs ?? STALE_LOCK_MS;
  let waitedSince: string | null = null;
  let lastSaid = '';
  for (;;) {
    const got = cache.locks.tryAcquire(brand.id, me, new Date(), stale);
    if (got.acquired) {
      if (got.tookOverFrom) {
        ctx.emit({
          type: 'warning',
          brandId: brand.id,
          message: `The earlier sync of ${brand.name} (${got.tookOverFrom.label}, process ${got.tookOverFrom.pid}) stopped without finishing; this sync takes over and resumes it.`,
        });
      }
      break;
    }
    const message = busyMessage(brand.name, got.by);
    if ((ctx.whenBusy ?? 'wait') === 'skip') return { held: false, reason: `${message}; skipped.` };
    waitedSince ??= new Date().toISOString();
    if (message !== lastSaid) {
      ctx.emit({ type: 'blocked', brandId: brand.id, message: `${message}; waiting for it to finish.` });
      lastSaid = message;
    }
    await sleep(ctx.lockPollMs ?? 1000, ctx.signal);
  }

  if (waitedSince) {
    const last = cache.runs.last(brand.id);
    if (last?.state === 'done' && last.finished_at && last.finished_at >= waitedSince) {
      cache.locks.release(brand.id, me.holder);
      return { held: false, reason: `${brand.name} was synced by the other window or terminal while this one waited; nothing left to do.` };
    }
  }

  // The heartbeat. When it finds the lock no longer ours (taken over as stale, e.g. after this process
  // was suspended), the sync stops: its signal aborts with the reason, in plain words.
  const lost = new AbortController();
  const callerSignal = ctx.signal;
  const signal = callerSignal ? AbortSignal.any([callerSignal, lost.signal]) : lost.signal;
  ctx.signal = signal;
  const beat = setInterval(() => {
    let still: boolean;
    try {
      still = cache.locks.heartbeat(brand.id, me.holder);
    } catch {
      // A busy moment or a closed cache: the next beat tries again; a silent holder is only ever taken over, never harmed.
      return;
    }
    if (still) return;
    clearInterval(beat);
    let by: LockHolder | undefined;
    try {
      by = cache.locks.holderOf(brand.id);
    } catch {
      by = undefined;
    }
    const message = takenOverMessage(brand.name, by);
    ctx.emit({ type: 'warning', brandId: brand.id, message });
    lost.abort(new ApiError('cancelled', message));
  }, ctx.heartbeatMs ?? 5000);
  beat.unref?.();
  return {
    held: true,
    signal,
    release: () => {
      clearInterval(beat);
      if (ctx.signal === signal) ctx.signal = callerSignal;
      try {
        // Only deletes the lock while it is still ours: a lock taken over stays with its new holder.
        cache.locks.release(brand.id, me.holder);
      } catch {
        // The cache closed under us (quit): the lock goes stale and the next sync takes it over.
      }
    },
  };
}

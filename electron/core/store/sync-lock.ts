// At most one sync of a brand at a time, across every process that opens the
// cache (the app, a scheduled `workbench sync`, a second terminal). The lock is
// a row in the cache itself, taken in a write transaction, naming its holder
// (a token, pid, host, what it is) and refreshed by a heartbeat. A holder that
// crashed or was killed cannot keep it: a lock whose heartbeat is older than
// the stale limit, or whose process on this machine is gone, is taken over.
import { hostname } from 'node:os';
import type { DB } from './db';
import { sql } from './sql';
import { Statements } from './statements';

export interface LockHolder {
  holder: string;
  pid: number;
  host: string;
  /** What holds it, in words: "the app", "workbench sync". */
  label: string;
  started_at: string;
  heartbeat_at: string;
}

export interface Claimant {
  holder: string;
  label: string;
  pid?: number;
  host?: string;
}

/** A heartbeat older than this is a holder that stopped without letting go. */
export const STALE_LOCK_MS = 30_000;

/** Is the process `pid` on this machine alive? (EPERM: it exists, another user's.) */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class SyncLocks {
  private readonly statements: Statements;

  constructor(private readonly db: DB) {
    this.statements = new Statements(db);
  }

  holderOf(brandId: string): LockHolder | undefined {
    return this.statements.get<LockHolder>(sql`SELECT holder, pid, host, label, started_at, heartbeat_at FROM sync_locks WHERE brand_id = ${brandId}`);
  }

  /** Is this holder gone: silent past the stale limit, or its process on this machine no longer running? */
  isStale(h: LockHolder, now: Date, staleMs = STALE_LOCK_MS): boolean {
    if (now.getTime() - Date.parse(h.heartbeat_at) > staleMs) return true;
    if (h.host === hostname() && h.pid !== process.pid && !processAlive(h.pid)) return true;
    return false;
  }

  /**
   * Take the brand's lock for `me`, or say who holds it. Taken when free, when
   * `me` already holds it, or when its holder is stale (then `tookOverFrom`
   * names it). One write transaction: two processes cannot both take it.
   */
  tryAcquire(
    brandId: string,
    me: Claimant,
    now = new Date(),
    staleMs = STALE_LOCK_MS,
  ): { acquired: true; tookOverFrom?: LockHolder } | { acquired: false; by: LockHolder } {
    return this.db
      .transaction(() => {
        const held = this.holderOf(brandId);
        if (held && held.holder !== me.holder && !this.isStale(held, now, staleMs)) return { acquired: false as const, by: held };
        const at = now.toISOString();
        this.statements.run(
          sql`INSERT OR REPLACE INTO sync_locks (brand_id, holder, pid, host, label, started_at, heartbeat_at)
            VALUES (${brandId}, ${me.holder}, ${me.pid ?? process.pid}, ${me.host ?? hostname()}, ${me.label}, ${held?.holder === me.holder ? held.started_at : at}, ${at})`,
        );
        return held && held.holder !== me.holder ? { acquired: true as const, tookOverFrom: held } : { acquired: true as const };
      })
      .immediate();
  }

  /** The holder is still at work. False when it no longer holds the lock (taken over as stale). */
  heartbeat(brandId: string, holder: string, now = new Date()): boolean {
    return this.statements.run(sql`UPDATE sync_locks SET heartbeat_at = ${now.toISOString()} WHERE brand_id = ${brandId} AND holder = ${holder}`).changes === 1;
  }

  release(brandId: string, holder: string): void {
    this.statements.run(sql`DELETE FROM sync_locks WHERE brand_id = ${brandId} AND holder = ${holder}`);
  }
}

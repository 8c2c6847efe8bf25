// The open cache and its health, a concern of the service: open it (a damaged
// file is kept aside and rebuilt with the user's record carried over, and the
// window is told once), check it in the background once the window has data,
// and recover in place if that check finds damage.
import { existsSync } from 'node:fs';
import { Cache } from '../store/cache';
import { CacheError, type OpenProgress } from '../store/db';
import { otherOpeners } from '../store/open-marker';
import type { PipelineDays } from '../store/opportunity-list';
import type { Backups } from './backups';
import { onFirstUse } from './lazy';

/** Rebuilding a damaged cache with the user's record carried over: loaded when a cache is found damaged (lazy.ts). */
const recovering = onFirstUse('cache recovery', () => import('../store/recover'));

export interface CacheKeeperDeps {
  appVersion: string;
  backups: () => Backups;
  /** The days the pipeline's filters are measured from (the user's calendar and settings), given to every cache opened. */
  days?: () => PipelineDays;
  log?(level: 'warn' | 'error', message: string): void;
  /** Each long step of opening the cache, as it starts (db.ts OpenOptions.onProgress). */
  onOpenProgress?(progress: OpenProgress): void;
  /** Another program holds the cache and a write (or the open) waits for it: the words to show in the window, once a wait. */
  onLockWait?(message: string): void;
}

/**
 * How the app waits for another program's lock on the cache: opening it and
 * each sync page wait up to 30 s without blocking the core (calls are answered
 * meanwhile); a write the user asked for (a note, a stage) blocks the core's
 * thread for 5 s at most, then says who holds the cache. Each wait is told to
 * the window (onLockWait), which shows it.
 */
export const APP_LOCK_WAIT = { lockWaitMs: 30_000, blockingWaitMs: 5_000 } as const;
/**
 * The largest cache the app compacts as it closes (store/cache.ts compactIfLoose): its VACUUM (about
 * 1 to 1.5 s for 240 MB here) must end within the quit's time for the core (main's QUIT_SHUTDOWN_MS,
 * 3 s), and only when the quit's stopping took no time (lifecycle.ts). A larger file is left as it is
 * at quit; a `workbench` command that writes compacts it.
 */
export const APP_COMPACT_MAX_BYTES = 256 * 1024 * 1024;

export class CacheKeeper {
  private current!: Cache;

  /** The open cache (a recovery replaces it; each one measures the pipeline's days from the user's settings). */
  get cache(): Cache {
    return this.current;
  }
  set cache(c: Cache) {
    if (this.deps.days) c.days = this.deps.days;
    this.current = c;
  }

  /** What the recovery of a damaged cache said, for the window to show once. */
  recovery: { message: string; at: string } | null = null;
  /** The last open rebuilt the cache (damaged, or started over): it holds the record but no opportunities until a sync. */
  recoveredAtOpen = false;

  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly deps: CacheKeeperDeps) {}

  /** Run `check` once, after `ms` (the background integrity check after launch); a failure is logged. */
  later(ms: number, check: () => Promise<unknown>): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      check().catch((e: unknown) => this.deps.log?.('error', `the background integrity check failed: ${e instanceof Error ? e.message : String(e)}`));
    }, ms);
    this.timer.unref?.();
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
  }

  /** Open the cache at `path`; a damaged one (or, with `startOver`, any) is recovered instead. */
  async open(path: string, startOver = false): Promise<void> {
    // Another cache (the demo's, or the user's again) is opened on a click: the one left is not compacted under it.
    if (this.current?.db.open) this.current.close({ compact: false });
    this.recoveredAtOpen = false;
    try {
      if (startOver && existsSync(path)) await this.recover(path);
      else this.cache = await Cache.open(path, this.openOptions());
    } catch (e) {
      // A damaged cache: kept aside, a fresh one built, the user's record carried over (and said so).
      if (!(e instanceof CacheError) || e.kind !== 'cache-damaged') throw e;
      await this.recover(path);
    }
  }

  private openOptions() {
    return {
      ...APP_LOCK_WAIT,
      compactAtClose: { maxFileBytes: APP_COMPACT_MAX_BYTES },
      onProgress: this.deps.onOpenProgress,
      onLockWait: this.deps.onLockWait,
    };
  }

  private async recover(path: string, atOpen = true): Promise<void> {
    const { recoverDamagedCache } = await recovering();
    const { cache, report } = await recoverDamagedCache(path, { appVersion: this.deps.appVersion, latestBackup: () => this.deps.backups().latest() });
    this.cache = cache;
    this.recovery = { message: report.message, at: new Date().toISOString() };
    this.recoveredAtOpen = atOpen;
    this.deps.log?.('warn', report.message);
  }

  /** The window has shown the recovery notice: it is not shown again. */
  dismissRecovery(): { dismissed: boolean } {
    const had = this.recovery !== null;
    this.recovery = null;
    return { dismissed: had };
  }

  /**
   * The full integrity check, off the core's thread. Damage found: `stopAll`
   * (sync, exports) first, then the cache is recovered in place; returns what
   * to tell the user and whether it was repaired, or null when it is sound.
   * A file another window or terminal has open is not moved from under it:
   * the cache stays open as it is, and the user is told to close the others
   * and restart. Any other failure to repair reopens the file as it was.
   */
  async check(stopAll: () => Promise<void>): Promise<{ message: string; repaired: boolean } | null> {
    const result = await this.cache.checkIntegrity();
    // The log says where it ran: a worker that cannot load the database module (a packaged app's
    // worker may not read the asar) leaves it to the core's thread, which the window then waits on.
    if (result.ranIn === 'this-thread')
      this.deps.log?.('warn', "the integrity check ran on the core's thread: no worker thread could load the database module");
    if (result.ok) return null;
    this.deps.log?.('error', `the cache failed its integrity check: ${result.message}`);
    await stopAll();
    const path = this.cache.path;
    const others = otherOpeners(path);
    if (others.length > 0) {
      const message = `The cache file is damaged, and another window or terminal has it open (process ${others.join(', ')}), so it was not repaired now. Close it, then restart the app: the repair keeps your triage and notes.`;
      this.deps.log?.('error', message);
      return { message, repaired: false };
    }
    this.cache.close();
    try {
      await this.recover(path, false);
    } catch (e) {
      this.cache = await Cache.open(path, this.openOptions());
      const message = `The cache file is damaged and could not be repaired now (${e instanceof Error ? e.message : String(e)}). Nothing was changed; restart the app to try again.`;
      this.deps.log?.('error', message);
      return { message, repaired: false };
    }
    return { message: this.recovery!.message, repaired: true };
  }
}

// The open cache and its health, a concern of the service: open it (a damaged
// file is kept aside and rebuilt with the user's record carried over, and the
// window is told once), check it in the background once the window has data,
// and recover in place if that check finds damage.
import { existsSync } from 'node:fs';
import { Cache } from '../store/cache';
import { CacheError } from '../store/db';
import { recoverDamagedCache } from '../store/recover';
import type { Backups } from './backups';

export interface CacheKeeperDeps {
  appVersion: string;
  backups: () => Backups;
  log?(level: 'warn' | 'error', message: string): void;
}

export class CacheKeeper {
  cache!: Cache;
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
    if (this.cache?.db.open) this.cache.close();
    this.recoveredAtOpen = false;
    try {
      if (startOver && existsSync(path)) await this.recover(path);
      else this.cache = await Cache.open(path);
    } catch (e) {
      // A damaged cache: kept aside, a fresh one built, the user's record carried over (and said so).
      if (!(e instanceof CacheError) || e.kind !== 'corrupt') throw e;
      await this.recover(path);
    }
  }

  private async recover(path: string, atOpen = true): Promise<void> {
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
   * (sync, exports) first, then the cache is recovered in place; returns the
   * recovery's message, or null when the cache is sound.
   */
  async check(stopAll: () => Promise<void>): Promise<string | null> {
    const result = await this.cache.checkIntegrity();
    if (result.ok) return null;
    this.deps.log?.('error', `the cache failed its integrity check: ${result.message}`);
    await stopAll();
    const path = this.cache.path;
    this.cache.close();
    await this.recover(path, false);
    return this.recovery!.message;
  }
}

// The app in plain Node: its parts, opened, launched and closed. The parts
// (service-parts.ts) are the app's shared state, one per concern: the open
// cache and its health (cache-keeper.ts), opening, launch, demo mode and
// closing (lifecycle.ts), the connection to the API and the key
// (connection.ts), sync jobs, export jobs, the user's record files and backups
// (record-keeping.ts) and settings. The contract's handlers are given those
// parts (handlers.ts says how a handler reaches its work); nothing here
// stands between a handler and its work. Electron's core process and the UI
// test host both run this, each with its own Platform.
import type { Settings, SettingsPatch } from '../../../shared/contract';
import type { Cache } from '../store/cache';
import { cachePath } from './lifecycle';
import { warmUp } from './opportunities';
import { buildParts, type AppServiceOptions, type ServiceParts } from './service-parts';

export type { AppServiceOptions };

export class AppService {
  /** The parts, one per concern (service-parts.ts): what the contract's handlers are given. */
  readonly parts: ServiceParts;

  private constructor(opts: AppServiceOptions) {
    this.parts = buildParts(opts);
  }

  static async create(opts: AppServiceOptions): Promise<AppService> {
    const s = new AppService(opts);
    if (opts.demo) await s.parts.life.openDemo();
    else await s.parts.life.openCache(AppService.cachePath(opts), opts.keychain, opts.startOver);
    // While the window loads: read what it asks for first, so its first list comes from warm pages.
    setImmediate(() => warmUp(s.cache));
    return s;
  }

  /** The cache file a service with these options opens. */
  static cachePath(opts: { userDataDir: string; demo?: boolean }): string {
    return cachePath(opts);
  }

  get isDemo(): boolean {
    return this.parts.life.demo !== null;
  }

  /** The open cache (demo mode and a recovery open another). */
  get cache(): Cache {
    return this.parts.keeper.cache;
  }

  /** Today on the user's calendar (YYYY-MM-DD); a test fixes it. */
  today(): string {
    return this.parts.today();
  }

  /**
   * Settings changed by the app's host before the window asks (the core
   * process's start, a test pointing at its simulator); the window itself
   * goes through `settings:set`.
   */
  setSettings(patch: SettingsPatch): Settings {
    return this.parts.settings.set(patch);
  }

  /** Called once the window is up: a sync in the background, the no-reply rule, the integrity check (lifecycle.ts). */
  launch(): Promise<void> {
    return this.parts.life.launch();
  }

  /** The full integrity check, off the core's thread, once the window has data (lifecycle.ts). */
  checkIntegrity(): Promise<{ ok: boolean }> {
    return this.parts.life.checkIntegrity();
  }

  /** The no-reply rule now (launch runs it, then once an hour): how many moved to Not a fit (No reply). */
  applyNoReply(): number {
    return this.parts.life.noReplyRule();
  }

  /** Wait for the running sync (tests, shutdown). */
  settle(): Promise<void> {
    return this.parts.sync.settle();
  }

  /** Stop what runs and close the cache, waiting at most `settleMs` for a running sync. */
  close(opts: { settleMs?: number } = {}): Promise<void> {
    return this.parts.life.close(opts);
  }
}

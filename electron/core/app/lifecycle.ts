// The service's life, a concern of its own: which cache is open (the user's, or
// the demo's with its in-process simulator), what launch starts in the
// background (a sync when a key is stored, the no-reply rule, the integrity
// check), recovery when that check finds damage, demo mode's switch and reset,
// and closing. Nothing here needs the key to open or read the cache: without
// one (removed, the keychain locked, offline) the cache opens as it is, and
// only a sync waits for a key.
import type { ContractHandlers } from '../../../shared/contract';
import { WorkbenchError } from '../../../shared/errors';
import { join } from 'node:path';
import type { CacheKeeper } from './cache-keeper';
import type { Connection } from './connection';
import type { DemoSimulator } from './demo';
import type { ExportJobs } from './export-jobs';
import type { Keychain } from './keys';
import { onFirstUse } from './lazy';
import type { Platform } from './platform';
import { applyNoReply } from './triage';
import type { RecordKeeping } from './record-keeping';
import type { SettingsFile } from './settings';
import type { SyncJobs } from './sync-jobs';

/** The cache file a service with these options opens. */
/**
 * The close at quit compacts the cache (store/cache.ts compactIfLoose) only when stopping what ran and the backup
 * took less than this: the rest of main's time for the core (3 s) is left for a VACUUM of up to 256 MB.
 */
export const COMPACT_IF_CLOSED_WITHIN_MS = 500;

export function cachePath(opts: { userDataDir: string; demo?: boolean }): string {
  return join(opts.userDataDir, opts.demo ? 'demo.db' : 'workbench.db');
}

export interface LifecycleDeps {
  userDataDir: string;
  platform: Platform;
  /** Demo simulator size (tests keep it small). */
  demoOpportunities?: number;
  /** How long after launch the background integrity check starts. Default 5 s. */
  integrityCheckDelayMs?: number;
  /** How often, while the app stays open, the no-reply rule runs again. Default an hour. */
  noReplyEveryMs?: number;
  /** How long a launch's sync waits for the window's first page before it starts anyway. Default 1 s. */
  launchWaitMs?: number;
  log?(level: 'warn' | 'error', message: string): void;
  keeper: CacheKeeper;
  settings: SettingsFile;
  connection: Connection;
  sync: SyncJobs;
  exports: ExportJobs;
  record: RecordKeeping;
  /** Today on the user's calendar (YYYY-MM-DD). */
  today(): string;
}

/** How often, while the app stays open, the no-reply rule looks again (a window left open for days). */
const NO_REPLY_EVERY_MS = 60 * 60_000;
/** A launch's sync waits this long at most for the window's first page (a window showing no list never asks for one). */
const LAUNCH_WAIT_MS = 1000;
/** Demo mode's parts (the simulator served in this process): loaded when demo mode starts (lazy.ts). */
const demoParts = onFirstUse('demo mode', () => import('./demo'));

export class AppLifecycle {
  /** The demo's simulator while in demo mode, else null. */
  demo: DemoSimulator | null = null;
  private noReplyTimer: ReturnType<typeof setInterval> | null = null;
  private closing = false;
  private pageServed: () => void = () => {};
  /** Resolved when the window has been given its first page of the list. */
  private readonly firstPage = new Promise<void>((resolve) => (this.pageServed = resolve));

  constructor(private readonly d: LifecycleDeps) {}

  /** The window has been given a page of the list (opportunities.ts): a launch's sync waiting for it starts. */
  firstPageServed(): void {
    this.pageServed();
  }

  /** Open the cache at `path` with its keychain; a damaged one (or, with `startOver`, any) is rebuilt with the record carried over. */
  async openCache(path: string, keychain: Keychain, startOver = false): Promise<void> {
    await this.d.keeper.open(path, startOver);
    this.d.connection.useKeychain(keychain, join(this.d.userDataDir, this.demo ? 'demo-key-check.json' : 'key-check.json'));
  }

  async openDemo(): Promise<void> {
    const { DemoKeychain, seedDemoRecord, startDemoApi } = await demoParts();
    this.demo = await startDemoApi(this.d.demoOpportunities);
    await this.openCache(cachePath({ userDataDir: this.d.userDataDir, demo: true }), new DemoKeychain());
    // A fresh demo cache gets the demo user's pitches, so the Results show the feature working.
    seedDemoRecord(this.d.keeper.cache, this.demo);
  }

  /**
   * The full integrity check, off the core's thread, once the window has data.
   * Damage found: everything stops, the cache is recovered in place (the
   * user's record carried over), the window is told, and a sync refills it.
   */
  async checkIntegrity(): Promise<{ ok: boolean }> {
    const found = await this.d.keeper.check(async () => void (await Promise.all([this.d.sync.stop(), this.d.exports.stop()])));
    if (found === null) return { ok: true };
    this.d.platform.emit('cache:recovered', { message: found.message });
    // Refilled by a sync once repaired; a file left as it was is not written to by one.
    if (found.repaired && (await this.d.connection.keyStatus().catch(() => null))?.state !== 'none') this.d.sync.start({});
    return { ok: false };
  }

  /**
   * Called once the window is up: sync in the background if a key is stored
   * and the user wants it, or whatever the setting says when the cache was
   * rebuilt at open (its opportunities come back only with a sync).
   */
  async launch(): Promise<void> {
    // The key is asked for only to decide on a sync: a locked or missing keychain leaves the cache as it is, readable.
    const st = await this.d.connection.keyStatus().catch(() => null);
    // After the one follow-up, no reply for a while: Not a fit (No reply). Now, and every hour while the app stays open.
    this.noReplyRule();
    this.noReplyTimer ??= setInterval(() => this.noReplyRule(), this.d.noReplyEveryMs ?? NO_REPLY_EVERY_MS);
    this.noReplyTimer.unref?.();
    // The check the open skipped (a clean last close), in the background once the window has data.
    this.d.keeper.later(this.d.integrityCheckDelayMs ?? 5000, () => this.checkIntegrity());
    if (!st || st.state === 'none') return;
    // The window's first page comes first: the sync (its module loaded, its first pages written) waits for it to be
    // answered, or for LAUNCH_WAIT_MS when the window shows no list; a quit meanwhile starts nothing, and a sync the
    // person started meanwhile (running, done or cancelled) is the launch's: no second one after it.
    const started = this.d.sync.started;
    await this.afterFirstPage();
    const wanted = this.demo !== null || this.d.settings.get().syncOnLaunch || this.d.keeper.recoveredAtOpen;
    if (wanted && !this.closing && this.d.sync.started === started) this.d.sync.start({});
  }

  /** The first page answered and its reply sent (a turn later), or the launch's wait over. */
  private async afterFirstPage(): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([this.firstPage, new Promise<void>((r) => (timer = setTimeout(r, this.d.launchWaitMs ?? LAUNCH_WAIT_MS)))]);
    clearTimeout(timer);
    await new Promise<void>((r) => setImmediate(r));
  }

  /** The no-reply rule, once: a failure is logged, never in the way. */
  noReplyRule(): number {
    try {
      const s = this.d.settings.get();
      return applyNoReply(this.d.keeper.cache, s, this.d.today());
    } catch (e) {
      this.d.log?.('warn', `the no-reply rule could not run: ${e instanceof Error ? e.message : String(e)}`);
      return 0;
    }
  }

  /** "Try with demo data": switch to the simulator, its key and its own cache, then sync. */
  async startDemo(): Promise<{ demo: true }> {
    if (!this.demo) {
      await this.d.sync.stop();
      await this.openDemo();
    }
    this.d.sync.start({});
    return { demo: true };
  }

  async resetDemo(): Promise<{ reset: true }> {
    if (!this.demo) throw new WorkbenchError('not-demo', 'Only the demo data can be reset from here.');
    const { DemoKeychain, removeCacheFiles, seedDemoRecord } = await demoParts();
    await this.d.sync.stop();
    const path = this.d.keeper.cache.path;
    // Not compacted: the file is deleted next.
    this.d.keeper.cache.close({ compact: false });
    removeCacheFiles(path);
    await this.openCache(path, new DemoKeychain());
    seedDemoRecord(this.d.keeper.cache, this.demo);
    this.d.sync.start({});
    return { reset: true };
  }

  /**
   * Stop what runs and close the cache. A sync page is written in one
   * transaction, so a cancelled sync leaves whole pages only; waiting is bounded
   * by `settleMs`, after which the cache closes anyway and the next launch resumes.
   */
  async close(opts: { settleMs?: number } = {}): Promise<void> {
    this.closing = true;
    const t0 = performance.now();
    const running = Promise.all([this.d.sync.stop(), this.d.exports.stop()]);
    if (opts.settleMs === undefined) await running;
    else {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([running, new Promise((r) => (timer = setTimeout(r, opts.settleMs)))]);
      clearTimeout(timer);
    }
    if (this.noReplyTimer) clearInterval(this.noReplyTimer);
    this.noReplyTimer = null;
    this.d.keeper.dispose();
    await this.d.record.close().catch((e: unknown) => this.d.log?.('warn', `the backup at quit failed: ${e instanceof Error ? e.message : String(e)}`));
    // The cache is compacted as it closes (when scattered writes call for it) only if stopping took no time: a quit
    // that waited for a sync, an export or a slow backup has too little left of main's time for the core for a VACUUM.
    this.d.keeper.cache.close({ compact: performance.now() - t0 < COMPACT_IF_CLOSED_WITHIN_MS });
    await this.demo?.close();
  }
}

/** The contract's demo slice (shared/contract/app.ts): switch to the demo data, reset it. */
export function demoHandlers(life: AppLifecycle): Pick<ContractHandlers, 'demo:start' | 'demo:reset'> {
  return {
    'demo:start': () => life.startDemo(),
    'demo:reset': () => life.resetDemo(),
  };
}

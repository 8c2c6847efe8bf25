// New versions without hunting for them, and never an install in the middle of work. The decisions
// are plain functions and a small class over the shape of electron-updater's autoUpdater, so they
// are tested with fakes and a feed served on loopback:
// - when to check: at start (once the window is up) and every 4 hours, only in a packaged app, only
//   while the "Check for updates" setting is on;
// - what to offer: a version newer than this one (never an older or the same one; a feed whose
//   version cannot be read is logged and ignored), downloaded in the background, then one calm
//   "Restart to update" offer;
// - when it may install: only after the core has closed the cache cleanly at a quit, and never while
//   a sync or an export runs (a restart asked for then waits for them to finish; a job counts from
//   the reply that started it, and a core that crashed or restarted takes its jobs with it). "Later"
//   installs it at the next clean quit, without starting the app again (on every platform: macOS's
//   updater reads autoRunAppAfterInstall, not quitAndInstall's arguments).
// - when the installer does not take over (it failed, was cancelled, or never quits the app), the app
//   exits anyway: the core is closed by then, and a window left on a dead core helps nobody.
import type { EventName } from '../../shared/contract-names';
import type { CloseOutcome, LifecycleLog } from './lifecycle';

/** How often a running app looks for a new version. */
export const CHECK_EVERY_MS = 4 * 60 * 60_000;
/** The first look, after the window is up (not in the way of the launch sync and the first list). */
export const FIRST_CHECK_AFTER_MS = 60_000;
/** How long the installer has to quit the app once handed the update, before the app exits itself. */
export const HAND_OVER_MS = 10_000;
/** macOS: Squirrel.Mac may first copy the downloaded update from electron-updater's local server. */
export const MAC_HAND_OVER_MS = 120_000;

type Parsed = { core: [number, number, number]; pre: string[] };

/** A semantic version (x.y.z, an optional pre-release, build metadata ignored), or null. */
function parseVersion(v: unknown): Parsed | null {
  if (typeof v !== 'string') return null;
  const m = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z.-]+)?$/.exec(v.trim());
  if (!m) return null;
  return { core: [Number(m[1]), Number(m[2]), Number(m[3])], pre: m[4] ? m[4].split('.') : [] };
}

/** <0, 0, >0 as semantic versioning orders a and b (a release after its pre-releases). */
function compareVersions(a: Parsed, b: Parsed): number {
  for (let i = 0; i < 3; i++) if (a.core[i] !== b.core[i]) return a.core[i]! - b.core[i]!;
  if (a.pre.length === 0 || b.pre.length === 0) return b.pre.length - a.pre.length;
  for (let i = 0; i < Math.max(a.pre.length, b.pre.length); i++) {
    const x = a.pre[i];
    const y = b.pre[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (x === y) continue;
    const nx = /^\d+$/.test(x);
    const ny = /^\d+$/.test(y);
    if (nx && ny) return Number(x) - Number(y);
    if (nx !== ny) return nx ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return 0;
}

export type FeedVerdict = { kind: 'newer'; version: string } | { kind: 'same' } | { kind: 'older'; version: string } | { kind: 'malformed'; reason: string };

/** What the feed's version means for this app: only a newer one is offered. */
export function judgeFeed(currentVersion: string, feedVersion: unknown): FeedVerdict {
  const current = parseVersion(currentVersion);
  const offered = parseVersion(feedVersion);
  if (!current) return { kind: 'malformed', reason: `this app's own version "${currentVersion}" is not a version` };
  if (!offered) return { kind: 'malformed', reason: `the update feed's version ${JSON.stringify(feedVersion ?? null)} is not a version` };
  const order = compareVersions(offered, current);
  if (order > 0) return { kind: 'newer', version: String(feedVersion).trim() };
  if (order < 0) return { kind: 'older', version: String(feedVersion).trim() };
  return { kind: 'same' };
}

/** The parts of electron-updater's autoUpdater (AppUpdater) the app uses. */
export interface UpdaterLike {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  /** Whether the app starts again after an install (macOS's updater reads only this). */
  autoRunAppAfterInstall: boolean;
  checkForUpdates(): Promise<{ updateInfo: { version: string } } | null>;
  downloadUpdate(): Promise<unknown>;
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void;
  /** electron-updater's 'error' event: a failed check, download or install. */
  on(event: 'error', listener: (error: Error) => void): unknown;
}

export interface UpdatesDeps {
  updater: UpdaterLike;
  currentVersion: string;
  /** Whether the "Check for updates" setting is on (read from the core before each check). */
  enabled(): Promise<boolean>;
  /** The calm offer, once a version is downloaded: restart now, or install at the next quit. */
  offer(version: string): Promise<'restart' | 'later'>;
  /** Quit the app (the lifecycle closes the core first, then asks afterQuitClose). */
  quit(): void;
  /** End the app at once (app.exit(0)): the installer did not take over, and the core is already closed. */
  exit(): void;
  /** The platform (macOS gives the installer longer to take over). */
  platform: NodeJS.Platform;
  log: Pick<LifecycleLog, 'warn' | 'error'> & { info?(message: string): void };
}

/** The events that say a job has started or is under way, and the ones that end it. */
const JOB_RUNNING: ReadonlySet<string> = new Set(['sync:event', 'export:progress']);
const JOB_DONE: ReadonlySet<string> = new Set(['sync:done', 'export:done']);
/** The calls whose reply starts a job ({ jobId }): it runs from then on, whether or not an event has come yet. */
const JOB_STARTS: ReadonlySet<string> = new Set(['sync:start', 'export:start']);
/** How many ended jobs are remembered (a reply may arrive after its job's last event). */
const ENDED_KEPT = 100;

/** The updates of one running app (see the top of this file). */
export class Updates {
  private timer: ReturnType<typeof setInterval> | undefined;
  private first: ReturnType<typeof setTimeout> | undefined;
  private checking = false;
  /** A version downloaded and waiting to be installed. */
  private ready: string | null = null;
  private offered = false;
  /** The person chose to restart while a job ran: quit once the jobs are done. */
  private restartWhenIdle = false;
  /** Install, and start the app again afterwards (a restart); false: install quietly at a quit. */
  private relaunch = false;
  private readonly jobs = new Set<string>();
  private readonly ended = new Set<string>();
  /** The update has been handed to the installer (the core is closed). */
  private installing = false;
  private handOver: ReturnType<typeof setTimeout> | undefined;
  private exited = false;

  constructor(private readonly d: UpdatesDeps) {
    // electron-updater would otherwise download on its own and install at any quit, even one
    // whose core did not close the cache: this class decides both.
    d.updater.autoDownload = false;
    d.updater.autoInstallOnAppQuit = false;
    d.updater.on('error', (error) => {
      // A failed check or download is logged where it is awaited (check()); a failed install ends the app here.
      if (this.installing) this.giveUp(`the installer failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  /** The window is up: the first check soon, then every CHECK_EVERY_MS. */
  start(): void {
    if (this.first || this.timer) return;
    this.first = setTimeout(() => void this.check(), FIRST_CHECK_AFTER_MS);
    this.timer = setInterval(() => void this.check(), CHECK_EVERY_MS);
  }

  stop(): void {
    clearTimeout(this.first);
    clearInterval(this.timer);
  }

  /** A version is downloaded and will install at the next clean quit. */
  get downloaded(): string | null {
    return this.ready;
  }

  get busy(): boolean {
    return this.jobs.size > 0;
  }

  /**
   * Every event main routes to the window: sync and export jobs go on and end with them, and a core
   * that crashed or restarted (core:status) has no job left running.
   */
  onAppEvent(event: EventName, payload: unknown): void {
    if (event === 'core:status') {
      if (this.jobs.size > 0) this.d.log.warn(`updates: the core process stopped (${this.jobs.size} job(s) with it); nothing holds the update back`);
      for (const jobId of this.jobs) this.end(jobId);
      this.jobs.clear();
      this.restartIfIdle();
      return;
    }
    const jobId = (payload as { jobId?: unknown } | null)?.jobId;
    if (typeof jobId !== 'string') return;
    if (JOB_RUNNING.has(event)) this.begin(jobId);
    else if (JOB_DONE.has(event)) {
      this.end(jobId);
      this.restartIfIdle();
    }
  }

  /** A call's reply, as main forwards it to the window: a sync or an export it started runs from now on. */
  onCallResult(method: string, result: unknown): void {
    if (!JOB_STARTS.has(method)) return;
    const r = result as { ok?: unknown; value?: { jobId?: unknown } } | null;
    if (r?.ok === true && typeof r.value?.jobId === 'string') this.begin(r.value.jobId);
  }

  private begin(jobId: string): void {
    if (!this.ended.has(jobId)) this.jobs.add(jobId);
  }

  private end(jobId: string): void {
    this.jobs.delete(jobId);
    this.ended.add(jobId);
    if (this.ended.size > ENDED_KEPT) this.ended.delete(this.ended.values().next().value as string);
  }

  private restartIfIdle(): void {
    if (this.jobs.size === 0 && this.restartWhenIdle) {
      this.restartWhenIdle = false;
      this.d.log.info?.('updates: the jobs are done; restarting to install the update');
      this.d.quit();
    }
  }

  /** Look for a new version; download a newer one; offer it once downloaded. Never throws. */
  async check(): Promise<FeedVerdict | null> {
    if (this.checking || this.ready) return null;
    this.checking = true;
    try {
      if (!(await this.d.enabled())) return null;
      let verdict: FeedVerdict;
      try {
        const result = await this.d.updater.checkForUpdates();
        verdict = judgeFeed(this.d.currentVersion, result?.updateInfo.version);
      } catch (e) {
        // electron-updater refuses a feed it cannot read (bad YAML, a version that is not one) by throwing.
        verdict = { kind: 'malformed', reason: e instanceof Error ? e.message : String(e) };
      }
      if (verdict.kind === 'malformed') this.d.log.warn(`updates: the feed could not be read, nothing offered (${verdict.reason})`);
      if (verdict.kind !== 'newer') return verdict;
      this.d.log.info?.(`updates: version ${verdict.version} is out; downloading it in the background`);
      await this.d.updater.downloadUpdate();
      this.ready = verdict.version;
      void this.offerOnce();
      return verdict;
    } catch (e) {
      this.d.log.warn('updates: looking for a new version failed (offline, or the feed is away); trying again later', e);
      return null;
    } finally {
      this.checking = false;
    }
  }

  private async offerOnce(): Promise<void> {
    if (this.offered || !this.ready) return;
    this.offered = true;
    const choice = await this.d.offer(this.ready).catch(() => 'later' as const);
    if (choice !== 'restart') return;
    this.relaunch = true;
    if (this.busy) {
      this.restartWhenIdle = true;
      this.d.log.info?.('updates: a sync or an export is running; the restart waits for it to finish');
    } else this.d.quit();
  }

  /**
   * The quit has closed the core: install the downloaded version if the cache was closed cleanly
   * (the lifecycle's afterQuitClose). True when the installer takes over the exit.
   */
  afterQuitClose(how: CloseOutcome): boolean {
    if (!this.ready) return false;
    if (how !== 'closed') {
      this.d.log.warn(`updates: the core did not close cleanly (${how}); version ${this.ready} installs at a later quit`);
      return false;
    }
    this.d.log.info?.(`updates: installing version ${this.ready}${this.relaunch ? ' and starting it' : ''}`);
    this.stop();
    this.installing = true;
    // macOS's updater ignores quitAndInstall's arguments and reads this (true by default): "Later" must not relaunch.
    this.d.updater.autoRunAppAfterInstall = this.relaunch;
    const wait = this.d.platform === 'darwin' ? MAC_HAND_OVER_MS : HAND_OVER_MS;
    this.handOver = setTimeout(() => this.giveUp(`the installer did not quit the app within ${wait / 1000} s`), wait);
    try {
      this.d.updater.quitAndInstall(true, this.relaunch);
    } catch (e) {
      this.giveUp(`the installer could not start: ${e instanceof Error ? e.message : String(e)}`);
    }
    return true;
  }

  /** The installer did not take over: the app ends now (its core is closed); the update is offered again at the next start. */
  private giveUp(reason: string): void {
    if (this.exited) return;
    this.exited = true;
    clearTimeout(this.handOver);
    this.d.log.error(`updates: version ${this.ready} was not installed (${reason}); the app quits now and offers it again at the next start`);
    this.d.exit();
  }
}

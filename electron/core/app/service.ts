// The app's behaviour behind the contract, in plain Node, composed of one part
// per concern: the connection to the API and the key (connection.ts), sync
// jobs, export jobs, triage, insights, what leaves the app (outside.ts),
// settings and the demo. Electron's core process and the UI test host both
// run this, each with its own Platform; every contract handler calls it.
import { join } from 'node:path';
import type { AppInfo, AppState, ContractResults, KeyStatus, Settings, SettingsPatch, SyncState } from '../../../shared/contract';
import type { ListFilter, TriagePatch } from '../../../shared/model';
import type { TrakkrClient } from '../api/client';
import type { After } from '../store/opportunities';
import type { Transport } from '../seams';
import type { Cache } from '../store/cache';
import { CacheKeeper } from './cache-keeper';
import { Connection } from './connection';
import { DemoKeychain, removeCacheFiles, startDemoApi, type DemoSimulator } from './demo';
import { ExportJobs, type ExportChoices } from './export-jobs';
import { FileChoices } from './file-choices';
import { citations, scores, type Breakdown } from './insights';
import type { Keychain } from './keys';
import { openLink, openMail, writeClipboard } from './outside';
import type { Platform } from './platform';
import { RecordKeeping, type FilePurpose } from './record-keeping';
import { Pipeline } from './pipeline';
import { localToday, pipelineDays } from '../store/opportunities';
import { ServiceError } from './service-error';
import { SettingsFile } from './settings';
import { SyncJobs } from './sync-jobs';
import { Triage } from './triage';

export { ServiceError };
export { SEARCH_COUNT_CAP } from './triage';

export interface AppServiceOptions {
  userDataDir: string;
  platform: Platform;
  keychain: Keychain;
  appName: string;
  appVersion: string;
  platformName: string;
  /** Start in demo mode: the simulator in-process, its demo key, its own cache file. */
  demo?: boolean;
  fetch?: Transport;
  /** Demo simulator size (tests keep it small). */
  demoOpportunities?: number;
  /** Today, for tests that move the clock (the pipeline's follow-ups and snoozes). */
  today?: () => string;
  /** Start over (the dialog's choice): the old file kept aside, a fresh cache with what can be read of the record. */
  startOver?: boolean;
  /** How long after launch the background integrity check starts. Default 5 s. */
  integrityCheckDelayMs?: number;
  log?(level: 'warn' | 'error', message: string): void;
}

export class AppService {
  private readonly keeper: CacheKeeper;
  private readonly settings: SettingsFile;
  private readonly connection: Connection;
  private readonly sync: SyncJobs;
  private readonly exports: ExportJobs;
  private readonly triage: Triage;
  private readonly files: FileChoices;
  readonly record: RecordKeeping;
  readonly pipeline: Pipeline;
  private demo: DemoSimulator | null = null;

  private constructor(private readonly opts: AppServiceOptions) {
    const { platform } = opts;
    this.keeper = new CacheKeeper({ appVersion: opts.appVersion, backups: () => this.record.backups, log: opts.log });
    const cache = () => this.cache;
    this.settings = new SettingsFile(join(opts.userDataDir, 'settings.json'));
    this.connection = new Connection({ platform, settings: this.settings, fetch: opts.fetch, cache, demoUrl: () => this.demo?.url ?? null });
    this.sync = new SyncJobs({
      platform,
      cache,
      client: () => this.connection.client(),
      setOnline: (online) => this.connection.setOnline(online),
      keyRefused: (message) => this.connection.recordKeyCheck(false, message),
    });
    this.files = new FileChoices(platform);
    this.record = new RecordKeeping({
      cache,
      files: this.files,
      appVersion: opts.appVersion,
      backupsDir: join(opts.userDataDir, 'backups'),
      onError: (e) => opts.log?.('warn', `a backup of the user's record failed: ${e instanceof Error ? e.message : String(e)}`),
    });
    this.exports = new ExportJobs({ platform, cache, files: this.files, onDone: () => this.record.changed(), senderName: () => this.settings.get().senderName });
    this.pipeline = new Pipeline({ cache, platform, settings: () => this.settings.get(), today: () => this.today(), changed: () => this.record.changed() });
    this.triage = new Triage(cache);
  }

  static async create(opts: AppServiceOptions): Promise<AppService> {
    const s = new AppService(opts);
    if (opts.demo) await s.openDemo();
    else await s.openCache(AppService.cachePath(opts), opts.keychain, opts.startOver);
    // While the window loads: read what it asks for first, so its first list comes from warm pages.
    setImmediate(() => s.triage.warmUp());
    return s;
  }

  /** The cache file a service with these options opens. */
  static cachePath(opts: { userDataDir: string; demo?: boolean }): string {
    return join(opts.userDataDir, opts.demo ? 'demo.db' : 'workbench.db');
  }

  get isDemo(): boolean {
    return this.demo !== null;
  }

  /** The open cache. */
  get cache(): Cache {
    return this.keeper.cache;
  }

  /** Today on the user's calendar (YYYY-MM-DD); a test fixes it. */
  today(): string {
    return this.opts.today?.() ?? localToday();
  }

  private async openCache(path: string, keychain: Keychain, startOver = false): Promise<void> {
    await this.keeper.open(path, startOver);
    this.cache.opportunities.days = () => pipelineDays(this.today(), this.settings.get().followUpAfterDays);
    this.connection.useKeychain(keychain, join(this.opts.userDataDir, this.demo ? 'demo-key-check.json' : 'key-check.json'));
  }

  private async openDemo(): Promise<void> {
    this.demo = await startDemoApi(this.opts.demoOpportunities);
    await this.openCache(AppService.cachePath({ ...this.opts, demo: true }), new DemoKeychain());
  }

  /**
   * The full integrity check, off the core's thread, once the window has data.
   * Damage found: everything stops, the cache is recovered in place (the
   * user's record carried over), the window is told, and a sync refills it.
   */
  async checkIntegrity(): Promise<{ ok: boolean }> {
    const message = await this.keeper.check(async () => void (await Promise.all([this.sync.stop(), this.exports.stop()])));
    if (message === null) return { ok: true };
    this.opts.platform.emit('cache:recovered', { message });
    if ((await this.keyStatus().catch(() => null))?.state !== 'none') this.startSync({});
    return { ok: false };
  }

  client(apiKey?: string): TrakkrClient {
    return this.connection.client(apiKey);
  }

  // ---- the app ---------------------------------------------------------------

  info(): AppInfo {
    return { name: this.opts.appName, version: this.opts.appVersion, demo: this.isDemo, cachePath: this.cache.path, cacheBytes: this.cache.sizeOnDisk(), platform: this.opts.platformName };
  }

  async state(): Promise<AppState> {
    return {
      info: this.info(),
      key: await this.keyStatus(),
      online: this.connection.isOnline,
      settings: this.settings.get(),
      sync: this.syncState(),
      brands: this.triage.brands(),
      recovery: this.keeper.recovery,
    };
  }

  /** The window has shown the recovery notice: it is not shown again. */
  dismissRecovery(): { dismissed: boolean } {
    return this.keeper.dismissRecovery();
  }

  /** Called once the window is up: sync in the background if a key is stored and the user wants it. */
  async launch(): Promise<void> {
    const st = await this.keyStatus().catch(() => null);
    if (st && st.state !== 'none' && (this.isDemo || this.settings.get().syncOnLaunch)) this.startSync({});
    // After the one follow-up, no reply for a while: Not a fit (No reply).
    try {
      this.pipeline.applyNoReply();
    } catch (e) {
      this.opts.log?.('warn', `the no-reply rule could not run: ${e instanceof Error ? e.message : String(e)}`);
    }
    // The check the open skipped (a clean last close), in the background once the window has data.
    this.keeper.later(this.opts.integrityCheckDelayMs ?? 5000, () => this.checkIntegrity());
  }

  // ---- the key and settings --------------------------------------------------

  keyStatus(): Promise<KeyStatus> {
    return this.connection.keyStatus();
  }

  setKey(key: string, sessionOnly?: boolean): Promise<KeyStatus> {
    return this.connection.setKey(key, sessionOnly);
  }

  clearKey(): Promise<KeyStatus> {
    return this.connection.clearKey();
  }

  getSettings(): Settings {
    return this.settings.get();
  }

  setSettings(patch: SettingsPatch): Settings {
    return this.settings.set(patch);
  }

  // ---- sync --------------------------------------------------------------------

  syncState(): SyncState {
    return this.sync.state();
  }

  startSync(args: { brandIds?: string[] }): { jobId: string } {
    return this.sync.start(args);
  }

  cancelSync(jobId: string): { cancelled: boolean } {
    return this.sync.cancel(jobId);
  }

  /** Wait for the running sync (tests, shutdown). */
  settle(): Promise<void> {
    return this.sync.settle();
  }

  // ---- opportunities and triage -------------------------------------------------

  brands(): ContractResults['brands:list'] {
    return this.triage.brands();
  }

  list(filter: ListFilter, offset: number, limit: number, after?: After): ContractResults['opportunities:list'] {
    return this.triage.list(filter, offset, limit, after);
  }

  view(filter: ListFilter, limit: number, counts?: boolean): ContractResults['opportunities:view'] {
    return this.triage.view(filter, limit, counts);
  }

  counts(filter: ListFilter): ContractResults['opportunities:counts'] {
    return this.triage.counts(filter);
  }

  opportunity(brandId: string, id: string): ContractResults['opportunities:get'] {
    return this.triage.get(brandId, id);
  }

  setTriage(brandId: string, id: string, patch: TriagePatch): ContractResults['triage:set'] {
    const r = this.triage.set(brandId, id, patch);
    this.record.changed();
    return r;
  }

  setTriageMany(brandId: string, ids: readonly string[], patch: TriagePatch): ContractResults['triage:bulk'] {
    const r = this.triage.setMany(brandId, ids, patch);
    this.record.changed();
    return r;
  }

  history(brandId: string, id: string): ContractResults['history:get'] {
    return this.record.history(brandId, id);
  }

  doNotContact(): ContractResults['dnc:list'] {
    return this.triage.doNotContact();
  }

  addDoNotContact(value: string, note?: string): ContractResults['dnc:add'] {
    const r = this.triage.addDoNotContact(value, note);
    this.record.changed();
    return r;
  }

  removeDoNotContact(value: string): ContractResults['dnc:remove'] {
    const r = this.triage.removeDoNotContact(value);
    this.record.changed();
    return r;
  }

  // ---- the user's record: files, backups ------------------------------------------

  chooseFile(purpose: FilePurpose): Promise<ContractResults['files:choose']> {
    return this.record.chooseFile(purpose);
  }

  // ---- export --------------------------------------------------------------------

  previewExport(o: ExportChoices): Promise<ContractResults['export:preview']> {
    return this.exports.preview(o);
  }

  chooseExportFile(suggestedName: string): Promise<ContractResults['export:choose-file']> {
    return this.exports.chooseFile(suggestedName);
  }

  startExport(o: ExportChoices, fileHandle: string): { jobId: string } {
    return this.exports.start(o, fileHandle);
  }

  showExportInFolder(jobId: string): ContractResults['export:show-in-folder'] {
    return this.exports.showInFolder(jobId);
  }

  // ---- insights and the world outside ------------------------------------------

  scores(brandId: string, breakdown: Breakdown, start?: string, end?: string): ContractResults['scores:get'] {
    return scores(this.cache, brandId, breakdown, start, end);
  }

  citations(brandId: string, mode: string, filter: { domain?: string; start?: string; end?: string } = {}): ContractResults['citations:get'] {
    return citations(this.cache, brandId, mode, filter);
  }

  openLink(url: string): Promise<ContractResults['links:open']> {
    return openLink(this.opts.platform, url);
  }

  openMail(emails: string[], subject?: string, body?: string): Promise<ContractResults['mail:open']> {
    return openMail(this.opts.platform, emails, subject, body);
  }

  writeClipboard(text: string): ContractResults['clipboard:write'] {
    return writeClipboard(this.opts.platform, text);
  }

  // ---- demo mode -----------------------------------------------------------------

  /** "Try with demo data": switch to the simulator, its key and its own cache, then sync. */
  async startDemo(): Promise<ContractResults['demo:start']> {
    if (!this.demo) {
      await this.sync.stop();
      await this.openDemo();
    }
    this.startSync({});
    return { demo: true };
  }

  async resetDemo(): Promise<ContractResults['demo:reset']> {
    if (!this.demo) throw new ServiceError('not-demo', 'Only the demo data can be reset from here.');
    await this.sync.stop();
    const path = this.cache.path;
    this.cache.close();
    removeCacheFiles(path);
    await this.openCache(path, new DemoKeychain());
    this.startSync({});
    return { reset: true };
  }

  /**
   * Stop what runs and close the cache. A sync page is written in one
   * transaction, so a cancelled sync leaves whole pages only; waiting is bounded
   * by `settleMs`, after which the cache closes anyway and the next launch resumes.
   */
  async close(opts: { settleMs?: number } = {}): Promise<void> {
    const running = Promise.all([this.sync.stop(), this.exports.stop()]);
    if (opts.settleMs === undefined) await running;
    else {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([running, new Promise((r) => (timer = setTimeout(r, opts.settleMs)))]);
      clearTimeout(timer);
    }
    this.keeper.dispose();
    await this.record.close().catch((e: unknown) => this.opts.log?.('warn', `the backup at quit failed: ${e instanceof Error ? e.message : String(e)}`));
    this.cache.close();
    await this.demo?.close();
  }
}

// The app's life and its parts, in plain Node, one part per concern: the open
// cache and its health (cache-keeper.ts), opening, launch, demo mode and
// closing (lifecycle.ts), the connection to the API and the key
// (connection.ts), sync jobs, export jobs, the user's record files and backups
// (record-keeping.ts), insights, what leaves the app (outside.ts) and
// settings. The domains of the user's work answer their slice of the contract
// themselves, over the store (opportunities.ts, triage.ts: the one owner of
// the user's record, drafts.ts), with the deps this service gives them
// (`domain`); the Results too (results.ts). Electron's core process and the UI test host both run this,
// each with its own Platform.
import type { AppInfo, AppState, ContractResults, KeyStatus, Settings, SettingsPatch, SyncState } from '../../../shared/contract';
import type { TrakkrClient } from '../api/client';
import type { Cache } from '../store/cache';
import type { DomainDeps } from './domain-deps';
import type { ExportChoices } from './export-jobs';
import { citations, scores, type Breakdown } from './insights';
import { cachePath } from './lifecycle';
import { warmUp } from './opportunities';
import { openLink, openMail, writeClipboard } from './outside';
import type { FilePurpose, RecordKeeping } from './record-keeping';
import type { ResultsDeps } from './results';
import { buildParts, type AppServiceOptions, type ServiceParts } from './service-parts';

export type { AppServiceOptions };

export class AppService {
  /** The parts, one per concern (service-parts.ts). */
  private readonly parts: ServiceParts;
  readonly record: RecordKeeping;
  /** What the domains' handlers (opportunities, triage, drafts) are given. */
  readonly domain: DomainDeps;
  /** What the results domain's handlers are given (results.ts): the domains' parts and the files chosen. */
  readonly resultsDomain: ResultsDeps;

  private constructor(private readonly opts: AppServiceOptions) {
    this.parts = buildParts(opts);
    this.record = this.parts.record;
    this.domain = this.parts.domain;
    this.resultsDomain = this.parts.results;
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

  /** The open cache. */
  get cache(): Cache {
    return this.parts.keeper.cache;
  }

  /** Today on the user's calendar (YYYY-MM-DD); a test fixes it. */
  today(): string {
    return this.parts.today();
  }

  /** The full integrity check, off the core's thread, once the window has data (lifecycle.ts). */
  checkIntegrity(): Promise<{ ok: boolean }> {
    return this.parts.life.checkIntegrity();
  }

  client(apiKey?: string): TrakkrClient {
    return this.parts.connection.client(apiKey);
  }

  // ---- the app ---------------------------------------------------------------

  info(): AppInfo {
    return {
      name: this.opts.appName,
      version: this.opts.appVersion,
      demo: this.isDemo,
      cachePath: this.cache.path,
      cacheBytes: this.cache.sizeOnDisk(),
      platform: this.opts.platformName,
    };
  }

  async state(): Promise<AppState> {
    return {
      info: this.info(),
      key: await this.keyStatus(),
      online: this.parts.connection.isOnline,
      settings: this.parts.settings.get(),
      sync: this.syncState(),
      brands: this.cache.brands.list(this.cache.days()),
      recovery: this.parts.keeper.recovery,
    };
  }

  /** The window has shown the recovery notice: it is not shown again. */
  dismissRecovery(): { dismissed: boolean } {
    return this.parts.keeper.dismissRecovery();
  }

  /** Called once the window is up: a sync in the background, the no-reply rule, the integrity check (lifecycle.ts). */
  launch(): Promise<void> {
    return this.parts.life.launch();
  }

  /** The no-reply rule now (launch runs it, then once an hour): how many moved to Not a fit (No reply). */
  applyNoReply(): number {
    return this.parts.life.noReplyRule();
  }

  // ---- the key and settings --------------------------------------------------

  keyStatus(): Promise<KeyStatus> {
    return this.parts.connection.keyStatus();
  }

  setKey(key: string, sessionOnly?: boolean): Promise<KeyStatus> {
    return this.parts.connection.setKey(key, sessionOnly);
  }

  clearKey(): Promise<KeyStatus> {
    return this.parts.connection.clearKey();
  }

  getSettings(): Settings {
    return this.parts.settings.get();
  }

  setSettings(patch: SettingsPatch): Settings {
    return this.parts.settings.set(patch);
  }

  // ---- sync --------------------------------------------------------------------

  syncState(): SyncState {
    return this.parts.sync.state();
  }

  startSync(args: { brandIds?: string[] }): { jobId: string } {
    return this.parts.sync.start(args);
  }

  cancelSync(jobId: string): { cancelled: boolean } {
    return this.parts.sync.cancel(jobId);
  }

  /** Wait for the running sync (tests, shutdown). */
  settle(): Promise<void> {
    return this.parts.sync.settle();
  }

  // ---- the user's record: files, backups ------------------------------------------

  chooseFile(purpose: FilePurpose): Promise<ContractResults['files:choose']> {
    return this.record.chooseFile(purpose);
  }

  // ---- export --------------------------------------------------------------------

  previewExport(o: ExportChoices): Promise<ContractResults['export:preview']> {
    return this.parts.exports.preview(o);
  }

  chooseExportFile(suggestedName: string): Promise<ContractResults['export:choose-file']> {
    return this.parts.exports.chooseFile(suggestedName);
  }

  startExport(o: ExportChoices, fileHandle: string): { jobId: string } {
    return this.parts.exports.start(o, fileHandle);
  }

  confirmExportSent(exportId: string): ContractResults['export:confirm-sent'] {
    return this.parts.exports.confirmSent(exportId);
  }

  cancelExport(jobId: string): Promise<ContractResults['export:cancel']> {
    return this.parts.exports.cancel(jobId);
  }

  showExportInFolder(jobId: string): ContractResults['export:show-in-folder'] {
    return this.parts.exports.showInFolder(jobId);
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

  // ---- demo mode and closing (lifecycle.ts) ----------------------------------------

  /** "Try with demo data": switch to the simulator, its key and its own cache, then sync. */
  startDemo(): Promise<ContractResults['demo:start']> {
    return this.parts.life.startDemo();
  }

  resetDemo(): Promise<ContractResults['demo:reset']> {
    return this.parts.life.resetDemo();
  }

  /** Stop what runs and close the cache, waiting at most `settleMs` for a running sync. */
  close(opts: { settleMs?: number } = {}): Promise<void> {
    return this.parts.life.close(opts);
  }
}

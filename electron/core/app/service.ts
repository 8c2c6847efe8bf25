// The app's behaviour behind the contract, in plain Node, composed of one part
// per concern: the open cache and its health (cache-keeper.ts), opening,
// launch, demo mode and closing (lifecycle.ts), the connection to the API and
// the key (connection.ts), sync jobs, export jobs, triage, the pipeline,
// the user's record and backups (record-keeping.ts), insights, what leaves the
// app (outside.ts) and settings. Electron's core process and the UI test host
// both run this, each with its own Platform; every contract handler calls it.
import type { AppInfo, AppState, ContractResults, KeyStatus, Settings, SettingsPatch, SyncState } from '../../../shared/contract';
import type { ListFilter, TriagePatch } from '../../../shared/model';
import type { TrakkrClient } from '../api/client';
import type { After } from '../store/opportunities';
import type { Cache } from '../store/cache';
import type { ExportChoices } from './export-jobs';
import { citations, scores, type Breakdown } from './insights';
import { cachePath } from './lifecycle';
import { openLink, openMail, writeClipboard } from './outside';
import type { Pipeline } from './pipeline';
import type { FilePurpose, RecordKeeping } from './record-keeping';
import type { Results } from './results';
import { buildParts, type AppServiceOptions, type ServiceParts } from './service-parts';

export type { AppServiceOptions };
export { SEARCH_COUNT_CAP } from './triage';

export class AppService {
  /** The parts, one per concern (service-parts.ts); this class is their one face. */
  private readonly p: ServiceParts;
  readonly record: RecordKeeping;
  readonly pipeline: Pipeline;
  /** From pitch to citation: the Results, evidence, marking Won, the report (results.ts). */
  readonly results: Results;

  private constructor(private readonly opts: AppServiceOptions) {
    this.p = buildParts(opts);
    this.record = this.p.record;
    this.pipeline = this.p.pipeline;
    this.results = this.p.results;
  }

  static async create(opts: AppServiceOptions): Promise<AppService> {
    const s = new AppService(opts);
    if (opts.demo) await s.p.life.openDemo();
    else await s.p.life.openCache(AppService.cachePath(opts), opts.keychain, opts.startOver);
    // While the window loads: read what it asks for first, so its first list comes from warm pages.
    setImmediate(() => s.p.triage.warmUp());
    return s;
  }

  /** The cache file a service with these options opens. */
  static cachePath(opts: { userDataDir: string; demo?: boolean }): string {
    return cachePath(opts);
  }

  get isDemo(): boolean {
    return this.p.life.demo !== null;
  }

  /** The open cache. */
  get cache(): Cache {
    return this.p.keeper.cache;
  }

  /** Today on the user's calendar (YYYY-MM-DD); a test fixes it. */
  today(): string {
    return this.p.today();
  }

  /** The full integrity check, off the core's thread, once the window has data (lifecycle.ts). */
  checkIntegrity(): Promise<{ ok: boolean }> {
    return this.p.life.checkIntegrity();
  }

  client(apiKey?: string): TrakkrClient {
    return this.p.connection.client(apiKey);
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
      online: this.p.connection.isOnline,
      settings: this.p.settings.get(),
      sync: this.syncState(),
      brands: this.p.triage.brands(),
      recovery: this.p.keeper.recovery,
    };
  }

  /** The window has shown the recovery notice: it is not shown again. */
  dismissRecovery(): { dismissed: boolean } {
    return this.p.keeper.dismissRecovery();
  }

  /** Called once the window is up: a sync in the background, the no-reply rule, the integrity check (lifecycle.ts). */
  launch(): Promise<void> {
    return this.p.life.launch();
  }

  // ---- the key and settings --------------------------------------------------

  keyStatus(): Promise<KeyStatus> {
    return this.p.connection.keyStatus();
  }

  setKey(key: string, sessionOnly?: boolean): Promise<KeyStatus> {
    return this.p.connection.setKey(key, sessionOnly);
  }

  clearKey(): Promise<KeyStatus> {
    return this.p.connection.clearKey();
  }

  getSettings(): Settings {
    return this.p.settings.get();
  }

  setSettings(patch: SettingsPatch): Settings {
    return this.p.settings.set(patch);
  }

  // ---- sync --------------------------------------------------------------------

  syncState(): SyncState {
    return this.p.sync.state();
  }

  startSync(args: { brandIds?: string[] }): { jobId: string } {
    return this.p.sync.start(args);
  }

  cancelSync(jobId: string): { cancelled: boolean } {
    return this.p.sync.cancel(jobId);
  }

  /** Wait for the running sync (tests, shutdown). */
  settle(): Promise<void> {
    return this.p.sync.settle();
  }

  // ---- opportunities and triage -------------------------------------------------

  brands(): ContractResults['brands:list'] {
    return this.p.triage.brands();
  }

  list(filter: ListFilter, offset: number, limit: number, after?: After): ContractResults['opportunities:list'] {
    return this.p.triage.list(filter, offset, limit, after);
  }

  view(filter: ListFilter, limit: number, counts?: boolean): ContractResults['opportunities:view'] {
    return this.p.triage.view(filter, limit, counts);
  }

  counts(filter: ListFilter): ContractResults['opportunities:counts'] {
    return this.p.triage.counts(filter);
  }

  /** How many opportunities each outlet (domain) has under the filter, like the list and its counts. */
  domains(filter: ListFilter): ContractResults['opportunities:domains'] {
    return this.cache.opportunities.domainCounts(filter);
  }

  opportunity(brandId: string, id: string): ContractResults['opportunities:get'] {
    return this.p.triage.get(brandId, id);
  }

  setTriage(brandId: string, id: string, patch: TriagePatch): ContractResults['triage:set'] {
    const r = this.p.triage.set(brandId, id, patch);
    this.record.changed();
    return r;
  }

  setTriageMany(brandId: string, ids: readonly string[], patch: TriagePatch): ContractResults['triage:bulk'] {
    const r = this.p.triage.setMany(brandId, ids, patch);
    this.record.changed();
    return r;
  }

  history(brandId: string, id: string): ContractResults['history:get'] {
    return this.record.history(brandId, id);
  }

  doNotContact(): ContractResults['dnc:list'] {
    return this.p.triage.doNotContact();
  }

  addDoNotContact(value: string, note?: string): ContractResults['dnc:add'] {
    const r = this.p.triage.addDoNotContact(value, note);
    this.record.changed();
    return r;
  }

  removeDoNotContact(value: string): ContractResults['dnc:remove'] {
    const r = this.p.triage.removeDoNotContact(value);
    this.record.changed();
    return r;
  }

  /** The user's snippets (saved and removed through the pipeline, which records the change). */
  snippets(): ContractResults['snippets:list'] {
    return this.cache.snippets.list();
  }

  // ---- the user's record: files, backups ------------------------------------------

  chooseFile(purpose: FilePurpose): Promise<ContractResults['files:choose']> {
    return this.record.chooseFile(purpose);
  }

  // ---- export --------------------------------------------------------------------

  previewExport(o: ExportChoices): Promise<ContractResults['export:preview']> {
    return this.p.exports.preview(o);
  }

  chooseExportFile(suggestedName: string): Promise<ContractResults['export:choose-file']> {
    return this.p.exports.chooseFile(suggestedName);
  }

  startExport(o: ExportChoices, fileHandle: string): { jobId: string } {
    return this.p.exports.start(o, fileHandle);
  }

  cancelExport(jobId: string): Promise<ContractResults['export:cancel']> {
    return this.p.exports.cancel(jobId);
  }

  showExportInFolder(jobId: string): ContractResults['export:show-in-folder'] {
    return this.p.exports.showInFolder(jobId);
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
    return this.p.life.startDemo();
  }

  resetDemo(): Promise<ContractResults['demo:reset']> {
    return this.p.life.resetDemo();
  }

  /** Stop what runs and close the cache, waiting at most `settleMs` for a running sync. */
  close(opts: { settleMs?: number } = {}): Promise<void> {
    return this.p.life.close(opts);
  }
}

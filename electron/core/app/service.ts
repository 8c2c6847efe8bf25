// The app's behaviour behind the contract, in plain Node: the cache, the key,
// settings, sync and export jobs, links, the demo. Electron's main process
// and the UI test host both run this, each with its own Platform.
import { randomUUID } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { AppInfo, AppState, ContractResults, KeyStatus, Settings, SyncState } from '../../../shared/contract';
import type { ListFilter, TriagePatch } from '../../../shared/model';
import { mailtoLink } from '../../../shared/outreach';
import { TrakkrClient } from '../api/client';
import { ApiError } from '../api/errors';
import { exportCsv, previewExport, type ExportOptions } from '../export/csv-export';
import { Cache } from '../store/cache';
import { startSyncJob, type SyncJob } from '../sync';
import { DEMO_KEY, startDemoSimulator as startSimulator, type DemoSimulator as Simulator } from '../../simulator/demo';
import { MemorySecretStore, type Transport } from '../seams';
import { KeyError, KeyManager, type Keychain } from './keys';
import { checkExternalUrl, checkMailto } from '../../../shared/links';
import type { Platform } from './platform';
import { SettingsFile } from './settings';

export const SEARCH_COUNT_CAP = 5000;

export class ServiceError extends Error {
  constructor(
    readonly kind: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

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
}

/** A keychain that holds one demo key in memory. */
class DemoKeychain extends MemorySecretStore implements Keychain {
  async state() {
    return 'available' as const;
  }
}

export class AppService {
  cache!: Cache;
  private settings: SettingsFile;
  private keys!: KeyManager;
  private demo: Simulator | null = null;
  private online = true;
  private syncJob: (SyncJob & { last: SyncState['last'] }) | null = null;
  private lastSummary: SyncState['lastSummary'] = null;
  private lastFinishedAt: string | null = null;
  private readonly exports = new Map<string, AbortController>();
  private readonly exportsDone = new Map<string, Promise<void>>();
  /** Files the user chose in main's save dialog, by the opaque handle the renderer holds. */
  private readonly chosenFiles = new Map<string, string>();
  private readonly exportedFiles = new Map<string, string[]>();

  private constructor(private readonly opts: AppServiceOptions) {
    this.settings = new SettingsFile(join(opts.userDataDir, 'settings.json'));
  }

  static async create(opts: AppServiceOptions): Promise<AppService> {
    const s = new AppService(opts);
    if (opts.demo) await s.startDemoParts();
    else await s.openCache(AppService.cachePath(opts), opts.keychain);
    return s;
  }

  /** The cache file a service with these options opens. */
  static cachePath(opts: { userDataDir: string; demo?: boolean }): string {
    return join(opts.userDataDir, opts.demo ? 'demo.db' : 'workbench.db');
  }

  get isDemo(): boolean {
    return this.demo !== null;
  }

  private async openCache(path: string, keychain: Keychain): Promise<void> {
    this.cache?.close();
    this.cache = await Cache.open(path);
    this.keys = new KeyManager(keychain, join(this.opts.userDataDir, this.demo ? 'demo-key-check.json' : 'key-check.json'), (key) => this.verifyKey(key));
  }

  private async startDemoParts(): Promise<void> {
    this.demo = await startSimulator({ seed: 1, opportunities: this.opts.demoOpportunities ?? 2000, otherBrandOpportunities: 300, citationsPerBrand: 300 });
    const chain = new DemoKeychain(DEMO_KEY);
    await this.openCache(AppService.cachePath({ ...this.opts, demo: true }), chain);
  }

  private baseUrl(): string {
    return this.demo ? this.demo.url : this.settings.get().baseUrl;
  }

  client(apiKey?: string): TrakkrClient {
    return new TrakkrClient({
      baseUrl: this.baseUrl(),
      ...(apiKey ? { apiKey } : { secrets: this.keys }),
      requestsPerMinute: this.demo ? 0 : this.settings.get().requestsPerMinute,
      fetch: this.opts.fetch,
    });
  }

  private setOnline(online: boolean): void {
    if (online === this.online) return;
    this.online = online;
    this.opts.platform.emit('app:online', { online });
  }

  private async verifyKey(key: string): Promise<string> {
    try {
      const { brands } = await this.client(key).brands();
      this.setOnline(true);
      this.cache.brands.replaceAll(brands, new Date().toISOString());
      return `${brands.length} brand${brands.length === 1 ? '' : 's'} reachable`;
    } catch (e) {
      if (e instanceof ApiError && e.isAuth) throw new KeyError('rejected', e.message);
      if (e instanceof ApiError && (e.kind === 'network' || e.kind === 'server')) {
        this.setOnline(false);
        throw new KeyError('unreachable', `The key could not be checked: ${e.message}`);
      }
      throw e;
    }
  }

  // ---- contract --------------------------------------------------------------

  info(): AppInfo {
    return { name: this.opts.appName, version: this.opts.appVersion, demo: this.isDemo, cachePath: this.cache.path, platform: this.opts.platformName };
  }

  async state(): Promise<AppState> {
    return {
      info: this.info(),
      key: await this.keyStatus(),
      online: this.online,
      settings: this.settings.get(),
      sync: this.syncState(),
      brands: this.cache.brands.list(),
    };
  }

  syncState(): SyncState {
    return {
      jobId: this.syncJob?.id ?? null,
      running: this.syncJob !== null,
      last: this.syncJob?.last ?? null,
      lastSummary: this.lastSummary,
      lastFinishedAt: this.lastFinishedAt,
    };
  }

  async keyStatus(): Promise<KeyStatus> {
    return this.keys.status();
  }

  async setKey(key: string, sessionOnly?: boolean): Promise<KeyStatus> {
    try {
      const st = await this.keys.setKey(key, sessionOnly);
      this.opts.platform.emit('key:status', st);
      return st;
    } catch (e) {
      if (e instanceof KeyError) throw new ServiceError(e.kind, e.message, 'key');
      throw e;
    }
  }

  async clearKey(): Promise<KeyStatus> {
    await this.keys.clear();
    const st = await this.keys.status();
    this.opts.platform.emit('key:status', st);
    return st;
  }

  getSettings(): Settings {
    return this.settings.get();
  }

  setSettings(patch: Partial<Settings>): Settings {
    return this.settings.set(patch);
  }

  /** Called once the window is up: sync in the background if a key is stored and the user wants it. */
  async launch(): Promise<void> {
    const st = await this.keys.status().catch(() => null);
    if (st && st.state !== 'none' && (this.isDemo || this.settings.get().syncOnLaunch)) this.startSync({});
  }

  startSync(args: { brandIds?: string[] }): { jobId: string } {
    if (this.syncJob) return { jobId: this.syncJob.id };
    const emit = this.opts.platform.emit.bind(this.opts.platform);
    let jobId = '';
    const job = startSyncJob(this.cache, this.client(), {
      brandIds: args.brandIds,
      onEvent: (event) => {
        if (this.syncJob) this.syncJob.last = event;
        if (event.type === 'brands' || event.type === 'progress') this.setOnline(true);
        emit('sync:event', { jobId, event });
      },
    });
    jobId = job.id;
    this.syncJob = { ...job, last: null };
    job.done
      .then((summary) => {
        this.lastSummary = summary;
        this.lastFinishedAt = new Date().toISOString();
        if (summary.error && (summary.error.kind === 'network' || summary.error.kind === 'server')) this.setOnline(false);
        if (summary.error && ['unauthorized', 'forbidden'].includes(summary.error.kind)) this.keys.recordCheck(false, summary.error.message);
        emit('sync:done', { jobId, summary });
      })
      .catch((e: unknown) => {
        const summary = { brands: [], durationMs: 0, cancelled: false, error: { kind: 'internal', message: e instanceof Error ? e.message : String(e) } };
        this.lastSummary = summary;
        emit('sync:done', { jobId, summary });
      })
      .finally(() => {
        this.syncJob = null;
      });
    return { jobId };
  }

  cancelSync(jobId: string): { cancelled: boolean } {
    if (!this.syncJob || this.syncJob.id !== jobId) return { cancelled: false };
    this.syncJob.cancel();
    return { cancelled: true };
  }

  /** Wait for the running sync (tests, shutdown). */
  async settle(): Promise<void> {
    await this.syncJob?.done.catch(() => {});
  }

  /** Search results are counted up to SEARCH_COUNT_CAP: a broad prefix while typing need not scan every match. */
  list(filter: ListFilter, offset: number, limit: number): ContractResults['opportunities:list'] {
    const cap = filter.search ? SEARCH_COUNT_CAP : undefined;
    const total = this.cache.opportunities.count(filter, cap);
    return { items: this.cache.opportunities.list(filter, { offset, limit }), total, capped: cap !== undefined && total >= cap };
  }

  setTriage(brandId: string, id: string, patch: TriagePatch): ContractResults['triage:set'] {
    if (!this.cache.opportunities.exists(brandId, id)) throw new ServiceError('not-found', 'That opportunity is not in the cache (it may have been reset).');
    this.cache.triage.set(brandId, id, patch);
    return this.cache.opportunities.get(brandId, id);
  }

  private exportOptions(o: Omit<ExportOptions, 'out'>): Omit<ExportOptions, 'out'> {
    if (o.onlyCatchAll && o.excludeCatchAll) throw new ServiceError('invalid-input', 'Choose either only catch-all addresses or none, not both.', 'onlyCatchAll');
    if (o.split && !o.maxRows) throw new ServiceError('invalid-input', 'Splitting into several files needs a row limit per file.', 'maxRows');
    return o;
  }

  previewExport(o: Omit<ExportOptions, 'out'>): ContractResults['export:preview'] {
    return previewExport(this.cache, this.exportOptions(o));
  }

  /**
   * The save dialog runs in main; the chosen path stays on this side and the
   * renderer gets an opaque handle and the file's name.
   */
  async chooseExportFile(suggestedName: string): Promise<ContractResults['export:choose-file']> {
    const path = await this.opts.platform.chooseSaveFile(suggestedName);
    if (!path) return { file: null };
    const handle = randomUUID();
    this.chosenFiles.set(handle, path);
    return { file: { handle, name: basename(path) } };
  }

  startExport(o: Omit<ExportOptions, 'out'>, fileHandle: string): { jobId: string } {
    const opts = this.exportOptions(o);
    const path = this.chosenFiles.get(fileHandle);
    if (!path) throw new ServiceError('invalid-input', 'Choose where to save the export first (that file choice is no longer known).', 'file');
    this.chosenFiles.delete(fileHandle);
    const jobId = randomUUID();
    const controller = new AbortController();
    this.exports.set(jobId, controller);
    const emit = this.opts.platform.emit.bind(this.opts.platform);
    const done = exportCsv(this.cache, { ...opts, out: path, signal: controller.signal, onProgress: (p) => emit('export:progress', { jobId, rows: p.rows, bytes: p.bytes }) })
      .then((result) => {
        this.exportedFiles.set(jobId, result.files);
        emit('export:done', { jobId, result: { ...result, files: result.files.map((f) => basename(f)) }, error: null });
      })
      .catch((e: unknown) => emit('export:done', { jobId, result: null, error: { kind: 'export-failed', message: `The export could not be written: ${e instanceof Error ? e.message : String(e)}` } }))
      .finally(() => {
        this.exports.delete(jobId);
        this.exportsDone.delete(jobId);
      });
    this.exportsDone.set(jobId, done);
    return { jobId };
  }

  /** "Show in folder" names an export by its job id; its path never left this side. */
  showExportInFolder(jobId: string): ContractResults['export:show-in-folder'] {
    const files = this.exportedFiles.get(jobId);
    if (!files?.length) throw new ServiceError('not-found', 'That export is not known (it may have failed or the app was restarted).');
    this.opts.platform.showItemInFolder(files[0]!);
    return { shown: true };
  }

  async openLink(url: string): Promise<ContractResults['links:open']> {
    const c = checkExternalUrl(url);
    if (!c.ok) return { opened: false, reason: c.reason };
    await this.opts.platform.openExternal(c.url);
    return { opened: true };
  }

  async openMail(emails: string[], subject?: string, body?: string): Promise<ContractResults['mail:open']> {
    const m = mailtoLink(emails, subject, body);
    const c = checkMailto(m.url);
    if (!c.ok) return { opened: false, message: c.reason, copiedBody: false };
    if (m.tooLong && body) this.opts.platform.writeClipboard(body);
    await this.opts.platform.openExternal(c.url);
    return { opened: true, message: m.message, copiedBody: m.tooLong && !!body };
  }

  scores(brandId: string, breakdown: '' | 'model' | 'prompt', start?: string, end?: string): ContractResults['scores:get'] {
    const b = breakdown ? [breakdown] : [];
    const meta = this.cache.scores.meta(brandId, b);
    return { rows: this.cache.scores.series(brandId, b, { start, end }), brandName: meta?.brand_name ?? null, fetchedAt: meta?.fetched_at ?? null };
  }

  citations(brandId: string, mode: string, filter: { domain?: string; start?: string; end?: string } = {}): ContractResults['citations:get'] {
    const snap = this.cache.citations.snapshot(brandId, mode);
    return { items: this.cache.citations.list(brandId, mode, filter), updatedAt: snap?.updated_at ?? null, summary: snap?.summary ?? null, fetchedAt: snap?.fetched_at ?? null };
  }

  /** "Try with demo data": switch to the simulator, its key and its own cache, then sync. */
  async startDemo(): Promise<{ demo: boolean }> {
    if (!this.demo) {
      this.syncJob?.cancel();
      await this.settle();
      await this.startDemoParts();
    }
    this.startSync({});
    return { demo: true };
  }

  async resetDemo(): Promise<{ reset: boolean }> {
    if (!this.demo) throw new ServiceError('not-demo', 'Only the demo data can be reset from here.');
    this.syncJob?.cancel();
    await this.settle();
    const path = this.cache.path;
    this.cache.close();
    for (const suffix of ['', '-wal', '-shm']) if (existsSync(path + suffix)) rmSync(path + suffix);
    await this.openCache(path, new DemoKeychain(DEMO_KEY));
    this.startSync({});
    return { reset: true };
  }

  /**
   * Stop what runs and close the cache. A sync page is written in one
   * transaction, so a cancelled sync leaves whole pages only; waiting is bounded
   * by `settleMs`, after which the cache closes anyway and the next launch resumes.
   */
  async close(opts: { settleMs?: number } = {}): Promise<void> {
    this.syncJob?.cancel();
    for (const c of this.exports.values()) c.abort();
    const running = Promise.all([this.settle(), ...[...this.exportsDone.values()]]);
    if (opts.settleMs === undefined) await running;
    else {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([running, new Promise((r) => (timer = setTimeout(r, opts.settleMs)))]);
      clearTimeout(timer);
    }
    this.cache.close();
    await this.demo?.close();
  }
}

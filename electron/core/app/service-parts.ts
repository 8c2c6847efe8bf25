// The service's parts, one per concern, built from the service's options and
// wired to one another: each gets the open cache, the settings, the platform
// and the few other parts it needs as small callbacks. These are the app's
// shared state: the contract's handlers (handlers.ts) are given the part that
// owns their work; service.ts opens, launches and closes them.
import { join } from 'node:path';
import type { Transport } from '../seams';
import type { OpenProgress } from '../store/db';
import { localToday, pipelineDays } from '../store/opportunity-list';
import type { DomainDeps } from './domain-deps';
import { CacheKeeper } from './cache-keeper';
import { Connection } from './connection';
import { ExportJobs } from './export-jobs';
import { FileChoices } from './file-choices';
import type { Keychain } from './keys';
import { AppLifecycle } from './lifecycle';
import type { Platform } from './platform';
import { RecordKeeping } from './record-keeping';
import { afterSync, type ResultsDeps } from './results';
import { SettingsFile } from './settings';
import { SyncJobs } from './sync-jobs';

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
  /** How often, while the app stays open, the no-reply rule runs again. Default an hour. */
  noReplyEveryMs?: number;
  /** How long a launch's sync waits for the window's first page before it starts anyway. Default 1 s. */
  launchWaitMs?: number;
  log?(level: 'warn' | 'error', message: string): void;
  /** Told as each long step of opening the cache starts (a migration, say): main waits while these come. */
  onOpenProgress?(progress: OpenProgress): void;
}

export interface ServiceParts {
  /** What the app is: its name, version and platform (app:info). */
  about: Pick<AppServiceOptions, 'appName' | 'appVersion' | 'platformName'>;
  keeper: CacheKeeper;
  settings: SettingsFile;
  connection: Connection;
  sync: SyncJobs;
  files: FileChoices;
  record: RecordKeeping;
  exports: ExportJobs;
  /** What the domains behind the contract (opportunities, triage, drafts) are given. */
  domain: DomainDeps;
  /** What the results domain is given: the domains' parts and the files chosen in main's dialogs. */
  results: ResultsDeps;
  life: AppLifecycle;
  /** Today on the user's calendar (YYYY-MM-DD); a test fixes it. */
  today(): string;
}

export function buildParts(opts: AppServiceOptions): ServiceParts {
  const { platform } = opts;
  const today = () => opts.today?.() ?? localToday();
  const keeper = new CacheKeeper({
    appVersion: opts.appVersion,
    backups: () => record.backups,
    days: () => pipelineDays(today(), settings.get().followUpAfterDays),
    log: opts.log,
    onOpenProgress: opts.onOpenProgress,
    onLockWait: (message) => platform.emit('cache:waiting', { message }),
  });
  const cache = () => keeper.cache;
  const settings = new SettingsFile(join(opts.userDataDir, 'settings.json'));
  const connection: Connection = new Connection({ platform, settings, fetch: opts.fetch, cache, demoUrl: () => life.demo?.url ?? null });
  const sync = new SyncJobs({
    platform,
    cache,
    client: () => connection.client(),
    setOnline: (online) => connection.setOnline(online),
    keyRefused: (message) => connection.recordKeyCheck(false, message),
    afterSync: (summary, startedAt) => afterSync(results, summary, startedAt),
    log: opts.log,
  });
  const files = new FileChoices(platform);
  const record: RecordKeeping = new RecordKeeping({
    cache,
    files,
    appVersion: opts.appVersion,
    backupsDir: join(opts.userDataDir, 'backups'),
    onError: (e) => opts.log?.('warn', `a backup of the user's record failed: ${e instanceof Error ? e.message : String(e)}`),
  });
  const exports = new ExportJobs({ platform, cache, files, onDone: () => record.changed(), senderName: () => settings.get().senderName, today });
  const domain: DomainDeps = {
    cache,
    platform,
    settings: () => settings.get(),
    today,
    changed: () => record.changed(),
    pageServed: () => life.firstPageServed(),
  };
  const results: ResultsDeps = { ...domain, files };
  const life: AppLifecycle = new AppLifecycle({ ...opts, keeper, settings, connection, sync, exports, record, today });
  const about = { appName: opts.appName, appVersion: opts.appVersion, platformName: opts.platformName };
  return { about, keeper, settings, connection, sync, files, record, exports, domain, results, life, today };
}

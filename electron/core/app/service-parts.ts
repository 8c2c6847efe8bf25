// The service's parts, one per concern, built from the service's options and
// wired to one another: each gets the open cache, the settings, the platform
// and the few other parts it needs as small callbacks. service.ts is the one
// face the contract's handlers call; this is where its parts come from.
import { join } from 'node:path';
import type { Transport } from '../seams';
import type { OpenProgress } from '../store/db';
import { localToday } from '../store/opportunities';
import { CacheKeeper } from './cache-keeper';
import { Connection } from './connection';
import { ExportJobs } from './export-jobs';
import { FileChoices } from './file-choices';
import type { Keychain } from './keys';
import { Lifecycle } from './lifecycle';
import type { Platform } from './platform';
import { Pipeline } from './pipeline';
import { RecordKeeping } from './record-keeping';
import { Results } from './results';
import { SettingsFile } from './settings';
import { SyncJobs } from './sync-jobs';
import { Triage } from './triage';

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
  /** Told as each long step of opening the cache starts (a migration, say): main waits while these come. */
  onOpenProgress?(progress: OpenProgress): void;
}

export interface ServiceParts {
  keeper: CacheKeeper;
  settings: SettingsFile;
  connection: Connection;
  sync: SyncJobs;
  files: FileChoices;
  record: RecordKeeping;
  exports: ExportJobs;
  pipeline: Pipeline;
  triage: Triage;
  results: Results;
  life: Lifecycle;
  /** Today on the user's calendar (YYYY-MM-DD); a test fixes it. */
  today(): string;
}

export function buildParts(opts: AppServiceOptions): ServiceParts {
  const { platform } = opts;
  const today = () => opts.today?.() ?? localToday();
  const keeper = new CacheKeeper({ appVersion: opts.appVersion, backups: () => record.backups, log: opts.log, onOpenProgress: opts.onOpenProgress });
  const cache = () => keeper.cache;
  const settings = new SettingsFile(join(opts.userDataDir, 'settings.json'));
  const connection: Connection = new Connection({ platform, settings, fetch: opts.fetch, cache, demoUrl: () => life.demo?.url ?? null });
  const sync = new SyncJobs({
    platform,
    cache,
    client: () => connection.client(),
    setOnline: (online) => connection.setOnline(online),
    keyRefused: (message) => connection.recordKeyCheck(false, message),
    afterSync: (summary, startedAt) => results.afterSync(summary, startedAt),
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
  const exports = new ExportJobs({ platform, cache, files, onDone: () => record.changed(), senderName: () => settings.get().senderName });
  const pipeline = new Pipeline({ cache, platform, settings: () => settings.get(), today, changed: () => record.changed() });
  const triage = new Triage(cache);
  const results: Results = new Results({
    cache,
    pipeline,
    settings: () => settings.get(),
    files,
    platform,
    today,
    changed: () => record.changed(),
  });
  const life: Lifecycle = new Lifecycle({ ...opts, keeper, settings, connection, sync, exports, record, pipeline, today });
  return { keeper, settings, connection, sync, files, record, exports, pipeline, triage, results, life, today };
}

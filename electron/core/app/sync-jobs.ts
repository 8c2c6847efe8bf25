// Sync as a job, one at a time: its events passed on to the renderer, its outcome kept and read
// into the online state and the key's last check.
import { WorkbenchError } from '../../../shared/errors';
import type { ContractHandlers, SyncState } from '../../../shared/contract';
import type { TrakkrClient } from '../api/client';
import type { Cache } from '../store/cache';
import type { SyncSummary } from '../sync';
import { syncJob, type SyncJob } from '../sync-job';
import { onFirstUse } from './lazy';
import type { Platform } from './platform';

/** The sync (with the API client it drives): loaded by the first sync (lazy.ts); a launch's sync starts once the window's first page is answered (lifecycle.ts). */
const syncing = onFirstUse('sync', () => import('../sync'));

export interface SyncJobsDeps {
  platform: Platform;
  cache(): Cache;
  client(): Promise<TrakkrClient>;
  setOnline(online: boolean): void;
  /** The service refused the key during a sync. */
  keyRefused(message: string): void;
  /** Once a sync has ended, before the window hears of it: what it means for the Results (it may add to the summary). */
  afterSync?(summary: SyncSummary, startedAt: string): void;
  log?(level: 'warn' | 'error', message: string): void;
}

export class SyncJobs {
  private running: (SyncJob & { last: SyncState['last'] }) | null = null;
  private lastSummary: SyncSummary | null = null;
  private lastFinishedAt: string | null = null;

  constructor(private readonly deps: SyncJobsDeps) {}

  state(): SyncState {
    return {
      jobId: this.running?.id ?? null,
      running: this.running !== null,
      last: this.running?.last ?? null,
      lastSummary: this.lastSummary,
      lastFinishedAt: this.lastFinishedAt,
    };
  }

  /** Syncs started so far (a launch's sync is not started after one the person started while it waited). */
  started = 0;

  /** Start a sync, or name the one already running. */
  start(args: { brandIds?: string[] }): { jobId: string } {
    if (this.running) return { jobId: this.running.id };
    this.started++;
    const { platform, setOnline } = this.deps;
    const startedAt = new Date().toISOString();
    const cache = this.deps.cache();
    // The job at once (sync-job.ts, as startSyncJob makes it), the sync's module loaded first: a cancel meanwhile stops it before its first request.
    const job = syncJob((signal, jobId) =>
      Promise.all([syncing(), this.deps.client()]).then(([{ runSync }, client]) =>
        runSync(cache, client, {
          brandIds: args.brandIds,
          holderLabel: 'the Outreach Workbench app',
          signal,
          onEvent: (event) => {
            if (this.running) this.running.last = event;
            if (event.type === 'brands' || event.type === 'progress') setOnline(true);
            platform.emit('sync:event', { jobId, event });
          },
        }),
      ),
    );
    const jobId = job.id;
    this.running = { ...job, last: null };
    job.done
      .then((summary) => {
        try {
          this.deps.afterSync?.(summary, startedAt);
        } catch (e) {
          this.deps.log?.('warn', `matching citations to the outreach after the sync failed: ${e instanceof Error ? e.message : String(e)}`);
        }
        this.lastSummary = summary;
        this.lastFinishedAt = new Date().toISOString();
        if (summary.error && (summary.error.kind === 'service-unreachable' || summary.error.kind === 'service-error')) setOnline(false);
        if (summary.error && summary.error.kind === 'key-rejected') this.deps.keyRefused(summary.error.message);
        platform.emit('sync:done', { jobId, summary });
      })
      .catch((e: unknown) => {
        const summary: SyncSummary = {
          brands: [],
          durationMs: 0,
          cancelled: false,
          error: e instanceof WorkbenchError ? { kind: e.kind, message: e.message } : { kind: 'internal', message: e instanceof Error ? e.message : String(e) },
        };
        this.lastSummary = summary;
        platform.emit('sync:done', { jobId, summary });
      })
      .finally(() => {
        this.running = null;
      });
    return { jobId };
  }

  cancel(jobId: string): { cancelled: boolean } {
    if (!this.running || this.running.id !== jobId) return { cancelled: false };
    this.running.cancel();
    return { cancelled: true };
  }

  /** Wait for the running sync, if any. */
  async settle(): Promise<void> {
    await this.running?.done.catch(() => {});
  }

  /** Cancel the running sync and wait for it (a page is written whole or not at all). */
  async stop(): Promise<void> {
    this.running?.cancel();
    await this.settle();
  }
}

/** The contract's sync slice (shared/contract/sync.ts): start a sync job, cancel it; its events go out through the platform. */
export function syncHandlers(sync: SyncJobs): Pick<ContractHandlers, 'sync:start' | 'sync:cancel'> {
  return {
    'sync:start': ({ brandIds }) => sync.start({ brandIds }),
    'sync:cancel': ({ jobId }) => sync.cancel(jobId),
  };
}

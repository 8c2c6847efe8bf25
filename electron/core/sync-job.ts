// A sync as a job: an id, a cancel, and the summary when it ends. Kept apart
// from the sync's own code (sync.ts) so the app's sync jobs (app/sync-jobs.ts)
// make their job at once, before the sync's module has loaded on first use
// (app/lazy.ts): a cancel meanwhile stops the sync before its first request.
import { randomUUID } from 'node:crypto';
import { ApiError } from './api/errors';
import type { SyncSummary } from './sync';

/** A sync as a job: an id, events, cancel, and the summary when it ends. */
export interface SyncJob {
  id: string;
  cancel(): void;
  done: Promise<SyncSummary>;
}

/** A job that runs `run` with the job's cancel signal (cancelled: an ApiError of kind `cancelled`). */
export function syncJob(run: (signal: AbortSignal, id: string) => Promise<SyncSummary>): SyncJob {
  const controller = new AbortController();
  const id = randomUUID();
  return { id, cancel: () => controller.abort(new ApiError('cancelled', 'Cancelled.')), done: run(controller.signal, id) };
}

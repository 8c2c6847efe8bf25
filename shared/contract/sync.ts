// The sync's slice of the contract: a sync is a job (started, cancelled; its
// progress and summary come as events), and its state for the window's start.
// Implemented in electron/core/app/sync-jobs.ts.
import { z } from 'zod';
import type { SyncEvent, SyncSummary } from '../model';
import { brandId, jobStarted, once, one, shaped, method, type ContractSlice } from './parts';

export const syncStateSchema = once(() =>
  z.object({
    jobId: z.string().nullable(),
    running: z.boolean(),
    /** Last event of the running job (pages, items, a wait with its countdown). */
    last: shaped<SyncEvent>().nullable(),
    lastSummary: shaped<SyncSummary>().nullable(),
    lastFinishedAt: z.string().nullable(),
  }),
);
export type SyncState = z.output<ReturnType<typeof syncStateSchema>>;

export const syncContract = {
  'sync:start': method(
    () => one(z.strictObject({ brandIds: z.array(brandId).max(1000).optional() })),
    () => jobStarted(),
  ),
  'sync:cancel': method(
    () => one(z.strictObject({ jobId: z.string().max(100) })),
    () => z.object({ cancelled: z.boolean() }),
  ),
} as const satisfies ContractSlice;

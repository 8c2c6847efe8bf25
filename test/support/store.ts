// The store's reads and writes as a test calls them on an open cache: each
// read after its one preparing step (as the app's handlers do), and a triage
// write in its own transaction (as the record's owner does). Shorthands only:
// what they call is the store's own API.
import type { ListFilter, ListItem, OpportunityDetail } from '../../shared/model';
import type { TriageAction } from '../../shared/pipeline';
import type { TriageFields, TriagePatch } from '../../shared/triage-fields';
import { applyAction, type Applied } from '../../electron/core/app/triage';
import type { Cache } from '../../electron/core/store/cache';
import { prepareBrand } from '../../electron/core/store/list-items';
import { readOpportunity } from '../../electron/core/store/opportunity-detail';
import {
  chipCountsAndTotal,
  listPage,
  listTotal,
  localToday,
  prepareList,
  type After,
  type ChipCounts,
  type ListPage,
} from '../../electron/core/store/opportunity-list';
import { readTriage, writeTriage } from '../../electron/core/store/triage';

/** A page of the list (200 rows unless said). */
export const page = (cache: Cache, f: ListFilter, p: { limit?: number; offset?: number; after?: After; fromEnd?: boolean } = {}): ListPage =>
  listPage(cache.readable, prepareList(cache.writable, f, cache.days()), p);

/** The list's rows (the first 200 unless said). */
export const list = (cache: Cache, f: ListFilter, p: { limit?: number; offset?: number; after?: After } = {}): ListItem[] => page(cache, f, p).items;

/** How many the list holds. */
export const count = (cache: Cache, f: ListFilter): number => listTotal(cache.readable, prepareList(cache.writable, f, cache.days()));

/** The chip counts. */
export const counts = (cache: Cache, f: ListFilter): ChipCounts => chipCountsAndTotal(cache.readable, prepareList(cache.writable, f, cache.days())).counts;

/** One opportunity whole, or null. */
export const detail = (cache: Cache, brandId: string, id: string): OpportunityDetail | null =>
  readOpportunity(cache.readable, prepareBrand(cache.writable, brandId), id);

/**
 * Write triage fields straight to the store (what the record's owner does for
 * an action), in one transaction; the write time, unless given, read once the
 * write lock is held (as the owner reads it).
 */
export const setTriage = (cache: Cache, brandId: string, id: string, patch: TriagePatch, now?: string): void =>
  void cache.writable.transaction(() => writeTriage(cache.writable, brandId, id, patch, now ?? new Date().toISOString()));

/** The same triage fields written to many opportunities, in one transaction. */
export const setTriageMany = (cache: Cache, brandId: string, ids: readonly string[], patch: TriagePatch, now?: string): number =>
  cache.writable.transaction(() => {
    const at = now ?? new Date().toISOString();
    for (const id of ids) writeTriage(cache.writable, brandId, id, patch, at);
    return ids.length;
  });

/** One opportunity's triage, every field (the empty triage when the user never touched it). */
export const triageOf = (cache: Cache, brandId: string, id: string): TriageFields & { updated_at: string | null } => readTriage(cache.readable, brandId, id);

/** A triage action through the owner of the user's record (core/app/triage.ts), as the window and the CLI carry it out. */
export const act = (cache: Cache, brandId: string, ids: readonly string[], action: TriageAction, today = localToday()): Applied =>
  applyAction(cache, brandId, ids, action, { today, senderName: '' });

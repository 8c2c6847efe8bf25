// Sync: per brand, every opportunity (archived too) page by page, each page
// written with the run's progress in one transaction; then scores and
// citations. Idempotent, resumable after a kill, cancellable, and it never
// writes the user's triage. One sync of a brand at a time across processes
// (store/sync-lock.ts): a second one waits for the first, or skips.
// Every failure keeps its kind (shared/errors.ts): a phase the service failed
// is that phase's failure and the next phase goes on; a rejected key, a
// cancel, or a failure of the cache's file (a full disk, a read-only or
// locked cache) stops the whole sync, named as what it is, never as the
// service's. Stored and reported messages are redacted.
import { CITATION_MODES, type CitationMode } from '../../shared/domain';
import { addDays } from '../../shared/calendar';
import { ApiError, isCancellation } from './api/errors';
import { syncJob, type SyncJob } from './sync-job';
import { pageBudget, type PageBudget } from './api/cursors';
import { errorGroup, WorkbenchError, type ErrorKind } from '../../shared/errors';
import { redactKeys } from '../../shared/rules';
import { cacheWriteError } from './store/cache-error';
import { fileErrorKind } from './files/file-error';
import type { TrakkrClient } from './api/client';
import type { Cache } from './store/cache';
import { observeCitations } from './store/citation-facts';
import { mergeSearchIndex, pauseAutomerge, resumeAutomerge } from './store/search-index';
import type { RunKind } from './store/sync-runs';
import { holdBrandLock, type LockOptions } from './sync-lock-wait';
import type { SyncPhase, SyncEvent, BrandSummary, SyncSummary } from '../../shared/model';
export type { SyncPhase, SyncEvent, BrandSummary, SyncSummary } from '../../shared/model';

export interface SyncOptions extends LockOptions {
  /** Brands to sync; default: every brand the key reaches. */
  brandIds?: string[];
  signal?: AbortSignal;
  onEvent?: (e: SyncEvent) => void;
  scores?: boolean;
  citations?: boolean;
  /** Page size for opportunities. Default 500 (the most the API allows). */
  pageSize?: number;
  now?: () => Date;
}

const KIND_OF_MODE: Record<CitationMode, RunKind> = {
  citations: 'citations:citations',
  'search-queries': 'citations:search-queries',
  knowledge: 'citations:knowledge',
};

export async function runSync(cache: Cache, client: TrakkrClient, opts: SyncOptions = {}): Promise<SyncSummary> {
  const started = Date.now();
  const now = () => (opts.now?.() ?? new Date()).toISOString();
  const emit = opts.onEvent ?? (() => {});
  const signal = opts.signal;
  const summary: SyncSummary = { brands: [], durationMs: 0, cancelled: false, error: null };
  let current: string | null = null;
  // The first sync into an empty cache is tidied at its end (store/cache.ts tidyAfterFirstSync).
  const first = cache.isEmpty();
  const previousWait = client.onWait;
  client.onWait = (w) => {
    previousWait?.(w);
    emit({ type: 'wait', brandId: current, reason: w.reason, seconds: w.seconds, capped: w.capped, message: w.message });
  };

  try {
    // An empty cache's index is merged whole at the end: FTS5's merges on the way would be redone (search-index.ts).
    if (first) await cache.awaitWriteLock(signal).then(() => cache.tx(() => pauseAutomerge(cache.db)));
    // A first sync killed part-way left it off: back before this one writes its pages.
    else resumeAutomerge(cache.db);
    const { brands } = await client.brands(signal);
    cache.brands.replaceAll(brands, now());
    emit({ type: 'brands', brands: brands.map((b) => ({ id: b.id, name: b.name })) });
    const wanted = opts.brandIds ?? brands.map((b) => b.id);
    for (const id of wanted) {
      const brand = brands.find((b) => b.id === id);
      if (!brand) throw new ApiError('key-rejected', `The brand ${id} is not reachable with this API key.`);
      current = id;
      summary.brands.push(await syncBrand(cache, client, brand, { ...opts, now, emit, signal }));
    }
  } catch (raw) {
    const e = named(raw, cache);
    if (isCancellation(e)) summary.cancelled = true;
    else if (e instanceof WorkbenchError && e.kind !== 'internal') summary.error = { kind: e.kind, message: redactKeys(e.message) };
    else throw e;
  } finally {
    client.onWait = previousWait;
    summary.durationMs = Date.now() - started;
    // Also when the sync throws: FTS5's default back for every later write.
    resumeAutomerge(cache.db);
  }
  // The full-text index in one segment and the file compacted, each when it pays (store/cache.ts tidyAfterFirstSync).
  if (first && !summary.cancelled && !summary.error && summary.brands.some((b) => b.added > 0)) {
    cache.tidyAfterFirstSync();
  } else {
    // The segments later syncs added, merged in short steps once they add up (never rejects).
    await mergeSearchIndex(cache.db);
    // Rewritten records leave free pages: give them back when they add up, in short steps (never rejects).
    await cache.reclaimSpace();
  }
  return summary;
}

interface BrandCtx extends Omit<SyncOptions, 'now'> {
  now: () => string;
  emit: (e: SyncEvent) => void;
  /** The pages and time this brand's sync has used, over all its passes (api/cursors.ts bounds them). */
  budget?: PageBudget;
}

async function syncBrand(cache: Cache, client: TrakkrClient, brand: { id: string; name: string }, ctx: BrandCtx): Promise<BrandSummary> {
  const s: BrandSummary = {
    brandId: brand.id,
    name: brand.name,
    added: 0,
    changed: 0,
    removed: 0,
    warnings: 0,
    pages: 0,
    items: 0,
    resumed: false,
    failures: [],
  };
  const lock = await holdBrandLock(cache, brand, ctx);
  if (!lock.held) {
    s.skipped = lock.reason;
    ctx.emit({ type: 'brand-done', summary: s });
    return s;
  }
  try {
    return await syncHeldBrand(cache, client, brand, s, { ...ctx, budget: pageBudget() });
  } finally {
    lock.release();
  }
}

async function syncHeldBrand(cache: Cache, client: TrakkrClient, brand: { id: string; name: string }, s: BrandSummary, ctx: BrandCtx): Promise<BrandSummary> {
  const unfinished = cache.runs.unfinished(brand.id, 'opportunities');
  s.resumed = !!unfinished?.cursor;
  ctx.emit({ type: 'brand-start', brandId: brand.id, name: brand.name, resumed: s.resumed });

  await syncOpportunities(cache, client, brand.id, s, ctx);

  if (ctx.scores !== false) {
    try {
      const end = ctx.now().slice(0, 10);
      const start = addDays(end, -90);
      for (const breakdown of [[], ['model'], ['prompt']] as ('model' | 'prompt')[][]) {
        const r = await client.scores({ brand: brand.id, breakdown, start_date: start, end_date: end }, { signal: ctx.signal });
        const resp = r.response as { brand_name?: string; start_date?: string; end_date?: string; errors?: string[] | null };
        cache.scores.replace(
          brand.id,
          breakdown,
          r.points,
          { brand_name: resp.brand_name, start_date: resp.start_date ?? start, end_date: resp.end_date ?? end, errors: resp.errors ?? null },
          ctx.now(),
        );
        s.warnings += r.warnings.length;
        ctx.emit({ type: 'progress', brandId: brand.id, phase: 'scores', pages: 1, items: r.points.length });
      }
    } catch (e) {
      phaseFailed(e, 'scores', s, ctx, cache);
    }
  }

  if (ctx.citations !== false) {
    for (const mode of CITATION_MODES) {
      try {
        await syncCitations(cache, client, brand.id, mode, s, ctx);
      } catch (e) {
        phaseFailed(e, 'citations', s, ctx, cache);
      }
    }
  }
  ctx.emit({ type: 'brand-done', summary: s });
  return s;
}

/** A failure as an error of the app's vocabulary: SQLite's and the file system's raw errors named for what they are. */
function named(e: unknown, cache: Cache): unknown {
  if (e instanceof WorkbenchError || isCancellation(e)) return e;
  const sqlite = cacheWriteError(e, cache.path);
  if (sqlite) return sqlite;
  const kind = fileErrorKind(e);
  return kind ? new WorkbenchError(kind, `The cache's folder could not be written (${(e as Error).message}).`, { cause: e }) : e;
}

const kindOf = (e: unknown): ErrorKind => (e instanceof WorkbenchError ? e.kind : 'internal');

/** Stops the whole sync rather than one phase: a cancel, a rejected key, a failure of the cache's file (the next phase would meet it too). */
const stopsSync = (e: unknown): boolean =>
  isCancellation(e) || (e instanceof ApiError && e.isAuth) || (e instanceof WorkbenchError && errorGroup(e.kind) === 'files');

const messageOf = (e: unknown): string => redactKeys(e instanceof Error ? e.message : String(e));

function phaseFailed(raw: unknown, phase: SyncPhase, s: BrandSummary, ctx: BrandCtx, cache: Cache): void {
  const e = named(raw, cache);
  if (stopsSync(e)) throw e;
  const message = messageOf(e);
  s.failures.push({ phase, kind: kindOf(e), message });
  ctx.emit({ type: 'warning', brandId: s.brandId, message: `${phase}: ${message}` });
}

/** Record how a run ended; a cache that cannot be written now (a full disk) must not hide the failure being recorded. */
function finishRun(cache: Cache, runId: number, state: 'cancelled' | 'failed', ctx: BrandCtx, e: unknown): void {
  try {
    cache.runs.finish(runId, state, ctx.now(), { error: messageOf(e) });
  } catch {
    // the run stays unfinished; the next sync resumes or supersedes it
  }
}

async function syncOpportunities(cache: Cache, client: TrakkrClient, brandId: string, s: BrandSummary, ctx: BrandCtx): Promise<void> {
  let run = cache.runs.unfinished(brandId, 'opportunities');
  let cursor: string | undefined;
  if (run?.cursor) {
    cache.runs.resume(run.id);
    cursor = run.cursor;
    s.pages = run.pages;
    s.items = run.items;
  } else {
    if (run) cache.runs.finish(run.id, 'failed', ctx.now(), { error: 'superseded by a new sync' });
    run = cache.runs.start(brandId, 'opportunities', ctx.now());
  }
  let runId = run.id;
  // What the window shows while it fills: pages and rows so far, the rate, and (when the brand was synced
  // whole before, so its size is known) the total and the time left. Each page is written as it arrives,
  // so its rows are readable at once.
  const expected = cache.runs.lastComplete(brandId)?.items ?? null;
  const startedAt = Date.now();
  const startItems = s.items;
  const progress = (): SyncEvent => {
    // (At least a millisecond: a page from a fast local server can arrive within the same one.)
    const seconds = Math.max(0.001, (Date.now() - startedAt) / 1000);
    const rate = s.items > startItems ? (s.items - startItems) / seconds : null;
    const total = expected !== null && expected > 0 ? Math.max(expected, s.items) : null;
    const secondsLeft = total !== null && rate ? Math.max(0, Math.round((total - s.items) / rate)) : null;
    return {
      type: 'progress',
      brandId,
      phase: 'opportunities',
      pages: s.pages,
      items: s.items,
      rate: rate === null ? null : Math.round(rate),
      total,
      secondsLeft,
    };
  };

  const pass = async (from: string | undefined): Promise<void> => {
    for await (const page of client.outreachPages({ brand: brandId, archived: true, limit: ctx.pageSize ?? 500, cursor: from }, ctx.signal, ctx.budget)) {
      const next = page.pagination.has_more ? page.pagination.next_cursor : null;
      // Another program writing: waited for here without blocking (the app answers calls meanwhile), then the page in one transaction.
      await cache.awaitWriteLock(ctx.signal);
      const r = cache.tx(() => {
        const res = cache.opportunities.upsertPage(brandId, page.items, runId, ctx.now());
        cache.runs.progress(runId, {
          cursor: next,
          items: page.items.length,
          added: res.added,
          changed: res.changed,
          warnings: page.warnings.length + res.warnings.length,
        });
        return res;
      });
      s.pages++;
      s.items += page.items.length;
      s.warnings += page.warnings.length + r.warnings.length;
      for (const w of new Set([...page.warnings, ...r.warnings])) ctx.emit({ type: 'warning', brandId, message: w });
      ctx.emit(progress());
    }
  };

  try {
    try {
      await pass(cursor);
    } catch (e) {
      // A saved cursor the service no longer accepts: start the pass again from the first page.
      if (cursor !== undefined && e instanceof ApiError && e.kind === 'service-refused') {
        ctx.emit({
          type: 'warning',
          brandId,
          message: 'The saved position of the interrupted sync has expired; starting this brand again from the first page.',
        });
        // A new run for the new pass: what is removed is decided by this complete pass alone.
        cache.runs.finish(runId, 'failed', ctx.now(), { error: 'the saved position expired; started again from the first page' });
        runId = cache.runs.start(brandId, 'opportunities', ctx.now()).id;
        await pass(undefined);
      } else throw e;
    }
  } catch (raw) {
    const e = named(raw, cache);
    finishRun(cache, runId, isCancellation(e) ? 'cancelled' : 'failed', ctx, e);
    if (stopsSync(e)) throw e;
    s.failures.push({ phase: 'opportunities', kind: kindOf(e), message: messageOf(e) });
    return;
  }
  const removed = cache.tx(() => {
    const n = cache.opportunities.markUnseenRemoved(brandId, runId, ctx.now());
    cache.runs.finish(runId, 'done', ctx.now(), { removed: n });
    return n;
  });
  const done = cache.runs.get(runId)!;
  s.added = done.added;
  s.changed = done.changed;
  s.removed = removed;
}

async function syncCitations(cache: Cache, client: TrakkrClient, brandId: string, mode: CitationMode, s: BrandSummary, ctx: BrandCtx): Promise<void> {
  const kind = KIND_OF_MODE[mode];
  const run = cache.runs.start(brandId, kind, ctx.now());
  let position = 0;
  let pages = 0;
  let snapshot: { updated_at?: string; summary?: unknown } = {};
  try {
    for await (const page of client.citationsPages({ brand: brandId, mode, limit: 500 }, ctx.signal, ctx.budget)) {
      if (pages === 0) snapshot = { updated_at: page.updatedAt, summary: page.summary };
      await cache.awaitWriteLock(ctx.signal);
      cache.tx(() => {
        cache.citations.upsertPage(brandId, mode, page.items, run.id, position);
        // What this sync saw of each cited page, kept for the next one (evidence of a win: core/results/).
        if (mode === 'citations') observeCitations(cache.writable, brandId, page.items, ctx.now());
        cache.runs.progress(run.id, { cursor: page.pagination.next_cursor, items: page.items.length, added: 0, changed: 0, warnings: page.warnings.length });
      });
      position += page.items.length;
      pages++;
      s.warnings += page.warnings.length;
      ctx.emit({ type: 'progress', brandId, phase: 'citations', pages, items: position });
    }
  } catch (e) {
    finishRun(cache, run.id, isCancellation(e) ? 'cancelled' : 'failed', ctx, named(e, cache));
    throw e;
  }
  cache.tx(() => {
    cache.citations.finish(brandId, mode, run.id, snapshot, ctx.now());
    cache.runs.finish(run.id, 'done', ctx.now());
  });
}

/** A sync as a job (sync-job.ts): its id, cancel, and the summary when it ends. */
export function startSyncJob(cache: Cache, client: TrakkrClient, opts: Omit<SyncOptions, 'signal'> = {}): SyncJob {
  return syncJob((signal) => runSync(cache, client, { ...opts, signal }));
}

// The results domain's slice of the contract, declared in
// shared/contract/results.ts and done here, straight over the store: from
// pitch to citation. The Results of a brand over a period, the evidence of one
// opportunity, the opportunities with evidence (the list's Cited mark), the
// report and its tables written where the user chose, and what a sync's new
// evidence means (counted into its summary; Won marked by itself only when
// Settings allow it). These reads need no derived table, so they read the
// ReadableDB only and never write. Marking Won belongs to the one owner of
// the user's record (triage.ts): the window's key sends `triage:apply` with
// `won` and undoes it with `triage:undo`; the automatic mark is the same
// logged, undoable action (markWonFromEvidence).
import { basename } from 'node:path';
import type { ContractHandlers, ContractResults } from '../../../shared/contract';
import { WorkbenchError } from '../../../shared/errors';
import type { SyncSummary } from '../../../shared/model';
import { periodOf, type Period, type PeriodPreset } from '../../../shared/results';
import { evidenceFor, isNewSince, matchBrand } from '../results/match';
import type { Cache } from '../store/cache';
import { keptBefore } from '../store/citation-facts';
import { missingIds } from '../store/opportunity-detail';
import { everAtStage } from '../store/outreach-results';
import type { DomainDeps } from './domain-deps';
import type { FileChoices } from './file-choices';
import { onFirstUse } from './lazy';
import { applyAction, type ActionContext, type Applied } from './triage';

export interface ResultsPeriodArgs {
  period: PeriodPreset;
  from?: string;
  to?: string;
}

/** What the results domain is given: the domains' parts, and the files chosen in main's dialogs (the report, the tables). */
export interface ResultsDeps extends DomainDeps {
  files: FileChoices;
}

/** The Results' figures, its report and its tables (with the export's writers): loaded on first use (lazy.ts). */
const reporting = onFirstUse('Results', async () => ({
  ...(await import('../results/report')),
  ...(await import('../results/report-files')),
  ...(await import('../export/results-tables')),
}));

/** The period a preset means today (the core's calendar), or the custom days given. */
export function periodFor(p: ResultsPeriodArgs, today: string): Period {
  if (p.period !== 'custom') return periodOf(p.period, today);
  if (!p.from || !p.to)
    throw new WorkbenchError('invalid-input', 'A custom period needs the day it starts and the day it ends.', { field: p.from ? 'to' : 'from' });
  if (p.from > p.to) throw new WorkbenchError('invalid-input', 'The period starts after it ends: choose a start on or before its end.', { field: 'from' });
  return periodOf('custom', today, { from: p.from, to: p.to });
}

/**
 * Mark these opportunities Won from their evidence: one action of the one
 * owner of the user's record (triage.ts applyAction, intent `won`), logged
 * field by field so the history shows it and `triage:undo` takes it back like
 * any other action. Those no longer in the cache are left out (the evidence
 * outlives a reset); null when none is left.
 */
export function markWonFromEvidence(cache: Cache, brandId: string, ids: readonly string[], ctx: ActionContext): Applied | null {
  const gone = new Set(missingIds(cache.readable, brandId, ids));
  const here = ids.filter((id) => !gone.has(id));
  return here.length ? applyAction(cache, brandId, here, { do: 'won' }, ctx) : null;
}

/** Stages the automatic Won leaves alone: Won already, or set aside by the user. */
const NOT_MARKED: ReadonlySet<string | null> = new Set(['Won', 'Not a fit']);

/**
 * After a sync: match each brand it synced, count the evidence it brought
 * (a page first kept, or seen to flip, since the sync started) into its
 * summary, and only when Settings allow it, mark those Won (one undoable
 * action per brand). A brand's first sync with nothing kept before it (after
 * an upgrade, or a rebuilt cache) is the baseline: nothing in it is new. The
 * automatic mark never touches one that was ever Won (a Won the user undid
 * stays undone) nor one set to Not a fit.
 */
export function afterSync(d: DomainDeps, summary: SyncSummary, startedAt: string): void {
  const cache = d.cache();
  const settings = d.settings();
  for (const b of summary.brands) {
    if (b.skipped) continue;
    if (!keptBefore(cache.readable, b.brandId, startedAt)) {
      b.cited = 0;
      if (settings.autoMarkWon) b.markedWon = 0;
      continue;
    }
    const { rows, evidence } = matchBrand(cache.readable, b.brandId);
    const stage = new Map(rows.map((r) => [r.id, r.stage]));
    const fresh = [...evidence.values()].filter((e) => isNewSince(e, startedAt));
    b.cited = fresh.length;
    if (!settings.autoMarkWon) continue;
    const candidates = fresh.map((e) => e.opportunity_id).filter((id) => !NOT_MARKED.has(stage.get(id) ?? null));
    const wonBefore = everAtStage(cache.readable, b.brandId, candidates, 'Won', 'count');
    const toMark = candidates.filter((id) => !wonBefore.has(id));
    const applied = markWonFromEvidence(cache, b.brandId, toMark, { today: d.today(), senderName: settings.senderName });
    b.markedWon = applied?.changed.length ?? 0;
    if (applied?.actionId != null) d.changed();
  }
}

/** The one-page report where the user chose: the window printed to PDF by main, or its page as HTML. */
async function saveReport(
  d: ResultsDeps,
  o: { format: 'pdf'; file: string } | { format: 'html'; file: string; title: string; html: string; css: string },
): Promise<ContractResults['results:save-report']> {
  const { reportDocument, writePdf, writeWhole } = await reporting();
  const path = d.files.take(o.file, 'save', 'where to save the report');
  const bytes = o.format === 'pdf' ? writePdf(path, await d.platform.printToPdf()) : writeWhole(path, reportDocument(o), 'The report');
  return { name: basename(path), bytes };
}

/** The Results' tables (one file each, CSV or workbook) where the user chose. */
async function exportTables(
  d: ResultsDeps,
  brandId: string,
  p: ResultsPeriodArgs,
  format: 'csv' | 'xlsx',
  file: string,
): Promise<ContractResults['results:export']> {
  const { exportResultsTables, resultsOf } = await reporting();
  const cache = d.cache();
  const report = resultsOf(cache, brandId, periodFor(p, d.today()), d.today());
  const path = d.files.take(file, 'save', 'where to save the tables');
  const r = await exportResultsTables(cache, report, path, format);
  d.changed();
  return { files: r.files.map((f) => basename(f)), rows: r.rows };
}

/** The contract's results slice (shared/contract/results.ts). */
export function resultsHandlers(
  d: ResultsDeps,
): Pick<ContractHandlers, 'results:get' | 'results:evidence' | 'results:cited' | 'results:save-report' | 'results:export'> {
  return {
    'results:get': async ({ brandId, ...p }) => (await reporting()).resultsOf(d.cache(), brandId, periodFor(p, d.today()), d.today()),
    'results:evidence': ({ brandId, id }) => evidenceFor(d.cache().readable, brandId, id),
    'results:cited': ({ brandId }) => ({ ids: [...matchBrand(d.cache().readable, brandId).evidence.keys()] }),
    'results:save-report': (o) => saveReport(d, o),
    'results:export': ({ brandId, format, file, ...p }) => exportTables(d, brandId, p, format, file),
  };
}

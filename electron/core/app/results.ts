// From pitch to citation, a concern of the service: the Results of a brand
// over a period, the evidence of one opportunity, marking it Won (and the
// undo), the match after each sync (what it newly found, and Won marked by
// itself only when Settings allow it), and the report and its tables written
// where the user chose.
import { WorkbenchError } from '../../../shared/errors';
import type { ContractResults, Settings, WonBefore } from '../../../shared/contract';
import type { Evidence } from '../../../shared/evidence';
import type { SyncSummary } from '../../../shared/model';
import { periodOf, type Period, type PeriodPreset } from '../../../shared/results';
import { exportResultsTables } from '../export/results-tables';
import { evidenceFor, isNewSince, matchBrand } from '../results/match';
import { reportDocument, writePdf, writeWhole } from '../results/report-files';
import { resultsOf } from '../results/report';
import type { Cache } from '../store/cache';
import type { FileChoices } from './file-choices';
import type { Pipeline } from './pipeline';
import type { Platform } from './platform';
import { basename } from 'node:path';

export interface ResultsPeriodArgs {
  period: PeriodPreset;
  from?: string;
  to?: string;
}

export interface ResultsDeps {
  cache(): Cache;
  pipeline: Pipeline;
  settings(): Settings;
  files: FileChoices;
  platform: Platform;
  today(): string;
  /** The user's record changed (a backup follows). */
  changed(): void;
}

/**
 * Mark an opportunity Won, from its evidence or by the user's key: for now
 * through the pipeline's stage path (the one place that sets a stage), and
 * what it was before, for the undo. The one function to point at the user's
 * record's intent-level commands once they own stages.
 */
export function markWonFromEvidence(cache: Cache, pipeline: Pipeline, brandId: string, id: string): WonBefore {
  if (!cache.opportunities.exists(brandId, id)) throw new WorkbenchError('not-found', 'That opportunity is not in the cache (it may have been reset).');
  const t = cache.triage.get(brandId, id);
  const before: WonBefore = { stage: t?.stage ?? null, reason: t?.stage_reason ?? null, status: t?.status ?? null };
  pipeline.setStage(brandId, id, 'Won');
  return before;
}

/** Undo markWonFromEvidence: the stage, its reason and the local status as they were. */
export function undoMarkWon(cache: Cache, brandId: string, id: string, before: WonBefore): void {
  cache.triage.set(brandId, id, { stage: before.stage === 'New' ? null : before.stage, stage_reason: before.reason, status: before.status });
}

export class Results {
  constructor(private readonly d: ResultsDeps) {}

  /** The period a preset means today (the core's calendar), or the custom days given. */
  period(p: ResultsPeriodArgs): Period {
    if (p.period !== 'custom') return periodOf(p.period, this.d.today());
    if (!p.from || !p.to)
      throw new WorkbenchError('invalid-input', 'A custom period needs the day it starts and the day it ends.', { field: p.from ? 'to' : 'from' });
    if (p.from > p.to) throw new WorkbenchError('invalid-input', 'The period starts after it ends: choose a start on or before its end.', { field: 'from' });
    return periodOf('custom', this.d.today(), { from: p.from, to: p.to });
  }

  report(brandId: string, p: ResultsPeriodArgs): ContractResults['results:get'] {
    return resultsOf(this.d.cache(), brandId, this.period(p), this.d.today());
  }

  evidence(brandId: string, id: string): Evidence | null {
    return evidenceFor(this.d.cache(), brandId, id);
  }

  /** The opportunities of the brand with evidence. */
  cited(brandId: string): ContractResults['results:cited'] {
    return { ids: [...matchBrand(this.d.cache(), brandId).evidence.keys()] };
  }

  markWon(brandId: string, id: string): ContractResults['results:mark-won'] {
    const before = markWonFromEvidence(this.d.cache(), this.d.pipeline, brandId, id);
    return { detail: this.d.cache().opportunities.get(brandId, id) ?? null, before };
  }

  undoWon(brandId: string, id: string, before: WonBefore): ContractResults['results:undo-won'] {
    undoMarkWon(this.d.cache(), brandId, id, before);
    this.d.changed();
    return this.d.cache().opportunities.get(brandId, id) ?? null;
  }

  /**
   * After a sync: match each brand it synced, count the evidence it brought
   * (a page first kept, or seen to flip, since the sync started) into its
   * summary, and only when Settings allow it, mark those Won.
   */
  afterSync(summary: SyncSummary, startedAt: string): void {
    const cache = this.d.cache();
    const auto = this.d.settings().autoMarkWon;
    for (const b of summary.brands) {
      if (b.skipped) continue;
      const { rows, evidence } = matchBrand(cache, b.brandId);
      const stage = new Map(rows.map((r) => [r.id, r.stage]));
      const fresh = [...evidence.values()].filter((e) => isNewSince(e, startedAt));
      b.cited = fresh.length;
      if (!auto) continue;
      let marked = 0;
      for (const e of fresh) {
        if (stage.get(e.opportunity_id) === 'Won' || !cache.opportunities.exists(b.brandId, e.opportunity_id)) continue;
        markWonFromEvidence(cache, this.d.pipeline, b.brandId, e.opportunity_id);
        marked++;
      }
      b.markedWon = marked;
    }
  }

  /** The one-page report where the user chose: the window printed to PDF by main, or its page as HTML. */
  async saveReport(
    o: { format: 'pdf'; file: string } | { format: 'html'; file: string; title: string; html: string; css: string },
  ): Promise<ContractResults['results:save-report']> {
    const path = this.d.files.take(o.file, 'save', 'where to save the report');
    const bytes = o.format === 'pdf' ? writePdf(path, await this.d.platform.printToPdf()) : writeWhole(path, reportDocument(o), 'The report');
    return { name: basename(path), bytes };
  }

  /** The Results' tables (one CSV each, or one workbook) where the user chose. */
  async exportTables(brandId: string, p: ResultsPeriodArgs, format: 'csv' | 'xlsx', file: string): Promise<ContractResults['results:export']> {
    const report = this.report(brandId, p);
    const path = this.d.files.take(file, 'save', 'where to save the tables');
    const r = await exportResultsTables(this.d.cache(), report, path, format);
    this.d.changed();
    return { files: r.files.map((f) => basename(f)), rows: r.rows };
  }
}

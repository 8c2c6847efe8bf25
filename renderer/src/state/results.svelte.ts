// From pitch to citation: the Results of the brand on screen over a period
// (the core works them out), the evidence of the opportunity under the
// cursor (its "Cited" mark), and the report
// (a PDF main prints from the window, or the page as HTML) and its tables
// written where the user chooses. Answers superseded by a newer request are
// dropped (lib/latest.ts); a failure is a toast.
import type { Evidence } from '../../../shared/evidence';
import type { ListItem } from '../../../shared/model';
import type { PeriodPreset, ResultsReport } from '../../../shared/results';
import { call } from '../lib/api.svelte';
import { count } from '../lib/format';
import { Latest } from '../lib/latest';
import type { Frame } from './frame';

export type ReportFormat = 'pdf' | 'html';
/** The report page as the window shows it: its markup and the styles that draw it. */
export interface ReportPage {
  title: string;
  html: string;
  css: string;
}

/** A file name of safe characters: "Northwind Coffee results November 2026". */
const fileName = (s: string) =>
  s
    .replace(/[^\p{L}\p{N} ._-]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim() || 'Results';

export class ResultsStore {
  #preset = $state<PeriodPreset>('this-month');
  #from = $state('');
  #to = $state('');
  #report = $state.raw<ResultsReport | null>(null);
  #loading = $state(false);
  #error = $state<string | null>(null);
  #showReport = $state(false);
  #writing = $state<string | null>(null);
  /** The evidence of one opportunity (brand/id), once read. */
  #evidence = $state.raw<{ key: string; evidence: Evidence | null } | null>(null);
  /** The opportunities of the brand on screen with evidence (the list's Cited mark). */
  #cited = $state.raw<{ brandId: string; ids: ReadonlySet<string> } | null>(null);
  #loads = new Latest();
  #evidenceTurn = new Latest();
  #citedTurn = new Latest();
  readonly #app: Frame;

  constructor(app: Frame) {
    this.#app = app;
  }

  get preset(): PeriodPreset {
    return this.#preset;
  }
  get from(): string {
    return this.#from;
  }
  get to(): string {
    return this.#to;
  }
  get report(): ResultsReport | null {
    return this.#report;
  }
  get loading(): boolean {
    return this.#loading;
  }
  get error(): string | null {
    return this.#error;
  }
  /** The one-page report is on screen (what a PDF prints and an HTML file keeps). */
  get showReport(): boolean {
    return this.#showReport;
  }
  /** What is being written ('pdf', 'html', 'csv', 'xlsx'), or null. */
  get writing(): string | null {
    return this.#writing;
  }

  /** This opportunity of the brand on screen has evidence (a citation at its outlet after the pitch). */
  isCited(id: string): boolean {
    return this.#cited !== null && this.#cited.brandId === this.#app.brandId && this.#cited.ids.has(id);
  }

  /** Read which opportunities of the brand have evidence (after its list is on screen, and after each sync). Never rejects. */
  async loadCited(brandId: string): Promise<void> {
    const fresh = this.#citedTurn.begin();
    try {
      const { ids } = await call('results:cited', { brandId });
      if (fresh()) this.#cited = { brandId, ids: new Set(ids) };
    } catch (e) {
      if (fresh()) this.#app.fail('The cited opportunities could not be read')(e);
    }
  }

  /** The evidence of this opportunity, when it has been read (undefined: not yet, or another one's). */
  evidenceOf(brandId: string | null, id: string | undefined): Evidence | null | undefined {
    return this.#evidence && this.#evidence.key === `${brandId}/${id}` ? this.#evidence.evidence : undefined;
  }

  #args(brandId: string) {
    return this.#preset === 'custom' ? { brandId, period: 'custom' as const, from: this.#from, to: this.#to } : { brandId, period: this.#preset };
  }

  /** A preset, or custom days (both set before it reads). */
  setPeriod(preset: PeriodPreset, from?: string, to?: string): void {
    this.#preset = preset;
    if (from !== undefined) this.#from = from;
    if (to !== undefined) this.#to = to;
  }

  /** Read the Results of the brand over the period. Never rejects. */
  async load(brandId: string): Promise<void> {
    if (this.#preset === 'custom' && (!this.#from || !this.#to)) return;
    const fresh = this.#loads.begin();
    this.#loading = true;
    try {
      const r = await call('results:get', this.#args(brandId));
      if (fresh()) {
        this.#report = r;
        this.#error = null;
      }
    } catch (e) {
      if (fresh()) {
        this.#error = e instanceof Error ? e.message : String(e);
        this.#app.fail('The Results could not be read')(e);
      }
    } finally {
      if (fresh()) this.#loading = false;
    }
  }

  /** Read the evidence of the opportunity under the cursor: only one pitched (contacted: an export counts once confirmed sent) can have any. Never rejects. */
  async loadEvidence(brandId: string | null, item: ListItem | undefined): Promise<void> {
    const fresh = this.#evidenceTurn.begin();
    if (!brandId || !item) return;
    const key = `${brandId}/${item.id}`;
    if (!item.contacted_at) {
      this.#evidence = { key, evidence: null };
      return;
    }
    try {
      const evidence = await call('results:evidence', { brandId, id: item.id });
      if (fresh()) this.#evidence = { key, evidence };
    } catch (e) {
      if (fresh()) this.#app.fail('The evidence could not be read')(e);
    }
  }

  openReport(): void {
    this.#showReport = true;
  }
  closeReport(): void {
    this.#showReport = false;
  }

  #suggested(ext: string): string {
    const r = this.#report;
    return `${fileName(`${r?.brandName ?? 'Results'} results ${r?.period.label ?? ''}`)}.${ext}`;
  }

  async #choose(ext: string): Promise<{ handle: string; name: string } | null> {
    return (await call('export:choose-file', { suggestedName: this.#suggested(ext) })).file;
  }

  /** The report where the user chooses: a PDF printed from the window (the report on screen), or the page as HTML. Never rejects. */
  async saveReport(format: ReportFormat, page: () => ReportPage): Promise<void> {
    if (this.#writing) return;
    this.#writing = format;
    try {
      const file = await this.#choose(format);
      if (!file) return;
      const r =
        format === 'pdf'
          ? await call('results:save-report', { format: 'pdf', file: file.handle })
          : await call('results:save-report', { format: 'html', file: file.handle, ...page() });
      this.#app.toast(`The report is saved as ${r.name}. Nothing was sent: it is yours to send.`);
    } catch (e) {
      this.#app.fail('The report could not be saved')(e);
    } finally {
      this.#writing = null;
    }
  }

  /** The tables: one file each, a CSV or a workbook. Never rejects. */
  async exportTables(format: 'csv' | 'xlsx'): Promise<void> {
    const brandId = this.#app.brandId;
    if (!brandId || this.#writing) return;
    this.#writing = format;
    try {
      const file = await this.#choose(format);
      if (!file) return;
      const r = await call('results:export', { ...this.#args(brandId), format, file: file.handle });
      this.#app.toast(`Saved ${r.files.join(', ')} (${count(r.rows, 'row')}).`);
    } catch (e) {
      this.#app.fail('The tables could not be exported')(e);
    } finally {
      this.#writing = null;
    }
  }

  dispose(): void {
    this.#loads.cancel();
    this.#evidenceTurn.cancel();
    this.#citedTurn.cancel();
  }
}

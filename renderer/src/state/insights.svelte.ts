// Insights: scores and citations from the cache, for the brand on screen, and
// how many opportunities each gap domain (cites competitors, not the brand)
// already has. A load or filter superseded by a newer one is dropped when it
// answers (lib/latest.ts); a failure is a toast.
import type { ContractResults } from '../../../shared/contract';
import type { ScoreRow } from '../../../shared/model';
import { competitorGaps, domainCitations, type DomainCitations, type DomainGap } from '../../../shared/insights';
import { call } from '../lib/api.svelte';
import { Latest } from '../lib/latest';
import type { Frame } from './frame';

type Citations = ContractResults['citations:get'];
export type CitationMode = 'citations' | 'search-queries' | 'knowledge';
export interface CitationFilter {
  domain?: string;
  start?: string;
  end?: string;
}

export class InsightsStore {
  #scores = $state.raw<ScoreRow[]>([]);
  #byModel = $state.raw<ScoreRow[]>([]);
  #byPrompt = $state.raw<ScoreRow[]>([]);
  #citations = $state.raw<Citations | null>(null);
  #allCitations = $state.raw<Record<string, unknown>[]>([]);
  #loadedFor = $state<string | null>(null);
  #gapOpportunities = $state.raw<Record<string, number>>({});
  #loads = new Latest();
  #filters = new Latest();
  #gapCounts = new Latest();
  readonly #app: Frame;

  constructor(app: Frame) {
    this.#app = app;
  }

  get scores(): ScoreRow[] {
    return this.#scores;
  }
  get byModel(): ScoreRow[] {
    return this.#byModel;
  }
  get byPrompt(): ScoreRow[] {
    return this.#byPrompt;
  }
  /** The citations on screen (filtered, in the chosen mode). */
  get citations(): Citations | null {
    return this.#citations;
  }
  /** Every citation of the brand (unfiltered), for per-domain facts and the gap list. */
  get allCitations(): Record<string, unknown>[] {
    return this.#allCitations;
  }
  get loadedFor(): string | null {
    return this.#loadedFor;
  }
  /** Opportunities in the cache per gap domain. */
  get gapOpportunities(): Record<string, number> {
    return this.#gapOpportunities;
  }

  /** Domains that cite competitors but not the brand, the most cited first. */
  readonly gaps: DomainGap[] = $derived(competitorGaps(this.#allCitations as never[]).slice(0, 15));

  /** Load the brand's scores and citations. Never rejects. */
  async load(brandId: string): Promise<void> {
    const fresh = this.#loads.begin();
    const citationsFresh = this.#filters.begin();
    try {
      const [s, m, p, c] = await Promise.all([
        call('scores:get', { brandId, breakdown: '' }),
        call('scores:get', { brandId, breakdown: 'model' }),
        call('scores:get', { brandId, breakdown: 'prompt' }),
        call('citations:get', { brandId, mode: 'citations' }),
      ]);
      if (!fresh()) return;
      this.#scores = s.rows;
      this.#byModel = m.rows;
      this.#byPrompt = p.rows;
      if (citationsFresh()) this.#citations = c;
      this.#allCitations = c.items;
      this.#loadedFor = brandId;
    } catch (e) {
      if (fresh()) this.#app.fail('Insights could not be read')(e);
    }
  }

  /** Count the opportunities of each gap domain (the Insights view asks, when the gaps change). Never rejects. */
  async countGapOpportunities(brandId: string, gaps: readonly DomainGap[]): Promise<void> {
    const fresh = this.#gapCounts.begin();
    try {
      const counts = await Promise.all(
        gaps.map(async (g) => [g.domain, (await call('opportunities:list', { filter: { brandId, domain: g.domain }, offset: 0, limit: 1 })).total] as const),
      );
      if (fresh()) this.#gapOpportunities = Object.fromEntries(counts);
    } catch (e) {
      if (fresh()) this.#app.fail('The opportunities of the gap domains could not be counted')(e);
    }
  }

  /** Show the brand's citations in another mode or filter. Never rejects. */
  async filterCitations(brandId: string, mode: CitationMode, f: CitationFilter): Promise<void> {
    const fresh = this.#filters.begin();
    try {
      const c = await call('citations:get', { brandId, mode, ...f });
      if (fresh()) this.#citations = c;
    } catch (e) {
      if (fresh()) this.#app.fail('The citations could not be read')(e);
    }
  }

  domain(domain: string): DomainCitations {
    return domainCitations(this.#allCitations, domain);
  }

  /** Drop answers still on their way (the owner is going). */
  dispose(): void {
    this.#loads.cancel();
    this.#filters.cancel();
    this.#gapCounts.cancel();
  }
}

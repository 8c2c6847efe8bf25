// Insights: scores and citations from the cache, for the brand on screen.
import type { ContractResults } from '../../../shared/contract';
import type { ScoreRow } from '../../../shared/model';
import { domainCitations, type DomainCitations } from '../../../shared/insights';
import { call } from '../lib/api.svelte';

type Citations = ContractResults['citations:get'];

export class InsightsStore {
  scores = $state.raw<ScoreRow[]>([]);
  byModel = $state.raw<ScoreRow[]>([]);
  byPrompt = $state.raw<ScoreRow[]>([]);
  citations = $state.raw<Citations | null>(null);
  /** Every citation of the brand (unfiltered), for per-domain facts and the gap list. */
  allCitations = $state.raw<Record<string, unknown>[]>([]);
  loadedFor = $state<string | null>(null);

  async load(brandId: string): Promise<void> {
    const [s, m, p, c] = await Promise.all([
      call('scores:get', { brandId, breakdown: '' }),
      call('scores:get', { brandId, breakdown: 'model' }),
      call('scores:get', { brandId, breakdown: 'prompt' }),
      call('citations:get', { brandId, mode: 'citations' }),
    ]);
    this.scores = s.rows;
    this.byModel = m.rows;
    this.byPrompt = p.rows;
    this.citations = c;
    this.allCitations = c.items;
    this.loadedFor = brandId;
  }

  async filterCitations(brandId: string, mode: 'citations' | 'search-queries' | 'knowledge', f: { domain?: string; start?: string; end?: string }): Promise<void> {
    this.citations = await call('citations:get', { brandId, mode, ...f });
  }

  domain(domain: string): DomainCitations {
    return domainCitations(this.allCitations, domain);
  }
}

// The insights screen's data as the cache holds it: visibility scores (total,
// by model, by prompt) and citations, each with when it was fetched.
import type { ContractHandlers, ContractResults } from '../../../shared/contract';
import type { Cache } from '../store/cache';
import type { DomainDeps } from './domain-deps';

export type Breakdown = '' | 'model' | 'prompt';

export function scores(cache: Cache, brandId: string, breakdown: Breakdown, start?: string, end?: string): ContractResults['scores:get'] {
  const b = breakdown ? [breakdown] : [];
  const meta = cache.scores.meta(brandId, b);
  return { rows: cache.scores.series(brandId, b, { start, end }), brandName: meta?.brand_name ?? null, fetchedAt: meta?.fetched_at ?? null };
}

export function citations(
  cache: Cache,
  brandId: string,
  mode: string,
  filter: { domain?: string; start?: string; end?: string } = {},
): ContractResults['citations:get'] {
  const snap = cache.citations.snapshot(brandId, mode);
  return {
    items: cache.citations.list(brandId, mode, filter),
    updatedAt: snap?.updated_at ?? null,
    summary: snap?.summary ?? null,
    fetchedAt: snap?.fetched_at ?? null,
  };
}

/** The contract's insights slice (shared/contract/insights.ts): reads of the cache only. */
export function insightsHandlers(d: Pick<DomainDeps, 'cache'>): Pick<ContractHandlers, 'scores:get' | 'citations:get'> {
  return {
    'scores:get': ({ brandId, breakdown, start, end }) => scores(d.cache(), brandId, breakdown, start, end),
    'citations:get': ({ brandId, mode, domain, start, end }) => citations(d.cache(), brandId, mode, { domain, start, end }),
  };
}

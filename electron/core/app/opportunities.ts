// The opportunities' slice of the contract, declared in
// shared/contract/opportunities.ts and done here, straight over the store: the
// brands with their counts, the list a page at a time, what the list pane needs
// in one answer, the chip counts, one opportunity whole, and the counts per
// outlet (with its stage mix). Each read comes after its one explicit preparing step (prepareList,
// prepareBrand), so the reads themselves never write.
import type { ContractHandlers, ContractResults } from '../../../shared/contract';
import type { ListFilter } from '../../../shared/model';
import type { Cache } from '../store/cache';
import { prepareBrand } from '../store/list-items';
import { readOpportunity } from '../store/opportunity-detail';
import { outletMix } from '../store/outlet-mix';
import { chipCountsAndTotal, listPage, outletCounts, prepareList, shownTotal, type After } from '../store/opportunity-list';
import type { DomainDeps } from './domain-deps';

/** A search's total as far as it was counted: `capped` only when there are more. */
const totalOf = (t: { total: number; capped: boolean }) => (t.capped ? { total: t.total, capped: true } : { total: t.total });

/** A page of the list and its total (a search's counted up to a cap: shownTotal). */
export function list(
  cache: Cache,
  filter: ListFilter,
  page: { offset?: number; limit: number; after?: After; fromEnd?: boolean },
): ContractResults['opportunities:list'] {
  const q = prepareList(cache.writable, filter, cache.days());
  const { items, next } = listPage(cache.readable, q, page);
  return { items, next, ...totalOf(shownTotal(cache.readable, q)) };
}

/** The first page, its total and the chip counts: what the list pane needs when a filter changes, in one answer. */
export function view(cache: Cache, filter: ListFilter, limit: number, withCounts = true): ContractResults['opportunities:view'] {
  const q = prepareList(cache.writable, filter, cache.days());
  const { items, next } = listPage(cache.readable, q, { limit });
  // Without the counts (a search being typed): the total as far as a page needs it; the exact one comes with the counts after.
  if (!withCounts) return { items, next, ...totalOf(shownTotal(cache.readable, q)), counts: null };
  // The total comes with the chip counts: one pass over the chip index instead of two.
  const { counts, total } = chipCountsAndTotal(cache.readable, q);
  return { items, next, total, counts };
}

/** Read what the window asks for first (the first brand's list), so its first answer comes from warm pages. */
export function warmUp(cache: Cache): void {
  try {
    const brand = cache.brands.list(cache.days()).find((b) => !b.removed_on_server);
    if (brand) view(cache, { brandId: brand.id, sort: 'priority' }, 200);
  } catch {
    // Only a head start: the window's own call reports any problem.
  }
}

/** A page of the list for the window, made (or refused): the app is told as its reply goes out; a launch's sync waits for the first. */
function served<T>(d: DomainDeps, page: () => T): T {
  try {
    return page();
  } finally {
    d.pageServed?.();
  }
}

/** The contract's opportunities slice (shared/contract/opportunities.ts). */
export function opportunityHandlers(
  d: DomainDeps,
): Pick<
  ContractHandlers,
  'brands:list' | 'opportunities:list' | 'opportunities:view' | 'opportunities:counts' | 'opportunities:get' | 'opportunities:domains' | 'opportunities:outlets'
> {
  return {
    'brands:list': () => d.cache().brands.list(d.cache().days()),
    // A page answered: the launch's sync, which waits for the window's first page, may start (lifecycle.ts).
    'opportunities:list': ({ filter, offset, limit, after, fromEnd }) => served(d, () => list(d.cache(), filter, { offset, limit, after, fromEnd })),
    'opportunities:view': ({ filter, limit, counts }) => served(d, () => view(d.cache(), filter, limit, counts)),
    'opportunities:counts': (filter) => {
      const cache = d.cache();
      const { counts, total } = chipCountsAndTotal(cache.readable, prepareList(cache.writable, filter, cache.days()));
      return { ...counts, listed: total };
    },
    'opportunities:get': ({ brandId, id }) => {
      const cache = d.cache();
      return readOpportunity(cache.readable, prepareBrand(cache.writable, brandId), id);
    },
    'opportunities:domains': (filter) => {
      const cache = d.cache();
      return outletCounts(cache.readable, prepareList(cache.writable, filter, cache.days()));
    },
    // Group by publication's heads (counts and stage mix per outlet): the list's filter prepared, then only read.
    'opportunities:outlets': (filter) => {
      const cache = d.cache();
      return outletMix(cache.readable, prepareList(cache.writable, filter, cache.days()));
    },
  };
}

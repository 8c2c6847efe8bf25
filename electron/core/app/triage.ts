// The opportunities as the user goes through them: brands, list, counts and detail from the cache,
// triage changes (one or many, only to opportunities the cache holds) and the do-not-contact list.
import { WorkbenchError } from '../../../shared/errors';
import type { ContractResults } from '../../../shared/contract';
import type { DoNotContactEntry, ListFilter, TriagePatch } from '../../../shared/model';
import type { Cache } from '../store/cache';
import type { After } from '../store/opportunities';

/** Search results are counted up to this: a broad prefix while typing need not scan every match. */
export const SEARCH_COUNT_CAP = 5000;

const NOT_IN_CACHE = 'That opportunity is not in the cache (it may have been reset).';
/** How many missing ids a refusal names before it says "and N more". */
const NAMED_MISSING = 3;

/** Plain words for a bulk change refused because some of its opportunities are gone. */
export function missingMessage(missing: readonly string[], asked: number): string {
  const named = missing.slice(0, NAMED_MISSING).join(', ');
  const more = missing.length > NAMED_MISSING ? ` and ${missing.length - NAMED_MISSING} more` : '';
  const which = missing.length === 1 ? '1 of these opportunities is' : `${missing.length} of these ${asked} opportunities are`;
  return `Nothing was changed: ${which} not in the cache (it may have been reset): ${named}${more}.`;
}

export class Triage {
  constructor(private readonly cache: () => Cache) {}

  brands(): ContractResults['brands:list'] {
    return this.cache().brands.list();
  }

  /** `exact`: the filter's total when already known (view() has it from the chip counts); a search's total is capped either way. */
  list(filter: ListFilter, offset: number, limit: number, after?: After, exact?: number): ContractResults['opportunities:list'] {
    const { opportunities } = this.cache();
    const cap = filter.search ? SEARCH_COUNT_CAP : undefined;
    const total = exact === undefined ? opportunities.count(filter, cap) : Math.min(exact, cap ?? exact);
    const page = opportunities.page(filter, { offset, limit, after });
    return { items: page.items, next: page.next, total, capped: cap !== undefined && total >= cap };
  }

  /** Read what the window asks for first (the first brand's list), so its first answer comes from warm pages. */
  warmUp(): void {
    try {
      const brand = this.brands().find((b) => !b.removed_on_server);
      if (brand) this.view({ brandId: brand.id, sort: 'priority' }, 200);
    } catch {
      // Only a head start: the window's own call reports any problem.
    }
  }

  /** The first page, its total and the chip counts: what the list pane needs when a filter changes, in one answer. */
  view(filter: ListFilter, limit: number, withCounts = true): ContractResults['opportunities:view'] {
    if (!withCounts) return { ...this.list(filter, 0, limit), counts: null };
    // The total comes with the chip counts: one pass over the chip index instead of two.
    const { counts, total } = this.cache().opportunities.countsAndTotal(filter);
    return { ...this.list(filter, 0, limit, undefined, total), counts };
  }

  counts(filter: ListFilter): ContractResults['opportunities:counts'] {
    return this.cache().opportunities.counts(filter);
  }

  get(brandId: string, id: string): ContractResults['opportunities:get'] {
    return this.cache().opportunities.get(brandId, id);
  }

  set(brandId: string, id: string, patch: TriagePatch): ContractResults['triage:set'] {
    const cache = this.cache();
    if (!cache.opportunities.exists(brandId, id)) throw new WorkbenchError('not-found', NOT_IN_CACHE);
    cache.triage.set(brandId, id, patch);
    return cache.opportunities.get(brandId, id);
  }

  /** The same change to many opportunities, all or nothing: refused, naming them, when any is not in the cache. */
  setMany(brandId: string, ids: readonly string[], patch: TriagePatch): ContractResults['triage:bulk'] {
    const cache = this.cache();
    const unique = [...new Set(ids)];
    const missing = unique.filter((id) => !cache.opportunities.exists(brandId, id));
    if (missing.length) throw new WorkbenchError('not-found', missingMessage(missing, unique.length), { field: 'ids' });
    return { updated: cache.triage.setMany(brandId, ids, patch) };
  }

  doNotContact(): DoNotContactEntry[] {
    return this.cache().doNotContact.list();
  }

  addDoNotContact(value: string, note?: string): DoNotContactEntry {
    return this.cache().doNotContact.add(value, note);
  }

  removeDoNotContact(value: string): ContractResults['dnc:remove'] {
    return { removed: this.cache().doNotContact.remove(value) };
  }
}

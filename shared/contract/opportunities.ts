// The opportunities' slice of the contract: the brands with their counts, the
// list a page at a time (after a row, or at an offset), what the list pane
// needs in one answer, the chip counts, one opportunity whole, and the counts
// per outlet. Implemented in electron/core/app/opportunities.ts.
import { z } from 'zod';
import { DIFFICULTIES, OPPORTUNITY_TYPES, STATUSES } from '../domain';
import { LIST_SORTS, type CachedBrand, type ListItem, type OpportunityDetail } from '../model';
import { STAGES } from '../pipeline';
import { MAX_SEARCH_LENGTH } from '../search-words';
import { brandId, int, method, oppId, once, one, none, shaped, text, type ContractSlice } from './parts';

export const listFilterSchema = once(() =>
  z.strictObject({
    brandId,
    type: z.enum(OPPORTUNITY_TYPES).optional(),
    /** Trakkr's own status. */
    status: z.enum(STATUSES).optional(),
    difficulty: z.enum(DIFFICULTIES).optional(),
    domain: text(200).optional(),
    includeArchived: z.boolean().optional(),
    includeRemoved: z.boolean().optional(),
    onlyRemoved: z.boolean().optional(),
    hasContacts: z.boolean().optional(),
    catchAll: z.enum(['only', 'exclude']).optional(),
    starred: z.boolean().optional(),
    search: text(MAX_SEARCH_LENGTH).optional(),
    alreadyPitched: z.boolean().optional(),
    ids: z.array(oppId).max(100_000).optional(),
    stage: z.enum(STAGES).optional(),
    view: z.enum(['due', 'snoozed']).optional(),
    sort: z.enum(LIST_SORTS).optional(),
  }),
);

const tally = () => z.record(z.string(), z.number());
/** The filter chips' counts: Trakkr's status, type, difficulty, the user's stage, and all of them (no status, type or difficulty chosen). */
export const chipCountsSchema = once(() =>
  z.object({
    status: tally(),
    type: tally(),
    difficulty: tally(),
    stage: tally(),
    total: int(),
    /** opportunities:counts only: how many the list holds under the whole filter, exact (a search's page may have said only "more than N"). */
    listed: int().optional(),
  }),
);
/** Where a page of the list starts: after the row with this sort value and rowid (the core made it; the renderer only hands it back). */
export const pageCursorSchema = once(() => z.strictObject({ value: z.union([z.string().max(2000), z.number(), z.null()]), rowid: z.number().int() }));
export const detail = () => shaped<OpportunityDetail>().nullable();
const page = () => ({
  items: z.array(shaped<ListItem>()),
  total: int(),
  /** Under a search: `total` was counted only up to a cap, the search matches more (the exact count comes with the chip counts: `listed`). */
  capped: z.boolean().optional(),
  next: pageCursorSchema().nullable(),
});

export const opportunitiesContract = {
  /** The brands, each with how many its list shows with no filter (the list's total then). */
  'brands:list': method(
    () => none,
    () => z.array(shaped<CachedBrand>()),
  ),
  'opportunities:list': method(
    // A page after a row (`after`: what the previous page's `next` said; scrolling), else at an offset (a jump).
    () =>
      one(
        z.strictObject({
          filter: listFilterSchema(),
          offset: z.number().int().min(0),
          limit: z.number().int().min(1).max(1000),
          after: pageCursorSchema().optional(),
          /** The offset counts from the list's end: the `limit` rows before the last `offset` ones (End, a jump to the lower half). */
          fromEnd: z.boolean().optional(),
        }),
      ),
    /** total: every match, a search's counted up to a cap (`capped`). next: where the page after this one starts (null at the end). */
    () => z.object(page()),
  ),
  // What the list pane needs when a filter, the search or the brand changes, in one round trip: the first page, its total and the chip counts.
  'opportunities:view': method(
    // counts: false while a search is being typed (the list paints first; the chips follow, showing a placeholder meanwhile).
    () => one(z.strictObject({ filter: listFilterSchema(), limit: z.number().int().min(1).max(1000), counts: z.boolean().optional() })),
    () => z.object({ ...page(), counts: chipCountsSchema().nullable() }),
  ),
  'opportunities:counts': method(
    () => one(listFilterSchema()),
    () => chipCountsSchema(),
  ),
  'opportunities:get': method(
    () => one(z.strictObject({ brandId, id: oppId })),
    () => detail(),
  ),
  // Group by publication: how many of the filtered list each outlet (domain) has.
  'opportunities:domains': method(
    () => one(listFilterSchema()),
    () => z.record(z.string(), z.number()),
  ),
  // Group by publication's heads: each outlet of the filtered list in the list's domain order, its count and its stage mix.
  'opportunities:outlets': method(
    () => one(listFilterSchema()),
    () => z.array(z.object({ domain: z.string(), total: int(), stages: z.partialRecord(z.enum(STAGES), z.number()) })),
  ),
} as const satisfies ContractSlice;

// The user's record's slice of the contract: the triage actions (each one
// round trip that answers with the changed rows and the detail), undo, the
// follow-ups due, an opportunity's history, and the do-not-contact list.
// Implemented in electron/core/app/triage.ts, the one owner of the record.
import { z } from 'zod';
import type { DoNotContactEntry, ListItem } from '../model';
import { STAGES, type TriageAction } from '../pipeline';
import { dateSchema } from '../rules';
import type { HistoryEntry, OutletHistoryEntry } from '../user-record';
import { chipCountsSchema, detail, listFilterSchema } from './opportunities';
import { brandId, int, method, none, oppId, once, one, shaped, text, type ContractSlice } from './parts';

const reason = () => text(500).nullable().optional();

/** What the user does (shared/pipeline.ts's TriageAction), as it crosses to the core. */
export const triageActionSchema = once(
  () =>
    z.discriminatedUnion('do', [
      z.strictObject({ do: z.literal('stage'), stage: z.enum(STAGES), reason: reason() }),
      z.strictObject({
        do: z.literal('contacted'),
        /** The day (default: today on the user's calendar). */
        on: dateSchema('on').optional(),
        /** The addresses the pitch went to (default: those the draft pre-selects). */
        addresses: z.array(text(320)).max(50).optional(),
        /** The subject sent (default: the pitch's, filled for the first address). */
        subject: text(2000).nullable().optional(),
      }),
      z.strictObject({ do: z.literal('not-contacted') }),
      z.strictObject({ do: z.literal('followed-up'), on: dateSchema('on').optional() }),
      z.strictObject({ do: z.literal('replied') }),
      z.strictObject({ do: z.literal('won') }),
      z.strictObject({ do: z.literal('not-a-fit'), reason: reason() }),
      z.strictObject({ do: z.literal('snooze'), until: dateSchema('until').nullable() }),
      z.strictObject({ do: z.literal('note'), text: text(100_000) }),
      z.strictObject({ do: z.literal('star'), on: z.boolean() }),
    ]) satisfies z.ZodType<TriageAction>,
);

/** The answer to an action or an undo: everything the window repaints from, in one round trip. */
export const triageResultSchema = once(() =>
  z.object({
    /** The action in the log (what an undo names); null when nothing changed. */
    actionId: int().nullable(),
    /** In plain words, for the toast ("Stage: Won", "3 opportunities snoozed until Mon 2 Dec"). */
    message: z.string(),
    /** Opportunities changed. */
    updated: int(),
    /** The changed rows, as the list shows them (all of them up to 500; none past that: read the list again). */
    items: z.array(shaped<ListItem>()),
    /** The opportunity whole, when the action was for one. */
    detail: detail(),
    /** Of the changed rows, those the list given as `filter` no longer holds (a Not a fit, a snooze). */
    leaving: z.array(z.string()),
    /** The chip counts under `filter`, when asked (`counts: true`). */
    counts: chipCountsSchema().nullable(),
    /** The follow-ups due now, per brand and in all; null after a note or a star (they cannot change it). */
    due: z.object({ byBrand: z.record(z.string(), z.number()), total: int() }).nullable(),
  }),
);
export type TriageResult = z.output<ReturnType<typeof triageResultSchema>>;

/** The window's list, for the answer to say which changed rows leave it (and its chip counts). */
const listContext = () => ({ filter: listFilterSchema().omit({ brandId: true }).optional(), counts: z.boolean().optional() });

export const triageContract = {
  // One action on one opportunity or many (all or nothing: refused when any id is not in the cache).
  'triage:apply': method(
    () => one(z.strictObject({ brandId, ids: z.array(oppId).min(1).max(100_000), action: triageActionSchema(), ...listContext() })),
    () => triageResultSchema(),
  ),
  // Take back an action (the latest not yet undone, of the brand when given): each field goes back where the action found it, unless changed since.
  'triage:undo': method(
    () => one(z.strictObject({ actionId: int().optional(), brandId: brandId.optional(), ...listContext() })),
    () => triageResultSchema(),
  ),
  'pipeline:due': method(
    () => none,
    () => z.object({ byBrand: z.record(z.string(), z.number()), total: int() }),
  ),
  'history:get': method(
    () => one(z.strictObject({ brandId, id: oppId })),
    () => z.object({ entries: z.array(shaped<HistoryEntry>()), sameOutlet: z.array(shaped<OutletHistoryEntry>()) }),
  ),
  'dnc:list': method(
    () => none,
    () => z.array(shaped<DoNotContactEntry>()),
  ),
  'dnc:add': method(
    () => one(z.strictObject({ value: text(320).min(1), note: text(1000).optional() })),
    () => shaped<DoNotContactEntry>(),
  ),
  'dnc:remove': method(
    () => one(z.strictObject({ value: text(320).min(1) })),
    () => z.object({ removed: z.boolean() }),
  ),
} as const satisfies ContractSlice;

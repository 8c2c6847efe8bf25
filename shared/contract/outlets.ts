// Outlet-level work in Group by publication: one pitch planned for several
// opportunities at one outlet (one draft, the outlet's addresses, every
// covered opportunity marked contacted as one action an undo takes back), and
// every opportunity of an outlet under the list's filter (for Snooze all and
// Not a fit all, however many). Implemented in electron/core/app/outlets.ts.
import { z } from 'zod';
import type { ContactWarning, DraftView, MixWarning } from '../model';
import { PLAN_MAX } from '../outreach';
import { listFilterSchema } from './opportunities';
import { brandId, oppId, one, shaped, text, method, type ContractSlice } from './parts';
import { triageResultSchema } from './triage';

/** One pitch to an outlet for several of its opportunities, as the core drafts it. */
export interface OutletPlan {
  domain: string;
  /** The opportunities it covers, in the order given (the first one's pitch is the draft's base). */
  covered: { id: string; title: string; url: string | null; stage: string }[];
  /** Every address of the covered opportunities, once each: catch-all and role flagged, one on the do-not-contact list blocked (never selected). */
  recipients: DraftView['recipients'];
  /** The draft: the first opportunity's pitch (filled for the first address chosen) with every covered title listed. */
  subject: string;
  body: string;
  /** A person and shared inboxes chosen together (the addresses pre-selected), or null. */
  mix: MixWarning | null;
  /** These addresses or this outlet contacted lately (within the contact window) for an opportunity it does not cover: said before it goes. */
  earlier: ContactWarning[];
}

const ids = () => z.array(oppId).min(1).max(PLAN_MAX);

export const outletsContract = {
  // Every opportunity of one outlet (the domain, any case) under the list's filter, in the list's order: no cap (Snooze all, Not a fit all).
  'outlets:ids': method(
    () => one(z.strictObject({ filter: listFilterSchema(), domain: text(200).min(1) })),
    () => z.object({ ids: z.array(z.string()) }),
  ),
  'outlets:plan': method(
    () => one(z.strictObject({ brandId, ids: ids() })),
    () => shaped<OutletPlan>(),
  ),
  // Every covered opportunity marked contacted with the addresses written to and the subject sent: one action (one undo).
  'outlets:contacted': method(
    () =>
      one(
        z.strictObject({
          brandId,
          ids: ids(),
          addresses: z.array(text(320)).min(1).max(50),
          subject: text(2000).nullable(),
          filter: listFilterSchema().omit({ brandId: true }).optional(),
          counts: z.boolean().optional(),
        }),
      ),
    () => triageResultSchema(),
  ),
} as const satisfies ContractSlice;

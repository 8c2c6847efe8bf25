// The drafts' slice of the contract: the pitch and its one follow-up per
// opportunity (filled for an address, with hints on the filled text), the
// user's snippets, the warnings before a pitch goes, and sending it through
// the user's own mail. Implemented in electron/core/app/drafts.ts.
import { z } from 'zod';
import { MAIL_VIA } from '../mail-links';
import type { ComposeResult, ContactWarning, DraftView } from '../model';
import type { SnippetRecord } from '../user-record';
import { brandId, oppId, one, none, shaped, text, method, type ContractSlice } from './parts';

const draftKind = () => z.enum(['pitch', 'followup']);

export const draftsContract = {
  'drafts:get': method(
    () => one(z.strictObject({ brandId, id: oppId, kind: draftKind(), to: text(320).optional() })),
    () => shaped<DraftView>(),
  ),
  'drafts:save': method(
    () => one(z.strictObject({ brandId, id: oppId, kind: draftKind(), subject: text(2000), body: text(200_000) })),
    () => shaped<DraftView>(),
  ),
  'drafts:reset': method(
    () => one(z.strictObject({ brandId, id: oppId, kind: draftKind() })),
    () => shaped<DraftView>(),
  ),
  'snippets:list': method(
    () => none,
    () => z.array(shaped<SnippetRecord>()),
  ),
  'snippets:save': method(
    () =>
      one(z.strictObject({ id: z.string().max(100).optional(), kind: z.enum(['opening', 'signoff', 'other']), name: text(200).min(1), text: text(20_000) })),
    () => shaped<SnippetRecord>(),
  ),
  'snippets:remove': method(
    () => one(z.strictObject({ id: z.string().max(100) })),
    () => z.object({ removed: z.boolean() }),
  ),
  'pipeline:warnings': method(
    () => one(z.strictObject({ brandId, id: oppId, addresses: z.array(text(320)).max(50) })),
    () => z.array(shaped<ContactWarning>()),
  ),
  // A person and shared inboxes (catch-all, role) chosen together: nothing opens until `mix` says how (one message each, the shared ones in Bcc, or together).
  'mail:compose': method(
    () =>
      one(
        z.strictObject({
          brandId,
          id: oppId,
          kind: draftKind(),
          via: z.enum(MAIL_VIA),
          to: z.array(text(320)).min(1).max(50),
          mix: z.enum(['each', 'bcc', 'together']).optional(),
        }),
      ),
    () => shaped<ComposeResult>(),
  ),
} as const satisfies ContractSlice;

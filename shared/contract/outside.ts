// What leaves the app for the rest of the computer: the clipboard, http(s)
// links, the user's mail app. Checked in the core, done by main.
// Implemented in electron/core/app/outside.ts.
import { z } from 'zod';
import { one, text, method, type ContractSlice } from './parts';

export const outsideContract = {
  'clipboard:write': method(
    () => one(z.strictObject({ text: text(1_000_000) })),
    () => z.object({ written: z.boolean() }),
  ),
  'links:open': method(
    () => one(z.strictObject({ url: text(10_000) })),
    () => z.object({ opened: z.boolean(), reason: z.string().optional() }),
  ),
  'mail:open': method(
    () => one(z.strictObject({ emails: z.array(text(320)).min(1).max(50), subject: text(10_000).optional(), body: text(200_000).optional() })),
    () => z.object({ opened: z.boolean(), message: z.string(), copiedBody: z.boolean() }),
  ),
} as const satisfies ContractSlice;

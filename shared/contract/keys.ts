// The key's slice of the contract: the key goes in through keys:set and never
// comes back out; the window sees only its status. Implemented in
// electron/core/app/connection.ts.
import { z } from 'zod';
import { none, once, one, text, method, type ContractSlice } from './parts';

/** What the renderer may know about the key: never the key itself. */
export const keyStatusSchema = once(() =>
  z.object({
    state: z.enum(['none', 'stored', 'session']),
    /** Last four characters, for "ends in …abcd". */
    last4: z.string().nullable(),
    keychain: z.enum(['available', 'locked', 'unavailable']),
    lastCheck: z.object({ ok: z.boolean(), at: z.string(), message: z.string() }).nullable(),
    /** Plain words for the settings screen. */
    message: z.string(),
  }),
);
export type KeyStatus = z.output<ReturnType<typeof keyStatusSchema>>;
export type KeyState = KeyStatus['state'];

export const keysContract = {
  'keys:status': method(
    () => none,
    () => keyStatusSchema(),
  ),
  'keys:set': method(
    () => one(z.strictObject({ key: text(200), sessionOnly: z.boolean().optional() })),
    () => keyStatusSchema(),
  ),
  'keys:clear': method(
    () => none,
    () => keyStatusSchema(),
  ),
} as const satisfies ContractSlice;

// The app's own slice of the contract: what the app is, its whole state for
// the window's start (the key's status, settings, the sync, the brands, a
// recovery notice), that notice dismissed, and demo mode. Implemented in
// electron/core/app/app-state.ts and (demo mode) lifecycle.ts.
import { z } from 'zod';
import type { CachedBrand } from '../model';
import { keyStatusSchema } from './keys';
import { none, once, shaped, method, type ContractSlice } from './parts';
import { settingsSchema } from './settings';
import { syncStateSchema } from './sync';

export const appInfoSchema = once(() =>
  z.object({
    name: z.string(),
    version: z.string(),
    demo: z.boolean(),
    cachePath: z.string(),
    /** The cache file's size on disk (with its write-ahead log), for Settings. */
    cacheBytes: z.number(),
    platform: z.string(),
  }),
);

export const appStateSchema = once(() =>
  z.object({
    info: appInfoSchema(),
    key: keyStatusSchema(),
    online: z.boolean(),
    settings: settingsSchema,
    sync: syncStateSchema(),
    brands: z.array(shaped<CachedBrand>()),
    /** The cache was found damaged and rebuilt at this launch: what was recovered, in plain words (shown once). */
    recovery: z.object({ message: z.string(), at: z.string() }).nullable(),
  }),
);
export type AppInfo = z.output<ReturnType<typeof appInfoSchema>>;
export type AppState = z.output<ReturnType<typeof appStateSchema>>;

export const appContract = {
  'app:info': method(
    () => none,
    () => appInfoSchema(),
  ),
  'app:state': method(
    () => none,
    () => appStateSchema(),
  ),
  'record:dismiss-recovery': method(
    () => none,
    () => z.object({ dismissed: z.boolean() }),
  ),
  'demo:start': method(
    () => none,
    () => z.object({ demo: z.boolean() }),
  ),
  'demo:reset': method(
    () => none,
    () => z.object({ reset: z.boolean() }),
  ),
} as const satisfies ContractSlice;

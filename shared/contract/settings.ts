// The settings' slice of the contract: the app's settings whole, and a
// change to some of them (a new API origin only with the user's confirmation).
// Implemented in electron/core/app/settings.ts.
import { z } from 'zod';
import { checkApiBaseUrl } from '../api-origin';
import { none, one, method, type ContractSlice } from './parts';

export const settingsSchema = z.strictObject({
  /** https://, or http:// to this computer only (the simulator): see shared/api-origin.ts. */
  baseUrl: z.string().superRefine((v, ctx) => {
    const r = checkApiBaseUrl(v);
    if (!r.ok) ctx.addIssue({ code: 'custom', message: r.reason });
  }),
  syncOnLaunch: z.boolean(),
  /** Requests per minute to stay under: the plan's rate. */
  requestsPerMinute: z.number().int().min(1).max(10_000),
  /** A contacted opportunity with no reply is due for its one follow-up after this many days. */
  followUpAfterDays: z.number().int().min(1).max(60),
  /** After the follow-up, with no reply after this many days, it moves to Not a fit (No reply). */
  noReplyAfterDays: z.number().int().min(1).max(120),
  /** Warn before the same person or outlet is contacted again within this many days. */
  contactWindowDays: z.number().int().min(0).max(730),
  /** Your name, for a {sender_name} in drafts and snippets. */
  senderName: z.string().max(200),
  /** Look for new versions of the app (at start and every few hours) and offer to install them. */
  checkForUpdates: z.boolean(),
  /** One system notification a day when follow-ups come due while the app runs. */
  followUpReminders: z.boolean(),
  /**
   * Spelling in text fields: 'system' uses the OS's own dictionaries where Electron can (macOS; on
   * Windows and Linux it has none, so nothing is checked), 'download' fetches Chromium's
   * dictionaries from Google's servers (Windows, Linux), 'off' checks nothing.
   */
  spellcheck: z.enum(['system', 'download', 'off']),
  /** Mark a pitched opportunity Won by itself when a sync finds evidence of it (a citation at its outlet after the pitch). Off: only the user marks Won. */
  autoMarkWon: z.boolean(),
});
export type Settings = z.infer<typeof settingsSchema>;
/** settings:set: any settings, and `confirmOrigin` (the new API origin the user saw and accepted) when the API origin changes. */
const settingsPatchSchema = () =>
  settingsSchema
    .partial()
    .extend({ confirmOrigin: z.string().max(600).optional() })
    .strict();
export type SettingsPatch = z.infer<ReturnType<typeof settingsPatchSchema>>;

export const settingsContract = {
  'settings:get': method(
    () => none,
    () => settingsSchema,
  ),
  'settings:set': method(
    () => one(settingsPatchSchema()),
    () => settingsSchema,
  ),
} as const satisfies ContractSlice;

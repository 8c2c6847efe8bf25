// The app contract (renderer <-> main), declared once: each method's name
// (`domain:verb`) with its argument schema and its result schema side by side,
// and each event with its payload. The domains the core implements in a file
// each declare their slice in shared/contract/ (opportunities, triage: the
// user's record, drafts, results); this index holds the rest and assembles them all.
// Every type is inferred from this one declaration: the core's handler map (a
// missing or misspelt handler fails to compile), the preload's
// window.workbench and the renderer's calls. The core parses every argument
// with these schemas. Results are not parsed at run time: their schemas carry
// the types (shared/model.ts's large types ride in `shaped`).
import { z } from 'zod';
import { CITATION_MODES } from './domain';
import { EXPORT_FORMATS, EXPORT_PRESETS, MAIL_TEXT_CHOICES, UNFILLED_CHOICES } from './export-presets';
import { MERGE_FIELDS } from './merge-fields';
import { checkApiBaseUrl } from './api-origin';
import { ERROR_KINDS, type ErrorKind } from './errors';
import { dateSchema } from './rules';
import type { CachedBrand, ExportCheck, ExportResult, ScoreRow, SyncEvent, SyncSummary } from './model';
import type { BackupInfo, DncCsvPreview, ImportPreview, RecordCounts } from './user-record';
import { draftsContract } from './contract/drafts';
import { listFilterSchema, opportunitiesContract } from './contract/opportunities';
import { brandId, int, none, one, shaped, text } from './contract/parts';
import { resultsContract } from './contract/results';
import { triageContract } from './contract/triage';

export { METHOD_NAMES, EVENT_NAMES, channelOf, eventChannelOf } from './contract-names';
export type { TriageResult } from './contract/triage';

const jobStarted = z.object({ jobId: z.string() });

// ---- arguments ------------------------------------------------------------

const exportOptionsSchema = z.strictObject({
  brandId,
  filter: listFilterSchema.omit({ brandId: true }).optional(),
  /** Which destination the file is for (shared/export-presets.ts): its headers, format, line breaks and guard. */
  preset: z.enum(EXPORT_PRESETS),
  /** The preset's first format when not given. */
  format: z.enum(EXPORT_FORMATS).optional(),
  /** The columns to write, from the preset's (a subset, in any order); all of them when not given. */
  columns: z.array(text(100)).min(1).max(200).optional(),
  /** Rows whose mail text holds merge fields not filled: leave them out, fill a default, keep them on purpose (needed when there are any). */
  unfilled: z.enum(UNFILLED_CHOICES).optional(),
  /** The defaults "fill a default" uses (first_name: "there" when not given). */
  fill: z.partialRecord(z.enum(MERGE_FIELDS), text(200)).optional(),
  /** In a CSV, mail text that starts like a formula: the apostrophe (default), leave those rows out, or as written (a tool that never runs formulas). */
  mailText: z.enum(MAIL_TEXT_CHOICES).optional(),
  perPair: z.boolean().optional(),
  excludeCatchAll: z.boolean().optional(),
  onlyCatchAll: z.boolean().optional(),
  skipContacted: z.boolean().optional(),
  markExported: z.boolean().optional(),
  bom: z.boolean().optional(),
  delimiter: z.enum([',', ';', '\t']).optional(),
  flattenNewlines: z.boolean().optional(),
  maxRows: z.number().int().min(1).max(10_000_000).optional(),
  split: z.boolean().optional(),
  raw: z.boolean().optional(),
});

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
const settingsPatchSchema = settingsSchema
  .partial()
  .extend({ confirmOrigin: z.string().max(600).optional() })
  .strict();
export type SettingsPatch = z.infer<typeof settingsPatchSchema>;

// ---- results ---------------------------------------------------------------

const appInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  demo: z.boolean(),
  cachePath: z.string(),
  /** The cache file's size on disk (with its write-ahead log), for Settings. */
  cacheBytes: z.number(),
  platform: z.string(),
});

/** What the renderer may know about the key: never the key itself. */
const keyStatusSchema = z.object({
  state: z.enum(['none', 'stored', 'session']),
  /** Last four characters, for "ends in …abcd". */
  last4: z.string().nullable(),
  keychain: z.enum(['available', 'locked', 'unavailable']),
  lastCheck: z.object({ ok: z.boolean(), at: z.string(), message: z.string() }).nullable(),
  /** Plain words for the settings screen. */
  message: z.string(),
});

const syncStateSchema = z.object({
  jobId: z.string().nullable(),
  running: z.boolean(),
  /** Last event of the running job (pages, items, a wait with its countdown). */
  last: shaped<SyncEvent>().nullable(),
  lastSummary: shaped<SyncSummary>().nullable(),
  lastFinishedAt: z.string().nullable(),
});

const appStateSchema = z.object({
  info: appInfoSchema,
  key: keyStatusSchema,
  online: z.boolean(),
  settings: settingsSchema,
  sync: syncStateSchema,
  brands: z.array(shaped<CachedBrand>()),
  /** The cache was found damaged and rebuilt at this launch: what was recovered, in plain words (shown once). */
  recovery: z.object({ message: z.string(), at: z.string() }).nullable(),
});

/** A failure a handler reports: plain data that crosses the bridge, its kind from the app's one vocabulary (shared/errors.ts). */
const contractErrorSchema = z.object({
  kind: z.enum(Object.keys(ERROR_KINDS) as [ErrorKind, ...ErrorKind[]]),
  message: z.string(),
  field: z.string().optional(),
});

// ---- the declaration -------------------------------------------------------

export const contract = {
  ...opportunitiesContract,
  ...triageContract,
  ...draftsContract,
  ...resultsContract,
  'app:info': { args: none, result: appInfoSchema },
  'app:state': { args: none, result: appStateSchema },
  // Files for the user's record and the do-not-contact list come from main's dialogs, as handles.
  'files:choose': {
    args: one(z.strictObject({ purpose: z.enum(['record-export', 'record-import', 'dnc-import', 'dnc-export']) })),
    result: z.object({ file: z.object({ handle: z.string(), name: z.string() }).nullable() }),
  },
  'record:export': { args: one(z.strictObject({ file: z.uuid() })), result: shaped<RecordCounts>() },
  'record:import-preview': { args: one(z.strictObject({ file: z.uuid() })), result: shaped<ImportPreview>() },
  'record:import': { args: one(z.strictObject({ file: z.uuid() })), result: shaped<ImportPreview>() },
  'record:dismiss-recovery': { args: none, result: z.object({ dismissed: z.boolean() }) },
  'backups:list': { args: none, result: z.object({ backups: z.array(shaped<BackupInfo>()), bytes: int() }) },
  // A backup is named by its file name in the backups folder, never by a path.
  'backups:restore': {
    args: one(z.strictObject({ id: z.string().regex(/^record-[0-9TZ-]+\.json\.gz$/) })),
    result: z.object({ restored: shaped<BackupInfo>(), safety: shaped<BackupInfo>().nullable() }),
  },
  'dnc:import-preview': { args: one(z.strictObject({ file: z.uuid(), column: text(200).optional() })), result: shaped<DncCsvPreview>() },
  'dnc:import': { args: one(z.strictObject({ file: z.uuid(), column: text(200).optional() })), result: shaped<DncCsvPreview>() },
  'dnc:export': { args: one(z.strictObject({ file: z.uuid() })), result: z.object({ entries: int() }) },
  'sync:start': { args: one(z.strictObject({ brandIds: z.array(brandId).max(1000).optional() })), result: jobStarted },
  'sync:cancel': { args: one(z.strictObject({ jobId: z.string().max(100) })), result: z.object({ cancelled: z.boolean() }) },
  'export:preview': { args: one(exportOptionsSchema), result: shaped<ExportCheck>() },
  // The renderer never names a path: main's save dialog gives it an opaque handle and the file's name (null when cancelled).
  'export:choose-file': {
    args: one(z.strictObject({ suggestedName: text(200) })),
    result: z.object({ file: z.object({ handle: z.string(), name: z.string() }).nullable() }),
  },
  // Exports are named by job id.
  'export:start': { args: one(z.strictObject({ options: exportOptionsSchema, file: z.uuid() })), result: jobStarted },
  'export:show-in-folder': { args: one(z.strictObject({ jobId: z.uuid() })), result: z.object({ shown: z.boolean() }) },
  // Stop a running export: it ends as cancelled (export:done's error kind 'cancelled'), leaving no file and no temporary part.
  'export:cancel': { args: one(z.strictObject({ jobId: z.uuid() })), result: z.object({ cancelled: z.boolean() }) },
  // "I sent these": the addresses an export carried become contacted (a follow-ups export: followed up), today.
  // An export is not a contact until then. `alreadySent`: the day it was confirmed before (nothing changed).
  'export:confirm-sent': {
    args: one(z.strictObject({ exportId: z.string().min(1).max(100) })),
    result: z.object({ updated: int(), addresses: int(), alreadySent: z.string().nullable() }),
  },
  'clipboard:write': { args: one(z.strictObject({ text: text(1_000_000) })), result: z.object({ written: z.boolean() }) },
  'links:open': { args: one(z.strictObject({ url: text(10_000) })), result: z.object({ opened: z.boolean(), reason: z.string().optional() }) },
  'mail:open': {
    args: one(z.strictObject({ emails: z.array(text(320)).min(1).max(50), subject: text(10_000).optional(), body: text(200_000).optional() })),
    result: z.object({ opened: z.boolean(), message: z.string(), copiedBody: z.boolean() }),
  },
  'scores:get': {
    args: one(
      z.strictObject({ brandId, breakdown: z.enum(['', 'model', 'prompt']), start: dateSchema('start').optional(), end: dateSchema('end').optional() }),
    ),
    result: z.object({ rows: z.array(shaped<ScoreRow>()), brandName: z.string().nullable(), fetchedAt: z.string().nullable() }),
  },
  'citations:get': {
    args: one(
      z.strictObject({
        brandId,
        mode: z.enum(CITATION_MODES),
        domain: text(200).optional(),
        start: dateSchema('start').optional(),
        end: dateSchema('end').optional(),
      }),
    ),
    result: z.object({
      items: z.array(z.record(z.string(), z.unknown())),
      updatedAt: z.string().nullable(),
      summary: z.unknown(),
      fetchedAt: z.string().nullable(),
    }),
  },
  'settings:get': { args: none, result: settingsSchema },
  'settings:set': { args: one(settingsPatchSchema), result: settingsSchema },
  'keys:status': { args: none, result: keyStatusSchema },
  'keys:set': { args: one(z.strictObject({ key: text(200), sessionOnly: z.boolean().optional() })), result: keyStatusSchema },
  'keys:clear': { args: none, result: keyStatusSchema },
  'demo:start': { args: none, result: z.object({ demo: z.boolean() }) },
  'demo:reset': { args: none, result: z.object({ reset: z.boolean() }) },
} as const satisfies Record<`${string}:${string}`, { args: z.ZodType<unknown[]>; result: z.ZodType }>;

/** Events main pushes to the renderer, with their payloads. */
export const events = {
  'sync:event': z.object({ jobId: z.string(), event: shaped<SyncEvent>() }),
  'sync:done': z.object({ jobId: z.string(), summary: shaped<SyncSummary>() }),
  'export:progress': z.object({ jobId: z.string(), rows: int(), bytes: int() }),
  'export:done': z.object({ jobId: z.string(), result: shaped<ExportResult>().nullable(), error: contractErrorSchema.nullable() }),
  'app:online': z.object({ online: z.boolean() }),
  'key:status': keyStatusSchema,
  /** A menu item in main asks the window to do something (the window has the words and the confirmations). */
  'app:command': z.object({ command: z.enum(['restore-backup', 'export-record', 'import-record']) }),
  /** The cache was found damaged while open and rebuilt with the user's record carried over. */
  'cache:recovered': z.object({ message: z.string() }),
  /** A write (or the open) waits for another program that holds the cache: whom it waits for, and how long at most. */
  'cache:waiting': z.object({ message: z.string() }),
  /** The core process stopped: restarted once, or down for good. */
  'core:status': z.object({ state: z.enum(['restarted', 'failed']), message: z.string() }),
  /** Main asks the window to show a view (the follow-up reminder's notification was clicked: the Due view). */
  'app:show': z.object({ view: z.enum(['due']) }),
} as const satisfies Record<`${string}:${string}`, z.ZodType>;

// ---- the types, inferred ---------------------------------------------------

export type Contract = typeof contract;
export type MethodName = Extract<keyof Contract, string>;
export type EventName = Extract<keyof typeof events, string>;
/** What a caller passes (the schema's input)... */
export type MethodArgs<M extends MethodName> = z.input<Contract[M]['args']>;
/** ...and what the handler receives once the core has parsed it. */
export type HandlerArgs<M extends MethodName> = z.output<Contract[M]['args']>;
export type MethodResult<M extends MethodName> = z.output<Contract[M]['result']>;
export type ContractResults = { [M in MethodName]: MethodResult<M> };
export type EventPayloads = { [E in EventName]: z.output<(typeof events)[E]> };

/** The core's implementation of the contract: a handler for every method, typed by its schemas. */
export type ContractHandlers = { [M in MethodName]: (...args: HandlerArgs<M>) => MethodResult<M> | Promise<MethodResult<M>> };

export type AppInfo = z.output<typeof appInfoSchema>;
export type KeyStatus = z.output<typeof keyStatusSchema>;
export type KeyState = KeyStatus['state'];
export type SyncState = z.output<typeof syncStateSchema>;
export type AppState = z.output<typeof appStateSchema>;
export type ContractError = z.output<typeof contractErrorSchema>;

export type Result<T> = { ok: true; value: T } | { ok: false; error: ContractError };

/** One of window.workbench's methods: the contract method's arguments in, a Result out. */
export type WorkbenchMethod<M extends MethodName> = (...args: MethodArgs<M>) => Promise<Result<MethodResult<M>>>;
/** window.workbench's methods: one per contract method. */
export type WorkbenchMethods = { [M in MethodName]: WorkbenchMethod<M> };

/** The object the renderer sees as window.workbench. */
export type WorkbenchApi = WorkbenchMethods & {
  /** Subscribe to an event from main; returns the unsubscribe function. */
  on<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void): () => void;
};

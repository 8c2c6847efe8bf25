// The app contract (renderer <-> main), declared once: each method's name
// (`domain:verb`) with its argument schema and its result schema side by side,
// and each event with its payload. Each domain declares its slice in
// shared/contract/<domain>.ts and implements it in one file of
// electron/core/app/ (electron/core/app/handlers.ts says which); this index
// assembles the slices and declares the events.
// Every type is inferred from this one declaration: the core's handler map (a
// missing or misspelt handler fails to compile), the preload's
// window.workbench and the renderer's calls. The core parses every argument
// with these schemas. Results are not parsed at run time: their schemas carry
// the types (shared/model.ts's large types ride in `shaped`).
// Each schema is built the first time it is read (contract/parts.ts's `method`,
// `builtOnRead`): loading this module builds none, so the core's start pays
// only for the arguments of the methods it is called with, and never for a
// result's schema.
import { z } from 'zod';
import { ERROR_KINDS, type ErrorKind } from './errors';
import type { ExportResult, SyncEvent, SyncSummary } from './model';
import { appContract } from './contract/app';
import { draftsContract } from './contract/drafts';
import { exportContract } from './contract/export';
import { insightsContract } from './contract/insights';
import { keysContract, keyStatusSchema } from './contract/keys';
import { opportunitiesContract } from './contract/opportunities';
import { outletsContract } from './contract/outlets';
import { outsideContract } from './contract/outside';
import { builtOnRead, int, once, shaped } from './contract/parts';
import { recordContract } from './contract/record';
import { resultsContract } from './contract/results';
import { settingsContract } from './contract/settings';
import { syncContract } from './contract/sync';
import { triageContract } from './contract/triage';

export { METHOD_NAMES, EVENT_NAMES, channelOf, eventChannelOf } from './contract-names';
export type { TriageResult } from './contract/triage';
export type { OutletPlan } from './contract/outlets';
export type { AppInfo, AppState } from './contract/app';
export type { KeyState, KeyStatus } from './contract/keys';
export { settingsSchema, type Settings, type SettingsPatch } from './contract/settings';
export type { SyncState } from './contract/sync';

/** A failure a handler reports: plain data that crosses the bridge, its kind from the app's one vocabulary (shared/errors.ts). */
const contractErrorSchema = once(() =>
  z.object({
    kind: z.enum(Object.keys(ERROR_KINDS) as [ErrorKind, ...ErrorKind[]]),
    message: z.string(),
    field: z.string().optional(),
  }),
);

// ---- the declaration -------------------------------------------------------

export const contract = {
  ...opportunitiesContract,
  ...triageContract,
  ...draftsContract,
  ...outletsContract,
  ...resultsContract,
  ...appContract,
  ...recordContract,
  ...syncContract,
  ...exportContract,
  ...insightsContract,
  ...outsideContract,
  ...settingsContract,
  ...keysContract,
} as const satisfies Record<`${string}:${string}`, { readonly args: z.ZodType<unknown[]>; readonly result: z.ZodType }>;

/** Events main pushes to the renderer, with their payloads. */
export const events = builtOnRead({
  'sync:event': () => z.object({ jobId: z.string(), event: shaped<SyncEvent>() }),
  'sync:done': () => z.object({ jobId: z.string(), summary: shaped<SyncSummary>() }),
  'export:progress': () => z.object({ jobId: z.string(), rows: int(), bytes: int() }),
  'export:done': () => z.object({ jobId: z.string(), result: shaped<ExportResult>().nullable(), error: contractErrorSchema().nullable() }),
  'app:online': () => z.object({ online: z.boolean() }),
  'key:status': keyStatusSchema,
  /** A menu item in main asks the window to do something (the window has the words and the confirmations). */
  'app:command': () => z.object({ command: z.enum(['restore-backup', 'export-record', 'import-record']) }),
  /** The cache was found damaged while open and rebuilt with the user's record carried over. */
  'cache:recovered': () => z.object({ message: z.string() }),
  /** A write (or the open) waits for another program that holds the cache: whom it waits for, and how long at most. */
  'cache:waiting': () => z.object({ message: z.string() }),
  /** The core process stopped: restarted once, or down for good. */
  'core:status': () => z.object({ state: z.enum(['restarted', 'failed']), message: z.string() }),
  /** Main asks the window to show a view (the follow-up reminder's notification was clicked: the Due view). */
  'app:show': () => z.object({ view: z.enum(['due']) }),
} as const satisfies Record<`${string}:${string}`, () => z.ZodType>);

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

export type ContractError = z.output<ReturnType<typeof contractErrorSchema>>;

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

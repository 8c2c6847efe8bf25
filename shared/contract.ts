// The app contract (renderer <-> main), declared once. Each method: its name
// (`domain:verb`), its argument schema, and its result type. Main (and the UI
// test host) implement a handler for every method (a missing one fails to
// compile), parse every argument with these schemas, preload exposes exactly
// these methods as window.workbench, and the renderer gets the types.
import { z } from 'zod';
import { CITATION_MODES, DIFFICULTIES, OPPORTUNITY_TYPES, STATUSES } from './domain';
import { checkApiBaseUrl } from './api-origin';
import type { MethodName } from './contract-names';
import type {
  CachedBrand,
  DoNotContactEntry,
  ExportCheck,
  ExportResult,
  ListItem,
  OpportunityDetail,
  ScoreRow,
  SyncEvent,
  SyncSummary,
} from './model';
import { LIST_SORTS } from './model';

export { METHOD_NAMES, EVENT_NAMES, channelOf, eventChannelOf, type MethodName, type EventName } from './contract-names';

const brandId = z.string().regex(/^[0-9a-fx]{32}$/, 'A brand id has 32 characters: digits, a to f, and x.');
const oppId = z.string().min(1).max(200);
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}/);
const text = (max: number) => z.string().max(max);

export const listFilterSchema = z.strictObject({
  brandId,
  type: z.enum(OPPORTUNITY_TYPES).optional(),
  status: z.enum(STATUSES).optional(),
  difficulty: z.enum(DIFFICULTIES).optional(),
  domain: text(200).optional(),
  includeArchived: z.boolean().optional(),
  includeRemoved: z.boolean().optional(),
  onlyRemoved: z.boolean().optional(),
  hasContacts: z.boolean().optional(),
  catchAll: z.enum(['only', 'exclude']).optional(),
  starred: z.boolean().optional(),
  search: text(500).optional(),
  alreadyPitched: z.boolean().optional(),
  ids: z.array(oppId).max(100_000).optional(),
  sort: z.enum(LIST_SORTS).optional(),
});

export const triagePatchSchema = z.strictObject({
  status: z.enum(STATUSES).nullable().optional(),
  note: text(100_000).optional(),
  starred: z.boolean().optional(),
  contacted_at: date.nullable().optional(),
  exported_at: date.nullable().optional(),
});

export const exportOptionsSchema = z.strictObject({
  brandId,
  filter: listFilterSchema.omit({ brandId: true }).optional(),
  preset: z.enum(['contacts', 'opportunities']),
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
});
export type Settings = z.infer<typeof settingsSchema>;
/** settings:set: any settings, and `confirmOrigin` (the new API origin the user saw and accepted) when the API origin changes. */
export const settingsPatchSchema = settingsSchema.partial().extend({ confirmOrigin: z.string().max(600).optional() }).strict();
export type SettingsPatch = z.infer<typeof settingsPatchSchema>;

const none = z.tuple([]);
const one = <T extends z.ZodType>(t: T) => z.tuple([t]);

export const contract = {
  'app:info': { args: none },
  'app:state': { args: none },
  'brands:list': { args: none },
  'opportunities:list': { args: one(z.strictObject({ filter: listFilterSchema, offset: z.number().int().min(0), limit: z.number().int().min(1).max(1000) })) },
  'opportunities:counts': { args: one(listFilterSchema) },
  'opportunities:get': { args: one(z.strictObject({ brandId, id: oppId })) },
  'triage:set': { args: one(z.strictObject({ brandId, id: oppId, patch: triagePatchSchema })) },
  'triage:bulk': { args: one(z.strictObject({ brandId, ids: z.array(oppId).min(1).max(100_000), patch: triagePatchSchema })) },
  'dnc:list': { args: none },
  'dnc:add': { args: one(z.strictObject({ value: text(320).min(1), note: text(1000).optional() })) },
  'dnc:remove': { args: one(z.strictObject({ value: text(320).min(1) })) },
  'sync:start': { args: one(z.strictObject({ brandIds: z.array(brandId).max(1000).optional() })) },
  'sync:cancel': { args: one(z.strictObject({ jobId: z.string().max(100) })) },
  'export:preview': { args: one(exportOptionsSchema) },
  'export:choose-file': { args: one(z.strictObject({ suggestedName: text(200) })) },
  // The renderer never names a path: main's save dialog gives it an opaque handle; exports are named by job id.
  'export:start': { args: one(z.strictObject({ options: exportOptionsSchema, file: z.uuid() })) },
  'export:show-in-folder': { args: one(z.strictObject({ jobId: z.uuid() })) },
  'clipboard:write': { args: one(z.strictObject({ text: text(1_000_000) })) },
  'links:open': { args: one(z.strictObject({ url: text(10_000) })) },
  'mail:open': { args: one(z.strictObject({ emails: z.array(text(320)).min(1).max(50), subject: text(10_000).optional(), body: text(200_000).optional() })) },
  'scores:get': { args: one(z.strictObject({ brandId, breakdown: z.enum(['', 'model', 'prompt']), start: date.optional(), end: date.optional() })) },
  'citations:get': { args: one(z.strictObject({ brandId, mode: z.enum(CITATION_MODES), domain: text(200).optional(), start: date.optional(), end: date.optional() })) },
  'settings:get': { args: none },
  'settings:set': { args: one(settingsPatchSchema) },
  'keys:status': { args: none },
  'keys:set': { args: one(z.strictObject({ key: text(200), sessionOnly: z.boolean().optional() })) },
  'keys:clear': { args: none },
  'demo:start': { args: none },
  'demo:reset': { args: none },
  // `satisfies` refuses a missing name and an extra one alike.
} as const satisfies Record<MethodName, { args: z.ZodType<unknown[]> }>;

export interface AppInfo {
  name: string;
  version: string;
  demo: boolean;
  cachePath: string;
  platform: string;
}

export type KeyState = 'none' | 'stored' | 'session';

/** What the renderer may know about the key: never the key itself. */
export interface KeyStatus {
  state: KeyState;
  /** Last four characters, for "ends in …abcd". */
  last4: string | null;
  keychain: 'available' | 'locked' | 'unavailable';
  lastCheck: { ok: boolean; at: string; message: string } | null;
  /** Plain words for the settings screen. */
  message: string;
}

export interface SyncState {
  jobId: string | null;
  running: boolean;
  /** Last event of the running job (pages, items, a wait with its countdown). */
  last: SyncEvent | null;
  lastSummary: SyncSummary | null;
  lastFinishedAt: string | null;
}

export interface AppState {
  info: AppInfo;
  key: KeyStatus;
  online: boolean;
  settings: Settings;
  sync: SyncState;
  brands: CachedBrand[];
}

export interface ExportJobResult extends ExportResult {
  jobId: string;
}

export interface ContractResults {
  'app:info': AppInfo;
  'app:state': AppState;
  'brands:list': CachedBrand[];
  /** capped: the search matched at least `total` rows and counting stopped there. */
  'opportunities:list': { items: ListItem[]; total: number; capped: boolean };
  'opportunities:counts': { status: Record<string, number>; type: Record<string, number>; difficulty: Record<string, number>; total: number };
  'opportunities:get': OpportunityDetail | null;
  'triage:set': OpportunityDetail | null;
  'triage:bulk': { updated: number };
  'dnc:list': DoNotContactEntry[];
  'dnc:add': DoNotContactEntry;
  'dnc:remove': { removed: boolean };
  'sync:start': { jobId: string };
  'sync:cancel': { cancelled: boolean };
  'export:preview': ExportCheck;
  /** The chosen file: an opaque handle for export:start and its name to show; null when cancelled. */
  'export:choose-file': { file: { handle: string; name: string } | null };
  'export:start': { jobId: string };
  'export:show-in-folder': { shown: boolean };
  'clipboard:write': { written: boolean };
  'links:open': { opened: boolean; reason?: string };
  'mail:open': { opened: boolean; message: string; copiedBody: boolean };
  'scores:get': { rows: ScoreRow[]; brandName: string | null; fetchedAt: string | null };
  'citations:get': { items: Record<string, unknown>[]; updatedAt: string | null; summary: unknown; fetchedAt: string | null };
  'settings:get': Settings;
  'settings:set': Settings;
  'keys:status': KeyStatus;
  'keys:set': KeyStatus;
  'keys:clear': KeyStatus;
  'demo:start': { demo: boolean };
  'demo:reset': { reset: boolean };
}

/** Events main pushes to the renderer. */
export interface EventPayloads {
  'sync:event': { jobId: string; event: SyncEvent };
  'sync:done': { jobId: string; summary: SyncSummary };
  'export:progress': { jobId: string; rows: number; bytes: number };
  'export:done': { jobId: string; result: ExportResult | null; error: ContractError | null };
  'app:online': { online: boolean };
  /** The core process stopped: restarted once, or down for good. */
  'core:status': { state: 'restarted' | 'failed'; message: string };
  'key:status': KeyStatus;
}

export type MethodArgs<M extends MethodName> = z.infer<(typeof contract)[M]['args']>;

/** A failure a handler reports: plain data that crosses the bridge. */
export interface ContractError {
  kind: string;
  message: string;
  field?: string;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: ContractError };

/** The object the renderer sees as window.workbench. */
export type WorkbenchApi = {
  [M in MethodName]: (...args: MethodArgs<M>) => Promise<Result<ContractResults[M]>>;
} & {
  /** Subscribe to an event from main; returns the unsubscribe function. */
  on<E extends keyof EventPayloads>(event: E, listener: (payload: EventPayloads[E]) => void): () => void;
};

// The user's record: what they wrote and what cannot be fetched again (triage,
// notes, the do-not-contact list, the exports made, the history of what they
// did). Declared here: the history's kinds and the versioned file the record
// moves in (record export and import, backups), its triage derived from the
// field table (triage-fields.ts). Pure data and zod schemas, no environment.
// The schemas are built the first time a record is read (`once`), not when
// the module loads: the core loads this module at start but reads a record
// only on an import, a restore or a recovery.
import { z } from 'zod';
import { once } from './once';
import { STATUSES, type Status } from './domain';
import { STAGES, stageOfLegacyStatus } from './pipeline';
import { DATE_PATTERN } from './calendar';
import { TRIAGE_FIELDS, type TriageFields, type TriageKind } from './triage-fields';

export { TRIAGE_FIELDS, type TriageFieldName, type TriageChangedAtColumn } from './triage-fields';

/** What the history records, in the words the detail pane and the CLI use. */
export const HISTORY_KINDS = {
  status: 'Status set',
  note: 'Note edited',
  star: 'Star',
  contacted: 'Marked contacted',
  exported: 'Exported',
  stage: 'Stage',
  reason: 'Not a fit because',
  snooze: 'Snoozed until',
  followed_up: 'Followed up',
  mailed: 'Opened in mail',
  draft: 'Draft',
  undo: 'Undone',
} as const;
export type HistoryKind = keyof typeof HISTORY_KINDS;

export const RECORD_FORMAT = 'outreach-workbench-record';
/**
 * The record file's version: raise it when its shape changes, and keep reading
 * the older ones. 2: the pipeline (stage, reason, snooze, follow-up, the
 * addresses mailed), drafts and snippets; a version-1 file reads with them
 * empty. 3: the stage is the one local triage (no local status: an older
 * file's status is carried onto the stage, see stageOfLegacyStatus in
 * shared/pipeline.ts), the subject sent when marked contacted, and each
 * export's addresses carried and when it was confirmed sent (so a restored
 * backup can still be confirmed, and says what was).
 */
export const RECORD_VERSION = 3;

const iso = z.string().min(10).max(40);
const isoOrNull = iso.nullable();
const day = z.string().regex(DATE_PATTERN);
const id = z.string().min(1).max(200);

/** Each kind of triage field as the record file holds it (absent in an older file: empty). */
const KIND_SCHEMAS: { [K in TriageKind]: (max?: number) => z.ZodType } = {
  note: (max) =>
    z
      .string()
      .max(max ?? 100_000)
      .default(''),
  text: (max) =>
    z
      .string()
      .max(max ?? 2000)
      .nullable()
      .default(null),
  flag: () => z.boolean().default(false),
  list: (max) =>
    z
      .array(z.string().max(320))
      .max(max ?? 50)
      .nullable()
      .default(null),
  day: () => day.nullable().default(null),
  time: () => isoOrNull.default(null),
  stage: () => z.enum(STAGES).nullable().default(null),
};

const fieldSchemas = () =>
  Object.fromEntries(
    TRIAGE_FIELDS.flatMap((f) => [
      [f.name, KIND_SCHEMAS[f.kind]('max' in f ? f.max : undefined)],
      [f.changedAt, isoOrNull.default(null)],
    ]),
  );

/**
 * One opportunity's triage in the record file, from the field table. A file
 * of version 1 or 2 (or the triage salvaged from a damaged older cache) has
 * a local status: it is carried onto the stage by the rule every migration
 * and import share (stageOfLegacyStatus), and is not kept.
 */
export const triageRecordSchema = once(() =>
  z
    .object({
      brand_id: id,
      opportunity_id: id,
      ...fieldSchemas(),
      // Versions 1 and 2 only.
      status: z.enum(STATUSES).nullable().optional(),
      status_changed_at: isoOrNull.optional(),
      updated_at: iso,
    })
    .transform((r) => {
      const { status, status_changed_at, ...rest } = r as typeof r & Record<string, unknown>;
      const t = rest as unknown as TriageRecord;
      // "New" was stored as no stage: an older file may say so either way.
      if ((t.stage as string | null) === 'New') t.stage = null;
      const carried = stageOfLegacyStatus({
        status: (status as Status | null | undefined) ?? null,
        status_changed_at: (status_changed_at as string | null | undefined) ?? null,
        stage: t.stage,
        stage_changed_at: t.stage_changed_at,
        stage_reason: t.stage_reason,
      });
      if (carried.changed) {
        const at = (status_changed_at as string | null | undefined) ?? t.updated_at;
        t.stage = carried.stage as TriageRecord['stage'];
        t.stage_changed_at = at;
        if (carried.stage_reason !== t.stage_reason) {
          t.stage_reason = carried.stage_reason;
          t.stage_reason_changed_at = at;
        }
      }
      return t;
    }),
);

/** One opportunity's triage as the record holds it: every field with its last write time. */
export type TriageRecord = TriageFields & { [K in (typeof TRIAGE_FIELDS)[number]['changedAt']]: string | null } & {
  brand_id: string;
  opportunity_id: string;
  updated_at: string;
};

export const doNotContactRecordSchema = once(() =>
  z.object({
    kind: z.enum(['address', 'domain']),
    value: z.string().min(1).max(320),
    note: z.string().max(2000),
    added_at: iso,
  }),
);

export const exportRecordSchema = once(() =>
  z.object({
    id,
    at: iso,
    brand_id: id,
    preset: z.string().max(40),
    file_name: z.string().max(400),
    rows: z.number().int().nonnegative(),
    opportunities: z.number().int().nonnegative(),
    marked_exported: z.number().int().nonnegative(),
    /** The addresses it carried, per opportunity id (what "I sent these" marks contacted); none in a file before version 3. */
    carried: z
      .array(z.tuple([id, z.array(z.string().max(320)).max(10_000)]))
      .max(1_000_000)
      .nullish(),
    /** When the user said it was sent (then its addresses were contacted); none in a file before version 3. */
    sent_at: isoOrNull.optional(),
  }),
);
export type ExportRecord = z.output<ReturnType<typeof exportRecordSchema>>;

export const historyRecordSchema = once(() =>
  z.object({
    brand_id: id,
    opportunity_id: id,
    at: iso,
    kind: z.enum(Object.keys(HISTORY_KINDS) as [HistoryKind, ...HistoryKind[]]),
    detail: z.string().max(2000),
  }),
);
export type HistoryRecord = z.output<ReturnType<typeof historyRecordSchema>>;

export const draftRecordSchema = once(() =>
  z.object({
    brand_id: id,
    opportunity_id: id,
    kind: z.enum(['pitch', 'followup']),
    subject: z.string().max(2000),
    body: z.string().max(200_000),
    base_subject: z.string().max(2000).nullable(),
    base_body: z.string().max(200_000).nullable(),
    updated_at: iso,
  }),
);
export type DraftRecord = z.output<ReturnType<typeof draftRecordSchema>>;

export const snippetRecordSchema = once(() =>
  z.object({
    id,
    kind: z.enum(['opening', 'signoff', 'other']),
    name: z.string().min(1).max(200),
    text: z.string().max(20_000),
    updated_at: iso,
  }),
);
export type SnippetRecord = z.output<ReturnType<typeof snippetRecordSchema>>;

/** The record file (versions 1 and 2; a version-1 file has no drafts or snippets). */
export const recordFileSchema = once(() =>
  z.object({
    format: z.literal(RECORD_FORMAT),
    version: z
      .number()
      .int()
      .min(1)
      .max(RECORD_VERSION)
      .transform((): typeof RECORD_VERSION => RECORD_VERSION),
    app_version: z.string().max(40),
    created_at: iso,
    triage: z.array(triageRecordSchema()),
    do_not_contact: z.array(doNotContactRecordSchema()),
    exports: z.array(exportRecordSchema()),
    history: z.array(historyRecordSchema()),
    drafts: z.array(draftRecordSchema()).default([]),
    snippets: z.array(snippetRecordSchema()).default([]),
  }),
);
export type RecordFile = z.output<ReturnType<typeof recordFileSchema>>;

/** How many of each a record holds: what a backup or an import shows before it changes anything. */
export interface RecordCounts {
  triage: number;
  notes: number;
  do_not_contact: number;
  exports: number;
  history: number;
  drafts: number;
  snippets: number;
}

export function recordCounts(
  r: Pick<RecordFile, 'triage' | 'do_not_contact' | 'exports' | 'history'> & Partial<Pick<RecordFile, 'drafts' | 'snippets'>>,
): RecordCounts {
  return {
    triage: r.triage.length,
    notes: r.triage.filter((t) => t.note !== '').length,
    do_not_contact: r.do_not_contact.length,
    exports: r.exports.length,
    history: r.history.length,
    drafts: r.drafts?.length ?? 0,
    snippets: r.snippets?.length ?? 0,
  };
}

/**
 * Read a record file's text: the parsed record, or why it cannot be used, in
 * plain words (not JSON, truncated, another program's file, a newer app's).
 * Nothing is changed by reading.
 */
export function parseRecordFile(text: string): { ok: true; record: RecordFile } | { ok: false; reason: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return {
      ok: false,
      reason: text.trim() === '' ? 'The file is empty.' : 'The file is not a complete JSON document (it may be cut short or not a record file).',
    };
  }
  const head = z.object({ format: z.unknown(), version: z.unknown() }).safeParse(json);
  if (!head.success || head.data.format !== RECORD_FORMAT) return { ok: false, reason: 'This is not an Outreach Workbench record file.' };
  if (typeof head.data.version !== 'number' || !Number.isInteger(head.data.version) || head.data.version < 1)
    return { ok: false, reason: 'The record file has no valid version number.' };
  if (head.data.version > RECORD_VERSION)
    return {
      ok: false,
      reason: `The record file was written by a newer version of Outreach Workbench (record version ${head.data.version}; this app reads up to ${RECORD_VERSION}). Update the app to import it.`,
    };
  const parsed = recordFileSchema().safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0]!;
    return { ok: false, reason: `The record file is damaged: ${first.path.join('.') || 'its top level'}: ${first.message}. Nothing was imported.` };
  }
  return { ok: true, record: parsed.data };
}

// ---- what the app reports about the record (types the renderer shows) ------------

/** One line of an opportunity's history, with its kind in words. */
export interface HistoryEntry extends HistoryRecord {
  label: string;
}

/** What the user did to other opportunities at the same outlet (domain): "pitched there already?" */
export interface OutletHistoryEntry extends HistoryEntry {
  title: string;
}

export interface MergeConflict {
  brand_id: string;
  opportunity_id: string;
  field: string;
  local: unknown;
  incoming: unknown;
  local_at: string;
  incoming_at: string;
  /** Which side's value is kept: the later write. */
  kept: 'local' | 'incoming';
}

export interface MergeReport {
  triage: { added: number; updated: number; unchanged: number };
  do_not_contact: { added: number; unchanged: number };
  exports: { added: number };
  history: { added: number };
  drafts: { added: number; updated: number };
  snippets: { added: number; updated: number };
  conflicts: MergeConflict[];
  /** True when nothing in the cache would change (or changed). */
  nothingChanged: boolean;
}

export interface ImportPreview extends MergeReport {
  /** What the file holds. */
  file: RecordCounts & { created_at: string; app_version: string };
  /** How many conflicts in all (`conflicts` holds the first ones). */
  conflictCount: number;
}

export type BackupReason = 'hourly' | 'quit' | 'before-restore' | 'before-import' | 'manual';

export interface BackupInfo {
  /** The file's name in the backups folder: what the renderer and the CLI name a backup by. */
  id: string;
  created_at: string;
  reason: BackupReason;
  counts: RecordCounts;
  bytes: number;
}

export interface DncCsvPreview {
  /** The header row's names, when the file has more than one column. */
  columns: string[] | null;
  /** The column read (by name), or null for a file of one value a line. */
  column: string | null;
  /** Lines with a value. */
  rows: number;
  /** New entries, the first few of them as they will be stored. */
  toAdd: number;
  sample: { kind: 'address' | 'domain'; value: string }[];
  /** Already on the list. */
  already: number;
  /** Lines skipped, how many for each reason, and the first few with their line numbers. */
  skipped: number;
  skippedReasons: Record<string, number>;
  skippedSample: { line: number; value: string; reason: string }[];
}

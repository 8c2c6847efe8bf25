// The user's record: what they wrote and what cannot be fetched again (triage,
// notes, the do-not-contact list, the exports made, the history of what they
// did). Declared once here: the triage fields with the column that keeps each
// one's last write time, and the versioned file the record moves in (record
// export and import, backups). Pure data and zod schemas, no environment.
import { z } from 'zod';
import { STATUSES } from './domain';
import { STAGES } from './pipeline';
import { DATE_PATTERN } from './calendar';

/**
 * The triage fields, each with its column, the column holding the time it
 * was last written, what it is stored as (`flag`: 0/1 for a boolean; `list`:
 * a JSON array of text; `text`: text or null) and the history line a change
 * of it writes (null: none of its own). A merge (import, restore) settles
 * each field on its own: the later write wins. A new field is one line here
 * plus a migration.
 */
export const TRIAGE_FIELDS = [
  { name: 'status', changedAt: 'status_changed_at', kind: 'text', history: 'status' },
  { name: 'note', changedAt: 'note_changed_at', kind: 'text', history: 'note' },
  { name: 'starred', changedAt: 'starred_changed_at', kind: 'flag', history: 'star' },
  { name: 'contacted_at', changedAt: 'contacted_changed_at', kind: 'text', history: 'contacted' },
  { name: 'exported_at', changedAt: 'exported_changed_at', kind: 'text', history: 'exported' },
  { name: 'stage', changedAt: 'stage_changed_at', kind: 'text', history: 'stage' },
  { name: 'stage_reason', changedAt: 'stage_reason_changed_at', kind: 'text', history: 'reason' },
  { name: 'snoozed_until', changedAt: 'snoozed_changed_at', kind: 'text', history: 'snooze' },
  { name: 'followed_up_at', changedAt: 'followed_up_changed_at', kind: 'text', history: 'followed_up' },
  { name: 'contacted_addresses', changedAt: 'contacted_addresses_changed_at', kind: 'list', history: null },
] as const;

export type TriageFieldName = (typeof TRIAGE_FIELDS)[number]['name'];
export type TriageChangedAtColumn = (typeof TRIAGE_FIELDS)[number]['changedAt'];

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
} as const;
export type HistoryKind = keyof typeof HISTORY_KINDS;

export const RECORD_FORMAT = 'outreach-workbench-record';
/**
 * The record file's version: raise it when its shape changes, and keep reading
 * the older ones. 2: the pipeline (stage, reason, snooze, follow-up, the
 * addresses mailed), drafts and snippets; a version-1 file reads with them empty.
 */
export const RECORD_VERSION = 2;

const iso = z.string().min(10).max(40);
const isoOrNull = iso.nullable();
const day = z.string().regex(DATE_PATTERN);
const id = z.string().min(1).max(200);

export const triageRecordSchema = z.object({
  brand_id: id,
  opportunity_id: id,
  status: z.enum(STATUSES).nullable(),
  status_changed_at: isoOrNull,
  note: z.string().max(100_000),
  note_changed_at: isoOrNull,
  starred: z.boolean(),
  starred_changed_at: isoOrNull,
  contacted_at: day.nullable(),
  contacted_changed_at: isoOrNull,
  exported_at: isoOrNull,
  exported_changed_at: isoOrNull,
  // Version 2: absent in a version-1 file.
  stage: z.enum(STAGES).nullable().default(null),
  stage_changed_at: isoOrNull.default(null),
  stage_reason: z.string().max(500).nullable().default(null),
  stage_reason_changed_at: isoOrNull.default(null),
  snoozed_until: day.nullable().default(null),
  snoozed_changed_at: isoOrNull.default(null),
  followed_up_at: day.nullable().default(null),
  followed_up_changed_at: isoOrNull.default(null),
  contacted_addresses: z.array(z.string().max(320)).max(50).nullable().default(null),
  contacted_addresses_changed_at: isoOrNull.default(null),
  updated_at: iso,
});
export type TriageRecord = z.output<typeof triageRecordSchema>;

export const doNotContactRecordSchema = z.object({
  kind: z.enum(['address', 'domain']),
  value: z.string().min(1).max(320),
  note: z.string().max(2000),
  added_at: iso,
});

export const exportRecordSchema = z.object({
  id,
  at: iso,
  brand_id: id,
  preset: z.string().max(40),
  file_name: z.string().max(400),
  rows: z.number().int().nonnegative(),
  opportunities: z.number().int().nonnegative(),
  marked_exported: z.number().int().nonnegative(),
});
export type ExportRecord = z.output<typeof exportRecordSchema>;

export const historyRecordSchema = z.object({
  brand_id: id,
  opportunity_id: id,
  at: iso,
  kind: z.enum(Object.keys(HISTORY_KINDS) as [HistoryKind, ...HistoryKind[]]),
  detail: z.string().max(2000),
});
export type HistoryRecord = z.output<typeof historyRecordSchema>;

export const draftRecordSchema = z.object({
  brand_id: id,
  opportunity_id: id,
  kind: z.enum(['pitch', 'followup']),
  subject: z.string().max(2000),
  body: z.string().max(200_000),
  base_subject: z.string().max(2000).nullable(),
  base_body: z.string().max(200_000).nullable(),
  updated_at: iso,
});
export type DraftRecord = z.output<typeof draftRecordSchema>;

export const snippetRecordSchema = z.object({
  id,
  kind: z.enum(['opening', 'signoff', 'other']),
  name: z.string().min(1).max(200),
  text: z.string().max(20_000),
  updated_at: iso,
});
export type SnippetRecord = z.output<typeof snippetRecordSchema>;

/** The record file (versions 1 and 2; a version-1 file has no drafts or snippets). */
export const recordFileSchema = z.object({
  format: z.literal(RECORD_FORMAT),
  version: z
    .number()
    .int()
    .min(1)
    .max(RECORD_VERSION)
    .transform((): typeof RECORD_VERSION => RECORD_VERSION),
  app_version: z.string().max(40),
  created_at: iso,
  triage: z.array(triageRecordSchema),
  do_not_contact: z.array(doNotContactRecordSchema),
  exports: z.array(exportRecordSchema),
  history: z.array(historyRecordSchema),
  drafts: z.array(draftRecordSchema).default([]),
  snippets: z.array(snippetRecordSchema).default([]),
});
export type RecordFile = z.output<typeof recordFileSchema>;

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
  const parsed = recordFileSchema.safeParse(json);
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

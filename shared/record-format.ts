// The record file's name and version and the history's kinds: plain constants,
// apart from the record's zod schemas (user-record.ts, which re-exports them),
// so what only writes or reads the record in the cache (the store, opened at
// every start) does not load zod.

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

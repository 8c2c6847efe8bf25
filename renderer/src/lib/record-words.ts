// The user's record in plain words: backup reasons, counts, the triage fields
// a conflict names, and the values on each side. Used by Settings and toasts.
import type { BackupReason, MergeConflict, RecordCounts } from '../../../shared/user-record';
import { count, when } from './format';

export const BACKUP_REASONS: Record<BackupReason, string> = {
  hourly: 'Automatic, after changes',
  quit: 'When the app closed',
  'before-restore': 'Before a restore',
  'before-import': 'Before an import',
  manual: 'Made by hand',
};

/** "12 triaged, 3 notes, 2 do-not-contact entries, 1 export". */
export function countsText(c: Pick<RecordCounts, 'triage' | 'notes' | 'do_not_contact' | 'exports'>): string {
  return [
    count(c.triage, 'triaged', 'triaged'),
    count(c.notes, 'note'),
    count(c.do_not_contact, 'do-not-contact entry', 'do-not-contact entries'),
    count(c.exports, 'export'),
  ].join(', ');
}

const FIELDS: Record<string, string> = {
  status: 'Status',
  note: 'Note',
  starred: 'Star',
  contacted_at: 'Contacted date',
  contacted_addresses: 'Addresses contacted',
  contacted_subject: 'Subject sent',
  exported_at: 'Exported date',
  stage: 'Stage',
  stage_reason: 'Not a fit reason',
  snoozed_until: 'Snoozed until',
  followed_up_at: 'Followed-up date',
};

export function fieldName(field: string): string {
  return FIELDS[field] ?? field;
}

/** One side of a conflict, as the user would read it. */
export function valueText(v: unknown): string {
  if (v === null || v === undefined || v === '') return '(empty)';
  if (v === true) return 'on';
  if (v === false) return 'off';
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return `“${s.length > 60 ? `${s.slice(0, 59)}…` : s}”`;
}

/** "Status of opp-1: here “New” (23 Nov, 10:42), in the file “Contacted” (23 Nov, 11:00); the file's is kept, it is later." */
export function conflictText(c: MergeConflict): string {
  const keep = c.kept === 'incoming' ? "the file's is kept (the later change)" : 'yours is kept (the later change)';
  return `${fieldName(c.field)} of ${c.opportunity_id}: yours ${valueText(c.local)} (${when(c.local_at)}), the file's ${valueText(c.incoming)} (${when(c.incoming_at)}); ${keep}.`;
}

/** The columns listed in the core's "Pick the column to read. The file's columns: a, b, c." message. */
export function columnsFromMessage(message: string): string[] {
  const at = message.lastIndexOf('columns: ');
  if (at < 0) return [];
  return message
    .slice(at + 'columns: '.length)
    .replace(/\.\s*$/, '')
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '');
}

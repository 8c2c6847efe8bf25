// The user's record as the app looks after it (a concern of the service):
// backups and restoring one, moving the record to and from a file, and the do-not-contact
// list as CSV. Files come through main's dialogs as handles (file-choices.ts).
import type { ContractHandlers } from '../../../shared/contract';
import { WorkbenchError } from '../../../shared/errors';
import type { BackupInfo, DncCsvPreview, ImportPreview, RecordCounts } from '../../../shared/user-record';
import type { Cache } from '../store/cache';
import { Backups } from './backups';
import type { FileChoices } from './file-choices';
import { onFirstUse } from './lazy';

/** Moving the record and the do-not-contact CSV (record.ts, with the CSV reader and writer): loaded on first use (lazy.ts). */
const recordFiles = onFirstUse('record import and export', () => import('./record'));

export type FilePurpose = 'record-export' | 'record-import' | 'dnc-import' | 'dnc-export';

export class RecordKeeping {
  readonly backups: Backups;

  constructor(private readonly deps: { cache: () => Cache; files: FileChoices; appVersion: string; backupsDir: string; onError?: (e: unknown) => void }) {
    this.backups = new Backups({ dir: deps.backupsDir, cache: deps.cache, appVersion: deps.appVersion, onError: deps.onError });
    // At start: what killed or failed backups left behind goes (this app's files only, by name and age).
    this.backups.sweep();
  }

  /** A change to the user's record was made: a backup follows (at most once an hour). */
  changed(): void {
    this.backups.noteChange();
  }

  async chooseFile(purpose: FilePurpose): Promise<{ file: { handle: string; name: string } | null }> {
    const today = new Date().toISOString().slice(0, 10);
    const { files } = this.deps;
    switch (purpose) {
      case 'record-export':
        return { file: await files.save(`outreach-record-${today}.json`) };
      case 'dnc-export':
        return { file: await files.save(`do-not-contact-${today}.csv`) };
      case 'record-import':
        return { file: await files.open('record', 'Import a record') };
      case 'dnc-import':
        return { file: await files.open('csv', 'Import a do-not-contact list') };
    }
  }

  async exportRecord(handle: string): Promise<RecordCounts> {
    const { exportRecord } = await recordFiles();
    return exportRecord(this.deps.cache(), this.deps.appVersion, this.deps.files.take(handle, 'save', 'where to save the record'));
  }

  async previewImport(handle: string): Promise<ImportPreview> {
    const { previewImport } = await recordFiles();
    return previewImport(this.deps.cache(), this.deps.files.peek(handle, 'open', 'a record file'));
  }

  async importRecord(handle: string): Promise<ImportPreview> {
    const { importRecord } = await recordFiles();
    const report = await importRecord(this.deps.cache(), this.backups, this.deps.files.take(handle, 'open', 'a record file'));
    if (!report.nothingChanged) this.changed();
    return report;
  }

  async previewDncCsv(handle: string, column?: string): Promise<DncCsvPreview> {
    const { previewDncCsv } = await recordFiles();
    return previewDncCsv(this.deps.cache(), this.deps.files.peek(handle, 'open', 'a CSV file'), column);
  }

  async importDncCsv(handle: string, column?: string): Promise<DncCsvPreview> {
    const { importDncCsv } = await recordFiles();
    const r = importDncCsv(this.deps.cache(), this.deps.files.take(handle, 'open', 'a CSV file'), column);
    if (r.toAdd > 0) this.changed();
    return r;
  }

  async exportDncCsv(handle: string): Promise<{ entries: number }> {
    const { exportDncCsv } = await recordFiles();
    return { entries: exportDncCsv(this.deps.cache(), this.deps.files.take(handle, 'save', 'where to save the list')) };
  }

  listBackups(): { backups: BackupInfo[]; bytes: number } {
    return { backups: this.backups.list(), bytes: this.backups.totalBytes() };
  }

  async restoreBackup(id: string): Promise<{ restored: BackupInfo; safety: BackupInfo | null }> {
    if (!this.backups.list().some((b) => b.id === id))
      throw new WorkbenchError('not-found', 'That backup is not in the backups folder (it may have been removed).', { field: 'id' });
    return this.backups.restore(id);
  }

  /** At quit: a backup if anything changed since the last one. */
  async close(): Promise<void> {
    this.backups.dispose();
    await this.backups.backupNow('quit');
  }
}

/** The contract's record slice (shared/contract/record.ts): files from main's dialogs, the record file, backups, the do-not-contact CSV. */
export function recordHandlers(
  record: RecordKeeping,
): Pick<
  ContractHandlers,
  | 'files:choose'
  | 'record:export'
  | 'record:import-preview'
  | 'record:import'
  | 'backups:list'
  | 'backups:restore'
  | 'dnc:import-preview'
  | 'dnc:import'
  | 'dnc:export'
> {
  return {
    'files:choose': ({ purpose }) => record.chooseFile(purpose),
    'record:export': ({ file }) => record.exportRecord(file),
    'record:import-preview': ({ file }) => record.previewImport(file),
    'record:import': ({ file }) => record.importRecord(file),
    'backups:list': () => record.listBackups(),
    'backups:restore': ({ id }) => record.restoreBackup(id),
    'dnc:import-preview': ({ file, column }) => record.previewDncCsv(file, column),
    'dnc:import': ({ file, column }) => record.importDncCsv(file, column),
    'dnc:export': ({ file }) => record.exportDncCsv(file),
  };
}

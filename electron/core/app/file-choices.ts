// Files the user chose in main's dialogs, kept here behind opaque handles: the
// renderer holds a handle and the file's name, never its path. A handle is
// used once.
import { WorkbenchError } from '../../../shared/errors';
import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import type { Platform } from './platform';

export type FileKind = 'csv' | 'record';

export interface ChosenFile {
  handle: string;
  name: string;
}

const FILTERS: Record<FileKind, { name: string; extensions: string[] }[]> = {
  csv: [{ name: 'CSV files', extensions: ['csv', 'txt'] }],
  record: [{ name: 'Outreach Workbench record', extensions: ['json', 'gz'] }],
};

export class FileChoices {
  private readonly chosen = new Map<string, { path: string; mode: 'save' | 'open' }>();

  constructor(private readonly platform: Platform) {}

  private keep(path: string | null, mode: 'save' | 'open'): ChosenFile | null {
    if (!path) return null;
    const handle = randomUUID();
    this.chosen.set(handle, { path, mode });
    return { handle, name: basename(path) };
  }

  /** The save dialog (in main); null when the user cancels. */
  async save(suggestedName: string): Promise<ChosenFile | null> {
    return this.keep(await this.platform.chooseSaveFile(suggestedName), 'save');
  }

  /** The open dialog (in main); null when the user cancels. */
  async open(kind: FileKind, title: string): Promise<ChosenFile | null> {
    return this.keep(await this.platform.chooseOpenFile({ title, filters: FILTERS[kind] }), 'open');
  }

  /** The path behind a handle, once; refused in plain words when the handle is unknown or of the other kind. */
  take(handle: string, mode: 'save' | 'open', what = 'the file'): string {
    const c = this.chosen.get(handle);
    if (!c || c.mode !== mode) throw new WorkbenchError('invalid-input', `Choose ${what} first (that file choice is no longer known).`, { field: 'file' });
    this.chosen.delete(handle);
    return c.path;
  }

  /** The path behind a handle, kept for another use (a preview, then the import). */
  peek(handle: string, mode: 'save' | 'open', what = 'the file'): string {
    const path = this.take(handle, mode, what);
    this.chosen.set(handle, { path, mode });
    return path;
  }
}

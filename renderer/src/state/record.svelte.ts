// The user's record on the settings screen: backups (list, restore with a
// confirmation), moving the record to and from a file (export; import with a
// preview first), and the do-not-contact list as CSV (import with a preview
// and a column choice; export). Files come from main's dialogs as handles.
// Main's File menu asks for these flows through the 'app:command' event: the
// window opens Settings at the right part and starts the flow. One instance
// for the window, provided through context; start() follows the event,
// dispose() lets go.
import type { EventPayloads } from '../../../shared/contract';
import type { BackupInfo, DncCsvPreview, ImportPreview } from '../../../shared/user-record';
import { call, on, WorkbenchError } from '../lib/api.svelte';
import { count, errorText, when } from '../lib/format';
import { Latest } from '../lib/latest';
import { columnsFromMessage, countsText } from '../lib/record-words';
import type { View } from './app.svelte';
import type { Frame } from './frame';

/** What the record needs of the window, given at construction. */
export interface RecordDeps {
  frame: Frame;
  /** Show a view (a menu command opens Settings at its part). */
  show: (view: View) => void;
  /** The user's record changed outside the list (a restore, an import): every view of the data reads again. */
  dataChanged: () => void;
}

export type RecordPart = 'backups' | 'move' | 'dnc';
type Command = EventPayloads['app:command']['command'];

interface ChosenFile {
  handle: string;
  name: string;
}

/** A record file chosen for import, with what importing it would do. */
export interface PendingImport {
  file: ChosenFile;
  preview: ImportPreview;
}

/** A CSV chosen for the do-not-contact list: its preview once a column is known, or the columns to choose from. */
export interface PendingDncImport {
  file: ChosenFile;
  /** The file's columns (null: one value a line). */
  columns: string[] | null;
  /** The column read; null until chosen when the file has several and none is obvious. */
  column: string | null;
  preview: DncCsvPreview | null;
}

const PARTS: Record<Command, RecordPart> = { 'restore-backup': 'backups', 'export-record': 'move', 'import-record': 'move' };

export class RecordStore {
  #backups = $state.raw<BackupInfo[]>([]);
  #bytes = $state(0);
  #backupsLoaded = $state(false);
  #backupsError = $state<string | null>(null);
  /** What is running now, in words ("Restoring…"); one flow at a time. */
  #busy = $state<string | null>(null);
  #restoring = $state.raw<BackupInfo | null>(null);
  #importing = $state.raw<PendingImport | null>(null);
  #importError = $state<string | null>(null);
  #dnc = $state.raw<PendingDncImport | null>(null);
  #dncError = $state<string | null>(null);
  /** Where Settings should take the focus to (a menu command asked for that part). */
  #focus = $state.raw<{ part: RecordPart; turn: number } | null>(null);
  /** Bumped whenever the record changed here, so views of it (the do-not-contact list) read it again. */
  #version = $state(0);
  #backupsTurn = new Latest();
  #dncTurn = new Latest();
  #unsubscribe: (() => void)[] = [];
  readonly #app: Frame;
  readonly #deps: RecordDeps;

  constructor(deps: RecordDeps) {
    this.#deps = deps;
    this.#app = deps.frame;
  }

  get backups(): BackupInfo[] {
    return this.#backups;
  }
  /** Size of every backup on disk. */
  get bytes(): number {
    return this.#bytes;
  }
  get backupsLoaded(): boolean {
    return this.#backupsLoaded;
  }
  get backupsError(): string | null {
    return this.#backupsError;
  }
  get busy(): string | null {
    return this.#busy;
  }
  /** The backup waiting for the user's confirmation before it replaces the record. */
  get restoring(): BackupInfo | null {
    return this.#restoring;
  }
  get importing(): PendingImport | null {
    return this.#importing;
  }
  get importError(): string | null {
    return this.#importError;
  }
  get dncImport(): PendingDncImport | null {
    return this.#dnc;
  }
  get dncError(): string | null {
    return this.#dncError;
  }
  get focus(): { part: RecordPart; turn: number } | null {
    return this.#focus;
  }
  get version(): number {
    return this.#version;
  }

  /** Follow main's menu commands until dispose(). */
  start(): void {
    if (this.#unsubscribe.length) return;
    this.#unsubscribe.push(on('app:command', ({ command }) => void this.command(command)));
  }

  dispose(): void {
    for (const off of this.#unsubscribe.splice(0)) off();
    this.#backupsTurn.cancel();
    this.#dncTurn.cancel();
  }

  /** A menu item in main: open Settings at the right part and start the flow. Never rejects. */
  async command(command: Command): Promise<void> {
    this.#deps.show('settings');
    this.#focus = { part: PARTS[command], turn: (this.#focus?.turn ?? 0) + 1 };
    if (command === 'restore-backup') await this.loadBackups();
    else if (command === 'export-record') await this.exportRecord();
    else await this.chooseImport();
  }

  /** Read the list of backups. Never rejects. */
  async loadBackups(): Promise<void> {
    const fresh = this.#backupsTurn.begin();
    try {
      const r = await call('backups:list');
      if (!fresh()) return;
      this.#backups = r.backups;
      this.#bytes = r.bytes;
      this.#backupsError = null;
    } catch (e) {
      if (fresh()) this.#backupsError = errorText(e);
    } finally {
      if (fresh()) this.#backupsLoaded = true;
    }
  }

  /**
   * Run one flow at a time (undefined when another is running); a failure is
   * said in a toast naming what failed and why, or handed to `failed`.
   */
  async #run<T>(doing: string, what: string, work: () => Promise<T>, failed?: (message: string) => void): Promise<T | undefined> {
    if (this.#busy) return undefined;
    this.#busy = doing;
    try {
      return await work();
    } catch (e) {
      if (failed) failed(errorText(e));
      else this.#app.fail(what)(e);
      return undefined;
    } finally {
      this.#busy = null;
    }
  }

  /** The record (or the list) changed: every view of it reads again. */
  #changed(): void {
    this.#version++;
    this.#deps.dataChanged();
  }

  // ---- backups -----------------------------------------------------------------

  askRestore(b: BackupInfo): void {
    this.#restoring = b;
  }

  cancelRestore(): void {
    this.#restoring = null;
  }

  /** Replace the record with the backup waiting for confirmation (what is there now is backed up first). Never rejects. */
  async confirmRestore(): Promise<void> {
    const b = this.#restoring;
    if (!b || this.#busy) return;
    const done = await this.#run('Restoring the backup…', 'The backup could not be restored', () => call('backups:restore', { id: b.id }));
    this.#restoring = null;
    if (!done) return;
    this.#app.toast(
      `Restored the backup of ${when(done.restored.created_at)}: ${countsText(done.restored.counts)}.${done.safety ? ' Your record as it was is kept as a backup too.' : ''}`,
    );
    this.#changed();
    await this.loadBackups();
  }

  // ---- the record to and from a file ----------------------------------------------

  /** Choose where to save, then write the record there. Never rejects. */
  async exportRecord(): Promise<void> {
    await this.#run('Saving your record…', 'Your record could not be saved', async () => {
      const { file } = await call('files:choose', { purpose: 'record-export' });
      if (!file) return;
      const counts = await call('record:export', { file: file.handle });
      this.#app.toast(`Your record is saved in ${file.name}: ${countsText(counts)}, ${count(counts.history, 'history entry', 'history entries')}.`);
    });
  }

  /** Choose a record file, then show what importing it would do (nothing changes yet). Never rejects. */
  async chooseImport(): Promise<void> {
    this.#importing = null;
    this.#importError = null;
    await this.#run('Reading the file…', 'The file could not be chosen', async () => {
      const { file } = await call('files:choose', { purpose: 'record-import' });
      if (!file) return;
      try {
        this.#importing = { file, preview: await call('record:import-preview', { file: file.handle }) };
      } catch (e) {
        // A bad file is said in the core's plain words, beside the button (not a passing toast).
        this.#importError = `${file.name}: ${errorText(e)}`;
      }
    });
  }

  cancelImport(): void {
    this.#importing = null;
    this.#importError = null;
  }

  /** Merge the previewed file into the record (a backup is taken first). Never rejects. */
  async confirmImport(): Promise<void> {
    const pending = this.#importing;
    if (!pending || this.#busy) return;
    const r = await this.#run(
      'Importing…',
      'The record could not be imported',
      () => call('record:import', { file: pending.file.handle }),
      (message) => {
        this.#importError = `${pending.file.name}: ${message}`;
      },
    );
    this.#importing = null;
    if (!r) return;
    if (r.nothingChanged) this.#app.toast(`Nothing to import: everything in ${pending.file.name} is already here.`);
    else {
      const parts = [
        r.triage.added || r.triage.updated ? `${r.triage.added} triaged added, ${r.triage.updated} updated` : '',
        r.do_not_contact.added ? count(r.do_not_contact.added, 'do-not-contact entry', 'do-not-contact entries') + ' added' : '',
        r.exports.added ? count(r.exports.added, 'export') + ' added' : '',
        r.conflictCount ? count(r.conflictCount, 'conflict') + ' settled by the later change' : '',
      ].filter(Boolean);
      this.#app.toast(`Imported ${pending.file.name}: ${parts.join(', ') || 'history added'}. Your record as it was is kept as a backup.`);
      this.#changed();
    }
    await this.loadBackups();
  }

  // ---- the do-not-contact list as CSV ----------------------------------------------

  /** Choose a CSV file and preview it; a file of several columns asks which one to read. Never rejects. */
  async chooseDncImport(): Promise<void> {
    this.#dnc = null;
    this.#dncError = null;
    this.#dncTurn.begin();
    const file = await this.#run(
      'Choosing the file…',
      'The file could not be chosen',
      async () => (await call('files:choose', { purpose: 'dnc-import' })).file,
    );
    if (!file) return;
    this.#dnc = { file, columns: null, column: null, preview: null };
    await this.previewDnc();
  }

  /** Preview the chosen CSV reading this column (or the one the file makes obvious). Never rejects. */
  async previewDnc(column?: string): Promise<void> {
    const pending = this.#dnc;
    if (!pending) return;
    const fresh = this.#dncTurn.begin();
    this.#dncError = null;
    try {
      const preview = await call('dnc:import-preview', { file: pending.file.handle, ...(column ? { column } : {}) });
      if (fresh() && this.#dnc?.file.handle === pending.file.handle)
        this.#dnc = { file: pending.file, columns: preview.columns, column: preview.column, preview };
    } catch (e) {
      if (!fresh() || this.#dnc?.file.handle !== pending.file.handle) return;
      // Several columns and none obvious: the core names them; the user picks one.
      const columns = e instanceof WorkbenchError && e.field === 'column' ? columnsFromMessage(e.message) : [];
      this.#dnc = { file: pending.file, columns: columns.length ? columns : pending.columns, column: null, preview: null };
      this.#dncError = `${pending.file.name}: ${errorText(e)}`;
    }
  }

  cancelDncImport(): void {
    this.#dncTurn.begin();
    this.#dnc = null;
    this.#dncError = null;
  }

  /** Add the previewed entries to the list. Never rejects. */
  async confirmDncImport(): Promise<void> {
    const pending = this.#dnc;
    if (!pending?.preview || this.#busy) return;
    const r = await this.#run('Importing…', 'The list could not be imported', () =>
      call('dnc:import', { file: pending.file.handle, ...(pending.column ? { column: pending.column } : {}) }),
    );
    if (!r) return;
    this.#dnc = null;
    this.#app.toast(
      `Added ${count(r.toAdd, 'entry', 'entries')} to the do-not-contact list from ${pending.file.name}${r.already ? ` (${r.already} already there)` : ''}${r.skipped ? `; ${r.skipped} line${r.skipped === 1 ? '' : 's'} skipped` : ''}.`,
    );
    this.#changed();
  }

  /** Choose where to save, then write the list as CSV. Never rejects. */
  async exportDnc(): Promise<void> {
    await this.#run('Saving the list…', 'The list could not be saved', async () => {
      const { file } = await call('files:choose', { purpose: 'dnc-export' });
      if (!file) return;
      const r = await call('dnc:export', { file: file.handle });
      this.#app.toast(`The do-not-contact list is saved in ${file.name}: ${count(r.entries, 'entry', 'entries')}.`);
    });
  }
}

// Export as a job: the pre-export check, the chosen file kept here behind an opaque handle, the CSV
// written with progress events, cancel by job id (the job ends as cancelled, no file and no
// temporary part left), and "Show in folder" by job id; no user's path reaches the renderer.
// An export for mail with rows whose merge fields could not be filled is refused until the
// person chooses what to do with them (the dialog asks); "I sent these" (confirmSent) makes an
// export's addresses contacted.
import { WorkbenchError } from '../../../shared/errors';
import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import type { ContractError, ContractHandlers, ContractResults } from '../../../shared/contract';
import { asFileError } from '../files/file-error';
import type { ExportOptions } from '../export/csv-export';
import type { Cache } from '../store/cache';
import { namedCacheFailure } from '../store/lock-wait';
import type { FileChoices } from './file-choices';
import { onFirstUse } from './lazy';
import type { Platform } from './platform';

/** The export's engine (the CSV, the XLSX, the zip, "I sent these"): loaded on first use (lazy.ts). */
const exporting = onFirstUse('export', async () => ({ ...(await import('../export/csv-export')), ...(await import('../export/confirm-sent')) }));

export type ExportChoices = Omit<ExportOptions, 'out'>;

export class ExportJobs {
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void>; cancelled: boolean }>();
  private readonly exportedFiles = new Map<string, string[]>();

  constructor(private readonly deps: { platform: Platform; cache(): Cache; files: FileChoices; onDone?(): void; senderName?(): string; today?(): string }) {}

  private checked(o: ExportChoices): ExportChoices {
    if (o.onlyCatchAll && o.excludeCatchAll)
      throw new WorkbenchError('invalid-input', 'Choose either only catch-all addresses or none, not both.', { field: 'onlyCatchAll' });
    if (o.split && !o.maxRows) throw new WorkbenchError('invalid-input', 'Splitting into several files needs a row limit per file.', { field: 'maxRows' });
    return o;
  }

  /** The preview running now: a newer one stops it (its answer would be dropped anyway), so the engine counts only the latest options. */
  private previewing: AbortController | null = null;

  async preview(o: ExportChoices): Promise<ContractResults['export:preview']> {
    const senderName = this.deps.senderName?.() || undefined;
    this.previewing?.abort();
    const controller = new AbortController();
    this.previewing = controller;
    try {
      const { previewExport } = await exporting();
      return await previewExport(this.deps.cache(), { senderName, ...this.checked(o), signal: controller.signal });
    } finally {
      if (this.previewing === controller) this.previewing = null;
    }
  }

  /** "I sent these": the export's addresses become contacted (a follow-ups export: followed up) today. */
  async confirmSent(exportId: string): Promise<ContractResults['export:confirm-sent']> {
    const { confirmExportSent, ExportNotFound } = await exporting();
    try {
      const r = confirmExportSent(this.deps.cache(), exportId, this.deps.today?.() ?? new Date().toISOString().slice(0, 10));
      if (r.updated) this.deps.onDone?.();
      return { updated: r.updated, addresses: r.addresses, alreadySent: r.alreadySent };
    } catch (e) {
      if (e instanceof ExportNotFound) throw new ExportNotFound(`${e.message} (it may have been made on another computer).`);
      throw e;
    }
  }

  /** The save dialog runs in main; the chosen path stays here and the renderer gets a handle and the file's name. */
  async chooseFile(suggestedName: string): Promise<ContractResults['export:choose-file']> {
    return { file: await this.deps.files.save(suggestedName) };
  }

  /**
   * Write the export. Nothing with merge fields left unfilled goes out without a choice: the
   * dialog's check asks for one first, and a job started without it stops at the first such
   * row, before any file takes its name (export:done says why).
   */
  start(o: ExportChoices, fileHandle: string): { jobId: string } {
    const opts = this.checked(o);
    const senderName = this.deps.senderName?.() || undefined;
    const path = this.deps.files.take(fileHandle, 'save', 'where to save the export');
    const jobId = randomUUID();
    const controller = new AbortController();
    const { platform } = this.deps;
    const job = { controller, done: Promise.resolve(), cancelled: false };
    job.done = exporting()
      .then(({ writeExportFile }) =>
        writeExportFile(this.deps.cache(), {
          senderName,
          ...opts,
          out: path,
          signal: controller.signal,
          onProgress: (p) => platform.emit('export:progress', { jobId, rows: p.rows, bytes: p.bytes }),
        }),
      )
      .then((result) => {
        this.exportedFiles.set(jobId, result.files);
        platform.emit('export:done', { jobId, result: { ...result, files: result.files.map((f) => basename(f)) }, error: null });
        this.deps.onDone?.();
      })
      .catch((e: unknown) => {
        // The user's cancel says so; a stop at quit is the engine closing; a file system failure names the file and what to do.
        const cache = this.deps.cache();
        const failed = asFileError(namedCacheFailure(e, cache.db, cache.path), path, 'The export');
        const error: ContractError =
          job.cancelled && controller.signal.aborted
            ? { kind: 'cancelled', message: 'Export cancelled: no file was written.' }
            : controller.signal.aborted
              ? { kind: 'core-stopped', message: 'Export cancelled because the app is closing: no file was written.' }
              : failed instanceof WorkbenchError
                ? failed.toPlain()
                : { kind: 'internal', message: `The export could not be written: ${e instanceof Error ? e.message : String(e)}` };
        platform.emit('export:done', { jobId, result: null, error });
      })
      .finally(() => this.running.delete(jobId));
    this.running.set(jobId, job);
    return { jobId };
  }

  /**
   * Cancel a running export: it stops at its next row, its file and temporary parts are removed,
   * and export:done says `cancelled`. Resolves once the job has ended; `cancelled` is false when
   * there was no such running job (or it had already finished writing).
   */
  async cancel(jobId: string): Promise<ContractResults['export:cancel']> {
    const job = this.running.get(jobId);
    if (!job) return { cancelled: false };
    job.cancelled = true;
    job.controller.abort();
    await job.done;
    return { cancelled: !this.exportedFiles.has(jobId) };
  }

  /** "Show in folder" names an export by its job id; its path never left this side. */
  showInFolder(jobId: string): ContractResults['export:show-in-folder'] {
    const files = this.exportedFiles.get(jobId);
    if (!files?.length) throw new WorkbenchError('not-found', 'That export is not known (it may have failed or the app was restarted).');
    this.deps.platform.showItemInFolder(files[0]!);
    return { shown: true };
  }

  /** Stop every running export and wait for each to end. */
  async stop(): Promise<void> {
    this.previewing?.abort();
    const running = [...this.running.values()];
    for (const r of running) r.controller.abort();
    await Promise.all(running.map((r) => r.done));
  }
}

/** A suggested file name without path separators or control characters. */
function safeFileName(name: string): string {
  const cleaned = [...name].map((ch) => (ch.charCodeAt(0) < 32 || '\\/:*?"<>|'.includes(ch) ? '-' : ch)).join('');
  return cleaned.trim() || 'export.csv';
}

/** The contract's export slice (shared/contract/export.ts): the check, the file, the job, and "I sent these". */
export function exportHandlers(
  exports: ExportJobs,
): Pick<ContractHandlers, 'export:preview' | 'export:choose-file' | 'export:start' | 'export:show-in-folder' | 'export:cancel' | 'export:confirm-sent'> {
  return {
    'export:preview': (o) => exports.preview(o),
    'export:choose-file': ({ suggestedName }) => exports.chooseFile(safeFileName(suggestedName)),
    'export:start': ({ options, file }) => exports.start(options, file),
    'export:show-in-folder': ({ jobId }) => exports.showInFolder(jobId),
    'export:cancel': ({ jobId }) => exports.cancel(jobId),
    'export:confirm-sent': ({ exportId }) => exports.confirmSent(exportId),
  };
}

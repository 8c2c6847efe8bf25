// Export for mail tools and spreadsheets: CSV (RFC 4180, UTF-8, CRLF, header
// row, quoting as needed) or an .xlsx workbook, streamed from SQLite to the
// file so memory stays flat for any size; written to a temporary file and
// renamed, so a half-written file is never left under the user's name; a
// cancel (the signal) is heard between rows and leaves no file at all. What
// each destination needs comes from its preset (shared/export-presets.ts);
// the rows and their cells from rows.ts; what a person should know first from
// the check (check.ts), which the preview runs the same way.
//
// The formula guard (guard.ts): in a CSV, a cell that would start a formula
// gets a leading apostrophe, unless `raw` is asked for; mail text (names,
// subject, body) is never changed without a word: the check names each such
// cell and the person chooses (the apostrophe, those rows left out, an .xlsx
// where the text stays as written, or for a tool that never runs formulas the
// text as written). In an .xlsx every text cell is a string: nothing can run.
import { accessSync, constants, statSync } from 'node:fs';
import { asFileError } from '../files/file-error';
import { commitPartial, partialName, removeStalePartials } from '../files/atomic-write';
import { basename, dirname, extname, join } from 'node:path';
import { invalidInput, WorkbenchError } from '../../../shared/errors';
import { fileOps } from '../files/file-ops';
import type { ExportCheck, ExportResult } from '../../../shared/model';
import { PRESETS, type ExportFormat } from '../../../shared/export-presets';
import type { Cache } from '../store/cache';
import { doNotContactLeftOut, finishCheck, newCheck } from './check';
import { CsvWriter } from './csv-writer';
import { guarded } from './guard';
import { presetHeaders, type Column } from './presets';
import { choiceNeeded, chosenColumns, readyRows, taken, type ExportChoiceNeeded, type RowChoices } from './rows';
import { RowidSet } from './rowid-set';
import { XlsxWriter, type CellKind } from './xlsx-writer';
export type { ExportCheck, ExportResult } from '../../../shared/model';
export { CONTACT_COLUMNS, EXPORT_PRESETS, FOLLOW_UP_COLUMNS, OPPORTUNITY_COLUMNS, presetHeaders, splitName, type ExportPreset } from './presets';
export { ExportChoiceNeeded, MailTextChoiceNeeded, SenderNameNeeded, UnfilledChoiceNeeded } from './rows';

export const DELIMITERS = { ',': ',', ';': ';', tab: '\t' } as const;

export interface ExportOptions extends RowChoices {
  /** The file to write (.csv or .xlsx); with `split`, parts are numbered -1, -2, … */
  out: string;
  /** The preset's first format when not given (an .xlsx file name asks for a workbook). */
  format?: ExportFormat;
  markExported?: boolean;
  bom?: boolean;
  delimiter?: ',' | ';' | '\t';
  maxRows?: number;
  split?: boolean;
  now?: () => Date;
  signal?: AbortSignal;
  onProgress?: (p: { rows: number; bytes: number; file: string }) => void;
}

/** Rows between two turns of the event loop, so a cancel (or a quit) can reach a long export. */
const YIELD_EVERY = 500;
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
const cancelled = () => new Error('Export cancelled.');
const previewCancelled = () => new WorkbenchError('cancelled', 'The count was stopped: newer export options were given.');

/** One cell as text: the formula guard (OWASP) and optional newline flattening. */
export function cell(v: unknown, opts: { raw?: boolean; flattenNewlines?: boolean } = {}): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  let s = typeof v === 'string' ? v : JSON.stringify(v);
  if (opts.flattenNewlines) s = s.replace(/\s*(\r\n|\r|\n)+\s*/g, ' ').trim();
  return opts.raw ? s : guarded(s);
}

/** The format an export writes: asked for, else what the file name says, else the preset's first; one the destination takes. */
function formatOf(o: { preset: RowChoices['preset']; format?: ExportFormat; out?: string }): ExportFormat {
  const preset = PRESETS[o.preset];
  const byName = o.out && extname(o.out).toLowerCase() === '.xlsx' ? 'xlsx' : o.out && extname(o.out).toLowerCase() === '.csv' ? 'csv' : undefined;
  const format = o.format ?? byName ?? preset.formats[0]!;
  if (!preset.formats.includes(format))
    throw invalidInput(`${preset.label} takes ${preset.formats.map((f) => f.toUpperCase()).join(' or ')} only, not ${format.toUpperCase()}.`, 'format');
  return format;
}

function checkOptions(o: RowChoices & { maxRows?: number }): void {
  if (o.onlyCatchAll && o.excludeCatchAll) throw invalidInput('Choose either only catch-all addresses or none, not both.', 'onlyCatchAll');
  if (o.maxRows !== undefined && (!Number.isInteger(o.maxRows) || o.maxRows < 1))
    throw invalidInput('The row limit must be a whole number of at least 1.', 'maxRows');
}

/**
 * The pre-export check and row count, without writing anything. It turns the
 * event loop every YIELD_EVERY rows, so other calls get through while it
 * counts, and stops (a `cancelled` error) once `signal` aborts: a newer
 * preview makes an older one moot.
 */
export async function previewExport(cache: Cache, o: Omit<ExportOptions, 'out'> & { out?: string }): Promise<ExportCheck> {
  checkOptions(o);
  const format = formatOf(o);
  const columns = chosenColumns(o.preset, o.columns);
  const check = newCheck(
    o.preset,
    format,
    presetHeaders(o.preset),
    columns.map(([h]) => h),
  );
  let seen = 0;
  for (const r of readyRows(cache, o, format, columns, check, () => check.rows + 2)) {
    if (++seen % YIELD_EVERY === 0) {
      await turn();
      if (o.signal?.aborted) throw previewCancelled();
    }
    if (!r) continue;
    if (o.maxRows && !o.split && check.rows >= o.maxRows) break;
    taken(check, r);
  }
  check.doNotContact = doNotContactLeftOut(cache, o);
  return finishCheck(check, o);
}

function partName(out: string, k: number): string {
  const ext = extname(out) || '.csv';
  return join(dirname(out), `${basename(out, extname(out))}-${k}${ext}`);
}

/** A name the export may take: free, or a file it may replace (not a folder, not held open by a program that forbids it). */
function checkReplaceable(path: string): void {
  const ops = fileOps();
  let fd: number;
  try {
    fd = ops.openSync(path, 'r+');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw asFileError(e, path, 'The export');
  }
  ops.closeSync(fd);
}

/**
 * The finished parts take their names: every name checked first (a folder in
 * the way, a file another program holds), so a split export is not left half
 * renamed by what could be seen before; a rename that still fails says which
 * parts are this export's and which still hold what they held before.
 */
function commitParts(temps: string[], finals: string[]): void {
  finals.forEach(checkReplaceable);
  finals.forEach((final, i) => {
    try {
      commitPartial(temps[i]!, final, 'The export');
    } catch (e) {
      if (i === 0 || !(e instanceof WorkbenchError)) throw e;
      const names = (list: string[]) => list.map((f) => basename(f)).join(', ');
      throw new WorkbenchError(
        e.kind,
        `${e.message} Written by this export: ${names(finals.slice(0, i))}; not written (as they were before): ${names(finals.slice(i))}. Export again to have every part from one export.`,
        { cause: e },
      );
    }
  });
}

export async function writeExportFile(cache: Cache, o: ExportOptions): Promise<ExportResult> {
  return cache.readingOnce(() => writeExport(cache, o));
}

/** What a workbook writes each column as (text where not said). */
const kindsOf = (columns: Column<never>[]) => new Map<string, CellKind>(columns.map(([h, , opts]) => [h, opts?.kind ?? 'text']));

async function writeExport(cache: Cache, o: ExportOptions): Promise<ExportResult> {
  checkOptions(o);
  const format = formatOf(o);
  const columns = chosenColumns(o.preset, o.columns);
  try {
    accessSync(dirname(o.out), constants.W_OK);
  } catch (e) {
    throw asFileError(e, o.out, 'The export');
  }
  removeStalePartials(dirname(o.out));
  const preset = PRESETS[o.preset];
  const header = columns.map(([h]) => h);
  const xlsx = format === 'xlsx';
  // A mail tool's CSV: comma-separated UTF-8 without a byte-order mark, as its import reads it.
  const toolCsv = preset.neverEvaluates;
  const check = newCheck(o.preset, format, presetHeaders(o.preset), header);
  const written: string[] = [];
  const temps: string[] = [];
  const exported = new RowidSet();
  const carried = new Map<string, string[]>();
  let truncated = false;
  let bytes = 0;

  let part = 0;
  let inPart = 0;
  let current: { writer: CsvWriter | XlsxWriter; tmp: string; final: string } | null = null;

  const open = async () => {
    part++;
    const final = o.split ? partName(o.out, part) : o.out;
    const tmp = partialName(final);
    const sheet = o.preset === 'followups' ? 'Follow-ups due' : o.preset === 'opportunities' ? 'Opportunities' : 'Contacts';
    const writer = xlsx
      ? await XlsxWriter.create(tmp, sheet, kindsOf(columns), o.now?.())
      : new CsvWriter(tmp, toolCsv ? ',' : (o.delimiter ?? ','), toolCsv ? false : (o.bom ?? preset.bomByDefault === true));
    temps.push(tmp);
    current = { writer, tmp, final };
    inPart = 0;
    await writer.write(header);
  };
  const close = async () => {
    if (!current) return;
    const c = current;
    current = null;
    try {
      await c.writer.close();
    } catch (e) {
      // A part that failed to close is closed at once (its fd may wait for a write or flush) before the parts are removed.
      await c.writer.abandon();
      throw e;
    }
    // Past Excel's links a sheet, a workbook's links are text: said in the check.
    if (c.writer instanceof XlsxWriter) check.linksAsText += c.writer.linksLeftAsText;
    written.push(c.final);
  };

  // A choice still needed (rows with merge fields not filled, mail text that starts like a formula, the sender's
  // name): the file is dropped at once and the rest only counted, so the refusal names every row, in one pass.
  let refused: ExportChoiceNeeded | null = null;
  let seen = 0;
  try {
    const nextRow = () => (refused ? check.rows : o.maxRows && inPart >= o.maxRows ? 0 : inPart) + 2;
    for (const r of readyRows(cache, o, format, columns, check, nextRow)) {
      if (++seen % YIELD_EVERY === 0) await turn();
      if (o.signal?.aborted) throw cancelled();
      if (!refused && (refused = choiceNeeded(check, o))) {
        await (current as { writer: CsvWriter | XlsxWriter } | null)?.writer.abandon();
        current = null;
      }
      if (!r) continue;
      if (refused) {
        taken(check, r);
        continue;
      }
      if (o.maxRows && inPart >= o.maxRows && current) {
        if (!o.split) {
          truncated = true;
          break;
        }
        await close();
      }
      if (!current) await open();
      taken(check, r);
      exported.add(r.opportunityRowid);
      if (preset.forMail) {
        const list = carried.get(r.opportunityId) ?? [];
        if (!list.includes(r.email)) list.push(r.email);
        carried.set(r.opportunityId, list);
      }
      const c = current!;
      // A CSV's row waits only when its writer asks (a buffer went to the file): no turn of the microtasks a row.
      const writing = c.writer.write(r.cells);
      if (writing) await writing;
      inPart++;
      if (check.rows % 1000 === 0) o.onProgress?.({ rows: check.rows, bytes: c.writer.bytesWritten, file: c.final });
    }
    if (refused) {
      finishCheck(check, o);
      throw choiceNeeded(check, o)!;
    }
    if (!current && written.length === 0) await open(); // header-only file: the tool still gets the columns
    await close();
    if (o.signal?.aborted) throw cancelled();
    // Only now, with every part complete, do the files take the user's names.
    if (o.split && written.length === 1) written[0] = o.out;
    commitParts(temps, written);
  } catch (e) {
    // The open part's file is closed before the temporary parts are removed, so none is left behind.
    await (current as { writer: CsvWriter | XlsxWriter } | null)?.writer.abandon();
    for (const t of temps) fileOps().rmSync(t);
    throw e;
  }
  for (const f of written) bytes += statSync(f).size;
  const now = () => (o.now?.() ?? new Date()).toISOString();
  const fileName = written.map((f) => basename(f)).join(', ');
  const { at, marked: markedExported } = o.markExported ? cache.exportRows.markExported(o.brandId, exported, now, fileName) : { at: now(), marked: 0 };
  // The user's record keeps every export made: when, what, how many, and the file's name (not its folder);
  // this computer keeps the addresses it carried, which "I sent these" marks contacted.
  const record = cache.exports.add({
    at,
    brand_id: o.brandId,
    preset: o.preset,
    file_name: fileName,
    rows: check.rows,
    opportunities: exported.size,
    marked_exported: markedExported,
    carried,
  });
  const warnings = [...finishCheck(check, o).warnings];
  if (truncated) warnings.push(`Stopped at ${o.maxRows!.toLocaleString('en-US')} rows; use split to write the rest to further files.`);
  if (o.raw && !xlsx) warnings.push('Formula guard off (raw): cells starting with = + - @ may run as formulas in a spreadsheet.');
  const addresses = [...carried.values()].reduce((n, l) => n + l.length, 0);
  return { files: written, rows: check.rows, bytes, truncated, markedExported, exportId: record.id, carried: addresses, check, warnings };
}

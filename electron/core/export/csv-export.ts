// Export for mail tools and spreadsheets: CSV (RFC 4180, UTF-8, CRLF, header
// row, quoting as needed) or an .xlsx workbook, streamed from SQLite to the
// file so memory stays flat for any size; written to a temporary file and
// renamed, so a half-written file is never left under the user's name; a
// cancel (the signal) is heard between rows and leaves no file at all. In a
// CSV, cells that a spreadsheet would run as a formula get a leading
// apostrophe unless `raw` is asked for; in an .xlsx every text cell is text.
import { invalidInput } from '../../../shared/errors';
import { asFileError } from '../files/file-error';
import { accessSync, constants, rmSync, statSync } from 'node:fs';
import { commitPartial, partialName, removeStalePartials } from '../files/atomic-write';
import { basename, dirname, extname, join } from 'node:path';
import { findTokens } from '../../../shared/merge-fields';
import type { Pitch } from '../../../shared/opportunity-fields';
import type { Cache } from '../store/cache';
import type { ContactRowOptions } from '../store/export-rows';
import { CsvWriter } from './csv-writer';
import { XlsxWriter } from './xlsx-writer';
import type { ListFilter } from '../store/opportunities';
import type { ExportCheck, ExportResult } from '../../../shared/model';
import {
  CONTACT_COLUMNS,
  contactColumns,
  contactExportRow,
  contactFields,
  FOLLOW_UP_COLUMNS,
  followUpColumns,
  NUMERIC_COLUMNS,
  OPPORTUNITY_COLUMNS,
  opportunityColumns,
  opportunityExportRow,
  type ExportPreset,
} from './presets';
export type { ExportCheck, ExportResult } from '../../../shared/model';
export { CONTACT_COLUMNS, EXPORT_PRESETS, FOLLOW_UP_COLUMNS, OPPORTUNITY_COLUMNS, splitName, type ExportPreset } from './presets';

export const DELIMITERS = { ',': ',', ';': ';', tab: '\t' } as const;

export interface ExportOptions extends ContactRowOptions {
  brandId: string;
  filter?: Omit<ListFilter, 'brandId'>;
  preset: ExportPreset;
  /** The file to write (.csv or .xlsx); with `split`, parts are numbered -1, -2, … */
  out: string;
  /** csv (default) or xlsx. */
  format?: 'csv' | 'xlsx';
  /** The user's name, for {sender_name} in the filled text. */
  senderName?: string;
  markExported?: boolean;
  bom?: boolean;
  delimiter?: ',' | ';' | '\t';
  flattenNewlines?: boolean;
  maxRows?: number;
  split?: boolean;
  /** Turn off the formula guard (cells starting with = + - @ tab CR LF). */
  raw?: boolean;
  now?: () => Date;
  signal?: AbortSignal;
  onProgress?: (p: { rows: number; bytes: number; file: string }) => void;
}

const FORMULA_START = /^[=+\-@\t\r\n]/;
/** Rows between two turns of the event loop, so a cancel (or a quit) can reach a long export. */
const YIELD_EVERY = 500;
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
const cancelled = () => new Error('Export cancelled.');

/** One cell as text: the formula guard (OWASP) and optional newline flattening. */
export function cell(v: unknown, opts: { raw?: boolean; flattenNewlines?: boolean } = {}): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  let s = typeof v === 'string' ? v : JSON.stringify(v);
  if (opts.flattenNewlines) s = s.replace(/\s*(\r\n|\r|\n)+\s*/g, ' ').trim();
  if (!opts.raw && FORMULA_START.test(s)) s = `'${s}`;
  return s;
}

interface Record_ {
  cells: unknown[];
  opportunityRowid: number;
  email: string;
  catchAll: boolean;
  pitch: Pitch;
}

const FOLLOW_UPS = followUpColumns();
const CONTACTS = contactColumns();
const CONTACT_FIELDS = contactFields();
const OPPORTUNITIES = opportunityColumns();

async function* records(cache: Cache, o: ExportOptions): AsyncGenerator<Record_> {
  const filter: ListFilter = { ...o.filter, brandId: o.brandId };
  const brand = cache.brands.get(o.brandId)?.name ?? o.brandId;
  if (o.preset === 'contacts') {
    for (const contact of cache.exportRows.contactRows(filter, o, CONTACT_FIELDS)) {
      const { row, pitch } = contactExportRow(contact, brand, o.senderName);
      yield {
        cells: CONTACTS.map(([, value]) => value(row)),
        opportunityRowid: contact.opportunity_rowid,
        email: contact.email,
        catchAll: contact.catch_all === 1,
        pitch,
      };
    }
    return;
  }
  // The follow-ups preset lists exactly what the Due view shows, with the follow-up filled.
  const due = o.preset === 'followups';
  const columns = due ? FOLLOW_UPS : OPPORTUNITIES;
  for (const opportunity of cache.exportRows.opportunityRows(due ? { ...filter, view: 'due' } : filter, o)) {
    const { row, pitch } = opportunityExportRow(opportunity, brand, undefined, o.senderName);
    yield {
      cells: columns.map(([, value]) => value(row)),
      opportunityRowid: opportunity.opportunity_rowid,
      email: [...row.emails, ...row.catchAlls].join('; '),
      catchAll: row.catchAlls.length > 0,
      pitch: due ? row.followUp : pitch,
    };
  }
}

/** How many distinct unfilled tokens the check names (the count covers every row). */
const MAX_UNFILLED_NAMED = 8;
/** Every distinct unfilled token a check has met, named or not (for "and N more"). */
const unfilledSeen = new WeakMap<ExportCheck, Set<string>>();

function newCheck(): ExportCheck {
  return { rows: 0, emptyEmail: 0, emptySubject: 0, emptyBody: 0, placeholders: 0, unfilled: [], catchAll: 0, warnings: [] };
}

function tally(c: ExportCheck, r: Record_): void {
  c.rows++;
  if (!r.email) c.emptyEmail++;
  if (!r.pitch.subject.trim()) c.emptySubject++;
  if (!r.pitch.body.trim()) c.emptyBody++;
  // The editor's own token finder: what it flags as unfilled, the export flags too, by name.
  const left = [...findTokens(r.pitch.subject), ...findTokens(r.pitch.body)];
  if (left.length > 0) {
    c.placeholders++;
    const seen = unfilledSeen.get(c) ?? new Set<string>();
    unfilledSeen.set(c, seen);
    for (const t of left) {
      seen.add(t.token);
      if (c.unfilled.length < MAX_UNFILLED_NAMED && !c.unfilled.includes(t.token)) c.unfilled.push(t.token);
    }
  }
  if (r.catchAll) c.catchAll++;
}

function finishCheck(c: ExportCheck): ExportCheck {
  const n = (k: number, what: string) => `${k.toLocaleString('en-US')} row${k === 1 ? '' : 's'} ${what}`;
  const w: string[] = [];
  if (c.rows === 0) w.push('Nothing to export under these filters.');
  if (c.emptyEmail) w.push(n(c.emptyEmail, 'without an e-mail address'));
  if (c.emptySubject) w.push(n(c.emptySubject, 'without a pitch subject'));
  if (c.emptyBody) w.push(n(c.emptyBody, 'without a pitch body'));
  const more = (unfilledSeen.get(c)?.size ?? 0) - c.unfilled.length;
  if (c.placeholders)
    w.push(
      `${n(c.placeholders, 'with a merge field or placeholder not filled')} in the pitch: ${c.unfilled.join(', ')}${more > 0 ? `, and ${more} more` : ''}`,
    );
  if (c.catchAll) w.push(`${n(c.catchAll, 'with a catch-all address')} (may reach nobody in particular)`);
  c.warnings = w;
  return c;
}

/** The pre-export check and row count, without writing anything. */
export async function previewExport(cache: Cache, o: Omit<ExportOptions, 'out'>): Promise<ExportCheck> {
  const c = newCheck();
  for await (const r of records(cache, { ...o, out: '' })) {
    if (o.maxRows && !o.split && c.rows >= o.maxRows) break;
    tally(c, r);
  }
  return finishCheck(c);
}

function partName(out: string, k: number): string {
  const ext = extname(out) || '.csv';
  return join(dirname(out), `${basename(out, extname(out))}-${k}${ext}`);
}

export async function exportCsv(cache: Cache, o: ExportOptions): Promise<ExportResult> {
  return cache.readingOnce(() => writeExport(cache, o));
}

async function writeExport(cache: Cache, o: ExportOptions): Promise<ExportResult> {
  if (o.onlyCatchAll && o.excludeCatchAll) throw invalidInput('Choose either only catch-all addresses or none, not both.', 'onlyCatchAll');
  if (o.maxRows !== undefined && (!Number.isInteger(o.maxRows) || o.maxRows < 1))
    throw invalidInput('The row limit must be a whole number of at least 1.', 'maxRows');
  try {
    accessSync(dirname(o.out), constants.W_OK);
  } catch (e) {
    throw asFileError(e, o.out, 'The export');
  }
  removeStalePartials(dirname(o.out));
  const header = o.preset === 'contacts' ? CONTACT_COLUMNS : o.preset === 'followups' ? FOLLOW_UP_COLUMNS : OPPORTUNITY_COLUMNS;
  const xlsx = (o.format ?? (extname(o.out).toLowerCase() === '.xlsx' ? 'xlsx' : 'csv')) === 'xlsx';
  const check = newCheck();
  const written: string[] = [];
  const temps: string[] = [];
  const exported = new Set<number>();
  let truncated = false;
  let bytes = 0;

  let part = 0;
  let inPart = 0;
  let current: { writer: CsvWriter | XlsxWriter; tmp: string; final: string } | null = null;

  const open = async () => {
    part++;
    const final = o.split ? partName(o.out, part) : o.out;
    const tmp = partialName(final);
    const sheet = o.preset === 'followups' ? 'Follow-ups due' : o.preset === 'contacts' ? 'Contacts' : 'Opportunities';
    const writer = xlsx ? await XlsxWriter.create(tmp, sheet, NUMERIC_COLUMNS) : new CsvWriter(tmp, o.delimiter ?? ',', o.bom ?? false);
    temps.push(tmp);
    current = { writer, tmp, final };
    inPart = 0;
    await writer.write(header);
  };
  const close = async () => {
    if (!current) return;
    const c = current;
    current = null;
    await c.writer.close();
    written.push(c.final);
  };

  try {
    for await (const r of records(cache, o)) {
      if (check.rows % YIELD_EVERY === 0) await turn();
      if (o.signal?.aborted) throw cancelled();
      if (o.maxRows && inPart >= o.maxRows && current) {
        if (!o.split) {
          truncated = true;
          break;
        }
        await close();
      }
      if (!current) await open();
      tally(check, r);
      exported.add(r.opportunityRowid);
      const c = current!;
      // A workbook keeps text as text (no formula can run); a CSV gets the formula guard.
      await c.writer.write(r.cells.map((v) => cell(v, xlsx ? { ...o, raw: true } : o)));
      inPart++;
      if (check.rows % 1000 === 0) o.onProgress?.({ rows: check.rows, bytes: c.writer.bytesWritten, file: c.final });
    }
    if (!current && written.length === 0) await open(); // header-only file: the tool still gets the columns
    await close();
    if (o.signal?.aborted) throw cancelled();
    // Only now, with every part complete, do the files take the user's names.
    const finals = written.slice();
    if (o.split && finals.length === 1) {
      commitPartial(temps[0]!, o.out, 'The export');
      written[0] = o.out;
    } else finals.forEach((f, i) => commitPartial(temps[i]!, f, 'The export'));
  } catch (e) {
    // The open part's file is closed before the temporary parts are removed, so none is left behind.
    await (current as { writer: CsvWriter | XlsxWriter } | null)?.writer.abandon();
    for (const t of temps) rmSync(t, { force: true });
    throw e;
  }
  for (const f of written) bytes += statSync(f).size;
  const now = () => (o.now?.() ?? new Date()).toISOString();
  const fileName = written.map((f) => basename(f)).join(', ');
  const { at, marked: markedExported } = o.markExported ? cache.exportRows.markExported(o.brandId, exported, now, fileName) : { at: now(), marked: 0 };
  // The user's record keeps every export made: when, what, how many, and the file's name (not its folder).
  cache.exports.add({
    at,
    brand_id: o.brandId,
    preset: o.preset,
    file_name: fileName,
    rows: check.rows,
    opportunities: exported.size,
    marked_exported: markedExported,
  });
  const warnings = [...finishCheck(check).warnings];
  if (truncated) warnings.push(`Stopped at ${o.maxRows!.toLocaleString('en-US')} rows; use split to write the rest to further files.`);
  if (o.raw && !xlsx) warnings.push('Formula guard off (raw): cells starting with = + - @ may run as formulas in a spreadsheet.');
  return { files: written, rows: check.rows, bytes, truncated, markedExported, check, warnings };
}

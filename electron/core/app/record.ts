// Moving and sharing the user's record: export it as one versioned JSON file,
// import one (merged by opportunity id and do-not-contact entry, conflicts
// settled by the later write and reported, a backup taken first), and the
// do-not-contact list to and from CSV as peers' tools write it (one address or
// domain a line, or a column picked by name), always with a preview first.
import { WorkbenchError } from '../../../shared/errors';
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { recordCounts, type DncCsvPreview, type ImportPreview, type MergeReport, type RecordCounts } from '../../../shared/user-record';
import { cell } from '../export/csv-export';
import type { Cache } from '../store/cache';
import { parseDoNotContact } from '../store/do-not-contact';
import type { Backups } from './backups';
import { readRecordFile, writeRecordFile } from './record-files';
import { writeFileAtomic } from '../files/atomic-write';
import { decodeText, TextFileError } from './text-file';

const CONFLICTS_SHOWN = 50;

function preview(report: MergeReport, file: ImportPreview['file']): ImportPreview {
  return { ...report, file, conflicts: report.conflicts.slice(0, CONFLICTS_SHOWN), conflictCount: report.conflicts.length };
}

export async function exportRecord(cache: Cache, appVersion: string, path: string): Promise<RecordCounts> {
  const record = cache.record.read(appVersion);
  await writeRecordFile(path, record);
  return recordCounts(record);
}

async function readForImport(path: string) {
  const read = await readRecordFile(path);
  if (!read.ok) throw new WorkbenchError('invalid-input', `Nothing was imported. ${read.reason}`, { field: 'file' });
  const r = read.record;
  return { record: r, file: { ...recordCounts(r), created_at: r.created_at, app_version: r.app_version } };
}

/** What importing the file would change, without changing anything. */
export async function previewImport(cache: Cache, path: string): Promise<ImportPreview> {
  const { record, file } = await readForImport(path);
  return preview(cache.record.merge(record, { dryRun: true }), file);
}

/** Merge the file into the user's record, after a backup of what is there now. */
export async function importRecord(cache: Cache, backups: Backups | null, path: string): Promise<ImportPreview> {
  const { record, file } = await readForImport(path);
  const dry = cache.record.merge(record, { dryRun: true });
  if (!dry.nothingChanged) await backups?.backupNow('before-import', { force: true });
  return preview(cache.record.merge(record), file);
}

// ---- the do-not-contact list as CSV ----------------------------------------------

const LIKELY = ['email', 'e-mail', 'email address', 'address', 'domain', 'website', 'contact', 'value'];

function readCsv(path: string): string[][] {
  let text: string;
  try {
    // UTF-8 or UTF-16 (by its byte-order mark, or its zero bytes); any other encoding is refused by name (text-file.ts).
    text = decodeText(readFileSync(path), path);
  } catch (e) {
    if (e instanceof TextFileError) throw new WorkbenchError('invalid-input', `Nothing was imported: ${e.message}`, { field: 'file' });
    throw new WorkbenchError('invalid-input', `The file could not be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`, { field: 'file' });
  }
  try {
    return parse(text.replace(/^\uFEFF/, ''), {
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      trim: true,
      delimiter: [',', ';', '\t'],
    }) as string[][];
  } catch (e) {
    throw new WorkbenchError('invalid-input', `The file is not a CSV file this app can read: ${(e as Error).message}`, { field: 'file' });
  }
}

function plan(cache: Cache, path: string, column?: string) {
  const rows = readCsv(path);
  const wide = rows.some((r) => r.length > 1);
  let header: string[] | null = null;
  let at = 0;
  let body = rows;
  if (wide) {
    header = rows[0]!.map((h) => h.trim());
    body = rows.slice(1);
    const lower = header.map((h) => h.toLowerCase());
    const wanted = column ?? header[lower.findIndex((h) => LIKELY.includes(h))];
    at = wanted === undefined ? -1 : lower.indexOf(wanted.toLowerCase());
    if (at < 0)
      throw new WorkbenchError(
        'invalid-input',
        column
          ? `The file has no column named "${column}". Its columns: ${header.join(', ')}.`
          : `Pick the column to read. The file's columns: ${header.join(', ')}.`,
        { field: 'column' },
      );
  }
  const existing = new Set(cache.doNotContact.list().map((d) => `${d.kind}:${d.value}`));
  const seen = new Set<string>();
  const add: { kind: 'address' | 'domain'; value: string }[] = [];
  const skippedSample: DncCsvPreview['skippedSample'] = [];
  const skippedReasons: Record<string, number> = {};
  let already = 0;
  let skipped = 0;
  const skip = (line: number, value: string, reason: string) => {
    skipped++;
    skippedReasons[reason] = (skippedReasons[reason] ?? 0) + 1;
    if (skippedSample.length < 20) skippedSample.push({ line, value, reason });
  };
  body.forEach((r, i) => {
    const line = i + (wide ? 2 : 1);
    const value = (r[at] ?? '').trim();
    if (!value) return skip(line, value, 'empty');
    const p = parseDoNotContact(value);
    if ('error' in p) return skip(line, value, !wide && i === 0 ? 'a header, not an address or domain' : 'not an e-mail address or domain');
    const key = `${p.kind}:${p.value}`;
    if (seen.has(key)) return skip(line, value, 'repeated in the file');
    seen.add(key);
    if (existing.has(key)) already++;
    else add.push(p);
  });
  const preview: DncCsvPreview = {
    columns: header,
    column: header ? header[at]! : null,
    rows: body.length,
    toAdd: add.length,
    sample: add.slice(0, 10),
    already,
    skipped,
    skippedReasons,
    skippedSample,
  };
  return { preview, add };
}

export function previewDncCsv(cache: Cache, path: string, column?: string): DncCsvPreview {
  return plan(cache, path, column).preview;
}

export function importDncCsv(cache: Cache, path: string, column?: string, now = new Date().toISOString()): DncCsvPreview {
  const { preview, add } = plan(cache, path, column);
  cache.tx(() => {
    for (const d of add) cache.doNotContact.add(d.value, 'imported from CSV', now);
  });
  return preview;
}

/** The list as CSV (kind, value, note, added_at), with the formula guard on every cell. */
export function exportDncCsv(cache: Cache, path: string): number {
  const list = cache.doNotContact.list();
  const rows = [['kind', 'value', 'note', 'added_at'], ...list.map((d) => [d.kind, d.value, d.note, d.added_at].map((v) => cell(v)))];
  writeFileAtomic(path, stringify(rows, { record_delimiter: 'windows' }), { what: 'The do-not-contact list' });
  return list.length;
}

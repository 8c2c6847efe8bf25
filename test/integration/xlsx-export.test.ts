// The .xlsx export read back with ExcelJS: text that is all digits (a zip
// code, a phone number, an id) stays text with its leading zeros; only the
// columns declared numeric hold numbers. And XlsxWriter.abandon() closes its
// file at once, as CsvWriter's does, so a cancelled export leaves nothing open.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { Cache } from '../../electron/core/store/cache';
import { writeExportFile } from '../../electron/core/export/csv-export';
import { CsvWriter } from '../../electron/core/export/csv-writer';
import { XlsxWriter } from '../../electron/core/export/xlsx-writer';
import { tempDir } from '../support/tmp';
import { setTriage } from '../support/store';

const tmp = tempDir();
const B = '1749113348709x432280934699237400';
let cache: Cache;

const record = {
  _id: '00042',
  opportunity_type: 'low-hanging-fruit',
  status: 'New',
  archived: false,
  difficulty: 'Easy',
  domain: 'zip.example',
  url: 'https://zip.example/a',
  title: '02139',
  author_name: '0612345678',
  priority_score: 90,
  fit_score: 7,
  pitch_subject: '007',
  pitch_body: '0123',
  contact_emails: ['ana@zip.example'],
};

beforeAll(async () => {
  cache = await Cache.open(join(tmp.dir, 'xlsx.db'));
  cache.brands.replaceAll([{ id: B, name: 'Northwind Coffee' }], '2026-11-01T00:00:00Z');
  cache.tx(() => cache.opportunities.upsertPage(B, [record], 1, '2026-11-01T00:00:00Z'));
  setTriage(cache, B, '00042', { note: '0451' });
});
afterAll(() => {
  cache.close();
  tmp.cleanup();
});

async function readBack(path: string) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  const sheet = wb.worksheets[0]!;
  const header = (sheet.getRow(1).values as unknown[]).slice(1) as string[];
  return (name: string) => sheet.getRow(2).getCell(header.indexOf(name) + 1).value;
}

/** The open files of this process that are `path`. */
const openFilesAt = (path: string) =>
  readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).startsWith(path);
    } catch {
      return false;
    }
  });

describe('the .xlsx export keeps text as text', () => {
  it('digits-only text keeps its leading zeros (opportunities preset); the numeric columns are numbers', async () => {
    const out = join(tmp.dir, 'opportunities.xlsx');
    await writeExportFile(cache, { brandId: B, preset: 'opportunities', out, format: 'xlsx' });
    const at = await readBack(out);
    expect(at('title')).toBe('02139');
    expect(at('author_name')).toBe('0612345678');
    expect(at('pitch_subject')).toBe('007');
    expect(at('pitch_body')).toBe('0123');
    expect(at('note')).toBe('0451');
    expect(at('_id')).toBe('00042');
    expect(at('priority_score')).toBe(90);
    expect(at('fit_score')).toBe(7);
  });

  it('the contacts preset too: its subject and body are text, its scores numbers', async () => {
    const out = join(tmp.dir, 'contacts.xlsx');
    await writeExportFile(cache, { brandId: B, preset: 'contacts', out, format: 'xlsx' });
    const at = await readBack(out);
    expect(at('title')).toBe('02139');
    expect(at('subject')).toBe('007');
    expect(at('body')).toBe('0123');
    expect(at('opportunity_id')).toBe('00042');
    expect(at('priority_score')).toBe(90);
  });
});

describe('abandon() closes the file at once', () => {
  it('XlsxWriter: once abandon() resolves no handle is open on the file, and once removed it stays removed', async () => {
    const path = join(tmp.dir, 'abandoned.xlsx.partial');
    const w = await XlsxWriter.create(path, 'Contacts', new Map([['n', 'number']]));
    await w.write(['email', 'n']);
    for (let i = 0; i < 5000; i++) await w.write([`a${i}@x.example`, String(i)]);
    await new Promise((r) => setTimeout(r, 50));
    expect(openFilesAt(path).length).toBe(1);
    await w.abandon();
    expect(openFilesAt(path)).toEqual([]);
    rmSync(path, { force: true });
    await new Promise((r) => setTimeout(r, 100));
    expect(existsSync(path)).toBe(false);
  });

  it('XlsxWriter: a file that cannot be written fails the export (no hang, no stray error)', async () => {
    const w = await XlsxWriter.create(join(tmp.dir, 'no-such-folder', 'x.xlsx'), 'Contacts');
    await w.write(['email']);
    await w.write(['a@x.example']);
    await expect(w.close()).rejects.toThrow(/ENOENT/);
    await w.abandon();
  });

  it('CsvWriter: the same', async () => {
    const path = join(tmp.dir, 'abandoned.csv.partial');
    const w = new CsvWriter(path, ',', false);
    await w.write(['email']);
    await new Promise((r) => setTimeout(r, 20));
    expect(openFilesAt(path).length).toBe(1);
    await w.abandon();
    expect(openFilesAt(path)).toEqual([]);
  });
});

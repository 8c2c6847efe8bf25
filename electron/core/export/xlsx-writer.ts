// An export as an .xlsx workbook (ExcelJS's streaming writer, so memory stays
// flat for any size): one sheet, the header row bold and frozen, column
// widths from the header and the first rows, links clickable, dates as
// dates. Every text cell is written as text, never as a formula, so a cell
// that starts with = + - @ cannot run (the same safety the CSV's formula guard
// gives, without its apostrophe). Text stays text (a zip code or phone number
// keeps its leading zeros) except in the columns declared numeric. The same
// interface as CsvWriter, abandon() included: the file is closed at once.
// ExcelJS is loaded the first time a workbook is written, not when the core
// starts: it takes about a quarter of a second to load, which every launch and
// every CLI command would otherwise pay for an export most never make.
import { createWriteStream, type WriteStream } from 'node:fs';
import type ExcelJS from 'exceljs';
import { closeAtOnce } from './csv-writer';

/** Columns whose text is a web address: written as a link. */
const LINK_COLUMNS = new Set(['url', 'article_url']);
/** Columns holding a date or a time: written as a date. */
const DATE_COLUMNS = new Set(['contacted_at', 'exported_at', 'last_seen', 'followed_up_at', 'snoozed_until', 'Created Date', 'Modified Date']);
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const HELD_ROWS = 200;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
/** A number as the export writes one (no leading zero that a number would lose, no exponent). */
const NUMBER = /^-?(0|[1-9]\d{0,14})(\.\d+)?$/;

/** The zip ExcelJS writes through (not in its types): stopped when the export is abandoned. */
interface Zip {
  unpipe(dest?: NodeJS.WritableStream): void;
  abort(): void;
  on(event: 'error', listener: () => void): void;
}

/** More columns to type, beyond the exports' own (the Results' tables name theirs in words). */
export interface XlsxColumns {
  dates?: ReadonlySet<string>;
  links?: ReadonlySet<string>;
}

export class XlsxWriter {
  private readonly file: WriteStream;
  private readonly workbook: ExcelJS.stream.xlsx.WorkbookWriter;
  private sheet: ExcelJS.Worksheet;
  private header: string[] | null = null;
  /** The first rows, held back until the column widths are known (a streamed sheet fixes them at its first row). */
  private held: string[][] | null = [];
  private widths: number[] = [];
  private bytes = 0;
  /** A write failure (disk full, folder gone): kept, and it ends the export at the next write or at close. */
  private failure: Error | null = null;

  /** A writer for a new workbook at `path`; `numeric`: the columns whose cells are numbers; every other column's text is written as text. */
  static async create(path: string, sheetName: string, numeric: ReadonlySet<string> = new Set(), columns: XlsxColumns = {}): Promise<XlsxWriter> {
    const excel = ((await import('exceljs')) as unknown as { default: typeof ExcelJS }).default;
    return new XlsxWriter(excel, path, sheetName, numeric, columns);
  }

  private constructor(
    excel: typeof ExcelJS,
    path: string,
    sheetName: string,
    private readonly numeric: ReadonlySet<string>,
    private readonly columns: XlsxColumns,
  ) {
    this.file = createWriteStream(path);
    this.file.on('error', (e) => (this.failure = e));
    this.workbook = new excel.stream.xlsx.WorkbookWriter({ stream: this.file, useStyles: true, useSharedStrings: false });
    this.sheet = this.workbook.addWorksheet(sheetName.slice(0, 31) || 'Export', { views: [{ state: 'frozen', ySplit: 1 }] });
  }

  /** Bytes of cell text handed over so far (the file is zipped at the end). */
  get bytesWritten(): number {
    return this.bytes;
  }

  private typed(column: string, text: string): ExcelJS.CellValue {
    if (text === '') return null;
    if ((LINK_COLUMNS.has(column) || this.columns.links?.has(column)) && /^https?:\/\//i.test(text)) return { text, hyperlink: text };
    if ((DATE_COLUMNS.has(column) || this.columns.dates?.has(column)) && (DATE_ONLY.test(text) || DATE_TIME.test(text))) {
      const d = new Date(DATE_ONLY.test(text) ? `${text}T00:00:00Z` : text);
      if (!Number.isNaN(d.getTime())) return d;
    }
    if (this.numeric.has(column) && NUMBER.test(text)) return Number(text);
    // Text stays text (a string cell, never a formula), whatever it starts with.
    return text;
  }

  /** The header row first, then one call a record; `cells` are the cells' text before any formula guard. */
  async write(cells: readonly string[]): Promise<void> {
    if (this.failure) throw this.failure;
    for (const c of cells) this.bytes += c.length;
    if (!this.header) {
      this.header = [...cells];
      this.widths = cells.map((h) => h.length);
      return;
    }
    if (this.held) {
      this.held.push([...cells]);
      cells.forEach((c, i) => (this.widths[i] = Math.max(this.widths[i]!, Math.min(60, c.split('\n')[0]!.length))));
      if (this.held.length >= HELD_ROWS) this.release();
      return;
    }
    this.add(cells);
  }

  /** Column widths from the header and the first rows, then those rows. */
  private release(): void {
    const header = this.header ?? [];
    this.sheet.columns = header.map((h, i) => ({ header: h, key: h, width: Math.min(60, Math.max(10, (this.widths[i] ?? h.length) + 2)) }));
    this.sheet.getRow(1).font = { bold: true };
    this.sheet.getRow(1).commit();
    const held = this.held ?? [];
    this.held = null;
    for (const r of held) this.add(r);
  }

  private add(cells: readonly string[]): void {
    const row = this.sheet.addRow(cells.map((c, i) => this.typed(this.header![i]!, c)));
    for (let i = 0; i < cells.length; i++) {
      const cell = row.getCell(i + 1);
      const v = cell.value;
      if (v instanceof Date) cell.numFmt = DATE_ONLY.test(cells[i]!) ? 'yyyy-mm-dd' : 'yyyy-mm-dd hh:mm';
      else if (v && typeof v === 'object' && 'hyperlink' in v) cell.font = { color: { argb: 'FF0563C1' }, underline: true };
    }
    row.commit();
  }

  /** Finish this sheet and start another in the same workbook (the Results' tables, a sheet each): its header row comes next. */
  nextSheet(name: string): void {
    if (this.held) this.release();
    this.sheet.commit();
    this.sheet = this.workbook.addWorksheet(name.slice(0, 31) || 'Sheet', { views: [{ state: 'frozen', ySplit: 1 }] });
    this.header = null;
    this.held = [];
    this.widths = [];
  }

  async close(): Promise<void> {
    if (this.held) this.release();
    this.sheet.commit();
    const failed = new Promise<never>((_, reject) => (this.failure ? reject(this.failure) : this.file.once('error', reject)));
    await Promise.race([this.workbook.commit(), failed]);
  }

  /** Give up (a cancel, an error elsewhere): stop the zip and close the file at once; resolves once it is closed (the caller removes it). */
  abandon(): Promise<void> {
    this.held = null;
    const zip = (this.workbook as unknown as { zip?: Zip }).zip;
    try {
      zip?.on('error', () => {});
      zip?.unpipe(this.file);
      zip?.abort();
    } catch {
      // already broken: the file is closed below all the same
    }
    return closeAtOnce(this.file);
  }
}

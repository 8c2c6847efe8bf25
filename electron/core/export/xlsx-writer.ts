// An export as an .xlsx workbook (ExcelJS's streaming writer, so memory stays
// flat for any size): one sheet, the header row bold and frozen, column
// widths from the header and the first rows, links clickable, dates as
// dates. Every text cell is written as text, never as a formula, so a cell
// that starts with = + - @ cannot run (the same safety the CSV's formula guard
// gives, without its apostrophe). The same interface as CsvWriter.
import ExcelJS from 'exceljs';

/** Columns whose text is a web address: written as a link. */
const LINK_COLUMNS = new Set(['url', 'article_url']);
/** Columns holding a date or a time: written as a date. */
const DATE_COLUMNS = new Set(['contacted_at', 'exported_at', 'last_seen', 'followed_up_at', 'snoozed_until', 'Created Date', 'Modified Date']);
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const HELD_ROWS = 200;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

export class XlsxWriter {
  private readonly workbook: ExcelJS.stream.xlsx.WorkbookWriter;
  private readonly sheet: ExcelJS.Worksheet;
  private header: string[] | null = null;
  /** The first rows, held back until the column widths are known (a streamed sheet fixes them at its first row). */
  private held: string[][] | null = [];
  private widths: number[] = [];
  private bytes = 0;

  constructor(path: string, sheetName: string) {
    this.workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useStyles: true, useSharedStrings: false });
    this.sheet = this.workbook.addWorksheet(sheetName.slice(0, 31) || 'Export', { views: [{ state: 'frozen', ySplit: 1 }] });
  }

  /** Bytes of cell text handed over so far (the file is zipped at the end). */
  get bytesWritten(): number {
    return this.bytes;
  }

  private typed(column: string, text: string): ExcelJS.CellValue {
    if (text === '') return null;
    if (LINK_COLUMNS.has(column) && /^https?:\/\//i.test(text)) return { text, hyperlink: text };
    if (DATE_COLUMNS.has(column) && (DATE_ONLY.test(text) || DATE_TIME.test(text))) {
      const d = new Date(DATE_ONLY.test(text) ? `${text}T00:00:00Z` : text);
      if (!Number.isNaN(d.getTime())) return d;
    }
    if (/^-?\d+$/.test(text) && text.length < 16 && column !== 'email' && column !== 'opportunity_id') return Number(text);
    // Text stays text (a string cell, never a formula), whatever it starts with.
    return text;
  }

  /** The header row first, then one call a record; `cells` are the cells' text before any formula guard. */
  async write(cells: readonly string[]): Promise<void> {
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

  async close(): Promise<void> {
    if (this.held) this.release();
    this.sheet.commit();
    await this.workbook.commit();
  }

  abandon(): void {
    // The temporary file is removed by the caller; the stream ends with it.
    try {
      void this.workbook.commit().catch(() => {});
    } catch {
      // already broken
    }
  }
}

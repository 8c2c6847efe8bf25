// An export as an .xlsx workbook (Office Open XML, ECMA-376), written as it
// goes so memory stays flat for any size: one sheet (or more, one after the
// other: nextSheet), the header row bold and
// frozen, column widths from the header and the first rows, links clickable
// (up to Excel's 65,530 a sheet), dates as date cells. What each column holds
// comes from the export's column table (a date, a number, a link, or text),
// never from a list of names.
//
// Text is written as inline strings (`t="inlineStr"`), never as formula
// strings (`t="str"`) and never with a formula: a cell that starts with = + -
// @ is text and cannot run, with no apostrophe added. Every text run keeps
// its spaces and line breaks (`xml:space="preserve"`, a CR as `&#13;`, which
// XML readers would otherwise turn into LF); characters XML cannot carry are
// written in the format's own escape (`_xHHHH_`, ECMA-376 Part 1, 22.9.2.19
// ST_Xstring), and a literal `_xHHHH_` in the text is escaped as
// `_x005F_xHHHH_` so it reads back as written. Cells come already cut to a
// spreadsheet cell's 32,767 characters (rows.ts, which names them). A link
// longer than Excel's 2,079 characters, or past its 65,530 a sheet, is text
// (the export says so). Date-times are the person's wall-clock time (a
// spreadsheet date has no zone). Text cells carry
// the Text number format (@), so a cell edited later stays text (a zip code
// keeps its leading zeros). The same interface as CsvWriter, abandon()
// included: the file is closed at once.
import { Chunks, closeAtOnce } from './csv-writer';
import { endFile, FileStream } from '../files/atomic-write';
import { ZipWriter, type StreamedEntry } from './zip-writer';

/** What a column's cells hold in a workbook. */
export type CellKind = 'text' | 'number' | 'date' | 'link';

/** Excel's most hyperlinks in one worksheet; past it a link is written as text (and counted in linksLeftAsText). */
export const XLSX_LINKS_MAX = 65_530;
/** Excel's longest hyperlink address; a longer link is written as text (the export names it). */
export const XLSX_LINK_LENGTH_MAX = 2_079;

const HELD_ROWS = 200;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
/** A number as the export writes one (no leading zero that a number would lose, no exponent). */
const NUMBER = /^-?(0|[1-9]\d{0,14})(\.\d+)?$/;
/** Excel's day 0 (its 1900 date system, past the 1900 leap-year slip): 1899-12-30. */
const EPOCH = Date.UTC(1899, 11, 30);
const DAY = 86_400_000;

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG = 'http://schemas.openxmlformats.org/package/2006/relationships';
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** Style indexes in styles.xml (cellXfs). */
const STYLE = { header: 1, date: 2, dateTime: 3, link: 4, text: 5 } as const;

// eslint-disable-next-line no-control-regex -- the control characters XML cannot carry are what these find
const NEEDS_ESCAPE = /[&<>"\r\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|_x[0-9A-Fa-f]{4}_/;
// eslint-disable-next-line no-control-regex -- as above
const ESCAPES = /[&<>"\r\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|_(?=x[0-9A-Fa-f]{4}_)/g;
const hex4 = (c: string) => `_x${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`;

/** Text as XML character data (and attribute values), in ST_Xstring's escape where XML cannot carry a character. */
export function xmlText(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return text;
  return text.replace(ESCAPES, (c) => {
    switch (c) {
      case '&':
        return '&amp;';
      case '<':
        return '&lt;';
      case '>':
        return '&gt;';
      case '"':
        return '&quot;';
      case '\r':
        return '&#13;';
      case '_':
        return '_x005F_';
      default:
        return hex4(c);
    }
  });
}

/** An attribute value (a link's target, the sheet's name): XML's own escapes only. */
const xmlAttr = (text: string) => text.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
/** A web address a workbook can link to: http(s), nothing XML or a link cannot carry. */
// eslint-disable-next-line no-control-regex -- a link with a control character is written as text
const LINKABLE = /^https?:\/\/[^\s\x00-\x1f\ufffe\uffff]+$/i;

/** A column's letters: 0 -> A, 25 -> Z, 26 -> AA. */
function columnName(i: number): string {
  let s = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/** A date cell's serial number and style, or null when the text is not a date. */
function dateCell(text: string): { serial: number; style: number } | null {
  if (DATE_ONLY.test(text)) {
    const t = Date.parse(`${text}T00:00:00Z`);
    return Number.isNaN(t) ? null : { serial: (t - EPOCH) / DAY, style: STYLE.date };
  }
  if (!DATE_TIME.test(text)) return null;
  const t = Date.parse(text);
  // A spreadsheet's date-time has no zone: it is written as the moment's wall-clock time here (the person's own time zone, on that day).
  return Number.isNaN(t) ? null : { serial: (t - new Date(t).getTimezoneOffset() * 60_000 - EPOCH) / DAY, style: STYLE.dateTime };
}

const textCell = (ref: string, text: string, style: number) =>
  `<c r="${ref}" s="${style}" t="inlineStr"><is><t xml:space="preserve">${xmlText(text)}</t></is></c>`;

export class XlsxWriter {
  private readonly file: FileStream;
  private readonly zip: ZipWriter;
  private sheet: StreamedEntry | null = null;
  /** The names of the sheets before this one (nextSheet). */
  private readonly done: string[] = [];
  private header: string[] | null = null;
  private kinds: CellKind[] = [];
  private columns: string[] = [];
  /** The first rows, held back until the column widths are known (the <cols> element comes before the rows). */
  private held: string[][] | null = [];
  private widths: number[] = [];
  private rows = 0;
  private chunks = new Chunks();
  private links: { ref: string; url: string }[] = [];
  private bytes = 0;
  private failure: Error | null = null;
  /** Links written as text because the sheet had Excel's most already (the export says how many). */
  linksLeftAsText = 0;

  /** A writer for a new workbook at `path`; `kinds`: what each column (by header) holds, text where not said. */
  static async create(path: string, sheetName: string, kinds: ReadonlyMap<string, CellKind> = new Map(), now = new Date()): Promise<XlsxWriter> {
    return new XlsxWriter(path, sheetName, kinds, now);
  }

  private constructor(
    path: string,
    private sheetName: string,
    private kindOf: ReadonlyMap<string, CellKind>,
    now: Date,
  ) {
    this.file = new FileStream(path, 'The export');
    this.file.on('error', (e) => (this.failure = e));
    this.zip = new ZipWriter(this.file, now);
  }

  /** Bytes of cell text handed over so far (the file is zipped as it goes). */
  get bytesWritten(): number {
    return this.bytes;
  }

  /**
   * The header row first, then one call a record; `cells` are the cells' text
   * (no formula guard: text cells cannot run), each already cut to what a
   * cell holds (the export's rows do it, and name the cells cut).
   */
  async write(cells: readonly string[]): Promise<void> {
    if (this.failure) throw this.failure;
    if (!this.header) {
      this.header = [...cells];
      this.kinds = cells.map((h) => this.kindOf.get(h) ?? 'text');
      this.columns = cells.map((_, i) => columnName(i));
      this.widths = cells.map((h) => h.length);
      return;
    }
    for (const c of cells) this.bytes += c.length;
    const row = cells as string[];
    if (this.held) {
      this.held.push(row);
      row.forEach((c, i) => (this.widths[i] = Math.max(this.widths[i]!, Math.min(60, c.split('\n', 1)[0]!.length))));
      if (this.held.length >= HELD_ROWS) await this.release();
      return;
    }
    await this.add(row);
  }

  /** The sheet's start (frozen header, column widths, the header row), then the rows held back. */
  private async release(): Promise<void> {
    const header = this.header ?? [];
    const held = this.held ?? [];
    this.held = null;
    this.sheet = await this.zip.begin(`xl/worksheets/sheet${this.done.length + 1}.xml`);
    const cols = header.map(
      (h, i) => `<col min="${i + 1}" max="${i + 1}" width="${Math.min(60, Math.max(10, (this.widths[i] ?? h.length) + 2))}" customWidth="1"/>`,
    );
    await this.sheet.write(
      `${XML}<worksheet xmlns="${NS}" xmlns:r="${REL}"><sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView></sheetViews><sheetFormatPr defaultRowHeight="15"/>${cols.length ? `<cols>${cols.join('')}</cols>` : ''}<sheetData>`,
    );
    this.rows = 0;
    await this.add(header, STYLE.header);
    for (const r of held) await this.add(r);
  }

  private async add(cells: readonly string[], headerStyle?: number): Promise<void> {
    const r = ++this.rows;
    let x = `<row r="${r}">`;
    let date: ReturnType<typeof dateCell>;
    for (let i = 0; i < cells.length; i++) {
      const v = cells[i]!;
      if (v === '') continue;
      const ref = `${this.columns[i]!}${r}`;
      if (headerStyle !== undefined) {
        x += textCell(ref, v, headerStyle);
        continue;
      }
      const kind = this.kinds[i];
      if (kind === 'number' && NUMBER.test(v)) x += `<c r="${ref}"><v>${v}</v></c>`;
      else if (kind === 'date' && (date = dateCell(v))) x += `<c r="${ref}" s="${date.style}"><v>${date.serial}</v></c>`;
      else if (kind === 'link' && v.length <= XLSX_LINK_LENGTH_MAX && LINKABLE.test(v)) {
        if (this.links.length < XLSX_LINKS_MAX) {
          this.links.push({ ref, url: v });
          x += textCell(ref, v, STYLE.link);
        } else {
          this.linksLeftAsText++;
          x += textCell(ref, v, STYLE.text);
        }
      } else x += textCell(ref, v, STYLE.text);
    }
    x += '</row>';
    if (this.chunks.add(x)) await this.flush();
  }

  private async flush(): Promise<void> {
    const chunk = this.chunks.take();
    if (chunk === '') return;
    await this.sheet!.write(chunk);
    if (this.failure) throw this.failure;
  }

  /** The rest of this sheet and its links; the next rows go to the next sheet. */
  private async endSheet(): Promise<void> {
    if (this.failure) throw this.failure;
    if (!this.header) this.header = [];
    if (this.held) await this.release();
    await this.flush();
    const links = this.links.map((l, i) => `<hyperlink ref="${l.ref}" r:id="rId${i + 1}"/>`).join('');
    await this.sheet!.write(`</sheetData>${links ? `<hyperlinks>${links}</hyperlinks>` : ''}</worksheet>`);
    await this.sheet!.end();
    const n = this.done.length + 1;
    if (this.links.length) {
      const rels = this.links
        .map((l, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/hyperlink" Target="${xmlAttr(l.url)}" TargetMode="External"/>`)
        .join('');
      await this.zip.add(`xl/worksheets/_rels/sheet${n}.xml.rels`, `${XML}<Relationships xmlns="${PKG}">${rels}</Relationships>`);
    }
    // Two sheets cannot share a name: the second of a name gets its number.
    const name = this.sheetName.replace(/[\\/?*[\]:]/g, ' ').slice(0, 31) || 'Export';
    this.done.push(this.done.includes(name) ? `${name.slice(0, 27)} (${n})` : name);
  }

  /** End this sheet and start another, `sheetName`, its columns' kinds by header (a workbook of several tables); the header row comes next. */
  async nextSheet(sheetName: string, kinds: ReadonlyMap<string, CellKind> = this.kindOf): Promise<void> {
    await this.endSheet();
    this.sheetName = sheetName;
    this.kindOf = kinds;
    this.sheet = null;
    this.header = null;
    this.held = [];
    this.widths = [];
    this.links = [];
  }

  /** The rest of the sheet, the workbook's other parts, and the zip's directory; rejects if anything failed to reach the file. */
  async close(): Promise<void> {
    await this.endSheet();
    const numbers = this.done.map((_, i) => i + 1);
    await this.zip.add('[Content_Types].xml', contentTypes(numbers.length));
    await this.zip.add(
      '_rels/.rels',
      `${XML}<Relationships xmlns="${PKG}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    );
    const sheets = numbers.map((n) => `<sheet name="${xmlAttr(this.done[n - 1]!)}" sheetId="${n}" r:id="rId${n}"/>`).join('');
    await this.zip.add(
      'xl/workbook.xml',
      `${XML}<workbook xmlns="${NS}" xmlns:r="${REL}"><bookViews><workbookView/></bookViews><sheets>${sheets}</sheets></workbook>`,
    );
    const rels = numbers.map((n) => `<Relationship Id="rId${n}" Type="${REL}/worksheet" Target="worksheets/sheet${n}.xml"/>`).join('');
    await this.zip.add(
      'xl/_rels/workbook.xml.rels',
      `${XML}<Relationships xmlns="${PKG}">${rels}<Relationship Id="rId${numbers.length + 1}" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
    );
    await this.zip.add('xl/styles.xml', STYLES);
    await this.zip.finish();
    if (this.failure) throw this.failure;
    // Finished only once the last flush is back: one that fails (even after end()) fails the export.
    await endFile(this.file);
  }

  /** Give up (a cancel, an error elsewhere): stop the sheet and close the file at once; resolves once it is closed (the caller removes it). */
  abandon(): Promise<void> {
    this.held = null;
    this.chunks.take();
    this.sheet?.abort();
    return closeAtOnce(this.file);
  }
}

const contentTypes = (sheets: number) =>
  `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${Array.from({ length: sheets }, (_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join('')}<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`;

// Fonts: 0 normal, 1 bold (the header), 2 link (blue, underlined). Cell formats (cellXfs): 0 normal,
// 1 header, 2 date (yyyy-mm-dd), 3 date and time (yyyy-mm-dd hh:mm), 4 link, 5 text (the Text format, @).
const STYLES = `${XML}<styleSheet xmlns="${NS}"><numFmts count="2"><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/><numFmt numFmtId="165" formatCode="yyyy-mm-dd hh:mm"/></numFmts><fonts count="3"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font><font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font><font><u/><sz val="11"/><color rgb="FF0563C1"/><name val="Calibri"/><family val="2"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="6"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="49" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1" applyNumberFormat="1"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="49" fontId="2" fillId="0" borderId="0" xfId="0" applyFont="1" applyNumberFormat="1"/><xf numFmtId="49" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;

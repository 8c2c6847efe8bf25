// An export's rows, read from the cache and made ready for the file: the
// preset's chosen columns, the text filled for each address, and for each row
// what the destination asks (line breaks on one line, text cut to a field's
// bytes or a cell's characters with a marker, the CSV formula guard), with
// the choices the person made for rows whose merge fields could not be filled
// and for mail text that starts like a formula. A row is either written (its
// cells) or left out (and counted, and named, in the check).
import { invalidInput, WorkbenchError } from '../../../shared/errors';
import type { ExportCheck } from '../../../shared/model';
import {
  DEFAULT_FILLS,
  mailTextChoice,
  PRESETS,
  type ExportFormat,
  type MailTextChoice,
  type PresetInfo,
  type UnfilledChoice,
} from '../../../shared/export-presets';
import type { MergeDefaults } from '../../../shared/merge-fields';
import type { Pitch } from '../../../shared/opportunity-fields';
import type { Cache } from '../store/cache';
import type { ContactRowOptions } from '../store/export-rows';
import type { ListFilter } from '../../../shared/model';
import { cutForSpreadsheet, cutToBytes, SPREADSHEET_CELL_MAX } from './cell-limits';
import { note, tally, tokensMet } from './check';
import { startsLikeFormula } from './guard';
import {
  contactExportRow,
  contactFields,
  followUpRows,
  opportunityExportRow,
  PRESET_COLUMNS,
  type Column,
  type ExportPreset,
  type FillOptions,
} from './presets';
import { XLSX_LINK_LENGTH_MAX, type CellKind } from './xlsx-writer';

/** What decides the rows: the preset, the filters, and the person's choices. */
export interface RowChoices extends ContactRowOptions {
  brandId: string;
  filter?: Omit<ListFilter, 'brandId'>;
  preset: ExportPreset;
  /** The columns to write (the preset's headers, a subset in any order); all when not given. */
  columns?: string[];
  senderName?: string;
  /** Rows whose mail text holds a merge field that could not be filled: leave them out, fill a default, or keep the tokens. */
  unfilled?: UnfilledChoice;
  /** The defaults for "fill a default" (else DEFAULT_FILLS: first_name "there"). */
  fill?: MergeDefaults;
  /**
   * In a CSV, mail text (names, subject, body) that starts like a formula: the guard's apostrophe, leave those rows out,
   * or as written (a tool that never runs formulas: its default). None chosen for another program: nothing is written until it is.
   */
  mailText?: MailTextChoice;
  flattenNewlines?: boolean;
  /** No formula guard at all (said in a warning). */
  raw?: boolean;
}

/** A row read from the cache, before the file's rules: its cells by column, the text that goes out and what is left unfilled. */
interface Candidate {
  values: unknown[];
  opportunityRowid: number;
  opportunityId: string;
  email: string;
  catchAll: boolean;
  text: Pitch;
  tokens: string[];
}

/** The columns chosen, checked against the preset's. */
export function chosenColumns(preset: ExportPreset, columns?: readonly string[]): Column<never>[] {
  const all = PRESET_COLUMNS[preset].columns as Column<never>[];
  if (!columns) return all;
  const byHeader = new Map(all.map((c) => [c[0], c]));
  const unknown = columns.filter((h) => !byHeader.has(h));
  if (unknown.length)
    throw invalidInput(`${PRESETS[preset].label} has no column ${unknown.map((h) => `"${h}"`).join(', ')}. Its columns: ${[...byHeader.keys()].join(', ')}.`);
  if (columns.length === 0) throw invalidInput('Choose at least one column.', 'columns');
  const first = all[0]![0];
  if (PRESETS[preset].rows !== 'opportunity' && !columns.includes(first))
    throw invalidInput(`Keep the "${first}" column: each row is written to that address.`, 'columns');
  return [...new Set(columns)].map((h) => byHeader.get(h)!);
}

/** Where a note of the check points (a row left out, a cell cut or guarded): made only for a row that has one. */
const where = (c: Candidate) => ({ row: null as number | null, email: c.email, opportunity_id: c.opportunityId });

/** A value as the text of a cell. */
function text(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/** The rows the options select, streamed from the cache, one candidate per row the file could hold. */
function* candidates(cache: Cache, o: RowChoices, columns: Column<never>[], check: ExportCheck): Generator<Candidate> {
  const filter: ListFilter = { ...o.filter, brandId: o.brandId };
  const brand = cache.brands.get(o.brandId)?.name ?? o.brandId;
  // Defaults fill mail only: a sheet for reading keeps the pitch as the service wrote it, whatever choice was sent.
  const fill: FillOptions = {
    senderName: o.senderName,
    defaults: o.unfilled === 'default' && PRESETS[o.preset].forMail ? { ...DEFAULT_FILLS, ...o.fill } : undefined,
  };
  // A row's values, read by a plain loop over the columns' readers (no array of pairs taken apart a row).
  const readers = (columns as unknown as Column<unknown>[]).map(([, value]) => value);
  const values = (row: unknown): unknown[] => {
    const out = new Array<unknown>(readers.length);
    for (let i = 0; i < readers.length; i++) out[i] = readers[i]!(row);
    return out;
  };
  const rows = PRESETS[o.preset].rows;
  if (rows === 'address') {
    for (const contact of cache.exportRows.contactRows(filter, o, contactFields())) {
      const row = contactExportRow(contact, brand, fill);
      const t = row.outgoing;
      yield {
        values: values(row),
        opportunityRowid: contact.opportunity_rowid,
        opportunityId: contact.opportunity_id,
        email: row.email,
        catchAll: contact.catch_all === 1,
        text: t,
        tokens: t.tokens,
      };
    }
    return;
  }
  // The follow-ups preset lists exactly what the Due view shows; its addresses were contacted, which is the point (no skipping them).
  const due = rows === 'followup';
  for (const opportunity of cache.exportRows.opportunityRows(due ? { ...filter, view: 'due' } : filter, due ? { ...o, skipContacted: false } : o)) {
    if (rows === 'opportunity') {
      const row = opportunityExportRow(opportunity, brand, undefined, fill);
      yield {
        values: values(row),
        opportunityRowid: opportunity.opportunity_rowid,
        opportunityId: String(row.record._id ?? row.record.unique_key ?? ''),
        email: [...row.emails, ...row.catchAlls].join('; '),
        catchAll: row.catchAlls.length > 0,
        text: row.outgoing,
        tokens: row.outgoing.tokens,
      };
      continue;
    }
    const each = followUpRows(opportunity, brand, fill);
    if (each.length === 0) check.leftOut.noAddress++;
    for (const row of each) {
      yield {
        values: values(row),
        opportunityRowid: opportunity.opportunity_rowid,
        opportunityId: String(row.record._id ?? row.record.unique_key ?? ''),
        email: row.email,
        catchAll: row.catchAll,
        text: row.followUp,
        tokens: row.followUp.tokens,
      };
    }
  }
}

/** A row the export writes: its cells as text, what the record keeps of it, and what the check counts (tally() once it is taken). */
export interface ReadyRow {
  cells: string[];
  opportunityRowid: number;
  opportunityId: string;
  email: string;
  catchAll: boolean;
  text: Pitch;
}

/** Count a row taken for the file in the check. */
export const taken = (check: ExportCheck, r: ReadyRow) => tally(check, { email: r.email, subject: r.text.subject, body: r.text.body, catchAll: r.catchAll });

/** The first `n` characters of a text, never cutting a character made of two UTF-16 units in half. */
export function headOf(text: string, n: number): string {
  let i = 0;
  for (let k = 0; k < n && i < text.length; k++) i += text.codePointAt(i)! > 0xffff ? 2 : 1;
  return text.slice(0, i);
}

/** A merge field or placeholder that stands for the sender's name ({sender_name}, [Your Name]). */
const isSenderToken = (t: string) => /sender|your name|my name/i.test(t);

/**
 * The rows, each decided: written (its cells, ready for the file) or left out
 * (null: counted and named in `check`, and yielded so a long run of them still
 * lets the caller turn the event loop). `fileRow()` is the row it would take
 * in its file (the header is row 1). A choice the person has to make first
 * (rows with merge fields not filled; in a CSV, mail text that starts like a
 * formula for a tool that may run it; the sender's name for "fill a default")
 * is flagged in the check and read with choiceNeeded(): the rows still come,
 * so the check counts every one.
 */
export function* readyRows(
  cache: Cache,
  o: RowChoices,
  format: ExportFormat,
  columns: Column<never>[],
  check: ExportCheck,
  fileRow: () => number,
): Generator<ReadyRow | null> {
  const preset: PresetInfo = PRESETS[o.preset];
  const headers = columns.map(([h]) => h);
  const kinds: CellKind[] = columns.map(([, , opts]) => opts?.kind ?? 'text');
  const mail = columns.map(([, , opts]) => preset.forMail && opts?.mail === true);
  // A tool's byte limit holds for its text fields, never for the address (the row is written to it whole).
  const address = PRESET_COLUMNS[o.preset].columns[0]![0];
  const limited = headers.map((h) => preset.maxTextBytes !== undefined && h !== address);
  const flatten = o.flattenNewlines || (format === 'csv' && preset.oneLinePerRecord === true);
  const maxBytes = preset.maxTextBytes ?? 0;
  const xlsx = format === 'xlsx';
  const mailText = mailTextChoice(preset, o.mailText);
  if (o.mailText === 'as-written' && !preset.neverEvaluates)
    throw invalidInput(
      `Mail text can be written as written only for a tool that never runs formulas (Instantly, lemlist, Mailchimp); ${preset.label} may open it in a spreadsheet.`,
      'mailText',
    );
  // Only mail leaves rows out ("fill a default": those whose fields have no default); a sheet for reading keeps every row.
  const leaveOutUnfilled = preset.forMail && (o.unfilled === 'leave-out' || o.unfilled === 'default');
  for (const c of candidates(cache, o, columns, check)) {
    if (c.tokens.length) {
      tokensMet(check, c.tokens);
      if (!o.senderName && c.tokens.some(isSenderToken)) check.senderNameMissing = true;
      if (preset.forMail && o.unfilled === undefined) check.unfilledChoiceNeeded = true;
      if (leaveOutUnfilled) {
        check.leftOut.unfilled++;
        note(check.unfilledRows, { ...where(c), tokens: c.tokens });
        yield null;
        continue;
      }
    }
    // The candidate's own array of values becomes the row's cells, each turned to text in place (no second array a row).
    const cells = c.values as string[];
    const row = fileRow();
    let leaveOut = false;
    for (let i = 0; i < cells.length; i++) {
      const raw: unknown = cells[i];
      let v = typeof raw === 'string' ? raw : text(raw);
      if (flatten) v = v.replace(/\s*(\r\n|\r|\n)+\s*/g, ' ').trim();
      if (limited[i]) {
        const cut = cutToBytes(v, maxBytes);
        if (cut !== null) {
          v = cut;
          check.cut++;
          note(check.cutCells, { ...where(c), row, column: headers[i]! });
        }
      }
      if (xlsx) {
        // Cut once, here: the workbook writer takes the cell as it comes.
        const cut = kinds[i] === 'text' || kinds[i] === 'link' ? cutForSpreadsheet(v) : null;
        if (cut !== null) {
          v = cut;
          check.cut++;
          note(check.cutCells, { ...where(c), row, column: headers[i]! });
        }
        if (kinds[i] === 'link' && v.length > XLSX_LINK_LENGTH_MAX) {
          // Longer than Excel follows: the workbook holds it as text.
          check.linksAsText++;
          note(check.linksAsTextCells, { ...where(c), row, column: headers[i]! });
        }
      } else {
        if (v.length > SPREADSHEET_CELL_MAX) {
          check.overlong++;
          note(check.overlongCells, { ...where(c), row, column: headers[i]! });
        }
        if (startsLikeFormula(v)) {
          if (mail[i]) {
            // Text the recipient reads: never changed without the person's choice.
            check.mailGuarded++;
            note(check.mailGuardedCells, { ...where(c), row: mailText === 'leave-out' ? null : row, column: headers[i]!, text: headOf(v, 40) });
            if (mailText === 'leave-out') leaveOut = true;
            else if (o.raw || mailText === 'as-written') {
              // as chosen (or the tool's default): written as it is
            } else {
              if (mailText === undefined) check.mailTextChoiceNeeded = true;
              v = `'${v}`;
            }
          } else if (!o.raw) {
            // The service's text (titles, outlets, links, ids) and the rest: always guarded, whatever was chosen for mail text.
            check.dataGuarded++;
            note(check.dataGuardedCells, { ...where(c), row, column: headers[i]!, text: headOf(v, 40) });
            v = `'${v}`;
          }
        }
      }
      cells[i] = v;
    }
    if (leaveOut) {
      check.leftOut.formula++;
      yield null;
      continue;
    }
    if (c.tokens.length) note(check.unfilledRows, { ...where(c), row, tokens: c.tokens });
    yield { cells, opportunityRowid: c.opportunityRowid, opportunityId: c.opportunityId, email: c.email, catchAll: c.catchAll, text: c.text };
  }
}

/** Nothing was written: the export needs a choice the person has not made; its check names the rows and cells. */
export class ExportChoiceNeeded extends WorkbenchError {
  constructor(
    readonly check: ExportCheck,
    message: string,
    field: string,
  ) {
    super('invalid-input', message, { field });
  }
}

/** A mail export met rows with merge fields not filled and no choice was made: nothing is written. */
export class UnfilledChoiceNeeded extends ExportChoiceNeeded {
  constructor(check: ExportCheck) {
    super(
      check,
      `Nothing was written: rows have merge fields that could not be filled (${check.unfilled.join(', ')}). Choose what to do with them: leave those rows out, fill a default (such as "Hi there"), or keep the merge fields on purpose.`,
      'unfilled',
    );
  }
}

/** A CSV for a program that may run formulas met mail text that starts like one, and no choice was made: nothing is written. */
export class MailTextChoiceNeeded extends ExportChoiceNeeded {
  constructor(check: ExportCheck) {
    super(
      check,
      `Nothing was written: ${check.mailGuarded.toLocaleString('en-US')} cell${check.mailGuarded === 1 ? '' : 's'} of mail text start like a formula (= + - @), and in a CSV the formula guard would add an apostrophe the recipient reads. Choose: save as .xlsx (the text stays as written), leave those rows out, or add the apostrophe.`,
      'mailText',
    );
  }
}

/** "Fill a default" with {sender_name} in the text and no sender name set: nothing is written until it is given (once). */
export class SenderNameNeeded extends ExportChoiceNeeded {
  constructor(check: ExportCheck) {
    super(check, 'Nothing was written: the text holds {sender_name} and your name is not set. Give it once (Settings, or --sender-name NAME).', 'senderName');
  }
}

/** The choice the export still needs before a file is written (the first of them), or null. */
export function choiceNeeded(check: ExportCheck, o: Pick<RowChoices, 'unfilled'>): ExportChoiceNeeded | null {
  if (check.unfilledChoiceNeeded) return new UnfilledChoiceNeeded(check);
  if (o.unfilled === 'default' && check.senderNameMissing && PRESETS[check.preset].forMail) return new SenderNameNeeded(check);
  if (check.mailTextChoiceNeeded) return new MailTextChoiceNeeded(check);
  return null;
}

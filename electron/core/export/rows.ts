// An export's rows, read from the cache and made ready for the file: the
// preset's chosen columns, the text filled for each address, and for each row
// what the destination asks (line breaks on one line, text cut to a field's
// bytes or a cell's characters with a marker, the CSV formula guard), with
// the choices the person made for rows whose merge fields could not be filled
// and for mail text that starts like a formula. A row is either written (its
// cells) or left out (and counted, and named, in the check).
import { invalidInput, WorkbenchError } from '../../../shared/errors';
import type { ExportCheck } from '../../../shared/model';
import { DEFAULT_FILLS, PRESETS, type ExportFormat, type MailTextChoice, type PresetInfo, type UnfilledChoice } from '../../../shared/export-presets';
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
import type { CellKind } from './xlsx-writer';

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
  /** In a CSV, mail text that starts like a formula: the guard's apostrophe (the default), leave those rows out, or as written (a tool that never runs formulas). */
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

/** A value as the text of a cell. */
function text(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/** The rows the options select, streamed from the cache, one candidate per row the file could hold. */
async function* candidates(cache: Cache, o: RowChoices, columns: Column<never>[], check: ExportCheck): AsyncGenerator<Candidate> {
  const filter: ListFilter = { ...o.filter, brandId: o.brandId };
  const brand = cache.brands.get(o.brandId)?.name ?? o.brandId;
  const fill: FillOptions = { senderName: o.senderName, defaults: o.unfilled === 'default' ? { ...DEFAULT_FILLS, ...o.fill } : undefined };
  const values = <R>(row: R) => (columns as unknown as Column<R>[]).map(([, value]) => value(row));
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

/**
 * The rows, each decided: written (its cells, ready for the file) or left out
 * (counted and named in `check`). `fileRow()` is the row it would take in its
 * file (the header is row 1). When a mail preset meets a row with merge fields
 * not filled and no choice was made, the check says a choice is needed and,
 * for a write (`writing`), the export stops before a file takes its name.
 */
export async function* readyRows(
  cache: Cache,
  o: RowChoices,
  format: ExportFormat,
  columns: Column<never>[],
  check: ExportCheck,
  fileRow: () => number,
  writing: boolean,
): AsyncGenerator<ReadyRow> {
  const preset: PresetInfo = PRESETS[o.preset];
  const headers = columns.map(([h]) => h);
  const kinds: CellKind[] = columns.map(([, , opts]) => opts?.kind ?? 'text');
  const mail = columns.map(([, , opts]) => preset.forMail && opts?.mail === true);
  const flatten = o.flattenNewlines || (format === 'csv' && preset.oneLinePerRecord === true);
  const maxBytes = preset.maxTextBytes;
  const xlsx = format === 'xlsx';
  if (o.mailText === 'as-written' && !preset.neverEvaluates)
    throw invalidInput(
      `Mail text can be written as written only for a tool that never runs formulas (Instantly, lemlist, Mailchimp); ${preset.label} may open it in a spreadsheet.`,
      'mailText',
    );
  for await (const c of candidates(cache, o, columns, check)) {
    const at = { row: null as number | null, email: c.email, opportunity_id: c.opportunityId };
    if (c.tokens.length) {
      tokensMet(check, c.tokens);
      if (!o.senderName && c.tokens.some((t) => /sender|your name|my name/i.test(t))) check.senderNameMissing = true;
      if (preset.forMail && o.unfilled === undefined) {
        check.unfilledChoiceNeeded = true;
        if (writing) throw new UnfilledChoiceNeeded(check);
      }
      if (o.unfilled === 'leave-out') {
        check.leftOut.unfilled++;
        note(check.unfilledRows, { ...at, tokens: c.tokens });
        continue;
      }
    }
    const cells = c.values.map(text);
    const row = fileRow();
    let leaveOut = false;
    for (let i = 0; i < cells.length; i++) {
      let v = cells[i]!;
      if (flatten) v = v.replace(/\s*(\r\n|\r|\n)+\s*/g, ' ').trim();
      if (maxBytes && i > 0) {
        const cut = cutToBytes(v, maxBytes);
        if (cut !== null) {
          v = cut;
          check.cut++;
          note(check.cutCells, { ...at, row, column: headers[i]! });
        }
      }
      if (xlsx) {
        const cut = kinds[i] === 'text' || kinds[i] === 'link' ? cutForSpreadsheet(v) : null;
        if (cut !== null) {
          v = cut;
          check.cut++;
          note(check.cutCells, { ...at, row, column: headers[i]! });
        }
      } else {
        if (v.length > SPREADSHEET_CELL_MAX) {
          check.overlong++;
          note(check.overlongCells, { ...at, row, column: headers[i]! });
        }
        if (startsLikeFormula(v)) {
          if (mail[i]) {
            check.mailGuarded++;
            note(check.mailGuardedCells, { ...at, row: o.mailText === 'leave-out' ? null : row, column: headers[i]!, text: v.slice(0, 40) });
            if (o.mailText === 'leave-out') leaveOut = true;
            else if (o.mailText !== 'as-written' && !o.raw) v = `'${v}`;
          } else {
            check.dataGuarded++;
            if (!o.raw) v = `'${v}`;
          }
        }
      }
      cells[i] = v;
    }
    if (leaveOut) {
      check.leftOut.formula++;
      continue;
    }
    if (c.tokens.length) note(check.unfilledRows, { ...at, row, tokens: c.tokens });
    yield { cells, opportunityRowid: c.opportunityRowid, opportunityId: c.opportunityId, email: c.email, catchAll: c.catchAll, text: c.text };
  }
}

/** A mail export met rows with merge fields not filled and no choice was made: nothing is written. */
export class UnfilledChoiceNeeded extends WorkbenchError {
  constructor(readonly check: ExportCheck) {
    super(
      'invalid-input',
      `Nothing was written: rows have merge fields that could not be filled (${check.unfilled.join(', ')}). Choose what to do with them: leave those rows out, fill a default (such as "Hi there"), or keep the merge fields on purpose.`,
      { field: 'unfilled' },
    );
  }
}

// The pre-export check: what an export would write and what a person should
// know before it goes out, counted over every row and named for the first
// few: rows without an address, subject or body; merge fields left unfilled
// (read with the editor's own token finder); mail text the CSV guard would
// change; cells cut to fit; rows left out and why. The same counting runs for
// the preview and for the export itself, so what the dialog says is what the
// file holds.
import type { ExportCheck, ExportNote } from '../../../shared/model';
import { mailTextChoice, PRESETS, type ExportFormat, type ExportPreset, type MailTextChoice } from '../../../shared/export-presets';
import type { Cache } from '../store/cache';
import type { RowChoices } from './rows';

/** How many rows or cells a check names (the counts cover every row). */
export const NAMED = 20;
/** How many distinct unfilled tokens the warning names. */
const MAX_UNFILLED_NAMED = 8;
/** Every distinct unfilled token a check has met, named or not (for "and N more"). */
const unfilledSeen = new WeakMap<ExportCheck, Set<string>>();

export function newCheck(preset: ExportPreset, format: ExportFormat, available: string[], columns: string[]): ExportCheck {
  return {
    rows: 0,
    emptyEmail: 0,
    emptySubject: 0,
    emptyBody: 0,
    placeholders: 0,
    unfilled: [],
    catchAll: 0,
    doNotContact: 0,
    warnings: [],
    preset,
    format,
    available,
    columns,
    unfilledRows: [],
    unfilledChoiceNeeded: false,
    senderNameMissing: false,
    leftOut: { unfilled: 0, formula: 0, noAddress: 0 },
    mailGuarded: 0,
    mailGuardedCells: [],
    mailTextChoiceNeeded: false,
    dataGuarded: 0,
    dataGuardedCells: [],
    cut: 0,
    cutCells: [],
    overlong: 0,
    overlongCells: [],
    linksAsText: 0,
    linksAsTextCells: [],
  };
}

/** How many addresses (each once) of the opportunities the export selects are on the do-not-contact list: the ones it leaves out for it. */
export function doNotContactLeftOut(cache: Cache, o: RowChoices): number {
  const filter = { ...o.filter, brandId: o.brandId };
  return cache.exportRows.blockedAddresses(PRESETS[o.preset].rows === 'followup' ? { ...filter, view: 'due' } : filter, o);
}

/** Name a row or cell, up to NAMED of them. */
export const note = (list: ExportNote[], n: ExportNote) => void (list.length < NAMED && list.push(n));

/** A merge-field token met in a row's text (counted once per row by the caller). */
export function tokensMet(c: ExportCheck, tokens: readonly string[]): void {
  c.placeholders++;
  const seen = unfilledSeen.get(c) ?? new Set<string>();
  unfilledSeen.set(c, seen);
  for (const t of tokens) {
    seen.add(t);
    if (c.unfilled.length < MAX_UNFILLED_NAMED && !c.unfilled.includes(t)) c.unfilled.push(t);
  }
}

/** A written row's address, text and catch-all flag. */
export function tally(c: ExportCheck, r: { email: string; subject: string; body: string; catchAll: boolean }): void {
  c.rows++;
  if (!r.email) c.emptyEmail++;
  if (!r.subject.trim()) c.emptySubject++;
  if (!r.body.trim()) c.emptyBody++;
  if (r.catchAll) c.catchAll++;
}

const n = (k: number, what: string) => `${k.toLocaleString('en-US')} row${k === 1 ? '' : 's'} ${what}`;
const cells = (k: number) => `${k.toLocaleString('en-US')} cell${k === 1 ? '' : 's'}`;
/** "row 3, ana@wired.com; row 7, ben@kim.example, subject: "=SUM…"; and 2 more": each row plainly (no brackets, which read as "optional"), the column and text where a cell is meant. */
function named(list: readonly ExportNote[], total: number, withColumn = false): string {
  const one = (x: ExportNote) => {
    const where = [x.row === null ? '' : `row ${x.row}`, x.email || x.opportunity_id].filter(Boolean).join(', ');
    const column = withColumn && x.column ? `, ${x.column}` : '';
    return `${where}${column}${x.text !== undefined ? `: "${x.text}"` : ''}`;
  };
  const shown = list.slice(0, 5).map(one).join('; ');
  return total > 5 ? `${shown}; and ${(total - 5).toLocaleString('en-US')} more` : shown;
}

/** The check's warnings in plain words, from its counts and what was chosen (for rows with merge fields left, for mail text, the filters). */
export function finishCheck(c: ExportCheck, o: { unfilled?: string; mailText?: MailTextChoice; raw?: boolean; excludeCatchAll?: boolean }): ExportCheck {
  const preset = PRESETS[c.preset];
  const mailText = mailTextChoice(preset, o.mailText);
  const w: string[] = [];
  if (c.rows === 0) w.push('Nothing to export under these filters.');
  if (c.emptyEmail) w.push(n(c.emptyEmail, 'without an e-mail address'));
  if (c.emptySubject) w.push(n(c.emptySubject, 'without a pitch subject'));
  if (c.emptyBody) w.push(n(c.emptyBody, 'without a pitch body'));
  const more = (unfilledSeen.get(c)?.size ?? 0) - c.unfilled.length;
  if (c.placeholders) {
    w.push(
      `${n(c.placeholders, 'with a merge field or placeholder not filled')} in the pitch: ${c.unfilled.join(', ')}${more > 0 ? `, and ${more} more` : ''}`,
    );
    if (c.unfilledChoiceNeeded)
      w.push(`Before writing, choose what to do with them: leave those rows out, fill a default (such as "Hi there"), or keep the merge fields on purpose.`);
    else if (o.unfilled === 'leave-out' && preset.forMail) w.push(`Left out: ${named(c.unfilledRows, c.leftOut.unfilled)}.`);
    else if (o.unfilled === 'default' && preset.forMail && c.leftOut.unfilled)
      w.push(`Filled with defaults where a value was missing; left out, with merge fields that have no default: ${named(c.unfilledRows, c.leftOut.unfilled)}.`);
    else if (o.unfilled === 'default' && preset.forMail) w.push('Filled with defaults where a value was missing.');
    else if (o.unfilled === 'keep' && preset.forMail)
      w.push(
        `Kept on purpose: ${named(c.unfilledRows, c.placeholders)}.${preset.readsDoubleBraces ? ' The mail-merge add-on reads {{…}} as a column of the sheet: a token kept will be filled from a column of that name, or left blank.' : ''}`,
      );
  }
  if (c.senderNameMissing)
    w.push(
      `Your name for {sender_name} is not set: give it once (Settings, or --sender-name) and it is filled everywhere.${o.unfilled === 'default' && preset.forMail ? ' Nothing is written until it is.' : ''}`,
    );
  if (c.leftOut.noAddress)
    w.push(
      `${n(c.leftOut.noAddress, 'left out')}: no address left to write to (${
        o.excludeCatchAll
          ? 'each was on the do-not-contact list, or a catch-all address, and catch-all addresses are left out: include them to write to those'
          : 'each was on the do-not-contact list, or there was none'
      }).`,
    );
  if (c.mailGuarded) {
    const what = `${cells(c.mailGuarded)} of mail text start${c.mailGuarded === 1 ? 's' : ''} like a formula (= + - @)`;
    const where = named(c.mailGuardedCells, c.mailGuarded, true);
    const xlsx = preset.formats.includes('xlsx') ? 'save as .xlsx (its text cells need no guard), ' : '';
    if (mailText === 'leave-out') w.push(`${what}: those rows were left out: ${where}.`);
    else if (o.raw) {
      // said with the raw warning
    } else if (mailText === 'as-written')
      w.push(`${what}: ${where}. They were written as written for ${preset.label}, which never runs formulas; do not open this file in a spreadsheet.`);
    else if (mailText === 'guard') w.push(`${what}: ${where}. They were given an apostrophe, as chosen; the recipient reads it.`);
    else
      w.push(
        `${what}: ${where}. In a CSV the formula guard would add an apostrophe the recipient reads. Before writing, choose: ${xlsx}leave those rows out, or add the apostrophe.`,
      );
  }
  if (c.dataGuarded && preset.forMail)
    w.push(
      `${cells(c.dataGuarded)} of the service's text (titles, outlets, links) start${c.dataGuarded === 1 ? 's' : ''} like a formula and got the guard's apostrophe: ${named(c.dataGuardedCells, c.dataGuarded, true)}.`,
    );
  if (c.cut)
    w.push(
      `${cells(c.cut)} cut to fit, with a marker where the text stops (${c.format === 'xlsx' ? 'a spreadsheet cell holds 32,767 characters' : `${preset.label} keeps ${preset.maxTextBytes ?? 0} bytes of text`}): ${named(c.cutCells, c.cut, true)}.`,
    );
  if (c.overlong)
    w.push(
      `${cells(c.overlong)} hold more than 32,767 characters: written whole for your mail tool, but a spreadsheet opening this CSV cuts them: ${named(c.overlongCells, c.overlong, true)}.`,
    );
  if (c.linksAsText)
    w.push(
      `${c.linksAsText.toLocaleString('en-US')} link${c.linksAsText === 1 ? '' : 's'} written as text, not clickable (Excel follows links of up to 2,079 characters, and 65,530 a sheet)${c.linksAsTextCells.length ? `: ${named(c.linksAsTextCells, c.linksAsText, true)}` : ''}.`,
    );
  if (c.catchAll) w.push(`${n(c.catchAll, 'with a catch-all address')} (may reach nobody in particular)`);
  c.warnings = w;
  return c;
}

// `workbench export`: a file for a mail tool or a spreadsheet from the cache,
// by preset (one per destination: its headers, format, line breaks and guard),
// honouring the do-not-contact list, with the app's settings (the follow-up
// days, the sender's name for {sender_name}); --check reports the row count
// and warnings only. Rows whose merge fields could not be filled need a
// choice (--unfilled) before a mail export is written. `export sent` marks an
// export's addresses contacted once it went out; `export log` lists them.
import { join, dirname } from 'node:path';
import { EXPORT_PRESETS, MAIL_TEXT_CHOICES, PRESETS, sentAs, UNFILLED_CHOICES } from '../../../shared/export-presets';
import { MERGE_FIELDS, type MergeDefaults, type MergeField } from '../../../shared/merge-fields';
import { WorkbenchError } from '../../../shared/errors';
import { SettingsFile } from '../../core/app/settings';
import { confirmExportSent, ExportNotFound } from '../../core/export/confirm-sent';
import { DELIMITERS, ExportChoiceNeeded, writeExportFile, previewExport, type ExportCheck } from '../../core/export/csv-export';
import { storedCount } from '../../core/store/opportunity-detail';
import { localToday } from '../../core/store/opportunity-list';
import { settingsFor, withCache, type Ctx } from '../context';
import { LIST_OPTIONS, listFilter } from '../list-filter';
import { plain, table } from '../output';
import { brandIdOf } from '../brand-name';
import { oneOf, parse, positiveInt, UsageError } from '../options';

const presetLines = EXPORT_PRESETS.map((p) => `                                          ${p.padEnd(13)} ${PRESETS[p].purpose}\n`).join('');

export const help = `  export --brand BRAND --preset PRESET --out FILE [--format csv|xlsx] [--columns A,B,…] [list filters]
       [--unfilled leave-out|default|keep [--default FIELD=TEXT]…] [--sender-name NAME]
       [--mail-text guard|leave-out|as-written] [--exclude-catch-all | --only-catch-all] [--per-pair]
       [--skip-contacted] [--mark-exported] [--bom] [--delimiter ,|;|tab] [--flatten-newlines]
       [--max-rows N [--split]] [--raw] [--check]
                                        a file for a mail tool or spreadsheet (from the cache; --check only reports).
                                        Presets (each follows its tool's import rule; see the README):
${presetLines}  export sent [ID|latest] | export log   "I sent these": its addresses become contacted; the exports made
`;

const OPTIONS = {
  ...LIST_OPTIONS,
  preset: { type: 'string' },
  format: { type: 'string' },
  out: { type: 'string' },
  columns: { type: 'string' },
  unfilled: { type: 'string' },
  default: { type: 'string', multiple: true },
  'sender-name': { type: 'string' },
  'mail-text': { type: 'string' },
  'exclude-catch-all': { type: 'boolean' },
  'only-catch-all': { type: 'boolean' },
  'per-pair': { type: 'boolean' },
  'skip-contacted': { type: 'boolean' },
  'mark-exported': { type: 'boolean' },
  bom: { type: 'boolean' },
  delimiter: { type: 'string' },
  'flatten-newlines': { type: 'boolean' },
  'max-rows': { type: 'string' },
  split: { type: 'boolean' },
  raw: { type: 'boolean' },
  check: { type: 'boolean' },
} as const;

const rows = (n: number) => `${n.toLocaleString('en-US')} row${n === 1 ? '' : 's'}`;

/** --default first_name=there: a merge field's default for --unfilled default. */
function defaults(values: readonly string[] | undefined): MergeDefaults | undefined {
  if (!values?.length) return undefined;
  const out: MergeDefaults = {};
  for (const v of values) {
    const at = v.indexOf('=');
    const field = v.slice(0, at).trim() as MergeField;
    if (at < 1 || !MERGE_FIELDS.includes(field)) throw new UsageError(`--default takes FIELD=TEXT, FIELD one of: ${MERGE_FIELDS.join(', ')}.`);
    out[field] = v.slice(at + 1);
  }
  return out;
}

/** What a refused export asks for, as the CLI's options. */
function choicesNeeded(c: ExportCheck, unfilled: string | undefined): string {
  const asks: string[] = [];
  if (c.unfilledChoiceNeeded)
    asks.push(
      `${rows(c.placeholders)} ${c.placeholders === 1 ? 'holds' : 'hold'} merge fields that could not be filled. Choose --unfilled leave-out (those rows left out), --unfilled default (e.g. "Hi there"; --default first_name=TEXT), or --unfilled keep (on purpose).`,
    );
  if (c.senderNameMissing && (c.unfilledChoiceNeeded || unfilled === 'default'))
    asks.push('Your name for {sender_name}: --sender-name NAME (kept for next time).');
  if (c.mailTextChoiceNeeded)
    asks.push(
      `${c.mailGuarded.toLocaleString('en-US')} cell${c.mailGuarded === 1 ? '' : 's'} of mail text start like a formula. Choose ${PRESETS[c.preset].formats.includes('xlsx') ? '--format xlsx (text as written), ' : ''}--mail-text leave-out (those rows left out), or --mail-text guard (an apostrophe the recipient reads).`,
    );
  return `Nothing was written: ${asks.join(' ')}`;
}

async function sent(ctx: Ctx, id: string | undefined): Promise<void> {
  await withCache(
    ctx,
    (cache) => {
      try {
        const r = confirmExportSent(cache, id ?? 'latest', localToday());
        if (r.alreadySent) ctx.io.out(`${plain(r.fileName)} was confirmed sent on ${r.alreadySent}; nothing changed.\n`);
        else
          ctx.io.out(
            `${plain(r.fileName)}: ${r.addresses.toLocaleString('en-US')} address${r.addresses === 1 ? '' : 'es'} of ${r.updated.toLocaleString('en-US')} opportunit${r.updated === 1 ? 'y' : 'ies'} marked ${sentAs(r.preset).words} today.\n`,
          );
      } catch (e) {
        if (e instanceof ExportNotFound) throw new UsageError(`${e.message} See \`workbench export log\` for the exports made here.`);
        throw e;
      }
    },
    { changesRecord: true },
  );
}

async function log(ctx: Ctx, asJson: boolean): Promise<void> {
  await withCache(ctx, (cache) => {
    // Each export's addresses carried stay out of the log (`export sent` marks them); whether it was sent is in it.
    const list = cache.exports.list(20).map(({ carried: _carried, ...e }) => ({ ...e, sent_at: e.sent_at ?? null }));
    if (asJson) return ctx.io.out(JSON.stringify(list) + '\n');
    ctx.io.out(
      list.length
        ? table([
            ['ID', 'WHEN', 'PRESET', 'ROWS', 'FILE', 'SENT'],
            ...list.map((e) => [e.id, e.at.slice(0, 16).replace('T', ' '), e.preset, String(e.rows), plain(e.file_name), e.sent_at?.slice(0, 10) ?? '']),
          ])
        : 'No export has been made with this cache yet.\n',
    );
  });
}

export async function run(ctx: Ctx, args: string[], asJson: boolean): Promise<void> {
  const { values, positionals } = parse(args, OPTIONS);
  if (positionals[0] === 'sent') return sent(ctx, positionals[1]);
  if (positionals[0] === 'log') return log(ctx, asJson);
  if (positionals.length)
    throw new UsageError('Use `workbench export --brand BRAND --preset PRESET --out FILE`, `workbench export sent [ID]` or `workbench export log`.');
  const brandId = await brandIdOf(ctx, values.brand);
  const preset = oneOf(EXPORT_PRESETS, values.preset ?? 'contacts', '--preset')!;
  const info = PRESETS[preset];
  const byName = values.out?.toLowerCase().endsWith('.xlsx') ? 'xlsx' : values.out?.toLowerCase().endsWith('.csv') ? 'csv' : undefined;
  const format = oneOf(['csv', 'xlsx'] as const, values.format ?? byName ?? info.formats[0], '--format')!;
  if (!info.formats.includes(format)) throw new UsageError(`${info.label} takes ${info.formats.join(' or ')} only.`);
  if (!values.out && !values.check) throw new UsageError('--out FILE is required (or --check to see the row count and warnings only).');
  if (values['exclude-catch-all'] && values['only-catch-all']) throw new UsageError('Use --exclude-catch-all or --only-catch-all, not both.');
  if (info.neverEvaluates && (values.delimiter !== undefined || values.bom))
    throw new UsageError(`${info.label} reads comma-separated UTF-8 without a byte-order mark: --delimiter and --bom do not apply.`);
  const delimiter = values.delimiter === undefined ? ',' : (DELIMITERS as Record<string, ',' | ';' | '\t'>)[values.delimiter];
  if (!delimiter) throw new UsageError('--delimiter must be , ; or tab.');
  const maxRows = values['max-rows'] === undefined ? undefined : positiveInt(values['max-rows'], '--max-rows');
  if (values.split && maxRows === undefined) throw new UsageError('--split needs --max-rows N (the most rows per file).');
  const unfilled = oneOf(UNFILLED_CHOICES, values.unfilled, '--unfilled');
  const mailText = oneOf(MAIL_TEXT_CHOICES, values['mail-text'], '--mail-text');
  if (values.default?.length && unfilled !== 'default') throw new UsageError('--default goes with --unfilled default.');
  // A sheet for reading keeps every row as the service wrote it: a choice it would not act on is refused, not ignored.
  if (unfilled !== undefined && !info.forMail)
    throw new UsageError(
      `--unfilled applies to the mail presets (${EXPORT_PRESETS.filter((p) => PRESETS[p].forMail).join(', ')}); the ${info.label.replace(/ \(.*$/, '')} sheet keeps every row as the service wrote it. Leave --unfilled out.`,
    );
  const { brandId: _b, ...filter } = listFilter(values, brandId);
  const opts = {
    brandId,
    preset,
    format,
    filter,
    columns: values.columns?.split(',').map((c) => c.trim()),
    unfilled,
    fill: defaults(values.default),
    mailText,
    perPair: values['per-pair'],
    excludeCatchAll: values['exclude-catch-all'],
    onlyCatchAll: values['only-catch-all'],
    skipContacted: values['skip-contacted'],
    markExported: values['mark-exported'],
    bom: values.bom,
    delimiter,
    flattenNewlines: values['flatten-newlines'],
    maxRows,
    split: values.split,
    raw: values.raw,
    senderName: (values['sender-name']?.trim() ?? settingsFor(ctx).senderName) || undefined,
  };
  await withCache(
    ctx,
    async (cache) => {
      // The sender's name, given once, is kept in the app's settings (beside the cache, once it is known to be one) for every export and draft after.
      if (values['sender-name'] !== undefined) new SettingsFile(join(dirname(ctx.dbPath), 'settings.json')).set({ senderName: values['sender-name'].trim() });
      if (storedCount(cache.readable, brandId) === 0) {
        throw new UsageError('The cache holds no opportunities for this brand yet. Run `workbench sync` first.');
      }
      // The check's warnings quote the cache's text (titles, names, the pitch): printed plain, so no control character reaches the terminal.
      const warn = (c: { warnings: string[] }) => {
        for (const w of c.warnings) ctx.io.err(`warning: ${plain(w)}\n`);
      };
      try {
        if (values.check) {
          const c = await previewExport(cache, opts);
          ctx.io.out(`${rows(c.rows)} would be exported.\n`);
          warn(c);
          return;
        }
        const r = await writeExportFile(cache, { ...opts, out: values.out!, signal: ctx.signal }).catch((e: unknown) => {
          // Ctrl-C: the export stops at its next row, and no file (nor any part of one) is left.
          throw ctx.signal?.aborted ? new WorkbenchError('cancelled', `Export stopped: nothing was written to ${values.out}.`) : e;
        });
        warn(r);
        ctx.io.out(`Exported ${rows(r.rows)} to ${r.files.join(', ')}${r.markedExported ? `; ${r.markedExported} opportunities marked exported` : ''}.\n`);
        if (r.carried)
          ctx.io.out(
            `Once they are sent: \`workbench export sent ${r.exportId}\` marks ${r.carried === 1 ? 'this address' : `these ${r.carried.toLocaleString('en-US')} addresses`} contacted.\n`,
          );
      } catch (e) {
        // Nothing was written: the whole check (counted in the same pass) names the rows, and the choices.
        if (e instanceof ExportChoiceNeeded) {
          warn(e.check);
          throw new UsageError(choicesNeeded(e.check, opts.unfilled));
        }
        throw e;
      }
    },
    { changesRecord: !values.check },
  );
}

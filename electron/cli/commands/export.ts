// `workbench export`: a CSV (or an .xlsx workbook) for mail tools from the
// cache, honouring the do-not-contact list, with the app's settings (the
// follow-up days, the sender's name for {sender_name}); --check reports the
// row count and warnings only.
import { DELIMITERS, EXPORT_PRESETS, exportCsv, previewExport } from '../../core/export/csv-export';
import { storedCount } from '../../core/store/opportunity-detail';
import { settingsFor, withCache, type Ctx } from '../context';
import { LIST_OPTIONS, listFilter } from '../list-filter';
import { brandOf, oneOf, parse, positiveInt, UsageError } from '../options';

export const help = `  export --brand ID --preset contacts|opportunities|followups --out FILE [--format csv|xlsx] [list filters]
       [--exclude-catch-all | --only-catch-all] [--per-pair] [--skip-contacted] [--mark-exported]
       [--bom] [--delimiter ,|;|tab] [--flatten-newlines] [--max-rows N [--split]] [--raw] [--check]
                                        CSV or .xlsx for mail tools (from the cache; --check only reports);
                                        followups: the follow-ups due, with the follow-up filled
`;

const OPTIONS = {
  ...LIST_OPTIONS,
  preset: { type: 'string' },
  format: { type: 'string' },
  out: { type: 'string' },
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

export async function run(ctx: Ctx, args: string[]): Promise<void> {
  const { values } = parse(args, OPTIONS);
  const brandId = brandOf(values.brand);
  const preset = oneOf(EXPORT_PRESETS, values.preset ?? 'contacts', '--preset')!;
  const format = oneOf(['csv', 'xlsx'] as const, values.format ?? (values.out?.toLowerCase().endsWith('.xlsx') ? 'xlsx' : 'csv'), '--format')!;
  if (!values.out && !values.check) throw new UsageError('--out FILE is required (or --check to see the row count and warnings only).');
  if (values['exclude-catch-all'] && values['only-catch-all']) throw new UsageError('Use --exclude-catch-all or --only-catch-all, not both.');
  const delimiter = values.delimiter === undefined ? ',' : (DELIMITERS as Record<string, ',' | ';' | '\t'>)[values.delimiter];
  if (!delimiter) throw new UsageError('--delimiter must be , ; or tab.');
  const maxRows = values['max-rows'] === undefined ? undefined : positiveInt(values['max-rows'], '--max-rows');
  if (values.split && maxRows === undefined) throw new UsageError('--split needs --max-rows N (the most rows per file).');
  const { brandId: _b, ...filter } = listFilter(values, brandId);
  const opts = {
    brandId,
    preset,
    format,
    filter,
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
    senderName: settingsFor(ctx).senderName || undefined,
  };
  await withCache(
    ctx,
    async (cache) => {
      if (storedCount(cache.readable, brandId) === 0) {
        throw new UsageError('The cache holds no opportunities for this brand yet. Run `workbench sync` first.');
      }
      if (values.check) {
        const c = await previewExport(cache, opts);
        ctx.io.out(`${rows(c.rows)} would be exported.\n`);
        for (const w of c.warnings) ctx.io.err(`warning: ${w}\n`);
        return;
      }
      const r = await exportCsv(cache, { ...opts, out: values.out! });
      for (const w of r.warnings) ctx.io.err(`warning: ${w}\n`);
      ctx.io.out(`Exported ${rows(r.rows)} to ${r.files.join(', ')}${r.markedExported ? `; ${r.markedExported} opportunities marked exported` : ''}.\n`);
    },
    { changesRecord: !values.check },
  );
}

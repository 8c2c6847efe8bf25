// `workbench dnc`: the do-not-contact list (addresses and domains), honoured by
// every export.
import type { DncCsvPreview } from '../../../shared/user-record';
import { exportDncCsv, importDncCsv, previewDncCsv, stoppedBefore } from '../../core/app/record';
import { WorkbenchError } from '../../../shared/errors';
import { withCache, type Ctx } from '../context';
import { plain, table } from '../output';
import { parse, UsageError } from '../options';

export const help = `  dnc add|remove ADDRESS-OR-DOMAIN | dnc list
                                        the do-not-contact list, honoured by every export
  dnc import FILE.csv [--column NAME] [--dry-run] | dnc export --out FILE.csv
                                        to and from CSV: one address or domain a line, or a column
`;

function describe(p: DncCsvPreview, dry: boolean): string {
  const lines = [
    `${p.column ? `Column "${plain(p.column)}": ` : ''}${p.rows.toLocaleString('en-US')} lines; ${dry ? 'would add' : 'added'} ${p.toAdd.toLocaleString('en-US')}, ${p.already} already on the list, ${p.skipped} skipped.`,
  ];
  for (const [why, k] of Object.entries(p.skippedReasons)) lines.push(`  skipped ${k}: ${why}`);
  for (const s of p.skippedSample.slice(0, 5)) lines.push(`    line ${s.line}: ${plain(s.value) || '(empty)'}`);
  return lines.join('\n') + '\n';
}

export async function run(ctx: Ctx, args: string[], asJson: boolean): Promise<void> {
  const { positionals, values } = parse(args, { column: { type: 'string' }, 'dry-run': { type: 'boolean' }, out: { type: 'string' } });
  const [sub, ...rest] = positionals;
  await withCache(
    ctx,
    (cache) => {
      try {
        if (sub === 'import' && rest.length === 1) {
          const dry = values['dry-run'] === true;
          if (!dry && ctx.signal?.aborted) throw stoppedBefore('the import');
          const p = dry ? previewDncCsv(cache, rest[0]!, values.column) : importDncCsv(cache, rest[0]!, values.column);
          ctx.io.out(asJson ? JSON.stringify(p) + '\n' : describe(p, dry));
        } else if (sub === 'export') {
          if (!values.out) throw new UsageError('--out FILE.csv is required: where to write the list.');
          ctx.io.out(`Wrote ${exportDncCsv(cache, values.out)} entries to ${values.out}.\n`);
        } else if (sub === 'list') {
          const all = cache.doNotContact.list();
          ctx.io.out(
            all.length
              ? table([['KIND', 'VALUE', 'ADDED'], ...all.map((d) => [d.kind, d.value, d.added_at.slice(0, 10)])])
              : 'The do-not-contact list is empty.\n',
          );
        } else if (sub === 'add' && rest.length) {
          for (const v of rest) {
            const e = cache.doNotContact.add(v);
            ctx.io.out(`Added ${e.kind} ${e.value} to the do-not-contact list.\n`);
          }
        } else if (sub === 'remove' && rest.length) {
          for (const v of rest) ctx.io.out(cache.doNotContact.remove(v) ? `Removed ${v.trim().toLowerCase()}.\n` : `${v} was not on the list.\n`);
        } else
          throw new UsageError(
            'Use `workbench dnc add|remove ADDRESS-OR-DOMAIN`, `workbench dnc list`, `workbench dnc import FILE.csv` or `workbench dnc export --out FILE.csv`.',
          );
      } catch (e) {
        // The store refuses what is neither an address nor a domain as invalid input: a usage error here.
        if (e instanceof WorkbenchError && e.kind === 'invalid-input') throw new UsageError(e.message);
        throw e;
      }
    },
    { changesRecord: sub !== 'list' && sub !== 'export' },
  );
}

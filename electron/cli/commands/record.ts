// `workbench record`: the user's record (triage, notes, do-not-contact, exports,
// history) as one file, to move to a new laptop or hand a client to a colleague.
import type { ImportPreview } from '../../../shared/user-record';
import { exportRecord, importRecord, previewImport } from '../../core/app/record';
import { WorkbenchError } from '../../../shared/errors';
import { APP_VERSION, backupsFor, withCache, type Ctx } from '../context';
import { plain } from '../output';
import { parse, UsageError } from '../options';

export const help = `  record export --out FILE.json | record import FILE [--dry-run]
                                        your record alone (triage, notes, do-not-contact, exports,
                                        history) as one file; import merges, the later write winning
`;

const n = (k: number, what: string) => `${k.toLocaleString('en-US')} ${what}`;

function describe(r: ImportPreview, dry: boolean): string {
  const lines = [
    `The file (from ${r.file.created_at.slice(0, 16).replace('T', ' ')}, app ${plain(r.file.app_version)}) holds ${n(r.file.triage, 'triaged opportunities')}, ${n(r.file.do_not_contact, 'do-not-contact entries')}, ${n(r.file.exports, 'exports')}, ${n(r.file.history, 'history lines')}.`,
    r.nothingChanged
      ? 'Nothing would change: everything in it is already here.'
      : `${dry ? 'Would add' : 'Added'} ${n(r.triage.added, 'triaged opportunities')}, ${dry ? 'update' : 'updated'} ${n(r.triage.updated, '')}; ${n(r.do_not_contact.added, 'do-not-contact entries')}, ${n(r.exports.added, 'exports')}, ${n(r.history.added, 'history lines')}.`,
  ];
  if (r.conflictCount) {
    lines.push(`${n(r.conflictCount, 'conflicts')} (changed on both sides; the later write wins):`);
    for (const c of r.conflicts.slice(0, 10))
      lines.push(
        `  ${plain(c.opportunity_id)} ${c.field}: kept ${c.kept === 'local' ? 'this computer’s' : 'the file’s'} (${c.kept === 'local' ? c.local_at : c.incoming_at})`,
      );
  }
  return lines.join('\n') + '\n';
}

export async function run(ctx: Ctx, args: string[], asJson: boolean): Promise<number | void> {
  const { values, positionals } = parse(args, { out: { type: 'string' }, 'dry-run': { type: 'boolean' } });
  const [sub, file] = positionals;
  try {
    if (sub === 'export') {
      if (!values.out) throw new UsageError('--out FILE is required: where to write the record.');
      const counts = await withCache(ctx, (cache) => exportRecord(cache, APP_VERSION, values.out!));
      if (asJson) ctx.io.out(JSON.stringify(counts) + '\n');
      else
        ctx.io.out(
          `Wrote your record to ${values.out}: ${n(counts.triage, 'triaged opportunities')} (${n(counts.notes, 'notes')}), ${n(counts.do_not_contact, 'do-not-contact entries')}, ${n(counts.exports, 'exports')}, ${n(counts.history, 'history lines')}.\n`,
        );
    } else if (sub === 'import' && file) {
      const dry = values['dry-run'] === true;
      const r = await withCache(
        ctx,
        (cache) =>
          dry
            ? previewImport(cache, file)
            : importRecord(
                cache,
                backupsFor(ctx, () => cache),
                file,
                ctx.signal,
              ),
        { changesRecord: !dry },
      );
      ctx.io.out(asJson ? JSON.stringify(r) + '\n' : describe(r, dry));
    } else throw new UsageError('Use `workbench record export --out FILE.json` or `workbench record import FILE [--dry-run]`.');
  } catch (e) {
    if (e instanceof WorkbenchError && e.kind === 'invalid-input') throw new UsageError(e.message);
    throw e;
  }
}

// `workbench backup`: the automatic backups of the user's record (in `backups/`
// beside the cache): list them, take one now, restore one (shown with its date
// and counts first; --yes to replace the record).
import type { BackupInfo } from '../../../shared/user-record';
import { WorkbenchError } from '../../../shared/errors';
import { backupsFor, withCache, type Ctx } from '../context';
import { stoppedBefore } from '../../core/app/record';
import { table } from '../output';
import { parse, UsageError } from '../options';

export const help = `  backup list | backup now | backup restore ID|latest [--yes]
                                        backups of your record (written at most hourly, kept 7 days)
`;

const when = (b: BackupInfo) => b.created_at.slice(0, 19).replace('T', ' ') + ' UTC';
const counts = (b: BackupInfo) => `${b.counts.triage} triaged, ${b.counts.notes} notes, ${b.counts.do_not_contact} do-not-contact, ${b.counts.exports} exports`;

export async function run(ctx: Ctx, args: string[], asJson: boolean): Promise<number | void> {
  const { values, positionals } = parse(args, { yes: { type: 'boolean' } });
  const [sub, id] = positionals;
  return withCache(
    ctx,
    async (cache): Promise<number | void> => {
      const backups = backupsFor(ctx, () => cache);
      try {
        if (sub === 'list') {
          const all = backups.list();
          if (asJson) return void ctx.io.out(JSON.stringify(all) + '\n');
          ctx.io.out(
            all.length
              ? table([['ID', 'WHEN', 'WHY', 'HOLDS'], ...all.map((b) => [b.id, when(b), b.reason, counts(b)])])
              : 'No backups yet: one is written after changes (at most hourly) and when the app quits.\n',
          );
        } else if (sub === 'now') {
          const b = await backups.backupNow('manual', { force: true });
          ctx.io.out(`Backed up your record: ${b!.id} (${counts(b!)}).\n`);
        } else if (sub === 'restore' && id) {
          const target = id === 'latest' ? backups.list()[0] : backups.list().find((b) => b.id === id);
          if (!target) throw new UsageError(id === 'latest' ? 'There are no backups yet.' : `No backup named ${id}; see \`workbench backup list\`.`);
          const { info } = await backups.read(target.id);
          ctx.io.out(`The backup of ${when(info)} holds ${counts(info)}.\n`);
          if (!values.yes) {
            ctx.io.out(
              'Restoring replaces your current triage, notes, do-not-contact list and history with it (what is there now is backed up first). Run again with --yes to restore.\n',
            );
            return 2;
          }
          if (ctx.signal?.aborted) throw stoppedBefore('the restore');
          const r = await backups.restore(target.id);
          ctx.io.out(`Restored. What was there before is kept as ${r.safety?.id ?? 'the previous backup'}.\n`);
        } else throw new UsageError('Use `workbench backup list`, `workbench backup now` or `workbench backup restore ID|latest [--yes]`.');
      } catch (e) {
        if (e instanceof WorkbenchError && e.kind === 'invalid-input') throw new UsageError(e.message);
        throw e;
      }
      // A restore writes: another program's lock is waited for without blocking, so a Ctrl-C is heard meanwhile.
    },
    { writes: sub === 'restore' },
  );
}

// `workbench cache`: where the cache file is; recovering a damaged one (kept
// aside, a fresh one built with the user's record carried over); moving one aside.
import { existsSync } from 'node:fs';
import { checkFileIntegrity, moveAside, refuseIfNotAppCache } from '../../core/store/db';
import { recoverDamagedCache } from '../../core/store/recover';
import { APP_VERSION, backupsFor, type Ctx } from '../context';
import { parse, UsageError } from '../options';

export const help = `  cache path | cache recover [--force] | cache reset
                                        where the cache is; rebuild a damaged cache keeping your
                                        triage, notes and do-not-contact list; move a cache aside
`;

export async function run(ctx: Ctx, args: string[]): Promise<void> {
  const { positionals, values } = parse(args, { force: { type: 'boolean' } });
  if (positionals[0] === 'path') ctx.io.out(ctx.dbPath + '\n');
  else if (positionals[0] === 'recover') {
    if (!existsSync(ctx.dbPath)) {
      ctx.io.out(`There is no cache at ${ctx.dbPath}; nothing to do.\n`);
      return;
    }
    // Another program's database is never checked, moved or rebuilt.
    refuseIfNotAppCache(ctx.dbPath);
    // A healthy cache is not rebuilt by accident: that would drop its opportunities until the next sync.
    const health = checkFileIntegrity(ctx.dbPath);
    if (health.ok && !values.force) {
      ctx.io.out(
        `The cache at ${ctx.dbPath} passes its integrity check: there is nothing to recover. (\`workbench cache recover --force\` rebuilds it anyway.)\n`,
      );
      return;
    }
    let fresh: Awaited<ReturnType<typeof recoverDamagedCache>>['cache'] | null = null;
    const { cache, report } = await recoverDamagedCache(ctx.dbPath, { appVersion: APP_VERSION, latestBackup: () => backupsFor(ctx, () => fresh!).latest() });
    fresh = cache;
    cache.close();
    ctx.io.out(`${report.message} Run \`workbench sync\` to fetch them.\n`);
  } else if (positionals[0] === 'reset') {
    if (!existsSync(ctx.dbPath)) {
      ctx.io.out(`There is no cache at ${ctx.dbPath}; nothing to do.\n`);
      return;
    }
    const aside = moveAside(ctx.dbPath);
    ctx.io.out(`The cache was moved aside to ${aside}; the next sync builds a fresh one. (Triage and notes stay in the moved file.)\n`);
  } else throw new UsageError('Use `workbench cache path`, `workbench cache recover` or `workbench cache reset`.');
}

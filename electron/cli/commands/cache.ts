// `workbench cache`: where the cache file is, and moving a damaged one aside
// (triage and notes stay in the moved file).
import { existsSync } from 'node:fs';
import { moveAside } from '../../core/store/db';
import type { Ctx } from '../context';
import { parse, UsageError } from '../options';

export const help = `  cache path | cache reset              where the cache is; move a damaged cache aside
`;

export async function run(ctx: Ctx, args: string[]): Promise<void> {
  const { positionals } = parse(args, {});
  if (positionals[0] === 'path') ctx.io.out(ctx.dbPath + '\n');
  else if (positionals[0] === 'reset') {
    if (!existsSync(ctx.dbPath)) {
      ctx.io.out(`There is no cache at ${ctx.dbPath}; nothing to do.\n`);
      return;
    }
    const aside = moveAside(ctx.dbPath);
    ctx.io.out(`The cache was moved aside to ${aside}; the next sync builds a fresh one. (Triage and notes stay in the moved file.)\n`);
  } else throw new UsageError('Use `workbench cache path` or `workbench cache reset`.');
}


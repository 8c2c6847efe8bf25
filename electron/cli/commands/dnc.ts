// `workbench dnc`: the do-not-contact list (addresses and domains), honoured by
// every export.
import { withCache, type Ctx } from '../context';
import { table } from '../output';
import { parse, UsageError } from '../options';

export const help = `  dnc add|remove ADDRESS-OR-DOMAIN | dnc list
                                        the do-not-contact list, honoured by every export
`;

export async function run(ctx: Ctx, args: string[]): Promise<void> {
  const { positionals } = parse(args, {});
  const [sub, ...rest] = positionals;
  await withCache(ctx, (cache) => {
    try {
      if (sub === 'list') {
        const all = cache.doNotContact.list();
        ctx.io.out(all.length ? table([['KIND', 'VALUE', 'ADDED'], ...all.map((d) => [d.kind, d.value, d.added_at.slice(0, 10)])]) : 'The do-not-contact list is empty.\n');
      } else if (sub === 'add' && rest.length) {
        for (const v of rest) {
          const e = cache.doNotContact.add(v);
          ctx.io.out(`Added ${e.kind} ${e.value} to the do-not-contact list.\n`);
        }
      } else if (sub === 'remove' && rest.length) {
        for (const v of rest) ctx.io.out(cache.doNotContact.remove(v) ? `Removed ${v.trim().toLowerCase()}.\n` : `${v} was not on the list.\n`);
      } else throw new UsageError('Use `workbench dnc add ADDRESS-OR-DOMAIN`, `workbench dnc remove ADDRESS-OR-DOMAIN` or `workbench dnc list`.');
    } catch (e) {
      // The store refuses what is neither an address nor a domain with a RangeError: bad input.
      if (e instanceof RangeError) throw new UsageError(e.message);
      throw e;
    }
  });
}

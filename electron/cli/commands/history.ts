// `workbench history`: what was done to an opportunity (stage, note, star,
// contacted, exported, undone), and contacts and exports at the same outlet:
// "did we pitch this outlet already, and when".
import { historyAtOutlet, historyOf } from '../../core/store/history';
import { prepareBrand } from '../../core/store/list-items';
import { readOpportunity } from '../../core/store/opportunity-detail';
import { withCache, type Ctx } from '../context';
import { plain, table } from '../output';
import { brandIdOf } from '../brand-name';
import { parse, UsageError } from '../options';

export const help = `  history --brand BRAND --id OPP_ID      what was done to an opportunity, and pitches at its outlet
`;

export async function run(ctx: Ctx, args: string[], asJson: boolean): Promise<void> {
  const { values } = parse(args, { brand: { type: 'string' }, id: { type: 'string' } });
  const brandId = await brandIdOf(ctx, values.brand);
  if (!values.id) throw new UsageError('--id is required (the opportunity id from `workbench list`).');
  await withCache(ctx, (cache) => {
    const o = readOpportunity(cache.readable, prepareBrand(cache.writable, brandId), values.id!);
    if (!o) throw new UsageError(`No opportunity ${values.id} for brand ${brandId} in the cache.`);
    const entries = historyOf(cache.readable, brandId, values.id!);
    const outlet = historyAtOutlet(cache.readable, brandId, values.id!);
    if (asJson) return void ctx.io.out(JSON.stringify({ entries, sameOutlet: outlet }) + '\n');
    ctx.io.out(`${plain(o.item.title)} (${plain(o.item.domain)})\n`);
    ctx.io.out(
      entries.length
        ? table([['WHEN', 'WHAT', 'DETAIL'], ...entries.map((e) => [e.at.slice(0, 16).replace('T', ' '), e.label, plain(e.detail)])])
        : 'Nothing done to it yet.\n',
    );
    if (outlet.length) {
      ctx.io.out(`\nAt ${plain(o.item.domain)} already:\n`);
      ctx.io.out(
        table([['WHEN', 'WHAT', 'OPPORTUNITY'], ...outlet.map((e) => [e.at.slice(0, 16).replace('T', ' '), `${e.label} ${plain(e.detail)}`, plain(e.title)])]),
      );
    }
  });
}

// `workbench results`: what the outreach won over a period (this month by
// default), from the cache: the opportunities pitched and what became of
// them week by week (replied, won, cited), and the wins with their evidence.
import { checkDate } from '../../../shared/rules';
import { periodOf } from '../../../shared/results';
import { resultsOf } from '../../core/results/report';
import { localToday } from '../../core/store/opportunity-list';
import { withCache, type Ctx } from '../context';
import { clip, json, plain, table } from '../output';
import { brandIdOf } from '../brand-name';
import { parse, UsageError } from '../options';

export const help = `  results --brand BRAND [--from D --to D] [--json]
                                        the funnel (pitched, replied, won, cited) by week and the wins, this month by default
                                        (--from alone: to today; --to alone: from the first of its month)
`;

function day(v: string | undefined, flag: string): string | undefined {
  if (v === undefined) return undefined;
  const r = checkDate(v, flag);
  if (!r.ok) throw new UsageError(`${flag}: ${r.message}`);
  return r.value;
}

const n = (x: number, one: string, many: string) => `${x.toLocaleString('en-US')} ${x === 1 ? one : many}`;

export async function run(ctx: Ctx, args: string[], asJson: boolean): Promise<void> {
  const { values } = parse(args, { brand: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' } });
  const brandId = await brandIdOf(ctx, values.brand);
  const today = localToday();
  const from = day(values.from, '--from');
  const to = day(values.to, '--to');
  if (from && to && from > to) throw new UsageError(`--from (${from}) is after --to (${to}).`);
  if (from && !to && from > today) throw new UsageError(`--from (${from}) is after today (${today}): give --to as well, or an earlier --from.`);
  // --from alone runs to today; --to alone from the first of its month.
  const period = from || to ? periodOf('custom', today, { from: from ?? `${to!.slice(0, 8)}01`, to: to ?? today }) : periodOf('this-month', today);
  await withCache(ctx, (cache) => {
    const r = resultsOf(cache, brandId, period, today);
    if (asJson) return void ctx.io.out(json(r));
    const t = r.totals;
    ctx.io.out(`${plain(r.brandName)}: ${r.period.label} (${r.period.from} to ${r.period.to})\n`);
    ctx.io.out(`Pitched ${t.pitched}, replied ${t.replied}, won ${t.won}, cited ${t.cited}.\n\n`);
    ctx.io.out(
      table([
        ['WEEK OF', 'PITCHED', 'REPLIED', 'WON', 'CITED'],
        ...r.funnel.map((w) => [w.week, String(w.pitched), String(w.replied), String(w.won), String(w.cited)]),
        ['TOTAL', String(t.pitched), String(t.replied), String(t.won), String(t.cited)],
      ]),
    );
    ctx.io.out(
      `\n${r.wins.length ? `Wins (${r.wins.length}), won or cited in the period:` : 'No wins in the period yet: nothing cited at an outlet you pitched, nothing marked Won.'}\n`,
    );
    if (r.wins.length)
      ctx.io.out(
        table([
          ['WHEN', 'OPPORTUNITY', 'OUTLET', 'STAGE', 'EVIDENCE', 'DAYS'],
          ...r.wins.map((w) => {
            const e = w.evidence;
            const what = e
              ? `${e.match === 'page' ? 'the page pitched' : 'the outlet'}${e.strength === 'flip' ? ' began to mention the brand' : ', cited'}: ${clip(plain(e.citation.url), 60)} (${n(e.citation.times_cited, 'citation', 'citations')})`
              : 'marked Won';
            return [e?.first_since ?? w.won_on ?? '', clip(plain(w.title), 48), plain(w.domain), w.stage ?? 'New', what, e ? String(e.days) : ''];
          }),
        ]),
      );
    const tm = r.timing;
    if (tm.count)
      ctx.io.out(
        `\nFrom pitch to first citation: median ${n(tm.median_days!, 'day', 'days')} (fastest ${tm.fastest_days}, slowest ${tm.slowest_days}) over ${n(tm.count, 'win', 'wins')}.\n`,
      );
    if (!r.citations_synced_at) ctx.io.out('\nCitations have not been synced yet: run `workbench sync` to look for evidence.\n');
  });
}

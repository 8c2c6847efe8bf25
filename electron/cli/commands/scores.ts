// `workbench scores`: a brand's visibility scores from the API, by date and
// optionally by model or prompt.
import { ApiError } from '../../core/api/errors';
import { clientFor, type Ctx } from '../context';
import { clip, json, plain, table } from '../output';
import { brandIdOf } from '../brand-name';
import { parse, UsageError } from '../options';

export const help = `  scores --brand BRAND [--start D] [--end D] [--breakdown model,prompt] [--json]
`;

export async function run(ctx: Ctx, args: string[], asJson: boolean): Promise<void> {
  const { values } = parse(args, { brand: { type: 'string' }, start: { type: 'string' }, end: { type: 'string' }, breakdown: { type: 'string' } });
  const brand = await brandIdOf(ctx, values.brand);
  const breakdown = values.breakdown
    ? values.breakdown
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
  const q = { brand, breakdown: breakdown as ('model' | 'prompt')[], start_date: values.start, end_date: values.end };
  const client = await clientFor(ctx, (s) => ctx.io.err(s + '\n'));
  const r = await client.scores(q).catch((e: unknown) => {
    if (e instanceof ApiError && e.kind === 'invalid-input') throw new UsageError(e.message);
    throw e;
  });
  if (asJson) {
    ctx.io.out(json(r.response));
    return;
  }
  const resp = r.response as { brand_name?: string; start_date?: string; end_date?: string };
  ctx.io.out(`${plain(resp.brand_name ?? brand)}: ${resp.start_date} to ${resp.end_date}\n`);
  const extra = breakdown.length ? breakdown.map((b) => b.toUpperCase()) : [];
  ctx.io.out(
    table([
      ['DATE', ...extra, 'VISIBILITY', 'PRESENCE'],
      ...r.points.map((p) => [
        p.date,
        ...breakdown.map((b) => clip(plain(String((p as Record<string, unknown>)[b] ?? '')), 40)),
        String(p.visibility),
        String(p.presence),
      ]),
    ]),
  );
}

// `workbench citations`: the pages AI answers cite for a brand (or its search
// queries or knowledge records), every page of them, from the API.
import { clientFor, type Ctx } from '../context';
import { clip, json, plain, table } from '../output';
import { brandIdOf } from '../brand-name';
import { oneOf, parse } from '../options';

export const help = `  citations --brand BRAND [--mode citations|search-queries|knowledge] [--json]
`;

export async function run(ctx: Ctx, args: string[], asJson: boolean): Promise<void> {
  const { values } = parse(args, { brand: { type: 'string' }, mode: { type: 'string' }, domain: { type: 'string' } });
  const brand = await brandIdOf(ctx, values.brand);
  const mode = oneOf(['citations', 'search-queries', 'knowledge'] as const, values.mode, '--mode') ?? 'citations';
  const client = await clientFor(ctx, (s) => ctx.io.err(s + '\n'));
  const items: Record<string, unknown>[] = [];
  let first: { updatedAt?: string; summary?: unknown } | undefined;
  for await (const page of client.citationsPages({ brand, mode, limit: 500, domain: values.domain })) {
    first ??= { updatedAt: page.updatedAt, summary: page.summary };
    items.push(...page.items);
  }
  if (asJson) {
    ctx.io.out(json({ brand_id: brand, mode, updated_at: first?.updatedAt ?? null, summary: first?.summary ?? null, items }));
    return;
  }
  if (mode !== 'citations') {
    ctx.io.out(`${items.length} ${mode} records (shape not published; use --json to see them whole).\n`);
    return;
  }
  ctx.io.out(
    table([
      ['CITED', 'DR', 'PA', 'BRAND?', 'DOMAIN', 'URL'],
      ...items.map((c) => [
        String(c.times_cited ?? ''),
        String(c.domain_rating ?? ''),
        String(c.page_authority ?? ''),
        c.mentions_brand ? 'yes' : 'no',
        clip(plain(String(c.domain ?? '')), 28),
        clip(plain(String(c.url ?? '')), 80),
      ]),
    ]),
  );
}

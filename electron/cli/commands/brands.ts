// `workbench brands`: the brands the key reaches, remembered in the cache.
import { clientFor, withCache, type Ctx } from '../context';
import { json, plain, table } from '../output';
import { parse } from '../options';

export const help = `  brands [--json]                       brands the key reaches
`;

export async function run(ctx: Ctx, args: string[], asJson: boolean): Promise<void> {
  parse(args, {});
  const client = await clientFor(ctx);
  const { brands } = await client.brands();
  // It writes: another program's lock is waited for without blocking, so a Ctrl-C is heard meanwhile.
  await withCache(ctx, (c) => c.brands.replaceAll(brands, new Date().toISOString()), { writes: true });
  if (asJson) ctx.io.out(json(brands.map((b) => ({ id: b.id, name: b.name }))));
  else ctx.io.out(brands.length ? table([['ID', 'NAME'], ...brands.map((b) => [b.id, plain(b.name)])]) : 'This key reaches no brands.\n');
}

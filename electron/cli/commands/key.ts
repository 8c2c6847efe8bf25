// `workbench key`: the API key in the OS keychain; `set` reads it from standard
// input and checks it against the API before storing it. The key is never printed.
import { checkApiKeyShape } from '../../../shared/rules';
import { checkingClient, type Ctx } from '../context';
import { parse, UsageError } from '../options';

export const help = `  key set | key status | key clear      the API key in the OS keychain (set reads standard input)
`;

const brandCount = (n: number) => `${n} brand${n === 1 ? '' : 's'}`;

export async function run(ctx: Ctx, args: string[]): Promise<void> {
  const { positionals } = parse(args, {});
  const sub = positionals[0];
  if (sub === 'set') await set(ctx);
  else if (sub === 'status') await status(ctx);
  else if (sub === 'clear') {
    await ctx.secrets.clear();
    ctx.io.out('The stored key was removed from the system keychain.\n');
  } else throw new UsageError('Use `workbench key set`, `workbench key status` or `workbench key clear`.');
}

async function set(ctx: Ctx): Promise<void> {
  if (ctx.io.isTTY) ctx.io.err('Paste your API key and press Enter: ');
  const raw = (await ctx.io.readStdin()).trim();
  const shape = checkApiKeyShape(raw);
  if (!shape.ok) throw new UsageError(shape.message);
  const { brands } = await checkingClient(ctx, shape.value).brands();
  await ctx.secrets.set(shape.value);
  ctx.io.out(`Key checked (${brandCount(brands.length)} reachable) and stored in the system keychain, ending in …${shape.value.slice(-4)}.\n`);
}

async function status(ctx: Ctx): Promise<void> {
  const stored = await ctx.secrets.get();
  if (!stored) {
    ctx.io.out(
      ctx.io.env.TRAKKR_API_KEY ? 'No key in the keychain; TRAKKR_API_KEY is set and will be used.\n' : 'No key is stored. Run `workbench key set`.\n',
    );
    return;
  }
  const client = checkingClient(ctx, stored);
  try {
    const { brands } = await client.brands();
    ctx.io.out(`A key ending in …${stored.slice(-4)} is stored; last check OK (${brandCount(brands.length)}).\n`);
  } catch (e) {
    ctx.io.out(`A key ending in …${stored.slice(-4)} is stored; last check failed: ${(e as Error).message}\n`);
    throw e;
  }
}

// `workbench brands`: the brands the key reaches, remembered in the cache. Offline
// or with no key, the cached brands (so `list --brand` can be used on a train),
// with a note on stderr saying why and as of when; a key the service refuses still fails.
import { existsSync } from 'node:fs';
import type { Brand } from '../../../shared/api/schemas';
import { WorkbenchError, type ErrorKind } from '../../../shared/errors';
import { redactKeys } from '../../../shared/rules';
import { clientFor, withCache, type Ctx } from '../context';
import { json, plain, plainLines, table } from '../output';
import { parse } from '../options';

export const help = `  brands [--json]                       brands the key reaches (offline or with no key: as last synced)
`;

/** Failures after which the cache's brands are what the user gets: the service out of reach, or no key to ask it with. */
const CACHED_AFTER: readonly ErrorKind[] = ['service-unreachable', 'no-key', 'keychain-unavailable', 'keychain-locked'];

export async function run(ctx: Ctx, args: string[], asJson: boolean): Promise<void> {
  parse(args, {});
  let brands: Brand[];
  try {
    ({ brands } = await (await clientFor(ctx)).brands());
  } catch (e) {
    if (!(e instanceof WorkbenchError) || !CACHED_AFTER.includes(e.kind)) throw e;
    print(ctx, await cachedBrands(ctx, e), asJson);
    return;
  }
  // It writes: another program's lock is waited for without blocking, so a Ctrl-C is heard meanwhile.
  await withCache(ctx, (c) => c.brands.replaceAll(brands, new Date().toISOString()), { writes: true });
  print(ctx, brands, asJson);
}

function print(ctx: Ctx, brands: { id: string; name: string }[], asJson: boolean): void {
  if (asJson) ctx.io.out(json(brands.map((b) => ({ id: b.id, name: b.name }))));
  else ctx.io.out(brands.length ? table([['ID', 'NAME'], ...brands.map((b) => [b.id, plain(b.name)])]) : 'This key reaches no brands.\n');
}

/**
 * The brands the cache holds (those still on Trakkr when last seen), the
 * failure said first on stderr; with none cached, the failure stands, with
 * how to get them. Only a cache that does not exist is "none cached" (and
 * asking does not create it); a cache that cannot be read (damaged, not
 * allowed, Ctrl-C in the lock wait) fails with its own words and exit code,
 * after the line saying why the service was not asked.
 */
async function cachedBrands(ctx: Ctx, failure: WorkbenchError): Promise<{ id: string; name: string }[]> {
  const offline = failure.kind === 'service-unreachable';
  let cached: { id: string; name: string; last_synced_at?: string | null }[] = [];
  if (existsSync(ctx.dbPath)) {
    try {
      cached = await withCache(ctx, (c) => c.brands.list().filter((b) => !b.removed_on_server));
    } catch (e) {
      ctx.io.err(`${offline ? 'Offline. ' : ''}${plainLines(redactKeys(failure.message))}\nThe brands cached on this computer could not be read either:\n`);
      throw e;
    }
  }
  if (!cached.length) {
    ctx.io.err(
      `No brands are cached yet: run \`workbench sync\` once ${offline ? 'the service can be reached' : 'a key is stored (`workbench key set`) or given in TRAKKR_API_KEY'}.\n`,
    );
    throw failure;
  }
  const last = cached.map((b) => b.last_synced_at ?? '').reduce((a, b) => (b > a ? b : a), '');
  const asOf = last ? `as last synced ${last.slice(0, 16).replace('T', ' ')} UTC` : 'as last listed';
  ctx.io.err(`${offline ? 'Offline. ' : ''}${plainLines(redactKeys(failure.message))}\nThese are the brands ${asOf}, from the cache on this computer.\n`);
  return cached.map((b) => ({ id: b.id, name: b.name }));
}

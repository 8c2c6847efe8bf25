// `--brand` as a person gives it: the brand's id, or its whole name as this
// computer knows it (the cache's brands, read as `workbench brands` reads them
// offline), in any case, spaces around it ignored. Never the start of a name:
// a command that changes things (undo, export, sync) must act on the brand the
// person named, so a value that only starts a name is refused, with the names
// it starts. A value is an id when it is a valid one; a brand not yet on this
// computer can still be given (and synced) by its id.
import { existsSync } from 'node:fs';
import { checkBrandId } from '../../shared/rules';
import { Cache } from '../core/store/cache';
import type { Ctx } from './context';
import { plain } from './output';
import { brandOf, UsageError } from './options';

/** What the value is for: reading a brand this computer has, or syncing one (which may be new to it). */
export type BrandUse = 'read' | 'sync';

interface KnownBrand {
  id: string;
  name: string;
  removed_on_server: boolean;
}

/** The most brand names a message lists. */
const NAMES_SHOWN = 12;

/** Said to `sync --brand` with a name this computer does not know (a sentence without its full stop). */
const SYNC_BY_ID = 'A brand not yet on this computer can be synced by its id only (`workbench brands` lists the ids)';

/**
 * An id, or one a character or two off, as a person pastes it: no spaces
 * within, and 32 characters or at least ten digits (an id has 31 digits). When
 * no name matches such a value, brandOf says what is wrong with it as an id.
 */
function idShaped(v: string): boolean {
  const t = v.trim();
  return !/\s/.test(t) && (t.length === 32 || (t.match(/\d/g)?.length ?? 0) >= 10);
}

const isId = (v: string) => checkBrandId(v).ok;

/** The brand id --brand names (required): a valid id as it is, else a name looked up in the cache. */
export async function brandIdOf(ctx: Ctx, v: string | undefined, use: BrandUse = 'read'): Promise<string> {
  if (v === undefined) return brandOf(v);
  return (await brandIdsOf(ctx, [v], use))[0]!;
}

/** The brand ids of several --brand values (sync's), the cache read once for all the names among them. */
export async function brandIdsOf(ctx: Ctx, values: readonly string[], use: BrandUse): Promise<string[]> {
  for (const v of values) if (v.trim() === '') throw new UsageError("--brand is empty: give the brand's name or id (`workbench brands` lists them).");
  const known = values.some((v) => !isId(v)) ? await knownBrands(ctx) : [];
  return values.map((v) => (isId(v) ? brandOf(v) : byName(v, known, use)));
}

/**
 * The brands the cache holds, read without changing the file (no upgrade, no
 * tidying, no compaction: a read-only open); none when there is no cache, and
 * asking does not create one.
 */
async function knownBrands(ctx: Ctx): Promise<KnownBrand[]> {
  if (!existsSync(ctx.dbPath)) return [];
  const cache = await Cache.open(ctx.dbPath, { readonly: true, lockWaitMs: ctx.lockWaitMs, onLockWait: (m) => ctx.io.err(m + '\n'), signal: ctx.signal });
  try {
    return cache.brands.names();
  } finally {
    cache.close();
  }
}

const fold = (s: string) => s.normalize('NFC').trim().toLowerCase();

/** Those of the brands (still on Trakkr first, else removed ones) that pass `test`. */
function among(brands: readonly KnownBrand[], test: (name: string) => boolean): KnownBrand[] {
  const hits = brands.filter((b) => test(fold(b.name)));
  const live = hits.filter((b) => !b.removed_on_server);
  return live.length ? live : hits;
}

/** Names for a message, made plain, at most NAMES_SHOWN of them, then how many more; `last` before the last of a short list. */
function named(brands: readonly KnownBrand[], last = ', '): string {
  const names = brands.slice(0, NAMES_SHOWN).map((b) => plain(b.name));
  if (brands.length > NAMES_SHOWN) return `${names.join(', ')}, and ${brands.length - NAMES_SHOWN} more (\`workbench brands\` lists them)`;
  return names.length > 1 ? `${names.slice(0, -1).join(', ')}${last}${names.at(-1)}` : names.join('');
}

function byName(v: string, known: readonly KnownBrand[], use: BrandUse): string {
  const shown = `"${plain(v.trim())}"`;
  if (!known.length) {
    if (idShaped(v)) return brandOf(v);
    const next =
      use === 'sync'
        ? `${SYNC_BY_ID}, or run \`workbench sync\` without --brand to sync every brand.`
        : "Run `workbench sync` first, or give the brand's id (`workbench brands` lists them).";
    throw new UsageError(`No brands are on this computer yet, so ${shown} cannot be found by name. ${next}`);
  }
  // The whole name: a brand still on Trakkr first, then one removed from it (its cached data kept).
  const want = fold(v);
  const whole = among(known, (name) => name === want);
  if (whole.length === 1) return whole[0]!.id;
  if (whole.length > 1) {
    const which = whole.map((b) => `${plain(b.name)} (${b.id})`).join(', ');
    throw new UsageError(`${shown} could be ${whole.length} brands: ${which}. Give the one you mean by its id.`);
  }
  if (idShaped(v)) return brandOf(v);
  // Never the start of a name: said, with the names the value starts (or that start it), and nothing done.
  const near = among(known, (name) => name !== '' && (name.startsWith(want) || want.startsWith(name)));
  if (near.length) {
    const give = near.length === 1 ? 'Give its whole name or its id.' : 'Give the whole name or the id of the one you mean.';
    const sync = use === 'sync' ? ` ${SYNC_BY_ID}.` : '';
    throw new UsageError(`No brand named ${shown} on this computer. Did you mean ${named(near, ' or ')}? ${give}${sync}`);
  }
  const live = known.filter((b) => !b.removed_on_server);
  const next = use === 'sync' ? `${SYNC_BY_ID}.` : 'Run `workbench sync` first if it is new.';
  throw new UsageError(`No brand named ${shown} on this computer. Brands: ${named(live.length ? live : known)}. ${next}`);
}

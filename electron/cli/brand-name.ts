// `--brand` as a person gives it: the brand's id, checked as ever (brandOf), or
// its name as this computer knows it (the cache's brands, read as `workbench
// brands` reads them offline): any case, spaces around it ignored, or the start
// of one name when no other starts so (said on stderr). A value shaped like an
// id is taken as an id and never looked up, so a brand not yet on this
// computer can still be given (and synced) by its id.
import { existsSync } from 'node:fs';
import { withCache, type Ctx } from './context';
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

/**
 * An id, or one a character or two off, as a person pastes it: no spaces
 * within, and 32 characters or at least ten digits (an id has 31). Such a
 * value goes to brandOf, so its mistakes are said as before.
 */
function idShaped(v: string): boolean {
  const t = v.trim();
  return t === '' || (!/\s/.test(t) && (t.length === 32 || (t.match(/\d/g)?.length ?? 0) >= 10));
}

/** The brand id --brand names (required): an id as it is, or a name looked up in the cache. */
export async function brandIdOf(ctx: Ctx, v: string | undefined, use: BrandUse = 'read'): Promise<string> {
  if (v === undefined || idShaped(v)) return brandOf(v);
  return (await brandIdsOf(ctx, [v], use))[0]!;
}

/** The brand ids of several --brand values (sync's), the cache read once for all the names among them. */
export async function brandIdsOf(ctx: Ctx, values: readonly string[], use: BrandUse): Promise<string[]> {
  const names = values.filter((v) => !idShaped(v));
  const known = names.length ? await knownBrands(ctx) : [];
  return values.map((v) => (idShaped(v) ? brandOf(v) : byName(ctx, v, known, use)));
}

/** The brands the cache holds; none when there is no cache (and asking does not create one). */
async function knownBrands(ctx: Ctx): Promise<KnownBrand[]> {
  if (!existsSync(ctx.dbPath)) return [];
  return withCache(ctx, (c) => c.brands.names());
}

const fold = (s: string) => s.normalize('NFC').trim().toLowerCase();

/** The brands the value names: those of that whole name, else those whose name starts with it. */
function matches(v: string, brands: readonly KnownBrand[]): { hits: KnownBrand[]; whole: boolean } {
  const want = fold(v);
  const whole = brands.filter((b) => fold(b.name) === want);
  if (whole.length) return { hits: whole, whole: true };
  return { hits: brands.filter((b) => fold(b.name).startsWith(want)), whole: false };
}

function byName(ctx: Ctx, v: string, known: readonly KnownBrand[], use: BrandUse): string {
  const shown = `"${plain(v.trim())}"`;
  const live = known.filter((b) => !b.removed_on_server);
  if (!known.length) {
    const next =
      use === 'sync'
        ? 'A brand not yet on this computer can be synced by its id only (`workbench brands` lists the ids), or run `workbench sync` without --brand to sync every brand.'
        : "Run `workbench sync` first, or give the brand's id (`workbench brands` lists them).";
    throw new UsageError(`No brands are on this computer yet, so ${shown} cannot be found by name. ${next}`);
  }
  // A brand still on Trakkr first; one removed from it (its cached data kept) only when no other has the name.
  let found = matches(v, live);
  if (!found.hits.length) found = matches(v, known);
  const { hits, whole } = found;
  if (hits.length === 1) {
    const hit = hits[0]!;
    if (!whole) ctx.io.err(`note: --brand ${shown} taken as ${plain(hit.name)}.\n`);
    return hit.id;
  }
  if (hits.length > 1) {
    const which = hits.map((b) => `${plain(b.name)} (${b.id})`).join(', ');
    const sameName = new Set(hits.map((b) => fold(b.name))).size === 1;
    throw new UsageError(`${shown} could be ${hits.length} brands: ${which}. Give the one you mean by its id${sameName ? '' : ', or its whole name'}.`);
  }
  const list = live.length ? live : known;
  const more = list.length > NAMES_SHOWN ? `, and ${list.length - NAMES_SHOWN} more (\`workbench brands\` lists them)` : '';
  const next =
    use === 'sync'
      ? 'A brand not yet on this computer can be synced by its id only (`workbench brands` lists the ids).'
      : 'Run `workbench sync` first if it is new.';
  throw new UsageError(
    `No brand named ${shown} on this computer. Brands: ${list
      .slice(0, NAMES_SHOWN)
      .map((b) => plain(b.name))
      .join(', ')}${more}. ${next}`,
  );
}

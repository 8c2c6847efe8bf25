// `workbench list`: opportunities from the cache (works offline), as a table or
// as JSON with their contacts.
import type { Cache } from '../../core/store/cache';
import { withCache, type Ctx } from '../context';
import { LIST_OPTIONS, listFilter } from '../list-filter';
import { clip, json, plain, table } from '../output';
import { brandOf, parse, positiveInt } from '../options';

export const help = `  list --brand ID [--json] [--status S] [--type T] [--difficulty D] [--domain SUB]
       [--search TEXT] [--include-archived] [--sort priority_score|fit_score|last_seen|title|domain]
       [--limit N]                      opportunities from the cache (works offline)
`;

type Row = ReturnType<Cache['opportunities']['list']>[number];

export async function run(ctx: Ctx, args: string[], asJson: boolean): Promise<void> {
  const { values } = parse(args, LIST_OPTIONS);
  const brandId = brandOf(values.brand);
  const filter = listFilter(values, brandId);
  const limit = values.limit === undefined ? 100_000 : positiveInt(values.limit, '--limit');
  await withCache(ctx, (cache) => {
    const out: Row[] = [];
    for (let offset = 0; out.length < limit; ) {
      const page = cache.opportunities.list(filter, { limit: Math.min(5000, limit - out.length), offset });
      out.push(...page);
      offset += page.length;
      if (page.length === 0) break;
    }
    if (asJson) {
      ctx.io.out(json(asRecords(cache, brandId, out)));
      return;
    }
    if (out.length === 0) {
      const any = cache.opportunities.count({ brandId, includeArchived: true, includeRemoved: true });
      ctx.io.out(any ? 'No opportunities match these filters.\n' : 'The cache holds no opportunities for this brand yet. Run `workbench sync` first.\n');
      return;
    }
    ctx.io.out(
      table([
        ['PRIO', 'FIT', 'STATUS', 'TYPE', 'DIFF', 'CONTACTS', 'DOMAIN', 'TITLE', 'ID'],
        ...out.map((o) => [
          String(o.priority_score ?? ''),
          String(o.fit_score ?? ''),
          (o.status ?? '') + (o.removed_on_server ? ' (removed)' : ''),
          o.opportunity_type === 'publication-gap' ? 'gap' : 'lhf',
          o.difficulty ?? '',
          `${o.contact_count}${o.catch_all_count ? ` (${o.catch_all_count} catch-all)` : ''}`,
          clip(plain(o.domain), 28),
          clip(plain(o.title), 60),
          o.id,
        ]),
      ]),
    );
  });
}

/** The --json shape: the row's fields a script needs, with its contacts. */
function asRecords(cache: Cache, brandId: string, rows: Row[]) {
  const contacts = cache.opportunities.contactsFor(
    brandId,
    rows.map((o) => o.id),
  );
  return rows.map((o) => ({
    id: o.id,
    unique_key: o.unique_key,
    title: o.title,
    domain: o.domain,
    url: o.url,
    opportunity_type: o.opportunity_type,
    status: o.status,
    server_status: o.server_status,
    archived: o.archived,
    removed_on_server: o.removed_on_server,
    priority_score: o.priority_score,
    fit_score: o.fit_score,
    difficulty: o.difficulty,
    last_seen: o.last_seen,
    starred: o.starred,
    note: o.note,
    contacted_at: o.contacted_at,
    exported_at: o.exported_at,
    contacts: (contacts.get(o.id) ?? []).map((c) => ({ email: c.email, catch_all: c.catchAll, valid: c.valid })),
  }));
}

// `workbench list`: opportunities from the cache (works offline), as a table or
// as JSON with their contacts: every match, a page after another (no cap), in
// the list's order, each with the value it is sorted by.
import type { ListItem } from '../../../shared/model';
import type { Cache } from '../../core/store/cache';
import { contactsOf, storedCount } from '../../core/store/opportunity-detail';
import { listPage, prepareList, type After } from '../../core/store/opportunity-list';
import { withCache, type Ctx } from '../context';
import { LIST_OPTIONS, listFilter } from '../list-filter';
import { clip, json, plain, table } from '../output';
import { brandIdOf } from '../brand-name';
import { parse, positiveInt } from '../options';

export const help = `  list --brand BRAND [--json] [--status S] [--stage S] [--type T] [--difficulty D] [--domain SUB]
       [--search TEXT] [--include-archived] [--sort priority_score|fit_score|last_seen|title|domain|best]
       [--limit N]                      opportunities from the cache (works offline; --status is Trakkr's, --stage yours)
`;

/** Pages read at a time. */
const PAGE = 2000;

export async function run(ctx: Ctx, args: string[], asJson: boolean): Promise<void> {
  const { values } = parse(args, LIST_OPTIONS);
  const brandId = await brandIdOf(ctx, values.brand);
  const filter = listFilter(values, brandId);
  const limit = values.limit === undefined ? Number.POSITIVE_INFINITY : positiveInt(values.limit, '--limit');
  await withCache(ctx, (cache) => {
    const q = prepareList(cache.writable, filter, cache.days());
    const out: ListItem[] = [];
    // Each page after the last row of the one before (keyset): every match, however many.
    for (let after: After | undefined; out.length < limit; ) {
      const page = listPage(cache.readable, q, { limit: Math.min(PAGE, limit - out.length), after });
      out.push(...page.items);
      if (!page.next) break;
      after = page.next;
    }
    if (asJson) {
      ctx.io.out(json(asRecords(cache, brandId, out)));
      return;
    }
    if (out.length === 0) {
      ctx.io.out(
        storedCount(cache.readable, brandId)
          ? 'No opportunities match these filters.\n'
          : 'The cache holds no opportunities for this brand yet. Run `workbench sync` first.\n',
      );
      return;
    }
    ctx.io.out(
      table([
        ['PRIO', 'FIT', 'STAGE', 'TRAKKR', 'TYPE', 'DIFF', 'CONTACTS', 'DOMAIN', 'TITLE', 'ID'],
        ...out.map((o) => [
          String(o.priority_score ?? ''),
          String(o.fit_score ?? ''),
          o.stage ?? 'New',
          (o.server_status ?? '') + (o.archived ? ' (archived)' : '') + (o.removed_on_server ? ' (removed)' : ''),
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
function asRecords(cache: Cache, brandId: string, rows: ListItem[]) {
  const contacts = contactsOf(
    cache.readable,
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
    stage: o.stage ?? 'New',
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
    snoozed_until: o.snoozed_until,
    followed_up_at: o.followed_up_at,
    sort_value: o.sort_value,
    contacts: (contacts.get(o.id) ?? []).map((c) => ({ email: c.email, catch_all: c.catchAll, valid: c.valid })),
  }));
}

// A list row, as every read that returns one builds it: the stored fields the
// field table shows (shared/opportunity-fields.ts), the triage fields the
// triage table shows (shared/triage-fields.ts; a mirrored one read from the
// opportunity, the others from its triage `t`), and the flags that need a
// lookup of their own. Reads `temp.pitched`: see prepareBrand.
import type { ListItem } from '../../../shared/model';
import type { FieldTable } from '../../../shared/opportunity-fields';
import { TRIAGE_FIELDS } from '../../../shared/triage-fields';
import type { ReadableDB, WritableDB } from './database';
import { listColumns, listItemMapper, listRowsMapper } from './opportunity-columns';
import { doNotContactCount, pitchedAt } from './opportunity-filter';
import { brandKey } from './brand-keys';
import { identifier, sql, sqlJoin, type Sql } from './sql';
import { TRIAGE_COLUMNS, triageColumn } from './triage';

const LISTED = TRIAGE_FIELDS.filter((f) => 'list' in f && f.list);

/** The triage a row shows, over `o` and its triage `t`: mirrored fields from `o`, a note '' when none. */
const triageColumns: Sql = sqlJoin(
  LISTED.map((f) => {
    const col = triageColumn(f.name, 'mirror' in f && f.mirror ? 'o' : 't');
    return f.kind === 'note' ? sql`COALESCE(${col}, '') AS ${identifier(f.name, TRIAGE_COLUMNS)}` : col;
  }),
  sql`, `,
);

const FLAGS = ['removed_on_server', ...LISTED.filter((f) => f.kind === 'flag').map((f) => f.name)];

interface Items {
  columns: Sql;
  map: (row: Record<string, unknown>) => ListItem;
  /** `map` for every row of one query (a page), read as arrays with their `columns` (`_sort` among them). */
  mapAll: (columns: readonly string[], rows: readonly (readonly unknown[])[]) => ListItem[];
}
const built = new WeakMap<FieldTable, Items>();

/** A row's columns over `o` and `t` (without the pitched date and the do-not-contact count), and the mapping of a row to a ListItem. */
export function itemsOf(fields: FieldTable): Items {
  let it = built.get(fields);
  if (!it) {
    const toItem = listItemMapper<ListItem>(fields, FLAGS);
    const toItems = listRowsMapper<ListItem>(fields, FLAGS);
    it = {
      columns: sql`${listColumns(fields)}, ${triageColumns}, o.removed_on_server`,
      map: (row) => {
        const item = toItem(row);
        item.sort_value = (row._sort as ListItem['sort_value'] | undefined) ?? null;
        return item;
      },
      mapAll: (columns, rows) => {
        const items = toItems(columns, rows);
        const sort = columns.indexOf('_sort');
        for (let i = 0; i < items.length; i++) items[i]!.sort_value = sort < 0 ? null : ((rows[i]![sort] as ListItem['sort_value'] | undefined) ?? null);
        return items;
      },
    };
    built.set(fields, it);
  }
  return it;
}

/** Whether the brand's pitched addresses (`temp.pitched`) and the do-not-contact list hold any: a flag's lookups are skipped while its list is empty. */
export interface FlagSources {
  pitched: boolean;
  blocked: boolean;
}

/**
 * What a row reads of the pitched addresses and the do-not-contact list, for
 * the opportunity at `rowid`: two lookups per row, each left out (its answer
 * known: no date, none blocked) when `from` says its list is empty.
 */
export const rowFlags = (rowid: Sql, from: FlagSources = { pitched: true, blocked: true }): Sql =>
  sql`${from.pitched ? pitchedAt(rowid) : sql`NULL`} AS pitched_at, ${from.blocked ? doNotContactCount(rowid) : sql`0`} AS do_not_contact_count`;

/** Which of the flags' lists hold anything now (after prepareBrand: `temp.pitched` is the brand's). */
export const flagSources = (db: ReadableDB): FlagSources => {
  const r = db.get<{ p: number; b: number }>(sql`SELECT EXISTS (SELECT 1 FROM temp.pitched) AS p, EXISTS (SELECT 1 FROM do_not_contact) AS b`)!;
  return { pitched: r.p === 1, blocked: r.b === 1 };
};

declare const READY: unique symbol;
/** A brand whose derived tables are prepared: rows of it may be read (they say when their addresses were pitched). */
export interface BrandReady {
  readonly [READY]: true;
  readonly brandId: string;
  readonly bk: number;
}

/**
 * The explicit step before reading rows or details of a brand: fills
 * `temp.pitched` (the brand's pitched addresses) when the cache changed since.
 * A write to this connection's temporary tables only; the reads after it never write.
 */
export function prepareBrand(db: WritableDB, brandId: string): BrandReady {
  const bk = brandKey(db, brandId);
  db.derived.pitched(brandId, bk);
  return { brandId, bk } as BrandReady;
}

/** Rows by id, in no order (a key's answer: the rows it changed). */
export function readItems(db: ReadableDB, ready: BrandReady, ids: readonly string[], sortKey: Sql = sql`NULL`): ListItem[] {
  if (ids.length === 0) return [];
  const it = itemsOf(db.fields);
  return db
    .all<Record<string, unknown>>(
      sql`SELECT ${sortKey} AS _sort, ${it.columns}, ${rowFlags(sql`o.rowid`)}
        FROM opportunities o LEFT JOIN triage t ON t.brand_id = ${ready.brandId} AND t.opportunity_id = o.id
        WHERE o.brand_key = ${ready.bk} AND o.id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
    )
    .map(it.map);
}

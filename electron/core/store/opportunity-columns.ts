// The opportunities table as the field table describes it: the sync's column
// lists and values, the list's columns and row mapping, and the search document.
import type { Contact } from '../../../shared/contacts';
import { apiKey, fieldReader, listKey, type ColumnType, type FieldReader, type FieldTable, type OpportunityField } from '../../../shared/opportunity-fields';
import { identifier, slot, sql, sqlJoin, type Sql, type SqlValue } from './sql';

/** Each column type's declaration, as the migrations wrote it (a test holds them to the schema). */
export const COLUMN_DECLARATIONS: Record<ColumnType, { type: 'TEXT' | 'INTEGER'; notNull: boolean; default: string | null }> = {
  key: { type: 'TEXT', notNull: true, default: null },
  text: { type: 'TEXT', notNull: false, default: null },
  label: { type: 'TEXT', notNull: true, default: "''" },
  int: { type: 'INTEGER', notNull: false, default: null },
  count: { type: 'INTEGER', notNull: true, default: '0' },
  flag: { type: 'INTEGER', notNull: true, default: '0' },
};

/** The other columns of `opportunities`: the cache's own book-keeping, not the record's (starred, stage and snoozed_until mirror the triage: shared/triage-fields.ts). */
export const BOOKKEEPING_COLUMNS = [
  'rowid',
  'brand_key',
  'raw_hash',
  'removed_on_server',
  'first_synced_at',
  'changed_at',
  'seen_in_run',
  'starred',
  'stage',
  'snoozed_until',
] as const;

export type StoredField = OpportunityField & { column: ColumnType };

/** A field table worked out once for the sync: its columns and its search columns, in order, with their readers. */
export interface ColumnPlan {
  /** The fields with a column of their own, in table order. */
  stored: StoredField[];
  /** Each stored field's column value in a record. */
  columnValues: ((record: Record<string, unknown>, contacts: readonly Contact[]) => SqlValue)[];
  /** Each full-text column, in the order the table first names it, with the readers of the fields that feed it. */
  search: { column: string; readers: FieldReader[] }[];
}

/** A value as its column type stores it. */
const STORE: Record<ColumnType, (value: unknown) => SqlValue> = {
  key: (v) => v as string,
  text: (v) => (v as string | null) ?? null,
  label: (v) => (v as string | null) ?? '',
  int: (v) => (v as number | null) ?? null,
  count: (v) => v as number,
  flag: (v) => (v === true ? 1 : 0),
};

export function columnPlan(table: FieldTable): ColumnPlan {
  const stored = table.filter((f): f is StoredField => f.column !== undefined);
  const search = new Map<string, FieldReader[]>();
  for (const f of table) if (f.search) search.set(f.search, [...(search.get(f.search) ?? []), fieldReader(f)]);
  return {
    stored,
    columnValues: stored.map((f) => {
      const read = fieldReader(f);
      const store = STORE[f.column];
      return (record, contacts) => store(read(record, contacts));
    }),
    search: [...search].map(([column, readers]) => ({ column, readers })),
  };
}

/** A record's value for each column, in the plan's order. */
export function recordValues(plan: ColumnPlan, record: Record<string, unknown>, contacts: readonly Contact[]): SqlValue[] {
  return plan.columnValues.map((value) => value(record, contacts));
}

const searchText = (v: unknown): string => (typeof v === 'string' ? v : Array.isArray(v) ? v.join(' ') : v == null ? '' : String(v));

/** A record's search document: each full-text column's text, in the plan's order (fields feeding one column joined by a space). */
export function searchValues(plan: ColumnPlan, record: Record<string, unknown>, contacts: readonly Contact[]): string[] {
  return plan.search.map((s) =>
    s.readers.length === 1 ? searchText(s.readers[0]!(record, contacts)) : s.readers.map((read) => searchText(read(record, contacts))).join(' '),
  );
}

/**
 * The sync's statements, prepared once: insert a record (book-keeping, then
 * the plan's values), update one (the plan's values but its id, then
 * book-keeping and its rowid), and add its search document (rowid, then the plan's search values).
 */
export function upsertSql(plan: ColumnPlan): { insert: Sql; update: Sql; search: Sql } {
  const names = plan.stored.map((f) => f.name);
  const comma = sql`, `;
  const col = (name: string) => identifier(name, names);
  const sets = plan.stored.filter((f) => f.column !== 'key').map((f) => sql`${col(f.name)} = ${slot}`);
  const fts = plan.search.map((s) => s.column);
  return {
    insert: sql`INSERT INTO opportunities (brand_key, ${sqlJoin(names.map(col), comma)}, raw_hash, removed_on_server, first_synced_at, changed_at, seen_in_run)
      VALUES (${slot}, ${sqlJoin(
        names.map(() => slot),
        comma,
      )}, ${slot}, 0, ${slot}, ${slot}, ${slot})`,
    update: sql`UPDATE opportunities SET ${sqlJoin(sets, comma)}, raw_hash = ${slot}, removed_on_server = 0, changed_at = ${slot}, seen_in_run = max(seen_in_run, ${slot}) WHERE rowid = ${slot}`,
    search: sql`INSERT INTO opportunity_search (rowid, ${sqlJoin(
      fts.map((c) => identifier(c, fts)),
      comma,
    )}) VALUES (${slot}, ${sqlJoin(
      fts.map(() => slot),
      comma,
    )})`,
  };
}

/** The stored fields the list shows: column, list key, and whether it is a 0/1 flag. */
const listed = (table: FieldTable) =>
  table.flatMap((f) => (f.column === undefined || listKey(f) === null ? [] : [{ column: f.name, key: listKey(f)!, flag: f.column === 'flag' }]));

/** The list item's stored fields, read from `o`: `o.status AS server_status, …`. */
export function listColumns(table: FieldTable): Sql {
  const l = listed(table);
  const columns = l.map((x) => x.column);
  const keys = l.map((x) => x.key);
  return sqlJoin(
    l.map((x) => sql`o.${identifier(x.column, columns)} AS ${identifier(x.key, keys)}`),
    sql`, `,
  );
}

/**
 * listItemMapper for every row of one query at once, read as arrays (they all
 * have the same `columns`; better-sqlite3 makes an array of a row at about
 * half the cost of an object): the columns kept and which are flags worked
 * out once per query, not per row and column, so a page of 200 is mapped in
 * a fraction of the time.
 */
export function listRowsMapper<T>(
  table: FieldTable,
  extraFlags: readonly string[],
): (columns: readonly string[], rows: readonly (readonly unknown[])[]) => T[] {
  const flags = new Set([...listed(table).flatMap((x) => (x.flag ? [x.key] : [])), ...extraFlags]);
  return (columns, rows) => {
    if (rows.length === 0) return [];
    const at = columns.flatMap((k, i) => (k.startsWith('_') ? [] : [i]));
    const keys = at.map((i) => columns[i]!);
    const isFlag = keys.map((k) => flags.has(k));
    const absent = [...flags].filter((k) => !keys.includes(k));
    return rows.map((row) => {
      const item: Record<string, unknown> = {};
      for (let i = 0; i < keys.length; i++) item[keys[i]!] = isFlag[i] ? row[at[i]!] === 1 : row[at[i]!];
      for (const k of absent) item[k] = false;
      return item as T;
    });
  };
}

/** Turns a list row into a list item: 0/1 flags (the table's, and `extraFlags`) to booleans, columns starting with _ left out. */
export function listItemMapper<T>(table: FieldTable, extraFlags: readonly string[]): (row: Record<string, unknown>) => T {
  const flags = [...listed(table).flatMap((x) => (x.flag ? [x.key] : [])), ...extraFlags];
  return (row) => {
    const item: Record<string, unknown> = {};
    for (const k in row) if (!k.startsWith('_')) item[k] = row[k];
    for (const k of flags) item[k] = row[k] === 1;
    return item as T;
  };
}

/** Some fields of one opportunity: the stored ones by name (as the list reads them), the others in a partial record. */
export interface SomeFields {
  stored: Record<string, unknown>;
  /** The other fields asked for, by API key, as the server sent them (read them with fieldReader / pitchOf). */
  record: Record<string, unknown>;
}

/**
 * Some fields of an opportunity, read by a query over `o`: a stored field
 * from its column, any other from the record (`recordOf` its rowid: the JSON
 * text, read in `read`). `read` turns what the query returns for
 * them, in order, into SomeFields; given the opportunity's key, it reads the
 * record once for a run of rows of the same opportunity (one per address) and
 * shares it between them (read-only).
 */
export function someFieldsSql(
  fields: readonly OpportunityField[],
  recordOf: (rowid: number) => string | null,
): {
  select: Sql;
  read: (row: readonly unknown[], key?: number) => SomeFields;
} {
  const stored = fields.filter((f) => f.column);
  const fromRecord = fields.filter((f) => !f.column);
  const names = stored.map((f) => f.name);
  const select = [...stored.map((f) => sql`o.${identifier(f.name, names)}`), ...(fromRecord.length ? [sql`o.rowid`] : [])];
  let last: { key: number; record: Record<string, unknown> } | null = null;
  return {
    select: select.length ? sqlJoin(select, sql`, `) : sql`NULL`,
    read: (row, key) => {
      const out: SomeFields = { stored: {}, record: {} };
      stored.forEach((f, i) => (out.stored[f.name] = f.column === 'flag' ? row[i] === 1 : row[i]));
      if (fromRecord.length) {
        if (key !== undefined && last?.key === key) out.record = last.record;
        else {
          const json = recordOf(row[stored.length] as number);
          const record = json === null ? {} : (JSON.parse(json) as Record<string, unknown>);
          for (const f of fromRecord) if (apiKey(f) in record) out.record[apiKey(f)] = record[apiKey(f)];
          if (key !== undefined) last = { key, record: out.record };
        }
      }
      return out;
    },
  };
}

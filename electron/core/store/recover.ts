// Damage without loss. A cache that fails its integrity check is moved aside
// (never deleted), a fresh one is built, and every row of the user's tables
// that can still be read from the damaged file is carried over: each table is
// read forwards and backwards along its key and along each of its indexes (a
// damaged page stops one walk, not the others), and rows whose keys an index
// still names are fetched one by one. The newest backup of the user's record
// fills in what the damage took. What was recovered and what was not is said
// in plain words; the opportunities themselves come back with the next sync.
import Database from 'better-sqlite3';
import {
  doNotContactRecordSchema,
  draftRecordSchema,
  exportRecordSchema,
  historyRecordSchema,
  snippetRecordSchema,
  triageRecordSchema,
  RECORD_FORMAT,
  RECORD_VERSION,
  TRIAGE_FIELDS,
  type RecordCounts,
  type RecordFile,
} from '../../../shared/user-record';
import { recordCounts } from '../../../shared/user-record';
import { Cache } from './cache';
import { moveAside, type OpenOptions } from './db';
import { identifier, slot, sql, sqlJoin, type Sql } from './sql';

type Row = Record<string, unknown>;

interface TableSpec {
  name: 'triage' | 'do_not_contact' | 'exports' | 'history' | 'drafts' | 'snippets';
  /** The columns a row is found by (history: its rowid). */
  key: string[];
  columns: string[];
}

const TABLES: TableSpec[] = [
  {
    name: 'triage',
    key: ['brand_id', 'opportunity_id'],
    // Every column any version had (a file from before a version lacks its columns: they are left out).
    // (status: the local status before version 8, carried onto the stage when the salvaged record is read.)
    columns: ['brand_id', 'opportunity_id', ...TRIAGE_FIELDS.flatMap((f) => [f.name, f.changedAt]), 'status', 'status_changed_at', 'updated_at'],
  },
  { name: 'do_not_contact', key: ['kind', 'value'], columns: ['kind', 'value', 'note', 'added_at'] },
  // (carried, sent_at: from version 7 on.)
  {
    name: 'exports',
    key: ['id'],
    columns: ['id', 'at', 'brand_id', 'preset', 'file_name', 'rows', 'opportunities', 'marked_exported', 'carried', 'sent_at'],
  },
  { name: 'history', key: ['id'], columns: ['id', 'brand_id', 'opportunity_id', 'at', 'kind', 'detail'] },
  {
    name: 'drafts',
    key: ['brand_id', 'opportunity_id', 'kind'],
    columns: ['brand_id', 'opportunity_id', 'kind', 'subject', 'body', 'base_subject', 'base_body', 'updated_at'],
  },
  { name: 'snippets', key: ['id'], columns: ['id', 'kind', 'name', 'text', 'updated_at'] },
];

export interface TableSalvage {
  /** Rows read whole. */
  rows: Row[];
  /** Rows an index still names that could not be read. */
  unreadable: number;
  /** Some walk of the table stopped at damage: rows may be missing that nothing named. */
  damaged: boolean;
  /** The table could not be read at all (or does not exist in this file). */
  missing: boolean;
}

/** The user's tables by name: the only table names the salvage puts in SQL text. */
const TABLE_NAMES = TABLES.map((t) => t.name);
/** An index name as the damaged file lists it: plain letters, digits and _ only (anything else is not walked). */
const INDEX_NAME = /^[A-Za-z0-9_]+$/;

/** Read every row of `t` that can still be read from a damaged file. */
function salvageTable(db: Database.Database, t: TableSpec): TableSalvage {
  const out: TableSalvage = { rows: [], unreadable: 0, damaged: false, missing: false };
  const table = identifier(t.name, TABLE_NAMES);
  const column = (name: string) => identifier(name, t.columns);
  const names = (q: Sql) => (db.prepare(q.text).all(...q.params) as { name: string }[]).map((c) => c.name);
  let present: string[];
  try {
    present = names(sql`SELECT name FROM pragma_table_info(${t.name})`);
  } catch {
    return { ...out, missing: true, damaged: true };
  }
  if (present.length === 0) return { ...out, missing: true };
  const cols = t.columns.filter((c) => present.includes(c));
  const key = t.key.filter((c) => present.includes(c) || c === 'id');
  const keyOf = (r: Row) => JSON.stringify(key.map((k) => r[k]));
  const comma = sql`, `;
  const select = sqlJoin(cols.map(column), comma);
  const found = new Map<string, Row>();
  const keysNamed = new Map<string, Row>();

  const walk = (q: Sql, into: Map<string, Row>) => {
    try {
      for (const r of db.prepare(q.text).iterate(...q.params) as Iterable<Row>) into.set(keyOf(r), r);
    } catch {
      out.damaged = true;
    }
  };
  const keyCols = sqlJoin(key.map(column), comma);
  const orderDesc = sqlJoin(
    key.map((k) => sql`${column(k)} DESC`),
    comma,
  );
  walk(sql`SELECT ${select} FROM ${table} ORDER BY ${keyCols}`, found);
  walk(sql`SELECT ${select} FROM ${table} ORDER BY ${orderDesc}`, found);
  // The indexes hold the keys too, on pages of their own.
  let indexes: string[] = [];
  try {
    indexes = names(sql`SELECT name FROM pragma_index_list(${t.name})`).filter((i) => INDEX_NAME.test(i));
  } catch {
    out.damaged = true;
  }
  for (const name of indexes) {
    // Named only as the file itself lists it (and of plain characters): never a name from elsewhere.
    let index: Sql;
    try {
      index = identifier(name, indexes);
    } catch {
      continue;
    }
    walk(sql`SELECT ${keyCols} FROM ${table} INDEXED BY ${index} ORDER BY ${keyCols}`, keysNamed);
    walk(sql`SELECT ${keyCols} FROM ${table} INDEXED BY ${index} ORDER BY ${orderDesc}`, keysNamed);
  }
  let lookup: Database.Statement | null = null;
  try {
    const where = sqlJoin(
      key.map((k) => sql`${column(k)} = ${slot}`),
      sql` AND `,
    );
    lookup = db.prepare(sql`SELECT ${select} FROM ${table} WHERE ${where}`.text);
  } catch {
    out.damaged = true;
  }
  for (const [k, named] of keysNamed) {
    if (found.has(k)) continue;
    try {
      const r = lookup?.get(...key.map((c) => named[c])) as Row | undefined;
      if (r) found.set(k, r);
      else out.unreadable++;
    } catch {
      out.unreadable++;
    }
  }
  out.rows = [...found.values()];
  return out;
}

/** What could be read of the user's tables in the file at `path` (opened read-only; never changed). */
export function salvageUserRecord(path: string): { tables: Record<TableSpec['name'], TableSalvage>; openError: string | null } {
  const empty = (): TableSalvage => ({ rows: [], unreadable: 0, damaged: true, missing: true });
  const tables = { triage: empty(), do_not_contact: empty(), exports: empty(), history: empty(), drafts: empty(), snippets: empty() };
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    // A file cut short is refused as a whole unless the schema may be "writable" (nothing is written: the file is read-only here).
    db.unsafeMode(true);
    db.pragma('writable_schema = ON');
    db.pragma('user_version');
  } catch (e) {
    return { tables, openError: (e as Error).message };
  }
  try {
    for (const t of TABLES) tables[t.name] = salvageTable(db, t);
  } finally {
    db.close();
  }
  return { tables, openError: null };
}

const safeJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

/** The salvaged rows as a record (only rows that fit the record's shape; the rest counted as unreadable). */
export function salvagedRecord(tables: Record<TableSpec['name'], TableSalvage>, appVersion: string): { record: RecordFile; misfits: number } {
  let misfits = 0;
  const fit = <T>(rows: Row[], parse: (r: Row) => T | null): T[] =>
    rows.flatMap((r) => {
      const v = parse(r);
      if (v === null) misfits++;
      return v === null ? [] : [v];
    });
  const triage = fit(tables.triage.rows, (r) => {
    // A cache from before version 3 has no per-field times: its last write stands in for each set field.
    const at = (set: boolean, col: string) => (r[col] as string | null | undefined) ?? (set ? (r.updated_at as string) : null);
    const p = triageRecordSchema().safeParse({
      ...r,
      starred: r.starred === 1,
      status_changed_at: at(r.status != null, 'status_changed_at'),
      note_changed_at: at(r.note !== '' && r.note != null, 'note_changed_at'),
      starred_changed_at: at(r.starred === 1, 'starred_changed_at'),
      contacted_changed_at: at(r.contacted_at != null, 'contacted_changed_at'),
      exported_changed_at: at(r.exported_at != null, 'exported_changed_at'),
      contacted_addresses: typeof r.contacted_addresses === 'string' ? safeJson(r.contacted_addresses) : null,
      note: r.note ?? '',
    });
    return p.success ? p.data : null;
  });
  // An export's addresses carried are JSON text in the table, a list in the record (unreadable text: none).
  const withCarriedList = (r: Row): Row => {
    if (typeof r.carried !== 'string') return r;
    try {
      return { ...r, carried: JSON.parse(r.carried) as unknown };
    } catch {
      return { ...r, carried: null };
    }
  };
  const parseWith =
    <T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } }) =>
    (r: Row) => {
      const p = schema.safeParse(r);
      return p.success ? p.data : null;
    };
  return {
    record: {
      format: RECORD_FORMAT,
      version: RECORD_VERSION,
      app_version: appVersion,
      created_at: new Date().toISOString(),
      triage,
      do_not_contact: fit(tables.do_not_contact.rows, parseWith(doNotContactRecordSchema())),
      exports: fit(tables.exports.rows.map(withCarriedList), parseWith(exportRecordSchema())),
      history: fit(tables.history.rows, parseWith(historyRecordSchema())),
      drafts: fit(tables.drafts.rows, parseWith(draftRecordSchema())),
      snippets: fit(tables.snippets.rows, parseWith(snippetRecordSchema())),
    },
    misfits,
  };
}

export interface RecoveryReport {
  /** Where the damaged file now is (kept, never deleted). */
  damagedFile: string;
  /** What came over from the damaged file. */
  recovered: RecordCounts;
  /** Rows the damaged file still named but could not give back, or that no longer made sense. */
  unreadable: number;
  /** Some part of a table could not be walked: rows nothing named may be lost. */
  damagedTables: string[];
  /** The backup that filled in, and what it added. */
  backup: { file: string; created_at: string; added: number } | null;
  /** All of it, in plain words for the window and the CLI. */
  message: string;
}

export interface RecoverOptions extends OpenOptions {
  appVersion: string;
  /** The newest backup of the user's record, if any: merged after the salvage (the later write wins). */
  latestBackup?: () => Promise<{ file: string; record: RecordFile } | null>;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * Move the damaged cache at `path` aside, build a fresh one, carry over what
 * can be read of the user's record, fill in from the newest backup, and say
 * what happened. Returns the fresh cache, open.
 */
export async function recoverDamagedCache(path: string, opts: RecoverOptions): Promise<{ cache: Cache; report: RecoveryReport }> {
  const damagedFile = moveAside(path);
  const salvage = salvageUserRecord(damagedFile);
  const { record, misfits } = salvagedRecord(salvage.tables, opts.appVersion);
  const cache = await Cache.open(path, opts);
  try {
    cache.record.merge(record);
    let backup: RecoveryReport['backup'] = null;
    const latest = await opts.latestBackup?.().catch(() => null);
    if (latest) {
      const r = cache.record.merge(latest.record);
      backup = { file: latest.file, created_at: latest.record.created_at, added: r.triage.added + r.do_not_contact.added + r.exports.added + r.history.added };
    }
    const unreadable = misfits + Object.values(salvage.tables).reduce((a, t) => a + t.unreadable, 0);
    const damagedTables = (Object.entries(salvage.tables) as [string, TableSalvage][])
      .filter(([, t]) => t.damaged && !(t.missing && salvage.openError === null))
      .map(([n]) => n);
    const recovered = recordCounts(record);
    const parts: string[] = [`The cache file was damaged. It was kept aside as ${damagedFile} and a fresh cache was built.`];
    if (salvage.openError) parts.push(`The damaged file could not be read at all (${salvage.openError}).`);
    else
      parts.push(
        `Recovered from it: ${plural(recovered.triage, 'triaged opportunity', 'triaged opportunities')} (${plural(recovered.notes, 'note')}), ` +
          `${plural(recovered.do_not_contact, 'do-not-contact entry', 'do-not-contact entries')}, ${plural(recovered.exports, 'export')} and ${plural(recovered.history, 'history line')}.`,
      );
    if (unreadable > 0) parts.push(`${plural(unreadable, 'row')} of your record could not be read back.`);
    if (damagedTables.length > 0 && !salvage.openError)
      parts.push(`Damage reached ${damagedTables.join(', ')}: rows stored on the damaged pages may be missing.`);
    else if (!salvage.openError && unreadable === 0) parts.push('Every row of your record that the file still held was readable.');
    if (backup) parts.push(`The backup of ${backup.created_at.slice(0, 16).replace('T', ' ')} added ${plural(backup.added, 'more item')}.`);
    parts.push('The opportunities themselves come back with the next sync.');
    return { cache, report: { damagedFile, recovered, unreadable, damagedTables, backup, message: parts.join(' ') } };
  } catch (e) {
    cache.close();
    throw e;
  }
}

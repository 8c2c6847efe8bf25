// The open cache's connection as the store's functions take it, in two types
// that say what a function may do (as Signal Desktop's ReadableDB and
// WritableDB do): a ReadableDB only reads, and refuses at run time any
// statement that would write (better-sqlite3 knows which do); a WritableDB
// also writes, in transactions that take the write lock first, and fills the
// connection's derived tables (derived-tables.ts), the explicit step a read
// that needs them comes after. Both share one cache of prepared statements.
import type { Statement } from 'better-sqlite3';
import { OPPORTUNITY_FIELDS, type FieldTable } from '../../../shared/opportunity-fields';
import type { DB } from './db';
import { DerivedTables } from './derived-tables';
import { writeTransaction } from './lock-wait';
import type { Sql } from './sql';
import { Statements } from './statements';

export interface ReadableDB {
  /** The field table this cache's opportunities table follows (a test may add a field). */
  readonly fields: FieldTable;
  all<T>(q: Sql): T[];
  get<T>(q: Sql): T | undefined;
  /** Rows as arrays of values, in column order (narrow rows, many of them). */
  tuples<T extends unknown[]>(q: Sql): T[];
  /** Rows as arrays, with the names of their columns (a page of wide rows). */
  table<T extends unknown[]>(q: Sql): { columns: string[]; rows: T[] };
  iterate<T>(q: Sql): IterableIterator<T>;
  /** Several reads that see one state of the file (a read transaction). */
  snapshot<T>(fn: () => T): T;
  /** A statement run many times with its values bound at each run (the sync's writes; an export's row per address). */
  prepareOnce(q: Sql): Statement<unknown[], unknown>;
}

export interface WritableDB extends ReadableDB {
  run(q: Sql): { changes: number; lastInsertRowid: number | bigint };
  /** fn in one write transaction that holds the write lock from its start (BEGIN IMMEDIATE); nested calls join the outer one. */
  transaction<T>(fn: () => T): T;
  /** The temporary tables reads use (search matches, the pitched addresses), filled by an explicit step. */
  readonly derived: DerivedTables;
  /** The connection itself, for what the store's functions do not cover yet (classes of other stores). */
  readonly connection: DB;
}

class CacheConnection implements WritableDB {
  readonly statements: Statements;
  readonly derived: DerivedTables;

  constructor(
    readonly connection: DB,
    readonly fields: FieldTable,
    private readonly path: string,
  ) {
    this.statements = new Statements(connection);
    this.derived = new DerivedTables(connection);
  }

  all<T>(q: Sql): T[] {
    return this.statements.all<T>(q);
  }
  get<T>(q: Sql): T | undefined {
    return this.statements.get<T>(q);
  }
  tuples<T extends unknown[]>(q: Sql): T[] {
    return this.statements.tuples<T>(q);
  }
  table<T extends unknown[]>(q: Sql): { columns: string[]; rows: T[] } {
    return this.statements.table<T>(q);
  }
  iterate<T>(q: Sql): IterableIterator<T> {
    return this.statements.iterate<T>(q);
  }
  snapshot<T>(fn: () => T): T {
    return this.connection.inTransaction ? fn() : this.connection.transaction(fn).deferred();
  }
  run(q: Sql): { changes: number; lastInsertRowid: number | bigint } {
    return this.statements.run(q);
  }
  transaction<T>(fn: () => T): T {
    // Another program's lock: said (onLockWait) and waited for, then named in the error (lock-wait.ts).
    return this.connection.inTransaction ? fn() : writeTransaction(this.connection, this.path, fn);
  }
  prepareOnce(q: Sql): Statement<unknown[], unknown> {
    return this.statements.prepareOnce(q);
  }
}

/** A read-only face of a connection: every statement it runs is checked to be one that cannot write. */
class ReadOnly implements ReadableDB {
  constructor(private readonly c: CacheConnection) {}

  get fields(): FieldTable {
    return this.c.fields;
  }

  private check(q: Sql): Sql {
    if (!this.c.statements.isReadonly(q)) throw new RangeError(`A read may not write: ${q.text.slice(0, 120)}`);
    return q;
  }
  all<T>(q: Sql): T[] {
    return this.c.all<T>(this.check(q));
  }
  get<T>(q: Sql): T | undefined {
    return this.c.get<T>(this.check(q));
  }
  tuples<T extends unknown[]>(q: Sql): T[] {
    return this.c.tuples<T>(this.check(q));
  }
  table<T extends unknown[]>(q: Sql): { columns: string[]; rows: T[] } {
    return this.c.table<T>(this.check(q));
  }
  iterate<T>(q: Sql): IterableIterator<T> {
    return this.c.iterate<T>(this.check(q));
  }
  snapshot<T>(fn: () => T): T {
    return this.c.snapshot(fn);
  }
  prepareOnce(q: Sql): Statement<unknown[], unknown> {
    const stmt = this.c.prepareOnce(q);
    if (!stmt.readonly) throw new RangeError(`A read may not write: ${q.text.slice(0, 120)}`);
    return stmt;
  }
}

/** The two faces of one connection (`path`: the cache file, named when another program holds its lock). */
export function faces(db: DB, fields: FieldTable = OPPORTUNITY_FIELDS, path: string = db.name): { readable: ReadableDB; writable: WritableDB } {
  const c = new CacheConnection(db, fields, path);
  return { readable: new ReadOnly(c), writable: c };
}

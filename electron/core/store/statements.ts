// Prepared statements kept by their SQL text: a query composed from fragments
// is compiled once per shape (filters differ in values, which are bound).
import type { Statement } from 'better-sqlite3';
import type { DB } from './db';
import type { Sql } from './sql';

export class Statements {
  private readonly cache = new Map<string, Statement<unknown[], unknown>>();

  constructor(
    private readonly db: DB,
    /** Most statements kept; the least recently used goes first. */
    private readonly max = 200,
  ) {}

  private prepare(text: string): Statement<unknown[], unknown> {
    const hit = this.cache.get(text);
    if (hit) {
      // Most recently used last, so the oldest is first to go.
      this.cache.delete(text);
      this.cache.set(text, hit);
      return hit;
    }
    const stmt = this.db.prepare<unknown[], unknown>(text);
    this.cache.set(text, stmt);
    if (this.cache.size > this.max) this.cache.delete(this.cache.keys().next().value!);
    return stmt;
  }

  /**
   * A statement run many times with different values (the sync's writes):
   * written with `slot`s, its values are bound in order at each run, never in
   * the text. The caller keeps it.
   */
  prepareOnce(q: Sql): Statement<unknown[], unknown> {
    if (q.params.length > 0) throw new Error('A statement prepared once takes its values at each run, not in its text.');
    return this.db.prepare<unknown[], unknown>(q.text);
  }

  /** The statement cannot change the database (better-sqlite3 asks SQLite): what a ReadableDB runs. */
  isReadonly(q: Sql): boolean {
    return this.prepare(q.text).readonly;
  }

  all<T>(q: Sql): T[] {
    return this.prepare(q.text)
      .raw(false)
      .all(...q.params) as T[];
  }

  /** Rows as arrays of values, in column order (narrow rows, many of them). */
  tuples<T extends unknown[]>(q: Sql): T[] {
    return this.prepare(q.text)
      .raw(true)
      .all(...q.params) as T[];
  }

  /** Rows as arrays of values, and the names of their columns in that order (wide rows: an array costs less to make than an object). */
  table<T extends unknown[]>(q: Sql): { columns: string[]; rows: T[] } {
    const stmt = this.prepare(q.text).raw(true);
    return { rows: stmt.all(...q.params) as T[], columns: stmt.columns().map((c) => c.name) };
  }

  get<T>(q: Sql): T | undefined {
    return this.prepare(q.text)
      .raw(false)
      .get(...q.params) as T | undefined;
  }

  /** Rows one at a time. A statement still being iterated (another export) is not shared: a fresh one runs. */
  iterate<T>(q: Sql): IterableIterator<T> {
    let stmt = this.prepare(q.text);
    if (stmt.busy) stmt = this.db.prepare<unknown[], unknown>(q.text);
    return stmt.raw(false).iterate(...q.params) as IterableIterator<T>;
  }

  run(q: Sql): { changes: number; lastInsertRowid: number | bigint } {
    return this.prepare(q.text).run(...q.params);
  }
}

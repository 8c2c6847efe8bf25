// The sql tagged template: values always become ? parameters, fragments nest
// with their parameters in order, names come only from an allow-list.
import { describe, expect, it, vi } from 'vitest';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { identifier, slot, sql, sqlJoin } from '../../../../electron/core/store/sql';
import { Statements } from '../../../../electron/core/store/statements';

describe('sql', () => {
  it('a value is a parameter, never text', () => {
    const evil = "x'; DROP TABLE t; --";
    const q = sql`SELECT * FROM t WHERE a = ${evil} AND b = ${2}`;
    expect(q.text).toBe('SELECT * FROM t WHERE a = ? AND b = ?');
    expect(q.params).toEqual([evil, 2]);
  });

  it('fragments nest and join, their parameters in text order', () => {
    const where = sqlJoin([sql`a = ${1}`, sql`b IN (SELECT value FROM json_each(${'[2]'}))`, sql`c = ${null}`], sql` AND `);
    const q = sql`WITH w AS (SELECT ${'w'}) SELECT ${sql`x, ${'y'}`} FROM t WHERE ${where} LIMIT ${10}`;
    expect(q.text).toBe('WITH w AS (SELECT ?) SELECT x, ? FROM t WHERE a = ? AND b IN (SELECT value FROM json_each(?)) AND c = ? LIMIT ?');
    expect(q.params).toEqual(['w', 'y', 1, '[2]', null, 10]);
    expect(sqlJoin([], sql`, `)).toMatchObject({ text: '', params: [] });
    expect(sqlJoin([sql`${1}`, sql`${2}`], sql` + ${0} + `)).toMatchObject({ text: '? + ? + ?', params: [1, 0, 2] });
  });

  it('runs as written: any text round-trips as a bound value', () => {
    const db = new Database(':memory:');
    fc.assert(
      fc.property(fc.string(), fc.integer(), (s, n) => {
        const q = sql`SELECT ${s} AS s, ${sql`${n} + 1`} AS n`;
        expect(db.prepare(q.text).get(...q.params)).toEqual({ s, n: n + 1 });
      }),
    );
    db.close();
  });

  it('identifiers only from the allow-list, and only plain names', () => {
    expect(sql`SELECT ${identifier('title', ['title', 'domain'])} FROM t`.text).toBe('SELECT title FROM t');
    expect(() => identifier('rowid', ['title'])).toThrow(/allow-list/);
    expect(() => identifier('a; DROP TABLE t', ['a; DROP TABLE t'])).toThrow(/allow-list/);
  });

  it('a slot is a parameter bound at each run of a statement prepared once', () => {
    const q = sql`INSERT INTO t (a, b) VALUES (${slot}, ${slot})`;
    expect(q).toMatchObject({ text: 'INSERT INTO t (a, b) VALUES (?, ?)', params: [] });
  });
});

describe('Statements', () => {
  it('a query of the same shape is prepared once, whatever its values; an iteration in progress is not shared', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1), (2), (3)');
    const statements = new Statements(db);
    const prepare = vi.spyOn(db, 'prepare');
    const q = (n: number) => sql`SELECT a FROM t WHERE a >= ${n} ORDER BY a`;
    expect(statements.all(q(2))).toEqual([{ a: 2 }, { a: 3 }]);
    expect(statements.tuples(q(3))).toEqual([[3]]);
    expect(statements.get(q(1))).toEqual({ a: 1 });
    expect(prepare).toHaveBeenCalledTimes(1);
    const outer = statements.iterate<{ a: number }>(q(1));
    const pairs: number[][] = [];
    for (const { a } of outer) for (const { a: b } of statements.iterate<{ a: number }>(q(3))) pairs.push([a, b]);
    expect(pairs).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    expect(prepare).toHaveBeenCalledTimes(4);
    expect(() => statements.prepareOnce(sql`SELECT ${1}`)).toThrow(/at each run/);
    db.close();
  });
});

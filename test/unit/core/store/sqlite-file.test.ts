// The schema read from a SQLite file's bytes (what the cache's look uses so it
// makes nothing beside the file) says what SQLite itself says: the tables and
// the schema version, across page sizes, text encodings, a schema table that
// spans many pages (interior pages, records that overflow onto others), and
// the app's own cache; what is not SQLite, or is cut short, is an error.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Cache } from '../../../../electron/core/store/cache';
import { readFileSchema } from '../../../../electron/core/store/sqlite-file';
import { tempDir } from '../../../support/tmp';

const tmp = tempDir();
afterAll(() => tmp.cleanup());
const dir = join(tmp.dir, 'files');
mkdirSync(dir);

/** What SQLite says of the same file. */
function asSqliteSays(path: string) {
  const d = new Database(path, { readonly: true });
  try {
    const tables = (d.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name);
    return { version: d.pragma('user_version', { simple: true }) as number, tables };
  } finally {
    d.close();
  }
}

describe('readFileSchema', () => {
  it('the app’s own cache: its tables and version, as SQLite reads them', async () => {
    const path = join(dir, 'cache.db');
    (await Cache.open(path)).close();
    const schema = readFileSchema(path);
    expect(schema).toEqual(asSqliteSays(path));
    expect(schema.tables).toEqual(expect.arrayContaining(['brands', 'opportunities', 'triage', 'sync_runs']));
  });

  it.each([
    [512, 'UTF-8'],
    [1024, 'UTF-16le'],
    [4096, 'UTF-16be'],
    [65536, 'UTF-8'],
  ] as const)('page size %i, %s: 300 tables with long definitions (interior pages, overflow pages)', (pageSize, encoding) => {
    const path = join(dir, `many-${pageSize}-${encoding}.db`);
    const d = new Database(path);
    d.pragma(`page_size = ${pageSize}`);
    d.pragma(`encoding = '${encoding}'`);
    for (let i = 0; i < 300; i++) {
      const name = `t_${i}_${'é'.repeat(i % 7)}`;
      d.exec(`CREATE TABLE "${name}" (a, b_${'x'.repeat(i * 10)}); CREATE INDEX i${i} ON "${name}" (a);`);
    }
    d.pragma('user_version = 77');
    d.close();
    const schema = readFileSchema(path);
    expect(schema.tables).toHaveLength(300);
    expect(schema).toEqual(asSqliteSays(path));
  });

  it('not SQLite, or cut short: an error (the look then asks the open)', () => {
    const text = join(dir, 'text.db');
    writeFileSync(text, 'just some text, long enough to have a header of a hundred bytes '.repeat(4));
    expect(() => readFileSchema(text)).toThrow(/not a SQLite file/);
    const path = join(dir, 'cut.db');
    const d = new Database(path);
    d.pragma('page_size = 512');
    for (let i = 0; i < 100; i++) d.exec(`CREATE TABLE t${i} (a_${'y'.repeat(400)})`);
    d.close();
    truncateSync(path, 512 * 3);
    expect(readFileSync(path).length).toBe(1536);
    expect(() => readFileSchema(path)).toThrow(/page \d+ is not in the file/);
  });
});

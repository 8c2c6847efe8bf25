// Another program's SQLite file given as the cache (`--db`, WORKBENCH_DB, or
// found where the cache should be): refused before anything is written to it
// or beside it, in words naming it, with exit 2 (the user's input); its bytes,
// its journal mode and its folder stay exactly as they were. An empty file
// and the app's own cache (old or new) still open.
import { afterAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Cache } from '../../../electron/core/store/cache';
import { openDatabase } from '../../../electron/core/store/db';
import { runCli } from '../../support/cli-run';
import { tempDir } from '../../support/tmp';
import { count } from '../../support/store';

const tmp = tempDir();
afterAll(() => tmp.cleanup());
let n = 0;

/** Another program's database, alone in a folder of its own, closed. */
function foreign(schema: string, opts: { wal?: boolean } = {}): { path: string; dir: string } {
  const dir = join(tmp.dir, `other-${++n}`);
  mkdirSync(dir);
  const path = join(dir, 'notes.sqlite');
  const d = new Database(path);
  if (opts.wal) d.pragma('journal_mode = WAL');
  d.exec(schema);
  d.close();
  return { path, dir };
}

const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
// No simulator: the refusal comes before any request.
const cli = (args: string[], db: string) => runCli(args, { url: 'http://127.0.0.1:9', db });

const SCHEMAS = {
  'unrelated tables': "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('a note of another app');",
  'a table whose name clashes with the app’s (brands)': "CREATE TABLE brands (name TEXT, founded INTEGER); INSERT INTO brands VALUES ('Acme', 1901);",
  'its own schema version (user_version 3)': 'CREATE TABLE items (x); PRAGMA user_version = 3;',
};

describe.each(Object.entries(SCHEMAS))('another program’s database with %s', (_, schema) => {
  it.each([false, true])('WAL mode %s: every command refuses it (exit 2, named), and the file and its folder are exactly as they were', async (wal) => {
    const { path, dir } = foreign(schema, { wal });
    const before = { bytes: sha(path), files: readdirSync(dir).sort() };
    for (const args of [
      ['list', '--brand', 'a'.repeat(32)],
      ['dnc', 'add', 'ana@outlet.example'],
      ['record', 'export', '--out', join(tmp.dir, `r${n}.json`)],
      ['cache', 'reset'],
      ['cache', 'recover', '--force'],
    ]) {
      const r = await cli(args, path);
      expect(r.code, `${args.join(' ')}: ${r.err}`).toBe(2);
      expect(r.err).toContain(`workbench: ${path} is not an Outreach Workbench cache: it is another program's database`);
      expect(r.err).toContain('Nothing in it was changed.');
      expect(r.err).not.toMatch(/SQLITE|no such column|table .* already exists/);
    }
    expect(sha(path)).toBe(before.bytes);
    // No backups folder, no open marker, no WAL or shared-memory file left beside it.
    expect(readdirSync(dir).sort()).toEqual(before.files);
    const d = new Database(path, { readonly: true });
    expect(d.pragma('journal_mode', { simple: true })).toBe(wal ? 'wal' : 'delete');
    d.close();
  });
});

describe('what still opens', () => {
  it('an empty file (0 bytes) and an empty database become a cache', async () => {
    const dir = join(tmp.dir, 'empty');
    mkdirSync(dir);
    writeFileSync(join(dir, 'zero.db'), '');
    new Database(join(dir, 'blank.db')).close();
    for (const f of ['zero.db', 'blank.db']) {
      const c = await Cache.open(join(dir, f));
      expect(count(c, { brandId: 'a'.repeat(32) })).toBe(0);
      c.close();
    }
  });

  it('the app’s own cache opens again (after a clean close, and with its WAL still beside it)', async () => {
    const path = join(tmp.dir, 'own', 'workbench.db');
    const c = await Cache.open(path);
    c.doNotContact.add('ana@outlet.example');
    c.close();
    const again = await openDatabase(path);
    const writer = new Database(path);
    writer.pragma('wal_autocheckpoint = 0');
    writer.exec("INSERT INTO do_not_contact (kind, value, note, added_at) VALUES ('address', 'bo@outlet.example', '', '2026-01-01')");
    const third = await openDatabase(path);
    expect(third.prepare('SELECT count(*) AS n FROM do_not_contact').get()).toEqual({ n: 2 });
    for (const d of [again, writer, third]) d.close();
  });
});

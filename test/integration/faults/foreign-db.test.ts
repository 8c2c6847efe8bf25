// Another program's SQLite file given as the cache (`--db`, WORKBENCH_DB, or
// found where the cache should be): refused before anything is written to it
// or beside it, in words naming it, with exit 2 (the user's input); its bytes,
// its journal mode and its folder stay exactly as they were. Also when its
// program holds it locked, or crashed mid-write and left its journal (the look
// fails closed), and whatever schema version it carries (Firefox's, Anki's:
// not "a newer Outreach Workbench"). An empty file and the app's own cache
// (old or new) still open, and the look at it makes no file beside it.
import { afterAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Cache } from '../../../electron/core/store/cache';
import { openDatabase } from '../../../electron/core/store/db';
import { refuseForeignDatabase } from '../../../electron/core/store/cache-signature';
import { LATEST_VERSION } from '../../../electron/core/store/migrations';
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
  // Firefox's places.sqlite and many others carry versions far above this app's: another program's all the same.
  [`a schema version above this app's (user_version ${LATEST_VERSION + 70})`]: `CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT); PRAGMA user_version = ${LATEST_VERSION + 70};`,
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

/** The folder's files with their bytes' hashes: what must be exactly as it was. */
const snapshot = (dir: string) => Object.fromEntries(readdirSync(dir).map((f) => [f, sha(join(dir, f))]));

/** Another program's process holding its database: `code` runs with `d` open on `path`; it says "held" and holds until killed. */
async function holding(path: string, code: string): Promise<ChildProcessWithoutNullStreams> {
  const proc = spawn(
    process.execPath,
    [
      '-e',
      `const D = require('better-sqlite3'); const d = new D(${JSON.stringify(path)}); ${code}; process.stdout.write('held'); setInterval(() => {}, 1000);`,
    ],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    proc.stdout.once('data', () => resolve());
    proc.once('exit', (c) => reject(new Error(`the holder exited (${c})`)));
  });
  return proc;
}

async function stop(proc: ChildProcessWithoutNullStreams): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const gone = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGKILL');
  await gone;
}

describe('another program’s database while that program holds it, or after it crashed mid-write (the look fails closed)', () => {
  it('held with BEGIN EXCLUSIVE (a write in progress): refused at once, nothing changed, and the holder’s transaction untouched', async () => {
    const { path, dir } = foreign(SCHEMAS['unrelated tables']);
    const holder = await holding(path, "d.exec('BEGIN EXCLUSIVE'); d.exec(\"INSERT INTO notes (body) VALUES ('being written')\")");
    try {
      const before = snapshot(dir);
      for (const args of [
        ['list', '--brand', 'a'.repeat(32)],
        ['dnc', 'add', 'ana@outlet.example'],
      ]) {
        const r = await cli([...args, '--lock-wait', '2'], path);
        expect(r.code, r.err).toBe(2);
        expect(r.err).toContain(`${path} is not an Outreach Workbench cache`);
      }
      expect(snapshot(dir)).toEqual(before);
    } finally {
      await stop(holder);
    }
    const d = new Database(path, { readonly: true });
    expect(d.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all()).toEqual([{ name: 'notes' }]);
    expect(d.pragma('journal_mode', { simple: true })).toBe('delete');
    d.close();
  });

  it('its tables still in its WAL, held in exclusive locking mode: waited for as said, then cache-locked (exit 5), never taken over; once let go, refused', async () => {
    const dir = join(tmp.dir, 'held-wal');
    mkdirSync(dir);
    const path = join(dir, 'journal.sqlite');
    // Only the WAL holds its tables (no checkpoint yet): the file's own bytes show an empty database.
    const holder = await holding(
      path,
      "d.pragma('journal_mode = WAL'); d.pragma('wal_autocheckpoint = 0'); d.pragma('locking_mode = EXCLUSIVE'); d.exec(\"CREATE TABLE entries (day TEXT, body TEXT); INSERT INTO entries VALUES ('monday', 'dear diary')\")",
    );
    let before: Record<string, string>;
    try {
      before = snapshot(dir);
      const r = await cli(['dnc', 'add', 'ana@outlet.example', '--lock-wait', '1'], path);
      expect(r.code, r.err).toBe(5);
      expect(r.err).toContain(`Waiting for node (process ${holder.pid}), which holds the cache (${path}) so that it cannot be read; up to 1 s…`);
      expect(r.err).toContain(`workbench: The cache file ${path} is in use by another program (node (process ${holder.pid}))`);
      expect(r.err).toContain('Nothing was changed.');
      expect(snapshot(dir)).toEqual(before);
    } finally {
      await stop(holder);
    }
    // Its program gone (its WAL left beside it, as after a crash): now it can be read, and it is another program's.
    const r = await cli(['dnc', 'add', 'ana@outlet.example'], path);
    expect(r.code, r.err).toBe(2);
    expect(r.err).toContain(`${path} is not an Outreach Workbench cache: it is another program's database (tables: entries;`);
    const d = new Database(path, { readonly: true });
    expect(d.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all()).toEqual([{ name: 'entries' }]);
    d.close();
  });

  it('a crash left its rollback journal (a hot journal): refused, the journal neither replayed nor removed, the file’s bytes unchanged', async () => {
    const { path, dir } = foreign(SCHEMAS['unrelated tables']);
    // Its program writes a large transaction (pages spill to the file) and is killed before the commit.
    const killed = spawnSync(process.execPath, [
      '-e',
      `const D = require('better-sqlite3'); const d = new D(${JSON.stringify(path)}); d.pragma('cache_size = 2'); d.exec('BEGIN');
       const s = d.prepare('INSERT INTO notes (body) VALUES (?)'); for (let i = 0; i < 3000; i++) s.run('x'.repeat(300));
       process.kill(process.pid, 'SIGKILL');`,
    ]);
    expect(killed.signal).toBe('SIGKILL');
    expect(existsSync(`${path}-journal`)).toBe(true);
    const before = snapshot(dir);
    for (const args of [
      ['list', '--brand', 'a'.repeat(32)],
      ['dnc', 'add', 'ana@outlet.example'],
      ['cache', 'reset'],
      ['cache', 'recover', '--force'],
    ]) {
      const r = await cli(args, path);
      expect(r.code, `${args.join(' ')}: ${r.err}`).toBe(2);
      expect(r.err).toContain(`${path} is not an Outreach Workbench cache`);
    }
    expect(snapshot(dir)).toEqual(before);
  });
});

describe('the look at the app’s own cache', () => {
  it('makes no file beside it, not even for a moment (so a second command or the app opening it meanwhile keeps its WAL)', async () => {
    const dir = join(tmp.dir, 'own-look');
    const path = join(dir, 'workbench.db');
    (await Cache.open(path)).close();
    expect(readdirSync(dir).sort()).toEqual(['workbench.db']);
    const seen: string[] = [];
    const watcher = watch(dir, (_, name) => seen.push(String(name)));
    try {
      await refuseForeignDatabase(path, LATEST_VERSION);
      // Events come in order: once the marker's is in, any the look caused are in too.
      const marker = join(dir, 'look-done');
      const arrived = new Promise<void>((resolve) => watcher.on('change', (_, name) => String(name) === 'look-done' && resolve()));
      writeFileSync(marker, '');
      await arrived;
    } finally {
      watcher.close();
    }
    expect(seen.filter((n) => n !== 'look-done')).toEqual([]);
  });
});

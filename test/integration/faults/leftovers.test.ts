// What killed or failed writers of an older version (or a power cut) left
// beside the cache and in the backups folder is dealt with at the next start
// of the app or a `workbench` command: only this app's files, recognised by
// name and age (a temporary part whose writer is gone, a description without
// its record, a backup's record without its description that does not read
// whole), never a backup being written this minute, nor anything else in the
// folder. A backup's record that reads whole but lost its description (a kill
// between the two, or a person who copied only the .gz files) gets it back and
// is listed. Nothing is swept beside a file that is not this app's cache.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { RecordKeeping } from '../../../electron/core/app/record-keeping';
import { Cache } from '../../../electron/core/store/cache';
import { runCli } from '../../support/cli-run';
import { tempDir } from '../../support/tmp';
import { setTriage } from '../../support/store';

const tmp = tempDir();
const gone = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
beforeAll(() => expect(gone).toBeGreaterThan(0));
afterAll(() => tmp.cleanup());

/** A data folder with a cache, and in it and its backups folder: what a crash left, what is in progress, and the user's own files. */
async function dataFolder(name: string) {
  const dir = join(tmp.dir, name);
  const backups = join(dir, 'backups');
  mkdirSync(backups, { recursive: true });
  const cache = await Cache.open(join(dir, 'workbench.db'));
  setTriage(cache, 'b'.repeat(32), 'opp-1', { note: 'Pitched Ana on Tuesday' });
  const record = gzipSync(cache.record.readJson('0.0.0-test', new Date('2026-11-18T10:00:00Z')).json);
  cache.close();
  const whole = 'record-2026-11-20T10-00-00-000Z.json.gz';
  const files = {
    [join(dir, `settings.json.partial-${gone}`)]: 'left',
    [join(dir, `settings.json.tmp-${gone}`)]: 'left',
    [join(dir, 'notes-of-mine.txt')]: 'kept',
    [join(backups, whole)]: 'kept',
    [join(backups, `${whole}.meta.json`)]: 'kept',
    // A backup of an older version cut short by a full disk: its record under the final name, no description.
    [join(backups, 'record-2026-11-21T10-00-00-000Z.json.gz')]: 'left',
    // A whole backup whose description is gone (a kill between the two renames; a copy of the .gz files alone).
    [join(backups, 'record-2026-11-18T10-00-00-000Z.json.gz')]: record,
    // A description whose record is gone.
    [join(backups, 'record-2026-11-19T10-00-00-000Z.json.gz.meta.json')]: 'left',
    [join(backups, `record-2026-11-22T10-00-00-000Z.json.gz.partial-${gone}`)]: 'left',
    // Being written right now by another process: a record whose description follows in a moment.
    [join(backups, 'record-2026-11-23T10-00-00-000Z.json.gz')]: 'young',
    [join(backups, 'workbench.db.v3.2026-11-01T00-00-00-000Z.bak')]: 'kept',
    // Another program's temporary files, two days old (past the age at which the pid is no longer asked): not this app's.
    [join(dir, `notes.json.tmp-${gone}`)]: 'theirs',
    [join(dir, `notes.txt.partial-${gone}`)]: 'theirs',
    [join(backups, `settings.json.tmp-${gone}`)]: 'theirs',
  };
  const old = new Date(Date.now() - 10 * 60_000);
  const days = new Date(Date.now() - 2 * 24 * 3_600_000);
  for (const [path, what] of Object.entries(files)) {
    writeFileSync(path, what);
    if (what !== 'young') utimesSync(path, what === 'theirs' ? days : old, what === 'theirs' ? days : old);
  }
  const expected = (folder: string) =>
    Object.entries(files)
      .filter(([p, what]) => what !== 'left' && join(p, '..') === folder)
      .flatMap(([p, what]) => [p.slice(folder.length + 1), ...(what === record ? [`${p.slice(folder.length + 1)}.meta.json`] : [])])
      .sort();
  return { dir, backups, expected };
}

const names = (dir: string) =>
  readdirSync(dir)
    .filter((f) => !f.startsWith('workbench.db') || f.endsWith('.bak'))
    .sort();

describe('at the next start', () => {
  it('of a `workbench` command: the leftovers beside the cache and in backups/ go; the rest stays', async () => {
    const f = await dataFolder('cli');
    const r = await runCli(['backup', 'list'], { url: 'http://127.0.0.1:9', db: join(f.dir, 'workbench.db') });
    expect(r.code, r.err).toBe(0);
    expect(names(f.dir)).toEqual(f.expected(f.dir).concat('backups').sort());
    expect(names(f.backups)).toEqual(f.expected(f.backups));
    // The whole one is a backup again: listed, with what it holds.
    const listed = await runCli(['backup', 'list', '--json'], { url: 'http://127.0.0.1:9', db: join(f.dir, 'workbench.db') });
    expect(JSON.parse(listed.out)).toContainEqual(
      expect.objectContaining({
        id: 'record-2026-11-18T10-00-00-000Z.json.gz',
        created_at: '2026-11-18T10:00:00.000Z',
        counts: expect.objectContaining({ notes: 1 }),
      }),
    );
  });

  it('of a `workbench` command given another program’s database: nothing in its folder is swept', async () => {
    const dir = join(tmp.dir, 'foreign');
    mkdirSync(dir);
    const d = new Database(join(dir, 'notes.sqlite'));
    d.exec('CREATE TABLE notes (body TEXT)');
    d.close();
    const theirs = [`export.csv.partial-${gone}`, `notes.json.partial-${gone}-0a1b2c3d`, `settings.json.tmp-${gone}`];
    const old = new Date(Date.now() - 10 * 60_000);
    for (const n of theirs) {
      writeFileSync(join(dir, n), 'theirs');
      utimesSync(join(dir, n), old, old);
    }
    const r = await runCli(['backup', 'list'], { url: 'http://127.0.0.1:9', db: join(dir, 'notes.sqlite') });
    expect(r.code).toBe(2);
    expect(readdirSync(dir).sort()).toEqual([...theirs, 'notes.sqlite'].sort());
  });

  it('of the app (its record keeping): the same in backups/', async () => {
    const f = await dataFolder('app');
    const cache = await Cache.open(join(f.dir, 'workbench.db'));
    const keeping = new RecordKeeping({
      cache: () => cache,
      files: {} as never,
      appVersion: '0.0.0-test',
      backupsDir: f.backups,
    });
    keeping.backups.dispose();
    cache.close();
    expect(names(f.backups)).toEqual(f.expected(f.backups));
  });
});

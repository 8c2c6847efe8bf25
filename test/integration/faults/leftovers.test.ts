// What killed or failed writers of an older version (or a power cut) left
// beside the cache and in the backups folder is removed at the next start of
// the app or a `workbench` command: only this app's files, recognised by name
// and age (a temporary part whose writer is gone, a backup's record without
// its description or the reverse), never a backup being written this minute,
// nor anything else in the folder.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RecordKeeping } from '../../../electron/core/app/record-keeping';
import { Cache } from '../../../electron/core/store/cache';
import { runCli } from '../../support/cli-run';
import { tempDir } from '../../support/tmp';

const tmp = tempDir();
const gone = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
beforeAll(() => expect(gone).toBeGreaterThan(0));
afterAll(() => tmp.cleanup());

/** A data folder with a cache, and in it and its backups folder: what a crash left, what is in progress, and the user's own files. */
async function dataFolder(name: string) {
  const dir = join(tmp.dir, name);
  const backups = join(dir, 'backups');
  mkdirSync(backups, { recursive: true });
  (await Cache.open(join(dir, 'workbench.db'))).close();
  const whole = 'record-2026-11-20T10-00-00-000Z.json.gz';
  const files = {
    [join(dir, `settings.json.partial-${gone}`)]: 'left',
    [join(dir, `settings.json.tmp-${gone}`)]: 'left',
    [join(dir, 'notes-of-mine.txt')]: 'kept',
    [join(backups, whole)]: 'kept',
    [join(backups, `${whole}.meta.json`)]: 'kept',
    // A backup of an older version cut short by a full disk: its record under the final name, no description.
    [join(backups, 'record-2026-11-21T10-00-00-000Z.json.gz')]: 'left',
    // A description whose record is gone.
    [join(backups, 'record-2026-11-19T10-00-00-000Z.json.gz.meta.json')]: 'left',
    [join(backups, `record-2026-11-22T10-00-00-000Z.json.gz.partial-${gone}`)]: 'left',
    // Being written right now by another process: a record whose description follows in a moment.
    [join(backups, 'record-2026-11-23T10-00-00-000Z.json.gz')]: 'young',
    [join(backups, 'workbench.db.v3.2026-11-01T00-00-00-000Z.bak')]: 'kept',
  };
  const old = new Date(Date.now() - 10 * 60_000);
  for (const [path, what] of Object.entries(files)) {
    writeFileSync(path, what);
    if (what !== 'young') utimesSync(path, old, old);
  }
  const expected = (folder: string) =>
    Object.entries(files)
      .filter(([p, what]) => what !== 'left' && join(p, '..') === folder)
      .map(([p]) => p.slice(folder.length + 1))
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

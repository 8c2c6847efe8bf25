// Opening an old cache says each long step as it starts (the backup before the upgrade, each
// migration, the compaction), so main waits for a slow upgrade instead of killing it at 30 s; and
// each word leaves the process before its step blocks the thread. Real SQLite files, the core's
// real protocol side (serveCore) over an in-memory channel.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { CoreInit, Endpoint, FromCore, ToCore } from '../../../shared/core-link';
import { serveCore } from '../../../electron/core/app/core-server';
import { closeDatabase, migrate, openDatabase, type OpenProgress } from '../../../electron/core/store/db';
import { LATEST_VERSION, MIGRATIONS } from '../../../electron/core/store/migrations';
import { FakeKeychain } from '../../support/fake-platform';
import { tempDir } from '../../support/tmp';

const tmp = tempDir();
afterAll(() => tmp.cleanup());
let n = 0;

/** Every schema version, in order (a number may be skipped: 9 is another change's). */
const VERSIONS = MIGRATIONS.map((m) => m.version);
/** The version `back` steps before the latest. */
const before = (back: number) => VERSIONS[VERSIONS.length - 1 - back]!;

/** A cache file as version `from` left it. */
function oldCache(from: number): string {
  const dir = join(tmp.dir, `case-${n++}`);
  mkdirSync(dir);
  const path = join(dir, 'workbench.db');
  const db = new Database(path);
  migrate(db, 0, from);
  db.close();
  return path;
}

describe('openDatabase tells each long step as it starts', () => {
  it('from version 1: the backup, every migration in order with its count, then the compaction', async () => {
    const path = oldCache(1);
    const seen: OpenProgress[] = [];
    const db = await openDatabase(path, { onProgress: (p) => seen.push(p) });
    closeDatabase(db);
    const steps = MIGRATIONS.filter((m) => m.version > 1);
    expect(seen).toEqual([
      { step: 'backing-up', message: 'Backing up the cache before upgrading it from version 1…' },
      ...steps.map((m, i) => ({ step: 'migrating', message: `Upgrading the cache to version ${m.version} (step ${i + 1} of ${steps.length})…` })),
      { step: 'compacting', message: 'Compacting the upgraded cache…' },
    ]);
  });

  it('each word gets a turn of the event loop before its step runs (a port message waits for one)', async () => {
    const path = oldCache(before(2));
    const versionWhenTurned: number[] = [];
    const db = await openDatabase(path, {
      onProgress: (p) => {
        if (p.step !== 'migrating') return;
        // Runs on the next turn: if it sees the old version, the turn came before the migration.
        setImmediate(() => {
          const reader = new Database(path, { readonly: true });
          versionWhenTurned.push(reader.pragma('user_version', { simple: true }) as number);
          reader.close();
        });
      },
    });
    closeDatabase(db);
    expect(versionWhenTurned).toEqual([before(2), before(1)]);
  });

  it('a fresh cache and a current one say nothing (nothing long to do)', async () => {
    const seen: OpenProgress[] = [];
    const path = join(tmp.dir, `fresh-${n++}`, 'workbench.db');
    closeDatabase(await openDatabase(path, { onProgress: (p) => seen.push(p) }));
    closeDatabase(await openDatabase(path, { onProgress: (p) => seen.push(p) }));
    expect(seen).toEqual([]);
  });
});

describe('the core process says so to main before it is ready', () => {
  it("serveCore posts each step as a 'progress' message, then 'ready'", async () => {
    const path = oldCache(before(1));
    const posted: FromCore[] = [];
    const link: Endpoint<ToCore, FromCore> = { post: (m) => posted.push(structuredClone(m)), onMessage: () => {} };
    const init: CoreInit = { userDataDir: join(path, '..'), appName: 'Outreach Workbench', appVersion: '1.0.0', platformName: 'linux', demo: false };
    await serveCore(link, init, { keychain: new FakeKeychain(), exit: () => {} });
    // The upgrade to version 13 writes its two tables packed and gives their old pages back at once: no compaction step.
    expect(posted.map((m) => (m.type === 'progress' ? m.progress.step : m.type))).toEqual(['backing-up', 'migrating', 'ready']);
    expect(posted[1]).toEqual({
      type: 'progress',
      progress: { step: 'migrating', message: `Upgrading the cache to version ${LATEST_VERSION} (step 1 of 1)…` },
    });
  });
});

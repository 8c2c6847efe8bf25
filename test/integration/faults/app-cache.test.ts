// The app's side of the cache under faults, as the window meets them through
// the contract: a write on a full disk or a read-only cache comes back as
// disk-full or read-only in plain words naming the file (never "Something went
// wrong: database or disk is full"), and a write that finds another program
// holding the cache says so in the window while it waits (the core's own
// process, its event leaving while the core waits), then goes through once
// that program lets go; past the wait, the holder is named.
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { AppService } from '../../../electron/core/app/service';
import { createHandlers, dispatch } from '../../../electron/core/app/handlers';
import { withCacheCare } from '../../../electron/core/app/cache-calls';
import { setLockWait } from '../../../electron/core/store/lock-wait';
import { CoreLink } from '../../../shared/core-link';
import type { EventName } from '../../../shared/contract';
import { forkNodeCore } from '../../host/core-process';
import { FakeKeychain, FakePlatform, quietHost } from '../../support/fake-platform';
import { holdLock } from '../../support/lock-holder';
import { tempDir } from '../../support/tmp';

const tmp = tempDir();
afterAll(() => tmp.cleanup());
let n = 0;

async function app() {
  const dir = join(tmp.dir, `app-${++n}`);
  const platform = new FakePlatform();
  const s = await AppService.create({
    userDataDir: dir,
    platform,
    keychain: new FakeKeychain(),
    appName: 'Outreach Workbench',
    appVersion: '0.1.0',
    platformName: 'linux',
  });
  // The handlers as the core process serves them (core-server.ts).
  return { s, platform, handlers: withCacheCare(createHandlers(s), () => s.cache), path: join(dir, 'workbench.db') };
}

describe('a write the window asks for, on a cache that cannot take it', () => {
  it('a full disk: disk-full, naming the cache and what to do; the entries before it kept', async () => {
    const { s, handlers, path } = await app();
    try {
      // The disk holds what the cache has now and not one page more (SQLite's own "database or disk is full").
      s.cache.db.pragma(`max_page_count = ${s.cache.db.pragma('page_count', { simple: true }) as number}`);
      let failure: unknown = null;
      let added = 0;
      for (let i = 0; i < 500 && !failure; i++) {
        const r = await dispatch(handlers, 'dnc:add', [{ value: `person${i}@outlet.example`, note: 'n'.repeat(900) }]);
        if (r.ok) added++;
        else failure = r.error;
      }
      expect(failure).toEqual({
        kind: 'disk-full',
        message: `The disk that holds the cache (${path}) is full, so the change was not saved (nothing half-done was kept). Free some space and try again.`,
      });
      expect(s.cache.doNotContact.list()).toHaveLength(added);
    } finally {
      await s.close();
    }
  });

  it('a read-only cache: read-only, naming the file and its folder', async () => {
    const { s, handlers, path } = await app();
    try {
      s.cache.db.pragma('query_only = ON');
      const r = await dispatch(handlers, 'dnc:add', [{ value: 'ana@outlet.example' }]);
      expect(r).toEqual({
        ok: false,
        error: {
          kind: 'read-only',
          message: `The cache file ${path} is read-only, or on a read-only disk, so the change was not saved. Make the file and the folder ${join(path, '..')} writable and try again.`,
        },
      });
    } finally {
      s.cache.db.pragma('query_only = OFF');
      await s.close();
    }
  });
});

const holder = (db: string) => holdLock(db);

describe('another program holding the cache while the window writes (the core in its own process)', () => {
  it('the window is told whom the write waits for while it waits; once that program lets go, the write goes through', async () => {
    const dir = join(tmp.dir, 'core-wait');
    const events: { event: EventName; payload: unknown }[] = [];
    let told!: () => void;
    const waiting = new Promise<void>((r) => (told = r));
    const core = new CoreLink(forkNodeCore({ userDataDir: dir, appName: 'Outreach Workbench', appVersion: '0.1.0', platformName: 'linux', demo: false }), {
      host: quietHost,
      onEvent: (event, payload) => {
        events.push({ event, payload });
        if (event === 'cache:waiting') told();
      },
    });
    expect(await core.ready()).toBeNull();
    const db = join(dir, 'workbench.db');
    const h = await holder(db);
    try {
      const call = core.call('dnc:add', [{ value: 'waited@outlet.example' }]);
      // The holder lets go only once the window has heard of the wait: the event left the core while it waited.
      await waiting;
      await h.release();
      expect(await call).toMatchObject({ ok: true, value: { value: 'waited@outlet.example' } });
      expect(events.filter((e) => e.event === 'cache:waiting')).toEqual([
        {
          event: 'cache:waiting',
          payload: { message: `Waiting for node lock-holder-child.ts (process ${h.proc.pid}), which is writing to the cache (${db}); up to 30 s…` },
        },
      ]);
    } finally {
      await h.release();
      await core.shutdown(3_000);
    }
  }, 30_000);

  it('past the wait: cache-locked naming the holder, and nothing written (the app’s wait shortened to 1 s here)', async () => {
    const { s, handlers, path, platform } = await app();
    setLockWait(s.cache.db, { lockWaitMs: 1000 });
    const h = await holder(path);
    try {
      const r = await dispatch(handlers, 'dnc:add', [{ value: 'never@outlet.example' }]);
      expect(r).toMatchObject({
        ok: false,
        error: {
          kind: 'cache-locked',
          message: expect.stringContaining(`The cache file ${path} is being written by node lock-holder-child.ts (process ${h.proc.pid}); this waited 1 s`),
        },
      });
      expect(platform.events.filter((e) => e.event === 'cache:waiting')).toEqual([
        {
          event: 'cache:waiting',
          payload: { message: `Waiting for node lock-holder-child.ts (process ${h.proc.pid}), which is writing to the cache (${path}); up to 1 s…` },
        },
      ]);
      // A read is answered while another program writes.
      expect(await dispatch(handlers, 'dnc:list', [])).toMatchObject({ ok: true });
    } finally {
      await h.release();
    }
    expect(s.cache.doNotContact.list().map((d) => d.value)).not.toContain('never@outlet.example');
    await s.close();
  });
});

describe('a write transaction (Cache.tx: a sync page, an import, "I sent these")', () => {
  it('names the failure itself: a full disk is disk-full naming the cache, for the CLI and the app alike', async () => {
    const { s, path } = await app();
    try {
      s.cache.db.pragma(`max_page_count = ${s.cache.db.pragma('page_count', { simple: true }) as number}`);
      let failure: unknown = null;
      try {
        s.cache.tx(() => {
          for (let i = 0; i < 500; i++) s.cache.doNotContact.add(`person${i}@outlet.example`, 'n'.repeat(900));
        });
      } catch (e) {
        failure = e;
      }
      expect(failure).toMatchObject({ kind: 'disk-full', path, message: expect.stringContaining(`The disk that holds the cache (${path}) is full`) });
      // The transaction was rolled back whole.
      expect(s.cache.doNotContact.list()).toEqual([]);
    } finally {
      await s.close();
    }
  });
});

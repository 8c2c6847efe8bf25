// A cache that cannot open says why, with a kind the app's start-up dialog acts
// on: from a newer version, damaged, held by another process, a folder that
// cannot be written, a full disk. Real SQLite files and real processes; "start
// over" keeps the old file.
import { afterAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { CacheError, classifyOpenError, headerSchemaVersion, moveAside, openDatabase } from '../../../electron/core/store/db';
import { Cache } from '../../../electron/core/store/cache';
import { LATEST_VERSION } from '../../../electron/core/store/migrations';
import { CoreLink } from '../../../shared/core-link';
import { forkNodeCore } from '../../host/core-process';
import { AppService } from '../../../electron/core/app/service';
import { DEMO_KEY, startSimulator } from '../../../electron/simulator/server';
import { FakeKeychain, FakePlatform, quietHost } from '../../support/fake-platform';
import { tempDir } from '../../support/tmp';
import { count, detail, list, setTriage } from '../../support/store';
import { caller } from '../../support/call';
import { triageRecord } from '../../../electron/core/store/triage';
import { appState } from '../../../electron/core/app/app-state';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

let n = 0;
const freshDir = () => {
  const dir = join(tmp.dir, `case-${++n}`);
  mkdirSync(dir);
  return dir;
};

/** The kind openDatabase refuses `path` with, or 'opened'. */
async function kindOf(path: string): Promise<string> {
  try {
    const db = await openDatabase(path);
    db.close();
    return 'opened';
  } catch (e) {
    if (e instanceof CacheError) return e.kind;
    throw e;
  }
}

/** A real cache with the current schema and a row of its own, closed. */
async function realCache(path: string): Promise<void> {
  const db = await openDatabase(path);
  db.exec("CREATE TABLE probe (x TEXT) STRICT; INSERT INTO probe VALUES ('a')");
  db.close();
}

/** The tables a newer app's cache keeps from the first version (without them a file is another program's, whatever its version). */
const KEPT_TABLES = ['brands', 'brand_keys', 'opportunities', 'triage', 'sync_runs'].map((t) => `CREATE TABLE ${t} (x);`).join(' ');

describe('written by a newer version: newer, and left untouched', () => {
  it('user_version above this app: refused before anything in the file changes', async () => {
    const path = join(freshDir(), 'workbench.db');
    const d = new Database(path);
    d.exec(`${KEPT_TABLES} CREATE TABLE t (x)`);
    d.pragma(`user_version = ${LATEST_VERSION + 7}`);
    d.close();
    const before = readFileSync(path);
    const err = await openDatabase(path).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CacheError);
    expect(err).toMatchObject({ kind: 'cache-newer', path, message: expect.stringContaining(`schema ${LATEST_VERSION + 7}`) });
    // Not switched to WAL, not migrated, no -wal or -shm beside it.
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(readdirSync(join(path, '..'))).toEqual(['workbench.db']);
    expect(headerSchemaVersion(path)).toBe(LATEST_VERSION + 7);
  });

  it('a schema this SQLite cannot parse (a newer app may use newer syntax) is newer, not damaged', async () => {
    const path = join(freshDir(), 'workbench.db');
    const d = new Database(path);
    d.exec(`${KEPT_TABLES} CREATE TABLE future (aa, b)`);
    d.pragma(`user_version = ${LATEST_VERSION + 1}`);
    d.close();
    // Same length, so the record stays well-formed: only the SQL is new to this SQLite.
    const bytes = readFileSync(path);
    Buffer.from('CREATE TABLE future (a) NEW').copy(bytes, bytes.indexOf('CREATE TABLE future (aa, b)'));
    writeFileSync(path, bytes);
    expect(() => new Database(path).pragma('quick_check')).toThrow(/malformed database schema/);
    expect(await kindOf(path)).toBe('cache-newer');
  });

  it('a newer version still in the WAL (not yet checkpointed into the file) is newer too', async () => {
    const dir = freshDir();
    const writer = new Database(join(dir, 'live.db'));
    writer.pragma('journal_mode = WAL');
    writer.pragma('wal_autocheckpoint = 0');
    writer.exec(`${KEPT_TABLES} CREATE TABLE t (x)`);
    writer.pragma(`user_version = ${LATEST_VERSION + 3}`);
    // A copy taken while the writer is open: the version is only in the WAL.
    copyFileSync(join(dir, 'live.db'), join(dir, 'workbench.db'));
    copyFileSync(join(dir, 'live.db-wal'), join(dir, 'workbench.db-wal'));
    writer.close();
    expect(headerSchemaVersion(join(dir, 'workbench.db'))).not.toBe(LATEST_VERSION + 3);
    expect(await kindOf(join(dir, 'workbench.db'))).toBe('cache-newer');
  });
});

describe('damaged: corrupt', () => {
  it('a file of garbage', async () => {
    const path = join(freshDir(), 'workbench.db');
    writeFileSync(path, Buffer.alloc(8192, 7));
    expect(await kindOf(path)).toBe('cache-damaged');
  });

  it.each([0.25, 0.5, 0.9])('a real cache truncated to %s of its size', async (fraction) => {
    const path = join(freshDir(), 'workbench.db');
    await realCache(path);
    truncateSync(path, Math.floor((statSync(path).size * fraction) / 4096) * 4096);
    const err = await openDatabase(path).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'cache-damaged', message: expect.stringContaining('workbench cache recover') });
  });

  it('a real cache whose header survived but whose pages are overwritten', async () => {
    const path = join(freshDir(), 'workbench.db');
    await realCache(path);
    const bytes = readFileSync(path);
    bytes.fill(0xa5, 4096 * 2, 4096 * 6);
    writeFileSync(path, bytes);
    expect(await kindOf(path)).toBe('cache-damaged');
  });
});

describe('held by another process: locked', () => {
  it('a process holding the cache with locking_mode=EXCLUSIVE after a write: locked within the busy timeout, then fine once it lets go', async () => {
    const path = join(freshDir(), 'workbench.db');
    await realCache(path);
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const D = require('better-sqlite3');
const d = new D(${JSON.stringify(path)});
d.pragma('locking_mode = EXCLUSIVE');
d.exec("INSERT INTO probe VALUES ('held')");
process.stdout.write('held');
setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await new Promise<void>((resolve, reject) => {
        holder.stdout.once('data', () => resolve());
        holder.once('exit', (code) => reject(new Error(`the holder exited (${code})`)));
      });
      const t0 = Date.now();
      // The lock wait (30 s by default; the CLI's --lock-wait) given as 5 s: it waits that long for a short write to finish, and no longer.
      const err = await openDatabase(path, { lockWaitMs: 5000 }).catch((e: unknown) => e);
      const waited = Date.now() - t0;
      expect(err).toMatchObject({ kind: 'cache-locked', message: expect.stringContaining('in use by another program') });
      expect(waited).toBeLessThan(12_000);
    } finally {
      holder.kill('SIGKILL');
      await new Promise((r) => holder.once('exit', r));
    }
    expect(await kindOf(path)).toBe('opened');
  }, 30_000);
});

describe('a folder or file that cannot be written: not-writable', () => {
  // Tests run as root here, and chmod does not stop root: these paths fail for every user.
  it('the folder cannot be made because a parent is a regular file (ENOTDIR)', async () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'plainfile'), 'x');
    const err = await openDatabase(join(dir, 'plainfile', 'sub', 'workbench.db')).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'permission', message: expect.stringContaining('ENOTDIR') });
  });

  it('the folder path itself is a regular file (EEXIST)', async () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'Outreach Workbench'), 'x');
    expect(await kindOf(join(dir, 'Outreach Workbench', 'workbench.db'))).toBe('permission');
  });

  it('the cache path is a folder (SQLITE_CANTOPEN)', async () => {
    const dir = freshDir();
    mkdirSync(join(dir, 'workbench.db'));
    const err = await openDatabase(join(dir, 'workbench.db')).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'permission', message: expect.stringContaining('SQLITE_CANTOPEN') });
  });

  it.skipIf(process.platform === 'win32' || process.getuid?.() === 0)('a folder without write permission (as a normal user)', async () => {
    const { chmodSync } = await import('node:fs');
    const dir = freshDir();
    chmodSync(dir, 0o500);
    try {
      expect(await kindOf(join(dir, 'workbench.db'))).toBe('permission');
    } finally {
      chmodSync(dir, 0o700);
    }
  });
});

describe('a full disk: disk-full', () => {
  it('told apart by its error code (SQLITE_FULL, ENOSPC, EDQUOT, a WAL index that cannot grow)', () => {
    const err = (code: string, message = 'x') => Object.assign(new Error(message), { code });
    for (const code of ['SQLITE_FULL', 'ENOSPC', 'EDQUOT', 'SQLITE_IOERR_SHMSIZE'])
      expect(classifyOpenError(err(code), '/x/workbench.db')?.kind, code).toBe('disk-full');
    expect(classifyOpenError(err('SQLITE_FULL', 'database or disk is full'), '/x/workbench.db')?.message).toMatch(/disk that holds \/x\/workbench\.db is full/);
  });

  it('for real, on a 64 KB tmpfs (where this machine lets the test mount one: root on Linux)', async (ctx) => {
    const dir = freshDir();
    const canMount =
      process.platform === 'linux' && process.getuid?.() === 0 && spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir]).status === 0;
    if (!canMount) return ctx.skip('cannot mount a tmpfs here; the error-code test above covers the mapping');
    try {
      // A fresh cache's schema is about 130 KB: the migration cannot be written.
      const err = await openDatabase(join(dir, 'workbench.db')).catch((e: unknown) => e);
      expect(err).toMatchObject({ kind: 'disk-full' });
    } finally {
      spawnSync('umount', ['-l', dir]);
    }
  });
});

describe('the classifier', () => {
  const kind = (code: string | undefined, message = 'x') =>
    classifyOpenError(Object.assign(new Error(message), code ? { code } : {}), '/x/workbench.db')?.kind ?? null;
  it.each([
    ['SQLITE_BUSY', 'cache-locked'],
    ['SQLITE_BUSY_SNAPSHOT', 'cache-locked'],
    ['SQLITE_LOCKED', 'cache-locked'],
    ['SQLITE_READONLY', 'read-only'],
    ['SQLITE_READONLY_DBMOVED', 'read-only'],
    ['SQLITE_CANTOPEN', 'permission'],
    ['SQLITE_PERM', 'permission'],
    ['EACCES', 'permission'],
    ['EPERM', 'permission'],
    ['EROFS', 'read-only'],
    ['EISDIR', 'permission'],
    ['SQLITE_CORRUPT', 'cache-damaged'],
    ['SQLITE_CORRUPT_INDEX', 'cache-damaged'],
    ['SQLITE_NOTADB', 'cache-damaged'],
    ['SQLITE_IOERR', 'io-error'],
    ['SQLITE_IOERR_READ', 'io-error'],
    ['SQLITE_IOERR_SHORT_READ', 'io-error'],
    ['SQLITE_IOERR_WRITE', 'io-error'],
    ['SQLITE_ERROR', null],
    ['SQLITE_BUSYNESS', null],
    ['ENOENT', null],
  ] as const)('%s -> %s', (code, expected) => {
    expect(kind(code)).toBe(expected);
  });

  it("without a code, falls back to SQLite's words; anything else is not a cache failure", () => {
    expect(kind(undefined, 'database is locked')).toBe('cache-locked');
    expect(kind(undefined, 'file is not a database')).toBe('cache-damaged');
    expect(kind(undefined, 'something else')).toBeNull();
    expect(classifyOpenError(null, '/x/workbench.db')).toBeNull();
    expect(classifyOpenError('a string', '/x/workbench.db')).toBeNull();
  });
});

describe('moving a cache aside (Start over, `workbench cache reset`)', () => {
  it('renames the file with its WAL and shared memory, keeps every byte, and frees the name for a fresh cache', async () => {
    const dir = freshDir();
    const path = join(dir, 'workbench.db');
    const live = await openDatabase(path);
    live.pragma('wal_autocheckpoint = 0');
    live.exec("CREATE TABLE probe (x TEXT) STRICT; INSERT INTO probe VALUES ('kept')");
    // Copy the three files while the WAL holds the row, as after a crash.
    const crashed = join(dir, 'crashed.db');
    for (const s of ['', '-wal', '-shm']) copyFileSync(path + s, crashed + s);
    live.close();

    const aside = moveAside(crashed);
    expect(aside.startsWith(crashed + '.damaged-')).toBe(true);
    for (const s of ['', '-wal', '-shm']) {
      expect(existsSync(crashed + s), s).toBe(false);
      expect(existsSync(aside + s), s).toBe(true);
    }
    // The moved copy still has the row that was only in its WAL.
    const old = new Database(aside, { readonly: true });
    expect(old.prepare('SELECT x FROM probe').all()).toEqual([{ x: 'kept' }]);
    old.close();
    // And a fresh cache opens under the old name.
    const fresh = await openDatabase(crashed);
    expect(fresh.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name = 'probe'").get()).toEqual({ n: 0 });
    fresh.close();
    // Twice in the same millisecond never overwrites the first.
    const again = moveAside(crashed);
    expect(again).not.toBe(aside);
    expect(existsSync(aside)).toBe(true);
  });

  it('a damaged cache, through the core process: rebuilt at once, the old file kept aside, and the window told what was recovered', async () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'workbench.db'), Buffer.alloc(8192, 7));
    const init = { userDataDir: dir, appName: 'Outreach Workbench', appVersion: '0.1.0', platformName: 'linux', demo: false };
    const core = new CoreLink(forkNodeCore(init), { host: quietHost, onEvent: () => {} });
    expect(await core.ready()).toBeNull();
    const state = (await core.call('app:state', [])) as { ok: true; value: { recovery: { message: string } | null } };
    expect(state.value.recovery?.message).toMatch(
      /^The cache file was damaged\. It was kept aside as .+ and a fresh cache was built\. The damaged file could not be read at all/,
    );
    // Shown once: dismissed, it is gone.
    expect(await core.call('record:dismiss-recovery', [])).toEqual({ ok: true, value: { dismissed: true } });
    expect(((await core.call('app:state', [])) as typeof state).value.recovery).toBeNull();
    await core.shutdown(3_000);
    const kept = readdirSync(dir).filter((f) => f.startsWith('workbench.db.damaged-') && !f.endsWith('-wal') && !f.endsWith('-shm'));
    expect(kept).toHaveLength(1);
    expect(readFileSync(join(dir, kept[0]!)).equals(Buffer.alloc(8192, 7))).toBe(true);
    expect(existsSync(join(dir, 'workbench.db'))).toBe(true);
  }, 30_000);

  it('a damaged cache rebuilt at open syncs the rest again at launch, even with sync on launch turned off; a sound cache does not', async () => {
    const sim = await startSimulator({ seed: 15, opportunities: 120, otherBrandOpportunities: 0, brands: 1, citationsPerBrand: 2 });
    const dir = freshDir();
    const keychain = new FakeKeychain();
    keychain.value = DEMO_KEY;
    const open = async (platform = new FakePlatform()) => ({
      platform,
      s: await AppService.create({
        userDataDir: dir,
        platform,
        keychain,
        appName: 'Outreach Workbench',
        appVersion: '0.1.0',
        platformName: 'linux',
        integrityCheckDelayMs: 60_000,
      }),
    });
    try {
      // A cache with the brand's opportunities and a note, the user having turned sync on launch off.
      const first = await open();
      first.s.setSettings({ baseUrl: sim.url, requestsPerMinute: 10_000, syncOnLaunch: false });
      first.s.parts.sync.start({});
      await first.s.settle();
      const brand = first.s.cache.brands.list()[0]!.id;
      const listed = count(first.s.cache, { brandId: brand });
      expect(listed).toBeGreaterThan(100);
      const noted = list(first.s.cache, { brandId: brand }, { limit: 1 })[0]!.id;
      await caller(first.s)('triage:apply', { brandId: brand, ids: [noted], action: { do: 'note', text: 'kept in a backup' } });
      await first.s.close();
      // Damaged while the app was closed: the next open rebuilds it with no opportunities in it.
      const path = join(dir, 'workbench.db');
      for (const suffix of ['-wal', '-shm']) if (existsSync(path + suffix)) writeFileSync(path + suffix, '');
      writeFileSync(path, Buffer.alloc(8192, 7));
      const { s, platform } = await open();
      expect(s.parts.settings.get().syncOnLaunch).toBe(false);
      expect((await appState(s.parts)).recovery?.message).toMatch(/^The cache file was damaged\./);
      expect(count(s.cache, { brandId: brand })).toBe(0);
      expect(s.parts.sync.state().running).toBe(false);
      await s.launch();
      expect(s.parts.sync.state().running).toBe(true);
      const done = await platform.waitFor('sync:done');
      expect(done.summary.error).toBeNull();
      await s.settle();
      expect(count(s.cache, { brandId: brand })).toBe(listed);
      // The note came back from the backup written at quit, and stays on the synced opportunity.
      expect(detail(s.cache, brand, noted)?.item.note).toBe('kept in a backup');
      await s.close();
      // Opened sound again: sync on launch is off, so launch leaves the cache as it is.
      const again = await open();
      await again.s.launch();
      expect(again.s.parts.sync.state().running).toBe(false);
      expect(count(again.s.cache, { brandId: brand })).toBe(listed);
      await again.s.close();
    } finally {
      await sim.close();
    }
  }, 30_000);

  it("starting over (the dialog's choice), through the core process: the old file kept aside, its triage and notes carried over", async () => {
    const dir = freshDir();
    const brand = 'c'.repeat(32);
    const old = await Cache.open(join(dir, 'workbench.db'));
    setTriage(old, brand, 'opp-1', { stage: 'Won', note: 'Pitched Ana on Tuesday' });
    old.doNotContact.add('press@outlet.example');
    old.close();
    const init = { userDataDir: dir, appName: 'Outreach Workbench', appVersion: '0.1.0', platformName: 'linux', demo: false, startOver: true };
    const core = new CoreLink(forkNodeCore(init), { host: quietHost, onEvent: () => {} });
    expect(await core.ready()).toBeNull();
    expect(await core.call('dnc:list', [])).toMatchObject({ ok: true, value: [{ value: 'press@outlet.example' }] });
    await core.shutdown(3_000);
    expect(readdirSync(dir).filter((f) => /^workbench\.db\.damaged-[^.]+$/.test(f.replace(/-(wal|shm)$/, '')))).not.toHaveLength(0);
    const fresh = await Cache.open(join(dir, 'workbench.db'));
    expect(triageRecord(fresh.readable, brand, 'opp-1')).toMatchObject({ stage: 'Won', note: 'Pitched Ana on Tuesday' });
    fresh.close();
  }, 30_000);
});

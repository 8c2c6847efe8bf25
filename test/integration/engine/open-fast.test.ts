// Opening fast: the full integrity check (quick_check, about a second at 100k
// opportunities) runs at open only after an unclean shutdown, told by a marker
// each writing process leaves beside the cache and removes at a clean close;
// the app runs Cache.checkIntegrity later. Real files and real processes: a
// child killed with SIGKILL is the crash, a child still running is the `workbench`
// command beside the app.
import { afterAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { uptime } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { Cache } from '../../../electron/core/store/cache';
import { CacheError, moveAside, openMarkerPath } from '../../../electron/core/store/db';
import { tempDir } from '../../support/tmp';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const cacheModule = join(root, 'electron/core/store/cache.ts');
const tmp = tempDir();
afterAll(() => tmp.cleanup());

let n = 0;
const freshPath = () => {
  const dir = join(tmp.dir, `case-${++n}`);
  mkdirSync(dir);
  return join(dir, 'workbench.db');
};

/** The open markers beside the cache at `path`. */
const markersOf = (path: string) =>
  readdirSync(dirname(path))
    .filter((f) => f.startsWith('workbench.db.open-'))
    .sort();

/** How Cache.open ends for `path`: 'opened' (closed again, cleanly) or the CacheError's kind. */
async function openKind(path: string, opts: { readonly?: boolean } = {}): Promise<string> {
  try {
    (await Cache.open(path, opts)).close();
    return 'opened';
  } catch (e) {
    if (e instanceof CacheError) return e.kind;
    throw e;
  }
}

/** A real cache with a scratch table, closed cleanly. */
async function healthyCache(path: string): Promise<void> {
  const cache = await Cache.open(path);
  cache.db.exec('CREATE TABLE scratch (x TEXT) STRICT; CREATE INDEX scratch_x ON scratch (x)');
  const ins = cache.db.prepare('INSERT INTO scratch VALUES (?)');
  cache.tx(() => {
    for (let i = 0; i < 2000; i++) ins.run(`row ${i} ${'.'.repeat(60)}`);
  });
  cache.close();
}

/**
 * A real cache, closed cleanly, then damaged in a way quick_check finds and a
 * plain open does not: an index's entry taken out of the schema behind
 * SQLite's back, so its pages belong to nothing ("Page N: never used").
 */
async function damagedCache(path: string): Promise<void> {
  await healthyCache(path);
  const raw = new Database(path);
  raw.unsafeMode(true);
  raw.pragma('writable_schema = ON');
  raw.exec("DELETE FROM sqlite_schema WHERE name = 'scratch_x'");
  raw.pragma('writable_schema = OFF');
  raw.close();
  const check = new Database(path, { readonly: true });
  expect(check.pragma('quick_check', { simple: true })).toMatch(/never used/);
  check.close();
}

/** Another process with the cache open (as a `workbench` command beside the app): answers 'open', closes cleanly on 'close'. */
async function holder(path: string): Promise<ChildProcessWithoutNullStreams> {
  const code = `
import { Cache } from ${JSON.stringify(cacheModule)};
const cache = await Cache.open(${JSON.stringify(path)});
process.stdout.write('open\\n');
process.stdin.on('data', (d) => { if (String(d).includes('close')) { cache.close(); process.exit(0); } });`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  await new Promise<void>((ok, fail) => {
    child.stdout.once('data', () => ok());
    child.once('exit', (c) => fail(new Error(`the holder exited (${c}): ${err}`)));
  });
  return child;
}

const exited = (child: ChildProcessWithoutNullStreams) =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((r) => child.once('exit', () => r()));

/** A process that opened the cache and was killed (a crash, a power cut): its marker stays behind. */
async function crashedHolder(path: string): Promise<number> {
  const child = await holder(path);
  child.kill('SIGKILL');
  await exited(child);
  return child.pid!;
}

describe('a clean close: the next open skips the integrity check', () => {
  it('writes a marker while open (pid and time, beside the cache) and removes it at close', async () => {
    const path = freshPath();
    const cache = await Cache.open(path);
    expect(markersOf(path)).toEqual([`workbench.db.open-${process.pid}`]);
    expect(JSON.parse(readFileSync(openMarkerPath(path), 'utf8'))).toMatchObject({ pid: process.pid, at: expect.any(String), bootedAt: expect.any(String) });
    cache.close();
    expect(markersOf(path)).toEqual([]);
  });

  it('a file damaged after a clean close opens without the check, and checkIntegrity finds the damage', async () => {
    const path = freshPath();
    await damagedCache(path);
    expect(markersOf(path)).toEqual([]);
    const cache = await Cache.open(path);
    expect(cache.db.prepare('SELECT count(*) AS n FROM scratch').get()).toEqual({ n: 2000 });
    const found = await cache.checkIntegrity();
    // In a worker thread, so the core keeps answering calls meanwhile.
    expect(found).toEqual({ ok: false, message: expect.stringMatching(/Page \d+: never used/), ranIn: 'worker' });
    expect(cache.isDamaged).toBe(true);
    // Damage found while open: the close is not a clean one, so the next open checks and refuses the file (the recovery path).
    cache.close();
    expect(markersOf(path)).toEqual([`workbench.db.open-${process.pid}`]);
    expect(await openKind(path)).toBe('cache-damaged');
  });

  it('checkIntegrity on a healthy cache: ok, and the close stays clean', async () => {
    const path = freshPath();
    await healthyCache(path);
    const cache = await Cache.open(path);
    expect(await cache.checkIntegrity()).toEqual({ ok: true, ranIn: 'worker' });
    cache.close();
    expect(markersOf(path)).toEqual([]);
  });

  it('when no worker can load SQLite, the check runs on this thread instead and still finds the damage', async () => {
    const path = freshPath();
    await damagedCache(path);
    const cache = await Cache.open(path);
    const found = await cache.checkIntegrity({ module: join(tmp.dir, 'no-such-module.js') });
    expect(found).toEqual({ ok: false, message: expect.stringMatching(/Page \d+: never used/), ranIn: 'this-thread' });
    cache.close();
    expect(await openKind(path)).toBe('cache-damaged');
  });
});

describe('an unclean close (the process was killed): the next open runs the check', () => {
  it('a damaged file left by a process killed with SIGKILL is refused as corrupt, and stays flagged', async () => {
    const path = freshPath();
    await damagedCache(path);
    const pid = await crashedHolder(path);
    expect(markersOf(path)).toEqual([`workbench.db.open-${pid}`]);
    const err = await Cache.open(path).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CacheError);
    expect(err).toMatchObject({ kind: 'cache-damaged', path, message: expect.stringMatching(/integrity check: .*never used.*workbench cache recover/s) });
    // Refused, so the marker stays (and this process's own is gone): every open refuses it until it is moved aside.
    expect(markersOf(path)).toEqual([`workbench.db.open-${pid}`]);
    expect(await openKind(path)).toBe('cache-damaged');
    // A read-only open checks too, and writes no marker of its own.
    expect(await openKind(path, { readonly: true })).toBe('cache-damaged');
    expect(markersOf(path)).toEqual([`workbench.db.open-${pid}`]);
    // Start over: a fresh cache under the name, and the old file's marker cleared.
    moveAside(path);
    expect(await openKind(path)).toBe('opened');
    expect(markersOf(path)).toEqual([]);
  }, 30_000);

  it('a healthy file left by a killed process passes the check, and the stale marker is cleared', async () => {
    const path = freshPath();
    await healthyCache(path);
    const pid = await crashedHolder(path);
    expect(markersOf(path)).toEqual([`workbench.db.open-${pid}`]);
    const cache = await Cache.open(path);
    expect(markersOf(path)).toEqual([`workbench.db.open-${process.pid}`]);
    cache.close();
    expect(markersOf(path)).toEqual([]);
  }, 30_000);

  it('a marker from before the machine restarted is unclean even if its pid is alive now (pid reused after a power cut)', async () => {
    const path = freshPath();
    await damagedCache(path);
    // pid 1 is always alive; only the boot time tells this marker apart from a live process's.
    writeFileSync(`${path}.open-1`, JSON.stringify({ pid: 1, at: '2001-01-01T00:00:00.000Z', bootedAt: '2001-01-01T00:00:00.000Z' }));
    expect(await openKind(path)).toBe('cache-damaged');
    const bootedAt = new Date(Date.now() - uptime() * 1000).toISOString();
    writeFileSync(`${path}.open-1`, JSON.stringify({ pid: 1, at: new Date().toISOString(), bootedAt }));
    expect(await openKind(path)).toBe('opened');
  });

  it('a read-only open writes no marker', async () => {
    const path = freshPath();
    await healthyCache(path);
    const cache = await Cache.open(path, { readonly: true });
    expect(markersOf(path)).toEqual([]);
    cache.close();
    expect(markersOf(path)).toEqual([]);
  });
});

describe('two processes with the cache open (the app and a `workbench` command)', () => {
  it("a live process's marker is not an unclean close, and each process removes only its own", async () => {
    const path = freshPath();
    await damagedCache(path);
    const other = await holder(path);
    try {
      const marker = `workbench.db.open-${other.pid}`;
      expect(markersOf(path)).toEqual([marker]);
      // Damaged, but nobody crashed: opened without the check (it would refuse this file).
      const cache = await Cache.open(path);
      expect(markersOf(path).sort()).toEqual([marker, `workbench.db.open-${process.pid}`].sort());
      cache.close();
      // Closing here leaves the other process's marker where it is.
      expect(markersOf(path)).toEqual([marker]);
      other.stdin.write('close\n');
      await exited(other);
      expect(other.exitCode).toBe(0);
      expect(markersOf(path)).toEqual([]);
      expect(existsSync(path)).toBe(true);
      expect(await openKind(path)).toBe('opened');
    } finally {
      other.kill('SIGKILL');
      await exited(other);
    }
  }, 30_000);

  it('this process opening the cache twice shares one marker, removed when the last closes', async () => {
    const path = freshPath();
    await healthyCache(path);
    const a = await Cache.open(path);
    const b = await Cache.open(path);
    expect(markersOf(path)).toEqual([`workbench.db.open-${process.pid}`]);
    a.close();
    expect(markersOf(path)).toEqual([`workbench.db.open-${process.pid}`]);
    b.close();
    expect(markersOf(path)).toEqual([]);
  });
});

// A cache that cannot open says why, with a kind the app's start-up dialog
// acts on: held by another process, a folder that cannot be written, a file
// from a newer version, a damaged file; and "start over" keeps the old file.
import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { CacheError, classifyOpenError, openDatabase } from '../../../electron/core/store/db';
import { CoreLink, type HostHandlers } from '../../../shared/core-link';
import { forkNodeCore } from '../../host/core-process';
import { tempDir } from '../../support/tmp';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

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

describe('opening the cache', () => {
  it('held by another process: locked, at once (no hang)', async () => {
    const path = join(tmp.dir, 'held.db');
    new Database(path).exec('CREATE TABLE t (x)').close();
    const holder = spawn(process.execPath, ['-e', `const D=require('better-sqlite3');const d=new D(${JSON.stringify(path)});d.exec('BEGIN EXCLUSIVE');d.exec('INSERT INTO t VALUES (1)');process.stdout.write('held');setInterval(()=>{},1000);`], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((r) => holder.stdout.once('data', () => r()));
      const t0 = Date.now();
      expect(await kindOf(path)).toBe('locked');
      expect(Date.now() - t0).toBeLessThan(15_000);
    } finally {
      holder.kill('SIGKILL');
    }
  }, 30_000);

  it('a folder that cannot be made (its parent is a file): not-writable', async () => {
    writeFileSync(join(tmp.dir, 'plainfile'), 'x');
    expect(await kindOf(join(tmp.dir, 'plainfile', 'sub', 'workbench.db'))).toBe('not-writable');
  });

  it('written by a newer version: newer; damaged: corrupt', async () => {
    const newer = join(tmp.dir, 'newer.db');
    const d = new Database(newer);
    d.pragma('user_version = 999');
    d.close();
    expect(await kindOf(newer)).toBe('newer');
    const garbage = join(tmp.dir, 'garbage.db');
    writeFileSync(garbage, Buffer.alloc(8192, 7));
    expect(await kindOf(garbage)).toBe('corrupt');
  });

  it('a full disk is told apart by its error code', () => {
    expect(classifyOpenError(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }), '/x/workbench.db')?.kind).toBe('disk-full');
    expect(classifyOpenError(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }), '/x/workbench.db')?.kind).toBe('disk-full');
    expect(classifyOpenError(new Error('something else'), '/x/workbench.db')).toBeNull();
  });

  it('starting over after a damaged cache keeps the old file aside and opens a fresh one', async () => {
    const dir = join(tmp.dir, 'over');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(dir);
    writeFileSync(join(dir, 'workbench.db'), Buffer.alloc(8192, 7));
    const host: HostHandlers = { 'clipboard:write': () => null, 'shell:open-external': () => null, 'shell:show-item-in-folder': () => null, 'dialog:save-file': () => null };
    const init = { userDataDir: dir, appName: 'Outreach Workbench', appVersion: '0.1.0', platformName: 'linux', demo: false };
    const first = new CoreLink(forkNodeCore(init), { host, onEvent: () => {} });
    expect((await first.ready())?.kind).toBe('corrupt');
    await first.shutdown(2_000);
    const again = new CoreLink(forkNodeCore({ ...init, startOver: true }), { host, onEvent: () => {} });
    expect(await again.ready()).toBeNull();
    expect(await again.call('app:info', [])).toMatchObject({ ok: true });
    await again.shutdown(3_000);
    expect(readdirSync(dir).some((f) => f.startsWith('workbench.db.damaged-'))).toBe(true);
    expect(existsSync(join(dir, 'workbench.db'))).toBe(true);
  }, 30_000);
});

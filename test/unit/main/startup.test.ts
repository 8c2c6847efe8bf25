// Start, fail, quit: the switches that refuse a start, demo mode's own folder,
// the dialog for a cache that cannot open, and the rotating log (real files).
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EventEmitter } from 'node:events';
import { demoUserDataDir, forbiddenSwitch } from '../../../electron/main/startup-checks';
import { cacheFailureDialog, type CacheFailureKind } from '../../../electron/main/cache-failure';
import { createLog, installCrashLogging } from '../../../electron/main/log';
import { tempDir } from '../../support/tmp';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

describe('switches the packaged app refuses', () => {
  it.each([
    [['/opt/app/workbench', '--remote-debugging-port=9222'], '--remote-debugging-port'],
    [['/opt/app/workbench', '--REMOTE-DEBUGGING-PORT', '9222'], '--remote-debugging-port'],
    [['/opt/app/workbench', '-remote-debugging-pipe'], '--remote-debugging-pipe'],
    [['/opt/app/workbench', '--inspect'], '--inspect'],
    [['/opt/app/workbench', '--inspect-brk=0.0.0.0:9229'], '--inspect-brk'],
    [['/opt/app/workbench', '--js-flags=--allow-natives-syntax'], '--js-flags'],
    [['/opt/app/workbench', '--remote-allow-origins=*'], '--remote-allow-origins'],
    [['/opt/app/workbench', '--demo'], null],
    [['/opt/app/workbench', 'notes--inspect.txt'], null],
    [['/opt/app/workbench'], null],
  ])('%j -> %s', (argv, refused) => {
    expect(forbiddenSwitch(argv)).toBe(refused);
  });
  it('demo mode has its own user-data folder beside the real one', () => {
    const real = join('/home/u/.config', 'Outreach Workbench');
    const demo = demoUserDataDir('/home/u/.config', 'Outreach Workbench');
    expect(demo).not.toBe(real);
    expect(demo.startsWith(real + '/')).toBe(false);
  });
});

describe('a cache that cannot open', () => {
  const actions = (kind: CacheFailureKind) => cacheFailureDialog({ kind, message: 'why', path: '/x/workbench.db' }).buttons.map((b) => b.action);
  it('offers to start over (old file kept aside) only where that is safe', () => {
    expect(actions('cache-damaged')).toEqual(['start-over', 'open-folder', 'quit']);
    expect(actions('io-error')).toEqual(['start-over', 'open-folder', 'quit']);
    for (const k of ['cache-newer', 'cache-locked', 'disk-full', 'permission'] as const) expect(actions(k), k).toEqual(['open-folder', 'quit']);
  });
  it('says why in plain words, and quitting is the default', () => {
    const d = cacheFailureDialog({ kind: 'cache-newer', message: 'schema 9', path: '/x/workbench.db' });
    expect(d.message).toMatch(/newer version/);
    expect(d.detail).toContain('schema 9');
    expect(d.buttons[d.defaultId]!.action).toBe('quit');
    expect(d.buttons[d.cancelId]!.action).toBe('quit');
  });
});

describe('the log file', () => {
  it('rotates at its size limit and keeps the last N files', () => {
    const dir = join(tmp.dir, 'rot');
    const log = createLog({ dir, maxBytes: 400, keep: 2 });
    for (let i = 0; i < 40; i++) log.info(`line ${i} ${'x'.repeat(40)}`);
    expect(readdirSync(dir).sort()).toEqual(['workbench.1.log', 'workbench.2.log', 'workbench.log']);
    expect(readFileSync(join(dir, 'workbench.log'), 'utf8')).toContain('line 39');
    for (const f of readdirSync(dir)) expect(readFileSync(join(dir, f)).length).toBeLessThanOrEqual(400);
  });
  it('never writes the key, in a message or a stack', () => {
    const dir = join(tmp.dir, 'redact');
    const log = createLog({ dir });
    const key = 'sk_live_' + 'A1b2C3d4'.repeat(4);
    log.error(`request with ${key} failed`, new Error(`Bearer ${key}`));
    const text = readFileSync(join(dir, 'workbench.log'), 'utf8');
    expect(text).toContain('request with');
    expect(text).not.toContain(key);
  });
  it('a failed write never throws', () => {
    writeFileSync(join(tmp.dir, 'afile'), 'x');
    expect(() => createLog({ dir: join(tmp.dir, 'afile', 'logs') }).error('nowhere to go')).not.toThrow();
  });
  it('logs an unhandled rejection and carries on; an uncaught exception goes to onFatal', () => {
    const dir = join(tmp.dir, 'crash');
    const proc = new EventEmitter();
    const fatal: unknown[] = [];
    installCrashLogging(createLog({ dir }), proc, (e) => fatal.push(e));
    proc.emit('unhandledRejection', new Error('nobody caught me'));
    proc.emit('uncaughtException', new Error('boom'));
    const text = readFileSync(join(dir, 'workbench.log'), 'utf8');
    expect(text).toMatch(/unhandled rejection \| Error: nobody caught me/);
    expect(text).toMatch(/uncaught exception \| Error: boom/);
    expect(fatal).toHaveLength(1);
  });
  it('in a real process: an unhandled rejection is logged and the process goes on', () => {
    const dir = join(tmp.dir, 'child');
    const src = `import { createLog, installCrashLogging } from '${join(process.cwd(), 'electron/main/log.ts')}';
installCrashLogging(createLog({ dir: ${JSON.stringify(dir)} }));
Promise.reject(new Error('lost promise'));
setTimeout(() => { process.stdout.write('still running'); }, 100);`;
    const file = join(tmp.dir, 'child.ts');
    writeFileSync(file, src);
    const r = spawnSync(process.execPath, ['--import', 'tsx', file], { encoding: 'utf8', timeout: 20_000 });
    expect(r.stdout).toBe('still running');
    expect(r.status).toBe(0);
    expect(existsSync(join(dir, 'workbench.log'))).toBe(true);
    expect(readFileSync(join(dir, 'workbench.log'), 'utf8')).toContain('lost promise');
  });
});

// The rotating log file main and the core process write: real files in a temp
// folder, and real child processes for what a crash leaves behind.
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createLog, installCrashLogging, redactForLog } from '../../../electron/main/log';
import { tempDir } from '../../support/tmp';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

let n = 0;
const freshDir = () => join(tmp.dir, `case-${++n}`);
const read = (file: string) => readFileSync(file, 'utf8');
const lines = (file: string) => read(file).split('\n').filter(Boolean);
// Built at run time, so no key-shaped literal sits in the source.
const KEY = 'sk_live_' + 'A1b2C3d4'.repeat(4);
const ISO_LINE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (INFO|WARN|ERROR) /;

describe('rotation', () => {
  it('rotates at the size limit: workbench.log -> .1 -> .2, keeping `keep` rotated files, none over the limit', () => {
    const dir = freshDir();
    const log = createLog({ dir, maxBytes: 400, keep: 2 });
    for (let i = 0; i < 60; i++) log.info(`line ${String(i).padStart(2, '0')} ${'x'.repeat(40)}`);
    expect(readdirSync(dir).sort()).toEqual(['workbench.1.log', 'workbench.2.log', 'workbench.log']);
    for (const f of readdirSync(dir)) expect(statSync(join(dir, f)).size, f).toBeLessThanOrEqual(400);
    // Newest in the current file, older in .1, oldest kept in .2, the very first lines gone.
    expect(read(join(dir, 'workbench.log'))).toContain('line 59');
    const num = (f: string) => lines(join(dir, f)).map((l) => Number(/line (\d+)/.exec(l)![1]));
    expect(Math.max(...num('workbench.2.log'))).toBeLessThan(Math.min(...num('workbench.1.log')));
    expect(Math.max(...num('workbench.1.log'))).toBeLessThan(Math.min(...num('workbench.log')));
    expect(Math.min(...num('workbench.2.log'))).toBeGreaterThan(0);
    expect(log.file).toBe(join(dir, 'workbench.log'));
  });

  it('keeps the default three rotated files, and names them after a custom name', () => {
    const dir = freshDir();
    const log = createLog({ dir, name: 'core.log', maxBytes: 200 });
    for (let i = 0; i < 40; i++) log.warn(`entry ${i} ${'y'.repeat(50)}`);
    expect(readdirSync(dir).sort()).toEqual(['core.1.log', 'core.2.log', 'core.3.log', 'core.log']);
  });

  it('keep: 0 keeps only the current file', () => {
    const dir = freshDir();
    const log = createLog({ dir, maxBytes: 200, keep: 0 });
    for (let i = 0; i < 20; i++) log.info(`entry ${i} ${'z'.repeat(50)}`);
    expect(readdirSync(dir)).toEqual(['workbench.log']);
    expect(read(join(dir, 'workbench.log'))).toContain('entry 19');
  });

  it('an entry longer than a whole file is cut to fit, never written past the limit', () => {
    const dir = freshDir();
    const log = createLog({ dir, maxBytes: 300 });
    log.error('é'.repeat(1000));
    const text = read(join(dir, 'workbench.log'));
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(300);
    expect(text).toMatch(/\[cut: entry too long\]\n$/);
  });
});

describe('what a line holds', () => {
  it('one line per entry: ISO time, level, message, then the stack with code and cause', () => {
    const dir = freshDir();
    const log = createLog({ dir });
    log.info('started');
    log.warn('slow page');
    const cause = new Error('socket hang up');
    log.error('sync failed', Object.assign(new Error('fetch failed', { cause }), { code: 'ECONNRESET' }));
    const [a, b, c] = lines(join(dir, 'workbench.log'));
    expect(a).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z INFO started$/);
    expect(b).toMatch(ISO_LINE);
    expect(b).toContain('WARN slow page');
    expect(c).toMatch(/ ERROR sync failed \| Error: fetch failed \\n at /);
    expect(c).toContain('log.test.ts');
    expect(c).toContain("code: 'ECONNRESET'");
    expect(c).toContain('socket hang up');
    expect(lines(join(dir, 'workbench.log'))).toHaveLength(3);
  });

  it('a message cannot forge an entry: line breaks and control characters are escaped', () => {
    const dir = freshDir();
    const log = createLog({ dir });
    log.warn('API said: bad\n2030-01-01T00:00:00.000Z ERROR forged entry\r\x1b[31mred');
    const all = lines(join(dir, 'workbench.log'));
    expect(all).toHaveLength(1);
    expect(all[0]).toContain('bad \\n 2030-01-01T00:00:00.000Z ERROR forged entry\\x0d\\x1b[31mred');
  });

  it('values that are not errors are shown, and one that cannot be shown does not throw', () => {
    const dir = freshDir();
    const log = createLog({ dir });
    log.error('rejected with a string', 'plain reason');
    log.error('rejected with an object', { status: 503, brand: 'acme' });
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error('no');
        },
        getPrototypeOf: () => {
          throw new Error('no');
        },
        ownKeys: () => {
          throw new Error('no');
        },
      },
    );
    expect(() => log.error('rejected with a hostile proxy', hostile)).not.toThrow();
    const text = read(join(dir, 'workbench.log'));
    expect(text).toContain('rejected with a string | plain reason');
    expect(text).toContain("status: 503, brand: 'acme'");
    expect(text).toContain('rejected with a hostile proxy | ');
  });
});

describe('the key never reaches the file', () => {
  it('in a message, a stack, a cause, an object, a longer paste, or as a Bearer token', () => {
    const dir = freshDir();
    const log = createLog({ dir });
    log.error(`request with ${KEY} failed`, new Error(`Authorization: Bearer ${KEY}`));
    log.error('wrapped', new Error('outer', { cause: new Error(`inner ${KEY}`) }));
    log.warn('headers', { headers: { Authorization: `Bearer ${KEY}` } });
    log.warn(`pasted twice: ${KEY}${KEY}`);
    log.warn('other token: Bearer abc.DEF-123_x');
    const text = read(join(dir, 'workbench.log'));
    expect(text).toContain('request with sk_live_[redacted] failed');
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('A1b2C3d4');
    expect(text).not.toContain('abc.DEF-123_x');
    expect(text).toContain('Bearer [redacted]');
  });

  it('redactForLog applies the project rule and the wider ones', () => {
    expect(redactForLog(`k=${KEY}.`)).toBe('k=sk_live_[redacted].');
    expect(redactForLog(`short sk_live_abc`)).toBe('short sk_live_[redacted]');
    expect(redactForLog(`'Bearer ${KEY}'`)).toBe("'Bearer sk_live_[redacted]'");
    expect(redactForLog('nothing here')).toBe('nothing here');
  });
});

describe('a write never throws', () => {
  it('when the folder cannot be made (its parent is a file)', () => {
    writeFileSync(join(tmp.dir, 'a-file'), 'x');
    const log = createLog({ dir: join(tmp.dir, 'a-file', 'logs') });
    expect(() => log.error('nowhere to go', new Error('x'))).not.toThrow();
  });

  it('when the log file itself is a folder', () => {
    const dir = freshDir();
    mkdirSync(join(dir, 'workbench.log'), { recursive: true });
    expect(() => createLog({ dir, maxBytes: 10 }).info('cannot append to a folder')).not.toThrow();
  });
});

describe('crash logging', () => {
  it('logs an unhandled rejection and carries on; an uncaught exception goes to onFatal; uninstall removes both', () => {
    const dir = freshDir();
    const proc = new EventEmitter();
    const fatal: unknown[] = [];
    const uninstall = installCrashLogging(createLog({ dir }), proc, (e) => fatal.push(e));
    proc.emit('unhandledRejection', new Error('nobody caught me'));
    proc.emit('unhandledRejection', new Error(`with ${KEY}`));
    const boom = new Error('boom');
    proc.emit('uncaughtException', boom);
    const text = read(join(dir, 'workbench.log'));
    expect(text).toMatch(/ERROR unhandled rejection \| Error: nobody caught me/);
    expect(text).toMatch(/ERROR uncaught exception \| Error: boom/);
    expect(text).not.toContain(KEY);
    expect(fatal).toEqual([boom]);
    uninstall();
    expect(proc.listenerCount('unhandledRejection')).toBe(0);
    expect(proc.listenerCount('uncaughtException')).toBe(0);
  });

  it('a stand-in process without onFatal is only logged to', () => {
    const dir = freshDir();
    const proc = new EventEmitter();
    installCrashLogging(createLog({ dir }), proc);
    expect(() => proc.emit('uncaughtException', new Error('logged only'))).not.toThrow();
    expect(read(join(dir, 'workbench.log'))).toContain('logged only');
  });
});

describe('in a real Node process', () => {
  const logModule = resolve('electron/main/log.ts');
  const runChild = (name: string, body: string) => {
    const file = join(tmp.dir, `${name}.mts`);
    writeFileSync(file, `import { createLog, installCrashLogging } from ${JSON.stringify(logModule)};\n${body}\n`);
    return spawnSync(process.execPath, ['--import', 'tsx', file], { encoding: 'utf8', timeout: 20_000 });
  };

  it('an unhandled rejection is logged (without the key) and the process keeps running', () => {
    const dir = freshDir();
    const r = runChild(
      'rejection',
      `installCrashLogging(createLog({ dir: ${JSON.stringify(dir)} }));
const key = 'sk_live_' + 'A1b2C3d4'.repeat(4);
Promise.reject(new Error('lost promise with ' + key));
setTimeout(() => { process.stdout.write('still running'); }, 200);`,
    );
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('still running');
    expect(r.status).toBe(0);
    const text = read(join(dir, 'workbench.log'));
    expect(text).toMatch(/ERROR unhandled rejection \| Error: lost promise with sk_live_\[redacted\]/);
    expect(text).not.toContain(KEY);
  });

  it('an uncaught exception is logged, then the process ends with code 1 (no onFatal given)', () => {
    const dir = freshDir();
    const r = runChild(
      'exception',
      `installCrashLogging(createLog({ dir: ${JSON.stringify(dir)} }));
setTimeout(() => { throw new Error('thrown from a timer'); }, 10);
setTimeout(() => { process.stdout.write('should not get here'); }, 500);`,
    );
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(read(join(dir, 'workbench.log'))).toMatch(/ERROR uncaught exception \| Error: thrown from a timer/);
  });

  it('the line is on disk even when the process is killed right after writing it', () => {
    const dir = freshDir();
    const r = runChild('killed', `createLog({ dir: ${JSON.stringify(dir)} }).error('last words');\nprocess.kill(process.pid, 'SIGKILL');`);
    expect(r.signal).toBe('SIGKILL');
    expect(existsSync(join(dir, 'workbench.log'))).toBe(true);
    expect(read(join(dir, 'workbench.log'))).toMatch(/ERROR last words\n$/);
  });
});

// The one vocabulary of failures: each kind belongs to one group, crosses the
// bridge as plain data and comes back as the same kind; the core turns a bug
// into `internal` (its stack to the log only) and never calls it bad input; the
// CLI's exit code follows the group.
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../electron/core/api/errors';
import { dispatch, toContractError } from '../../../electron/core/app/handlers';
import { CacheError } from '../../../electron/core/store/cache-error';
import { asFileError, fileErrorKind } from '../../../electron/core/files/file-error';
import { EXIT_CODES, EXIT_INTERRUPTED, exitCodeOf } from '../../../electron/cli/main';
import { UsageError } from '../../../electron/cli/options';
import { ERROR_KINDS, type ErrorKind, WorkbenchError, errorGroup, isErrorKind } from '../../../shared/errors';
import { events } from '../../../shared/contract';

const KINDS = Object.keys(ERROR_KINDS) as ErrorKind[];

describe('the table', () => {
  it('every kind has a group and says what it means', () => {
    for (const k of KINDS) {
      expect(['input', 'key', 'service', 'files', 'app']).toContain(errorGroup(k));
      expect(ERROR_KINDS[k].means.length, k).toBeGreaterThan(10);
    }
  });
  it('knows its own kinds and nothing else', () => {
    expect(isErrorKind('disk-full')).toBe(true);
    expect(isErrorKind('export-failed')).toBe(false);
    expect(isErrorKind('__proto__')).toBe(false);
    expect(isErrorKind(undefined)).toBe(false);
  });
  it("the contract's error schema takes exactly the table's kinds", () => {
    const done = (kind: string) => events['export:done'].safeParse({ jobId: 'j', result: null, error: { kind, message: 'm' } }).success;
    for (const k of KINDS) expect(done(k), k).toBe(true);
    expect(done('export-failed')).toBe(false);
    expect(done('cache-corrupt')).toBe(false);
  });
});

describe('across the bridge', () => {
  it('plain data out, the same kind and field back', () => {
    const e = new WorkbenchError('invalid-input', 'Snooze until a day after today.', { field: 'until' });
    const plain = e.toPlain();
    expect(plain).toEqual({ kind: 'invalid-input', message: 'Snooze until a day after today.', field: 'until' });
    expect(structuredClone(plain)).toEqual(plain);
    const back = WorkbenchError.from(plain);
    expect(back).toBeInstanceOf(WorkbenchError);
    expect([back.kind, back.message, back.field]).toEqual(['invalid-input', 'Snooze until a day after today.', 'until']);
  });
  it('a kind from a newer core that this window does not know reads as internal', () => {
    expect(WorkbenchError.from({ kind: 'something-new' as ErrorKind, message: 'm' }).kind).toBe('internal');
  });
  it('the API client and the cache speak the same vocabulary, with their extra facts', () => {
    const api = new ApiError('key-rejected', 'The API key was rejected (403)', { status: 403 });
    expect(api).toBeInstanceOf(WorkbenchError);
    expect(toContractError(api)).toEqual({ kind: 'key-rejected', message: 'The API key was rejected (403)' });
    const cache = new CacheError('disk-full', 'The disk that holds /x/workbench.db is full.', '/x/workbench.db');
    expect(cache).toBeInstanceOf(WorkbenchError);
    expect(toContractError(cache)).toEqual({ kind: 'disk-full', message: 'The disk that holds /x/workbench.db is full.' });
  });
  it('a key in any message is redacted on its way out', () => {
    const key = 'sk_live_' + 'A1b2C3d4'.repeat(4);
    expect(toContractError(new WorkbenchError('service-refused', `refused ${key}`)).message).not.toContain(key);
    expect(toContractError(new TypeError(`boom ${key}`)).message).not.toContain(key);
  });
});

describe('a bug is a bug', () => {
  it('a RangeError or TypeError from the code is internal, never invalid input, and its stack goes to the log only', () => {
    const logged: unknown[] = [];
    const bug = new RangeError('Identifier "x; DROP" is not on the allow-list.');
    const plain = toContractError(bug, (e) => logged.push(e));
    expect(plain.kind).toBe('internal');
    expect(plain).not.toHaveProperty('stack');
    expect(JSON.stringify(plain)).not.toContain('at ');
    expect(logged).toEqual([bug]);
    // The vocabulary's own errors are not logged as bugs.
    toContractError(new WorkbenchError('not-found', 'gone'), (e) => logged.push(e));
    expect(logged).toHaveLength(1);
  });
  it('dispatch hands a handler that throws a bug to the log, and answers internal', async () => {
    const onInternal = vi.fn();
    const handlers = {
      'app:info': () => {
        throw new TypeError("Cannot read properties of undefined (reading 'x')");
      },
    } as never;
    const r = await dispatch(handlers, 'app:info', [], onInternal);
    expect(r).toMatchObject({ ok: false, error: { kind: 'internal' } });
    expect(onInternal).toHaveBeenCalledTimes(1);
  });
});

describe('file system failures', () => {
  it.each([
    ['ENOSPC', 'disk-full'],
    ['EDQUOT', 'disk-full'],
    ['EROFS', 'read-only'],
    ['EACCES', 'permission'],
    ['ENOENT', 'permission'],
    ['EBUSY', 'cache-locked'],
    ['EIO', 'io-error'],
  ] as const)('%s is %s, and the words name the file and the next step', (code, kind) => {
    const e = Object.assign(new Error(`${code}: raw library text`), { code });
    expect(fileErrorKind(e)).toBe(kind);
    const f = asFileError(e, '/home/u/out/list.csv', 'The export') as WorkbenchError;
    expect(f.kind).toBe(kind);
    expect(f.message).toContain('/home/u/out/list.csv');
    expect(f.message).toMatch(/^The export could not be written to /);
  });
  it('anything else passes through as it is (a bug stays a bug)', () => {
    const bug = new TypeError('x is not a function');
    expect(asFileError(bug, '/a', 'The export')).toBe(bug);
  });
});

describe("the CLI's exit codes follow the group", () => {
  it.each([
    ['invalid-input', 2],
    ['not-found', 2],
    ['no-key', 3],
    ['key-rejected', 3],
    ['keychain-locked', 3],
    ['service-unreachable', 4],
    ['bad-response', 4],
    ['disk-full', 5],
    ['cache-locked', 5],
    ['read-only', 5],
    ['internal', 1],
    ['cancelled', 130],
  ] as const)('%s exits %i', (kind, code) => {
    expect(exitCodeOf(kind)).toBe(code);
  });
  it('a full disk is never "service unreachable"', () => {
    expect(exitCodeOf('disk-full')).not.toBe(EXIT_CODES.service);
    expect(EXIT_INTERRUPTED).toBe(130);
  });
  it('a usage error is invalid input', () => {
    expect(new UsageError('Unknown command').kind).toBe('invalid-input');
  });
});

// The contract over IPC, with Electron's ipcMain replaced by a small fake and
// the real app service behind it: every method has a handler, malformed
// arguments never reach core, a foreign sender is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METHOD_NAMES, channelOf } from '../../../shared/contract-names';
import { contract, type Result } from '../../../shared/contract';
import { registerIpc } from '../../../electron/main/ipc';
import { createHandlers, dispatch, type Handlers } from '../../../electron/core/app/handlers';
import { AppService } from '../../../electron/core/app/service';
import { FakeKeychain, FakePlatform } from '../../support/fake-platform';
import { tempDir } from '../../support/tmp';

type Listener = (event: { trusted: boolean }, ...args: unknown[]) => Promise<Result<unknown>>;
const registered = new Map<string, Listener>();
const fakeIpc = { handle: (channel: string, l: Listener) => registered.set(channel, l) };

const tmp = tempDir();
let service: AppService;
const calls: string[] = [];

beforeAll(async () => {
  const platform = new FakePlatform();
  service = await AppService.create({
    userDataDir: tmp.dir,
    platform,
    keychain: new FakeKeychain(),
    appName: 'Outreach Workbench',
    appVersion: '0.1.0',
    platformName: 'linux',
  });
  const real = createHandlers(service, platform);
  // Record which handlers run, to prove refused calls never reach them.
  const spied = Object.fromEntries(
    Object.entries(real).map(([k, fn]) => [k, (...a: unknown[]) => (calls.push(k), (fn as (...x: unknown[]) => unknown)(...a))]),
  ) as Handlers;
  registerIpc(
    fakeIpc,
    (name, args) => dispatch(spied, name, args),
    (e: { trusted: boolean }) => e.trusted,
  );
});
afterAll(async () => {
  await service.close();
  tmp.cleanup();
});

const call = (name: string, trusted: boolean, ...args: unknown[]) => registered.get(channelOf(name as never))!({ trusted }, ...args);

describe('the contract over IPC', () => {
  it('every contract method has a handler, and nothing else is registered', () => {
    expect([...registered.keys()].sort()).toEqual(METHOD_NAMES.map((m) => channelOf(m)).sort());
    expect(Object.keys(contract).sort()).toEqual([...METHOD_NAMES].sort());
  });

  it('a foreign sender is refused before anything runs', async () => {
    calls.length = 0;
    const r = await call('app:info', false);
    expect(r).toEqual({ ok: false, error: { kind: 'untrusted-sender', message: 'Refused: the call did not come from the app window.' } });
    expect(calls).toEqual([]);
  });

  it('malformed arguments are refused without reaching core', async () => {
    calls.length = 0;
    const bad: [string, unknown[]][] = [
      ['opportunities:list', [{ filter: { brandId: 'nope' }, offset: 0, limit: 10 }]],
      ['opportunities:list', [{ filter: { brandId: '1749113348709x432280934699237400', sort: 'rowid; DROP TABLE triage' }, offset: 0, limit: 10 }]],
      ['opportunities:list', [{ filter: { brandId: '1749113348709x432280934699237400', extra: 1 }, offset: 0, limit: 10 }]],
      ['triage:apply', [{ brandId: '1749113348709x432280934699237400', ids: ['x'], action: { do: 'stage', stage: 'Closed' } }]],
      ['triage:apply', [{ brandId: '1749113348709x432280934699237400', ids: ['x'], action: { do: 'note', text: 'x'.repeat(100_001) } }]],
      // No raw patch of the record's fields: only the intents.
      ['triage:apply', [{ brandId: '1749113348709x432280934699237400', ids: ['x'], action: { do: 'set', patch: { stage: 'Won' } } }]],
      ['links:open', []],
      ['links:open', [{ url: 42 }]],
      ['settings:set', [{ baseUrl: 'javascript:alert(1)' }]],
      ['export:start', [{ options: { brandId: '1749113348709x432280934699237400', preset: 'everything' }, path: '/tmp/x.csv' }]],
      // The renderer never names a path: a call that carries one is refused, even with everything else right.
      ['export:start', [{ options: { brandId: '1749113348709x432280934699237400', preset: 'contacts' }, path: '/tmp/x.csv' }]],
      ['export:start', [{ options: { brandId: '1749113348709x432280934699237400', preset: 'contacts' }, file: '/home/me/.ssh/id_rsa' }]],
      ['export:show-in-folder', [{ path: '/etc' }]],
      ['export:show-in-folder', [{ jobId: '../../etc' }]],
      ['app:info', ['surplus']],
      ['keys:set', [{ key: 12 }]],
    ];
    for (const [name, args] of bad) {
      const r = await call(name, true, ...args);
      expect(r.ok, `${name} ${JSON.stringify(args).slice(0, 80)}`).toBe(false);
      if (!r.ok) expect(r.error.kind).toBe('invalid-input');
    }
    expect(calls).toEqual([]);
  });

  it('good calls return plain data', async () => {
    const info = await call('app:info', true);
    expect(info).toMatchObject({ ok: true, value: { name: 'Outreach Workbench', demo: false } });
    const list = await call('opportunities:list', true, { filter: { brandId: '1749113348709x432280934699237400' }, offset: 0, limit: 50 });
    expect(list).toEqual({ ok: true, value: { items: [], total: 0, next: null } });
    expect(JSON.parse(JSON.stringify(list))).toEqual(list);
  });

  it('answers match the result schemas declared beside each method', async () => {
    for (const name of ['app:info', 'app:state', 'brands:list', 'dnc:list', 'settings:get', 'keys:status'] as const) {
      const r = await call(name, true);
      expect(r.ok, name).toBe(true);
      if (r.ok) expect(contract[name].result.safeParse(r.value).success, name).toBe(true);
    }
  });

  it('failures come back as typed errors in plain words', async () => {
    const r = await call('triage:apply', true, { brandId: '1749113348709x432280934699237400', ids: ['missing'], action: { do: 'won' } });
    expect(r).toEqual({ ok: false, error: { kind: 'not-found', message: 'That opportunity is not in the cache (it may have been reset).' } });
    const k = await call('keys:set', true, { key: 'sk_live_short' });
    expect(k).toMatchObject({ ok: false, error: { kind: 'invalid-input', field: 'key' } });
  });

  it('links: only http(s) opens; the rest is refused with the reason', async () => {
    expect(await call('links:open', true, { url: 'javascript:alert(1)' })).toMatchObject({ ok: true, value: { opened: false } });
    expect(await call('links:open', true, { url: 'https://wired.com/a' })).toEqual({ ok: true, value: { opened: true } });
  });
});

// Demo mode never touches the real keychain entry (DESIGN/issue 11, 4): with an
// *available* system keychain, the demo's key calls (status, set, clear) and
// its start all go to the demo's own in-memory keychain, through the contract
// as the window calls them, and the real entry is neither read nor written.
import { afterEach, describe, expect, it } from 'vitest';
import { AppService } from '../../../../electron/core/app/service';
import { createHandlers, dispatch } from '../../../../electron/core/app/handlers';
import type { Keychain } from '../../../../electron/core/app/keys';
import { DEMO_KEY } from '../../../../electron/simulator/state';
import { FakeKeychain, FakePlatform } from '../../../support/fake-platform';
import { tempDir } from '../../../support/tmp';

/** The real keychain, available, recording every call made of it. */
class RecordingKeychain extends FakeKeychain implements Keychain {
  readonly calls: string[] = [];
  constructor(stored: string | null) {
    super('available');
    this.value = stored;
  }
  override async state() {
    this.calls.push('state');
    return super.state();
  }
  override async get() {
    this.calls.push('get');
    return super.get();
  }
  override async set(key: string) {
    this.calls.push('set');
    return super.set(key);
  }
  override async clear() {
    this.calls.push('clear');
    return super.clear();
  }
}

const REAL_KEY = 'sk_live_' + 'R3alUserKey0'.repeat(3).slice(0, 32);
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function service(keychain: RecordingKeychain, demo: boolean) {
  const tmp = tempDir();
  const platform = new FakePlatform();
  const s = await AppService.create({
    userDataDir: tmp.dir,
    platform,
    keychain,
    appName: 'Outreach Workbench',
    appVersion: '0.1.0',
    platformName: 'linux',
    demo,
    demoOpportunities: 40,
  });
  cleanups.push(tmp.cleanup, () => s.close());
  const handlers = createHandlers(s);
  const call = async (method: string, ...args: unknown[]) => {
    const r = await dispatch(handlers, method, args);
    if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
    return r.value;
  };
  return { s, platform, call };
}

describe('demo mode and the real keychain', () => {
  it.each([
    ['empty', null],
    ["holding the user's real key", REAL_KEY],
  ])('started in demo mode with the real keychain available and %s: keys:status, demo:start, keys:set and keys:clear never touch it', async (_name, stored) => {
    const keychain = new RecordingKeychain(stored);
    const { s, platform, call } = await service(keychain, true);
    expect(s.isDemo).toBe(true);

    expect(await call('keys:status')).toMatchObject({ state: 'stored', last4: DEMO_KEY.slice(-4) });
    const synced = platform.waitFor('sync:done');
    expect(await call('demo:start')).toEqual({ demo: true });
    expect((await synced).summary.error).toBeNull();
    await call('keys:set', { key: DEMO_KEY });
    await call('keys:clear');
    expect(await call('keys:status')).toMatchObject({ state: 'none' });

    expect(keychain.value).toBe(stored);
    expect(keychain.calls).toEqual([]);
  });

  it('"Try with demo data" from the real app: after the switch, the demo\'s key calls leave the real keychain alone', async () => {
    const keychain = new RecordingKeychain(null);
    const { s, platform, call } = await service(keychain, false);
    expect(await call('keys:status')).toMatchObject({ state: 'none', keychain: 'available' });

    const synced = platform.waitFor('sync:done');
    expect(await call('demo:start')).toEqual({ demo: true });
    expect(s.isDemo).toBe(true);
    await synced;
    const before = keychain.calls.length;
    expect(await call('keys:status')).toMatchObject({ state: 'stored', last4: DEMO_KEY.slice(-4) });
    await call('keys:set', { key: DEMO_KEY });
    await call('keys:clear');

    expect(keychain.value).toBeNull();
    expect(keychain.calls.slice(before)).toEqual([]);
    expect(keychain.calls).not.toContain('set');
    expect(keychain.calls).not.toContain('clear');
  });
});

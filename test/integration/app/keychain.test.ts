// The key in a real OS keychain: keytar against gnome-keyring (a real Secret
// Service) in a private D-Bus session with a fresh HOME, and the path for a
// machine with no keychain at all. Each runs in its own process.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeychainSecretStore } from '../../../electron/core/secrets';

function child(steps: string, env: NodeJS.ProcessEnv, viaKeyring: boolean) {
  const home = mkdtempSync(join(tmpdir(), 'workbench-keyring-'));
  try {
    const node = [process.execPath, '--import', 'tsx', 'test/support/keychain-child.ts', `workbench-test-${process.pid}`, steps];
    const cmd = viaKeyring ? ['dbus-run-session', '--', 'bash', 'build/scripts/with-keyring.sh', ...node] : node;
    const r = spawnSync(cmd[0]!, cmd.slice(1), { encoding: 'utf8', env: { ...process.env, ...env, HOME: home }, timeout: 60_000 });
    const line = r.stdout.trim().split('\n').pop() ?? '';
    if (!line.startsWith('[')) throw new Error(`keychain child failed (exit ${r.status}): ${r.stdout} ${r.stderr}`);
    return JSON.parse(line) as { step: string; value?: unknown; error?: string }[];
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

describe('keytar against gnome-keyring (a real Secret Service)', () => {
  it('stores, reads back and clears the key; empty reads as null', () => {
    const steps = child('state,get,set,get,clear,get', {}, true);
    expect(steps).toEqual([
      { step: 'state', value: 'available' },
      { step: 'get', value: null },
      { step: 'set', value: 'ok' },
      { step: 'get', value: 'sk_live_' + 'T'.repeat(28) + 'abcd' },
      { step: 'clear', value: 'ok' },
      { step: 'get', value: null },
    ]);
  });
});

describe('no keychain on this machine', () => {
  it('is reported as unavailable, in plain words, for reads and writes', () => {
    const steps = child('state,get,set', { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus', DISPLAY: '' }, false);
    expect(steps).toEqual([
      { step: 'state', value: 'unavailable' },
      { step: 'get', error: 'unavailable' },
      { step: 'set', error: 'unavailable' },
    ]);
  });
});

describe('a locked keyring', () => {
  // keytar on a locked keyring: getPassword resolves null exactly as if nothing
  // were saved, while setPassword rejects. The store must tell the two apart.
  const lockedKeytar = async () => ({
    getPassword: async () => null,
    setPassword: async () => {
      throw new Error('Cannot create an item in a locked collection');
    },
    deletePassword: async () => false,
  });
  it('is reported as locked, not as "no key"', async () => {
    const store = new KeychainSecretStore('svc', 'acct', lockedKeytar);
    expect(await store.state()).toBe('locked');
    await expect(store.get()).rejects.toMatchObject({ state: 'locked', message: expect.stringContaining('The keychain is locked') });
    await expect(store.set('k')).rejects.toMatchObject({ state: 'locked' });
  });
  it('an empty, unlocked keyring still reads as no key', async () => {
    const saved = new Map<string, string>();
    const store = new KeychainSecretStore('svc', 'acct', async () => ({
      getPassword: async (_s: string, a: string) => saved.get(a) ?? null,
      setPassword: async (_s: string, a: string, p: string) => void saved.set(a, p),
      deletePassword: async (_s: string, a: string) => saved.delete(a),
    }));
    expect(await store.get()).toBeNull();
    expect(saved.size).toBe(0); // the probe cleans up after itself
  });
});

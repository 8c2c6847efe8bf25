// The API key's life in the app: checked for shape and against get-brands
// before it is kept; kept in the OS keychain, or for this session only when
// no keychain is available (never on disk in plain text). The renderer only
// ever learns the state, the last four characters and the last check.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { KeyStatus } from '../../../shared/contract';
import { WorkbenchError } from '../../../shared/errors';
import { checkApiKeyShape } from '../../../shared/rules';
import { KeychainError, type KeychainState } from '../secrets';
import type { SecretStore } from '../seams';

export interface Keychain extends SecretStore {
  state(): Promise<KeychainState>;
}

type Check = NonNullable<KeyStatus['lastCheck']>;

export class KeyManager implements SecretStore {
  private session: string | null = null;

  constructor(
    private readonly keychain: Keychain,
    /** Where the last check's outcome is kept (no key in it). */
    private readonly checkFile: string,
    /** Checks a key against the API: resolves with a message, rejects with a plain-words error. */
    private readonly verify: (key: string) => Promise<string>,
  ) {}

  private readCheck(): Check | null {
    try {
      return existsSync(this.checkFile) ? (JSON.parse(readFileSync(this.checkFile, 'utf8')) as Check) : null;
    } catch {
      return null;
    }
  }

  recordCheck(ok: boolean, message: string): void {
    mkdirSync(dirname(this.checkFile), { recursive: true });
    const tmp = `${this.checkFile}.tmp`;
    writeFileSync(tmp, JSON.stringify({ ok, at: new Date().toISOString(), message } satisfies Check));
    renameSync(tmp, this.checkFile);
  }

  /** SecretStore: the key for API calls (session first, then the keychain). */
  async get(): Promise<string | null> {
    if (this.session) return this.session;
    return this.keychain.get();
  }

  async set(key: string): Promise<void> {
    await this.keychain.set(key);
  }

  async clear(): Promise<void> {
    this.session = null;
    try {
      await this.keychain.clear();
    } catch (e) {
      if (!(e instanceof KeychainError)) throw e;
    }
  }

  /** What the window may know about the key. Never fails: a keychain that cannot even say its state reads as unavailable (the cache stays readable). */
  async status(): Promise<KeyStatus> {
    const keychain: KeychainState = await this.keychain.state().catch(() => 'unavailable' as const);
    const lastCheck = this.readCheck();
    let stored: string | null = null;
    if (this.session === null && keychain === 'available') stored = await this.keychain.get().catch(() => null);
    const key = this.session ?? stored;
    const state = this.session ? 'session' : stored ? 'stored' : 'none';
    const last4 = key ? key.slice(-4) : null;
    const check = lastCheck && key ? ` Last check ${lastCheck.ok ? 'OK' : `failed: ${lastCheck.message}`}.` : '';
    const message =
      state === 'stored'
        ? `Stored in the system keychain, ends in …${last4}.${check}`
        : state === 'session'
          ? `Kept for this session only, ends in …${last4} (${keychain === 'locked' ? 'the keychain is locked' : 'no system keychain is available'}).${check}`
          : keychain === 'locked'
            ? 'The keychain is locked: unlock it to use a stored key, or enter the key for this session only.'
            : keychain === 'unavailable'
              ? 'No key is stored, and no system keychain is available: a key can be kept for this session only.'
              : 'No key is stored.';
    return { state, last4, keychain, lastCheck: key ? lastCheck : null, message };
  }

  /** Check the key (shape, then the API) and keep it. */
  async setKey(input: string, sessionOnly = false): Promise<KeyStatus> {
    const shape = checkApiKeyShape(input);
    if (!shape.ok) throw new WorkbenchError('invalid-input', shape.message, { field: 'key' });
    const key = shape.value;
    const message = await this.verify(key); // throws a WorkbenchError: key-rejected or service-unreachable
    if (sessionOnly) {
      this.session = key;
    } else {
      const st = await this.keychain.state();
      if (st === 'locked')
        throw new WorkbenchError('keychain-locked', 'The keychain is locked. Unlock it and try again, or keep the key for this session only.', {
          field: 'key',
        });
      if (st === 'unavailable')
        throw new WorkbenchError(
          'keychain-unavailable',
          'No system keychain is available on this computer. Keep the key for this session only? It is then forgotten when the app closes.',
          { field: 'key' },
        );
      await this.keychain.set(key);
      this.session = null;
    }
    this.recordCheck(true, message);
    return this.status();
  }
}

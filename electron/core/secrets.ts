// The API key in the OS keychain (keytar: Keychain on macOS, Credential Vault
// on Windows, the Secret Service on Linux). Plain Node, so the CLI and the app
// share it. The key is never written anywhere else.
import { WorkbenchError } from '../../shared/errors';
import type { SecretStore } from './seams';

export const KEYCHAIN_SERVICE = 'Outreach Workbench';
export const KEYCHAIN_ACCOUNT = 'trakkr-api-key';
const PROBE_ACCOUNT = 'availability-probe';

type Keytar = {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
};

export type KeychainState = 'available' | 'locked' | 'unavailable';

/** The keychain could not be used: a keychain-locked or keychain-unavailable error, with the keychain's state. */
export class KeychainError extends WorkbenchError {
  override name = 'KeychainError';
  constructor(
    readonly state: Exclude<KeychainState, 'available'>,
    message: string,
  ) {
    super(state === 'locked' ? 'keychain-locked' : 'keychain-unavailable', message);
  }
}

const WORDS: Record<Exclude<KeychainState, 'available'>, string> = {
  locked: 'The keychain is locked. Unlock it (log in to your desktop session or unlock the "Login" keyring) and try again.',
  unavailable:
    'No system keychain is available (on Linux: no Secret Service such as gnome-keyring or KWallet is running). The key can be kept for this session only, or given in the TRAKKR_API_KEY environment variable.',
};

export class KeychainSecretStore implements SecretStore {
  private keytar: Promise<Keytar> | undefined;

  constructor(
    private readonly service = KEYCHAIN_SERVICE,
    private readonly account = KEYCHAIN_ACCOUNT,
    private readonly load: () => Promise<Keytar> = async () => {
      const m = (await import('keytar')) as unknown as Keytar & { default?: Keytar };
      return m.default ?? m;
    },
  ) {}

  private lib(): Promise<Keytar> {
    this.keytar ??= this.load();
    return this.keytar;
  }

  /**
   * Is the keychain usable? A locked keyring answers reads with null exactly
   * as if nothing were saved, so only a probe write tells "locked" from "empty".
   */
  async state(): Promise<KeychainState> {
    let k: Keytar;
    try {
      k = await this.lib();
    } catch {
      return 'unavailable';
    }
    try {
      await k.setPassword(this.service, PROBE_ACCOUNT, 'probe');
      await k.deletePassword(this.service, PROBE_ACCOUNT);
      return 'available';
    } catch (e) {
      return classify(e);
    }
  }

  async get(): Promise<string | null> {
    const k = await this.usable();
    try {
      const v = await k.getPassword(this.service, this.account);
      if (v !== null) return v;
    } catch (e) {
      throw new KeychainError(classify(e), WORDS[classify(e)]);
    }
    // null: nothing saved, or a locked keyring hiding it. Tell the two apart.
    const st = await this.state();
    if (st !== 'available') throw new KeychainError(st, WORDS[st]);
    return null;
  }

  async set(key: string): Promise<void> {
    const k = await this.usable();
    try {
      await k.setPassword(this.service, this.account, key);
    } catch (e) {
      const st = classify(e);
      throw new KeychainError(st, WORDS[st]);
    }
  }

  async clear(): Promise<void> {
    const k = await this.usable();
    try {
      await k.deletePassword(this.service, this.account);
    } catch (e) {
      const st = classify(e);
      throw new KeychainError(st, WORDS[st]);
    }
  }

  private async usable(): Promise<Keytar> {
    try {
      return await this.lib();
    } catch {
      throw new KeychainError('unavailable', WORDS.unavailable);
    }
  }
}

function classify(e: unknown): Exclude<KeychainState, 'available'> {
  const msg = e instanceof Error ? e.message : String(e);
  return /lock|dismiss|cancel|prompt/i.test(msg) ? 'locked' : 'unavailable';
}

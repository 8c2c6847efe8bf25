// The app's way to the API: the client (to the settings' address or the demo's), the key's life
// through KeyManager with its errors in plain words, and whether the service answered last time.
// The key goes only to an API origin the user confirmed (or the default API, or this computer):
// the settings are asked before each request that carries it, whatever wrote settings.json.
import type { ContractHandlers, KeyStatus } from '../../../shared/contract';
import type { TrakkrClient } from '../api/client';
import { ApiError } from '../api/errors';
import type { SecretStore, Transport } from '../seams';
import type { Cache } from '../store/cache';
import { KeyManager, type Keychain } from './keys';
import { onFirstUse } from './lazy';
import { WorkbenchError } from '../../../shared/errors';
import type { Platform } from './platform';
import type { SettingsFile } from './settings';

/** The API client (its requests, retries and the service's answers' schemas): loaded by the first call that reaches the service (lazy.ts). */
const apiClient = onFirstUse('connection to the Trakkr API', () => import('../api/client'));

export interface ConnectionDeps {
  platform: Platform;
  settings: SettingsFile;
  fetch?: Transport;
  /** The cache now open (demo mode opens another): a checked key refreshes its brands. */
  cache(): Cache;
  /** The demo simulator's address, or null outside demo mode. */
  demoUrl(): string | null;
}

export class Connection {
  private online = true;
  private keys!: KeyManager;

  constructor(private readonly deps: ConnectionDeps) {}

  /** Keep keys in `keychain`, and the last check's outcome in `checkFile` (each cache has its own). */
  useKeychain(keychain: Keychain, checkFile: string): void {
    this.keys = new KeyManager(keychain, checkFile, (key) => this.verifyKey(key));
  }

  get isOnline(): boolean {
    return this.online;
  }

  async client(apiKey?: string): Promise<TrakkrClient> {
    const { TrakkrClient } = await apiClient();
    const demoUrl = this.deps.demoUrl();
    const settings = this.deps.settings.get();
    // The client asks for the key just before its first request: refuse it there, so nothing is sent.
    const refusal = demoUrl ? null : this.deps.settings.originRefusal();
    const secrets: SecretStore = {
      get: async () => {
        if (refusal) throw new ApiError('invalid-input', `Nothing was sent. ${refusal}`, { field: 'baseUrl' });
        return apiKey || this.keys.get();
      },
      set: (key) => this.keys.set(key),
      clear: () => this.keys.clear(),
    };
    return new TrakkrClient({
      baseUrl: demoUrl ?? settings.baseUrl,
      secrets,
      requestsPerMinute: demoUrl ? 0 : settings.requestsPerMinute,
      fetch: this.deps.fetch,
    });
  }

  setOnline(online: boolean): void {
    if (online === this.online) return;
    this.online = online;
    this.deps.platform.emit('app:online', { online });
  }

  private async verifyKey(key: string): Promise<string> {
    try {
      const { brands } = await (await this.client(key)).brands();
      this.setOnline(true);
      this.deps.cache().brands.replaceAll(brands, new Date().toISOString());
      return `${brands.length} brand${brands.length === 1 ? '' : 's'} reachable`;
    } catch (e) {
      if (e instanceof ApiError && e.isAuth) throw new WorkbenchError('key-rejected', e.message, { field: 'key' });
      if (e instanceof ApiError && (e.kind === 'service-unreachable' || e.kind === 'service-error')) {
        this.setOnline(false);
        throw new WorkbenchError('service-unreachable', `The key could not be checked: ${e.message}`, { field: 'key' });
      }
      throw e;
    }
  }

  /** A sync was refused for the key: the settings screen says so. */
  recordKeyCheck(ok: boolean, message: string): void {
    this.keys.recordCheck(ok, message);
  }

  keyStatus(): Promise<KeyStatus> {
    return this.keys.status();
  }

  async setKey(key: string, sessionOnly?: boolean): Promise<KeyStatus> {
    const st = await this.keys.setKey(key, sessionOnly);
    this.deps.platform.emit('key:status', st);
    return st;
  }

  async clearKey(): Promise<KeyStatus> {
    await this.keys.clear();
    const st = await this.keys.status();
    this.deps.platform.emit('key:status', st);
    return st;
  }
}

/** The contract's keys slice (shared/contract/keys.ts): the key goes in, and only its status comes out. */
export function keyHandlers(connection: Connection): Pick<ContractHandlers, 'keys:status' | 'keys:set' | 'keys:clear'> {
  return {
    'keys:status': () => connection.keyStatus(),
    'keys:set': ({ key, sessionOnly }) => connection.setKey(key, sessionOnly),
    'keys:clear': () => connection.clearKey(),
  };
}

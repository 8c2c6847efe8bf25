// The small interfaces core depends on, so every piece runs in plain Node
// tests: where the key is kept, how time passes, how HTTP is done.

/** Where the API key is kept: the OS keychain in the app and CLI, memory in tests. */
export interface SecretStore {
  get(): Promise<string | null>;
  set(key: string): Promise<void>;
  clear(): Promise<void>;
}

/** Time, so backoff and pacing can be tested without real waiting. */
export interface Clock {
  now(): number;
  /** Resolves after ms, or rejects with the signal's reason when it aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export type Transport = typeof fetch;

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const t = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(t);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/** A key kept in memory only (tests, and "this session only" when no keychain is available). */
export class MemorySecretStore implements SecretStore {
  constructor(private key: string | null = null) {}
  async get(): Promise<string | null> {
    return this.key;
  }
  async set(key: string): Promise<void> {
    this.key = key;
  }
  async clear(): Promise<void> {
    this.key = null;
  }
}

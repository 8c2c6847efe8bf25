// Demo mode's parts: the simulator's data served in this process, its key in
// a keychain of its own, and its own cache file, which "reset" deletes.
import { existsSync, rmSync } from 'node:fs';
import { DEMO_KEY, startDemoSimulator, type DemoSimulator } from '../../simulator/demo';
import { MemorySecretStore } from '../seams';
import type { Keychain } from './keys';

export type { DemoSimulator };

/** A keychain that holds the demo key in memory. */
export class DemoKeychain extends MemorySecretStore implements Keychain {
  constructor() {
    super(DEMO_KEY);
  }
  async state() {
    return 'available' as const;
  }
}

/** The demo's API stand-in (`opportunities`: its size; tests keep it small). */
export function startDemoApi(opportunities = 2000): Promise<DemoSimulator> {
  return startDemoSimulator({ seed: 1, opportunities, otherBrandOpportunities: 300, citationsPerBrand: 300 });
}

/** Delete a closed cache file and its write-ahead log. */
export function removeCacheFiles(path: string): void {
  for (const suffix of ['', '-wal', '-shm']) if (existsSync(path + suffix)) rmSync(path + suffix);
}

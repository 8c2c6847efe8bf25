// Demo mode's parts: the simulator's data served in this process, its key in
// a keychain of its own, and its own cache file, which "reset" deletes.
import { existsSync, rmSync } from 'node:fs';
import { DEMO_KEY, startDemoSimulator, type DemoSimulator } from '../../simulator/demo';
import { MemorySecretStore } from '../seams';
import type { Cache } from '../store/cache';
import { allTriage, writeTriage } from '../store/triage';
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

/**
 * The demo user's outreach, put in a fresh demo cache's record so the Results
 * have something to show: each pitch contacted on its day with the addresses
 * used, some replied to (the simulator serves citations at those outlets).
 * A demo cache with any record already is left as it is. Returns how many.
 */
export function seedDemoRecord(cache: Cache, demo: Pick<DemoSimulator, 'pitches'>): number {
  if (allTriage(cache.readable).length > 0) return 0;
  const db = cache.writable;
  return db.transaction(() => {
    let n = 0;
    for (const { brandId, pitches } of demo.pitches()) {
      for (const p of pitches) {
        writeTriage(
          db,
          brandId,
          p.opportunityId,
          { contacted_at: p.pitchedOn, contacted_addresses: p.addresses, stage: p.stage },
          `${p.pitchedOn}T09:30:00.000Z`,
        );
        n++;
      }
    }
    return n;
  });
}

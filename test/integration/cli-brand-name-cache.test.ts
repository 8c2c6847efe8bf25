// What looking up `--brand NAME` reads and prints (task 29c2): the brands'
// names come from the cache, so a name that carries terminal control codes
// is said plainly, never raw; a long list of brands is cut short; and the
// lookup reads the cache without changing it (an older cache is not upgraded
// or backed up by it, a refused name leaves the file as it was). The real
// CLI, real SQLite files, the simulator over loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Cache } from '../../electron/core/store/cache';
import { LATEST_VERSION } from '../../electron/core/store/migrations';
import { startSimulator, type Simulator } from '../../electron/simulator/server';
import { runCli } from '../support/cli-run';
import { tempDir } from '../support/tmp';
import { backToVersion14 } from '../support/version-14';

let sim: Simulator;
const tmp = tempDir();
const cli = (args: string[], db: string) => runCli(args, { url: sim.url, db });
const idFor = (n: number) => String(n).padStart(13, '0') + 'x' + String(n).padStart(18, '0');

/** A cache at `at` that knows these brands, and nothing else. */
async function brandsCache(at: string, brands: { id: string; name: string }[]): Promise<void> {
  const cache = await Cache.open(at);
  try {
    cache.brands.replaceAll(brands, '2026-01-01T00:00:00Z');
  } finally {
    cache.close();
  }
}

const versionOf = (at: string) => {
  const d = new Database(at, { readonly: true });
  try {
    return d.pragma('user_version', { simple: true }) as number;
  } finally {
    d.close();
  }
};

beforeAll(async () => {
  sim = await startSimulator({ seed: 29, brands: 2, opportunities: 2, otherBrandOpportunities: 2, citationsPerBrand: 0 });
});
afterAll(async () => {
  await sim.close();
  tmp.cleanup();
});

describe('a brand name from the cache is said plainly', () => {
  const EVIL = 'Evil\u001b[2J\u202e Co';
  // eslint-disable-next-line no-control-regex -- the point: the escape and the override never raw
  const raw = /[\u001b\u202e]/;

  it('a name with an escape sequence and a right-to-left override never reaches stderr raw', async () => {
    const db = join(tmp.dir, 'evil.db');
    await brandsCache(db, [
      { id: idFor(1), name: EVIL },
      { id: idFor(2), name: 'Plain Brand' },
    ]);
    const start = await cli(['list', '--brand', 'evil'], db);
    expect(start.code).toBe(2);
    expect(start.err).toBe('workbench: No brand named "evil" on this computer. Did you mean Evil [2J  Co? Give its whole name or its id.\n');
    const unknown = await cli(['list', '--brand', 'Contoso\u001b[31m'], db);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toBe(
      'workbench: No brand named "Contoso [31m" on this computer. Brands: Evil [2J  Co, Plain Brand. Run `workbench sync` first if it is new.\n',
    );
    for (const r of [start, unknown]) expect(r.err).not.toMatch(raw);
    // Its whole name, control codes and all, still finds it.
    expect((await cli(['history', '--brand', EVIL, '--id', 'nope'], db)).err).toBe(`workbench: No opportunity nope for brand ${idFor(1)} in the cache.\n`);

    // Two brands of that name: their names and ids said plainly too.
    const twins = join(tmp.dir, 'evil-twins.db');
    await brandsCache(twins, [
      { id: idFor(3), name: EVIL },
      { id: idFor(4), name: EVIL.toUpperCase() },
    ]);
    const both = await cli(['list', '--brand', EVIL], twins);
    expect(both.code).toBe(2);
    expect(both.err).not.toMatch(raw);
    expect(both.err).toMatch(/^workbench: "Evil \[2J {2}Co" could be 2 brands: .*\. Give the one you mean by its id\.\n$/);
    expect(both.err).toContain(`Evil [2J  Co (${idFor(3)})`);
    expect(both.err).toContain(`EVIL [2J  CO (${idFor(4)})`);
  });
});

describe('the lookup reads the cache as it is', () => {
  it('fourteen brands in an older cache: twelve named, "and 2 more"; the file is not upgraded or backed up by the lookup', async () => {
    const dir = join(tmp.dir, 'older');
    mkdirSync(dir);
    const db = join(dir, 'workbench.db');
    const acme = sim.brands.find((b) => b.name === 'Acme Analytics')!;
    const others = Array.from({ length: 13 }, (_, i) => ({ id: idFor(10 + i), name: `Brand ${String.fromCharCode(66 + i)}` }));
    await brandsCache(db, [acme, ...others]);
    const d = new Database(db);
    backToVersion14(d);
    d.close();
    expect(LATEST_VERSION).toBeGreaterThan(14);

    const before = sim.requests;
    const r = await cli(['scores', '--brand', 'Contoso'], db);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      'workbench: No brand named "Contoso" on this computer. Brands: Acme Analytics, Brand B, Brand C, Brand D, Brand E, Brand F, ' +
        'Brand G, Brand H, Brand I, Brand J, Brand K, Brand L, and 2 more (`workbench brands` lists them). Run `workbench sync` first if it is new.\n',
    );
    expect(sim.requests).toBe(before);
    expect(versionOf(db)).toBe(14);
    expect(existsSync(join(dir, 'backups'))).toBe(false);

    // A name it finds: scores (which keeps nothing) runs, and the cache is still as it was.
    const ok = await cli(['scores', '--brand', 'acme analytics', '--json'], db);
    expect(ok.code, ok.err).toBe(0);
    expect(JSON.parse(ok.out)).toHaveProperty('brand_name', 'Acme Analytics');
    expect(versionOf(db)).toBe(14);
    expect(existsSync(join(dir, 'backups'))).toBe(false);
  });
});

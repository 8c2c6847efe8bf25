// `--brand` as a person types it (task 29c): the brand's whole name as this
// computer knows it (the cache's brands), in any case, with spaces around it;
// never the start of a name (refused, naming the brands it starts, so undo,
// export and sync act only on the brand named); a valid id still works as
// before and is never looked up. Run as the other CLI tests run it: the real
// core, a real SQLite file, the simulator over loopback. Six brands, so two
// share a start: "Northwind Coffee" and "Northwind Coffee 6".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cache } from '../../electron/core/store/cache';
import { startSimulator, type Simulator } from '../../electron/simulator/server';
import { runCli } from '../support/cli-run';
import { tempDir } from '../support/tmp';

let sim: Simulator;
const tmp = tempDir();
const db = join(tmp.dir, 'names.db');
const cli = (args: string[], at = db) => runCli(args, { url: sim.url, db: at });
const idOf = (name: string) => sim.brands.find((b) => b.name === name)!.id;
const listed = async (brand: string) => JSON.parse((await cli(['list', '--brand', brand, '--json'])).out) as { id: string }[];
/** A valid brand id of its own for each n. */
const idFor = (n: number) => String(n).padStart(13, '0') + 'x' + String(n).padStart(18, '0');
/** Which brand a value was taken as, from history's answer for an opportunity no brand has (or the refusal). */
const taken = async (brand: string, at: string) => (await cli(['history', '--brand', brand, '--id', 'nope'], at)).err;

/** A cache at `at` that knows these brands (no opportunities), `removed` as brands Trakkr no longer lists. */
async function brandsCache(at: string, live: { id: string; name: string }[], removed: { id: string; name: string }[] = []): Promise<void> {
  const cache = await Cache.open(at);
  try {
    cache.brands.replaceAll([...removed, ...live], '2026-01-01T00:00:00Z');
    if (removed.length) cache.brands.replaceAll(live, '2026-02-01T00:00:00Z');
  } finally {
    cache.close();
  }
}

beforeAll(async () => {
  sim = await startSimulator({ seed: 29, brands: 6, opportunities: 12, otherBrandOpportunities: 4, citationsPerBrand: 2 });
  expect(sim.brands.map((b) => b.name)).toContain('Northwind Coffee 6');
  expect((await cli(['sync', '--no-scores'])).code).toBe(0);
});
afterAll(async () => {
  await sim.close();
  tmp.cleanup();
});

describe('--brand takes the name', () => {
  it('list --brand "Northwind Coffee" lists that brand, as its id does (the whole name beats a longer one it starts)', async () => {
    const r = await cli(['list', '--brand', 'Northwind Coffee', '--json']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.out) as { id: string }[];
    // Northwind Coffee has 12 opportunities (some not listed by default: archived), Northwind Coffee 6 has 4.
    expect(rows.length).toBeGreaterThan(4);
    expect(rows).toEqual(await listed(idOf('Northwind Coffee')));
    expect(await listed('Northwind Coffee 6')).toEqual(await listed(idOf('Northwind Coffee 6')));
  });

  it('takes the name in another case and with spaces around it', async () => {
    expect(await listed('  NORTHWIND coffee ')).toEqual(await listed(idOf('Northwind Coffee')));
    const r = await cli(['list', '--brand', 'acme analytics', '--json']);
    expect(r.err).toBe('');
    expect(JSON.parse(r.out)).toEqual(await listed(idOf('Acme Analytics')));
  });

  it('--help says a brand is given by its name or its id', async () => {
    const r = await cli(['--help']);
    expect(r.out).toContain('  list --brand BRAND [--json]');
    expect(r.out).toContain('  sync [--brand BRAND ...]');
    expect(r.out).toMatch(/^BRAND is a brand's whole name as `workbench brands` lists it \(any case, spaces around it ignored\) or\n/m);
    expect(r.out).toContain('the start of a name is refused, with the names it starts.');
    expect(r.out).not.toContain('--brand ID');
  });

  it('every command that takes --brand takes the name', async () => {
    const brand = 'Lumen Health';
    const id = idOf(brand);
    const opp = (await listed(id))[0]!.id;
    const ok = async (args: string[]) => {
      const r = await cli(args);
      expect(r.code, `${args.join(' ')}: ${r.err}`).toBe(0);
      return r;
    };
    expect((await ok(['history', '--brand', brand, '--id', opp])).out).toContain('Nothing done to it yet.');
    expect((await ok(['stage', '--brand', 'lumen health', '--id', opp, 'Drafted'])).out).toContain('stage Drafted');
    expect((await ok(['undo', '--brand', 'LUMEN HEALTH'])).out).toContain('stage New');
    expect((await ok(['results', '--brand', brand])).out).toMatch(/^Lumen Health: /);
    expect((await ok(['export', '--brand', brand, '--preset', 'contacts', '--check'])).out).toMatch(/would be exported/);
    expect(JSON.parse((await ok(['scores', '--brand', brand, '--json'])).out)).toHaveProperty('brand_name', brand);
    expect(JSON.parse((await ok(['citations', '--brand', brand, '--json'])).out)).toHaveProperty('brand_id', id);
    const sync = await ok(['sync', '--brand', 'fjord outdoor', '--brand', brand, '--no-scores', '--no-citations']);
    expect(sync.out).toContain('Fjord Outdoor: 4 opportunities checked');
    expect(sync.out).toContain('Lumen Health: 4 opportunities checked');
    expect(sync.out).not.toContain('Northwind');
  });
});

describe('a name it cannot take', () => {
  it('an unknown name: exit 2, naming the brands on this computer, nothing sent', async () => {
    const before = sim.requests;
    for (const command of ['list', 'scores', 'results']) {
      const r = await cli([command, '--brand', 'Contoso']);
      expect(r.code, command).toBe(2);
      expect(r.out).toBe('');
      expect(r.err).toBe(
        'workbench: No brand named "Contoso" on this computer. Brands: Acme Analytics, Fjord Outdoor, Lumen Health, Northwind Coffee, ' +
          'Northwind Coffee 6, Quill Legal. Run `workbench sync` first if it is new.\n',
      );
    }
    expect(sim.requests).toBe(before);
  });

  it('the start of a name is refused, even where one brand starts so, naming the brands it starts', async () => {
    const one = await cli(['list', '--brand', 'quill', '--json']);
    expect(one.code).toBe(2);
    expect(one.out).toBe('');
    expect(one.err).toBe('workbench: No brand named "quill" on this computer. Did you mean Quill Legal? Give its whole name or its id.\n');
    const two = await cli(['list', '--brand', 'northwind']);
    expect(two.code).toBe(2);
    expect(two.err).toBe(
      'workbench: No brand named "northwind" on this computer. Did you mean Northwind Coffee or Northwind Coffee 6? ' +
        'Give the whole name or the id of the one you mean.\n',
    );
    // A name with more after it is no name either.
    expect((await cli(['list', '--brand', 'Quill Legal LLP'])).err).toContain('Did you mean Quill Legal? Give its whole name or its id.');
  });

  it('sync --brand with the start of a name: exit 2, nothing sent, and not a sync of the brand it starts', async () => {
    const before = sim.requests;
    const r = await cli(['sync', '--brand', 'Acme', '--no-scores', '--no-citations']);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toBe(
      'workbench: No brand named "Acme" on this computer. Did you mean Acme Analytics? Give its whole name or its id. ' +
        'A brand not yet on this computer can be synced by its id only (`workbench brands` lists the ids).\n',
    );
    expect(sim.requests).toBe(before);
  });

  it('undo --brand with the start of a name: exit 2, and the action is still there', async () => {
    const id = idOf('Fjord Outdoor');
    const opp = (await listed(id))[0]!.id;
    expect((await cli(['stage', '--brand', id, '--id', opp, 'Drafted'])).code).toBe(0);
    const before = sim.requests;
    const r = await cli(['undo', '--brand', 'fjord']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('No brand named "fjord" on this computer. Did you mean Fjord Outdoor?');
    expect(sim.requests).toBe(before);
    expect((await cli(['history', '--brand', id, '--id', opp])).out).not.toContain('Undone');
    expect((await cli(['undo', '--brand', 'Fjord Outdoor'])).out).toContain('stage New');
  });

  it('an empty --brand says so; a one-word name of 32 characters, or of many digits, is found by name', async () => {
    for (const blank of ['', '   ']) {
      const r = await cli(['list', '--brand', blank]);
      expect(r.code).toBe(2);
      expect(r.err).toBe("workbench: --brand is empty: give the brand's name or id (`workbench brands` lists them).\n");
    }
    const odd = join(tmp.dir, 'odd.db');
    const [long, digits] = [idFor(7), idFor(8)];
    await brandsCache(odd, [
      { id: long, name: 'SuperLongBrandNameWithoutSpaces1' },
      { id: digits, name: '20240305123456' },
    ]);
    expect(await taken('superlongbrandnamewithoutspaces1', odd)).toBe(`workbench: No opportunity nope for brand ${long} in the cache.\n`);
    expect(await taken('20240305123456', odd)).toBe(`workbench: No opportunity nope for brand ${digits} in the cache.\n`);
    // Shaped like an id and no name here: the id's own message.
    expect(await taken('2024030512345', odd)).toBe('workbench: A brand id has exactly 32 characters; this one has 13.\n');
  });

  it('two brands of the same name: says so and asks for the id', async () => {
    const twins = join(tmp.dir, 'twins.db');
    const cache = await Cache.open(twins);
    const [a, b] = ['1'.repeat(13) + 'x' + '1'.repeat(18), '2'.repeat(13) + 'x' + '2'.repeat(18)];
    cache.brands.replaceAll(
      [
        { id: a, name: 'Fjord Outdoor' },
        { id: b, name: 'fjord outdoor' },
      ],
      new Date().toISOString(),
    );
    cache.close();
    const r = await cli(['list', '--brand', 'Fjord Outdoor'], twins);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`workbench: "Fjord Outdoor" could be 2 brands: Fjord Outdoor (${a}), fjord outdoor (${b}). Give the one you mean by its id.\n`);
    expect((await cli(['list', '--brand', b], twins)).code).toBe(0);
  });

  it('a brand removed from Trakkr is found by its whole name when no brand still there has it', async () => {
    const kept = join(tmp.dir, 'removed.db');
    const [gone, oldFjord, fjord, acme, acmeAnalytics] = [3, 4, 5, 6, 7].map(idFor) as [string, string, string, string, string];
    await brandsCache(
      kept,
      [
        { id: fjord, name: 'Fjord Outdoor' },
        { id: acmeAnalytics, name: 'Acme Analytics' },
      ],
      [
        { id: gone, name: 'Gone Brand' },
        { id: oldFjord, name: 'Fjord Outdoor' },
        { id: acme, name: 'Acme' },
      ],
    );
    const opp = (brand: string) => `workbench: No opportunity nope for brand ${brand} in the cache.\n`;
    expect(await taken('fjord outdoor', kept)).toBe(opp(fjord));
    expect(await taken('Gone Brand', kept)).toBe(opp(gone));
    // The removed brand's whole name, not the live brand whose name it starts.
    expect(await taken('acme', kept)).toBe(opp(acme));
    expect(await taken('Acme Analytics', kept)).toBe(opp(acmeAnalytics));
    expect(await taken('gone', kept)).toBe('workbench: No brand named "gone" on this computer. Did you mean Gone Brand? Give its whole name or its id.\n');
    expect((await cli(['list', '--brand', 'Contoso'], kept)).err).toContain('Brands: Acme Analytics, Fjord Outdoor. Run `workbench sync` first');
  });

  it('no brands on this computer: says to sync first, and makes no cache', async () => {
    const absent = join(tmp.dir, 'absent', 'none.db');
    const r = await cli(['list', '--brand', 'Acme Analytics'], absent);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      'workbench: No brands are on this computer yet, so "Acme Analytics" cannot be found by name. ' +
        "Run `workbench sync` first, or give the brand's id (`workbench brands` lists them).\n",
    );
    expect(existsSync(absent)).toBe(false);
  });

  it('sync --brand NAME of a brand not on this computer: by its id only, which still works', async () => {
    const fresh = join(tmp.dir, 'fresh.db');
    const before = sim.requests;
    const r = await cli(['sync', '--brand', 'Acme Analytics'], fresh);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      'workbench: No brands are on this computer yet, so "Acme Analytics" cannot be found by name. A brand not yet on this computer can be synced ' +
        'by its id only (`workbench brands` lists the ids), or run `workbench sync` without --brand to sync every brand.\n',
    );
    expect(sim.requests).toBe(before);
    const byId = await cli(['sync', '--brand', idOf('Acme Analytics'), '--no-scores', '--no-citations'], fresh);
    expect(byId.code).toBe(0);
    expect(byId.out).toContain('Acme Analytics: 4 opportunities checked');
    // The sync remembered every brand's name: now a name will do, and an unknown one says the id is the way.
    expect((await cli(['sync', '--brand', 'quill legal', '--no-scores', '--no-citations'], fresh)).out).toContain('Quill Legal: 4 opportunities checked');
    const unknown = await cli(['sync', '--brand', 'Contoso'], fresh);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('No brand named "Contoso" on this computer. Brands: Acme Analytics, ');
    expect(unknown.err).toContain('A brand not yet on this computer can be synced by its id only (`workbench brands` lists the ids).');
  });
});

describe('an id is taken as an id, as before', () => {
  it('an id works without the cache being read (a damaged cache is no matter to scores)', async () => {
    expect(await listed(idOf('Acme Analytics'))).toHaveLength(4);
    const junk = join(tmp.dir, 'junk.db');
    writeFileSync(junk, Buffer.alloc(8192, 0x5a));
    const r = await cli(['scores', '--brand', idOf('Acme Analytics'), '--json'], junk);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toHaveProperty('brand_name', 'Acme Analytics');
  });

  it('an id-shaped value not known here behaves as before', async () => {
    const unknown = await cli(['list', '--brand', 'a'.repeat(32)]);
    expect(unknown.code).toBe(0);
    expect(unknown.out).toBe('The cache holds no opportunities for this brand yet. Run `workbench sync` first.\n');
    const short = await cli(['list', '--brand', idOf('Acme Analytics').slice(0, 31)]);
    expect(short.code).toBe(2);
    expect(short.err).toBe('workbench: A brand id has exactly 32 characters; this one has 31.\n');
    const wrong = await cli(['list', '--brand', idOf('Acme Analytics').slice(0, 31) + 'z']);
    expect(wrong.code).toBe(2);
    expect(wrong.err).toBe('workbench: A brand id may hold only digits, the letters a to f and x.\n');
  });
});

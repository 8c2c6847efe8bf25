// What a new user of `workbench` tries first (report-28u, defects 3 and 4): the
// global options written before the command, as git and npm take them; and
// `brands` on a train, offline or with no key, giving the ids `list --brand`
// needs from the cache. Run as the other CLI tests run it: the real core, a
// real SQLite file, the simulator over loopback; the options given as flags
// (no TRAKKR_BASE_URL, WORKBENCH_DB or WORKBENCH_RATE in the environment).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DEMO_KEY, startSimulator, type Simulator } from '../../electron/simulator/server';
import { runCliIn } from '../support/cli-run';
import { tempDir } from '../support/tmp';

let sim: Simulator;
const tmp = tempDir();
const db = join(tmp.dir, 'first-use.db');

beforeAll(async () => {
  sim = await startSimulator({ seed: 28, opportunities: 40, otherBrandOpportunities: 5, citationsPerBrand: 3 });
});
afterAll(async () => {
  await sim.close();
  tmp.cleanup();
});

/** The CLI as a user's shell runs it: a key in the environment (or none: `key: null`) and nothing else set. */
const cli = (args: string[], opts: { key?: string | null } = {}) =>
  runCliIn(args, { HOME: tmp.dir, ...(opts.key === null ? {} : { TRAKKR_API_KEY: opts.key ?? DEMO_KEY }) });

describe('global options before the command', () => {
  it('--base-url <simulator> brands lists the brands', async () => {
    const r = await cli(['--base-url', sim.url, '--db', db, 'brands', '--json']);
    expect(r.err).not.toContain('must');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual(sim.brands);
  });

  it('--rate 0 sync syncs, and --rate takes the word after it as its value', async () => {
    const r = await cli(['--rate', '0', '--base-url', sim.url, '--db', db, 'sync', '--no-citations', '--no-scores']);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`${sim.brands[0]!.name}: 40 opportunities checked; 40 added`);
    const bad = await cli(['--rate', 'fast', '--base-url', sim.url, '--db', db, 'sync']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('got "fast"');
  });

  it('--db <path> list --brand <id> reads that cache', async () => {
    const brand = sim.brands[0]!.id;
    const r = await cli(['--db', db, 'list', '--brand', brand, '--json']);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.out) as unknown[]).length).toBeGreaterThan(0);
    // The same options after the command still work.
    const after = await cli(['list', '--brand', brand, '--json', '--db', db]);
    expect(after.code).toBe(0);
    expect(JSON.parse(after.out)).toEqual(JSON.parse(r.out));
  });

  it('an option before the command that is not a global one is refused in plain words, naming where it goes', async () => {
    const before = sim.requests;
    const own = await cli(['--brand', sim.brands[0]!.id, 'list', '--db', db]);
    expect(own.code).toBe(2);
    expect(own.err.trim()).toBe(
      'workbench: --brand is not one of the options that go before the command. Put it after the command: workbench <command> --brand …',
    );
    const unknown = await cli(['--wat', '--db', db, 'brands']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('--wat is not one of the options that go before the command');
    expect(sim.requests).toBe(before);
  });
});

describe('brands offline or with no key: the cached brands', () => {
  it('a key the service refuses still fails, as before', async () => {
    const r = await cli(['--base-url', sim.url, '--db', db, 'brands'], { key: 'sk_live_' + 'B'.repeat(32) });
    expect(r.code).toBe(3);
    expect(r.err).toContain('The API key was rejected');
    expect(r.out).toBe('');
  });

  it('with the service out of reach, prints the brands as last synced with a note on stderr, and exits 0', async () => {
    const url = sim.url;
    await sim.close();
    const r = await cli(['--base-url', url, '--db', db, 'brands']);
    expect(r.code).toBe(0);
    for (const b of sim.brands) expect(r.out).toMatch(new RegExp(`^${b.id}\\s+${b.name}$`, 'm'));
    expect(r.err).toMatch(/^Offline\. Could not reach the service at 127\.0\.0\.1:\d+ \(.+\)\. Gave up after \d tries\.$/m);
    expect(r.err).toMatch(/^These are the brands as last synced \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC, from the cache on this computer\.$/m);
    const asJson = await cli(['--base-url', url, '--db', db, 'brands', '--json']);
    expect(asJson.code).toBe(0);
    // The cache lists them by name; the same ids and names as the service gave.
    const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
    expect((JSON.parse(asJson.out) as { id: string }[]).sort(byId)).toEqual([...sim.brands].sort(byId));
  });

  it('with no key stored, prints the cached brands with a note, and exits 0', async () => {
    const r = await cli(['--base-url', 'http://127.0.0.1:1', '--db', db, 'brands'], { key: null });
    expect(r.code).toBe(0);
    for (const b of sim.brands) expect(r.out).toContain(b.id);
    expect(r.err).toMatch(/^No API key is stored\. Run `workbench key set`/m);
    expect(r.err).toMatch(/^These are the brands as last synced \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC, from the cache on this computer\.$/m);
    expect(r.out).not.toContain('workbench:');
  });

  it('with an empty cache, says there are none and how to sync, and fails as before', async () => {
    const empty = join(tmp.dir, 'empty.db');
    const off = await cli(['--base-url', 'http://127.0.0.1:1', '--db', empty, 'brands']);
    expect(off.code).toBe(4);
    expect(off.err).toContain('Could not reach the service');
    expect(off.err).toContain('No brands are cached yet: run `workbench sync` once the service can be reached.');
    expect(off.out).toBe('');
    const noKey = await cli(['--base-url', 'http://127.0.0.1:1', '--db', empty, 'brands'], { key: null });
    expect(noKey.code).toBe(3);
    expect(noKey.err).toContain('No API key is stored');
    expect(noKey.err).toContain('No brands are cached yet');
  });

  it('with no cache at all, says none are cached without creating one at that path', async () => {
    const absent = join(tmp.dir, 'never-made', 'absent.db');
    const off = await cli(['--base-url', 'http://127.0.0.1:1', '--db', absent, 'brands']);
    expect(off.code).toBe(4);
    expect(off.err).toContain('No brands are cached yet: run `workbench sync` once the service can be reached.');
    expect(existsSync(absent)).toBe(false);
    expect(existsSync(dirname(absent))).toBe(false);
    const noKey = await cli(['--base-url', 'http://127.0.0.1:1', '--db', absent, 'brands'], { key: null });
    expect(noKey.code).toBe(3);
    expect(noKey.err).toContain('No brands are cached yet');
    expect(existsSync(absent)).toBe(false);
  });

  it('with a damaged cache, says so (its file and what to do) and exits as a file failure, not "none cached"', async () => {
    const junk = join(tmp.dir, 'junk.db');
    writeFileSync(junk, Buffer.alloc(8192, 0x5a));
    for (const key of [undefined, null]) {
      const r = await cli(['--base-url', 'http://127.0.0.1:1', '--db', junk, 'brands'], { key });
      expect(r.code).toBe(5);
      expect(r.err).toContain(junk);
      expect(r.err).toContain('damaged');
      expect(r.err).not.toContain('No brands are cached yet');
      expect(r.out).toBe('');
    }
  });
});

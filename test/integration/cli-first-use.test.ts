// What a new user of `workbench` tries first (report-28u, defects 3 and 4): the
// global options written before the command, as git and npm take them; and
// `brands` on a train, offline or with no key, giving the ids `list --brand`
// needs from the cache. Run as the other CLI tests run it: the real core, a
// real SQLite file, the simulator over loopback; the options given as flags
// (no TRAKKR_BASE_URL, WORKBENCH_DB or WORKBENCH_RATE in the environment).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
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

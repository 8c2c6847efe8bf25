// Two `workbench sync` commands at once on one cache, as a person starts them
// in two terminals (the real bin, real processes): the second says in plain
// words that a sync of the brand is already running, since when and where,
// then waits and finishes, or with --no-wait skips it; neither fails, and the
// cache is complete.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DEMO_KEY, startSimulator, type Simulator } from '../../electron/simulator/server';
import { tempDir } from '../support/tmp';

const tmp = tempDir();
let sim: Simulator;
const OPPORTUNITIES = 5000;
beforeAll(async () => {
  // A slow service (a second a page, ten pages: the second process starts in 2 to 4 s), so the first sync is still running when the second has started.
  sim = await startSimulator({ seed: 31, opportunities: OPPORTUNITIES, otherBrandOpportunities: 0, brands: 1, latencyMs: 1000 });
});
afterAll(() => {
  sim.close();
  tmp.cleanup();
});

interface Run {
  code: number | null;
  out: string;
  err: string;
}

/** `workbench sync …` in its own process; `started` resolves once it says it is syncing. */
function workbench(db: string, args: string[]): { started: Promise<void>; done: Promise<Run> } {
  const proc = spawn(process.execPath, ['electron/cli/bin.mjs', 'sync', '--no-scores', '--no-citations', ...args], {
    env: { ...process.env, TRAKKR_BASE_URL: sim.url, TRAKKR_API_KEY: DEMO_KEY, WORKBENCH_DB: db, WORKBENCH_RATE: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let begun!: () => void;
  const started = new Promise<void>((r) => (begun = r));
  proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr.on('data', (c: Buffer) => {
    err += c.toString();
    if (err.includes('Syncing ')) begun();
  });
  const done = new Promise<Run>((r) => proc.on('exit', (code) => r({ code, out, err })));
  return { started, done };
}

const count = (db: string) => {
  const d = new Database(db, { readonly: true });
  try {
    return (d.prepare('SELECT count(*) AS n FROM opportunities WHERE removed_on_server = 0').get() as { n: number }).n;
  } finally {
    d.close();
  }
};

describe('two `workbench sync` at once on one cache', () => {
  it('the second says a sync of the brand is already running, since when, and waits for it; both finish and the cache is complete', async () => {
    const db = join(tmp.dir, 'wait.db');
    const first = workbench(db, []);
    await first.started;
    const second = workbench(db, []);
    const [a, b] = await Promise.all([first.done, second.done]);
    expect(a.code, a.err).toBe(0);
    expect(b.code, b.err).toBe(0);
    expect(b.err).toMatch(
      /A sync of .+ is already running in another window or terminal \(workbench sync, process \d+\) since \d{1,2}:\d{2}; waiting for it to finish\./,
    );
    expect(a.err).not.toMatch(/already running/);
    expect(count(db)).toBe(OPPORTUNITIES);
  });

  it('with --no-wait the second skips the brand and says why', async () => {
    const db = join(tmp.dir, 'skip.db');
    const first = workbench(db, []);
    await first.started;
    const second = workbench(db, ['--no-wait']);
    const b = await second.done;
    const a = await first.done;
    expect(a.code, a.err).toBe(0);
    expect(b.code, b.err).toBe(0);
    expect(b.out + b.err).toMatch(/already running in another window or terminal \(workbench sync, process \d+\) since \d{1,2}:\d{2}/);
    expect(b.out + b.err).toMatch(/skipped/i);
    expect(count(db)).toBe(OPPORTUNITIES);
  });
});

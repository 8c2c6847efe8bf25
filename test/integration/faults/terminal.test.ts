// The CLI's output on a terminal and into a pipe, with hostile text from the
// service: bidirectional controls (U+202E would show the rest of the row, its
// id included, reversed) are neutralised in tables and escaped in JSON (the
// same data for a script), and a pipe closed early (`workbench list --json |
// head`) ends the command quietly, without a stack trace.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { DEMO_KEY, startSimulator, type Simulator } from '../../../electron/simulator/server';
import { json, plain, table } from '../../../electron/cli/output';
import { runCli } from '../../support/cli-run';
import { workbench } from '../../support/workbench-process';
import { tempDir } from '../../support/tmp';

const tmp = tempDir();
let sim: Simulator;
let brand: string;
const db = join(tmp.dir, 'workbench.db');
const EVIL = 'Cheap flights \u202Egnp.exe\u202C and \u2067isolated\u2069 \u200Fmark';
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

beforeAll(async () => {
  sim = await startSimulator({ seed: 3, opportunities: 2000, otherBrandOpportunities: 0, brands: 1, citationsPerBrand: 0 });
  brand = sim.brands[0]!.id;
  // A record of the service's whose title and domain carry bidirectional controls.
  sim.inject(brand, {
    ...(await firstRecord()),
    _id: 'evil-1',
    unique_key: 'low-hanging-fruit:evil.example/1',
    title: EVIL,
    domain: 'evil\u202Eelpmaxe.com',
    priority_score: 100,
  });
  expect((await runCli(['sync', '--no-scores', '--no-citations'], { url: sim.url, db })).code).toBe(0);
});
afterAll(async () => {
  await sim.close();
  tmp.cleanup();
});

/** A generated record of the simulator, as the service sends it. */
async function firstRecord(): Promise<Record<string, unknown>> {
  const r = await fetch(`${sim.url}/get-outreach?brand=${brand}&limit=1`, { headers: { authorization: `Bearer ${DEMO_KEY}` } });
  return ((await r.json()) as { opportunities: Record<string, unknown>[] }).opportunities[0]!;
}

describe('bidirectional controls from the service', () => {
  it('a table never prints them: each becomes a space, so the row (and its id) reads left to right', async () => {
    const r = await runCli(['list', '--brand', brand, '--sort', 'priority_score'], { url: sim.url, db });
    expect(r.code).toBe(0);
    const row = r.out.split('\n').find((l) => l.includes('Cheap flights'))!;
    expect(row).toBeDefined();
    expect(row).not.toMatch(BIDI);
    expect(row).toContain('Cheap flights  gnp.exe  and  isolated   mark');
    expect(row).toMatch(/evil-1$/);
  });

  it('JSON escapes them (\\u202e): the same text for a script, nothing raw on a terminal', async () => {
    const r = await runCli(['list', '--brand', brand, '--json'], { url: sim.url, db });
    expect(r.out).not.toMatch(BIDI);
    expect(r.out).toContain('Cheap flights \\u202egnp.exe\\u202c');
    const evil = (JSON.parse(r.out) as { id: string; title: string; domain: string }[]).find((o) => o.id === 'evil-1')!;
    expect(evil.title).toBe(EVIL);
    expect(evil.domain).toBe('evil\u202Eelpmaxe.com');
  });

  it('plain, table and json on their own: C0, C1 and bidirectional controls', () => {
    expect(plain('a\u001b[2Jb\u009bc\u202ed\u2066e\u061cf')).toBe('a [2Jb c d e f');
    expect(table([['ID'], ['x\u202ey']])).toBe('ID\nx y\n');
    expect(json({ t: '\u202e\u0085' })).toBe('{\n  "t": "\\u202e\\u0085"\n}\n');
  });
});

describe('a pipe closed early', () => {
  it('`workbench list --json | head -c 100`: ends quietly (exit 0, nothing on stderr)', async () => {
    const w = workbench(['list', '--brand', brand, '--json'], { url: sim.url, db });
    // The reader takes the first bytes and goes away, as `head` does.
    await new Promise<void>((resolve) => w.proc.stdout.once('data', () => resolve()));
    w.proc.stdout.destroy();
    const r = await w.done;
    expect(r.err).not.toMatch(/EPIPE|Error|at .+:\d+/);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
  });
});

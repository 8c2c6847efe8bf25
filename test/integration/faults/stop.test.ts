// Ctrl-C in every `workbench` command that writes, beyond a sync (sigint.test.ts):
// while it waits for another program's lock on the cache (however long it was
// told to wait, even past what SQLite's busy timeout can hold), it stops at
// once, exit 130, nothing changed; and a stop heard before its write begins
// (an export between two rows, an import after its safety backup, a triage
// note) leaves everything as it was and exits 130. Told not to wait at all
// (--lock-wait 0), it says so at once, without a waiting line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run, type Io } from '../../../electron/cli/main';
import { MemorySecretStore } from '../../../electron/core/seams';
import { DEMO_KEY, startSimulator, type Simulator } from '../../../electron/simulator/server';
import { withHealth } from '../../support/cache-health';
import { runCli } from '../../support/cli-run';
import { holdLock } from '../../support/lock-holder';
import { workbench } from '../../support/workbench-process';
import { tempDir } from '../../support/tmp';

const tmp = tempDir();
let sim: Simulator;
let brand: string;
let id: string;
const db = join(tmp.dir, 'workbench.db');
const recordFile = join(tmp.dir, 'record.json');
const dncCsv = join(tmp.dir, 'list.csv');

beforeAll(async () => {
  sim = await startSimulator({ seed: 8, opportunities: 300, otherBrandOpportunities: 0, brands: 1, citationsPerBrand: 0 });
  brand = sim.brands[0]!.id;
  expect((await runCli(['sync', '--no-scores', '--no-citations'], { url: sim.url, db })).code).toBe(0);
  id = (JSON.parse((await runCli(['list', '--brand', brand, '--json'], { url: sim.url, db })).out) as { id: string }[])[0]!.id;
  expect((await runCli(['triage', '--brand', brand, '--id', id, '--note', 'before'], { url: sim.url, db })).code).toBe(0);
  expect((await runCli(['record', 'export', '--out', recordFile], { url: sim.url, db })).code).toBe(0);
  expect((await runCli(['backup', 'now'], { url: sim.url, db })).code).toBe(0);
  writeFileSync(dncCsv, 'Email\nana@outlet.example\nbo@outlet.example\n');
  mkdirSync(join(tmp.dir, 'out'));
});
afterAll(async () => {
  await sim.close();
  tmp.cleanup();
});

const state = () => withHealth(db, (h) => ({ integrity: h.integrity, note: h.notes.get(id), dnc: h.count('do_not_contact'), exports: h.count('exports') }));

/** Every command that writes to the cache, as a person types it. */
const WRITERS: [string, () => string[]][] = [
  ['triage', () => ['triage', '--brand', brand, '--id', id, '--note', 'after']],
  ['brands', () => ['brands']],
  ['dnc add', () => ['dnc', 'add', 'cy@outlet.example']],
  ['dnc import', () => ['dnc', 'import', dncCsv, '--column', 'Email']],
  ['record import', () => ['record', 'import', recordFile]],
  ['backup restore', () => ['backup', 'restore', 'latest', '--yes']],
  ['export', () => ['export', '--brand', brand, '--preset', 'contacts', '--unfilled', 'keep', '--out', join(tmp.dir, 'out', 'contacts.csv')]],
  ['export sent', () => ['export', 'sent', 'latest']],
];

describe('Ctrl-C while a command waits for another program’s lock', () => {
  it.each(WRITERS)('`workbench %s`: stops at once with 130, nothing changed (told to wait 3,000,000 s: the most SQLite can hold)', async (_, args) => {
    const before = state();
    const h = await holdLock(db);
    try {
      const w = workbench([...args(), '--lock-wait', '3000000'], { url: sim.url, db });
      await w.printed(/Waiting for/);
      w.proc.kill('SIGINT');
      const r = await w.done;
      expect(r.code, r.err).toBe(130);
      expect(r.err).toContain(`Waiting for node lock-holder-child.ts (process ${h.proc.pid}), which is writing to the cache (${db}); up to 2147484 s…`);
      expect(r.err).toContain(
        `workbench: Stopped while waiting for node lock-holder-child.ts (process ${h.proc.pid}) to let go of the cache (${db}): nothing was changed.`,
      );
    } finally {
      await h.release();
    }
    // The holder's own write aside, the cache is as it was.
    expect(state()).toEqual({ ...before, dnc: before.dnc + 1 });
    expect((await runCli(['dnc', 'remove', 'held.example'], { url: sim.url, db })).code).toBe(0);
  });

  it('told not to wait (--lock-wait 0): cache-locked at once (exit 5), no waiting line', async () => {
    const h = await holdLock(db);
    try {
      const r = await runCli(['triage', '--brand', brand, '--id', id, '--note', 'never', '--lock-wait', '0'], { url: sim.url, db });
      expect(r.code).toBe(5);
      expect(r.err).not.toContain('Waiting for');
      expect(r.err).toContain(
        `workbench: The cache file ${db} is being written by node lock-holder-child.ts (process ${h.proc.pid}); this was told not to wait for it (a lock wait of 0 s). Nothing was changed.`,
      );
    } finally {
      await h.release();
    }
    expect((await runCli(['dnc', 'remove', 'held.example'], { url: sim.url, db })).code).toBe(0);
  });
});

/** The CLI in this process, stopped (as its Ctrl-C does) before it starts its work. */
async function stoppedRun(args: string[]) {
  let out = '';
  let err = '';
  const stop = new AbortController();
  stop.abort();
  const io: Io = {
    out: (s) => (out += s),
    err: (s) => (err += s),
    isTTY: false,
    readStdin: async () => '',
    env: { TRAKKR_BASE_URL: sim.url, WORKBENCH_DB: db, WORKBENCH_RATE: '0', TRAKKR_API_KEY: DEMO_KEY },
    secrets: new MemorySecretStore(),
    signal: stop.signal,
  };
  return { code: await run(args, io), out, err };
}

describe('a stop heard before the write begins', () => {
  it.each([
    ['triage', () => ['triage', '--brand', brand, '--id', id, '--note', 'after'], 'Stopped before saving the change: nothing was changed.'],
    ['dnc import', () => ['dnc', 'import', dncCsv, '--column', 'Email'], 'Stopped before the import: nothing was changed.'],
    ['record import', () => ['record', 'import', recordFile], 'Stopped before the import: nothing was changed.'],
    ['backup restore', () => ['backup', 'restore', 'latest', '--yes'], 'Stopped before the restore: nothing was changed.'],
  ] as const)('`workbench %s`: exit 130, nothing changed', async (_, args, said) => {
    const before = state();
    const r = await stoppedRun(args());
    expect(r.code, r.err).toBe(130);
    expect(r.err).toContain(`workbench: ${said}`);
    expect(state()).toEqual(before);
  });

  it('`workbench export`: stops at its next row, exit 130, no file and no part of one left, no export recorded', async () => {
    const before = state();
    const out = join(tmp.dir, 'stopped', 'contacts.csv');
    mkdirSync(join(tmp.dir, 'stopped'));
    const r = await stoppedRun(['export', '--brand', brand, '--preset', 'contacts', '--unfilled', 'keep', '--out', out]);
    expect(r.code, r.err).toBe(130);
    expect(r.err).toContain(`workbench: Export stopped: nothing was written to ${out}.`);
    expect(r.out).not.toMatch(/Exported/);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(join(tmp.dir, 'stopped'))).toEqual([]);
    expect(state()).toEqual(before);
  });
});

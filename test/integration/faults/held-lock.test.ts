// Another program holds the cache's write lock (a process in the middle of a
// write transaction, as test/support/lock-holder-child.ts): a write waits for
// it as a person would, saying once who it waits for ("node
// lock-holder-child.ts (process 4242)", found by the process that has the
// file open), carries on when it lets go, and after the wait allowed
// (`--lock-wait`, 30 s by default) fails with exit 5 naming it, the note not
// half saved. The same from the app's side (Cache.tx, which every sync page
// uses): said through onLockWait, then named in the error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { run, type Io } from '../../../electron/cli/main';
import { MemorySecretStore } from '../../../electron/core/seams';
import { Cache } from '../../../electron/core/store/cache';
import { DEMO_KEY, startSimulator, type Simulator } from '../../../electron/simulator/server';
import { runCli } from '../../support/cli-run';
import { tempDir } from '../../support/tmp';
import { triageOf } from '../../support/store';

const tmp = tempDir();
let sim: Simulator;
let brand: string;
let id: string;
const db = join(tmp.dir, 'workbench.db');

beforeAll(async () => {
  sim = await startSimulator({ seed: 5, opportunities: 50, otherBrandOpportunities: 0, brands: 1, citationsPerBrand: 0 });
  brand = sim.brands[0]!.id;
  expect((await runCli(['sync', '--no-scores', '--no-citations'], { url: sim.url, db })).code).toBe(0);
  id = (JSON.parse((await runCli(['list', '--brand', brand, '--json'], { url: sim.url, db })).out) as { id: string }[])[0]!.id;
});
afterAll(async () => {
  await sim.close();
  tmp.cleanup();
});

/** The holder in its own process (node itself, so its pid is the one holding the file). */
async function holder(holdMs?: number): Promise<{ proc: ChildProcessWithoutNullStreams; release: () => Promise<void> }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'test/support/lock-holder-child.ts', db, ...(holdMs ? [String(holdMs)] : [])], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    proc.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('holding')) resolve();
    });
    proc.once('exit', (code) => reject(new Error(`the holder exited (${code})`)));
  });
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  proc.stdin.on('error', () => {}); // it may have let go by itself already
  return {
    proc,
    release: async () => {
      if (proc.exitCode === null) proc.stdin.write('release\n');
      await exited;
    },
  };
}

/** The CLI in this process with live output: `onErr` hears each line of stderr as it is written. */
function cliLive(args: string[], onErr: (text: string) => void) {
  let out = '';
  let err = '';
  const env = { TRAKKR_BASE_URL: sim.url, WORKBENCH_DB: db, WORKBENCH_RATE: '0', TRAKKR_API_KEY: DEMO_KEY };
  const io: Io = {
    out: (s) => (out += s),
    err: (s) => {
      err += s;
      onErr(err);
    },
    isTTY: false,
    readStdin: async () => '',
    env,
    secrets: new MemorySecretStore(),
  };
  return run(args, io).then((code) => ({ code, out, err }));
}

const noteOf = async () => {
  const c = await Cache.open(db);
  try {
    return triageOf(c, brand, id).note || null;
  } finally {
    c.close();
  }
};

/** The command started while the holder holds the lock; the lock let go once the command says it waits. */
async function whileHeld(args: string[]) {
  const h = await holder();
  let said!: () => void;
  const waiting = new Promise<void>((r) => (said = r));
  const done = cliLive(args, (err) => {
    if (err.includes('Waiting for')) said();
  });
  await waiting;
  await h.release();
  return { h, r: await done };
}

const WAITING = (pid: number) => `Waiting for node lock-holder-child.ts (process ${pid}), which is writing to the cache (${db}); up to 30 s…`;

describe('a write while another program holds the lock', () => {
  it('triage says whom it waits for, once, then saves the note when the lock is let go', async () => {
    const { h, r } = await whileHeld(['triage', '--brand', brand, '--id', id, '--note', 'after the wait']);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(WAITING(h.proc.pid!));
    expect(r.err.match(/Waiting for/g)).toHaveLength(1);
    expect(await noteOf()).toBe('after the wait');
  });

  it('past the wait allowed (--lock-wait 1): exit 5, the holder named, nothing changed', async () => {
    const before = await noteOf();
    const h = await holder();
    try {
      const r = await runCli(['triage', '--brand', brand, '--id', id, '--note', 'never saved', '--lock-wait', '1'], { url: sim.url, db });
      expect(r.code).toBe(5);
      expect(r.err).toContain(
        `workbench: The cache file ${db} is being written by node lock-holder-child.ts (process ${h.proc.pid}); this waited 1 s for it and gave up. Nothing was changed.`,
      );
      expect(r.err).not.toContain('database is locked');
    } finally {
      await h.release();
    }
    expect(await noteOf()).toBe(before);
  });

  it('a sync waits its turn the same way, then completes', async () => {
    const { h, r } = await whileHeld(['sync', '--no-scores', '--no-citations']);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(WAITING(h.proc.pid!));
    expect(r.out).toMatch(/Done in/);
  });
});

describe('the app’s writes (Cache.tx)', () => {
  it('says whom it waits for through onLockWait, waits for the lock to be let go, and writes', async () => {
    const heard: string[] = [];
    const cache = await Cache.open(db, { onLockWait: (m) => heard.push(m) });
    // The holder lets go by itself after a moment; this process blocks in the meantime (SQLite's wait).
    const h = await holder(1500);
    try {
      cache.tx(() => cache.doNotContact.add('waited@outlet.example'));
      expect(heard).toEqual([WAITING(h.proc.pid!)]);
      expect(cache.doNotContact.list().map((d) => d.value)).toEqual(expect.arrayContaining(['waited@outlet.example', 'held.example']));
    } finally {
      await h.release().catch(() => {});
      cache.close();
    }
  });

  it('past the lock wait: a cache-locked error naming the holder, and nothing written', async () => {
    const cache = await Cache.open(db, { lockWaitMs: 300 });
    const h = await holder();
    try {
      let failure: unknown;
      try {
        cache.tx(() => cache.doNotContact.add('never@outlet.example'));
      } catch (e) {
        failure = e;
      }
      expect(failure).toMatchObject({ kind: 'cache-locked', message: expect.stringContaining(`node lock-holder-child.ts (process ${h.proc.pid})`) });
    } finally {
      await h.release();
    }
    expect(cache.doNotContact.list().map((d) => d.value)).not.toContain('never@outlet.example');
    cache.close();
  });
});

// kill -9 at random moments of every command that writes, on a seeded
// schedule (the same moments on every run of the suite): the real
// `workbench` command in its own process, killed without a chance to clean
// up. The moments are spread over the part of the command that writes, as
// measured once here on an unkilled run: from the first temporary part of its
// file to the file under its name for a command that writes a file, from
// "Syncing" to the end for a sync, the whole run otherwise. After each kill:
// the cache passes PRAGMA integrity_check; the user's notes are as they were
// before the command or as the command leaves them, never between (an import
// or a restore is all or nothing); a file the command writes is absent or
// whole, and never reported written unless whole. Then the command run again
// completes, and what the killed one left behind (its temporary parts, once a
// minute old) is gone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, existsSync, readdirSync, readFileSync, utimesSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { startSimulator, type Simulator } from '../../../electron/simulator/server';
import { Cache } from '../../../electron/core/store/cache';
import { runCli } from '../../support/cli-run';
import { workbench } from '../../support/workbench-process';
import { tempDir } from '../../support/tmp';
import { list, setTriage } from '../../support/store';
import { withHealth } from '../../support/cache-health';

const SEED = 20261124;
const TRIALS = 3;
const tmp = tempDir();
let sim: Simulator;
let brand: string;
const OPPORTUNITIES = 2000;
const NOTED = 300;
/** The notes now (A), in the newest backup (B), and in a record file to import (C, written later). */
const notesA = new Map<string, string>();
const notesB = new Map<string, string>();
const notesC = new Map<string, string>();
let unnoted: string;
const pristine = join(tmp.dir, 'pristine');
const pristineDb = join(pristine, 'workbench.db');
const recordFile = join(tmp.dir, 'colleague-record.json');
const dncCsv = join(tmp.dir, 'crm-export.csv');
let exportRows = 0;

/** mulberry32: the schedule's random numbers, the same for the same seed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function setNotes(db: string, notes: Map<string, string>) {
  const c = await Cache.open(db);
  c.tx(() => {
    for (const [id, note] of notes) setTriage(c, brand, id, { note });
  });
  c.close();
}

beforeAll(async () => {
  sim = await startSimulator({ seed: 77, opportunities: OPPORTUNITIES, otherBrandOpportunities: 0, brands: 1, citationsPerBrand: 0 });
  brand = sim.brands[0]!.id;
  expect((await runCli(['sync', '--no-scores', '--no-citations'], { url: sim.url, db: pristineDb })).code).toBe(0);
  const c = await Cache.open(pristineDb);
  const ids = list(c, { brandId: brand }, { limit: NOTED + 1 }).map((o) => o.id);
  unnoted = ids.pop()!;
  c.tx(() => {
    for (let i = 0; i < 200; i++) c.doNotContact.add(`old${i}@outlet.example`);
  });
  c.close();
  for (const id of ids) {
    notesA.set(id, `A: pitched ${id.slice(0, 6)}`);
    notesB.set(id, `B: from the backup ${id.slice(0, 6)}`);
    notesC.set(id, `C: from a colleague ${id.slice(0, 6)}`);
  }
  // The backup holds B; the cache then moves on to A.
  await setNotes(pristineDb, notesB);
  expect((await runCli(['backup', 'now'], { url: sim.url, db: pristineDb })).code).toBe(0);
  await setNotes(pristineDb, notesA);
  // A colleague's record, written after A: importing it makes C.
  const colleague = join(tmp.dir, 'colleague', 'workbench.db');
  cpSync(pristine, join(tmp.dir, 'colleague'), { recursive: true });
  await setNotes(colleague, notesC);
  expect((await runCli(['record', 'export', '--out', recordFile], { url: sim.url, db: colleague })).code).toBe(0);
  writeFileSync(dncCsv, 'Name,Email\n' + Array.from({ length: 20_000 }, (_, i) => `Person ${i},person${i}@crm${i % 50}.example`).join('\n') + '\n');
  // The sync has work to do: changes at the service, served slowly enough to be killed in the middle.
  sim.mutate({ brand, added: 1500, changed: 500, removed: 0 });
  sim.addFaults({ kind: 'latency', ms: 60, path: '/get-outreach', count: 100_000 });
});
afterAll(async () => {
  await sim.close();
  tmp.cleanup();
});

// ---- what is checked after a kill ----------------------------------------------

function inspect(db: string) {
  return withHealth(db, (h) => ({ integrity: h.integrity, notes: h.notes, dnc: h.count('do_not_contact') }));
}

const noteSets =
  (...sets: Map<string, string>[]) =>
  (notes: Map<string, string>) => {
    const seen = new Map(notes);
    seen.delete(unnoted);
    expect(
      sets.some((s) => s.size === seen.size && [...s].every(([k, v]) => seen.get(k) === v)),
      'the notes are one whole state, never a mix',
    ).toBe(true);
  };

const csvRows = (path: string) => parse(readFileSync(path, 'utf8').replace(/^\uFEFF/, '')) as string[][];
const backupsOf = (dir: string) => join(dir, 'backups');

/** Every backup file in the folder is whole (a gzip of a record). */
function backupsWhole(dir: string) {
  for (const f of readdirSync(backupsOf(dir)).filter((n) => /^record-.+\.json\.gz$/.test(n))) {
    const r = JSON.parse(gunzipSync(readFileSync(join(backupsOf(dir), f))).toString('utf8')) as { triage: unknown[] };
    expect(r.triage.length).toBeGreaterThanOrEqual(NOTED);
  }
}

interface Command {
  name: string;
  /** Where the part that writes starts: a temporary part appearing in this folder (of the run's folder), or a line printed. */
  starts?: { partIn: (dir: string) => string } | { printed: RegExp };
  args: (dir: string) => string[];
  /** What it prints when it says its file is written. */
  reports?: RegExp;
  /** The file it writes, checked whole when present. */
  file?: (dir: string) => string;
  whole?: (path: string) => void;
  /** The notes may be one of these after it. */
  notes: (n: Map<string, string>) => void;
}

const COMMANDS: Command[] = [
  { name: 'sync', args: () => ['sync', '--no-scores', '--no-citations'], starts: { printed: /Syncing / }, notes: noteSets(notesA) },
  {
    name: 'export',
    args: (dir) => ['export', '--brand', brand, '--preset', 'contacts', '--unfilled', 'keep', '--out', join(dir, 'contacts.csv')],
    reports: /Exported [\d,]+ rows/,
    starts: { partIn: (dir) => dir },
    file: (dir) => join(dir, 'contacts.csv'),
    whole: (path) => {
      const rows = csvRows(path);
      expect(rows.every((r) => r.length === rows[0]!.length)).toBe(true);
      if (exportRows) expect(rows.length).toBe(exportRows);
      exportRows = rows.length;
    },
    notes: noteSets(notesA),
  },
  {
    name: 'record export',
    args: (dir) => ['record', 'export', '--out', join(dir, 'record.json')],
    reports: /Wrote your record/,
    starts: { partIn: (dir) => dir },
    file: (dir) => join(dir, 'record.json'),
    whole: (path) => expect((JSON.parse(readFileSync(path, 'utf8')) as { triage: unknown[] }).triage.length).toBe(NOTED),
    notes: noteSets(notesA),
  },
  { name: 'record import', args: () => ['record', 'import', recordFile], notes: noteSets(notesA, notesC) },
  { name: 'dnc import', args: () => ['dnc', 'import', dncCsv, '--column', 'Email'], notes: noteSets(notesA) },
  {
    name: 'dnc export',
    args: (dir) => ['dnc', 'export', '--out', join(dir, 'dnc.csv')],
    reports: /Wrote \d+ entries/,
    starts: { partIn: (dir) => dir },
    file: (dir) => join(dir, 'dnc.csv'),
    whole: (path) => expect(csvRows(path)).toHaveLength(201),
    notes: noteSets(notesA),
  },
  { name: 'backup now', args: () => ['backup', 'now'], starts: { partIn: backupsOf }, reports: /Backed up your record/, notes: noteSets(notesA) },
  { name: 'backup restore', args: () => ['backup', 'restore', 'latest', '--yes'], starts: { partIn: backupsOf }, notes: noteSets(notesA, notesB) },
  { name: 'triage', args: () => ['triage', '--brand', brand, '--id', unnoted, '--note', 'T', '--status', 'Done'], notes: noteSets(notesA) },
];

/**
 * The command in its own process, with `onStart` called when its writing part
 * starts (see Command.starts; at once when it has none) and the time from
 * then to its end.
 */
async function runWatched(cmd: Command, dir: string, onStart: (kill: () => void) => void) {
  const db = join(dir, 'workbench.db');
  const w = workbench(cmd.args(dir), { url: sim.url, db });
  const kill = () => w.proc.kill('SIGKILL');
  let started = 0;
  const start = () => {
    if (started) return;
    started = Date.now();
    onStart(kill);
  };
  const s = cmd.starts;
  const watcher = s && 'partIn' in s && existsSync(s.partIn(dir)) ? watch(s.partIn(dir), (_, name) => String(name).includes('.partial-') && start()) : null;
  if (s && 'printed' in s) void w.printed(s.printed).then(start, () => {});
  if (!s) start();
  const r = await w.done;
  watcher?.close();
  return { ...r, started: started > 0, ms: started ? Date.now() - started : 0 };
}

describe.each(COMMANDS)('kill -9 during `workbench $name`', (cmd) => {
  it(`${TRIALS} kills at seeded moments: integrity ok, notes whole, files whole or absent; then it runs to the end`, async () => {
    // Each command its own schedule: the same moments whichever commands run.
    const schedule = random(SEED + COMMANDS.indexOf(cmd));
    // The writing part's length, once, unkilled: the kills are spread over it.
    const ref = join(tmp.dir, `${cmd.name.replace(/\W/g, '-')}-ref`);
    cpSync(pristine, ref, { recursive: true });
    const whole = await runWatched(cmd, ref, () => {});
    expect(whole.code, whole.err).toBe(0);
    expect(whole.started, 'its writing part was seen to start').toBe(true);
    const length = Math.max(1, whole.ms);
    if (cmd.file) cmd.whole!(cmd.file(ref));

    for (let trial = 1; trial <= TRIALS; trial++) {
      const dir = join(tmp.dir, `${cmd.name.replace(/\W/g, '-')}-${trial}`);
      cpSync(pristine, dir, { recursive: true });
      const db = join(dir, 'workbench.db');
      const at = Math.floor(length * schedule());
      let timer: ReturnType<typeof setTimeout> | undefined;
      const r = await runWatched(cmd, dir, (kill) => (timer = setTimeout(kill, at)));
      clearTimeout(timer);
      const where = `trial ${trial}, killed ${at} ms into ${length} ms of writing (${r.signal ?? `exit ${r.code}`})`;

      const after = inspect(db);
      expect(after.integrity, where).toBe('ok');
      cmd.notes(after.notes);
      if (cmd.file) {
        const path = cmd.file(dir);
        if (cmd.reports && cmd.reports.test(r.out)) expect(existsSync(path), `${where}: reported written`).toBe(true);
        if (existsSync(path)) cmd.whole!(path);
      }
      if (existsSync(backupsOf(dir))) backupsWhole(dir);

      // A minute later, the command again: it completes, and the killed one's leftovers go.
      const old = new Date(Date.now() - 5 * 60_000);
      for (const folder of [dir, backupsOf(dir)])
        if (existsSync(folder)) for (const f of readdirSync(folder)) if (/\.partial-\d+$/.test(f)) utimesSync(join(folder, f), old, old);
      const again = await runCli(cmd.args(dir), { url: sim.url, db });
      expect(again.code, `${where}: run again: ${again.err}`).toBe(0);
      expect(inspect(db).integrity).toBe('ok');
      if (cmd.file) cmd.whole!(cmd.file(dir));
      for (const folder of [dir, backupsOf(dir)])
        if (existsSync(folder))
          expect(
            readdirSync(folder).filter((f) => f.includes('.partial-')),
            where,
          ).toEqual([]);
    }
  }, 120_000);
});

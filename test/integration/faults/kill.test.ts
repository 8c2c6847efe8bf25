// kill -9 in the part of every command that writes, on a seeded schedule:
// the real `workbench` command in its own process, killed without a chance to
// clean up, at a moment chosen among its own writes. The process counts its
// writes (test/support/stop-at-write.mjs, loaded only here): every write to a
// file or to SQLite, and the commits among them (a SQL COMMIT, a file renamed
// into place). An unkilled run counts them; each trial then draws the n-th
// write (or commit) from the seed and the process kills itself just before
// it, so every kill lands in a write, and the trial asserts it was killed
// (SIGKILL seen), drawing again within what a run did should one end sooner.
// WORKBENCH_KILL_SEED sets the seed; a failure names it and the moment.
// After each kill: the cache passes PRAGMA integrity_check; the user's notes
// are as they were before the command or as the command leaves them, never
// between (an import or a restore is all or nothing); a file the command
// writes is absent or whole, and never reported written unless whole. Then the
// command run again completes, and what the killed one left behind (its
// temporary parts, once a minute old) is gone. Also: a kill during the backup
// taken before an upgrade leaves no cut-short copy under a backup's name; and
// a Ctrl-C heard only after a command's commit exits 130 with the work kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import Database from 'better-sqlite3';
import { migrate } from '../../../electron/core/store/db';
import { LATEST_VERSION } from '../../../electron/core/store/migrations';
import { backToVersion11 } from '../../support/version-11';
import { backToVersion12 } from '../../support/version-12';
import { backToVersion13 } from '../../support/version-13';
import { backToVersion14 } from '../../support/version-14';
import { outletsAsCounted, outletsAsKept } from '../../support/outlet-groups';
import { BlockReader } from '../../../electron/core/store/opportunity-blocks';
import { startSimulator, type Simulator } from '../../../electron/simulator/server';
import { Cache } from '../../../electron/core/store/cache';
import { runCli } from '../../support/cli-run';
import { workbench } from '../../support/workbench-process';
import { tempDir } from '../../support/tmp';
import { list, setTriage } from '../../support/store';
import { withHealth } from '../../support/cache-health';

/** The schedule's seed: WORKBENCH_KILL_SEED=N repeats a failure's moments (its message names the seed). */
const SEED = Number(process.env.WORKBENCH_KILL_SEED ?? 20261124);
/** What each trial kills before: any write, or a commit (a transaction's COMMIT, a file renamed into place). */
const TRIALS = ['write', 'commit', 'write'] as const;
/** The hook that counts a process's writes and kills it at the chosen one. */
const COUNTED = ['--import', './test/support/stop-at-write.mjs'];
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
  // The sync has work to do: changes at the service, pages of them to write.
  sim.mutate({ brand, added: 1500, changed: 500, removed: 0 });
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
  args: (dir: string) => string[];
  /** What it prints when it says its file is written. */
  reports?: RegExp;
  /** The file it writes, checked whole when present. */
  file?: (dir: string) => string;
  /** Asserts the file whole; `where` names the trial in a failure. */
  whole?: (path: string, where?: string) => void;
  /** The notes may be one of these after it. */
  notes: (n: Map<string, string>) => void;
}

const COMMANDS: Command[] = [
  { name: 'sync', args: () => ['sync', '--no-scores', '--no-citations'], notes: noteSets(notesA) },
  {
    name: 'export',
    args: (dir) => ['export', '--brand', brand, '--preset', 'contacts', '--unfilled', 'keep', '--out', join(dir, 'contacts.csv')],
    reports: /Exported [\d,]+ rows/,
    file: (dir) => join(dir, 'contacts.csv'),
    whole: (path, where) => {
      const rows = csvRows(path);
      expect(
        rows.every((r) => r.length === rows[0]!.length),
        where,
      ).toBe(true);
      if (exportRows) expect(rows.length, where).toBe(exportRows);
      exportRows = rows.length;
    },
    notes: noteSets(notesA),
  },
  {
    name: 'record export',
    args: (dir) => ['record', 'export', '--out', join(dir, 'record.json')],
    reports: /Wrote your record/,
    file: (dir) => join(dir, 'record.json'),
    whole: (path, where) => expect((JSON.parse(readFileSync(path, 'utf8')) as { triage: unknown[] }).triage.length, where).toBe(NOTED),
    notes: noteSets(notesA),
  },
  { name: 'record import', args: () => ['record', 'import', recordFile], notes: noteSets(notesA, notesC) },
  { name: 'dnc import', args: () => ['dnc', 'import', dncCsv, '--column', 'Email'], notes: noteSets(notesA) },
  {
    name: 'dnc export',
    args: (dir) => ['dnc', 'export', '--out', join(dir, 'dnc.csv')],
    reports: /Wrote \d+ entries/,
    file: (dir) => join(dir, 'dnc.csv'),
    whole: (path, where) => expect(csvRows(path), where).toHaveLength(201),
    notes: noteSets(notesA),
  },
  { name: 'backup now', args: () => ['backup', 'now'], reports: /Backed up your record/, notes: noteSets(notesA) },
  { name: 'backup restore', args: () => ['backup', 'restore', 'latest', '--yes'], notes: noteSets(notesA, notesB) },
  { name: 'triage', args: () => ['triage', '--brand', brand, '--id', unnoted, '--note', 'T', '--status', 'Done'], notes: noteSets(notesA) },
];

type Counts = Record<'write' | 'commit' | 'sql-commit' | 'backup', number>;

/**
 * The command in its own process with its writes counted; `stopAt` (kind:n[:signal]) has it signal
 * itself just before that write. `counts` are those of a run that ended by itself (null when killed);
 * `stoppedAt` names the write the signal was sent before (null when the run never reached it).
 */
async function counted(args: string[], dir: string, stopAt?: string) {
  const countsFile = `${dir}.counts.json`;
  writeFileSync(countsFile, JSON.stringify({ counts: null, stoppedAt: null }));
  const w = workbench(args, {
    url: sim.url,
    db: join(dir, 'workbench.db'),
    nodeArgs: COUNTED,
    env: { WORKBENCH_TEST_WRITE_COUNTS: countsFile, WORKBENCH_TEST_STOP_AT: stopAt ?? '' },
  });
  const r = await w.done;
  return { ...r, ...(JSON.parse(readFileSync(countsFile, 'utf8')) as { counts: Counts | null; stoppedAt: string | null }) };
}

describe.each(COMMANDS)('kill -9 during `workbench $name`', (cmd) => {
  it(`${TRIALS.length} kills at seeded writes: killed each time; integrity ok, notes whole, files whole or absent; then it runs to the end`, async () => {
    // Each command its own schedule: the same moments whichever commands run.
    const schedule = random(SEED + COMMANDS.indexOf(cmd));
    // Its writes, counted once on an unkilled run: the kills are drawn among them.
    const ref = join(tmp.dir, `${cmd.name.replace(/\W/g, '-')}-ref`);
    cpSync(pristine, ref, { recursive: true });
    const whole = await counted(cmd.args(ref), ref);
    expect(whole.code, whole.err).toBe(0);
    if (cmd.file) cmd.whole!(cmd.file(ref));

    for (const [t, kind] of TRIALS.entries()) {
      const dir = join(tmp.dir, `${cmd.name.replace(/\W/g, '-')}-${t + 1}`);
      const db = join(dir, 'workbench.db');
      let of = whole.counts![kind];
      expect(of, `${kind}s in an unkilled run`).toBeGreaterThan(0);
      let at = 0;
      let r: Awaited<ReturnType<typeof counted>> | null = null;
      // A run that ends before the drawn write made fewer: draw again among the writes it made.
      for (let draw = 0; draw < 3 && r?.signal !== 'SIGKILL'; draw++) {
        if (r?.counts) of = r.counts[kind];
        at = 1 + Math.floor(schedule() * of);
        cpSync(pristine, dir, { recursive: true });
        r = await counted(cmd.args(dir), dir, `${kind}:${at}`);
      }
      const where = `WORKBENCH_KILL_SEED=${SEED}, trial ${t + 1}: kill -9 just before ${kind} ${at} of ${of} (${r!.stoppedAt ?? 'not reached'})`;
      // The kill landed where it was drawn: the process reached that write, sent itself SIGKILL there, and died of it.
      expect(r!.stoppedAt, `${where}: the drawn write was reached (exit ${r!.code}; ${r!.err})`).toMatch(new RegExp(`^${kind} ${at}: `));
      expect(r!.signal, `${where}: it was killed (exit ${r!.code}; ${r!.err})`).toBe('SIGKILL');

      const after = inspect(db);
      expect(after.integrity, where).toBe('ok');
      cmd.notes(after.notes);
      if (cmd.file) {
        const path = cmd.file(dir);
        if (cmd.reports && cmd.reports.test(r!.out)) expect(existsSync(path), `${where}: reported written`).toBe(true);
        if (existsSync(path)) cmd.whole!(path, `${where}: ${path} left whole`);
      }
      if (existsSync(backupsOf(dir))) backupsWhole(dir);

      // A minute later, the command again: it completes, and the killed one's leftovers go.
      const old = new Date(Date.now() - 5 * 60_000);
      for (const folder of [dir, backupsOf(dir)])
        if (existsSync(folder)) for (const f of readdirSync(folder)) if (f.includes('.partial-')) utimesSync(join(folder, f), old, old);
      const again = await runCli(cmd.args(dir), { url: sim.url, db });
      expect(again.code, `${where}: run again: ${again.err}`).toBe(0);
      expect(inspect(db).integrity).toBe('ok');
      if (cmd.file) cmd.whole!(cmd.file(dir), `${where}: run again`);
      for (const folder of [dir, backupsOf(dir)])
        if (existsSync(folder))
          expect(
            readdirSync(folder).filter((f) => f.includes('.partial-')),
            where,
          ).toEqual([]);
    }
  }, 120_000);
});

describe('kill -9 during the backup taken before an upgrade of the cache', () => {
  it('leaves no cut-short copy under a backup’s name; the next start upgrades, backs up whole, and sweeps the part', async () => {
    // A cache of version 3 with 12 MB in it: its backup takes many steps.
    const dir = join(tmp.dir, 'upgrade');
    mkdirSync(join(dir, 'backups'), { recursive: true });
    const db = join(dir, 'workbench.db');
    const old = new Database(db);
    migrate(old, 0, 3);
    old.exec('CREATE TABLE filler (b BLOB)');
    const fill = old.prepare('INSERT INTO filler VALUES (?)');
    old.transaction(() => {
      for (let i = 0; i < 3000; i++) fill.run(Buffer.alloc(4000, i % 251));
    })();
    old.close();
    const pristineUpgrade = `${dir}-pristine`;
    cpSync(dir, pristineUpgrade, { recursive: true });
    const args = ['list', '--brand', 'a'.repeat(32)];
    const ref = `${dir}-ref`;
    cpSync(pristineUpgrade, ref, { recursive: true });
    const steps = (await counted(args, ref)).counts!.backup;
    expect(steps).toBeGreaterThan(3);
    const at = 2 + Math.floor(random(SEED - 1)() * (steps - 2));
    const r = await counted(args, dir, `backup:${at}`);
    const where = `WORKBENCH_KILL_SEED=${SEED}: kill -9 at step ${at} of ${steps} of the backup (${r.stoppedAt ?? 'not reached'})`;
    expect(r.stoppedAt, where).toMatch(/^backup \d+: a step of the copy to workbench\.db\.v3\..+\.bak\.partial-\d+-[0-9a-f]{8}$/);
    expect(r.signal, where).toBe('SIGKILL');
    const left = readdirSync(join(dir, 'backups'));
    expect(
      left.filter((f) => f.endsWith('.bak')),
      where,
    ).toEqual([]);
    expect(
      left.filter((f) => /\.bak\.partial-\d+-[0-9a-f]{8}$/.test(f)),
      where,
    ).toHaveLength(1);
    // The next start, a minute on: upgraded, its backup whole (version 3, every row), the killed one's part gone.
    for (const f of left) utimesSync(join(dir, 'backups', f), new Date(Date.now() - 5 * 60_000), new Date(Date.now() - 5 * 60_000));
    const again = await runCli(args, { url: sim.url, db });
    expect(again.code, again.err).toBe(0);
    const backups = readdirSync(join(dir, 'backups'));
    expect(
      backups.filter((f) => f.includes('.partial-')),
      backups.join(' '),
    ).toEqual([]);
    const bak = backups.filter((f) => f.endsWith('.bak'));
    expect(bak).toHaveLength(1);
    const copy = new Database(join(dir, 'backups', bak[0]!), { readonly: true });
    try {
      expect(copy.pragma('user_version', { simple: true })).toBe(3);
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(copy.prepare('SELECT count(*) AS n FROM filler').get()).toEqual({ n: 3000 });
    } finally {
      copy.close();
    }
  }, 60_000);
});

/**
 * The next start after a kill in an upgrade: the same command runs to its end,
 * the cache is at the latest version and `check` reads it; the file is whole
 * and every note is where it was.
 */
async function startsAgain(args: string[], db: string, where: string, check: (c: Cache) => void): Promise<void> {
  const again = await runCli(args, { url: sim.url, db });
  expect(again.code, `${where}: run again: ${again.err}`).toBe(0);
  const c = await Cache.open(db);
  try {
    expect(c.db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    check(c);
  } finally {
    c.close();
  }
  expect(inspect(db).integrity).toBe('ok');
  noteSets(notesA)(inspect(db).notes);
}

/**
 * `list` on a copy of the cache in `from` (an older version), killed at a write
 * drawn from the seed until one lands on a statement `conversion` matches (in
 * the upgrade, not before or after it). Returns the killed copy's folder and
 * the message naming the moment.
 */
async function killInConversion(from: string, conversion: RegExp, seedOffset: number) {
  const args = ['list', '--brand', brand];
  const ref = `${from}-ref`;
  cpSync(from, ref, { recursive: true });
  const whole = await counted(args, ref);
  expect(whole.code, whole.err).toBe(0);
  const schedule = random(SEED + seedOffset);
  const dir = `${from}-killed`;
  let r: Awaited<ReturnType<typeof counted>> | null = null;
  let at = 0;
  for (let draw = 0; draw < 30 && !conversion.test(r?.stoppedAt ?? ''); draw++) {
    at = 1 + Math.floor(schedule() * whole.counts!.write);
    rmSync(dir, { recursive: true, force: true });
    cpSync(from, dir, { recursive: true });
    r = await counted(args, dir, `write:${at}`);
  }
  const where = `WORKBENCH_KILL_SEED=${SEED}: kill -9 just before write ${at} of ${whole.counts!.write} (${r!.stoppedAt ?? 'not reached'})`;
  expect(r!.stoppedAt, where).toMatch(new RegExp(`^write \\d+: SQL ${conversion.source}`));
  expect(r!.signal, where).toBe('SIGKILL');
  return { dir, where, args };
}

describe('kill -9 while version 12 puts the records in blocks', () => {
  it('leaves version 11 as it was (every record, every note); the next start converts it, every record read back the same', async () => {
    // A version-11 cache with the pristine's data: its records one by one (codec 1), as version 11's code kept them.
    const v11 = join(tmp.dir, 'v11-pristine');
    cpSync(pristine, v11, { recursive: true });
    const old = new Database(join(v11, 'workbench.db'));
    const records = backToVersion11(old);
    old.close();
    expect(records.size).toBe(OPPORTUNITIES);
    // Killed at a write that lands in the conversion (a block written), not before or after it.
    const { dir, where, args } = await killInConversion(v11, /INSERT INTO opportunity_blocks/, 12);
    // Killed part-way: still version 11, whole, with every record and note where they were.
    const db = join(dir, 'workbench.db');
    const after = withHealth(db, (h) => ({
      integrity: h.integrity,
      notes: h.notes,
      version: h.row<{ v: number }>('SELECT user_version AS v FROM pragma_user_version')!.v,
      records: h.count('opportunity_records'),
      blocks: h.row<{ n: number }>("SELECT count(*) AS n FROM sqlite_schema WHERE name = 'opportunity_blocks'")!.n,
    }));
    expect(after, where).toMatchObject({ integrity: 'ok', version: 11, records: OPPORTUNITIES, blocks: 0 });
    noteSets(notesA)(after.notes);
    // The next start converts it: every record read back as it was stored, the notes kept.
    await startsAgain(args, db, where, (c) => {
      const reader = new BlockReader(c.readable);
      for (const [rowid, json] of records) expect(reader.json(rowid), `record ${rowid}`).toBe(json);
    });
  }, 120_000);
});

describe('kill -9 while version 14 counts the outlets', () => {
  it('leaves version 13 as it was (every note, no outlets table); the next start counts them, as the opportunities say', async () => {
    const v13 = join(tmp.dir, 'v13-pristine');
    cpSync(pristine, v13, { recursive: true });
    const old = new Database(join(v13, 'workbench.db'));
    backToVersion13(old);
    old.close();
    // Killed at the write that fills the new table, not before or after it.
    const { dir, where, args } = await killInConversion(v13, /INSERT INTO opportunity_outlets/, 14);
    const db = join(dir, 'workbench.db');
    const after = withHealth(db, (h) => ({
      integrity: h.integrity,
      notes: h.notes,
      version: h.row<{ v: number }>('SELECT user_version AS v FROM pragma_user_version')!.v,
      outlets: h.row<{ n: number }>("SELECT count(*) AS n FROM sqlite_schema WHERE name LIKE 'opportunit%outlet%'")!.n,
    }));
    expect(after, where).toMatchObject({ integrity: 'ok', version: 13, outlets: 0 });
    noteSets(notesA)(after.notes);
    // The next start upgrades it: every outlet's groups as the opportunities say them, the notes kept.
    await startsAgain(args, db, where, (c) => {
      const outlets = outletsAsKept(c.db);
      expect(outlets.length).toBeGreaterThan(10);
      expect(outlets).toEqual(outletsAsCounted(c.db));
    });
  }, 120_000);
});

describe('kill -9 while version 15 indexes the sparse lists', () => {
  it('leaves version 14 as it was (every note, no partial index); the next start builds them, each holding the rows its condition names', async () => {
    const v14 = join(tmp.dir, 'v14-pristine');
    cpSync(pristine, v14, { recursive: true });
    const old = new Database(join(v14, 'workbench.db'));
    backToVersion14(old);
    // Some rows in each (the list's mirror of a triage: what the indexes hold).
    old.exec("UPDATE opportunities SET starred = 1 WHERE rowid % 7 = 0; UPDATE opportunities SET stage = 'Drafted' WHERE rowid % 5 = 0");
    old.exec("UPDATE opportunities SET snoozed_until = '2099-01-01' WHERE rowid % 11 = 0");
    old.close();
    // Killed at the statement that builds the last index, the other two built in the same transaction (not before or after it).
    const { dir, where, args } = await killInConversion(v14, /CREATE INDEX opportunities_staged/, 15);
    const db = join(dir, 'workbench.db');
    const indexes = "SELECT count(*) AS n FROM sqlite_schema WHERE name IN ('opportunities_starred', 'opportunities_snoozed', 'opportunities_staged')";
    const after = withHealth(db, (h) => ({
      integrity: h.integrity,
      notes: h.notes,
      version: h.row<{ v: number }>('SELECT user_version AS v FROM pragma_user_version')!.v,
      indexes: h.row<{ n: number }>(indexes)!.n,
    }));
    expect(after, where).toMatchObject({ integrity: 'ok', version: 14, indexes: 0 });
    noteSets(notesA)(after.notes);
    // The next start upgrades it: the three indexes, each holding exactly the rows its condition names.
    await startsAgain(args, db, where, (c) => {
      expect(c.db.prepare(indexes).get()).toEqual({ n: 3 });
      for (const [index, rows] of [
        ['opportunities_starred', 'starred = 1'],
        ['opportunities_snoozed', 'snoozed_until IS NOT NULL'],
        ['opportunities_staged', 'stage IS NOT NULL'],
      ]) {
        const n = c.db.prepare(`SELECT count(*) AS n FROM opportunities NOT INDEXED WHERE ${rows}`).get() as { n: number };
        expect(n.n, index).toBeGreaterThan(3);
        expect(c.db.prepare(`SELECT count(*) AS n FROM opportunities INDEXED BY ${index} WHERE ${rows}`).get(), index).toEqual(n);
      }
    });
  }, 120_000);
});

describe('kill -9 while version 13 moves the history and the contacts', () => {
  it('leaves version 12 as it was (every history row, contact and note); the next start converts it, every row read back the same', async () => {
    // A version-12 cache with the pristine's data: history a rowid table, every contact's raw written out.
    const v12 = join(tmp.dir, 'v12-pristine');
    cpSync(pristine, v12, { recursive: true });
    const old = new Database(join(v12, 'workbench.db'));
    backToVersion12(old);
    const HISTORY = 'SELECT id, brand_id, opportunity_id, at, kind, detail FROM history ORDER BY id';
    const CONTACTS =
      'SELECT opportunity_rowid, position, brand_key, COALESCE(raw, email) AS raw, email, identity, domain, catch_all, valid FROM contacts ORDER BY 1, 2';
    const history = old.prepare(HISTORY).all();
    const contacts = old.prepare(CONTACTS).all();
    old.close();
    expect(history.length).toBeGreaterThanOrEqual(NOTED);
    expect(contacts.length).toBeGreaterThan(OPPORTUNITIES);
    // Killed at a write that lands in the conversion (rows moved into a new table), not before or after it.
    const { dir, where, args } = await killInConversion(v12, /INSERT INTO (history|contacts) /, 13);
    // Killed part-way: still version 12, whole, with every history row, contact and note where they were.
    const db = join(dir, 'workbench.db');
    const after = withHealth(db, (h) => ({
      integrity: h.integrity,
      notes: h.notes,
      version: h.row<{ v: number }>('SELECT user_version AS v FROM pragma_user_version')!.v,
    }));
    expect(after, where).toMatchObject({ integrity: 'ok', version: 12 });
    noteSets(notesA)(after.notes);
    const killed = new Database(db, { readonly: true });
    expect(killed.prepare(HISTORY).all(), where).toEqual(history);
    expect(killed.prepare(CONTACTS).all(), where).toEqual(contacts);
    killed.close();
    // The next start converts it: every history row (its number too) and contact read back as they were, the notes kept.
    await startsAgain(args, db, where, (c) => {
      expect(c.db.prepare(HISTORY).all()).toEqual(history);
      expect(c.db.prepare(CONTACTS).all()).toEqual(contacts);
    });
  }, 120_000);
});

describe('Ctrl-C heard only after the command’s commit', () => {
  it('the work is kept, said so, and the exit is 130', async () => {
    const dir = join(tmp.dir, 'late-stop');
    cpSync(pristine, dir, { recursive: true });
    const r = await counted(['triage', '--brand', brand, '--id', unnoted, '--note', 'saved before the stop'], dir, 'sql-commit:1:SIGINT');
    expect(r.stoppedAt, 'the stop was sent just before the commit').toBe('sql-commit 1: SQL COMMIT');
    expect(r.code, `${r.out}\n${r.err}\n${JSON.stringify(r.counts)}`).toBe(130);
    expect(r.out).toContain('Note edited');
    expect(r.err).toContain('Stopped: the stop came once the work above was done, and it is kept.');
    expect(inspect(join(dir, 'workbench.db')).notes.get(unnoted)).toBe('saved before the stop');
  });
});

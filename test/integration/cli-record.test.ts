// The user's record from the `workbench` command line, on a real cache file:
// history, record export and import, backups listed and restored (shown first,
// replaced only with --yes), the do-not-contact list from and to CSV, and a
// damaged cache recovered with the triage kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { startSimulator, type Simulator } from '../../electron/simulator/server';
import { runCli } from '../support/cli-run';
import { tempDir } from '../support/tmp';

let sim: Simulator;
const tmp = tempDir();
let brand: string;
let ids: string[];

beforeAll(async () => {
  sim = await startSimulator({ seed: 31, opportunities: 120, otherBrandOpportunities: 0, brands: 1, citationsPerBrand: 5 });
  brand = sim.brands[0]!.id;
  expect((await cli(['sync', '--no-citations', '--no-scores'])).code).toBe(0);
  ids = (JSON.parse((await cli(['list', '--brand', brand, '--json'])).out) as { id: string }[]).map((o) => o.id);
});
afterAll(async () => {
  await sim.close();
  tmp.cleanup();
});

const cli = (args: string[], db = join(tmp.dir, 'main', 'workbench.db')) => runCli(args, { url: sim.url, db });

/**
 * The first change to the record (a note and a stage on the first opportunity), made once in this file by whichever
 * test needs it first: the backup, the record export and the recovery below build on it, so each also passes alone.
 */
let firstChange: ReturnType<typeof cli> | null = null;
const pitchedAna = () => (firstChange ??= cli(['triage', '--brand', brand, '--id', ids[0]!, '--status', 'Done', '--note', 'Pitched Ana']));

describe('the record on the command line', () => {
  it('triage leaves history, and the first change writes a backup of the record beside the cache', async () => {
    expect((await pitchedAna()).code).toBe(0);
    const h = await cli(['history', '--brand', brand, '--id', ids[0]!]);
    expect(h.code).toBe(0);
    expect(h.out).toMatch(/Note edited\s+Pitched Ana/);
    // (--status is deprecated: carried onto the stage it stands for.)
    expect(h.out).toMatch(/Stage\s+Won/);
    const list = await cli(['backup', 'list', '--json']);
    const backups = JSON.parse(list.out) as { id: string; counts: { triage: number } }[];
    expect(backups).toHaveLength(1);
    expect(backups[0]!.counts.triage).toBe(1);
    expect(existsSync(join(tmp.dir, 'main', 'backups', backups[0]!.id))).toBe(true);
  });

  it('backup restore shows the date and counts, and replaces nothing without --yes', async () => {
    expect((await pitchedAna()).code).toBe(0);
    await cli(['triage', '--brand', brand, '--id', ids[1]!, '--note', 'a later note']);
    const shown = await cli(['backup', 'restore', 'latest']);
    expect(shown.code).toBe(2);
    expect(shown.out).toMatch(/^The backup of \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC holds 1 triaged, 1 notes, 0 do-not-contact, 0 exports\.\nRestoring replaces/);
    expect((await cli(['history', '--brand', brand, '--id', ids[1]!])).out).toContain('a later note');
    const done = await cli(['backup', 'restore', 'latest', '--yes']);
    expect(done.code).toBe(0);
    expect(done.out).toMatch(/Restored\. What was there before is kept as record-.+\.json\.gz\./);
    expect((await cli(['history', '--brand', brand, '--id', ids[1]!])).out).toContain('Nothing done to it yet.');
  });

  it('record export, then import into another cache: a dry run first, then the merge; twice changes nothing', async () => {
    expect((await pitchedAna()).code).toBe(0);
    const file = join(tmp.dir, 'record.json');
    const e = await cli(['record', 'export', '--out', file]);
    expect(e.code).toBe(0);
    expect(e.out).toMatch(/Wrote your record to .+record\.json: 1 triaged opportunities \(1 notes\)/);
    const other = join(tmp.dir, 'other', 'workbench.db');
    const dry = await cli(['record', 'import', file, '--dry-run'], other);
    expect(dry.code).toBe(0);
    expect(dry.out).toMatch(/Would add 1 triaged opportunities/);
    expect((await cli(['record', 'import', file], other)).out).toMatch(/Added 1 triaged opportunities/);
    expect((await cli(['record', 'import', file], other)).out).toMatch(/Nothing would change: everything in it is already here\./);
    writeFileSync(join(tmp.dir, 'cut.json'), readFileSync(file, 'utf8').slice(0, 100));
    const bad = await cli(['record', 'import', join(tmp.dir, 'cut.json')], other);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/Nothing was imported\. The file is not a complete JSON document/);
  });

  it('dnc import from a CSV column with a dry run, and export', async () => {
    const csv = join(tmp.dir, 'crm.csv');
    writeFileSync(csv, 'Name,Email\nAna,ana@outlet.example\nBo,not-an-address\n');
    const dry = await cli(['dnc', 'import', csv, '--dry-run']);
    expect(dry.out).toMatch(
      /^Column "Email": 2 lines; would add 1, 0 already on the list, 1 skipped\.\n {2}skipped 1: not an e-mail address or domain\n {4}line 3: not-an-address/,
    );
    expect((await cli(['dnc', 'list'])).out).toContain('empty');
    expect((await cli(['dnc', 'import', csv])).code).toBe(0);
    const out = join(tmp.dir, 'dnc.csv');
    expect((await cli(['dnc', 'export', '--out', out])).out).toBe(`Wrote 1 entries to ${out}.\n`);
    expect(readFileSync(out, 'utf8')).toMatch(/^kind,value,note,added_at\r\naddress,ana@outlet\.example,imported from CSV,/);
  });

  it('cache recover on a healthy cache changes nothing unless forced; a cache open in another process is never moved aside', async () => {
    const db = join(tmp.dir, 'main', 'workbench.db');
    // (SQLite's -wal and -shm files come and go with any connection; the cache and its backups are what count.)
    const files = () =>
      readdirSync(join(tmp.dir, 'main'))
        .filter((f) => !/-(wal|shm)$/.test(f))
        .sort();
    const before = files();
    const r = await cli(['cache', 'recover']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('passes its integrity check: there is nothing to recover');
    expect(files()).toEqual(before);
    // Another process (the app, a sync) has it open: neither recover --force nor reset moves it from under that process.
    const holder = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `
      const { Cache } = await import(${JSON.stringify(join(process.cwd(), 'electron/core/store/cache.ts'))});
      const c = await Cache.open(process.argv[1]);
      console.log('open');
      process.stdin.once('data', () => { c.close(); process.exit(0); });`,
        db,
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    try {
      // Open, or gone (then the test fails here rather than waiting for its time-out).
      await new Promise<void>((resolve, reject) => {
        holder.stdout.once('data', () => resolve());
        holder.once('exit', (code) => reject(new Error(`the process holding the cache exited early (${code})`)));
      });
      for (const args of [
        ['cache', 'recover', '--force'],
        ['cache', 'reset'],
      ]) {
        const refused = await cli(args);
        expect(refused.code, args.join(' ')).not.toBe(0);
        expect(refused.err, args.join(' ')).toMatch(new RegExp(`open in another window or terminal \\(process ${holder.pid}\\), so it was not moved`));
        // The way out when that process is long gone (a crash, its pid reused): the marker is named.
        expect(refused.err, args.join(' ')).toContain(`workbench.db.open-${holder.pid}`);
      }
      expect(readdirSync(join(tmp.dir, 'main')).some((f) => f.startsWith('workbench.db.damaged-'))).toBe(false);
    } finally {
      holder.stdin.write('x');
      await new Promise((resolve) => holder.once('exit', resolve));
    }
  });

  it('cache recover: a damaged cache is kept aside, rebuilt with the triage carried over', async () => {
    const db = join(tmp.dir, 'main', 'workbench.db');
    expect((await pitchedAna()).code).toBe(0);
    await cli(['triage', '--brand', brand, '--id', ids[2]!, '--note', 'survive this']);
    const fd = openSync(db, 'r+');
    writeSync(fd, Buffer.alloc(4096, 0x33), 0, 4096, 0);
    closeSync(fd);
    const r = await cli(['cache', 'recover']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(
      /^The cache file was damaged\. It was kept aside as .+ The damaged file could not be read at all .+ The backup of .+ added \d+ more items?\./s,
    );
    expect(readdirSync(join(tmp.dir, 'main')).some((f) => f.startsWith('workbench.db.damaged-'))).toBe(true);
    // The fresh cache has the record, not yet the opportunities: history of one needs a sync first.
    const h = await cli(['history', '--brand', brand, '--id', ids[0]!]);
    expect(h.code).toBe(2); // no opportunities until the next sync
    expect((await cli(['sync', '--no-citations', '--no-scores'])).code).toBe(0);
    expect((await cli(['history', '--brand', brand, '--id', ids[0]!])).out).toContain('Pitched Ana');
  });
});
